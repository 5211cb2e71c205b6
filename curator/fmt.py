"""`curator fmt`: put incident files into the canonical layout (see `curator.write`).

A round trip through ruamel.yaml costs ~5 ms a file, ten minutes for 100,000 files, and
almost every file of a library is already canonical. So a file is first given to
`curator.write.fastcheck`, which proves in ~0.1 ms that most canonical files are canonical
(and answers "don't know" for the rest, which are rendered). With a cache (what the CLI
does), the verdict "these bytes are canonical" is also kept by the SHA-256 of the bytes
(`curator.write.verdicts`), and an unchanged file costs a read and a hash — or only a
`stat`, when it has not changed since its digest was kept (`curator.file_digests`) and
its bytes are not wanted (`curator fmt` keeps only those of the files that change).

Memory: the main process reads each file, looks its verdict up, and hands the bytes of the
files still to check to worker processes as it goes; it keeps the bytes of the files that
change (to print a diff or write them), and of the others only when asked to. Workers are
forked once there is enough to check, before anything large is built.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
import stat
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from curator.cache import SHARDS
from curator.file_digests import FileDigests
from curator.findings import Finding
from curator.fix import TEXT_FIXES, mark_kept, tab_in_text
from curator.library import Library
from curator.lint import display_path, display_paths, in_subfolders, named_files
from curator.load import MAX_BYTES, at_editor_lines
from curator.regular import read_regular
from curator.rules import not_an_incident_file
from curator.workers import Workers, worker_count
from curator.write.canonical import MARK_INSIDE, Refused, render, rewrite, unreadable
from curator.write.diff import unified_diff
from curator.write.fastcheck import is_canonical
from curator.write.verdicts import Verdicts

# Files to check before worker processes pay off: a render costs ~5 ms, a worker ~20 ms.
PARALLEL_FROM = 16
# Files a worker checks per task: a fast check costs ~0.1 ms and a task ~0.2 ms of passing
# data between processes, so a task holds many files; few enough that a chunk of files
# that all need a render (~5 ms each) does not leave the other workers idle for long.
CHUNK_MAX = 64
Progress = Callable[[int, int], None]
# What a worker finds for one file: None if it is canonical, its canonical bytes if they
# differ, or why it cannot be formatted. Small, so that little crosses between processes.
Outcome = bytes | Refused | None
_EDITOR_LINES = re.compile("\r\n?|\n")
_Task = tuple[int, bytes]  # (index of the file, its bytes)


@dataclass(frozen=True, slots=True)
class Formatted:
    """One file: its bytes before and after, or why it was left alone. When the bytes of
    unchanged files are not kept (`format_files(keep_unchanged=False)`), an unchanged file
    has empty `before` and `after`."""

    path: Path
    display: str
    before: bytes
    after: bytes | None = None
    refused: Refused | None = None

    @property
    def changed(self) -> bool:
        return self.after is not None and self.after != self.before

    def diff(self) -> str:
        return unified_diff(self.display, self.before, self.after)


class Selection(NamedTuple):
    files: list[Path]  # the incident files to rewrite
    others: list[Finding]  # entries named or listed that are not incident files (IL107)


def incident_files(
    library: Library, paths: Sequence[Path] = (), cwd: Path | None = None
) -> Selection:
    """The files to rewrite: those named (folders stand for the files inside), or every
    incident file of the library; and, as lint reports them, the entries that are not
    incident files, so that a file named in vain is never passed over in silence."""
    selection = Selection([], [])
    entries: Sequence[tuple[Path, bool | Finding]]
    entries = _named(library, paths, cwd) if paths else _listed(library)
    for path, regular in entries:
        if isinstance(regular, Finding):
            selection.others.append(regular)
        elif regular and path.name.endswith(".yaml"):
            selection.files.append(path)
        else:
            display = display_path(path, cwd)
            selection.others.extend(not_an_incident_file.check_entry(path, display))
    return selection


def _named(
    library: Library, paths: Sequence[Path], cwd: Path | None
) -> list[tuple[Path, bool | Finding]]:
    """Each file named, and whether it is a regular file; or, for one the library does
    not read (in a subfolder of incidents/, say), lint's finding (IL107)."""
    named = named_files(library, paths)
    unread = in_subfolders(library, named, cwd)
    return [
        (path, unread[where] if where in unread else _regular(path))
        for where, path in named.items()
    ]


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)  # a link is not followed (IL107)
    except OSError:
        return False


