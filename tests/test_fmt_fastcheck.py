"""`curator.write.fastcheck`: "canonical" only when the ruamel.yaml render agrees, byte for byte.

The one property that matters: whenever `is_canonical(raw)` says True, `render(raw)` returns
`raw` exactly (and the loader reads `raw` without a problem). It is checked on every real
incident, every YAML file under tests/data (broken ones too), a generated library, many
mutations of those files, values that ruamel would quote or resolve, and texts that
hypothesis writes in many styles. The fast check must also stay useful: it accepts nearly
every canonical file, so that a change which quietly turns it off fails here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from conftest import DATA, REPO
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from synthetic import synthetic_library

from curator.load import load_bytes
from curator.model import DIMENSIONS, INCIDENT_KEYS
from curator.write.canonical import SOURCE_KEYS, Refused, render
from curator.write.fastcheck import is_canonical
from incidents import incident

REAL = sorted((REPO / "incidents").glob("*.yaml"))
TEST_DATA = sorted(p for p in DATA.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def rendered(raw: bytes) -> bytes | None:
    try:
        return render(raw).encode("utf-8")
    except Refused:
        return None


def assert_sound(raw: bytes) -> bool:
    """The implication under test; returns the fast check's answer."""
    fast = is_canonical(raw)
    if fast:
        assert load_bytes(raw).problems == [], raw
        assert rendered(raw) == raw, raw
    return fast


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    """`benchmarks/generate.py OUT --count 300 --seed 3`: canonical by construction, but
    for the few files whose planted defect is a layout one (a comment, a tab, …)."""
    root, _ = synthetic_library(tmp_path_factory.mktemp("fastcheck") / "lib", 300, 3)
    return [path.read_bytes() for path in sorted((root / "incidents").iterdir())]


# Mutations ---------------------------------------------------------------------------------

Mutation = Callable[[bytes], bytes | None]


def _sub(pattern: str, replacement: str, count: int = 1) -> Mutation:
    def mutate(raw: bytes) -> bytes | None:
        text = raw.decode("utf-8", errors="surrogateescape")
        changed = re.sub(pattern, replacement, text, count=count, flags=re.MULTILINE)
        return None if changed == text else changed.encode("utf-8", errors="surrogateescape")

    return mutate


def _literally(text: str) -> str:
    """`text` as a replacement of `re.sub`, backslashes and all."""
    return text.replace("\\", "\\\\")


def _swap_top_level_keys(raw: bytes) -> bytes | None:
    """Two neighbouring top-level entries (a key with its indented lines) change places."""
    blocks = re.split(rb"\n(?=[^ \n])", raw.rstrip(b"\n"))
    if len(blocks) < 3:
        return None
    blocks[1], blocks[2] = blocks[2], blocks[1]
    return b"\n".join(blocks) + b"\n"


def _literal_to_quoted(raw: bytes) -> bytes | None:
    """The first literal block as a double-quoted string holding the same text."""
    text = raw.decode("utf-8", errors="replace")
    match = re.search(r"^(\w+): \|(-?)\n((?:  .*\n|\n)+)", text, re.MULTILINE)
    if match is None:
        return None
    lines = [line[2:] for line in match.group(3).split("\n")[:-1]]
    value = "\n".join(lines) + ("" if match.group(2) else "\n")
    quoted = f"{match.group(1)}: {json.dumps(value, ensure_ascii=False)}\n"
    return (text[: match.start()] + quoted + text[match.end() :]).encode("utf-8")


# Values of `status:` that are plain, quoted, resolved or quoted by ruamel, or not scalars.
ODD_VALUES = [
    "null", "Null", "~", "''", '""', "yes", "no", "true", "2023", "0x1F", "1e3", ".inf",
    "-1", "2023-01-01", "'x'", '"x"', "'null'", '"yes"', "'it''s'", '"a\\tb"', '"\\u00e9"',
    "a  b", "@x", "`x`", "%x", "!x", "&x x", "*x", "? x", "?x", "-x", "- x", ":x", "x:",
    "x,y", "[a, b]", "{}", "[]", "|", ">", "-", "...", "...x", "---", "a #b", "a#b",
    "\u00a0", "x\u00a0", "\u3000", "가 나", "😀", "\u2028x", "x\u0085y", "'\u00a0'",
    "!!str x", "&a x", "<<", "=", "x: y",
]  # fmt: skip

