"""Which findings of the files a change leaves alone the base already had, worked out from
the head's lint where that is exact, so that the base is not written out and linted again.

Where the change leaves the taxonomy alone, a file it does not touch has the same bytes at
both commits, so its own findings (every rule that reads one file) are the same at both:
none of them can be the change's. Only the cross-file rules' findings can, and those read
each file's summary alone (`FileSummary`). The base's summaries are the head's, but for
the files the change touches, which are read from git as the base has them. At 100,000
incidents this spares writing out the base's 100,000 files, linting them cold and deleting
them: most of a review's time where the change breaks another file (a second report of an
event, sharing its source URL), and minutes on a slow disk (benchmarks/HISTORY.md,
"Session 49").

Where that is not known to be exact (the taxonomy changed, a file the change removes,
renames or writes in a subfolder or other than as a plain `.yaml` file), `None`: the
caller lints a copy of the base.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import cast

from curator.findings import Finding
from curator.library import Library, read_in
from curator.lint import check_file, display_path, run_library_rules, summary_of
from curator.lint_cache import Checked, CorruptEntry, MissingSummary
from curator.review.git import FileChange
from curator.rules import LIBRARY_RULES
from curator.rules.base import FileSummary
from curator.taxonomy import Taxonomy

# The codes a change can give a file it does not touch, the taxonomy left alone.
ACROSS_FILES = frozenset(rule.RULE.code for rule in LIBRARY_RULES)


def cross_file_findings_at_base(
    library: Library,
    held: list[object],
    cwd: Path,
    changes: Sequence[FileChange],
    olds: Sequence[bytes | None],
    regular: frozenset[str],
) -> list[Finding] | None:
    """The cross-file rules' findings at the base, from the head's `library` (linted with
    `held`, what `curator.lint.lint` held of each file: paths, displays relative to `cwd`,
    the repository's top as the head has it, and results), the base's bytes of each of
    `changes` (`olds`) and which of them the base has as regular files (`regular`, their
    paths there: not links, folders or submodules); None where that would not be exact."""
    entries, displays = cast(list[str], held[0]), cast(list[str], held[1])
    checked = cast(list[Checked], held[2])
    summaries: dict[str, FileSummary] = {}
    for entry, display, result in zip(entries, displays, checked, strict=True):
        summary = _summary_as_linted(entry, result, library.taxonomy)
        if summary is None:
            return None
        summaries[display] = summary
    folder = display_path(library.incidents_dir, cwd)
    at_base = [c.old_path or c.path for c in changes if c.change != "added"]
    # Not an added file's `old_path` (moved in from where the library did not read it):
    # no incident at the base, its entry had a summary with no id, reference nor source
    # (IL107: a `.yml`, a subfolder), or none (hidden). It made no cross-file finding nor
    # moved one (a message of IL401 may name it, and `_place` leaves messages out): the
    # base's findings are those of the head's summaries without the file, as for any
    # addition.
    if not all(read_in(path, folder) for path in [*at_base, *(c.path for c in changes)]):
        return None
    for change, old in zip(changes, olds, strict=True):
        summaries.pop(change.path, None)
        if change.change == "added":
            continue
        path = change.old_path or change.path
        if old is None or path not in regular:
            return None
        summaries[path] = summary_of(cwd / path, path, old, library.taxonomy)
    # In the library's order, as its lint would list them: by name (one folder).
    ordered = [summaries[display] for display in sorted(summaries)]
    taxonomy_files = {p: display_path(p, cwd) for p in library.taxonomy.files}
    return run_library_rules(library, ordered, taxonomy_files, cwd)


def _summary_as_linted(entry: str, result: Checked, taxonomy: Taxonomy) -> FileSummary | None:
    """The summary of the file at `entry` that the head's lint had. A result the lint cache
    kept holds none: it is read from the cache, and where the cache no longer has it (a
    concurrent run wrote its shard: `MissingSummary`) or holds what curator never writes
    (`CorruptEntry`), the file is checked again, as lint does; None when that tells
    otherwise than the lint found (the file edited since): the head's lint then says
    nothing exact of the base."""
    try:
        return result.summary
    except (MissingSummary, CorruptEntry):
        today = dt.date.today()  # (no part of a summary depends on it)
        again = check_file(Path(entry), result.display, taxonomy, today, hashed=False)
        return again.summary if again.summary_key == result.summary_key else None
