"""The few questions the export asks git, each answered by one `git` process.

Output that could vary with a user's git configuration (colours, signatures, rename
settings, relative paths) is pinned by flags, so every machine reads the same answers.
Paths given to and returned by this module are relative to the library root, decoded as
Python names files (`os.fsdecode`: UTF-8, other bytes kept as lone surrogates), so that a
file whose name is not UTF-8 is the same path to git as to lint, which reports it.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, NamedTuple, TypeVar

from curator.signals import started

# Config that would otherwise change what `git log` prints, overridden for every call.
_PINNED_CONFIG = (
    "-c", "color.ui=false",
    "-c", "log.showSignature=false",
    "-c", "diff.relative=false",
    "-c", "core.quotePath=false",
    "-c", "log.showRoot=true",  # false hides the files that the first commit adds
    "-c", "diff.renameLimit=1000",  # git's default; lower, numbering commits lose renames
)  # fmt: skip


T = TypeVar("T")

# The attributes that have git write a file to the working tree as other bytes than it
# stores, and store it back as it was, so that `git status` calls it unchanged. (Line ends,
# `text` and `eol`, are left to lint, which refuses a carriage return: IL603.)
CONVERTING = ("ident", "filter", "working-tree-encoding")
# A line of an attributes file, not a comment, that may give a file one of `CONVERTING`:
# naming one, or defining a macro (`[attr]`), which may hold one (`Repo.converting_change`).
_CONVERTING_LINE = "^[^#]*(" + "|".join((*CONVERTING, r"\[attr\]")) + ")"
_LINK = "120000"  # the mode of a symbolic link in a tree


class GitError(Exception):
    """git is missing, the library is not in a usable checkout, or a command failed."""


class TagNotText(GitError):
    """A tag's name that is not UTF-8 text: `tag` shows it, its bytes escaped."""

    def __init__(self, tag: str, advice: str = "rename it") -> None:
        super().__init__(
            f"the tag {tag} is not UTF-8 text, which the export cannot record: {advice}"
        )
        self.tag = tag


class GitMissing(GitError):
    """git itself cannot be run: no question asked of it says anything of the checkout."""


@dataclass(frozen=True)
class Commit:
    sha: str
    time: dt.datetime  # committer time, UTC


# Named tuples, not dataclasses: a library of 100,000 files makes 100,000 of each, at the
# start of an export, while its workers wait (a frozen dataclass takes half as long again).
class TreeEntry(NamedTuple):
    path: str  # relative to the library root
    blob: str
    link: bool = False  # a symbolic link, whose blob is its target


class FileEvent(NamedTuple):
    """One file touched by one commit, as `git log --name-status` reports it."""

    commit: Commit
    status: str  # A, M, D, R (rename), T (type change)
    path: str
    old_path: str | None = None  # for renames


class Running(Generic[T]):
    """A git command under way (`Repo.start`), and what its output means (`parse`); with
    `feed`, the command whose output is its input (`Repo.start`'s `fed_by`).
    `result` waits for it; leaving `with` stops it if nothing did."""

    def __init__(
        self,
        process: subprocess.Popen[bytes],
        name: str,
        stdin: bytes | None,
        parse: Callable[[bytes], T],
        feed: Running[None] | None = None,
    ) -> None:
        self._process, self._name, self._stdin, self._parse = process, name, stdin, parse
        self._feed = feed

    def result(self) -> T:
        """Its parsed output, once it has ended; GitError if it, or its feed, failed."""
        out, err = self._process.communicate(self._stdin)
        if self._feed is not None:  # (after: it ends once this has read all it wrote)
            self._feed.result()
        if self._process.returncode != 0:
            message = err.decode(errors="replace").strip().splitlines()
            code = self._process.returncode
            raise GitError(f"git {self._name} failed: {message[-1] if message else code}")
        return self._parse(out)

    def __enter__(self) -> Running[T]:
        return self

    def __exit__(self, *_: object) -> None:
        if self._process.returncode is None:  # not waited for: an error on the way, say
            self._process.kill()
            self._process.communicate()  # (reaps it, and closes its pipes)
        if self._feed is not None:
            self._feed.__exit__()


