"""Incident file → `Record`: the few values judgement needs, read leniently.

A file with a lint error (a missing field, a wrong type somewhere) still has a title and a
narrative worth comparing — a new incident in a pull request is exactly such a file — so
values of the wrong type are dropped one by one instead of rejecting the file. Only a file
that lint cannot read as a YAML mapping yields no record (read by lint's own loader: what
lint refuses whole, judgement never reads either); `curator lint` says why, and the commands
that judge without it name it as lint does (`commands.unread`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from itertools import chain
from pathlib import Path
from types import NoneType
from typing import Any

from curator.load import MAX_BYTES, load_bytes
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
    # Each of `urls` as the file first writes it, for evidence to quote (a record read
    # back from a cached index has none: only the incident judged, read afresh, is quoted).
    spelt: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    @property
    def text(self) -> str:
        """Title and narrative (and source titles): what text similarity compares."""
        return "\n".join(self.fields.values())

    def organisation_keys(self) -> set[str]:
        return {key for name in self.organizations if (key := organisation_key(name))}


# How a cached index keeps its records (store.py): as columns, one JSON list per field.
# As a list of 100,000 objects, every key was written 100,000 times, and reading them back
# took twice as long (3.5 s against 1.6 s, of a `curator similar` of 10 s at 100,000).
_TEXT = ("id", "path", "title", "status")
_OPTIONAL_TEXT = ("occurred", "duplicate_of")
_TEXT_LISTS = ("organizations", "urls", "settled")


def records_to_json(records: list[Record]) -> dict[str, Any]:
    """The records as a JSON object of columns (`records_from_json` reads it back)."""
    return {
        **{name: [getattr(r, name) for r in records] for name in (*_TEXT, *_OPTIONAL_TEXT)},
        "organizations": [r.organizations for r in records],
        "urls": [r.urls for r in records],
        "settled": [sorted(r.settled) for r in records],
        "facets": {d: [r.facets.get(d, ()) for r in records] for d in DIMENSIONS},
    }


def records_from_json(data: Any) -> list[Record]:
    """The records `records_to_json` gave (their text fields left empty); a TypeError or
    KeyError for anything else (a cache file of another shape, see store.py). Each column
    is checked at once, at C speed: a cached index holds 100,000 records."""
    if type(data) is not dict:
        raise TypeError("not the records' columns")
    column = partial(_column, data, _length(data["id"]))
    ids, paths, titles, statuses = map(column, _TEXT)
    "".join(chain(ids, paths, titles, statuses))  # a TypeError unless all are text
    occurred, duplicate_of = map(column, _OPTIONAL_TEXT)
    if not (_all_of(occurred, str, NoneType) and _all_of(duplicate_of, str, NoneType)):
        raise TypeError("not a date or an id")
    organizations, urls, settled = (_text_lists(column(name)) for name in _TEXT_LISTS)
    facets = _facets(data["facets"], len(ids))
    values = (ids, paths, titles, statuses, occurred, organizations, urls, facets)
    return list(map(Record, *values, map(frozenset, settled), duplicate_of))


# How the shares of files kept between builds hold a record (`curator.similarity.shares`):
# as one JSON list of its values, in this order, the facets a list of four term lists.
_ROW = (*_TEXT, *_OPTIONAL_TEXT, *_TEXT_LISTS, "facets")


def record_row(record: Record) -> list[Any]:
    """One record as a JSON list (`records_from_rows` reads such lists back)."""
    return [
        *(getattr(record, name) for name in (*_TEXT, *_OPTIONAL_TEXT)),
        record.organizations,
        record.urls,
        sorted(record.settled),
        [record.facets.get(d, ()) for d in DIMENSIONS],
    ]


def records_from_rows(rows: list[Any]) -> list[Record]:
    """The records of `record_row`s, checked as `records_from_json` checks its columns; a
    TypeError or KeyError for anything else."""
    if not rows:
        return []
    if not _all_of(rows, list) or {len(row) for row in rows} != {len(_ROW)}:
        raise TypeError("not records' rows")
    columns: dict[str, Any] = dict(zip(_ROW, map(list, zip(*rows, strict=True)), strict=True))
    facets = columns["facets"]
    if not _all_of(facets, list) or {len(terms) for terms in facets} != {len(DIMENSIONS)}:
        raise TypeError("not the facets of records")
    columns["facets"] = dict(zip(DIMENSIONS, map(list, zip(*facets, strict=True)), strict=True))
    return records_from_json(columns)


def _facets(columns: Any, n: int) -> list[dict[str, tuple[str, ...]]]:
    """Each record's facets, from a column of term lists per dimension (all four)."""
    if type(columns) is not dict:
        raise TypeError("not the facets' columns")
    terms = [_text_lists(_column(columns, n, d)) for d in DIMENSIONS]
    return [dict(zip(DIMENSIONS, row, strict=True)) for row in zip(*terms, strict=True)]


def _length(values: Any) -> int:
    if type(values) is not list:
        raise TypeError("not a column")
    return len(values)


def _column(columns: dict[str, Any], n: int, name: str) -> list[Any]:
    """The column `name`, if it is a list of `n` values; else a TypeError (or KeyError)."""
    values: list[Any] = columns[name]
    if _length(values) != n:
        raise TypeError(f"{name}: a column of another length")
    return values


def _all_of(values: list[Any], *types: type) -> bool:
    return set(map(type, values)) <= set(types)


def _text_lists(values: list[Any]) -> list[tuple[str, ...]]:
    """JSON lists of text as tuples; a TypeError for anything else."""
    if not _all_of(values, list):
        raise TypeError("not a list")
    "".join(chain.from_iterable(values))  # a TypeError unless every item is text
    return list(map(tuple, values))


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
        raw = read_regular(path, MAX_BYTES)
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
    spelt: dict[str, str] = {}
    for url in (u for s in sources if (u := _text(s.get("url")))):
        spelt.setdefault(normalize_url(url), url)
    fields = {"title": _text(data.get("title")) or ""}
    for name in TEXT_FIELDS[1:]:
        if name == "sources":
            value = "\n".join(t for s in sources if (t := _source_title(s)))
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
        urls=tuple(spelt),
        # Interned: 100k records repeat the same few hundred term ids and statuses.
        facets={d: tuple(map(sys.intern, _texts(facets.get(d)))) for d in DIMENSIONS},
        settled=frozenset(settled - {incident_id}),
        duplicate_of=duplicate_of,
        fields=fields,
        spelt=spelt,
    )


def read_alike(one: dict[str, Any], other: dict[str, Any], stem: str) -> bool:
    """Whether `similar` reads two versions of an incident file (its data, `stem` its name
    without `.yaml`) as one: the same values but for the facets, which it never reads,
    and for how each URL is spelt, which only its evidence quotes. So an edit to what it
    does not read (the facets, a source's publisher, a comment, the layout) neither makes
    nor settles a possible duplicate."""
    first, second = record_of(one, "", stem), record_of(other, "", stem)
    return replace(first, facets={}) == replace(second, facets={}) and first.fields == second.fields


def _text(value: Any) -> str | None:
    return (value.strip() or None) if isinstance(value, str) else None


def _source_title(source: dict[str, Any]) -> str | None:
    """A source's title, but for one that is its URL, as `curator new` writes it till the
    report's title is known: no word of the report, and its host an entity that every draft
    citing that site shared (a false sign of the same event; the URLs are compared as such)."""
    title = _text(source.get("title"))
    return None if title == _text(source.get("url")) else title


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _texts(value: Any) -> list[str]:
    return [t for item in _list(value) if (t := _text(item))]
