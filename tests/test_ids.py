"""Placeholder ids: valid in a pull request, numbered at merge, never twice the same number."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import REPO, ended, run_curator, start_python, write_library

from curator.ids import CannotAssign, assign, may_name_a_placeholder, plan
from curator.library import Library
from curator.lint import lint
from curator.load import load_bytes
from incidents import incident


def placeholder(slug: str, *replacements: tuple[str, str]) -> str:
    text = incident(f"IL-NEW-{slug}", *replacements)
    return text.replace("postmortems/IL-NEW-", "postmortems/new-")


def ids_in(root: Path) -> dict[str, dict]:
    return {p.stem: load_bytes(p.read_bytes()).data for p in sorted((root / "incidents").iterdir())}


# In a pull request ---------------------------------------------------------------------------


def test_a_placeholder_is_a_warning_and_may_be_referenced(tmp_path):
    root = write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": incident("IL-0001"),
            "IL-NEW-alpha.yaml": placeholder("alpha"),
            "IL-NEW-beta.yaml": placeholder(
                "beta", ("sources:", "related:\n  - IL-NEW-alpha\nsources:")
            ),
        },
    )
    run = run_curator("lint", "--root", str(root), "--format", "json")
    assert run.code == 0
    rows = json.loads(run.out)
    assert [(r["code"], r["severity"]) for r in rows] == [("IL206", "warning")] * 2
    assert rows[0]["message"] == (
        "placeholder id IL-NEW-alpha, numbered at merge (`curator assign-ids`)"
    )


def test_lint_release_makes_placeholders_errors(tmp_path):
    root = write_library(tmp_path / "lib", {"IL-NEW-alpha.yaml": placeholder("alpha")})
    run = run_curator("lint", "--release", "--root", str(root))
    assert run.code == 1
    assert run.out.rstrip().endswith(
        "IL206 [error] placeholder id IL-NEW-alpha: a release cannot hold placeholders; "
        "run `curator assign-ids`"
    )
    assert run_curator("lint", "--root", str(root)).code == 0


# Numbering -----------------------------------------------------------------------------------


@pytest.fixture
def library(tmp_path):
    withdrawn = incident(
        "IL-0007",
        ("status: published", "status: withdrawn"),
        ("sources:", "duplicate_of: IL-0001\nwithdrawn_reason: |\n  IL-0001 과 같다.\nsources:"),
    )
    return write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": incident(
                "IL-0001", ("sources:", "related:\n  - IL-NEW-beta  # 같은 PR 의 사건\nsources:")
            ),
            "IL-0007.yaml": withdrawn,  # withdrawn: its number is taken for ever
            "IL-NEW-beta.yaml": placeholder(
                "beta",
                ("sources:", "related:\n  - IL-NEW-alpha\n  - IL-0001\nsources:"),
                ("id: IL-NEW-beta", "# 새 사건\nid: IL-NEW-beta"),
            ),
            "IL-NEW-alpha.yaml": placeholder(
                "alpha", ("sources:", "not_duplicate_of: [IL-NEW-beta]\nsources:")
            ),
        },
    )


def test_assign_ids_numbers_after_the_highest_in_id_order_and_rewrites_references(library):
    run = run_curator("assign-ids", "--root", str(library))
    assert run.code == 0, run
    incidents = library / "incidents"
    assert run.out.splitlines() == [
        f"IL-NEW-alpha → IL-0008  ({os.path.relpath(incidents / 'IL-0008.yaml', REPO)})",
        f"IL-NEW-beta → IL-0009  ({os.path.relpath(incidents / 'IL-0009.yaml', REPO)})",
        f"  references rewritten in {os.path.relpath(incidents / 'IL-0001.yaml', REPO)}",
    ]
    found = ids_in(library)
    assert sorted(found) == ["IL-0001", "IL-0007", "IL-0008", "IL-0009"]
    assert {stem: data["id"] for stem, data in found.items()} == {s: s for s in found}
    assert found["IL-0001"]["related"] == ["IL-0009"]
    assert found["IL-0008"]["not_duplicate_of"] == ["IL-0009"]
    assert found["IL-0009"]["related"] == ["IL-0008", "IL-0001"]
    # The comment stays beside the reference (at the column it had).
    assert re.search(
        r"\n  - IL-0009 +# 같은 PR 의 사건\n", (incidents / "IL-0001.yaml").read_text()
    )
    assert (incidents / "IL-0009.yaml").read_text("utf-8").startswith("# 새 사건\nid: IL-0009\n")
    assert lint(Library.at(library), release=True) == []
    again = run_curator("assign-ids", "--root", str(library))
    assert again.code == 0 and again.out == "" and "0 placeholders numbered" in again.err


def test_a_numbered_file_keeps_the_owner_group_and_mode_of_its_placeholder(library):
    # Numbered as root (a merge job in a container), a contributor's placeholder became
    # root's, and took the umask's mode; a file whose references changed became root's too.
    assert os.geteuid() == 0, "giving a file to another user takes root"
    incidents = library / "incidents"
    for name in ("IL-NEW-beta.yaml", "IL-0001.yaml"):
        os.chown(incidents / name, 4321, 8765)
        (incidents / name).chmod(0o600)
    run = run_curator("assign-ids", "--root", str(library))
    assert run.code == 0, run
    for name in ("IL-0009.yaml", "IL-0001.yaml"):
        after = (incidents / name).stat()
        assert (after.st_uid, after.st_gid, after.st_mode & 0o777) == (4321, 8765, 0o600), name


def test_a_reference_spelt_with_escapes_is_found_among_the_files_kept(library):
    # Only the files whose bytes may name a placeholder are kept to be rewritten (those of
    # 100,000 files took 1.1 GB); a reference in a double-quoted text may be spelt with
    # escapes, which its bytes do not show as such.
    escaped = 'related:\n  - "IL\\x2DNEW-alpha"\n  - "\\u0049L-NEW-beta"\nsources:'
    incidents = library / "incidents"
    (incidents / "IL-0002.yaml").write_text(
        incident("IL-0002", ("sources:", escaped)), encoding="utf-8"
    )
    assert load_bytes((incidents / "IL-0002.yaml").read_bytes()).data["related"] == [
        "IL-NEW-alpha",
        "IL-NEW-beta",
    ]
    result = plan(Library.at(library))
    assert sorted(path.name for path in result.references) == ["IL-0001.yaml", "IL-0002.yaml"]
    assert load_bytes(result.rewrites[incidents / "IL-0002.yaml"]).data["related"] == [
        "IL-0008",
        "IL-0009",
    ]
    assert may_name_a_placeholder((incidents / "IL-0002.yaml").read_bytes())
    assert not may_name_a_placeholder((incidents / "IL-0007.yaml").read_bytes())


def test_numbers_held_only_by_a_file_name_or_the_history_are_never_given(library):
    (library / "incidents" / "IL-0040.yaml").write_text("id: [broken\n", encoding="utf-8")
    with pytest.raises(CannotAssign) as refused:
        plan(Library.at(library))
    assert refused.value.problems[0].startswith("incidents/IL-0040.yaml:1:5: cannot be read")
    (library / "incidents" / "IL-0040.yaml").write_text(
        incident("IL-0040").replace("id: IL-0040", "id: IL-0003"), encoding="utf-8"
    )
    assert [a.number for a in plan(Library.at(library)).assignments] == ["IL-0041", "IL-0042"]
    reserved = {50}
    assert [a.number for a in plan(Library.at(library), reserved).assignments] == [
        "IL-0051",
        "IL-0052",
    ]


def test_an_unreadable_library_is_refused_as_a_whole_and_nothing_changes(library):
    broken = library / "incidents" / "IL-0002.yaml"
    broken.write_bytes(b"id: IL-0002\nrelated: [IL-NEW-alpha\n")
    before = {p.name: p.read_bytes() for p in (library / "incidents").iterdir()}
    run = run_curator("assign-ids", "--root", str(library))
    assert run.code == 1
    where = "incidents/IL-0002.yaml:2:10"  # at the list never closed
    assert f"curator: cannot number: {where}: cannot be read (YAML syntax error" in run.err
    assert {p.name: p.read_bytes() for p in (library / "incidents").iterdir()} == before


@pytest.mark.parametrize("failing", [1, 2, 3])  # the new files' writes, then a reference's
def test_a_write_that_fails_midway_leaves_the_library_as_it_was(library, monkeypatch, failing):
    # A full disk while numbering left IL-0008.yaml beside IL-NEW-alpha.yaml, the same
    # incident twice, and a rerun numbered it again: IL-0008 and IL-0010, two numbers for it.
    from curator import ids
    from curator.write.atomic import write_atomic

    writes = []

    def full_disk(path: Path, data: bytes, **options: bool) -> None:
        writes.append(path)
        if len(writes) == failing:  # (named, as write_atomic names the file it could not write)
            raise OSError(28, "No space left on device", str(path))
        write_atomic(path, data, **options)

    before = {p.name: p.read_bytes() for p in (library / "incidents").iterdir()}
    monkeypatch.setattr(ids, "write_atomic", full_disk)
    with pytest.raises(OSError) as failed:
        assign(Library.at(library))
    assert failed.value.filename == str(writes[-1])  # said with the file it could not write
    assert {p.name: p.read_bytes() for p in (library / "incidents").iterdir()} == before

    def ctrl_c(path: Path, data: bytes, **options: bool) -> None:
        writes.append(path)
        if len(writes) == failing:
            raise KeyboardInterrupt
        write_atomic(path, data, **options)

    writes.clear()
    monkeypatch.setattr(ids, "write_atomic", ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        assign(Library.at(library))
    monkeypatch.undo()
    assert {p.name: p.read_bytes() for p in (library / "incidents").iterdir()} == before
    assert [a.number for a in assign(Library.at(library)).assignments] == ["IL-0008", "IL-0009"]


# `curator assign-ids` as the command runs it, but sent SIGTERM just before its second
# write (the first numbered file is written, the second not yet), and again as it starts
# to undo the first (`timeout` sends it twice: to the process, then to its group).
_TERMINATED_MIDWAY = """
import os, signal
from curator import ids
from curator.__main__ import main
write_atomic, undo, writes = ids.write_atomic, ids._undo, []
def second_write_terminated(path, data, **options):
    writes.append(path)
    if len(writes) == 2:
        os.kill(os.getpid(), signal.SIGTERM)
    write_atomic(path, data, **options)
