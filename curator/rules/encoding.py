"""Incident files are UTF-8.

A byte sequence that is not UTF-8 (a file saved as CP949/EUC-KR, say) is reported at the
line and column where decoding failed. A file that reads as Korean in CP949 (EUC-KR), as
Korean Windows editors save files unless told otherwise, is named so, and one that starts
with a UTF-16 byte-order mark (Windows' "Unicode") as UTF-16.
"""

from curator.findings import Severity
from curator.load import Problem
from curator.rules._problems import report
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL103",
    name="encoding",
    severity=Severity.ERROR,
    summary="The file is not valid UTF-8.",
    failing="title: \\xc0\\xfc\\xb7\\xc2 (EUC-KR bytes)\n",
    passing="title: 전력 (UTF-8)\n",
)


def check(file: IncidentFile) -> FileFindings:
    if file.loaded.problems:  # (nearly every file has none)
        yield from report(file, Problem.ENCODING, RULE)
