"""Where a `curator export` spends its time: wall, CPU and memory at each step.

    python benchmarks/bench_export_phases.py LIBRARY OUT [--cold] [--no-cache] [--calls]

LIBRARY is a git repository of incidents (`bench_scale.py` makes `/tmp/bench/lib-N-clean`);
OUT the export folder (put it on tmpfs, e.g. /dev/shm/export, to leave the disk out;
on this machine's disk, an OUT of 100,000 files deleted just before slows the export
down, see `_set_aside` in bench_scale.py).
`--cold` deletes LIBRARY/.curator-cache and OUT first; `--no-cache` exports as
`curator export --no-cache` does (no cache read or written). Prints one line per step boundary:
seconds since start, CPU seconds of this process and of its finished workers, and this
process's resident memory now and at its peak. `--calls` also prints when each of the
main process's longer calls (`TIMED`) started and ended: the gaps between them and lint
or the render are where only the main process works. (It replaces the functions in their
modules, which a compiled build's compiled callers do not look up: run it on the pure
build, docs/compiled.md.)
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import re
import resource
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from curator.export import ExportOptions, export
from curator.library import Library

START = time.perf_counter()

# (module, attribute path) of the calls `--calls` times, in the order they run.
TIMED = [
    ("curator.lint", "check_files"),
    ("curator.lint", "_Run.library_findings"),
    ("curator.lint_cache", "ResultCache.save"),
    ("curator.export.collect", "file_history"),
    ("curator.export.released", "IncidentStream.finish"),
    ("curator.export.released", "IncidentStream._tasks"),
    ("curator.export.released_cache", "ReleasedCache.save_meanwhile"),
    ("curator.export.released_cache", "ReleasedCache.wait"),
    ("curator.export", "_write_the_rest"),
]


def usage() -> str:
    me = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    status = Path("/proc/self/status").read_text()
    rss, peak = (
        int(re.search(rf"{k}:\s+(\d+)", status).group(1)) // 1024 for k in ("VmRSS", "VmHWM")
    )  # type: ignore[union-attr]
    return (
        f"main {me.ru_utime:.1f}+{me.ru_stime:.1f} CPU s, workers {workers.ru_utime:.1f}"
        f"+{workers.ru_stime:.1f} CPU s (user+system); RSS {rss} MB, peak {peak} MB"
    )


@contextlib.contextmanager
def step(what: str) -> Iterator[Callable[[int, int], None]]:
    print(f"{time.perf_counter() - START:6.1f} s  start {what:<10} {usage()}", flush=True)
    yield lambda done, total: None
    print(f"{time.perf_counter() - START:6.1f} s  end   {what:<10} {usage()}", flush=True)


def time_calls() -> None:
    """Wrap each of `TIMED` so that it prints when it started and ended."""
    for module_name, attribute in TIMED:
        *owners, name = attribute.split(".")
        owner: Any = importlib.import_module(module_name)
        for part in owners:
            owner = getattr(owner, part)
        setattr(owner, name, _timed(getattr(owner, name), attribute))


def _timed(function: Callable[..., Any], label: str) -> Callable[..., Any]:
    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter() - START
        result = function(*args, **kwargs)
        print(f"{started:6.1f} s → {time.perf_counter() - START:6.1f} s  {label}", flush=True)
        return result

    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--cold", action="store_true", help="no cache, no earlier export")
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    parser.add_argument("--calls", action="store_true", help="time the main process's calls")
    args = parser.parse_args()
    library = Library.at(args.library.resolve())
    if args.cold:
        shutil.rmtree(library.root / ".curator-cache", ignore_errors=True)
        shutil.rmtree(args.out, ignore_errors=True)
    if args.calls:
        time_calls()
    global START
    START = time.perf_counter()
    options = ExportOptions(version="v0.0.0", cache=not args.no_cache, progress=step)
    export(library, args.out, options, cwd=library.root)
    print(f"{time.perf_counter() - START:6.1f} s  done             {usage()}")


if __name__ == "__main__":
    main()
