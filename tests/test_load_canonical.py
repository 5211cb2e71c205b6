"""`curator.load_canonical` against the libyaml loader it stands in for.

`read_canonical(text)` may always answer None ("not mine"); when it answers anything else,
that must be exactly what `curator.load._build` gives for the same text: the same values,
the same spans and key positions in the same order, and no problem reported. That is held
on every bundled and test file, on a generated library, on documents of (and around) the
canonical language that hypothesis writes, and on random edits of the real incidents. The
fast path must also stay in use: it reads nearly every canonical file, so that a change
which quietly turns it off fails here.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import DATA, REPO
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from synthetic import synthetic_library

import curator.load
from curator.document import MAX_DEPTH, Document, Position
from curator.load import LoadProblem, _build, load_bytes
from curator.load_canonical import read_canonical
from incidents import incident

INCIDENTS = REPO / "incidents"


def libyaml(text: str) -> tuple[Document | None, list[LoadProblem]]:
    problems: list[LoadProblem] = []
    document = _build(text, problems)
    return document, problems


def positions(document: Document) -> Iterator[Any]:
    for start, end in document.value_spans.values():
        yield start
        yield end
    yield from document.key_positions.values()


def agree(text: str) -> bool:
    """The property under test, for one text; whether the fast path answered."""
    fast = read_canonical(text)
    try:
        document, problems = libyaml(text)
    except yaml.YAMLError:  # MarkedYAMLError included: libyaml refuses the text
        assert fast is None, text
        return False
    if fast is None:
        return False
    assert problems == [], (text, problems)
    assert document is not None, text
    assert fast.data == document.data, text
    assert repr(fast.data) == repr(document.data), text  # key order and types too
    assert list(fast.value_spans.items()) == list(document.value_spans.items()), text
    assert list(fast.key_positions.items()) == list(document.key_positions.items()), text
    assert all(type(position) is Position for position in positions(fast)), text
    return True


def decoded(raw: bytes) -> str | None:
    """The text `load_bytes` gives its readers: UTF-8 without a leading BOM."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text[1:] if text.startswith("\ufeff") else text


def texts_under(*folders: Path) -> list[tuple[str, str]]:
    found = []
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and not path.is_symlink():
                text = decoded(path.read_bytes())
                if text is not None:
                    name = path.relative_to(REPO if path.is_relative_to(REPO) else folder)
                    found.append((str(name), text))
    return found


BUNDLED = texts_under(INCIDENTS)
FILES = texts_under(INCIDENTS, DATA)


# (1) Every bundled and test file ----------------------------------------------------------


@pytest.mark.parametrize(("name", "text"), FILES, ids=[name for name, _ in FILES])
def test_every_file_is_read_as_libyaml_reads_it(name: str, text: str) -> None:
    agree(text)


def test_the_fast_path_reads_most_bundled_incidents() -> None:
    assert len(BUNDLED) >= 50  # the library is there to be counted
    accepted = sum(agree(text) for _, text in BUNDLED)
    assert accepted >= 0.8 * len(BUNDLED), (accepted, len(BUNDLED))


def test_what_was_learnt_from_earlier_files_changes_no_answer() -> None:
    # The reader keeps the key lines and positions of the files it read, for the next ones:
    # a key line learnt in a mapping at one indentation, or an item's key, is no key line
    # at another, and a Position kept is still one.
    first = "a:\n  b: x\n  c:\n    - d: y\n      e: z\n"
    assert agree(first)
    texts = [
        "b: x\n  b: x\n",
        "a:\n  b: x\n    b: x\n",
        "a:\n    b: x\n",
        "a:\n  b\n",
        "a:\n  b:x\n",
        "a:\n  b:\n",
        "a:\n  - d: y\n  - d\n",
        "a:\n  - d: y\n    d: z\n",
        "a:\n  - d: y\n  e: z\n",
        "a:\n  c:\n    - d: y\n    e: z\n",
    ]
    for text in [*texts, first, *texts]:
        agree(text)
    assert agree(first)


# (2) A generated library ------------------------------------------------------------------


def test_a_generated_library_is_read_as_libyaml_reads_it(tmp_path: Path) -> None:
    root, _ = synthetic_library(tmp_path / "lib", count=400, seed=11)
    texts = [text for _, text in texts_under(root / "incidents")]
    assert len(texts) >= 390
    accepted = sum(map(agree, texts))
    assert accepted >= 0.95 * len(texts), (accepted, len(texts))


