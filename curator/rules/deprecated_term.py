"""A deprecated term is replaced by the term its taxonomy entry names.

Terms are never deleted (downstream tools keep them); a deprecated one says which term
replaces it, and `curator fix` makes the change.
"""

from dataclasses import replace

from curator.findings import Severity
from curator.model import Facets
from curator.rules._terms import term_ids
from curator.rules.base import FileFindings, IncidentFile, Rule
from curator.taxonomy import Taxonomy

RULE = Rule(
    code="IL302",
    name="deprecated-term",
    severity=Severity.WARNING,
    summary="A facet uses a deprecated term; the message names its replacement.",
    failing="facets:\n  components:\n    - old-term   # deprecated, replaced_by: new-term\n",
    passing="facets:\n  components:\n    - new-term\n",
    fixable=True,
)


def check(file: IncidentFile) -> FileFindings:
    facets = file.facets()
    if facets is None or not uses_deprecated(facets, file.taxonomy):
        return  # (the usual case: a taxonomy deprecates few terms, or none)
    for dimension, index, term_id in facets.terms():
        term = file.taxonomy.term(dimension, term_id)
        if term is None or term.deprecated is None:
            continue
        finding = RULE.at(
            file.display,
            file.position("facets", dimension, index),
            f"{term_id!r} is deprecated ({term.deprecated.reason.strip()}); "
            + file.taxonomy.use_instead(dimension, term_id),
        )
        # `curator fix` writes no replacement that is itself deprecated or no term.
        fixable = file.taxonomy.replacement(dimension, term_id) is not None
        yield finding if fixable else replace(finding, fixable=False)


def uses_deprecated(facets: Facets, taxonomy: Taxonomy) -> bool:
    """Whether a facet names a term that `taxonomy` deprecates."""
    for dimension, deprecated in term_ids(taxonomy).deprecated:
        if not deprecated.isdisjoint(getattr(facets, dimension)):
            return True
    return False
