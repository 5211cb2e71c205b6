"""`curator review` on real git repositories: what changed, linted at the head, judged."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    REPO,
    ended,
    files_read,
    run_curator,
    start_python,
    stopped_as_git_starts,
    stopped_as_it_loads,
    write_library,
)
from pydantic import ValidationError

import curator.lint as lint_module
import curator.lint_cache as lint_cache
import curator.repository as repository
import curator.review.at_base as at_base
import curator.review.build as build
import curator.review.git as review_git
import curator.review.misplaced as misplaced
import curator.review.output as output
from curator.library import Library
from curator.lint_cache import Checked
from curator.model import Dimension
from curator.regular import Oversized
from curator.review.build import JudgeFactory, build_review, to_paste
from curator.review.judge import LibraryJudge
from curator.review.links import Links
from curator.review.markdown import render
from curator.review.model import (
    FacetJudgement,
    FileReview,
    Omitted,
    ReportFinding,
    Review,
    TermJudgement,
)
from curator.rules.base import FileSummary
from curator.signals import Terminated
from curator.similarity import index as index_module
from curator.similarity.index import Added
from curator.similarity.suggest import FIELD_STRENGTH
from curator.taxonomy import load_taxonomy
from incidents import incident

AUTHOR = ["-c", "user.name=Test", "-c", "user.email=test@example.com"]


def git(repo: Path, *args: str) -> str:
    proc = subprocess.run(
        ["git", "-C", str(repo), *AUTHOR, *args], capture_output=True, text=True, check=True
    )
    return proc.stdout.strip()


def commit(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def rewritten_as_a_twin(repo: Path, id: str) -> None:
    """`id` on main as an incident of another event; on the change, rewritten in the words
    the repository's other incidents tell theirs in, its id line left alone."""
    git(repo, "checkout", "-q", "main")
    write(repo, f"{id}.yaml", incident(id, *DIFFERENT))
    commit(repo, f"{id} of another event")
    git(repo, "checkout", "-q", "-B", "change")
    write(repo, f"{id}.yaml", incident(id))
    commit(repo, f"{id} rewritten as the others tell theirs")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository whose main branch holds three incidents; the work happens on a branch."""
    root = write_library(
        tmp_path / "repo",
        {
            "IL-0001.yaml": incident("IL-0001"),
            "IL-0002.yaml": incident("IL-0002"),
            "IL-0003.yaml": incident("IL-0003", ("status: published", "status: draft")),
        },
    )
    git(root, "init", "-q", "-b", "main")
    commit(root, "base")
    git(root, "checkout", "-q", "-b", "change")
    return root


def write(root: Path, name: str, text: str) -> None:
    (root / "incidents" / name).write_text(text, encoding="utf-8")


def review_json(root: Path, *args: str) -> tuple[int, dict]:
    run = run_curator("review", "--base", "main", "--format", "json", *args, cwd=root)
    return run.code, json.loads(run.out)


# Different enough from the template that git does not pair it with a deleted file.
DIFFERENT = (
    ("공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다", "DNS 설정 변경으로 API 가 멈췄다"),
    ("학습 처리량이 떨어졌다.", "API 응답이 모두 실패했다.\n  재시도가 몰려 부하가 커졌다."),
    ("노드 수를 늘렸다.", "권한 서버의 레코드를 바꿨다.\n  캐시가 만료되자 퍼졌다."),
    ("처리량 그래프에서 보였다.", "외부 사용자 신고로 알았다."),
    ("데이터를 로컬 디스크로 옮겼다.", "레코드를 되돌리고 캐시를 비웠다."),
    ("작은 규모 시험으로는 알 수 없었다.", "설정 변경도 단계적으로 배포해야 한다."),
)


def test_added_changed_renamed_and_removed_files_are_found(repo):
    write(repo, "IL-0004.yaml", incident("IL-0004", *DIFFERENT))
    write(
        repo,
        "IL-0002.yaml",
        incident("IL-0002", ("학습 처리량이 떨어졌다.", "처리량이 반으로 줄었다.")),
    )
    (repo / "incidents" / "IL-0003.yaml").unlink()  # a draft: may be deleted
    commit(repo, "change")
    code, report = review_json(repo)
    assert code == 0
    changes = {(f["path"], f["change"]) for f in report["files"]}
    assert changes == {
        ("incidents/IL-0002.yaml", "changed"),
        ("incidents/IL-0003.yaml", "removed"),
        ("incidents/IL-0004.yaml", "added"),
    }
    assert report["head"] == git(repo, "rev-parse", "HEAD")
    assert report["base"] == git(repo, "rev-parse", "main")


def test_deleting_a_published_incident_is_an_error(repo):
    (repo / "incidents" / "IL-0002.yaml").unlink()
    commit(repo, "remove")
    code, report = review_json(repo)
    assert code == 1
    [file] = report["files"]
    assert (file["path"], file["change"], file["id"]) == (
        "incidents/IL-0002.yaml",
        "removed",
        "IL-0002",
    )
    [finding] = file["findings"]
    assert (finding["code"], finding["line"], finding["severity"]) == ("IL901", 1, "error")
    assert "withdrawn, never deleted" in finding["message"]
    # What is being deleted, as the base had it: the reviewer need not look it up.
    assert file["title"] == "공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다"
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert "\nIL-0002 · 공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다\n" in comment


def test_withdrawing_instead_of_deleting_passes(repo):
    withdrawn = incident(
        "IL-0002",
        ("status: published", "status: withdrawn"),
        ("    title: Storage postmortem\n", "    title: Storage postmortem\nduplicate_of: IL-0001\n"
         "withdrawn_reason: |\n  같은 사건이다.\n"),
        ("https://example.com/postmortems/IL-0002", "https://example.com/other/IL-0002"),
    )  # fmt: skip
    write(repo, "IL-0002.yaml", withdrawn)
    commit(repo, "withdraw")
    code, report = review_json(repo)
    assert code == 0, report
    [file] = report["files"]
    assert file["change"] == "changed" and file["matches"] == [] and file["suggestions"] == []
    claimed = file["duplicate_of"]  # the same text as IL-0001: the claim holds
    assert (claimed["id"], claimed["kind"]) == ("IL-0001", "duplicate") and claimed["score"] > 0.9
    assert any(r.startswith("same organisation Example") for r in claimed["reasons"])
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert "**Withdrawn as a duplicate of IL-0001**: the two look like one event." in comment
    # Headed by what the change does to it, where "(changed)" left that to the claim.
    assert (file["status_was"], file["status"]) == ("published", "withdrawn")
    assert "#### 📄 **incidents/IL-0002.yaml** (withdrawn)\n" in comment


def withdraw(text: str, original: str) -> str:
    return text.replace("status: published", "status: withdrawn") + (
        f"duplicate_of: {original}\nwithdrawn_reason: |\n  같은 사건.\n"
    )


def test_withdrawing_as_a_duplicate_of_an_unrelated_incident_is_flagged(repo):
    git(repo, "checkout", "-q", "main")
    write(repo, "IL-0004.yaml", incident("IL-0004", *DIFFERENT, ("2024-05", "2019-02")))
    commit(repo, "an unrelated incident")
    git(repo, "checkout", "-q", "-B", "change")
    text = (repo / "incidents" / "IL-0004.yaml").read_text(encoding="utf-8")
    write(repo, "IL-0004.yaml", withdraw(text, "IL-0001"))
    commit(repo, "withdraw as a duplicate of the wrong incident")
    code, report = review_json(repo)
    [file] = report["files"]
    assert code == 0 and file["duplicate_of"]["kind"] == "related"
    assert file["duplicate_of"]["score"] < 0.2
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert comment.splitlines()[1].endswith(" · ❌ 1 duplicate_of to check")
    assert (
        "❌ **Withdrawn as a duplicate of IL-0001, but the two do not look like the same event**"
    ) in comment
    assert "| IL-0001 | 공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다 |" in comment
    # A later wording fix does not raise the settled claim again.
    write(repo, "IL-0004.yaml", withdraw(text, "IL-0001").replace("같은 사건.", "같은 사건이다."))
    commit(repo, "wording")
    git(repo, "checkout", "-q", "-B", "main")
    git(repo, "checkout", "-q", "-b", "typo")
    write(repo, "IL-0004.yaml", withdraw(text, "IL-0001"))
    commit(repo, "typo")
    _, report = review_json(repo)
    assert report["files"][0]["duplicate_of"] is None


def test_a_claim_on_an_incident_with_more_withdrawn_copies_than_a_report_holds_reasons(repo):
    # Each withdrawn copy that matches is a reason of the match: past 100 (a bulk import of
    # withdrawals), the report's model refused it, and the review stopped with a traceback.
    for n in range(10, 111):
        write(repo, f"IL-{n:04d}.yaml", withdraw(incident(f"IL-{n:04d}"), "IL-0001"))
    commit(repo, "withdraw 101 copies")
    run = run_curator("review", "--base", "main", "--format", "json", cwd=repo)
    assert run.code == 0 and run.err == "", run.err
    claims = [file["duplicate_of"] for file in json.loads(run.out)["files"]]
    assert len(claims) == 101 and all(c["id"] == "IL-0001" for c in claims)
    reasons = claims[0]["reasons"]
    assert len(reasons) == 100 and reasons[98].startswith("its withdrawn copy IL-0")
    # Its own two (the same organisation, the text) and one per other copy: 102.
    assert reasons[0].startswith("same organisation Example") and reasons[1].startswith("text")
    assert reasons[99] == "and 3 more: `curator similar` lists them all"


def test_a_rename_that_drops_a_published_id_is_an_error(repo):
    git(repo, "mv", "incidents/IL-0002.yaml", "incidents/IL-0009.yaml")
    write(repo, "IL-0009.yaml", incident("IL-0009"))
    commit(repo, "renumber")
    code, report = review_json(repo)
    assert code == 1
    [file] = report["files"]
    assert (file["change"], file["old_path"]) == ("renamed", "incidents/IL-0002.yaml")
    assert [f["code"] for f in file["findings"]] == ["IL901"]
    assert "IL-0002 is renamed to incidents/IL-0009.yaml" in file["findings"][0]["message"]


BROKEN = ("status: published", "status: [published")  # IL101: the head's file does not parse


@pytest.mark.parametrize("renamed", [False, True])
def test_a_file_that_no_longer_parses_is_named_by_the_base_s_id_and_title(repo, renamed):
    # Its section showed neither: a reviewer saw only a path and a YAML error. The base's
    # are shown, said to be the base's; a rename that breaks the file still loses the id
    # it had (IL901), which the base's id, taken for the head's, would have hidden.
    if renamed:
        git(repo, "mv", "incidents/IL-0002.yaml", "incidents/IL-0009.yaml")
    name = "IL-0009.yaml" if renamed else "IL-0002.yaml"
    write(repo, name, incident("IL-0002", BROKEN))
    commit(repo, "break it")
    code, report = review_json(repo)
    assert code == 1
    file = next(f for f in report["files"] if f["path"] == f"incidents/{name}")
    title = "공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다"
    assert (file["id"], file["title"], file["named_at_base"]) == ("IL-0002", title, True)
    codes = [f["code"] for f in file["findings"]]
    assert codes == (["IL901", "IL101"] if renamed else ["IL101"])
    # Its facets are unread, not removed: "Facets changed" listed every one with a `−`.
    assert file["facets_changed"] == []
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert f"\nIL-0002 · {title} _(as at the base: this commit's file gives neither)_\n" in comment
    # A file that parses gives its own, even when the base's differ.
    write(repo, name, incident("IL-0002", ("메타데이터 포화로", "메타데이터 과부하로")))
    commit(repo, "mend it")
    _, report = review_json(repo)
    file = next(f for f in report["files"] if f["path"] == f"incidents/{name}")
    assert file["title"].startswith("공유 스토리지의 메타데이터 과부하로")
    assert not file["named_at_base"]


def test_a_title_change_shows_the_title_it_replaces(repo):
    # The section showed the new title only: a reviewer could not tell what it was.
    was = "공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다"
    now = '공유 스토리지 "메타데이터" 포화로 *학습* 처리량 저하'
    write(repo, "IL-0002.yaml", incident("IL-0002", (was, now)))
    git(repo, "mv", "incidents/IL-0003.yaml", "incidents/IL-0004.yaml")  # a draft: renamed
    write(
        repo,
        "IL-0004.yaml",
        incident("IL-0003", ("status: published", "status: draft"), (was, "제목만 바꿨다")),
    )
    write(repo, "IL-0001.yaml", incident("IL-0001", ("처리량 그래프에서", "처리량 그래프로")))
    commit(repo, "retitle")
    _, report = review_json(repo)
    titles = {f["path"]: (f["title_was"], f["title"]) for f in report["files"]}
    assert titles == {
        "incidents/IL-0001.yaml": (None, was),  # not written: nothing was
        "incidents/IL-0002.yaml": (was, now),
        "incidents/IL-0004.yaml": (was, "제목만 바꿨다"),  # under its old path at the base
    }
    lines = run_curator("review", "--base", "main", cwd=repo).out.splitlines()
    assert (
        f'IL-0002 · title “{was}” → “공유 스토리지 "메타데이터" 포화로 \\*학습\\* 처리량 저하”'
        in lines
    )
    # (IL-0001's typo fix makes nothing new: no section, so no title said to be changed.)
    assert "1 other changed file, nothing to report: incidents/IL-0001.yaml (changed)." in lines
    assert not [line for line in lines if line.startswith("IL-0001 · ")]


@pytest.mark.parametrize("was", ["published", "withdrawn"])
def test_a_released_incident_made_a_draft_again_is_an_error(repo, was):
    # Drafts are never exported: the id left the next release as surely as if the file had
    # been deleted (changes.json lists it as `removed`), and a later change could then
    # delete the draft without IL901.
    if was == "withdrawn":
        write(repo, "IL-0002.yaml", withdraw(incident("IL-0002"), "IL-0001"))
        commit(repo, "withdraw")
        git(repo, "checkout", "-q", "-B", "main")
        git(repo, "checkout", "-q", "-b", "unpublish")
    text = (repo / "incidents" / "IL-0002.yaml").read_text(encoding="utf-8")
    write(repo, "IL-0002.yaml", text.replace(f"status: {was}", "status: draft"))
    commit(repo, "unpublish")
    code, report = review_json(repo)
    assert code == 1
    [file] = report["files"]
    assert file["change"] == "changed"
    [found] = [f for f in file["findings"] if f["code"] == "IL901"]
    status_line = text.splitlines().index(f"status: {was}") + 1
    assert (found["line"], found["column"]) == (status_line, 9)
    assert found["message"].startswith("IL-0002 is made a draft again, so its id disappears")
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert "#### 📄 **incidents/IL-0002.yaml** (made a draft)\n" in comment


def test_a_yml_never_released_made_a_draft_removes_no_id(repo):
    # The library never read `IL-0004.yml` (IL107), so no release held its id: IL901 said
    # "IL-0004 is made a draft again, so its id disappears from the next release".
    write(repo, "IL-0004.yml", incident("IL-0004", *DIFFERENT))
    commit(repo, "kept as .yml")
    git(repo, "branch", "-f", "main")
    write(
        repo, "IL-0004.yml", incident("IL-0004", *DIFFERENT, ("status: published", "status: draft"))
    )
    commit(repo, "a draft")
    code, report = review_json(repo)
    [file] = report["files"]
    assert (code, file["change"]) == (1, "changed")
    assert [(f["code"], f["message"]) for f in file["findings"]] == [
        ("IL107", "extension '.yml': incident files end in .yaml")
    ]


def test_a_draft_may_stay_a_draft_and_be_published(repo):
    text = (repo / "incidents" / "IL-0003.yaml").read_text(encoding="utf-8")
    write(repo, "IL-0003.yaml", text.replace("처리량 그래프에서", "처리량 그래프로"))
    commit(repo, "reword a draft")
    assert [f["code"] for f in review_json(repo)[1]["files"][0]["findings"]] == []
    write(repo, "IL-0003.yaml", text.replace("status: draft", "status: published"))
    commit(repo, "publish it")
    code, report = review_json(repo)
    assert (code, [f["code"] for f in report["files"][0]["findings"]]) == (0, [])
    assert (report["files"][0]["status_was"], report["files"][0]["status"]) == (
        "draft",
        "published",
    )
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert "#### 📄 **incidents/IL-0003.yaml** (published)\n" in comment


@pytest.mark.parametrize("was", ["draft", "withdrawn"])
def test_publishing_an_incident_makes_the_likeness_its_text_had_at_the_base_its_own(repo, was):
    # The draft IL-0003 is IL-0001's text: published, the pair goes into a release by this
    # change's decision, where the likeness went to matches_at_base ("✅ 0 possible
    # duplicates") as its text had it at the base. So for a withdrawn incident restored.
    name = "IL-0003" if was == "draft" else "IL-0002"
    text = (repo / "incidents" / f"{name}.yaml").read_text(encoding="utf-8")
    published = text.replace("status: draft", "status: published")
    if was == "withdrawn":
        git(repo, "checkout", "-q", "main")
        write(repo, "IL-0002.yaml", withdraw(published, "IL-0001"))
        commit(repo, "withdraw")
        git(repo, "checkout", "-q", "-B", "change")
    write(repo, f"{name}.yaml", published)
    commit(repo, "publish")
    code, report = review_json(repo)
    [file] = report["files"]
    assert (code, file["status_was"], file["status"]) == (0, was, "published")
    assert file["matches_at_base"] == []
    duplicates = [(m["id"], m["kind"]) for m in file["matches"]]
    others = [f"IL-000{n}" for n in (1, 2, 3) if f"IL-000{n}" != name]
    assert duplicates == [(other, "duplicate") for other in others]
    assert all(m["score"] > 0.9 and m["reasons"] for m in file["matches"])
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert "❌ 2 possible duplicates" in comment.splitlines()[1]
    assert "**Possible duplicates**" in comment and "not repeated" not in comment
    # Published, a sentence of it reworded is no decision on the pair again.
    git(repo, "checkout", "-q", "-B", "main")
    git(repo, "checkout", "-q", "-b", "reword")
    write(repo, f"{name}.yaml", published.replace("떨어졌다.", "크게 떨어졌다."))
    commit(repo, "reword")
    _, report = review_json(repo)
    [file] = report["files"]
    assert (file["status_was"], file["matches"]) == (None, [])
    assert [m["id"] for m in file["matches_at_base"]] == others


def test_the_change_that_adds_schema_is_reviewed_against_a_base_that_is_no_library(tmp_path):
    # A base with incidents/ but no schema/ (the change that makes a folder a library):
    # git archive refused the pair, and the review ended in exit 2, "cannot read incidents
    # and schema at ...". With no library at the base to compare with, what lint finds in
    # the files the change left alone is the change's to answer for.
    dangling = incident("IL-0001") + "related:\n  - IL-0099\n"
    root = write_library(tmp_path / "repo", {"IL-0001.yaml": dangling})
    (root / "schema").rename(tmp_path / "schema")
    git(root, "init", "-q", "-b", "main")
    commit(root, "incidents first")
    git(root, "checkout", "-q", "-b", "change")
    (tmp_path / "schema").rename(root / "schema")
    write(root, "IL-0002.yaml", incident("IL-0002"))
    commit(root, "the schema, and one more incident")
    code, report = review_json(root)
    assert code == 1
    changes = {
        f["path"]: (f["change"], [g["code"] for g in f["findings"]]) for f in report["files"]
    }
    assert changes["incidents/IL-0002.yaml"] == ("added", [])
    assert changes["incidents/IL-0001.yaml"] == ("unchanged", ["IL401"])


def test_a_file_renamed_with_its_id_kept_is_misnamed_not_removed(repo):
    # The incident is still there, under a name that is not its id: IL203 says what to
    # mend; IL901 ("deleted instead of withdrawn") would not be true.
    git(repo, "mv", "incidents/IL-0002.yaml", "incidents/IL-0009.yaml")
    commit(repo, "rename only")
    code, report = review_json(repo)
    assert code == 1
    [file] = report["files"]
    assert (file["change"], file["id"]) == ("renamed", "IL-0002")
    assert [f["code"] for f in file["findings"]] == ["IL203"]


def test_an_id_spelt_with_fewer_zeros_is_the_same_id_not_one_removed(repo):
    # IL-00025 is IL-0025 spelt otherwise (IL204); renamed to it, the incident is still
    # there, as changes.json says (modified, its id): IL901 said its id disappears.
    longer = (repo / "incidents" / "IL-0002.yaml").read_text(encoding="utf-8")
    git(repo, "rm", "-q", "incidents/IL-0002.yaml")
    write(repo, "IL-00002.yaml", longer.replace("id: IL-0002", "id: IL-00002"))
    commit(repo, "the id with a zero more")
    git(repo, "branch", "-f", "main")  # the base: the long spelling, published
    git(repo, "mv", "incidents/IL-00002.yaml", "incidents/IL-0002.yaml")
    write(repo, "IL-0002.yaml", longer)
    commit(repo, "the id as assign-ids writes it")
    code, report = review_json(repo)
    [file] = report["files"]
    assert (file["change"], file["id"]) == ("renamed", "IL-0002")
    assert (code, [f["code"] for f in file["findings"]]) == (0, [])


@pytest.mark.parametrize(
    "hidden",
    [
        "old/IL-0002.yaml",
        ".IL-0002.yaml",
        "IL-0002.yml",
        "IL-0002.YAML",
        "IL-0002/IL-0002.yaml",
    ],
)
def test_a_published_incident_moved_where_the_library_does_not_read_it_is_removed(repo, hidden):
    # Lint reads neither a subfolder nor a dotfile: the id left the library, but the file
    # still carrying it made the review pass (exit 0). Nor a `.yml`, nor a folder named
    # for the id: the name of each was taken for an id the head still held, and only
    # IL107 was said.
    (repo / "incidents" / hidden).parent.mkdir(exist_ok=True)
    git(repo, "mv", "incidents/IL-0002.yaml", f"incidents/{hidden}")
    commit(repo, "move it aside")
    code, report = review_json(repo)
    assert code == 1
    file, *others = report["files"]
    assert (file["change"], file["old_path"]) == ("renamed", "incidents/IL-0002.yaml")
    # Hidden or in a subfolder, the file is an error of the review's too (IL107); lint's
    # finding for the subfolder is the file's, not one the change caused in another.
    assert [f["code"] for f in file["findings"]] == ["IL901", "IL107"]
    assert others == []
    gone = (
        f"IL-0002 is renamed to incidents/{hidden}, so its id disappears from the library; "
        "published ids are withdrawn, never deleted: keep the file with `status: withdrawn` "
        "and a `withdrawn_reason` (and `duplicate_of` if it repeats another incident)"
    )
    assert file["findings"][0]["message"] == gone
    comment = run_curator("review", "--base", "main", cwd=repo).out.splitlines()
    said = gone.replace("(", "\\(").replace(")", "\\)")
    assert f"- line 1 · **IL901** · {said}" in comment


@pytest.mark.parametrize("entry", ["folder", "folder of notes", "link"])
def test_a_published_incident_made_a_folder_or_a_link_of_its_name_is_removed(repo, entry):
    # Lint reads neither (IL107: a folder, a link is not followed), but the review took
    # the name `IL-0002.yaml` for an id the head still held: no IL901, and the release
    # lost IL-0002 all the same. And IL901 said the file "is deleted" where a link or a
    # folder stands in its place, which sent its author looking for a deletion.
    text = (repo / "incidents" / "IL-0002.yaml").read_text(encoding="utf-8")
    git(repo, "rm", "-q", "incidents/IL-0002.yaml")
    if entry.startswith("folder"):
        (repo / "incidents" / "IL-0002.yaml").mkdir()
        inside = ("IL-0002.yaml", text) if entry == "folder" else ("notes.txt", "메모\n")
        (repo / "incidents" / "IL-0002.yaml" / inside[0]).write_text(inside[1], encoding="utf-8")
    else:
        (repo / "kept").mkdir()
        (repo / "kept" / "IL-0002.yaml").write_text(text, encoding="utf-8")
        (repo / "incidents" / "IL-0002.yaml").symlink_to("../kept/IL-0002.yaml")
    commit(repo, f"IL-0002 made a {entry}")
    linted = run_curator("lint", cwd=repo).out
    assert f"incidents/IL-0002.yaml:1:1: IL107 [error] a {entry[:6]}" in linted.replace(
        "symbolic link", "link"
    )
    code, report = review_json(repo)
    assert code == 1
    file = report["files"][0]
    # Git sees the file moved into the folder, the file removed beside a folder of notes
    # added, and the link as the file's type changed.
    path, change, how = {
        "folder": (
            "incidents/IL-0002.yaml/IL-0002.yaml",
            "renamed",
            "renamed to incidents/IL-0002.yaml/IL-0002.yaml, so",
        ),
        "folder of notes": (
            "incidents/IL-0002.yaml",
            "removed",
            "replaced by a folder, which the library does not read, so",
        ),
        "link": (
            "incidents/IL-0002.yaml",
            "changed",
            "replaced by a symbolic link, which the library does not read, so",
        ),
    }[entry]
    assert (file["path"], file["change"]) == (path, change)
    assert [f["code"] for f in file["findings"]] == ["IL901", "IL107"]
    keep = "keep the file" if entry == "folder" else "put the file back in its place"
    assert file["findings"][0]["message"] == (
        f"IL-0002 is {how} its id disappears from the library; published ids are withdrawn, "
        f"never deleted: {keep} with `status: withdrawn` and a `withdrawn_reason` (and "
        "`duplicate_of` if it repeats another incident)"
    )


def test_a_link_added_beside_the_incidents_removes_no_id(repo):
    # A link or a folder of a new name takes no id from the library: IL107 alone.
    (repo / "incidents" / "IL-0009.yaml").symlink_to("IL-0001.yaml")
    (repo / "incidents" / "IL-0010.yaml").mkdir()
    (repo / "incidents" / "IL-0010.yaml" / "notes.txt").write_text("메모\n", encoding="utf-8")
    commit(repo, "a link and a folder")
    code, report = review_json(repo)
    assert code == 1
    found = [(f["path"], f["change"], [x["code"] for x in f["findings"]]) for f in report["files"]]
    assert found == [
        ("incidents/IL-0009.yaml", "added", ["IL107"]),
        ("incidents/IL-0010.yaml/notes.txt", "added", ["IL107"]),
    ]


@pytest.mark.parametrize("aside", [".IL-0004.yaml", "old/IL-0004.yaml", "IL-0004.yml"])
def test_deleting_a_file_the_library_never_read_removes_no_id(repo, aside):
    # A published incident kept hidden or in a subfolder was never in the library nor a
    # release: deleting it was IL901, "its id disappears from the library". Nor was one
    # kept as a `.yml` (IL107 at the base), whose deletion no test had made.
    (repo / "incidents" / aside).parent.mkdir(exist_ok=True)
    write(repo, aside, incident("IL-0004"))
    commit(repo, "kept aside")
    git(repo, "branch", "-f", "main")
    git(repo, "rm", "-q", f"incidents/{aside}")
    commit(repo, "delete it")
    code, report = review_json(repo)
    [file] = report["files"]
    assert (code, file["path"], file["change"], file["findings"]) == (
        0,
        f"incidents/{aside}",
        "removed",
        [],
    )
    lines = run_curator("review", "--base", "main", cwd=repo).out.splitlines()
    assert lines[1].startswith("### ✅ 0 errors · ")
    assert [line for line in lines if line.startswith("#### ")] == []
    assert f"1 changed file, nothing to report: incidents/{aside} (removed)." in lines


def test_an_incident_changed_outside_incidents_is_an_error(repo):
    # Lint reads only incidents/: a new incident put anywhere else went unchecked, and the
    # comment said "✅ 0 errors" and "0 files changed under the library".
    new = incident("IL-NEW-x", ("example.com", "example.org"))
    places = {
        "IL-NEW-x.yaml": new,  # named like an incident
        "IL-NEW-y.YAML": new,  # in any case, as lint reports it in incidents/
        "incident/storage.yml": new,  # a misspelt folder: shaped like one
        "incident/notepad.yml": "\ufeff" + new,  # after a byte-order mark, as Notepad saves
        "incident/pasted.yml": "\ufeff\ufeff" + new,  # after two (one was allowed)
        "tests/IL-NEW-x.yaml": new,  # fixtures, samples, hidden folders and files are not
        "examples/storage.yaml": new,
        ".archive/IL-0009.yaml": new,
        ".storage.yaml": new,
        "deploy/config.yaml": "id: 3\nname: not an incident\n",
    }
    for name, text in places.items():
        (repo / name).parent.mkdir(exist_ok=True)
        (repo / name).write_text(text, encoding="utf-8")
    commit(repo, "add an incident in the wrong place")
    code, report = review_json(repo)
    assert code == 1
    assert [(f["path"], f["change"]) for f in report["files"]] == [
        ("IL-NEW-x.yaml", "added"),
        ("IL-NEW-y.YAML", "added"),
        ("incident/notepad.yml", "added"),
        ("incident/pasted.yml", "added"),
        ("incident/storage.yml", "added"),
    ]
    [finding] = report["files"][0]["findings"]
    assert (finding["code"], finding["severity"], finding["line"]) == ("IL107", "error", 1)
    assert finding["message"] == (
        "an incident outside incidents/: the library reads only the files directly in "
        "incidents/; move it to incidents/IL-NEW-x.yaml"
    )
    [shaped] = report["files"][4]["findings"]  # (by its `id:` and `title:` lines)
    assert shaped["message"].endswith("; move it to incidents/, named after its id")
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert "### ❌ 5 errors" in comment
    assert "0 files changed under the library" in comment
    assert "#### 📄 **IL-NEW-x.yaml** (added)" in comment
    github = run_curator("review", "--base", "main", "--format", "github", cwd=repo).out
    assert github.startswith("::error file=IL-NEW-x.yaml,line=1,col=1,title=IL107::an incident")


def test_an_incident_outside_incidents_named_like_one_is_an_error_whatever_its_extension(repo):
    # Only `.yaml` and `.yml` files were looked at: an incident saved with another
    # extension, or with one added to it, passed the review as it passed the hook.
    new = incident("IL-NEW-x")
    places = {
        "IL-0140.json": new,
        "IL-0141.yaml.txt": new,  # as Notepad saves it
        "drafts/IL-NEW-x.yml.bak": new,
        "il-0142": new,  # in any case, without an extension
        "docs/IL-0140.md": "# IL-0140\n",  # notes about an incident, not one
        "docs/img/IL-0140.png": "\x89PNG\r\n",  # nor is what a page about it shows: it
        "docs/IL-0141.drawio.svg": "<svg/>\n",  # was an error no contributor could pass
        "IL-0146.PDF": "%PDF-1.7\n",
        "IL-0140-topology.png": "",  # more than an id before its first `.`
        "drafts/IL-0145.orig": new,  # an extension no list names is an incident's
        "tests/data/IL-0143.json": new,  # fixtures and hidden files, as before
        ".IL-0144.json": new,
    }
    for name, text in places.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, encoding="utf-8")
    commit(repo, "add incidents under names the library does not read")
    code, report = review_json(repo)
    assert code == 1
    assert [(f["path"], [g["code"] for g in f["findings"]]) for f in report["files"]] == [
        ("IL-0140.json", ["IL107"]),
        ("IL-0141.yaml.txt", ["IL107"]),
        ("drafts/IL-0145.orig", ["IL107"]),
        ("drafts/IL-NEW-x.yml.bak", ["IL107"]),
        ("il-0142", ["IL107"]),
    ]
    # Moved as it says, each is read: not moved, then renamed at the next word of lint.
    moves = [f["findings"][0]["message"].rpartition(" to ")[2] for f in report["files"]]
    assert moves == [
        "incidents/IL-0140.yaml",
        "incidents/IL-0141.yaml",
        "incidents/IL-0145.yaml",
        "incidents/IL-NEW-x.yaml",
        "incidents/IL-0142.yaml",
    ]


def test_an_incident_the_library_never_reads_gets_its_place_to_fix_and_no_judgements(repo):
    # incidents/IL-0300.yml repeats IL-0001 with a doubtful cause: besides IL107, it was
    # given possible duplicates, facet suggestions and a block to paste, as if published.
    # Judged once it is in place, as one outside incidents/ (IL-0301.yaml) is.
    copy = incident("IL-0300", WRONG_CAUSE)
    write(repo, "IL-0300.yml", copy)
    write(repo, ".IL-0302.yaml", copy)  # hidden: never read either
    (repo / "IL-0301.yaml").write_text(copy, encoding="utf-8")
    commit(repo, "add incidents where the library does not read them")
    code, report = review_json(repo)
    assert code == 1
    judged = {
        f["path"]: ([g["code"] for g in f["findings"]], f["matches"], f["suggestions"])
        for f in report["files"]
    }
    assert judged == {
        "incidents/.IL-0302.yaml": (["IL107"], [], []),
        "incidents/IL-0300.yml": (["IL107"], [], []),
        "IL-0301.yaml": (["IL107"], [], []),
    }
    assert all(f["facets_to_paste"] == {} for f in report["files"])
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert (
        "### ❌ 3 errors · ✅ 0 warnings · ✅ 0 possible duplicates · ✅ 0 facet suggestions\n"
        in comment
    )
    assert "Possible duplicates" not in comment and "Ready to paste" not in comment


def test_an_incident_hidden_in_incidents_is_an_error_other_hidden_files_are_not(repo):
    # Lint passes hidden entries of incidents/ over, as it does an editor's files: a new
    # incident added as `.IL-0300.yaml` passed the review in silence ("✅ 0 errors"), as
    # one in a hidden folder did.
    write(repo, ".IL-0300.yaml", incident("IL-0300"))
    (repo / "incidents" / ".drafts").mkdir()
    write(repo, ".drafts/IL-0301.yml", incident("IL-0301"))
    write(repo, ".gitkeep", "")
    commit(repo, "add incidents the library never reads")
    code, report = review_json(repo)
    assert code == 1
    found = {
        f["path"]: [(g["code"], g["line"], g["message"]) for g in f["findings"]]
        for f in report["files"]
    }
    assert found == {
        "incidents/.IL-0300.yaml": [
            (
                "IL107",
                1,
                "hidden (its name starts with `.`): the library never reads it; take the `.` "
                "out of its name",
            )
        ],
        "incidents/.drafts/IL-0301.yml": [
            (
                "IL107",
                1,
                "in a hidden folder: the library reads only the files directly in incidents/",
            )
        ],
        "incidents/.gitkeep": [],
    }
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert "### ❌ 2 errors" in comment
    assert "#### 📄 **incidents/.IL-0300.yaml** (added)" in comment


def test_a_file_put_in_a_subfolder_of_incidents_is_the_error_not_its_folder(repo):
    # Lint reports the folder ("incidents/2024: a folder holding what may be incidents"),
    # which the review showed as "not changed here, but broken by this change", and the
    # file the change added as one with no findings; as it did a file in a folder named
    # like an incident (`incidents/IL-0009.yaml/notes.txt`).
    for folder in ("2024", "IL-0009.yaml", "images"):
        (repo / "incidents" / folder).mkdir()
    write(repo, "2024/IL-0300.yaml", incident("IL-0300"))
    write(repo, "IL-0009.yaml/notes.txt", "메모\n")
    write(repo, "images/graph.png", "")  # no incident: lint leaves such a folder alone
    commit(repo, "add incidents in subfolders")
    code, report = review_json(repo)
    assert code == 1
    found = {
        f["path"]: (f["change"], [(g["code"], g["message"]) for g in f["findings"]])
        for f in report["files"]
    }
    unread = (
        "IL107",
        "in a subfolder of incidents/: the library reads only the files directly in incidents/",
    )
    assert found == {
        "incidents/2024/IL-0300.yaml": ("added", [unread]),
        "incidents/IL-0009.yaml/notes.txt": ("added", [unread]),
        "incidents/images/graph.png": ("added", []),
    }
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert "### ❌ 2 errors" in comment and "not changed here" not in comment
    assert "#### 📄 **incidents/2024/IL-0300.yaml** (added)" in comment


def test_an_incident_outside_incidents_is_found_whatever_git_s_grep_colours(repo):
    # `color.grep=always` in the user's git config coloured git grep's file names: an
    # incident found by its text was no longer recognised, and the review passed.
    (repo / "incident").mkdir()
    (repo / "incident" / "storage.yml").write_text(incident("IL-NEW-x"), encoding="utf-8")
    commit(repo, "add an incident in a misspelt folder")
    colour = {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "color.grep"}
    colour["GIT_CONFIG_VALUE_0"] = "always"
    run = run_curator("review", "--base", "main", "--format", "json", cwd=repo, env=colour)
    assert run.code == 1
    assert [f["path"] for f in json.loads(run.out)["files"]] == ["incident/storage.yml"]


def test_incidents_outside_incidents_are_searched_and_listed_within_bounds(repo, monkeypatch):
    # A change may add thousands of files: their text is searched by one git command, whose
    # arguments are bounded, and one listed file is enough to fail the review.
    monkeypatch.setattr(misplaced, "MAX_SEARCHED", 2)
    monkeypatch.setattr(misplaced, "MAX_REPORTED", 3)
    for name in ("IL-NEW-c.yaml", "IL-NEW-d.yaml", "a.yaml", "b.yaml", "c.yaml"):
        (repo / name).write_text(incident("IL-NEW-x"), encoding="utf-8")
    commit(repo, "add many")
    review = build_review(repo, "main", "HEAD")
    # c.yaml is past the two files searched; b.yaml, found, past the three listed.
    assert [f.path for f in review.files] == ["IL-NEW-c.yaml", "IL-NEW-d.yaml", "a.yaml"]
    # Long names are bounded in bytes too: past them, a.yaml is not searched.
    monkeypatch.setattr(misplaced, "MAX_SEARCHED_BYTES", len("a.yaml"))
    review = build_review(repo, "main", "HEAD")
    assert [f.path for f in review.files] == ["IL-NEW-c.yaml", "IL-NEW-d.yaml"]


def test_changed_files_are_linted_in_the_context_of_the_whole_library(repo):
    # IL-0005 reuses IL-0001's source URL: a cross-file rule, reported on both files.
    write(repo, "IL-0005.yaml", incident("IL-0005", ("postmortems/IL-0005", "postmortems/IL-0001")))
    write(repo, "IL-0006.yaml", incident("IL-0006", ("    - nccl\n", "    - ncl\n")))
    commit(repo, "add")
    code, report = review_json(repo)
    assert code == 1
    codes = {(f["path"], f["change"]): [x["code"] for x in f["findings"]] for f in report["files"]}
    assert codes == {
        ("incidents/IL-0005.yaml", "added"): ["IL502"],
        ("incidents/IL-0006.yaml", "added"): ["IL301"],
        ("incidents/IL-0001.yaml", "unchanged"): ["IL502"],  # now shares its URL: new here
    }
    assert report["errors_elsewhere"] == 0


@pytest.mark.parametrize("folder", ["", ":library"])
def test_an_error_a_change_causes_elsewhere_is_found_without_a_copy_of_the_base(
    tmp_path, monkeypatch, folder
):
    # The taxonomy left alone, what the base had of IL-0001's cross-file findings is worked
    # out from the head's lint: at 100,000 incidents, a copy of the base is 100,000 files
    # written, linted cold and deleted (minutes on a slow disk). The library may be in a
    # folder of the repository, named like a pathspec.
    repo = tmp_path / "repo"
    library = write_library(repo / folder, {"IL-0001.yaml": incident("IL-0001")})
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "base")
    git(repo, "checkout", "-q", "-b", "change")
    shared = ("postmortems/IL-0005", "postmortems/IL-0001")
    write(library, "IL-0005.yaml", incident("IL-0005", shared))
    commit(repo, "repeat a source")

    def no_copy(*args: object) -> None:
        raise AssertionError("the base was written out")

    monkeypatch.setattr(review_git, "materialise", no_copy)
    review = build_review(library, "main", "HEAD")
    found = {(f.path, f.change): [x.code for x in f.findings] for f in review.files}
    incidents = f"{folder}/incidents" if folder else "incidents"
    assert found == {
        (f"{incidents}/IL-0005.yaml", "added"): ["IL502"],
        (f"{incidents}/IL-0001.yaml", "unchanged"): ["IL502"],
    }


def test_the_base_s_versions_of_the_edited_files_are_listed_once(repo, monkeypatch):
    # Their bytes (`files_at`) and whether each was a regular file there, which working the
    # base's cross-file findings out from the head's lint asks, came from a `git ls-tree`
    # each, of the same paths.
    shared = ("postmortems/IL-0002", "postmortems/IL-0001")
    write(repo, "IL-0002.yaml", incident("IL-0002", shared))
    write(repo, "IL-0003.yaml", incident("IL-0003", ("status: published", "status: draft")) + "\n")
    commit(repo, "repeat a source")
    base = git(repo, "rev-parse", "main")

    def no_copy(*args: object) -> None:
        raise AssertionError("the base was written out")

    listings = []
    run_git = review_git.run_git

    def counted(cwd: Path, *args: str) -> bytes:
        if "ls-tree" in args and base in args:
            listings.append(args[args.index("--") + 1 :])
        return run_git(cwd, *args)

    monkeypatch.setattr(review_git, "materialise", no_copy)
    monkeypatch.setattr(review_git, "run_git", counted)
    review = build_review(repo, "main", "HEAD")
    found = {(f.path, f.change): [x.code for x in f.findings] for f in review.files}
    assert found == {
        ("incidents/IL-0002.yaml", "changed"): ["IL502"],
        ("incidents/IL-0003.yaml", "changed"): [],
        ("incidents/IL-0001.yaml", "unchanged"): ["IL502"],  # shares its URL: new here
    }
    assert listings == [("incidents/IL-0002.yaml", "incidents/IL-0003.yaml")]


@pytest.mark.parametrize("aside", [".IL-0004.yaml", "old/IL-0004.yaml", "IL-0004.yml"])
def test_an_incident_moved_into_the_library_needs_no_copy_of_the_base(repo, monkeypatch, aside):
    # The file it came from was no incident at the base (lint read it as none, or not at
    # all): the base's cross-file findings are the head's without it, as for any file
    # added. Its old path made the review write out and lint a copy of the base.
    shared = ("postmortems/IL-0004", "postmortems/IL-0001")
    (repo / "incidents" / aside).parent.mkdir(exist_ok=True)
    write(repo, aside, incident("IL-0004", *DIFFERENT, shared))
    commit(repo, "kept aside")
    git(repo, "branch", "-f", "main")
    git(repo, "mv", f"incidents/{aside}", "incidents/IL-0004.yaml")
    commit(repo, "move it in")

    def no_copy(*args: object) -> None:
        raise AssertionError("the base was written out")

    monkeypatch.setattr(review_git, "materialise", no_copy)
    review = build_review(repo, "main", "HEAD")
    found = {(f.path, f.change): [x.code for x in f.findings] for f in review.files}
    assert found == {
        ("incidents/IL-0004.yaml", "added"): ["IL502"],
        ("incidents/IL-0001.yaml", "unchanged"): ["IL502"],  # shares its URL: new here
    }
    assert review.errors_elsewhere == 0


def _ids_clash(repo: Path) -> None:  # IL-0002's file now says it is IL-0001 (IL204)
    write(repo, "IL-0002.yaml", incident("IL-0001"))


def _reference_removed(repo: Path) -> None:  # IL-0001 names IL-0002, which goes (IL401)
    git(repo, "checkout", "-q", "main")
    related = ("sources:", "related:\n  - IL-0002\nsources:")
    write(repo, "IL-0001.yaml", incident("IL-0001", related))
    commit(repo, "a reference")
    git(repo, "checkout", "-q", "-B", "change")
    (repo / "incidents" / "IL-0002.yaml").unlink()


def _shared_before_and_after(repo: Path) -> None:  # main's IL502 stays; a new one is added
    git(repo, "checkout", "-q", "main")
    write(repo, "IL-0002.yaml", incident("IL-0002", ("postmortems/IL-0002", "postmortems/IL-0001")))
    commit(repo, "an error on main")
    git(repo, "checkout", "-q", "-B", "change")
    write(repo, "IL-0004.yaml", incident("IL-0004", ("postmortems/IL-0004", "postmortems/IL-0003")))


def _renamed_away(repo: Path) -> None:  # the file sharing IL-0001's URL is renamed, fixed
    git(repo, "checkout", "-q", "main")
    write(repo, "IL-0002.yaml", incident("IL-0002", ("postmortems/IL-0002", "postmortems/IL-0001")))
    commit(repo, "an error on main")
    git(repo, "checkout", "-q", "-B", "change")
    git(repo, "mv", "incidents/IL-0002.yaml", "incidents/IL-0004.yaml")
    write(repo, "IL-0004.yaml", incident("IL-0004", ("postmortems/IL-0004", "postmortems/IL-0001")))


def _copied_with_its_id(repo: Path) -> None:  # a copy under a new name keeps IL-0003's id
    write(repo, "IL-0007.yaml", incident("IL-0003", ("status: published", "status: draft")))


def _moved_in(repo: Path) -> None:  # a `.yml` IL-0001 names, moved in: now IL-0002's repeat
    git(repo, "checkout", "-q", "main")
    write(repo, "IL-0004.yml", incident("IL-0004", ("postmortems/IL-0004", "postmortems/IL-0002")))
    related = ("sources:", "related:\n  - IL-0004\nsources:")
    write(repo, "IL-0001.yaml", incident("IL-0001", related))
    commit(repo, "a .yml, and a reference to it")
    git(repo, "checkout", "-q", "-B", "change")
    git(repo, "mv", "incidents/IL-0004.yml", "incidents/IL-0004.yaml")


# Changes that give an error to a file they leave alone, or take one away, or both.
ELSEWHERE = [
    _ids_clash,
    _reference_removed,
    _shared_before_and_after,
    _renamed_away,
    _copied_with_its_id,
    _moved_in,
]


@pytest.mark.parametrize("change", ELSEWHERE)
def test_the_base_s_findings_from_the_head_s_lint_are_those_of_linting_the_base(
    repo, monkeypatch, change
):
    change(repo)
    commit(repo, "the change")
    quick = build_review(repo, "main", "HEAD")
    monkeypatch.setattr(build, "cross_file_findings_at_base", lambda *args: None)
    assert build_review(repo, "main", "HEAD") == quick
    # Each case has something to compare: an error in a file the change leaves alone.
    assert quick.errors_elsewhere or any(f.change == "unchanged" for f in quick.files)


def test_a_taxonomy_change_that_breaks_unchanged_incidents_is_this_changes_error(repo):
    components = repo / "schema" / "taxonomy" / "components.yaml"
    text = components.read_text(encoding="utf-8")
    components.write_text(text.replace("  - id: nccl\n", "  - id: nccl-lib\n"), encoding="utf-8")
    commit(repo, "rename a term")
    code, report = review_json(repo)
    assert code == 1
    broken = [(f["path"], f["change"], f["findings"][0]["code"]) for f in report["files"][1:]]
    assert broken == [(f"incidents/IL-000{n}.yaml", "unchanged", "IL301") for n in (1, 2, 3)]
    assert report["files"][0]["path"] == "schema/taxonomy/components.yaml"
    assert report["errors_elsewhere"] == 0
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert comment.splitlines()[1].startswith("### ❌ 3 errors · ")
    assert "1 file changed under the library" in comment
    assert "#### 📄 **incidents/IL-0001.yaml** (not changed here, but broken by this change)" in (
        comment
    )
    assert "'nccl' is not a term of components; did you mean 'nccl-lib'?" in comment


def test_a_dimension_file_removed_is_reported_under_its_own_path(repo):
    # Its IL303 (`cannot read`) came under the checkout's absolute path, as a file "not
    # changed here", while the file itself was listed as removed with "no findings in it";
    # the IL301 errors it causes said to see that IL303.
    (repo / "schema" / "taxonomy" / "symptoms.yaml").unlink()
    commit(repo, "remove a dimension")
    code, report = review_json(repo)
    assert code == 1
    removed, *broken = report["files"]
    assert (removed["path"], removed["change"]) == ("schema/taxonomy/symptoms.yaml", "removed")
    assert [(f["line"], f["code"], f["message"]) for f in removed["findings"]] == [
        (1, "IL303", "cannot read: No such file or directory")
    ]
    assert [f["path"] for f in broken] == [f"incidents/IL-000{n}.yaml" for n in (1, 2, 3)]


def test_a_taxonomy_file_made_unreadable_is_said_once_not_as_every_term_removed(repo):
    # Its terms were compared with none: each was said to be removed ("each now with an
    # IL301 error (a term is deprecated, never removed …"), and each incident carrying one
    # had a section repeating that the file could not be read.
    components = repo / "schema" / "taxonomy" / "components.yaml"
    text = components.read_text(encoding="utf-8")
    components.write_text(text.replace("    label:", "   label:", 1), encoding="utf-8")
    commit(repo, "break the indent of a term")
    code, report = review_json(repo)
    assert code == 1
    assert (report["terms_changed"], report["filters_changed"]) == ([], [])
    assert report["taxonomy_unread"] == [
        {
            "dimension": "components",
            "path": "schema/taxonomy/components.yaml",
            "line": 4,
            "column": 4,
            "at_base": False,
        }
    ]
    broken = [(f["path"], [g["code"] for g in f["findings"]]) for f in report["files"][1:]]
    assert broken == [(f"incidents/IL-000{n}.yaml", ["IL301"]) for n in (1, 2, 3)]
    lines = run_curator("review", "--base", "main", cwd=repo).out.splitlines()
    assert lines[1].startswith("### ❌ 4 errors · ")  # the IL303 and the three IL301
    assert (
        "- **components** · schema/taxonomy/components.yaml could not be read (IL303 at line "
        "4, column 4): none of its terms is known, so none is compared with the base's; 3 "
        "incidents this change leaves alone carry them, with 3 IL301 errors until it is "
        "fixed: IL-0001 (incidents/IL-0001.yaml), IL-0002 (incidents/IL-0002.yaml), "
        "IL-0003 (incidents/IL-0003.yaml)."
    ) in lines
    assert not [line for line in lines if "removed" in line]
    assert [line for line in lines if line.startswith("#### ")] == [
        "#### 📄 **schema/taxonomy/components.yaml** (changed)"
    ]


def break_every_symptom(repo: Path) -> tuple[int, int, int]:
    """Misspell the `description` key of every term of symptoms.yaml (none can be read),
    and edit IL-0002 with an unknown component too; the line of the term IL-0002 carries
    (`throughput-degradation`), and the first and last line of the misspelt key."""
    symptoms = repo / "schema" / "taxonomy" / "symptoms.yaml"
    text = symptoms.read_text(encoding="utf-8")
    misspelt = text.replace("    description:", "    descripton:")
    symptoms.write_text(misspelt, encoding="utf-8")
    edited = ("학습 처리량이 떨어졌다.", "처리량이 반으로 줄었다."), ("    - nccl", "    - ncl")
    write(repo, "IL-0002.yaml", incident("IL-0002", *edited))
    commit(repo, "break every symptom, edit IL-0002")
    term = text.splitlines().index("  - id: throughput-degradation") + 1
    last = misspelt[: misspelt.rindex("    descripton:")].count("\n") + 1
    return term, term + 4, last  # (its description four lines below its id)


def test_a_term_of_a_taxonomy_file_that_cannot_be_read_ends_its_message_once(repo):
    # A broken term (every one is) ended twice: "definition is broken, at …:3:9 (its IL303
    # errors say how); schema/taxonomy/symptoms.yaml could not be read (its IL303 errors
    # say why)".
    term, _, _ = break_every_symptom(repo)
    _, report = review_json(repo)
    messages = {
        (f["path"], f["message"])
        for file in report["files"]
        for f in file["findings"]
        if f["code"] == "IL301" and "symptoms" in f["message"]
    }
    assert messages == {
        (
            f"incidents/IL-000{n}.yaml",
            "'throughput-degradation' is a term of symptoms whose definition is broken, at "
            f"schema/taxonomy/symptoms.yaml:{term}:9; schema/taxonomy/symptoms.yaml could not "
            "be read (its IL303 errors say why)",
        )
        for n in (1, 2, 3)
    }


def test_a_taxonomy_file_that_cannot_be_read_is_said_once_for_a_changed_incident_too(repo):
    # The incidents the change leaves alone were folded into the taxonomy's line; IL-0002,
    # which it edits, kept its IL301 of the unread file in its section and as an annotation
    # (as did IL-0001 and IL-0003), each saying again that the file could not be read, and
    # the line counted "2 incidents this change leaves alone".
    _, first, last = break_every_symptom(repo)
    symptoms = (repo / "schema" / "taxonomy" / "symptoms.yaml").read_text(encoding="utf-8")
    more = symptoms.count("  - id: ") - 1
    lines = run_curator("review", "--base", "main", cwd=repo).out.splitlines()
    assert lines[1].startswith("### ❌ 5 errors · ")  # every IL301 counted, folded or not
    assert (
        f"- **symptoms** · schema/taxonomy/symptoms.yaml could not be read (IL303 at line "
        f"{first}, column 5): none of its terms is known, so none is compared with the base's; "
        "3 incidents (1 this change adds or edits, 2 it leaves alone) carry them, with 3 IL301 "
        "errors until it is fixed: IL-0002 (incidents/IL-0002.yaml), IL-0001 "
        "(incidents/IL-0001.yaml), IL-0003 (incidents/IL-0003.yaml)."
    ) in lines
    # IL-0002's section keeps its other finding, and says the unread file no more.
    section = lines[lines.index("#### 📄 **incidents/IL-0002.yaml** (changed)") :]
    errors = section[section.index("**Errors**") + 2 :]
    assert errors[: errors.index("")] == [
        "- line 11 · **IL301** · 'ncl' is not a term of components; did you mean 'nccl'?"
    ]
    assert not [line for line in lines if "could not be read \\(its IL303" in line]
    github = run_curator("review", "--base", "main", "--format", "github", cwd=repo).out
    assert [line for line in github.splitlines() if line.startswith("::error ")] == [
        "::error file=incidents/IL-0002.yaml,line=11,col=7,title=IL301::'ncl' is not a term of "
        "components; did you mean 'nccl'?",
        f"::error file=schema/taxonomy/symptoms.yaml,line={first},col=5,title=IL303::unknown "
        "key 'terms[0].descripton'; did you mean 'terms[0].description'? "
        f"('terms[0].description' is required and missing); the same in {more} more terms, the "
        f"last at line {last}; none of its terms is known, so the symptoms of incidents are "
        "not checked (IL301) until it is fixed: 3 incidents carry 3 terms of it",
    ]
    # A changed incident whose only findings are those has no section: the line names it.
    write(
        repo, "IL-0002.yaml", incident("IL-0002", ("학습 처리량이 떨어졌다.", "처리량이 줄었다."))
    )
    commit(repo, "mend the component")
    lines = run_curator("review", "--base", "main", cwd=repo).out.splitlines()
    assert [line for line in lines if line.startswith("#### ")] == [
        "#### 📄 **schema/taxonomy/symptoms.yaml** (changed)"
    ]
    assert "3 incidents (1 this change adds or edits, 2 it leaves alone) carry them" in "\n".join(
        lines
    )


def test_a_taxonomy_file_that_cannot_be_read_is_no_advice_to_empty_its_dimension(repo):
    # The block to paste for IL-0002 said `symptoms: []`, as if to drop its symptom, and a
    # new incident was judged in symptoms too (nothing missing, nothing unsupported): the
    # suggester knows no term of a file it cannot read.
    break_every_symptom(repo)
    write(repo, "IL-0004.yaml", incident("IL-0004", *DIFFERENT))
    commit(repo, "add an incident")
    _, report = review_json(repo)
    edited, added = (
        next(f for f in report["files"] if f["id"] == i) for i in ("IL-0002", "IL-0004")
    )
    assert edited["facets_to_paste"] == {
        "causes": ["capacity-limit"],
        "components": ["nccl", "shared-network-filesystem"],
        "symptoms": ["throughput-degradation"],
        "contributing_factors": [],
    }
    assert edited["facets_unread"] == ["symptoms"]
    assert [j["dimension"] for j in added["suggestions"]] == [
        "causes",
        "components",
        "contributing_factors",
    ]
    comment = run_curator("review", "--base", "main", cwd=repo).out
    section = comment.split("#### 📄 **incidents/IL-0002.yaml** (changed)")[1]
    block = section.split("Ready to paste:\n\n```yaml\n")[1].split("```")[0]
    assert block.splitlines() == [
        "facets:",
        "  causes:",
        "    - capacity-limit",
        "  components:",
        "    - nccl  # suggested",
        "    - shared-network-filesystem  # suggested",
        "  symptoms:  # as it is: symptoms.yaml could not be read",
        "    - throughput-degradation",
        "  contributing_factors: []",
    ]


def components_broken_on_main(repo: Path) -> tuple[Path, str]:
    """The components taxonomy file, a term's indent broken in a commit on main (checked
    out), and its text before."""
    components = repo / "schema" / "taxonomy" / "components.yaml"
    text = components.read_text(encoding="utf-8")
    git(repo, "checkout", "-q", "main")
    components.write_text(text.replace("    label:", "   label:", 1), encoding="utf-8")
    commit(repo, "break the indent of a term")
    return components, text


def test_a_taxonomy_file_mended_is_said_once(repo):
    # A change that breaks one was said in a line (`taxonomy_unread`); one that mends it said
    # nothing: "1 other changed file, nothing to report".
    components, text = components_broken_on_main(repo)
    # Where lint puts the file's first error at the base: the review said no place.
    linted = json.loads(run_curator("lint", "--format", "json", cwd=repo).out)
    path = "schema/taxonomy/components.yaml"
    first = min((f["line"], f["column"]) for f in linted if f["path"] == path)
    assert first > (1, 1)
    git(repo, "checkout", "-q", "-B", "change")
    components.write_text(text, encoding="utf-8")
    commit(repo, "mend it")
    code, report = review_json(repo)
    assert code == 0
    assert report["taxonomy_unread"] == [] and report["terms_changed"] == []
    assert report["taxonomy_mended"] == [
        {"dimension": "components", "path": path, "line": first[0], "column": first[1]}
    ]
    lines = run_curator("review", "--base", "main", cwd=repo).out.splitlines()
    assert (
        f"- **components** · {path} could not be read at the base (IL303 at line {first[0]}, "
        f"column {first[1]}) and is read now: its terms are known again, and none is "
        "compared with the base's."
    ) in lines


@pytest.mark.parametrize("touches_the_taxonomy", [False, True])
def test_a_taxonomy_file_unread_at_the_base_too_is_said_once(repo, touches_the_taxonomy):
    # Unread at the base already, its IL301 errors in the incidents the change adds or
    # edits were said in a section each, one per incident, where a change that breaks the
    # file had them folded into one line; and that line, when the change touched another
    # taxonomy file, did not say the base could not read it either.
    components_broken_on_main(repo)
    git(repo, "checkout", "-q", "-B", "change")
    write(repo, "IL-0004.yaml", incident("IL-0004", *DIFFERENT))
    write(
        repo, "IL-0002.yaml", incident("IL-0002", ("학습 처리량이 떨어졌다.", "처리량이 줄었다."))
    )
    if touches_the_taxonomy:
        symptoms = repo / "schema" / "taxonomy" / "symptoms.yaml"
        symptoms.write_text(symptoms.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    commit(repo, "add IL-0004, edit IL-0002")
    code, report = review_json(repo)
    assert code == 1
    path = "schema/taxonomy/components.yaml"
    assert report["taxonomy_unread"] == [
        {"dimension": "components", "path": path, "line": 4, "column": 4, "at_base": True}
    ]
    lines = run_curator("review", "--base", "main", cwd=repo).out.splitlines()
    assert lines[1].startswith("### ❌ 2 errors · ")  # the two IL301, folded, still counted
    assert (
        f"- **components** · {path} could not be read, as at the base (IL303 at line 4, "
        "column 4): none of its terms is known; 2 incidents this change adds or edits carry "
        "them, with 2 IL301 errors until it is fixed: IL-0002 (incidents/IL-0002.yaml), "
        "IL-0004 (incidents/IL-0004.yaml)."
    ) in lines
    # IL-0002's only finding was that: no section. IL-0004 keeps its own for its judgement.
    # The heading said it was "what this change does to the incidents".
    assert "**Taxonomy** — as at the base, none of it this change's doing:" in lines
    assert not [line for line in lines if "what this change does" in line]
    sections = [line for line in lines if line.startswith("#### ")]
    assert sections == ["#### 📄 **incidents/IL-0004.yaml** (added)"]
    assert not [line for line in lines if "**IL301**" in line]
    # The annotations said them one an incident, each that the file could not be read: the
    # IL303 that lint adds the count to is in a file the change leaves alone, no annotation.
    # Said once, on the line of the first of them that "Files changed" shows: in the new
    # incident, not the one whose title alone the change edits.
    github = run_curator("review", "--base", "main", "--format", "github", cwd=repo).out
    assert [line for line in github.splitlines() if line.startswith("::error ")] == [
        "::error file=incidents/IL-0004.yaml,line=11,col=7,title=IL301::'nccl' is not a term "
        f"of components; {path} could not be read, as at the base (IL303 at line 4, column 4); "
        "none of its terms is known, so the components of incidents are not checked (IL301) "
        "until it is fixed: 2 incidents carry 2 terms of it"
    ]


def test_the_one_annotation_of_an_unread_taxonomy_file_is_on_a_line_the_diff_changes(repo):
    # Its IL301 errors in the incidents the change edits are one annotation, which was on
    # the first of them: in IL-0001, whose title alone the change edits, a line the diff
    # does not touch, where "Files changed" shows no annotation. IL-0002's new term is.
    components_broken_on_main(repo)
    git(repo, "checkout", "-q", "-B", "change")
    write(repo, "IL-0001.yaml", incident("IL-0001", ("학습 처리량이 떨어졌다", "처리량이 줄었다")))
    write(repo, "IL-0002.yaml", incident("IL-0002", ("    - nccl\n", "    - dns\n    - nccl\n")))
    commit(repo, "edit IL-0001's title, add a component to IL-0002")
    diff = git(repo, "diff", "-U0", "main", "HEAD", "--", "incidents/IL-0002.yaml")
    assert "\n@@ -10,0 +11 @@ facets:\n+    - dns" in diff
    code, report = review_json(repo)
    unread = [
        (f["path"], x["line"], x["message"].split(";")[0])
        for f in report["files"]
        for x in f["findings"]
        if x["code"] == "IL301"
    ]
    assert code == 1 and unread == [
        ("incidents/IL-0001.yaml", 11, "'nccl' is not a term of components"),
        ("incidents/IL-0002.yaml", 11, "'dns' is not a term of components"),
        ("incidents/IL-0002.yaml", 12, "'nccl' is not a term of components"),
    ]
    assert all("lines_in_diff" not in f for f in report["files"])  # not in the report
    github = run_curator("review", "--base", "main", "--format", "github", cwd=repo).out
    assert [line for line in github.splitlines() if line.startswith("::error ")] == [
        "::error file=incidents/IL-0002.yaml,line=11,col=7,title=IL301::'dns' is not a term "
        "of components; schema/taxonomy/components.yaml could not be read, as at the base "
        "(IL303 at line 4, column 4); none of its terms is known, so the components of "
        "incidents are not checked (IL301) until it is fixed: 2 incidents carry 3 terms of it"
    ]
    # With no error on a line the diff changes, on the first of them, as before.
    write(repo, "IL-0002.yaml", incident("IL-0002", ("떨어졌다.", "떨어졌다 .")))
    commit(repo, "IL-0002's component as at the base")
    github = run_curator("review", "--base", "main", "--format", "github", cwd=repo).out
    errors = [line for line in github.splitlines() if line.startswith("::error ")]
    assert [line.split("::")[1] for line in errors] == [
        "error file=incidents/IL-0001.yaml,line=11,col=7,title=IL301"
    ]


@pytest.mark.parametrize("named", [True, False])
def test_the_lines_of_every_edited_file_with_annotations_come_from_one_git_diff(
    repo, monkeypatch, named
):
    # They were asked of git a file at a time, and only of a file holding the IL301 errors
    # of a taxonomy file the head cannot read: the annotations of any other edited file
    # could not be placed where "Files changed" shows them. Without `named`, the files'
    # names would pass the limit on git's command line: the whole diff is read instead.
    if not named:
        monkeypatch.setattr(review_git, "_NAMED_AT_MOST", 10)
    git(repo, "checkout", "-q", "main")
    write(repo, "IL-0004.yaml", incident("IL-0004", *DIFFERENT))
    commit(repo, "add IL-0004")
    git(repo, "checkout", "-q", "-B", "change")
    spaces = ("학습 처리량이 떨어졌다.\n", "학습 처리량이 떨어졌다. \n")
    write(repo, "IL-0001.yaml", incident("IL-0001", spaces, ("늘렸다.\n", "늘렸다. \n")))
    # Past what lint reads (IL104, say): git is not made to compare its megabytes.
    lessons = "  작은 규모 시험으로는 알 수 없었다.\n"
    write(repo, "IL-0002.yaml", incident("IL-0002", (lessons, lessons * 30_000)))
    write(repo, "IL-0004.yaml", incident("IL-0004", *DIFFERENT, ("DNS 설정", "DNS 레코드")))
    (repo / "incidents" / "IL-0003.yaml").unlink()
    write(
        repo,
        "IL-0003 사본.yaml",
        incident("IL-0003", ("status: published", "status: draft"), spaces),
    )
    commit(repo, "trailing spaces, a file too large, a retitle, a rename")
    diffs = []
    run_git = review_git.run_git

    def counted(cwd: Path, *args: str) -> bytes:
        if "diff" in args and "-U0" in args:
            diffs.append(args)
        return run_git(cwd, *args)

    monkeypatch.setattr(review_git, "run_git", counted)
    review = build_review(repo, "main", "HEAD")
    placed = {f.path: (f.change, sorted(f.lines_in_diff)) for f in review.files}
    assert placed == {
        "incidents/IL-0001.yaml": ("changed", [16, 18]),
        "incidents/IL-0002.yaml": ("changed", []),
        "incidents/IL-0003 사본.yaml": ("renamed", [16]),  # git quotes it, a tab after
        "incidents/IL-0004.yaml": ("changed", []),  # no finding: not asked
    }
    assert [f.code for f in review.files[1].findings] == ["IL104"]
    [asked] = diffs
    names = (
        "incidents/IL-0001.yaml",
        "incidents/IL-0002.yaml",
        "incidents/IL-0003.yaml",
        "incidents/IL-0003 사본.yaml",
    )
    assert asked[asked.index("--") + 1 :] == (names if named else ())


def test_annotations_on_lines_the_diff_shows_take_the_ten_first(repo):
    # An edited incident's errors on lines its diff leaves alone came first, in the order
    # lint gives them, and took four of the ten that GitHub shows: two of those it would
    # have shown in "Files changed", on the lines the change adds, were left out. Those
    # left out now are of the others, still printed (the run's summary shows them).
    outside = "".join(f"    - broken-{n}\n" for n in range(1, 7))
    facets = ("    - nccl\n", "    - nccl\n" + outside)
    spaces = ("학습 처리량이 떨어졌다.\n", "학습 처리량이 떨어졌다. \n")
    git(repo, "checkout", "-q", "main")
    write(repo, "IL-0001.yaml", incident("IL-0001", facets, spaces))
    commit(repo, "IL-0001 with unknown components and a trailing space")
    git(repo, "checkout", "-q", "-B", "change")
    inside = "".join(f"    - lost-{n}\n" for n in range(1, 7))
    symptoms = ("    - throughput-degradation\n", "    - throughput-degradation\n" + inside)
    lessons = ("알 수 없었다.\n", "알 수 없었다. \n")
    write(repo, "IL-0001.yaml", incident("IL-0001", facets, spaces, symptoms, lessons))
    commit(repo, "IL-0001 with unknown symptoms and a trailing space")
    diff = git(repo, "diff", "-U0", "main", "HEAD").splitlines()
    assert [line for line in diff if line.startswith("@@")] == [
        "@@ -19,0 +20,6 @@ facets:",
        "@@ -30 +36 @@ lessons: |",
    ]
    github = run_curator("review", "--base", "main", "--format", "github", cwd=repo).out
    lines = github.splitlines()
    where = "file=incidents/IL-0001.yaml"
    assert [line.split("::")[1] for line in lines] == [
        *(f"error {where},line={n},col=7,title=IL301" for n in (20, 21, 22, 23, 24, 25)),
        *(f"error {where},line={n},col=7,title=IL301" for n in (12, 13, 14, 15)),
        f"warning {where},line=36,col=23,title=IL602",  # the lessons' trailing space
        f"warning {where},line=11,col=7,title=IL304",  # components out of order
        f"warning {where},line=19,col=7,title=IL304",  # symptoms out of order
        f"warning {where},line=28,col=16,title=IL602",  # the symptom's, at the base too
        "notice title=more in the job summary",
    ]
    assert lines[0].endswith("::'lost-1' is not a term of symptoms; did you mean 'data-loss'?")
    assert lines[9].endswith("::'broken-4' is not a term of components")
    assert lines[-1].endswith(
        "::not shown as annotations (GitHub shows 10 of each kind per step): 2 more errors; "
        "the job summary lists them all"
    )  # broken-5 and broken-6


def test_the_files_are_judged_in_worker_processes_as_one_process_judges_them(repo, monkeypatch):
    # A change to every incident of 100,000 judged one file after another took an hour;
    # the workers are forked with the judge's index, and hand back each file's review.
    rewritten_as_a_twin(repo, "IL-0001")  # possible duplicates of the others, made here
    (repo / "incidents" / "IL-0002.yaml").unlink()
    write(repo, "IL-0004.yaml", incident("IL-0004"))  # (IL-0002 renamed, to git)
    write(repo, "IL-0005.yaml", incident("IL-0005", ("    - nccl\n", "    - ncl\n")))
    git(repo, "mv", "incidents/IL-0003.yaml", "incidents/IL-0006.yaml")
    commit(repo, "every kind of change")
    pools = []
    events = []

    class Counted(build.Workers):
        def __init__(self, count: int) -> None:
            pools.append(count)
            events.append("forked")
            super().__init__(count)

    monkeypatch.setattr(build, "Workers", Counted)
    # The heap the index's build freed is handed back before the workers are forked.
    monkeypatch.setattr(build, "release_freed_memory", lambda: events.append("trimmed"))
    monkeypatch.setattr(build, "worker_count", lambda files, least: 1)
    alone = build_review(repo, "main", "HEAD", LibraryJudge)
    monkeypatch.setattr(build, "worker_count", lambda files, least: 2)
    shared = build_review(repo, "main", "HEAD", LibraryJudge)
    # (None for one process.) The files reviewed first without the index, then those that
    # asked the judge something, by workers forked once it is built.
    assert pools == [2, 2]
    assert events == ["trimmed", "forked", "trimmed", "forked"]
    assert output.as_json(shared) == output.as_json(alone)
    found = [
        (f.path, f.change, [m.id for m in f.matches], [m.id for m in f.matches_at_base])
        for f in shared.files
    ]
    assert found == [
        ("incidents/IL-0001.yaml", "changed", ["IL-0003", "IL-0004", "IL-0005"], []),
        ("incidents/IL-0004.yaml", "renamed", [], ["IL-0001", "IL-0003", "IL-0005"]),
        ("incidents/IL-0005.yaml", "added", ["IL-0001", "IL-0003", "IL-0004"], []),
        ("incidents/IL-0006.yaml", "renamed", [], []),  # (its content too: not judged)
    ]


@pytest.mark.parametrize("workers", [1, 2])
def test_no_index_is_built_for_a_change_that_asks_the_judge_nothing(repo, monkeypatch, workers):
    # A source's publisher edited in every incident, and one removed: nothing `similar`
    # or `suggest` reads. The index was built all the same (36 s and 600 MB at 100,000).
    for name in ("IL-0001.yaml", "IL-0002.yaml"):
        path = repo / "incidents" / name
        text = path.read_text("utf-8").replace(
            "Storage postmortem", "Storage postmortem\n    publisher: A"
        )
        path.write_text(text, "utf-8")
    (repo / "incidents" / "IL-0003.yaml").unlink()  # (a draft)
    commit(repo, "publishers")
    built = []

    def judge_for(library, added, cache):
        built.append(library.root)
        return LibraryJudge(library, added, cache)

    monkeypatch.setattr(build, "worker_count", lambda files, least: workers)
    review = build_review(repo, "main", "HEAD", judge_for)
    assert built == []
    assert [(f.path, f.change, f.matches, f.matches_at_base) for f in review.files] == [
        ("incidents/IL-0001.yaml", "changed", [], []),
        ("incidents/IL-0002.yaml", "changed", [], []),
        ("incidents/IL-0003.yaml", "removed", [], []),
    ]
    # One incident retitled as well: the judge is built, once, for it alone.
    path = repo / "incidents" / "IL-0002.yaml"
    path.write_text(path.read_text("utf-8").replace("떨어졌다\n", "떨어졌다 (2차)\n", 1), "utf-8")
    commit(repo, "and a title")
    review = build_review(repo, "main", "HEAD", judge_for)
    assert built == [repo]
    kept = {f.path: [m.id for m in f.matches_at_base] for f in review.files}
    assert kept == {
        "incidents/IL-0001.yaml": [],
        "incidents/IL-0002.yaml": ["IL-0001"],
        "incidents/IL-0003.yaml": [],
    }


def test_a_possible_duplicate_of_an_edited_incident_is_at_the_first_line_the_diff_shows(repo):
    # It was at line 1, which the diff of an incident edited elsewhere does not show: the
    # notice was seen in no "Files changed". The change gives IL-0001 the text of IL-0002
    # (and of IL-0003, a draft), its id line left alone.
    rewritten_as_a_twin(repo, "IL-0001")
    diff = git(repo, "diff", "-U0", "main", "HEAD").splitlines()
    assert next(line for line in diff if line.startswith("@@")) == "@@ -2 +2 @@ id: IL-0001"
    github = run_curator("review", "--base", "main", "--format", "github", cwd=repo).out
    title = "공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다"
    assert [line.split(" (score ")[0] for line in github.splitlines()] == [
        "::notice file=incidents/IL-0001.yaml,line=2,title=possible duplicate::possible "
        f"duplicate of {n}"
        for n in ("IL-0002", "IL-0003")
    ]
    assert all(line.endswith(f"): {title}") for line in github.splitlines())


def test_the_il303_of_a_taxonomy_file_edited_elsewhere_is_at_the_first_line_the_diff_shows(
    repo,
):
    # Unread at the base already, the file's first IL303 (line 4) holds the count of the
    # IL301 errors it stands for; the change edits the file further down only, so it was on
    # a line "Files changed" does not show, and the count was seen in no diff.
    components, _ = components_broken_on_main(repo)
    git(repo, "checkout", "-q", "-B", "change")
    text = components.read_text(encoding="utf-8")
    components.write_text(text.replace("en: GPU driver\n", "en: GPU drivers\n"), encoding="utf-8")
    write(repo, "IL-0002.yaml", incident("IL-0002", ("    - nccl\n", "    - dns\n    - nccl\n")))
    commit(repo, "relabel a component, add one to IL-0002")
    path = "schema/taxonomy/components.yaml"
    diff = git(repo, "diff", "-U0", "main", "HEAD", "--", path).splitlines()
    [hunk] = [line for line in diff if line.startswith("@@")]
    line = int(hunk.split("+")[1].split(" ")[0])
    assert line > 4
    github = run_curator("review", "--base", "main", "--format", "github", cwd=repo).out
    [error] = [line for line in github.splitlines() if line.startswith("::error ")]
    assert error.startswith(
        f"::error file={path},line={line},col=1,title=IL303::line 4, column 4: YAML syntax error: "
    )
    assert error.endswith(
        "; none of its terms is known, so the components of incidents are not checked "
        "(IL301) until it is fixed: 1 incident carries 2 terms of it"
    )


def deprecate_nccl(repo: Path) -> None:
    """Deprecate the components term `nccl` (carried by every incident of `repo`) in favour
    of a new term."""
    components = repo / "schema" / "taxonomy" / "components.yaml"
    text = components.read_text(encoding="utf-8")
    deprecated = (
        "    deprecated:\n      replaced_by: nccl-library\n      reason: 이름을 바꿨다.\n"
        "  - id: nccl-library\n    label:\n      ko: NCCL 라이브러리\n"
        "      en: NCCL library\n    description: 집합 통신 라이브러리.\n"
    )
    start = text.index("  - id: nccl\n")
    end = text.index("  - id: ", start + 1)
    components.write_text(text[:end] + deprecated + text[end:], encoding="utf-8")


def test_a_term_the_change_deprecates_gives_the_incidents_carrying_it_a_warning(repo):
    deprecate_nccl(repo)
    commit(repo, "deprecate nccl")
    code, report = review_json(repo)
    assert code == 0, report  # a warning never fails the review
    assert report["files"][0]["path"] == "schema/taxonomy/components.yaml"
    given = [(f["path"], f["change"], [g["code"] for g in f["findings"]]) for f in report["files"]]
    assert given[1:] == [(f"incidents/IL-000{n}.yaml", "unchanged", ["IL302"]) for n in (1, 2, 3)]
    assert report["terms_changed"] == [
        {
            "dimension": "components",
            "term": "nccl",
            "kinds": ["deprecated"],
            "replaced_by": "nccl-library",
            "fixable": True,
            "label_was": None,
            "label": "NCCL / NCCL",
            "parent_was": None,
            "parent": None,
            "old_label_names": None,
            "carried_by": 3,
            "incidents": ["IL-0001", "IL-0002", "IL-0003"],
        },
        {
            "dimension": "components",
            "term": "nccl-library",
            "kinds": ["added"],
            "replaced_by": None,
            "fixable": False,
            "label_was": None,
            "label": "NCCL 라이브러리 / NCCL library",
            "parent_was": None,
            "parent": None,
            "old_label_names": None,
            "carried_by": 0,
            "incidents": [],
        },
    ]
    # A filter on the replacement finds the incidents not yet fixed; one on nccl finds them
    # through its replacement, as before.
    assert report["filters_changed"] == [
        {
            "dimension": "components",
            "term": "nccl-library",
            "gains": 3,
            "gained": ["IL-0001", "IL-0002", "IL-0003"],
            "loses": 0,
            "lost": [],
        }
    ]
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert comment.splitlines()[1].startswith("### ✅ 0 errors · ⚠️ 3 warnings · ")
    # Said once, with the incidents it reaches, rather than a section per incident.
    assert (
        "- **components** · `nccl` deprecated in favour of `nccl-library`: 3 incidents carry "
        "it, each now with an IL302 warning, which `curator fix` mends by writing "
        "`nccl-library` (the export's facet edges follow once it has run): "
        "IL-0001 (incidents/IL-0001.yaml), IL-0002 (incidents/IL-0002.yaml), "
        "IL-0003 (incidents/IL-0003.yaml)."
    ) in comment.splitlines()
    assert "- **components** · `nccl-library` added: no incident carries it." in comment
    assert (
        "- A search filter on `nccl-library` finds 3 more (IL-0001, IL-0002, IL-0003)."
        in comment.splitlines()
    )
    assert "#### 📄" not in comment
    # The taxonomy file gave them their warnings: no findings in it, but not nothing to
    # report, as the comment said.
    taxonomy = (
        "1 changed file, no findings in it (the findings this change gives files it "
        "leaves alone are above): schema/taxonomy/components.yaml (changed)."
    )
    assert taxonomy in comment.splitlines()
    assert "nothing to report" not in comment


def test_a_term_deprecated_before_the_change_is_not_the_changes_warning(repo):
    deprecate_nccl(repo)
    base = commit(repo, "deprecate nccl")
    git(repo, "branch", "-f", "main", base)
    components = repo / "schema" / "taxonomy" / "components.yaml"
    text = components.read_text(encoding="utf-8")
    components.write_text(
        text.replace("집합 통신 라이브러리.", "GPU 집합 통신 라이브러리."), encoding="utf-8"
    )
    commit(repo, "reword a description")
    code, report = review_json(repo)
    assert code == 0, report
    assert [f["path"] for f in report["files"]] == ["schema/taxonomy/components.yaml"]
    assert report["errors_elsewhere"] == 0
    # A description changes what no incident carries: nothing to say of the taxonomy.
    assert (report["terms_changed"], report["filters_changed"]) == ([], [])
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert "**Taxonomy**" not in comment
    assert len(comment.splitlines()) < 15


def test_a_taxonomy_change_says_which_incidents_each_changed_term_reaches(repo):
    # A withdrawn incident carries its terms (lint warns it as any other) but no search
    # lists it, so no filter finds it or stops finding it.
    write(repo, "IL-0004.yaml", withdraw(incident("IL-0004", *DIFFERENT), "IL-0001"))
    git(repo, "branch", "-f", "main", commit(repo, "a withdrawn copy"))
    taxonomy = repo / "schema" / "taxonomy"
    causes = (taxonomy / "causes.yaml").read_text(encoding="utf-8")
    relabelled = "      ko: 처리 용량 한계\n      en: Throughput capacity limit\n"
    causes = causes.replace("      ko: 용량 한계\n      en: Capacity limit\n", relabelled, 1)
    (taxonomy / "causes.yaml").write_text(causes, encoding="utf-8")
    components = (taxonomy / "components.yaml").read_text(encoding="utf-8")
    moved = "    parent: rdma-network\n  - id: rdma-network\n"
    components = components.replace("  - id: rdma-network\n", moved, 1)
    components += (
        "  - id: gpu-ecc\n    label:\n      ko: GPU ECC 오류\n      en: GPU ECC error\n"
        "    description: GPU 메모리의 ECC 오류.\n"
    )
    (taxonomy / "components.yaml").write_text(components, encoding="utf-8")
    symptoms = (taxonomy / "symptoms.yaml").read_text(encoding="utf-8")
    start = symptoms.index("  - id: throughput-degradation\n")
    end = symptoms.index("  - id: ", start + 1)
    (taxonomy / "symptoms.yaml").write_text(symptoms[:start] + symptoms[end:], encoding="utf-8")
    commit(repo, "relabel, move, add and remove terms")
    code, report = review_json(repo)
    assert code == 1  # the removed term's IL301
    changed = [
        (t["dimension"], t["term"], t["kinds"], t["carried_by"], t["incidents"])
        for t in report["terms_changed"]
    ]
    every = ["IL-0001", "IL-0002", "IL-0003"]
    carried = [*every, "IL-0004"]
    assert changed == [
        ("causes", "capacity-limit", ["relabelled"], 4, carried),
        ("components", "nccl", ["moved"], 4, carried),
        ("components", "gpu-ecc", ["added"], 0, []),
        ("symptoms", "throughput-degradation", ["removed"], 4, carried),
    ]
    relabel, move = report["terms_changed"][:2]
    assert (relabel["label_was"], relabel["label"], relabel["old_label_names"]) == (
        "용량 한계 / Capacity limit",
        "처리 용량 한계 / Throughput capacity limit",
        "capacity-limit",  # its id, as names are folded, is the old English label
    )
    assert (move["parent_was"], move["parent"]) == (None, "rdma-network")
    assert [(f["term"], f["gained"], f["lost"]) for f in report["filters_changed"]] == [
        ("rdma-network", every, [])
    ]
    lines = run_curator("review", "--base", "main", cwd=repo).out.splitlines()
    paths = ", ".join(f"{i} (incidents/{i}.yaml)" for i in carried)
    assert (
        "- **causes** · `capacity-limit` relabelled from “용량 한계 / Capacity limit” to "
        "“처리 용량 한계 / Throughput capacity limit”: 4 incidents carry it, shown by the new "
        f"label (taxonomy.json, graph.json); the old label still names it (an alias, or its id "
        f"spelt otherwise): {paths}."
    ) in lines
    assert (
        f"- **components** · `nccl` moved from the top to under `rdma-network`: 4 incidents "
        f"carry it: {paths}."
    ) in lines
    assert (
        "- **symptoms** · `throughput-degradation` removed: 4 incidents carry it, each now "
        "with an IL301 error (a term is deprecated, never removed: the export refuses a "
        f"release that drops one): {paths}."
    ) in lines
    assert "- A search filter on `rdma-network` finds 3 more (IL-0001, IL-0002, IL-0003)." in lines
    # Errors keep their sections: they block the merge.
    assert lines.count("**Errors**") == 4


def test_errors_already_at_the_base_are_only_counted(repo):
    git(repo, "checkout", "-q", "main")
    write(repo, "IL-0003.yaml", incident("IL-0003", ("    - nccl\n", "    - ncl\n")))
    commit(repo, "an error on main")
    git(repo, "checkout", "-q", "-B", "change")
    write(repo, "IL-0001.yaml", incident("IL-0001", ("떨어졌다.", "떨어졌다 .")))
    commit(repo, "typo")
    code, report = review_json(repo)
    assert code == 0 and report["errors_elsewhere"] == 1
    assert [f["change"] for f in report["files"]] == ["changed"]
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert "1 error in files this pull request does not change was there before it" in comment


def test_head_is_read_from_the_commit_not_the_working_tree(repo):
    write(repo, "IL-0004.yaml", incident("IL-0004", ("    - nccl\n", "    - ncl\n")))
    head = commit(repo, "broken")
    git(repo, "checkout", "-q", "main")  # the checkout is elsewhere,
    write(repo, "IL-0004.yaml", incident("IL-0004"))  # and holds a fixed copy, uncommitted
    review = build_review(repo, "main", head)
    [file] = review.files
    assert [f.code for f in file.findings] == ["IL301"]
    assert review.head == head


def test_an_ignored_file_in_the_checkout_is_not_part_of_the_commit_reviewed(repo):
    # A merge leftover or an editor's backup, ignored by git (here by .gitignore; often by
    # a global ignore file): lint of the checkout reports it (IL107), the commit has none.
    (repo / ".gitignore").write_text("*.orig\n", encoding="utf-8")
    write(repo, "IL-0001.yaml", incident("IL-0001", ("떨어졌다.", "떨어졌다 .")))
    commit(repo, "typo")
    write(repo, "IL-0002.yaml.orig", incident("IL-0002"))
    code, report = review_json(repo)
    assert (code, report["errors_elsewhere"]) == (0, 0), report
    assert [(f["path"], f["change"]) for f in report["files"]] == [
        ("incidents/IL-0001.yaml", "changed")
    ]


def test_library_in_a_subfolder_of_the_repository(tmp_path):
    repo = tmp_path / "repo"
    write_library(repo / "library", {"IL-0001.yaml": incident("IL-0001")})
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "base")
    write(repo / "library", "IL-0002.yaml", incident("IL-0002", ("    - nccl\n", "    - ncl\n")))
    commit(repo, "add")
    run = run_curator("review", "--base", "HEAD~1", "--format", "json", cwd=repo / "library")
    report = json.loads(run.out)
    assert report["root"] == "library"
    [file] = report["files"]
    assert file["path"] == "library/incidents/IL-0002.yaml"
    assert file["findings"][0]["path"] == "library/incidents/IL-0002.yaml"


def test_an_incident_outside_a_library_in_a_subfolder_is_told_the_librarys_folder(tmp_path):
    # It was told `move it to incidents/IL-0140.yaml`, where the library reads
    # `library/incidents/`.
    repo = tmp_path / "repo"
    write_library(repo / "library", {"IL-0001.yaml": incident("IL-0001")})
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "base")
    (repo / "IL-0140.json").write_text("{}\n", encoding="utf-8")
    commit(repo, "misplaced")
    run = run_curator("review", "--base", "HEAD~1", "--format", "json", cwd=repo / "library")
    [file] = json.loads(run.out)["files"]
    assert [finding["message"] for finding in file["findings"]] == [
        "an incident outside library/incidents/: the library reads only the files directly "
        "in library/incidents/; move it to library/incidents/IL-0140.yaml"
    ]


@pytest.mark.parametrize("folder", [":library", ":(glob)lib*"])
def test_a_subfolder_named_like_a_pathspec_is_that_folder(tmp_path, folder):
    # Its path is handed to git as a pathspec, where a leading `:` is magic: git refused
    # it ("did not match any files") and the review stopped with exit 2.
    repo = tmp_path / "repo"
    write_library(repo / folder, {"IL-0001.yaml": incident("IL-0001")})
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "base")
    write(repo / folder, "IL-0002.yaml", incident("IL-0002", ("    - nccl\n", "    - ncl\n")))
    head = commit(repo, "add")
    for checkout in (head, "HEAD~1"):  # read in place, then with `git archive`
        git(repo, "checkout", "-q", checkout)
        run = run_curator(
            "review", "--base", "main~1", "--head", head, "--format", "json", cwd=repo / folder
        )
        assert run.code == 1, run.err
        [file] = json.loads(run.out)["files"]
        assert file["path"] == f"{folder}/incidents/IL-0002.yaml"


def test_a_duplicate_is_found_and_facets_are_judged(repo):
    duplicate = incident(
        "IL-0004",
        ("https://example.com/postmortems/IL-0004", "https://example.com/postmortems/IL-0002"),
        ("    - capacity-limit\n", "    - hardware-failure\n"),
    )
    write(repo, "IL-0004.yaml", duplicate)
    commit(repo, "add a duplicate")
    _, report = review_json(repo)
    file, shared = report["files"]
    assert (shared["path"], shared["change"]) == ("incidents/IL-0002.yaml", "unchanged")
    assert [f["code"] for f in shared["findings"]] == ["IL502"]  # the URL is shared now
    duplicates = [m for m in file["matches"] if m["kind"] == "duplicate"]
    assert duplicates and duplicates[0]["id"] == "IL-0002" and duplicates[0]["score"] == 1.0
    assert any("same source URL" in r for r in duplicates[0]["reasons"])
    causes = next(s for s in file["suggestions"] if s["dimension"] == "causes")
    assert "capacity-limit" in [t["term"] for t in causes["missing"]]
    assert file["facets"]["causes"] == ["hardware-failure"]
    evidence = [e for t in causes["missing"] for e in t["evidence"]]
    assert evidence and all(  # as docs/review.md says: seven keys, the unused null
        list(e) == ["phrase", "field", "alias", "incident", "similarity", "kind", "on_base"]
        and e["on_base"] is False  # main's tip added nothing since the branch started
        and (e["phrase"] is None) == (e["field"] is None) == (e["alias"] is None)
        and (e["phrase"] is None) != (e["incident"] is None)
        and (e["incident"] is None) == (e["kind"] is None)
        for e in evidence
    )
    # The words the taxonomy knows, as `curator suggest` names them, in the phrase quoted.
    assert any(e["alias"] and e["alias"].lower() in e["phrase"].lower() for e in evidence)


def test_a_copy_that_kept_the_id_it_repeats_is_a_possible_duplicate_not_settled_by_it(repo):
    # IL-0004.yaml holding `id: IL-0002` (a write-up of IL-0002's event, kept under its id)
    # had no possible duplicate: the candidates left out every incident with the file's id.
    write(repo, "IL-0004.yaml", incident("IL-0002", *DIFFERENT))
    commit(repo, "add a copy under another name")
    _, report = review_json(repo)
    [file] = [f for f in report["files"] if f["path"] == "incidents/IL-0004.yaml"]
    assert {"IL203", "IL204"} <= {f["code"] for f in file["findings"]}
    [duplicate] = [m for m in file["matches"] if m["kind"] == "duplicate"]
    assert (duplicate["id"], duplicate["score"]) == ("IL-0002", 1.0)
    assert any(r.startswith("same source URL") for r in duplicate["reasons"])
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert "❌ 1 possible duplicate ·" in comment and "**Possible duplicates**" in comment
    # Its own id is no `not_duplicate_of` of it (IL401): its IL204 says what to mend.
    assert "not_duplicate_of" not in comment and "IL-0000" not in comment


def test_two_new_incidents_alike_are_one_pair_settled_by_the_block_shown(repo):
    # The pair was counted twice ("2 possible duplicates"), and the block to paste named
    # IL-0000 instead of the ids, as it did whenever two files had possible duplicates.
    for slug in ("dns-a", "dns-b"):
        write(repo, f"IL-NEW-{slug}.yaml", incident(f"IL-NEW-{slug}", *DIFFERENT))
    commit(repo, "add one event twice")
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert "❌ 1 possible duplicate ·" in comment
    block = (
        "In incidents/IL-NEW-dns-a.yaml:\n\n```yaml\nnot_duplicate_of:\n"
        "  - IL-NEW-dns-b  # if it is a different event\n```\n"
    )
    assert block in comment and "IL-0000" not in comment
    settled = repo / "incidents" / "IL-NEW-dns-a.yaml"
    settled.write_text(
        settled.read_text(encoding="utf-8") + "not_duplicate_of:\n  - IL-NEW-dns-b\n",
        encoding="utf-8",
    )
    commit(repo, "they are two events")
    code, report = review_json(repo)
    assert code == 0
    assert all(m["kind"] == "related" for f in report["files"] for m in f["matches"])
    assert [f["code"] for f in report["files"][0]["findings"]] == ["IL206"]  # a placeholder id


def test_the_block_to_settle_a_false_duplicate_says_a_shared_report_stays_an_error(repo):
    # The comment told a contributor whose incident cites IL-0002's report that, for a
    # different event, `not_duplicate_of: [IL-0002]` settles the pair: pushed, IL502 stayed.
    report_url = ("postmortems/IL-NEW-same-report", "postmortems/IL-0002/")
    write(repo, "IL-NEW-same-report.yaml", incident("IL-NEW-same-report", *DIFFERENT, report_url))
    commit(repo, "add an incident citing IL-0002's report")
    code, report = review_json(repo)
    [added] = [f for f in report["files"] if f["change"] == "added"]
    duplicates = [m for m in added["matches"] if m["kind"] == "duplicate"]
    assert [(m["id"], m["same_report"]) for m in duplicates] == [("IL-0002", True)]
    assert not any(m["same_report"] for m in added["matches"] if m["id"] != "IL-0002")
    comment = run_curator("review", "--base", "main", cwd=repo).out
    said = (
        "IL-0002 cites a report this incident cites too, which the block does not settle: a "
        "report belongs to one incident (IL502), so if the events differ, one of the two must "
        "cite another report."
    )
    assert "  - IL-0002  # if it is a different event\n```\n\n" + said in comment
    path = repo / "incidents" / "IL-NEW-same-report.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "not_duplicate_of:\n  - IL-0002\n")
    commit(repo, "as the block says")
    code, report = review_json(repo)
    assert code == 1 and "IL502" in {f["code"] for f in report["files"][0]["findings"]}
    # A possible duplicate that shares no report gets no such line.
    write(repo, "IL-NEW-other.yaml", incident("IL-NEW-other", *DIFFERENT))
    write(repo, "IL-NEW-other-twin.yaml", incident("IL-NEW-other-twin", *DIFFERENT))
    commit(repo, "add one event twice")
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert "  - IL-NEW-other-twin  # if" in comment and "IL-NEW-other-twin cites" not in comment


def test_a_phrase_two_aliases_found_is_shown_as_evidence_once(repo):
    stalled = incident(
        "IL-0004",
        ("메타데이터 포화로 학습 처리량이 떨어졌다", "학습 작업이 멈췄다"),
        ("https://example.com/postmortems/IL-0004", "https://example.com/pm/stall"),
        # (Settled: a possible duplicate's facets are left out of the comment.)
        ("    title: Storage postmortem\n", "    title: Storage postmortem\n" + NOT_A_REPEAT),
    )
    write(repo, "IL-0004.yaml", stalled)
    commit(repo, "add an incident whose title two aliases of training-stall match")
    _, report = review_json(repo)
    symptoms = next(s for s in report["files"][0]["suggestions"] if s["dimension"] == "symptoms")
    stall = next(t for t in symptoms["missing"] if t["term"] == "training-stall")
    phrases = [(e["phrase"], e["field"]) for e in stall["evidence"] if e["phrase"]]
    assert phrases == [("스토리지의 학습 작업이 멈췄다", "title")], stall
    shown = run_curator("review", "--base", "main", cwd=repo).out
    assert shown.count("“스토리지의 학습 작업이 멈췄다” in title") == 1, shown


# The incidents of the `repo` fixture, settled as none repeated by one copied from them.
NOT_A_REPEAT = "not_duplicate_of:\n  - IL-0001\n  - IL-0002\n  - IL-0003\n"
WRONG_CAUSE = ("    - capacity-limit\n", "    - hardware-failure\n")


def test_a_wording_change_gets_no_facet_suggestions(repo):
    # IL-0002's cause is doubtful at the base already; a typo fix does not re-open it.
    git(repo, "checkout", "-q", "main")
    write(repo, "IL-0002.yaml", incident("IL-0002", WRONG_CAUSE))
    commit(repo, "base with a doubtful cause")
    git(repo, "checkout", "-q", "-B", "change")
    write(repo, "IL-0002.yaml", incident("IL-0002", WRONG_CAUSE, ("떨어졌다.", "떨어졌다 .")))
    commit(repo, "typo")
    code, report = review_json(repo)
    [file] = report["files"]
    assert code == 0 and file["change"] == "changed" and file["suggestions"] == []
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert "✅ 0 facet suggestions" in comment and "Suggested facets" not in comment


def test_a_change_to_the_facets_of_an_incident_gets_suggestions(repo):
    write(repo, "IL-0002.yaml", incident("IL-0002", WRONG_CAUSE))
    commit(repo, "recategorise")
    _, report = review_json(repo)
    [file] = report["files"]
    causes = next(s for s in file["suggestions"] if s["dimension"] == "causes")
    assert [t["term"] for t in causes["missing"]] == ["capacity-limit"]
    assert [t["term"] for t in causes["unsupported"]] == ["hardware-failure"]


def test_a_change_to_one_dimension_gets_suggestions_for_that_dimension_only(repo):
    # A relabel of symptoms (across 40 incidents, say) was told of each one's causes and
    # components too: of a bulk relabel of the bundled library, 55 of 61 suggestions.
    git(repo, "checkout", "-q", "main")
    write(repo, "IL-0002.yaml", incident("IL-0002", WRONG_CAUSE))
    commit(repo, "base with a doubtful cause")
    git(repo, "checkout", "-q", "-B", "change")
    relabel = ("    - throughput-degradation\n", "    - training-stall\n")
    write(repo, "IL-0002.yaml", incident("IL-0002", WRONG_CAUSE, relabel))
    commit(repo, "relabel the symptom")
    _, report = review_json(repo)
    [file] = report["files"]
    assert [s["dimension"] for s in file["suggestions"]] == ["symptoms"]
    [symptoms] = file["suggestions"]
    assert [t["term"] for t in symptoms["missing"]] == ["throughput-degradation"]
    assert [t["term"] for t in symptoms["unsupported"]] == ["training-stall"]
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert "capacity-limit" not in comment and "**causes**" not in comment
    # (The term it removes, which the text still supports, is said at the removal.)
    assert "- `− symptoms: throughput-degradation` · still supported" in comment


def test_a_rename_with_its_content_unchanged_says_so_and_shows_no_duplicates(repo):
    # IL-0003 is IL-0001's and IL-0002's template: a move alone showed the base's pairs as
    # possible duplicates (❌ 2) and a block to settle them, nothing the change decides.
    git(repo, "mv", "incidents/IL-0003.yaml", "incidents/IL-0004.yaml")
    commit(repo, "move")
    _, report = review_json(repo)
    [file] = report["files"]
    assert (file["change"], file["content_unchanged"], file["matches"]) == ("renamed", True, [])
    comment = run_curator("review", "--base", "main", cwd=repo).out
    heading = "(renamed from incidents/IL-0003.yaml, content unchanged)"
    assert heading in comment and "✅ 0 possible duplicates" in comment
    assert "not_duplicate_of" not in comment
    # A word changed as it moves: judged as any change to the text, which finds the base's
    # likeness again (not repeated). (Still a draft: publishing it would make them new.)
    draft = ("status: published", "status: draft")
    write(repo, "IL-0004.yaml", incident("IL-0003", draft, ("떨어졌다.", "떨어졌다 .")))
    commit(repo, "and a typo")
    _, report = review_json(repo)
    [file] = report["files"]
    assert not file["content_unchanged"] and file["matches"] == []
    kept = [m["id"] for m in file["matches_at_base"] if m["kind"] == "duplicate"]
    assert kept == ["IL-0001", "IL-0002"]


@pytest.mark.parametrize("aside", [".IL-0004.yaml", "old/IL-0004.yaml", "IL-0004.yml"])
def test_an_incident_moved_into_the_library_is_judged_as_added(repo, aside):
    # Hidden, in a subfolder or a `.yml` at the base, the file was never read: moved into
    # place, it enters the library and the release, and was said to be "renamed, content
    # unchanged", no duplicate looked for (✅ 0), though it repeats the template's three.
    (repo / "incidents" / aside).parent.mkdir(exist_ok=True)
    write(repo, aside, incident("IL-0004"))
    commit(repo, "kept aside")
    git(repo, "branch", "-f", "main")
    git(repo, "mv", f"incidents/{aside}", "incidents/IL-0004.yaml")
    commit(repo, "move it in")
    _, report = review_json(repo)
    [file] = report["files"]
    assert (file["change"], file["old_path"], file["content_unchanged"]) == (
        "added",
        f"incidents/{aside}",
        False,
    )
    assert [(m["id"], m["kind"]) for m in file["matches"]] == [
        ("IL-0001", "duplicate"),
        ("IL-0002", "duplicate"),
        ("IL-0003", "duplicate"),
    ]
    assert file["matches_at_base"] == []
    comment = run_curator("review", "--base", "main", cwd=repo).out.splitlines()
    assert "❌ 3 possible duplicates" in comment[1]
    heading = f"#### 📄 **incidents/IL-0004.yaml** (added, moved from incidents/{aside})"
    assert heading in comment


def test_a_rename_that_rewrites_only_the_id_is_not_judged_against_itself(repo):
    # The draft IL-0003 numbered: moved, and its id written anew, nothing else. Its likeness
    # to IL-0001 and IL-0002 is the base's: it was shown as the change's (❌ 2 possible
    # duplicates, a block to settle them), and its old self must never be a candidate.
    git(repo, "mv", "incidents/IL-0003.yaml", "incidents/IL-0150.yaml")
    path = repo / "incidents" / "IL-0150.yaml"
    path.write_text(path.read_text("utf-8").replace("id: IL-0003", "id: IL-0150"), "utf-8")
    commit(repo, "number the draft")
    code, report = review_json(repo)
    [file] = report["files"]
    assert (code, file["change"], file["old_path"], file["content_unchanged"]) == (
        0,
        "renamed",
        "incidents/IL-0003.yaml",
        False,
    )
    assert file["matches"] == []
    kept = [(m["id"], m["kind"]) for m in file["matches_at_base"]]
    assert kept == [("IL-0001", "duplicate"), ("IL-0002", "duplicate")]
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert "✅ 0 possible duplicates" in comment and "not_duplicate_of" not in comment
    # Nothing else to say of it: no section (the JSON report keeps the base's likeness).
    quiet = (
        "1 changed file, nothing to report: incidents/IL-0150.yaml (renamed from "
        "incidents/IL-0003.yaml)."
    )
    assert quiet in comment.splitlines() and "####" not in comment


def test_an_edit_to_what_similar_does_not_read_is_not_judged(repo):
    # IL-0002 is IL-0001's and IL-0003's likeness at the base. A comment, a source's
    # publisher and a term added are nothing `similar` reads: two queries were spent on it
    # (and on each incident of a change reformatting the library) to list the base's pairs.
    edited = incident(
        "IL-0002",
        ("id: IL-0002", "# checked against the postmortem\nid: IL-0002"),
        ("    title: Storage postmortem", "    title: Storage postmortem\n    publisher: Example"),
        ("    - nccl", "    - nccl\n    - gpu"),
    )
    write(repo, "IL-0002.yaml", edited)
    commit(repo, "annotate")
    code, report = review_json(repo)
    [file] = report["files"]
    assert (code, file["change"], file["matches"], file["matches_at_base"]) == (
        0,
        "changed",
        [],
        [],
    )
    # A source's URL is read (the same URL is evidence of the same event): judged again.
    write(repo, "IL-0002.yaml", edited.replace("/postmortems/IL-0002", "/postmortems/storage"))
    commit(repo, "and its source moved")
    _, report = review_json(repo)
    [file] = report["files"]
    kept = [(m["id"], m["kind"]) for m in file["matches_at_base"]]
    assert (file["matches"], kept) == ([], [("IL-0001", "duplicate"), ("IL-0003", "duplicate")])


def test_a_wording_edit_repeats_no_likeness_the_base_had_but_shows_a_new_one(repo):
    # IL-0002 is a possible duplicate of IL-0001 and IL-0003 at the base already: a
    # sentence reworded showed the table again, and ❌ in the status line.
    write(repo, "IL-0002.yaml", incident("IL-0002", ("떨어졌다.", "절반으로 떨어졌다.")))
    commit(repo, "reword")
    code, report = review_json(repo)
    [reworded] = report["files"]
    assert (code, reworded["change"], reworded["matches"]) == (0, "changed", [])
    kept = [(m["id"], m["kind"]) for m in reworded["matches_at_base"]]
    assert kept == [("IL-0001", "duplicate"), ("IL-0003", "duplicate")]
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert "✅ 0 possible duplicates" in comment and "not_duplicate_of" not in comment
    # A section that said only that was a section saying that nothing changed.
    assert "not repeated" not in comment and "####" not in comment
    quiet = "1 changed file, nothing to report: incidents/IL-0002.yaml (changed)."
    assert quiet in comment.splitlines()
    # An edit that makes an incident another's twin is the change's: flagged, with its
    # score and evidence.
    rewritten_as_a_twin(repo, "IL-0004")
    code, report = review_json(repo)
    [file] = report["files"]
    assert (code, file["change"], file["matches_at_base"]) == (0, "changed", [])
    duplicates = [m for m in file["matches"] if m["kind"] == "duplicate"]
    assert [m["id"] for m in duplicates] == ["IL-0001", "IL-0002", "IL-0003"]
    assert all(m["score"] >= 0.6 and m["reasons"] for m in duplicates)
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert "❌ 3 possible duplicates" in comment and "not repeated" not in comment


def test_a_removed_facet_the_text_still_supports_is_said_so_at_the_removal_once(repo):
    # The removal was shown bare (`− symptoms: throughput-degradation`) and the same term
    # came back under "Suggested facets": read twice, the link never made.
    relabel = ("    - throughput-degradation\n", "    - training-stall\n")
    write(repo, "IL-0002.yaml", incident("IL-0002", relabel))
    commit(repo, "relabel the symptom")
    _, report = review_json(repo)
    [file] = report["files"]
    [removed] = [c for c in file["facets_changed"] if c["change"] == "removed"]
    [symptoms] = file["suggestions"]
    [missing] = symptoms["missing"]
    assert removed["term"] == missing["term"] == "throughput-degradation"
    assert removed["support"] == missing and missing["score"] > 0.5
    comment = run_curator("review", "--base", "main", cwd=repo).out
    changed = comment.split("for each added:\n\n")[1].split("\n\n")[0].splitlines()
    assert changed[1].startswith(
        "- `− symptoms: throughput-degradation` · still supported, keep it if the evidence "
        f"holds · score {missing['score']:.2f} · “학습 처리량이 떨어졌다” in title"
    ), changed
    assert "Suggested facets" not in comment and comment.count("throughput-degradation") == 2
    assert "    - throughput-degradation  # suggested" in comment


def test_a_relabel_is_not_asked_to_settle_the_possible_duplicates_the_base_had(repo):
    # IL-0001 and IL-0002 are one template, possible duplicates at the base already. A
    # change to their facets alone was judged for duplicates all the same (`similar` reads
    # no facets): a bulk relabel showed the base's pairs, ❌ in the status line, and a
    # `not_duplicate_of` block for each of the first five files.
    relabel = ("    - throughput-degradation\n", "    - training-stall\n")
    for name in ("IL-0001", "IL-0002"):
        write(repo, f"{name}.yaml", incident(name, relabel))
    commit(repo, "relabel the symptom")
    code, report = review_json(repo)
    assert code == 0 and [(f["change"], f["matches"]) for f in report["files"]] == [
        ("changed", []),
        ("changed", []),
    ]
    assert all(s["dimension"] == "symptoms" for f in report["files"] for s in f["suggestions"])
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert "✅ 0 possible duplicates" in comment and "not_duplicate_of" not in comment
    # A change to its text too is judged as before, and finds the base's likeness again.
    write(repo, "IL-0001.yaml", incident("IL-0001", relabel, ("떨어졌다.", "떨어졌다 .")))
    commit(repo, "and a typo")
    _, report = review_json(repo)
    [typo] = [f for f in report["files"] if f["path"] == "incidents/IL-0001.yaml"]
    kept = [m["id"] for m in typo["matches_at_base"] if m["kind"] == "duplicate"]
    assert typo["matches"] == [] and kept == ["IL-0002", "IL-0003"]


def test_a_file_lint_does_not_read_as_an_incident_gets_no_facets_to_paste(repo):
    # The block to paste left the unknown `capacity-limt` out (`causes: []`) unsaid: the
    # file gets none, and its terms are checked all the same (IL301 beside the IL201).
    typos = (("status: published", "status: publishd"), ("capacity-limit\n", "capacity-limt\n"))
    write(repo, "IL-0002.yaml", incident("IL-0002", *typos))
    commit(repo, "a misspelt status and cause")
    code, report = review_json(repo)
    [file] = report["files"]
    assert code == 1 and [f["code"] for f in file["findings"]] == ["IL201", "IL301"]
    assert file["suggestions"] == [] and file["facets_to_paste"] == {}
    comment = run_curator("review", "--base", "main", cwd=repo).out
    assert "the file is not read as an incident" in comment and "Ready to paste" not in comment


ADDED_CAUSE = ("    - hardware-failure\n", "    - hardware-failure\n    - security-attack\n")


@pytest.mark.parametrize("renamed", [False, True])
def test_only_the_facets_a_change_adds_are_judged_unsupported(repo, renamed):
    # hardware-failure is doubtful at the base already: the change that adds a cause was
    # told to check it too, a term it did not write (and, renamed, the file's old facets).
    git(repo, "checkout", "-q", "main")
    write(repo, "IL-0002.yaml", incident("IL-0002", WRONG_CAUSE))
    commit(repo, "base with a doubtful cause")
    git(repo, "checkout", "-q", "-B", "change")
    if renamed:
        git(repo, "mv", "incidents/IL-0002.yaml", "incidents/IL-NEW-x.yaml")
    name = "IL-NEW-x.yaml" if renamed else "IL-0002.yaml"
    write(repo, name, incident("IL-0002", WRONG_CAUSE, ADDED_CAUSE))
    commit(repo, "add a cause")
    _, report = review_json(repo)
    file = next(f for f in report["files"] if f["path"] == f"incidents/{name}")
    assert file["change"] == ("renamed" if renamed else "changed")
    causes = next(s for s in file["suggestions"] if s["dimension"] == "causes")
    assert [t["term"] for t in causes["unsupported"]] == ["security-attack"]
    assert [t["term"] for t in causes["missing"]] == ["capacity-limit"]
    comment = run_curator("review", "--base", "main", cwd=repo).out
    changed = comment.split("for each added:\n\n")[1].split("\n\n")[0].splitlines()
    assert len(changed) == 1 and changed[0].startswith("- `+ causes: security-attack` · score ")
    # Said there only, not again among the facets nothing supports.
    assert "Facets nothing in the text supports" not in comment


DEPRECATED = """\
  - id: old-nccl
    label:
      ko: 옛 NCCL
      en: Old NCCL
    description: 시험용으로 없앤 용어.
    deprecated:
      replaced_by: nccl
      reason: nccl 로 합쳤다.
