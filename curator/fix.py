"""`curator fix`: make the changes that fixable rules ask for, and say what was changed.

Two kinds of fix. Text fixes work on the characters, so that they also repair a file the
YAML parser refuses (a tab in the indentation): byte-order mark (IL604), CR line ends
(IL603), letters not in Unicode NFC (IL605), zero-width characters (IL606), tabs (IL601),
trailing white space (IL602). Value fixes then work on the round-trip tree: a facet
written as its term's label or alias (IL201, IL301), deprecated terms (IL302), facet
lists (IL304), source URLs and repeated sources (IL505), white space around a one-line
value (IL606).
A file that changes is written whole through the canonical writer, so it also comes out
in the canonical layout; a file that cannot be fixed safely is reported and left as it is.

A tab or a trailing space may be part of the text (`"a<TAB>b"`, a line of a `|` block,
a comment): replacing it would change a value, so each such change is tried against
what the loader reads and kept only if the values and comments stay the same. The ones
left are reported (`Fixed.left`) for people to fix by hand.

A file is read for a fix only if lint's single-file rules find something in it: every fix
answers a finding of one of them, and each of those rules reports wherever its fix would
change something (or leave something for people), so a file without findings has nothing
to fix. A round trip through ruamel.yaml costs ~10 ms a file, a quarter of an hour for
100,000 files; lint's check ~0.3 ms, and with lint's cache an unchanged file costs a stat.
"""

from __future__ import annotations

import bisect
import copy
import datetime as dt
import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import LiteralScalarString
from ruamel.yaml.tokens import CommentToken

from curator.library import Library
from curator.lint import Progress, check_files, display_path, display_paths
from curator.lint_cache import ResultCache
from curator.load import MAX_BYTES, Position, load_bytes, position_at
from curator.model import DIMENSIONS, TERM_ID_PATTERN
from curator.regular import read_regular
from curator.rules import (
    bom,
    crlf,
    deprecated_term,
    facet_order,
    invisible_characters,
    no_tabs,
    schema,
    source_url_form,
    unicode_nfc,
    unknown_term,
)
from curator.rules import trailing_whitespace as trailing
from curator.rules._spaces import scalars
from curator.schema_errors import dotted
from curator.taxonomy import Taxonomy
from curator.textnorm import STREAM_SAFE_RUN, composed, long_run, maybe_non_starter
from curator.unseen import WHITE_SPACE, zero_width
from curator.write.canonical import (
    MARK_INSIDE,
    CommentInFlow,
    ItemInText,
    Refused,
    Unparsable,
    plain,
    render,
    rewrite,
    unread,
    unreadable,
)
from curator.write.comments import comments
from curator.write.diff import unified_diff
from curator.write.edits import Edit, apply, repairs, tab_edits, tries
from curator.write.places import Move, Trail


@dataclass(frozen=True, order=True)
class Change:
    line: int
    column: int
    code: str
    description: str


@dataclass
class Fixed:
    path: Path
    display: str
    before: bytes
    after: bytes | None = None
    changes: list[Change] = field(default_factory=list)
    refused: Refused | None = None
    # Findings of fixable rules still in the file (as written; with a dry run, as it is)
    # because fixing them would change a value or a comment: for people, not changes.
    left: list[Change] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.after is not None and self.after != self.before

    def diff(self) -> str:
        return unified_diff(self.display, self.before, self.after)


# Text fixes -----------------------------------------------------------------------------


class TextFixed(NamedTuple):
    """What a text fix made of a text: the text, the changes, said at their places in the
    text it was given, and how it moved the places after them (`curator.write.places`)."""

    text: str
    changes: list[Change]
    moves: list[Move]


TextFix = Callable[[str], TextFixed]


def remove_bom(text: str) -> TextFixed:
    if not text.startswith("\ufeff"):
        return TextFixed(text, [], [])
    change = Change(1, 1, bom.RULE.code, "removed the byte-order mark")
    return TextFixed(text[1:], [change], [(0, 1, 0)])


def lf_line_ends(text: str) -> TextFixed:
    """Said at the first CR, as lint's IL603 says it."""
    if "\r" not in text:
        return TextFixed(text, [], [])
    count = text.count("\r\n") + text.replace("\r\n", "").count("\r")
    fixed = text.replace("\r\n", "\n").replace("\r", "\n")
    line, column = position_at(text, text.index("\r"))
    what = f"changed {count} CR/CRLF line end(s) to LF"
    moves = [(m.start(), m.start() + 1, 0) for m in re.finditer("\r\n", text)]
    return TextFixed(fixed, [Change(line, column, crlf.RULE.code, what)], moves)


def compose(text: str) -> TextFixed:
    """Unicode NFC. It changes how letters are encoded, not which letters: the values read
    the same to people, and now to searches too (IL605). Not over a run of more than 30
    combining marks, which no text needs and which NFC takes minutes to put in order; and
    not for CJK compatibility ideographs, which NFC makes other characters (`composed`)."""
    found = unicode_nfc.decomposed(text)
    if found is None:
        return TextFixed(text, [], [])
    run = long_run(text)
    if run is not None:
        raise Refused(
            position_at(text, run),
            f"more than {STREAM_SAFE_RUN} combining marks in a row (beyond Unicode's "
            "stream-safe limit, UAX #15); fix it by hand",
        )
    line, column = found.position
    what = f"composed the letters of {found.lines} line(s) (Unicode NFC)"
    change = Change(line, column, unicode_nfc.RULE.code, what)
    return TextFixed(composed(text), [change], _composing_moves(text))


