"""The SHA-256 of each incident file's bytes, remembered between runs under its stat.

The similarity index is kept under a key made of every file's content
(`curator.similarity.store.library_key`), and `curator fmt` keeps its verdicts under each
file's digest (`curator.fmt`); reading and hashing the 100,000 files of a large library
took 3 s of every `curator search`, `suggest`, `similar` and `fmt`. So the digests are
kept under each file's stat (`curator.stat_keyed`), in the "file-digests" store,
`["size:mtime:ctime:inode", "sha256 hex"]`, and a file whose stat is the one recorded is
not read again.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path
from typing import Any

from curator.library import Library
from curator.load import MAX_BYTES
from curator.regular import NotRegular, read_regular
from curator.stat_keyed import StatKeyed

KIND = "file-digests"
_CONTEXT = ("file-digests 1",)  # the entries' shape: bump it to change them
# What stands for the bytes of what is not a readable regular file (never a SHA-256).
NOT_REGULAR = b"not a regular file"
UNREADABLE = b"unreadable"


class FileDigests(StatKeyed):
    """Digests of the files of one library, answered from the store when their stat holds."""

    @classmethod
    def open(cls, library: Library, use_cache: bool = True, every_file: bool = True) -> FileDigests:
        """The digests kept for `library` (`every_file`: see `StatKeyed.opened`)."""
        if not use_cache:
            return cls(library.root, None)
        return cls(library.root, cls.opened(library.root, KIND, _CONTEXT, every_file))

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
        kept = _kept_digest(self.kept(name, st))
        if kept is not None:
            return None, kept
        try:
            content = read_regular(Path(name), MAX_BYTES)  # (incident files)
        except NotRegular:
            return None, NOT_REGULAR
        except OSError:
            return None, UNREADABLE
        digest = hashlib.sha256(content).digest()
        self.keep(name, st, digest.hex())
        return content, digest


def _kept_digest(value: Any) -> bytes | None:
    """The digest a kept value stands for; None for a value curator does not write."""
    try:
        digest = bytes.fromhex(value)
    except (TypeError, ValueError):
        return None
    return digest if len(digest) == 32 else None
