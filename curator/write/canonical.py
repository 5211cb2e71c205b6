"""The one layout of an incident file, written through ruamel.yaml's round-trip mode.

The layout: keys in the order of the fields of `curator.model` (unknown keys after them,
as they were), 2-space indentation with list items indented under their key
(`  - item`), block style for every non-empty list and mapping, multi-line text as a
literal block scalar (`|`), long lines never folded, UTF-8 without escapes, LF line ends,
exactly one final newline, no white space at the end of a line (but in block-scalar text,
where it is part of the value, and a block written with it stays a block), keys unquoted,
no `---` or `...` but after directives (`%YAML 1.2`), which stay, first in the file.
Comments and the quoting of values stay as the author wrote them (each tab in a quoted value
stays a tab or the escape `\\t`, as written, `_Emitter`; text of many lines with a tab written
as an escape stays double-quoted, as a block holds none); an explicit `!!str` tag, which the
loader ignores, is dropped.
Text that other YAML readers would type if written plain (`2024`, `no`) is single-quoted
where the layout takes away what made it text (a block's `|-`, a tag, a key's quotes).

Comments and blank lines are not left to ruamel, which keeps a comment line in the slot of
the key before it, so that reordering keys would carry it off to another key: they are
taken from the input with the node each is written beside (`comments.notes`), and written
back beside the same node in the canonical text (`comments.overlay`).

Rewriting is refused rather than risked: the input must be a file the linter's loader
accepts, ruamel.yaml must read the same values from it as the loader, and the output must
load to exactly the values intended and carry every comment of the input, each beside the
same key or item as before. A refused file is never written.
"""

from __future__ import annotations

import io
import os
import re
import stat
import sys
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol, TypeVar

# Loaded with this module, not by ruamel as it reads the first mapping, mid-run: a stop as
# a module loads can be dropped ("Exception ignored in: …"), and fix went on to write.
import ruamel.yaml.mergevalue  # noqa: F401 (0.2 ms)
import yaml
from ruamel.yaml import YAML
from ruamel.yaml.comments import Comment, CommentedMap, CommentedSeq, TaggedScalar
from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.emitter import RoundTripEmitter
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.representer import RoundTripRepresenter
from ruamel.yaml.resolver import VersionedResolver
from ruamel.yaml.scalarstring import (
    DoubleQuotedScalarString,
    FoldedScalarString,
    LiteralScalarString,
    PlainScalarString,
    ScalarString,
    SingleQuotedScalarString,
)

from curator.document import items_in_text
from curator.load import (
    MAX_BYTES,
    SCAN_LOADER,
    START,
    UNICODE_BREAKS,
    Document,
    Loaded,
    Position,
    at_editor_lines,
    load_bytes,
    position_at,
)
from curator.model import DIMENSIONS, INCIDENT_KEYS, Source, not_a_mapping
from curator.rules import list_item_in_text
from curator.write.atomic import ChangedMeanwhile, write_atomic
from curator.write.comments import (
    AFTER,
    END,
    HEAD,
    Misplaced,
    Note,
    comments,
    misplaced,
    notes,
    overlay,
)
from curator.write.spaces import strip_line_ends

SOURCE_KEYS = tuple(Source.model_fields)
Edit = Callable[[Any], None]


class Refused(Exception):
    """The file cannot be rewritten safely; it is left exactly as it is."""

    def __init__(self, position: Position, message: str) -> None:
        super().__init__(message)
        self.position = position
        self.message = message

    def __reduce__(self) -> tuple[type[Refused], tuple[Position, str]]:
        # How a worker process (`curator fmt` on many files) sends it back.
        return (type(self), (self.position, self.message))


class Unparsable(Refused):
    """ruamel.yaml cannot parse the text (though curator's own loader may read it)."""


class CommentInFlow(Refused):
    """A comment inside a flow collection (`[a, # b`), which ruamel.yaml's tree does not
    hold, so an edit of the tree would lose it; the layout (`render` with no edit), which
    places comments from the text, writes the collection one item a line and keeps it."""


class ItemInText(Refused):
    """A list item YAML joined to the text above (IL109), in the value that starts on line
    `joined` (0 where not known: sent back from a worker process)."""

    def __init__(self, position: Position, message: str, joined: int = 0) -> None:
        super().__init__(position, message)
        self.joined = joined


def unreadable(exc: OSError) -> Refused:
    """Why a file that cannot be opened or read is left alone (lint says it as IL107)."""
    return Refused(START, f"cannot read the file: {exc.strerror or exc}")


