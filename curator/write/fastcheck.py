"""Is a file already canonical? A proof in ~0.1 ms instead of a ~5 ms ruamel.yaml round trip.

`is_canonical(raw)` re-emits the file from libyaml's event stream (which carries each
scalar's style) with a small emitter that knows how `curator.write.canonical.render` lays
out the common constructs of an incident, and compares the result with `raw` byte for byte.
It answers True only when that is a proof that `render(raw)` would return `raw` unchanged,
and False ("don't know"; the caller renders) for everything else.

Why equality is a proof. Call E the text emitted from the events of `raw`. The emitter
covers only constructs for which both of these hold:
- ruamel.yaml reads E as the same values, in the same styles, with no comments, and the
  linter's loader reads it without a problem (no tags, anchors, aliases, duplicate keys,
  second documents, odd characters, null values);
- ruamel.yaml, configured as `canonical.py` configures it, writes exactly E for that tree
  after `canonicalise` (key order, block style, literal or plain text style), because
  every scalar is one whose style ruamel keeps (checked against ruamel's emitter rules:
  `Emitter.analyze_scalar`, `choose_scalar_style`, the writers).
So when E == raw, `render(raw)` parses E, finds nothing to move or restyle, and dumps E.
Everything outside that small language is refused: comments (any `#`), tabs, CR, BOM,
controls, characters outside the Basic Multilingual Plane, flow collections other than
`[]`, folded scalars, multi-line quoted text, unknown keys, nested shapes the incident
format does not have, and any plain scalar ruamel might quote or resolve.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import yaml

from curator.load import MAX_BYTES
from curator.load_canonical import PLAIN_FIRST_NO, SCREEN
from curator.model import DIMENSIONS, INCIDENT_KEYS
from curator.write.canonical import SOURCE_KEYS, literal_ok

try:
    from yaml._yaml import CParser as _Parser
except ImportError:  # pragma: no cover - depends on the PyYAML build
    # Without libyaml the check would cost what it saves: always "don't know".
    _Parser = None  # type: ignore[assignment,misc]

NextEvent = Callable[[], Any]
Rank = dict[str, int]

_INCIDENT: Rank = {key: index for index, key in enumerate(INCIDENT_KEYS)}
_DIMENSION: Rank = {key: index for index, key in enumerate(DIMENSIONS)}
_SOURCE: Rank = {key: index for index, key in enumerate(SOURCE_KEYS)}

# The screen and the first characters refused are `curator.load_canonical`'s: what that
# reader leaves to libyaml is what ruamel might quote or read otherwise, here too.
_QUICK_NO = re.compile(rb"[#\t\r]")  # the usual reasons to say no, before decoding
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})  # the loader's and ruamel's nulls


class _Unsure(Exception):
    """The file is outside what this emitter covers: the answer is "don't know"."""


def is_canonical(raw: bytes) -> bool:
    """True only if `render(raw)` would give back exactly `raw`; False means don't know."""
    if _Parser is None or len(raw) > MAX_BYTES or _QUICK_NO.search(raw):
        return False
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    if not text.endswith("\n") or SCREEN.search(text):
        return False
    parser = _Parser(text)
    try:
        return _document(parser.get_event) == text
    except Exception:  # a syntax error, or anything unforeseen: don't know, ruamel decides
        return False
    finally:
        parser.dispose()


def _document(next_event: NextEvent) -> str:
    """The whole text: one implicit document holding a block mapping of incident keys."""
    _expect(next_event(), yaml.StreamStartEvent)
    start = _expect(next_event(), yaml.DocumentStartEvent)
    if start.explicit or start.version or start.tags:
        raise _Unsure
    _collection(next_event(), yaml.MappingStartEvent)
    out: list[str] = []
    _mapping(next_event, out, 0, "", _INCIDENT)
    if _expect(next_event(), yaml.DocumentEndEvent).explicit:
        raise _Unsure
    _expect(next_event(), yaml.StreamEndEvent)  # a second document or a late error: not here
    return "".join(out)


def _expect(event: Any, kind: type) -> Any:
    if type(event) is not kind:
        raise _Unsure
    return event


def _collection(event: Any, kind: type[Any]) -> None:
    """A block mapping or sequence, without tag or anchor."""
    if type(event) is not kind or event.flow_style or event.tag or event.anchor:
        raise _Unsure


