"""What `curator similar`, `suggest` and `search` do, between the CLI's flags and its output.

The JSON shapes here are public API (docs/judgement.md): a list with one object per judged
input, in the order the inputs were given, so that inputs without an id, or with the same
id, stay apart.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from curator.findings import Finding
from curator.library import INCIDENTS, Library, read_as_incident
from curator.lint import display_path, in_a_subfolder, named_files, through_links
from curator.load import MAX_BYTES, Loaded, Position, Problem, load_bytes
from curator.model import DIMENSIONS, not_a_mapping
from curator.oneline import shown
from curator.regular import read_regular
from curator.rules import (
    empty_file,
    encoding,
    file_too_large,
    forbidden_construct,
    no_tabs,
    not_an_incident_file,
    schema,
    yaml_syntax,
)
from curator.rules._problems import at_a_tab, fix_reads_unread
from curator.similarity.index import Index, Progress
from curator.similarity.phrases import Matcher
from curator.similarity.records import Record, read_record
from curator.similarity.search import SearchReport, Unmatched, search, searchable
from curator.similarity.similar import Judge, Match
from curator.similarity.store import load_index
from curator.similarity.suggest import DimensionSuggestions, Suggester
from curator.taxonomy import Taxonomy

FILTER_DIMENSIONS = {
    "cause": "causes",
    "component": "components",
    "symptom": "symptoms",
    "factor": "contributing_factors",
}


class BadInput(Exception):
    """A search that cannot be run: neither a query nor a filter, or a filter naming no term."""


@dataclass(frozen=True)
class Input:
    record: Record
    display: str
    # Why the library does not hold it, though it is in incidents/ (lint's IL107 message):
    # it is judged as a draft is, and the library's own run never sees it.
    unheld: str | None = None


@dataclass(frozen=True)
class Unread:
    """A file of the library that the index holds nothing of: it could not be read (no
    permission), or lint does not read it as a YAML mapping (a syntax error, not UTF-8, too
    large, a list): what is judged or searched is judged or searched without it."""

    path: str  # as lint shows it
    position: Position | None  # where lint's first problem stands (none: it cannot be read)
    reason: str  # lint's: `cannot read the file: Permission denied`
    code: str  # lint's, for that reason: `IL107`
    refused: OSError | None = None  # the system's answer, for a file it could not read

    @property
    def shown(self) -> str:
        """Its path, and where lint's first problem stands in it: `incidents/IL-0005.yaml:1:1`."""
        return f"{self.path}:{self.position[0]}:{self.position[1]}" if self.position else self.path

    @property
    def why(self) -> str:
        """Lint's reason, and its code: `cannot read the file: Permission denied (IL107)`."""
        return f"{self.reason} ({self.code})"


@dataclass(frozen=True)
class LeftOut:
    """The files of the library judged without (`unread`): the first `SAID_AT_MOST`, and how
    many more there are (lint names them all)."""

    files: list[Unread]
    more: int = 0


SAID_AT_MOST = 10


def unread(library: Library, index: Index, inputs: Collection[str] = ()) -> LeftOut:
    """The files of the library the index holds nothing of, in name order, but those among
    `inputs` (as the index names them), which are said not judged already. Only the files
    the index names as such (`Index.skipped`, cached) are read again, and only the first
    `SAID_AT_MOST` of them, for why: where lint's first problem keeps it out, and its code."""
    names = [name for name in index.skipped if name not in inputs]
    found: list[Unread] = []
    for done, name in enumerate(names):
        if len(found) == SAID_AT_MOST:
            return LeftOut(found, len(names) - done)
        file = left_out(library.root / name)
        if file is not None:
            found.append(file)
    return LeftOut(found)


