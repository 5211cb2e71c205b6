"""`curator fmt`: put incident files into the canonical layout (see `curator.write`)."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from curator.library import Library
from curator.lint import display_path, expand
from curator.write.atomic import write_atomic
from curator.write.canonical import Refused, render


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
    display = display_path(path, cwd)
    before = path.read_bytes()
    try:
        return Formatted(path, display, before, render(before).encode("utf-8"))
    except Refused as refused:
        return Formatted(path, display, before, refused=refused)


def format_files(paths: Sequence[Path], write: bool, cwd: Path | None = None) -> list[Formatted]:
    results = [format_file(path, cwd) for path in paths]
    if write:
        for result in results:
            if result.changed:
                assert result.after is not None
                write_atomic(result.path, result.after)
    return results
