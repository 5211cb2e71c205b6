"""A cache file that is well formed but wrong inside — tampered with, left half-written by a
crash on a file system without atomic renames, or written by a buggy curator — is a miss:
the command answers as it does with no cache at all (same stdout, same exit code), never
with a traceback or an internal error (docs/cache.md: "never wrong").

Each store is written by a real run, then changed in one place of an entry at a time while staying
well formed (a valid archive, valid JSON, a shard whose checksum matches), over every
array or field it holds, then the command is run again in-process. Where a miss costs
only the entry it is in (lint's, the export's and fmt's stores), one run tries a change in each of
several entries at once: the answer is the one with no cache only if every change was a
miss, so a single change taken as it was still fails the test. The similarity index is a
miss as a whole, so its changes are tried one at a time, through the check every command
reads it with; a command runs for some of them (see END_TO_END).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import write_library
from synthetic import synthetic_library
from test_export import GPU, GitLibrary, files_of, withdrawn
from test_fmt import MESSY, UNREADABLE

import curator.cli
from curator import lint_cache
from curator.cache import FOLDER, LineStore, Store
from curator.export import released_cache
from curator.library import Library
from curator.similarity import store
from curator.write import verdicts
from incidents import incident

Mutation = tuple[str, Any]


def invoke(*args: str) -> tuple[int, str]:
    """Exit code and stdout of `curator ARGS`, run in this process; never an internal error."""
    result = CliRunner().invoke(curator.cli.main, list(args))
    assert "internal error" not in result.output, result.output
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout


# --- the similarity index (curator/similarity/store.py) ----------------------------------------


SIMILAR_COMMANDS = (
    ("similar", "--all", "--format", "json", "--quiet"),
    ("search", "NCCL 타임아웃", "--format", "json", "--quiet"),
)


@pytest.fixture(scope="module")
def similar_library(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """A library with duplicates, shared entities and facets; its cached index (as `curator
    similar` wrote it), arrays by name; the answers of SIMILAR_COMMANDS (the first run:
    no cache yet)."""
    folder = tmp_path_factory.mktemp("similar")
    root, _ = synthetic_library(folder / "lib", count=40, defects_per_rule=0)
    answers = [invoke(*command, "--root", str(root)) for command in SIMILAR_COMMANDS]
    path = store.index_path(Library.at(root))
    assert path is not None and path.is_file()
    with np.load(path, allow_pickle=False) as archive:
        arrays = {name: archive[name] for name in archive.files}
    assert all(len(answer[1]) > 100 for answer in answers)  # something found, to be kept
    return root, {"path": path, "arrays": arrays, "answers": answers}


def _other_dtype(array: np.ndarray) -> np.ndarray:
    if array.dtype.kind == "f":
        return array.astype(np.float64 if array.dtype == np.float32 else np.float32)
    return array.astype(np.int64 if array.dtype != np.int64 else np.int32)


ANY_VALUE = ("korean_keys",)  # arrays of which any value of their dtype is one `build` may give


def array_mutations(name: str, arrays: dict[str, np.ndarray]) -> Iterator[Mutation]:
    """Every way of changing one array that keeps the archive well formed."""
    array = arrays[name]
    yield "emptied", array[:0]
    yield "truncated", array[:-1]
    yield "extended", np.concatenate([array, array[-1:]])
    yield "doubled", np.concatenate([array, array])
    yield "two-dimensional", array.reshape(1, -1)
    yield "other dtype", _other_dtype(array)
    yield "as float64", array.astype(np.float64)
    # (Any uint32 is the key of some Korean word: a key changed is another word's, no miss.)
    bad: list[float] = [] if name in ANY_VALUE else [-1, 2**31 - 1, -(2**31), 2**40]
    if array.dtype.kind == "f":
        bad += [math.nan, 0.0, math.inf, 1e30, -math.inf]
    for i, value in enumerate(bad):
        at = -(i % 2)  # the first place, then the last, and so on
        changed = array.astype(np.float64 if array.dtype.kind == "f" else np.int64)
        changed[at] = value
        changed = changed.astype(array.dtype, casting="unsafe")
        kept = changed[at] == value or (math.isnan(value) and math.isnan(changed[at]))
        if kept and not np.array_equal(changed, array, equal_nan=True):
            yield f"[{at}] = {value}", changed
    for other, theirs in arrays.items():
        if other != name and theirs.dtype == array.dtype and not np.array_equal(theirs, array):
            yield f"swapped with {other}", theirs
    yield from _just_out_of_range(name, arrays)


def _just_out_of_range(name: str, arrays: dict[str, np.ndarray]) -> Iterator[Mutation]:
    """A value just past what `build` can give, where the check must draw its line
    exactly: a row one past the last record or entity, a weight just above its largest."""
    records = len(arrays["doc_entity_indptr"]) - 1
    entities = len(arrays["entity_indptr"]) - 1
    past = {"text_rows": records, "entity_rows": records, "doc_entity_rows": entities}
    top_idf = math.log(records + 1) + 1
    top = {"idf_common": top_idf, "idf_values": top_idf, "text_values": 1.0, "entity_rarity": 1.0}
    if name in past:
        changed = arrays[name].copy()
        changed[0] = past[name]
        yield f"[0] = {past[name]}, one past the last", changed
    if name in top:
        changed = arrays[name].copy()
        changed[-1] = top[name] * 1.001
        yield f"[-1] = {changed[-1]}, just above the largest", changed


def _holds(path: Path, arrays: dict[str, np.ndarray]) -> bool:
    with np.load(path, allow_pickle=False) as archive:
        return sorted(archive.files) == sorted(arrays) and all(
            archive[name].dtype == array.dtype and np.array_equal(archive[name], array)
            for name, array in arrays.items()
        )


def _json(array: np.ndarray) -> Any:
    return json.loads(array.tobytes().decode("utf-8"))


def _encoded(value: Any) -> np.ndarray:
    return np.frombuffer(json.dumps(value, ensure_ascii=False).encode("utf-8"), np.uint8)


WRONG_VALUES: tuple[Any, ...] = (None, 7, "text", [], ["x", 8], {"a": [1]})
# Well-formed JSON but for its end, nested deeper than the parser recurses (RecursionError).
TOO_DEEP = np.frombuffer(b"[" * 100_000, np.uint8)


def meta_mutations(arrays: dict[str, np.ndarray]) -> Iterator[Mutation]:
    """`meta` as valid JSON of another shape: each field of a wrong type, or one entity
    name fewer or more."""
    meta = _json(arrays["meta"])
    for field in meta:
        for value in WRONG_VALUES:
            if value == meta[field]:
                continue  # no change (the format is 7)
            if field == "skipped" and _fits("urls", value):
                continue  # other files skipped: a change of value, which no check can tell
            yield f"meta {field} = {value!r}", _encoded({**meta, field: value})
        yield f"meta without {field}", _encoded({k: v for k, v in meta.items() if k != field})
    names = meta["entity_names"]
    yield "meta one entity name fewer", _encoded({**meta, "entity_names": names[:-1]})
    yield "meta one entity name more", _encoded({**meta, "entity_names": [*names, "extra"]})
    yield "meta entity names repeated", _encoded({**meta, "entity_names": [names[0]] * len(names)})
    yield "meta nested too deep", TOO_DEEP


def _fits(field: str, value: Any) -> bool:
    """Whether `value` is of the type a record's `field` holds."""
    if field in ("occurred", "duplicate_of"):
        return value is None or isinstance(value, str)
    if field in ("organizations", "urls", "settled"):
        return isinstance(value, list) and all(isinstance(item, str) for item in value)
    if field == "facets":
        return isinstance(value, dict) and all(_fits("urls", terms) for terms in value.values())
    return isinstance(value, str)


