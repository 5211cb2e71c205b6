"""A file of incidents/ named in another case than the library lists it under.

On macOS and Windows the file system matches names without regard to case:
`incidents/il-0001.yaml` opens `IL-0001.yaml`, the folder lists only `IL-0001.yaml`, and
`realpath` keeps the case typed. Linux is emulated: `il-0001.yaml` is a hard link to
`IL-0001.yaml`, left out of the listing of incidents/ (`os.listdir`, which curator lists it
with) in the curator run as a case-insensitive file system would leave it out.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import Run, ended, run_curator, start_python, write_library

from curator.fmt import incident_files
from curator.library import Library
from incidents import incident

# The real CLI, with the names in $UNLISTED left out of every listing of a folder.
_IGNORING_CASE = """
import os
unlisted = set(os.environ["UNLISTED"].split(os.pathsep))
listdir = os.listdir
os.listdir = lambda folder=".": [n for n in listdir(folder) if n not in unlisted]
from curator.__main__ import main
main()
"""


@pytest.fixture
def library(tmp_path: Path) -> Path:
    root = write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": incident("IL-0001"),
            "IL-0002.yaml": incident("IL-0002", ("Storage postmortem", "Storage report")),
        },
    )
    os.link(root / "incidents" / "IL-0001.yaml", root / "incidents" / "il-0001.yaml")
    return root


def ignoring_case(library: Path, *args: str) -> Run:
    """`curator ARGS` in `library`, on the file system emulated (`il-0001.yaml` unlisted)."""
    process = start_python(
        "-c", _IGNORING_CASE, *args, cwd=library, env={"UNLISTED": "il-0001.yaml"}
    )
    return ended(process)


def test_lint_of_a_file_named_in_another_case_is_lint_of_the_listed_file(library):
    # It reported IL203 (rename il-0001.yaml to IL-0001.yaml, the name it has), IL204 and
    # IL502 against incidents/IL-0001.yaml: the file was checked beside itself.
    listed = ignoring_case(library, "lint", "--format", "json", "incidents/IL-0001.yaml")
    typed = ignoring_case(library, "lint", "--format", "json", "incidents/il-0001.yaml")
    assert (typed.code, json.loads(typed.out)) == (listed.code, json.loads(listed.out)) == (0, [])
    both = ignoring_case(library, "lint", "incidents/il-0001.yaml", "incidents/IL-0001.yaml")
    assert "0 errors, 0 warnings in 1 file checked" in both.err, both


@pytest.mark.parametrize("unlisted", [False, True])
def test_two_files_differing_in_case_are_two_files(library, unlisted):
    # Linux lists both; and a file left out of the listing that is not the listed one
    # (`os.path.samefile`) is not taken for it. One id in two files, each named where the
    # other is.
    typed = library / "incidents" / "il-0001.yaml"
    typed.unlink()
    typed.write_text(incident("IL-0001"), encoding="utf-8")
    args = ("lint", "--format", "json", "incidents/il-0001.yaml")
    run = ignoring_case(library, *args) if unlisted else run_curator(*args, cwd=library)
    assert run.code == 1
    assert {(f["path"], f["code"]) for f in json.loads(run.out)} >= {
        ("incidents/il-0001.yaml", "IL203"),
        ("incidents/il-0001.yaml", "IL204"),
    }


def test_similar_does_not_match_a_file_named_in_another_case_with_itself(library):
    # IL-0001 was its own duplicate, at 1.0.
    run = ignoring_case(library, "similar", "--format", "json", "incidents/il-0001.yaml")
    assert run.code == 0, run.err
    [judged] = json.loads(run.out)
    assert (judged["input"], judged["id"]) == ("incidents/IL-0001.yaml", "IL-0001")
    assert [match["id"] for match in judged["matches"]] == ["IL-0002"]


def test_suggest_does_not_take_a_file_named_in_another_case_for_a_similar_incident(library):
    # Its own facets were supported by "a similar incident", itself.
    typed = ignoring_case(library, "suggest", "--format", "json", "incidents/il-0001.yaml")
    listed = ignoring_case(library, "suggest", "--format", "json", "incidents/IL-0001.yaml")
    assert typed.code == 0, typed.err
    assert json.loads(typed.out) == json.loads(listed.out)


@pytest.mark.parametrize(("command", "verb"), [("fmt", "format"), ("fix", "fix")])
def test_fmt_and_fix_name_a_file_named_in_another_case_as_listed(library, command, verb):
    # They named, and would have rewritten, il-0001.yaml. (The emulation's hard link is
    # refused, as a rewrite would leave it with the old bytes.)
    listed = library / "incidents" / "IL-0001.yaml"
    listed.write_bytes(listed.read_bytes().replace(b"status: published", b"status: published "))
    run = ignoring_case(library, command, "incidents/il-0001.yaml")
    assert run.code == 1, run.err
    assert run.err.startswith(f"incidents/IL-0001.yaml:1:1: cannot {verb}: the file has 2 hard")


def test_fmt_and_fix_rewrite_a_file_named_in_another_case_under_its_listed_name(
    library, monkeypatch
):
    unlisted = os.listdir
    monkeypatch.setattr(os, "listdir", lambda f: [n for n in unlisted(f) if n != "il-0001.yaml"])
    files, others = incident_files(Library.at(library), [library / "incidents" / "il-0001.yaml"])
    assert (files, others) == ([library / "incidents" / "IL-0001.yaml"], [])


def test_names_spelt_as_curator_writes_them_are_taken_as_listed_without_listing(
    library, monkeypatch
):
    # The hooks name such files a few at a time: listing 100,000 names for them cost fmt
    # ≈0.08 s a commit. A name in another case is looked up in the listing, as above.
    listed: list[str] = []
    names = Library.incident_names
    monkeypatch.setattr(Library, "incident_names", lambda self: listed.append("x") or names(self))
    folder = library / "incidents"
    new = write_library(library.parent / "more", {"IL-NEW-nfs-hang.yaml": incident("IL-NEW-x")})
    files, _ = incident_files(
        Library.at(library), [folder / "IL-0001.yaml", folder / "IL-0002.yaml"]
    )
    assert (files, listed) == ([folder / "IL-0001.yaml", folder / "IL-0002.yaml"], [])
    drafts, _ = incident_files(Library.at(new), [new / "incidents" / "IL-NEW-nfs-hang.yaml"])
    assert (drafts, listed) == ([new / "incidents" / "IL-NEW-nfs-hang.yaml"], [])
    incident_files(Library.at(library), [folder / "il-0001.yaml"])
    assert listed != []
