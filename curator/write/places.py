"""Where a place in a text that `curator fix`'s text fixes changed stood in the file.

Each text fix (a byte-order mark removed, CRLF made LF, zero-width characters removed,
letters composed, tabs made spaces, trailing space removed) moves the places after what it
changes: a character removed before a facet on its line, a lone CR made a line feed above
it. What fix says of a place — a change, a refusal — is said at it in the file the user
opens, as lint says it, not in the partly fixed text where fix found it (`Trail.on_disk`).
"""

from __future__ import annotations

import bisect

from curator.load import Position, at_editor_lines, position_at

# `text[start:end]` became `length` characters; the moves of one text fix are in order
# and do not overlap.
Move = tuple[int, int, int]


class Trail:
    """The texts a file's text fixes made one after another, and how each moved places."""

    def __init__(self, original: str) -> None:
        # Places are said in the text after the byte-order mark, as lint and editors say
        # them (`curator.load.Loaded.text`).
        self._mark = 1 if original.startswith("\ufeff") else 0
        self._after_mark = original[self._mark :]
        self._on_editor_lines = at_editor_lines(self._after_mark)
        self._line_starts = [_line_starts(original)]
        self._moves: list[list[Move]] = []
        self._out_starts: list[list[int]] = []

    def add(self, text: str, moves: list[Move]) -> None:
        """The text the next text fix made, and its moves."""
        out_starts, shift = [], 0
        for start, end, length in moves:
            out_starts.append(start + shift)
            shift += length - (end - start)
        self._line_starts.append(_line_starts(text))
        self._moves.append(moves)
        self._out_starts.append(out_starts)

    def on_disk(self, position: Position, stage: int) -> Position:
        """Where `position` in the text after `stage` text fixes stands in the file, as lint
        counts places: lines as `curator.load` counts them (a lone CR among LF line ends is
        one line's text), and the byte-order mark no column of line 1."""
        starts = self._line_starts[stage]
        line = min(position.line, len(starts))
        offset = starts[line - 1] + position.column - 1
        for moves, out_starts in zip(
            reversed(self._moves[:stage]), reversed(self._out_starts[:stage]), strict=True
        ):
            offset = _before(moves, out_starts, offset)
        offset = min(max(offset - self._mark, 0), len(self._after_mark))
        place = position_at(self._after_mark, offset)
        if self._on_editor_lines is not None:
            place = self._on_editor_lines(place)
        return place


def _before(moves: list[Move], out_starts: list[int], offset: int) -> int:
    """Where `offset` of a text stood before `moves` made it: inside what a move put in,
    at what it replaced."""
    index = bisect.bisect_right(out_starts, offset) - 1
    if index < 0:
        return offset
    start, end, length = moves[index]
    into = offset - out_starts[index]
    if into < length:
        return start + min(into, max(end - start - 1, 0))
    return end + into - length


def _line_starts(text: str) -> list[int]:
    starts = [0]
    at = text.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    return starts
