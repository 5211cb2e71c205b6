"""The caches other than lint's are never wrong: a differential test against runs without.

`tests/test_cache_differential.py` holds lint's cache to lint without one. This holds the
others to the same: fmt's verdicts and the file digests under them, the lint results `fix`
reads, the export's released data, the similarity index (with the shares it is assembled
from), which `similar`, `suggest`, `search`, `curator new` and `review` read, and the ids of
the checkout's files, by which `review` tells it holds the commit it reviews.

A generated library, committed to git, is edited by a seeded random sequence of edits:
texts, titles and ids changed, two files' ids swapped, a reference to an absent id added
and that id then given to a new file, source URLs shared and made unique again, files
renamed (to names the library reads otherwise, or not at all), deleted, added, restored,
touched, replaced by the same bytes and checked out again through a git filter (`ident`),
bytes the loader refuses or repairs put in, comments and blank lines inserted (lines
moved, or a block's text changed), layouts and white space spoilt for fmt and fix, the
taxonomy given an alias and a deprecated term and put back, stores of the cache deleted,
and releases tagged. After each step (committed), every
command runs twice, with the cache and without (`--no-cache`, or, for the commands that
have no such flag, with `.curator-cache` a symbolic link, which turns the cache off), in
this process: exit code, standard output and standard error must be the same, and the
export's folders the same bytes.

Each sequence runs in one of two clocks, as lint's differential test does: the real one,
under which no file has settled (kept results are vouched for by their SHA-256), or one
under which every file settles at once (`SETTLED_NS` = 0: results vouched for by the
stat alone), where the test waits for the file system's clock to tick between every edit
and every run, which is what the two seconds of `settled_stat` guarantee of real edits.

A last test runs commands at once, as processes of their own, while files change: none
may crash, nor leave in the cache what a later run takes for true.

`fuzz/caches_differential.py` runs longer sequences over more seeds, and every command
at each step.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import committed_at
from synthetic import synthetic_library
from test_cache_differential import wait_for_the_clock

import curator.cli
import curator.lint_cache
from curator.cache import FOLDER

Answer = tuple[int, str, str]  # exit code, standard output, standard error
QUERIES = ("NCCL 타임아웃 때문에 학습이 멈춤", "DNS 장애", "GPU 드라이버 오류로 노드가 빠졌다")
STORES = (
    *("lint", "lint-summary", "fmt", "export", "file-digests", "similarity", "index-shares"),
    "blob-ids",  # (the ids of the checkout's files, by which `review` tells it holds the commit)
)


@dataclasses.dataclass
class Lab:
    """A library in git, what its files first held, and the random source of its edits."""

    root: Path
    rng: random.Random
    originals: dict[str, bytes]
    taxonomy: dict[str, bytes]
    settled: bool
    serial: int = 0
    commits: int = 0
    tags: int = 0
    missing: list[str] = dataclasses.field(default_factory=list)  # ids referred to, absent

    @property
    def incidents(self) -> Path:
        return self.root / "incidents"

    def files(self) -> list[Path]:
        return sorted(p for p in self.incidents.iterdir() if p.is_file() and not p.is_symlink())

    def pick(self) -> Path:
        return self.rng.choice(self.files())

    def fresh(self) -> int:
        self.serial += 1
        return self.serial

    def git(self, *args: str) -> str:
        when = f"2024-01-{1 + self.commits // 60 % 28:02d}T00:{self.commits % 60:02d}:00"
        proc = subprocess.run(
            ["git", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false", *args],
            cwd=self.root,
            env=committed_at(when),
            capture_output=True,
            text=True,
            check=True,
        )
        return proc.stdout.strip()

    def commit(self) -> None:
        self.commits += 1
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", f"step {self.commits}")

    def tick(self) -> None:
        """In the settled clock: until a file written now gets a later ctime than any file
        written before now (no edit shares a tick with a stat a run recorded)."""
        if self.settled:
            wait_for_the_clock(self.root.parent / "probe")


# -- the edits ---------------------------------------------------------------------------------


def _lines(path: Path) -> list[str]:
    return path.read_text("utf-8", errors="surrogateescape").split("\n")


def _write(lab: Lab, path: Path, lines: list[str]) -> None:
    """Write `lines`; one time in four, with the file's modification time put back (only
    its ctime tells it changed)."""
    before = path.stat() if path.exists() else None
    path.write_text("\n".join(lines), "utf-8", errors="surrogateescape")
    if before is not None and lab.rng.random() < 0.25:
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def _line_of(lines: list[str], prefix: str) -> int | None:
    return next((i for i, line in enumerate(lines) if line.startswith(prefix)), None)


def _set(lab: Lab, path: Path, prefix: str, line: str) -> None:
    lines = _lines(path)
    at = _line_of(lines, prefix)
    if at is not None:
        lines[at] = line
        _write(lab, path, lines)


def edit_text(lab: Lab) -> None:
    path = lab.pick()
    lines = _lines(path)
    key = lab.rng.choice(["symptom: |", "trigger: |", "lessons: |", "detection: |"])
    at = _line_of(lines, key)
    if at is not None and at + 1 < len(lines):
        lines[at + 1] += lab.rng.choice([" 다시 일어났다.", " NCCL 타임아웃.", " GPU 드라이버."])
        _write(lab, path, lines)


def edit_title(lab: Lab) -> None:
    path = lab.pick()
    _set(lab, path, "title:", f"title: DNS 리졸버 장애로 학습이 멈췄다 {lab.fresh()}")


def edit_id_of_another(lab: Lab) -> None:
    path, other = lab.pick(), lab.pick()
    theirs = _line_of(_lines(other), "id:")
    if theirs is not None:
        _set(lab, path, "id:", _lines(other)[theirs])


def edit_id_fresh(lab: Lab) -> None:
    _set(lab, lab.pick(), "id:", f"id: IL-{6000 + lab.fresh()}")


def edit_own_id(lab: Lab) -> None:
    path = lab.pick()
    _set(lab, path, "id:", f"id: {path.stem}")


def edit_swap_ids(lab: Lab) -> None:
    a, b = lab.pick(), lab.pick()
    la, lb = _lines(a), _lines(b)
    ia, ib = _line_of(la, "id:"), _line_of(lb, "id:")
    if ia is not None and ib is not None and a != b:
        la[ia], lb[ib] = lb[ib], la[ia]
        _write(lab, a, la)
        _write(lab, b, lb)


def edit_refer_to_missing(lab: Lab) -> None:
    """A reference to an id no file has (IL401), given to a file later (`add_missing`)."""
    missing = f"IL-{8000 + lab.fresh()}"
    lab.missing.append(missing)
    path = lab.pick()
    lines = _lines(path)
    if _line_of(lines, "related:") is None:
        lines[-1:] = ["related:", f"  - {missing}", ""]
        _write(lab, path, lines)


def edit_add_missing(lab: Lab) -> None:
    if lab.missing:
        _copy(lab, lab.missing.pop(lab.rng.randrange(len(lab.missing))))


def edit_add(lab: Lab) -> None:
    _copy(lab, f"IL-{7000 + lab.fresh()}")


def _copy(lab: Lab, new_id: str) -> None:
    """A copy of a file as a new incident `new_id`, its source URLs its own."""
    lines = _lines(lab.pick())
    at = _line_of(lines, "id:")
    if at is not None:
        lines[at] = f"id: {new_id}"
    lines = [
        f"  - url: https://example.org/{new_id}/{k}" if line.startswith("  - url:") else line
        for k, line in enumerate(lines)
    ]
    (lab.incidents / f"{new_id}.yaml").write_text("\n".join(lines), "utf-8", "surrogateescape")


def edit_share_url(lab: Lab) -> None:
    path, other = lab.pick(), lab.pick()
    theirs = _line_of(_lines(other), "  - url:")
    if theirs is not None:
        url = _lines(other)[theirs]
        spelling = lab.rng.choice(["", "/", "#part", "?utm_source=x"])
        _set(lab, path, "  - url:", url + spelling)


def edit_unique_url(lab: Lab) -> None:
    _set(lab, lab.pick(), "  - url:", f"  - url: https://example.org/u/{lab.fresh()}")


def edit_restore(lab: Lab) -> None:
    path = lab.pick()
    if path.name in lab.originals:
        path.write_bytes(lab.originals[path.name])


def edit_mend(lab: Lab) -> None:
    """Every file as it first was, and only those: the library passes lint again."""
    edit_undo_odd_names(lab)
    for path in lab.files():
        if path.name not in lab.originals:
            path.unlink()
    for name, raw in lab.originals.items():
        path = lab.incidents / name
        if not path.exists() or path.read_bytes() != raw:
            path.write_bytes(raw)
    lab.missing.clear()


def edit_rename(lab: Lab) -> None:
    """A file under a new name; with its id or not (IL202)."""
    path = lab.pick()
    target = lab.incidents / f"IL-{7000 + lab.fresh()}.yaml"
    path.rename(target)
    if lab.rng.random() < 0.5:
        _set(lab, target, "id:", f"id: {target.stem}")


def edit_odd_name(lab: Lab) -> None:
    """A file under a name the library reads otherwise, or not at all (IL107): another
    case, `.yml`, hidden, in a subfolder; a link to a file, a folder named as a file."""
    path = lab.pick()
    odd = lab.rng.choice(["il-{n}.yaml", "IL-{n}.yml", ".IL-{n}.yaml", "old/IL-{n}.yaml"])
    odd = lab.rng.choice([odd, "link", "folder"])
    if odd == "link":
        (lab.incidents / f"IL-{7000 + lab.fresh()}.yaml").symlink_to(path.name)
        return
    if odd == "folder":
        (lab.incidents / f"IL-{7000 + lab.fresh()}.yaml").mkdir()
        return
    target = lab.incidents / odd.format(n=7000 + lab.fresh())
    target.parent.mkdir(exist_ok=True)
    path.rename(target)


def edit_undo_odd_names(lab: Lab) -> None:
    """Links and files outside the library's names gone: the library's names only."""
    for path in sorted(lab.incidents.rglob("*"), reverse=True):
        if path.is_symlink():
            path.unlink()
        elif path.is_dir():
            for inside in path.iterdir():
                inside.rename(lab.incidents / f"IL-{7000 + lab.fresh()}.yaml")
            path.rmdir()
        elif not re.fullmatch(r"IL-[0-9]+\.yaml", path.name):
            path.rename(lab.incidents / f"IL-{7000 + lab.fresh()}.yaml")


def edit_bytes(lab: Lab) -> None:
    """Bytes the loader refuses or repairs: a byte-order mark, a byte that is not UTF-8,
    a NUL, a key twice, a line that breaks the YAML."""
    path = lab.pick()
    raw = path.read_bytes()
    at = lab.rng.randrange(len(raw) + 1)
    piece = lab.rng.choice([b"\xef\xbb\xbf", b"\xff", b"\x00", b"\ntitle: again\n", b"\nkey: [x\n"])
    path.write_bytes(piece + raw if piece == b"\xef\xbb\xbf" else raw[:at] + piece + raw[at:])


def edit_delete(lab: Lab) -> None:
    files = lab.files()
    if len(files) > 5:
        lab.rng.choice(files).unlink()


def edit_touch(lab: Lab) -> None:
    now = time.time_ns()
    os.utime(lab.pick(), ns=(now, now))


def edit_replace_same(lab: Lab) -> None:
    """The same bytes under a new inode, as an editor or a checkout writes them."""
    path = lab.pick()
    temporary = path.with_name("replacing")
    temporary.write_bytes(path.read_bytes())
    os.replace(temporary, path)


def edit_comment(lab: Lab) -> None:
    """A comment line: in a block's text, text; elsewhere, lines moved."""
    path = lab.pick()
    lines = _lines(path)
    lines.insert(lab.rng.randrange(len(lines) + 1), lab.rng.choice(["# 메모", "", "#"]))
    _write(lab, path, lines)


