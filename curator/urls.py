"""Source URLs: a problem check and a normal form under which two spellings are one page."""

from __future__ import annotations

import functools
import ipaddress
import re
import unicodedata
from dataclasses import dataclass
from typing import Literal
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
# What an address pasted with its surroundings starts with: quotes (a word processor's too),
# Markdown's and e-mail's brackets, Korean and Japanese corner brackets.
_WRAPPING = frozenset("\"'“‘«<([「『")
_SPACE = re.compile(r"\s")  # what str.isspace() matches, found in C rather than per character
# The shape nearly every source URL has: https, a lower-case host name, a plain path and
# nothing else. For it the answers below need no URL parsing (several times faster, which
# counts at 100,000 files); anything else takes the general road. tests/test_urls.py
# checks that both roads agree.
# (No %XX in the path: each has its spelling to settle, `_path_spelled_once`.)
# (Not one ending in `)`: that may be a bracket pasted with the address, see `url_problem`.)
# (Labels of at most 63 characters, the last with a letter: see `_host_problem`.)
_PLAIN = re.compile(
    r"https://([a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})*\.(?=[0-9-]*[a-z])[a-z0-9-]{1,63})"
    r"((?:/[A-Za-z0-9._~!$&'()*+,;=:@-]*)*)(?<!\))"
)
_ARCHIVE_HOSTS = frozenset({"archive.org", "web.archive.org"})
# A paper has many addresses: its arXiv abstract, its PDF, each version, its HTML
# rendering, mirrors that show it by its arXiv id, its DOI, its publisher's pages named by
# the DOI. One report, one normal form: `https://arxiv.org/abs/<id>` without a version,
# `https://doi.org/<doi in lower case>`.
_ARXIV_ID = r"(?P<id>[0-9]{4}\.[0-9]{4,5}|[a-z-]+(?:\.[A-Za-z]{2})?/[0-9]{7})(?:v[0-9]+)?"
_PAPER_PAGES = {
    "arxiv.org": re.compile(f"/(?:abs|pdf|html)/{_ARXIV_ID}(?:\\.pdf)?", re.IGNORECASE),
    "export.arxiv.org": re.compile(f"/(?:abs|pdf)/{_ARXIV_ID}(?:\\.pdf)?", re.IGNORECASE),
    "huggingface.co": re.compile(f"/papers/{_ARXIV_ID}"),
    "alphaxiv.org": re.compile(f"/(?:abs|overview)/{_ARXIV_ID}"),
    "doi.org": re.compile(f"/10\\.48550/arxiv\\.{_ARXIV_ID}", re.IGNORECASE),
}
_DOI = r"(?P<doi>10\.[0-9]{4,9}/.+)"
_DOI_PAGES = {
    "doi.org": re.compile(f"/{_DOI}"),
    "dx.doi.org": re.compile(f"/{_DOI}"),
    "dl.acm.org": re.compile(f"/doi/(?:(?:abs|pdf|full|fullHtml|epdf)/)?{_DOI}"),
}
_PAPER_HOSTS = frozenset(_PAPER_PAGES) | frozenset(_DOI_PAGES)


def is_plain(url: str) -> bool:
    """`url` has the plain shape above: nothing a normal form or a tidy-up would change
    but a `www.` prefix, repeated or trailing slashes and dot segments."""
    return _PLAIN.fullmatch(url) is not None


@dataclass(frozen=True)
class UrlFault:
    """Why a URL is no usable https source URL, in parts, for a command that says it in
    another language too (`curator new`): its `kind`, and the character, scheme, host or
    parser's reason it names (`detail`)."""

    kind: Literal[
        "space",
        "wrapped",
        "backslash",
        "bracket",
        "malformed",
        "scheme",
        "host",
        "ipv6",
        "empty-label",
        "long-label",
        "ipv4",
    ]
    detail: str = ""

    def __str__(self) -> str:
        detail = self.detail
        return {
            "space": "contains white space",
            "wrapped": f"starts with {detail!r}: write the address alone, without quotes or "
            "brackets",
            "backslash": "holds a backslash, which no URL may hold (RFC 3986) and readers take "
            "apart: browsers read it as '/' (https://a.com\\@b.com/ goes to a.com), others as "
            "part of the host or path; write '/' or '%5C'",
            "bracket": "ends with a ')' that no '(' in it opens, as pasted from a sentence in "
            "brackets or Markdown's [title](url): write the address alone",
            "malformed": f"is malformed ({detail})",
            "scheme": f"uses {detail or 'no scheme'}; sources must be https",
            "host": f"has no valid host name ({detail or 'empty'})",
            "ipv6": f"has no valid host name ([{detail}] is no IPv6 address)",
            "empty-label": f"has no valid host name ({detail}: an empty label between two dots)",
            "long-label": f"has no valid host name ({detail}: a label longer than 63 characters)",
            "ipv4": f"has no valid host name ({detail} is no IPv4 address)",
        }[self.kind]


