"""A review as Markdown: the pull-request comment and the job summary.

Layout: the hidden marker, one status line, the head commit and the workflow run; then one
section per changed file that has something to say, most important first (`FileReview.rank`); then
how to reproduce and how to settle a false duplicate. Every string from the review passes
through `inert()`; links are built only by `Links`. The text never exceeds the size limit it
is given: past it, every file section shrinks to one line, the most important are made
whole again while they fit, or shortened to the first entries of each list (`_fit`), and a
note says where the full report is.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from itertools import groupby

from curator import __version__
from curator.model import DIMENSIONS, INCIDENT_ID, TERM_ID_PATTERN, Incident
from curator.review.inert import command, inert, inert_message, inert_name, link
from curator.review.links import Links
from curator.review.model import (
    SHA_PATTERN,
    Evidence,
    FacetChange,
    FileReview,
    FilterChange,
    Match,
    MendedTaxonomy,
    ReportFinding,
    Review,
    TermChange,
    TermJudgement,
    UnreadOnBase,
    UnreadTaxonomy,
)
from curator.review.tooling import ChangedTooling
from curator.rules import STOPPING
from curator.rules.deprecated_term import RULE as DEPRECATED_TERM
from curator.rules.no_tabs import RULE as NO_TABS
from curator.rules.no_tabs import STOPPED as TAB_STOPS
from curator.rules.unknown_term import RULE as UNKNOWN_TERM

MARKER = "<!-- curator-review -->"
ON_BASE = "merged to the base branch since this branch started"
COMMENT_LIMIT = 65_536  # GitHub refuses longer issue comments (counted in UTF-16 units)
SUMMARY_LIMIT = 1024 * 1024  # bytes per step of $GITHUB_STEP_SUMMARY
VISIBLE = 5  # list entries shown before the rest is folded into <details>
_CODES_SHOWN = 3  # rule codes named on a file's one line (`_tally`)

_SHA = re.compile(SHA_PATTERN)
# The footer is never trimmed to fit the comment (`render`): the blocks to paste are kept
# short whatever the report holds, at most VISIBLE ids of at most this length each, in at
# most VISIBLE files. (A real id is a dozen characters; a placeholder's slug a few words.)
_LONGEST_ID = 80
_TERM = re.compile(TERM_ID_PATTERN)
DEPRECATED = DEPRECATED_TERM.code  # IL302
UNKNOWN = UNKNOWN_TERM.code  # IL301
# A message's subject: the incident's field it begins with (IL404's "actions[1] holds no
# Korean: …", IL402's "'lessons' holds a placeholder"), set aside so that a rule's findings
# that say the same of several fields are one line (`_grouped`).
_SUBJECT = re.compile(r"('?)([a-z_]+)(?:\[\d+\])?(?:\.[a-z_]+(?:\[\d+\])?)*\1(?=[ :])")
_FIELDS = frozenset(Incident.model_fields)

Measure = Callable[[str], int]

# Said under errors that stop the rules needing a valid incident, so that nobody takes the
# short list for all there is to fix.
_NOTHING = "nothing in the text or the most similar incidents supports it"
_NOT_CHECKED = (
    "_Until these errors are fixed, the file is not read as an incident: the checks of its "
    "terms, references, narrative, sources and mentions have not run._"
)


# Looked up as this module loads rather than mid-run (see curator.similarity.text).
codecs.lookup("utf-16-le")


def utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def utf8_length(text: str) -> int:
    return len(text.encode("utf-8"))


@dataclass(frozen=True)
class Budget:
    """A size limit, how to measure against it, and where the untrimmed report is."""

    limit: int
    measure: Measure
    full_report: str


COMMENT = Budget(
    COMMENT_LIMIT,
    utf16_length,
    "the job summary of the workflow run and its `review` artifact",
)
SUMMARY = Budget(SUMMARY_LIMIT, utf8_length, "the `review` artifact of the workflow run")


def render(
    review: Review, links: Links, budget: Budget = COMMENT, tooling: ChangedTooling | None = None
) -> str:
    """`tooling`: what GitHub lists of the pull request's files (the comment step's view,
    not the report's), said first when the report may come from code the change makes."""
    head = _header(review, links, tooling) + _taxonomy(review, links)
    # Each file without the IL301 errors of a taxonomy file the head cannot read: the
    # taxonomy's lines say them (`_unread_line`), the status line counts them.
    files = [review.without_unread(f) for f in review.files]
    # A file whose findings were all those, with nothing else to say, has no section: the
    # taxonomy's lines name it, where a section each repeated that the file could not be
    # read, once for every incident carrying one of its terms.
    summarised = {
        id(f)
        for f, whole in zip(files, review.files, strict=True)
        if _deprecation_warned(f, review) or (f is not whole and not _has_news(f))
    }
    news = sorted(
        (f for f in files if _has_news(f) and id(f) not in summarised), key=FileReview.rank
    )
    shown = _shown_before(news)
    sections = [_Section(f, links, review, shown.get(f.path, {})) for f in news]
    sections_tail = _quiet(
        [f for f in files if not _has_news(f) and id(f) not in summarised],
        gave_findings=bool(summarised) or any(f.change == "unchanged" for f in news),
        others=bool(sections),
    )
    foot = _footer(review)
    full = "\n".join([head, *(s.full for s in sections), *sections_tail, foot])
    if budget.measure(full) <= budget.limit:
        return full
    return _trimmed(head, sections, sections_tail, foot, budget)


# --- the parts -----------------------------------------------------------------------------


