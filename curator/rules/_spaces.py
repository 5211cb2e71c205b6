"""Shared by the white-space rules (IL601, IL602): is a character part of what the file
says? `curator fix` changes white space only where the values and comments stay the same
(`curator.fix`), so a finding inside a value or a comment is not fixable; lint says so
instead of sending the author to a fix that leaves it."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, replace
from itertools import accumulate

from curator.document import Path
from curator.findings import Finding
from curator.load import Document, Position


@dataclass(frozen=True)
class Spans:
    """Where scalar values stand, sorted by start, so that a look-up is a bisection: a file
    of 100,000 values, each on a line with a tab, took hours when every finding looked at
    every value. `reach[i]` is the furthest end of the first i + 1 spans."""

    starts: list[Position]
    reach: list[Position]

    @classmethod
    def of(cls, spans: list[tuple[Position, Position]]) -> Spans:
        spans = sorted((start, end) for start, end in spans if start < end)  # (empty: holds none)
        return cls([start for start, _ in spans], list(accumulate((e for _, e in spans), max)))


def scalar_spans(document: Document | None, lines: list[str]) -> Spans:
    """Where each scalar value's text stands (from its first character to just after its
    last; a block scalar's from the line after its `|` or `>` header); none when the file
    could not be read: `fix` repairs such a file first."""
    return Spans.of([(start, end) for start, end, _ in scalars(document, lines)])


def scalars(document: Document | None, lines: list[str]) -> list[tuple[Position, Position, Path]]:
    """The spans of `scalar_spans`, sorted, each with the path of its value."""
    if document is None:
        return []
    spans = []
    for path, span in document.value_spans.items():
        value = document.data
        try:
            for part in path:
                value = value[part]
        except (KeyError, IndexError, TypeError):
            continue
        if not isinstance(value, dict | list):
            start, end = span
            header = lines[start.line - 1] if start.line <= len(lines) else ""
            if header[start.column - 1 : start.column] in ("|", ">"):
                start = Position(start.line + 1, 1)
            spans.append((start, end, path))
    return sorted(((s, e, p) for s, e, p in spans if s < e), key=lambda span: span[:2])


def inside(spans: Spans, first: Position, last: Position | None = None) -> bool:
    """Whether a value holds `first`, or any place from `first` to `last` (on one line)."""
    count = bisect_right(spans.starts, last or first)  # the spans that start by then
    return count > 0 and first < spans.reach[count - 1]


def in_comment(line: str, column: int, number: int, spans: Spans) -> bool:
    """Whether the character at `column` (1-based) of `line` is inside a comment, with
    more than white space after it (a comment's trailing white space is not its text)."""
    if not line[column - 1 :].strip():
        return False
    return any(
        line[index] == "#"
        and (index == 0 or line[index - 1] in " \t")
        and not inside(spans, Position(number, index + 1))
        for index in range(column - 1)
    )


def not_fixable(finding: Finding) -> Finding:
    return replace(finding, fixable=False)
