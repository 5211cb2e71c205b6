"""What a YAML file is read into: its values, and where each of them stands.

Both readers build it: `curator.load` (from libyaml's events, any file) and
`curator.load_canonical` (from the lines of a file in the canonical layout).
"""

from __future__ import annotations

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
