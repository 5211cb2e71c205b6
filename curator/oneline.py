"""Text from incident files on one line, where a terminal or a comment shows it.

Every control, format (zero-width, bidi) and line-break character becomes a space, so that
no escape sequence or line break of a file acts where it is shown (a title holding
`ESC ] 0 ; … BEL` retitled the terminal of whoever ran `curator search`), and a text can be
cut to a length.
"""

from __future__ import annotations

import re
import unicodedata

_SPACES = re.compile(r"\s+")


def one_line(text: str) -> str:
    chars = (" " if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") else ch for ch in text)
    return _SPACES.sub(" ", "".join(chars)).strip()


def shorten(text: str, limit: int) -> str:
    """At most `limit` characters, ending in … when cut (before any escaping, so that no
    entity or escape is cut in half)."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)].rstrip() + "…"


def shown(text: str, limit: int = 200) -> str:
    """`text` as one line of at most `limit` characters."""
    return shorten(one_line(text), limit)
