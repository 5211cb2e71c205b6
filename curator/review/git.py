"""The git plumbing `curator review` needs: revisions, the changed files, old contents, and
the library as it stands at a commit. Nothing here interprets incidents.

Every call is `git` with a list of arguments (no shell), `--end-of-options` before anything a
user typed, literal pathspecs, and NUL-separated output, so no file name or revision can be
taken for an option or a pattern, or split wrongly.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO, Literal, NamedTuple

from curator import repository
from curator.oneline import escaped
from curator.regular import oversized
from curator.review import ReviewError
from curator.signals import started

Change = Literal["added", "changed", "renamed", "removed"]

_STATUS: dict[str, Change] = {"A": "added", "M": "changed", "T": "changed", "R": "renamed"}
_STATUS["D"] = "removed"
_MISSING = "git is not installed or not on PATH (curator review needs it)"
# The id git gives the working tree's file at a path, a link or not, in the hash of an id.
BlobId = Callable[[str, bool, str], str | None]


class GitError(ReviewError):
    """git is missing, the folder is not a checkout, or a revision does not exist."""


class GitMissing(GitError):
    """git itself cannot be run: no answer about the checkout."""


@dataclass(frozen=True)
class FileChange:
    change: Change
    path: str  # repository-relative, as at the head (as at the base when removed)
    old_path: str | None = None  # the path at the base, for renames


def run_git(cwd: Path, *args: str) -> bytes:
    with _running(cwd, *args) as proc:
        out, err = proc.communicate()
    if proc.returncode != 0:
        message = err.decode("utf-8", "replace").strip().splitlines()
        raise GitError(message[-1] if message else f"git {_command(args)} failed")
    return out


def _command(args: tuple[str, ...]) -> str:
    """The git command `args` run (`diff` of `-c core.bigFileThreshold=… diff …`)."""
    at = 0
    while at < len(args) and args[at] == "-c":
        at += 2  # (an option and its value)
    return args[at] if at < len(args) else "command"


@contextmanager
def _running(cwd: Path, *args: str, stdin: int | None = None) -> Iterator[subprocess.Popen[bytes]]:
    """`git -C cwd args...` (`_started`), for the block; a stop or an error meanwhile ends
    git too, at once. Leaving it to `Popen`, Ctrl-C waited 0.25 s for git and left it
    running, or a zombie until curator ended; SIGTERM waited for git to finish."""
    with _started(cwd, *args, stdin=stdin) as proc:
        try:
            yield proc
        except BaseException:  # Ctrl-C, SIGTERM (curator.signals)
            proc.kill()
            proc.wait()
            raise


def _started(cwd: Path, *args: str, stdin: int | None = None) -> subprocess.Popen[bytes]:
    """`git -C cwd args...`, its output piped; a stop as it starts stops it too."""
    try:
        return started(
            ["git", "-C", str(cwd), *args],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=repository.environment(),
        )
    except FileNotFoundError as exc:
        raise GitMissing(_MISSING) from exc


def toplevel(folder: Path) -> Path:
    """The checkout's top folder, as `curator lint --commit` finds it too."""
    try:
        return repository.top_of(folder)
    except FileNotFoundError as exc:
        raise GitMissing(_MISSING) from exc
    except repository.NotACheckout as exc:
        raise GitError(f"{folder} is not inside a git checkout ({exc})") from exc


def commit_of(repo: Path, revision: str) -> str:
    """The full SHA of the commit `revision` names."""
    if not revision or revision.startswith("-"):
        raise GitError(f"{revision!r} is not a revision")
    try:
        # In two steps: `:/text` (the newest commit whose message matches) reads everything
        # after it as the text, a `^{commit}` appended too.
        named = run_git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", revision)
        out = run_git(
            repo, "rev-parse", "--verify", "--quiet", named.decode().strip() + "^{commit}"
        )
    except GitError:
        out = b""
    sha = out.decode("ascii", "replace").strip()
    if not sha:
        raise GitError(f"no commit {revision!r} in {repo}: {_how_to_fetch(revision)}")
    return sha


