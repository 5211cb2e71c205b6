"""What makes `curator export` fast changes no byte of it: worker processes, the cache of
parsed incidents (`.curator-cache/`, keyed by git blob id) and the faster JSON writer."""

from __future__ import annotations

import csv
import functools
import hashlib
import importlib
import io
import itertools
import json
import os
import shutil
import subprocess
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated
from unittest import mock

import pytest
from conftest import run_curator
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field, TypeAdapter, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import to_json
from synthetic import synthetic_library

import curator.export.graph as graph
import curator.export.released as released
import curator.export.released_cache as released_cache
import curator.lint
from curator.cache import LineStore
from curator.export import ExportError, ExportOptions, export
from curator.export.build import CSV_COLUMNS, CSV_HEADER, Summary, _text_field, csv_line, model_json
from curator.export.collect import (
    STRICTER,
    compact,
    exported_incident,
    released_data,
)
from curator.export.graph import (
    EDGE,
    NODE,
    _cooccurrence_edges,
    _facet_edges,
    cooccurrence,
    graph_line,
    graph_lines,
)
from curator.export.model import ExportedIncident, FacetEdge, IncidentNode, TaxonomyExport
from curator.export.write import write_file
from curator.library import Library
from curator.lint import validate
from curator.load import load_bytes
from curator.model import (
    DIMENSIONS,
    LANGUAGE_PATTERN,
    NUMBERED_ID_PATTERN,
    TERM_ID_PATTERN,
    Dimension,
    Facets,
    Incident,
    IncidentId,
    PartialDate,
    Source,
    TermId,
    Text,
    text_problem,
)
from curator.workers import Workers
from incidents import incident

