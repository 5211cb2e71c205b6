"""Attach an export to the GitHub release of its tag, with PyGithub.

A release holds at most 1,000 assets and no folders, so it gets the export's top-level
files (what most consumers fetch) and one zip of the whole export, per-incident files
included. Re-running replaces assets of the same name, so a failed job can be retried.
"""

from __future__ import annotations

# strptime's own module, loaded with this one (under `deferred`, as the command loads it)
# rather than on strptime's first use, mid-run: a stop as a module loads can be dropped
# ("Exception ignored in: …"; see curator.cli).
import _strptime  # type: ignore[import-not-found]  # noqa: F401 (no stub)
import datetime as dt
import functools
import json
import os
import re
import unicodedata
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import requests
from github import BadAttributeException, GithubException, UnknownObjectException
from github.GitObject import GitObject
from github.GitRelease import GitRelease
from github.Repository import Repository

from curator import WEBSITE
from curator.export.feed import ATOM
from curator.export.write import MANIFEST
from curator.github.client import GitHubError, connect, explain, not_github
from curator.github.retry import GaveUp, RetryPolicy, with_retries

T = TypeVar("T")
CONTENT_TYPES = {
    ".json": "application/json",
    ".csv": "text/csv; charset=utf-8",
    ".atom": "application/atom+xml",
    ".zip": "application/zip",
}


class PublishError(Exception):
    """The folder given is not an export."""


class TagElsewhere(Exception):
    """The tag names another commit than the export's: its release would mislabel it."""


@dataclass(frozen=True)
class Published:
    release_url: str
    assets: list[str]
    draft: bool = False  # the tag's release was a draft: it stays one, for a person to publish

    def __post_init__(self) -> None:
        if not isinstance(self.release_url, str) or not isinstance(self.draft, bool):
            raise TypeError("PyGithub keeps what it was given, None too")


# What `git check-ref-format` refuses anywhere in a ref's name, besides ASCII controls.
_NOT_IN_REFS = " ~^:?*[\\"


def tag_problem(tag: str) -> str | None:
    """Why git refuses `tag` as a tag's name (GitHub's tags are git's), as `git
    check-ref-format refs/tags/TAG` does; None when it allows it. A control character
    beyond ASCII, which git allows, is refused too: the name is printed."""
    if not tag:
        return "it is empty"
    odd = next((c for c in tag if c in _NOT_IN_REFS or unicodedata.category(c) == "Cc"), None)
    if odd is not None:
        return f"it holds {_named(odd)}"
    sequence = next((s for s in ("..", "@{", "//") if s in tag), None)
    if sequence is not None:
        return f"it holds '{sequence}'"
    if tag.startswith("/"):
        return "it starts with '/'"
    if tag.endswith(("/", ".")):
        return f"it ends with '{tag[-1]}'"
    for part in tag.split("/"):
        named = "it" if part == tag else f"its part {part!r}"
        if part.startswith("."):
            return f"{named} starts with '.'"
        if part.endswith(".lock"):
            return f"{named} ends in '.lock'"
    return None


def _named(character: str) -> str:
    if character == " ":
        return "a space"
    if unicodedata.category(character) == "Cc":
        return f"U+{ord(character):04X}, a control character"
    return f"'{character}'"


# What GitHub keeps of an asset's name as it is. It renames names with other characters
# ("special characters, non-alphanumeric characters", its documentation says, not into
# what), and a name it changed is not found again to be replaced by a second run.
_PLAIN_TAG = re.compile(r"[A-Za-z0-9._-]+", re.ASCII)


def archive_name(tag: str) -> str:
    """The zip's name: with the tag when GitHub keeps it as it is (v1.2.0), else without."""
    if _PLAIN_TAG.fullmatch(tag):
        return f"incident-library-{tag}.zip"
    return "incident-library.zip"