"""


def test_the_facets_block_to_paste_passes_lint_once_pasted(repo):
    git(repo, "checkout", "-q", "main")
    with (repo / "schema" / "taxonomy" / "components.yaml").open("a", encoding="utf-8") as out:
        out.write(DEPRECATED)
    commit(repo, "a deprecated term")
    git(repo, "checkout", "-q", "-B", "change")
    # A wrong cause (capacity-limit is suggested, sorting before it), an unknown term and a
    # deprecated one.
    facets = "  components:\n    - old-nccl\n    - consul\n    - infiniband\n"
    # (Settled as no repeat of the incidents it copies: a possible duplicate's facets are
    # left out of the comment.)
    settled = "    title: Storage postmortem\n" + NOT_A_REPEAT
    write(
        repo,
        "IL-0004.yaml",
        incident(
            "IL-0004",
            WRONG_CAUSE,
            ("  components:\n    - nccl\n", facets),
            ("    title: Storage postmortem\n", settled),
        ),
    )
    commit(repo, "add")
    comment = run_curator("review", "--base", "main", cwd=repo).out
    block = comment.split("Ready to paste:\n\n```yaml\n")[1].split("```")[0]
    assert "    - capacity-limit  # suggested\n    - hardware-failure\n" in block
    assert "consul" not in block and "old-nccl" not in block
    assert "  components:\n    - infiniband\n    - nccl" in block
    path = repo / "incidents" / "IL-0004.yaml"
    text = path.read_text(encoding="utf-8")
    start, end = text.index("facets:\n"), text.index("symptom: |")
    path.write_text(text[:start] + block + text[end:], encoding="utf-8")
    lint = run_curator("lint", "incidents/IL-0004.yaml", cwd=repo)
    assert lint.code == 0 and lint.err.startswith("0 errors, 0 warnings"), lint.out


def test_the_block_to_paste_keeps_a_deprecated_term_whose_replacement_is_no_term(tmp_path):
    # It wrote the replacement the taxonomy names, which is no term: pasted, an IL301 error.
    folder = tmp_path / "taxonomy"
    shutil.copytree(REPO / "schema" / "taxonomy", folder)
    with (folder / "components.yaml").open("a", encoding="utf-8") as out:
        out.write(DEPRECATED.replace("replaced_by: nccl", "replaced_by: nccl-library"))
    taxonomy = load_taxonomy(folder)
    suggested = [
        FacetJudgement(dimension="causes", missing=[TermJudgement(term="human-error", score=0.5)])
    ]
    facets: dict[Dimension, list[str]] = {"components": ["old-nccl", "gpu"]}
    block = to_paste(facets, suggested, taxonomy)
    assert block["components"] == ["gpu", "old-nccl"]
    assert block["causes"] == ["human-error"]


def test_a_report_past_what_the_comment_step_reads_leaves_out_the_least_important_files(
    repo, tmp_path, monkeypatch
):
    # Past 64 MiB (some 7,500 copied incidents) the comment step refused the report, and
    # the pull request got no comment at all (exit 2). Here the limit is half the report.
    write(repo, "IL-0004.yaml", incident("IL-0004", ("    - nccl\n", "    - ncl\n")))
    for n in range(5, 25):  # advice (facets) and warnings (a placeholder id) only
        write(repo, f"IL-NEW-{n}.yaml", incident(f"IL-NEW-{n}", *DIFFERENT))
    commit(repo, "many")
    review = build_review(repo, "main", "HEAD", LibraryJudge)
    limit = len(output.as_json(review).encode()) // 2
    monkeypatch.setattr(output, "MAX_REPORT_BYTES", limit)
    path = tmp_path / "review.json"
    path.write_text(output.as_json(review), encoding="utf-8")
    assert path.stat().st_size <= limit
    report = output.read_review(path)
    assert report.count() == review.count() and review.count().errors == 1
    assert report.omitted is not None and 0 < report.omitted.files < len(review.files)
    assert report.omitted.files == report.omitted.changed == len(review.files) - len(report.files)
    kept = [f.path for f in report.files]
    assert kept[0] == "incidents/IL-0004.yaml"  # the error first
    left_out = [f for f in review.files if f.path not in kept]
    assert max(f.rank() for f in report.files) <= min(f.rank() for f in left_out)
    comment = render(report, Links())
    assert "### ❌ 1 error · ⚠️ 20 warnings" in comment
    assert f"· {len(review.files)} files changed under the library" in comment
    assert f"✂️ The report leaves out {report.omitted.files} files, the least important" in comment


def test_a_review_of_more_files_than_a_report_holds_leaves_the_least_important_out(tmp_path):
    # A change to all 100,000 incidents and one file more was an internal error (exit 2):
    # the review was refused by its own model's bound on the files a report holds.
    one = FileReview(path="incidents/IL-0001.yaml", change="changed", id="IL-0001")
    files = [one.model_copy(update={"path": f"incidents/IL-{n:06d}.yaml"}) for n in range(100_001)]
    error = ReportFinding(
        path=one.path, line=1, column=1, code="IL301", severity="error", message="unknown term"
    )
    files[0] = files[0].model_copy(update={"findings": [error]})
    shas = {"base": "a" * 40, "head": "b" * 40}
    with pytest.raises(ValidationError, match="at most 100000 items"):
        Review(files=files, **shas)
    review = Review.built(files, **shas)
    assert len(review.files) == 100_001
    path = tmp_path / "review.json"
    path.write_text(output.as_json(review), encoding="utf-8")
    report = output.read_review(path)
    assert len(report.files) == 100_000 and report.files[0].errors()
    assert report.omitted == Omitted(files=1, changed=1)  # the last of those with no finding
    assert report.files[-1].path == "incidents/IL-099999.yaml"
    assert report.count() == review.count() and report.count().errors == 1


def test_a_report_left_short_once_counts_what_it_left_out_before_as_well(
    repo, tmp_path, monkeypatch
):
    write(repo, "IL-0004.yaml", incident("IL-0004", ("    - nccl\n", "    - ncl\n")))
    for n in range(5, 15):
        write(repo, f"IL-NEW-{n}.yaml", incident(f"IL-NEW-{n}", *DIFFERENT))
    commit(repo, "many")
    review = build_review(repo, "main", "HEAD", LibraryJudge)
    monkeypatch.setattr(output, "MAX_FILES", 8)
    path = tmp_path / "review.json"
    path.write_text(output.as_json(review), encoding="utf-8")
    once = output.read_review(path)
    assert once.omitted is not None and once.omitted.files == len(review.files) - 8
    monkeypatch.setattr(output, "MAX_FILES", 3)
    path.write_text(output.as_json(once), encoding="utf-8")
    twice = output.read_review(path)
    assert [f.path for f in twice.files] == [f.path for f in once.files][:3]
    assert twice.omitted is not None and twice.omitted.files == len(review.files) - 3
    assert twice.omitted.changed == len(review.files) - 3
    assert twice.count() == review.count() and review.count().errors == 1


def test_the_report_is_written_a_file_at_a_time_as_json_dumps_writes_it_whole(repo, monkeypatch):
    # Dumped whole, the report was one tree of Python values: ≈460 MB more at 100,000 files.
    write(repo, "IL-0004.yaml", incident("IL-0004", ("    - nccl\n", "    - ncl\n")))
    for n in range(5, 9):
        write(repo, f"IL-NEW-{n}.yaml", incident(f"IL-NEW-{n}", *DIFFERENT))
    (repo / "incidents" / "IL-0003.yaml").unlink()
    commit(repo, "a few")
    review = build_review(repo, "main", "HEAD", LibraryJudge)
    assert len(review.files) == 5 and any(f.matches_at_base or f.matches for f in review.files)

    def whole(value: Review) -> str:
        return json.dumps(value.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n"

    assert output.as_json(review) == whole(review)
    empty = review.model_copy(update={"files": []})
    assert output.as_json(empty) == whole(empty)
    # Its size to the byte: at the bound, whole; a byte over it, bounded.
    monkeypatch.setattr(output, "MAX_REPORT_BYTES", len(whole(review).encode()))
    assert output.as_json(review) == whole(review)
    monkeypatch.setattr(output, "MAX_REPORT_BYTES", len(whole(review).encode()) - 1)
    assert Review.model_validate(json.loads(output.as_json(review))).omitted is not None
    # Past the bound: what is kept, as whole.
    monkeypatch.setattr(output, "MAX_REPORT_BYTES", len(whole(review).encode()) // 2)
    bounded = output.as_json(review)
    kept = Review.model_validate(json.loads(bounded))
    assert kept.omitted is not None and 0 < len(kept.files) < len(review.files)
    assert bounded == whole(kept)


def test_formats_and_exit_statuses(repo, tmp_path):
    write(repo, "IL-0004.yaml", incident("IL-0004", ("    - nccl\n", "    - ncl\n")))
    commit(repo, "add")
    summary = tmp_path / "summary.md"
    env = {
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_REPOSITORY": "octo/lib",
        "GITHUB_RUN_ID": "7",
    }
    out = tmp_path / "review.json"
    run = run_curator(
        "review", "--base", "main", "--format", "github", "--json-out", str(out), cwd=repo, env=env
    )
    assert run.code == 1
    assert run.out.startswith("::error file=incidents/IL-0004.yaml,line=11,col=7,title=IL301::")
    text = summary.read_text(encoding="utf-8")
    assert "[workflow run](https://github.com/octo/lib/actions/runs/7)" in text
    assert json.loads(out.read_text(encoding="utf-8"))["files"][0]["id"] == "IL-0004"
    markdown = run_curator("review", "--base", "main", cwd=repo)
    assert markdown.code == 1 and markdown.out.startswith("<!-- curator-review -->\n### ❌ 1 error")


def test_findings_the_comment_groups_are_an_annotation_each(repo):
    # One rule saying the same of several lines is one line of the comment; GitHub shows an
    # annotation on the line it names, so `--format github` gives each finding its own.
    english = ("  - 데이터를 로컬 디스크로 옮겼다.\n", "  - Moved the data.\n  - Restarted jobs.\n")
    spaces = [
        ("학습 처리량이 떨어졌다.\n", "학습 처리량이 떨어졌다. \n"),
        ("늘렸다.\n", "늘렸다. \n"),
    ]
    write(repo, "IL-0002.yaml", incident("IL-0002", english, *spaces))
    commit(repo, "english actions, trailing spaces")
    comment = run_curator("review", "--base", "main", cwd=repo).out.splitlines()
    korean = "the library is written in Korean, with English only beside it"
    assert [line for line in comment if line.startswith("- line")] == [
        "- lines 16, 18 · **IL602** · trailing white space",
        f"- lines 22, 23 · **IL404** · each of actions\\[0\\], actions\\[1\\] holds no "
        f"Korean: {korean} \\(in parentheses, or as a product or error name\\)",
    ]
    github = run_curator("review", "--base", "main", "--format", "github", cwd=repo).out
    where = "::warning file=incidents/IL-0002.yaml"
    said = f"Korean: {korean} (in parentheses, or as a product or error name)"
    assert github.splitlines()[:4] == [
        f"{where},line=16,col=16,title=IL602::trailing white space",
        f"{where},line=18,col=13,title=IL602::trailing white space",
        f"{where},line=22,col=5,title=IL404::actions[0] holds no {said}",
        f"{where},line=23,col=5,title=IL404::actions[1] holds no {said}",
    ]


def test_nothing_changed_is_clean(repo):
    run = run_curator("review", "--base", "main", cwd=repo)
    assert run.code == 0
    assert "✅ 0 errors · ✅ 0 warnings · ✅ 0 possible duplicates" in run.out
    assert "0 files changed under the library" in run.out


@pytest.mark.parametrize("word", ["--show-toplevel", "--batch"])
def test_a_stop_as_git_starts_stops_git_too(repo, tmp_path, word):
    # Popen raised the stop before it gave curator the process: git ran on, out of reach.
    write(repo, "IL-0004.yaml", incident("IL-0004"))
    commit(repo, "add")
    write(repo, "IL-0005.yaml", incident("IL-0005"))  # not committed: HEAD is read from git
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    args = ("review", "--base", "main")
    run, left = stopped_as_git_starts(word, *args, cwd=repo, scratch=scratch)
    assert (run.code, run.out, run.err) == (2, "", "curator: terminated\n")
    assert not left


@pytest.mark.parametrize("stop", [KeyboardInterrupt, Terminated], ids=["ctrl-c", "sigterm"])
def test_a_stop_as_the_files_are_read_ends_git_at_once(repo, tmp_path, monkeypatch, stop):
    # Left to `Popen`, Ctrl-C waited 0.25 s for git and left it running (a zombie once it
    # ended, until curator did); SIGTERM waited for it to finish. `git cat-file --batch`
    # waits for more names until it is told there are none.
    gits: list[subprocess.Popen[bytes]] = []
    start = review_git._started

    def recorded(*args: str, **options: Any) -> subprocess.Popen[bytes]:
        gits.append(start(*args, **options))
        return gits[-1]

    monkeypatch.setattr(review_git, "_started", recorded)

    def stopped(*args: object) -> None:
        raise stop  # (as curator.signals raises it, the moment the signal comes)

    monkeypatch.setattr(review_git, "_copied", stopped)
    with pytest.raises(stop):
        review_git.materialise(repo, "HEAD", tmp_path / "tree", "incidents")
    assert [git.returncode for git in gits] == [0, -signal.SIGKILL]  # (ls-tree, cat-file)


def test_a_stop_as_a_commit_s_folder_is_made_leaves_nothing_behind(repo, tmp_path, monkeypatch):
    # A stop between mkdtemp making the folder a commit is copied into and
    # TemporaryDirectory keeping its name (to delete it) left it in the temporary folder.
    write(repo, "IL-0004.yaml", incident("IL-0004"))
    head = commit(repo, "add")
    git(repo, "checkout", "-q", "main")  # the head is not the checkout: copied
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    making = tempfile.mkdtemp

    def ctrl_c_once_made(*args: Any, **options: Any) -> str:
        made = making(*args, **options)
        signal.raise_signal(signal.SIGINT)  # (as the terminal sends it)
        return made

    monkeypatch.setattr(tempfile, "mkdtemp", ctrl_c_once_made)
    with pytest.raises(KeyboardInterrupt):
        build_review(repo, "main", head)
    assert list(temporary.iterdir()) == []


def test_ctrl_c_as_the_comment_loads_a_codec_is_not_dropped(repo):
    # The comment's length is counted in UTF-16, as GitHub counts it; Python loads that
    # codec's module on its first use, mid-run: a stop then was printed ("Exception
    # ignored in: …") and dropped, and the review printed its comment.
    write(repo, "IL-0004.yaml", incident("IL-0004"))
    commit(repo, "add")
    run = stopped_as_it_loads("encodings.utf_16_le", "review", "--base", "main", cwd=repo)
    assert (run.code, run.out, run.err) == (2, "", "curator: interrupted\n")


@pytest.mark.parametrize("revision", ["no-such-branch", "--output=/tmp/x", ""])
def test_a_bad_revision_is_one_line_and_exit_2(repo, revision):
    run = run_curator("review", "--base", revision, cwd=repo)
    assert run.code == 2
    assert run.err.startswith("curator: ") and run.err.count("\n") == 1


def test_json_out_in_a_missing_folder_is_a_usage_error_before_the_review(repo, tmp_path):
    run = run_curator(
        "review", "--base", "main", "--json-out", str(tmp_path / "nowhere" / "r.json"), cwd=repo
    )
    assert run.code == 2
    assert "Invalid value for '--json-out'" in run.err and "is not a folder" in run.err
    assert run.out == ""  # refused before anything was reviewed
    empty = run_curator("review", "--base", "main", "--json-out", "", cwd=repo)
    assert empty.code == 2 and "names no file" in empty.err and empty.out == "", empty


def test_json_out_that_cannot_be_written_is_one_line_and_exit_2(repo):
    # /dev/full refuses every write as a full disk does.
    run = run_curator("review", "--base", "main", "--json-out", "/dev/full", cwd=repo)
    assert run.code == 2
    assert run.err == "curator: cannot write /dev/full: No space left on device\n"
    assert run.out == ""  # no comment without its artifact


def test_a_revision_may_name_a_commit_by_its_message(repo):
    # `:/text` reads the rest as the text: `:/base^{commit}` once matched no commit.
    write(repo, "IL-0001.yaml", incident("IL-0001", ("떨어졌다.", "떨어졌다 .")))
    commit(repo, "typo")
    run = run_curator("review", "--base", ":/base", "--format", "json", cwd=repo)
    assert run.code == 0, run
    assert [f["path"] for f in json.loads(run.out)["files"]] == ["incidents/IL-0001.yaml"]


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("GITHUB_STEP_SUMMARY", "{tmp}", "cannot write the job summary {tmp}: Is a directory"),
        (
            "GITHUB_STEP_SUMMARY",
            "{tmp}/nowhere/summary.md",
            "cannot write the job summary {tmp}/nowhere/summary.md: No such file or directory",
        ),
        ("GITHUB_SERVER_URL", "https://[::1", "not a server URL: 'https://[::1'"),
        ("GITHUB_REPOSITORY", "octo lib", "not a repository name (OWNER/NAME): 'octo lib'"),
    ],
)
def test_an_unusable_actions_environment_is_one_line_and_exit_2(
    repo, tmp_path, variable, value, message
):
    # Each was an internal error (IsADirectoryError, FileNotFoundError, ValueError).
    env = {variable: value.format(tmp=tmp_path)}
    run = run_curator("review", "--base", "main", "--format", "github", cwd=repo, env=env)
    assert run.code == 2
    assert run.err.startswith("curator: ") and run.err.count("\n") == 1, run.err
    assert message.format(tmp=tmp_path) in run.err and "internal error" not in run.err


def test_a_head_without_the_library_is_one_line_and_exit_2(repo):
    # Read with `git archive`, which writes nothing when a folder is missing: reading that
    # as a tar file was an internal error ("ReadError: empty file").
    git(repo, "rm", "-rq", "incidents")
    head = commit(repo, "delete every incident")
    git(repo, "checkout", "-q", "main")
    run = run_curator("review", "--base", "main", "--head", head, cwd=repo)
    assert run.code == 2 and run.err.count("\n") == 1, run.err
    assert "internal error" not in run.err
    expected = f"no library at {head[:12]}: the repository's top needs both incidents/ and schema/"
    assert run.err == f"curator: {expected}\n"


def test_a_shallow_clone_without_the_merge_base_is_one_line_and_exit_2(repo, tmp_path):
    # `git merge-base` finds nothing when the fork point was not fetched; taken for
    # unrelated histories, the incidents main gained since read as deleted: IL901, exit 1.
    write(repo, "IL-0004.yaml", incident("IL-0004", *DIFFERENT))
    commit(repo, "add one")
    merged_meanwhile(repo, "IL-0005.yaml", incident("IL-0005"))
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", "--no-single-branch", repo.as_uri(), str(clone))
    git(clone, "checkout", "-q", "change")
    run = run_curator("review", "--base", "origin/main", cwd=clone)
    assert run.code == 2 and run.err.count("\n") == 1, run.err
    assert "shallow clone" in run.err and "git fetch --unshallow" in run.err


def test_a_fork_s_head_not_fetched_is_told_how_to_fetch_it(repo, tmp_path):
    # GitHub keeps a pull request's head, a fork's too, at refs/pull/N/head of the base
    # repository, on no branch: a clone has the branches only. Run as the comment's footer
    # says, the review said "(fetch it first?)", and `git fetch` alone does not bring it.
    write(repo, "IL-0004.yaml", incident("IL-0004", *DIFFERENT))
    head = commit(repo, "add one, on a fork")
    git(repo, "update-ref", "refs/pull/7/head", head)
    git(repo, "checkout", "-q", "main")
    git(repo, "branch", "-q", "-D", "change")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", repo.as_uri(), str(clone))
    git(clone, "fetch", "-q", "origin")
    review = ("review", "--base", "origin/main", "--head", head, "--format", "json")
    run = run_curator(*review, cwd=clone)
    assert run.code == 2 and run.out == "" and run.err.count("\n") == 1, run
    assert run.err == (
        f"curator: no commit '{head}' in {clone.resolve()}: fetch it first: `git fetch origin` "
        "brings the branches' commits; a pull request's head, a fork's too, comes with "
        "`git fetch origin pull/NUMBER/head` (NUMBER: the pull request's)\n"
    )
    git(clone, "fetch", "-q", "origin", "pull/7/head")  # as told
    run = run_curator(*review, cwd=clone)
    assert run.code == 0, run
    assert [f["path"] for f in json.loads(run.out)["files"]] == ["incidents/IL-0004.yaml"]


def test_a_revision_that_names_nothing_says_so(repo):
    run = run_curator("review", "--base", "mian", cwd=repo)
    assert run.code == 2 and run.out == ""
    assert run.err == (
        f"curator: no commit 'mian' in {repo.resolve()}: no branch, tag or commit of that name "
        "here (`git fetch origin` brings the remote's branches, named `origin/BRANCH`)\n"
    )


def test_outside_a_git_checkout_is_exit_2(tmp_path):
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    run = run_curator("review", "--base", "main", "--root", str(root))
    assert run.code == 2 and "is not inside a git checkout" in run.err


def test_without_git_on_path_the_review_says_so(repo):
    # It said "… is not inside a git checkout (git is not installed …)" of a good checkout.
    run = run_curator("review", "--base", "main", cwd=repo, env={"PATH": str(repo / "schema")})
    assert (run.code, run.out) == (2, "")
    assert run.err == "curator: git is not installed or not on PATH (curator review needs it)\n"


def test_hostile_text_in_an_incident_file_comes_out_inert(repo):
    title = '"</details><img src=x> @octo-org/team [x](https://evil.example) ![i](y) | a | #1"'
    write(repo, "IL-0004.yaml", incident("IL-0004", (
        "title: 공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다", f"title: {title}"),
        ("    - nccl\n", "    - ncl\n")))  # fmt: skip
    commit(repo, "hostile")
    run = run_curator("review", "--base", "main", cwd=repo, env={"GITHUB_REPOSITORY": "o/r"})
    assert run.code == 1
    line = next(line for line in run.out.splitlines() if line.startswith("IL-0004 · "))
    assert line == (
        "IL-0004 · &lt;/details&gt;&lt;img src=x&gt; @&#8203;octo-org/team "
        "\\[x\\]\\(https:&#8203;//evil.example\\) \\!\\[i\\]\\(y\\) \\| a \\| \\#&#8203;1"
    )
    assert "</details>" not in run.out.replace("\n</details>", "")


def test_a_file_name_that_is_not_utf8_is_reviewed_in_every_format(repo, tmp_path):
    # git allows any bytes in a name; lint shows them as `\\udcff`. The comment, its links,
    # the job summary and the report file must too, not end in an internal error.
    (repo / "incidents").joinpath(b"IL-\xff.yaml".decode("utf-8", "surrogateescape")).write_text(
        incident("IL-0004"), encoding="utf-8"
    )
    commit(repo, "a name that is not UTF-8")
    summary, report = tmp_path / "summary.md", tmp_path / "review.json"
    actions = {"GITHUB_REPOSITORY": "o/r", "GITHUB_STEP_SUMMARY": str(summary)}
    for fmt in ("markdown", "github"):
        run = run_curator(
            "review", "--base", "main", "--format", fmt, "--json-out", str(report),
            cwd=repo, env=actions,
        )  # fmt: skip
        assert run.code == 1, run.err
        assert "IL-\\\\udcff.yaml" in (run.out if fmt == "markdown" else summary.read_text())
    assert "/incidents/IL-%FF.yaml#L1" in run.out + summary.read_text()
    [reported] = json.loads(report.read_text(encoding="utf-8"))["files"]
    assert reported["path"] == "incidents/IL-\udcff.yaml"


def merged_meanwhile(repo: Path, name: str, text: str) -> str:
    """`text` committed to main after the `change` branch started; main's new tip."""
    git(repo, "checkout", "-q", "main")
    write(repo, name, text)
    tip = commit(repo, "merged meanwhile")
    git(repo, "checkout", "-q", "change")
    return tip


