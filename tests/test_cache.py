"""The lint cache (.curator-cache/): never wrong, safe to delete, safe under concurrent runs."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import inspect
import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, run_curator, write_library
from synthetic import expected_findings, synthetic_library

import curator.lint as engine
import curator.lint_cache as kept
from curator.cache import FOLDER, KEEP_CONTEXTS, SHARDS, Encoded, Store, _shard_of, write_shards
from curator.findings import Finding, Severity
from curator.library import Library
from curator.library_index import anchor_keys, held_keys
from curator.lint import lint
from curator.load import Position
from curator.rules import FILE_RULES, LIBRARY_RULES, occurred_in_future
from curator.rules.base import FileSummary, LibraryView, Located, SourceUrl
from curator.workers import Workers
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
    options = {"cache": True, **options}
    findings = lint(Library.at(root), cwd=root, jobs=1, **options)  # type: ignore[arg-type]
    return [(f.path, f.line, f.column, f.code) for f in findings]


def test_lint_leaves_every_files_result_to_a_caller_that_holds_them(library):
    # `held` (the CLI's, whose process ends next): the same findings, cold and warm, and
    # each file's result left there rather than freed as lint returns.
    for _ in ("cold", "warm"):
        held: list[object] = []
        assert run(library, held=held) == run(library)
        lists = [item for item in held if isinstance(item, list) and item]
        (checked,) = [results for results in lists if isinstance(results[0], kept.Checked)]
        names = [Path(result.display).name for result in checked]
        assert names == ["IL-0001.yaml", "IL-0002.yaml", "IL-0003.yaml"]
        assert "IL301" in [finding.code for finding in checked[2].findings]  # (`ncl`)


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


def test_a_settled_file_is_answered_by_its_stat_and_a_touched_one_by_its_bytes_once(
    library, checks, monkeypatch
):
    monkeypatch.setattr(kept, "SETTLED_NS", 0)  # every file is settled once written
    read: list[str] = []
    real = kept.ResultCache._same_bytes
    spy = staticmethod(lambda p, d: read.append(Path(p).name) or real(p, d))
    monkeypatch.setattr(kept.ResultCache, "_same_bytes", spy)
    first = run(library, today=TODAY)
    assert run(library, today=TODAY) == first
    assert read == []  # same stat: not even read
    os.utime(library / "incidents" / "IL-0002.yaml")  # touched: same bytes, other times
    assert run(library, today=TODAY) == first
    assert read == ["IL-0002.yaml"]
    assert run(library, today=TODAY) == first
    assert read == ["IL-0002.yaml"]  # its new stat was recorded
    assert checks == ["IL-0001.yaml", "IL-0002.yaml", "IL-0003.yaml"]


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


@pytest.mark.parametrize(
    ("where", "name"),
    [
        (kept, "__version__"),
        (kept.sys, "version"),
        (kept.pydantic, "VERSION"),
        (kept.yaml, "__version__"),
        (kept, "_libyaml_version"),
    ],
)
def test_another_version_of_curator_python_or_a_parser_invalidates(
    library, checks, monkeypatch, where, name
):
    first = run(library, today=TODAY)
    checks.clear()
    old = getattr(where, name)
    monkeypatch.setattr(where, name, (lambda: "9.9") if callable(old) else f"9.9 ({old})")
    assert run(library, today=TODAY) == first
    assert len(checks) == 3


def test_a_file_replaced_by_a_link_to_the_same_bytes_is_not_answered_from_the_cache(
    library, tmp_path
):
    path = library / "incidents" / "IL-0001.yaml"
    first = run(library, today=TODAY)
    outside = tmp_path / "IL-0001.yaml"
    shutil.move(path, outside)
    path.symlink_to(outside)  # same bytes, same name: only the kind of file changed
    found = run(library, today=TODAY)
    assert "IL107" in {code for name, _, _, code in found if name == "incidents/IL-0001.yaml"}
    path.unlink()
    shutil.move(outside, path)
    assert run(library, today=TODAY) == first


def test_a_run_from_another_folder_is_answered_from_the_cache_under_its_own_paths(library, checks):
    elsewhere = {"cache": True, "cwd": library.parent, "jobs": 1, "today": TODAY}
    first = lint(Library.at(library), **elsewhere)  # type: ignore[arg-type]
    assert first[0].path == "lib/incidents/IL-0003.yaml"
    checks.clear()
    assert lint(Library.at(library), **elsewhere) == first  # type: ignore[arg-type]
    assert checks == []
    assert run(library, today=TODAY) == [("incidents/IL-0003.yaml", 11, 7, "IL301")]
    assert len(checks) == 3  # findings name their file: shown otherwise, checked again


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


def test_a_source_published_in_the_future_is_checked_again_when_the_day_comes(library, checks):
    path = library / "incidents" / "IL-0001.yaml"
    source = "    title: Storage postmortem\n"
    path.write_text(incident("IL-0001", (source, f"{source}    published: 2026-07\n")))
    future = ("incidents/IL-0001.yaml", 28, 16, "IL503")
    assert future in run(library, today=dt.date(2026, 6, 30))
    checks.clear()
    assert future not in run(library, today=dt.date(2026, 7, 1))
    assert checks == ["IL-0001.yaml"]


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


def test_ctrl_c_as_a_cache_file_is_made_leaves_no_temporary(tmp_path, monkeypatch):
    # A stop between mkstemp making the file and the cache keeping its name left it in
    # .curator-cache for good (`.CACHEDIR.TAG.k2x8.tmp`), and its descriptor open.
    making = tempfile.mkstemp

    def ctrl_c_once_made(**where: Any) -> tuple[int, str]:
        made = making(**where)
        signal.raise_signal(signal.SIGINT)  # (as the terminal sends it)
        return made

    open_before = sorted(os.listdir("/proc/self/fd"))
    monkeypatch.setattr(tempfile, "mkstemp", ctrl_c_once_made)
    with pytest.raises(KeyboardInterrupt):  # (deferred, not dropped)
        Store.open(tmp_path, "lint", ["a context"])
    assert list((tmp_path / FOLDER).iterdir()) == []
    assert sorted(os.listdir("/proc/self/fd")) == open_before


@pytest.mark.parametrize("linked", [FOLDER, "its store's folder"])
def test_a_cache_folder_that_is_a_link_turns_caching_off(tmp_path, linked):
    # A `.curator-cache` committed as a link (or holding one where a store's folder goes)
    # would have every write land where it points. (The whole case: test_hostile_files.py.)
    root = tmp_path / "lib"
    root.mkdir()
    folder = Store.open(root, "lint", ["a context"]).folder
    assert folder is not None
    replaced = root / FOLDER if linked == FOLDER else folder
    shutil.rmtree(replaced)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    replaced.symlink_to(elsewhere)
    store = Store.open(root, "lint", ["a context"])
    store.put("key", [1])
    store.save()
    store.write_blob("blob", b"bytes")
    Store.open(root, "lint", ["another context"], others_kept=0)  # would remove the old
    assert (store.enabled, store.read_blob("blob", "")) == (False, None)
    assert list(elsewhere.iterdir()) == [] and replaced.is_symlink()


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
    store = kept.ResultCache.open(library)
    assert store is not None
    fresh = engine.check_files(paths, displays, library.taxonomy, TODAY, store)  # (and kept)
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
    """Add a comment at the top: every position in the file moves, so its summary changes
    (but not the values in it)."""
    path.write_bytes(b"# moved\n" + path.read_bytes())


def _change_a_value(path: Path) -> None:
    """Cite another report in place of the first source: a value the cross-file rules read."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line.startswith("  - url: "))
    lines[first] = f"  - url: https://changed.example/{path.stem}\n"
    path.write_text("".join(lines), encoding="utf-8")


