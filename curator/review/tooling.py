"""Which files of a pull request can change its own review: what `curator review` computes,
or how the review workflow runs it.

review.yml runs the pull request's own code, so a pull request that changes that code can
make its report say anything that validates (an all-green comment for a change full of
errors). The comment step, on the default branch's code, lists the pull request's files
from GitHub, not from the report, and says so at the top of the comment (docs/review.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from curator.library import INCIDENTS, SCHEMA

# What the review judges, and reads only as data: the incidents, and the taxonomy (a change
# to a term changes judgements, legitimately: that is what the review is there to show).
# At the repository's top, where review.yml reviews the library; never under the report's
# `root`, which the pull request may have written (`curator/incidents/` would be data).
JUDGED = (f"{INCIDENTS}/", f"{SCHEMA}/taxonomy/")
# What the review workflow never reads: review.yml runs no tests and no benchmarks, and
# `pip install .` builds only curator/ (pyproject.toml: `packages.find` includes
# `curator*`; MANIFEST.in names build_backend/ alone). tests/test_workflows.py holds
# review.yml and the build to that.
UNREAD = ("tests/", "benchmarks/", "examples/", "docs/")
DOCUMENTATION = ".md"
# Where a Markdown file may be package data, read at run time, rather than documentation.
PACKAGE = ("curator/", "build_backend/")


def changes_the_review(path: str) -> bool:
    """Whether a repository path can change what the review computes or how it runs.
    Everything can but the data it judges, the folders the review workflow never reads and
    Markdown documentation: the package, the workflows, the build (`pyproject.toml`,
    `setup.py`, `build_backend/`), the JSON Schemas, and whatever comes next. A hidden
    file or folder can too, wherever it is: a `.gitattributes` (in incidents/ too) changes
    the bytes git checks out and searches; `.curator-cache/` is read; `.github/`
    holds the workflows. (Listing what is inert, not what is code, is what keeps a new kind
    of file on the safe side.)"""
    if any(part.startswith(".") for part in path.split("/")):
        return True
    if path.startswith(JUDGED + UNREAD):
        return False
    return not (path.endswith(DOCUMENTATION) and not path.startswith(PACKAGE))


@dataclass(frozen=True)
class ChangedTooling:
    """What GitHub lists of a pull request's files, as far as its review is concerned."""

    number: int  # the pull request's
    base: str  # its base branch's commit and its head commit, as GitHub names them
    head: str
    paths: tuple[str, ...]  # those that `changes_the_review`, the first few (GitHub's order)
    count: int  # all of those among the files listed
    listed: int  # files GitHub listed
    unlisted: int = 0  # files it did not (it lists 3,000 at most)
    refused: bool = False  # GitHub listed none: it refused the pull request or its files
    # GitHub listed them, then refused the read of the pull request that tells whether its
    # head is still the report's commit: they may be those of a push since.
    unconfirmed: bool = False

    @classmethod
    def not_listed(cls, number: int, base: str, head: str) -> ChangedTooling:
        """What is known when GitHub refused to list the files (403): nothing, which is
        said as such rather than taken for a pull request that changes none of the code."""
        return cls(number, base, head, paths=(), count=0, listed=0, refused=True)

    def warns(self) -> bool:
        """Whether the report may come from code the pull request changes: it does, or
        some of its files could not be seen, or those seen may be another commit's (a push
        since could have taken back a change to the code that made the report)."""
        return bool(self.count or self.unlisted or self.refused or self.unconfirmed)

    def in_one_line(self) -> str:
        """The warning as a line of the log says it (no file names: the comment and the job
        summary name them, escaped); empty when there is nothing to warn of."""
        if self.refused:
            return "whether the pull request changes the review's own code was not checked"
        if self.unconfirmed:
            return (
                "the report may have been made by code this pull request changes: GitHub "
                "listed its files, then refused to tell whether they are the report's commit's"
            )
        if self.count:
            return "the report was made by code this pull request changes"
        if self.unlisted:
            return "the report may have been made by code this pull request changes"
        return ""
