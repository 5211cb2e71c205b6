"""What `curator lint` keeps of each file between runs, and when it may use it again.

One entry per file, in the "lint" store of `curator.cache` (`.curator-cache/`), under the
file's path relative to the library root:

    [sha256 of the bytes, "size:mtime:ctime:inode" when settled, display path (null when
     it is the key itself), day checked, turning points, findings, hash of the summary,
     hash of the summary's values (positions left out)]

and its summary (what the cross-file rules read) in the "lint-summary" store, apart, since
most runs do not need it: [hash of the summary, summary]. A summary is used only if it
hashes to what the file's entry says (one of another file, or of another shape, is lost).
An entry, a finding or a kept cross-file finding of a shape or type that curator does not
write is a miss too, never an error (tests/test_cache_tampering.py).

An entry answers for a file only if all of these hold:
- the store's context matches: curator's own source, the Python, pydantic and PyYAML
  versions, the rule codes, and the bytes of the taxonomy files this run loaded (`context`);
- the file's bytes hash to the same SHA-256 — or its (size, mtime, ctime, inode) equal the
  ones recorded, which is recorded only once the file had not changed for two seconds, so
  that no later change can carry the same times (`settled_stat`);
- it is displayed under the same path (findings carry it);
- today is on the same side of every turning point as the day it was checked (a date in
  the future stops being one: `occurred_in_future.turning_points`).

The findings of the cross-file rules are kept too, as one record for the whole library,
keyed by the hash of every file's (path, display, hash of the summary's values): a run that
changed no value the cross-file rules read (nothing, only text, or only where things are:
most edits move lines) decodes no summary at all. Those rules decide on values alone and
put each finding at a place the summary of its file records (`anchors`), so a kept
finding in a file whose places moved is put at the same anchor of its new summary.
Beside the record, in one file of its own, is the index of the library the record was
worked out for (`curator.library_index`): a run that changed values in a few files, or
added or removed a few, reruns the cross-file rules on the files holding the keys those
files held or hold, and keeps the rest of the record. The record names the index by its
SHA-256, so an index another run wrote since is never taken for this record's.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from pathlib import Path
from typing import Any

import pydantic
import yaml

from curator import __version__
from curator.cache import Encoded, Shards, Store, write_shards
from curator.findings import Finding, Severity
from curator.library import Library
from curator.library_index import LibraryIndex, anchored, key_hash, key_hashes
from curator.load import MAX_BYTES, Position
from curator.regular import content_digest, read_regular
from curator.rules import ALL
from curator.rules.base import FileSummary, Located, SourceUrl
from curator.workers import Workers

SETTLED_NS = 2_000_000_000  # a file's stat is trusted once it is this much older than now
_LIBRARY_RECORD = "library"  # never a file's key: those are paths
# A result's entries in the "lint" and "lint-summary" stores, `"key":value` each, and
# where the value starts in both (`curator.cache.Encoded`).
_Entries = tuple[str, str, int]
_INDEX = "library-index.json"  # beside the shards of "lint" (`curator.library_index`)


class CorruptEntry(Exception):
    """A cache entry that passed its shard's checksum but is not what curator writes."""


class MissingSummary(Exception):
    """A kept result whose summary is not kept (lost to a concurrent run, say)."""


