"""pre-commit: the real program refuses a commit with a broken incident, then lets the
same commit through once `curator fix` and `curator fmt` have run. No network is used:
every hook of the repository's own config is a `repo: local` one, running the curator and
the ruff installed here."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from conftest import REPO, write_library

from curator.rules.not_an_incident_file import ABOUT_AN_INCIDENT, may_be_incident
from incidents import incident

HOOKS = REPO / ".pre-commit-hooks.yaml"
CONFIG = REPO / ".pre-commit-config.yaml"
RULES_MD = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
PRE_COMMIT = shutil.which("pre-commit") or str(Path(sys.executable).parent / "pre-commit")


def environment(home: Path) -> dict[str, str]:
    return {
        **os.environ,
        # `curator` and `pre-commit` from this environment, whatever the caller's PATH.
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "PRE_COMMIT_HOME": str(home / "pre-commit-cache"),
        "GIT_AUTHOR_NAME": "contributor",
        "GIT_AUTHOR_EMAIL": "contributor@example.com",
        "GIT_COMMITTER_NAME": "contributor",
        "GIT_COMMITTER_EMAIL": "contributor@example.com",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "PYTHONIOENCODING": "utf-8",
    }


def run(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, encoding="utf-8", check=False
    )


def library_repo(root: Path, incidents: dict[str, str]) -> Path:
    """A small library as a contributor's repository has it, with this repo's .gitignore
    (so lint's cache folder stays out of commits)."""
    repo = write_library(root, incidents)
    (repo / ".gitignore").write_text((REPO / ".gitignore").read_text("utf-8"), "utf-8")
    shutil.copyfile(CONFIG, repo / ".pre-commit-config.yaml")
    return repo


def test_the_published_hooks_and_the_config_are_valid_and_agree():
    env = environment(Path("/tmp"))
    for command, path in (("validate-manifest", HOOKS), ("validate-config", CONFIG)):
        done = run(REPO, env, PRE_COMMIT, command, str(path))
        assert done.returncode == 0, done.stderr + done.stdout
    published = {hook["id"]: hook for hook in yaml.safe_load(HOOKS.read_text(encoding="utf-8"))}
    assert set(published) == {"curator-lint", "curator-fmt"}
    # Nothing to fetch: a first commit must not need GitHub (or any network).
    [local] = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))["repos"]
    assert local["repo"] == "local"
    assert {hook["language"] for hook in local["hooks"]} == {"system"}
    for hook in local["hooks"]:
        if hook["id"] not in published:
            continue
        assert hook["entry"] == published[hook["id"]]["entry"]
        assert hook["files"] == published[hook["id"]]["files"]
    for hook in published.values():
        assert hook["language"] == "python" and hook["pass_filenames"] is True