@functools.lru_cache(maxsize=1024)  # several rules ask about the same URLs of a file in turn
def url_problem(url: str) -> str | None:
    """Why `url` is not a usable https source URL, in words, or None."""
    if is_plain(url):
        return None
    fault = url_fault(url)
    return None if fault is None else str(fault)


def url_fault(url: str) -> UrlFault | None:
    """Why `url` is not a usable https source URL, in parts, or None."""
    if is_plain(url):
        return None
    if _SPACE.search(url):
        return UrlFault("space")
    if url[:1] in _WRAPPING:
        return UrlFault("wrapped", url[0])
    if "\\" in url:
        return UrlFault("backslash")
    if url.endswith(")") and url.count(")") > url.count("("):
        return UrlFault("bracket")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError as exc:
        return UrlFault("malformed", str(exc))
    if parts.scheme.lower() != "https":
        return UrlFault("scheme", parts.scheme)
    host = parts.hostname or ""
    if "." not in host or host.startswith(".") or host.endswith("."):
        return UrlFault("host", host)
    return _host_fault(host, bracketed="[" in parts.netloc)


def _host_fault(host: str, bracketed: bool) -> UrlFault | None:
    """Why `host` (with dots, none at either end) names no host a browser would go to."""
    if bracketed:  # (an IPv6 address; Python also takes `[v1.x]`, which no browser does)
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return UrlFault("ipv6", host)
        return None
    labels = host.split(".")
    if "" in labels:
        return UrlFault("empty-label", host)
    if any(len(label) > 63 for label in labels):
        return UrlFault("long-label", host)
    # A host ending in a number is an IPv4 address to a browser, or nothing.
    if labels[-1].isascii() and labels[-1].isdigit():
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            return UrlFault("ipv4", host)
    return None


