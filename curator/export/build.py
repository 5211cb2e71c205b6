"""How each export file is written: bytes that depend on nothing but the commit.

JSON: UTF-8 without escapes, two-space indent (graph.json: one node or edge per line), keys
in model order, LF, final newline. Every object is validated through its model in
`curator.export.model` before it is written. The per-incident files, incidents.json,
incidents.csv and graph.json are streamed, so memory follows the number of incidents, not
the size of their text; each incident's own pieces are rendered by
`curator.export.released`, in worker processes.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Annotated, Any, NamedTuple

from pydantic import BaseModel, Field, TypeAdapter
from pydantic_core import to_json

from curator.export.model import (
    CooccurrenceEdge,
    ExportedDimension,
    ExportedIncident,
    ExportedTerm,
    FacetEdge,
    IncidentNode,
    TaxonomyExport,
    TermNode,
)
from curator.export.write import ExportWriter, HashingFile
from curator.model import DIMENSIONS, Label
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
    """What the aggregate files need of one released incident, kept while the rest streams;
    a published incident's lines of graph.json are rendered with it, in a worker."""

    id: str
    title: str
    status: str
    occurred: str | None
    terms: tuple[tuple[str, str], ...]  # (term, dimension), each term once
    modified: str
    node: str  # its node's line in graph.json ("" unless published)
    edges: str  # its facet edges' lines in graph.json, joined ("" unless published)

    @classmethod
    def of(cls, incident: ExportedIncident) -> Summary:
        terms = tuple(dict.fromkeys((term, dimension) for dimension, _i, term in incident.terms()))
        published = incident.status == "published"
        return cls(
            incident.id,
            incident.title,
            incident.status,
            incident.occurred,
            terms,
            incident.modified,
            _incident_node(incident) if published else "",
            _facet_edges(incident.id, terms) if published else "",
        )


def _incident_node(incident: ExportedIncident) -> str:
    node = {
        "kind": "incident",
        "id": incident.id,
        "title": incident.title,
        "occurred": incident.occurred,
    }
    return graph_line(node, NODE)


def _facet_edges(incident_id: str, terms: tuple[tuple[str, str], ...]) -> str:
    """An incident's facet edges, validated all at once. The values are ids and dimension
    names, which their patterns limit to ASCII letters, digits, `-` and `_`: nothing that
    JSON escapes, so each line is formatted directly (the bytes of `json.dumps`, which
    tests/test_export_speed_equivalence.py checks, twice as fast)."""
    edges = [
        {"kind": "facet", "source": incident_id, "target": term, "dimension": dimension}
        for term, dimension in terms
    ]
    FACET_EDGES.validate_python(edges)
    return _NEXT_LINE.join(map(_FACET_EDGE_LINE.format_map, edges))


def published_terms(summaries: list[Summary]) -> dict[str, list[str]]:
    """Term id → ids of the published incidents that carry it (ascending)."""
    carriers: dict[str, list[str]] = {}
    for summary in summaries:
        if summary.status == "published":
            for term, _dimension in summary.terms:
                carriers.setdefault(term, []).append(summary.id)
    return carriers


def taxonomy_export(taxonomy: Taxonomy, summaries: list[Summary]) -> TaxonomyExport:
    carriers = published_terms(summaries)
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
                incidents=carriers.get(term.id, []),
            )
            for term in terms.values()
        ]
        dimensions.append(
            ExportedDimension(id=dimension, label=DIMENSION_LABELS[dimension], terms=exported)
        )
    return TaxonomyExport(dimensions=dimensions)


def write_graph(writer: ExportWriter, taxonomy: Taxonomy, summaries: list[Summary]) -> None:
    """`graph.json`, streamed: an export of 100,000 incidents has about a million edges, so
    each node and edge is validated through its model and written on a line of its own (an
    incident's, by `Summary.of`; the terms' and co-occurrences', here)."""
    published = [summary for summary in summaries if summary.status == "published"]
    with writer.stream("graph.json") as out:
        out.write(b'{\n  "nodes": [')
        incident_nodes = (summary.node for summary in published)
        _write_lines(out, itertools.chain(incident_nodes, _term_nodes(taxonomy, published)))
        out.write(b',\n  "edges": [')
        facet_edges = (summary.edges for summary in published if summary.edges)
        _write_lines(out, itertools.chain(facet_edges, _cooccurrence_edges(published)))
        out.write(b"\n}\n")


