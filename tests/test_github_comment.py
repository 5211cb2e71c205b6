"""`curator github comment`: PyGithub over real HTTP against tests/github_server.py, fed the
real webhook payloads in ../shared/github."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, ended, run_curator, start_python, write_library
from github_server import FakeGitHub, primary_rate_limit, secondary_rate_limit

from curator.github.client import Forbidden, GitHubError
from curator.github.post import post_comment
from curator.github.retry import RetryPolicy
from curator.github.verify import Mismatch, RunEvent, Stale

EXAMPLES = REPO.parent / "shared" / "github" / "webhook-examples.json"
MARKER = "<!-- curator-review -->"
BOT = "github-actions[bot]"
HEAD = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"  # the head of PR #2 in the payloads


def payloads(event: str) -> list[dict[str, Any]]:
    if not EXAMPLES.is_file():  # one line for each test, not a traceback
        pytest.fail(
            f"{EXAMPLES} is missing: these tests post the review comment for GitHub's real "
            "webhook payloads; README.md says where the file comes from",
            pytrace=False,
        )
    return json.loads(EXAMPLES.read_text(encoding="utf-8"))[event]


def opened_pull() -> dict[str, Any]:
    return next(p for p in payloads("pull_request") if p["action"] == "opened")["pull_request"]


def fork_pull() -> dict[str, Any]:
    """The same pull request, its branch in a fork (what a first-time contributor opens)."""
    pull = opened_pull()
    pull["head"]["repo"]["full_name"] = "contributor/Hello-World"
    pull["head"]["repo"]["fork"] = True
    pull["head"]["label"] = "contributor:changes"
    return pull


def run_event(pull: dict[str, Any], tmp_path: Path, fork: bool = False) -> Path:
    """A workflow_run event for the review run of `pull`. The payloads' workflow_run
    examples are of repository_dispatch runs; the fields a pull_request run carries are set
    as GitHub sets them (no `pull_requests` entry for a fork's branch)."""
    event = next(p for p in payloads("workflow_run") if p["workflow_run"]["pull_requests"])
    run = event["workflow_run"]
    run["event"] = "pull_request"
    run["head_sha"] = pull["head"]["sha"]
    run["head_repository"]["full_name"] = pull["head"]["repo"]["full_name"]
    event["repository"]["full_name"] = repo = pull["base"]["repo"]["full_name"]
    event["repository"]["id"] = pull["base"]["repo"]["id"]
    run["html_url"] = f"https://github.com/{repo}/actions/runs/{run['id']}"
    listed = {"number": pull["number"], "head": pull["head"], "base": pull["base"]}
    run["pull_requests"] = [] if fork else [listed]
    path = tmp_path / "event.json"
    path.write_text(json.dumps(event), encoding="utf-8")
    return path


@pytest.fixture
def github() -> Iterator[FakeGitHub]:
    server = FakeGitHub()
    server.add_token("bot-token", BOT)
    server.add_token("read-only", BOT, write=False)
    with server.running():
        yield server


def env(server: FakeGitHub, token: str = "bot-token") -> dict[str, str]:
    return {"GITHUB_TOKEN": token, "GITHUB_API_URL": server.url}


def no_wait() -> tuple[RetryPolicy, list[float]]:
    waits: list[float] = []
    return RetryPolicy(sleep=waits.append), waits


def body(text: str) -> str:
    return f"{MARKER}\n{text}\n"


def post(server: FakeGitHub, text: str, **kw: Any) -> Any:
    pull = server.repos["Codertocat/Hello-World"]["pulls"][2]
    policy = kw.pop("policy", None) or no_wait()[0]
    return post_comment(
        "Codertocat/Hello-World",
        pull["number"],
        body(text),
        MARKER,
        env=kw.pop("env", None) or env(server),
        policy=policy,
        **kw,
    )


def bot_comments(server: FakeGitHub) -> list[dict[str, Any]]:
    return [
        c
        for c in server.thread("Codertocat/Hello-World", 2)
        if MARKER in c["body"] and c["user"]["login"] == BOT
    ]


def test_payloads_are_found_beside_the_repository():
    assert EXAMPLES.is_file(), "CI needs ../shared/github beside the clone"
    assert opened_pull()["head"]["sha"] == HEAD


def test_first_run_creates_changed_edits_identical_writes_nothing(github):
    github.add_pull(opened_pull())
    assert post(github, "report 1", head_sha=HEAD).action == "created"
    first = github.requests()
    assert post(github, "report 2").action == "edited"
    changed = github.requests()[len(first) :]
    assert post(github, "report 2").action == "unchanged"
    identical = github.requests()[len(first) + len(changed) :]

    assert first == [
        "GET /repos/Codertocat/Hello-World/pulls/2 → 200",
        "GET /repos/Codertocat/Hello-World/issues/2/comments?per_page=100 → 200",
        "POST /repos/Codertocat/Hello-World/issues/2/comments → 201",
    ]
    assert changed[-1].startswith("PATCH /repos/Codertocat/Hello-World/issues/comments/")
    assert [r.split()[0] for r in identical] == ["GET", "GET"]  # read only, nothing written
    [comment] = bot_comments(github)
    assert comment["body"] == body("report 2")


def test_more_than_100_comments_still_finds_its_own_on_a_later_page(github):
    github.add_pull(opened_pull())
    for i in range(60):
        github.add_comment("Codertocat/Hello-World", 2, f"comment {i}", "reviewer")
    post(github, "report 1")
    for i in range(150):
        github.add_comment("Codertocat/Hello-World", 2, f"later comment {i}", "reviewer")
    start = len(github.log)
    assert post(github, "report 2").action == "edited"
    pages = [r.path for r in github.log[start:] if r.method == "GET" and "comments" in r.path]
    assert len(pages) == 3  # 211 comments, 100 a page, Link rel="next" followed
    assert pages[1].startswith("/repositories/186853002/issues/2/comments?")
    assert len(bot_comments(github)) == 1
    assert bot_comments(github)[0]["body"] == body("report 2")


def test_a_comment_by_someone_else_with_the_marker_is_left_alone(github):
    github.add_pull(opened_pull())
    quoted = f"> {MARKER}\n> the bot said this; I disagree"
    github.add_comment("Codertocat/Hello-World", 2, quoted, "Codertocat")
    assert post(github, "report").action == "created"
    thread = github.thread("Codertocat/Hello-World", 2)
    assert [c["body"] for c in thread] == [quoted, body("report")]
    assert not any(r.method == "PATCH" for r in github.log)


def test_another_workflows_comment_quoting_the_marker_is_left_alone(github):
    # Another workflow posts as the same account and quotes the pull request's description,
    # where its author put the marker: that comment was edited into the report (or deleted
    # as an extra copy of it).
    github.add_pull(opened_pull())
    welcome = f"Thanks! Your description:\n\n> 고쳤습니다 {MARKER}"
    github.add_comment("Codertocat/Hello-World", 2, welcome, BOT, kind="Bot")
    assert post(github, "report").action == "created"
    thread = github.thread("Codertocat/Hello-World", 2)
    assert [c["body"] for c in thread] == [welcome, body("report")]


def test_502_then_success_ends_with_exactly_one_comment(github):
    github.add_pull(opened_pull())
    github.fail("POST", r"/issues/2/comments$", 502)
    policy, waits = no_wait()
    assert post(github, "report", policy=policy).action == "created"
    assert len(bot_comments(github)) == 1
    assert waits == [2.0]
    assert [r.status for r in github.log if r.method == "POST"] == [502, 201]


def test_502_after_github_stored_the_comment_is_not_posted_twice(github):
    # The proxy times out after the write landed: replaying the POST would make two.
    github.add_pull(opened_pull())
    github.fail("POST", r"/issues/2/comments$", 502, after_write=True)
    assert post(github, "report").action == "unchanged"
    assert len(bot_comments(github)) == 1
    assert [r.status for r in github.log if r.method == "POST"] == [502]


def test_a_connection_dropped_mid_answer_is_retried_and_posts_one_comment(github):
    # requests' ChunkedEncodingError was not retried, as a refused connection is: the run
    # failed (exit 2) on the first answer cut short.
    github.add_pull(opened_pull())
    github.fail("GET", r"/pulls/2$", 200, cut=True)
    github.fail("POST", r"/issues/2/comments$", 201, cut=True)  # stored, the answer cut
    policy, waits = no_wait()
    assert post(github, "report", policy=policy).action == "unchanged"
    assert waits == [2.0, 2.0]  # each call has its own count of attempts
    assert [c["body"] for c in bot_comments(github)] == [body("report")]
    pull, thread = "GET /repos/Codertocat/Hello-World/pulls/2", "/issues/2/comments"
    assert [r.split(" → ")[0] for r in github.requests()] == [
        pull, pull, f"GET /repos/Codertocat/Hello-World{thread}?per_page=100",
        f"POST /repos/Codertocat/Hello-World{thread}",
        f"GET /repos/Codertocat/Hello-World{thread}?per_page=100",  # found: not posted again
    ]  # fmt: skip


def test_extra_copies_from_racing_runs_are_deleted(github):
    github.add_pull(opened_pull())
    github.add_comment("Codertocat/Hello-World", 2, body("old"), BOT, kind="Bot")
    github.add_comment("Codertocat/Hello-World", 2, body("older race"), BOT, kind="Bot")
    outcome = post(github, "new")
    assert (outcome.action, outcome.removed) == ("edited", 1)
    assert [c["body"] for c in bot_comments(github)] == [body("new")]


def test_an_extra_copy_a_racing_run_deleted_first_is_not_a_failure(github):
    # Both runs read the two copies; the other deleted the newer one first, so GitHub
    # answers this run's DELETE with 404. That was exit 2, "not found; check the repository".
    github.add_pull(opened_pull())
    github.add_comment("Codertocat/Hello-World", 2, body("old"), BOT, kind="Bot")
    github.add_comment("Codertocat/Hello-World", 2, body("older race"), BOT, kind="Bot")
    github.fail("DELETE", r"/issues/comments/\d+$", 404, after_write=True)
    assert post(github, "new").action == "edited"
    assert [c["body"] for c in bot_comments(github)] == [body("new")]
    assert [r.method for r in github.log if r.method != "GET"] == ["DELETE", "PATCH"]


def test_a_comment_deleted_between_reading_and_editing_is_posted_afresh(github):
    # Someone deleted the bot's comment after the run read the thread: the PATCH got a 404
    # and the run ended with exit 2, "not found; check the repository", nothing posted.
    github.add_pull(opened_pull())
    github.add_comment("Codertocat/Hello-World", 2, body("old"), BOT, kind="Bot")
    read = json.dumps(github.thread("Codertocat/Hello-World", 2)).encode()
    github.fail("GET", r"/issues/2/comments$", 200, raw=read)  # the thread as first read
    [deleted] = github.repos["Codertocat/Hello-World"]["issues"][2]
    github.comments.pop(deleted)
    github.repos["Codertocat/Hello-World"]["issues"][2].clear()
    assert post(github, "새 보고서").action == "created"
    assert [c["body"] for c in bot_comments(github)] == [body("새 보고서")]
    assert [(r.method, r.status) for r in github.log if r.method != "GET"] == [
        ("PATCH", 404),
        ("POST", 201),
    ]


def test_secondary_rate_limit_waits_as_long_as_retry_after_says(github):
    github.add_pull(opened_pull())
    github.fail("GET", r"/issues/2/comments$", **secondary_rate_limit(retry_after=7))
    policy, waits = no_wait()
    assert post(github, "report", policy=policy).action == "created"
    assert waits == [7.0]


def test_primary_rate_limit_waits_until_the_reset(github):
    github.add_pull(opened_pull())
    github.fail("GET", r"/pulls/2$", **primary_rate_limit(reset_in=30))
    policy, waits = no_wait()
    assert post(github, "report", policy=policy).action == "created"
    assert len(waits) == 1 and 29 <= waits[0] <= 32


def test_a_rate_limit_reset_an_hour_away_gives_up_at_once_with_one_line(github):
    github.add_pull(opened_pull())
    github.fail("GET", r"/pulls/2$", **primary_rate_limit(reset_in=3600))
    policy, waits = no_wait()
    with pytest.raises(GitHubError, match=r"asks to wait 3\d\d\d s, more than the 90 s") as info:
        post(github, "report", policy=policy)
    assert waits == [] and "\n" not in str(info.value)
    assert bot_comments(github) == []


def test_persistent_5xx_gives_up_after_bounded_attempts(github):
    github.add_pull(opened_pull())
    github.fail("GET", r"/pulls/2$", 503, times=99)
    policy, waits = no_wait()
    with pytest.raises(GitHubError, match=r"server error \(503.*still after 5 attempts"):
        post(github, "report", policy=policy)
    assert waits == [2.0, 4.0, 8.0, 16.0]
    assert len(github.log) == 5


def test_403_on_a_fork_pull_request_is_forbidden_not_a_crash(github):
    github.add_pull(fork_pull())
    with pytest.raises(Forbidden, match="Resource not accessible by integration"):
        post(github, "report", env=env(github, "read-only"))
    assert bot_comments(github) == []
    assert [r.status for r in github.log] == [200, 200, 403]  # a 403 is never retried


def test_403_on_a_locked_conversation_says_so_not_the_fork_advice(github):
    # A locked conversation got the advice for a fork's read-only token, which no
    # permission in the workflow could have helped.
    github.add_pull(opened_pull())
    locked = {"message": "Unable to create comment because issue is locked."}
    github.fail("POST", r"/issues/2/comments$", 403, body=locked)
    with pytest.raises(Forbidden) as info:
        post(github, "report")
    said = str(info.value)
    assert "the conversation is locked" in said and "unlock it to comment" in said
    assert "permissions" not in said and "fork" not in said
    assert bot_comments(github) == []


def test_a_token_of_another_account_than_the_author_is_named_not_a_permission(github):
    # A person's token edits the comment github-actions[bot] wrote: GitHub refuses it, and
    # the run said the workflow lacked `pull-requests: write` (exit 0, nothing posted).
    github.add_token("alice-token", "alice", kind="User")
    github.add_pull(opened_pull())
    github.add_comment("Codertocat/Hello-World", 2, body("old"), BOT, kind="Bot")
    with pytest.raises(GitHubError) as info:
        post(github, "new", env=env(github, "alice-token"))
    assert not isinstance(info.value, Forbidden)  # which the command takes for exit 0
    [old] = bot_comments(github)
    assert str(info.value) == (
        "the token posts as alice, but --author is github-actions[bot]: GitHub refused "
        f"alice a change to github-actions[bot]'s comment {old['html_url']} (403 Resource "
        "not accessible by integration); pass --author alice, or a token of "
        "github-actions[bot]"
    )
    assert old["body"] == body("old")
    assert [(r.method, r.path, r.status) for r in github.log][2:] == [
        ("PATCH", f"/repos/Codertocat/Hello-World/issues/comments/{old['id']}", 403),
        ("GET", "/user", 200),
    ]


def test_an_app_token_refused_the_authors_comment_says_both_what_may_be_wrong(github):
    # GitHub does not tell an app's token its account (GET /user: 403), so a wrong --author
    # cannot be told from a missing permission; the run advised only the permission.
    github.add_token("app-token", "incident-curator[bot]")
    github.add_pull(opened_pull())
    github.add_comment("Codertocat/Hello-World", 2, body("old"), BOT, kind="Bot")
    with pytest.raises(Forbidden) as info:  # exit 0, as for a fork's read-only token
        post(github, "new", env=env(github, "app-token"))
    [old] = bot_comments(github)
    assert str(info.value) == (
        f"GitHub refused a change to github-actions[bot]'s comment {old['html_url']} (403 "
        "Resource not accessible by integration); the account the token posts as cannot be "
        "told (GitHub does not tell an app's token): if it is not github-actions[bot], pass "
        "--author with it (an app's is NAME[bot]); if it is, the token lacks `permissions: "
        "pull-requests: write`, which GitHub never grants to a `pull_request` run from a fork"
    )
    assert old["body"] == body("old")
    assert github.requests()[-1] == "GET /user → 403"


@pytest.mark.parametrize("token", ["read-only", "read-only-person"])
def test_a_token_without_write_permission_on_the_authors_comment_is_still_forbidden(github, token):
    # The author's own token, or one whose account cannot be told (an app's): the
    # permission is what is missing, or may be.
    github.add_token("read-only-person", BOT, write=False, kind="User")
    github.add_pull(fork_pull())
    github.add_comment("Codertocat/Hello-World", 2, body("old"), BOT, kind="Bot")
    with pytest.raises(Forbidden, match="pull-requests: write"):
        post(github, "new", env=env(github, token))
    assert [c["body"] for c in bot_comments(github)] == [body("old")]


@pytest.mark.parametrize(
    ("token", "number", "expected"),
    [
        ("wrong-token", 2, "does not accept the token (401 Bad credentials)"),
        ("bot-token", 99, "not found (404 Not Found); check the repository"),
    ],
)
def test_401_and_404_are_explained_in_one_line(github, token, number, expected):
    github.add_pull(opened_pull())
    with pytest.raises(GitHubError) as info:
        post_comment("Codertocat/Hello-World", number, body("r"), MARKER, env=env(github, token))
    assert expected in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"<html>Sign in to the proxy</html>", "reading pull request #2 of {}: the answer is not"),
        (b'{"number": 2, "head": ', "commenting on pull request #2 of {}: an answer is not JSON"),
        (b"[]", "reading pull request #2 of {}: the answer is not a pull request"),
    ],
)
def test_an_answer_that_is_not_githubs_is_explained_in_one_line(github, raw, expected):
    # A proxy's login page (200, HTML) or a cut answer was an internal error
    # (AssertionError, JSONDecodeError).
    github.add_pull(opened_pull())
    github.fail("GET", r"/pulls/2$", 200, raw=raw)
    with pytest.raises(GitHubError) as caught:
        post(github, "report", head_sha=HEAD)
    message = str(caught.value)
    assert message.startswith(expected.format("Codertocat/Hello-World"))
    assert "GITHUB_API_URL" in message and "\n" not in message
    assert bot_comments(github) == []