class Rewrite(Protocol):
    """One file's outcome in `curator fmt` or `curator fix`: its bytes before and after."""

    @property
    def path(self) -> Path: ...
    @property
    def before(self) -> bytes: ...
    @property
    def after(self) -> bytes | None: ...
    @property
    def changed(self) -> bool: ...


R = TypeVar("R", bound=Rewrite)


def rewrite(results: list[R], write: bool, refuse: Callable[[R, Refused], R]) -> list[R]:
    """`results` as a run ends: refused (`refuse` makes the outcome) where a file would
    change but is not to be replaced (`not_replaceable`); then, with `write`, each changed
    file written, or refused if it changed since it was read (an edit saved meanwhile is
    the user's, and is kept) or the system refused the write (a full disk, a read-only
    folder): the other files are still written, and the run says which were. The files
    are checked first so that `--check` and `--diff` say what a real run does."""
    checked = [_replaceable(result, refuse) for result in results]
    return [_written(result, refuse) for result in checked] if write else checked


def _replaceable(result: R, refuse: Callable[[R, Refused], R]) -> R:
    refused = not_replaceable(result.path) if result.changed else None
    return result if refused is None else refuse(result, refused)


def _written(result: R, refuse: Callable[[R, Refused], R]) -> R:
    if not result.changed:
        return result
    assert result.after is not None
    try:
        write_atomic(result.path, result.after, replacing=result.before)
    except ChangedMeanwhile as exc:
        return refuse(result, Refused(START, str(exc)))
    except OSError as exc:  # left as it was (`write_atomic` replaces it whole or not at all)
        return refuse(result, Refused(START, f"cannot write the file: {exc.strerror or exc}"))
    return result


def not_replaceable(path: Path) -> Refused | None:
    """Why a file is not rewritten, or None. A rewrite puts a new file in its place
    (`curator.write.atomic`), which neither its other names (hard links) nor its mode stop:
    the other names would keep the old bytes, two files where there was one, and a file
    made read-only would be changed all the same. Neither says anything of it."""
    try:
        status = os.lstat(path)
    except OSError:  # gone: the write finds so too, and leaves it gone
        return None
    if status.st_nlink > 1:
        return Refused(
            START,
            f"the file has {status.st_nlink} hard links, which a rewrite (a new file in its "
            "place) would leave with the old bytes; remove the other links, or change it by hand",
        )
    if _read_only(path, status.st_mode):
        return Refused(
            START,
            f"the file is read-only (mode {stat.S_IMODE(status.st_mode):04o}); make it "
            "writable to have it rewritten, or change it by hand",
        )
    return None


def _read_only(path: Path, mode: int) -> bool:
    """No one may write the file, or not the user running curator. (The first, for root,
    whom `os.access` lets write anything: a file made read-only was made so on purpose.)"""
    effective = os.access in os.supports_effective_ids
    return not mode & 0o222 or not os.access(path, os.W_OK, effective_ids=effective)


_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")  # as `curator.load` reads nulls
_NULL_ONLY = {first: [("tag:yaml.org,2002:null", _NULL)] for first in ("", "~", "n", "N")}


class _TextResolver(VersionedResolver):
    """Every plain scalar is text, as in `curator.load`; only the empty value, `~` and
    `null` are null. ruamel would otherwise read `2023-3-8` as a date and write it back
    as `2023-03-08`."""

    @property
    def versioned_resolver(self) -> Any:
        return _NULL_ONLY


class _TabKept(DoubleQuotedScalarString):
    """Double-quoted text whose author wrote a tab in it as itself (`"a<TAB>b"`), not as
    the escape `\\t`: each tab is written again as its author wrote it (`_Emitter`), those
    in `escaped` (by their order among its tabs) as `\\t`, the others as themselves. One
    ruamel.yaml makes of a value set in its place (a fix's: `"a<TAB>b "` stripped) has no
    `escaped` (`_escaped`): its tabs are all written as themselves."""

    __slots__ = ("escaped",)
    escaped: frozenset[int]


def _escaped(value: _TabKept) -> frozenset[int]:
    return getattr(value, "escaped", frozenset())


class _Constructor(RoundTripConstructor):
    def construct_scalar(self, node: Any) -> Any:
        value = super().construct_scalar(node)
        if type(value) is DoubleQuotedScalarString and "\t" in value:
            start, end = node.start_mark, node.end_mark  # (marks of a text hold the text)
            written = getattr(start, "buffer", "")[start.pointer : end.pointer]
            if "\t" in written:
                return _tab_kept(value, written)
        return value