def _header(review: Review, links: Links, tooling: ChangedTooling | None) -> str:
    counts = review.count()
    status = " · ".join(
        [
            _mark(counts.errors, "error", "❌"),
            _mark(counts.warnings, "warning", "⚠️"),
            _mark(counts.duplicates, "possible duplicate", "❌"),
            _mark(counts.suggestions, "facet suggestion", "💡"),
        ]
    )
    if counts.unsupported:  # said only when there is one
        status += " · " + _mark(counts.unsupported, "unsupported facet", "⚠️")
    if counts.doubtful_claims:  # rare: said only when there is one
        claims = "duplicate_of to check"  # (a key's name: no plural)
        status += " · " + _mark(counts.doubtful_claims, claims, "❌", claims)
    if omitted := _omitted(review):  # else the counts above read as the whole of it
        status += " · " + omitted
    short = review.head[:12]
    commit_url = links.commit(review.head)
    where = [f"Head {link(f'`{short}`', commit_url) if commit_url else f'`{short}`'}"]
    if links.run_url:
        where.append(link("workflow run", links.run_url))
    changed = sum(f.change != "unchanged" and review.in_library(f.path) for f in review.files)
    changed += review.omitted.changed if review.omitted else 0
    where.append(f"{_plural(changed, 'file')} changed under the library")
    lines = [MARKER, *_tooling_warning(tooling, links), f"### {status}", "", " · ".join(where), ""]
    if review.omitted and review.omitted.files:
        lines += [
            f"✂️ The report leaves out {_plural(review.omitted.files, 'file')}, the least "
            "important (advice first, errors last), to stay within what the comment step "
            "reads (64 MiB, 100,000 files): they are counted above, and `curator review` "
            "(below) lists them all.",
            "",
        ]
    if review.errors_elsewhere:
        was = "was" if review.errors_elsewhere == 1 else "were"
        lines += [
            f"⚠️ {_plural(review.errors_elsewhere, 'error')} in files this pull request does "
            f"not change {was} there before it too. `curator lint` lists them all.",
            "",
        ]
    if review.base_tip_unread:
        lines += [*_unread_on_base(review, links), ""]
    return "\n".join(lines)


def _unread_on_base(review: Review, links: Links) -> list[str]:
    """The incident files the base branch gained since this one started that could not be
    read, so none of the change's incidents was compared with them: each where lint stops
    reading it, linked at the base's tip (the first few; the header is never trimmed)."""
    unread = review.base_tip_unread
    among = "in it" if len(unread) == 1 else "among them"
    lines = [
        f"⚠️ {_plural(len(unread), 'incident file')} {ON_BASE} could not be read: possible "
        f"duplicates of this change's incidents were not looked for {among}.",
        "",
        *(_unread_file(file, links, review) for file in unread[:VISIBLE]),
    ]
    if len(unread) > VISIBLE:
        rest = _plural(len(unread) - VISIBLE, "more file")
        lines.append(f"- … and {rest}: `curator review --format json` lists them all")
    return lines


def _unread_file(file: UnreadOnBase, links: Links, review: Review) -> str:
    name = inert_name(file.path, 120)
    # (At the base's tip alone: the merge base has no such file.)
    url = links.blob(review.base_tip, file.path, file.line) if review.base_tip else None
    where = f" line {file.line}, column {file.column}" if file.line and file.column else ""
    return (
        f"- {link(name, url) if url else name}{where} · **{inert(file.code, 10)}** · "
        f"{inert_message(file.message)}"
    )


def _deprecation_warned(file: FileReview, review: Review) -> bool:
    """A file the change leaves alone whose only findings are the IL302 warnings of a term
    it deprecates: said in the taxonomy's lines (`_taxonomy`), counted in the status line,
    where a section each made a deprecation of a common term hundreds of sections long."""
    return (
        file.change == "unchanged"
        and bool(file.findings)
        and all(f.code == DEPRECATED for f in file.findings)
        and any("deprecated" in t.kinds for t in review.terms_changed)
    )


def _unread_errors(file: FileReview, review: Review, unread: UnreadTaxonomy) -> int:
    """How many findings of `file` are IL301 errors of `unread`, a taxonomy file the head
    cannot read (`Review.unread_of`)."""
    return sum(review.unread_of(f) == unread for f in file.findings)


def _taxonomy(review: Review, links: Links) -> str:
    """What the change to the taxonomy does to the incidents (or, when all it has to say
    is of files the base could not read either, that they are as at the base): a line per
    taxonomy file the head cannot read, then per term it changes (the first few), with how
    many incidents carry it and which, then the search filters that find other incidents.
    Bounded, as the header is never trimmed."""
    if not review.terms_changed and not review.taxonomy_unread and not review.taxonomy_mended:
        return ""
    shown = review.terms_changed[: 2 * VISIBLE]
    # (Files the base could not read either, and nothing else: the change did none of it.)
    at_base = all(u.at_base for u in review.taxonomy_unread) and not (
        review.terms_changed or review.filters_changed or review.taxonomy_mended
    )
    said = "what this change does to the incidents"
    if at_base:
        said = "as at the base, none of it this change's doing"
    lines = [f"**Taxonomy** — {said}:", ""]
    lines += [_unread_line(unread, links, review) for unread in review.taxonomy_unread]
    lines += [_mended_line(mended, links, review) for mended in review.taxonomy_mended]
    lines += [_term_line(change, links, review) for change in shown]
    if len(review.terms_changed) > len(shown):
        rest = _plural(len(review.terms_changed) - len(shown), "more term")
        lines.append(f"- … and {rest} changed: `curator review --format json` lists them all")
    if review.filters_changed:
        lines.append(_filters_line(review.filters_changed))
    return "\n" + "\n".join(lines) + "\n"


def _unread_line(unread: UnreadTaxonomy, links: Links, review: Review) -> str:
    """A taxonomy file the head cannot read: where, and the IL301 errors that gives the
    incidents the change leaves alone, counted, with the first few of them."""
    url = links.blob(review.head, unread.path)
    name = inert_name(unread.path, 120)
    # (Unread at the base too, there are no terms of the base's to compare.)
    was = (
        (", as at the base", "")
        if unread.at_base
        else ("", ", so none is compared with the base's")
    )
    text = (
        f"- **{unread.dimension}** · {link(name, url) if url else name} could not be read"
        f"{was[0]} (IL303 at line {unread.line}, column {unread.column}): none of its terms "
        f"is known{was[1]}"
    )
    carrying = [(f, n) for f in review.files if (n := _unread_errors(f, review, unread))]
    if not carrying:
        return text + "."
    carrying.sort(key=lambda pair: pair[0].change == "unchanged")  # the change's first
    errors = sum(count for _, count in carrying)
    alone = sum(f.change == "unchanged" for f, _ in carrying)
    ours = len(carrying) - alone
    verb = "carries" if len(carrying) == 1 else "carry"
    if not ours:
        who = f"{_plural(alone, 'incident')} this change leaves alone {verb}"
    elif not alone:
        who = f"{_plural(ours, 'incident')} this change adds or edits {verb}"
    else:
        who = (
            f"{_plural(len(carrying), 'incident')} ({ours:,} this change adds or edits, "
            f"{alone:,} it leaves alone) {verb}"
        )
    shown = []
    for file, _ in carrying[:VISIBLE]:
        url = links.blob(review.head, file.path)
        where = inert_name(file.path, 120)
        shown.append(f"{inert(file.own(), 60)} ({link(where, url) if url else where})")
    rest = len(carrying) - len(shown)
    more = f", and {rest:,} more" if rest > 0 else ""
    return (
        f"{text}; {who} them, with {_plural(errors, 'IL301 error')} until it is fixed: "
        f"{', '.join(shown)}{more}."
    )