@pytest.mark.parametrize(
    ("method", "path", "status", "answer"),
    [
        ("GET", r"/pulls/2$", 200, {"number": 2, "head": "x", "base": "y"}),
        ("GET", r"/pulls/2$", 200, {**opened_pull(), "base": {}}),
        ("POST", r"/issues/2/comments$", 201, {"id": 9, "user": {"login": BOT, "type": "Bot"}}),
    ],
)
def test_an_answer_with_fields_github_never_gives_is_explained_in_one_line(
    github, method, path, status, answer
):
    # Fields of another type were an internal error (BadAttributeException, AttributeError),
    # and a comment created without its address was reported as "comment created: None".
    github.add_pull(opened_pull())
    github.fail(method, path, status, body=answer)
    with pytest.raises(GitHubError) as caught:
        post(github, "report", head_sha=HEAD)
    message = str(caught.value)
    assert message.startswith(
        "commenting on pull request #2 of Codertocat/Hello-World: an answer is not in the "
        "shape GitHub gives ("
    )
    assert "is GITHUB_API_URL the address of GitHub's REST API" in message
    assert "\n" not in message


@pytest.mark.parametrize("raw", [b"<html>Sign in to the proxy</html>", b'{"a": 1}', b"[1, 2]"])
def test_a_page_of_comments_that_is_not_one_is_explained_in_one_line(github, raw):
    # Each was an internal error (TypeError: string indices must be integers, …).
    github.add_pull(opened_pull())
    github.fail("GET", r"/issues/2/comments$", 200, raw=raw)
    with pytest.raises(GitHubError) as caught:
        post(github, "report")
    message = str(caught.value)
    assert message.startswith(
        "reading the comments of pull request #2: a page of them is not a list of comments; "
        "is GITHUB_API_URL the address of GitHub's REST API"
    )
    assert bot_comments(github) == []


