"""Bytes → plain values with positions, without constructing anything from the data.

libyaml's event stream is read and the tree is built here, iteratively, so that:
- every scalar stays text (no implicit typing: `occurred: 2023` is "2023", `no` is "no");
- nothing is ever constructed from a tag (`!!python/object` is a finding, not an object);
- anchors and aliases are refused as they are met, so an alias bomb costs nothing (and an
  anchor, which would name the value, cannot take a word from its text unseen);
- nesting depth is bounded without recursion (libyaml's own composer recurses in C and
  crashes the interpreter on deeply nested input).
"""

from __future__ import annotations

import bisect
import enum
import functools
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import yaml

# Re-exported: the rest of curator takes these types from here, with the loader.
from curator.document import MAX_DEPTH as MAX_DEPTH
from curator.document import START as START
from curator.document import Document as Document
from curator.document import Path as Path
from curator.document import Position as Position
from curator.load_canonical import read_canonical
from curator.regular import Oversized
from curator.yaml_errors import SCAN_LOADER as SCAN_LOADER
from curator.yaml_errors import advice

try:  # libyaml is ~10x faster; the pure-Python parser is a correct fallback.
    from yaml._yaml import CParser as _Parser

    # libyaml is given the text as UTF-8: where its reader stops is a count of bytes.
    _OFFSETS_IN_BYTES = True
except ImportError:  # pragma: no cover - depends on the PyYAML build
    _OFFSETS_IN_BYTES = False
    from yaml.parser import Parser as _PyParser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Parser(Reader, Scanner, _PyParser):  # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            _PyParser.__init__(self)


MAX_BYTES = 1024 * 1024
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")  # little- and big-endian
UTF8_BOM = b"\xef\xbb\xbf"

# The one explicit tag an incident may carry, on a scalar: `!!str`, which says only "this
# is text", as the loader reads every scalar. Any other (`!!int`, `!!bool`, `!!map`, and
# `!`, by which PyYAML and ruamel.yaml read `! 5` as a number) asks other YAML readers and
# ruamel.yaml (`curator fmt`) for a value the loader does not read, or one they fail on.
_YAML_TAG = "tag:yaml.org,2002:"
_TEXT_TAG = f"{_YAML_TAG}str"
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})


def position_at(text: str, offset: int) -> Position:
    """Where `text[offset]` stands: lines counted by LF (as editors and the rules count
    them), columns in characters."""
    line_start = text.rfind("\n", 0, offset) + 1
    return Position(text.count("\n", 0, offset) + 1, offset - line_start + 1)


class Problem(enum.Enum):
    """What can go wrong before there is a document at all. Each has a rule module."""

    TOO_LARGE = "too-large"
    ENCODING = "encoding"
    EMPTY = "empty"
    SYNTAX = "syntax"
    DUPLICATE_KEY = "duplicate-key"
    FORBIDDEN = "forbidden-construct"


@dataclass(frozen=True)
class LoadProblem:
    kind: Problem
    position: Position
    message: str


@dataclass
class Loaded:
    """The outcome of reading one file: text (if decodable), a document (if parseable).

    `text` is what follows a byte-order mark starting the file, as the loader and editors
    read it: a place in it (`position_at`) is one an editor shows, and one the loader gives
    (`bom` tells whether the file has the mark, IL604)."""

    raw: bytes
    text: str | None = None
    document: Document | None = None
    problems: list[LoadProblem] = field(default_factory=list)

    @property
    def bom(self) -> bool:
        return self.raw.startswith(UTF8_BOM)

    @property
    def data(self) -> Any:
        return self.document.data if self.document else None


