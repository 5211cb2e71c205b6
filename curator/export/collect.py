"""The library at a commit, as the export sees it: listed with each file's git blob, dated,
and checked by lint. (The incidents are rendered by `curator.export.released`, each file
as lint parses it, so that no file is parsed twice.)

The export describes a commit, so the incident and taxonomy files on disk must be exactly
the committed ones; and it describes a release, so lint errors and placeholder ids stop it.
"""

from __future__ import annotations

import datetime as dt
import functools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import to_json

from curator.export.errors import ExportError, ExportRefused
from curator.export.git import Commit, GitError, Repo, TagNotText
from curator.export.history import History, file_history
from curator.export.model import ExportedIncident
from curator.export.versions import latest_version, previous_release, versions_below
from curator.findings import Finding, Severity
from curator.library import INCIDENTS, Library
from curator.lint import Extra, lint
from curator.lint import Progress as Step
from curator.model import Facets, Incident
from curator.repository import blob_id
from curator.taxonomy import Taxonomy
from curator.workers import Workers

EXPORTED_STATUSES = ("published", "withdrawn")
# What the export reads; nothing else in the working tree matters to it.
TAXONOMY_FOLDER = "schema/taxonomy"
LIBRARY_CONTENT = (INCIDENTS, TAXONOMY_FOLDER)
_SHOWN_DIRTY = 10
# Lists an incident may leave out or write empty (`follow_ups: []`, or `actions: []` in a
# withdrawn incident): both say there were none, which the export writes one way, `null`.
NONE_WHEN_EMPTY = ("actions", "follow_ups")
SHA1_LENGTH = 40  # hex digits of a commit id in the export (`CommitSha`)


@dataclass(frozen=True)
class Snapshot:
    repo: Repo
    head: Commit
    version: str
    release_before: str | None  # the default `since` of changes.json (`release_before`)
    tags: list[str]  # the repository's `v*` tags (`Repo.tags`)
    taxonomy: Taxonomy
    history: History
    files: list[str]  # every incident file's path, by id number; drafts are skipped when read
    blobs: dict[str, str]  # git's object id of each incident file at HEAD, by path

    def dates(self) -> dict[str, tuple[str, str]]:
        """(added, modified) of each incident file with a commit, by file name."""
        stamps = functools.cache(timestamp)  # most commits touch many files
        folder = f"{INCIDENTS}/"
        return {
            path.removeprefix(folder): (stamps(dates.added), stamps(dates.modified))
            for path, dates in self.history.dates.items()
            if path.startswith(folder)
        }


def id_number(incident_id: str) -> int:
    """The sort key of a numbered id: IL-9999 comes before IL-10000."""
    return int(incident_id.removeprefix("IL-"))


def name_order(name: str) -> tuple[int, int, str]:
    """The export's order of incident files, by the number in their names (`id_number`);
    a name that holds none (which lint refuses for a release) after them, by name."""
    number = name.removeprefix("IL-").removesuffix(".yaml")
    return (0, int(number), "") if number.isdigit() and number.isascii() else (1, 0, name)


def file_name(path: str) -> str:
    """The name of a file the export lists (`Snapshot.files`: a folder, `os.sep`, the
    name): `os.path.basename`, without what it does for any path, which is most of its
    cost, asked twice for each file the export renders."""
    return path[path.rfind(os.sep) + 1 :]


def _shown(paths: list[str]) -> str:
    """The first of `paths` a refusal names, and `…` for the rest."""
    return ", ".join(paths[:_SHOWN_DIRTY]) + (" …" if len(paths) > _SHOWN_DIRTY else "")


def refuse_dirty(dirty: list[str]) -> None:
    """An export describes a commit: the files it reads must be the committed ones."""
    if dirty:
        raise ExportError(
            f"{len(dirty)} file(s) under incidents/ or schema/taxonomy/ differ from the "
            f"commit ({_shown(dirty)}); an export describes a commit: commit them, or export "
            "from a clean clone"
        )


