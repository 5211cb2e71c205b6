"""The review of a change to the library: one value that every renderer reads.

It is also the JSON that `curator review --format json` prints and that the comment workflow
reads back from an artifact. That artifact comes from a pull request's own workflow run, so it
is untrusted: the model validates shape, bounds counts and patterns here, and the renderers
treat every string as data.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from typing import Annotated, Any, Final, Literal, Self

from pydantic import BaseModel, ConfigDict, Field

from curator.findings import Finding
from curator.library import INCIDENTS, SCHEMA
from curator.model import DIMENSIONS, Dimension
from curator.rules import unknown_term

REPORT_VERSION: Final = 1
SHA_PATTERN = r"^[0-9a-f]{40}(?:[0-9a-f]{24})?$"  # SHA-1 or SHA-256 object names
CODE_PATTERN = r"^[A-Z]{2}[0-9]{3}$"

Sha = Annotated[str, Field(pattern=SHA_PATTERN)]
Score = Annotated[float, Field(ge=0.0, le=1.0)]
# "unchanged": a file the change does not touch but breaks (an error the base did not have).
Change = Literal["added", "changed", "renamed", "removed", "unchanged"]
# Generous bounds: real reports are far below them; a forged artifact cannot make the
# renderers walk millions of entries.
_MANY = 10_000
MAX_FINDINGS: Final = _MANY  # per file; the rest is counted (`FileReview.findings_omitted`)
# Of a report as written and read; a review as built holds every file (`Review.built`).
MAX_FILES: Final = 100_000
MAX_REASONS: Final = 100  # per match; the last says how many more (`review.judge`)
_MORE_REASONS = re.compile(r"and ([0-9]{1,9}) more: `curator similar` lists them all")


class _Value(BaseModel):
    # Unknown keys are ignored, not refused: the comment workflow reads the report with the
    # curator of the default branch, and a pull request that adds a report field (fields
    # are added within a version, docs/review.md) must not fail its own comment. Nothing
    # ignored is ever rendered. (Construction is checked by mypy, not by `extra`.)
    model_config = ConfigDict(extra="ignore", frozen=True)

    # pydantic keeps with each value the set of the names of the fields it was given
    # (`model_fields_set`), a set of its own, 0.7–2.3 KB: 46% of what a judged file's
    # review took (its matches, each a value), where a change to every incident of
    # 100,000 holds 100,000 of them. The values are frozen, and a copy's set is a copy
    # (`model_copy` adds the names it updates to that), so values given the same names
    # share one set. Pickled together, they share it again once unpickled.
    def model_post_init(self, context: Any, /) -> None:
        _share_fields_set(self)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        copied = super().model_copy(update=update, deep=deep)
        _share_fields_set(copied)
        return copied


_FIELDS_SETS: dict[frozenset[str], set[str]] = {}


def _share_fields_set(value: BaseModel) -> None:
    names = value.__pydantic_fields_set__
    shared = _FIELDS_SETS.setdefault(frozenset(names), names)
    if shared is not names:
        object.__setattr__(value, "__pydantic_fields_set__", shared)


class ReportFinding(_Value):
    path: str
    line: int = Field(ge=1)
    column: int = Field(ge=1)
    code: str = Field(pattern=CODE_PATTERN)
    severity: Literal["error", "warning"]
    message: str
    fixable: bool = False

    @classmethod
    def of(cls, finding: Finding) -> ReportFinding:
        return cls.model_validate(finding.to_json())


class Match(_Value):
    """Another incident that may describe the same event (`kind: duplicate`) or is worth
    reading alongside (`kind: related`), as `curator similar` ranks it."""

    id: str
    score: Score
    reasons: list[str] = Field(default_factory=list, max_length=MAX_REASONS)
    kind: Literal["duplicate", "related"]
    title: str | None = None
    on_base: bool = Field(
        default=False,
        description="The incident is not on this branch: it was merged to the base branch "
        "since the branch started (it is at `base_tip`, not at `head`).",
    )
    same_report: bool = Field(
        default=False,
        description="It, or a withdrawn copy of it that matched, cites a report the file "
        "cites too: two incidents may not share one (IL502), whatever `not_duplicate_of` says.",
    )

    def reasons_given(self) -> int:
        """How many reasons `similar` gave: those held, or, when the list was cut to
        MAX_REASONS, those before its last and the ones that last counts (`more_reasons`)."""
        counted = _MORE_REASONS.fullmatch(self.reasons[-1]) if self.reasons else None
        if counted is None or len(self.reasons) < MAX_REASONS:
            return len(self.reasons)
        return len(self.reasons) - 1 + int(counted[1])


def more_reasons(count: int) -> str:
    """The last reason of a list cut to MAX_REASONS: how many more there are."""
    return f"and {count} more: `curator similar` lists them all"


class Evidence(_Value):
    """Why a term was suggested: a phrase found in one of the incident's fields (and the
    label or alias of the term it matched), or a similar incident that carries the term."""

    phrase: str | None = None
    field: str | None = None
    alias: str | None = None  # absent in reports of older versions
    incident: str | None = None
    similarity: float | None = None
    kind: Literal["duplicate", "related"] | None = None  # of the incident, as `similar` says
    on_base: bool = Field(
        default=False,
        description="The incident is only at `base_tip`, merged to the base branch since the "
        "branch started, as `Match.on_base` (absent in reports of older versions).",
    )


class TermJudgement(_Value):
    """One taxonomy term `curator suggest` judged: missing from the facets, or unsupported."""

    term: str
    score: Score
    evidence: list[Evidence] = Field(default_factory=list, max_length=100)


class FacetJudgement(_Value):
    dimension: Dimension
    missing: list[TermJudgement] = Field(default_factory=list, max_length=_MANY)
    unsupported: list[TermJudgement] = Field(default_factory=list, max_length=_MANY)


class FacetChange(_Value):
    """A term the change adds to or removes from the facets of an incident the base has
    (a relabel); an added one with its support, as `curator suggest` judges it."""

    dimension: Dimension
    term: str
    change: Literal["added", "removed"]
    support: TermJudgement | None = Field(
        default=None,
        description="For an added term: its score and evidence (none: nothing in the text or "
        "the most similar incidents supports it); for a removed term, the same when `curator "
        "suggest` finds it missing (it is among the suggestions too), else null; null when the "
        "incident was not judged (withdrawn, or not read as an incident).",
    )


class FileReview(_Value):
    """One changed file (or one the change breaks): what the linter found, and the
    judgements on the incident in it."""

    path: str = Field(description="Repository-relative path at the head (at the base if removed).")
    change: Change
    old_path: str | None = Field(
        default=None,
        description="A rename's path at the base; for an added file, the path it was moved "
        "from, where the library did not read it (hidden, a subfolder, a `.yml`).",
    )
    id: str | None = None
    title: str | None = Field(default=None, description="At the head (at the base if removed).")
    title_was: str | None = Field(
        default=None,
        description="When the change writes an incident's title: the title at the base (for a "
        "rename, under its old path); `title` is the head's. Null when unchanged (absent in "
        "reports of older versions).",
    )
    named_at_base: bool = Field(
        default=False,
        description="`id` and `title` are the base's: the file at the head gives neither (it "
        "does not parse, say) (absent in reports of older versions).",
    )
    content_unchanged: bool = Field(
        default=False,
        description="A rename whose content is the base's, byte for byte: no duplicates are "
        "looked for, as it makes none (absent in reports of older versions).",
    )
    facets: dict[Dimension, list[str]] = Field(
        default_factory=dict, description="The facets the incident carries at the head."
    )
    status_was: str | None = Field(
        default=None,
        description="When the change writes an incident's status (`draft`, `published`, "
        "`withdrawn`): the status at the base; `status` is the head's.",
    )
    status: str | None = Field(default=None, description="With `status_was`: at the head.")
    findings: list[ReportFinding] = Field(default_factory=list, max_length=_MANY)
    findings_omitted: int = Field(
        default=0,
        ge=0,
        description="Findings of this file beyond the 10,000 the report holds (errors are "
        "kept first); `curator lint PATH` lists them all.",
    )
    matches: list[Match] = Field(default_factory=list, max_length=_MANY)
    matches_at_base: list[Match] = Field(
        default_factory=list,
        max_length=_MANY,
        description="For an incident the base has (changed, or renamed: its old path's file): "
        "the matches its text at the base has too, as strong (a duplicate there, or related "
        "there and here), left out of `matches`, as the change neither makes nor settles them; "
        "none for an incident the change publishes (a draft, or a withdrawn one restored), "
        "which puts the pair in a release, nor for one whose change `similar` does not read "
        "(its facets, comments, layout), which is not judged (absent in reports of older "
        "versions).",
    )
    suggestions: list[FacetJudgement] = Field(default_factory=list, max_length=len(DIMENSIONS))
    duplicate_of: Match | None = Field(
        default=None,
        description="For an incident the change withdraws as a duplicate: the incident it "
        "names, scored as `similar` scores any pair (`kind` related: below the threshold).",
    )
    facets_changed: list[FacetChange] = Field(
        default_factory=list,
        max_length=_MANY,
        description="The terms the change adds to or removes from the facets the incident had "
        "at the base (for a rename, under its old path), by dimension; none for a new file, "
        "or one whose YAML does not parse at the head (absent in reports of older versions).",
    )
    facets_to_paste: dict[Dimension, list[str]] = Field(
        default_factory=dict,
        description="When terms are suggested: the `facets` block with them added, as "
        "`curator lint` accepts it (unknown terms dropped, deprecated ones replaced, sorted; "
        "of a dimension in `facets_unread`, the incident's terms, none dropped).",
    )
    facets_unread: list[Dimension] = Field(
        default_factory=list,
        max_length=len(DIMENSIONS),
        description="With `facets_to_paste`: the dimensions whose taxonomy file the head cannot "
        "read (IL303), of which nothing is suggested or judged and the block keeps the "
        "incident's terms, none dropped (absent in reports of older versions).",
    )
    # Not in the report (its JSON leaves it out): of a file the change edits, renames or
    # moves into the library, the lines its diff adds or rewrites, where "Files changed"
    # shows an annotation, for the annotations of the review's own run (`annotations`).
    # Empty when not needed (a file with no finding and no possible duplicate).
    lines_in_diff: frozenset[int] = Field(default=frozenset(), exclude=True)

    def shown_in_diff(self, line: int) -> bool:
        """Whether a pull request's "Files changed" shows `line` of the file as the change's
        (where an annotation on it is shown): every line of a new file, and the lines the
        diff adds or rewrites of one it edits or renames (`lines_in_diff`)."""
        return (self.change == "added" and self.old_path is None) or line in self.lines_in_diff

    def first_shown(self) -> int | None:
        """The first line "Files changed" shows of the file as the change's (`shown_in_diff`),
        where an annotation on the file as a whole is seen beside the change; None when it
        shows none (a rename alone, a diff that only removes lines, a file not changed)."""
        return 1 if self.shown_in_diff(1) else min(self.lines_in_diff, default=None)

    def own(self) -> str:
        """The incident's name as the similarity index gives it, and its matches name it."""
        return self.id or PurePosixPath(self.path).stem

    def errors(self) -> list[ReportFinding]:
        return [f for f in self.findings if f.severity == "error"]

    def warnings(self) -> list[ReportFinding]:
        return [f for f in self.findings if f.severity == "warning"]

    def duplicates(self) -> list[Match]:
        return [m for m in self.matches if m.kind == "duplicate"]

    def related(self) -> list[Match]:
        return [m for m in self.matches if m.kind == "related"]

    def missing(self) -> list[tuple[str, TermJudgement]]:
        return [(j.dimension, t) for j in self.suggestions for t in j.missing]

    def unsupported(self) -> list[tuple[str, TermJudgement]]:
        return [(j.dimension, t) for j in self.suggestions for t in j.unsupported]

    def suggestions_shown(self) -> int:
        """The facet suggestions the comment shows: none of a file that looks like another
        incident, where what to do is drop or withdraw it, not tag it (the report keeps them)."""
        return 0 if self.duplicates() else len(self.missing())

    def unsupported_shown(self) -> int:
        """The facets nothing supports that the comment shows: an added one in every file
        ("Facets changed"), the others but in a file that looks like another incident."""
        added = {(c.dimension, c.term) for c in self.facets_changed if c.change == "added"}
        return sum(not self.duplicates() or (d, t.term) in added for d, t in self.unsupported())

    def doubtful_claim(self) -> bool:
        """Withdrawn as a duplicate of an incident that does not look like the same event."""
        return self.duplicate_of is not None and self.duplicate_of.kind != "duplicate"

    def rank(self) -> int:
        """What a reviewer must see first, and what a report or comment that must shrink
        keeps: errors (they block the merge), possible duplicates (they need a decision),
        warnings, then advice."""
        if self.errors():
            return 0
        if self.duplicates() or self.doubtful_claim():
            return 1
        return 2 if self.warnings() else 3


