"""Check that an artifact from a pull request's workflow run speaks of that pull request.

The comment workflow runs with write access on `workflow_run`, reading an artifact that the
pull request's own (untrusted) run uploaded. The pull request number and head commit in it
are believed only when they agree with the `workflow_run` event, which GitHub writes, and
with GitHub's current view of that pull request.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from github.PullRequest import PullRequest

from curator.github.client import GitHubError

SHA = re.compile(r"^[0-9a-f]{40}(?:[0-9a-f]{24})?$")
MAX_EVENT_BYTES = 25 * 1024 * 1024


class Mismatch(GitHubError):
    """The artifact names a pull request or commit the event does not: never post."""


class Stale(GitHubError):
    """The pull request has moved on to a newer commit: a newer run will comment."""


@dataclass(frozen=True)
class RunEvent:
    """What a `workflow_run` event says about the run that produced the artifact."""

    repository: str
    event: str
    head_sha: str
    head_repository: str | None
    pull_requests: frozenset[int]  # this repository's; none for a pull request from a fork
    html_url: str | None

    @classmethod
    def read(cls, path: Path) -> RunEvent:
        try:
            if path.stat().st_size > MAX_EVENT_BYTES:
                raise GitHubError(f"{path}: larger than an event payload can be")
            payload = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise GitHubError(f"cannot read the event {path}: {exc}") from exc
        run = payload.get("workflow_run") if isinstance(payload, dict) else None
        if not isinstance(run, dict):
            raise GitHubError(f"{path} is not a workflow_run event")
        listed = run.get("pull_requests")
        if not isinstance(listed, list):
            # GitHub always gives a list, empty for a fork's branch. Taking another value
            # for none would skip the check that the artifact names a listed pull request.
            why = "its pull_requests is not a list"
            raise GitHubError(f"{path} is not a workflow_run event: {why}")
        repository = _get(payload, "repository", "full_name")
        head_repository = _get(run, "head_repository", "full_name")
        for name, value in (("repository", repository), ("head_repository", head_repository)):
            if value is not None and not isinstance(value, str):
                why = f"its {name}.full_name is not a string"
                raise GitHubError(f"{path} is not a workflow_run event: {why}")
        repository_id = _get(payload, "repository", "id")
        return cls(
            repository=repository or "",
            event=str(run.get("event") or ""),
            head_sha=str(run.get("head_sha") or ""),
            head_repository=head_repository,
            pull_requests=frozenset(
                pr["number"]
                for pr in listed
                if isinstance(pr, dict)
                and isinstance(pr.get("number"), int)
                # GitHub lists too the pull requests of other repositories whose head is
                # the run's branch (a fork's, into its upstream): their numbers are not ours.
                and _get(pr, "base", "repo", "id") == repository_id
            ),
            html_url=run.get("html_url") if isinstance(run.get("html_url"), str) else None,
        )


def _get(data: Any, *keys: str) -> Any:
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data


def check_event(event: RunEvent, repo: str, number: int, head_sha: str) -> None:
    if event.event != "pull_request":
        raise Mismatch(f"the run was triggered by {event.event!r}, not by a pull request")
    if not event.repository.strip():
        raise Mismatch(
            "the event names no repository: its repository.full_name is empty or missing"
        )
    if event.repository.lower() != repo.lower():
        raise Mismatch(f"the event is from {event.repository}, not {repo}")
    if head_sha != event.head_sha:
        raise Mismatch(
            f"the artifact names commit {head_sha[:12]}, the run was for {event.head_sha[:12]}"
        )
    # This repository's pull requests are listed only when the branch is in it, not a fork.
    # A listed one's head may be newer than the run's (a push since): check_pull says so.
    if event.pull_requests and number not in event.pull_requests:
        listed = ", ".join(f"#{n}" for n in sorted(event.pull_requests))
        raise Mismatch(f"the artifact names pull request #{number}; the run was for {listed}")


def check_pull(pull: PullRequest, repo: str, head_sha: str, event: RunEvent | None) -> None:
    """GitHub's view of the pull request must agree with the artifact (and the event)."""
    if pull.base.repo.full_name.lower() != repo.lower():
        raise Mismatch(f"pull request #{pull.number} is not a pull request of {repo}")
    came_from = pull.head.repo.full_name if pull.head.repo is not None else None
    expected = event.head_repository if event else None
    if came_from and expected and came_from.lower() != expected.lower():
        raise Mismatch(
            f"pull request #{pull.number} comes from {came_from}, the run from {expected}"
        )
    if pull.head.sha != head_sha:
        raise Stale(
            f"pull request #{pull.number} is now at {pull.head.sha[:12]}, the report is for "
            f"{head_sha[:12]}: not posted (the run for the newer commit will comment)"
        )


def valid_sha(text: str) -> bool:
    return bool(SHA.fullmatch(text))
