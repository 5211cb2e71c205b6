"""SIGTERM and SIGHUP stop a run of `curator` as Ctrl-C does.

Python leaves both signals to the system, which ends the process on the spot: no `finally`,
no `with` block's exit. A CI runner cancelling or timing out a job, `kill`, `timeout` and
systemd send SIGTERM; a terminal that closes sends SIGHUP. A release job cancelled during
`curator export` left its temporary folder (≈1 GB) beside `--out`, and `assign-ids`
stopped between two writes left the numbered copy of an incident beside its placeholder.

`terminate_cleanly` makes both raise `Terminated` in the main process. It is a
KeyboardInterrupt, so every path that cleans up after Ctrl-C (an undo under `except
BaseException`, temporary files and folders, worker pools shut down) does so for it too,
and the command ends with `curator: terminated` and exit status 2. Worker processes leave
all three signals to the main process (`curator.workers.prepare_worker`).

`held_off` keeps all three, Ctrl-C included, from stopping a cleanup that must finish;
`deferred` makes them wait for the end of a step that must not be cut in two, such as
starting a child process (`started`).
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP: stop, cleaning up as for Ctrl-C."""


# (Windows has no SIGHUP.)
TERMINATION_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)
_main_process: int | None = None  # the process that called `terminate_cleanly`
_held = 0  # blocks under `held_off` running now (one inside another: more than one)


def terminate_cleanly() -> None:
    """From now on SIGTERM and SIGHUP raise Terminated in this process: call it first
    thing in the main process of a command. A signal that would not have ended the
    process is left as it is: SIGHUP under `nohup` is ignored, and stays so."""
    global _main_process
    _main_process = os.getpid()
    for number in TERMINATION_SIGNALS:
        if signal.getsignal(number) == signal.SIG_DFL:
            signal.signal(number, _terminate)


@contextmanager
def held_off() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP ignored while the block runs, and as they were after.

    For the few cleanups that a stop leaves worse than the state they clean up after
    (an undo stopped half-way is the same incident twice): they run once the run is
    stopping, so a signal meanwhile asks for what is happening already, and is dropped.
    `_terminate` already ignores a second SIGTERM or SIGHUP, but a second Ctrl-C raised
    KeyboardInterrupt in the middle of the undo. A child process started meanwhile is
    to be started in a process group of its own (`holding`): a terminal sends Ctrl-C to
    its whole foreground group, and git, which sets its own handlers over an inherited
    ignore, stopped half-way too. (Only the main thread may set a handler; elsewhere the
    block runs as it is.)"""
    global _held
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    numbers = (signal.SIGINT, *TERMINATION_SIGNALS)
    # (None: a handler set outside Python, which cannot be put back; it is left alone.)
    before = {n: handler for n in numbers if (handler := signal.getsignal(n)) is not None}
    for number in before:
        signal.signal(number, signal.SIG_IGN)
    _held += 1
    try:
        yield
    finally:
        _held -= 1
        for number, handler in before.items():
            signal.signal(number, handler)


@contextmanager
def deferred() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP that arrive while the block runs act once it is over.

    For a step too short to keep anyone waiting that a stop must not cut in two:
    `write_atomic` making its temporary file and keeping its name (stopped in between, it
    left the file behind, its name lost). Unlike `held_off`, nothing is dropped: the first
    signal caught is raised again as the block ends, to the handler it had before. (A
    signal ignored is left ignored; only the main thread may set a handler.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def catch(number: int, frame: FrameType | None) -> None:
        caught.append(number)

    numbers = (signal.SIGINT, *TERMINATION_SIGNALS)
    before = {n: h for n in numbers if (h := signal.getsignal(n)) not in (None, signal.SIG_IGN)}
    try:
        for number in before:
            signal.signal(number, catch)
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
        if caught:
            signal.raise_signal(caught[0])


def started(
    command: list[str],
    stop: Callable[[subprocess.Popen[Any]], object] = subprocess.Popen.kill,
    **options: Any,
) -> subprocess.Popen[Any]:
    """`subprocess.Popen(command, **options)`; a stop meanwhile acts once the child has
    started, after `stop(child)` and waiting for it. `Popen` waits to hear that the child
    started (its exec): a stop raised there, before the caller had the process, left the
    child running out of reach (`git add` holding the index's lock; a zombie at best)."""
    process = None
    try:
        with deferred():
            process = subprocess.Popen(command, **options)
    except BaseException:  # the stop `deferred` held back, now that the child is known
        if process is not None:
            with process:
                stop(process)
        raise
    return process


def holding() -> bool:
    """Whether a block under `held_off` runs now."""
    return _held > 0


def stop_behind(error: BaseException) -> KeyboardInterrupt | None:
    """The Ctrl-C, SIGTERM or SIGHUP that `error` is, or stands for: Python 3.11 wraps one
    that lands while a class is made (a module loading) in "RuntimeError: Error calling
    __set_name__ …", which ended the run in a traceback and exit 1, or an internal error."""
    if isinstance(error, RuntimeError) and isinstance(error.__cause__, KeyboardInterrupt):
        return error.__cause__
    return error if isinstance(error, KeyboardInterrupt) else None


def said(stop: KeyboardInterrupt, korean_first: bool = False) -> str:
    """`curator: …` for a run stopped by Ctrl-C, or by SIGTERM or SIGHUP; `korean_first`
    for `curator new`, which says everything in Korean first, the English after it in
    brackets (`curator.new.bilingual`)."""
    english = "terminated" if isinstance(stop, Terminated) else "interrupted"
    if korean_first:
        korean = "종료 신호로 중단되었습니다" if isinstance(stop, Terminated) else "중단되었습니다"
        return f"curator: {korean} ({english})"
    return f"curator: {english}"


def _terminate(number: int, frame: FrameType | None) -> None:
    if os.getpid() != _main_process:
        return  # a worker forked a moment ago, which is about to ignore it (prepare_worker)
    # Once only: from here the run cleans up, and a second signal raised in the middle of
    # an undo or of deleting a temporary folder would leave that half done. `timeout` sends
    # SIGTERM twice (to the process, then to its process group); SIGKILL still ends it.
    for each in TERMINATION_SIGNALS:
        signal.signal(each, signal.SIG_IGN)
    raise Terminated
