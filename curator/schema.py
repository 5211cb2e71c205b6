"""JSON Schemas of the file formats, generated from the pydantic models.

`python -m curator.schema --write` refreshes `schema/*.schema.json`; a test fails when the
committed files drift from the models. No `$id`: nothing publishes these at an address, and
an editor or a validator names a schema by the path it reads it from.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from curator.model import Incident, TaxonomyFile

SCHEMAS: dict[str, type[BaseModel]] = {
    "incident.schema.json": Incident,
    "taxonomy.schema.json": TaxonomyFile,
}


DRAFT = "https://json-schema.org/draft/2020-12/schema"


def json_schema(model: type[BaseModel]) -> dict[str, Any]:
    return {"$schema": DRAFT, **model.model_json_schema(mode="validation")}


def schema_text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, ensure_ascii=False, indent=2) + "\n"


def render(name: str) -> str:
    return schema_text(json_schema(SCHEMAS[name]))


def write(folder: Path) -> list[Path]:
    return write_all(folder, SCHEMAS, render)


def write_all(folder: Path, names: Iterable[str], render: Callable[[str], str]) -> list[Path]:
    """Write `render(name)` to `folder/name` for each name; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in names:
        target = folder / name
        target.write_text(render(name), encoding="utf-8")
        written.append(target)
    return written


def main(write: Callable[[Path], list[Path]], folder: Path, module: str) -> None:
    """`python -m <module> --write`: refresh the schemas in `folder`."""
    if sys.argv[1:] != ["--write"]:
        sys.exit(f"usage: python -m {module} --write")
    for path in write(folder):
        print(path)


if __name__ == "__main__":
    main(write, Path("schema"), "curator.schema")
