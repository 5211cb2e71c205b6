"""The code is held to its own house rules: ruff's lint and layout, and `mypy --strict`
over the package (which ships py.typed). Each runs the real tool on the real tree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=REPO, capture_output=True, text=True, check=False
    )


def test_ruff_finds_nothing():
    done = run("ruff", "check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "All checks passed" in done.stdout


def test_ruff_format_would_change_nothing():
    done = run("ruff", "format", "--no-cache", "--check", ".")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "already formatted" in done.stdout


def test_mypy_strict_finds_nothing(tmp_path: Path):
    # The configuration is pyproject.toml's [tool.mypy]; the cache stays out of the tree.
    done = run("mypy", "--cache-dir", str(tmp_path / "mypy"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("Success: no issues found in"), done.stdout
