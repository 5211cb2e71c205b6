"""The lint cache (.curator-cache/): never wrong, safe to delete, safe under concurrent runs."""

from __future__ import annotations

import datetime as dt
import hashlib
import inspect
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, run_curator, write_library
from synthetic import expected_findings, synthetic_library

import curator.lint as engine
import curator.lint_cache as kept
from curator.cache import FOLDER, KEEP_CONTEXTS, SHARDS, Store
from curator.findings import Finding
from curator.library import Library
from curator.lint import lint
from curator.load import Position
from curator.rules import FILE_RULES, occurred_in_future
from curator.rules.base import FileSummary, Located, SourceUrl
from incidents import incident

TODAY = dt.date(2026, 6, 1)


@pytest.fixture
def library(tmp_path: Path) -> Path:
    return write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": incident("IL-0001"),
            "IL-0002.yaml": incident("IL-0002"),
            "IL-0003.yaml": incident("IL-0003", ("    - nccl\n", "    - ncl\n")),
        },
    )


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the files actually checked (not answered from the cache)."""
    seen: list[str] = []
    real = engine.check_file

    def spy(path: Path, *args: object) -> kept.Checked:
        seen.append(path.name)
        return real(path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "check_file", spy)
    return seen


def run(root: Path, **options: object) -> list[tuple[str, int, int, str]]:
    findings = lint(Library.at(root), cwd=root, cache=True, jobs=1, **options)  # type: ignore[arg-type]
    return [(f.path, f.line, f.column, f.code) for f in findings]


def test_unchanged_files_come_from_the_cache(library, checks):
    first = run(library, today=TODAY)
    assert sorted(checks) == ["IL-0001.yaml", "IL-0002.yaml", "IL-0003.yaml"]
    checks.clear()
    assert run(library, today=TODAY) == first
    assert checks == []
    assert (library / FOLDER / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f59")


def test_a_changed_file_is_checked_again_even_with_the_same_size_and_mtime(library, checks):
    path = library / "incidents" / "IL-0001.yaml"
    run(library, today=TODAY)
    before = path.stat()
    text = path.read_text(encoding="utf-8")
    # Same length, same modification time: only the content (and ctime) differ.
    path.write_text(text.replace("- nccl\n", "- ncxl\n"), encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size
    checks.clear()
    found = run(library, today=TODAY)
    assert checks == ["IL-0001.yaml"]
    assert ("incidents/IL-0001.yaml", 11, 7, "IL301") in found


def test_a_file_changed_back_and_forth_quickly_is_never_served_stale(library):
    path = library / "incidents" / "IL-0002.yaml"
    original = path.read_text(encoding="utf-8")
    broken = original.replace("- nccl\n", "- ncxl\n")
    for _ in range(5):  # writes milliseconds apart: within one tick of a coarse clock
        path.write_text(broken, encoding="utf-8")
        assert ("incidents/IL-0002.yaml", 11, 7, "IL301") in run(library, today=TODAY)
        path.write_text(original, encoding="utf-8")
        assert not [f for f in run(library, today=TODAY) if f[0] == "incidents/IL-0002.yaml"]


def test_the_stat_of_a_recently_changed_file_is_not_trusted(tmp_path):
    path = tmp_path / "f"
    path.write_text("x")
    assert kept.settled_stat(path.stat()) is None
    old = 1_000_000_000_000_000_000  # 2001
    os.utime(path, ns=(old, old))
    # ctime moved to now with utime: still too recent to vouch for the content.
    assert kept.settled_stat(path.stat()) is None


def test_a_changed_taxonomy_invalidates_every_result(library, checks):
    assert run(library, today=TODAY) == [("incidents/IL-0003.yaml", 11, 7, "IL301")]
    components = library / "schema" / "taxonomy" / "components.yaml"
    text = components.read_text(encoding="utf-8")
    components.write_text(text.replace("  - id: nccl\n", "  - id: ncl\n"), encoding="utf-8")
    checks.clear()
    found = run(library, today=TODAY)
    assert len(checks) == 3
    assert ("incidents/IL-0001.yaml", 11, 7, "IL301") in found
    assert ("incidents/IL-0003.yaml", 11, 7, "IL301") not in found


def test_a_changed_rule_set_or_curator_source_invalidates(library, checks, monkeypatch):
    run(library, today=TODAY)
    checks.clear()
    monkeypatch.setattr(kept, "source_digest", lambda: "another version of curator")
    run(library, today=TODAY)
    assert len(checks) == 3
    checks.clear()
    monkeypatch.setattr(kept, "ALL", (*kept.ALL, occurred_in_future))  # one more rule
    run(library, today=TODAY)
    assert len(checks) == 3


def test_a_result_that_depends_on_today_is_checked_again_when_the_day_comes(library, checks):
    path = library / "incidents" / "IL-0001.yaml"
    path.write_text(incident("IL-0001", ("occurred: 2024-05", "occurred: 2026-07")))
    future = ("incidents/IL-0001.yaml", 4, 11, "IL503")
    assert future in run(library, today=dt.date(2026, 6, 30))
    assert future in run(library, today=dt.date(2026, 6, 30))
    checks.clear()
    assert future not in run(library, today=dt.date(2026, 7, 1))
    assert checks == ["IL-0001.yaml"]
    assert future in run(library, today=dt.date(2026, 6, 1))  # and back (a test's `today`)


def test_rules_that_read_today_tell_the_cache_when_their_answer_changes():
    for rule in FILE_RULES:
        if "today" in inspect.getsource(rule.check):
            assert hasattr(rule, "turning_points"), rule.__name__


def test_deleting_the_cache_in_the_middle_of_a_run_is_harmless(tmp_path):
    root, manifest = synthetic_library(tmp_path / "lib", count=200)
    run(root)
    (root / "incidents" / "IL-0005.yaml").touch()

    def delete_cache(done: int, total: int) -> None:
        shutil.rmtree(root / FOLDER, ignore_errors=True)

    assert set(run(root, progress=delete_cache)) == expected_findings(manifest)
    assert set(run(root)) == expected_findings(manifest)


def _shards(root: Path) -> list[Path]:
    return sorted((root / FOLDER).glob("lint-*/*.json"))


def test_a_corrupted_shard_is_ignored_not_trusted(library, checks):
    expected = run(library, today=TODAY)
    for shard in _shards(library):
        data = bytearray(shard.read_bytes())
        # Turn the error of IL-0003 into something else, and flip a bit everywhere else.
        text = data.replace(b'"IL301"', b'"IL999"')
        text[-3] ^= 0x01
        shard.write_bytes(bytes(text))
    checks.clear()
    assert run(library, today=TODAY) == expected
    assert len(checks) == 3


def test_an_entry_of_an_unexpected_shape_is_recomputed(library, checks, monkeypatch):
    expected = run(library, today=TODAY)
    root = Library.at(library)
    store = Store.open(root.root, "lint", kept.context(root))
    for name in ("IL-0001.yaml", "IL-0002.yaml", "IL-0003.yaml"):
        key = f"incidents/{name}"
        assert store.get(key) is not None
        store.put(key, ["not", "a", "lint", "result"])
    store.save()
    checks.clear()
    assert run(library, today=TODAY) == expected
    assert len(checks) == 3


def test_a_copied_or_committed_cache_is_not_trusted(library, tmp_path, checks):
    run(library, today=TODAY)
    copy = tmp_path / "copy"
    shutil.copytree(library, copy)  # .curator-cache/ included, as a commit would carry it
    checks.clear()
    run(copy, today=TODAY)
    assert len(checks) == 3


def test_no_cache_option_neither_reads_nor_writes(library):
    result = run_curator("lint", "--root", str(library), "--no-cache")
    assert result.code == 1
    assert not (library / FOLDER).exists()
    result = run_curator("lint", "--root", str(library))
    assert result.code == 1
    assert len(_shards(library)) >= 1


def test_an_unwritable_cache_folder_only_costs_speed(library, monkeypatch):
    (library / FOLDER).write_text("a file where the cache folder should be")
    assert run(library, today=TODAY) == [("incidents/IL-0003.yaml", 11, 7, "IL301")]


def test_two_concurrent_runs_agree_and_leave_an_intact_cache(tmp_path, checks):
    root, manifest = synthetic_library(tmp_path / "lib", count=300)
    command = [sys.executable, "-m", "curator", "lint", "--root", str(root), "--format", "json"]
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    runs = [
        subprocess.Popen([*command, "--jobs", jobs], stdout=subprocess.PIPE, env=env, cwd=root)
        for jobs in ("1", "2", "2")
    ]
    outputs = [process.communicate()[0] for process in runs]
    assert all(process.returncode == 1 for process in runs)
    assert outputs[0] == outputs[1] == outputs[2]
    for shard in _shards(root):  # every shard whole: header checksum matches its body
        header, _, body = shard.read_bytes().partition(b"\n")
        assert header.split()[1].decode() == hashlib.sha256(body).hexdigest()
    assert len(_shards(root)) <= 2 * SHARDS  # results and summaries
    assert set(run(root)) == expected_findings(manifest)
    checks.clear()
    run(root)
    # The cache the concurrent runs left answers for every incident file (the .yml one is
    # not read at all: its extension is the finding).
    assert [name for name in checks if name.endswith(".yaml")] == []


def test_findings_and_summaries_survive_the_round_trip(tmp_path):
    root, _ = synthetic_library(tmp_path / "lib", count=200)
    library = Library.at(root)
    paths = [str(path) for path in library.incident_paths()]
    displays = engine.display_paths(paths, root)
    fresh = engine.check_files(paths, displays, library.taxonomy, TODAY)
    store = kept.ResultCache.open(library)
    assert store is not None
    for path, result in zip(paths, fresh, strict=True):
        store.put(path, TODAY.isoformat(), result)
    store.save()
    reopened = kept.ResultCache.open(library)
    assert reopened is not None
    back = [reopened.get(p, d, TODAY.isoformat()) for p, d in zip(paths, displays, strict=True)]
    cacheable = [(a, b) for a, b in zip(fresh, back, strict=True) if a.digest is not None]
    assert len(cacheable) >= 190
    for original, again in cacheable:
        assert again is not None
        assert again.findings == original.findings
        assert again.summary == original.summary
        assert all(isinstance(f, Finding) for f in again.findings)


def test_the_cache_folder_is_ignored_by_git_anywhere():
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", "tests/data/broken/.curator-cache/x"],
        cwd=REPO,
        check=False,
    )
    assert ignored.returncode == 0


def _shift_lines(path: Path) -> None:
    """Add a comment at the top: every position in the file moves, so its summary changes."""
    path.write_bytes(b"# moved\n" + path.read_bytes())


def test_a_lost_summary_is_worked_out_again(tmp_path):
    root, manifest = synthetic_library(tmp_path / "lib", count=200)
    run(root)
    for shard in (root / FOLDER).glob("lint-summary-*/*.json"):
        shard.unlink()  # as if a concurrent run had won every summary shard
    _shift_lines(root / "incidents" / "IL-0100.yaml")
    moved = {
        (path, line + (path == "incidents/IL-0100.yaml"), column, code)
        for path, line, column, code in expected_findings(manifest)
    }
    assert set(run(root)) == moved


def test_a_summary_of_an_unexpected_shape_means_starting_afresh(library):
    expected = run(library, today=TODAY)
    root = Library.at(library)
    summaries = Store.open(root.root, "lint-summary", kept.context(root))
    key = "incidents/IL-0002.yaml"
    summary_key, _ = summaries.get(key)
    summaries.put(key, [summary_key, ["only", "three", "fields"]])
    summaries.save()
    _shift_lines(library / "incidents" / "IL-0001.yaml")  # the cross-file rules must run
    moved = [(p, line + (p == "incidents/IL-0001.yaml"), c, code) for p, line, c, code in expected]
    assert run(library, today=TODAY) == moved


def test_edits_that_keep_every_summary_reuse_the_cross_file_findings(tmp_path, monkeypatch):
    root, manifest = synthetic_library(tmp_path / "lib", count=200)
    run(root)
    calls: list[int] = []
    real = engine._Run.summaries
    monkeypatch.setattr(engine._Run, "summaries", lambda *a: calls.append(1) or real(*a))
    path = root / "incidents" / "IL-0100.yaml"
    path.write_bytes(path.read_bytes() + b"# a comment at the end moves nothing\n")
    assert set(run(root)) == expected_findings(manifest)
    assert calls == []
    _shift_lines(path)
    run(root)
    assert calls == [1]


@pytest.mark.parametrize(
    "summary",
    [
        FileSummary("incidents/IL-0001.yaml", "IL-0001"),
        FileSummary(
            "a/IL-0002.yaml",
            "IL-0002",
            Located("IL-0002", Position(1, 5)),
            "withdrawn",
            "IL-0001",
            [("duplicate_of", Located("IL-0001", Position(30, 15)))],
            [
                SourceUrl("https://www.a.example/x/", Position(25, 10), "https://a.example/x"),
                SourceUrl("https://b.example/y", Position(28, 10), "https://b.example/y"),
                SourceUrl("  ", Position(29, 10), ""),  # normal form "" ≠ the URL
            ],
        ),
        FileSummary("IL-0003.yaml", "IL-0003", Located("IL-9", Position(1, 5))),
    ],
)
def test_a_summary_survives_encoding(summary):
    data = json.loads(json.dumps(kept.encode_summary(summary)))
    assert kept.decode_summary(summary.display, data) == summary


def test_old_contexts_are_removed_and_other_kinds_kept(library, monkeypatch):
    for version in range(6):
        monkeypatch.setattr(kept, "source_digest", lambda v=version: f"version {v}")
        run(library, today=TODAY)
    folders = [p.name for p in (library / FOLDER).iterdir() if p.is_dir()]
    assert len([f for f in folders if f.startswith("lint-summary-")]) == 1 + KEEP_CONTEXTS
    assert len([f for f in folders if not f.startswith("lint-summary-")]) == 1 + KEEP_CONTEXTS