def refuse_attributes(dirty: list[str]) -> None:
    """A `.gitattributes` that is not the commit's (`Repo.attribute_files`) may have had git
    check out files as other bytes than the commit holds, or leave `Repo.converted` blind
    to files that another had git check out so: `git status` calls those unchanged."""
    if dirty:
        raise ExportError(
            f"{_shown(dirty)} {'differs' if len(dirty) == 1 else 'differ'} from the commit, "
            "so git may have checked files out under other attributes than the commit's, "
            "which git counts unchanged; an export describes a commit: commit the change or "
            "undo it, or export from a clean clone"
        )


def refuse_unwatched(unwatched: list[tuple[str, str]]) -> None:
    """A file git does not compare with the commit may differ from it unseen (`dirty`
    cannot tell), or, in a sparse checkout, not be there at all."""
    if unwatched:
        marked = [f"{path} ({mark})" for path, mark in unwatched]
        raise ExportError(
            f"{len(unwatched)} file(s) under incidents/ or schema/taxonomy/ are marked for "
            f"git not to compare with the commit ({_shown(marked)}); an export describes a "
            "commit: clear the marks (git update-index --no-assume-unchanged or "
            "--no-skip-worktree; git sparse-checkout disable), or export from a clean clone"
        )


def refuse_converted(
    root: Path,
    repo: Repo,
    rev: str,
    converted: list[tuple[str, str]],
    changed: str | None = None,
) -> None:
    """`git status` compares a file as git would store it: one that an attribute has git
    check out as other bytes (`Repo.converted`) is unchanged to it, and is not the commit's
    as lint reads it. Those files, and only those, are compared byte for byte (`blob_id`);
    every file, when `changed`, a commit that changed such attributes
    (`Repo.converting_change`): the files may have been checked out under others."""
    if not converted and changed is None:
        return  # (nearly every library: no file to read)
    held = {entry.path: entry for folder in LIBRARY_CONTENT for entry in repo.tree(rev, folder)}
    if changed is not None:
        named = dict(converted)
        since = f"attributes changed by {changed[:12]}"
        converted = [(path, named.get(path, since)) for path in held]
    other = []
    for path, attribute in converted:
        entry = held.get(path)  # (a file the commit lacks is `dirty`)
        if entry and blob_id(str(root / path), entry.link, entry.blob) != entry.blob:
            other.append(f"{path} ({attribute})")
    if other:
        raise ExportError(
            f"{len(other)} file(s) under incidents/ or schema/taxonomy/ hold other bytes than "
            f"the commit ({_shown(other)}), though git counts them unchanged (it compares them "
            "as it would store them, the attribute's conversion undone); an export describes "
            "a commit: export from a clone checked out without such conversions"
        )


def check_releasable(
    library: Library,
    cwd: Path | None = None,
    cache: bool = True,
    progress: Step | None = None,
    extra: Extra | None = None,
    workers: Workers | None = None,
    held: list[object] | None = None,
) -> list[Finding]:
    """What `curator lint --release` reports (warnings: it would pass); ExportRefused, with
    all of it, when it would fail: any error, and placeholder ids (`IL-NEW-…`), which a
    release must not hold. With `cache`, lint keeps
    and uses its results in `.curator-cache/`, as `curator lint` does; files are checked
    in `workers`, if given (the export's, see `curator.export.export_workers`); `held`, as
    `lint` has it."""
    findings = lint(
        library,
        cwd=cwd,
        release=True,
        cache=cache,
        progress=progress,
        extra=extra,
        workers=workers,
        held=held,
    )
    if any(f.severity is Severity.ERROR for f in findings):
        raise ExportRefused(findings)
    return findings


def compact(data: Any) -> bytes:
    """`json.dumps(data, ensure_ascii=False, separators=(",", ":"))`, byte for byte, in
    UTF-8 (pydantic's serialiser, in Rust)."""
    return to_json(data)


def released_data(incident: Incident) -> dict[str, Any]:
    """The incident's values as released: text without the line breaks at its end (a YAML
    block scalar, `|`, ends with one), so that the data does not depend on how the file was
    laid out; each facet's terms once (`_facet_lists_once`); an empty `actions` or
    `follow_ups` as `None`, as one left out (`_none_when_empty`)."""
    data: dict[str, Any] = trimmed(incident.model_dump())
    data["facets"] = _facet_lists_once(data["facets"])
    return _none_when_empty(data)


