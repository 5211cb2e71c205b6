"""JSON Schemas of the file formats, generated from the pydantic models.

`python -m curator.schema --write` refreshes `schema/*.schema.json`; a test fails when the
committed files drift from the models.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from curator.model import Incident, TaxonomyFile

BASE_ID = "https://incident-library.github.io/schema/"
SCHEMAS: dict[str, type[BaseModel]] = {
    "incident.schema.json": Incident,
    "taxonomy.schema.json": TaxonomyFile,
}


def json_schema(model: type[BaseModel], name: str) -> dict[str, Any]:
    body = model.model_json_schema(mode="validation")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": BASE_ID + name,
        **body,
    }


def render(name: str) -> str:
    return json.dumps(json_schema(SCHEMAS[name], name), ensure_ascii=False, indent=2) + "\n"


def write(folder: Path) -> list[Path]:
    written = []
    for name in SCHEMAS:
        target = folder / name
        target.write_text(render(name), encoding="utf-8")
        written.append(target)
    return written


if __name__ == "__main__":  # pragma: no cover - developer convenience
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m curator.schema --write")
    for path in write(Path("schema")):
        print(path)