MUTATIONS: dict[str, Mutation] = {
    "swap-keys": _swap_top_level_keys,
    "comment-top": lambda raw: b"# note\n" + raw,
    "comment-end": _sub(r"^(id: .*)$", r"\1  # note"),
    "comment-in-literal-indent": _sub(r"^(\w+: \|\n)", r"\1  # not a comment\n"),
    "flush-items": _sub(r"^  - ", "- ", count=0),
    "deep-items": _sub(r"^    - ", "      - ", count=0),
    "indent-4": _sub(r"^  (\w+:)", r"    \1", count=0),
    "quote-title-double": _sub(r"^title: (?![\"'])(.*)$", r'title: "\1"'),
    "quote-title-single": _sub(r"^title: (?![\"'])(.*)$", r"title: '\1'"),
    "unquote-title": _sub(r"^(\s*)title: \"(.*)\"$", r"\1title: \2"),
    "literal-to-quoted": _literal_to_quoted,
    "literal-keep": _sub(r": \|\n", ": |+\n"),
    "literal-strip": _sub(r": \|\n", ": |-\n"),
    "literal-folded": _sub(r": \|\n", ": >\n"),
    "literal-indent-indicator": _sub(r": \|\n", ": |2\n"),
    "literal-extra-line": _sub(r"(: \|\n(?:  .*\n)+)", r"\1\n"),
    "literal-leading-blank": _sub(r": \|\n", ": |\n\n"),
    "literal-more-indented": _sub(r"(: \|\n  .*\n)", r"\1    more\n"),
    "literal-one-line": _sub(r"^(\w+): \|\n(  .*\n)(?! )", r"\1: |-\n\2"),
    "trailing-space": _sub(r"^(id: .*)$", r"\1 "),
    "trailing-space-literal": _sub(r"(: \|\n  .*)$", r"\1 "),
    "two-spaces-after-colon": _sub(r"^status: ", "status:  "),
    "space-before-colon": _sub(r"^status: ", "status : "),
    "two-spaces-after-dash": _sub(r"^  - ", "  -  "),
    "unknown-key": lambda raw: raw + b"x_extra: 1\n",
    "unknown-key-first": lambda raw: b"x_extra: 1\n" + raw,
    "quoted-key": _sub(r"^id:", '"id":'),
    "flow-list": _sub(r"^  causes:\n    - (.*)\n", r"  causes: [\1, extra]\n"),
    "flow-mapping": _sub(r"^facets:\n", "facets: {}\nx_facets:\n"),
    "empty-value": _sub(r"^status: .*$", "status:"),
    "nested-list": _sub(r"^  - ", "  - - "),
    "crlf": lambda raw: raw.replace(b"\n", b"\r\n"),
    "cr-at-end": lambda raw: raw + b"\r",
    "bom": lambda raw: b"\xef\xbb\xbf" + raw,
    "tab-indent": _sub(r"^  causes:", "\tcauses:"),
    "tab-in-value": _sub(r"^(title: \S+) ", "\\1\t"),
    "doc-start": lambda raw: b"---\n" + raw,
    "doc-end": lambda raw: raw + b"...\n",
    "second-doc": lambda raw: raw + b"---\nid: IL-9999\n",
    "anchor": _sub(r"^id: ", "id: &a "),
    "tag": _sub(r"^id: ", "id: !!str "),
    "no-final-newline": lambda raw: raw.rstrip(b"\n"),
    "two-final-newlines": lambda raw: raw + b"\n",
    "blank-line-between": _sub(r"^(id: .*\n)", r"\1\n"),
    "duplicate-key": lambda raw: raw + b"id: IL-9999\n",
    "not-utf8": lambda raw: raw.replace(b"\xea", b"\xc0", 1) if b"\xea" in raw else None,
    "control-char": _sub(r"^(title: \S+)", "\\1\x07"),
    "plain-multiline": _sub(r"^(title: \S+) ", r"\1\n  "),
    **{f"status={v}": _sub(r"^status: .*$", _literally(f"status: {v}")) for v in ODD_VALUES},
    **{f"item={v}": _sub(r"^    - (.*)$", _literally(f"    - {v}")) for v in ODD_VALUES[:30]},
}
# Mutations after which the fast check must not claim anything, whatever ruamel makes of
# the file: comments are invisible to it, and the rest is outside what it covers.
NEVER_CANONICAL = {
    "comment-top", "comment-end", "comment-in-literal-indent", "unknown-key",
    "unknown-key-first", "flow-list", "flow-mapping", "crlf", "cr-at-end", "bom",
    "tab-indent", "tab-in-value", "doc-start", "doc-end", "second-doc", "anchor", "tag",
    "no-final-newline", "duplicate-key", "not-utf8", "control-char", "literal-folded",
    "literal-keep", "literal-indent-indicator", "nested-list",
}  # fmt: skip


