"""A library on disk: find its root, list its incident files, load its taxonomy."""

from __future__ import annotations

import os
import posixpath
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from curator.model import INCIDENT_ID
from curator.taxonomy import Taxonomy, load_taxonomy

INCIDENTS = "incidents"
SCHEMA = "schema"
# Anything in incidents/ that looks meant to be an incident, so that a misnamed or
# misplaced entry is reported rather than silently skipped: whatever its case
# (`IL-0001.YAML` from an editor that upper-cases extensions) and even if a line break in
# its name keeps `.` from matching it (DOTALL).
_CANDIDATE = re.compile(r"^IL-.*|.*\.ya?ml$", re.IGNORECASE | re.DOTALL)


class NotALibrary(Exception):
    """No folder holding both incidents/ and schema/ was found: `folder`, the root given,
    is none, or (`upward`) neither is the folder the search started from nor one above."""

    def __init__(self, message: str, folder: Path, upward: bool) -> None:
        super().__init__(message)
        self.folder = folder
        self.upward = upward


def meant_as_incident(name: str) -> bool:
    """Whether an entry of a folder of incidents named `name` is checked (and reported if
    it is not an incident file); hidden entries (an editor's `.IL-0001.yaml.swp`) are not."""
    return named_as_incident(name) and not name.startswith(".")


def named_as_incident(name: str) -> bool:
    """Whether a file named `name` may be an incident, or a draft of one, by its name: it
    starts with `IL-` or ends in `.yaml` or `.yml`, in any case, hidden or not."""
    return bool(_CANDIDATE.match(name))


def read_as_incident(name: str) -> bool:
    """Whether lint reads an entry of incidents/ named `name` as an incident, if it is a
    regular file: a `.yaml` name (`Path(name).suffix`). The other names meant as incidents
    (`IL-0001.yml`, `IL-0001.json`) are reported (IL107), never read."""
    return name.endswith(".yaml") and len(name) > len(".yaml")


def read_in(path: str, incidents: str) -> bool:
    """Whether lint reads the file at `path` (`/`-separated, spelt as `incidents`, the
    library's folder of incidents, is) as an incident, by its name: an entry of incidents/
    itself (`IL-0001.yaml`), not one in a subfolder, a hidden one or an `IL-0001.yml`."""
    parent, name = posixpath.split(path)
    return parent == incidents and meant_as_incident(name) and read_as_incident(name)


def incident_entries(folder: str | Path, *, subfolders: bool = True) -> list[str]:
    """The names of the entries of a folder of incidents that are checked, sorted: those
    meant as incidents, and with `subfolders` the folders that may hold one
    (`may_hold_incidents`): for incidents/ and the folders in it, not for a folder of
    drafts, say, or schema/."""
    return sorted(
        name
        for name in os.listdir(folder)
        if meant_as_incident(name)
        or (subfolders and may_hold_incidents(os.path.join(folder, name)))
    )


def unlisted_because(
    where: str, named: Path, folders: dict[tuple[str, str], str | None]
) -> str | None:
    """Why a run over the whole library neither checks nor reports `where` (`named` made
    absolute, its folders resolved), an entry of a library's incidents/ at any depth, as
    `incident_entries` and `incidents_within` pass it over: it is hidden, or in a hidden
    folder, or it is neither meant as an incident nor a folder that may hold one (a
    `README.md`, `images/`). A path named through a symbolic link in incidents/ is passed
    over as the link is, by its name alone (hidden, or in a hidden folder), whatever it
    leads to. None for an entry the run checks or reports (IL107), and for a path outside
    incidents/. `folders` keeps the answers for names meant as incidents, which their
    folders alone decide (as resolved and as named), for the next file named in them."""
    name = os.path.basename(where)
    spelled = str(named.absolute())
    if not meant_as_incident(name):
        return _unlisted(where, named, spelled)
    if f"{os.sep}." not in where + spelled:
        return None  # (the common case, thousands of files named by pre-commit: no `stat`)
    # A hidden folder: in incidents/, or above the library (`~/.work/lib`), where every
    # file named would cost a look at each folder of its path.
    key = (os.path.dirname(where), os.path.dirname(spelled))
    if key not in folders:
        folders[key] = _unlisted(where, named, spelled)
    return folders[key]


