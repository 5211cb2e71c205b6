"""Every released incident, rendered once: its file `incidents/IL-NNNN.json`, its part of
incidents.json, its CSV record, and the summary that the aggregate files need.

At 100,000 incidents this is most of an export, so:
- the incidents are rendered in worker processes (`curator.workers`), which also write the
  per-incident files; the results come back in id order, so the bytes do not change;
- parsing is the costly part (libyaml and the model), so no file is parsed twice: lint
  hands over the released data of every file it parses (`Snapshot.parsed`), and the
  released data of each file is kept in `.curator-cache/` (the "export" store) under the
  file's git blob id, for the files a warm lint does not parse. The id is computed from
  the very bytes that were parsed, and an entry is kept only when it equals the blob
  committed at HEAD: an entry can only ever describe those bytes. A file that differs
  from its blob (a git filter, say) is parsed every time. The store's context names the
  code that parses (curator's source and the versions of Python, pydantic, PyYAML and
  libyaml).

Whether its data was cached or not, every incident is validated through
`ExportedIncident` before anything is written.
"""

from __future__ import annotations

import functools
import json
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

from curator.cache import UNDECODABLE, Store
from curator.export.build import CSV_HEADER, Summary, csv_line, model_json
from curator.export.collect import (
    EXPORTED_STATUSES,
    Snapshot,
    blob_id,
    compact,
    released_data,
    timestamp,
)
from curator.export.errors import ExportError
from curator.export.model import ExportedIncident, ManifestFile
from curator.export.write import ExportWriter, write_file
from curator.library import INCIDENTS, Library
from curator.lint import Progress as Step
from curator.lint import validate
from curator.lint_cache import code_context
from curator.load import load_bytes
from curator.model import Incident
from curator.workers import Workers

_CHUNK = 200


class Task(NamedTuple):  # (named tuples: 100,000 of each cross between processes)
    """One incident file to render, with what the main process knows of it."""

    path: str
    blob: str | None  # its object id at HEAD (None: not committed)
    dates: tuple[str, str] | None  # added, modified (None: no commit in the history)
    released: bytes | None  # its released data (compact JSON), if lint or the cache had it


class Rendered(NamedTuple):
    """What the main process does with one incident; `summary` is None for a draft."""

    blob: str | None
    # The released data, compact JSON, for the cache and the change log; None when it is
    # the task's own (`Task.released`), which the main process still has: 100,000 texts
    # of ~3 KB are not sent back the way they came.
    released: bytes | None
    fresh: bool  # parsed from bytes equal to the blob: worth keeping in the cache
    summary: Summary | None = None
    file: ManifestFile | None = None
    nested: bytes = b""  # the incident as incidents.json holds it (indented, no comma)
    record: bytes = b""  # its CSV record


