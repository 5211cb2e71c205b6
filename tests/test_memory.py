"""Freed memory handed back to the operating system (`curator.memory`)."""

from __future__ import annotations

import ctypes
import os
import platform

from curator import memory

GLIBC = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"


def _resident() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_the_holes_freed_objects_leave_in_the_heap_go_back_to_the_system():
    if not GLIBC:  # (no malloc_trim: nothing to call, and nothing done)
        assert memory._malloc_trim() is None
        return
    # 600-byte objects (past Python's own allocator for small ones: the C heap's), one in a
    # hundred kept, as the similarity index's shares leave the heap once made into chunks.
    made = [bytes([n % 256]) * 600 for n in range(100_000)]
    kept = made[::100]
    del made
    before = _resident()
    memory.release_freed_memory()
    released = before - _resident()
    assert released > 30 * 2**20, f"{released / 2**20:.1f} MB released of ≈60 MB freed"
    assert len(kept) == 1000 and kept[1] == b"d" * 600  # (kept alive through the release)


def test_a_c_library_without_malloc_trim_is_left_alone(monkeypatch):
    class NoTrim:
        def __init__(self, name: object) -> None:
            pass

        def __getattr__(self, name: str) -> object:
            raise AttributeError(name)  # as ctypes says of a symbol the library lacks

    memory._malloc_trim.cache_clear()
    monkeypatch.setattr(ctypes, "CDLL", NoTrim)
    try:
        assert memory._malloc_trim() is None
        memory.release_freed_memory()  # (does nothing, raises nothing)
    finally:
        memory._malloc_trim.cache_clear()
