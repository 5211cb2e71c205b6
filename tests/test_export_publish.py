"""`curator github release`: PyGithub over real HTTP against a local stand-in for GitHub.

The stand-in answers the release endpoints the command uses as GitHub's REST API does:
paths, status codes, JSON shapes (`url`, the `upload_url` template, asset objects), `Link`
pagination and error bodies. The shared stand-in of the review bot (tests/github_server.py)
serves pull requests and comments only, and reads every request body as JSON, so binary
asset uploads cannot go through it; these few routes live here instead.

GitHub "renames asset filenames that have special characters, non-alphanumeric
characters, and leading or trailing periods" and lists them renamed (its documentation of
"Upload a release asset"); it does not say into what. Here each character but an ASCII
letter, digit, `-`, `_` or `.` becomes `.`, as users report of spaces, `~`, `(` and `:`
(softprops/action-gh-release#159): the tests rely only on the name being changed.

A tag is read as `GET /repos/{o}/{r}/git/ref/tags/{tag}` answers: a commit for a
lightweight tag, a tag object (`GET …/git/tags/{sha}` names its commit) for an annotated
one. Creating a release of a tag that does not exist creates the tag at
`target_commitish`, "Default: the repository's default branch" (its documentation of
"Create a release"), which is ignored when the tag exists.
"""

from __future__ import annotations

import json
import re
import subprocess
import threading
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from conftest import run_curator, stopped_as_a_folder_is_made, stopped_as_it_loads
from test_export import GitLibrary, files_of, run_consumer

from curator.export.publish import archive_name, publish, release_assets, tag_problem
from curator.github.client import GitHubError
from incidents import incident

OWNER, NAME, TOKEN = "incident-library", "library", "test-token"
READ_ONLY = "read-only-token"
PAGES = f"https://{OWNER}.github.io/{NAME}/"  # the repository's Pages site, as GitHub names it
COMMIT = "c0" * 20  # what the in-process tests' exports are of
DEFAULT_BRANCH_HEAD = "de" * 20
TOKENS = (TOKEN, READ_ONLY)
TOP_LEVEL = [
    "changes.json", "feed.atom", "graph.json", "incidents.csv", "incidents.json",
    "manifest.json", "taxonomy.json",
]  # fmt: skip


@dataclass
class FakeGitHub:
    base: str = ""
    releases: dict[int, dict[str, Any]] = field(default_factory=dict)
    assets: dict[int, dict[str, Any]] = field(default_factory=dict)
    blobs: dict[int, bytes] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    next_id: int = 1
    lose_answer_to: set[str] = field(default_factory=set)  # uploads stored, then a 502
    raw: dict[str, bytes] = field(default_factory=dict)  # "GET /path" → a 200 that is not JSON
    tags: dict[str, str] = field(default_factory=dict)  # name → commit, or an annotated tag's sha
    tag_objects: dict[str, str] = field(default_factory=dict)  # annotated tag's sha → commit

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    def add_release(
        self,
        tag: str,
        name: str | None,
        body: str | None,
        draft: bool = False,
        target: str | None = COMMIT,
    ) -> int:
        """A release as GitHub makes it: a published one's tag is made if it was missing."""
        number = self.new_id()
        self.releases[number] = {
            "id": number,
            "tag_name": tag,
            "target_commitish": target or "main",
            "name": name,
            "body": body,
            "draft": draft,
            "prerelease": False,
        }
        if not draft:
            self.tags.setdefault(tag, target or DEFAULT_BRANCH_HEAD)
        return number

    def add_annotated_tag(self, tag: str, commit: str) -> None:
        sha = f"{len(self.tag_objects):040x}"
        self.tag_objects[sha] = commit
        self.tags[tag] = sha

    def release_json(self, release: dict[str, Any]) -> dict[str, Any]:
        number = release["id"]
        api = f"{self.base}/repos/{OWNER}/{NAME}/releases/{number}"
        return {
            **release,
            "url": api,
            "assets_url": f"{api}/assets",
            "upload_url": f"{self.base}/api/uploads/repos/{OWNER}/{NAME}/releases/{number}"
            "/assets{?name,label}",
            "html_url": f"https://github.com/{OWNER}/{NAME}/releases/tag/{release['tag_name']}",
            "assets": [a for a in self.assets.values() if a["release_id"] == number],
        }


