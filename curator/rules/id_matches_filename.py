"""The file is named after the incident's id: `id: IL-0137` lives in `IL-0137.yaml`."""

from curator.findings import Severity
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL203",
    name="id-matches-filename",
    severity=Severity.ERROR,
    summary="The id differs from the file name.",
    failing="# incidents/IL-0002.yaml\nid: IL-0003\n",
    passing="# incidents/IL-0003.yaml\nid: IL-0003\n",
)


def check(file: IncidentFile) -> FileFindings:
    if file.incident is None or file.incident.id == file.path.stem:
        return
    yield RULE.at(
        file.display,
        file.position("id"),
        # Often a copy of another incident whose id was left as it was: renaming is then
        # wrong (IL204 names the file that holds the id), so fixing the id comes first.
        f"id {file.incident.id} differs from the file name {file.path.name}: fix the id, "
        f"or, if {file.incident.id} is right and no other file holds it, rename the file "
        f"to {file.incident.id}.yaml",
    )
