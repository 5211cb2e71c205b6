"""Write a file so that readers see either the old bytes or the new ones, never half."""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from io import BufferedWriter
from pathlib import Path

from curator.regular import read_regular
from curator.signals import deferred


class ChangedMeanwhile(Exception):
    """The file no longer holds the bytes its new content was made from: nothing written."""

    def __init__(self) -> None:
        super().__init__("the file changed while curator was rewriting it; run again")


def write_atomic(
    path: Path,
    data: bytes,
    *,
    exclusive: bool = False,
    replacing: bytes | None = None,
    like: Path | None = None,
) -> None:
    """Replace `path` with `data` (write a temporary file beside it, then rename).

    The file keeps its permission bits, and its owner and group where the process may give
    them (`_keep_owner`); with `like`, it takes those of that file instead. With
    `exclusive`, the file must not exist yet and an existing one is never overwritten,
    even by a concurrent writer (FileExistsError). With `replacing`, the file is replaced
    only if it is still a regular file holding those bytes, the ones `data` was made from:
    an edit saved, or the file deleted, since they were read is never overwritten (or
    brought back): ChangedMeanwhile. (A file that holds `data` already, written by another
    run, is left as it is.)
    An OSError names `path`.
    """
    try:
        _write(path, data, exclusive, replacing, like)
    except OSError as exc:
        # The temporary file is what the system refused (a read-only file system, a full
        # disk, a name taken), but not a name the user knows: "….IL-0001.yaml.2xk.tmp".
        exc.filename, exc.filename2 = str(path), None
        raise


def _write(
    path: Path, data: bytes, exclusive: bool, replacing: bytes | None, like: Path | None
) -> None:
    original = _stat_of(like or (None if exclusive else path))
    mode = stat.S_IMODE(original.st_mode) if original is not None else _new_file_mode()
    with made_beside(path) as (temporary, handle):
        with handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
            if original is not None:
                _keep_owner(handle.fileno(), original)
        os.chmod(temporary, mode)  # (after the owner: a chown clears set-id bits)
        # Checked last, the moment before the rename: a run rewriting many files read
        # them long before, and an editor may have saved one since. (A write between this
        # check and the rename still goes unseen; no file system offers a rename that
        # compares first.)
        if replacing is not None:
            now = _bytes_of(path)
            if now == data:
                temporary.unlink()
                return
            if now != replacing:
                raise ChangedMeanwhile
        if exclusive:
            os.link(temporary, path)  # fails, atomically, if `path` exists
            temporary.unlink()
        else:
            os.replace(temporary, path)


@contextmanager
def made_beside(path: Path) -> Iterator[tuple[Path, BufferedWriter]]:
    """A new temporary file beside `path`, and a handle to write it, for the block to put
    in place (or delete); closed and deleted if the block raises, a stop included. A
    leading dot keeps it out of every listing of incidents/: `.IL-0001.yaml.k2x8.tmp`."""
    temporary: Path | None = None
    handle: BufferedWriter | None = None
    try:
        # Deferred: Ctrl-C (or SIGTERM) between mkstemp making the file and this keeping
        # its name left the file behind, with no name to delete, and its descriptor open.
        with deferred():
            fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
            temporary = Path(name)
            handle = os.fdopen(fd, "wb")
        yield temporary, handle
    except BaseException:
        if handle is not None:
            handle.close()  # (closed already, unless the stop came as `deferred` ended)
        if temporary is not None:
            temporary.unlink(missing_ok=True)
        raise


@contextmanager
def temporary_folder(prefix: str | None = None) -> Iterator[Path]:
    """`tempfile.TemporaryDirectory`, made under `deferred`: a stop between mkdtemp making
    the folder and TemporaryDirectory keeping its name, to delete it, left it in the
    system's temporary folder for good."""
    with ExitStack() as stack:
        with deferred():
            name = stack.enter_context(tempfile.TemporaryDirectory(prefix=prefix))
        yield Path(name)


def remove_unchanged(path: Path, read: bytes) -> None:
    """Delete `path` if it is still a regular file holding `read`, the bytes it was read
    as; else ChangedMeanwhile (an edit saved since is the user's, and a file gone stays
    gone): `write_atomic(replacing=)`'s promise, for a file to delete."""
    if _bytes_of(path) != read:
        raise ChangedMeanwhile
    path.unlink()


def _bytes_of(path: Path) -> bytes | None:
    try:
        return read_regular(path)
    except OSError:  # gone, or no longer a regular file
        return None


def _stat_of(path: Path | None) -> os.stat_result | None:
    if path is None:
        return None
    try:
        return path.stat()
    except FileNotFoundError:
        return None


def _keep_owner(fd: int, original: os.stat_result) -> None:
    """Give the new file the owner and group of the one it replaces, as far as the process
    may: root gives both back (a file of another user's rewritten by `sudo curator fmt`
    became root's), an owner the group if a member of it. Where it may not, the file is
    the writer's, as an editor saving it would leave it; the rewrite goes on."""
    made = os.fstat(fd)
    if (made.st_uid, made.st_gid) == (original.st_uid, original.st_gid):
        return  # (the common case: one fstat, no chown)
    for uid in (original.st_uid, -1):  # (-1: the group alone, when the owner may not be)
        try:
            os.fchown(fd, uid, original.st_gid)
            return
        except OSError:
            continue


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
