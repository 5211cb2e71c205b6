"""A source URL carries no tracking parameters or other noise.

Only changes that cannot lead a reader elsewhere are asked for: the scheme and host in
lower case, no default port (`:443`), no tracking parameters (`utm_*`, `fbclid`, `gclid`,
…), no empty `?` or `#`, no text-highlight fragment (`#:~:text=`). A `www.` prefix, a
trailing slash or a fragment naming a section stay: some hosts answer only with `www.`,
and a fragment may point at the update of a status page that the incident is about.
(Duplicate detection compares URLs in a stronger normal form; see IL502.) `curator fix`
rewrites the URL.
"""

import re
from urllib.parse import urlsplit, urlunsplit

from curator.findings import Severity
from curator.rules._sources import all_plain
from curator.rules.base import FileFindings, IncidentFile, Rule
from curator.urls import is_plain, url_problem

RULE = Rule(
    code="IL505",
    name="source-url-form",
    severity=Severity.WARNING,
    summary="A source URL has tracking parameters, a default port or other noise.",
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
    if file.incident is None or all_plain(file.incident):
        return  # (`tidy` leaves a plain URL as it is)
    for index, source in enumerate(file.incident.sources):
        tidied = tidy(source.url)
        if tidied != source.url:
            yield RULE.at(
                file.display,
                file.position("sources", index, "url"),
                f"write the source URL as {tidied}",
            )