def record_mutations(arrays: dict[str, np.ndarray]) -> Iterator[Mutation]:
    """`records` (a column per field, and per dimension under "facets") as valid JSON of
    another shape: not an object of columns, and each column missing, not a list, a value
    fewer or more than the others, or the first record's value of a wrong type."""
    columns = _json(arrays["records"])
    yield "records a list", _encoded([columns])
    yield "records nested too deep", TOO_DEEP
    yield "records without facets", _encoded({k: v for k, v in columns.items() if k != "facets"})
    yield "facets a list", _encoded({**columns, "facets": list(columns["facets"].values())})
    for field in columns:
        if field != "facets":
            for label, changed in _column_mutations(field, field, columns):
                yield label, _encoded(changed)
    facets = columns["facets"]
    assert len(facets) == 4  # every dimension has its column
    for dimension in facets:
        for label, changed in _column_mutations("urls", f"facets.{dimension}", facets):
            yield label, _encoded({**columns, "facets": changed})


def _column_mutations(kind: str, name: str, columns: dict[str, Any]) -> Iterator[Mutation]:
    """`columns` with its column `name` (holding values of a record's field `kind`) changed."""
    key = name.rpartition(".")[2]
    column = columns[key]
    yield f"{name} missing", {k: v for k, v in columns.items() if k != key}
    yield f"{name} not a list", {**columns, key: dict(enumerate(column))}
    yield f"{name} one value fewer", {**columns, key: column[:-1]}
    yield f"{name} one value more", {**columns, key: [*column, column[0]]}
    for value in (*WRONG_VALUES, {"causes": "text"}):
        if not _fits(kind, value):  # (else a change of value, which no check can tell)
            yield f"{name}[0] = {value!r}", {**columns, key: [value, *column[1:]]}