def _tab_kept(value: str, written: str) -> str:
    """`value`, double-quoted as `written`, marked with the tabs its author wrote as escapes;
    left unmarked if they all are (a tab written as itself at a line's end is folded away).
    Where the tabs of `written` cannot be told apart, all are written as themselves."""
    forms = _tab_forms(written)
    if len(forms) != value.count("\t"):
        forms = [False] * value.count("\t")
    if all(forms):
        return value
    kept: _TabKept = _TabKept(value)
    kept.escaped = frozenset(index for index, escaped in enumerate(forms) if escaped)
    return kept


# An escape of a double-quoted scalar: a character after a backslash, or a code point.
_ESCAPE = re.compile(r"\\(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.|$)", re.DOTALL)


def _tab_forms(written: str) -> list[bool]:
    """Whether its author wrote each tab of the value of a double-quoted scalar (`written`,
    quotes and all) as an escape (`\\t`, `\\<TAB>`, `\\x09`…), in order. YAML folds the
    lines of such a scalar: a tab written as itself at the start of a line after the first,
    or at the end of one before the last (but before an escaped line break), is no part
    of the value."""
    lines = written[written.index('"') + 1 : -1].split("\n")  # (after a tag, `!!str "…"`)
    forms: list[bool] = []
    for number, line in enumerate(lines):
        tabs: list[tuple[int, bool]] = []  # (column, escaped)
        at, broken = 0, False
        for escape in _ESCAPE.finditer(line):
            tabs += [(at + i, False) for i, c in enumerate(line[at : escape.start()]) if c == "\t"]
            code = escape.group()[1:]
            if code in ("t", "\t") or (len(code) > 1 and int(code[1:], 16) == 9):
                tabs.append((escape.start(), True))
            at, broken = escape.end(), code == ""
        tabs += [(at + i, False) for i, c in enumerate(line[at:]) if c == "\t"]
        first = len(line) - len(line.lstrip(" \t")) if number > 0 else 0
        ends = number == len(lines) - 1 or broken
        last = len(line) if ends else len(line.rstrip(" \t"))
        forms += [escaped for column, escaped in tabs if escaped or first <= column < last]
    return forms


class _Representer(RoundTripRepresenter):
    pass


_Representer.add_representer(_TabKept, _Representer.represent_double_quoted_scalarstring)


class _Emitter(RoundTripEmitter):
    """ruamel.yaml's emitter, but a tab in quoted text stays as its author wrote it: ruamel
    writes any text holding a tab double-quoted, with the tab as `\\t`, which changed the
    author's `'a<TAB>b'` into `"a\\tb"` (and so took away lint's IL601) unsaid."""

    def choose_scalar_style(self) -> Any:
        if self.event.style == "'" and "\t" in self.event.value:
            # Single-quoted where the text with spaces for its tabs would be (YAML allows a
            # tab in a quoted scalar; only the plain one ruamel cannot read back).
            spaced = self.analyze_scalar(self.event.value.replace("\t", " "))
            if spaced.allow_single_quoted and not (self.simple_key_context and spaced.multiline):
                return "'"
        return super().choose_scalar_style()

    def write_double_quoted(self, text: Any, split: Any = True) -> None:
        if not isinstance(self.event.value, _TabKept):
            return super().write_double_quoted(text, split)
        # Written with a character the text does not hold in place of each tab its author
        # wrote as itself, which ruamel writes as itself, then put back; ruamel writes the
        # other tabs `\t`, as their author did.
        stand_in = next(chr(code) for code in range(0xE000, 0xF900) if chr(code) not in text)
        escaped = _escaped(self.event.value)
        *pieces, end = text.split("\t")
        marked = "".join(
            piece + ("\t" if index in escaped else stand_in) for index, piece in enumerate(pieces)
        )
        stream, self.stream = self.stream, io.StringIO()
        try:
            super().write_double_quoted(marked + end, split)
        finally:
            written, self.stream = self.stream.getvalue(), stream
        stream.write(written.replace(stand_in, "\t"))


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.Resolver = _TextResolver
    yaml.Constructor = _Constructor
    yaml.Representer = _Representer
    yaml.Emitter = _Emitter
    yaml.preserve_quotes = True
    yaml.allow_unicode = True
    yaml.width = sys.maxsize  # never fold a line: Korean text must not break mid-word
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def render(raw: bytes, edit: Edit | None = None) -> str:
    """The canonical text of an incident file, after `edit` (which changes the
    round-trip tree in place) if given. Raises Refused instead of losing anything."""
    loaded = load_bytes(raw)
    if loaded.problems or loaded.text is None:
        raise unread(loaded)
    _refuse_a_document_not_a_mapping(loaded.document)
    _refuse_a_list_item_in_text(loaded.document, loaded.text)
    _refuse_a_mark_inside(loaded.text)
    # CR and CRLF are line breaks to YAML, but ruamel keeps them inside comments.
    text = loaded.text.replace("\r\n", "\n").replace("\r", "\n")
    try:
        tree = as_loaded(text, loaded.data)
    except Refused as refused:
        raise _unicode_break_in_the_way(loaded.text, text) or refused from None
    expected = _notes(text)  # where each comment belongs
    of_input = True  # (a position of a note is one in the input)
    if edit is not None:
        edit(tree)
        if plain(tree) != loaded.data:  # (an edit that changes no value moves no comment)
            expected, of_input = _placed_by_the_edit(expected, dump(tree)), False
    intended = plain(tree)
    canonicalise(tree)
    out = directives(text) + _overlay(dump(_uncommented(tree)), expected, of_input)
    _verify(out, intended, comments(text), expected, of_input)
    return out


