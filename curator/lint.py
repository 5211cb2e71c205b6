"""Run the rules over a library: files → load → model → rules → findings.

A library of 100,000 incidents must lint in seconds, so three things sit around the rules,
none of which changes a finding:
- each file is read once, parsed from libyaml's event stream (`curator.load`) and checked
  by every single-file rule; the cross-file rules then run on small per-file summaries;
- files are checked in worker processes when there are enough of them to pay for starting
  the workers (`PARALLEL_FROM`; see benchmarks/README.md);
- with `cache=True` (what the CLI does), each file's result is kept in `.curator-cache/`
  and used again while the file's bytes are the same (`curator.lint_cache` says exactly
  when), so an unchanged file costs a `stat`.
Paths are handled as text here, not as `Path` objects: at 100,000 files, making and
comparing `Path` objects would cost more than everything else a warm run does.
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import stat
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from curator.findings import Finding, Severity
from curator.library import (
    INCIDENTS,
    Library,
    ListedNames,
    incident_entries,
    is_library,
    link_within_incidents,
    named_as_incident,
    unlisted_because,
    within_incidents,
)
from curator.library_index import LibraryIndex
from curator.lint_cache import (
    KEY,
    Checked,
    CorruptEntry,
    MissingSummary,
    ResultCache,
    cache_key,
    finding_rows,
    findings_of,
    fingerprint,
    relocated,
    settled_stat,
    unanchored,
)
from curator.load import MAX_BYTES, START, Loaded, Position, at_editor_lines, load_bytes
from curator.memory import without_cyclic_gc
from curator.model import DIMENSIONS, Incident, not_a_mapping
from curator.regular import content_digest, read_at_most
from curator.repository import NotACheckout, top_of
from curator.rules import (
    FILE_RULES,
    LIBRARY_RULES,
    internal_error,
    not_an_incident_file,
    placeholder_id,
    taxonomy_invalid,
    unknown_term,
)
from curator.rules._problems import fix_reads, ruamel_refuses, tab_in_plain_value
from curator.rules.base import FileSummary, IncidentFile, LibraryView
from curator.rules.invisible_characters import less_zero_width
from curator.schema_errors import SchemaError, describe_errors
from curator.taxonomy import Taxonomy
from curator.workers import SentOnce, Workers, worker_count

PARALLEL_FROM = 200  # files to check before worker processes pay off (benchmarks/README.md)
Progress = Callable[[int, int], None]
Task = tuple[int, str, str, Any]  # (index, path, display, `Extra.payload` of the path)
_TURNING_POINTS = [r.turning_points for r in FILE_RULES if hasattr(r, "turning_points")]
# (file, the SHA-256 of its bytes in hex, `Extra.payload`'s value for it): the digest is
# lint's own, so that no file is hashed twice; None where no one reads it (`Extra.digest`).
Compute = Callable[[IncidentFile, str | None, Any], Any]
# What every check_task needs: the taxonomy, today, the prefix of the cache's keys (None:
# nothing is kept), what else to compute of each file, whether to hash each file.
_Context = tuple[Taxonomy, dt.date, str | None, Compute | None, bool]


@dataclass(frozen=True)
class Extra:
    """Work a caller wants done on each file while lint has it parsed, so that no file is
    parsed twice (`curator export` renders each incident this way).
    `compute(file, digest, payload)` runs wherever the file is checked, a worker process
    perhaps (so it must be picklable: a module-level function or a `functools.partial` of
    one); `take(path, value)` then runs here, in the order results arrive. Files whose
    result came from the cache are not parsed, so they get neither: the caller must cope
    with a missing value."""

    compute: Compute
    take: Callable[[str, Any], None]
    # The order to check the files in, and so to call `take` (a sort key of their paths),
    # for a caller that streams what it takes; by default, the library's (by name).
    order: Callable[[str], Any] | None = None
    # What `compute` needs of each file besides the file (its dates, for the export): worked
    # out here, by path, and sent with the file. (What every file needs goes in `compute`
    # itself, which crosses to the workers with every chunk: it must stay small.)
    payload: Callable[[str], Any] | None = None
    # Called once every file is checked (and taken), before the cross-file rules run: the
    # workers are idle from then on, for what the caller may give them meanwhile.
    checked: Callable[[], None] | None = None
    # Given each file whose result came from the cache, which is not parsed, with the
    # SHA-256 (hex) of the bytes that result was found in: what the caller may have kept
    # of those bytes describes the file as it is.
    kept: Callable[[str, str], None] | None = None
    # Whether `compute` reads each file's digest. Where it does not and no result is kept
    # (`--no-cache`), no file is hashed, and `compute` is given None: ≈6,000 bytes a file
    # through SHA-256 for nothing.
    digest: bool = True


def display_path(path: Path, cwd: Path | None = None) -> str:
    return os.path.relpath(path, cwd or Path.cwd())


def display_paths(paths: Sequence[str | Path], cwd: Path | None = None) -> list[str]:
    """`display_path` of each path, with one `relpath` per folder rather than per file."""
    base = str(cwd or Path.cwd())
    folders: dict[str, str] = {}
    shown = []
    for path in map(str, paths):
        folder, _, name = path.rpartition(os.sep)
        relative = folders.get(folder)
        if relative is None:
            relative = folders[folder] = os.path.relpath(folder or os.sep, base)
        shown.append(name if relative == "." else f"{relative}{os.sep}{name}")
    return shown


def validate(loaded: Loaded) -> tuple[Incident | None, list[SchemaError]]:
    document = loaded.document
    if document is None:
        return None, []
    why = not_a_mapping(document.data)
    if why is not None:
        return None, [SchemaError((), why, False)]
    try:
        return Incident.model_validate(document.data), []
    except ValidationError as exc:
        return None, describe_errors(exc, Incident)


def read_incident(path: Path, display: str, taxonomy: Taxonomy, today: dt.date) -> IncidentFile:
    return parse_incident(path, display, path.read_bytes(), taxonomy, today)


def parse_incident(
    path: Path, display: str, raw: bytes, taxonomy: Taxonomy, today: dt.date
) -> IncidentFile:
    loaded = load_bytes(raw)
    incident, errors = validate(loaded)
    if incident is None:
        incident = _less_byte_order_marks(loaded, errors)
    return IncidentFile(path, display, loaded, incident, errors, taxonomy, today)


def _less_byte_order_marks(loaded: Loaded, errors: list[SchemaError]) -> Incident | None:
    """The incident of a file refused (`errors`) only for the U+FEFF in its text, once
    it and the other zero-width characters are removed (`less_zero_width`), as IL606 asks
    and `curator fix` does: the other rules judge it so,
    and report now what they would report after the fix (the errors stay, and IL201
    passes over them); None for any other file. (An export refuses it, for IL606.)"""
    if loaded.document is None or not errors:
        return None
    if any(not error.zero_width or error.but_zero_width is not None for error in errors):
        return None
    try:
        return Incident.model_validate(less_zero_width(loaded.document.data))
    except ValidationError:  # (never, as the errors said: then the rules stay silent)
        return None


def check_file(
    path: Path,
    display: str,
    taxonomy: Taxonomy,
    today: dt.date,
    extra: Compute | None = None,
    payload: Any = None,
    hashed: bool = True,
) -> Checked:
    """Findings of the single-file rules, and what the cross-file rules need; and `extra`'s
    value for the parsed file (given `payload`), if asked for. Unless `hashed`, the file's
    digest is not worked out (None): for a run that keeps nothing, and whose `extra`
    does not read it."""
    where = str(path)  # (as text for `os`: pathlib's layers cost more than lstat and read)
    try:
        before = os.lstat(where)  # before reading: a change after it shows as a new stat
    except OSError:
        before = None
    if before is None or not stat.S_ISREG(before.st_mode) or not _yaml_name(where):
        entry = list(not_an_incident_file.check_entry(path, display))
        if entry:
            return Checked(entry, FileSummary(display, path.stem))
    try:
        raw = _read(where, before.st_size if before else 0)
    except OSError as exc:
        message = f"cannot read the file: {exc.strerror or exc}"
        return Checked(
            [not_an_incident_file.RULE.at(display, START, message)],
            FileSummary(display, path.stem),
        )
    try:
        file = parse_incident(path, display, raw, taxonomy, today)
        findings = [finding for rule in FILE_RULES for finding in rule.check(file)]
        # A file `curator fix` leaves whole. Asked only where a finding is fixable (nearly
        # no file): each ask scans the file's text at least.
        if any(finding.fixable for finding in findings) and (
            not fix_reads(file) or tab_in_plain_value(file) or ruamel_refuses(file)
        ):
            findings = [replace(finding, fixable=False) for finding in findings]
        points = [day for turning in _TURNING_POINTS for day in turning(file)]
        summary = FileSummary.of(file)
        digest = content_digest(raw) if hashed else None
        value = extra(file, digest, payload) if extra is not None else None
        moved = at_editor_lines(file.loaded.text)
        if moved is not None:  # (the summary's places are moved by `FileSummary.of`)
            findings = [_moved(finding, moved) for finding in findings]
    except Exception as exc:  # a bug in a rule must not stop the run; never cached
        return Checked([_internal(display, exc)], FileSummary(display, path.stem))
    result = Checked(findings, summary, digest, settled_stat(before) if before else None, points)
    result.extra = value
    return result


def _moved(finding: Finding, moved: Callable[[Position], Position]) -> Finding:
    line, column = moved(Position(finding.line, finding.column))
    return replace(finding, line=line, column=column)


def _yaml_name(path: str) -> bool:
    """Whether `Path(path).suffix == ".yaml"`, for a path as `str(Path(...))` gives it."""
    return path.endswith(".yaml") and len(path) - path.rfind(os.sep) > len("/.yaml")


def _read(path: str, size: int) -> bytes:
    """The file's bytes, as `read_regular(limit=MAX_BYTES)` reads them, in fewer steps:
    opened without its checks (`lstat` made them), `size` (what it said) at once."""
    fd = os.open(path, os.O_RDONLY | _BINARY)
    try:
        return read_at_most(fd, size, MAX_BYTES)
    finally:
        os.close(fd)


_BINARY = getattr(os, "O_BINARY", 0)  # (Windows would translate line ends without it)


def _internal(display: str, exc: BaseException) -> Finding:
    where = traceback.extract_tb(exc.__traceback__)[-1]
    message = (
        f"curator failed on this file ({type(exc).__name__}: {exc} at "
        f"{Path(where.filename).name}:{where.lineno}); please report this"
    )
    return internal_error.RULE.at(display, START, message)


def expand(library: Library, paths: Iterable[Path]) -> list[Path]:
    """Files named on the command line; folders stand for the incident files inside, and a
    library's root (`curator lint .`) for those of its incidents/ folder. A folder's entries
    are those the library lists in incidents/ (`incident_entries`), so that `curator lint
    incidents` checks, and reports, what `curator lint` does; a folder holding incidents
    is one of them only in incidents/ (`within_incidents`)."""
    return list(named_files(library, paths).values())


def named_files(library: Library, paths: Iterable[Path]) -> dict[str, Path]:
    """`expand`'s files by where they are (`_absolute`), each once, as first named: a file
    named twice, by two spellings (`./incidents/x.yaml`, `incidents/../incidents/x.yaml`,
    `incidents/il-0001.yaml` where the file system ignores case: `_as_listed`) or in a
    folder named too is one file to check, to rewrite and to count. A path named
    through a link in incidents/ (`through_links`) is where it is named: the link is not
    followed, so what it leads to is never the same as another path named. What a run
    over the whole library passes over (`passed_over`: `incidents/.IL-0001.yaml`,
    `incidents/README.md`) is left out, as there."""
    found: dict[str, Path] = {}
    resolved: dict[Path, str] = {}
    links: dict[str, str | None] = {}
    folders: dict[tuple[str, str], str | None] = {}
    listed = ListedNames(library)
    for path in paths:
        if is_library(path) and link_within_incidents(str(path.absolute())) is None:
            path = path / INCIDENTS  # (a link in incidents/ to a library is not followed)
        if _passed_over(path, resolved, folders) is not None:
            continue
        # (`os.path.isdir`: a path the user may not look into is no folder, not an error)
        if (
            os.path.isdir(path)
            and not path.name.startswith("IL-")
            and link_within_incidents(str(path.absolute())) is None
        ):
            entries = _listed(path)
        else:
            entries = [path]
        for entry in entries:
            where = _where(entry, resolved, links)
            if _link_of(entry, links) is None:
                where, entry = _as_listed(where, entry, listed)
            found.setdefault(where, entry)
    return found


def _as_listed(where: str, path: Path, listed: ListedNames) -> tuple[str, Path]:
    """`where` and `path` (`named_files`' key and file) under the name the library lists
    the file by, if it is named in another case (`ListedNames.listed_as`): it is the
    library's file, to compare with the others under the name they know it by, and to
    rewrite under that name (a rename onto a name in another case may give the file the
    name typed)."""
    name = listed.listed_as(where)
    if name is None:
        return where, path
    return os.path.join(os.path.dirname(where), name), path.with_name(name)


def _where(path: Path, resolved: dict[Path, str], links: dict[str, str | None]) -> str:
    """`named_files`'s key of `path`: `_absolute`; for a path named through a link in
    incidents/, the path as named, as the link is not followed (`through_links`)."""
    if _link_of(path, links) is not None:
        return str(path.absolute())
    return _absolute(path, resolved)


def passed_over(paths: Iterable[Path]) -> list[tuple[Path, str]]:
    """The paths named that `named_files` leaves out, each with why: in incidents/, what
    a run over the whole library passes over (`curator.library.unlisted_because`), which
    named alone is then neither checked as an incident nor reported (IL107)."""
    resolved: dict[Path, str] = {}
    folders: dict[tuple[str, str], str | None] = {}
    return [
        (path, why) for path in paths if (why := _passed_over(path, resolved, folders)) is not None
    ]


def _passed_over(
    path: Path, resolved: dict[Path, str], folders: dict[tuple[str, str], str | None]
) -> str | None:
    where = _absolute(path, resolved)
    if path.name == "..":  # (`incidents/images/..` is incidents/, not a hidden entry of it)
        where = os.path.normpath(where)
    why = unlisted_because(where, path, folders)
    if why is None and _no_draft(where, path):
        return NO_DRAFT
    return why


# Why a file named outside incidents/ is passed over (`_no_draft`). A run over the library
# never sees it, so the note does not say "as in a run over the library" (`curator.cli`).
NO_DRAFT = (
    "it is outside incidents/ and not named like an incident (`IL-…`, `.yaml` or `.yml`), "
    "so it is neither an incident nor a draft of one"
)


def _no_draft(where: str, path: Path) -> bool:
    """Whether the file at `where` (`path` as named), which a run over the library does not
    pass over, is outside incidents/ with a name no incident nor draft has (`README.md`,
    `notes.json`): taken for a draft, it was refused by its extension (IL107 "incident
    files end in .yaml"), as if it were meant to be one, where the pre-commit hook never
    names it, `lint --commit` and `curator review` leave it out, and in incidents/ it is
    passed over with a note. A file named through a link in incidents/ is that link's
    (IL107, `through_links`); a folder named is looked into for drafts."""
    return (
        not named_as_incident(os.path.basename(where))
        and not os.path.isdir(path)
        and not within_incidents(Path(os.path.dirname(where)))
        and link_within_incidents(str(path.absolute())) is None
    )


def _listed(folder: Path) -> list[Path]:
    """The entries of a folder named, or, if it cannot be listed (no permission), the
    folder itself: an entry lint reports (IL107) as it does one found in incidents/."""
    try:
        names = incident_entries(folder, subfolders=within_incidents(folder))
    except OSError:
        return [folder]
    return [folder / name for name in names]


def in_subfolders(
    library: Library, named: dict[str, Path], cwd: Path | None = None
) -> dict[str, Finding]:
    """The files of `named` (`named_files`) that the library does not read, each with its
    finding (IL107): one named through a symbolic link in incidents/ (`through_links`);
    else one in a subfolder of incidents/ (its folder resolved: `incidents/../drafts/x.yaml`
    is outside incidents/, `incidents/images/../IL-0001.yaml` directly in it)."""
    unread = through_links(named, cwd)
    incidents = os.path.realpath(library.incidents_dir)
    for where, path in named.items():
        if where not in unread and in_a_subfolder(where, incidents):
            shown = display_path(Path(os.path.abspath(path)), cwd)
            unread[where] = not_an_incident_file.in_a_subfolder(shown)
    return unread


def outside_incidents(
    library: Library, named: dict[str, Path], cwd: Path | None = None
) -> dict[str, Finding]:
    """The files of `named` (`named_files`) in the library's repository but not in its
    incidents/ that look like incidents (`_outside`: `IL-0140.yaml`, `incident/IL-NEW-x.yml`,
    `drafts/nccl.yaml` holding `id:` and `title:` lines), each with its finding (IL107), as
    `curator review` reports them: what a commit adds there is an incident the library
    never reads. (`lint --commit`: `commit_scope` leaves out the others, but a YAML draft
    kept outside the library's repository.)"""
    folder = Path(display_path(library.incidents_dir, cwd)).as_posix()
    return {
        where: not_an_incident_file.outside_incidents(
            display_path(Path(os.path.abspath(path)), cwd), folder
        )
        for where, path, looks in _outside(library, named)
        if looks
    }


def commit_scope(library: Library, paths: Sequence[Path]) -> list[Path]:
    """The paths `lint --commit` checks: those given, less each file outside incidents/ that
    does not look like an incident (`_outside`), as the pre-commit hook leaves it: one it
    names as its pattern cannot look inside one (`mkdocs.yml`, `deploy/app.yaml`), and one
    it never names (`README.md`, `notes.json`, `tests/IL-0001.yaml`), which lint
    took for a draft and refused by its extension or its keys. `curator review` passes
    them all over too."""
    files = {path for path in paths if not os.path.isdir(path)}
    named = named_files(library, files)
    left_out = {named[where] for where, _, looks in _outside(library, named) if looks is False}
    return [path for path in paths if path not in left_out]


def _outside(library: Library, named: dict[str, Path]) -> Iterator[tuple[str, Path, bool | None]]:
    """The files of `named` outside the library's incidents/, each with whether it looks
    like an incident, as `curator review` tells it: in the library's repository
    (`_repository`), one that may be an incident there (`not_an_incident_file.may_be_incident`
    of its path in the repository: named like one, or a `.yaml` or `.yml` file, not in
    tests/, a hidden folder …) named like an incident id or holding the lines the review
    looks for (`shaped_like_an_incident`; None if it cannot be read, to be checked as it
    is). Outside the repository, only a file that is no YAML file (False): a YAML file
    there is a draft kept elsewhere, to be checked as one."""
    incidents = os.path.realpath(library.incidents_dir)
    outside = {w: path for w, path in named.items() if not w.startswith(incidents + os.sep)}
    if not outside:  # (a commit of incidents only, the most common: no git to ask)
        return
    top = _repository(os.path.realpath(library.root))
    in_repository = Path(os.path.relpath(incidents, top)).as_posix()
    top = os.path.join(top, "")  # (its path ends in one separator, `/` too)
    for where, path in outside.items():
        if not where.startswith(top):
            if not where.lower().endswith((".yaml", ".yml")):
                yield where, path, False
            continue
        inside = Path(where[len(top) :]).as_posix()
        if not not_an_incident_file.may_be_incident(inside, in_repository):
            yield where, path, False
        elif not_an_incident_file.named_like_an_incident(inside):
            yield where, path, True
        else:
            yield where, path, not_an_incident_file.shaped_like_an_incident(path)


class GitMissing(Exception):
    """git cannot be run, to tell where the repository's top is (`lint --commit`)."""

    def __init__(self) -> None:
        super().__init__(
            "git is not installed or not on PATH (--commit needs it for files outside incidents/)"
        )


def _repository(root: str) -> str:
    """The top folder of the git checkout holding the library at `root`, as `curator
    review` finds it (`curator.repository`), else (no checkout) `root` itself. A commit
    names files by their place there, as the hook's pattern and the review see them: with
    the library in a subfolder (`data/incidents/`), a file beside it (`tests/fixture.yaml`,
    `IL-0140.json`) is judged by that place, not taken for a draft kept elsewhere. Without
    git, `GitMissing`: taken from `root`, that place was silently another than the hook's."""
    try:
        return str(top_of(Path(root)))
    except FileNotFoundError as exc:
        if exc.filename == "git":  # (not the folder it started in, deleted meanwhile)
            raise GitMissing from exc
        return root
    except (NotACheckout, OSError):
        return root


def through_links(named: dict[str, Path], cwd: Path | None = None) -> dict[str, Finding]:
    """The files of `named` (`named_files`) named through a symbolic link in incidents/,
    each with its finding (IL107), for every command alike: the link is not followed,
    wherever it leads, back into incidents/ too (`incidents/2024/IL-0001.yaml`, 2024 a
    link to `.`), as a run over the library does not follow it; so the answer never
    depends on, nor tells, what is behind it. Shown as named up to the link and as given
    after it (`..` kept: `incidents/2024/../IL-0001.yaml` is beside the link's target)."""
    links: dict[str, str | None] = {}
    through: dict[str, Finding] = {}
    for where, path in named.items():
        link = _link_of(path, links)
        if link is not None:
            shown = display_path(Path(link), cwd)
            given = str(path.absolute())[len(link) :]
            through[where] = not_an_incident_file.through_a_link(shown + given, shown)
    return through


def _link_of(path: Path, links: dict[str, str | None]) -> str | None:
    """The symbolic link in incidents/ that `path` is named through (`link_within_incidents`
    of its folder, as named), each folder looked at once in `links`: pre-commit names
    thousands of files in one."""
    folder = os.path.dirname(str(path.absolute()))
    if folder not in links:
        links[folder] = link_within_incidents(folder)
    return links[folder]


def in_a_subfolder(where: str, incidents: str) -> bool:
    """Whether `where` (`named_files`'s key: as the system takes it, not named through a
    link in incidents/) is a file in a subfolder of `incidents` (resolved), which the
    library never reads."""
    return where.startswith(incidents + os.sep) and os.path.dirname(where) != incidents


def scope(library: Library, paths: Sequence[Path]) -> Sequence[Path]:
    """The paths lint reports on: those given, or none (the whole library) when they name
    the taxonomy (its folder, a folder of the library holding it, `schema/` or the root,
    or a file in it, as pre-commit does): every incident depends on the taxonomy, so a
    change to it is checked against them all, with IL303. A file is known by its folder,
    resolved (schema/ may be a symbolic link; so may the file, which the taxonomy refuses,
    IL303): once per folder, for the thousands pre-commit names. A symbolic link in
    incidents/, or a path through one, names no taxonomy, wherever it leads: the link is
    not followed (IL107, `through_links`)."""
    try:
        folder = str(library.taxonomy_dir.resolve())
    except (OSError, RuntimeError):  # a loop: no taxonomy to name
        return paths
    within = os.path.realpath(library.root) + os.sep
    resolved: dict[Path, str] = {}
    links: dict[str, str | None] = {}
    for path in paths:
        if os.path.isdir(path):
            if link_within_incidents(str(path.absolute())) is not None:
                continue
            where = os.path.realpath(path)
            if (where + os.sep).startswith(within) and folder.startswith(where + os.sep):
                return ()  # `schema/`, which holds no incident: it was 0 files checked
        elif _link_of(path, links) is not None:
            continue
        else:
            where = os.path.dirname(_absolute(path, resolved))
        if where == folder:
            return ()
    return paths


def lint(
    library: Library,
    paths: Sequence[Path] = (),
    today: dt.date | None = None,
    cwd: Path | None = None,
    release: bool = False,
    *,
    cache: bool = False,
    jobs: int | None = None,
    progress: Progress | None = None,
    extra: Extra | None = None,
    workers: Workers | None = None,
    held: list[object] | None = None,
    commit: bool = False,
) -> list[Finding]:
    """Every finding for `paths` (default, or when they name the taxonomy: the whole
    library, see `scope`), with cross-file rules seeing the whole library either way. With
    `release`, placeholder ids are errors. With `commit`, `paths` are files a commit adds
    or changes: one that looks like an incident outside incidents/ is IL107
    (`outside_incidents`), not a draft checked with the library.

    `cache` keeps results in `.curator-cache/` at the library root; `jobs` caps the worker
    processes (default: one per CPU, when there are enough files); `workers`, a caller's
    pool that will need its workers afterwards too, is used instead of starting one (then
    `jobs` is the pool's business); `progress` is called with (files done, files in all)
    as the run goes; `extra`, see `Extra`; `held`, a list to leave every file's result in
    rather than free them as this returns, for a caller whose process ends without freeing
    anything (`curator.cli.run`): at 100,000 files, Python takes 0.3 s to free them.
    """
    today = today or dt.datetime.now(dt.UTC).date()
    paths = scope(library, paths)
    run = _Run(library, today, cwd, jobs, progress, extra, workers, held, commit)
    with without_cyclic_gc():
        try:
            findings = run.findings(paths, ResultCache.open(library) if cache else None)
        except CorruptEntry:
            # The cache held something curator never writes: forget it and start again.
            ResultCache.discard(library)
            findings = run.findings(paths, None)
    if release:
        findings = [placeholder_id.for_release(f) for f in findings]
    return sorted(set(findings), key=_order)


def _absolute(path: Path, resolved: dict[Path, str]) -> str:
    """`path` made absolute as the library's own paths are, its folder resolved but not its
    last part: a symlinked incident named on the command line (as pre-commit does) is then
    checked under its own name, as when the whole library is linted, and a link that loops
    is a finding (IL107), not a crash. `resolved` keeps each folder's answer: pre-commit
    names thousands of files in one folder, and resolving one costs ~0.1 ms."""
    folder = path.absolute().parent
    if folder not in resolved:
        try:
            resolved[folder] = str(folder.resolve())
        except (OSError, RuntimeError):  # a loop in the folders above: leave it as given
            resolved[folder] = str(folder)
    return os.path.join(resolved[folder], path.name)


class _Run:
    """One call of `lint`: what stays the same whether or not a cache is used."""

    def __init__(
        self,
        library: Library,
        today: dt.date,
        cwd: Path | None,
        jobs: int | None,
        progress: Progress | None,
        extra: Extra | None = None,
        workers: Workers | None = None,
        held: list[object] | None = None,
        commit: bool = False,
    ) -> None:
        self.library = library
        self.today = today
        self.cwd = cwd
        self.jobs = jobs
        self.progress = progress
        self.extra = extra
        self.workers = workers
        self.held = held
        self.commit = commit
        self.unsure = False  # whether the cross-file findings may not match the files' lines

    def findings(self, paths: Sequence[Path], store: ResultCache | None) -> list[Finding]:
        library, cwd = self.library, self.cwd
        taxonomy = library.taxonomy
        files = named_files(library, paths)
        unread = in_subfolders(library, files, cwd)
        if self.commit:
            unread |= outside_incidents(library, files, cwd)
        selected = self.spelled_as_listed([path for path in files if path not in unread])
        folder = str(library.incidents_dir)
        names = library.incident_names()
        entries = list(dict.fromkeys([*(f"{folder}{os.sep}{n}" for n in names), *selected]))
        displays = display_paths(entries, cwd)
        checked = check_files(
            entries,
            displays,
            taxonomy,
            self.today,
            store,
            self.jobs,
            self.progress,
            self.extra,
            self.workers,
        )
        if self.held is not None:
            self.held += [entries, displays, checked]
        findings = [finding for result in checked for finding in result.findings]
        findings += self.library_findings(entries, checked, store)
        # Not read as incidents: the library does not read them (the whole library's lint
        # reports the folder that holds them).
        findings += unread.values()
        if store:
            store.save(self.workers)
        if paths:  # (a folder given may hold no incident file: then nothing is reported)
            wanted = {*display_paths(selected, cwd), *(f.path for f in unread.values())}
            findings = [f for f in findings if f.path in wanted]
        return findings

    def spelled_as_listed(self, selected: list[str]) -> list[str]:
        """The files named, those in the library's incidents/ under the name the library
        lists them by: where incidents/ is a symbolic link, a file named through it (as
        pre-commit does) resolves to the link's target, and was checked as a second file,
        its id and sources found twice (IL204, IL502)."""
        folder = str(self.library.incidents_dir)
        target = os.path.realpath(folder) + os.sep
        if target == folder + os.sep:
            return selected
        return [
            f"{folder}{os.sep}{path[len(target) :]}"
            if path.startswith(target) and os.sep not in path[len(target) :]
            else path
            for path in selected
        ]

    def library_findings(
        self, entries: Sequence[str], checked: Sequence[Checked], store: ResultCache | None
    ) -> list[Finding]:
        """The cross-file rules' findings: kept, when nothing they see has changed; worked
        out again for the files a change concerns, when the cache can tell which those are
        (`curator.library_index`); else worked out again from every file."""
        taxonomy_files = {p: display_path(p, self.cwd) for p in self.library.taxonomy.files}
        if store is None:
            return self.run_library_rules(self.summaries(entries, checked), taxonomy_files)
        extra = list(taxonomy_files.values())
        lines = store.lines(entries, checked)
        key = fingerprint(lines, extra)
        by_display = {result.display: result for result in checked}
        found = store.library_findings(key, by_display)
        if found is None:
            found = self.changed_library_findings(store, key, lines, by_display, taxonomy_files)
        if found is not None:
            return found
        store.read_summaries()
        summaries = self.summaries(entries, checked)
        findings = self.run_library_rules(summaries, taxonomy_files)
        rows = finding_rows(findings, by_display, {s.display: s for s in summaries})
        hashes = map(Checked.key_hashes_of, checked, summaries)
        index = LibraryIndex.build(zip(lines, hashes, strict=True))
        if not self.unsure:
            store.keep_library_findings(key, rows, index, extra)
        return findings

    def changed_library_findings(
        self,
        store: ResultCache,
        key: str,
        lines: Sequence[str],
        files: dict[str, Checked],
        taxonomy_files: dict[Path, str],
    ) -> list[Finding] | None:
        """The cross-file findings, from those kept for the library as it was, the rules
        rerun on the files holding a key that a file which came, went or changed held
        (before or after); None when the cache cannot say what the library was. `lines`
        are the files' (`ResultCache.lines`), `files` their results by display path, both
        in the library's order."""
        extra = list(taxonomy_files.values())
        state = store.library_state(extra)
        if state is None or len(files) != len(lines):  # (two files shown alike: not here)
            return None
        rows, index = state
        now = dict(zip(lines, files.values(), strict=True))
        gone = [i for i, line in enumerate(index.lines) if line not in now]
        known = set(index.lines)
        came = [(line, result) for line, result in now.items() if line not in known]
        try:
            came_keys = [(line, result.key_hashes) for line, result in came]
            changed = index.keys_of(gone).union(*(hashes for _, hashes in came_keys))
            left = set(gone)
            concerned = {now[index.lines[i]] for i in index.holders(changed) if i not in left}
            concerned.update(result for _, result in came)
            # In the library's order, as the rules would see them all (messages list files).
            summaries = [result.summary for result in files.values() if result in concerned]
        except MissingSummary:  # a result kept without its summary: work everything out
            return None
        findings = self.run_library_rules(summaries, taxonomy_files)
        by_path = {summary.display: summary for summary in summaries}
        fresh = finding_rows(findings, files, by_path)
        if unanchored(fresh):
            return None  # at no anchor: which files it depends on cannot be told
        kept = [row for row in rows if row[KEY] is not None and row[KEY] not in changed]
        # (Rows with no key are in no file: the taxonomy's, found again with every run.)
        moved = relocated(kept, files)
        if moved is None:
            return None
        rows = [*moved, *(row for row in fresh if row[KEY] is None or row[KEY] in changed)]
        store.keep_library_findings(key, rows, index.changed(gone, came_keys), extra)
        return findings_of(rows)

    def run_library_rules(
        self, summaries: list[FileSummary], taxonomy_files: dict[Path, str]
    ) -> list[Finding]:
        return run_library_rules(self.library, summaries, taxonomy_files, self.cwd)

    def summaries(self, entries: Sequence[str], checked: Sequence[Checked]) -> list[FileSummary]:
        summaries = []
        for path, result in zip(entries, checked, strict=True):
            try:
                summaries.append(result.summary)
            except MissingSummary:  # its result was kept, its summary lost: check it again
                again = check_file(Path(path), result.display, self.library.taxonomy, self.today)
                summaries.append(again.summary)
                # Changed since it was found unchanged: its line no longer tells its values.
                self.unsure |= again.values_key != result.values_key
        return summaries


def run_library_rules(
    library: Library,
    summaries: list[FileSummary],
    taxonomy_files: dict[Path, str],
    cwd: Path | None = None,
) -> list[Finding]:
    """The cross-file rules' findings over `summaries` (in the library's order: messages
    list files), the taxonomy files displayed as `taxonomy_files` says."""
    view = LibraryView(summaries, library.taxonomy, taxonomy_files)
    findings: list[Finding] = []
    for rule in LIBRARY_RULES:
        try:
            findings += rule.check_library(view)
        except Exception as exc:  # pragma: no cover - defensive, as in check_file
            findings.append(_internal(display_path(library.root, cwd), exc))
    return findings


def summary_of(path: Path, display: str, raw: bytes, taxonomy: Taxonomy) -> FileSummary:
    """What the cross-file rules read of an incident file holding `raw`, as `check_file`
    makes it of a regular `.yaml` file (`curator review` reads one so from git)."""
    today = dt.date.today()  # (no part of a summary depends on it)
    try:
        return FileSummary.of(parse_incident(path, display, raw, taxonomy, today))
    except Exception:  # as check_file: a bug in a rule leaves the file out of the rules
        return FileSummary(display, path.stem)


def check_files(
    paths: Sequence[str],
    displays: Sequence[str],
    taxonomy: Taxonomy,
    today: dt.date,
    store: ResultCache | None = None,
    jobs: int | None = None,
    progress: Progress | None = None,
    extra: Extra | None = None,
    workers: Workers | None = None,
) -> list[Checked]:
    """`check_file` for every path, in order: from the cache where it holds the answer,
    the rest in worker processes (`workers`, or a pool of its own if it pays) or here."""
    day = today.isoformat()
    results: list[Checked | None] = [None] * len(paths)
    tasks: list[Task] = []
    payload = extra.payload if extra else None
    told = extra.kept if extra else None
    for index, (path, display) in enumerate(zip(paths, displays, strict=True)):
        kept = store.get(path, display, day) if store else None
        if kept is None:
            tasks.append((index, path, display, payload(path) if payload else None))
        else:
            results[index] = kept
            if told is not None and kept.digest is not None:
                told(path, kept.digest)
    done = len(paths) - len(tasks)
    if extra is not None and extra.order is not None:
        order = extra.order
        tasks.sort(key=lambda task: order(task[1]))
    compute = extra.compute if extra else None
    prefix = store.prefix if store else None
    hashed = store is not None or (extra is not None and extra.digest)
    checks = run_checks(tasks, taxonomy, today, jobs, prefix, compute, workers, hashed)
    for index, result in checks:
        result.decode_summary()  # (while the workers check the rest, see there)
        if extra is not None and result.extra is not None:
            extra.take(paths[index], result.extra)
            result.extra = None  # the caller has it now; results live to the end of the run
        results[index] = result
        if store:
            store.put(paths[index], day, result)
        done += 1
        if progress:
            progress(done, len(paths))
    if extra is not None and extra.checked is not None:
        extra.checked()
    assert all(result is not None for result in results)
    return results  # type: ignore[return-value]


def run_checks(
    tasks: Sequence[Task],
    taxonomy: Taxonomy,
    today: dt.date,
    jobs: int | None = None,
    cache_prefix: str | None = None,
    extra: Compute | None = None,
    workers: Workers | None = None,
    hashed: bool = True,
) -> Iterator[tuple[int, Checked]]:
    """(index, result) of each task, in order: in `workers`, else in worker processes of
    its own if it pays. With `cache_prefix` (results go to the cache, which keeps a file
    under its path after that prefix), workers also work out what the cache keeps; unless
    `hashed`, no file's digest (see `check_file`)."""
    if workers is None:
        with Workers(worker_count(len(tasks), PARALLEL_FROM, jobs)) as own:
            yield from run_checks(
                tasks, taxonomy, today, None, cache_prefix, extra, workers=own, hashed=hashed
            )
        return
    context = SentOnce((taxonomy, today, cache_prefix, extra, hashed))
    work = functools.partial(check_task, context=context)
    # Small chunks keep every worker busy to the end and the progress line moving.
    size = max(8, min(250, len(tasks) // (workers.count * 8)))
    yield from workers.in_order(work, tasks, size)


def check_task(task: Task, context: SentOnce[_Context]) -> tuple[int, Checked]:
    taxonomy, today, cache_prefix, extra, hashed = context.value
    index, path, display, payload = task
    result = check_file(Path(path), display, taxonomy, today, extra, payload, hashed)
    if cache_prefix is not None:  # what the cache keeps of it: worked out here, in a worker
        result.encode(cache_key(path, cache_prefix), today.isoformat())
    return index, result


def _order(finding: Finding) -> tuple[Any, ...]:
    return (finding.path, finding.line, finding.column, finding.code, finding.message)


def fold_unread_taxonomy(
    findings: Sequence[Finding], taxonomy: Taxonomy, cwd: Path | None = None
) -> list[Finding]:
    """`findings` as `curator lint` reports them: where a taxonomy file could not be read,
    every facet of its dimension is unknown (IL301) only because none of its terms is known,
    a hundred errors for the one at the file. Those are left out and said once, at the
    file's first IL303 error (added when the paths linted leave it out, so that the run
    still fails), with how many incidents and terms were not checked."""
    findings = list(findings)
    for dimension in DIMENSIONS:
        ending = unknown_term.unread_ending(taxonomy, dimension)
        if ending is None:
            continue
        unknown = unknown_term.RULE.code
        folded = [f for f in findings if f.code == unknown and f.message.endswith(ending)]
        if not folded:
            continue
        problem = next(p for p in taxonomy.problems if p.path.name == f"{dimension}.yaml")
        shown = display_path(problem.path, cwd)
        code = taxonomy_invalid.RULE.code
        first = min(
            (f for f in findings if f.path == shown and f.code == code),
            key=_order,
            default=taxonomy_invalid.RULE.at(shown, problem.position, problem.message),
        )
        incidents = len({f.path for f in folded})
        note = unknown_term.unread_note(dimension, incidents, len(folded))
        skipped = {*folded, first}
        findings = [f for f in findings if f not in skipped]
        findings.append(replace(first, message=first.message + note))
    return sorted(findings, key=_order)


def has_errors(findings: Iterable[Finding]) -> bool:
    return any(f.severity is Severity.ERROR for f in findings)
