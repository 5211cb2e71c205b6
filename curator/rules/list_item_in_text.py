"""No list item inside unquoted text.

YAML joins the lines of an unquoted value written on several lines into one text, each
line break a space. A line in it that starts with `- ` looks like a list item, and is
none: an item indented deeper than the list's other items, or a list nested under an
item the way Markdown writes one,

    actions:
      - 스토리지 조치
        - 컨트롤러를 재시작했다

is the one action "스토리지 조치 - 컨트롤러를 재시작했다". Nothing else says so: the file
is valid, and `curator fmt` would write the joined text on one line, after which nothing
shows what was meant. So this is an error, and fmt and fix leave the file as it is until
it is settled by hand: each item as `- ` at the indent of the list's other items (an item
of an incident's list holds text, never a list), or the whole value quoted if the mark is
text. A line starting with `* ` or `• `, Markdown's and the typewriter's bullets, is
taken the same way.
"""

from curator.document import Document, Path, Position, items_in_text, value_at
from curator.findings import Severity
from curator.rules.base import FileFindings, IncidentFile, Rule
from curator.schema_errors import dotted

RULE = Rule(
    code="IL109",
    name="list-item-in-text",
    severity=Severity.ERROR,
    summary=(
        "A line of unquoted text written on several lines starts with `- ` (or `* `, `• `): "
        "YAML joins it to the text above rather than making it a list item."
    ),
    failing="actions:\n  - 스토리지 조치\n    - 컨트롤러를 재시작했다\n",
    passing="actions:\n  - 스토리지 조치\n  - 컨트롤러를 재시작했다\n",
)

_SHOWN = 60  # characters of the joined text quoted in the message


def check(file: IncidentFile) -> FileFindings:
    document, text = file.loaded.document, file.loaded.text
    if document is None or text is None or not document.folded:
        return  # (every file in the canonical layout: no value on several lines)
    lines = text.split("\n")
    for path, number, column in items_in_text(document, lines):
        yield RULE.at(file.display, Position(number, column), message(document, path))


def message(document: Document, path: Path) -> str:
    value = value_at(document.data, path)
    joined = ""
    if isinstance(value, str):  # (a key written twice keeps its later value: IL102)
        shown = value if len(value) <= _SHOWN else value[: _SHOWN - 1] + "…"
        joined = f", so {dotted(path)} is “{shown}”"
    return (
        f"this line is no list item: YAML joins it to the text above{joined}; write each "
        "item as `- ` at the indent of the list's other items (an item holds text, not a "
        "list), or quote the whole value if the mark belongs to the text"
    )
