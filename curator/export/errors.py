"""Why an export did not happen: the two outcomes the CLI maps to exit statuses."""

from __future__ import annotations

from collections.abc import Sequence

from curator.findings import Finding, Severity


class ExportFailed(Exception):
    """An export that did not happen, and what it had passed over by then that the user may
    not expect it to (`notes`, said before why it failed: `curator.export._noting`)."""

    notes: tuple[str, ...] = ()


class ExportError(ExportFailed):
    """The export cannot run here (no git history, uncommitted changes, bad --out): exit 2."""


class ExportRefused(ExportFailed):
    """The library is not fit to release (lint errors, placeholder ids): exit 1. `findings`:
    all that `curator lint --release` reports, warnings too; `errors`, those that refuse."""

    def __init__(self, findings: Sequence[Finding]) -> None:
        super().__init__("the library is not ready for release")
        self.findings = list(findings)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.ERROR]
