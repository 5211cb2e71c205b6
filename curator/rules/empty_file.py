"""An incident file must hold a document.

A file with nothing in it, or only comments, is reported instead of being taken as an
incident with no fields.
"""

from curator.findings import Severity
from curator.load import Problem
from curator.rules._problems import report
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL106",
    name="empty-file",
    severity=Severity.ERROR,
    summary="The file is empty or holds only comments.",
    failing="# 아직 비어 있음\n",
    passing="id: IL-0001\n...\n",
)


def check(file: IncidentFile) -> FileFindings:
    if file.loaded.problems:  # (nearly every file has none)
        yield from report(file, Problem.EMPTY, RULE)