def left_out(path: Path, shown: str | None = None) -> Unread | None:
    """Why the index holds nothing of `path` (shown as `shown`, by default as lint shows
    it), as lint reports it; None if it does read now as a mapping (changed since the
    index was built)."""
    shown = shown or display_path(path)
    try:
        raw = read_regular(path, MAX_BYTES)
    except OSError as exc:
        return Unread(
            shown, None, _unreadable(path, shown, exc), not_an_incident_file.RULE.code, exc
        )
    stopped = _stopped(load_bytes(raw))
    if stopped is None:
        return None
    position, why, code = stopped
    return Unread(shown, position, why, code)


# The rule lint reports each of the loader's problems under (a tab: `no_tabs`).
_CODES = {
    Problem.TOO_LARGE: file_too_large.RULE.code,
    Problem.ENCODING: encoding.RULE.code,
    Problem.EMPTY: empty_file.RULE.code,
    Problem.SYNTAX: yaml_syntax.RULE.code,
    Problem.FORBIDDEN: forbidden_construct.RULE.code,
}


def _stopped(loaded: Loaded) -> tuple[Position, str, str] | None:
    """Where and why lint does not read `loaded` as a YAML mapping, and the code it reports
    that under: the loader's first problem that kept the document out (a key given twice
    does not), or where a list or a text stands for the mapping an incident is (IL201)."""
    for problem in loaded.problems:
        if at_a_tab(loaded, problem):  # (in the words lint has for it, which fix's follow)
            words = no_tabs.stops_the_file(fix_reads_unread(loaded))
            return problem.position, words, no_tabs.RULE.code
        if problem.kind is not Problem.DUPLICATE_KEY:
            return problem.position, problem.message, _CODES[problem.kind]
    mapping = not_a_mapping(loaded.data) if loaded.document is not None else None
    if loaded.document is None or mapping is None:
        return None
    return loaded.document.position(()), mapping, schema.RULE.code


def inputs(
    library: Library, paths: Sequence[Path], every: bool
) -> tuple[list[Input], list[str], set[str]]:
    """The incidents to judge: the files given, or with `every` each file the library
    lists (those the index could not read too); in the order given, why each that cannot be
    judged is not; and the inputs as the index names them. One bad file does not keep the
    others from being judged, as in lint."""
    # (path, as the index spells it, why the library does not hold it, why it is not read)
    given: list[tuple[Path, str, str | None, Finding | None]]
    if every:
        given = [
            (p, f"{INCIDENTS}/{p.name}", None, _never_read(p)) for p in library.incident_paths()
        ]
    else:
        incidents = os.path.realpath(library.incidents_dir)
        named = named_files(library, paths)
        through = through_links(named)
        given = [
            (p, _library_path(library, w, p), _unheld(w, p, incidents), through.get(w))
            for w, p in named.items()
        ]
    found, not_judged = [], []
    for path, display, unheld, unread in given:
        record = None if unread else read_record(path, display)
        if unread:
            shown = display_path(path) if every else str(path)
            not_judged.append(f"{shown}: not an incident file: {unread.message} (IL107)")
        elif record is None or not any(record.fields.values()):  # a taxonomy file, say
            not_judged.append(_not_judged(path, display_path(path) if every else str(path)))
        else:
            found.append(Input(record, display if every else str(path), unheld))
    return found, not_judged, {display for _path, display, _unheld, _unread in given}


def _never_read(path: Path) -> Finding | None:
    """Lint's finding (IL107) for an entry of incidents/ it reports but never reads as an
    incident, by its name (`IL-0001.yml`), which the index does not read either."""
    if read_as_incident(path.name):
        return None
    return next(not_an_incident_file.check_entry(path, display_path(path)), None)


def _unheld(where: str, path: Path, incidents: str) -> str | None:
    """Lint's reason (IL107) for a file named in a subfolder of incidents/, or in it under
    a name it does not read (`IL-0001.yml`), which the library never reads: judged as a
    draft is, it is said not to be the library's (as `--all` says it is not judged)."""
    if in_a_subfolder(where, incidents):
        return not_an_incident_file.in_a_subfolder(str(path)).message
    never = _never_read(path) if os.path.dirname(where) == incidents else None
    return never.message if never else None