# (3) Documents of the language, and around it ---------------------------------------------

PROPERTY = settings(
    max_examples=800,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

WORDS = ["id", "title", "status", "url", "causes", "a", "b", "x_1", "_k", "Yes"]
ODD_KEYS = ["null", "Null", "NULL", "~", "", "a b", "-a", "'q'", '"q"', "가", "k" * 70, "a:"]
SAFE = [*"abcxyzAZ019._/()=+<", "가", "나", "힣", "\u00a0"]
# The characters that mean something to YAML somewhere, and those the fast path screens.
TRICKY = [*":-?'\"\\[]{},|>&*!%@`~", " ", "가", "힣"]
SCREENED = ["#", "\t", "\u2028", "\u0085", "\ufeff"]
# Plain scalars of the language that are easy to get wrong: nulls, and indicators after the
# first character.
PLAIN_WORDS = [
    "null", "Null", "NULL", "~", "nulls", "~x", "yes", "no", "...", "<<", "=", "x:y", "a -b",
    "1, 2", "a]b[", "x}{", "x~", ".inf", "0x1F", "2023-01-01", "a ? b", "a'b", 'a"b', "a\\b",
    "50%", "x|y", "x>", "a&b", "a*", "a!", "a@b", "a`b", "x -", "x :y", "\u00a0", "x\u00a0",
]  # fmt: skip
ODD_SCALARS = [
    "null", "Null", "NULL", "~", "", "yes", "[]", "[ ]", "{}", "[a, b]", "...", "---", "- x",
    "a: b", "x:", "&a x", "*a", "!!str x", "!x y", "'", '"', "|", ">", "-", "? x", "a #b",
    "''", '""', "'a''b'", "'a' b", '"a\\"b"', '"\\t"', "%x", "@x", "`x`",
]  # fmt: skip


def line_of(alphabet: list[str], max_size: int = 10) -> st.SearchStrategy[str]:
    return st.text(st.sampled_from(alphabet), min_size=1, max_size=max_size)


# One line of text without spaces at either end and without indicators (what a canonical
# plain scalar holds); one with YAML's indicators between its first and last characters
# (which the fast path reads, unless they make it something else, as `: ` does); and one
# with anything anywhere, screened characters too.
CLEAN_LINE = line_of([*SAFE, " "]).map(lambda text: text.strip(" ") or "x")
TRICKY_LINE = st.tuples(
    st.sampled_from(SAFE), line_of([*SAFE, *TRICKY]), st.sampled_from(SAFE)
).map("".join)
ANY_LINE = line_of([*SAFE, *TRICKY, *SCREENED])
# How often a choice breaks the layout: never; at exactly one choice, or one line of text
# ("text"); or once in so many choices.
NOISE = {"clean": 0, "one": 0, "text": 0, "rare": 100, "some": 25, "much": 6}
# What a break puts into a line of text.
BREAKS = [" #x", "#", ": ", ":", " ", "'", '"', "\\", "\t", "\u2028", "\u0085", "\ufeff", "😀"]


class Writer:
    """Draws a document of the canonical language (noise "clean": the fast path must read
    it), or one with characters, constructs and layouts around it, as often as `noise`
    says: text with YAML's indicators in it, indentation by 0, 1, 3 or 4 spaces, repeated
    and null keys, other scalar styles and headers, blank lines and trailing spaces."""

    def __init__(self, draw: st.DrawFn, noise: str) -> None:
        self.draw = draw
        self.noisy = noise != "clean"
        self.scale = NOISE[noise]
        # With noise "one" or "text", the choice that breaks the layout, counted among all
        # choices or among the lines of text (if there are that many).
        self.choices = {"one": 0, "text": 0}
        self.counted = noise if noise in self.choices else ""
        self.breaking = draw(st.integers(0, 60 if noise == "one" else 8)) if self.counted else -1

    def odd(self, odds: int = 1, choice: str = "one") -> bool:
        """Whether to break the layout here. (Shrinking goes to 0: to the canonical.)"""
        if not self.noisy:
            return False
        if self.counted:
            if choice != self.counted and self.counted != "one":
                return False
            self.choices[self.counted] += 1
            return self.choices[self.counted] - 1 == self.breaking
        top = odds * self.scale - 1
        return self.draw(st.integers(0, top)) == top

    def text(self) -> str:
        """A line of text: any, when a break falls here; else clean or with indicators."""
        draw = self.draw
        if self.odd(choice="text"):
            text = draw(st.one_of(CLEAN_LINE, TRICKY_LINE))
            at = draw(st.sampled_from([0, 1, len(text) // 2, len(text)]))
            broken = text[:at] + draw(st.sampled_from(BREAKS)) + text[at:]
            return draw(st.sampled_from([broken, broken, broken, draw(ANY_LINE)]))
        return draw(st.one_of(CLEAN_LINE, TRICKY_LINE) if self.noisy else CLEAN_LINE)

    def step(self, indentless: bool = False) -> int:
        """Two spaces a level, or sometimes another number (none: indentless)."""
        if not self.odd():
            return 2
        return self.draw(st.sampled_from([0, 1, 3, 4] if indentless else [1, 3, 4]))

    def key(self, taken: set[str]) -> str:
        draw = self.draw
        if self.odd(2):
            return draw(st.sampled_from(ODD_KEYS))
        if self.odd():  # a small pool: a repeated key
            return draw(st.sampled_from(WORDS))
        free = [word for word in WORDS if word not in taken]
        return draw(st.sampled_from(free)) if free else f"k{len(taken)}"

    def plain(self) -> str:
        draw = self.draw
        if self.odd():
            return draw(st.sampled_from(ODD_SCALARS))
        return draw(st.sampled_from(PLAIN_WORDS)) if draw(st.integers(0, 5)) == 0 else self.text()

    def scalar(self, body: int) -> list[str]:
        """A scalar as written after `key:` or `-` (with its space), and the lines of a
        literal block's body, indented by `body` spaces."""
        draw = self.draw
        kind = draw(st.sampled_from(["plain", "plain", "single", "double", "literal", "[]"]))
        lead = "  " if self.odd(3) else " "
        if kind == "plain":
            return [lead + self.plain()]
        if kind == "[]":
            return [lead + "[]"]
        if kind == "single":
            text = self.text()
            if self.odd():  # a quote left alone
                at = draw(st.integers(0, len(text)))
                return [f"{lead}'{text[:at]}'{text[at:]}'"]
            quoted = text.replace("'", "''")
            return [f"{lead}'{quoted}'"]
        if kind == "double":
            text = self.text()
            if not self.odd():  # (else quotes and backslashes, escapes, are left alone)
                text = text.replace('"', "'").replace("\\", "/")
            return [f'{lead}"{text}"']
        return self.literal(lead, body)

    def literal(self, lead: str, body: int) -> list[str]:
        draw = self.draw
        headers = ["|", "|-", "|+", "|2", "|-1", ">", ">-", "| x", "|\u00a0"]
        header = draw(st.sampled_from(headers[:2]))
        trailing = False  # blank lines at the end, which only keep chomping keeps
        if self.odd():
            header, trailing = draw(st.sampled_from(headers)), draw(st.booleans())
        if self.odd():
            body += draw(st.sampled_from([-2, -1, 1, 2]))
        margin = " " * max(body, 0)
        lines = [self.text()]
        for _ in range(draw(st.integers(0, 3))):
            shape = draw(st.sampled_from(["text", "text", "blank", "indented"]))
            text = self.text()
            lines.append({"text": text, "blank": "", "indented": "  " + text}[shape])
        lines.append(draw(CLEAN_LINE))
        if self.odd():  # a blank or more indented line first, or a blank one last
            lines.insert(0, draw(st.sampled_from(["", "  x", " x"])))
        if self.odd() or trailing:
            lines.extend([""] * draw(st.integers(1, 2)))
        blank = margin if self.odd(2) else ""  # (spaces on a blank line: trailing ones)
        return [lead + header, *(margin + line if line else blank for line in lines)]

    def mapping(self, indent: int, depth: int, first: str | None = None) -> list[str]:
        """The lines of a block mapping with its keys at column `indent`; `first` is what
        stands before the first key (a sequence item's `- `)."""
        out: list[str] = []
        taken: set[str] = set()
        for number in range(self.draw(st.integers(1, 4 if depth == 0 else 3))):
            key = self.key(taken)
            taken.add(key)
            if number == 0 and first is not None:
                head = first + key + ":"
            else:
                head = " " * indent + key + ":"
            value = self.value(key, indent, depth)
            out.append(head + value[0])
            out.extend(value[1:])
            if self.odd(2):
                out.append("")  # a blank line between keys
        return out

    def value(self, key: str, indent: int, depth: int) -> list[str]:
        """What follows `key:` at column `indent`: its rest of line, then its lines."""
        draw = self.draw
        kinds = ["scalar", "scalar", "scalar", "sequence", "mapping"]
        if key in ("url", "causes") or (depth < 3 and draw(st.integers(0, 3)) == 0):
            kind = draw(st.sampled_from(kinds[3:]))
        else:
            kind = draw(st.sampled_from(kinds if depth < 3 else kinds[:3]))
        if self.odd(3):
            return [""]  # `key:` and nothing: null
        if kind == "scalar":
            return self.scalar(indent + 2)
        if kind == "sequence":
            return ["", *self.sequence(indent + self.step(indentless=True), depth + 1)]
        return ["", *self.mapping(indent + self.step(), depth + 1)]

    def sequence(self, indent: int, depth: int) -> list[str]:
        """The lines of a block sequence with its `- ` at column `indent`: scalars,
        mappings (like `sources:`) and, in noise, sequences."""
        draw = self.draw
        out: list[str] = []
        dash = " " * indent + "-"
        for _ in range(draw(st.integers(1, 3))):
            kind = draw(st.sampled_from(["scalar", "scalar", "mapping", "sequence"]))
            if kind == "mapping" and depth < 4:
                inner = indent + (draw(st.sampled_from([1, 3])) if self.odd() else 2)
                lines = self.mapping(inner, depth + 1, first=dash + " ")
                if self.odd(2):  # `-` alone, the mapping below it
                    lines = [dash, " " * inner + lines[0][indent + 2 :], *lines[1:]]
                out.extend(lines)
            elif kind == "sequence" and depth < 4 and self.odd():
                nested = self.sequence(indent + 2, depth + 1)
                out.append(dash + " " + nested[0][indent + 2 :])
                out.extend(nested[1:])
            else:
                lines = self.scalar(indent + 2)
                out.append(dash + lines[0])
                out.extend(lines[1:])
        return out


@st.composite
def documents(draw: st.DrawFn, noise: str | None = None) -> tuple[str, str]:
    """A document, and how much noise was let into it."""
    if noise is None:
        noise = draw(
            st.sampled_from(["clean", "one", "one", "text", "text", "rare", "some", "much"])
        )
    writer = Writer(draw, noise)
    lines = writer.mapping(0, 0)
    if writer.odd(2):
        at = draw(st.integers(0, len(lines) - 1))
        lines[at] += " "  # a trailing space
    if writer.odd(2):
        lines.insert(draw(st.integers(0, len(lines))), "")
    text = "\n".join(lines)
    if not writer.odd(2):
        text += "\n"
    elif writer.odd():
        text += "\n\n"
    return text, noise


# Canonical documents written by hand: the fast path must read each (and as libyaml does).
CANONICAL = [
    "id: IL-0001\n",
    "a: b\nc: d\n",
    "a: ~\nb: null\nc: Null\nd: NULL\ne: ''\nf: \"\"\n",
    "a: x:y\nb: a -b\nc: 1, 2\nd: a]b[c}{\ne: it's\nf: 50%\ng: a ? b\nh: x~\n",
    "a: ...\nb: <<\nc: =\nd: .inf\ne: \u00a0x\nf: x\u00a0\ng: 가 나\n",
    "title: '작은 따옴표: 그대로'\nquote: 'it''s'\nq: 'a''''b'\nd: \"큰: 'x'\"\n",
    "organizations: []\nlist:\n  - []\n  - a\n  - ''\n",
    "a:\n  - ~\n  - null\n  - Null\n  - NULL\n  - nul\n  - '~'\n  - \"null\"\n  - k: ~\n",
    "facets:\n  causes:\n    - a\n    - b\n  components: []\n  symptoms:\n    - c\n",
    'sources:\n  - url: https://example.com/a\n    title: "t: u"\n  - url: b\n',
    "a: |\n  one\n\n  two\n    more indented\n  three\nb: |-\n  no line break\n",
    "a:\n  - |\n    x\n    y\n  - |-\n    z\nb:\n  - k: |\n      v\n    l: w\n",
    "a:\n  b:\n    c:\n      d:\n        - e: f\n          g:\n            - h\n",
    "a: |\n  - x\n  y: z\n  '\n  [\n  ---\n  ...\nb: c\n",
    "Yes: no\nx_1: 2023\n_k: 01\nON: off\n",
    incident("IL-0001"),
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_documents_are_read_by_the_fast_path(text: str) -> None:
    assert read_canonical(text) is not None, text
    assert agree(text)


# Texts just outside the language, each read by libyaml: the fast path must decline or
# agree (and here, declines).
NOT_CANONICAL = [
    "a: b\n\nc: d\n",  # a blank line between keys
    "a: b \n",  # a trailing space
    "a: b",  # no final line break
    "a:\n- b\n",  # an indentless sequence
    "a:\n   b: c\n",  # three spaces
    "a:\n b: c\n",  # one space
    "a:\n    - b\n",  # four spaces
    "a:  b\n",  # two spaces after the colon
    "a: b\na: c\n",  # a repeated key
    "null: b\n",  # a null key
    "a: |+\n  x\n",  # keep chomping
    "a: |2\n  x\n",  # an indentation indicator
    "a: |\n\n  x\n",  # a literal block starting with a blank line
    "a: |\n  x\n\nb: c\n",  # ... or ending with one
    "a: |\n    x\n    y\nb: c\n",  # indented by four spaces
    "a: >\n  x\n",  # folded
    "a: [b]\n",  # a flow sequence that is not empty
    "a: {}\n",  # a flow mapping
    "a: b\n  c\n",  # multi-line plain text
    "a: 'b\n  c'\n",  # multi-line quoted text
    'a: "b\\tc"\n',  # an escape
    "a:\n",  # null, by nothing at all
    "a: &x b\n",  # an anchor
    "a: !!str b\n",  # a tag
    "---\na: b\n",  # a document marker
    "a: b # c\n",  # a comment
    "a:\tb\n",  # a tab
    "a: b\u2028  c\n",  # a line break to YAML 1.1
    "a: \ufeffb\n",  # a BOM inside
    "a: 😀\n",  # beyond the BMP
    "- a\n",  # not a mapping
    "a\n",  # not a mapping
]


# Texts libyaml refuses: the fast path must not read them.
REFUSED = [
    "a: 'b' c\n",
    "a: 'b'c'\n",
    "a: '''\n",
    'a: "b" c\n',
    'a: "b"c"\n',
    "a: [] x\n",
    "a: b\n c: d\n",
    "a:\n  b: c\n   d: e\n",
    "a:\n  - b\n  c: d\n",
    "a:\n  - b\n - c\n",
    "a: b: c\n",
    "a: |\n  x\n y\n",
    "a: |\n    x\n  y\n",
    "- a\nb: c\n",
    "a: b\n- c\n",
]


@pytest.mark.parametrize("text", REFUSED)
def test_texts_libyaml_refuses_are_not_read(text: str) -> None:
    with pytest.raises(yaml.YAMLError):
        libyaml(text)
    assert read_canonical(text) is None, text


def nesting(shape: str, count: int) -> str:
    """`count` collections, each the last value of the one before: mappings only, then
    (`sequence`) a sequence; or sequences of mappings (`- k:`, an odd `count`)."""
    keys = "".join(f"{'  ' * level}k:\n" for level in range(count - 1))
    if shape == "mappings":
        return keys + "  " * (count - 1) + "k: v\n"
    if shape == "sequence":
        return keys + "  " * (count - 1) + "- v\n"
    items = "".join(f"{' ' * (4 * level + 2)}- k:\n" for level in range(count // 2))
    return "k:\n" + items[: -len("\n")] + " v\n"


@pytest.mark.parametrize(
    ("shape", "count"),
    [(shape, MAX_DEPTH + extra) for shape in ("mappings", "sequence") for extra in (-1, 0, 1, 2)]
    + [("sequences of mappings", MAX_DEPTH + extra) for extra in (-1, 1, 3)],
)
def test_nesting_is_read_to_the_loaders_depth_and_no_further(shape: str, count: int) -> None:
    text = nesting(shape, count)
    document, problems = libyaml(text)
    assert document is None or len(document.value_spans) >= count  # as many as meant
    assert agree(text) == (problems == []), (shape, count, problems)
    assert (problems == []) == (count <= MAX_DEPTH), problems


@pytest.mark.parametrize("text", NOT_CANONICAL)
def test_texts_outside_the_language_are_left_to_libyaml(text: str) -> None:
    libyaml(text)  # (and libyaml reads it without raising)
    assert read_canonical(text) is None, text
    agree(text)


@settings(PROPERTY, max_examples=400)
@given(documents(noise="clean"))
def test_documents_of_the_language_are_read_by_the_fast_path(case: tuple[str, str]) -> None:
    text, _ = case
    assert agree(text), text


@PROPERTY
@given(documents())
@example(("a: b\n", "clean"))
def test_generated_documents_are_read_as_libyaml_reads_them(case: tuple[str, str]) -> None:
    text, noise = case
    event(f"noise {noise}: fast path {'read it' if agree(text) else 'declined'}")


# One value, in any style, in each place a value stands in an incident: a short text
# around it, so that many values can be tried (the documents above hold many values each,
# and one odd value among them is rarer). VALUE is the value after `key:` or `-`, with
# its line break; its literal block's body is indented by the number given.
PLACES = {
    "top": ("id: x\nKEY:VALUE", 2),
    "item": ("id: x\nlist:\n  - x\n  -VALUE", 4),
    "source": ("sources:\n  - url: u\n    KEY:VALUE", 6),
    "source first": ("sources:\n  - KEY:VALUE    title: t\n", 6),
    "facet": ("facets:\n  causes:\n    -VALUE", 6),
}
AFTER = ["", "", "", "z: end\n", "z: end\n", "  z: end\n", "    - more\n", "\n", " \n"]
KEYS = [*ODD_KEYS, "a ", "a  b", "a\u00a0", "a\t", "1", "-", "? a"]
HEADERS = ["|", "|", "|-", "|+", "|2", "|-2", "|+1", ">", "|x", "| "]
QUOTES = ["'", '"']


@st.composite
def broken_lines(draw: st.DrawFn) -> str:
    text = draw(st.one_of(CLEAN_LINE, TRICKY_LINE))
    at = draw(st.sampled_from([0, 1, len(text) // 2, len(text)]))
    return text[:at] + draw(st.sampled_from(BREAKS)) + text[at:]


VALUE_TEXT = st.one_of(
    CLEAN_LINE,
    TRICKY_LINE,
    ANY_LINE,
    broken_lines(),
    st.sampled_from(PLAIN_WORDS + ODD_SCALARS),
)


@st.composite
def values_in_place(draw: st.DrawFn) -> str:
    template, body = PLACES[draw(st.sampled_from(list(PLACES)))]
    key = draw(st.sampled_from(WORDS) if draw(st.integers(0, 3)) else st.sampled_from(KEYS))
    text = draw(VALUE_TEXT)
    style = draw(st.sampled_from(["plain", "plain", "single", "raw", "double", "literal"]))
    lead = draw(st.sampled_from([" "] * 6 + ["  ", ""]))
    if style == "plain":
        value = f"{lead}{text}\n"
    elif style == "single":
        quoted = text.replace("'", "''")
        value = f"{lead}'{quoted}'\n"
    elif style == "raw":  # quoted as it is, quotes and all
        opening, closing = draw(st.sampled_from(QUOTES)), draw(st.sampled_from(QUOTES))
        value = f"{lead}{opening}{text}{closing}\n"
    elif style == "double":
        value = f'{lead}"{text}"\n'
    else:
        lines = [text, *draw(st.lists(st.one_of(VALUE_TEXT, st.just("")), max_size=3))]
        margin = " " * (body + draw(st.sampled_from([0, 0, 0, 0, -1, 1, 2])))
        value = lead + draw(st.sampled_from(HEADERS)) + "\n"
        value += "".join(f"{margin}{line}\n" if line else "\n" for line in lines)
    return template.replace("KEY", key).replace("VALUE", value) + draw(st.sampled_from(AFTER))


@settings(PROPERTY, max_examples=1500)
@given(values_in_place())
@example("id: x\nKEY: a #b\n")
def test_values_anywhere_are_read_as_libyaml_reads_them(text: str) -> None:
    event(f"fast path {'read it' if agree(text) else 'declined'}")


# (4) Random edits of the real incidents -------------------------------------------------

EDIT_CHARACTERS = [*TRICKY, *SCREENED, "\t", "\u2028", "x", "\n", " ", "  "]
# The edits, the commoner ones twice.
EDITS = ["insert", "delete", "replace", "duplicate", "remove", "indent", "dedent"]
EDITS += ["insert", "replace"]
MUTANTS_PER_FILE = 250


def mutant(rng: random.Random, text: str) -> str:
    """`text` after one or two random edits, most of them where the layout is (a line's
    first characters or its end)."""
    for _ in range(rng.choice((1, 1, 1, 2))):
        lines = text.split("\n")
        index = rng.randrange(len(lines))
        line = lines[index]
        edit = rng.choice(EDITS)
        if edit == "duplicate":
            lines.insert(index, line)
        elif edit == "remove":
            del lines[index]
        elif edit == "indent":
            lines[index] = rng.choice((" ", "  ")) + line
        elif edit == "dedent":
            lines[index] = line[rng.choice((1, 2)) :] if line.startswith(" ") else line
        else:
            where = rng.random()
            if where < 0.5:
                at = rng.randrange(min(len(line), 8) + 1)
            elif where < 0.75:
                at = max(len(line) - rng.randrange(3), 0)
            else:
                at = rng.randrange(len(line) + 1)
            cut = at + (edit != "insert")
            new = "" if edit == "delete" else rng.choice(EDIT_CHARACTERS)
            lines[index] = line[:at] + new + line[cut:]
        text = "\n".join(lines)
    return text


def test_edited_incidents_are_read_as_libyaml_reads_them() -> None:
    answers = {True: 0, False: 0}
    for name, text in BUNDLED:
        rng = random.Random(f"load_canonical:{name}")
        for _ in range(MUTANTS_PER_FILE):
            answers[agree(mutant(rng, text))] += 1
    # Both answers are exercised: many edits leave a file in the language.
    total = len(BUNDLED) * MUTANTS_PER_FILE
    assert answers[True] > 0.2 * total and answers[False] > 0.2 * total, answers


# (5) `load_bytes`, end to end ------------------------------------------------------------


def loaded_without_the_fast_path(
    raw: bytes, monkeypatch: pytest.MonkeyPatch
) -> curator.load.Loaded:
    with monkeypatch.context() as patched:
        patched.setattr(curator.load, "read_canonical", lambda text: None)
        return load_bytes(raw)


def same_loaded(one: curator.load.Loaded, other: curator.load.Loaded) -> None:
    assert (one.raw, one.text, one.problems) == (other.raw, other.text, other.problems)
    assert one.document == other.document
    if one.document is not None and other.document is not None:
        assert repr(one.document.data) == repr(other.document.data)
        assert list(one.document.value_spans.items()) == list(other.document.value_spans.items())
        assert list(one.document.key_positions.items()) == list(
            other.document.key_positions.items()
        )


def canonical_files() -> list[tuple[str, bytes]]:
    found = [(name, path.read_bytes()) for name, path in _paths(INCIDENTS)]
    return [*found, ("template", incident("IL-0001").encode("utf-8"))]


def _paths(folder: Path) -> list[tuple[str, Path]]:
    return [(str(p.relative_to(REPO)), p) for p in sorted(folder.rglob("*")) if p.is_file()]


def test_load_bytes_gives_what_it_gave_without_the_fast_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    used = 0
    real = read_canonical

    def counted(text: str) -> Document | None:
        nonlocal used
        document = real(text)
        used += document is not None
        return document

    cases = canonical_files()
    cases += [(f"{name} with a BOM", b"\xef\xbb\xbf" + raw) for name, raw in cases[:5]]
    cases += [(name, path.read_bytes()) for name, path in _paths(DATA)]  # broken ones too
    for _, raw in cases:
        slow = loaded_without_the_fast_path(raw, monkeypatch)
        with monkeypatch.context() as patched:
            patched.setattr(curator.load, "read_canonical", counted)
            fast = load_bytes(raw)
        same_loaded(fast, slow)
    assert used >= 0.8 * len(BUNDLED), used
