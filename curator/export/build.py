"""Each export file, from a snapshot: bytes that depend on nothing but the commit.

JSON: UTF-8 without escapes, two-space indent (graph.json: one node or edge per line), keys
in model order, LF, final newline. Every object is validated through its model in
`curator.export.model` before it is written. The per-incident files, incidents.json,
incidents.csv and graph.json are streamed, so memory follows the number of incidents, not
the size of their text.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Annotated, Any

from pydantic import BaseModel, Field, TypeAdapter

from curator.export.collect import Summary
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


def json_text(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2)


def json_bytes(model: BaseModel) -> bytes:
    return (json_text(model.model_dump(mode="json")) + "\n").encode("utf-8")


def write_incidents(
    writer: ExportWriter,
    incidents: Iterable[ExportedIncident],
    observe: Callable[[ExportedIncident], None],
) -> list[Summary]:
    """`incidents/IL-NNNN.json`, `incidents.json` and `incidents.csv` in one pass, each
    incident serialised once and then let go; `observe` sees every incident on the way.

    `incidents.json` is streamed: the same bytes as dumping the whole list at once.
    """
    summaries: list[Summary] = []
    with writer.stream("incidents.json") as aggregate, writer.stream("incidents.csv") as table:
        aggregate.write(b'{\n  "incidents": [')
        table.write(CSV_HEADER)
        for incident in incidents:
            text = json_text(incident.model_dump(mode="json"))
            writer.write(f"incidents/{incident.id}.json", (text + "\n").encode("utf-8"))
            nested = "\n".join("    " + line for line in text.split("\n"))
            aggregate.write((",\n" if summaries else "\n").encode() + nested.encode("utf-8"))
            table.write(csv_line(incident))
            observe(incident)
            summaries.append(Summary.of(incident))
        aggregate.write(b"\n  ]\n}\n" if summaries else b"]\n}\n")
    return summaries


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
    each node and edge is validated through its model, written on a line of its own, and
    let go."""
    published = [summary for summary in summaries if summary.status == "published"]
    with writer.stream("graph.json") as out:
        out.write(b'{\n  "nodes": [')
        _write_items(out, _graph_nodes(taxonomy, published), NODE)
        out.write(b',\n  "edges": [')
        _write_items(out, _graph_edges(published), EDGE)
        out.write(b"\n}\n")


NODE: TypeAdapter[IncidentNode | TermNode] = TypeAdapter(
    Annotated[IncidentNode | TermNode, Field(discriminator="kind")]
)
EDGE: TypeAdapter[FacetEdge | CooccurrenceEdge] = TypeAdapter(
    Annotated[FacetEdge | CooccurrenceEdge, Field(discriminator="kind")]
)


def _write_items(out: HashingFile, items: Iterable[dict[str, Any]], adapter: TypeAdapter) -> None:
    first = True
    for item in items:
        data = adapter.dump_python(adapter.validate_python(item), mode="json")
        line = json.dumps(data, ensure_ascii=False)
        out.write(("\n    " if first else ",\n    ").encode() + line.encode("utf-8"))
        first = False
    out.write(b"]" if first else b"\n  ]")


def _graph_nodes(taxonomy: Taxonomy, published: list[Summary]) -> Iterator[dict[str, Any]]:
    carriers = published_terms(published)
    for s in published:
        yield {"kind": "incident", "id": s.id, "title": s.title, "occurred": s.occurred}
    for dimension in DIMENSIONS:
        for term in taxonomy.terms[dimension].values():
            yield {
                "kind": "term",
                "id": term.id,
                "dimension": dimension,
                "label": term.label,
                "count": len(carriers.get(term.id, [])),
            }


def _graph_edges(published: list[Summary]) -> Iterator[dict[str, Any]]:
    pairs: Counter[tuple[str, str]] = Counter()
    for summary in published:
        for term, dimension in summary.terms:
            yield {"kind": "facet", "source": summary.id, "target": term, "dimension": dimension}
        pairs.update(itertools.combinations(sorted({term for term, _ in summary.terms}), 2))
    for (a, b), count in sorted(pairs.items()):
        yield {"kind": "co-occurrence", "source": a, "target": b, "count": count}


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
    cells = {
        "sources": csv_cell([source.url for source in incident.sources]),
        "actions": csv_cell(incident.actions, TEXT_LIST_SEPARATOR),
        "follow_ups": csv_cell(incident.follow_ups, TEXT_LIST_SEPARATOR),
        **{d: csv_cell(getattr(incident.facets, d)) for d in DIMENSIONS},
    }
    return [cells[c] if c in cells else csv_cell(getattr(incident, c)) for c in CSV_COLUMNS]


def _csv_record(cells: list[str]) -> bytes:
    buffer = io.StringIO(newline="")
    csv.writer(buffer, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL).writerow(cells)
    return buffer.getvalue().encode("utf-8")


def csv_line(incident: ExportedIncident) -> bytes:
    """One RFC 4180 record (CRLF, `"` quoting when needed)."""
    return _csv_record(csv_row(incident))


# UTF-8 with a byte-order mark, so that Excel reads the Korean text as UTF-8.
CSV_HEADER = "\ufeff".encode() + _csv_record(list(CSV_COLUMNS))
