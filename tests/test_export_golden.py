"""The export's bytes, pinned: what downstream tools read must not change by accident.

A small fixed library (tests/data/export-golden/: its own taxonomy, so that the real one can
grow freely) is committed at fixed times and exported; every file must equal its copy in
tests/snapshots/export/. An intended change to the format is a versioned decision
(docs/export.md): make it, bump `schema_version` as the change requires, then rewrite the
copies with `UPDATE_SNAPSHOTS=1 python -m pytest tests/test_export_golden.py` and read
their diff. `export-format.json` there pins the format's fields and constraints to its
`schema_version`, so that a change to the format cannot be recorded without the bump the
policy asks for.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA, REPO, committed_at, run_curator

from curator.export.model import SCHEMA_VERSION
from curator.export.schema import SCHEMAS, json_schema

GOLDEN = DATA / "export-golden"
SNAPSHOT = Path(__file__).parent / "snapshots" / "export"
FORMAT = Path(__file__).parent / "snapshots" / "export-format.json"


def git(root: Path, *args: str, when: str) -> None:
    # Commit ids are part of the export: no hook or setting of this machine may change them.
    env = {**committed_at(when), "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    command = ["git", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false", *args]
    subprocess.run(command, cwd=root, env=env, capture_output=True, check=True)


def commit(root: Path, incidents: Path, when: str, tag: str) -> None:
    shutil.copytree(incidents, root / "incidents", dirs_exist_ok=True)
    git(root, "add", "-A", when=when)
    git(root, "commit", "-q", "-m", tag, when=when)
    git(root, "tag", tag, when=when)


def files_of(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def golden_library(root: Path) -> Path:
    """The fixed library, committed at fixed times: v1.0.0, two published incidents, a
    withdrawn duplicate, a draft; v1.1.0 changes one title and adds an incident (a CSV
    formula guard, two organisations, `related`)."""
    shutil.copytree(GOLDEN / "schema", root / "schema")
    git(root, "init", "-q", "-b", "main", when="2024-01-01T00:00:00")
    commit(root, GOLDEN / "incidents-1", "2024-05-20T09:30:00", "v1.0.0")
    commit(root, GOLDEN / "incidents-2", "2024-07-01T12:00:00", "v1.1.0")
    return root


def test_the_export_of_a_fixed_library_is_byte_for_byte_its_snapshot(tmp_path):
    root = golden_library(tmp_path / "lib")
    out = tmp_path / "export"
    run = run_curator("export", "--root", str(root), "--out", str(out), "--no-cache")
    assert run.code == 0, run
    exported = files_of(out)
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        shutil.rmtree(SNAPSHOT, ignore_errors=True)
        shutil.copytree(out, SNAPSHOT)
    pinned = files_of(SNAPSHOT)
    assert sorted(exported) == sorted(pinned), "files added or gone (UPDATE_SNAPSHOTS=1)"
    for path, data in exported.items():
        assert data == pinned[path], f"{path} differs from its snapshot (UPDATE_SNAPSHOTS=1)"


def test_graph_json_tells_a_deprecated_term_from_a_current_one_as_taxonomy_json_does(tmp_path):
    # A tool reading graph.json alone drew a term `curator fix` is replacing as any other.
    root = golden_library(tmp_path / "lib")
    out = tmp_path / "export"
    assert run_curator("export", "--root", str(root), "--out", str(out), "--no-cache").code == 0
    graph = json.loads((out / "graph.json").read_text(encoding="utf-8"))
    taxonomy = json.loads((out / "taxonomy.json").read_text(encoding="utf-8"))
    in_graph = {n["id"]: n["deprecated"] for n in graph["nodes"] if n["kind"] == "term"}
    in_taxonomy = {t["id"]: t["deprecated"] for d in taxonomy["dimensions"] for t in d["terms"]}
    assert in_graph == in_taxonomy
    assert in_graph["storage"] == {"replaced_by": "nccl", "reason": "시험용으로 합쳤다."}
    assert in_graph["nccl"] is None


# --- the format and its schema_version ----------------------------------------------------

# What a patch version may change: the words (docs/export.md, "Patch"). Everything else in
# the models' schemas (types, patterns, enums, bounds) is the format.
_WORDS = ("description", "title", "examples")
BUMPS = ("none", "patch", "minor", "major")


def export_format() -> dict[str, Any]:
    """The format of every JSON file of the export: a digest of the models' schemas (whose
    open sets list their values) and of the published ones (what consumers' validators
    accept), without their words, and each field's types."""
    schemas = {
        name: model.model_json_schema(mode="serialization") for name, model in SCHEMAS.items()
    }
    published = {name: json_schema(name) for name in SCHEMAS}
    unworded = json.dumps(_without_words([schemas, published]), sort_keys=True).encode()
    return {
        "schema_version": SCHEMA_VERSION,
        "digest": hashlib.sha256(unworded).hexdigest(),
        "fields": {name: _field_types(schema) for name, schema in schemas.items()},
    }