def _unlisted(where: str, named: Path, spelled: str) -> str | None:
    """`unlisted_because`, asked of the file system (`spelled`: `named` made absolute)."""
    name = os.path.basename(where)
    link = link_within_incidents(spelled)
    if link is not None and link != spelled:
        # (not where it leads: whether a file is there, outside the library, is not told)
        return _hidden_link(link)
    incidents = _incidents_holding(where, named)
    if incidents is None:
        return None
    hidden = _hidden(Path(where).relative_to(incidents).parts)
    if hidden is not None:
        return hidden
    if meant_as_incident(name) or may_hold_incidents(where):
        return None
    if os.path.isdir(where):
        return "it is a folder holding nothing named like an incident"
    return "it is not named like an incident (`IL-…` or `.yaml`)"


def _hidden(inside: tuple[str, ...]) -> str | None:
    """Why an entry of incidents/, `inside` it, is passed over for its name or its
    folders' (`.archive/`); None if it is not."""
    if inside[-1].startswith("."):
        return "it is hidden (its name starts with `.`)"
    if any(part.startswith(".") for part in inside[:-1]):
        return "it is in a hidden folder"
    return None


def _hidden_link(link: str) -> str | None:
    """Why a path named through `link`, a symbolic link in incidents/ (as named), is passed
    over: the link is hidden, or in a hidden folder, as a run over the library passes it
    over; None if it is not (the path is then IL107)."""
    where = os.path.join(os.path.realpath(os.path.dirname(link)), os.path.basename(link))
    incidents = _incidents_holding(where, Path(link))
    if incidents is None:
        return None
    inside = Path(where).relative_to(incidents).parts
    if inside[-1].startswith("."):
        return "it is named through a hidden link (its name starts with `.`)"
    return _hidden(inside)


def _incidents_holding(where: str, named: Path) -> str | None:
    """The library's incidents/ (resolved) that `where` is in, at any depth: found among
    its own folders, or among those `named` is spelled with (incidents/ may be a link)."""
    for folder in (*Path(where).parents, *named.absolute().parents):
        if folder.name == INCIDENTS and is_library(folder.parent):
            resolved = os.path.realpath(folder)
            if where.startswith(resolved + os.sep):
                return resolved
    return None


def within_incidents(folder: Path) -> bool:
    """Whether `folder` is a library's incidents/ or inside one, as spelled or as resolved
    (reached through a link)."""
    spellings = {Path(os.path.abspath(folder)), Path(os.path.realpath(folder))}
    return any(
        part.name == INCIDENTS and is_library(part.parent)
        for where in spellings
        for part in (where, *where.parents)
    )


def link_within_incidents(path: str) -> str | None:
    """The first symbolic link in a library's incidents/ (at any depth) that `path`,
    absolute and as named (its `..` kept: the system takes the link before them), is or
    passes through; None if none. Such a link is an entry of the library (IL107), never
    followed: what is named through it is not the library's, wherever it leads."""
    parts = path.split(os.sep)
    for end in range(2, len(parts) + 1):
        prefix = os.sep.join(parts[:end])
        if os.path.islink(prefix) and within_incidents(Path(os.path.dirname(prefix))):
            return prefix
    return None


def may_hold_incidents(path: str) -> bool:
    """Whether `path` is a folder holding, at any depth, an entry meant as an incident, or
    one that may hide some (`incidents_within`): the library reads only the files directly
    in incidents/, so one filed in a subfolder (`incidents/2024/IL-0100.yaml`) would be
    passed over in silence. A hidden folder (a `.git`) is not looked into, as a hidden
    file is not checked. A link to a folder is one, whatever its target holds: it is not
    followed, as its target could be anywhere on the machine (a CI runner's)."""
    if os.path.basename(path).startswith("."):
        return False
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    if stat.S_ISLNK(mode):
        return _links_to_a_folder(path)
    return stat.S_ISDIR(mode) and next(incidents_within(path), None) is not None


