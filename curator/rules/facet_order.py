"""Each facet list names a term once, in alphabetical order.

The order of terms carries no meaning, so one order for all keeps diffs small and makes a
repeated term easy to see. `curator fix` sorts the list and drops the repeats; but a
list with a comment line above an item it leaves to be sorted by hand, and the file whole:
only the comment's author can tell whether it speaks of the item below it or of the list.
So too a repeat whose line ends with a comment where an earlier item of the same term ends
with one: the one item left can end with one comment, and only their author can tell which
(or how to merge them).
"""

from collections.abc import Iterator
from dataclasses import replace

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
BY_HAND = "a comment line stands above an item: sort the list by hand"
REPEAT_BY_HAND = (
    "it and the item above each have a comment: remove one by hand, keeping the comment you mean"
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


def by_hand(file: IncidentFile) -> bool:
    """Whether a facet list out of order has a comment line above an item, or a repeat
    with a comment of its own where the term's item above has one, which `curator fix`
    refuses (`curator.fix._refuse_a_comment_above_an_item`, `…_repeat_with_a_comment_of_its
    _own`): nothing in the file is then fixable."""
    facets = file.facets()
    if facets is None:
        return False
    return any(
        not in_order(terms)
        and (_commented(file, dimension, len(terms)) or _commented_repeats(file, dimension, terms))
        for dimension in _DIMENSIONS
        if (terms := getattr(facets, dimension))
    )


def _commented(file: IncidentFile, dimension: str, count: int) -> bool:
    """Whether a comment line stands between the list's key and its last item."""
    document, text = file.loaded.document, file.loaded.text
    if document is None or text is None:
        return False
    key = document.key_position(("facets", dimension)).line
    last = document.position(("facets", dimension, count - 1)).line
    return any(line.lstrip().startswith("#") for line in text.split("\n")[key : last - 1])


def _commented_repeats(file: IncidentFile, dimension: str, terms: list[str]) -> set[int]:
    """The items repeating a term with a comment at the end of their line where an item of
    the term above has one too."""
    document, text = file.loaded.document, file.loaded.text
    if document is None or text is None:
        return set()
    lines = text.split("\n")
    commented: set[str] = set()
    repeats: set[int] = set()
    for index, term in enumerate(terms):
        span = document.span(("facets", dimension, index))
        after = lines[span[1].line - 1][span[1].column - 1 :] if span is not None else ""
        if not after.lstrip().startswith("#"):
            continue
        if term in commented:
            repeats.add(index)
        commented.add(term)
    return repeats


def check(file: IncidentFile) -> FileFindings:
    facets = file.facets()
    if facets is None:
        return
    for dimension in _DIMENSIONS:
        terms: list[str] = getattr(facets, dimension)
        if in_order(terms):
            continue  # (nearly every list)
        commented = _commented(file, dimension, len(terms))
        repeats = _commented_repeats(file, dimension, terms)
        for index, message in _untidy(terms, dimension):
            finding = RULE.at(file.display, file.position("facets", dimension, index), message)
            if commented:
                yield replace(finding, fixable=False, message=f"{message}; {BY_HAND}")
            elif index in repeats:
                yield replace(finding, fixable=False, message=f"{message}; {REPEAT_BY_HAND}")
            else:
                yield replace(finding, fixable=False) if repeats else finding


def _untidy(terms: list[str], dimension: str) -> Iterator[tuple[int, str]]:
    """Each repeat, else the first item out of order: where, and what is said of it."""
    seen: set[str] = set()
    for index, term in enumerate(terms):
        if term in seen:
            yield index, f"{term!r} is already listed in {dimension}"
        seen.add(term)
    if len(seen) == len(terms):
        first = next(i for i, (a, b) in enumerate(zip(terms, tidy(terms), strict=True)) if a != b)
        yield first, f"{dimension} are not in alphabetical order; expected {', '.join(tidy(terms))}"
