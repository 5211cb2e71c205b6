"""The taxonomy files are valid: schema, unique ids, existing parents and replacements.

Reported against `schema/taxonomy/<dimension>.yaml`: a term id used twice (in any
dimension), a `parent` or `replaced_by` that is not a term of the same dimension, a cycle
of parents, a replacement that is itself deprecated. A label (Korean or English) that
another current term of the dimension has too, or that is another term's id, as names are
compared (case, width, spacing, NFC or NFD), at each label, naming the other: a label is
how a term is shown (the website, `taxonomy.json`, `graph.json`, the review), so two terms
of one label are shown as one, and one picked by its label may be the other; and `curator
new`, `fix` and `search` take a label two terms share for neither, another's id for that
term. (With a deprecated term, or in another dimension, it is IL305.) A term that breaks
the schema (a misspelt key, `aliases` that are no list) is reported where the mistake is
and left out alone: the dimension's other terms are kept, and a term whose `parent` it is
is told that its definition is broken, as an incident carrying it is (IL301). A mistake
made alike in several terms (a key misspelt in each) is one error, at the first, with how
many more terms make it and the line of the last. Only a file
that is no mapping, or whose `terms` is no list, is left out whole. And against any other
YAML file of `schema/taxonomy/` (`contributing-factors.yaml`, `causes.yml`): nothing reads
it, so the terms it holds would be unknown to every incident without a word of why.
And what a dimension's file holds that reads otherwise than it looks, as an incident's is
told (IL109, IL606): `- ` lines YAML joins to the text above (a deleted `aliases:` line
leaves the aliases in the description, and the term without them), at the first, once a
value; two byte-order marks or more starting the file (ruamel.yaml reads all but the first
as part of the first key); a zero-width character, at the first (`suggest`, `search` and
`new` do not find a name holding one inside a word in text); a line ending with a lone CR
(a line to YAML readers, none to git and GitHub) or a NEL, LINE SEPARATOR or PARAGRAPH
SEPARATOR (a line to curator, none to editors and ruamel.yaml), at the first, as IL603
tells an incident. A letter not in NFC changes no name as they are compared, and is left
alone.
"""

from curator.findings import Severity
from curator.rules.base import FileFindings, LibraryView, Rule

RULE = Rule(
    code="IL303",
    name="taxonomy-invalid",
    severity=Severity.ERROR,
    summary=(
        "A taxonomy file is malformed, links to a term that does not exist, gives two terms "
        "one label, or is no dimension's and never read."
    ),
    failing=(
        "dimension: components\nterms:\n  - id: cilium\n    parent: cni   # no term cni\n    ...\n"
    ),
    passing=(
        "dimension: components\n"
        "terms:\n"
        "  - id: cni\n"
        "    ...\n"
        "  - id: cilium\n"
        "    parent: cni\n"
        "    ...\n"
    ),
)


def check_library(library: LibraryView) -> FileFindings:
    for problem in library.taxonomy.problems:
        display = library.taxonomy_files.get(problem.path, str(problem.path))
        yield RULE.at(display, problem.position, problem.message)