def _composing_moves(text: str) -> list[Move]:
    """How `composed` moves places: each letter whose code points compose to fewer, told
    line by line (NFC composes nothing across a line end). A letter is a character and the
    marks and jamo after it (`_letters`); on a line where NFC composes more than those (two
    starters, as in some Indic vowels), one move for the line, inside which a column is
    taken to stay where it was. (Only lengths count: a compatibility ideograph, which
    `composed` keeps, is one character in NFC too.)"""
    moves: list[Move] = []
    at = 0
    for line in text.split("\n"):
        if not unicodedata.is_normalized("NFC", line):
            on_line = [
                (at + m.start(), at + m.end(), len(unicodedata.normalize("NFC", m.group())))
                for m in _letters().finditer(line)
            ]
            on_line = [move for move in on_line if move[2] != move[1] - move[0]]
            grown = sum(length - (end - start) for start, end, length in on_line)
            whole = len(composed(line))
            moves += on_line if len(line) + grown == whole else [(at, at + len(line), whole)]
        at += len(line) + 1
    return moves


@functools.cache
def _letters() -> re.Pattern[str]:
    """A character and the marks and jamo after it that NFC may compose with it (a class
    of `unicode_nfc.attaches` and more: any astral character)."""
    return re.compile(f"(?s).[{maybe_non_starter()}\u1160-\u11ff\ud7b0-\ud7ff]+")


def remove_zero_width(text: str) -> TextFixed:
    """U+200B, U+2060, U+FEFF, U+180E and the bidirectional controls go, wherever they
    are (IL606): they show as nothing, and no text here means one. Not one whose going
    would change more than it (a U+200B after `key:` makes it text, not a key; one in a
    key can make a duplicate key): it stays, and the others go (`removal`); the one left
    in a value is taken out of the value alone (`remove_escaped_zero_width`), any other
    said with why (`_zero_width_kept`)."""
    loaded = load_bytes(text.encode("utf-8")) if zero_width(text) is not None else None
    if loaded is None or loaded.text is None:
        return TextFixed(text, [], [])
    removal = invisible_characters.removal(loaded)
    # A mark starting the text (a second, after IL604's) is the file's to the loader: it
    # goes unread, and so unsaid by `removal`.
    mark = len(text) - len(loaded.text)
    removed = [*range(mark), *(place + mark for place in removal.removed)]
    if not removed:
        return TextFixed(text, [], [])
    line, column = position_at(text, removed[0])
    what = f"removed {len(removed)} zero-width character(s)"
    change = Change(line, column, invisible_characters.RULE.code, what)
    moves = [(place, place + 1, 0) for place in removed]  # (after IL604's)
    return TextFixed(removal.text, [change], moves)


def tabs_to_spaces(text: str) -> TextFixed:
    """A tab in the indentation becomes two spaces (the layout's indent step), any other
    tab one space; but only where the values and comments stay the same."""
    kept = _keep_values(text, tab_edits(text))
    changes = _changes(kept.made, no_tabs.RULE.code, "replaced tab(s) with spaces")
    return TextFixed(kept.text, changes, _moves(text, kept.made))


def strip_trailing_whitespace(text: str) -> TextFixed:
    """White space at the end of a line goes, but only where the values and comments stay
    the same: at the end of a line of a `|` block it is text."""
    kept = _keep_values(text, _trailing_edits(text))
    changes = _changes(kept.made, trailing.RULE.code, "removed trailing space")
    return TextFixed(kept.text, changes, _moves(text, kept.made))


def _moves(text: str, edits: list[Edit]) -> list[Move]:
    """`edits` of `text`'s lines as moves of its places."""
    starts = [0, *(m.end() for m in re.finditer("\n", text))] if edits else []
    return [(starts[e.line] + e.start, starts[e.line] + e.end, len(e.new)) for e in sorted(edits)]


def _trailing_edits(text: str) -> list[Edit]:
    # rstrip, not a regular expression: a search for `[ \t]+$` takes time quadratic in a
    # run of spaces that does not end the line (hours for a megabyte of them).
    edits: list[Edit] = []
    for number, line in enumerate(text.split("\n")):
        end = len(line.rstrip(WHITE_SPACE))
        if end != len(line):
            edits.append(Edit(number, end, len(line), "", end))
    return edits


def _changes(edits: list[Edit], code: str, description: str) -> list[Change]:
    """One change per line, at the first place changed on it."""
    first: dict[int, int] = {}
    for edit in sorted(edits):
        first.setdefault(edit.line, edit.column)
    return [Change(line + 1, column + 1, code, description) for line, column in first.items()]


def _reading(text: str) -> tuple[Any, list[str]] | None:
    """What a text means: the loader's values and the comments; None if it cannot be read."""
    loaded = load_bytes(text.encode("utf-8"))
    if loaded.problems:
        return None
    return loaded.data, comments(text)


