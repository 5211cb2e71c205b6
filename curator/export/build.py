"""How each export file is written: bytes that depend on nothing but the commit.

JSON: UTF-8 without escapes, two-space indent (graph.json: one node or edge per line), keys
in model order, LF, final newline. Every object is validated through its model in
`curator.export.model` before it is written (an incident's node and facet edges, through
`ExportedIncident`, which asks as much of their values: see `_incident_node`). The
per-incident files, incidents.json, incidents.csv and graph.json are streamed, so memory
follows the number of incidents, not the size of their text; each incident's own pieces
are rendered by `curator.export.released`, in worker processes.
"""

from __future__ import annotations

import itertools
import json
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
        """Of an incident validated through `ExportedIncident` (what lets its lines of
        graph.json be formatted without validating them again: see `_incident_node`)."""
        terms = _terms(incident.facets)
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


def _terms(facets: Facets) -> tuple[tuple[str, str], ...]:
    """(term, dimension) of each term, each once, in dimension order: `Incident.terms`
    without its positions, and without a tuple of three made for each term."""
    by_dimension = [zip(getattr(facets, d), itertools.repeat(d)) for d in DIMENSIONS]
    return tuple(dict.fromkeys(itertools.chain.from_iterable(by_dimension)))


# An incident's lines of graph.json are formatted, not validated through `IncidentNode` and
# `FacetEdge` (which cost three quarters of `Summary.of`), because validating them again
# could refuse nothing: `Summary.of` is given an incident validated through
# `ExportedIncident` (and frozen), which asks as much of every value those models ask
# anything of, or more. Their ids (`IncidentNode.id`, `FacetEdge.source`) are `ReleasedId`,
# as `ExportedIncident.id` is; `FacetEdge.target` is a `TermId`, as each term of `Facets`
# is; `FacetEdge.dimension` is a `Dimension`, and `_terms` pairs terms only with
# `DIMENSIONS`. `IncidentNode.title` is any text (the incident's is `Text`), and
# `IncidentNode.occurred` any text or null (the incident's a `PartialDate` or null).
# tests/test_export_speed_equivalence.py holds the models to this, and the lines to the
# bytes of the validating `graph_line`.
def _incident_node(incident: ExportedIncident) -> str:
    """The incident's node. Its id and date are ASCII letters, digits and `-` (their
    patterns), which JSON never escapes; its title is escaped as `json.dumps` escapes it."""
    occurred = "null" if incident.occurred is None else f'"{incident.occurred}"'
    return (
        f'{{"kind": "incident", "id": "{incident.id}", "title": {_LINE.encode(incident.title)}'
        f', "occurred": {occurred}}}'
    )


def _facet_edges(incident_id: str, terms: tuple[tuple[str, str], ...]) -> str:
    """An incident's facet edges, joined. The values are ids (ASCII letters, digits and `-`,
    by their patterns) and dimension names (`DIMENSIONS`): nothing that JSON escapes."""
    start = f'{{"kind": "facet", "source": "{incident_id}", "target": "'
    lines = [f'{start}{term}", "dimension": "{dimension}"}}' for term, dimension in terms]
    return _NEXT_LINE.join(lines)


def published_terms(summaries: list[Summary]) -> dict[str, list[str]]:
    """Term id → ids of the published incidents that carry it (ascending)."""
    carriers: dict[str, list[str]] = {}
    for summary in summaries:
        if summary.status == "published":
            for term, _dimension in summary.terms:
                carriers.setdefault(term, []).append(summary.id)
    return carriers


def taxonomy_export(taxonomy: Taxonomy, carriers: dict[str, list[str]]) -> TaxonomyExport:
    """taxonomy.json, given each term's carriers (`published_terms`)."""
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


def write_graph(
    writer: ExportWriter,
    taxonomy: Taxonomy,
    summaries: list[Summary],
    carriers: dict[str, list[str]],
) -> None:
    """`graph.json`, streamed: an export of 100,000 incidents has about a million edges,
    each written on a line of its own. An incident's node and facet edges were formatted by
    `Summary.of` and the co-occurrence edges are formatted here, from values validated
    through `ExportedIncident` (see above `_incident_node`); the terms' nodes are validated
    through their model. `carriers`: each term's, as `published_terms` gives them."""
    published = [summary for summary in summaries if summary.status == "published"]
    with writer.stream("graph.json") as out:
        out.write(b'{\n  "nodes": [')
        incident_nodes = (summary.node for summary in published)
        _write_lines(out, itertools.chain(incident_nodes, _term_nodes(taxonomy, carriers)))
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


def _term_nodes(taxonomy: Taxonomy, carriers: dict[str, list[str]]) -> Iterator[str]:
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
    """The co-occurrence edges, by (source, target). Formatted, not validated through
    `CooccurrenceEdge`, for the reasons given above `_incident_node`: both ends are terms
    of incidents validated through `ExportedIncident` (`TermId`s: ASCII letters, digits and
    `-`, nothing JSON escapes) and each count is at least 1."""
    for (source, target), count in cooccurrence(published):
        yield (
            f'{{"kind": "co-occurrence", "source": "{source}", "target": "{target}", '
            f'"count": {count}}}'
        )


def cooccurrence(published: list[Summary]) -> list[tuple[tuple[str, str], int]]:
    """((a, b), how many of `published` carry both terms) for every pair a < b carried
    together, sorted. Counted in numpy, not pair by pair in Python: 100,000 incidents of
    about seven terms are 2.1 million pairs, which a `Counter` took ≈0.9 s to count, alone
    on one CPU at the end of an export. Each incident's pairs are coded as one integer
    (`first * len(terms) + second`, the terms numbered in sorted order, so that codes sort
    as the pairs do), made for all incidents with as many terms at once. No Python loop runs
    per incident but the one that numbers its terms: sorting each incident's numbers in
    Python took twice as long (0.30 s against 0.13 s for 87,438 incidents)."""
    import numpy as np  # (here, not at the top: 40 ms to import, for this alone)

    terms = sorted({term for summary in published for term, _ in summary.terms})
    number = {term: index for index, term in enumerate(terms)}
    width = len(terms)
    numbers = [number[term] for summary in published for term, _ in summary.terms]
    sizes = [len(summary.terms) for summary in published]
    owner = np.repeat(np.arange(len(published), dtype=np.int64), sizes)
    # Each incident's terms once (a term may be listed twice), ascending: sorted by
    # (incident, term), coded as one integer. (Sorted and compared, not `np.unique`,
    # which without `return_counts` takes a path 100 times slower in numpy 2.4.)
    carried = np.sort(owner * width + np.array(numbers, dtype=np.int64))
    first = np.ones(len(carried), dtype=bool)
    first[1:] = carried[1:] != carried[:-1]
    carried = carried[first]
    owner, numbered = np.divmod(carried, width)  # (width 0: no term, nothing carried)
    counts = np.bincount(owner, minlength=len(published))
    starts = np.cumsum(counts) - counts
    codes = [np.zeros(0, dtype=np.int64)]
    for size in sorted(set(counts[counts > 1].tolist())):
        firsts = starts[counts == size]
        rows = numbered[firsts[:, np.newaxis] + np.arange(size)]  # one incident a row
        lower, upper = np.triu_indices(size, 1)
        codes.append((rows[:, lower] * width + rows[:, upper]).ravel())
    pairs, counted = np.unique(np.concatenate(codes), return_counts=True)
    return [
        ((terms[code // width], terms[code % width]), count)
        for code, count in zip(pairs.tolist(), counted.tolist(), strict=True)
    ]


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
