"""Remembering one answer: for work several rules ask of the same value in a row."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

Given = TypeVar("Given")
Answer = TypeVar("Answer")


def last_seen(compute: Callable[[Given], Answer]) -> Callable[[Given], Answer]:
    """`compute`, remembered for the last value it was given. The value is known by
    identity, and kept alive here, so that no other value can take its `id`: it must be
    one nothing changes once made (a frozen model, the one loaded taxonomy)."""
    last: list[tuple[Given, Answer]] = []

    def remembered(given: Given) -> Answer:
        if not last or last[0][0] is not given:
            last[:] = [(given, compute(given))]
        return last[0][1]

    return remembered
