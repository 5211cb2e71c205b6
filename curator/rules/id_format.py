"""An id is `IL-` followed by four or more digits.

Before a pull request is merged a new incident may carry a placeholder, `IL-NEW-<slug>`
(lowercase letters, digits and hyphens), which is numbered at merge.
"""

from curator.findings import Severity
from curator.model import INCIDENT_ID
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL202",
    name="id-format",
    severity=Severity.ERROR,
    summary="The id is not `IL-` and four or more digits (or an `IL-NEW-<slug>` placeholder).",
    failing="id: IL-12\n",
    passing="id: IL-0012\n",
)
# Said of a placeholder refused for its slug (`IL-NEW-Weka_2`), which reads as one otherwise.
_SLUG = " (lower-case letters and digits, joined by single hyphens)"


def check(file: IncidentFile) -> FileFindings:
    if file.incident is not None:
        return  # the model has matched the id against the same `ID_PATTERN`, whole
    data = file.loaded.data
    if not isinstance(data, dict) or "id" not in data:
        return
    value = data["id"]
    # fullmatch: `$` also matches before a final line break, which the schema refuses.
    if not isinstance(value, str) or not INCIDENT_ID.fullmatch(value):
        yield RULE.at(
            file.display,
            file.position("id"),
            f"id {_shown(value)} is not of the form IL-0000 (four or more digits) or "
            f"IL-NEW-<slug>{_SLUG if str(value).startswith('IL-NEW-') else ''}",
        )


def _shown(value: object) -> str:
    """The id as written, or what it is when it is no text (the loader's other values)."""
    if isinstance(value, str):
        return repr(value)
    if value is None:
        return "(empty)"
    return "(a list)" if isinstance(value, list) else "(a mapping)"