def load_bytes(raw: bytes, max_bytes: int = MAX_BYTES) -> Loaded:
    loaded = Loaded(raw=raw)
    if len(raw) > max_bytes:
        size = raw.size if isinstance(raw, Oversized) else len(raw)  # (only its start read)
        loaded.problems.append(
            LoadProblem(
                Problem.TOO_LARGE,
                START,
                f"file is {size:,} bytes; curator reads files of up to {max_bytes:,} bytes",
            )
        )
        return loaded
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        loaded.problems.append(
            LoadProblem(Problem.ENCODING, _offset_position(raw, exc.start), _encoding_message(exc))
        )
        return loaded
    loaded.text = body = text.removeprefix("\ufeff")
    marked: list[LoadProblem] = []  # placed by libyaml's marks, as the document is
    moved = _at_lf_lines(body) if _has_other_breaks(body) else None
    try:
        # The layout `curator fmt` writes is read without libyaml, for the same document
        # (`curator.load_canonical`); anything else is libyaml's to read.
        canonical = read_canonical(body) if moved is None else None
        loaded.document = canonical or _build(body, marked, moved)
    except yaml.MarkedYAMLError as exc:
        marked.append(_syntax_problem(exc, body))
    except yaml.YAMLError as exc:  # errors without a mark (reader errors, e.g. control chars)
        loaded.problems.append(_reader_problem(exc, body))
    if moved is not None:
        marked = [replace(problem, position=moved(problem.position)) for problem in marked]
        renumber(loaded.document, moved)
    if marked:
        # libyaml places an error at the end of the text on a line after it (two, past a
        # lone CR or a U+2028): the place is the end of the text.
        end = position_at(body, len(body))
        marked = [replace(problem, position=min(problem.position, end)) for problem in marked]
    loaded.problems[:0] = marked
    if loaded.document is None and not loaded.problems:
        loaded.problems.append(LoadProblem(Problem.EMPTY, START, "the file holds no YAML document"))
    return loaded


# Line breaks to YAML 1.1 (libyaml, the loader) and none to editors or YAML 1.2 readers.
UNICODE_BREAKS = {"\x85": "NEXT LINE", "\u2028": "LINE SEPARATOR", "\u2029": "PARAGRAPH SEPARATOR"}
# libyaml also starts a line at a lone CR, NEL, LS and PS; editors and the rules count
# lines by LF alone, so the marks of a file holding one are renumbered (`_at_lf_lines`).
_LONE_CR = re.compile("\r(?!\n)")
_YAML_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def _has_other_breaks(text: str) -> bool:
    # Four scans for a character (0.2 µs a file) rather than one regex search (17 µs).
    return (
        "\u2028" in text
        or "\u2029" in text
        or "\x85" in text
        or ("\r" in text and _LONE_CR.search(text) is not None)
    )


def _at_lf_lines(text: str) -> Callable[[Position], Position]:
    """Position as libyaml counts it in `text` → the same place, lines counted by LF."""
    starts = [0, *(match.end() for match in _YAML_BREAK.finditer(text))]

    def moved(position: Position) -> Position:
        if position.line > len(starts):
            return position
        return position_at(text, starts[position.line - 1] + position.column - 1)

    return functools.cache(moved)


_EDITOR_BREAK = re.compile("\r\n?|\n")


def at_editor_lines(text: str | None) -> Callable[[Position], Position] | None:
    """For a text whose lines end with a lone CR (classic Mac OS), more of them than with
    an LF: a place as the loader and the rules give it (lines counted by LF, which put all
    of such a file on line 1) → the same place, lines counted as the editor that wrote it
    counts them, at each CR, CRLF and LF (as `curator fix` reports them, once it has
    converted the line ends). None for any other text, whose places need no moving (a lone
    CR among LF line ends is one line's text to git, GitHub and vim, as to the rules)."""
    if text is None or "\r" not in text:
        return None
    lone = len(_LONE_CR.findall(text))
    if lone <= text.count("\n"):
        return None
    by_lf = [0, *(match.end() for match in re.finditer("\n", text))]
    breaks = [match.end() for match in _EDITOR_BREAK.finditer(text)]

    def moved(position: Position) -> Position:
        if position.line > len(by_lf):
            return position
        offset = min(by_lf[position.line - 1] + position.column - 1, len(text))
        line = bisect.bisect_right(breaks, offset)
        return Position(line + 1, offset - (breaks[line - 1] if line else 0) + 1)

    return moved


