"""Each file's digest kept under its settled stat (curator/file_digests.py), and the key of
the similarity index made of them (curator/similarity/store.py)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import files_read, write_library

import curator.file_digests as digests_module
import curator.lint_cache as kept
from curator.cache import Store, _shard_of
from curator.file_digests import NOT_REGULAR, UNREADABLE, FileDigests
from curator.library import Library
from curator.similarity import store
from incidents import incident


@pytest.fixture
def library(tmp_path: Path) -> Library:
    root = write_library(
        tmp_path / "lib",
        {f"IL-000{n}.yaml": incident(f"IL-000{n}") for n in (1, 2, 3)},
    )
    return Library.at(root)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the files whose bytes were read to be hashed."""
    return files_read(monkeypatch, digests_module)


def sha256(path: Path) -> bytes:
    return hashlib.sha256(path.read_bytes()).digest()


def digest_all(library: Library) -> dict[str, bytes]:
    """Every incident file's digest, as one command run asks for them (and saves them)."""
    digests = FileDigests.open(library)
    found = {path.name: digests.digest(str(path)) for path in library.incident_paths()}
    digests.save()
    return found


def old_library_key(library: Library) -> str:
    """The key as it was made before digests were kept: every file read and hashed."""
    digest = hashlib.sha256(f"similarity-index:{store.FORMAT}:{store.__version__}".encode())
    for path in library.incident_paths():
        digest.update(os.fsencode(path.name) + b"\0" + sha256(path))
    return digest.hexdigest()[:32]


def test_a_settled_file_is_read_once_and_then_answered_by_its_stat(library, reads, monkeypatch):
    monkeypatch.setattr(kept, "SETTLED_NS", 0)  # every file is settled once written
    first = digest_all(library)
    assert first == {p.name: sha256(p) for p in library.incident_paths()}
    assert sorted(reads) == ["IL-0001.yaml", "IL-0002.yaml", "IL-0003.yaml"]
    reads.clear()
    assert digest_all(library) == first
    assert reads == []


def test_a_changed_file_is_read_again_even_with_its_old_size_and_times(library, reads, monkeypatch):
    monkeypatch.setattr(kept, "SETTLED_NS", 0)
    first = digest_all(library)["IL-0002.yaml"]
    path = library.incidents_dir / "IL-0002.yaml"
    before = path.stat()
    text = path.read_text(encoding="utf-8")
    assert "처리량" in text
    path.write_text(text.replace("처리량", "처리율", 1), encoding="utf-8")  # same size
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # the old mtime back
    assert path.stat().st_size == before.st_size
    reads.clear()
    digest = digest_all(library)["IL-0002.yaml"]
    assert digest == sha256(path) != first  # ctime told it apart
    assert reads == ["IL-0002.yaml"]


def test_the_stat_of_a_file_changed_just_now_is_never_kept(library, reads, monkeypatch):
    monkeypatch.setattr(kept, "SETTLED_NS", 10**18)  # nothing has settled
    digest_all(library)
    reads.clear()
    digest_all(library)
    assert len(reads) == 3


def test_a_touched_file_is_read_once_more_then_known_by_its_new_stat(library, reads, monkeypatch):
    monkeypatch.setattr(kept, "SETTLED_NS", 0)
    first = digest_all(library)
    os.utime(library.incidents_dir / "IL-0001.yaml")
    reads.clear()
    assert digest_all(library) == first
    assert digest_all(library) == first
    assert reads == ["IL-0001.yaml"]


def plant(library: Library, path: Path, entry: Any) -> None:
    """After a first run, `entry` kept as the digest of `path` ("STAT" in it: the file's
    stat as curator records it)."""
    digest_all(library)
    st = path.lstat()
    known = f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}"
    forged = [known if part == "STAT" else part for part in entry] if type(entry) is list else entry
    kept_store = Store.open(library.root, digests_module.KIND, digests_module._CONTEXT)
    kept_store.put(str(path.relative_to(library.root)), forged)
    kept_store.save()


