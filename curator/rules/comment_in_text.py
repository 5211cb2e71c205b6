"""No comment on the same line as a text value.

In YAML, ` #` ends an unquoted value and starts a comment, so `title: Incident #19009 보고서`
is the title "Incident": the rest of the line is silently dropped, from the file's data and
from every export. A comment meant as one is set off by two spaces (`title: ...  # why`,
as `curator new` writes them, and as yamllint asks); a `#` after a single space in prose is
text (an issue number, a channel name) more often than not, so that is an error in the text
fields. Quote the whole value if the `#` belongs to it, or set the comment off.

Where a value should start, `#` and text at once (`title: #1 장애`, `- #장애-채널 공지`)
make the whole value a comment: the value is empty and its text gone, which no other rule
says of a field that may be empty (`detection`). A comment written as one there, `# ` with
a space (`detection: # 모름`), is left alone.

The other way round, a comment started with a full-width `＃` (U+FF03, which a Korean input
method types for `#`) in an unquoted value (`title: 스토리지 장애  ＃ 원제와 다름`) is no
comment to YAML but more of the text, kept in the data and every export: a `＃` with white
space on both sides is reported, at it, on any line of a value written on several lines
too. On a line before its last, a `#` would be no better: a comment there ends the value,
and YAML refuses the lines that went on with it; the note goes after the value's last line.
Quote the whole value if the `＃` belongs to it.

Inside a `|` or `>` block every indented line is text, so a note written there as a comment
(`  # 원문 다시 확인`) is kept in the field and in every export. A line of a block that
starts with `# ` is reported as a warning, at its `#`: a shell prompt quoted in the text may
start so too. A note goes on a line of its own above the block.
"""

import re
from dataclasses import replace
from typing import Any

from curator.document import value_at
from curator.findings import Severity
from curator.load import Position
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL108",
    name="comment-after-text",
    severity=Severity.ERROR,
    summary=(
        "`#` one space after unquoted text, or text right after a `#` that starts a value: "
        "YAML drops it as a comment; or a comment started with a full-width `＃`, which YAML "
        "keeps as text; or (a warning) a line of a `|` or `>` block starting with `# `, which "
        "is text too."
    ),
    failing="title: Networking Incident #19009 보고서\n",
    passing='title: "Networking Incident #19009 보고서"\n',
)

TEXT_FIELDS = frozenset({"title", "symptom", "trigger", "detection", "lessons", "withdrawn_reason"})
TEXT_LISTS = frozenset({"organizations", "actions", "follow_ups"})
SOURCE_TEXT = frozenset({"title", "publisher"})
_COMMENT = re.compile(r"[ \t]#")  # one space: two or more set off a comment meant as one
_TEXT_AS_COMMENT = re.compile(r"[ \t](#\S.*)")
# A comment typed with the input method's `＃`, set off by white space as comments are.
_KEPT_AS_TEXT = re.compile("[ \t\u3000](\uff03)(?:[ \t\u3000]|$)")
_REPLACED = object()
_QUOTES = ("'", '"')
# What may start a value on several lines that is no plain text: a block (`|`, `>`), or
# a tag or an anchor before one.
_BLOCK_OR_PROPERTY = ("|", ">", "!", "&")
# A line of a block that looks like a comment: `#` then white space or nothing.
_NOTE_IN_BLOCK = re.compile(r"( *)(#(?:[ \t].*)?)$")


def check(file: IncidentFile) -> FileFindings:
    document, text = file.loaded.document, file.loaded.text
    if document is None or text is None:
        return
    full_width = "\uff03" in text  # (rare: then only is each value looked at for it)
    if "#" not in text and not full_width:
        return
    lines = text.split("\n")
    for path, (start, end) in document.value_spans.items():
        if not is_text(path):
            continue
        value = value_at(document.data, path, _REPLACED)
        if value is None:
            yield from _emptied(file, path, lines[end.line - 1], end)
            continue
        if not isinstance(value, str):
            continue  # (a repeated key replaced it, or no text is there: IL201 says so)
        first = lines[start.line - 1][start.column - 1 : start.column]
        if first in _QUOTES:
            continue  # (a quoted value is whole)
        if start.line != end.line and first in _BLOCK_OR_PROPERTY:
            if "#" in value:  # (in a block, `#` is text: said where it looks like a comment)
                yield from _note_in_block(file, path, value, lines, start, end)
            continue
        if full_width:
            yield from _kept_as_text(file, path, lines, start, end)
        line = lines[end.line - 1]  # (plain text on several lines ends on its last)
        comment = _COMMENT.match(line, end.column - 1)
        if comment is None:
            continue
        where = Position(end.line, comment.end())
        dropped = line[comment.end() - 1 :].rstrip()
        yield RULE.at(
            file.display,
            where,
            f"`{dropped}` is a YAML comment, not part of {_name(path)}; quote the whole "
            "value if it belongs to it, or set a comment off with two spaces before `#`",
        )


