"""`curator fix`: make the changes that fixable rules ask for, and say what was changed.

Two kinds of fix. Text fixes work on the characters, so that they also repair a file the
YAML parser refuses (a tab in the indentation): byte-order mark (IL604), CR line ends
(IL603), tabs (IL601), trailing white space (IL602). Value fixes then work on the
round-trip tree: deprecated terms (IL302), facet lists (IL304), source URLs (IL505).
A file that changes is written whole through the canonical writer, so it also comes out
in the canonical layout; a file that cannot be fixed safely is reported and left as it is.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.tokens import CommentToken

from curator.lint import display_path
from curator.model import DIMENSIONS
from curator.rules import bom, crlf, deprecated_term, facet_order, no_tabs, source_url_form
from curator.rules import trailing_whitespace as trailing
from curator.taxonomy import Taxonomy
from curator.write.atomic import write_atomic
from curator.write.canonical import Refused, render


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

    @property
    def changed(self) -> bool:
        return self.after is not None and self.after != self.before


# Text fixes -----------------------------------------------------------------------------

TextFix = Callable[[str], tuple[str, list[Change]]]
_TRAILING = re.compile(r"[ \t\u3000\u00a0]+$")


def remove_bom(text: str) -> tuple[str, list[Change]]:
    if not text.startswith("\ufeff"):
        return text, []
    return text[1:], [Change(1, 1, bom.RULE.code, "removed the byte-order mark")]


def lf_line_ends(text: str) -> tuple[str, list[Change]]:
    if "\r" not in text:
        return text, []
    count = text.count("\r\n") + text.replace("\r\n", "").count("\r")
    fixed = text.replace("\r\n", "\n").replace("\r", "\n")
    first = text.count("\n", 0, text.index("\r")) + 1
    return fixed, [Change(first, 1, crlf.RULE.code, f"changed {count} CR/CRLF line end(s) to LF")]


def tabs_to_spaces(text: str) -> tuple[str, list[Change]]:
    """A tab in the indentation becomes two spaces (the layout's indent step), any other
    tab one space."""
    lines = text.split("\n")
    changes: list[Change] = []
    for number, line in enumerate(lines, start=1):
        if "\t" not in line:
            continue
        body = line.lstrip(" \t")
        indent = line[: len(line) - len(body)].replace("\t", "  ")
        lines[number - 1] = indent + body.replace("\t", " ")
        changes.append(
            Change(number, line.index("\t") + 1, no_tabs.RULE.code, "replaced tab(s) with spaces")
        )
    return "\n".join(lines), changes


def strip_trailing_whitespace(text: str) -> tuple[str, list[Change]]:
    lines = text.split("\n")
    changes: list[Change] = []
    for number, line in enumerate(lines, start=1):
        stripped = _TRAILING.sub("", line)
        if stripped != line:
            lines[number - 1] = stripped
            changes.append(
                Change(number, len(stripped) + 1, trailing.RULE.code, "removed trailing space")
            )
    return "\n".join(lines), changes


TEXT_FIXES: tuple[TextFix, ...] = (
    remove_bom,
    lf_line_ends,
    tabs_to_spaces,
    strip_trailing_whitespace,
)

# Value fixes ----------------------------------------------------------------------------

ValueFix = Callable[[Any, Taxonomy], list[Change]]


def replace_deprecated_terms(tree: Any, taxonomy: Taxonomy) -> list[Change]:
    changes: list[Change] = []
    for dimension, terms in _facet_lists(tree):
        for index, term_id in enumerate(terms):
            term = taxonomy.term(dimension, term_id) if isinstance(term_id, str) else None
            if term is None or term.deprecated is None:
                continue
            terms[index] = term.deprecated.replaced_by
            line, column = _item_position(terms, index)
            changes.append(
                Change(
                    line,
                    column,
                    deprecated_term.RULE.code,
                    f"facets.{dimension}: {term_id} → {term.deprecated.replaced_by}",
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
        repeated = sorted({t for t in terms if list(terms).count(t) > 1})
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


VALUE_FIXES: tuple[ValueFix, ...] = (
    replace_deprecated_terms,
    tidy_facet_lists,
    tidy_source_urls,
)

# Codes of the rules each kind of fix answers; a test holds this equal to the registry's
# fixable rules.
FIXED_CODES = frozenset(
    rule.RULE.code
    for rule in (bom, crlf, no_tabs, trailing, deprecated_term, facet_order, source_url_form)
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


def _set_items(seq: CommentedSeq, values: list[str]) -> None:
    """Put `values` (the old items, sorted, repeats dropped) into `seq` in place.

    ruamel keeps, per item, one comment token: the comment at the end of the item's line,
    then any full-line comments below it. The end-of-line comment belongs to the value and
    moves with it; the lines below belong to the place (often they introduce the next key)
    and stay, those below dropped items joining the new last item."""
    tokens = {i: entry[0] for i, entry in seq.ca.items.items() if entry and entry[0] is not None}
    heads: dict[str, tuple[str, CommentToken]] = {}
    tails: dict[int, str] = {}
    for index, value in enumerate(seq):
        token = tokens.get(index)
        if token is None:
            continue
        head, _, tail = token.value.partition("\n")
        if head and value not in heads:  # (a repeat's own comment is lost, so refused)
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
        seq[index] = value
    seq.ca.items.clear()
    seq.ca.items.update(items)


# Running --------------------------------------------------------------------------------


def fix_text(raw: bytes, taxonomy: Taxonomy) -> tuple[bytes, list[Change]]:
    """The fixed bytes of one file and the changes made; the bytes unchanged if none."""
    changes: list[Change] = []
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is not None:
        for text_fix in TEXT_FIXES:
            text, made = text_fix(text)
            changes += made
    fixable = text.encode("utf-8") if text is not None else raw

    def edit(tree: Any) -> None:
        for value_fix in VALUE_FIXES:
            changes.extend(value_fix(tree, taxonomy))

    out = render(fixable, edit)  # Refused propagates: nothing is written
    if not changes:
        return raw, []
    return out.encode("utf-8"), sorted(changes)


def fix_file(path: Path, taxonomy: Taxonomy, cwd: Path | None = None) -> Fixed:
    display = display_path(path, cwd)
    before = path.read_bytes()
    try:
        after, changes = fix_text(before, taxonomy)
    except Refused as refused:
        return Fixed(path, display, before, refused=refused)
    return Fixed(path, display, before, after, changes)


def fix_files(paths: Sequence[Path], taxonomy: Taxonomy, cwd: Path | None = None) -> list[Fixed]:
    results = [fix_file(path, taxonomy, cwd) for path in paths]
    for result in results:
        if result.changed:
            assert result.after is not None
            write_atomic(result.path, result.after)
    return results
