"""The similarity index's array steps, held to the plain definitions they compute faster."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from curator.similarity import index, sorting
from curator.similarity.index import KEEP_PER_DOCUMENT
from curator.similarity.sorting import stable_order

# Few distinct values, so that ties are the rule rather than the exception.
keys = st.lists(st.integers(0, 7), max_size=300).map(lambda k: np.array(k, dtype=np.int32))


@given(keys)
def test_stable_order_is_numpys_stable_argsort(keys: np.ndarray) -> None:
    expected = np.argsort(keys, kind="stable")
    assert np.array_equal(stable_order(keys, 8), expected)


def test_stable_order_of_keys_too_wide_to_pack_is_still_stable() -> None:
    wide = np.array([2**63, 5, 2**63, 5, 0], dtype=np.uint64)
    assert stable_order(wide, 2**64).tolist() == [4, 1, 3, 0, 2]


def test_stable_order_packs_when_it_can(monkeypatch: object) -> None:
    calls: list[str] = []
    real = np.argsort

    def spy(*args: object, **kwargs: object) -> np.ndarray:
        calls.append("argsort")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sorting.np, "argsort", spy)  # type: ignore[attr-defined]
    assert stable_order(np.array([3, 1, 3, 0]), 4).tolist() == [3, 1, 0, 2]
    assert calls == []


def _heaviest_by_hand(weights: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    keep = np.zeros(len(weights), dtype=bool)
    start = 0
    for length in lengths.tolist():
        positions = range(start, start + length)
        ranked = sorted(positions, key=lambda p: (-weights[p], p))  # heaviest, then first
        keep[ranked[:KEEP_PER_DOCUMENT]] = True
        start += length
    return keep


# Rows shorter and longer than KEEP_PER_DOCUMENT, empty ones, and weights from a few values,
# so that ties are common.
rows_of_weights = st.lists(
    st.tuples(st.integers(0, 2 * KEEP_PER_DOCUMENT), st.integers(0, 2**32 - 1)), max_size=5
).map(
    lambda rows: [
        np.random.default_rng(seed).choice([0.0, 0.125, 0.25, 0.3, 0.5, 1.0], length).tolist()
        for length, seed in rows
    ]
)


@settings(max_examples=60, deadline=None)
@given(rows_of_weights)
def test_heaviest_per_row_keeps_each_rows_heaviest_and_of_ties_the_first(
    rows: list[list[float]],
) -> None:
    lengths = np.array([len(row) for row in rows], dtype=np.int64)
    weights = np.array([w for row in rows for w in row], dtype=np.float32)
    kept = index._heaviest_per_row(weights, lengths)
    assert np.array_equal(kept, _heaviest_by_hand(weights, lengths))


@given(st.lists(st.lists(st.floats(0, 4, width=32), max_size=5), max_size=6))
def test_row_norms_are_each_rows_l2_norm(rows: list[list[float]]) -> None:
    lengths = np.array([len(row) for row in rows], dtype=np.int64)
    weights = np.array([w for row in rows for w in row], dtype=np.float32)
    expected = [max(float(np.linalg.norm(np.array(row, dtype=np.float64))), 1e-12) for row in rows]
    assert np.allclose(index._row_norms(weights, lengths), expected, rtol=1e-12, atol=0)


def test_row_norms_of_empty_rows_first_between_and_last() -> None:
    lengths = np.array([0, 2, 0, 0, 1, 0])
    weights = np.array([3, 4, 2], dtype=np.float32)
    assert index._row_norms(weights, lengths).tolist() == [1e-12, 5.0, 1e-12, 1e-12, 2.0, 1e-12]


def test_entity_postings_in_the_order_entities_are_first_met() -> None:
    names, rarity, by_entity, by_doc = index._entity_postings(["b\na", "", "a\nc"])
    assert names == ["b", "a", "c"]
    assert [by_entity.column(c).tolist() for c in range(3)] == [[0], [0, 2], [2]]
    assert [by_doc.column(r).tolist() for r in range(3)] == [[0, 1], [], [1, 2]]
    assert rarity[1] < rarity[0] == rarity[2]


# Entries (row, column, value) of a 5 × 6 matrix, and the columns a query reads with their
# weights, heaviest first as `Index.cosine` reads them; columns empty and repeated among them.
entries = st.lists(
    st.tuples(st.integers(0, 4), st.integers(0, 5), st.floats(0, 4, width=32)), max_size=30
)
wanted = st.lists(st.tuples(st.integers(0, 5), st.floats(0, 2)), max_size=8)


@given(entries, wanted)
def test_gather_sums_each_rows_entries_in_the_order_of_the_columns_asked(
    entries: list[tuple[int, int, float]], asked: list[tuple[int, float]]
) -> None:
    # Bit for bit: a review judges each changed incident at the head and at the base and
    # reports scores, so a faster gather must add the same products in the same order.
    rows = np.array([row for row, _, _ in entries], dtype=np.int64)
    cols = np.array([col for _, col, _ in entries], dtype=np.int64)
    values = np.array([value for _, _, value in entries], dtype=np.float32)
    postings = index.Postings.from_entries(rows, cols, values, 6)
    expected = [0.0] * 5
    for col, weight in asked:
        for at in range(postings.indptr[col], postings.indptr[col + 1]):
            expected[postings.rows[at]] += float(postings.values[at]) * weight
    got = postings.gather(
        np.array([c for c, _ in asked], dtype=np.int64), np.array([w for _, w in asked]), 5
    )
    assert got.dtype == np.float64 and got.tolist() == expected
