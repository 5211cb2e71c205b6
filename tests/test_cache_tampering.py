"""A cache file that is well formed but wrong inside — tampered with, left half-written by a
crash on a file system without atomic renames, or written by a buggy curator — is a miss:
the command answers as it does with no cache at all (same stdout, same exit code), never
with a traceback or an internal error (docs/cache.md: "never wrong").

Each store is written by a real run, then changed in one place at a time while staying
well formed (a valid archive, valid JSON, a shard whose checksum matches), over every
array or field it holds, then the command is run again in-process.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from synthetic import synthetic_library

import curator.cli
from curator.library import Library
from curator.similarity import store

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
    bad: list[float] = [-1, 2**31 - 1, -(2**31), 2**40]
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


def meta_mutations(arrays: dict[str, np.ndarray]) -> Iterator[Mutation]:
    """`meta` as valid JSON of another shape: each field of a wrong type, or one entity
    name fewer or more."""
    meta = _json(arrays["meta"])
    for field in meta:
        for value in WRONG_VALUES:
            if field == "skipped" and _fits("urls", value):
                continue  # other files skipped: a change of value, which no check can tell
            yield f"meta {field} = {value!r}", _encoded({**meta, field: value})
        yield f"meta without {field}", _encoded({k: v for k, v in meta.items() if k != field})
    names = meta["entity_names"]
    yield "meta one entity name fewer", _encoded({**meta, "entity_names": names[:-1]})
    yield "meta one entity name more", _encoded({**meta, "entity_names": [*names, "extra"]})
    yield "meta entity names repeated", _encoded({**meta, "entity_names": [names[0]] * len(names)})


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
    """`records` as valid JSON of another shape: a record fewer or more, not a list, and
    each field of a record of a wrong type or missing."""
    records = _json(arrays["records"])
    yield "records one fewer", _encoded(records[:-1])
    yield "records one more", _encoded([*records, records[0]])
    yield "records an object", _encoded({"records": records})
    yield "a record not an object", _encoded([["IL-0001"], *records[1:]])
    for field in records[0]:
        for value in (*WRONG_VALUES, {"causes": "text"}):
            if _fits(field, value):
                continue  # a change of value, which no check can tell
            changed = [{**records[0], field: value}, *records[1:]]
            yield f"record {field} = {value!r}", _encoded(changed)
        missing = [{k: v for k, v in records[0].items() if k != field}, *records[1:]]
        yield f"record without {field}", _encoded(missing)


def _index_cases() -> list[str]:
    """The arrays the index is stored as (format 4), as test ids."""
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
        "entity_rarity",
        "entity_indptr",
        "entity_rows",
        "doc_entity_indptr",
        "doc_entity_rows",
    ]


def test_the_index_is_stored_as_the_arrays_tested_here(similar_library):
    # A new array in the index must be added to `_index_cases`, so that it is tampered too.
    _, cached = similar_library
    assert sorted(cached["arrays"]) == sorted(_index_cases())


@pytest.mark.parametrize("name", _index_cases())
def test_a_wrong_array_in_the_cached_index_is_a_miss(similar_library, name):
    root, cached = similar_library
    path, arrays, answers = cached["path"], cached["arrays"], cached["answers"]
    cases: list[Mutation] = list(array_mutations(name, arrays))
    extra: dict[str, Callable[[dict[str, np.ndarray]], Iterator[Mutation]]] = {
        "meta": meta_mutations,
        "records": record_mutations,
    }
    if name in extra:
        cases += list(extra[name](arrays))
    wrong = []
    for label, changed in cases:
        with path.open("wb") as out:
            np.savez(out, **{**arrays, name: changed})
        again = [invoke(*command, "--root", str(root)) for command in SIMILAR_COMMANDS]
        if again != answers:
            wrong.append(label)
        if not _holds(path, arrays):  # a miss: built again, and written whole
            wrong.append(f"{label}: kept")
    assert wrong == [], f"{name}: {wrong}"
    assert len(cases) >= 10