def undo_terminated_again(*args):
    os.kill(os.getpid(), signal.SIGTERM)
    undo(*args)
ids.write_atomic, ids._undo = second_write_terminated, undo_terminated_again
main()
"""


def test_assign_ids_terminated_midway_leaves_the_library_as_it_was(library):
    # SIGTERM (a cancelled workflow run) ended it on the spot, past the undo that Ctrl-C
    # gets: IL-0008.yaml stayed beside IL-NEW-alpha.yaml, the same incident twice. A
    # second SIGTERM must not stop the undo half-way either.
    before = {p.name: p.read_bytes() for p in (library / "incidents").iterdir()}
    run = ended(start_python("-c", _TERMINATED_MIDWAY, "assign-ids", "--root", str(library)))
    assert (run.code, run.out, run.err) == (2, "", "curator: terminated\n")
    assert {p.name: p.read_bytes() for p in (library / "incidents").iterdir()} == before


# `curator assign-ids` as the command runs it, sent SIGTERM the moment one of its steps is
# done on the file named, before it noted the step for the undo: a numbered file written
# (`os.link`), a reference rewritten (`os.replace`), a placeholder removed (`Path.unlink`).
_STOPPED_AS_A_STEP_ENDS = """
import os, signal, sys
from pathlib import Path
from curator.__main__ import main
step, name = sys.argv.pop(1), sys.argv.pop(1)
owner = Path if step == "unlink" else os
done, stops = getattr(owner, step), []
def stopped(*args, **options):
    done(*args, **options)
    if os.path.basename(args[0 if step == "unlink" else 1]) == name and not stops:
        stops.append(name)
        os.kill(os.getpid(), signal.SIGTERM)
