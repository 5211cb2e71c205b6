"""Run the rules over a library: files → load → model → rules → findings."""

from __future__ import annotations

import datetime as dt
import os
import traceback
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from curator.findings import Finding, Severity
from curator.library import Library
from curator.load import START, Loaded, load_bytes
from curator.model import Incident
from curator.rules import FILE_RULES, LIBRARY_RULES, internal_error, not_an_incident_file
from curator.rules.base import FileSummary, IncidentFile, LibraryView
from curator.schema_errors import SchemaError, describe_errors
from curator.taxonomy import Taxonomy


def display_path(path: Path, cwd: Path | None = None) -> str:
    return os.path.relpath(path, cwd or Path.cwd())


def validate(loaded: Loaded) -> tuple[Incident | None, list[SchemaError]]:
    document = loaded.document
    if document is None:
        return None, []
    if not isinstance(document.data, dict):
        kind = "a list" if isinstance(document.data, list) else "plain text"
        return None, [
            SchemaError((), f"an incident is a mapping of keys to values, not {kind}", False)
        ]
    try:
        return Incident.model_validate(document.data), []
    except ValidationError as exc:
        return None, describe_errors(exc, Incident)


def read_incident(path: Path, display: str, taxonomy: Taxonomy, today: dt.date) -> IncidentFile:
    loaded = load_bytes(path.read_bytes())
    incident, errors = validate(loaded)
    return IncidentFile(path, display, loaded, incident, errors, taxonomy, today)


def lint_file(
    path: Path, display: str, taxonomy: Taxonomy, today: dt.date
) -> tuple[list[Finding], FileSummary]:
    """Findings of the single-file rules, and what the cross-file rules need."""
    entry = list(not_an_incident_file.check_entry(path, display))
    if entry:
        return entry, FileSummary(display, path.stem)
    try:
        file = read_incident(path, display, taxonomy, today)
        findings = [finding for rule in FILE_RULES for finding in rule.check(file)]
        return findings, FileSummary.of(file)
    except OSError as exc:
        message = f"cannot read the file: {exc.strerror or exc}"
        return [not_an_incident_file.RULE.at(display, START, message)], FileSummary(
            display, path.stem
        )
    except Exception as exc:  # a bug in a rule must not stop the run
        return [_internal(display, exc)], FileSummary(display, path.stem)


def _internal(display: str, exc: BaseException) -> Finding:
    where = traceback.extract_tb(exc.__traceback__)[-1]
    message = (
        f"curator failed on this file ({type(exc).__name__}: {exc} at "
        f"{Path(where.filename).name}:{where.lineno}); please report this"
    )
    return internal_error.RULE.at(display, START, message)


def expand(paths: Iterable[Path]) -> list[Path]:
    """Files named on the command line; folders stand for the incident files inside."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir() and not path.name.startswith("IL-"):
            found += sorted(p for p in path.iterdir() if p.suffix in (".yaml", ".yml"))
        else:
            found.append(path)
    return found


def lint(
    library: Library,
    paths: Sequence[Path] = (),
    today: dt.date | None = None,
    cwd: Path | None = None,
) -> list[Finding]:
    """Every finding for `paths` (default: the whole library), with cross-file rules seeing
    the whole library either way."""
    today = today or dt.datetime.now(dt.UTC).date()
    taxonomy = library.taxonomy
    selected = [p.resolve() for p in expand(paths)]
    entries = list(dict.fromkeys([*library.incident_paths(), *selected]))
    findings: list[Finding] = []
    summaries: list[FileSummary] = []
    for path in entries:
        file_findings, summary = lint_file(path, display_path(path, cwd), taxonomy, today)
        findings += file_findings
        summaries.append(summary)
    view = LibraryView(
        summaries,
        taxonomy,
        {p: display_path(p, cwd) for p in library.taxonomy_dir.glob("*.yaml")},
    )
    for rule in LIBRARY_RULES:
        try:
            findings += rule.check_library(view)
        except Exception as exc:  # pragma: no cover - defensive, as in lint_file
            findings.append(_internal(display_path(library.root, cwd), exc))
    if selected:
        wanted = {display_path(p, cwd) for p in selected}
        findings = [f for f in findings if f.path in wanted]
    return sorted(set(findings), key=_order)


def _order(finding: Finding) -> tuple[Any, ...]:
    return (finding.path, finding.line, finding.column, finding.code, finding.message)


def has_errors(findings: Iterable[Finding]) -> bool:
    return any(f.severity is Severity.ERROR for f in findings)
