"""Benchmark `curator review` of a change to N incidents: wall time, CPU time, peak RSS.

    python benchmarks/bench_review.py LIBRARY --copy /dev/shm/review-bench \
        --changed 10 1000 all [--runs 3] [--modes cold warm] [--reports DIR] [--keep]

LIBRARY is a library committed to git on `master` (`bench_scale.py`'s DIR/lib-<size>-clean);
it is copied to --copy (deleted first, and after unless --keep; its `.curator-cache/` left
behind) and never written to. For each N, a branch `bench-N` of the copy retitles every
k-th incident (" 개정" appended to its `title:` line; N of them, k = incidents ÷ N, N=all
every one), in one commit, and `curator review --base master --format json` runs there,
checked out, as the review workflow runs it:
- cold: no `.curator-cache/`, as in the workflow's fresh clone (the judge's index built);
- warm: the cache as the previous run left it (the same review run again).
Each cell is the median of --runs runs, or one where the first took over a minute. With
--reports, each review also writes its JSON report (`--json-out DIR/review-N-MODE.json`),
to compare two builds' reports byte for byte.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

from bench_scale import Sample, cell, machine, measure  # (this folder is the first import path)

LONG = 60.0  # seconds: a run this long is measured once
GIT = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid"]
REVISED = " 개정".encode()  # appended to each title changed
_TITLE = re.compile(rb"(?m)^(title: .*?)(\r?)$")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", type=Path, help="a library committed to git on master")
    parser.add_argument("--copy", type=Path, required=True, help="where to copy it (e.g. /dev/shm)")
    parser.add_argument("--changed", nargs="+", default=["10", "1000", "all"])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--modes", nargs="+", choices=("cold", "warm"), default=["cold", "warm"])
    parser.add_argument("--reports", type=Path, help="keep each review's JSON report here")
    parser.add_argument("--keep", action="store_true", help="leave the copy in place")
    args = parser.parse_args()
    args.modes.sort()  # cold first: its run leaves the warm one's cache
    copy = args.copy.resolve()
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(args.library, copy, symlinks=True, ignore=_cache_left_behind)
    if args.reports:
        args.reports.mkdir(parents=True, exist_ok=True)
    names = sorted(p.name for p in (copy / "incidents").glob("*.yaml"))
    table: dict[int, dict[str, list[Sample]]] = {}
    try:
        for asked in args.changed:
            count = len(names) if asked == "all" else min(int(asked), len(names))
            _branch(copy, names, count)
            table[count] = {mode: _runs(copy, mode, count, args) for mode in args.modes}
    finally:
        if not args.keep:
            shutil.rmtree(copy, ignore_errors=True)
    print(f"Machine: {machine()}. Library: {args.library} ({len(names):,} incidents). "
          f"Median of {args.runs} runs (1 over {LONG:.0f} s). Cell: wall time (CPU time, "
          "children included) · peak RSS of the largest process / of all its processes "
          "together.\n")  # fmt: skip
    print("| files changed | " + " | ".join(f"review, {mode}" for mode in args.modes) + " |")
    print("| --- |" + " --- |" * len(args.modes))
    for count, samples in table.items():
        print(f"| {count:,} | " + " | ".join(cell(samples[m]) for m in args.modes) + " |")
    return 0


def _cache_left_behind(folder: str, names: list[str]) -> list[str]:
    return [".curator-cache"] if Path(folder).joinpath(".git").is_dir() else []


def _branch(copy: Path, names: list[str], count: int) -> None:
    """`bench-<count>` checked out: master with `count` incidents retitled, evenly spread."""
    subprocess.run([*GIT, "checkout", "-q", "-f", "-B", f"bench-{count}", "master"], cwd=copy,
                   check=True)  # fmt: skip
    step = max(1, len(names) // count)
    for name in names[::step][:count]:
        path = copy / "incidents" / name
        text, found = _TITLE.subn(rb"\1" + REVISED + rb"\2", path.read_bytes(), count=1)
        assert found, f"{path} has no title: line"
        path.write_bytes(text)
    subprocess.run([*GIT, "commit", "-q", "-a", "-m", f"retitle {count}"], cwd=copy, check=True)


def _runs(copy: Path, mode: str, count: int, args: argparse.Namespace) -> list[Sample]:
    command = [sys.executable, "-m", "curator", "review", "--base", "master", "--format", "json"]
    if args.reports:
        command += ["--json-out", str((args.reports / f"review-{count}-{mode}.json").resolve())]
    samples: list[Sample] = []
    while len(samples) < args.runs and not (samples and samples[0].wall > LONG):
        if mode == "cold":
            shutil.rmtree(copy / ".curator-cache", ignore_errors=True)
        elif not samples and "cold" not in args.modes:
            measure(command, copy)  # the cache a first review leaves (a cold run's, else)
        print(f"  {count:,} changed, {mode}: run {len(samples) + 1}", file=sys.stderr)
        samples.append(measure(command, copy))
        print(f"    {samples[-1].wall:.2f} s", file=sys.stderr)
    return samples


if __name__ == "__main__":
    sys.exit(main())