TermChangeKind = Literal["added", "removed", "deprecated", "restored", "relabelled", "moved"]


class TermChange(_Value):
    """A term of the taxonomy that the change adds, removes, deprecates (or restores),
    relabels or moves under another parent, with the incident files of the head that carry
    it: what a reviewer of a taxonomy change decides on."""

    dimension: Dimension
    term: str
    kinds: list[TermChangeKind] = Field(min_length=1, max_length=6)
    replaced_by: str | None = Field(
        default=None, description="For `deprecated`: the replacement the head names."
    )
    fixable: bool = Field(
        default=False,
        description="For `deprecated`: the replacement is a current term, which `curator fix` "
        "writes in the incidents carrying this one.",
    )
    label_was: str | None = Field(default=None, description="For `relabelled`: ko / en at base.")
    label: str | None = Field(default=None, description="ko / en at the head.")
    parent_was: str | None = Field(default=None, description="For `moved`: at the base.")
    parent: str | None = Field(default=None, description="For `moved`: at the head.")
    old_label_names: str | None = Field(
        default=None,
        description="For `relabelled`: the term the old label names at the head (itself when "
        "an alias keeps it), as lint, fix, new and search read a name; null for none.",
    )
    carried_by: int = Field(
        default=0, ge=0, description="How many incident files of the head carry the term."
    )
    incidents: list[str] = Field(
        default_factory=list,
        max_length=_MANY,
        description="The first of them (at most 100), by file name without `.yaml`.",
    )


