"""What a rewrite would change, as `git diff` shows it: for `--diff` of `fmt` and `fix`."""

from __future__ import annotations

import difflib

from curator.oneline import escaped


def unified_diff(display: str, before: bytes, after: bytes | None) -> str:
    """The unified diff from `before` to `after` of the file shown as `display` ("" when
    nothing is to be written: `after` None or the same bytes); every line ends with a line
    break, even where the file's last line has none."""
    if after is None or after == before:
        return ""
    # `before` may not be UTF-8 (a fix repairs only what it can read): shown, not refused.
    old = before.decode("utf-8", errors="replace").splitlines(keepends=True)
    new = after.decode("utf-8").splitlines(keepends=True)
    shown = escaped(display)  # one header line, whatever the name holds
    lines = difflib.unified_diff(old, new, f"a/{shown}", f"b/{shown}", lineterm="\n")
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)