NODE: TypeAdapter[IncidentNode | TermNode] = TypeAdapter(
    Annotated[IncidentNode | TermNode, Field(discriminator="kind")]
)
EDGE: TypeAdapter[FacetEdge | CooccurrenceEdge] = TypeAdapter(
    Annotated[FacetEdge | CooccurrenceEdge, Field(discriminator="kind")]
)
FACET_EDGES: TypeAdapter[list[FacetEdge]] = TypeAdapter(list[FacetEdge])
_FACET_EDGE_LINE = (
    '{{"kind": "{kind}", "source": "{source}", "target": "{target}", "dimension": "{dimension}"}}'
)


# `json.dumps(item, ensure_ascii=False)`, without making an encoder for each of a million.
_LINE = json.JSONEncoder(ensure_ascii=False)
_NEXT_LINE = ",\n    "  # between two items of a list in graph.json
_BATCH = 5000  # lines per write


def graph_line(item: dict[str, Any], adapter: TypeAdapter[Any]) -> str:
    """One node or edge of graph.json, validated through its model."""
    return _LINE.encode(adapter.dump_python(adapter.validate_python(item), mode="json"))


def _write_lines(out: HashingFile, lines: Iterable[str]) -> None:
    """The items of a list in graph.json, each on a line of its own, and the list's end."""
    batch: list[str] = []
    written = False
    for line in lines:
        batch.append(line)
        if len(batch) == _BATCH:
            written = _write_batch(out, batch, written)
            batch = []
    written = _write_batch(out, batch, written)
    out.write(b"\n  ]" if written else b"]")


def _write_batch(out: HashingFile, batch: list[str], written: bool) -> bool:
    if batch:
        start = _NEXT_LINE if written else "\n    "
        out.write((start + _NEXT_LINE.join(batch)).encode("utf-8"))
    return written or bool(batch)


def _term_nodes(taxonomy: Taxonomy, published: list[Summary]) -> Iterator[str]:
    carriers = published_terms(published)
    for dimension in DIMENSIONS:
        for term in taxonomy.terms[dimension].values():
            node = {
                "kind": "term",
                "id": term.id,
                "dimension": dimension,
                "label": term.label,
                "count": len(carriers.get(term.id, [])),
            }
            yield graph_line(node, NODE)


def _cooccurrence_edges(published: list[Summary]) -> Iterator[str]:
    pairs: Counter[tuple[str, str]] = Counter()
    for summary in published:
        pairs.update(itertools.combinations(sorted({term for term, _ in summary.terms}), 2))
    for (a, b), count in sorted(pairs.items()):
        edge = {"kind": "co-occurrence", "source": a, "target": b, "count": count}
        yield graph_line(edge, EDGE)


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


def csv_cell(value: Any, separator: str = LIST_SEPARATOR) -> str:
    if value is None:
        return ""
    text = separator.join(value) if isinstance(value, list) else str(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def csv_row(incident: ExportedIncident) -> list[str]:
    cells: dict[str, str] = {
        "sources": csv_cell([source.url for source in incident.sources]),
        "actions": csv_cell(incident.actions, TEXT_LIST_SEPARATOR),
        "follow_ups": csv_cell(incident.follow_ups, TEXT_LIST_SEPARATOR),
        **{d: csv_cell(getattr(incident.facets, d)) for d in DIMENSIONS},
    }
    return [cells[c] if c in cells else csv_cell(getattr(incident, c)) for c in CSV_COLUMNS]


def csv_field(cell: str) -> str:
    """A field as RFC 4180 writes it: quoted, its quotes doubled, if it holds a comma, a
    quote or a line break. (What `csv.writer` writes with QUOTE_MINIMAL and CRLF, three
    times faster, tests/test_export_speed_equivalence.py checks; and the same in every
    version of Python.)"""
    if '"' in cell:
        return '"' + cell.replace('"', '""') + '"'
    if "," in cell or "\n" in cell or "\r" in cell:
        return '"' + cell + '"'
    return cell


def _csv_record(cells: list[str]) -> bytes:
    return (",".join(map(csv_field, cells)) + "\r\n").encode("utf-8")


def csv_line(incident: ExportedIncident) -> bytes:
    """One RFC 4180 record (CRLF, `"` quoting when needed)."""
    return _csv_record(csv_row(incident))


# UTF-8 with a byte-order mark, so that Excel reads the Korean text as UTF-8.
CSV_HEADER = "\ufeff".encode() + _csv_record(list(CSV_COLUMNS))