def edit_layout(lab: Lab) -> None:
    """A layout fmt changes: a list indented further, or a key's value quoted."""
    path = lab.pick()
    lines = _lines(path)
    if lab.rng.random() < 0.5:
        lines = [f"  {line}" if line.startswith("  - ") else line for line in lines]
    else:
        at = _line_of(lines, "title: ")
        if at is not None:
            lines[at] = f'title: "{lines[at].removeprefix("title: ")}"'
    _write(lab, path, lines)


def edit_white_space(lab: Lab) -> None:
    """What fix mends: a trailing space, a tab, a CR."""
    path = lab.pick()
    lines = _lines(path)
    at = lab.rng.randrange(len(lines))
    lines[at] += lab.rng.choice([" ", "\t", "\r"])
    _write(lab, path, lines)


def edit_alias(lab: Lab) -> None:
    """A new alias for a term: what search and suggest recognise changes."""
    path = lab.root / "schema" / "taxonomy" / "components.yaml"
    text = path.read_text("utf-8")
    alias = lab.rng.choice(["타임아웃", "학습 멈춤", "리졸버 오류", "드라이버"])
    text = text.replace("    aliases:\n", f"    aliases:\n      - {alias} {lab.fresh()}\n", 1)
    path.write_text(text, "utf-8")


