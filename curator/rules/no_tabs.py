"""No tab characters.

YAML forbids tabs for indentation, and in text they render differently everywhere.
`curator fix` replaces them with spaces, except inside a value or a comment: there the tab
is text, which only its author may change (the finding is then not marked fixable). In a
plain (unquoted) value or a key, ruamel.yaml cannot read it, and fix refuses the whole file
at it: the finding says so, and what to write instead, in fix's words.
Where YAML takes no tab (in the indentation, after an item's `-`), the file cannot be read:
this rule reports that tab, saying so, and IL101 does not report it again. `curator fix`
puts two spaces for it, which mends the file only where that is the indent the line needs:
elsewhere the file stays unreadable (or a list item becomes text), fix leaves it, and no
tab of the file is fixable.
A line's first run of tabs is reported, at its first, and each later run that has something
else to say (other words, or fixable where the first is not, or the other way round):
`title:<tab>GPU<tab>장애` gets both, the second as part of a plain value.
"""

from curator.findings import Severity
from curator.load import Position
from curator.rules._problems import at_a_tab, fix_reads, plain_tabs
from curator.rules._spaces import in_comment, inside, not_fixable, scalar_spans
from curator.rules.base import FileFindings, IncidentFile, Rule
from curator.yaml_errors import TAB_WORDS

RULE = Rule(
    code="IL601",
    name="no-tabs",
    severity=Severity.ERROR,
    summary="A tab character.",
    failing="title:\tGPU 장애\n",
    passing="title: GPU 장애\n",
    fixable=True,
)
# Where YAML takes no tab (the loader's syntax error stands at it, which IL101 leaves to
# this rule): the file cannot be read, nor checked further, until the tab goes.
STOPPED = f"{TAB_WORDS}, so the file cannot be read; use spaces"
NOT_MENDED = "; indent the line by hand: the two spaces `curator fix` puts for a tab do not mend it"
# Where the tab is text that ruamel.yaml, which `curator fix` writes with, cannot read:
# fix refuses the file at it (`curator.fix._tab_in_text`) and says it in the same words.
IN_A_KEY = (
    "the tab is part of a key, which ruamel.yaml cannot read; fix it by hand: take the tab "
    "out of the key"
)
IN_A_PLAIN_VALUE = (
    "the tab is part of a plain value, which ruamel.yaml cannot read; fix it by hand: use "
    "spaces, or put the value in double quotes and write \\t for the tab"
)


def stops_the_file(mended: bool) -> str:
    """The words for a tab the loader stops at, whether `curator fix`'s two spaces for it
    mend the file (`mended`, `fix_reads`) or not: lint's, and those of the commands that
    name a file they cannot read (`curator similar`'s notes), so that each says it alike."""
    return STOPPED if mended else STOPPED + NOT_MENDED


def check(file: IncidentFile) -> FileFindings:
    if file.loaded.text is None or "\t" not in file.loaded.text:
        return
    lines = file.loaded.text.split("\n")  # lines as editors and curator.load count them
    spans = scalar_spans(file.loaded.document, lines)
    stopped = {p.position for p in file.loaded.problems if at_a_tab(file.loaded, p)}
    mended = fix_reads(file)
    plain = plain_tabs(file)
    for number, line in enumerate(lines, start=1):
        said = set()  # a line's runs of tabs are said once for each thing to say of them
        column = line.find("\t") + 1
        while column:
            where = Position(number, column)
            if where in stopped:
                words = stops_the_file(mended)
            elif where in plain:
                words = IN_A_KEY if plain[where] else IN_A_PLAIN_VALUE
            else:
                words = "tab character; use spaces"
            text = inside(spans, where) or in_comment(line, column, number, spans)
            fixable = mended and not text
            if (words, fixable) not in said:
                said.add((words, fixable))
                finding = RULE.at(file.display, where, words)
                yield finding if fixable else not_fixable(finding)
            run = len(line) - len(line[column - 1 :].lstrip("\t"))  # (a run: said at its first)
            column = line.find("\t", run) + 1
