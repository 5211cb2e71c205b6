"""The lint cache is never wrong: a differential test against lint without a cache.

Random sequences of edits to a small library — lines moved (comments and blank lines at
the top or in the middle, lists re-indented or written in flow style, keys reordered), ids
made duplicate and unique again, references to existing and missing ids added, removed
and swapped, source URLs shared (in several spellings of one page), made unique and
swapped, incidents withdrawn as duplicates, files added, deleted, renamed, swapped, broken
and mended, touched, rewritten with their modification time put back, the taxonomy changed
and changed back, edits made while a run is under way — and, between them, runs over a
subset of the files, over a file outside incidents/, from another folder, on other days and
with worker processes. After every step, `lint(cache=True)` must return exactly the
findings of `lint(cache=False)` over the same files: per-file results, the cross-file
findings kept under the summaries' values and moved to their anchors, and all the rest.
A second test edits a generated library (a file of every defect) as text, the same way.

Each sequence runs in one of two clocks: the real one, under which no file in a test has
settled (so every kept result is vouched for by its SHA-256), and one under which every
file has settled at once (`SETTLED_NS` = 0, so results are vouched for by the stat alone);
there, the test lets the file system's clock tick between every edit and every run, which
is what the two seconds of `settled_stat` guarantee of real edits.

The tests at the end keep two holes the hunt found closed (both in how the taxonomy was
recorded in the cache's context).
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import functools
import itertools
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, write_library
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from synthetic import synthetic_library

import curator.lint as engine
import curator.lint_cache as kept
from curator.library import Library
from curator.lint import lint

DAYS = (dt.date(2026, 6, 1), dt.date(2024, 4, 30), dt.date(2024, 5, 1))
MISSING = ("IL-8001", "IL-8002")  # ids no file has (until one is given them)

ORPHAN_TERM = """\
  - id: orphan-term
    label:
      ko: 고아 용어
      en: Orphan term
    description: 없는 상위 용어를 가리킨다.
    parent: no-such-term