def _none_when_empty(values: dict[str, Any]) -> dict[str, Any]:
    """`values` with an empty list of `NONE_WHEN_EMPTY` made `None`, as if left out."""
    for name in NONE_WHEN_EMPTY:
        if values[name] == []:
            values[name] = None
    return values


def asks(field: FieldInfo | None) -> tuple[object, list[object]] | None:
    """What a field asks of a value: its type and constraints (patterns, validators)."""
    return None if field is None else (field.annotation, field.metadata)


# What `ExportedIncident` asks of an incident beyond what `Incident` asked: the fields it
# adds (the dates) or asks more of (numbered ids, no draft); every other field asks
# exactly what `Incident`'s does (tests/test_export_speed_equivalence.py holds this).
STRICTER = tuple(
    name
    for name, field in ExportedIncident.model_fields.items()
    if asks(field) != asks(Incident.model_fields.get(name))
)
_FORMS: Any = tuple(
    Annotated[ExportedIncident.model_fields[name].annotation, ExportedIncident.model_fields[name]]
    for name in STRICTER
)
_STRICTER_CHECK: TypeAdapter[Any] = TypeAdapter(tuple[_FORMS])  # (made at run time)
# A model to copy, updated with every field's value (`exported_incident`): a model built
# from values known to be valid. Its values hold the fields' places, in order (the order
# the model is serialised in), and its set fields are all of them, as they are for a model
# validated from a dump.
_BLANK = ExportedIncident.model_construct(**dict.fromkeys(ExportedIncident.model_fields))


def exported_incident(incident: Incident, added: str, modified: str) -> ExportedIncident | None:
    """`ExportedIncident.model_validate({**released_data(incident), "added": added,
    "modified": modified})`, an equal model, for an incident just validated (never for
    data read from elsewhere, the cache say); None where that would refuse it (then
    validate it, for the error).

    At 100,000 incidents, validating each again costs a second or more, and checks nothing
    new but `STRICTER`'s fields, checked here by pydantic as `ExportedIncident` checks them:
    - every other field asks what `Incident`'s asks, which `incident` passed;
    - trimming keeps a value valid. Only line feeds at the end go: a `Text` holds one
      character that is neither invisible (a line feed is) nor a control character, then
      anything but control characters, so it still does; a plain `str` asks nothing; and
      no value with a pattern of ASCII letters, digits and `-` (ids, dates, term ids,
      languages) ends with a line feed to lose (pydantic's `$` is the end of the text);
      a facet's repeats go, which leaves each list as long as it must be (one term);
      an empty `actions` or `follow_ups` becomes `None`, which both fields allow;
    - neither model has validators of its own (model or field validators), which a test
      holds them to.
    The nested models are `incident`'s own where trimming changed nothing (frozen, equal to
    those validated again; only their `model_fields_set`, which the export never reads,
    names the fields the file gave instead of all)."""
    values = _none_when_empty(_trimmed_fields(incident))
    values["added"], values["modified"] = added, modified
    try:
        _STRICTER_CHECK.validate_python(tuple(values[name] for name in STRICTER))
    except ValidationError:
        return None
    return _BLANK.model_copy(update=values)


def _trimmed_fields(model: BaseModel) -> dict[str, Any]:
    """`trimmed(model.model_dump())`, but a nested model stays a model (`_trimmed_model`).
    A loop, not a call per value: an incident has 17 fields, most of them text or None."""
    values = dict(model.__dict__)
    for name, value in values.items():  # (replacing values, never adding keys)
        kind = type(value)
        if kind is str:
            values[name] = value.rstrip("\n")
        elif kind is list:
            values[name] = [
                item.rstrip("\n") if type(item) is str else _trimmed_model(item) for item in value
            ]
        elif value is not None:
            values[name] = _trimmed_model(value)
    return values


