"""Write an export into a temporary folder beside `--out`, then swap it into place.

Readers of `--out` see the previous export or the new one, never a mix: the new folder
is complete before it is renamed in, and on any failure it is deleted and the previous
export is left as it was. On Linux the two folders trade places in one step
(`renameat2`'s RENAME_EXCHANGE), so that `--out` is there at every moment, even to a run
killed mid-swap; elsewhere two renames, between which it is not. Each file's size and
SHA-256 are taken as it is written.

A run that is killed (SIGKILL, the out-of-memory killer, a CI runner torn down) cannot
delete its temporary folder, ~1.1 GB at 100,000 incidents, so the next export to the same
`--out` does: each export holds a lock on its folder while it lives (`flock`, which the
kernel lets go of when the process ends), and a folder of curator's own name whose lock
is free belongs to an export that is gone.

A per-incident file whose bytes are already in the previous export is hard-linked from
there instead of written: making a file costs 100–200 µs on the machine of
benchmarks/README.md, a link 12 µs, and most incidents do not change between two
exports. The link is made only after reading the old file and finding exactly the new
bytes; the previous export is deleted once this one is swapped in, so nothing else holds
the file afterwards.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import BinaryIO, NamedTuple

from curator.export.errors import ExportError
from curator.export.model import ManifestFile
from curator.signals import deferred, held_off

MANIFEST = "manifest.json"


def target_folder(out: Path) -> Path:
    """`--out` as an absolute path, `.` and `..` resolved by name (a link in it is kept,
    not followed): the temporary folders go beside the export, never inside it, even for
    `--out .`."""
    return Path(os.path.abspath(out))


def check_target(out: Path, data: Iterable[Path] = ()) -> None:
    """Refuse to replace anything but an earlier export (or an empty folder), or to write
    inside the `data` folders the export describes: there it would become part of the
    next export's input (and the checkout would no longer match its commit)."""
    out = target_folder(out)
    # (`realpath`, not `Path.resolve`, which raises on a link that loops on Python 3.11)
    resolved = Path(os.path.realpath(out))
    inside = next((f for f in data if f == resolved or f in resolved.parents), None)
    if inside is not None:
        raise ExportError(
            f"refusing to write into {inside}, which the export is made from: choose a "
            "folder outside incidents/ and schema/taxonomy/"
        )
    if not out.exists():
        if out.is_symlink():  # to nothing, or to itself: the export would fail at the end
            raise ExportError(
                f"{out} is a symbolic link to no folder ({os.readlink(out)}): remove it, or "
                "choose another folder"
            )
        if not out.parent.is_dir():
            raise ExportError(f"cannot write {out}: {out.parent} is not a folder")
        return
    if not out.is_dir():
        raise ExportError(f"{out} exists and is not a folder")
    if not any(out.iterdir()):
        return
    if not (out / MANIFEST).is_file():
        raise ExportError(
            f"{out} is not empty and holds no {MANIFEST}; refusing to replace a folder that "
            f"is not an earlier export{_CHOOSE}"
        )
    unlisted = _unlisted_files(out)
    if unlisted:
        shown = ", ".join(unlisted[:_SHOWN]) + (" …" if len(unlisted) > _SHOWN else "")
        raise ExportError(
            f"{out} holds files that its {MANIFEST} does not list ({shown}); refusing to "
            f"replace a folder that is not an earlier export{_CHOOSE}"
        )


_SHOWN = 5
_CHOOSE = ": choose a new or empty folder, or an earlier export"


def _unlisted_files(out: Path) -> list[str]:
    """The files under `out` that are not its manifest or listed in it; all of them when
    the manifest is not an export's. A web site's folder may well hold a `manifest.json`
    (a web app manifest): only a folder that is all export is replaced, and deleted."""
    try:
        manifest = json.loads((out / MANIFEST).read_bytes())
        listed = {MANIFEST, *(str(entry["path"]) for entry in manifest["files"])}
    except (OSError, ValueError, KeyError, TypeError):
        listed = set()
    root = str(out)
    found: list[str] = []
    for folder, folders, names in os.walk(root):
        # Paths as text, one prefix per folder: an export holds 100,000 files.
        prefix = "" if folder == root else os.path.relpath(folder, root).replace(os.sep, "/") + "/"
        # A link to a folder is an entry of its own (os.walk does not follow it).
        links = [name for name in folders if os.path.islink(os.path.join(folder, name))]
        found += (prefix + name for name in (*names, *links) if prefix + name not in listed)
    return sorted(found)


