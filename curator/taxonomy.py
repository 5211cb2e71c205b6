"""The controlled vocabulary: four dimensions of terms, loaded and checked for consistency."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import ValidationError

from curator.closest import NameIndex
from curator.document import Document, items_in_text, value_at
from curator.document import Path as KeyPath
from curator.load import (
    MAX_BYTES,
    START,
    UNICODE_BREAKS,
    Loaded,
    Position,
    at_editor_lines,
    load_bytes,
    position_at,
    renumber,
)
from curator.model import DIMENSIONS, Dimension, TaxonomyFile, Term
from curator.regular import content_digest, read_regular
from curator.schema_errors import SchemaError, describe_errors, dotted
from curator.textnorm import normalized
from curator.unseen import (
    WHITE_SPACE,
    ZERO_WIDTH,
    may_end_a_line_in_white_space,
    shown_lines,
    zero_width,
)


@dataclass(frozen=True)
class TaxonomyProblem:
    path: Path
    position: Position
    message: str


@dataclass
class Taxonomy:
    terms: dict[str, dict[str, Term]] = field(default_factory=lambda: {d: {} for d in DIMENSIONS})
    problems: list[TaxonomyProblem] = field(default_factory=list)
    # What leaves every term readable but a name or a place unclear (IL305), apart from
    # the problems: a command that says "the taxonomy is broken" must not say it for these.
    warnings: list[TaxonomyProblem] = field(default_factory=list)
    # Where each term of each dimension is defined, for messages about the links between
    # terms and about an id used twice.
    origins: dict[tuple[str, str], tuple[Path, Position]] = field(default_factory=dict)
    # Where each term left out for a schema error of its own is defined, by its id when it
    # has one: an incident carrying it is told that its definition is broken, not that it
    # is no term, and no command takes another term's alias for it.
    broken: dict[tuple[str, str], tuple[Path, Position]] = field(default_factory=dict)
    # For each of those, its own schema errors, and what its labels and aliases as written
    # name (folded, by dimension): `curator new`, given it by any of its names, says what to
    # mend where, not that the name is no term.
    _why_broken: dict[tuple[str, str], list[TaxonomyProblem]] = field(
        default_factory=dict, repr=False, compare=False
    )
    _broken_names: dict[tuple[str, str], str] = field(
        default_factory=dict, repr=False, compare=False
    )
    # What each dimension file held as it was read (the SHA-256 of its bytes, or why it
    # could not be read): what a cached result that depends on the taxonomy is kept under,
    # taken from the very bytes loaded, so that a save while curator runs cannot split them.
    sources: dict[str, str] = field(default_factory=dict)
    # Every YAML file of its folder, read or not, in order: what its problems are reported
    # against (listed once, as it was loaded).
    files: list[Path] = field(default_factory=list)
    _names: dict[str, dict[str, str]] = field(default_factory=dict, repr=False, compare=False)
    _one_term_names: dict[str, dict[str, str | None]] = field(
        default_factory=dict, repr=False, compare=False
    )
    _indexes: dict[str, NameIndex] = field(default_factory=dict, repr=False, compare=False)
    # did_you_mean's answers: a taxonomy change can leave one unknown term in many files.
    _hints: dict[tuple[str, str], list[str]] = field(
        default_factory=dict, repr=False, compare=False
    )
    # lineage's answers: a search asks for each facet of each incident.
    _lines: dict[tuple[str, str], frozenset[str]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def term(self, dimension: str, term_id: str) -> Term | None:
        return self.terms.get(dimension, {}).get(term_id)

    def first_problem(self) -> str | None:
        """The first problem, where it is, and how many more: for a command that works on
        with what could be read (`curator lint` reports them all)."""
        return _first_of(self.problems)

    def file_problem(self, dimension: str) -> str | None:
        """As `first_problem`, of `dimension`'s own file only."""
        name = f"{dimension}.yaml"
        return _first_of([p for p in self.problems if p.path.name == name])

    def broken_term(self, dimension: str, text: str) -> str | None:
        """The id of the term of `dimension` left out for a schema error of its own that
        `text` names: its id, or, as written, one of its labels or aliases."""
        if (dimension, text) in self.broken:
            return text
        return self._broken_names.get((dimension, fold(text)))

    def why_broken(self, dimension: str, term_id: str) -> str | None:
        """For a term left out for schema errors of its own, the first, where it is, and
        how many more: what to mend (or where the term is, if none was placed in it)."""
        if (dimension, term_id) not in self.broken:
            return None
        path, where = self.broken[dimension, term_id]
        own = _first_of(self._why_broken.get((dimension, term_id), []))
        return own or f"{_shown(path)}:{where.line}:{where.column}"

    def where(self, dimension: str, term_id: str) -> str:
        """Where a term of `dimension` is defined: `schema/taxonomy/causes.yaml:3:9`."""
        path, position = self.origins[dimension, term_id]
        return f"{_shown(path)}:{position.line}:{position.column}"

    def dimension_of(self, term_id: str) -> str | None:
        return next((d for d in DIMENSIONS if term_id in self.terms[d]), None)

    def not_a_term(self, dimension: str, term_id: str, say_how: bool = True) -> str:
        """Why `term_id` names no term of `dimension`, in words: the dimension that has it,
        or the terms it may be a misspelling of; or, for a term whose definition is broken,
        where that is, and that its IL303 errors say how unless not `say_how` (IL301 says
        the file could not be read instead). Lint (IL301, IL303), `new` and `search` say it
        so."""
        if (dimension, term_id) in self.broken:
            path, where = self.broken[dimension, term_id]
            how = " (its IL303 errors say how)" if say_how else ""
            return (
                f"{term_id!r} is a term of {dimension} whose definition is broken, at "
                f"{_shown(path)}:{where.line}:{where.column}{how}"
            )
        message = f"{term_id!r} is not a term of {dimension}"
        home = self.dimension_of(term_id)
        if home:
            return f"{message} (it is a term of {home})"
        hint = self.did_you_mean(dimension, term_id)
        return message + (f"; did you mean {' or '.join(map(repr, hint))}?" if hint else "")

    def unread(self, dimension: str) -> str | None:
        """The file of `dimension` (`schema/taxonomy/causes.yaml`) when none of its terms
        could be read, as a typo in one term's key leaves it: then every term of it is
        unknown, and the file is what to fix (its problems say how)."""
        if self.terms[dimension]:
            return None
        name = f"{dimension}.yaml"
        return next((_shown(p.path) for p in self.problems if p.path.name == name), None)

    def replacement(self, dimension: str, term_id: str) -> str | None:
        """The term to write for deprecated `term_id`: its `replaced_by`, when that is a
        current term of `dimension`. None when `term_id` is not deprecated, and when its
        replacement is no term or is deprecated itself (IL303): `curator fix` must not
        write a term lint refuses, nor move incidents along a chain or round a cycle."""
        term = self.term(dimension, term_id)
        if term is None or term.deprecated is None:
            return None
        replacement = self.term(dimension, term.deprecated.replaced_by)
        if replacement is None or replacement.deprecated is not None:
            return None
        return replacement.id

    def use_instead(self, dimension: str, term_id: str) -> str:
        """What to write for deprecated `term_id`, in words (IL302, `curator new`)."""
        replacement = self.replacement(dimension, term_id)
        if replacement is not None:
            return f"use {replacement!r}"
        term = self.term(dimension, term_id)
        named = term.deprecated.replaced_by if term and term.deprecated else None
        broken = (
            "is deprecated too"
            if self.term(dimension, named or "")
            else f"is not a term of {dimension}"
        )
        return (
            f"its replacement {named!r} {broken}: once the taxonomy names a current one "
            "(IL303), `curator fix` replaces it"
        )

    def ancestors(self, dimension: str, term_id: str) -> Iterator[str]:
        seen = {term_id}
        term = self.term(dimension, term_id)
        while term is not None and term.parent and term.parent not in seen:
            seen.add(term.parent)
            yield term.parent
            term = self.term(dimension, term.parent)

    def lineage(self, dimension: str, term_id: str) -> frozenset[str]:
        """The term and its ancestors, and for a deprecated term its replacement and that
        one's: the terms an incident carrying it carries too (until `curator fix` writes
        the replacement)."""
        line = self._lines.get((dimension, term_id))
        if line is None:
            line = frozenset([term_id, *self.ancestors(dimension, term_id)])
            replacement = self.replacement(dimension, term_id)
            if replacement is not None:
                line |= self.lineage(dimension, replacement)
            self._lines[(dimension, term_id)] = line
        return line

    def names(self, dimension: str) -> dict[str, str]:
        """Folded id, labels and aliases → term id, for one dimension (built once). A name
        that two terms share is decided as `_NAME_LEVELS` orders names, then for the term
        listed first: an alias written before a term was added must not hide that term's
        own id (local-nvme's `local disk` is local-disk's label and id)."""
        if dimension not in self._names:
            terms = self.terms.get(dimension, {}).values()
            names: dict[str, str] = {}
            for names_of in _NAME_LEVELS:
                for term in terms:
                    for name in names_of(term):
                        names.setdefault(fold(name), term.id)
            self._names[dimension] = names
        return self._names[dimension]

    def named_term(self, dimension: str, text: str) -> str | None:
        """The id of the one term of `dimension` that `text` names: the term whose id it
        is, else, as `fold` compares names (`GPU`, `용량 한계`, `Capacity limit`, an
        alias), the one term at the first of `_NAME_LEVELS` that has the name. None when
        no term is so named, or more than one is at that level (an alias two terms share
        names neither), and for the id of a term whose definition is broken: another term's
        alias is not what it means."""
        if text in self.terms.get(dimension, {}):
            return text
        if (dimension, text) in self.broken:
            return None
        folded = fold(text)
        if not folded:
            return None
        if dimension not in self._one_term_names:
            self._one_term_names[dimension] = _one_term_names(self.terms.get(dimension, {}))
        return self._one_term_names[dimension].get(folded)

    def did_you_mean(self, dimension: str, text: str) -> list[str]:
        """Term ids of `dimension` whose id, label or alias is close to `text`."""
        names = self.names(dimension)
        wanted = fold(text)
        if wanted in names:
            return [names[wanted]]
        if (dimension, wanted) not in self._hints:
            if dimension not in self._indexes:
                self._indexes[dimension] = NameIndex(names)
            self._hints[dimension, wanted] = _closest(self._indexes[dimension], wanted)
        return list(self._hints[dimension, wanted])


