"""Shared by the rules that report what the loader found before any document existed."""

from __future__ import annotations

from curator.findings import Finding
from curator.load import Problem
from curator.rules.base import IncidentFile, Rule


def report(file: IncidentFile, kind: Problem, rule: Rule) -> list[Finding]:
    return [
        rule.at(file.display, problem.position, problem.message)
        for problem in file.loaded.problems
        if problem.kind is kind
    ]
