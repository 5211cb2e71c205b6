"""The linter itself failed on this file.

Never expected: it means a bug in curator, which is reported as a finding (with the file it
happened on) so that the run goes on to every other file. Please report it.
"""

from curator.findings import Severity
from curator.rules.base import Rule

RULE = Rule(
    code="IL001",
    name="internal-error",
    severity=Severity.ERROR,
    summary="curator failed while checking this file (a bug; please report it).",
    failing="(any file that makes a rule crash)\n",
    passing="(every other file)\n",
)