def unread(loaded: Loaded) -> Refused:
    """Why a file the loader cannot read is left alone: its first problem, at the place
    lint gives it (in a file of lone CR line ends, on the line its editor shows)."""
    problem = loaded.problems[0] if loaded.problems else None
    position = problem.position if problem else START
    moved = at_editor_lines(loaded.text)
    return Refused(
        moved(position) if moved is not None else position,
        f"cannot be read ({problem.message if problem else 'not text'}); fix it by hand",
    )


def as_loaded(text: str, data: Any) -> Any:
    """ruamel.yaml's round-trip tree of `text`, which must hold the loader's `data`."""
    tree = parse(text)
    if "!" in text:  # (a tag needs one)
        _untag(tree)
    if plain(tree) != data:
        raise Refused(
            START, "ruamel.yaml reads this file differently from the linter; please report"
        )
    return tree


def _unicode_break_in_the_way(original: str, text: str) -> Refused | None:
    """Why ruamel.yaml cannot read `text` (`original`, as the file holds it) as the loader
    does, if it is the NEL, U+2028 or U+2029 in it: lines to the loader (YAML 1.1), text
    to ruamel.yaml, which stops (`|` then `a<U+2028>  b`) or reads other values. Told by
    the text with line feeds for them, which ruamel.yaml reads as the loader does; said
    at the first, as lint says it (IL603), and left to the author, who alone knows
    whether a line feed or a space was meant."""
    first = _UNICODE_BREAK.search(original)
    if first is None:
        return None
    with_line_feeds = _UNICODE_BREAK.sub("\n", text)
    try:
        as_loaded(with_line_feeds, load_bytes(with_line_feeds.encode("utf-8")).data)
    except Refused:
        return None
    char = first.group()
    return Refused(
        position_at(original, first.start()),
        f"U+{ord(char):04X} {UNICODE_BREAKS[char]} ends a line for curator (YAML 1.1) but "
        "not for ruamel.yaml, which cannot read the file as curator does (IL603); replace "
        "it with a line feed or a space by hand",
    )


def _placed_by_the_edit(before: list[Note], placed: str) -> list[Note]:
    """Where the comments of the input (`before`) belong after an edit: beside a node, as
    ruamel.yaml's tree holds them (`placed`: the tree written, keys in their old order);
    at the head and the end of the file, where they were, as no node holds them. (ruamel
    keeps none written before or on a `---`, or after a `...`, and writes one on a `---`
    line indented, as if above the first key.)"""
    beside = [note for note in _notes(placed) if note.where not in (HEAD, END)]
    head = [note for note in before if note.where == HEAD]
    end = [note for note in before if note.where == END]
    after = [*head, *_set_off_as_before(beside, before), *end]
    _refuse_a_comment_ruamel_dropped(before, after)
    return after


def _set_off_as_before(placed: list[Note], before: list[Note]) -> list[Note]:
    """`placed`, each comment after a node set off as in `before` (`Note.tight`), told by
    its text: ruamel.yaml writes one space before a comment whose column the line has
    grown into, which is no sign of how its author wrote it."""
    tight: dict[str, deque[bool]] = {}
    for note in before:
        if note.where == AFTER:
            tight.setdefault(note.text, deque()).append(note.tight)
    return [
        replace(note, tight=tight[note.text].popleft())
        if note.where == AFTER and tight.get(note.text)
        else note
        for note in placed
    ]


