"""A review on its way out: stdout in the chosen format, the job summary, the JSON file."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import ValidationError

from curator.review import ReviewError
from curator.review.annotations import workflow_commands
from curator.review.links import Links
from curator.review.markdown import COMMENT, SUMMARY, render
from curator.review.model import Review
from curator.review.tooling import ChangedTooling

FORMATS = ("markdown", "json", "github")
MAX_REPORT_BYTES = 64 * 1024 * 1024
SUMMARY_VARIABLE = "GITHUB_STEP_SUMMARY"


def as_json(review: Review) -> str:
    return json.dumps(review.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n"


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
