"""What every rule module is made of, and the contexts rules read.

A rule module defines `RULE` (its metadata) and either `check(file)` for one incident file
or `check_library(library)` for rules that span files. Checks are pure: they read the
context and yield findings; they never read files or print.

What lint's cache keeps of `check_library` rests on three promises, each held by a test
in tests/test_cache.py: a rule decides on the values of the summaries, not their places;
it reports a finding in an incident file at a place the file's summary records (its id, a
reference, a source URL); and that finding depends only on the files holding the same key
(the same id, or the same URL's normal form; a file whose id is not the one its name
spells holds that one too: `curator.library_index`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from pydantic import ValidationError

from curator.findings import Finding, Severity
from curator.load import START, Document, Loaded, Position, at_editor_lines
from curator.model import Facets, Incident
from curator.schema_errors import SchemaError
from curator.taxonomy import Taxonomy
from curator.urls import normalize_url


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


class Mended(NamedTuple):
    """A file's text as `curator fix` reads it once its text fixes are made, and the
    loader's document of it."""

    text: str
    document: Document | None
    # Which tab of the file's text each tab of `text` is, counted from 0 (fix's spaces
    # replace some; its other text fixes keep every tab); None where `text` is the file's.
    tabs: tuple[int, ...] | None = None


@dataclass
class IncidentFile:
    """One incident file as the file rules see it."""

    path: Path
    display: str
    loaded: Loaded
    # None if the file is no valid incident; but where its only schema errors are U+FEFF in
    # text (IL606's), its values less them, as `curator fix` leaves them
    # (`curator.lint.parse_incident`): the other rules judge it all the same.
    incident: Incident | None
    schema_errors: list[SchemaError]
    taxonomy: Taxonomy
    today: dt.date
    # `normal_urls`, once asked: IL505 and the summary for IL502 both compare them.
    _normal_urls: list[str] | None = field(default=None, kw_only=True, repr=False, compare=False)
    # Whether `curator fix` takes the file whole (`rules._problems.fix_reads`), once asked:
    # IL601 and lint's fixable flags both ask, and for a broken file it costs reads.
    fix_reads: bool | None = field(default=None, kw_only=True, repr=False, compare=False)
    # And the file as fix reads it once its text fixes are made (`rules._problems.mended`).
    mended: Mended | None = field(default=None, kw_only=True, repr=False, compare=False)
    # Of a file that is no incident, its facets alone (`facets`), once asked: False if not.
    _facets: Facets | bool | None = field(default=False, kw_only=True, repr=False, compare=False)

    def position(self, *loc: str | int) -> Position:
        document = self.loaded.document
        return document.position(tuple(loc)) if document else START

    def facets(self) -> Facets | None:
        """The incident's facets. Of a file that is no valid incident for a value outside
        them (IL201: `occurred: 2024/05/03`), its facets as they validate alone, so that the
        term rules (IL301, IL302, IL304) say in the same run what they would say once that
        value is mended; None if they do not validate either (IL201 says why)."""
        if self.incident is not None:
            return self.incident.facets
        if self._facets is False:
            self._facets = _facets_alone(self.loaded.document)
        return self._facets if isinstance(self._facets, Facets) else None

    def normal_urls(self) -> list[str]:
        """The normal form (`urls.normalize_url`) of each source's URL, in order."""
        if self._normal_urls is None:
            sources = self.incident.sources if self.incident is not None else []
            self._normal_urls = [normalize_url(source.url) for source in sources]
        return self._normal_urls


def _facets_alone(document: Document | None) -> Facets | None:
    data = document.data if document is not None else None
    facets = data.get("facets") if isinstance(data, dict) else None
    try:
        return Facets.model_validate(facets) if isinstance(facets, dict) else None
    except ValidationError:
        return None


class Located(NamedTuple):
    """A value and where it is. Named tuples, not dataclasses: the lint cache makes
    hundreds of thousands of these on every run over a large library."""

    value: str
    position: Position


class SourceUrl(NamedTuple):
    """A source URL, where it is, and its normal form (`urls.normalize_url`), worked out
    once per file so that comparing 100,000 incidents' sources costs no parsing."""

    value: str
    position: Position
    normal: str


@dataclass
class FileSummary:
    """What the cross-file rules need to know of one file: small, so it can be cached."""

    display: str
    stem: str
    id: Located | None = None
    status: str | None = None
    duplicate_of: str | None = None
    references: list[tuple[str, Located]] = field(default_factory=list)
    source_urls: list[SourceUrl] = field(default_factory=list)

    @classmethod
    def of(cls, file: IncidentFile) -> FileSummary:
        incident = file.incident
        if incident is None:
            return cls(file.display, file.path.stem)
        position = file.position
        moved = at_editor_lines(file.loaded.text)  # (as lint moves the file's findings)
        if moved is not None:
            position = lambda *loc: moved(file.position(*loc))  # noqa: E731
        # Made in one call, not field by field: a cold lint makes one per file.
        return cls(
            file.display,
            file.path.stem,
            Located(incident.id, position("id")),
            incident.status,
            incident.duplicate_of,
            [
                (name, Located(ref, position(name) if index is None else position(name, index)))
                for name, index, ref in incident.references()
            ],
            [
                SourceUrl(source.url, position("sources", i, "url"), normal)
                for i, (source, normal) in enumerate(
                    zip(incident.sources, file.normal_urls(), strict=True)
                )
            ],
        )


@dataclass
class LibraryView:
    files: list[FileSummary]
    taxonomy: Taxonomy
    taxonomy_files: dict[Path, str] = field(default_factory=dict)
    # Set by `__init__` (keyword only, never passed): a dataclass leaves an `init=False`
    # field's default to the class attribute, which a class mypyc compiles does not have.
    _by_id: dict[str, list[FileSummary]] | None = field(
        default=None, kw_only=True, repr=False, compare=False
    )
    _misnamed: dict[str, FileSummary] | None = field(
        default=None, kw_only=True, repr=False, compare=False
    )

    def by_id(self) -> dict[str, list[FileSummary]]:
        """The files holding each id (worked out once: several rules ask)."""
        if self._by_id is None:
            self._by_id = {}
            for summary in self.files:
                if summary.id is not None:
                    self._by_id.setdefault(summary.id.value, []).append(summary)
        return self._by_id

    def named(self, stem: str) -> FileSummary | None:
        """The file named `stem` (`IL-0025.yaml`) whose id is not `stem`, if there is one:
        it could not be read as an incident, or it holds another id. A reference to the id
        `stem` then names a file that is there, not a missing incident."""
        if self._misnamed is None:
            self._misnamed = {}
            for summary in self.files:
                if summary.id is None or summary.id.value != summary.stem:
                    self._misnamed.setdefault(summary.stem, summary)
        return self._misnamed.get(stem)


FileFindings = Iterator[Finding]
