"""What a change to the taxonomy does to the incidents: the terms it adds, removes,
deprecates, relabels or moves, with the incident files that carry them, and the search
filters that find other incidents for it.

A pull request that changes only `schema/taxonomy/` changes no incident, yet it decides what
every incident carrying a term means: the reviewer needs to see which incidents, and how
many, before deciding on "deprecate x in favour of y". Both taxonomies are read through
`Taxonomy`'s public methods, as lint, fix and search read them, and the incidents are those
of the head, so that what is compared is the taxonomy alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from curator.model import DIMENSIONS, Dimension, Term
from curator.review.model import FilterChange, TermChange, TermChangeKind
from curator.taxonomy import Taxonomy

KEPT = 100  # incident names a report keeps per list; the rest are counted


@dataclass(frozen=True)
class Carrier:
    """An incident file of the head: its name (without `.yaml`), the terms it carries, and
    whether it is withdrawn (search never lists a withdrawn incident)."""

    name: str
    facets: Mapping[str, Sequence[str]]
    withdrawn: bool = False


def term_changes(
    before: Taxonomy, after: Taxonomy, incidents: Sequence[Carrier]
) -> list[TermChange]:
    """Each term whose meaning for the incidents changes, in dimension and file order (the
    head's terms, then those only the base has). A change of description or aliases alone
    is not one: no incident carries another term for it. A dimension whose file either
    taxonomy could not read, and a term whose definition either breaks (IL303), are not
    compared: their terms are unread, not removed or added (`Review.taxonomy_unread` says so)."""
    found: list[tuple[Dimension, str, Term | None, Term | None, list[TermChangeKind]]] = []
    for dimension in _compared(before, after):
        old, new = before.terms.get(dimension, {}), after.terms.get(dimension, {})
        broken = {t for d, t in (*before.broken, *after.broken) if d == dimension}
        for term_id in [*new, *(t for t in old if t not in new)]:
            if term_id in broken:
                continue
            kinds = _kinds(old.get(term_id), new.get(term_id))
            if kinds:
                found.append((dimension, term_id, old.get(term_id), new.get(term_id), kinds))
    carriers = _carriers({(d, t) for d, t, *_ in found}, incidents)
    return [
        _term_change(
            after, dimension, term_id, was, now, kinds, carriers.get((dimension, term_id), [])
        )
        for dimension, term_id, was, now, kinds in found
    ]


def _compared(before: Taxonomy, after: Taxonomy) -> list[Dimension]:
    """The dimensions whose file both taxonomies could read."""
    return [d for d in DIMENSIONS if not before.unread(d) and not after.unread(d)]


def _kinds(was: Term | None, now: Term | None) -> list[TermChangeKind]:
    if now is None:
        return ["removed"]
    if was is None:
        return ["added"]
    kinds: list[TermChangeKind] = []
    if now.deprecated and (
        not was.deprecated or was.deprecated.replaced_by != now.deprecated.replaced_by
    ):
        kinds.append("deprecated")
    if was.deprecated and not now.deprecated:
        kinds.append("restored")
    if was.label != now.label:
        kinds.append("relabelled")
    if was.parent != now.parent:
        kinds.append("moved")
    return kinds


def _carriers(
    wanted: set[tuple[Dimension, str]], incidents: Iterable[Carrier]
) -> dict[tuple[Dimension, str], list[str]]:
    """The incidents carrying each of `wanted`, in one pass over the library."""
    carriers: dict[tuple[Dimension, str], list[str]] = {}
    for incident in incidents:
        for dimension in DIMENSIONS:
            for term_id in dict.fromkeys(incident.facets.get(dimension, ())):
                if (dimension, term_id) in wanted:
                    carriers.setdefault((dimension, term_id), []).append(incident.name)
    return carriers


def _term_change(
    after: Taxonomy,
    dimension: Dimension,
    term_id: str,
    was: Term | None,
    now: Term | None,
    kinds: list[TermChangeKind],
    carriers: list[str],
) -> TermChange:
    relabelled = "relabelled" in kinds and was is not None
    return TermChange(
        dimension=dimension,
        term=term_id,
        kinds=kinds,
        replaced_by=now.deprecated.replaced_by if now and now.deprecated else None,
        fixable=after.replacement(dimension, term_id) is not None,
        label_was=_label(was) if relabelled else None,
        label=_label(now),
        parent_was=was.parent if was else None,
        parent=now.parent if now else None,
        old_label_names=_old_label_names(after, dimension, was) if relabelled else None,
        carried_by=len(carriers),
        incidents=carriers[:KEPT],
    )


def _label(term: Term | None) -> str | None:
    return f"{term.label.ko} / {term.label.en}" if term else None


def _old_label_names(after: Taxonomy, dimension: str, was: Term | None) -> str | None:
    """The term the base's labels name at the head, as lint's did-you-mean, fix, new and
    search take a name: the term itself when an alias keeps one of them."""
    if was is None:
        return None
    named = [after.named_term(dimension, label) for label in (was.label.ko, was.label.en)]
    return was.id if was.id in named else next((n for n in named if n), None)


def filter_changes(
    before: Taxonomy, after: Taxonomy, incidents: Sequence[Carrier]
) -> list[FilterChange]:
    """The terms of the head whose search filter finds other incidents than at the base:
    a filter on a term finds those carrying it or a narrower term, and, for a deprecated
    one, its replacement (`curator search`), so a new parent or deprecation moves them.
    Withdrawn incidents are not searched, nor a dimension either taxonomy could not read."""
    changes: list[FilterChange] = []
    for dimension in _compared(before, after):
        gained: dict[str, list[str]] = {}
        lost: dict[str, list[str]] = {}
        old, new = _filtered_by(before, dimension), _filtered_by(after, dimension)
        for incident in incidents:
            if incident.withdrawn:
                continue
            own = incident.facets.get(dimension, ())
            found_before = _found(before, dimension, own, old)
            found_after = _found(after, dimension, own, new)
            for term_id in found_after - found_before:
                gained.setdefault(term_id, []).append(incident.name)
            for term_id in found_before - found_after:
                if term_id in after.terms.get(dimension, {}):  # a filter the head still takes
                    lost.setdefault(term_id, []).append(incident.name)
        for term_id in after.terms.get(dimension, {}):
            if term_id in gained or term_id in lost:
                more, fewer = gained.get(term_id, []), lost.get(term_id, [])
                changes.append(
                    FilterChange(
                        dimension=dimension,
                        term=term_id,
                        gains=len(more),
                        gained=more[:KEPT],
                        loses=len(fewer),
                        lost=fewer[:KEPT],
                    )
                )
    return changes


def _filtered_by(taxonomy: Taxonomy, dimension: str) -> dict[str, list[str]]:
    """Term id → the terms whose filter looks for it: itself, and the deprecated terms it
    replaces (a filter on one looks for its replacement, as `curator search` does)."""
    looked_for: dict[str, list[str]] = {}
    for term_id in taxonomy.terms.get(dimension, {}):
        wanted = taxonomy.replacement(dimension, term_id) or term_id
        looked_for.setdefault(wanted, []).append(term_id)
    return looked_for


def _found(
    taxonomy: Taxonomy, dimension: str, own: Sequence[str], filtered_by: dict[str, list[str]]
) -> set[str]:
    """The terms whose filter finds an incident carrying `own`: those whose wanted term is
    in the lineage of one it carries (itself, its ancestors, a replacement's)."""
    lines = {term for carried in own for term in taxonomy.lineage(dimension, carried)}
    return {term for line in lines for term in filtered_by.get(line, ())}
