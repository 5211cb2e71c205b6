"""The SHA-256 of each incident file's bytes, remembered between runs under its stat.

The similarity index is kept under a key made of every file's content
(`curator.similarity.store.library_key`), and `curator fmt` keeps its verdicts under each
file's digest (`curator.fmt`); reading and hashing the 100,000 files of a large library
took 3 s of every `curator search`, `suggest`, `similar` and `fmt`. So the digests are
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
from curator.load import MAX_BYTES
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
    def open(cls, library: Library, use_cache: bool = True, every_file: bool = True) -> FileDigests:
        """The digests kept for `library`; `every_file`: for a run that asks about (nearly)
        every file, which reads them all at once (else each shard as it is needed)."""
        if not use_cache:
            return cls(library.root, None)
        store = Store.open(library.root, KIND, _CONTEXT)
        if not store.enabled:
            return cls(library.root, None)
        if every_file:
            store.read_all()
        return cls(library.root, store)

    def digest(self, name: str) -> bytes:
        """The SHA-256 of the bytes of the regular file at the path `name` (a link is not
        followed); `NOT_REGULAR` or `UNREADABLE` for anything else. (A path as text: made
        into a `Path` only to be read, as making 100,000 of them cost more than the rest.)"""
        return self.read(name)[1]

    def read(self, name: str) -> tuple[bytes | None, bytes]:
        """The bytes of the file at `name` if they had to be read (None when its stat
        vouched for a digest kept earlier, or it is no readable regular file), and its
        digest as `digest` gives it."""
        try:
            st = os.lstat(name)
        except OSError:
            return None, UNREADABLE
        if not stat.S_ISREG(st.st_mode):
            return None, NOT_REGULAR
        key = name[len(self.prefix) :] if name.startswith(self.prefix) else name
        if self.store is not None:
            self.seen.add(key)
            known = f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}"
            kept = _kept_digest(self.store.get(key), known)
            if kept is not None:
                return None, kept
        try:
            content = read_regular(Path(name), MAX_BYTES)  # (incident files)
        except NotRegular:
            return None, NOT_REGULAR
        except OSError:
            return None, UNREADABLE
        digest = hashlib.sha256(content).digest()
        settled = settled_stat(st)
        if self.store is not None and settled is not None:
            self.store.put(key, [settled, digest.hex()])
        return content, digest

    def save(self, prune: bool = True) -> None:
        """Write what changed; with `prune`, for a run that asked about every file of the
        library, without the entries of files not asked about (deleted or renamed since)."""
        if self.store is not None:
            self.store.save(keep=self.seen if prune else None)


def _kept_digest(entry: Any, known: str) -> bytes | None:
    """The digest of an entry recorded under the stat `known`; None for any other entry."""
    if type(entry) is not list or len(entry) != 2 or entry[0] != known:
        return None
    try:
        digest = bytes.fromhex(entry[1])
    except (TypeError, ValueError):
        return None
    return digest if len(digest) == 32 else None
