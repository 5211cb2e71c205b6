"""How fast could a cold `curator export` be if each file were linted and rendered in one pass?

    python benchmarks/bench_export_one_pass.py LIBRARY OUT

An experiment, not a command of curator: it measures the design "render inside lint's
workers" before anyone builds it. Each file is checked by every single-file rule and its
incident rendered by the export's own code (validated as `ExportedIncident`, dumped, its
own JSON file written, its CSV record and graph lines made) in one worker call, in id
order on all CPUs, while the main process streams `incidents.json` and `incidents.csv`.
Everything else an export does is left out: the cross-file rules, git history (fixed
dates here), the caches, the aggregate files, the manifest. So its time is a floor for
that design, to compare with `bench_export_phases.py --cold` on the same library in the
same sitting. LIBRARY is a library folder (`bench_scale.py` makes
`/tmp/bench/lib-N-clean`); OUT is replaced (on tmpfs, e.g. /dev/shm/out: on this
machine's disk, deleting it just before slows the run, see `_set_aside` in bench_scale.py).
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import resource
import shutil
import time
from pathlib import Path
from typing import Any

from curator.export.collect import parse_released, released_data
from curator.export.released import Task, _render
from curator.library import Library
from curator.lint import check_file, without_cyclic_gc
from curator.lint_cache import Checked
from curator.rules.base import IncidentFile
from curator.taxonomy import Taxonomy
from curator.workers import Workers, worker_count

WHEN = "2024-01-01T00:00:00Z"


def render_parsed(file: IncidentFile, raw: bytes, out: Path) -> Any:
    """What the export needs of one parsed file, worked out where lint parsed it: the
    export's own render (`curator.export.released`), and what its cache would keep."""
    if file.incident is None:
        return None
    data = released_data(file.incident)
    task = Task(str(file.path), None, (WHEN, WHEN), None)
    rendered = _render(task, (out, None), data, "", False)
    return rendered, parse_released(file, raw)


def one_pass(path: str, taxonomy: Taxonomy, today: dt.date, out: Path) -> Checked:
    extra = functools.partial(render_parsed, out=out)
    result = check_file(Path(path), Path(path).name, taxonomy, today, extra)
    _ = result.summary_key, result.values_key  # as lint's workers do for the cache
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    library = Library.at(args.library.resolve())
    shutil.rmtree(args.out, ignore_errors=True)
    (args.out / "incidents").mkdir(parents=True)
    paths = sorted(map(str, library.incident_paths()), key=lambda p: int(Path(p).stem[3:]))
    work = functools.partial(
        one_pass, taxonomy=library.taxonomy, today=dt.date.today(), out=args.out
    )
    start = time.perf_counter()
    rendered = 0
    with (
        without_cyclic_gc(),
        Workers(worker_count(len(paths), 400)) as workers,
        open(args.out / "incidents.json", "wb") as aggregate,
        open(args.out / "incidents.csv", "wb") as table,
    ):
        for result in workers.in_order(work, paths, 200):
            if result.extra is not None and result.extra[0].summary is not None:
                aggregate.write(result.extra[0].nested + b",\n")
                table.write(result.extra[0].record)
                rendered += 1
            result.extra = None
    wall = time.perf_counter() - start
    me = resource.getrusage(resource.RUSAGE_SELF)
    workers_usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(
        f"{len(paths):,} files, {rendered:,} rendered: {wall:.1f} s wall; main "
        f"{me.ru_utime + me.ru_stime:.1f} CPU s, workers "
        f"{workers_usage.ru_utime + workers_usage.ru_stime:.1f} CPU s; "
        f"main peak RSS {me.ru_maxrss // 1024} MB"
    )


if __name__ == "__main__":
    main()
