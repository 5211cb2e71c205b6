"""Would another YAML parser make a cold lint or export cheaper? The parse, per file.

    python benchmarks/bench_parsers.py LIBRARY [--files 3000] [--runs 5]

Times, in one process with the cyclic GC off (as in curator's workers), the median cost
per file of reading the incident files of LIBRARY and parsing them: with libyaml through
PyYAML (`yaml.load`, and `yaml.compose` alone), with curator's loader (values as text,
with positions), and with the two faster parsers on PyPI when they are installed
(`pip install yaml-rs rapidyaml`; neither is a dependency of curator):

- yaml-rs (Rust): values only, no positions; it types scalars (`1.50` is a float,
  `true` a bool), so curator could use its values only where every scalar is text.
- rapidyaml (C++, through SWIG): a tree with every scalar's text and style, walked in
  Python into the same values as curator's.

For each, it also counts the files whose values are exactly curator's: the share a
fast path could take without falling back to curator's own loader.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from curator.load import load_bytes

Parser = Callable[[bytes], Any]


def libyaml_load(raw: bytes) -> Any:
    return yaml.load(raw, Loader=yaml.CSafeLoader)


def libyaml_compose(raw: bytes) -> Any:
    return yaml.compose(raw, Loader=yaml.CSafeLoader)


def curator_load(raw: bytes) -> Any:
    return load_bytes(raw).data


def optional_parsers() -> dict[str, Parser]:
    found: dict[str, Parser] = {}
    try:
        import yaml_rs  # type: ignore[import-not-found]
    except ImportError:
        print("yaml-rs: not installed")
    else:
        found["yaml-rs `loads` (values, no positions)"] = lambda raw: yaml_rs.loads(
            raw.decode("utf-8"), parse_datetime=False
        )
    try:
        import ryml  # type: ignore[import-not-found]
    except ImportError:
        print("rapidyaml: not installed")
    else:
        found["rapidyaml tree only"] = ryml.parse_in_arena
        found["rapidyaml tree walked into values"] = _ryml_values(ryml)
    return found


def _ryml_values(ryml: Any) -> Parser:
    def value(tree: Any, node: int) -> Any:
        kind = tree.type(node)
        if kind & ryml.MAP:
            mapping = {}
            child = tree.first_child(node)
            while child != ryml.NONE:
                mapping[bytes(tree.key(child)).decode()] = value(tree, child)
                child = tree.next_sibling(child)
            return mapping
        if kind & ryml.SEQ:
            sequence = []
            child = tree.first_child(node)
            while child != ryml.NONE:
                sequence.append(value(tree, child))
                child = tree.next_sibling(child)
            return sequence
        return bytes(tree.val(node)).decode()

    def parse(raw: bytes) -> Any:
        tree = ryml.parse_in_arena(raw)
        return value(tree, tree.root_id())

    return parse


def per_file(parse: Parser, raws: list[bytes], runs: int) -> float:
    """Median over `runs` of the microseconds per file to parse every one of `raws`."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for raw in raws:
            parse(raw)
        times.append((time.perf_counter() - start) / len(raws) * 1e6)
    return statistics.median(times)


def same_values(parse: Parser, raws: list[bytes], expected: list[Any]) -> int:
    same = 0
    for raw, want in zip(raws, expected, strict=True):
        with contextlib.suppress(Exception):  # a file a parser refuses is a fallback too
            same += parse(raw) == want
    return same


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", type=Path)
    parser.add_argument("--files", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    paths = sorted((args.library / "incidents").glob("*.yaml"))[: args.files]
    gc.disable()
    raws = [path.read_bytes() for path in paths]
    expected = [curator_load(raw) for raw in raws]
    parsers: dict[str, Parser] = {
        "libyaml `yaml.load` (CSafeLoader)": libyaml_load,
        "libyaml `yaml.compose` (CSafeLoader)": libyaml_compose,
        "curator `load_bytes` (text values, positions)": curator_load,
        **optional_parsers(),
    }
    start = time.perf_counter()
    for path in paths:
        path.read_bytes()
    reading = (time.perf_counter() - start) / len(paths) * 1e6
    mean_size = sum(map(len, raws)) / len(raws)
    print(f"\n{len(raws)} files of {args.library} ({mean_size:,.0f} bytes each on average);")
    print(f"median of {args.runs} runs, one process, cyclic GC off\n")
    print("| step | µs per file | ÷ curator's loader | files with curator's values |")
    print("| --- | --- | --- | --- |")
    print(f"| read the bytes | {reading:.1f} | | |")
    ours = per_file(curator_load, raws, args.runs)
    for name, parse in parsers.items():
        cost = ours if parse is curator_load else per_file(parse, raws, args.runs)
        same = same_values(parse, raws, expected)
        print(f"| {name} | {cost:.1f} | {cost / ours:.2f} | {same:,} of {len(raws):,} |")


if __name__ == "__main__":
    main()
