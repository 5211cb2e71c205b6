"""A finding: one thing wrong with one place in one file. The unit every report prints."""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass
from typing import Any


class Severity(enum.StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int
    column: int
    code: str
    severity: Severity
    message: str
    fixable: bool = False

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["severity"] = str(self.severity)
        return data
