"""Worker processes change nothing but speed; progress shows on terminals only."""

from __future__ import annotations

import io
import json
import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ended, run_curator, start_python, stopped_as_it_loads
from synthetic import expected_findings, synthetic_library

import curator.lint as engine
from curator.library import Library
from curator.lint import lint
from curator.progress import Progress
from curator.workers import SentOnce, Workers, worker_count


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    return synthetic_library(tmp_path_factory.mktemp("par") / "lib", count=250, seed=11)


def test_parallel_and_serial_runs_report_the_same_findings(generated):
    root, manifest = generated
    library = Library.at(root)
    serial = lint(library, cwd=root, jobs=1)
    parallel = lint(library, cwd=root, jobs=2)
    assert parallel == serial  # same findings, same order, same messages
    assert {(f.path, f.line, f.column, f.code) for f in parallel} == expected_findings(manifest)


def test_results_come_back_to_the_file_they_belong_to(generated):
    root, _ = generated
    library = Library.at(root)
    paths = [str(path) for path in library.incident_paths()]
    displays = engine.display_paths(paths, root)
    tasks = [
        (index, path, display, None)
        for index, (path, display) in enumerate(zip(paths, displays, strict=True))
    ]
    results = dict(engine.run_checks(tasks, library.taxonomy, engine.dt.date(2026, 1, 1), jobs=2))
    assert sorted(results) == list(range(len(paths)))
    for index, path in enumerate(paths):
        assert results[index].summary.stem == Path(path).stem


_PARENT = os.getpid()
_REAL_CHECK_TASK = engine.check_task


def _die_in_a_worker(task, **context):
    """`check_task`, in a worker killed halfway (the out-of-memory killer, say). At module
    level so that the pool can send it to the workers by name."""
    if os.getpid() != _PARENT and task[1].endswith("IL-0100.yaml"):
        Path(os.environ["CURATOR_TEST_DIED"]).write_text("yes")
        os._exit(1)
    return _REAL_CHECK_TASK(task, **context)


def test_a_worker_that_dies_costs_time_not_findings(generated, monkeypatch, tmp_path):
    root, manifest = generated
    monkeypatch.setenv("CURATOR_TEST_DIED", str(tmp_path / "died"))
    monkeypatch.setattr(engine, "check_task", _die_in_a_worker)
    findings = lint(Library.at(root), cwd=root, jobs=2)
    assert (tmp_path / "died").exists()
    assert {(f.path, f.line, f.column, f.code) for f in findings} == expected_findings(manifest)


def test_a_value_sent_with_every_chunk_is_unpickled_once():
    sent = SentOnce({"taxonomy": ["terms"]})
    first, again = (pickle.loads(pickle.dumps(sent)) for _ in range(2))
    assert first.value == {"taxonomy": ["terms"]} and first.value is not sent.value
    assert again is first  # the second chunk's copy is not unpickled again
    other = pickle.loads(pickle.dumps(SentOnce({"taxonomy": ["changed"]})))
    assert other.value == {"taxonomy": ["changed"]}  # a new value is not mistaken for it


def test_small_runs_stay_in_one_process_and_large_ones_use_every_cpu():
    start = engine.PARALLEL_FROM
    assert worker_count(start - 1, start, None) == 1
    assert worker_count(start, start, None) == (os.cpu_count() or 1)
    assert worker_count(10, start, 4) == 4
    assert worker_count(3, start, 4) == 3
    assert worker_count(0, start, 4) == 1
    cpus = os.cpu_count() or 1
    assert worker_count(100_000, start, 100_000) == 4 * cpus  # not a process per file


@pytest.mark.parametrize("jobs", [1, 2])
def test_progress_is_reported_as_files_are_done_up_to_the_total(generated, jobs):
    root, _ = generated
    calls: list[tuple[int, int]] = []
    lint(Library.at(root), cwd=root, jobs=jobs, progress=lambda d, t: calls.append((d, t)))
    total = len(Library.at(root).incident_paths())
    assert calls[-1] == (total, total)
    done = [d for d, _ in calls]
    assert done == sorted(done)
    if jobs == 1:  # file by file, not all at the end
        assert done == list(range(1, total + 1))
    else:  # chunk by chunk
        assert len(done) >= 4