# The module, which `curator.export.collect` is not: the package names its function so.
collecting = importlib.import_module("curator.export.collect")
GIT = ["git", "-c", "user.name=Test", "-c", "user.email=test@example.invalid"]


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        [*GIT, *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout.strip()


def files_of(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.fixture
def library(tmp_path: Path) -> Library:
    """A generated library of 40 incidents (published and drafts), one more published and
    one withdrawn, committed to git; the cache folder is ignored, as in a real library."""
    root, _ = synthetic_library(tmp_path / "lib", count=40, seed=5, defects_per_rule=0)
    incidents = root / "incidents"
    (incidents / "IL-0901.yaml").write_text(incident("IL-0901"), encoding="utf-8")
    (incidents / "IL-0902.yaml").write_text(
        incident("IL-0902", ("status: published", "status: withdrawn"))
        + "duplicate_of: IL-0901\nwithdrawn_reason: |\n  IL-0901 과 같은 사건.\n",
        encoding="utf-8",
    )
    (root / ".gitignore").write_text(".curator-cache/\n", encoding="utf-8")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "library")
    return Library.at(root)


def not_drafts(library: Library) -> int:
    """How many of its incidents an export writes: all but drafts. (Counted, not written
    down: the generated library follows the taxonomy's aliases, so it changes with them.)"""
    return sum(b"\nstatus: draft\n" not in p.read_bytes() for p in library.incident_paths())


def exported(library: Library, out: Path, **options: object) -> dict[str, bytes]:
    export(library, out, ExportOptions(version="v1.0.0", **options), cwd=library.root)
    return files_of(out)


def test_parallel_serial_cached_and_uncached_exports_are_the_same_bytes(library, tmp_path):
    plain = exported(library, tmp_path / "plain", cache=False, jobs=1)
    assert '"status": "withdrawn"' in plain["incidents/IL-0902.json"].decode()
    assert len([p for p in plain if p.startswith("incidents/")]) == not_drafts(library)
    cold = exported(library, tmp_path / "cold", jobs=2)  # fills the cache, in two workers
    warm = exported(library, tmp_path / "warm", jobs=2)
    warm_serial = exported(library, tmp_path / "warm-serial", jobs=1)
    assert plain == cold == warm == warm_serial


def test_an_export_parses_each_file_once_and_a_warm_one_only_what_changed(
    library, tmp_path, monkeypatch
):
    parsed: list[bytes] = []
    real_load = released.load_bytes

    def counting_load(raw: bytes):
        parsed.append(raw)
        return real_load(raw)

    # Lint parses what its cache does not hold, and hands the export the released data.
    monkeypatch.setattr(curator.lint, "load_bytes", counting_load)
    monkeypatch.setattr(released, "load_bytes", counting_load)
    exported(library, tmp_path / "first", jobs=1)
    every_file = sorted(path.read_bytes() for path in library.incident_paths())
    assert sorted(parsed) == every_file  # each file once, drafts too: lint reads them all
    parsed.clear()
    again = exported(library, tmp_path / "again", jobs=1)
    assert parsed == []  # every incident came from the caches
    assert again == files_of(tmp_path / "first")

    path = library.incident_path("IL-0901")
    path.write_text(incident("IL-0901", ("occurred: 2024-05", "occurred: 2023-11")), "utf-8")
    git(library.root, "commit", "-q", "-am", "IL-0901: the date")
    changed = exported(library, tmp_path / "changed", jobs=1)
    assert parsed == [path.read_bytes()]  # only the changed file, and only once
    assert json.loads(changed["incidents/IL-0901.json"])["occurred"] == "2023-11"
    monkeypatch.setattr(curator.lint, "load_bytes", real_load)
    monkeypatch.setattr(released, "load_bytes", real_load)
    assert changed == exported(library, tmp_path / "fresh", cache=False, jobs=1)


def test_what_the_export_itself_parses_is_kept_for_the_next_one(library, tmp_path, monkeypatch):
    # With lint's cache warm and the export's cold (deleted, or a new version of curator's
    # export code), the export parses every file itself: what it parsed must be kept, or
    # every later export parses the whole library again.
    first = exported(library, tmp_path / "first", jobs=1)
    for store in (library.root / ".curator-cache").glob("export-*"):
        shutil.rmtree(store)
    parsed: list[bytes] = []
    real_load = released.load_bytes

    def counting_load(raw: bytes):
        parsed.append(raw)
        return real_load(raw)

    monkeypatch.setattr(released, "load_bytes", counting_load)
    assert exported(library, tmp_path / "cold", jobs=1) == first
    assert sorted(parsed) == sorted(path.read_bytes() for path in library.incident_paths())
    parsed.clear()
    assert exported(library, tmp_path / "warm", jobs=1) == first
    assert parsed == []


def test_data_parsed_from_filtered_bytes_describes_those_bytes_alone(
    library, tmp_path, monkeypatch
):
    # A git filter makes the checkout differ from the blob: what the export parses from it
    # is kept under those bytes' digest, and never taken for the committed bytes' data.
    # (The export refuses such a file, `refuse_converted`; set aside, for the cache's sake.)
    truth = exported(library, tmp_path / "truth", jobs=1)
    path = library.incident_path("IL-0901")
    committed = path.read_text(encoding="utf-8")
    git(library.root, "config", "filter.year.clean", "sed s/occurred:.2023-11/occurred:\\ 2024-05/")
    git(library.root, "config", "filter.year.smudge", "cat")
    (library.root / ".git" / "info" / "attributes").write_text("IL-0901.yaml filter=year\n")
    path.write_text(committed.replace("occurred: 2024-05", "occurred: 2023-11"), "utf-8")
    for store in (library.root / ".curator-cache").glob("export-*"):
        shutil.rmtree(store)  # so that the export parses the file itself
    with pytest.raises(ExportError, match=r"\(incidents/IL-0901\.yaml \(filter=year\)\)"):
        exported(library, tmp_path / "refused", jobs=1)
    monkeypatch.setattr(collecting, "refuse_converted", lambda *args: None)
    filtered = exported(library, tmp_path / "filtered", jobs=1)
    assert json.loads(filtered["incidents/IL-0901.json"])["occurred"] == "2023-11"
    assert exported(library, tmp_path / "filtered-warm", jobs=1) == filtered
    (library.root / ".git" / "info" / "attributes").unlink()
    path.write_text(committed, encoding="utf-8")
    assert exported(library, tmp_path / "again", jobs=1) == truth


def test_a_file_a_git_filter_changes_is_exported_as_checked_out_when_warm(
    library, tmp_path, monkeypatch
):
    # `ident` writes `$Id: <blob id> $` into the checkout where the blob holds `$Id$`. The
    # export kept released data by blob id, from bytes equal to the blob: a file checked
    # out again after such an export was exported with the committed bytes' data (`$Id$`)
    # once lint's result for the new bytes was kept, where a cold export gave its own.
    # (The export refuses such a file, `refuse_converted`; set aside, for the cache's sake.)
    path = library.incident_path("IL-0901")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("떨어졌다.\n", "떨어졌다. $Id$\n", 1), encoding="utf-8")
    (library.root / ".gitattributes").write_text("incidents/*.yaml ident\n", encoding="utf-8")
    git(library.root, "add", "-A")
    git(library.root, "commit", "-q", "-m", "ident")
    exported(library, tmp_path / "committed", jobs=1)  # the file holds the blob's bytes
    path.unlink()
    git(library.root, "checkout", "--", "incidents/IL-0901.yaml")
    assert "$Id: " in path.read_text(encoding="utf-8")
    with pytest.raises(ExportError, match=r"\(incidents/IL-0901\.yaml \(ident\)\)"):
        exported(library, tmp_path / "refused", jobs=1)
    monkeypatch.setattr(collecting, "refuse_converted", lambda *args: None)
    plain = exported(library, tmp_path / "plain", cache=False, jobs=1)
    assert "$Id: " in plain["incidents/IL-0901.json"].decode()
    assert exported(library, tmp_path / "cold", jobs=1) == plain  # lint parses the new bytes
    assert exported(library, tmp_path / "warm", jobs=1) == plain  # lint's result kept


def store_keys(library: Library, *ids: str) -> list[str]:
    return [hashlib.sha256(library.incident_path(i).read_bytes()).hexdigest() for i in ids]