class UnreadTaxonomy(_Value):
    """A taxonomy file the head cannot read (IL303: its YAML is broken, say): every term of
    its dimension is unknown there, so each incident carrying one has an IL301 error, and
    its terms are compared with no others (none is said to be removed)."""

    dimension: Dimension
    path: str = Field(description="The taxonomy file, repository-relative.")
    line: int = Field(ge=1, description="Of its first IL303 error.")
    column: int = Field(ge=1)
    at_base: bool | None = Field(
        default=None,
        description="Whether the base could not read it either (absent in reports of older "
        "versions).",
    )


class MendedTaxonomy(_Value):
    """A taxonomy file of a change to the taxonomy that the base could not read (IL303) and
    the head reads: its terms are known again, and compared with none of the base's (none is
    said to be added)."""

    dimension: Dimension
    path: str = Field(description="The taxonomy file, repository-relative.")
    line: int | None = Field(
        default=None,
        ge=1,
        description="Of its first IL303 error at the base (absent in reports of older versions).",
    )
    column: int | None = Field(default=None, ge=1)


class UnreadOnBase(_Value):
    """An incident file only `base_tip` has (merged to the base branch since the change
    branched off) that cannot be read as an incident (its YAML is broken, it is not UTF-8,
    it is a list, …): no incident of the change was compared with it."""

    path: str = Field(description="Repository-relative, as `base_tip` has it.")
    line: int | None = Field(
        default=None, ge=1, description="Of lint's first problem; null when it cannot be read."
    )
    column: int | None = Field(default=None, ge=1)
    code: str = Field(pattern=CODE_PATTERN, description="Lint's, for that problem (IL101, …).")
    message: str = Field(description="Lint's reason.")


