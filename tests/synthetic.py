"""The benchmark generator (benchmarks/generate.py), importable from tests."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from conftest import REPO


def generator() -> ModuleType:
    name = "curator_benchmarks_generate"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, REPO / "benchmarks" / "generate.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up by name
        spec.loader.exec_module(module)
    return sys.modules[name]


def synthetic_library(
    out: Path, count: int = 200, seed: int = 7, defects_per_rule: int = 1
) -> tuple[Path, dict[str, Any]]:
    """A generated library in `out` and its manifest (expected findings, duplicate pairs)."""
    gen = generator()
    gen.generate(out, gen.Options(count, seed, defects_per_rule))
    return out, json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def expected_findings(manifest: dict[str, Any]) -> set[tuple[str, int, int, str]]:
    return {(e["path"], e["line"], e["column"], e["code"]) for e in manifest["expected_findings"]}