def test_422_is_explained_with_githubs_reason(github):
    github.add_pull(opened_pull())
    with pytest.raises(GitHubError, match=r"rejected the request.*body is too long"):
        post(github, "x" * 70_000)


def test_the_artifact_must_match_the_event_and_the_pull_request(github, tmp_path):
    pull = github.add_pull(opened_pull())
    event = RunEvent.read(run_event(pull, tmp_path))
    assert post(github, "ok", head_sha=HEAD, event=event).action == "created"
    forged = "0" * 40
    with pytest.raises(Mismatch, match="the artifact names commit 000000000000"):
        post(github, "forged", head_sha=forged, event=event)
    with pytest.raises(Mismatch, match="names pull request #3"):
        post_comment("Codertocat/Hello-World", 3, body("x"), MARKER, HEAD, event, env=env(github))
    assert [c["body"] for c in bot_comments(github)] == [body("ok")]


def test_a_pull_request_of_another_repository_listed_by_the_event_is_not_the_runs(github, tmp_path):
    # GitHub lists in `workflow_run.pull_requests` pull requests of other repositories
    # whose head is the run's branch: the payloads' example, a run of octo-org/octo-repo,
    # lists Codertocat/Hello-World#2. The run's own pull request, not among them, was
    # refused as a forged artifact (exit 2, "names pull request #7; the run was for #2").
    event = next(p for p in payloads("workflow_run") if p["workflow_run"]["pull_requests"])
    run = event["workflow_run"]
    run["event"] = "pull_request"
    repo = event["repository"]["full_name"]  # octo-org/octo-repo: its pull request #7
    moved = json.dumps(opened_pull()).replace("Codertocat/Hello-World", repo)
    pull = json.loads(moved.replace("/pulls/2", "/pulls/7").replace("/issues/2", "/issues/7"))
    pull["number"] = 7
    pull["head"]["sha"] = run["head_sha"]
    pull["base"]["repo"]["id"] = event["repository"]["id"]
    github.add_pull(pull)
    path = tmp_path / "event.json"
    path.write_text(json.dumps(event), encoding="utf-8")
    outcome = post_comment(
        repo, 7, body("report"), MARKER, run["head_sha"], RunEvent.read(path),
        env=env(github), policy=no_wait()[0],
    )  # fmt: skip
    assert outcome.action == "created"
    assert [c["body"] for c in github.thread(repo, 7)] == [body("report")]


def test_a_report_for_an_older_commit_is_stale_and_not_posted(github):
    github.add_pull(opened_pull())
    with pytest.raises(Stale, match="is now at ec26c3e57ca3"):
        post(github, "old report", head_sha="1" * 40)
    assert bot_comments(github) == []