class Checked:
    """One file's findings and summary, and what the cache needs to keep them. A summary
    travels and is kept in its encoded form (`encode_summary`), and is decoded only if a
    cross-file rule needs it; a kept one is read from the cache only then."""

    __slots__ = (
        "_cache",
        "_data",
        "_hashes",
        "_json",
        "_key",
        "_line",
        "_summary",
        "_summary_key",
        "_values_key",
        "digest",
        "display",
        "extra",
        "findings",
        "stat",
        "turning_points",
    )

    def __init__(
        self,
        findings: list[Finding],
        summary: FileSummary | None = None,
        digest: str | None = None,
        stat: str | None = None,
        turning_points: Sequence[str] = (),
    ) -> None:
        self.findings = findings
        self.digest = digest  # SHA-256 of the bytes checked; None: nothing to keep
        self.stat = stat  # "size:mtime_ns:ctime_ns:inode", when settled
        self.turning_points = turning_points  # ISO days
        self.display = summary.display if summary else ""
        self._summary = summary
        self._data: list[Any] | None = None
        self._summary_key: str | None = None
        self._values_key: str | None = None
        self._json: _Entries | None = None  # the cache's entries, from `encode`
        self._hashes: list[int] | None = None  # `key_hashes`, once worked out
        self._line: str | None = None  # its line of `ResultCache.lines`, from `encode`
        self._cache: ResultCache | None = None
        self._key = ""
        self.extra: Any = None  # what `lint.Extra.compute` gave for this file; never kept

    @classmethod
    def kept(
        cls, cache: ResultCache, key: str, display: str, entry: list[Any], findings: list[Finding]
    ) -> Checked:
        result = cls.__new__(cls)  # (no __init__: a warm lint makes 100,000 of these)
        (
            result.digest,
            result.stat,
            _,
            _,
            result.turning_points,
            _,
            result._summary_key,
            result._values_key,
        ) = entry
        result.findings, result.display, result._summary, result._data = (
            findings,
            display,
            None,
            None,
        )
        result._cache, result._key, result.extra, result._json = cache, key, None, None
        result._hashes, result._line = None, None
        return result

    def __reduce__(self) -> tuple[Any, ...]:
        # From a worker process, in plain values: a third of the cost of pickling objects.
        rows = [_finding_row(f) for f in self.findings]
        state = (rows, self.digest, self.stat, self.turning_points, self.display)
        keys = (self._summary_key, self._values_key)
        data = (self.summary_data, *keys, self._json, self._hashes, self._line, self.extra)
        return (_unpickle, (*state, *data))

    @property
    def summary(self) -> FileSummary:
        if self._summary is None:
            data = self._data
            if data is None:
                assert self._cache is not None
                data = self._cache.summary_data(self._key, self.summary_key)
                if data is None:
                    raise MissingSummary(self.display)
            try:
                self._summary = decode_summary(self.display, data)
            except (ValueError, TypeError, IndexError) as exc:
                raise CorruptEntry(self.display) from exc
        return self._summary

    def decode_summary(self) -> None:
        """Decode the summary now, and let go of its encoded form (`summary_data` makes it
        again if asked): for a result just checked, whose summary the cross-file rules
        will ask for once every file is checked, when the main process works alone
        (decoding 100,000 then took 0.4–0.5 s)."""
        if self._data is not None:
            _ = self.summary
            self._data = None

    @property
    def key_hashes(self) -> list[int]:
        """`curator.library_index.key_hashes` of the summary: worked out by `encode`, in the
        worker that checked the file, or here when first asked for."""
        if self._hashes is None:
            self._hashes = key_hashes(self.summary)
        return self._hashes

    def key_hashes_of(self, summary: FileSummary) -> list[int]:
        """`key_hashes(summary)`, for this result's summary or, when that was lost
        (`MissingSummary`), the one of the file checked again: the hashes `encode` worked
        out, if it ran (it runs only where the summary is this result's own)."""
        return self._hashes if self._hashes is not None else key_hashes(summary)

    @property
    def summary_data(self) -> list[Any]:
        """The summary, encoded as the cache keeps it."""
        if self._data is None:
            self._data = encode_summary(self.summary)
        return self._data

    @property
    def summary_key(self) -> str:
        """A hash of the summary: whether the places of its cross-file findings moved."""
        if self._summary_key is None:
            self._summary_key = _hash(self.summary_data)
        return self._summary_key

    @property
    def values_key(self) -> str:
        """A hash of the summary's values: what the cross-file findings are kept under."""
        if self._values_key is None:
            self._values_key = _hash(summary_values(self.summary_data))
        return self._values_key

    def encode(self, key: str, today: str) -> None:
        """Work out the cache's entries of this result (`ResultCache.put`), for the file
        kept under `key` and checked `today` (ISO), here: in the worker that checked the
        file, perhaps, rather than in the main process, which in a cold lint of 100,000
        files spent 0.9 s encoding them, its workers idle. The entries are whole, key and
        all, so that the main process only stores them, and the shards' bodies are joins
        of them (`curator.cache.Encoded`). The summary is encoded once, for its hash and
        for the cache."""
        summary = _json(self.summary_data)
        self._summary_key = _digest(summary)  # (`summary_key`, of the text just made)
        self._values_key = self.values_key  # (worked out here too, for the entry)
        # And for the index of the library, which a cold run of 100,000 files otherwise
        # builds in the main process, alone, once every file is checked (0.3 s).
        self._hashes = key_hashes(self.summary)
        self._line = file_line(key, self.display, self._values_key)  # (for `lines`)
        rows = _json([_finding_row(f) for f in self.findings]) if self.findings else "[]"
        # The rest of the entry as `json.dumps` writes it: hashes in hex, a stat of
        # numbers, an ISO day (none needs escaping), and the display path.
        display = "null" if self.display == key else encode_basestring(self.display)
        stat = "null" if self.stat is None else f'"{self.stat}"'
        name = f"{encode_basestring(key)}:"
        entry = (
            f'{name}["{self.digest}",{stat},{display},"{today}",{_json(self.turning_points)},'
            f'{rows},"{self._summary_key}","{self._values_key}"]'
        )
        self._json = (entry, f'{name}["{self._summary_key}",{summary}]', len(name))


