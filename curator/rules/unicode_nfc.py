"""Text is in Unicode NFC: each letter one code point where Unicode has one.

Korean copied from a macOS file name (or from text that passed through one) comes as
separate jamo (`가` as U+1100 U+1161), and accented Latin letters may come as a base
letter and a combining mark. Both look the same as the composed letters, but they are
other code points: a search for `가` on the website, a `grep`, or a downstream tool
comparing text does not find them. Reported once per file, at the first such letter.
`curator fix` converts the file to NFC, which Unicode defines as the same text
(canonically equivalent), encoded the recommended way.
A letter that a double-quoted value writes as escapes of its parts (`"\\u1100\\u1161"`
for 가) leaves the text in NFC but not the value, which `curator fmt` writes as itself: it
is reported at the value, and left to its author (fix composes text, not escapes).

One kind of character NFC changes into another: a CJK compatibility ideograph (U+F900 to
U+FAFF, U+2F800 to U+2FA1F) becomes the unified ideograph it maps to. Korean's KS X 1001
encodes some Hanja once for each reading, and those codes are compatibility ideographs, so
a writer may mean one. Reported apart, at the first one, and left to people: write the
unified ideograph, or, to keep the distinction through NFC, the unified ideograph followed
by the variation selector Unicode gives for it (its standardized variation sequence)."""

import unicodedata
from typing import NamedTuple

from curator.document import text_values
from curator.findings import Severity
from curator.load import Position, position_at
from curator.rules._spaces import not_fixable
from curator.rules.base import FileFindings, IncidentFile, Rule
from curator.schema_errors import dotted
from curator.textnorm import COMPATIBILITY_IDEOGRAPHS, long_run, unified

RULE = Rule(
    code="IL605",
    name="unicode-nfc",
    severity=Severity.ERROR,
    summary="Text is not in Unicode NFC, such as Korean written as separate jamo.",
    failing='title: "GPU \\u1100\\u1161\\u11a8 장애"  # 각, as three jamo\n',
    passing="title: GPU 각 장애\n",
    fixable=True,
)
_LONGEST = 8  # code points of one letter and its marks shown (a Korean syllable has 3)


class Decomposed(NamedTuple):
    position: Position  # of the first letter that NFC writes otherwise
    letter: str  # that letter and its marks, as NFC writes them
    written: str  # and as the file writes them (up to 8 code points)
    lines: int  # how many lines are not in NFC


def check(file: IncidentFile) -> FileFindings:
    text = file.loaded.text
    if text is None or text.isascii() or unicodedata.is_normalized("NFC", text):
        # (the usual case, told in C once, not by each kind below)
        if text is not None and "\\" in text and ("\\u" in text or "\\U" in text):
            yield from _escaped_decomposed(file)
        return
    yield from _decomposed_letter(file)
    yield from _compatibility_ideograph(file)


def _escaped_decomposed(file: IncidentFile) -> FileFindings:
    """A letter a double-quoted value writes as escapes of its parts (`"\\u1100\\u1161"`
    for 가), in a file whose text is in NFC: the value is not, and `curator fmt` writes it
    as itself, which is then the finding above. Left to its author (fix reads the text)."""
    values = text_values(file.loaded.data)
    found = [(path, at) for path, value in values if (at := decomposed(value))]
    if not found:
        return
    path, at = found[0]
    points = " ".join(f"U+{ord(c):04X}" for c in at.written)
    more = f" ({len(found)} values are not)" if len(found) > 1 else ""
    finding = RULE.at(
        file.display,
        file.position(*path),
        f"{dotted(path)} writes {at.letter!r} as {points} (escapes): not Unicode NFC{more}; "
        "write the letter itself",
    )
    yield not_fixable(finding)


def _decomposed_letter(file: IncidentFile) -> FileFindings:
    found = decomposed(file.loaded.text)
    if found is None:
        return
    points = " ".join(f"U+{ord(c):04X}" for c in found.written)
    points += " …" if len(found.written) == _LONGEST else ""
    finding = RULE.at(
        file.display,
        found.position,
        f"{found.letter!r} is written as {points}: not Unicode NFC"
        + (f" ({found.lines} lines are not)" if found.lines > 1 else ""),
    )
    # `curator fix` leaves a text with a run of marks no text needs (see `fix.compose`).
    yield finding if long_run(file.loaded.text or "") is None else not_fixable(finding)


def _compatibility_ideograph(file: IncidentFile) -> FileFindings:
    found = compatibility_ideograph(file.loaded.text)
    if found is None:
        return
    position, ideograph, count = found
    target = unicodedata.normalize("NFC", ideograph)
    more = f" ({count} in the file)" if count > 1 else ""
    yield not_fixable(
        RULE.at(
            file.display,
            position,
            f"{ideograph!r} is U+{ord(ideograph):04X}, a CJK compatibility ideograph{more}, "
            f"which NFC turns into U+{ord(target):04X}: left as it is, since the two may be "
            f"meant apart; write U+{ord(target):04X}, or U+{ord(target):04X} and a variation "
            "selector to keep the difference",
        )
    )


def compatibility_ideograph(text: str | None) -> tuple[Position, str, int] | None:
    """The first CJK compatibility ideograph that NFC changes, and how many there are."""
    if text is None or text.isascii() or unicodedata.is_normalized("NFC", text):
        return None
    found = [m for m in COMPATIBILITY_IDEOGRAPHS.finditer(text) if _changes(m.group())]
    if not found:
        return None
    return position_at(text, found[0].start()), found[0].group(), len(found)


def _changes(ideograph: str) -> bool:
    return not unicodedata.is_normalized("NFC", ideograph)


def decomposed(text: str | None) -> Decomposed | None:
    """Where `text` is not in NFC, or None if it is (the usual case, told in C). Nothing
    longer than a letter is normalised: a line of accents out of order costs the square of
    its length to normalise (see `curator.textnorm`)."""
    if text is None or text.isascii() or unicodedata.is_normalized("NFC", text):
        return None
    text = unified(text)  # (`compatibility_ideograph` reports those)
    if unicodedata.is_normalized("NFC", text):
        return None
    lines = text.split("\n")  # lines as editors and curator.load count them
    numbers = [n for n, line in enumerate(lines, 1) if not unicodedata.is_normalized("NFC", line)]
    line = lines[numbers[0] - 1]
    start = _letter_start(line, _shortest_not_nfc(line) - 1)
    end = start + 1
    while end < min(len(line), start + _LONGEST) and _attaches(line[end]):
        end += 1
    written = line[start:end]
    letter = unicodedata.normalize("NFC", written)
    return Decomposed(Position(numbers[0], start + 1), letter, written, len(numbers))


def _shortest_not_nfc(line: str) -> int:
    """The length of the shortest start of `line` that is not in NFC (a line not in NFC
    has one; what is not in NFC stays so whatever follows it)."""
    low, high = 1, len(line)
    while low < high:
        middle = (low + high) // 2
        if unicodedata.is_normalized("NFC", line[:middle]):
            low = middle + 1
        else:
            high = middle
    return low


def _letter_start(line: str, index: int) -> int:
    """Back from `index` to the character that the marks and jamo there attach to."""
    while index > 0 and _attaches(line[index]):
        index -= 1
    return index


def _attaches(char: str) -> bool:
    """A combining mark, or a Korean vowel or final consonant jamo (which NFC composes
    with the jamo before it, though Unicode counts them as starters)."""
    return (
        bool(unicodedata.combining(char))
        or "\u1160" <= char <= "\u11ff"
        or "\ud7b0" <= char <= "\ud7ff"
    )