class FilterChange(_Value):
    """A term whose search filter (`curator search`, a facet filter of the website) finds
    other incident files at the head than at the base, through a parent or a deprecation
    the change writes."""

    dimension: Dimension
    term: str
    gains: int = Field(default=0, ge=0)
    gained: list[str] = Field(default_factory=list, max_length=_MANY)
    loses: int = Field(default=0, ge=0)
    lost: list[str] = Field(default_factory=list, max_length=_MANY)


class Counts(_Value):
    errors: int = Field(default=0, ge=0)
    warnings: int = Field(default=0, ge=0)
    duplicates: int = Field(default=0, ge=0)
    suggestions: int = Field(
        default=0, ge=0, description="Those the comment shows (`FileReview.suggestions_shown`)."
    )
    doubtful_claims: int = Field(default=0, ge=0)
    unsupported: int = Field(
        default=0,
        ge=0,
        description="The facets nothing supports that the comment shows "
        "(`FileReview.unsupported_shown`; absent in reports of older versions).",
    )


class Omitted(Counts):
    """The files a report leaves out to stay within the size the comment step reads, and
    what they hold, which the report's counts include."""

    files: int = Field(ge=0)
    changed: int = Field(default=0, ge=0, description="Of them, changed under the library.")


class Review(_Value):
    version: Literal[1] = REPORT_VERSION
    base: Sha = Field(description="The commit compared against (the merge base).")
    head: Sha
    base_tip: Sha | None = Field(
        default=None,
        description="The base commit as given (the base branch's tip): the incident files "
        "added there since `base` are judged against too (`on_base` matches).",
    )
    root: str = Field(
        default="", description="The library's folder in the repository; empty at its top."
    )
    files: list[FileReview] = Field(default_factory=list, max_length=MAX_FILES)
    errors_elsewhere: int = Field(
        default=0,
        ge=0,
        description="Errors in library files this change does not touch that the base has "
        "too (those it causes are in `files`, as `unchanged`).",
    )
    terms_changed: list[TermChange] = Field(
        default_factory=list,
        max_length=_MANY,
        description="The terms the change adds, removes, deprecates, relabels or moves "
        "(absent in reports of older versions).",
    )
    taxonomy_unread: list[UnreadTaxonomy] = Field(
        default_factory=list,
        max_length=len(DIMENSIONS),
        description="The taxonomy files the head cannot read (IL303), of a change to the "
        "taxonomy, or whose terms an incident of the change carries: their dimensions' terms "
        "are not in `terms_changed` (absent in reports of older versions).",
    )
    taxonomy_mended: list[MendedTaxonomy] = Field(
        default_factory=list,
        max_length=len(DIMENSIONS),
        description="The taxonomy files of a change to the taxonomy that the base could not "
        "read (IL303) and the head reads: their dimensions' terms are not in `terms_changed` "
        "(absent in reports of older versions).",
    )
    filters_changed: list[FilterChange] = Field(
        default_factory=list,
        max_length=_MANY,
        description="The terms whose search filter finds other incidents because of the "
        "change to the taxonomy (absent in reports of older versions).",
    )
    base_tip_unread: list[UnreadOnBase] = Field(
        default_factory=list,
        max_length=MAX_FILES,  # (as many as `files`: the base may gain a library's worth)
        description="The incident files `base_tip` added since `base` that cannot be read as "
        "incidents, which the change's incidents were not compared with (absent in reports "
        "of older versions).",
    )
    omitted: Omitted | None = Field(
        default=None,
        description="The files left out, the least important first, for the report to stay "
        "within the 64 MiB and 100,000 files the comment step reads; `curator review` lists "
        "them (absent when none are, and in reports of older versions).",
    )

    @classmethod
    def built(cls, files: list[FileReview], **fields: Any) -> Review:
        """A review of `files` however many, where a report holds at most MAX_FILES
        (`curator.review.output.as_json` leaves the rest out): the review's annotations
        and its job summary are made of every file."""
        return cls(**fields).model_copy(update={"files": files})

    def count(self) -> Counts:
        """Of the files in the report and of those it left out (`omitted`)."""
        left_out = self.omitted or Counts()
        return Counts(
            errors=sum(len(f.errors()) for f in self.files) + left_out.errors,
            warnings=sum(len(f.warnings()) for f in self.files) + left_out.warnings,
            duplicates=len(self.duplicate_pairs()) + left_out.duplicates,
            suggestions=sum(f.suggestions_shown() for f in self.files) + left_out.suggestions,
            doubtful_claims=sum(f.doubtful_claim() for f in self.files) + left_out.doubtful_claims,
            unsupported=sum(f.unsupported_shown() for f in self.files) + left_out.unsupported,
        )

    def duplicate_pairs(
        self, files: Sequence[FileReview] | None = None
    ) -> list[tuple[FileReview, Match]]:
        """Each possible duplicate once, with the file it is in: two incidents of the change
        that match each other are one pair, in the first of the two files (of `files`, the
        report's files in the order to take them; all of them as the report has them by
        default)."""
        seen: set[frozenset[str]] = set()
        pairs = []
        for file in self.files if files is None else files:
            for match in file.duplicates():
                pair = frozenset((file.own(), match.id))
                if pair not in seen:
                    seen.add(pair)
                    pairs.append((file, match))
        return pairs

    def unread_of(self, finding: ReportFinding) -> UnreadTaxonomy | None:
        """The taxonomy file the head cannot read that `finding` is an IL301 error of (a
        facet unknown only because none of its dimension's terms is known), by the ending
        lint gives it: the comment and the annotations say those once, at the file."""
        if finding.code != unknown_term.RULE.code:
            return None
        said = finding.message.endswith
        return next(
            (u for u in self.taxonomy_unread if said(unknown_term.said_unread(u.path))), None
        )

    def without_unread(self, file: FileReview) -> FileReview:
        """`file` without the IL301 errors `unread_of` finds (`file` itself if none)."""
        kept = [f for f in file.findings if self.unread_of(f) is None]
        return (
            file if len(kept) == len(file.findings) else file.model_copy(update={"findings": kept})
        )

    def in_library(self, path: str) -> bool:
        """Whether `path` is in the library's incidents/ or schema/: not an incident a
        change put elsewhere (IL107), which the library does not have."""
        folders = (f"{self.root}/{name}/".lstrip("/") for name in (INCIDENTS, SCHEMA))
        return path.startswith(tuple(folders))

    def incident_path(self, incident_id: str) -> str:
        return f"{self.root}/incidents/{incident_id}.yaml".lstrip("/")
