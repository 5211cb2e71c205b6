"""The taxonomy's names and places are clear: no alias two terms share, none a term
says twice, no label of two dimensions, no current term under a deprecated one.

Reported against `schema/taxonomy/<dimension>.yaml`, at the alias, naming the other place:
an alias that another term of the dimension has too, or that is another term's id or label,
as names are compared (case, width, spacing, NFC or NFD: `Local Disk` is `local disk`).
An alias that is its own term's id, label or earlier alias again but for case, width,
composition or a space for a hyphen (`nccl` beside `NCCL`, `capacity limit` for
`capacity-limit`): `fix`, `new`, `search` and `suggest` read the two as one name, so it is
only more to read, in the file and in the export's `taxonomy.json`. (Written together or
apart otherwise, `kubeproxy` beside `kube-proxy`, it is another spelling, which text written
so needs.)
At a label that a term of another dimension has too: each command is given the dimension,
but an incident's terms are shown as two of one name. And one that a deprecated term of the
dimension has too, or that is a deprecated term's id (a term given a new id may keep its
label while its incidents are moved; with two current terms it is IL303).
And at a term that is current while its `parent` is deprecated: left under a retired term,
it is no child of the replacement, so `curator search --component` on either (a filter on
the deprecated term filters on its replacement) misses the incidents carrying it. Set its
parent to the replacement, or deprecate it too.
And at the first line of a taxonomy file that ends in white space (as IL602 for an
incident), with how many do: it changes no term, but is invisible, and noise in diffs. So
are lines ending with CRLF (every YAML reader reads them as LF ends; git writes LF where
`.gitattributes` says `eol=lf`): at the first, with how many.

A warning, not an error: every term is read and every incident keeps its terms, but a
name or a place is unclear. An alias two terms share names neither, so `curator fix`,
`new` and `search` cannot take it for a term (a facet written so is not fixable,
`--component NAME` is refused); an alias that is another term's id or label is taken for
that term; and in both cases text saying it counts as evidence for both terms in
`suggest`, `search` and `new`'s guesses. Keep the alias in the term it means. A name a
term says twice is only noise: remove the second.
"""

from curator.findings import Severity
from curator.rules.base import FileFindings, LibraryView, Rule

RULE = Rule(
    code="IL305",
    name="taxonomy-inconsistent",
    severity=Severity.WARNING,
    summary=(
        "A taxonomy alias is another term's too, another term's id or label, or its own "
        "term's name again; a label is another dimension's or a deprecated term's too; or "
        "a current term's parent is deprecated; or a line of a taxonomy file ends in white "
        "space or CRLF."
    ),
    failing=(
        "terms:\n"
        "  - id: postgresql\n"
        "    aliases: [Postgres, pg_dump]\n"
        "    ...\n"
        "  - id: backup-system\n"
        "    aliases: [backup, pg_dump]   # postgresql's too\n"
        "    ...\n"
    ),
    passing=(
        "terms:\n"
        "  - id: postgresql\n"
        "    aliases: [Postgres]\n"
        "    ...\n"
        "  - id: backup-system\n"
        "    aliases: [backup, pg_dump]\n"
        "    ...\n"
    ),
)


def check_library(library: LibraryView) -> FileFindings:
    for problem in library.taxonomy.warnings:
        display = library.taxonomy_files.get(problem.path, str(problem.path))
        yield RULE.at(display, problem.position, problem.message)
