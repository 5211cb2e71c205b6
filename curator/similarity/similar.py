"""`curator similar`: the incidents most likely to describe the same event, with reasons.

Each kind of evidence gives a strength in [0, 1]:
- the same normalised source URL: decisive, the score is 1;
- text similarity (cosine of TF-IDF vectors, see index.py), ramped from `TEXT_FLOOR`;
- shared distinctive entities, by their summed rarity (see index.Index.shared_rarity);
- the same organisation, more the closer the `occurred` dates, and less the more of its
  incidents lie that close (`CLOSE_STRENGTH`).
The score is 1 − Π(1 − strength): the chance that at least one piece of evidence is right if
they were independent. Dates that are known on both sides and lie far apart are evidence
*against*: the score is then multiplied by `DATE_CONFLICT_FACTOR`. docs/judgement.md
explains the numbers and how they were chosen.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

import numpy as np

from curator.model import PARTIAL_DATE_PATTERN, parse_partial_date
from curator.similarity.entities import GENERIC, counted, entities, name_parts
from curator.similarity.index import Index
from curator.similarity.records import Record, organisation_key
from curator.taxonomy import fold
from curator.urls import is_paper

DUPLICATE_THRESHOLD = 0.6
MIN_SCORE = 0.2
TEXT_FLOOR, TEXT_FULL, TEXT_WEIGHT = 0.08, 0.40, 0.95
ENTITY_FLOOR, ENTITY_SCALE = 0.5, 3.0
DATE_CONFLICT_DAYS = 31  # apart by more than this: different events
DAY_CONFLICT_DAYS = 7  # when both dates name a day, reports of one event agree closer
DATE_CONFLICT_FACTOR = 0.5
# Same organisation within a month (a date strength of 0.3 or more) says "this one" only if
# the organisation had no other incident then: among k, its strength is divided by √k.
CLOSE_STRENGTH = 0.3
_SHOWN_ENTITIES = 6
# A share (16%) or a count without a unit (32, 500) is no evidence of one event: reports of
# different events give the same one by chance, however few incidents of a library hold it.
# (A decimal without a unit stays: mostly a version, Ubuntu 22.04.) docs/judgement.md.
_COINCIDENCE = re.compile(r"\d+(?:\.\d+)?%|\d+")

Kind = Literal["duplicate", "related"]


@dataclass(frozen=True)
class Match:
    id: str
    title: str
    path: str
    score: float
    kind: Kind
    reasons: list[str]
    copies: list[str] = field(default_factory=list)  # its withdrawn duplicates that matched
    # It, or a copy that matched, cites a report the incident judged cites: lint allows a
    # report to one incident only (IL502), which `not_duplicate_of` does not change.
    same_report: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "score": self.score,
            "kind": self.kind,
            "reasons": self.reasons,
            "title": self.title,
            "path": self.path,
            "copies": self.copies,
        }


def occurred_range(text: str | None) -> tuple[int, int] | None:
    """A partial date as the first and last day it may mean (proleptic ordinals); None
    for what the schema's pattern does not allow (IL201)."""
    if not text or not re.fullmatch(PARTIAL_DATE_PATTERN, text):
        return None
    try:
        year, month, day = parse_partial_date(text)
        if day is not None and month is not None:
            first = last = dt.date(year, month, day)
        elif month is not None:
            first = dt.date(year, month, 1)
            last = dt.date(year, month, calendar.monthrange(year, month)[1])
        else:
            first, last = dt.date(year, 1, 1), dt.date(year, 12, 31)
    except ValueError:
        return None
    return first.toordinal(), last.toordinal()


class Dates:
    """Every incident's `occurred` as arrays of first and last day (-1 when unknown)."""

    def __init__(self, records: list[Record]) -> None:
        # Each date worked out once: 100,000 incidents name a few thousand (0.7 s → 0.05 s).
        occurred = [r.occurred for r in records]
        known = {text: occurred_range(text) or (-1, -1) for text in set(occurred)}
        ranges = [known[text] for text in occurred]
        self.first = np.array([r[0] for r in ranges], dtype=np.int64)
        self.last = np.array([r[1] for r in ranges], dtype=np.int64)


