"""What `curator fmt` changes in a file, in a few words: "reformatted" alone did not tell a
contributor whose editor wrote CRLF line endings, or a byte-order mark, what would change.

Each byte-level change is undone in turn on the old bytes; what still differs from the new
ones is the YAML layout ("key order" when the lines are the same ones, reordered). Run only
for files that change, never on the path every file takes.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_BOM = b"\xef\xbb\xbf"
_TRAILING_BLANKS = re.compile(rb" +(?=\n)")  # (a tab there is fix's: fmt refuses it)

_Step = tuple[str, Callable[[bytes], bytes]]
# In the order the changes are undone: line ends first, so that "\r" is no trailing blank.
_STEPS: tuple[_Step, ...] = (
    ("byte-order mark removed", lambda data: data.removeprefix(_BOM)),
    ("CRLF line endings → LF", lambda data: data.replace(b"\r\n", b"\n")),
    ("CR line endings → LF", lambda data: data.replace(b"\r", b"\n")),
    ("trailing spaces removed", lambda data: _TRAILING_BLANKS.sub(b"", data)),
    ("blank lines at the end removed", lambda data: _one_line_end(data)),
    ("newline added at the end", lambda data: data if data.endswith(b"\n") else data + b"\n"),
)


def what_changed(before: bytes, after: bytes) -> list[str]:
    """The changes that make `before` into `after`, in a few words each."""
    said = []
    for change, undo in _STEPS:
        undone = undo(before)
        # (Said only where the new bytes are as undone: trailing blanks that a block of
        # text keeps are the text's, not a change.)
        if undone != before and undo(after) == after:
            said.append(change)
            before = undone
    if before != after:
        reordered = sorted(before.splitlines()) == sorted(after.splitlines())
        said.append("key order" if reordered else "layout")
    return said


def _one_line_end(data: bytes) -> bytes:
    return data.rstrip(b"\n") + b"\n" if data.endswith(b"\n") else data
