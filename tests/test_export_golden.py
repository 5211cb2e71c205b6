"""The export's bytes, pinned: what downstream tools read must not change by accident.

A small fixed library (tests/data/export-golden/: its own taxonomy, so that the real one can
grow freely) is committed at fixed times and exported; every file must equal its copy in
tests/snapshots/export/. An intended change to the format is a versioned decision
(docs/export.md): make it, bump `schema_version` as the change requires, then rewrite the
copies with `UPDATE_SNAPSHOTS=1 python -m pytest tests/test_export_golden.py` and read
their diff.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from conftest import DATA, committed_at, run_curator

GOLDEN = DATA / "export-golden"
SNAPSHOT = Path(__file__).parent / "snapshots" / "export"


def git(root: Path, *args: str, when: str) -> None:
    # Commit ids are part of the export: no hook or setting of this machine may change them.
    env = {**committed_at(when), "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    command = ["git", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false", *args]
    subprocess.run(command, cwd=root, env=env, capture_output=True, check=True)


def commit(root: Path, incidents: Path, when: str, tag: str) -> None:
    shutil.copytree(incidents, root / "incidents", dirs_exist_ok=True)
    git(root, "add", "-A", when=when)
    git(root, "commit", "-q", "-m", tag, when=when)
    git(root, "tag", tag, when=when)


def files_of(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def golden_library(root: Path) -> Path:
    """The fixed library, committed at fixed times: v1.0.0, two published incidents, a
    withdrawn duplicate, a draft; v1.1.0 changes one title and adds an incident (a CSV
    formula guard, two organisations, `related`)."""
    shutil.copytree(GOLDEN / "schema", root / "schema")
    git(root, "init", "-q", "-b", "main", when="2024-01-01T00:00:00")
    commit(root, GOLDEN / "incidents-1", "2024-05-20T09:30:00", "v1.0.0")
    commit(root, GOLDEN / "incidents-2", "2024-07-01T12:00:00", "v1.1.0")
    return root


def test_the_export_of_a_fixed_library_is_byte_for_byte_its_snapshot(tmp_path):
    root = golden_library(tmp_path / "lib")
    out = tmp_path / "export"
    run = run_curator("export", "--root", str(root), "--out", str(out), "--no-cache")
    assert run.code == 0, run
    exported = files_of(out)
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        shutil.rmtree(SNAPSHOT, ignore_errors=True)
        shutil.copytree(out, SNAPSHOT)
    pinned = files_of(SNAPSHOT)
    assert sorted(exported) == sorted(pinned), "files added or gone (UPDATE_SNAPSHOTS=1)"
    for path, data in exported.items():
        assert data == pinned[path], f"{path} differs from its snapshot (UPDATE_SNAPSHOTS=1)"
