"""Text from incident files on one line, where a terminal or a comment shows it.

Every control, format (zero-width, bidi) and line-break character becomes a space, so that
no escape sequence or line break of a file acts where it is shown (a title holding
`ESC ] 0 ; … BEL` retitled the terminal of whoever ran `curator search`), and a text can be
cut to a length. File names, and messages that quote them, must stay findable: there
`escaped` writes each such character as its escape instead.
"""

from __future__ import annotations

import re
import unicodedata

_SPACES = re.compile(r"\s+")
_HIDDEN = ("Cc", "Cf", "Zl", "Zp")  # controls, format (zero-width, bidi), line breaks


def one_line(text: str) -> str:
    chars = (" " if unicodedata.category(ch) in _HIDDEN else ch for ch in text)
    return _SPACES.sub(" ", "".join(chars)).strip()


def escaped(text: str) -> str:
    """`text` with each control, format and line-break character written as its Python
    escape (`\\n`, `\\x1b`, `\\u202e`): on one line, acting on no terminal, and still
    telling which file it names."""
    if text.isprintable():  # (the usual case, at C speed)
        return text
    return "".join(repr(ch)[1:-1] if unicodedata.category(ch) in _HIDDEN else ch for ch in text)


def shorten(text: str, limit: int) -> str:
    """At most `limit` characters, ending in … when cut (before any escaping, so that no
    entity or escape is cut in half), and never inside a letter made of several characters."""
    if len(text) <= limit:
        return text
    end = max(limit - 1, 0)
    while end > 0 and _part_of_letter_before(text[end]):
        end -= 1
    return text[:end].rstrip() + "…"


def _part_of_letter_before(char: str) -> bool:
    """A combining mark (an accent written apart), or the vowel or final consonant of a
    Korean syllable written as separate jamo (NFD): cut before it, the letter before it
    would be another (각 made 가) or none (a lone ᄉ)."""
    return (
        unicodedata.category(char).startswith("M")
        or "\u1160" <= char <= "\u11ff"  # Hangul Jamo: vowels, final consonants
        or "\ud7b0" <= char <= "\ud7ff"  # Hangul Jamo Extended-B: the same
    )


def shown(text: str, limit: int = 200) -> str:
    """`text` as one line of at most `limit` characters."""
    return shorten(one_line(text), limit)
