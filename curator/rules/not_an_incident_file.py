"""Everything in `incidents/` is a file named `IL-NNNN.yaml`, directly in it.

A folder named like an incident, or a file with another extension (`.yml`), is reported
instead of being skipped, so that no incident silently goes unchecked. So is a folder that
holds, at any depth, what may be an incident (an `IL-` name, a `.yaml` or `.yml` file, as
in `incidents/2024/IL-0100.yaml`): the library reads only the files directly in
incidents/, so such a file, named on the command line (as pre-commit does), is reported
too, not checked as an incident. A folder holding nothing of the kind (`images/`) holds no
incident to miss, and a hidden one (`.archive/`) is left alone as hidden files are:
neither is reported. A folder that cannot be listed (no permission), at any depth, is
reported: what it holds cannot be told, and would go unchecked. Named on the command line,
what is left alone there (`incidents/.IL-0001.yaml`, `incidents/README.md`) is left alone
too, with a note saying so: it is neither checked as an incident nor reported. So is a
file named outside incidents/ that is neither a `.yaml` or `.yml` file nor named `IL-…`
(`README.md`, `notes.json`): no incident, nor a draft of one, where such a draft is
checked with the library (`drafts/IL-0009.yml` is reported by its extension).

A symbolic link is reported and never followed: in a pull request it could point anywhere
on the machine that checks it (a CI runner), and an incident is data the repository itself
holds. That is a link named like an incident, and a link to a folder whatever its name
(`incidents/2024`), at any depth: its target, never looked at, may hold incidents, and a
file or folder named through it (`incidents/2024/IL-0100.yaml`, `incidents/2024/../x`)
is reported, never read, wherever the link leads. A link to a file not meant as an
incident (`notes.txt`) is left alone, as such a file is, and so is a hidden link
(`.old`), whatever it leads to: a path named through it (`incidents/.old/IL-0100.yaml`) is
left alone too, with a note, as the link is.

An incident a change puts outside incidents/ altogether (`IL-NEW-x.yaml` at the top of the
repository, or in a misspelt `incident/`) is reported by `curator review`, which sees every
file a change adds or edits: a file named like an incident id, in any case, whatever its
extension (`IL-0140.YAML`, `IL-0140.json`, `IL-0140.yaml.txt`, `IL-0140.bak`, none) but for
a last extension, in any case, of notes or of what a page about an incident shows
(`IL-0140.md`, `docs/img/IL-0140.png`, `IL-0140.drawio.svg`): Markdown (`.md`,
`.markdown`), pictures (`.png`, `.jpg`, `.jpeg`, `.gif`, `.webp`, `.avif`, `.svg`, `.bmp`,
`.tif`, `.tiff`, `.heic`), diagrams (`.drawio`, `.excalidraw`), documents (`.pdf`, `.docx`,
`.pptx`, `.xlsx`, `.odt`, `.odp`, `.ods`) and videos (`.mp4`, `.webm`, `.mov`); or a
`.yaml` or `.yml` file (in any case) with top-level `id:` and `title:` lines. Files under
`tests/`, `examples/`, `benchmarks/`, `schema/` and hidden folders, and hidden files, are
not taken for incidents. `curator lint --commit`, which the pre-commit hook runs on the
files a commit adds or changes, reports such a file in the same way (`IL-0140.yaml`,
`Incidents/IL-NEW-x.yml`, `IL-0140.json`, `drafts/nccl-hang.yaml` holding `id:` and
`title:`) rather than checking it as a draft, and leaves out every other file outside
incidents/ (`mkdocs.yml`, `README.md`, `docs/img/IL-0140.png`), as the hook does, judging
each by its place in the git repository, as the review does, wherever in it the library is
(a YAML draft kept outside the repository is still checked as one).
A `.yaml` or `.yml` file a change puts in incidents/ hidden (`.IL-0302.yaml`) or in a
hidden folder there (`.drafts/IL-0302.yaml`), which lint passes over, is reported by
`curator review` too; pre-commit never names hidden files (the hook's `files` pattern
leaves them out, as an editor's are), so a commit is not stopped for one.
"""

import os
import re
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from curator.findings import Finding, Severity
from curator.library import LINKED, incidents_within
from curator.load import MAX_BYTES, START
from curator.model import ID_PATTERN
from curator.regular import open_regular
from curator.rules.base import Rule

