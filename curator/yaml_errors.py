"""libyaml's syntax errors, where they come from a contributor's usual slip, → the place of
the slip and what to write instead.

libyaml says what its parser expected (`could not find expected ':'`, `mapping values are
not allowed in this context`), which tells someone who knows YAML's grammar what went
wrong, and most contributors nothing. Its words are kept, for searching; after them comes
the slip in the file's terms: a key without `: `, a `: ` inside a one-line text, a line
indented as no key around it is, a quote left open, a value starting with `@` or a
backtick. Any other error is left in libyaml's words alone.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

# libyaml (YAML 1.1) starts a line at each of these, and counts its marks' lines so.
_YAML_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_KEY_ON_LINE = re.compile(r"\S:(?: |$)")

_TEXT_GOING_ON = "if it goes on with the text above, write that text as a `|` block"


class Advice(NamedTuple):
    line: int  # 1-based, as libyaml counts lines
    column: int
    words: str  # libyaml's problem, then what it means here


def advice(exc: Any, text: str) -> Advice | None:
    """What a syntax error (`yaml.MarkedYAMLError`) in `text` means, and where; None for one
    that comes from no usual slip."""
    problem, at, opened = exc.problem, exc.problem_mark, exc.context_mark
    if at is None or problem is None:
        return None
    if opened is not None and (
        problem == "could not find expected ':'" or exc.context == "while scanning a quoted scalar"
    ):
        # libyaml notices these a line or more later: the slip is where the words started.
        started = _started_there(problem, _line(text, opened.line)[opened.column :])
        return Advice(opened.line + 1, opened.column + 1, f"{problem}: {started}")
    here = _here(problem, _line(text, at.line), at.column)
    return Advice(at.line + 1, at.column + 1, f"{problem}: {here}") if here else None


def _started_there(problem: str, rest: str) -> str:
    """A key without `: `, or a quote never closed: `rest` is the line from its start."""
    if problem == "could not find expected ':'":
        return (
            "this line is not `key: value`; put ': ' after its key, or, "
            f"{_TEXT_GOING_ON} (`key: |`, its lines indented below)"
        )
    return f"the {rest[:1]} here is never closed; end the value with {rest[:1]}"


def _here(problem: str, line: str, column: int) -> str | None:
    """What `problem`, found at `column` of `line`, means; None if it is no usual slip."""
    starts_line = column == len(line) - len(line.lstrip(" "))
    if problem == "mapping values are not allowed in this context":
        if _KEY_ON_LINE.search(line, 0, column):
            return (
                "a ': ' inside a value starts another key; put the whole value in double "
                'quotes ("…") or write it as a `|` block'
            )
        return (
            "this key is indented deeper than the key above it: line it up with the keys of "
            f"its mapping; or, {_TEXT_GOING_ON}"
        )
    if problem == "did not find expected key" and starts_line:
        return (
            "nothing above this line is indented as far as it: line it up with the keys or "
            "items it belongs with"
        )
    if problem == "did not find expected key" and line[:column].rstrip().endswith(("'", '"')):
        return (
            "a quoted value ends at its closing quote; write a ' inside '…' as '', and a \" "
            'inside "…" as \\"'
        )
    if problem == "did not find expected '-' indicator" and starts_line:
        return (
            "this line is lined up with the list's items but is not one: start it with '- ', "
            "or, if it is a key of the item above, indent it as far as that item's keys"
        )
    if problem == "found character that cannot start any token" and line[column : column + 1] in (
        "@",
        "`",
    ):
        return f"a value cannot start with {line[column]}; put the whole value in double quotes"
    return None


def _line(text: str, index: int) -> str:
    lines = _YAML_BREAK.split(text)
    return lines[index] if index < len(lines) else ""
