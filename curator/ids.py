"""`curator assign-ids`: give every placeholder id (`IL-NEW-<slug>`) its number.

The next free number is one more than the highest number any file of the library holds,
withdrawn incidents included (and, given `reserved`, numbers of files deleted in the
history), so a number is never given twice. Placeholders are numbered in the order of
their ids, so the result depends on nothing but the files. Each renamed incident's file
follows its id, and every `related`, `duplicate_of` and `not_duplicate_of` naming it is
rewritten through the canonical writer.

Everything is computed before anything is written: a library the tool cannot read in
full is refused as a whole, since an unreadable file might hold a reference.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from curator.library import INCIDENTS, Library
from curator.load import MAX_BYTES, START, Position, load_bytes
from curator.model import NUMBERED_ID, numbered_id
from curator.regular import NotRegular, read_regular
from curator.rules.placeholder_id import is_placeholder
from curator.signals import deferred, held_off
from curator.write.atomic import ChangedMeanwhile, remove_unchanged, write_atomic
from curator.write.canonical import Refused, render

REFERENCE_LISTS = ("related", "not_duplicate_of")


class CannotAssign(Exception):
    """The library is not in a state where numbers can be given safely."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Assignment:
    placeholder: str
    number: str
    old_path: Path
    new_path: Path


@dataclass
class Plan:
    assignments: list[Assignment] = field(default_factory=list)
    rewrites: dict[Path, bytes] = field(default_factory=dict)  # final path → new bytes
    references: list[Path] = field(default_factory=list)  # other files whose refs changed
    read: dict[Path, bytes] = field(default_factory=dict)  # path read → the bytes rewritten

    def mapping(self) -> dict[str, str]:
        return {a.placeholder: a.number for a in self.assignments}


def number_of(incident_id: str) -> int | None:
    return int(incident_id[3:]) if NUMBERED_ID.fullmatch(incident_id) else None


def plan(library: Library, reserved: Iterable[int] = ()) -> Plan:
    """What `assign` would do; reads everything, writes nothing."""
    ids: dict[Path, str | None] = {}  # the id of every file read
    files: dict[Path, tuple[bytes, Any]] = {}  # bytes and values of those that may be rewritten
    problems: list[str] = []
    id_positions: dict[Path, Position] = {}
    occupied: set[str] = set()  # names of entries that hold no incident, yet are taken
    for path in library.incident_paths():
        try:
            raw = read_regular(path, MAX_BYTES)
        except NotRegular:
            # A folder, a FIFO or a link holds no incident (lint reports it, IL107); its
            # name is taken all the same. A link may be meant as one: refuse, not guess.
            occupied.add(path.stem)
            if path.is_symlink():
                problems.append(f"{_at(path, START)}: a symbolic link; incidents are regular files")
            continue
        except OSError as exc:
            problems.append(f"{_at(path, START)}: cannot read the file ({exc.strerror or exc})")
            continue
        loaded = load_bytes(raw)
        if loaded.problems:
            problem = loaded.problems[0]
            problems.append(f"{_at(path, problem.position)}: cannot be read ({problem.message})")
        if loaded.document is not None:
            id_positions[path] = loaded.document.position(("id",))
        ids[path] = _id(loaded.data)
        if may_name_a_placeholder(raw):
            files[path] = (raw, loaded.data)
    taken = set(reserved) | {n for n in map(number_of, occupied) if n is not None}
    placeholders: dict[str, Path] = {}
    for path, incident_id in ids.items():
        taken |= {n for n in (number_of(path.stem), number_of(incident_id or "")) if n is not None}
        if incident_id is None or not is_placeholder(incident_id):
            continue
        where = _at(path, id_positions.get(path, START))
        if incident_id != path.stem:
            problems.append(f"{where}: holds id {incident_id}; the file name must match")
        elif incident_id in placeholders:
            other = placeholders[incident_id].name
            problems.append(f"{where}: {incident_id} is used by {other} too")
        placeholders[incident_id] = path
    if problems:
        raise CannotAssign(problems)
    first = max(taken, default=0) + 1
    result = Plan()
    for offset, placeholder in enumerate(sorted(placeholders)):
        number = numbered_id(first + offset)
        old = placeholders[placeholder]
        result.assignments.append(
            Assignment(placeholder, number, old, old.with_name(number + ".yaml"))
        )
    _plan_rewrites(result, files)
    return result


def may_name_a_placeholder(raw: bytes) -> bool:
    """Whether a file's bytes may hold a placeholder id (its own, or a reference): as
    written, or spelt with an escape of a double-quoted text (`"IL\\x2dNEW-a"`), which
    holds a backslash. A file that holds neither names none, and is never rewritten: its
    bytes and values are not kept (those of 100,000 files took 1.1 GB)."""
    return b"IL-NEW-" in raw or b"\\" in raw