class _Kept(NamedTuple):
    """What `_keep_values` made of a text: the text with the edits `made`; the edits that
    would change a value or a comment (`refused`); those it had no reads left to try."""

    text: str
    made: list[Edit]
    refused: list[Edit]
    untried: list[Edit]


def _keep_values(text: str, edits: list[Edit]) -> _Kept:
    """`text` with those of `edits` that keep its values and comments. All at once first
    (the usual case: one more read); else one at a time, as far as `tries` allows."""
    if not edits:
        return _Kept(text, [], [], [])
    made = repairs(text, edits)
    base = apply(text, made)
    meaning = _reading(base)
    rest = [edit for edit in edits if edit not in made]
    if meaning is None or not rest:  # if still unreadable, the writer refuses the file
        return _Kept(base, made, rest, [])
    everything = apply(text, edits)
    if _reading(everything) == meaning:
        return _Kept(everything, edits, [], [])
    budget = tries(text)
    refused: list[Edit] = []
    for edit in rest[:budget]:
        if _reading(apply(text, [*made, edit])) == meaning:
            made.append(edit)
        else:
            refused.append(edit)
    return _Kept(apply(text, made), made, refused, rest[budget:])


TEXT_FIXES: tuple[TextFix, ...] = (
    remove_bom,
    lf_line_ends,
    # Before NFC: the letters either side of a zero-width character compose once it is gone.
    remove_zero_width,
    compose,
    tabs_to_spaces,
    strip_trailing_whitespace,
)

# Value fixes ----------------------------------------------------------------------------

ValueFix = Callable[[Any, Taxonomy], list[Change]]


def name_terms_by_id(tree: Any, taxonomy: Taxonomy) -> list[Change]:
    """A facet written as its term's label or alias (`용량 한계`, `GPU`), which lint
    reports offering the id (IL201, or IL301 where the name has an id's shape): the id,
    where the name is one term's alone (`Taxonomy.named_term`)."""
    changes: list[Change] = []
    for dimension, terms in _facet_lists(tree):
        for index, written in enumerate(terms):
            if not isinstance(written, str) or taxonomy.term(dimension, written) is not None:
                continue
            term_id = taxonomy.named_term(dimension, written)
            if term_id is None:
                continue
            terms[index] = term_id
            line, column = _item_position(terms, index)
            code = (unknown_term if _TERM_ID.fullmatch(written) else schema).RULE.code
            changes.append(Change(line, column, code, f"facets.{dimension}: {written} → {term_id}"))
    return changes


_TERM_ID = re.compile(TERM_ID_PATTERN)


def replace_deprecated_terms(tree: Any, taxonomy: Taxonomy) -> list[Change]:
    changes: list[Change] = []
    for dimension, terms in _facet_lists(tree):
        for index, term_id in enumerate(terms):
            if not isinstance(term_id, str):
                continue
            replacement = taxonomy.replacement(dimension, term_id)
            if replacement is None:
                continue  # (not deprecated, or its replacement is broken: lint says so)
            terms[index] = replacement
            line, column = _item_position(terms, index)
            changes.append(
                Change(
                    line,
                    column,
                    deprecated_term.RULE.code,
                    f"facets.{dimension}: {term_id} → {replacement}",
                )
            )
    return changes


def tidy_facet_lists(tree: Any, taxonomy: Taxonomy) -> list[Change]:
    changes: list[Change] = []
    for dimension, terms in _facet_lists(tree):
        if not all(isinstance(term, str) for term in terms):
            continue
        wanted = facet_order.tidy(list(terms))
        if list(terms) == wanted:
            continue
        line, column = _item_position(terms, 0)
        _refuse_a_comment_above_an_item(terms, dimension)
        _refuse_a_repeat_with_a_comment_of_its_own(terms, dimension)
        repeated = sorted(t for t, count in Counter(terms).items() if count > 1)
        what = f"removed repeated {', '.join(repeated)} and sorted" if repeated else "sorted"
        _set_items(terms, wanted)
        changes.append(Change(line, column, facet_order.RULE.code, f"facets.{dimension}: {what}"))
    return changes


def tidy_source_urls(tree: Any, taxonomy: Taxonomy) -> list[Change]:
    changes: list[Change] = []
    sources = tree.get("sources") if isinstance(tree, CommentedMap) else None
    for index, source in enumerate(sources if isinstance(sources, CommentedSeq) else ()):
        url = source.get("url") if isinstance(source, CommentedMap) else None
        if not isinstance(url, str) or source_url_form.tidy(url) == url:
            continue
        tidied = source_url_form.tidy(url)
        source["url"] = tidied
        line, column = source.lc.value("url")
        changes.append(
            Change(
                line + 1,
                column + 1,
                source_url_form.RULE.code,
                f"sources[{index}].url: {url} → {tidied}",
            )
        )
    return changes