def _mapping(next_event: NextEvent, out: list[str], column: int, lead: str, rank: Rank) -> None:
    """A block mapping whose keys stand at `column`, the first one after `lead` (the
    indentation, or a sequence item's `- `). Its keys must be known and in canonical order,
    which also rules out duplicates and unknown keys (which `_order` would leave in place)."""
    indent = " " * column
    last = -1
    while True:
        event = next_event()
        if type(event) is yaml.MappingEndEvent:
            if last < 0:
                raise _Unsure
            return
        key = _key(event)
        position = rank.get(key, -1)
        if position <= last:
            raise _Unsure
        last = position
        out.append(f"{lead}{key}:")
        lead = indent
        _value(next_event, out, column, _child_rank(rank, key))


def _key(event: Any) -> str:
    if type(event) is not yaml.ScalarEvent or event.style or event.tag or event.anchor:
        raise _Unsure
    return str(event.value)


def _child_rank(rank: Rank, key: str) -> Rank | None:
    """The key order of the mappings `canonicalise` orders below `key`; None where the
    format has no mapping (any other mapping is refused)."""
    if rank is _INCIDENT:
        return _DIMENSION if key == "facets" else _SOURCE if key == "sources" else None
    return None


def _value(next_event: NextEvent, out: list[str], column: int, child: Rank | None) -> None:
    """The value of a key at `column`, written after its `key:`."""
    event = next_event()
    kind = type(event)
    if kind is yaml.ScalarEvent:
        out.append(" " + _scalar(event, column + 2))
    elif kind is yaml.SequenceStartEvent:
        _sequence(next_event, event, out, column + 2, child if child is _SOURCE else None)
    elif kind is yaml.MappingStartEvent and child is _DIMENSION:
        _collection(event, yaml.MappingStartEvent)
        out.append("\n")
        _mapping(next_event, out, column + 2, " " * (column + 2), child)
    else:
        raise _Unsure


def _sequence(
    next_event: NextEvent, start: Any, out: list[str], column: int, items: Rank | None
) -> None:
    """A sequence under a key: `[]` when empty (ruamel keeps an empty flow sequence), else
    block style with each `- ` at `column`; mapping items only where `items` orders them."""
    if start.tag or start.anchor:
        raise _Unsure
    if start.flow_style:
        _expect(next_event(), yaml.SequenceEndEvent)  # only the empty `[]`
        out.append(" []\n")
        return
    out.append("\n")
    dash = " " * column + "- "
    count = 0
    while True:
        event = next_event()
        kind = type(event)
        if kind is yaml.SequenceEndEvent:
            if not count:
                raise _Unsure
            return
        count += 1
        if kind is yaml.ScalarEvent:
            out.append(dash + _scalar(event, column + 2))
        elif kind is yaml.MappingStartEvent and items is not None:
            _collection(event, yaml.MappingStartEvent)
            _mapping(next_event, out, column + 2, dash, items)
        else:
            raise _Unsure


def _scalar(event: Any, column: int) -> str:
    """A scalar value as ruamel writes it, with its line end; a literal block's lines
    indented to `column`. Only styles whose rendering is certain."""
    if event.tag or event.anchor:
        raise _Unsure
    value: str = event.value
    style = event.style
    if not value or value in _NULLS:  # ruamel writes nulls and '' its own ways
        raise _Unsure
    if style == "|":
        return _literal(value, column)
    if "\n" in value:  # multi-line text is a literal block or double-quoted: not ours
        raise _Unsure
    if not style:
        return _plain(value)
    if style == "'":
        # Kept single-quoted: one line of printable text is `allow_single_quoted`.
        return "'" + value.replace("'", "''") + "'\n"
    if style == '"' and '"' not in value and "\\" not in value:
        # Kept double-quoted; ruamel escapes none of the characters `SCREEN` lets in.
        return f'"{value}"\n'
    raise _Unsure


def _plain(value: str) -> str:
    """A plain scalar ruamel keeps plain: `allow_block_plain` (no leading indicator, no
    leading or trailing space, no `: ` or ` #`, no document marker), and not resolved to
    anything but text by the loader or by canonical.py's resolver (only nulls are)."""
    if (
        value[0] in PLAIN_FIRST_NO
        or value[-1] in " :"
        or ": " in value
        or "#" in value
        or value.startswith("...")
    ):
        raise _Unsure
    return value + "\n"


def _literal(value: str, column: int) -> str:
    """A literal block ruamel keeps literal (multi-line text that `literal_ok` accepts)
    with no indentation indicator (first line not starting with a space) and clip `|` or
    strip `|-` chomping (`literal_ok` refuses the trailing blank lines of `|+`)."""
    if "\n" not in value or not literal_ok(value) or value[0] == " ":
        raise _Unsure
    body, header = (value[:-1], "|\n") if value.endswith("\n") else (value, "|-\n")
    indent = " " * column
    return header + "".join(f"{indent}{line}\n" if line else "\n" for line in body.split("\n"))