def zip_export(export_dir: Path, target: Path) -> Path:
    """The whole export as one zip: entries sorted, dated by the commit, fixed permissions."""
    moment = _generated_at(export_dir / MANIFEST)
    when = (moment.year, moment.month, moment.day, moment.hour, moment.minute, moment.second)
    paths = sorted(p for p in export_dir.rglob("*") if p.is_file())
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in paths:
            entry = zipfile.ZipInfo(path.relative_to(export_dir).as_posix(), date_time=when)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, path.read_bytes())
    return target


def exported_commit(export_dir: Path) -> str:
    """The commit the export was made from, as its manifest says (40 hex digits)."""
    manifest = export_dir / MANIFEST
    commit = _manifest_field(manifest, "commit")
    if not isinstance(commit, str) or not _COMMIT.fullmatch(commit):
        raise _not_a_manifest(manifest, "no commit")
    return commit


_COMMIT = re.compile(r"[0-9a-f]{40}", re.ASCII)


def _generated_at(manifest: Path) -> dt.datetime:
    """When the export's commit was made, as its manifest says (2026-11-30T03:25:43Z)."""
    stamp = _manifest_field(manifest, "generated_at")
    if not isinstance(stamp, str):
        raise _not_a_manifest(manifest, "no generated_at")
    try:
        return dt.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        raise _not_a_manifest(manifest, f"generated_at {stamp!r} is not a UTC time") from None


def _manifest_field(manifest: Path, name: str) -> object:
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PublishError(f"cannot read {manifest}: {exc.strerror or exc}") from exc
    except ValueError:  # not UTF-8, or not JSON
        raise _not_a_manifest(manifest, "not UTF-8 JSON") from None
    return data.get(name) if isinstance(data, dict) else None


def _not_a_manifest(manifest: Path, why: str) -> PublishError:
    return PublishError(
        f"{manifest} is not the manifest of an export ({why}); run `curator export` again"
    )


def release_assets(export_dir: Path, tag: str, workdir: Path) -> list[Path]:
    if not (export_dir / MANIFEST).is_file():
        raise PublishError(f"{export_dir} holds no {MANIFEST}; run `curator export` first")
    refuse_placeholder_feed(export_dir / FEED)
    top_level = sorted(p for p in export_dir.iterdir() if p.is_file())
    return [*top_level, zip_export(export_dir, workdir / archive_name(tag))]


FEED = "feed.atom"


def refuse_placeholder_feed(feed: Path) -> None:
    """PublishError when the feed links into `WEBSITE`, `curator export`'s default
    --base-url: a placeholder that nothing publishes, so a release's feed readers would
    follow its links to nothing (docs/export.md, feed.atom)."""
    try:
        root = ET.fromstring(feed.read_bytes())
    except FileNotFoundError:
        return  # no feed to mislead anyone
    except OSError as exc:
        raise PublishError(f"cannot read {feed}: {exc.strerror or exc}") from exc
    except ET.ParseError as exc:
        why = f"{feed} is not an export's feed ({exc}); run `curator export` again"
        raise PublishError(why) from None
    link = root.find(f"{{{ATOM}}}link[@rel='self']")
    if link is not None and link.get("href") == f"{WEBSITE}latest/{FEED}":
        raise PublishError(
            f"{feed} links to {WEBSITE}, the placeholder `curator export` uses without "
            "--base-url; export again with --base-url and the address of the site the "
            "exports are published to"
        )


