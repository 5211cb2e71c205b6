"""A source URL carries no tracking parameters or other noise.

Only changes that cannot lead a reader elsewhere are asked for: the scheme and host in
lower case, no default port (`:443`), no tracking parameters (`utm_*`, `fbclid`, `gclid`,
…), no empty `?` or `#`, no text-highlight fragment (`#:~:text=`). A `www.` prefix, a
trailing slash or a fragment naming a section stay: some hosts answer only with `www.`,
and a fragment may point at the update of a status page that the incident is about.
(Duplicate detection compares URLs in a stronger normal form; see IL502.) `curator fix`
rewrites the URL.

Nor does an incident list one source twice: a source whose URL is, in that stronger normal
form, the URL of a source above it is reported at its URL, with the line of the other.
Where the two are the same in every key (URLs as tidied here), `curator fix` removes the
second; where they differ (another title or publisher), only their author can tell which
is right, and merges them.
"""

import json
import re
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from curator.findings import Finding, Severity
from curator.model import Source
from curator.rules._sources import all_plain
from curator.rules._spaces import not_fixable
from curator.rules.base import FileFindings, IncidentFile, Rule
from curator.urls import is_plain, url_problem

RULE = Rule(
    code="IL505",
    name="source-url-form",
    severity=Severity.WARNING,
    summary=(
        "A source URL has tracking parameters, a default port or other noise, or a source "
        "repeats another of the incident."
    ),
    failing="sources:\n  - url: https://Example.com:443/pm?utm_source=feed&id=7#:~:text=GPU\n",
    passing="sources:\n  - url: https://example.com/pm?id=7\n",
    fixable=True,
)
# Narrower than `curator.urls` on purpose: that list decides whether two URLs are one page;
# this one may rewrite what readers click, so it names only parameters that never select
# content.
_TRACKING = re.compile(
    r"^(?:utm_[a-z_]+|fbclid|gclid|dclid|gbraid|wbraid|msclkid|mc_cid|mc_eid|_hsenc|_hsmi|"
    r"mkt_tok|igshid|yclid|twclid)$",
    re.IGNORECASE,
)


def tidy(url: str) -> str:
    """`url` without the noise this rule names; unchanged unless it is a valid https URL."""
    if is_plain(url) or url_problem(url) is not None:
        return url
    parts = urlsplit(url)
    host = parts.netloc.rsplit("@", 1)
    hostport = host[-1].lower().removesuffix(":443")
    netloc = "@".join([*host[:-1], hostport])
    query = "&".join(
        pair for pair in parts.query.split("&") if pair and not _TRACKING.match(pair.split("=")[0])
    )
    fragment = "" if parts.fragment.startswith(":~:") else parts.fragment
    return urlunsplit(("https", netloc, parts.path, query, fragment))


def check(file: IncidentFile) -> FileFindings:
    if file.incident is None:
        return
    if len(file.incident.sources) > 1:  # (nearly every incident has one or two)
        yield from _repeats(file, file.incident.sources, file.normal_urls())
    if all_plain(file.incident):
        return  # (`tidy` leaves a plain URL as it is)
    for index, source in enumerate(file.incident.sources):
        tidied = tidy(source.url)
        if tidied != source.url:
            yield RULE.at(
                file.display,
                file.position("sources", index, "url"),
                f"write the source URL as {tidied}",
            )


def same_values(source: dict[str, Any]) -> dict[str, Any]:
    """What tells two sources apart, as given (a key given empty is not one left out): the
    values of their keys, the URL as `tidy` leaves it (so that `curator fix`, which tidies
    first, removes what this rule calls a repeat)."""
    url = source.get("url")
    return {**source, "url": tidy(url)} if isinstance(url, str) else source


def _repeats(file: IncidentFile, sources: list[Source], normal: list[str]) -> FileFindings:
    first_of: dict[str, int] = {}
    values: list[dict[str, Any]] = []  # worked out at the first repeat, which is rare
    same_as: list[int | None] = []
    for index, source in enumerate(sources):
        first = first_of.setdefault(normal[index], index)
        if first != index:
            if not values:
                values = [same_values(s.model_dump(exclude_unset=True)) for s in sources]
                same_as = first_same_above(values)
            yield _repeat(file, source.url, index, values, first, same_as[index])


def first_same_above(values: Sequence[dict[str, Any] | None]) -> list[int | None]:
    """For each source's values (`same_values`; None: not a source to compare), the first
    source above it with the same values, if any: one pass, as a hostile file may list
    tens of thousands of sources."""
    seen: dict[str, int] = {}
    found: list[int | None] = []
    for index, value in enumerate(values):
        key = None if value is None else json.dumps(value, sort_keys=True, default=repr)
        first = index if key is None else seen.setdefault(key, index)
        found.append(None if first == index else first)
    return found


def _repeat(
    file: IncidentFile,
    url: str,
    index: int,
    values: list[dict[str, Any]],
    first: int,
    same: int | None,
) -> Finding:
    """The finding at the source `index`, whose `url` is that of the source `first` above
    it: fixable if one above (`same`) is the same in every key."""
    position = file.position("sources", index, "url")
    if same is not None:
        line = file.position("sources", same, "url").line
        message = (
            f"{url} is already a source at line {line}, the same in every key; remove this one"
        )
        return RULE.at(file.display, position, message)
    line = file.position("sources", first, "url").line
    keys = [key for key in Source.model_fields if values[first].get(key) != values[index].get(key)]
    differ = "differs" if len(keys) == 1 else "differ"
    message = (
        f"{url} is already a source at line {line}, whose {' and '.join(keys)} {differ}; "
        "merge the two into one"
    )
    return not_fixable(RULE.at(file.display, position, message))
