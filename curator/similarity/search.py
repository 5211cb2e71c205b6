"""`curator search`: the taxonomy values a query names, then the incidents that match it.

Like the seed page's search box: the query is read for labels and aliases of taxonomy terms
(its "추천 필터", recognised filters), and incidents are ranked by how well they match the
words of the query and how many of the recognised terms they carry. Filters given
explicitly (`--cause`, `--component`, …) are hard: an incident must carry the term or one of
its children. Withdrawn incidents are left out (they repeat another incident).
"""

from __future__ import annotations

import difflib
import itertools
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from curator.model import DIMENSIONS, numbered_id
from curator.similarity.entities import counted, entities, small_words
from curator.similarity.index import Index
from curator.similarity.phrases import Matcher
from curator.similarity.records import Record
from curator.similarity.similar import same_source
from curator.similarity.sorting import id_order
from curator.similarity.text import features, searched_words
from curator.taxonomy import Taxonomy, fold
from curator.urls import normalize_url

TEXT_FULL = 0.3  # a query's cosine to a document at which text evidence is full
TERM_WEIGHT = 0.6
ENTITY_WEIGHT = 0.5
DEFAULT_TOP = 10
# Below this, a shared syllable or two: noise, not a match; but for an incident that holds
# every word of the query (`Index.holding_words`): a word searched for lists each incident
# holding it, however long its text, where its cosine is small.
MIN_SCORE = 0.1
# A word of small letters in a query is a name only where the library's incidents write it
# as one in most places they hold it (`Datadog`; not `slack`, were "no slack in capacity"
# common in them; a name that is part of a longer one, `kube-dns`, counts as a place).
NAME_SHARE = 0.8
_LATIN_WORD = re.compile(r"[^\s가-힣]*[A-Za-z][^\s가-힣]*")  # (`Let's`, `kube-proxy`: one)
# A word of the query as spacing goes (`infini`, `band` in `infini band` and `Infini-Band`),
# and what may stand between two that are one name written apart.
_PIECE = re.compile(r"[^\s-]+")
_APART = re.compile(r"[ \t-]+")
_LONGEST_APART = 3  # pieces of one name written apart, at most
# An address in the query, and what a sentence or Markdown pasted with it ends it with.
_QUERY_URL = re.compile(r"https?://\S+", re.IGNORECASE)
_AFTER_URL = ".,;:!?)]}>\"'”’」』"
# An incident's id, as the schema spells it (`model.ID_PATTERN`), in any case of its `IL-`.
_QUERY_ID = re.compile(r"(?<![\w-])(?i:IL)-(?:([0-9]{4,})|NEW-([a-z0-9]+(?:-[a-z0-9]+)*))(?![\w-])")


@dataclass(frozen=True)
class Recognised:
    dimension: str
    term: str
    label: str
    phrase: str

    def to_json(self) -> dict[str, str]:
        return {
            "dimension": self.dimension,
            "term": self.term,
            "label": self.label,
            "phrase": self.phrase,
        }


@dataclass(frozen=True)
class Result:
    id: str
    title: str
    path: str
    score: float
    reasons: list[str]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "score": self.score,
            "title": self.title,
            "path": self.path,
            "reasons": self.reasons,
        }


@dataclass(frozen=True)
class Unmatched:
    """Why a search listed no incident, and the nearest things that would list some: how
    many incidents match the words (None without a query), how many would pass each
    filter but that one, a spelling the library has for a word it has not, and for a
    recognised term no incident carries, the nearest ancestor some carry."""

    matching_words: int | None
    without_filter: list[tuple[str, str, int]]  # (dimension, term, incidents listed without it)
    did_you_mean: list[tuple[str, str]]  # (word of the query, a name the library has)
    broader: list[tuple[str, str, str, int]]  # (dimension, term, ancestor, incidents carrying it)

    def to_json(self) -> dict[str, Any]:
        return {
            "matching_words": self.matching_words,
            "without_filter": [
                {"dimension": d, "term": t, "total": n} for d, t, n in self.without_filter
            ],
            "did_you_mean": [{"word": w, "name": name} for w, name in self.did_you_mean],
            "broader": [
                {"dimension": d, "term": t, "ancestor": a, "total": n}
                for d, t, a, n in self.broader
            ],
        }


