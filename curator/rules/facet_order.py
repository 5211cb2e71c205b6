"""Each facet list names a term once, in alphabetical order.

The order of terms carries no meaning, so one order for all keeps diffs small and makes a
repeated term easy to see. `curator fix` sorts the list and drops the repeats.
"""

from curator.findings import Severity
from curator.model import Facets
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL304",
    name="facet-order",
    severity=Severity.WARNING,
    summary="A facet list repeats a term or is not in alphabetical order.",
    failing="facets:\n  components:\n    - nccl\n    - infiniband\n    - nccl\n",
    passing="facets:\n  components:\n    - infiniband\n    - nccl\n",
    fixable=True,
)
_DIMENSIONS = tuple(Facets.model_fields)  # in the order the model lists them


def tidy(terms: list[str]) -> list[str]:
    """The list as this rule wants it."""
    return sorted(set(terms))


def in_order(terms: list[str]) -> bool:
    """Whether `terms == tidy(terms)`, which is each term after the one before it (so none
    is repeated), seen without sorting: most lists hold one to three terms."""
    for index in range(1, len(terms)):  # noqa: SIM110 - for so few, cheaper than all()
        if not terms[index - 1] < terms[index]:
            return False
    return True


def check(file: IncidentFile) -> FileFindings:
    if file.incident is None:
        return
    facets = file.incident.facets
    for dimension in _DIMENSIONS:
        terms: list[str] = getattr(facets, dimension)
        if in_order(terms):
            continue  # (nearly every list)
        seen: set[str] = set()
        for index, term in enumerate(terms):
            if term in seen:
                yield RULE.at(
                    file.display,
                    file.position("facets", dimension, index),
                    f"{term!r} is already listed in {dimension}",
                )
            seen.add(term)
        if len(seen) < len(terms):
            continue
        first = next(i for i, (a, b) in enumerate(zip(terms, tidy(terms), strict=True)) if a != b)
        yield RULE.at(
            file.display,
            file.position("facets", dimension, first),
            f"{dimension} are not in alphabetical order; expected {', '.join(tidy(terms))}",
        )
