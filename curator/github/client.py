"""A PyGithub connection configured from the environment, and one-line explanations of
what GitHub answers when it says no."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import requests
from github import Auth, Github, GithubException

from curator import __version__
from curator.github.retry import GaveUp

if TYPE_CHECKING:
    from curator.review.tooling import ChangedTooling

DEFAULT_API_URL = "https://api.github.com"
TOKEN_VARIABLE = "GITHUB_TOKEN"
PERMISSION = "pull-requests: write"  # what a workflow needs to comment
READ_PERMISSION = "pull-requests: read"  # what it needs to read a pull request and its files
API_URL_VARIABLE = "GITHUB_API_URL"  # set by Actions; GitHub Enterprise Server's differs
_API_URL = re.compile(r"https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?(?:/[A-Za-z0-9._~/-]*)?")


class GitHubError(Exception):
    """A one-line reason a GitHub operation failed; the CLI prints it as it is."""


class Forbidden(GitHubError):
    """403: the token lacks a permission (a read-only token on a pull request from a fork)."""

    # What GitHub had listed of the pull request's files when it refused (post.py), for
    # the warning that stands in the job summary; None when it refused before listing them.
    listed: ChangedTooling | None = None

    def __init__(self, message: str, reading: bool = False) -> None:
        super().__init__(message)
        # Whether GitHub refused a read (of the pull request, of its files): the token lacks
        # what every run needs, so the run fails; a refused write may be the pull request's
        # (a locked conversation), and the job summary stands in for the comment.
        self.reading = reading


def connect(env: Mapping[str, str] = os.environ) -> Github:
    token = env.get(TOKEN_VARIABLE, "").strip()
    if not token:
        raise GitHubError(f"{TOKEN_VARIABLE} is not set: the token to post with")
    api_url = env.get(API_URL_VARIABLE, "").strip().rstrip("/") or DEFAULT_API_URL
    if not _usable_api_url(api_url):
        raise GitHubError(
            f"{API_URL_VARIABLE} is {api_url!r}, not an http(s) address such as {DEFAULT_API_URL}"
        )
    return Github(
        auth=Auth.Token(token),
        base_url=api_url,
        user_agent=f"incident-curator/{__version__}",
        per_page=100,  # the most GitHub serves per page: fewest requests for long threads
        timeout=30,
        retry=None,  # retry.py decides, so that writes are never replayed blindly
        seconds_between_requests=None,  # a handful of sequential requests per run
        lazy=True,  # objects are fetched when read: no request for the repository itself
    )


def _usable_api_url(url: str) -> bool:
    """A host name or IPv4 address, a port, a path (Enterprise Server's API is at /api/v3):
    what PyGithub can parse. It fails with AttributeError, AssertionError or ValueError on
    the rest."""
    try:
        urlsplit(url).port  # noqa: B018 - raises ValueError when out of range
    except ValueError:
        return False
    return _API_URL.fullmatch(url) is not None


def not_github(what: str, why: str) -> GitHubError:
    """An answer in a shape GitHub's API never gives: a proxy's page, or the web site's
    address where the API's was meant."""
    return GitHubError(
        f"{what}: {why}; is {API_URL_VARIABLE} the address of GitHub's REST API "
        "(https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise Server)?"
    )


def explain(
    exc: BaseException,
    what: str,
    named: str = "the repository and the pull request number",
    reading: str | None = None,
) -> GitHubError:
    """`exc` as one line that says what to do about it; a 404 asks to check what `named`.
    `reading` names what the refused request read (`the pull request`), for a 403: the
    read access it needs, not the write permission that a refused write needs."""
    if isinstance(exc, GaveUp):
        return GitHubError(str(exc))
    if isinstance(exc, requests.RequestException):
        return GitHubError(f"{what}: cannot reach GitHub ({type(exc).__name__}: {exc})")
    if not isinstance(exc, GithubException):
        return GitHubError(f"{what}: {type(exc).__name__}: {exc}")
    message = exc.message or (exc.data.get("message") if isinstance(exc.data, dict) else None)
    said = f" ({exc.status} {message})" if message else f" ({exc.status})"
    if exc.status == 401:
        return GitHubError(
            f"{what}: GitHub does not accept the token{said}; "
            f"{TOKEN_VARIABLE} is missing, expired or not meant for this server"
        )
    if exc.status == 403 and reading is not None:
        # (A token without access to the repository, a workflow's `permissions:` without
        # pull-requests, a fine-grained token without "Pull requests", SSO not granted.)
        return Forbidden(
            f"{what}: GitHub refused to let the token read {reading}{said}; that needs read "
            f"access to the repository's pull requests: `permissions: {READ_PERMISSION}` (or "
            "write) for a workflow's token; for a fine-grained token, the repository among "
            "those it may access, with the Pull requests permission",
            reading=True,
        )
    if exc.status == 403 and "locked" in (message or "").lower():
        # (GitHub's words: "Unable to create comment because issue is locked.") Not the
        # token's fault: no permission lets a bot comment on a locked conversation.
        return Forbidden(f"{what}: the conversation is locked{said}; unlock it to comment")
    if exc.status == 403:
        return Forbidden(
            f"{what}: the token may not do this{said}; a workflow needs "
            f"`permissions: {PERMISSION}`, which GitHub never grants to a "
            "`pull_request` run from a fork (comment from a `workflow_run` workflow instead)"
        )
    if exc.status == 404:
        return GitHubError(
            f"{what}: not found{said}; check {named}, "
            f"and that the token can see the repository ({API_URL_VARIABLE} for GitHub "
            "Enterprise)"
        )
    if exc.status == 422:
        return GitHubError(f"{what}: GitHub rejected the request{said}: {_errors(exc)}")
    return GitHubError(f"{what}: GitHub answered{said}")


def _errors(exc: GithubException) -> str:
    errors = exc.data.get("errors") if isinstance(exc.data, dict) else None
    if not isinstance(errors, list) or not errors:
        return "no details given"
    first = errors[0]
    if isinstance(first, dict):
        return str(first.get("message") or first.get("code") or first)
    return str(first)
