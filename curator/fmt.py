"""`curator fmt`: put incident files into the canonical layout (see `curator.write`).

A round trip through ruamel.yaml costs ~5 ms a file, ten minutes for 100,000 files, and
almost every file of a library is already canonical. So, with a cache (what the CLI does),
the verdict "these bytes are canonical" is kept by the SHA-256 of the bytes
(`curator.write.verdicts`), and an unchanged file costs a read and a hash; the files that
must be rendered are rendered in worker processes when there are enough of them.
"""

from __future__ import annotations

import difflib
import hashlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from curator.library import Library
from curator.lint import display_path, display_paths, expand
from curator.workers import Workers, worker_count
from curator.write.atomic import write_atomic
from curator.write.canonical import Refused, render
from curator.write.verdicts import Verdicts

# Files to render before worker processes pay off: a render costs ~5 ms, a worker ~20 ms.
PARALLEL_FROM = 16
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Formatted:
    """One file: its bytes before and after, or why it was left alone."""

    path: Path
    display: str
    before: bytes
    after: bytes | None = None
    refused: Refused | None = None

    @property
    def changed(self) -> bool:
        return self.after is not None and self.after != self.before

    def diff(self) -> str:
        if not self.changed:
            return ""
        assert self.after is not None
        before = self.before.decode("utf-8", errors="replace").splitlines(keepends=True)
        after = self.after.decode("utf-8").splitlines(keepends=True)
        lines = difflib.unified_diff(
            before, after, f"a/{self.display}", f"b/{self.display}", lineterm="\n"
        )
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def incident_files(library: Library, paths: Sequence[Path] = ()) -> list[Path]:
    """The files to rewrite: those named (folders stand for the files inside), or every
    incident file of the library. Folders and other odd entries are lint's business."""
    candidates = expand(paths) if paths else library.incident_paths()
    return [path for path in candidates if path.is_file() and path.suffix in (".yaml", ".yml")]


def format_file(path: Path, cwd: Path | None = None) -> Formatted:
    """The canonical form of one file, computed in memory; nothing is written."""
    return format_bytes(path, display_path(path, cwd), path.read_bytes())


def format_bytes(path: Path, display: str, before: bytes) -> Formatted:
    try:
        after = render(before).encode("utf-8")
    except Refused as refused:
        return Formatted(path, display, before, refused=refused)
    # The same object when nothing changes: 100,000 files are held once, not twice.
    return Formatted(path, display, before, before if after == before else after)


def format_files(
    paths: Sequence[Path],
    write: bool,
    cwd: Path | None = None,
    *,
    cache: Library | None = None,
    jobs: int | None = None,
    progress: Progress | None = None,
) -> list[Formatted]:
    """Every file in its canonical form, in order; with `write`, changed files are
    rewritten (atomically). `cache`: the library whose `.curator-cache/` keeps verdicts;
    `jobs` caps the worker processes; `progress` is called with (files done, files in all).
    """
    verdicts = Verdicts.open(cache) if cache is not None else None
    displays = display_paths([os.path.abspath(path) for path in paths], cwd)
    results: list[Formatted | None] = [None] * len(paths)
    todo: list[tuple[Path, str, bytes]] = []
    digests: list[str] = []
    for index, (path, display) in enumerate(zip(paths, displays, strict=True)):
        before = path.read_bytes()
        digest = hashlib.sha256(before).hexdigest()
        if verdicts is not None and verdicts.canonical(digest):
            results[index] = Formatted(path, display, before, before)
        else:
            todo.append((path, display, before))
            digests.append(digest)
    done = len(paths) - len(todo)
    indices = [index for index, result in enumerate(results) if result is None]
    try:
        with Workers(worker_count(len(todo), PARALLEL_FROM, jobs)) as workers:
            rendered = workers.in_order(_format_task, todo, chunk_size=8)
            for index, digest, result in zip(indices, digests, rendered, strict=True):
                results[index] = result
                if verdicts is not None and result.after == result.before:
                    verdicts.remember(digest)
                done += 1
                if progress is not None:
                    progress(done, len(paths))
    finally:  # an interrupted run keeps the verdicts it found
        if verdicts is not None:
            verdicts.save()
    if write:
        for result in results:
            assert result is not None
            if result.changed:
                assert result.after is not None
                write_atomic(result.path, result.after)
    return results  # type: ignore[return-value]  # every slot is filled above


def _format_task(task: tuple[Path, str, bytes]) -> Formatted:
    return format_bytes(*task)
