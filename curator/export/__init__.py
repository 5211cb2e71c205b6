"""`curator export`: the library at a commit as versioned, reproducible JSON for downstream tools.

collect (git) → lint, rendering each incident as its file is parsed and streaming it into
the files made of every incident (released, graph) → render the rest → changes → finish
each aggregate file → write atomically → manifest. What only the main process can do once
every file is checked runs while the workers, idle by then, write the caches.
The formats are documented in docs/export.md and published as JSON Schemas in
schema/export/, generated from `curator.export.model`, which every export ships in its own
schema/.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from curator import WEBSITE
from curator.export.build import Summary, json_bytes, published_terms, taxonomy_export
from curator.export.changes import ChangeLog
from curator.export.collect import Snapshot, check_releasable, checkout, collect, timestamp
from curator.export.errors import ExportError, ExportFailed, ExportRefused
from curator.export.feed import feed_bytes
from curator.export.git import Repo, TagNotText, shown
from curator.export.graph import GraphStream
from curator.export.model import SCHEMA_VERSION, Counts, Manifest
from curator.export.released import IncidentStream
from curator.export.released_cache import ReleasedCache
from curator.export.write import MANIFEST, ExportWriter
from curator.findings import Finding
from curator.library import Library
from curator.lint import PARALLEL_FROM
from curator.memory import without_cyclic_gc
from curator.progress import Progress
from curator.workers import Workers, worker_count

__all__ = ["ExportError", "ExportOptions", "ExportRefused", "Exported", "export"]


@dataclass(frozen=True)
class ExportOptions:
    version: str | None = None  # default: the tag at HEAD, else described from `since`'s
    since: str | None = None  # default: the previous `v*` tag
    base_url: str = WEBSITE
    cache: bool = True  # keep lint results and parsed incidents in .curator-cache/
    jobs: int | None = None  # worker processes; default: one per CPU for a large library
    progress: Callable[[str], Progress] | None = None  # a progress line for each long step


@dataclass(frozen=True)
class Exported:
    """What an export wrote (its manifest), and what `curator lint --release` said of the
    library on the way: warnings only, or the export would have been refused; and what it
    passed over, each a note for the user (`notes`)."""

    manifest: Manifest
    findings: list[Finding]
    notes: list[str] = field(default_factory=list)


def export(
    library: Library,
    out: Path,
    options: ExportOptions = ExportOptions(),
    cwd: Path | None = None,
    held: list[object] | None = None,
) -> Exported:
    """Export the library at HEAD into `out`; raise ExportRefused or ExportError instead.
    `held`: a list to leave what the export made in, rather than free it as this returns,
    for a caller whose process ends next (the CLI, `curator.cli.run`): at 100,000
    incidents, Python takes 0.24 s to free it, one object at a time, and 0.3 s more to free
    lint's results (`curator.lint.lint`), which are then kept too."""
    # Before the slow part: a wrong --out should fail at once. (Checked once: it reads the
    # export it replaces, 0.2 s at 100,000 incidents.)
    writer = ExportWriter(out, (library.incidents_dir, library.taxonomy_dir))
    library = library.listed()  # (for the workers' count, the snapshot and lint alike)
    repo = checkout(library)
    # The workers write into the writer's temporary folder: they are stopped first (on an
    # error or Ctrl-C, once their chunks are done), then the folder is swapped in or
    # deleted. Deleted while they wrote on, it was left beside `--out`, half full.
    with _noting(repo), writer, export_workers(library, options.jobs) as workers:
        snapshot = collect(library, repo, options.version)
        changelog = ChangeLog(snapshot, options.since)
        with (
            ReleasedCache(library, options.cache) as cache,
            GraphStream(writer) as graph,
            without_cyclic_gc(),
        ):
            stream = IncidentStream(writer, snapshot, cache, changelog.observe, graph.add)
            with stream as incidents:
                # Lint renders each incident as it parses its file: one pass over the files.
                with _progress(options, "linting") as progress:
                    extra = incidents.extra(workers)
                    findings = check_releasable(
                        library, cwd, options.cache, progress, extra, workers, held
                    )
                with _progress(options, "exporting") as progress:
                    summaries = incidents.finish(workers, progress)
            manifest = _write_the_rest(writer, graph, snapshot, changelog, summaries, options)
    if held is not None:
        held += [snapshot, changelog, cache, writer, stream, summaries]
    return Exported(manifest, findings, _notes(snapshot.repo.not_text))


