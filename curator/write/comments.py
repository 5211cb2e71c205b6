"""The comments of a YAML text, found by the libyaml scanner rather than by guessing, and
where each one belongs.

A comment is whatever is not white space in the gaps between tokens, plus the comment a
block scalar's header line may carry (`symptom: |  # ...`), which the scanner folds into
the scalar's token. `comments` lists them, to prove that a rewrite kept every comment.

A rewrite that puts keys in another order must also keep each comment beside the node it
was written beside, which its line number cannot say. `notes` says it by the node's path
(`facets.causes`, `sources[0].url`), for each comment and each blank line:
- on a line of its own, it goes *above* the node that starts the next line holding
  anything: a key, a list item, or a value written below its key;
- after something on its line, it goes *after* the last scalar before it (a key, a value
  or an item), on that node's line; but after nothing more than a `-` or a `?`, above the
  node that follows;
- before the first key, item or value, it is the *head* of the file, which stays at the top
  whichever key comes first; after the last, the *end*.
`overlay` writes notes into a text without comments, and `misplaced` proves that a text
has each comment where the notes of another say it belongs.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import yaml

from curator.load import SCAN_LOADER

# A comment ends at a line break, and libyaml (YAML 1.1) also breaks lines at NEL, LS and PS.
_COMMENT = re.compile("#[^\n\r\x85\u2028\u2029]*")
_BLANK = re.compile(r"^[ \t]*\n", re.MULTILINE)  # (`^`: only at the start of a line)


def comments(text: str) -> list[str]:
    """Every comment in `text`, in order, without trailing white space.

    `text` must be scannable YAML (the caller has loaded it); a scanner error propagates.
    """
    found: list[str] = []
    end = 0
    for token in yaml.scan(text, Loader=SCAN_LOADER):
        start = token.start_mark.index
        found += _COMMENT.findall(text, end, start) if start > end else []
        if isinstance(token, yaml.ScalarToken) and token.style in ("|", ">"):
            header_end = text.find("\n", start, token.end_mark.index)
            header = text[start : header_end if header_end >= 0 else token.end_mark.index]
            found += _COMMENT.findall(header)
        end = max(end, token.end_mark.index)
    found += _COMMENT.findall(text, end)
    return [comment.rstrip() for comment in found]


# Where comments belong ------------------------------------------------------------------

Path = tuple[str | int, ...]
# A node: its path from the root and its role, "root", "key", "value" or "item" (a key and
# its value share a path).
Place = tuple[Path, str]

HEAD, ABOVE, AFTER, END = "head", "above", "after", "end"


@dataclass(frozen=True)
class Note:
    """A comment, or a blank line (`text` empty), and where it belongs."""

    text: str  # the comment, without the spaces and tabs after it
    # What is before it on its line if nothing else is (its indentation), kept at the head
    # and the end of the file; None if it follows something. (Above a node, a comment is
    # written indented like the node's line, whatever its lead.)
    lead: str | None
    line: int  # where it is (0-based), for messages
    column: int  # (written after a node, it keeps its column where the line leaves room)
    where: str  # HEAD, ABOVE, AFTER or END
    place: Place | None = None  # above: the node it precedes; after: the one it follows
    # Above and at the head: the nodes that start on the line below it, from the first. A
    # comment above `- url: x` is above the item and above its key `url` alike.
    line_nodes: frozenset[Place] = frozenset()
    # After: written a single space after the text of its node (`title: t # c`), which it
    # keeps when moved. Any other comment is set off by two where its column leaves less
    # room: one space after text is a comment that lint takes for part of the text (IL108).
    tight: bool = False
    # After an item of a flow collection (`[nccl, gpu,  # 메모`, `[a, b]  # 끝`), which the
    # layout writes one item a line: its old column, of another line, is not kept.
    in_flow: bool = False


def notes(text: str) -> list[Note]:
    """Every comment and blank line of `text` and where it belongs, in order.

    `text` must hold one YAML document (the caller has loaded it); a YAML error propagates.
    """
    if "#" not in text and not _BLANK.search(text):  # the usual case: nothing to place
        return []
    return list(_Text(text).notes())


def overlay(bare: str, notes: list[Note]) -> str:
    """`bare`, a text without comments or blank lines, with `notes` (of another text)
    written into it: each at the head, above or after the node it names, or at the end.
    Raises Misplaced for a note whose node is not in `bare`."""
    if not notes:
        return bare
    rows = bare.split("\n")[:-1] if bare.endswith("\n") else bare.split("\n")
    rows_of = _Rows(bare)
    # A comment ending the file keeps its indentation, unless a block ends `bare` that
    # would read it as more of its text (a key holding a block moved to the end).
    block = _end_block_indent(bare) if any(n.where == END and n.lead for n in notes) else None
    head: list[str] = []
    above: dict[int, list[str]] = {}
    after: dict[int, list[Note]] = {}  # (one each)
    end: list[str] = []
    for note in notes:
        if note.where == AFTER:
            row = rows_of.after(note)
            if row in after:  # (`key: # a` with its value below, `value # b`: one line now)
                raise Misplaced(note, shared=True)
            after[row] = [note]
        elif note.where == ABOVE:
            row = rows_of.above(note)
            line = rows[row] if row < len(rows) else ""
            # Indented like the line it stands above, whatever its old column: the key it
            # was above may now follow a deeper block, which an old column would seem to
            # continue (as yamllint's comments-indentation rule also asks).
            lead = line[: len(line) - len(line.lstrip())] if note.text else ""
            above.setdefault(row, []).append(lead + note.text)
        elif note.where == END and block is not None and len(note.lead or "") >= block:
            end.append(note.text)
        else:
            (head if note.where == HEAD else end).append((note.lead or "") + note.text)
    out = head
    for row, line in enumerate(rows):
        out += above.get(row, [])
        for note in after.get(row, []):
            # At its old column if the line leaves room, else set off as it was; below a
            # key, set off only (its column was one on the key's line).
            column = 0 if row in rows_of.below_key or note.in_flow else note.column
            line += " " * max(1 if note.tight else 2, column - len(line)) + note.text
        out.append(line)
    out += above.get(len(rows), []) + end
    # Like the bare text, the file starts at the first line that holds something and ends
    # with one line break.
    return "\n".join(out).strip("\n") + "\n"


class _Rows:
    """The (0-based) lines of a text's nodes."""

    def __init__(self, text: str) -> None:
        self.of_place: dict[Place, int] = {}
        # The lines of a value written below its key: ruamel.yaml writes a key of more
        # than 128 characters as `? key`, and its value on the `: ` line below.
        self.below_key: set[int] = set()
        key_rows: dict[Path, int] = {}
        breaks = _breaks(text)
        for node in _nodes(text)[0]:
            row = bisect_left(breaks, node.start)
            self.of_place.setdefault(node.place, row)
            path, role = node.place
            if role == "key":
                key_rows[path] = row
            elif role == "value" and node.scalar and key_rows.get(path, row) != row:
                self.below_key.add(row)

    def above(self, note: Note) -> int:
        row = self.of_place.get(note.place) if note.place else None
        if row is None:
            raise Misplaced(note)
        return row

    def after(self, note: Note) -> int:
        """The line of the node a comment follows. After a value, the value's line, not its
        key's where they differ (`? key`, then `: |`): there a comment on a block's header
        went to the key, and the next run, finding the block without it, wrote it plain."""
        row = self.of_place.get(note.place) if note.place else None
        if row is None:
            raise Misplaced(note)
        return row


