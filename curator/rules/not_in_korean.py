"""The story is told in Korean.

The library is written in Korean: English belongs beside it, as a product or an error's
name (`NCCL 타임아웃`) or in parentheses, not in its place. A narrative field (`title`,
`symptom`, `trigger`, `detection`, each of `actions` and `follow_ups`, `lessons`) that holds
no Hangul syllable at all is reported at its value, once per field (per item of a list). A
draft too, as IL402 reports a draft's placeholder: what a draft says is the text the library
keeps. A placeholder (`TODO`) is IL402's, and an absent field says nothing in any language; a
withdrawn incident is not read, as IL402 does not read it. Korean written as separate jamo
is Korean (IL605 reports the jamo).
"""

import re

from curator.findings import Severity
from curator.rules.base import FileFindings, IncidentFile, Rule
from curator.rules.narrative_missing import is_placeholder

RULE = Rule(
    code="IL404",
    name="not-in-korean",
    severity=Severity.WARNING,
    summary="A narrative field holds no Korean: the library is written in Korean.",
    failing="detection: |\n  Alerts fired on NCCL timeouts.\n",
    passing="detection: |\n  NCCL 타임아웃(NCCL timeout) 경고가 울렸다.\n",
)
# One Hangul syllable, or the leading consonant of one written as jamo: a search stops at
# the first, which in Korean text is one of the first few characters.
_KOREAN = re.compile("[\uac00-\ud7a3\u1100-\u115f]")
_TEXTS = ("title", "symptom", "trigger", "detection", "lessons")
_LISTS = ("actions", "follow_ups")


def check(file: IncidentFile) -> FileFindings:
    incident = file.incident
    if incident is None or incident.status == "withdrawn":
        return
    search = _KOREAN.search
    for name in _TEXTS:
        value = getattr(incident, name)
        if value and not search(value) and not is_placeholder(value):
            yield RULE.at(file.display, file.position(name), _message(name))
    for name in _LISTS:
        items = getattr(incident, name)
        if items and not all(map(search, items)):  # (the items one by one only if one is)
            for index, item in enumerate(items):
                if not search(item) and not is_placeholder(item):
                    where = file.position(name, index)
                    yield RULE.at(file.display, where, _message(f"{name}[{index}]"))


def _message(field: str) -> str:
    return (
        f"{field} holds no Korean: the library is written in Korean, with English only "
        "beside it (in parentheses, or as a product or error name)"
    )