def renamed(name: str) -> str:
    """`name` as GitHub stores an asset's (see the top of this file)."""
    return re.sub(r"[^A-Za-z0-9._-]", ".", name, flags=re.ASCII)


def make_handler(state: FakeGitHub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as GitHub answers

        def log_message(self, *args: Any) -> None:  # the test keeps its own log
            pass

        def _send(self, status: int, body: Any = None, headers: dict[str, str] | None = None):
            data = b"" if body is None else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("X-RateLimit-Limit", "5000")
            self.send_header("X-RateLimit-Remaining", "4999")
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

        def _send_raw(self, data: bytes) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _error(self, status: int, message: str) -> None:
            self._send(
                status,
                {
                    "message": message,
                    "documentation_url": "https://docs.github.com/rest",
                    "status": str(status),
                },
            )

        def _route(self, method: str) -> None:
            url = urlsplit(self.path)
            query = parse_qs(url.query)
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            state.log.append(
                f"{method} {url.path}" + (f"?name={query['name'][0]}" if "name" in query else "")
            )
            if f"{method} {url.path}" in state.raw:  # a proxy's page, or a cut answer
                return self._send_raw(state.raw[f"{method} {url.path}"])
            given = self.headers.get("Authorization")
            if given in (f"token {READ_ONLY}", f"Bearer {READ_ONLY}") and method != "GET":
                # GitHub's answer to a GITHUB_TOKEN without `contents: write`.
                return self._error(403, "Resource not accessible by integration")
            if given not in (f"{how} {token}" for how in ("token", "Bearer") for token in TOKENS):
                return self._error(401, "Bad credentials")
            repo = f"/repos/{OWNER}/{NAME}"
            if match := re.fullmatch(rf"{repo}/releases/tags/(.+)", unquote(url.path)):
                # Published releases only: GitHub answers 404 for a draft's tag.
                found = [
                    r
                    for r in state.releases.values()
                    if r["tag_name"] == match[1] and not r["draft"]
                ]
                if not found:
                    return self._error(404, "Not Found")
                return self._send(200, state.release_json(found[0]))
            if method == "GET" and url.path == f"{repo}/releases":
                listed = [state.release_json(r) for r in state.releases.values()]
                return self._page(listed[::-1], url.path, query)  # newest first
            if method == "POST" and url.path == f"{repo}/releases":
                data = json.loads(body)
                published = (r for r in state.releases.values() if not r["draft"])
                if any(r["tag_name"] == data["tag_name"] for r in published):
                    return self._error(422, "Validation Failed")  # drafts do not hold a tag
                number = state.add_release(
                    data["tag_name"],
                    data.get("name"),
                    data.get("body"),
                    target=data.get("target_commitish"),
                )
                return self._send(201, state.release_json(state.releases[number]))
            if method == "GET" and (
                match := re.fullmatch(rf"{repo}/git/ref/tags/(.+)", unquote(url.path))
            ):
                if match[1] not in state.tags:
                    return self._error(404, "Not Found")
                sha = state.tags[match[1]]
                kind = "tag" if sha in state.tag_objects else "commit"
                return self._send(
                    200,
                    {
                        "ref": f"refs/tags/{match[1]}",
                        "url": f"{state.base}{url.path}",
                        "object": {"type": kind, "sha": sha, "url": f"{state.base}/{kind}s/{sha}"},
                    },
                )
            if method == "GET" and (match := re.fullmatch(rf"{repo}/git/tags/(\w+)", url.path)):
                if match[1] not in state.tag_objects:
                    return self._error(404, "Not Found")
                commit = state.tag_objects[match[1]]
                return self._send(
                    200,
                    {
                        "sha": match[1],
                        "tag": "annotated",
                        "message": "",
                        "object": {"type": "commit", "sha": commit, "url": f"{state.base}/c"},
                    },
                )
            if method == "GET" and (
                match := re.fullmatch(rf"{repo}/releases/(\d+)/assets", url.path)
            ):
                return self._page(
                    [a for a in state.assets.values() if a["release_id"] == int(match[1])],
                    url.path,
                    query,
                )
            if method == "POST" and (
                match := re.fullmatch(rf"/api/uploads{repo}/releases/(\d+)/assets", url.path)
            ):
                release_id, name = int(match[1]), renamed(query["name"][0])
                if any(
                    a["name"] == name and a["release_id"] == release_id
                    for a in state.assets.values()
                ):
                    return self._send(
                        422,
                        {
                            "message": "Validation Failed",
                            "errors": [
                                {
                                    "resource": "ReleaseAsset",
                                    "code": "already_exists",
                                    "field": "name",
                                }
                            ],
                        },
                    )
                number = state.new_id()
                state.blobs[number] = body
                state.assets[number] = {
                    "id": number,
                    "release_id": release_id,
                    "name": name,
                    "label": "",
                    "state": "uploaded",
                    "content_type": self.headers.get("Content-Type"),
                    "size": len(body),
                    "download_count": 0,
                    "url": f"{state.base}{repo}/releases/assets/{number}",
                    "browser_download_url": f"https://github.com/{OWNER}/{NAME}/releases/download/x/{name}",
                }
                if name in state.lose_answer_to:  # a proxy timing out after the write
                    state.lose_answer_to.discard(name)
                    return self._error(502, "Server Error")
                return self._send(201, state.assets[number])
            if method == "DELETE" and (
                match := re.fullmatch(rf"{repo}/releases/assets/(\d+)", url.path)
            ):
                state.assets.pop(int(match[1]))
                return self._send(204)
            return self._error(404, "Not Found")

        def _page(self, items: list[Any], path: str, query: dict[str, list[str]]) -> None:
            per_page = int(query.get("per_page", ["30"])[0])
            page = int(query.get("page", ["1"])[0])
            chunk = items[(page - 1) * per_page : page * per_page]
            headers = {}
            if page * per_page < len(items):
                headers["Link"] = (
                    f'<{state.base}{path}?per_page={per_page}&page={page + 1}>; rel="next"'
                )
            self._send(200, chunk, headers)

        def do_GET(self) -> None:
            self._route("GET")

        def do_POST(self) -> None:
            self._route("POST")

        def do_DELETE(self) -> None:
            self._route("DELETE")

    return Handler


@pytest.fixture
def github() -> Iterator[FakeGitHub]:
    state = FakeGitHub()
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(state))
    state.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state
    server.shutdown()
    server.server_close()