def _index_cases() -> list[str]:
    """The arrays the index is stored as (format 7), as test ids."""
    return [
        "meta",
        "records",
        "idf_common",
        "idf_cols",
        "idf_values",
        "text_cols",
        "text_counts",
        "text_rows",
        "text_values",
        "text_words",
        "entity_rarity",
        "entity_indptr",
        "entity_rows",
        "doc_entity_indptr",
        "doc_entity_rows",
        "korean_indptr",
        "korean_keys",
    ]


def test_the_index_is_stored_as_the_arrays_tested_here(similar_library):
    # A new array in the index must be added to `_index_cases`, so that it is tampered too.
    _, cached = similar_library
    assert sorted(cached["arrays"]) == sorted(_index_cases())


# A change that the index's check (`store.read`) takes for a miss is then dealt with as
# every miss is: the index is built again, the answer is the one with no cache, and the index
# is written whole. A command shows it for one change in END_TO_END; the others are told
# from a kept index by the check alone (~1 ms, where a command costs ~0.13 s).
END_TO_END = 5


def _after_a_miss(root: Path, cached: dict[str, Any], which: int) -> list[str]:
    """What is amiss when SIMILAR_COMMANDS[which] meets the index as it now is: its answer,
    and the index it leaves behind."""
    try:
        answer = invoke(*SIMILAR_COMMANDS[which], "--root", str(root))
    except AssertionError as error:  # an internal error
        return [str(error).splitlines()[0]]
    problems = [] if answer == cached["answers"][which] else ["another answer"]
    if not _holds(cached["path"], cached["arrays"]):
        problems.append("not written whole again")
    return problems


@pytest.mark.parametrize("name", _index_cases())
def test_a_wrong_array_in_the_cached_index_is_a_miss(similar_library, name):
    root, cached = similar_library
    path, arrays = cached["path"], cached["arrays"]
    cases: list[Mutation] = list(array_mutations(name, arrays))
    extra: dict[str, Callable[[dict[str, np.ndarray]], Iterator[Mutation]]] = {
        "meta": meta_mutations,
        "records": record_mutations,
    }
    if name in extra:
        cases += list(extra[name](arrays))
    wrong = []
    for number, (label, changed) in enumerate(cases):
        with path.open("wb") as out:
            np.savez(out, **{**arrays, name: changed})
        try:
            kept = store.read(path)  # what every command asks first (`store.load_index`)
        except Exception as error:  # an internal error, had a command read it
            wrong.append(f"{label}: {error!r}")
            continue
        if kept is not None:
            wrong.append(f"{label}: kept")
        elif number % END_TO_END == 0:
            which = number // END_TO_END % len(SIMILAR_COMMANDS)  # the commands in turn
            wrong += [f"{label}: {problem}" for problem in _after_a_miss(root, cached, which)]
    assert wrong == [], f"{name}: {wrong}"
    # (A bool has no value out of range, nor a key: their changes are of length, shape and
    # dtype.)
    assert len(cases) >= (7 if arrays[name].dtype == np.bool_ or name in ANY_VALUE else 10)