"""

Row = tuple[str, int, int, str, str, str, bool]


@dataclasses.dataclass
class Doc:
    """One incident file, as values and as the layout that decides where they stand."""

    stem: str
    id: str
    urls: list[str]
    related: list[str] = dataclasses.field(default_factory=list)
    not_duplicate_of: list[str] = dataclasses.field(default_factory=list)
    status: str = "published"
    duplicate_of: str | None = None
    occurred: str = "2024-05"
    top: int = 0  # comment lines before `id:`
    gap: int = 0  # blank and comment lines before `sources:`
    gap_refs: int = 0  # … and before `related:`
    indent: int = 2  # of the items of `sources` and `related`
    flow: bool = False  # `related: [a, b]` rather than one item per line
    refs_first: bool = False  # `related` and co. before `sources`
    quoted: bool = False  # source URLs in double quotes
    broken: str = ""  # "", "yaml" (no document) or "schema" (no incident)
    inserts: list[int] = dataclasses.field(default_factory=list)  # comment lines anywhere

    def render(self) -> str:
        lines = [f"# note {k}" for k in range(self.top)]
        lines += [
            f"id: {self.id}",
            "title: 공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다",
            f"status: {self.status}",
            f"occurred: {self.occurred}",
            "organizations:",
            "  - Example",
            "facets:",
            "  causes: [capacity-limit]",
            "  components:",
            "    - nccl",
            "  symptoms:",
            "    - throughput-degradation",
            "symptom: |",
            "  학습 처리량이 떨어졌다.",
            "trigger: |",
            "  노드 수를 늘렸다.",
            "detection: |",
            "  처리량 그래프에서 보였다.",
            "actions:",
            "  - 데이터를 로컬 디스크로 옮겼다.",
            "lessons: |",
            "  작은 규모 시험으로는 알 수 없었다.",
        ]
        pad = " " * self.indent
        sources = ["", "# sources follow"][: self.gap] + ["#"] * max(0, self.gap - 2)
        sources.append("sources:")
        for url in self.urls:
            shown = f'"{url}"' if self.quoted else url
            sources += [f"{pad}- url: {shown}", f"{pad}  title: Report"]
        refs = [""] * self.gap_refs
        for key, ids in (("related", self.related), ("not_duplicate_of", self.not_duplicate_of)):
            if not ids:
                continue
            if self.flow:
                refs.append(f"{key}: [{', '.join(ids)}]")
            else:
                refs += [f"{key}:", *(f"{pad}- {i}" for i in ids)]
        if self.duplicate_of is not None:
            refs.append(f"duplicate_of: {self.duplicate_of}")
        if self.status == "withdrawn":
            refs.append("withdrawn_reason: 같은 사건이다.")
        lines += refs + sources if self.refs_first else sources + refs
        if self.broken == "schema":
            lines = [line for line in lines if not line.startswith("title:")]
        elif self.broken == "yaml":
            lines.insert(len(lines) // 2, "key: [unclosed")
        for at in self.inserts:
            # A comment line: inside a block scalar it becomes text, elsewhere a comment;
            # either way no value the cross-file rules read changes, only places.
            lines.insert(at % (len(lines) + 1), "# inserted")
        return "\n".join(lines) + "\n"


def initial_docs() -> list[Doc]:
    """Six files, each with a finding of a cross-file rule to begin with."""
    return [
        Doc("IL-0001", "IL-0001", ["https://example.com/pm/1", "https://example.com/pm/s"]),
        Doc("IL-0002", "IL-0002", ["https://example.com/pm/2"], related=["IL-0001", "IL-8002"]),
        Doc("IL-0003", "IL-0003", ["https://example.com/pm/3", "https://www.example.com/pm/s/"]),
        Doc("IL-0004", "IL-0004", ["https://example.com/pm/4", "https://example.com/pm/5"]),
        Doc(
            "IL-0005",
            "IL-0005",
            ["https://example.com/pm/6", "https://example.com/pm/5#x"],
            related=["IL-8001"],
            not_duplicate_of=["IL-0002"],
        ),
        Doc(  # the same id as IL-0002, withdrawn as its duplicate: citing its report is fine
            "IL-0006",
            "IL-0002",
            ["https://example.com/pm/2?utm_source=x"],
            status="withdrawn",
            duplicate_of="IL-0002",
        ),
    ]


# -- the operations ---------------------------------------------------------------------------

_file = st.integers(0, 15)  # taken modulo the number of files
_small = st.integers(0, 3)
# Edits that move values but change none (what the kept cross-file findings follow).
MOVES = st.one_of(
    st.tuples(st.just("top"), _file, _small),
    st.tuples(st.just("gap"), _file, _small),
    st.tuples(st.just("gap_refs"), _file, _small),
    st.tuples(st.just("indent"), _file, st.sampled_from([0, 2, 4])),
    st.tuples(st.just("flow"), _file),
    st.tuples(st.just("refs_first"), _file),
    st.tuples(st.just("quoted"), _file),
    st.tuples(st.just("insert"), _file, st.integers(0, 60)),
    st.tuples(st.just("uninsert"), _file),
)
# Edits of values, of the files there are, and of how the next run is made.
CHANGES = st.one_of(
    st.tuples(st.just("id_of"), _file, _file),
    st.tuples(st.just("own_id"), _file),
    st.tuples(st.just("missing_id"), _file, st.integers(0, 1)),
    st.tuples(st.just("relate"), _file, _file, st.booleans(), st.booleans()),
    st.tuples(st.just("unrelate"), _file, _small, st.booleans()),
    st.tuples(st.just("swap_refs"), _file, st.booleans()),
    st.tuples(st.just("self_ref"), _file),
    st.tuples(st.just("share_url"), _file, _file, _small, st.integers(0, 4)),
    st.tuples(st.just("unique_url"), _file, _small),
    st.tuples(st.just("add_url"), _file),
    st.tuples(st.just("drop_url"), _file, _small),
    st.tuples(st.just("swap_urls"), _file),
    st.tuples(st.just("withdraw"), _file, _file),
    st.tuples(st.just("unwithdraw"), _file),
    st.tuples(st.just("draft"), _file),
    st.tuples(st.just("occurred"), _file, st.sampled_from(["2024-05", "2024-04-30", "2023"])),
    st.tuples(st.just("copy"), _file, st.booleans()),
    st.tuples(st.just("delete"), _file),
    st.tuples(st.just("rename"), _file),
    st.tuples(st.just("swap_files"), _file, _file),
    st.tuples(st.just("break"), _file, st.sampled_from(["yaml", "schema"])),
    st.tuples(st.just("mend"), _file),
    st.tuples(st.just("touch"), _file),
    st.tuples(st.just("replace_same"), _file),
    st.tuples(st.just("subset"), st.lists(_file, max_size=3)),
    st.tuples(st.just("outside"), _file),
    st.tuples(st.just("from_incidents")),
    st.tuples(st.just("day"), st.integers(0, len(DAYS) - 1)),
    st.tuples(st.just("again")),
    st.tuples(st.just("jobs")),
    st.tuples(st.just("taxonomy"), st.integers(0, 2)),
)
# Moves twice as often as changes: the runs between changes are when kept findings move.
OPS = st.integers(0, 2).flatmap(lambda k: CHANGES if k == 0 else MOVES)
# An edit made while a run is under way, after some files were looked up or checked.
DURING = st.tuples(st.just("during"), st.integers(0, 12), OPS)
# A step: a few edits (a value changed and changed back is no change), then a run of each
# kind; with `keep_mtime`, each write puts the file's modification time back (only its
# ctime tells it changed).
EDIT = st.integers(0, 9).flatmap(lambda k: DURING if k == 0 else OPS)  # one in ten
STEP = st.tuples(st.lists(EDIT, min_size=1, max_size=3), st.booleans())
STEPS = st.lists(STEP, min_size=5, max_size=25)


@dataclasses.dataclass
class World:
    """The library on disk, what it should hold, and how the next run is made."""

    root: Path
    docs: list[Doc]
    serial: int = 0  # for new names, ids and URLs
    day: dt.date = DAYS[0]
    cwd: Path | None = None
    paths: list[Path] = dataclasses.field(default_factory=list)
    jobs: int = 1

    def path(self, doc: Doc) -> Path:
        return self.root / "incidents" / f"{doc.stem}.yaml"

    def write(self, doc: Doc, keep_mtime: bool) -> None:
        path = self.path(doc)
        try:
            before = path.stat()
        except FileNotFoundError:
            before = None
        path.write_text(doc.render(), encoding="utf-8")
        if keep_mtime and before is not None:
            os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))

    def fresh(self) -> int:
        self.serial += 1
        return self.serial

    def pick(self, index: int) -> Doc:
        return self.docs[index % len(self.docs)]


def apply(world: World, op: tuple[Any, ...], keep_mtime: bool) -> None:
    """Change the library as `op` says; the run options (`paths`, `cwd`, `day`) too."""
    name, *args = op
    world.paths = []
    docs = world.docs
    doc = world.pick(args[0]) if args and isinstance(args[0], int) else None
    if name in ("top", "gap", "gap_refs", "indent"):
        setattr(doc, name, args[1])
    elif name in ("flow", "refs_first", "quoted"):
        setattr(doc, name, not getattr(doc, name))
    elif name == "insert":
        doc.inserts.append(args[1])
    elif name == "uninsert":
        doc.inserts = doc.inserts[:-1]
    elif name == "id_of":
        doc.id = world.pick(args[1]).id
    elif name == "own_id":
        doc.id = doc.stem
    elif name == "missing_id":
        doc.id = MISSING[args[1]]
    elif name == "relate":
        target = world.pick(args[1]).id if args[2] else MISSING[args[1] % 2]
        (doc.related if args[3] else doc.not_duplicate_of).append(target)
    elif name == "unrelate":
        refs = doc.related if args[2] else doc.not_duplicate_of
        if refs:
            del refs[args[1] % len(refs)]
    elif name == "swap_refs":
        refs = doc.related if args[1] else doc.not_duplicate_of
        refs.reverse()
    elif name == "self_ref":
        doc.related.append(doc.id)
    elif name == "share_url":
        url = world.pick(args[1]).urls[0]
        spellings = [
            url,
            url.replace("https://", "https://www.", 1),
            f"{url}/",
            f"{url}#part",
            f"{url}?utm_source=x",
        ]
        doc.urls[args[2] % len(doc.urls)] = spellings[args[3]]
    elif name == "unique_url":
        doc.urls[args[1] % len(doc.urls)] = f"https://example.org/r/{world.fresh()}"
    elif name == "add_url":
        doc.urls.append(f"https://example.org/r/{world.fresh()}")
    elif name == "drop_url":
        if len(doc.urls) > 1:
            del doc.urls[args[1] % len(doc.urls)]
    elif name == "swap_urls":
        doc.urls.reverse()
    elif name == "withdraw":
        doc.status, doc.duplicate_of = "withdrawn", world.pick(args[1]).id
    elif name == "unwithdraw":
        doc.status, doc.duplicate_of = "published", None
    elif name == "draft":
        doc.status = "draft" if doc.status == "published" else "published"
    elif name == "occurred":
        doc.occurred = args[1]
    elif name == "copy":
        stem = f"IL-{7000 + world.fresh()}"
        copy = dataclasses.replace(
            doc,
            stem=stem,
            id=stem if args[1] else doc.id,
            urls=list(doc.urls),
            related=list(doc.related),
            not_duplicate_of=list(doc.not_duplicate_of),
            inserts=list(doc.inserts),
        )
        docs.append(copy)
        world.write(copy, keep_mtime)
        return
    elif name == "delete":
        if len(docs) > 2:
            docs.remove(doc)
            world.path(doc).unlink()
        return
    elif name == "rename":
        old = world.path(doc)
        doc.stem = f"IL-{7000 + world.fresh()}"
        old.rename(world.path(doc))
        return
    elif name == "swap_files":
        other = world.pick(args[1])
        if other is not doc:
            a, b = world.path(doc), world.path(other)
            parking = a.with_name("parked")
            a.rename(parking)
            b.rename(a)
            parking.rename(b)
            doc.stem, other.stem = other.stem, doc.stem
        return
    elif name == "break":
        doc.broken = args[1]
    elif name == "mend":
        doc.broken = ""
    elif name == "touch":
        now = time.time_ns()
        os.utime(world.path(doc), ns=(now, now))
        return
    elif name == "replace_same":  # same bytes, a new inode (as an editor or a checkout does)
        path = world.path(doc)
        temporary = path.with_name("replacing")
        temporary.write_bytes(path.read_bytes())
        os.replace(temporary, path)
        return
    elif name == "subset":
        world.paths = sorted({world.path(world.pick(i)) for i in args[0]})
        return
    elif name == "outside":  # a copy outside incidents/, named on the command line
        drafts = world.root / "drafts"
        drafts.mkdir(exist_ok=True)
        path = drafts / f"{doc.stem}.yaml"
        path.write_text(doc.render(), encoding="utf-8")
        world.paths = [path]
        return
    elif name == "from_incidents":
        world.cwd = None if world.cwd else world.root / "incidents"
        return
    elif name == "day":
        world.day = DAYS[args[0]]
        return
    elif name == "again":
        return
    elif name == "jobs":  # worker processes: results come back pickled
        world.jobs = 3 - world.jobs
        return
    elif name == "taxonomy":  # a new context; and back to an old one, with its old entries
        components = world.root / "schema" / "taxonomy" / "components.yaml"
        original = (REPO / "schema" / "taxonomy" / "components.yaml").read_text("utf-8")
        changes = ["", "# only a comment\n", ORPHAN_TERM]
        components.write_text(original + changes[args[0]], encoding="utf-8")
        return
    else:  # pragma: no cover
        raise AssertionError(name)
    world.write(doc, keep_mtime)


def findings(world: World, cache: bool) -> list[Row]:
    found = lint(
        Library.at(world.root),
        world.paths,
        today=world.day,
        cwd=world.cwd or world.root,
        cache=cache,
        jobs=world.jobs,
    )
    return [
        (f.path, f.line, f.column, f.code, f.message, str(f.severity), f.fixable) for f in found
    ]


def wait_for_the_clock(probe: Path) -> None:
    """Until a file written now gets a later ctime than any file written before now."""
    now = time.time_ns()
    while True:
        probe.write_bytes(b"")
        if probe.stat().st_ctime_ns > now:
            return
        time.sleep(0.001)


@contextlib.contextmanager
def library(settled: bool) -> Iterator[World]:
    """A fresh library; with `settled`, every file's stat is trusted as soon as it is seen."""
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        docs = initial_docs()
        root = write_library(Path(folder) / "lib", {f"{d.stem}.yaml": d.render() for d in docs})
        if settled:
            patch.setattr(kept, "SETTLED_NS", 0)
        yield World(root, docs)