def test_a_lost_summary_is_worked_out_again(tmp_path):
    root, manifest = synthetic_library(tmp_path / "lib", count=200)
    run(root)
    for shard in (root / FOLDER).glob("lint-summary-*/*.json"):
        shard.unlink()  # as if a concurrent run had won every summary shard
    _change_a_value(root / "incidents" / "IL-0100.yaml")  # the cross-file rules must run
    assert set(run(root)) == expected_findings(manifest)


def test_a_summary_of_an_unexpected_shape_means_starting_afresh(library, checks):
    expected = run(library, today=TODAY)
    root = Library.at(library)
    summaries = Store.open(root.root, "lint-summary", kept.context(root))
    key = "incidents/IL-0002.yaml"
    summary_key, _ = summaries.get(key)
    summaries.put(key, [summary_key, ["only", "three", "fields"]])
    summaries.save()
    # Without this the run reads only the summaries the changed file shares keys with,
    # and IL-0002's was never looked at.
    for index in (library / FOLDER).glob("lint-*/library-index.json"):
        index.write_bytes(index.read_bytes() + b" ")  # then every summary is read
    _change_a_value(library / "incidents" / "IL-0001.yaml")  # the cross-file rules must run
    checks.clear()
    assert run(library, today=TODAY) == expected
    assert sorted(checks) == ["IL-0001.yaml", "IL-0002.yaml"]  # its summary lost: read again


def test_an_entry_curator_did_not_write_is_forgotten_not_met_again(library):
    # A summary that hashes to what its entry names but cannot be decoded (CorruptEntry):
    # this run is worked out without the cache, and the cache is emptied for the next.
    expected = run(library, today=TODAY)
    root = Library.at(library)
    results = Store.open(root.root, "lint", kept.context(root))
    summaries = Store.open(root.root, "lint-summary", kept.context(root))
    key, bad = "incidents/IL-0002.yaml", ["only", "three", "fields"]
    entry = results.get(key)
    entry[6] = kept._hash(bad)
    results.put(key, entry)
    results.save()
    summaries.put(key, [entry[6], bad])
    summaries.save()
    for index in (library / FOLDER).glob("lint-*/library-index.json"):
        index.write_bytes(index.read_bytes() + b" ")  # then every summary is read
    _change_a_value(library / "incidents" / "IL-0001.yaml")  # the cross-file rules must run
    assert run(library, today=TODAY) == expected
    for kind in ("lint", "lint-summary"):
        assert Store.open(root.root, kind, kept.context(root)).get(key) is None