@pytest.fixture
def exported(tmp_path: Path) -> Path:
    repo = GitLibrary(tmp_path / "lib")
    repo.write("IL-0001.yaml", incident("IL-0001"))
    repo.write("IL-0002.yaml", incident("IL-0002"))
    repo.commit("2024-01-01T00:00:00")
    repo.git("tag", "v1.0.0")
    out = tmp_path / "export"
    args = ("--root", str(repo.root), "--out", str(out), "--base-url", PAGES)
    assert run_curator("export", *args).code == 0
    return out


def release(github: FakeGitHub, export_dir: Path, token: str = TOKEN, tag: str = "v1.0.0"):
    env = {"GITHUB_TOKEN": token, "GITHUB_API_URL": github.base}
    return run_curator(
        "github", "release", "--repo", f"{OWNER}/{NAME}", "--tag", tag,
        "--dir", str(export_dir), env=env,
    )  # fmt: skip


def commit_of(export_dir: Path) -> str:
    return json.loads((export_dir / "manifest.json").read_text(encoding="utf-8"))["commit"]


def test_first_run_creates_the_release_and_uploads_the_export(github, exported, tmp_path):
    run = release(github, exported)
    assert run.code == 0, run.err
    print("\n".join(github.log))
    repo = f"/repos/{OWNER}/{NAME}"
    assets = [*TOP_LEVEL, "incident-library-v1.0.0.zip"]
    assert github.log == [
        f"GET {repo}/git/ref/tags/v1.0.0",  # which commit the tag names, if it exists
        f"GET {repo}/releases/tags/v1.0.0",
        f"GET {repo}/releases",  # a draft of the tag is found only here
        f"POST {repo}/releases",
        *[
            line
            for name in assets
            for line in (
                f"GET {repo}/releases/2/assets",
                f"POST /api/uploads{repo}/releases/2/assets?name={name}",
            )
        ],
    ]
    assert run.out.split() == assets
    assert [r["tag_name"] for r in github.releases.values()] == ["v1.0.0"]
    by_name = {a["name"]: a for a in github.assets.values()}
    for name in TOP_LEVEL:
        assert github.blobs[by_name[name]["id"]] == (exported / name).read_bytes()
    assert by_name["manifest.json"]["content_type"] == "application/json"
    assert by_name["feed.atom"]["content_type"] == "application/atom+xml"
    archive = tmp_path / "downloaded.zip"
    archive.write_bytes(github.blobs[by_name["incident-library-v1.0.0.zip"]["id"]])
    unpacked = tmp_path / "unpacked"
    with zipfile.ZipFile(archive) as opened:
        opened.extractall(unpacked)
    assert files_of(unpacked) == files_of(exported)
    assert run_consumer(str(unpacked)).returncode == 0
    assert re.fullmatch(rf"{len(assets)} assets attached to \S+/releases/tag/v1\.0\.0\n", run.err)


