"""Lines end with LF, not CRLF.

Mixed line endings make every line of a diff change. Reported once per file, at the first
CRLF. `curator fix` converts the file.
"""

from curator.findings import Severity
from curator.load import position_at
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL603",
    name="crlf",
    severity=Severity.ERROR,
    summary="Lines end with CRLF (Windows) instead of LF.",
    failing="title: GPU 장애\\r\\n\n",
    passing="title: GPU 장애\\n\n",
    fixable=True,
)


def check(file: IncidentFile) -> FileFindings:
    text = file.loaded.text
    if text is None or "\r" not in text:
        return
    count = text.count("\r")  # one per line end, CRLF or a lone CR (as `curator fix` counts)
    yield RULE.at(
        file.display,
        position_at(text, text.index("\r")),
        f"{count} line{'s end' if count != 1 else ' ends'} with CR/CRLF; use LF",
    )
