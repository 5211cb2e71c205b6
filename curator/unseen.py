"""Characters a reader does not see: zero-width characters and bidirectional controls,
and the white space that can end a line. Incident files (IL606, IL602) and taxonomy files
(IL303, IL305) are checked for the same ones, and `curator fix` removes them.
"""

from collections.abc import Iterator
from typing import NamedTuple

from curator.load import Position, position_at

ZERO_WIDTH = {
    "\u200b": "ZERO WIDTH SPACE",
    "\u2060": "WORD JOINER",
    "\ufeff": "ZERO WIDTH NO-BREAK SPACE (a byte-order mark)",
    "\u180e": "MONGOLIAN VOWEL SEPARATOR",
}
# Bidirectional controls: they show as nothing too, and all but the marks reorder the text
# that follows them as it displays ("Trojan Source").
MARKS = {
    "\u200e": "LEFT-TO-RIGHT MARK",
    "\u200f": "RIGHT-TO-LEFT MARK",
    "\u061c": "ARABIC LETTER MARK",
}
REORDERING = {
    "\u202a": "LEFT-TO-RIGHT EMBEDDING",
    "\u202b": "RIGHT-TO-LEFT EMBEDDING",
    "\u202c": "POP DIRECTIONAL FORMATTING",
    "\u202d": "LEFT-TO-RIGHT OVERRIDE",
    "\u202e": "RIGHT-TO-LEFT OVERRIDE",
    "\u2066": "LEFT-TO-RIGHT ISOLATE",
    "\u2067": "RIGHT-TO-LEFT ISOLATE",
    "\u2068": "FIRST STRONG ISOLATE",
    "\u2069": "POP DIRECTIONAL ISOLATE",
}
ZERO_WIDTH |= MARKS | REORDERING


class ZeroWidth(NamedTuple):
    position: Position  # of the first
    char: str  # the first
    total: int  # how many in the text


# The first byte of each in UTF-8. A byte that starts a character in UTF-8 is never a later
# byte of another, so UTF-8 that holds none of these holds none of the characters.
_FIRST_BYTES = tuple(sorted({char.encode("utf-8")[0] for char in ZERO_WIDTH}))


def zero_width(text: str, start: int = 0, encoded: bytes | None = None) -> ZeroWidth | None:
    """The first zero-width character of `text` from `start` (after the byte-order mark,
    IL604's: a U+FEFF in it is one more), and how many there are; None if none (the usual
    case). `encoded`, where the caller has it: `text` in UTF-8, perhaps after a byte-order
    mark (a file's bytes), from which the usual case is told at less cost."""
    # A search of the bytes for each first byte (four, `memchr`): ≈3,900 instructions a
    # file of 2,000 characters, where the text's search below costs ≈40,700. In a text that
    # is not Latin-1, that search is `memchr` for the low byte of each character, which
    # stops at every f, g, h, i, -, . or , of it (the low bytes of U+2066 to U+2069 and
    # U+202A to U+202E).
    if encoded is not None and not _may_hold(encoded):
        return None
    # A scan for each character, in C: 2.8 µs a file for the sixteen, where one
    # regular-expression search for them took 5 (Korean text is not ASCII: the search looks
    # at each character) and one set of the text's characters 40.
    if not any(char in text for char in ZERO_WIDTH):
        return None
    places = [place for char in ZERO_WIDTH if (place := text.find(char, start)) >= 0]
    if not places:
        return None
    count = sum(text.count(char, start) for char in ZERO_WIDTH)
    return ZeroWidth(position_at(text, min(places)), text[min(places)], count)


def _may_hold(encoded: bytes) -> bool:
    """Whether UTF-8 `encoded` holds the first byte of a zero-width character."""
    # (Each an int, not bytes: `in` is then `memchr` alone; a loop, not any(): 3,000
    # instructions fewer a call.)
    for first in _FIRST_BYTES:  # noqa: SIM110
        if first in encoded:
            return True
    return False


WHITE_SPACE = " \t\u3000\u00a0"  # what counts as trailing (and what `curator fix` strips)


def may_end_a_line_in_white_space(text: str) -> bool:
    """False if no line of `text` ends in white space; True if one may. A few searches
    in C instead of a look at each line: nearly every file holds no tab, U+3000 or U+00A0
    at all, and then a line (less the CR of a CRLF) ends in white space only if a space
    stands before an LF, before a CR, or at the end of the text."""
    if "\t" in text or "\u3000" in text or "\u00a0" in text:
        return True
    return " \n" in text or text.endswith(" ") or ("\r" in text and " \r" in text)


def shown_lines(line: str, lone_cr: bool) -> Iterator[tuple[int, str]]:
    """(offset, text) of each line an editor shows within `line` (the text between two
    LFs): the line less a CRLF's CR, or in a file of lone CR line ends each part between
    two CRs."""
    line = line.removesuffix("\r")
    start = 0
    for shown in line.split("\r") if lone_cr else [line]:
        yield start, shown
        start += len(shown) + 1