@dataclass
class SearchReport:
    query: str
    recognised: list[Recognised]
    filters: dict[str, list[str]]
    results: list[Result] = field(default_factory=list)
    total: int = 0
    read_as: str = ""  # the query with names spaced as the library writes them (`respaced`)
    unmatched: Unmatched | None = None  # why nothing was listed, when nothing was

    def to_json(self) -> dict[str, Any]:
        found = {
            "query": self.query,
            "recognised": [r.to_json() for r in self.recognised],
            "filters": self.filters,
            "total": self.total,
            "results": [r.to_json() for r in self.results],
        }
        if self.unmatched is not None:
            found["unmatched"] = self.unmatched.to_json()
        return found


def recognise(matcher: Matcher, taxonomy: Taxonomy, query: str) -> list[Recognised]:
    return [
        Recognised(hit.dimension, hit.term, term.label.ko, hit.alias)
        for hit in matcher.named([("query", query)])
        if (term := taxonomy.term(hit.dimension, hit.term)) is not None
    ]


def searchable(matcher: Matcher, taxonomy: Taxonomy, query: str) -> bool:
    """Whether anything in `query` can be searched for: a feature of its text, an entity or
    a taxonomy value. Punctuation, a lone syllable or letter, or a script the index does not
    read (Arabic, Thai, …) has none: every incident would score 0 and none be listed."""
    return bool(
        len(features(query)) or entities(query, query=True) or recognise(matcher, taxonomy, query)
    )


def query_names(index: Index, taxonomy: Taxonomy, query: str) -> set[str]:
    """The entities of `query`, with its words of small letters that name what the
    library knows for a name (`datadog`, `nccl`, `infiniband`): a searcher's lower case is
    no sign that a word is none, as an incident's is."""
    return entities(query, query=True) | _names_in_small_letters(index, taxonomy, query)


def _names_in_small_letters(index: Index, taxonomy: Taxonomy, query: str) -> set[str]:
    """The words of small letters in `query` that the library knows for names: its
    incidents write the word as a name (NAME_SHARE), and it names an organisation they
    name or is a name the taxonomy writes as one (NCCL, InfiniBand, Lustre) and in no
    English label or alias in small letters. (The incidents alone cannot tell: a Korean
    write-up's English words are mostly names, so `storage` is always the `Storage` of
    Cloud Storage, and `data` that of VAST Data.)"""
    return {word for word in small_words(query) if _known_name(index, taxonomy, word)}


def _known_name(index: Index, taxonomy: Taxonomy, word: str) -> bool:
    """Whether the library knows `word`, in small letters, for a name (see above)."""
    return _written_as_name(index, word) and (
        _taxonomy_writes_as_name(taxonomy, word) or _an_organisation(index, word)
    )


def _written_as_name(index: Index, word: str) -> bool:
    mentioning = index.mentioning(word)
    return mentioning > 0 and mentioning >= NAME_SHARE * index.holding(word)


def _an_organisation(index: Index, word: str) -> bool:
    """Whether an incident mentioning `word` has it for its organisation. (Those alone are
    read: listing every incident's organisations took 0.3 s at 100,000 incidents.)"""
    rows = index.entity_postings.column(index.entity_ids[word])
    return any(word in index.records[row].organisation_keys() for row in rows.tolist())


