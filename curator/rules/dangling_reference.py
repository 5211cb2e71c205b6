"""`related`, `duplicate_of` and `not_duplicate_of` point to incidents that exist.

A reference to an id that no file in the library holds is an error (a typo, or an incident
that was deleted instead of withdrawn); where the file named like the id is there but could
not be read as an incident, or holds another id, the finding says so, and where the id is
an incident's number spelt with more zeros (`IL-00025` for `IL-0025`), it names that id.
An incident cannot be related to itself.
"""

from curator.findings import Severity
from curator.model import canonical_id
from curator.rules.base import FileFindings, LibraryView, Rule

RULE = Rule(
    code="IL401",
    name="dangling-reference",
    severity=Severity.ERROR,
    summary="`related`, `duplicate_of` or `not_duplicate_of` names an id no incident has.",
    failing="related:\n  - IL-9999   # no such incident\n",
    passing="# incidents/IL-0025.yaml\n...\n# incidents/IL-0026.yaml\nrelated:\n  - IL-0025\n",
)


def check_library(library: LibraryView) -> FileFindings:
    known = library.by_id()
    for summary in library.files:
        for field, ref in summary.references:
            if summary.id is not None and ref.value == summary.id.value:
                yield RULE.at(summary.display, ref.position, f"{field} names the incident itself")
            elif ref.value not in known:
                yield RULE.at(summary.display, ref.position, _missing(field, ref.value, library))


def _missing(field: str, incident_id: str, library: LibraryView) -> str:
    message = f"{field} names {incident_id}, but no incident has that id"
    spelt = canonical_id(incident_id)
    if spelt != incident_id and spelt in library.by_id():
        return f"{message}; its number is {spelt}'s, as assign-ids writes it: write {spelt}"
    named = library.named(incident_id)
    if named is None:
        return message
    if named.id is None:
        return f"{message}; {named.display} could not be read as an incident (its errors say why)"
    return f"{message}; {named.display} holds the id {named.id.value} (IL203)"
