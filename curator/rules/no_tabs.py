"""No tab characters.

YAML forbids tabs for indentation, and in text they render differently everywhere.
`curator fix` replaces them with spaces.
"""

from curator.findings import Severity
from curator.load import Position
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
    for number, line in enumerate(file.loaded.text.splitlines(), start=1):
        column = line.find("\t")
        if column >= 0:
            yield RULE.at(file.display, Position(number, column + 1), "tab character; use spaces")
