"""The typed values of the library: an incident and a taxonomy file.

These models are the one source of truth for the file formats: `schema/*.schema.json` is
generated from them (`python -m curator.schema --write`), and a test fails on drift.
Field order here is the canonical key order of an incident file.

Every scalar reaches these models as text (see `load.py`), so dates are text patterns.
Rules that need the whole library or a judgement (narrative required when published,
URL form, references) live in `curator/rules/`, not here.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

ID_PATTERN = r"^IL-(?:[0-9]{4,}|NEW-[a-z0-9]+(?:-[a-z0-9]+)*)$"
NUMBERED_ID_PATTERN = r"^IL-[0-9]{4,}$"
TERM_ID_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
PARTIAL_DATE_PATTERN = r"^[0-9]{4}(?:-[0-9]{2}(?:-[0-9]{2})?)?$"

DIMENSIONS = ("causes", "components", "symptoms", "contributing_factors")
Dimension = Literal["causes", "components", "symptoms", "contributing_factors"]
Status = Literal["published", "draft", "withdrawn"]
NARRATIVE_FIELDS = ("symptom", "trigger", "detection", "actions", "lessons")


def parse_partial_date(text: str) -> tuple[int, int | None, int | None]:
    """`YYYY`, `YYYY-MM` or `YYYY-MM-DD` → parts; ValueError if no such day exists."""
    parts = [int(p) for p in text.split("-")]
    year, month, day = parts[0], parts[1] if len(parts) > 1 else None, None
    if len(parts) > 2:
        day = parts[2]
    dt.date(year, month or 1, day or 1)  # raises ValueError for month 13, Feb 30 …
    return year, month, day


def _real_date(text: str) -> str:
    try:
        parse_partial_date(text)
    except ValueError as exc:
        raise ValueError(f"{text!r} is not a real date") from exc
    return text


PartialDate = Annotated[
    str,
    Field(pattern=PARTIAL_DATE_PATTERN, examples=["2023", "2023-03", "2023-03-08"]),
    AfterValidator(_real_date),
]
IncidentId = Annotated[
    str,
    Field(
        pattern=ID_PATTERN,
        description="`IL-` and four or more digits; `IL-NEW-<slug>` before numbering.",
        examples=["IL-0137", "IL-NEW-weka-eviction"],
    ),
]
TermId = Annotated[str, Field(pattern=TERM_ID_PATTERN, examples=["nccl"])]
Text = Annotated[str, Field(min_length=1)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Facets(_Strict):
    """Taxonomy term ids that classify the incident, by dimension."""

    causes: list[TermId] = Field(
        min_length=1, description="Why it happened (원인).", examples=[["capacity-limit"]]
    )
    components: list[TermId] = Field(
        min_length=1, description="What was involved (구성 요소).", examples=[["nccl"]]
    )
    symptoms: list[TermId] = Field(
        min_length=1, description="What was seen (증상).", examples=[["throughput-degradation"]]
    )
    contributing_factors: list[TermId] = Field(
        default_factory=list,
        description="What made it likelier or worse (기여 요인); may be empty.",
        examples=[["scale-only-behaviour"]],
    )


class Source(_Strict):
    """A public report the incident's facts come from."""

    url: str = Field(
        description="https URL of the original report (not of a list that links to it).",
        examples=["https://status.openai.com/incidents/tljwlz08w539"],
    )
    title: Text = Field(description="The report's title as published.")
    publisher: Text | None = Field(default=None, description="Who published the report.")
    published: PartialDate | None = Field(
        default=None, description="When the report was published."
    )
    language: str | None = Field(
        default=None,
        pattern=r"^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$",
        description="Language of the report (BCP 47).",
        examples=["en", "ko"],
    )


class Incident(_Strict):
    """One incident report (`incidents/IL-NNNN.yaml`)."""

    id: IncidentId = Field(description="Stable identifier, equal to the file name.")
    title: Text = Field(
        description="One line: what happened, where, with what effect.",
        examples=[
            "CNI 설정 변경이 스테이징에 없던 하드웨어와 맞지 않아 GPU 클러스터가 네트워크를 잃었다"
        ],
    )
    status: Status = Field(
        description="`published`, `draft` (narrative may be incomplete) or `withdrawn`."
    )
    occurred: PartialDate | None = Field(default=None, description="When it happened.")
    organizations: list[Text] = Field(
        default_factory=list,
        description="Organisations whose systems it happened in; empty when anonymous.",
        examples=[["Datadog"]],
    )
    facets: Facets
    symptom: Text | None = Field(default=None, description="증상: what was observed.")
    trigger: Text | None = Field(default=None, description="촉발: what set it off.")
    detection: Text | None = Field(default=None, description="감지: how it was noticed.")
    actions: list[Text] | None = Field(
        default=None, description="조치: what was done, one item per action."
    )
    follow_ups: list[Text] | None = Field(
        default=None, description="후속 조치: longer-term work that followed."
    )
    lessons: Text | None = Field(default=None, description="교훈: what was learned.")
    sources: list[Source] = Field(min_length=1, description="Public reports, at least one.")
    related: list[IncidentId] = Field(
        default_factory=list, description="Other incidents worth reading alongside."
    )
    not_duplicate_of: list[IncidentId] = Field(
        default_factory=list,
        description="Incidents a reviewer judged to be different events; never flagged again.",
    )
    duplicate_of: IncidentId | None = Field(
        default=None, description="With `status: withdrawn`: the incident this one repeats."
    )
    withdrawn_reason: Text | None = Field(
        default=None, description="With `status: withdrawn`: why it was withdrawn."
    )

    def references(self) -> list[tuple[str, int | None, str]]:
        """(field, index, id) of every id this incident points to."""
        refs: list[tuple[str, int | None, str]] = [
            ("related", i, ref) for i, ref in enumerate(self.related)
        ]
        refs += [("not_duplicate_of", i, ref) for i, ref in enumerate(self.not_duplicate_of)]
        if self.duplicate_of:
            refs.append(("duplicate_of", None, self.duplicate_of))
        return refs

    def terms(self) -> list[tuple[Dimension, int, str]]:
        return [
            (dimension, i, term)
            for dimension in DIMENSIONS
            for i, term in enumerate(getattr(self.facets, dimension))
        ]


INCIDENT_KEYS = tuple(Incident.model_fields)


class Label(_Strict):
    ko: Text
    en: Text


class Deprecation(_Strict):
    replaced_by: TermId = Field(description="The term to use instead.")
    reason: Text = Field(description="Why the term was deprecated.")


class Term(_Strict):
    """One value of a taxonomy dimension."""

    id: TermId = Field(description="kebab-case, stable forever.")
    label: Label
    description: Text = Field(description="What the term means (Korean).")
    aliases: list[Text] = Field(
        default_factory=list,
        description="Words and phrases, in any language, that signal the term in text.",
    )
    parent: TermId | None = Field(default=None, description="A broader term of the same dimension.")
    deprecated: Deprecation | None = None


class TaxonomyFile(_Strict):
    """One dimension of the taxonomy (`schema/taxonomy/<dimension>.yaml`)."""

    dimension: Dimension
    terms: list[Term]
