"""`curator assign-ids --push`: number placeholders on the default branch and push the
result, redoing the work when another push got there first.

Each attempt starts from the remote branch as it is now (fetch, then reset to it), numbers
the placeholders, commits and pushes. git refuses a push that is not a fast-forward, so if
anything landed on the branch meanwhile — a merge, or another numbering run — the push
fails, and the next attempt numbers again from the new head: two runs can never give out
the same number. The workflow also serialises runs (a concurrency group); this loop covers
what that cannot, such as a merge landing between fetch and push.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from curator.ids import Plan, assign, number_of
from curator.library import INCIDENTS, Library
from curator.signals import held_off, holding, started

_DELETED_INCIDENT = re.compile(rf"^{INCIDENTS}/(IL-[0-9]{{4,}})\.ya?ml$")
_NUMBERED_FILE = re.compile(rf"{INCIDENTS}/IL-[0-9]{{4,}}\.yaml")  # as `assign` names them


class GitError(Exception):
    """A git command failed for a reason other than a concurrent push."""


@dataclass(frozen=True)
class Pushed:
    plan: Plan
    attempts: int
    commit: str | None  # None when there was nothing to number


def git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # `--end-of-options` goes before a REMOTE or BRANCH from the command line: a remote
    # `--upload-pack=CMD` ran CMD.
    command = ["git", *args]
    with _started(command, root) as process:
        try:
            out, err = process.communicate()
        except BaseException:  # Ctrl-C, SIGTERM (curator.signals)
            _stop(process)
            raise
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def _started(command: list[str], root: Path) -> subprocess.Popen[str]:
    """git, started; a stop meanwhile acts once it has, and stops it too (`started`): on
    a busy machine `git add` left running reached its clean filter and held the index's
    lock while the put-back ran `git reset`, which failed."""
    # Under `held_off`, out of the terminal's reach (curator.signals). Not always: in a
    # group of its own, a git that asks for a password at the terminal is stopped there.
    group = 0 if holding() else None
    pipe = subprocess.PIPE
    try:
        return started(
            command,
            _stop,
            cwd=root,
            stdout=pipe,
            stderr=pipe,
            text=True,
            encoding="utf-8",
            process_group=group,
        )
    except FileNotFoundError as exc:  # (it said "curator: git: No such file or directory")
        raise GitError("git is not installed or not on PATH") from exc


def _stop(process: subprocess.Popen[str]) -> None:
    """End git as git ends itself when stopped. subprocess.run would send it SIGKILL, and
    a git killed while it writes the index left `.git/index.lock` behind: every later git
    command in the checkout refused to run until someone deleted it. On SIGTERM git
    deletes its lock files first; one that does not end even so is killed after all."""
    process.terminate()
    try:
        process.wait(_STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()


_STOP_TIMEOUT = 10.0  # seconds


def _must(root: Path, *args: str) -> str:
    done = git(root, *args)
    if done.returncode != 0:
        raise GitError(f"git {' '.join(args)} failed: {_reason(done)}")
    return done.stdout.strip()


def _reason(done: subprocess.CompletedProcess[str]) -> str:
    """Why git failed: its first `fatal:` or `error:` line. The lines after it may be
    advice, whose last line ("and the repository exists.") says nothing on its own."""
    lines = (done.stderr or done.stdout).strip().splitlines()
    said = [line for line in lines if line.startswith(("fatal:", "error:"))]
    if said:
        return said[0]
    return lines[-1] if lines else str(done.returncode)


def deleted_numbers(root: Path) -> set[int]:
    """Numbers of incident files that the history shows deleted: never to be given again."""
    # --no-renames: git log follows renames by default, and an incident file moved to
    # another name (IL-0301.yaml renumbered by hand, or made a placeholder again) is then a
    # rename, not a deletion; its number was given again. --relative: names as from the
    # library's root, which may be a folder of the checkout (as `curator export` allows).
    args = ["--relative", "--no-renames", "--diff-filter=D", "--name-only", "--format="]
    done = git(root, "log", *args, "--", INCIDENTS)
    numbers = set()
    for line in done.stdout.splitlines() if done.returncode == 0 else ():
        match = _DELETED_INCIDENT.match(line.strip())
        number = number_of(match.group(1)) if match else None
        if number is not None:
            numbers.add(number)
    return numbers


def commit_message(result: Plan) -> str:
    lines = [f"{a.placeholder} → {a.number}" for a in result.assignments]
    return "Number new incidents\n\n" + "\n".join(lines) + "\n"


@dataclass
class _Checkout:
    """Where the checkout's HEAD was when the run started, and how far the run took it."""

    root: Path
    start: str
    moved: bool = False  # reset to the remote branch: what is left must be put back
    pushing: str | None = None  # the commit that `git push` is sending, meanwhile