class Written(NamedTuple):
    """A file `write_file` wrote: its entry in the manifest (`ExportWriter.add`), as plain
    values to cross from a worker (a `ManifestFile` took 5 µs to pickle and unpickle, the
    rest of a rendered incident 8 µs)."""

    path: str
    size: int
    sha256: str


def write_file(folder: Path, path: str, data: bytes, previous: Path | None = None) -> Written:
    """Write one whole file of an export under `folder` (an `ExportWriter`'s), from any
    process: the per-incident files are written by the workers that render them. With
    `previous` (the export being replaced), link the file from there if it holds `data`."""
    # Through the descriptor, not `open` and pathlib: their layers (a path object, a
    # buffered writer) cost more than writing a file of 4 KB, 100,000 times over.
    target = os.path.join(folder, path)
    if previous is None or not _linked(previous / path, target, data):
        try:
            descriptor = _created(target)
            try:
                written = 0
                while written < len(data):  # (a write may stop short: a signal, say)
                    written += os.write(descriptor, data[written:])
            finally:
                os.close(descriptor)
        except OSError as exc:
            raise unwritten(exc, _final_place(folder, path)) from None
    return Written(path, len(data), hashlib.sha256(data).hexdigest())


def unwritten(exc: OSError, place: Path) -> OSError:
    """`exc`, the system's refusal to write a file of the export (a full disk, a quota),
    naming the file where it was to be: it named no file (a write names none), or one in
    the temporary folder, which is deleted with everything in it. (Still an OSError: a
    write that fails as lint renders a file is tried again after it, `render_parsed`.)"""
    exc.filename = str(place)
    return exc


def _final_place(folder: Path, path: str) -> Path:
    """Where `path`, written in the temporary folder `folder` (`_new_partial`'s), is to
    be once the export is swapped in."""
    out = folder.name.removeprefix(".").rpartition(".curator-partial-")[0]
    return folder.parent / out / path


_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)


def _created(target: str) -> int:
    """A new file at `target`, open for writing. One already there (two incidents of one
    id, which lint refuses, each write their file) may be a hard link to the previous
    export's (`_linked`): it is replaced, never written through, which changed the export
    a refused one was to leave as it was."""
    try:
        return os.open(target, _NEW_FILE, 0o666)
    except FileExistsError:
        os.unlink(target)
        return os.open(target, _NEW_FILE, 0o666)


