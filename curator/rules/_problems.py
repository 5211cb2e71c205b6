"""Shared by the rules that report what the loader found before any document existed."""

from __future__ import annotations

from curator.findings import Finding
from curator.load import LoadProblem, Problem
from curator.rules.base import IncidentFile, Rule


def report(file: IncidentFile, kind: Problem, rule: Rule) -> list[Finding]:
    return [
        rule.at(file.display, problem.position, problem.message)
        for problem in file.loaded.problems
        if problem.kind is kind and not (kind is Problem.SYNTAX and at_a_tab(file, problem))
    ]


def at_a_tab(file: IncidentFile, problem: LoadProblem) -> bool:
    """Whether a syntax error stands at a tab, which IL601 reports (and `curator fix`
    replaces), saying that the file cannot be read until then: one finding, not two."""
    if problem.kind is not Problem.SYNTAX or file.loaded.text is None:
        return False
    line, column = problem.position
    lines = file.loaded.text.split("\n")  # (as the loader places its problems)
    return line <= len(lines) and lines[line - 1][column - 1 : column] == "\t"
