"""What each of the export's two caches costs a cold `curator export`, variants alternated.

    python benchmarks/bench_export_caches.py [--rounds 3] [--variants both neither] \
        [--root /tmp/bench/lib-100000-clean] [--out /dev/shm/export]

A variant is which caches the export writes: `both` (as `curator export` does), `lint`
(lint's results only), `released` (the released data only) or `neither` (as `curator
export --no-cache` does). Each run starts cold (no `.curator-cache/`, no earlier export)
in a fresh process of this interpreter, which calls `curator.export.export` as the CLI
does (what it made held to the end) with the other cache switched off where it is opened,
and prints its start (to lint's first file), lint (first file to last), tail (last file to
the export's return) and whole wall time, and the CPU time of the process and of its
workers. The variants' order alternates from round to round: the machine drifts by more
than a cache costs, so compare the runs of one round. The first export of a sitting is
slower whatever its variant (8 s at 100,000 in session 47, HISTORY.md): leave the first
round out, or run `--rounds 3` and compare the last two.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

VARIANTS = ("both", "lint", "released", "neither")

# Run in a fresh process for each export: nothing one run imported or cached stays warm.
_RUN = r"""
import contextlib, os, resource, sys, time
from pathlib import Path
import curator.export as export_module
from curator.library import Library

variant, root, out = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
if variant in ("released", "neither"):  # lint's cache off: lint as with --no-cache
    check = export_module.check_releasable
    export_module.check_releasable = lambda library, cwd, cache, *rest: check(
        library, cwd, False, *rest
    )
if variant in ("lint", "neither"):  # the released data's cache off
    released = export_module.ReleasedCache
    export_module.ReleasedCache = lambda library, enabled: released(library, False)
marks = {}

@contextlib.contextmanager
def progress(what):
    def step(done, total):
        if what == "linting" and done == 1:
            marks["first"] = time.perf_counter()
        if what == "linting" and done == total:
            marks["last"] = time.perf_counter()
    yield step

held = []
start = time.perf_counter()
options = export_module.ExportOptions(progress=progress)
export_module.export(Library.at(root), out, options, held=held)
end = time.perf_counter()
me = resource.getrusage(resource.RUSAGE_SELF)
workers = resource.getrusage(resource.RUSAGE_CHILDREN)
print(
    f"{variant:9s} start {marks['first'] - start:5.2f} s"
    f"  lint {marks['last'] - marks['first']:6.2f} s"
    f"  tail {end - marks['last']:5.2f} s  all {end - start:6.2f} s"
    f"  CPU: main {me.ru_utime + me.ru_stime:5.1f} s, workers"
    f" {workers.ru_utime + workers.ru_stime:5.1f} s",
    flush=True,
)
os._exit(0)  # as the CLI ends: nothing freed
"""


def run(variant: str, root: Path, out: Path) -> None:
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(root / ".curator-cache", ignore_errors=True)
    # (From `/`: from the repository, `-c` would import its curator/, not the install's.)
    command = [sys.executable, "-c", _RUN, variant, str(root), str(out)]
    subprocess.run(command, cwd="/", check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--variants", nargs="+", choices=VARIANTS, default=["both", "neither"])
    parser.add_argument("--root", type=Path, default=Path("/tmp/bench/lib-100000-clean"))
    parser.add_argument("--out", type=Path, default=Path("/dev/shm/export"))
    args = parser.parse_args()
    try:
        for number in range(args.rounds):
            order = args.variants if number % 2 == 0 else args.variants[::-1]
            for variant in order:
                run(variant, args.root, args.out)
    finally:
        shutil.rmtree(args.out, ignore_errors=True)
        shutil.rmtree(args.root / ".curator-cache", ignore_errors=True)


if __name__ == "__main__":
    main()
