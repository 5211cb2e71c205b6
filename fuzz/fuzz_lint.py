"""Fuzz target: any bytes, as one incident file, through lint's single-file path.

`curator lint` checks each file with `curator.lint.check_file`, then the cross-file rules
on the files' summaries. For any bytes, that must raise nothing, report no IL001 (an
internal error is a bug: it stands for an exception a rule let escape), and place every
finding at a line and a column that exist in the file (both 1-based; one past the end of
a line, or the line after the last, is where libyaml places the end of the text).

    python fuzz/fuzz_lint.py CORPUS_DIR [atheris / libFuzzer options]
"""

from __future__ import annotations

import datetime as dt
import tempfile
from pathlib import Path

import atheris
from keep_going import fuzz

with atheris.instrument_imports():
    from curator.library import Library
    from curator.lint import check_file
    from curator.report import render
    from curator.rules import LIBRARY_RULES
    from curator.rules.base import LibraryView

REPO = Path(__file__).resolve().parent.parent
TAXONOMY = Library.at(REPO).taxonomy
TODAY = dt.date(2026, 1, 1)
FOLDER = Path(tempfile.mkdtemp(prefix="fuzz-lint-"))
FILE = FOLDER / "IL-0001.yaml"


def check(raw: bytes) -> None:
    FILE.write_bytes(raw)
    checked = check_file(FILE, FILE.name, TAXONOMY, TODAY)
    view = LibraryView([checked.summary], TAXONOMY)
    findings = [*checked.findings]
    for rule in LIBRARY_RULES:
        findings += rule.check_library(view)
    lines = raw.decode("utf-8", errors="replace").split("\n")
    for finding in findings:
        assert finding.code != "IL001", finding
        if finding.path != FILE.name:
            continue
        assert 1 <= finding.line <= len(lines) + 1, (finding, len(lines))
        line = lines[finding.line - 1] if finding.line <= len(lines) else ""
        assert 1 <= finding.column <= len(line) + 1, (finding, line)
    for fmt in ("text", "json", "github"):
        render(findings, fmt)


if __name__ == "__main__":
    fuzz(check)