def edit_deprecate(lab: Lab) -> None:
    """A term used by incidents deprecated (IL302, which fix replaces)."""
    path = lab.root / "schema" / "taxonomy" / "components.yaml"
    term = lab.rng.choice(["nic", "dns-resolver", "data-loader", "nccl"])
    replacement = "gpu"
    text = path.read_text("utf-8")
    found = re.search(rf"\n  - id: {term}\n(?:    .*\n)*?    description: .*\n", text)
    if found and "deprecated:" not in text[found.start() : found.end() + 200]:
        deprecated = f"    deprecated:\n      replaced_by: {replacement}\n      reason: 시험.\n"
        text = text[: found.end()] + deprecated + text[found.end() :]
        path.write_text(text, "utf-8")


def edit_taxonomy_back(lab: Lab) -> None:
    for name, raw in lab.taxonomy.items():
        (lab.root / "schema" / "taxonomy" / name).write_bytes(raw)


def edit_ident(lab: Lab) -> None:
    """`$Id$` in a text, which git's `ident` writes out as `$Id: <blob id> $` on checkout:
    the checkout differs from the blob (see `checkout_again`)."""
    (lab.root / ".gitattributes").write_text("incidents/*.yaml ident\n", encoding="utf-8")
    path = lab.pick()
    lines = _lines(path)
    at = _line_of(lines, "symptom: |")
    if at is not None and at + 1 < len(lines):
        lines[at + 1] += " $Id$"
        _write(lab, path, lines)


