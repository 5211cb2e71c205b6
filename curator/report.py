"""Findings → text for people, JSON for machines, workflow commands for GitHub."""

from __future__ import annotations

import json
from collections.abc import Sequence

from curator.findings import Finding, Severity
from curator.oneline import escaped

FORMATS = ("text", "json", "github")


def render(findings: Sequence[Finding], fmt: str) -> str:
    if fmt == "json":
        return json.dumps([f.to_json() for f in findings], ensure_ascii=False, indent=2) + "\n"
    if fmt == "github":
        return "".join(github_annotation(f) + "\n" for f in findings)
    return "".join(text_line(f) + "\n" for f in findings)


def text_line(finding: Finding) -> str:
    fix = " (fixable)" if finding.fixable else ""
    return (
        f"{escaped(finding.path)}:{finding.line}:{finding.column}: "
        f"{finding.code} [{finding.severity}] {escaped(finding.message)}{fix}"
    )


def summary(findings: Sequence[Finding], files: int) -> str:
    errors = sum(f.severity is Severity.ERROR for f in findings)
    warnings = len(findings) - errors
    fixable = sum(f.fixable for f in findings)
    text = f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
    if fixable:
        text += f" ({fixable} fixable with `curator fix`)"
    return f"{text} in {files} file{'s' * (files != 1)} checked"


def workflow_command(level: str, message: str, **properties: object) -> str:
    """`::level key=value,…::message`, a GitHub workflow command (an annotation), with its
    values escaped as GitHub reads them: a message may hold no line break, a property no
    `:` or `,` either."""
    fields = ",".join(f"{key}={_escape_property(str(value))}" for key, value in properties.items())
    return f"::{level} {fields}::{_escape_data(message)}"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_annotation(finding: Finding) -> str:
    """A workflow command: GitHub shows it on the file's line in the pull request."""
    level = "error" if finding.severity is Severity.ERROR else "warning"
    fix = " (fixable with `curator fix`)" if finding.fixable else ""
    return workflow_command(
        level,
        finding.message + fix,
        file=finding.path,
        line=finding.line,
        col=finding.column,
        title=finding.code,
    )