def _listed(library: Library) -> list[tuple[Path, bool]]:
    """Each incident entry of the library, and whether it is a regular file: as `_regular`
    says, told by the folder's listing where the file system gives the type there (an
    `lstat` a file cost 0.35 s at 100,000 files)."""
    folder = library.incidents_dir
    with os.scandir(folder) as listing:
        regular = {entry.name for entry in listing if entry.is_file(follow_symlinks=False)}
    return [(folder / name, name in regular) for name in library.incident_names()]


def format_file(path: Path, cwd: Path | None = None) -> Formatted:
    """The canonical form of one file, computed in memory; nothing is written."""
    return format_bytes(path, display_path(path, cwd), read_regular(path, MAX_BYTES))


def format_bytes(path: Path, display: str, before: bytes) -> Formatted:
    return _formatted(path, display, before, canonical_form(before), keep_unchanged=True)


def canonical_form(before: bytes) -> Outcome:
    """None if `before` is canonical; else its canonical bytes, or why there are none."""
    if is_canonical(before):  # a proof, in a fraction of a render's time
        return None
    try:
        after = render(before).encode("utf-8")
    except Refused as refused:
        return _fix_hint(refused, before)
    return None if after == before else after


def _fix_hint(refused: Refused, before: bytes) -> Refused:
    """What mends a file refused: `curator fix`, where its text fixes make the file one to
    format, said instead of "by hand" — it replaces a tab YAML cannot read (IL601),
    removes a U+FEFF past the file's start (IL606), and may mend a file the loader
    cannot read (a zero-width character after a key's colon). (Two spaces for a tab in a
    key, or for one before the spaces of a deeper key, leave it unreadable: fix refuses it
    too.) A tab ruamel.yaml cannot read in a plain value or a key, which fix leaves, is
    said in the words of lint and fix (IL601), which tell how to mend it."""
    if _at_a_tab(refused, before):
        hint, by_hand = "; `curator fix` replaces the tab (IL601)", "; fix it by hand"
    elif refused.message == MARK_INSIDE:
        hint, by_hand = "; `curator fix` removes it (IL606)", "; remove it by hand"
    elif refused.message.startswith("cannot be read ("):  # (the loader's)
        hint, by_hand = "; `curator fix` mends it", "; fix it by hand"
    else:
        return refused
    if not _formatted_once_fixed(before):
        text = before.decode("utf-8", errors="replace")
        return mark_kept(tab_in_text(refused, text), text)
    return Refused(refused.position, refused.message.removesuffix(by_hand) + hint)


def _at_a_tab(refused: Refused, before: bytes) -> bool:
    line, column = refused.position
    text = before.decode("utf-8", errors="replace")
    # (Lines as the refusal counts them: at each CR too in a file of lone CR line ends.)
    lines = _EDITOR_LINES.split(text) if at_editor_lines(text) else text.split("\n")
    return line <= len(lines) and lines[line - 1][column - 1 : column] == "\t"


def _formatted_once_fixed(before: bytes) -> bool:
    """Whether the text fixes of `curator fix` (tabs to spaces among them) make `before`
    a file that can be formatted."""
    try:
        text = before.decode("utf-8")
        for text_fix in TEXT_FIXES:
            text = text_fix(text).text
        render(text.encode("utf-8"))
    except (UnicodeDecodeError, Refused):
        return False
    return True