def _mended_line(mended: MendedTaxonomy, links: Links, review: Review) -> str:
    """A taxonomy file the base could not read and the head reads: where its first error
    was, linked at the base (a report of an older version does not say)."""
    url = links.blob(review.head, mended.path)
    name = inert_name(mended.path, 120)
    where = ""
    if mended.line and mended.column:
        at = f"line {mended.line}, column {mended.column}"
        was = links.blob(review.base, mended.path, mended.line)
        where = f" at {link(at, was) if was else at}"
    return (
        f"- **{mended.dimension}** · {link(name, url) if url else name} could not be read "
        f"at the base (IL303{where}) and is read now: its terms are known again, and none "
        "is compared with the base's."
    )


def _term_line(change: TermChange, links: Links, review: Review) -> str:
    term = _term(change.term)
    what = "; ".join(_what(change, kind) for kind in change.kinds)
    text = f"- **{change.dimension}** · {term} {what}: "
    if not change.carried_by:
        return text + "no incident carries it."
    verb = "carries" if change.carried_by == 1 else "carry"
    text += f"{_plural(change.carried_by, 'incident')} {verb} it"
    text += _consequence(change)
    return f"{text}: {_incidents(change.incidents, change.carried_by, links, review)}."


def _what(change: TermChange, kind: str) -> str:
    if kind == "deprecated":
        return f"deprecated in favour of {_term(change.replaced_by or '')}"
    if kind == "relabelled":
        was, now = inert(change.label_was or "", 120), inert(change.label or "", 120)
        return f"relabelled from “{was}” to “{now}”"
    if kind == "moved":
        return f"moved from {_under(change.parent_was)} to {_under(change.parent)}"
    return {"restored": "no longer deprecated"}.get(kind, kind)


def _under(parent: str | None) -> str:
    return f"under {_term(parent)}" if parent else "the top"


def _consequence(change: TermChange) -> str:
    """What the incidents carrying the term get from the change, by its kind."""
    said = []
    if "removed" in change.kinds:
        said.append(
            ", each now with an IL301 error (a term is deprecated, never removed: the export "
            "refuses a release that drops one)"
        )
    if "deprecated" in change.kinds:
        fix = (
            f"which `curator fix` mends by writing {_term(change.replaced_by or '')} (the "
            "export's facet edges follow once it has run)"
            if change.fixable
            else "which `curator fix` cannot mend until the replacement is a current term"
        )
        said.append(f", each now with an IL302 warning, {fix}")
    if "restored" in change.kinds:
        said.append(", whose IL302 warning goes")
    if "relabelled" in change.kinds:
        names = change.old_label_names
        old = (
            "the old label still names it (an alias, or its id spelt otherwise)"
            if names == change.term
            else f"the old label now names {_term(names)}"
            if names
            else "the old label names no term now, for lint, fix, new and search"
        )
        said.append(f", shown by the new label (taxonomy.json, graph.json); {old}")
    return "".join(said)


def _incidents(names: Sequence[str], total: int, links: Links, review: Review) -> str:
    """The first few incidents by id and path (linked at the head), the rest counted."""
    shown = []
    for name in names[:VISIBLE]:
        path = review.incident_path(name)
        url = links.blob(review.head, path)
        where = inert_name(path, 120)
        shown.append(f"{inert(name, 60)} ({link(where, url) if url else where})")
    rest = total - len(shown)
    return ", ".join(shown) + (f", and {rest:,} more" if rest > 0 else "")


def _filters_line(filters: Sequence[FilterChange]) -> str:
    """The search filters (`curator search`, the website's facets) that find other
    incidents now, a few ids each."""
    said = []
    for change in filters[:VISIBLE]:
        parts = [
            f"{verb} {count:,} {more} ({_ids(names, count)})"
            for verb, count, more, names in (
                ("finds", change.gains, "more", change.gained),
                ("no longer finds", change.loses, "", change.lost),
            )
            if count
        ]
        said.append(f"{_term(change.term)} {' and '.join(p.replace('  ', ' ') for p in parts)}")
    rest = len(filters) - len(said)
    more = f"; and {_plural(rest, 'more filter')}" if rest > 0 else ""
    return f"- A search filter on {'; on '.join(said)}{more}."


def _ids(names: Sequence[str], total: int) -> str:
    shown = [inert(name, 60) for name in names[:3]]
    return ", ".join(shown) + (", …" if total > len(shown) else "")


def _term(term_id: str | None) -> str:
    """A term id as code, when it is one (it comes from the report: data)."""
    text = term_id or ""
    return f"`{text}`" if _TERM.fullmatch(text) else inert(text, 80)


def _omitted(review: Review) -> str:
    """The findings the report left out (`FileReview.findings_omitted`), marked as errors
    would be where they may be some: a file keeps its errors first, so only one that kept
    nothing but errors may have left some out."""
    cut = [f for f in review.files if f.findings_omitted]
    if not cut:
        return ""
    sign = "❌" if any(f.findings == f.errors() for f in cut) else "⚠️"
    left_out = _plural(sum(f.findings_omitted for f in cut), "more finding")
    return f"{sign} {left_out} not in this report"


def _tooling_warning(tooling: ChangedTooling | None, links: Links) -> list[str]:
    """Above the status line, which the change may have written: the pull request changes
    the code that made the report (or GitHub did not list all its files)."""
    if tooling is None or not tooling.warns():
        return []
    made = "was made" if tooling.count and not tooling.unconfirmed else "may have been made"
    return [
        "> [!WARNING]",
        f"> {_tooling_changed(tooling, links)} The report below {made} by the pull request's own "
        "code, so its verdicts are only as trustworthy as that change: review the change to "
        f"the tooling itself, or re-run the review: {_rerun(tooling)}.",
        "",
    ]


