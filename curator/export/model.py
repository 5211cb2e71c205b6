"""The export's JSON files as pydantic models: the one source of truth for their shape.

`schema/export/*.schema.json` is generated from these (`python -m curator.export.schema
--write`) and a test fails on drift. Every file is built by validating through these
models, so an export that does not match its published schema cannot be written.
Field order here is the key order in the files.

Versioning (docs/export.md): adding a field or a value is a minor change of
`SCHEMA_VERSION`; removing or renaming one is a major change. It moves once between two
releases: a change after it has moved this cycle asks for no second bump, but for a major
one if the cycle's bump was minor.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from curator.model import NUMBERED_ID_PATTERN, Deprecation, Dimension, Incident, Label, TermId

SCHEMA_VERSION = "1.1.0"
# Marks a field whose set of values a later 1.x version may extend (docs/export.md): the
# published schema accepts any text there (`curator.export.schema`); the model, what
# curator itself writes, stays exact.
OPEN_SET: dict[str, Any] = {"x-open-set": True}

Timestamp = Annotated[
    str,
    Field(
        pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$",
        description="A commit time, UTC, RFC 3339 to the second.",
        examples=["2026-11-30T03:25:43Z"],
    ),
]
ReleasedId = Annotated[
    str,
    Field(
        pattern=NUMBERED_ID_PATTERN,
        description="`IL-` and four or more digits; never reused.",
        examples=["IL-0137"],
    ),
]
CommitSha = Annotated[
    str, Field(pattern=r"^[0-9a-f]{40}$", description="A full git commit id (SHA-1).")
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ExportedIncident(Incident):
    """One incident as released: every field of the incident file, and its git dates.

    Absent optional fields are `null` (lists that default to empty are `[]`), so every
    key is always present. Text is as written, without the line breaks at its end.
    """

    id: ReleasedId = Field(description="Stable identifier; never reused, never deleted.")
    status: Literal["published", "withdrawn"] = Field(
        description="`published`, or `withdrawn` (kept forever; see `withdrawn_reason`). "
        "Drafts are never exported."
    )
    related: list[ReleasedId] = Field(
        default_factory=list, description="Other incidents worth reading alongside."
    )
    not_duplicate_of: list[ReleasedId] = Field(
        default_factory=list,
        description="Incidents a reviewer judged to be different events.",
    )
    duplicate_of: ReleasedId | None = Field(
        default=None, description="With `status: withdrawn`: the incident this one repeats."
    )
    added: Timestamp = Field(
        description="Time of the first commit that added the incident's file (renames "
        "followed), on the main line of history."
    )
    modified: Timestamp = Field(
        description="Time of the last commit that touched the incident's file. A change of "
        "layout alone moves it too; `changes.json` lists only changes of data."
    )


class IncidentsFile(_Strict):
    """`incidents.json`: every published and withdrawn incident."""

    incidents: list[ExportedIncident] = Field(
        description="Sorted by the number in the id, ascending."
    )


class ExportedTerm(_Strict):
    """One taxonomy term, with the published incidents that carry it."""

    id: TermId = Field(description="kebab-case, unique across all dimensions, never removed.")
    label: Label = Field(description="Names in Korean (`ko`) and English (`en`).")
    description: str = Field(description="What the term means (Korean).")
    aliases: list[str] = Field(description="Words, in any language, that signal the term.")
    parent: TermId | None = Field(description="The broader term of the same dimension.")
    children: list[TermId] = Field(
        description="Terms whose `parent` is this term, in taxonomy order."
    )
    deprecated: Deprecation | None = Field(
        description="Set when the term is no longer used; `replaced_by` names its successor."
    )
    count: int = Field(ge=0, description="How many published incidents carry the term itself.")
    incidents: list[ReleasedId] = Field(
        description="Ids of the published incidents that carry the term, by id number, ascending."
    )


class ExportedDimension(_Strict):
    """One facet dimension and its terms."""

    id: Dimension = Field(
        description="The key of the dimension in an incident's `facets`.",
        json_schema_extra=OPEN_SET,
    )
    label: Label = Field(description="The dimension's name in Korean and English.")
    terms: list[ExportedTerm] = Field(description="Every term, in taxonomy file order.")


class TaxonomyExport(_Strict):
    """`taxonomy.json`: the controlled vocabulary and how it is used."""

    dimensions: list[ExportedDimension] = Field(
        description="causes, components, symptoms, contributing_factors — in that order."
    )


class IncidentNode(_Strict):
    """A published incident in the graph."""

    kind: Literal["incident"] = Field(description="Node type.")
    id: ReleasedId = Field(description="The incident's id, as in incidents.json.")
    title: str = Field(description="The incident's title.")
    occurred: str | None = Field(description="When it happened: YYYY, YYYY-MM or YYYY-MM-DD.")


class TermNode(_Strict):
    """A taxonomy term in the graph."""

    kind: Literal["term"] = Field(description="Node type.")
    id: TermId = Field(description="The term's id, as in taxonomy.json.")
    dimension: Dimension = Field(
        description="The term's facet dimension.", json_schema_extra=OPEN_SET
    )
    label: Label = Field(description="Names in Korean and English.")
    count: int = Field(ge=0, description="Published incidents that carry the term.")
    deprecated: Deprecation | None = Field(
        description="As in taxonomy.json: null for a current term; for a deprecated one, "
        "`replaced_by` (its successor, which `curator fix` writes in the incidents still "
        "carrying it) and `reason`. Since 1.1.0."
    )


class FacetEdge(_Strict):
    """An incident carries a term."""

    kind: Literal["facet"] = Field(description="Edge type.")
    source: ReleasedId = Field(description="The incident.")
    target: TermId = Field(description="The term.")
    dimension: Dimension = Field(
        description="The facet dimension of the term.", json_schema_extra=OPEN_SET
    )


class CooccurrenceEdge(_Strict):
    """Two terms carried together by the same published incidents."""

    kind: Literal["co-occurrence"] = Field(description="Edge type.")
    source: TermId = Field(description="The term whose id sorts first.")
    target: TermId = Field(description="The term whose id sorts second.")
    count: int = Field(ge=1, description="Published incidents that carry both terms.")


class Graph(_Strict):
    """`graph.json`: incidents and terms, linked by facets and by co-occurrence."""

    nodes: list[Annotated[IncidentNode | TermNode, Field(discriminator="kind")]] = Field(
        description="Incidents (by id number, ascending), then terms (dimension order, "
        "taxonomy order). Node ids are unique: incident ids are upper case, term ids lower case."
    )
    edges: list[Annotated[FacetEdge | CooccurrenceEdge, Field(discriminator="kind")]] = Field(
        description="Facet edges (by incident, then dimension), then co-occurrence edges "
        "(by source, then target)."
    )


class ReleasePoint(_Strict):
    """A commit the export compares or describes."""

    version: str = Field(description="The release tag, or what `git describe` names.")
    commit: CommitSha


class Change(_Strict):
    """One incident that changed between two releases."""

    id: ReleasedId
    change: Literal["added", "modified", "withdrawn", "removed"] = Field(
        description="`added`: new in this release (or newly published); `modified`: its data "
        "changed; `withdrawn`: published before, withdrawn now; `removed`: released before "
        "and absent now, which the project's policy forbids — reported, never hidden.",
        json_schema_extra=OPEN_SET,
    )
    date: Timestamp = Field(
        description="Time of the last commit that touched the incident's file (for "
        "`removed`: the commit that deleted it, or made it a draft again)."
    )
    title: str = Field(
        description="The incident's title (if removed: its title in the release compared "
        "with, `since`)."
    )
    status: Literal["published", "withdrawn"] | None = Field(
        description="The incident's status now; null when removed."
    )
    fields: list[str] = Field(
        description="For `modified` and `withdrawn`: the top-level fields whose values "
        "changed, in field order; otherwise empty."
    )


class TermChange(_Strict):
    """One taxonomy term added or changed since the previous release (terms are never
    removed: the export refuses a release that drops one)."""

    id: TermId = Field(description="The term's id, as in taxonomy.json.")
    dimension: Dimension = Field(
        description="The term's facet dimension.", json_schema_extra=OPEN_SET
    )
    change: Literal["added", "modified"] = Field(
        description="`added`: not in the previous release; `modified`: its `fields` changed.",
        json_schema_extra=OPEN_SET,
    )
    fields: list[str] = Field(
        description="For `modified`: which of `label`, `description`, `aliases`, `parent` "
        "and `deprecated` changed, in that order; otherwise empty."
    )
    deprecated: Deprecation | None = Field(
        description="As in taxonomy.json, now: for a term deprecated, its `replaced_by`, "
        "which the incidents carrying it will carry once `curator fix` has run."
    )


class Changes(_Strict):
    """`changes.json`: what changed since the previous release."""

    since: ReleasePoint | None = Field(
        description="The previous release; null for the first, when every incident is added."
    )
    until: ReleasePoint = Field(description="This export.")
    changes: list[Change] = Field(description="Newest first; ties by id number, ascending.")
    terms: list[TermChange] = Field(
        description="The taxonomy terms added or changed since `since` (every term for the "
        "first release), in dimension and taxonomy order. Since 1.1.0."
    )


class ManifestFile(_Strict):
    """One file of the export."""

    path: str = Field(description="Relative to the export folder, `/`-separated.")
    size: int = Field(ge=0, description="Size in bytes.")
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="SHA-256 of the bytes, hex.")


class Counts(_Strict):
    """How much the export holds."""

    incidents: int = Field(ge=0, description="Incidents exported (published + withdrawn).")
    published: int = Field(ge=0, description="Published incidents.")
    withdrawn: int = Field(ge=0, description="Withdrawn incidents.")
    terms: int = Field(ge=0, description="Taxonomy terms, deprecated ones included.")
    changes: int = Field(ge=0, description="Entries in changes.json.")


class Manifest(_Strict):
    """`manifest.json`: what this export is, and a checksum of every other file."""

    schema_version: str = Field(
        pattern=r"^[0-9]+\.[0-9]+\.[0-9]+$",
        description="Semantic version of the export format (docs/export.md).",
        examples=[SCHEMA_VERSION],
    )
    version: str = Field(
        description="The library's version: the release tag, or what `git describe` names."
    )
    commit: CommitSha = Field(description="The commit exported.")
    generated_at: Timestamp = Field(
        description="The commit's time, not the wall clock, so that exports are reproducible."
    )
    counts: Counts = Field(description="Numbers of incidents, terms and changes.")
    files: list[ManifestFile] = Field(description="Every other file of the export, by path.")
