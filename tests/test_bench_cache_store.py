"""benchmarks/bench_cache_store.py, run by hand: it must at least run, and make its --dir."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import REPO


def test_makes_a_missing_dir_and_prints_both_layouts(tmp_path: Path) -> None:
    folder = tmp_path / "not" / "yet"
    run = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "bench_cache_store.py"),
            "--entries",
            "40",
            "--runs",
            "1",
            "--dir",
            str(folder),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    rows = [line for line in run.stdout.splitlines() if line.startswith("| ") and " s |" in line]
    assert [row.split(" | ")[0] for row in rows] == [
        "| sqlite3 (one database, WAL)",
        "| 256 JSON shard files (temp file + os.replace)",
    ]
    assert folder.is_dir() and not any(folder.iterdir())  # its stores made and removed