def _how_to_fetch(revision: str) -> str:
    """What brings `revision` into the checkout. A commit named by its hash is most often
    a pull request's, as the comment's footer names them; a fork's is on no branch of the
    repository, so `git fetch` alone never brings it, only its pull request's ref does."""
    if _HASH.fullmatch(revision):
        return (
            "fetch it first: `git fetch origin` brings the branches' commits; a pull "
            "request's head, a fork's too, comes with `git fetch origin pull/NUMBER/head` "
            "(NUMBER: the pull request's)"
        )
    return (
        "no branch, tag or commit of that name here (`git fetch origin` brings the remote's "
        "branches, named `origin/BRANCH`)"
    )


_HASH = re.compile(r"[0-9a-fA-F]{4,64}")  # as git takes a commit's hash or its start


def merge_base(repo: Path, base: str, head: str) -> str:
    """Where `head` forked from `base`: what a pull request's "Files changed" compares with.
    Falls back to `base` itself for unrelated histories, but not in a shallow clone, where
    the fork point may just not be fetched: the base branch's later additions would then
    read as deleted by the change."""
    try:
        out = run_git(repo, "merge-base", "--end-of-options", base, head)
    except GitError:
        out = b""
    found = out.decode("ascii").strip()
    if not found and _is_shallow(repo):
        raise GitError(
            f"{base[:12]} and {head[:12]} have no common commit in this shallow clone: fetch "
            "their history (`git fetch --unshallow`, or `fetch-depth: 0` for actions/checkout)"
        )
    return found or base


def _is_shallow(repo: Path) -> bool:
    return run_git(repo, "rev-parse", "--is-shallow-repository").strip() == b"true"


def changed_files(repo: Path, base: str, head: str, *folders: str) -> list[FileChange]:
    """Files under `folders` (repository-relative, ending in /) that differ from base to head,
    renames detected."""
    out = run_git(
        repo,
        "diff",
        "--name-status",
        "-z",
        "-M",
        "--no-relative",
        "--no-ext-diff",
        "--end-of-options",
        base,
        head,
        "--",
        *folders,
    )
    return list(_parse_name_status(out))


# A hunk's header in a diff without context (`-U0`): where its lines are at the head, and
# how many (1 when not said; 0 for a hunk that only removes).
_HUNK = re.compile(rb"@@ -[0-9]+(?:,[0-9]+)? \+([0-9]+)(?:,([0-9]+))? @@")
# The bytes of paths `lines_changed` and `tree_entries` name on git's command line, at
# most: a change to every incident of a large library would pass the system's limit on a
# command's arguments (2 MB on Linux), and git would not start. Beyond it, git answers for
# every file (the whole diff, the whole tree) and the files asked for are picked from that.
_NAMED_AT_MOST = 256 * 1024
# git's escapes in a quoted name (`"b/a\"b"`): its octal bytes, and these.
_ESCAPED = {b"a": 7, b"b": 8, b"t": 9, b"n": 10, b"v": 11, b"f": 12, b"r": 13}


def lines_changed(
    repo: Path, base: str, head: str, files: Sequence[tuple[str, str | None]], limit: int
) -> dict[str, frozenset[int]]:
    """For each of `files` (its path at `head`, and its path at `base` for a rename), the
    lines its diff from `base` adds or rewrites: those a pull request's "Files changed" shows
    as the change's, where an annotation is shown (one on another line is not). One `git
    diff -U0` for them all; a file it gives no such line has none (a rename alone), nor
    one of more than `limit` bytes on either side, which git is not asked to compare (a
    pull request may make an incident hundreds of megabytes, each of them diffed and read
    back)."""
    if not files:
        return {}
    paths = [p for path, old_path in files for p in (old_path, path) if p is not None]
    if _named_bytes(paths) > _NAMED_AT_MOST:
        paths = []  # the whole diff, the files picked from it
    out = run_git(
        repo,
        "-c",
        f"core.bigFileThreshold={limit}",  # "Binary files … differ", and no hunk
        "diff",
        "-U0",
        "-M",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        "--no-relative",
        "--src-prefix=a/",  # whatever diff.noprefix or diff.mnemonicPrefix say
        "--dst-prefix=b/",
        "--end-of-options",
        base,
        head,
        "--",
        *paths,
    )
    lines: dict[str, set[int]] = {path: set() for path, _ in files}
    path: str | None = None
    header = False
    # Without context, every line of a file's diff starts with +, - or \ once its first
    # hunk has begun: `diff --git` and `@@` at the start of a line are git's own, and so
    # is `+++` before the first hunk (the file's name at the head, /dev/null if removed).
    for line in out.split(b"\n"):
        if line.startswith(b"diff --git "):
            path, header = None, True
        elif header and line.startswith(b"+++ "):
            path = _diff_name(line[4:])
        elif hunk := _HUNK.match(line):
            header = False
            start, count = int(hunk[1]), int(hunk[2] or b"1")
            if path in lines:
                lines[path].update(range(start, start + count))
    return {path: frozenset(numbers) for path, numbers in lines.items()}


