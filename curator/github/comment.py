"""One bot comment per pull request: found by a hidden marker and its author, then edited,
left alone or created.

A comment counts as ours only if it begins with the marker *and* was written by the bot's
account, so a person quoting the marker is never edited, nor another workflow's comment
(written by the same account) that quotes text holding it, say a pull request's
description. Every page of comments is read
(100 per page). Each attempt reads the thread afresh before writing, so a write that failed
after GitHub had in fact stored it (a 502 from the proxy in front) is found on the next
attempt instead of being made twice; extra copies left by two runs racing are deleted.
A token that posts as another account than the author given is said to, not taken for a
missing permission: its comments would never be found again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal

from github import GithubException
from github.IssueComment import IssueComment
from github.PullRequest import PullRequest

from curator.github.client import PERMISSION, Forbidden, GitHubError, not_github
from curator.github.retry import RetryPolicy, is_rate_limit, with_retries

DEFAULT_AUTHOR = "github-actions[bot]"  # who GITHUB_TOKEN writes as

Action = Literal["created", "edited", "unchanged"]


@dataclass(frozen=True)
class Outcome:
    action: Action
    url: str
    removed: int = 0  # extra copies of our comment that were deleted

    def __post_init__(self) -> None:
        if not isinstance(self.url, str):  # PyGithub keeps what it was given, None too
            raise TypeError(f"the comment's address is {self.url!r}")


def own_comments(pull: PullRequest, marker: str, author: str) -> list[IssueComment]:
    """Our comments on `pull`, oldest first, over every page."""
    return [
        comment
        for comment in _all_comments(pull)
        if (comment.body or "").startswith(marker)
        and comment.user is not None
        and _same_account(comment.user.login, author)
    ]


def _same_account(login: str, other: str) -> bool:
    """GitHub's logins ignore case: `--author Incident-Curator[bot]` is incident-curator[bot]."""
    return login.lower() == other.lower()


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
    token_account: Callable[[], str | None] = lambda: None,
) -> Outcome:
    """`before_retry` runs before each attempt but the first: a retry may come minutes
    later, when what was checked before the first may no longer hold. `token_account`
    tells, when it can, the account the token posts as (GitHub tells a person's token,
    not an app's), asked only when a change to `author`'s comment is refused."""
    if not body.startswith(marker):
        raise ValueError("the comment body must begin with the marker, or it is not found again")
    attempts = 0

    def attempt() -> Outcome:
        nonlocal attempts
        attempts += 1
        if attempts > 1:
            before_retry()
        return _reconcile(pull, body, marker, author, token_account)

    return with_retries(
        attempt, policy or RetryPolicy(), f"commenting on pull request #{pull.number}"
    )


def _reconcile(
    pull: PullRequest,
    body: str,
    marker: str,
    author: str,
    token_account: Callable[[], str | None],
) -> Outcome:
    mine = own_comments(pull, marker, author)
    if not mine:
        return Outcome("created", _create(pull, body, author))
    keep, extra = mine[0], mine[1:]
    for comment in extra:
        with _refused_as(comment, author, token_account):
            _delete(comment)
    if keep.body == body:
        return Outcome("unchanged", keep.html_url, len(extra))
    try:
        with _refused_as(keep, author, token_account):
            keep.edit(body)
    except GithubException as exc:
        if exc.status != 404:
            raise
        # Deleted since it was read (by a person): the report is posted afresh.
        return Outcome("created", _create(pull, body, author), len(extra))
    return Outcome("edited", keep.html_url, len(extra))


def _create(pull: PullRequest, body: str, author: str) -> str:
    """The new comment's address. One the token wrote as another account than `author` is
    not found again: every run would add one more, so the run fails and says why."""
    created = pull.create_issue_comment(body)
    account = created.user.login if created.user is not None else None
    if account is not None and not _same_account(account, author):
        raise GitHubError(
            f"the token posts as {account}, but --author is {author}: the next run would not "
            f"find the comment just posted, {created.html_url}, and would post another; "
            f"pass --author {account}"
        )
    return created.html_url


@contextmanager
def _refused_as(
    comment: IssueComment, author: str, token_account: Callable[[], str | None]
) -> Iterator[None]:
    """A 403 on `author`'s comment, when the token is another account's, is that: not a
    permission the workflow lacks. When the account cannot be told (an app's token), either
    may be what is wrong, and both are said."""
    try:
        yield
    except GithubException as exc:
        if exc.status != 403 or is_rate_limit(exc):
            raise
        account = token_account()
        if account is not None and _same_account(account, author):
            raise  # the author's own token: a permission is what it lacks
        said = exc.data.get("message") if isinstance(exc.data, dict) else None
        answer = f"({exc.status}{' ' + said if said else ''})"
        if account is None:
            raise Forbidden(
                f"GitHub refused a change to {author}'s comment {comment.html_url} {answer}; "
                "the account the token posts as cannot be told (GitHub does not tell an app's "
                f"token): if it is not {author}, pass --author with it (an app's is "
                f"NAME[bot]); if it is, the token lacks `permissions: {PERMISSION}`, which "
                "GitHub never grants to a `pull_request` run from a fork"
            ) from exc
        raise GitHubError(
            f"the token posts as {account}, but --author is {author}: GitHub refused "
            f"{account} a change to {author}'s comment {comment.html_url} {answer}; pass "
            f"--author {account}, or a token of {author}"
        ) from exc


def _delete(comment: IssueComment) -> None:
    try:
        comment.delete()
    except GithubException as exc:
        if exc.status != 404:
            raise
        # Already gone: a run racing this one deleted the same extra copy first.