def test_a_cache_entry_that_curator_did_not_write_is_ignored(library, tmp_path, monkeypatch):
    truth = exported(library, tmp_path / "truth", cache=False, jobs=1)
    exported(library, tmp_path / "warm", jobs=1)  # lint's cache warm: the export reads its own
    store = LineStore.open(library.root, "export", released_cache.context())
    foreign, other = store_keys(library, "IL-0901", "IL-0902")
    store.put(foreign, b"not json")
    store.put(other, json.dumps({"status": "published"}).encode())  # JSON, not an incident
    store.save()
    parsed: list[bytes] = []
    real_load = released.load_bytes
    monkeypatch.setattr(released, "load_bytes", lambda raw: parsed.append(raw) or real_load(raw))
    assert exported(library, tmp_path / "after", jobs=1) == truth
    paths = [library.incident_path(i).read_bytes() for i in ("IL-0901", "IL-0902")]
    assert parsed == paths  # refused, and read from the files instead


def test_in_parallel_each_incident_is_compared_with_its_own_earlier_data(library, tmp_path):
    # A worker does not send back the released data it was sent; the main process pairs
    # each rendered incident with the text it handed out. Paired with another incident's
    # text, the change log would list the wrong fields, or none.
    git(library.root, "tag", "v1.0.0")
    retitled = []
    for path in library.incident_paths():
        text = path.read_text(encoding="utf-8")
        if "\nstatus: draft\n" not in text:
            title = next(line for line in text.splitlines() if line.startswith("title: "))
            path.write_text(text.replace(title, title + " (고침)", 1), encoding="utf-8")
            retitled.append(path.stem)
    git(library.root, "commit", "-q", "-am", "every title")
    assert len(retitled) > 2
    export(library, tmp_path / "out", ExportOptions(version="v1.1.0", jobs=2), cwd=library.root)
    changes = json.loads((tmp_path / "out" / "changes.json").read_bytes())["changes"]
    assert sorted((c["id"], c["change"], c["fields"]) for c in changes) == sorted(
        (incident_id, "modified", ["title"]) for incident_id in retitled
    )


def test_the_released_cache_is_written_on_a_thread_which_is_waited_for(library, monkeypatch):
    cache = released_cache.ReleasedCache(library, enabled=True)
    blob, text = "1" * 40, '{"title":"한국어"}'.encode()
    cache.keep(blob, text)
    writing, finish = threading.Event(), threading.Event()
    real_update = LineStore.update

    def slow_update(store: LineStore, entries, keep) -> None:
        writing.set()
        assert finish.wait(10)
        real_update(store, entries, keep)

    monkeypatch.setattr(LineStore, "update", slow_update)
    cache.save_meanwhile({blob})  # returns while the write is under way
    assert writing.wait(10)
    assert cache.lookup([blob]) == {}
    finish.set()
    cache.wait()
    assert cache.lookup([blob]) == {blob: text}  # kept as text, given back as its bytes
    kept = LineStore.open(library.root, "export", released_cache.context()).get(blob)
    assert kept == '{"title":"한국어"}'.encode()

    def failing_update(store: LineStore, entries, keep) -> None:
        raise RuntimeError("a bug in the store")

    monkeypatch.setattr(LineStore, "update", failing_update)
    cache.keep(blob, text)
    cache.save_meanwhile({blob})
    with pytest.raises(RuntimeError, match="a bug in the store"):
        cache.wait()  # an error on the thread is not lost


def test_the_cli_export_uses_and_fills_the_cache_unless_told_not_to(library, tmp_path):
    root = library.root
    assert run_curator("export", "--root", str(root), "--out", str(tmp_path / "a")).code == 0
    stores = sorted(p.name.split("-")[0] for p in (root / ".curator-cache").iterdir())
    assert "export" in stores and "lint" in stores
    uncached = tmp_path / "b"
    run = run_curator("export", "--root", str(root), "--out", str(uncached), "--no-cache")
    assert run.code == 0
    assert files_of(tmp_path / "a") == files_of(uncached)


# The JSON writer ---------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=30,
)


@settings(max_examples=500, deadline=None)
@given(JSON_VALUES)
def test_pydantics_serialiser_writes_what_json_dumps_writes(value):
    # What model_json relies on, for any value an export holds.
    expected = json.dumps(value, ensure_ascii=False, indent=2).encode("utf-8")
    assert to_json(value, indent=2) == expected


def test_pydantics_serialiser_escapes_exactly_the_characters_json_dumps_escapes():
    every = "".join(map(chr, range(0x250))) + "\u2028\u2029\ufeff한글😀\U0010ffff"
    value = {every: [every, {"": every}], "빈 목록": [], "빈 객체": {}}
    assert to_json(value, indent=2) == json.dumps(value, ensure_ascii=False, indent=2).encode()


@settings(max_examples=500, deadline=None)
@given(JSON_VALUES)
def test_compact_writes_what_json_dumps_writes_without_spaces(value):
    expected = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    assert compact(value) == expected.encode("utf-8")


