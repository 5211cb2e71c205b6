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
import re
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

ID_PATTERN = r"^IL-(?:[0-9]{4,}|NEW-[a-z0-9]+(?:-[a-z0-9]+)*)$"
NUMBERED_ID_PATTERN = r"^IL-[0-9]{4,}$"
TERM_ID_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
PARTIAL_DATE_PATTERN = r"^[0-9]{4}(?:-[0-9]{2}(?:-[0-9]{2})?)?$"
LANGUAGE_PATTERN = r"^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$"
# (`fullmatch`: `$` also matches before a final line break, which the schema refuses.)
INCIDENT_ID = re.compile(ID_PATTERN)
NUMBERED_ID = re.compile(NUMBERED_ID_PATTERN)

Dimension = Literal["causes", "components", "symptoms", "contributing_factors"]
DIMENSIONS: tuple[Dimension, ...] = ("causes", "components", "symptoms", "contributing_factors")
Status = Literal["published", "draft", "withdrawn"]
NARRATIVE_FIELDS = ("symptom", "trigger", "detection", "actions", "lessons")


def numbered_id(number: int) -> str:
    """The id of `number` as `curator assign-ids` writes it: four digits or more."""
    return f"IL-{number:04d}"


def canonical_id(incident_id: str) -> str:
    """The id as `curator assign-ids` writes its number (`IL-00025` → `IL-0025`): the
    pattern lets zeros lead a number of more than four digits, but a number is one id,
    however spelt. Any other text (a placeholder, a spelling already canonical) as it is."""
    # Only a numbered id longer than four digits whose first is a zero is spelt otherwise:
    # told by two characters for the 100,000 ids of a large library, before any pattern.
    if len(incident_id) > 7 and incident_id[3] == "0" and NUMBERED_ID.fullmatch(incident_id):
        return numbered_id(int(incident_id[3:]))
    return incident_id


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

# Text is read by people: in the review comment, on the website, in the Atom feed. So it
# holds a visible character, and no control character but tab and line feed: XML 1.0
# (the feed) cannot carry the others, JSON only as \u escapes, and no incident means one.
# A double-quoted YAML scalar can write them all ("\x07", "\0"). Each character is
# invisible, control or neither, so the pattern matches without backtracking in any
# regex engine (pydantic's, Python's, a JSON Schema validator's).
_INVISIBLE = (
    r"\t\n \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"  # white space
    r"\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f"  # format
)
# Control characters, the noncharacters, and U+FEFF: a byte-order mark inside a value, which
# YAML can write only as the escape `\ufeff` (U+2060 is the word joiner it once stood for).
_CONTROL = r"\x00-\x08\x0b-\x1f\x7f-\x9f\ufeff\ufffe\uffff"
TEXT_PATTERN = f"^[{_INVISIBLE}]*[^{_INVISIBLE}{_CONTROL}][^{_CONTROL}]*$"
_CONTROL_CHARACTER = re.compile(f"[{_CONTROL}]")
_REFUSED_KINDS = {0xFEFF: "a byte-order mark", 0xFFFE: "a noncharacter", 0xFFFF: "a noncharacter"}
Text = Annotated[str, Field(min_length=1, pattern=TEXT_PATTERN)]


@dataclass(frozen=True)
class TextFault:
    """Why a text is no `Text`, in parts: it is `empty`, has no visible character
    (`invisible`), or holds a refused `character`, by its code point and its place (from
    1), for a command that says it in another language too (`curator new`)."""

    kind: Literal["empty", "invisible", "character"]
    code: int = 0
    place: int = 0

    @property
    def character_kind(self) -> str:
        """What the refused character is: a control character, a byte-order mark, or a
        noncharacter."""
        return _REFUSED_KINDS.get(self.code, "a control character")

    def __str__(self) -> str:
        if self.kind == "empty":
            return "must not be empty"
        if self.kind == "invisible":
            return "holds no visible character"
        return f"holds U+{self.code:04X}, {self.character_kind} (character {self.place}); remove it"


def text_fault(text: str) -> TextFault | None:
    """Why `text` is no `Text`, in parts; None if it is one."""
    if not text:
        return TextFault("empty")
    control = _CONTROL_CHARACTER.search(text)
    if control:
        return TextFault("character", ord(control.group()), control.start() + 1)
    if not re.match(TEXT_PATTERN, text):
        return TextFault("invisible")
    return None


def text_problem(text: str) -> str | None:
    """Why `text` is no `Text`, in words; None if it is one."""
    fault = text_fault(text)
    return None if fault is None else str(fault)


def text_problem_but_byte_order_marks(text: str) -> str | None:
    """`text_problem` of `text` but for its U+FEFF, which incident files report (and
    `curator fix` removes) as IL606: each read as the zero-width character it shows as, so
    that what is said is the other problem (a control character, nothing visible), at its
    place in `text`; None if they are its one problem."""
    # U+2060 WORD JOINER, which U+FEFF stood for inside text: invisible, one character long.
    return text_problem(text.replace("\ufeff", "\u2060"))


def not_a_mapping(data: object) -> str | None:
    """Why a document is no incident at all, whatever its keys; None if it is a mapping."""
    if isinstance(data, dict):
        return None
    kind = "a list" if isinstance(data, list) else "plain text"
    return f"an incident is a mapping of keys to values, not {kind}"


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

    def terms(self) -> list[tuple[Dimension, int, str]]:
        """(dimension, index, term) of each facet, in the order of the dimensions."""
        return [
            (dimension, i, term)
            for dimension in DIMENSIONS
            for i, term in enumerate(getattr(self, dimension))
        ]


