"""A local stand-in for GitHub's REST API, enough for the review bot, over real HTTP.

It listens on 127.0.0.1 only and answers as api.github.com does for the endpoints curator
uses: status codes, headers (`Link` pagination with `/repositories/{id}/…` URLs,
`X-RateLimit-*`, `Retry-After`, `Location`, `X-GitHub-Request-Id`), and JSON bodies shaped
like GitHub's (pull requests from the real webhook payloads in ../shared/github, their
files as `GET /pulls/{n}/files` lists them, at most 3,000, issue comments,
`{"message", "documentation_url", "status"}` errors, 422 `errors` lists).

Tests read `server.log` (every request: method, path with query, status) and inject faults
(`server.fail(...)`): a 502 before or after the write is stored, 403 rate limits primary or
secondary, answers that are not JSON (`raw`), an answer cut off by a dropped connection
(`cut`), and tokens without write access (a fork's pull request).
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

DOCS = "https://docs.github.com/rest"
COMMENT_LIMIT = 65_536
FILES_LIMIT = 3_000  # GitHub lists no more of a pull request's files
RATE_LIMIT = 5000


@dataclass
class Fault:
    method: str
    path: re.Pattern[str]
    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: dict[str, Any] | None = None
    times: int = 1
    after_write: bool = False  # store the write first, then fail (a proxy timing out)
    raw: bytes | None = None  # sent as it is instead of JSON (a proxy's page, a cut answer)
    cut: bool = False  # the request is served, then the connection closes mid-answer


@dataclass(frozen=True)
class Cut:
    """An answer of which only the first half is sent, its full length promised."""

    payload: Any


@dataclass
class Token:
    login: str
    write: bool = True
    user_id: int = 41898282  # github-actions[bot]'s id on github.com
    type: str = "Bot"


@dataclass
class Request:
    method: str
    path: str
    status: int
    body: dict[str, Any] | None = None

    def __str__(self) -> str:
        return f"{self.method} {self.path} → {self.status}"


class FakeGitHub:
    def __init__(self) -> None:
        self.log: list[Request] = []
        self.faults: list[Fault] = []
        self.events: list[tuple[str, re.Pattern[str], Callable[[], None]]] = []
        self.tokens: dict[str, Token] = {}
        # full name → {"id", "pulls", "issues" (comment ids), "files" (of each pull request)}
        self.repos: dict[str, dict[str, Any]] = {}
        self.comments: dict[int, dict[str, Any]] = {}  # id → comment
        self._ids = itertools.count(1_000_000_001)
        self._lock = threading.Lock()
        self.rate_remaining = RATE_LIMIT
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self.web = "https://github.com"

    # --- set-up ---------------------------------------------------------------------------

    def add_token(self, token: str, login: str, write: bool = True, kind: str = "Bot") -> None:
        self.tokens[token] = Token(login, write, type=kind)

    def add_pull(self, pull_request: dict[str, Any]) -> dict[str, Any]:
        """Serve a pull request given as a webhook payload's `pull_request` object."""
        pull = json.loads(json.dumps(pull_request).replace("https://api.github.com", self.url))
        name = pull["base"]["repo"]["full_name"]
        repo = self.repos.setdefault(
            name, {"id": pull["base"]["repo"]["id"], "pulls": {}, "issues": {}, "files": {}}
        )
        repo["pulls"][pull["number"]] = pull
        repo["issues"].setdefault(pull["number"], [])
        repo["files"].setdefault(pull["number"], [])
        return pull

    def set_files(self, repo: str, number: int, paths: list[str | tuple[str, str]]) -> None:
        """The files pull request `number` changes, as `GET /pulls/{n}/files` lists them: a
        path is modified, a pair (old path, new path) renamed. `changed_files` counts them
        all, as GitHub's does; the list stops at 3,000."""
        entries = [_file_entry(self.url, self.web, repo, path) for path in paths]
        self.repos[repo]["files"][number] = entries
        self.repos[repo]["pulls"][number]["changed_files"] = len(entries)

    def add_comment(self, repo: str, number: int, body: str, login: str, kind: str = "User") -> int:
        user = {"login": login, "id": 583231, "type": kind}
        return self._store_comment(repo, number, body, user)["id"]

    def fail(
        self,
        method: str,
        path: str,
        status: int,
        headers: dict[str, str] | None = None,
        body: dict[str, Any] | None = None,
        times: int = 1,
        after_write: bool = False,
        raw: bytes | None = None,
        cut: bool = False,
    ) -> None:
        self.faults.append(
            Fault(
                method, re.compile(path), status, headers or {}, body, times, after_write, raw, cut
            )
        )

    def after(self, method: str, path: str, event: Callable[[], None]) -> None:
        """Make `event` happen on GitHub (a push to the pull request's branch) just after
        the first request for `method` and `path` is answered, once."""
        self.events.append((method, re.compile(path), event))

    def thread(self, repo: str, number: int) -> list[dict[str, Any]]:
        return [self.comments[i] for i in self.repos[repo]["issues"][number]]

    def requests(self) -> list[str]:
        return [str(r) for r in self.log]

    @contextmanager
    def running(self) -> Iterator[FakeGitHub]:
        worker = threading.Thread(target=self._server.serve_forever, daemon=True)
        worker.start()
        try:
            yield self
        finally:
            self._server.shutdown()
            self._server.server_close()
            worker.join(timeout=5)

    # --- the API ---------------------------------------------------------------------------

    def answer(
        self, method: str, target: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, dict[str, str], Any]:
        parts = urlsplit(target)
        token = self._token(headers)
        if token is None:
            return _error(401, "Bad credentials")
        fault = self._fault(method, parts.path)
        if fault is not None and not (fault.after_write or fault.cut):
            return (
                fault.status,
                fault.headers,
                fault.raw or fault.body or _error(fault.status, "fault")[2],
            )
        status, extra, payload = self._route(method, parts.path, parse_qs(parts.query), token, body)
        if fault is not None and fault.cut:
            return status, extra, Cut(payload)
        if fault is not None:  # after_write: the change above is stored, the answer is lost
            return fault.status, fault.headers, fault.body or _error(fault.status, "fault")[2]
        return status, extra, payload

    def _token(self, headers: dict[str, str]) -> Token | None:
        auth = headers.get("authorization", "")
        scheme, _, value = auth.partition(" ")
        if scheme.lower() not in ("token", "bearer"):
            return None
        return self.tokens.get(value)

    def happen(self, method: str, target: str) -> None:
        """The events due after this request, once its answer is written down (it tells the
        state before them) and before it is sent."""
        path = urlsplit(target).path
        with self._lock:
            due = [e for e in self.events if e[0] == method and e[1].search(path)]
            self.events = [e for e in self.events if e not in due]
        for _, _, event in due:
            event()

    def _fault(self, method: str, path: str) -> Fault | None:
        with self._lock:
            for fault in self.faults:
                if fault.method == method and fault.times > 0 and fault.path.search(path):
                    fault.times -= 1
                    return fault
        return None

    def _route(
        self, method: str, path: str, query: dict[str, list[str]], token: Token, body: bytes
    ) -> tuple[int, dict[str, str], Any]:
        routes = [
            ("GET", r"^/user$", self._get_user),
            ("GET", r"^/repos/([^/]+/[^/]+)/pulls/(\d+)$", self._get_pull),
            ("GET", r"^/repos/([^/]+/[^/]+)/pulls/(\d+)/files$", self._list_files),
            ("GET", r"^/repositories/(\d+)/pulls/(\d+)/files$", self._list_files_by_id),
            ("GET", r"^/repos/([^/]+/[^/]+)/issues/(\d+)/comments$", self._list_comments),
            ("GET", r"^/repositories/(\d+)/issues/(\d+)/comments$", self._list_comments_by_id),
            ("POST", r"^/repos/([^/]+/[^/]+)/issues/(\d+)/comments$", self._create_comment),
            ("PATCH", r"^/repos/([^/]+/[^/]+)/issues/comments/(\d+)$", self._edit_comment),
            ("DELETE", r"^/repos/([^/]+/[^/]+)/issues/comments/(\d+)$", self._delete_comment),
        ]
        for verb, pattern, handler in routes:
            match = re.match(pattern, path)
            if match and verb == method:
                data = json.loads(body) if body else None
                return handler(*match.groups(), query=query, token=token, data=data)
        return _error(404, "Not Found")

    def _get_user(self, token: Token, **_: Any) -> tuple[int, dict[str, str], Any]:
        """A person's token is answered with its account; GitHub refuses an app's token
        (GITHUB_TOKEN included) this endpoint, with the same 403 as a missing permission."""
        if token.type == "Bot":
            return _error(403, "Resource not accessible by integration")
        return 200, {}, {"login": token.login, "id": token.user_id, "type": token.type}

    def _get_pull(self, repo: str, number: str, **_: Any) -> tuple[int, dict[str, str], Any]:
        pull = self.repos.get(repo, {}).get("pulls", {}).get(int(number))
        return (200, {}, pull) if pull else _error(404, "Not Found")

    def _list_comments_by_id(self, repo_id: str, number: str, **kw: Any) -> Any:
        return self._list_comments(self._repo_named(repo_id), number, **kw)

    def _list_comments(
        self, repo: str, number: str, query: dict[str, list[str]], **_: Any
    ) -> tuple[int, dict[str, str], Any]:
        issues = self.repos.get(repo, {}).get("issues", {})
        if int(number) not in issues:
            return _error(404, "Not Found")
        comments = [self.comments[i] for i in issues[int(number)]]
        return self._page(comments, query, f"{self._by_id(repo)}/issues/{number}/comments")

    def _list_files_by_id(self, repo_id: str, number: str, **kw: Any) -> Any:
        return self._list_files(self._repo_named(repo_id), number, **kw)

    def _list_files(
        self, repo: str, number: str, query: dict[str, list[str]], **_: Any
    ) -> tuple[int, dict[str, str], Any]:
        files = self.repos.get(repo, {}).get("files", {})
        if int(number) not in files:
            return _error(404, "Not Found")
        listed = files[int(number)][:FILES_LIMIT]
        return self._page(listed, query, f"{self._by_id(repo)}/pulls/{number}/files")

    def _repo_named(self, repo_id: str) -> str:
        return next((n for n, r in self.repos.items() if str(r["id"]) == repo_id), "")

    def _by_id(self, repo: str) -> str:
        """Where GitHub's `Link` headers point: the repository by its id, not its name."""
        return f"{self.url}/repositories/{self.repos[repo]['id']}"

    def _page(
        self, items: list[Any], query: dict[str, list[str]], base: str
    ) -> tuple[int, dict[str, str], Any]:
        """One page of `items`, and the `Link` header to the others, as GitHub paginates."""
        per_page = min(int(query.get("per_page", ["30"])[0]), 100)
        page = max(int(query.get("page", ["1"])[0]), 1)
        last = max((len(items) + per_page - 1) // per_page, 1)
        shown = items[(page - 1) * per_page : page * per_page]

        def at(n: int) -> str:
            return f"<{base}?{urlencode({'per_page': per_page, 'page': n})}>"

        links = []
        if page < last:
            links += [f'{at(page + 1)}; rel="next"', f'{at(last)}; rel="last"']
        if page > 1:
            links += [f'{at(page - 1)}; rel="prev"', f'{at(1)}; rel="first"']
        return 200, ({"Link": ", ".join(links)} if links else {}), shown

    def _create_comment(
        self, repo: str, number: str, token: Token, data: Any, **_: Any
    ) -> tuple[int, dict[str, str], Any]:
        if repo not in self.repos or int(number) not in self.repos[repo]["issues"]:
            return _error(404, "Not Found")
        if not token.write:
            return _error(403, "Resource not accessible by integration")
        invalid = _invalid_body(data)
        if invalid:
            return invalid
        user = {"login": token.login, "id": token.user_id, "type": token.type}
        comment = self._store_comment(repo, int(number), data["body"], user)
        return 201, {"Location": comment["url"]}, comment

    def _edit_comment(
        self, repo: str, comment_id: str, token: Token, data: Any, **_: Any
    ) -> tuple[int, dict[str, str], Any]:
        comment = self.comments.get(int(comment_id))
        if comment is None:
            return _error(404, "Not Found")
        if not token.write or comment["user"]["login"] != token.login:
            return _error(403, "Resource not accessible by integration")
        invalid = _invalid_body(data)
        if invalid:
            return invalid
        comment["body"] = data["body"]
        comment["updated_at"] = _now()
        return 200, {}, comment

    def _delete_comment(
        self, repo: str, comment_id: str, token: Token, **_: Any
    ) -> tuple[int, dict[str, str], Any]:
        comment = self.comments.get(int(comment_id))
        if comment is None:
            return _error(404, "Not Found")
        if not token.write or comment["user"]["login"] != token.login:
            return _error(403, "Resource not accessible by integration")
        del self.comments[int(comment_id)]
        for issue in self.repos[repo]["issues"].values():
            if int(comment_id) in issue:
                issue.remove(int(comment_id))
        return 204, {}, None

    def _store_comment(
        self, repo: str, number: int, body: str, user: dict[str, Any]
    ) -> dict[str, Any]:
        with self._lock:
            comment_id = next(self._ids)
        api = f"{self.url}/repos/{repo}"
        comment = {
            "url": f"{api}/issues/comments/{comment_id}",
            "html_url": f"{self.web}/{repo}/pull/{number}#issuecomment-{comment_id}",
            "issue_url": f"{api}/issues/{number}",
            "id": comment_id,
            "node_id": f"IC_kwDO{comment_id}",
            "user": {
                **user,
                "node_id": "MDM6Qm90NDE4OTgyODI=",
                "url": f"{self.url}/users/{user['login']}",
                "html_url": f"{self.web}/apps/github-actions",
                "site_admin": False,
            },
            "created_at": _now(),
            "updated_at": _now(),
            "author_association": "NONE",
            "body": body,
            "reactions": {"url": "", "total_count": 0, "+1": 0, "-1": 0},
            "performed_via_github_app": None,
        }
        self.comments[comment_id] = comment
        self.repos[repo]["issues"][number].append(comment_id)
        return comment

    def rate_headers(self) -> dict[str, str]:
        with self._lock:
            self.rate_remaining = max(self.rate_remaining - 1, 0)
            remaining = self.rate_remaining
        return {
            "X-RateLimit-Limit": str(RATE_LIMIT),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": str(int(time.time()) + 3600),
            "X-RateLimit-Used": str(RATE_LIMIT - remaining),
            "X-RateLimit-Resource": "core",
        }


def _file_entry(api: str, web: str, repo: str, path: str | tuple[str, str]) -> dict[str, Any]:
    """A pull request's file as GitHub lists it (a diff entry): its fields, and a rename's
    `previous_filename`."""
    old, new = path if isinstance(path, tuple) else (None, path)
    sha = "bbcd538c8e72b8c175046e27cc8f907076331401"
    entry: dict[str, Any] = {
        "sha": sha,
        "filename": new,
        "status": "modified" if old is None else "renamed",
        "additions": 1,
        "deletions": 1,
        "changes": 2,
        "blob_url": f"{web}/{repo}/blob/{sha}/{new}",
        "raw_url": f"{web}/{repo}/raw/{sha}/{new}",
        "contents_url": f"{api}/repos/{repo}/contents/{new}?ref={sha}",
        "patch": "@@ -1 +1 @@\n-a\n+b",
    }
    if old is not None:
        entry["previous_filename"] = old
    return entry


def _invalid_body(data: Any) -> tuple[int, dict[str, str], Any] | None:
    body = data.get("body") if isinstance(data, dict) else None
    if not isinstance(body, str) or not body:
        return _validation("body", "missing_field", "body is missing")
    if len(body.encode("utf-16-le")) // 2 > COMMENT_LIMIT:
        message = f"body is too long (maximum is {COMMENT_LIMIT} characters)"
        return _validation("body", "custom", message)
    return None


def _validation(field_name: str, code: str, message: str) -> tuple[int, dict[str, str], Any]:
    return (
        422,
        {},
        {
            "message": "Validation Failed",
            "errors": [
                {"resource": "IssueComment", "code": code, "field": field_name, "message": message}
            ],
            "documentation_url": f"{DOCS}/issues/comments#create-an-issue-comment",
            "status": "422",
        },
    )


def _error(status: int, message: str) -> tuple[int, dict[str, str], Any]:
    return status, {}, {"message": message, "documentation_url": DOCS, "status": str(status)}


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def primary_rate_limit(reset_in: int) -> dict[str, Any]:
    """The headers and body GitHub sends when the hourly quota is used up."""
    return {
        "status": 403,
        "headers": {
            "X-RateLimit-Limit": str(RATE_LIMIT),
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": str(int(time.time()) + reset_in),
            "X-RateLimit-Resource": "core",
        },
        "body": {
            "message": "API rate limit exceeded for installation ID 1.",
            "documentation_url": f"{DOCS}/overview/rate-limits-for-the-rest-api",
            "status": "403",
        },
    }


def secondary_rate_limit(retry_after: int | None) -> dict[str, Any]:
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
    return {
        "status": 403,
        "headers": headers,
        "body": {
            "message": "You have exceeded a secondary rate limit. Please wait a few minutes "
            "before you try again. If you reach out to GitHub Support for help, please "
            "include the request ID 1234:5678.",
            "documentation_url": f"{DOCS}/overview/rate-limits-for-the-rest-api"
            "#about-secondary-rate-limits",
            "status": "403",
        },
    }


def _handler(api: FakeGitHub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "GitHub.com"
        sys_version = ""

        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            headers = {k.lower(): v for k, v in self.headers.items()}
            status, extra, payload = api.answer(self.command, self.path, headers, body)
            cut = isinstance(payload, Cut)
            if cut:
                payload = payload.payload
            if isinstance(payload, bytes):  # a fault's raw answer
                data = payload
            else:
                data = b"" if payload is None else json.dumps(payload).encode("utf-8")
            api.happen(self.command, self.path)
            parsed = json.loads(body) if body else None
            api.log.append(Request(self.command, self.path, status, parsed))
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("X-GitHub-Api-Version-Selected", "2022-11-28")
            self.send_header("X-GitHub-Media-Type", "github.v3; format=json")
            self.send_header("X-GitHub-Request-Id", f"0000:{len(api.log):04X}:0:0:0")
            for name, value in {**api.rate_headers(), **extra}.items():
                self.send_header(name, value)
            self.end_headers()
            if cut:  # the length promised, half of it sent, the connection closed
                self.wfile.write(data[: len(data) // 2])
                self.close_connection = True
                return
            self.wfile.write(data)

        do_GET = do_POST = do_PATCH = do_DELETE = _serve

        def log_message(self, format: str, *args: Any) -> None:
            pass  # the request log is `api.log`

    return Handler