def test_an_incident_is_written_as_json_dumps_writes_its_dump(library):
    written = 0
    for path in library.incident_paths():
        incident, _ = validate(load_bytes(path.read_bytes()))
        assert incident is not None
        data = released_data(incident)
        if data["status"] == "draft":
            continue
        when = {"added": "2024-01-02T03:04:05Z", "modified": "2025-06-07T08:09:10Z"}
        exported = ExportedIncident.model_validate({**data, **when})
        expected = json.dumps(exported.model_dump(mode="json"), ensure_ascii=False, indent=2)
        assert model_json(exported) == expected.encode("utf-8")
        written += 1
    assert written == not_drafts(library) > 30


TERMS = st.tuples(st.from_regex(TERM_ID_PATTERN, fullmatch=True), st.sampled_from(DIMENSIONS))


@settings(max_examples=300, deadline=None)
@given(st.from_regex(NUMBERED_ID_PATTERN, fullmatch=True), st.lists(TERMS, max_size=5))
def test_facet_edges_are_the_lines_json_dumps_writes(incident_id, terms):
    edges = (
        {"kind": "facet", "source": incident_id, "target": term, "dimension": dimension}
        for term, dimension in terms
    )
    expected = ",\n    ".join(json.dumps(edge, ensure_ascii=False) for edge in edges)
    assert _facet_edges(incident_id, tuple(terms)) == expected


# Each incident's pieces, rendered directly, against the references that validate ---------

# A cell starting with one of these is a formula to a spreadsheet (OWASP "CSV injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
AWKWARD = st.sampled_from("\",;\r\n\t '=+-@\\a한") | st.characters(blacklist_categories=("Cs",))
TEXTS = st.text(AWKWARD, min_size=1, max_size=12).filter(lambda text: text_problem(text) is None)
# (Ids drawn from a few: `from_regex` costs most of a run, and they are the same to the render.)
RELEASED_IDS = st.sampled_from(["IL-0001", "IL-0137", "IL-123456"])
TERM_IDS = st.sampled_from(["nccl", "capacity-limit", "a", "0-9z"])
WHEN = {"added": "2024-01-02T03:04:05Z", "modified": "2025-06-07T08:09:10Z"}


@functools.cache
def _base_incident() -> dict[str, object]:
    incident_, _ = validate(load_bytes(incident("IL-0901").encode()))
    assert incident_ is not None
    return {**released_data(incident_), **WHEN}


def base_incident() -> dict[str, object]:
    return dict(_base_incident())


@st.composite
def exported_incidents(draw: st.DrawFn) -> ExportedIncident:
    """An incident whose every text is awkward: quotes, commas, line breaks, formulas."""
    texts, optional = st.lists(TEXTS, max_size=3), st.none() | TEXTS
    terms = st.lists(TERM_IDS, min_size=1, max_size=4)  # (repeats too: the graph has them once)
    facets = {dimension: draw(terms) for dimension in DIMENSIONS}
    facets["contributing_factors"] = draw(st.lists(TERM_IDS, max_size=2))
    urls = draw(st.lists(st.text(), min_size=1, max_size=3))  # any text, to the model
    data = {
        **base_incident(),
        "title": draw(TEXTS),
        "status": draw(st.sampled_from(["published", "withdrawn"])),
        "occurred": draw(st.sampled_from([None, "2024", "2024-02", "2024-02-29"])),
        "organizations": draw(texts),
        "facets": facets,
        **{field: draw(optional) for field in ("symptom", "trigger", "detection", "lessons")},
        **{field: draw(st.none() | texts) for field in ("actions", "follow_ups")},
        "sources": [{"url": url, "title": "보고서"} for url in urls],
        "related": draw(st.lists(RELEASED_IDS, max_size=2)),
        "not_duplicate_of": draw(st.lists(RELEASED_IDS, max_size=2)),
        "duplicate_of": draw(st.none() | RELEASED_IDS),
        "withdrawn_reason": draw(optional),
    }
    return ExportedIncident.model_validate(data)


def csv_writer_record(cells: list[str]) -> bytes:
    buffer = io.StringIO(newline="")
    csv.writer(buffer, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL).writerow(cells)
    return buffer.getvalue().encode("utf-8")


def reference_csv_line(incident: ExportedIncident) -> bytes:
    """The record as the export first wrote it: each column's value read by its name, a list
    joined, a formula defused, every cell through `csv.writer`."""
    values = {**incident.model_dump(), **incident.facets.model_dump()}
    values["sources"] = [source.url for source in incident.sources]
    cells = []
    for column in CSV_COLUMNS:
        value, separator = values[column], "\n" if column in ("actions", "follow_ups") else ";"
        text = "" if value is None else separator.join(value) if isinstance(value, list) else value
        cells.append("'" + text if text.startswith(FORMULA_START) else text)
    return csv_writer_record(cells)


def reference_graph_lines(incident: ExportedIncident) -> tuple[str, str]:
    """Its node and facet edges as the export first wrote them: each validated through its
    model (`graph_line`), the node also as `json.dumps` writes it."""
    node = {
        "kind": "incident",
        "id": incident.id,
        "title": incident.title,
        "occurred": incident.occurred,
    }
    assert graph_line(node, NODE) == json.dumps(node, ensure_ascii=False)
    edges = [
        graph_line({"kind": "facet", "source": incident.id, "target": t, "dimension": d}, EDGE)
        for t, d in reference_terms(incident)
    ]
    return graph_line(node, NODE), ",\n    ".join(edges)