def _refuse_a_comment_ruamel_dropped(before: list[Note], after: list[Note]) -> None:
    """After an edit, comments are placed as ruamel.yaml's tree holds them, and it holds
    none inside a flow collection (`[a, # b`): a fix would lose such a comment, anywhere in
    the file. `curator fmt` places comments from the text, not the tree, and writes every
    collection in block style, where ruamel keeps them: after it, the fix can be made
    (`curator fix` does so itself, `CommentInFlow`)."""
    dropped = Counter(note.text for note in before) - Counter(note.text for note in after)
    note = next((note for note in before if note.text and note.text in dropped), None)
    if note is not None:
        raise CommentInFlow(
            Position(note.line + 1, note.column + 1),
            "this comment would be lost by the fix (ruamel.yaml drops comments inside `[...]` "
            "and `{...}`); run `curator fmt` on the file first, which writes them one item "
            "a line, then `curator fix`",
        )


def _refuse_a_document_not_a_mapping(document: Document | None) -> None:
    """A list or a text is no incident (lint: IL201), and the layout is one of a mapping:
    rewritten, it would be made no more of one, only changed."""
    why = not_a_mapping(document.data if document is not None else None)
    if why is not None:
        where = document.position(()) if document is not None else START
        raise Refused(where, f"{why}; fix it by hand")


_DIRECTIVE_LINE = re.compile(r"^%", re.MULTILINE)


def directives(text: str) -> str:
    """The directives that open the document (`%YAML 1.2`, `%TAG !e! tag:…`), a line each,
    and the `---` they need; "" if there are none. ruamel.yaml drops them, but they are the
    author's, and tell other readers how to read the file (`%YAML 1.1`: `no` is false)."""
    if _DIRECTIVE_LINE.search(text) is None:  # (a scan costs more than a search)
        return ""
    lines = []
    for token in yaml.scan(text, Loader=SCAN_LOADER):
        if isinstance(token, yaml.DirectiveToken):
            lines.append(f"%{token.name} {_directive_value(token)}\n")
        elif not isinstance(token, yaml.StreamStartToken):
            break
    return "".join(lines) + "---\n" if lines else ""


def _directive_value(token: yaml.DirectiveToken) -> str:
    if token.name == "YAML":
        major, minor = token.value
        return f"{major}.{minor}"
    handle, prefix = token.value  # (libyaml refuses any other directive)
    return f"{handle} {prefix}"


def _refuse_a_list_item_in_text(document: Document | None, text: str) -> None:
    """A line meant as a list item that YAML joined to the text above (IL109) would be
    written on one line with it: then nothing would show what its author meant."""
    if document is None or not document.folded:
        return
    found = next(items_in_text(document, text.split("\n")), None)
    if found is not None:
        path, line, column = found
        message = f"{list_item_in_text.message(document, path)} (IL109); fix it by hand"
        raise ItemInText(Position(line, column), message, document.value_spans[path][0].line)


def _refuse_a_mark_inside(text: str) -> None:
    """A byte-order mark past the file's start is text that ruamel writes only as the
    escape `\\uFEFF` (lint reports it in a value, IL201): written YAML holds no escape that
    its author did not write, so the author removes the mark."""
    mark = text.find("\ufeff")  # (`text` follows the file's byte-order mark)
    if mark >= 0:
        raise Refused(position_at(text, mark), MARK_INSIDE)


MARK_INSIDE = "holds U+FEFF, a byte-order mark; remove it by hand"


def parse(text: str) -> Any:
    try:
        return _yaml().load(text)  # (no anchor or alias reaches here: the loader refuses them)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = Position(mark.line + 1, mark.column + 1) if mark is not None else START
        message = f"ruamel.yaml cannot read it: {exc.problem or exc}; fix it by hand"
        raise Unparsable(where, message) from exc
    except (YAMLError, ValueError, TypeError) as exc:
        raise Unparsable(START, f"ruamel.yaml cannot read it: {exc}; fix it by hand") from exc
    except NotImplementedError as exc:
        raise _comment_overlap(exc) from exc


def _comment_overlap(exc: NotImplementedError) -> Unparsable:
    """ruamel.yaml's one refusal that is no YAMLError: a comment it has nowhere to keep,
    as after a key whose value starts on the next line, with a blank line after that value
    (`title: # 제목`, then `  text`, then a blank line). It names the comment only in its
    message (`overlap in comment [CommentToken('# 제목\\n', line: 0, col: 7), …]`,
    0-based), which is where the author can move it from."""
    found = _COMMENT_TOKEN.search(str(exc))
    where = Position(int(found[2]) + 1, int(found[3]) + 1) if found else START
    return Unparsable(
        where,
        "ruamel.yaml cannot keep this comment where it is (as after a key whose value "
        "starts on the next line); move it to a line of its own",
    )