def _fed(out: bytes | None) -> None:
    """What a command that feeds another (`Repo.start`'s `fed_by`) leaves to read: nothing."""


def _tag_name(out: bytes) -> str:
    """A tag's name from `git describe`: text the export records (JSON, the feed), so UTF-8."""
    try:
        return out.decode().strip()
    except UnicodeDecodeError:
        shown = out.decode(errors="backslashreplace").strip()
        raise TagNotText(shown) from None


def _is_text(name: bytes) -> bool:
    try:
        name.decode()
    except UnicodeDecodeError:
        return False
    return True


def shown(tag: str) -> str:
    """A tag's name as `tag` shows it: its bytes that are not UTF-8 escaped (`\\xff`)."""
    return os.fsencode(tag).decode(errors="backslashreplace")


def _commit_named(out: bytes) -> str | None:
    return out.decode().strip() or None


def utc(timestamp: str) -> dt.datetime:
    return dt.datetime.fromtimestamp(int(timestamp), dt.UTC)


class Repo:
    """The git checkout that holds a library; `prefix` is the library's folder in it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        inside = self._try("rev-parse", "--is-inside-work-tree")
        if inside is None or inside.strip() != b"true":
            raise GitError(
                f"{root} is not in a git checkout: export dates every incident from git "
                "history, so it needs the library's repository (a clone, not a copy)"
            )
        if self.run("rev-parse", "--is-shallow-repository").strip() == b"true":
            raise GitError(
                "the checkout is shallow, so the history that dates incidents is missing; "
                "fetch it all (git fetch --unshallow, or actions/checkout with fetch-depth: 0)"
            )
        self.prefix = os.fsdecode(self.run("rev-parse", "--show-prefix")).strip()
        self._not_text: list[str] | None = None  # (`not_text`, once listed)

    def run(self, *args: str, stdin: bytes | None = None) -> bytes:
        with self.start(bytes, *args, stdin=stdin) as running:
            return running.result()

    def start(
        self,
        parse: Callable[[bytes], T],
        *args: str,
        stdin: bytes | None = None,
        fed_by: Running[None] | None = None,
    ) -> Running[T]:
        """`git args...` started, not waited for, its output to be read by `parse`; its
        input `stdin`, or the output of `fed_by` (a pipe from one git to the other)."""
        feed = None if fed_by is None else fed_by._process.stdout
        try:
            # (A stop as it starts stops it too: `started`.)
            process = started(
                ["git", *_PINNED_CONFIG, *args],
                cwd=self.root,
                env={**os.environ, "LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0"},
                stdin=feed if feed is not None else None if stdin is None else subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        except FileNotFoundError as exc:
            raise GitMissing("git is not installed or not on PATH") from exc
        finally:
            if fed_by is not None and feed is not None:
                feed.close()  # (the other git's now: it alone reads the feed)
                fed_by._process.stdout = None
        return Running(process, args[0], stdin, parse, fed_by)

    def _try(self, *args: str) -> bytes | None:
        """The output of a question whose failure is an answer (not a checkout, no such
        revision); without git there is no answer, which the caller must not take for one."""
        try:
            return self.run(*args)
        except GitMissing:
            raise
        except GitError:
            return None

    def _relative(self, full_path: str) -> str:
        """A path from the repository's top as a path from the library's folder: `../`
        for each folder up to a file above it (a `.gitattributes`, `attribute_files`)."""
        if full_path.startswith(self.prefix):
            return full_path.removeprefix(self.prefix)
        return "../" * self.prefix.count("/") + full_path

    def commit(self, rev: str = "HEAD") -> Commit:
        """The commit a revision names; `rev` may come from a user, so it is never an option."""
        sha = None
        if rev and not rev.startswith("-"):
            # In two steps: `:/text` (the newest commit whose message matches) reads
            # everything after it as the text, a `^{commit}` appended too.
            named = self._try("rev-parse", "--verify", "--quiet", "--end-of-options", rev)
            if named:
                sha = self._try(
                    "rev-parse", "--verify", "--quiet", f"{named.decode().strip()}^{{commit}}"
                )
        if not sha:
            raise GitError(f"{rev!r} is not a commit of this repository")
        out = self.run("log", "-1", "--format=%H %ct", sha.decode().strip(), "--")
        full, timestamp = out.decode().split()
        return Commit(full, utc(timestamp))

    def dirty(self, paths: Iterable[str]) -> Running[list[str]]:
        """Files under `paths` that differ from HEAD, untracked and ignored ones included:
        lint reads every file there, and an ignored one (`IL-0001.yaml.orig`) is no commit's.
        Started, not waited for: `git status` reads every file's metadata (0.2 s for
        100,000 files), while the caller asks git the rest."""
        args = ("--porcelain=v1", "-z", "--untracked-files=all", "--ignored", "--", *paths)
        return self.start(self._dirty, "status", *args)

    def _dirty(self, out: bytes) -> list[str]:
        tokens = iter(os.fsdecode(out).split("\0"))
        found = []
        for entry in tokens:
            if not entry:
                continue
            found.append(self._relative(entry[3:]))
            if "R" in entry[:2] or "C" in entry[:2]:
                next(tokens, None)  # the rename's source path, which has no status of its own
        return found

    def attribute_files(self, *folders: str) -> tuple[str, ...]:
        """The `.gitattributes` outside `folders` (relative paths) whose lines may name a
        file in them: in the repository's top folder, in each folder down to the library's,
        and in each folder between the library's and one of `folders`; as pathspecs."""
        above = self.prefix.split("/")[:-1]  # ("a/b/": a, b)
        tops = ["/".join(above[:depth]) for depth in range(len(above) + 1)]
        inner = {
            "/".join(parts[:depth])
            for parts in (folder.split("/") for folder in folders)
            for depth in range(1, len(parts))
        }
        return (
            *(f":(top){folder}/.gitattributes".replace(")/", ")") for folder in tops),
            *(f"{folder}/.gitattributes" for folder in sorted(inner)),
        )

    def unwatched(self, paths: Iterable[str]) -> Running[list[tuple[str, str]]]:
        """(path, mark) of the files under `paths` that git is told not to compare with the
        working tree (`update-index --assume-unchanged`, `--skip-worktree`, which a sparse
        checkout sets): `dirty` does not see their changes. Started, not waited for."""
        return self.start(self._unwatched, "ls-files", "-v", "-z", "--full-name", "--", *paths)

    def _unwatched(self, out: bytes) -> list[tuple[str, str]]:
        found = []
        for entry in os.fsdecode(out).split("\0"):
            # `ls-files -v`: a tag, a space, the path; a lower-case tag is assume-unchanged.
            tag, path = entry[:1], entry[2:]
            if tag == "S":
                found.append((self._relative(path), "skip-worktree"))
            elif tag.islower():
                found.append((self._relative(path), "assume-unchanged"))
        return found

    def converted(self, paths: Iterable[str]) -> Running[list[tuple[str, str]]]:
        """(path, attribute) of the files under `paths` that an attribute may have git check
        out as other bytes than it stores, `dirty` none the wiser (`CONVERTING`: `ident`,
        a `filter`, `working-tree-encoding`; macros and every attributes file git reads
        included, as `git check-attr` answers). Started, not waited for: `ls-files` piped
        to `check-attr`, which answer for 10,000 files in 0.01 s, and say nothing at all
        when no attribute applies (`--all`: those set, unset or given a value)."""
        paths = tuple(paths)
        listed = self.start(_fed, "ls-files", "-z", "--", *paths)
        try:
            return self.start(
                self._converted, "check-attr", "--stdin", "-z", "--all", fed_by=listed
            )
        except BaseException:
            listed.__exit__()
            raise

    def _converted(self, out: bytes) -> list[tuple[str, str]]:
        if not any(b"\0%s\0" % name.encode() in out for name in CONVERTING):
            return []  # (no need to read it all: the usual attributes, `text`, `eol`)
        tokens = os.fsdecode(out).split("\0")
        found: dict[str, str] = {}
        for path, name, value in zip(tokens[0::3], tokens[1::3], tokens[2::3], strict=False):
            # (`-ident` too: a filter named `unset` reads the same.)
            if name in CONVERTING:
                found.setdefault(path, name if value == "set" else f"{name}={value}")
        return list(found.items())

    def converting_change(self, paths: Iterable[str]) -> Running[str | None]:
        """The newest commit in HEAD's history that added or took away, in an attributes
        file among `paths`, a line that may give a file one of `CONVERTING`
        (`_CONVERTING_LINE`), else None: git does not check files out again when a commit
        changes their attributes, so files checked out before it (or, by the other, after
        it) may hold other bytes than the commit, which neither `git status` nor
        `converted` (today's attributes) sees. Started, not waited for: a `git log` of
        those few paths, which stops at the first such commit."""
        args = ("-1", "--format=%H", "--no-ext-diff", "--no-textconv", f"-G{_CONVERTING_LINE}")
        return self.start(_commit_named, "log", *args, "HEAD", "--", *paths)

    def describe(self, rev: str = "HEAD", match: str = "v*") -> str:
        """The release tag at `rev`, else `<tag>-<n>-g<sha>` (the tag nearest in its
        history, of those `match` names), else the commit's short sha. A tag that is not
        UTF-8 names no release (`not_text`), and is passed over; but one of `rev` itself
        would name it: TagNotText."""
        own = self.tags_at(rev, text=False) if self.not_text else []
        passed = [f"--exclude={tag}" for tag in self.not_text if tag not in own]
        args = ("describe", "--tags", "--match", match, *passed, "--abbrev=12", "--always", rev)
        return _tag_name(self.run(*args))

    def nearest_tag(self, rev: str = "HEAD") -> str | None:
        """The `v*` tag nearest to `rev` in its history, its own tags passed over: in the
        history of its parents, both of a merge (`git describe`). One that is not UTF-8,
        no release (`not_text`), is passed over too."""
        passed = [f"--exclude={tag}" for tag in (*self.tags_at(rev), *self.not_text)]
        out = self._try("describe", "--tags", "--abbrev=0", "--match", "v*", *passed, rev)
        return _tag_name(out) if out else None  # (a tag's name is no glob: git allows none)

    def tags_at(self, rev: str, text: bool = True) -> list[str]:
        """`tags` of the commit `rev` itself, sorted: in its history, not its parents'. (Not
        `--points-at`, which passes over a tag of a tag of the commit.)"""
        return sorted(set(self.tags(rev, text)) - set(self.tags_before(rev, text)))

    def tags_before(self, rev: str, text: bool = True) -> list[str]:
        """`tags` in the history of the parents of `rev`, every parent of a merge (a
        release merged in from another branch): those of its history but its own; none
        for a first commit."""
        parents = self.run("rev-parse", f"{rev}^@").decode().split()
        return list(dict.fromkeys(tag for p in parents for tag in self.tags(p, text)))

    @property
    def not_text(self) -> list[str]:
        """The `v*` tags whose names are not UTF-8 (`tags(text=False)`), which the export
        takes for no release: it could not record them. Listed once."""
        if self._not_text is None:
            self._not_text = self.tags(text=False)
        return self._not_text

    def passed_over(self) -> list[str]:
        """`not_text` if they were listed already, as a commit was described; else none,
        without asking git: what an export that then fails had passed over by then."""
        return self._not_text or []

    def tags(self, merged: str | None = None, text: bool = True) -> list[str]:
        """The names of the `v*` tags (with `merged`, a commit, those in its history) that
        are UTF-8; with `text` false, those that are not instead, decoded as Python names
        files (`os.fsdecode`), which git is given back as the same bytes. (Not `git tag
        --list`, which `column.ui` sets in columns.)"""
        args: tuple[str, ...] = ("for-each-ref", "--format=%(refname:lstrip=2)")
        if merged is not None:
            args = (*args, f"--merged={merged}")
        out = self.run(*args, "refs/tags/v*")
        return [os.fsdecode(line) for line in out.splitlines() if _is_text(line) == text]

    def tree(self, rev: str, folder: str) -> list[TreeEntry]:
        """The blobs under `folder` at `rev`."""
        with self.listing(rev, folder) as listing:
            return listing.result()

    def listing(self, rev: str, folder: str) -> Running[list[TreeEntry]]:
        """`tree`, started and not waited for, so that the caller can ask git something
        else meanwhile (git lists 100,000 files in 0.05-0.1 s)."""
        return self.start(self._tree, "ls-tree", "-r", "-z", "--full-name", rev, "--", folder)

    def _tree(self, out: bytes) -> list[TreeEntry]:
        entries = []
        for line in os.fsdecode(out).split("\0"):
            if not line:
                continue
            meta, path = line.split("\t", 1)
            mode, kind, blob = meta.split()
            if kind == "blob":
                entries.append(TreeEntry(self._relative(path), blob, mode == _LINK))
        return entries

    def blobs(self, shas: Iterable[str]) -> dict[str, bytes]:
        """The contents of the given blobs, read by one `git cat-file --batch`."""
        wanted = list(dict.fromkeys(shas))
        if not wanted:
            return {}
        out = self.run("cat-file", "--batch", stdin="".join(f"{s}\n" for s in wanted).encode())
        contents: dict[str, bytes] = {}
        offset = 0
        for sha in wanted:
            header_end = out.index(b"\n", offset)
            _sha, _kind, size = out[offset:header_end].decode().split()
            start = header_end + 1
            contents[sha] = out[start : start + int(size)]
            offset = start + int(size) + 1
        return contents

    def log(self, folder: str, rev: str = "HEAD") -> Running[Iterator[FileEvent]]:
        """Every change to files under `folder` on the first-parent history of `rev`,
        oldest first, from a single `git log`: started, not waited for (see `listing`).

        First-parent: a merged pull request counts from its merge into the main line, not
        from the dates of its branch commits.
        """
        return self.start(
            self._file_events,
            "log", rev, "--first-parent", "--diff-merges=first-parent", "--reverse",
            "--no-color", "--find-renames", "--name-status", "-z",
            "--format=%x01%H %ct", "--", folder,
        )  # fmt: skip

    def _file_events(self, out: bytes) -> Iterator[FileEvent]:
        for chunk in out.split(b"\x01")[1:]:
            header, _, body = chunk.partition(b"\0")
            sha, timestamp = header.decode().split()
            commit = Commit(sha, utc(timestamp))
            tokens = os.fsdecode(body.lstrip(b"\n")).split("\0")
            yield from _events(commit, tokens, self._relative)


def _events(
    commit: Commit, tokens: list[str], relative: Callable[[str], str]
) -> Iterator[FileEvent]:
    index = 0
    while index < len(tokens) and tokens[index]:
        status = tokens[index][0]
        if status in ("R", "C"):
            old, new = tokens[index + 1], tokens[index + 2]
            index += 3
            yield FileEvent(commit, status, relative(new), relative(old))
        else:
            path = tokens[index + 1]
            index += 2
            yield FileEvent(commit, status, relative(path))
