"""The library at a commit, as the export sees it: listed with each file's git blob, dated,
and checked by lint. (The incidents are rendered by `curator.export.released`, each file
as lint parses it, so that no file is parsed twice.)

The export describes a commit, so the incident and taxonomy files on disk must be exactly
the committed ones; and it describes a release, so lint errors and placeholder ids stop it.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import TypeAdapter, ValidationError
from pydantic_core import to_json

from curator.export.errors import ExportError, ExportRefused
from curator.export.git import Commit, GitError, Repo
from curator.export.history import History, file_history
from curator.findings import Severity
from curator.library import INCIDENTS, Library
from curator.lint import Extra, lint
from curator.lint import Progress as Step
from curator.model import Incident
from curator.taxonomy import Taxonomy
from curator.workers import Workers

EXPORTED_STATUSES = ("published", "withdrawn")
# What the export reads; nothing else in the working tree matters to it.
TAXONOMY_FOLDER = "schema/taxonomy"
LIBRARY_CONTENT = (INCIDENTS, TAXONOMY_FOLDER)
_SHOWN_DIRTY = 10
SHA1_LENGTH = 40  # hex digits of a commit id in the export (`CommitSha`)


@dataclass(frozen=True)
class Snapshot:
    repo: Repo
    head: Commit
    version: str
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


def id_order(path: str) -> tuple[int, int, str]:
    """The export's order of incident files, by the number in their names (`id_number`);
    a name that holds none (which lint refuses for a release) after them, by name."""
    name = os.path.basename(path)
    number = name.removeprefix("IL-").removesuffix(".yaml")
    return (0, int(number), "") if number.isdigit() and number.isascii() else (1, 0, name)


def open_repo(library: Library) -> Repo:
    try:
        repo = Repo(library.root)
        dirty = repo.dirty(LIBRARY_CONTENT)
    except GitError as exc:
        raise ExportError(str(exc)) from exc
    if dirty:
        shown = ", ".join(dirty[:_SHOWN_DIRTY]) + (" …" if len(dirty) > _SHOWN_DIRTY else "")
        raise ExportError(
            f"{len(dirty)} file(s) under incidents/ or schema/taxonomy/ differ from the "
            f"commit ({shown}); an export describes a commit: commit them, or export from a "
            "clean clone"
        )
    return repo


def check_releasable(
    library: Library,
    cwd: Path | None = None,
    cache: bool = True,
    progress: Step | None = None,
    extra: Extra | None = None,
    workers: Workers | None = None,
) -> None:
    """Raise ExportRefused when `curator lint --release` would fail: any error, and
    placeholder ids (`IL-NEW-…`), which a release must not hold. With `cache`, lint keeps
    and uses its results in `.curator-cache/`, as `curator lint` does; files are checked
    in `workers`, if given (the export's, see `curator.export.export_workers`)."""
    findings = lint(
        library, cwd=cwd, release=True, cache=cache, progress=progress, extra=extra, workers=workers
    )
    errors = [f for f in findings if f.severity is Severity.ERROR]
    if errors:
        raise ExportRefused(errors)


def compact(data: Any) -> bytes:
    """`json.dumps(data, ensure_ascii=False, separators=(",", ":"))`, byte for byte, in
    UTF-8 (pydantic's serialiser, in Rust)."""
    return to_json(data)


def blob_id(raw: bytes) -> str:
    """git's object id of a file with these bytes (`git hash-object`): SHA-1, the only
    hash an export takes (`collect` refuses a SHA-256 repository)."""
    digest = hashlib.sha1(b"blob %d\0" % len(raw))
    digest.update(raw)
    return digest.hexdigest()


def released_data(incident: Incident) -> dict[str, Any]:
    """The incident's values as released: text without the line breaks at its end (a YAML
    block scalar, `|`, ends with one), so that the data does not depend on how the file was
    laid out."""
    data: dict[str, Any] = _trimmed(incident.model_dump())
    return data


def released_as_read(values: dict[str, Any]) -> dict[str, Any]:
    """As near to `released_data` as the values of a file that the model refuses allow
    (an incident released when a rule was looser): every field of an incident in order,
    each validated on its own and dumped as the model would, or else kept as read (text
    trimmed alike); a field the file lacks gets its default."""
    return {key: _field_as_read(key, values) for key in Incident.model_fields}


def _field_as_read(key: str, values: dict[str, Any]) -> Any:
    field = Incident.model_fields[key]
    if key not in values:
        return None if field.is_required() else field.get_default(call_default_factory=True)
    adapter = _field_adapter(key)
    try:
        return _trimmed(adapter.dump_python(adapter.validate_python(values[key])))
    except ValidationError:
        return _trimmed(values[key])


@functools.cache
def _field_adapter(key: str) -> TypeAdapter[Any]:
    field = Incident.model_fields[key]
    form: Any = Annotated[field.annotation, field]  # made at run time; its constraints
    return TypeAdapter(form)


def _trimmed(value: Any) -> Any:
    # Text items are trimmed in place of a call each: an incident holds dozens of them,
    # and this runs for every incident of an export (≈15% cheaper, 3,000 incidents).
    kind = type(value)
    if kind is str:
        return value.rstrip("\n")
    if kind is list:
        return [item.rstrip("\n") if type(item) is str else _trimmed(item) for item in value]
    if kind is dict:
        return {
            key: item.rstrip("\n") if type(item) is str else _trimmed(item)
            for key, item in value.items()
        }
    return value


def timestamp(when: dt.datetime) -> str:
    return when.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def collect(library: Library, version: str | None = None) -> Snapshot:
    """The commit the export describes, as git has it: its incident files and their blobs,
    their dates, the version. (Lint checks the files themselves: `check_releasable`.)"""
    repo = open_repo(library)
    try:
        head = repo.commit("HEAD")
        blobs = {entry.path: entry.blob for entry in repo.tree(head.sha, INCIDENTS)}
        if len(head.sha) != SHA1_LENGTH:
            # The export's schemas promise 40-digit SHA-1 commit ids: refused at once.
            raise ExportError(
                "the repository uses SHA-256 object ids; the export records commits as "
                "SHA-1 (40 hex digits), so export from a SHA-1 repository"
            )
        history = file_history(repo.file_events(INCIDENTS, head.sha))
        version = version or repo.describe(head.sha)
    except GitError as exc:
        raise ExportError(str(exc)) from exc
    # Paths are strings, as lint names them (making 100,000 Path objects and their stems
    # costs 0.2-0.4 s more), so that lint's results can be matched to them.
    folder = str(library.incidents_dir)
    files = sorted((f"{folder}{os.sep}{name}" for name in library.incident_names()), key=id_order)
    return Snapshot(repo, head, version, library.taxonomy, history, files, blobs)
