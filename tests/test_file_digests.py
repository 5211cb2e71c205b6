"""Each file's digest kept under its settled stat (curator/file_digests.py), and the key of
the similarity index made of them (curator/similarity/store.py). (What it shares with
`BlobIds` is tested of both in tests/test_stat_keyed.py.)"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from conftest import files_read, write_library

import curator.file_digests as digests_module
import curator.lint_cache as kept
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


def test_a_touched_file_is_read_once_more_then_known_by_its_new_stat(library, reads, monkeypatch):
    monkeypatch.setattr(kept, "SETTLED_NS", 0)
    first = digest_all(library)
    os.utime(library.incidents_dir / "IL-0001.yaml")
    reads.clear()
    assert digest_all(library) == first
    assert digest_all(library) == first
    assert reads == ["IL-0001.yaml"]


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
