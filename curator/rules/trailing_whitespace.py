"""No white space at the end of a line.

It is invisible, changes block-scalar text, and makes noisy diffs. `curator fix` removes it,
except inside a value (a line of a `|` block, a plain value ending in U+3000), where it is
text that only its author may change (the finding is then not marked fixable).
"""

from curator.findings import Severity
from curator.load import Position, at_editor_lines
from curator.rules._spaces import Spans, inside, not_fixable, scalar_spans
from curator.rules.base import FileFindings, IncidentFile, Rule
from curator.unseen import WHITE_SPACE, may_end_a_line_in_white_space, shown_lines

RULE = Rule(
    code="IL602",
    name="trailing-whitespace",
    severity=Severity.WARNING,
    summary="White space at the end of a line.",
    failing="title: GPU 장애   \n",
    passing="title: GPU 장애\n",
    fixable=True,
)


def check(file: IncidentFile) -> FileFindings:
    if file.loaded.text is None or not may_end_a_line_in_white_space(file.loaded.text):
        return
    lines = file.loaded.text.split("\n")
    # In a file of lone CR line ends (classic Mac OS) each CR ends a line as its editor
    # shows it; lint moves the places found to those lines (`load.at_editor_lines`).
    lone_cr = at_editor_lines(file.loaded.text) is not None
    spans: Spans | None = None  # worked out for the few that need it
    for number, line in enumerate(lines, start=1):
        for start, shown in shown_lines(line, lone_cr):
            stripped = shown.rstrip(WHITE_SPACE)
            if stripped != shown:
                where = Position(number, start + len(stripped) + 1)
                finding = RULE.at(file.display, where, "trailing white space")
                spans = scalar_spans(file.loaded.document, lines) if spans is None else spans
                # Any of the run may be text: in `key: <space><U+3000>` the U+3000 is the value.
                text = inside(spans, where, Position(number, start + len(shown)))
                yield not_fixable(finding) if text else finding
