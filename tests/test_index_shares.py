"""The similarity index built again from the shares kept of unchanged files
(`curator.similarity.shares`): the same index as a build from every file, reading only
the files whose bytes changed, and never a share of other bytes."""

from __future__ import annotations

import base64
import shutil
from pathlib import Path

import numpy as np
import pytest
from conftest import files_read
from synthetic import synthetic_library

from curator.cache import FOLDER
from curator.library import Library
from curator.similarity import index as index_module
from curator.similarity import shares, store
from curator.similarity.index import COUNT_MAX, Chunk, Index, build, extract_file
from curator.similarity.records import parse_mapping, record_of
from curator.similarity.text import WORD_BIT, features


def same_index(ours: Index, theirs: Index) -> None:
    assert ours.records == theirs.records
    assert ours.skipped == theirs.skipped
    assert ours.entity_names == theirs.entity_names
    assert np.array_equal(ours.idf, theirs.idf)
    assert np.array_equal(ours.entity_rarity, theirs.entity_rarity)
    for postings in ("text", "entity_postings", "doc_entities"):
        for array in ("indptr", "rows", "values"):
            mine, built = (
                getattr(getattr(ours, postings), array),
                getattr(getattr(theirs, postings), array),
            )
            assert mine.dtype == built.dtype and np.array_equal(mine, built), (postings, array)
    assert ours.text.marks is not None and theirs.text.marks is not None
    assert np.array_equal(ours.text.marks, theirs.text.marks)
    for array in ("indptr", "keys"):
        mine, built = getattr(ours.korean, array), getattr(theirs.korean, array)
        assert mine.dtype == built.dtype and np.array_equal(mine, built), ("korean", array)


@pytest.fixture
def library(tmp_path: Path) -> Library:
    root, _manifest = synthetic_library(tmp_path / "lib", count=60, seed=3, defects_per_rule=0)
    (root / "incidents" / "IL-0007.yaml").write_text("- not a mapping\n", encoding="utf-8")
    return Library.at(root)


def edit(library: Library, name: str, old: str, new: str) -> None:
    path = library.incidents_dir / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_after_an_edit_only_the_edited_file_is_read_and_the_index_is_the_full_builds(
    library, monkeypatch
):
    first = store.load_index(library)
    same_index(first, build(library, workers=1))
    assert first.skipped == ["incidents/IL-0007.yaml"]
    edit(library, "IL-0012.yaml", "title: ", "title: NCCL Ring 재구성 ")
    read = files_read(monkeypatch, index_module)
    again = store.load_index(library)
    # The edited file, and the one that is no incident (its share is never kept).
    assert sorted(read) == ["IL-0007.yaml", "IL-0012.yaml"]
    same_index(again, build(library, workers=1))
    assert "ring" in again.entities_of(again.by_id["IL-0012"][0])
    # Nothing changed since: the index itself is read back, no file is.
    read.clear()
    same_index(store.load_index(library), again)
    assert read == []


def test_a_share_kept_of_other_bytes_is_never_used(library, monkeypatch):
    store.load_index(library)
    path = library.incidents_dir / "IL-0020.yaml"
    kept = shares.KeptShares.open(library)
    digest = store.file_digests(library)["IL-0020.yaml"]
    [share] = kept.take([("IL-0020.yaml", digest)])
    assert share is not None and share.record.id == "IL-0020"
    # Another file's bytes, at the same size and times: a share kept for IL-0020's old
    # bytes must not stand for them, nor the digest kept under its old stat.
    edit(library, "IL-0020.yaml", "title: ", "title: XID 79 ")
    [other] = kept.take([("IL-0020.yaml", store.file_digests(library)["IL-0020.yaml"])])
    assert other is None
    read = files_read(monkeypatch, index_module)
    rebuilt = store.load_index(library)
    assert read == ["IL-0007.yaml", "IL-0020.yaml"]
    same_index(rebuilt, build(library, workers=1))
    assert "xid 79" in rebuilt.entities_of(rebuilt.by_id["IL-0020"][0])
    assert path.exists()


def _features(text: str, change) -> str:
    """A share's base64 features (or Korean word keys), changed: every count 0, columns
    out of order, repeated."""
    packed = np.frombuffer(base64.b64decode(text), dtype="<u4")
    return base64.b64encode(np.ascontiguousarray(change(packed)).astype("<u4").tobytes()).decode()


def _with(entry: list, place: int, value) -> list:
    """`entry` with its value at `place` changed to `value`."""
    return [value if i == place else old for i, old in enumerate(entry)]