def _diff_name(raw: bytes) -> str | None:
    """The path a diff's `+++ b/…` line names (None for /dev/null): unquoted where git
    quoted it (`"b/a\\"b"`, `"b/\\355\\225\\234"`), without the tab git writes after a name
    holding a space."""
    raw = raw.removesuffix(b"\t")  # a tab in the name itself is quoted, as \t
    if raw.startswith(b'"') and raw.endswith(b'"'):
        raw = _unquoted(raw[1:-1])
    if not raw.startswith(b"b/"):
        return None
    return raw[2:].decode("utf-8", "surrogateescape")


def _unquoted(quoted: bytes) -> bytes:
    """A name as git quotes it (C style, between the quotes): `\\"`, `\\\\`, `\\t`, … and
    `\\303\\251`, an octal byte each."""
    out = bytearray()
    at = 0
    while at < len(quoted):
        byte = quoted[at : at + 1]
        if byte != b"\\":
            out += byte
            at += 1
        elif quoted[at + 1 : at + 2].isdigit():
            out.append(int(quoted[at + 1 : at + 4], 8))
            at += 4
        else:
            escape = quoted[at + 1 : at + 2]
            out.append(_ESCAPED.get(escape, escape[0] if escape else 92))
            at += 2
    return bytes(out)


def _parse_name_status(out: bytes) -> Iterator[FileChange]:
    fields = [f.decode("utf-8", "surrogateescape") for f in out.split(b"\0")]
    i = 0
    while i < len(fields) and fields[i]:
        status = fields[i][0]
        if status in "RC":
            old, new = fields[i + 1], fields[i + 2]
            i += 3
            if status == "C":  # a copy leaves the original in place: the copy is new
                yield FileChange("added", new)
            else:
                yield FileChange("renamed", new, old)
            continue
        path = fields[i + 1]
        i += 2
        yield FileChange(_STATUS.get(status, "changed"), path)


def file_at(repo: Path, commit: str, path: str, limit: int) -> bytes | None:
    """The bytes of `path` at `commit`, or None if it is not a file there; never more than
    `limit` + 1 of them: a larger blob is an `Oversized` of its size, as
    `curator.regular.read_at_most` reads a file (a pull request may add one of gigabytes,
    which was read whole into memory)."""
    with _running(repo, "cat-file", "blob", f"{commit}:{path}") as proc:
        assert proc.stdout is not None
        raw = proc.stdout.read(limit + 1)
        if len(raw) > limit:
            proc.kill()  # the rest is not wanted
        proc.communicate()
    if len(raw) > limit:
        return oversized(raw, _size_at(repo, commit, path))
    return raw if proc.returncode == 0 else None


def _size_at(repo: Path, commit: str, path: str) -> int:
    return int(run_git(repo, "cat-file", "-s", f"{commit}:{path}"))


def files_at(
    repo: Path, commit: str, listed: Sequence[TreeEntry], limit: int
) -> dict[str, bytes | None]:
    """`file_at` of each blob of `listed` (`tree_entries` with their sizes: files, and links,
    whose bytes are the path they hold, as `git cat-file blob` gives them), by path, from
    one `git cat-file --batch`, where a process for each file took ≈3.5 ms (a change to
    every incident of 100,000: six minutes). A blob of more than `limit` bytes is read by
    `file_at`, which stops git after the bytes it keeps."""
    found: dict[str, bytes | None] = {}
    small = []
    for entry in listed:
        if entry.kind != b"blob":
            continue
        assert entry.size is not None, "files_at reads entries listed with their sizes"
        if entry.size > limit:
            found[entry.path] = file_at(repo, commit, entry.path, limit)
        else:
            small.append(entry)
    if not small:
        return found
    with _running(repo, "cat-file", "--batch", stdin=subprocess.PIPE) as proc:
        assert proc.stdout is not None
        for entry, size in _objects(proc, small):
            found[entry.path] = _copied(proc.stdout, size, None, size)
    return found