def _unpickle(
    rows: list[list[Any]],
    digest: str | None,
    stat: str | None,
    points: Sequence[str],
    display: str,
    data: list[Any],
    summary_key: str | None,
    values_key: str | None,
    encoded: _Entries | None,
    hashes: list[int] | None,
    line: str | None,
    extra: Any,
) -> Checked:
    result = Checked.__new__(Checked)  # (as in `Checked.kept`: every slot set here, once)
    result.findings = [_finding(display, row) for row in rows] if rows else []
    result.digest, result.stat, result.turning_points = digest, stat, points
    result.display, result._summary, result._data, result.extra = display, None, data, extra
    result._summary_key, result._values_key, result._json = summary_key, values_key, encoded
    result._hashes, result._line, result._cache, result._key = hashes, line, None, ""
    return result


def _finding_row(f: Finding) -> list[Any]:
    return [f.line, f.column, f.code, str(f.severity), f.message, f.fixable]


def _finding(display: str, row: list[Any]) -> Finding:
    """The finding `_finding_row` gave; a ValueError or TypeError for any other row."""
    line, column, code, severity, message, fixable = row
    if not _finding_types(line, column, code, message, fixable):
        raise TypeError("not a finding")  # a cache entry curator did not write
    return Finding(display, line, column, code, Severity(severity), message, fixable)


def _finding_types(line: Any, column: Any, code: Any, message: Any, fixable: Any) -> bool:
    # (`type` rather than `isinstance`: JSON's true is no line number)
    return (
        type(line) is int
        and type(column) is int
        and type(fixable) is bool
        and (type(code) is str and type(message) is str)
    )


def _hash(data: Any) -> str:
    return _digest(_json(data))


def _json(data: Any) -> str:
    """`data` as the cache's store writes it (`curator.cache.Store`): as `json.dumps(data,
    ensure_ascii=False, separators=(",", ":"))` does."""
    return "".join(_encode(data, 0))


def _encoder() -> Callable[[Any, int], Iterable[str]]:
    # Made once: `json.dumps` makes a `JSONEncoder`, then a C encoder, on every call (2 of
    # its 3.5 µs for a summary), and a cold lint encodes three values per file. No circular
    # check (`markers` None): what is encoded here is never circular.
    plain = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
    if c_make_encoder is None:  # pragma: no cover - CPython always has it
        return lambda data, _level: (plain.encode(data),)
    return c_make_encoder(  # type: ignore[no-any-return]
        None, plain.default, encode_basestring, None, ":", ",", False, False, True
    )