def _not_judged(path: Path, named: str) -> str:
    """Why `path` (as `named`) cannot be judged: where lint's loader stops, or where a list
    or a text stands for the mapping an incident is (IL201), with its line and column (a
    tab or an unclosed quote makes an incident to mend, not "not an incident file"); for
    what cannot be read, what lint reports of it (IL107)."""
    try:
        loaded = load_bytes(read_regular(path, MAX_BYTES))
    except OSError as exc:  # not a regular file (a FIFO is never read), or gone meanwhile
        return f"{named}: not an incident file: {_unreadable(path, named, exc)} (IL107)"
    stopped = _stopped(loaded)
    if stopped is None:
        return f"{named}: not an incident file (run `curator lint {named}`)"
    (line, column), why, _code = stopped
    return f"{named}:{line}:{column}: {why}; `curator lint {named}` lists every problem"


def _unreadable(path: Path, named: str, exc: OSError) -> str:
    """Why `path` cannot be read, in lint's words: what it is (a link, a folder, a FIFO),
    or, for a regular file, the system's answer (no permission)."""
    entry = next(not_an_incident_file.check_entry(path, named), None)
    return entry.message if entry else f"cannot read the file: {exc.strerror or exc}"


def _library_path(library: Library, where: str, path: Path) -> str:
    """Inside the library, the path as the index spells it, so the file is not its own
    match: from `where` (`named_files`' key), whose folder is resolved already and whose
    name is not (a link named, one that loops too, is not followed)."""
    try:
        return Path(where).relative_to(library.root).as_posix()
    except ValueError:
        return str(path)


def similar(
    library: Library, paths: Sequence[Path], every: bool, top: int, progress: Progress | None = None
) -> tuple[list[tuple[Input, list[Match]]], list[str], LeftOut]:
    """Each input judged, why each input that could not be is not (see `inputs`), and the
    files of the library it is judged without (`unread`)."""
    index = load_index(library, progress=progress)
    judge = Judge(index)
    found, not_judged, named = inputs(library, paths, every)
    results = [(given, judge.similar(given.record, top)) for given in found]
    return results, not_judged, unread(library, index, named)


def known_already(
    library: Library, path: Path, progress: Progress | None = None
) -> tuple[list[Match], LeftOut]:
    """The incidents of the library that `path` (a draft just written) may duplicate, and
    the files of the library it could not read, whose incidents it may duplicate too."""
    results, _, left_out = similar(library, [path], False, KNOWN_SHOWN, progress)
    duplicates = [m for _, matches in results for m in matches if m.kind == "duplicate"]
    return duplicates, left_out


KNOWN_SHOWN = 3  # a draft's possible duplicates named by `curator new`


def known_text(matches: list[Match]) -> str:
    """`known_already`'s matches, as `similar_text` shows them."""
    return "".join(f"{line}\n" for match in matches for line in _match_lines(match))


def similar_json(results: list[tuple[Input, list[Match]]]) -> list[dict[str, Any]]:
    return [
        {"input": given.display, "id": given.record.id, "matches": [m.to_json() for m in matches]}
        for given, matches in results
    ]


def similar_text(results: list[tuple[Input, list[Match]]]) -> str:
    lines = []
    for given, matches in results:
        duplicates = sum(m.kind == "duplicate" for m in matches)
        related = len(matches) - duplicates
        lines.append(
            f"{_input_text(given)}: {_count(duplicates, 'possible duplicate')}, {related} related"
        )
        for match in matches:
            lines += _match_lines(match)
    return "\n".join(lines) + "\n" if lines else ""


def _match_lines(match: Match) -> list[str]:
    name = shown(match.id) + _copies_text(match.copies)
    lines = [f"  {match.kind:<9}  {match.score:.2f}  {name}  {shown(match.title)}"]
    return lines + [f"{'':15}- {shown(reason, 500)}" for reason in match.reasons]


def _copies_text(copies: list[str]) -> str:
    if not copies:
        return ""
    named = ", ".join(map(shown, copies))
    return f" (and its withdrawn cop{'ies' if len(copies) > 1 else 'y'} {named})"


