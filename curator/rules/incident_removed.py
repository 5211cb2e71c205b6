"""Published ids are withdrawn, never deleted.

Downstream tools cite incidents by id for years; a deleted file would break every such
citation, and its number could be handed out again. An incident that should go away is set
to `status: withdrawn` with a `withdrawn_reason` (and `duplicate_of` when it repeats another).
Only drafts and unnumbered `IL-NEW-…` placeholders, which no release ever carried, may be
deleted. Setting a published or withdrawn incident back to `status: draft` is the same
error: drafts are never exported, so its id would leave the next release just as surely
(and the draft could then be deleted). This needs two revisions, so `curator review`
checks it (on every pull request), not `curator lint`.
"""

from __future__ import annotations

from curator.findings import Finding, Severity
from curator.load import START, Document, load_bytes
from curator.model import NUMBERED_ID
from curator.rules.base import Rule

RULE = Rule(
    code="IL901",
    name="incident-removed",
    severity=Severity.ERROR,
    summary="A change deletes a published or withdrawn incident, or makes it a draft again, "
    "instead of withdrawing it.",
    failing="# base: incidents/IL-0007.yaml (status: published)\n# head: the file is gone\n",
    passing="# head: incidents/IL-0007.yaml\nstatus: withdrawn\nwithdrawn_reason: |\n  ...\n",
)


def removed_id(raw: bytes | None) -> tuple[str, int, int] | None:
    """(id, line, column) of the incident in `raw` (a file as it was at the base) if that
    incident may not be deleted; None for drafts, placeholders and files without an id."""
    return removed_in(load_bytes(raw).document if raw is not None else None)


def removed_in(document: Document | None) -> tuple[str, int, int] | None:
    """`removed_id` of a file already read (`document`: None if it could not be)."""
    if document is None or not isinstance(document.data, dict):
        return None
    data = document.data
    incident_id, status = data.get("id"), data.get("status")
    if not isinstance(incident_id, str) or not NUMBERED_ID.fullmatch(incident_id):
        return None
    if status == "draft":
        return None
    position = document.position(("id",))
    return incident_id, position.line, position.column


def finding(
    path: str,
    removed: tuple[str, int, int],
    renamed_to: str | None = None,
    replaced_by: str | None = None,
) -> Finding:
    """The finding for the incident `removed` from `path`: the file deleted, `renamed_to`
    another path, or `replaced_by` what the library does not read in its place (`a
    symbolic link`, `a folder`: the file is not deleted, and "deleted" sent its author
    looking for a deletion the change does not make)."""
    incident_id, line, column = removed
    keep = "keep the file"
    if renamed_to:
        how = f"renamed to {renamed_to}, so"
    elif replaced_by:
        how = f"replaced by {replaced_by}, which the library does not read, so"
        keep = "put the file back in its place"
    else:
        how = "deleted:"
    message = (
        f"{incident_id} is {how} its id disappears from the library; published ids are "
        f"withdrawn, never deleted: {keep} with `status: withdrawn` and a "
        "`withdrawn_reason` (and `duplicate_of` if it repeats another incident)"
    )
    if renamed_to:
        return RULE.at(renamed_to, START, message)
    return Finding(path, line, column, RULE.code, RULE.severity, message, RULE.fixable)


def made_draft(path: str, before: bytes | None, after: Document | None) -> Finding | None:
    """The finding for an incident that the change makes a draft again (`before`, the file
    at the base; `after`, at the head, as `path`), at its `status`; None if it may be.
    The base is read only for a draft: the review asks this of every file it changes."""
    if after is None or not isinstance(after.data, dict) or after.data.get("status") != "draft":
        return None
    removed = removed_id(before)
    if removed is None:
        return None
    message = (
        f"{removed[0]} is made a draft again, so its id disappears from the next release "
        "(drafts are never exported); "
        "published ids are withdrawn, never unpublished: set `status: withdrawn` with a "
        "`withdrawn_reason` (and `duplicate_of` if it repeats another incident)"
    )
    return RULE.at(path, after.position(("status",)), message)
