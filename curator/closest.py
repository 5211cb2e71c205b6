"""Which names of a dimension may be close to a text, without comparing it with each one.

`difflib.SequenceMatcher.ratio` is at most `quick_ratio`: twice the characters the two
strings share, counted with multiplicity, over their total length. Counting the shared
characters of every name at once, from a table of which names hold each character, leaves
out exactly the names whose quick_ratio is below the cut-off, and so whose ratio is too; a
text is then compared only with names that may be close to it. The table is in numpy, so
that one text costs microseconds however many names the taxonomy has, not a Python
comparison per name (10,000 aliases made `curator lint` take minutes).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from curator.signals import deferred

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


class NameIndex:
    """Folded names → term ids (in their order), with the characters each name holds."""

    def __init__(self, names: dict[str, str]) -> None:
        # Imported here: lint imports this module, and needs numpy only for an unknown term.
        # Deferred, as every module loaded on use (see curator.cli): a stop as it loaded
        # was printed ("Exception ignored in: …") and dropped, and lint went on.
        with deferred():
            import numpy as np

        self.names = list(names.items())
        self.lengths: npt.NDArray[np.int64] = np.array([len(n) for n in names], dtype=np.int64)
        holders: dict[str, tuple[list[int], list[int]]] = {}
        for row, name in enumerate(names):
            for character, count in Counter(name).items():
                rows, counts = holders.setdefault(character, ([], []))
                rows.append(row)
                counts.append(count)
        self.holders = {
            c: (np.array(rows, dtype=np.int64), np.array(counts, dtype=np.int64))
            for c, (rows, counts) in holders.items()
        }

    def candidates(self, wanted: str, cutoff: float) -> Iterator[tuple[str, str]]:
        """(name, term id) of each name whose quick_ratio with `wanted` reaches `cutoff`,
        in the order of the names: the only ones whose ratio can."""
        import numpy as np

        if not wanted:
            return
        shared = np.zeros(len(self.names), dtype=np.int64)
        for character, count in Counter(wanted).items():
            if character in self.holders:
                rows, counts = self.holders[character]
                shared[rows] += np.minimum(counts, count)  # each row once per character
        # As difflib computes it, so that a name on the cut-off is kept as it was.
        quick = 2.0 * shared / (self.lengths + len(wanted))
        for row in np.flatnonzero(quick >= cutoff):
            yield self.names[row]
