"""Entries of incidents/ that are not plain readable files, met by every command that reads
or rewrites incident files: a file that cannot be read is a finding and the run goes on; a
symbolic link is never replaced by the commands that rewrite files; a FIFO never blocks.
Then hostile contents, one table per family of commands (rewriting, judging, reviewing),
and taxonomy files that are not regular files.

An unreadable regular file is a link to /proc/self/mem: reading it fails (EIO) whoever
runs the tests, root included, where a file without read permission would still be read.
"""

from __future__ import annotations

import errno
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import REPO, ended, run_curator, start_python, write_library

from curator import fmt
from curator import lint as engine
from curator.cli import main
from curator.library import Library
from curator.lint import lint
from curator.load import load_bytes
from curator.rules import FILE_RULES
from curator.write.comments import comments
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

    def read(path: Path, *limit: int) -> bytes:
        if path == broken:
            raise OSError(errno.EIO, "Input/output error")
        return path.read_bytes()

    monkeypatch.setattr(fmt, "read_regular", read)
    paths = sorted((library / "incidents").iterdir())
    results = {r.path.name: r for r in fmt.format_files(paths, write=False, cwd=library)}
    assert results["IL-0001.yaml"].refused is not None
    assert "cannot read the file: Input/output error" in results["IL-0001.yaml"].refused.message
    assert results["IL-0002.yaml"].changed  # the run went on


# A file larger than any process here may hold: sparse, it costs no disk. Read whole (as
# every reader of incident files did, before refusing it for its size), it fails the run
# with a MemoryError under the address-space limit the runs are given.
HUGE = 8 << 30