def misplaced(expected: list[Note], actual: list[Note]) -> Note | None:
    """The first comment of `expected` that `actual` (the notes of a rewrite) does not
    have where `expected` says it belongs; None if each is in its place. Blank lines are
    not compared."""
    # Each comment of `actual` filed under every place it may stand for one of `expected`
    # (`_places`); a comment of `expected` takes the first one left under its own place
    # (`_place`), the one a scan of `actual` in order would take. (That scan, for each
    # comment, made a file of 100,000 comments "# c" in two keys put in order take minutes.)
    filed: dict[tuple[str, str, Any], deque[int]] = {}
    for number, note in enumerate(actual):
        if note.text:
            for kind, place in _places(note):
                filed.setdefault((note.text, kind, place), deque()).append(number)
    taken: set[int] = set()
    for note in expected:
        if not note.text:
            continue
        left = filed.get((note.text, *_place(note)), deque())
        while left and left[0] in taken:
            left.popleft()
        if not left:
            return note
        taken.add(left.popleft())
    return None


def _place(expected: Note) -> tuple[str, Any]:
    """Where a comment of `actual` must be to be `expected` (with its text): above (or,
    the node it was above now starting the file, at the head) a line that starts with the
    same node; after the same key or item (a key's line is its value's); else at the head
    or at the end."""
    if expected.where == ABOVE:
        return ABOVE, expected.place
    if expected.where == AFTER:
        return AFTER, expected.place[0] if expected.place is not None else None
    return "at", expected.where


