"""Edits of an incident file's text, made character by character: what `curator fix` does
to a file the YAML loader may refuse (a tab in the indentation), and what lint's IL601
asks of it (whether fix's spaces would mend the file). Nothing here knows the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from curator.load import Problem, load_bytes

# Reads of a text that `repairs` and fix's `_keep_values` may each make to try edits one by one:
# each costs a parse of the whole file, and a hostile file can hold a tab on each of
# 100,000 lines. At most _TRIES reads, and no more than _READ_BYTES of text read in all
# (a file of 1 MiB took a second a read: 100 of them, minutes). The edits not tried are
# left for people, and said to be not tried.
_TRIES = 100
_READ_BYTES = 2 * 1024 * 1024


def tries(text: str) -> int:
    return max(1, min(_TRIES, _READ_BYTES // max(1, len(text))))


@dataclass(frozen=True, order=True)
class Edit:
    """`lines[line][start:end]` becomes `new`; `column` is where the finding is (0-based)."""

    line: int
    start: int
    end: int
    new: str
    column: int


def tab_edits(text: str) -> list[Edit]:
    """One edit for the indentation of a line, one for each other tab: a line may hold a
    tab of the layout and a tab of a value."""
    edits: list[Edit] = []
    for number, line in enumerate(text.split("\n")):
        if "\t" not in line:
            continue
        indent = len(line) - len(line.lstrip(" \t"))
        if "\t" in line[:indent]:
            edits.append(
                Edit(number, 0, indent, line[:indent].replace("\t", "  "), line.index("\t"))
            )
        edits += [
            Edit(number, column, column + 1, " ", column)
            for column in range(indent, len(line))
            if line[column] == "\t"
        ]
    return edits


def apply(text: str, edits: list[Edit]) -> str:
    """`text` with `edits` (which do not overlap) made; each changed line is built once, so
    that the cost does not grow with the square of the edits on a line."""
    lines = text.split("\n")
    by_line: dict[int, list[Edit]] = {}
    for edit in edits:
        by_line.setdefault(edit.line, []).append(edit)
    for number, on_line in by_line.items():
        line, at = lines[number], 0
        pieces: list[str] = []
        for edit in sorted(on_line):
            pieces += [line[at : edit.start], edit.new]
            at = edit.end
        lines[number] = "".join(pieces) + line[at:]
    return "\n".join(lines)


def repairs(text: str, edits: list[Edit]) -> list[Edit]:
    """The edits that make an unreadable text readable: each at the place where the parser
    stops, one after another. What the parser cannot take there (a tab where indentation
    must be spaces) is not part of any value, so changing it changes none."""
    made: list[Edit] = []
    for _ in range(tries(text)):
        loaded = load_bytes(apply(text, made).encode("utf-8"))
        syntax = [p.position for p in loaded.problems if p.kind is Problem.SYNTAX]
        if not syntax:
            return made
        line = syntax[0].line - 1
        column = column_before(made, line, syntax[0].column - 1)
        at = [e for e in edits if e.line == line and e.start <= column < e.end and e not in made]
        if not at:
            return made
        made += at
    return made  # still unreadable, maybe: the writer then refuses the file


def column_before(made: list[Edit], line: int, column: int) -> int:
    """Where `column` of a line, after the edits `made`, was before them."""
    shift = 0
    for edit in sorted(e for e in made if e.line == line):
        if column < edit.start + shift + len(edit.new):
            break
        shift += len(edit.new) - (edit.end - edit.start)
    return column - shift