def remove_repeated_sources(tree: Any, taxonomy: Taxonomy) -> list[Change]:
    """A source the same in every key as one above it goes (IL505), the last first; one
    that differs is its author's to merge, and stays."""
    sources = tree.get("sources") if isinstance(tree, CommentedMap) else None
    if not isinstance(sources, CommentedSeq):
        return []
    # Worked out once, before any goes: each source's first twin above it, by its index.
    values = [
        source_url_form.same_values(plain(source))
        if isinstance(source, CommentedMap) and "url" in source  # (else IL201's: left alone)
        else None
        for source in sources
    ]
    same_as = source_url_form.first_same_above(values)
    changes: list[Change] = []
    for index in reversed(range(1, len(sources))):
        same = same_as[index]  # (the first of its values: never one removed)
        if same is None:
            continue
        line, column = _url_position(sources[index])
        _remove_keeping_comments(sources, index)
        what = f"sources[{index}]: removed, the same as sources[{same}]"
        changes.append(Change(line, column, source_url_form.RULE.code, what))
    return changes


def _url_position(source: CommentedMap) -> tuple[int, int]:
    line, column = source.lc.value("url")
    return line + 1, column + 1


def _remove_keeping_comments(sources: CommentedSeq, index: int) -> None:
    """Remove the source `sources[index]` (not the first), every comment kept in place.

    ruamel keeps, on each key of a mapping, the comment at the end of its line and then
    the comment lines below it. The lines below the source's last key belong to what comes
    next (an item, a key): they move to the last key of the source above, from where they
    are written at the same place. A comment at the end of one of the source's lines or
    between its keys, or a comment line above it (kept on the source above), may say
    something of it: only its author knows where that goes, so the file is left as it is."""
    source, above = sources[index], sources[index - 1]
    own, below = _comments_of(source)
    if own or not isinstance(above, CommentedMap) or _comments_of(above)[1]:
        raise Refused(
            Position(*_url_position(source)),
            f"sources[{index}] is the same as a source above it, but has a comment beside it "
            "or above it, which removing it would lose or move; remove it by hand",
        )
    del sources[index]
    if below is not None:
        _put_below(above, below)


def _comments_of(source: CommentedMap) -> tuple[bool, CommentToken | None]:
    """Whether `source` has a comment of its own (at the end of a line or between its keys,
    or before its first key); and the token of the lines below it, if any."""
    tokens = [_token(source.ca.items.get(key)) for key in source]
    *inside, last = [token.value if token else "" for token in tokens] or [""]
    line_end, _, lines_below = last.partition("\n")
    own = any("#" in text for text in [*inside, line_end]) or "#" in repr(source.ca.comment)
    return own, tokens[-1] if "#" in lines_below else None


def _token(entry: list[Any] | None) -> CommentToken | None:
    """The comment token ruamel keeps after a key's value (the third of its entry)."""
    return entry[2] if entry and len(entry) > 2 and isinstance(entry[2], CommentToken) else None


def _put_below(source: CommentedMap, token: CommentToken) -> None:
    """Make the comment lines of `token` (after its first line) the lines below `source`,
    which has none."""
    key = list(source)[-1]
    entry = source.ca.items.setdefault(key, [None, None, None, None])
    mine = entry[2]
    head = mine.value.partition("\n")[0] if mine is not None else ""
    moved = copy.copy(mine if mine is not None else token)
    below = token.value.partition("\n")[2]
    moved.value = f"{head}\n{below}"
    entry[2] = moved


def strip_padding(tree: Any, taxonomy: Taxonomy) -> list[Change]:
    """White space around a one-line value (title, organization, source title or
    publisher) goes (IL606); a line break inside one is its author's to mend."""
    changes: list[Change] = []
    for path, value in invisible_characters.one_line_values(tree):
        if invisible_characters.padding(value) is None:
            continue
        parent, key = _parent(tree, path)
        # Set as a value replacing another, it keeps the quotes its author gave it; but
        # quotes or a block that held a line break held more than one line: the value is
        # then set as a one-line block, which the layout writes as it writes one-line text
        # (`canonical._text_style`), whichever way it came.
        stripped = value.strip()
        parent[key] = LiteralScalarString(stripped) if "\n" in value else stripped
        line, column = _value_position(parent, key)
        name = dotted(path)
        code = invisible_characters.RULE.code
        changes.append(Change(line, column, code, f"{name}: {value!r} → {stripped!r}"))
    return changes


def remove_escaped_zero_width(tree: Any, taxonomy: Taxonomy) -> list[Change]:
    """The zero-width characters left in values after `remove_zero_width`: those a
    double-quoted value writes as escapes (`"\\u200b"`), which the text does not hold,
    and those the text fix left because removing them from the text changed more."""
    changes: list[Change] = []
    for path, value in list(invisible_characters.zero_width_values(tree)):
        parent, key = _parent(tree, path)
        cleaned = invisible_characters.less_zero_width(value)
        parent[key] = _in_nfc(cleaned)
        count = len(value) - len(cleaned)
        what = f"{dotted(path)}: removed {count} zero-width character(s)"
        changes.append(Change(*_value_position(parent, key), invisible_characters.RULE.code, what))
    return changes


def _in_nfc(value: str) -> str:
    """`value` in NFC, as `compose` leaves the text: the letters either side of an escaped
    zero-width character compose once it is gone (the two halves of a decomposed 토 with
    `\\u200b` between them). Left as it is past the stream-safe limit, which `compose`
    refuses (lint tells of it)."""
    return value if long_run(value) is not None else composed(value)


def _parent(tree: Any, path: tuple[str | int, ...]) -> tuple[Any, Any]:
    *above, key = path
    parent = tree
    for part in above:
        parent = parent[part]
    return parent, key