class Judge:
    """Scores one incident against every incident of an index."""

    def __init__(self, index: Index) -> None:
        self.index = index

    @cached_property
    def dates(self) -> Dates:
        return Dates(self.index.records)

    def similar(
        self,
        record: Record,
        top: int = 5,
        honour_settled: bool = True,
        exclude: frozenset[str] = frozenset(),
    ) -> list[Match]:
        if len(self.index) == 0:
            return []
        evidence = Evidence.of(self, record)
        score = evidence.combined()
        for row in self._excluded(record, honour_settled, exclude):
            score[row] = -1.0
        shown = _fold_copies(score, *self.index.copies)
        # Scores are final here: reasons are worked out for the shown matches only.
        rows = _top(shown, top, self.index.id_ranks)
        return [evidence.match(row, shown, score) for row in rows if shown[row] >= MIN_SCORE]

    def compare(self, record: Record, other_id: str) -> Match | None:
        """`record` scored against the incident `other_id` alone, settled or not: how a
        claim that the two are one event (`duplicate_of`) looks to the judge."""
        rows = [r for r in self.index.by_id.get(other_id, []) if r not in self._self_rows(record)]
        if not rows:
            return None
        evidence = Evidence.of(self, record)
        score = evidence.combined()
        for row in self._self_rows(record):  # (a withdrawn record is a copy of `other_id`)
            score[row] = -1.0
        return evidence.match(rows[0], score, score)

    def _self_rows(self, record: Record) -> list[int]:
        """The row of the file `record` was read from, when the index holds it: by its
        place, not its id, as a copy under another name carries the id of the incident it
        repeats (`incidents/IL-0198.yml`, `IL-0301.yaml` holding `id: IL-0198`)."""
        return [self.index.by_path[record.path]] if record.path in self.index.by_path else []

    def neighbours(
        self, record: Record, count: int, exclude: frozenset[str] = frozenset()
    ) -> list[tuple[int, float]]:
        """The `count` rows most similar to `record` by any evidence, settled or not."""
        if len(self.index) == 0:
            return []
        score = Evidence.of(self, record).combined()
        for row in self._excluded(record, False, exclude):
            score[row] = -1.0
        # A withdrawn incident repeats another one, or is no incident: its facets are no
        # evidence, and the incident it repeats is a neighbour in its own right.
        score[self.index.withdrawn] = -1.0
        return [
            (row, float(score[row]))
            for row in _top(score, count, self.index.id_ranks)
            if score[row] > 0
        ]

    def _excluded(self, record: Record, honour_settled: bool, exclude: frozenset[str]) -> list[int]:
        index = self.index
        rows = self._self_rows(record)
        for other in exclude:
            rows += index.by_id.get(other, [])
        if honour_settled:
            # Settled either way round; a withdrawn duplicate of a settled incident counts
            # too, and a duplicate of that one.
            for other in record.settled:
                rows += index.by_id.get(other, []) + index.copies_of(other)
            rows += index.settled_with.get(record.id, [])
        return rows


@dataclass
class Evidence:
    """Every strength of one incident against all rows of the index."""

    judge: Judge
    record: Record
    cosine: np.ndarray
    entity_names: set[str]
    rarity: np.ndarray
    organisation: np.ndarray
    crowd: int  # incidents of its organisations within a month (CLOSE_STRENGTH)
    conflict: np.ndarray
    url_rows: set[int]

    @classmethod
    def of(cls, judge: Judge, record: Record) -> Evidence:
        index = judge.index
        names = {name for name in entities(record.text) if not _COINCIDENCE.fullmatch(name)}
        rarity = _shared_rarity(index, record, names)
        organisation, crowd, conflict = _organisation_and_dates(judge, record)
        url_rows = {row for url in record.urls for row in index.by_url.get(url, [])}
        return cls(
            judge,
            record,
            index.cosine(index.vector(record.text)),
            names,
            rarity,
            organisation,
            crowd,
            conflict,
            url_rows,
        )

    def text_strength(self) -> np.ndarray:
        ramp = (self.cosine - TEXT_FLOOR) / (TEXT_FULL - TEXT_FLOOR)
        return np.clip(ramp, 0.0, 1.0) * TEXT_WEIGHT

    def entity_strength(self) -> np.ndarray:
        return 1.0 - np.exp(-np.maximum(self.rarity - ENTITY_FLOOR, 0.0) / ENTITY_SCALE)

    def combined(self) -> np.ndarray:
        doubt = (1.0 - self.text_strength()) * (1.0 - self.entity_strength())
        doubt *= 1.0 - self.organisation
        score = 1.0 - doubt
        score[self.conflict] *= DATE_CONFLICT_FACTOR
        for row in self.url_rows:
            score[row] = 1.0
        return score

    def match(self, row: int, shown: np.ndarray, own: np.ndarray) -> Match:
        """The match of `row` at its `shown` score, which its withdrawn copies may have
        raised above its `own`: each copy that matched is named, with its reasons."""
        index = self.judge.index
        other = index.records[row]
        score = round(float(shown[row]), 3)
        kind: Kind = "duplicate" if score >= DUPLICATE_THRESHOLD else "related"
        reasons = self.reasons(row)
        if other.duplicate_of:
            reasons.append(f"{other.id} is withdrawn as a duplicate of {other.duplicate_of}")
        copies, originals = index.copies
        matched = [int(c) for c in copies[originals == row] if own[c] >= MIN_SCORE]
        matched.sort(key=lambda c: (-own[c], c))
        for copy in matched:
            why = "; ".join(self.reasons(copy))
            reasons.append(f"its withdrawn copy {index.records[copy].id} ({own[copy]:.2f}): {why}")
        ids = [index.records[c].id for c in matched]
        same_report = any(r in self.url_rows for r in [row, *matched])
        return Match(other.id, other.title, other.path, score, kind, reasons, ids, same_report)

    def reasons(self, row: int) -> list[str]:
        index = self.judge.index
        other = index.records[row]
        mine = self.record
        reasons = [same_source(u, mine.spelt.get(u, u)) for u in mine.urls if u in other.urls]
        shared_orgs = _shared_organisations(self.record, other)
        if shared_orgs:
            # Dates far apart are said once, by the reason that counts them against the pair.
            dates = (
                "" if self.conflict[row] else ", " + _dates(self.record.occurred, other.occurred)
            )
            crowded = f" ({self.crowd} of its incidents lie within a month: ÷√{self.crowd})"
            reasons.append(
                f"same organisation {shared_orgs[0]}{dates}" + (crowded if self.crowd > 1 else "")
            )
        if self.conflict[row]:
            reasons.append(
                f"occurred {self.record.occurred} vs {other.occurred}: far apart, "
                "so probably a different event"
            )
        shared = counted(self.entity_names & index.entities_of(row))
        for name in shared_orgs:  # said once, above, as the organisation
            shared -= _writing(name, shared)
        if shared:
            rarity = {name: index.rarity_of(name) for name in shared}
            ranked = sorted(shared, key=lambda name: (-rarity[name], name))
            more = len(ranked) - _SHOWN_ENTITIES
            listed = ", ".join(ranked[:_SHOWN_ENTITIES]) + (f" (+{more} more)" if more > 0 else "")
            reasons.append(f"shared entities: {listed}")
        reasons.append(f"text similarity {self.cosine[row]:.2f}")
        return reasons


