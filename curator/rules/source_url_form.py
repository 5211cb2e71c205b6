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
Where the two are the same in every key as `curator fix` leaves them (URLs as tidied here,
text composed, no zero-width character, no white space around a title or a publisher),
fix removes the second, and the finding says so; where they differ (another title or
publisher), only their author can tell which is right, and merges them.
"""

import json
import re
import unicodedata
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from curator.findings import Finding, Severity
from curator.model import Source
from curator.rules._sources import all_plain
from curator.rules._spaces import not_fixable
from curator.rules.base import FileFindings, IncidentFile, Rule
from curator.rules.invisible_characters import less_zero_width, padding
from curator.textnorm import composed
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
    # Full-width letters (ＥＸＡＭＰＬＥ) as the ASCII ones browsers read them as (NFKC).
    hostport = unicodedata.normalize("NFKC", host[-1]).lower().removesuffix(":443")
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
    """What tells two sources apart once `curator fix` has made its other changes, which
    it makes first (a key given empty is not one left out): the values of their keys,
    their text composed (IL605) and without zero-width characters or, for a title or a
    publisher, white space around it (IL606), and the URL as `tidy` leaves it. So fix
    removes what this rule calls a repeat, and only that: two sources told apart by a
    space that fix takes away are one source, said so here, not one left to merge."""
    fixed = {key: _as_fixed(key, value) for key, value in source.items()}
    url = fixed.get("url")
    return {**fixed, "url": tidy(url)} if isinstance(url, str) else fixed


def _as_fixed(key: str, value: Any) -> Any:
    """A source's `value` of `key` as the text fixes and `strip_padding` leave it, told the
    same of it as written and as fix left it (composed after the zero-width characters
    go: fix composes first, and a letter's parts that one stood between meet after)."""
    if not isinstance(value, str):
        return value
    text = composed(less_zero_width(value))
    return text.strip() if key in _ONE_LINE and padding(text) is not None else text


_ONE_LINE = frozenset({"title", "publisher"})  # (`invisible_characters.one_line_values`)


def _repeats(file: IncidentFile, sources: list[Source], normal: list[str]) -> FileFindings:
    first_of: dict[str, int] = {}
    given: list[dict[str, Any]] = []  # worked out at the first repeat, which is rare
    fixed: list[dict[str, Any]] = []
    same_as: list[int | None] = []
    for index, source in enumerate(sources):
        first = first_of.setdefault(normal[index], index)
        if first != index:
            if not given:
                given = [s.model_dump(exclude_unset=True) for s in sources]
                fixed = [same_values(values) for values in given]
                same_as = first_same_above(fixed)
            yield _repeat(file, source.url, index, (given, fixed), first, same_as[index])


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
    values: tuple[list[dict[str, Any]], list[dict[str, Any]]],
    first: int,
    same: int | None,
) -> Finding:
    """The finding at the source `index`, whose `url` is that of the source `first` above
    it: fixable if one above (`same`) is the same in every key, as fix leaves them;
    `values`, each source's as written and as fix leaves them (`same_values`)."""
    given, fixed = values
    position = file.position("sources", index, "url")
    if same is not None:
        line = file.position("sources", same, "url").line
        mended = _differing(given[same], given[index])
        once = f" once `curator fix` has mended the {' and '.join(mended)}" if mended else ""
        message = f"{url} is already a source at line {line}, the same in every key{once}; "
        return RULE.at(file.display, position, message + "remove this one")
    line = file.position("sources", first, "url").line
    keys = _differing(fixed[first], fixed[index])
    differ = "differs" if len(keys) == 1 else "differ"
    source = f"already a source at line {line}"
    if "url" in keys:  # another spelling of one address, or another address of one paper
        source = f"the report of the source at line {line} ({given[first].get('url')})"
    message = f"{url} is {source}, whose {' and '.join(keys)} {differ}; merge the two into one"
    return not_fixable(RULE.at(file.display, position, message))


def _differing(one: dict[str, Any], other: dict[str, Any]) -> list[str]:
    """The keys, in the model's order, whose values differ (a URL only as `tidy` leaves
    it: the rest of this rule's findings say to tidy it)."""
    return [
        key
        for key in Source.model_fields
        if one.get(key) != other.get(key)
        and not (key == "url" and tidy(str(one.get(key))) == tidy(str(other.get(key))))
    ]
