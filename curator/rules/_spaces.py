"""Shared by the white-space rules (IL601, IL602): is a character part of what the file
says? `curator fix` changes white space only where the values and comments stay the same
(`curator.fix`), so a finding inside a value or a comment is not fixable; lint says so
instead of sending the author to a fix that leaves it."""

from __future__ import annotations

from dataclasses import replace

from curator.findings import Finding
from curator.load import Document, Position


def scalar_spans(document: Document | None, lines: list[str]) -> list[tuple[Position, Position]]:
    """Where each scalar value's text stands (from its first character to just after its
    last; a block scalar's from the line after its `|` or `>` header); none when the file
    could not be read: `fix` repairs such a file first."""
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
            spans.append((start, end))
    return spans


def inside(spans: list[tuple[Position, Position]], position: Position) -> bool:
    return any(start <= position < end for start, end in spans)


def in_comment(line: str, column: int, number: int, spans: list[tuple[Position, Position]]) -> bool:
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