_COMMENT_TOKEN = re.compile(r"""CommentToken\((['"])#.*?\1, line: (\d+), col: (\d+)\)""")


def dump(tree: Any) -> str:
    stream = io.StringIO()
    _yaml().dump(tree, stream)
    # Blank lines and comments at the very end are kept by ruamel; the layout wants one
    # newline. (A keep-chomped `|+` text at the end is closed by `...`, so this is safe.)
    # Blank lines at the very start it keeps but one, so each pass would drop one more:
    # the layout starts at the first line that holds something.
    text = stream.getvalue().strip("\n") + "\n"  # (not strip(): U+00A0 may be a value)
    # It writes a null item as `- ` and keeps the spaces after a comment: white space the
    # linter flags (IL602) and no reader keeps. `render` checks the values still hold.
    return strip_line_ends(text)


def plain(node: Any) -> Any:
    """The round-trip tree as the loader's plain values (dicts, lists, text, None)."""
    if isinstance(node, dict):
        return {plain(key): plain(value) for key, value in node.items()}
    if isinstance(node, list):
        return [plain(item) for item in node]
    if node is None or isinstance(node, str):
        return None if node is None else str(node)
    if isinstance(node, TaggedScalar):  # `!!str 7`: the loader reads the text, so do we
        return str(node.value)
    # ruamel builds numbers, booleans and dates only for the explicit tags that the loader
    # refuses (`!!int 5`); should one come through, it is a value the loader does not hold.
    return node


def _notes(text: str) -> list[Note]:
    try:
        return notes(text)
    except yaml.YAMLError as exc:  # (only a text ruamel wrote can get here unread)
        raise Refused(
            START, f"cannot tell where its comments belong: {exc}; please report"
        ) from exc


def _uncommented(tree: Any) -> Any:
    """`tree` without the comments (and blank lines) ruamel keeps in it, in place.

    ruamel keeps a comment line in the slot of the node before it, so moving a key would
    take along the comments above the next one: `overlay` puts them back by their notes.
    """
    if isinstance(tree, CommentedMap | CommentedSeq):
        setattr(tree, Comment.attrib, Comment())
        for child in tree.values() if isinstance(tree, CommentedMap) else tree:
            _uncommented(child)
    elif isinstance(tree, LiteralScalarString | FoldedScalarString):
        tree.comment = None  # type: ignore[union-attr]  # (ruamel's __slots__)
    return tree


def _overlay(bare: str, expected: list[Note], of_input: bool) -> str:
    try:
        return overlay(bare, expected)
    except Misplaced as exc:
        if exc.shared:
            message = "this comment would end the same line as another one; move it by hand"
            raise Refused(_position(exc.note, of_input), message) from exc
        message = f"found no place for the comment {exc.note.text!r}; please report"
        raise Refused(START, message) from exc


def _position(note: Note, of_input: bool) -> Position:
    return Position(note.line + 1, note.column + 1) if of_input else START


def _verify(
    out: str, intended: Any, expected_comments: list[str], expected: list[Note], of_input: bool
) -> None:
    """`out` holds the intended values and every comment, each beside the same node as in
    the text of `expected` (the input, if `of_input`)."""
    raw = out.encode("utf-8")
    if len(raw) > MAX_BYTES:  # (the layout indents comments and lists: a file can grow past it)
        raise Refused(
            START,
            f"in the canonical layout the file would be {len(raw):,} bytes, over the "
            f"{MAX_BYTES:,} curator reads; make it shorter by hand",
        )
    reloaded = load_bytes(raw)
    if reloaded.problems or reloaded.data != intended:
        raise Refused(START, "the rewritten file would not hold the same values; please report")
    if sorted(comments(out)) != sorted(expected_comments):
        raise Refused(START, "the rewritten file would lose a comment; please report")
    moved = misplaced(expected, notes(out))
    if moved is not None:
        raise Refused(
            _position(moved, of_input),
            "cannot put the keys in order without moving this comment away from the key or "
            "item it is written beside; move it by hand",
        )


def canonicalise(tree: Any) -> None:
    """Key order, collection styles and text styles of the layout, in place."""
    if isinstance(tree, CommentedMap):
        _order(tree, INCIDENT_KEYS)
        if isinstance(tree.get("facets"), CommentedMap):
            _order(tree["facets"], DIMENSIONS)
        sources = tree.get("sources")
        for source in sources if isinstance(sources, CommentedSeq) else ():
            if isinstance(source, CommentedMap):
                _order(source, SOURCE_KEYS)
    _restyle(tree)


