"""Valid incident texts for tests, built from one template."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from types import ModuleType

from curator.lint import parse_incident
from curator.taxonomy import load_taxonomy

REPO = Path(__file__).resolve().parent.parent

TEMPLATE = """\
id: {id}
title: 공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다
status: published
occurred: 2024-05
organizations:
  - Example
facets:
  causes:
    - capacity-limit
  components:
    - nccl
  symptoms:
    - throughput-degradation
  contributing_factors: []
symptom: |
  학습 처리량이 떨어졌다.
trigger: |
  노드 수를 늘렸다.
detection: |
  처리량 그래프에서 보였다.
actions:
  - 데이터를 로컬 디스크로 옮겼다.
lessons: |
  작은 규모 시험으로는 알 수 없었다.
sources:
  - url: https://example.com/postmortems/{id}
    title: Storage postmortem
"""


def incident(incident_id: str, *replacements: tuple[str, str]) -> str:
    text = TEMPLATE.format(id=incident_id)
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


# An English write-up of an event the bundled library has twice: IL-0260 and its withdrawn
# copy IL-0261 (GitLab, 2017-01-31).
GITLAB_EN = """\
id: IL-NEW-gl
title: >-
  GitLab.com engineer ran rm -rf on the primary PostgreSQL data directory; backups failed
  and ~6 hours of data was lost.
status: draft
occurred: 2017-01-31
organizations:
  - GitLab
facets:
  causes:
    - human-error
  components:
    - postgresql
  symptoms:
    - data-loss
  contributing_factors: []
sources:
  - url: https://www.theregister.com/2017/02/01/gitlab_data_loss/
    title: "GitLab.com melts down after wrong directory deleted, backups fail"
    publisher: The Register
    language: en
"""


def file_findings(rule: ModuleType, text: str) -> list[tuple[int, int, str]]:
    """(line, column, message) of each finding of the file rule `rule` in `text`, a valid
    incident `IL-0001.yaml`, read with the bundled taxonomy on 2026-01-01."""
    taxonomy = load_taxonomy(REPO / "schema" / "taxonomy")
    path = Path("IL-0001.yaml")
    file = parse_incident(path, path.name, text.encode(), taxonomy, dt.date(2026, 1, 1))
    assert file.incident is not None and not file.loaded.problems  # a valid file, read
    return [(f.line, f.column, f.message) for f in rule.check(file)]
