"""An id belongs to one incident, for ever.

Two files may not carry the same id. A withdrawn incident keeps its id, so its number is
never given to another incident.
"""

from curator.findings import Severity
from curator.rules.base import FileFindings, LibraryView, Rule

RULE = Rule(
    code="IL204",
    name="duplicate-id",
    severity=Severity.ERROR,
    summary="Two files carry the same id (withdrawn ids are never reused).",
    failing="# incidents/IL-0007.yaml\nid: IL-0007\n# incidents/IL-0008.yaml\nid: IL-0007\n",
    passing="# incidents/IL-0007.yaml\nid: IL-0007\n# incidents/IL-0008.yaml\nid: IL-0008\n",
)


def check_library(library: LibraryView) -> FileFindings:
    for incident_id, holders in library.by_id().items():
        if len(holders) < 2:
            continue
        withdrawn = any(h.status == "withdrawn" for h in holders)
        for holder in holders:
            others = ", ".join(h.display for h in holders if h is not holder)
            note = " (a withdrawn id is never reused)" if withdrawn else ""
            assert holder.id is not None
            yield RULE.at(
                holder.display,
                holder.id.position,
                f"id {incident_id} is also used by {others}{note}",
            )
