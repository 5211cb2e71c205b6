"""Each incident's released data kept by git blob id, for the files a warm lint does not
parse (the "export" store of `curator.cache`, in `.curator-cache/`). See
`curator.export.released` for when an entry is written and trusted.
"""

from __future__ import annotations

import functools
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from curator.cache import LineStore
from curator.library import Library
from curator.lint_cache import code_context


class ReleasedCache:
    """Released data by blob id, in the "export" store of `curator.cache`: a `LineStore`,
    since the data is compact JSON already (pydantic's, as bytes), which the store keeps
    byte for byte. Read all at once and let go (`lookup`), so that each text is freed once
    its incident is rendered; what a run parsed is kept (`keep`) and written in one go
    (`save`), a shard at a time, so that the store's old texts are never all in memory
    beside the new ones."""

    def __init__(self, library: Library, enabled: bool) -> None:
        self.open: Callable[[], LineStore] | None = None
        if enabled:
            self.open = functools.partial(LineStore.open, library.root, "export", context())
        self._new = _Spool()
        self._saving: Future[None] | None = None

    def lookup(self, blobs: Iterable[str]) -> dict[str, bytes]:
        """The kept released data of those of `blobs` the store holds, as the bytes `keep`
        was given. A shard at a time (`Store.take`), each let go before the next is read:
        the store's other texts are never all held beside these."""
        if self.open is None:
            return {}
        # (Anything but what curator writes, a shard's checksum passed, is refused by
        # `render`, as any foreign entry is.)
        return dict(self.open().take(blobs))

    def keep(self, blob: str, released: bytes) -> None:
        """Keep `released` (compact JSON, so one line) for the next `save`. Data with a
        line break is not written (`LineStore`): a miss later, never another entry."""
        if self.open is not None:
            self._new.add(blob, released)

    def save(self, blobs: set[str]) -> None:
        """Write what was kept, and forget the entries of blobs other than these (the
        commit's) in the shards written; then let go of it all (a later `keep` starts
        afresh), so that the texts are freed as soon as nothing else needs them."""
        self.wait()
        if self.open is not None and self._new:
            entries, self._new = self._new, _Spool()
            _write(self.open(), entries, blobs)

    def save_meanwhile(self, blobs: set[str]) -> None:
        """`save`, on a thread of its own, while the workers render; `wait`, or the next
        `save`, waits for it. A cold export of 100,000 incidents writes 335 MB here: ≈0.8 s
        of CPU, joining, hashing and writing the bytes as they are (hashing and writing let
        go of the GIL, so the main process goes on receiving the workers' results)."""
        self.wait()
        if self.open is not None and self._new:
            entries, self._new = self._new, _Spool()
            store = self.open()
            thread = ThreadPoolExecutor(1, thread_name_prefix="released-cache")
            self._saving = thread.submit(_write, store, entries, blobs)
            thread.shutdown(wait=False)  # (its thread ends once the write is done)

    def wait(self) -> None:
        """Until the `save_meanwhile` under way, if any, is done; its error, if it had one."""
        saving, self._saving = self._saving, None
        if saving is not None:
            saving.result()


def _write(store: LineStore, entries: _Spool, blobs: set[str]) -> None:
    try:
        store.update(entries, blobs.__contains__)
    finally:
        entries.close()


class _Spool(Mapping[str, bytes]):
    """Kept released data, in a temporary file rather than in memory: an export keeps
    every incident's (335 MB at 100,000 incidents) from the moment lint renders it to the
    cache's write, which in one pass over the files is the end of lint, beside everything
    else the export then holds. Read back a shard at a time (`Store.update`)."""

    def __init__(self) -> None:
        self._file: Any = None  # made with the first entry
        self._where: dict[str, tuple[int, int]] = {}
        self._end = 0

    def add(self, key: str, value: bytes) -> None:
        if self._file is None:
            # (Closed by `close`, once the store has been written from it.)
            self._file = tempfile.TemporaryFile(prefix="curator-released-")  # noqa: SIM115
        self._file.write(value)
        self._where[key] = (self._end, len(value))
        self._end += len(value)

    def __getitem__(self, key: str) -> bytes:
        offset, size = self._where[key]
        self._file.flush()  # (a no-op once nothing more is added)
        return os.pread(self._file.fileno(), size, offset)

    def __iter__(self) -> Iterator[str]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


def context() -> list[str]:
    """Everything the released data of a file depends on besides its bytes."""
    return code_context()