def normalize_url(url: str) -> str:
    """One spelling per page: scheme, `www.`, default port, trailing slash, fragment,
    tracking parameters and archive.org wrappers do not make a different page; nor do a
    host's internationalised spellings (`_host_spelled_once`), a path's dot segments and
    the spellings of its percent-encoding (`_path_spelled_once`), nor a paper's versions,
    formats, mirrors and DOI (`_PAPER_PAGES`)."""
    url = url.strip()
    plain = _PLAIN.fullmatch(url)
    host, path = plain.groups() if plain else ("", "")
    if plain and host not in _ARCHIVE_HOSTS:
        if "//" in path:
            path = re.sub(r"/{2,}", "/", path)
        if "/." in path:
            path = _path_spelled_once(path)
        host, path = _host_spelled_once(host).removeprefix("www."), path.rstrip("/")
        if host in _PAPER_HOSTS:
            return _paper(host, path) or f"https://{host}{path}"
        return f"https://{host}{path}"
    archived = _ARCHIVE.match(url)
    if archived:
        inner = archived.group("inner")
        url = inner if "://" in inner else f"https://{inner}"
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return url
    host = _host_spelled_once(parts.hostname or "").removeprefix("www.")
    if port and port != _DEFAULT_PORTS.get(parts.scheme.lower()):
        host = f"{host}:{port}"
    path = _path_spelled_once(re.sub(r"/{2,}", "/", parts.path)).rstrip("/")
    paper = _paper(host, path)
    if paper:
        return paper  # (a query on a paper's page chooses no other paper)
    query = sorted(
        (k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not _TRACKING.match(k)
    )
    return urlunsplit(("https", host, path, urlencode(query), ""))


def _host_spelled_once(host: str) -> str:
    """`host` spelt one way: an internationalised name is one host whether written in its
    own letters (`한국.kr`, in any case or width) or in the ASCII form DNS carries
    (`xn--3e0b707e.kr`). The normal form has the letters, as a browser's address bar shows
    them and as the path's %XX are decoded (`_path_spelled_once`)."""
    if host.isascii() and "xn--" not in host:
        return host.lower()
    return ".".join(_label_spelled_once(label) for label in host.split("."))


def _label_spelled_once(label: str) -> str:
    if label.lower().startswith("xn--"):
        try:
            label = label[4:].encode("ascii").decode("punycode")
        except UnicodeError:  # (no valid ASCII form: it stays as written)
            return label.lower()
    return unicodedata.normalize("NFKC", label).lower()


def _path_spelled_once(path: str) -> str:
    """`path` with what RFC 3986 §6.2.2 says does not change the page spelt one way: a %XX
    of a letter, digit, `-`, `.`, `_` or `~` decoded, other %XX in upper case, and `.` and
    `..` segments resolved (after the decoding, as `%2E` is a dot). Reserved characters
    stay encoded (`%2F` is no `/`). A %-encoded character beyond ASCII is decoded too, as
    a browser shows it and as a Korean address pasted from its address bar is written, so
    that the evidence quoting a normal form reads as text."""
    path = _PERCENT.sub(_percent_once, path)
    if "/." not in path or not path.startswith("/"):  # (no host, no page: left as it is)
        return path
    kept: list[str] = []
    for segment in path.split("/")[1:]:
        if segment == "..":
            if kept:
                kept.pop()
        elif segment != ".":
            kept.append(segment)
    return "/" + "/".join(kept)


# A run of %XX bytes beyond ASCII (one character's UTF-8 takes several), or one ASCII byte.
_PERCENT = re.compile(r"(?:%[89A-Fa-f][0-9A-Fa-f])+|%[0-7][0-9A-Fa-f]")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def _percent_once(encoded: re.Match[str]) -> str:
    """The one spelling of a %XX run: each character it encodes whole, where that is
    unreserved ASCII or printable beyond ASCII (no space or invisible character, which an
    address never holds raw), else its bytes with their hex digits in upper case. The bytes
    of a character cut short (`%ED%95`, the start of 한) or not UTF-8 stay encoded, and only
    they: a whole character before them is decoded as it is when written alone, so that
    `%C3%A9%ED%95` and `é%ED%95` are one spelling, where the first stayed encoded whole."""
    raw = bytes.fromhex(encoded[0].replace("%", ""))
    return "".join(map(_character_once, raw.decode("utf-8", "surrogateescape")))


def _character_once(char: str) -> str:
    # (An undecodable byte comes as a lone surrogate, which is not printable.)
    if char in _UNRESERVED or (not char.isascii() and char.isprintable()):
        return char
    return "".join(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogateescape"))


def is_paper(normal: str) -> bool:
    """`normal` (a `normalize_url`) is the one address of a paper, which its citers may
    have written otherwise."""
    return normal.startswith(_PAPER_FORMS)


_PAPER_FORMS = ("https://arxiv.org/abs/", "https://doi.org/10.")


def _paper(host: str, path: str) -> str | None:
    """The one address of the paper at `host` and `path` (host without `www.`, path
    without its trailing slash), or None when that is no paper's page."""
    if host in _DOI_PAGES:
        # A DOI is a name, not a path: its slash written `%2F` (`10.1000%2F182`, as some
        # tools encode the DOI whole) is its slash, which doi.org reads it as.
        path = path.replace("%2F", "/")
    arxiv = _PAPER_PAGES.get("doi.org" if host == "dx.doi.org" else host)
    found = arxiv.fullmatch(path) if arxiv else None
    if found:
        return f"https://arxiv.org/abs/{found.group('id')}"
    doi = _DOI_PAGES.get(host)
    found = doi.fullmatch(path) if doi else None
    if found:
        return f"https://doi.org/{found.group('doi').lower()}"  # DOIs are case-insensitive
    return None
