"""The file must be well-formed YAML.

A syntax error is reported where libyaml stopped reading; the rest of the file is not
checked until it parses, but every other file still is.
"""

from curator.findings import Severity
from curator.load import Problem
from curator.rules._problems import report
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL101",
    name="yaml-syntax",
    severity=Severity.ERROR,
    summary="The file is not well-formed YAML.",
    failing="title: [unclosed\n",
    passing="title: closed\n",
)


def check(file: IncidentFile) -> FileFindings:
    if file.loaded.problems:  # (nearly every file has none)
        yield from report(file, Problem.SYNTAX, RULE)
