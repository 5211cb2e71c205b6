"""IL404: a narrative field written with no Korean at all."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from conftest import run_curator, write_library

from curator.rules import narrative_missing, not_in_korean
from incidents import file_findings, incident

REPO = Path(__file__).resolve().parent.parent
TITLE = "title: 공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다"
DETECTION = "  처리량 그래프에서 보였다."
ACTION = "  - 데이터를 로컬 디스크로 옮겼다."
BESIDE = (
    "the library is written in Korean, with English only beside it (in parentheses, or as a "
    "product or error name)"
)


def findings(*replacements: tuple[str, str]) -> list[tuple[int, int, str]]:
    return file_findings(not_in_korean, incident("IL-0001", *replacements))


def test_each_english_only_field_is_reported_at_its_value():
    found = findings(
        (TITLE, "title: Storage metadata saturation slowed training"),
        (DETECTION, "  Alerts fired on the throughput graph."),
        (ACTION, f"{ACTION}\n  - Restarted the NCCL jobs."),
        ("lessons:", "follow_ups:\n  - Published a health-check tool.\nlessons:"),
    )
    assert found == [
        (2, 8, f"title holds no Korean: {BESIDE}"),
        (19, 12, f"detection holds no Korean: {BESIDE}"),
        (23, 5, f"actions[1] holds no Korean: {BESIDE}"),
        (25, 5, f"follow_ups[0] holds no Korean: {BESIDE}"),
    ]


@pytest.mark.parametrize(
    "detection",
    [
        "  NCCL 타임아웃",  # English names beside Korean
        "  NCCL timeout (타임아웃) alerts",  # one Korean word is enough
        "  " + unicodedata.normalize("NFD", "처리량 그래프"),  # Korean as jamo: IL605's
    ],
)
def test_a_field_with_korean_in_it_is_not_reported(detection):
    assert findings((DETECTION, detection)) == []


def test_an_absent_or_empty_field_and_a_placeholder_are_not_reported():
    draft = ("status: published", "status: draft")
    absent = findings(draft, ("detection: |\n" + DETECTION + "\n", ""))
    empty = findings(draft, ("detection: |\n" + DETECTION, "detection:"), (ACTION, "  []"))
    assert absent == empty == []
    # A placeholder is IL402's alone: it says the field is not written yet.
    placeholder = incident("IL-0001", draft, (DETECTION, "  TODO"))
    assert findings(draft, (DETECTION, "  TODO")) == []
    assert [f[:2] for f in file_findings(narrative_missing, placeholder)] == [(19, 12)]


def test_a_draft_is_read_and_a_withdrawn_incident_is_not():
    english = (DETECTION, "  Alerts fired.")
    assert [f[:2] for f in findings(("status: published", "status: draft"), english)] == [(19, 12)]
    withdrawn = (
        ("status: published", "status: withdrawn"),
        english,
        ("sources:", "duplicate_of: IL-0002\nwithdrawn_reason: 같은 사건이다.\nsources:"),
    )
    assert findings(*withdrawn) == []


def test_lint_prints_a_warning_and_passes(tmp_path):
    text = incident("IL-0001", (TITLE, "title: Storage metadata saturation slowed training"))
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    run = run_curator("lint", "--root", str(root), "--no-cache", "--quiet", cwd=root)
    expected = f"incidents/IL-0001.yaml:2:8: IL404 [warning] title holds no Korean: {BESIDE}"
    assert (run.code, run.out.splitlines()) == (0, [expected]), run


def test_the_rule_is_documented():
    rules = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "| [IL404](#il404) | not-in-korean | warning |" in rules
    assert "## IL404\n\n**not-in-korean** · warning\n" in rules