def reference_terms(incident: ExportedIncident) -> tuple[tuple[str, str], ...]:
    return tuple(dict.fromkeys((term, dimension) for dimension, _i, term in incident.terms()))


def assert_rendered_as_the_references(incident: ExportedIncident) -> None:
    assert csv_line(incident) == reference_csv_line(incident)
    summary = Summary.of(incident)
    assert summary.terms == reference_terms(incident)
    published = incident.status == "published"
    node, edges = reference_graph_lines(incident) if published else ("", "")
    assert graph_lines(incident, summary.terms) == (node.encode(), edges.encode())


@settings(max_examples=200, deadline=None)
@given(exported_incidents())
def test_an_awkward_incidents_csv_record_and_graph_lines_are_the_references(incident):
    assert_rendered_as_the_references(incident)


def released_incidents(library: Library) -> Iterator[ExportedIncident]:
    """Each incident of `library` but its drafts, validated as the export validates it."""
    for path in library.incident_paths():
        incident_, _ = validate(load_bytes(path.read_bytes()))
        assert incident_ is not None
        data = released_data(incident_)
        if data["status"] != "draft":
            yield ExportedIncident.model_validate({**data, **WHEN})


def test_every_incidents_csv_record_and_graph_lines_are_the_references(library):
    for incident_ in released_incidents(library):
        assert_rendered_as_the_references(incident_)


def test_the_csv_header_is_what_csv_writer_writes_after_a_byte_order_mark():
    expected = "\ufeff".encode() + csv_writer_record(list(CSV_COLUMNS))
    assert expected == CSV_HEADER


@settings(max_examples=500, deadline=None)
@given(st.lists(st.text(AWKWARD), min_size=2, max_size=6))
def test_text_fields_are_what_csv_writer_writes_of_the_defused_cells(cells):
    # (min_size: a record of one empty field is `""` to csv.writer; ours have 22 fields)
    defused = ["'" + cell if cell.startswith(FORMULA_START) else cell for cell in cells]
    assert b",".join(map(_text_field, cells)) + b"\r\n" == csv_writer_record(defused)


def asks(field: FieldInfo) -> tuple[object, list[object]]:
    """What a field asks of a value: its type and constraints (patterns, validators)."""
    return field.annotation, field.metadata


def test_the_graph_models_ask_no_more_of_an_incident_than_exported_incident_does():
    # What lets `Summary.of` format an incident's graph lines without validating them.
    node, edge = IncidentNode.model_fields, FacetEdge.model_fields
    assert asks(node["id"]) == asks(edge["source"]) == asks(ExportedIncident.model_fields["id"])
    assert asks(node["title"]) == (str, []) and asks(node["occurred"]) == (str | None, [])
    assert asks(edge["target"]) == asks(FieldInfo.from_annotation(TermId))
    assert all(Facets.model_fields[d].annotation == list[TermId] for d in DIMENSIONS)
    assert asks(edge["dimension"]) == (Dimension, []) and tuple(Facets.model_fields) == DIMENSIONS
    for model in (IncidentNode, FacetEdge):
        decorators = model.__pydantic_decorators__
        assert not (decorators.field_validators or decorators.model_validators)


@pytest.mark.parametrize(
    ("field", "value"),
    [("id", 'IL-0001"'), ("id", "IL-0001\n"), ("status", "published,"), ("occurred", "2024\n"),
     ("facets", {"causes": ['a"b'], "components": ["a"], "symptoms": ["a"]}),
     ("facets", {"causes": ["한글"], "components": ["a"], "symptoms": ["a"]}),
     ("facets", {"causes": ["a,b"], "components": ["a"], "symptoms": ["a"]}),
     ("facets", {"causes": ["a"], "components": ["a"], "symptoms": ["a"], "causes\\": ["a"]}),
     ("related", ["IL-0002,"]), ("not_duplicate_of", ["=IL-0002"]), ("duplicate_of", "IL-2\r"),
     ("added", "2024-01-02T03:04:05Z\n"), ("modified", '"2024-01-02T03:04:05Z')],
)  # fmt: skip
def test_a_value_formatted_as_it_is_that_json_or_csv_would_escape_is_refused(field, value):
    # The cells and graph lines written without escaping: `ExportedIncident` refuses them.
    with pytest.raises(ValidationError):
        ExportedIncident.model_validate({**base_incident(), field: value})


# An incident just parsed becomes an `ExportedIncident` without being validated again ------


def slow_exported(incident_: Incident, added: str, modified: str) -> ExportedIncident:
    """What the export did before `exported_incident`: validate its released data again."""
    data = released_data(incident_)
    return ExportedIncident.model_validate({**data, "added": added, "modified": modified})


