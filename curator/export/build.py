"""How each export file is written: bytes that depend on nothing but the commit.

JSON: UTF-8 without escapes, two-space indent (graph.json: one node or edge per line, see
`curator.export.graph`), keys in model order, LF, final newline. Every object is validated
through its model in `curator.export.model` before it is written, or made of values that
were (where validating them again could refuse nothing and costs time at 100,000
incidents: each such place says why). The per-incident files, incidents.json,
incidents.csv and graph.json are streamed, so memory follows the number of incidents, not
the size of their text; each incident's own pieces are rendered by
`curator.export.released`, in worker processes.
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

from pydantic import BaseModel
from pydantic_core import to_json

from curator.export.model import ExportedDimension, ExportedIncident, ExportedTerm, TaxonomyExport
from curator.model import DIMENSIONS, Facets, Label
from curator.taxonomy import Taxonomy

DIMENSION_LABELS = {
    "causes": Label(ko="원인", en="Causes"),
    "components": Label(ko="구성 요소", en="Components"),
    "symptoms": Label(ko="증상", en="Symptoms"),
    "contributing_factors": Label(ko="기여 요인", en="Contributing factors"),
}


def model_json(model: BaseModel) -> bytes:
    """`json.dumps(model.model_dump(mode="json"), ensure_ascii=False, indent=2).encode()`,
    byte for byte, five times faster (pydantic's serialiser, in Rust, without the dicts in
    between; tests/test_export_speed_equivalence.py holds them to the same bytes). For the
    export's values: text, integers, booleans, null, lists, objects (no floats)."""
    return to_json(model, indent=2)


def json_bytes(model: BaseModel) -> bytes:
    return model_json(model) + b"\n"


class Summary(NamedTuple):
    """What the aggregate files need of one released incident, kept while the rest streams."""

    id: str
    title: str
    status: str
    occurred: str | None
    terms: tuple[tuple[str, str], ...]  # (term, dimension), each term once
    modified: str

    @classmethod
    def of(cls, incident: ExportedIncident) -> Summary:
        """Of an incident validated through `ExportedIncident`, which lets changes.json
        take its values without validating them again (`curator.export.changes._change`)."""
        return cls(
            incident.id,
            incident.title,
            incident.status,
            incident.occurred,
            _terms(incident.facets),
            incident.modified,
        )


def _terms(facets: Facets) -> tuple[tuple[str, str], ...]:
    """(term, dimension) of each term, each once, in dimension order: `Incident.terms`
    without its positions, and without a tuple of three made for each term."""
    by_dimension = [zip(getattr(facets, d), itertools.repeat(d)) for d in DIMENSIONS]
    return tuple(dict.fromkeys(itertools.chain.from_iterable(by_dimension)))


def published_terms(summaries: list[Summary]) -> dict[str, list[str]]:
    """Term id → ids of the published incidents that carry it (ascending)."""
    carriers: dict[str, list[str]] = {}
    for summary in summaries:
        if summary.status == "published":
            for term, _dimension in summary.terms:
                carriers.setdefault(term, []).append(summary.id)
    return carriers


def taxonomy_export(taxonomy: Taxonomy, carriers: dict[str, list[str]]) -> TaxonomyExport:
    """taxonomy.json, given each term's carriers (`published_terms`). Each term is
    validated with no carriers, which are then set as they are: they are ids of incidents
    validated through `ExportedIncident` (`Summary.of`), whose `id` is a `ReleasedId`, as
    `ExportedTerm.incidents` asks. (Validating the 616,000 ids of 100,000 incidents again
    cost 0.2 s, alone at the end of an export.)"""
    dimensions = []
    for dimension in DIMENSIONS:
        terms = taxonomy.terms[dimension]
        children: dict[str, list[str]] = {}
        for term in terms.values():
            if term.parent:
                children.setdefault(term.parent, []).append(term.id)
        exported = [
            ExportedTerm(
                id=term.id,
                label=term.label,
                description=term.description,
                aliases=term.aliases,
                parent=term.parent,
                children=children.get(term.id, []),
                deprecated=term.deprecated,
                count=len(carriers.get(term.id, [])),
                incidents=[],
            ).model_copy(update={"incidents": carriers.get(term.id, [])})
            for term in terms.values()
        ]
        dimensions.append(
            ExportedDimension(id=dimension, label=DIMENSION_LABELS[dimension], terms=exported)
        )
    return TaxonomyExport(dimensions=dimensions)