@pytest.fixture(autouse=True)
def a_terminal_that_can_redraw_a_line(monkeypatch):
    """Whatever TERM the suite runs under (a CI console may say `dumb`), a `Terminal` below
    is one that can redraw a line, unless a test says otherwise."""
    monkeypatch.setenv("TERM", "xterm")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_long_run_on_a_terminal_shows_files_done_total_and_rate():
    out, clock = Terminal(), Clock()
    progress = Progress("linting", out, clock=clock)
    clock.now += 1.0
    progress(5_000, 100_000)  # 1 s for 5%: a 20 s run
    assert out.getvalue() == "\r\x1b[Klinting 5,000/100,000 files (5,000 files/s)"
    clock.now += 0.01
    progress(5_050, 100_000)  # too soon to redraw
    assert out.getvalue().count("linting") == 1
    clock.now += 1.0
    progress(100_000, 100_000)
    assert out.getvalue().endswith("linting 100,000/100,000 files (49,751 files/s)")
    progress.close()
    assert out.getvalue().endswith("\r\x1b[K")  # erased: the summary starts on a clean line


def test_no_progress_for_short_runs_pipes_or_quiet():
    clock = Clock()
    short = Terminal()
    progress = Progress("linting", short, clock=clock)
    clock.now += 0.6
    progress(900, 1_000)  # will be over in 0.7 s
    progress.close()
    assert short.getvalue() == ""
    for stream, enabled in ((io.StringIO(), True), (Terminal(), False)):
        progress = Progress("linting", stream, enabled=enabled, clock=clock)
        clock.now += 5
        progress(1, 1_000)
        progress.close()
        assert stream.getvalue() == ""


def test_no_progress_on_a_terminal_that_cannot_redraw_a_line(monkeypatch):
    # TERM=dumb (Emacs's shell) shows the escape that clears a line as text.
    monkeypatch.setenv("TERM", "dumb")
    out, clock = Terminal(), Clock()
    progress = Progress("linting", out, clock=clock)
    clock.now += 1.0
    progress(5_000, 100_000)
    progress.close()
    assert out.getvalue() == ""
    monkeypatch.setenv("TERM", "xterm-256color")
    progress = Progress("linting", out, clock=clock)
    clock.now += 1.0
    progress(5_000, 100_000)
    assert out.getvalue().startswith("\r\x1b[Klinting 5,000/100,000")


def test_the_cli_prints_no_progress_when_stderr_is_not_a_terminal(generated):
    root, _ = generated
    run = run_curator("lint", "--root", str(root), "--no-cache", "--jobs", "2")
    assert run.code == 1
    assert "\r" not in run.err and "\x1b" not in run.err
    assert "files checked" in run.err


def test_short_j_is_jobs_and_the_findings_do_not_depend_on_it(generated):
    root, _ = generated
    runs = [
        run_curator("lint", "--root", str(root), "--no-cache", "--format", "json", *jobs)
        for jobs in ([], ["-j", "1"], ["-j", "3"], ["--jobs", "2"])
    ]
    assert {run.code for run in runs} == {1}
    assert all(json.loads(run.out) == json.loads(runs[0].out) for run in runs)
    refused = run_curator("lint", "--root", str(root), "-j", "0")
    assert refused.code == 2 and "-j" in refused.err


def _record_pid(path: str) -> None:
    """Work given to `Workers.meanwhile`: where it ran. At module level, to be sent."""
    Path(path).write_text(str(os.getpid()), encoding="utf-8")


def _fail_in_a_worker(path: str) -> None:
    if os.getpid() != _PARENT:
        raise OSError("the worker's disk is full")
    _record_pid(path)


def test_work_given_meanwhile_runs_on_a_worker_and_is_done_when_the_pool_closes(tmp_path):
    ran = tmp_path / "ran"
    with Workers(2) as workers:
        workers.meanwhile(_record_pid, str(ran))
    assert int(ran.read_text(encoding="utf-8")) != os.getpid()  # done by then, elsewhere


def test_work_given_meanwhile_whose_worker_fails_is_done_here(tmp_path):
    ran = tmp_path / "ran"
    with Workers(2) as workers:
        workers.meanwhile(_fail_in_a_worker, str(ran))
    assert int(ran.read_text(encoding="utf-8")) == os.getpid()


def test_work_given_meanwhile_without_workers_is_done_at_once(tmp_path):
    ran = tmp_path / "ran"
    with Workers(1) as workers:
        workers.meanwhile(_record_pid, str(ran))
        assert int(ran.read_text(encoding="utf-8")) == os.getpid()