SAME_EVENT = (*DIFFERENT, ("postmortems/IL-0005", "postmortems/IL-0004"))


def test_an_incident_merged_to_the_base_since_the_branch_started_is_judged_against(repo):
    base = git(repo, "rev-parse", "main")
    tip = merged_meanwhile(repo, "IL-0004.yaml", incident("IL-0004", *DIFFERENT))
    write(repo, "IL-0005.yaml", incident("IL-0005", *SAME_EVENT))  # the same event again
    head = commit(repo, "add")
    code, report = review_json(repo)
    assert code == 0 and (report["base"], report["base_tip"]) == (base, tip)
    [file] = report["files"]  # lint is of the head alone: no IL502 for the shared URL
    assert [f["code"] for f in file["findings"]] == []
    twin, *others = file["matches"]
    assert (twin["id"], twin["score"], twin["kind"], twin["on_base"]) == (
        "IL-0004",
        1.0,
        "duplicate",
        True,
    )
    assert "same source URL https://example.com/postmortems/IL-0004" in twin["reasons"]
    assert others and not any(m["on_base"] for m in others)
    env = {"GITHUB_REPOSITORY": "o/r"}
    comment = run_curator("review", "--base", "main", cwd=repo, env=env).out
    assert comment.splitlines()[1].startswith("### ✅ 0 errors · ✅ 0 warnings · ❌ 1 possible")
    assert (
        f"| [IL-0004](https://github.com/o/r/blob/{tip}/incidents/IL-0004.yaml) (merged to the "
        "base branch since this branch started) | DNS 설정 변경으로 API 가 멈췄다 | 1.00 |"
    ) in comment
    assert f"[IL-0001](https://github.com/o/r/blob/{head}/incidents/IL-0001.yaml) |" in comment
    assert f"`curator review --base {tip[:12]} --head {head[:12]}`" in comment
    notices = run_curator("review", "--base", "main", "--format", "github", cwd=repo).out
    assert (
        "::notice file=incidents/IL-0005.yaml,line=1,title=possible duplicate::possible "
        "duplicate of IL-0004 (score 1.00, merged to the base branch since this branch "
        "started): DNS 설정 변경으로 API 가 멈췄다"
    ) in notices.splitlines()


