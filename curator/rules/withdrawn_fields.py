"""`duplicate_of` and `withdrawn_reason` belong to withdrawn incidents, and explain them.

A withdrawn incident says why (`withdrawn_reason`); an incident that is not withdrawn
carries neither field. (`duplicate_of` naming the incident itself is IL401's.)
"""

from curator.findings import Severity
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL205",
    name="withdrawn-fields",
    severity=Severity.ERROR,
    summary="`duplicate_of`/`withdrawn_reason` without `status: withdrawn`, or the reverse.",
    failing="status: published\nduplicate_of: IL-0129\n",
    passing=(
        "status: withdrawn\nduplicate_of: IL-0129\nwithdrawn_reason: |\n  IL-0129 와 같은 사건.\n"
    ),
)


def check(file: IncidentFile) -> FileFindings:
    incident = file.incident
    if incident is None:
        return
    if incident.status == "withdrawn":
        if not incident.withdrawn_reason:
            yield RULE.at(
                file.display,
                file.position("status"),
                "a withdrawn incident needs withdrawn_reason",
            )
        return
    for key in ("duplicate_of", "withdrawn_reason"):
        if getattr(incident, key) is not None:
            yield RULE.at(
                file.display,
                file.position(key),
                f"{key} is only for withdrawn incidents (status is {incident.status})",
            )