def run_within_memory(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

    return subprocess.run(
        [sys.executable, "-m", "curator", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        encoding="utf-8",
        preexec_fn=limited,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("args", "code", "said"),
    [
        (["lint", "--no-cache"], 1, "incidents/IL-0003.yaml:1:1: IL104 [error] file is {size}"),
        (["lint"], 1, "incidents/IL-0003.yaml:1:1: IL104 [error] file is {size}"),
        (["fmt", "--check"], 1, "incidents/IL-0003.yaml:1:1: cannot format: cannot be read"),
        (["fix", "--check"], 1, "incidents/IL-0003.yaml:1:1: cannot fix: cannot be read"),
        (["search", "스토리지"], 0, ""),
        (["similar", "incidents/IL-0001.yaml"], 0, ""),
        (["assign-ids"], 1, "curator: cannot number: incidents/IL-0003.yaml:1:1: cannot be"),
    ],
)
def test_a_huge_incident_file_is_refused_for_its_size_without_being_read_whole(
    tmp_path, args, code, said
):
    root = write_library(
        tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001"), "IL-0002.yaml": UNFORMATTED}
    )
    huge = root / "incidents" / "IL-0003.yaml"
    with huge.open("wb") as file:
        file.write(incident("IL-0003").encode("utf-8"))
        file.truncate(HUGE)
    for size in (HUGE, HUGE + 1):  # grown since: said at its size now, not as kept
        os.truncate(huge, size)
        run = run_within_memory(*args, cwd=root)
        assert run.returncode == code, run.stderr
        assert "Error" not in run.stderr, run.stderr  # (MemoryError)
        lines = (run.stdout + run.stderr).splitlines()
        assert any(line.startswith(said.format(size=f"{size:,}")) for line in lines), lines


def test_a_huge_taxonomy_file_is_refused_for_its_size_without_being_read_whole(tmp_path):
    # An incident file past the limit was read no further than it (session 49); a taxonomy
    # file was still read whole to be refused: 8 GB under a 3 GB address space failed
    # with a MemoryError.
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    huge = root / "schema" / "taxonomy" / "symptoms.yaml"
    os.truncate(huge, HUGE)
    run = run_within_memory("lint", "--no-cache", cwd=root)
    assert "Error" not in run.stderr, run.stderr  # (MemoryError)
    assert run.returncode == 1, run.stderr
    assert f"schema/taxonomy/symptoms.yaml:1:1: IL303 [error] file is {HUGE:,} bytes" in run.stdout


# Written files larger than this fail (EFBIG), as every write fails on a full disk (ENOSPC)
# or in a read-only folder (EACCES): the system's limit, for root as for anyone.
WRITE_LIMIT = 16_384
LARGE = UNFORMATTED.replace("IL-0002", "IL-0003").replace(
    "lessons: |\n", "lessons: |\n" + "  작은 규모 시험으로는 알 수 없었다.\n" * 400
)


def limited_to(size: int) -> Callable[[], None]:
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


@pytest.mark.parametrize(("command", "verb"), [("fmt", "format"), ("fix", "fix")])
def test_a_file_the_system_refuses_to_write_is_left_and_the_others_are_written(
    library, command, verb
):
    # The first write refused ended the run (exit 2, "curator: …/IL-0003.yaml: No space
    # left on device"): the files after it were not written, and the files before it,
    # which were, went unsaid.
    incidents = library / "incidents"
    (incidents / "IL-0003.yaml").write_text(LARGE, encoding="utf-8")
    (incidents / "IL-0004.yaml").write_text(UNFORMATTED.replace("0002", "0004"), "utf-8")
    before = {path.name: path.read_bytes() for path in incidents.iterdir()}
    assert len(before["IL-0003.yaml"]) > WRITE_LIMIT
    args = ("-m", "curator", command, "--root", str(library))
    run = ended(start_python(*args, preexec_fn=limited_to(WRITE_LIMIT)))
    assert run.code == 1, run
    large = shown(incidents / "IL-0003.yaml")
    assert f"{large}:1:1: cannot {verb}: cannot write the file: File too large\n" in run.err
    after = {path.name: path.read_bytes() for path in incidents.iterdir()}
    assert after.keys() == before.keys()  # no temporary file left behind
    assert after["IL-0003.yaml"] == before["IL-0003.yaml"]
    for name in ("IL-0002.yaml", "IL-0004.yaml"):  # before the refused file, and after it
        assert after[name] != before[name]
        assert shown(incidents / name) in run.out  # said to be changed


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


@pytest.mark.parametrize("command", ["lint", "fmt", "fix"])
def test_a_link_to_nowhere_named_is_reported_as_a_link_not_as_no_such_file(library, command):
    # It was a usage error, "no such file" (exit 2), of a file `ls` lists and that a run
    # over the whole library reports as a link (IL107).
    link = library / "incidents" / "IL-0003.yaml"
    link.symlink_to("gone.yaml")
    run = run_curator(command, "--root", str(library), str(link))
    assert run.code == 1, run
    assert f"{shown(link)}:1:1: " in run.err + run.out and "a symbolic link" in run.err + run.out


@pytest.mark.parametrize("command", ["similar", "suggest"])
def test_a_link_that_loops_named_to_a_judgement_is_not_judged_as_lint_reports_it(library, command):
    # Python 3.11's Path.resolve raises RuntimeError on a loop: an internal error (exit 2,
    # "RuntimeError: Symlink loop from …"), where lint reports the link (IL107).
    incidents = library / "incidents"
    (incidents / "IL-0003.yaml").symlink_to("IL-0003.yaml")
    (incidents / "2024").symlink_to("2025")
    (incidents / "2025").symlink_to("2024")
    named = ["incidents/IL-0001.yaml", "incidents/IL-0003.yaml", "incidents/2024/IL-0004.yaml"]
    run = run_curator(command, "--format", "json", *named, cwd=library)
    assert run.code == 2, run
    assert [judged["input"] for judged in json.loads(run.out)] == ["incidents/IL-0001.yaml"]
    assert run.err.splitlines() == [
        "curator: incidents/IL-0003.yaml: not an incident file: a symbolic link: incidents "
        "are regular files, not followed (IL107)",
        "curator: incidents/2024/IL-0004.yaml: not an incident file: named through "
        "incidents/2024, a symbolic link, not followed: the library reads only the files "
        "directly in incidents/ (IL107)",
        "curator: 2 of 3 inputs not judged",
    ]


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


def committed_change(tmp_path: Path, added: dict[str, str]) -> Path:
    """A repository whose `main` holds IL-0001 and whose branch `change` adds `added`."""
    root = write_library(tmp_path / "repo", {"IL-0001.yaml": incident("IL-0001")})
    author = ["-c", "user.name=t", "-c", "user.email=t@t.invalid"]
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run(["git", "-C", str(root), *author, *args], check=True)
    subprocess.run(["git", "-C", str(root), "checkout", "-qb", "change"], check=True)
    for name, text in added.items():
        (root / "incidents" / name).write_text(text, encoding="utf-8")
    for args in (["add", "-A"], ["commit", "-qm", "add"]):
        subprocess.run(["git", "-C", str(root), *author, *args], check=True)
    return root


def test_review_does_not_wait_on_a_fifo_in_the_checkout(tmp_path):
    # git does not see a FIFO, so the checkout looks clean and review reads it in place.
    root = committed_change(tmp_path, {"IL-0002.yaml": incident("IL-0002")})
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


def test_a_cache_folder_that_is_a_link_is_not_followed(tmp_path):
    # A pull request can commit `.curator-cache` as a link (to `../../elsewhere`); the
    # review workflow runs curator on its checkout, which wrote the cache where it points.
    root = committed_change(tmp_path, {"IL-0002.yaml": UNFORMATTED})
    commands = [
        ["lint", "--format", "json"],
        ["fmt", "--check"],
        ["similar", "--all", "--format", "json"],
        ["review", "--base", "main", "--format", "json"],
        ["export", "--out"],
    ]

    def outputs(run: str) -> list[tuple[int, str, dict[str, bytes]]]:
        done = []
        for command in commands:
            out = tmp_path / f"export-{run}"
            result = run_curator(
                *command, *([str(out)] if command[0] == "export" else []), cwd=root
            )
            exported = {p.name: p.read_bytes() for p in out.glob("*") if p.is_file()}
            done.append((result.code, result.out.replace(str(out), "OUT"), exported))
        return done

    cached = outputs("cached")
    kept = {p.name.split("-")[0] for p in (root / ".curator-cache").iterdir()}
    assert {"lint", "fmt", "similarity", "export"} <= kept  # each command used the cache
    shutil.rmtree(root / ".curator-cache")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / ".curator-cache").symlink_to(Path("..") / "elsewhere")
    assert [code for code, _, _ in cached] == [0, 1, 0, 0, 0] and cached[-1][2]
    assert outputs("linked") == cached
    assert list(elsewhere.iterdir()) == []
    assert (root / ".curator-cache").is_symlink()


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


# Hostile contents ---------------------------------------------------------------------------

TITLE = "title: 공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다"


def hostile(number: int, *replacements: tuple[str, str], tail: str = "") -> str:
    return incident(f"IL-{number:04d}", *replacements) + tail


DEEP = hostile(105, tail="notes:\n" + "- " * 600 + "x\n")  # no bracket: libyaml recursed
FLOW = hostile(106, tail="notes: " + "[" * 2000 + "]" * 2000 + "\n")
# Where those brackets are refused depends on the libyaml build, the verdict does not:
# libyaml 0.2.6 refuses them while scanning ahead, at its own limit of 1,000 levels
# (28:1007); with 0.2.5 the loader stops them at MAX_DEPTH, 32 levels (28:39).
# Each alias is the anchored text again: 100 aliases to 1,000 characters read as 100,000.
BOMB = hostile(108, tail="notes: &n " + "x" * 1000 + "\nmore:\n" + "  - *n\n" * 100)
TAGGED = hostile(109, (TITLE, "title: !!python/object/apply:os.system [echo tagged]"))
NUL = hostile(102, ("  - 데이터를 로컬", "  - 데이터를\x00로컬"))  # after Korean text

# Contents neither `fmt` nor `fix` can rewrite, and where (line:column) the reading stops.
CANNOT_REWRITE = {
    "IL-0101.yaml": (("\ufeff" + hostile(101)).encode("utf-16-le"), "1:1"),
    "IL-0102.yaml": (NUL.encode(), "22:9"),
    "IL-0104.yaml": (hostile(104, (TITLE, 'title: "\\ud800 공유"')).encode(), "2:11"),
    "IL-0105.yaml": (DEEP.encode(), "29:63"),
    "IL-0106.yaml": (FLOW.encode(), ("28:39", "28:1007")),  # either, see FLOW
    "IL-0107.yaml": (hostile(107, ("title: ", "title: !incident ")).encode(), "2:8"),
    "IL-0108.yaml": (BOMB.encode(), "28:8"),  # at its anchor
    "IL-0109.yaml": (hostile(109, ("title: ", 'title: "')).encode(), "2:8"),  # (the quote)
    # One anchor on two keys: valid YAML, which ruamel warned of in seven lines of its own
    # source; an anchor is refused where it stands (IL105), as lint refuses it.
    "IL-0112.yaml": (hostile(112).replace("title:", "&t title:").encode(), "2:1"),
}
# Contents they read and refuse to rewrite: a BOM in a value, which ruamel writes only as
# the escape `\uFEFF` (it was written so; written YAML holds no escape its author did not).
# (`fix` removes it: IL606.)
REFUSED = {"IL-0113.yaml": (hostile(113, ("title: 공유", "title: 공\ufeff유")), "2:9")}
# Contents they may rewrite, keeping every value and comment.
REWRITABLE = {
    "IL-0111.yaml": hostile(111, tail="<<: {status: draft}\n"),  # never merged: a key
    "IL-0114.yaml": hostile(114, tail="# " + " " * 400_000 + "x\n"),  # spaces mid-line
    # Tabs in text (not in the title: white space around it is IL606's, and `fix` removes it)
    "IL-0115.yaml": hostile(
        115, ("  - 데이터를 로컬 디스크로 옮겼다.", '  - "' + "\t" * 5000 + '옮겼다"')
    ),
}


REWRITES = [(["fmt", "--check"], "format"), (["fmt"], "format"), (["fix", "--diff"], "fix")]


@pytest.mark.parametrize(("command", "verb"), [*REWRITES, (["fix"], "fix")])
def test_hostile_contents_are_refused_where_they_stop_or_rewritten_keeping_every_value(
    tmp_path, command, verb
):
    # `fix` took hours on a long run of spaces (a quadratic search), and minutes on tabs
    # in a value (a parse of the file for each).
    cannot = {name: raw for name, (raw, _) in CANNOT_REWRITE.items()}
    refused = {name: text for name, (text, _) in REFUSED.items()}
    files = {"IL-0002.yaml": UNFORMATTED, **cannot, **refused, **REWRITABLE}
    root = write_library(tmp_path / "lib", files)
    incidents = root / "incidents"
    run = run_curator(*command, "--root", str(root), timeout=60)
    assert run.code == 1, run
    for name, (raw, where) in CANNOT_REWRITE.items():
        stops = [where] if isinstance(where, str) else where
        said = [f"{shown(incidents / name)}:{at}: cannot {verb}: cannot be read (" for at in stops]
        assert any(line in run.err for line in said), (said, run.err)
        assert (incidents / name).read_bytes() == raw
    for name, (text, at) in REFUSED.items():
        after = (incidents / name).read_text(encoding="utf-8")
        if verb == "fix":
            said = f"{shown(incidents / name)}:{at}: IL606 removed 1 zero-width character(s)"
            assert said in run.out + run.err, run
            assert after == (text if "--diff" in command else text.replace("\ufeff", ""))
            continue
        said = f"{shown(incidents / name)}:{at}: cannot {verb}: holds U+FEFF, a byte-order mark"
        assert said in run.err, run.err
        assert after == text
    for name, text in REWRITABLE.items():
        assert load_bytes(text.encode()).document is not None, name  # (no refusal kept it)
        after = (incidents / name).read_text(encoding="utf-8")
        assert "\\u" not in after, name  # no escape the author did not write
        assert load_bytes(after.encode()).data == load_bytes(text.encode()).data, name
        assert comments(after) == comments(text), name
    assert "IL-0002.yaml" in run.out + run.err  # the run went on
    assert "Warning" not in run.err, run.err


JUDGEMENTS = [["similar", "--all"], ["suggest", "--all"], ["search", "스토리지"]]


@pytest.mark.parametrize("command", JUDGEMENTS)
def test_judgements_read_no_more_than_lint_does_and_go_on(tmp_path, command):
    # The fast loader of judgement expanded aliases (the bomb read as 100 times its size,
    # gigabytes for a file of a megabyte), recursed on block nesting (RecursionError,
    # exit 2) and read past tags: such files are no incident to lint (IL105), and none to
    # judge (judgement reads files with lint's own loader). `--all` names each of them, with
    # lint's reason, as it names any input it cannot judge.
    hostile_files = {"IL-0105.yaml": DEEP, "IL-0108.yaml": BOMB, "IL-0109.yaml": TAGGED}
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001"), **hostile_files})
    linted = run_curator("lint", "--root", str(root), "--format", "json", timeout=60)
    refused = {f["path"].rsplit("/", 1)[-1] for f in json.loads(linted.out) if f["code"] == "IL105"}
    assert refused == set(hostile_files), linted
    run = run_curator(*command, "--root", str(root), "--format", "json", timeout=60)
    report = json.loads(run.out)
    if command[0] == "search":
        assert run.code == 0, run
        assert [result["id"] for result in report["results"]] == ["IL-0001"]
    else:
        assert run.code == 2, run
        assert [judged["input"] for judged in report] == ["incidents/IL-0001.yaml"]
        named = [line for line in run.err.splitlines() if "lists every problem" in line]
        assert [n for name in hostile_files for n in named if name in n] == named, run.err
        assert len(named) == 3 and run.err.endswith("curator: 3 of 4 inputs not judged\n")


# 200,000 pairs of accents out of canonical order (800 KB): CPython puts a run of combining
# marks in order with an insertion sort, in time the square of its length.
ACCENTS = hostile(116, ("title: 공유", "title: a" + "\u0301\u0323" * 200_000 + " 공유"))


def test_a_long_run_of_accents_costs_its_length_not_its_square(tmp_path):
    # lint took minutes on it (IL605 normalised the line), `similar` and `search` as long
    # (their index normalises every text), and `fix` would have.
    files = {"IL-0001.yaml": incident("IL-0001"), "IL-0116.yaml": ACCENTS}
    root = write_library(tmp_path / "lib", files)
    path = root / "incidents" / "IL-0116.yaml"
    lint = run_curator("lint", "--root", str(root), "--no-cache", "--format", "json", timeout=60)
    found = [(f["line"], f["column"], f["code"], f["fixable"]) for f in json.loads(lint.out)]
    assert found == [(2, 8, "IL605", False)], lint  # not fixable: `fix` leaves such a run
    fix = run_curator("fix", "--root", str(root), timeout=60)
    assert fix.code == 1, fix
    assert f"{shown(path)}:2:9: cannot fix: more than 30 combining marks in a row" in fix.err
    assert path.read_text(encoding="utf-8") == ACCENTS
    for command in JUDGEMENTS:
        run = run_curator(*command, "--root", str(root), "--format", "json", timeout=60)
        assert run.code == 0, run
        report = json.loads(run.out)
        judged = report["results"] if command[0] == "search" else report
        assert len(judged) == 2, (command, judged)


# A word of 100,000 capitals that no name pattern ends (the `_`), and a line of 100,000
# capitalised words: entities tried three overlapping runs of letters on the first (in time
# the cube of its length: hours for 10 KB) and read the whole line again for each word of
# the second (the square).
CAPITALS = hostile(117, (TITLE, 'title: "' + "A" * 100_000 + '_ 공유 스토리지"'))
WORDS = hostile(118, ("lessons: |\n", "lessons: |\n  " + "Abc " * 100_000 + "\n"))


@pytest.mark.parametrize("command", JUDGEMENTS)
def test_names_in_a_long_line_cost_its_length_not_its_square(tmp_path, command):
    files = {"IL-0001.yaml": incident("IL-0001"), "IL-0117.yaml": CAPITALS, "IL-0118.yaml": WORDS}
    root = write_library(tmp_path / "lib", files)
    run = run_curator(*command, "--root", str(root), "--format", "json", timeout=60)
    assert run.code == 0, run
    report = json.loads(run.out)
    judged = report["results"] if command[0] == "search" else report
    assert len(judged) == 3, (command, judged)
    entities = run_curator("search", "Abc", "--root", str(root), "--format", "json", timeout=60)
    reasons = {r["id"]: r["reasons"] for r in json.loads(entities.out)["results"]}
    assert "mentions abc" in reasons["IL-0118"], reasons  # the words are still names


# 100,000 list items, each line ending in a tab (IL601 and IL602), half of them with a tab
# inside the value too: each finding looked through every value of the file for its place
# (lint took 21 s on 100 KB of them, half an hour on a megabyte).
TABS = hostile(119, ("actions:\n", "actions:\n" + '  - a\t\n  - "a\tb"\n' * 50_000))


def test_a_finding_on_every_line_costs_the_lines_not_their_square(tmp_path):
    root = write_library(tmp_path / "lib", {"IL-0119.yaml": TABS})
    run = run_curator("lint", "--root", str(root), "--no-cache", "--format", "json", timeout=60)
    assert run.code == 1, run
    found = Counter((f["code"], f["fixable"]) for f in json.loads(run.out))
    # The tab after a value is fixable, the one inside a value is not (it is text); and
    # each item, with no Korean in it, is told so (IL404).
    assert found == {
        ("IL601", True): 50_000,
        ("IL601", False): 50_000,
        ("IL602", True): 50_000,
        ("IL404", False): 100_000,
    }


# A placeholder, then 400,000 spaces, then text (IL402): two runs of white space one beside
# the other in its pattern were tried at every split of the spaces (eight minutes).
LESSONS = "lessons: |\n  작은 규모 시험으로는 알 수 없었다.\n"
SPACED = {
    "IL-0120.yaml": hostile(120, (LESSONS, "lessons: TODO" + " " * 400_000 + "나중에 쓴다\n")),
    "IL-0121.yaml": hostile(121, (LESSONS, "lessons: TODO" + " " * 400_000 + ".\n")),
}


def test_a_long_run_of_spaces_after_a_placeholder_costs_its_length(tmp_path):
    root = write_library(tmp_path / "lib", SPACED)
    run = run_curator("lint", "--root", str(root), "--no-cache", "--format", "json", timeout=60)
    found = [(f["path"][-12:], f["line"], f["code"]) for f in json.loads(run.out)]
    assert found == [("IL-0121.yaml", 23, "IL402")], run  # text after the spaces: no placeholder


# Two files of 27,000 sources each citing one URL (IL502): each citation was compared with
# every other one (16 s for one megabyte of them, minutes for two).
# Of `fix` or `fmt` on a file of 40,000 to 80,000 lines: ruamel.yaml's parse alone takes
# 10-25 s here, and came near 60 s on a machine loaded by other work; a cost in the square
# of the sources or comments (4 to 7 x 10^8 steps) would take far longer. (lint, which
# needs no ruamel.yaml, keeps 60 s.)
REWRITE_TIMEOUT = 180
CITATION = "  - url: https://e.co/a\n    title: x\n"
CITING = {
    f"IL-{n:04d}.yaml": hostile(n, ("sources:\n", "sources:\n" + CITATION * 27_000))
    for n in (122, 123)
}


def test_a_url_cited_by_every_source_costs_the_citations_not_their_square(tmp_path):
    root = write_library(tmp_path / "lib", CITING)
    run = run_curator("lint", "--root", str(root), "--no-cache", "--format", "json", timeout=60)
    assert run.code == 1, run
    found = Counter((f["path"][-12:], f["code"], f["message"][:40]) for f in json.loads(run.out))
    assert found == {
        ("IL-0122.yaml", "IL502", "https://e.co/a is also cited by IL-0123;"): 27_000,
        ("IL-0123.yaml", "IL502", "https://e.co/a is also cited by IL-0122;"): 27_000,
        # And within each file, every source after the first repeats it (IL505).
        ("IL-0122.yaml", "IL505", "https://e.co/a is already a source at li"): 26_999,
        ("IL-0123.yaml", "IL505", "https://e.co/a is already a source at li"): 26_999,
    }
    # Each file's repeats are its own (IL505): one file is fixed as the other, and its parse
    # by ruamel.yaml, which `fix` needs and `lint` does not, costs most of the test.
    fixed = run_curator(
        "fix", "--root", str(root), "--check", str(root / "incidents" / "IL-0122.yaml"),
        timeout=REWRITE_TIMEOUT,
    )  # fmt: skip
    assert fixed.out.count(": removed, the same as sources[0]") == 26_999, fixed.err


def test_sources_repeating_one_url_with_other_titles_cost_their_number(tmp_path):
    # 20,000 sources of one URL, each with its own title, and the last listed twice: each
    # repeat was compared with every source above it by lint, and by fix made again for
    # each (hours).
    cited = "".join(f"  - url: https://e.co/a\n    title: x{n}\n" for n in range(20_000))
    cited += "  - url: https://e.co/a\n    title: x19999\n"
    files = {"IL-0126.yaml": hostile(126, ("sources:\n", "sources:\n" + cited))}
    root = write_library(tmp_path / "lib", files)
    run = run_curator("lint", "--root", str(root), "--no-cache", "--format", "json", timeout=60)
    found = Counter((f["code"], f["message"].split(", ")[-1]) for f in json.loads(run.out))
    assert found[("IL505", "whose title differs; merge the two into one")] == 19_999, found
    assert found[("IL505", "the same in every key; remove this one")] == 1, found
    fixed = run_curator("fix", "--root", str(root), "--check", timeout=REWRITE_TIMEOUT)
    assert fixed.out.count(": removed, the same as sources[19999]") == 1, fixed


# 15,000 comments above one line of 15,000 values, and 20,000 items under a comment in each
# of two keys that `fmt` puts in the other order: for each comment, `fmt` went through every
# node after it, and looked for its place among every comment of the same text (minutes).
OVER_ONE_LINE = hostile(
    124, ("actions:\n", "actions:\n" + "  #\n" * 15_000 + "  - [" + "a, " * 15_000 + "a]\n")
)
SWAPPED = (
    "zz:\n"
    + "  # c\n  - a\n" * 20_000
    + hostile(125, ("actions:\n", "actions:\n" + "  # c\n  - a\n" * 20_000))
)


def test_many_comments_cost_their_number_not_its_square(tmp_path):
    files = {"IL-0124.yaml": OVER_ONE_LINE, "IL-0125.yaml": SWAPPED}
    root = write_library(tmp_path / "lib", files)
    run = run_curator("fmt", "--root", str(root), timeout=REWRITE_TIMEOUT)
    assert run.code == 0, run
    for name, text in files.items():
        after = (root / "incidents" / name).read_text(encoding="utf-8")
        assert after != text, name
        assert load_bytes(after.encode()).data == load_bytes(text.encode()).data, name
        assert comments(after) == comments(text), name
    assert (
        (root / "incidents" / "IL-0125.yaml")
        .read_text(encoding="utf-8")
        .endswith("zz:\n" + "  # c\n  - a\n" * 20_000)
    )  # actions, a key of the model, comes first now, each comment still above its item


# A facet list of 40,000 items, two terms repeated (IL304, 0.9 MB): `fix` counted each
# item's repeats over the whole list, once per item (1,000 items 0.3 s, 8,000 14 s, a file
# near the size limit twelve minutes).
REPEATED_TERMS = hostile(
    126, ("    - capacity-limit\n", "    - software-defect\n    - capacity-limit\n" * 20_000)
)


def test_a_long_facet_list_is_tidied_in_its_length_not_its_square(tmp_path):
    root = write_library(tmp_path / "lib", {"IL-0126.yaml": REPEATED_TERMS})
    run = run_curator("fix", "--root", str(root), "--no-cache", timeout=REWRITE_TIMEOUT)
    assert run.code == 0, run
    assert "removed repeated capacity-limit, software-defect and sorted" in run.out, run
    after = load_bytes((root / "incidents" / "IL-0126.yaml").read_bytes()).data
    assert after["facets"]["causes"] == ["capacity-limit", "software-defect"]


def test_review_reports_each_hostile_file_where_it_stops_and_judges_the_rest(tmp_path):
    added = {"IL-0102.yaml": NUL, "IL-0105.yaml": DEEP, "IL-0108.yaml": BOMB}
    root = committed_change(tmp_path, {**added, "IL-0002.yaml": incident("IL-0002")})
    run = run_curator("review", "--base", "main", "--format", "json", cwd=root, timeout=60)
    assert run.code == 1, run
    files = {f["path"]: f for f in json.loads(run.out)["files"]}
    found = {
        path: [(x["code"], x["line"], x["column"]) for x in f["findings"]]
        for path, f in files.items()
    }
    assert found == {
        "incidents/IL-0002.yaml": [],
        "incidents/IL-0102.yaml": [("IL101", 22, 9)],
        "incidents/IL-0105.yaml": [("IL105", 29, 63)],
        "incidents/IL-0108.yaml": [("IL105", 28, 8)],
    }
    assert files["incidents/IL-0002.yaml"]["matches"][0]["id"] == "IL-0001"
    assert all(not files[f"incidents/{name}"]["matches"] for name in added)


@pytest.mark.parametrize("kind", ["fifo", "link"])
def test_a_taxonomy_file_that_is_not_a_regular_file_is_a_problem_not_a_wait(tmp_path, kind):
    # read_bytes() waited on a FIFO for ever, in every command (and read a link to
    # /dev/zero until the memory ran out); a link is not followed, as in incidents/.
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    causes = root / "schema" / "taxonomy" / "causes.yaml"
    if kind == "fifo":
        causes.unlink()
        os.mkfifo(causes)
    else:
        outside = causes.rename(tmp_path / "causes.yaml")
        causes.symlink_to(outside)
    why = "not a regular file" if kind == "fifo" else "a symbolic link, never followed"
    where = "schema/taxonomy/causes.yaml:1:1"
    lint = run_curator("lint", "--root", str(root), cwd=root, timeout=60)
    unchecked = (
        "none of its terms is known, so the causes of incidents are not checked (IL301) until "
        "it is fixed: 1 incident carries 1 term of it"
    )
    assert (
        lint.code == 1 and lint.out == f"{where}: IL303 [error] cannot read: {why}; {unchecked}\n"
    )
    source = "https://example.com/report"
    args = ("--title", "GPU 노드가 멈췄다", "--source", source, "--no-prompt")
    new = run_curator("new", "--root", str(root), *args, "--cause", "x", timeout=60)
    assert new.code == 2 and f"the taxonomy is broken: {where}: cannot read: {why}" in new.err
    search = run_curator("search", "스토리지", "--root", str(root), timeout=60)
    assert search.code == 0 and f"{where}: cannot read: {why}" in search.err, search
    assert "IL-0001" in search.out


# ESC ] 0 ; … BEL sets a terminal's title; ESC [ 31 m turns its text red.
ACTING_TITLE = 'title: "\\e]0;pwned\\a\\e[31m 공유 스토리지 포화\\n둘째 줄"'


@pytest.mark.parametrize("command", JUDGEMENTS)
def test_what_a_file_holds_reaches_the_terminal_as_one_line_of_text(tmp_path, command):
    # `search` printed a title's escape sequences as they were: a file could retitle the
    # terminal of whoever judged it, or start lines of its own in the output.
    incidents = {
        "IL-0001.yaml": incident("IL-0001"),
        "IL-0002.yaml": incident("IL-0002", (TITLE, ACTING_TITLE)),
    }
    root = write_library(tmp_path / "lib", incidents)
    run = run_curator(*command, "--root", str(root), cwd=root)
    assert run.code == 0, run
    assert "IL-0002" in run.out
    assert not [ch for ch in run.out if ch != "\n" and unicodedata.category(ch) == "Cc"]
    lines = run.out.splitlines()
    assert not any(line.startswith("둘째 줄") for line in lines), run.out


def test_a_file_with_more_findings_than_a_report_holds_is_reviewed_errors_first(tmp_path):
    # 6,000 trailing spaces (warnings) above 6,000 tabs (errors): 12,000 findings, more than
    # the 10,000 a report holds per file (its reader's bound). `review` ended in an internal
    # error (exit 2); now the errors are kept first and the rest counted.
    items = "  - 공백 \n" * 6000 + "  - 탭\t값\n" * 6000
    hostile_text = hostile(117, ("actions:\n", "actions:\n" + items))
    root = committed_change(tmp_path, {"IL-0117.yaml": hostile_text})
    out, summary = tmp_path / "review.json", tmp_path / "summary.md"
    env = {"GITHUB_STEP_SUMMARY": str(summary)}  # the full report (the comment is cut)
    args = ("--base", "main", "--format", "github", "--json-out", str(out))
    run = run_curator("review", *args, cwd=root, env=env, timeout=120)
    assert run.code == 1, run
    (file,) = [f for f in json.loads(out.read_text())["files"] if f["path"].endswith("0117.yaml")]
    codes = [finding["code"] for finding in file["findings"]]
    assert (len(codes), file["findings_omitted"]) == (10_000, 2_000)
    assert codes[:6000] == ["IL601"] * 6000 and set(codes[6000:]) == {"IL602"}
    said = "… and 2,000 more findings, not in this report: `curator lint incidents/IL-0117.yaml`"
    assert said in summary.read_text(encoding="utf-8")


def many_aliases(root: Path, terms: int) -> None:
    """`terms` more components, each with ten aliases of two Korean words, all of them
    beginning with 처리, as 처리량 does."""
    syllables = [chr(0xAC00 + 37 * n) for n in range(300)]
    lines = []
    for n in range(terms):
        lines += [f"  - id: scale-{n}", "    label:", f"      ko: 처리{n}", f"      en: scale {n}"]
        lines += ["    description: 규모 시험.", "    aliases:"]
        for k in range(10):
            a, b, c = (syllables[(n * 10 + k) // 300**i % 300] for i in range(3))
            lines.append(f"      - 처리{a}{b} {c}{a}")
    path = root / "schema" / "taxonomy" / "components.yaml"
    with path.open("a", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")


# 10,000 unknown components in one file, and a text where 처리 begins 25,000 words (700 KB).
COMPONENTS = sorted(["nccl", "scale-7x", *(f"unknown-{n}" for n in range(10_000))])
MANY_UNKNOWN = hostile(126, ("    - nccl\n", "".join(f"    - {term}\n" for term in COMPONENTS)))
MANY_WORDS = hostile(
    127, ("lessons: |\n  작은", "lessons: |\n  " + "처리량이 떨어졌다. " * 25_000 + "작은")
)


def test_a_taxonomy_of_many_aliases_costs_their_number_not_its_square(tmp_path):
    # With 10,000 aliases, lint compared each unknown term with every name of its dimension
    # (difflib), and `suggest` each word beginning with 처 with every alias beginning with
    # it: minutes each (58 s and 96 s for 2,000 unknown terms and 10,000 words, in
    # proportion to the aliases). Now a name is compared only if it may be close, an alias
    # word only if the text word begins with it: seconds.
    files = {"IL-0126.yaml": MANY_UNKNOWN, "IL-0127.yaml": MANY_WORDS}
    root = write_library(tmp_path / "lib", files)
    many_aliases(root, 1000)
    lint = run_curator("lint", "--root", str(root), "--no-cache", "--format", "json", timeout=60)
    assert lint.code == 1, lint
    found = json.loads(lint.out)
    assert Counter(f["code"] for f in found) == {"IL301": 10_001}, lint
    assert found[0]["message"] == "'scale-7x' is not a term of components; did you mean 'scale-7'?"
    suggest = run_curator("suggest", "--all", "--root", str(root), "--format", "json", timeout=60)
    assert suggest.code == 0, suggest
    missing = {
        report["input"][-12:]: {s["term"] for s in report["facets"]["components"]["missing"]}
        for report in json.loads(suggest.out)
    }
    shared = {"shared-network-filesystem"}  # the title's 공유 스토리지
    assert missing == {"IL-0126.yaml": shared, "IL-0127.yaml": shared}


def _lint_codes(library: Path) -> dict[str, list[tuple[str, str]]]:
    """`curator lint`'s findings (in this process, no cache), (code, message) by file name."""
    found: dict[str, list[tuple[str, str]]] = {}
    for f in lint(Library.at(library), cwd=library):
        found.setdefault(Path(f.path).name, []).append((f.code, f.message))
    return found


@pytest.mark.parametrize(
    ("error", "shown_as"),
    [
        (OSError(errno.EIO, "Input/output error"), "Input/output error"),
        (OSError("the disk went away"), "the disk went away"),  # no strerror: the error
    ],
)
def test_lint_reports_a_file_that_fails_to_read_and_checks_the_others(
    library, monkeypatch, error, shown_as
):
    # A regular file whose read fails (EIO): root reads any file, so the failure is made.
    broken = str(library / "incidents" / "IL-0001.yaml")
    real_read = engine._read  # how `check_file` reads a file

    def read(path: str, size: int) -> bytes:
        if path == broken:
            raise error
        return real_read(path, size)

    monkeypatch.setattr(engine, "_read", read)
    found = _lint_codes(library)
    assert found["IL-0001.yaml"] == [("IL107", f"cannot read the file: {shown_as}")]
    assert "IL-0002.yaml" in found  # the run went on: its own findings are there


def test_lint_reports_a_folder_in_incidents_it_cannot_list(library, monkeypatch):
    # Taken as empty: a folder of incidents/ root could not list passed in silence. (Root
    # lists any folder, so the refusal is made.)
    incidents = library / "incidents"
    denied = {str(incidents / "2024"), str(incidents / "archive" / "05")}
    for folder in denied:
        os.makedirs(folder)
        Path(folder, "IL-0009.yaml").write_text(incident("IL-0001"), encoding="utf-8")
    real_scandir = os.scandir

    def scandir(path: str) -> object:
        if os.fspath(path).rstrip(os.sep) in denied:
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    found = _lint_codes(library)
    assert found.get("2024") == [
        (
            "IL107",
            "a folder that cannot be listed: Permission denied; what it holds is never checked",
        )
    ]
    assert found.get("archive") == [
        (
            "IL107",
            "a folder holding what may be incidents (05 (a folder that cannot be listed: "
            "Permission denied)): the library reads only the files directly in incidents/",
        )
    ]
    assert "IL-0002.yaml" in found  # the run went on: its own findings are there


def denied_to_the_user(monkeypatch: pytest.MonkeyPatch, *folders: Path) -> None:
    """`folders` as a user other than root sees them after `chmod 000`: each can be looked
    at, not read (`os.access`), not listed, and nothing in it can be looked at or opened.
    (Root may do all that, so the refusals are made.)"""
    denied = tuple(map(str, folders))
    inside = tuple(folder + os.sep for folder in denied)

    def refusing(real: Any, refused: Callable[[str], bool]) -> Any:
        def call(path: Any, *args: Any, **kwargs: Any) -> Any:
            if not isinstance(path, int) and refused(os.path.abspath(path)):
                raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
            return real(path, *args, **kwargs)

        return call

    def within(path: str) -> bool:
        return path.startswith(inside)

    def itself_or_within(path: str) -> bool:
        return path in denied or within(path)

    for name in ("stat", "lstat", "open"):
        monkeypatch.setattr(os, name, refusing(getattr(os, name), within))
    for name in ("listdir", "scandir"):
        monkeypatch.setattr(os, name, refusing(getattr(os, name), itself_or_within))
    real_access = os.access

    def access(path: Any, mode: int, **kwargs: Any) -> bool:
        return not itself_or_within(os.path.abspath(path)) and real_access(path, mode, **kwargs)

    monkeypatch.setattr(os, "access", access)


def _cli(*args: str) -> tuple[int, list[tuple[str, str, str]]]:
    """Exit code and JSON findings (path, code, message) of `curator lint ARGS`, run here."""
    result = CliRunner().invoke(main, ["lint", "--no-cache", "--format", "json", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    if result.exit_code == 2:
        return 2, [("", "", result.output)]
    return result.exit_code, [
        (f["path"], f["code"], f["message"]) for f in json.loads(result.stdout)
    ]


def test_a_folder_that_cannot_be_listed_is_reported_alike_named_or_found(library, monkeypatch):
    # Named, it was a usage error (click's "Path 'incidents/2024' is not readable", exit 2),
    # and a file in it "no such file", where the whole library's lint reports the folder.
    denied = library / "incidents" / "2024"
    outside = library.parent / "drafts"
    for folder in (denied, outside):
        folder.mkdir()
        (folder / "IL-0009.yaml").write_text(incident("IL-0001"), encoding="utf-8")
    denied_to_the_user(monkeypatch, denied, outside)
    monkeypatch.chdir(library)
    listed = (
        "incidents/2024",
        "IL107",
        "a folder that cannot be listed: Permission denied; what it holds is never checked",
    )
    code, whole = _cli()
    assert (code, [f for f in whole if f[0] == "incidents/2024"]) == (1, [listed])
    assert _cli("incidents/2024") == (1, [listed])
    in_a_subfolder = (
        "in a subfolder of incidents/: the library reads only the files directly in incidents/"
    )
    assert _cli("incidents/2024/IL-0009.yaml") == (
        1,
        [("incidents/2024/IL-0009.yaml", "IL107", in_a_subfolder)],
    )
    formatted = CliRunner().invoke(main, ["fmt", "--check", "incidents/2024"])
    assert formatted.exit_code == 1
    assert f"incidents/2024:1:1: cannot format: {listed[2]} (IL107)" in formatted.stderr
    # Outside the library, as a file named that cannot be read is.
    assert _cli("../drafts") == (1, [("../drafts", *listed[1:])])
    unread = "cannot read the file: Permission denied"
    assert _cli("../drafts/IL-0009.yaml") == (1, [("../drafts/IL-0009.yaml", "IL107", unread)])


@pytest.mark.parametrize("command", ["similar", "suggest"])
def test_similar_and_suggest_judge_the_others_and_say_what_cannot_be_read_as_lint_does(
    library, monkeypatch, command
):
    # click checked that each PATH could be read: a usage error (`Path 'incidents/2024' is
    # not readable`, `… does not exist` for the others) before anything was judged, where
    # lint reports each as IL107 and checks the rest.
    denied = library / "incidents" / "2024"
    denied.mkdir()
    (denied / "IL-0009.yaml").write_text(incident("IL-0009"), encoding="utf-8")
    (library / "incidents" / "IL-0003.yaml").symlink_to("gone.yaml")
    (library / "incidents" / "2025").symlink_to(library.parent)  # (IL-0009.yaml is not there)
    denied_to_the_user(monkeypatch, denied)
    monkeypatch.chdir(library)
    named = [
        "incidents/2024",
        "incidents/2024/IL-0009.yaml",
        "incidents/IL-0003.yaml",
        "incidents/2025/lib/incidents/IL-0002.yaml",
        "incidents/2025/IL-0009.yaml",
    ]
    result = CliRunner().invoke(
        main, [command, "--format", "json", "incidents/IL-0001.yaml", *named]
    )
    assert result.exit_code == 2, result.output
    assert [judged["input"] for judged in json.loads(result.stdout)] == ["incidents/IL-0001.yaml"]
    assert result.stderr.splitlines() == [
        "curator: incidents/2024: not an incident file: a folder that cannot be listed: "
        "Permission denied; what it holds is never checked (IL107)",
        "curator: incidents/2024/IL-0009.yaml: not an incident file: cannot read the file: "
        "Permission denied (IL107)",
        "curator: incidents/IL-0003.yaml: not an incident file: a symbolic link: incidents "
        "are regular files, not followed (IL107)",
        *(
            f"curator: incidents/2025/{name}: not an incident file: named through "
            "incidents/2025, a symbolic link, not followed: the library reads only the files "
            "directly in incidents/ (IL107)"
            for name in ("lib/incidents/IL-0002.yaml", "IL-0009.yaml")
        ),
        "curator: 5 of 6 inputs not judged",
    ]


def test_lint_reports_a_file_removed_while_it_runs_and_checks_the_others(library, monkeypatch):
    # Listed, then gone before it is checked (a `git checkout` in another terminal).
    gone = library / "incidents" / "IL-0001.yaml"
    listed = Library.incident_names

    def names_then_remove(self: Library) -> list[str]:
        names = listed(self)
        gone.unlink(missing_ok=True)
        return names

    monkeypatch.setattr(Library, "incident_names", names_then_remove)
    found = _lint_codes(library)
    assert found["IL-0001.yaml"] == [("IL107", "removed while curator was checking the library")]
    assert "IL-0002.yaml" in found


def test_a_rule_that_crashes_on_a_file_is_a_finding_there_and_never_kept_in_the_cache(
    library, monkeypatch
):
    # IL001: a bug in curator must not stop the run, must say where it happened, and once
    # it is fixed the file must be checked again, not answered from the cache.
    rule = FILE_RULES[0]
    check = rule.check

    def check_or_crash(file):  # the bug: on one file only
        if Path(file.path).name == "IL-0001.yaml":
            raise ZeroDivisionError("a bug in a rule")
        return check(file)

    def of(path: str, cache: bool = True) -> list[tuple[str, str]]:
        found = lint(Library.at(library), cwd=library, cache=cache)
        return [(f.code, f.message) for f in found if f.path == path]

    clean = of("incidents/IL-0002.yaml", cache=False)
    assert clean  # (UNFORMATTED has findings of its own: the run must still give them)
    with monkeypatch.context() as patched:
        patched.setattr(rule, "check", check_or_crash)
        [(code, message)] = of("incidents/IL-0001.yaml")
        assert of("incidents/IL-0002.yaml") == clean
    assert code == "IL001"
    assert message.startswith("curator failed on this file (ZeroDivisionError: a bug in a rule")
    assert re.search(r" at test_hostile_files\.py:\d+\); please report this$", message), message
    assert of("incidents/IL-0001.yaml") == []  # the bug fixed: checked again, and clean
