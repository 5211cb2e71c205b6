"""An incident cannot have occurred after today (UTC)."""

import datetime as dt

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


def _earliest(file: IncidentFile) -> dt.date | None:
    if file.incident is None or file.incident.occurred is None:
        return None
    year, month, day = parse_partial_date(file.incident.occurred)
    return dt.date(year, month or 1, day or 1)


def turning_points(file: IncidentFile) -> list[dt.date]:
    """The days on which `check(file)` starts to answer differently (the lint cache
    re-checks the file when today has crossed one since its result was kept)."""
    earliest = _earliest(file)
    return [earliest] if earliest else []


def check(file: IncidentFile) -> FileFindings:
    incident = file.incident
    if incident is None or incident.occurred is None:
        return
    occurred, today = incident.occurred, file.today
    # The model has made `occurred` `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, and ISO dates of
    # four-digit years sort as text as they do as dates: so its first day is after today
    # exactly when it sorts after as much of today's date (the test needs no parsing).
    if occurred > today.isoformat()[: len(occurred)]:
        yield RULE.at(
            file.display,
            file.position("occurred"),
            f"occurred {occurred} is after today ({today.isoformat()})",
        )