def _spy_on_summaries(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many summaries the cross-file rules read, each time they ran."""
    calls: list[int] = []
    real = engine._Run.run_library_rules

    def spy(self: engine._Run, summaries: list[FileSummary], *rest: Any) -> list[Finding]:
        calls.append(len(summaries))
        return real(self, summaries, *rest)

    monkeypatch.setattr(engine._Run, "run_library_rules", spy)
    return calls


def test_edits_that_keep_every_value_reuse_the_cross_file_findings(tmp_path, monkeypatch):
    root, manifest = synthetic_library(tmp_path / "lib", count=200)
    run(root)
    calls = _spy_on_summaries(monkeypatch)
    path = root / "incidents" / "IL-0100.yaml"
    path.write_bytes(path.read_bytes() + b"# a comment at the end moves nothing\n")
    assert set(run(root)) == expected_findings(manifest)
    _shift_lines(path)
    assert set(run(root)) == expected_findings(manifest)
    assert calls == []


def test_a_changed_value_reruns_the_cross_file_rules_on_the_files_it_concerns(
    tmp_path, monkeypatch
):
    root, manifest = synthetic_library(tmp_path / "lib", count=200)
    run(root)
    calls = _spy_on_summaries(monkeypatch)
    path = root / "incidents" / "IL-0100.yaml"
    _change_a_value(path)  # a new, unshared URL: no other file holds one of its keys
    assert set(run(root)) == expected_findings(manifest)
    assert calls == [1]
    other = root / "incidents" / "IL-0101.yaml"
    other.write_text(path.read_text(encoding="utf-8").replace("IL-0100", "IL-0101"), "utf-8")
    findings = run(root)  # IL-0101 now cites IL-0100's new URL: both are reported
    before = {(path, code) for path, _, _, code in expected_findings(manifest)}
    shared = {(path, code) for path, _, _, code in findings} - before
    assert shared == {("incidents/IL-0100.yaml", "IL502"), ("incidents/IL-0101.yaml", "IL502")}
    assert calls[1] < 10  # the two files, and those holding IL-0101's other keys
    assert findings == run(root, cache=False)  # as without a cache


def test_findings_worked_out_again_list_other_files_in_the_library_order(tmp_path):
    """The rules see the files a change concerns in the order of the whole library, so
    that a message naming several files reads as it would without a cache."""
    root, _ = synthetic_library(tmp_path / "lib", count=200)
    folder = root / "incidents"
    texts = {path: path.read_bytes() for path in sorted(folder.glob("IL-*.yaml"))}
    first, second, third = [
        p for p, text in texts.items() if b"\nid: %b\n" % p.stem.encode() in b"\n" + text
    ][:3]
    for path in (second, third):  # the first one's id, used twice more
        path.write_bytes(
            texts[path].replace(b"id: %b" % path.stem.encode(), b"id: %b" % first.stem.encode())
        )
    run(root)
    _change_a_value(third)  # the last of the three: the rules see it first
    ids = [f.message for f in lint(Library.at(root), cwd=root, cache=True) if f.code == "IL204"]
    others = f"incidents/{second.name}, incidents/{third.name}"
    assert f"id {first.stem} is also used by {others}" in ids
    assert run(root) == run(root, cache=False)


def test_a_file_changed_while_its_lost_summary_is_worked_out_again_keeps_no_record(
    tmp_path, monkeypatch
):
    """A result kept without its summary is checked again when the cross-file rules need
    it; if the file changed since it was found unchanged, the findings come from values
    the cache did not record for it, and must not be kept under the values it did."""
    root, _ = synthetic_library(tmp_path / "lib", count=200)
    folder = root / "incidents"
    moving, other = folder / "IL-0100.yaml", folder / "IL-0102.yaml"
    old = moving.read_bytes()
    url = next(line for line in other.read_bytes().splitlines() if line.startswith(b"  - url: "))
    lines = old.splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line.startswith(b"  - url: "))
    new = b"".join([*lines[:first], url + b"\n", *lines[first + 1 :]])  # cites other's report
    run(root)
    for kept_apart in [*folder.parent.glob(f"{FOLDER}/lint-summary-*/*.json")]:
        kept_apart.unlink()  # as if a concurrent run had won every summary shard
    for index in folder.parent.glob(f"{FOLDER}/lint-*/library-index.json"):
        index.unlink()
    _change_a_value(folder / "IL-0101.yaml")  # the cross-file rules must run on every file
    real = engine.check_file

    def edited_meanwhile(path: Path, *args: Any) -> kept.Checked:
        if path == moving and moving.read_bytes() == old:
            moving.write_bytes(new)
        return real(path, *args)

    monkeypatch.setattr(engine, "check_file", edited_meanwhile)
    during = run(root)
    assert ("incidents/IL-0102.yaml", "IL502") in {(p, c) for p, _, _, c in during}
    monkeypatch.setattr(engine, "check_file", real)
    moving.write_bytes(old)  # back to the bytes the cache recorded for it
    assert run(root) == run(root, cache=False)


def test_lint_without_a_kept_index_works_out_every_file_again(tmp_path, monkeypatch):
    root, manifest = synthetic_library(tmp_path / "lib", count=200)
    run(root)
    for index in (root / FOLDER).glob("lint-*/library-index.json"):
        index.write_bytes(index.read_bytes() + b" ")  # no longer the one the record names
    calls = _spy_on_summaries(monkeypatch)
    _change_a_value(root / "incidents" / "IL-0100.yaml")
    assert set(run(root)) == expected_findings(manifest)
    assert calls == [200]
    _change_a_value(root / "incidents" / "IL-0101.yaml")
    assert set(run(root)) == expected_findings(manifest)
    assert calls[0] == 200 and calls[1] < 10  # with the index the run before wrote


def test_kept_cross_file_findings_follow_their_lines(tmp_path, monkeypatch):
    root, manifest = synthetic_library(tmp_path / "lib", count=200)
    expected = expected_findings(manifest)
    cross_file = {"IL204", "IL401", "IL502"}
    holders = sorted({path for path, _l, _c, code in expected if code in cross_file})
    assert len(holders) >= 4  # a shared URL (two files), a dangling reference, a duplicate id
    run(root)
    calls = _spy_on_summaries(monkeypatch)

    def moved(shifts: dict[str, int]) -> set[tuple[str, int, int, str]]:
        return {(path, line + shifts.get(path, 0), col, code) for path, line, col, code in expected}

    for path in holders:
        _shift_lines(root / path)
    assert set(run(root)) == moved(dict.fromkeys(holders, 1))
    assert set(run(root)) == moved(dict.fromkeys(holders, 1))  # nothing changed since
    for _ in range(2):  # from findings kept after an earlier move
        _shift_lines(root / holders[0])
    shifts = {**dict.fromkeys(holders, 1), holders[0]: 3}
    assert set(run(root)) == moved(shifts)
    assert calls == []
    assert set(lint_without_cache(root)) == moved(shifts)
    # The findings were kept where they are now: a later run reads no summary to move them.
    asked: list[str] = []
    real = kept.ResultCache.summary_data
    monkeypatch.setattr(
        kept.ResultCache,
        "summary_data",
        lambda self, key, *a: asked.append(key) or real(self, key, *a),
    )
    assert set(run(root)) == moved(shifts)
    assert asked == []


def lint_without_cache(root: Path) -> list[tuple[str, int, int, str]]:
    findings = lint(Library.at(root), cwd=root, cache=False, jobs=1)
    return [(f.path, f.line, f.column, f.code) for f in findings]


def _elsewhere(summary: FileSummary, shift: int) -> FileSummary:
    """The same summary with every place moved, each by its own amount."""

    def at(position: Position, i: int) -> Position:
        return Position(position.line + shift + i, position.column + i % 3)

    return dataclasses.replace(
        summary,
        id=summary.id._replace(position=at(summary.id.position, 0)) if summary.id else None,
        references=[
            (name, ref._replace(position=at(ref.position, i + 1)))
            for i, (name, ref) in enumerate(summary.references)
        ],
        source_urls=[
            url._replace(position=at(url.position, i + 50))
            for i, url in enumerate(summary.source_urls)
        ],
    )


def test_cross_file_rules_decide_on_values_and_report_at_anchors(tmp_path):
    """What keeping cross-file findings across moved lines rests on (see curator.lint_cache):
    every cross-file rule decides on the values of the summaries alone, and reports each
    finding at an anchor of its file's summary."""
    root, _ = synthetic_library(tmp_path / "lib", count=200)
    library = Library.at(root)
    paths = sorted((root / "incidents").glob("IL-*.yaml"))
    summaries = [
        engine.check_file(path, f"incidents/{path.name}", library.taxonomy, TODAY).summary
        for path in paths
    ]
    moved = [_elsewhere(summary, 3 + k % 5) for k, summary in enumerate(summaries)]

    def findings(files: list[FileSummary]) -> list[Finding]:
        view = LibraryView(files, library.taxonomy, {})
        return sorted(f for rule in LIBRARY_RULES for f in rule.check_library(view))

    before, after = findings(summaries), findings(moved)
    assert {f.code for f in before} >= {"IL204", "IL401", "IL502"}
    old = {s.display: kept.anchors(s) for s in summaries}
    new = {s.display: kept.anchors(s) for s in moved}
    relocated = []
    for f in before:
        if f.path not in old:  # a taxonomy file: nothing moved there
            relocated.append(f)
            continue
        line, column = new[f.path][old[f.path].index((f.line, f.column))]
        relocated.append(dataclasses.replace(f, line=line, column=column))
    assert after == sorted(relocated)


def test_cross_file_rules_are_local_to_keys(tmp_path):
    """What rerunning the cross-file rules on the files a change concerns rests on (see
    curator.library_index): a finding at an anchor is the same whether the rules see the
    whole library or only the files holding the anchor's key."""
    root, _ = synthetic_library(tmp_path / "lib", count=200)
    first = root / "incidents" / "IL-0001.yaml"  # and its number spelt otherwise (IL204)
    spelt = first.read_text(encoding="utf-8").replace("id: IL-0001\n", "id: IL-00001\n", 1)
    (root / "incidents" / "IL-00001.yaml").write_text(spelt, encoding="utf-8")
    library = Library.at(root)
    summaries = [
        engine.check_file(path, f"incidents/{path.name}", library.taxonomy, TODAY).summary
        for path in sorted((root / "incidents").glob("IL-*.yaml"))
    ]

    def at_key(files: list[FileSummary], key: str) -> list[Finding]:
        view = LibraryView(files, library.taxonomy, {})
        found = [f for rule in LIBRARY_RULES for f in rule.check_library(view)]
        by_path = {s.display: s for s in files}
        return sorted(f for f in found if f.path in by_path and key_of(by_path[f.path], f) == key)

    def key_of(summary: FileSummary, finding: Finding) -> str:
        anchor = kept.anchors(summary).index((finding.line, finding.column))
        return anchor_keys(summary)[anchor]

    keys = {key for summary in summaries for key in anchor_keys(summary)}
    reported = 0
    for key in sorted(keys):
        holders = [s for s in summaries if key in held_keys(s)]
        whole = at_key(summaries, key)
        assert at_key(holders, key) == whole, key
        reported += bool(whole)
    assert reported >= 3  # a duplicate id, a dangling reference, a shared URL at least


def keep(
    cache: kept.ResultCache,
    fingerprint: str,
    findings: list[Finding],
    files: dict[str, kept.Checked],
    summaries: dict[str, FileSummary],
) -> None:
    rows = kept.finding_rows(findings, files, summaries)
    cache.keep_library_findings(fingerprint, rows, None, [])


def test_a_kept_cross_file_finding_at_no_anchor_is_worked_out_again(library):
    """Every cross-file finding is at a place its file's summary records today; should a
    future rule put one elsewhere, moving that file's lines must not leave it behind."""
    root = Library.at(library)
    cache = kept.ResultCache.open(root)
    assert cache is not None
    path = library / "incidents" / "IL-0001.yaml"
    display = "incidents/IL-0001.yaml"
    before = engine.check_file(path, display, root.taxonomy, TODAY)
    stray = Finding(display, 7, 3, "IL999", Severity.ERROR, "not at an anchor")
    at_id = Finding(display, *before.summary.id.position, "IL998", Severity.ERROR, "at the id")
    summaries = {display: before.summary}
    keep(cache, "key", [stray, at_id], {display: before}, summaries)
    assert cache.library_findings("key", {display: before}) == [stray, at_id]
    _shift_lines(path)
    after = engine.check_file(path, display, root.taxonomy, TODAY)
    assert after.values_key == before.values_key and after.summary_key != before.summary_key
    assert cache.library_findings("key", {display: after}) is None
    keep(cache, "key", [at_id], {display: before}, summaries)
    moved = Finding(display, at_id.line + 1, at_id.column, "IL998", Severity.ERROR, "at the id")
    assert cache.library_findings("key", {display: after}) == [moved]
    assert cache.library_findings("another key", {display: after}) is None


def test_a_kept_cross_file_finding_whose_summary_is_lost_is_worked_out_again(library):
    root = Library.at(library)
    path = library / "incidents" / "IL-0001.yaml"
    display = "incidents/IL-0001.yaml"
    before = engine.check_file(path, display, root.taxonomy, TODAY)
    at_id = Finding(display, *before.summary.id.position, "IL998", Severity.ERROR, "at the id")
    _shift_lines(path)
    after = engine.check_file(path, display, root.taxonomy, TODAY)
    cache = kept.ResultCache.open(root)
    assert cache is not None
    cache.put(str(path), TODAY.isoformat(), after)
    keep(cache, "key", [at_id], {display: before}, {display: before.summary})
    cache.save()
    for shard in (library / FOLDER).glob("lint-summary-*/*.json"):
        shard.unlink()  # as if a concurrent run had won every summary shard
    cache = kept.ResultCache.open(root)
    assert cache is not None
    again = cache.get(str(path), display, TODAY.isoformat())
    assert again is not None and again.summary_key == after.summary_key
    assert cache.library_findings("key", {display: again}) is None


def test_an_id_changed_in_place_reruns_the_cross_file_rules(library):
    """An id is a value the cross-file rules read (IL204): changing it where it stands
    (the same line and column, the same length) must not leave the kept findings as
    they were."""
    before = run(library, today=TODAY)
    assert "IL204" not in {code for _, _, _, code in before}
    path = library / "incidents" / "IL-0002.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("id: IL-0002\n", "id: IL-0001\n", 1),
        encoding="utf-8",
    )
    after = run(library, today=TODAY)
    assert run(library, today=TODAY, cache=False) == after
    duplicates = [(p, line, col) for p, line, col, code in after if code == "IL204"]
    assert duplicates == [("incidents/IL-0001.yaml", 1, 5), ("incidents/IL-0002.yaml", 1, 5)]