def test_a_force_push_during_a_retry_wait_is_seen_before_posting(github):
    # The head was checked once, before the first attempt: a force-push while a rate limit
    # was waited out went unseen, and the report on the old commit was posted.
    pull = github.add_pull(opened_pull())
    github.fail("POST", r"/issues/2/comments$", **secondary_rate_limit(retry_after=60))

    def force_push(seconds: float) -> None:
        pull["head"]["sha"] = "f" * 40

    with pytest.raises(Stale, match="is now at ffffffffffff, the report is for ec26c3e57ca3"):
        post(github, "report", head_sha=HEAD, policy=RetryPolicy(sleep=force_push))
    assert bot_comments(github) == []
    assert [(r.method, r.status) for r in github.log if r.method != "GET"] == [("POST", 403)]


def test_a_retry_rereads_the_head_only_when_a_commit_was_named(github):
    github.add_pull(opened_pull())
    github.fail("POST", r"/issues/2/comments$", 502)
    assert post(github, "report").action == "created"
    assert [r.path for r in github.log].count("/repos/Codertocat/Hello-World/pulls/2") == 1


# --- the command, as the workflow runs it -----------------------------------------------------


def report_file(tmp_path: Path, head: str = HEAD, message: str = "bad term") -> Path:
    report = {
        "base": "a" * 40,
        "head": head,
        "files": [
            {
                "path": "incidents/IL-0300.yaml",
                "change": "added",
                "id": "IL-0300",
                "findings": [
                    {
                        "path": "incidents/IL-0300.yaml",
                        "line": 11,
                        "column": 7,
                        "code": "IL301",
                        "severity": "error",
                        "message": message,
                    }
                ],
            }
        ],
    }
    path = tmp_path / "review.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    return path


def comment_cli(server: FakeGitHub, tmp_path: Path, *extra: str, token: str = "bot-token"):
    summary = tmp_path / "summary.md"
    summary.touch()
    run = run_curator(
        "github",
        "comment",
        "--repo",
        "Codertocat/Hello-World",
        "--pr",
        "2",
        "--report",
        str(report_file(tmp_path)),
        *extra,
        env={**env(server, token), "GITHUB_STEP_SUMMARY": str(summary)},
    )
    return run, summary.read_text(encoding="utf-8")


def test_cli_posts_the_rendered_report_once(github, tmp_path):
    pull = github.add_pull(opened_pull())
    event = run_event(pull, tmp_path)
    args = ("--head-sha", HEAD, "--event", str(event))
    run, _ = comment_cli(github, tmp_path, *args)
    assert run.code == 0, run.err
    assert (
        "comment created: https://github.com/Codertocat/Hello-World/pull/2#issuecomment-" in run.err
    )
    [comment] = bot_comments(github)
    assert comment["body"].startswith(MARKER + "\n### ❌ 1 error")
    link = f"https://github.com/Codertocat/Hello-World/blob/{HEAD}/incidents/IL-0300.yaml#L11"
    assert f"[line 11]({link})" in comment["body"]
    run_url = "https://github.com/Codertocat/Hello-World/actions/runs/289782451"
    assert f"[workflow run]({run_url})" in comment["body"]
    run, _ = comment_cli(github, tmp_path, *args)
    assert run.code == 0 and "comment unchanged" in run.err
    assert len(bot_comments(github)) == 1


def test_cli_without_write_permission_exits_0_and_fills_the_job_summary(github, tmp_path):
    pull = github.add_pull(fork_pull())
    event = run_event(pull, tmp_path, fork=True)
    args = ("--head-sha", HEAD, "--event", str(event))
    run, summary = comment_cli(github, tmp_path, *args, token="read-only")
    assert run.code == 0
    assert run.err.count("\n") == 1 and "comment not posted" in run.err
    assert "pull-requests: write" in run.err and "the report is in the job summary" in run.err
    assert summary.startswith(MARKER) and "**IL301**" in summary
    assert bot_comments(github) == []


def test_cli_without_write_permission_says_why_the_job_summary_is_not_written(github, tmp_path):
    # A job summary that cannot be written (here a folder) was an internal error.
    pull = github.add_pull(fork_pull())
    event = run_event(pull, tmp_path, fork=True)
    run = run_curator(
        "github",
        "comment",
        *("--repo", "Codertocat/Hello-World", "--pr", "2", "--head-sha", HEAD),
        *("--report", str(report_file(tmp_path)), "--event", str(event)),
        env={**env(github, "read-only"), "GITHUB_STEP_SUMMARY": str(tmp_path)},
    )
    assert run.code == 0
    assert run.err.count("\n") == 1 and "comment not posted" in run.err
    assert f"cannot write the job summary {tmp_path}: Is a directory" in run.err


def test_cli_refuses_a_forged_artifact_with_exit_2(github, tmp_path):
    pull = github.add_pull(opened_pull())
    event = run_event(pull, tmp_path)
    run, _ = comment_cli(github, tmp_path, "--head-sha", "f" * 40, "--event", str(event))
    assert run.code == 2
    assert "the report is for ec26c3e57ca3, not ffffffffffff" in run.err
    assert github.log == []  # refused before asking GitHub anything


def test_cli_rejects_a_report_that_is_not_one(github, tmp_path):
    github.add_pull(opened_pull())
    bad = tmp_path / "review.json"
    bad.write_text('{"head": "<script>", "files": 3}', encoding="utf-8")
    run = run_curator(
        "github", "comment", "--repo", "Codertocat/Hello-World", "--pr", "2", "--report",
        str(bad), env=env(github),
    )  # fmt: skip
    assert run.code == 2 and "is not a curator review report" in run.err
    assert github.log == []


def test_cli_posts_a_report_on_a_file_name_that_is_not_utf8(github, tmp_path):
    # `curator review` writes such a name as the escape \\udcff (a lone surrogate), which
    # pydantic's JSON parser refused: the comment step failed with exit 2.
    github.add_pull(opened_pull())
    report = report_file(tmp_path)
    report.write_text(report.read_text().replace("IL-0300.yaml", "IL-\\udcff.yaml"))
    run = run_curator(
        "github", "comment", "--repo", "Codertocat/Hello-World", "--pr", "2", "--report",
        str(report), env=env(github),
    )  # fmt: skip
    assert run.code == 0, run.err
    [comment] = bot_comments(github)
    assert "/incidents/IL-%FF.yaml#L11" in comment["body"]
    assert "incidents/IL-\\\\udcff.yaml" in comment["body"]


def test_a_300_file_pull_request_stays_under_the_comment_limit(github, tmp_path):
    from test_review import commit, git

    from incidents import incident

    repo = write_library(tmp_path / "repo", {"IL-0001.yaml": incident("IL-0001")})
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "base")
    git(repo, "checkout", "-q", "-b", "many")
    for n in range(2, 302):  # each with an error and a warning
        broken = incident(
            f"IL-{n:04d}",
            ("occurred: 2024-05", "occurred: 2999-05"),
            ("status: published", "status: published "),
        )
        (repo / "incidents" / f"IL-{n:04d}.yaml").write_text(broken, encoding="utf-8")
    head = commit(repo, "300 incidents")
    out = tmp_path / "review.json"
    run = run_curator(
        "review", "--base", "main", "--format", "json", "--json-out", str(out), cwd=repo
    )
    assert run.code == 1 and len(json.loads(run.out)["files"]) == 300
    pull = opened_pull()
    pull["head"]["sha"] = head
    github.add_pull(pull)
    posted = run_curator(
        "github", "comment", "--repo", "Codertocat/Hello-World", "--pr", "2", "--report",
        str(out), "--head-sha", head, env=env(github),
    )  # fmt: skip
    assert posted.code == 0, posted.err
    [comment] = bot_comments(github)
    assert len(comment["body"]) <= 65_536
    assert "This report was trimmed to fit GitHub's limit" in comment["body"]