def _first_of(problems: list[TaxonomyProblem]) -> str | None:
    """The first of `problems`, where it is, and how many more."""
    if not problems:
        return None
    first = problems[0]
    line, column = first.position
    more = len(problems) - 1
    where = f"{_shown(first.path)}:{line}:{column}"
    return f"{where}: {first.message}" + (f" (and {more} more)" if more else "")


def _shown(path: Path) -> str:
    """A taxonomy file as messages name it: `schema/taxonomy/causes.yaml`."""
    return "/".join(path.parts[-3:])


# The names of a term, in the order a name two terms share is decided by: a term's id
# before another's label, a label before another's alias.
_NAME_LEVELS: tuple[Callable[[Term], Iterable[str]], ...] = (
    lambda term: (term.id,),
    lambda term: (term.label.ko, term.label.en),
    lambda term: term.aliases,
)


def _one_term_names(terms: dict[str, Term]) -> dict[str, str | None]:
    """Folded names → the one term named so, or None for a name two terms share at the
    first of `_NAME_LEVELS` that has it."""
    named: dict[str, str | None] = {}
    for names_of in _NAME_LEVELS:
        level: dict[str, str | None] = {}
        for term in terms.values():
            for name in {fold(name) for name in names_of(term)} - named.keys():
                level[name] = term.id if level.get(name, term.id) == term.id else None
        named.update(level)
    return named