def present_at(repo: Path, commit: str, *paths: str) -> list[str]:
    """Those of `paths` that `commit` has (files or folders), in the order given."""
    found = {entry.path for entry in tree_entries(repo, commit, paths)}
    return [path for path in paths if path in found]


_REGULAR = (b"100644", b"100755")  # a file's modes (a link's is 120000, a submodule's 160000)


class TreeEntry(NamedTuple):
    """An entry of a commit's tree, as `git ls-tree` lists it. (A tuple: made ≈2× as fast
    as a frozen dataclass, for each of a library's 100,000 files.)"""

    mode: bytes  # 100644 or 100755 (a file), 120000 (a link), 160000 (a submodule), 040000
    kind: bytes  # blob (a file or a link), tree (a folder) or commit (a submodule)
    sha: bytes  # the object's name
    size: int | None  # a blob's bytes, where they were asked for; None otherwise
    path: str  # repository-relative, its bytes as git has them (surrogateescape)

    @property
    def is_regular(self) -> bool:
        """A file: not a link, a folder or a submodule."""
        return self.kind == b"blob" and self.mode in _REGULAR


def tree_entries(
    repo: Path,
    commit: str,
    paths: Sequence[str],
    *,
    recursive: bool = False,
    sized: bool = False,
) -> list[TreeEntry]:
    """The entries `paths` name in `commit`'s tree, in the tree's order: each one's own, or,
    `recursive`, the files, links and submodules under a folder in its place; each blob's
    size with it where `sized` (git then reads every blob's header: ≈0.1 s more for the
    100,000 files of a whole library). One `git ls-tree -z`; past `_NAMED_AT_MOST` bytes
    of names, which would pass the system's limit on a command's arguments, the whole tree
    is listed and the entries `paths` name picked from it."""
    if not paths:
        return []
    options = ["-l"] if sized else []
    whole = _named_bytes(paths) > _NAMED_AT_MOST
    if whole:
        # (-t: the folders too, as a listing of `paths` not `recursive` has them.)
        every = ["-r"] if recursive else ["-r", "-t"]
        out = run_git(repo, "ls-tree", *every, *options, "-z", "--full-tree", commit)
    else:
        options = ["-r", *options] if recursive else options
        out = run_git(repo, "ls-tree", *options, "-z", "--full-tree", commit, "--", *paths)
    asked = set(paths)
    picked = whole or not recursive  # (a recursive listing of `paths` holds only theirs)
    entries = []
    for line in out.split(b"\0"):
        info, tab, name = line.partition(b"\t")
        if not tab:
            continue  # (after the last entry's NUL)
        fields = info.split()  # mode, type, object name[, size: "-" where no blob's]
        path = name.decode("utf-8", "surrogateescape")
        if not picked or _names(asked, path, recursive):
            size = int(fields[3]) if sized and fields[1] == b"blob" else None
            entries.append(TreeEntry(fields[0], fields[1], fields[2], size, path))
    return entries


def _names(asked: set[str], path: str, recursive: bool) -> bool:
    """Whether `asked` names `path`: itself, or, `recursive`, a folder holding it."""
    if path in asked:
        return True
    return recursive and any(path[:at] in asked for at, char in enumerate(path) if char == "/")


def _named_bytes(paths: Sequence[str]) -> int:
    """The bytes `paths` take on git's command line."""
    return sum(len(p.encode("utf-8", "surrogateescape")) + 1 for p in paths)