RULE = Rule(
    code="IL107",
    name="not-an-incident-file",
    severity=Severity.ERROR,
    summary="An entry of incidents/ that is not an incident file (a folder, a symbolic link, "
    "or not .yaml), or a file in a subfolder of incidents/ or (in a review or a commit) "
    "outside it, or (in a review) a YAML file hidden in it, "
    "which the library never reads.",
    failing="incidents/IL-0001.yml\nincidents/IL-0002.yaml/   (a folder)\n"
    "incidents/2024/IL-0003.yaml\n",
    passing="incidents/IL-0001.yaml\n",
)


def check_entry(path: Path, display: str) -> Iterator[Finding]:
    try:
        os.lstat(path)
    except FileNotFoundError:  # listed, then removed (a checkout in another terminal)
        yield RULE.at(display, START, "removed while curator was checking the library")
        return
    except OSError as exc:  # named in a folder the user may not look into (EACCES)
        yield RULE.at(display, START, f"cannot read the file: {exc.strerror or exc}")
        return
    if path.is_symlink() and os.path.isdir(path):
        yield RULE.at(display, START, _LINK_TO_A_FOLDER)
    elif path.is_symlink():
        yield RULE.at(display, START, "a symbolic link: incidents are regular files, not followed")
    elif path.is_dir():
        yield RULE.at(display, START, _folder_message(path))
    elif path.suffix != ".yaml":
        yield RULE.at(display, START, f"extension {path.suffix!r}: incident files end in .yaml")
    elif not path.is_file():
        yield RULE.at(display, START, "not a regular file")


# (What it leads to is never looked at: it may hold incidents, or nothing of the kind.)
_LINK_TO_A_FOLDER = (
    f"{LINKED}: the library reads only the files directly in incidents/; move any "
    "incidents it leads to there, and remove the link"
)


def through_a_link(display: str, link: str) -> Finding:
    """The finding for a file named through `link`, a symbolic link in incidents/
    (`incidents/2024/IL-0100.yaml`), which is not followed wherever it leads: what it leads
    to (a folder, a file, nothing) is not told."""
    message = (
        f"named through {link}, a symbolic link, not followed: the library reads only the "
        "files directly in incidents/"
    )
    return RULE.at(display, START, message)


def in_a_subfolder(display: str) -> Finding:
    """The finding for a file named (as pre-commit names it) in a subfolder of incidents/."""
    message = (
        "in a subfolder of incidents/: the library reads only the files directly in incidents/"
    )
    return RULE.at(display, START, message)


def outside_incidents(display: str, incidents: str) -> Finding:
    """The finding for what looks like an incident, changed outside incidents/ (`curator
    review` finds it): nothing else would say that the library does not have it. Where it
    is named like one, the name it is to have there is given whole, so that a file
    `IL-0140.json` is not moved, then renamed at lint's second word. `incidents` is the
    library's folder as paths are shown, `/`-separated (`data/incidents` for a library in
    `data/`, shown from the repository's top), so that the file is moved where the library
    reads it."""
    folder = f"{incidents}/"
    target = (
        f"{folder}{_id_of_name(display)}.yaml"
        if named_like_an_incident(display)
        else f"{folder}, named after its id"
    )
    message = (
        f"an incident outside {folder}: the library reads only the files directly in "
        f"{folder}; move it to {target}"
    )
    return RULE.at(display, START, message)


def _id_of_name(path: str) -> str:
    """The id a file named like an incident is named after, as ids are written: `IL-0140`
    of `il-0140.json`, `IL-NEW-gpu` of `Incidents/IL-NEW-GPU.yml`."""
    rest = PurePosixPath(path).name.partition(".")[0][len("IL-") :]
    if rest[:4].lower() == "new-":
        return f"IL-NEW-{rest[4:].lower()}"
    return f"IL-{rest}"


def hidden_in_incidents(display: str, in_a_folder: bool) -> Finding:
    """The finding for what looks like an incident that a change puts in incidents/ hidden,
    or in a hidden folder there (`curator review` finds it): lint passes hidden entries
    over, as it does an editor's, so nothing else would say that the library does not
    have it."""
    if in_a_folder:
        message = "in a hidden folder: the library reads only the files directly in incidents/"
    else:
        message = (
            "hidden (its name starts with `.`): the library never reads it; take the `.` "
            "out of its name"
        )
    return RULE.at(display, START, message)


