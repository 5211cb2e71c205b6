"""An incident cannot have occurred after today (UTC)."""

from curator.findings import Severity
from curator.model import parse_partial_date
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL503",
    name="occurred-in-future",
    severity=Severity.ERROR,
    summary="`occurred` is a date after today.",
    failing="occurred: 2999-01-01\n",
    passing="occurred: 2023-03-08\n",
)


def check(file: IncidentFile) -> FileFindings:
    if file.incident is None or file.incident.occurred is None:
        return
    year, month, day = parse_partial_date(file.incident.occurred)
    today = file.today
    earliest = (year, month or 1, day or 1)
    if earliest > (today.year, today.month, today.day):
        yield RULE.at(
            file.display,
            file.position("occurred"),
            f"occurred {file.incident.occurred} is after today ({today.isoformat()})",
        )
