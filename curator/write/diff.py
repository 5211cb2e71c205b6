"""What a rewrite would change, as `git diff` shows it: for `--diff` of `fmt` and `fix`."""

from __future__ import annotations

import difflib

from curator.oneline import escaped

# What git writes after a line that ends the file without a line break.
_NO_NEWLINE = "\\ No newline at end of file\n"


def unified_diff(display: str, before: bytes, after: bytes | None) -> str:
    """The unified diff from `before` to `after` of the file shown as `display` ("" when
    nothing is to be written: `after` None or the same bytes), as `git apply` takes it:
    lines are split at LF alone, and a last line without one is marked so."""
    if after is None or after == before:
        return ""
    # `before` may not be UTF-8 (a fix repairs only what it can read): shown, not refused.
    old = _lines(before.decode("utf-8", errors="replace"))
    new = _lines(after.decode("utf-8"))
    shown = escaped(display)  # one header line, whatever the name holds
    lines = difflib.unified_diff(old, new, f"a/{shown}", f"b/{shown}", lineterm="\n")
    # (Headers end with `lineterm`: a line without a line break is a file's last line.)
    return "".join(line if line.endswith("\n") else f"{line}\n{_NO_NEWLINE}" for line in lines)


def _lines(text: str) -> list[str]:
    """The lines of `text` with their LFs, as git counts lines. `str.splitlines` also
    ends a line at a lone CR, U+2028 and others, which to git are part of the line: a
    patch of such lines did not apply."""
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]  # (after the last LF: "", or a last line without one)
    return lines if lines[-1] else lines[:-1]