def _order(mapping: CommentedMap, keys: tuple[str, ...]) -> None:
    """Known keys first, in `keys` order; unknown keys after them in their own order.
    (The comments ruamel attached to a key are not all its own: `render` drops them and
    writes each comment back beside its node.)"""
    rank = {key: index for index, key in enumerate(keys)}
    wanted = sorted(mapping, key=lambda key: rank.get(key, len(rank)))
    if list(mapping) != wanted:
        for key in wanted:
            mapping.move_to_end(key)


def _untag(node: Any) -> None:
    """`!!str facets:` is the key `facets` to the loader, and `!!str x` the text `x`;
    ruamel.yaml keeps each a tagged scalar, which no edit of `curator fix` and no key order
    found as text (the U+00A0 padding a tagged value began with was stripped by a second
    fix, once the layout had dropped the tag): they are made text before they run, as the
    layout writes them."""
    if isinstance(node, CommentedMap):
        if any(isinstance(key, TaggedScalar) for key in node):
            _plain_keys(node)
        places: list[Any] = list(node)
    elif isinstance(node, CommentedSeq):
        places = list(range(len(node)))
    else:
        return
    for place in places:
        if isinstance(node[place], TaggedScalar):
            node[place] = _untagged(node[place])
        else:
            _untag(node[place])


def _untagged(value: TaggedScalar) -> str:
    """The text of a tagged scalar without its tag, quoted as it was."""
    if isinstance(value.value, _TabKept):  # (a new string would lose its mark)
        return value.value
    quoted = _QUOTED.get(value.style)
    return quoted(value.value) if quoted else _unquoted(value.value)


def _plain_keys(mapping: CommentedMap) -> None:
    """Quoted keys are written plain (the emitter quotes one that needs it, and `_unquoted`
    one that other readers would not read as text), in the same order and with the same
    comments, and without a tag (`!!str`). A plain key stays as it is, whatever the other
    keys: `0:` is a number to other readers, and quoted only beside a quoted key, it was
    written anew by a second run (fmt was not idempotent)."""
    if not any(isinstance(key, ScalarString | TaggedScalar) for key in mapping):
        return
    for key in list(mapping):
        comment = mapping.ca.items.pop(key, None)
        value = mapping[key]
        del mapping[key]
        written = _key_written(key) if isinstance(key, ScalarString | TaggedScalar) else key
        mapping[written] = value
        if comment is not None:
            mapping.ca.items[written] = comment


def _key_written(key: ScalarString | TaggedScalar) -> str:
    """A quoted or tagged key as the layout writes it: plain, but with a tab its author
    wrote as itself in quotes kept so (ruamel writes a tab in a plain key as `\\t`)."""
    text = key.value if isinstance(key, TaggedScalar) else key
    if isinstance(text, _TabKept):
        return text
    single = isinstance(key, SingleQuotedScalarString) or getattr(key, "style", None) == "'"
    return _unquoted(str(text), tab_written=single)


def _restyle(node: Any) -> None:
    if not isinstance(node, CommentedMap | CommentedSeq):
        return
    if len(node):
        node.fa.set_block_style()
    if isinstance(node, CommentedMap):
        _plain_keys(node)
    for key in list(node) if isinstance(node, CommentedMap) else range(len(node)):
        value = node[key]
        if not isinstance(value, str):
            _restyle(value)
            continue
        styled = _text_style(value)
        # A comment on a block header (`key: >  # ...`) stays on a block header: after
        # plain text it would read as more of the text (the linter flags it there).
        # (The comment itself is written back by `render`, from its note.)
        if styled is value or (
            _header_comment(value) and not isinstance(styled, LiteralScalarString)
        ):
            continue
        node[key] = styled


def _header_comment(value: str) -> bool:
    """Whether a block scalar has a comment on its header line (`key: |-  # why`), which
    ruamel.yaml keeps as the text of the comment. What it keeps there as a CommentToken is
    a line before the header: a blank line (`key:`, a blank line, then `|+`), or a comment
    on a line of its own (`key:`, `# 메모`, then `|-`), which is written above the key.
    Taken for a header comment, either kept the block: a `|+` with the file's blank lines
    after it, which it then held as text; a `|-` one-liner that the next `fmt` wrote plain."""
    header = getattr(value, "comment", None)
    return isinstance(header, str) and "#" in header


