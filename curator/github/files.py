"""The files a pull request changes, as GitHub lists them: the trusted view of which of them
can change the pull request's own review (curator/review/tooling.py)."""

from __future__ import annotations

from itertools import islice

from github import GithubException
from github.File import File
from github.PullRequest import PullRequest

from curator.github.client import explain
from curator.github.retry import GaveUp, RetryPolicy, with_retries
from curator.review.tooling import ChangedTooling, changes_the_review

MAX_LISTED = 3_000  # GitHub lists no more of a pull request's files (30 pages of 100)
NAMED = 5  # paths named in the warning; the rest are counted


def changed_tooling(pull: PullRequest, policy: RetryPolicy) -> ChangedTooling:
    """Every page of `GET /pulls/{number}/files`, up to GitHub's 3,000 files, retried as a
    whole as retry.py allows. A rename counts by both its names: moving a rule out of
    curator/ changes the review as much as editing it."""
    what = f"listing the files of pull request #{pull.number}"
    try:
        listed = with_retries(lambda: _listed(pull), policy, what)
    except (GithubException, GaveUp, OSError) as exc:
        raise explain(exc, what, reading="the pull request's files") from exc
    paths = list(
        dict.fromkeys(path for names in listed for path in names if changes_the_review(path))
    )
    total = pull.changed_files  # read with the pull request: no request
    # (Only past GitHub's cap: a count from before a push is not taken for unlisted files.)
    unlisted = max(total - len(listed), 0) if len(listed) >= MAX_LISTED else 0
    return ChangedTooling(
        number=pull.number,
        base=pull.base.sha,
        head=pull.head.sha,
        paths=tuple(paths[:NAMED]),
        count=len(paths),
        listed=len(listed),
        unlisted=unlisted,
    )


def _listed(pull: PullRequest) -> list[list[str]]:
    """Each file's names (its path, and its old path if it was renamed), for at most
    MAX_LISTED files whatever the answers' `Link` headers say."""
    return [_names(file) for file in islice(pull.get_files(), MAX_LISTED)]


def _names(file: File) -> list[str]:
    old = file.previous_filename
    return [file.filename] if old is None else [file.filename, old]