def assert_exported_as_validated(incident_: Incident, added: str, modified: str) -> None:
    fast = exported_incident(incident_, added, modified)
    try:
        slow = slow_exported(incident_, added, modified)
    except ValidationError:
        assert fast is None  # refused by both (then validated, for the error)
        return
    assert fast is not None and type(fast) is ExportedIncident
    assert fast == slow and fast.model_fields_set == slow.model_fields_set
    nested = b"    " + model_json(fast).replace(b"\n", b"\n    ")  # as incidents.json has it
    kept = released.released_text(released.Rendered(None, None, True, nested=nested))
    assert b"\n" not in kept and list(json.loads(kept)) == released._DATED
    assert json.loads(kept) == {**released_data(incident_), "added": added, "modified": modified}
    assert model_json(fast) == model_json(slow)
    assert csv_line(fast) == csv_line(slow) and Summary.of(fast) == Summary.of(slow)


def test_every_parsed_incident_is_exported_as_if_validated_again(library):
    exported_ = 0
    for path in library.incident_paths():
        incident_, _ = validate(load_bytes(path.read_bytes()))
        assert incident_ is not None
        if incident_.status != "draft":
            assert_exported_as_validated(incident_, WHEN["added"], WHEN["modified"])
            exported_ += 1
    assert exported_ == not_drafts(library)


# Texts, urls and ids as a file may give them: line breaks at the end (block scalars), ids
# that a release refuses (placeholders), dates that are no commit time.
ENDS = st.sampled_from(["", "\n", "\n\n"])
ENDED_TEXTS = st.builds(str.__add__, TEXTS, ENDS)
ANY_IDS = st.sampled_from(["IL-0001", "IL-123456", "IL-NEW-x", "IL-NEW-a-b"])
STAMPS = st.sampled_from([WHEN["added"], WHEN["modified"], "2024-01-02T03:04:05Z\n", "2024"])


@st.composite
def parsed_incidents(draw: st.DrawFn) -> Incident:
    texts, optional = st.lists(ENDED_TEXTS, max_size=3), st.none() | ENDED_TEXTS
    ids = draw(st.sampled_from([RELEASED_IDS, ANY_IDS]))  # (most would be refused, else)
    sources = st.fixed_dictionaries(
        {"url": st.builds(str.__add__, st.text(max_size=8), ENDS), "title": ENDED_TEXTS},
        optional={
            "publisher": ENDED_TEXTS,
            "published": st.just("2024-02"),
            "language": st.just("ko"),
        },
    )
    data = {
        key: value for key, value in base_incident().items() if key not in ("added", "modified")
    }
    data.update(
        id=draw(ids),
        title=draw(ENDED_TEXTS),
        status=draw(st.sampled_from(["published", "withdrawn"])),
        organizations=draw(texts),
        sources=draw(st.lists(sources, min_size=1, max_size=3)),
        related=draw(st.lists(ids, max_size=2)),
        not_duplicate_of=draw(st.lists(ids, max_size=2)),
        duplicate_of=draw(st.none() | ids),
        withdrawn_reason=draw(optional),
        **{field: draw(optional) for field in ("symptom", "trigger", "detection", "lessons")},
        **{field: draw(st.none() | texts) for field in ("actions", "follow_ups")},
    )
    if draw(st.booleans()):  # a file that leaves out what has a default
        for key in ("occurred", "organizations", "related", "withdrawn_reason"):
            data.pop(key, None)
    return Incident.model_validate(data)


@settings(max_examples=300, deadline=None)
@given(parsed_incidents(), STAMPS, STAMPS)
def test_an_awkward_parsed_incident_is_exported_as_if_validated_again(incident_, added, modified):
    assert_exported_as_validated(incident_, added, modified)


def test_exported_incident_skips_only_what_incident_asked_already():
    # What lets `exported_incident` check only `STRICTER` again. Every other field asks
    # what `Incident`'s does: the fields ExportedIncident narrows, or adds, are these.
    fields, before = ExportedIncident.model_fields, Incident.model_fields
    assert STRICTER == (
        "id", "status", "related", "not_duplicate_of", "duplicate_of", "added", "modified",
    )  # fmt: skip
    assert all(asks(fields[name]) == asks(before[name]) for name in before if name not in STRICTER)
    assert list(fields) == [*before, "added", "modified"]
    # No validator of a model's own that a dump validated again would run (the types'
    # own, in `Annotated`, are the fields' `metadata`, compared above).
    for model in (Incident, ExportedIncident, Facets, Source):
        decorators = model.__pydantic_decorators__
        assert not (decorators.field_validators or decorators.model_validators)
        assert not (decorators.validators or decorators.root_validators)


@settings(max_examples=500, deadline=None)
@given(TEXTS, st.text(st.sampled_from("\n\t "), max_size=3), ENDS)
def test_a_text_without_its_line_breaks_at_the_end_is_text_still(text, spaces, end):
    # Trimming is all `released_data` does to a value: it keeps a `Text` one, ...
    trimmed = (text + spaces + end).rstrip("\n")
    if text_problem(text + spaces + end) is None:
        assert TypeAdapter(Text).validate_python(trimmed) == trimmed


