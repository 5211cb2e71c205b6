"""No tab characters.

YAML forbids tabs for indentation, and in text they render differently everywhere.
`curator fix` replaces them with spaces, except inside a value or a comment: there the tab
is text, which only its author may change (the finding is then not marked fixable).
"""

from curator.findings import Severity
from curator.load import Position
from curator.rules._spaces import in_comment, inside, not_fixable, scalar_spans
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL601",
    name="no-tabs",
    severity=Severity.ERROR,
    summary="A tab character.",
    failing="title:\tGPU 장애\n",
    passing="title: GPU 장애\n",
    fixable=True,
)


def check(file: IncidentFile) -> FileFindings:
    if file.loaded.text is None or "\t" not in file.loaded.text:
        return
    lines = file.loaded.text.split("\n")  # lines as editors and curator.load count them
    spans = scalar_spans(file.loaded.document, lines)
    for number, line in enumerate(lines, start=1):
        column = line.find("\t") + 1
        if column:
            where = Position(number, column)
            finding = RULE.at(file.display, where, "tab character; use spaces")
            text = inside(spans, where) or in_comment(line, column, number, spans)
            yield not_fixable(finding) if text else finding
