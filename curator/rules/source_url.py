"""Every source URL is a well-formed https URL.

Readers and downstream tools follow these links; plain http can be tampered with on the way
and a malformed URL leads nowhere. So does one pasted with what surrounded it: in quotes or
brackets (`“https://…”`, `<https://…>`), or ending in a `)` that no `(` in it opens
(`https://…/post)` from a sentence in brackets or the `(url)` of a Markdown link), which a
reader's link would take as part of the address.
"""

from curator.findings import Severity
from curator.rules._sources import all_plain
from curator.rules.base import FileFindings, IncidentFile, Rule
from curator.urls import url_problem

RULE = Rule(
    code="IL501",
    name="source-url",
    severity=Severity.ERROR,
    summary="A source URL is not https, or is malformed.",
    failing="sources:\n  - url: http://example.com/postmortem\n",
    passing="sources:\n  - url: https://example.com/postmortem\n",
)


def check(file: IncidentFile) -> FileFindings:
    if file.incident is None or all_plain(file.incident):
        return  # (a plain URL is a well-formed https URL)
    for index, source in enumerate(file.incident.sources):
        problem = url_problem(source.url)
        if problem:
            yield RULE.at(
                file.display,
                file.position("sources", index, "url"),
                f"source URL {source.url!r} {problem}",
            )