def test_a_new_tag_is_made_at_the_exported_commit_not_the_default_branch(github, exported):
    # A mistyped --tag created its release with no target_commitish, and GitHub made the
    # tag at the default branch's head, which need not be the commit exported.
    run = release(github, exported, tag="v9.9.9-typo")
    assert run.code == 0, run.err
    assert github.tags == {"v9.9.9-typo": commit_of(exported)}
    [made] = github.releases.values()
    assert made["target_commitish"] == commit_of(exported)


@pytest.mark.parametrize("annotated", [False, True])
def test_a_tag_of_another_commit_is_refused_and_nothing_is_written(github, exported, annotated):
    # The export of one commit was attached to the release of a tag of another.
    if annotated:
        github.add_annotated_tag("v1.0.0", DEFAULT_BRANCH_HEAD)
    else:
        github.tags["v1.0.0"] = DEFAULT_BRANCH_HEAD
    run = release(github, exported)
    assert run.code == 1
    assert run.err == (
        f"curator: release not published: tag v1.0.0 is at commit {DEFAULT_BRANCH_HEAD[:12]}, "
        f"the export is of {commit_of(exported)[:12]}; export the tag's commit, or name the "
        "tag of the export's\n"
    )
    assert github.releases == {} and github.assets == {}


def test_an_annotated_tag_of_the_exported_commit_gets_the_assets(github, tmp_path):
    github.add_annotated_tag("v1.0.0", COMMIT)
    env = {"GITHUB_TOKEN": TOKEN, "GITHUB_API_URL": github.base}
    published = publish(f"{OWNER}/{NAME}", "v1.0.0", COMMIT, small_assets(tmp_path / "a"), env)
    assert published.assets == ["manifest.json", "incidents.json"]
    assert [r["tag_name"] for r in github.releases.values()] == ["v1.0.0"]


def test_assets_attached_to_a_draft_say_it_is_one(github, exported):
    draft = github.add_release("v1.0.0", "v1.0.0", "notes", draft=True)
    run = release(github, exported)
    assert run.code == 0, run.err
    assert run.err.endswith(" (a draft: publish it there)\n"), run.err
    assert github.releases[draft]["draft"]


def small_assets(folder: Path) -> list[Path]:
    folder.mkdir()
    for name in ("manifest.json", "incidents.json"):
        (folder / name).write_text(json.dumps({"name": name}) + "\n", encoding="utf-8")
    return [folder / "manifest.json", folder / "incidents.json"]


# In-process from here: PyGithub waits a second between writes, as GitHub asks of clients,
# so these use two small assets rather than a whole export.


def test_a_repeated_run_replaces_the_assets_instead_of_failing(github, tmp_path):
    env = {"GITHUB_TOKEN": TOKEN, "GITHUB_API_URL": github.base}
    assets = small_assets(tmp_path / "assets")
    publish(f"{OWNER}/{NAME}", "v1.0.0", COMMIT, assets, env)
    first_ids = {a["id"] for a in github.assets.values()}
    github.log.clear()
    (tmp_path / "assets" / "manifest.json").write_text("{}\n", encoding="utf-8")
    published = publish(f"{OWNER}/{NAME}", "v1.0.0", COMMIT, assets, env)
    assert published.assets == ["manifest.json", "incidents.json"]
    assert len(github.releases) == 1
    by_name = {a["name"]: a for a in github.assets.values()}
    assert sorted(by_name) == ["incidents.json", "manifest.json"]
    assert not first_ids & {a["id"] for a in github.assets.values()}
    assert github.blobs[by_name["manifest.json"]["id"]] == b"{}\n"
    assert sum(line.startswith("DELETE ") for line in github.log) == 2