# Spreadsheet columns, in incident field order; list cells are joined as documented.
CSV_COLUMNS = (
    "id", "title", "status", "occurred", "organizations", *DIMENSIONS,
    "symptom", "trigger", "detection", "actions", "follow_ups", "lessons", "sources",
    "related", "not_duplicate_of", "duplicate_of", "withdrawn_reason", "added", "modified",
)  # fmt: skip
LIST_SEPARATOR = ";"
TEXT_LIST_SEPARATOR = "\n"  # actions and follow-ups are sentences, which may hold `;`
# A cell starting with one of these is a formula to a spreadsheet (OWASP "CSV injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_line(incident: ExportedIncident) -> bytes:
    """One RFC 4180 record (CRLF, `"` quoting when needed), in `CSV_COLUMNS` order:
    tests/test_export_speed_equivalence.py holds it to what `csv.writer` writes of each
    column's cell.

    Free text goes through `_text_field`. The other cells are an id, a status, dates, term
    ids and timestamps, which `ExportedIncident` (what `incident` was validated through;
    frozen) holds to a fixed set of words or to patterns of ASCII letters, digits, `-` and
    `:`; joined by `;`, they hold nothing to quote and never start a formula. So they are
    formatted as they are, a run of them at a time: a call per cell cost more than the rest
    of the record."""
    facets, join = incident.facets, LIST_SEPARATOR.join
    return b",".join([
        incident.id.encode(),
        _text_field(incident.title),
        f"{incident.status},{incident.occurred or ''}".encode(),
        _text_field(join(incident.organizations)),
        f"{join(facets.causes)},{join(facets.components)},{join(facets.symptoms)},"
        f"{join(facets.contributing_factors)}".encode(),
        _text_field(incident.symptom or ""),
        _text_field(incident.trigger or ""),
        _text_field(incident.detection or ""),
        _text_field(TEXT_LIST_SEPARATOR.join(incident.actions or ())),
        _text_field(TEXT_LIST_SEPARATOR.join(incident.follow_ups or ())),
        _text_field(incident.lessons or ""),
        _text_field(join([source.url for source in incident.sources])),
        f"{join(incident.related)},{join(incident.not_duplicate_of)},"
        f"{incident.duplicate_of or ''}".encode(),
        _text_field(incident.withdrawn_reason or ""),
        f"{incident.added},{incident.modified}\r\n".encode(),
    ])  # fmt: skip


def _text_field(text: str) -> bytes:
    """A cell of free text as a field: `'` before a formula, then quoted, its quotes
    doubled, if it holds a comma, a quote or a line break (what `csv.writer` writes with
    QUOTE_MINIMAL, and the same in every version of Python).

    Encoded field by field, not as one record: validating a text against its pattern left
    its UTF-8 in the string, so `encode` is a copy, ten times cheaper than encoding afresh.
    Then looked into as bytes, where `in` finds a byte with memchr (faster than in Korean
    text), and where no ASCII byte occurs inside the encoding of another character."""
    if text.startswith(_FORMULA_START):
        text = "'" + text
    data = text.encode()
    if _COMMA in data or _LINE_FEED in data or _QUOTE in data or _CARRIAGE_RETURN in data:
        return b'"' + data.replace(b'"', b'""') + b'"'
    return data


# As numbers: bytes' `in` looks for a number directly, but for a one-byte bytes only after
# raising and clearing a TypeError (CPython 3.11), which makes it six times slower.
_COMMA, _LINE_FEED, _QUOTE, _CARRIAGE_RETURN = b',\n"\r'


# UTF-8 with a byte-order mark, so that Excel reads the Korean text as UTF-8. The column
# names are snake_case: nothing to quote.
CSV_HEADER = "\ufeff".encode() + ",".join(CSV_COLUMNS).encode() + b"\r\n"
