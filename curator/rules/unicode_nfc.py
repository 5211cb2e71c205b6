"""Text is in Unicode NFC: each letter one code point where Unicode has one.

Korean copied from a macOS file name (or from text that passed through one) comes as
separate jamo (`가` as U+1100 U+1161), and accented Latin letters may come as a base
letter and a combining mark. Both look the same as the composed letters, but they are
other code points: a search for `가` on the website, a `grep`, or a downstream tool
comparing text does not find them. Reported once per file, at the first such letter.
`curator fix` converts the file to NFC, which Unicode defines as the same text
(canonically equivalent), encoded the recommended way."""

import unicodedata
from typing import NamedTuple

from curator.findings import Severity
from curator.load import Position
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL605",
    name="unicode-nfc",
    severity=Severity.ERROR,
    summary="Text is not in Unicode NFC, such as Korean written as separate jamo.",
    failing="title: GPU \\u1100\\u1161\\u11a8 장애  # 각, as three jamo\n",
    passing="title: GPU 각 장애\n",
    fixable=True,
)
_LONGEST = 8  # code points one composed letter is looked for in (Hangul needs 3)


class Decomposed(NamedTuple):
    position: Position  # of the first letter that NFC writes otherwise
    letter: str  # that letter, as NFC writes it
    written: str  # and as the file writes it
    lines: int  # how many lines are not in NFC


def check(file: IncidentFile) -> FileFindings:
    found = decomposed(file.loaded.text)
    if found is None:
        return
    points = " ".join(f"U+{ord(c):04X}" for c in found.written)
    yield RULE.at(
        file.display,
        found.position,
        f"{found.letter!r} is written as {points}: not Unicode NFC"
        + (f" ({found.lines} lines are not)" if found.lines > 1 else ""),
    )


def decomposed(text: str | None) -> Decomposed | None:
    """Where `text` is not in NFC, or None if it is (the usual case, told in C)."""
    if text is None or text.isascii() or unicodedata.is_normalized("NFC", text):
        return None
    lines = text.split("\n")  # lines as editors and curator.load count them
    numbers = [n for n, line in enumerate(lines, 1) if not unicodedata.is_normalized("NFC", line)]
    line = lines[numbers[0] - 1]
    composed = unicodedata.normalize("NFC", line)
    # (A line not in NFC differs from its NFC within their common length.)
    start = next(i for i, (a, b) in enumerate(zip(line, composed, strict=False)) if a != b)
    letter = composed[start]
    written = next(
        (
            line[start:end]
            for end in range(start + 1, min(len(line), start + _LONGEST) + 1)
            if unicodedata.normalize("NFC", line[start:end]) == letter
        ),
        line[start],
    )
    return Decomposed(Position(numbers[0], start + 1), letter, written, len(numbers))