def test_a_draft_of_the_tag_gets_the_assets_and_no_second_release_is_made(github, tmp_path):
    # GitHub's tag endpoint does not see drafts: the draft a maintainer had written the
    # notes in was left empty, beside a second release of the same tag.
    env = {"GITHUB_TOKEN": TOKEN, "GITHUB_API_URL": github.base}
    github.add_release("v0.9.0", "v0.9.0", "older", draft=False)
    draft = github.add_release("v1.0.0", "v1.0.0", "노트: 새 분류", draft=True)
    published = publish(f"{OWNER}/{NAME}", "v1.0.0", COMMIT, small_assets(tmp_path / "assets"), env)
    assert sorted(github.releases) == [2, draft]
    assert github.releases[draft]["draft"] and github.releases[draft]["body"] == "노트: 새 분류"
    assert sorted(a["name"] for a in github.assets.values() if a["release_id"] == draft) == [
        "incidents.json",
        "manifest.json",
    ]
    assert published.release_url.endswith("/releases/tag/v1.0.0")
    assert published.draft  # (the command says so: "… (a draft: publish it there)")


def test_an_upload_whose_answer_is_lost_is_retried_without_a_duplicate(github, tmp_path):
    env = {"GITHUB_TOKEN": TOKEN, "GITHUB_API_URL": github.base}
    github.lose_answer_to.add("manifest.json")
    publish(f"{OWNER}/{NAME}", "v1.0.0", COMMIT, small_assets(tmp_path / "assets"), env)
    names = [a["name"] for a in github.assets.values()]
    assert sorted(names) == ["incidents.json", "manifest.json"]
    uploads = [line for line in github.log if line.endswith("?name=manifest.json")]
    assert len(uploads) == 2  # stored, answer lost; found by name, replaced
    assert sum(line.startswith("DELETE ") for line in github.log) == 1


def test_the_zip_of_a_tag_github_would_rename_is_replaced_by_a_second_run(
    github, exported, tmp_path
):
    # The zip was named after the tag, and GitHub renamed a Korean one: the names printed
    # were not the release's, and a second run, not finding the zip by its name to replace
    # it, was refused the upload as a duplicate (422 already_exists).
    env = {"GITHUB_TOKEN": TOKEN, "GITHUB_API_URL": github.base}
    tag = "v1.0-베타"
    archive = release_assets(exported, tag, tmp_path)[-1]
    first = publish(f"{OWNER}/{NAME}", tag, COMMIT, [archive], env)
    again = publish(f"{OWNER}/{NAME}", tag, COMMIT, [archive], env)
    stored = [a["name"] for a in github.assets.values()]
    assert first.assets == again.assets == stored == ["incident-library.zip"]
    assert [r["tag_name"] for r in github.releases.values()] == [tag]


def test_a_tag_with_slashes_is_released_with_the_plain_zip(github, exported):
    # git allows `/` in a tag's name; such a tag was refused as one that "cannot name a
    # release asset", though the zip is then named without it.
    run = release(github, exported, tag="release/2026-12")
    assert run.code == 0, run.err
    assert run.out.split() == [*TOP_LEVEL, "incident-library.zip"]
    assert [r["tag_name"] for r in github.releases.values()] == ["release/2026-12"]
    assert github.tags == {"release/2026-12": commit_of(exported)}
    assert github.log[:2] == [
        f"GET /repos/{OWNER}/{NAME}/git/ref/tags/release/2026-12",
        f"GET /repos/{OWNER}/{NAME}/releases/tags/release%2F2026-12",
    ]