def test_a_reference_to_a_file_that_could_not_be_read_follows_that_file(tmp_path):
    """IL401 says the file named like a missing id is there but broken, or holds another
    id: that file holds the id's key (`library_index.held_keys`), so its going, coming
    back, mending and taking another id, and a reference to it made meanwhile, rerun the
    rule where the reference is."""
    broken = incident("IL-0002", ("title: ", "title: !custom "))
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    unread = root / "incidents" / "IL-0002.yaml"
    referring = root / "incidents" / "IL-0001.yaml"

    def dangling() -> list[str]:
        found = [f.message for f in lint(Library.at(root), cwd=root, cache=True, jobs=1)]
        alike = [f.message for f in lint(Library.at(root), cwd=root, jobs=1)]
        assert found == alike
        return [message for message in found if "IL-0002, but" in message]

    named = "related names IL-0002, but no incident has that id"
    said = f"{named}; incidents/IL-0002.yaml could not be read as an incident (its errors say why)"
    unread.write_text(broken, encoding="utf-8")
    assert dangling() == []
    referring.write_text(
        incident("IL-0001", ("sources:", "related:\n  - IL-0002\nsources:")), encoding="utf-8"
    )
    assert dangling() == [said]  # a reference made to the broken file
    unread.unlink()
    assert dangling() == [named]
    unread.write_text(broken, encoding="utf-8")
    assert dangling() == [said]
    unread.write_text(incident("IL-0002"), encoding="utf-8")
    assert dangling() == []
    unread.write_text(broken, encoding="utf-8")
    assert dangling() == [said]
    unread.write_text(incident("IL-0003"), encoding="utf-8")  # read, but another id
    assert dangling() == [f"{named}; incidents/IL-0002.yaml holds the id IL-0003 (IL203)"]
    unread.write_text(broken, encoding="utf-8")
    assert dangling() == [said]