@pytest.mark.parametrize(
    ("form", "value"),
    [(IncidentId, "IL-0001"), (IncidentId, "IL-NEW-x"), (TermId, "nccl"),
     (PartialDate, "2024-02"), (Annotated[str, Field(pattern=LANGUAGE_PATTERN)], "ko")],
)  # fmt: skip
def test_a_value_with_a_pattern_never_ends_with_a_line_break(form, value):
    # ... and a value with a pattern has no line break to lose (pydantic's `$` is the end).
    adapter = TypeAdapter(form)
    assert adapter.validate_python(value) == value
    with pytest.raises(ValidationError):
        adapter.validate_python(value + "\n")


def test_facets_hold_only_term_ids_which_trimming_never_changes():
    # What lets `_trimmed_model` give an incident's facets back without looking into them
    # (`test_a_value_with_a_pattern_never_ends_with_a_line_break` holds term ids to it).
    assert {name: field.annotation for name, field in Facets.model_fields.items()} == dict.fromkeys(
        DIMENSIONS, list[TermId]
    )


def test_an_exported_incident_is_made_as_a_validated_one_is():
    # `exported_incident` makes the model from a blank one: as `model_validate` would.
    incident_ = Incident.model_validate({
        k: v for k, v in base_incident().items() if k not in ("added", "modified")
    })  # fmt: skip
    fast = exported_incident(incident_, WHEN["added"], WHEN["modified"])
    slow = ExportedIncident.model_validate({**released_data(incident_), **WHEN})
    assert fast is not None and fast == slow
    assert list(fast.__dict__) == list(slow.__dict__) == list(ExportedIncident.model_fields)
    assert fast.model_fields_set == slow.model_fields_set
    assert fast.__pydantic_extra__ is None and fast.__pydantic_private__ is None
    assert model_json(fast) == model_json(slow)
    again = exported_incident(incident_, WHEN["added"], WHEN["modified"])
    fast.model_fields_set.add("x")  # each model has a set of its own
    assert again is not None and "x" not in again.model_fields_set


def test_the_nested_models_are_shared_only_when_trimming_changes_nothing():
    incident_ = Incident.model_validate({
        **{k: v for k, v in base_incident().items() if k not in ("added", "modified")},
        "sources": [{"url": "https://a.example/", "title": "보고서"},
                    {"url": "https://b.example/\n", "title": "보고서\n"}],
    })  # fmt: skip
    exported_ = exported_incident(incident_, WHEN["added"], WHEN["modified"])
    assert exported_ is not None
    assert exported_.facets is incident_.facets and exported_.sources[0] is incident_.sources[0]
    assert exported_.sources[1] == Source(url="https://b.example/", title="보고서")
    assert incident_.sources[1].title == "보고서\n"  # the parsed incident is left as it was


def test_a_file_is_written_as_open_writes_it(tmp_path):
    (tmp_path / "incidents").mkdir()
    data = "한글 \n".encode() * 5000
    file = write_file(tmp_path, "incidents/IL-0001.json", data)
    with open(tmp_path / "incidents/reference.json", "wb") as out:
        out.write(data)
    written = tmp_path / "incidents/IL-0001.json"
    assert written.read_bytes() == data and file.size == len(data)
    assert file.sha256 == hashlib.sha256(data).hexdigest() and file.path == "incidents/IL-0001.json"
    assert written.stat().st_mode == (tmp_path / "incidents/reference.json").stat().st_mode
    write_file(tmp_path, "incidents/IL-0001.json", b"{}")  # again, shorter: truncated
    assert written.read_bytes() == b"{}"


# Worker processes ------------------------------------------------------------------------

_PARENT = os.getpid()


def _double_or_die(number: int) -> int:
    """Doubles; in a worker, dies on 13 (as the out-of-memory killer would end it)."""
    if number == 13 and os.getpid() != _PARENT:
        os._exit(1)
    return number * 2


def test_workers_give_results_in_order_and_redo_the_share_of_a_worker_that_died():
    with Workers(2) as workers:
        results = list(workers.in_order(_double_or_die, range(100), chunk_size=3))
    assert results == [number * 2 for number in range(100)]


def test_unchanged_incident_files_are_linked_from_the_export_they_replace(library, tmp_path):
    out = tmp_path / "out"
    exported(library, out, jobs=1)
    kept = out / sorted((out / "incidents").iterdir())[0]
    changed = out / "incidents" / "IL-0901.json"
    kept_inode, changed_inode = kept.stat().st_ino, changed.stat().st_ino
    path = library.incident_path("IL-0901")
    path.write_text(incident("IL-0901", ("occurred: 2024-05", "occurred: 2023-11")), "utf-8")
    git(library.root, "commit", "-q", "-am", "IL-0901: the date")
    again = exported(library, out, jobs=2)
    assert kept.stat().st_ino == kept_inode  # the same file, linked into the new export
    assert changed.stat().st_ino != changed_inode  # written afresh: its bytes changed
    assert kept.stat().st_nlink == 1  # the export it came from is gone
    assert again == exported(library, tmp_path / "fresh", cache=False, jobs=1)


