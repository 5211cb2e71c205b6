"""git's object id of each file kept under its settled stat (curator/blob_ids.py), which
`curator review` compares with a commit's to review the checkout itself. (What it shares
with `FileDigests` is tested of both in tests/test_stat_keyed.py.)"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from conftest import blob_ids_hashed, write_library

import curator.blob_ids as blob_ids_module
import curator.lint_cache as kept
from curator import repository
from curator.blob_ids import BlobIds
from curator.cache import Store
from incidents import incident

NAMES = ("IL-0001.yaml", "IL-0002.yaml", "IL-0003.yaml")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_library(tmp_path / "lib", {name: incident(name[:7]) for name in NAMES})


@pytest.fixture
def hashed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the files whose bytes `repository.blob_id` read and hashed."""
    return blob_ids_hashed(monkeypatch, repository)


def ids_of(root: Path, names: tuple[str, ...] = NAMES, like: str = "0" * 40) -> list[str | None]:
    """Each file's id, as one review asks for them (and saves them), in the hash of `like`."""
    ids = BlobIds.open(root)
    found = [ids.of(str(root / "incidents" / name), False, like) for name in names]
    ids.save(prune=True)
    return found


def test_an_id_of_the_other_hash_is_a_miss(root, hashed, monkeypatch):
    monkeypatch.setattr(kept, "SETTLED_NS", 0)
    ids_of(root)  # SHA-1 ids kept
    hashed.clear()
    wide = ids_of(root, like="0" * 64)  # as asked by a SHA-256 repository
    assert wide == [sha256_id(root / "incidents" / name) for name in NAMES]
    assert hashed == list(NAMES)


def sha256_id(path: Path) -> str:
    """The id a SHA-256 repository gives the file's bytes."""
    data = path.read_bytes()
    return hashlib.sha256(b"blob %d\0" % len(data) + data).hexdigest()


def test_a_links_target_is_read_each_time_and_never_kept(root, hashed, monkeypatch, tmp_path):
    monkeypatch.setattr(kept, "SETTLED_NS", 0)
    outside = tmp_path / "outside.yaml"
    outside.write_text(incident("IL-0005"), encoding="utf-8")
    link = root / "incidents" / "IL-0005.yaml"
    link.symlink_to(outside)
    target = os.fsencode(outside)
    expected = hashlib.sha1(b"blob %d\0" % len(target) + target).hexdigest()
    for _ in range(2):
        ids = BlobIds.open(root)
        assert ids.of(str(link), True, "0" * 40) == expected
        ids.save(prune=False)
    assert hashed == ["IL-0005.yaml", "IL-0005.yaml"]
    store = Store.open(root, blob_ids_module.KIND, blob_ids_module._CONTEXT)
    assert store.get("incidents/IL-0005.yaml") is None
