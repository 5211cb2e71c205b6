"""The labelled evaluation of `curator similar` and `curator suggest`.

    python tests/eval/run.py [--root LIBRARY] [--format text|json]

Duplicates, from two sources:
- the library itself: every withdrawn incident with `duplicate_of` is a second write-up of
  an event the library already has (most are Korean write-ups of a news report or a
  conference talk about the same event);
- `tests/eval/incidents/`: write-ups made for this evaluation from public reports, in
  English, of events the library has in Korean; `tests/eval/labels.yaml` names the event.
  It also lists write-ups of events the library lacks, from organisations it has many
  incidents of (`different_events`): nothing may be flagged as their duplicate.
Each query is judged as a new incident would be: its own `duplicate_of`, `related` and
`not_duplicate_of` are ignored, and the incident itself is left out. An answer is right when
it is the labelled incident or another write-up of the same event (its duplicate cluster).
- recall@1 and recall@5: the share of queries with a right answer at rank 1, in the top 5;
- flagged: the queries with a right answer scored at or above DUPLICATE_THRESHOLD (a
  possible duplicate); each one that is not is listed, with its right answer's score and
  reasons, as found at rank 1 is not found by a reviewer who reads only what is flagged;
- precision at the flag threshold: of all pairs scored at or above DUPLICATE_THRESHOLD when
  every incident of the library is queried, the share that are the same event. Every other
  pair is a negative, including the hard ones (same organisation, or same component);
  how many of those there are, and how many were flagged, is printed too.

Noise: the score below which 95% of the pairs of different events in the library fall —
what an unrelated incident scores; facet evidence from neighbours starts above it
(NEIGHBOUR_FLOOR).

Facets, leave-one-out: for every incident that is not withdrawn, the terms `suggest` would
propose from its text and its neighbours — without its own facets, and with it and its
duplicates kept out of the neighbours — against the facets it carries. Micro-averaged
precision, recall and F1 per dimension, on exact term ids.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import yaml

from curator.library import Library
from curator.model import DIMENSIONS
from curator.similarity.index import Index, build
from curator.similarity.records import Record, read_record
from curator.similarity.similar import DUPLICATE_THRESHOLD, Evidence, Judge
from curator.similarity.suggest import NEIGHBOUR_FLOOR, Suggester

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


@dataclass
class PRF:
    true_positives: int = 0
    predicted: int = 0
    actual: int = 0

    @property
    def precision(self) -> float:
        return self.true_positives / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.true_positives / self.actual if self.actual else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass
class DuplicateFigures:
    queries: int = 0
    hits_at_1: int = 0
    hits_at_5: int = 0
    flagged: int = 0
    flagged_right: int = 0
    hard_negatives: int = 0
    hard_negatives_flagged: int = 0
    misses: list[str] = field(default_factory=list)
    same_event_flagged: int = 0  # queries whose right answer is a possible duplicate
    unflagged: list[str] = field(default_factory=list)  # the others, with score and reasons

    @property
    def recall_at_1(self) -> float:
        return self.hits_at_1 / self.queries if self.queries else 0.0

    @property
    def recall_at_5(self) -> float:
        return self.hits_at_5 / self.queries if self.queries else 0.0

    @property
    def precision(self) -> float:
        return self.flagged_right / self.flagged if self.flagged else 0.0


@dataclass
class Report:
    incidents: int
    library_pairs: DuplicateFigures
    written_pairs: DuplicateFigures
    all_pairs: DuplicateFigures
    noise: float
    facets: dict[str, PRF]

    def to_json(self) -> dict:
        def figures(d: DuplicateFigures) -> dict:
            return {
                **asdict(d),
                "recall_at_1": round(d.recall_at_1, 3),
                "recall_at_5": round(d.recall_at_5, 3),
                "precision_at_threshold": round(d.precision, 3),
            }

        return {
            "incidents": self.incidents,
            "duplicate_threshold": DUPLICATE_THRESHOLD,
            "duplicates": {
                "library": figures(self.library_pairs),
                "written": figures(self.written_pairs),
                "all": figures(self.all_pairs),
            },
            "noise_95": round(self.noise, 3),
            "neighbour_floor": NEIGHBOUR_FLOOR,
            "facets": {
                d: {
                    **asdict(prf),
                    "precision": round(prf.precision, 3),
                    "recall": round(prf.recall, 3),
                    "f1": round(prf.f1, 3),
                }
                for d, prf in self.facets.items()
            },
        }


def clusters(index: Index) -> dict[str, str]:
    """Incident id → the id of the event it belongs to (following duplicate_of)."""
    parent = {r.id: r.duplicate_of or r.id for r in index.records}

    def root(incident_id: str) -> str:
        seen = set()
        while parent.get(incident_id, incident_id) != incident_id and incident_id not in seen:
            seen.add(incident_id)
            incident_id = parent[incident_id]
        return incident_id

    return {incident_id: root(incident_id) for incident_id in parent}


def _labels(cases: Path) -> dict:
    return yaml.safe_load((cases / "labels.yaml").read_text(encoding="utf-8"))


def _case(cases: Path, name: str) -> Record:
    path = cases / name
    record = read_record(path, str(path.relative_to(REPO)))
    if record is None:
        raise SystemExit(f"{path}: not a readable incident")
    return record


def written_cases(cases: Path) -> list[tuple[Record, str]]:
    return [(_case(cases, c["input"]), c["same_event"]) for c in _labels(cases)["duplicates"]]


def written_negatives(cases: Path) -> list[Record]:
    return [_case(cases, c["input"]) for c in _labels(cases).get("different_events", [])]


def evaluate(root: Path, cases: Path = HERE) -> Report:
    library = Library.at(root)
    index = build(library)
    judge = Judge(index)
    event = clusters(index)
    full = {r.path: read_record(library.root / r.path, r.path) for r in index.records}
    library_queries = [
        (full[r.path], r.duplicate_of)
        for r in index.records
        if r.duplicate_of and r.duplicate_of in event and full[r.path] is not None
    ]
    library_pairs = _rank(judge, library_queries, event)
    written_pairs = _rank(judge, written_cases(cases), event)
    all_pairs = _merge(library_pairs, written_pairs)
    _precision(judge, [f for f in full.values() if f], event, all_pairs)
    _written_negatives(judge, written_negatives(cases), all_pairs)
    noise = _noise(judge, [f for f in full.values() if f], event)
    facets = _facets(index, library.taxonomy, judge, full, event)
    return Report(len(index), library_pairs, written_pairs, all_pairs, noise, facets)


def _rank(
    judge: Judge, queries: list[tuple[Record, str]], event: dict[str, str]
) -> DuplicateFigures:
    figures = DuplicateFigures()
    for record, expected in queries:
        matches = judge.similar(record, top=5, honour_settled=False)
        right = [event.get(m.id, m.id) == event.get(expected, expected) for m in matches]
        figures.queries += 1
        figures.hits_at_1 += bool(right[:1] and right[0])
        figures.hits_at_5 += any(right)
        if not (right[:1] and right[0]):
            got = matches[0].id if matches else "nothing"
            figures.misses.append(f"{record.id} ({record.path}): expected {expected}, got {got}")
        found = [m for m, is_right in zip(matches, right, strict=True) if is_right]
        if found and found[0].kind == "duplicate":
            figures.same_event_flagged += 1
        else:
            why = (
                f"{found[0].score:.3f}: " + "; ".join(found[0].reasons)
                if found
                else "not in the top 5"
            )
            figures.unflagged.append(f"{record.id} ({record.path}): {expected} at {why}")
    return figures


def _merge(one: DuplicateFigures, other: DuplicateFigures) -> DuplicateFigures:
    return DuplicateFigures(
        one.queries + other.queries,
        one.hits_at_1 + other.hits_at_1,
        one.hits_at_5 + other.hits_at_5,
        misses=one.misses + other.misses,
        same_event_flagged=one.same_event_flagged + other.same_event_flagged,
        unflagged=one.unflagged + other.unflagged,
    )


def _precision(
    judge: Judge, records: list[Record], event: dict[str, str], figures: DuplicateFigures
) -> None:
    """Every pair flagged at the threshold, library-wide, settled or not."""
    index = judge.index
    seen: set[tuple[str, str]] = set()
    for record in records:
        for match in judge.similar(record, top=len(index), honour_settled=False):
            if match.kind != "duplicate":
                break
            pair = tuple(sorted((record.id, match.id)))
            if pair in seen:
                continue
            seen.add(pair)
            figures.flagged += 1
            figures.flagged_right += event.get(record.id) == event.get(match.id)
    for i, one in enumerate(index.records):
        for other in index.records[i + 1 :]:
            if event.get(one.id) == event.get(other.id):
                continue
            same_org = one.organisation_keys() & other.organisation_keys()
            same_component = set(one.facets["components"]) & set(other.facets["components"])
            if same_org or same_component:
                figures.hard_negatives += 1
                figures.hard_negatives_flagged += tuple(sorted((one.id, other.id))) in seen


def _written_negatives(judge: Judge, records: list[Record], figures: DuplicateFigures) -> None:
    """Events the library lacks: every incident of the same organisation or with a shared
    component is a hard negative, and anything flagged is wrong."""
    for record in records:
        flagged = {
            m.id
            for m in judge.similar(record, top=len(judge.index), honour_settled=False)
            if m.kind == "duplicate"
        }
        figures.flagged += len(flagged)
        for other in judge.index.records:
            same_org = record.organisation_keys() & other.organisation_keys()
            shared = set(record.facets["components"]) & set(other.facets["components"])
            if same_org or shared:
                figures.hard_negatives += 1
                figures.hard_negatives_flagged += other.id in flagged


def _noise(judge: Judge, records: list[Record], event: dict[str, str]) -> float:
    """The 95th percentile of the scores of pairs of different events."""
    index = judge.index
    scores = []
    for record in records:
        score = Evidence.of(judge, record).combined()
        other = [event.get(r.id) != event.get(record.id) for r in index.records]
        scores.append(score[np.array(other, dtype=bool)])
    return float(np.percentile(np.concatenate(scores), 95))


def _facets(index, taxonomy, judge, full, event) -> dict[str, PRF]:
    suggester = Suggester(index, taxonomy, judge)
    figures = {d: PRF() for d in DIMENSIONS}
    members: dict[str, set[str]] = {}
    for incident_id, root in event.items():
        members.setdefault(root, set()).add(incident_id)
    for record in index.records:
        if record.status == "withdrawn":
            continue
        text_record = full[record.path]
        hidden = frozenset(members.get(event.get(record.id, record.id), set()) | {record.id})
        evidence = suggester.evidence(text_record, exclude=hidden)
        for dimension in DIMENSIONS:
            predicted = set(suggester.predict(evidence[dimension], dimension))
            actual = set(record.facets[dimension])
            prf = figures[dimension]
            prf.true_positives += len(predicted & actual)
            prf.predicted += len(predicted)
            prf.actual += len(actual)
    return figures


def render(report: Report) -> str:
    lines = [f"library: {report.incidents} incidents; duplicate threshold {DUPLICATE_THRESHOLD}"]
    lines.append("duplicates               queries  recall@1  recall@5")
    for name, d in (
        ("library pairs", report.library_pairs),
        ("written pairs (ko<->en)", report.written_pairs),
        ("all", report.all_pairs),
    ):
        lines.append(f"  {name:<23}{d.queries:>7}  {d.recall_at_1:>8.3f}  {d.recall_at_5:>8.3f}")
    a = report.all_pairs
    lines.append(
        f"precision at threshold: {a.precision:.3f} ({a.flagged_right} of {a.flagged} flagged "
        f"pairs are the same event); hard negatives flagged: {a.hard_negatives_flagged} of "
        f"{a.hard_negatives}"
    )
    for miss in a.misses:
        lines.append(f"  miss: {miss}")
    lines.append(
        f"same-event pairs flagged: {a.same_event_flagged} of {a.queries} (library "
        f"{report.library_pairs.same_event_flagged} of {report.library_pairs.queries}, written "
        f"{report.written_pairs.same_event_flagged} of {report.written_pairs.queries})"
    )
    for unflagged in a.unflagged:
        lines.append(f"  not flagged: {unflagged}")
    lines.append(
        f"noise: 95% of pairs of different events score below {report.noise:.3f}; "
        f"neighbour evidence starts at {NEIGHBOUR_FLOOR}"
    )
    lines.append("facets (leave-one-out)   precision  recall     F1  (predicted/actual)")
    for dimension, prf in report.facets.items():
        lines.append(
            f"  {dimension:<22}{prf.precision:>10.3f}{prf.recall:>8.3f}{prf.f1:>7.3f}  "
            f"({prf.predicted}/{prf.actual})"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=REPO)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args(argv)
    report = evaluate(args.root)
    if args.format == "json":
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    else:
        print(render(report), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