class ReleasedCache:
    """Released data by blob id, in the "export" store of `curator.cache`. Read all at once
    and let go (`lookup`), so that each text is freed once its incident is rendered; what a
    run parsed is kept (`keep`) and written in one go (`save`), a shard at a time, so that
    the store's old texts are never all in memory beside the new ones."""

    def __init__(self, library: Library, enabled: bool) -> None:
        self.open: Callable[[], Store] | None = None
        if enabled:
            self.open = functools.partial(Store.open, library.root, "export", context())
        self._new: dict[str, bytes] = {}
        self._saving: Future[None] | None = None

    def lookup(self, blobs: Iterable[str]) -> dict[str, bytes]:
        if self.open is None:
            return {}
        # A shard at a time (`Store.take`): the texts as read and as bytes are never all
        # held together (at 100,000 incidents, 300 MB more at the peak of a warm export).
        # (Encoded as the store reads it back: a text it could not have written still
        # round-trips, and is then refused as any other foreign entry is, by `render`.)
        return {
            blob: text.encode("utf-8", UNDECODABLE)
            for blob, text in self.open().take(blobs)
            if isinstance(text, str)
        }

    def keep(self, blob: str, released: bytes) -> None:
        if self.open is not None:
            self._new[blob] = released

    def save(self, blobs: set[str]) -> None:
        """Write what was kept, and forget the entries of blobs other than these (the
        commit's) in the shards written; then let go of it all (a later `keep` starts
        afresh), so that the texts are freed as soon as nothing else needs them."""
        self.wait()
        if self.open is not None and self._new:
            self.open().update(_Texts(self._new), blobs.__contains__)
            self._new = {}

    def save_meanwhile(self, blobs: set[str]) -> None:
        """`save`, on a thread of its own, while the workers render (a cold export of
        100,000 incidents writes 300 MB here, in 2 s that the workers would otherwise
        wait); `wait`, or the next `save`, waits for it. Mostly JSON encoding, so it
        shares the main process's one CPU with the rendering it overlaps: the gain is
        the workers' time, not this process's."""
        self.wait()
        if self.open is not None and self._new:
            entries, self._new = self._new, {}
            store = self.open()
            thread = ThreadPoolExecutor(1, thread_name_prefix="released-cache")
            self._saving = thread.submit(store.update, _Texts(entries), blobs.__contains__)
            thread.shutdown(wait=False)  # (its thread ends once the write is done)

    def wait(self) -> None:
        """Until the `save_meanwhile` under way, if any, is done; its error, if it had one."""
        saving, self._saving = self._saving, None
        if saving is not None:
            saving.result()


class _Texts(Mapping[str, str]):
    """Kept released data as the store's values (text), each decoded only as its shard is
    written: never all of them held twice."""

    def __init__(self, kept: dict[str, bytes]) -> None:
        self.kept = kept

    def __getitem__(self, blob: str) -> str:
        return self.kept[blob].decode("utf-8", UNDECODABLE)

    def __iter__(self) -> Iterator[str]:
        return iter(self.kept)

    def __len__(self) -> int:
        return len(self.kept)


def context() -> list[str]:
    """Everything the released data of a file depends on besides its bytes."""
    return code_context()


Observer = Callable[[Summary, bytes], None]


def write_incidents(
    writer: ExportWriter,
    snapshot: Snapshot,
    cache: ReleasedCache,
    observe: Observer,
    workers: Workers,
    progress: Step | None = None,
) -> list[Summary]:
    """`incidents/IL-NNNN.json`, `incidents.json` and `incidents.csv` in one pass, each
    incident rendered once (by `workers`, see `curator.export.export_workers`) and then let
    go; `observe` sees every released incident's summary and data (compact JSON) on the
    way; `progress`, (files done, files in all).

    `incidents.json` is streamed: the same bytes as dumping the whole list at once.
    """
    summaries: list[Summary] = []
    (writer.folder / INCIDENTS).mkdir()
    with (
        writer.stream("incidents.json") as aggregate,
        writer.stream("incidents.csv") as table,
    ):
        todo = tasks(snapshot, cache)
        aggregate.write(b'{\n  "incidents": [')
        table.write(CSV_HEADER)
        items: list[bytes] = []  # written a chunk at a time: fewer, larger writes
        records: list[bytes] = []
        sent: deque[bytes | None] = deque()  # each task's released data, till it is rendered
        rendering = render_all(workers, todo, writer.folder, writer.previous, sent)
        for done, rendered in enumerate(rendering, 1):
            if progress is not None:
                progress(done, len(snapshot.files))
            carried = sent.popleft()
            released = carried if rendered.released is None else rendered.released
            assert released is not None  # (`render` returns None only for a text it had)
            if rendered.fresh and rendered.blob is not None:
                cache.keep(rendered.blob, released)
            if rendered.summary is None or rendered.file is None:
                continue  # a draft
            writer.add(rendered.file)
            items.append(rendered.nested)
            records.append(rendered.record)
            observe(rendered.summary, released)
            summaries.append(rendered.summary)
            # The first item goes at once, so that every later batch starts with a comma.
            if len(items) == _CHUNK or len(summaries) == 1:
                aggregate.write((b"\n" if len(summaries) == 1 else b",\n") + b",\n".join(items))
                table.write(b"".join(records))
                items, records = [], []
        if items:
            aggregate.write(b",\n" + b",\n".join(items))
            table.write(b"".join(records))
        aggregate.write(b"\n  ]\n}\n" if summaries else b"]\n}\n")
    cache.save(set(snapshot.blobs.values()))
    return summaries