_KILLED_WITH_WORKERS = """
import multiprocessing, os, signal, sys
from curator.workers import Workers
with Workers(2):
    print(*(child.pid for child in multiprocessing.active_children()), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked workers: Linux")
def test_workers_end_when_the_main_process_is_killed():
    # Forked workers hold the ends of each other's pipes, so none saw its work queue close:
    # a `curator export` killed (`kill -9`, the out-of-memory killer, SIGTERM from
    # `timeout`) left every worker waiting for work, forever.
    # (The workers' pid only: they hold the output pipe open, as they held the others.)
    main = subprocess.Popen([sys.executable, "-c", _KILLED_WITH_WORKERS], stdout=subprocess.PIPE)
    assert main.stdout is not None
    workers = [int(pid) for pid in main.stdout.readline().split()]
    assert main.wait(timeout=60) == -signal.SIGKILL
    main.stdout.close()
    assert len(workers) == 2
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.05)
    alive = [pid for pid in workers if _alive(pid)]
    for pid in alive:
        os.kill(pid, signal.SIGKILL)  # (not to leave them behind this test either)
    assert alive == []


# `curator lint` as the command runs it, whose main process, once its workers have done a
# chunk (others are under way), names them and is signalled: alone, or with its workers, as
# systemd and `timeout` signal the whole process group.
_TERMINATED_WHILE_LINTING = """
import multiprocessing, os, signal
from curator import workers
from curator.__main__ import main
in_order = workers.Workers.in_order
def terminated_after_a_chunk(self, work, items, chunk_size=100):
    results = in_order(self, work, items, chunk_size)
    yield next(results)
    print(*(child.pid for child in multiprocessing.active_children()), flush=True)
    assert os.getpgrp() == os.getpid()  # (its own group: the test's is not signalled)
    os.kill({whom}, signal.SIGTERM)
    yield from results
workers.Workers.in_order = terminated_after_a_chunk
main()
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked workers: Linux")
@pytest.mark.parametrize("whom", ["os.getpid()", "-os.getpgrp()"], ids=["main", "group"])
def test_a_terminated_lint_ends_as_ctrl_c_does_and_leaves_no_worker(generated, whom):
    # SIGTERM ended the main process on the spot, without its one line and exit status 2.
    # Its workers, which leave the signal to it, must not outlive it, nor print anything.
    root, _ = generated
    program = _TERMINATED_WHILE_LINTING.format(whom=whom)
    args = ("lint", "--root", str(root), "--no-cache", "--jobs", "2")
    process = start_python("-c", program, *args, start_new_session=True)
    assert process.stdout is not None
    workers = [int(pid) for pid in process.stdout.readline().split()]
    run = ended(process)
    assert (run.code, run.out, run.err) == (2, "", "curator: terminated\n")
    assert len(workers) == 2
    assert not any(_alive(pid) for pid in workers)


# `curator lint` whose main process gets Ctrl-C as it forks its workers, while an at-fork
# hook runs in it (logging registers some; here the last of them).
_CTRL_C_AS_WORKERS_FORK = """
import os, signal
os.register_at_fork(after_in_parent=lambda: signal.raise_signal(signal.SIGINT))
from curator.__main__ import main
main()
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked workers: Linux")
def test_ctrl_c_as_the_workers_fork_stops_the_run(generated):
    # Python reports an exception raised in an at-fork hook ("Exception ignored in:
    # <function _releaseLock …> … KeyboardInterrupt") and drops it: the run went on and
    # exited 0, as if no one had pressed Ctrl-C.
    root, _ = generated
    args = ("lint", "--root", str(root), "--no-cache", "--jobs", "2")
    run = ended(start_python("-c", _CTRL_C_AS_WORKERS_FORK, *args))
    assert (run.code, run.out, run.err) == (2, "", "curator: interrupted\n")


def test_ctrl_c_as_the_worker_pool_loads_its_locks_is_not_dropped(generated):
    # Making the pool loads multiprocessing.synchronize, mid-run: a stop then was printed
    # ("Exception ignored in: …") and dropped, and lint went on to report its findings.
    root, _ = generated
    args = ("lint", "--root", str(root), "--no-cache", "--jobs", "2")
    run = stopped_as_it_loads("multiprocessing.synchronize", *args)
    assert (run.code, run.out, run.err) == (2, "", "curator: interrupted\n")


_DISPOSITIONS_IN_WORKERS = """
import signal
from curator.signals import terminate_cleanly
from curator.workers import Workers
terminate_cleanly()
with Workers(2) as workers:
    stops = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP] * 4
    print(*(handler.name for handler in workers.in_order(signal.getsignal, stops, 1)))
"""


def test_workers_leave_ctrl_c_sigterm_and_sighup_to_the_main_process():
    # Forked from a main process that raises `Terminated` on SIGTERM and SIGHUP, a worker
    # raised it too (a traceback, or an error as its work's result). Ended by either
    # instead, as systemd and `timeout` signal the whole process group, a worker sending
    # its results left half a message in the pool's pipe: the main process, stopping the
    # pool, waited forever for the rest.
    run = subprocess.run(
        [sys.executable, "-c", _DISPOSITIONS_IN_WORKERS], capture_output=True, text=True
    )
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout.split() == ["SIG_IGN"] * 12


def _alive(pid: int) -> bool:
    """Whether the process runs (a zombie, ended and not yet reaped by init, does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