setattr(owner, step, stopped)
main()
"""


@pytest.mark.parametrize(
    ("step", "name"),
    [("link", "IL-0008.yaml"), ("replace", "IL-0001.yaml"), ("unlink", "IL-NEW-alpha.yaml")],
    ids=["numbered", "reference", "placeholder"],
)
def test_a_stop_as_a_step_ends_is_undone_with_it(library, step, name):
    # The undo did not know of that step: IL-0008.yaml stayed beside IL-NEW-alpha.yaml,
    # IL-0001.yaml kept its rewritten reference to IL-0009, or IL-NEW-alpha.yaml stayed
    # deleted once the undo removed IL-0008.yaml: the incident lost.
    before = {p.name: p.read_bytes() for p in (library / "incidents").iterdir()}
    args = ("assign-ids", "--root", str(library))
    run = ended(start_python("-c", _STOPPED_AS_A_STEP_ENDS, step, name, *args))
    assert (run.code, run.out, run.err) == (2, "", "curator: terminated\n")
    assert {p.name: p.read_bytes() for p in (library / "incidents").iterdir()} == before


# `curator assign-ids` as the command runs it from a terminal, stopped on its third write
# (IL-0008.yaml and IL-0009.yaml are written, IL-0001.yaml's references not yet), and
# stopped again by Ctrl-C once the undo has removed the first numbered file.
_STOPPED_TWICE = """
import os, signal, sys
from pathlib import Path
from curator import ids
from curator.__main__ import main
signal.signal(signal.SIGINT, signal.default_int_handler)  # (as in a terminal)
first = getattr(signal, sys.argv.pop(1))
write_atomic, unlink, writes = ids.write_atomic, Path.unlink, []
def third_write_stopped(path, data, **options):
    writes.append(path)
    if len(writes) == 3:
        os.kill(os.getpid(), first)
    write_atomic(path, data, **options)
def ctrl_c_once_a_numbered_file_is_removed(path, *args, **options):
    unlink(path, *args, **options)
    if path.name == "IL-0008.yaml":
        os.kill(os.getpid(), signal.SIGINT)
