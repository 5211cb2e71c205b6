"""Bytes → plain values with positions, without constructing anything from the data.

libyaml's event stream is read and the tree is built here, iteratively, so that:
- every scalar stays text (no implicit typing: `occurred: 2023` is "2023", `no` is "no");
- nothing is ever constructed from a tag (`!!python/object` is a finding, not an object);
- aliases are refused as they are met, so an alias bomb costs nothing;
- nesting depth is bounded without recursion (libyaml's own composer recurses in C and
  crashes the interpreter on deeply nested input).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

import yaml

try:  # libyaml is ~10x faster; the pure-Python parser is a correct fallback.
    from yaml import CParser as _Parser  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml.parser import Parser as _PyParser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Parser(Reader, Scanner, _PyParser):  # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            _PyParser.__init__(self)


MAX_BYTES = 1024 * 1024
MAX_DEPTH = 32
BOM = b"\xef\xbb\xbf"

# Tags a plain YAML document may carry explicitly without anything being constructed.
_HARMLESS_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}"
    for name in ("str", "int", "float", "bool", "null", "timestamp", "map", "seq")
) | {"!"}
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})

Path = tuple[str | int, ...]


@dataclass(frozen=True, order=True)
class Position:
    line: int  # 1-based
    column: int  # 1-based


START = Position(1, 1)


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
class Document:
    """The values of one YAML file and where each of them stands."""

    data: Any
    value_spans: dict[Path, tuple[Position, Position]] = field(default_factory=dict)
    key_positions: dict[Path, Position] = field(default_factory=dict)

    def position(self, path: Path) -> Position:
        """Where the value at `path` starts; the nearest enclosing value if it is absent."""
        for end in range(len(path), -1, -1):
            prefix = path[:end]
            if end == len(path) and prefix in self.value_spans:
                return self.value_spans[prefix][0]
            if prefix in self.key_positions:
                return self.key_positions[prefix]
            if prefix in self.value_spans:
                return self.value_spans[prefix][0]
        return START

    def key_position(self, path: Path) -> Position:
        return self.key_positions.get(path) or self.position(path)

    def locate(self, path: Path, at_key: bool = False) -> Position:
        return self.key_position(path) if at_key else self.position(path)

    def span(self, path: Path) -> tuple[Position, Position] | None:
        return self.value_spans.get(path)


@dataclass
class Loaded:
    """The outcome of reading one file: text (if decodable), a document (if parseable)."""

    raw: bytes
    text: str | None = None
    document: Document | None = None
    problems: list[LoadProblem] = field(default_factory=list)

    @property
    def data(self) -> Any:
        return self.document.data if self.document else None


def load_bytes(raw: bytes, max_bytes: int = MAX_BYTES) -> Loaded:
    loaded = Loaded(raw=raw)
    if len(raw) > max_bytes:
        loaded.problems.append(
            LoadProblem(
                Problem.TOO_LARGE,
                START,
                f"file is {len(raw):,} bytes; incidents are limited to {max_bytes:,} bytes",
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
    loaded.text = text
    body = text[1:] if text.startswith("\ufeff") else text
    try:
        loaded.document = _build(body, loaded.problems)
    except yaml.MarkedYAMLError as exc:
        loaded.problems.append(_syntax_problem(exc))
    except yaml.YAMLError as exc:  # errors without a mark (reader errors, e.g. control chars)
        loaded.problems.append(_reader_problem(exc, body))
    if loaded.document is None and not loaded.problems:
        loaded.problems.append(LoadProblem(Problem.EMPTY, START, "the file holds no YAML document"))
    return loaded


def _encoding_message(exc: UnicodeDecodeError) -> str:
    byte = exc.object[exc.start : exc.start + 1].hex()
    return f"not valid UTF-8 (byte 0x{byte} at offset {exc.start}); save the file as UTF-8"


def _offset_position(raw: bytes, offset: int) -> Position:
    before = raw[:offset]
    line = before.count(b"\n") + 1
    line_start = before.rfind(b"\n") + 1
    column = len(before[line_start:].decode("utf-8", errors="replace")) + 1
    return Position(line, column)


def _mark(mark: Any) -> Position:
    return Position(mark.line + 1, mark.column + 1)


def _syntax_problem(exc: yaml.MarkedYAMLError) -> LoadProblem:
    mark = exc.problem_mark or exc.context_mark
    where = _mark(mark) if mark is not None else START
    what = exc.problem or "invalid YAML"
    if exc.context:
        what = f"{what} ({exc.context})"
    return LoadProblem(Problem.SYNTAX, where, f"YAML syntax error: {what}")


def _reader_problem(exc: yaml.YAMLError, text: str) -> LoadProblem:
    position = getattr(exc, "position", None)
    if isinstance(position, int):
        before = text[:position]
        where = Position(before.count("\n") + 1, position - (before.rfind("\n") + 1) + 1)
    else:
        where = START
    problem = getattr(exc, "reason", None) or str(exc).splitlines()[0]
    return LoadProblem(Problem.SYNTAX, where, f"YAML syntax error: {problem}")


class _Forbidden(Exception):
    def __init__(self, position: Position, message: str) -> None:
        super().__init__(message)
        self.problem = LoadProblem(Problem.FORBIDDEN, position, message)


@dataclass
class _Open:
    """A mapping or sequence being built, and where it goes when it closes."""

    container: dict[str, Any] | list[Any]
    path: Path
    start: Position
    pending_key: str | None = None
    seen_keys: set[str] = field(default_factory=set)


def _build(text: str, problems: list[LoadProblem]) -> Document | None:
    parser = _Parser(text)
    document: Document | None = None
    documents = 0
    stack: list[_Open] = []
    try:
        while True:
            event = parser.get_event()
            if event is None or isinstance(event, yaml.StreamEndEvent):
                break
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise _Forbidden(
                        _mark(event.start_mark), "more than one YAML document in the file"
                    )
                document = Document(data=None)
                continue
            if isinstance(event, (yaml.DocumentEndEvent, yaml.StreamStartEvent)):
                continue
            assert document is not None
            _feed(event, stack, document, problems)
    except _Forbidden as exc:
        problems.append(exc.problem)
        return None
    finally:
        dispose = getattr(parser, "dispose", None)
        if dispose:
            dispose()
    return document


def _feed(event: Any, stack: list[_Open], document: Document, problems: list[LoadProblem]) -> None:
    start = _mark(event.start_mark)
    if isinstance(event, yaml.AliasEvent):
        raise _Forbidden(start, f"alias *{event.anchor} is not allowed; write the value out")
    if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
        closed = stack.pop()
        document.value_spans[closed.path] = (closed.start, _mark(event.end_mark))
        _place(closed.container, stack, document)
        return
    tag = getattr(event, "tag", None)
    if tag is not None and tag not in _HARMLESS_TAGS:
        raise _Forbidden(start, f"tag {tag} is not allowed; incidents hold plain values only")
    if isinstance(event, yaml.ScalarEvent):
        _scalar(event, start, stack, document, problems)
        return
    if len(stack) >= MAX_DEPTH:
        raise _Forbidden(start, f"nesting deeper than {MAX_DEPTH} levels")
    path = _child_path(stack, start)
    container: dict[str, Any] | list[Any] = {} if isinstance(event, yaml.MappingStartEvent) else []
    stack.append(_Open(container, path, start))


def _scalar(
    event: Any,
    start: Position,
    stack: list[_Open],
    document: Document,
    problems: list[LoadProblem],
) -> None:
    plain = event.style is None or event.style == ""
    value = None if plain and event.tag is None and event.value in _NULLS else event.value
    if stack and isinstance(stack[-1].container, dict) and stack[-1].pending_key is None:
        _open_key(stack[-1], value, start, document, problems)
        return
    path = _child_path(stack, start)
    document.value_spans[path] = (start, _mark(event.end_mark))
    _place(value, stack, document)


def _open_key(
    parent: _Open, key: Any, start: Position, document: Document, problems: list[LoadProblem]
) -> None:
    if key is None:
        raise _Forbidden(start, "an empty key is not allowed")
    if key in parent.seen_keys:
        # Reported, then the later value wins so that every other rule still runs.
        first = document.key_positions[(*parent.path, key)]
        problems.append(
            LoadProblem(
                Problem.DUPLICATE_KEY,
                start,
                f"key {key!r} appears again (first at line {first.line}); the later value is used",
            )
        )
    parent.seen_keys.add(key)
    parent.pending_key = key
    document.key_positions.setdefault((*parent.path, key), start)


def _child_path(stack: list[_Open], start: Position) -> Path:
    if not stack:
        return ()
    parent = stack[-1]
    if isinstance(parent.container, list):
        return (*parent.path, len(parent.container))
    if parent.pending_key is None:
        raise _Forbidden(start, "only plain text keys are allowed")
    return (*parent.path, parent.pending_key)


def _place(value: Any, stack: list[_Open], document: Document) -> None:
    if not stack:
        document.data = value
        return
    parent = stack[-1]
    if isinstance(parent.container, list):
        parent.container.append(value)
    else:
        assert parent.pending_key is not None
        parent.container[parent.pending_key] = value
        parent.pending_key = None