def _tooling_changed(tooling: ChangedTooling, links: Links) -> str:
    """The paths, named as the comment names files; the files GitHub did not list; and
    whether those it listed may be another commit's."""
    if tooling.refused:
        return (
            "**GitHub did not list the files of this pull request:** whether it changes the "
            "review's own code was not checked."
        )
    unchecked = ""
    if tooling.unlisted:
        total = tooling.listed + tooling.unlisted
        unchecked = (
            f" GitHub lists only the first {tooling.listed:,} of the {total:,} files it "
            "changes: those past them were not checked."
        )
    if tooling.unconfirmed:
        unchecked += (
            " GitHub listed its files, then refused to read the pull request again: whether "
            "they are those of the commit this report is for, not of a push since, was not "
            "checked."
        )
    if not tooling.count:
        return f"**This pull request may change the review's own code.**{unchecked}"
    names = ", ".join(_changed_file(path, tooling.number, links) for path in tooling.paths)
    rest = tooling.count - len(tooling.paths)
    more = f" and {rest:,} more" if rest > 0 else ""
    return f"**This pull request changes the review's own code:** {names}{more}.{unchecked}"


def _changed_file(path: str, number: int, links: Links) -> str:
    """A path of the pull request, linked to it in its "Files changed" view."""
    name = inert_name(path, 120)
    url = links.changed_file(number, path)
    return link(name, url) if url else name


def _rerun(tooling: ChangedTooling) -> str:
    """Built from the pull request's number and commits only, as GitHub names them."""
    base, head = (
        sha[:12] if _SHA.fullmatch(sha) else "SHA" for sha in (tooling.base, tooling.head)
    )
    return (
        f"`git fetch origin pull/{tooling.number}/head`, then `curator review --base {base} "
        f"--head {head}` with the default branch's curator (`pip install .` in a checkout of it)"
    )


def _mark(count: int, noun: str, sign: str, nouns: str | None = None) -> str:
    """❌ only for what blocks the merge or needs a decision (errors, possible duplicates):
    a warning is allowed with a reason, and a suggestion is advice."""
    return f"{sign if count else '✅'} {_plural(count, noun, nouns)}"


def _plural(count: int, noun: str, nouns: str | None = None) -> str:
    return f"{count:,} {noun if count == 1 else nouns or noun + 's'}"


def _has_news(file: FileReview) -> bool:
    """Whether the file has a section. Not for its `matches_at_base` alone: the likeness
    its text had at the base already is no decision of the change (a typo fixed in an
    incident with near-duplicates), said in a section only beside what is, or when the
    change writes the status (a report of an older version, which gave those of a draft it
    published there: publishing puts the pair in a release, and they are `matches` now)."""
    return bool(
        file.findings
        or file.matches
        or (file.matches_at_base and file.status_was is not None)
        or file.missing()
        or file.unsupported()
        or file.duplicate_of is not None
        or file.facets_changed
        or file.title_was is not None  # (a new title is what the reviewer decides on)
    )


def _quiet(files: list[FileReview], gave_findings: bool, others: bool) -> list[str]:
    """The changed files with nothing of their own to report, the first few named, so that
    a reviewer sees which they are: a taxonomy change that breaks incidents is one, a draft
    deleted another. `gave_findings`: the change gives findings to files it leaves alone
    (shown above), which may be these files' doing, so that nothing is not said of them.
    `others`: files have sections above, which these are other than (a sentence reworded,
    alone, was "1 other changed file" with no file before it). (Never trimmed: a few short
    names, the rest counted.)"""
    if not files:
        return []
    named = ", ".join(f"{inert_name(f.path, 120)} ({_change(f)})" for f in files[:VISIBLE])
    more = f", and {len(files) - VISIBLE:,} more" if len(files) > VISIBLE else ""
    said = (
        f"no findings in {'it' if len(files) == 1 else 'them'} (the findings this change "
        "gives files it leaves alone are above)"
        if gave_findings
        else "nothing to report"
    )
    noun = "other changed file" if others else "changed file"
    return [f"{_plural(len(files), noun)}, {said}: {named}{more}.\n"]


class _Section:
    """One changed file: in full; shortened to the first entries of each list; and as one
    line (the last two for when the comment must shrink)."""

    def __init__(
        self, file: FileReview, links: Links, review: Review, shown: Mapping[str, str]
    ) -> None:
        self.path = file.path
        self.rank = file.rank()
        self.shown = shown
        self.full = _file_section(file, links, review, shown)
        self.compact = f"- {_file_title(file, links, review)}: {_tally(file, shown)}\n"
        self._parts = (file, links, review)

    def text(self, whole: AbstractSet[str], at_most: int | None = None) -> str:
        """In full, or shortened (`at_most`), when the sections of `whole` are printed with
        their tables: a pair whose earlier section is a line gives its reasons here."""
        shown = {name: path for name, path in self.shown.items() if path in whole}
        if shown == self.shown and at_most is None:
            return self.full
        return _file_section(*self._parts, shown, at_most)


def _shown_before(files: list[FileReview]) -> dict[str, dict[str, str]]:
    """By file, its possible duplicates whose pair an earlier section shows (two incidents
    of the change that match each other), with the path of that section's file: the pair's
    reasons are given once, there, as the status line counts it once."""
    first: dict[frozenset[str], str] = {}
    shown: dict[str, dict[str, str]] = {}
    for file in files:
        for match in file.duplicates():
            earlier = first.setdefault(frozenset((file.own(), match.id)), file.path)
            if earlier != file.path:
                shown.setdefault(file.path, {})[match.id] = earlier
    return shown


def _file_title(file: FileReview, links: Links, review: Review) -> str:
    sha = review.base if file.change == "removed" else review.head
    url = links.blob(sha, file.path)
    name = inert_name(file.path)
    return link(name, url) if url else f"**{name}**"


def _tally(file: FileReview, shown: Mapping[str, str]) -> str:
    """What a file holds, in one line; only the nonzero counts, so that more lines fit, and
    the rule codes of its errors, which say what is wrong where the line is all a trimmed
    comment shows of the file. A pair of two incidents of the change is counted with the
    file shown first (`shown`: the others), once, as the status line counts it."""
    errors = file.errors()
    counts = [
        (len(errors), "error"),
        (len(file.warnings()), "warning"),
        (len(file.duplicates()) - len(shown), "possible duplicate"),
        (file.suggestions_shown(), "facet suggestion"),
        (file.unsupported_shown(), "unsupported facet"),
        (int(file.doubtful_claim()), "duplicate_of to check"),
        (len(file.facets_changed), "facet change"),
    ]
    said = [_plural(n, noun) for n, noun in counts if n]
    if errors:
        said[0] += f" ({_codes(errors)})"
    if shown:  # after the possible duplicates
        paths = ", ".join(inert_name(path) for path in dict.fromkeys(shown.values()))
        at = sum(n > 0 for n, _ in counts[:3])
        said.insert(at, f"its pair{'s' if len(shown) > 1 else ''} with {paths} counted above")
    return ", ".join(said) or "see the full report"


