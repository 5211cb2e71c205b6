"""`similar` and `suggest` for the review: their library functions, their results as
review values. The index is the library's cached one (built once per library content),
unless the review says the library is a temporary copy, whose cache nobody would read; or,
with the incidents the base branch added, built for the run from the library's cached
shares and those files."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from curator.library import INCIDENTS, Library
from curator.review.model import (
    MAX_REASONS,
    Evidence,
    FacetJudgement,
    Match,
    TermJudgement,
    more_reasons,
)
from curator.similarity.commands import Unread, left_out
from curator.similarity.index import NONE_ADDED, Added
from curator.similarity.records import Record, parse_mapping, read_record, record_of
from curator.similarity.similar import Judge as Similarity
from curator.similarity.similar import Match as Similar
from curator.similarity.store import load_index
from curator.similarity.suggest import Suggester, Suggestion

TOP = 5  # as many possible duplicates and related incidents as a reviewer reads


@dataclass(frozen=True)
class Judged:
    """What `suggest` says of an incident: the terms missing and unsupported by dimension,
    and the support of every term it carries, by (dimension, term)."""

    facets: list[FacetJudgement] = field(default_factory=list)
    support: Mapping[tuple[str, str], TermJudgement] = field(default_factory=dict)


class LibraryJudge:
    """Judgements on incident files against the whole of one library and the incident
    files `added`, which only the base branch's tip has (by the name each would have in
    the library's incidents/: `index.Added`); `cache`: whether the index, or the shares of
    the library's files, are read from and kept in the library's `.curator-cache/`."""

    def __init__(self, library: Library, added: Added = NONE_ADDED, cache: bool = True) -> None:
        self.library = library
        self.added = added
        self.on_base = frozenset(f"{INCIDENTS}/{name}" for name in added)
        index = load_index(library, use_cache=cache, added=added)
        self.skipped = frozenset(index.skipped)
        self.similarity = Similarity(index)
        # Ids that only the base's additions carry: evidence naming one is linked at the base.
        on_base = {r.id for r in index.records if r.path in self.on_base} if added else set()
        at_head = {r.id for r in index.records if r.path not in self.on_base} if on_base else set()
        self.base_ids = frozenset(on_base - at_head)
        self.suggester = Suggester(index, library.taxonomy, self.similarity)

    def unread_on_base(self) -> list[Unread]:
        """The files of `added` the index holds nothing of, as lint reports each (its place
        in the library's incidents/ for its path), in name order: no incident was compared
        with them, which `similar` and `suggest` say as this (`commands.unread`)."""
        found = (
            left_out(path, f"{INCIDENTS}/{name}")
            for name, path in sorted(self.added.items())
            if f"{INCIDENTS}/{name}" in self.skipped
        )
        return [file for file in found if file is not None]

    def _record(self, path: Path) -> Record | None:
        # Its place by name, as the index names every file it holds (`incidents/NAME`,
        # whatever folder it was read from: the base's additions are elsewhere): that
        # place is how the index knows a file is the incident itself.
        return read_record(path, f"{INCIDENTS}/{path.name}")

    def _match(self, found: Similar) -> Match:
        return Match(
            id=found.id,
            score=found.score,
            reasons=_bounded(found.reasons),
            kind=found.kind,
            title=found.title,
            on_base=found.path in self.on_base,
            same_report=found.same_report,
        )

    def matches(self, path: Path) -> list[Match]:
        record = self._record(path)
        if record is None:
            return []
        return [self._match(m) for m in self.similarity.similar(record, top=TOP)]

    def at_base(self, path: Path, before: bytes) -> dict[str, str]:
        """The kind of each incident `similar` finds for the file at `path` as the base has
        it (`before`), by id: scored against this library as the head's file is, under its
        place (so its own version at the head is left out, and it is never compared with
        itself), with twice the rows shown, so that an edit moving a match one place down
        the list does not make it new."""
        data = parse_mapping(before)
        if data is None:
            return {}
        record = record_of(data, f"{INCIDENTS}/{path.name}", path.stem)
        return {m.id: m.kind for m in self.similarity.similar(record, top=2 * TOP)}

    def compare(self, path: Path, other_id: str) -> Match | None:
        record = self._record(path)
        found = self.similarity.compare(record, other_id) if record else None
        return self._match(found) if found else None

    def suggestions(self, path: Path) -> Judged:
        record = self._record(path)
        if record is None:
            return Judged()
        # A dimension whose taxonomy file cannot be read has no terms to suggest or to judge
        # a carried one by: nothing is said of it, where a score of 0 said nothing supports it.
        suggested = [
            (d, j) for d, j in self.suggester.suggest(record).items() if j.not_judged is None
        ]
        return Judged(
            facets=[
                FacetJudgement(
                    dimension=dimension,  # type: ignore[arg-type]
                    missing=[_judgement(s, self.base_ids) for s in judged.missing],
                    unsupported=[_judgement(s, self.base_ids) for s in judged.unsupported],
                )
                for dimension, judged in suggested
            ],
            support={
                (dimension, term): _judgement(s, self.base_ids)
                for dimension, judged in suggested
                for term, s in judged.support.items()
            },
        )


def _bounded(reasons: list[str]) -> list[str]:
    """At most the MAX_REASONS a report holds, the last counting the rest: an incident
    with more than a hundred withdrawn copies has a reason for each, and the report's
    model refused the match (a traceback, no review)."""
    if len(reasons) <= MAX_REASONS:
        return reasons
    rest = len(reasons) - MAX_REASONS + 1
    return [*reasons[: MAX_REASONS - 1], more_reasons(rest)]


def _judgement(suggestion: Suggestion, base_ids: frozenset[str]) -> TermJudgement:
    return TermJudgement(
        term=suggestion.term,
        score=suggestion.score,
        evidence=[_evidence(e, base_ids) for e in suggestion.evidence],
    )


def _evidence(item: dict[str, Any], base_ids: frozenset[str]) -> Evidence:
    return Evidence.model_validate(
        {
            **{
                key: item[key]
                for key in ("phrase", "field", "alias", "incident", "similarity", "kind")
                if key in item
            },
            "on_base": item.get("incident") in base_ids,
        }
    )
