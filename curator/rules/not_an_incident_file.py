"""Everything in `incidents/` is a file named `IL-NNNN.yaml`.

A folder named like an incident, or a file with another extension (`.yml`), is reported
instead of being skipped, so that no incident silently goes unchecked. A symbolic link is
reported and never followed: in a pull request it could point anywhere on the machine that
checks it (a CI runner), and an incident is data the repository itself holds.
"""

import os
from collections.abc import Iterator
from pathlib import Path

from curator.findings import Finding, Severity
from curator.load import START
from curator.rules.base import Rule

RULE = Rule(
    code="IL107",
    name="not-an-incident-file",
    severity=Severity.ERROR,
    summary="An entry of incidents/ that is not an incident file (a folder, a symbolic link, "
    "or not .yaml).",
    failing="incidents/IL-0001.yml\nincidents/IL-0002.yaml/   (a folder)\n",
    passing="incidents/IL-0001.yaml\n",
)


def check_entry(path: Path, display: str) -> Iterator[Finding]:
    if not os.path.lexists(path):  # listed, then removed (a checkout in another terminal)
        yield RULE.at(display, START, "removed while curator was checking the library")
    elif path.is_symlink():
        yield RULE.at(display, START, "a symbolic link: incidents are regular files, not followed")
    elif path.is_dir():
        yield RULE.at(display, START, "a folder, not a file: incidents are single YAML files")
    elif path.suffix != ".yaml":
        yield RULE.at(display, START, f"extension {path.suffix!r}: incident files end in .yaml")
    elif not path.is_file():
        yield RULE.at(display, START, "not a regular file")