def _closest(index: NameIndex, wanted: str) -> list[str]:
    """Up to three term ids whose names' ratio with `wanted` is 0.6 or more, closest first."""
    matcher = difflib.SequenceMatcher(None, b=wanted)  # caches its analysis of `wanted`
    scored: dict[str, float] = {}
    # The index rules out, without looking at them, the names whose quick_ratio is too low.
    for name, term_id in index.candidates(wanted, 0.6):
        matcher.set_seq1(name)
        scored[term_id] = max(matcher.ratio(), scored.get(term_id, 0.0))
    best = max(scored.values(), default=0.0)
    # Only the close calls: a clear winner is offered alone.
    ranked = sorted(
        (t for t, s in scored.items() if s >= 0.6 and s >= best - 0.05),
        key=lambda t: -scored[t],
    )
    return ranked[:3]


def fold(text: str) -> str:
    """Case-, width- and separator-insensitive form used to compare names."""
    return "".join(filter(str.isalnum, normalized("NFKC", text).casefold()))


# The taxonomy's files: one a dimension, and no other.
FILES = tuple(f"{dimension}.yaml" for dimension in DIMENSIONS)


def load_taxonomy(folder: Path) -> Taxonomy:
    taxonomy = Taxonomy(files=_yaml_files(folder))
    labels: list[_Label] = []
    for dimension, name in zip(DIMENSIONS, FILES, strict=True):
        labels += _load_dimension(taxonomy, folder / name, dimension)
    for path in taxonomy.files:
        if path.name not in FILES:
            _note_unread(taxonomy, path)
    _check_links(taxonomy)
    _check_labels(taxonomy, labels)
    return taxonomy