# --- lint's results, summaries and cross-file record (curator/lint_cache.py) -------------------


def _lint_files() -> dict[str, str]:
    """A finding of a file's own (IL301) and cross-file ones: a shared source URL, a
    reference to no incident."""
    shared = ("postmortems/IL-0002", "postmortems/IL-0001")
    dangling = ("sources:\n", "related:\n  - IL-0099\nsources:\n")
    return {
        "IL-0001.yaml": incident("IL-0001"),
        "IL-0002.yaml": incident("IL-0002", shared),
        "IL-0003.yaml": incident("IL-0003", ("    - nccl\n", "    - ncl\n"), dangling),
    }


def _lint(root: Path, *options: str) -> tuple[int, str]:
    return invoke("lint", "--root", str(root), "--format", "json", *options)


def _change_a_value(root: Path) -> None:
    """Cite another report in IL-0001: the cross-file rules run again, on summaries."""
    path = root / "incidents" / "IL-0001.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("postmortems/IL-0001", "postmortems/other"), encoding="utf-8")


# Lists whose length varies (`[]` is as valid as any): where they are in each kind of value.
_VARIABLE = {
    "lint": {(4,), (5,)},  # turning points, findings
    "lint-summary": {(1, 4), (1, 5)},  # references, source URLs
    "record": {(1,), (3,)},  # cross-file findings, extra
}


# Numbers that may be null: a kept cross-file finding's anchor and the hash of its key.
_NULLABLE = {"record": lambda at: len(at) == 3 and at[2] in (7, 9)}


def _wrong(value: Any, variable: bool, nullable: bool) -> list[Any]:
    """Values of another type than `value` (for a value that may be text or null, neither)."""
    if isinstance(value, bool):
        return ["yes", None, 1]
    if isinstance(value, int):
        return ["7", 1.5, True] if nullable else ["7", None, 1.5, True]
    if isinstance(value, str):
        return [7, ["x"], {}]
    if value is None:  # text or a list of text, where there is one
        return [7, [7], {}]
    if isinstance(value, list):
        shapes = [] if variable else [value[:-1], [*value, value[-1] if value else 7]]
        return [7, "text", {}, *shapes]
    return [None]


def json_mutations(
    value: Any, kind: str, at: tuple[int, ...] = ()
) -> Iterator[tuple[tuple[int, ...], Any]]:
    """(where, new) for every place of a JSON value of `kind` changed to another type or
    length."""
    nullable = _NULLABLE.get(kind, lambda at: False)(at)
    for new in _wrong(value, at in _VARIABLE[kind], nullable):
        yield at, new
    if isinstance(value, list):
        for i, item in enumerate(value):
            yield from json_mutations(item, kind, (*at, i))


def _replaced(value: Any, at: tuple[int, ...], new: Any) -> Any:
    if not at:
        return new
    changed = list(value)
    changed[at[0]] = _replaced(value[at[0]], at[1:], new)
    return changed


