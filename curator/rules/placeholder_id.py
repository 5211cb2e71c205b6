"""A placeholder id (`IL-NEW-<slug>`) is numbered when its pull request is merged.

Contributors cannot know which number will be free at merge, so a new incident carries a
placeholder, and other new incidents of the same pull request may refer to it. After the
merge, `curator assign-ids` (run by the `assign-ids` workflow) gives it the next free
number, renames the file and rewrites every reference. `curator lint --release` makes this
warning an error: a release never holds placeholders.
"""

from dataclasses import replace

from curator.findings import Finding, Severity
from curator.model import INCIDENT_ID, NUMBERED_ID
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL206",
    name="placeholder-id",
    severity=Severity.WARNING,
    summary="A placeholder id `IL-NEW-<slug>`, numbered at merge (an error with --release).",
    failing="# incidents/IL-NEW-weka-eviction.yaml, in a release\nid: IL-NEW-weka-eviction\n",
    passing="# incidents/IL-0266.yaml\nid: IL-0266\n",
)


def is_placeholder(incident_id: str) -> bool:
    return bool(INCIDENT_ID.fullmatch(incident_id)) and not NUMBERED_ID.fullmatch(incident_id)


def check(file: IncidentFile) -> FileFindings:
    # (`startswith` first: every placeholder starts so, and it is cheaper than two matches.)
    incident = file.incident
    if incident is not None and incident.id.startswith("IL-NEW-") and is_placeholder(incident.id):
        yield RULE.at(
            file.display,
            file.position("id"),
            f"placeholder id {incident.id}, numbered at merge (`curator assign-ids`)",
        )


def for_release(finding: Finding) -> Finding:
    """In a release a placeholder is an error: nothing may cite an id that will change."""
    if finding.code != RULE.code:
        return finding
    message = finding.message.split(",")[0] + ": a release cannot hold placeholders; run "
    return replace(finding, severity=Severity.ERROR, message=message + "`curator assign-ids`")
