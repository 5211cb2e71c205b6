"""The release before another by version, for the default `since` of changes.json.

The nearest tag in the history (`git describe`) is not always the release before: a hotfix
`v1.2.1` tagged on a release branch is in no later release's history, and a `v2.0.0-rc1`
on the main line would leave every change of the 1.x line after it out of v2.0.0's list.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# A tag of a semantic version, `v` first (semver.org, 2.0.0).
_IDENTIFIERS = r"[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*"
_VERSION = re.compile(
    rf"v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-({_IDENTIFIERS}))?(?:\+{_IDENTIFIERS})?"
)

Precedence = tuple[int, int, int, int, tuple[tuple[int, int, str], ...]]


def precedence(tag: str) -> Precedence | None:
    """How the version a tag names sorts among versions (SemVer's precedence: a
    pre-release before its release, its identifiers compared one by one, numbers as
    numbers and before words); None for a tag that names no version."""
    match = _VERSION.fullmatch(tag)
    if match is None:
        return None
    major, minor, patch, pre = match.groups()
    identifiers = tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part) for part in (pre or "").split(".")
    )
    return int(major), int(minor), int(patch), 0 if pre else 1, identifiers if pre else ()


def previous_release(version: str, tags: Iterable[str]) -> str | None:
    """The tag of the highest version below `version`: for a release, the release before
    it, pre-releases passed over, so that its changes are those since the last release; for
    a pre-release, whatever version came before. None when `version` is none, or no tag
    names a lower one."""
    this = precedence(version)
    if this is None:
        return None
    below = [
        (found, tag)
        for tag in tags
        if (found := precedence(tag)) is not None
        and found < this
        and (found[3] == 1 or this[3] == 0)  # a release skips pre-releases
    ]
    return max(below)[1] if below else None


def versions_below(version: str, tags: Iterable[str]) -> list[str]:
    """The tags of `tags` that name a lower version than `version` (none when it names
    none), pre-releases too."""
    this = precedence(version)
    if this is None:
        return []
    return [tag for tag in tags if (found := precedence(tag)) is not None and found < this]


def latest_version(tags: Iterable[str]) -> str | None:
    """The tag of the highest version among `tags`; None when none names a version."""
    named = [(found, tag) for tag in tags if (found := precedence(tag)) is not None]
    return max(named)[1] if named else None
