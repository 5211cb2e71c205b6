"""`curator export`: files, contract (schemas), integrity (determinism, atomicity, refusal)."""

from __future__ import annotations

import csv
import ctypes
import datetime as dt
import errno
import fcntl
import functools
import hashlib
import io
import json
import os
import re
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import (
    REPO,
    committed_at,
    ended,
    run_curator,
    start_python,
    stopped_as_git_starts,
    stopped_as_it_loads,
    write_library,
)
from referencing import Registry, Resource

import curator.export.released as released
import curator.export.write as write
import curator.lint
from curator.export import ExportError, ExportOptions, ExportRefused, export
from curator.export.collect import Snapshot, name_order
from curator.export.feed import feed_bytes
from curator.export.git import Commit, FileEvent, Repo
from curator.export.graph import GraphStream
from curator.export.history import file_history
from curator.export.model import SCHEMA_VERSION, Change, Changes, ReleasePoint
from curator.export.released import Task
from curator.export.released import render as render_incident
from curator.export.released_cache import ReleasedCache
from curator.export.schema import SCHEMAS, render, schema_for
from curator.export.versions import previous_release
from curator.export.write import ExportWriter
from curator.library import Library
from curator.lint import Extra, lint, parse_incident
from curator.lint_cache import Checked
from curator.progress import Progress
from curator.regular import content_digest
from curator.taxonomy import load_taxonomy
from incidents import incident

AGGREGATES = {"incidents.json", "incidents.csv", "taxonomy.json", "graph.json"}
ATOM = "{http://www.w3.org/2005/Atom}"