_encode = _encoder()


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:32]


def cache_key(path: str, prefix: str) -> str:
    """The key of the file at `path` in the stores: its path under the library root, whose
    path is `prefix` (with a separator at its end)."""
    return path[len(prefix) :] if path.startswith(prefix) else path


def file_line(key: str, display: str, values_key: str) -> str:
    """A file's line of `ResultCache.lines`: its key, its display path, the hash of its
    summary's values."""
    return f"{key}\0{display}\0{values_key}"


def settled_stat(st: os.stat_result) -> str | None:
    """The stat to remember for a file, if it last changed long enough ago that any later
    change is bound to show in its times (file system clocks tick coarsely)."""
    if max(st.st_mtime_ns, st.st_ctime_ns) > time.time_ns() - SETTLED_NS:
        return None
    return _stat_text(st)


def _stat_text(st: os.stat_result) -> str:
    # One text rather than four numbers: 100,000 of them are read on every run. (Inlined in
    # `ResultCache.get` and `StatKeyed.kept`: keep the three alike.)
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}"


class ResultCache:
    """`Checked` results in two stores: "lint" (what every run reads) and "lint-summary"
    (read only when a summary changed and the cross-file rules must run again)."""

    def __init__(self, results: Store, summaries: Store, root: Path) -> None:
        self.results = results
        self.summaries = summaries
        self.prefix = f"{root}{os.sep}"
        self.cut = len(self.prefix)
        self.seen: set[str] = {_LIBRARY_RECORD}  # keys of this run's files: the rest go

    @classmethod
    def open(cls, library: Library) -> ResultCache | None:
        parts = context(library)
        results = Store.open(library.root, "lint", parts)
        summaries = Store.open(library.root, "lint-summary", parts)
        if not (results.enabled and summaries.enabled):
            return None
        results.read_all()  # every run asks about every file of the library
        return cls(results, summaries, library.root)

    @classmethod
    def discard(cls, library: Library) -> None:
        """Forget every entry of the current context (the next run starts afresh)."""
        parts = context(library)
        for kind in ("lint", "lint-summary"):
            store = Store.open(library.root, kind, parts)
            if store.folder is not None:
                for shard in store.folder.glob("*.json"):
                    shard.unlink(missing_ok=True)

    def _key(self, path: str) -> str:
        return cache_key(path, self.prefix)

    def get(self, path: str, display: str, today: str) -> Checked | None:
        """The kept result for the file at `path`, if it still holds; `today` in ISO form.
        (Asked for every file of every run: written for speed, with `_key` inlined.)"""
        key = path[self.cut :] if path.startswith(self.prefix) else path
        self.seen.add(key)
        entry = self.results.get(key)
        if entry is None:
            return None
        try:
            st = os.lstat(path)  # a link is not followed (IL107)
        except OSError:
            return None
        if not (stat.S_ISREG(st.st_mode) and path.endswith(".yaml")):
            return None  # not a regular .yaml file: `check_entry` has something to say
        try:
            digest, known, kept_display, then, points, findings, _, _ = entry
            if display != (key if kept_display is None else kept_display):
                return None
            for point in points:  # ISO days compare as text
                if (today >= point) != (then >= point):
                    return None
            if known != f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}":
                if not self._same_bytes(path, digest):
                    return None
                known = settled_stat(st)  # touched, checked out again …: same bytes
                if known:
                    entry = [digest, known, *entry[2:]]
                    self.results.put(key, entry)
            if type(findings) is not list:
                return None
            rows = [_finding(display, row) for row in findings] if findings else []
            return Checked.kept(self, key, display, entry, rows)
        except (ValueError, TypeError, IndexError):
            return None  # not what this version writes: check the file again

    def read_summaries(self) -> None:
        """Read every kept summary now, before the cross-file rules ask for all of them."""
        self.summaries.read_all()

    def summary_data(self, key: str, summary_key: str) -> list[Any] | None:
        kept = self.summaries.get(key)  # from its shard alone, unless `read_summaries` ran
        if not isinstance(kept, list) or len(kept) != 2 or kept[0] != summary_key:
            return None
        data = kept[1]
        # The result's entry names its summary by hash: a summary of another file, or of
        # another shape, is as lost as one that a concurrent run overwrote.
        return data if isinstance(data, list) and _hash(data) == summary_key else None

    @staticmethod
    def _same_bytes(path: str, digest: str) -> bool:
        try:
            return content_digest(read_regular(Path(path), MAX_BYTES)) == digest
        except OSError:
            return False

    def put(self, path: str, today: str, result: Checked) -> None:
        if result.digest is None:
            return
        key = self._key(path)
        self.seen.add(key)
        if result._json is not None:  # (encoded where it was checked: `Checked.encode`)
            entry, summary, start = result._json
            result._json = None  # (held by the stores from now on: not twice to the end)
            self.results.put(key, Encoded(entry, start))
            self.summaries.put(key, Encoded(summary, start))
            return
        summary_key = result.summary_key
        values_key = result.values_key
        findings = [_finding_row(f) for f in result.findings]
        self.results.put(
            key,
            [
                result.digest,
                result.stat,
                None if result.display == key else result.display,  # the usual case
                today,
                result.turning_points,
                findings,
                summary_key,
                values_key,
            ],
        )
        self.summaries.put(key, [summary_key, result.summary_data])

    def lines(self, paths: Sequence[str], results: Sequence[Checked]) -> list[str]:
        """What the cross-file findings depend on of each file: its key, display path and
        the hash of its summary's values (see `fingerprint` and `curator.library_index`).
        (For every file of every run: written for speed, with `_key` inlined. A result just
        checked brings its line, made by `encode` in the worker that checked it: making
        100,000 here took the main process, alone after a cold run, 0.13-0.16 s.)"""
        cut, prefix = self.cut, self.prefix
        return [
            result._line
            or file_line(p[cut:] if p.startswith(prefix) else p, result.display, result.values_key)
            for p, result in zip(paths, results, strict=True)
        ]

    def library_findings(self, fingerprint: str, files: dict[str, Checked]) -> list[Finding] | None:
        """The cross-file findings kept for a library whose files had `fingerprint`, each
        put where its anchor is now; `files`, this run's results by display path."""
        record = self._record()
        if record is None or record[0] != fingerprint:
            return None
        rows = relocated(record[1], files)
        if rows is None:
            return None
        if rows != record[1]:  # kept as they are now: the next run need not move them again
            self.results.put(_LIBRARY_RECORD, [fingerprint, rows, *record[2:]])
        return findings_of(rows)

    def library_state(self, extra: list[str]) -> tuple[list[list[Any]], LibraryIndex] | None:
        """The kept cross-file findings (as rows) and the index of the library they were
        worked out for, if both are still there and that library had the same `extra`."""
        record = self._record()
        if record is None or record[2] is None or record[3] != extra:
            return None
        body = self.results.read_blob(_INDEX, record[2])
        index = LibraryIndex.decode(body) if body is not None else None
        return None if index is None else (record[1], index)

    def _record(self) -> list[Any] | None:
        record = self.results.get(_LIBRARY_RECORD)
        if not (isinstance(record, list) and len(record) == 4 and isinstance(record[1], list)):
            return None
        return record if all(map(_is_row, record[1])) else None

    def keep_library_findings(
        self, fingerprint: str, rows: list[list[Any]], index: LibraryIndex | None, extra: list[str]
    ) -> None:
        """Keep the cross-file findings (`rows`) of a library whose files had `fingerprint`,
        and the index of that library, by which a later change reruns the rules on the
        files it concerns alone — unless a finding in a file is at no anchor, which no
        index can tell the cause of."""
        if unanchored(rows):
            index = None
        digest = self.results.write_blob(_INDEX, index.encode()) if index else None
        self.results.put(_LIBRARY_RECORD, [fingerprint, rows, digest, extra])

    def save(self, workers: Workers | None = None) -> None:
        """Write what changed: encoded here, and written on one of `workers`, if given,
        while the caller goes on (the export, whose workers are idle once lint is done:
        writing 100,000 results took 0.8–0.9 s of its main process, alone at the end);
        else here."""
        shards = [store.encoded(self.seen) for store in (self.results, self.summaries)]
        if workers is None:
            _write(shards)
        else:
            workers.meanwhile(_write, shards)


