"""Shared by the rules that report what the loader found before any document existed."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from curator.document import Document, Position, items_in_text
from curator.findings import Finding
from curator.load import UNICODE_BREAKS, Loaded, LoadProblem, Problem, load_bytes
from curator.rules import facet_order, invisible_characters, unicode_nfc
from curator.rules._spaces import inside, scalar_spans
from curator.rules.base import IncidentFile, Mended, Rule
from curator.textnorm import composed, long_run
from curator.unseen import zero_width
from curator.write.edits import apply, repairs, tab_edits


def report(file: IncidentFile, kind: Problem, rule: Rule) -> list[Finding]:
    return [
        rule.at(file.display, problem.position, problem.message)
        for problem in file.loaded.problems
        if problem.kind is kind and not (kind is Problem.SYNTAX and at_a_tab(file.loaded, problem))
    ]


def at_a_tab(loaded: Loaded, problem: LoadProblem) -> bool:
    """Whether a syntax error stands at a tab, which IL601 reports (and `curator fix`
    replaces), saying that the file cannot be read until then: one finding, not two."""
    if problem.kind is not Problem.SYNTAX or loaded.text is None:
        return False
    line, column = problem.position
    lines = loaded.text.split("\n")  # (as the loader places its problems)
    return line <= len(lines) and lines[line - 1][column - 1 : column] == "\t"


def fix_reads(file: IncidentFile) -> bool:
    """Whether `curator fix` takes the file whole (`_fix_reads`), worked out once a file."""
    if file.fix_reads is None:
        file.fix_reads = _fix_reads(file)
    return file.fix_reads


def _fix_reads(file: IncidentFile) -> bool:
    """Whether `curator fix` reads the file once its text fixes are made (`mended`): a
    mapping, its list items still items. Where it does not, fix leaves the file whole
    ("cannot be read", "no list item", "not a list", "a comment line above an item",
    `facet_order.by_hand`), and no finding in it is fixable."""
    mended = file.mended = _mended(file.loaded)
    if mended is None or not _rewritable(mended.document, mended.text):
        return False
    return mended.document is not file.loaded.document or not facet_order.by_hand(file)


def fix_reads_unread(loaded: Loaded) -> bool:
    """`fix_reads` of a file the loader reads no document of (it stops at a tab, say),
    which asks nothing of it but its text: for what tells of such a file without lint's
    other rules (the notes of `curator similar`), in lint's words."""
    mended = _mended(loaded)
    return mended is not None and _rewritable(mended.document, mended.text)


def mended(file: IncidentFile) -> Mended | None:
    """The file as `curator fix` reads it (`_mended`); None where it cannot."""
    fix_reads(file)
    return file.mended


def _mended(loaded: Loaded) -> Mended | None:
    """The file's text once its text fixes are made as `curator fix` makes them
    (`curator.fix.TEXT_FIXES`), and what the loader reads of it; None where it reads
    nothing. At no cost for a file the loader reads without a problem (nearly every one);
    else one more read. (Trailing white space is left out: the parser never stops at it,
    so its repairs mend no file.)"""
    if not loaded.problems:
        return Mended(loaded.text, loaded.document) if loaded.text is not None else None
    text = loaded.text
    if text is None:
        return None
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if zero_width(text) is not None:
        text = invisible_characters.removal(load_bytes(text.encode("utf-8"))).text
    if unicode_nfc.decomposed(text) is not None:
        if long_run(text) is not None:
            return None  # (fix refuses to compose it)
        text = composed(text)
    spaces = repairs(text, tab_edits(text))
    lines = text.split("\n")
    tabs = (
        (number, column)
        for number, line in enumerate(lines)
        for column, char in enumerate(line)
        if char == "\t"
    )
    spaced = {(e.line, column) for e in spaces for column in range(e.start, e.end)}
    kept = tuple(index for index, tab in enumerate(tabs) if tab not in spaced)
    text = apply(text, spaces)
    mended = load_bytes(text.encode("utf-8"))
    return Mended(text, mended.document, kept) if not mended.problems else None


