"""A published incident tells the whole story.

`symptom`, `trigger`, `detection`, `actions` and `lessons` are required once an incident is
published (detection and lessons above all: they are what readers come for), and none may be
a placeholder such as `TODO`, `TBD`, `-` or `...`. A draft may leave them out; a placeholder
in a draft is a warning, since leaving the field out says the same thing honestly. A field
the file shows, but indented under the `|` block above it, is text of that block: the
finding says so. Nor may a published incident's source keep, for its title, the URL that
`curator new` writes there when no `--source-title` is given.
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
    summary=(
        "A published incident lacks a narrative field, or one holds a placeholder, or a "
        "source's title is still its URL."
    ),
    failing="status: published\ndetection: TODO\n# lessons: missing\n",
    passing=(
        "status: published\n"
        "detection: |\n"
        "  초당 토큰 처리량 그래프에서 급락이 보였다.\n"
        "lessons: |\n"
        "  작은 규모 시험으로는 알 수 없었다.\n"
    ),
)
# What a placeholder says, and the characters it can start with. They are looked for first:
# nearly every value starts with another, and trying each word in turn on it was much of
# what the rule cost. (tests/test_rule_shortcuts.py holds each word to `_FIRST`.)
_WORDS = r"todo|tbd|tba|fixme|xxx|n/?a|-+|\.{2,}|…|\?+|미정|작성\s*예정|추후\s*작성"
_FIRST = r"[tfxn\-.…?미작추]"
# (`(?:\s*[.:])?\s*$`, not `\s*[.:]?\s*$`: two runs of white space one beside the other
# are tried at every split of a run that does not end the text, in time its square.)
_PLACEHOLDER = re.compile(rf"^\s*(?={_FIRST})(?:{_WORDS})(?:\s*[.:])?\s*$", re.IGNORECASE)


def is_placeholder(value: Any) -> bool:
    return not isinstance(value, str) or bool(_PLACEHOLDER.match(value)) or not value.strip()


# The fields read, in the order their findings come; and the match, looked up once.
_FIELDS = (*NARRATIVE_FIELDS, "follow_ups")
_MATCH = _PLACEHOLDER.match


def check(file: IncidentFile) -> FileFindings:
    incident = file.incident
    if incident is None or incident.status == "withdrawn":
        return
    published = incident.status == "published"
    for name in _FIELDS:
        value = getattr(incident, name)
        if not value:  # None, or `actions: []`, which tells no more than no actions
            if published and name != "follow_ups":
                yield RULE.at(
                    file.display,
                    file.position("status"),
                    f"published incident lacks {name!r}; "
                    + (
                        _swallowed(file, name)
                        or "fill it from the source or keep the incident a draft"
                    ),
                )
            continue
        # `_MATCH` rather than `is_placeholder`: the model has made each value `Text`, a
        # string holding a character that is neither white space nor a control character
        # (so not empty either), and its other two tests never hold here.
        if isinstance(value, str):
            if _MATCH(value):
                yield _placeholder(file, (name,), published)
        elif any(map(_MATCH, value)):  # (the items looked at one by one only if one is)
            for index, item in enumerate(value):
                if _MATCH(item):
                    yield _placeholder(file, (name, index), published)
    if published:
        for index, source in enumerate(incident.sources):
            if source.title.strip() == source.url.strip():
                yield RULE.at(
                    file.display,
                    file.position("sources", index, "title"),
                    f"sources[{index}].title is the source's URL, as `curator new` writes it "
                    "without --source-title; write the report's title as published",
                )


def _swallowed(file: IncidentFile, name: str) -> str | None:
    """Where the field's key is written indented, inside the text of the value above it (a
    `|` block takes every line indented under it), if it is: the file shows the field, and
    the finding says why YAML does not."""
    text = file.loaded.text or ""
    found = re.search(rf"^[ \t]+{name}:(?:[ \t]|$)", text, re.MULTILINE)
    if found is None:
        return None
    line = text.count("\n", 0, found.start()) + 1
    return (
        f"the `{name}:` of line {line} is indented, so YAML reads it as text of the value "
        "above it; write it at the start of its line"
    )


def _placeholder(file: IncidentFile, loc: tuple[str | int, ...], published: bool) -> Finding:
    where = file.position(*loc)
    if published:
        return RULE.at(file.display, where, f"{loc[0]!r} holds a placeholder; write the text")
    finding = RULE.at(file.display, where, f"{loc[0]!r} holds a placeholder; leave it out instead")
    return replace(finding, severity=Severity.WARNING)