def installed_repo(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A contributor's repository: one incident committed, the hooks installed."""
    repo = library_repo(tmp_path / "repo", {"IL-0001.yaml": incident("IL-0001")})
    env = environment(tmp_path)
    for args in (
        ("init", "--quiet", "--initial-branch=main"),
        ("add", "."),
        ("commit", "-qm", "library"),
    ):
        assert run(repo, env, "git", *args).returncode == 0
    installed = run(repo, env, PRE_COMMIT, "install")
    assert installed.returncode == 0, installed.stderr
    return repo, env


def test_a_broken_incident_is_refused_then_goes_through_after_fix_and_fmt(tmp_path):
    repo, env = installed_repo(tmp_path)

    broken = incident(
        "IL-NEW-storage",
        ("status: published", "status: published  "),  # trailing space (IL602)
        ("  causes:\n", "\tcauses:\n"),  # a tab: not even YAML any more (IL601)
        ("postmortems/IL-NEW-storage", "postmortems/storage"),
    )
    path = repo / "incidents" / "IL-NEW-storage.yaml"
    path.write_text(broken, encoding="utf-8")
    run(repo, env, "git", "add", "incidents")
    refused = run(repo, env, "git", "commit", "-m", "Add a storage incident")
    assert refused.returncode != 0
    shown = refused.stdout + refused.stderr
    assert "curator lint (incident rules)" in shown and "Failed" in shown
    assert "incidents/IL-NEW-storage.yaml:8:1: IL601 [error] a tab where YAML takes only" in shown
    assert "cannot format: cannot be read" in shown  # fmt leaves what it cannot read alone
    assert "`curator fix` replaces the tab (IL601)" in shown and "by hand" not in shown
    assert run(repo, env, "git", "rev-list", "--count", "HEAD").stdout.strip() == "1"

    fixed = run(repo, env, "curator", "fix", "incidents/IL-NEW-storage.yaml")
    assert fixed.returncode == 0, fixed.stderr
    formatted = run(repo, env, "curator", "fmt", "incidents/IL-NEW-storage.yaml")
    assert formatted.returncode == 0, formatted.stderr
    run(repo, env, "git", "add", "incidents")
    accepted = run(repo, env, "git", "commit", "-m", "Add a storage incident")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    hooks = accepted.stdout + accepted.stderr
    assert re.search(r"curator lint \(incident rules\)\.+Passed", hooks), hooks
    assert re.search(r"curator fmt \(canonical incident layout\)\.+Passed", hooks), hooks
    assert run(repo, env, "git", "rev-list", "--count", "HEAD").stdout.strip() == "2"
    committed = run(repo, env, "git", "show", "HEAD:incidents/IL-NEW-storage.yaml").stdout
    assert committed == incident(
        "IL-NEW-storage", ("postmortems/IL-NEW-storage", "postmortems/storage")
    )


def test_the_ruff_hooks_run_the_installed_ruff_on_python_files_only(tmp_path):
    repo, env = installed_repo(tmp_path)
    (repo / "tool.py").write_text("import os\nx=1\n", encoding="utf-8")
    run(repo, env, "git", "add", "tool.py")
    first = run(repo, env, "git", "commit", "-m", "Add a tool")
    shown = first.stdout + first.stderr
    assert first.returncode != 0, shown
    assert re.search(r"ruff check\.+Failed", shown), shown  # `import os` unused: fixed
    assert re.search(r"ruff format\.+Failed", shown), shown  # `x=1`: reformatted
    assert re.search(r"curator lint \(incident rules\)\.+\(no files to check\)Skipped", shown)
    assert (repo / "tool.py").read_text(encoding="utf-8") == "x = 1\n"
    run(repo, env, "git", "add", "tool.py")
    second = run(repo, env, "git", "commit", "-m", "Add a tool")
    assert second.returncode == 0, second.stdout + second.stderr


def test_the_fmt_hook_rewrites_a_messy_file_and_stops_the_commit_once(tmp_path):
    repo = library_repo(tmp_path / "repo", {})
    env = environment(tmp_path)
    run(repo, env, "git", "init", "--quiet", "--initial-branch=main")
    assert run(repo, env, PRE_COMMIT, "install").returncode == 0
    messy = incident("IL-0001").replace(
        "organizations:\n  - Example\n", "organizations: [Example]\n"
    )
    (repo / "incidents" / "IL-0001.yaml").write_text(messy, encoding="utf-8")
    run(repo, env, "git", "add", ".")
    first = run(repo, env, "git", "commit", "-m", "library")
    assert first.returncode != 0
    assert "files were modified by this hook" in first.stdout + first.stderr
    assert (repo / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8") == incident("IL-0001")
    run(repo, env, "git", "add", ".")
    second = run(repo, env, "git", "commit", "-m", "library")
    assert second.returncode == 0, second.stdout + second.stderr


def test_a_taxonomy_change_that_breaks_an_incident_is_refused(tmp_path):
    # A commit of the taxonomy alone: the lint hook is named only the taxonomy file, and
    # must still see the incident that the renamed term leaves behind.
    repo, env = installed_repo(tmp_path)
    components = repo / "schema" / "taxonomy" / "components.yaml"
    text = components.read_text(encoding="utf-8")
    components.write_text(text.replace("  - id: nccl\n", "  - id: nccl-lib\n"), "utf-8")
    run(repo, env, "git", "add", "schema")
    refused = run(repo, env, "git", "commit", "-m", "Rename a term")
    shown = refused.stdout + refused.stderr
    assert refused.returncode != 0, shown
    assert "incidents/IL-0001.yaml:11:7: IL301 [error] 'nccl' is not a term of components" in (
        shown
    )
    assert run(repo, env, "git", "rev-list", "--count", "HEAD").stdout.strip() == "1"


OUTSIDE = "an incident outside incidents/: the library reads only the files directly in "
MISPLACED = {  # what a contributor may commit, and the lint hook's finding (IL107)
    "IL-0140.yaml": OUTSIDE + "incidents/; move it to incidents/IL-0140.yaml",
    "incident/IL-0141.yaml": OUTSIDE + "incidents/; move it to incidents/IL-0141.yaml",
    "Incidents/IL-NEW-gpu.yml": OUTSIDE + "incidents/; move it to incidents/IL-NEW-gpu.yaml",
    "incidents/2024/IL-0143.yaml": "in a subfolder of incidents/: the library reads only the "
    "files directly in incidents/",
    "incidents/IL-0144.YAML": "extension '.YAML': incident files end in .yaml",
    "incidents/IL-0145.yaml.txt": "extension '.txt': incident files end in .yaml",
    "incidents/IL-0146.json": "extension '.json': incident files end in .yaml",
    # The hook named neither (`.YAML` in upper case, a name that is no id): both went in.
    "IL-0149.YAML": OUTSIDE + "incidents/; move it to incidents/IL-0149.yaml",
    "drafts/nccl-hang.yaml": OUTSIDE
    + "incidents/; move it to incidents/, named after its id",  # by its id: and title:
    # Named like an incident with another extension: neither the hook nor the review told.
    "IL-0151.json": OUTSIDE + "incidents/; move it to incidents/IL-0151.yaml",
    "drafts/IL-0152.yaml.txt": OUTSIDE + "incidents/; move it to incidents/IL-0152.yaml",
    "il-new-gpu": OUTSIDE + "incidents/; move it to incidents/IL-NEW-gpu.yaml",
    # An extension no list names is taken for an incident's: a copy kept aside.
    "drafts/IL-0156.bak": OUTSIDE + "incidents/; move it to incidents/IL-0156.yaml",
}
# Incidents kept on purpose (fixtures), or hidden: never named to lint. Nor are notes and
# media named like an incident (Markdown, a picture, a diagram, a document): about it, not
# the incident; they stopped the commit as an incident outside incidents/.
NOT_NAMED = [
    "tests/data/IL-0147.yaml",
    ".github/workflows/IL-0148.yml",
    ".IL-0150.yaml",
    "tests/data/IL-0153.json",
    "docs/IL-0154.md",
    "IL-0155.MD",
    "docs/img/IL-0157.png",
    "docs/img/IL-0158.drawio.svg",
    "IL-0159.PDF",
]
# YAML that is no incident (no top-level `id:` and `title:` lines): named to lint, as a
# pattern cannot look inside it, and left out.
NOT_INCIDENTS = {"mkdocs.yml": "site_name: 사건 목록\n", "deploy/app.YAML": "id: 3\nkind: x\n"}


def test_an_incident_committed_where_the_library_never_reads_it_is_refused(tmp_path):
    # The lint hook was named only `incidents/….ya?ml`: all of these went in unchecked.
    repo, env = installed_repo(tmp_path)
    files = {name: incident("IL-0009") for name in [*MISPLACED, *NOT_NAMED]}
    for name, text in {**files, **NOT_INCIDENTS}.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, encoding="utf-8")
    run(repo, env, "git", "add", ".")
    refused = run(repo, env, "git", "commit", "-m", "Add incidents")
    shown = refused.stdout + refused.stderr
    assert refused.returncode != 0, shown
    findings = re.findall(r"^\S+:\d+:\d+: IL\d+ .*$", shown, re.MULTILINE)
    assert sorted(findings) == sorted(
        f"{name}:1:1: IL107 [error] {message}" for name, message in MISPLACED.items()
    )
    assert "13 errors, 0 warnings in 13 files checked" in shown


def test_a_commit_of_yaml_that_is_no_incident_passes(tmp_path):
    repo, env = installed_repo(tmp_path)
    for name, text in NOT_INCIDENTS.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, encoding="utf-8")
    run(repo, env, "git", "add", ".")
    accepted = run(repo, env, "git", "commit", "-m", "Add a site")
    hooks = accepted.stdout + accepted.stderr
    assert accepted.returncode == 0, hooks
    assert re.search(r"curator lint \(incident rules\)\.+Passed", hooks), hooks  # (it ran)
    checked = run(repo, env, "curator", "lint", "--commit", *NOT_INCIDENTS)
    assert (checked.returncode, checked.stdout) == (0, ""), checked
    assert "0 errors, 0 warnings in 0 files checked" in checked.stderr