ids.write_atomic, Path.unlink = third_write_stopped, ctrl_c_once_a_numbered_file_is_removed
main()
"""


@pytest.mark.parametrize(("first", "said"), [("SIGINT", "interrupted"), ("SIGTERM", "terminated")])
def test_a_second_ctrl_c_does_not_cut_the_undo_short(library, first, said):
    # Ctrl-C pressed again while the run undid its steps stopped the undo half-way:
    # IL-0009.yaml stayed beside IL-NEW-beta.yaml, the same incident twice.
    before = {p.name: p.read_bytes() for p in (library / "incidents").iterdir()}
    args = ("assign-ids", "--root", str(library))
    run = ended(start_python("-c", _STOPPED_TWICE, first, *args))
    assert (run.code, run.out, run.err) == (2, "", f"curator: {said}\n")
    assert {p.name: p.read_bytes() for p in (library / "incidents").iterdir()} == before


@pytest.mark.parametrize("name", ["IL-0001.yaml", "IL-NEW-beta.yaml"])  # a reference; a placeholder
@pytest.mark.parametrize("deleted", [False, True])
def test_a_file_changed_while_numbering_is_never_overwritten(library, monkeypatch, name, deleted):
    # An edit saved between the reading and the writing was overwritten by the text made
    # from the file as read; a placeholder deleted meanwhile came back numbered, and the
    # run ended in "No such file or directory" with the numbered files left in place.
    from curator import ids

    path = library / "incidents" / name
    read = ids.plan

    def changed_meanwhile(*args: object) -> ids.Plan:
        result = read(*args)
        if deleted:
            path.unlink()
        else:
            path.write_text(path.read_text("utf-8").replace("Example", "Edited"), "utf-8")
        return result

    monkeypatch.setattr(ids, "plan", changed_meanwhile)
    with pytest.raises(CannotAssign) as refused:
        assign(Library.at(library))
    assert refused.value.problems == [
        f"incidents/{name}:1:1: the file changed while curator was rewriting it; run again"
    ]
    left = {p.name: p.read_text("utf-8") for p in (library / "incidents").iterdir()}
    names = ["IL-0001.yaml", "IL-0007.yaml", "IL-NEW-alpha.yaml", "IL-NEW-beta.yaml"]
    assert sorted(left) == [n for n in names if not (deleted and n == name)]
    assert deleted or "  - Edited\n" in left[name]
    assert all("IL-0008" not in text for text in left.values())


def test_a_number_taken_meanwhile_is_said_with_its_file(library, monkeypatch):
    # Two runs at once: the second to write IL-0008.yaml named write_atomic's temporary
    # file (`…/.IL-0008.yaml.k2x8.tmp: File exists`), not the number taken.
    from curator import ids
    from curator.write.atomic import write_atomic

    def taken_meanwhile(path: Path, data: bytes, **options: bool) -> None:
        path.write_bytes(b"id: IL-0008\n")  # the other run's
        write_atomic(path, data, **options)

    monkeypatch.setattr(ids, "write_atomic", taken_meanwhile)
    with pytest.raises(FileExistsError) as taken:
        assign(Library.at(library))
    assert taken.value.filename == str(library / "incidents" / "IL-0008.yaml")
    assert taken.value.filename2 is None


def test_a_placeholder_whose_file_name_differs_is_refused(library):
    (library / "incidents" / "IL-NEW-alpha.yaml").rename(
        library / "incidents" / "IL-NEW-gamma.yaml"
    )
    with pytest.raises(CannotAssign) as refused:
        assign(Library.at(library))
    assert refused.value.problems == [
        "incidents/IL-NEW-gamma.yaml:1:5: holds id IL-NEW-alpha; the file name must match"
    ]
    assert sorted(ids_in(library)) == ["IL-0001", "IL-0007", "IL-NEW-beta", "IL-NEW-gamma"]


# At merge: the workflow's push loop ----------------------------------------------------------


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True, env=GIT_ENV
    )
    return done.stdout.strip()


GIT_ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}


@pytest.fixture
def remote(tmp_path):
    """A bare `origin` whose main holds a library with one placeholder, and two clones:
    `bot` (where the workflow runs) and `human` (someone merging at the same time)."""
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "--quiet", "--bare", "--initial-branch=main", str(origin))
    seed = write_library(
        tmp_path / "seed",
        {"IL-0001.yaml": incident("IL-0001"), "IL-NEW-alpha.yaml": placeholder("alpha")},
    )
    git(seed, "init", "--quiet", "--initial-branch=main")
    git(seed, "add", ".")
    git(seed, "commit", "--quiet", "-m", "seed")
    git(seed, "push", "--quiet", str(origin), "main")
    for name in ("bot", "human"):
        git(tmp_path, "clone", "--quiet", str(origin), name)
    return tmp_path


def race_on_first_push(bot: Path, script: str) -> None:
    """A pre-push hook in `bot` that, on the first push only, runs `script` in `human`:
    the branch moves between the bot's fetch and its push."""
    hook = bot / ".git" / "hooks" / "pre-push"
    hook.write_text(
        "#!/bin/sh\n"
        "unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE\n"
        f'[ -e "{bot}/.raced" ] && exit 0\n'
        f'touch "{bot}/.raced"\n'
        f'cd "{bot.parent / "human"}" && {script}\n',
        encoding="utf-8",
    )
    hook.chmod(0o755)


def curator_cmd() -> str:
    return f'"{sys.executable}" -m curator'


def push_run(bot: Path):
    return run_curator("assign-ids", "--push", "origin", "--branch", "main", cwd=bot, env=GIT_ENV)


def main_files(tmp_path: Path) -> dict[str, dict]:
    check = tmp_path / "check"
    git(tmp_path, "clone", "--quiet", str(tmp_path / "origin.git"), str(check))
    return ids_in(check)


def test_by_hand_too_a_number_deleted_from_the_history_is_never_given_again(remote):
    human = remote / "human"
    git(human, "rm", "--quiet", "incidents/IL-0001.yaml")
    git(human, "commit", "--quiet", "-m", "remove IL-0001")
    run = run_curator("assign-ids", cwd=human, env=GIT_ENV)
    assert run.code == 0, run
    assert run.out.startswith("IL-NEW-alpha → IL-0002")  # IL-0001 was released once
    assert sorted(ids_in(human)) == ["IL-0002"]


def test_a_number_renamed_away_in_the_history_is_never_given_again(remote):
    # git log follows renames: IL-0001.yaml moved to another name showed as a rename, not
    # a deletion, and its number was given again (here: IL-NEW-alpha → IL-0001).
    human = remote / "human"
    git(human, "mv", "incidents/IL-0001.yaml", "incidents/IL-NEW-beta.yaml")
    path = human / "incidents" / "IL-NEW-beta.yaml"
    path.write_text(path.read_text("utf-8").replace("IL-0001", "IL-NEW-beta"), "utf-8")
    git(human, "commit", "--quiet", "--all", "-m", "renumber IL-0001")
    assert git(human, "log", "-1", "--name-status", "--format=").startswith("R")
    run = run_curator("assign-ids", cwd=human, env=GIT_ENV)
    assert run.code == 0, run
    assert run.out.startswith("IL-NEW-alpha → IL-0002")  # IL-0001 was released once


