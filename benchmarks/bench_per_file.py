"""What one incident file costs a cold export's worker: checked by lint and rendered.

    python benchmarks/bench_per_file.py LIBRARY [--files 20000] [--out /dev/shm/per-file]

Runs, in one process with the cyclic GC off (as in curator's workers), what a worker of a
cold `curator export` does with each file: `curator.lint.check_file`, which renders the
incident as soon as its file is parsed (`curator.export.released.render_parsed`, writing
its own file under `--out`), once over each of the first `--files` incident files of
LIBRARY, in id order, keeping every result (the export sends each to its main process).
It prints the cost per file: wall time, and user and system CPU time.

Once, as the export does, not the best of several passes (a second pass over the same
files cost 3-5% less, in session 26). The machine's speed moves it more: 240-250 µs a file
in one minute, 300-336 µs in another ("Session 26" in benchmarks/HISTORY.md).
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import resource
import shutil
import time
from pathlib import Path

from curator.export.released import Rendered, render_parsed
from curator.library import Library
from curator.lint import check_file
from curator.rules.base import IncidentFile

DATES = ("2024-01-01T00:00:00Z", "2024-01-02T00:00:00Z")  # (any: the render's cost is alike)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", type=Path)
    parser.add_argument("--files", type=int, default=20_000)
    parser.add_argument("--out", type=Path, default=Path("/dev/shm/per-file"))
    args = parser.parse_args()
    library = Library.at(args.library)
    paths = library.incident_paths()[: args.files]
    shutil.rmtree(args.out, ignore_errors=True)
    (args.out / "incidents").mkdir(parents=True)

    def render(file: IncidentFile, digest: str, _payload: object) -> Rendered | None:
        return render_parsed(file, digest, DATES, args.out)

    taxonomy, today = library.taxonomy, dt.date.today()
    gc.disable()
    before, start = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    kept = [check_file(path, str(path), taxonomy, today, render) for path in paths]
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF)
    shutil.rmtree(args.out, ignore_errors=True)
    per_file = 1e6 / len(kept)
    user = (after.ru_utime - before.ru_utime) * per_file
    system = (after.ru_stime - before.ru_stime) * per_file
    cost = f"{wall * per_file:.0f} µs a file (user {user:.0f}, system {system:.0f})"
    print(f"{len(kept):,} files: {cost}")


if __name__ == "__main__":
    main()
