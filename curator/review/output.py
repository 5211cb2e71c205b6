"""A review on its way out: stdout in the chosen format, the job summary, the JSON file."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ValidationError

from curator.review import ReviewError
from curator.review.annotations import workflow_commands
from curator.review.links import Links
from curator.review.markdown import COMMENT, SUMMARY, render
from curator.review.model import MAX_FILES, Omitted, Review
from curator.review.tooling import ChangedTooling

FORMATS = ("markdown", "json", "github")
MAX_REPORT_BYTES = 64 * 1024 * 1024
SUMMARY_VARIABLE = "GITHUB_STEP_SUMMARY"


def as_json(review: Review) -> str:
    """The report, within the MAX_REPORT_BYTES and MAX_FILES that `read_review` reads (a
    change of thousands of incidents made more bytes than that, and the comment step posted
    nothing). Past either, the least important files (`bounded`) are left out, their counts
    kept. Written a file at a time, as `json.dumps` of the whole report writes it, where
    the whole report was first one tree of Python values, then its text, and past the bound
    each file's text as well, and all of it again for what is kept."""
    files = [_nested(_dumped(file)) for file in review.files]
    sizes = [_size(text) for text in files]
    # (Its size without making its text: the joins, and 4 more for the list not empty.)
    size = _size(_joined(review, [])) + sum(sizes) + 2 * len(files) + 2 * bool(files)
    if size <= MAX_REPORT_BYTES and len(files) <= MAX_FILES:
        return _joined(review, files)
    kept, dropped = bounded(review, size, [s + 2 for s in sizes])
    return _joined(kept, [text for i, text in enumerate(files) if i not in dropped])


def bounded(review: Review, size: int, shares: list[int]) -> tuple[Review, set[int]]:
    """`review`, `size` bytes as JSON (`shares`: each file's, with what joins it to the
    next), without the files past MAX_REPORT_BYTES or MAX_FILES: advice first, then
    warnings, possible duplicates and errors (`FileReview.rank`), the last of the report's
    order first; what they hold counted in `omitted` (with what it counted already), so
    that the comment's counts are the whole change's, and its sections those a reviewer
    reads first. Also the places of the files left out."""
    order = sorted(range(len(review.files)), key=lambda i: (-review.files[i].rank(), -i))
    excess = size - MAX_REPORT_BYTES + 1024  # 1024: `omitted` itself
    extra, dropped = len(review.files) - MAX_FILES, set()
    for i in order:
        if excess <= 0 and extra <= 0:
            break
        dropped.add(i)
        excess -= shares[i]
        extra -= 1
    kept = review.model_copy(
        update={"files": [f for i, f in enumerate(review.files) if i not in dropped]}
    )
    whole, rest = review.count(), kept.model_copy(update={"omitted": None}).count()
    left_out = [review.files[i] for i in dropped]
    before = review.omitted or Omitted(files=0)
    omitted = Omitted(
        files=before.files + len(left_out),
        changed=before.changed
        + sum(f.change != "unchanged" and review.in_library(f.path) for f in left_out),
        **{key: value - getattr(rest, key) for key, value in whole.model_dump().items()},
    )
    return kept.model_copy(update={"omitted": omitted}), dropped


def _nested(text: str) -> str:
    """A file's `_dumped` text as the report holds it: 4 spaces deeper, without its line
    break (a line break inside a value is written as its escape)."""
    return "    " + text[:-1].replace("\n", "\n    ")


def _joined(review: Review, files: list[str]) -> str:
    """`_dumped(review)`, given the `_nested` text of each of its files: the report
    without them, with theirs in place of its empty list of files."""
    text = _dumped(review.model_copy(update={"files": []}))
    if not files:
        return text
    before, empty, after = text.partition('\n  "files": [],\n')  # (its one line)
    assert empty, "no files key in the report"
    return "".join([before, '\n  "files": [\n', ",\n".join(files), "\n  ],\n", after])


def _dumped(value: BaseModel) -> str:
    return json.dumps(value.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n"


def _size(text: str) -> int:
    """Bytes as written: a file name that is not UTF-8 as its escape (`\\udcff`)."""
    return len(text.encode("utf-8", errors="backslashreplace"))


def rendered(review: Review, fmt: str, links: Links) -> str:
    """What `curator review --format FMT` prints: the comment as it would be posted, the
    JSON report, or workflow commands."""
    if fmt == "json":
        return as_json(review)
    if fmt == "github":
        return "".join(line + "\n" for line in workflow_commands(review))
    return render(review, links, COMMENT)


def write_summary(
    review: Review,
    links: Links,
    tooling: ChangedTooling | None = None,
    env: Mapping[str, str] = os.environ,
) -> Path | None:
    """Append the full report (within the 1 MiB a step may write) to the job summary;
    `tooling` as `render` takes it (the comment step's view of the pull request's files)."""
    target = env.get(SUMMARY_VARIABLE)
    if not target:
        return None
    path = Path(target)
    try:
        with path.open("a", encoding="utf-8") as out:
            out.write(render(review, links, SUMMARY, tooling))
    except OSError as exc:
        raise ReviewError(f"cannot write the job summary {path}: {exc.strerror}") from exc
    return path


def read_review(path: Path) -> Review:
    """A report written by `curator review --format json`, from a file that may have been
    forged: size-bounded, and validated field by field."""
    try:
        if path.stat().st_size > MAX_REPORT_BYTES:
            raise ReviewError(f"{path}: larger than {MAX_REPORT_BYTES // 2**20} MiB")
        raw = path.read_bytes()
    except OSError as exc:
        raise ReviewError(f"cannot read the report {path}: {exc.strerror or exc}") from exc
    try:
        # Python's parser, not pydantic's: a file name that is not UTF-8 is written as the
        # escape `\udcff` (a lone surrogate), which pydantic's refuses as invalid JSON.
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:  # RecursionError: `[[[[…` nested deep
        raise ReviewError(f"{path} is not a curator review report (not JSON: {exc})") from exc
    try:
        return Review.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the top level"
        raise ReviewError(
            f"{path} is not a curator review report ({exc.error_count()} problems; "
            f"first at {where}: {first['msg']})"
        ) from exc
