"""Every workflow in .github/workflows passes actionlint and zizmor, and keeps the rules the
project holds workflows to: actions pinned by commit, least-privilege permissions per job,
no expression of untrusted input inside a script, and a comment workflow that runs no code
from the pull request."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO
from test_export import ATOM, GPU, GitLibrary

from incidents import incident

WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.y*ml"))
PINNED = re.compile(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40}$")


def tool(name: str) -> str:
    found = shutil.which(name)
    assert found, f"{name} is not installed: pip install '.[test]'"
    return found


def offline_env() -> dict[str, str]:
    # zizmor goes online only with a token; without one it audits the files alone.
    hidden = {"GH_TOKEN", "GITHUB_TOKEN", "ZIZMOR_GITHUB_TOKEN"}
    return {k: v for k, v in os.environ.items() if k not in hidden}


def load(path: Path) -> dict[Any, Any]:
    # PyYAML reads the key `on` as True (YAML 1.1); both spellings are accepted below.
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_there_are_workflows():
    names = {p.name for p in WORKFLOWS}
    assert {"ci.yml", "review.yml", "comment.yml"} <= names


def test_actionlint_reports_nothing():
    proc = subprocess.run(
        [tool("actionlint"), "-no-color", *map(str, WORKFLOWS)],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert (proc.returncode, proc.stdout) == (0, ""), proc.stdout + proc.stderr


def test_zizmor_reports_nothing():
    proc = subprocess.run(
        [tool("zizmor"), "--offline", "--no-progress", *map(str, WORKFLOWS)],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=offline_env(),
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "No findings to report" in proc.stdout, proc.stdout


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_actions_are_pinned_by_commit_with_the_version_noted(path):
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        match = re.match(r"^\s*(?:-\s+)?uses:\s*(\S+)(.*)$", line)
        if not match or match.group(1).startswith("./"):
            continue
        assert PINNED.match(match.group(1)), f"{path.name}:{number}: not pinned: {line}"
        assert re.match(r"\s+# v\d", match.group(2)), f"{path.name}:{number}: no version note"


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_every_job_declares_its_permissions_and_the_default_is_narrow(path):
    workflow = load(path)
    assert workflow.get("permissions") in ({}, {"contents": "read"}), path.name
    for name, job in workflow["jobs"].items():
        assert "permissions" in job, f"{path.name}: job {name} has no permissions"
        assert "write-all" not in str(job["permissions"]), f"{path.name}: job {name}"


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_no_expression_inside_a_script(path):
    for name, job in load(path)["jobs"].items():
        for step in job.get("steps", []):
            assert "${{" not in step.get("run", ""), f"{path.name}: {name}: use env: instead"


def test_ci_and_review_hold_only_a_read_token_and_no_secrets():
    for name in ("ci.yml", "review.yml"):
        text = (REPO / ".github" / "workflows" / name).read_text(encoding="utf-8")
        assert "secrets." not in text, name
        for job in load(REPO / ".github" / "workflows" / name)["jobs"].values():
            assert job["permissions"] == {"contents": "read"}, name


def test_comment_workflow_writes_comments_only_and_runs_no_pull_request_code():
    path = REPO / ".github" / "workflows" / "comment.yml"
    workflow = load(path)
    triggers = workflow.get("on", workflow.get(True))
    assert triggers == {"workflow_run": {"workflows": ["review"], "types": ["completed"]}}
    [job] = workflow["jobs"].values()
    assert job["permissions"] == {"actions": "read", "pull-requests": "write"}
    checkout = next(s for s in job["steps"] if s.get("uses", "").startswith("actions/checkout"))
    assert "ref" not in checkout.get("with", {})  # the default branch, not the PR's head
    assert checkout["with"]["persist-credentials"] is False
    download = next(s for s in job["steps"] if "download-artifact" in s.get("uses", ""))
    assert download["with"]["path"].startswith("${{ runner.temp }}")
    steps = [s.get("uses", "") + s.get("run", "") for s in job["steps"]]
    assert steps.index(download["uses"]) > next(
        i for i, s in enumerate(steps) if "pip install ." in s
    )  # curator is installed before the untrusted artifact is on disk
    post = job["steps"][-1]["run"]
    assert "--head-sha" in post and "--event" in post and "--report" in post


def test_the_review_workflow_reads_none_of_what_its_warning_takes_for_unread():
    # curator/review/tooling.py warns of no change to tests/, benchmarks/, examples/ or
    # docs/: the review workflow never reads them. That holds while review.yml runs the
    # build and `curator review` alone, and the build takes nothing from those folders;
    # a change here must change UNREAD too.
    from curator.review.tooling import UNREAD

    [job] = load(REPO / ".github" / "workflows" / "review.yml")["jobs"].values()
    actions = [s["uses"].split("@")[0] for s in job["steps"] if "uses" in s]
    assert actions == ["actions/checkout", "actions/setup-python", "actions/upload-artifact"]
    setup = next(s for s in job["steps"] if "setup-python" in s.get("uses", ""))
    assert set(setup["with"]) == {"python-version"}  # no cache, no version file to read
    commands = []
    for step in (s for s in job["steps"] if "run" in s):
        lines = step["run"].splitlines()
        continued = [False] + [line.endswith("\\") for line in lines[:-1]]
        commands += [line.split()[0] for line, c in zip(lines, continued, strict=True) if not c]
    assert [s["run"] for s in job["steps"] if "pip" in s.get("run", "")] == ["pip install ."]
    assert commands == ["pip", "mkdir", "printf", "curator"]
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert '[tool.setuptools.packages.find]\ninclude = ["curator*"]\n' in pyproject
    manifest = (REPO / "MANIFEST.in").read_text(encoding="utf-8")
    build = [REPO / "setup.py", *(REPO / "build_backend").glob("*.py")]
    names = [manifest, *(text for path in build for text in _strings_of_code(path))]
    assert not [n for n in names if any(re.search(rf"\b{f}", n) for f in UNREAD)]


def _strings_of_code(path: Path) -> list[str]:
    """The string constants of a Python file but its docstrings, which name no file to read."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


