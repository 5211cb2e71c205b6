"""graph.json: the taxonomy's terms and the published incidents as nodes, their facets and
the terms' co-occurrence as edges, each node or edge on a line of its own.

Written as the incidents come (`GraphStream`), not at the end: the nodes come first and
the incidents' first among them, so each published incident's node is written in its
turn, and its facet edges (rendered with it in a worker, `graph_lines`) are kept, encoded,
until the nodes end. Only the terms' nodes and the co-occurrence edges, which need every
incident, are left for the end. An export of 100,000 incidents has about a million edges:
written all at the end, on one CPU while the workers were idle, they took about a second.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Iterator
from typing import Annotated, Any

from pydantic import Field, TypeAdapter

from curator.export.build import Summary
from curator.export.model import (
    CooccurrenceEdge,
    ExportedIncident,
    FacetEdge,
    IncidentNode,
    TermNode,
)
from curator.export.write import ExportWriter, HashingFile
from curator.model import DIMENSIONS
from curator.signals import deferred
from curator.taxonomy import Taxonomy

# `json.dumps(item, ensure_ascii=False)`, without making an encoder for each of a million.
_LINE = json.JSONEncoder(ensure_ascii=False)
_NEXT_LINE = ",\n    "  # between two items of a list in graph.json
_FIRST, _NEXT = b"\n    ", _NEXT_LINE.encode()  # before a list's first item; between two
_BATCH = 5000  # lines per write


class GraphStream:
    """`with GraphStream(writer) as graph:` graph.json, `add`ing each published incident's
    lines in id order, then `finish`ing it once every incident has been added (which
    closes it; leaving the block without `finish` leaves it incomplete, as an export that
    fails leaves its folder, which `ExportWriter` deletes)."""

    def __init__(self, writer: ExportWriter) -> None:
        self.writer = writer
        self._nodes: list[bytes] = []  # incidents' nodes, till the next write
        self._edges: list[bytes] = []  # their facet edges, till they are joined
        self._kept: list[bytes] = []  # facet edges, joined a batch at a time, till `finish`
        self._started = False  # whether a node was written
        self._out: HashingFile | None = None
        self._stream = contextlib.ExitStack()

    def __enter__(self) -> GraphStream:
        self._out = self._stream.enter_context(self.writer.stream("graph.json"))
        self._out.write(b'{\n  "nodes": [')
        return self

    def __exit__(self, *stopped: Any) -> None:
        # What stopped the block, if anything, goes to the stream: the file is then closed
        # as it is, not finished (on a full disk, that failed in its turn, and was said in
        # the place of what stopped the export).
        self._stream.__exit__(*stopped)

    def add(self, node: bytes, edges: bytes) -> None:
        """A published incident's lines (`graph_lines`), in id order."""
        self._nodes.append(node)
        if edges:
            self._edges.append(edges)
        if len(self._nodes) == _BATCH:
            self._flush()

    def _flush(self) -> None:
        assert self._out is not None, "use GraphStream as a context manager"
        if self._nodes:
            self._started = _write_item(self._out, _NEXT.join(self._nodes), self._started)
            self._nodes = []
        if self._edges:
            self._kept.append(_NEXT.join(self._edges))
            self._edges = []

    def finish(
        self, taxonomy: Taxonomy, summaries: list[Summary], carriers: dict[str, list[str]]
    ) -> None:
        """The terms' nodes, then the edges: the incidents' facet edges, kept till now, and
        the co-occurrence edges. `summaries`: every released incident's, in id order;
        `carriers`: each term's, as `published_terms` gives them. The terms' nodes are
        validated through their model; the co-occurrence edges are formatted from values
        validated through `ExportedIncident` (see the comment on `_incident_node`)."""
        self._flush()
        out = self._out
        assert out is not None
        started = _write_lines(out, _term_nodes(taxonomy, carriers), self._started)
        out.write(b"\n  ]" if started else b"]")
        out.write(b',\n  "edges": [')
        started = False
        for joined in self._kept:
            started = _write_item(out, joined, started)
        self._kept = []
        published = [summary for summary in summaries if summary.status == "published"]
        started = _write_lines(out, _cooccurrence_edges(published), started)
        out.write(b"\n  ]\n}\n" if started else b"]\n}\n")
        self._stream.close()  # (now: the manifest lists the files closed before it)


def graph_lines(
    incident: ExportedIncident, terms: tuple[tuple[str, str], ...]
) -> tuple[bytes, bytes]:
    """A published incident's node and facet edges (joined) in graph.json, encoded, given
    its terms (`Summary.terms`); empty for an incident that is not published."""
    if incident.status != "published":
        return b"", b""
    return _incident_node(incident).encode(), _facet_edges(incident.id, terms).encode()