def may_be_incident(path: str, incidents: str) -> bool:
    """Whether `path`, relative to the repository (`/`-separated), is a file outside
    `incidents` (the library's folder, relative to it too) that may be an incident: a
    `.yaml` or `.yml` file, in any case (`IL-0140.YAML`, as some editors save it), or one
    named like an incident whatever its extension (`named_like_an_incident`); not under
    tests/, examples/, benchmarks/ or schema/, which hold incidents on purpose (fixtures,
    samples) or none, nor hidden or under a hidden folder (`.github/`,
    `.pre-commit-config.yaml`), as hidden entries of incidents/ are not taken for
    incidents either."""
    where = PurePosixPath(path)
    if path.startswith(incidents + "/"):
        return False
    if where.suffix.lower() not in (".yaml", ".yml") and not named_like_an_incident(path):
        return False
    return not any(p in _NOT_INCIDENTS or p.startswith(".") for p in where.parts)


def named_like_an_incident(path: str) -> bool:
    """Whether the file at `path` is named like an incident: an id, in any case, up to the
    end of its name or its first `.`, whatever follows (`IL-0137.yml`, `il-0140.json`,
    `IL-NEW-x.yaml.txt` as a system may save it, `IL-0141`, `IL-0140.bak`), but for a last
    extension of `ABOUT_AN_INCIDENT` (`IL-0140.md`, `IL-0140.PNG`, `IL-0140.drawio.svg`)."""
    name = PurePosixPath(path).name
    stem, dot, _ = name.partition(".")
    last = name.rpartition(".")[2].lower() if dot else ""
    return _ID.fullmatch(stem) is not None and last not in ABOUT_AN_INCIDENT


# The last extensions of a file named after an incident that is no incident but notes about
# one (Markdown), or what a page about one shows: pictures, diagrams, documents, videos.
# None of them holds an incident's text as the library reads it (YAML), nor is any the
# format an editor saves one in. Any other extension is taken for one, unlisted ones too
# (`.bak`, `.orig`, `.yaml~`): an incident missed goes into the repository where nothing
# reads it, unnoticed, while a file wrongly taken for one stops a commit with its name, and
# a name that is more than the id (`IL-0140-topology.xyz`) gets past. The pre-commit hook's
# pattern (.pre-commit-hooks.yaml) and this module's docstring (docs/rules.md) list the
# same; a test holds the three together.
ABOUT_AN_INCIDENT = frozenset(
    {
        *("md", "markdown"),
        *("png", "jpg", "jpeg", "gif", "webp", "avif", "svg", "bmp", "tif", "tiff", "heic"),
        *("drawio", "excalidraw"),
        *("pdf", "docx", "pptx", "xlsx", "odt", "odp", "ods"),
        *("mp4", "webm", "mov"),
    }
)


# What makes a file that `may_be_incident` look like one by its text, as an incident's first
# lines do: a line starting `id:` and one starting `title:`, after the byte-order mark some
# editors begin a file with, or more than one, which the loader reads past as well (IL606)
# (`git grep -E` patterns for `curator review`, Python's for `curator lint --commit`; a
# group, as ERE has no `(?:`).
SHAPED = ("^(\ufeff)*id:", "^(\ufeff)*title:")
_SHAPED = [re.compile(pattern.encode(), re.MULTILINE) for pattern in SHAPED]


def shaped_like_an_incident(path: Path) -> bool | None:
    """Whether the file at `path` holds the lines of `SHAPED`, in its first MAX_BYTES (an
    incident is no longer), and is text (`git grep -I` passes over a file with a NUL byte);
    None if it is not a regular file that can be read: what it is cannot be told."""
    try:
        with open_regular(path) as stream:
            start = stream.read(MAX_BYTES)
    except OSError:
        return None
    return b"\0" not in start and all(pattern.search(start) for pattern in _SHAPED)


_ID = re.compile(ID_PATTERN, re.IGNORECASE)
_NOT_INCIDENTS = frozenset({"tests", "examples", "benchmarks", "schema"})


def _folder_message(path: Path) -> str:
    found = sorted(incidents_within(str(path)))
    if not found:
        return "a folder, not a file: incidents are single YAML files"
    if found[0][0] == "":  # (sorted first) the folder itself cannot be listed
        return f"{found[0][1]}; what it holds is never checked"
    held = [f"{name} ({why})" if why else name for name, why in found]
    shown = ", ".join(held[:_SHOWN]) + (f" and {len(held) - _SHOWN} more" if held[_SHOWN:] else "")
    return (
        f"a folder holding what may be incidents ({shown}): the library reads only the "
        "files directly in incidents/"
    )


_SHOWN = 3  # entries a folder's finding names (a folder may hold thousands)
