"""No white space at the end of a line.

It is invisible, changes block-scalar text, and makes noisy diffs. `curator fix` removes it.
"""

from curator.findings import Severity
from curator.load import Position
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL602",
    name="trailing-whitespace",
    severity=Severity.WARNING,
    summary="White space at the end of a line.",
    failing="title: GPU 장애   \n",
    passing="title: GPU 장애\n",
    fixable=True,
)


def check(file: IncidentFile) -> FileFindings:
    if file.loaded.text is None:
        return
    for number, line in enumerate(file.loaded.text.split("\n"), start=1):
        line = line.removesuffix("\r")
        stripped = line.rstrip(" \t\u3000\u00a0")
        if stripped != line:
            yield RULE.at(file.display, Position(number, len(stripped) + 1), "trailing white space")
