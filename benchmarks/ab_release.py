"""The release job's lint and export, its two steps before session 37 against its one step
since, alternated in one sitting, cold (no cache, no earlier export, as on a fresh runner).

    python benchmarks/ab_release.py [--root /tmp/bench/lib-100000-clean] [--rounds 3]

before: `curator export` (which writes lint's cache), then `curator lint --release --format
github` (which reads it); after: `curator export --no-cache --format github`. Run with the
interpreter whose curator is measured (`V/bin/python benchmarks/ab_release.py`). The
previous run's export and cache are moved aside before each run and deleted at the end
(deleting 88,000 files just before making as many slows this disk down: see `_set_aside`
in bench_scale.py). Prints a line per run: wall time, CPU time of curator and its workers.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

BEFORE = (
    ("export", "--out", "{out}", "--version", "v0.0.0", "--quiet"),
    ("lint", "--release", "--format", "github"),
)
AFTER = (
    (
        "export", "--no-cache", "--format", "github", "--out", "{out}", "--version", "v0.0.0",
        "--quiet",
    ),
)  # fmt: skip


def timed(root: Path, args: tuple[str, ...], out: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one curator command (its workers included)."""
    command = [sys.executable, "-m", "curator", *(a.format(out=out) for a in args)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=root, capture_output=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed: {done.stderr.decode()[-500:]}")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return wall, cpu


def job(root: Path, steps: tuple[tuple[str, ...], ...], out: Path, aside: Path) -> str:
    for folder in (root / ".curator-cache", out):
        if folder.exists():
            os.rename(folder, aside / uuid.uuid4().hex)
    os.sync()  # (the previous run's writes are not written back during this one)
    runs = [timed(root, step, out) for step in steps]
    parts = " + ".join(
        f"{step[0]} {wall:.2f} s ({cpu:.1f} CPU s)"
        for step, (wall, cpu) in zip(steps, runs, strict=True)
    )
    return f"{parts} = {sum(wall for wall, _ in runs):.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=Path("/tmp/bench/lib-100000-clean"))
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    out = args.root.parent / "export-ab-release"
    aside = Path(tempfile.mkdtemp(prefix=".set-aside-", dir=args.root.parent))
    try:
        for number in range(1, args.rounds + 1):
            print(f"round {number} before: {job(args.root, BEFORE, out, aside)}", flush=True)
            print(f"round {number} after:  {job(args.root, AFTER, out, aside)}", flush=True)
    finally:
        shutil.rmtree(aside, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
