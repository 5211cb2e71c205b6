"""Generated files must match their generators: schemas from the models, docs from rules."""

import json
import os
import subprocess
import sys

import pytest
from conftest import REPO

from curator.ruledocs import rules_markdown
from curator.schema import SCHEMAS, render


def test_committed_json_schemas_match_the_models():
    for name in SCHEMAS:
        committed = (REPO / "schema" / name).read_text(encoding="utf-8")
        assert committed == render(name), (
            f"schema/{name} is stale: python -m curator.schema --write"
        )


def test_no_json_schema_claims_an_address_nothing_publishes():
    # Each had an `$id` under https://incident-library.github.io/schema/, which nothing
    # serves: a validator that trusted it to fetch or name the schema was sent nowhere.
    for path in sorted((REPO / "schema").rglob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        assert "$id" not in schema, path
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema", path


def test_rules_doc_matches_the_registry():
    committed = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == rules_markdown(), (
        "docs/rules.md is stale: curator rules --format markdown > docs/rules.md"
    )


def test_every_rule_documents_itself():
    from curator.rules import ALL, documentation

    codes = [m.RULE.code for m in ALL]
    assert len(codes) == len(set(codes))
    for module in ALL:
        assert documentation(module), module.__name__
        assert module.RULE.failing.strip() and module.RULE.passing.strip()
        assert module.RULE.summary.endswith(".")


def test_every_schema_property_has_a_description_and_examples():
    for name in SCHEMAS:
        schema = json.loads((REPO / "schema" / name).read_text(encoding="utf-8"))
        objects = [schema, *schema.get("$defs", {}).values()]
        for obj in objects:
            for key, prop in obj.get("properties", {}).items():
                assert prop.get("description"), f"{name}: {key} has no description"
                assert "examples" in prop, f"{name}: {key} has no examples"


@pytest.mark.parametrize(
    ("module", "folder"), [("curator.schema", "schema"), ("curator.export.schema", "schema/export")]
)
def test_the_write_command_writes_the_committed_schemas(tmp_path, module, folder):
    # The command the stale-schema messages name: it must write what is committed, and
    # nothing without --write.
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    bare = subprocess.run(
        [sys.executable, "-m", module], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert (bare.returncode, bare.stderr) == (1, f"usage: python -m {module} --write\n")
    assert not (tmp_path / "schema").exists()
    run = subprocess.run(
        [sys.executable, "-m", module, "--write"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    written = sorted(p.name for p in (tmp_path / folder).iterdir())
    assert sorted(run.stdout.splitlines()) == [f"{folder}/{name}" for name in written]
    assert written == sorted(p.name for p in (REPO / folder).glob("*.json"))
    for name in written:
        assert (tmp_path / folder / name).read_bytes() == (REPO / folder / name).read_bytes()