def _write(shards: list[Shards]) -> None:
    for each in shards:
        write_shards(each)


# A kept cross-file finding: the finding; the index of its anchor (`anchors`); the hash of
# its file's summary when it was found; the hash of its anchor's key (`key_hash`).
_ROW = (
    *("path", "line", "column", "code", "severity", "message", "fixable"),
    *("anchor", "summary", "key"),
)
ANCHOR, SUMMARY, KEY = 7, 8, 9  # where those are in a row


def _is_row(row: Any) -> bool:
    """Whether `row` is a kept cross-file finding (`finding_rows`) of the right types."""
    if not (isinstance(row, list) and len(row) == len(_ROW)):
        return False
    path, line, column, code, severity, message, fixable, anchor, summary, key = row
    return (
        type(path) is str
        and type(severity) is str
        and _finding_types(line, column, code, message, fixable)
        and (anchor is None or type(anchor) is int)
        and (summary is None or type(summary) is str)
        and (key is None or type(key) is int)
    )


def unanchored(rows: list[list[Any]]) -> bool:
    """Whether a finding in an incident file is at no anchor (which the index cannot
    tell the cause of). Findings elsewhere (the taxonomy's) have no summary either."""
    return any(row[ANCHOR] is None and row[SUMMARY] is not None for row in rows)


