"""Benchmark `curator review` of a change to N incidents: wall time, CPU time, peak memory.

    python benchmarks/bench_review.py LIBRARY --copy /dev/shm/review-bench \
        --changed 10 1000 all [--edit title|publisher] [--new K] [--runs 3] \
        [--modes cold warm] [--reports DIR] [--keep]

LIBRARY is a library committed to git on `master` (`bench_scale.py`'s DIR/lib-<size>-clean);
it is copied to --copy (deleted first, and after unless --keep; its `.curator-cache/` left
behind) and never written to. For each N, a branch `bench-N` of the copy edits every
k-th incident (N of them, k = incidents ÷ N, N=all every one), in one commit: --edit title
(the default) appends " 개정" to its `title:` line, a change to its text, which the review
judges; --edit publisher appends " 편집부" to its first `publisher:` line, which the
review's similarity does not read (a clean-up of the sources' metadata), in the layout
`curator fmt` writes, as any edit a contributor runs the hook on. With --new K, the commit
also adds K new incidents (`IL-NEW-bench-1.yaml`, …: copies of the first K under that
placeholder id, " 신규" appended to their title), which the judge is asked about: the
index is built even for a change the similarity does not read otherwise, and a change to
all N incidents and one more file is past the 100,000 files a report holds. `curator review
--base master --format json` runs there, checked out, as the review workflow runs it:
- cold: no `.curator-cache/`, as in the workflow's fresh clone (the judge's index built);
- warm: the cache as the previous run left it (the same review run again).
Each cell is the median of --runs runs, or one where the first took over a minute. With
--reports, each review also writes its JSON report (`--json-out DIR/review-N-MODE.json`),
to compare two builds' reports byte for byte.

Memory, the peak of each (the largest over the runs):
- the largest single process's resident set size, and the largest sum of the resident
  sizes of the review's processes (`bench_scale.measure`, every 20 ms): kept, for the
  earlier tables;
- the largest total proportional set size (PSS, `/proc/PID/smaps_rollup`) of the review's
  processes, sampled every 0.25 s (less often where a reading costs more than a tenth of
  that in CPU, as at 100,000 incidents): the figure for a change of 50 files or more, which is
  judged in worker processes forked from the review's, sharing its pages (the judge's
  index) until one writes them. The sum of resident sizes counts each shared page once in
  every process that maps it; PSS divides it among them, so that the total is what the
  processes take from the machine (1,000 files at 100,000 incidents: 2,944 MB summed,
  1,354 MB in PSS). With one process the two are about equal.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from bench_scale import Sample, cell, descendants, machine, measure  # (this folder first)

LONG = 60.0  # seconds: a run this long is measured once
GIT = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid"]
DATE = "2026-01-01T00:00:00Z"  # of the commit that edits them
# What --edit appends to the line it edits.
REVISED = {"title": " 개정".encode(), "publisher": " 편집부".encode()}
_TITLE = re.compile(rb"(?m)^(title: .*?)(\r?)$")
_ID = re.compile(rb"(?m)^id: [^\r\n]*")
_PUBLISHER = re.compile(rb"(?m)^(    publisher: .*?)(\r?)$")
PSS_EVERY = 0.25  # seconds between two readings of the review's proportional set size, or
# PSS_SHARE: the CPU a reading takes (the kernel walks every page table; 34 ms for a 1.4 GB
# review at 100,000 incidents, more than a tenth of a CPU every 0.25 s), at most this share
# of the time between two, so that the sampler takes little of the CPUs it measures.
PSS_SHARE = 0.1


@dataclass(frozen=True)
class Run:
    sample: Sample
    pss_mb: float  # the largest total proportional set size of the review's processes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", type=Path, help="a library committed to git on master")
    parser.add_argument("--copy", type=Path, required=True, help="where to copy it (e.g. /dev/shm)")
    parser.add_argument("--changed", nargs="+", default=["10", "1000", "all"])
    parser.add_argument("--edit", choices=("title", "publisher"), default="title")
    parser.add_argument("--new", type=int, default=0, help="new incidents added by the change")
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
    table: dict[int, dict[str, list[Run]]] = {}
    try:
        for asked in args.changed:
            count = len(names) if asked == "all" else min(int(asked), len(names))
            _branch(copy, names, count, args.edit, args.new)
            table[count] = {mode: _runs(copy, mode, count, args) for mode in args.modes}
    finally:
        if not args.keep:
            shutil.rmtree(copy, ignore_errors=True)
    print(f"Machine: {machine()}. Library: {args.library} ({len(names):,} incidents). "
          f"Median of {args.runs} runs (1 over {LONG:.0f} s). Cell: wall time (CPU time, "
          "children included) · peak RSS of the largest process / of all its processes "
          "together · peak PSS of all its processes together (each shared page divided "
          f"among its processes; sampled every {PSS_EVERY} s or, where a reading takes "
          f"over {PSS_SHARE:.0%} of that in CPU, less often).\n")  # fmt: skip
    print("| files changed | " + " | ".join(f"review, {mode}" for mode in args.modes) + " |")
    print("| --- |" + " --- |" * len(args.modes))
    for count, runs in table.items():
        print(f"| {count:,} | " + " | ".join(_cell(runs[m]) for m in args.modes) + " |")
    return 0


def _cell(runs: list[Run]) -> str:
    pss = max(run.pss_mb for run in runs)
    return f"{cell([run.sample for run in runs])} · {pss:.0f} MB PSS"


def _cache_left_behind(folder: str, names: list[str]) -> list[str]:
    return [".curator-cache"] if Path(folder).joinpath(".git").is_dir() else []


def _branch(copy: Path, names: list[str], count: int, edit: str = "title", new: int = 0) -> None:
    """`bench-<count>` checked out: master with `count` incidents edited, evenly spread, and
    `new` incidents added."""
    subprocess.run([*GIT, "checkout", "-q", "-f", "-B", f"bench-{count}", "master"], cwd=copy,
                   check=True)  # fmt: skip
    step = max(1, len(names) // count)
    for name in names[::step][:count]:
        path = copy / "incidents" / name
        path.write_bytes(_edited(path.read_bytes(), edit, path))
    for n, name in enumerate(names[:new], start=1):
        placeholder = f"IL-NEW-bench-{n}"
        text = (copy / "incidents" / name).read_bytes()
        text = _ID.sub(f"id: {placeholder}".encode(), text, count=1)
        text = _TITLE.sub(rb"\1" + " 신규".encode() + rb"\2", text, count=1)
        (copy / "incidents" / f"{placeholder}.yaml").write_bytes(text)
    subprocess.run([*GIT, "add", "incidents"], cwd=copy, check=True)
    # Dated, not now: the same change is the same commit from one run to the next, so that
    # two builds' reports (`--reports`, which name the head) compare byte for byte.
    dated = {**os.environ, "GIT_AUTHOR_DATE": DATE, "GIT_COMMITTER_DATE": DATE}
    subprocess.run([*GIT, "commit", "-q", "-a", "-m", f"{edit} {count}"], cwd=copy, check=True,
                   env=dated)  # fmt: skip


def _edited(text: bytes, edit: str, path: Path) -> bytes:
    line = _PUBLISHER if edit == "publisher" else _TITLE
    text, found = line.subn(rb"\1" + REVISED[edit] + rb"\2", text, count=1)
    assert found, f"{path} has no {edit}: line"
    return text


def _runs(copy: Path, mode: str, count: int, args: argparse.Namespace) -> list[Run]:
    command = [sys.executable, "-m", "curator", "review", "--base", "master", "--format", "json"]
    if args.reports:
        command += ["--json-out", str((args.reports / f"review-{count}-{mode}.json").resolve())]
    runs: list[Run] = []
    while len(runs) < args.runs and not (runs and runs[0].sample.wall > LONG):
        if mode == "cold":
            shutil.rmtree(copy / ".curator-cache", ignore_errors=True)
        elif not runs and "cold" not in args.modes:
            measure(command, copy)  # the cache a first review leaves (a cold run's, else)
        print(f"  {count:,} changed, {mode}: run {len(runs) + 1}", file=sys.stderr)
        runs.append(_run(command, copy))
        print(f"    {runs[-1].sample.wall:.2f} s, {runs[-1].pss_mb:.0f} MB PSS", file=sys.stderr)
    return runs


def _run(command: list[str], cwd: Path) -> Run:
    """`measure(command)`, and the peak total PSS of the processes it runs, read every
    PSS_EVERY s (or less often, PSS_SHARE): this process's descendants, as it runs nothing
    else meanwhile."""
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        pause = PSS_EVERY
        while not done.wait(pause):
            started = time.thread_time()
            peak = max(peak, descendants_pss_kb(os.getpid()))
            pause = max(PSS_EVERY, (time.thread_time() - started) / PSS_SHARE)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        measured = measure(command, cwd)
    finally:
        done.set()
        sampler.join()
    return Run(measured, peak / 1024)


def descendants_pss_kb(pid: int) -> int:
    """KB of proportional set size of every process below `pid` (not `pid` itself), now:
    each page they map counted in shares, one for each process mapping it."""
    total = 0
    for current in descendants(pid):
        try:
            with open(f"/proc/{current}/smaps_rollup", "rb") as rollup:
                total += next(int(line.split()[1]) for line in rollup if line.startswith(b"Pss:"))
        except (OSError, StopIteration):  # ended meanwhile, or a kernel thread's empty rollup
            continue
    return total


if __name__ == "__main__":
    sys.exit(main())