# `gh`, as the release workflow calls it: `api repos/OWNER/NAME/pages --jq .html_url`
# fails saying FAKE_PAGES_ERROR when it is set (as gh does: the message on standard error,
# exit status 1), else prints FAKE_PAGES, or fails as gh does for a repository without
# Pages when it is empty;
# `release list` prints the tags named in FAKE_RELEASES, `release download TAG … --pattern
# NAME --dir DIR` writes DIR/NAME, a zip holding that release's manifest.json.
_FAKE_GH = """\
import os, sys, zipfile
args = sys.argv[1:]
if args == ["api", f"repos/{os.environ['GITHUB_REPOSITORY']}/pages", "--jq", ".html_url"]:
    if os.environ.get("FAKE_PAGES_ERROR"):
        sys.exit(os.environ["FAKE_PAGES_ERROR"])
    if not os.environ.get("FAKE_PAGES"):
        sys.exit("gh: Not Found (HTTP 404)")
    print(os.environ["FAKE_PAGES"])
elif args[:2] == ["release", "list"]:
    print(os.environ["FAKE_RELEASES"].replace(",", "\\n"))
elif args[:2] == ["release", "download"]:
    name, folder = args[args.index("--pattern") + 1], args[args.index("--dir") + 1]
    with zipfile.ZipFile(os.path.join(folder, name), "w") as archive:
        archive.writestr("manifest.json", args[2])
else:
    sys.exit(f"unexpected: gh {args}")
"""


ADDRESS_STEP = "the Pages site's address"
EXPORT_STEP = "lint and export"
PAGES_STEP = "latest/, this release, and every earlier release"


def _pages_site(tmp_path: Path, tag: str, releases: list[str]) -> tuple[list[str], str]:
    """What the release workflow's Pages step puts in site/ for a push of `tag`, with these
    earlier releases: the folders, and what the step printed."""
    (tmp_path / "export").mkdir()
    (tmp_path / "export" / "manifest.json").write_text(tag, encoding="utf-8")
    said = _run_pages_step(tmp_path, tag, releases)
    site = tmp_path / "site"
    folders = sorted(
        f"{p.parent.relative_to(site).as_posix()}:{p.read_text(encoding='utf-8')}"
        for p in site.rglob("manifest.json")
    )
    return folders, said