def test_a_kept_cross_file_finding_at_a_negative_anchor_is_worked_out_again(tmp_path):
    """An anchor is an index into a list: one below zero (a buggy or tampered record, well
    formed) would count from the end and put the finding at another anchor of its file."""
    dangling = ("sources:\n", "related:\n  - IL-0099\nsources:\n")
    root = write_library(
        tmp_path / "lib",
        {"IL-0001.yaml": incident("IL-0001"), "IL-0003.yaml": incident("IL-0003", dangling)},
    )
    first = run(root)
    display = "incidents/IL-0003.yaml"
    assert [(p, c) for p, _, _, c in first if p == display] == [(display, "IL401")]
    results = Store.open(root, "lint", kept.context(Library.at(root)))
    record = results.get("library")
    (row,) = [row for row in record[1] if row[0] == display]
    assert row[kept.ANCHOR] == 1  # the reference: the id is 0, the source URL 2 (the last)
    row[kept.ANCHOR] = -1
    results.put("library", record)
    results.save()
    _shift_lines(root / display)  # its summary changes: the finding is put at its anchor
    expected = lint_without_cache(root)
    assert (display, first[-1][1] + 1, first[-1][2], "IL401") in expected
    assert sorted(run(root)) == sorted(expected)


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


def test_a_file_name_not_in_utf8_is_kept_like_any_other(library, checks):
    name = os.fsdecode(b"IL-\xff.yaml")  # a lone surrogate in Python (PEP 383)
    (library / "incidents" / name).write_bytes(b"")
    first = run(library, today=TODAY)
    assert (f"incidents/{name}", 1, 1, "IL106") in first
    checks.clear()
    assert run(library, today=TODAY) == first
    assert checks == []  # every file from the cache, that one included