@pytest.mark.parametrize(
    "tag",
    [
        "v1.0.0", "release/2026-12", "-x", "@", "a@b", "x.lock.y", "a./b", "베타", "a\u3000b",
        "", "a b", "a\\b", "a\tb", "a\x7fb", "v1~1", "a^", "a:b", "a?", "a*", "a[b", ".x",
        "x.", "a..b", "a@{b", "x.lock", "a/.b", "a/b.lock/c", "a//b", "/a", "a/",
    ],
)  # fmt: skip
def test_a_tag_is_refused_when_git_refuses_it_and_only_then(tag):
    git = subprocess.run(["git", "check-ref-format", f"refs/tags/{tag}"], check=False)
    assert (tag_problem(tag) is None) == (git.returncode == 0), tag_problem(tag)


def test_a_plain_tag_still_names_the_zip():
    assert archive_name("v1.0.0-rc_1") == "incident-library-v1.0.0-rc_1.zip"


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        (b"<html>Sign in to the proxy</html>", "the answer is not a release"),
        (b'{"id": 2, "upload_url": ', "an answer is not JSON"),
    ],
)
def test_an_answer_that_is_not_githubs_is_explained_in_one_line(github, tmp_path, raw, why):
    # A proxy's login page was taken for a release: the assets were then asked of "None",
    # an internal error (TypeError: string indices must be integers) when the proxy answered
    # that too, a 404 "check the pull request number" here. A cut answer: JSONDecodeError.
    github.raw[f"GET /repos/{OWNER}/{NAME}/releases/tags/v1.0.0"] = raw
    env = {"GITHUB_TOKEN": TOKEN, "GITHUB_API_URL": github.base}
    with pytest.raises(GitHubError) as caught:
        publish(f"{OWNER}/{NAME}", "v1.0.0", COMMIT, small_assets(tmp_path / "assets"), env)
    message = str(caught.value)
    assert message.startswith(f"release v1.0.0 of {OWNER}/{NAME}: {why}")
    assert "is GITHUB_API_URL the address of GitHub's REST API" in message
    assert "\n" not in message
    assert github.assets == {}


@pytest.mark.parametrize(
    ("field", "value"), [("html_url", None), ("draft", "no"), ("tag_name", [])]
)
def test_a_release_with_fields_github_never_gives_is_explained_in_one_line(
    github, tmp_path, field, value
):
    # A release answered without its address was reported as "… attached to None"; a
    # field of another type was an internal error (BadAttributeException, TypeError).
    github.add_release("v1.0.0", "v1.0.0", None)
    release = github.release_json(github.releases[2])
    release[field] = value
    github.raw[f"GET /repos/{OWNER}/{NAME}/releases/tags/v1.0.0"] = json.dumps(release).encode()
    env = {"GITHUB_TOKEN": TOKEN, "GITHUB_API_URL": github.base}
    with pytest.raises(GitHubError) as caught:
        publish(f"{OWNER}/{NAME}", "v1.0.0", COMMIT, small_assets(tmp_path / "assets"), env)
    assert str(caught.value).startswith(
        f"release v1.0.0 of {OWNER}/{NAME}: an answer is not in the shape GitHub gives ("
    )
    assert "is GITHUB_API_URL the address of GitHub's REST API" in str(caught.value)


@pytest.mark.parametrize(
    "answer", [b"<html>Sign in to the proxy</html>", b'{"object": {"type": "commit"}}']
)
def test_a_tag_read_that_is_not_githubs_is_explained_in_one_line(github, tmp_path, answer):
    github.raw[f"GET /repos/{OWNER}/{NAME}/git/ref/tags/v1.0.0"] = answer
    env = {"GITHUB_TOKEN": TOKEN, "GITHUB_API_URL": github.base}
    with pytest.raises(GitHubError) as caught:
        publish(f"{OWNER}/{NAME}", "v1.0.0", COMMIT, small_assets(tmp_path / "assets"), env)
    assert str(caught.value).startswith(
        "reading tag v1.0.0: the answer is not a git reference; is GITHUB_API_URL the address"
    )
    assert github.releases == {} and github.assets == {}


