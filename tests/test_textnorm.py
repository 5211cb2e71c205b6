"""curator.textnorm: Unicode normalisation in linear time, equal to `unicodedata`'s on text
that has no run of more than 30 combining marks (all real text)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from curator.textnorm import (
    CGJ,
    STREAM_SAFE_RUN,
    composed,
    long_run,
    normalized,
    stream_safe,
    unified,
)

FORMS = ("NFC", "NFD", "NFKC", "NFKD")
# Korean syllables and jamo, Latin letters, combining marks of several classes (out of
# canonical order when mixed), compatibility characters, and an astral combining mark.
PIECES = st.sampled_from(
    ["학", "\u1112", "\u1161", "\u11a8", "ㄱ", "e", "A", " ", "\u0301", "\u0323", "\u0302",
     "\u212b", "\uff21", "①", "…", "\U0001d165", "😀", "\u034f"]
)  # fmt: skip


def runs_of_marks(text: str) -> int:
    longest = run = 0
    for char in text:
        run = run + 1 if unicodedata.combining(char) else 0
        longest = max(longest, run)
    return longest


@given(st.lists(PIECES, max_size=80).map("".join))
def test_normalized_is_unicodedatas_on_text_without_long_runs(text):
    if runs_of_marks(text) <= STREAM_SAFE_RUN:
        assert long_run(text) is None and stream_safe(text) is text
        for form in FORMS:
            assert normalized(form, text) == unicodedata.normalize(form, text)


@given(st.lists(st.sampled_from(["a", "\u0301", "\u0323", "\U0001d165", "😀"]), max_size=300))
def test_stream_safe_bounds_every_run_and_adds_nothing_else(pieces):
    text = "".join(pieces)
    safe = stream_safe(text)
    assert runs_of_marks(safe) <= STREAM_SAFE_RUN
    assert safe.replace(CGJ, "") == text
    assert (safe == text) == (runs_of_marks(text) <= STREAM_SAFE_RUN)
    for form in FORMS:
        assert unicodedata.is_normalized(form, normalized(form, text))


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("a" + "\u0301" * 30, None),  # 30 marks: stream-safe
        ("a" + "\u0301" * 31, 1),
        ("가나" + "\u0301\u0323" * 20, 2),
        ("x" + "\U0001d165" * 31, 1),  # astral combining marks count too
        ("😀" * 40, None),  # other astral characters do not
        ("a" + "\u0301" * 20 + "b" + "\u0301" * 20, None),  # a starter ends a run
    ],
)
def test_long_run_finds_where_the_first_run_over_30_marks_starts(text, start):
    assert long_run(text) == start


# A compatibility ideograph (樂 for one of its readings), one from the supplement beyond the
# BMP, a unified ideograph among the compatibility ones (U+FA0E: NFC keeps it), and text
# around them that NFC changes.
IDEOGRAPHS = st.sampled_from(["\uf914", "\U0002f800", "\ufa0e", "樂"])


@given(st.lists(st.one_of(PIECES, IDEOGRAPHS), max_size=80).map("".join))
def test_composed_is_nfc_but_for_the_compatibility_ideographs_which_stay(text):
    if runs_of_marks(text) > STREAM_SAFE_RUN:
        return
    kept = composed(text)
    assert unified(kept) == unicodedata.normalize("NFC", text)
    assert [c for c in kept if c in "\uf914\U0002f800"] == [
        c for c in text if c in "\uf914\U0002f800"
    ]
    assert len(unified(text)) == len(text)


def test_composed_composes_jamo_beside_a_compatibility_ideograph():
    jamo = unicodedata.normalize("NFD", "학")
    assert composed(f"\uf914{jamo}\uf95c") == "\uf914학\uf95c"
    assert unified("\uf914\uf95c\uf9bf") == "樂樂樂"