def _fold_copies(score: np.ndarray, copies: np.ndarray, originals: np.ndarray) -> np.ndarray:
    """`score` with each withdrawn copy folded into the incident it repeats, at the higher
    score of the two: one event is one match, never two. A row left out (-1) stays as it
    is, so a copy of a left-out incident (the query itself) stands alone."""
    folded = score.copy()
    live = (score[copies] >= 0) & (score[originals] >= 0)
    np.maximum.at(folded, originals[live], score[copies[live]])
    folded[copies[live]] = -1.0
    return folded


def _top(score: np.ndarray, count: int, ranks: np.ndarray) -> list[int]:
    """Rows of the `count` highest scores, highest first (ties by id: `Index.id_ranks`)."""
    count = min(len(score), count)
    if count <= 0:
        return []
    rows = np.argpartition(-score, count - 1)[:count]
    return [int(r) for r in rows[np.lexsort((rows, ranks[rows], -score[rows]))]]


def same_source(url: str, spelt: str | None = None) -> str:
    """The reason for citing the page of normal form `url`, which one side wrote `spelt`:
    that spelling is quoted (a normal form may be no file's, `…/outage/` without its
    slash), but for a paper, whose one address says which was matched."""
    if is_paper(url):  # each may cite another of its addresses: say which was matched
        return f"same paper {url} (at any of its addresses: version, PDF, mirror, DOI)"
    return f"same source URL {spelt or url}"


def _shared_rarity(index: Index, record: Record, names: set[str]) -> np.ndarray:
    """Per incident, the summed rarity of the entities of `names` it mentions, each fact
    counted once: a part of a name of several words not where the incident mentions that
    name (`northern virginia` counts, not `northern` and `virginia` again; `virginia` alone
    still meets it), and the entities that write an organisation's name not against that
    organisation's incidents, whose reason counts them already: `amazon` and `aws` beside
    "same organisation Amazon Web Services". Against any other incident, a text naming the
    organisation is evidence like any other name."""
    passed: dict[str, list[np.ndarray]] = {}  # per entity, the rows where it does not count
    for name in names:
        for part in names.intersection(name_parts(name)):
            passed.setdefault(part, []).append(index.rows_mentioning(name))
    for organisation in record.organizations:
        rows = np.array(index.by_organisation.get(organisation_key(organisation), []), np.int32)
        for word in _writing(organisation, names):
            passed.setdefault(word, []).append(rows)
    cols = index.entity_columns(names - passed.keys())
    rarity = index.shared_rarity(cols) if len(cols) else np.zeros(len(index))
    # A mask of the rows passed, not a set difference: `setdiff1d` sorts every row that
    # mentions the entity (20,000 of 100,000 for a common name), which took a query's p95
    # from 11 to 26 ms at 100,000 incidents.
    skipped = np.zeros(len(index), dtype=bool)
    for name, rows_passed in passed.items():
        mentioning = index.rows_mentioning(name)
        skipped[:] = False
        for rows in rows_passed:
            skipped[rows] = True
        rarity[mentioning[~skipped[mentioning]]] += index.rarity_of(name)
    return rarity