def _without_words(node: Any, names: bool = False) -> Any:
    """`node` without its descriptions, titles and examples; `names`: a mapping of
    properties or definitions, whose keys are names (a property may be called `title`)."""
    if isinstance(node, list):
        return [_without_words(item) for item in node]
    if not isinstance(node, dict):
        return node
    return {
        key: _without_words(value, key in ("properties", "$defs") and not names)
        for key, value in node.items()
        if names or key not in _WORDS
    }


def _field_types(schema: dict[str, Any]) -> dict[str, str]:
    """Each field's path (`changes[].fields[]`) and JSON types (`null|string`)."""
    definitions = schema.get("$defs", {})
    found: dict[str, set[str]] = {}

    def walk(node: dict[str, Any], path: str) -> None:
        if "$ref" in node:
            walk(definitions[node["$ref"].rsplit("/", 1)[1]], path)
        for option in (*node.get("anyOf", ()), *node.get("oneOf", ())):
            walk(option, path)
        if "type" in node and path:  # (the file itself is an object)
            found.setdefault(path, set()).add(node["type"])
        for name, value in node.get("properties", {}).items():
            walk(value, f"{path}.{name}" if path else name)
        if "items" in node:
            walk(node["items"], f"{path}[]")

    walk(schema, "")
    return {path: "|".join(sorted(types)) for path, types in sorted(found.items())}


def bump_needed(before: dict[str, Any], now: dict[str, Any]) -> tuple[str, list[str]]:
    """The least bump of `schema_version` that docs/export.md asks for between two formats,
    and the changes that ask for it."""
    old, new = _flat(before["fields"]), _flat(now["fields"])
    gone = [f"{_shown(field)} removed" for field in old if field not in new]
    retyped = [
        f"{_shown(field)}: {old[field]} -> {new[field]}"
        for field in old
        if new.get(field, old[field]) != old[field]
    ]
    added = [f"{_shown(field)} added" for field in added_fields(before, now)]
    if gone or retyped:
        return "major", gone + retyped + added
    if added or before["digest"] != now["digest"]:
        return "minor", added or ["a type's constraint or values"]
    return "none", []


def added_fields(before: dict[str, Any], now: dict[str, Any]) -> list[tuple[str, str]]:
    """(schema, path) of each field `now` has and `before` had not."""
    old = _flat(before["fields"])
    return [field for field in _flat(now["fields"]) if field not in old]


def _flat(fields: dict[str, dict[str, str]]) -> dict[tuple[str, str], str]:
    return {(name, path): types for name, paths in fields.items() for path, types in paths.items()}


def _shown(field: tuple[str, str]) -> str:
    return f"{field[0]}: {field[1]}"


def bump_between(before: str, after: str) -> str:
    """The bump from one version to the next ("none" for the same, a step back, or one
    that skips a version: 1.1.0 to 1.2.1, or to 1.3.0)."""
    old, new = (tuple(int(part) for part in v.split(".")) for v in (before, after))
    for bump, position in (("major", 0), ("minor", 1), ("patch", 2)):
        if new[position] != old[position]:
            one_up = new[position] == old[position] + 1
            return bump if one_up and new[position + 1 :] == (0,) * (2 - position) else "none"
    return "none"


def released_schema_version(changelog: str) -> str:
    """The `schema_version` of the last release: the highest that CHANGELOG.md names
    below its Unreleased section."""
    _unreleased, released = re.split(r"^## \d", changelog, maxsplit=1, flags=re.MULTILINE)
    named = re.findall(r"`schema_version`\W*(\d+\.\d+\.\d+)", released)
    return max(named, key=lambda version: tuple(int(part) for part in version.split(".")))


