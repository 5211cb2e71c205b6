"""The shortcuts the file rules take for speed give exactly the findings of the long way.

Each rule first asks a cheap question whose answer, for nearly every file, is "nothing to
report", and only then does the per-value work. Each test here holds one such question to
the long way, or holds the model to what a shortcut takes it to guarantee."""

from __future__ import annotations

import datetime as dt
import itertools
import re
import sys
from pathlib import Path

import pytest
from conftest import BROKEN, REPO
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from curator import unseen
from curator.lint import parse_incident
from curator.model import INCIDENT_ID, Incident, IncidentId, PartialDate, Text, parse_partial_date
from curator.rules import (
    deprecated_term,
    facet_order,
    narrative_missing,
    placeholder_id,
    source_url,
    source_url_form,
    unknown_term,
)
from curator.rules._sources import all_plain
from curator.rules._terms import term_ids
from curator.taxonomy import load_taxonomy
from curator.urls import is_plain, url_problem
from incidents import incident

TODAY = dt.date(2026, 1, 15)


def test_text_is_never_only_white_space():
    # narrative-missing tests a value with its pattern alone: `is_placeholder`'s other
    # tests (not a string; empty once stripped) cannot hold for `Text`.
    adapter = TypeAdapter(Text)
    spaces = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
    assert "\u3000" in spaces and "\x85" in spaces
    for space in spaces:
        for value in (space, space * 3, f"{space}\n"):
            with pytest.raises(ValidationError):
                adapter.validate_python(value)
    assert adapter.validate_python(" x\n") == " x\n"


def test_every_placeholder_word_starts_with_a_character_looked_for_first():
    words = narrative_missing._WORDS.split("|")
    assert len(words) == 13
    first = re.compile(narrative_missing._FIRST, re.IGNORECASE)
    for word in words:
        start = word[1] if word.startswith("\\") else word[0]
        assert first.fullmatch(start), word
        assert first.fullmatch(start.upper()), word


def test_the_placeholder_pattern_says_what_it_said_without_its_first_look():
    without = re.compile(
        r"^\s*(?:todo|tbd|tba|fixme|xxx|n/?a|-+|\.{2,}|…|\?+|미정|작성\s*예정|추후\s*작성)(?:\s*[.:])?\s*$",
        re.IGNORECASE,
    )
    words = ["todo", "TBD", "Tba", "fixMe", "XXX", "n/a", "NA", "-", "---", "..", "…", "?", "??"]
    words += [
        "미정",
        "작성 예정",
        "작성예정",
        "추후  작성",
        "ToDo",
        "x",
        "t",
        "",
        "-.",
        "tod",
        "ıd",
    ]
    cases = [
        f"{before}{word}{after}"
        for word in words
        for before in ("", " ", "\n ", "\u3000", "a", "-")
        for after in ("", ".", " :", "\n", " \n", "a", "...")
    ]
    cases += [chr(c) + tail for c in range(0x3400) for tail in ("", "odo", "bd", "xx", "/a")]
    for case in cases:
        assert bool(narrative_missing._PLACEHOLDER.match(case)) is bool(without.match(case)), case


@pytest.mark.parametrize(
    "value",
    [
        "IL-0001",
        "IL-0001\n",
        " IL-0001",
        "IL-0001 ",
        "IL-001",
        "IL-١٢٣٤",
        "IL-０００１",
        "IL-NEW-gpu",
        "IL-NEW-gpu\n",
        "IL-NEW-gpu-",
        "IL-NEW-GPU",
        "il-0001",
    ],
)
def test_the_model_takes_an_id_exactly_when_id_format_does(value):
    # id-format has nothing to say about an incident the model took.
    try:
        TypeAdapter(IncidentId).validate_python(value)
        taken = True
    except ValidationError:
        taken = False
    assert taken is bool(INCIDENT_ID.fullmatch(value))  # as id_format matches it
    # placeholder-id looks only at ids starting so.
    if placeholder_id.is_placeholder(value):
        assert value.startswith("IL-NEW-")


def test_occurred_compares_as_text_as_its_first_day_does_as_a_date():
    # occurred-in-future compares `occurred` with as much of today's ISO date.
    todays = [dt.date(1, 1, 1), dt.date(999, 12, 31), dt.date(2024, 2, 29), dt.date(9999, 12, 31)]
    todays += [dt.date(2025, month, day) for month in (1, 6, 12) for day in (1, 15, 30)]
    adapter = TypeAdapter(PartialDate)
    for year in (1, 999, 1000, 2024, 2025, 2026, 9999):
        for occurred in _partial_dates(year):
            assert adapter.validate_python(occurred) == occurred
            y, m, d = parse_partial_date(occurred)
            first = dt.date(y, m or 1, d or 1)
            for today in todays:
                as_text = occurred > today.isoformat()[: len(occurred)]
                assert as_text is (first > today), (occurred, today)