def tasks(snapshot: Snapshot, cache: ReleasedCache) -> deque[Task]:
    """A task for every incident file, by id; taken off the queue as they are rendered."""
    parsed = snapshot.parsed
    missing = {
        b for p, b in _blobs_by_path(snapshot) if b is not None and parsed.get(p, (None,))[0] != b
    }
    cached = cache.lookup(missing) if missing else {}
    stamps = functools.cache(timestamp)  # most commits touch many files
    found: deque[Task] = deque()
    for path, blob in _blobs_by_path(snapshot):
        dates = snapshot.history.dates.get(f"{INCIDENTS}/{os.path.basename(path)}")
        when = (stamps(dates.added), stamps(dates.modified)) if dates else None
        fresh = parsed.pop(path, None)
        if blob is not None and fresh is not None and fresh.blob == blob:
            cache.keep(blob, fresh.released)
            found.append(Task(path, blob, when, fresh.released))
        else:
            found.append(Task(path, blob, when, cached.pop(blob, None) if blob else None))
    # What lint parsed is written now, while the workers render, not after: then each
    # text is freed once it is written and its incident rendered, not held to the end.
    cache.save_meanwhile(set(snapshot.blobs.values()))
    return found


def _blobs_by_path(snapshot: Snapshot) -> Iterator[tuple[str, str | None]]:
    for path in snapshot.files:
        yield path, snapshot.blobs.get(f"{INCIDENTS}/{os.path.basename(path)}")


def render_all(
    workers: Workers,
    tasks: deque[Task],
    folder: Path,
    previous: Path | None,
    sent: deque[bytes | None],
) -> Iterator[Rendered]:
    """`render` for every task, in order, emptying `tasks` as it goes; each task's
    released data is appended to `sent` as the task is handed out."""
    work = functools.partial(render, folder=folder, previous=previous)
    return workers.in_order(work, _taken(tasks, sent), _CHUNK)


def _taken(tasks: deque[Task], sent: deque[bytes | None]) -> Iterator[Task]:
    while tasks:
        task = tasks.popleft()
        sent.append(task.released)
        yield task


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
    data = released_data(incident)
    fresh = task.blob is not None and blob_id(raw) == task.blob
    return _render(task, (folder, previous), data, compact(data), fresh)


_FIELDS = list(Incident.model_fields)  # what `released_data` holds, in its order


def _is_released(data: Any) -> bool:
    """Whether `data` has the shape of what `released_data` gives: every field of an
    incident (a missing one would be exported as its default), and a status that is text
    (any other would be taken for a draft's, and the incident left out). The values are
    checked as the file's would be: through `ExportedIncident`."""
    return isinstance(data, dict) and list(data) == _FIELDS and type(data["status"]) is str


def _render(
    task: Task,
    folders: tuple[Path, Path | None],
    data: dict[str, Any],
    released: bytes | None,
    fresh: bool,
) -> Rendered:
    if data["status"] not in EXPORTED_STATUSES:
        return Rendered(task.blob, released, fresh)
    if task.dates is None:  # the checkout matches HEAD (`open_repo`): a bug, as above
        raise ExportError(f"{task.path} has no commit in the history of HEAD; please report")
    added, modified = task.dates
    incident = ExportedIncident.model_validate({**data, "added": added, "modified": modified})
    text = model_json(incident)
    folder, previous = folders
    file = write_file(folder, f"{INCIDENTS}/{incident.id}.json", text + b"\n", previous)
    nested = b"    " + text.replace(b"\n", b"\n    ")
    summary = Summary.of(incident)
    return Rendered(task.blob, released, fresh, summary, file, nested, csv_line(incident))