def _at(path: Path, position: Position) -> str:
    """Where a problem is, as the other commands say it: the file as it stands in the
    library (assign-ids runs at its root), its line and its column."""
    return f"{INCIDENTS}/{path.name}:{position.line}:{position.column}"


def _id(data: Any) -> str | None:
    value = data.get("id") if isinstance(data, dict) else None
    return value if isinstance(value, str) else None


def _plan_rewrites(result: Plan, files: dict[Path, tuple[bytes, Any]]) -> None:
    mapping = result.mapping()
    renamed = {a.old_path: a.new_path for a in result.assignments}
    problems: list[str] = []
    for path, (raw, data) in files.items():
        if path not in renamed and not _refers_to(data, mapping):
            continue
        try:
            text = render(raw, lambda tree: renumber(tree, mapping))
        except Refused as refused:
            problems.append(f"{_at(path, refused.position)}: {refused.message}")
            continue
        result.rewrites[renamed.get(path, path)] = text.encode("utf-8")
        result.read[path] = raw
        if path not in renamed:
            result.references.append(path)
    if problems:
        raise CannotAssign(problems)


def _refers_to(data: Any, mapping: dict[str, str]) -> bool:
    if not isinstance(data, dict):
        return False
    refs = [data.get("duplicate_of")]
    for key in REFERENCE_LISTS:
        value = data.get(key)
        refs += value if isinstance(value, list) else []
    return any(isinstance(ref, str) and ref in mapping for ref in refs)


def renumber(tree: Any, mapping: dict[str, str]) -> None:
    """Replace placeholder ids by their numbers in the id and every reference, in place."""
    if not isinstance(tree, CommentedMap):
        return
    for key in ("id", "duplicate_of"):
        value = tree.get(key)
        if isinstance(value, str) and value in mapping:
            tree[key] = mapping[value]
    for key in REFERENCE_LISTS:
        refs = tree.get(key)
        for index, ref in enumerate(refs if isinstance(refs, CommentedSeq) else ()):
            if isinstance(ref, str) and ref in mapping:
                refs[index] = mapping[ref]


def assign(library: Library, reserved: Iterable[int] = ()) -> Plan:
    """Number every placeholder: write renamed files first (never over an existing file),
    then the references, then remove the placeholder files; a file is rewritten or
    removed only if it still holds the bytes it was read as (an edit saved meanwhile is
    the user's: it was overwritten). A write that fails (a full disk), a file changed
    meanwhile, or Ctrl-C undoes the steps before it: a numbered copy left beside its
    placeholder was the same incident twice, and numbered again by the next run."""
    result = plan(library, reserved)
    created: list[Path] = []
    replaced: list[Path] = []  # references rewritten
    removed: list[Path] = []  # placeholder files
    try:
        # Each step and its note for the undo under `deferred`: a stop between the two
        # left the step out of the undo (a numbered copy beside its placeholder, or the
        # placeholder deleted and its numbered copy removed by the undo: the incident lost).
        for assignment in result.assignments:
            path = assignment.new_path
            with deferred():
                write_atomic(path, result.rewrites[path], exclusive=True, like=assignment.old_path)
                created.append(path)
        for path in result.references:
            with deferred():
                _replace(path, result.rewrites[path], result.read[path])
                replaced.append(path)
        for assignment in result.assignments:
            with deferred():
                _remove(assignment.old_path, result.read[assignment.old_path])
                removed.append(assignment.old_path)
    except BaseException:  # (Ctrl-C between two steps too; an OSError names its file)
        # Stopped half-way, the undo left a numbered copy beside its placeholder: worse
        # than either end, so a second Ctrl-C (or SIGTERM) waits for it to finish.
        with held_off():
            _undo(result, created, replaced, removed)
        raise
    return result


def _replace(path: Path, data: bytes, read: bytes) -> None:
    try:
        write_atomic(path, data, replacing=read)
    except ChangedMeanwhile as changed:
        raise CannotAssign([f"{_at(path, START)}: {changed}"]) from None


def _remove(path: Path, read: bytes) -> None:
    try:
        remove_unchanged(path, read)
    except ChangedMeanwhile as changed:
        raise CannotAssign([f"{_at(path, START)}: {changed}"]) from None


def _undo(result: Plan, created: list[Path], replaced: list[Path], removed: list[Path]) -> None:
    """Put back the placeholder files removed, remove the numbered files written (which
    frees the space a full disk lacked), then put back the references rewritten."""
    for path in removed:
        write_atomic(path, result.read[path], exclusive=True)
    for path in created:
        path.unlink(missing_ok=True)
    for path in replaced:
        write_atomic(path, result.read[path])
