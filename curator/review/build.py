"""Build the review of a change: git diff → lint at the head → removal check → judgements.

The head is read from the checkout itself when it is that commit and nothing under the
library differs from it, byte for byte (the CI case: no copy), and otherwise from the
commit, written to a temporary folder from git's objects (`git.materialise`): `curator
review` never checks anything out, and what it lints is exactly the commit it names,
whatever the working tree holds. Only the checkout keeps lint's results and the judge's
index in its `.curator-cache/` (a second review of it reads them, as `curator lint` does);
in a copy, the cache would be written to be deleted with it, so it is neither read nor
written there.

The judgements are against the library the change will be merged into: the head's, plus the
incidents the base branch gained since the change branched off (those files alone written to
a temporary folder, and indexed with the head's where it is read).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from curator.blob_ids import BlobIds
from curator.findings import Finding, Severity
from curator.library import (
    INCIDENTS,
    SCHEMA,
    Library,
    is_library,
    read_in,
)
from curator.lint import lint
from curator.load import MAX_BYTES, Document, load_bytes
from curator.memory import release_freed_memory
from curator.model import DIMENSIONS, Dimension, canonical_id
from curator.regular import read_regular
from curator.review import ReviewError, git
from curator.review.at_base import ACROSS_FILES, cross_file_findings_at_base
from curator.review.git import FileChange
from curator.review.misplaced import (
    entry_holding,
    hidden_in_incidents,
    in_a_subfolder,
    misplaced_incidents,
)
from curator.review.model import (
    MAX_FINDINGS,
    FacetChange,
    FacetJudgement,
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
from curator.review.packed import PackedBytes
from curator.review.taxonomy_change import Carrier, filter_changes, term_changes
from curator.rules import (
    STOPPING,
    facet_order,
    incident_removed,
    not_an_incident_file,
    unknown_term,
)
from curator.rules.taxonomy_invalid import RULE as TAXONOMY_INVALID
from curator.similarity.index import NONE_ADDED, Added, library_names
from curator.similarity.records import read_alike
from curator.similarity.store import load_index
from curator.taxonomy import Taxonomy, load_taxonomy
from curator.workers import Workers, process_context, worker_count
from curator.write.atomic import temporary_folder

IL303 = TAXONOMY_INVALID.code
UNKNOWN_TERM = unknown_term.RULE.code

if TYPE_CHECKING:  # (the judge imports the similarity index, which a review may not need)
    from curator.review.judge import Judged
    from curator.similarity.commands import Unread


class Judge(Protocol):
    """What `similar` and `suggest` say about one incident file of the head, judged against
    the head's library and what the base branch added since (`Match.on_base`)."""

    def matches(self, path: Path) -> list[Match]: ...

    def suggestions(self, path: Path) -> Judged: ...

    def at_base(self, path: Path, before: bytes) -> dict[str, str]:
        """The kind of each match of the file as the base has it (`before`), by id."""

    def compare(self, path: Path, other_id: str) -> Match | None:
        """The incident file scored against the incident `other_id` alone."""

    def unread_on_base(self) -> list[Unread]:
        """The files the base branch added that could not be read as incidents, as lint
        reports each, under its path in the library: none was judged against."""


@dataclass(frozen=True)
class Revisions:
    repo: Path  # the checkout's top folder
    prefix: str  # the library's folder in the repository, "" at its top
    base: str  # the merge base of the two revisions: what the change is compared with
    head: str
    tip: str  # the base as given: the base branch's tip, which may be ahead of `base`


def resolve(root: Path, base: str, head: str) -> Revisions:
    repo = git.toplevel(root)
    prefix = root.resolve().relative_to(repo).as_posix()
    prefix = "" if prefix == "." else prefix
    base_sha, head_sha = git.commit_of(repo, base), git.commit_of(repo, head)
    merge_base = git.merge_base(repo, base_sha, head_sha)
    return Revisions(repo, prefix, merge_base, head_sha, base_sha)


@dataclass(frozen=True)
class IncidentFiles:
    """The files the library reads as incidents (`library_items`), by their names in its
    folder of incidents: a set of their paths made a `Path` of each of 100,000 files (0.5 s
    of a warm review), for the few the change touches to be looked up in it."""

    folder: Path  # the library's incidents/
    names: frozenset[str]

    def __contains__(self, path: Path) -> bool:
        return path.name in self.names and path.parent == self.folder


def _in_library(prefix: str, *names: str) -> str:
    return "/".join(p for p in (prefix, *names) if p)


def _folders(revisions: Revisions) -> list[str]:
    return [_in_library(revisions.prefix, name) for name in (INCIDENTS, SCHEMA)]


@contextmanager
def tree_at(revisions: Revisions, commit: str) -> Iterator[Path]:
    """A folder laid out like the repository, holding the library as it is at `commit`."""
    repo, folders = revisions.repo, _folders(revisions)
    if (
        git.head_commit(repo) == commit
        and git.is_clean(repo, *folders)
        and _holds(revisions, commit)
    ):
        yield repo
        return
    with _copy_at(revisions, commit) as tree:
        yield tree


