"""No bare `@name` in text.

The review bot echoes incident text into pull-request comments, where `@name` or
`@org/team` would notify a stranger. Write the name without `@`, or put it in backticks.
E-mail addresses and URLs (`medium.com/@team`) are not mentions.
"""

import re
from collections.abc import Iterator

from curator.findings import Severity
from curator.load import Position
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL504",
    name="bare-mention",
    severity=Severity.ERROR,
    summary="Text holds a bare @mention that would notify someone when echoed on GitHub.",
    failing="lessons: |\n  @ops-team 에 알렸다.\n",
    passing="lessons: |\n  운영팀(`@ops-team`)에 알렸다.\n",
)
MENTION = re.compile(r"(?<![\w@./:`-])@[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:/[A-Za-z0-9_.-]+)?")
_CODE_SPAN = re.compile(r"`[^`\n]*`")


def bare_mentions(text: str) -> list[str]:
    """The bare @mentions in one line of text, outside `code spans`."""
    return [m.group() for m in MENTION.finditer(_outside_code(text))]


def _outside_code(line: str) -> str:
    """`line` with its code spans blanked out, so that positions stay where they were."""
    return _CODE_SPAN.sub(lambda m: " " * len(m.group()), line)


_TEXT_FIELDS = (
    "title",
    "symptom",
    "trigger",
    "detection",
    "actions",
    "follow_ups",
    "lessons",
    "withdrawn_reason",
    "organizations",
)
_LISTS = frozenset({("actions",), ("follow_ups",), ("organizations",)})


def _text_spans(file: IncidentFile) -> Iterator[tuple[Position, Position]]:
    document = file.loaded.document
    if document is None:
        return
    for path, span in document.value_spans.items():
        if not path or path in _LISTS:
            continue  # (a list's items are read one by one: its span runs on to the next key)
        if path[0] in _TEXT_FIELDS or (path[0] == "sources" and path[-1] in ("title", "publisher")):
            yield span


def check(file: IncidentFile) -> FileFindings:
    if file.incident is None or file.loaded.text is None or "@" not in file.loaded.text:
        return  # the last test: nearly every file has no "@", and this rule is costly
    lines = file.loaded.text.split("\n")  # lines as editors and curator.load count them
    seen: set[int] = set()
    for start, end in _text_spans(file):
        # A block ends at the start of the line after it, which is none of its text.
        last = end.line - 1 if end.column == 1 and end.line > start.line else end.line
        for number in range(start.line, min(last, len(lines)) + 1):
            if number in seen:
                continue
            seen.add(number)
            line = _outside_code(lines[number - 1])
            for match in MENTION.finditer(line):
                yield RULE.at(
                    file.display,
                    Position(number, match.start() + 1),
                    f"bare mention {match.group()!r} would notify someone on GitHub; "
                    "drop the @ or wrap it in backticks",
                )
