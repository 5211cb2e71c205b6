"""No byte-order mark.

UTF-8 needs none, and some tools show it as a stray character before the first key.
`curator fix` removes it.
"""

from curator.findings import Severity
from curator.load import START
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL604",
    name="bom",
    severity=Severity.ERROR,
    summary="The file starts with a UTF-8 byte-order mark.",
    failing="\\ufeffid: IL-0001\n",
    passing="id: IL-0001\n",
    fixable=True,
)


def check(file: IncidentFile) -> FileFindings:
    if file.loaded.text is not None and file.loaded.bom:
        yield RULE.at(file.display, START, "byte-order mark at the start of the file")