def test_cli_author_names_the_account_whose_comment_is_edited(github, tmp_path):
    # A GitHub App posts as its own bot account, not github-actions[bot]: with --author the
    # second run edits the first comment instead of adding another.
    github.add_token("app-token", "incident-curator[bot]")
    pull = github.add_pull(opened_pull())
    args = ("--head-sha", HEAD, "--event", str(run_event(pull, tmp_path)))
    mine = ("--author", "incident-curator[bot]")
    first, _ = comment_cli(github, tmp_path, *args, *mine, token="app-token")
    again, _ = comment_cli(github, tmp_path, *args, *mine, token="app-token")
    assert (first.code, again.code) == (0, 0), (first.err, again.err)
    assert "comment created" in first.err and "comment unchanged" in again.err
    thread = github.thread("Codertocat/Hello-World", 2)
    assert [c["user"]["login"] for c in thread] == ["incident-curator[bot]"]
    # Without it, that account's comment is not recognised as the bot's: a second one, and
    # another at every run after it, each with exit 0 and no word of why.
    other, _ = comment_cli(github, tmp_path, *args, token="app-token")
    second = github.thread("Codertocat/Hello-World", 2)[1]
    assert other.code == 2
    assert other.err == (
        "curator: the token posts as incident-curator[bot], but --author is "
        f"github-actions[bot]: the next run would not find the comment just posted, "
        f"{second['html_url']}, and would post another; pass --author incident-curator[bot]\n"
    )
    assert len(github.thread("Codertocat/Hello-World", 2)) == 2


def test_cli_author_spelled_in_other_case_is_the_same_account(github, tmp_path):
    # GitHub's logins ignore case; the comparison did not, and every run added a comment.
    github.add_token("app-token", "incident-curator[bot]")
    github.add_pull(opened_pull())
    mine = ("--author", "Incident-Curator[bot]")
    first, _ = comment_cli(github, tmp_path, *mine, token="app-token")
    again, _ = comment_cli(github, tmp_path, *mine, token="app-token")
    assert (first.code, again.code) == (0, 0), (first.err, again.err)
    assert "comment created" in first.err and "comment unchanged" in again.err
    assert len(github.thread("Codertocat/Hello-World", 2)) == 1


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--repo", "Hello-World", "Invalid value for --repo: OWNER/NAME expected"),
        ("--head-sha", "ec26c3e", "Invalid value for --head-sha: a full commit SHA expected"),
    ],
)
def test_cli_refuses_a_malformed_repo_or_sha_before_asking_github(
    github, tmp_path, option, value, message
):
    options = {"--repo": "Codertocat/Hello-World", "--head-sha": HEAD, option: value}
    run = run_curator(
        "github", "comment", "--pr", "2", "--report", str(report_file(tmp_path)),
        *(part for pair in options.items() for part in pair), env=env(github),
    )  # fmt: skip
    assert run.code == 2 and message in run.err, run
    assert github.log == []


NO_LIST = "event.json is not a workflow_run event: its pull_requests is not a list\n"
NO_NAME = "the event names no repository: its repository.full_name is empty or missing\n"


def event_that(tmp_path: Path, change: str) -> Path:
    """The event of PR #2's review run, changed as `change` says."""
    path = run_event(opened_pull(), tmp_path)
    event = json.loads(path.read_text(encoding="utf-8"))
    if change == "a push":
        event["workflow_run"]["event"] = "push"
    elif change == "another repository":
        event["repository"]["full_name"] = "octo/other"
    elif change == "no run":
        del event["workflow_run"]
    elif change == "a run elsewhere":  # its link would go into the comment
        event["workflow_run"]["html_url"] = "https://example.com/actions/runs/1"
    elif change == "a run URL with more":  # the rest would be a second link
        event["workflow_run"]["html_url"] = (
            "https://github.com/Codertocat/Hello-World/actions/runs/1) [a](https://example.com"
        )
    elif change == "another repository's run":
        event["workflow_run"]["html_url"] = "https://github.com/octo/other/actions/runs/1"
    elif change == "pull requests as a number":  # was an internal error
        event["workflow_run"]["pull_requests"] = 2
    elif change == "pull requests as an object":  # was taken for none: a fork's, unchecked
        event["workflow_run"]["pull_requests"] = {"number": 3}
    elif change == "a repository named by a number":  # was an internal error
        event["repository"]["full_name"] = 5
    elif change == "no repository name":  # was "the event is from , not …"
        del event["repository"]["full_name"]
    elif change == "a blank repository name":
        event["repository"]["full_name"] = " "
    elif change == "a head repository named by a number":  # was an internal error
        event["workflow_run"]["head_repository"]["full_name"] = 7
    path.write_text("{" if change == "not JSON" else json.dumps(event), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("a push", "the run was triggered by 'push', not by a pull request"),
        ("another repository", "the event is from octo/other, not Codertocat/Hello-World"),
        ("no run", "event.json is not a workflow_run event"),
        ("no repository name", NO_NAME),
        ("a blank repository name", NO_NAME),
        ("not JSON", "cannot read the event "),
        (
            "a run elsewhere",
            "the run URL is not on https://github.com: 'https://example.com/actions/runs/1'",
        ),
        ("a run URL with more", "the run URL is not a workflow run of Codertocat/Hello-World"),
        ("another repository's run", "is not a workflow run of Codertocat/Hello-World: 'https"),
        ("pull requests as a number", NO_LIST),
        ("pull requests as an object", NO_LIST),
        (
            "a repository named by a number",
            "event.json is not a workflow_run event: its repository.full_name is not a string",
        ),
        (
            "a head repository named by a number",
            "is not a workflow_run event: its head_repository.full_name is not a string",
        ),
    ],
)
def test_cli_refuses_an_event_that_is_not_the_pull_requests_review_run(
    github, tmp_path, change, message
):
    github.add_pull(opened_pull())
    event = str(event_that(tmp_path, change))
    run, _ = comment_cli(github, tmp_path, "--head-sha", HEAD, "--event", event)
    assert run.code == 2, run
    assert run.err.startswith("curator: ") and run.err.count("\n") == 1 and message in run.err
    assert github.log == [] and bot_comments(github) == []


def test_cli_refuses_an_event_without_the_commit_it_is_for(github, tmp_path):
    github.add_pull(opened_pull())
    run, _ = comment_cli(github, tmp_path, "--event", str(run_event(opened_pull(), tmp_path)))
    assert run.code == 2
    assert run.err == "curator: --event needs --head-sha: the commit the report is for\n"
    assert github.log == []


def test_cli_leaves_a_pull_request_that_moved_on_with_exit_0(github, tmp_path):
    # The run for the newer commit comments; this one must not overwrite it.
    pull = opened_pull()
    pull["head"]["sha"] = "f" * 40
    github.add_pull(pull)
    run, _ = comment_cli(github, tmp_path, "--head-sha", HEAD)
    assert run.code == 0, run
    assert run.err == (
        "curator: pull request #2 is now at ffffffffffff, the report is for ec26c3e57ca3: "
        "not posted (the run for the newer commit will comment)\n"
    )
    assert bot_comments(github) == []


