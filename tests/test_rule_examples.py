"""Each rule's documented examples (`Rule.failing`, `Rule.passing`, shown in docs/rules.md)
hold: linted in a small library, the failing one gives a finding of that rule and the
passing one none.

An example is the part of a file that matters: its top-level keys take the place of the
same keys in a valid incident (tests/incidents.py), a line `...` stands for the rest of
it, and a line `# incidents/<name>.yaml` (or `# <name>.yaml`) starts the file of that
name. An example of keys `dimension:` or `terms:` is the components taxonomy file, with
`...` in a term for its label and description. Outside quotes, `\\r`, `\\n`, `\\ufeff` and
`\\xNN` stand for bytes a page cannot show (line ends, a byte order mark, bytes that are
not UTF-8); every other escape is YAML's, read only in a double-quoted value."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest
from conftest import REPO

from curator.library import Library
from curator.lint import lint
from curator.rules import ALL
from incidents import incident

# Rules whose examples are words, not files (each is tested elsewhere).
IN_WORDS = {
    "IL001": "any file that makes a rule crash: tests/test_cli.py",
    "IL104": "a 50 MB file: tests/data/broken (IL-1004.yaml)",
    "IL901": "a change between two revisions: tests/test_review.py",
}
# The taxonomy IL302's example names: a deprecated term and the one that replaces it.
DEPRECATED = """\
  - id: old-term
    label: {ko: 옛 용어, en: old term}
    description: 옛 용어.
    deprecated:
      replaced_by: new-term
      reason: 새 용어로 바꿨다.
  - id: new-term
    label: {ko: 새 용어, en: new term}
    description: 새 용어.
"""
_HEADER = re.compile(r"^# (?:incidents/)?(\S+\.ya?ml)\b.*$")
_KEY = re.compile(r"^(?:\ufeff)?([A-Za-z_]\w*):")
_BYTES = re.compile(r"\\(r|n|ufeff|x[0-9a-f]{2})")


def as_bytes(text: str) -> bytes:
    out = bytearray()
    for i, part in enumerate(_BYTES.split(text)):
        if i % 2 == 0:
            out += part.encode()
        elif part.startswith("x"):
            out.append(int(part[1:], 16))
        else:
            out += {"r": "\r", "n": "\n", "ufeff": "\ufeff"}[part].encode()
    return bytes(out)


def blocks(lines: list[str], indent: str) -> dict[str, list[str]]:
    """Each key at `indent` and its lines (the key's own first); lines before any key
    under ""."""
    found: dict[str, list[str]] = {"": []}
    key = ""
    for line in lines:
        if (m := _KEY.match(as_bytes(line).decode("latin-1").removeprefix(indent))) and (
            not line[len(indent) :].startswith(" ")
        ):
            key = m.group(1)
            found.setdefault(key, [])
        found[key].append(line)
    return found


def items(lines: list[str]) -> list[list[str]]:
    """The items of a block's list of mappings (`  - key: …`), each its lines."""
    out: list[list[str]] = []
    for line in lines[1:]:
        if line.startswith("  - "):
            out.append([])
        if out:
            out[-1].append(line)
    return out


def merged(example: str, base: str) -> str:
    """`base` with the keys `example` gives taken from it instead: those of a mapping
    (`facets:`) one by one, and an item of a list of mappings (`sources:`) with the keys
    it lacks from the base's first item."""
    lines = [line for line in example.splitlines(keepends=True) if line.strip() != "..."]
    given = blocks(lines, "")
    if len(given) == 1:  # no key: the example is the whole file (`...` alone: the base)
        return "".join(lines) if lines else base
    out = given.pop("")
    for key, held in blocks(base.splitlines(keepends=True), "").items():
        if key not in given:
            out += held
            continue
        block = given.pop(key)
        inner = blocks(block[1:], "  ")
        if block[0].rstrip() == f"{key}:" and len(inner) > 1 and not inner.pop(""):
            kept = blocks(held[1:], "  ")
            kept.pop("")
            block = block[:1] + [line for k in kept for line in inner.pop(k, kept[k])]
            block += [line for k in inner for line in inner[k]]
        elif (mine := items(block)) and (theirs := items(held)):
            rest = blocks(["    " + line[4:] for line in theirs[0]], "    ")
            block = block[:1]
            for item in mine:
                have = blocks(["    " + line[4:] for line in item], "    ")
                block += item + [line for k in rest if k and k not in have for line in rest[k]]
        out += block
    return "".join(out) + "".join(line for block in given.values() for line in block)


def library(root: Path, code: str, example: str) -> Path:
    taxonomy = root / "schema" / "taxonomy"
    taxonomy.mkdir(parents=True)
    for source in (REPO / "schema" / "taxonomy").glob("*.yaml"):
        (taxonomy / source.name).write_bytes(source.read_bytes())
    incidents = root / "incidents"
    incidents.mkdir()
    if code == "IL107":  # the example is file names
        for line in example.splitlines():
            name = line.split()[0].rstrip("/")
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            if "(a folder)" in line:
                (root / name).mkdir()
            else:
                (root / name).write_text(incident(Path(name).stem.split(".")[0]), "utf-8")
        return root
    if code == "IL302":
        components = taxonomy / "components.yaml"
        components.write_text(components.read_text("utf-8") + DEPRECATED, "utf-8")
    if re.match(r"(dimension|terms):", example):
        text, term = "", ""
        for line in example.splitlines(keepends=True):
            term = line.split()[-1] if line.startswith("  - id: ") else term
            filled = f"    label: {{ko: {term}, en: {term}}}\n    description: {term}.\n"
            text += filled if line == "    ...\n" else line
        if not text.startswith("dimension:"):
            text = "dimension: components\n" + text
        (taxonomy / "components.yaml").write_text(text, "utf-8")
        (incidents / "IL-0001.yaml").write_text(incident("IL-0001"), "utf-8")
        return root
    files: dict[str, str] = {}
    name = "IL-0001.yaml"
    for line in example.splitlines(keepends=True):
        if header := _HEADER.match(line):
            name = header.group(1)
            files[name] = ""
        else:
            files[name] = files.get(name, "") + line
    for name, part in files.items():
        stem = name.split(".")[0]
        (incidents / name).write_bytes(as_bytes(merged(part, incident(stem))))
    return root


def codes(root: Path, code: str, example: str) -> list[str]:
    found = lint(Library.at(library(root, code, example)), cwd=root)
    return [f.code for f in found]


CHECKED = [m for m in ALL if m.RULE.code not in IN_WORDS]


@pytest.mark.parametrize("module", CHECKED, ids=[m.RULE.code for m in CHECKED])
def test_the_failing_example_fails(tmp_path: Path, module: ModuleType) -> None:
    rule = module.RULE
    found = codes(tmp_path, rule.code, rule.failing)
    assert rule.code in found, f"{rule.code}'s failing example gives only {found}"


@pytest.mark.parametrize("module", CHECKED, ids=[m.RULE.code for m in CHECKED])
def test_the_passing_example_passes(tmp_path: Path, module: ModuleType) -> None:
    rule = module.RULE
    found = codes(tmp_path, rule.code, rule.passing)
    assert rule.code not in found, f"{rule.code}'s passing example gives {found}"


def test_only_rules_told_in_words_are_left_out() -> None:
    left = {m.RULE.code for m in ALL} - {m.RULE.code for m in CHECKED}
    assert left == set(IN_WORDS)
