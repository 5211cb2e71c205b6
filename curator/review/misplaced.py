"""Incidents a change puts outside incidents/ (IL107): lint reads only the library, so such a
file is checked by nothing, and the review would otherwise pass it in silence. (The
pre-commit hook, `curator lint --commit`, reports them too.) So is one it puts in
incidents/ hidden, which lint passes over as it does an editor's files.

A changed file looks like an incident when its name is an incident id, in any case, with
any extension but those of notes and media (`IL-NEW-slug.yaml`, `IL-0137.yml`,
`IL-0140.json`, `IL-0140.yaml.txt`; not `IL-0140.md` nor `docs/img/IL-0140.png`:
`named_like_an_incident`), or when it is a `.yaml`/`.yml` file (in any case) with top-level
`id:` and `title:` lines (one `git grep` over the commit), as `curator lint --commit` tells
it.
Files under tests/, examples/, benchmarks/, schema/ and hidden folders hold incidents on
purpose (fixtures, samples) or none, and hidden files none: they are not looked at.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from curator.findings import Finding
from curator.library import meant_as_incident
from curator.review import git
from curator.review.git import FileChange
from curator.review.model import FileReview, ReportFinding
from curator.rules import not_an_incident_file
from curator.rules.not_an_incident_file import SHAPED, may_be_incident, named_like_an_incident

# Bounds for a change of any size: the files whose text is searched (their paths are the
# arguments of one git command, which the system limits to some hundred kB in all) and
# the files reported (one is enough to fail the review).
MAX_SEARCHED = 500
MAX_SEARCHED_BYTES = 64 * 1024
MAX_REPORTED = 100


def misplaced_incidents(repo: Path, base: str, head: str, incidents: str) -> list[FileReview]:
    """The files added, edited or renamed from `base` to `head` that look like incidents
    but are not in `incidents` (the library's folder, repository-relative), each with its
    IL107 error; at most MAX_REPORTED."""
    changes = [
        c
        for c in git.changed_files(repo, base, head)
        if c.change != "removed" and may_be_incident(c.path, incidents)
    ]
    unnamed = [c.path for c in changes if not named_like_an_incident(c.path)]
    shaped = git.holding_lines(repo, head, _searched(unnamed), *SHAPED)
    found = [c for c in changes if named_like_an_incident(c.path) or c.path in shaped]
    return [_reviewed(c, incidents) for c in found[:MAX_REPORTED]]


def hidden_in_incidents(path: str, incidents: str) -> Finding | None:
    """IL107 for a `.yaml`/`.yml` file at `path` (repository-relative) hidden in
    `incidents`, or in a hidden folder there, which lint passes over without a word: a
    change that puts an incident there would otherwise pass the review in silence. Other
    hidden files (`.gitkeep`) are no incidents; None for them and for every other path."""
    if not path.startswith(incidents + "/") or not path.lower().endswith((".yaml", ".yml")):
        return None
    *folders, name = PurePosixPath(path[len(incidents) + 1 :]).parts
    in_a_folder = any(part.startswith(".") for part in folders)
    if not (in_a_folder or name.startswith(".")):
        return None
    return not_an_incident_file.hidden_in_incidents(path, in_a_folder)


def in_a_subfolder(path: str, incidents: str) -> Finding | None:
    """IL107 for a file at `path` (repository-relative) in a subfolder of `incidents`
    that lint's run over the library reports only by the entry of `incidents` holding it
    (`incidents/2024`: "a folder holding what may be incidents"; `incidents/IL-0009.yaml`:
    "a folder"): a file meant as an incident, or any file in a folder named like one.
    Hidden ones are `hidden_in_incidents`'; None for them and for every other path."""
    if not path.startswith(incidents + "/"):
        return None
    *folders, name = PurePosixPath(path[len(incidents) + 1 :]).parts
    if not folders or any(part.startswith(".") for part in (*folders, name)):
        return None
    if not (meant_as_incident(name) or meant_as_incident(folders[0])):
        return None
    return not_an_incident_file.in_a_subfolder(path)


def entry_holding(path: str, incidents: str) -> str:
    """The entry of `incidents` (repository-relative) that holds `path`, a file in a
    subfolder of it: the path of lint's finding for that subfolder."""
    return f"{incidents}/{PurePosixPath(path[len(incidents) + 1 :]).parts[0]}"


def _searched(paths: list[str]) -> list[str]:
    """The first of `paths`, within MAX_SEARCHED files and MAX_SEARCHED_BYTES of names."""
    kept: list[str] = []
    size = 0
    for path in paths[:MAX_SEARCHED]:
        size += len(path.encode("utf-8", "surrogateescape")) + 1
        if size > MAX_SEARCHED_BYTES:
            break
        kept.append(path)
    return kept


def _reviewed(change: FileChange, incidents: str) -> FileReview:
    finding = not_an_incident_file.outside_incidents(change.path, incidents)
    return FileReview(
        path=change.path,
        change=change.change,
        old_path=change.old_path,
        findings=[ReportFinding.of(finding)],
    )