def test_the_lint_hook_names_only_what_may_be_an_incident():
    # What it names outside incidents/ is what `curator review` may take for an incident,
    # by its name or its text; none of this repository's own files but the library's.
    [hook] = [h for h in yaml.safe_load(HOOKS.read_text("utf-8")) if h["id"] == "curator-lint"]
    named = re.compile(hook["files"])
    for name in [*MISPLACED, *NOT_INCIDENTS, "incidents/IL-0001.yaml", "schema/taxonomy/c.yaml"]:
        assert named.search(name), name
        outside = not name.startswith(("incidents/", "schema/"))
        assert outside == may_be_incident(name, "incidents"), name
    for name in [
        *NOT_NAMED,
        "incidents/.IL-0001.yaml.swp",
        "incidents/images/README.md",
        "IL-0140-topology.png",  # more than an id before its first `.`
        "docs/IL-014.txt",  # too few digits for one
    ]:
        assert not named.search(name), name
        assert not may_be_incident(name, "incidents"), name
    # Notes and media, by their last extension in any case, as review and lint tell them.
    for extension in sorted(ABOUT_AN_INCIDENT):
        for about in (f"docs/IL-0140.{extension}", f"IL-NEW-x.yaml.{extension.upper()}"):
            assert not named.search(about), about
            assert not may_be_incident(about, "incidents"), about
        for incident_copy in (f"IL-0140.{extension}.bak", f"IL-0140.{extension}x"):
            assert named.search(incident_copy), incident_copy
            assert may_be_incident(incident_copy, "incidents"), incident_copy
        assert f"`.{extension}`" in RULES_MD  # the list contributors read
    files = run(REPO, environment(Path("/tmp")), "git", "ls-files", "-z").stdout.split("\0")
    linted = [name for name in files if named.search(name)]
    assert linted and all(n.startswith(("incidents/IL-", "schema/taxonomy/")) for n in linted)