def test_cli_leaves_a_pull_request_the_event_lists_at_a_newer_commit_with_exit_0(github, tmp_path):
    # A push while the review ran: the event lists the pull request at its new head (a
    # listed pull request's head need not be the run's, as the payloads' example shows).
    # That was refused as a forged artifact, "names pull request #2; the run was for #2",
    # with exit 2, which fails the workflow; the pull request had only moved on.
    event = run_event(opened_pull(), tmp_path)
    pushed = json.loads(event.read_text(encoding="utf-8"))
    pushed["workflow_run"]["pull_requests"][0]["head"]["sha"] = "f" * 40
    event.write_text(json.dumps(pushed), encoding="utf-8")
    pull = opened_pull()
    pull["head"]["sha"] = "f" * 40
    github.add_pull(pull)
    run, _ = comment_cli(github, tmp_path, "--head-sha", HEAD, "--event", str(event))
    assert run.code == 0, run
    assert run.err == (
        "curator: pull request #2 is now at ffffffffffff, the report is for ec26c3e57ca3: "
        "not posted (the run for the newer commit will comment)\n"
    )
    assert bot_comments(github) == []


def test_cli_on_a_pull_request_github_does_not_have_exits_2(github, tmp_path):
    run, _ = comment_cli(github, tmp_path)
    assert run.code == 2, run
    assert run.err.startswith(
        "curator: commenting on pull request #2 of Codertocat/Hello-World: not found (404 "
    )
    assert run.err.count("\n") == 1 and "check the repository and the pull request" in run.err


def test_cli_refuses_a_report_too_large_to_be_one_before_reading_it(github, tmp_path):
    from curator.review.output import MAX_REPORT_BYTES

    github.add_pull(opened_pull())
    huge = tmp_path / "review.json"
    with huge.open("wb") as out:  # sparse: no disk is used
        out.truncate(MAX_REPORT_BYTES + 1)
    run = run_curator(
        "github", "comment", "--repo", "Codertocat/Hello-World", "--pr", "2", "--report",
        str(huge), env=env(github),
    )  # fmt: skip
    assert run.code == 2
    assert run.err == f"curator: {huge}: larger than 64 MiB\n"
    assert github.log == []


# --- a pull request that changes the review itself ---------------------------------------------

REPO_ID = 186853002  # Codertocat/Hello-World's, in GitHub's Link headers
FILES = "GET /repos/Codertocat/Hello-World/pulls/2/files?per_page=100 → 200"
WARNING = "> [!WARNING]\n> **This pull request changes the review's own code:** "
# curator/lint.py in the pull request's "Files changed" view: GitHub anchors a file there
# at the SHA-256 of its path.
LINT_PY = (
    "[curator/lint.py](https://github.com/Codertocat/Hello-World/pull/2/files"
    "#diff-9999dc1925ed6d6333f0913779b914a02a1824e267702824838b2a4b9c79a361)"
)


def changed(*paths: str) -> str:
    """The paths as the warning names them: each linked to the pull request's diff of it."""
    files = "https://github.com/Codertocat/Hello-World/pull/2/files"
    return ", ".join(f"[{p}]({files}#diff-{hashlib.sha256(p.encode()).hexdigest()})" for p in paths)


def all_green(tmp_path: Path, root: str = "") -> Path:
    """What a pull request that rewrites curator/ or review.yml can make its report say,
    whatever it changes: nothing to report (and the library at `root`)."""
    path = tmp_path / "green.json"
    report = {"base": "a" * 40, "head": HEAD, "root": root, "files": []}
    path.write_text(json.dumps(report), encoding="utf-8")
    return path


def comment_on_files(
    server: FakeGitHub, tmp_path: Path, paths: list[Any], root: str = ""
) -> tuple[Any, str]:
    """`curator github comment` as comment.yml runs it, for pull request #2 changing `paths`
    (GitHub's list), with an all-green report; the run, and the comment it left."""
    pull = server.add_pull(opened_pull())
    server.set_files("Codertocat/Hello-World", 2, paths)
    run = run_curator(
        "github", "comment", "--repo", "Codertocat/Hello-World", "--pr", "2",
        "--report", str(all_green(tmp_path, root)), "--head-sha", HEAD,
        "--event", str(run_event(pull, tmp_path)), env=env(server),
    )  # fmt: skip
    comments = bot_comments(server)
    return run, comments[0]["body"] if comments else ""


def test_a_change_to_the_review_code_is_said_above_the_status_it_may_have_written(github, tmp_path):
    # review.yml runs the pull request's own curator: one that changes curator/ can make its
    # report all green, and the comment showed it as the verdict, with nothing to doubt it.
    # The file is linked to the pull request's diff of it, where a reviewer reads the
    # change (it was named without a link, unlike every other file of the comment).
    run, comment = comment_on_files(github, tmp_path, ["curator/lint.py", "incidents/IL-0001.yaml"])
    assert run.code == 0, run.err
    assert comment.startswith(
        f"{MARKER}\n{WARNING}{LINT_PY}. The report below was made by the pull "
        "request's own code, so its verdicts are only as trustworthy as that change: review "
        "the change to the tooling itself, or re-run the review: `git fetch origin pull/2/head`, "
        "then `curator review --base f95f852bd8fc --head ec26c3e57ca3` with the default "
        "branch's curator (`pip install .` in a checkout of it).\n\n"
        "### ✅ 0 errors · ✅ 0 warnings · ✅ 0 possible duplicates · ✅ 0 facet suggestions\n"
    )


def test_incidents_the_taxonomy_and_documentation_are_listed_and_not_warned_of(github, tmp_path):
    paths = ["README.md", "docs/review.md", "incidents/IL-0001.yaml", "schema/taxonomy/causes.yaml"]
    run, comment = comment_on_files(github, tmp_path, paths)
    assert run.code == 0, run.err
    assert FILES in github.requests()  # GitHub was asked, and found nothing to warn of
    assert comment.startswith(f"{MARKER}\n### ✅ 0 errors")
    assert "[!WARNING]" not in comment


@pytest.mark.parametrize(
    ("path", "changes_it"),
    [
        ("curator/lint.py", True),
        (".github/workflows/review.yml", True),
        ("pyproject.toml", True),
        ("setup.py", True),
        ("build_backend/curator_build.py", True),
        ("schema/incident.schema.json", True),  # what lint checks against: code
        ("schema/export/manifest.schema.json", True),
        (".curator-cache/lint/0", True),  # read by the review of the checkout
        ("incidents/IL-0001.yaml", False),
        ("incidents/README.md", False),
        ("schema/taxonomy/causes.yaml", False),  # data the review judges (IL302, suggest)
        ("docs/review.md", False),
        ("CONTRIBUTING.md", False),
        ("incidents.yaml", True),  # not in incidents/
        # Never read by the review workflow (tests/test_workflows.py holds it to that).
        ("tests/conftest.py", False),
        ("tests/data/broken.yaml", False),
        ("benchmarks/bench_similar.py", False),
        ("examples/consume_export.py", False),
        ("docs/diagram.svg", False),
        ("testsuite/x.py", True),  # not tests/
        # Markdown where it may be package data is not documentation.
        ("curator/review/comment.md", True),
        ("build_backend/notes.md", True),
        # Hidden, wherever it is: git applies a .gitattributes to what it checks out,
        # archives and searches; .github/ holds the workflows.
        ("incidents/.gitattributes", True),
        ("schema/taxonomy/.gitattributes", True),
        ("tests/.gitattributes", True),
        (".gitattributes", True),
        (".github/PULL_REQUEST_TEMPLATE.md", True),
        ("docs/.curator-cache/x", True),
    ],
)
def test_what_can_change_the_review_is_all_but_judged_data_unread_folders_and_markdown(
    path, changes_it
):
    from curator.review.tooling import changes_the_review

    assert changes_the_review(path) is changes_it