def test_incidents_merged_to_the_base_meanwhile_that_cannot_be_read_are_said_left_out(repo):
    # Main gains a repeat of what the branch adds, but broken, and a file that is not UTF-8:
    # neither could be compared with the branch's incident, and the reviewer is told so,
    # where lint at main's tip stops reading each, where they went unsaid.
    git(repo, "checkout", "-q", "main")
    write(repo, "IL-0004.yaml", incident("IL-0004", *DIFFERENT) + "  - [broken\n")
    (repo / "incidents" / "IL-0006.yaml").write_bytes(incident("IL-0006").encode("cp949"))
    write(repo, "IL-0007.yaml", incident("IL-0007", ("Example", "Other")))  # read: compared
    tip = commit(repo, "merged meanwhile")
    linted = run_curator("lint", "--format", "json", cwd=repo)
    at_tip = {f["path"]: f for f in reversed(json.loads(linted.out)) if f["path"] != "-"}
    git(repo, "checkout", "-q", "change")
    write(repo, "IL-0005.yaml", incident("IL-0005", *SAME_EVENT))
    commit(repo, "add")
    code, report = review_json(repo)
    assert code == 0
    assert [(u["path"], u["line"], u["column"], u["code"]) for u in report["base_tip_unread"]] == [
        (path, at_tip[path]["line"], at_tip[path]["column"], at_tip[path]["code"])
        for path in ("incidents/IL-0004.yaml", "incidents/IL-0006.yaml")
    ]
    assert [u["code"] for u in report["base_tip_unread"]] == ["IL101", "IL103"]
    assert report["base_tip_unread"][1]["message"] == at_tip["incidents/IL-0006.yaml"]["message"]
    assert "IL-0004" not in [m["id"] for m in report["files"][0]["matches"]]
    comment = run_curator("review", "--base", "main", cwd=repo, env={"GITHUB_REPOSITORY": "o/r"})
    said = comment.out.split("\n\n")
    at = next(i for i, paragraph in enumerate(said) if paragraph.startswith("⚠️"))
    assert said[at] == (
        "⚠️ 2 incident files merged to the base branch since this branch started could not be "
        "read: possible duplicates of this change's incidents were not looked for among them."
    )
    first, second = said[at + 1].splitlines()
    line = at_tip["incidents/IL-0004.yaml"]["line"]
    assert first.startswith(
        f"- [incidents/IL-0004.yaml](https://github.com/o/r/blob/{tip}/incidents/IL-0004.yaml"
        f"#L{line}) line {line}, column {at_tip['incidents/IL-0004.yaml']['column']} · "
        "**IL101** · YAML syntax error: "
    )
    assert second.startswith("- [incidents/IL-0006.yaml](") and " · **IL103** · " in second
    # Nothing to say when all the base's additions were read.
    git(repo, "checkout", "-q", "main")
    write(repo, "IL-0004.yaml", incident("IL-0004", *DIFFERENT))
    (repo / "incidents" / "IL-0006.yaml").unlink()
    commit(repo, "mended")
    git(repo, "checkout", "-q", "change")
    code, report = review_json(repo)
    assert report["base_tip_unread"] == []
    assert report["files"][0]["matches"][0]["id"] == "IL-0004"