def _value_position(parent: Any, key: Any) -> tuple[int, int]:
    if isinstance(parent, CommentedSeq):
        return _item_position(parent, int(key))
    line, column = parent.lc.value(key)
    return line + 1, column + 1


VALUE_FIXES: tuple[ValueFix, ...] = (
    name_terms_by_id,  # (first: the term named may be deprecated)
    replace_deprecated_terms,
    tidy_facet_lists,
    tidy_source_urls,
    remove_escaped_zero_width,
    strip_padding,
    # Last: a source the same as another once the others are fixed is a repeat all the same.
    remove_repeated_sources,
)

# Codes of the rules each kind of fix answers; a test holds this equal to the registry's
# fixable rules.
FIXED_CODES = frozenset(
    rule.RULE.code
    for rule in (
        bom,
        crlf,
        unicode_nfc,
        invisible_characters,
        no_tabs,
        trailing,
        deprecated_term,
        facet_order,
        source_url_form,
        schema,
        unknown_term,
    )
)


def _facet_lists(tree: Any) -> list[tuple[str, CommentedSeq]]:
    facets = tree.get("facets") if isinstance(tree, CommentedMap) else None
    if not isinstance(facets, CommentedMap):
        return []
    return [(d, facets[d]) for d in DIMENSIONS if isinstance(facets.get(d), CommentedSeq)]


def _item_position(seq: CommentedSeq, index: int) -> tuple[int, int]:
    try:
        line, column = seq.lc.item(index)
    except (KeyError, IndexError, TypeError):
        return 1, 1
    return line + 1, column + 1


def _refuse_a_comment_above_an_item(seq: CommentedSeq, dimension: str) -> None:
    """A comment line above an item may say something of that item or of the list: only
    its author can tell, so a list holding one is left to be sorted by hand (lines below
    the last item stay where they are, see `_set_items`)."""
    index = _first_item_below_a_comment(seq)
    if index is not None:
        raise Refused(
            Position(*_item_position(seq, index)),
            f"facets.{dimension} has a comment line above an item, which sorting would leave "
            "beside another item; sort the list by hand",
        )


def _first_item_below_a_comment(seq: CommentedSeq) -> int | None:
    # ruamel keeps the lines above the first item on the list, and those above any other
    # item after the end-of-line comment of the item before it.
    above_first = seq.ca.comment[1] if seq.ca.comment and len(seq.ca.comment) > 1 else None
    if any("#" in token.value for token in above_first or ()):
        return 0
    for index in range(len(seq) - 1):
        entry = seq.ca.items.get(index)
        if entry and entry[0] is not None and "#" in entry[0].value.partition("\n")[2]:
            return index + 1
    return None


def _refuse_a_repeat_with_a_comment_of_its_own(seq: CommentedSeq, dimension: str) -> None:
    """A repeated term goes, and its end-of-line comment with it unless the term's first
    item has none: two comments cannot end the one line left, and only their author can
    tell which to keep (or how to merge them)."""
    commented: set[str] = set()
    for index, value in enumerate(seq):
        entry = seq.ca.items.get(index)
        if not (entry and entry[0] is not None and "#" in entry[0].value.partition("\n")[0]):
            continue
        if value in commented:
            raise Refused(
                Position(*_item_position(seq, index)),
                f"facets.{dimension} repeats {value} with a comment of its own, which removing "
                "the repeat would lose; remove it by hand",
            )
        commented.add(value)


def _set_items(seq: CommentedSeq, values: list[str]) -> None:
    """Put `values` (the old items, sorted, repeats dropped) into `seq` in place.

    ruamel keeps, per item, one comment token: the comment at the end of the item's line,
    then any full-line comments below it. The end-of-line comment belongs to the value and
    moves with it; the lines below the last item belong to the place (often they introduce
    the next key) and stay. (A list with comment lines above an item is never sorted:
    `_refuse_a_comment_above_an_item`.)"""
    tokens = {i: entry[0] for i, entry in seq.ca.items.items() if entry and entry[0] is not None}
    heads: dict[str, tuple[str, CommentToken]] = {}
    tails: dict[int, str] = {}
    for index, value in enumerate(seq):
        token = tokens.get(index)
        if token is None:
            continue
        head, _, tail = token.value.partition("\n")
        if head and value not in heads:  # (a repeat with its own is refused before)
            heads[value] = (head, token)
        last = min(index, len(values) - 1)
        tails[last] = tails.get(last, "") + tail
    items: dict[int, list[Any]] = {}
    for index, value in enumerate(values):
        head, owner = heads.get(value, ("", None))
        tail = tails.get(index, "")
        template = owner or tokens.get(index) or next(iter(tokens.values()), None)
        if (head or tail) and template is not None:
            token = copy.copy(template)
            token.value = f"{head}\n{tail}"
            items[index] = [token, None, None, None]
    del seq[len(values) :]
    for index, value in enumerate(values):
        # Each value keeps its own quoting: ruamel's `seq[index] = value` gives a plain
        # one the quotes of the item it replaces, and the sort moved the quotes of one
        # term onto another (`- "nccl"` sorted after `gpu-driver` came out plain).
        list.__setitem__(seq, index, value)
    seq.ca.items.clear()
    seq.ca.items.update(items)