@pytest.mark.parametrize(
    "entry",
    [
        None,
        "text",
        [],
        ["stat"],
        ["stat", "00" * 32, "more"],
        [1, 2],
        ["STAT", "not hex"],
        ["STAT", "00" * 31],
        ["STAT", 17],
        ["STAT", ["00"]],
        {"STAT": "00" * 32},
    ],
)
def test_an_entry_curator_does_not_write_is_a_miss(library, reads, monkeypatch, entry):
    monkeypatch.setattr(kept, "SETTLED_NS", 0)
    path = library.incidents_dir / "IL-0001.yaml"
    plant(library, path, entry)
    reads.clear()
    assert digest_all(library)["IL-0001.yaml"] == sha256(path)
    assert reads == ["IL-0001.yaml"]


def test_a_forged_digest_under_the_right_stat_is_believed_only_from_curators_own_store(
    library, monkeypatch
):
    """The trust is the cache store's: an entry is taken as written by curator (a store
    copied or committed elsewhere is not read: `tests/test_cache.py`)."""
    monkeypatch.setattr(kept, "SETTLED_NS", 0)
    path = library.incidents_dir / "IL-0001.yaml"
    plant(library, path, ["STAT", "ab" * 32])
    assert digest_all(library)["IL-0001.yaml"] == bytes.fromhex("ab" * 32)


def test_what_is_not_a_regular_file_is_never_read(library, reads, tmp_path):
    fifo = library.incidents_dir / "IL-0004.yaml"
    os.mkfifo(fifo)  # reading it would block
    link = library.incidents_dir / "IL-0005.yaml"
    outside = tmp_path / "outside.yaml"
    outside.write_text(incident("IL-0005"), encoding="utf-8")
    link.symlink_to(outside)
    digests = FileDigests.open(library)
    assert digests.digest(str(fifo)) == NOT_REGULAR
    assert digests.digest(str(link)) == NOT_REGULAR
    assert digests.digest(str(library.incidents_dir / "IL-0009.yaml")) == UNREADABLE
    assert reads == []


def test_entries_of_files_gone_are_dropped_when_their_shard_is_written(library, monkeypatch):
    monkeypatch.setattr(kept, "SETTLED_NS", 0)
    digest_all(library)
    live = "incidents/IL-0001.yaml"
    gone = next(  # a file deleted since, whose entry shares a shard with a live file's
        key
        for n in range(10_000)
        if _shard_of(key := f"incidents/IL-{n:04d}-gone.yaml") == _shard_of(live)
    )
    kept_store = Store.open(library.root, digests_module.KIND, digests_module._CONTEXT)
    kept_store.put(gone, ["1:2:3:4", "00" * 32])
    kept_store.save()
    os.utime(library.incidents_dir / "IL-0001.yaml")  # its entry, and so its shard, rewritten
    digest_all(library)
    again = Store.open(library.root, digests_module.KIND, digests_module._CONTEXT)
    assert again.get(gone) is None
    assert again.get(live) is not None


def test_without_the_cache_every_file_is_read_and_nothing_is_written(library, reads):
    digests = FileDigests.open(library, use_cache=False)
    found = [digests.digest(str(path)) for path in library.incident_paths()]
    digests.save()
    assert found == [sha256(p) for p in library.incident_paths()]
    assert len(reads) == 3
    assert not (library.root / ".curator-cache").exists()


def test_the_library_key_is_the_hash_of_every_files_bytes_kept_or_not(library, monkeypatch):
    monkeypatch.setattr(kept, "SETTLED_NS", 0)
    expected = old_library_key(library)
    assert store.library_key(library) == expected  # every file read
    assert store.library_key(library) == expected  # every digest kept
    path = library.incidents_dir / "IL-0002.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "# 주석\n", encoding="utf-8")
    changed = store.library_key(library)
    assert changed == old_library_key(library) != expected
    path.unlink()
    assert store.library_key(library) == old_library_key(library) not in (expected, changed)