class LintCache:
    """A library linted once with the cache on; `reset` puts its files and its cache back
    as that run left them (the cache folder itself stays: its identity is in the context);
    `answers`, what lint says with no cache, before and after `_change_a_value`."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files = {p: p.read_bytes() for p in (root / "incidents").iterdir()}
        self.answers = [_lint(root, "--no-cache")]
        _change_a_value(root)
        self.answers.append(_lint(root, "--no-cache"))
        self._put_files_back()
        _lint(root)
        self.cache = {p: p.read_bytes() for p in (root / FOLDER).rglob("*") if p.is_file()}

    def _put_files_back(self) -> None:
        for path, content in self.files.items():
            path.write_bytes(content)

    def reset(self) -> None:
        self._put_files_back()
        for path in (self.root / FOLDER).rglob("*"):
            if path.is_file() and path not in self.cache:
                path.unlink()
        for path, content in self.cache.items():
            path.write_bytes(content)

    def store(self, kind: str) -> Store:
        library = Library.at(self.root)
        return Store.open(self.root, kind, lint_cache.context(library))


@pytest.fixture(scope="module")
def lint_cache_library(tmp_path_factory: pytest.TempPathFactory) -> LintCache:
    root = write_library(tmp_path_factory.mktemp("lint") / "lib", _lint_files())
    return LintCache(root)


def _lint_cases(cache: LintCache, changed: bool) -> Iterator[tuple[str, str, str, Any]]:
    """(label, store, key, tampered value) for every place of the kept values a run reads:
    the results of the files `_change_a_value` leaves alone (IL-0003's has a finding of its
    own), their summaries when the cross-file rules run again (IL-0002 shares a URL with
    IL-0001, which is changed), and the cross-file record (its first finding: the others
    have the same shape)."""
    cache.reset()
    results, summaries = cache.store("lint"), cache.store("lint-summary")
    first, *keys = [f"incidents/{path.name}" for path in sorted(cache.files)]
    assert all(results.get(key) and summaries.get(key) for key in [first, *keys])
    for key in keys:
        entry, summary = results.get(key), summaries.get(key)
        for at, new in json_mutations(entry, "lint"):
            yield f"{key} entry{list(at)} = {new!r}", "lint", key, _replaced(entry, at, new)
        for at, new in json_mutations(summary, "lint-summary") if changed else ():
            label = f"{key} summary{list(at)} = {new!r}"
            yield label, "lint-summary", key, _replaced(summary, at, new)
    record = results.get("library")
    for at, new in json_mutations(record, "record"):
        if at[:1] != (1,) or at[1:2] in ((), (0,)):
            label = f"library record{list(at)} = {new!r}"
            yield label, "lint", "library", _replaced(record, at, new)
    if changed:  # IL-0002 said to be IL-0001 as it was: its id, its URL
        ours, theirs = summaries.get(keys[0]), summaries.get(first)
        yield "a summary of another file", "lint-summary", keys[0], theirs
        yield "a summary of another file, its key", "lint-summary", keys[0], [ours[0], theirs[1]]


def side_by_side(cases: Iterable[tuple[Any, ...]], group: Callable[[Any], Any]) -> list[Any]:
    """Batches of cases to try in one run: the first case of each group, then the second,
    and so on (each group holds the cases of one entry: one change to an entry at a time)."""
    groups: dict[Any, list[Any]] = {}
    for case in cases:
        groups.setdefault(group(case), []).append(case)
    batches = itertools.zip_longest(*groups.values())
    return [[case for case in batch if case is not None] for batch in batches]


def _lint_batches(cases: list[tuple[str, str, str, Any]]) -> list[Any]:
    """The results of the files and the cross-file record side by side, then the summaries:
    a file whose result is a miss is linted again, and its kept summary is not read."""
    results = [case for case in cases if case[1] == "lint"]
    summaries = [case for case in cases if case[1] == "lint-summary"]
    return side_by_side(results, _entry) + side_by_side(summaries, _entry)


def _entry(case: tuple[str, str, str, Any]) -> tuple[str, str]:
    return case[1], case[2]  # (store, key)


@pytest.mark.parametrize("changed", [False, True], ids=["unchanged", "a value changed"])
def test_a_wrong_value_in_lint_s_cache_is_a_miss(lint_cache_library, changed):
    cache = lint_cache_library
    wrong = []
    cases = list(_lint_cases(cache, changed))
    for batch in _lint_batches(cases):
        cache.reset()
        for _, kind, key, value in batch:
            store = cache.store(kind)
            store.put(key, value)
            store.save()
        label = " & ".join(case[0] for case in batch)
        if changed:
            _change_a_value(cache.root)
        try:
            if _lint(cache.root) != cache.answers[changed]:
                wrong.append(label)
        except AssertionError as error:  # an internal error
            wrong.append(f"{label}: {str(error).splitlines()[0]}")
    assert wrong == [], "\n".join(wrong)
    assert len(cases) > 100


# --- the export's released data (curator/export/released_cache.py) ----------------------------


@pytest.fixture(scope="module")
def export_library(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Any]]:
    """A committed library (published, withdrawn and draft incidents) exported once with the
    cache on, its export store as that run left it; the export with no cache."""
    folder = tmp_path_factory.mktemp("export")
    repo = GitLibrary(folder / "lib")
    repo.write("IL-0001.yaml", incident("IL-0001"))
    repo.write("IL-0002.yaml", incident("IL-0002", GPU))
    repo.write("IL-0003.yaml", withdrawn("IL-0003", "IL-0001"))
    repo.write("IL-0004.yaml", incident("IL-0004", ("status: published", "status: draft")))
    repo.commit("2024-01-01T10:00:00", "incidents")
    repo.git("tag", "v1.0.0")
    expected = _export(repo.root, folder / "fresh", "--no-cache")
    assert _export(repo.root, folder / "first") == expected
    return repo.root, expected


def _export(root: Path, out: Path, *options: str) -> list[Any]:
    code, stdout = invoke("export", "--root", str(root), "--out", str(out), "--quiet", *options)
    return [code, stdout, files_of(out)]


def _released_store(root: Path) -> LineStore:
    return LineStore.open(root, "export", released_cache.context())


def released_mutations(text: bytes) -> Iterator[tuple[str, bytes]]:
    """A released text as valid JSON of another shape (not an object, a field missing,
    a field of another type, a field more), and as bytes that are not JSON, or not text."""
    data = json.loads(text)
    for other in (None, 7, "text", [data], [], {}):
        yield f"{other!r}", _compact(other)
    for field, value in data.items():
        yield f"without {field}", _compact({k: v for k, v in data.items() if k != field})
        for new in _wrong(value, variable=True, nullable=False):
            yield f"{field} = {new!r}", _compact({**data, field: new})
    yield "a field more", _compact({**data, "extra": "값"})
    yield "cut short", text[:-1]
    yield "followed by more", text + b"{}"
    yield "not UTF-8", text.replace(b'"id"', b'"\xff\xfe"', 1)
    yield "nothing", b""


def _compact(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def test_a_wrong_released_text_in_the_export_cache_is_a_miss(export_library, tmp_path):
    root, expected = export_library
    kept = _released_store(root)
    kept.read_all()
    entries = {blob: kept.get(blob) for blob in kept._all or {}}
    assert len(entries) == 4 and all(isinstance(text, bytes) for text in entries.values())
    cases = [
        (blob, label, value)
        for blob, text in entries.items()
        for label, value in released_mutations(text)
    ]
    batches = side_by_side(cases, lambda case: case[0])  # a change to each incident's text
    wrong = []
    for number, batch in enumerate(batches):
        store = _released_store(root)
        for blob, _, value in batch:
            store.put(blob, value)
        store.save()
        try:
            got = _export(root, tmp_path / f"out-{number}")
        except AssertionError as error:  # an internal error
            got = [str(error).splitlines()[0]]
        if got != expected:
            labels = " & ".join(f"{blob[:8]} {label}" for blob, label, _ in batch)
            wrong.append(f"{labels}: {got[:2]}")
        _released_store(root).update(entries, None)  # as it was
    assert wrong == [], "\n".join(wrong)
    assert len(cases) > 50 and len(batches) < len(cases)


# --- fmt's verdicts (curator/write/verdicts.py) --------------------------------------------


FMT_COMMANDS = (("fmt", "--check"), ("fmt", "--diff"))
# Values of a verdict that curator does not write (it writes the number 1), among them
# those that Python finds equal to 1.
WRONG_VERDICTS: tuple[Any, ...] = (True, 1.0, 0, 2, -1, None, False, "1", [1], {"1": 1}, [], {})


def _fmt(root: Path, *options: str) -> list[tuple[int, str, str]]:
    """Exit code, stdout and stderr of each of FMT_COMMANDS; never an internal error."""
    answers = []
    for command in FMT_COMMANDS:
        result = CliRunner().invoke(curator.cli.main, [*command, "--root", str(root), *options])
        assert "internal error" not in result.output, result.output
        assert "Traceback" not in result.output, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        answers.append((result.exit_code, result.stdout, result.stderr))
    return answers


def _verdicts(root: Path) -> Store:
    store = Store.open(root, "fmt", verdicts.context())
    store.read_all()
    return store


def _keep_verdicts(root: Path, entries: dict[str, Any]) -> None:
    """Make `entries` the fmt store's only entries, in well-formed shards."""
    store = Store.open(root, "fmt", verdicts.context())
    assert store.folder is not None
    for shard in store.folder.glob("*.json"):
        shard.unlink()
    for key, value in entries.items():
        store.put(key, value)
    store.save()


