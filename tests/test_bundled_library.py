"""The library this repository ships: clean under lint, valid under the published schema."""

from __future__ import annotations

import json
import shutil
import subprocess

import jsonschema
import pytest
from conftest import REPO, committed_at, typed_like_other_tools

from curator.library import Library
from curator.lint import lint
from curator.load import load_bytes
from curator.model import DIMENSIONS

LIBRARY = Library.at(REPO)
SEED_IDS = ["IL-0025", "IL-0032", "IL-0116", "IL-0128", "IL-0129", "IL-0137", "IL-0198"]
SEED_CAUSES = {
    "capacity-limit": "용량 한계",
    "dependency-failure": "의존성 장애",
    "dns-network-failure": "DNS·네트워크 장애",
    "upgrade-incompatibility": "업그레이드로 깨진 호환성",
    "config-change": "설정 변경",
    "software-defect": "소프트웨어 결함",
}


def test_lint_is_clean():
    findings = lint(LIBRARY)
    assert [f for f in findings if f.severity == "error"] == []


def test_seed_incidents_are_present():
    names = {p.stem for p in LIBRARY.incident_paths()}
    assert set(SEED_IDS) <= names


@pytest.mark.parametrize("path", LIBRARY.incident_paths(), ids=lambda p: p.name)
def test_every_incident_validates_against_the_published_json_schema(path):
    # As curator reads it, and as any other tool given the schema does.
    schema = json.loads((REPO / "schema" / "incident.schema.json").read_text(encoding="utf-8"))
    raw = path.read_bytes()
    jsonschema.Draft202012Validator(schema).validate(load_bytes(raw).data)
    jsonschema.Draft202012Validator(schema).validate(typed_like_other_tools(raw))


def test_every_taxonomy_file_validates_against_its_json_schema():
    schema = json.loads((REPO / "schema" / "taxonomy.schema.json").read_text(encoding="utf-8"))
    for dimension in DIMENSIONS:
        raw = (LIBRARY.taxonomy_dir / f"{dimension}.yaml").read_bytes()
        jsonschema.Draft202012Validator(schema).validate(load_bytes(raw).data)
        jsonschema.Draft202012Validator(schema).validate(typed_like_other_tools(raw))


def test_taxonomy_is_consistent_and_has_the_seed_causes():
    taxonomy = LIBRARY.taxonomy
    assert taxonomy.problems == []
    assert taxonomy.warnings == []  # (IL305: no alias two terms share)
    for term_id, label in SEED_CAUSES.items():
        term = taxonomy.term("causes", term_id)
        assert term is not None and term.label.ko == label
    assert taxonomy.term("causes", "hardware-failure") is not None
    for dimension in DIMENSIONS:
        for term in taxonomy.terms[dimension].values():
            assert term.label.ko.strip() and term.label.en.strip() and term.description.strip()


def test_files_are_utf8_without_escapes():
    for path in LIBRARY.incident_paths():
        text = path.read_text(encoding="utf-8")
        assert "\\u" not in text and "\\x" not in text, path.name


def test_a_clone_made_with_windows_line_ends_checks_the_library_out_as_committed(tmp_path):
    # Git for Windows sets core.autocrlf to true: a clone's incident and taxonomy files then
    # had CRLF line ends, each an IL603 error, and `curator export` refused the release.
    # The repository's .gitattributes asks for LF in every checkout.
    source = tmp_path / "source"
    for folder in ("incidents", "schema"):
        shutil.copytree(REPO / folder, source / folder)
    shutil.copy(REPO / ".gitattributes", source)
    env = committed_at("2026-01-05T00:00:00")
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "library"]):
        subprocess.run(["git", *command], cwd=source, env=env, check=True)
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", "-c", "core.autocrlf=true", str(source), str(clone)], check=True
    )
    checked_out = [*(clone / "incidents").iterdir(), *(clone / "schema" / "taxonomy").iterdir()]
    assert len(checked_out) == len(LIBRARY.incident_paths()) + 4
    assert [p.name for p in checked_out if b"\r\n" in p.read_bytes()] == []
    assert lint(Library.at(clone)) == []
