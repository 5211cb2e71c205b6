"""The changed files' bytes at the base, kept in one buffer for the review's workers."""

from __future__ import annotations

import pytest

from curator.review.packed import PackedBytes


@pytest.mark.parametrize(
    "items",
    [
        [],
        [None],
        [b""],
        [b"id: IL-0001\n", None, b"", "제목: 한국어\n".encode(), None, b"\x00\xff" * 3000],
    ],
)
def test_each_item_reads_back_as_it_was_given(items):
    packed = PackedBytes(iter(items))
    assert len(packed) == len(items)
    assert [packed[at] for at in range(len(items))] == items
    assert list(packed) == items  # (as a Sequence: iterated, zipped with the changes)
    assert packed[1:] == items[1:] and packed[::-1] == items[::-1]
    if items:
        assert packed[-1] == items[-1]
        assert all(type(packed[at]) in (bytes, type(None)) for at in range(len(items)))


def test_an_item_read_back_is_a_copy_that_outlives_the_buffer():
    packed = PackedBytes([b"abc", b"def"])
    first = packed[0]
    del packed
    assert first == b"abc"


def test_keeping_holds_the_wanted_items_at_their_places_and_none_elsewhere():
    items = [b"id: IL-0001\n", None, "제목: 한국어\n".encode(), b"", b"x" * 5000]
    kept = PackedBytes(items).keeping({0, 1, 3})
    assert list(kept) == [b"id: IL-0001\n", None, None, b"", None]
    assert list(PackedBytes(items).keeping(range(5))) == items
    assert list(PackedBytes(items).keeping(set())) == [None] * 5
