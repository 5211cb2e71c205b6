"""libyaml's syntax errors, where they come from a contributor's usual slip, → the place of
the slip and what to write instead.

libyaml says what its parser expected (`could not find expected ':'`, `mapping values are
not allowed in this context`), which tells someone who knows YAML's grammar what went wrong,
and most contributors nothing. Its words are kept, for searching; after them comes the slip
in the file's terms: a key without `: `, or ended with a full-width `：` or a space YAML does
not count (which libyaml, after a list item's key, notices lines later), a `: ` inside a
one-line text, a line indented as no key around it is, a quote left open, a backslash in
double quotes, a value starting with a character YAML reads as no text (`[초안] …`, `*중요*`,
`> …`, `@`), an item or a comment started with a character an input method types for `-`
or `#` (`－`, `–`, `＃`). Any other error is left in libyaml's words alone.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, NamedTuple

import yaml

# libyaml's loader for token scans (here, and `curator.write`'s through `curator.load`); the
# pure-Python one without it.
SCAN_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# libyaml (YAML 1.1) starts a line at each of these, and counts its marks' lines so.
_YAML_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_KEY_ON_LINE = re.compile(r"\S:(?: |$)")
_VALUE_AFTER_KEY = re.compile(r"\S: +[^\s#]")

# What an East Asian input method types for `:`. (Its space, U+3000 IDEOGRAPHIC SPACE, is
# one to `str.isspace`, which is how it is told.)
_FULL_WIDTH_COLON = "\uff1a"
_FULL_WIDTH_KEY = re.compile(f"[A-Za-z_]+({_FULL_WIDTH_COLON})(?:\\s|$)")  # (keys are English)
# A key's colon followed by white space YAML does not separate with (U+3000, or U+00A0 from
# a web page): `title:　…` is one word to YAML, no key.
_WIDE_SPACE_KEY = re.compile(r"[A-Za-z_]+:([^\S \t\r\n])")
# Dashes an input method or a word processor types for `-` (U+FF0D FULLWIDTH HYPHEN-MINUS,
# en and em dashes, the minus sign, the Hangul letter ㅡ typed as a dash), and bullets pasted
# from a document's list (•, and the middle dots of Korean documents: ·, ㆍ, ∙, ・): none
# starts a list's item to YAML, which reads `– url: …` as the key `– url`.
DASHES = frozenset(
    "\uff0d\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u3161\u2022\u00b7\u318d\u2219\u30fb"
)
_FULL_WIDTH_HASH = "\uff03"  # (what the input method types for `#`, which no comment starts)
_HASH_WORDS = "U+FF03 FULLWIDTH NUMBER SIGN does not start a comment in YAML; write '#' (U+0023)"
# Quotes a word processor or an input method types for `"` and `'`: text to YAML.
TYPOGRAPHIC_QUOTES = frozenset("\u201c\u201d\u2018\u2019\uff02\uff07")
_COMMENT_AFTER = re.compile(r"[ \t]+#.*|[ \t]+$")
_NO_KEY, _NO_ITEM = "did not find expected key", "did not find expected '-' indicator"
_NOT_ALLOWED = "mapping values are not allowed in this context"
# What libyaml says only of a directive it read (`%YAML 1.3`, a second `%YAML 1.1`): the
# % starts no value there, so quoting one is no answer.
_DIRECTIVE = frozenset(
    {
        "found incompatible YAML document",
        "found duplicate %YAML directive",
        "found duplicate %TAG directive",
    }
)
_NO_DOCUMENT_START = "did not find expected <document start>"
_DIRECTIVE_WORDS = (
    "this line is a YAML directive, which no incident needs (curator reads every file as "
    "YAML 1.1); remove it"
)
_ITEM_START = re.compile(r" *(?:- +)*")  # (where a key or an item's text starts on its line)
_TEXT_GOING_ON = "if it goes on with the text above, write that text as a `|` block"
_ESCAPE = (  # (libyaml places the error at the backslash, or at the digit that is wrong)
    "inside double quotes a \\ starts an escape (\\n, \\u00e9): write \\\\ for a backslash, "
    "or quote the value with ' instead, inside which \\ is text"
)
# Where a value starts on its line: after `key: ` and after each `- `, past any spaces.
_VALUE_START = re.compile(r" *(?:- +)*(?:[^ #:\[\]{},&*!|>'\"%@`?-][^:]*?: +)?")
# What YAML reads at the start of a value in place of text, for each character it does;
# contributors start titles and items with several of them (`[초안]`, `*중요*`, `> 인용`).
_READ_AS = {
    "[": "YAML reads a list there, which must end with ] before anything else on its line",
    "{": "YAML reads a mapping there, which must end with } before anything else on its line",
    "]": "YAML reads the end of a list there",
    "}": "YAML reads the end of a mapping there",
    ",": "YAML reads a comma of a list there",
    "*": "YAML reads an alias there (a name for another value)",
    "&": "YAML reads an anchor there (a name for the value)",
    "!": "YAML reads a tag there",
    "|": "YAML reads a block there, whose text goes on the lines below it",
    ">": "YAML reads a block there, whose text goes on the lines below it",
    "-": "YAML reads a list's item there",
    "?": "YAML reads a key there",
    "%": "YAML reads a directive there",
    "@": "YAML keeps @ for future use",
    "`": "YAML keeps ` for future use",
}


class Advice(NamedTuple):
    line: int  # 1-based, as libyaml counts lines
    column: int
    words: str  # libyaml's problem, then what it means here


def advice(exc: Any, text: str) -> Advice | None:
    """What a syntax error (`yaml.MarkedYAMLError`) in `text` means, and where; None for one
    that comes from no usual slip."""
    problem, at, opened = exc.problem, exc.problem_mark, exc.context_mark
    if at is None or problem is None:
        return None
    tab = _tab(problem, text, at)
    if tab is not None:
        return tab
    if problem in _DIRECTIVE:
        return Advice(at.line + 1, at.column + 1, f"{problem}: {_DIRECTIVE_WORDS}")
    if problem == _NO_DOCUMENT_START:
        # (libyaml stops where a `---` should follow the directives: at the first key.)
        above = _YAML_BREAK.split(text, maxsplit=at.line)[: at.line]
        starts = [n for n, line in enumerate(above) if line.startswith(("%", "---"))]
        if starts and above[starts[-1]].startswith("%"):
            return Advice(starts[-1] + 1, 1, f"{problem}: {_DIRECTIVE_WORDS}")
    if opened is not None and (
        problem == "could not find expected ':'" or exc.context == "while scanning a quoted scalar"
    ):
        # libyaml notices these a line or more later: the slip is where the words started.
        unindented = _unindented_block(text, opened.line, opened.column)
        if problem == "could not find expected ':'" and unindented is not None:
            return Advice(opened.line + 1, opened.column + 1, f"{problem}: {unindented}")
        rest = _line(text, opened.line)[opened.column :]
        offset, started = _started_there(problem, rest)
        return Advice(opened.line + 1, opened.column + offset + 1, f"{problem}: {started}")
    line = _line(text, at.line)
    if line[at.column : at.column + 1] == _FULL_WIDTH_HASH:
        # (Where a comment may stand and nothing else: after a value, a block's header.)
        return Advice(at.line + 1, at.column + 1, f"{problem}: {_HASH_WORDS}")
    if problem == _NOT_ALLOWED:
        # A ': ' after a key on its line is inside a value; else libyaml read on from above.
        key_before = _KEY_ON_LINE.search(line, 0, at.column)
        slip = (
            _quoted_typographically(problem, line, at.line)
            if key_before
            else _slip_above(problem, text, at.line)
        )
        if slip is not None:
            return slip
    opened_above = _quote_opened_above(problem, text, at)
    if opened_above is not None:
        return opened_above
    here = _here(problem, line, at.column)
    if here:
        return Advice(at.line + 1, at.column + 1, f"{problem}: {here}")
    if exc.context == "while parsing a quoted scalar" and problem.endswith(
        ("escape character", "number")
    ):
        return Advice(at.line + 1, at.column + 1, f"{problem}: {_ESCAPE}")
    return _read_as_no_text(problem, text, opened, exact=True) or _read_as_no_text(
        problem, text, at, exact=False
    )


def _quote_opened_above(problem: str, text: str, at: Any) -> Advice | None:
    """A quote left open whose value a quote lines below closes (the next `"` of the text),
    after which libyaml refuses what follows there (`at`): the place is where it opened,
    which libyaml's marks never name, found by scanning the text again up to `at` (only
    on this error's path). None unless the last quoted value before `at` ends on its line
    and starts on one above."""
    if problem not in (_NO_KEY, _NO_ITEM):
        return None
    last = None
    try:
        for token in yaml.scan(text, Loader=SCAN_LOADER):
            if (token.start_mark.line, token.start_mark.column) >= (at.line, at.column):
                break
            if isinstance(token, yaml.ScalarToken) and token.style in ('"', "'"):
                last = token
    except yaml.YAMLError:
        pass
    if last is None or last.end_mark.line != at.line or last.start_mark.line >= at.line:
        return None
    start, end, quote = last.start_mark, last.end_mark, last.style
    inside = "''" if quote == "'" else '\\"'
    return Advice(
        start.line + 1,
        start.column + 1,
        f"{problem}: the {quote} at line {start.line + 1}, column {start.column + 1} opens a "
        f"value that only the {quote} at line {end.line + 1}, column {end.column} closes, "
        f"and YAML reads on past it; end the value with {quote} on line {start.line + 1}, "
        f"and write a {quote} inside it as {inside}",
    )


TAB_WORDS = "a tab where YAML takes only spaces (to indent, and after an item's '-')"


def _tab(problem: str, text: str, at: Any) -> Advice | None:
    """A tab where YAML takes only spaces, where libyaml stops: at it, or at the `-` before
    it (which libyaml then read as no item's)."""
    line = _line(text, at.line)
    column = at.column + 1 if line[at.column : at.column + 2] == "-\t" else at.column
    if line[column : column + 1] != "\t":
        return None
    return Advice(at.line + 1, column + 1, f"{problem}: {TAB_WORDS}; replace it with spaces")


def _read_as_no_text(problem: str, text: str, mark: Any, *, exact: bool) -> Advice | None:
    """A value that starts with a character YAML reads as something else than text, where
    libyaml stopped: at it (`exact`, its context's mark) or later on its line."""
    if mark is None:
        return None
    line = _line(text, mark.line)
    column = _VALUE_START.match(line).end()  # type: ignore[union-attr]  # (it matches "")
    first = line[column : column + 1]
    if first not in _READ_AS or (mark.column != column if exact else mark.column < column):
        return None
    return Advice(
        mark.line + 1,
        column + 1,
        f"{problem}: a value cannot start with {first}: {_READ_AS[first]}; if the "
        f"{first} belongs to the text, put the whole value in double quotes",
    )


# A key (or a list item's key) whose value is a block (`symptom: |`, `- note: >-`).
_BLOCK_HEADER = re.compile(r"([ ]*(?:- )?)([^\s#:][^#:]*):[ \t]+([|>][-+1-9]{0,2})[ \t]*(?:#.*)?")


def _unindented_block(text: str, index: int, column: int) -> str | None:
    """What to do where the text of a block (`symptom: |`) was written under its key, not
    indented further: YAML takes the block for empty, and the first line of the text for a
    key. None unless the line above the one at `index` (0-based; the first not blank) opens
    a block, and the text starts (`column`, 0-based) no further in than its key."""
    lines = _YAML_BREAK.split(text, maxsplit=index)[:index]  # (those above it, split once)
    line = next((line for line in reversed(lines) if line.strip()), None)
    header = _BLOCK_HEADER.fullmatch(line) if line is not None else None
    if header is None or column > len(header.group(1)):
        return None
    _, key, block = header.groups()
    return (
        f"the `{key}: {block}` above starts a block, which holds the lines indented under "
        "its key: indent this line, and the block's other lines, two spaces more than the key"
    )


def _started_there(problem: str, rest: str) -> tuple[int, str]:
    """A key without `: `, or a quote never closed: `rest` is the line from its start. Where
    in `rest` the slip is, and what it means."""
    if problem == "could not find expected ':'":
        # libyaml's mark is past the line's own spaces: a space there is one it does not count.
        if rest[:1].isspace():
            return 0, (
                f"this line starts with {named(rest[0])}, which YAML does not take for "
                "indentation; indent with plain spaces"
            )
        slip = _slip(rest)
        if slip is not None:
            return slip
        return 0, (
            "this line is not `key: value`; put ': ' after its key, or, "
            f"{_TEXT_GOING_ON} (`key: |`, its lines indented below)"
        )
    return 0, f"the {rest[:1]} here is never closed; end the value with {rest[:1]}"


def key_slip(rest: str) -> tuple[int, str] | None:
    """A key ended with a full-width colon where `rest` starts (`title： …`), or with a
    colon and a space YAML does not count (`title:　…`): where that character is in `rest`,
    and what to write."""
    key = _FULL_WIDTH_KEY.match(rest)
    if key is not None:
        name = rest[: key.start(1)]
        return key.start(1), (
            f"the key ends with {named(_FULL_WIDTH_COLON)}, not ':'; write '{name}: '"
        )
    key = _WIDE_SPACE_KEY.match(rest)
    if key is not None:
        name, value = rest[: key.start(1) - 1], rest[key.end(1) :]
        write = f"write '{name}: ' with a plain space" if value.strip() else "remove it"
        return key.start(1), (
            f"the ':' after the key is followed by {named(key.group(1))}, which YAML does not "
            f"take for a space; {write}"
        )
    return None


def _quoted_typographically(problem: str, line: str, line_index: int) -> Advice | None:
    """A value holding ': ' between quotes YAML takes for text (`title: “장애: 원인”`), as a
    word processor or an input method types them: the writer quoted it, but not for YAML."""
    column = _VALUE_START.match(line).end()  # type: ignore[union-attr]  # (it matches "")
    value = _COMMENT_AFTER.sub("", line[column:])
    if not (value[:1] in TYPOGRAPHIC_QUOTES and value[-1:] in TYPOGRAPHIC_QUOTES):
        return None
    words = f"a ': ' inside a value starts another key, and {typographic_quotes_advice(value)}"
    return Advice(line_index + 1, column + 1, f"{problem}: {words}")


def typographic_quotes_advice(value: str) -> str:
    """What to say of a value whose quotes are typographic ones (`“장애: 원인”`)."""
    return (
        f"the value's quotes are {named(value[0])} and {named(value[-1])}, which YAML does not "
        'take for quotes; write them as " (U+0022)'
    )


def _slip(rest: str) -> tuple[int, str] | None:
    """A character typed for one YAML needs where a key, an item or a comment starts, on a
    line that `rest` ends: where in `rest`, and what to write."""
    return key_slip(rest) or _item_slip(rest) or _hash_slip(rest)


def _hash_slip(rest: str) -> tuple[int, str] | None:
    """A comment started with a full-width `＃` where `rest` starts, which YAML reads as text."""
    return (0, _HASH_WORDS) if rest[:1] == _FULL_WIDTH_HASH else None


def _item_slip(rest: str) -> tuple[int, str] | None:
    """An item started with a dash that is not `-` where `rest` starts (`– url: …`)."""
    dash, after = rest[:1], rest[1:]
    if dash not in DASHES or (after.strip() and not after[0].isspace()):
        return None
    return 0, (
        f"the item starts with {named(rest[0])}, which YAML does not read as a list's '-'; "
        "write '-' (U+002D HYPHEN-MINUS)"
    )


def _slip_above(problem: str, text: str, line_index: int) -> Advice | None:
    """A key's or an item's slip where the text that libyaml read on from, up to
    `line_index`, starts: after `- url： …` (or `causes：`, or `– url: …`) it reads the
    lines below for more of one text, up to a line holding `key: `, whose ': ' it refuses
    there (`title: …` of the same item)."""
    lines = _YAML_BREAK.split(text)
    start = _text_start(lines, line_index)
    if start is None:
        return None
    column = _ITEM_START.match(lines[start]).end()  # type: ignore[union-attr]  # (matches "")
    slip = _slip(lines[start][column:])
    if slip is None:
        return None
    offset, words = slip
    return Advice(start + 1, column + offset + 1, f"{problem}: {words}")


def _text_start(lines: list[str], line_index: int) -> int | None:
    """The line a plain text going on to `line_index` starts on: below the line of its key
    (`facets:`), or that line itself where the text starts after the key (`- a: b`), or
    below a comment, which ends a text. Only there is a slip the text's cause: a line below
    it is more of the text, whatever it starts with."""
    start = line_index
    while start > 0 and not lines[start - 1].lstrip().startswith("#"):
        start -= 1
        if _KEY_ON_LINE.search(lines[start]):
            start += 0 if _VALUE_AFTER_KEY.search(lines[start]) else 1
            break
    return next((number for number in range(start, line_index) if lines[number].strip()), None)


def named(character: str) -> str:
    """`U+2013 EN DASH`: a character by its code point and name, as messages name one."""
    return f"U+{ord(character):04X} {unicodedata.name(character, '')}".rstrip()


def _here(problem: str, line: str, column: int) -> str | None:
    """What `problem`, found at `column` of `line`, means; None if it is no usual slip."""
    starts_line = column == len(line) - len(line.lstrip(" "))
    if starts_line and problem in (_NO_KEY, _NO_ITEM):
        slip = _item_slip(line[column:]) or _hash_slip(line[column:])
        if slip is not None:
            return slip[1]
    if problem == _NOT_ALLOWED:
        if _KEY_ON_LINE.search(line, 0, column):
            return (
                "a ': ' inside a value starts another key; put the whole value in double "
                'quotes ("…") or write it as a `|` block'
            )
        return (
            "this key is indented deeper than the key above it: line it up with the keys of "
            f"its mapping; or, {_TEXT_GOING_ON}"
        )
    if problem == _NO_KEY and starts_line:
        return (
            "nothing above this line is indented as far as it: line it up with the keys or "
            "items it belongs with"
        )
    if problem in (_NO_KEY, _NO_ITEM) and line[:column].rstrip().endswith(("'", '"')):
        return (
            "a quoted value ends at its closing quote; write a ' inside '…' as '', and a \" "
            'inside "…" as \\"'
        )
    if problem == _NO_ITEM and starts_line:
        return (
            "this line is lined up with the list's items but is not one: start it with '- ', "
            "or, if it is a key of the item above, indent it as far as that item's keys"
        )
    return None


def _line(text: str, index: int) -> str:
    lines = _YAML_BREAK.split(text)
    return lines[index] if index < len(lines) else ""