def format_files(
    paths: Sequence[Path],
    write: bool,
    cwd: Path | None = None,
    *,
    cache: Library | None = None,
    jobs: int | None = None,
    progress: Progress | None = None,
    keep_unchanged: bool = True,
) -> list[Formatted]:
    """Every file in its canonical form, in order; with `write`, changed files are
    rewritten (atomically). `cache`: the library whose `.curator-cache/` keeps verdicts;
    `jobs` caps the worker processes; `progress` is called with (files done, files in all);
    `keep_unchanged=False` drops the bytes of unchanged files (100,000 files need not be
    held to say which few change).
    """
    run = _Run(paths, cwd, cache, progress, keep_unchanged)
    try:
        tasks = run.tasks()
        # Fork workers only if enough files need checking, and before much is held.
        first = list(itertools.islice(tasks, PARALLEL_FROM))
        enough = len(first) == PARALLEL_FROM
        count = worker_count(len(paths) if enough else len(first), PARALLEL_FROM, jobs)
        with Workers(count) as workers:
            size = max(1, min(CHUNK_MAX, len(paths) // (8 * count)))
            checked = workers.in_order(_check_task, itertools.chain(first, tasks), size)
            for index, outcome in checked:
                run.finish(index, outcome)
    finally:  # an interrupted run keeps the verdicts it found
        if run.verdicts is not None:
            run.verdicts.save()
        if run.digests is not None:
            run.digests.save(prune=False)  # (`paths` may be a few of the library's files)
    return rewrite(run.results(), write, _refused)


def _refused(result: Formatted, why: Refused) -> Formatted:
    return Formatted(result.path, result.display, result.before, refused=why)


class _Run:
    """The state of one `format_files` run in the main process: results by index, and
    the bytes (and digests) of the files that workers are checking."""

    def __init__(
        self,
        paths: Sequence[Path],
        cwd: Path | None,
        cache: Library | None,
        progress: Progress | None,
        keep_unchanged: bool,
    ) -> None:
        self.paths = paths
        self.absolute = [os.path.abspath(path) for path in paths]
        self.displays = display_paths(self.absolute, cwd)
        self.verdicts = Verdicts.open(cache) if cache is not None else None
        # With verdicts kept and unchanged files' bytes not wanted, a file whose stat
        # vouches for a digest kept earlier is not even read (`curator.file_digests`).
        self.digests = (
            FileDigests.open(cache, every_file=len(paths) >= SHARDS)
            if cache is not None and not keep_unchanged
            else None
        )
        self.progress = progress
        self.keep_unchanged = keep_unchanged
        self.slots: list[Formatted | None] = [None] * len(paths)
        self.pending: dict[int, tuple[bytes, str | None]] = {}  # index → (bytes, digest)
        self.done = 0

    def tasks(self) -> Iterator[_Task]:
        """The files whose verdict is not known, read as the workers need them; the others
        are settled on the way."""
        for index, path in enumerate(self.paths):
            try:
                before, digest = self._known(index)
                if self.verdicts is not None and digest and self.verdicts.canonical(digest):
                    self._settle(index, before or b"", None)
                    continue
                if before is None:  # (its verdict unknown: read now, and hashed again)
                    before, digest = self._read(path)
            except OSError as exc:  # unreadable, or no longer a regular file: left alone
                self._settle(index, b"", unreadable(exc))
                continue
            self.pending[index] = (before, digest)
            yield index, before

    def _known(self, index: int) -> tuple[bytes | None, str | None]:
        """The file's bytes (None if its stat vouched for a digest kept earlier) and its
        digest (None if verdicts are not kept); an OSError if it cannot be read."""
        if self.digests is not None:
            before, digest = self.digests.read(self.absolute[index])
            if len(digest) == 32:  # (else no regular file: `_read` says why)
                return before, digest.hex()
        return self._read(self.paths[index])

    def _read(self, path: Path) -> tuple[bytes, str | None]:
        before = read_regular(path, MAX_BYTES)
        return before, hashlib.sha256(before).hexdigest() if self.verdicts is not None else None

    def finish(self, index: int, outcome: Outcome) -> None:
        before, digest = self.pending.pop(index)
        if outcome is None and digest is not None:
            # A fast-check verdict is kept like a render's: it is a proof that a render
            # gives the bytes back, and it is tied to the code that gave it (the store's
            # context includes curator's source, fastcheck.py too). Without it a warm run
            # would repeat the fast check, ~10x the cost of a read and a hash.
            self.verdicts.remember(digest)  # type: ignore[union-attr]  # digest implies it
        self._settle(index, before, outcome)

    def _settle(self, index: int, before: bytes, outcome: Outcome) -> None:
        path, display = self.paths[index], self.displays[index]
        self.slots[index] = _formatted(path, display, before, outcome, self.keep_unchanged)
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, len(self.paths))

    def results(self) -> list[Formatted]:
        assert not self.pending and all(slot is not None for slot in self.slots)
        return self.slots  # type: ignore[return-value]  # every slot is filled


def _formatted(
    path: Path, display: str, before: bytes, outcome: Outcome, keep_unchanged: bool
) -> Formatted:
    if isinstance(outcome, Refused):
        return Formatted(path, display, before, refused=outcome)
    if outcome is not None:
        return Formatted(path, display, before, outcome)
    if not keep_unchanged:
        return Formatted(path, display, b"", b"")
    return Formatted(path, display, before, before)  # one object: held once, not twice


def _check_task(task: _Task) -> tuple[int, Outcome]:
    index, before = task
    return index, canonical_form(before)