def publish(
    repo_name: str, tag: str, commit: str, assets: list[Path], env: Mapping[str, str] = os.environ
) -> Published:
    """Create the release of `tag` if it does not exist, not even as a draft, then upload
    (or replace) `assets`, an export of `commit`; a draft stays a draft.

    A tag that does not exist yet is made at `commit` with the release (GitHub would make
    it at the default branch's head); one at another commit raises TagElsewhere, before
    anything is written.

    Each step is retried by re-reading GitHub's state first (`curator.github.retry`): an
    upload whose answer was lost is found by name and replaced, never duplicated.
    """
    github = connect(env)
    what = f"release {tag} of {repo_name}"
    try:
        repo = github.get_repo(repo_name)
        tagged = with_retries(lambda: _tagged_commit(repo, tag), RetryPolicy(), f"tag {tag}")
        if tagged is not None and tagged != commit:
            raise TagElsewhere(
                f"tag {tag} is at commit {tagged[:12]}, the export is of {commit[:12]}; "
                "export the tag's commit, or name the tag of the export's"
            )
        release = with_retries(lambda: _release(repo, tag, commit), RetryPolicy(), f"release {tag}")
        if release.upload_url is None:  # PyGithub keeps whatever it was given
            raise not_github(what, "the answer is not a release")
        stored = [
            with_retries(functools.partial(_upload, release, path), RetryPolicy(), path.name)
            for path in assets
        ]
        return Published(release.html_url, stored, release.draft)
    except json.JSONDecodeError as exc:  # a cut answer, or a page that is not the API
        raise not_github(what, f"an answer is not JSON ({exc})") from exc
    except (BadAttributeException, AttributeError, TypeError) as exc:
        # PyGithub keeps what a field holds, and reading it fails only here (as in post.py).
        why = f"an answer is not in the shape GitHub gives ({type(exc).__name__})"
        raise not_github(what, why) from exc
    except (GithubException, GaveUp, requests.RequestException) as exc:
        raise _explain(exc, what) from exc
    finally:
        github.close()


def _tagged_commit(repo: Repository, tag: str) -> str | None:
    """The commit `tag` names, None when there is no such tag. Read from the tag itself: a
    release's `target_commitish` says only what the tag was made from when the release
    made it (often a branch, which has moved on since), and nothing when the tag was pushed.
    """
    try:
        target = repo.get_git_ref(f"tags/{tag}").object
    except UnknownObjectException:
        return None
    for _ in range(_MOST_NESTED_TAGS):
        if not isinstance(target, GitObject) or not isinstance(target.sha, str):
            raise not_github(f"reading tag {tag}", "the answer is not a git reference")
        if target.type != "tag":  # an annotated tag is an object of its own, naming the next
            return target.sha
        target = repo.get_git_tag(target.sha).object
    raise not_github(f"reading tag {tag}", f"more than {_MOST_NESTED_TAGS} tags of tags")


_MOST_NESTED_TAGS = 10  # (git allows a tag of a tag; nobody nests them deeper)


def _release(repo: Repository, tag: str, commit: str) -> GitRelease:
    """The release of `tag`: published, else a draft of it (one a maintainer prepared, to
    publish once the assets are there), else a new one."""
    try:
        return repo.get_release(tag)
    except UnknownObjectException:
        pass
    # GitHub finds a draft by tag only in the list of releases: its tag may not exist yet.
    releases = _listed(repo.get_releases(), f"the releases of {repo.full_name}")
    draft = next((r for r in releases if r.draft and r.tag_name == tag), None)
    if draft:
        return draft
    return repo.create_git_release(
        tag, name=tag, message=f"Incident Library {tag}", target_commitish=commit
    )


def _upload(release: GitRelease, path: Path) -> str:
    """The asset's name as GitHub stored it."""
    for asset in _listed(release.get_assets(), f"the assets of release {release.tag_name}"):
        if asset.name == path.name:
            asset.delete_asset()
    content_type = CONTENT_TYPES.get(path.suffix, "application/octet-stream")
    uploaded = release.upload_asset(str(path), name=path.name, content_type=content_type)
    if not isinstance(uploaded.name, str):  # PyGithub keeps whatever it was given
        raise not_github(f"uploading {path.name}", "the answer is not a release asset")
    return uploaded.name


def _listed(items: Iterable[T], what: str) -> list[T]:
    try:
        return list(items)
    except (TypeError, AttributeError) as exc:
        # PyGithub makes objects of whatever a page holds, and fails on what is not one.
        raise not_github(f"reading {what}", "a page of them is not a list") from exc


def _explain(exc: BaseException, what: str) -> GitHubError:
    if isinstance(exc, GithubException) and exc.status == 403:
        return GitHubError(
            f"{what}: the token may not write releases ({exc.status}); the job needs "
            "`permissions: contents: write`"
        )
    return explain(exc, what, named="the repository")
