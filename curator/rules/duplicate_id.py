"""An id belongs to one incident, for ever.

Two files may not carry the same id. A withdrawn incident keeps its id, so its number is
never given to another incident. An id is its number: zeros may lead a number of more
than four digits (`IL-00025`), but that is the id `IL-0025`, spelt otherwise, and two files
may not carry one number under two spellings either. `curator assign-ids` writes four
digits or more, with no zero leading a longer number.
"""

from curator.findings import Severity
from curator.model import canonical_id
from curator.rules.base import FileFindings, FileSummary, LibraryView, Rule

RULE = Rule(
    code="IL204",
    name="duplicate-id",
    severity=Severity.ERROR,
    summary="Two files carry the same id, or its number spelt otherwise "
    "(withdrawn ids are never reused).",
    failing="# incidents/IL-0007.yaml\nid: IL-0007\n# incidents/IL-0008.yaml\nid: IL-0007\n"
    "# incidents/IL-00007.yaml\nid: IL-00007\n",
    passing="# incidents/IL-0007.yaml\nid: IL-0007\n# incidents/IL-0008.yaml\nid: IL-0008\n",
)


def check_library(library: LibraryView) -> FileFindings:
    for number, holders in _by_number(library).items():
        if len(holders) < 2:
            continue
        withdrawn = any(h.status == "withdrawn" for h in holders)
        note = " (a withdrawn id is never reused)" if withdrawn else ""
        if len({h.id.value for h in holders if h.id is not None}) > 1:
            # One number spelt two ways: say which spelling to keep.
            note += f"; a number is one id, however many zeros lead it (assign-ids writes {number})"
        for holder in holders:
            assert holder.id is not None
            spelling = holder.id.value
            others = ", ".join(_named(h, spelling) for h in holders if h is not holder)
            yield RULE.at(
                holder.display, holder.id.position, f"id {spelling} is also used by {others}{note}"
            )


def _by_number(library: LibraryView) -> dict[str, list[FileSummary]]:
    """The files holding each id, under its number as assign-ids writes it, in the
    library's order (the messages list the other files so)."""
    by_id = library.by_id()
    if all(canonical_id(incident_id) == incident_id for incident_id in by_id):
        return by_id  # every id spelt as assign-ids writes it: the common case
    found: dict[str, list[FileSummary]] = {}
    for summary in library.files:
        if summary.id is not None:
            found.setdefault(canonical_id(summary.id.value), []).append(summary)
    return found


def _named(other: FileSummary, spelling: str) -> str:
    """Another file holding the number, with its spelling where it is not `spelling`."""
    assert other.id is not None
    shown = other.id.value
    return other.display if shown == spelling else f"{other.display} (as {shown})"