def _notes(not_text: list[str]) -> list[str]:
    """What the export passed over that the user may not expect it to: the `v*` tags whose
    names are not UTF-8, which it takes for no release (`Repo.not_text`)."""
    return [
        f"the tag {shown(tag)} is not UTF-8 text, which the export cannot record: passed "
        "over, as no release (rename it, if it is one)"
        for tag in not_text
    ]


@contextmanager
def _noting(repo: Repo) -> Iterator[None]:
    """An export that fails says too what it had passed over by then (`_notes`), as one
    that does not: a dirty checkout, say, was named alone. (Not the tag the failure is
    about: that it could not be passed over where it was met is the failure.)"""
    try:
        yield
    except ExportFailed as failed:
        cause = failed.__cause__
        about = cause.tag if isinstance(cause, TagNotText) else None
        failed.notes = tuple(_notes([tag for tag in repo.passed_over() if shown(tag) != about]))
        raise


def export_workers(library: Library, jobs: int | None = None) -> Workers:
    """The one pool of worker processes that checks the files (lint) and then renders the
    incidents. Start it (enter the result) before anything large is read: a worker forked
    later would map all of it too. One pool, not one each: a second pool would be forked
    while this one's threads run, which Python 3.12 and later warn of (a lock another
    thread holds stays held in the child), and starting the workers once is cheaper."""
    return Workers(worker_count(len(library.incident_names()), PARALLEL_FROM, jobs))


def _write_the_rest(
    writer: ExportWriter,
    graph: GraphStream,
    snapshot: Snapshot,
    changelog: ChangeLog,
    summaries: list[Summary],
    options: ExportOptions,
) -> Manifest:
    """The files made from every incident's summary, and the manifest, last."""
    changes = changelog.result()
    carriers = published_terms(summaries)  # (for both files: 0.3 s at 100,000 incidents)
    taxonomy = taxonomy_export(snapshot.taxonomy, carriers)
    writer.write("taxonomy.json", json_bytes(taxonomy))
    graph.finish(snapshot.taxonomy, summaries, carriers)
    writer.write("changes.json", json_bytes(changes))
    generated_at = timestamp(snapshot.head.time)
    writer.write("feed.atom", feed_bytes(changes, generated_at, options.base_url))
    # Imported here, not at the top: `python -m curator.export.schema --write` warns when
    # the package it runs in has imported it already.
    from curator.export.schema import SCHEMAS, SHIPPED, render

    for name in SCHEMAS:  # (12 ms for the six, whatever the library's size)
        writer.write(f"{SHIPPED}/{name}", render(name).encode())
    published = sum(summary.status == "published" for summary in summaries)
    manifest = Manifest(
        schema_version=SCHEMA_VERSION,
        version=snapshot.version,
        commit=snapshot.head.sha,
        generated_at=generated_at,
        counts=Counts(
            incidents=len(summaries),
            published=published,
            withdrawn=len(summaries) - published,
            terms=sum(len(d.terms) for d in taxonomy.dimensions),
            changes=len(changes.changes),
        ),
        files=sorted(writer.files, key=lambda file: file.path),
    )
    writer.write(MANIFEST, json_bytes(manifest))
    return manifest


def _progress(options: ExportOptions, what: str) -> AbstractContextManager[Progress | None]:
    return options.progress(what) if options.progress else nullcontext()
