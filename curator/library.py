"""A library on disk: find its root, list its incident files, load its taxonomy."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from curator.taxonomy import Taxonomy, load_taxonomy

INCIDENTS = "incidents"
SCHEMA = "schema"
# Anything in incidents/ that looks meant to be an incident, so that a misnamed or
# misplaced entry is reported rather than silently skipped: whatever its case
# (`IL-0001.YAML` from an editor that upper-cases extensions) and even if a line break in
# its name keeps `.` from matching it (DOTALL).
_CANDIDATE = re.compile(r"^IL-.*|.*\.ya?ml$", re.IGNORECASE | re.DOTALL)


class NotALibrary(Exception):
    """No folder holding both incidents/ and schema/ was found."""


def meant_as_incident(name: str) -> bool:
    """Whether an entry of a folder of incidents named `name` is checked (and reported if
    it is not an incident file); hidden entries (an editor's `.IL-0001.yaml.swp`) are not."""
    return bool(_CANDIDATE.match(name)) and not name.startswith(".")


def is_library(path: Path) -> bool:
    return (path / INCIDENTS).is_dir() and (path / SCHEMA).is_dir()


def find_root(start: Path) -> Path:
    start = start.resolve()
    for folder in (start, *start.parents):
        if is_library(folder):
            return folder
    raise NotALibrary(
        f"no library found in {start} or above (a library holds incidents/ and schema/); "
        "use --root PATH"
    )


@dataclass(frozen=True)
class Library:
    root: Path
    # The names `incident_names` gives, if listed once for the whole run (`listed`).
    names: tuple[str, ...] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def at(cls, root: Path | None, cwd: Path | None = None) -> Library:
        if root is None:
            return cls(find_root(cwd or Path.cwd()))
        if not is_library(root):
            raise NotALibrary(f"{root} is not a library: it needs incidents/ and schema/ folders")
        return cls(root.resolve())

    @property
    def incidents_dir(self) -> Path:
        return self.root / INCIDENTS

    @property
    def taxonomy_dir(self) -> Path:
        return self.root / SCHEMA / "taxonomy"

    def incident_paths(self) -> list[Path]:
        """Every entry of incidents/ meant as an incident, sorted by name."""
        folder = self.incidents_dir
        return [folder / name for name in self.incident_names()]

    def incident_names(self) -> list[str]:
        """The names of `incident_paths`, without making a Path of each (which costs more
        than the rest of a warm `curator lint` of 100,000 files)."""
        if self.names is not None:
            return list(self.names)
        return sorted(name for name in os.listdir(self.incidents_dir) if meant_as_incident(name))

    def listed(self) -> Library:
        """This library with its incident files listed now, once, for a command that asks
        for them several times (0.08 s a time at 100,000 files) and should see one list."""
        return replace(self, names=tuple(self.incident_names()))

    def incident_path(self, incident_id: str) -> Path:
        return self.incidents_dir / f"{incident_id}.yaml"

    @cached_property
    def taxonomy(self) -> Taxonomy:
        return load_taxonomy(self.taxonomy_dir)
