"""An incident cannot have occurred, nor a source have been published, after today (UTC).

A date in the future is a typo (a year or a month mistyped). A source published before
the incident occurred is not one: an advisory can come first."""

import datetime as dt
from collections.abc import Iterator

from curator.findings import Severity
from curator.model import parse_partial_date
from curator.rules.base import FileFindings, IncidentFile, Rule
from curator.schema_errors import dotted

RULE = Rule(
    code="IL503",
    name="occurred-in-future",
    severity=Severity.ERROR,
    summary="`occurred`, or a source's `published`, is a date after today.",
    failing="occurred: 2999-01-01\n",
    passing="occurred: 2023-03-08\n",
)


def _dates(file: IncidentFile) -> Iterator[tuple[str, tuple[str | int, ...]]]:
    """Each date of the incident, with where it is: `occurred`, then each source's
    `published`."""
    incident = file.incident
    if incident is None:
        return
    if incident.occurred is not None:
        yield incident.occurred, ("occurred",)
    for index, source in enumerate(incident.sources):
        if source.published is not None:
            yield source.published, ("sources", index, "published")


def _first_day(date: str) -> dt.date:
    year, month, day = parse_partial_date(date)
    return dt.date(year, month or 1, day or 1)


def turning_points(file: IncidentFile) -> list[dt.date]:
    """The days on which `check(file)` starts to answer differently (the lint cache
    re-checks the file when today has crossed one since its result was kept)."""
    return [_first_day(date) for date, _ in _dates(file)]


def check(file: IncidentFile) -> FileFindings:
    today = file.today.isoformat()
    for date, where in _dates(file):
        # The model has made each date `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, and ISO dates of
        # four-digit years sort as text as they do as dates: so its first day is after
        # today exactly when it sorts after as much of today's date (no parsing needed).
        if date > today[: len(date)]:
            yield RULE.at(
                file.display,
                file.position(*where),
                f"{dotted(where)} {date} is after today ({today})",
            )
