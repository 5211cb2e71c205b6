"""What a YAML file is read into: its values, and where each of them stands.

Both readers build it: `curator.load` (from libyaml's events, any file) and
`curator.load_canonical` (from the lines of a file in the canonical layout).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

MAX_DEPTH = 32  # nesting levels a document may have
Path = tuple[str | int, ...]  # the keys and indexes leading to a value


class Position(NamedTuple):
    """A place in a file. A named tuple, not a dataclass: the loader makes two for every
    value of every file, and a tuple is several times cheaper to create."""

    line: int  # 1-based
    column: int  # 1-based


START = Position(1, 1)


def text_values(value: Any, path: Path = ()) -> Iterator[tuple[Path, str]]:
    """Every text among the values (not the keys) of `value`, with its path."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from text_values(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from text_values(item, (*path, index))


def value_at(data: Any, path: Path, missing: Any = None) -> Any:
    """The value at `path` in `data`; `missing` where the data holds none there (a key
    written twice keeps its later value, so an earlier one's places have no data)."""
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return missing
    return data


@dataclass
class Document:
    """The values of one YAML file and where each of them stands."""

    data: Any
    value_spans: dict[Path, tuple[Position, Position]] = field(default_factory=dict)
    key_positions: dict[Path, Position] = field(default_factory=dict)
    # The plain (unquoted) values written on several lines, whose lines YAML joins into one
    # text: where a line meant as something else (a list item) can vanish into the value.
    # The canonical layout has none (`curator.load_canonical` reads no such value).
    folded: list[Path] = field(default_factory=list)

    def position(self, path: Path) -> Position:
        """Where the value at `path` starts; the nearest enclosing value if it is absent."""
        for end in range(len(path), -1, -1):
            prefix = path[:end]
            if end == len(path) and prefix in self.value_spans:
                return self.value_spans[prefix][0]
            if prefix in self.key_positions:
                return self.key_positions[prefix]
            if prefix in self.value_spans:
                return self.value_spans[prefix][0]
        return START

    def key_position(self, path: Path) -> Position:
        return self.key_positions.get(path) or self.position(path)

    def locate(self, path: Path, at_key: bool = False) -> Position:
        return self.key_position(path) if at_key else self.position(path)

    def span(self, path: Path) -> tuple[Position, Position] | None:
        return self.value_spans.get(path)


_LIST_MARK = re.compile(r"[ \t]*([-*•])(?:[ \t]|$)")


def items_in_text(document: Document, lines: list[str]) -> Iterator[tuple[Path, int, int]]:
    """(path of the value, line, column) of each list mark (`- `, or Markdown's `* ` and
    `• `) that starts a line of an unquoted value written on several lines, after its first
    line: a line meant as a list item that YAML joined to the text above (IL109, IL303)."""
    for path in document.folded:
        start, end = document.value_spans[path]
        # (Lines as `lines` holds them: a file with other line breaks (IL603) may have fewer.)
        for number in range(start.line + 1, min(end.line, len(lines)) + 1):
            item = _LIST_MARK.match(lines[number - 1])
            if item is not None:
                yield path, number, item.start(1) + 1
