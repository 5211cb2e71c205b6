"""White space at the ends of lines, removed where YAML discards it.

ruamel.yaml writes a null sequence item as `- ` and keeps the white space after a comment
as the author left it: the linter flags both (IL602), and neither is part of a value. Only
in a block scalar (`|`, `>`) is the white space at the end of a line text; those lines are
found by the libyaml scanner, not guessed, and left as they are.
"""

from __future__ import annotations

import re

import yaml

from curator.load import SCAN_LOADER

_LINE_END_SPACE = re.compile(r"[ \t]$", re.MULTILINE)


def strip_line_ends(text: str) -> str:
    """`text` without spaces and tabs at the ends of lines, but for the lines of
    block-scalar text. Text the scanner refuses is returned as it is: the caller's check
    of the values refuses it anyway, and a guess could change a value."""
    if not _LINE_END_SPACE.search(text):  # the usual case: nothing to scan for
        return text
    try:
        kept = block_text_lines(text)
    except yaml.YAMLError:
        return text
    lines = text.split("\n")
    return "\n".join(
        line if number in kept else line.rstrip(" \t") for number, line in enumerate(lines)
    )


def block_text_lines(text: str) -> set[int]:
    """The (0-based) numbers of the lines that hold the text of a block scalar: the lines
    after its header, to the last one before the scanner's end of it. That end is in the
    line after the text (after the last line break the block takes), unless the text ends
    the file without a line break."""
    kept: set[int] = set()
    for token in yaml.scan(text, Loader=SCAN_LOADER):
        if not (isinstance(token, yaml.ScalarToken) and token.style in ("|", ">")):
            continue
        start, end = token.start_mark, token.end_mark
        line_start = text.rfind("\n", 0, end.index) + 1
        last = end.line if text[line_start : end.index].strip(" ") else end.line - 1
        kept.update(range(start.line + 1, last + 1))
    return kept
