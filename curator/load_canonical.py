"""The canonical layout read without libyaml: the same `Document`, about three times sooner.

Nearly every incident file is in the layout `curator fmt` writes: a block mapping of
`key: value` lines, block sequences indented under their key, one-line plain or quoted
text, literal blocks (`|`). For such a file, `read_canonical(text)` builds the values and
positions that `curator.load`'s libyaml event loop would build, by reading lines, at a
third of the cost (libyaml makes a Python object for every event and mark; at 100,000
files that was the largest single cost of `curator lint` and `curator export`).

It answers None ("not mine") for anything outside a small language, and the caller falls
back to libyaml, which then reports whatever is wrong. That language leaves out every
construct whose reading or positions take more than a glance to be sure of: comments
(any `#`), tabs, any line break but LF and characters libyaml counts differently (the
screen of `curator.write.fastcheck`), blank lines outside a literal block, trailing
spaces, flow collections other than `[]`, multi-line plain or quoted text, escapes,
anchors, tags, aliases, directives, document markers, folded scalars, keep chomping and
indentation indicators, empty or repeated keys, keys other than short words, indentless
sequences and any indentation but two spaces a level. Within the language, each plain
scalar is one that YAML reads as itself: no leading indicator, no `: `, no trailing `:`.

tests/test_load_canonical.py holds it to the libyaml loader, value for value and position
for position: on every bundled and broken incident, on a synthetic library, on random
documents of the language and on random edits of real files (where answering None is
always allowed, and answering anything else must be exactly what libyaml gives).
"""

from __future__ import annotations

import re
import sys
from typing import Any

from curator.document import MAX_DEPTH, Document, Path, Position

# Anything but LF and the characters every YAML reader and ruamel's writer take as themselves
# (printable ASCII, U+00A0..U+FFFD): controls, tab, CR, NEL, `#` (comments are invisible to
# the events), U+2028/U+2029 (line breaks to YAML 1.1, not to 1.2), the BOM, surrogates and
# U+FFFE/U+FFFF, and, to be strict, characters beyond the BMP (libyaml counts columns in
# characters, as Python does, only for these). `curator.write.fastcheck` screens alike.
SCREEN = re.compile(r"[^\n\x20-\x22\x24-\x7e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]")
# First characters that make a plain scalar something else (indicators), or might: `-`, `?`,
# `:` are fine before a non-space, but nothing is gained by knowing exactly when.
PLAIN_FIRST_NO = frozenset("#,[]{}&*!|>'\"%@`?:- ")
# `key:` and what follows it; a key is a short word (libyaml refuses implicit keys over
# 1,024 characters, and no incident key is near that).
_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_]{0,63}):(?: (.*))?")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")  # _KEY's key
_SINGLE_QUOTED = re.compile(r"'(?:[^']|'')*'")
_NULLS = frozenset({"~", "null", "Null", "NULL"})  # the loader's plain nulls ("" aside)
_NULL_MAX = 4  # the longest of them: longer text is not null, without hashing it

# What this reader has learnt, for the next files: the values and keys files share. Each
# table is bounded, for libraries (or hostile files) with ever new ones, which are then
# made or checked every time. (str methods taking arguments, like `find` and `startswith`,
# parse them slowly in CPython 3.11; `partition` and a dict lookup do not.)
_LEARNT_MAX = 1 << 14
# Every Position made, by (line, column): they are values, files in one layout share nearly
# all of theirs (about 3,000 in 20,000 synthetic files), and making one (and freeing it)
# costs several lookups. A (line, column) tuple finds the Position equal to it.
_POSITIONS: dict[tuple[int, int], Position] = {}
# For each indentation, the starts of key lines up to their colon, margin and key, that
# were found to be a word and not a null: the key each stands for. A line starting so is a
# key line of a mapping at that indentation. (Files have a few dozen keys; a mapping may be
# indented up to about 4 * MAX_DEPTH, hence a smaller bound for each table.)
_HEADS: dict[int, dict[str, str]] = {}
_HEADS_MAX = 1 << 10


class _NotMine(Exception):
    """The text is outside the language: the libyaml loader reads it instead."""


def read_canonical(text: str) -> Document | None:
    """The document `curator.load` would build from `text`, or None if `text` is outside
    this module's language (then nothing is known about it, good or bad)."""
    if not text.endswith("\n") or " \n" in text or not _screened(text):
        return None
    lines = text.split("\n")  # its last item is the "" after the final line break
    if not lines[0] or lines[0][0] == " ":
        return None
    reader = _Reader(lines)
    try:
        # The root mapping records its span, from (1, 1) to the end: the document's.
        data, end = reader.mapping(0, 0, (), -1)
    except _NotMine:
        return None
    if end != len(lines) - 1:  # a line left over: less indented than its block, say
        return None
    document = reader.document
    document.data = data
    return document