def _trimmed_model(value: Any) -> Any:
    """A nested model trimmed: itself if trimming changes none of its values (frozen), else
    a copy with them trimmed; any other value as `trimmed` gives it."""
    if not isinstance(value, BaseModel):
        return trimmed(value)
    if type(value) is Facets:
        return _terms_once(value)  # term ids, which their pattern keeps from ending in "\n"
    fields = value.__dict__
    for item in fields.values():
        if item is not None and (type(item) is not str or item[-1:] == "\n"):
            break  # something to trim, or to look into
    else:
        return value  # nulls and text that ends in no line feed (a source, mostly)
    values = _trimmed_fields(value)
    return value if values == fields else value.model_copy(update=values)


def _terms_once(facets: Facets) -> Facets:
    """The facets as released: each term once, where the list first names it. A term
    listed twice is a warning (IL304), which a release allows; exported twice, it was one
    facet in graph.json and taxonomy.json, two in incidents.json and the CSV."""
    causes, components, symptoms, factors = facets.__dict__.values()
    terms = [*causes, *components, *symptoms, *factors]
    if len(set(terms)) == len(terms):
        return facets  # (nearly every incident: one set, not one a dimension)
    return facets.model_copy(update=_facet_lists_once(facets.__dict__))


def _facet_lists_once(facets: Any) -> Any:
    """`_terms_once` of facets as data: each list of text without its repeats; any other
    value (a file's as read, which the model refused) as it is."""
    if not isinstance(facets, dict):
        return facets
    return {
        dimension: list(dict.fromkeys(terms))
        if isinstance(terms, list) and all(type(term) is str for term in terms)
        else terms
        for dimension, terms in facets.items()
    }


def released_as_read(values: dict[str, Any]) -> dict[str, Any]:
    """As near to `released_data` as the values of a file that the model refuses allow
    (an incident released when a rule was looser): every field of an incident in order,
    each validated on its own and dumped as the model would, or else kept as read (text
    trimmed alike, facets' repeats dropped); a field the file lacks gets its default."""
    data = {key: _field_as_read(key, values) for key in Incident.model_fields}
    data["facets"] = _facet_lists_once(data["facets"])
    return _none_when_empty(data)


def _field_as_read(key: str, values: dict[str, Any]) -> Any:
    field = Incident.model_fields[key]
    if key not in values:
        return None if field.is_required() else field.get_default(call_default_factory=True)
    adapter = _field_adapter(key)
    try:
        return trimmed(adapter.dump_python(adapter.validate_python(values[key])))
    except ValidationError:
        return trimmed(values[key])


@functools.cache
def _field_adapter(key: str) -> TypeAdapter[Any]:
    field = Incident.model_fields[key]
    form: Any = Annotated[field.annotation, field]  # made at run time; its constraints
    return TypeAdapter(form)


def trimmed(value: Any) -> Any:
    # Text items are trimmed in place of a call each: an incident holds dozens of them,
    # and this runs for every incident of an export (≈15% cheaper, 3,000 incidents).
    kind = type(value)
    if kind is str:
        return value.rstrip("\n")
    if kind is list:
        return [item.rstrip("\n") if type(item) is str else trimmed(item) for item in value]
    if kind is dict:
        return {
            key: item.rstrip("\n") if type(item) is str else trimmed(item)
            for key, item in value.items()
        }
    return value


def released_taxonomy(taxonomy: Taxonomy) -> Taxonomy:
    """The terms as released: their text without the line breaks at its end, as an
    incident's (`released_data`), so that a `description: |` block exports what a plain
    value does. (Trimming keeps a `Text` valid: see `exported_incident`.)"""
    return Taxonomy(
        terms={
            dimension: {term_id: _trimmed_model(term) for term_id, term in terms.items()}
            for dimension, terms in taxonomy.terms.items()
        }
    )


def timestamp(when: dt.datetime) -> str:
    return when.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def attribute_paths(repo: Repo) -> tuple[str, ...]:
    """Every attributes file of the repository that may name a file the export reads: those
    above its folders (`Repo.attribute_files`) and those in them; as pathspecs."""
    inside = (f":(glob){folder}/**/.gitattributes" for folder in LIBRARY_CONTENT)
    return (*repo.attribute_files(*LIBRARY_CONTENT), *inside)


