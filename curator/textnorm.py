"""Unicode normalisation whose cost stays linear in the text, whatever the text holds.

CPython puts combining marks into canonical order with an insertion sort, so a run of
marks out of order costs the square of its length: a title of 100,000 pairs of accents
(400 KB) took two minutes to normalise. Unicode's stream-safe text format (UAX #15) bounds
such runs at 30 non-starters, which no real text comes near; `stream_safe` ends each longer
run with U+034F COMBINING GRAPHEME JOINER, as UAX #15 does, which bounds every sort.
"""

import functools
import re
import unicodedata
from typing import Literal

Form = Literal["NFC", "NFD", "NFKC", "NFKD"]
STREAM_SAFE_RUN = 30  # non-starters in a row (UAX #15)
CGJ = "\u034f"  # COMBINING GRAPHEME JOINER: a starter that joins nothing, shown as nothing


def normalized(form: Form, text: str) -> str:
    """`unicodedata.normalize(form, text)`, in linear time: `text` itself when it is in
    that form (told in C, the usual case), else the form of its stream-safe version."""
    if unicodedata.is_normalized(form, text):
        return text
    return unicodedata.normalize(form, stream_safe(text))


# CJK compatibility ideographs (U+F900–U+FAFF and U+2F800–U+2FA1F, both ends past the last
# one): NFC replaces each of the 1,002 that have a canonical mapping by the unified ideograph
# it maps to. That is another character, not another encoding of the same one: Korean's
# KS X 1001 encodes some Hanja once for each reading (樂 is U+F914, U+F95C and U+F9BF as
# well as U+6A02), and Unicode kept those apart as compatibility ideographs.
COMPATIBILITY_IDEOGRAPHS = re.compile("([\uf900-\ufaff\U0002f800-\U0002fa1f])")  # (kept by split)


def composed(text: str) -> str:
    """`normalized("NFC", text)`, but with every CJK compatibility ideograph kept as it is
    written. NFC composes nothing with an ideograph, so the text between them is normalised
    piece by piece, to the same letters as a whole."""
    if unicodedata.is_normalized("NFC", text):
        return text
    pieces = COMPATIBILITY_IDEOGRAPHS.split(text)  # text, ideograph, text, …, text
    return "".join(p if i % 2 else normalized("NFC", p) for i, p in enumerate(pieces))


def unified(text: str) -> str:
    """`text` with each CJK compatibility ideograph replaced by what NFC makes of it (one
    character for one: positions stay where they were)."""
    return COMPATIBILITY_IDEOGRAPHS.sub(_unified_ideograph, text)


def _unified_ideograph(match: re.Match[str]) -> str:
    return unicodedata.normalize("NFC", match.group())


def stream_safe(text: str) -> str:
    """`text` with CGJ after every 30 non-starters in a row, or `text` itself when it has
    no such run (all real text). Non-starters are counted as characters, not as what they
    decompose into (UAX #15 counts those): a bound, which is all the sort needs."""
    start = long_run(text)
    if start is None:
        return text
    out, run = [text[:start]], 0
    for char in text[start:]:
        if unicodedata.combining(char):
            if run == STREAM_SAFE_RUN:
                out.append(CGJ)
                run = 0
            run += 1
        else:
            run = 0
        out.append(char)
    return "".join(out)


def long_run(text: str) -> int | None:
    """Where the first run of more than 30 non-starters in `text` starts, if any."""
    for match in _maybe_long_run().finditer(text):
        run = 0
        for index in range(match.start(), match.end()):
            run = run + 1 if unicodedata.combining(text[index]) else 0
            if run > STREAM_SAFE_RUN:
                return index - STREAM_SAFE_RUN
    return None


@functools.cache
def _maybe_long_run() -> re.Pattern[str]:
    """More than 30 characters in a row that may be non-starters (`maybe_non_starter`), so
    that `long_run` checks a match character by character."""
    return re.compile(f"[{maybe_non_starter()}]{{{STREAM_SAFE_RUN + 1},}}")


@functools.cache
def maybe_non_starter() -> str:
    """A regular expression's class (without its brackets) of the characters that may be
    non-starters: each one of the Basic Multilingual Plane that is (listed from
    `unicodedata`, once, ≈10 ms), and any other (a class that lists those makes every
    search ≈15 times slower)."""
    ranges: list[tuple[int, int]] = []
    for point in range(0x10000):
        if unicodedata.combining(chr(point)):
            if ranges and ranges[-1][1] == point - 1:
                ranges[-1] = (ranges[-1][0], point)
            else:
                ranges.append((point, point))
    listed = "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges)
    return f"{listed}\U00010000-\U0010ffff"