def test_a_withdrawal_may_name_an_incident_merged_to_the_base_meanwhile(repo):
    merged_meanwhile(repo, "IL-0004.yaml", incident("IL-0004", *DIFFERENT))
    text = incident("IL-0005", *SAME_EVENT)
    write(repo, "IL-0005.yaml", withdraw(text, "IL-0004"))
    commit(repo, "add, withdrawn as a repeat of what main has now")
    _, report = review_json(repo)
    claimed = report["files"][0]["duplicate_of"]
    assert (claimed["id"], claimed["kind"], claimed["on_base"]) == ("IL-0004", "duplicate", True)


def test_what_main_numbered_or_changed_meanwhile_is_judged_as_at_the_head(repo):
    # IL-NEW-x was there when the branch started; main numbers it IL-0004 (a rename, not a
    # new incident: judged against, it would be taken for a repeat of itself) and rewords
    # IL-0001 (the head's copy is what the branch sees).
    git(repo, "checkout", "-q", "main")
    write(repo, "IL-NEW-x.yaml", incident("IL-NEW-x", *DIFFERENT))
    commit(repo, "a new incident")
    git(repo, "checkout", "-q", "-B", "change")
    git(repo, "checkout", "-q", "main")
    git(repo, "mv", "incidents/IL-NEW-x.yaml", "incidents/IL-0004.yaml")
    write(repo, "IL-0004.yaml", incident("IL-0004", *DIFFERENT))
    write(repo, "IL-0001.yaml", incident("IL-0001", *DIFFERENT))
    commit(repo, "number it, reword another")
    git(repo, "checkout", "-q", "change")
    write(repo, "IL-NEW-x.yaml", incident("IL-NEW-x", *DIFFERENT, ("실패했다.", "실패했다 .")))
    commit(repo, "typo")
    seen: list[tuple[Path, Added]] = []

    def judge_for(library: Library, added: Added, cache: bool) -> LibraryJudge:
        seen.append((library.root, added))
        return LibraryJudge(library, added, cache)

    review = build_review(repo, "main", "HEAD", judge_for)
    assert seen == [(repo.resolve(), {})]  # the checkout itself, and nothing added
    [file] = review.files
    assert [m.id for m in file.matches if m.kind == "duplicate"] == []
    assert not any(m.on_base for m in file.matches)


