"""JSON Schemas of the export's JSON files, generated from `curator.export.model`.

`python -m curator.export.schema --write` refreshes `schema/export/`; a test fails when
the committed files drift from the models. Every export ships the same bytes in its own
`schema/` folder (`SHIPPED`), listed in its manifest, so a consumer validates each file
against the schema it was written with. No `$id`: a schema is named by the address it is
read from (`<pages>/vX.Y.Z/schema/…` once released), and its `$ref`s stay inside it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from curator.export.model import (
    OPEN_SET,
    Changes,
    ExportedIncident,
    Graph,
    IncidentsFile,
    Manifest,
    TaxonomyExport,
)
from curator.schema import DRAFT, main, schema_text, write_all

FOLDER = "export"
SHIPPED = "schema"  # the folder of an export that holds its schemas
(_OPEN_SET,) = OPEN_SET
# Schema file name → the model it describes; docs/export.md says which export file uses it.
SCHEMAS: dict[str, type[BaseModel]] = {
    "incident.schema.json": ExportedIncident,
    "incidents.schema.json": IncidentsFile,
    "taxonomy.schema.json": TaxonomyExport,
    "graph.schema.json": Graph,
    "changes.schema.json": Changes,
    "manifest.schema.json": Manifest,
}
# Export file → the schema it is valid against (incidents/*.json all use incident.schema.json).
FILE_SCHEMAS = {
    "incidents.json": "incidents.schema.json",
    "taxonomy.json": "taxonomy.schema.json",
    "graph.json": "graph.schema.json",
    "changes.json": "changes.schema.json",
    "manifest.json": "manifest.schema.json",
}


def schema_for(path: str) -> str | None:
    """The schema file of an export file, by its path in the export (in `SHIPPED` there);
    None for CSV, Atom and the schemas themselves."""
    if path.startswith("incidents/") and path.endswith(".json"):
        return "incident.schema.json"
    return FILE_SCHEMAS.get(path)


def json_schema(name: str) -> dict[str, Any]:
    """The schema of what the export writes: every key of every object is always present
    (absent values are `null` or `[]`), so every property is required; and what a later
    1.x version may add passes it (`_forward_compatible`)."""
    body = SCHEMAS[name].model_json_schema(mode="serialization")
    return {"$schema": DRAFT, **_forward_compatible(_all_required(body))}


def _forward_compatible(node: Any) -> Any:
    """A consumer may validate with the schema of an earlier 1.x version, which must then
    accept what a minor version adds (docs/export.md): a key it does not know, in any
    object (consumers ignore it), and a new value of an open set (`OPEN_SET`), whose
    known values are listed as `examples` instead of an `enum`."""
    if isinstance(node, list):
        return [_forward_compatible(item) for item in node]
    if not isinstance(node, dict):
        return node
    result = {
        key: _forward_compatible(value)
        for key, value in node.items()
        if not (key == "additionalProperties" and value is False)
    }
    if result.pop(_OPEN_SET, False):
        result["examples"] = result.pop("enum")
    return result


def _all_required(node: Any) -> Any:
    if isinstance(node, list):
        return [_all_required(item) for item in node]
    if not isinstance(node, dict):
        return node
    result = {key: _all_required(value) for key, value in node.items()}
    if isinstance(node.get("properties"), dict) and node.get("type") == "object":
        result["required"] = list(node["properties"])
    return result


def render(name: str) -> str:
    return schema_text(json_schema(name))


def write(folder: Path) -> list[Path]:
    return write_all(folder, SCHEMAS, render)


if __name__ == "__main__":
    main(write, Path("schema") / FOLDER, "curator.export.schema")