def test_a_number_deleted_from_a_library_in_a_subfolder_is_never_given_again(tmp_path):
    # git log names files from the top of the checkout (lib/incidents/IL-0002.yaml), which
    # the pattern for incidents/IL-NNNN.yaml never matched: IL-0002 was given again.
    repo = tmp_path / "repo"
    root = write_library(
        repo / "lib", {"IL-0001.yaml": incident("IL-0001"), "IL-0002.yaml": incident("IL-0002")}
    )
    git(repo, "init", "--quiet")
    git(repo, "add", ".")
    git(repo, "commit", "--quiet", "-m", "seed")
    git(repo, "rm", "--quiet", "lib/incidents/IL-0002.yaml")
    git(repo, "commit", "--quiet", "-m", "remove IL-0002")
    (root / "incidents" / "IL-NEW-alpha.yaml").write_text(placeholder("alpha"), "utf-8")
    run = run_curator("assign-ids", cwd=root, env=GIT_ENV)
    assert run.code == 0, run
    assert run.out.startswith("IL-NEW-alpha → IL-0003")  # IL-0002 was released once


def test_push_numbers_commits_and_pushes(remote):
    run = push_run(remote / "bot")
    assert run.code == 0, run
    assert run.out.startswith("IL-NEW-alpha → IL-0002")
    assert sorted(main_files(remote)) == ["IL-0001", "IL-0002"]
    log = git(remote / "bot", "log", "-1", "--format=%s%n%b")
    assert log.splitlines()[:2] == ["Number new incidents", "IL-NEW-alpha → IL-0002"]


def test_a_merge_landing_during_the_run_is_detected_and_numbered_again(remote):
    beta = placeholder("beta").replace("'", "'\\''")
    race_on_first_push(
        remote / "bot",
        f"printf '%s' '{beta}' > incidents/IL-NEW-beta.yaml && git add -A && "
        "git commit --quiet -m 'merge beta' && git push --quiet origin main",
    )
    run = push_run(remote / "bot")
    assert run.code == 0, run
    assert "main moved while numbering (attempt 1 of 5); numbering again" in run.err
    assert run.out.splitlines()[:2] == [
        "IL-NEW-alpha → IL-0002  (incidents/IL-0002.yaml)",
        "IL-NEW-beta → IL-0003  (incidents/IL-0003.yaml)",
    ]
    files = main_files(remote)
    assert sorted(files) == ["IL-0001", "IL-0002", "IL-0003"]
    assert [d["id"] for d in files.values()] == ["IL-0001", "IL-0002", "IL-0003"]


def test_a_concurrent_numbering_run_is_detected_and_no_number_is_given_twice(remote):
    race_on_first_push(
        remote / "bot", f"{curator_cmd()} assign-ids --push origin --branch main >/dev/null 2>&1"
    )
    run = push_run(remote / "bot")
    assert run.code == 0, run
    assert "main moved while numbering (attempt 1 of 5)" in run.err
    assert "0 placeholders numbered" in run.err  # the other run had numbered alpha already
    files = main_files(remote)
    assert sorted(files) == ["IL-0001", "IL-0002"]
    history = git(remote / "bot", "log", "--format=%s", "origin/main")
    assert history.splitlines().count("Number new incidents") == 1


def test_attempts_is_how_many_times_a_push_is_tried_before_giving_up(remote):
    # The branch moves once (the pre-push hook): one attempt gives up where the default
    # five number again. It said "main moved while numbering (attempt 1 of 1); numbering
    # again", then gave up "after 1 attempts".
    beta = placeholder("beta").replace("'", "'\\''")
    race_on_first_push(
        remote / "bot",
        f"printf '%s' '{beta}' > incidents/IL-NEW-beta.yaml && git add -A && "
        "git commit --quiet -m 'merge beta' && git push --quiet origin main",
    )
    start = git(remote / "bot", "rev-parse", "--short=12", "HEAD")
    args = ("assign-ids", "--push", "origin", "--attempts", "1")
    run = run_curator(*args, cwd=remote / "bot", env=GIT_ENV)
    assert (run.code, run.out) == (2, ""), run
    assert run.err == (
        f"curator: nothing pushed; the checkout is back at {start}, as it was\n"
        "curator: main moved while numbering; gave up after 1 attempt\n"
    )
    assert sorted(main_files(remote)) == ["IL-0001", "IL-NEW-alpha", "IL-NEW-beta"]


def test_branch_names_the_branch_a_push_starts_from_and_pushes_to(remote):
    human = remote / "human"
    git(human, "checkout", "--quiet", "-b", "trunk")
    git(human, "rm", "--quiet", "incidents/IL-NEW-alpha.yaml")
    gamma = human / "incidents" / "IL-NEW-gamma.yaml"
    gamma.write_text(placeholder("gamma"), encoding="utf-8")
    git(human, "add", "incidents")
    git(human, "commit", "--quiet", "-m", "gamma on trunk")
    git(human, "push", "--quiet", "origin", "trunk")
    run = run_curator(
        "assign-ids", "--push", "origin", "--branch", "trunk", cwd=remote / "bot", env=GIT_ENV
    )
    assert run.code == 0, run
    assert run.out.startswith("IL-NEW-gamma → IL-0002")
    trunk = git(remote / "origin.git", "ls-tree", "--name-only", "trunk", "incidents/")
    assert trunk.split() == ["incidents/IL-0001.yaml", "incidents/IL-0002.yaml"]
    assert sorted(main_files(remote)) == ["IL-0001", "IL-NEW-alpha"]  # main as it was