def _places(actual: Note) -> list[tuple[str, Any]]:
    """Every `_place` that `actual` satisfies."""
    places: list[tuple[str, Any]] = [("at", actual.where)]
    if actual.where in (ABOVE, HEAD):
        places += [(ABOVE, place) for place in actual.line_nodes]
    if actual.where == AFTER and actual.place is not None:
        places.append((AFTER, actual.place[0]))
    return places


class Misplaced(Exception):
    """`overlay` cannot write a note where it belongs: `shared` if another comment already
    ends that line, else because the text has no such node."""

    def __init__(self, note: Note, shared: bool = False) -> None:
        super().__init__(note.text)
        self.note = note
        self.shared = shared


@dataclass(frozen=True)
class _Node:
    start: int
    place: Place
    scalar: bool
    # Where it ends: a scalar's token ends there too, but starts after its anchor or tag.
    end: int


@dataclass
class _Frame:
    """A collection being read: a mapping's last key (None before a key) or a sequence's
    next index."""

    path: Path
    mapping: bool
    key: str | None = None
    index: int = 0

    def next_place(self, event: Any) -> Place:
        if not self.mapping:
            self.index += 1
            return (*self.path, self.index - 1), "item"
        if self.key is None:  # (a key that is a collection has no name: "?")
            self.key = str(event.value) if isinstance(event, yaml.ScalarEvent) else "?"
            return (*self.path, self.key), "key"
        key, self.key = self.key, None
        return (*self.path, key), "value"


def _nodes(text: str) -> tuple[list[_Node], int]:
    """The nodes of the one document in `text`, in order, and where the root node ends."""
    nodes: list[_Node] = []
    stack: list[_Frame] = []
    root_end = len(text)
    for event in yaml.parse(text, Loader=SCAN_LOADER):
        if isinstance(event, yaml.NodeEvent):
            place: Place = stack[-1].next_place(event) if stack else ((), "root")
            nodes.append(
                _Node(
                    _index(event.start_mark),
                    place,
                    isinstance(event, yaml.ScalarEvent),
                    _index(event.end_mark),
                )
            )
            if isinstance(event, yaml.CollectionStartEvent):
                stack.append(_Frame(place[0], isinstance(event, yaml.MappingStartEvent)))
            elif not stack:
                root_end = _index(event.end_mark)
        elif isinstance(event, yaml.CollectionEndEvent):
            stack.pop()
            if not stack:
                root_end = _index(event.end_mark)
    return nodes, root_end


def _text_end(body: str, value: str) -> int:
    """How much of `body`, the lines of a block scalar after its header, its text takes: up
    to the end of its last line holding text. A line of white space is blank, unless it is
    indented past the block: its spaces past the block's indentation are text (`x\\n \\n`)."""
    end = len(body.rstrip(" \t\n"))
    indent = _block_indent(body, value)
    if indent is None:  # (no line holds more than white space: none is text)
        return end
    lines = body[end:].split("\n")  # the rest of the line at `end`, then whole lines
    for number in range(len(lines) - 2, 0, -1):  # (the last one is not a whole line)
        if len(lines[number]) > indent:
            return end + sum(len(line) + 1 for line in lines[:number]) + len(lines[number])
    return end


