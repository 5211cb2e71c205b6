"""Retry what GitHub says may be retried, waiting as long as it asks, within a bound.

Retried: 5xx answers, connection failures (one dropped mid-answer too), and rate limits
(403 or 429 whose headers or message say so). A wait comes from `Retry-After` when present,
else from `X-RateLimit-Reset` when `X-RateLimit-Remaining` is 0, else from exponential
backoff (one minute for a secondary rate limit without headers, as GitHub's documentation
asks). A wait longer than `max_wait`, or waits adding up past `max_total`, end the
attempts at once with a clear message: a job must not sleep for an hour on a rate limit.

PyGithub's own retrying is switched off (see client.py) so that every attempt passes here:
writes are retried by the caller re-reading the state first, never by replaying a POST.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

import requests
from github import GithubException
from github.Requester import Requester
from urllib3.exceptions import ProtocolError

T = TypeVar("T")
SECONDARY_RATE_WAIT = 60.0
# No answer, or half of one: requests says ChunkedEncodingError when the connection drops
# mid-body, urllib3 ProtocolError where requests does not wrap it.
UNANSWERED = (
    requests.ConnectionError,
    requests.Timeout,
    requests.exceptions.ChunkedEncodingError,
    ProtocolError,
)


class GaveUp(Exception):
    """The attempts ran out, or GitHub asked for a longer wait than allowed."""

    def __init__(self, message: str, last: BaseException) -> None:
        super().__init__(message)
        self.last = last


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 5
    base_delay: float = 2.0  # doubles each attempt
    max_wait: float = 90.0  # one wait
    max_total: float = 180.0  # all waits of one call
    sleep: Callable[[float], None] = field(default=time.sleep, compare=False)
    clock: Callable[[], float] = field(default=time.time, compare=False)


def _headers(exc: GithubException) -> dict[str, str]:
    return {k.lower(): str(v) for k, v in (exc.headers or {}).items()}


def _message(exc: GithubException) -> str:
    data = exc.data
    message = data.get("message") if isinstance(data, Mapping) else None
    return message if isinstance(message, str) else ""


def is_rate_limit(exc: GithubException) -> bool:
    if exc.status not in (403, 429):
        return False
    headers = _headers(exc)
    return (
        exc.status == 429
        or "retry-after" in headers
        or headers.get("x-ratelimit-remaining") == "0"
        or Requester.isRateLimitError(_message(exc))
    )


def wait_for(exc: BaseException, attempt: int, policy: RetryPolicy) -> float | None:
    """Seconds to wait before trying again after `exc`, or None if it must not be retried."""
    backoff: float = policy.base_delay * 2**attempt
    if isinstance(exc, UNANSWERED):
        return backoff
    if not isinstance(exc, GithubException):
        return None
    if not (exc.status >= 500 or is_rate_limit(exc)):
        return None
    headers = _headers(exc)
    retry_after = headers.get("retry-after", "")
    if retry_after.isdigit():
        return float(retry_after)
    reset = headers.get("x-ratelimit-reset", "")
    if headers.get("x-ratelimit-remaining") == "0" and reset.isdigit():
        return max(float(reset) - policy.clock(), 0.0) + 1.0  # the reset second itself
    if exc.status < 500:
        return max(SECONDARY_RATE_WAIT, backoff)
    return backoff


def with_retries(call: Callable[[], T], policy: RetryPolicy, what: str) -> T:
    waited, attempt = 0.0, 0
    while True:
        try:
            return call()
        except (GithubException, *UNANSWERED) as exc:
            wait = wait_for(exc, attempt, policy)
            if wait is None:
                raise
            attempt += 1
            refusal = _refusal(wait, waited, attempt, policy)
            if refusal:
                raise GaveUp(f"{what}: {_describe(exc)}{refusal}", exc) from exc
            policy.sleep(wait)
            waited += wait


def _refusal(wait: float, waited: float, attempts: int, policy: RetryPolicy) -> str | None:
    """Why not to wait `wait` seconds and try again, or None."""
    if attempts >= policy.attempts:
        return f", still after {attempts} attempts"
    if wait > policy.max_wait:
        return (
            f"; GitHub asks to wait {wait:.0f} s, more than the {policy.max_wait:.0f} s "
            "one wait may take"
        )
    if waited + wait > policy.max_total:
        return f"; {wait:.0f} s more would pass the {policy.max_total:.0f} s allowed in all"
    return None


def _describe(exc: BaseException) -> str:
    if isinstance(exc, GithubException):
        kind = "rate limited" if is_rate_limit(exc) else "server error"
        message = _message(exc)
        return f"{kind} ({exc.status}{': ' + message if message else ''})"
    return f"cannot reach GitHub ({type(exc).__name__})"