def suggest(
    library: Library, paths: Sequence[Path], every: bool, progress: Progress | None = None
) -> tuple[list[tuple[Input, dict[str, DimensionSuggestions]]], list[str], LeftOut]:
    """Each input judged, why each input that could not be is not (see `inputs`), and the
    files of the library it is judged without (`unread`)."""
    index = load_index(library, progress=progress)
    suggester = Suggester(index, library.taxonomy)
    found, not_judged, named = inputs(library, paths, every)
    results = [(given, suggester.suggest(given.record)) for given in found]
    return results, not_judged, unread(library, index, named)


def suggest_json(
    results: list[tuple[Input, dict[str, DimensionSuggestions]]],
) -> list[dict[str, Any]]:
    return [
        {
            "input": given.display,
            "id": given.record.id,
            "facets": {d: found[d].to_json() for d in DIMENSIONS},
        }
        for given, found in results
    ]


def suggest_text(results: list[tuple[Input, dict[str, DimensionSuggestions]]]) -> str:
    lines = []
    for given, found in results:
        lines.append(f"{_input_text(given)}:")
        quiet = True
        for dimension in DIMENSIONS:
            if found[dimension].not_judged is not None:
                quiet = False
                why = found[dimension].not_judged
                lines.append(f"  {dimension}: not judged, its taxonomy file cannot be read: {why}")
            for kind, items in (
                ("missing", found[dimension].missing),
                ("please check", found[dimension].unsupported),
            ):
                for item in items:
                    quiet = False
                    lines.append(f"  {dimension}: {kind} {shown(item.term)} ({item.score:.2f})")
                    if kind == "please check":
                        said = _unsupported_text(item.evidence)
                    else:
                        said = [_evidence_text(e) for e in item.evidence]
                    lines += [f"      - {line}" for line in said]
        if quiet:
            lines.append("  facets look complete: nothing to add, nothing unsupported")
    return "\n".join(lines) + "\n" if lines else ""


def _unsupported_text(evidence: list[dict[str, Any]]) -> list[str]:
    """A carried facet nothing supports enough. The incidents its evidence names carry it,
    but are too few or too unlike this one to support it: named, as the review comment names
    them, as the most similar that carry it, to compare with, where "similar incident
    IL-0252 carries it" read as support for a facet said to have none."""
    said = [_evidence_text(e) for e in evidence if "phrase" in e]
    near = [_neighbour(e) for e in evidence if "phrase" not in e]
    if near:
        which = "incident that carries" if len(near) == 1 else "incidents that carry"
        said.append(f"the most similar {which} it, to compare: {', '.join(near)}")
    return said or ["nothing in the text or the most similar incidents supports it"]


def _evidence_text(evidence: dict[str, Any]) -> str:
    if "phrase" in evidence:
        phrase, alias = shown(evidence["phrase"]), shown(evidence["alias"])
        return f"{evidence['field']}: “{phrase}” (matches “{alias}”)"
    similarity = evidence["similarity"]
    which = "possible duplicate" if evidence["kind"] == "duplicate" else "similar incident"
    return f"{which} {shown(evidence['incident'])} carries it (similarity {similarity:.2f})"


def _neighbour(evidence: dict[str, Any]) -> str:
    """A similar incident given as evidence, and its similarity."""
    which = "possible duplicate " if evidence["kind"] == "duplicate" else ""
    return f"{which}{shown(evidence['incident'])} (similarity {evidence['similarity']:.2f})"


