"""A progress line for long runs, on a terminal only.

A run over a large library can take seconds; people at a terminal should see that it is
moving ("linting 41,200/100,000 files (5,150 files/s)"). Nothing is drawn when the stream is
not a terminal (CI logs, pipes, files) or one that cannot redraw a line (`TERM=dumb`:
Emacs's shell), with `--quiet`, or for runs that end quickly: the line appears only after
`delay` seconds, and only if the run looks set to last about two seconds or more. It is
redrawn at most every `interval` seconds and erased at the end, so what the command prints
afterwards starts on a clean line.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import TextIO

LONG_RUN = 2.0  # seconds: runs expected to take longer than this get a progress line
_CLEAR_LINE = "\r\x1b[K"


class Progress:
    """Call with (done, total) as work proceeds; use as a context manager, or `close()`.
    `what` is the work's name (`counted` says the line), or what says the line from (done,
    total, files a second)."""

    def __init__(
        self,
        what: str | Callable[[int, int, float], str],
        stream: TextIO | None = None,
        enabled: bool = True,
        delay: float = 0.5,
        interval: float = 0.1,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.line = what if callable(what) else functools.partial(counted, what)
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and _is_terminal(self.stream)
        self.delay = delay
        self.interval = interval
        self.clock = clock
        self.started = clock()
        self.drawn_at: float | None = None

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        now = self.clock()
        elapsed = now - self.started
        if elapsed < self.delay:
            return
        if self.drawn_at is None and done and elapsed * total / done < LONG_RUN:
            return  # this run will be over before a progress line would help
        if self.drawn_at is not None and now - self.drawn_at < self.interval and done < total:
            return
        rate = done / elapsed if elapsed > 0 else 0.0
        self.stream.write(f"{_CLEAR_LINE}{self.line(done, total, rate)}")
        self.stream.flush()
        self.drawn_at = now

    def close(self) -> None:
        """Erase the line, if one was drawn."""
        if self.drawn_at is not None:
            self.stream.write(_CLEAR_LINE)
            self.stream.flush()
            self.drawn_at = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def counted(what: str, done: int, total: int, rate: float) -> str:
    """The progress line of the work named `what`: `linting 41,200/100,000 files (5,150
    files/s)`."""
    return f"{what} {done:,}/{total:,} files ({rate:,.0f} files/s)"


def _is_terminal(stream: TextIO) -> bool:
    """Whether `stream` is a terminal that can redraw a line (`_CLEAR_LINE`)."""
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False
