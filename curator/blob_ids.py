"""git's object id of each file of a checkout, remembered between runs under its stat.

`curator review` reviews the checkout itself, rather than the commit written out to a
folder of its own, only where the checkout holds the commit's very bytes: each file's
object id, as git would give its bytes (`repository.blob_id`), is the commit's
(`curator.review.git.holds_commit`). Every review so read and hashed every file of the
library, where lint and the similarity index answer an unchanged one by its stat: at
100,000 incidents, the only pass of a warm review that still read them all.

So the ids are kept under each file's stat (`curator.stat_keyed`), as `curator.file_digests`
keeps its digests, in the "blob-ids" store: `["size:mtime:ctime:inode", "hex id"]`. A file
git checked out again (`core.autocrlf`, `ident`) or changed behind a skip-worktree mark has
another stat. A link's target is read each time (it is no file's bytes to spare), and an id
of another length than the commit's (SHA-256 or SHA-1) is a miss.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from curator import repository
from curator.stat_keyed import StatKeyed

KIND = "blob-ids"
_CONTEXT = ("blob-ids 1",)  # the entries' shape: bump it to change them


class BlobIds(StatKeyed):
    """The object ids of the files of one library, answered from the store where a file's
    stat is the one recorded with its id."""

    @classmethod
    def open(cls, root: Path) -> BlobIds:
        """The ids kept for the library at `root`, all read at once: a review asks about
        every file."""
        return cls(root, cls.opened(root, KIND, _CONTEXT, every_file=True))

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
        kept = self.kept(path, st)
        if type(kept) is str and len(kept) == len(object_id):
            return kept
        found = repository.blob_id(path, False, object_id)  # (after the stat was taken)
        if found is not None:
            self.keep(path, st, found)
        return found