def incidents_within(folder: str) -> Iterator[tuple[str, str]]:
    """The entries at any depth inside `folder` that are, or may hide, incidents, in no
    particular order: each as its path relative to `folder` and "" for one meant as an
    incident, `LINKED` for a symbolic link to a folder, which is not followed, or what
    keeps a folder from being listed (`UNLISTED`; "" for `folder` itself). Hidden folders
    are not looked into, folders meant as incidents (`IL-0001.yaml/`) not entered."""
    pending = [""]
    while pending:  # (a loop, not recursion: a folder may be nested deeper than Python's stack)
        inside = pending.pop()
        try:
            with os.scandir(os.path.join(folder, inside)) as listing:
                entries = [
                    (entry.name, entry.is_dir(follow_symlinks=False), entry.is_symlink())
                    for entry in listing
                ]
        except (FileNotFoundError, NotADirectoryError):  # gone (or replaced) meanwhile
            continue
        except OSError as exc:  # no permission: what it holds cannot be told, so it may hide some
            yield inside, f"{UNLISTED}: {exc.strerror or exc}"
            continue
        for name, is_folder, is_link in entries:
            path = os.path.join(inside, name)
            if meant_as_incident(name):
                yield path, ""
            elif name.startswith("."):
                continue
            elif is_folder:
                pending.append(path)
            elif is_link and _links_to_a_folder(os.path.join(folder, path)):
                yield path, LINKED


LINKED = "a symbolic link to a folder, not followed"
UNLISTED = "a folder that cannot be listed"


def _links_to_a_folder(path: str) -> bool:
    """Whether the symbolic link at `path` points to a folder (which this does not list)."""
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except OSError:  # a link that loops
        return False


def is_library(path: Path) -> bool:
    # (`os.path.isdir`, which Python 3.11's `Path.is_dir` is not: a folder the user may not
    # look into holds no library, it is no error)
    return os.path.isdir(path / INCIDENTS) and os.path.isdir(path / SCHEMA)


def find_root(start: Path) -> Path:
    start = start.resolve()
    for folder in (start, *start.parents):
        if is_library(folder):
            return folder
    raise NotALibrary(
        f"no library found in {start} or above (a library holds incidents/ and schema/); "
        "use --root PATH",
        start,
        upward=True,
    )


# An incident id as the schema spells it: a file named so (`IL-0001.yaml`, as `curator new`
# and `assign-ids` write names) is taken for the file's own name without listing the
# folder. The pre-commit hooks name such files, as git stores them, a few at a time, and
# listing 100,000 names for them cost `curator fmt` ≈0.08 s a commit. (Only a file stored
# under a name of another case, itself misnamed (IL203), then stays named as typed.)
def _spelt_as_an_id(name: str) -> bool:
    return name.endswith(".yaml") and INCIDENT_ID.fullmatch(name[: -len(".yaml")]) is not None


class ListedNames:
    """The names a library lists its incidents under, listed when first asked (a look-up
    per file named, never a `stat` per file of the library: pre-commit names thousands)."""

    def __init__(self, library: Library) -> None:
        self.library = library
        self.folder = os.path.realpath(library.incidents_dir)

    @cached_property
    def names(self) -> frozenset[str]:
        return frozenset(self.library.incident_names())

    @cached_property
    def by_folded_case(self) -> dict[str, str]:
        return {name.casefold(): name for name in self.names}

    def listed_as(self, where: str) -> str | None:
        """The name the library lists the file at `where` under (absolute, its folder
        resolved: `named_files`' key), when it is directly in incidents/ under a name
        listed in another case: on a file system that matches names without regard to
        case (macOS, Windows), `il-0001.yaml` opens `IL-0001.yaml`, and `realpath` keeps
        the case typed, so the file was checked beside itself (IL204, IL502). Only if it
        is the same file (`os.path.samefile`): on Linux, two names differing in case are
        two files. None otherwise."""
        folder, name = os.path.split(where)
        if folder != self.folder or _spelt_as_an_id(name) or name in self.names:
            return None
        listed = self.by_folded_case.get(name.casefold())
        if listed is None:
            return None
        try:
            same = os.path.samefile(where, os.path.join(folder, listed))
        except OSError:  # gone meanwhile, or a link that loops: not the listed file
            return None
        return listed if same else None


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
            message = f"{root} is not a library: it needs incidents/ and schema/ folders"
            raise NotALibrary(message, root, upward=False)
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
        return incident_entries(self.incidents_dir)

    def listed(self) -> Library:
        """This library with its incident files listed now, once, for a command that asks
        for them several times (0.08 s a time at 100,000 files) and should see one list."""
        return replace(self, names=tuple(self.incident_names()))

    def incident_path(self, incident_id: str) -> Path:
        return self.incidents_dir / f"{incident_id}.yaml"

    @cached_property
    def taxonomy(self) -> Taxonomy:
        return load_taxonomy(self.taxonomy_dir)