@pytest.fixture(scope="module")
def fmt_library(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """Canonical files, a file that is not (MESSY) and one fmt refuses; the answers of
    FMT_COMMANDS with no cache, and the digests of the files' bytes by kind."""
    root = write_library(
        tmp_path_factory.mktemp("fmt") / "lib",
        {
            "IL-0001.yaml": MESSY,
            "IL-0002.yaml": incident("IL-0002"),
            "IL-0003.yaml": incident("IL-0003", GPU),
            "IL-0004.yaml": UNREADABLE["alias"].decode("utf-8"),
        },
    )
    answers = _fmt(root, "--no-cache")
    assert answers[0][0] == 1 and "IL-0001" in answers[0][1] and "IL-0004" in answers[0][2]
    assert not (root / FOLDER).exists()
    digests = {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted((root / "incidents").iterdir())
    }
    assert _fmt(root) == answers  # the cache is written, and then read
    kept = _verdicts(root)._all
    assert kept == {digests["IL-0002.yaml"]: 1, digests["IL-0003.yaml"]: 1}
    return root, {"answers": answers, "digests": digests, "kept": kept}


def test_a_wrong_verdict_in_fmt_s_cache_is_a_miss(fmt_library):
    """A verdict's key is the SHA-256 of the bytes it is about, so an entry can only be
    about other bytes if it was forged in curator's own form (1 under the digest of a file
    that is not canonical): that cannot be told from a true verdict without the render the
    cache saves, and a cache folder copied or committed is never read (its identity is in
    the context). Everything else is checked: each value curator does not write, under the
    key of each canonical file (then the run checks the file again and writes its verdict
    back) and of the files that are not canonical (where a value taken for 1 would say that
    a file to reformat is fine); and the verdicts removed, or under keys that are not
    a file's digest as curator spells it."""
    root, fixture = fmt_library
    answers, digests, kept = fixture["answers"], fixture["digests"], fixture["kept"]
    others = [digests["IL-0001.yaml"], digests["IL-0004.yaml"]]
    cases: list[tuple[str, dict[str, Any]]] = [
        (f"every verdict = {value!r}", {key: value for key in [*kept, *others]})
        for value in WRONG_VERDICTS
    ]
    cases += [
        ("no verdicts", {}),
        ("keys in capitals", {key.upper(): 1 for key in kept}),
        ("keys shortened", {key[:-1]: 1 for key in kept}),
    ]
    wrong = []
    for label, entries in cases:
        _keep_verdicts(root, entries)
        try:
            if _fmt(root) != answers:
                wrong.append(label)
        except AssertionError as error:  # an internal error
            wrong.append(f"{label}: {str(error).splitlines()[0]}")
        repaired = _verdicts(root)._all or {}
        if any(type(repaired.get(key)) is not int or repaired[key] != 1 for key in kept):
            wrong.append(f"{label}: not checked again")  # taken as it was: not a miss
    assert wrong == [], "\n".join(wrong)
