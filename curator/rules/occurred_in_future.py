"""An incident cannot have occurred, nor a source have been published, after today (UTC).

A date in the future is a typo (a year or a month mistyped). A source published before
the incident occurred is not one: an advisory can come first."""

from collections.abc import Iterator

from curator.findings import Severity
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


def turning_points(file: IncidentFile) -> list[str]:
    """The days (ISO) on which `check(file)` starts to answer differently (the lint cache
    re-checks the file when today has crossed one since its result was kept): the first
    day of each date, written out without parsing it (most files have two or three)."""
    return [_first_day(date) for date, _ in _dates(file)]


def _first_day(date: str) -> str:
    """The first day of a date the model has made `YYYY`, `YYYY-MM` or `YYYY-MM-DD`."""
    return date + "-01-01"[: 10 - len(date)]


def _after(date: str, today: str) -> bool:
    """Whether `date`'s first day is after `today` (ISO). ISO dates of four-digit years
    sort as text as they do as dates: so it is exactly when `date` sorts after as much of
    today's date (no parsing needed)."""
    return date > today[: len(date)]


def check(file: IncidentFile) -> FileFindings:
    today = file.today.isoformat()
    for date, where in _dates(file):
        if _after(date, today):
            yield RULE.at(
                file.display,
                file.position(*where),
                f"{dotted(where)} {date} is after today ({today})",
            )