# A library in a subfolder of its repository ------------------------------------------------

README = REPO / "README.md"


def hooks_for_a_subfolder() -> list[dict]:
    """The hooks as README.md configures them for a library in `data/`, run as local hooks
    (no network): each published hook with README's `args` and `files`."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("### A library in a subfolder of its repository") :]
    block = re.search(r"```yaml\n(.*?)```", section, re.DOTALL).group(1)
    [configured] = yaml.safe_load(block)["repos"]
    published = {hook["id"]: hook for hook in yaml.safe_load(HOOKS.read_text(encoding="utf-8"))}
    return [{**published[hook["id"]], **hook, "language": "system"} for hook in configured["hooks"]]


def test_the_readmes_patterns_for_a_subfolder_are_the_published_ones_under_data():
    published = {hook["id"]: hook for hook in yaml.safe_load(HOOKS.read_text(encoding="utf-8"))}
    for hook in hooks_for_a_subfolder():
        assert hook["args"] == ["--root", "data"]
        published_lines = published[hook["id"]]["files"].splitlines(keepends=True)
        pattern = "".join(line for line in published_lines if not line.lstrip().startswith("#"))
        for before, folder in (("^", "incidents/"), ("  ", "incidents/"), ("|", "schema/")):
            pattern = pattern.replace(before + folder, f"{before}data/{folder}")
        assert hook["files"] == pattern, hook["id"]


def test_a_library_in_a_subfolder_is_checked_by_the_hooks_as_the_readme_configures_them(
    tmp_path,
):
    # With the published patterns, curator-fmt was named no file of `data/incidents/`, and
    # curator-lint stopped every commit ("no library found"), or, given `--root data`,
    # let a taxonomy change that breaks an incident through.
    repo = write_library(tmp_path / "repo" / "data", {"IL-0001.yaml": incident("IL-0001")}).parent
    (repo / ".gitignore").write_text((REPO / ".gitignore").read_text("utf-8"), "utf-8")
    config = {"repos": [{"repo": "local", "hooks": hooks_for_a_subfolder()}]}
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), "utf-8")
    env = environment(tmp_path)
    assert run(repo, env, "git", "init", "--quiet", "--initial-branch=main").returncode == 0
    assert run(repo, env, PRE_COMMIT, "install").returncode == 0

    def commit(message: str) -> tuple[int, str]:
        run(repo, env, "git", "add", ".")
        done = run(repo, env, "git", "commit", "-m", message)
        return done.returncode, done.stdout + done.stderr

    code, shown = commit("library")
    assert code == 0, shown
    assert re.search(r"curator fmt \(canonical incident layout\)\.+Passed", shown), shown
    assert re.search(r"curator lint \(incident rules\)\.+Passed", shown), shown

    messy = incident("IL-0002").replace(
        "organizations:\n  - Example\n", "organizations: [Example]\n"
    )
    (repo / "data" / "incidents" / "IL-0002.yaml").write_text(messy, encoding="utf-8")
    code, shown = commit("messy")
    assert code != 0 and "files were modified by this hook" in shown, shown
    assert (repo / "data" / "incidents" / "IL-0002.yaml").read_text("utf-8") == incident("IL-0002")
    code, shown = commit("messy")
    assert code == 0, shown

    components = repo / "data" / "schema" / "taxonomy" / "components.yaml"
    text = components.read_text(encoding="utf-8")
    components.write_text(text.replace("  - id: nccl\n", "  - id: nccl-lib\n"), "utf-8")
    code, shown = commit("Rename a term")
    assert code != 0, shown
    assert "data/incidents/IL-0001.yaml:11:7: IL301 [error] 'nccl' is not a term" in shown
    components.write_text(text, encoding="utf-8")

    (repo / "IL-0140.yaml").write_text(incident("IL-0140"), encoding="utf-8")
    code, shown = commit("Add an incident")
    assert code != 0, shown
    assert (
        "IL-0140.yaml:1:1: IL107 [error] an incident outside data/incidents/: the library "
        "reads only the files directly in data/incidents/; move it to "
        "data/incidents/IL-0140.yaml"
    ) in shown
    assert run(repo, env, "git", "rev-list", "--count", "HEAD").stdout.strip() == "2"


# The guide and the templates -----------------------------------------------------------------

GUIDE = REPO / "CONTRIBUTING.md"


def test_the_guides_example_incident_passes_lint_and_is_canonical(tmp_path):
    from curator.library import Library
    from curator.lint import lint
    from curator.write.canonical import render

    text = GUIDE.read_text(encoding="utf-8")
    section = text[text.index("## 4.") : text.index("## 5.")]
    example = re.search(r"```yaml\n(.*?)```", section, re.DOTALL).group(1)
    root = write_library(
        tmp_path / "lib", {"IL-0198.yaml": example, "IL-0116.yaml": incident("IL-0116")}
    )
    assert lint(Library.at(root)) == []
    assert render(example.encode("utf-8")) == example


def test_every_command_the_guide_names_exists():
    text = GUIDE.read_text(encoding="utf-8")
    named = set(re.findall(r"`?curator ([a-z][a-z-]+)", text))
    help_text = run(REPO, environment(Path("/tmp")), sys.executable, "-m", "curator", "--help")
    commands = set(re.findall(r"^  ([a-z][a-z-]+)  ", help_text.stdout, re.MULTILINE))
    assert named and named <= commands, named - commands


def test_the_pull_request_checklist_matches_the_guides_reviewer_checklist():
    template = (REPO / ".github" / "PULL_REQUEST_TEMPLATE.md").read_text(encoding="utf-8")
    text = GUIDE.read_text(encoding="utf-8")
    guide = text[text.index("## 7.") : text.index("## 8.")]
    assert len(re.findall(r"^- \[ \] ", template, re.MULTILINE)) == len(
        re.findall(r"^- \[ \] ", guide, re.MULTILINE)
    )


def test_the_issue_forms_are_well_formed():
    forms = sorted((REPO / ".github" / "ISSUE_TEMPLATE").glob("*.yml"))
    assert [p.name for p in forms] == ["suggest-edit.yml", "suggest-incident.yml"]
    kinds = {"markdown", "input", "textarea", "dropdown", "checkboxes"}
    for path in forms:
        form = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert form["name"] and form["description"] and form["body"], path.name
        ids = [item["id"] for item in form["body"] if item["type"] != "markdown"]
        assert len(ids) == len(set(ids)), path.name
        for item in form["body"]:
            assert item["type"] in kinds and item["attributes"], (path.name, item)
            if item["type"] == "dropdown":
                assert item["attributes"]["options"]
        assert any(item.get("validations", {}).get("required") for item in form["body"])