class GitLibrary:
    """A small library in its own git repository, committed at fixed times."""

    def __init__(self, root: Path) -> None:
        self.root = write_library(root, {})
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str, when: str = "2024-01-01T00:00:00") -> str:
        env = committed_at(when)
        proc = subprocess.run(
            ["git", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false", *args],
            cwd=self.root,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        return proc.stdout.strip()

    def write(self, name: str, text: str) -> None:
        (self.root / "incidents" / name).write_text(text, encoding="utf-8")

    def commit(self, when: str, message: str = "change") -> str:
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message, when=when)
        return self.git("rev-parse", "HEAD")


GPU = ("    - nccl\n", "    - nccl\n    - gpu\n")  # IL-0002 carries one more component
TITLE = "공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다"  # tests/incidents.py's


def withdrawn(incident_id: str, duplicate_of: str) -> str:
    return (
        incident(incident_id, ("status: published", "status: withdrawn"))
        + f"duplicate_of: {duplicate_of}\nwithdrawn_reason: |\n  {duplicate_of} 와 같은 사건.\n"
    )


@pytest.fixture
def repo(tmp_path: Path) -> GitLibrary:
    """v1.0.0: IL-0001 and IL-0002 published, IL-0003 a withdrawn duplicate, IL-0004 a draft."""
    repo = GitLibrary(tmp_path / "lib")
    repo.write("IL-0001.yaml", incident("IL-0001"))
    repo.write("IL-0002.yaml", incident("IL-0002", GPU))
    repo.commit("2024-01-01T10:00:00", "first incidents")
    repo.write("IL-0003.yaml", withdrawn("IL-0003", "IL-0001"))
    repo.write("IL-0004.yaml", incident("IL-0004", ("status: published", "status: draft")))
    repo.commit("2024-02-01T10:00:00", "more")
    repo.git("tag", "v1.0.0")
    return repo


def files_of(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def run_export(repo: GitLibrary, out: Path, *args: str):
    return run_curator("export", "--root", str(repo.root), "--out", str(out), *args)


def load(folder: Path, name: str):
    return json.loads((folder / name).read_text(encoding="utf-8"))


# --- the files ---------------------------------------------------------------------------


def test_export_writes_every_file(repo, tmp_path):
    out = tmp_path / "out"
    run = run_export(repo, out)
    assert run.code == 0, run.err
    assert "exported 3 incidents, v1.0.0" in run.err
    assert set(files_of(out)) == {
        "incidents/IL-0001.json",
        "incidents/IL-0002.json",
        "incidents/IL-0003.json",
        "incidents.json",
        "incidents.csv",
        "taxonomy.json",
        "graph.json",
        "changes.json",
        "feed.atom",
        "manifest.json",
        *(f"schema/{name}" for name in SCHEMAS),
    }


@pytest.mark.parametrize("quiet", ["-q", "--quiet"])
def test_quiet_drops_the_closing_summary_and_changes_nothing_written(repo, tmp_path, quiet):
    said = run_export(repo, tmp_path / "said", "--no-cache")
    quieted = run_export(repo, tmp_path / "quiet", "--no-cache", quiet)
    assert (said.code, quieted.code) == (0, 0), (said, quieted)
    head = repo.git("rev-parse", "--short=12", "HEAD")
    assert said.err == f"exported 3 incidents, v1.0.0 ({head}), to {tmp_path / 'said'}\n"
    assert "IL304 [warning]" in said.out and quieted.out == said.out  # findings are kept
    assert quieted.err == ""
    assert files_of(tmp_path / "quiet") == files_of(tmp_path / "said")


def test_incidents_carry_every_field_and_git_dates_but_never_drafts(repo, tmp_path):
    repo.write(
        "IL-0001.yaml", incident("IL-0001", ("organizations:\n  - Example", "organizations: []"))
    )
    repo.commit("2024-03-05T08:30:00")
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    listed = load(out, "incidents.json")["incidents"]
    assert [i["id"] for i in listed] == ["IL-0001", "IL-0002", "IL-0003"]  # no draft IL-0004
    first = listed[0]
    assert list(first) == [
        "id", "title", "status", "occurred", "organizations", "facets", "symptom", "trigger",
        "detection", "actions", "follow_ups", "lessons", "sources", "related",
        "not_duplicate_of", "duplicate_of", "withdrawn_reason", "added", "modified",
    ]  # fmt: skip
    assert first["added"] == "2024-01-01T10:00:00Z"
    assert first["modified"] == "2024-03-05T08:30:00Z"
    assert first["organizations"] == []
    assert first["symptom"] == "학습 처리량이 떨어졌다."  # the block scalar's line break is layout
    assert first["follow_ups"] is None and first["sources"][0]["publisher"] is None
    withdrawn_one = load(out, "incidents/IL-0003.json")
    assert withdrawn_one["status"] == "withdrawn"
    assert withdrawn_one["duplicate_of"] == "IL-0001"
    assert withdrawn_one["withdrawn_reason"] == "IL-0001 와 같은 사건."
    assert withdrawn_one["added"] == withdrawn_one["modified"] == "2024-02-01T10:00:00Z"
    for item in listed:
        assert load(out, f"incidents/{item['id']}.json") == item


def test_an_empty_list_of_follow_ups_or_actions_exports_as_one_left_out(repo, tmp_path):
    # `follow_ups: []` exported `[]` and a file without the key `null` (the CSV gave both
    # an empty cell), and writing `follow_ups: []` into a released file was a `modified`
    # change of `follow_ups` in changes.json and the feed, where both say there were none.
    none_written = ("lessons:", "follow_ups: []\nlessons:")
    no_actions = ("actions:\n  - 데이터를 로컬 디스크로 옮겼다.", "actions: []")
    repo.write("IL-0001.yaml", incident("IL-0001", none_written))
    repo.write("IL-0005.yaml", incident("IL-0005", none_written))
    repo.write("IL-0006.yaml", withdrawn("IL-0006", "IL-0001").replace(*no_actions))
    repo.commit("2024-03-01T00:00:00")
    repo.git("tag", "v1.1.0")
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    listed = load(out, "incidents.json")["incidents"]
    action = ["데이터를 로컬 디스크로 옮겼다."]
    assert [(i["id"], i["follow_ups"], i["actions"]) for i in listed] == [
        ("IL-0001", None, action),  # follow_ups: []
        ("IL-0002", None, action),  # no follow_ups
        ("IL-0003", None, action),
        ("IL-0005", None, action),  # follow_ups: []
        ("IL-0006", None, None),  # withdrawn, actions: []
    ]
    for item in listed:
        assert load(out, f"incidents/{item['id']}.json") == item
    changes = load(out, "changes.json")["changes"]
    assert [(c["id"], c["change"]) for c in changes] == [
        ("IL-0005", "added"),
        ("IL-0006", "added"),
    ]  # and IL-0001 is not modified
    rows = list(csv.DictReader(io.StringIO((out / "incidents.csv").read_text("utf-8-sig"))))
    assert [(r["follow_ups"], r["actions"]) for r in rows] == [
        ("", action[0]),
        ("", action[0]),
        ("", action[0]),
        ("", action[0]),
        ("", ""),
    ]


def test_ids_sort_by_number_not_by_text(tmp_path):
    repo = GitLibrary(tmp_path / "lib")
    for incident_id in ("IL-10000", "IL-9999", "IL-0002"):
        repo.write(f"{incident_id}.yaml", incident(incident_id))
    repo.commit("2024-01-01T00:00:00")
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    ids = [i["id"] for i in load(out, "incidents.json")["incidents"]]
    assert ids == ["IL-0002", "IL-9999", "IL-10000"]


def test_a_numbered_placeholder_keeps_the_date_it_was_first_committed(tmp_path):
    repo = GitLibrary(tmp_path / "lib")
    repo.write("IL-NEW-weka.yaml", incident("IL-NEW-weka"))
    repo.commit("2024-01-01T00:00:00", "new incident")
    repo.git("mv", "incidents/IL-NEW-weka.yaml", "incidents/IL-0007.yaml")
    repo.write("IL-0007.yaml", incident("IL-0007"))
    repo.commit("2024-01-02T00:00:00", "assign ids")
    repo.write("IL-0007.yaml", incident("IL-0007", ("occurred: 2024-05", "occurred: 2024-06")))
    repo.commit("2024-01-03T00:00:00", "fix date")
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    exported = load(out, "incidents/IL-0007.json")
    assert (exported["added"], exported["modified"]) == (
        "2024-01-01T00:00:00Z",
        "2024-01-03T00:00:00Z",
    )


def test_taxonomy_counts_published_incidents_per_term(repo, tmp_path):
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    taxonomy = load(out, "taxonomy.json")
    assert [d["id"] for d in taxonomy["dimensions"]] == [
        "causes", "components", "symptoms", "contributing_factors",
    ]  # fmt: skip
    assert taxonomy["dimensions"][0]["label"] == {"ko": "원인", "en": "Causes"}
    terms = {t["id"]: t for d in taxonomy["dimensions"] for t in d["terms"]}
    # IL-0003 (withdrawn) also carries them, and is not counted.
    assert terms["capacity-limit"]["count"] == 2
    assert terms["capacity-limit"]["incidents"] == ["IL-0001", "IL-0002"]
    assert terms["gpu"]["incidents"] == ["IL-0002"]
    real = Library.at(REPO).taxonomy
    assert len(terms) == sum(len(real.terms[d]) for d in real.terms)
    for term_id, term in terms.items():
        dimension = real.dimension_of(term_id)
        assert dimension is not None
        source = real.term(dimension, term_id)
        assert source is not None
        assert term["label"] == source.label.model_dump()
        assert term["parent"] == source.parent
        assert all(terms[child]["parent"] == term_id for child in term["children"])
        if source.deprecated:
            assert term["deprecated"]["replaced_by"] == source.deprecated.replaced_by


def test_a_taxonomy_text_written_as_a_block_keeps_no_line_break_at_its_end(repo, tmp_path):
    # docs/export.md: text is exported without the line breaks at its end, so that the data
    # does not depend on the file's layout. taxonomy.json and graph.json kept the one a
    # block scalar ends with, which an incident's text did not.
    causes = repo.root / "schema" / "taxonomy" / "causes.yaml"
    plain = causes.read_text(encoding="utf-8")
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    before = {name: load(out, name) for name in ("taxonomy.json", "graph.json")}
    causes.write_text(
        plain.replace("      ko: 용량 한계\n", "      ko: |\n        용량 한계\n", 1)
        .replace("    description: 요청이나", "    description: |\n      요청이나", 1)
        .replace("      - 용량 부족\n", "      - |\n        용량 부족\n", 1),
        encoding="utf-8",
    )
    repo.commit("2024-03-01T00:00:00", "the same taxonomy, laid out in blocks")
    assert run_export(repo, out).code == 0
    assert {name: load(out, name) for name in ("taxonomy.json", "graph.json")} == before


def test_graph_links_incidents_to_terms_and_counts_cooccurrence(repo, tmp_path):
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    graph = load(out, "graph.json")
    incidents = [n["id"] for n in graph["nodes"] if n["kind"] == "incident"]
    assert incidents == ["IL-0001", "IL-0002"]  # published only
    facet_edges = {(e["source"], e["target"]) for e in graph["edges"] if e["kind"] == "facet"}
    assert ("IL-0002", "gpu") in facet_edges and ("IL-0001", "gpu") not in facet_edges
    cooccurrence = {
        (e["source"], e["target"]): e["count"]
        for e in graph["edges"]
        if e["kind"] == "co-occurrence"
    }
    assert cooccurrence[("capacity-limit", "nccl")] == 2
    assert cooccurrence[("gpu", "nccl")] == 1
    assert all(a < b for a, b in cooccurrence)
    node_ids = [n["id"] for n in graph["nodes"]]
    assert len(node_ids) == len(set(node_ids))


def test_csv_is_one_row_per_incident_with_joined_facets_for_excel(repo, tmp_path):
    repo.write("IL-0005.yaml", incident("IL-0005", ("  - 데이터를", "  - =HYPERLINK(1) 데이터를")))
    repo.commit("2024-03-01T00:00:00")
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    raw = (out / "incidents.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbfid,title,status,")
    assert b"\r\n" in raw
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    assert [r["id"] for r in rows] == ["IL-0001", "IL-0002", "IL-0003", "IL-0005"]
    assert rows[1]["components"] == "nccl;gpu"
    assert rows[2]["duplicate_of"] == "IL-0001"
    assert rows[0]["sources"] == "https://example.com/postmortems/IL-0001"
    assert rows[3]["actions"] == "'=HYPERLINK(1) 데이터를 로컬 디스크로 옮겼다."


def test_a_term_listed_twice_is_exported_once_where_first_listed(repo, tmp_path):
    # A repeat is a warning (IL304), so the export runs: incidents.json, the incident's
    # own file and the CSV listed the term twice, graph.json and taxonomy.json once.
    repeated = ("    - nccl\n", "    - nccl\n    - gpu\n    - nccl\n")
    repo.write("IL-0005.yaml", incident("IL-0005", repeated))
    repo.commit("2024-03-01T00:00:00", "IL-0005")
    outs = [tmp_path / "cold", tmp_path / "kept"]  # the second from the export's cache
    for out in outs:
        assert run_export(repo, out).code == 0
    assert files_of(outs[0]) == files_of(outs[1])
    out = outs[0]
    exported = next(i for i in load(out, "incidents.json")["incidents"] if i["id"] == "IL-0005")
    assert exported["facets"]["components"] == ["nccl", "gpu"]
    assert load(out, "incidents/IL-0005.json") == exported
    rows = csv.DictReader(io.StringIO((out / "incidents.csv").read_text("utf-8-sig"), newline=""))
    assert next(r for r in rows if r["id"] == "IL-0005")["components"] == "nccl;gpu"
    edges = [e for e in load(out, "graph.json")["edges"] if e["source"] == "IL-0005"]
    assert [e["target"] for e in edges if e["dimension"] == "components"] == ["nccl", "gpu"]
    # Dropping the repeat changes no data: changes.json compares released values alike.
    repo.git("tag", "v1.1.0")
    repo.write("IL-0005.yaml", incident("IL-0005", GPU))
    repo.commit("2024-04-01T00:00:00", "IL-0005 without the repeat")
    assert run_export(repo, tmp_path / "later").code == 0
    assert load(tmp_path / "later", "changes.json")["changes"] == []


# --- changes and feed ------------------------------------------------------------------


def test_changes_since_the_previous_tag_newest_first(repo, tmp_path):
    repo.write("IL-0002.yaml", incident("IL-0002", GPU, ("occurred: 2024-05", "occurred: 2024-04")))
    repo.commit("2024-03-01T00:00:00", "fix IL-0002")
    repo.write("IL-0001.yaml", withdrawn("IL-0001", "IL-0002"))
    repo.write("IL-0003.yaml", incident("IL-0003"))  # un-withdrawn: a data change
    repo.write("IL-0004.yaml", incident("IL-0004"))  # draft → published: new to consumers
    repo.commit("2024-04-01T00:00:00", "rework")
    repo.git("tag", "v1.1.0")
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    changes = load(out, "changes.json")
    assert changes["since"]["version"] == "v1.0.0"
    assert changes["until"]["version"] == "v1.1.0"
    assert [(c["id"], c["change"], c["date"]) for c in changes["changes"]] == [
        ("IL-0001", "withdrawn", "2024-04-01T00:00:00Z"),
        ("IL-0003", "modified", "2024-04-01T00:00:00Z"),
        ("IL-0004", "added", "2024-04-01T00:00:00Z"),
        ("IL-0002", "modified", "2024-03-01T00:00:00Z"),
    ]
    by_id = {c["id"]: c for c in changes["changes"]}
    assert by_id["IL-0002"]["fields"] == ["occurred"]
    assert by_id["IL-0001"]["fields"] == ["status", "duplicate_of", "withdrawn_reason"]
    assert by_id["IL-0001"]["status"] == "withdrawn"


def test_changes_without_the_cache_are_those_with_it(repo, tmp_path):
    # The change log reads an incident's released data only where its file changed since
    # the tag (`released_text`, made on demand): with no cache to keep it for, as the
    # release job exports, it is still made for those.
    repo.write("IL-0002.yaml", incident("IL-0002", GPU, ("occurred: 2024-05", "occurred: 2024-04")))
    repo.write("IL-0001.yaml", withdrawn("IL-0001", "IL-0002"))
    repo.commit("2024-04-01T00:00:00", "rework")
    assert run_export(repo, tmp_path / "cached").code == 0
    assert run_export(repo, tmp_path / "release", "--no-cache", "--format", "github").code == 0
    changes = (tmp_path / "release" / "changes.json").read_bytes()
    assert changes == (tmp_path / "cached" / "changes.json").read_bytes()
    fields = {c["id"]: c["fields"] for c in json.loads(changes)["changes"]}
    assert fields == {
        "IL-0001": ["status", "duplicate_of", "withdrawn_reason"],
        "IL-0002": ["occurred"],
    }


def hotfix_then_release(repo, *files: tuple[str, str]) -> None:
    """v1.0.1 tagged on a release branch, a commit for each of `files`; then, on main, v1.1.0
    adds IL-0005. (The repository is left on main.)"""
    repo.git("checkout", "-q", "-b", "release-1.0")
    for day, (name, text) in enumerate(files, start=10):
        repo.write(name, text)
        repo.commit(f"2024-02-{day}T00:00:00", f"hotfix: {name}")
    repo.git("tag", "v1.0.1")
    repo.git("checkout", "-q", "main")
    repo.write("IL-0005.yaml", incident("IL-0005"))
    repo.commit("2024-03-01T00:00:00", "IL-0005")
    repo.git("tag", "v1.1.0")


def hotfix_merged_back(repo) -> str:
    """`hotfix_then_release` with v1.0.1 changing IL-0002 and withdrawing IL-0003 into it,
    its branch merged into main after v1.1.0, then IL-0006 added: the commit that adds it."""
    hotfix_then_release(
        repo,
        ("IL-0002.yaml", incident("IL-0002", GPU, ("occurred: 2024-05", "occurred: 2024-04"))),
        ("IL-0003.yaml", withdrawn("IL-0003", "IL-0002")),
    )
    repo.git("merge", "-q", "--no-edit", "release-1.0", when="2024-03-05T00:00:00")
    repo.write("IL-0006.yaml", incident("IL-0006"))
    return repo.commit("2024-03-10T00:00:00", "IL-0006")


def test_a_release_after_a_hotfix_on_a_release_branch_compares_with_the_hotfix(repo, tmp_path):
    # The default `since` was the nearest tag in the history (`git describe`): v1.0.1,
    # tagged on a release branch, is in none of main's, so v1.1.0 compared with v1.0.0 and
    # did not say that IL-0002, withdrawn in the release before it, is published again.
    hotfix_then_release(repo, ("IL-0002.yaml", withdrawn("IL-0002", "IL-0001")))
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    changes = load(out, "changes.json")
    assert changes["since"] == {"version": "v1.0.1", "commit": repo.git("rev-parse", "v1.0.1")}
    assert [(c["id"], c["change"], c["status"]) for c in changes["changes"]] == [
        ("IL-0005", "added", "published"),
        ("IL-0002", "modified", "published"),
    ]


def test_between_releases_after_a_hotfix_is_merged_back_the_release_before_is_the_highest(
    repo, tmp_path
):
    # Between releases `since` was the tag nearest in the history (`git describe`): once
    # the release branch of hotfix v1.0.1 was merged into main after v1.1.0, that was the
    # hotfix, fewer commits away, and the list repeated IL-0005, added in v1.1.0 already,
    # and left out IL-0002, which the hotfix changed since v1.1.0.
    hotfix_merged_back(repo)
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    changes = load(out, "changes.json")
    assert changes["since"] == {"version": "v1.1.0", "commit": repo.git("rev-parse", "v1.1.0")}
    assert [(c["id"], c["change"], c["fields"]) for c in changes["changes"]] == [
        ("IL-0006", "added", []),
        ("IL-0002", "modified", ["occurred"]),  # as of the merge, both
        ("IL-0003", "modified", ["duplicate_of", "withdrawn_reason"]),
    ]


def test_an_export_of_the_merge_of_a_hotfix_compares_with_the_hotfix(repo, tmp_path):
    # Between releases `since` was the highest version in the history of the merge's first
    # parent: main, which had only v1.0.0, so the merge of hotfix v1.0.1 compared with
    # v1.0.0 and listed IL-0002, which v1.0.1 released, as modified; one commit later it
    # compared with v1.0.1. A tag of no version there (`v-hotfix`) was missed alike.
    repo.write("IL-0005.yaml", incident("IL-0005"))
    repo.commit("2024-03-01T00:00:00", "IL-0005")
    repo.git("checkout", "-q", "-b", "release-1.0", "v1.0.0")
    repo.write("IL-0002.yaml", incident("IL-0002", GPU, ("occurred: 2024-05", "occurred: 2024-04")))
    repo.commit("2024-02-10T00:00:00", "hotfix: IL-0002")
    repo.git("checkout", "-q", "main")
    merge = {}
    for tag in ("v1.0.1", "v-hotfix"):
        repo.git("tag", tag, "release-1.0")
        repo.git("merge", "-q", "--no-edit", "release-1.0", when="2024-03-05T00:00:00")
        head = repo.git("rev-parse", "HEAD")
        out = tmp_path / tag
        assert run_export(repo, out).code == 0
        changes = load(out, "changes.json")
        merge[tag] = (
            load(out, "manifest.json")["version"],
            (changes["since"] or {}).get("version"),
            [(c["id"], c["change"]) for c in changes["changes"]],
        )
        repo.git("reset", "-q", "--hard", "HEAD^")
        repo.git("tag", "-d", tag)
        if tag == "v1.0.1":  # v1.0.0 would name a version: the first tag is the only one
            repo.git("tag", "-d", "v1.0.0")
    assert merge == {
        "v1.0.1": (f"v1.0.1-2-g{head[:12]}", "v1.0.1", [("IL-0005", "added")]),
        "v-hotfix": (f"v-hotfix-2-g{head[:12]}", "v-hotfix", [("IL-0005", "added")]),
    }


def test_a_release_compares_with_the_release_before_not_a_pre_release(repo, tmp_path):
    # `v2.0.0-rc1` was the nearest tag: v2.0.0's list left out what changed from v1.0.0
    # to the candidate, for a reader who follows releases. A pre-release compares with
    # the version before it, pre-release or not.
    repo.write("IL-0005.yaml", incident("IL-0005"))
    repo.commit("2024-03-01T00:00:00", "IL-0005")
    repo.git("tag", "v2.0.0-rc1")
    repo.write("IL-0002.yaml", incident("IL-0002", GPU, ("occurred: 2024-05", "occurred: 2024-04")))
    repo.commit("2024-04-01T00:00:00", "fix IL-0002")
    repo.git("tag", "v2.0.0-rc2")
    repo.git("tag", "v2.0.0")  # the candidate released as it is
    # `since` names the tag it compares with, not the one `git describe` prefers there.
    repo.git("tag", "-a", "-m", "annotated", "v1.0.0-rc1", "v1.0.0")
    found = {}
    for version in ("v2.0.0", "v2.0.0-rc2"):
        assert run_export(repo, tmp_path / version, "--version", version).code == 0
        changes = load(tmp_path / version, "changes.json")
        found[version] = (changes["since"]["version"], [c["id"] for c in changes["changes"]])
    assert found == {
        "v2.0.0": ("v1.0.0", ["IL-0002", "IL-0005"]),
        "v2.0.0-rc2": ("v2.0.0-rc1", ["IL-0002"]),
    }


def test_a_first_release_compares_with_nothing_not_its_own_release_candidate(tmp_path):
    # The only version below v1.0.0 was its candidate, which a release passes over: no
    # tag was left, and `since` fell back on the nearest tag before it, v1.0.0-rc1, so the
    # first release listed only what changed since that candidate. The candidates still compare
    # with each other, and the commits after v1.0.0 with it.
    repo = GitLibrary(tmp_path / "lib")
    repo.write("IL-0001.yaml", incident("IL-0001"))
    repo.commit("2024-01-01T00:00:00", "IL-0001")
    repo.git("tag", "v1.0.0-rc1")
    repo.write("IL-0002.yaml", incident("IL-0002"))
    repo.commit("2024-02-01T00:00:00", "IL-0002")
    repo.git("tag", "v1.0.0-rc2")
    repo.git("tag", "v1.0.0")  # the candidate released as it is
    found = {}
    for version in ("v1.0.0", "v1.0.0-rc2"):
        assert run_export(repo, tmp_path / version, "--version", version).code == 0
        changes = load(tmp_path / version, "changes.json")
        found[version] = (
            (changes["since"] or {}).get("version"),
            [(c["id"], c["change"]) for c in changes["changes"]],
        )
    repo.write("IL-0003.yaml", incident("IL-0003"))
    head = repo.commit("2024-03-01T00:00:00", "IL-0003")
    assert run_export(repo, tmp_path / "after").code == 0
    changes = load(tmp_path / "after", "changes.json")
    found["after"] = (
        changes["since"]["version"],
        [(c["id"], c["change"]) for c in changes["changes"]],
    )
    assert load(tmp_path / "after", "manifest.json")["version"] == f"v1.0.0-1-g{head[:12]}"
    assert found == {
        "v1.0.0": (None, [("IL-0002", "added"), ("IL-0001", "added")]),
        "v1.0.0-rc2": ("v1.0.0-rc1", [("IL-0002", "added")]),
        "after": ("v1.0.0", [("IL-0003", "added")]),
    }


def test_the_release_before_is_by_semantic_version_precedence():
    tags = ["v1.0.0", "v1.0.0-rc.1", "v1.0.0-rc.11", "v1.0.0-rc.2", "v1.0.0-beta", "v2026/12"]
    assert previous_release("v1.0.0", tags) is None  # a release skips its candidates
    assert previous_release("v1.0.0-rc.11", tags) == "v1.0.0-rc.2"  # numbers as numbers
    assert previous_release("v1.0.0-rc.1", tags) == "v1.0.0-beta"
    assert previous_release("v1.0.1", tags) == "v1.0.0"
    assert previous_release("v1.1.0", [*tags, "v1.0.10", "v1.0.9"]) == "v1.0.10"
    assert previous_release("v2026/12", tags) is None  # no version: the nearest tag is used


def test_an_incident_renamed_to_its_id_spelt_otherwise_is_modified_not_removed_and_added(
    repo, tmp_path
):
    # IL-00025 and IL-0025 are one id (IL204): renamed between two releases, the incident
    # was listed as IL-00025 removed and IL-0025 added, two incidents for a tool that
    # keys them by number, the first deleted against the data promises.
    repo.write("IL-00025.yaml", incident("IL-00025"))
    repo.commit("2024-03-01T00:00:00", "IL-00025")
    repo.git("tag", "v1.1.0")
    repo.git("mv", "incidents/IL-00025.yaml", "incidents/IL-0025.yaml")
    repo.write("IL-0025.yaml", incident("IL-00025").replace("id: IL-00025", "id: IL-0025"))
    repo.commit("2024-04-01T00:00:00", "IL-0025, as assign-ids writes it")
    repo.git("tag", "v1.2.0")
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    changes = load(out, "changes.json")
    assert changes["since"]["version"] == "v1.1.0"
    assert [(c["id"], c["change"], c["fields"]) for c in changes["changes"]] == [
        ("IL-0025", "modified", ["id"])
    ]
    renamed = load(out, "incidents/IL-0025.json")
    assert (renamed["id"], renamed["added"]) == ("IL-0025", "2024-03-01T00:00:00Z")
    # Deleted, it is removed under the id it was released with.
    repo.git("rm", "-q", "incidents/IL-0025.yaml")
    repo.commit("2024-05-01T00:00:00", "delete (against policy)")
    assert run_export(repo, out, "--since", "v1.1.0").code == 0
    changes = load(out, "changes.json")
    assert [(c["id"], c["change"]) for c in changes["changes"]] == [("IL-00025", "removed")]


def test_first_release_lists_everything_as_added(tmp_path):
    repo = GitLibrary(tmp_path / "lib")
    repo.write("IL-0001.yaml", incident("IL-0001"))
    repo.commit("2024-01-01T00:00:00")
    out = tmp_path / "out"
    assert run_export(repo, out, "--version", "v0.1.0").code == 0
    changes = load(out, "changes.json")
    assert changes["since"] is None
    assert [(c["id"], c["change"]) for c in changes["changes"]] == [("IL-0001", "added")]
    assert load(out, "manifest.json")["version"] == "v0.1.0"


def test_since_names_any_revision_and_a_deleted_incident_is_reported(repo, tmp_path):
    first = repo.git("rev-list", "--max-parents=0", "HEAD")
    repo.git("rm", "-q", "incidents/IL-0002.yaml")
    repo.commit("2024-05-01T00:00:00", "delete (against policy)")
    out = tmp_path / "out"
    assert run_export(repo, out, "--since", first).code == 0
    changes = load(out, "changes.json")
    assert changes["since"]["commit"] == first
    assert [(c["id"], c["change"], c["status"]) for c in changes["changes"]] == [
        ("IL-0002", "removed", None),
        ("IL-0003", "added", "withdrawn"),
    ]
    assert changes["changes"][0]["date"] == "2024-05-01T00:00:00Z"
    # The feed links the JSON of an incident in the export; a removed one has none, and
    # links changes.json, which says it is removed.
    entries = ET.fromstring((out / "feed.atom").read_bytes()).findall(f"{ATOM}entry")
    hrefs = [[link.get("href") for link in e.findall(f"{ATOM}link")] for e in entries]
    assert hrefs == [
        ["https://incident-library.github.io/latest/changes.json"],
        ["https://incident-library.github.io/latest/incidents/IL-0003.json"],
    ]
    # `:/text` names the newest commit whose message matches it.
    by_message = run_export(repo, tmp_path / "by-message", "--since", ":/first incidents")
    assert by_message.code == 0, by_message
    assert load(tmp_path / "by-message", "changes.json")["since"]["commit"] == first
    bad = run_export(repo, tmp_path / "other", "--since", "no-such-rev")
    assert bad.code == 2 and "'no-such-rev' is not a commit" in bad.err
    said = " ".join(run_curator("export", "--help").out.split())
    assert "exit 2 when" in said and "when --since names no commit" in said  # (as the help says)
    planted = tmp_path / "planted"
    injected = run_export(repo, tmp_path / "other", f"--since=--output={planted}")
    assert injected.code == 2 and "is not a commit" in injected.err
    assert not list(tmp_path.glob("planted*"))  # a revision is never taken for a git option


def test_since_a_revision_names_it_as_an_export_of_it_would(repo, tmp_path):
    # `since.version` was `git describe` of the revision: for a commit after hotfix
    # v1.0.1's branch was merged back after v1.1.0, the hotfix, fewer commits away
    # (v1.0.1-3-g…, where that commit's own export says v1.1.0-4-g…); for `--since v1.1.0`
    # where an annotated `v1.1.0-rc1` sits on the same commit, the candidate, which git
    # prefers. A tag names itself; another revision is named as an export of it is.
    between = hotfix_merged_back(repo)
    repo.write("IL-0007.yaml", incident("IL-0007"))
    repo.commit("2024-03-20T00:00:00", "IL-0007")

    def since_version(since: str) -> str:
        out = tmp_path / since
        assert run_export(repo, out, "--since", since).code == 0
        return load(out, "changes.json")["since"]["version"]

    found = {since: since_version(since) for since in (between, "release-1.0", "v1.0.1")}
    repo.git("tag", "-a", "-m", "annotated", "v1.1.0-rc1", "v1.1.0")
    found["v1.1.0"] = since_version("v1.1.0")
    assert found == {
        between: f"v1.1.0-4-g{between[:12]}",  # the hotfix's two commits, the merge, IL-0006
        "release-1.0": "v1.0.1",  # a branch at the tag: what its export would say
        "v1.0.1": "v1.0.1",
        "v1.1.0": "v1.1.0",
    }


def test_a_taxonomy_term_released_before_must_stay(repo, tmp_path):
    # "Taxonomy ids never disappear": a term removed (or renamed) since the previous release
    # was exported without a word, and consumers holding its id could no longer look it up.
    causes = repo.root / "schema" / "taxonomy" / "causes.yaml"
    text = causes.read_text(encoding="utf-8")
    start = text.index("  - id: resource-exhaustion\n")
    end = text.index("  - id: ", start + 1)
    causes.write_text(text[:start] + text[end:], encoding="utf-8")
    repo.commit("2024-03-01T00:00:00", "drop a term")
    run = run_export(repo, tmp_path / "out")
    assert run.code == 2
    assert "taxonomy term(s) of v1.0.0 are gone: resource-exhaustion (causes)" in run.err
    assert not (tmp_path / "out").exists()
    kept = text[start:end].replace(
        "    aliases:",
        "    deprecated:\n      replaced_by: capacity-limit\n      reason: 용량 한계와 같다.\n"
        "    aliases:",
        1,
    )
    causes.write_text(text[:start] + kept + text[end:], encoding="utf-8")
    repo.commit("2024-03-02T00:00:00", "keep it, deprecated")
    assert run_export(repo, tmp_path / "out").code == 0
    terms = load(tmp_path / "out", "taxonomy.json")["dimensions"][0]["terms"]
    kept_term = next(term for term in terms if term["id"] == "resource-exhaustion")
    assert kept_term["deprecated"]["replaced_by"] == "capacity-limit"


def test_a_release_that_changes_only_the_taxonomy_says_which_terms_changed(repo, tmp_path):
    # changes.json said nothing (`"changes": []`): a tool citing incidents by their terms
    # did not learn that a term it shows was deprecated, relabelled or moved.
    taxonomy = repo.root / "schema" / "taxonomy"
    causes = (taxonomy / "causes.yaml").read_text(encoding="utf-8")
    causes = causes.replace(
        "    parent: capacity-limit\n",
        "    parent: capacity-limit\n    deprecated:\n      replaced_by: capacity-limit\n"
        "      reason: 용량 한계와 같다.\n",
        1,
    ).replace("      en: Capacity limit\n", "      en: Capacity ceiling\n", 1)
    (taxonomy / "causes.yaml").write_text(causes, encoding="utf-8")
    symptoms = (taxonomy / "symptoms.yaml").read_text(encoding="utf-8")
    symptoms += (
        "  - id: gpu-ecc-error\n    label:\n      ko: GPU ECC 오류\n      en: GPU ECC error\n"
        "    description: |\n      GPU 메모리의 ECC 오류.\n"
    )
    (taxonomy / "symptoms.yaml").write_text(symptoms, encoding="utf-8")
    repo.commit("2024-03-01T00:00:00", "taxonomy only")
    assert run_export(repo, tmp_path / "out").code == 0
    changes = load(tmp_path / "out", "changes.json")
    assert changes["changes"] == []  # no incident's data changed
    assert changes["terms"] == [
        {
            "id": "capacity-limit",
            "dimension": "causes",
            "change": "modified",
            "fields": ["label"],
            "deprecated": None,
        },
        {
            "id": "resource-exhaustion",
            "dimension": "causes",
            "change": "modified",
            "fields": ["deprecated"],
            "deprecated": {"replaced_by": "capacity-limit", "reason": "용량 한계와 같다."},
        },
        {
            "id": "gpu-ecc-error",
            "dimension": "symptoms",
            "change": "added",
            "fields": [],
            "deprecated": None,
        },
    ]
    # A term written as the release wrote it is no change, whatever its layout.
    repo.git("tag", "v1.1.0")
    symptoms = symptoms.replace("    description: |\n      GPU 메모리의 ECC 오류.\n", "")
    symptoms += "    description: GPU 메모리의 ECC 오류.\n"
    (taxonomy / "symptoms.yaml").write_text(symptoms, encoding="utf-8")
    repo.commit("2024-03-02T00:00:00", "the same terms")
    assert run_export(repo, tmp_path / "out").code == 0
    assert load(tmp_path / "out", "changes.json")["terms"] == []


def test_a_taxonomy_entry_without_a_text_id_then_is_no_term_that_must_stay(repo, tmp_path):
    # `--since` may name a commit whose taxonomy held entries lint refuses: no consumer can
    # hold their ids, so they neither stop the export nor break it.
    causes = repo.root / "schema" / "taxonomy" / "causes.yaml"
    text = causes.read_text(encoding="utf-8")
    causes.write_text(text + "  - not-a-term\n  - id: [7]\n", encoding="utf-8")
    since = repo.commit("2024-03-01T00:00:00", "broken taxonomy")
    causes.write_text(text, encoding="utf-8")
    repo.commit("2024-03-02T00:00:00", "fixed")
    run = run_export(repo, tmp_path / "out", "--since", since)
    assert run.code == 0, run.err
    assert load(tmp_path / "out", "changes.json")["changes"] == []


def test_an_incident_made_a_draft_again_is_removed_as_of_its_last_commit(repo, tmp_path):
    # Its `removed` entry was dated by HEAD, not by the commit that touched its file last,
    # so the entry (and its feed id, `#removed-<date>`) moved with every later commit.
    # Its title is the one released: the draft's new title never was (docs/export.md).
    draft = ("status: published", "status: draft"), (TITLE, "초안으로 되돌리며 바꾼 제목")
    repo.write("IL-0002.yaml", incident("IL-0002", GPU, *draft))
    repo.commit("2024-03-01T00:00:00", "IL-0002 back to draft")
    repo.write("IL-0005.yaml", incident("IL-0005"))
    repo.commit("2024-04-01T00:00:00", "IL-0005")
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    changes = load(out, "changes.json")["changes"]
    assert [(c["id"], c["change"], c["date"], c["status"], c["title"]) for c in changes] == [
        ("IL-0005", "added", "2024-04-01T00:00:00Z", "published", TITLE),
        ("IL-0002", "removed", "2024-03-01T00:00:00Z", None, TITLE),
    ]


def test_a_deleted_incident_is_removed_as_of_its_deletion_not_a_later_commit(repo, tmp_path):
    # The deleted file has no dates now, only in `history.gone`: its entry, and its feed id
    # (`#removed-<date>`), must not move with the commits after its deletion.
    repo.git("rm", "-q", "incidents/IL-0002.yaml")
    repo.commit("2024-03-01T00:00:00", "delete (against policy)")
    repo.write("IL-0005.yaml", incident("IL-0005"))
    repo.commit("2024-04-01T00:00:00", "IL-0005")
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    changes = load(out, "changes.json")["changes"]
    assert [(c["id"], c["change"], c["date"], c["title"], c["status"]) for c in changes] == [
        ("IL-0005", "added", "2024-04-01T00:00:00Z", TITLE, "published"),
        ("IL-0002", "removed", "2024-03-01T00:00:00Z", TITLE, None),
    ]


def test_since_a_commit_whose_versions_were_never_releasable_lists_them_as_added(repo, tmp_path):
    # `--since` names any revision: there a file may not parse, not be a mapping, or hold
    # a placeholder id. None of those was released, so today's versions are `added`, and
    # the old ones are neither `removed` nor an internal error.
    repo.write("IL-0005.yaml", "id: [IL-0005\n")
    repo.write("IL-0006.yaml", "- IL-0006\n")
    repo.write("IL-NEW-x.yaml", incident("IL-NEW-x"))
    since = repo.commit("2024-03-01T00:00:00", "work in progress")
    repo.write("IL-0005.yaml", incident("IL-0005"))
    repo.write("IL-0006.yaml", incident("IL-0006"))
    repo.git("mv", "incidents/IL-NEW-x.yaml", "incidents/IL-0007.yaml")
    repo.write("IL-0007.yaml", incident("IL-0007"))
    repo.commit("2024-04-01T00:00:00", "fixed and numbered")
    out = tmp_path / "out"
    run = run_export(repo, out, "--since", since)
    assert run.code == 0, run.err
    changes = load(out, "changes.json")["changes"]
    assert [(c["id"], c["change"], c["date"]) for c in changes] == [
        ("IL-0005", "added", "2024-04-01T00:00:00Z"),
        ("IL-0006", "added", "2024-04-01T00:00:00Z"),
        ("IL-0007", "added", "2024-04-01T00:00:00Z"),
    ]


@pytest.mark.parametrize("then_deleted", [False, True])
def test_an_incident_released_when_a_rule_was_looser_is_still_reported(
    repo, tmp_path, then_deleted
):
    # v1.1.0 released IL-0005 with a control character in its title, which today's model
    # refuses. Its old version was skipped: fixed, it was reported `added`; deleted, its
    # removal was hidden ("reported, never hidden", docs/export.md).
    repo.write("IL-0005.yaml", incident("IL-0005", (f"title: {TITLE}", 'title: "옛 제목\\a"')))
    repo.commit("2024-03-01T00:00:00", "IL-0005")
    repo.git("tag", "v1.1.0")
    if then_deleted:
        repo.git("rm", "-q", "incidents/IL-0005.yaml")
    else:
        repo.write("IL-0005.yaml", incident("IL-0005"))
    repo.commit("2024-04-01T00:00:00", "IL-0005 fixed" if not then_deleted else "IL-0005 gone")
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    changes = load(out, "changes.json")["changes"]
    entries = [(c["id"], c["change"], c["title"], c["fields"]) for c in changes]
    if then_deleted:
        assert entries == [("IL-0005", "removed", "옛 제목\a", [])]
    else:
        assert entries == [("IL-0005", "modified", TITLE, ["title"])]


def test_the_feed_stays_well_formed_when_a_removed_title_holds_a_control_character(repo, tmp_path):
    # The `removed` entry keeps the title as released (changes.json escapes the control
    # character); written into feed.atom as it stood, it made the whole feed unreadable:
    # XML 1.0 cannot hold U+0007 at all, not even as a character reference.
    old_title = 'title: "옛\\a 제목\\uFFFE"'  # (a noncharacter, which XML 1.0 refuses too)
    repo.write("IL-0005.yaml", incident("IL-0005", (f"title: {TITLE}", old_title)))
    repo.commit("2024-03-01T00:00:00", "IL-0005")
    repo.git("tag", "v1.1.0")
    repo.git("rm", "-q", "incidents/IL-0005.yaml")
    repo.commit("2024-04-01T00:00:00", "IL-0005 gone")
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    assert [c["title"] for c in load(out, "changes.json")["changes"]] == ["옛\a 제목\ufffe"]
    # The one `\uXXXX` escape docs/export.md allows: JSON cannot hold U+0007 otherwise.
    assert '"옛\\u0007 제목\ufffe"' in (out / "changes.json").read_text(encoding="utf-8")
    entries = ET.fromstring((out / "feed.atom").read_bytes()).findall(f"{ATOM}entry")
    assert [e.findtext(f"{ATOM}title") for e in entries] == ["[삭제] IL-0005: 옛\ufffd 제목\ufffd"]


def test_a_copy_in_a_subfolder_of_incidents_hides_no_change(repo, tmp_path):
    # Lint and the export read the files directly in incidents/ only; the release compared
    # with was read with its subfolders, by file name: the unchanged copy `archive/
    # IL-0002.yaml` stood for IL-0002, whose change was then not listed at all. (In a
    # hidden folder, which lint leaves alone as it does hidden files; it refuses a folder
    # holding incidents otherwise, IL107. Under archive/: listed after IL-0002.yaml.)
    (repo.root / "incidents" / "archive" / ".old").mkdir(parents=True)
    repo.write("archive/.old/IL-0002.yaml", incident("IL-0002", GPU))
    repo.commit("2024-03-01T00:00:00", "an archived copy")
    repo.git("tag", "v1.1.0")
    repo.write("IL-0002.yaml", incident("IL-0002"))
    repo.commit("2024-04-01T00:00:00", "IL-0002 without gpu")
    out = tmp_path / "out"
    run = run_export(repo, out)
    assert run.code == 0, run.err
    changes = load(out, "changes.json")["changes"]
    assert [(c["id"], c["change"], c["fields"]) for c in changes] == [
        ("IL-0002", "modified", ["facets"])
    ]


def test_a_change_of_layout_alone_moves_modified_but_is_no_change(repo, tmp_path):
    # docs/export.md: `modified` moves with any commit to the file; changes.json lists only
    # changes of data, and text does not keep the line breaks at its end.
    relaid = incident(
        "IL-0002",
        GPU,
        ("symptom: |\n  학습 처리량이 떨어졌다.\n", "symptom: 학습 처리량이 떨어졌다.\n"),
        ("lessons: |\n", "lessons: |+\n"),  # keeps the blank line below
        ("  작은 규모 시험으로는 알 수 없었다.\n", "  작은 규모 시험으로는 알 수 없었다.\n\n"),
    )
    repo.write("IL-0002.yaml", "# 배치만 바꿨다\n" + relaid)
    repo.commit("2024-03-01T00:00:00", "layout only")
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    assert load(out, "changes.json")["changes"] == []
    exported = load(out, "incidents/IL-0002.json")
    assert exported["modified"] == "2024-03-01T00:00:00Z"
    assert exported["symptom"] == "학습 처리량이 떨어졌다."
    assert exported["lessons"] == "작은 규모 시험으로는 알 수 없었다."


def test_the_feed_holds_the_newest_500_changes_and_counts_them_all():
    def change(number: int) -> Change:
        day = dt.datetime(2024, 1, 1, tzinfo=dt.UTC) + dt.timedelta(hours=number)
        return Change(
            id=f"IL-{number:04d}",
            change="added",
            date=day.strftime("%Y-%m-%dT%H:%M:%SZ"),
            title=f"사건 {number}",
            status="published",
            fields=[],
        )

    newest_first = [change(number) for number in range(501, 0, -1)]
    until = ReleasePoint(version="v1.0.0", commit="a" * 40)
    changes = Changes(since=None, until=until, changes=newest_first, terms=[])
    feed = ET.fromstring(feed_bytes(changes, newest_first[0].date, "https://example.org/"))
    titles = [entry.findtext(f"{ATOM}title") for entry in feed.findall(f"{ATOM}entry")]
    assert len(titles) == 500
    assert (titles[0], titles[-1]) == ("[추가] IL-0501: 사건 501", "[추가] IL-0002: 사건 2")
    assert feed.findtext(f"{ATOM}subtitle") == "v1.0.0 since the first release: 501 change(s)"


def test_feed_is_atom_with_ids_dates_and_links(repo, tmp_path):
    repo.write("IL-0002.yaml", incident("IL-0002", GPU, ("occurred: 2024-05", "occurred: 2024-04")))
    repo.commit("2024-03-01T00:00:00")
    out = tmp_path / "out"
    assert run_export(repo, out, "--base-url", "https://example.org/library").code == 0
    feed = ET.fromstring((out / "feed.atom").read_bytes())
    assert feed.tag == f"{ATOM}feed"
    for required in ("id", "title", "updated", "author"):
        assert feed.find(f"{ATOM}{required}") is not None, required
    assert feed.findtext(f"{ATOM}updated") == "2024-03-01T00:00:00Z"  # the commit's time
    self_link = feed.find(f"{ATOM}link[@rel='self']")
    assert self_link is not None
    assert self_link.get("href") == "https://example.org/library/latest/feed.atom"
    entries = feed.findall(f"{ATOM}entry")
    assert len(entries) == 1
    entry = entries[0]
    assert entry.findtext(f"{ATOM}updated") == "2024-03-01T00:00:00Z"
    assert "IL-0002" in (entry.findtext(f"{ATOM}title") or "")
    links = {link.get("type"): link.get("href") for link in entry.findall(f"{ATOM}link")}
    assert links == {
        "application/json": "https://example.org/library/latest/incidents/IL-0002.json"
    }
    # The id names the change; it is no address, and keeps the form earlier feeds gave it.
    expected_id = "https://example.org/library/incidents/IL-0002/#modified-2024-03-01T00:00:00Z"
    assert entry.findtext(f"{ATOM}id") == expected_id


# --- the contract ------------------------------------------------------------------------


def _offline(uri: str) -> Resource:
    raise AssertionError(f"the schema reaches outside the export for {uri}")


def exported_with_schemas(repo: GitLibrary, tmp_path: Path) -> list[tuple[str, dict, object]]:
    """(path, the schema the export ships for it, its data) for every JSON file of a fresh
    export; every schema is used, and only CSV, Atom and the schemas have none."""
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    found = []
    for path in files_of(out):
        name = schema_for(path)
        if name is None:
            assert path in ("incidents.csv", "feed.atom") or path.startswith("schema/"), path
            continue
        found.append((path, load(out, f"schema/{name}"), load(out, path)))
    assert {schema_for(path) for path, _, _ in found} == set(SCHEMAS)
    return found


def test_every_export_file_validates_against_the_schema_the_export_ships(repo, tmp_path):
    # The schemas' `$id`s named https://incident-library.github.io/schema/export/…, which
    # nothing publishes, and the export held no schema: a consumer could not fetch the one
    # a given export was written with. Each $ref resolves inside its file, offline.
    registry: Registry = Registry(retrieve=_offline)
    for path, schema, data in exported_with_schemas(repo, tmp_path):
        assert "$id" not in schema, path
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema, registry=registry)
        assert [e.message for e in validator.iter_errors(data)] == [], path
    out = tmp_path / "out"
    manifest = load(out, "manifest.json")
    listed = {entry["path"]: entry for entry in manifest["files"]}
    for name in SCHEMAS:
        shipped = (out / "schema" / name).read_bytes()
        # The bytes the repository publishes in schema/export/, listed with their checksum.
        assert shipped == (REPO / "schema" / "export" / name).read_bytes(), name
        assert listed[f"schema/{name}"] == {
            "path": f"schema/{name}",
            "size": len(shipped),
            "sha256": hashlib.sha256(shipped).hexdigest(),
        }
    # Not a validator that passes everything: a file the contract forbids is refused.
    incident_schema = load(out, "schema/incident.schema.json")
    validator = jsonschema.Draft202012Validator(incident_schema, registry=registry)
    broken = {**load(out, "incidents/IL-0001.json"), "facets": {"causes": "nccl"}}
    assert not validator.is_valid(broken)


def _from_a_later_minor_version(value):
    """`value` as a later 1.x export could write it: a key nobody knows yet in every
    object, and new values of the open sets."""
    if isinstance(value, list):
        return [_from_a_later_minor_version(item) for item in value]
    if not isinstance(value, dict):
        return value
    later = {key: _from_a_later_minor_version(item) for key, item in value.items()}
    later["added_in_1_9"] = {"anything": [1, "둘"]}
    for key, new in (("change", "renamed"), ("dimension", "detections")):
        if key in later:
            later[key] = new
    if "terms" in later and "label" in later and "id" in later:  # a taxonomy dimension
        later["id"] = "detections"
    return later


def test_a_schema_accepts_what_a_later_minor_version_may_add(repo, tmp_path):
    # docs/export.md: a new field or a new value of an open set is a minor version, which
    # a consumer validating with the schema it saved at 1.x must accept.
    for path, schema, data in exported_with_schemas(repo, tmp_path):
        later = _from_a_later_minor_version(data)
        errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(later)]
        assert errors == [], (path, errors[:3])
        if path in ("changes.json", "graph.json", "taxonomy.json"):  # open sets tried
            assert "renamed" in str(later) or "detections" in str(later), path
    taxonomy = json.loads((REPO / "schema" / "export" / "taxonomy.schema.json").read_text("utf-8"))
    dimension = taxonomy["$defs"]["ExportedDimension"]["properties"]["id"]
    assert dimension["examples"] == ["causes", "components", "symptoms", "contributing_factors"]


