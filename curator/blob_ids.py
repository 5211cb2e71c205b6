"""git's object id of each file of a checkout, remembered between runs under its stat.

`curator review` reviews the checkout itself, rather than the commit written out to a
folder of its own, only where the checkout holds the commit's very bytes: each file's
object id, as git would give its bytes (`repository.blob_id`), is the commit's
(`curator.review.git.holds_commit`). Every review so read and hashed every file of the
library, where lint and the similarity index answer an unchanged one by its stat: at
100,000 incidents, the only pass of a warm review that still read them all.

So the ids are kept as `curator.file_digests` keeps its digests, and on the same terms: in
the "blob-ids" store of `curator.cache` (checked shards; the folder's identity in their
context, so that a cache committed or copied is never read), one entry per regular file
under its path relative to the library root, `["size:mtime:ctime:inode", "hex id"]`. The
stat is taken before the bytes are read and recorded only once settled (`settled_stat`):
a file changed since, in place and with its old size, even its old mtime put back, has
another ctime and is read again; so is a file git checked out again (`core.autocrlf`,
`ident`) or one changed behind a skip-worktree mark. A link's target is read each time (it
is no file's bytes to spare), and an id of another length than the commit's (a SHA-256
repository's, a SHA-1 one's) is a miss.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from curator import repository
from curator.cache import Store
from curator.lint_cache import settled_stat

KIND = "blob-ids"
_CONTEXT = ("blob-ids 1",)  # the entries' shape: bump it to change them


class BlobIds:
    """The object ids of the files of one library, answered from the store where a file's
    stat is the one recorded with its id."""

    def __init__(self, root: Path, store: Store | None) -> None:
        self.prefix = f"{root}{os.sep}"
        self.store = store  # None: nothing kept (the folder cannot be written, or is a link)
        self.seen: set[str] = set()

    @classmethod
    def open(cls, root: Path) -> BlobIds:
        """The ids kept for the library at `root`, all read at once: a review asks about
        every file."""
        store = Store.open(root, KIND, _CONTEXT)
        if not store.enabled:
            return cls(root, None)
        store.read_all()
        return cls(root, store)

    def of(self, path: str, link: bool, object_id: str) -> str | None:
        """`repository.blob_id(path, link, object_id)`: the file is read only where its
        stat is not the one recorded with an id of `object_id`'s kind."""
        if link or self.store is None:
            return repository.blob_id(path, link, object_id)
        try:
            st = os.lstat(path)
        except OSError:
            return None
        if not stat.S_ISREG(st.st_mode):
            return None  # (as `blob_id` answers, without opening it)
        key = path[len(self.prefix) :] if path.startswith(self.prefix) else path
        self.seen.add(key)
        known = f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}"  # (`_stat_text`)
        entry = self.store.get(key)
        if (
            type(entry) is list
            and len(entry) == 2
            and entry[0] == known
            and type(entry[1]) is str
            and len(entry[1]) == len(object_id)
        ):
            return entry[1]
        found = repository.blob_id(path, False, object_id)
        settled = settled_stat(st)  # (the stat taken before the bytes were read)
        if found is not None and settled is not None:
            self.store.put(key, [settled, found])
        return found

    def save(self, prune: bool) -> None:
        """Write what changed; with `prune`, where every file of the library was asked
        about, without the entries of the others (deleted or renamed since)."""
        if self.store is not None:
            self.store.save(keep=self.seen if prune else None)
