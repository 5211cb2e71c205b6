"""Work spread over worker processes, results in order, for commands that handle every file.

`curator lint`, `fmt`, `export` and the similarity index do the same work for each of up
to 100,000 files, and one process uses one core. `Workers.in_order` gives that work to one
process per CPU in chunks and hands the results back in the order of the items, so that
what a command writes does not depend on which worker was faster. Workers change nothing
but speed: a chunk whose worker died (killed, out of memory) is done again here, so its
error, if it has one, is raised where it would have been raised without workers.
"""

from __future__ import annotations

import ctypes
import gc
import itertools
import multiprocessing
import os
import pickle
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress
from types import TracebackType
from typing import Any, Generic, TypeVar

from curator.signals import TERMINATION_SIGNALS, deferred, held_off

_AHEAD = 4  # chunks in flight per worker
Item = TypeVar("Item")
Result = TypeVar("Result")
Value = TypeVar("Value")


# `--jobs` above this many per CPU is taken as this many: the work is all CPU, so more only
# costs memory and start-up (`-j 100000` on a 100,000-file library tried to start a process
# per file; `-j 3000` made a 4-second lint take 86 s).
MAX_JOBS_PER_CPU = 4


def worker_count(items: int, parallel_from: int, jobs: int | None = None) -> int:
    """How many processes to use: `jobs` if given (at most MAX_JOBS_PER_CPU per CPU, and
    one per item), else one per CPU once there are enough items to pay for starting them."""
    cpus = os.cpu_count() or 1
    if jobs is not None:
        return max(1, min(jobs, items, cpus * MAX_JOBS_PER_CPU))
    return cpus if items >= parallel_from else 1


class Workers:
    """`with Workers(count) as workers:` — `count` worker processes (none if it is 1),
    started on entering: before the caller builds what only it needs, which workers forked
    later would map too (and appear to hold, to anything that sums their memory)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._pool: ProcessPoolExecutor | None = None
        self._meanwhile: list[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]] = []

    def __enter__(self) -> Workers:
        if self.count > 1:
            try:
                # Deferred: a stop that lands in an at-fork hook (logging has some), or as
                # the pool loads its locks (multiprocessing.synchronize), is printed as
                # "Exception ignored in: …" and dropped; the run went on.
                with deferred():
                    self._pool = ProcessPoolExecutor(
                        self.count, process_context(), initializer=prepare_worker
                    )
                    self._pool.submit(int).result()  # forks every worker now
            except BaseException:
                if self._pool is not None:
                    self._pool.shutdown(wait=True, cancel_futures=True)
                raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        try:
            if kind is None:
                self._finish_meanwhile()
        finally:
            if self._pool is not None:  # on Ctrl-C or an error, do not start waiting chunks
                # Held off: a second Ctrl-C (or SIGTERM after it) as this waited for the
                # chunks under way ended the wait, and the export deleted its temporary
                # folder while the workers still wrote into it: it stayed, half full.
                with held_off():
                    self._pool.shutdown(wait=True, cancel_futures=True)

    def in_order(
        self, work: Callable[[Item], Result], items: Iterable[Item], chunk_size: int = 100
    ) -> Iterator[Result]:
        """`work(item)` for each item, in the order of `items`, which are taken as they are
        needed. `work` must be picklable (a module-level function, or a `functools.partial`
        of one) when there are workers."""
        pool = self._pool
        if pool is None:
            yield from map(work, items)
            return
        chunks = _chunks(items, chunk_size)
        # A few chunks per worker in flight: enough to keep every worker busy, few enough
        # that results waiting for their turn do not pile up in memory.
        pending = deque(
            _submit(pool, work, c) for c in itertools.islice(chunks, self.count * _AHEAD)
        )
        while pending:
            future, chunk = pending.popleft()
            results = _result(pool, future, work, chunk)
            following = next(chunks, None)
            if following is not None:
                pending.append(_submit(pool, work, following))
            yield from results

    def meanwhile(self, work: Callable[..., Any], *args: Any) -> None:
        """`work(*args)` started on a worker while the caller goes on, done by the time the
        pool closes; here, if there are no workers, or if its worker died or failed (as a
        chunk of `in_order` is). `work` and `args` must be picklable; `args` are held till
        then."""
        future = self.submit(work, *args)
        if future is None:
            work(*args)
        else:
            self._meanwhile.append((future, work, args))

    def _finish_meanwhile(self) -> None:
        started, self._meanwhile = self._meanwhile, []
        for future, work, args in started:
            try:
                future.result()
            except Exception as exc:
                if isinstance(exc, BrokenProcessPool) and self._pool is not None:
                    _kill_workers(self._pool)
                work(*args)

    def submit(self, work: Callable[..., Result], *args: Any) -> Future[Result] | None:
        """`work(*args)` started on a worker, for a caller that has other work to do while
        it runs (the export's cache write, while the main process writes the aggregate
        files); None when there are no workers (or their pool broke): then the caller does
        it itself. `work` and `args` must be picklable."""
        if self._pool is None:
            return None
        try:
            return self._pool.submit(work, *args)
        except RuntimeError:  # the pool broke (a worker died)
            return None


def _submit(
    pool: ProcessPoolExecutor, work: Callable[[Item], Result], chunk: list[Item]
) -> tuple[Future[list[Result]] | None, list[Item]]:
    try:
        return pool.submit(_do_chunk, work, chunk), chunk
    except RuntimeError:  # the pool broke (a worker died): the chunk is done here
        return None, chunk


def _result(
    pool: ProcessPoolExecutor,
    future: Future[list[Result]] | None,
    work: Callable[[Item], Result],
    chunk: list[Item],
) -> list[Result]:
    if future is not None:
        try:
            return future.result()
        except BrokenProcessPool:  # a worker died: do it again here
            _kill_workers(pool)
        except Exception:  # the work failed: do it again here
            pass
    return _do_chunk(work, chunk)


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    """Kill the workers still running in a pool that one that died has broken. From
    Python 3.12 the pool stops them with SIGTERM and waits for them, holding the lock every
    later call takes; but they ignore SIGTERM (`prepare_worker`): the run waited forever."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        with suppress(OSError, ValueError):  # (gone already, or closed)
            process.kill()


