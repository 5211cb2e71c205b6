"""git's object id of each file kept under its settled stat (curator/blob_ids.py), which
`curator review` compares with a commit's to review the checkout itself."""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

import pytest
from conftest import write_library

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
    names: list[str] = []
    real = repository.blob_id

    def spying(path: str, link: bool, object_id: str) -> str | None:
        names.append(os.path.basename(path))
        return real(path, link, object_id)

    monkeypatch.setattr(repository, "blob_id", spying)
    return names


def git_id(path: Path, *options: str) -> str:
    """The id git gives the file's bytes as they are (no filter: `--no-filters`)."""
    command = ["git", "hash-object", "--no-filters", *options, str(path)]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()


def ids_of(root: Path, names: tuple[str, ...] = NAMES, like: str = "0" * 40) -> list[str | None]:
    """Each file's id, as one review asks for them (and saves them), in the hash of `like`."""
    ids = BlobIds.open(root)
    found = [ids.of(str(root / "incidents" / name), False, like) for name in names]
    ids.save(prune=True)
    return found


def test_a_settled_file_is_hashed_once_and_then_answered_by_its_stat(root, hashed, monkeypatch):
    monkeypatch.setattr(kept, "SETTLED_NS", 0)  # every file is settled once written
    first = ids_of(root)
    assert first == [git_id(root / "incidents" / name) for name in NAMES]
    assert hashed == list(NAMES)
    hashed.clear()
    assert ids_of(root) == first
    assert hashed == []


def test_a_file_edited_in_place_with_its_size_is_hashed_again(root, hashed, monkeypatch):
    monkeypatch.setattr(kept, "SETTLED_NS", 0)
    first = ids_of(root)
    path = root / "incidents" / "IL-0002.yaml"
    before = path.stat()
    text = path.read_text(encoding="utf-8")
    with path.open("r+b") as same_file:  # the same inode, the same size, other bytes
        same_file.write(text.replace("- nccl", "- nccx", 1).encode())
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
    assert (path.stat().st_size, path.stat().st_ino) == (before.st_size, before.st_ino)
    hashed.clear()
    now = ids_of(root)
    assert now[1] == git_id(path) != first[1]
    assert (now[0], now[2]) == (first[0], first[2])
    assert hashed == ["IL-0002.yaml"]


def test_the_old_mtime_put_back_does_not_hide_an_edit(root, hashed, monkeypatch):
    monkeypatch.setattr(kept, "SETTLED_NS", 0)
    first = ids_of(root)
    path = root / "incidents" / "IL-0001.yaml"
    before = path.stat()
    path.write_bytes(path.read_bytes().replace(b"- nccl", b"- nccx", 1))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # (its ctime tells)
    hashed.clear()
    assert ids_of(root)[0] == git_id(path) != first[0]
    assert hashed == ["IL-0001.yaml"]


def test_the_stat_of_a_file_changed_just_now_is_never_kept(root, hashed, monkeypatch):
    monkeypatch.setattr(kept, "SETTLED_NS", 10**18)  # nothing has settled
    ids_of(root)
    hashed.clear()
    ids_of(root)
    assert hashed == list(NAMES)


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


def test_a_link_and_what_is_not_a_file_are_never_kept(root, hashed, monkeypatch, tmp_path):
    monkeypatch.setattr(kept, "SETTLED_NS", 0)
    outside = tmp_path / "outside.yaml"
    outside.write_text(incident("IL-0005"), encoding="utf-8")
    (root / "incidents" / "IL-0005.yaml").symlink_to(outside)
    os.mkfifo(root / "incidents" / "IL-0006.yaml")  # reading it would block
    names = ("IL-0005.yaml", "IL-0006.yaml", "IL-0009.yaml")  # (IL-0009: none)
    ids = BlobIds.open(root)
    found = [ids.of(str(root / "incidents" / name), name == names[0], "0" * 40) for name in names]
    ids.save(prune=False)
    target = os.fsencode(outside)
    assert found == [hashlib.sha1(b"blob %d\0" % len(target) + target).hexdigest(), None, None]
    store = Store.open(root, blob_ids_module.KIND, blob_ids_module._CONTEXT)
    assert [store.get(f"incidents/{name}") for name in names] == [None, None, None]


def test_a_forged_entry_is_believed_only_from_curators_own_store(root, monkeypatch):
    """The trust is the cache store's (a store copied or committed elsewhere is not read:
    `tests/test_cache.py`): curator's own entry, under the file's stat, is taken as it is."""
    monkeypatch.setattr(kept, "SETTLED_NS", 0)
    ids_of(root)
    path = root / "incidents" / "IL-0001.yaml"
    st = path.lstat()
    store = Store.open(root, blob_ids_module.KIND, blob_ids_module._CONTEXT)
    known = f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}"
    store.put("incidents/IL-0001.yaml", [known, "ab" * 20])
    store.save()
    assert ids_of(root)[0] == "ab" * 20