def edit_checkout_again(lab: Lab) -> None:
    """A file as git checks it out (a branch switched and back, a stash popped)."""
    name = f"incidents/{lab.pick().name}"
    if lab.git("ls-files", "--", name):
        (lab.root / name).unlink()
        lab.git("checkout", "--", name)


def edit_forget(lab: Lab) -> None:
    """A store of the cache deleted (or all of it): the others are still trusted."""
    base = lab.root / FOLDER
    kind = lab.rng.choice([*STORES, "*"])
    if kind == "*":
        shutil.rmtree(base, ignore_errors=True)
        return
    for folder in base.glob(f"{kind}-*"):
        shutil.rmtree(folder, ignore_errors=True)


def edit_tag(lab: Lab) -> None:
    """A release: changes.json compares with it from now on."""
    lab.tags += 1
    lab.git("tag", f"v0.{lab.tags}.0")


EDITS: dict[str, Callable[[Lab], None]] = {
    name.removeprefix("edit_"): edit
    for name, edit in dict(globals()).items()
    if name.startswith("edit_") and callable(edit)
}
WEIGHTS = {"restore": 4, "mend": 3, "text": 3, "comment": 3, "taxonomy_back": 2, "forget": 2}


def random_edit(lab: Lab) -> str:
    if not lab.files():  # (moved into subfolders, say: a library to edit again)
        edit_mend(lab)
    names = list(EDITS)
    name = lab.rng.choices(names, [WEIGHTS.get(n, 1) for n in names])[0]
    EDITS[name](lab)
    return name


# -- the runs ----------------------------------------------------------------------------------