def test_the_cache_other_commands_keep_does_not_stop_a_push(remote):
    # A library whose .gitignore does not name .curator-cache/ (this one has none): after
    # `curator lint` the push refused, "the working tree has uncommitted changes".
    bot = remote / "bot"
    assert run_curator("lint", cwd=bot).code == 0
    assert (bot / ".curator-cache").is_dir() and not (bot / ".gitignore").exists()
    run = push_run(bot)
    assert run.code == 0, run
    assert sorted(main_files(remote)) == ["IL-0001", "IL-0002"]


# `curator assign-ids --push`, with its pid where git's filters can find it.
_WITH_ITS_PID = """
import os
os.environ["CURATOR_PID"] = str(os.getpid())
from curator.__main__ import main
main()
"""


def stopped_in_git_add(bot: Path) -> None:
    """`git add` sends curator SIGTERM as it reads the numbered file, holding the index's
    lock."""
    in_git_add(bot, 'kill -TERM "$CURATOR_PID"; ')


def in_git_add(bot: Path, command: str) -> None:
    """`git add` runs the shell `command`, then holds the index's lock for 5 s, as it reads
    the numbered file: through a clean filter, set outside the tree so that the tree stays
    clean."""
    script = bot.parent / "filter.sh"
    script.write_text(
        "#!/bin/sh\n"
        f'case "$1" in *IL-0002.yaml) {command}sleep 5 </dev/null >/dev/null 2>&1;; esac\n'
        "exec cat\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    git(bot, "config", "filter.numbered.clean", f"{script} %f")
    (bot / ".git" / "info" / "attributes").write_text("*.yaml filter=numbered\n", "utf-8")


def test_git_stopped_with_curator_leaves_no_lock_behind(remote):
    # subprocess.run sent git SIGKILL: `.git/index.lock` stayed, and every later git
    # command in the checkout failed ("Unable to create '.git/index.lock': File exists").
    bot = remote / "bot"
    stopped_in_git_add(bot)
    args = ("assign-ids", "--push", "origin")
    run = ended(start_python("-c", _WITH_ITS_PID, *args, cwd=bot, env=GIT_ENV))
    assert (run.code, run.out) == (2, "")
    assert run.err.endswith("curator: terminated\n")
    assert not (bot / ".git" / "index.lock").exists()
    assert sorted(main_files(remote)) == ["IL-0001", "IL-NEW-alpha"]


def behind_the_remote(remote: Path) -> tuple[Path, str]:
    """The bot's checkout and its HEAD, once a commit was pushed to main after it: a run
    resets it to the remote's head before numbering."""
    bot = remote / "bot"
    start = git(bot, "rev-parse", "HEAD")
    git(remote / "human", "commit", "--quiet", "--allow-empty", "-m", "merged meanwhile")
    git(remote / "human", "push", "--quiet", "origin", "main")
    return bot, start


def test_a_push_stopped_before_it_is_sent_leaves_the_checkout_as_it_was(remote):
    # The checkout kept half a numbering: IL-NEW-alpha.yaml deleted, IL-0002.yaml beside
    # it untracked (or staged, or committed and not pushed), and nothing said which; the
    # next run refused it ("the working tree has uncommitted changes").
    bot, start = behind_the_remote(remote)
    stopped_in_git_add(bot)
    args = ("assign-ids", "--push", "origin")
    run = ended(start_python("-c", _WITH_ITS_PID, *args, cwd=bot, env=GIT_ENV))
    assert (run.code, run.out) == (2, "")
    assert run.err == (
        f"curator: nothing pushed; the checkout is back at {start[:12]}, as it was\n"
        "curator: terminated\n"
    )
    assert git(bot, "rev-parse", "HEAD") == start  # not at the remote's head either
    assert git(bot, "status", "--porcelain", "--untracked-files=all") == ""
    assert sorted(ids_in(bot)) == ["IL-0001", "IL-NEW-alpha"]


# SIGTERM as `subprocess.Popen` waits to hear that `git add` started: a busy machine may not
# run curator again before git has started its clean filter, which asks for the stop.
_STOPPED_AS_GIT_ADD_STARTS = """
import os, signal, subprocess
started = subprocess.Popen._execute_child
def execute_child(self, args, *rest):
    started(self, args, *rest)
    if "add" in args:
        os.kill(os.getpid(), signal.SIGTERM)
subprocess.Popen._execute_child = execute_child
from curator.__main__ import main
main()
"""


def test_a_stop_as_git_starts_stops_git_too(remote):
    # Popen raised the stop before it gave curator the process: `git add` ran on, holding
    # the index's lock, and the put-back failed ("Unable to create '.git/index.lock'").
    bot, start = behind_the_remote(remote)
    in_git_add(bot, "")
    args = ("assign-ids", "--push", "origin")
    run = ended(start_python("-c", _STOPPED_AS_GIT_ADD_STARTS, *args, cwd=bot, env=GIT_ENV))
    assert run.err == (
        f"curator: nothing pushed; the checkout is back at {start[:12]}, as it was\n"
        "curator: terminated\n"
    )
    assert (run.code, run.out) == (2, "")
    assert git(bot, "rev-parse", "HEAD") == start
    assert git(bot, "status", "--porcelain", "--untracked-files=all") == ""
    assert not (bot / ".git" / "index.lock").exists()


# `curator assign-ids --push` run from a terminal, in a process group of its own: a
# terminal's Ctrl-C reaches the whole group, git and its filters included.
_FROM_A_TERMINAL = """
import os, signal
signal.signal(signal.SIGINT, signal.default_int_handler)
os.environ["CURATOR_PID"] = str(os.getpid())
from curator.__main__ import main
main()
"""


def ctrl_c_in_git_add_and_again_in_the_put_back(bot: Path) -> None:
    """Ctrl-C as `git add` reads the numbered file (the clean filter), and again as the
    put-back's `git reset --hard` writes the placeholder's file back (the smudge filter)."""
    script = bot.parent / "ctrl-c.sh"
    marker = bot.parent / "pressed-once"
    script.write_text(
        "#!/bin/sh\n"
        f'case "$1" in *IL-0002.yaml) touch "{marker}"; kill -INT "-$CURATOR_PID";; '
        f'*IL-NEW-alpha.yaml) [ -e "{marker}" ] && kill -INT "-$CURATOR_PID";; esac\n'
        "sleep 1\n"
        "exec cat\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    git(bot, "config", "filter.stop.clean", f"{script} %f")
    git(bot, "config", "filter.stop.smudge", f"{script} %f")
    (bot / ".git" / "info" / "attributes").write_text("*.yaml filter=stop\n", "utf-8")


def test_a_second_ctrl_c_does_not_cut_the_put_back_short(remote):
    # The second Ctrl-C reached curator and the put-back's `git reset --hard` (a terminal
    # signals the whole process group): the checkout stayed at the remote's head, the
    # placeholder's file deleted, the numbered one beside it untracked.
    bot, start = behind_the_remote(remote)
    ctrl_c_in_git_add_and_again_in_the_put_back(bot)
    args = ("assign-ids", "--push", "origin")
    process = start_python(
        "-c", _FROM_A_TERMINAL, *args, cwd=bot, env=GIT_ENV, start_new_session=True
    )
    run = ended(process)
    assert (run.code, run.out) == (2, "")
    assert run.err == (
        f"curator: nothing pushed; the checkout is back at {start[:12]}, as it was\n"
        "curator: interrupted\n"
    )
    assert (bot.parent / "pressed-once").exists()
    assert git(bot, "rev-parse", "HEAD") == start
    assert git(bot, "status", "--porcelain", "--untracked-files=all") == ""
    assert sorted(ids_in(bot)) == ["IL-0001", "IL-NEW-alpha"]


def said_stopped_while_pushing(run, bot):
    """The run ended by SIGTERM as it pushed says so, and the checkout keeps the commit."""
    commit = git(bot, "rev-parse", "HEAD")
    assert (run.code, run.out) == (2, "")
    assert run.err == (
        f"curator: stopped while pushing {commit[:12]}, which the checkout now holds; "
        "`git fetch origin` shows whether main got it\n"
        "curator: terminated\n"
    )
    assert git(bot, "log", "-1", "--format=%s") == "Number new incidents"


def test_a_push_stopped_as_it_is_sent_says_so_and_keeps_the_commit(remote):
    bot = remote / "bot"
    hook = bot / ".git" / "hooks" / "pre-push"
    hook.write_text('#!/bin/sh\nkill -TERM "$CURATOR_PID"\nsleep 5\n', encoding="utf-8")
    hook.chmod(0o755)
    args = ("assign-ids", "--push", "origin")
    run = ended(start_python("-c", _WITH_ITS_PID, *args, cwd=bot, env=GIT_ENV))
    said_stopped_while_pushing(run, bot)
    assert git(bot, "status", "--porcelain", "--untracked-files=all") == ""


# `curator assign-ids --push` sent SIGTERM as it returns what it pushed.
_STOPPED_ONCE_PUSHED = """
import os, signal
from curator import ids_git
from curator.__main__ import main
pushed = ids_git.Pushed
def stopped_as_it_returns(*args):
    os.kill(os.getpid(), signal.SIGTERM)
    return pushed(*args)
ids_git.Pushed = stopped_as_it_returns
main()
"""


def test_a_stop_once_the_push_is_sent_does_not_say_nothing_was_pushed(remote):
    # Once the push was sent, the run asked git for the commit it had pushed, no longer
    # "pushing": a stop from then on said "nothing pushed; the checkout is back at …" and
    # reset the checkout, while main held the numbering.
    bot = remote / "bot"
    args = ("assign-ids", "--push", "origin")
    run = ended(start_python("-c", _STOPPED_ONCE_PUSHED, *args, cwd=bot, env=GIT_ENV))
    said_stopped_while_pushing(run, bot)
    assert sorted(main_files(remote)) == ["IL-0001", "IL-0002"]


def test_push_refuses_a_dirty_tree_and_reports_a_failing_push(remote):
    bot = remote / "bot"
    (bot / "incidents" / "IL-0001.yaml").write_text("changed\n", encoding="utf-8")
    run = push_run(bot)
    assert run.code == 2 and "uncommitted changes" in run.err
    git(bot, "checkout", "--quiet", "--", ".")
    hook = bot / ".git" / "hooks" / "pre-push"
    hook.write_text("#!/bin/sh\necho 'protected branch' >&2\nexit 1\n", encoding="utf-8")
    hook.chmod(0o755)
    start = git(bot, "rev-parse", "HEAD")
    run = push_run(bot)
    assert run.code == 2 and "git push failed" in run.err and "protected branch" in run.err
    assert sorted(main_files(remote)) == ["IL-0001", "IL-NEW-alpha"]
    assert f"curator: nothing pushed; the checkout is back at {start[:12]}" in run.err
    assert git(bot, "rev-parse", "HEAD") == start  # the numbering commit is not left in it
    assert git(bot, "status", "--porcelain", "--untracked-files=all") == ""


def test_push_never_drops_commits_the_remote_branch_lacks(remote):
    # Run on a contributor's branch (or a main with commits not pushed), it reset the
    # branch to origin's main, numbered and pushed: the branch's own commits were gone.
    bot = remote / "bot"
    git(bot, "checkout", "--quiet", "-b", "feature")
    (bot / "notes.txt").write_text("my work\n", encoding="utf-8")
    git(bot, "add", "notes.txt")
    git(bot, "commit", "--quiet", "-m", "my work")
    mine = git(bot, "rev-parse", "HEAD")
    run = push_run(bot)
    assert (run.code, run.out) == (2, "")
    assert run.err == (
        "curator: HEAD holds commits that origin's main does not: --push starts from "
        "origin's main and would drop them; push them first, or run it in a checkout of "
        "origin's main\n"
    )
    assert git(bot, "rev-parse", "feature") == mine
    assert (bot / "notes.txt").read_text(encoding="utf-8") == "my work\n"
    on_main = ("ls-tree", "--name-only", "main", "incidents/")
    assert git(remote / "origin.git", *on_main).split() == [
        "incidents/IL-0001.yaml",
        "incidents/IL-NEW-alpha.yaml",
    ]
    git(bot, "checkout", "--quiet", "--detach", "main")  # behind the remote's main: fine
    git(remote / "human", "commit", "--quiet", "--allow-empty", "-m", "merged meanwhile")
    git(remote / "human", "push", "--quiet", "origin", "main")
    assert push_run(bot).code == 0
    assert git(remote / "origin.git", *on_main).split() == [
        "incidents/IL-0001.yaml",
        "incidents/IL-0002.yaml",
    ]


def test_a_git_failure_is_said_with_git_s_reason_not_its_advice(remote):
    # git ends with advice ("Please make sure you have the correct access rights / and the
    # repository exists."): its last line made the message "… failed: and the repository
    # exists."
    run = run_curator("assign-ids", "--push", "nowhere", cwd=remote / "bot", env=GIT_ENV)
    assert run.code == 2
    assert run.err == (
        "curator: git fetch --quiet --end-of-options nowhere main failed: "
        "fatal: 'nowhere' does not appear to be a git repository\n"
    )


@pytest.mark.parametrize(
    ("remote", "branch"),
    [("--upload-pack=touch {pwned}", "main"), ("origin", "--upload-pack=touch {pwned}")],
)
def test_a_remote_or_branch_is_never_read_as_an_option_to_git(tmp_path, remote, branch):
    # `--push '--upload-pack=touch X'` ran `touch X` (git fetch took it as its option).
    pwned = tmp_path / "pwned"
    bot = write_library(tmp_path / "bot", {"IL-NEW-alpha.yaml": placeholder("alpha")})
    git(bot, "init", "--quiet", "--initial-branch=main")
    git(bot, "add", ".")
    git(bot, "commit", "--quiet", "-m", "seed")
    args = ("--push", remote.format(pwned=pwned), "--branch", branch.format(pwned=pwned))
    run = run_curator("assign-ids", *args, cwd=bot, env=GIT_ENV)
    assert run.code == 2 and run.err.startswith("curator: git fetch"), run.err
    assert not pwned.exists()
    assert sorted(p.name for p in bot.iterdir()) == [".git", "incidents", "schema"]


@pytest.mark.parametrize("push", [(), ("--push", "origin")], ids=["by-hand", "push"])
def test_without_git_on_path_assign_ids_says_so_and_numbers_nothing(remote, push):
    # It said "curator: git: No such file or directory", the failure to start git told
    # as if a file named git were missing from the library.
    human = remote / "human"
    before = ids_in(human)
    run = run_curator("assign-ids", *push, cwd=human, env={"PATH": str(remote / "seed")})
    assert (run.code, run.out, run.err) == (2, "", "curator: git is not installed or not on PATH\n")
    assert ids_in(human) == before


# The workflow --------------------------------------------------------------------------------


def test_the_workflow_is_serialised_pinned_least_privileged_and_injection_free():
    path = REPO / ".github" / "workflows" / "assign-ids.yml"
    text = path.read_text(encoding="utf-8")
    workflow = yaml.safe_load(text)
    assert workflow["concurrency"] == {"group": "assign-ids", "cancel-in-progress": False}
    assert workflow["permissions"] == {}
    [job] = workflow["jobs"].values()
    assert job["permissions"] == {"contents": "write"}
    for step in job["steps"]:
        if "uses" in step:
            assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", step["uses"]), step["uses"]
        assert "${{" not in step.get("run", ""), step
    runs = "\n".join(step.get("run", "") for step in job["steps"])
    assert "curator assign-ids --push origin" in runs
