"""Open a file only if it is a regular file, and never through a symbolic link: anything
else named like an incident or a cache entry (a FIFO, a link to a device or to a file
outside the library) could block, never end, or show what is not the library's; it is a
finding of lint's (IL107) or a cache miss."""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from pathlib import Path
from typing import BinaryIO

_NONBLOCKING = getattr(os, "O_NONBLOCK", 0)  # (POSIX; elsewhere there are no FIFOs to fear)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class NotRegular(OSError):
    """The path names something other than a regular file."""


def open_regular(path: Path) -> BinaryIO:
    """The regular file at `path` (never through a link), open for reading. Raises OSError, and
    `NotRegular` for anything else. Asked of the open file, not by a stat first: no race;
    opened without blocking, so that a FIFO does not wait for a writer."""
    fd, _ = _opened(path)
    try:
        return open(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _opened(path: Path) -> tuple[int, os.stat_result]:
    """`open_regular`'s file descriptor, and its stat."""
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCKING | _NOFOLLOW)
    except OSError as exc:
        if exc.errno == errno.ELOOP and _NOFOLLOW:
            raise NotRegular(errno.ELOOP, "a symbolic link, never followed", str(path)) from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegular(errno.EINVAL, "not a regular file", str(path))
        return fd, st
    except BaseException:
        os.close(fd)
        raise


class Oversized(bytes):
    """The first bytes of a file larger than the limit it was read with (one past it: what
    tells it is too large), and the file's `size`."""

    size: int


def read_regular(path: Path, limit: int | None = None) -> bytes:
    """The bytes of the regular file at `path`; see `open_regular`. With `limit`, never
    more than `limit` + 1 of them (`read_at_most`). An incident of 50 MB was read whole
    to be refused."""
    if limit is None:
        with open_regular(path) as stream:
            return stream.read()
    fd, st = _opened(path)  # (no file object: making one cost more than the reading)
    try:
        return read_at_most(fd, st.st_size, limit)
    finally:
        os.close(fd)


def read_at_most(fd: int, size: int, limit: int) -> bytes:
    """The bytes of the open file `fd`, of `size` bytes as a stat said: at once, then to
    the end (it may have grown since); but never more than `limit` + 1 of them: a larger
    file, one growing as it is read too, is an `Oversized`, read no further."""
    at_most = limit + 1
    raw = os.read(fd, min(size, at_most))
    # (64 KiB a read at most after the first: os.read sets aside what it is asked for,
    # and `stream.read(limit + 1)` cost 50 µs a file so. Once `at_most` bytes are read, it
    # is asked for none, and gives none.)
    while chunk := os.read(fd, min(1 << 16, at_most - len(raw))):
        raw += chunk
    return raw if len(raw) < at_most else oversized(raw, os.fstat(fd).st_size)


def content_digest(raw: bytes) -> str:
    """What a cache keeps a file's results under (lint's findings, the export's released
    data, a taxonomy file's part of a context): the SHA-256 of its bytes as read; of an
    `Oversized`, of its start and its size, so that a file grown since its finding was
    kept (its start the same) is not said at its old size. (No file read whole is its
    start and a size: it is shorter.)"""
    hashed = hashlib.sha256(raw)
    if isinstance(raw, Oversized):
        hashed.update(b"\0%d" % raw.size)
    return hashed.hexdigest()


def oversized(raw: bytes, size: int) -> Oversized:
    """`raw`, the first bytes of a file of `size` bytes (or more: as many as were read)."""
    cut = Oversized(raw)
    cut.size = max(size, len(raw))
    return cut
