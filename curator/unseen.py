"""Characters a reader does not see: zero-width characters and bidirectional controls,
and the white space that can end a line. Incident files (IL606, IL602) and taxonomy files
(IL303, IL305) are checked for the same ones, and `curator fix` removes them.
"""

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

WHITE_SPACE = " \t\u3000\u00a0"  # what counts as trailing (and what `curator fix` strips)


def may_end_a_line_in_white_space(text: str) -> bool:
    """False if no line of `text` ends in white space; True if one may. A few searches
    in C instead of a look at each line: nearly every file holds no tab, U+3000 or U+00A0
    at all, and then a line (less the CR of a CRLF) ends in white space only if a space
    stands before an LF, before a CR, or at the end of the text."""
    if "\t" in text or "\u3000" in text or "\u00a0" in text:
        return True
    return " \n" in text or text.endswith(" ") or ("\r" in text and " \r" in text)