def _codes(findings: list[ReportFinding]) -> str:
    """Their rule codes, each once, in the order they first come; past three, a count."""
    codes = list(dict.fromkeys(f.code for f in findings))
    shown = ", ".join(codes[:_CODES_SHOWN])
    return shown if len(codes) <= _CODES_SHOWN else f"{shown} and {len(codes) - _CODES_SHOWN} more"


# What a change of status makes of an incident, said in place of "changed".
_STATUS_CHANGE = {"withdrawn": "withdrawn", "published": "published", "draft": "made a draft"}


def _change(file: FileReview) -> str:
    """What the change does to the file, as its heading says it: a withdrawal or a draft
    published by name (`status_was`), where "changed" left it to an error to hint at."""
    change: str = file.change
    if change == "unchanged" and file.errors():
        change = "not changed here, but broken by this change"
    elif change == "unchanged":
        change = "not changed here, but given a warning by this change"
    status = _STATUS_CHANGE.get(file.status or "") if file.status_was else None
    if status and change == "changed":
        change = status
    if file.old_path:  # (one added from where the library did not read it: moved into it)
        moved = " from" if file.change == "renamed" else ", moved from"
        change += f"{moved} {inert_name(file.old_path)}"
    if file.content_unchanged:
        change += ", content unchanged"
    if status and file.change == "renamed":
        change = f"{status}, {change}"
    return change


def _file_section(
    file: FileReview,
    links: Links,
    review: Review,
    shown: Mapping[str, str],
    at_most: int | None = None,
) -> str:
    """The file's section; with `at_most`, each list cut to its first entries, the rest
    counted (for a file whose whole section does not fit the comment)."""
    lines = [f"#### 📄 {_file_title(file, links, review)} ({_change(file)})"]
    if file.id or file.title:
        title = inert(file.title, 300) if file.title else None
        if title and file.title_was:  # (the change writes the title: what it was, too)
            title = f"title “{inert(file.title_was, 300)}” → “{title}”"
        named = " · ".join(t for t in (inert(file.id, 300) if file.id else None, title) if t)
        if file.named_at_base:
            named += " _(as at the base: this commit's file gives neither)_"
        lines += ["", named]
    if file.duplicate_of:
        lines += ["", *_claim(file.duplicate_of, links, review)]
    sha = review.base if file.change == "removed" else review.head
    # In the order of `FileReview.rank`: errors, possible duplicates, then warnings, which
    # are often the routine IL206 of every new incident.
    lines += _findings("Errors", file.errors(), links, sha, at_most)
    if any(_stops(f) for f in file.errors()):
        lines += ["", _NOT_CHECKED]
    if file.duplicates():
        lines += [
            "",
            "**Possible duplicates**",
            "",
            *_matches(file.duplicates(), links, review, at_most, shown),
        ]
    lines += _findings("Warnings", file.warnings(), links, sha, at_most)
    if file.findings_omitted:
        lines += [
            "",
            f"… and {_plural(file.findings_omitted, 'more finding')}, not in this "
            f"report: {command('curator lint', file.path)} lists them all.",
        ]
    if file.related():
        table = _matches(file.related(), links, review, at_most)
        lines += ["", *_details(f"{_plural(len(file.related()), 'related incident')}", table)]
    if file.matches_at_base:
        lines += ["", _as_at_base(file.matches_at_base)]
    if file.facets_changed:
        lines += [
            "",
            "**Facets changed**, with the support `curator suggest` finds for each added:",
            "",
        ]
        # An added term nothing supports, and a removed one the text still supports, first,
        # never folded: they are what to check.
        flagged = {(d, t.term) for d, t in file.unsupported()}
        first = [c for c in file.facets_changed if _unsupported_added(c, flagged) or _kept_up(c)]
        lines += [_facet_change(c, True, links, review) for c in first]
        rest = [c for c in file.facets_changed if c not in first]
        changed = [_facet_change(c, False, links, review) for c in rest]
        lines += _listed(changed, "facet changes", at_most)
    # An added term is said once, in "Facets changed", with its neighbours to compare; the
    # others (a new file's) before the suggestions, never folded behind them.
    added = {(c.dimension, c.term) for c in file.facets_changed if c.change == "added"}
    unsaid = [(d, t) for d, t in file.unsupported() if (d, t.term) not in added]
    if unsaid and not file.duplicates():
        lines += ["", "**Facets nothing in the text supports** — please check:", ""]
        unsupported = [_unsupported(d, t, links, review) for d, t in unsaid]
        lines += unsupported if at_most is None else _listed(unsupported, "facets", at_most)
    # A term the change removes and `suggest` finds missing is said at the removal only.
    kept_up = {(c.dimension, c.term) for c in file.facets_changed if _kept_up(c)}
    missing = [(d, t) for d, t in file.missing() if (d, t.term) not in kept_up]
    if file.duplicates() and (file.missing() or file.unsupported()):
        lines += ["", _left_out(file)]
    elif missing:
        lines += ["", "**Suggested facets** — add them if the evidence holds:", ""]
        judged = [_judgement(d, t, links, review) for d, t in missing]
        lines += _listed(judged, "suggestions", at_most)
    if file.facets_to_paste and not file.duplicates():
        lines += ["", "Ready to paste:", "", *_snippet(file)]
    return "\n".join(lines) + "\n"


def _stops(finding: ReportFinding) -> bool:
    """Whether the error stops lint reading the file as an incident: a YAML or schema
    error, or a tab where YAML takes none, which IL601 reports in IL101's place."""
    return finding.code in STOPPING or (
        finding.code == NO_TABS.code and finding.message.startswith(TAB_STOPS)
    )


def _unsupported_added(change: FacetChange, flagged: AbstractSet[tuple[str, str]]) -> bool:
    return change.change == "added" and (change.dimension, change.term) in flagged


def _kept_up(change: FacetChange) -> bool:
    """A term the change removes that `curator suggest` still finds support for."""
    return change.change == "removed" and change.support is not None


