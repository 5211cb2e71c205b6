from __future__ import annotations

import ctypes
import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from ruamel.yaml import YAML

REPO = Path(__file__).resolve().parent.parent


def benchmark_script(name: str) -> ModuleType:
    """`benchmarks/<name>.py` imported as the module `name`, as it runs: its folder on the
    import path (the scripts import each other) and the module in `sys.modules` (a
    dataclass looks its module up by name)."""
    if name not in sys.modules:
        if str(REPO / "benchmarks") not in sys.path:
            sys.path.append(str(REPO / "benchmarks"))
        spec = importlib.util.spec_from_file_location(name, REPO / "benchmarks" / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


DATA = REPO / "tests" / "data"
BROKEN = DATA / "broken"

# Python 3.12+ warns when a process forks while it has threads (the child may inherit a
# lock another thread held): curator's pools fork their workers before starting their own
# threads, and a run uses one pool at a time. The warning cannot be made an error (`-W
# error`, pytest's `filterwarnings`): `os.fork` clears it. So it is caught here, in the
# tests' process and in every `run_curator`, and fails the test. (3.11 never warns.)
FORK_WITH_THREADS = r"This process \(pid=\d+\) is multi-threaded, use of fork\(\)"
# Under pytest-xdist the tests' process runs threads of its own (execnet's), and every fork
# there warns: in such a process, the Python threads a test started and left running when
# it forked are what fails it (`_threads_at_fork`, on any Python), not the warning.
_RUNNING_BEFORE: set[int | None] = set()  # the threads running when the test started
_STARTED_AT_FORK: list[str] = []  # those the test started, running at a fork: their names


def _threads_at_fork() -> None:
    _STARTED_AT_FORK.extend(
        thread.name for thread in threading.enumerate() if thread.ident not in _RUNNING_BEFORE
    )


os.register_at_fork(before=_threads_at_fork)


def _threads_of_this_process() -> int:
    """Python's and any other (execnet starts its own without `threading`): as the
    system counts them, where it says (Linux)."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return threading.active_count()
    return int(re.search(r"^Threads:\s+(\d+)", status, re.M).group(1))  # type: ignore[union-attr]


@pytest.fixture(autouse=True)
def no_fork_with_threads() -> Iterator[None]:
    _RUNNING_BEFORE.clear()
    _RUNNING_BEFORE.update(thread.ident for thread in threading.enumerate())
    _STARTED_AT_FORK.clear()
    alone = _threads_of_this_process() == 1  # (not under xdist)
    with warnings.catch_warnings(record=True) as caught:
        warnings.filterwarnings("always", FORK_WITH_THREADS, DeprecationWarning)
        yield
    forks = [str(w.message) for w in caught if re.match(FORK_WITH_THREADS, str(w.message))]
    for other in caught:  # to pytest, which shows them as usual
        if str(other.message) not in forks:
            warnings.warn_explicit(other.message, other.category, other.filename, other.lineno)
    assert not _STARTED_AT_FORK, f"forked while these threads ran: {_STARTED_AT_FORK}"
    assert not (alone and forks), forks


def typed_like_other_tools(raw: bytes) -> object:
    """YAML as editors and check-jsonschema read it: YAML 1.2's implicit types (a plain
    `2024` is a number), dates left as text. curator reads every scalar as text."""
    yaml = YAML(typ="safe", pure=True)
    constructors = yaml.constructor.yaml_constructors
    constructors["tag:yaml.org,2002:timestamp"] = constructors["tag:yaml.org,2002:str"]
    return yaml.load(raw)


def committed_at(when: str) -> dict[str, str]:
    """The environment of a git command that commits as a fixed author at a fixed time
    (`when`: ISO 8601, UTC), so that its commit ids are the same on every run."""
    return {
        **os.environ,
        "GIT_AUTHOR_NAME": "Test",
        "GIT_AUTHOR_EMAIL": "test@example.invalid",
        "GIT_COMMITTER_NAME": "Test",
        "GIT_COMMITTER_EMAIL": "test@example.invalid",
        "GIT_AUTHOR_DATE": f"{when}+00:00",
        "GIT_COMMITTER_DATE": f"{when}+00:00",
    }


@dataclass
class Run:
    code: int
    out: str
    err: str


def run_curator(
    *args: str,
    cwd: Path = REPO,
    env: dict[str, str] | None = None,
    timeout: float | None = None,
    closing: tuple[int, ...] = (),
    permissions: bool = False,
) -> Run:
    """The real `curator` program in a subprocess, as a user would run it; with `timeout`,
    a run that does not end in time fails the test (TimeoutExpired) instead of hanging it;
    `closing` names standard streams (0, 1, 2) it starts without, as after `<&-`. (What
    it wrote to a closed stream reads as "".) With `permissions`, what the files'
    permissions refuse is refused to it, run as root too (`as_permissions_say`)."""

    def started() -> None:
        for stream in closing:
            os.close(stream)
        if permissions:
            as_permissions_say()

    proc = subprocess.run(
        [sys.executable, "-m", "curator", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=_curator_env(env),
        check=False,
        timeout=timeout,
        preexec_fn=started if closing or permissions else None,
    )
    return _checked(proc.returncode, proc.stdout, proc.stderr)


def as_permissions_say() -> None:
    """In a process about to run a program: what the files' permissions refuse is refused
    to it. Tests run as root too (a container), whom the system lets past them: it drops
    the capabilities that do (Linux's PR_CAPBSET_DROP), not to skip what `chmod` shows."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def start_python(
    *args: str, cwd: Path = REPO, env: dict[str, str] | None = None, **options: Any
) -> subprocess.Popen[str]:
    """`python ARGS` (`-m curator …`, or `-c` code that runs curator in its own way) as
    `run_curator` runs it, but not waited for: for a test that acts on the run meanwhile
    (sends it a signal). `ended` waits for it."""
    return subprocess.Popen(
        [sys.executable, *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        env=_curator_env(env),
        **options,
    )


def ended(process: subprocess.Popen[str], timeout: float = 60) -> Run:
    """What a process of `start_python` said, once it has ended (in `timeout` seconds, or
    the test fails instead of hanging)."""
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()  # (not to leave it behind the failed test)
        process.communicate()
        raise
    return _checked(process.returncode, out, err)


# SIGTERM as `subprocess.Popen` waits to hear that a git whose arguments hold $STALL has
# started (the child's exec): a stop raised there, before curator had the process, left git
# running. The git's process id goes to $STALLED.
_STOPPED_AS_GIT_STARTS = """
import os, signal, subprocess
started = subprocess.Popen._execute_child
def execute_child(self, args, *rest):
    started(self, args, *rest)
    if os.environ["STALL"] in args:
        with open(os.environ["STALLED"], "w") as stalled:
            stalled.write(str(self.pid))
        os.kill(os.getpid(), signal.SIGTERM)
subprocess.Popen._execute_child = execute_child
from curator.__main__ import main
main()
"""


def stopped_as_git_starts(word: str, *args: str, cwd: Path, scratch: Path) -> tuple[Run, bool]:
    """`curator ARGS`, sent SIGTERM as it starts the first git whose arguments hold `word`
    (a git that would take a minute): what it said, and whether it left that git running
    (which is then ended). `scratch`: a folder for the stand-in git."""
    real_git = shutil.which("git")
    stand_in = scratch / "bin" / "git"
    stand_in.parent.mkdir()
    stand_in.write_text(
        f'#!/bin/sh\nfor a; do [ "$a" = "{word}" ] && exec sleep 60; done\nexec {real_git} "$@"\n',
        encoding="utf-8",
    )
    stand_in.chmod(0o755)
    stalled = scratch / "stalled"
    path = f"{stand_in.parent}{os.pathsep}{os.environ['PATH']}"
    env = {"PATH": path, "STALL": word, "STALLED": str(stalled)}
    run = ended(start_python("-c", _STOPPED_AS_GIT_STARTS, *args, cwd=cwd, env=env))
    git = int(stalled.read_text(encoding="utf-8"))
    try:
        os.kill(git, signal.SIGKILL)
    except ProcessLookupError:  # ended, and waited for, as it should be
        return run, False
    return run, True


# Ctrl-C as curator first imports $LOADING, where it is dropped: what code that Python calls
# from C raises (pydantic-core building a validator, a weakref's callback as a module
# loads) is printed, "Exception ignored in: …", and the run goes on.
_STOPPED_AS_IT_LOADS = """
import builtins, importlib.util, os, signal, sys
class Swallowing:
    def __del__(self):
        signal.raise_signal(signal.SIGINT)
load = builtins.__import__
def loading(name, globals=None, locals=None, fromlist=(), level=0):
    package = globals["__package__"] if level else None  # (`from .synchronize import Lock`)
    full = importlib.util.resolve_name("." * level + name, package)
    if full == os.environ["LOADING"] and full not in sys.modules:
        Swallowing()
    return load(name, globals, locals, fromlist, level)
builtins.__import__ = loading
from curator.__main__ import main
main()
"""


# A program that runs `curator` (its arguments after `-c PROGRAM`) and stops it with
# `{stop}` (Ctrl-C, SIGTERM) as click reads its command line, before it has found the
# command.
STOPPED_WHILE_PARSING = """
import click, os, signal
parse = click.Group.parse_args
def stopped(self, ctx, args):
    if ctx.parent is None:
        {stop}
    return parse(self, ctx, args)
click.Group.parse_args = stopped
from curator.__main__ import main
main()
"""


def stopped_as_it_loads(
    module: str, *args: str, cwd: Path = REPO, env: dict[str, str] | None = None
) -> Run:
    """`curator ARGS`, sent Ctrl-C where it is dropped as curator first imports `module`."""
    loading = {"LOADING": module, **(env or {})}
    return ended(start_python("-c", _STOPPED_AS_IT_LOADS, *args, cwd=cwd, env=loading))


# Ctrl-C once tempfile has made the run's first temporary folder, before it returns its name.
_STOPPED_AS_A_FOLDER_IS_MADE = """
import signal, tempfile
make = tempfile.mkdtemp
def made_then_stopped(*args, **options):
    made = make(*args, **options)
    signal.raise_signal(signal.SIGINT)
    return made
tempfile.mkdtemp = made_then_stopped
from curator.__main__ import main
main()
"""


def stopped_as_a_folder_is_made(*args: str, env: dict[str, str], cwd: Path = REPO) -> Run:
    """`curator ARGS`, sent Ctrl-C as its first temporary folder is made (in $TMPDIR, if the
    folder is made there), before curator has its name."""
    return ended(start_python("-c", _STOPPED_AS_A_FOLDER_IS_MADE, *args, cwd=cwd, env=env))


def _curator_env(env: dict[str, str] | None) -> dict[str, str]:
    shown = "always:This process (pid=:DeprecationWarning"  # (-W: the message's start, as is)
    return {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONWARNINGS": shown, **(env or {})}


def _checked(code: int, out: str, err: str) -> Run:
    assert "Traceback" not in err, err
    assert not re.search(FORK_WITH_THREADS, err), err
    return Run(code, out, err)


@pytest.fixture
def curator():
    return run_curator


def write_library(root: Path, incidents: dict[str, str | bytes]) -> Path:
    """A small library: the real taxonomy and the given incident files."""
    (root / "schema" / "taxonomy").mkdir(parents=True)
    for source in (REPO / "schema" / "taxonomy").glob("*.yaml"):
        (root / "schema" / "taxonomy" / source.name).write_bytes(source.read_bytes())
    (root / "incidents").mkdir()
    for name, content in incidents.items():
        target = root / "incidents" / name
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    return root


def files_read(monkeypatch: pytest.MonkeyPatch, *modules: Any) -> list[str]:
    """The names of the files that `modules` read (by `read_regular`), from now on."""
    read: list[str] = []

    def spying_on(real: Any) -> Any:
        return lambda path, *limit: read.append(path.name) or real(path, *limit)

    for module in modules:
        monkeypatch.setattr(module, "read_regular", spying_on(module.read_regular))
    return read


def blob_ids_hashed(
    monkeypatch: pytest.MonkeyPatch, repository: Any, into: list[str] | None = None
) -> list[str]:
    """The names of the files whose bytes `repository.blob_id` reads and hashes, from now
    on (added to `into`, when given)."""
    names: list[str] = [] if into is None else into
    real = repository.blob_id

    def spying(path: str, link: bool, object_id: str) -> str | None:
        names.append(os.path.basename(path))
        return real(path, link, object_id)

    monkeypatch.setattr(repository, "blob_id", spying)
    return names