def _linked(old: Path, target: str, data: bytes) -> bool:
    """Hard-link `old` as `target` if it is a regular file holding exactly `data`."""
    try:
        descriptor = os.open(old, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False  # not there (a new incident), or a symbolic link: never followed
    try:
        with os.fdopen(descriptor, "rb") as stream:
            if stream.read(len(data) + 1) != data:
                return False
        os.link(old, target, follow_symlinks=False)
    except OSError:  # no hard links here (another file system, say): write it instead
        return False
    return True


class HashingFile:
    def __init__(self, raw: BinaryIO, place: Path) -> None:
        self._raw = raw
        self._digest = hashlib.sha256()
        self.size = 0
        self.place = place  # (where the file is to be, for an error: `unwritten`)

    def write(self, chunk: bytes) -> None:
        try:
            self._raw.write(chunk)
        except OSError as exc:
            raise unwritten(exc, self.place) from None
        self._digest.update(chunk)
        self.size += len(chunk)

    def close(self) -> None:
        try:
            self._raw.close()  # (closed even when its last write fails)
        except OSError as exc:
            raise unwritten(exc, self.place) from None

    def hexdigest(self) -> str:
        return self._digest.hexdigest()


class ExportWriter:
    """`with ExportWriter(out) as writer:` — files go to a temporary folder until the end.
    `out` is checked at once (`check_target`, with the `data` folders the export is made
    from)."""

    def __init__(self, out: Path, data: Iterable[Path] = ()) -> None:
        check_target(out, data)
        self.out = target_folder(out)
        self.files: list[ManifestFile] = []
        self._temp: Path | None = None
        self._lock: int | None = None

    def __enter__(self) -> ExportWriter:
        _remove_dead_partials(self.out)
        try:
            self._temp, self._lock = _new_partial(self.out)
        except OSError as exc:  # a read-only or foreign folder: the user's to fix, no bug
            raise ExportError(f"cannot write beside {self.out}: {exc.strerror}") from exc
        return self

    @property
    def previous(self) -> Path | None:
        """The export this one replaces, if there is one (see `write_file`)."""
        return self.out if (self.out / MANIFEST).is_file() else None

    @property
    def folder(self) -> Path:
        """The temporary folder being filled, for files written by `write_file`."""
        assert self._temp is not None, "use ExportWriter as a context manager"
        return self._temp

    def add(self, file: Written) -> None:
        """Record a file that `write_file` wrote into `folder`."""
        self.files.append(ManifestFile(path=file.path, size=file.size, sha256=file.sha256))

    def write(self, path: str, chunks: bytes | Iterable[bytes]) -> ManifestFile:
        """Write one file (bytes, or chunks streamed in order) and record its checksum."""
        with self.stream(path) as stream:
            for chunk in [chunks] if isinstance(chunks, bytes) else chunks:
                stream.write(chunk)
        return self.files[-1]

    @contextmanager
    def stream(self, path: str) -> Iterator[HashingFile]:
        """A file to write in pieces, for a file too large to build in memory first."""
        assert self._temp is not None, "use ExportWriter as a context manager"
        target, place = self._temp / path, self.out / path
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            raw = target.open("wb")
        except OSError as exc:
            raise unwritten(exc, place) from None
        stream = HashingFile(raw, place)
        try:
            yield stream
            stream.close()
        except BaseException:
            # The file goes with the temporary folder: what stopped the export says why,
            # and a refusal to write the rest of the file would only hide it.
            with contextlib.suppress(OSError):
                raw.close()
            raise
        self.files.append(ManifestFile(path=path, size=stream.size, sha256=stream.hexdigest()))

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        assert self._temp is not None
        try:
            if kind is None:
                _swap(self._temp, self.out)
        finally:
            _remove(self._temp)  # the unfinished export, or (after an exchange) the old one
            if self._lock is not None:
                os.close(self._lock)


def _partial_prefix(out: Path) -> str:
    """The name of `out`'s temporary folders but for mkdtemp's random end: curator's own,
    never taken for a user's folder (`.export.bak`) by `_remove_dead_partials`."""
    return f".{out.name}.curator-partial-"


def _new_partial(out: Path) -> tuple[Path, int | None]:
    """A new temporary folder beside `out`, and the descriptor that holds its lock (None
    where there are no locks, see `_lock`)."""
    while True:
        folder: Path | None = None
        try:
            # Deferred: a stop between mkdtemp making the folder and this having its name
            # left it beside `out` (until the next export to `out`).
            with deferred():
                folder = Path(tempfile.mkdtemp(prefix=_partial_prefix(out), dir=out.parent))
            lock = _lock(folder, wait=True)
        except FileNotFoundError:
            if folder is None:
                raise
            # Between mkdtemp and the lock, another export starting beside it may take the
            # folder for a dead one's and delete it: then this one's lock is of no folder,
            # or waited for that export's, which it holds while it deletes. Make another.
            continue
        except BaseException:
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
            raise
        if lock is None or _still_at(folder, lock):
            return folder, lock
        os.close(lock)


def _still_at(folder: Path, descriptor: int) -> bool:
    try:
        return os.path.samestat(os.stat(folder, follow_symlinks=False), os.fstat(descriptor))
    except FileNotFoundError:
        return False


def _remove_dead_partials(out: Path) -> None:
    """Delete the temporary folders that exports to `out` killed before their end left
    behind: those of curator's name (never a link), this user's, whose lock no live export
    holds. None where locks cannot be had: a live export could not be told from a dead one."""
    name = re.compile(re.escape(_partial_prefix(out)) + "[a-z0-9_]{8}")  # (mkdtemp's end)
    try:
        names = os.listdir(out.parent)
    except OSError:
        return
    for folder in (out.parent / n for n in names if name.fullmatch(n)):
        try:
            lock = _lock(folder, wait=False)
        except OSError:  # a live export's (BlockingIOError), a link, no folder, gone
            continue
        if lock is None:
            return
        try:
            if os.fstat(lock).st_uid == os.getuid():
                shutil.rmtree(folder, ignore_errors=True)  # (lock held: see _new_partial)
        finally:
            os.close(lock)


def _lock(folder: Path, wait: bool) -> int | None:
    """A descriptor of `folder` that holds its exclusive lock until it is closed, or its
    process ends however it ends; None where there are no locks (Windows; ENOLCK from some
    network file systems). BlockingIOError if another holds it and not `wait`; an OSError
    if `folder` is a link (never followed) or no folder, or is gone."""
    try:
        import fcntl
    except ImportError:
        return None
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except OSError as exc:
        os.close(descriptor)
        if isinstance(exc, BlockingIOError):
            raise
        return None
    return descriptor


def _remove(folder: Path) -> None:
    """Delete a temporary folder: the unfinished export, or the one just replaced. Ctrl-C,
    SIGTERM and SIGHUP are ignored meanwhile (`held_off`): a second Ctrl-C as it went (1.1
    GB at 100,000 incidents takes seconds) left it half deleted, and one once the new
    export was in place ended the run "interrupted", exit 2, though it had succeeded."""
    with held_off():
        if folder.is_symlink():  # `--out` was a link, which the exchange put here: it goes
            folder.unlink(missing_ok=True)
        else:
            shutil.rmtree(folder, ignore_errors=True)


def _swap(new: Path, out: Path) -> None:
    """Put the folder `new` where `out` is; `new` then holds what `out` held, if anything,
    for the caller to delete."""
    os.chmod(new, 0o755)  # mkdtemp makes it private; an export is meant to be read
    if not out.exists():
        os.rename(new, out)
        return
    if _exchange(new, out):
        return
    old: Path | None = None
    lock: int | None = None
    try:
        # Deferred: a stop between the renames left no `out`, the previous export in `old`.
        # `old` is a temporary folder like `new`, locked while this export lives: one that a
        # kill leaves (between the renames, or before it is deleted) is a dead export's,
        # which the next export to `out` deletes (`_remove_dead_partials`).
        with deferred():
            old, lock = _new_partial(out)
            os.rename(out, old / "export")  # from here until the next rename, there is no `out`
            try:
                os.rename(new, out)
            except BaseException:
                os.rename(old / "export", out)
                raise
    finally:
        if old is not None and out.exists():
            _remove(old)
        if lock is not None:
            os.close(lock)


_AT_FDCWD = -100  # <fcntl.h>: paths are taken from the current folder (they are absolute)
_RENAME_EXCHANGE = 2  # <linux/fs.h>
_UNSUPPORTED = {errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP}  # an old kernel, this file system


def _exchange(first: Path, second: Path) -> bool:
    """Swap two folders' names in one step; False where it cannot be done so (not Linux,
    glibc before 2.28, a file system without RENAME_EXCHANGE), having changed nothing."""
    renameat2 = _renameat2()
    if renameat2 is None:
        return False
    if renameat2(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE):
        code = ctypes.get_errno()
        if code in _UNSUPPORTED:
            return False
        raise OSError(code, os.strerror(code), str(first), None, str(second))
    return True


def _renameat2() -> Callable[[int, bytes, int, bytes, int], int] | None:
    """The C library's `renameat2`, or None where there is none to ask."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    function.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    function.restype = ctypes.c_int
    return function