def test_the_schemas_reject_what_the_contract_forbids():
    schema = json.loads((REPO / "schema" / "export" / "incident.schema.json").read_text("utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    item: dict[str, object] = {}  # start from nothing: every key is required
    assert not validator.is_valid(item)
    manifest = json.loads((REPO / "schema" / "export" / "manifest.schema.json").read_text("utf-8"))
    assert not jsonschema.Draft202012Validator(manifest).is_valid(
        {"schema_version": "1", "version": "v1", "commit": "x", "generated_at": "now"}
    )


def _examples(node, root):
    """(where, example, the schema it is an example of) for every example in `node`."""
    if isinstance(node, list):
        for item in node:
            yield from _examples(item, root)
    elif isinstance(node, dict):
        described = {key: value for key, value in node.items() if key != "examples"}
        for example in node.get("examples", []):
            yield node.get("title", "?"), example, {**described, "$defs": root.get("$defs", {})}
        for value in described.values():
            yield from _examples(value, root)


def _texts(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | dict):
        for item in value.values() if isinstance(value, dict) else value:
            yield from _texts(item)


def test_every_schema_example_is_a_value_an_export_can_hold():
    # A consumer builds its fixtures from them: the text examples ended with a line break,
    # which exported text never does (docs/export.md).
    for name in SCHEMAS:
        schema = json.loads((REPO / "schema" / "export" / name).read_text(encoding="utf-8"))
        for where, example, described in _examples(schema, schema):
            assert jsonschema.Draft202012Validator(described).is_valid(example), (name, where)
            assert not any(text.endswith("\n") for text in _texts(example)), (name, where)


def test_committed_export_schemas_match_the_models():
    for name in SCHEMAS:
        committed = (REPO / "schema" / "export" / name).read_text(encoding="utf-8")
        assert committed == render(name), (
            f"schema/export/{name} is stale: python -m curator.export.schema --write "
            "(and bump SCHEMA_VERSION: minor when adding, major when removing or renaming)"
        )


def test_every_schema_property_is_described():
    def undescribed(node, where):
        if isinstance(node, dict):
            for key, value in node.get("properties", {}).items():
                if "description" not in value:
                    yield f"{where}.{key}"
            for key, value in node.items():
                yield from undescribed(value, f"{where}/{key}")
        elif isinstance(node, list):
            for value in node:
                yield from undescribed(value, where)

    for name in SCHEMAS:
        schema = json.loads((REPO / "schema" / "export" / name).read_text(encoding="utf-8"))
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert schema.get("description"), name
        assert list(undescribed(schema, name)) == []


# --- integrity ---------------------------------------------------------------------------


def test_same_commit_exports_byte_identical_files_from_any_clone(repo, tmp_path):
    first, second, third = tmp_path / "a", tmp_path / "b", tmp_path / "deeper" / "c"
    assert run_export(repo, first).code == 0
    assert run_export(repo, second).code == 0
    clone = tmp_path / "elsewhere" / "clone"
    subprocess.run(["git", "clone", "-q", str(repo.root), str(clone)], check=True)
    third.parent.mkdir()
    assert run_curator("export", "--root", str(clone), "--out", str(third)).code == 0
    exported = files_of(first)
    assert exported == files_of(second) == files_of(third)
    text = b"".join(exported.values())
    assert str(tmp_path).encode() not in text  # no absolute paths
    # Korean is written as UTF-8, never escaped: no `\u` after an odd run of backslashes (a
    # shipped schema's patterns hold `\\u00a0`, a backslash and `u00a0`, for the regex).
    assert re.search(rb"(?<!\\)(\\\\)*\\u", text) is None
    assert b"\r\n" not in b"".join(v for k, v in exported.items() if k != "incidents.csv")


def test_the_user_git_configuration_does_not_change_the_export(repo, tmp_path):
    # `log.showRoot=false` hid the files the first commit added: the export failed, "has no
    # commit in the history of HEAD", on the machines of users who set it.
    # `column.ui=always` would set `git tag --list` in columns, one line for all the tags,
    # and v1.1.0 compare with its candidate, the nearest tag.
    repo.write("IL-0005.yaml", incident("IL-0005"))
    repo.commit("2024-03-01T00:00:00", "IL-0005")
    repo.git("tag", "v1.1.0-rc1")
    repo.write("IL-0006.yaml", incident("IL-0006"))
    repo.commit("2024-04-01T00:00:00", "IL-0006")
    repo.git("tag", "v1.1.0")
    assert run_export(repo, tmp_path / "plain").code == 0
    assert load(tmp_path / "plain", "changes.json")["since"]["version"] == "v1.0.0"
    configured = [("log.showRoot", "false"), ("diff.renames", "false"), ("column.ui", "always")]
    for key, value in configured:
        repo.git("config", key, value)
    run = run_export(repo, tmp_path / "configured")
    assert run.code == 0, run.err
    assert files_of(tmp_path / "configured") == files_of(tmp_path / "plain")


def test_the_user_rename_limit_does_not_change_when_an_incident_was_added(tmp_path):
    # Numbering placeholders renames and edits their files in one commit; a user's low
    # `diff.renameLimit` made git see additions there, and `added` moved to that commit.
    repo = GitLibrary(tmp_path / "lib")
    for name in ("a", "b"):
        repo.write(f"IL-NEW-{name}.yaml", incident(f"IL-NEW-{name}"))
    repo.commit("2024-01-01T00:00:00", "new incidents")
    for number, name in ((1, "a"), (2, "b")):
        repo.git("mv", f"incidents/IL-NEW-{name}.yaml", f"incidents/IL-000{number}.yaml")
        repo.write(f"IL-000{number}.yaml", incident(f"IL-000{number}"))
    repo.commit("2024-01-02T00:00:00", "assign ids")
    assert run_export(repo, tmp_path / "plain").code == 0
    assert load(tmp_path / "plain", "incidents/IL-0002.json")["added"] == "2024-01-01T00:00:00Z"
    repo.git("config", "diff.renameLimit", "1")
    run = run_export(repo, tmp_path / "configured")
    assert run.code == 0, run.err
    assert files_of(tmp_path / "configured") == files_of(tmp_path / "plain")


def test_the_default_version_is_the_tag_else_described_with_twelve_hex_digits(repo, tmp_path):
    # Twelve digits on every machine: git's default abbreviation grows with the repository.
    repo.write("IL-0005.yaml", incident("IL-0005"))
    head = repo.commit("2024-03-01T10:00:00")
    assert run_export(repo, tmp_path / "out").code == 0
    assert load(tmp_path / "out", "manifest.json")["version"] == f"v1.0.0-1-g{head[:12]}"
    repo.git("tag", "-d", "v1.0.0")
    assert run_export(repo, tmp_path / "out").code == 0
    assert load(tmp_path / "out", "manifest.json")["version"] == head[:12]


@pytest.mark.parametrize(
    ("tagged", "described"),
    [
        # git describe prefers an annotated tag to a lightweight one, and of two annotated
        # tags the one tagged later: both times the candidate.
        ((("-a", "-m", "candidate", "v1.1.0-rc1"), ("v1.1.0",)), "v1.1.0-rc1"),
        (
            (("-a", "-m", "release", "v1.1.0"), ("-a", "-m", "candidate", "v1.1.0-rc1")),
            "v1.1.0-rc1",
        ),
        # The release tagged on the candidate's tag, not its commit: still the commit's.
        (
            (
                ("-a", "-m", "candidate", "v1.1.0-rc1"),
                ("-a", "-m", "release", "v1.1.0", "v1.1.0-rc1"),
            ),
            "v1.1.0",
        ),
    ],
    ids=["annotated-candidate-lightweight-release", "both-annotated-candidate-later", "nested"],
)
def test_a_commit_tagged_as_a_candidate_and_its_release_records_the_release(
    repo, tmp_path, tagged, described
):
    # Without --version, the export recorded `git describe`'s choice among the tags of
    # the commit, the candidate, and compared with v1.0.0 as a candidate would (its own
    # earlier candidate v1.1.0-rc0 in between). The highest version among them is recorded.
    repo.write("IL-0005.yaml", incident("IL-0005"))
    repo.commit("2024-03-01T00:00:00", "IL-0005")
    repo.git("tag", "v1.1.0-rc0")
    repo.write("IL-0006.yaml", incident("IL-0006"))
    repo.commit("2024-04-01T00:00:00", "IL-0006")
    first, second = tagged
    repo.git("tag", *first, when="2024-04-02T00:00:00")
    repo.git("tag", *second, when="2024-04-03T00:00:00")
    assert repo.git("describe", "--tags") == described
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    changes = load(out, "changes.json")
    assert (
        load(out, "manifest.json")["version"],
        changes["until"]["version"],
        changes["since"]["version"],
        [c["id"] for c in changes["changes"]],
    ) == ("v1.1.0", "v1.1.0", "v1.0.0", ["IL-0006", "IL-0005"])


def test_between_releases_the_default_version_names_the_release_compared_with(repo, tmp_path):
    # The version was `git describe`'s nearest tag: once hotfix v1.0.1's branch was merged
    # back after v1.1.0, that was the hotfix, fewer commits away, while `since` said v1.1.0,
    # so the feed read "v1.0.1-3-g… since v1.1.0". A tag's export, an explicit --version and
    # a commit before any tag keep their version.
    head = hotfix_merged_back(repo)
    assert repo.git("describe", "--tags", "--abbrev=12") == f"v1.0.1-3-g{head[:12]}"
    found = {}
    for args in ((), ("--version", "v1.2.0-rc1")):
        out = tmp_path / "-".join(("out", *args))
        assert run_export(repo, out, *args).code == 0
        changes, feed = load(out, "changes.json"), ET.fromstring((out / "feed.atom").read_bytes())
        found[args] = (
            load(out, "manifest.json")["version"],
            changes["until"]["version"],
            changes["since"]["version"],
            feed.findtext(f"{ATOM}subtitle"),
        )
    described = f"v1.1.0-4-g{head[:12]}"  # the hotfix's two commits, the merge, IL-0006
    assert found == {
        (): (described, described, "v1.1.0", f"{described} since v1.1.0: 3 change(s)"),
        ("--version", "v1.2.0-rc1"): (
            "v1.2.0-rc1",
            "v1.2.0-rc1",
            "v1.1.0",
            "v1.2.0-rc1 since v1.1.0: 3 change(s)",
        ),
    }
    repo.git("tag", "v1.2.0")
    assert run_export(repo, tmp_path / "tagged").code == 0
    assert load(tmp_path / "tagged", "manifest.json")["version"] == "v1.2.0"


def test_manifest_describes_the_commit_and_checks_every_file(repo, tmp_path):
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    manifest = load(out, "manifest.json")
    head = repo.git("rev-parse", "HEAD")
    assert manifest["schema_version"] == SCHEMA_VERSION == "1.1.0"
    assert (manifest["version"], manifest["commit"]) == ("v1.0.0", head)
    assert manifest["generated_at"] == "2024-02-01T10:00:00Z"
    assert manifest["counts"] == {
        "incidents": 3, "published": 2, "withdrawn": 1,
        "terms": len(load(out, "taxonomy.json")["dimensions"][0]["terms"])
        + sum(len(d["terms"]) for d in load(out, "taxonomy.json")["dimensions"][1:]),
        "changes": 3,
    }  # fmt: skip
    exported = files_of(out)
    listed = {entry["path"]: entry for entry in manifest["files"]}
    assert set(listed) == set(exported) - {"manifest.json"}
    for path, data in exported.items():
        if path != "manifest.json":
            assert listed[path]["size"] == len(data)
            assert listed[path]["sha256"] == hashlib.sha256(data).hexdigest()


def test_editing_one_incident_changes_only_its_file_and_the_aggregates(repo, tmp_path):
    before, after = tmp_path / "before", tmp_path / "after"
    assert run_export(repo, before).code == 0
    repo.write("IL-0002.yaml", incident("IL-0002", ("    - nccl\n", "    - nccl\n    - nvlink\n")))
    repo.commit("2024-06-01T00:00:00", "IL-0002: add nvlink")
    assert run_export(repo, after).code == 0
    old, new = files_of(before), files_of(after)
    assert set(old) == set(new)
    changed = sorted(path for path in new if old[path] != new[path])
    print("changed between the two exports:", *changed, sep="\n  ")
    assert changed == sorted(
        {"incidents/IL-0002.json", "changes.json", "feed.atom", "manifest.json", *AGGREGATES}
    )
    change = load(after, "changes.json")["changes"]
    assert [(c["id"], c["change"], c["fields"]) for c in change] == [
        ("IL-0002", "modified", ["facets"])
    ]


def test_incidents_json_is_streamed_as_one_dump_would_write_it(repo, tmp_path):
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    streamed = (out / "incidents.json").read_text(encoding="utf-8")
    assert streamed == json.dumps(json.loads(streamed), ensure_ascii=False, indent=2) + "\n"
    drafts_only = GitLibrary(tmp_path / "drafts")
    drafts_only.write("IL-0001.yaml", incident("IL-0001", ("status: published", "status: draft")))
    drafts_only.commit("2024-01-01T00:00:00")
    assert run_export(drafts_only, tmp_path / "empty").code == 0
    assert (tmp_path / "empty" / "incidents.json").read_bytes() == b'{\n  "incidents": []\n}\n'


def test_an_export_leaves_what_it_made_to_a_caller_that_holds_it(repo, tmp_path):
    # `held` (the CLI's, whose process ends next): the same export, what it made left there
    # rather than freed.
    held: list[object] = []
    exported = export(Library.at(repo.root), tmp_path / "held", held=held)
    assert exported == export(Library.at(repo.root), tmp_path / "freed")
    manifest = exported.manifest
    assert files_of(tmp_path / "held") == files_of(tmp_path / "freed")
    snapshots = [item for item in held if isinstance(item, Snapshot)]
    assert [snapshot.head.sha for snapshot in snapshots] == [manifest.commit]
    # Lint's results too: every file's, held past the cross-file rules and the aggregate
    # files, where Python freed them one by one.
    results = [item for item in held if isinstance(item, list) and item]
    checked = [r for r in results if isinstance(r[0], Checked)]
    names = [[Path(result.display).name for result in r] for r in checked]
    assert names == [Library.at(repo.root).incident_names()]


def test_the_progress_line_counts_each_incident_file_once_drafts_included(repo, tmp_path):
    # What a person at a terminal sees ("exporting 3/4 files"): the count must reach the
    # total, never pass it. (Progress draws only on a terminal, so it is recorded here.)
    calls: dict[str, list[tuple[int, int]]] = {}

    class Recorder(Progress):
        def __init__(self, what: str) -> None:
            super().__init__(what, enabled=False)
            self.calls = calls[what] = []

        def __call__(self, done: int, total: int) -> None:
            self.calls.append((done, total))

    # Cold, lint renders every incident as it parses its file: it counts them all, and
    # nothing is left to count after it.
    export(Library.at(repo.root), tmp_path / "cold", ExportOptions(progress=Recorder))
    assert calls["linting"] == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert calls["exporting"] == []
    # Warm, lint's results are cached, so the export renders them all itself.
    export(Library.at(repo.root), tmp_path / "warm", ExportOptions(progress=Recorder))
    assert calls["linting"] == []
    assert calls["exporting"] == [(1, 4), (2, 4), (3, 4), (4, 4)]
    # Half warm: the files lint checks again are counted by lint, the others after it.
    repo.write("IL-0002.yaml", incident("IL-0002", GPU, ("occurred: 2024-05", "occurred: 2024-04")))
    repo.commit("2024-06-01T00:00:00")
    export(Library.at(repo.root), tmp_path / "half", ExportOptions(progress=Recorder))
    assert calls["linting"] == [(4, 4)]
    assert calls["exporting"] == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_a_failure_midway_leaves_the_previous_export_intact(repo, tmp_path, monkeypatch):
    out = tmp_path / "out"
    export(Library.at(repo.root), out)
    previous = files_of(out)
    repo.write("IL-0002.yaml", incident("IL-0002", GPU, ("occurred: 2024-05", "occurred: 2024-04")))
    repo.commit("2024-06-01T00:00:00")

    def broken_graph(*args):  # by then the incident files are written: a failure mid-way
        raise OSError("disk full")

    monkeypatch.setattr("curator.export.GraphStream.finish", broken_graph)
    with pytest.raises(OSError, match="disk full"):
        export(Library.at(repo.root), out)
    assert files_of(out) == previous
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lib", "out"]  # no temp folder left
    monkeypatch.undo()
    export(Library.at(repo.root), out)
    assert files_of(out) != previous


# An export killed mid-way (SIGKILL: no `finally` runs): its graph is the last file it writes.
KILLED_EXPORT = """
import os, signal, sys
from pathlib import Path
import curator.export
from curator.export import export
from curator.library import Library

def killed(*args):
    os.kill(os.getpid(), signal.SIGKILL)

curator.export.GraphStream.finish = killed
export(Library.at(Path(sys.argv[1])), Path(sys.argv[2]))
"""

# An export that is still running: its temporary folder, made and locked, then it waits.
LIVE_EXPORT = """
import sys
from pathlib import Path
from curator.export.write import ExportWriter

writer = ExportWriter(Path(sys.argv[1])).__enter__()
(writer.folder / "incidents.json").write_text("{}")
print(writer.folder.name, flush=True)
sys.stdin.read()
"""


def partials(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".curator-partial-" in p.name)


def test_the_folder_of_an_export_killed_midway_is_removed_by_the_next_one(repo, tmp_path):
    # It stayed forever, hidden: ~1.1 GB per killed run at 100,000 incidents.
    out = tmp_path / "out"
    killed = subprocess.run([sys.executable, "-c", KILLED_EXPORT, str(repo.root), str(out)])
    assert killed.returncode == -signal.SIGKILL
    (left,) = partials(tmp_path)
    assert (
        left.startswith(".out.curator-partial-") and len(left) == len(".out.curator-partial-") + 8
    )
    assert (tmp_path / left / "incidents" / "IL-0001.json").is_file()  # it was mid-way
    run = run_export(repo, out)
    assert run.code == 0, run.err
    # Nothing said of the folder removed: lint's one warning (IL-0002's), the summary.
    assert run.out.count("\n") == 1 and " IL304 [warning] " in run.out, run.out
    commit = repo.git("rev-parse", "HEAD")[:12]
    assert run.err == f"exported 3 incidents, v1.0.0 ({commit}), to {out}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lib", "out"]


def test_the_folder_of_a_running_export_is_left_to_it(repo, tmp_path):
    out = tmp_path / "out"
    live = subprocess.Popen(
        [sys.executable, "-c", LIVE_EXPORT, str(out)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        name = live.stdout.readline().decode().strip()
        assert name.startswith(".out.curator-partial-")
        assert run_export(repo, out).code == 0  # another export to the same folder meanwhile
        assert partials(tmp_path) == [name]
        assert (tmp_path / name / "incidents.json").read_text() == "{}"
    finally:
        live.kill()
        live.wait()
    assert run_export(repo, out).code == 0  # once it is gone, its folder goes too
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lib", "out"]


def test_only_curator_s_own_unlocked_folders_beside_out_are_removed(repo, tmp_path):
    # A user's dot-folders, another export's, a link (never followed), a file: all kept.
    kept = [
        ".out.backup",
        ".out.abcdefgh",
        ".out.curator-partial-mine",
        ".other.curator-partial-abcdefgh",
    ]
    for name in kept:
        (tmp_path / name).mkdir()
        (tmp_path / name / "keep.txt").write_text("mine", encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "keep.txt").write_text("mine", encoding="utf-8")
    (tmp_path / ".out.curator-partial-linked00").symlink_to(tmp_path / "elsewhere")
    (tmp_path / ".out.curator-partial-afile000").write_text("mine", encoding="utf-8")
    dead = tmp_path / ".out.curator-partial-dead0000"  # (as mkdtemp names it, and unlocked)
    dead.mkdir()
    assert run_export(repo, tmp_path / "out").code == 0
    assert not dead.exists()
    for name in [*kept, "elsewhere", ".out.curator-partial-linked00"]:
        assert (tmp_path / name / "keep.txt").read_text(encoding="utf-8") == "mine"
    assert (tmp_path / ".out.curator-partial-linked00").is_symlink()
    assert (tmp_path / ".out.curator-partial-afile000").read_text(encoding="utf-8") == "mine"


def test_a_dead_export_s_folder_of_another_user_is_left(repo, tmp_path, monkeypatch):
    dead = tmp_path / ".out.curator-partial-dead0000"
    dead.mkdir()
    monkeypatch.setattr(write.os, "getuid", lambda: os.stat(dead).st_uid + 1)
    export(Library.at(repo.root), tmp_path / "out")
    assert dead.is_dir()


def test_without_locks_nothing_is_removed_and_the_export_goes_on(repo, tmp_path, monkeypatch):
    # (ENOLCK on some network file systems): a live export cannot be told from a dead one.
    dead = tmp_path / ".out.curator-partial-dead0000"
    dead.mkdir()

    def no_locks(descriptor: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr("fcntl.flock", no_locks)
    export(Library.at(repo.root), tmp_path / "out")
    assert dead.is_dir()
    assert load(tmp_path / "out", "manifest.json")["counts"]["incidents"] == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == [dead.name, "lib", "out"]


@pytest.mark.parametrize("locked", [False, True], ids=["before-its-lock", "holding-the-lock"])
def test_a_new_folder_another_export_removes_at_once_is_made_again(
    repo, tmp_path, monkeypatch, locked
):
    # Between mkdtemp and its lock, another export starting may take it for a dead one's:
    # remove it before this one opens it, or lock it first and remove it while this one
    # waits for the lock.
    made: list[str] = []
    removing: list[threading.Thread] = []

    def removed_by_another(**kwargs):
        folder = real_mkdtemp(**kwargs)
        made.append(folder)
        if len(made) == 1 and not locked:
            os.rmdir(folder)
        elif len(made) == 1:
            lock = os.open(folder, os.O_RDONLY)
            fcntl.flock(lock, fcntl.LOCK_EX)
            removing.append(threading.Thread(target=remove, args=(folder, lock)))
            removing[0].start()
        return folder

    def remove(folder: str, lock: int) -> None:
        time.sleep(0.5)  # (by then the export waits for the lock)
        os.rmdir(folder)
        os.close(lock)

    real_mkdtemp = tempfile.mkdtemp
    monkeypatch.setattr(write.tempfile, "mkdtemp", removed_by_another)
    export(Library.at(repo.root), tmp_path / "out")
    for thread in removing:
        thread.join()
    assert len(made) == 2
    assert load(tmp_path / "out", "manifest.json")["counts"]["incidents"] == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lib", "out"]


def test_the_new_export_and_the_old_trade_places_in_one_step(tmp_path, monkeypatch):
    # Two renames left a moment with no --out at all: a run killed then left none.
    out, new = tmp_path / "out", tmp_path / ".out.curator-partial-abcdefgh"
    for folder, which in ((out, "old"), (new, "new")):
        folder.mkdir()
        (folder / "which").write_text(which, encoding="utf-8")

    def no_rename(*args):
        raise AssertionError("renamed, not exchanged")

    monkeypatch.setattr(write.os, "rename", no_rename)
    write._swap(new, out)
    assert (out / "which").read_text(encoding="utf-8") == "new"
    assert (new / "which").read_text(encoding="utf-8") == "old"  # for the writer to delete
    assert oct(out.stat().st_mode & 0o777) == "0o755"


def unsupported(code: int):
    def renameat2(*args) -> int:
        ctypes.set_errno(code)
        return -1

    return lambda: renameat2


@pytest.mark.parametrize(
    "renameat2",
    [
        lambda: None,
        unsupported(errno.ENOSYS),
        unsupported(errno.EINVAL),
        unsupported(errno.EOPNOTSUPP),
    ],
    ids=["missing", "ENOSYS", "EINVAL", "EOPNOTSUPP"],
)
def test_where_folders_cannot_be_exchanged_two_renames_replace_the_export(
    repo, tmp_path, monkeypatch, renameat2
):
    out = tmp_path / "out"
    export(Library.at(repo.root), out)
    repo.write("IL-0002.yaml", incident("IL-0002", GPU, ("occurred: 2024-05", "occurred: 2024-04")))
    repo.commit("2024-06-01T00:00:00")
    monkeypatch.setattr(write, "_renameat2", renameat2)
    export(Library.at(repo.root), out)
    assert load(out, "incidents/IL-0002.json")["occurred"] == "2024-04"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lib", "out"]


# An export killed between its two renames, where folders cannot be exchanged: `out` is
# gone, the previous export sits in the folder the first rename moved it to.
KILLED_BETWEEN_RENAMES = """
import os, signal, sys
from pathlib import Path
from curator.export import export, write
from curator.library import Library

renamed = []

def rename(source, target):
    os.replace(source, target)
    renamed.append(target)
    if len(renamed) == 1:
        os.kill(os.getpid(), signal.SIGKILL)

write._renameat2 = lambda: None
write.os.rename = rename
export(Library.at(Path(sys.argv[1])), Path(sys.argv[2]))
"""


def test_the_previous_export_a_kill_between_two_renames_leaves_is_removed_next_time(repo, tmp_path):
    # It stayed beside `out` for good (`.out.old.XXXXXXXX`, ~1.1 GB at 100,000 incidents).
    out = tmp_path / "out"
    export(Library.at(repo.root), out)
    script = [sys.executable, "-c", KILLED_BETWEEN_RENAMES, str(repo.root), str(out)]
    killed = subprocess.run(script)
    assert killed.returncode == -signal.SIGKILL
    assert not out.exists()
    left = partials(tmp_path)
    assert len(left) == 2  # the new export, complete, and the previous one
    assert sum((tmp_path / name / "export" / "manifest.json").is_file() for name in left) == 1
    assert run_export(repo, out).code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lib", "out"]
    assert load(out, "manifest.json")["counts"]["incidents"] == 3


def test_an_exchange_that_fails_otherwise_leaves_the_previous_export(repo, tmp_path, monkeypatch):
    out = tmp_path / "out"
    export(Library.at(repo.root), out)
    previous = files_of(out)
    repo.write("IL-0002.yaml", incident("IL-0002", GPU, ("occurred: 2024-05", "occurred: 2024-04")))
    repo.commit("2024-06-01T00:00:00")
    monkeypatch.setattr(write, "_renameat2", unsupported(errno.EACCES))
    with pytest.raises(PermissionError):
        export(Library.at(repo.root), out)
    assert files_of(out) == previous
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lib", "out"]


def test_a_stop_as_the_export_s_folder_is_made_leaves_it_not_behind(repo, tmp_path, monkeypatch):
    # A stop between mkdtemp making the folder and the export having its name left it
    # beside --out (empty, until the next export to it deleted it).
    making = tempfile.mkdtemp

    def ctrl_c_once_made(**where: Any) -> str:
        made = making(**where)
        signal.raise_signal(signal.SIGINT)  # (as the terminal sends it)
        return made

    monkeypatch.setattr(write.tempfile, "mkdtemp", ctrl_c_once_made)
    with pytest.raises(KeyboardInterrupt):
        export(Library.at(repo.root), tmp_path / "out")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lib"]


@pytest.mark.parametrize("moment", ["as-the-folder-is-made", "between-the-renames"])
def test_a_stop_as_two_renames_replace_the_export_leaves_one_export(
    repo, tmp_path, monkeypatch, moment
):
    # Where folders cannot be exchanged, the previous export is moved into a new folder
    # (a second `.out.curator-partial-k2x8abcd`), then the new one put in its place: a stop
    # as that folder was made left it for good; a stop between the renames left no --out at
    # all, the previous export in that folder.
    out = tmp_path / "out"
    export(Library.at(repo.root), out)
    repo.write("IL-0002.yaml", incident("IL-0002", GPU, ("occurred: 2024-05", "occurred: 2024-04")))
    repo.commit("2024-06-01T00:00:00")
    monkeypatch.setattr(write, "_renameat2", lambda: None)
    making, renaming = tempfile.mkdtemp, os.rename
    made: list[str] = []

    def ctrl_c_once_made(**where: Any) -> str:
        made.append(making(**where))
        if len(made) == 2:  # (the first is the new export's)
            signal.raise_signal(signal.SIGINT)
        return made[-1]

    def ctrl_c_once_moved_away(source: Path, target: Path) -> None:
        renaming(source, target)
        if source == out:
            signal.raise_signal(signal.SIGINT)

    if moment == "as-the-folder-is-made":
        monkeypatch.setattr(write.tempfile, "mkdtemp", ctrl_c_once_made)
    else:
        monkeypatch.setattr(write.os, "rename", ctrl_c_once_moved_away)
    with pytest.raises(KeyboardInterrupt):
        export(Library.at(repo.root), out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lib", "out"]
    assert load(out, "incidents/IL-0002.json")["occurred"] == "2024-04"  # (the stop came late)


@pytest.mark.parametrize("moment", ["after-a-failure", "after-the-exchange", "after-the-renames"])
def test_ctrl_c_as_a_temporary_folder_is_deleted_leaves_it_not_half_deleted(
    repo, tmp_path, monkeypatch, moment
):
    # A second Ctrl-C as the unfinished export was deleted (seconds, at 100,000 incidents)
    # left it beside --out, half deleted. One as the export it replaced was deleted left
    # that half deleted too, and ended an export that was in place as "interrupted".
    out = tmp_path / "out"
    export(Library.at(repo.root), out)
    previous = files_of(out)
    repo.write("IL-0002.yaml", incident("IL-0002", GPU, ("occurred: 2024-05", "occurred: 2024-04")))
    repo.commit("2024-06-01T00:00:00")
    removing = shutil.rmtree

    def ctrl_c_after_one_file(path: str, **options: Any) -> None:
        first = next(Path(path).rglob("*.json"), None)  # (None: renamed to --out)
        if first is not None:
            first.unlink()
            signal.raise_signal(signal.SIGINT)  # (as the terminal sends it)
        removing(path, **options)

    def ctrl_c(*args: Any) -> None:
        signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(write.shutil, "rmtree", ctrl_c_after_one_file)
    if moment == "after-a-failure":
        monkeypatch.setattr("curator.export.GraphStream.finish", ctrl_c)
        with pytest.raises(KeyboardInterrupt):
            export(Library.at(repo.root), out)
        assert files_of(out) == previous
    else:
        if moment == "after-the-renames":
            monkeypatch.setattr(write, "_renameat2", lambda: None)
        try:
            export(Library.at(repo.root), out)
        except KeyboardInterrupt:  # (not raised on: pytest would stop every test)
            pytest.fail("an export that was in place ended as interrupted")
        assert load(out, "incidents/IL-0002.json")["occurred"] == "2024-04"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lib", "out"]


def test_out_as_a_link_is_replaced_by_the_export_and_what_it_pointed_to_is_left(repo, tmp_path):
    # The exchange puts the link where the temporary folder was: the link is deleted, not
    # what it points to, as before.
    real, out = tmp_path / "real", tmp_path / "out"
    assert run_export(repo, real).code == 0
    out.symlink_to(real)
    assert run_export(repo, out).code == 0
    assert not out.is_symlink() and files_of(out) == files_of(real)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lib", "out", "real"]


def export_held_midway(repo: GitLibrary, out: Path, **options) -> tuple[subprocess.Popen, int]:
    """`curator export` over an earlier export in `out` whose IL-0002.json is a FIFO, held
    in the middle: the export reads each file of the export it replaces (to link the
    unchanged ones, `curator.export.write`), so it waits there for the FIFO's writer, its
    temporary folder made. Returns the running export and the FIFO's write end, opened
    once the export waits (till then a non-blocking open fails, ENXIO: no reader) and
    never written to: the export reads on till it is closed."""
    assert run_export(repo, out).code == 0
    fifo = out / "incidents" / "IL-0002.json"
    fifo.unlink()
    os.mkfifo(fifo)
    process = start_python(
        "-m", "curator", "export", "--root", str(repo.root), "--out", str(out), **options
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            return process, os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as exc:
            if exc.errno != errno.ENXIO or process.poll() is not None:
                raise AssertionError(f"the export did not wait: {ended(process)}") from exc
            assert time.monotonic() < deadline, "the export never read the earlier export"
        time.sleep(0.01)


@pytest.mark.parametrize("signalled", [signal.SIGTERM, signal.SIGHUP], ids=["TERM", "HUP"])
def test_a_cancelled_export_leaves_no_temporary_folder_and_the_previous_export(
    repo, tmp_path, signalled
):
    # SIGTERM (a cancelled or timed-out CI job, `kill`, `timeout`) or SIGHUP ended curator
    # on the spot: the release job's temporary folder, ≈1 GB, stayed beside --out.
    out = tmp_path / "out"
    at_default = functools.partial(signal.signal, signalled, signal.SIG_DFL)  # (under nohup too)
    process, writer = export_held_midway(repo, out, preexec_fn=at_default)
    previous = files_of(out)
    assert [p.name for p in tmp_path.glob(f".{out.name}.*")] != []  # (the export is under way)
    process.send_signal(signalled)
    run = ended(process)
    os.close(writer)
    assert (run.code, run.out, run.err) == (2, "", "curator: terminated\n")
    assert list(tmp_path.glob(f".{out.name}.*")) == []
    assert files_of(out) == previous
    assert stat.S_ISFIFO((out / "incidents" / "IL-0002.json").lstat().st_mode)


def test_ctrl_c_as_the_graph_loads_numpy_is_not_dropped(repo, tmp_path):
    # numpy is loaded mid-export, to count co-occurrences: a stop then was printed
    # ("Exception ignored in: …") and dropped, and the export went on to the end.
    out = tmp_path / "out"
    run = stopped_as_it_loads("numpy", "export", "--root", str(repo.root), "--out", str(out))
    assert (run.code, run.out, run.err) == (2, "", "curator: interrupted\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lib"]


def test_sighup_ignored_when_the_export_starts_stays_ignored(repo, tmp_path):
    # Under `nohup`, say: SIGHUP must not stop the run.
    out = tmp_path / "out"
    ignoring = functools.partial(signal.signal, signal.SIGHUP, signal.SIG_IGN)
    process, writer = export_held_midway(repo, out, preexec_fn=ignoring)
    process.send_signal(signal.SIGHUP)
    os.close(writer)  # (the export reads no bytes there, so it writes IL-0002.json anew)
    run = ended(process)
    assert run.code == 0, run
    assert json.loads((out / "incidents" / "IL-0002.json").read_bytes())["id"] == "IL-0002"
    assert list(tmp_path.glob(f".{out.name}.*")) == []


# `curator export` as the command runs it, with two workers, sent SIGTERM once they have
# checked a chunk; it says how many workers still run as it deletes its temporary folder.
_TERMINATED_WITH_WORKERS = """
import multiprocessing, os, shutil, signal
from curator import workers
from curator.__main__ import main
in_order, remove = workers.Workers.in_order, shutil.rmtree
def terminated_after_a_chunk(self, work, items, chunk_size=100):
    results = in_order(self, work, items, chunk_size)
    yield next(results)
    os.kill(os.getpid(), signal.SIGTERM)
    yield from results
def rmtree(path, **options):
    if os.path.basename(path).startswith(".out."):
        print("workers running:", len(multiprocessing.active_children()), flush=True)
    remove(path, **options)
workers.Workers.in_order, shutil.rmtree = terminated_after_a_chunk, rmtree
if os.environ.get("AGAIN") == "1":  # and Ctrl-C as the pool waits for its workers
    from concurrent.futures import ProcessPoolExecutor
    shutdown = ProcessPoolExecutor.shutdown
    def interrupted(self, *args, **options):
        signal.raise_signal(signal.SIGINT)
        shutdown(self, *args, **options)
    ProcessPoolExecutor.shutdown = interrupted
main()
"""


@pytest.mark.parametrize("again", ["", "1"], ids=["once", "and-ctrl-c-as-they-stop"])
def test_the_temporary_folder_is_deleted_once_the_workers_are_stopped(repo, tmp_path, again):
    # It was deleted while the workers, which leave Ctrl-C and SIGTERM to the main process,
    # still wrote their chunks' files into it: it stayed beside --out, half full. So it
    # was when a second stop ended the wait for them (Ctrl-C twice, or SIGTERM after it).
    out = tmp_path / "out"
    args = ("export", "--root", str(repo.root), "--out", str(out), "--jobs", "2")
    run = ended(start_python("-c", _TERMINATED_WITH_WORKERS, *args, env={"AGAIN": again}))
    assert (run.code, run.out, run.err) == (2, "workers running: 0\n", "curator: terminated\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lib"]


def test_refuses_to_replace_a_folder_that_is_not_an_export(repo, tmp_path):
    precious = tmp_path / "home"
    precious.mkdir()
    (precious / "notes.txt").write_text("keep me", encoding="utf-8")
    run = run_export(repo, precious)
    assert run.code == 2
    assert "refusing to replace a folder that is not an earlier export" in run.err
    assert run.err.endswith(": choose a new or empty folder, or an earlier export\n")
    assert (precious / "notes.txt").read_text(encoding="utf-8") == "keep me"


def test_refuses_a_folder_whose_manifest_json_is_not_an_export_or_lists_less(repo, tmp_path):
    # A web site's folder often holds a manifest.json (a web app manifest): it was replaced,
    # and everything else in it deleted.
    site = tmp_path / "public"
    site.mkdir()
    (site / "manifest.json").write_text('{"name": "Incident Library"}', encoding="utf-8")
    (site / "index.html").write_text("<h1>keep me</h1>", encoding="utf-8")
    before = files_of(site)
    run = run_export(repo, site)
    assert run.code == 2
    assert "refusing to replace a folder that is not an earlier export" in run.err
    assert files_of(site) == before
    # An earlier export that someone added a file to is not all export either.
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    (out / "incidents" / "notes.md").write_text("mine", encoding="utf-8")
    run = run_export(repo, out)
    assert run.code == 2
    assert "does not list (incidents/notes.md)" in run.err
    assert run.err.endswith(": choose a new or empty folder, or an earlier export\n")
    assert (out / "incidents" / "notes.md").read_text(encoding="utf-8") == "mine"


@pytest.mark.parametrize("parent", ["nowhere", "file.txt"])
def test_out_in_a_folder_that_does_not_exist_is_refused_before_the_export(repo, tmp_path, parent):
    (tmp_path / "file.txt").write_text("keep me", encoding="utf-8")
    out = tmp_path / parent / "export"
    run = run_export(repo, out)
    assert run.code == 2
    assert run.err == f"curator: export failed: cannot write {out}: {out.parent} is not a folder\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt", "lib"]
    assert (tmp_path / "file.txt").read_text(encoding="utf-8") == "keep me"


@pytest.mark.parametrize("inside", ["incidents", "incidents/export", "schema/taxonomy/x"])
def test_refuses_to_write_into_the_folders_it_is_made_from(repo, tmp_path, inside):
    # It wrote the export into incidents/: the next lint read it, the next export refused
    # the checkout as changed.
    run = run_export(repo, repo.root / inside)
    assert run.code == 2
    folder = (repo.root / inside).parent if "/" in inside else repo.root / inside
    assert f"refusing to write into {folder}, which the export is made from" in run.err
    assert run.err.endswith(": choose a folder outside incidents/ and schema/taxonomy/\n")
    assert run_curator("lint", "--root", str(repo.root), "--no-cache").code == 0
    assert repo.git("status", "--porcelain") == ""


def test_out_dot_replaces_the_earlier_export_it_names(repo, tmp_path):
    # `--out .` inside an earlier export put the temporary folders inside it and ended in
    # an internal error ("Device or resource busy"), leaving a stray folder in the export.
    fresh, out = tmp_path / "fresh", tmp_path / "out"
    assert run_export(repo, fresh).code == 0
    assert run_export(repo, out).code == 0
    run = run_curator("export", "--root", str(repo.root), "--out", ".", cwd=out)
    assert run.code == 0, run.err
    assert files_of(out) == files_of(fresh)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh", "lib", "out"]


def test_the_export_it_replaces_is_read_once_to_check_it(repo, tmp_path, monkeypatch):
    # Reading an earlier export to make sure it is one takes 0.2 s at 100,000 incidents; the
    # export checked it twice (itself, then its writer).
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    read: list[Path] = []

    def unlisted_files(folder: Path) -> list[str]:
        read.append(folder)
        return original(folder)

    original = write._unlisted_files
    monkeypatch.setattr(write, "_unlisted_files", unlisted_files)
    export(Library.at(repo.root), out)
    assert read == [out]


def test_a_folder_it_cannot_write_in_is_an_export_error_not_an_internal_one(
    repo, tmp_path, monkeypatch
):
    # A read-only --out (or one under /proc) ended in "internal error: OSError".
    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr("curator.export.write.tempfile.mkdtemp", read_only)
    with pytest.raises(ExportError, match=r"cannot write beside .*: Read-only file system"):
        export(Library.at(repo.root), tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_what_lint_and_the_checkout_checks_should_have_stopped_asks_to_be_reported(tmp_path):
    # Both can only be a bug in curator: the user can do nothing but report it, and the
    # messages did not say so.
    path = tmp_path / "IL-0001.yaml"
    path.write_text(incident("IL-0001"), encoding="utf-8")
    undated = Task(str(path), None, None, None)
    with pytest.raises(ExportError, match=r"has no commit in the history of HEAD; please report"):
        render_incident(undated, tmp_path)
    path.write_text("id: [", encoding="utf-8")
    with pytest.raises(ExportError, match=r"passed lint but does not load: .*; please report"):
        render_incident(undated, tmp_path)


def test_a_file_parsed_by_the_export_is_kept_under_the_digest_of_the_bytes_it_read(tmp_path):
    # The export cache keys released data by the SHA-256 of the bytes parsed, not by the
    # digest the task came with (lint's, which the file may have changed since), nor by git's
    # blob id, which a git filter makes describe other bytes (curator/export/released.py).
    path = tmp_path / "IL-0001.yaml"
    path.write_text(incident("IL-0001"), encoding="utf-8")
    (tmp_path / "out" / "incidents").mkdir(parents=True)
    dates = ("2024-01-01T00:00:00Z", "2024-01-02T00:00:00Z")
    own = hashlib.sha256(path.read_bytes()).hexdigest()
    for given in (own, hashlib.sha256(b"other bytes").hexdigest(), None):
        rendered = render_incident(Task(str(path), given, dates, None), tmp_path / "out")
        assert rendered.fresh and rendered.digest == own


def test_a_released_incident_s_data_is_made_from_its_json_by_the_main_process(tmp_path):
    # Serialised once and sent once: what the cache keeps of a released incident is what
    # incidents.json holds of it, on one line; 100,000 texts of ~3 KB are not sent back the
    # way they came either (curator/export/released.py).
    path = tmp_path / "IL-0001.yaml"
    path.write_text(incident("IL-0001"), encoding="utf-8")
    (tmp_path / "out" / "incidents").mkdir(parents=True)
    (tmp_path / "again" / "incidents").mkdir(parents=True)
    dates = ("2024-01-01T00:00:00Z", "2024-01-02T00:00:00Z")
    parsed = render_incident(Task(str(path), None, dates, None), tmp_path / "out")
    assert parsed.released is None
    kept = released.released_text(parsed)
    written = (tmp_path / "out" / "incidents" / "IL-0001.json").read_bytes()
    assert b"\n" not in kept and json.loads(kept) == json.loads(written)
    carried = Task(str(path), None, dates, kept)
    assert render_incident(carried, tmp_path / "again").released is None
    assert render_incident(carried, tmp_path / "again").nested == parsed.nested
    foreign = Task(str(path), None, dates, b'{"status": "published"}')  # not what curator keeps
    assert released.released_text(render_incident(foreign, tmp_path / "again")) == kept
    # A draft is in no aggregate file: its data is sent as it was made, if it was.
    path.write_text(incident("IL-0001", ("status: published", "status: draft")), "utf-8")
    draft = render_incident(Task(str(path), None, dates, None), tmp_path / "again")
    assert draft.nested == b"" and json.loads(draft.released or b"")["status"] == "draft"
    assert released.released_text(draft) == draft.released
    assert render_incident(Task(str(path), None, dates, draft.released), tmp_path).released is None


def test_the_cached_released_data_is_read_without_holding_it_twice(tmp_path):
    # A warm export looks up every incident's released data: with each shard of the store
    # kept while its texts were encoded, the text and the bytes of every incident were in
    # memory together (at 100,000 incidents, 1.25 GB at the peak instead of 0.86).
    library = Library.at(write_library(tmp_path / "lib", {}))
    texts = {
        f"{n:040x}": json.dumps({"id": f"IL-{n:04d}", "text": "학습" * 4_000}, ensure_ascii=False)
        for n in range(600)
    }
    writing = ReleasedCache(library, enabled=True)
    for blob, text in texts.items():
        writing.keep(blob, text.encode())
    writing.save(set(texts))
    wanted = [*list(texts)[::2], "f" * 40]  # half of them, and one the cache does not hold
    tracemalloc.start()
    try:
        found = ReleasedCache(library, enabled=True).lookup(wanted)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert found == {blob: texts[blob].encode() for blob in wanted[:-1]}
    held = sum(map(len, found.values()))  # bytes objects: their length is nearly their size
    assert peak < 1.3 * held, (peak, held)


def test_refuses_lint_errors_with_the_findings_and_keeps_the_old_export(repo, tmp_path):
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    previous = files_of(out)
    repo.write("IL-0002.yaml", incident("IL-0002", ("    - nccl\n", "    - ncl\n")))
    repo.commit("2024-06-01T00:00:00")
    run = run_export(repo, out)
    assert run.code == 1
    assert "incidents/IL-0002.yaml:" in run.out and "[error]" in run.out and "'ncl'" in run.out
    assert "export refused: 1 error(s) under lint --release" in run.err
    assert files_of(out) == previous


def test_a_refused_export_of_two_files_with_one_id_leaves_the_old_export_as_it_was(repo, tmp_path):
    # A copy of IL-0001 under another name, its source retitled (IL203, IL204: refused).
    # Its incidents/IL-0001.json was first hard-linked from the old export (the same
    # bytes), then the copy's was written through that link: the old export's file became
    # the copy's, though nothing of the new export was kept.
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    previous = files_of(out)
    repo.write("IL-0009.yaml", incident("IL-0001", ("Storage postmortem", "Storage report")))
    repo.commit("2024-06-01T00:00:00")
    run = run_export(repo, out, "--no-cache")
    assert run.code == 1, run
    assert "IL-0009.yaml:1:5: IL204 [error] id IL-0001 is also used by" in run.out
    assert files_of(out) == previous


def test_refuses_a_library_with_incidents_in_a_subfolder(repo, tmp_path):
    # Exported without them, with no word: they are not in the library it reads.
    (repo.root / "incidents" / "2024").mkdir()
    repo.write("2024/IL-0005.yaml", incident("IL-0005"))
    repo.commit("2024-06-01T00:00:00")
    run = run_export(repo, tmp_path / "out")
    assert run.code == 1
    assert "incidents/2024:1:1: IL107 [error] a folder holding what may be incidents" in run.out
    assert "export refused: 1 error(s) under lint --release" in run.err
    assert not (tmp_path / "out").exists()


def with_trailing_space(text: str) -> str:
    """The incident with a space after its first line: IL602, a warning."""
    first, rest = text.split("\n", 1)
    return f"{first} \n{rest}"


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_prints_what_lint_release_reports_in_its_format(repo, tmp_path, fmt):
    # The release job exports and annotates the tag in one step: the export's output is
    # what `curator lint --release --format FMT` prints, warnings included.
    repo.write("IL-0001.yaml", with_trailing_space(incident("IL-0001")))
    repo.commit("2024-06-01T00:00:00")
    lint_run = run_curator("lint", "--root", str(repo.root), "--release", "--format", fmt)
    assert lint_run.code == 0 and "IL602" in lint_run.out, lint_run.out
    run = run_export(repo, tmp_path / "out", "--format", fmt, "--no-cache")
    assert run.code == 0, run.err
    assert run.out == lint_run.out
    assert "exported 3 incidents" in run.err


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_a_refused_export_prints_every_finding_in_the_format(repo, tmp_path, fmt):
    repo.write("IL-0001.yaml", with_trailing_space(incident("IL-0001")))
    repo.write("IL-0002.yaml", incident("IL-0002", ("    - nccl\n", "    - ncl\n")))
    repo.commit("2024-06-01T00:00:00")
    lint_run = run_curator("lint", "--root", str(repo.root), "--release", "--format", fmt)
    assert lint_run.code == 1
    run = run_export(repo, tmp_path / "out", "--format", fmt)
    assert run.code == 1
    assert run.out == lint_run.out
    assert "IL602" in run.out and "IL301" in run.out, run.out
    assert "export refused: 1 error(s) under lint --release" in run.err
    assert not (tmp_path / "out").exists()


def test_no_cache_neither_reads_nor_writes_a_cache_the_commit_holds(repo, tmp_path):
    # The release job exports with --no-cache instead of deleting a `.curator-cache/`
    # force-added at the tag: that folder must then be left exactly as it is, and unread.
    cache = repo.root / ".curator-cache"
    (cache / "lint-0123456789abcdef").mkdir(parents=True)
    (cache / "lint-0123456789abcdef" / "00.json").write_bytes(b"planted\n")
    repo.git("add", "-f", ".curator-cache")
    repo.commit("2024-06-01T00:00:00", "a cache committed by mistake")
    before = {path: os.lstat(path).st_mtime_ns for path in [cache, *cache.rglob("*")]}
    run = run_export(repo, tmp_path / "out", "--no-cache")
    assert run.code == 0, run.err
    assert {path: os.lstat(path).st_mtime_ns for path in [cache, *cache.rglob("*")]} == before
    assert (cache / "lint-0123456789abcdef" / "00.json").read_bytes() == b"planted\n"


def test_no_cache_opens_no_store(repo, tmp_path, monkeypatch):
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a cache store was opened: {args}")

    monkeypatch.setattr("curator.cache.Store.open", classmethod(refuse))
    exported = export(Library.at(repo.root), tmp_path / "out", ExportOptions(cache=False))
    assert exported.manifest.counts.incidents == 3
    assert [f.code for f in exported.findings] == ["IL304"]  # IL-0002's components
    assert not (repo.root / ".curator-cache").exists()


def test_the_format_is_one_of_lints(repo, tmp_path):
    run = run_export(repo, tmp_path / "out", "--format", "markdown")
    assert run.code == 2
    assert "Invalid value for '--format'" in run.err
    assert not (tmp_path / "out").exists()


def test_refuses_placeholder_ids(tmp_path):
    repo = GitLibrary(tmp_path / "lib")
    repo.write("IL-0001.yaml", incident("IL-0001"))
    repo.write("IL-NEW-weka.yaml", incident("IL-NEW-weka", ("status: published", "status: draft")))
    repo.commit("2024-01-01T00:00:00")
    run = run_export(repo, tmp_path / "out")
    assert run.code == 1
    assert "incidents/IL-NEW-weka.yaml:1:5: IL206 [error] placeholder id IL-NEW-weka" in run.out
    assert not (tmp_path / "out").exists()
    spools = set(Path(tempfile.gettempdir()).glob("curator-released-*"))
    with pytest.raises(ExportRefused) as refused:
        export(Library.at(repo.root), tmp_path / "out", ExportOptions())
    assert [f.code for f in refused.value.findings] == ["IL206"]
    # What lint rendered (IL-0001) and kept for the cache is not left behind on disk.
    assert set(Path(tempfile.gettempdir()).glob("curator-released-*")) == spools


def test_a_file_name_that_is_not_utf8_is_for_lint_to_report(repo, tmp_path):
    # git's listing was decoded as UTF-8: a committed `IL-\xff.yaml` made the export an
    # "internal error: UnicodeDecodeError" before lint could name the file.
    (repo.root / "incidents" / os.fsdecode(b"IL-\xff.yaml")).write_text(
        incident("IL-0009"), encoding="utf-8"
    )
    repo.commit("2024-03-01T00:00:00", "a name that is not UTF-8")
    run = run_export(repo, tmp_path / "out")
    assert run.code == 1, run.err
    assert "internal error" not in run.err and "IL-\\udcff.yaml" in run.out
    assert not (tmp_path / "out").exists()


def test_a_tag_that_is_not_utf8_is_named_not_an_internal_error(repo, tmp_path):
    repo.write("IL-0005.yaml", incident("IL-0005"))
    repo.commit("2024-03-01T00:00:00", "IL-0005")
    repo.git("tag", os.fsdecode(b"v1.1\xff"))
    run = run_export(repo, tmp_path / "out")
    assert run.code == 2
    assert "the tag v1.1\\xff is not UTF-8 text" in run.err and "--version" in run.err
    run = run_export(repo, tmp_path / "out", "--version", "v1.1")  # (the previous: v1.0.0)
    assert run.code == 0, run.err


def test_a_tag_that_is_not_utf8_is_no_release_passed_over_with_a_note(tmp_path):
    # `Repo.tags` left such a tag out, `git describe` did not: the only `v*` tag before a
    # release, or one beside the release's on its commit, was taken for the release
    # before, and the release could not be exported ("rename it"); a commit after one,
    # between releases, was named by it ("rename it, or give --version").
    lib = GitLibrary(tmp_path / "lib")
    lib.write("IL-0001.yaml", incident("IL-0001"))
    lib.commit("2024-01-01T10:00:00", "first")
    lib.git("tag", os.fsdecode(b"v0.9\xff"))
    lib.write("IL-0002.yaml", incident("IL-0002", GPU))
    head = lib.commit("2024-02-01T10:00:00", "more")
    lib.git("tag", "v1.0.0")
    lib.git("tag", os.fsdecode(b"v1.0.0\xfe"))
    notes = "".join(
        f"curator: note: the tag {tag} is not UTF-8 text, which the export cannot record: "
        "passed over, as no release (rename it, if it is one)\n"
        for tag in ("v0.9\\xff", "v1.0.0\\xfe")
    )
    run = run_export(lib, tmp_path / "out")
    assert run.code == 0, run.err
    assert run.err == f"{notes}exported 2 incidents, v1.0.0 ({head[:12]}), to {tmp_path / 'out'}\n"
    changes = load(tmp_path / "out", "changes.json")
    assert changes["since"] is None
    assert [c["id"] for c in changes["changes"]] == ["IL-0002", "IL-0001"]
    lib.write("IL-0003.yaml", incident("IL-0003"))
    lib.commit("2024-03-01T10:00:00", "after v1.0.0")
    lib.git("tag", os.fsdecode(b"v1.1\xfd"))
    lib.write("IL-0004.yaml", incident("IL-0004"))
    head = lib.commit("2024-04-01T10:00:00", "between releases")
    run = run_export(lib, tmp_path / "out2", "--quiet")
    assert run.code == 0, run.err
    assert run.err == notes + (
        "curator: note: the tag v1.1\\xfd is not UTF-8 text, which the export cannot "
        "record: passed over, as no release (rename it, if it is one)\n"
    )
    manifest = load(tmp_path / "out2", "manifest.json")
    assert manifest["version"] == f"v1.0.0-2-g{head[:12]}"
    assert load(tmp_path / "out2", "changes.json")["since"]["version"] == "v1.0.0"


def test_a_tag_that_is_not_utf8_gets_advice_that_works_where_it_is_met(tmp_path):
    # Every such tag was met with "rename it, or give --version (and --since, for the
    # release to compare with)": --since named it (or a commit it names), where --version
    # does not pass it by; only the tag at HEAD is passed by --version.
    before = tmp_path / "before"
    before.mkdir()
    old = GitLibrary(before)
    old.write("IL-0001.yaml", incident("IL-0001"))
    old.commit("2024-01-01T10:00:00", "first")
    old.git("tag", os.fsdecode(b"v0.9\xff"))
    old.write("IL-0002.yaml", incident("IL-0002", GPU))
    old.commit("2024-02-01T10:00:00", "more")
    old.git("tag", "v1.0.0")
    old.write("IL-0003.yaml", incident("IL-0003"))
    old.commit("2024-03-01T10:00:00", "after v1.0.0")
    assert run_export(old, tmp_path / "out").code == 0
    for since in (os.fsdecode(b"v0.9\xff"), "HEAD~2"):
        run = run_export(old, tmp_path / "out2", "--since", since, "--version", "v1.1.0")
        assert run.code == 2
        assert run.err == (
            "curator: export failed: the tag v0.9\\xff is not UTF-8 text, which the export "
            "cannot record: rename it (changes.json names the release --since gives by its "
            "tag)\n"
        )


def test_a_tag_passed_over_is_said_when_the_export_then_fails(tmp_path):
    # A `v*` tag that is not UTF-8, passed over as no release, was said only of an export
    # that went on to the end: one that then failed (a dirty checkout, --since naming no
    # commit, exit 2; lint's errors, exit 1) said why alone. The note comes first, as for
    # one that does not; the exit status and the last line are as they were.
    lib = GitLibrary(tmp_path / "lib")
    lib.write("IL-0001.yaml", incident("IL-0001"))
    lib.commit("2024-01-01T10:00:00", "first")
    lib.git("tag", os.fsdecode(b"v0.9\xff"))
    lib.write("IL-0002.yaml", incident("IL-0002", GPU))
    lib.commit("2024-02-01T10:00:00", "more")
    note = (
        "curator: note: the tag v0.9\\xff is not UTF-8 text, which the export cannot record: "
        "passed over, as no release (rename it, if it is one)\n"
    )
    out = tmp_path / "out"
    run = run_export(lib, out, "--since", "nope")
    assert (run.code, run.out) == (2, ""), run
    assert run.err == f"{note}curator: export failed: 'nope' is not a commit of this repository\n"
    (lib.root / "incidents" / "IL-0001.yaml").write_text(incident("IL-0001") + "# 메모\n", "utf-8")
    run = run_export(lib, out, "--quiet")
    assert run.code == 2, run
    assert run.err == (
        f"{note}curator: export failed: 1 file(s) under incidents/ or schema/taxonomy/ differ "
        "from the commit (incidents/IL-0001.yaml); an export describes a commit: commit them, "
        "or export from a clean clone\n"
    )
    lib.write("IL-NEW-x.yaml", incident("IL-NEW-x"))
    lib.commit("2024-03-01T10:00:00", "a placeholder")
    run = run_export(lib, out, "--quiet")
    assert run.code == 1, run
    assert "IL206 [error] placeholder id IL-NEW-x" in run.out
    assert run.err == f"{note}curator: export refused: 1 error(s) under lint --release\n"
    assert not out.exists()


def test_a_stop_as_git_starts_stops_git_too(repo, tmp_path):
    # Popen raised the stop before it gave curator the process: git ran on, out of reach.
    out = tmp_path / "out"
    args = ("export", "--root", str(repo.root), "--out", str(out))
    run, left = stopped_as_git_starts("--is-inside-work-tree", *args, cwd=REPO, scratch=tmp_path)
    assert (run.code, run.out, run.err) == (2, "", "curator: terminated\n")
    assert not left
    assert not out.exists()


def test_without_git_on_path_the_export_says_so(repo, tmp_path):
    # It said "is not in a git checkout ... (a clone, not a copy)" of a perfectly good
    # clone: the failure to start git was taken for git's answer.
    run = run_curator(
        "export", "--root", str(repo.root), "--out", str(tmp_path / "out"),
        env={"PATH": str(tmp_path)},
    )  # fmt: skip
    assert run.code == 2
    assert "git is not installed or not on PATH" in run.err
    assert "not in a git checkout" not in run.err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("mark", ["--assume-unchanged", "--skip-worktree"])
def test_a_file_git_is_told_not_to_compare_stops_the_export(repo, tmp_path, mark):
    # `git status` does not look at such a file: IL-0001 changed on disk was exported as
    # the commit's, under the commit's id (and a sparse checkout's files are not there).
    repo.git("update-index", mark, "incidents/IL-0001.yaml")
    repo.write("IL-0001.yaml", incident("IL-0001", (f"title: {TITLE}", "title: 바뀐 제목")))
    run = run_export(repo, tmp_path / "out")
    assert run.code == 2
    assert "incidents/IL-0001.yaml" in run.err and mark.removeprefix("--") in run.err
    assert not (tmp_path / "out").exists()


def checked_out_again(repo: GitLibrary, name: str) -> None:
    """`incidents/name` written again from the index, as a clone would check it out."""
    (repo.root / "incidents" / name).unlink()
    repo.git("checkout", "--", f"incidents/{name}")
    assert repo.git("status", "--porcelain", "--ignored") == ""  # unchanged, to git


def test_a_file_checked_out_with_ident_expanded_stops_the_export(repo, tmp_path):
    # git stores `$Id$` and checks out `$Id: <blob> $`, and calls the file unchanged: the
    # export wrote the expanded title as the commit's.
    repo.write("IL-0001.yaml", incident("IL-0001", (f"title: {TITLE}", f"title: {TITLE} $Id$")))
    (repo.root / ".gitattributes").write_text("incidents/IL-0001.yaml ident\n", encoding="utf-8")
    repo.commit("2024-03-01T00:00:00", "ident")
    checked_out_again(repo, "IL-0001.yaml")
    assert "$Id: " in (repo.root / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8")
    run = run_export(repo, tmp_path / "out")
    assert run.code == 2, run
    assert run.err.startswith(
        "curator: export failed: 1 file(s) under incidents/ or schema/taxonomy/ hold other "
        "bytes than the commit (incidents/IL-0001.yaml (ident)), though git counts them unchanged"
    )
    assert "export from a clone checked out without such conversions" in run.err
    assert not (tmp_path / "out").exists()


def test_a_gitattributes_changed_since_the_commit_stops_the_export(repo, tmp_path):
    # IL-0001 was checked out with `$Id$` expanded; the working .gitattributes then lost
    # the line: `check-attr` read it and named no file, so the expanded title was exported
    # as the commit's (quoted: `$Id: <blob> $` holds `: `).
    repo.write("IL-0001.yaml", incident("IL-0001", (f"title: {TITLE}", f'title: "{TITLE} $Id$"')))
    (repo.root / ".gitattributes").write_text("incidents/IL-0001.yaml ident\n", encoding="utf-8")
    repo.commit("2024-03-01T00:00:00", "ident")
    checked_out_again(repo, "IL-0001.yaml")
    # Checked out long ago, as git's index records: else git, seeing the file's time no
    # older than its index, reads the file again and finds it changed ("racy git").
    os.utime(repo.root / "incidents" / "IL-0001.yaml", (1_700_000_000, 1_700_000_000))
    repo.git("update-index", "--refresh")
    (repo.root / ".gitattributes").write_text("*.png binary\n", encoding="utf-8")
    assert repo.git("status", "--porcelain", "--", "incidents") == ""  # unchanged, to git
    run = run_export(repo, tmp_path / "out")
    assert run.code == 2, run
    assert run.err.startswith(
        "curator: export failed: .gitattributes differs from the commit, so git may have "
        "checked files out under other attributes than the commit's"
    )
    assert not (tmp_path / "out").exists()


def test_attributes_a_commit_changed_since_the_checkout_stop_the_export(repo, tmp_path):
    # IL-0001 was checked out with `$Id$` expanded; then a commit took the line away: the
    # working .gitattributes is the commit's and names no file, and git does not check
    # files out again, so the expanded title was exported as the commit's.
    repo.write("IL-0001.yaml", incident("IL-0001", (f"title: {TITLE}", f'title: "{TITLE} $Id$"')))
    (repo.root / ".gitattributes").write_text("incidents/IL-0001.yaml ident\n", encoding="utf-8")
    repo.commit("2024-03-01T00:00:00", "ident")
    checked_out_again(repo, "IL-0001.yaml")
    os.utime(repo.root / "incidents" / "IL-0001.yaml", (1_700_000_000, 1_700_000_000))
    repo.git("update-index", "--refresh")  # (checked out long ago: see above)
    (repo.root / ".gitattributes").write_text("*.png binary\n", encoding="utf-8")
    changed = repo.commit("2024-03-02T00:00:00", "no ident")
    assert repo.git("status", "--porcelain", "--ignored") == ""  # unchanged, to git
    run = run_export(repo, tmp_path / "out")
    assert run.code == 2, run
    assert run.err.startswith(
        "curator: export failed: 1 file(s) under incidents/ or schema/taxonomy/ hold other "
        f"bytes than the commit (incidents/IL-0001.yaml (attributes changed by {changed[:12]}))"
    )
    assert not (tmp_path / "out").exists()
    # A clone checks every file out under the commit's attributes: compared, and the same.
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(repo.root), str(clone)], check=True)
    run = run_curator("export", "--root", str(clone), "--out", str(tmp_path / "out"))
    assert run.code == 0, run
    assert load(tmp_path / "out", "manifest.json")["counts"]["incidents"] == 3


def test_a_changed_gitattributes_is_named_by_its_path_from_the_library(tmp_path):
    # A library in a folder of its repository, both `.gitattributes` changed: the refusal
    # named them ".gitattributes, .gitattributes", the top one as if it were the library's.
    top = tmp_path / "top"
    subprocess.run(["git", "init", "-q", "-b", "main", str(top)], check=True)
    repo = GitLibrary.__new__(GitLibrary)  # (its repository the one above it)
    repo.root = write_library(top / "lib", {})
    repo.write("IL-0001.yaml", incident("IL-0001"))
    (top / ".gitattributes").write_text("*.png binary\n", encoding="utf-8")
    (repo.root / ".gitattributes").write_text("*.png binary\n", encoding="utf-8")
    repo.commit("2024-01-01T10:00:00", "first")
    (top / ".gitattributes").write_text("*.jpg binary\n", encoding="utf-8")
    (repo.root / ".gitattributes").write_text("*.jpg binary\n", encoding="utf-8")
    run = run_export(repo, tmp_path / "out")
    assert run.code == 2, run
    assert run.err.startswith(
        "curator: export failed: ../.gitattributes, .gitattributes differ from the commit"
    )
    assert not (tmp_path / "out").exists()


def test_a_file_a_filter_smudged_stops_the_export_even_through_a_macro(repo, tmp_path):
    # The filter comes by a macro (`[attr]`) defined at the top, named in info/attributes:
    # git applies it, so the export must see it.
    repo.git("config", "filter.swap.smudge", "sed s/@plain@/@smudged@/")
    repo.git("config", "filter.swap.clean", "sed s/@smudged@/@plain@/")
    (repo.root / ".gitattributes").write_text("[attr]converted filter=swap\n", encoding="utf-8")
    repo.write("IL-0002.yaml", incident("IL-0002", (f"title: {TITLE}", f"title: {TITLE} @plain@")))
    repo.commit("2024-03-01T00:00:00", "a filter")
    info = repo.root / ".git" / "info"
    info.mkdir(exist_ok=True)
    (info / "attributes").write_text("IL-0002.yaml converted\n", encoding="utf-8")
    checked_out_again(repo, "IL-0002.yaml")
    assert "@smudged@" in (repo.root / "incidents" / "IL-0002.yaml").read_text(encoding="utf-8")
    run = run_export(repo, tmp_path / "out")
    assert run.code == 2, run
    assert "(incidents/IL-0002.yaml (filter=swap)), though git counts them unchanged" in run.err
    assert not (tmp_path / "out").exists()


def test_attributes_that_leave_the_commits_bytes_do_not_stop_the_export(repo, tmp_path):
    # `eol=lf` writes the stored bytes; `ident` with no `$Id$` to expand, and a filter
    # that changes nothing in this file, leave them too: compared, and found the same.
    (repo.root / ".gitattributes").write_text(
        "* text eol=lf\nincidents/IL-0001.yaml ident\nIL-0002.yaml filter=swap\n",
        encoding="utf-8",
    )
    repo.git("config", "filter.swap.smudge", "sed s/@plain@/@smudged@/")
    repo.git("config", "filter.swap.clean", "sed s/@smudged@/@plain@/")
    repo.commit("2024-03-01T00:00:00", "attributes")
    checked_out_again(repo, "IL-0001.yaml")
    checked_out_again(repo, "IL-0002.yaml")
    run = run_export(repo, tmp_path / "out")
    assert run.code == 0, run
    assert load(tmp_path / "out", "manifest.json")["counts"]["incidents"] == 3


def test_needs_a_git_checkout_with_full_history_and_no_uncommitted_changes(repo, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(repo.root, copy, ignore=shutil.ignore_patterns(".git"))
    run = run_curator("export", "--root", str(copy), "--out", str(tmp_path / "o1"))
    assert run.code == 2 and "is not in a git checkout" in run.err

    shallow = tmp_path / "shallow"
    url = repo.root.as_uri()
    subprocess.run(["git", "clone", "-q", "--depth", "1", url, str(shallow)], check=True)
    run = run_curator("export", "--root", str(shallow), "--out", str(tmp_path / "o2"))
    assert run.code == 2 and "the checkout is shallow" in run.err

    repo.write("IL-0009.yaml", incident("IL-0009"))
    run = run_export(repo, tmp_path / "o3")
    assert run.code == 2
    assert "incidents/IL-0009.yaml" in run.err and "commit them" in run.err
    assert not any((tmp_path / name).exists() for name in ("o1", "o2", "o3"))


@pytest.mark.parametrize("name", ["IL-0009.yaml", "IL-0001.yaml.orig"])
def test_an_ignored_file_under_incidents_stops_it_as_an_uncommitted_one(repo, tmp_path, name):
    # A file git ignores (a merge's `.orig`, an editor's backup; a global ignore file often
    # lists them) is in no commit either. It ended in "has no commit in the history of
    # HEAD" (an incident) or in lint's IL107 and exit 1 (any other name).
    (repo.root / ".git" / "info" / "exclude").write_text(f"{name}\n", encoding="utf-8")
    repo.write(name, incident("IL-0009"))
    run = run_export(repo, tmp_path / "out")
    assert run.code == 2, run
    assert f"(incidents/{name}); an export describes a commit" in run.err
    assert not (tmp_path / "out").exists()


def test_a_sha256_repository_is_refused_not_an_internal_error(tmp_path):
    # The schemas promise 40-digit commit ids; a SHA-256 repository ended in a traceback
    # ("ReleasePoint commit: String should match pattern").
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    subprocess.run(["git", "init", "-q", "--object-format=sha256", str(root)], check=True)
    identity = ("-c", "user.name=T", "-c", "user.email=t@example.invalid")
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(root), *identity, "commit", "-qm", "c"], check=True)
    run = run_curator("export", "--root", str(root), "--out", str(tmp_path / "out"))
    assert run.code == 2
    assert "the repository uses SHA-256 object ids" in run.err
    assert not (tmp_path / "out").exists()


def test_a_git_command_left_unanswered_is_stopped_not_left_waiting(repo):
    # `collect` starts `git status` first and reads its answer last: an error on the way
    # leaves the `with`, which must stop the process, not leave it waiting or unreaped.
    git = Repo(repo.root)
    with git.start(bytes, "hash-object", "--stdin", stdin=b"never sent") as running:
        pass  # (hash-object waits for its input, which only `result` would send)
    assert running._process.returncode == -signal.SIGKILL  # (private: nothing else tells)
    with git.start(bytes, "hash-object", "--stdin", stdin=b"sent") as running:
        assert running.result() == b"%s\n" % hashlib.sha1(b"blob 4\0sent").hexdigest().encode()


def test_a_library_listed_once_keeps_that_list_for_the_whole_command(tmp_path):
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    library = Library.at(root)
    listed = library.listed()
    (root / "incidents" / "IL-0002.yaml").write_text(incident("IL-0002"), encoding="utf-8")
    assert listed.incident_names() == ["IL-0001.yaml"]
    assert library.incident_names() == ["IL-0001.yaml", "IL-0002.yaml"]
    assert listed == library  # the same library, whatever it listed


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--base-url", "notaurl", "'notaurl' is not an http(s) address"),
        ("--base-url", "https://", "is not an http(s) address"),
        ("--base-url", "ftp://example.org/", "is not an http(s) address"),
        ("--version", "", "is empty"),
        ("--version", "  ", "is empty"),
        # What the feed could not carry (XML 1.0 has no control characters), or would
        # build links on that lead nowhere; the port and IPv6 ones were internal errors.
        ("--version", "v1.0\x01", "holds U+0001, a control character"),
        ("--version", "v1.0\ufffe", "holds U+FFFE, a noncharacter"),
        ("--since", "", "is empty"),
        ("--base-url", "https://example.org/\x01/", "is not an http(s) address"),
        ("--base-url", "https://example.org/my library/", "is not an http(s) address"),
        ("--base-url", "https://example.org/?page=1", "is not an http(s) address"),
        ("--base-url", "https://[::1/", "is malformed (Invalid IPv6 URL)"),
        ("--base-url", "https://example.org:99999/", "is malformed (Port out of range"),
    ],
)
def test_a_base_url_or_version_that_cannot_be_meant_is_a_usage_error(
    repo, tmp_path, option, value, message
):
    # The feed's links are built on --base-url as it stands; an empty --version used to
    # fall back to `git describe` without a word.
    run = run_export(repo, tmp_path / "out", option, value)
    assert run.code == 2
    assert f"Invalid value for '{option}'" in run.err and message in run.err
    assert not (tmp_path / "out").exists()


# --- the consumer example ----------------------------------------------------------------


def run_consumer(*args: str) -> subprocess.CompletedProcess[str]:
    """`-I -S`: isolated, without site-packages, so only the standard library is importable."""
    return subprocess.run(
        [sys.executable, "-I", "-S", str(REPO / "examples" / "consume_export.py"), *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )


def test_consumer_example_verifies_and_lists_incidents_by_component(repo, tmp_path):
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    run = run_consumer(str(out))
    assert run.returncode == 0, run.stderr
    print(run.stdout)
    lines = run.stdout.splitlines()
    assert lines[0].startswith("Incident Library v1.0.0 (commit ")
    # Three incidents, six files beside them, and the schemas the export ships.
    assert lines[0].endswith(f"schema 1.1.0: {9 + len(SCHEMAS)} files verified")
    assert "NCCL (nccl): 2" in lines
    assert "GPU (gpu): 1" in lines
    assert any(line.startswith("  IL-0002  2024-05") for line in lines)
    assert not any("IL-0003" in line for line in lines)  # withdrawn

    (out / "incidents" / "IL-0001.json").write_bytes(b"{}")
    tampered = run_consumer(str(out))
    assert tampered.returncode == 1
    assert "FAILED incidents/IL-0001.json: 2 bytes, manifest says" in tampered.stderr


def test_consumer_example_refuses_a_file_it_reads_that_the_manifest_does_not_list(repo, tmp_path):
    # docs/export.md: verify each file you use. The example checked the files the manifest
    # lists, then read incidents.json and taxonomy.json whether they were listed or not.
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    manifest = load(out, "manifest.json")
    manifest["files"] = [entry for entry in manifest["files"] if entry["path"] != "taxonomy.json"]
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    run = run_consumer(str(out))
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr == "FAILED taxonomy.json: not listed in manifest.json\n"


def test_consumer_example_shows_the_incident_to_cite_for_an_id(repo, tmp_path):
    # docs/export.md, step 3: follow `duplicate_of` from a withdrawn incident, and show an
    # id the export does not hold (a draft) as not available.
    repo.write("IL-0001.yaml", incident("IL-0001") + "related:\n  - IL-0002\n  - IL-0004\n")
    repo.commit("2024-03-01T00:00:00", "IL-0001 related")
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    duplicate = run_consumer(str(out), "--id", "IL-0003")
    assert (duplicate.returncode, duplicate.stderr) == (0, "")
    assert duplicate.stdout.splitlines()[1:] == [
        "IL-0003 → IL-0001 (withdrawn as a duplicate; cite the last)",
        f"IL-0001  published  {TITLE}",
        f"  related IL-0002  {TITLE}",
        "  related IL-0004  (not available)",
    ]
    draft = run_consumer(str(out), "--id", "IL-0004")
    assert draft.stdout.splitlines()[1:] == [
        "IL-0004: not available (not in this export: a draft, or no such incident)"
    ]
    unknown = run_consumer(str(out), "--component", "no-such-term")
    assert unknown.returncode == 2 and len(unknown.stdout.splitlines()) == 1  # the header
    assert unknown.stderr == "no published incident carries the component no-such-term\n"


def test_consumer_example_fails_on_a_manifest_that_is_not_an_exports(repo, tmp_path):
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    manifest = load(out, "manifest.json")
    (out / "manifest.json").write_text(json.dumps({**manifest, "schema_version": "one"}))
    run = run_consumer(str(out))
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr == (
        "FAILED manifest.json: not the manifest of an export (ValueError: invalid literal "
        "for int() with base 10: 'one')\n"
    )


def test_consumer_example_stops_quietly_when_its_reader_goes_away(repo, tmp_path):
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    script = str(REPO / "examples" / "consume_export.py")
    consumer = subprocess.Popen(
        [sys.executable, "-I", "-S", script, str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert consumer.stdout is not None and consumer.stderr is not None
    consumer.stdout.close()  # as `| head -0` does, before a line is read
    error = consumer.stderr.read().decode("utf-8")
    assert (consumer.wait(), error) == (0, "")


def test_history_follows_renames_and_restores_keep_the_first_date():
    def at(day: int) -> Commit:
        return Commit(f"{day:040d}", dt.datetime(2024, 1, day, tzinfo=dt.UTC))

    history = file_history(
        [
            FileEvent(at(1), "A", "incidents/IL-NEW-x.yaml"),
            FileEvent(at(2), "M", "incidents/IL-NEW-x.yaml"),
            FileEvent(at(3), "R", "incidents/IL-0001.yaml", "incidents/IL-NEW-x.yaml"),
            FileEvent(at(4), "D", "incidents/IL-0001.yaml"),
            FileEvent(at(5), "A", "incidents/IL-0001.yaml"),
            FileEvent(at(6), "A", "incidents/IL-0002.yaml"),
            FileEvent(at(7), "D", "incidents/IL-0002.yaml"),
        ]
    )
    days = {path: (d.added.day, d.modified.day) for path, d in history.dates.items()}
    assert days == {"incidents/IL-0001.yaml": (1, 5)}
    gone = {path: (d.added.day, d.modified.day) for path, d in history.gone.items()}
    assert gone == {"incidents/IL-NEW-x.yaml": (1, 3), "incidents/IL-0002.yaml": (6, 7)}


def test_the_closing_line_names_the_version_and_the_commit_once_each(repo, tmp_path):
    commit = repo.git("rev-parse", "HEAD").strip()[:12]
    run = run_export(repo, tmp_path / "tagged")
    assert run.err == f"exported 3 incidents, v1.0.0 ({commit}), to {tmp_path / 'tagged'}\n"
    repo.git("tag", "-d", "v1.0.0")  # before the first tag the version is the short id
    run = run_export(repo, tmp_path / "untagged")
    assert run.err == f"exported 3 incidents, {commit}, to {tmp_path / 'untagged'}\n"


def test_quiet_export_prints_the_findings_only_and_writes_the_same_files(repo, tmp_path):
    loud, quiet = tmp_path / "loud", tmp_path / "quiet"
    said = run_export(repo, loud)
    assert said.err.startswith("exported 3 incidents") and " IL304 " in said.out
    run = run_export(repo, quiet, "--quiet")
    assert (run.code, run.out, run.err) == (0, said.out, "")  # as `curator lint --quiet`
    assert files_of(quiet) == files_of(loud)


# --- one pass: lint renders what it parses (curator/export/released.py) ------------------


def _numbered_repo(tmp_path: Path, numbers: list[int]) -> GitLibrary:
    """Incidents by number, so that their names sort otherwise than their ids."""
    repo = GitLibrary(tmp_path / "numbered")
    for number in numbers:
        repo.write(f"IL-{number:04d}.yaml", incident(f"IL-{number:04d}"))
    repo.commit("2024-01-01T10:00:00")
    return repo


def test_lint_checks_files_in_the_order_the_export_asks_and_hands_them_over_so(tmp_path):
    # By name, IL-10000 comes before IL-9999; the export streams by id, so lint checks the
    # files (and calls `take`) in id order for it.
    repo = _numbered_repo(tmp_path, [10000, 9999, 10001, 2])
    taken: list[str] = []

    def name(file, digest, payload):
        return file.path.name

    def id_order(path: str) -> tuple[int, int, str]:
        return name_order(Path(path).name)

    lint(Library.at(repo.root), extra=Extra(name, lambda path, n: taken.append(n), id_order))
    assert taken == ["IL-0002.yaml", "IL-9999.yaml", "IL-10000.yaml", "IL-10001.yaml"]


@pytest.mark.parametrize(
    ("cache", "asked", "hashed"), [(False, False, False), (False, True, True), (True, False, True)]
)
def test_lint_hashes_a_file_only_for_the_cache_or_an_extra_that_reads_the_digest(
    tmp_path, cache, asked, hashed
):
    repo = _numbered_repo(tmp_path, [2, 1])
    given: dict[str, str | None] = {}

    def digest(file, digest, payload):
        given[file.path.name] = digest

    extra = Extra(digest, lambda path, value: None, digest=asked)
    lint(Library.at(repo.root), cache=cache, extra=extra)
    assert given == {
        name: hashlib.sha256((repo.root / "incidents" / name).read_bytes()).hexdigest()
        if hashed
        else None
        for name in ("IL-0001.yaml", "IL-0002.yaml")
    }


def test_an_export_without_the_cache_hashes_no_file_as_lint_checks_it(tmp_path, monkeypatch):
    # (No one reads the digest then: the export's cache keeps its incidents under it.)
    repo = _numbered_repo(tmp_path, [1, 2, 3])
    library = Library.at(repo.root)
    hashed: list[bytes] = []
    real_digest = curator.lint.content_digest

    def counted(raw: bytes) -> str:
        hashed.append(raw)
        return real_digest(raw)

    monkeypatch.setattr(curator.lint, "content_digest", counted)
    export(library, tmp_path / "cold", ExportOptions(cache=False, jobs=1))
    assert hashed == []
    export(library, tmp_path / "kept", ExportOptions(jobs=1))
    assert len(hashed) == 3
    for name in ("incidents.json", "incidents.csv", "incidents/IL-0002.json"):
        assert (tmp_path / "cold" / name).read_bytes() == (tmp_path / "kept" / name).read_bytes()


@pytest.mark.parametrize("held", [0, 1, 1_000])
def test_what_lint_renders_after_a_file_it_did_not_is_written_in_its_turn(
    tmp_path, monkeypatch, held
):
    # A file whose lint result is cached is rendered after lint: what lint rendered after it
    # waits (whole, up to HELD incidents; past that, as its released data alone, rendered
    # again), and the bytes are those of an export that renders everything itself.
    monkeypatch.setattr(released, "HELD", held)
    repo = _numbered_repo(tmp_path, [1, 2, 3, 9999, 10000])
    library = Library.at(repo.root)
    truth = tmp_path / "truth"
    export(library, truth, ExportOptions(cache=False))
    export(library, tmp_path / "first", ExportOptions(jobs=1))  # lint's cache now holds all
    for number in (2, 3, 9999, 10000):  # lint parses these again; IL-0001 stays cached
        repo.write(f"IL-{number:04d}.yaml", incident(f"IL-{number:04d}", GPU))
    repo.commit("2024-02-01T10:00:00")
    export(library, truth, ExportOptions(cache=False))
    rendered: list[str] = []
    real_render = released.render

    def counting_render(task, folder, previous=None):
        rendered.append(Path(task.path).name)
        return real_render(task, folder, previous)

    monkeypatch.setattr(released, "render", counting_render)
    export(library, tmp_path / "out", ExportOptions(jobs=1))
    assert files_of(tmp_path / "out") == files_of(truth)
    again = ["IL-0002.yaml", "IL-0003.yaml", "IL-9999.yaml", "IL-10000.yaml"][held:]
    assert rendered == ["IL-0001.yaml", *again]


def test_an_incident_lint_cannot_render_is_rendered_after_it(tmp_path, monkeypatch):
    # A write that fails in lint's worker is no lint finding: the file is rendered again
    # after lint, where a failure is the export's own error.
    repo = _numbered_repo(tmp_path, [1, 2])
    real_write = released.write_file
    failures: list[str] = []

    def failing_once(folder, path, data, previous=None):
        if path.endswith("IL-0002.json") and not failures:
            failures.append(path)
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(folder, path, data, previous)

    monkeypatch.setattr(released, "write_file", failing_once)
    export(Library.at(repo.root), tmp_path / "out", ExportOptions(jobs=1))
    assert failures == ["incidents/IL-0002.json"]
    assert load(tmp_path / "out", "incidents/IL-0002.json")["id"] == "IL-0002"
    assert [i["id"] for i in load(tmp_path / "out", "incidents.json")["incidents"]] == [
        "IL-0001",
        "IL-0002",
    ]


def test_graph_json_of_no_published_incident_holds_the_terms_and_no_edge(tmp_path):
    taxonomy = Library.at(REPO).taxonomy
    with ExportWriter(tmp_path / "out") as writer, GraphStream(writer) as graph:
        graph.finish(taxonomy, [], {})
    text = (tmp_path / "out" / "graph.json").read_text(encoding="utf-8")
    terms = [term for dimension in taxonomy.terms.values() for term in dimension]
    nodes = json.loads(text)["nodes"]
    assert [node["id"] for node in nodes] == terms and {n["count"] for n in nodes} == {0}
    assert text.endswith('}\n  ],\n  "edges": []\n}\n')
    assert text.count("\n") == len(terms) + 5  # a line each, and the lists' brackets


def test_graph_json_is_streamed_an_incident_at_a_time_in_the_order_given(tmp_path):
    taxonomy = Library.at(REPO).taxonomy
    with ExportWriter(tmp_path / "out") as writer, GraphStream(writer) as graph:
        for number in range(1, 7_001):  # more than a batch
            node = f'{{"kind": "incident", "id": "IL-{number:04d}"}}'.encode()
            graph.add(node, b'{"kind": "facet"},\n    {"kind": "facet"}' if number == 2 else b"")
        graph.finish(taxonomy, [], {})
    loaded = json.loads((tmp_path / "out" / "graph.json").read_bytes())
    incidents = [node["id"] for node in loaded["nodes"] if node["kind"] == "incident"]
    assert incidents == [f"IL-{number:04d}" for number in range(1, 7_001)]
    assert loaded["edges"] == [{"kind": "facet"}, {"kind": "facet"}]


def test_a_file_lint_judges_less_its_byte_order_marks_is_not_rendered_from_those_values(tmp_path):
    # Lint judges a file whose one problem is U+FEFF in its text by its values less them
    # (so that the other rules speak now): those are not the file's bytes' values, and what
    # the export renders from lint's parse is kept in its cache under the bytes' digest.
    taxonomy = load_taxonomy(REPO / "schema" / "taxonomy")
    (tmp_path / "out" / "incidents").mkdir(parents=True)
    dates = ("2024-01-01T00:00:00Z", "2024-01-02T00:00:00Z")
    path = tmp_path / "IL-0001.yaml"
    for text, rendered in [("스토리지의", True), ("스토\ufeff리지의", False)]:
        raw = incident("IL-0001", ("스토리지의", text)).encode()
        file = parse_incident(path, path.name, raw, taxonomy, dt.date(2026, 1, 1))
        assert file.incident is not None
        digest = content_digest(raw)
        made = released.render_parsed(file, digest, dates, tmp_path / "out")
        assert (made is not None) is rendered


# A file over the limit fails (EFBIG), as all fail on a full disk (ENOSPC): IL-0005.json is
# the only incident file not linked from the earlier export; the taxonomy's is streamed.
@pytest.mark.parametrize(
    ("limit", "refused"), [(1000, "incidents/IL-0005.json"), (6000, "taxonomy.json")]
)
def test_a_file_the_system_refuses_to_write_is_named_where_it_was_to_be(
    repo, tmp_path, limit, refused
):
    # On a full disk export said "curator: No space left on device", naming no file (a
    # write names none; a file written in pieces was refused as it closed).
    out = tmp_path / "out"
    assert run_export(repo, out).code == 0
    before = files_of(out)
    repo.write("IL-0005.yaml", incident("IL-0005"))
    repo.commit("2024-03-01T10:00:00")
    limited = lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))  # noqa: E731
    args = ("-m", "curator", "export", "--root", str(repo.root), "--out", str(out))
    run = ended(start_python(*args, preexec_fn=limited))
    assert (run.code, run.err) == (2, f"curator: {out / refused}: File too large\n")
    assert files_of(out) == before  # the earlier export, as it was
    assert sorted(os.listdir(tmp_path)) == ["lib", "out"]  # and nothing beside it


# An export stopped (here by a ValueError) while graph.json holds its first bytes unwritten,
# on a file system where no more can be written: files over 5 bytes fail (EFBIG).
_STOPPED_ON_A_FULL_DISK = """
import resource, sys
from pathlib import Path
from curator.export.graph import GraphStream
from curator.export.write import ExportWriter
resource.setrlimit(resource.RLIMIT_FSIZE, (5, 5))
try:
    with ExportWriter(Path(sys.argv[1])) as writer, GraphStream(writer):
        raise ValueError("what stopped the export")
except Exception as exc:
    sys.exit(f"{type(exc).__name__}: {exc}")
"""


def test_what_stopped_an_export_is_said_not_that_its_graph_could_not_be_finished(tmp_path):
    # graph.json was closed as if finished, which failed in turn on a full disk, and that
    # was said in the place of what stopped the export.
    run = ended(start_python("-c", _STOPPED_ON_A_FULL_DISK, str(tmp_path / "out")))
    assert (run.code, run.err) == (1, "ValueError: what stopped the export\n")
    assert os.listdir(tmp_path) == []  # (the temporary folder deleted)


def test_an_out_that_is_a_link_to_no_folder_is_refused_at_once(repo, tmp_path):
    # A link to nothing failed at the end, naming the export's temporary folder
    # (".out.curator-partial-…: Not a directory"); one to itself, or a path through it,
    # was an internal error (Path.resolve's RuntimeError on Python 3.11).
    (tmp_path / "gone").symlink_to("nowhere")
    (tmp_path / "loop").symlink_to("loop")
    said = {
        "gone": f"{tmp_path / 'gone'} is a symbolic link to no folder (nowhere): remove it, "
        "or choose another folder",
        "loop": f"{tmp_path / 'loop'} is a symbolic link to no folder (loop): remove it, or "
        "choose another folder",
        "loop/out": f"cannot write {tmp_path / 'loop' / 'out'}: {tmp_path / 'loop'} is not a "
        "folder",
    }
    for out, message in said.items():
        run = run_export(repo, tmp_path / out)
        assert (run.code, run.err) == (2, f"curator: export failed: {message}\n"), run
    assert sorted(os.listdir(tmp_path)) == ["gone", "lib", "loop"]