def checkout(library: Library) -> Repo:
    """The git checkout that holds the library, or why there is none to export from."""
    try:
        return Repo(library.root)
    except GitError as exc:
        raise ExportError(str(exc)) from exc


def collect(library: Library, repo: Repo, version: str | None = None) -> Snapshot:
    """The commit the export describes, as git has it (`repo`, the library's checkout): its
    incident files and their blobs, their dates, the version. (Lint checks the files
    themselves: `check_releasable`.)"""
    try:
        with (
            repo.dirty(LIBRARY_CONTENT) as dirty,  # (answered last: see `Repo.dirty`)
            repo.dirty(repo.attribute_files(*LIBRARY_CONTENT)) as attributes,
            repo.unwatched(LIBRARY_CONTENT) as unwatched,
            repo.converted(LIBRARY_CONTENT) as converted,
            repo.converting_change(attribute_paths(repo)) as changed,
        ):
            head = repo.commit("HEAD")
            if len(head.sha) != SHA1_LENGTH:
                # The export's schemas promise 40-digit SHA-1 commit ids: refused at once.
                raise ExportError(
                    "the repository uses SHA-256 object ids; the export records commits as "
                    "SHA-1 (40 hex digits), so export from a SHA-1 repository"
                )
            # Both asked at once: git works out the history while this reads the listing.
            with (
                repo.listing(head.sha, INCIDENTS) as listing,
                repo.log(INCIDENTS, head.sha) as log,
            ):
                blobs = {entry.path: entry.blob for entry in listing.result()}
                history = file_history(log.result())
            tags = repo.tags()
            version, before = recorded_version(repo, head.sha, tags, version)
            refuse_dirty(dirty.result())
            refuse_attributes(attributes.result())
            refuse_unwatched(unwatched.result())
            refuse_converted(library.root, repo, head.sha, converted.result(), changed.result())
    except GitError as exc:
        raise ExportError(str(exc)) from exc
    # Paths are strings, as lint names them (making 100,000 Path objects and their stems
    # costs 0.2-0.4 s more), so that lint's results can be matched to them.
    folder = str(library.incidents_dir)
    names = sorted(library.incident_names(), key=name_order)
    files = [f"{folder}{os.sep}{name}" for name in names]
    taxonomy = released_taxonomy(library.taxonomy)
    return Snapshot(repo, head, version, before, tags, taxonomy, history, files, blobs)


def recorded_version(
    repo: Repo, rev: str, tags: list[str], version: str | None = None
) -> tuple[str, str | None]:
    """The version an export of `rev` records (`version` if given: else the tag at `rev`,
    of the highest version if it has several, a release before its candidates; else `git
    describe` from the release it compares with, see `release_before`), and that release."""
    given = version
    try:
        version = version or latest_version(repo.tags_at(rev)) or repo.describe(rev)
    except TagNotText as exc:  # (the tag that `describe` names it by: --version names it)
        raise TagNotText(exc.tag, "rename it, or give --version") from None
    before = release_before(repo, rev, version, tags)
    if given is None and version not in tags and before is not None:
        version = repo.describe(rev, match=before)
    return version, before


def release_before(repo: Repo, rev: str, version: str, tags: list[str]) -> str | None:
    """The release `changes.json` compares with by default: for an export of a version's
    tag, the tag of the version before it, wherever in the history; else (between releases)
    the tag of the highest version in the history of the exported commit's parents (both of
    a merge, which may bring in a hotfix from a release branch), where the nearest could be
    a hotfix merged back below a release made since; and when neither is, the nearest `v*`
    tag there. A release whose versions below are all pre-releases (its own candidates) is
    the first: None, where the nearest tag was a candidate it passes over. Between
    releases, the default version is `git describe` from it, so that it names the release
    compared with."""
    if version in tags:
        below = versions_below(version, tags)
        return previous_release(version, below) if below else repo.nearest_tag(rev)
    return latest_version(repo.tags_before(rev)) or repo.nearest_tag(rev)
