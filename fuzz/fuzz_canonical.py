"""Fuzz target: `curator.load_canonical.read_canonical` against the libyaml loader.

The contract of tests/test_load_canonical.py: for any text, `read_canonical` answers None
("not mine"), or exactly the document `curator.load._build` (libyaml) builds from it, with
no problem reported: the same values (key order and types too), the same value spans and
key positions in the same order, every position a `Position`. The input is taken as
`load_bytes` gives it to both readers: UTF-8, without a leading byte-order mark.

    python fuzz/fuzz_canonical.py CORPUS_DIR [atheris / libFuzzer options]
"""

from __future__ import annotations

import atheris
from keep_going import fuzz

with atheris.instrument_imports():
    import yaml

    from curator.document import Position
    from curator.load import LoadProblem, _build
    from curator.load_canonical import read_canonical


def check(raw: bytes) -> None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return
    text = text.removeprefix("\ufeff")
    fast = read_canonical(text)
    if fast is None:
        return
    problems: list[LoadProblem] = []
    try:
        document = _build(text, problems)
    except yaml.YAMLError as exc:
        raise AssertionError(f"libyaml refuses what read_canonical read: {exc}") from None
    assert problems == [], problems
    assert document is not None
    assert repr(fast.data) == repr(document.data), (fast.data, document.data)
    assert list(fast.value_spans.items()) == list(document.value_spans.items())
    assert list(fast.key_positions.items()) == list(document.key_positions.items())
    for start, end in fast.value_spans.values():
        assert type(start) is Position and type(end) is Position
    assert all(type(p) is Position for p in fast.key_positions.values())


if __name__ == "__main__":
    fuzz(check)
