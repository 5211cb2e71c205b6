"""Alternate `curator similar` runs of two installs of curator, on the same library.

    python benchmarks/ab_similar.py VENV_A VENV_B [--rounds 4] [--warm] \
        [--root /tmp/bench/lib-100000-clean]

Cold (the default), each run deletes `.curator-cache/` (so the similarity index is built
from the files, as on a fresh clone) and asks, through the command itself, for the
duplicates of the library's first incident: nearly all of its time is the index build.
With `--warm`, the index is built once by each install (each keeps its own, under its own
key) and each run is `curator search NCCL`, `similar` and `suggest` of that incident,
what a reviewer's later commands cost. Each round runs both installs, the first of them
alternating, and prints each run's wall time and the CPU time of the process and its
workers, then the medians.

A machine whose speed drifts within minutes (benchmarks/README.md) moves every run by
more than a small change saves: compare the pairs, not the runs.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
from pathlib import Path

from ab_export import timed  # (this folder is the script's first import path)


def similar(venv: Path, root: Path, incident: Path, fresh: bool = True) -> tuple[float, float]:
    """One run's wall time and CPU time (the process and its workers); cold if `fresh`."""
    if fresh:
        shutil.rmtree(root / ".curator-cache", ignore_errors=True)
    arguments = ["similar", "--quiet", "--root", str(root), str(incident)]
    return timed(venv, arguments, succeeded=(0, 1))  # 1: a possible duplicate was found


def warm(venv: Path, root: Path, incident: Path) -> tuple[float, float]:
    """`search`, `similar` and `suggest` with the index kept: their wall and CPU times."""
    wall = cpu = 0.0
    for command in (["search", "NCCL"], ["similar", str(incident)], ["suggest", str(incident)]):
        arguments = [command[0], "--quiet", "--root", str(root), *command[1:]]
        times = timed(venv, arguments, succeeded=(0, 1))
        wall, cpu = wall + times[0], cpu + times[1]
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("venvs", type=Path, nargs=2, metavar="VENV")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--root", type=Path, default=Path("/tmp/bench/lib-100000-clean"))
    parser.add_argument("--warm", action="store_true")
    args = parser.parse_args()
    incident = min((args.root / "incidents").glob("*.yaml"))
    run = warm if args.warm else similar
    if args.warm:  # each install builds its index; neither deletes the other's
        similar(args.venvs[0], args.root, incident)
        similar(args.venvs[1], args.root, incident, fresh=False)
    runs: dict[Path, list[tuple[float, float]]] = {venv: [] for venv in args.venvs}
    for number in range(args.rounds):
        for venv in args.venvs if number % 2 == 0 else args.venvs[::-1]:
            wall, cpu = run(venv, args.root, incident)
            runs[venv].append((wall, cpu))
            print(f"round {number + 1}: {venv}: {wall:.2f} s ({cpu:.1f} CPU s)", flush=True)
    for venv, times in runs.items():
        wall = statistics.median(w for w, _ in times)
        cpu = statistics.median(c for _, c in times)
        print(f"{venv}: median {wall:.2f} s ({cpu:.1f} CPU s) of {len(times)} runs")


if __name__ == "__main__":
    main()
