"""The review's values: what they hold, and what holding 100,000 of them costs."""

from __future__ import annotations

import pickle
import tracemalloc

from curator.review.model import FileReview, Match, Review

SHAS = {"base": "a" * 40, "head": "b" * 40}


def match(n: int) -> Match:
    reasons = [f"같은 조직 Org{n}", f"shared rare terms: nccl, timeout-{n}"]
    return Match(id=f"IL-{n:04d}", score=0.5, kind="related", reasons=reasons, title="제목")


def judged(n: int) -> FileReview:
    path = f"incidents/IL-{n:04d}.yaml"
    matches = [match(n + k) for k in range(5)]
    return FileReview(path=path, change="changed", id=f"IL-{n:04d}", matches_at_base=matches)


def test_values_given_the_same_fields_share_the_set_of_their_names():
    # pydantic kept a set of its own with each value: 46% of a judged file's review.
    first, second = judged(1), judged(2)
    assert first.model_fields_set == {"path", "change", "id", "matches_at_base"}
    assert first.model_fields_set is second.model_fields_set
    assert first.matches_at_base[0].model_fields_set is second.matches_at_base[3].model_fields_set
    fewer = Match(id="IL-0001", score=0.5, kind="related")  # (given other names)
    assert fewer.model_fields_set == {"id", "score", "kind"}
    assert fewer.model_fields_set is not match(1).model_fields_set


def test_a_copy_adds_the_names_it_updates_to_its_own_set_alone():
    first, second = judged(1), judged(2)
    titled = first.model_copy(update={"title": "제목"})
    assert titled.model_fields_set == {"path", "change", "id", "matches_at_base", "title"}
    assert first.model_fields_set == second.model_fields_set == {
        "path", "change", "id", "matches_at_base",
    }  # fmt: skip
    assert judged(3).model_copy(update={"title": "다른 제목"}).model_fields_set is (
        titled.model_fields_set
    )
    assert first.model_copy().model_fields_set is first.model_fields_set


def test_values_pickled_together_share_it_once_unpickled_and_read_as_before():
    files = [judged(n) for n in range(10)]
    back = pickle.loads(pickle.dumps(files))
    assert back == files
    assert len({id(m.model_fields_set) for f in back for m in f.matches_at_base}) == 1
    review = Review.built(files, **SHAS)
    assert Review.model_validate_json(review.model_dump_json()) == review


def test_a_thousand_judged_files_take_under_six_kilobytes_each():
    # Each with five matches at the base: 8.3 KB each with a set of names apiece, 4.5 now.
    tracemalloc.start()
    try:
        files = [judged(n) for n in range(1000)]
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(files) == 1000
    assert held < 6000 * 1000