def _chunks(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    remaining = iter(items)
    while chunk := list(itertools.islice(remaining, size)):
        yield chunk


def _do_chunk(work: Callable[[Item], Result], chunk: list[Item]) -> list[Result]:
    return [work(item) for item in chunk]


def process_context() -> Any:
    # fork starts a worker in milliseconds with everything already imported; elsewhere
    # (macOS, Windows) the platform's default start method is the safe one.
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def prepare_worker() -> None:
    """What every worker process of curator does first."""
    _end_with_parent()
    # Ctrl-C, SIGTERM and SIGHUP are the main process's to handle (`curator.signals`): it
    # stops the workers once their chunks are done. A worker that the signal ended (as
    # systemd and `timeout` signal the whole process group) in the middle of sending its
    # results left half a message in the pool's pipe, which the main process, stopping
    # the pool, waited forever to read the rest of.
    for number in (signal.SIGINT, *TERMINATION_SIGNALS):
        signal.signal(number, signal.SIG_IGN)
    # A worker lives for one run and makes millions of small acyclic objects: the cyclic
    # collector would only walk them again and again (see `curator.memory.without_cyclic_gc`).
    gc.disable()


class SentOnce(Generic[Value]):
    """`value`, for work that every chunk needs (lint's taxonomy): pickled once here, and
    unpickled by each worker the first time only. Its bytes still go with every chunk, but
    unpickling the taxonomy for each chunk of 250 files cost lint 5% of its CPU time."""

    def __init__(self, value: Value) -> None:
        self.value = value
        self._pickled: bytes | None = None

    def __reduce__(self) -> tuple[Callable[[bytes], SentOnce[Any]], tuple[bytes]]:
        if self._pickled is None:
            self._pickled = pickle.dumps(self.value, pickle.HIGHEST_PROTOCOL)
        return _received, (self._pickled,)


_received_last: dict[bytes, SentOnce[Any]] = {}


def _received(pickled: bytes) -> SentOnce[Any]:
    sent = _received_last.get(pickled)
    if sent is None:
        _received_last.clear()  # a new value is a new run's: the old one is not sent again
        sent = _received_last[pickled] = SentOnce(pickle.loads(pickled))
    return sent


_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _end_with_parent() -> None:
    """On Linux, end this worker when the process that forked it ends, however it ends.
    Forked workers hold the ends of each other's pipes, so none sees its work queue close:
    a main process killed (`kill -9`, the out-of-memory killer, SIGTERM from `timeout`)
    left every worker waiting for work, forever. (The kernel watches the thread that
    forked: a pool that forks, `process_context`, starts all its workers at its first
    task, which curator gives from the main thread.)"""
    parent = multiprocessing.parent_process()
    if not sys.platform.startswith("linux") or parent is None:
        return  # (elsewhere workers are spawned, and hold no pipe but their own)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # no C library to ask: as before, nothing worse
        return
    if os.getppid() != parent.pid:  # it ended before the signal was asked for
        os._exit(1)
