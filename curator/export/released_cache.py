"""Each incident's released data kept by the SHA-256 of its file's bytes, for the files a
warm lint does not parse (the "export" store of `curator.cache`, in `.curator-cache/`).
See `curator.export.released` for when an entry is written and trusted.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from curator.cache import LineStore
from curator.library import Library
from curator.lint_cache import code_context
from curator.signals import deferred
from curator.workers import Workers


class ReleasedCache:
    """Released data by the SHA-256 of a file's bytes, in the "export" store of
    `curator.cache`: a `LineStore`, since the data is JSON on one line already (pydantic's,
    as bytes: see `curator.export.released.released_text`), which the store keeps byte
    for byte. Read all at once and let go (`lookup`), so that each text is freed once its
    incident is rendered; what a run parsed is kept (`keep`) and written in one go
    (`save`), a shard at a time, so that the store's old texts are never all in memory
    beside the new ones."""

    def __init__(self, library: Library, enabled: bool) -> None:
        self.open: Callable[[], LineStore] | None = None
        if enabled:
            self.open = functools.partial(LineStore.open, library.root, "export", context())
        self._new = _Spool()
        self._saving: Future[None] | None = None
        self._sent: _Write | None = None  # what a write sent to a worker was given

    def lookup(self, digests: Iterable[str]) -> dict[str, bytes]:
        """The kept released data of those of `digests` the store holds, as the bytes `keep`
        was given. A shard at a time (`Store.take`), each let go before the next is read:
        the store's other texts are never all held beside these."""
        if self.open is None:
            return {}
        # (Anything but what curator writes, a shard's checksum passed, is refused by
        # `render`, as any foreign entry is.)
        return dict(self.open().take(digests))

    @property
    def keeping(self) -> bool:
        """Whether `keep` keeps anything (not with the cache off, `--no-cache`)."""
        return self.open is not None

    def keep(self, digest: str, released: bytes) -> None:
        """Keep `released` (JSON on one line) for the next `save`. Data with a line break
        is not written (`LineStore`): a miss later, never another entry."""
        if self.open is not None:
            self._new.add(digest, released)

    def save(self, digests: set[str]) -> None:
        """Write what was kept, and forget the entries of digests other than these (of the
        library's files) in the shards written; then let go of it all (a later `keep` starts
        afresh), so that the texts are freed as soon as nothing else needs them."""
        self.wait()
        if self.open is not None and self._new:
            entries, self._new = self._new, _Spool()
            _write(self.open(), entries, digests)

    def save_meanwhile(self, digests: set[str], workers: Workers | None = None) -> None:
        """`save`, while the caller goes on: on one of `workers` if there are any (a cold
        export of 100,000 incidents writes 375 MB here, ≈2 s, which a worker otherwise
        idle after lint does while the main process works out the cross-file findings and
        writes the aggregate files), else on a thread of its own (hashing and writing let
        go of the GIL). `wait`, or the next `save`, waits for it; nothing kept, nothing
        to wait for."""
        if self.open is None or not self._new:
            return
        self.wait()
        entries, self._new = self._new, _Spool()
        store = self.open()
        saving = workers.submit(_write_spooled, store, entries, digests) if workers else None
        if saving is not None:
            self._saving, self._sent = saving, (store, entries, digests)
            return
        thread = ThreadPoolExecutor(1, thread_name_prefix="released-cache")
        self._saving = thread.submit(_write, store, entries, digests)
        thread.shutdown(wait=False)  # (its thread ends once the write is done)

    def __enter__(self) -> ReleasedCache:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        """Wait for the write under way (after an error, without adding its own), and
        delete what was kept and not written: an export refused after lint kept 375 MB."""
        try:
            if kind is None:
                self.wait()
            else:
                with contextlib.suppress(Exception):
                    self.wait()
        finally:
            self._new.close()

    def wait(self) -> None:
        """Until the `save_meanwhile` under way, if any, is done; its error, if it had one."""
        saving, self._saving = self._saving, None
        sent, self._sent = self._sent, None
        if saving is None:
            return
        try:
            saving.result()
        except Exception:
            if sent is None:
                raise
            _write(*sent)  # the worker died, or failed: done here, where its error is ours
        finally:
            if sent is not None:
                sent[1].close()  # (the spool: the worker only read it)


_Write = tuple[LineStore, "_Spool", set[str]]  # what `_write` is given


def _write(store: LineStore, entries: _Spool, digests: set[str]) -> None:
    try:
        store.update(entries, digests)
    finally:
        entries.close()


def _write_spooled(store: LineStore, entries: _Spool, digests: set[str]) -> None:
    """`_write`, in a worker: the spool is the main process's to delete (`wait`)."""
    store.update(entries, digests)


class _Spool(Mapping[str, bytes]):
    """Kept released data, in a temporary file rather than in memory: an export keeps
    every incident's (375 MB at 100,000 incidents) from the moment lint renders it to the
    cache's write, which in one pass over the files is the end of lint, beside everything
    else the export then holds. Read back a shard at a time (`Store.update`), here or in a
    worker process, which is sent a name to open the file by and the entries' places
    (`__reduce__`). On Linux the file is deleted as soon as it is made, and named through
    `/proc` while the process that made it holds it open, so that an export killed on the
    way (SIGKILL, out of memory) leaves nothing in the temporary folder; elsewhere the
    process that made it deletes it (`close`)."""

    def __init__(
        self, name: str | None = None, where: dict[str, tuple[int, int]] | None = None
    ) -> None:
        self._name = name  # to open the file by, made with the first entry (None: not yet)
        self._path: str | None = None  # its path, while this process must delete it
        self._file: Any = None  # open here
        self._where: dict[str, tuple[int, int]] = where or {}
        self._end = 0

    def add(self, key: str, value: bytes) -> None:
        if self._file is None:
            # Deferred: a stop between mkstemp making the file and this keeping it (its
            # name, to delete; its descriptor, to close) left it in the temporary folder.
            with deferred():
                descriptor, self._path = tempfile.mkstemp(prefix="curator-released-")
                # (A large buffer: 100,000 texts of ≈3.4 KB each, few system calls.)
                self._file = os.fdopen(descriptor, "w+b", buffering=1 << 20)
                self._name = self._path
                alias = f"/proc/{os.getpid()}/fd/{descriptor}"
                if sys.platform == "linux" and os.path.exists(alias):
                    os.unlink(self._path)
                    self._name, self._path = alias, None
        self._file.write(value)
        self._where[key] = (self._end, len(value))
        self._end += len(value)

    def __getitem__(self, key: str) -> bytes:
        offset, size = self._where[key]
        if self._file is None:  # received: the file is opened here, for reading
            self._file = open(self._name or "", "rb")  # noqa: SIM115 (closed by `close`)
        self._file.flush()  # (a no-op once nothing more is added)
        return os.pread(self._file.fileno(), size, offset)

    def __iter__(self) -> Iterator[str]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)

    def __reduce__(self) -> tuple[Any, ...]:
        if self._file is not None:
            self._file.flush()  # what the worker will read is in the file
        return _Spool, (self._name, self._where)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        if self._path is not None:
            with contextlib.suppress(OSError):
                os.unlink(self._path)
            self._path = None
        self._name = None


def context() -> list[str]:
    """Everything the released data of a file depends on besides its bytes."""
    return code_context()
