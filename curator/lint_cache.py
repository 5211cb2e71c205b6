"""What `curator lint` keeps of each file between runs, and when it may use it again.

One entry per file, in the "lint" store of `curator.cache` (`.curator-cache/`), under the
file's path relative to the library root:

    [sha256 of the bytes, "size:mtime:ctime:inode" when settled, display path (null when
     it is the key itself), day checked, turning points, findings, hash of the summary]

and its summary (what the cross-file rules read) in the "lint-summary" store, apart, since
most runs do not need it: [hash of the summary, summary].

An entry answers for a file only if all of these hold:
- the store's context matches: curator's own source, the Python, pydantic and PyYAML
  versions, the rule codes, and the bytes of the taxonomy files (`context`);
- the file's bytes hash to the same SHA-256 — or its (size, mtime, ctime, inode) equal the
  ones recorded, which is recorded only once the file had not changed for two seconds, so
  that no later change can carry the same times (`settled_stat`);
- it is displayed under the same path (findings carry it);
- today is on the same side of every turning point as the day it was checked (a date in
  the future stops being one: `occurred_in_future.turning_points`).

The findings of the cross-file rules are kept too, as one record for the whole library,
keyed by the hash of every file's (path, display, summary hash): a run that changed no
summary (nothing, or only the text of some incidents) decodes no summary at all.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pydantic
import yaml

from curator import __version__
from curator.cache import Store
from curator.findings import Finding, Severity
from curator.library import Library
from curator.load import Position
from curator.rules import ALL
from curator.rules.base import FileSummary, Located, SourceUrl

SETTLED_NS = 2_000_000_000  # a file's stat is trusted once it is this much older than now
_LIBRARY_RECORD = "library"  # never a file's key: those are paths


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
        "_key",
        "_summary",
        "_summary_key",
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
        self._cache: ResultCache | None = None
        self._key = ""
        self.extra: Any = None  # what `lint.Extra.compute` gave for this file; never kept

    @classmethod
    def kept(
        cls, cache: ResultCache, key: str, display: str, entry: list[Any], findings: list[Finding]
    ) -> Checked:
        result = cls.__new__(cls)  # (no __init__: a warm lint makes 100,000 of these)
        result.digest, result.stat, _, _, result.turning_points, _, result._summary_key = entry
        result.findings, result.display, result._summary, result._data = (
            findings,
            display,
            None,
            None,
        )
        result._cache, result._key, result.extra = cache, key, None
        return result

    def __reduce__(self) -> tuple[Any, ...]:
        # From a worker process, in plain values: a third of the cost of pickling objects.
        rows = [_finding_row(f) for f in self.findings]
        state = (rows, self.digest, self.stat, self.turning_points, self.display)
        return (_unpickle, (*state, self.summary_data, self._summary_key, self.extra))

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

    @property
    def summary_data(self) -> list[Any]:
        """The summary, encoded as the cache keeps it."""
        if self._data is None:
            self._data = encode_summary(self.summary)
        return self._data

    @property
    def summary_key(self) -> str:
        """A hash of the summary: what the cross-file findings are kept under."""
        if self._summary_key is None:
            self._summary_key = _hash(self.summary_data)
        return self._summary_key


def _unpickle(
    rows: list[list[Any]],
    digest: str | None,
    stat: str | None,
    points: Sequence[str],
    display: str,
    data: list[Any],
    summary_key: str | None,
    extra: Any,
) -> Checked:
    result = Checked([_finding(display, row) for row in rows], None, digest, stat, points)
    result.display, result._data, result._summary_key = display, data, summary_key
    result.extra = extra
    return result


def _finding_row(f: Finding) -> list[Any]:
    return [f.line, f.column, f.code, str(f.severity), f.message, f.fixable]


def _finding(display: str, row: list[Any]) -> Finding:
    line, column, code, severity, message, fixable = row
    return Finding(display, line, column, code, Severity(severity), message, fixable)


def _hash(data: Any) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:32]


def settled_stat(st: os.stat_result) -> str | None:
    """The stat to remember for a file, if it last changed long enough ago that any later
    change is bound to show in its times (file system clocks tick coarsely)."""
    if max(st.st_mtime_ns, st.st_ctime_ns) > time.time_ns() - SETTLED_NS:
        return None
    return _stat_text(st)


def _stat_text(st: os.stat_result) -> str:
    # One text rather than four numbers: 100,000 of them are read on every run. (Inlined in
    # `ResultCache.get`: keep the two alike.)
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
        return path[len(self.prefix) :] if path.startswith(self.prefix) else path

    def get(self, path: str, display: str, today: str) -> Checked | None:
        """The kept result for the file at `path`, if it still holds; `today` in ISO form.
        (Asked for every file of every run: written for speed, with `_key` inlined.)"""
        key = path[self.cut :] if path.startswith(self.prefix) else path
        self.seen.add(key)
        entry = self.results.get(key)
        if entry is None:
            return None
        try:
            st = os.stat(path)
        except OSError:
            return None
        if not (stat.S_ISREG(st.st_mode) and path.endswith(".yaml")):
            return None  # not a regular .yaml file: `check_entry` has something to say
        try:
            digest, known, kept_display, then, points, findings, _ = entry
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
            rows = [_finding(display, row) for row in findings] if findings else []
            return Checked.kept(self, key, display, entry, rows)
        except (ValueError, TypeError, IndexError):
            return None  # not what this version writes: check the file again

    def summary_data(self, key: str, summary_key: str) -> list[Any] | None:
        self.summaries.read_all()  # at the first summary asked for: the rest will follow
        kept = self.summaries.get(key)
        if not isinstance(kept, list) or len(kept) != 2 or kept[0] != summary_key:
            return None
        return kept[1]

    @staticmethod
    def _same_bytes(path: str, digest: str) -> bool:
        try:
            with open(path, "rb") as stream:
                return hashlib.sha256(stream.read()).hexdigest() == digest
        except OSError:
            return False

    def put(self, path: str, today: str, result: Checked) -> None:
        if result.digest is None:
            return
        key = self._key(path)
        self.seen.add(key)
        summary_key = result.summary_key
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
            ],
        )
        self.summaries.put(key, [summary_key, result.summary_data])

    def library_findings(self, fingerprint: str) -> list[Finding] | None:
        """The cross-file findings kept for a library whose files had `fingerprint`."""
        record = self.results.get(_LIBRARY_RECORD)
        try:
            if record is None or record[0] != fingerprint:
                return None
            return [Finding(*row[:4], Severity(row[4]), *row[5:]) for row in record[1]]
        except (ValueError, TypeError, IndexError):
            return None

    def keep_library_findings(self, fingerprint: str, findings: list[Finding]) -> None:
        rows = [
            [f.path, f.line, f.column, f.code, str(f.severity), f.message, f.fixable]
            for f in findings
        ]
        self.results.put(_LIBRARY_RECORD, [fingerprint, rows])

    def save(self) -> None:
        self.results.save(self.seen.__contains__)
        self.summaries.save(self.seen.__contains__)


def fingerprint(paths: Sequence[str], results: Sequence[Checked], extra: Sequence[str]) -> str:
    """What the cross-file rules' findings depend on, besides the context: every file's
    path, display and summary. An edit that leaves a summary as it was (most edits of the
    text) leaves the cross-file findings as they were."""
    lines = [
        f"{path}\0{result.display}\0{result.summary_key}"
        for path, result in zip(paths, results, strict=True)
    ]
    return hashlib.sha256(
        "\n".join([*lines, *extra]).encode("utf-8", "surrogateescape")
    ).hexdigest()


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
    """Everything a file's findings depend on besides its bytes, path and today's date."""
    parts = [*code_context(), *(module.RULE.code for module in ALL)]
    for path in sorted(library.taxonomy_dir.glob("*.yaml")):
        try:
            parts.append(f"{path.name}:{hashlib.sha256(path.read_bytes()).hexdigest()}")
        except OSError:
            parts.append(f"{path.name}:unreadable")
    return parts


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
    from yaml._yaml import get_version_string as _libyaml_version  # type: ignore[import-not-found]
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