def test_head_option_reviews_that_commit_not_the_checkout(repo):
    write(repo, "IL-0004.yaml", incident("IL-0004", ("    - nccl\n", "    - ncl\n")))
    broken = commit(repo, "broken")
    write(repo, "IL-0004.yaml", incident("IL-0004"))
    commit(repo, "fixed")
    code, report = review_json(repo)
    assert code == 0 and [f["findings"] for f in report["files"]] == [[]]
    code, report = review_json(repo, "--head", broken)
    assert code == 1 and report["head"] == broken
    assert [[x["code"] for x in f["findings"]] for f in report["files"]] == [["IL301"]]


@pytest.fixture
def copies_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The temporary folders the review copies commits into, kept after the review (under
    `tmp_path`) to be looked at."""
    kept: list[Path] = []

    @contextmanager
    def kept_folder(prefix: str) -> Iterator[str]:
        folder = tmp_path / f"{prefix}{len(kept)}"
        folder.mkdir()
        kept.append(folder)
        yield str(folder)

    monkeypatch.setattr(tempfile, "TemporaryDirectory", kept_folder)
    return kept


def kept_in_cache(root: Path) -> list[str]:
    """The kinds of values `root/.curator-cache/` keeps (a folder each, named `<kind>-<hash>`)."""
    return sorted(p.name.rsplit("-", 1)[0] for p in (root / ".curator-cache").glob("*-*"))


def test_a_review_of_copies_keeps_no_cache_in_them(repo, copies_kept):
    # The change breaks incidents it leaves alone (the base is linted too) and repeats one
    # merged to main meanwhile (written out, to be judged against): every copy there is.
    merged_meanwhile(repo, "IL-0004.yaml", incident("IL-0004", *DIFFERENT))
    write(repo, "IL-0005.yaml", incident("IL-0005", *SAME_EVENT))
    deprecate_nccl(repo)
    head = commit(repo, "add, deprecate a term")
    git(repo, "checkout", "-q", "main")  # the head is not the checkout: copied too
    review = build_review(repo, "main", head, LibraryJudge)
    assert len(copies_kept) == 3 and all((c / "incidents").is_dir() for c in copies_kept)
    assert [p for c in [repo, *copies_kept] for p in c.rglob(".curator-cache")] == []
    [added] = [f for f in review.files if f.path == "incidents/IL-0005.yaml"]
    assert [(m.id, m.on_base) for m in added.matches][:1] == [("IL-0004", True)]
    assert [f.change for f in review.files].count("unchanged") == 3  # IL302: the base linted
    git(repo, "checkout", "-q", "change")
    assert build_review(repo, "main", head, LibraryJudge) == review


def test_a_review_of_the_checkout_keeps_the_index_in_its_cache(repo, copies_kept):
    write(repo, "IL-0004.yaml", incident("IL-0004", *DIFFERENT))
    head = commit(repo, "add")
    git(repo, "checkout", "-q", "main")
    copied = build_review(repo, "main", head, LibraryJudge)
    assert [p for c in [repo, *copies_kept] for p in c.rglob(".curator-cache")] == []
    git(repo, "checkout", "-q", "change")
    assert build_review(repo, "main", head, LibraryJudge) == copied
    assert len(copies_kept) == 1  # the head's, while main was checked out
    assert kept_in_cache(repo) == [
        "blob-ids",
        "file-digests",
        "index-shares",
        "lint",
        "lint-summary",
        "similarity",
    ]
    assert build_review(repo, "main", head, LibraryJudge) == copied  # read from the cache


def checks_counted(monkeypatch: pytest.MonkeyPatch, module: Any) -> list[str]:
    """The files `module` checks (by `check_file`, as displayed), from now on."""
    checked: list[str] = []
    real = module.check_file

    def counting(path: Path, display: str, *args: Any, **kwargs: Any) -> Any:
        checked.append(display)
        return real(path, display, *args, **kwargs)

    monkeypatch.setattr(module, "check_file", counting)
    return checked


def test_a_second_review_of_the_checkout_checks_no_file_again(repo, monkeypatch):
    # Lint's results are kept in the checkout's cache, as `curator lint` keeps them: a
    # review linted every file of the library on every run (12 s of 16.7 s at 100,000).
    write(repo, "IL-0004.yaml", incident("IL-0004", *DIFFERENT))
    commit(repo, "add")
    first = output.as_json(build_review(repo, "main", "HEAD", LibraryJudge))
    assert "lint" in kept_in_cache(repo)
    checked = checks_counted(monkeypatch, lint_module)
    assert output.as_json(build_review(repo, "main", "HEAD", LibraryJudge)) == first
    assert checked == []
    shutil.rmtree(repo / ".curator-cache")
    assert output.as_json(build_review(repo, "main", "HEAD", LibraryJudge)) == first
    assert len(checked) == 4  # (without the cache, every file: the count is of them)


def test_a_review_of_a_commit_not_checked_out_keeps_no_cache(repo, copies_kept):
    # The head is copied (and linted, judged there) and the change breaks IL-0001, whose
    # error at the base is worked out from the head's lint: nothing is kept anywhere.
    shared = ("postmortems/IL-0004", "postmortems/IL-0001")
    write(repo, "IL-0004.yaml", incident("IL-0004", *DIFFERENT, shared))
    head = commit(repo, "repeat a source")
    write(repo, "IL-0005.yaml", incident("IL-0005", *DIFFERENT))
    commit(repo, "add another")
    code, report = review_json(repo, "--head", head)
    assert code == 1 and [f["path"] for f in report["files"]] == [
        "incidents/IL-0004.yaml",
        "incidents/IL-0001.yaml",
    ]
    review = build_review(repo, "main", head, LibraryJudge)
    assert len(copies_kept) == 1
    assert [p for c in [repo, *copies_kept] for p in c.rglob(".curator-cache")] == []
    git(repo, "checkout", "-q", head)  # the same review, of the checkout, with its cache
    assert build_review(repo, "main", "HEAD", LibraryJudge) == review
    assert "lint" in kept_in_cache(repo)


def test_the_base_linted_in_the_checkout_keeps_its_results_there(repo, copies_kept, monkeypatch):
    # A change to the taxonomy has the base linted; with the base checked out, in place,
    # with the checkout's cache, as `curator lint` there would; the head in a copy, without.
    deprecate_nccl(repo)
    head = commit(repo, "deprecate a term")
    git(repo, "checkout", "-q", "main")
    review = build_review(repo, "main", head)
    assert [f.change for f in review.files].count("unchanged") == 3  # IL302: the base linted
    kept = ["blob-ids", "lint", "lint-summary"]  # (the ids that told the base is checked out)
    assert len(copies_kept) == 1 and kept_in_cache(repo) == kept
    checked = checks_counted(monkeypatch, lint_module)
    assert build_review(repo, "main", head) == review
    assert len(checked) == 3  # the head's incidents, in its copy; none of the base's


def _summaries_spoilt(repo: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    shards = list((repo / ".curator-cache").glob("lint-summary-*/*.json"))
    assert shards
    for shard in shards:
        if how == "deleted":  # (by a concurrent run keeping another checkout's, say)
            shard.unlink()
        elif how == "corrupted":
            shard.write_bytes(shard.read_bytes()[:-9] + b"\x00garbage")
    if how == "undecodable":  # passed its checksum and hash, yet is not what curator writes

        def undecodable(display: str, data: list[Any]) -> Any:
            raise ValueError(display)

        monkeypatch.setattr(lint_cache, "decode_summary", undecodable)


@pytest.mark.parametrize("how", ["deleted", "corrupted", "undecodable"])
def test_a_review_whose_cache_lost_the_summaries_is_the_same(repo, monkeypatch, how):
    # The base's cross-file findings are worked out from the summary of every file of the
    # head, which a result kept by the cache holds only in the cache: lost there, each file
    # is checked again (where the review read the lost summary, as `MissingSummary`).
    _shared_before_and_after(repo)
    commit(repo, "the change")
    first = output.as_json(build_review(repo, "main", "HEAD", LibraryJudge))
    assert json.loads(first)["errors_elsewhere"] == 2  # main's; the change's is IL-0003's
    _summaries_spoilt(repo, monkeypatch, how)
    again = checks_counted(monkeypatch, at_base)
    assert output.as_json(build_review(repo, "main", "HEAD", LibraryJudge)) == first
    assert sorted(again) == [f"incidents/IL-000{n}.yaml" for n in (1, 2, 3, 4)]


def test_a_file_edited_since_lint_found_it_has_its_base_linted(repo, monkeypatch):
    # Checked again for a summary the cache lost, a file that no longer reads as lint found
    # it (edited meanwhile) tells nothing exact of the base: the base is linted instead.
    _shared_before_and_after(repo)
    commit(repo, "the change")
    first = build_review(repo, "main", "HEAD")
    _summaries_spoilt(repo, monkeypatch, "deleted")

    def edited(path: Path, display: str, *args: Any, **kwargs: Any) -> Checked:
        return Checked([], FileSummary(display, path.stem))  # (no longer an incident)

    monkeypatch.setattr(at_base, "check_file", edited)
    copied = []
    real = review_git.materialise
    monkeypatch.setattr(review_git, "materialise", lambda *a: copied.append(a) or real(*a))
    assert build_review(repo, "main", "HEAD") == first
    assert len(copied) == 1  # the base's copy


@pytest.mark.parametrize("change", ELSEWHERE)
def test_a_review_from_the_cache_finds_what_the_change_causes_elsewhere(repo, monkeypatch, change):
    # The cache warmed by a lint of main, then by the review itself: each review the same
    # as a cold one's, errors elsewhere said to be the change's or not as they are.
    change(repo)
    commit(repo, "the change")
    cold = build_review(repo, "main", "HEAD")
    shutil.rmtree(repo / ".curator-cache")
    git(repo, "checkout", "-q", "main")
    lint_module.lint(Library.at(repo), cache=True)
    git(repo, "checkout", "-q", "change")
    assert build_review(repo, "main", "HEAD") == cold  # main's results, the change's new
    checked = checks_counted(monkeypatch, lint_module)
    assert build_review(repo, "main", "HEAD") == cold
    assert checked == []  # every result from the cache


def test_evidence_naming_an_incident_merged_to_the_base_meanwhile_says_so(repo):
    # The comment links an incident given as evidence at the head, where one merged to main
    # since the branch started is not: the evidence says so (`on_base`), as a match does.
    carries_dns = ("    - nccl\n", "    - dns\n    - nccl\n")
    merged_meanwhile(repo, "IL-0004.yaml", incident("IL-0004", *DIFFERENT, carries_dns))
    write(repo, "IL-0005.yaml", incident("IL-0005", *SAME_EVENT))
    head = commit(repo, "add")
    [added] = build_review(repo, "main", head, LibraryJudge).files
    cited = [
        (judged.dimension, term.term, e.incident, e.kind, e.on_base)
        for judged in added.suggestions
        for term in judged.missing
        for e in term.evidence
        if e.incident
    ]
    assert ("components", "dns", "IL-0004", "duplicate", True) in cited
    assert [c for c in cited if c[2] != "IL-0004" and c[4]] == []


def test_what_main_added_meanwhile_is_written_out_alone_and_the_head_judged_in_place(
    repo, copies_kept, monkeypatch
):
    # The head is the checkout: its incidents are indexed where they are, from the shares
    # its cache keeps; only main's addition is written to a temporary folder. (The head
    # was copied whole with it, 100,000 files at scale, and indexed without its cache.)
    merged_meanwhile(repo, "IL-0004.yaml", incident("IL-0004", *DIFFERENT))
    write(repo, "IL-0005.yaml", incident("IL-0005", *SAME_EVENT))
    head = commit(repo, "add")
    review = build_review(repo, "main", head, LibraryJudge)
    assert [(m.id, m.on_base) for m in review.files[0].matches][:1] == [("IL-0004", True)]
    written = [p.relative_to(c) for c in copies_kept for p in c.rglob("*") if p.is_file()]
    assert written == [Path("incidents/IL-0004.yaml")]
    # The checkout's files' ids, lint's results, the head's files' digests and shares; no
    # index, which would be of more than the head.
    kept = ["blob-ids", "file-digests", "index-shares", "lint", "lint-summary"]
    assert kept_in_cache(repo) == kept
    read = files_read(monkeypatch, index_module)
    assert build_review(repo, "main", head, LibraryJudge) == review
    assert read == ["IL-0004.yaml"]  # the head's incidents come from their shares


def judged_in_a_copy(tmp_path: Path) -> JudgeFactory:
    """The judge the review had for a base branch with additions: a copy of the head's
    library with them in its incidents/, indexed afresh (`on_base`: those files)."""

    def judge_for(library: Library, added: Added, cache: bool) -> LibraryJudge:
        copy = Path(tempfile.mkdtemp(dir=tmp_path))
        for folder in ("incidents", "schema"):
            shutil.copytree(library.root / folder, copy / folder)
        for name, path in added.items():
            shutil.copyfile(path, copy / "incidents" / name)
        judge = LibraryJudge(Library.at(copy), cache=False)
        judge.on_base = frozenset(f"incidents/{name}" for name in added)
        return judge

    return judge_for


def test_judging_the_head_beside_main_s_additions_is_judging_a_copy_holding_both(repo, tmp_path):
    # Main gains a repeat of what the branch adds, one of what it withdraws, and files the
    # library does not read (a `.yml`, a hidden one); the branch adds, changes facets and
    # wording (a change to the facets alone is no occasion to look for duplicates) and
    # withdraws. Every judgement is the copy's, cold, warm and with the head copied.
    git(repo, "checkout", "-q", "main")
    write(repo, "IL-0004.yaml", incident("IL-0004", *DIFFERENT))
    write(repo, "IL-0006.yaml", incident("IL-0006", ("Example", "Other")))
    write(repo, "IL-0007.yml", incident("IL-0007", *DIFFERENT))
    write(repo, ".IL-0008.yaml", incident("IL-0008", *DIFFERENT))
    commit(repo, "merged meanwhile")
    git(repo, "checkout", "-q", "change")
    write(repo, "IL-0005.yaml", incident("IL-0005", *SAME_EVENT))
    facets_and_wording = (("    - nccl\n", "    - nccl\n    - gpu\n"), ("떨어졌다.", "떨어졌다 ."))
    write(repo, "IL-0002.yaml", incident("IL-0002", *facets_and_wording))
    text = (repo / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8")
    write(repo, "IL-0001.yaml", withdraw(text, "IL-0006"))
    head = commit(repo, "add, change facets, withdraw")
    copied = build_review(repo, "main", head, judged_in_a_copy(tmp_path))
    # (IL-0002's likeness to IL-0006 is its text's at the base too: `matches_at_base`.)
    found = [(f.path, m) for f in copied.files for m in [*f.matches, *f.matches_at_base]]
    on_base = {(path, m.id) for path, m in found if m.on_base}
    assert on_base >= {("incidents/IL-0005.yaml", "IL-0004"), ("incidents/IL-0002.yaml", "IL-0006")}
    claim = copied.files[0].duplicate_of
    assert claim is not None and (claim.id, claim.on_base) == ("IL-0006", True)
    assert any(j.missing or j.unsupported for f in copied.files for j in f.suggestions)
    assert build_review(repo, "main", head, LibraryJudge) == copied  # cold
    assert build_review(repo, "main", head, LibraryJudge) == copied  # from the shares
    git(repo, "checkout", "-q", "main")
    assert build_review(repo, "main", head, LibraryJudge) == copied  # a copy of the head


def test_the_head_written_out_is_its_commit_whatever_its_gitattributes_say(repo):
    # `git archive` applied the commit's .gitattributes, which the pull request writes:
    # `export-ignore` left a broken incident out of what was linted (✅ 0 errors), and
    # `ident` rewrote the bytes linted. What the checkout of that commit gives is reviewed.
    write(repo, "IL-0004.yaml", "id: IL-0004\nstatus: [\n")
    write(repo, "IL-0005.yaml", incident("IL-0005", *DIFFERENT, ("DNS 설정", "DNS $Id$ 설정")))
    write(repo, ".gitattributes", "IL-0004.yaml export-ignore\nIL-0005.yaml ident\n")
    head = commit(repo, "a broken incident the archive leaves out")
    reviews = []
    for checkout in ("change", "main"):  # the head checked out, then read from git
        git(repo, "checkout", "-q", checkout)
        code, report = review_json(repo, "--head", head)
        found = {
            f["path"]: (f["title"], [x["code"] for x in f["findings"]]) for f in report["files"]
        }
        reviews.append((code, found))
    assert reviews[0] == reviews[1]
    code, found = reviews[1]
    assert code == 1
    assert found["incidents/IL-0004.yaml"] == (None, ["IL101"])
    assert found["incidents/IL-0005.yaml"][0] == "DNS $Id$ 설정 변경으로 API 가 멈췄다"


def test_a_name_the_system_cannot_hold_is_said_of_the_commit_not_the_temporary_folder(repo):
    # git holds a name of 300 bytes, which no checkout can write: the review, which must
    # write it to lint it, said "curator: /tmp/curator-review-…/incidents/…: File name too
    # long", a folder the user never made and that was gone.
    name = f"incidents/{'a' * 300}.yaml"
    blob = git(repo, "hash-object", "-w", "incidents/IL-0001.yaml")
    git(repo, "update-index", "--add", "--cacheinfo", f"100644,{blob},{name}")
    git(repo, "commit", "-q", "-m", "a name too long")
    head = git(repo, "rev-parse", "HEAD")
    git(repo, "checkout", "-q", "-f", "main")
    run = run_curator("review", "--base", "main", "--head", head, cwd=repo)
    said = f"cannot write {name} of commit {head[:12]} for the review: File name too long"
    assert (run.code, run.out, run.err) == (2, "", f"curator: {said}\n")


def test_a_link_in_incidents_is_reported_when_the_head_is_not_the_checkout(repo):
    # `git archive` gave the link, which was not written out: lint never saw it, and the
    # review said nothing of it where the checkout's said IL107.
    (repo / "incidents" / "IL-0004.yaml").symlink_to("IL-0001.yaml")
    (repo / "incidents" / "IL-0005.yaml").symlink_to(Path("..", "schema"))
    head = commit(repo, "links")
    reviews = []
    for checkout in ("change", "main"):
        git(repo, "checkout", "-q", checkout)
        code, report = review_json(repo, "--head", head)
        reviews.append((code, [f["findings"] for f in report["files"]]))
    assert reviews[0] == reviews[1]
    code, findings = reviews[1]
    assert code == 1
    assert [
        [(f["path"], f["line"], f["column"], f["code"]) for f in file] for file in findings
    ] == [
        [("incidents/IL-0004.yaml", 1, 1, "IL107")],
        [("incidents/IL-0005.yaml", 1, 1, "IL107")],
    ]
    assert "symbolic link to a folder" in findings[1][0]["message"]


def test_a_tree_of_more_files_than_a_batch_is_written_out_byte_for_byte(repo, tmp_path):
    # `materialise` asks git for the objects a batch at a time (`_BATCH`): every file of
    # every batch, and the sizes around a batch's end, as committed.
    count = 2 * review_git._BATCH + 7
    texts = {f"IL-{n:04d}.yaml": f"id: IL-{n:04d}\n" + "가" * (n % 97) for n in range(count)}
    for name, text in texts.items():
        write(repo, name, text)
    head = commit(repo, "many files")
    review_git.materialise(repo, head, tmp_path / "tree", "incidents")
    tree = tmp_path / "tree"
    written = {p.name: p.read_text(encoding="utf-8") for p in tree.rglob("*.yaml")}
    assert written == texts  # (the fixture's three files among them, rewritten)


def test_a_tree_s_files_that_would_land_outside_or_through_a_link_are_not_written(
    repo, tmp_path, monkeypatch
):
    # The head's links are written as links (lint reports them), and the base's additions
    # are written into the head's copy after them: a link there must not take a file of
    # the base's outside the copy, as a folder on the way or as the file itself.
    outside = tmp_path / "outside"
    outside.mkdir()
    (repo / "incidents" / "out").symlink_to(Path("..", "..", "outside"))
    (repo / "incidents" / "IL-0400.yaml").symlink_to(Path("..", "..", "pwned.yaml"))
    links = commit(repo, "links")
    git(repo, "rm", "-q", "incidents/out", "incidents/IL-0400.yaml")
    (repo / "incidents" / "out").mkdir()
    write(repo, "out/IL-0401.yaml", incident("IL-0401"))
    write(repo, "IL-0400.yaml", incident("IL-0400"))
    files = commit(repo, "files where the links were")
    tree = tmp_path / "tree"
    tree.mkdir()
    review_git.materialise(repo, links, tree, "incidents")
    review_git.materialise(
        repo, files, tree, "incidents/out/IL-0401.yaml", "incidents/IL-0400.yaml"
    )
    assert list(outside.iterdir()) == []
    assert not (tmp_path / "pwned.yaml").exists()
    assert os.readlink(tree / "incidents" / "out") == str(Path("..", "..", "outside"))
    # git refuses trees naming such paths, but the reviewed commit is a stranger's.
    [blob] = [e for e in review_git._entries_at(repo, files, ("incidents/IL-0400.yaml",))]
    hostile = ["../escaped.yaml", "incidents/../../escaped-too.yaml", str(tmp_path / "abs.yaml")]
    named = [blob._replace(path=path) for path in hostile]
    monkeypatch.setattr(review_git, "_entries_at", lambda *args: [*named, blob])
    elsewhere = tmp_path / "elsewhere" / "tree"
    elsewhere.mkdir(parents=True)
    review_git.materialise(repo, files, elsewhere, "incidents")
    written = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.yaml"))
    assert "elsewhere/tree/incidents/IL-0400.yaml" in written
    assert not [w for w in written if "escaped" in w or "abs" in w], written


# The review in a process of its own, which says how much memory it held at most (its own:
# git's, which may hold a blob whole, is not curator's to bound).
_REVIEW_WITH_ITS_PEAK = """
import resource, sys
from curator.cli import main
try:
    main(sys.argv[1:], prog_name="curator")