def tab_in_plain_value(file: IncidentFile) -> bool:
    """Whether a plain (unquoted) value or key holds a tab once fix's text fixes are made
    (`mended`: a tab the loader stops at elsewhere does not hide it), which ruamel.yaml
    cannot read: `curator fix` refuses the file at it (`_tab_in_text`). At no cost for a
    file without a tab."""
    return next(_plain_tabs(file), None) is not None


def plain_tabs(file: IncidentFile) -> dict[Position, bool]:
    """The tabs of `tab_in_plain_value`, each with whether it is in a key, at their places
    in the file as it is: the text fixes keep every tab but those fix puts spaces for, so
    the nth tab fix reads is the nth the file has of those it keeps (`Mended.tabs`). At
    no cost for a file without a tab."""
    read = mended(file)
    text = file.loaded.text
    found = dict(_plain_tabs(file))
    if read is None or text is None or read.tabs is None or not found:
        return found
    by_count = {where: index for index, where in enumerate(_tabs(read.text))}
    in_file = list(_tabs(text))
    return {in_file[read.tabs[by_count[where]]]: in_key for where, in_key in found.items()}


def _tabs(text: str) -> Iterator[Position]:
    for number, line in enumerate(text.split("\n"), start=1):
        column = line.find("\t") + 1
        while column:
            yield Position(number, column)
            column = line.find("\t", column) + 1


def _plain_tabs(file: IncidentFile) -> Iterator[tuple[Position, bool]]:
    """Each tab in a plain key or value once fix's text fixes are made, and whether it is
    in a key. Values do not nest, so the one holding a place is the last to start before
    it."""
    read = mended(file) if file.loaded.text is not None and "\t" in file.loaded.text else None
    if read is None or read.document is None or "\t" not in read.text:
        return
    lines = read.text.split("\n")
    for (*_, key), start in read.document.key_positions.items():
        if (
            isinstance(key, str)
            and "\t" in key
            and lines[start.line - 1][start.column - 1 : start.column] not in ("'", '"')
        ):
            yield Position(start.line, start.column + key.index("\t")), True
    spans = scalar_spans(read.document, lines)
    for number, line in enumerate(lines, start=1):
        column = line.find("\t") + 1
        while column:
            where = Position(number, column)
            if inside(spans, where):
                start = spans.starts[bisect_right(spans.starts, where) - 1]
                if lines[start.line - 1][start.column - 1 : start.column] not in ("'", '"', " "):
                    yield where, False  # (a block's text starts at column 1 of its next line)
            column = line.find("\t", column) + 1


# A key with nothing after it on its line but a comment (`status: # 확인 중`).
_KEY_THEN_COMMENT = re.compile(r"^[^#\n]*:[ \t]+#", re.MULTILINE)


def ruamel_refuses(file: IncidentFile) -> bool:
    """Whether ruamel.yaml, which `curator fix` writes with, cannot take the file as fix
    reads it (`mended`), so that fix refuses it (`canonical.render`): a NEL, U+2028 or
    U+2029 it reads otherwise than the loader (in a `|` block, indented text after one;
    IL603's), or a comment after a key whose value starts on the next line with a blank
    line after that value (`canonical._comment_overlap`). One ruamel.yaml read, lazily
    imported, and only for a file holding such a break or such a comment: nearly none."""
    text = file.loaded.text
    if text is None or not (
        any(char in text for char in UNICODE_BREAKS) or _KEY_THEN_COMMENT.search(text)
    ):
        return False
    read = mended(file)
    if read is None or read.document is None:
        return False
    from curator.write.canonical import Refused, as_loaded

    try:
        as_loaded(read.text, read.document.data)
    except Refused:
        return True
    return False


def _rewritable(document: Document | None, text: str) -> bool:
    """Whether the canonical writer takes a document the loader read from `text`: a mapping
    (`_refuse_a_document_not_a_mapping`), no list item in its text (`…_list_item_in_text`)."""
    if document is None or not isinstance(document.data, dict):
        return False
    return not document.folded or next(items_in_text(document, text.split("\n")), None) is None