def _kept_as_text(
    file: IncidentFile, path: tuple[Any, ...], lines: list[str], start: Position, end: Position
) -> FileFindings:
    """Each comment started with `＃` in an unquoted value, on each of its lines, which YAML
    keeps as text."""
    for number in range(start.line, end.line + 1):
        line = lines[number - 1]
        begin = start.column - 1 if number == start.line else 0
        stop = end.column - 1 if number == end.line else len(line)
        kept = _KEPT_AS_TEXT.search(line, begin, stop)
        if kept is None:
            continue
        where = "; write '#' with two spaces before it" if number == end.line else _INSIDE
        yield RULE.at(
            file.display,
            Position(number, kept.start(1) + 1),
            f"`{line[kept.start(1) : stop].rstrip()}` is text of {_name(path)}, not a comment: "
            f"YAML starts a comment at '#' (U+0023), not at U+FF03 FULLWIDTH NUMBER SIGN{where}, "
            "or quote the whole value if it belongs to it",
        )


def _note_in_block(
    file: IncidentFile,
    path: tuple[Any, ...],
    value: str,
    lines: list[str],
    start: Position,
    end: Position,
) -> FileFindings:
    """Each line of a `|` or `>` block that starts with `# `, which YAML keeps as text."""
    for number in range(start.line + 1, min(end.line, len(lines)) + 1):
        note = _NOTE_IN_BLOCK.match(lines[number - 1])
        if note is None or not note.group(1) or note.group(2).rstrip() not in value:
            continue  # (not indented: a comment after the block, not in it)
        finding = RULE.at(
            file.display,
            Position(number, len(note.group(1)) + 1),
            f"`{note.group(2).rstrip()}` is text of {_name(path)}, not a comment: every line "
            "of a `|` or `>` block is text; write a note on a line of its own above the block, "
            "or leave it if it belongs to the text",
        )
        yield replace(finding, severity=Severity.WARNING)


# Where the `＃` is on a line of a value that the next line goes on with: a `#` there ends the
# value, and YAML refuses the line after it.
_INSIDE = (
    ", and a comment cannot stand inside a value on several lines (YAML joins them into one "
    "text); write it with '#' after the value's last line"
)


def _emptied(file: IncidentFile, path: tuple[Any, ...], line: str, end: Position) -> FileFindings:
    """An empty value followed by `#` and text at once (`title: #1 장애`, `- #장애-채널 공지`):
    the text YAML dropped, the whole value. (`# 메모`, a space after the `#`, is a comment
    written as one, on a value left empty.)"""
    dropped = _TEXT_AS_COMMENT.match(line, end.column - 1)
    if dropped is None:
        return
    yield RULE.at(
        file.display,
        Position(end.line, dropped.start() + 2),
        f"`{dropped.group(1).rstrip()}` is a YAML comment, so {_name(path)} is empty; quote the "
        "whole value if it belongs to it",
    )


def is_text(path: tuple[Any, ...]) -> bool:
    """A value written as prose: where a `#` is more likely text than a comment."""
    if len(path) == 1:
        return path[0] in TEXT_FIELDS
    if len(path) == 2:
        return path[0] in TEXT_LISTS and isinstance(path[1], int)
    return len(path) == 3 and path[0] == "sources" and path[2] in SOURCE_TEXT


def _name(path: tuple[Any, ...]) -> str:
    parts = [f"[{part}]" if isinstance(part, int) else f".{part}" for part in path]
    return "".join(parts).removeprefix(".")
