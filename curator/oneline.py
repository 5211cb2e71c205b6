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
    entity or escape is cut in half)."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)].rstrip() + "…"


def shown(text: str, limit: int = 200) -> str:
    """`text` as one line of at most `limit` characters."""
    return shorten(one_line(text), limit)
