"""What `FileDigests` and `BlobIds` share (curator/stat_keyed.py), asked of both: a value
worked out from a file's bytes is kept under its settled stat, and a file whose stat is the
one kept is not read again."""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

import pytest
from conftest import blob_ids_hashed, files_read, write_library

import curator.blob_ids as blob_ids_module
import curator.file_digests as digests_module
import curator.lint_cache as kept
from curator import repository
from curator.blob_ids import BlobIds
from curator.cache import Store, _shard_of
from curator.file_digests import FileDigests
from curator.library import Library
from incidents import incident

NAMES = ("IL-0001.yaml", "IL-0002.yaml", "IL-0003.yaml")


def ask_ids(root: Path, names: tuple[str, ...]) -> list[Any]:
    """Each file's id, as one review asks for them (and saves them)."""
    ids = BlobIds.open(root)
    found = [ids.of(str(root / "incidents" / name), False, "0" * 40) for name in names]
    ids.save(prune=True)
    return found


def ask_digests(root: Path, names: tuple[str, ...]) -> list[Any]:
    """Each file's digest in hex, as one command run asks for them (and saves them)."""
    digests = FileDigests.open(Library.at(root))
    found = [digests.digest(str(root / "incidents" / name)).hex() for name in names]
    digests.save()
    return found


def git_id(path: Path) -> str:
    """The id git gives the file's bytes as they are (no filter: `--no-filters`)."""
    command = ["git", "hash-object", "--no-filters", str(path)]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()


class Kind(NamedTuple):
    module: ModuleType  # its KIND and _CONTEXT name its store
    ask: Callable[[Path, tuple[str, ...]], list[Any]]
    truth: Callable[[Path], str]  # the value, worked out from the file's bytes
    forged: str  # a value of the right shape that no file of the tests has


@pytest.fixture(
    params=[
        Kind(blob_ids_module, ask_ids, git_id, "ab" * 20),
        Kind(
            digests_module,
            ask_digests,
            lambda p: hashlib.sha256(p.read_bytes()).hexdigest(),
            "ab" * 32,
        ),
    ],
    ids=["blob-ids", "file-digests"],
)
def kind(request: pytest.FixtureRequest) -> Kind:
    return request.param


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_library(tmp_path / "lib", {name: incident(name[:7]) for name in NAMES})


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the files whose bytes either kind read."""
    return blob_ids_hashed(monkeypatch, repository, files_read(monkeypatch, digests_module))


def store_of(kind: Kind, root: Path) -> Store:
    return Store.open(root, kind.module.KIND, kind.module._CONTEXT)


def test_a_settled_file_is_read_once_and_then_answered_by_its_stat(kind, root, reads, monkeypatch):
    monkeypatch.setattr(kept, "SETTLED_NS", 0)  # every file is settled once written
    first = kind.ask(root, NAMES)
    assert first == [kind.truth(root / "incidents" / name) for name in NAMES]
    assert sorted(reads) == list(NAMES)
    reads.clear()
    assert kind.ask(root, NAMES) == first
    assert reads == []


@pytest.mark.parametrize("later", [0, 1_000_000_000])
def test_a_file_edited_in_place_with_its_size_is_read_again(kind, root, reads, monkeypatch, later):
    """With its old mtime put back (`later` 0), its ctime tells."""
    monkeypatch.setattr(kept, "SETTLED_NS", 0)
    first = kind.ask(root, NAMES)
    path = root / "incidents" / "IL-0002.yaml"
    before = path.stat()
    text = path.read_text(encoding="utf-8")
    assert "처리량" in text
    with path.open("r+b") as same_file:  # the same inode, the same size, other bytes
        same_file.write(text.replace("처리량", "처리율", 1).encode())
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + later))
    assert (path.stat().st_size, path.stat().st_ino) == (before.st_size, before.st_ino)
    reads.clear()
    now = kind.ask(root, NAMES)
    assert now[1] == kind.truth(path) != first[1]
    assert (now[0], now[2]) == (first[0], first[2])
    assert reads == ["IL-0002.yaml"]


def test_the_stat_of_a_file_changed_just_now_is_never_kept(kind, root, reads, monkeypatch):
    monkeypatch.setattr(kept, "SETTLED_NS", 10**18)  # nothing has settled
    kind.ask(root, NAMES)
    reads.clear()
    kind.ask(root, NAMES)
    assert sorted(reads) == list(NAMES)


def plant(kind: Kind, root: Path, entry: Any) -> None:
    """After a first run, `entry` kept for IL-0001 ("STAT" in it: the file's stat as curator
    records it)."""
    kind.ask(root, NAMES)
    st = (root / "incidents" / "IL-0001.yaml").lstat()
    known = f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}"
    forged = [known if part == "STAT" else part for part in entry] if type(entry) is list else entry
    store = store_of(kind, root)
    store.put("incidents/IL-0001.yaml", forged)
    store.save()


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
def test_an_entry_curator_does_not_write_is_a_miss(kind, root, reads, monkeypatch, entry):
    monkeypatch.setattr(kept, "SETTLED_NS", 0)
    plant(kind, root, entry)
    reads.clear()
    assert kind.ask(root, NAMES)[0] == kind.truth(root / "incidents" / "IL-0001.yaml")
    assert reads == ["IL-0001.yaml"]


def test_a_forged_value_under_the_right_stat_is_believed_only_from_curators_own_store(
    kind, root, monkeypatch
):
    """The trust is the cache store's (a store copied or committed elsewhere is not read:
    `tests/test_cache.py`): curator's own entry, under the file's stat, is taken as it is."""
    monkeypatch.setattr(kept, "SETTLED_NS", 0)
    plant(kind, root, ["STAT", kind.forged])
    assert kind.ask(root, NAMES)[0] == kind.forged


def test_what_is_not_a_regular_file_is_never_read_nor_kept(kind, root, reads, monkeypatch):
    monkeypatch.setattr(kept, "SETTLED_NS", 0)
    os.mkfifo(root / "incidents" / "IL-0006.yaml")  # reading it would block
    names = ("IL-0006.yaml", "IL-0009.yaml")  # (IL-0009: none)
    kind.ask(root, names)
    assert reads == []
    store = store_of(kind, root)
    assert [store.get(f"incidents/{name}") for name in names] == [None, None]


def test_entries_of_files_gone_are_dropped_when_their_shard_is_written(kind, root, monkeypatch):
    monkeypatch.setattr(kept, "SETTLED_NS", 0)
    kind.ask(root, NAMES)
    live = "incidents/IL-0001.yaml"
    gone = next(  # a file deleted since, whose entry shares a shard with a live file's
        key
        for n in range(10_000)
        if _shard_of(key := f"incidents/IL-{n:04d}-gone.yaml") == _shard_of(live)
    )
    store = store_of(kind, root)
    store.put(gone, ["1:2:3:4", kind.forged])
    store.save()
    os.utime(root / "incidents" / "IL-0001.yaml")  # its entry, and so its shard, rewritten
    kind.ask(root, NAMES)
    again = store_of(kind, root)
    assert again.get(gone) is None
    assert again.get(live) is not None
