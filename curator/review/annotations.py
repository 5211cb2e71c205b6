"""A review as GitHub workflow commands: annotations on the changed lines.

GitHub shows at most 10 error and 10 warning annotations (and 10 notices) per step and
drops the rest silently, so the most important ones are printed and one notice says how many
were left out and where they are (the job summary); of each kind, those a pull request's
"Files changed" shows first (`FileReview.shown_in_diff`), as it shows no other.
"""

from __future__ import annotations

from curator.findings import Finding, Severity
from curator.report import github_annotation, workflow_command
from curator.review.markdown import ON_BASE
from curator.review.model import FileReview, ReportFinding, Review
from curator.rules import taxonomy_invalid, unknown_term

PER_STEP = 10  # GitHub's limit for each of error, warning and notice annotations


def workflow_commands(review: Review) -> list[str]:
    of = {file.path: file for file in review.files}
    findings = _folded([f for file in review.files for f in file.findings], review)
    # Those "Files changed" shows first, each kind in its order otherwise: one on a line an
    # edited file's diff leaves alone took one of the ten, and pushed out one it shows. It
    # is printed after them, not dropped: the run's summary and checks tab show it.
    findings = sorted(findings, key=lambda f: not _shown(f, of))
    errors = [f for f in findings if f.severity == "error"]
    warnings = [f for f in findings if f.severity == "warning"]
    lines = [github_annotation(_finding(f)) for f in errors[:PER_STEP] + warnings[:PER_STEP]]
    # Each pair once, as the status line counts them: two incidents of the change that
    # match each other took two of the ten notices, and were two of those left out.
    notices = review.duplicate_pairs()
    omitted_errors = max(len(errors) - PER_STEP, 0)
    omitted_warnings = max(len(warnings) - PER_STEP, 0)
    room = PER_STEP - 1 if omitted_errors or omitted_warnings else PER_STEP
    for file, match in notices[:room]:
        # Of the file as a whole, at its first line that "Files changed" shows: line 1 of
        # an incident edited elsewhere is not, and the notice was seen in no diff.
        line = file.first_shown() or 1
        where = f", {ON_BASE}" if match.on_base else ""
        score = f"score {match.score:.2f}{where}"
        message = f"possible duplicate of {match.id} ({score}): {match.title or ''}"
        lines.append(_command("notice", file.path, line, "possible duplicate", message))
    omitted = _counted(
        (omitted_errors, "error"),
        (omitted_warnings, "warning"),
        (max(len(notices) - room, 0), "possible duplicate"),
    )
    if omitted:
        lines.append(
            _command(
                "notice",
                None,
                None,
                "more in the job summary",
                f"not shown as annotations (GitHub shows 10 of each kind per step): "
                f"{omitted}; the job summary lists them all",
            )
        )
    return lines


def _folded(findings: list[ReportFinding], review: Review) -> list[ReportFinding]:
    """`findings` with the IL301 errors of a taxonomy file the head cannot read left out and
    said once, at the file's first IL303 error, as `curator lint` says them: an annotation a
    term of each incident said again that the file could not be read, and took the ten.
    With no annotation at that IL303 (a file the change leaves alone, unread at the base
    too, which "Files changed" would not show), they are said at the first of them that
    "Files changed" shows (in a new file, or on a line the diff adds or rewrites), where
    the first of all, in an incident edited elsewhere, was shown nowhere but the run's
    summary; at the first of all when none is. That IL303, on a line "Files changed" does not
    show of a file the change edits (elsewhere: unread at the base too, say), is moved to
    the first line it shows of the file, saying where it is, as it too was shown in no
    diff."""
    of = {file.path: file for file in review.files}
    for unread in review.taxonomy_unread:
        folded = [f for f in findings if review.unread_of(f) == unread]
        if not folded:
            continue
        at = (unread.path, unread.line, unread.column, taxonomy_invalid.RULE.code)
        first = next((f for f in findings if (f.path, f.line, f.column, f.code) == at), None)
        incidents = len({f.path for f in folded})
        note = unknown_term.unread_note(unread.dimension, incidents, len(folded))
        if first is None:
            first = next((f for f in folded if _shown(f, of)), folded[0])
            folded = [f for f in folded if f is not first]
            was = ", as at the base" if unread.at_base else ""
            own = first.message.removesuffix(unknown_term.said_unread(unread.path))
            told = first.model_copy(
                update={
                    "message": f"{own}; {unread.path} could not be read{was} (IL303 at line "
                    f"{unread.line}, column {unread.column}){note}"
                }
            )
        elif (line := _moved_to(first, of)) is None:
            told = first.model_copy(update={"message": first.message + note})
        else:
            # Said where it is: the message may speak of "this line".
            said = f"line {first.line}, column {first.column}: {first.message}{note}"
            told = first.model_copy(update={"line": line, "column": 1, "message": said})
        gone = {id(f) for f in folded}
        findings = [told if f is first else f for f in findings if id(f) not in gone]
    return findings


def _shown(finding: ReportFinding, of: dict[str, FileReview]) -> bool:
    file = of.get(finding.path)
    return file is not None and file.shown_in_diff(finding.line)


def _moved_to(finding: ReportFinding, of: dict[str, FileReview]) -> int | None:
    """The first line "Files changed" shows of `finding`'s file when it does not show the
    finding's own (a file the change edits elsewhere); None when it does, or shows none."""
    file = of.get(finding.path)
    return None if file is None or _shown(finding, of) else file.first_shown()


def _counted(*counts: tuple[int, str]) -> str:
    """`1 more error and 3 more possible duplicates`: the kinds left out, none for 0."""
    parts = [f"{n} more {noun}{'' if n == 1 else 's'}" for n, noun in counts if n]
    return " and ".join([", ".join(parts[:-1]), parts[-1]]) if len(parts) > 1 else "".join(parts)


def _finding(finding: ReportFinding) -> Finding:
    return Finding(
        finding.path,
        finding.line,
        finding.column,
        finding.code,
        Severity(finding.severity),
        finding.message,
        finding.fixable,
    )


def _command(level: str, path: str | None, line: int | None, title: str, message: str) -> str:
    if path is None:
        return workflow_command(level, message, title=title)
    return workflow_command(level, message, file=path, line=line, title=title)
