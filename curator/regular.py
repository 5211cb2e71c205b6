"""Open a file only if it is a regular file, and never through a symbolic link: anything
else named like an incident or a cache entry (a FIFO, a link to a device or to a file
outside the library) could block, never end, or show what is not the library's; it is a
finding of lint's (IL107) or a cache miss."""

from __future__ import annotations

import errno
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
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCKING | _NOFOLLOW)
    except OSError as exc:
        if exc.errno == errno.ELOOP and _NOFOLLOW:
            raise NotRegular(errno.ELOOP, "a symbolic link, never followed", str(path)) from None
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegular(errno.EINVAL, "not a regular file", str(path))
        return open(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: Path) -> bytes:
    """The bytes of the regular file at `path`; see `open_regular`."""
    with open_regular(path) as stream:
        return stream.read()
