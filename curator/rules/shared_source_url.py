"""One public report belongs to one incident.

Two incidents citing the same report (after normalising scheme, `www.`, trailing slash,
fragment, tracking parameters and archive.org wrappers) are most likely the same event.
That is allowed only when one is withdrawn as a `duplicate_of` the other.
"""

from curator.findings import Severity
from curator.rules.base import FileFindings, FileSummary, LibraryView, Rule, SourceUrl

RULE = Rule(
    code="IL502",
    name="shared-source-url",
    severity=Severity.ERROR,
    summary="Two incidents cite the same source URL and neither is a withdrawn duplicate.",
    failing="# IL-0300.yaml\n  - url: https://example.com/pm\n# IL-0301.yaml\n  - url: http://www.example.com/pm/#x\n",
    passing="# IL-0301.yaml\nstatus: withdrawn\nduplicate_of: IL-0300\n",
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
        named: dict[int, str] = {}  # per file, the others citing the URL, as said
        for summary, url in cited:
            if id(summary) not in named:
                others = {
                    other.id.value if other.id else other.display
                    for other in files
                    if other is not summary and not _settled(summary, other)
                }
                named[id(summary)] = ", ".join(sorted(others))
            if named[id(summary)]:
                yield RULE.at(
                    summary.display,
                    url.position,
                    f"{url.value} is also cited by {named[id(summary)]}; if it is the "
                    "same event, withdraw one with duplicate_of",
                )