def _taxonomy_writes_as_name(taxonomy: Taxonomy, word: str) -> bool:
    """Whether the taxonomy writes `word` alone as a name (`NCCL`, `Lustre`, `Kubernetes
    제어 평면`) and nowhere in small letters in an English label or alias (`local disk`,
    `cloud API`, `VAST storage`), which makes it a common word, as `Database` and `Cache`
    are. An alias that is its term's id (`lustre`, `nccl`) is no such use: it is there for
    matching. A word of a name of several (`Let's Encrypt`, `Docker Hub`, `PCI Express`)
    is not one alone. (Only the names holding the word are read: reading every name took
    10 ms a query.)"""
    named = False
    for terms in taxonomy.terms.values():
        for term in terms.values():
            english = [(name, name != term.id) for name in (term.label.en, *term.aliases)]
            for name, usage in [*english, (term.label.ko, False)]:
                if word not in name.casefold():
                    continue
                if usage and word in small_words(name):
                    return False
                named = named or (len(_LATIN_WORD.findall(name)) == 1 and word in entities(name))
    return named


def respaced(index: Index, taxonomy: Taxonomy, query: str) -> str:
    """`query` with a name written apart or together otherwise than the library writes it
    spelt as it does: `infini band` and `Infini-Band` as `InfiniBand`, `loadbalancer` as
    `load balancer`, `쿠버네티스 api` as `쿠버네티스 API`, `data dog` as `datadog`. Only where
    two or three pieces apart, or one piece, have the very letters (in any case or width)
    of a taxonomy term's name spaced otherwise, or where pieces apart of Latin letters
    alone make one word the library knows for a name (`query_names`): never a spelling
    changed, nor a word cut but into a taxonomy name's words. Addresses are left as they
    are."""
    parts, last = [], 0
    for url in _QUERY_URL.finditer(query):
        parts += [_respaced_text(index, taxonomy, query[last : url.start()]), url.group()]
        last = url.end()
    return "".join([*parts, _respaced_text(index, taxonomy, query[last:])])


def _respaced_text(index: Index, taxonomy: Taxonomy, text: str) -> str:
    pieces = list(_PIECE.finditer(text))
    written, last, at = [], 0, 0
    while at < len(pieces):
        found = _respelt_at(index, taxonomy, text, pieces[at : at + _LONGEST_APART])
        if found is None:
            at += 1
            continue
        size, spelt = found
        written += [text[last : pieces[at].start()], spelt]
        last, at = pieces[at + size - 1].end(), at + size
    return "".join([*written, text[last:]])


def _respelt_at(
    index: Index, taxonomy: Taxonomy, text: str, ahead: list[re.Match[str]]
) -> tuple[int, str] | None:
    """How many of the pieces `ahead` make a name spaced otherwise, the most first, and
    the name as the library spells it."""
    for size in range(len(ahead), 0, -1):
        window = ahead[:size]
        gaps = (text[a.end() : b.start()] for a, b in itertools.pairwise(window))
        if all(_APART.fullmatch(gap) for gap in gaps):
            spelt = _as_named(index, taxonomy, [piece.group() for piece in window])
            if spelt is not None:
                return size, spelt
    return None


def _as_named(index: Index, taxonomy: Taxonomy, pieces: list[str]) -> str | None:
    """The name `pieces` are the letters of, spaced as it is written, where that is not
    how they are; None where they are no name, or are spaced as it is."""
    letters = fold("".join(pieces))
    for dimension in DIMENSIONS:
        term = taxonomy.term(dimension, taxonomy.names(dimension).get(letters, ""))
        if term is None:
            continue
        names = [
            n for n in (term.label.en, term.label.ko, *term.aliases, term.id) if fold(n) == letters
        ]
        if _spaced(pieces) in map(_spaced, map(_PIECE.findall, names)):
            return None  # one of its own spellings (로드밸런서 beside 로드 밸런서)
        spelt = names[0]
        # (In the searcher's case where they wrote in small letters: see `query_names`.)
        return spelt if any(p != p.lower() for p in pieces) else spelt.lower()
    joined = "".join(pieces)
    word = joined.lower()
    if (
        len(pieces) > 1
        and joined.isascii()
        and joined.isalpha()
        and _known_name(index, taxonomy, word)
    ):
        return joined
    return None