@pytest.mark.parametrize("listing", ["releases", "releases/3/assets"])
def test_a_page_of_a_list_that_is_not_one_is_explained_in_one_line(github, tmp_path, listing):
    # Either was an internal error (TypeError: string indices must be integers).
    github.add_release("v1.0.0", "v1.0.0", None, draft=True)  # read from the list: id 2
    github.add_release("v0.9.0", "v0.9.0", None)  # id 3, whose assets are asked for
    tag = "v0.9.0" if "assets" in listing else "v1.0.0"
    github.raw[f"GET /repos/{OWNER}/{NAME}/{listing}"] = b"<html>Sign in to the proxy</html>"
    env = {"GITHUB_TOKEN": TOKEN, "GITHUB_API_URL": github.base}
    with pytest.raises(GitHubError) as caught:
        publish(f"{OWNER}/{NAME}", tag, COMMIT, small_assets(tmp_path / "assets"), env)
    assert "a page of them is not a list; is GITHUB_API_URL the address" in str(caught.value)
    assert github.assets == {}


def test_a_repository_github_does_not_have_is_named_not_a_pull_request(github, tmp_path):
    env = {"GITHUB_TOKEN": TOKEN, "GITHUB_API_URL": github.base}
    with pytest.raises(GitHubError) as caught:
        publish(f"{OWNER}/elsewhere", "v1.0.0", COMMIT, small_assets(tmp_path / "assets"), env)
    assert str(caught.value) == (
        f"release v1.0.0 of {OWNER}/elsewhere: not found (404 Not Found); check the "
        "repository, and that the token can see the repository (GITHUB_API_URL for GitHub "
        "Enterprise)"
    )


def test_a_refused_token_is_one_line_and_exit_2(github, exported):
    run = release(github, exported, token="wrong")
    assert run.code == 2
    assert run.err.startswith("curator: release not published: release v1.0.0 of ")
    assert "GitHub does not accept the token (401 Bad credentials)" in run.err
    assert len(run.err.strip().splitlines()) == 1
    assert github.assets == {}


def test_a_token_that_may_not_write_releases_says_which_permission_and_exits_2(github, exported):
    run = release(github, exported, token=READ_ONLY)
    assert run.code == 2
    assert run.err.startswith("curator: release not published: release v1.0.0 of ")
    assert run.err.endswith(
        ": the token may not write releases (403); the job needs `permissions: contents: write`\n"
    )
    assert github.releases == {} and github.assets == {}


def test_without_a_token_nothing_is_sent(github, exported):
    run = release(github, exported, token="")
    assert run.code == 2 and "GITHUB_TOKEN is not set" in run.err
    assert github.log == []


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        (
            "--tag",
            "release 1",  # refused with a reason git has: it was "cannot name a release asset"
            "Invalid value for --tag: 'release 1' is not a tag name git allows: it holds a "
            "space — see",
        ),
        ("--tag", "", "Invalid value for --tag: '' is not a tag name git allows: it is empty"),
        ("--repo", "octo lib", "Invalid value for --repo: OWNER/NAME expected"),
    ],
)
def test_a_tag_or_repository_it_cannot_use_is_a_usage_error(
    github, exported, option, value, message
):
    # A `/` in the tag, which names the zip, was an internal error (FileNotFoundError); a
    # repository name was sent to GitHub as it was.
    args = {"--repo": f"{OWNER}/{NAME}", "--tag": "v1.0.0", option: value}
    env = {"GITHUB_TOKEN": TOKEN, "GITHUB_API_URL": github.base}
    run = run_curator(
        "github", "release", *(a for pair in args.items() for a in pair), "--dir", str(exported),
        env=env,
    )  # fmt: skip
    assert run.code == 2 and message in run.err
    assert github.log == []


@pytest.mark.parametrize("api_url", ["not a url", "http://[::1", "ftp://x.org", "http://x:99999"])
def test_a_malformed_api_url_is_one_line_and_nothing_is_sent(github, exported, api_url):
    # Each was an internal error inside PyGithub (AttributeError, ValueError, AssertionError).
    env = {"GITHUB_TOKEN": TOKEN, "GITHUB_API_URL": api_url}
    run = run_curator(
        "github", "release", "--repo", f"{OWNER}/{NAME}", "--tag", "v1.0.0",
        "--dir", str(exported), env=env,
    )  # fmt: skip
    assert run.code == 2
    assert run.err == (
        f"curator: release not published: GITHUB_API_URL is {api_url!r}, "
        "not an http(s) address such as https://api.github.com\n"
    )