def finding_rows(
    findings: list[Finding], files: dict[str, Checked], summaries: dict[str, FileSummary]
) -> list[list[Any]]:
    """Cross-file findings as kept: each with its anchor in `summaries` (what the rules
    read, by display path), the hash of its file's summary and of its anchor's key."""
    rows = []
    for f in findings:
        result = files.get(f.path)
        anchor, summary_key, hashed = None, None, None
        if result is not None:
            found = anchored(summaries[f.path])
            places = [place for place, _ in found]
            at = (f.line, f.column)
            if at in places:
                anchor = places.index(at)
                hashed = key_hash(found[anchor][1])
            summary_key = result.summary_key
        row = [f.path, f.line, f.column, f.code, str(f.severity), f.message, f.fixable]
        rows.append([*row, anchor, summary_key, hashed])
    return rows


def relocated(rows: list[list[Any]], files: dict[str, Checked]) -> list[list[Any]] | None:
    """Kept cross-file findings (as rows), each put where its anchor is now; None if one
    cannot be placed."""
    moved = []
    try:
        for path, line, column, code, severity, message, fixable, anchor, key, hashed in rows:
            result = files.get(path)
            place = _place(result, Position(line, column), anchor, key)
            if place is None:
                return None
            key = key if result is None else result.summary_key
            moved.append([path, *place, code, severity, message, fixable, anchor, key, hashed])
    except (ValueError, TypeError, IndexError):
        return None
    return moved


def findings_of(rows: list[list[Any]]) -> list[Finding] | None:
    try:
        return [_library_finding(row) for row in rows]
    except (ValueError, TypeError):
        return None


def _library_finding(row: list[Any]) -> Finding:
    path, line, column, code, severity, message, fixable = row[:7]
    return Finding(path, line, column, code, Severity(severity), message, fixable)