@functools.cache
def _fine_clock() -> bool:
    """Whether files' ctimes tick within milliseconds here (else the settled clock would
    make the test slow: it runs on the real clock instead)."""
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        wait_for_the_clock(Path(folder) / "probe")
        return time.perf_counter() - start < 0.05


def check(steps: list[tuple[list[tuple[Any, ...]], bool]], settled: bool) -> None:
    settled = settled and _fine_clock()
    with library(settled) as world:
        probe = world.root.parent / "probe"

        def settle() -> None:
            # What two seconds guarantee of real edits: none shares a ctime with a file
            # whose stat a run recorded (so: none in the same tick as a run).
            if settled:
                wait_for_the_clock(probe)

        assert findings(world, cache=True) == findings(world, cache=False)
        for number, (ops, keep_mtime) in enumerate(steps):
            for op in ops:
                settle()
                if op[0] == "during":  # an edit while a run is checking the files
                    edit_during_a_run(world, op[1], op[2], keep_mtime)
                else:
                    apply(world, op, keep_mtime)
            settle()
            with_cache = findings(world, cache=True)
            without = findings(world, cache=False)
            assert with_cache == without, (number, ops, keep_mtime)


def edit_during_a_run(world: World, after: int, op: tuple[Any, ...], keep_mtime: bool) -> None:
    """A cached run in which `op` is done once `after` + 1 files were looked up or checked
    (its findings may be of either state: they are not compared; the next run's are)."""
    done = [0]
    real_get, real_check = kept.ResultCache.get, engine.check_file

    def tick() -> None:
        done[0] += 1
        if done[0] == after + 1:
            apply(world, op, keep_mtime)

    def get(self: kept.ResultCache, *args: Any) -> kept.Checked | None:
        result = real_get(self, *args)
        tick()
        return result

    def check_file(*args: Any) -> kept.Checked:
        result = real_check(*args)
        tick()
        return result

    paths, jobs = world.paths, world.jobs
    world.jobs = 1  # the edit happens in this process
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kept.ResultCache, "get", get)
        patch.setattr(engine, "check_file", check_file)
        findings(world, cache=True)
    world.paths, world.jobs = paths, jobs