def _spaced(pieces: list[str]) -> list[str]:
    return [fold(piece) for piece in pieces]


def query_urls(query: str) -> dict[str, str]:
    """The addresses in the query, in the normal form the index keeps sources in, each
    with its first spelling as typed."""
    found: dict[str, str] = {}
    for url in _QUERY_URL.findall(query):
        typed = url.rstrip(_AFTER_URL)
        found.setdefault(normalize_url(typed), typed)
    return found


def query_ids(query: str) -> list[str]:
    """The incident ids in the query, spelt as the library writes them (il-128 is no id,
    IL-00128 is IL-0128: one number, as IL204 compares ids)."""
    found = []
    for number, slug in _QUERY_ID.findall(query):
        found.append(numbered_id(int(number)) if number else f"IL-NEW-{slug.lower()}")
    return list(dict.fromkeys(found))


def _identified(index: Index, query: str) -> dict[int, list[str]]:
    """The rows of the incidents the query names, each with its reasons: by its id, or by
    the address of a report it cites (one pasted from the report being read finds the
    incident written from it, as `similar` takes two incidents citing one report for one
    event). A withdrawn copy stands for the incident it repeats, which search lists in
    its place."""
    named = [(row, None) for i in query_ids(query) for row in index.by_id.get(i, [])]
    urls = query_urls(query)
    cited = [(row, url) for url in urls for row in index.by_url.get(url, [])]
    found: dict[int, list[str]] = {}
    for row, url in named + cited:
        record = index.records[row]
        copy = record.status == "withdrawn" and row in index.copies[0]
        if copy:
            row = int(index.copies[1][index.copies[0] == row][0])
        if url:
            cites = same_source(url, urls[url])  # (as typed: the query is the input judged)
            reason = (f"its withdrawn copy {record.id}: " if copy else "") + cites
        else:
            reason = f"the query names {'its withdrawn copy ' if copy else ''}{record.id}"
        found.setdefault(row, []).append(reason)
    return found


def search(
    index: Index,
    taxonomy: Taxonomy,
    query: str,
    filters: dict[str, list[str]],
    top: int = DEFAULT_TOP,
    matcher: Matcher | None = None,
) -> SearchReport:
    matcher = matcher or Matcher(taxonomy)
    read = respaced(index, taxonomy, query)
    recognised = recognise(matcher, taxonomy, read)
    report = SearchReport(query, recognised, filters, read_as=read)
    n = len(index)
    if n == 0:
        return report
    names = query_names(index, taxonomy, read)
    cols = index.entity_columns(names)
    scoring = _Scoring(
        index,
        taxonomy,
        recognised,
        index.cosine(index.vector(read)) if query.strip() else np.zeros(n),
        index.shared_rarity(cols) > 0 if len(cols) else np.zeros(n, dtype=bool),
        index.holding_words(read) if query.strip() else None,
        searched_words(read),
        _identified(index, query),
        bool(query.strip()),
    )
    live = [row for row, record in enumerate(index.records) if record.status != "withdrawn"]
    # Every match is scored and counted; the reasons are written for those shown only
    # (a two-word query matched 30-40,000 of 100,000 synthetic incidents).
    scored: list[tuple[float, tuple[bool, int, str], int, list[Recognised]]] = []
    for row in live:
        record = index.records[row]
        if _passes(taxonomy, record.facets, filters) and (found := scoring.match(row)):
            scored.append((-round(found[0], 3), id_order(record.id), row, found[1]))
    scored.sort(key=lambda match: match[:3])  # (the row: in the library's order on a tie)
    report.total = len(scored)
    report.results = [
        _result(scoring, names, row, -score, carried)
        if scoring.query
        else _listed(taxonomy, index.records[row], -score, filters)
        for score, _, row, carried in scored[:top]
    ]
    if not scored:
        report.unmatched = _unmatched(scoring, live, filters, read)
    return report


