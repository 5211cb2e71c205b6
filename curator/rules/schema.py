"""The incident must match the incident schema (`schema/incident.schema.json`).

Unknown keys, missing required keys, values of the wrong type, empty lists where one item
is needed, and malformed dates are reported at the line and column of the offending value
(or of the mapping that lacks a key). Other rules run once the structure is valid.
A U+FEFF inside text is left to IL606 (invisible characters), which reports the character
and whose fix removes it: text refused for it alone is not reported here, and text with
another problem too is reported for that one (a control character, nothing visible). A
file refused for nothing but U+FEFF in its text is judged by the other rules as it reads
without them, so that removing them brings no further findings.
A key written too far left, out of the mapping it belongs to (`causes:` at the start of
its line under `facets:`, `publisher:` under a source), is told to be indented there.
A facet written as a term's label or alias rather than its id (`소프트웨어 결함`, `NCCL`)
is offered the id it names, as IL301 offers one for a misspelt id; where that name is one
term's alone, `curator fix` writes the id. A list whose first item
starts with a dash that is not `-` (`－ Imbue`, `– 설정 변경`, as an input method or a word
processor types it), which YAML reads as one text, is told which character it starts with;
an item holding `: ` wrapped in typographic quotes (`- ‘kubectl: drain’`), which YAML reads
as a mapping, is told that YAML does not take those for quotes. A key ended with a
full-width colon or a space YAML does not count (`title： "A: B"`, a source of one line
`- url： https://…`), which YAML reads as part of a key or as text, is told so.
"""

from typing import Any

from curator.document import Document, Path
from curator.findings import Severity
from curator.rules._spaces import not_fixable
from curator.rules.base import FileFindings, IncidentFile, Rule
from curator.taxonomy import Taxonomy

RULE = Rule(
    code="IL201",
    name="schema",
    severity=Severity.ERROR,
    summary="A key, type or value that the incident schema does not allow.",
    failing=(
        "status: published\n"
        "facets:\n"
        "  causes: capacity-limit   # not a list\n"
        "severity: high   # unknown key\n"
    ),
    passing="status: published\nfacets:\n  causes:\n    - capacity-limit\n",
    fixable=True,
)


def check(file: IncidentFile) -> FileFindings:
    document = file.loaded.document
    for error in file.schema_errors:
        if error.loc == ("id",) and _has_id(document):
            continue  # IL202 explains a malformed id better (a missing one is this rule's)
        message = error.message
        if error.zero_width:  # IL606 names the U+FEFF, and `curator fix` removes it
            if error.but_zero_width is None:
                continue
            message = error.but_zero_width
        where = document.locate(error.loc, error.at_key) if document else file.position()
        hint, fixable = (
            _term_meant(file.taxonomy, document.data, error.loc) if document else ("", False)
        )
        finding = RULE.at(file.display, where, message + hint)
        yield finding if fixable else not_fixable(finding)


def _has_id(document: Document | None) -> bool:
    return document is not None and isinstance(document.data, dict) and "id" in document.data


def _term_meant(taxonomy: Taxonomy, data: Any, loc: Path) -> tuple[str, bool]:
    """For a facet that is no term id, the terms whose id, label or alias it is close to (a
    contributor reading the taxonomy, or the draft's comments, may write the label), and
    whether it is one term's own name, which `curator fix` then writes as the id."""
    if len(loc) != 3 or loc[0] != "facets" or not isinstance(loc[2], int):
        return "", False
    dimension, index = str(loc[1]), loc[2]
    value = _facet(data, dimension, index)
    if not isinstance(value, str):
        return "", False
    named = taxonomy.named_term(dimension, value)
    hint = [named] if named else taxonomy.did_you_mean(dimension, value)
    return (f"; did you mean {' or '.join(map(repr, hint))}?" if hint else ""), bool(named)


def _facet(data: Any, dimension: str, index: int) -> object:
    facets = data.get("facets") if isinstance(data, dict) else None
    terms = facets.get(dimension) if isinstance(facets, dict) else None
    return terms[index] if isinstance(terms, list) and index < len(terms) else None