@settings(
    max_examples=int(os.environ.get("CURATOR_DIFFERENTIAL_EXAMPLES", "25")),
    deadline=None,
    derandomize=not os.environ.get("CURATOR_DIFFERENTIAL_EXAMPLES"),
    suppress_health_check=[HealthCheck.too_slow],
)
@given(steps=STEPS, settled=st.booleans())
def test_cached_lint_equals_uncached_lint(steps, settled):
    check(steps, settled)


# -- the same over a generated library, edited as text ----------------------------------------

_SERIAL = itertools.count()
RAW = st.one_of(
    st.tuples(st.just("prepend"), st.integers(0, 200)),
    st.tuples(st.just("line"), st.integers(0, 200), st.integers(0, 80), st.booleans()),
    st.tuples(st.just("swap_lines"), st.integers(0, 200), st.integers(0, 80)),
    st.tuples(st.just("url_of"), st.integers(0, 200), st.integers(0, 200)),
    st.tuples(st.just("fresh_url"), st.integers(0, 200)),
    st.tuples(st.just("id_of"), st.integers(0, 200), st.integers(0, 200)),
    st.tuples(st.just("relate"), st.integers(0, 200), st.integers(0, 200)),
    st.tuples(st.just("restore"), st.integers(0, 200)),
    st.tuples(st.just("copy"), st.integers(0, 200)),
    st.tuples(st.just("delete"), st.integers(0, 200)),
    st.tuples(st.just("rename"), st.integers(0, 200)),
    st.tuples(st.just("subset"), st.lists(st.integers(0, 200), max_size=4)),
)
RAW_STEPS = st.lists(st.lists(RAW, min_size=1, max_size=4), min_size=3, max_size=12)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root, _ = synthetic_library(tmp_path_factory.mktemp("generated") / "lib", count=100)
    return root