def _left_out(file: FileReview) -> str:
    """Said in place of the facets judged of a file that looks like another incident: what
    to do is drop or withdraw it, not tag it, where its suggestions (mostly "possible
    duplicate … carries it") and a block to paste were noise."""
    top = max(file.duplicates(), key=lambda match: match.score)
    return (
        f"_Facet suggestions left out: this incident looks like {inert(top.id, 60)} "
        f"({top.score:.2f}). `curator review --format json` lists them._"
    )


def _findings(
    heading: str, found: list[ReportFinding], links: Links, sha: str, at_most: int | None
) -> list[str]:
    """The findings, those of one rule that say the same (of several fields, or on several
    lines) as one line (`_grouped`); folded, or cut to the first `at_most`, counted by
    finding."""
    if not found:
        return []
    what = heading.lower()
    groups = _grouped(found if at_most is None else found[:at_most])
    items = [_finding(group, links, sha) for group in groups]
    if at_most is None:
        return ["", f"**{heading}**", "", *_folded(items, what, [len(g) for g in groups])]
    rest = len(found) - at_most
    more = [f"- … and {rest:,} more {what}, in the full report"] if rest > 0 else []
    return ["", f"**{heading}**", "", *items, *more]


def _subject(message: str) -> tuple[str, str]:
    """The field a message begins with, and the rest ("" and all of it if none)."""
    found = _SUBJECT.match(message)
    if found is None or found[2] not in _FIELDS:
        return "", message
    return found[0], message[found.end() :]


def _grouped(found: list[ReportFinding]) -> list[list[ReportFinding]]:
    """The findings of one rule whose messages are the same once their subject is set
    aside, together, where the first of them is."""
    groups: dict[tuple[str, bool, str], list[ReportFinding]] = {}
    for finding in found:
        groups.setdefault((finding.code, finding.fixable, _subject(finding.message)[1]), []).append(
            finding
        )
    return list(groups.values())


def _finding(group: list[ReportFinding], links: Links, sha: str) -> str:
    """A finding, or a group of them: each line linked, each subject named once."""
    first = group[0]
    lines = list(dict.fromkeys(f.line for f in group))
    where = ", ".join(_line(first.path, line, links, sha, len(lines) == 1) for line in lines)
    subjects = list(dict.fromkeys(_subject(f.message)[0] for f in group))
    message, limit = first.message, 500
    if len(subjects) > 1:
        rest = _subject(first.message)[1]
        said = ", ".join(subjects)
        message = f"each of {said}{rest}" if rest.startswith(" ") else f"{said}{rest}"
        limit += len(message) - len(rest)
    if len(lines) > 1:
        where = "lines " + where
    fix = " (fixable with `curator fix`)" if first.fixable else ""
    return f"- {where} · **{first.code}** · {inert_message(message, limit)}{fix}"


def _line(path: str, line: int, links: Links, sha: str, alone: bool) -> str:
    url = links.blob(sha, path, line)
    said = f"line {line}" if alone else str(line)
    return link(said, url) if url else said


def _as_at_base(matches: Sequence[Match]) -> str:
    """The one line for the matches an edit leaves as the base had them (not repeated), the
    first VISIBLE named (a report made by hand may hold thousands), the rest counted."""
    said = [
        f"{inert(m.id, _LONGEST_ID)} "
        f"({'possible duplicate' if m.kind == 'duplicate' else 'related'}, {m.score:.2f})"
        for m in matches[:VISIBLE]
    ]
    if len(matches) > VISIBLE:
        said.append(f"{len(matches) - VISIBLE:,} more in the full report")
    return f"_Similar at the base already, not repeated: {', '.join(said)}._"


def _matches(
    matches: Sequence[Match],
    links: Links,
    review: Review,
    at_most: int | None = None,
    shown_under: Mapping[str, str] | None = None,
) -> list[str]:
    """The table of `matches`; a pair an earlier section shows (`shown_under`: by id, the
    path of that section's file) is named there, not given its reasons again."""
    shown = min(50, at_most or 50)
    rows = ["| incident | title | score | reasons |", "| --- | --- | --- | --- |"]
    for match in matches[:shown]:
        name = inert(match.id, 60)
        url = _match_url(match, links, review)
        where = f" ({ON_BASE})" if match.on_base else ""
        title = inert(match.title or "", 200)
        earlier = (shown_under or {}).get(match.id)
        reasons = (
            f"the pair is shown with its reasons under {inert_name(earlier)}, above"
            if earlier
            else "; ".join(_reasons(match))
        )
        rows.append(
            f"| {link(name, url) if url else name}{where} | {title} | {match.score:.2f} "
            f"| {reasons} |"
        )
    if len(matches) > shown:
        rows.append(f"| … | {len(matches) - shown} more in the full report | | |")
    return rows


def _reasons(match: Match, count: int = 8) -> list[str]:
    """The first reasons, and a count of the rest: all `similar` gave, not only those the
    report holds, whose last counts the others (`Match.reasons_given`)."""
    shown = [inert(reason, 200) for reason in match.reasons[:count]]
    rest = match.reasons_given() - len(shown)
    if rest <= 0:
        return shown
    return [*shown, f"… and {rest:,} more: `curator similar` lists them all"]


def _match_url(match: Match, links: Links, review: Review) -> str | None:
    """The incident where it is: at the head, or, merged to the base branch meanwhile, at
    the base's tip (the head does not have it; no link when the report does not say where)."""
    sha = review.base_tip if match.on_base else review.head
    if sha is None or not INCIDENT_ID.fullmatch(match.id):
        return None
    return links.blob(sha, review.incident_path(match.id))


def _claim(claimed: Match, links: Links, review: Review) -> list[str]:
    """The pair a withdrawal names (`duplicate_of`), scored as a possible duplicate is, so
    that a reviewer can tell a real repeat from a wrong id."""
    name = inert(claimed.id, 60)
    if claimed.kind == "duplicate":
        verdict = f"**Withdrawn as a duplicate of {name}**: the two look like one event."
    else:
        # (Here, not at the top: the similarity, numpy with it, only for a claim to check.)
        from curator.similarity.similar import DUPLICATE_THRESHOLD

        verdict = (
            f"❌ **Withdrawn as a duplicate of {name}, but the two do not look like the same "
            f"event** (score {claimed.score:.2f}, below the duplicate threshold, "
            f"{DUPLICATE_THRESHOLD:.2f}): check the "
            "id in `duplicate_of`, or say in the pull request why they are one event."
        )
    return [verdict, "", *_matches([claimed], links, review)]


