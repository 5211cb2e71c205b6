"""Fuzz target: `curator fmt` on any bytes loses no value and no comment, and settles.

`curator.fmt.canonical_form` is what `curator fmt` computes for one file: None (already
canonical), the canonical bytes, or `Refused` (the file is left as it is). For any bytes
it must raise nothing else, and refuse only in words meant for the author (never
"please report", which stands for a bug). When it rewrites, the new bytes must load
without a problem to the values the old ones load to, hold the same comments, and be
canonical themselves (fmt is idempotent). When it says "canonical" by the fast proof
(`curator.write.fastcheck`), the canonical writer must agree.

    python fuzz/fuzz_fmt.py CORPUS_DIR [atheris / libFuzzer options]
"""

from __future__ import annotations

import atheris
from keep_going import fuzz

with atheris.instrument_imports():
    from curator.fmt import canonical_form
    from curator.load import load_bytes
    from curator.write.canonical import Refused, render
    from curator.write.comments import comments
    from curator.write.fastcheck import is_canonical


def as_written(raw: bytes) -> str:
    """The text whose comments a rewrite keeps: without a BOM, line ends as LF."""
    text = raw.decode("utf-8").removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def check(raw: bytes) -> None:
    outcome = canonical_form(raw)
    if isinstance(outcome, Refused):
        assert "please report" not in outcome.message, outcome.message
        assert outcome.position.line >= 1 and outcome.position.column >= 1, outcome.position
        return
    if outcome is None:
        if is_canonical(raw):
            assert render(raw).encode("utf-8") == raw, "fastcheck proved a file not canonical"
        return
    before, after = load_bytes(raw), load_bytes(outcome)
    assert before.problems == [], before.problems  # (fmt rewrites only what lint reads)
    assert after.problems == [], after.problems
    assert repr(after.data) == repr(before.data) or after.data == before.data
    assert sorted(comments(as_written(outcome))) == sorted(comments(as_written(raw)))
    assert canonical_form(outcome) is None, "fmt is not idempotent"


if __name__ == "__main__":
    fuzz(check)
