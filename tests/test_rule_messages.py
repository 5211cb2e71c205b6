"""Findings that no broken example shows: each message as `curator lint` prints it, with
the file, line and column it points at."""

from __future__ import annotations

import pytest
from conftest import run_curator, write_library

from incidents import incident

TITLE = "공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다"
SOURCES = (
    "sources:\n  - url: https://example.com/postmortems/IL-0001\n    title: Storage postmortem\n"
)


@pytest.mark.parametrize(
    ("replacements", "expected"),
    [
        pytest.param(
            [("    - capacity-limit\n", "    - nccl\n")],
            "incidents/IL-0001.yaml:9:7: IL301 [error] 'nccl' is not a term of causes "
            "(it is a term of components)",
            id="a term of another dimension is named as such",
        ),
        pytest.param(
            [("status: published", "status: withdrawn")],
            "incidents/IL-0001.yaml:3:9: IL205 [error] a withdrawn incident needs withdrawn_reason",
            id="withdrawn without a reason",
        ),
        pytest.param(
            [
                ("status: published", "status: draft"),
                ("작은 규모 시험으로는 알 수 없었다.", "TODO"),
            ],
            "incidents/IL-0001.yaml:23:10: IL402 [warning] 'lessons' holds a placeholder; "
            "leave it out instead",
            id="a placeholder in a draft is a warning",
        ),
        pytest.param(
            [("occurred: 2024-05\n", "occurred: 2024-05\nnull: 1\n")],
            "incidents/IL-0001.yaml:5:1: IL105 [error] an empty key is not allowed",
            id="a null key",
        ),
        pytest.param(
            [(f"title: {TITLE}", 'title: ""')],
            "incidents/IL-0001.yaml:2:8: IL201 [error] title: must not be empty",
            id="empty text",
        ),
        pytest.param(
            [(f"title: {TITLE}", "title: {a: b}")],
            "incidents/IL-0001.yaml:2:8: IL201 [error] title: expected text, found a mapping",
            id="a mapping for text",
        ),
        pytest.param(
            [(f"title: {TITLE}", "title: [a]")],
            "incidents/IL-0001.yaml:2:8: IL201 [error] title: expected text, found a list",
            id="a list for text",
        ),
        pytest.param(
            [("status: published", "status: done")],
            "incidents/IL-0001.yaml:3:9: IL201 [error] status: 'done' is not one of "
            "'published', 'draft' or 'withdrawn'",
            id="a status that is none",
        ),
        pytest.param(
            [(SOURCES, "sources: []\n")],
            "incidents/IL-0001.yaml:25:10: IL201 [error] sources: needs at least 1 item",
            id="no source",
        ),
    ],
)
def test_the_finding_is_printed_where_it_stands(tmp_path, replacements, expected):
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001", *replacements)})
    run = run_curator("lint", "--root", str(root), "--no-cache", "--quiet", cwd=root)
    assert run.out.splitlines() == [expected], run
    assert run.code == (1 if "[error]" in expected else 0)
