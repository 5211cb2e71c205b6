"""The index behind rerunning the cross-file rules on the files a change concerns."""

from __future__ import annotations

import datetime as dt
import os
import pickle
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from curator.library import Library
from curator.library_index import LibraryIndex, anchor_keys, key_hash, key_hashes
from curator.lint import check_task
from curator.lint_cache import Checked
from curator.load import Position
from curator.rules.base import FileSummary, Located, SourceUrl
from curator.workers import SentOnce

_files = st.lists(
    st.tuples(st.text(min_size=1), st.lists(st.integers(0, 50), max_size=6)),
    max_size=30,
    unique_by=lambda file: file[0],
)


@given(_files, st.sets(st.integers(0, 50)))
def test_the_holders_of_keys_are_the_files_holding_any_of_them(files, wanted):
    index = LibraryIndex.build(files)
    expected = {i for i, (_, keys) in enumerate(files) if wanted & set(keys)}
    assert index.holders(wanted) == expected


@given(_files, st.data())
def test_a_changed_index_is_the_index_of_the_changed_library(files, data):
    gone = data.draw(st.sets(st.integers(0, max(len(files) - 1, 0))) if files else st.just(set()))
    came = data.draw(_files.filter(lambda new: not {n for n, _ in new} & {n for n, _ in files}))
    changed = LibraryIndex.build(files).changed(gone, came)
    left = [file for i, file in enumerate(files) if i not in gone]
    assert changed == LibraryIndex.build([*left, *came])
    for i, (_, keys) in enumerate([*left, *came]):
        assert changed.keys_of([i]) == set(keys)


@given(_files)
def test_an_index_reads_back_as_it_was_written(files):
    index = LibraryIndex.build(files)
    assert LibraryIndex.decode(index.encode()) == index


def test_anything_else_reads_as_no_index():
    good = LibraryIndex.build([("a", [1, 2]), ("b", [3])]).encode()
    for body in (
        b"",
        b"[]",
        b'{"lines": ["a"]}',
        good.replace(b'"a"', b"1"),  # a line that is not text
        good.replace(b'"a"', b'"a","c"'),  # a line more than the counts tell
        good.replace(b'"counts":"', b'"counts":"!'),  # not base64
        good[:-5],
    ):
        assert LibraryIndex.decode(body) is None, body


def test_anchor_keys_follow_the_anchors_and_name_ids_and_normal_urls():
    here = Position(1, 1)
    summary = FileSummary(
        "incidents/IL-0002.yaml",
        "IL-0002",
        Located("IL-0002", here),
        references=[("related", Located("IL-0001", here))],
        source_urls=[SourceUrl("https://www.example.com/a/", here, "https://example.com/a")],
    )
    assert anchor_keys(summary) == ["id:IL-0002", "id:IL-0001", "url:https://example.com/a"]
    assert key_hash("id:IL-0001") == key_hash("id:IL-0001") != key_hash("id:IL-0002")


def test_the_key_hashes_a_worker_sends_are_those_of_the_summary_it_sends():
    # A checked file's key hashes are worked out in the worker (`Checked.encode`) and sent
    # with its result, for the index the main process builds once every file is checked.
    library = Library.at(Path(__file__).resolve().parents[1])
    prefix = f"{library.root}{os.sep}"  # (results kept in the cache, under their paths)
    context = SentOnce((library.taxonomy, dt.date(2026, 12, 2), prefix, None, True))
    for number, path in enumerate(library.incident_paths()[:20]):
        _, checked = check_task((number, str(path), path.name, None), context)
        sent: Checked = pickle.loads(pickle.dumps(checked))
        assert sent._hashes is not None  # sent, not worked out again
        assert sent.key_hashes == key_hashes(sent.summary) == key_hashes(checked.summary)
        assert sent.key_hashes_of(sent.summary) is sent.key_hashes
    lost = Checked([], None)  # a kept result whose summary is gone: the file's, checked again
    summary = FileSummary("x.yaml", "IL-0001", id=Located("IL-0001", Position(1, 5)))
    assert lost.key_hashes_of(summary) == key_hashes(summary) == [key_hash("id:IL-0001")]