# Running --------------------------------------------------------------------------------


def fix_text(
    raw: bytes, taxonomy: Taxonomy, *, dry_run: bool = False
) -> tuple[bytes, list[Change], list[Change]]:
    """The fixed bytes of one file (unchanged if no change), the changes made, and the
    findings of fixable rules left in those bytes for people. The changes and a refusal
    are said at their places in `raw`, the file as it is (`Trail`), as lint says them;
    what is left, at its place in the file the user will open: the fixed bytes, once
    written; with `dry_run`, `raw`, which stays as it is."""
    changes: list[Change] = []
    tabs: list[tuple[Change, Position]] = []  # (as the tab fix found each, in `raw`)
    try:
        # A file over the size limit is refused by the writer: not worth a fix first.
        text = raw.decode("utf-8") if len(raw) <= MAX_BYTES else None
    except UnicodeDecodeError:
        text = None
    trail = Trail(text) if text is not None else None
    if text is not None and trail is not None:
        for stage, text_fix in enumerate(TEXT_FIXES):
            try:
                text, made, moves = text_fix(text)
            except Refused as refused:
                raise Refused(trail.on_disk(refused.position, stage), refused.message) from None
            placed = [_placed(change, trail, stage) for change in made]
            tabs += [(c, Position(p.line, p.column)) for c, p in zip(made, placed, strict=True)]
            changes += placed
            trail.add(text, moves)
    fixable = text.encode("utf-8") if text is not None else raw
    value_changes: list[Change] = []

    def edit(tree: Any) -> None:
        value_changes.extend(_value_fixes(tree, taxonomy))

    try:
        out = render(fixable, edit)  # Refused propagates: nothing is written
    except CommentInFlow as in_flow:
        try:
            out = _formatted_first(fixable, taxonomy, in_flow)
        except Refused as refused:
            raise _refusal(refused, tabs, raw, text, trail) from None
    except Refused as refused:
        raise _refusal(refused, tabs, raw, text, trail) from None
    if trail is not None:
        value_changes = [_placed(c, trail, len(TEXT_FIXES)) for c in value_changes]
    changes += value_changes
    if not changes:
        unchanged = raw.decode("utf-8")  # (render has read it as text)
        return raw, [], sorted(_left_by_hand(unchanged) + _zero_width_kept(unchanged, unchanged))
    left = _left_by_hand(out)
    if dry_run and text is not None and trail is not None:
        left = _left_on_disk(left, out, text, trail)
        left += _zero_width_kept(text, out, trail)
    elif text is not None:
        left += _zero_width_kept(text, out)
    return out.encode("utf-8"), sorted(changes), sorted(left)


def _zero_width_kept(text: str, out: str, trail: Trail | None = None) -> list[Change]:
    """The zero-width characters the text fixes left in `text` (the text they made), which
    the value fixes did not take out of values and `out` still holds: each said with why
    (`invisible_characters.why_kept`) at its place in `out`, the file as written; with
    `trail` (a dry run, the file left as it is), at its place in `text`, told in the file.
    Those there were no reads left to try are said once a line."""
    if zero_width(out) is None:
        return []
    # (Keys named at their lines in the file the user opens: in `out`, once written.)
    said = text if trail is not None else out
    loaded = load_bytes(said.encode("utf-8"))
    left: dict[Position, Change] = {}
    for place, why in invisible_characters.left(loaded):
        if why is None:  # (in a value: the value fixes took it out)
            continue
        where = position_at(loaded.text or said, place)
        if trail is not None:
            where = trail.on_disk(where, len(TEXT_FIXES))
        line = Position(where.line, 0) if why == invisible_characters.NOT_TRIED else where
        change = Change(
            where.line, where.column, invisible_characters.RULE.code, f"not fixed: {why}"
        )
        left.setdefault(line, change)
    return list(left.values())


def _left_on_disk(left: list[Change], out: str, text: str, trail: Trail) -> list[Change]:
    """What is `left` in `out` (the canonical layout of `text`, the text the text fixes
    made), at its place in the file. Each is found in `text` by what holds it, which the
    layout keeps wherever it writes it: the value at the same path (a `|` block indented
    otherwise, put in the layout's order of keys, a `>` block written `|`) or a comment of
    the same words; the nth line with a tab (or trailing space) there is the nth in `text`.
    One that `text` has fewer of there (a `>` block's lines joined) is said at its place
    in `out`."""
    in_text = _lines_to_fix_by_hand(text)
    in_out = {
        (code, place): (holder, nth)
        for (code, holder), places in _lines_to_fix_by_hand(out).items()
        for nth, place in enumerate(places)
    }
    placed: list[Change] = []
    for change in left:
        holder, nth = in_out.get(
            (change.code, Position(change.line, change.column)), (("", None), 0)
        )
        there = in_text.get((change.code, holder), [])
        if nth < len(there):
            line, column = there[nth]
            change = _placed(Change(line, column, change.code, change.description), trail)
        placed.append(change)
    return sorted(placed)


Holder = tuple[str, Any]  # ("value", its path), ("comment", its words) or ("line", …)