def _holds(revisions: Revisions, commit: str) -> bool:
    """Whether the checkout has the very bytes of each file `commit` has (`holds_commit`):
    a file whose stat is the one an earlier review recorded with its id is not read again
    (`curator.blob_ids`), where every review read and hashed every file of the library."""
    ids = BlobIds.open(_library_in(revisions.repo, revisions))
    held = git.holds_commit(revisions.repo, commit, *_folders(revisions), blob_id=ids.of)
    ids.save(prune=held)  # (one not held: the files after it were not asked about)
    return held


@contextmanager
def _copy_at(revisions: Revisions, commit: str) -> Iterator[Path]:
    with temporary_folder(prefix="curator-review-") as temporary:
        tree = temporary.resolve()
        # (A base without schema/, the change that makes the folder a library, is no
        # library to compare with, which `_at_base_too` allows for.)
        git.materialise(revisions.repo, commit, tree, *_folders(revisions))
        yield tree


def _library_in(tree: Path, revisions: Revisions) -> Path:
    return tree / revisions.prefix if revisions.prefix else tree


def build_review(root: Path, base: str, head: str, judge_for: JudgeFactory | None = None) -> Review:
    """The review of what changed in the library at `root` from `base` to `head`."""
    revisions = resolve(root, base, head)
    incidents = _in_library(revisions.prefix, INCIDENTS)
    changes = [
        _entering(c, incidents)
        for c in git.changed_files(
            revisions.repo,
            revisions.base,
            revisions.head,
            incidents + "/",
            _in_library(revisions.prefix, SCHEMA, "taxonomy") + "/",
        )
    ]
    touched = {c.path for c in changes}
    # The entries of incidents/ holding a file the change puts in a subfolder: lint's
    # finding there is that file's (`_with_unread`), not one the change causes elsewhere.
    touched |= {
        entry_holding(c.path, incidents)
        for c in changes
        if c.change != "removed" and in_a_subfolder(c.path, incidents)
    }
    taxonomy = _in_library(revisions.prefix, SCHEMA, "taxonomy") + "/"
    deprecates = any(c.path.startswith(taxonomy) for c in changes)
    with tree_at(revisions, revisions.head) as tree:
        library = _head_library(_library_in(tree, revisions), revisions)
        # The checkout's cache outlives the run (a second review reads it); a copy's would
        # be written only to be deleted with it.
        cache = tree == revisions.repo
        held: list[object] = []  # each file's result, for the base's cross-file findings
        findings = lint(library, cwd=tree, cache=cache, held=held)
        elsewhere = [f for f in findings if f.path not in touched and _may_cause(f, deprecates)]
        olds, regular = _at_base(revisions, changes)
        linted = _Head(library, held, tree, changes, olds, regular)
        caused, before = _at_base_too(elsewhere, revisions, linted, deprecates)
        del linted  # (its `olds`, let go below)
        held.clear()  # (100,000 results, before the judge's index is built)
        # The files the library reads (the regular `IL-0002.yaml`), not every entry lint
        # reports (an `IL-0002.yml`, a subfolder `IL-0002/`, a link or a folder named
        # `IL-0002.yaml`: IL107), whose names carry no id the head holds: moved to one, a
        # published incident's id disappears.
        incident_files = IncidentFiles(library.incidents_dir, frozenset(library_names(library)))
        # Each file's findings picked once, where each file looked through all of them.
        by_path: dict[str, list[Finding]] = {}
        for finding in findings:
            by_path.setdefault(finding.path, []).append(finding)

        def review(at: int, judge: Judge | None) -> tuple[FileReview, Removed | None]:
            change, old = changes[at], olds[at]
            base = load_bytes(old).document if old is not None else None  # (read once)
            return _file_review(
                change, old, base, tree, by_path.get(change.path, []), judge,
                library.taxonomy, incident_files,
            ), _removed_at_base(change, base, incidents)  # fmt: skip

        # Each file reviewed first without the judge, whose index (at 100,000 incidents,
        # ≈36 s and 1.1 GB to build, 600 MB to read from the cache) is made only if a
        # file's review asks it something.
        unjudged = NOT_BUILT if judge_for else None
        tentative = _reviewed(range(len(changes)), partial(_unless_judged, review, unjudged))
        asking = [at for at, pair in enumerate(tentative) if pair is None]
        # The base's bytes kept only where read again: by the judged files' reviews, and
        # for a file the head names neither id nor title of (`_named_at_base`). At 100,000
        # changed files, ≈330 MB that the judge's index (≈1 GB) was built on top of.
        unnamed = (at for at, pair in enumerate(tentative) if pair and _unnamed(pair[0]))
        olds = olds.keeping({*asking, *unnamed})
        with _judge(revisions, library, judge_for if asking else None, cache) as judge:
            judged = dict(zip(asking, _reviewed(asking, partial(review, judge=judge)), strict=True))
            unread_on_base = _unread_on_base(judge, revisions.prefix)
        reviewed = [judged[at] if pair is None else pair for at, pair in enumerate(tentative)]
        files = [file for file, _ in reviewed]
        removed = [at_base for _, at_base in reviewed]
        # The ids the head carries: each incident file's name, and the id written in each
        # one the change touched (a file renamed with its id kept still carries that id;
        # one moved to a subfolder, a dotfile or a `.yml` does not: the library no longer
        # reads it).
        # Each as `canonical_id` spells it: IL-00025 is IL-0025 spelt otherwise (IL204),
        # and the export lists the one renamed to the other as modified, not removed.
        head_ids = {canonical_id(name.removesuffix(".yaml")) for name in incident_files.names} | {
            canonical_id(f.id) for f in files if f.id and tree / f.path in incident_files
        }
        broken = [_broken_by_change(p, tree, caused) for p in sorted({f.path for f in caused})]
        # What the head has where a file of the base was (a link, a folder), for IL901.
        in_place = [_in_place_of(tree / (c.old_path or c.path)) for c in changes]
        terms, filters = _taxonomy_changes(before, library, cache)
        ours = {c.path for c in changes}
        unread = _unread(library.taxonomy, findings, revisions, ours, deprecates, before)
        mended = _mended(before, library.taxonomy, revisions) if before else []
    # Named from the base only now: a base id in `head_ids` would hide the IL901 of a
    # rename that breaks the file.
    files = [
        _named_at_base(_with_removal(_with_unread(f, incidents), c, r, head_ids, there), o)
        for f, c, o, r, there in zip(files, changes, olds, removed, in_place, strict=True)
    ]
    files = _with_lines_in_diff(files, revisions)
    misplaced = misplaced_incidents(revisions.repo, revisions.base, revisions.head, incidents)
    return Review.built(
        [*files, *misplaced, *broken],
        base=revisions.base,
        head=revisions.head,
        base_tip=revisions.tip,
        root=revisions.prefix,
        errors_elsewhere=_errors(elsewhere) - _errors(caused),
        terms_changed=terms,
        taxonomy_unread=unread,
        taxonomy_mended=mended,
        filters_changed=filters,
        base_tip_unread=unread_on_base,
    )