def _end_block_indent(text: str) -> int | None:
    """The indentation of the block (`|`, `>`) that ends `text`, if one does: a line after
    it indented as far is more of its text."""
    last = None
    for token in yaml.scan(text, Loader=SCAN_LOADER):
        if isinstance(token, yaml.ScalarToken):
            last = token
    if last is None or last.style not in ("|", ">"):
        return None
    start, end = last.start_mark.index, last.end_mark.index
    header_end = text.find("\n", start, end)
    indent = _block_indent(text[header_end:end], last.value) if header_end >= 0 else None
    return 1 if indent is None else indent  # (a block of no text takes any indented line)


def _block_indent(body: str, value: str) -> int | None:
    """The indentation of a block scalar: where its first line holding more than white
    space starts, less where that line's text starts in the value."""
    first = next((line for line in body.split("\n") if line.strip(" \t")), None)
    shown = next((line for line in value.split("\n") if line.strip(" \t")), None)
    if first is None or shown is None:
        return None
    return (len(first) - len(first.lstrip(" "))) - (len(shown) - len(shown.lstrip(" ")))


def _breaks(text: str) -> list[int]:
    """Where the line breaks of `text` are: a line's number is the count of those before."""
    return [found.start() for found in re.finditer("\n", text)]


def _index(mark: Any) -> int:
    """Where a mark is (a parser's events always have marks; the stubs allow None)."""
    return int(mark.index)


