"""Where a review's links point: the repository on GitHub and the workflow run.

Built only from trusted parts (flags, the Actions environment, the workflow_run event) and
checked against strict patterns, so a link can never be steered by data.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

from curator.review.inert import url_path
from curator.review.model import SHA_PATTERN

_REPOSITORY = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}$")
_SERVER = re.compile(r"^https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?$")
_SHA = re.compile(SHA_PATTERN)
_RUN = re.compile(r"[0-9]{1,20}(?:/attempts/[0-9]{1,5})?")  # after `actions/runs/`
DEFAULT_SERVER = "https://github.com"


def _plain_path(path: str) -> bool:
    """Relative, without `.` or `..` segments that a browser would resolve out of the
    repository (`blob/SHA/../../../other/repo`)."""
    return all(part not in ("", ".", "..") for part in path.split("/"))


def valid_repository(name: str) -> bool:
    return bool(_REPOSITORY.fullmatch(name)) and ".." not in name


@dataclass(frozen=True)
class Links:
    server: str = DEFAULT_SERVER
    repository: str | None = None  # OWNER/NAME; None: a local run, no links
    run_url: str | None = None

    def __post_init__(self) -> None:
        if not _SERVER.fullmatch(self.server):
            raise ValueError(f"not a server URL: {self.server!r}")
        if self.repository is not None and not valid_repository(self.repository):
            raise ValueError(f"not a repository name (OWNER/NAME): {self.repository!r}")
        if self.run_url is not None:
            self._check_run_url(self.run_url)

    def _check_run_url(self, url: str) -> None:
        """A workflow run of this repository, and nothing more: the URL comes from the
        event, and anything after the run's number would go into the comment as it is
        (`…/runs/1) [a link](https://…`)."""
        if not url.startswith(self.server + "/"):
            raise ValueError(f"the run URL is not on {self.server}: {url!r}")
        path = url.removeprefix(self.server + "/")
        repository, _, rest = path.partition("/actions/runs/")
        if not (valid_repository(repository) and _RUN.fullmatch(rest)) or (
            self.repository is not None and repository != self.repository
        ):
            raise ValueError(f"the run URL is not a workflow run of {self.repository}: {url!r}")

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Links:
        """What GitHub Actions sets; outside Actions, no links."""
        server = env.get("GITHUB_SERVER_URL", DEFAULT_SERVER).rstrip("/") or DEFAULT_SERVER
        repository = env.get("GITHUB_REPOSITORY") or None
        run_id = env.get("GITHUB_RUN_ID", "")
        run_url = None
        if repository and run_id.isdigit():
            run_url = f"{server}/{repository}/actions/runs/{run_id}"
        return cls(server, repository, run_url)

    def blob(self, sha: str, path: str, line: int | None = None) -> str | None:
        if self.repository is None or not _SHA.fullmatch(sha) or not _plain_path(path):
            return None
        anchor = f"#L{line}" if line else ""
        return f"{self.server}/{self.repository}/blob/{sha}/{url_path(path)}{anchor}"

    def changed_file(self, number: int, path: str) -> str | None:
        """The file in the pull request's "Files changed" view, which shows it whatever the
        change did to it (a file deleted or renamed away has no blob at the head): GitHub
        anchors each file there at `diff-` and the SHA-256 of its path."""
        if self.repository is None or number < 1:
            return None
        anchor = hashlib.sha256(path.encode("utf-8", "surrogateescape")).hexdigest()
        return f"{self.server}/{self.repository}/pull/{number}/files#diff-{anchor}"

    def commit(self, sha: str) -> str | None:
        if self.repository is None or not _SHA.fullmatch(sha):
            return None
        return f"{self.server}/{self.repository}/commit/{sha}"