def _judgement(dimension: str, judged: TermJudgement, links: Links, review: Review) -> str:
    return f"- **{dimension}** · {_term(judged.term)} · {_support(judged, links, review)}"


def _support(judged: TermJudgement, links: Links, review: Review) -> str:
    """A term's score and evidence, as `curator suggest` gives them."""
    shown = _at_most([_evidence(e, links, review) for e in judged.evidence], 6, "suggest")
    return " · ".join([f"score {judged.score:.2f}", *(["; ".join(shown)] if shown else [])])


def _unsupported(dimension: str, judged: TermJudgement, links: Links, review: Review) -> str:
    return f"- **{dimension}** · {_term(judged.term)} · {_no_support(judged, links, review)}"


def _no_support(judged: TermJudgement, links: Links, review: Review) -> str:
    """A facet the text does not support. The incidents its evidence names carry it, but are
    too few or too unlike this one to support it: named as the most similar that carry it,
    to compare with, where "IL-0252 carries it" read as support for a facet said to have none."""
    said = [e for e in judged.evidence if e.incident is None]
    text = _support(judged.model_copy(update={"evidence": said}), links, review)
    near = [_neighbour(e, links, review) for e in judged.evidence if e.incident is not None]
    if not near:
        return text
    which = "incident that carries" if len(near) == 1 else "incidents that carry"
    return f"{text} · the most similar {which} it, to compare: {', '.join(near)}"


def _facet_change(change: FacetChange, unsupported: bool, links: Links, review: Review) -> str:
    """A term the change adds (`+`) or removes (`−`), by dimension; an added one with its
    support (`unsupported`: the file's judgement lists it among the facets nothing
    supports, where its evidence is only to compare with), a removed one with the support
    `suggest` still finds for it, if any."""
    added = change.change == "added"
    term = change.term if _TERM.fullmatch(change.term) else None
    said = (
        f"`{'+' if added else '−'} {change.dimension}: {term}`"
        if term
        else (f"`{'+' if added else '−'} {change.dimension}:` {inert(change.term, 80)}")
    )
    if change.support is None:
        return f"- {said}"
    if not added:
        kept = _support(change.support, links, review)
        return f"- {said} · still supported, keep it if the evidence holds · {kept}"
    if not change.support.evidence:
        return f"- {said} · score {change.support.score:.2f} · {_NOTHING}"
    judged = (_no_support if unsupported else _support)(change.support, links, review)
    return f"- {said} · {judged}"


def _at_most(items: list[str], count: int, lister: str) -> list[str]:
    """The first `count` items, and a count of the rest, which `curator LISTER` lists (the
    job summary is cut alike: it is not where they are)."""
    if len(items) <= count:
        return items
    return [*items[:count], f"… and {len(items) - count:,} more: `curator {lister}` lists them all"]


def _evidence(evidence: Evidence, links: Links, review: Review) -> str:
    parts = []
    if evidence.phrase is not None:
        where = f" in {inert(evidence.field, 40)}" if evidence.field else ""
        # Which words of the phrase the taxonomy knows, as `curator suggest` says it.
        alias = evidence.alias if evidence.alias != evidence.phrase else None
        matched = f" (matches “{inert(alias, 80)}”)" if alias else ""
        parts.append(f"“{inert(evidence.phrase, 120)}”{where}{matched}")
    if evidence.incident is not None:
        parts.append(_neighbour(evidence, links, review, " carries it"))
    return ", ".join(parts)


def _neighbour(evidence: Evidence, links: Links, review: Review, said: str = "") -> str:
    """An incident given as evidence, linked where it is (as a match is: `_match_url`), what
    is `said` of it, and its similarity."""
    which = "possible duplicate " if evidence.kind == "duplicate" else ""
    similarity = f" ({evidence.similarity:.2f})" if evidence.similarity is not None else ""
    name = inert(evidence.incident or "", 60)
    sha = review.base_tip if evidence.on_base else review.head
    url = None
    if sha is not None and evidence.incident and INCIDENT_ID.fullmatch(evidence.incident):
        url = links.blob(sha, review.incident_path(evidence.incident))
    return f"{which}{link(name, url) if url else name}{said}{similarity}"


def _snippet(file: FileReview) -> list[str]:
    """The `facets:` block to paste, as the review made it (`facets_to_paste`), with the
    suggested terms marked: only valid term ids, so nothing from data can close the code
    fence."""
    suggested = {(d, t.term) for d, t in file.missing()}
    lines = ["```yaml", "facets:"]
    for dimension in DIMENSIONS:
        terms = [t for t in file.facets_to_paste.get(dimension, []) if _TERM.fullmatch(t)]
        why = (
            f"  # as it is: {dimension}.yaml could not be read"
            if dimension in file.facets_unread
            else ""
        )
        if not terms:
            lines.append(f"  {dimension}: []{why}")
            continue
        lines.append(f"  {dimension}:{why}")
        had = file.facets.get(dimension, [])
        for term in terms:
            new = (dimension, term) in suggested and term not in had
            lines.append(f"    - {term}{'  # suggested' if new else ''}")
    return [*lines, "```"]


def _listed(items: list[str], what: str, at_most: int | None) -> list[str]:
    """All the items (folded past the first few), or the first `at_most` and a count."""
    if at_most is None:
        return _folded(items, what)
    if len(items) <= at_most:
        return items
    return [*items[:at_most], f"- … and {len(items) - at_most:,} more {what}, in the full report"]


def _folded(items: list[str], what: str, counts: Sequence[int] | None = None) -> list[str]:
    """Past the first few, the items folded; `counts`: how many each item stands for."""
    if len(items) <= VISIBLE + 1:
        return items
    rest = sum(counts[VISIBLE:]) if counts else len(items) - VISIBLE
    return [*items[:VISIBLE], "", *_details(f"{rest:,} more {what}", items[VISIBLE:])]


def _details(summary: str, body: list[str]) -> list[str]:
    # Blank lines around the body, or GitHub does not render the Markdown inside.
    return ["<details>", f"<summary>{summary}</summary>", "", *body, "", "</details>"]


def _footer(review: Review) -> str:
    # The base as given, not the merge base: the review also judges against what the base
    # branch gained since, and from the merge base it would not.
    base, head = (review.base_tip or review.base)[:12], review.head[:12]
    lines = [
        "---",
        "",
        f"**Reproduce locally:** `curator review --base {base} --head {head}` in a "
        "checkout that has both commits (`pip install -e .` first; a fork's head comes with "
        "`git fetch origin pull/NUMBER/head`, NUMBER being this pull request's).",
        "",
    ]
    if any(_to_settle(file) for file in review.files):
        lines += _not_duplicate(review)
    return "\n".join([*lines, f"<sub>curator {__version__}</sub>", ""])