def assign_and_push(
    root: Path,
    remote: str,
    branch: str,
    attempts: int = 5,
    log: Callable[[str], None] = lambda _: None,
) -> Pushed:
    """Number, commit and push; or, when that fails or is stopped, leave the checkout as
    it was (a stop during the push leaves the commit, which the remote may hold)."""
    if _must(root, "status", "--porcelain"):
        raise GitError("the working tree has uncommitted changes; --push starts from the remote")
    checkout = _Checkout(root, _must(root, "rev-parse", "--verify", "HEAD"))
    try:
        return _number_and_push(checkout, remote, branch, attempts, log)
    except BaseException:
        _left(checkout, remote, branch, log)
        raise


def _number_and_push(
    checkout: _Checkout, remote: str, branch: str, attempts: int, log: Callable[[str], None]
) -> Pushed:
    root = checkout.root
    for attempt in range(1, attempts + 1):
        _must(root, "fetch", "--quiet", "--end-of-options", remote, branch)
        base = _must(root, "rev-parse", "FETCH_HEAD")
        if not checkout.moved:
            _nothing_dropped(checkout, base, f"{remote}'s {branch}")
        checkout.moved = True
        _must(root, "reset", "--quiet", "--hard", base)
        result = assign(Library.at(root), deleted_numbers(root))
        if not result.assignments:
            return Pushed(result, attempt, None)
        _must(root, "add", "--all", "--", INCIDENTS)
        _must(root, "commit", "--quiet", "-m", commit_message(result))
        checkout.pushing = _must(root, "rev-parse", "HEAD")
        pushed = git(
            root, "push", "--quiet", "--end-of-options", remote, f"HEAD:refs/heads/{branch}"
        )
        if pushed.returncode == 0:
            # `pushing` kept to the end: a stop once it was cleared (as git was asked for
            # HEAD) said "nothing pushed" and put the checkout back, the push sent.
            return Pushed(result, attempt, checkout.pushing)
        checkout.pushing = None
        _must(root, "fetch", "--quiet", "--end-of-options", remote, branch)
        if _must(root, "rev-parse", "FETCH_HEAD") == base:  # not a race: give up now
            raise GitError(f"git push failed: {pushed.stderr.strip()}")
        if attempt < attempts:
            log(
                f"{branch} moved while numbering (attempt {attempt} of {attempts}); numbering again"
            )
    tries = "1 attempt" if attempts == 1 else f"{attempts} attempts"
    raise GitError(f"{branch} moved while numbering; gave up after {tries}")


def _nothing_dropped(checkout: _Checkout, base: str, named: str) -> None:
    """Refuse to reset a HEAD that holds commits `base` lacks: a contributor's branch, or
    a main with commits not yet pushed. Reset to `base` and numbered, it lost them
    without a word (the run pushed the numbering and only the reflog kept the rest)."""
    if git(checkout.root, "merge-base", "--is-ancestor", checkout.start, base).returncode:
        raise GitError(
            f"HEAD holds commits that {named} does not: --push starts from {named} and "
            f"would drop them; push them first, or run it in a checkout of {named}"
        )


def _left(checkout: _Checkout, remote: str, branch: str, log: Callable[[str], None]) -> None:
    """After a failure or a stop: the checkout as it was, and a line saying so. Half a
    numbering left in the checkout (files renamed, perhaps staged, not committed) made the
    next run refuse the tree, and a reader could not tell it from a finished one."""
    if checkout.pushing is not None:
        log(
            f"stopped while pushing {checkout.pushing[:12]}, which the checkout now holds; "
            f"`git fetch {remote}` shows whether {branch} got it"
        )
    elif checkout.moved:
        # A put-back stopped half-way (a second Ctrl-C reaches `git reset` too) left the
        # checkout neither as it was nor as the run had it; the log below said otherwise.
        with held_off():
            _put_back(checkout)
        log(f"nothing pushed; the checkout is back at {checkout.start[:12]}, as it was")


def _put_back(checkout: _Checkout) -> None:
    """HEAD and the tree as at the start (which was clean), without the numbered files
    the run wrote and had not yet added (`reset --hard` leaves files git does not track)."""
    root = checkout.root
    _must(root, "reset", "--quiet", "--hard", checkout.start)
    untracked = git(root, "ls-files", "-z", "--others", "--exclude-standard", "--", INCIDENTS)
    for name in untracked.stdout.split("\0"):
        if _NUMBERED_FILE.fullmatch(name):
            (root / name).unlink(missing_ok=True)
