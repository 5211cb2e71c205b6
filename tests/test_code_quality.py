"""The code is held to its own house rules: ruff's lint and layout, and `mypy --strict`
over the package (which ships py.typed), each run as the real tool on the real tree; and
data flowing one way, files to rules to commands, never back up."""

from __future__ import annotations

import ast
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


# What runs the rules, or stands on what they find: a rule that imports one of these
# reaches back up (as IL601 did `curator.fix`, for the tab repair now in curator.write.edits).
ABOVE_THE_RULES = (
    "curator.cli",
    "curator.export",
    "curator.fix",
    "curator.fmt",
    "curator.github",
    "curator.lint",
    "curator.new",
    "curator.review",
    "curator.similarity",
)


def imported(source: Path) -> set[str]:
    """Every module a file imports, at its top or inside a function."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_no_rule_imports_what_runs_the_rules():
    rules = sorted((REPO / "curator" / "rules").glob("*.py"))
    assert len(rules) > 30
    upward = {
        f"{rule.name}: {name}"
        for rule in rules
        for name in imported(rule)
        if any(name == top or name.startswith(f"{top}.") for top in ABOVE_THE_RULES)
    }
    assert upward == set()