def test_an_update_merges_into_the_shards_and_holds_none_of_them(tmp_path):
    store = Store.open(tmp_path, "export", ["context"])
    for number in range(1000):
        store.put(f"k{number}", f"old {number}")
    store.save()
    updated = {f"k{number}": f"new {number}" for number in range(500)}
    store = Store.open(tmp_path, "export", ["context"])
    kept = {*updated, *(f"k{number}" for number in range(0, 1000, 2))}
    store.update(updated, keep=kept)
    assert store._shards == {}  # each shard let go once written
    written = {_shard_of(key) for key in updated}
    again = Store.open(tmp_path, "export", ["context"])
    for number in range(1000):
        key = f"k{number}"
        if number < 500:
            assert again.get(key) == f"new {number}"
        elif number % 2 == 0 or _shard_of(key) not in written:
            assert again.get(key) == f"old {number}"  # kept, or in a shard not rewritten
        else:
            assert again.get(key) is None  # refused by `keep` in a shard rewritten


def test_a_blob_is_taken_back_whole_and_only_by_its_own_digest(tmp_path):
    store = Store.open(tmp_path, "lint", ["context"])
    first = store.write_blob("index.json", b"first")
    assert store.read_blob("index.json", first) == b"first"
    second = store.write_blob("index.json", "둘째".encode())  # another run's, since
    assert store.read_blob("index.json", first) is None
    assert store.read_blob("index.json", second) == "둘째".encode()
    path = store.folder / "index.json"
    path.write_bytes(path.read_bytes()[:-1])  # torn
    assert store.read_blob("index.json", second) is None


