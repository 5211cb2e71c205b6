"""The top of the git checkout holding a folder, as git tells it (`git rev-parse
--show-toplevel`): `curator review` compares the library's files from there, and `curator
lint --commit` judges the files a commit names by their place there (`curator.lint`), as
the pre-commit hook names them from there. One answer for both, and git's: a `.git` looked
for upward (what lint did) agreed with git in a clone, a worktree or a submodule, but not
where git is told where the repository is (`GIT_DIR` and `GIT_WORK_TREE`, which `git
--git-dir=… --work-tree=…` sets for the hooks it runs; `core.worktree`): lint then took a
file the review reports (IL107) for a draft kept outside the repository.

git runs in the folder asked about (`git -C`) with curator's own environment, in which a
relative path (`GIT_WORK_TREE=.`, as git sets it for its hooks) means a path from where
curator was started, not from that folder: such paths are made absolute first.
"""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
from pathlib import Path

from curator.signals import started

# What curator's git commands run with: messages as the code reads them, no prompt for a
# password, no lock taken for a read, and paths that are paths (a library folder named
# `:x` or `lib*` is not pathspec magic or a glob).
_FIXED = {"LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0"}
_FIXED["GIT_LITERAL_PATHSPECS"] = "1"
# git's variables holding a path, which a relative value makes relative to git's folder.
_PATHS = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY")

_NONBLOCKING = getattr(os, "O_NONBLOCK", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class NotACheckout(Exception):
    """The folder is in no git checkout (git's message says why)."""


def environment() -> dict[str, str]:
    """The environment for `git -C FOLDER …`: this process's, with `_FIXED`, and git's
    paths as this process means them."""
    env = {**os.environ, **_FIXED}
    for name in _PATHS:
        if env.get(name):
            env[name] = os.path.abspath(env[name])
    return env


def top_of(folder: Path) -> Path:
    """The top folder (resolved) of the git checkout holding `folder`. Raises NotACheckout
    (`folder` outside it, too), or FileNotFoundError when git cannot be run.

    With `GIT_DIR` set, that names the repository, and git takes the folder it starts in
    for its work tree's top when nothing else names one (`GIT_WORK_TREE`, `core.worktree`;
    `git --git-dir=… commit` runs its hooks so): git is asked from where curator was
    started, as the user's own commands ask it, not from `folder`, which it would take for
    the top."""
    asked = os.getcwd() if os.environ.get("GIT_DIR") else str(folder)
    command = ["git", "-C", asked, "rev-parse", "--show-toplevel"]
    pipe = subprocess.PIPE
    with started(command, stdout=pipe, stderr=pipe, env=environment()) as proc:
        try:
            out, err = proc.communicate()
        except BaseException:  # Ctrl-C, SIGTERM (curator.signals): git ends with curator
            proc.kill()
            proc.wait()
            raise
    if proc.returncode != 0:
        said = err.decode("utf-8", "replace").strip().splitlines()
        raise NotACheckout(said[-1] if said else "git rev-parse failed")
    top = Path(os.fsdecode(out).strip()).resolve()
    if not folder.resolve().is_relative_to(top):
        raise NotACheckout(f"its work tree is {top}")
    return top


def blob_id(path: str, link: bool, object_id: str) -> str | None:
    """The id git gives the object that is the working tree's `path` as it stands, in the
    hash of `object_id` (an id of that repository: 40 hex digits for SHA-1, 64 for
    SHA-256): of its bytes, or of a link's target (`link`); None where it is not that kind
    of file, or cannot be read. Equal to `object_id` exactly when the file holds the bytes
    of that object. (`git status` cannot tell: it compares what git would store from the
    file, its line ends normalised by `.gitattributes` or `core.autocrlf`, `ident` and
    filters undone, and never looks at a file marked skip-worktree or assume-unchanged.)"""
    hashed = hashlib.sha256() if len(object_id) == 64 else hashlib.sha1()
    try:
        if link:
            target = os.fsencode(os.readlink(path))
            hashed.update(b"blob %d\0%s" % (len(target), target))
            return hashed.hexdigest()
        # (Not through a link, and not waiting for a FIFO's writer: `curator.regular`.)
        fd = os.open(path, os.O_RDONLY | _NONBLOCKING | _NOFOLLOW)
    except OSError:
        return None
    try:
        size = os.fstat(fd)
        if not stat.S_ISREG(size.st_mode):
            return None
        left = size.st_size
        hashed.update(b"blob %d\0" % left)
        while left > 0 and (piece := os.read(fd, min(left, 1 << 20))):
            hashed.update(piece)
            left -= len(piece)
    except OSError:
        return None
    finally:
        os.close(fd)
    return hashed.hexdigest()