def _lines_to_fix_by_hand(text: str) -> dict[tuple[str, Holder], list[Position]]:
    """Each line of `text` with a tab (IL601) or trailing white space (IL602), at the first,
    by what holds it: the path of a value, the words of a comment, else the line's
    characters but white space."""
    lines = text.split("\n")
    spans = scalars(load_bytes(text.encode("utf-8")).document, lines)
    starts = [start for start, _, _ in spans]

    def value(where: Position) -> Any:
        index = bisect.bisect_right(starts, where) - 1
        return spans[index][2] if index >= 0 and where < spans[index][1] else None

    def holder(where: Position) -> Holder:
        path = value(where)
        if path is not None:
            return "value", path
        line = lines[where.line - 1]
        for mark in range(where.column - 1):  # (a `#` outside a value starts a comment)
            after_space = mark == 0 or line[mark - 1] in " \t"
            if line[mark] == "#" and after_space and value(Position(where.line, mark + 1)) is None:
                return "comment", line[mark:].rstrip(WHITE_SPACE)
        return "line", "".join(line.split())

    found: dict[tuple[str, Holder], list[Position]] = {}
    for number, line in enumerate(lines, start=1):
        end = len(line.rstrip(WHITE_SPACE))
        for code, column in (
            (no_tabs.RULE.code, line.find("\t") + 1),
            (trailing.RULE.code, end + 1),
        ):
            if 0 < column <= len(line):
                where = Position(number, column)
                found.setdefault((code, holder(where)), []).append(where)
    return found


def _placed(change: Change, trail: Trail, stage: int = len(TEXT_FIXES)) -> Change:
    """`change`, found in the text after `stage` text fixes, at its place in the file."""
    line, column = trail.on_disk(Position(change.line, change.column), stage)
    return Change(line, column, change.code, change.description)


def _refusal(
    refused: Refused,
    tabs: list[tuple[Change, Position]],
    raw: bytes,
    text: str | None,
    trail: Trail | None,
) -> Refused:
    """Why the text fixed (`text`) cannot be written, said at the place in the file."""
    refused = mark_kept(refused, text)
    not_mended = _tab_not_mended(refused, tabs, raw)
    if not_mended is not None:
        return not_mended
    as_read = _as_the_file_has_it(refused, raw)
    if as_read is not refused or trail is None:
        return as_read
    said = tab_in_text(refused, text)
    return Refused(trail.on_disk(said.position, len(TEXT_FIXES)), said.message)


def mark_kept(refused: Refused, text: str | None) -> Refused:
    """A refusal for a U+FEFF that the text fixes left (`curator fmt`'s too) in a key that
    would be, without it, one its mapping has already, which "remove it by hand" made: with
    why they left it and what to do instead."""
    if refused.message != MARK_INSIDE or text is None:
        return refused
    loaded = load_bytes(text.encode("utf-8"))
    line, column = refused.position
    lines = (loaded.text or "").split("\n")
    place = sum(len(before) + 1 for before in lines[: line - 1]) + column - 1
    why = invisible_characters.why_kept(loaded, place)
    if why is None:
        return refused
    return Refused(
        refused.position, f"holds U+FEFF, a byte-order mark, which `curator fix` leaves: {why}"
    )


def _formatted_first(fixable: bytes, taxonomy: Taxonomy, in_flow: CommentInFlow) -> str:
    """The fixes made to `fixable` as `curator fmt` writes it, which keeps a comment inside
    `[...]` or `{...}` (the collection written one item a line), where the value fixes of
    the first pass would lose it: what `curator fmt` then `curator fix` make. The first
    pass made the same changes (the same values), and says them at the places the file
    has. Where this pass is refused too, its reason is said (a comment line that stood in
    `[...]` now above an item of a list to sort, say), at the place of the first comment
    the first pass would have lost: the file has no line of the formatted text, and
    `curator fmt` first would only lead to the same refusal."""

    def edit(tree: Any) -> None:
        _value_fixes(tree, taxonomy)  # (the changes said are the first pass's)

    try:
        return render(render(fixable).encode("utf-8"), edit)
    except Refused as refused:
        raise Refused(in_flow.position, refused.message) from None


def _value_fixes(tree: Any, taxonomy: Taxonomy) -> list[Change]:
    return [change for value_fix in VALUE_FIXES for change in value_fix(tree, taxonomy)]


def _tab_not_mended(
    refused: Refused, tabs: list[tuple[Change, Position]], raw: bytes
) -> Refused | None:
    """A file refused where the text fixes put two spaces for a tab the loader stopped at:
    still unreadable at the tab's line, or with the next list item joined to the tab's
    line as text (IL109: `\t- a` then `    - b`). The spaces did not mend the tab: said at
    it, as lint's IL601 says it, not at the repaired text's error (`lined up with the
    list's items`, `this line is no list item`), which names no tab. (`tabs`: each tab
    change as the tab fix found it, and its place in the file.)"""
    found = [(c, place) for c, place in tabs if c.code == no_tabs.RULE.code]
    if isinstance(refused, ItemInText):
        stop = [p.position for p in load_bytes(raw).problems][:1]  # (read only when refused)
        tab = next(
            (place for c, place in found if c.line == refused.joined and place in stop), None
        )
    elif refused.message.startswith("cannot be read"):  # (the loader's)
        tab = next((place for c, place in found if c.line == refused.position.line), None)
    else:
        tab = None
    if tab is None:
        return None
    return Refused(tab, no_tabs.stops_the_file(mended=False))


