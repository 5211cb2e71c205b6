"""One public report belongs to one incident.

Two incidents citing the same report (after normalising scheme, `www.`, trailing slash,
fragment, tracking parameters and archive.org wrappers) are most likely the same event.
So are two citing one paper at different addresses: its arXiv abstract, PDF, HTML or any
version of them, its page on Hugging Face or alphaXiv, its arXiv DOI; a paper's DOI at
`doi.org`, `dx.doi.org` or its ACM Digital Library pages, however the DOI is cased. The
finding names the other's address when it is written otherwise. That is allowed only when
one is withdrawn as a `duplicate_of` the other.
"""

from curator.findings import Severity
from curator.rules.base import FileFindings, FileSummary, LibraryView, Rule, SourceUrl

RULE = Rule(
    code="IL502",
    name="shared-source-url",
    severity=Severity.ERROR,
    summary="Two incidents cite the same source URL and neither is a withdrawn duplicate.",
    failing=(
        "# IL-0300.yaml\nsources:\n  - url: https://example.com/pm\n"
        "# IL-0301.yaml\nsources:\n  - url: http://www.example.com/pm/#x\n"
    ),
    passing=(
        "# IL-0300.yaml\nsources:\n  - url: https://example.com/pm\n"
        "# IL-0301.yaml\nstatus: withdrawn\nduplicate_of: IL-0300\n"
        "sources:\n  - url: http://www.example.com/pm/#x\n"
    ),
)


def _settled(a: FileSummary, b: FileSummary) -> bool:
    """One of the two is withdrawn as a duplicate of the other."""
    if a.id is None or b.id is None:
        return False
    return (a.status == "withdrawn" and a.duplicate_of == b.id.value) or (
        b.status == "withdrawn" and b.duplicate_of == a.id.value
    )


def check_library(library: LibraryView) -> FileFindings:
    citing: dict[str, list[tuple[FileSummary, SourceUrl]]] = {}
    for summary in library.files:
        for url in summary.source_urls:
            citing.setdefault(url.normal, []).append((summary, url))
    for cited in citing.values():
        if len(cited) < 2:
            continue  # nearly every URL: cited once
        # Each file once: a file citing a URL 10,000 times was compared 10,000² times.
        files = list({id(summary): summary for summary, _ in cited}.values())
        written = _written(cited)
        named: dict[tuple[int, str], str] = {}  # per file and spelling, the others, as said
        for summary, url in cited:
            key = (id(summary), url.value)
            if key not in named:
                others = (
                    _as_written(other, written[id(other)] - {url.value})
                    for other in files
                    if other is not summary and not _settled(summary, other)
                )
                named[key] = ", ".join(sorted(others))
            if named[key]:
                yield RULE.at(
                    summary.display,
                    url.position,
                    f"{url.value} is also cited by {named[key]}; if it is the "
                    "same event, withdraw one with duplicate_of",
                )


def _written(cited: list[tuple[FileSummary, SourceUrl]]) -> dict[int, set[str]]:
    """Per file, how it spells the URL that `cited` share."""
    spellings: dict[int, set[str]] = {}
    for summary, url in cited:
        spellings.setdefault(id(summary), set()).add(url.value)
    return spellings


def _as_written(other: FileSummary, spellings: set[str]) -> str:
    """`other` named by its id, with its spellings of the URL unlike this file's (an arXiv
    PDF against its abstract, say), at most two: a reader would not see the match
    otherwise."""
    name = _name(other)
    if not spellings:
        return name
    shown = sorted(spellings)[:2]
    more = " …" if len(spellings) > 2 else ""
    return f"{name} (as {', '.join(shown)}{more})"


def _name(summary: FileSummary) -> str:
    """A file by its id; by its id and path where its name says another (IL203), as two
    files may then hold one id (IL204) and be named alike ("IL-0025, IL-0025")."""
    if summary.id is None:
        return summary.display
    if summary.id.value == summary.stem:
        return summary.id.value
    return f"{summary.id.value} in {summary.display}"
