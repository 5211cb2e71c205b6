"""`feed.atom`: the entries of changes.json as an Atom feed (RFC 4287) for feed readers.

Every id and date comes from the commit, never from the clock, so the feed is as
reproducible as the rest of the export.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from curator.export.model import Change, Changes

ATOM = "http://www.w3.org/2005/Atom"
JSON = "application/json"
# The newest entries only: feed readers poll the whole file. changes.json is complete.
FEED_LIMIT = 500
_KIND_KO = {"added": "추가", "modified": "수정", "withdrawn": "철회", "removed": "삭제"}
# What XML 1.0 cannot hold at all, not even as a character reference. Today's model keeps
# it out of text, but a `removed` entry carries the title an earlier release had (one
# released when a rule was looser, docs/export.md), and a version is a tag's name: one such
# character made the whole feed unreadable. Each is shown as U+FFFD instead.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def normalized_base(base_url: str) -> str:
    return base_url if base_url.endswith("/") else base_url + "/"


def _entry_id(base: str, change: Change) -> str:
    """The entry's id: an IRI that names the change, never fetched (RFC 4287). It keeps the
    form the first feeds gave it, an incident page the website never had, as a reader that
    saw an id before takes a new one for a new entry."""
    return f"{base}incidents/{change.id}/#{change.change}-{change.date}"


def _entry_link(base: str, change: Change) -> str:
    """Where a reader follows an entry: the incident's file in the latest published export,
    or for a `removed` incident, which has none, the changes.json that says so. The release
    job publishes the export alone (`latest/`, `vX.Y.Z/`), no page of an incident."""
    if change.change == "removed":
        return f"{base}latest/changes.json"
    return f"{base}latest/incidents/{change.id}.json"


def feed_bytes(changes: Changes, updated: str, base_url: str) -> bytes:
    base = normalized_base(base_url)
    feed = ET.Element("feed", {"xmlns": ATOM})
    _text(feed, "id", f"{base}latest/feed.atom")
    _text(feed, "title", "Incident Library — 변경 사항 (changes)")
    _text(feed, "subtitle", _subtitle(changes))
    _text(feed, "updated", updated)
    ET.SubElement(_text(feed, "author", None), "name").text = "Incident Library"
    ET.SubElement(feed, "link", {"rel": "self", "href": f"{base}latest/feed.atom"})
    # The feed's own data, as JSON: the site has nothing at its root.
    changes_json = f"{base}latest/changes.json"
    ET.SubElement(feed, "link", {"rel": "alternate", "type": JSON, "href": changes_json})
    for change in changes.changes[:FEED_LIMIT]:
        feed.append(_entry(change, base))
    ET.indent(feed)
    body = ET.tostring(feed, encoding="unicode", short_empty_elements=True)
    return ('<?xml version="1.0" encoding="utf-8"?>\n' + body + "\n").encode("utf-8")


def _subtitle(changes: Changes) -> str:
    since = changes.since.version if changes.since else "the first release"
    return f"{changes.until.version} since {since}: {len(changes.changes)} change(s)"


def _entry(change: Change, base: str) -> ET.Element:
    entry = ET.Element("entry")
    _text(entry, "id", _entry_id(base, change))
    _text(entry, "title", f"[{_KIND_KO[change.change]}] {change.id}: {change.title}")
    _text(entry, "updated", change.date)
    link = {"rel": "alternate", "type": JSON, "href": _entry_link(base, change)}
    ET.SubElement(entry, "link", link)
    ET.SubElement(entry, "category", {"term": change.change})
    summary = f"{change.id} {change.change}"
    if change.fields:
        summary += f" ({', '.join(change.fields)})"
    _text(entry, "summary", summary)
    return entry


def _text(parent: ET.Element, tag: str, text: str | None) -> ET.Element:
    element = ET.SubElement(parent, tag)
    element.text = None if text is None else _NOT_XML.sub("\ufffd", text)
    return element
