"""Source URLs: a problem check and a normal form under which two spellings are one page."""

from __future__ import annotations

import functools
import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

_TRACKING = re.compile(
    r"^(utm_[a-z_]+|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|_hsenc|_hsmi|mkt_tok|"
    r"ref|ref_src|ref_url|source|src|igshid|si|cmpid|trk|spm)$",
    re.IGNORECASE,
)
_ARCHIVE = re.compile(
    r"^https?://(?:web\.)?archive\.org/web/[0-9a-z_*]+/(?P<inner>.+)$", re.IGNORECASE
)
_DEFAULT_PORTS = {"http": 80, "https": 443}
_SPACE = re.compile(r"\s")  # what str.isspace() matches, found in C rather than per character
# The shape nearly every source URL has: https, a lower-case host name, a plain path and
# nothing else. For it the answers below need no URL parsing (several times faster, which
# counts at 100,000 files); anything else takes the general road. tests/test_urls.py
# checks that both roads agree.
_PLAIN = re.compile(r"https://([a-z0-9-]+(?:\.[a-z0-9-]+)+)((?:/[A-Za-z0-9._~!$&'()*+,;=:@%-]*)*)")
_ARCHIVE_HOSTS = frozenset({"archive.org", "web.archive.org"})


def is_plain(url: str) -> bool:
    """`url` has the plain shape above: nothing a normal form or a tidy-up would change
    but a `www.` prefix, repeated or trailing slashes."""
    return _PLAIN.fullmatch(url) is not None


@functools.lru_cache(maxsize=1024)  # several rules ask about the same URLs of a file in turn
def url_problem(url: str) -> str | None:
    """Why `url` is not a usable https source URL, or None."""
    if is_plain(url):
        return None
    if _SPACE.search(url):
        return "contains white space"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError as exc:
        return f"is malformed ({exc})"
    if parts.scheme.lower() != "https":
        scheme = parts.scheme or "no scheme"
        return f"uses {scheme}; sources must be https"
    host = parts.hostname or ""
    if "." not in host or host.startswith(".") or host.endswith("."):
        return f"has no valid host name ({host or 'empty'})"
    return None


def normalize_url(url: str) -> str:
    """One spelling per page: scheme, `www.`, default port, trailing slash, fragment,
    tracking parameters and archive.org wrappers do not make a different page."""
    url = url.strip()
    plain = _PLAIN.fullmatch(url)
    if plain and plain.group(1) not in _ARCHIVE_HOSTS:
        host, path = plain.groups()
        if "//" in path:
            path = re.sub(r"/{2,}", "/", path)
        return f"https://{host.removeprefix('www.')}{path.rstrip('/')}"
    archived = _ARCHIVE.match(url)
    if archived:
        inner = archived.group("inner")
        url = inner if "://" in inner else f"https://{inner}"
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return url
    host = (parts.hostname or "").lower().removeprefix("www.")
    if port and port != _DEFAULT_PORTS.get(parts.scheme.lower()):
        host = f"{host}:{port}"
    path = re.sub(r"/{2,}", "/", parts.path).rstrip("/")
    query = sorted(
        (k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not _TRACKING.match(k)
    )
    return urlunsplit(("https", host, path, urlencode(query), ""))