def test_a_change_to_tests_benchmarks_and_docs_alone_is_not_warned_of(github, tmp_path):
    # The review workflow reads none of them, yet each such pull request was warned of as
    # one that changes the review's own code: a warning reviewers learn to skip.
    paths = ["tests/test_lint.py", "benchmarks/bench_similar.py", "docs/diagram.svg"]
    run, comment = comment_on_files(github, tmp_path, [*paths, "incidents/IL-0001.yaml"])
    assert run.code == 0, run.err
    assert FILES in github.requests()
    assert comment.startswith(f"{MARKER}\n### ✅ 0 errors")


def test_the_reports_root_does_not_move_what_is_data(github, tmp_path):
    # The report says where the library is, and the pull request may have written it: were
    # the judged folders taken under its `root`, a report saying `curator` would make
    # modules in curator/incidents/ data, and a change to the code that made the report
    # pass without the warning. Only the repository's top incidents/ and schema/taxonomy/.
    paths = ["curator/incidents/rule.py", "curator/schema/taxonomy/rule.py"]
    run, comment = comment_on_files(github, tmp_path, paths, root="curator")
    assert run.code == 0, run.err
    assert comment.startswith(f"{MARKER}\n{WARNING}{changed(*paths)}. The report below")


def test_a_gitattributes_among_the_incidents_is_warned_of(github, tmp_path):
    # A `.gitattributes` in incidents/ changes the bytes git checks out and archives for the
    # review (`export-ignore` drops a file from the archive): it was taken for data.
    run, comment = comment_on_files(github, tmp_path, ["incidents/.gitattributes"])
    assert run.code == 0, run.err
    assert comment.startswith(
        f"{MARKER}\n{WARNING}{changed('incidents/.gitattributes')}. The report"
    )


def test_every_page_of_files_is_read_and_renames_count_by_their_old_name(github, tmp_path):
    paths: list[Any] = [f"incidents/IL-{n:04d}.yaml" for n in range(1, 231)]
    paths += ["pyproject.toml", ("curator/rules/old.py", "incidents/IL-0999.yaml")]
    paths += [f"curator/rules/r{n}.py" for n in range(5)] + ["docs/a.md", "docs/b.md", "docs/c.md"]
    run, comment = comment_on_files(github, tmp_path, paths)
    assert run.code == 0, run.err
    pages = [r for r in github.requests() if "/files" in r]
    assert pages == [
        FILES,
        f"GET /repositories/{REPO_ID}/pulls/2/files?page=2&per_page=100 → 200",
        f"GET /repositories/{REPO_ID}/pulls/2/files?page=3&per_page=100 → 200",
    ]
    named = changed(
        "pyproject.toml", "curator/rules/old.py", *(f"curator/rules/r{n}.py" for n in range(3))
    )
    assert f"{WARNING}{named} and 2 more. The report" in comment


def test_files_past_the_3000_github_lists_are_said_unchecked(github, tmp_path):
    paths = [f"incidents/IL-{n:04d}.yaml" for n in range(1, 3001)] + ["curator/lint.py"]
    run, comment = comment_on_files(github, tmp_path, paths)
    assert run.code == 0, run.err
    assert len([r for r in github.requests() if "/files" in r]) == 30  # 100 a page, no more
    assert comment.startswith(
        f"{MARKER}\n> [!WARNING]\n> **This pull request may change the review's own code.** "
        "GitHub lists only the first 3,000 of the 3,001 files it changes: those past them "
        "were not checked. The report below may have been made by the pull request's own code"
    )


def test_a_server_error_listing_the_files_is_retried_then_posts_nothing(github):
    github.add_pull(opened_pull())
    github.set_files("Codertocat/Hello-World", 2, ["curator/lint.py"])
    github.fail("GET", r"/pulls/2/files$", 502)
    policy, waits = no_wait()
    said = post_comment(
        "Codertocat/Hello-World", 2, lambda tooling: body(", ".join(tooling.paths)), MARKER,
        env=env(github), policy=policy,
    )  # fmt: skip
    assert said.action == "created" and waits == [2.0]
    assert [c["body"] for c in bot_comments(github)] == [body("curator/lint.py")]
    github.fail("GET", r"/pulls/2/files$", 503, times=99)
    with pytest.raises(GitHubError) as info:
        post_comment(
            "Codertocat/Hello-World", 2, lambda tooling: body("never"), MARKER,
            env=env(github), policy=policy,
        )  # fmt: skip
    assert str(info.value) == (
        "listing the files of pull request #2: server error (503: fault), still after 5 attempts"
    )
    assert [c["body"] for c in bot_comments(github)] == [body("curator/lint.py")]


def test_a_push_as_the_files_are_listed_is_seen_before_posting(github):
    # The head was checked, then the files listed: a push in between listed the newer
    # commit's, and the report on the older one was posted with them. Here the older
    # commit changes curator/ (its report may say anything), the newer takes that back,
    # and the report was posted without the warning.
    pull = github.add_pull(opened_pull())
    github.set_files("Codertocat/Hello-World", 2, ["curator/lint.py", "incidents/IL-0300.yaml"])

    def push() -> None:
        pull["head"]["sha"] = "f" * 40
        github.set_files("Codertocat/Hello-World", 2, ["incidents/IL-0300.yaml"])

    github.after("GET", r"^/repos/Codertocat/Hello-World/pulls/2$", push)
    with pytest.raises(Stale, match="is now at ffffffffffff, the report is for ec26c3e57ca3"):
        post_comment(
            "Codertocat/Hello-World", 2, lambda tooling: body(", ".join(tooling.paths)), MARKER,
            HEAD, env=env(github), policy=no_wait()[0],
        )  # fmt: skip
    assert bot_comments(github) == []
    assert [r for r in github.requests() if "/pulls/" in r] == [
        "GET /repos/Codertocat/Hello-World/pulls/2 → 200",
        FILES,
        "GET /repos/Codertocat/Hello-World/pulls/2 → 200",
    ]


def test_cli_posts_nothing_when_github_does_not_list_the_files(github, tmp_path):
    github.fail("GET", r"/pulls/2/files$", 404)
    run, comment = comment_on_files(github, tmp_path, ["curator/lint.py"])
    assert run.code == 2 and run.err.count("\n") == 1
    assert run.err.startswith("curator: listing the files of pull request #2: not found (404 ")
    assert comment == ""


def test_cli_refused_the_write_keeps_the_tooling_warning_in_the_job_summary(github, tmp_path):
    # The comment, had it been posted, opened with the warning that the pull request
    # changes the review's own code; the job summary left in its place did not.
    pull = github.add_pull(opened_pull())
    github.set_files("Codertocat/Hello-World", 2, ["curator/lint.py", "incidents/IL-0300.yaml"])
    args = ("--head-sha", HEAD, "--event", str(run_event(pull, tmp_path)))
    run, summary = comment_cli(github, tmp_path, *args, token="read-only")
    assert run.code == 0 and run.err.count("\n") == 1, run.err
    assert run.err.endswith(
        "; the report is in the job summary (warning: the report was made by code this pull "
        "request changes)\n"
    )
    assert summary.startswith(f"{MARKER}\n{WARNING}{LINT_PY}. The report below was made")
    assert "**IL301**" in summary and bot_comments(github) == []


