"""Incident files hold plain values only.

Tags (`!!python/object`, `!custom`), anchors used through aliases, several documents in one
file, complex keys and nesting deeper than 32 levels are refused. Nothing in a file is ever
constructed or executed, and an alias bomb ("billion laughs") costs nothing to reject.
"""

from curator.findings import Severity
from curator.load import Problem
from curator.rules._problems import report
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL105",
    name="forbidden-construct",
    severity=Severity.ERROR,
    summary="A YAML tag, alias, second document or other construct incidents never need.",
    failing="title: !!python/object/apply:os.system [echo hi]\n",
    passing="title: 평범한 글\n",
)


def check(file: IncidentFile) -> FileFindings:
    if file.loaded.problems:  # (nearly every file has none)
        yield from report(file, Problem.FORBIDDEN, RULE)
