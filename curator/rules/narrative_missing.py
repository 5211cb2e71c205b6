"""A published incident tells the whole story.

`symptom`, `trigger`, `detection`, `actions` and `lessons` are required once an incident is
published (detection and lessons above all: they are what readers come for), and none may be
a placeholder such as `TODO`, `TBD`, `-` or `...`. A draft may leave them out; a placeholder
in a draft is a warning, since leaving the field out says the same thing honestly.
"""

import re
from dataclasses import replace
from typing import Any

from curator.findings import Finding, Severity
from curator.model import NARRATIVE_FIELDS
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL402",
    name="narrative-missing",
    severity=Severity.ERROR,
    summary="A published incident lacks a narrative field, or one holds a placeholder.",
    failing="status: published\ndetection: TODO\n# lessons: missing\n",
    passing=(
        "status: published\n"
        "detection: |\n"
        "  초당 토큰 처리량 그래프에서 급락이 보였다.\n"
        "lessons: |\n"
        "  작은 규모 시험으로는 알 수 없었다.\n"
    ),
)
# (`(?:\s*[.:])?\s*$`, not `\s*[.:]?\s*$`: two runs of white space one beside the other
# are tried at every split of a run that does not end the text, in time its square.)
_PLACEHOLDER = re.compile(
    r"^\s*(?:todo|tbd|tba|fixme|xxx|n/?a|-+|\.{2,}|…|\?+|미정|작성\s*예정|추후\s*작성)(?:\s*[.:])?\s*$",
    re.IGNORECASE,
)


def is_placeholder(value: Any) -> bool:
    return not isinstance(value, str) or bool(_PLACEHOLDER.match(value)) or not value.strip()


def check(file: IncidentFile) -> FileFindings:
    incident = file.incident
    if incident is None or incident.status == "withdrawn":
        return
    published = incident.status == "published"
    for name in (*NARRATIVE_FIELDS, "follow_ups"):
        value = getattr(incident, name)
        if value is None or value == []:  # `actions: []` tells no more than no actions
            if published and name != "follow_ups":
                yield RULE.at(
                    file.display,
                    file.position("status"),
                    f"published incident lacks {name!r}; fill it from the source or keep the "
                    "incident a draft",
                )
            continue
        items = value if isinstance(value, list) else [value]
        for index, item in enumerate(items):
            if is_placeholder(item):
                loc = (name, index) if isinstance(value, list) else (name,)
                yield _placeholder(file, loc, published)


def _placeholder(file: IncidentFile, loc: tuple[str | int, ...], published: bool) -> Finding:
    where = file.position(*loc)
    if published:
        return RULE.at(file.display, where, f"{loc[0]!r} holds a placeholder; write the text")
    finding = RULE.at(file.display, where, f"{loc[0]!r} holds a placeholder; leave it out instead")
    return replace(finding, severity=Severity.WARNING)
