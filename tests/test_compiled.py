"""The compiled build (setup.py, `CURATOR_COMPILE=1`): the same program, only faster.

mypyc compiles the modules setup.py names from their source, and each compiled module is
imported instead of its source. Built here once (about a minute), then held to the pure
build: every module named is the compiled one, and lint (every finding and its place),
`fmt --check` and export (every file, byte for byte, with worker processes) give what the
pure build gives, on a synthetic library with a defect for every rule, on the bundled
library and on the pinned export.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, Run, run_curator
from synthetic import expected_findings, synthetic_library
from test_export_golden import SNAPSHOT, files_of, git, golden_library


def _compiled_list() -> list[str]:
    spec = importlib.util.spec_from_file_location("curator_setup", REPO / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # (setup() runs only as a script)
    return list(module.COMPILED)


def compiled_module_names() -> list[str]:
    """The dotted names of the modules setup.py compiles (a folder: each of its modules)."""
    names = []
    for entry in _compiled_list():
        files = sorted((REPO / entry).glob("*.py")) if entry.endswith("/") else [REPO / entry]
        for file in files:
            parts = file.relative_to(REPO).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the source with its compiled modules built beside it, in place."""
    build = tmp_path_factory.mktemp("compiled")
    junk = shutil.ignore_patterns("__pycache__", "*.so")
    shutil.copytree(REPO / "curator", build / "curator", ignore=junk)
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(REPO / name, build / name)
    command = [sys.executable, "setup.py", "-q", "build_ext", "--inplace"]
    env = {**os.environ, "CURATOR_COMPILE": "1"}
    done = subprocess.run(command, cwd=build, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return build


def both(compiled: Path, workdir: Path, *args: str) -> tuple[Run, Run]:
    """`curator ARGS` run from the pure source and from the compiled build, each from
    `workdir` (never the repository, whose `curator/` would come first on sys.path)."""
    pure = run_curator(*args, cwd=workdir, env={"PYTHONPATH": str(REPO)})
    fast = run_curator(*args, cwd=workdir, env={"PYTHONPATH": str(compiled)})
    return pure, fast


def test_every_module_setup_names_is_imported_compiled(compiled, tmp_path):
    names = compiled_module_names()
    assert "curator.load_canonical" in names and "curator.rules.schema" in names
    script = "import importlib, json, sys; print(json.dumps({n: importlib.import_module(n)"
    script += ".__file__ for n in sys.argv[1:]}))"
    done = subprocess.run(
        [sys.executable, "-c", script, *names],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(compiled)},
        capture_output=True,
        text=True,
        check=True,
    )
    files = json.loads(done.stdout)
    source = [name for name, file in files.items() if not file.endswith(".so")]
    assert source == [], f"imported from source, not compiled: {source}"
    assert all(Path(file).is_relative_to(compiled) for file in files.values())


def test_lint_and_fmt_find_the_same_in_both_builds(compiled, tmp_path):
    library, manifest = synthetic_library(tmp_path / "lib", count=300, seed=11)
    lint = ("lint", "--root", str(library), "--format", "json", "--no-cache", "--jobs", "2")
    pure, fast = both(compiled, library, *lint)
    assert (fast.code, fast.out) == (pure.code, pure.out)
    found = {(f["path"], f["line"], f["column"], f["code"]) for f in json.loads(fast.out)}
    assert found == expected_findings(manifest)  # (a defect for every rule, all found)
    pure, fast = both(compiled, library, "fmt", "--check", "--root", str(library))
    assert (fast.code, fast.out, fast.err) == (pure.code, pure.out, pure.err)
    assert fast.code == 1  # (the library holds files out of the canonical layout)
    pure, fast = both(compiled, tmp_path, "lint", "--root", str(REPO), "--format", "json")
    assert (fast.code, fast.out) == (pure.code, pure.out) == (0, "[]\n")


def test_the_export_is_byte_for_byte_the_pinned_one(compiled, tmp_path):
    root = golden_library(tmp_path / "lib")
    out = tmp_path / "export"
    env = {"PYTHONPATH": str(compiled)}
    run = run_curator("export", "--root", str(root), "--out", str(out), cwd=tmp_path, env=env)
    assert run.code == 0, run
    assert files_of(out) == files_of(SNAPSHOT)


def test_a_large_export_with_workers_is_the_same_in_both_builds(compiled, tmp_path):
    library, _ = synthetic_library(tmp_path / "lib", count=400, seed=5, defects_per_rule=0)
    git(library, "init", "-q", "-b", "main", when="2024-01-01T00:00:00")
    git(library, "add", "-A", when="2024-03-01T00:00:00")
    git(library, "commit", "-q", "-m", "v1.0.0", when="2024-03-01T00:00:00")
    exports = {}
    for name, source in (("pure", REPO), ("compiled", compiled)):
        out = tmp_path / f"export-{name}"
        # With the cache: the second run of each build reads what the first one kept.
        for _ in range(2):
            args = ("export", "--root", str(library), "--out", str(out), "--jobs", "2")
            run = run_curator(*args, "--quiet", cwd=tmp_path, env={"PYTHONPATH": str(source)})
            assert run.code == 0, run
        shutil.rmtree(library / ".curator-cache")
        exports[name] = files_of(out)
    assert len(exports["pure"]) > 300  # (a file for each released incident, and the rest)
    assert exports["compiled"] == exports["pure"]