except SystemExit as done:
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
    sys.exit(done.code)
"""


def test_a_huge_incident_file_is_refused_as_lint_does_without_being_held_by_the_review(repo):
    # git read the base's blob whole (`file_at`), and so was each file of the head written
    # out (`_extract`): the review's memory grew with a file the pull request may make of
    # gigabytes. Both now read the bytes as lint does, no more than the limit and one.
    git(repo, "checkout", "-q", "main")
    peaks = []
    for size in (3_000_000, 30_000_000):
        git(repo, "checkout", "-q", "-B", f"change-{size}", "main")
        huge = repo / "incidents" / "IL-0004.yaml"
        huge.write_text(incident("IL-0004"), encoding="utf-8")
        os.truncate(huge, size)  # (NUL bytes: a few kB to git)
        base = commit(repo, "a huge incident")
        with huge.open("ab") as file:
            file.write(b"\n")  # changed: the base's blob is read too
        head = commit(repo, "changed")
        git(repo, "checkout", "-q", "main")  # the head is not the checkout: written out
        args = ["review", "--base", base, "--head", head, "--format", "json"]
        run = ended(start_python("-c", _REVIEW_WITH_ITS_PEAK, *args, cwd=repo))
        assert run.code == 1, run.err
        [reviewed] = json.loads(run.out)["files"]
        assert reviewed["findings"] == [
            {
                "path": "incidents/IL-0004.yaml",
                "line": 1,
                "column": 1,
                "code": "IL104",
                "severity": "error",
                "message": f"file is {size + 1:,} bytes; curator reads files of up to "
                "1,048,576 bytes",
                "fixable": False,
            }
        ]
        peaks.append(int(run.err.split()[-1]) * 1024)  # (kB on Linux)
    assert peaks[1] - peaks[0] < 10_000_000, peaks  # 27 MB more of the file: ≈35 MB more


@pytest.mark.parametrize("named", [True, False])
def test_the_base_s_files_are_read_by_one_git_as_one_git_each_read_them(repo, monkeypatch, named):
    # `file_at` ran `git cat-file` for each file the change touches (≈3.5 ms each: six
    # minutes for a change to every incident of 100,000); `files_at` reads them all with
    # one, and gives each the very bytes, or None, that `file_at` gives it.
    if not named:
        monkeypatch.setattr(review_git, "_NAMED_AT_MOST", 10)  # the whole tree listed
    folder = repo / "incidents"
    texts = {
        "IL-0100.yaml": "id: IL-0100\n" + "가" * 26,  # 12 + 78 bytes: the limit, exactly
        "IL-0101.yaml": "id: IL-0101\n" + "가" * 27,  # 93 bytes: over it
        "with space.yaml": "title: 공백\n",
        "new\nline\tand tab.yaml": "title: 줄바꿈\n",
        "사고 보고서.yaml": "title: 한국어 이름\n",
    }
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "link.yaml").symlink_to("IL-0100.yaml")
    (folder / "folder.yaml").mkdir()
    (folder / "folder.yaml" / "IL-0102.yaml").write_text("id: IL-0102\n")
    commit(repo, "every kind of entry")
    head = git(repo, "rev-parse", "HEAD")
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{head},incidents/module")
    git(repo, "commit", "-q", "-m", "a submodule")
    base = git(repo, "rev-parse", "HEAD")
    names = [*texts, "link.yaml", "folder.yaml", "module", "missing.yaml", "folder.yaml/x"]
    paths = [f"incidents/{name}" for name in names]
    started = []
    running = review_git._running

    def counted(cwd: Path, *args: str, **kwargs: Any) -> Any:
        started.append(args[:2])
        return running(cwd, *args, **kwargs)

    monkeypatch.setattr(review_git, "_running", counted)
    found = review_git.files_at(
        repo, base, review_git.tree_entries(repo, base, paths, sized=True), 90
    )
    assert started == [
        ("ls-tree", "-l" if named else "-r"),  # (the paths named, or every file listed)
        ("cat-file", "blob"),  # the file over the limit, as `file_at` reads it, and its size
        ("cat-file", "-s"),
        ("cat-file", "--batch"),  # every other one
    ]
    one_by_one = {path: review_git.file_at(repo, base, path, 90) for path in paths}
    assert {path: found.get(path) for path in paths} == one_by_one
    assert [type(found.get(path)) for path in paths] == [type(one_by_one[p]) for p in paths]
    expected = {f"incidents/{name}": text.encode() for name, text in texts.items()}
    expected["incidents/IL-0101.yaml"] = expected["incidents/IL-0101.yaml"][:91]
    expected["incidents/link.yaml"] = b"IL-0100.yaml"  # the path it holds, as git keeps it
    assert found == expected
    cut = found["incidents/IL-0101.yaml"]
    assert isinstance(cut, Oversized) and cut.size == 93
    started.clear()
    listed = review_git.tree_entries(repo, base, [], sized=True)
    assert review_git.files_at(repo, base, listed, 90) == {} and started == []  # no git at all


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"status: published\nid: IL-0007\n", ("IL-0007", 2, 5)),
        (b"id: IL-0007\nstatus: draft\n", None),  # a draft may be deleted
        (b"id: IL-NEW-gpu-fire\nstatus: published\n", None),  # not numbered yet
        (b"id: IL-007\nstatus: published\n", None),  # no id: three digits
        (b"id: IL-0007x\nstatus: published\n", None),  # nor something after the number
        (b"id: [IL-0007]\nstatus: published\n", None),
        (b"- id: IL-0007\n", None),  # not an incident
        (b"id: IL-0007\n  status: [\n", None),  # not YAML
        (None, None),  # not at the base
    ],
)
def test_only_a_numbered_incident_that_is_no_draft_may_not_be_deleted(raw, expected):
    from curator.rules.incident_removed import removed_id

    assert removed_id(raw) == expected


def _crlf_added_as_lf(repo: Path) -> None:  # .gitattributes normalises the CRLF it adds
    write(repo, ".gitattributes", "* text=auto eol=lf\n")
    commit(repo, "normalise line ends")
    path = repo / "incidents" / "IL-0002.yaml"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    git(repo, "add", "-A")  # (the index takes the CRLF file's stat: git calls it unchanged)


def _checked_out_with_autocrlf(repo: Path) -> None:  # Windows' default: CRLF in the checkout
    git(repo, "config", "core.autocrlf", "true")
    for path in (repo / "incidents").iterdir():
        path.unlink()
    git(repo, "checkout", "--", "incidents")


def _ident_expanded(repo: Path) -> None:  # `ident` writes the blob's id into `$Id$`
    write(repo, ".gitattributes", "IL-0002.yaml ident\n")
    titled = ("처리량이 떨어졌다", "처리량이 $Id$ 떨어졌다")
    write(repo, "IL-0002.yaml", incident("IL-0002", titled))
    commit(repo, "an ident")
    (repo / "incidents" / "IL-0002.yaml").unlink()
    git(repo, "checkout", "--", "incidents")


def _skip_worktree(repo: Path) -> None:  # git does not look at the file at all
    git(repo, "update-index", "--skip-worktree", "incidents/IL-0002.yaml")
    write(repo, "IL-0002.yaml", incident("IL-0002", ("    - nccl\n", "    - ncl\n")))


@pytest.mark.parametrize(
    "differ", [_crlf_added_as_lf, _checked_out_with_autocrlf, _ident_expanded, _skip_worktree]
)
def test_the_checkout_is_reviewed_only_where_its_bytes_are_the_commit_s(repo, differ):
    # `git status` compares what git would store from each file (line ends normalised,
    # `$Id$` collapsed), and trusts a skip-worktree file: it called these checkouts clean,
    # and the review linted their bytes, where the commit has others (an IL603 or IL301
    # "there before it too", which the base never had; the title with the blob's id).
    write(repo, "IL-0001.yaml", incident("IL-0001", ("떨어졌다.", "떨어졌다 .")))
    commit(repo, "typo")
    differ(repo)
    assert git(repo, "status", "--porcelain") == ""  # clean, as git tells it
    head = git(repo, "rev-parse", "HEAD")
    changed = git(repo, "diff", "--name-only", "main", "HEAD", "--", "incidents").split()
    reviews = []
    for checkout in (head, "main"):  # the checkout, then its commit read from git
        git(repo, "checkout", "-q", checkout)
        code, report = review_json(repo, "--head", head)
        files = report["files"]
        found = {f["path"]: (f["title"], [x["code"] for x in f["findings"]]) for f in files}
        reviews.append((code, report["errors_elsewhere"], found))
    assert reviews[0] == reviews[1]
    assert reviews[0][:2] == (0, 0)
    assert sorted(reviews[0][2]) == changed
    assert all(codes == [] for _, codes in reviews[0][2].values())
    if differ is _ident_expanded:
        assert "처리량이 $Id$ 떨어졌다" in reviews[0][2]["incidents/IL-0002.yaml"][0]


def _skip_worktree_same_size(repo: Path) -> None:  # in place: its size and inode kept
    git(repo, "update-index", "--skip-worktree", "incidents/IL-0002.yaml")
    path = repo / "incidents" / "IL-0002.yaml"
    before = path.stat()
    with path.open("r+b") as same_file:
        same_file.write(path.read_bytes().replace(b"    - nccl\n", b"    - nccx\n"))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
    assert (path.stat().st_size, path.stat().st_ino) == (before.st_size, before.st_ino)


def _hashed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths whose bytes `repository.blob_id` reads and hashes, from now on."""
    hashed: list[str] = []
    real = repository.blob_id
    monkeypatch.setattr(
        repository, "blob_id", lambda path, *rest: hashed.append(path) or real(path, *rest)
    )
    return hashed