def _yaml_files(folder: Path) -> list[Path]:
    """The `.yaml` and `.yml` files of `folder` (in any case), hidden ones left out."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []  # (each dimension's file says that it cannot be read)
    yaml = (".yaml", ".yml")
    return [folder / n for n in names if not n.startswith(".") and n.lower().endswith(yaml)]


def _note_unread(taxonomy: Taxonomy, path: Path) -> None:
    """A YAML file of the folder that is no dimension's (`contributing-factors.yaml`,
    `causes.yml`, a dimension proposed): nothing reads it, so the terms it holds would be
    unknown to every incident, and its mistakes unseen. It is named among the taxonomy's
    sources too, so that a cached result made without it is not taken for one made with
    it."""
    stem = path.name.lower().rsplit(".", 1)[0]
    meant = difflib.get_close_matches(stem, DIMENSIONS, n=1, cutoff=0.75)
    message = (
        f"{path.name} is not read: the taxonomy's files are {', '.join(FILES)}"
        + (f"; did you mean {meant[0]}.yaml?" if meant else "")
        + " (a new dimension is a change to curator itself)"
    )
    taxonomy.sources[path.name] = "not read"
    taxonomy.problems.append(TaxonomyProblem(path, START, message))


def _load_dimension(taxonomy: Taxonomy, path: Path, dimension: Dimension) -> list[_Label]:
    """Reads the terms of `dimension` into `taxonomy`, with their problems; gives where
    the labels of the terms kept are, for `_check_labels`."""
    try:
        # A regular file, never through a link, as an incident: a FIFO blocked every
        # command, and a link to /dev/zero filled the memory. Read no further than
        # `load_bytes` reads (a file past it is refused, IL303: not read whole to be).
        raw = read_regular(path, MAX_BYTES)
    except OSError as exc:
        message = f"cannot read: {exc.strerror}"
        taxonomy.sources[path.name] = message
        taxonomy.problems.append(TaxonomyProblem(path, START, message))
        if path not in taxonomy.files:  # (missing: shown by its place in the library all the same)
            taxonomy.files.append(path)
        return []
    taxonomy.sources[path.name] = content_digest(raw)
    loaded = load_bytes(raw)
    problems, warnings = len(taxonomy.problems), len(taxonomy.warnings)
    for problem in loaded.problems:
        taxonomy.problems.append(TaxonomyProblem(path, problem.position, problem.message))
    _check_text(taxonomy, path, loaded)
    moved = at_editor_lines(loaded.text)
    if moved is not None:  # (lone CR line ends: every place on the line its editor shows)
        for found, since in ((taxonomy.problems, problems), (taxonomy.warnings, warnings)):
            found[since:] = [replace(p, position=moved(p.position)) for p in found[since:]]
        renumber(loaded.document, moved)  # (and so what is placed by it from here on)
    if loaded.document is None:
        return []
    document = loaded.document
    declared = document.data.get("dimension") if isinstance(document.data, dict) else None
    if declared in DIMENSIONS and declared != dimension:
        taxonomy.problems.append(
            TaxonomyProblem(
                path,
                document.position(("dimension",)),
                f"dimension is {declared!r} but the file is {dimension}.yaml",
            )
        )
    kept = []
    for index, term in _valid_terms(taxonomy, path, document, dimension):
        where = document.position(("terms", index, "id"))
        if _repeats(taxonomy, dimension, term.id, (path, where)):
            continue
        taxonomy.terms[dimension][term.id] = term
        taxonomy.origins[dimension, term.id] = (path, where)
        kept.append((index, term))
    for where, message in _alias_clashes(kept, document, path.name):
        taxonomy.warnings.append(TaxonomyProblem(path, where, message))
    return [
        _Label(dimension, term.id, what, text, path, document.position(("terms", index, *loc)))
        for index, term in kept
        for what, text, loc in (
            ("Korean label", term.label.ko, ("label", "ko")),
            ("English label", term.label.en, ("label", "en")),
        )
    ]


def _check_text(taxonomy: Taxonomy, path: Path, loaded: Loaded) -> None:
    """What the text of a dimension's file holds that reads otherwise than it looks, as
    an incident's would be told (IL109, IL604, IL606, IL602): `- ` lines that YAML joins
    to the text above (an `aliases:` line deleted: the aliases are gone, and the
    description holds them); a byte-order mark after the first (ruamel.yaml reads it as
    part of the first key); a zero-width character (a name holding one in a word is not
    found in text by `suggest`, `search` and `new`); errors all. And, a
    warning, white space ending a line. A letter not in NFC, or a tab, changes no name as
    `fold` and the phrases compare them, and `curator fmt` writes no taxonomy file: left
    alone. A few scans, once a run."""
    text = loaded.text
    if text is None:
        return
    document, lines = loaded.document, text.split("\n")
    marks: dict[KeyPath, list[Position]] = {}
    for key, line, column in items_in_text(document, lines) if document else ():
        marks.setdefault(key, []).append(Position(line, column))
    for key, found in marks.items():
        first = lines[found[0].line - 1][found[0].column - 1 :].rstrip()
        message = _joined_items(document.data if document else None, key, first, len(found))
        taxonomy.problems.append(TaxonomyProblem(path, found[0], message))
    after_first = len(text) - len(text.lstrip("\ufeff"))  # (`text` follows the first)
    boms = loaded.bom + after_first
    if boms > 1:
        message = (
            f"{boms} byte-order marks start the file: curator reads past them, but another "
            "YAML reader (ruamel.yaml) takes all but the first for part of the first key; "
            "remove them (UTF-8 needs none)"
        )
        taxonomy.problems.append(TaxonomyProblem(path, START, message))
    unseen = zero_width(text, after_first)  # (the marks after the first said above)
    if unseen is not None:
        message = (
            f"U+{ord(unseen.char):04X} {ZERO_WIDTH[unseen.char]}, which shows as nothing and "
            "splits the word it is in: `suggest`, `search` and `new` do not find a name "
            "holding it in text"
            + (f" ({unseen.total} zero-width characters in the file)" if unseen.total > 1 else "")
            + "; remove it"
        )
        taxonomy.problems.append(TaxonomyProblem(path, unseen.position, message))
    _check_line_ends(taxonomy, path, text)
    if may_end_a_line_in_white_space(text):
        lone_cr = at_editor_lines(text) is not None
        ends = [
            Position(number, start + len(shown.rstrip(WHITE_SPACE)) + 1)
            for number, line in enumerate(lines, 1)
            for start, shown in shown_lines(line, lone_cr)
            if shown != shown.rstrip(WHITE_SPACE)
        ]
        if ends:
            more = f" ({len(ends)} lines end in it)" if len(ends) > 1 else ""
            message = f"trailing white space{more}; remove it"
            taxonomy.warnings.append(TaxonomyProblem(path, ends[0], message))


def _check_line_ends(taxonomy: Taxonomy, path: Path, text: str) -> None:
    """A line break that YAML readers and a diff count otherwise (IL603 for an incident),
    at the first: a lone CR, a line break to every YAML reader and to none of git, GitHub
    or, among LF line ends, the line numbers lint gives (`at_editor_lines`) (a key after
    one is read, and reviewed as part of the line before); U+0085, U+2028 or U+2029, a
    line break to curator (YAML 1.1) and not to editors, GitHub or ruamel.yaml (YAML 1.2):
    errors. CRLF every reader reads as LF, and git writes LF where `.gitattributes` says
    `eol=lf`: a warning, as trailing white space is (noise in diffs). Nearly every file
    holds none: a scan for each character."""
    if "\r" in text:
        crlf = text.count("\r\n")
        lone = text.count("\r") - crlf
        found = _LONE_CR.search(text) if lone else None
        if found is not None:
            also = f" (and {crlf} with CRLF)" if crlf else ""
            # (Lint counts a file of lone CR line ends by the lines its editor shows.)
            not_for = "git, GitHub or lint's line numbers"
            if at_editor_lines(text) is not None:
                not_for = "git or GitHub"
            message = (
                f"{_lines_end(lone)} with a lone CR{also}, which starts a line for YAML "
                f"readers but not for {not_for}; use LF"
            )
            taxonomy.problems.append(
                TaxonomyProblem(path, position_at(text, found.start()), message)
            )
        else:
            message = f"{_lines_end(crlf)} with CRLF; use LF (every YAML reader reads them alike)"
            where = position_at(text, text.index("\r"))
            taxonomy.warnings.append(TaxonomyProblem(path, where, message))
    if "\x85" in text or "\u2028" in text or "\u2029" in text:
        first = min(place for char in UNICODE_BREAKS if (place := text.find(char)) >= 0)
        char = text[first]
        message = (
            f"U+{ord(char):04X} {UNICODE_BREAKS[char]} ends a line for YAML 1.1 (curator) but "
            "not for editors, GitHub or YAML 1.2 readers (ruamel.yaml); replace it with a line "
            "feed or a space"
        )
        taxonomy.problems.append(TaxonomyProblem(path, position_at(text, first), message))


def _lines_end(count: int) -> str:
    return f"{count} line{'s end' if count != 1 else ' ends'}"


_LONE_CR = re.compile("\r(?!\n)")
_SHOWN = 60  # characters of a text holding list items quoted


def _joined_items(data: Any, key: KeyPath, first: str, count: int) -> str:
    """What `count` list marks joined to the text at `key` mean (IL109's shape), the
    first written `first`: its term's aliases, most likely, once the `aliases:` line above
    them was deleted."""
    value, term_id = value_at(data, key), value_at(data, (*key[:2], "id"))
    term = f"term {term_id!r}: " if isinstance(term_id, str) and key[:1] == ("terms",) else ""
    shown = ""
    if isinstance(value, str):
        start = max(value.find(first), 0)  # (the text from the first mark on)
        joined = value[start:]
        joined = joined if len(joined) <= _SHOWN else joined[: _SHOWN - 1] + "…"
        shown = f", so {dotted(key)} ends in “{'…' * bool(start)}{joined}”"
    if count == 1:
        these, them, are = "this line is no list item", "it", "it is"
    else:
        these, them, are = (
            f"this line and {count - 1} more below are no list items",
            "them",
            "they are",
        )
    return (
        f"{term}{these}: YAML joins {them} to the text above{shown}; if {are} the term's "
        f"aliases, write `aliases:` above, at the indent of `{key[-1]}:`; if "
        f"{'the mark belongs' if count == 1 else 'the marks belong'} to the text, quote the "
        "whole value"
    )


def _valid_terms(
    taxonomy: Taxonomy, path: Path, document: Document, dimension: str
) -> list[tuple[int, Term]]:
    """The file's valid terms, each with its index. Every schema error is reported where
    it is; a term with one is left out (and noted in `broken`) and the others are kept:
    one misspelt key used to drop the whole dimension, and every incident carrying any of
    its terms was told that its term was none. Only a file that is no mapping, or whose
    `terms` is no list, gives none."""
    try:
        return list(enumerate(TaxonomyFile.model_validate(document.data).terms))
    except ValidationError as exc:
        # (Every error: a misspelt `terms` is described at the misspelling alone.)
        failed = [tuple(error["loc"]) for error in exc.errors(include_url=False)]
        errors = describe_errors(exc, TaxonomyFile)
    found = [
        TaxonomyProblem(path, document.locate(error.loc, error.at_key), error.message)
        for error in errors
    ]
    taxonomy.problems += _once_a_mistake(errors, found)
    if () in failed or ("terms",) in failed:
        return []
    items: list[Any] = document.data["terms"]
    broken = {loc[1] for loc in failed if loc[0] == "terms" and isinstance(loc[1], int)}
    for index in broken:
        item = items[index] if isinstance(items[index], dict) else {}
        term_id = item.get("id")
        if isinstance(term_id, str) and (dimension, term_id) not in taxonomy.broken:
            where = document.position(("terms", index, "id"))
            taxonomy.broken[dimension, term_id] = (path, where)
            own = [p for e, p in zip(errors, found, strict=True) if e.loc[:2] == ("terms", index)]
            taxonomy._why_broken[dimension, term_id] = own
            for name in _written_names(item):
                taxonomy._broken_names.setdefault((dimension, fold(name)), term_id)
    return [(i, Term.model_validate(item)) for i, item in enumerate(items) if i not in broken]


def _once_a_mistake(
    errors: list[SchemaError], found: list[TaxonomyProblem]
) -> list[TaxonomyProblem]:
    """`found`, each mistake made alike in several terms (a key misspelt in every one) said
    once, at the first, with how many more terms make it and the line of the last: one a
    term, 28 errors in symptoms.yaml for one search and replace, buried any other."""
    alike: dict[str, list[TaxonomyProblem]] = {}
    for error, problem in zip(errors, found, strict=True):
        index = error.loc[1] if error.loc[:1] == ("terms",) and len(error.loc) > 1 else None
        said = problem.message.replace(f"terms[{index}]", "terms[]")
        alike.setdefault(said if isinstance(index, int) else str(id(problem)), []).append(problem)
    once = []
    for first, *more in alike.values():
        if more:
            terms = f"{len(more)} more term{'s' * (len(more) != 1)}"
            last = more[-1].position.line
            first = replace(
                first, message=f"{first.message}; the same in {terms}, the last at line {last}"
            )
        once.append(first)
    return once


def _written_names(item: dict[str, Any]) -> list[str]:
    """The labels and aliases of a term that breaks the schema, those written as text."""
    label, aliases = item.get("label"), item.get("aliases")
    names = [*label.values()] if isinstance(label, dict) else []
    names += aliases if isinstance(aliases, list) else []
    return [name for name in names if isinstance(name, str) and fold(name)]


class _Name(NamedTuple):
    term_id: str
    what: str  # "id", "Korean label", "English label", "alias"
    text: str
    loc: KeyPath  # (in the file)


def _alias_clashes(
    terms: list[tuple[int, Term]], document: Document, file: str
) -> Iterator[tuple[Position, str]]:
    """Each alias that is another term's id or label, or that another term has too, as
    `fold` compares names (case, width, spacing, NFC or NFD): where it is, and why it
    matters. A name two terms share at one of `_NAME_LEVELS` names neither (`named_term`:
    `fix`, `new` and `search` cannot take it for a term); another's id or label is taken
    for that term alone; and text saying either is evidence for both. And each alias that
    says its own term's id, label or earlier alias again (`_said_again`)."""
    named: dict[str, list[_Name]] = {}
    again: set[KeyPath] = set()
    for index, term in terms:
        at = ("terms", index)
        own = [
            _Name(term.id, "id", term.id, (*at, "id")),
            _Name(term.id, "Korean label", term.label.ko, (*at, "label", "ko")),
            _Name(term.id, "English label", term.label.en, (*at, "label", "en")),
            *(_Name(term.id, "alias", a, (*at, "aliases", i)) for i, a in enumerate(term.aliases)),
        ]
        for alias, first in _said_again(own):
            again.add(alias.loc)
            yield document.position(alias.loc), _repeat(alias, first, document, file)
        for name in own:
            named.setdefault(fold(name.text), []).append(name)
    for names in named.values():
        if len({name.term_id for name in names}) < 2:
            continue
        # A term's own id or label first: the alias repeating it in its own term is no
        # clash (`named_term` takes the name for that term); another's is told it is one.
        names.sort(key=lambda name: name.what == "alias")
        for alias in names:
            other = next(n for n in names if n.term_id != alias.term_id)
            mine = next(n for n in names if n.term_id == alias.term_id)
            if alias.what == "alias" and mine.what == "alias" and alias.loc not in again:
                yield document.position(alias.loc), _clash(alias, other, document, file)


def _said_again(names: list[_Name]) -> Iterator[tuple[_Name, _Name]]:
    """Each alias among one term's `names` written as a name before it (its id, a label,
    an alias) but for case, width and composition, with that first name. `fix`, `new`
    and `search` take the two for one name (`fold`), and `suggest` looks for one phrase in
    text, so the second is only more to read, in the file and in the export's
    taxonomy.json; or worse, an alias in small letters tells `search` that the word is a
    common one (`postgres` beside `Postgres`). Names apart or together otherwise
    (`kubeproxy` beside `kube-proxy`) are two spellings: text written so is matched by the
    one alone. (The first named is the one written alike, if any: `NCCL` is its label.)"""
    before: dict[tuple[str, ...], list[_Name]] = {}
    for name in names:
        earlier = before.setdefault(_words(name.text), [])
        if earlier and name.what == "alias":
            yield name, next((n for n in earlier if n.text == name.text), earlier[0])
        earlier.append(name)


def _words(name: str) -> tuple[str, ...]:
    """A name's words, case, width and composition aside, a run of spaces and hyphens one
    break between them, as `search` reads a name written apart: `NCCL` is `nccl`, `kube
    proxy` is `kube-proxy`, but `kubeproxy` and `pg dump` (beside `pg_dump`) are other
    spellings."""
    return tuple(w for w in _BREAKS.split(normalized("NFKC", name).casefold()) if w)


_BREAKS = re.compile(r"[\s-]+")


def _repeat(alias: _Name, first: _Name, document: Document, file: str) -> str:
    line, column = document.position(first.loc)
    return (
        f"term {alias.term_id!r}: alias {alias.text!r} is its {first.what} "
        f"{first.text!r} again ({file}:{line}:{column}), which adds no name (case, width "
        "and a space for a hyphen aside): remove the alias"
    )


def _clash(alias: _Name, other: _Name, document: Document, file: str) -> str:
    said = f"term {alias.term_id!r}: alias {alias.text!r} is"
    line, column = document.position(other.loc)
    where = f"{file}:{line}:{column}"
    if other.what == "alias":
        return (
            f"{said} an alias of term {other.term_id!r} too ({where}): `curator fix`, `new` "
            "and `search` take the name for neither; keep it in the term it means"
        )
    return (
        f"{said} the {other.what} of term {other.term_id!r} ({where}): the name means that "
        "term, and text saying it counts for both; remove the alias"
    )


class _Label(NamedTuple):
    dimension: str
    term_id: str
    what: str  # "Korean label", "English label"
    text: str
    path: Path
    position: Position


def _check_labels(taxonomy: Taxonomy, labels: list[_Label]) -> None:
    """Each label that another term has too, or that is the id of another term of its
    dimension, as `fold` compares names: where it is, naming the other place. A label is
    how a term is shown (taxonomy.json, graph.json, the website, the review) and what
    `curator new`, `fix` and `search` take for it. In one dimension that is an error
    (IL303): the two terms are shown as one, so one picked by its label may be the other,
    and a label two terms share names neither (`_one_term_names`), while one that is
    another term's id names that term. A warning (IL305) where one of the two is
    deprecated, and in two dimensions: each command is given the dimension, and names the
    term, but an incident's terms are shown as two of one name."""
    named: dict[str, list[_Label]] = {}
    for label in labels:
        named.setdefault(fold(label.text), []).append(label)
    for name, sharing in named.items():
        for label in sharing:
            for problem, error in _label_clashes(taxonomy, label, sharing, name):
                found = TaxonomyProblem(label.path, label.position, problem)
                (taxonomy.problems if error else taxonomy.warnings).append(found)


def _label_clashes(
    taxonomy: Taxonomy, label: _Label, sharing: list[_Label], name: str
) -> Iterator[tuple[str, bool]]:
    """What is wrong with `label`, among the labels `sharing` its folded `name`, and
    whether it is an error."""
    said = f"term {label.term_id!r}: {label.what} {label.text!r} is"
    told = {(label.dimension, label.term_id)}
    owner = taxonomy.names(label.dimension).get(name)
    an_id = owner is not None and fold(owner) == name  # (which `named_term` takes first)
    if owner is not None and owner != label.term_id and an_id:
        path, at = taxonomy.origins[label.dimension, owner]
        told.add((label.dimension, owner))  # (its label too, if it is the same: said here)
        current = not _deprecated(taxonomy, label.dimension, label.term_id, owner)
        yield (
            f"{said} the id of term {owner!r} ({path.name}:{at.line}:{at.column}): `curator "
            "new`, `fix` and `search` take the name for that term; give it another label",
            current,
        )
    others = [o for o in sharing if (o.dimension, o.term_id) not in told]
    # One of its own dimension first: that is the error.
    others.sort(key=lambda other: other.dimension != label.dimension)
    if not others:
        return
    other = others[0]
    where = f"{other.path.name}:{other.position.line}:{other.position.column}"
    if other.dimension == label.dimension:
        neither = "" if an_id else ", and `curator new`, `fix` and `search` take it for neither"
        yield (
            f"{said} the {other.what} of term {other.term_id!r} too ({where}): the two are "
            f"shown as one{neither}; give one of them another label",
            # (A deprecated one's incidents are being moved: a term given a new id may
            # keep its label a while, warned of.)
            not _deprecated(taxonomy, label.dimension, label.term_id, other.term_id),
        )
    else:
        yield (
            f"{said} the {other.what} of term {other.term_id!r} of {other.dimension} too "
            f"({where}): an incident's terms are shown as two of one name; give one of them "
            "another label",
            False,
        )


def _deprecated(taxonomy: Taxonomy, dimension: str, *term_ids: str) -> bool:
    """Whether any of `term_ids` is a deprecated term of `dimension`."""
    terms = (taxonomy.term(dimension, term_id) for term_id in term_ids)
    return any(term is not None and term.deprecated is not None for term in terms)


def _repeats(
    taxonomy: Taxonomy, dimension: str, term_id: str, origin: tuple[Path, Position]
) -> bool:
    """Whether `term_id` is already a term of `dimension`: the later one is reported, and
    left out. One that another dimension has is reported at both, each naming the other,
    and kept in both: either may be the one just added, and the incidents that carry the
    other one must not be told that their term is gone."""
    if term_id in taxonomy.terms[dimension]:
        _, first = taxonomy.origins[dimension, term_id]
        message = f"term id {term_id!r} is already used in {dimension}, at line {first.line}"
        taxonomy.problems.append(TaxonomyProblem(*origin, message))
        return True
    for other in DIMENSIONS:
        if term_id in taxonomy.terms[other]:
            elsewhere = taxonomy.origins[other, term_id]
            taxonomy.problems.append(_used_twice(term_id, origin, other, elsewhere))
            taxonomy.problems.append(_used_twice(term_id, elsewhere, dimension, origin))
    return False


def _used_twice(
    term_id: str, origin: tuple[Path, Position], other: str, elsewhere: tuple[Path, Position]
) -> TaxonomyProblem:
    path, where = elsewhere
    return TaxonomyProblem(
        *origin,
        f"term id {term_id!r} is also a term of {other} ({path.name}:{where.line}:"
        f"{where.column}): a term id names one term in every dimension; give one of the "
        "two another id",
    )


def _check_links(taxonomy: Taxonomy) -> None:
    for dimension in DIMENSIONS:
        for term in taxonomy.terms[dimension].values():
            path, where = taxonomy.origins[dimension, term.id]
            for problem in _link_problems(taxonomy, dimension, term):
                taxonomy.problems.append(TaxonomyProblem(path, where, problem))
            retired = _under_retired_parent(taxonomy, dimension, term)
            if retired:
                taxonomy.warnings.append(TaxonomyProblem(path, where, retired))


def _link_problems(taxonomy: Taxonomy, dimension: str, term: Term) -> Iterator[str]:
    if term.parent and taxonomy.term(dimension, term.parent) is None:
        yield f"term {term.id!r}: parent {taxonomy.not_a_term(dimension, term.parent)}"
    if term.parent and term.id in taxonomy.ancestors(dimension, term.parent):
        yield f"term {term.id!r}: its parents form a cycle"
    if term.deprecated:
        replacement = taxonomy.term(dimension, term.deprecated.replaced_by)
        if replacement is None:
            named = taxonomy.not_a_term(dimension, term.deprecated.replaced_by)
            yield f"term {term.id!r}: replaced_by {named}"
        elif replacement.deprecated:
            yield f"term {term.id!r}: replaced_by {replacement.id!r} is itself deprecated"


def _under_retired_parent(taxonomy: Taxonomy, dimension: str, term: Term) -> str | None:
    """For a current term whose parent is deprecated, what to do (IL305): left under a
    retired term, it is no child of the replacement, and a filter on either (which filters
    on the replacement) misses the incidents carrying it."""
    parent = taxonomy.term(dimension, term.parent or "")
    if term.deprecated or parent is None or parent.deprecated is None:
        return None
    replacement = taxonomy.replacement(dimension, parent.id)
    move = (
        f"set parent: {replacement} (its replacement)"
        if replacement not in (None, term.id)
        else "give it a current parent, or none"
    )
    return (
        f"term {term.id!r}: its parent {parent.id!r} is deprecated, so a search for either "
        f"misses the incidents carrying it; {move}, or deprecate it too"
    )