def edit_text(root: Path, originals: dict[str, bytes], op: tuple[Any, ...]) -> list[Path]:
    """Change the generated library as `op` says; the paths the next run names, if any."""
    name, *args = op
    files = sorted(p for p in (root / "incidents").iterdir() if p.is_file())
    path = files[args[0] % len(files)] if args and isinstance(args[0], int) else None
    other = files[args[1] % len(files)] if len(args) > 1 and name in ("url_of", "id_of") else None
    lines = path.read_bytes().split(b"\n") if path else []

    def line_of(text: list[bytes], prefix: bytes) -> int | None:
        return next((i for i, line in enumerate(text) if line.startswith(prefix)), None)

    if name == "prepend":
        lines.insert(0, b"# moved")
    elif name == "line":  # a blank or comment line: in a text block, text; elsewhere nothing
        lines.insert(args[1] % (len(lines) + 1), b"# c" if args[2] else b"")
    elif name == "swap_lines":
        k = args[1] % len(lines)
        lines[k - 1], lines[k] = lines[k], lines[k - 1]
    elif name in ("url_of", "id_of"):
        prefix = b"  - url: " if name == "url_of" else b"id: "
        mine, theirs = line_of(lines, prefix), line_of(other.read_bytes().split(b"\n"), prefix)
        if mine is not None and theirs is not None:
            lines[mine] = other.read_bytes().split(b"\n")[theirs].rstrip(b"\r")
    elif name == "fresh_url":
        mine = line_of(lines, b"  - url: ")
        if mine is not None:
            lines[mine] = f"  - url: https://example.org/n/{next(_SERIAL)}".encode()
    elif name == "relate":  # a second `related:` is a duplicate key: the later one counts
        lines[-1:] = [b"related:", b"  - " + files[args[1] % len(files)].stem.encode(), b""]
    elif name == "restore":
        original = originals.get(path.name)
        if original is not None:
            path.write_bytes(original)
        return []
    elif name == "copy":
        target = path.with_name(f"IL-{5000 + len(files)}.yaml")
        target.write_bytes(path.read_bytes())
        return []
    elif name == "delete":
        if len(files) > 2:
            path.unlink()
        return []
    elif name == "rename":
        path.rename(path.with_name(f"IL-{6000 + len(files)}{path.suffix}"))
        return []
    elif name == "subset":
        return sorted({files[i % len(files)] for i in args[0]})
    path.write_bytes(b"\n".join(lines))
    return []