def renumber(document: Document | None, moved: Callable[[Position], Position]) -> None:
    """Moves the places `document` keeps of its keys and values by `moved`."""
    if document is not None:
        spans = document.value_spans
        for path, (start, end) in spans.items():
            spans[path] = (moved(start), moved(end))
        keys = document.key_positions
        for path, start in keys.items():
            keys[path] = moved(start)


def _encoding_message(exc: UnicodeDecodeError) -> str:
    if exc.start == 0 and exc.object[:2] in UTF16_BOMS:
        # What Windows editors call "Unicode": say so, rather than name a byte.
        return "the file is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8"
    byte = exc.object[exc.start : exc.start + 1].hex()
    where = f"byte 0x{byte} at offset {exc.start}"
    if _is_korean_windows_text(exc.object):
        # Korean Windows editors save in CP949 unless told otherwise: say so, as a byte's
        # number says nothing about how the file came to be so, or what to change.
        return (
            f"not valid UTF-8 ({where}): it reads as CP949 (EUC-KR), as Korean Windows "
            "saves files; save the file as UTF-8"
        )
    return f"not valid UTF-8 ({where}); save the file as UTF-8"


_HANGUL_SYLLABLE = re.compile("[\uac00-\ud7a3]")


def _is_korean_windows_text(raw: bytes) -> bool:
    """Whether `raw` reads as CP949 (a superset of EUC-KR) holding Korean."""
    try:
        text = raw.decode("cp949")
    except UnicodeDecodeError:
        return False
    return _HANGUL_SYLLABLE.search(text) is not None


def _offset_position(raw: bytes, offset: int) -> Position:
    before = raw[len(UTF8_BOM) if raw.startswith(UTF8_BOM) else 0 : offset]
    line = before.count(b"\n") + 1
    line_start = before.rfind(b"\n") + 1
    column = len(before[line_start:].decode("utf-8", errors="replace")) + 1
    return Position(line, column)


def _mark(mark: Any) -> Position:
    return Position(mark.line + 1, mark.column + 1)


def _syntax_problem(exc: yaml.MarkedYAMLError, text: str) -> LoadProblem:
    mark = exc.problem_mark or exc.context_mark
    where = _mark(mark) if mark is not None else START
    what = exc.problem or "invalid YAML"
    if "nesting depth" in what:
        # libyaml 0.2.6 (PyYAML 6.0.4's wheels) refuses nesting past 1000 levels while it
        # scans ahead of a possible key (`[[[…`, up to 1,024 characters on), before the
        # loader has met the level past MAX_DEPTH: the text up to there is read again for
        # that level's place, where 0.2.5 (PyYAML 6.0.3's) lets the loader refuse it there.
        where = (_too_deep(text, mark) if mark is not None else None) or where
        return LoadProblem(Problem.FORBIDDEN, where, f"nesting deeper than {MAX_DEPTH} levels")
    meant = advice(exc, text)
    if meant is not None:
        where = Position(meant.line, meant.column)
        return LoadProblem(Problem.SYNTAX, where, f"YAML syntax error: {meant.words}")
    if exc.context:
        what = f"{what} ({exc.context})"
    return LoadProblem(Problem.SYNTAX, where, f"YAML syntax error: {what}")


def _too_deep(text: str, mark: Any) -> Position | None:
    """Where a collection starts past MAX_DEPTH levels in `text` up to `mark` (libyaml's,
    on the same lines), events alone counted: the loader met all those before it."""
    starts = _YAML_BREAK.finditer(text)
    line_start = next(itertools.islice(starts, mark.line - 1, None)).end() if mark.line else 0
    parser = _Parser(text[: line_start + mark.column])
    depth = 0
    try:
        while True:
            event: Any = parser.get_event()
            kind = type(event)
            if kind is _MappingStart or kind is _SequenceStart:
                depth += 1
                if depth > MAX_DEPTH:
                    return _mark(event.start_mark)
            elif kind is _MappingEnd or kind is _SequenceEnd:
                depth -= 1
            elif kind is yaml.StreamEndEvent:
                return None
    except yaml.YAMLError:
        return None  # (the text ends inside a collection, if not deep enough)