def _run_pages_step(tmp_path: Path, tag: str, releases: list[str]) -> str:
    """The release workflow's Pages step, run in `tmp_path` on the export in its export/
    (as the job downloads it), making site/: what the step printed."""
    tool("unzip")
    env = {"TAG": tag, "FAKE_RELEASES": ",".join(releases)}
    run = _run_release_step(tmp_path, "pages-build", PAGES_STEP, tmp_path, env)
    assert run.returncode == 0, run.stderr
    return run.stdout


def _run_release_step(
    tmp_path: Path, job: str, name: str, cwd: Path, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    """The step called `name` of a job of the release workflow, run in `cwd` with this
    `env` (and the fake `gh` and the `curator` of this Python on the PATH, as Actions'
    GITHUB_REPOSITORY and GITHUB_OUTPUT, the latter in tmp_path)."""
    workflow = load(REPO / ".github" / "workflows" / "release.yml")
    [step] = [s for s in workflow["jobs"][job]["steps"] if s.get("name") == name]
    bin_folder = tmp_path / "bin"
    (tmp_path / "tmp").mkdir(exist_ok=True)
    if not bin_folder.is_dir():
        bin_folder.mkdir()
        gh = bin_folder / "gh"
        gh.write_text(f"#!{sys.executable}\n{_FAKE_GH}", encoding="utf-8")
        gh.chmod(0o755)
    path = os.pathsep.join([str(bin_folder), str(Path(sys.executable).parent), os.environ["PATH"]])
    full_env = {
        **os.environ,
        "PATH": path,
        "GH_TOKEN": "test-token",
        "GITHUB_REPOSITORY": "incident-library/library",
        "GITHUB_OUTPUT": str(tmp_path / "github-output"),
        "TMPDIR": str(tmp_path / "tmp"),
        **env,
    }
    return subprocess.run(
        ["bash", "-c", step["run"]], cwd=cwd, env=full_env, capture_output=True, text=True
    )


def test_the_pages_site_holds_latest_this_release_and_every_earlier_one(tmp_path):
    folders, said = _pages_site(tmp_path, "v1.1.0", ["v1.1.0", "v1.0.0", "v0.9.0-rc_1"])
    assert folders == [
        "latest:v1.1.0",
        "v0.9.0-rc_1:v0.9.0-rc_1",
        "v1.0.0:v1.0.0",
        "v1.1.0:v1.1.0",
    ]
    assert said == ""


def test_a_tag_no_later_deployment_would_restore_gets_no_folder_of_its_own(tmp_path):
    # The tag's own folder was made whatever the tag (`v2026/12` made site/v2026/12/), and
    # every later deployment, which restores only plain release names, left it out: a
    # version published once, then gone, where docs/export.md promises it for ever.
    folders, said = _pages_site(tmp_path, "v2026/12", ["v2026/12", "v1.0.0", "v배포"])
    assert folders == ["latest:v2026/12", "v1.0.0:v1.0.0"]
    assert said.startswith("::warning::tag v2026/12 is not a plain release name")


def test_every_link_of_the_feed_leads_to_a_file_the_pages_site_holds(tmp_path):
    # feed.atom linked each entry to the incident's page, <base>incidents/IL-NNNN/, and
    # itself to <base>: pages that nothing builds (the Pages step publishes the export
    # alone, under latest/ and the tag), so a feed reader following them got a 404.
    repo = GitLibrary(tmp_path / "lib")
    repo.write("IL-0001.yaml", incident("IL-0001"))
    repo.write("IL-0002.yaml", incident("IL-0002"))
    repo.commit("2024-01-01T10:00:00", "first incidents")
    repo.git("tag", "v1.0.0")
    repo.write("IL-0002.yaml", incident("IL-0002", GPU))
    repo.write("IL-0003.yaml", incident("IL-0003"))
    repo.git("rm", "-q", "incidents/IL-0001.yaml")  # against policy: `removed`, no file
    repo.commit("2024-02-01T10:00:00", "more")
    repo.git("tag", "v1.1.0")
    # The release job's own steps: the Pages site's address (a project site, as GitHub gives
    # it, without the final slash), then the export, which links the feed into it.
    pages = _run_release_step(
        tmp_path,
        "export",
        ADDRESS_STEP,
        tmp_path,
        {"FAKE_PAGES": "https://incident-library.github.io/library"},
    )
    assert pages.returncode == 0, pages.stderr
    output = (tmp_path / "github-output").read_text(encoding="utf-8")
    base_url = dict(line.split("=", 1) for line in output.splitlines())["url"]
    env = {"TAG": "v1.1.0", "BASE_URL": base_url}
    exported = _run_release_step(tmp_path, "export", EXPORT_STEP, repo.root, env)
    assert exported.returncode == 0, exported.stdout + exported.stderr
    (repo.root / "export").rename(tmp_path / "export")
    _run_pages_step(tmp_path, "v1.1.0", ["v1.1.0", "v1.0.0"])
    site = tmp_path / "site"
    feed = ET.fromstring((site / "latest" / "feed.atom").read_bytes())
    entries = feed.findall(f"{ATOM}entry")
    assert len(entries) == 3
    # Each entry has a summary and no content, so it must link an alternate (RFC 4287).
    assert all(e.find(f"{ATOM}link[@rel='alternate']") is not None for e in entries)
    links = [link.get("href") or "" for link in feed.iter(f"{ATOM}link")]
    # Where the release job publishes: the repository's Pages site, where the feed linked
    # into https://incident-library.github.io/, curator export's default --base-url, the
    # address of an organization's site of that name alone: every other library's feed led
    # to a 404 or to another site.
    base = "https://incident-library.github.io/library/"
    missing = [
        href
        for href in links
        if not href.startswith(base) or not (site / href.removeprefix(base)).is_file()
    ]
    assert missing == []


def test_the_release_stops_before_exporting_when_the_repository_has_no_pages_site(tmp_path):
    # Without Pages (settings, or the API refusing) there is no address for the feed; the
    # release went ahead and attached an export whose feed led nowhere.
    said = _run_release_step(tmp_path, "export", ADDRESS_STEP, tmp_path, {"FAKE_PAGES": ""})
    assert said.returncode == 1
    assert said.stdout == (
        "::error::no GitHub Pages site for incident-library/library, which the feed links"
        " into: turn Pages on (Settings, Pages, Source: GitHub Actions) and run this job"
        " again\n"
    )
    assert "HTTP 404" in said.stderr
    assert not (tmp_path / "github-output").exists()


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (
            "gh: Resource not accessible by integration (HTTP 403)",
            "gh: Resource not accessible by integration (HTTP 403)",
        ),
        ("gh: HTTP 502", "gh: HTTP 502"),
        ("gh: Server Error (HTTP 500)", "gh: Server Error (HTTP 500)"),
        (
            "\nerror connecting to api.github.com\ncheck your internet connection or "
            "https://githubstatus.com",
            "error connecting to api.github.com",
        ),
        (" ", "gh api exited 1"),  # (it failed, saying nothing but a blank line)
    ],
)
def test_the_release_says_why_it_could_not_read_the_pages_address(tmp_path, error, reason):
    # Any failure of `gh api …/pages` was taken for a repository without Pages: a 403 (a
    # job without `pages: read`), GitHub's 5xx or a network error told the maintainer to
    # turn on a Pages site that was on. Only a 404 means no site.
    env = {"FAKE_PAGES": "https://incident-library.github.io/library", "FAKE_PAGES_ERROR": error}
    said = _run_release_step(tmp_path, "export", ADDRESS_STEP, tmp_path, env)
    assert said.returncode == 1
    assert said.stdout == (
        "::error::could not read the address of the GitHub Pages site of"
        f" incident-library/library, which the feed links into ({reason}): that is no answer"
        " that there is no site; run this job again, or check the job's pages: read"
        " permission if GitHub refused it\n"
    )
    assert error.strip() in said.stderr  # gh's own words stay in the log
    assert not (tmp_path / "github-output").exists()


@pytest.mark.parametrize("pages", ["https://incident-library.github.io/library", ""])
def test_reading_the_pages_address_leaves_no_file_behind(tmp_path, pages):
    # The step kept gh's stderr in a `mktemp` file it never removed: one more file in the
    # runner's (or a test run's) temporary folder for every release.
    said = _run_release_step(tmp_path, "export", ADDRESS_STEP, tmp_path, {"FAKE_PAGES": pages})
    assert said.returncode == (0 if pages else 1), said.stderr
    assert list((tmp_path / "tmp").iterdir()) == []
