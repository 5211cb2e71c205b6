"""`curator suggest`: facets an incident probably lacks, and facets nothing supports.

Two kinds of evidence for a term, each a strength in [0, 1]:
- phrases: a label or alias of the term found in the incident's text (phrases.py); how much
  it counts depends on the field it was found in (`FIELD_STRENGTH`: a title or symptom
  says more about the incident than its lessons do);
- neighbours: the share of the `NEIGHBOURS` most similar incidents (similar.py), weighted by
  similarity, that carry the term or one of its children.
The score is 1 − (1 − phrases)(1 − neighbours). A child term implies its parent, so a term's
evidence counts for its ancestors too, and only the most specific term is suggested.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from curator.model import DIMENSIONS
from curator.similarity.index import Index
from curator.similarity.phrases import Hit, Matcher
from curator.similarity.records import Record
from curator.similarity.similar import DUPLICATE_THRESHOLD, Judge, Kind
from curator.taxonomy import Taxonomy

FIELD_STRENGTH = {
    "title": 0.6,
    "symptom": 0.55,
    "trigger": 0.55,
    "detection": 0.4,
    "actions": 0.4,
    "follow_ups": 0.3,
    "lessons": 0.3,
    "sources": 0.45,
}
NEIGHBOURS = 10
# Noise: 95% of the pairs of different events in the library score below this (measured by
# tests/eval/run.py), so a neighbour below it is no more like the incident than an unrelated one.
NEIGHBOUR_FLOOR = 0.06
SUGGEST_THRESHOLD = 0.45
UNSUPPORTED_BELOW = 0.2
_SHOWN_NEIGHBOURS = 3


@dataclass
class TermEvidence:
    phrases: list[Hit] = field(default_factory=list)
    neighbours: list[tuple[str, float]] = field(default_factory=list)
    phrase_strength: float = 0.0
    neighbour_strength: float = 0.0

    @property
    def score(self) -> float:
        return 1.0 - (1.0 - self.phrase_strength) * (1.0 - self.neighbour_strength)

    def to_json(self) -> list[dict[str, Any]]:
        shown: list[dict[str, Any]] = [
            {"phrase": h.quote, "field": h.field, "alias": h.alias} for h in self.phrases
        ]
        shown += [
            {"incident": incident, "similarity": round(similarity, 3), "kind": _kind(similarity)}
            for incident, similarity in self.neighbours[:_SHOWN_NEIGHBOURS]
        ]
        return shown


def _kind(similarity: float) -> Kind:
    """As `similar` calls the neighbour: the facets of a possible duplicate are those of the
    same event if it is one, not what incidents of the same kind tend to have."""
    return "duplicate" if round(similarity, 3) >= DUPLICATE_THRESHOLD else "related"


@dataclass(frozen=True)
class Suggestion:
    term: str
    score: float
    evidence: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        return {"term": self.term, "score": self.score, "evidence": self.evidence}


@dataclass
class DimensionSuggestions:
    missing: list[Suggestion] = field(default_factory=list)
    unsupported: list[Suggestion] = field(default_factory=list)
    # Every term carried, with its support (unsupported or not): what the review says of a
    # term a change adds. Not in `curator suggest`'s output.
    support: dict[str, Suggestion] = field(default_factory=dict)
    # Why the dimension was not judged (its taxonomy file's first problem, where it is),
    # when that file cannot be read: no term to suggest, nor to judge a carried one by.
    not_judged: str | None = None

    def to_json(self) -> dict[str, Any]:
        judged = {
            "missing": [s.to_json() for s in self.missing],
            "unsupported": [s.to_json() for s in self.unsupported],
        }
        return judged if self.not_judged is None else {**judged, "not_judged": self.not_judged}


class Suggester:
    def __init__(self, index: Index, taxonomy: Taxonomy, judge: Judge | None = None) -> None:
        self.index = index
        self.taxonomy = taxonomy
        self.judge = judge or Judge(index)
        self.matcher = Matcher(taxonomy)

    def evidence(
        self, record: Record, exclude: frozenset[str] = frozenset()
    ) -> dict[str, dict[str, TermEvidence]]:
        """Per dimension and term, the evidence that `record` should carry it. Its own
        facets are not read; `exclude` keeps incidents out of the neighbours."""
        found: dict[str, dict[str, TermEvidence]] = {
            d: defaultdict(TermEvidence) for d in DIMENSIONS
        }
        for name, text in record.fields.items():
            for hit in self.matcher.find(text, name):
                for term in self._with_ancestors(hit.dimension, hit.term):
                    found[hit.dimension][term].phrases.append(hit)
        for dimension in DIMENSIONS:
            for evidence in found[dimension].values():
                evidence.phrase_strength = _phrase_strength(evidence.phrases)
        self._add_neighbours(found, record, exclude)
        return {d: dict(terms) for d, terms in found.items()}

    def _add_neighbours(
        self, found: dict[str, dict[str, TermEvidence]], record: Record, exclude: frozenset[str]
    ) -> None:
        neighbours = [
            (row, similarity)
            for row, similarity in self.judge.neighbours(record, NEIGHBOURS, exclude)
            if similarity >= NEIGHBOUR_FLOOR
        ]
        # Weak neighbours (all dissimilar) must not add up to strong evidence.
        total = max(sum(similarity for _, similarity in neighbours), 1.0)
        for row, similarity in neighbours:
            other = self.index.records[row]
            for dimension in DIMENSIONS:
                carried = {
                    term
                    for own in other.facets.get(dimension, ())
                    for term in self._with_ancestors(dimension, own)
                }
                for term in carried:
                    evidence = found[dimension][term]
                    evidence.neighbours.append((other.id, similarity))
                    evidence.neighbour_strength += similarity / total

    def _with_ancestors(self, dimension: str, term: str) -> list[str]:
        """The terms that evidence for `term` is evidence for: itself and its ancestors,
        and for a deprecated term its replacement and that one's (a neighbour that still
        carries it carries what it meant)."""
        lineage = [term, *self.taxonomy.ancestors(dimension, term)]
        replacement = self.taxonomy.replacement(dimension, term)
        if replacement is not None:
            lineage += [replacement, *self.taxonomy.ancestors(dimension, replacement)]
        return list(dict.fromkeys(lineage))

    def predict(self, evidence: dict[str, TermEvidence], dimension: str) -> list[str]:
        """The most specific current terms whose score reaches SUGGEST_THRESHOLD: never a
        deprecated one (its evidence counts for its replacement)."""
        strong = {t for t, e in evidence.items() if e.score >= SUGGEST_THRESHOLD}
        strong = {t for t in strong if self._current(dimension, t)}
        implied = {a for t in strong for a in self.taxonomy.ancestors(dimension, t)}
        return sorted(strong - implied, key=lambda t: (-evidence[t].score, t))

    def _current(self, dimension: str, term_id: str) -> bool:
        term = self.taxonomy.term(dimension, term_id)
        return term is not None and term.deprecated is None

    def suggest(self, record: Record) -> dict[str, DimensionSuggestions]:
        evidence = self.evidence(record)
        return {d: self._judge_dimension(record, d, evidence[d]) for d in DIMENSIONS}

    def _judge_dimension(
        self, record: Record, dimension: str, evidence: dict[str, TermEvidence]
    ) -> DimensionSuggestions:
        if self.taxonomy.unread(dimension):  # (where each term carried had a score of 0)
            return DimensionSuggestions(not_judged=self.taxonomy.file_problem(dimension))
        carried = set(record.facets.get(dimension, ()))
        # A deprecated term carried is its replacement carried (IL302 says to write it).
        meant = {t: self.taxonomy.replacement(dimension, t) or t for t in carried}
        implied = {a for t in meant.values() for a in self.taxonomy.ancestors(dimension, t)}
        result = DimensionSuggestions()
        for term in self.predict(evidence, dimension):
            if term not in {*meant.values(), *implied}:
                result.missing.append(_suggestion(term, evidence[term]))
        for term in sorted(carried):
            support = evidence.get(meant[term], TermEvidence())
            result.support[term] = _suggestion(term, support)
            if support.score < UNSUPPORTED_BELOW and self.taxonomy.term(dimension, term):
                result.unsupported.append(result.support[term])
        return result


def _suggestion(term: str, evidence: TermEvidence) -> Suggestion:
    return Suggestion(term, round(evidence.score, 3), evidence.to_json())


def _phrase_strength(hits: list[Hit]) -> float:
    """Strongest field counts; each other field where the term appears adds to it."""
    by_field: dict[str, float] = {}
    for hit in hits:
        by_field[hit.field] = FIELD_STRENGTH.get(hit.field, 0.3)
    doubt = 1.0
    for strength in by_field.values():
        doubt *= 1.0 - strength
    return 1.0 - doubt