def test_a_second_review_of_the_checkout_hashes_no_file_whose_stat_it_recorded(repo, monkeypatch):
    # Each file's id is kept under its settled stat (curator.blob_ids): a second review read
    # and hashed every file of the library again to tell the checkout holds the commit.
    monkeypatch.setattr(lint_cache, "SETTLED_NS", 0)  # every file is settled once written
    write(repo, "IL-0001.yaml", incident("IL-0001", ("떨어졌다.", "떨어졌다 .")))
    commit(repo, "typo")
    copied: list[object] = []
    monkeypatch.setattr(review_git, "materialise", lambda *a: copied.append(a))  # (none made)
    hashed = _hashed(monkeypatch)
    first = build_review(repo, "main", "HEAD")
    files = sorted(str(p) for p in repo.joinpath("incidents").iterdir())
    assert sorted(hashed) == sorted([*files, *(str(p) for p in _schema_files(repo))])
    hashed.clear()
    assert build_review(repo, "main", "HEAD") == first
    assert hashed == []
    assert copied == []  # the checkout reviewed, both times


def _schema_files(repo: Path) -> list[Path]:
    return [p for p in repo.joinpath("schema").rglob("*") if p.is_file()]


@pytest.mark.parametrize(
    "differ",
    [
        _crlf_added_as_lf,
        _checked_out_with_autocrlf,
        _ident_expanded,
        _skip_worktree,
        _skip_worktree_same_size,
    ],
)
def test_a_checkout_changed_since_its_ids_were_kept_is_not_taken_for_the_commit(
    repo, monkeypatch, differ
):
    # The ids kept from a review before (curator.blob_ids) vouch for a file only under the
    # stat it had: one git rewrote since, or one changed behind a skip-worktree mark, is
    # read again, and the checkout is found not to hold the commit's bytes.
    monkeypatch.setattr(lint_cache, "SETTLED_NS", 0)
    write(repo, "IL-0001.yaml", incident("IL-0001", ("떨어졌다.", "떨어졌다 .")))
    commit(repo, "typo")
    revisions = build.resolve(repo, "main", "HEAD")
    assert build._holds(revisions, revisions.head)
    hashed = _hashed(monkeypatch)
    assert build._holds(revisions, revisions.head)
    assert hashed == []  # every id kept
    differ(repo)
    assert git(repo, "status", "--porcelain") == ""  # clean, as git tells it
    revisions = build.resolve(repo, "main", "HEAD")
    assert git(repo, "rev-parse", "HEAD") == revisions.head
    assert not build._holds(revisions, revisions.head)
    assert hashed  # a file read again, not answered by the stat kept with its id


def test_a_relabel_shows_the_terms_it_adds_and_removes_and_what_supports_each_added(repo):
    # A change to an incident's facets alone got a comment that never said which terms it
    # added or removed, nor what supports an added one: a reviewer diffed the YAML by hand.
    swap = ("    - throughput-degradation\n", "    - training-stall\n")
    disk = ("    - nccl\n", "    - local-disk\n    - nccl\n")
    write(repo, "IL-0002.yaml", incident("IL-0002", WRONG_CAUSE, swap, disk))
    commit(repo, "relabel")
    _, report = review_json(repo)
    [file] = report["files"]
    assert [(c["change"], c["dimension"], c["term"]) for c in file["facets_changed"]] == [
        ("added", "causes", "hardware-failure"),
        ("removed", "causes", "capacity-limit"),
        ("added", "components", "local-disk"),
        ("added", "symptoms", "training-stall"),
        ("removed", "symptoms", "throughput-degradation"),
    ]
    support = {c["term"]: c["support"] for c in file["facets_changed"]}
    # A removed term the text still supports: its judgement as a missing one.
    missing = {t["term"]: t for s in file["suggestions"] for t in s["missing"]}
    for term in ("capacity-limit", "throughput-degradation"):
        assert support[term] == missing[term]
    # The review's own judgement: an added term nothing supports is the one it flags.
    flagged = {t["term"]: t for s in file["suggestions"] for t in s["unsupported"]}
    assert flagged.keys() == {"hardware-failure", "training-stall"}
    assert all(support[term] == judged for term, judged in flagged.items())
    # A phrase in `actions` alone, no similar incident carrying it: that field's strength.
    [found] = support["local-disk"]["evidence"]
    assert (found["phrase"], found["field"], found["alias"], found["incident"]) == (
        "데이터를 로컬 디스크로 옮겼다.",
        "actions",
        "로컬 디스크",
        None,
    )
    assert support["local-disk"]["score"] == FIELD_STRENGTH["actions"]
    comment = run_curator("review", "--base", "main", cwd=repo).out
    changed = comment.split("for each added:\n\n")[1].split("\n\n")[0].splitlines()
    nothing = "score 0.00 · nothing in the text or the most similar incidents supports it"
    kept = "still supported, keep it if the evidence holds · score 1.00 · "
    assert [line.split(" (matches")[0] for line in changed] == [  # what to check first
        f"- `+ causes: hardware-failure` · {nothing}",
        f"- `− causes: capacity-limit` · {kept}“메타데이터 포화로 학습” in title",
        f"- `+ symptoms: training-stall` · {nothing}",
        f"- `− symptoms: throughput-degradation` · {kept}“학습 처리량이 떨어졌다” in title",
        "- `+ components: local-disk` · score 0.40 · “데이터를 로컬 디스크로 옮겼다.” in actions",
    ]
    suggested = comment.split("**Suggested facets**")[1].split("Ready to paste")[0]
    assert "capacity-limit" not in suggested and "throughput-degradation" not in suggested


def test_a_git_command_that_fails_without_a_word_is_named_past_its_settings(repo):
    # `diff --quiet` ends 1 where the two differ, and says nothing on stderr.
    write(repo, "IL-0001.yaml", incident("IL-0001", ("status: published", "status: draft")))
    commit(repo, "an edit")
    with pytest.raises(review_git.GitError, match=r"^git diff failed$"):
        review_git.run_git(repo, "-c", "core.quotePath=false", "diff", "--quiet", "main", "HEAD")


@pytest.mark.parametrize("named", [True, False])
def test_a_tree_s_entries_are_listed_alike_below_and_past_the_limit_on_named_files(
    repo, monkeypatch, named
):
    # Every name went on git's command line: the base of a change to every incident of a
    # large library passed the system's limit on a command's arguments, git did not start
    # and the review ended in an internal error. Past the limit, the whole tree is listed
    # and the entries asked for picked from it: the very entries, names of any bytes.
    if not named:
        monkeypatch.setattr(review_git, "_NAMED_AT_MOST", 10)
    folder = repo / "incidents"
    (folder / "IL-0009.yaml").symlink_to("IL-0001.yaml")
    (folder / "folder.yaml").mkdir()
    (folder / "folder.yaml" / "IL-0008.yaml").write_text("id: IL-0008\n")
    (folder / "new\nline\tand tab.yaml").write_text("title: 줄바꿈\n", encoding="utf-8")
    (folder / "run.yaml").write_text("id: run\n")
    (folder / "run.yaml").chmod(0o755)
    os.makedirs(bytes(folder) + b"/\xff", exist_ok=True)  # not UTF-8: as a folder and a file
    Path(os.fsdecode(bytes(folder) + b"/\xff/\xed.yaml")).write_bytes(b"id: x\n")
    commit(repo, "every kind of entry")
    head = git(repo, "rev-parse", "HEAD")
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{head},incidents/module")
    git(repo, "commit", "-q", "-m", "a submodule")
    odd = "incidents/" + os.fsdecode(b"\xff/\xed.yaml")  # (surrogateescape, as git's names)
    asked = [
        "incidents/IL-0001.yaml",
        "incidents/IL-0009.yaml",
        "incidents/folder.yaml",
        "incidents/module",
        "incidents/missing.yaml",
        "incidents/new\nline\tand tab.yaml",
        "incidents/run.yaml",
        odd,
    ]
    calls = []
    run_git = review_git.run_git

    def counted(cwd: Path, *args: str) -> bytes:
        calls.append(args)
        return run_git(cwd, *args)

    monkeypatch.setattr(review_git, "run_git", counted)
    listed = review_git.tree_entries(repo, "HEAD", asked, sized=True)
    link, file = b"120000 blob", b"100644 blob"
    assert [(e.path, e.mode + b" " + e.kind, e.size) for e in listed] == [
        ("incidents/IL-0001.yaml", file, len(incident("IL-0001").encode())),
        ("incidents/IL-0009.yaml", link, len("IL-0001.yaml")),
        ("incidents/folder.yaml", b"040000 tree", None),
        ("incidents/module", b"160000 commit", None),
        ("incidents/new\nline\tand tab.yaml", file, len("title: 줄바꿈\n".encode())),
        ("incidents/run.yaml", b"100755 blob", len("id: run\n")),
        (odd, file, len("id: x\n")),
    ]
    regular = {e.path for e in listed if e.is_regular}
    assert regular == {asked[0], asked[5], asked[6], odd}
    assert [e.sha.decode() for e in listed[:1]] == [git(repo, "rev-parse", f"HEAD:{asked[0]}")]
    # Recursive, as `materialise` lists: the files, links and submodules under a folder,
    # without their sizes unless asked (git reads every blob's header for them).
    under = ["incidents/folder.yaml", "incidents/module", "incidents/IL-0009.yaml", odd[:-7]]
    inside = review_git.tree_entries(repo, "HEAD", under, recursive=True)
    assert [(e.path, e.kind, e.size) for e in inside] == [
        ("incidents/IL-0009.yaml", b"blob", None),
        ("incidents/folder.yaml/IL-0008.yaml", b"blob", None),
        ("incidents/module", b"commit", None),
        (odd, b"blob", None),
    ]
    assert [any(path in call for path in asked) for call in calls] == [named, named]
    assert review_git.present_at(repo, "HEAD", *asked) == [
        path for path in asked if path != "incidents/missing.yaml"
    ]