@dataclass(frozen=True)
class _Scoring:
    """What an incident's score for a query is worked out from."""

    index: Index
    taxonomy: Taxonomy
    recognised: list[Recognised]
    cosine: np.ndarray
    named: np.ndarray  # per row, whether it mentions a name of the query
    # per row, whether it holds every word of the query (None: the query has no word)
    holding: np.ndarray | None
    words: list[str]  # those words, as the query writes them (normalised)
    identified: dict[int, list[str]]  # the rows the query names, with why
    query: bool  # (without one, filters alone list incidents, each at 0)

    def match(self, row: int) -> tuple[float, list[Recognised]] | None:
        """The row's score and the recognised terms it carries; None where it does not
        match the query."""
        facets = self.index.records[row].facets
        carried = [
            r for r in self.recognised if _carries(self.taxonomy, facets, r.dimension, r.term)
        ]
        text = min(1.0, float(self.cosine[row]) / TEXT_FULL)
        coverage = len(carried) / len(self.recognised) if self.recognised else 0.0
        score = 1.0 - (1.0 - text) * (1.0 - TERM_WEIGHT * coverage) * (
            1.0 - ENTITY_WEIGHT * self.named[row]
        )
        if row in self.identified:
            score = 1.0  # the incident named, by its id or its report's address
        if score < MIN_SCORE and self.query and not self.holds_words(row):
            return None
        return score, carried

    def holds_words(self, row: int) -> bool:
        return self.holding is not None and bool(self.holding[row])


def _unmatched(
    scoring: _Scoring, live: list[int], filters: dict[str, list[str]], query: str
) -> Unmatched:
    """Why no incident of `live` (those not withdrawn) was listed: whether the words match
    some that the filters then removed, and what would list some."""
    records, taxonomy = scoring.index.records, scoring.taxonomy
    matching = [row for row in _may_match(scoring, live) if scoring.match(row)]
    without = []
    if matching:
        for dimension, terms in filters.items():
            for term in terms:
                others = {
                    d: [t for t in ts if (d, t) != (dimension, term)] for d, ts in filters.items()
                }
                kept = sum(_passes(taxonomy, records[row].facets, others) for row in matching)
                without.append((dimension, term, kept))
    named = [(r.dimension, r.term) for r in scoring.recognised]
    named += [(d, t) for d, terms in filters.items() for t in terms]
    carried = [records[row].facets for row in live]
    broader = [
        found
        for dimension, term in dict.fromkeys(named)
        if (found := _broader(taxonomy, carried, dimension, term)) is not None
    ]
    spellings = [] if matching else _spellings(scoring.index, taxonomy, query)
    return Unmatched(len(matching) if scoring.query else None, without, spellings, broader)


def _may_match(scoring: _Scoring, live: list[int]) -> list[int]:
    """The rows of `live` that may match the query: without a recognised term, those that
    share a feature or a name with it, or that it names (reading every row's facets took
    a second at 100,000 incidents)."""
    if not scoring.query or scoring.recognised:
        return live
    hit = (scoring.cosine > 0) | scoring.named
    if scoring.holding is not None:  # (a Korean word's n-grams may be none it kept)
        hit |= scoring.holding
    hit[list(scoring.identified)] = True
    return np.flatnonzero(hit & ~scoring.index.withdrawn).tolist()


def _broader(
    taxonomy: Taxonomy, facets: list[dict[str, tuple[str, ...]]], dimension: str, term: str
) -> tuple[str, str, str, int] | None:
    """For a term recognised or filtered on that no incident carries, its nearest ancestor
    that some do, and how many (`lustre`, carried by none: its parent)."""
    if any(_carries(taxonomy, f, dimension, term) for f in facets):
        return None
    for ancestor in taxonomy.ancestors(dimension, term):
        carrying = sum(_carries(taxonomy, f, dimension, ancestor) for f in facets)
        if carrying:
            return dimension, term, ancestor, carrying
    return None