# An incident's lines of graph.json are formatted, not validated through `IncidentNode` and
# `FacetEdge` (which cost three quarters of making an incident's summary, when it did),
# because validating them again could refuse nothing: `graph_lines` is given an incident
# validated through `ExportedIncident` (and frozen), which asks as much of every value
# those models ask anything of, or more. Their ids (`IncidentNode.id`, `FacetEdge.source`)
# are `ReleasedId`, as `ExportedIncident.id` is; `FacetEdge.target` is a `TermId`, as each
# term of `Facets` is; `FacetEdge.dimension` is a `Dimension`, and `Summary.terms` pairs
# terms only with `DIMENSIONS`. `IncidentNode.title` is any text (the incident's is
# `Text`), and `IncidentNode.occurred` any text or null (the incident's a `PartialDate` or
# null). tests/test_export_speed_equivalence.py holds the models to this, and the lines to
# the bytes of the validating `graph_line`.
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


NODE: TypeAdapter[IncidentNode | TermNode] = TypeAdapter(
    Annotated[IncidentNode | TermNode, Field(discriminator="kind")]
)
EDGE: TypeAdapter[FacetEdge | CooccurrenceEdge] = TypeAdapter(
    Annotated[FacetEdge | CooccurrenceEdge, Field(discriminator="kind")]
)


def graph_line(item: dict[str, Any], adapter: TypeAdapter[Any]) -> str:
    """One node or edge of graph.json, validated through its model."""
    return _LINE.encode(adapter.dump_python(adapter.validate_python(item), mode="json"))


def _write_item(out: HashingFile, joined: bytes, started: bool) -> bool:
    """Items of a list in graph.json, `_NEXT`-joined, after those written (`started`)."""
    out.write(_NEXT if started else _FIRST)
    out.write(joined)
    return True


def _write_lines(out: HashingFile, lines: Iterable[str], started: bool) -> bool:
    """`_write_item` of each line, a batch at a time; whether any item is written now."""
    batch: list[str] = []
    for line in lines:
        batch.append(line)
        if len(batch) == _BATCH:
            started = _write_item(out, _NEXT_LINE.join(batch).encode(), started)
            batch = []
    if batch:
        started = _write_item(out, _NEXT_LINE.join(batch).encode(), started)
    return started


def _term_nodes(taxonomy: Taxonomy, carriers: dict[str, list[str]]) -> Iterator[str]:
    for dimension in DIMENSIONS:
        for term in taxonomy.terms[dimension].values():
            node = {
                "kind": "term",
                "id": term.id,
                "dimension": dimension,
                "label": term.label,
                "count": len(carriers.get(term.id, [])),
                "deprecated": term.deprecated,
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


# Up to this many terms carried, co-occurrences are counted in a bin for every pair of
# them: 2,048 terms make 4 million bins (32 MB), for a moment.
_COUNTED_FROM_BINS = 2048


def cooccurrence(published: list[Summary]) -> list[tuple[tuple[str, str], int]]:
    """((a, b), how many of `published` carry both terms) for every pair a < b carried
    together, sorted. Counted in numpy, not pair by pair in Python: 100,000 incidents of
    about seven terms are 2.1 million pairs, which a `Counter` took ≈0.9 s to count, alone
    on one CPU at the end of an export. Each incident's pairs are coded as one integer
    (`first * len(terms) + second`, the terms numbered in sorted order, so that codes sort
    as the pairs do), made for all incidents with as many terms at once. No Python loop runs
    per incident but the one that numbers its terms: sorting each incident's numbers in
    Python took twice as long (0.30 s against 0.13 s for 87,438 incidents)."""
    with deferred():  # (as every module loaded on use: see curator.cli)
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
    every = np.concatenate(codes)
    if width <= _COUNTED_FROM_BINS:
        # One bin a pair, counted in one pass (np.unique sorts the 2 million codes: 0.1 to
        # 0.4 s of an export's last, single-process seconds). Codes order as pairs do.
        bins = np.bincount(every, minlength=width * width)
        pairs = np.flatnonzero(bins)
        counted = bins[pairs]
    else:  # too many terms for a bin each pair (never so far: 154 in the taxonomy)
        pairs, counted = np.unique(every, return_counts=True)
    return [
        ((terms[code // width], terms[code % width]), count)
        for code, count in zip(pairs.tolist(), counted.tolist(), strict=True)
    ]
