"""One bot comment per pull request: found by a hidden marker and its author, then edited,
left alone or created.

A comment counts as ours only if it begins with the marker *and* was written by the bot's
account, so a person quoting the marker is never edited, nor another workflow's comment
(written by the same account) that quotes text holding it, say a pull request's
description. Every page of comments is read
(100 per page). Each attempt reads the thread afresh before writing, so a write that failed
after GitHub had in fact stored it (a 502 from the proxy in front) is found on the next
attempt instead of being made twice; extra copies left by two runs racing are deleted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from github import GithubException
from github.IssueComment import IssueComment
from github.PullRequest import PullRequest

from curator.github.client import not_github
from curator.github.retry import RetryPolicy, with_retries

DEFAULT_AUTHOR = "github-actions[bot]"  # who GITHUB_TOKEN writes as

Action = Literal["created", "edited", "unchanged"]


@dataclass(frozen=True)
class Outcome:
    action: Action
    url: str
    removed: int = 0  # extra copies of our comment that were deleted


def own_comments(pull: PullRequest, marker: str, author: str) -> list[IssueComment]:
    """Our comments on `pull`, oldest first, over every page."""
    return [
        comment
        for comment in _all_comments(pull)
        if (comment.body or "").startswith(marker)
        and comment.user is not None
        and comment.user.login == author
    ]


def _all_comments(pull: PullRequest) -> list[IssueComment]:
    try:
        return list(pull.get_issue_comments())
    except (TypeError, AttributeError) as exc:
        # PyGithub makes comments of whatever a page holds, and fails on what is not one.
        raise not_github(
            f"reading the comments of pull request #{pull.number}",
            "a page of them is not a list of comments",
        ) from exc


def upsert(
    pull: PullRequest,
    body: str,
    marker: str,
    author: str = DEFAULT_AUTHOR,
    policy: RetryPolicy | None = None,
    before_retry: Callable[[], None] = lambda: None,
) -> Outcome:
    """`before_retry` runs before each attempt but the first: a retry may come minutes
    later, when what was checked before the first may no longer hold."""
    if not body.startswith(marker):
        raise ValueError("the comment body must begin with the marker, or it is not found again")
    attempts = 0

    def attempt() -> Outcome:
        nonlocal attempts
        attempts += 1
        if attempts > 1:
            before_retry()
        return _reconcile(pull, body, marker, author)

    return with_retries(
        attempt, policy or RetryPolicy(), f"commenting on pull request #{pull.number}"
    )


def _reconcile(pull: PullRequest, body: str, marker: str, author: str) -> Outcome:
    mine = own_comments(pull, marker, author)
    if not mine:
        created = pull.create_issue_comment(body)
        return Outcome("created", created.html_url)
    keep, extra = mine[0], mine[1:]
    for comment in extra:
        _delete(comment)
    if keep.body == body:
        return Outcome("unchanged", keep.html_url, len(extra))
    try:
        keep.edit(body)
    except GithubException as exc:
        if exc.status != 404:
            raise
        # Deleted since it was read (by a person): the report is posted afresh.
        return Outcome("created", pull.create_issue_comment(body).html_url, len(extra))
    return Outcome("edited", keep.html_url, len(extra))


def _delete(comment: IssueComment) -> None:
    try:
        comment.delete()
    except GithubException as exc:
        if exc.status != 404:
            raise
        # Already gone: a run racing this one deleted the same extra copy first.
