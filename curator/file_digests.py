"""The SHA-256 of each incident file's bytes, remembered between runs under its stat.

The similarity index is kept under a key made of every file's content
(`curator.similarity.store.library_key`); hashing the 100,000 files of a large library
for it took ≈2.5 s of every `curator search`, `suggest` or `similar`. So the digests are
kept in the "file-digests" store of `curator.cache`, one entry per file under its path
relative to the library root, `["size:mtime:ctime:inode", "sha256 hex"]`, and a file
whose stat is the one recorded is not read again.

The stat is lint's (`curator.lint_cache`): recorded only once the file had not changed for
two seconds (`settled_stat`), so that no later change can carry the same times, and taken
before the bytes are read, so that a change while they are read gives a stat that is
never seen again. An entry that is not of that shape is a miss; the store's own checks
(a checksum per shard, the folder's identity in its context) are `curator.cache`'s.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path
from typing import Any

from curator.cache import Store
from curator.library import Library
from curator.lint_cache import settled_stat
from curator.regular import NotRegular, read_regular

KIND = "file-digests"
_CONTEXT = ("file-digests 1",)  # the entries' shape: bump it to change them
# What stands for the bytes of what is not a readable regular file (never a SHA-256).
NOT_REGULAR = b"not a regular file"
UNREADABLE = b"unreadable"


class FileDigests:
    """Digests of the files of one library, answered from the store when their stat holds."""

    def __init__(self, root: Path, store: Store | None) -> None:
        self.prefix = f"{root}{os.sep}"
        self.store = store  # None: nothing kept (the cache is off, or cannot be written)
        self.seen: set[str] = set()

    @classmethod
    def open(cls, library: Library, use_cache: bool = True) -> FileDigests:
        if not use_cache:
            return cls(library.root, None)
        store = Store.open(library.root, KIND, _CONTEXT)
        if not store.enabled:
            return cls(library.root, None)
        store.read_all()  # every file of the library is asked about
        return cls(library.root, store)

    def digest(self, name: str) -> bytes:
        """The SHA-256 of the bytes of the regular file at the path `name` (a link is not
        followed); `NOT_REGULAR` or `UNREADABLE` for anything else. (A path as text: made
        into a `Path` only to be read, as making 100,000 of them cost more than the rest.)"""
        try:
            st = os.lstat(name)
        except OSError:
            return UNREADABLE
        if not stat.S_ISREG(st.st_mode):
            return NOT_REGULAR
        if self.store is None:
            return _hash(Path(name))
        key = name[len(self.prefix) :] if name.startswith(self.prefix) else name
        self.seen.add(key)
        known = f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}"
        kept = _kept_digest(self.store.get(key), known)
        if kept is not None:
            return kept
        digest = _hash(Path(name))
        settled = settled_stat(st)
        if settled is not None and len(digest) == 32:
            self.store.put(key, [settled, digest.hex()])
        return digest

    def save(self) -> None:
        """Write what changed, without the entries of files not asked about this run
        (deleted or renamed since)."""
        if self.store is not None:
            self.store.save(keep=self.seen)


def _kept_digest(entry: Any, known: str) -> bytes | None:
    """The digest of an entry recorded under the stat `known`; None for any other entry."""
    if type(entry) is not list or len(entry) != 2 or entry[0] != known:
        return None
    try:
        digest = bytes.fromhex(entry[1])
    except (TypeError, ValueError):
        return None
    return digest if len(digest) == 32 else None


def _hash(path: Path) -> bytes:
    try:
        return hashlib.sha256(read_regular(path)).digest()
    except NotRegular:
        return NOT_REGULAR
    except OSError:
        return UNREADABLE