_QUOTED: dict[str | None, type[ScalarString]] = {
    '"': DoubleQuotedScalarString,
    "'": SingleQuotedScalarString,
    "|": LiteralScalarString,
    ">": FoldedScalarString,
}

# Characters a literal block cannot hold as themselves (YAML 1.1 line breaks, a BOM) or at
# all (C0/C1 controls other than tab and newline); such text stays double-quoted.
_NOT_LITERAL = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff]"
)
# Line breaks to YAML 1.1 (libyaml, the loader) and none to YAML 1.2.
_UNICODE_BREAK = re.compile("[\x85\u2028\u2029]")
_TRAILING_SPACE = re.compile(r"[ \t]+$", re.MULTILINE)
_LEADING_TAB = re.compile(r"^\t", re.MULTILINE)  # libyaml takes it for bad indentation


def _text_style(value: str) -> str:
    """Multi-line text as a literal block when one can hold it exactly, else double-quoted;
    one-line text leaves block style (a `|-` one-liner becomes a plain scalar); any other
    quoting is the author's and stays. But one-line text holding U+2028, U+2029 or NEL is
    double-quoted, as multi-line text that holds one is: plain or single-quoted, the break
    is written as itself, and a YAML 1.2 reader takes it and the indentation after it for
    text (IL603); as YAML's escape (`\\L`), every reader reads the same value."""
    if "\n" in value or _UNICODE_BREAK.search(value):
        block = not _tab_escaped(value) and (
            literal_ok(value) or (_was_block(value) and literal_ok(_spaces_cut(value)))
        )
        wanted = LiteralScalarString if block else DoubleQuotedScalarString
        return value if isinstance(value, wanted) else wanted(value)
    if isinstance(value, LiteralScalarString | FoldedScalarString):
        return _unquoted(value, tab_written=True)
    return value


def _tab_escaped(value: str) -> bool:
    """Whether its author wrote a tab of `value` as an escape (`"a\\tb\\nc"`): its text
    stays double-quoted, where the escape stays one. A block has no escapes: it would hold
    the tab as itself, which lint reports (IL601) and fix leaves, as a value's."""
    if "\t" not in value or not isinstance(value, DoubleQuotedScalarString):
        return False
    return bool(_escaped(value)) if isinstance(value, _TabKept) else True


# Implicit types of other YAML readers: YAML 1.1 (PyYAML, yamllint) and 1.2 (most others).
_OTHER_READERS = (VersionedResolver(version=(1, 1)), VersionedResolver(version=(1, 2)))
_TEXT_TAG = "tag:yaml.org,2002:str"


def _unquoted(text: str, tab_written: bool = False) -> str:
    """`text` to be written without quotes, where every YAML reader reads it as text; else
    single-quoted. curator reads `2024`, `no` or `<<` as text whatever the quoting, but
    other tools read them plain as a number, a boolean or a merge key: a value written as
    a block (`|-`), with `!!str`, or a quoted key is text to them, and must stay so.
    (A bare `str` would not do: ruamel gives a new value the style of the one it
    replaces.) Single-quoted too where its author wrote a tab in it as itself
    (`tab_written`), which stays so (`_Emitter`); plain, ruamel writes it `"…\\t…"`."""
    text_to_all = not (tab_written and "\t" in text) and all(
        reader.resolve(ScalarNode, text, (True, False)) == _TEXT_TAG for reader in _OTHER_READERS
    )
    written: str = (PlainScalarString if text_to_all else SingleQuotedScalarString)(text)
    return written


def _was_block(value: str) -> bool:
    """Written by its author as a `|` or `>` block: white space at the end of a line of it
    does not make it quoted. That white space is the author's text (lint says it, IL602,
    not fixable), and the author's block, written as `"…  \n…"` on one line by fmt or by
    any fix of the file, was gone."""
    return isinstance(value, LiteralScalarString | FoldedScalarString)


def _spaces_cut(value: str) -> str:
    return _TRAILING_SPACE.sub("", value)


def literal_ok(value: str) -> bool:
    """A literal block shows this text exactly and plainly. Not so for trailing spaces
    (invisible), a tab starting a line, a leading or only blank line, or blank lines at the
    end (they need `|+` and a `...` after the document): such text stays double-quoted."""
    return (
        not _NOT_LITERAL.search(value)
        and not _TRAILING_SPACE.search(value)
        and not _LEADING_TAB.search(value)
        and not value.startswith("\n")
        and not value.endswith("\n\n")
        and bool(value.strip())
    )
