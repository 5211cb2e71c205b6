"""Memory that Python has freed, handed back to the operating system where the C library
can (glibc's `malloc_trim`).

Freed small objects leave holes in the C heap that stay in the process's resident memory
until something of their size fills them; large arrays (numpy's) are mapped apart and
never do. A build that frees 100,000 small objects before making its large arrays keeps
their holes as well as the arrays at its peak."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache


def release_freed_memory() -> None:
    """Return the heap's pages that hold nothing any more to the operating system: a
    no-op where the C library has no `malloc_trim` (macOS, musl, Windows)."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    import ctypes  # (here, not at import: only the commands that build large indexes pay)

    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError, TypeError):  # (no such symbol; Windows has no CDLL(None))
        return None