def mutated(bases: list[bytes]) -> list[tuple[str, bytes]]:
    """Every mutation of every base; a value's mutations only of a few bases (what ruamel
    makes of a value does not depend on the rest of the file, and renders are slow)."""
    found = []
    for name, mutate in MUTATIONS.items():
        step = 12 if "=" in name else 1  # `status=yes`, `item=null`: a value's mutation
        for raw in bases[::step]:
            out = mutate(raw)
            if out is not None and out != raw:
                found.append((name, out))
    return found


# (a) Sound: True only when the render agrees ----------------------------------------------


@pytest.mark.parametrize("path", REAL + TEST_DATA, ids=lambda p: str(p.relative_to(REPO)))
def test_real_and_test_files_are_canonical_only_when_the_render_agrees(path):
    assert_sound(path.read_bytes())


def test_generated_files_are_canonical_only_when_the_render_agrees(synthetic):
    for raw in synthetic:
        assert_sound(raw)


def test_mutated_files_are_canonical_only_when_the_render_agrees(synthetic):
    bases = [path.read_bytes() for path in REAL] + synthetic[:40]
    answers: dict[bool, int] = {True: 0, False: 0}
    for name, raw in mutated(bases):
        fast = assert_sound(raw)
        answers[fast] += 1
        assert not (fast and name in NEVER_CANONICAL), (name, raw)
    # Both answers are exercised: some mutations keep a file canonical (`status: yes`).
    assert answers[True] > 300 and answers[False] > 5000, answers


def test_every_mutation_applies_somewhere(synthetic):
    bases = [path.read_bytes() for path in REAL] + synthetic[:40]
    applied = {name for name, _ in mutated(bases)}
    assert applied == set(MUTATIONS)


PLAIN_SAFE = ["x", "yes", "2023", "2023-01-01", "a  b", "a#b", "x,y", "가 나", "\u00a0x"]


@pytest.mark.parametrize("value", ODD_VALUES + PLAIN_SAFE)
@pytest.mark.parametrize("place", ["top", "item", "source"])
def test_odd_values_anywhere_are_canonical_only_when_the_render_agrees(value, place):
    text = {
        "top": "id: IL-0001\ntitle: {}\n",
        "item": "id: IL-0001\norganizations:\n  - a\n  - {}\n",
        "source": "id: IL-0001\nsources:\n  - url: {}\n    title: t\n",
    }[place].format(value)
    assert_sound(text.encode("utf-8"))


def test_the_layout_of_every_covered_construct_is_accepted():
    text = (
        "id: IL-0001\n"
        "title: '작은 따옴표: 그대로'\n"
        "status: draft\n"
        "organizations: []\n"
        "facets:\n  causes:\n    - |\n      둘\n      줄\n  contributing_factors: []\n"
        'symptom: "큰 따옴표: 그대로"\n'
        "trigger: |-\n  끝에 줄바꿈 없음\n\n  빈 줄 뒤\n    더 들여쓴 줄\n"
        "actions:\n  - |\n    하나\n    둘\n  - plain, with comma\n"
        'sources:\n  - url: |\n      a\n      b\n    title: "t"\n    language: ko\n'
    )
    assert rendered(text.encode("utf-8")) == text.encode("utf-8")
    assert is_canonical(text.encode("utf-8"))


# (b) Useful: nearly every canonical file is recognised ------------------------------------


def test_nearly_every_generated_file_is_recognised(synthetic):
    accepted = sum(map(is_canonical, synthetic))
    assert accepted >= 0.95 * len(synthetic), (accepted, len(synthetic))


def test_every_canonical_real_incident_without_a_hash_sign_is_recognised():
    """`#` is refused outright (a comment is invisible to the events), so the few files
    with one are left to the render; every other canonical file is recognised."""
    canonical = [p.read_bytes() for p in REAL if rendered(p.read_bytes()) == p.read_bytes()]
    missed = [raw[:40] for raw in canonical if not is_canonical(raw) and b"#" not in raw]
    assert missed == []
    assert sum(map(is_canonical, canonical)) >= 0.9 * len(canonical)


def test_the_template_incident_is_recognised():
    assert is_canonical(incident("IL-0001").encode("utf-8"))


# (c) Property: incident-like texts in many styles -----------------------------------------

