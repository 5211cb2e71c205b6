"""`feed.atom`: the entries of changes.json as an Atom feed (RFC 4287) for feed readers.

Every id and date comes from the commit, never from the clock, so the feed is as
reproducible as the rest of the export.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from curator.export.model import Change, Changes

ATOM = "http://www.w3.org/2005/Atom"
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


def page_url(base_url: str, incident_id: str) -> str:
    """The incident's page on the library's website."""
    return f"{normalized_base(base_url)}incidents/{incident_id}/"


def json_url(base_url: str, incident_id: str) -> str:
    """The incident's file in the latest published export."""
    return f"{normalized_base(base_url)}latest/incidents/{incident_id}.json"


def feed_bytes(changes: Changes, updated: str, base_url: str) -> bytes:
    base = normalized_base(base_url)
    feed = ET.Element("feed", {"xmlns": ATOM})
    _text(feed, "id", f"{base}latest/feed.atom")
    _text(feed, "title", "Incident Library — 변경 사항 (changes)")
    _text(feed, "subtitle", _subtitle(changes))
    _text(feed, "updated", updated)
    ET.SubElement(_text(feed, "author", None), "name").text = "Incident Library"
    ET.SubElement(feed, "link", {"rel": "self", "href": f"{base}latest/feed.atom"})
    ET.SubElement(feed, "link", {"rel": "alternate", "href": base})
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
    page = page_url(base, change.id)
    _text(entry, "id", f"{page}#{change.change}-{change.date}")
    _text(entry, "title", f"[{_KIND_KO[change.change]}] {change.id}: {change.title}")
    _text(entry, "updated", change.date)
    ET.SubElement(entry, "link", {"rel": "alternate", "type": "text/html", "href": page})
    if change.change != "removed":  # a removed incident has no file in the export
        data = json_url(base, change.id)
        ET.SubElement(entry, "link", {"rel": "alternate", "type": "application/json", "href": data})
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