def holding_lines(repo: Path, commit: str, paths: list[str], *patterns: str) -> set[str]:
    """Those of `paths` (files at `commit`) with a line matching each of `patterns`
    (extended regular expressions): one `git grep` for them all."""
    if not paths:
        return set()
    expressions = [arg for pattern in patterns for arg in ("-e", pattern)]
    # --no-color: `color.grep=always` in the user's config would colour the names.
    options = ["-l", "-z", "-I", "-E", "--no-color", "--all-match", *expressions]
    args = ["grep", *options, commit, "--", *paths]
    with _running(repo, *args) as proc:
        out, err = proc.communicate()
    if proc.returncode not in (0, 1):  # 1: no file matched
        said = err.decode("utf-8", "replace").strip().splitlines()
        raise GitError(said[-1] if said else "git grep failed")
    named = out.decode("utf-8", "surrogateescape").split("\0")
    return {name.removeprefix(f"{commit}:") for name in named if name}


def head_commit(repo: Path) -> str | None:
    try:
        return commit_of(repo, "HEAD")
    except GitError:
        return None


def is_clean(repo: Path, *paths: str) -> bool:
    """No staged, unstaged, untracked or ignored file under `paths`: lint reads every file
    there, and an ignored one (`IL-0001.yaml.orig`, an editor's backup) is no commit's."""
    out = run_git(
        repo, "status", "--porcelain", "-z", "--untracked-files=all", "--ignored", "--", *paths
    )
    return out == b""


def holds_commit(
    repo: Path, commit: str, *paths: str, blob_id: BlobId = repository.blob_id
) -> bool:
    """Whether each file, link and submodule `commit` has under `paths` is in the working
    tree with the very bytes the commit has (`blob_id`: `repository.blob_id`, or one that
    gives its answers, such as `curator.blob_ids.BlobIds.of`). Together with `is_clean`,
    which finds the files the commit does not have, the checkout is then the commit, as
    lint reads it."""
    top = os.path.join(repo, "")
    for entry in _entries_at(repo, commit, paths):
        if entry.mode == _SUBMODULE:  # (an empty folder in a copy: `is_clean` tells)
            continue
        sha = entry.sha.decode("ascii")
        if blob_id(top + entry.path, entry.mode == _LINK, sha) != sha:
            return False
    return True


def materialise(repo: Path, commit: str, target: Path, *paths: str) -> None:
    """Write `paths` as they are at `commit` under `target`, without touching the checkout,
    its index or its worktree list: each file's bytes as committed (in pieces: a file may be
    of gigabytes), a link as a link and a submodule as an empty folder, as a checkout has
    them. Not with `git archive`, which follows the commit's `.gitattributes` (a pull
    request's: `export-ignore` left a broken incident out of what was linted, `ident` and
    `eol` rewrote the bytes) and left links out (a link in incidents/ went unreported)."""
    places = _Places(target)
    entries = [e for e in _entries_at(repo, commit, paths) if places.of(e.path)]
    for entry in entries:
        if entry.mode == _SUBMODULE:
            with _writing(entry.path, commit):
                places.made(entry.path).mkdir(exist_ok=True)
    blobs = [e for e in entries if e.mode != _SUBMODULE]
    links: list[tuple[str, bytes]] = []
    with _running(repo, "cat-file", "--batch", stdin=subprocess.PIPE) as proc:
        assert proc.stdout is not None
        for entry, size in _objects(proc, blobs):
            if entry.mode == _LINK:  # (made last: nothing is written through a link)
                links.append((entry.path, _copied(proc.stdout, size, None, _MAX_LINK)))
            else:
                with _writing(entry.path, commit), _created(places.made(entry.path)) as out:
                    _copied(proc.stdout, size, out, 0)
    for path, link in links:
        places.folders.clear()  # (a link made may be on the way to the next)
        destination = places.of(path)
        if destination is not None:
            with _writing(path, commit), contextlib.suppress(FileExistsError):  # (named twice)
                destination.parent.mkdir(parents=True, exist_ok=True)
                os.symlink(link, destination)


@contextmanager
def _writing(path: str, commit: str) -> Iterator[None]:
    """What the system refuses as `path` is written out said of that path, not of the
    temporary folder: git holds names no file system does (a name of 300 bytes), which a
    checkout refuses too, and which the review cannot lint."""
    try:
        yield
    except OSError as exc:
        said = exc.strerror or str(exc)
        where = f"{escaped(path)} of commit {commit[:12]}"
        raise ReviewError(f"cannot write {where} for the review: {said}") from exc


