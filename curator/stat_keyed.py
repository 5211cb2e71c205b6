"""A value worked out from each file's bytes, remembered between runs under the file's stat.

Shared by `curator.file_digests` and `curator.blob_ids`: a store of `curator.cache` (checked
shards; the folder's identity in their context, so that a cache committed or copied is never
read), one entry per regular file under its path relative to the library root,
`["size:mtime:ctime:inode", value]`. The stat is lint's (`curator.lint_cache`): taken before
the bytes are read, so that a change while they are read gives a stat never seen again, and
recorded only once the file had not changed for two seconds (`settled_stat`), so that no
later change can carry the same times (one in place, with the old size and mtime put back,
has another ctime). An entry of another shape is a miss.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from curator.cache import Store
from curator.lint_cache import cache_key, settled_stat


class StatKeyed:
    """The values kept for the files of one library (in `store`; None: nothing is kept), and
    the files asked about in this run, whose entries a pruning `save` keeps."""

    def __init__(self, root: Path, store: Store | None) -> None:
        self.prefix = f"{root}{os.sep}"
        self.store = store
        self.seen: set[str] = set()

    @staticmethod
    def opened(root: Path, kind: str, context: tuple[str, ...], every_file: bool) -> Store | None:
        """The store, or None where it cannot be used (cannot be written, or is a link);
        `every_file`: read all at once, for a run that asks about (nearly) every file."""
        store = Store.open(root, kind, context)
        if store.enabled and every_file:
            store.read_all()
        return store if store.enabled else None

    def kept(self, path: str, st: os.stat_result) -> Any:
        """The value kept for the regular file at `path` under its stat `st` (None: none)."""
        if self.store is None:
            return None
        # (`cache_key` and `_stat_text` inlined: 100,000 files a run)
        key = path[len(self.prefix) :] if path.startswith(self.prefix) else path
        self.seen.add(key)
        entry = self.store.get(key)
        known = f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}"
        return entry[1] if type(entry) is list and len(entry) == 2 and entry[0] == known else None

    def keep(self, path: str, st: os.stat_result, value: str) -> None:
        """Record `value`, worked out from the bytes read after `st` was taken, if settled."""
        settled = settled_stat(st)
        if self.store is not None and settled is not None:
            self.store.put(cache_key(path, self.prefix), [settled, value])

    def save(self, prune: bool = True) -> None:
        """Write what changed; with `prune`, for a run that asked about every file of the
        library, without the entries of files not asked about (deleted or renamed since)."""
        if self.store is not None:
            self.store.save(keep=self.seen if prune else None)