def _partial_dates(year: int) -> list[str]:
    dates = [f"{year:04d}"]
    for month in (1, 2, 6, 12):
        dates.append(f"{year:04d}-{month:02d}")
        for day in (1, 14, 15, 16, 28):
            dates.append(f"{year:04d}-{month:02d}-{day:02d}")
    return dates


def test_in_order_is_being_as_tidy_would_have_it():
    for size in range(6):
        for terms in itertools.product(["a", "b", "c", "cc"], repeat=size):
            listed = list(terms)
            assert facet_order.in_order(listed) is (listed == facet_order.tidy(listed)), listed


def test_no_line_ends_in_white_space_where_the_quick_test_says_so():
    alphabet = ["a", " ", "\t", "\u3000", "\u00a0", "\r", "\n"]
    assert set(unseen.WHITE_SPACE) <= set(alphabet)
    for size in range(7):
        for chars in itertools.product(alphabet, repeat=size):
            text = "".join(chars)
            lines = (line.removesuffix("\r") for line in text.split("\n"))
            trailing = any(line != line.rstrip(unseen.WHITE_SPACE) for line in lines)
            if trailing:
                assert unseen.may_end_a_line_in_white_space(text), repr(text)


# The zero-width characters, characters whose UTF-8 starts with the same byte as one of them
# (… and ’ as U+200B; ᄀ as U+180E; ؛ as U+061C; ＡＢ and U+FEFF's neighbours as U+FEFF),
# and the ASCII characters the text's own search stops at (f, g, h, i, -, . and ,).
NEAR_ZERO_WIDTH = st.sampled_from(
    [*unseen.ZERO_WIDTH, "\u2026", "\u2019", "\u1100", "\u061b", "\uff21", "\ufefe",
     "\ufe0f", "f", "i", "-", ".", ",", "가", "a", "\n", "😀"]
)  # fmt: skip


@given(
    st.one_of(st.text(), st.lists(NEAR_ZERO_WIDTH, max_size=40).map("".join)),
    st.booleans(),
    st.integers(min_value=0, max_value=5),
)
def test_zero_width_told_from_the_bytes_is_zero_width_told_from_the_text(text, bom, start):
    encoded = ("\ufeff" if bom else "").encode("utf-8") + text.encode("utf-8")
    assert unseen.zero_width(text, start, encoded) == unseen.zero_width(text, start)


def test_zero_width_told_from_the_bytes_finds_each_one():
    for char in unseen.ZERO_WIDTH:
        text = f"가 {char}나"
        found = unseen.zero_width(text, encoded=text.encode("utf-8"))
        assert found is not None and found.char == char and found.total == 1
    near = "가나 … ’ ﻾ ᄀ ؛"  # (their first bytes are theirs)
    assert unseen.zero_width(near, encoded=near.encode()) is None


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/postmortem",
        "https://example.com",
        "https://www.example.com/a//b/",
        "https://Example.com/",
        "https://example.com:443/",
        "https://example.com/?utm_source=x",
        "http://example.com/",
        "https://example",
    ],
)
def test_a_plain_url_is_one_both_source_rules_pass(url):
    if is_plain(url):
        assert url_problem(url) is None
        assert source_url_form.tidy(url) == url


def read(text: str, taxonomy_dir: Path = REPO / "schema" / "taxonomy"):
    path = Path("IL-0001.yaml")
    return parse_incident(path, path.name, text.encode(), load_taxonomy(taxonomy_dir), TODAY)


def test_the_sources_answer_belongs_to_its_incident():
    # Kept for the incident last asked about: another incident gets its own answer.
    plain = read(incident("IL-0001"))
    http = read(incident("IL-0001", ("https://example.com", "http://example.com")))
    assert isinstance(plain.incident, Incident) and isinstance(http.incident, Incident)
    for _ in range(2):
        assert all_plain(plain.incident) and not all_plain(http.incident)
        assert list(source_url.check(plain)) == []
        assert [f.code for f in source_url.check(http)] == ["IL501"]
        assert list(source_url_form.check(plain)) == []


def test_the_term_sets_belong_to_their_taxonomy():
    # Kept for the taxonomy last asked about: another taxonomy gets its own sets.
    text = incident("IL-0001", ("    - nccl\n", "    - nccl\n    - network-storage\n"))
    bundled, broken = read(text), read(text, BROKEN / "schema" / "taxonomy")
    for _ in range(2):
        assert term_ids(bundled.taxonomy).deprecated == ()
        assert [f.code for f in deprecated_term.check(broken)] == ["IL302"]
        assert list(deprecated_term.check(bundled)) == []
        assert [f.code for f in unknown_term.check(bundled)] == ["IL301"]
        assert list(unknown_term.check(broken)) == []
