"""Post a rendered comment on a pull request, after checking that it belongs there."""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace

from github import BadAttributeException, Github, GithubException
from github.PullRequest import PullRequest
from github.Repository import Repository

from curator.github.client import Forbidden, GitHubError, connect, explain, not_github
from curator.github.comment import DEFAULT_AUTHOR, Outcome, upsert
from curator.github.files import changed_tooling
from curator.github.retry import GaveUp, RetryPolicy, with_retries
from curator.github.verify import RunEvent, check_event, check_pull
from curator.review.tooling import ChangedTooling

# The comment, or how to write it once GitHub has listed the pull request's files: what of
# them can change the review itself is said from that list, never from the report.
Body = str | Callable[[ChangedTooling], str]


def post_comment(
    repo: str,
    number: int,
    body: Body,
    marker: str,
    head_sha: str | None = None,
    event: RunEvent | None = None,
    author: str = DEFAULT_AUTHOR,
    env: Mapping[str, str] = os.environ,
    policy: RetryPolicy | None = None,
) -> Outcome:
    """Create, edit or leave the one bot comment on pull request `number` of `repo`.

    With `head_sha`, only if that commit is the pull request's head, before the first
    attempt and again before each retry (and, with `event`, the commit and number agree
    with the workflow_run event). A `body` to write is given what GitHub lists of the files
    the pull request changes (`changed_tooling`), once it is known to be the right one.
    Raises GitHubError (Forbidden for a
    403, with what GitHub had listed of the files by then; Stale when the pull request has
    moved on, Mismatch for a forged artifact).
    """
    policy = policy or RetryPolicy()
    if event is not None:
        if head_sha is None:
            raise GitHubError("--event needs --head-sha: the commit the report is for")
        check_event(event, repo, number, head_sha)
    what = f"pull request #{number} of {repo}"

    def fetch() -> PullRequest:
        return with_retries(lambda: _fetch(repository, number, what), policy, f"reading {what}")

    with _github_answers(what, reading=PULL):
        github = connect(env)
        repository = github.get_repo(repo)
        pull = fetch()
        if head_sha is not None:
            check_pull(pull, repo, head_sha, event)
    tooling: ChangedTooling | None = None
    if isinstance(body, str):
        text = body
    else:
        with _github_answers(what):
            tooling = changed_tooling(pull, policy)
        if head_sha is not None:
            # GitHub lists the files of the head as it is when asked: after a push since
            # the check above, they are the newer commit's, not the report's. Still the
            # head after the last page, it was the head for them all (one request more).
            # Refused, GitHub has listed them all the same: said as listed, maybe a newer
            # commit's.
            refused = _refused_after(replace(tooling, unconfirmed=True))
            with refused, _github_answers(what, reading=PULL):
                check_pull(fetch(), repo, head_sha, event)
        # Written outside what explains GitHub's answers: a fault in curator's own
        # rendering is an internal error, not "an answer not in the shape GitHub gives".
        text = body(tooling)
    account = functools.partial(_token_account, github)  # asked only on a refusal
    with _refused_after(tooling), _github_answers(what):
        if head_sha is None:
            return upsert(pull, text, marker, author, policy, token_account=account)

        def still_the_head() -> None:  # a force-push during a wait: Stale, not posted
            check_pull(_fetch(repository, number, what), repo, head_sha, event)

        return upsert(pull, text, marker, author, policy, still_the_head, account)


@contextmanager
def _refused_after(listed: ChangedTooling | None) -> Iterator[None]:
    """A refusal (403) carries what GitHub had listed of the files before it (`listed`): the
    job summary that stands in for the comment then opens with the warning it would have."""
    try:
        yield
    except Forbidden as exc:
        exc.listed = listed
        raise


# What the reads of the pull request read, as a refusal (403) names it.
PULL = "the pull request"


@contextmanager
def _github_answers(what: str, reading: str | None = None) -> Iterator[None]:
    """GitHub's answers (and PyGithub's reading of them) that are not what GitHub gives,
    and its refusals, as one-line GitHubErrors; `reading` names what the requests within
    only read, whose refusal asks for read access, not for the write permission."""
    try:
        yield
    except json.JSONDecodeError as exc:  # a cut answer, or a page that is not the API
        raise not_github(f"commenting on {what}", f"an answer is not JSON ({exc})") from exc
    except (BadAttributeException, AttributeError, TypeError) as exc:
        # PyGithub keeps what a field holds, and reading it fails only here: a string where
        # GitHub gives an object (BadAttributeException), a field missing (None, read on).
        why = f"an answer is not in the shape GitHub gives ({type(exc).__name__})"
        raise not_github(f"commenting on {what}", why) from exc
    except (GithubException, GaveUp, OSError) as exc:
        raise explain(exc, f"commenting on {what}", reading=reading) from exc


def _token_account(github: Github) -> str | None:
    """The account a person's token posts as; None for an app's token (GITHUB_TOKEN's
    too), which GitHub does not answer this question for, or when the answer is not one."""
    try:
        login = github.get_user().login
    except (GithubException, OSError, ValueError, TypeError, AttributeError):
        return None  # only a message depends on it: the refusal is explained without it
    return login if isinstance(login, str) else None


def _fetch(repository: Repository, number: int, what: str) -> PullRequest:
    pull = repository.get_pull(number)  # lazy: reading `head` makes the one GET
    if pull.head is None or pull.base is None:  # PyGithub keeps whatever it was given
        raise not_github(f"reading {what}", "the answer is not a pull request")
    return pull
