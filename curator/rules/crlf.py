"""Lines end with LF, not CRLF, a lone CR or a Unicode line break.

Mixed line endings make every line of a diff change. Reported once per file, at the first
CRLF or lone CR; `curator fix` converts the file.

NEL (U+0085), LINE SEPARATOR (U+2028) and PARAGRAPH SEPARATOR (U+2029) are line breaks to
YAML 1.1, which curator reads (libyaml), and not to editors, GitHub or YAML 1.2 readers:
`title: 장애` + U+2028 + `status: draft` is two keys here and one title there. Reported
once per file, at the first one; only its author knows whether a line feed or a space was
meant, so `curator fix` leaves it (the finding is not marked fixable). In a value,
`curator fmt` (and `fix`, when it rewrites the file) writes it as YAML's escape, `\\L` or
`\\P` in double quotes, which every reader reads as the same character. Where ruamel.yaml,
which they write with, cannot read the file as curator does because of one (in a `|`
block, indented text after it), they refuse the file at the first, as lint reports it.
"""

from curator.findings import Finding, Severity
from curator.load import UNICODE_BREAKS, position_at
from curator.rules._spaces import not_fixable
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL603",
    name="crlf",
    severity=Severity.ERROR,
    summary="Lines end with CRLF (Windows), a lone CR or a Unicode line break instead of LF.",
    failing="title: GPU 장애\\r\\n\n",
    passing="title: GPU 장애\\n\n",
    fixable=True,
)


def check(file: IncidentFile) -> FileFindings:
    text = file.loaded.text
    if text is None:
        return
    if "\r" in text:
        count = text.count("\r")  # one per line end, CRLF or a lone CR (as `curator fix` counts)
        yield RULE.at(
            file.display,
            position_at(text, text.index("\r")),
            f"{count} line{'s end' if count != 1 else ' ends'} with CR/CRLF; use LF",
        )
    # Nearly every file holds none: three scans for a character say so in a fraction of a µs.
    if "\x85" in text or "\u2028" in text or "\u2029" in text:
        first = min(place for char in UNICODE_BREAKS if (place := text.find(char)) >= 0)
        yield _unicode_break(file.display, text, first)


def _unicode_break(display: str, text: str, place: int) -> Finding:
    char = text[place]
    message = (
        f"U+{ord(char):04X} {UNICODE_BREAKS[char]} ends a line for YAML 1.1 (curator) but not "
        "for editors, GitHub or YAML 1.2 readers; replace it with a line feed or a space"
    )
    return not_fixable(RULE.at(display, position_at(text, place), message))
