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
_new_tuple = tuple.__new__
# `key:` and what follows it; a key is a short word (libyaml refuses implicit keys over
# 1,024 characters, and no incident key is near that).
_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_]{0,63}):(?: (.*))?")
_SINGLE_QUOTED = re.compile(r"'(?:[^']|'')*'")
_NULLS = frozenset({"~", "null", "Null", "NULL"})  # the loader's plain nulls ("" aside)


class _NotMine(Exception):
    """The text is outside the language: the libyaml loader reads it instead."""


def read_canonical(text: str) -> Document | None:
    """The document `curator.load` would build from `text`, or None if `text` is outside
    this module's language (then nothing is known about it, good or bad)."""
    if not text.endswith("\n") or " \n" in text or SCREEN.search(text):
        return None
    lines = text.split("\n")  # its last item is the "" after the final line break
    if not lines[0] or lines[0][0] == " ":
        return None
    reader = _Reader(lines)
    try:
        data, end = reader.mapping(0, 0, (), None)
    except _NotMine:
        return None
    if end != len(lines) - 1:  # a line left over: less indented than its block, say
        return None
    document = reader.document
    document.data = data
    document.value_spans[()] = (_new_tuple(Position, (1, 1)), reader.at(end))
    return document


class _Reader:
    """One text's lines, read block by block. Each block method takes the index of its
    first line and returns its value and the index of the first line after it; a value's
    span is recorded once it is complete (a collection's after its items), and a key's
    position as it is read: the order `curator.load` records them in."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.document = Document(data=None)
        self.spans = self.document.value_spans
        self.keys = self.document.key_positions

    def at(self, index: int) -> Position:
        """Where the block ending before line `index` ends: that line's first character
        (libyaml's block end), or the line after the last one at the end of the text."""
        line = self.lines[index]
        return _new_tuple(Position, (index + 1, len(line) - len(line.lstrip(" ")) + 1))

    def mapping(self, index: int, indent: int, path: Path, first: str | None) -> tuple[Any, int]:
        """A block mapping with its keys at column `indent`; `first` is the rest of a
        sequence item's line (`- key: ...`) when the mapping starts there."""
        if len(path) >= MAX_DEPTH:
            raise _NotMine
        lines, keys, spans = self.lines, self.keys, self.spans
        mapping: dict[str, Any] = {}
        start = _new_tuple(Position, (index + 1, indent + 1))
        last = len(lines) - 1
        while True:
            if first is not None:
                content, first = first, None
            else:
                if index == last:
                    break
                line = lines[index]
                content = line.lstrip(" ")
                depth = len(line) - len(content)
                if depth < indent:
                    break
                if depth > indent:
                    raise _NotMine
            match = _KEY.fullmatch(content)
            if match is None:
                raise _NotMine
            key, rest = match.group(1, 2)
            if key in mapping or key in _NULLS:
                raise _NotMine
            child = (*path, key)
            keys[child] = _new_tuple(Position, (index + 1, indent + 1))
            if rest is None:
                mapping[key], index = self.block(index + 1, indent + 2, child)
            elif rest and rest[0] not in PLAIN_FIRST_NO and rest[-1] != ":" and ": " not in rest:
                # One-line plain text, the usual value: `scalar`, inlined.
                column = indent + len(key) + 3
                mapping[key] = None if rest in _NULLS else rest
                spans[child] = (
                    _new_tuple(Position, (index + 1, column)),
                    _new_tuple(Position, (index + 1, column + len(rest))),
                )
                index += 1
            else:
                column = indent + len(key) + 2  # 0-based, where the value starts
                mapping[key], index = self.scalar(rest, index, column, indent, child)
        spans[path] = (start, self.at(index))
        return mapping, index

    def block(self, index: int, indent: int, path: Path) -> tuple[Any, int]:
        """The value on the lines below a `key:`: a sequence or a mapping at `indent`."""
        if index == len(self.lines) - 1:
            raise _NotMine  # `key:` and nothing: null, which libyaml places its own way
        line = self.lines[index]
        content = line.lstrip(" ")
        if len(line) - len(content) != indent:
            raise _NotMine
        if content.startswith("- "):
            return self.sequence(index, indent, path)
        return self.mapping(index, indent, path, None)

    def sequence(self, index: int, indent: int, path: Path) -> tuple[Any, int]:
        """A block sequence with its `- ` at column `indent`."""
        if len(path) >= MAX_DEPTH:
            raise _NotMine
        lines, spans = self.lines, self.spans
        items: list[Any] = []
        start = _new_tuple(Position, (index + 1, indent + 1))
        last = len(lines) - 1
        while index != last:
            line = lines[index]
            content = line.lstrip(" ")
            depth = len(line) - len(content)
            if depth < indent:
                break
            if depth > indent or not content.startswith("- "):
                raise _NotMine
            item = content[2:]
            child = (*path, len(items))
            if item and item[0] not in PLAIN_FIRST_NO and ": " not in item and item[-1] != ":":
                # One-line plain text, the usual item: `scalar`, inlined. (Not a `key:`
                # either, which would need a `: ` or a final `:`.)
                items.append(None if item in _NULLS else item)
                spans[child] = (
                    _new_tuple(Position, (index + 1, indent + 3)),
                    _new_tuple(Position, (index + 1, indent + 3 + len(item))),
                )
                index += 1
                continue
            if _KEY.fullmatch(item) is not None:
                value, index = self.mapping(index, indent + 2, child, item)
            else:
                value, index = self.scalar(item, index, indent + 2, indent, child)
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
        start = _new_tuple(Position, (index + 1, column + 1))
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
        end = _new_tuple(Position, (index + 1, column + len(text) + 1))
        self.spans[path] = (start, end)
        return value, index + 1

    def literal(
        self, header: str, index: int, indent: int, path: Path, start: Position
    ) -> tuple[str, int]:
        """A literal block (`|` or `|-`) whose lines are indented by `indent` spaces."""
        if header not in ("|", "|-"):
            raise _NotMine
        lines = self.lines
        margin = " " * indent
        body: list[str] = []
        index += 1
        last = len(lines) - 1
        while index != last:
            line = lines[index]
            if line.startswith(margin):
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
        value = "\n".join(body)
        if header == "|":
            value += "\n"
        self.spans[path] = (start, _new_tuple(Position, (index + 1, 1)))
        return value, index