_SUBMODULE, _LINK = b"160000", b"120000"
# Object names of 41 bytes a line (65 in a SHA-256 repository): a batch written stays
# within a pipe's buffer (64 KiB on Linux, 16 KiB to start with on macOS), so that the
# write never waits for git, which may wait for its output to be read.
_BATCH = 200
_MAX_LINK = 4096  # the longest path a link may hold (PATH_MAX)


def _entries_at(repo: Path, commit: str, paths: tuple[str, ...]) -> list[TreeEntry]:
    """The files, links and submodules under `paths` at `commit`."""
    try:
        return tree_entries(repo, commit, paths, recursive=True)
    except GitError as exc:
        raise GitError(f"cannot read {' and '.join(paths)} at {commit[:12]} ({exc})") from exc


class _Places:
    """Where each path goes under `target`: None where that would be outside it, for an
    absolute path, a `..`, or a folder on the way that is a link (git refuses such trees,
    but the reviewed commit is a stranger's; the links it holds are made last, and a commit
    written into a folder holding another's may meet one)."""

    def __init__(self, target: Path) -> None:
        self.target = target
        self.real = Path(os.path.realpath(target))
        self.folders: dict[PurePosixPath, bool] = {}  # (asked once each)

    def of(self, path: str) -> Path | None:
        relative = PurePosixPath(path)
        if relative.is_absolute() or ".." in relative.parts or not relative.parts:
            return None
        folder = relative.parent
        if folder not in self.folders:
            inside = self.real.joinpath(*folder.parts)
            self.folders[folder] = Path(os.path.realpath(self.target / folder)) == inside
        return self.target.joinpath(*relative.parts) if self.folders[folder] else None

    def made(self, path: str) -> Path:
        """`of(path)`, known to be inside, with its folder made."""
        destination = self.of(path)
        assert destination is not None
        destination.parent.mkdir(parents=True, exist_ok=True)
        return destination


def _created(destination: Path) -> IO[bytes]:
    """A new file at `destination`, open for writing; or, where something is there already
    (a link of a tree this one is written into), `os.devnull`: never written through."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
    try:
        return open(os.open(destination, flags, 0o644), "wb")
    except FileExistsError:
        return open(os.devnull, "wb")


def _objects(
    proc: subprocess.Popen[bytes], entries: Sequence[TreeEntry]
) -> Iterator[tuple[TreeEntry, int]]:
    """Each of `entries` with its size, from `git cat-file --batch` (`proc`), whose output
    then holds that many bytes of it, which the caller reads before asking for the next.
    A batch of names at a time, each batch's objects read before the next is asked for:
    git never waits to write while we wait to write (no thread needed)."""
    assert proc.stdin is not None and proc.stdout is not None
    for at in range(0, len(entries), _BATCH):
        batch = entries[at : at + _BATCH]
        proc.stdin.write(b"".join(e.sha + b"\n" for e in batch))
        proc.stdin.flush()
        for entry in batch:
            yield entry, _object_size(proc.stdout, entry)
            proc.stdout.read(1)  # the newline after each object
    proc.stdin.close()  # (so git ends)
    proc.wait()


def _object_size(stream: IO[bytes], entry: TreeEntry) -> int:
    """The size `git cat-file --batch` gives for the object it sends next."""
    header = stream.readline().split()
    if len(header) != 3 or header[0] != entry.sha:
        raise GitError(f"cannot read {entry.path} ({b' '.join(header).decode(errors='replace')})")
    return int(header[2])


def _copied(stream: IO[bytes], size: int, into: IO[bytes] | None, keep: int) -> bytes:
    """`size` bytes of `stream`, in pieces, written `into` a file; the first `keep` of them
    returned."""
    kept = b""
    while size:
        piece = stream.read(min(size, 1 << 16))
        if not piece:
            raise GitError("git cat-file ended early")
        if into is not None:
            into.write(piece)
        if len(kept) < keep:
            kept += piece[: keep - len(kept)]
        size -= len(piece)
    return kept