def test_a_store_whose_folder_cannot_be_made_takes_writes_and_keeps_nothing(tmp_path):
    # As `curator export` uses it when `.curator-cache` is a file: every write is a no-op.
    (tmp_path / FOLDER).write_text("a file where the cache folder should be")
    store = Store.open(tmp_path, "export", ["context"])
    assert not store.enabled
    store.put("k", "v")
    store.save()
    store.update({"k2": "v2"}, keep=None)
    digest = store.write_blob("index.json", b"body")
    assert store.read_blob("index.json", digest) is None
    assert Store.open(tmp_path, "export", ["context"]).get("k2") is None
    assert sorted(p.name for p in tmp_path.iterdir()) == [FOLDER]


def test_a_cache_deleted_while_a_store_is_opened_is_no_error(tmp_path, monkeypatch):
    # Another run removes .curator-cache/ between the making of this store's folder and
    # the listing of the old ones (`_forget_old`): the store still opens, and works.
    def gone(self: Path) -> Any:
        raise FileNotFoundError(self)

    monkeypatch.setattr(Path, "iterdir", gone)
    store = Store.open(tmp_path, "lint", ["context"])
    store.put("k", "v")
    store.save()
    monkeypatch.undo()
    assert Store.open(tmp_path, "lint", ["context"]).get("k") == "v"


AWKWARD_KEYS = ['a "quoted" \\ key', "줄\n바꿈\t", "\x00\x1f\x7f", os.fsdecode(b"IL-\xff.yaml"), ""]


def test_an_encoded_value_is_written_as_it_is_and_read_back_as_its_value(tmp_path):
    values: dict[str, Any] = {
        key: [number, key, {"값": [None, True, 1.5]}] for number, key in enumerate(AWKWARD_KEYS)
    }
    store = Store.open(tmp_path, "lint", ["context"])
    for number, (key, value) in enumerate(values.items()):
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        store.put(key, Encoded.of(key, text) if number % 2 == 0 else value)  # side by side
    assert {key: store.get(key) for key in values} == values  # as it will be read back
    assert dict(store.take(values)) == values
    store.save()
    again = Store.open(tmp_path, "lint", ["context"])
    assert {key: again.get(key) for key in values} == values
    assert again.folder is not None
    for shard in again.folder.glob("*.json"):
        body = shard.read_bytes().partition(b"\n")[2].decode("utf-8", "surrogatepass")
        assert json.loads(body) == {key: values[key] for key in json.loads(body)}