@settings(
    max_examples=int(os.environ.get("CURATOR_DIFFERENTIAL_EXAMPLES", "8")),
    deadline=None,
    derandomize=not os.environ.get("CURATOR_DIFFERENTIAL_EXAMPLES"),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(steps=RAW_STEPS)
def test_cached_lint_equals_uncached_lint_on_a_generated_library(generated, steps):
    """The generated library holds a file of every defect (BOM, CRLF, bad UTF-8, duplicate
    keys, a taxonomy problem …), so the edits meet every shape of file the rules know."""
    originals = {p.name: p.read_bytes() for p in (generated / "incidents").iterdir()}
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "lib"
        shutil.copytree(generated, root)
        world = World(root, [])
        assert findings(world, cache=True) == findings(world, cache=False)
        for number, ops in enumerate(steps):
            for op in ops:
                world.paths = edit_text(root, originals, op)
            assert findings(world, cache=True) == findings(world, cache=False), (number, ops)


# -- found by the hunt, and closed ---------------------------------------------------------


def test_a_taxonomy_saved_just_as_a_run_starts_leaves_no_result_under_its_old_bytes(
    tmp_path, monkeypatch
):
    """The context records the taxonomy as the run loaded it (`Taxonomy.sources`). It used
    to hash the files again in `ResultCache.open`, apart from the load: an editor saving the
    taxonomy in between had the run's results, made with one taxonomy, kept under the
    other's bytes, and served from then on."""
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": initial_docs()[0].render()})
    world = World(root, [])
    components = root / "schema" / "taxonomy" / "components.yaml"
    before = components.read_bytes()
    real_open = kept.ResultCache.open.__func__  # type: ignore[attr-defined]

    def open_then_edit(cls: type[kept.ResultCache], library: Library) -> kept.ResultCache | None:
        store = real_open(cls, library)
        components.write_bytes(before.replace(b"  - id: nccl\n", b"  - id: ncl\n"))
        return store

    with monkeypatch.context() as patch:
        patch.setattr(kept.ResultCache, "open", classmethod(open_then_edit))
        findings(world, cache=True)  # made with the edited taxonomy: IL301 for nccl
    components.write_bytes(before)
    assert findings(world, cache=True) == findings(world, cache=False) == []


@pytest.mark.skipif(os.name == "nt", reason="symbolic links")
def test_a_taxonomy_file_unreadable_in_another_way_is_reported_as_it_is_now(tmp_path):
    """IL303 says why a taxonomy file cannot be read ("cannot read: …"); the context records
    that reason, not just "unreadable", so that findings kept with one reason are not
    served when the reason is another."""
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": initial_docs()[0].render()})
    world = World(root, [])
    components = root / "schema" / "taxonomy" / "components.yaml"
    components.unlink()
    components.mkdir()  # cannot read: Is a directory
    assert findings(world, cache=True) == findings(world, cache=False)
    components.rmdir()
    components.symlink_to(root / "gone.yaml")  # cannot read: No such file or directory
    assert findings(world, cache=True) == findings(world, cache=False)