class _Text:
    """A text with its tokens and nodes, to tell where a comment at an index belongs."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.breaks = _breaks(text)
        # Zero-width tokens (a block's start or end, a simple key) hold no text.
        self.tokens = [
            t for t in yaml.scan(text, Loader=SCAN_LOADER) if t.end_mark.index > t.start_mark.index
        ]
        self.token_ends = [token.end_mark.index for token in self.tokens]
        scalars = [t for t in self.tokens if isinstance(t, yaml.ScalarToken)]
        self.scalar_ends = [token.end_mark.index for token in scalars]
        nodes, self.root_end = _nodes(text)
        self.root_start = nodes[0].start if nodes else len(text)
        self.nodes = nodes
        self.node_lines = [self.line(node.start) for node in nodes]
        # By where they end: a scalar's token and its event end at the same place.
        self.scalar_at = {node.end: node.place for node in nodes if node.scalar}
        # A comment on a line of its own goes with the node starting the next line: not a
        # collection under a key (the key starts the line), not the root.
        self.heads = [
            i for i, node in enumerate(nodes) if node.place[1] in ("key", "item") or node.scalar
        ]
        self.head_starts = [nodes[i].start for i in self.heads]
        self._line_places: dict[int, frozenset[Place]] = {}
        self._depths: list[int] | None = None

    def line(self, index: int) -> int:
        return bisect_left(self.breaks, index)

    def line_start(self, index: int) -> int:
        line = self.line(index)
        return self.breaks[line - 1] + 1 if line else 0

    def notes(self) -> Iterator[Note]:
        end = 0
        for token in [*self.tokens, None]:
            start = token.start_mark.index if token is not None else len(self.text)
            if start > end:
                yield from self.gap(end, start)
            if token is None:
                return
            if isinstance(token, yaml.ScalarToken) and token.style in ("|", ">"):
                yield from self.block(token)
            end = max(end, token.end_mark.index)

    def gap(self, start: int, end: int) -> Iterator[Note]:
        """The comments and blank lines between two tokens, in order."""
        found = [*_COMMENT.finditer(self.text, start, end), *_BLANK.finditer(self.text, start, end)]
        for match in sorted(found, key=lambda match: match.start()):
            index = match.start()
            line_start = self.line_start(index)
            if line_start < start:  # something is before it on its line
                yield self.after(match.group(), index)
            else:
                lead = self.text[line_start:index] if match.re is _COMMENT else ""
                yield self.own_line(match.group().strip("\n"), index, lead)

    def block(self, token: Any) -> Iterator[Note]:
        """The comment on the header line of a block scalar (after the scalar), and the
        blank lines the scanner takes in after its text: those of a `|+` are text, the
        others are not."""
        start, end = token.start_mark.index, token.end_mark.index
        header_end = self.text.find("\n", start, end)
        header_end = header_end if header_end >= 0 else end
        for found in _COMMENT.finditer(self.text, start, header_end):
            header = self.text[start : found.start()]
            tight = len(header) - len(header.rstrip(" \t")) == 1
            place = self.scalar_at[end]
            yield self.note(found.group(), found.start(), None, AFTER, place, tight=tight)
        if "+" not in self.text[start:header_end]:
            last = _text_end(self.text[header_end:end], token.value) + header_end
            after_text = self.text.find("\n", last, end) + 1
            for blank in _BLANK.finditer(self.text, after_text, end) if after_text else ():
                yield self.own_line("", blank.start(), "")

    def own_line(self, text: str, index: int, lead: str | None) -> Note:
        if index >= self.root_end:
            return self.note(text, index, lead, END)
        where, place, line_nodes = self.above(index)
        return self.note(text, index, lead, where, place, line_nodes)

    def after(self, text: str, index: int) -> Note:
        """A comment after something on its line: after the last scalar before it, unless
        nothing but a `-` or a `?` is before it (`- # note`): that one is about the node
        that follows, like a comment on the line above it."""
        scalar = bisect_right(self.scalar_ends, index) - 1
        if not self.root_start <= index < self.root_end or scalar < 0:
            return self.own_line(text, index, None)
        last = self.tokens[bisect_right(self.token_ends, index) - 1]  # (the scalar at least)
        if isinstance(last, yaml.BlockEntryToken | yaml.KeyToken):
            return self.own_line(text, index, None)
        scalar_end = self.scalar_ends[scalar]
        tight = index - scalar_end == 1
        note = self.note(text, index, None, AFTER, self.scalar_at[scalar_end], tight=tight)
        return replace(note, in_flow=True) if self.in_flow(scalar_end) else note

    def in_flow(self, index: int) -> bool:
        """Whether `index` is inside a flow collection (`[...]`, `{...}`)."""
        if self._depths is None:  # the flow depth after each token, worked out once
            depth, self._depths = 0, []
            for token in self.tokens:
                if isinstance(token, yaml.FlowSequenceStartToken | yaml.FlowMappingStartToken):
                    depth += 1
                elif isinstance(token, yaml.FlowSequenceEndToken | yaml.FlowMappingEndToken):
                    depth -= 1
                self._depths.append(depth)
        before = bisect_right(self.token_ends, index)
        return before > 0 and self._depths[before - 1] > 0

    def above(self, index: int) -> tuple[str, Place | None, frozenset[Place]]:
        """Where a comment on a line of its own at `index` goes: above the node that starts
        the next line holding anything, or at the head or the end of the file."""
        at = bisect_left(self.head_starts, index)
        if at == len(self.heads):
            return END, None, frozenset()
        first = self.heads[at]
        places = self.line_places(first)
        if at == 0:  # (also after a tag of the root, `--- !!map`, which ruamel drops)
            return HEAD, None, places
        return ABOVE, self.nodes[first].place, places

    def line_places(self, first: int) -> frozenset[Place]:
        """The places of the nodes on the line of node `first`, from it on: worked out once
        a line, by index, as a file may hold a hundred thousand comments above one line, or
        one above each of a hundred thousand lines (each cost a copy of the nodes after it)."""
        if first not in self._line_places:
            line, places = self.node_lines[first], set()
            for node in range(first, len(self.nodes)):
                if self.node_lines[node] != line:
                    break
                places.add(self.nodes[node].place)
            self._line_places[first] = frozenset(places)
        return self._line_places[first]

    def note(
        self,
        text: str,
        index: int,
        lead: str | None,
        where: str,
        place: Place | None = None,
        line_nodes: frozenset[Place] = frozenset(),
        tight: bool = False,
    ) -> Note:
        column = index - self.line_start(index)
        line = self.line(index)
        return Note(text.rstrip(" \t"), lead, line, column, where, place, line_nodes, tight)
