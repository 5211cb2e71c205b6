"""benchmarks/generate.py: a synthetic library that is valid, realistic, deterministic, and
whose deliberate defects are exactly what `curator lint` reports."""

from __future__ import annotations

import collections
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, typed_like_other_tools
from ruamel.yaml import YAML
from synthetic import expected_findings, generator, synthetic_library

from curator.library import Library
from curator.lint import lint
from curator.model import DIMENSIONS
from curator.rules import ALL, CHANGE_RULES


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    return synthetic_library(tmp_path_factory.mktemp("gen") / "lib", count=200, seed=7)


def _tree_digest(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_same_seed_same_bytes_other_seed_other_library(tmp_path, generated):
    root, _ = generated
    again, _ = synthetic_library(tmp_path / "again", count=200, seed=7)
    other, _ = synthetic_library(tmp_path / "other", count=200, seed=8)
    assert _tree_digest(again) == _tree_digest(root)
    assert _tree_digest(other) != _tree_digest(root)
    assert (other / "incidents" / "IL-0001.yaml").read_bytes() != (
        root / "incidents" / "IL-0001.yaml"
    ).read_bytes()


def test_lint_finds_exactly_the_defects_of_the_manifest(generated):
    root, manifest = generated
    findings = lint(Library.at(root), cwd=root)
    assert {(f.path, f.line, f.column, f.code) for f in findings} == expected_findings(manifest)


def test_there_is_a_defect_for_every_rule_a_file_can_break():
    # IL001 is a bug in curator itself; IL303 and IL305 are put in the copied taxonomy
    # instead; a rule of a change (IL9xx) needs two revisions.
    codes = {module.RULE.code for module in ALL if module not in CHANGE_RULES}
    assert set(generator().DEFECTS) | {"IL001", "IL303", "IL305"} == codes


def test_the_manifest_places_every_rules_defect(generated):
    _, manifest = generated
    fired = {e["code"] for e in manifest["expected_findings"]}
    assert fired == set(generator().DEFECTS) | {"IL303", "IL305"}


def test_files_are_the_size_and_shape_of_real_incidents(generated):
    root, manifest = generated
    defective = set(manifest["defect_files"])
    clean = [
        p for p in sorted((root / "incidents").iterdir()) if f"incidents/{p.name}" not in defective
    ]
    assert len(clean) >= 150
    sizes = [p.stat().st_size for p in clean]
    assert min(sizes) >= 2500 and max(sizes) <= 4096, (min(sizes), max(sizes))
    for path in clean:
        text = path.read_text(encoding="utf-8")
        assert "\\u" not in text and "\t" not in text
        hangul = sum("가" <= ch <= "힣" for ch in text)
        assert hangul > 300, path  # Korean narrative
        assert "  - url: https://" in text


def test_facets_are_skewed_like_a_real_catalogue(generated):
    root, _ = generated
    counts: collections.Counter[str] = collections.Counter()
    for path in (root / "incidents").glob("*.yaml"):
        data = _typed(path)
        if isinstance(data, dict) and isinstance(data.get("facets"), dict):
            counts.update(data["facets"].get("components") or [])
    frequencies = sorted(counts.values(), reverse=True)
    # A few terms everywhere, a long tail: the top term is far above the median one.
    assert frequencies[0] >= 5 * frequencies[len(frequencies) // 2], frequencies


def _leaves(value: object) -> list[object]:
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in _leaves(item)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]


def test_every_value_stays_text_for_implicitly_typing_tools(generated):
    # check-jsonschema types `2023` as a number; the generator never writes such a value,
    # so the benchmark compares the two tools on files both accept.
    root, manifest = generated
    defective = set(manifest["defect_files"])
    for path in sorted((root / "incidents").glob("*.yaml")):
        if f"incidents/{path.name}" in defective:
            continue
        leaves = _leaves(_typed(path))
        assert leaves and all(isinstance(leaf, str) for leaf in leaves), path


def test_duplicate_pairs_retell_the_same_event(generated):
    root, manifest = generated
    pairs = manifest["duplicates"]
    assert len(pairs) == 4  # 2% of 200
    yaml = YAML(typ="safe", pure=True)
    for pair in pairs:
        original = yaml.load((root / "incidents" / f"{pair['original']}.yaml").read_bytes())
        duplicate = yaml.load((root / "incidents" / f"{pair['duplicate']}.yaml").read_bytes())
        assert duplicate["occurred"] == original["occurred"]
        assert duplicate["organizations"] == original["organizations"]
        assert {d: duplicate["facets"][d] for d in DIMENSIONS} == {
            d: original["facets"][d] for d in DIMENSIONS
        }
        assert duplicate["symptom"] != original["symptom"]  # told in other words
        if pair["kind"] == "withdrawn":
            assert duplicate["status"] == "withdrawn"
            assert duplicate["duplicate_of"] == pair["original"]
        else:
            assert duplicate["status"] != "withdrawn"


def test_similar_finds_and_flags_every_planted_duplicate(generated):
    # benchmarks/planted_duplicates.py asks it of 100,000 incidents; here, of 200.
    root, manifest = generated
    script = REPO / "benchmarks" / "planted_duplicates.py"
    run = subprocess.run(
        [sys.executable, str(script), str(root)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    row = run.stdout.strip().splitlines()[-1].strip("|").split("|")
    planted, found, flagged, lowest = (cell.strip() for cell in row[:4])
    assert planted == found == flagged == str(len(manifest["duplicates"])) == "4"
    assert float(lowest) >= 0.6


def test_the_command_line_writes_a_library_and_refuses_the_repository(tmp_path):
    script = REPO / "benchmarks" / "generate.py"
    out = tmp_path / "cli"
    run = subprocess.run(
        [sys.executable, str(script), str(out), "--count", "120", "--seed", "3"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "wrote 120 incident files" in run.stdout
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["count"] == 120 and manifest["seed"] == 3
    assert (out / "schema" / "incident.schema.json").is_file()
    for target in (REPO, REPO / "incidents", out):  # `out` is not empty any more
        refused = subprocess.run(
            [sys.executable, str(script), str(target), "--count", "120"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert refused.returncode != 0
        assert "refusing" in refused.stderr or "not empty" in refused.stderr


def _typed(path: Path) -> object:
    try:
        return typed_like_other_tools(path.read_bytes())
    except Exception:
        return None
