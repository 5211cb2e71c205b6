"""`similar` and `suggest` for the review: their library functions, their results as
review values. The index is the library's cached one (built once per library content)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from curator.library import Library
from curator.review.model import Evidence, FacetJudgement, Match, TermJudgement
from curator.similarity.records import Record, read_record
from curator.similarity.similar import Judge as Similarity
from curator.similarity.store import load_index
from curator.similarity.suggest import Suggester, Suggestion

TOP = 5  # as many possible duplicates and related incidents as a reviewer reads


class LibraryJudge:
    """Judgements on incident files of one library, against the whole of it."""

    def __init__(self, library: Library) -> None:
        self.library = library
        index = load_index(library)
        self.similarity = Similarity(index)
        self.suggester = Suggester(index, library.taxonomy, self.similarity)

    def _record(self, path: Path) -> Record | None:
        return read_record(path, path.relative_to(self.library.root).as_posix())

    def matches(self, path: Path) -> list[Match]:
        record = self._record(path)
        if record is None:
            return []
        return [
            Match(id=m.id, score=m.score, reasons=m.reasons, kind=m.kind, title=m.title)
            for m in self.similarity.similar(record, top=TOP)
        ]

    def compare(self, path: Path, other_id: str) -> Match | None:
        record = self._record(path)
        found = self.similarity.compare(record, other_id) if record else None
        if found is None:
            return None
        return Match(
            id=found.id,
            score=found.score,
            reasons=found.reasons,
            kind=found.kind,
            title=found.title,
        )

    def suggestions(self, path: Path) -> list[FacetJudgement]:
        record = self._record(path)
        if record is None:
            return []
        return [
            FacetJudgement(
                dimension=dimension,  # type: ignore[arg-type]
                missing=[_judgement(s) for s in judged.missing],
                unsupported=[_judgement(s) for s in judged.unsupported],
            )
            for dimension, judged in self.suggester.suggest(record).items()
        ]


def _judgement(suggestion: Suggestion) -> TermJudgement:
    return TermJudgement(
        term=suggestion.term,
        score=suggestion.score,
        evidence=[_evidence(e) for e in suggestion.evidence],
    )


def _evidence(item: dict[str, Any]) -> Evidence:
    return Evidence.model_validate(
        {
            key: item[key]
            for key in ("phrase", "field", "incident", "similarity", "kind")
            if key in item
        }
    )
