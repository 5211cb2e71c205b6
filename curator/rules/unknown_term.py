"""Every facet is a term of its dimension in `schema/taxonomy/`.

An unknown term is reported with the closest terms by id, Korean and English label, and
aliases ("did you mean"), and with the dimension it belongs to when it was put under the
wrong one; a term whose definition in the taxonomy breaks its schema (IL303) is told
where that definition is, not that it is no term. Where a taxonomy file could not be read
at all, or none of its terms could (each breaks the schema), `curator lint` says so once,
at its first IL303 error, not for each term an incident carries. A
facet written as a term's alias in an id's shape (`job-hang`), where that alias is one
term's alone, `curator fix` replaces with the term's id.
"""

from pathlib import PurePosixPath

from curator.findings import Severity
from curator.model import Facets
from curator.rules._spaces import not_fixable
from curator.rules._terms import term_ids
from curator.rules.base import FileFindings, IncidentFile, Rule
from curator.taxonomy import Taxonomy

RULE = Rule(
    code="IL301",
    name="unknown-term",
    severity=Severity.ERROR,
    summary="A facet names a term that its dimension does not have.",
    failing="facets:\n  components:\n    - ncl\n",
    passing="facets:\n  components:\n    - nccl\n",
    fixable=True,
)


def check(file: IncidentFile) -> FileFindings:
    facets = file.facets()
    if facets is None or all_known(facets, file.taxonomy):
        return  # (the usual case, found without the list of (dimension, index, term))
    taxonomy = file.taxonomy
    for dimension, index, term in facets.terms():
        if taxonomy.term(dimension, term) is not None:
            continue
        # (A term whose definition is broken too: when every term of the file is, each
        # facet of the dimension is one error, which lint says once, and the message ends
        # once, with the file, not with the term's IL303 errors as well.)
        ending = unread_ending(taxonomy, dimension)
        message = taxonomy.not_a_term(dimension, term, say_how=ending is None) + (ending or "")
        finding = RULE.at(file.display, file.position("facets", dimension, index), message)
        yield finding if taxonomy.named_term(dimension, term) else not_fixable(finding)


def unread_ending(taxonomy: Taxonomy, dimension: str) -> str | None:
    """How the message of an error ends when the facet is unknown only because the file
    of `dimension` could not be read (none of its terms is known): `curator lint` says
    those once, at the file (`curator.lint.fold_unread_taxonomy`). None when it was read."""
    unread = taxonomy.unread(dimension)
    return said_unread(unread) if unread else None


def said_unread(path: str) -> str:
    """The ending of `unread_ending` for the taxonomy file at `path`, as messages name it
    (`schema/taxonomy/causes.yaml`, however deep the library): `curator review` knows by
    it which IL301 errors to say once, at the file."""
    shown = "/".join(PurePosixPath(path).parts[-3:])
    return f"; {shown} could not be read (its IL303 errors say why)"


def unread_note(dimension: str, incidents: int, terms: int) -> str:
    """What the first IL303 error of an unread taxonomy file says of the IL301 errors it
    stands for: `incidents` incidents carry `terms` terms of `dimension`."""
    return (
        f"; none of its terms is known, so the {dimension} of incidents are not checked "
        f"(IL301) until it is fixed: {_count(incidents, 'incident')} "
        f"{'carries' if incidents == 1 else 'carry'} {_count(terms, 'term')} of it"
    )


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'s' * (number != 1)}"


def all_known(facets: Facets, taxonomy: Taxonomy) -> bool:
    """Whether `taxonomy.term` finds each facet."""
    for dimension, known in term_ids(taxonomy).known:
        if not known.issuperset(getattr(facets, dimension)):
            return False
    return True
