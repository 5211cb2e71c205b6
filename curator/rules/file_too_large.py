"""An incident file is at most 1 MiB.

Real incidents are a few kilobytes; a larger file is a mistake or an attack, and is not
parsed at all.
"""

from curator.findings import Severity
from curator.load import Problem
from curator.rules._problems import report
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL104",
    name="file-too-large",
    severity=Severity.ERROR,
    summary="The file is larger than 1 MiB and is not read.",
    failing="(a 50 MB file)\n",
    passing="(a file of a few kilobytes)\n",
)


def check(file: IncidentFile) -> FileFindings:
    if file.loaded.problems:  # (nearly every file has none)
        yield from report(file, Problem.TOO_LARGE, RULE)
