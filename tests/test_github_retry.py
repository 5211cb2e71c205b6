"""How long to wait before trying GitHub again, and when to stop: what GitHub's headers say,
within a bound."""

from __future__ import annotations

import socket

import pytest
import requests
from github import GithubException
from urllib3.exceptions import ProtocolError

from curator.github.client import GitHubError
from curator.github.post import post_comment
from curator.github.retry import GaveUp, RetryPolicy, wait_for, with_retries

NOW = 1_700_000_000.0
POLICY = RetryPolicy(clock=lambda: NOW)


def answer(status: int, message: str = "", **headers: str) -> GithubException:
    return GithubException(
        status, {"message": message}, {k.replace("_", "-"): v for k, v in headers.items()}
    )


@pytest.mark.parametrize(
    ("exc", "attempt", "expected"),
    [
        (answer(502), 0, 2.0),
        (answer(503), 2, 8.0),
        (answer(503, Retry_After="5"), 3, 5.0),
        (answer(429, Retry_After="12"), 0, 12.0),
        (answer(403, "API rate limit exceeded for installation ID 1.",
                X_RateLimit_Remaining="0", X_RateLimit_Reset=str(int(NOW) + 40)), 0, 41.0),
        (answer(403, "You have exceeded a secondary rate limit. Please wait a few minutes "
                "before you try again."), 0, 60.0),
        (answer(403, "Resource not accessible by integration"), 0, None),
        (answer(401, "Bad credentials"), 0, None),
        (answer(404, "Not Found"), 0, None),
        (answer(422, "Validation Failed"), 0, None),
        (requests.ConnectionError("refused"), 1, 4.0),
        (requests.exceptions.ChunkedEncodingError("cut"), 0, 2.0),
        (ProtocolError("Connection broken: IncompleteRead"), 2, 8.0),
    ],
)  # fmt: skip
def test_wait_for(exc, attempt, expected):
    assert wait_for(exc, attempt, POLICY) == expected


def test_waits_add_up_to_no_more_than_the_total():
    waits: list[float] = []
    policy = RetryPolicy(attempts=10, max_wait=50, max_total=100, sleep=waits.append)

    def always_limited() -> None:
        raise answer(403, "x", Retry_After="40")

    with pytest.raises(GaveUp, match="40 s more would pass the 100 s allowed in all"):
        with_retries(always_limited, policy, "listing")
    assert waits == [40.0, 40.0]


def test_an_unreachable_server_is_one_line_after_bounded_attempts():
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    waits: list[float] = []
    env = {"GITHUB_TOKEN": "t", "GITHUB_API_URL": f"http://127.0.0.1:{port}"}
    with pytest.raises(GitHubError, match="cannot reach GitHub") as info:
        post_comment(
            "o/r", 1, "<!-- m -->", "<!-- m -->", env=env, policy=RetryPolicy(sleep=waits.append)
        )
    assert waits == [2.0, 4.0, 8.0, 16.0] and "\n" not in str(info.value)


def test_a_token_is_required():
    with pytest.raises(GitHubError, match="GITHUB_TOKEN is not set"):
        post_comment("o/r", 1, "<!-- m -->", "<!-- m -->", env={})


@pytest.mark.parametrize(
    ("status", "data", "said"),
    [
        (422, {"message": "Validation Failed"}, "GitHub rejected the request (422 Validation "
         "Failed): no details given"),
        (422, {"message": "Validation Failed", "errors": ["body is too long"]},
         "GitHub rejected the request (422 Validation Failed): body is too long"),
        (422, {"message": "Validation Failed", "errors": [{"resource": "Issue", "code": "custom"}]},
         "GitHub rejected the request (422 Validation Failed): custom"),
        (409, None, "GitHub answered (409)"),
        (410, {"message": "Issues are disabled"}, "GitHub answered (410 Issues are disabled)"),
    ],
)  # fmt: skip
def test_an_answer_github_gave_is_one_line_with_its_first_reason(status, data, said):
    from curator.github.client import explain

    error = explain(GithubException(status, data, None), "commenting on pull request #2")
    assert str(error) == f"commenting on pull request #2: {said}"