def invoke(*args: str) -> Answer:
    result = CliRunner().invoke(curator.cli.main, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    # (Lint's summary says how long it took.)
    return result.exit_code, result.stdout, re.sub(r"\(\d+\.\d+s\)", "(…)", result.stderr)


@contextlib.contextmanager
def cache_off(root: Path) -> Iterator[None]:
    """`.curator-cache` made a symbolic link for a while: every command goes without the
    cache then (neither read nor written), as with `--no-cache`."""
    folder, aside = root / FOLDER, root / f"{FOLDER}.aside"
    if folder.exists():
        folder.rename(aside)
    folder.symlink_to(root / "nowhere")
    try:
        yield
    finally:
        folder.unlink()
        if aside.exists():
            aside.rename(folder)


def export_answer(root: Path, out: Path, *options: str) -> tuple[Answer, dict[str, bytes]]:
    code, stdout, stderr = invoke("export", "--root", str(root), "--out", str(out), *options)
    answer = code, stdout, stderr.replace(str(out), "OUT")
    if code != 0:  # refused: the export before is left as it was
        return answer, {}
    files = {
        p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()
    }
    return answer, files


def judged(lab: Lab) -> list[tuple[str, ...]]:
    """The commands that read the similarity index, on a few files of the library, and
    `review` (`new` is apart: it writes a file)."""
    root, files = str(lab.root), lab.files()
    named = [str(p) for p in lab.rng.sample(files, min(3, len(files)))]
    query = lab.rng.choice(QUERIES)
    base = f"v0.{lab.tags}.0" if lab.tags else "HEAD~1"
    return [
        ("similar", "--root", root, "--format", "json", "--quiet", *named),
        ("similar", "--root", root, "--all", "--top", "3", "--quiet"),
        ("suggest", "--root", root, "--format", "json", "--quiet", *named[:2]),
        ("search", "--root", root, "--format", "json", "--quiet", query),
        ("review", "--root", root, "--base", base, "--format", "json"),
    ]


def compare(lab: Lab, step: int, what: str, judges: int | None = None) -> list[str]:
    """Every command with the cache and without (of those that read the similarity index,
    `judges` taken at random, if given: they cost the most); what differed."""
    root = str(lab.root)
    differ: list[str] = []
    lab.tick()
    for command in (("fmt", "--check"), ("fmt", "--diff"), ("fix", "--check"), ("lint",)):
        options = (*command, "--root", root, "--jobs", "1")
        cached = invoke(*options)
        lab.tick()
        if cached != invoke(*options, "--no-cache"):
            differ.append(f"step {step} ({what}): {' '.join(command)}")
    out = lab.root.parent / "export"
    out.mkdir(exist_ok=True)
    cached_export = export_answer(lab.root, out / "warm", "--jobs", "1")  # replaces the one before
    lab.tick()
    shutil.rmtree(out / "plain", ignore_errors=True)
    if cached_export != export_answer(lab.root, out / "plain", "--jobs", "1", "--no-cache"):
        differ.append(f"step {step} ({what}): export")
    commands = judged(lab)
    if judges is not None:
        commands = lab.rng.sample(commands, judges)
    cached_answers = [invoke(*command) for command in commands]
    lab.tick()
    with cache_off(lab.root):
        plain_answers = [invoke(*command) for command in commands]
    for command, cached, plain in zip(commands, cached_answers, plain_answers, strict=True):
        if cached != plain:
            differ.append(f"step {step} ({what}): {command[0]}")
    if judges is None or lab.rng.random() < 0.25:
        differ += compare_new(lab, step, what)
    return differ


def compare_new(lab: Lab, step: int, what: str) -> list[str]:
    """`curator new`'s facets and possible duplicates, with the cache and without; the
    draft deleted after each."""
    other = lab.pick()
    title = _lines(other)[_line_of(_lines(other), "title:") or 0].removeprefix("title: ")
    title = title.strip('"') + " NCCL 타임아웃으로 학습이 멈췄다"
    args = ["new", "--root", str(lab.root), "--title", title]
    args += ["--source", f"https://example.org/new/{lab.serial}", "--no-prompt"]
    answers = []
    for off in (False, True):
        with cache_off(lab.root) if off else contextlib.nullcontext():
            answers.append(invoke(*args))
        for draft in lab.incidents.glob("IL-NEW-*.yaml"):
            if draft.name not in lab.originals:
                draft.unlink()
    return [] if answers[0] == answers[1] else [f"step {step} ({what}): new"]


def new_lab(folder: Path, seed: int, count: int, settled: bool) -> Lab:
    root, _ = synthetic_library(folder / "lib", count=count, seed=seed, defects_per_rule=0)
    (root / ".gitignore").write_text(f"{FOLDER}*\n", encoding="utf-8")
    taxonomy = {p.name: p.read_bytes() for p in (root / "schema" / "taxonomy").iterdir()}
    originals = {p.name: p.read_bytes() for p in (root / "incidents").iterdir()}
    lab = Lab(root, random.Random(seed), originals, taxonomy, settled)
    lab.git("init", "-q", "-b", "main")
    lab.commit()
    return lab


def run(
    folder: Path,
    seed: int,
    steps: int,
    count: int = 30,
    settled: bool = False,
    judges: int | None = None,
) -> list[str]:
    """A sequence of `steps` steps (a few edits, a commit, every command twice: see
    `compare` for `judges`) on a generated library of `count` incidents; what differed
    (nothing, if the caches are never wrong)."""
    with pytest.MonkeyPatch.context() as patch:
        if settled:
            patch.setattr(curator.lint_cache, "SETTLED_NS", 0)
        lab = new_lab(folder, seed, count, settled)
        differ = compare(lab, 0, "cold")
        for step in range(1, steps + 1):
            edits = []
            for _ in range(lab.rng.randint(1, 3)):
                lab.tick()
                edits.append(random_edit(lab))
            lab.commit()
            differ += compare(lab, step, "+".join(edits), judges)
    return differ


# -- runs at once, while files change ---------------------------------------------------------

CHECKS = (
    ("lint", "--format", "json"),
    ("lint", "--jobs", "2"),
    ("fmt", "--check"),
    ("fix", "--check"),
    ("similar", "--all", "--top", "3", "--quiet"),
)
AT_ONCE = (*CHECKS, ("fmt",), ("fix",))  # (the last two write files, as an editor does)


def at_once(folder: Path, seed: int, rounds: int, count: int = 30) -> list[str]:
    """Two or three commands at once on one library, as processes of their own, while
    files are edited; then, with no more edits, cached runs answer as uncached ones, both
    at once and once every file has settled (its stat trusted): no run crashed, nor left
    in the cache what a later run takes for true."""
    lab = new_lab(folder, seed, count, settled=False)
    root = str(lab.root)
    wrong: list[str] = []
    for turn in range(rounds):
        commands = lab.rng.sample(AT_ONCE, lab.rng.randint(2, 3))
        errors = [folder / f"stderr-{k}" for k in range(len(commands))]
        running = []
        for command, error in zip(commands, errors, strict=True):
            with error.open("wb") as stream:  # (a file, not a pipe nobody reads meanwhile)
                running.append(
                    subprocess.Popen(
                        [sys.executable, "-m", "curator", *command, "--root", root],
                        stdout=subprocess.DEVNULL,
                        stderr=stream,
                    )
                )
        while any(process.poll() is None for process in running):
            random_edit(lab)
            time.sleep(lab.rng.random() / 20)
        for command, process, path in zip(commands, running, errors, strict=True):
            error = path.read_text("utf-8", errors="replace")
            # (Exit 2 is an answer too: `similar` could not judge a file removed meanwhile.)
            if "Traceback" in error or "internal error" in error:
                wrong.append(f"round {turn}: {' '.join(command)}: {process.returncode} {error}")
        for settle in (0.0, 2.1, 0.0):  # after the wait, the run that records, the one trusting
            time.sleep(settle)
            for command in CHECKS:
                options = (*command, "--root", root)
                cached = invoke(*options)
                with cache_off(lab.root):
                    if cached != invoke(*options):
                        wrong.append(f"round {turn}, {settle} s after: {' '.join(command)}")
    return wrong


@pytest.mark.parametrize("settled", [False, True])
def test_cached_runs_answer_as_uncached_runs(tmp_path, settled):
    # (Two of the commands that read the similarity index a step, and `new` a step in four:
    # the others run every step. fuzz/caches_differential.py runs them all, for longer.)
    assert run(tmp_path, seed=1 + settled, steps=12, count=12, settled=settled, judges=2) == []


def test_runs_at_once_while_files_change_leave_nothing_wrong_in_the_cache(tmp_path):
    assert at_once(tmp_path, seed=3, rounds=2, count=40) == []
