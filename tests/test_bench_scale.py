"""benchmarks/bench_scale.py, run by hand: the libraries it measures are today's."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import benchmark_script


def test_a_library_an_earlier_generator_wrote_is_made_again_not_measured(tmp_path: Path):
    # A library kept from an earlier generator (its defects elsewhere, the newest rule's
    # missing) was measured as today's, because only its manifest's presence was asked.
    bench_scale = benchmark_script("bench_scale")
    root = bench_scale.library(tmp_path, 120, clean=False)
    manifest = root / "manifest.json"
    today = json.loads(manifest.read_text(encoding="utf-8"))
    stale = {**today, "generator_version": today["generator_version"] - 1}
    manifest.write_text(json.dumps(stale), encoding="utf-8")
    (root / "incidents" / "IL-0001.yaml").write_text("left by the earlier generator\n")

    assert bench_scale.library(tmp_path, 120, clean=False) == root
    assert json.loads(manifest.read_text(encoding="utf-8")) == today
    assert "earlier generator" not in (root / "incidents" / "IL-0001.yaml").read_text()


def test_a_library_of_today_is_kept(tmp_path: Path):
    bench_scale = benchmark_script("bench_scale")
    root = bench_scale.library(tmp_path, 30, clean=True)
    (root / "kept").write_text("")
    assert bench_scale.library(tmp_path, 30, clean=True) == root
    assert (root / "kept").exists()