def _as_the_file_has_it(refused: Refused, raw: bytes) -> Refused:
    """A file the loader cannot read for the same reason before the text fixes as after
    them: refused at the place lint gives in the file, which is left as it is, not at the
    place in the fixed text (a line further down for each lone CR above it among LF line
    ends, which git and editors show as one line's text)."""
    if not refused.message.startswith("cannot be read ("):  # (the loader's)
        return refused
    as_read = unread(load_bytes(raw))  # (read again only when refused)
    return as_read if as_read.message == refused.message else refused


def tab_in_text(refused: Refused, text: str | None) -> Refused:
    """ruamel.yaml cannot read a tab inside a plain value (`title: a<TAB>b`) or key, which
    the loader reads as text. A tab the parser stops at after the text fixes is one they left
    because it is text: say so, rather than that the file cannot be read. (`curator fmt`
    says so too of a file the text fixes leave one it cannot format.)"""
    line, column = refused.position
    if text is None:
        return refused
    lines = text.split("\n")
    if (
        not isinstance(refused, Unparsable)
        or line > len(lines)
        or lines[line - 1][column - 1 : column] != "\t"
    ):
        return refused
    in_a_key = _in_a_key(text, refused.position)
    return Refused(refused.position, no_tabs.IN_A_KEY if in_a_key else no_tabs.IN_A_PLAIN_VALUE)


def _in_a_key(text: str, where: Position) -> bool:
    """Whether a key the loader reads in `text` (keys stand on one line) holds `where`."""
    document = load_bytes(text.encode("utf-8")).document
    return document is not None and any(
        start.line == where.line and start.column <= where.column < start.column + len(key)
        for (*_, key), start in document.key_positions.items()
        if isinstance(key, str)
    )


def _left_by_hand(text: str) -> list[Change]:
    """The tabs and trailing spaces in `text` that are part of a value or a comment.

    Any other is one the text fixes removed and the canonical writer put back: the file
    is refused rather than a change reported that the written file does not have."""
    left: list[Change] = []
    for edits, code, what in (
        (tab_edits(text), no_tabs.RULE.code, "the tab is part of a value or a comment"),
        (_trailing_edits(text), trailing.RULE.code, "the trailing space is part of a value"),
    ):
        kept = _keep_values(text, edits)
        if kept.made:
            where = Position(kept.made[0].line + 1, kept.made[0].column + 1)
            raise Refused(where, f"the canonical layout puts back what {code} fixes; please report")
        left += _changes(kept.refused, code, f"not fixed: {what}; fix it by hand")
        untried = "not fixed: not tried (too many in a file this size); fix it by hand"
        left += _changes(kept.untried, code, untried)
    return sorted(left)


def fix_file(
    path: Path, taxonomy: Taxonomy, cwd: Path | None = None, *, dry_run: bool = False
) -> Fixed:
    display = display_path(path, cwd)
    try:
        before = read_regular(path, MAX_BYTES)
    except OSError as exc:  # unreadable, or no longer a regular file: left alone
        return Fixed(path, display, b"", refused=unreadable(exc))
    try:
        after, changes, left = fix_text(before, taxonomy, dry_run=dry_run)
    except Refused as refused:
        return Fixed(path, display, before, refused=refused)
    return Fixed(path, display, before, after, changes, left=left)


def fix_files(
    paths: Sequence[Path],
    taxonomy: Taxonomy,
    cwd: Path | None = None,
    write: bool = True,
    *,
    cache: Library | None = None,
    jobs: int | None = None,
    progress: Progress | None = None,
) -> list[Fixed]:
    """Fix each file; with `write`, put each changed one in place (else change nothing).
    Only the files lint finds something in are read for a fix (see the top of this
    module); the others are left as they are, their `before` not read (empty). `cache`:
    the library whose cache of lint's results to use and keep, for a run over every file
    of it (a save keeps only the files the run saw); `jobs` and `progress` are lint's,
    for that check."""
    store = ResultCache.open(cache) if cache is not None else None
    names = [str(path) for path in paths]
    displays = display_paths(names, cwd)
    flagged = _flagged(names, displays, taxonomy, store, jobs, progress)
    results = [
        fix_file(path, taxonomy, cwd, dry_run=not write) if found else Fixed(path, display, b"")
        for path, display, found in zip(paths, displays, flagged, strict=True)
    ]
    return rewrite(results, write, _refused)


def _refused(result: Fixed, why: Refused) -> Fixed:
    return Fixed(result.path, result.display, result.before, refused=why)


def _flagged(
    paths: Sequence[str],
    displays: Sequence[str],
    taxonomy: Taxonomy,
    cache: ResultCache | None,
    jobs: int | None,
    progress: Progress | None,
) -> list[bool]:
    """Whether lint's single-file rules find anything in each file: checked as lint checks
    it (in worker processes for many files, from `cache` where it holds the answer)."""
    today = dt.datetime.now(dt.UTC).date()  # (as lint's; no fixable rule depends on it)
    checked = check_files(paths, displays, taxonomy, today, cache, jobs, progress)
    if cache is not None:
        cache.save()
    return [bool(result.findings) for result in checked]