def _screened(text: str) -> bool:
    """Whether `SCREEN` finds nothing in `text`."""
    # The usual text passes a test that implies SCREEN's, at about half its cost (a character
    # class a character): no `#`, all printable once LFs are spaces (which leaves out
    # controls, format characters like the BOM, separators but the space, surrogates and
    # noncharacters), and all within the BMP. Any other text gets SCREEN's own answer.
    if "#" not in text and text.replace("\n", " ").isprintable() and _within_bmp(text):
        return True
    return SCREEN.search(text) is None


# CPython keeps a str in one, two or four bytes a character, four only if one of them is
# beyond the BMP (PEP 393), after a header no smaller than this one (of a compact str): a
# str that takes less than four bytes a character, and one more, is within the BMP. Telling
# so costs nothing, where encoding the text to count would cost a pass over it. (One
# function, not one for each implementation: mypyc compiles a name defined once.)
_CPYTHON = sys.implementation.name == "cpython"
_HEADER = str.__sizeof__("\U00010000") - 2 * 4


def _within_bmp(text: str) -> bool:
    """Whether every character of `text` is within the BMP (if False: maybe not)."""
    if _CPYTHON:
        return str.__sizeof__(text) < _HEADER + 4 * (len(text) + 1)
    # Other implementations keep strs their own way: count the UTF-16 code units.
    return len(text.encode("utf-16-le", "surrogatepass")) == 2 * len(text)  # pragma: no cover


def _position(pair: tuple[int, int]) -> Position:
    """A new Position at `pair`, kept for the next ones (see `_POSITIONS`)."""
    position: Position = tuple.__new__(Position, pair)  # Position's own __new__ is slower
    if len(_POSITIONS) < _LEARNT_MAX:
        _POSITIONS[position] = position
    return position


def _key(head: str, indent: int, heads: dict[str, str] | None) -> str:
    """The key of a mapping at `indent` on a line starting with `head` (up to its first
    colon, if any), learnt in `heads` unless None; refused unless a word and not a null."""
    key = head[indent:]
    if _WORD.fullmatch(key) is None or key in _NULLS:
        raise _NotMine  # (a line more indented than `indent` included)
    if heads is not None and len(heads) < _HEADS_MAX:
        heads[head] = key
    return key


