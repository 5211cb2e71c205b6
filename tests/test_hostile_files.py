"""Entries of incidents/ that are not plain readable files, met by every command that reads
or rewrites incident files: a file that cannot be read is a finding and the run goes on; a
symbolic link is never replaced by the commands that rewrite files; a FIFO never blocks.

An unreadable regular file is a link to /proc/self/mem: reading it fails (EIO) whoever
runs the tests, root included, where a file without read permission would still be read.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import REPO, run_curator, write_library

from curator import fmt
from incidents import incident

UNREADABLE = Path("/proc/self/mem")
# Not in the canonical layout (two spaces after `id:`), and with a tracking parameter in its
# source URL: both fmt and fix rewrite it.
UNFORMATTED = (
    incident("IL-0002")
    .replace("id: IL-0002", "id:  IL-0002")
    .replace("postmortems/IL-0002", "postmortems/IL-0002?utm_source=feed")
)


@pytest.fixture
def library(tmp_path: Path) -> Path:
    return write_library(
        tmp_path / "lib",
        {"IL-0001.yaml": incident("IL-0001"), "IL-0002.yaml": UNFORMATTED},
    )


def shown(path: Path) -> str:
    return os.path.relpath(path, REPO)


@pytest.mark.parametrize(
    ("command", "verb"),
    [
        (["fmt"], "format"),
        (["fmt", "--check"], "format"),
        (["fmt", "--diff"], "format"),
        (["fix"], "fix"),
        (["fix", "--diff"], "fix"),
    ],
)
def test_a_link_to_what_cannot_be_read_is_a_finding_and_the_other_files_are_still_done(
    library, command, verb
):
    unreadable = library / "incidents" / "IL-0003.yaml"
    unreadable.symlink_to(UNREADABLE)
    run = run_curator(*command, "--root", str(library))
    assert run.code == 1, run
    assert f"{shown(unreadable)}:1:1: cannot {verb}: a symbolic link" in run.err
    # The run went on: IL-0002 is still reported as one to reformat.
    assert "IL-0002.yaml" in run.out or "IL-0002.yaml" in run.err
    lint = run_curator("lint", "--root", str(library), "--format", "json")
    assert [f["code"] for f in json.loads(lint.out) if "IL-0003" in f["path"]] == ["IL107"]


def test_a_file_that_fails_to_read_is_a_finding_and_the_other_files_are_still_done(
    library, monkeypatch
):
    # A regular file whose read fails (EIO): root reads any file, so the failure is made.
    broken = library / "incidents" / "IL-0001.yaml"

    def read(path: Path) -> bytes:
        if path == broken:
            raise OSError(errno.EIO, "Input/output error")
        return path.read_bytes()

    monkeypatch.setattr(fmt, "read_regular", read)
    paths = sorted((library / "incidents").iterdir())
    results = {r.path.name: r for r in fmt.format_files(paths, write=False, cwd=library)}
    assert results["IL-0001.yaml"].refused is not None
    assert "cannot read the file: Input/output error" in results["IL-0001.yaml"].refused.message
    assert results["IL-0002.yaml"].changed  # the run went on


def test_assign_ids_refuses_a_link_with_its_place_and_changes_nothing(library):
    incidents = library / "incidents"
    (incidents / "IL-NEW-alpha.yaml").write_text(incident("IL-NEW-alpha"), encoding="utf-8")
    (incidents / "IL-0003.yaml").symlink_to(UNREADABLE)
    before = sorted(p.name for p in incidents.iterdir())
    run = run_curator("assign-ids", "--root", str(library))
    assert run.code == 1, run
    assert run.err.startswith(
        "curator: cannot number: incidents/IL-0003.yaml:1:1: a symbolic link"
    ), run.err
    assert sorted(p.name for p in incidents.iterdir()) == before


def test_assign_ids_counts_the_name_of_an_entry_that_holds_no_incident(library):
    # A folder named IL-0003.yaml (lint: IL107) still takes the number 3: the next id is 4.
    incidents = library / "incidents"
    (incidents / "IL-0003.yaml").mkdir()
    (incidents / "IL-NEW-alpha.yaml").write_text(incident("IL-NEW-alpha"), encoding="utf-8")
    run = run_curator("assign-ids", "--root", str(library))
    assert run.code == 0, run
    assert (incidents / "IL-0004.yaml").is_file() and (incidents / "IL-0003.yaml").is_dir()


@pytest.mark.parametrize(
    "command", [["fmt"], ["fix"], ["fmt", "--check"], ["fmt", "--diff"], ["fix", "--diff"]]
)
def test_a_symlinked_incident_is_never_replaced_by_a_regular_file(library, tmp_path, command):
    # os.replace on the link's path once turned the link into a copy: the link was lost
    # and its target left unformatted. Writing through it instead could change a file
    # anywhere (a link to ~/.bashrc); `fmt --diff` printed the target's contents.
    target = tmp_path / "outside.yaml"
    target.write_text(UNFORMATTED.replace("IL-0002", "IL-0003"), encoding="utf-8")
    link = library / "incidents" / "IL-0003.yaml"
    link.symlink_to(target)
    run = run_curator(*command, "--root", str(library))
    assert run.code == 1, run
    verb = "fix" if command[0] == "fix" else "format"
    assert f"{shown(link)}:1:1: cannot {verb}: a symbolic link" in run.err
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text(encoding="utf-8") == UNFORMATTED.replace("IL-0002", "IL-0003")
    assert "IL-0003" not in run.out  # no diff of, nor "would reformat", the link's target


def test_a_symlinked_incident_is_reported_even_when_its_target_is_canonical(library, tmp_path):
    # In a pull request a link could point anywhere on the runner: never followed (IL107).
    target = tmp_path / "outside.yaml"
    target.write_text(incident("IL-0003"), encoding="utf-8")
    (library / "incidents" / "IL-0003.yaml").symlink_to(target)
    (library / "incidents" / "IL-0002.yaml").write_text(incident("IL-0002"), encoding="utf-8")
    for command in (["fmt", "--check"], ["fmt"], ["fix"], ["lint"]):
        run = run_curator(*command, "--root", str(library))
        assert run.code == 1, (command, run)
        assert "IL-0003.yaml:1:1:" in run.err + run.out and "a symbolic link" in run.err + run.out
    assert target.read_text(encoding="utf-8") == incident("IL-0003")


def test_assign_ids_refuses_to_rewrite_a_symlinked_incident(library, tmp_path):
    incidents = library / "incidents"
    (incidents / "IL-NEW-alpha.yaml").write_text(incident("IL-NEW-alpha"), encoding="utf-8")
    target = tmp_path / "outside.yaml"
    referring = incident("IL-0003") + "related:\n  - IL-NEW-alpha\n"
    target.write_text(referring, encoding="utf-8")
    (incidents / "IL-0003.yaml").symlink_to(target)
    run = run_curator("assign-ids", "--root", str(library))
    assert run.code == 1, run
    assert "incidents/IL-0003.yaml:1:1: a symbolic link" in run.err
    assert (incidents / "IL-0003.yaml").is_symlink()
    assert target.read_text(encoding="utf-8") == referring
    assert (incidents / "IL-NEW-alpha.yaml").exists()


@pytest.mark.parametrize("command", ["similar", "suggest"])
def test_a_fifo_named_on_the_command_line_is_refused_not_waited_on(library, command):
    fifo = library / "incidents" / "IL-0003.yaml"
    os.mkfifo(fifo)
    run = run_curator(command, "--root", str(library), str(fifo), timeout=60)
    assert run.code == 2, run
    assert "not an incident file" in run.err


def test_review_does_not_wait_on_a_fifo_in_the_checkout(tmp_path):
    # git does not see a FIFO, so the checkout looks clean and review reads it in place.
    root = write_library(tmp_path / "repo", {"IL-0001.yaml": incident("IL-0001")})
    author = ["-c", "user.name=t", "-c", "user.email=t@t.invalid"]
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run(["git", "-C", str(root), *author, *args], check=True)
    subprocess.run(["git", "-C", str(root), "checkout", "-qb", "change"], check=True)
    (root / "incidents" / "IL-0002.yaml").write_text(incident("IL-0002"), encoding="utf-8")
    for args in (["add", "-A"], ["commit", "-qm", "add"]):
        subprocess.run(["git", "-C", str(root), *author, *args], check=True)
    os.mkfifo(root / "incidents" / "IL-0009.yaml")
    run = run_curator("review", "--base", "main", "--format", "json", cwd=root, timeout=120)
    report = json.loads(run.out)
    assert "incidents/IL-0002.yaml" in [f["path"] for f in report["files"]]


def test_fifos_in_the_cache_are_misses_not_waits(library):
    # The cache is safe to delete at any time and may hold anything; a FIFO where a shard
    # or the similarity index should be blocked lint, fmt and similar forever.
    cold = run_curator("lint", "--root", str(library), "--no-cache", "--format", "json")
    assert run_curator("lint", "--root", str(library), timeout=120).code == cold.code
    assert run_curator("fmt", "--check", "--root", str(library), timeout=120).code == 1
    assert run_curator("similar", "--all", "--root", str(library), timeout=120).code == 0
    kept = [p for p in (library / ".curator-cache").rglob("*") if p.is_file()]
    assert any(p.name == "index.npz" for p in kept) and any(p.suffix == ".json" for p in kept)
    for path in kept:
        if path.name != "CACHEDIR.TAG":
            path.unlink()
            os.mkfifo(path)
    warm = run_curator("lint", "--root", str(library), "--format", "json", timeout=120)
    assert (warm.code, json.loads(warm.out)) == (cold.code, json.loads(cold.out))
    assert run_curator("fmt", "--check", "--root", str(library), timeout=120).code == 1
    similar = run_curator(
        "similar", "--all", "--root", str(library), "--format", "json", timeout=120
    )
    assert similar.code == 0 and len(json.loads(similar.out)) == 2


def _findings_by_line(tmp_path: Path, text: str) -> set[tuple[str, int]]:
    library = write_library(tmp_path, {"IL-0001.yaml": text})
    run = run_curator("lint", "--no-cache", "--format", "json", cwd=library)
    assert run.code == 1
    return {(finding["code"], finding["line"]) for finding in json.loads(run.out)}


def _line_of(text: str, part: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), 1) if part in line)


def test_findings_after_a_unicode_line_separator_are_on_the_line_an_editor_shows(tmp_path):
    # libyaml counts U+2028 and NEL as line breaks; editors, and every rule, do not.
    valid = (
        incident("IL-0001")
        .replace("title: 공유", 'title: "공유\u2028스토리지"\ntitle_note: 공유', 1)
        .replace("  - Example", '  - "Example\x85Co"')
        .replace("  학습 처리량이 떨어졌다.", "  학습 처리량이\t@ops 떨어졌다.")
    )
    unknown_key = valid.replace("title_note", "title_typo")
    valid = valid.replace("\ntitle_note: 공유", " #")  # the rest of the old title: a comment
    assert _findings_by_line(tmp_path / "a", valid) >= {
        ("IL601", _line_of(valid, "\t")),
        ("IL504", _line_of(valid, "@ops")),
    }
    assert _findings_by_line(tmp_path / "b", unknown_key) >= {
        ("IL201", _line_of(unknown_key, "title_typo")),
        ("IL601", _line_of(unknown_key, "\t")),
    }