class Source(_Strict):
    """A public report the incident's facts come from."""

    url: str = Field(
        description="https URL of the original report (not of a list that links to it).",
        examples=["https://status.openai.com/incidents/tljwlz08w539"],
    )
    title: Text = Field(
        description="The report's title as published.",
        examples=["Multiple engines are down — Incident Report for OpenAI"],
    )
    publisher: Text | None = Field(
        default=None, description="Who published the report.", examples=["OpenAI"]
    )
    published: PartialDate | None = Field(
        default=None, description="When the report was published.", examples=["2023-05-16"]
    )
    language: str | None = Field(
        default=None,
        pattern=LANGUAGE_PATTERN,
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
        description="`published`, `draft` (narrative may be incomplete) or `withdrawn`.",
        examples=["published"],
    )
    occurred: PartialDate | None = Field(
        default=None, description="When it happened.", examples=["2023-03-08", "2024"]
    )
    organizations: list[Text] = Field(
        default_factory=list,
        description="Organisations whose systems it happened in; empty when anonymous.",
        examples=[["Datadog"]],
    )
    facets: Facets = Field(
        description="Taxonomy terms, by dimension.",
        examples=[
            {
                "causes": ["config-change"],
                "components": ["cni"],
                "symptoms": ["node-network-loss"],
                "contributing_factors": ["staging-production-gap"],
            }
        ],
    )
    symptom: Text | None = Field(
        default=None,
        description="증상: what was observed.",
        examples=["학습을 시작하고 몇 시간 안에 초당 토큰 처리량이 거듭 급락했다."],
    )
    trigger: Text | None = Field(
        default=None,
        description="촉발: what set it off.",
        examples=["CNI 설정 변경이 스테이징에 없던 하드웨어 종류의 클러스터에 배포됐다."],
    )
    detection: Text | None = Field(
        default=None,
        description="감지: how it was noticed.",
        examples=["노드 지표에서 처리량 급락과 디스크 읽기 지연 급증이 겹쳐 보였다."],
    )
    actions: list[Text] | None = Field(
        default=None,
        description="조치: what was done, one item per action.",
        examples=[["데이터셋을 각 노드의 로컬 NVMe 로 옮겼다."]],
    )
    follow_ups: list[Text] | None = Field(
        default=None,
        description="후속 조치: longer-term work that followed.",
        examples=[["헬스 체크 도구를 공개했다."]],
    )
    lessons: Text | None = Field(
        default=None,
        description="교훈: what was learned.",
        examples=["작은 규모의 시험으로는 운영 규모의 동작을 예측할 수 없었다."],
    )
    sources: list[Source] = Field(
        min_length=1,
        description="Public reports, at least one.",
        examples=[
            [
                {
                    "url": "https://status.openai.com/incidents/tljwlz08w539",
                    "title": "Multiple engines are down",
                    "publisher": "OpenAI",
                    "published": None,
                    "language": "en",
                }
            ]
        ],
    )
    related: list[IncidentId] = Field(
        default_factory=list,
        description="Other incidents worth reading alongside.",
        examples=[["IL-0025"]],
    )
    not_duplicate_of: list[IncidentId] = Field(
        default_factory=list,
        description="Incidents a reviewer judged to be different events; never flagged again.",
        examples=[["IL-0129"]],
    )
    duplicate_of: IncidentId | None = Field(
        default=None,
        description="With `status: withdrawn`: the incident this one repeats.",
        examples=["IL-0198"],
    )
    withdrawn_reason: Text | None = Field(
        default=None,
        description="With `status: withdrawn`: why it was withdrawn.",
        examples=["같은 사건을 다룬 두 번째 공개 보고서라 IL-0198 로 합쳤다."],
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
        return self.facets.terms()


INCIDENT_KEYS = tuple(Incident.model_fields)


class Label(_Strict):
    """The term's name in Korean and in English."""

    ko: Text = Field(description="Korean label.", examples=["처리량 저하"])
    en: Text = Field(description="English label.", examples=["Throughput degradation"])


class Deprecation(_Strict):
    """A term that should no longer be used; it stays so that old references resolve."""

    replaced_by: TermId = Field(description="The term to use instead.")
    reason: Text = Field(
        description="Why the term was deprecated.", examples=["더 넓은 용어로 합쳤다."]
    )


class Term(_Strict):
    """One value of a taxonomy dimension."""

    id: TermId = Field(description="kebab-case, stable forever.")
    label: Label = Field(
        description="Korean and English labels.",
        examples=[{"ko": "처리량 저하", "en": "Throughput degradation"}],
    )
    description: Text = Field(
        description="What the term means (Korean).",
        examples=["학습이나 서비스의 초당 처리량이 평소보다 크게 떨어진 상태."],
    )
    aliases: list[Text] = Field(
        default_factory=list,
        description="Words and phrases, in any language, that signal the term in text.",
        examples=[["처리량", "throughput drop", "tokens per second"]],
    )
    parent: TermId | None = Field(
        default=None,
        description="A broader term of the same dimension.",
        examples=["shared-network-filesystem"],
    )
    deprecated: Deprecation | None = Field(
        default=None,
        description="Set when the term is replaced by another.",
        examples=[{"replaced_by": "shared-network-filesystem", "reason": "더 넓은 용어로 합쳤다."}],
    )


class TaxonomyFile(_Strict):
    """One dimension of the taxonomy (`schema/taxonomy/<dimension>.yaml`)."""

    dimension: Dimension = Field(
        description="Which dimension the file holds; equals the file name.",
        examples=["symptoms"],
    )
    terms: list[Term] = Field(
        description="The terms, in display order.",
        examples=[
            [
                {
                    "id": "throughput-degradation",
                    "label": {"ko": "처리량 저하", "en": "Throughput degradation"},
                    "description": "처리량이 평소보다 크게 떨어진 상태.",
                    "aliases": ["처리량", "throughput drop"],
                }
            ]
        ],
    )
