"""curator at scale: lint (cold, warm, ten files changed), fmt --check, export and similar,
side by side with check-jsonschema and plain libyaml parsing of the same files.

    python benchmarks/bench_scale.py --sizes 1000 10000 100000 [--runs 3] [--dir /tmp/bench]
        [--check-jsonschema PATH] [--only NAME,...] [--slow-runs 1]

For each size, a library is generated (once; reused after) by benchmarks/generate.py into
DIR/lib-<size> (seed 1, with its defects), and a defect-free copy in DIR/lib-<size>-clean,
committed to a git repository there, for `curator export` (which refuses a library with
lint errors) and `bench_similar.py`. Every command runs in its own process; the table gives
the median wall time and CPU time (user + system, workers included) of `--runs` runs, and
the peak memory: the largest single process (`ru_maxrss`) and the largest sum over the
process and its workers at any moment (sampled every 20 ms from /proc). The machine is
shared and noisy: the ratios, measured in the same run, matter more than the seconds.

Commands (`--only` picks some):
- floor-load, floor-compose: every file read and given to PyYAML's libyaml loader
  (`yaml.load(CSafeLoader)`) or composer (`yaml.compose`, nodes with positions), in as many
  processes as there are CPUs: the practical floor for reading YAML in Python;
- check-jsonschema: the same files against schema/incident.schema.json, in as many
  processes as there are CPUs (it has no option for that itself);
- lint-nocache, lint-cold (empty cache, which the run fills), lint-warm (nothing changed),
  lint-10-changed and lint-10-moved (ten files edited before each run: a comment added at
  the end, or at the top so that every line moves), lint-10-added (ten new incidents, as
  a pull request adds them: the cross-file rules must read every summary again);
- fmt-check, fix-check (`curator fix --check`) and export, each cold (empty cache) and
  warm (nothing changed); export-release, `curator export --no-cache --format github`
  with no earlier export, as the release workflow runs it in a fresh clone; and similar
  (which runs benchmarks/bench_similar.py).
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import multiprocessing
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from generate import GENERATOR_VERSION  # (this folder is the script's first import path)

HERE = Path(__file__).resolve().parent
SEED = 1
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
SLOW = {"check-jsonschema", "fmt-check", "export", "export-release", "similar"}
COMMANDS = (
    "floor-load",
    "floor-compose",
    "check-jsonschema",
    "lint-nocache",
    "lint-cold",
    "lint-warm",
    "lint-10-changed",
    "lint-10-moved",
    "lint-10-added",
    "fmt-check",
    "fmt-check-warm",
    "fix-check",
    "fix-check-warm",
    "export",
    "export-warm",
    "export-release",
    "similar",
)


@dataclass
class Sample:
    wall: float
    cpu: float
    max_rss_mb: float  # the largest single process
    tree_rss_mb: float  # the largest sum over the process and its descendants
    code: int


# ------------------------------------------------------------------------------------------
# Running one command and measuring it
# ------------------------------------------------------------------------------------------


def descendants(pid: int) -> list[int]:
    """The processes below `pid` (children, theirs, and so on), running now."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], list(children.get(pid, []))
    while todo:
        found.append(todo.pop())
        todo += children.get(found[-1], [])
    return found


def _tree_rss(pid: int) -> int:
    """Bytes resident in `pid` and every process below it, right now."""
    total = 0
    for current in [pid, *descendants(pid)]:
        try:
            with open(f"/proc/{current}/statm", "rb") as statm:
                total += int(statm.read().split()[1]) * PAGE
        except OSError:
            continue
    return total


