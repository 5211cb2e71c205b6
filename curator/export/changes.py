"""What changed since the previous release: compared at the level of data, not bytes.

Only files whose blob differs between the two commits are read at the old commit (one
`git cat-file --batch`), so the cost follows the size of the change, not of the library.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any, NamedTuple

from pydantic import ValidationError

from curator.export.build import Summary
from curator.export.collect import (
    EXPORTED_STATUSES,
    TAXONOMY_FOLDER,
    Snapshot,
    id_number,
    recorded_version,
    released_as_read,
    released_data,
    timestamp,
    trimmed,
)
from curator.export.errors import ExportError
from curator.export.git import GitError, Repo, TagNotText
from curator.export.model import Change, Changes, ReleasePoint, TermChange
from curator.library import INCIDENTS, meant_as_incident
from curator.lint import validate
from curator.load import load_bytes
from curator.model import DIMENSIONS, INCIDENT_KEYS, NUMBERED_ID, Term, canonical_id
from curator.taxonomy import Taxonomy


class Before(NamedTuple):
    """An incident as an earlier release held it: what its entry in the change log needs."""

    title: str
    status: str
    data: dict[str, Any]  # its released data (`released_data`, or `released_as_read`)


class ChangeLog:
    """Collects the changes from `since` (a revision; default: the previous `v*` tag) as
    the export streams past each incident, then adds the incidents that disappeared."""

    def __init__(self, snapshot: Snapshot, since: str | None) -> None:
        repo = snapshot.repo
        self.snapshot = snapshot
        self.until = ReleasePoint(version=snapshot.version, commit=snapshot.head.sha)
        self.since: ReleasePoint | None = None
        self.previous: dict[str, tuple[str, Before | None]] | None = None
        self.changes: list[Change] = []
        self.seen: set[str] = set()
        gone: list[str] = []
        terms_then: dict[str, tuple[str, Any]] = {}
        try:
            default = None if since else snapshot.release_before
            since = since or default
            if since is not None:
                base = repo.commit(since)
                # A tag names itself (a commit may have two); another revision is named
                # as its export would be, which the nearest tag, a hotfix say, need not be.
                try:
                    version = default or (
                        since
                        if since in snapshot.tags
                        else recorded_version(repo, base.sha, snapshot.tags)[0]
                    )
                except TagNotText as exc:  # (its advice, --version, names the other end)
                    named = "changes.json names the release --since gives by its tag"
                    raise TagNotText(exc.tag, f"rename it ({named})") from None
                self.since = ReleasePoint(version=version, commit=base.sha)
                self.previous = _released_at(snapshot, base.sha)
                terms_then = _terms_at(repo, base.sha)
                gone = _terms_gone(snapshot, terms_then)
        except GitError as exc:
            raise ExportError(str(exc)) from exc
        self.terms = _term_changes(snapshot.taxonomy, terms_then)
        if self.since is not None and gone:
            raise ExportError(
                f"taxonomy term(s) of {self.since.version} are gone: {', '.join(gone)}; "
                "taxonomy ids never disappear from a release (docs/export.md): keep each "
                "term, with `deprecated: {replaced_by: ..., reason: ...}` if it is replaced"
            )

    def observe(self, summary: Summary, released: Callable[[], bytes]) -> None:
        """See one released incident: its summary, and what gives its released data (JSON
        on one line, `curator.export.released.released_text`; asked for and decoded only if
        its file changed since `since`, and compared field by field, so the dates it may
        hold are not looked at)."""
        number = canonical_id(summary.id)  # (IL-00025 then, IL-0025 now: one incident)
        self.seen.add(number)
        if self.previous is None or number not in self.previous:
            self.changes.append(_change(summary, "added", []))
            return
        _path, before = self.previous[number]
        if before is None:
            return  # the same bytes as then
        then, now = before.data, json.loads(released())
        fields = [key for key in INCIDENT_KEYS if then[key] != now[key]]
        if before.status == "published" and summary.status == "withdrawn":
            self.changes.append(_change(summary, "withdrawn", fields))
        elif fields:
            self.changes.append(_change(summary, "modified", fields))

    def result(self) -> Changes:
        removed = [
            _removed(self.snapshot, path, before)
            for number, (path, before) in (self.previous or {}).items()
            if number not in self.seen and before is not None
        ]
        changes = _newest_first([*self.changes, *removed])
        return Changes(since=self.since, until=self.until, changes=changes, terms=self.terms)


def _released_at(snapshot: Snapshot, rev: str) -> dict[str, tuple[str, Before | None]]:
    """The incident files at `rev`, by id (`canonical_id`: a number is one id, however
    spelt) → (path, the incident as it was then).

    A file whose blob is unchanged is not read (None): it was released then exactly if it
    is now. A changed file is listed only if its old version was released (published or
    withdrawn, with a numbered id).
    """
    repo, now = snapshot.repo, snapshot.blobs
    then = [entry for entry in repo.tree(rev, INCIDENTS) if _read_by_export(entry.path)]
    changed = [entry for entry in then if now.get(entry.path) != entry.blob]
    contents = repo.blobs(entry.blob for entry in changed)
    released: dict[str, tuple[str, Before | None]] = {}
    for entry in then:
        if now.get(entry.path) == entry.blob:
            released[canonical_id(PurePosixPath(entry.path).stem)] = (entry.path, None)
            continue
        found = _released_then(contents[entry.blob])
        if found is not None:
            incident_id, before = found
            released[canonical_id(incident_id)] = (entry.path, before)
    return released


def _read_by_export(path: str) -> bool:
    """Whether the export (and lint) reads a file of this path: one directly in incidents/,
    named as `Library.incident_names` lists it. A file in a subfolder (`archive/
    IL-0002.yaml`) was never released, and read by its name it stood for the incident
    that has it, whose change it hid."""
    folder, _, name = path.rpartition("/")
    return folder == INCIDENTS and meant_as_incident(name)


def _released_then(raw: bytes) -> tuple[str, Before] | None:
    """(id, the incident) of an earlier version of a file, if that version was released.
    One that today's model refuses (released when a rule was looser) is read as it stands,
    so that its change is still reported, as `modified` or `removed`: not taken for a new
    incident, nor hidden."""
    loaded = load_bytes(raw)
    incident, _ = validate(loaded)
    if incident is not None:
        data = released_data(incident)
    elif loaded.document is not None and isinstance(loaded.document.data, dict):
        data = released_as_read(loaded.document.data)
    else:
        return None
    incident_id, status, title = data["id"], data["status"], data["title"]
    if not isinstance(incident_id, str) or not NUMBERED_ID.fullmatch(incident_id):
        return None
    if status not in EXPORTED_STATUSES:
        return None
    return incident_id, Before(title if isinstance(title, str) else incident_id, status, data)


def _terms_gone(snapshot: Snapshot, then: dict[str, tuple[str, Any]]) -> list[str]:
    """The ids of the terms at the release compared with (`then`, `_terms_at`) that the
    taxonomy now lacks, each with its dimension then (`id (dimension)`): what a consumer of
    the earlier release may hold and could no longer look up."""
    return [
        f"{term} ({dimension})"
        for term, (dimension, _) in then.items()
        if snapshot.taxonomy.dimension_of(term) is None
    ]


def _terms_at(repo: Repo, rev: str) -> dict[str, tuple[str, Any]]:
    """Term id → (dimension, the term as written), of every taxonomy file at `rev` that
    reads: read leniently, as a release made under looser rules may hold them."""
    entries = repo.tree(rev, TAXONOMY_FOLDER)
    contents = repo.blobs(entry.blob for entry in entries)
    terms: dict[str, tuple[str, Any]] = {}
    for entry in entries:
        document = load_bytes(contents[entry.blob]).document
        data = document.data if document is not None else None
        listed = data.get("terms") if isinstance(data, dict) else None
        for term in listed if isinstance(listed, list) else []:
            if isinstance(term, dict) and isinstance(term.get("id"), str):
                terms[term["id"]] = (PurePosixPath(entry.path).stem, term)
    return terms


# What a consumer reads of a term besides its id and usage (taxonomy.json's other fields
# derive from these): what `TermChange.fields` names, in this order.
_TERM_FIELDS = ("label", "description", "aliases", "parent", "deprecated")


def _term_changes(taxonomy: Taxonomy, then: dict[str, tuple[str, Any]]) -> list[TermChange]:
    """The terms of `taxonomy` that are new since `then` (all, for a first release), or
    whose fields differ from `then`'s: a release that changes only the taxonomy changes no
    incident, yet what the terms they carry mean, which a tool citing them must learn."""
    changes = []
    for dimension in DIMENSIONS:
        for term in taxonomy.terms[dimension].values():
            now = _term_values(term)
            before = then.get(term.id)
            fields = (
                []
                if before is None
                else [f for f in _TERM_FIELDS if _as_then(before[1], f) != now[f]]
            )
            if before is None or fields:
                changes.append(
                    TermChange(
                        id=term.id,
                        dimension=dimension,
                        change="added" if before is None else "modified",
                        fields=fields,
                        deprecated=term.deprecated,
                    )
                )
    return changes


def _term_values(term: Term) -> dict[str, Any]:
    """The fields `TermChange.fields` names, as released (`released_taxonomy`: text without
    the line breaks at its end, so that a `description: |` block is what a plain value is)."""
    values: dict[str, Any] = trimmed(term.model_dump(mode="json", include=set(_TERM_FIELDS)))
    return values


def _as_then(raw: dict[str, Any], field: str) -> Any:
    """A field of a term as an earlier release wrote it, as today's model reads it (the
    field alone, so that a rule it broke in another field does not make every field look
    changed), or as it was written when the model refuses it."""
    if field not in raw:
        return _UNSET.get(field)
    try:
        return _term_values(Term.model_validate({**_SOME_TERM, field: raw[field]}))[field]
    except ValidationError:
        return raw[field]


# A valid term, each field of an earlier release's term validated in its place; and what a
# term that does not write an optional field has.
_SOME_TERM: dict[str, Any] = {"id": "x", "label": {"ko": "x", "en": "x"}, "description": "x"}
_UNSET: dict[str, Any] = {"aliases": [], "parent": None, "deprecated": None}


def _removed(snapshot: Snapshot, path: str, before: Before) -> Change:
    # Under the id it was released with (`IL-00025`, if so spelt). Dated by its file's
    # last commit: the deletion, or, for a file made a draft again, the last change to
    # it. HEAD's time would move the entry, and its id in the feed, with every later commit.
    dates = snapshot.history.dates.get(path) or snapshot.history.gone.get(path)
    date = timestamp(dates.modified if dates else snapshot.head.time)
    return Change(
        id=before.data["id"],
        change="removed",
        date=date,
        title=before.title,
        status=None,
        fields=[],
    )


def _change(summary: Summary, kind: str, fields: list[str]) -> Change:
    """The change of a released incident. (Validated: pydantic checks the values in Rust
    sooner than `model_construct` sets them in Python, 1.9 against 2.6 µs.)"""
    return Change.model_validate(
        {
            "id": summary.id,
            "change": kind,
            "date": summary.modified,
            "title": summary.title,
            "status": summary.status,
            "fields": fields,
        }
    )


def _newest_first(changes: list[Change]) -> list[Change]:
    by_id = sorted(changes, key=lambda change: id_number(change.id))
    return sorted(by_id, key=lambda change: change.date, reverse=True)  # stable: ties keep id order
