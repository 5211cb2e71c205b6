"""What every rule module is made of, and the contexts rules read.

A rule module defines `RULE` (its metadata) and either `check(file)` for one incident file
or `check_library(library)` for rules that span files. Checks are pure: they read the
context and yield findings; they never read files or print.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from curator.findings import Finding, Severity
from curator.load import START, Loaded, Position
from curator.model import Incident
from curator.schema_errors import SchemaError
from curator.taxonomy import Taxonomy


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    summary: str
    failing: str
    passing: str
    fixable: bool = False

    def at(self, path: str, position: Position, message: str) -> Finding:
        return Finding(
            path, position.line, position.column, self.code, self.severity, message, self.fixable
        )


@dataclass
class IncidentFile:
    """One incident file as the file rules see it."""

    path: Path
    display: str
    loaded: Loaded
    incident: Incident | None
    schema_errors: list[SchemaError]
    taxonomy: Taxonomy
    today: dt.date

    def position(self, *loc: str | int) -> Position:
        document = self.loaded.document
        return document.position(tuple(loc)) if document else START


@dataclass(frozen=True)
class Located:
    value: str
    position: Position


@dataclass
class FileSummary:
    """What the cross-file rules need to know of one file: small, so it can be cached."""

    display: str
    stem: str
    id: Located | None = None
    status: str | None = None
    duplicate_of: str | None = None
    references: list[tuple[str, Located]] = field(default_factory=list)
    source_urls: list[Located] = field(default_factory=list)

    @classmethod
    def of(cls, file: IncidentFile) -> FileSummary:
        summary = cls(file.display, file.path.stem)
        incident = file.incident
        if incident is None:
            return summary
        summary.id = Located(incident.id, file.position("id"))
        summary.status = incident.status
        summary.duplicate_of = incident.duplicate_of
        for name, index, ref in incident.references():
            loc = (name,) if index is None else (name, index)
            summary.references.append((name, Located(ref, file.position(*loc))))
        summary.source_urls = [
            Located(source.url, file.position("sources", i, "url"))
            for i, source in enumerate(incident.sources)
        ]
        return summary


@dataclass
class LibraryView:
    files: list[FileSummary]
    taxonomy: Taxonomy
    taxonomy_files: dict[Path, str] = field(default_factory=dict)

    def by_id(self) -> dict[str, list[FileSummary]]:
        index: dict[str, list[FileSummary]] = {}
        for summary in self.files:
            if summary.id is not None:
                index.setdefault(summary.id.value, []).append(summary)
        return index


FileFindings = Iterator[Finding]