def run_search(
    library: Library,
    query: str,
    filters: dict[str, list[str]],
    top: int,
    progress: Progress | None = None,
) -> tuple[SearchReport, LeftOut]:
    """The search's report, and the files of the library searched without (`unread`)."""
    if not query.strip() and not filters:
        # Nothing to rank by and nothing to filter on: every incident would tie at 0.
        raise BadInput("give a query, or a filter (--cause, --component, --symptom, --factor)")
    taxonomy = library.taxonomy
    filters = {
        d: [_filter_term(taxonomy, d, term) for term in terms] for d, terms in filters.items()
    }
    matcher = Matcher(taxonomy)
    if query.strip() and not searchable(matcher, taxonomy, query):
        # Else "0 matching incidents", as if the library held no such thing (and with a
        # filter, fewer than the filter alone lists).
        raise BadInput(
            f"nothing in the query {shown(query)!r} can be searched for: it needs a word (two "
            "letters or more of Latin, Greek or Cyrillic script, two characters or more of "
            "Hangul, kana or CJK ideographs), a number of 2 to 30 digits, or a name"
        )
    index = load_index(library, progress=progress)
    return search(index, taxonomy, query, filters, top, matcher), unread(library, index)


def _filter_term(taxonomy: Taxonomy, dimension: str, term: str) -> str:
    """The term id a filter names: its id, or its label or an alias where that name is one
    term's alone (`--cause "용량 한계"`), as `curator new` and `curator fix` take them."""
    named = taxonomy.named_term(dimension, term)
    if named is None:
        raise BadInput(taxonomy.not_a_term(dimension, term))
    return named


def search_text(report: SearchReport) -> str:
    lines = []
    if report.read_as and report.read_as != report.query:
        lines.append(f"query read as “{shown(report.read_as)}”")
    if report.recognised:
        lines.append("추천 필터 (recognised in the query):")
        lines += [
            f"  {r.dimension}: {r.term} ({r.label}) ← “{shown(r.phrase)}”"
            for r in report.recognised
        ]
    else:
        lines.append("추천 필터: no taxonomy value recognised in the query")
    if report.filters:
        applied = ", ".join(f"{d}={t}" for d, terms in report.filters.items() for t in terms)
        lines.append(f"filters applied: {applied}")
    listed = len(report.results)
    lines.append(
        f"{report.total} matching incident{'s' * (report.total != 1)}"
        + (f", top {listed}:" if listed else "")
    )
    for result in report.results:
        lines.append(f"  {result.score:.2f}  {shown(result.id)}  {shown(result.title)}")
        lines.append(f"{'':8}- {shown('; '.join(result.reasons), 500)}")
    if report.unmatched is not None:
        lines += _unmatched_lines(report.unmatched)
    return "\n".join(lines) + "\n"


_FLAGS = {dimension: f"--{flag}" for flag, dimension in FILTER_DIMENSIONS.items()}


def _unmatched_lines(unmatched: Unmatched) -> list[str]:
    """Why nothing was listed, and what would list something: where "0 matching
    incidents" said neither whether the words or the filters found nothing, nor what to
    change."""
    lines = []
    if unmatched.matching_words is None:
        lines.append("  no incident passes every filter")
    elif unmatched.matching_words:
        words = _count(unmatched.matching_words, "incident")
        lines.append(f"  {words} match the words, but none passes the filters")
    else:
        lines.append("  no incident matches the words")
    for dimension, term, total in unmatched.without_filter:
        flag = f"{_FLAGS.get(dimension, dimension)} {shown(term)}"
        lines.append(f"  without {flag}: {_count(total, 'incident')} would be listed")
    for word, name in unmatched.did_you_mean:
        lines.append(f"  “{shown(word)}” is in no incident: did you mean “{shown(name)}”?")
    for dimension, term, ancestor, total in unmatched.broader:
        flag = f"{_FLAGS.get(dimension, dimension)} {shown(ancestor)}"
        lines.append(
            f"  no incident carries {shown(term)}; {_count(total, 'incident')} carry "
            f"{shown(ancestor)}, which it is a kind of ({flag} lists them)"
        )
    return lines


def _input_text(given: Input) -> str:
    # What a file holds is shown on one line: no control character of it reaches the
    # terminal (see `curator.oneline`).
    return f"{shown(given.display, 1000)} ({shown(given.record.id)})"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' * (number != 1)}"