_SPELT = re.compile(r"(?<![A-Za-z])[A-Za-z]{3,}(?![A-Za-z])")
_SPELLING_CUTOFF = 0.8  # difflib's ratio: one letter of five changed, missing or swapped


def _spellings(index: Index, taxonomy: Taxonomy, query: str) -> list[tuple[str, str]]:
    """Each word of Latin letters in `query` that no incident holds, with the nearest name
    the library has (a name it mentions, or a taxonomy term's id): `infinband`, the
    `infiniband` of InfiniBand. (Korean is read in syllables, not words: a misspelt Korean
    word still shares some of them, and is not told apart here.)"""
    found = []
    known: list[str] | None = None
    for word in dict.fromkeys(w.lower() for w in _SPELT.findall(_QUERY_URL.sub(" ", query))):
        if index.holding(word) >= 0.5 or index.mentioning(word):
            continue
        if known is None:  # (built for a word the library lacks only)
            terms = (t for terms in taxonomy.terms.values() for t in terms)
            known = sorted(
                {n for n in [*index.entity_names, *terms] if n.isalpha() and n.isascii()}
            )
        near = difflib.get_close_matches(word, known, 1, _SPELLING_CUTOFF)
        if near and near[0] != word:  # (a term's id that no incident carries or names)
            found.append((word, near[0]))
    return found


def _result(
    scoring: _Scoring, names: set[str], row: int, score: float, carried: list[Recognised]
) -> Result:
    record = scoring.index.records[row]
    reasons = scoring.identified.get(row, []) + [f"carries {r.term} ({r.label})" for r in carried]
    shared = counted(names & scoring.index.entities_of(row))
    if shared:
        reasons.append("mentions " + ", ".join(sorted(shared)))
    if score < MIN_SCORE and scoring.holds_words(row):  # (what lists it)
        reasons.append(f"holds {_listed_words(scoring.words)}")
    reasons.append(f"text similarity {float(scoring.cosine[row]):.2f}")
    return Result(record.id, record.title, record.path, score, reasons)


def _listed_words(words: list[str]) -> str:
    return f"the word {words[0]}" if len(words) == 1 else f"the words {', '.join(words)}"


def _listed(
    taxonomy: Taxonomy, record: Record, score: float, filters: dict[str, list[str]]
) -> Result:
    """An incident that filters alone list, with no query to rank it by (score 0): its
    reasons are the terms it carries that pass them, where a text similarity of 0.00 to
    no text said nothing (and nothing of a child passing its parent's filter: weka for
    shared-network-filesystem)."""
    reasons = [
        _carried(taxonomy, dimension, own, term)
        for dimension, terms in filters.items()
        for term in terms
        for own in record.facets.get(dimension, ())
        if term in taxonomy.lineage(dimension, own)
    ]
    return Result(record.id, record.title, record.path, score, list(dict.fromkeys(reasons)))


def _carried(taxonomy: Taxonomy, dimension: str, own: str, term: str) -> str:
    found = taxonomy.term(dimension, own)
    carried = f"carries {own} ({found.label.ko})" if found else f"carries {own}"
    return carried if own == term else f"{carried}, a kind of {term}"


def _carries(
    taxonomy: Taxonomy, facets: dict[str, tuple[str, ...]], dimension: str, term: str
) -> bool:
    """Whether the facets carry `term` or a child of it; for a deprecated term, its
    replacement, which `curator fix` writes in its place (and an incident not yet fixed
    carries too, by its lineage)."""
    wanted = taxonomy.replacement(dimension, term) or term
    return any(wanted in taxonomy.lineage(dimension, own) for own in facets.get(dimension, ()))


def _passes(
    taxonomy: Taxonomy, facets: dict[str, tuple[str, ...]], filters: dict[str, list[str]]
) -> bool:
    return all(_carries(taxonomy, facets, d, t) for d, terms in filters.items() for t in terms)