def _reader_problem(exc: yaml.YAMLError, text: str) -> LoadProblem:
    position = getattr(exc, "position", None)
    if isinstance(position, int):
        # (Taken as a count of characters, a byte count put a control character after
        # Korean text lines later than it is.)
        raw = text.encode("utf-8")[:position] if _OFFSETS_IN_BYTES else None
        before = raw.decode("utf-8", errors="ignore") if raw is not None else text[:position]
        where = position_at(before, len(before))
    else:
        where = START
    problem = getattr(exc, "reason", None) or str(exc).splitlines()[0]
    return LoadProblem(Problem.SYNTAX, where, f"YAML syntax error: {problem}")


class _Forbidden(Exception):
    def __init__(self, position: Position, message: str) -> None:
        super().__init__(message)
        self.problem = LoadProblem(Problem.FORBIDDEN, position, message)


class _Open:
    """A mapping or sequence being built, and where it goes when it closes."""

    __slots__ = ("container", "is_mapping", "path", "pending_key", "seen_keys", "start")

    def __init__(self, is_mapping: bool, path: Path, start: Position) -> None:
        # A dict if `is_mapping`, else a list. `Any`, since `_build`'s hot loop branches on
        # `is_mapping`, which a type checker cannot connect to the container's type.
        self.container: Any = {} if is_mapping else []
        self.is_mapping = is_mapping
        self.path = path
        self.start = start
        self.pending_key: str | None = None
        self.seen_keys: set[str] = set()


_ScalarEvent, _AliasEvent = yaml.ScalarEvent, yaml.AliasEvent
_MappingStart, _MappingEnd = yaml.MappingStartEvent, yaml.MappingEndEvent
_SequenceStart, _SequenceEnd = yaml.SequenceStartEvent, yaml.SequenceEndEvent
_new_tuple = tuple.__new__


def _build(
    text: str, problems: list[LoadProblem], moved: Callable[[Position], Position] | None = None
) -> Document | None:
    """The event loop: the hottest code of `curator lint`, so it dispatches on the event's
    exact type, most frequent first, and builds the positions of scalars (two for every
    value of every file) inline rather than through `_mark`. `moved` renumbers a position
    (see `_at_lf_lines`) where a message names one: positions themselves are moved later."""
    parser = _Parser(text)
    document = Document(data=None)
    documents = 0
    stack: list[_Open] = []
    top: _Open | None = None  # stack[-1], or None at the top level
    spans, keys = document.value_spans, document.key_positions
    path: Path
    try:
        while True:
            event: Any = parser.get_event()  # dispatched on its exact type below
            kind = type(event)
            if kind is _ScalarEvent:
                mark = event.start_mark
                start = _new_tuple(Position, (mark.line + 1, mark.column + 1))
                value, tag = event.value, event.tag
                if event.anchor is not None:
                    raise _Forbidden(start, _anchor_not_allowed(event.anchor))
                if tag is not None:
                    if tag != _TEXT_TAG:
                        raise _Forbidden(start, _tag_not_allowed(tag))
                elif not event.style and value in _NULLS:
                    value = None
                # `_open_key` and `_place`, inlined for the usual cases.
                if top is None:
                    document.data = value
                    path = ()
                elif top.is_mapping:
                    key = top.pending_key
                    if key is None:  # this scalar is a key
                        if value is None or value in top.seen_keys:
                            _open_key(top, value, start, document, problems, moved)
                        else:
                            top.seen_keys.add(value)
                            keys[(*top.path, value)] = start
                            top.pending_key = value
                        continue
                    top.container[key] = value
                    top.pending_key = None
                    path = (*top.path, key)
                else:
                    container = top.container
                    path = (*top.path, len(container))
                    container.append(value)
                mark = event.end_mark
                spans[path] = (start, _new_tuple(Position, (mark.line + 1, mark.column + 1)))
                if mark.line + 1 != start.line and not event.style:
                    document.folded.append(path)
            elif kind is _MappingEnd or kind is _SequenceEnd:
                closed = stack.pop()
                top = stack[-1] if stack else None
                path = _place(closed.container, top, document)
                spans[path] = (closed.start, _mark(event.end_mark))
            elif kind is _MappingStart or kind is _SequenceStart:
                start = _mark(event.start_mark)
                tag = event.tag
                if tag is not None:
                    raise _Forbidden(start, _tag_not_allowed(tag))
                if event.anchor is not None:
                    raise _Forbidden(start, _anchor_not_allowed(event.anchor))
                if len(stack) >= MAX_DEPTH:
                    raise _Forbidden(start, f"nesting deeper than {MAX_DEPTH} levels")
                top = _Open(kind is _MappingStart, _child_path(top, start), start)
                stack.append(top)
            elif kind is _AliasEvent:
                raise _Forbidden(
                    _mark(event.start_mark),
                    f"alias *{event.anchor} is not allowed; write the value out",
                )
            elif kind is yaml.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise _Forbidden(
                        _mark(event.start_mark), "more than one YAML document in the file"
                    )
            elif event is None or kind is yaml.StreamEndEvent:
                break
    except _Forbidden as exc:
        problems.append(exc.problem)
        return None
    finally:
        dispose = getattr(parser, "dispose", None)
        if dispose:
            dispose()
    return document if documents else None


