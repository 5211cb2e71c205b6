"""Incident files hold plain values only.

Tags (every one but `!!str`: `!!python/object`, `!custom`, `!!int 5`, `!!bool yes`,
`!!map`, a bare `!`), anchors and aliases, several documents in one file, complex keys and
nesting deeper than 32 levels are refused. Nothing in a file is ever constructed
or executed, and an alias bomb ("billion laughs") costs nothing to reject. curator reads
every value as text, where other YAML readers take `!!int 5` for a number and fail on
`!!bool 장애`: write the value without the tag. (`!!str` says only "this is text".) An
anchor names a value for an alias to repeat; alone it changes nothing but the text it
takes from the value (`title: &a 장애` is the title `장애`).
"""

from curator.findings import Severity
from curator.load import Problem
from curator.rules._problems import report
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL105",
    name="forbidden-construct",
    severity=Severity.ERROR,
    summary="A YAML tag, anchor or alias, second document or other construct incidents never need.",
    failing="title: !!python/object/apply:os.system [echo hi]\n",
    passing="title: 평범한 글\n",
)


def check(file: IncidentFile) -> FileFindings:
    if file.loaded.problems:  # (nearly every file has none)
        yield from report(file, Problem.FORBIDDEN, RULE)