@pytest.mark.parametrize(
    "tamper",
    [
        lambda entry: _with(entry, 2, "not base64!"),  # features not base64
        lambda entry: _with(entry, 2, entry[2][:-4]),  # not whole uint32s
        lambda entry: _with(entry, 1, entry[1][:-1]),  # a record too short
        lambda entry: _with(entry, 1, [7, *entry[1][1:]]),  # an id not text
        lambda entry: entry[:3],  # no entities
        lambda entry: _with(entry, 2, _features(entry[2], lambda f: f >> 10 << 10)),
        lambda entry: _with(entry, 2, _features(entry[2], lambda f: f[::-1])),
        lambda entry: _with(entry, 2, _features(entry[2], lambda f: f[[0, 0]])),
        lambda entry: entry[:4],  # no Korean words
        lambda entry: _with(entry, 4, "not base64!"),
        lambda entry: _with(entry, 4, entry[4][:-4]),  # not whole uint32s
        lambda entry: _with(entry, 4, _features(entry[4], lambda f: f[::-1])),  # descending
        lambda entry: _with(entry, 4, _features(entry[4], lambda f: f[[0, 0]])),  # repeated
        lambda entry: _with(entry, 4, 7),  # not text
        lambda entry: {"entry": entry},  # not a list
    ],
)
def test_a_malformed_share_is_read_from_its_file_instead(library, monkeypatch, tamper):
    store.load_index(library)
    kept = shares.KeptShares.open(library)
    assert kept.store is not None
    kept.store.read_all()
    name = "IL-0031.yaml"
    kept.store.update({name: tamper(kept.store.get(name))}, keep=None)
    for index_file in (library.root / FOLDER).glob("similarity-*/index.npz"):
        index_file.unlink()  # so that the index is built again, from the shares
    read = files_read(monkeypatch, index_module)
    rebuilt = store.load_index(library)
    assert name in read
    same_index(rebuilt, build(library, workers=1))


def test_shares_of_a_file_that_changed_while_read_are_kept_but_the_index_is_not(
    library, monkeypatch
):
    real = index_module.extract_file

    def changed_meanwhile(path: Path, display: str):  # as if edited between hash and read
        _digest, share = real(path, display)
        return bytes(32), share

    monkeypatch.setattr(index_module, "extract_file", changed_meanwhile)
    built = store.load_index(library)
    same_index(built, build(library, workers=1))
    assert list((library.root / FOLDER).glob("similarity-*/index.npz")) == []


def test_files_added_from_elsewhere_are_indexed_as_if_in_the_library(
    library, tmp_path, monkeypatch
):
    # What `curator review` judges against when the base branch gained incidents: the
    # library's own files from their shares, the others read each time and never kept,
    # and the index the one of a library holding both (those it would not read, too).
    both = Library.at(shutil.copytree(library.root, tmp_path / "both"))
    for name in (".IL-0061.yaml", "IL-0062.yml"):
        shutil.copyfile(both.incidents_dir / "IL-0010.yaml", both.incidents_dir / name)
    whole = build(both, workers=1)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    names = ["IL-0003.yaml", "IL-0030.yaml", "IL-0060.yaml", ".IL-0061.yaml", "IL-0062.yml"]
    added = {name: shutil.copyfile(both.incidents_dir / name, elsewhere / name) for name in names}
    for name in names[:3]:
        (library.incidents_dir / name).unlink()
    same_index(store.load_index(library, use_cache=False, added=added), whole)
    assert not (library.root / FOLDER).exists()
    read = files_read(monkeypatch, index_module)
    same_index(store.load_index(library, added=added), whole)
    assert len(read) == 60
    read.clear()
    same_index(store.load_index(library, added=added), whole)
    assert sorted(read) == ["IL-0003.yaml", "IL-0007.yaml", "IL-0030.yaml", "IL-0060.yaml"]
    assert list((library.root / FOLDER).glob("similarity-*")) == []
    alone = build(library, workers=1)
    read.clear()
    same_index(store.load_index(library), alone)
    assert read == ["IL-0007.yaml"]  # (no mapping, no share) the rest from their shares


