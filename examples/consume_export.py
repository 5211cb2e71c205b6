#!/usr/bin/env python3
"""Read an Incident Library export using nothing but the Python standard library.

    python3 examples/consume_export.py EXPORT_DIR [--component TERM_ID | --id IL-NNNN]

1. Checks that the export's schema version is one this reader understands (same major).
2. Verifies every file listed in manifest.json (its size and SHA-256), and that the files
   it reads are among them.
3. Lists the published incidents by component, in taxonomy order; or, with --id, shows
   the incident to cite for that id: a withdrawn duplicate is followed to the incident it
   duplicates, and an id the export does not hold (a draft) is shown as not available.

Exit status: 0 verified, 1 the export failed verification, 2 usage error.
Copy and adapt it freely; docs/export.md describes every file it reads.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path, PurePosixPath
from typing import Any

SUPPORTED_MAJOR = 1  # schema_version 1.x.y: later minor versions only add fields
READ = ("incidents.json", "taxonomy.json")  # the files this reader uses, besides the manifest
Json = dict[str, Any]  # a JSON object


def load_json(folder: Path, name: str) -> Json:
    with (folder / name).open(encoding="utf-8") as stream:
        data: Json = json.load(stream)
        return data


def verify(folder: Path, manifest: Json) -> list[str]:
    """What is wrong with the export; empty when the manifest lists the files this reader
    uses and every file it lists matches it."""
    try:
        return _verify(folder, manifest)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return [f"manifest.json: not the manifest of an export ({type(exc).__name__}: {exc})"]


def _verify(folder: Path, manifest: Json) -> list[str]:
    major = int(manifest["schema_version"].split(".")[0])
    if major != SUPPORTED_MAJOR:
        return [f"schema_version {manifest['schema_version']} is not {SUPPORTED_MAJOR}.x"]
    listed = {entry["path"] for entry in manifest["files"]}
    problems = [f"{name}: not listed in manifest.json" for name in READ if name not in listed]
    for entry in manifest["files"]:
        relative = PurePosixPath(entry["path"])
        if relative.is_absolute() or ".." in relative.parts:
            problems.append(f"{entry['path']}: not a path inside the export")
            continue
        path = folder.joinpath(*relative.parts)
        if not path.is_file():
            problems.append(f"{entry['path']}: missing")
            continue
        data = path.read_bytes()
        if len(data) != entry["size"]:
            problems.append(f"{entry['path']}: {len(data)} bytes, manifest says {entry['size']}")
        elif hashlib.sha256(data).hexdigest() != entry["sha256"]:
            problems.append(f"{entry['path']}: SHA-256 does not match the manifest")
    return problems


def incidents_by_component(incidents: list[Json], taxonomy: Json) -> list[tuple[Json, list[Json]]]:
    """(component term, its published incidents), in taxonomy order, terms in use only."""
    published = [incident for incident in incidents if incident["status"] == "published"]
    components = next(d for d in taxonomy["dimensions"] if d["id"] == "components")
    grouped = []
    for term in components["terms"]:
        carriers = [i for i in published if term["id"] in i["facets"]["components"]]
        if carriers:
            grouped.append((term, carriers))
    return grouped


def to_cite(incident_id: str, by_id: dict[str, Json]) -> tuple[list[str], Json | None]:
    """The ids followed from `incident_id` through `duplicate_of` while the incident is
    withdrawn, and the incident reached (None: not in this export, a draft perhaps)."""
    path = [incident_id]
    incident = by_id.get(incident_id)
    while incident and incident["status"] == "withdrawn" and incident["duplicate_of"]:
        if incident["duplicate_of"] in path:
            break  # a loop, which lint refuses (IL403) in a release: stop at the last one
        path.append(incident["duplicate_of"])
        incident = by_id.get(incident["duplicate_of"])
    return path, incident


def show(incident_id: str, incidents: list[Json]) -> None:
    by_id = {incident["id"]: incident for incident in incidents}
    path, incident = to_cite(incident_id, by_id)
    if len(path) > 1:
        print(" → ".join(path) + " (withdrawn as a duplicate; cite the last)")
    if incident is None:
        print(f"{path[-1]}: not available (not in this export: a draft, or no such incident)")
        return
    print(f"{incident['id']}  {incident['status']}  {incident['title']}")
    for related in incident["related"]:
        title = by_id[related]["title"] if related in by_id else "(not available)"
        print(f"  related {related}  {title}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("export_dir", type=Path)
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--component", help="list only this component term id")
    choice.add_argument("--id", help="show the incident to cite for this id")
    args = parser.parse_args(argv)
    if not (args.export_dir / "manifest.json").is_file():
        print(f"{args.export_dir}: no manifest.json; is this an export?", file=sys.stderr)
        return 2
    manifest = load_json(args.export_dir, "manifest.json")
    problems = verify(args.export_dir, manifest)
    if problems:
        for problem in problems:
            print(f"FAILED {problem}", file=sys.stderr)
        return 1
    print(
        f"Incident Library {manifest['version']} (commit {manifest['commit'][:12]}, "
        f"{manifest['generated_at']}), schema {manifest['schema_version']}: "
        f"{len(manifest['files'])} files verified"
    )
    incidents = load_json(args.export_dir, "incidents.json")["incidents"]
    if args.id:
        show(args.id, incidents)
        return 0
    taxonomy = load_json(args.export_dir, "taxonomy.json")
    grouped = incidents_by_component(incidents, taxonomy)
    if args.component and not any(term["id"] == args.component for term, _ in grouped):
        print(f"no published incident carries the component {args.component}", file=sys.stderr)
        return 2
    for term, carriers in grouped:
        if args.component and term["id"] != args.component:
            continue
        ko, en = term["label"]["ko"], term["label"]["en"]
        label = ko if ko == en else f"{ko} / {en}"
        print(f"\n{label} ({term['id']}): {len(carriers)}")
        for incident in carriers:
            print(f"  {incident['id']}  {incident['occurred'] or '-':<10}  {incident['title']}")
    return 0


if __name__ == "__main__":
    try:
        status = main(sys.argv[1:])
        sys.stdout.flush()  # here, where a closed pipe can still be caught
    except BrokenPipeError:  # the reader went away (`... | head`): not an error of the export
        # Point stdout at devnull, or flushing it at exit would fail a second time.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 0
    sys.exit(status)