def _to_settle(file: FileReview) -> list[Match]:
    """The file's possible duplicates that `not_duplicate_of` settles: not one carrying the
    file's own id (a copy kept under another name), which that list may not name (IL401):
    what to mend there is the id two files hold, which lint reports (IL204)."""
    return [match for match in file.duplicates() if match.id != file.id]


def _not_duplicate(review: Review) -> list[str]:
    """How to settle a false duplicate: the block to paste, naming the ids flagged (ids
    only, checked against their pattern: the block is code). When several files have
    some, a block for each, under its name, in the order of their sections, so that the
    first blocks are those of the files a reviewer reads first; a pair of two files of the
    change is settled in either, so it is in the block of the one shown first only."""
    ids_of: dict[str, list[Match]] = {}
    for file, match in review.duplicate_pairs(sorted(review.files, key=FileReview.rank)):
        if match.id != file.id and len(match.id) <= _LONGEST_ID and INCIDENT_ID.fullmatch(match.id):
            ids_of.setdefault(file.path, []).append(match)
    one_file = sum(bool(_to_settle(file)) for file in review.files) == 1
    where = "this incident" if one_file else "one of the two"
    lines = [
        "**A false duplicate?** If the incidents describe different events, list the "
        f"other id under `not_duplicate_of` in {where} and push; the pair is not "
        "flagged again:",
        "",
    ]
    if not ids_of:
        return [*lines, *_not_duplicate_block(["  - IL-0000  # the incident it was taken for"])]
    shown = list(ids_of.items())[:VISIBLE]
    for path, matches in shown:
        if not one_file:
            lines += [f"In {inert_name(path)}:", ""]
        items = [f"  - {m.id}  # if it is a different event" for m in matches[:VISIBLE]]
        if len(matches) > VISIBLE:  # (only a report made by hand has more: see `_LONGEST_ID`)
            items.append(f"  # … and {len(matches) - VISIBLE:,} more, in the full report")
        lines += _not_duplicate_block(items)
        lines += _same_report([m.id for m in matches[:VISIBLE] if m.same_report])
        lines += _not_yet_here([m.id for m in matches[:VISIBLE] if m.on_base])
    if len(ids_of) > len(shown):
        others = _plural(len(ids_of) - len(shown), "other file")
        lines += [f"… and so for {others}, with the ids of their possible duplicates.", ""]
    return lines


def _same_report(ids: list[str]) -> list[str]:
    """Said under a block naming incidents that cite a report this one cites: the block
    stops `similar` flagging the pair, not lint's IL502 error, which no incident may get
    past but by citing another report or by being withdrawn as a duplicate."""
    if not ids:
        return []
    which = "cites" if len(ids) == 1 else "cite"
    return [
        f"{inert(', '.join(ids), 500)} {which} a report this incident cites too, which the "
        "block does not settle: a report belongs to one incident (IL502), so if the events "
        "differ, one of the two must cite another report.",
        "",
    ]


def _not_yet_here(ids: list[str]) -> list[str]:
    """Said under a block naming incidents that only the base branch has: lint checks the
    head, where no incident has those ids yet, so the block pasted as it is would fail the
    review (IL401) until the branch takes in the base."""
    if not ids:
        return []
    return [
        f"This branch does not have {inert(', '.join(ids), 500)} yet ({ON_BASE}): merge "
        "the base branch into this one, or rebase onto it, before you add the block, or "
        "lint reports IL401 (no incident has that id).",
        "",
    ]


def _not_duplicate_block(items: list[str]) -> list[str]:
    return ["```yaml", "not_duplicate_of:", *items, "```", ""]


def _trimmed(
    head: str, sections: list[_Section], tail: list[str], foot: str, budget: Budget
) -> str:
    note = (
        f"> ✂️ This report was trimmed to fit GitHub's limit of {budget.limit:,} "
        f"{'characters' if budget.measure is utf16_length else 'bytes'}. "
        f"The full report is in {budget.full_report}.\n"
    )
    fixed = "\n".join([head, note, *tail, foot])
    room = budget.limit - budget.measure(fixed) - 200  # 200: the "N more files" line
    parts = _fit(sections, room, budget.measure)
    omitted = len(sections) - len(parts)
    if omitted:
        parts.append(f"… and {_plural(omitted, 'more file')} with findings, in the full report.\n")
    lines = {s.compact for s in sections}
    return "\n".join([head, note, *_tight(parts, lines), *tail, foot])


def _tight(parts: list[str], lines: AbstractSet[str]) -> list[str]:
    """The parts, each run of one-line file entries (`lines`) made one: joined by a blank
    line, as sections are, they would be a loose list, a paragraph each."""
    tight: list[str] = []
    for one_line, run in groupby(parts, key=lambda part: part in lines):
        joined = list(run)
        tight += ["".join(joined)] if one_line else joined
    return tight


def _fit(sections: list[_Section], room: int, measure: Measure) -> list[str]:
    """The sections (most important first) within `room`: first every one as a line, as
    far as they go, so that no file with an error or a possible duplicate is left out for
    one with advice; then in the same order each made whole while it fits, or else
    shortened to the first entries of its lists (a file with thousands of findings still
    shows its first errors). Once a section cannot be whole, none of a lower rank is:
    advice never takes an error's place."""
    parts: list[str] = []
    for section in sections:
        cost = measure(section.compact) + 1  # + 1: the line break that joins it
        if cost > room:
            break
        parts.append(section.compact)
        room -= cost
    cut_at_rank: int | None = None
    whole: set[str] = set()  # the paths of the sections printed with their tables
    for i, section in enumerate(sections[: len(parts)]):
        if cut_at_rank is not None and section.rank > cut_at_rank:
            break
        full = section.text(whole)
        extra = measure(full) - measure(section.compact)
        if extra <= room:
            parts[i] = full
            whole.add(section.path)
            room -= extra
            continue
        if cut_at_rank is None:
            cut_at_rank = section.rank
        short = section.text(whole, VISIBLE)
        extra = measure(short) - measure(section.compact)
        if extra <= room:
            parts[i] = short
            whole.add(section.path)
            room -= extra
    return parts