_TAG_NOT_ALLOWED = (
    "tag {} is not allowed; incidents hold plain values only: write the value without the tag"
)


def _anchor_not_allowed(anchor: str) -> str:
    # An anchor alone changes no value, but the text it takes is gone from the value: a
    # title written `&a 장애` is read as `장애`, silently.
    return (
        f"anchor &{anchor} is not allowed: YAML takes it as a name for the value, not as its "
        "text; remove it, or put the whole value in double quotes if it belongs to the text"
    )


def _tag_not_allowed(tag: str) -> str:
    # libyaml gives the tag resolved: `!!int`, `!<tag:yaml.org,2002:int>` and a `%TAG`
    # handle's `!t!int` all arrive as `tag:yaml.org,2002:int`, shown as authors write it.
    shown = "!!" + tag.removeprefix(_YAML_TAG) if tag.startswith(_YAML_TAG) else tag
    return _TAG_NOT_ALLOWED.format(shown)


def _open_key(
    parent: _Open,
    key: Any,
    start: Position,
    document: Document,
    problems: list[LoadProblem],
    moved: Callable[[Position], Position] | None = None,
) -> None:
    """A key that `_build`'s inlined case does not take: an empty one, or a repeated one."""
    if key is None:
        raise _Forbidden(start, "an empty key is not allowed")
    # Reported, then the later value wins so that every other rule still runs.
    first = document.key_positions[(*parent.path, key)]
    first = moved(first) if moved is not None else first
    problems.append(
        LoadProblem(
            Problem.DUPLICATE_KEY,
            start,
            f"key {key!r} appears again (first at line {first.line}); the later value is used",
        )
    )
    parent.pending_key = key


def _child_path(parent: _Open | None, start: Position) -> Path:
    if parent is None:
        return ()
    if not parent.is_mapping:
        return (*parent.path, len(parent.container))
    if parent.pending_key is None:
        raise _Forbidden(start, "only plain text keys are allowed")
    return (*parent.path, parent.pending_key)


def _place(value: Any, parent: _Open | None, document: Document) -> Path:
    """Put a finished value into its parent (or make it the document); its path."""
    if parent is None:
        document.data = value
        return ()
    container = parent.container
    if isinstance(container, list):
        container.append(value)
        return (*parent.path, len(container) - 1)
    key = parent.pending_key
    assert key is not None
    container[key] = value
    parent.pending_key = None
    return (*parent.path, key)
