"""A key may appear only once in a mapping.

YAML parsers silently keep one of the two values, so a repeated key usually means a value
was lost by accident. The later value is used for the other checks.
"""

from curator.findings import Severity
from curator.load import Problem
from curator.rules._problems import report
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL102",
    name="duplicate-key",
    severity=Severity.ERROR,
    summary="The same key appears twice in one mapping.",
    failing="title: 첫 제목\ntitle: 두 번째 제목\n",
    passing="title: 하나뿐인 제목\n",
)


def check(file: IncidentFile) -> FileFindings:
    if file.loaded.problems:  # (nearly every file has none)
        yield from report(file, Problem.DUPLICATE_KEY, RULE)