# Changed files from which their reviews are spread over worker processes: at 10,000
# incidents a file's judgement takes ≈10 ms, starting two workers ≈0.1 s.
PARALLEL_FROM = 50
# The review of each changed file by its place among them, while `_reviewed` runs: what
# its workers call, as they were forked with it.
_REVIEWING: list[Callable[[int], Any]] = []
Reviewed = TypeVar("Reviewed")
Removed = tuple[str, int, int]  # an id the base has, and its line and column there


def _reviewed(ats: Sequence[int], review: Callable[[int], Reviewed]) -> list[Reviewed]:
    """`review(at)` for each of `ats`, in order: once there are PARALLEL_FROM of them, in
    worker processes, where the system forks them (in the second pass each worker has the
    judge's index as this process has it, in pages it shares with it: a change to every
    incident spent an hour judging one file after another at 100,000 incidents, but the
    index is hundreds of megabytes there, which a worker started otherwise would be sent)."""
    forks = process_context().get_start_method() == "fork"
    count_of_workers = worker_count(len(ats), PARALLEL_FROM) if forks else 1
    chunk = max(1, min(25, len(ats) // (8 * count_of_workers)))
    if count_of_workers == 1 or len(ats) < 2:
        return [review(at) for at in ats]
    # The first here: the tables the judge makes as it is first asked (by id, by URL, the
    # dates...) are then made once, in pages the workers share, not once in each worker.
    first = review(ats[0])
    # Freed heap handed back before the fork: the index's build (and lint's results) left
    # pages that hold nothing, which the workers would share and write into, each its own
    # copy. A cold review of 1,000 files of 100,000: 1,427 → 1,098 MB in proportional set
    # size as the files are judged (the main process 1,016 → 681 MB resident).
    release_freed_memory()
    _REVIEWING.append(review)
    try:
        with Workers(count_of_workers) as workers:
            return [first, *workers.in_order(_review_of, ats[1:], chunk)]
    finally:
        _REVIEWING.pop()


def _review_of(at: int) -> Any:
    return _REVIEWING[-1](at)


class _Asked(Exception):
    """A file's review asked the judge something before it was built."""


class _NotBuilt:
    """The judge before its index is built: a file whose review asks it nothing (a removal,
    a change to what `similar` and `suggest` do not read) needs no index."""

    def matches(self, path: Path) -> list[Match]:
        raise _Asked

    def suggestions(self, path: Path) -> Judged:
        raise _Asked

    def at_base(self, path: Path, before: bytes) -> dict[str, str]:
        raise _Asked

    def compare(self, path: Path, other_id: str) -> Match | None:
        raise _Asked

    def unread_on_base(self) -> list[Unread]:
        raise _Asked


NOT_BUILT = _NotBuilt()


def _unless_judged(
    review: Callable[[int, Judge | None], Reviewed], judge: Judge | None, at: int
) -> Reviewed | None:
    """The review of the file `at` by `judge`, or None if it asked the judge not yet built."""
    try:
        return review(at, judge)
    except _Asked:
        return None


def _unread_on_base(judge: Judge | None, prefix: str) -> list[UnreadOnBase]:
    """The incident files the base branch added since the change branched off that the
    judge could not read, where lint stops reading each: the reviewer is told that the
    change's incidents were not compared with them, where they were left out unsaid."""
    if judge is None:
        return []
    return [
        UnreadOnBase(
            path=_in_library(prefix, unread.path),
            line=unread.position[0] if unread.position else None,
            column=unread.position[1] if unread.position else None,
            code=unread.code,
            message=unread.reason,
        )
        for unread in judge.unread_on_base()
    ]


def _entering(change: FileChange, incidents: str) -> FileChange:
    """A rename from where the library does not read the file (hidden, a subfolder, an
    `IL-0001.yml`) as the addition it is to the library (`old_path` kept, to say where it
    came from): it enters the library and the release, and is judged as any new incident
    (duplicates, facets), where a move with its content unchanged looked for none."""
    if change.change != "renamed" or change.old_path is None:
        return change
    if read_in(change.old_path, incidents):
        return change
    return FileChange("added", change.path, change.old_path)


def _unread(
    taxonomy: Taxonomy,
    findings: Sequence[Finding],
    revisions: Revisions,
    ours: AbstractSet[str],
    changed: bool,
    before: Taxonomy | None,
) -> list[UnreadTaxonomy]:
    """The taxonomy files the head cannot read, each where its first IL303 error is, and
    whether the base could not read it either: of a change to the taxonomy (`changed`;
    `before`, the base's, None when the base has none), every one; otherwise (the base's
    taxonomy is the head's) those whose terms an incident of the change (`ours`) carries,
    folded into one line as a change that breaks the file has them."""
    unread = []
    for dimension in DIMENSIONS:
        if not taxonomy.unread(dimension):
            continue
        path = _in_library(revisions.prefix, SCHEMA, "taxonomy", f"{dimension}.yaml")
        said = unknown_term.said_unread(path)
        if not changed and not any(
            f.path in ours and f.code == UNKNOWN_TERM and f.message.endswith(said) for f in findings
        ):
            continue
        first = min((f for f in findings if f.path == path and f.code == IL303), default=None)
        line, column = (first.line, first.column) if first else (1, 1)
        at_base = not changed or (before is not None and before.unread(dimension) is not None)
        unread.append(
            UnreadTaxonomy(
                dimension=dimension, path=path, line=line, column=column, at_base=at_base
            )
        )
    return unread


def _mended(before: Taxonomy, after: Taxonomy, revisions: Revisions) -> list[MendedTaxonomy]:
    """The taxonomy files the base could not read and the head reads, each where its first
    IL303 error was at the base (lint reports the base taxonomy's problems where they are)."""
    mended = []
    for dimension in DIMENSIONS:
        if not before.unread(dimension) or after.unread(dimension):
            continue
        name = f"{dimension}.yaml"
        line, column = min(p.position for p in before.problems if p.path.name == name)
        path = _in_library(revisions.prefix, SCHEMA, "taxonomy", name)
        mended.append(MendedTaxonomy(dimension=dimension, path=path, line=line, column=column))
    return mended


def _taxonomy_changes(
    before: Taxonomy | None, library: Library, cache: bool
) -> tuple[list[TermChange], list[FilterChange]]:
    """What the change to the taxonomy does to the head's incidents (read from the
    similarity index, which the judge reads too: one read of the library)."""
    if before is None:
        return [], []
    incidents = [
        Carrier(PurePosixPath(record.path).stem, record.facets, record.status == "withdrawn")
        for record in load_index(library, use_cache=cache).records
    ]
    after = library.taxonomy
    return term_changes(before, after, incidents), filter_changes(before, after, incidents)


def _head_library(root: Path, revisions: Revisions) -> Library:
    """The library at the head, or a ReviewError naming the commit (not the temporary
    folder it was read into) when the head has none."""
    if not is_library(root):
        where = f"{revisions.prefix}/" if revisions.prefix else "the repository's top"
        raise ReviewError(
            f"no library at {revisions.head[:12]}: {where} needs both incidents/ and schema/"
        )
    return Library.at(root)


def _may_cause(finding: Finding, taxonomy_changed: bool) -> bool:
    """Whether a finding in a file the change leaves alone may be the change's: any error,
    and, when the change touches the taxonomy, a warning too (it may deprecate a term that
    other incidents carry: IL302, which `curator fix` mends). Other warnings concern a
    file's own text, which the change did not touch."""
    return finding.severity is Severity.ERROR or taxonomy_changed


def _errors(findings: Sequence[Finding]) -> int:
    return sum(f.severity is Severity.ERROR for f in findings)


@dataclass(frozen=True)
class _Head:
    """The head's library as linted (`held`, displays relative to `tree`), and the change."""

    library: Library
    held: list[object]
    tree: Path
    changes: Sequence[FileChange]
    olds: Sequence[bytes | None]  # each changed file's bytes at the base (None: added)
    regular: frozenset[str]  # those of them the base has as regular files (`_at_base`)


def _at_base_too(
    findings: list[Finding], revisions: Revisions, head: _Head, taxonomy_changed: bool
) -> tuple[list[Finding], Taxonomy | None]:
    """What the base tells about the change: the `findings` (in files the change leaves
    alone) that the base does not have, which this change caused, through the taxonomy or a
    rule that spans files (such a file has the same lines at both commits, so a finding
    there keeps its place); and, when the change touches the taxonomy, the base's, to
    compare the head's with (None when the base is no library: every term is new)."""
    if not taxonomy_changed:
        return _caused_across_files(findings, revisions, head), None
    return _linted_at_base(findings, revisions, taxonomy_changed)


def _caused_across_files(
    findings: list[Finding], revisions: Revisions, head: _Head
) -> list[Finding]:
    """With the taxonomy unchanged, only a cross-file rule's finding can be new in a file
    the change leaves alone, and the base's are worked out from the head's lint
    (`cross_file_findings_at_base`) where that is exact; otherwise the base is linted."""
    findings = [f for f in findings if f.code in ACROSS_FILES]
    if not findings:
        return []
    before = cross_file_findings_at_base(
        head.library, head.held, head.tree, head.changes, head.olds, head.regular
    )
    if before is None:
        return _linted_at_base(findings, revisions, False)[0]
    places = {_place(f) for f in before}
    return [f for f in findings if _place(f) not in places]


def _linted_at_base(
    findings: list[Finding], revisions: Revisions, taxonomy_changed: bool
) -> tuple[list[Finding], Taxonomy | None]:
    """`_at_base_too` by linting the base: in a copy of its own, or in the checkout, with
    its cache, where the checkout is the base. The base is read only when there is
    something to compare."""
    if not findings:
        return [], _taxonomy_at(revisions, revisions.base) if taxonomy_changed else None
    with tree_at(revisions, revisions.base) as tree:
        root = _library_in(tree, revisions)
        if not is_library(root):
            return list(findings), None
        library = Library.at(root)
        before = {_place(f) for f in lint(library, cwd=tree, cache=tree == revisions.repo)}
        taxonomy = library.taxonomy if taxonomy_changed else None
    return [f for f in findings if _place(f) not in before], taxonomy


def _taxonomy_at(revisions: Revisions, commit: str) -> Taxonomy | None:
    """The taxonomy at `commit`, copied alone (no incident is needed to compare terms);
    None when the commit has none."""
    folder = _in_library(revisions.prefix, SCHEMA, "taxonomy")
    if not git.present_at(revisions.repo, commit, folder):
        return None
    with temporary_folder(prefix="curator-review-") as temporary:
        git.materialise(revisions.repo, commit, temporary, folder)
        return load_taxonomy(temporary / folder)


def _place(finding: Finding) -> tuple[str, int, int, str]:
    # Not the message: a "did you mean" in it may change with the taxonomy while the
    # problem stays the one the base had.
    return finding.path, finding.line, finding.column, finding.code


def _broken_by_change(path: str, tree: Path, caused: Sequence[Finding]) -> FileReview:
    data = _data(tree / path)
    return FileReview(
        path=path,
        change="unchanged",
        id=_text(data, "id"),
        title=_text(data, "title"),
        facets=_facets(data),
        **_bounded([ReportFinding.of(f) for f in caused if f.path == path]),
    )


def _bounded(findings: list[ReportFinding]) -> dict[str, Any]:
    """A file's findings as a report holds them: at most MAX_FINDINGS, errors first when
    some must go (the review's verdict rests on them), and how many went. A hostile file
    can hold a finding on each of 500,000 lines."""
    if len(findings) <= MAX_FINDINGS:
        return {"findings": findings}
    kept = sorted(findings, key=lambda f: f.severity != "error")[:MAX_FINDINGS]
    return {"findings": kept, "findings_omitted": len(findings) - MAX_FINDINGS}


class JudgeFactory(Protocol):
    def __call__(self, library: Library, added: Added, cache: bool) -> Judge:
        """`added`: the incident files only the base branch's tip has (`index.Added`);
        `cache`: whether to read and keep what the judge builds of the library's own files
        in its `.curator-cache/`."""


@contextmanager
def _judge(
    revisions: Revisions, head: Library, judge_for: JudgeFactory | None, cache: bool
) -> Iterator[Judge | None]:
    """The judge of the head's incidents, against the library the change will be merged
    into: without it, an incident merged to the base branch after the change branched off is
    found as a duplicate only once both are merged (by lint, IL502), too late to decline the
    repeat. The head's library where it is (using the cache as `cache` says), with the
    incidents the base branch added, written to a temporary folder of their own: a copy of
    the head with them was 100,000 files written, indexed without the head's cache and
    deleted."""
    if judge_for is None:
        yield None
        return
    added = _added_on_base(revisions, head)
    if not added:
        yield judge_for(head, NONE_ADDED, cache)
        return
    with temporary_folder(prefix="curator-review-") as temporary:
        folder = temporary.resolve()
        git.materialise(revisions.repo, revisions.tip, folder, *added)
        yield judge_for(head, {PurePosixPath(p).name: folder / p for p in added}, cache)


def _added_on_base(revisions: Revisions, head: Library) -> list[str]:
    """Incident files (repository-relative) that the base branch's tip has and the head does
    not: added there since the merge base. Renames count as what they are, not as new
    files: an incident the base numbered (IL-NEW-x → IL-0301) is the one the head still has
    under its old name, and judged against it would be taken for a repeat of itself. Files
    the base changed are judged as at the head: that is the text the change was written
    against, and a merge keeps the incident, whichever words it ends with."""
    if revisions.tip == revisions.base:
        return []
    incidents = _in_library(revisions.prefix, INCIDENTS)
    changes = git.changed_files(revisions.repo, revisions.base, revisions.tip, incidents + "/")
    return [
        c.path
        for c in changes
        if c.change == "added"
        and str(PurePosixPath(c.path).parent) == incidents
        and not (head.incidents_dir / PurePosixPath(c.path).name).exists()
    ]


def _at_base(
    revisions: Revisions, changes: Sequence[FileChange]
) -> tuple[PackedBytes, frozenset[str]]:
    """Each file as it was at the base (before a rename, under its old path; None if new or
    no blob there), and the paths of those that were regular files there, which
    `cross_file_findings_at_base` asks for: from one listing of the base's tree, where
    each listed the same paths."""
    paths = [c.old_path or c.path for c in changes if c.change != "added"]
    listed = git.tree_entries(revisions.repo, revisions.base, paths, sized=True)
    found = git.files_at(revisions.repo, revisions.base, listed, MAX_BYTES)
    # (Packed: the workers forked with them read them without copying their pages.)
    olds = PackedBytes(
        None if c.change == "added" else found.get(c.old_path or c.path) for c in changes
    )
    return olds, frozenset(entry.path for entry in listed if entry.is_regular)


def _file_review(
    change: FileChange,
    old: bytes | None,
    base: Document | None,  # `old` read
    tree: Path,
    mine: list[Finding],  # lint's findings of the file
    judge: Judge | None,
    taxonomy: Taxonomy,
    incident_files: IncidentFiles,
) -> FileReview:
    if change.change == "removed":  # (its title as at the base: what the reviewer would lose)
        # A taxonomy file the library needs has findings all the same (IL303: cannot read).
        return FileReview(
            path=change.path,
            change="removed",
            title=_text(base.data if base else None, "title"),
            **_bounded([ReportFinding.of(f) for f in mine]),
        )
    path = tree / change.path
    head = _loaded(path)
    data = head.data if head else None
    before = base.data if base else None
    # IL901 for an incident the change makes a draft again: the one finding of a changed
    # file that needs its base too.
    drafted = (
        incident_removed.made_draft(change.path, old, head) if path in incident_files else None
    )
    own = [ReportFinding.of(f) for f in ([drafted] if drafted else []) + mine]
    # A file the library never reads (a `.yml`, a hidden one) is never published: what to
    # fix is where it is (IL107), and its duplicates and facets are judged once it is in
    # place, as the incidents a change puts outside incidents/ are.
    if not _read_by_library(path, mine, incident_files) or not isinstance(data, dict):
        judge = None
    # A withdrawn incident repeats another by definition: no duplicates to look for and no
    # facets to suggest, but the claim itself, when the change makes it, is judged.
    withdrawn = isinstance(data, dict) and data.get("status") == "withdrawn"
    live = None if withdrawn else judge
    claim = _text(data, "duplicate_of") if withdrawn else None
    facets = _facets(data)
    had = _facets(before) if isinstance(before, dict) else None
    judged = (
        live.suggestions(path)
        if live and _writes(before, data, "facets") and not _stopped(mine)
        else None
    )
    suggestions = _on_what_it_adds(judged.facets, had, facets) if judged else []
    status_was, status = _status_change(before, data)
    title = _text(data, "title")
    title_was = _text(before, "title")
    same = change.change == "renamed" and old is not None and _raw(path) == old
    publishes = _publishes(before, data)
    found = (
        live.matches(path)
        if live and (publishes or not _read_as_at_base(before, data, path))
        else []
    )
    new, at_base = _new_likeness(
        found, live, path, old if isinstance(before, dict) else None, publishes
    )
    return FileReview(
        path=change.path,
        change=change.change,
        old_path=change.old_path,
        id=_text(data, "id"),
        title=title,
        title_was=title_was if title and title_was != title else None,
        facets=facets,
        status_was=status_was,
        status=status,
        **_bounded(own),
        content_unchanged=same,
        matches=new,
        matches_at_base=at_base,
        suggestions=suggestions,
        # (None of a head that does not parse: its facets are unread, not removed.)
        facets_changed=_facet_changes(had, facets, judged.support if judged else {}, suggestions)
        if isinstance(data, dict)
        else [],
        facets_to_paste=(paste := to_paste(facets, suggestions, taxonomy)),
        facets_unread=[d for d in DIMENSIONS if taxonomy.unread(d)] if paste else [],
        duplicate_of=judge.compare(path, claim)
        if judge and claim and _writes(before, data, "status", "duplicate_of")
        else None,
    )


def _new_likeness(
    found: list[Match], judge: Judge | None, path: Path, before: bytes | None, publishes: bool
) -> tuple[list[Match], list[Match]]:
    """Of the matches `found` for an incident the base has (`before`, its bytes there; for
    a rename, under its old path), those the change makes, and those its text at the base
    has too, as strong (a duplicate there, or related there and here): a reviewer of an
    edit to an incident decides on a likeness the edit brings, not on the base's again
    (a typo fixed repeated the table, and a rename that rewrote only the id listed the
    incident's own likeness as the change's). A related one made a duplicate is new, and
    so is every match of an incident the change `publishes`: the likeness was there, but
    the pair goes into a release by this change's decision (a draft published beside the
    incident it repeats counted no possible duplicate)."""
    if not found or judge is None or before is None or publishes:
        return found, []
    kinds = judge.at_base(path, before)
    known = [m for m in found if kinds.get(m.id) in ("duplicate", m.kind)]
    return [m for m in found if m not in known], known


def _publishes(before: Any, data: Any) -> bool:
    """Whether the change makes the incident a published one, which a release carries as an
    incident of its own: a draft (never exported), or a withdrawn one (exported as a copy of
    the incident it repeats, `duplicate_of`) restored. (One the change withdraws is not
    judged; one made a draft again leaves the release, IL901.)"""
    return _text(before, "status") != "published" and _text(data, "status") == "published"


def _status_change(before: Any, data: Any) -> tuple[str | None, str | None]:
    """The status at the base and at the head, when the change writes it (a withdrawal, a
    draft published): what the comment heads the file's section with, where "changed" hid
    it."""
    was, now = _text(before, "status"), _text(data, "status")
    return (was, now) if was and now and was != now else (None, None)


def _on_what_it_adds(
    judgements: list[FacetJudgement],
    before: dict[Dimension, list[str]] | None,
    after: dict[Dimension, list[str]],
) -> list[FacetJudgement]:
    """The judgements on what the change writes (`before`: the facets at the base, None for
    a new file, all of whose are its own): of an incident the base has, only the dimensions
    whose terms the change adds or removes, as a relabel of symptoms across many incidents
    is no occasion to suggest their causes; and of those, the unsupported terms narrowed to
    those it adds, as a term the incident carried already is not this change's to defend."""
    if before is None:
        return judgements
    written = [
        judged
        for judged in judgements
        if set(before.get(judged.dimension, [])) != set(after.get(judged.dimension, []))
    ]
    return [
        judged.model_copy(
            update={
                "unsupported": [
                    t for t in judged.unsupported if t.term not in before.get(judged.dimension, [])
                ]
            }
        )
        for judged in written
    ]


def _facet_changes(
    before: dict[Dimension, list[str]] | None,
    after: dict[Dimension, list[str]],
    support: Mapping[tuple[str, str], TermJudgement],
    suggestions: Sequence[FacetJudgement],
) -> list[FacetChange]:
    """The terms the change adds and removes, by dimension, of an incident the base has
    (`before`; None for a new file, whose facets are all new); an added term with the
    support `suggest` found for it (`support`, by dimension and term), so that a reviewer
    need not diff the YAML; a removed term with its judgement when `suggest` finds it
    missing (`suggestions`): the text still supports what the change takes away."""
    if before is None:
        return []
    missing = {(j.dimension, t.term): t for j in suggestions for t in j.missing}
    changes = []
    for dimension in DIMENSIONS:
        had, has = set(before.get(dimension, [])), set(after.get(dimension, []))
        changes += [
            FacetChange(
                dimension=dimension,
                term=term,
                change="added" if term in has else "removed",
                support=(support if term in has else missing).get((dimension, term)),
            )
            for term in [*sorted(has - had), *sorted(had - has)]
        ]
    return changes


def _read_as_at_base(before: Any, data: Any, path: Path) -> bool:
    """Whether `similar` reads the incident as the base has it: a change to what it does
    not read (its facets alone, a relabel; a source's publisher; comments and layout; a
    rename with the base's bytes) neither makes nor settles a possible duplicate, and the
    pairs it would show are the base's, no decision of this change's (and a change that
    reformats 100,000 incidents would spend two queries on each to say nothing)."""
    if not (isinstance(before, dict) and isinstance(data, dict)):
        return False
    return read_alike(before, data, path.stem)


def _stopped(findings: Sequence[Finding]) -> bool:
    """Whether lint did not read the file as an incident (a YAML or schema error): its terms
    are not checked yet, so no IL301 says what an unknown one meant, and a block to paste,
    which leaves those out, would drop the contributor's misspelt cause unsaid."""
    return any(f.code in STOPPING for f in findings)


def _read_by_library(
    path: Path, findings: Sequence[Finding], incident_files: IncidentFiles
) -> bool:
    """Whether the library reads the file at `path` as an incident: one of its incident
    files (directly in incidents/, not hidden) that lint does not report as none (IL107)."""
    return path in incident_files and not any(
        f.code == not_an_incident_file.RULE.code for f in findings
    )


def to_paste(
    facets: dict[Dimension, list[str]], suggestions: Sequence[FacetJudgement], taxonomy: Taxonomy
) -> dict[Dimension, list[str]]:
    """The `facets` block with the suggested terms added, as lint wants it: a contributor
    who pastes it must not get IL301, IL302 or IL304 for it. Nothing when nothing is
    suggested. A dimension whose taxonomy file cannot be read keeps the incident's terms
    (`FileReview.facets_unread`): none of them is known, and none was judged."""
    if not any(j.missing for j in suggestions):
        return {}
    block: dict[Dimension, list[str]] = {}
    for dimension in DIMENSIONS:
        added = [t.term for j in suggestions if j.dimension == dimension for t in j.missing]
        own = [*facets.get(dimension, []), *added]
        terms = (
            own if taxonomy.unread(dimension) else (_current(taxonomy, dimension, t) for t in own)
        )
        block[dimension] = facet_order.tidy([t for t in terms if t is not None])
    return block


def _current(taxonomy: Taxonomy, dimension: str, term_id: str) -> str | None:
    """The term to write for `term_id`: its replacement when deprecated (as `curator fix`
    does, when the taxonomy names a current one), else itself, or None when the dimension
    has no such term (the IL301 error stays in the findings above the block)."""
    if taxonomy.term(dimension, term_id) is None:
        return None
    return taxonomy.replacement(dimension, term_id) or term_id


def _writes(before: Any, data: Any, *keys: str) -> bool:
    """Whether the change writes any of `keys` (`before`: the file's data at the base, None
    for a new file). Facets, or a `duplicate_of` claim, are judged only where the change
    makes them: a wording fix to an incident is no occasion to re-open what it left alone
    (the same advice would otherwise come back with each typo fixed)."""
    if not isinstance(before, dict):
        return True
    return any(before.get(key) != data.get(key) for key in keys)


def _removed_at_base(change: FileChange, base: Document | None, incidents: str) -> Removed | None:
    """The id of the incident the base has where the change is, and where, if it is one
    that may not be deleted (`incident_removed.removed_id`): the review's workers read it
    from the file, where the main process read 100,000 files again after them."""
    if change.change == "added" or not read_in(change.old_path or change.path, incidents):
        return None  # (never in the library: a hidden file, one in a subfolder)
    return incident_removed.removed_in(base)


def _with_removal(
    review: FileReview,
    change: FileChange,
    removed: Removed | None,
    head_ids: set[str],
    in_place: str | None = None,
) -> FileReview:
    """Add the IL901 finding when the change makes a published id disappear (`removed`:
    the base's, from `_removed_at_base`; `head_ids`: the ids the head carries, each as
    `canonical_id` spells it): a file removed, renamed, or replaced by what the library does
    not read (`in_place`: a link, a folder)."""
    if removed is None or canonical_id(removed[0]) in head_ids:
        return review
    old_path = change.old_path or change.path
    renamed_to = change.path if change.change == "renamed" else None
    extra = ReportFinding.of(incident_removed.finding(old_path, removed, renamed_to, in_place))
    update: dict[str, Any] = {"findings": [extra, *review.findings]}
    if change.change == "removed":
        update["id"] = removed[0]
    return review.model_copy(update=update)


def _with_lines_in_diff(files: list[FileReview], revisions: Revisions) -> list[FileReview]:
    """`files` with the lines the diff adds or rewrites, of each the change edits, renames
    or moves into the library that has an annotation to place (a finding, a possible
    duplicate): "Files changed" shows one only on such a line (`annotations`), and of a new
    file, every line. One `git diff` for them all, none when no file needs it."""
    wanted = [
        f
        for f in files
        if f.change in ("added", "changed", "renamed")
        and not f.shown_in_diff(1)
        and (f.findings or f.duplicates())
    ]
    asked = [(f.path, f.old_path) for f in wanted]
    lines = git.lines_changed(revisions.repo, revisions.base, revisions.head, asked, MAX_BYTES)
    return [
        f.model_copy(update={"lines_in_diff": lines[f.path]}) if f.path in lines else f
        for f in files
    ]


def _in_place_of(path: Path) -> str | None:
    """What the head has at `path`, where the base had a file, when the library does not
    read it as one: a symbolic link (git's type change), a folder (a submodule's too);
    None for a file, or nothing."""
    if path.is_symlink():
        return "a symbolic link"
    return "a folder" if path.is_dir() else None


def _unnamed(review: FileReview) -> bool:
    """Whether the head gives the file neither id nor title (`_named_at_base`)."""
    return review.change != "removed" and not (review.id or review.title)


def _named_at_base(review: FileReview, old: bytes | None) -> FileReview:
    """The base's id and title for a file the head gives neither (one that no longer
    parses, say), so that its section says which incident it is."""
    if not _unnamed(review) or old is None:
        return review
    before = _document(old)
    named = {"id": _text(before, "id"), "title": _text(before, "title")}
    if not any(named.values()):
        return review
    return review.model_copy(update={**named, "named_at_base": True})


def _with_unread(review: FileReview, incidents: str) -> FileReview:
    """Add the IL107 finding for an incident the change puts in incidents/ hidden, or in
    a subfolder of it, where the library never reads it."""
    if review.change == "removed":
        return review
    finding = hidden_in_incidents(review.path, incidents) or in_a_subfolder(review.path, incidents)
    if finding is None:
        return review
    return review.model_copy(update={"findings": [ReportFinding.of(finding), *review.findings]})


def _data(path: Path) -> Any:
    document = _loaded(path)
    return document.data if document else None


def _raw(path: Path) -> bytes | None:
    try:
        return read_regular(path, MAX_BYTES)
    except OSError:
        return None


def _loaded(path: Path) -> Document | None:
    try:
        return load_bytes(read_regular(path, MAX_BYTES)).document
    except OSError:  # not a regular file (a FIFO would block), or unreadable
        return None


def _document(raw: bytes) -> Any:
    document = load_bytes(raw).document
    return document.data if document else None


def _text(data: Any, key: str) -> str | None:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, str) else None


def _facets(data: Any) -> dict[Dimension, list[str]]:
    facets = data.get("facets") if isinstance(data, dict) else None
    if not isinstance(facets, dict):
        return {}
    found: dict[Dimension, list[str]] = {}
    for dimension in DIMENSIONS:
        terms = facets.get(dimension)
        if isinstance(terms, list):
            found[dimension] = [t for t in terms if isinstance(t, str)]
    return found