def test_results_encoded_in_the_workers_are_kept_as_the_main_process_would_keep_them(
    tmp_path, monkeypatch
):
    # `Checked.encode` (in `check_task`, where the file was checked) and `ResultCache.put`
    # write the entries between them; without it, `put` writes them itself. Both alike,
    # with findings, turning points, stats, a display path other than the key, a name not
    # in UTF-8; and so are the files' lines for the cross-file findings (`encode` makes
    # them too).
    monkeypatch.setattr(kept, "SETTLED_NS", 0)  # every file's stat is kept
    root, _ = synthetic_library(tmp_path / "lib", count=150)
    (root / "incidents" / os.fsdecode(b"IL-\xff.yaml")).write_bytes(b"id: IL-9999\n")
    library = Library.at(root)
    paths = [str(path) for path in library.incident_paths()]
    for cwd in (root, tmp_path):
        displays = engine.display_paths(paths, cwd)
        tasks = [(i, p, d, None) for i, (p, d) in enumerate(zip(paths, displays, strict=True))]
        stores, lines = [], []
        for keep in (True, False):
            prefix = f"{root}{os.sep}" if keep else None
            checked = engine.run_checks(tasks, library.taxonomy, TODAY, jobs=1, cache_prefix=prefix)
            sent = [pickle.loads(pickle.dumps(result)) for _, result in checked]  # as sent
            assert all((result._json is not None) == keep for result in sent)
            assert all((result._line is not None) == keep for result in sent)
            where = tmp_path / f"cache-{keep}"
            where.mkdir(exist_ok=True)
            parts = kept.context(library)
            cache = kept.ResultCache(
                Store.open(where, "lint", parts), Store.open(where, "lint-summary", parts), root
            )
            for path, result in zip(paths, sent, strict=True):
                cache.put(path, TODAY.isoformat(), result)
            cache.save()
            stores.append([_everything(store) for store in (cache.results, cache.summaries)])
            lines.append(cache.lines(paths, sent))
        encoded, plain = stores
        assert encoded == plain
        assert lines[0] == lines[1] and len(set(lines[0])) == len(paths)
        assert len(plain[0]) > 140 and os.fsdecode(b"incidents/IL-\xff.yaml") in plain[1]
        entries = plain[0].values()
        assert any(entry[2] is not None for entry in entries) == (cwd != root)
        assert all(entry[1] for entry in entries)
        assert any(entry[4] for entry in entries) and any(entry[5] for entry in entries)


def _everything(store: Store) -> dict[str, Any]:
    assert store.folder is not None
    again = Store(store.folder)
    again.read_all()
    return again._all or {}


def test_results_saved_by_a_worker_are_the_ones_saved_here(tmp_path, checks, monkeypatch):
    # With a caller's pool (the export's), lint's results go to the cache on a worker while
    # the caller goes on: the same shards, byte for byte. (No stat settles meanwhile: the
    # two runs' entries would differ by it, not by where they were written.)
    monkeypatch.setattr(kept, "SETTLED_NS", 10**18)
    root = write_library(tmp_path / "lib", {})
    for number in range(1, 41):
        name = f"IL-{number:04d}.yaml"
        (root / "incidents" / name).write_text(incident(name[:-5]), encoding="utf-8")

    def shards() -> dict[str, bytes]:
        stores = sorted((root / FOLDER).glob("lint*"))
        return {f"{s.name[:4]}/{f.name}": f.read_bytes() for s in stores for f in s.iterdir()}

    first = run(root, today=TODAY)
    here = shards()
    shutil.rmtree(root / FOLDER)
    with Workers(2) as workers:
        assert run(root, today=TODAY, workers=workers) == first
    assert shards() == here and len(here) > 2
    checks.clear()
    assert run(root, today=TODAY) == first
    assert checks == []  # every result from the cache the worker wrote


def test_a_store_encoded_for_another_process_saves_what_it_would_have_saved(tmp_path):
    store = Store.open(tmp_path, "lint", ["context"])
    for number in range(300):
        key = f"k{number}"
        store.put(key, Encoded.of(key, json.dumps([number, "값"], ensure_ascii=False)))
    store.put("plain", ["a", 1])
    shards = store.encoded({"plain", *(f"k{n}" for n in range(0, 300, 2))})
    assert store.encoded().bodies == []  # taken as saved
    assert store.folder is not None and not list(store.folder.iterdir())  # not yet written
    write_shards(pickle.loads(pickle.dumps(shards)))  # as a worker would
    again = Store.open(tmp_path, "lint", ["context"])
    assert [again.get(f"k{n}") for n in range(4)] == [[0, "값"], None, [2, "값"], None]
    assert again.get("plain") == ["a", 1]


def test_one_number_spelt_otherwise_is_forgotten_and_found_through_the_kept_index(
    tmp_path, monkeypatch
):
    """IL204 tells IL-00002 and IL-0002 as one id: an id's key is its number as assign-ids
    writes it, so that removing a file that spells it otherwise from a library whose
    cross-file findings are kept reruns the rule on the file holding the other spelling
    (its finding was kept at its own id's key), and adding it back does so again."""
    root = write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": incident("IL-0001"),
            "IL-0002.yaml": incident("IL-0002"),
            "IL-00002.yaml": incident("IL-00002"),
        },
    )
    both = [("incidents/IL-00002.yaml", 1, 5, "IL204"), ("incidents/IL-0002.yaml", 1, 5, "IL204")]
    assert run(root, today=TODAY) == both
    calls = _spy_on_summaries(monkeypatch)
    spelt_otherwise = root / "incidents" / "IL-00002.yaml"
    spelt_otherwise.unlink()
    assert run(root, today=TODAY) == []
    assert calls == [1]  # IL-0002 alone, not IL-0001: the index told which file to look at
    spelt_otherwise.write_text(incident("IL-00002"), encoding="utf-8")
    assert run(root, today=TODAY) == both
    assert calls == [1, 2]  # the file added and the one holding its number
    assert run(root, today=TODAY, cache=False) == both