def test_features_and_their_counts_come_back_from_a_share_as_extracted(tmp_path):
    root, _ = synthetic_library(tmp_path / "lib", count=3, seed=5, defects_per_rule=0)
    path = root / "incidents" / "IL-0002.yaml"
    # One Hangul pair over a thousand times: its count is capped (COUNT_MAX), not wrapped.
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("title: ", "title: " + "가나" * 1500 + " ", 1), encoding="utf-8")
    _digest, share = extract_file(path, "incidents/IL-0002.yaml")
    assert share is not None
    chunk = Chunk.of([share])
    assert chunk.counts.max() == COUNT_MAX
    assert np.all(np.diff(chunk.cols) > 0) and chunk.cols.max() < index_module.N_BUCKETS
    assert chunk.lengths.tolist() == [len(share.packed) // 4]


def test_a_share_marks_the_columns_its_words_are_in(tmp_path):
    root, _ = synthetic_library(tmp_path / "lib", count=3, seed=5, defects_per_rule=0)
    path = root / "incidents" / "IL-0002.yaml"
    _digest, share = extract_file(path, "incidents/IL-0002.yaml")
    assert share is not None
    found = features(record_of(parse_mapping(path.read_bytes()), "", "IL-0002").text)
    words = set(index_module.buckets(found[(found & WORD_BIT) != 0]).tolist())
    chunk = Chunk.of([share])
    assert words and set(chunk.cols[chunk.words].tolist()) == words
    assert chunk.counts.min() >= 1  # (the mark is no count)


def test_no_cache_folder_no_shares_and_the_same_index(library, monkeypatch):
    built = store.load_index(library, use_cache=False)
    assert not (library.root / FOLDER).exists()
    same_index(built, build(library, workers=1))


def test_a_deleted_file_leaves_the_index_and_comes_back_read_afresh(library, monkeypatch):
    store.load_index(library)
    path = library.incidents_dir / "IL-0040.yaml"
    text = path.read_text(encoding="utf-8")
    path.unlink()
    gone = store.load_index(library)
    assert "IL-0040" not in gone.by_id
    same_index(gone, build(library, workers=1))
    # Its share may stay kept (its shard is written when another file of it changes); it
    # stands for the old bytes only.
    path.write_text(text.replace("title: ", "title: CVE-2024-3094 ", 1), encoding="utf-8")
    read = files_read(monkeypatch, index_module)
    back = store.load_index(library)
    assert "IL-0040.yaml" in read
    same_index(back, build(library, workers=1))
    assert "cve-2024-3094" in back.entities_of(back.by_id["IL-0040"][0])


def test_a_file_that_cannot_be_read_is_not_judged_and_the_index_is_still_kept(library, monkeypatch):
    from curator import file_digests

    def refuse(real):
        def read(path: Path, *limit: int) -> bytes:
            if path.name == "IL-0033.yaml":
                raise PermissionError(13, "Permission denied", str(path))
            return real(path, *limit)

        return read

    for module in (index_module, file_digests):
        monkeypatch.setattr(module, "read_regular", refuse(module.read_regular))
    built = store.load_index(library)
    assert "incidents/IL-0033.yaml" in built.skipped and "IL-0033" not in built.by_id
    assert len(list((library.root / FOLDER).glob("similarity-*/index.npz"))) == 1


def test_of_the_indexes_of_earlier_contents_only_the_last_one_is_kept(library, monkeypatch):
    def indexes() -> set[str]:
        cache = library.root / FOLDER
        return {p.name for p in cache.iterdir() if p.name.startswith("similarity-")}

    store.load_index(library)
    seen = [indexes()]
    for title in ("A ", "B ", "C "):
        edit(library, "IL-0012.yaml", "title: ", f"title: {title}")
        store.load_index(library)
        seen.append(indexes())
    assert [len(folders) for folders in seen] == [1, 2, 2, 2]
    assert seen[3] == (seen[2] - seen[1]) | (seen[3] - seen[2])  # the two newest
    # Back to the content before the last edit: its index is read, not built again.
    edit(library, "IL-0012.yaml", "title: C ", "title: ")
    built = []
    monkeypatch.setattr(store, "build_keeping", lambda *args: built.append(args))
    store.load_index(library)
    assert built == [] and indexes() == seen[3]


def test_shares_made_by_other_code_are_kept_for_one_other_only(library, monkeypatch):
    for version in range(4):
        monkeypatch.setattr(shares, "code_context", lambda *extra, v=version: [f"code {v}"])
        shares.KeptShares.open(library)
    folders = [p for p in (library.root / FOLDER).iterdir() if p.name.startswith("index-shares-")]
    assert len(folders) == 2


def _packed(*features: tuple[int, int]) -> bytes:
    return np.array([col << 10 | count for col, count in features], dtype="<u4").tobytes()


def test_shares_features_are_checked_file_by_file_empty_ones_included():
    one, other = _packed((1, 1), (5, 2)), _packed((0, 1), (3, 1023))
    assert shares._as_extracted([b"", one, b"", other, b""])
    assert shares._as_extracted([])
    assert not shares._as_extracted([one, _packed((5, 1), (1, 1))])  # columns falling
    assert not shares._as_extracted([_packed((1, 1), (1, 1)), one])  # a column twice
    assert not shares._as_extracted([one, _packed((7, 0))])  # a count of none
    assert not shares._as_extracted([one[:-1]])  # not whole uint32s