def test_cli_refused_the_list_of_files_says_in_the_job_summary_it_was_not_checked(github, tmp_path):
    # Refused before GitHub listed the files, the job summary showed the report as if
    # nothing it was made with could have been changed.
    pull = github.add_pull(opened_pull())
    github.set_files("Codertocat/Hello-World", 2, ["curator/lint.py"])
    github.fail(
        "GET", r"/pulls/2/files$", 403, body={"message": "Resource not accessible by integration"}
    )
    args = ("--head-sha", HEAD, "--event", str(run_event(pull, tmp_path)))
    run, summary = comment_cli(github, tmp_path, *args)
    assert run.code == 2 and "comment not posted: listing the files" in run.err, run.err
    assert run.err.endswith(
        "(warning: whether the pull request changes the review's own code was not checked)\n"
    )
    assert summary.startswith(
        f"{MARKER}\n> [!WARNING]\n> **GitHub did not list the files of this pull request:** "
        "whether it changes the review's own code was not checked. The report below may have "
        "been made by the pull request's own code"
    )
    assert "`curator review --base aaaaaaaaaaaa --head ec26c3e57ca3`" in summary
    assert bot_comments(github) == []


@pytest.mark.parametrize(
    ("refused", "what"),
    [
        (r"^/repos/Codertocat/Hello-World/pulls/2$", "the pull request"),
        (r"/pulls/2/files$", "the pull request's files"),
    ],
)
def test_cli_refused_a_read_asks_for_read_access_not_the_write_permission(
    github, tmp_path, refused, what
):
    # GitHub refused the read of the pull request (a token without access to the
    # repository, a fine-grained token without "Pull requests"), and the run said the
    # token lacked `pull-requests: write` and spoke of forks: the wrong thing to fix.
    pull = github.add_pull(opened_pull())
    github.set_files("Codertocat/Hello-World", 2, ["incidents/IL-0300.yaml"])
    denied = {"message": "Resource not accessible by personal access token"}
    github.fail("GET", refused, 403, body=denied)
    args = ("--head-sha", HEAD, "--event", str(run_event(pull, tmp_path)))
    run, summary = comment_cli(github, tmp_path, *args)
    assert run.code == 2 and run.err.count("\n") == 1, run.err
    assert (
        f": GitHub refused to let the token read {what} (403 Resource not accessible by "
        "personal access token); that needs read access to the repository's pull requests: "
        "`permissions: pull-requests: read` (or write) for a workflow's token; for a "
        "fine-grained token, the repository among those it may access, with the Pull "
        "requests permission; the report is in the job summary (warning: whether the pull "
        "request changes the review's own code was not checked)\n"
    ) in run.err
    assert "pull-requests: write" not in run.err and "fork" not in run.err
    assert summary.startswith(MARKER) and "**IL301**" in summary
    assert [r.method for r in github.log] == ["GET"] * len(github.log)  # nothing written
    assert bot_comments(github) == []


@pytest.mark.parametrize(
    ("paths", "opening"),
    [
        (["incidents/IL-0300.yaml"], "> **This pull request may change the review's own code.**"),
        (
            ["curator/lint.py", "incidents/IL-0300.yaml"],
            f"> **This pull request changes the review's own code:** {LINT_PY}.",
        ),
    ],
)
def test_cli_refused_the_read_after_the_files_says_they_were_listed(
    github, tmp_path, paths, opening
):
    # GitHub listed the files, then refused the read of the pull request that tells whether
    # they are the report's commit's: the job summary and the line said that GitHub had not
    # listed them. The warning stays: a push in between may have taken back a change to
    # the code that made the report.
    pull = github.add_pull(opened_pull())
    github.set_files("Codertocat/Hello-World", 2, paths)
    refused = {"message": "Resource not accessible by integration"}
    github.after(
        "GET",
        r"/pulls/2/files$",
        lambda: github.fail("GET", r"^/repos/Codertocat/Hello-World/pulls/2$", 403, body=refused),
    )
    args = ("--head-sha", HEAD, "--event", str(run_event(pull, tmp_path)))
    run, summary = comment_cli(github, tmp_path, *args)
    assert [r for r in github.requests() if "/pulls/" in r] == [
        "GET /repos/Codertocat/Hello-World/pulls/2 → 200",
        FILES,
        "GET /repos/Codertocat/Hello-World/pulls/2 → 403",
    ]
    assert run.code == 2 and run.err.count("\n") == 1, run.err
    assert run.err.endswith(
        "; the report is in the job summary (warning: the report may have been made by code "
        "this pull request changes: GitHub listed its files, then refused to tell whether "
        "they are the report's commit's)\n"
    )
    assert summary.startswith(
        f"{MARKER}\n> [!WARNING]\n{opening} GitHub listed its files, then refused to read the "
        "pull request again: whether they are those of the commit this report is for, not of "
        "a push since, was not checked. The report below may have been made by the pull "
        "request's own code"
    )
    assert "`curator review --base f95f852bd8fc --head ec26c3e57ca3`" in summary
    assert "did not list" not in summary and bot_comments(github) == []
    assert "GitHub refused to let the token read the pull request (403 " in run.err
    assert "pull-requests: write" not in run.err


@pytest.mark.parametrize(
    ("method", "refused", "code"),
    [
        ("GET", r"^/repos/Codertocat/Hello-World/pulls/2$", 2),
        ("GET", r"/pulls/2/files$", 2),
        ("POST", r"/issues/2/comments$", 0),
    ],
)
def test_cli_a_refused_read_fails_the_run_a_refused_write_does_not(
    github, tmp_path, method, refused, code
):
    # A token GitHub will not let read the pull request can never post: the run exited 0,
    # a green check with no comment on any pull request, and nothing asked for the fix.
    # A refused write (a fork's token, a locked conversation) is the pull request's own:
    # the job summary stands in for the comment, and the run passes, as before.
    pull = github.add_pull(opened_pull())
    github.set_files("Codertocat/Hello-World", 2, ["incidents/IL-0300.yaml"])
    github.fail(method, refused, 403, body={"message": "Resource not accessible by integration"})
    args = ("--head-sha", HEAD, "--event", str(run_event(pull, tmp_path)))
    run, summary = comment_cli(github, tmp_path, *args)
    assert run.code == code, run.err
    assert run.err.startswith("curator: comment not posted: ") and run.err.count("\n") == 1
    assert "**IL301**" in summary and bot_comments(github) == []


def test_a_fault_in_rendering_is_not_githubs_answer(github):
    # The comment is rendered once GitHub has listed the files, inside what explains
    # GitHub's answers: an AttributeError of curator's own was said to be "an answer is not
    # in the shape GitHub gives", and blamed on GitHub.
    github.add_pull(opened_pull())

    def broken(tooling: Any) -> str:
        return tooling.no_such_field

    with pytest.raises(AttributeError, match="no_such_field"):
        post_comment(
            "Codertocat/Hello-World", 2, broken, MARKER, env=env(github), policy=no_wait()[0]
        )
    assert bot_comments(github) == []


# `curator github comment`, with the renderer broken as a bug would break it.
_RENDER_BROKEN = """
import curator.review.markdown as markdown
def render(*args, **kwargs):
    raise TypeError("a bug in rendering")
markdown.render = render
from curator.__main__ import main
main()
"""


def test_cli_says_a_fault_in_rendering_is_an_internal_error(github, tmp_path):
    pull = github.add_pull(opened_pull())
    args = ("--head-sha", HEAD, "--event", str(run_event(pull, tmp_path)))
    comment = ("github", "comment", "--repo", "Codertocat/Hello-World", "--pr", "2")
    report = ("--report", str(report_file(tmp_path)))
    running = start_python("-c", _RENDER_BROKEN, *comment, *report, *args, env=env(github))
    run = ended(running)
    assert run.code == 2
    assert run.err == "curator: internal error: TypeError: a bug in rendering\n"
    assert bot_comments(github) == []