PROPERTY = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SAFE = st.one_of(
    st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3),
    st.characters(min_codepoint=0x61, max_codepoint=0x7A),
    st.sampled_from(list(" .,()/-_0123456789")),
)
AWKWARD = st.sampled_from(
    [
        *":#-?[]{},&*!|>'\"%@`~ \t\\\n\r\u00a0\u3000\u2028\u0085\ufeff😀\x07",
        *["null", "yes", "- ", ": ", " #", "---", "...", "\n\n", "  "],
    ]
)
# No space at either end: a value that would not be written as it is read.
SAFE_LINE = st.text(SAFE, min_size=1, max_size=20).map(lambda text: text.strip() or "x")
AWKWARD_LINE = st.lists(st.one_of(SAFE, AWKWARD), max_size=20).map("".join)


def values(line: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """One line, or lines (blank ones inside) that end with a line break or not: what a
    literal block holds."""
    lines = st.builds(
        lambda first, middle, end: "\n".join([first, *middle]) + end,
        line,
        st.lists(st.one_of(line, line, line, st.just("")), min_size=1, max_size=3),
        st.sampled_from(["\n", "\n", ""]),
    )
    return st.one_of(line, line, lines)


# Texts with only ordinary values in the styles canonical.py keeps (so that the fast check
# has something to say yes to), and texts with anything in any style.
ORDINARY = st.one_of(
    *[st.tuples(values(SAFE_LINE), st.just("usual"))] * 4,
    st.tuples(SAFE_LINE, st.sampled_from(["single", "double"])),
)
ANYTHING = st.tuples(
    values(st.one_of(SAFE_LINE, AWKWARD_LINE)),
    st.sampled_from(["usual", "usual", "plain", "single", "double", "raw-double"]),
)


def write_scalar(value: str, style: str, indent: int) -> str:
    """`value` after `key:` or `- ` in `style`, however wrong that is for the value."""
    if style == "usual":
        style = "literal" if "\n" in value else "plain"
    if style == "single":
        return " '" + value.replace("'", "''") + "'\n"
    if style == "double":
        return " " + json.dumps(value, ensure_ascii=False) + "\n"
    if style == "raw-double":
        return ' "' + value + '"\n'
    if style == "literal":
        body = value[:-1] if value.endswith("\n") else value
        lines = "".join(f"{' ' * indent}{line}\n" if line else "\n" for line in body.split("\n"))
        return (" |\n" if value.endswith("\n") else " |-\n") + lines
    return " " + value + "\n"


@st.composite
def incident_texts(draw: st.DrawFn) -> str:
    """An incident-like text: known keys (in canonical order, mostly), scalars, lists of
    scalars, facets and sources in the canonical layout, values in any style."""
    scalars = draw(st.sampled_from([ORDINARY, ORDINARY, ANYTHING]))
    keys = [k for k in INCIDENT_KEYS if draw(st.booleans())] or ["id"]
    if draw(st.sampled_from(["in order"] * 9 + ["shuffled"])) == "shuffled":
        keys = draw(st.permutations(keys))
    out = []
    for key in keys:
        if key == "facets":
            out.append("facets:\n")
            for dimension in [d for d in DIMENSIONS if draw(st.booleans())] or ["causes"]:
                out.append(f"  {dimension}:" + _items(draw, scalars, 4))
        elif key == "sources":
            out.append("sources:\n")
            for _ in range(draw(st.integers(1, 2))):
                lead = "  - "
                for source_key in [k for k in SOURCE_KEYS if draw(st.booleans())] or ["url"]:
                    value, style = draw(scalars)
                    out.append(f"{lead}{source_key}:" + write_scalar(value, style, 6))
                    lead = "    "
        elif draw(st.booleans()):
            out.append(f"{key}:" + _items(draw, scalars, 2))
        else:
            value, style = draw(scalars)
            out.append(f"{key}:" + write_scalar(value, style, 2))
    return "".join(out)


def _items(draw: st.DrawFn, scalars: st.SearchStrategy[tuple[str, str]], dash: int) -> str:
    items = draw(st.lists(scalars, max_size=3))
    if not items:
        return " []\n"
    return "\n" + "".join(
        f"{' ' * dash}-" + write_scalar(value, style, dash + 2) for value, style in items
    )


@PROPERTY
@given(incident_texts())
def test_generated_texts_are_canonical_only_when_the_render_agrees(text: str) -> None:
    event(f"fast check: {assert_sound(text.encode('utf-8'))}")


@PROPERTY
@given(incident_texts())
def test_rendered_texts_are_canonical_only_when_the_render_agrees(text: str) -> None:
    """What the render writes is canonical: the fast check's home ground."""
    out = rendered(text.encode("utf-8"))
    if out is not None:
        event(f"fast check: {assert_sound(out)}")
