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
"""

from __future__ import annotations

import os
import signal
from types import FrameType


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP: stop, cleaning up as for Ctrl-C."""


# (Windows has no SIGHUP.)
TERMINATION_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)
_main_process: int | None = None  # the process that called `terminate_cleanly`


def terminate_cleanly() -> None:
    """From now on SIGTERM and SIGHUP raise Terminated in this process: call it first
    thing in the main process of a command. A signal that would not have ended the
    process is left as it is: SIGHUP under `nohup` is ignored, and stays so."""
    global _main_process
    _main_process = os.getpid()
    for number in TERMINATION_SIGNALS:
        if signal.getsignal(number) == signal.SIG_DFL:
            signal.signal(number, _terminate)


def said(stop: KeyboardInterrupt) -> str:
    """`curator: …` for a run stopped by Ctrl-C, or by SIGTERM or SIGHUP."""
    return "curator: terminated" if isinstance(stop, Terminated) else "curator: interrupted"


def _terminate(number: int, frame: FrameType | None) -> None:
    if os.getpid() != _main_process:
        return  # a worker forked a moment ago, which is about to ignore it (prepare_worker)
    # Once only: from here the run cleans up, and a second signal raised in the middle of
    # an undo or of deleting a temporary folder would leave that half done. `timeout` sends
    # SIGTERM twice (to the process, then to its process group); SIGKILL still ends it.
    for each in TERMINATION_SIGNALS:
        signal.signal(each, signal.SIG_IGN)
    raise Terminated
