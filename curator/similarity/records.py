"""Incident file → `Record`: the few values judgement needs, read leniently.

A file with a lint error (a missing field, a wrong type somewhere) still has a title and a
narrative worth comparing — a new incident in a pull request is exactly such a file — so
values of the wrong type are dropped one by one instead of rejecting the file. Only a file
that lint cannot read as a YAML mapping yields no record (read by lint's own loader: what
lint refuses whole, judgement never reads either); `curator lint` says why.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from curator.load import load_bytes
from curator.model import DIMENSIONS
from curator.regular import read_regular
from curator.taxonomy import fold
from curator.urls import normalize_url

NARRATIVE = ("symptom", "trigger", "detection", "lessons")
NARRATIVE_LISTS = ("actions", "follow_ups")
# Where phrase evidence was found, in the order a reviewer reads an incident.
TEXT_FIELDS = ("title", *NARRATIVE[:3], "actions", "follow_ups", "lessons", "sources")


@dataclass(frozen=True)
class Record:
    id: str
    path: str
    title: str
    status: str
    occurred: str | None
    organizations: tuple[str, ...]
    urls: tuple[str, ...]
    facets: dict[str, tuple[str, ...]]
    settled: frozenset[str]
    duplicate_of: str | None
    fields: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    @property
    def text(self) -> str:
        """Title and narrative (and source titles): what text similarity compares."""
        return "\n".join(self.fields.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "path": self.path,
            "title": self.title,
            "status": self.status,
            "occurred": self.occurred,
            "organizations": list(self.organizations),
            "urls": list(self.urls),
            "facets": {d: list(t) for d, t in self.facets.items()},
            "settled": sorted(self.settled),
            "duplicate_of": self.duplicate_of,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Record:
        """The record `to_json` gave; a TypeError or KeyError for anything else (a cache
        file of another shape, see store.py). Checked at C speed where it can be: a
        cached index holds 100,000 records."""
        text = data["id"], data["path"], data["title"], data["status"]
        "".join(text)  # a TypeError unless all are text
        occurred, duplicate_of, facets = data["occurred"], data["duplicate_of"], data["facets"]
        if not (_optional_text(occurred) and _optional_text(duplicate_of)):
            raise TypeError("not a record")
        if type(facets) is not dict:
            raise TypeError("not a record")
        return cls(
            *text,
            occurred=occurred,
            organizations=only_texts(data["organizations"]),
            urls=only_texts(data["urls"]),
            facets={dimension: only_texts(terms) for dimension, terms in facets.items()},
            settled=frozenset(only_texts(data["settled"])),
            duplicate_of=duplicate_of,
        )

    def organisation_keys(self) -> set[str]:
        return {key for name in self.organizations if (key := organisation_key(name))}


def _optional_text(value: Any) -> bool:
    return value is None or type(value) is str


def only_texts(value: Any) -> tuple[str, ...]:
    """A JSON list of text as a tuple; a TypeError for anything else."""
    if type(value) is not list:
        raise TypeError("not a list")
    "".join(value)  # a TypeError unless every item is text
    return tuple(value)


@lru_cache(maxsize=65536)
def organisation_key(name: str) -> str:
    """How organisation names are compared ("Hugging Face" = "HuggingFace"); memoised, as a
    large library repeats a few thousand names."""
    return fold(name)


def parse_mapping(raw: bytes) -> dict[str, Any] | None:
    """The YAML mapping in `raw` as lint reads it (`curator.load`: text, lists, mappings
    and nulls are all it builds), or None: None too for what lint refuses whole (too
    large, not UTF-8, a syntax error, a tag, an alias, nesting too deep). The layout
    `curator fmt` writes is read without libyaml (`curator.load_canonical`), about four
    times sooner than by libyaml's `BaseLoader`, which read every file here before."""
    data = load_bytes(raw).data
    return data if isinstance(data, dict) else None


def read_record(path: Path, display: str | None = None) -> Record | None:
    try:
        raw = read_regular(path)
    except OSError:
        return None
    data = parse_mapping(raw)
    return None if data is None else record_of(data, display or str(path), path.stem)


def record_of(data: dict[str, Any], display: str, stem: str) -> Record:
    incident_id = _text(data.get("id")) or stem
    given = data.get("facets")
    facets: dict[str, Any] = given if isinstance(given, dict) else {}
    sources = [s for s in _list(data.get("sources")) if isinstance(s, dict)]
    settled = {*_texts(data.get("related")), *_texts(data.get("not_duplicate_of"))}
    duplicate_of = _text(data.get("duplicate_of"))
    if duplicate_of:
        settled.add(duplicate_of)
    fields = {"title": _text(data.get("title")) or ""}
    for name in TEXT_FIELDS[1:]:
        if name == "sources":
            value = "\n".join(t for s in sources if (t := _text(s.get("title"))))
        elif name in NARRATIVE_LISTS:
            value = "\n".join(_texts(data.get(name)))
        else:
            value = _text(data.get(name)) or ""
        if value:
            fields[name] = value
    return Record(
        id=incident_id,
        path=display,
        title=fields["title"],
        status=sys.intern(_text(data.get("status")) or "published"),
        occurred=_text(data.get("occurred")),
        organizations=tuple(map(sys.intern, _texts(data.get("organizations")))),
        urls=tuple(dict.fromkeys(normalize_url(u) for s in sources if (u := _text(s.get("url"))))),
        # Interned: 100k records repeat the same few hundred term ids and statuses.
        facets={d: tuple(map(sys.intern, _texts(facets.get(d)))) for d in DIMENSIONS},
        settled=frozenset(settled - {incident_id}),
        duplicate_of=duplicate_of,
        fields=fields,
    )


def _text(value: Any) -> str | None:
    return (value.strip() or None) if isinstance(value, str) else None


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _texts(value: Any) -> list[str]:
    return [t for item in _list(value) if (t := _text(item))]
