"""Many byte strings kept as one buffer, for the worker processes that read them."""

from __future__ import annotations

from array import array
from collections.abc import Container, Iterable, Sequence
from typing import overload


class PackedBytes(Sequence[bytes | None]):
    """`items` (each bytes, or None) in one buffer, each read back as a copy of its slice.

    A worker forked with 100,000 bytes objects of its parent's writes each one's reference
    count as it reads it, and so copies every page they lie on into its own memory (the
    changed files at the base, ≈320 MB at 100,000 incidents: most of it again in each
    worker); the one buffer's pages, and the offsets', are only read."""

    def __init__(self, items: Iterable[bytes | None]) -> None:
        self._buffer = bytearray()
        self._starts = array("q")  # -1: None
        self._ends = array("q")
        for item in items:
            self._starts.append(-1 if item is None else len(self._buffer))
            if item is not None:
                self._buffer += item
            self._ends.append(len(self._buffer))

    def __len__(self) -> int:
        return len(self._starts)

    @overload
    def __getitem__(self, at: int) -> bytes | None: ...

    @overload
    def __getitem__(self, at: slice) -> list[bytes | None]: ...

    def __getitem__(self, at: int | slice) -> bytes | list[bytes | None] | None:
        if isinstance(at, slice):
            return [self[i] for i in range(*at.indices(len(self)))]
        start = self._starts[at]
        return None if start < 0 else bytes(memoryview(self._buffer)[start : self._ends[at]])

    def keeping(self, wanted: Container[int]) -> PackedBytes:
        """The items of the places in `wanted`, None at the others, in a buffer of their
        own: this one's, once let go, is handed back to the system whole."""
        return PackedBytes(self[at] if at in wanted else None for at in range(len(self)))