@pytest.mark.parametrize(
    ("manifest", "why"),
    [
        (b"{}", "no generated_at"),
        (b'{"generated_at": "yesterday"}', "generated_at 'yesterday' is not a UTC time"),
        (b'["generated_at"]', "no generated_at"),
        (b"\xff{", "not UTF-8 JSON"),
        (b'{"generated_at": "2024-01-01T00:00:00Z", "commit": "main"}', "no commit"),
    ],
)
def test_a_manifest_that_is_not_an_exports_is_one_line_and_nothing_is_sent(
    github, tmp_path, manifest, why
):
    # Each was "curator: internal error: KeyError: 'generated_at'" (or ValueError, …).
    (tmp_path / "manifest.json").write_bytes(manifest)
    run = release(github, tmp_path)
    assert run.code == 2
    assert run.err == (
        f"curator: release not published: {tmp_path / 'manifest.json'} is not the "
        f"manifest of an export ({why}); run `curator export` again\n"
    )
    assert github.log == []


def test_ctrl_c_as_the_working_folder_is_made_leaves_nothing_behind(github, exported, tmp_path):
    # A stop between mkdtemp making the folder the zip is built in and TemporaryDirectory
    # keeping its name (to delete it) left it in the temporary folder for good.
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {"GITHUB_TOKEN": TOKEN, "GITHUB_API_URL": github.base, "TMPDIR": str(temporary)}
    run = stopped_as_a_folder_is_made(
        "github", "release", "--repo", f"{OWNER}/{NAME}", "--tag", "v1.0.0",
        "--dir", str(exported), env=env,
    )  # fmt: skip
    assert (run.code, run.out, run.err) == (2, "", "curator: interrupted\n")
    assert list(temporary.iterdir()) == []
    assert github.log == []


def test_ctrl_c_as_the_release_loads_strptime_is_not_dropped(github, exported):
    # Python loads `_strptime` on strptime's first use, here as the zip is dated, mid-run:
    # a stop then was printed ("Exception ignored in: …") and dropped, and the release
    # was published.
    env = {"GITHUB_TOKEN": TOKEN, "GITHUB_API_URL": github.base}
    run = stopped_as_it_loads(
        "_strptime", "github", "release", "--repo", f"{OWNER}/{NAME}", "--tag", "v1.0.0",
        "--dir", str(exported), env=env,
    )  # fmt: skip
    assert (run.code, run.out, run.err) == (2, "", "curator: interrupted\n")
    assert github.log == []


def test_a_folder_that_is_not_an_export_is_refused(github, tmp_path):
    run = release(github, tmp_path)
    assert run.code == 2 and "holds no manifest.json" in run.err
    assert github.log == []


def test_an_export_whose_feed_links_to_the_placeholder_is_refused_and_nothing_is_sent(
    github, tmp_path
):
    # An export made by hand without --base-url links its feed into the placeholder
    # https://incident-library.github.io/, which nothing publishes: attached to a release,
    # its feed sent every reader to a site that is not there (or another library's).
    repo = GitLibrary(tmp_path / "lib")
    repo.write("IL-0001.yaml", incident("IL-0001"))
    repo.commit("2024-01-01T00:00:00")
    out = tmp_path / "export"
    assert run_curator("export", "--root", str(repo.root), "--out", str(out)).code == 0
    run = release(github, out)
    assert (run.code, run.out) == (2, "")
    assert run.err == (
        f"curator: release not published: {out / 'feed.atom'} links to "
        "https://incident-library.github.io/, the placeholder `curator export` uses without "
        "--base-url; export again with --base-url and the address of the site the exports "
        "are published to\n"
    )
    assert github.log == []
    # The repository's own Pages site, on that same host, is no placeholder.
    args = ("--root", str(repo.root), "--out", str(out), "--base-url", PAGES)
    assert run_curator("export", *args).code == 0
    assert release(github, out).code == 0
    assert [r["tag_name"] for r in github.releases.values()] == ["v1.0.0"]


def test_a_feed_that_is_not_xml_is_one_line_and_nothing_is_sent(github, exported):
    (exported / "feed.atom").write_bytes(b"<feed")
    run = release(github, exported)
    assert run.code == 2
    assert run.err.startswith(f"curator: release not published: {exported / 'feed.atom'} is not ")
    assert run.err.endswith("; run `curator export` again\n") and run.err.count("\n") == 1
    assert github.log == []
