"""Every released incident, rendered once: its file `incidents/IL-NNNN.json`, its part of
incidents.json, its CSV record, and the summary that the aggregate files need.

At 100,000 incidents this is most of an export, so:
- each file is parsed once: lint renders every incident whose file it parses, right
  after checking it, in its worker process (`IncidentStream.extra`), and checks the files
  in id order, so that the main process writes each incident as it comes;
- the files lint does not parse (its result was cached) are rendered once lint is done,
  in the same workers, from their released data kept in `.curator-cache/` (the "export"
  store, `curator.export.released_cache`) under the SHA-256 of the file's bytes, or parsed
  again. What is kept of a released incident is what incidents.json holds of it, on one
  line (`released_text`: its dates are taken from the history, never from there); of a
  draft, its released data as compact JSON. An entry is kept under the SHA-256 of the very
  bytes that were parsed, and looked up under the SHA-256 of the bytes lint's kept result
  was found in (`curator.lint.Extra.kept`): an entry can only ever describe the file as
  it is. (Keyed by the committed blob, it described the file as committed: a file a git
  filter changes on checkout, `ident` say, got the committed bytes' data from a warm
  export and its own from a cold one.) The store's context names the code that parses
  (curator's source and the versions of Python, pydantic, PyYAML and libyaml);
- the workers write the per-incident files; the results reach the aggregate files in id
  order, so the bytes do not depend on which worker was faster.

Whether its data was cached or not, every incident is validated through
`ExportedIncident` before anything is written.
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from curator.export.build import CSV_HEADER, Summary, csv_line, model_json
from curator.export.collect import (
    EXPORTED_STATUSES,
    Snapshot,
    compact,
    exported_incident,
    file_name,
    released_data,
)
from curator.export.errors import ExportError
from curator.export.graph import graph_lines
from curator.export.model import ExportedIncident
from curator.export.released_cache import ReleasedCache
from curator.export.write import ExportWriter, Written, write_file
from curator.library import INCIDENTS
from curator.lint import Extra, validate
from curator.lint import Progress as Step
from curator.load import load_bytes
from curator.model import Incident
from curator.regular import content_digest
from curator.rules.base import IncidentFile
from curator.workers import Workers

_CHUNK = 200


class Task(NamedTuple):  # (named tuples: 100,000 of each cross between processes)
    """One incident file to render, with what the main process knows of it."""

    path: str
    digest: str | None  # the SHA-256 of its bytes as lint found them (None: not known)
    dates: tuple[str, str] | None  # added, modified (None: no commit in the history)
    released: bytes | None  # its released data (JSON on one line), if lint or the cache had it


class Rendered(NamedTuple):
    """What the main process does with one incident; `summary` is None for a draft."""

    digest: str | None  # the SHA-256 of the bytes rendered, which the cache keeps it under
    # The released data, JSON on one line, for the cache and the change log; None when it
    # is the task's own (`Task.released`), which the main process still has (100,000 texts
    # of ~3 KB are not sent back the way they came), or, for a released incident, `nested`
    # on one line (`released_text`), which the main process makes of it: serialising the
    # incident a second time, and sending both, cost a cold export of 100,000 ≈1.5 s.
    released: bytes | None
    fresh: bool  # parsed, not taken from the cache: worth keeping there
    summary: Summary | None = None
    file: Written | None = None
    nested: bytes = b""  # the incident as incidents.json holds it (indented, no comma)
    record: bytes = b""  # its CSV record
    node: bytes = b""  # its node in graph.json (`graph_lines`; b"" unless published)
    edges: bytes = b""  # its facet edges there, joined


# What crosses from a worker for each incident: its `Rendered`, the summary and the file as
# plain tuples (`_sent`, `_arrived`). Pickle sends a named tuple through two calls of
# Python code, its `__getnewargs__` in the worker and its class's `__new__` here, three a
# rendered incident: 4 µs of a worker's time and 2 of the main process's, where a plain
# tuple is pickled and unpickled in C, and made a named tuple again by `tuple.__new__`.
Sent = tuple[Any, ...]
# Given a released incident's summary, and what makes its released data (`released_text`).
Observer = Callable[[Summary, Callable[[], bytes]], None]
Graph = Callable[[bytes, bytes], None]  # given a published incident's node and facet edges
# Incidents lint rendered while an earlier one is still to come (its lint result was
# cached), held whole up to this many; past it, only their released data is held and they
# are rendered again after lint, so that memory stays bounded (about 11 KB each).
HELD = 5_000


class IncidentStream:
    """`incidents/IL-NNNN.json`, `incidents.json` and `incidents.csv`, written in id order
    as the incidents come: rendered by lint as it parses each file (`extra`, in its
    workers, files checked in id order), then, once lint is done (`finish`), the files it
    did not parse (its result was cached), rendered from the export's cache or parsed
    again. Each incident is rendered once and then let go; `observe` sees every released
    incident's summary and data (on one line, made if asked for) on the way, `graph` every
    published incident's lines of graph.json (`curator.export.graph.GraphStream.add`).

    `incidents.json` is streamed: the same bytes as dumping the whole list at once.
    """

    def __init__(
        self,
        writer: ExportWriter,
        snapshot: Snapshot,
        cache: ReleasedCache,
        observe: Observer,
        graph: Graph,
    ) -> None:
        self.writer, self.snapshot, self.cache = writer, snapshot, cache
        self.observe, self.graph = observe, graph
        self.dates = snapshot.dates()
        self.turns = {path: turn for turn, path in enumerate(snapshot.files)}
        self.kept: dict[str, str] = {}  # the digest of each file lint did not parse, by path
        self.digests: set[str] = set()  # of every file's bytes: what the cache keeps entries of
        self.summaries: list[Summary] = []
        self.written = 0  # files of `snapshot.files` written (or skipped: drafts)
        self.held: dict[str, Rendered] = {}  # rendered early, till their turn
        self.parsed: dict[str, Rendered] = {}  # rendered early, their pieces let go (HELD)
        self._items: list[bytes] = []  # written a chunk at a time: fewer, larger writes
        self._records: list[bytes] = []
        self._streams = contextlib.ExitStack()

    def __enter__(self) -> IncidentStream:
        (self.writer.folder / INCIDENTS).mkdir()
        with contextlib.ExitStack() as streams:
            self.aggregate = streams.enter_context(self.writer.stream("incidents.json"))
            self.table = streams.enter_context(self.writer.stream("incidents.csv"))
            self._streams = streams.pop_all()
        self.aggregate.write(b'{\n  "incidents": [')
        self.table.write(CSV_HEADER)
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: Any) -> None:
        if kind is not None:  # the files closed as they are (as `GraphStream.__exit__`)
            self._streams.__exit__(kind, *rest)
            return
        with self._streams:
            self._flush()
            self.aggregate.write(b"\n  ]\n}\n" if self.summaries else b"]\n}\n")

    def extra(self, workers: Workers) -> Extra:
        """What lint does with each file it parses: render it (`render_parsed`), in id
        order, and hand it here (`take`); once it has checked every file, what it rendered
        starts going to the cache, on one of `workers`, while its cross-file rules run."""
        folder, previous = self.writer.folder, self.writer.previous
        render = functools.partial(_render_parsed_sent, folder=folder, previous=previous)
        checked = functools.partial(self._save_meanwhile, workers)
        # The digest is what the cache keeps an incident under; nothing else reads it.
        keeping = self.cache.keeping
        return Extra(render, self.take, self._turn, self._dates_of, checked, self._kept, keeping)

    def _kept(self, path: str, digest: str) -> None:
        self.kept[path] = digest
        self.digests.add(digest)

    def _save_meanwhile(self, workers: Workers) -> None:
        self.cache.save_meanwhile(set(self.digests), workers)  # (a copy: it grows meanwhile)

    def _turn(self, path: str) -> int:
        """Where the file comes in the export (`Snapshot.files`), which lint checks the
        files in: what `name_order` says, looked up, not worked out again."""
        return self.turns.get(path, len(self.turns))

    def _dates_of(self, path: str) -> tuple[str, str] | None:
        return self.dates.get(file_name(path))

    def take(self, path: str, sent: Sent | None) -> None:
        """One incident lint rendered (`_sent`; None: it did not, a draft lint refused, say)."""
        if sent is None:
            return
        rendered = _arrived(sent)
        files = self.snapshot.files
        if self.written < len(files) and files[self.written] == path:
            self._write(rendered)
            self.written += 1
            self._write_held()
        elif len(self.held) < HELD:
            self.held[path] = rendered
        else:
            self.parsed[path] = Rendered(rendered.digest, released_text(rendered), rendered.fresh)

    def _write_held(self) -> None:
        files, held = self.snapshot.files, self.held
        while held and self.written < len(files) and files[self.written] in held:
            rendered = held.pop(files[self.written])
            self._write(rendered)
            self.written += 1

    def finish(self, workers: Workers, progress: Step | None = None) -> list[Summary]:
        """The incidents lint did not render, rendered by `workers`, each written in its
        turn with those it did; `progress`, (files done, files in all)."""
        files = self.snapshot.files
        left = files[self.written :]
        todo = self._tasks([path for path in left if path not in self.held], workers)
        sent: deque[bytes | None] = deque()  # each task's released data, till it is rendered
        rendering = render_all(workers, todo, self.writer.folder, self.writer.previous, sent)
        for done, path in enumerate(left, self.written + 1):
            if progress is not None:
                progress(done, len(files))
            rendered = self.held.pop(path, None)
            if rendered is None:
                rendered = next(rendering)
                carried = sent.popleft()
                if rendered.released is None:
                    rendered = rendered._replace(released=carried)
            self._write(rendered)
        self.written = len(files)
        # Written while the export goes on (see `export`, which waits for it at its end).
        self._save_meanwhile(workers)
        return self.summaries

    def _write(self, rendered: Rendered) -> None:
        """Write one incident in its turn; its released data kept in the cache if it was
        parsed (`Rendered.fresh`)."""
        if rendered.digest is not None:
            self.digests.add(rendered.digest)
            if rendered.fresh and self.cache.keeping:
                self.cache.keep(rendered.digest, released_text(rendered))
        if rendered.summary is None or rendered.file is None:
            return  # a draft
        self.writer.add(rendered.file)
        self._items.append(rendered.nested)
        self._records.append(rendered.record)
        # Made only if asked for (`released_text` copies the ~3 KB of the incident): the
        # change log reads it of an incident whose file changed since `since` alone.
        self.observe(rendered.summary, functools.partial(released_text, rendered))
        if rendered.node:
            self.graph(rendered.node, rendered.edges)
        self.summaries.append(rendered.summary)
        # The first item goes at once, so that every later batch starts with a comma.
        if len(self._items) == _CHUNK or len(self.summaries) == 1:
            self._flush()

    def _flush(self) -> None:
        if self._items:
            first = len(self.summaries) == len(self._items)
            self.aggregate.write((b"\n" if first else b",\n") + b",\n".join(self._items))
            self.table.write(b"".join(self._records))
            self._items, self._records = [], []

    def _tasks(self, paths: list[str], workers: Workers) -> deque[Task]:
        """A task for each file lint did not render, by id; taken off as they are rendered.
        What lint parsed is written to the cache now, while the workers render and the
        export goes on, not after: then each text is freed once it is written and its
        incident rendered."""
        cache = self.cache
        digests = [self.kept.get(path) for path in paths]
        parsed = self.parsed
        missing = [d for p, d in zip(paths, digests, strict=True) if d and p not in parsed]
        cached = cache.lookup(missing) if missing else {}
        for rendered in parsed.values():
            if rendered.digest is not None and rendered.released is not None:
                self.digests.add(rendered.digest)
                if rendered.fresh:
                    cache.keep(rendered.digest, rendered.released)
        self._save_meanwhile(workers)
        dates = self.dates
        found: deque[Task] = deque()
        for path, digest in zip(paths, digests, strict=True):
            early = parsed.pop(path, None)
            released = early.released if early else cached.get(digest, None) if digest else None
            found.append(Task(path, digest, dates.get(file_name(path)), released))
        return found


def render_all(
    workers: Workers,
    tasks: deque[Task],
    folder: Path,
    previous: Path | None,
    sent: deque[bytes | None],
) -> Iterator[Rendered]:
    """`render` for every task, in order, emptying `tasks` as it goes; each task's
    released data is appended to `sent` as the task is handed out."""
    work = functools.partial(_render_sent, folder=folder, previous=previous)
    return map(_arrived, workers.in_order(work, _taken(tasks, sent), _CHUNK))


def _taken(tasks: deque[Task], sent: deque[bytes | None]) -> Iterator[Task]:
    while tasks:
        task = tasks.popleft()
        sent.append(task.released)
        yield task


def _render_sent(task: Task, folder: Path, previous: Path | None = None) -> Sent:
    return _sent(render(task, folder, previous))


def _render_parsed_sent(
    file: IncidentFile,
    digest: str | None,
    when: tuple[str, str] | None,
    folder: Path,
    previous: Path | None = None,
) -> Sent | None:
    rendered = render_parsed(file, digest, when, folder, previous)
    return None if rendered is None else _sent(rendered)


def _sent(rendered: Rendered) -> Sent:
    """`rendered` as it crosses from a worker: see `Sent`."""
    summary, file = rendered.summary, rendered.file
    return (
        *rendered[:3],
        None if summary is None else tuple(summary),
        None if file is None else tuple(file),
        *rendered[5:],
    )


def _arrived(sent: Sent) -> Rendered:
    """The `Rendered` that `_sent` sent."""
    summary, file = sent[3], sent[4]
    return tuple.__new__(
        Rendered,
        (
            *sent[:3],
            None if summary is None else tuple.__new__(Summary, summary),
            None if file is None else tuple.__new__(Written, file),
            *sent[5:],
        ),
    )


def render(task: Task, folder: Path, previous: Path | None = None) -> Rendered:
    """Read (unless cached), validate and render one incident; write its own file under
    `folder`, the export's temporary folder (`incidents/` must exist there), or link it
    from `previous`, the export being replaced, where it holds the same bytes."""
    if task.released is not None:
        try:
            data = json.loads(task.released)
            if _is_released(data):
                return _render(task, (folder, previous), data, None, False)
        except (ValueError, KeyError, TypeError):  # (a ValidationError is a ValueError)
            pass
        # Not what curator keeps: read the file, and keep what it holds instead.
    with open(task.path, "rb") as stream:
        raw = stream.read()
    incident, problems = validate(load_bytes(raw))
    if incident is None:  # lint passed, so this is a bug, not bad input
        raise ExportError(f"{task.path} passed lint but does not load: {problems}; please report")
    # Kept under the digest of the bytes read here, which may be newer than lint's.
    parsed = task._replace(digest=content_digest(raw))
    return _render_validated(parsed, (folder, previous), incident, True)


def render_parsed(
    file: IncidentFile,
    digest: str | None,
    when: tuple[str, str] | None,
    folder: Path,
    previous: Path | None = None,
) -> Rendered | None:
    """`render` for a file lint has just parsed (`curator.lint.Extra`; in lint's worker,
    perhaps), given its dates (added, modified; None: no commit). None when lint could not
    read it as an incident, or when its rendering fails (an id a release refuses, a write
    that fails): then it is rendered again after lint, where its error is the export's.
    `digest` is the parsed bytes' (`content_digest`, which lint works out): the cache keeps
    the data under it (None with the cache off: lint does not work it out). Nor
    is a file with schema errors rendered: lint may judge one by its values less a U+FEFF
    (`curator.lint.parse_incident`), which are not its bytes' and must not be kept in the
    cache under their digest."""
    incident = file.incident
    if incident is None or file.schema_errors:
        return None
    if when is None and incident.status in EXPORTED_STATUSES:
        return None  # no commit in the history of HEAD: `render` says so, after lint
    task = Task(str(file.path), digest, when, None)
    try:
        return _render_validated(task, (folder, previous), incident, True)
    except (OSError, ValueError):  # (a ValidationError is a ValueError)
        return None


_FIELDS = list(Incident.model_fields)  # what `released_data` holds, in its order
_DATED = [*_FIELDS, "added", "modified"]  # and what `released_text` holds


def _is_released(data: Any) -> bool:
    """Whether `data` has the shape of what `released_data` gives, or of `released_text`:
    every field of an incident (a missing one would be exported as its default), perhaps
    followed by dates (which `_render` replaces with the history's), and a status that is
    text (any other would be taken for a draft's, and the incident left out). The values
    are checked as the file's would be: through `ExportedIncident`."""
    if not isinstance(data, dict) or type(data.get("status")) is not str:
        return False
    keys = list(data)
    return keys in (_FIELDS, _DATED)


def released_text(rendered: Rendered) -> bytes:
    """What the cache keeps of a rendered incident, and the change log compares: its
    `released` data, or else the incident as incidents.json holds it (`nested`), on one line.
    JSON holds a line break only between values (one in a text is written `\\n`), where a
    space is the same, so the line is the same JSON: the incident's fields, as
    `released_data` gives them, and its dates."""
    if rendered.released is not None:
        return rendered.released
    assert rendered.nested, "a draft's released data is always given"
    return rendered.nested.replace(b"\n", b" ")


def _render_validated(
    task: Task, folders: tuple[Path, Path | None], incident: Incident, fresh: bool
) -> Rendered:
    """`_render` of an incident just parsed and validated: only what `ExportedIncident`
    asks beyond `Incident` is checked again (`exported_incident`). Anything else (a draft,
    no dates, a value it refuses) goes the whole way, for the same result or error."""
    if incident.status in EXPORTED_STATUSES and task.dates is not None:
        exported = exported_incident(incident, *task.dates)
        if exported is not None:
            return _rendered(task, folders, exported, None, fresh)
    data = released_data(incident)
    return _render(task, folders, data, compact(data), fresh)


def _render(
    task: Task,
    folders: tuple[Path, Path | None],
    data: dict[str, Any],
    released: bytes | None,
    fresh: bool,
) -> Rendered:
    if data["status"] not in EXPORTED_STATUSES:
        return Rendered(task.digest, released, fresh)
    if task.dates is None:  # the checkout matches HEAD (`collect`): a bug, as above
        raise ExportError(f"{task.path} has no commit in the history of HEAD; please report")
    added, modified = task.dates
    incident = ExportedIncident.model_validate({**data, "added": added, "modified": modified})
    return _rendered(task, folders, incident, released, fresh)


def _rendered(
    task: Task,
    folders: tuple[Path, Path | None],
    incident: ExportedIncident,
    released: bytes | None,
    fresh: bool,
) -> Rendered:
    text = model_json(incident)
    folder, previous = folders
    file = write_file(folder, f"{INCIDENTS}/{incident.id}.json", text + b"\n", previous)
    nested = b"    " + text.replace(b"\n", b"\n    ")
    summary = Summary.of(incident)
    node, edges = graph_lines(incident, summary.terms)
    record = csv_line(incident)
    return Rendered(task.digest, released, fresh, summary, file, nested, record, node, edges)