def _name_words(name: str) -> set[str]:
    """The entities that write the organisation `name`: its key, and for a name of several
    words it as one (`amazon web services`), its first word and its initials (`amazon` and
    `aws` of Amazon Web Services)."""
    parts = [fold(word) for word in _NAME_WORD.findall(name)]
    found = {organisation_key(name)}
    if len(parts) > 1:
        found |= {" ".join(parts), parts[0], "".join(part[0] for part in parts if part)}
    return found


_NAME_WORD = re.compile(r"[^\W_]+")


def _writing(organisation: str, names: set[str]) -> set[str]:
    """The entities of `names` that write `organisation` (`_name_words`), and the names of
    several words made of its words and generic ones (`GENERIC`), holding one of its own:
    `google cloud` and `cloudflare status` of Google and Cloudflare, `knight capital` of
    Knight Capital Americas LLC. Two Google incidents sharing `google cloud` share no more
    than their maker, which "same organisation Google" counts already (IL-0206 and IL-0208
    were related by it alone)."""
    own = _name_words(organisation)
    words = own | {word for name in own for word in name.split(" ")}
    return (names & own) | {
        name
        for name in names
        if len(parts := set(name.split(" "))) > 1
        and parts & words - GENERIC
        and parts <= words | GENERIC
    }


def _shared_organisations(one: Record, other: Record) -> list[str]:
    keys = other.organisation_keys()
    return [name for name in one.organizations if name and organisation_key(name) in keys]


def _organisation_and_dates(judge: Judge, record: Record) -> tuple[np.ndarray, int, np.ndarray]:
    """Strength of "same organisation, close dates" per row, how many other events of its
    organisations lie within a month, and rows whose dates conflict."""
    index = judge.index
    n = len(index)
    strength = np.zeros(n)
    dates = judge.dates
    mine = occurred_range(record.occurred)
    known = dates.first >= 0
    gap = np.full(n, -1, dtype=np.int64)
    if mine is not None:
        gap[known] = np.maximum(
            0, np.maximum(dates.first[known], mine[0]) - np.minimum(dates.last[known], mine[1])
        )
    conflict = gap > DATE_CONFLICT_DAYS
    if mine is not None and mine[0] == mine[1]:
        both_days = dates.first == dates.last
        conflict |= both_days & (gap > DAY_CONFLICT_DAYS)
    keys = record.organisation_keys()
    rows = sorted({r for key in keys for r in index.by_organisation.get(key, [])})
    if rows:
        picked = np.array(rows, dtype=np.int64)
        # How vague the vaguer of the two dates is: "2023" overlaps much more than a day.
        own_width = mine[1] - mine[0] if mine else 0
        width = np.maximum(dates.last[picked] - dates.first[picked], own_width)
        strength[picked] = _date_strength(gap[picked], width)
    crowd = _crowd(judge, record, strength)
    if crowd > 1:
        strength /= np.sqrt(crowd)
    return strength, crowd, conflict


def _crowd(judge: Judge, record: Record, strength: np.ndarray) -> int:
    """How many incidents of the record's organisations lie within a month of it, each event
    once: neither the record's own file nor a withdrawn copy counts."""
    close = strength >= CLOSE_STRENGTH
    close[judge.index.copies[0]] = False
    close[judge._self_rows(record)] = False
    return int(close.sum())


def _date_strength(gap: np.ndarray, width: np.ndarray) -> np.ndarray:
    """Same organisation: how strongly the dates say "same event" (gap -1: a date unknown)."""
    strength = np.full(len(gap), 0.15)
    close = gap >= 0
    same_day = close & (gap == 0) & (width == 0)
    overlapping = close & (gap == 0) & (width > 0)
    strength[same_day] = 0.75
    strength[overlapping] = np.where(width[overlapping] <= 31, 0.55, 0.25)
    near = close & (gap > 0)
    strength[near] = np.select(
        [gap[near] <= DAY_CONFLICT_DAYS, gap[near] <= DATE_CONFLICT_DAYS], [0.45, 0.3], default=0.0
    )
    return strength


def _dates(mine: str | None, theirs: str | None) -> str:
    """The two `occurred` dates, as a reason says them (an unknown one in words, not `?`)."""
    if mine is None and theirs is None:
        return "neither gives a date"
    return f"occurred {mine or 'date not given'} vs {theirs or 'date not given'}"