class _Reader:
    """One text's lines, read block by block. Each block method takes the index of its
    first line and returns its value and the index of the first line after it; a value's
    span is recorded once it is complete (a collection's after its items), and a key's
    position as it is read: the order `curator.load` records them in.

    A line is compared with the margin its block expects rather than measured: one without
    it is less indented and ends the block, and one with more spaces than that fails what
    follows (a key is a word, an item starts `- `), as it should."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.last = len(lines) - 1  # the "" after the final line break
        self.document = Document(data=None)
        self.spans = self.document.value_spans
        self.keys = self.document.key_positions

    def at(self, index: int) -> Position:
        """Where the block ending before line `index` ends: that line's first character
        (libyaml's block end), or the line after the last one at the end of the text."""
        line = self.lines[index]
        pair = (index + 1, len(line) - len(line.lstrip(" ")) + 1)
        return _POSITIONS.get(pair) or _position(pair)

    def mapping(self, index: int, indent: int, path: Path, item: int) -> tuple[Any, int]:
        """A block mapping with its keys at column `indent` (0-based), from line `index` on;
        `item` is the index of that line if it is a sequence item's (`- key: ...`, the `- `
        standing in the margin), else -1."""
        if len(path) >= MAX_DEPTH:
            raise _NotMine
        lines, keys, spans, last = self.lines, self.keys, self.spans, self.last
        known = _POSITIONS.get
        heads = _HEADS.get(indent)
        if heads is None:
            heads = _HEADS[indent] = {}
        margin = " " * indent
        below = margin + "  "  # the margin of a block value under a key
        below_item = below + "- "
        column = indent + 1  # 1-based, every key's
        pair = (index + 1, column)
        start = known(pair) or _position(pair)
        mapping: dict[str, Any] = {}
        while index != last:
            line = lines[index]
            head, colon, tail = line.partition(":")
            key = heads.get(head)
            if key is None:
                if index == item:  # `- key...`: the key after the `- `, never learnt
                    key = _key(head, indent, None)
                elif line[:indent] != margin:
                    break  # a less indented line: the mapping is over
                else:
                    key = _key(head, indent, heads)
            if key in mapping:
                raise _NotMine
            child = path + (key,)  # noqa: RUF005 - cheaper than (*path, key)
            number = index + 1
            pair = (number, column)
            keys[child] = known(pair) or _position(pair)
            if not tail:
                # `key:`, and a sequence or a mapping on the lines below.
                if not colon:
                    raise _NotMine  # `key` alone
                index += 1
                line = lines[index]  # ("" at the end: no margin)
                if line[: indent + 4] == below_item:
                    mapping[key], index = self.sequence(index, indent + 2, child)
                elif line[: indent + 2] == below:
                    mapping[key], index = self.mapping(index, indent + 2, child, -1)
                else:
                    raise _NotMine  # `key:` and nothing: null, which libyaml places its own way
                continue
            if tail[0] != " ":
                raise _NotMine
            rest = tail[1:]
            value_at = len(head) + 2  # 0-based, after the `: `
            if rest and rest[0] not in PLAIN_FIRST_NO and rest[-1] != ":" and ": " not in rest:
                # One-line plain text, the usual value: `scalar`, inlined.
                mapping[key] = None if len(rest) <= _NULL_MAX and rest in _NULLS else rest
                pair = (number, value_at + 1)
                end = (number, value_at + 1 + len(rest))
                spans[child] = (known(pair) or _position(pair), known(end) or _position(end))
                index += 1
            elif rest[:1] == "|":  # a literal block, the next most usual: `scalar`'s call
                pair = (number, value_at + 1)
                value_start = known(pair) or _position(pair)
                mapping[key], index = self.literal(rest, index, indent + 2, child, value_start)
            else:
                mapping[key], index = self.scalar(rest, index, value_at, indent, child)
        spans[path] = (start, self.at(index))
        return mapping, index

    def sequence(self, index: int, indent: int, path: Path) -> tuple[Any, int]:
        """A block sequence with its `- ` at column `indent` (0-based)."""
        if len(path) >= MAX_DEPTH:
            raise _NotMine
        lines, spans, last, known = self.lines, self.spans, self.last, _POSITIONS.get
        margin = " " * indent
        text_at = indent + 2  # 0-based, where an item's text starts
        dash = margin + "- "
        items: list[Any] = []
        pair = (index + 1, indent + 1)
        start = known(pair) or _position(pair)
        while index != last:
            line = lines[index]
            if line[:text_at] != dash:
                if line[:indent] == margin:
                    raise _NotMine  # more indented, or not an item
                break  # a less indented line: the sequence is over
            item = line[text_at:]
            child = path + (len(items),)  # noqa: RUF005 - cheaper than unpacking
            if item and item[0] not in PLAIN_FIRST_NO and ": " not in item and item[-1] != ":":
                # One-line plain text, the usual item: `scalar`, inlined. (Not a `key:`
                # either, which would need a `: ` or a final `:`.)
                number = index + 1
                items.append(None if len(item) <= _NULL_MAX and item in _NULLS else item)
                pair = (number, text_at + 1)
                end = (number, text_at + 1 + len(item))
                spans[child] = (known(pair) or _position(pair), known(end) or _position(end))
                index += 1
                continue
            if _KEY.fullmatch(item) is not None:
                value, index = self.mapping(index, text_at, child, index)
            else:
                value, index = self.scalar(item, index, text_at, indent, child)
            items.append(value)
        spans[path] = (start, self.at(index))
        return items, index

    def scalar(
        self, text: str, index: int, column: int, indent: int, path: Path
    ) -> tuple[Any, int]:
        """The value written at `column` (0-based) of line `index`, in a block whose
        items or keys stand at `indent`: one-line text, `[]`, or a literal block."""
        if not text:
            raise _NotMine
        pair = (index + 1, column + 1)
        start = _POSITIONS.get(pair) or _position(pair)
        first = text[0]
        if first == "|":
            return self.literal(text, index, indent + 2, path, start)
        if first == '"':
            if len(text) < 2 or text[-1] != '"' or '"' in text[1:-1] or "\\" in text:
                raise _NotMine
            value: Any = text[1:-1]
        elif first == "'":
            if _SINGLE_QUOTED.fullmatch(text) is None:
                raise _NotMine
            value = text[1:-1].replace("''", "'")
        elif text == "[]":
            value = []
        elif first in PLAIN_FIRST_NO or text[-1] == ":" or ": " in text:
            raise _NotMine
        else:
            value = None if text in _NULLS else text
        pair = (index + 1, column + len(text) + 1)
        self.spans[path] = (start, _POSITIONS.get(pair) or _position(pair))
        return value, index + 1

    def literal(
        self, header: str, index: int, indent: int, path: Path, start: Position
    ) -> tuple[str, int]:
        """A literal block (`|` or `|-`) whose lines are indented by `indent` spaces."""
        if header != "|" and header != "|-":
            raise _NotMine
        lines = self.lines
        margin = " " * indent
        body: list[str] = []
        index += 1
        last = self.last
        while index != last:
            line = lines[index]
            if line[:indent] == margin:
                body.append(line[indent:])
            elif line:
                break  # a less indented line ends the block
            else:
                body.append("")
            index += 1
        # Its first line must set the indentation (libyaml takes it from there), and a
        # blank last line would be chomped, which moves the end: neither is canonical.
        if not body or not body[0] or body[0][0] == " " or not body[-1]:
            raise _NotMine
        if header == "|":
            body.append("")  # the kept final line break, joined in rather than added after
        pair = (index + 1, 1)
        self.spans[path] = (start, _POSITIONS.get(pair) or _position(pair))
        return "\n".join(body), index
