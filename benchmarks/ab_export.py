"""Alternate `curator export` runs of two installs of curator, on the same library.

    python benchmarks/ab_export.py VENV_A VENV_B [--rounds 5] [--cold] \
        [--root /tmp/bench/lib-100000-clean] [--out /dev/shm/export]

Each round runs both, the first of them alternating, through the command itself (`python
-m curator export --quiet`, as a user runs it), and prints each run's wall time and the CPU
time of the process and its workers. `--cold` deletes `.curator-cache/` and the earlier
export before each run; without it, each install first runs once to leave its own cache
(the cache is keyed by curator's code) and every run replaces the previous export.

A machine whose speed drifts within minutes (benchmarks/README.md) moves every run by
more than a small change saves: compare the pairs, not the runs.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import time
from pathlib import Path


def export(venv: Path, root: Path, out: Path, cold: bool) -> tuple[float, float]:
    """One run's wall time and CPU time (the process and its workers)."""
    if cold:
        shutil.rmtree(out, ignore_errors=True)
        shutil.rmtree(root / ".curator-cache", ignore_errors=True)
    return timed(venv, ["export", "--quiet", "--root", str(root), "--out", str(out)])


def timed(
    venv: Path, arguments: list[str], succeeded: tuple[int, ...] = (0,)
) -> tuple[float, float]:
    """`curator ARGUMENTS` of the install in `venv`: its wall time and CPU time (the process
    and its workers); SystemExit if it exits with a code not in `succeeded`."""
    command = [str(venv / "bin" / "python"), "-m", "curator", *arguments]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # (Run from `/`: from the repository, `python -m` would import its curator/, not the
    # install's.)
    done = subprocess.run(command, cwd="/", capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in succeeded:
        raise SystemExit(f"{venv}: curator {arguments[0]} failed:\n{done.stderr}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("venvs", type=Path, nargs=2, metavar="VENV")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cold", action="store_true")
    parser.add_argument("--root", type=Path, default=Path("/tmp/bench/lib-100000-clean"))
    parser.add_argument("--out", type=Path, default=Path("/dev/shm/export"))
    args = parser.parse_args()
    if not args.cold:
        for venv in args.venvs:
            export(venv, args.root, args.out, cold=False)
    for number in range(args.rounds):
        pair = {}
        for venv in args.venvs if number % 2 == 0 else args.venvs[::-1]:
            pair[venv] = export(venv, args.root, args.out, args.cold)
        cells = [f"{pair[v][0]:.2f} s · {pair[v][1]:.1f} CPU s" for v in args.venvs]
        print(f"round {number + 1}: " + "  |  ".join(cells), flush=True)


if __name__ == "__main__":
    main()
