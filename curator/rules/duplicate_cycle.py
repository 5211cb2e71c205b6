"""Following `duplicate_of` leads to an incident to use, never round in a circle.

A withdrawn duplicate names the incident that tells the same event (`duplicate_of`), and
readers follow the chain to its end, the incident to cite (docs/export.md). When the chain
comes back to where it started (IL-0203 names IL-0204, which names IL-0203), no incident
of it is the one to use, and a reader following it never stops: one of them must be
published again, without `duplicate_of`. Each incident of the circle is reported, at its
`duplicate_of`. (A chain that stops at a missing id is IL401's; one incident naming itself
is too.)
"""

from curator.findings import Severity
from curator.rules.base import FileFindings, FileSummary, LibraryView, Rule

RULE = Rule(
    code="IL403",
    name="duplicate-cycle",
    severity=Severity.ERROR,
    summary="Following `duplicate_of` from an incident comes back to it.",
    failing=(
        "# incidents/IL-0203.yaml\nstatus: withdrawn\nduplicate_of: IL-0204\n"
        "# incidents/IL-0204.yaml\nstatus: withdrawn\nduplicate_of: IL-0203\n"
    ),
    passing=(
        "# incidents/IL-0203.yaml\nstatus: withdrawn\nduplicate_of: IL-0204\n"
        "# incidents/IL-0204.yaml\nstatus: published\n"
    ),
)


_SHOWN = 5  # ids of a circle named in the message; a longer one is counted


def check_library(library: LibraryView) -> FileFindings:
    known = library.by_id()
    circles = _circles(library.files, known)
    if not circles:
        return
    for summary in library.files:
        # (Every id of a circle names the next, so one file holds it: `_circles`.)
        place = circles.get(summary.id.value) if summary.id is not None else None
        if place is None:
            continue
        where = next(ref.position for name, ref in summary.references if name == "duplicate_of")
        yield RULE.at(
            summary.display,
            where,
            f"duplicate_of leads back to this incident ({_shown(*place)}): one of them must "
            "be the incident to use, published without duplicate_of",
        )


def _circles(
    files: list[FileSummary], known: dict[str, list[FileSummary]]
) -> dict[str, tuple[list[str], int]]:
    """Each id on a circle of `duplicate_of`: the circle, and the id's place in it. Every
    id has one `duplicate_of` at most, so one walk from each id not yet seen finds every
    circle, and each id is walked once: a chain of 100,000 costs what 100,000 chains of
    one do. An id two files hold, or that names itself, ends a chain: IL204 and IL401
    report those."""
    after: dict[str, str] = {}
    for summary in files:
        named, held = summary.duplicate_of, summary.id.value if summary.id is not None else ""
        if named is not None and held and named != held and len(known[held]) == 1:
            after[held] = named
    circles: dict[str, tuple[list[str], int]] = {}
    seen: set[str] = set()
    for first in after:
        walk: dict[str, int] = {}  # this walk's ids, by their place in it
        step: str | None = first
        while step is not None and step not in seen:
            seen.add(step)
            walk[step] = len(walk)
            step = after.get(step)
        if step is not None and step in walk:  # back on this walk: a circle from `step`
            circle = list(walk)[walk[step] :]
            circles.update((member, (circle, i)) for i, member in enumerate(circle))
    return circles


def _shown(circle: list[str], place: int) -> str:
    """The circle from the id at `place` round to it again (its first ids and a count,
    when it is long)."""
    size = len(circle)
    ids = [circle[(place + k) % size] for k in range(min(size, _SHOWN))]
    if size <= _SHOWN:
        return " → ".join([*ids, circle[place]])
    return f"{' → '.join(ids)} → … → {circle[place]}, {size:,} incidents"
