"""Fuzz target: `curator fix` on any bytes changes only what its fixes are for.

`curator.fix.fix_text` is what `curator fix` computes for one file: the fixed bytes and
the changes made, or `Refused` (the file is left as it is). For any bytes it must raise
nothing else, and refuse only in words meant for the author (never "please report").
When it changes nothing, the bytes are the same; when it does, the values read before
and after are the same once both are put through every value fix (`tidied`: zero-width
characters and padding gone, letters in NFC, facet lists sorted without repeats and
deprecated terms replaced, source URLs tidied and repeated sources dropped), so that no
other value changed; the comments are the same (NFC, less zero-width characters); and a
second fix changes nothing.

    python fuzz/fuzz_fix.py CORPUS_DIR [atheris / libFuzzer options]
"""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

import atheris
from keep_going import fuzz

with atheris.instrument_imports():
    from curator.fix import fix_text
    from curator.library import Library
    from curator.load import load_bytes
    from curator.model import DIMENSIONS
    from curator.rules import facet_order, source_url_form
    from curator.rules.invisible_characters import less_zero_width, one_line_values
    from curator.write.canonical import Refused
    from curator.write.comments import comments

REPO = Path(__file__).resolve().parent.parent
TAXONOMY = Library.at(REPO).taxonomy


def _nfc(value: Any) -> Any:
    if isinstance(value, dict):
        return {_nfc(key): _nfc(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_nfc(item) for item in value]
    return unicodedata.normalize("NFC", value) if isinstance(value, str) else value


def _term(dimension: str, term_id: str) -> str:
    term = TAXONOMY.term(dimension, term_id)
    return term.deprecated.replaced_by if term and term.deprecated else term_id


def tidied(data: Any) -> Any:
    """`data` as every value fix would leave it (where it could make them all)."""
    data = _nfc(less_zero_width(data))
    if not isinstance(data, dict):
        return data
    for path, value in one_line_values(data):
        parent = data
        for part in path[:-1]:
            parent = parent[part]
        stripped = value.strip()
        if stripped and "\n" not in stripped:
            parent[path[-1]] = stripped
    facets = data.get("facets")
    facets = facets if isinstance(facets, dict) else {}
    for dimension in DIMENSIONS:
        terms = facets.get(dimension)
        if isinstance(terms, list) and all(isinstance(term, str) for term in terms):
            facets[dimension] = facet_order.tidy([_term(dimension, t) for t in terms])
    sources = data.get("sources")
    if isinstance(sources, list):
        for source in sources:
            if isinstance(source, dict) and isinstance(source.get("url"), str):
                source["url"] = source_url_form.tidy(source["url"])
        values = [
            source_url_form.same_values(s) if isinstance(s, dict) and "url" in s else None
            for s in sources
        ]
        same_as = source_url_form.first_same_above(values)
        data["sources"] = [s for s, same in zip(sources, same_as, strict=True) if same is None]
    return data


def comments_of(raw: bytes) -> list[str]:
    text = raw.decode("utf-8").removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    return sorted(_nfc(less_zero_width(comments(text))))


def check(raw: bytes) -> None:
    try:
        after, changes, _ = fix_text(raw, TAXONOMY)
    except Refused as refused:
        assert "please report" not in refused.message, refused.message
        assert refused.position.line >= 1 and refused.position.column >= 1, refused.position
        return
    if not changes:
        assert after == raw
        return
    before, fixed = load_bytes(raw), load_bytes(after)
    assert fixed.problems == [], fixed.problems
    if before.problems:  # (a tab in the indentation, say, fixed: nothing to compare with)
        return
    assert tidied(fixed.data) == tidied(before.data), (before.data, fixed.data)
    assert comments_of(after) == comments_of(raw)
    again, more, _ = fix_text(after, TAXONOMY)
    assert (again, more) == (after, []), more


if __name__ == "__main__":
    fuzz(check)
