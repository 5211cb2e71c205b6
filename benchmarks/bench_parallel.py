"""From how many files do worker processes make `curator lint` faster? (`PARALLEL_FROM`)

    python benchmarks/bench_parallel.py [--sizes 50 100 200 400 800 1600] [--runs 5]
                                        [--dir /tmp/bench]

Lints generated libraries of each size in this process, without the cache, once in one
process and once with a worker per CPU, and prints the best of `--runs` runs of each (the
best, not the median: the question is what the work costs, not how busy the machine is).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from curator.library import Library
from curator.lint import PARALLEL_FROM, lint

HERE = Path(__file__).resolve().parent


def best(root: Path, jobs: int, runs: int) -> float:
    library = Library.at(root)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        lint(library, cwd=root, jobs=jobs)
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 100, 200, 400, 800, 1600])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/bench"))
    args = parser.parse_args()
    cpus = os.cpu_count() or 1
    print(f"{cpus} CPUs; PARALLEL_FROM = {PARALLEL_FROM}; best of {args.runs} runs\n")
    print(f"| files | 1 process | {cpus} workers | workers ÷ 1 process |")
    print("| ---: | ---: | ---: | ---: |")
    for size in args.sizes:
        root = args.dir / f"parallel-{size}"
        if not (root / "manifest.json").is_file():
            generate = [sys.executable, str(HERE / "generate.py"), str(root), "--force"]
            options = ["--count", str(size), "--defects-per-rule", "0"]
            subprocess.run([*generate, *options], check=True, capture_output=True)
        serial, parallel = best(root, 1, args.runs), best(root, cpus, args.runs)
        print(f"| {size:,} | {serial:.3f} s | {parallel:.3f} s | {parallel / serial:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