def measure(command: Sequence[str], cwd: Path | None = None) -> Sample:
    # What earlier steps wrote goes to disk before this run starts, not during it: the
    # first command measured after the 100,000-file libraries were generated (floor-load,
    # session 60) took 16.7 s for 15.9 CPU s, as if on one CPU, against 8.8-10.5 s on
    # both later in the sitting, probably while the kernel wrote their 2 GB back.
    os.sync()
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.wait(0.02):
            peak = max(peak, _tree_rss(process.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    stderr = process.stderr.read() if process.stderr else b""
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    done.set()
    sampler.join()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        sys.stderr.write(stderr.decode(errors="replace")[-2000:])
        raise SystemExit(f"failed ({process.returncode}): {' '.join(command)}")
    cpu = usage.ru_utime + usage.ru_stime
    max_rss = usage.ru_maxrss / 1024  # KB on Linux
    return Sample(wall, cpu, max_rss, max(peak / 2**20, max_rss), process.returncode)


def repeat(
    runs: int, command: Sequence[str], cwd: Path | None = None, before: Callable | None = None
) -> list[Sample]:
    samples = []
    for run in range(runs):
        if before:
            before(run)
        samples.append(measure(command, cwd))
    return samples


# ------------------------------------------------------------------------------------------
# The libraries
# ------------------------------------------------------------------------------------------


def library(folder: Path, size: int, clean: bool) -> Path:
    root = folder / (f"lib-{size}-clean" if clean else f"lib-{size}")
    if not _as_generate_writes_it(root, size, clean):
        if root.exists():
            shutil.rmtree(root)
        options = ["--defects-per-rule", "0"] if clean else []
        generate = [sys.executable, str(HERE / "generate.py"), str(root), "--count", str(size)]
        subprocess.run([*generate, "--seed", str(SEED), *options], check=True, stdout=sys.stderr)
    if clean and not (root / ".git").is_dir():
        git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid"]
        subprocess.run([*git, "init", "-q"], cwd=root, check=True)
        (root / ".gitignore").write_text(".curator-cache/\n")
        subprocess.run([*git, "add", "-A"], cwd=root, check=True)
        subprocess.run([*git, "commit", "-q", "-m", "synthetic library"], cwd=root, check=True)
    return root


def _as_generate_writes_it(root: Path, size: int, clean: bool) -> bool:
    """Whether `root` holds the library generate.py writes today for this size: one an
    earlier generator wrote (its defects elsewhere, a rule's defect missing) is made again,
    where it was measured as if it were today's."""
    try:
        made = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    asked = {
        "generator_version": GENERATOR_VERSION,
        "count": size,
        "seed": SEED,
        "defects_per_rule": 0 if clean else 1,
    }
    return isinstance(made, dict) and all(made.get(key) == value for key, value in asked.items())


class Edits:
    """Ten files edited before each run, restored afterwards. A comment is added at the end
    (every line stays where it was, like most edits of the text), or with `moved`, at the
    top (every line moves down: the file's summary for the cross-file rules changes)."""

    def __init__(self, root: Path, moved: bool = False) -> None:
        names = sorted(p.name for p in (root / "incidents").glob("IL-*.yaml"))
        step = max(1, len(names) // 10)
        self.paths = [root / "incidents" / name for name in names[::step][:10]]
        self.originals = {path: path.read_bytes() for path in self.paths}
        self.moved = moved

    def __call__(self, run: int) -> None:
        for path, original in self.originals.items():
            if self.moved:  # lines move by a different amount each run: new summaries
                path.write_bytes(b"# edited for a benchmark\n" * (run + 1) + original)
            else:
                path.write_bytes(original + f"# edited for benchmark run {run}\n".encode())

    def restore(self) -> None:
        for path, original in self.originals.items():
            path.write_bytes(original)


class Additions(Edits):
    """Ten new incidents before each run (copies of ten others under new ids, citing new
    reports), the previous run's removed: new values for the cross-file rules each time."""

    def __call__(self, run: int) -> None:
        self.restore()
        for index, original in enumerate(self.originals.values()):
            number = 900_000 + 10 * run + index
            text = original.decode("utf-8")
            text = re.sub(r"(?m)^id: IL-\d+$", f"id: IL-{number}", text)
            text = text.replace("url: https://", f"url: https://run{run}.")
            (self.folder / f"IL-{number}.yaml").write_text(text, encoding="utf-8")

    @property
    def folder(self) -> Path:
        return next(iter(self.originals)).parent

    def restore(self) -> None:
        for path in self.folder.glob("IL-9?????.yaml"):
            path.unlink()


# ------------------------------------------------------------------------------------------
# Child modes: the floors and the parallel check-jsonschema
# ------------------------------------------------------------------------------------------


def _parse_share(args: tuple[list[str], str]) -> int:
    import yaml

    files, how = args
    parse = yaml.load if how == "load" else yaml.compose
    parsed = 0
    for name in files:
        with open(name, "rb") as stream:
            data = stream.read()
        try:
            parse(data, Loader=yaml.CSafeLoader)
            parsed += 1
        except yaml.YAMLError:
            pass
    return parsed


def _shares(files: list[str], count: int) -> list[list[str]]:
    return [files[i::count] for i in range(count)]


def floor(root: Path, how: str, jobs: int) -> None:
    files = sorted(str(p) for p in (root / "incidents").iterdir() if p.is_file())
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        pool.map(_parse_share, [(share, how) for share in _shares(files, jobs)])


def check_jsonschema(root: Path, executable: str, jobs: int) -> None:
    """check-jsonschema over every file, `jobs` processes at once, in batches that fit on a
    command line."""
    names = sorted(p.name for p in (root / "incidents").iterdir() if p.is_file())
    schema = str(root / "schema" / "incident.schema.json")
    batches = [names[i : i + 5000] for i in range(0, len(names), 5000)]
    running: list[subprocess.Popen[bytes]] = []
    for batch in batches:
        while len(running) >= jobs:
            running.pop(0).wait()
        running.append(
            subprocess.Popen(
                [executable, "--schemafile", schema, *batch],
                cwd=root / "incidents",
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
    for process in running:
        process.wait()


# ------------------------------------------------------------------------------------------
# The table
# ------------------------------------------------------------------------------------------


def _set_aside(folders: Sequence[Path], aside: Path, _run: int) -> None:
    """Move `folders` (an earlier run's cache or export) out of the way, into `aside`, which
    is emptied only when every command has been measured (`_empty`). Not deleted here: on
    ext4 without a journal (this machine's root file system), making a file searches past
    every inode freed in the last 30 s, or 5 min while its inode table is not yet written
    back (`recently_deleted` in the kernel's inode allocator). Two processes making 88,000
    small files took 2 s in a fresh folder and 42 s just after as many were deleted
    (`perf`: 60% of the time in `recently_deleted`). `os.sync()` after deleting, as this
    script did before, shortens the 5 min to 30 s, about the time a cold export at
    100,000 incidents takes to reach the writing of its files; a run that is not deleted
    leaves nothing to pay for."""
    aside.mkdir(exist_ok=True)
    for folder in folders:
        if folder.exists():
            os.rename(folder, Path(tempfile.mkdtemp(dir=aside)) / folder.name)


def _empty(aside: Path) -> None:
    shutil.rmtree(aside, ignore_errors=True)


def curator(*args: str) -> list[str]:
    return [sys.executable, "-m", "curator", *args]


def run_size(size: int, args: argparse.Namespace) -> dict[str, list[Sample]]:
    root, clean = library(args.dir, size, clean=False), library(args.dir, size, clean=True)
    me = [sys.executable, __file__]
    cache = root / ".curator-cache"
    results: dict[str, list[Sample]] = {}

    def runs(name: str) -> int:
        return args.slow_runs if name in SLOW and size >= 100_000 else args.runs

    def want(name: str) -> bool:
        return name in args.only

    aside = args.dir / ".set-aside"
    drop_cache = functools.partial(_set_aside, (cache,), aside)

    lint = curator("lint", "--root", str(root), "--quiet")  # run from the root, as people do
    plan: list[tuple[str, list[str], Path | None, Callable | None]] = [
        ("floor-load", [*me, "--child-floor", "load", str(root)], None, None),
        ("floor-compose", [*me, "--child-floor", "compose", str(root)], None, None),
        ("lint-nocache", [*lint, "--no-cache"], root, None),
        ("lint-cold", lint, root, drop_cache),
    ]
    if args.check_jsonschema:
        check = [*me, "--child-check-jsonschema", args.check_jsonschema, str(root)]
        plan.insert(2, ("check-jsonschema", check, None, None))
    for name, command, cwd, before in plan:
        if want(name):
            print(f"  {size:,}: {name}", file=sys.stderr)
            results[name] = repeat(runs(name), command, cwd, before)
    if want("lint-warm"):
        print(f"  {size:,}: lint-warm", file=sys.stderr)
        measure(lint, root)  # fills the cache
        results["lint-warm"] = repeat(runs("lint-warm"), lint, root)
    changes = {
        "lint-10-changed": functools.partial(Edits, moved=False),
        "lint-10-moved": functools.partial(Edits, moved=True),
        "lint-10-added": Additions,
    }
    if any(want(name) for name in changes):
        measure(lint, root)  # the cache as a warm run leaves it
    for name, change in changes.items():
        if want(name):
            print(f"  {size:,}: {name}", file=sys.stderr)
            edits = change(root)
            try:
                results[name] = repeat(runs(name), lint, root, before=edits)
            finally:
                edits.restore()
    out = args.dir / f"export-{size}"
    export = curator("export", "--root", str(clean), "--out", str(out), "--version", "v0.0.0")
    release_out = args.dir / f"export-release-{size}"
    # As the release workflow runs it: no cache to read or to write, in a fresh clone.
    release = curator(
        "export", "--no-cache", "--format", "github", "--root", str(clean),
        "--out", str(release_out), "--version", "v0.0.0",
    )  # fmt: skip
    # Cold: an empty cache (which the run fills) and, for export, no earlier export to link
    # unchanged files from; warm: both as the previous run left them.
    cached_commands = (
        ("fmt-check", curator("fmt", "--check", "--root", str(root)), root, ()),
        ("fix-check", curator("fix", "--check", "--root", str(root)), root, ()),
        ("export", export, clean, (out,)),
        ("export-release", release, clean, (release_out,)),
    )
    for name, command, where, outputs in cached_commands:
        if want(name):
            print(f"  {size:,}: {name}", file=sys.stderr)
            empty = functools.partial(_set_aside, (where / ".curator-cache", *outputs), aside)
            results[name] = repeat(runs(name), command, where, empty)
        if want(f"{name}-warm"):  # nothing changed since the last run
            print(f"  {size:,}: {name}-warm", file=sys.stderr)
            measure(command, where)
            results[f"{name}-warm"] = repeat(runs(f"{name}-warm"), command, where)
    return results


def similar(size: int, args: argparse.Namespace) -> str:
    script = HERE / "bench_similar.py"
    if not script.exists():
        return ""
    clean = library(args.dir, size, clean=True)
    runs = args.slow_runs if size >= 100_000 else args.runs
    command = [sys.executable, str(script), "--root", str(clean), "--runs", str(runs)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    return (
        done.stdout if done.returncode == 0 else f"(bench_similar.py failed: {done.stderr[-500:]})"
    )


def cell(samples: list[Sample] | None) -> str:
    if not samples:
        return "–"
    wall = statistics.median(s.wall for s in samples)
    cpu = statistics.median(s.cpu for s in samples)
    single = max(s.max_rss_mb for s in samples)
    tree = max(s.tree_rss_mb for s in samples)
    return f"{wall:.2f} s ({cpu:.1f} CPU s) · {single:.0f} / {tree:.0f} MB"


def ratio(results: dict[str, list[Sample]], top: str, bottom: str) -> str:
    if top not in results or bottom not in results:
        return "–"
    a = statistics.median(s.wall for s in results[top])
    b = statistics.median(s.wall for s in results[bottom])
    ca = statistics.median(s.cpu for s in results[top])
    cb = statistics.median(s.cpu for s in results[bottom])
    return f"{a / b:.2f}× wall, {ca / cb:.2f}× CPU"


LABELS = {
    "floor-load": "libyaml `yaml.load` (CSafeLoader), all CPUs",
    "floor-compose": "libyaml `yaml.compose` (CSafeLoader), all CPUs",
    "check-jsonschema": "check-jsonschema, all CPUs",
    "lint-nocache": "`curator lint --no-cache`",
    "lint-cold": "`curator lint`, cold (empty cache)",
    "lint-warm": "`curator lint`, warm (nothing changed)",
    "lint-10-changed": "`curator lint`, 10 files changed (text)",
    "lint-10-moved": "`curator lint`, 10 files changed (lines moved)",
    "lint-10-added": "`curator lint`, 10 files added",
    "fmt-check": "`curator fmt --check`, cold (empty cache)",
    "fmt-check-warm": "`curator fmt --check`, warm",
    "fix-check": "`curator fix --check`, cold (empty cache)",
    "fix-check-warm": "`curator fix --check`, warm",
    "export": "`curator export`, cold (defect-free copy, no cache, no earlier export)",
    "export-warm": "`curator export`, warm (cache and earlier export in place)",
    "export-release": "`curator export --no-cache --format github`, cold (as the release job)",
}


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"{os.cpu_count()} CPUs ({model}), Python {platform.python_version()} "
        f"({interpreter()}), {platform.system()} {platform.release()}; load average {load}"
    )


def interpreter() -> str:
    """Which build of Python runs the commands, and of curator: between two builds of the
    same CPython, every figure here moved by about a fifth (HISTORY.md, "Session 23")."""
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        maps = ""
    linked = "libpython shared" if "libpython" in maps else "libpython linked in"
    spec = importlib.util.find_spec("curator.lint")
    origin = spec.origin if spec and spec.origin else ""
    build = "compiled" if origin.endswith((".so", ".pyd")) else "pure Python"
    return f"{os.path.realpath(sys.executable)}, {linked}; curator {build}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--slow-runs", type=int, default=1, help="runs of slow commands at 100k")
    parser.add_argument("--dir", type=Path, default=Path("/tmp/bench"))
    parser.add_argument("--check-jsonschema", default=shutil.which("check-jsonschema"))
    parser.add_argument("--only", type=lambda s: s.split(","), default=list(COMMANDS))
    parser.add_argument("--child-floor", nargs=2, metavar=("HOW", "ROOT"), help=argparse.SUPPRESS)
    parser.add_argument(
        "--child-check-jsonschema", nargs=2, metavar=("EXE", "ROOT"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    jobs = os.cpu_count() or 1
    if args.child_floor:
        floor(Path(args.child_floor[1]), args.child_floor[0], jobs)
        return 0
    if args.child_check_jsonschema:
        check_jsonschema(Path(args.child_check_jsonschema[1]), args.child_check_jsonschema[0], jobs)
        return 0
    args.dir.mkdir(parents=True, exist_ok=True)
    print(f"machine: {machine()}", file=sys.stderr)
    _empty(args.dir / ".set-aside")  # what an interrupted run left: long before any export
    table = {size: run_size(size, args) for size in args.sizes}
    _empty(args.dir / ".set-aside")
    similars = {size: similar(size, args) for size in args.sizes} if "similar" in args.only else {}
    print(f"Machine: {machine()}. Median of {args.runs} runs ({args.slow_runs} for "
          f"{', '.join(sorted(SLOW))} at 100k). Cell: wall time (CPU time, workers included) · "
          "peak RSS of the largest process / of all its processes together.\n")  # fmt: skip
    print("| command | " + " | ".join(f"{size:,} files" for size in args.sizes) + " |")
    print("| --- |" + " --- |" * len(args.sizes))
    for name, label in LABELS.items():
        if any(name in table[size] for size in args.sizes):
            print(f"| {label} | " + " | ".join(cell(table[s].get(name)) for s in args.sizes) + " |")
    for label, top, bottom in (
        ("lint cold ÷ libyaml load", "lint-cold", "floor-load"),
        ("lint cold ÷ libyaml compose", "lint-cold", "floor-compose"),
        ("check-jsonschema ÷ lint cold", "check-jsonschema", "lint-cold"),
        ("check-jsonschema ÷ lint --no-cache", "check-jsonschema", "lint-nocache"),
    ):
        print(f"| {label} | " + " | ".join(ratio(table[s], top, bottom) for s in args.sizes) + " |")
    for size, text in similars.items():
        if text:
            print(f"\n`curator similar`, {size:,} files (benchmarks/bench_similar.py):\n\n{text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