def test_a_tampered_or_symlinked_file_of_the_old_export_is_never_linked(library, tmp_path):
    out = tmp_path / "out"
    truth = exported(library, out, jobs=1)
    first, second = sorted(p for p in truth if p.startswith("incidents/"))[:2]
    tampered = out / first
    tampered.write_bytes(tampered.read_bytes().replace(b'"title": "', b'"title": "X'))
    outside = tmp_path / "outside.json"
    outside.write_bytes(truth[second])  # the right bytes, but elsewhere
    (out / second).unlink()
    (out / second).symlink_to(outside)
    assert exported(library, out, jobs=1) == truth
    assert not (out / second).is_symlink()
    assert (out / second).stat().st_ino != outside.stat().st_ino


@pytest.mark.parametrize(
    ("command", "jobs", "pools"),
    [
        # 42 files: below the size where workers are started by themselves (200), so
        # `--jobs 2` is what makes them start two. The export's one pool serves both lint
        # and the render (`curator.export.export_workers`).
        (["export", "--out", "{out}", "--version", "v1.0.0", "--no-cache"], [], []),
        (["export", "--out", "{out}", "--version", "v1.0.0", "--no-cache"], ["-j", "2"], [2]),
        (["fmt", "--check", "--no-cache"], ["--jobs", "1"], []),
        (["fmt", "--check", "--no-cache"], ["--jobs", "3"], [3]),
        (["lint", "--no-cache"], ["--jobs", "2"], [2]),
    ],
)
def test_jobs_sets_the_worker_processes_of_every_command_that_has_it(
    library: Library,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: list[str],
    jobs: list[str],
    pools: list[int],
) -> None:
    from click.testing import CliRunner

    import curator.cli
    import curator.workers

    started: list[int] = []

    class Counted(curator.workers.ProcessPoolExecutor):
        def __init__(self, max_workers: int, *args: object, **kwargs: object) -> None:
            started.append(max_workers)
            super().__init__(max_workers, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(curator.workers, "ProcessPoolExecutor", Counted)
    monkeypatch.chdir(library.root)
    args = [arg.format(out=tmp_path / "out") for arg in command]
    result = CliRunner().invoke(curator.cli.main, [*args, *jobs, "--root", str(library.root)])
    assert result.exit_code == 0, result.output
    assert started == pools


def _summary_carrying(terms: list[str], number: int) -> Summary:
    carried = tuple((term, "components") for term in terms)
    return Summary(f"IL-{number:04d}", "제목", "published", None, carried, "")


def _counted_pair_by_pair(published: list[Summary]) -> list[tuple[tuple[str, str], int]]:
    """What `cooccurrence` gives, counted the plain way (as it was before numpy)."""
    pairs: Counter[tuple[str, str]] = Counter()
    for summary in published:
        pairs.update(itertools.combinations(sorted({t for t, _ in summary.terms}), 2))
    return sorted(pairs.items())


TERM_IDS = st.sampled_from(["gpu", "nccl", "a", "a-b", "ab", "b", "z9", "storage", "dns", "x"])


@pytest.mark.parametrize("bins", [True, False], ids=["a-bin-a-pair", "too-many-terms-for-bins"])
@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(TERM_IDS, max_size=8), max_size=40))
def test_cooccurrence_counts_every_pair_as_counting_pair_by_pair_does(bins, carried):
    # Incidents with no term, one, repeated terms, and terms that sort close ("a", "a-b",
    # "ab"): the pair codes must give each pair once, sorted as the pairs are; counted in
    # bins (the usual way) or, past `_COUNTED_FROM_BINS` terms, by sorting.
    published = [_summary_carrying(terms, n) for n, terms in enumerate(carried, 1)]
    with mock.patch.object(graph, "_COUNTED_FROM_BINS", 2048 if bins else 0):
        assert cooccurrence(published) == _counted_pair_by_pair(published)


def test_cooccurrence_edges_are_the_lines_their_model_validates():
    published = [_summary_carrying(["gpu", "nccl", "storage"], 1)] * 3
    published.append(_summary_carrying(["nccl", "storage"], 2))
    lines = list(_cooccurrence_edges(published))
    references = [
        graph_line({"kind": "co-occurrence", "source": a, "target": b, "count": count}, EDGE)
        for (a, b), count in [
            (("gpu", "nccl"), 3),
            (("gpu", "storage"), 3),
            (("nccl", "storage"), 4),
        ]
    ]
    assert lines == references


def test_taxonomy_json_is_what_validating_every_carrier_again_writes(library, tmp_path):
    # `taxonomy_export` sets each term's carriers without validating them again: they are
    # ids `ExportedIncident` validated. Validated whole, taxonomy.json is the same bytes.
    written = exported(library, tmp_path / "out")["taxonomy.json"]
    again = TaxonomyExport.model_validate_json(written)
    carried = [term.incidents for dimension in again.dimensions for term in dimension.terms]
    assert any(carried), "some term carries incidents"
    assert model_json(again) + b"\n" == written
    with pytest.raises(ValidationError):  # what such a validation would have refused
        TaxonomyExport.model_validate_json(written.replace(b'"IL-0901"', b'"IL-NEW-x"', 1))