def _place(
    result: Checked | None, kept: Position, anchor: int | None, key: str | None
) -> Position | None:
    """Where a kept cross-file finding is now: where it was, if its file's summary is the
    same (or it is not an incident file); else at its anchor in the new summary; None if
    it cannot be told (a finding at no anchor, in a file whose places moved)."""
    if result is None or result.summary_key == key:
        return kept
    try:
        places = anchors(result.summary)
    except MissingSummary:  # lost to a concurrent run: work everything out again
        return None
    if anchor is None or not 0 <= anchor < len(places):  # (below 0 would count from the end)
        return None
    return places[anchor]


def anchors(summary: FileSummary) -> list[Position]:
    """The places of `summary`'s anchors (`library_index.anchored`)."""
    return [place for place, _ in anchored(summary)]


def fingerprint(lines: Sequence[str], extra: Sequence[str]) -> str:
    """What the cross-file rules' findings depend on, besides the context: every file's
    line (`ResultCache.lines`: its path, display and the values of its summary), in any
    order, and `extra`. An edit that leaves those values as they were (most edits: text,
    or lines moved) leaves the cross-file findings as they were, but for their places
    (`ResultCache.library_findings`)."""
    text = "\n".join([*sorted(lines), *extra])
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def encode_summary(s: FileSummary) -> list[Any]:
    # Kept small, since 100,000 are read whenever a summary changed: the id and a URL's
    # normal form are left out (null) when they equal the file's stem and the URL itself.
    return [
        s.stem,
        [None if s.id.value == s.stem else s.id.value, *s.id.position] if s.id else None,
        s.status,
        s.duplicate_of,
        [[name, ref.value, *ref.position] for name, ref in s.references],
        [[u.value, *u.position, None if u.normal == u.value else u.normal] for u in s.source_urls],
    ]


def summary_values(data: list[Any]) -> list[Any]:
    """An encoded summary without its places (see `encode_summary`)."""
    stem, incident_id, status, duplicate_of, references, urls = data
    return [
        stem,
        None if incident_id is None else incident_id[0],
        status,
        duplicate_of,
        [[name, value] for name, value, _line, _col in references],
        [[value, normal] for value, _line, _col, normal in urls],
    ]


def decode_summary(display: str, data: list[Any]) -> FileSummary:
    stem, incident_id, status, duplicate_of, references, urls = data
    if incident_id is not None:
        value, line, col = incident_id
        value = stem if value is None else value
        incident_id = _new(Located, (value, _new(Position, (line, col))))
    return FileSummary(
        display,
        stem,
        incident_id,
        status,
        duplicate_of,
        [
            (name, _new(Located, (value, _new(Position, (line, col)))))
            for name, value, line, col in references
        ],
        [
            _new(
                SourceUrl, (value, _new(Position, (line, col)), value if normal is None else normal)
            )
            for value, line, col, normal in urls
        ],
    )


# Named tuples made without their Python-level __new__: 100,000 summaries hold ~500,000.
_new = tuple.__new__


def context(library: Library) -> list[str]:
    """Everything a file's findings depend on besides its bytes, path and today's date:
    among them the taxonomy, as this run loaded it."""
    sources = library.taxonomy.sources
    return [
        *code_context(),
        *(module.RULE.code for module in ALL),
        *(f"{name}:{sources[name]}" for name in sorted(sources)),
    ]


def code_context(*others: str) -> list[str]:
    """What every cached result of curator depends on besides its input: curator's own
    source and the versions of what parses (Python, pydantic, PyYAML, libyaml), and
    `others` (the versions of anything else the result depends on)."""
    return [
        __version__,
        source_digest(),
        sys.version,
        f"pydantic {pydantic.VERSION}",
        f"PyYAML {yaml.__version__}",
        f"libyaml {_libyaml_version()}",
        *others,
    ]


try:
    from yaml._yaml import get_version_string as _libyaml_version
except ImportError:  # pragma: no cover - depends on the PyYAML build

    def _libyaml_version() -> str:
        return "none"


def source_digest() -> str:
    """curator's own code: a change to any rule (or anything else) is a new context."""
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent
    for source in sorted(package.rglob("*.py")):
        digest.update(str(source.relative_to(package)).encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()
