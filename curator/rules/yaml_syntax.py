"""The file must be well-formed YAML.

A syntax error is reported where libyaml stopped reading; the rest of the file is not
checked until it parses, but every other file still is. Where it comes from a usual slip,
the message says which and what to write, after libyaml's words, and it is placed at the
slip where libyaml notices it later: a key without `: ` (at its line, not the next one;
or a line indented with a space YAML does not count, U+3000 or U+00A0), a key ended with a
full-width `：` (at the colon, also for a list item's key or a nested one, `- url： …`,
where libyaml reads on to a `key: ` lines below) or with a `:` and a space YAML does not
count (`title:　…`, U+3000 or U+00A0, at that space), an item started with a dash that is
not `-` (`－ url: …`, `– 설정 변경`: U+FF0D FULLWIDTH HYPHEN-MINUS, a dash, a minus sign or
a bullet, at it), a comment started with a full-width `＃` (U+FF03, which YAML reads as
text: on a line of its own, after a value, on a block's header; at it),
a `: ` inside a one-line value (`detection: 경고: …`, which YAML reads as another key;
where the value is wrapped in typographic quotes, `“경고: …”`, at the quote, which YAML
takes for text), a
line indented as no key or item around it, a quote left open (at the quote, not at the
end of the file), a quote inside single quotes, a backslash inside double quotes
(`"C:\\Users"`), a value starting with a character YAML reads as no text (at that
character: `[초안] NCCL 멈춤` is a list and then text, `*중요*` an alias, `> 인용` a block,
`- 항목` after a key an item, `@` and the backtick kept for future use; put such a value in
double quotes). A tab where YAML takes only spaces (to indent, after an item's `-`) is
reported by IL601 alone, at the tab, which `curator fix` replaces where two spaces mend
the file.
"""

from curator.findings import Severity
from curator.load import Problem
from curator.rules._problems import report
from curator.rules.base import FileFindings, IncidentFile, Rule

RULE = Rule(
    code="IL101",
    name="yaml-syntax",
    severity=Severity.ERROR,
    summary="The file is not well-formed YAML.",
    failing="title: [unclosed\n",
    passing="title: closed\n",
)


def check(file: IncidentFile) -> FileFindings:
    if file.loaded.problems:  # (nearly every file has none)
        yield from report(file, Problem.SYNTAX, RULE)