def test_a_change_of_the_export_format_bumps_its_schema_version_as_the_policy_asks():
    # Export fields are public API: a field added, removed or retyped with `--write` and
    # UPDATE_SNAPSHOTS=1 passed every test with the same schema_version, and consumers
    # checking the major (docs/export.md, "Consuming it") read a 2.0 format as 1.x.
    # And it moves once between two releases: counted from the last release, a bump this
    # cycle covers every later change that asks for no greater one (1.1.0, 1.2.0 and 1.3.0
    # came one after another, none of them released).
    pinned = json.loads(FORMAT.read_text(encoding="utf-8"))
    now = export_format()
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    released = released_schema_version(changelog)
    made = bump_between(released, SCHEMA_VERSION)
    assert released == SCHEMA_VERSION or made != "none", (
        f"SCHEMA_VERSION {SCHEMA_VERSION} is not one step from {released}, the last "
        "release's: it moves once between two releases (docs/export.md, Versioning policy)"
    )
    needed, why = bump_needed(pinned, now)
    this_cycle = bump_between(released, pinned["schema_version"])
    needed = max(needed, this_cycle, key=BUMPS.index)
    assert BUMPS.index(made) >= BUMPS.index(needed), (
        f"the export format changed ({'; '.join(why)}): bump SCHEMA_VERSION "
        f"{released} by at least a {needed} version (docs/export.md, "
        "Versioning policy), then UPDATE_SNAPSHOTS=1"
    )
    docs = (REPO / "docs" / "export.md").read_text(encoding="utf-8")
    names = {re.split(r"[.\[\]]+", path.rstrip("[]"))[-1] for _, path in added_fields(pinned, now)}
    undocumented = sorted(name for name in names if f"`{name}`" not in docs)
    assert undocumented == [], f"docs/export.md does not name {undocumented}"
    assert re.search(rf"`schema_version`\W*{re.escape(SCHEMA_VERSION)}\b", changelog), (
        f"CHANGELOG.md does not say what schema_version {SCHEMA_VERSION} changed"
    )
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        text = json.dumps(now, indent=2, ensure_ascii=False) + "\n"
        FORMAT.write_text(text, encoding="utf-8")
    assert now == json.loads(FORMAT.read_text(encoding="utf-8")), (
        "the format or its version differs from export-format.json (UPDATE_SNAPSHOTS=1)"
    )


_FIELDS = {"manifest.schema.json": {"counts": "object", "counts.terms": "integer"}}


@pytest.mark.parametrize(
    ("fields", "digest", "needed"),
    [
        (_FIELDS, "a", "none"),
        (_FIELDS, "b", "minor"),  # a pattern narrowed, a value added (1.1.0)
        (
            {
                "manifest.schema.json": {
                    **_FIELDS["manifest.schema.json"],
                    "counts.drafts": "integer",
                }
            },
            "b",
            "minor",
        ),
        ({"manifest.schema.json": {"counts": "object"}}, "b", "major"),
        ({"manifest.schema.json": {"counts": "object", "counts.terms": "string"}}, "b", "major"),
    ],
    ids=["same", "constraint", "added", "removed", "retyped"],
)
def test_the_bump_a_change_of_format_asks_for(fields, digest, needed):
    before = {"digest": "a", "fields": _FIELDS}
    assert bump_needed(before, {"digest": digest, "fields": fields})[0] == needed


@pytest.mark.parametrize(
    ("after", "bump"),
    [
        ("1.1.0", "none"),
        ("1.1.1", "patch"),
        ("1.2.0", "minor"),
        ("2.0.0", "major"),
        ("1.2.1", "none"),
        ("2.1.0", "none"),
        ("1.0.9", "none"),
        ("1.3.0", "none"),
        ("3.0.0", "none"),
    ],
)
def test_the_bump_between_two_versions(after, bump):
    # 1.2.1 and 1.3.0 skip a version a consumer would have known; 1.0.9 goes back.
    assert bump_between("1.1.0", after) == bump


def test_the_last_release_s_schema_version_is_the_highest_a_released_section_names():
    changelog = (
        "# Changelog\n\n## Unreleased\n\n- Export `schema_version` **2.0.0**: …\n\n"
        "## 0.2.0\n\n- Export `schema_version` **1.10.0**: …\n\n"
        "## 0.1.0\n\nThe first version (export `schema_version` 1.9.0).\n"
    )
    assert released_schema_version(changelog) == "1.10.0"
    assert released_schema_version((REPO / "CHANGELOG.md").read_text(encoding="utf-8")) == "1.0.0"
