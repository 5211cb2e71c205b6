"""tests/data/broken: one broken incident per rule; each rule fires where it should."""

from __future__ import annotations

import datetime as dt
import json

from conftest import BROKEN

from curator.findings import Severity
from curator.library import Library
from curator.lint import lint, read_incident
from curator.rules import ALL, CHANGE_RULES, STOPPING


def expected() -> set[tuple[str, int, int, str]]:
    rows = set()
    for line in (BROKEN / "expected.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            where, code = line.split()
            path, row, column = where.rsplit(":", 2)
            rows.add((path, int(row), int(column), code))
    return rows


def found() -> set[tuple[str, int, int, str]]:
    findings = lint(Library.at(BROKEN), cwd=BROKEN)
    return {(f.path, f.line, f.column, f.code) for f in findings}


def test_every_finding_is_exactly_where_expected():
    assert found() == expected()


def test_every_rule_but_internal_error_has_a_broken_example():
    # (A rule of a change, IL9xx, needs two revisions: tests/test_review.py has them.)
    fired = {code for *_, code in expected()}
    codes = {module.RULE.code for module in ALL if module not in CHANGE_RULES} - {"IL001"}
    assert codes <= fired, f"rules without a broken example: {sorted(codes - fired)}"


def test_cli_on_broken_examples_exits_1_and_reports_each(curator):
    # --no-cache: a test leaves nothing behind in the checkout it reads.
    run = curator("lint", "--root", str(BROKEN), "--format", "json", "--no-cache")
    assert run.code == 1
    rows = json.loads(run.out)
    assert {r["code"] for r in rows} >= {"IL101", "IL105", "IL301", "IL504", "IL604"}
    for row in rows:
        assert set(row) >= {"path", "line", "column", "code", "severity", "message"}
        assert row["line"] >= 1 and row["column"] >= 1
        assert row["severity"] in {s.value for s in Severity}


def test_a_crashing_rule_becomes_a_finding_and_the_run_goes_on(monkeypatch):
    from curator.rules import unknown_term

    def explode(file):
        if file.path.name == "IL-1012.yaml":
            raise RuntimeError("boom")
        return iter(())

    monkeypatch.setattr(unknown_term, "check", explode)
    findings = lint(Library.at(BROKEN), cwd=BROKEN)
    internal = [f for f in findings if f.code == "IL001"]
    assert [f.path for f in internal] == ["incidents/IL-1012.yaml"]
    assert "RuntimeError: boom" in internal[0].message
    # Every other file was still checked.
    assert {f.path for f in findings} >= {"incidents/IL-1001.yaml", "incidents/IL-1025.yaml"}


def test_the_stopping_codes_are_exactly_those_of_files_read_as_no_incident():
    # What the review says ("the other checks have not run") rests on this set.
    library = Library.at(BROKEN)
    codes: dict[str, set[str]] = {}
    for f in lint(library, cwd=BROKEN):
        codes.setdefault(f.path, set()).add(f.code)
    checked = 0
    for path in library.incident_paths():
        if path.suffix != ".yaml" or not path.is_file():
            continue
        file = read_incident(path, path.name, library.taxonomy, dt.date(2026, 1, 1))
        found = codes.get(f"incidents/{path.name}", set())
        assert (file.incident is None) == bool(found & STOPPING), (path.name, found)
        checked += file.incident is None
    assert checked >= len(STOPPING)  # each stopping rule has its broken example
