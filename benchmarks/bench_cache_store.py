"""Which on-disk layout should the lint cache use? One sqlite3 database, or shard files?

    python benchmarks/bench_cache_store.py [--entries 100000] [--runs 5] [--dir /tmp/bench]

Both hold the same entries (a 64-hex key → a ~250-byte JSON text, the size of a lint
result), and are timed on what `curator lint` does with its cache: write every entry once
(a cold run), read every entry (a warm run), and change ten entries (a run after an edit).
Prints the median of several runs of each. The result decided curator/cache.py's layout.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

SHARDS = 256


def entries(count: int) -> dict[str, str]:
    value = [
        ["incidents/IL-0001.yaml", "IL-0001", [1, 5], "published", None],
        [["related", "IL-0002", [40, 5]]],
        [
            [
                "https://example.com/postmortems/2023/a-long-slug-of-a-title",
                "example.com/x",
                [35, 10],
            ]
        ],
        [],
        [],
    ]
    out = {}
    for i in range(count):
        key = hashlib.sha256(str(i).encode()).hexdigest()
        value[0][1] = f"IL-{i:06d}"
        out[key] = json.dumps(value, ensure_ascii=False)
    return out


class Sqlite:
    name = "sqlite3 (one database, WAL)"

    def __init__(self, folder: Path) -> None:
        self.path = folder / "cache.sqlite3"

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute(
            "CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID"
        )
        return db

    def write(self, items: dict[str, str]) -> None:
        with self._connect() as db:
            db.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?)", items.items())

    def read_all(self) -> dict[str, str]:
        with self._connect() as db:
            return dict(db.execute("SELECT key, value FROM entries"))


class Shards:
    name = f"{SHARDS} JSON shard files (temp file + os.replace)"

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _shard(self, key: str) -> Path:
        return self.folder / f"{key[:2]}.json"

    def write(self, items: dict[str, str]) -> None:
        by_shard: dict[Path, dict[str, str]] = {}
        for key, value in items.items():
            by_shard.setdefault(self._shard(key), {})[key] = value
        for path, new in by_shard.items():
            old = json.loads(path.read_bytes()) if path.exists() else {}
            old.update(new)
            fd, tmp = tempfile.mkstemp(dir=self.folder)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(old, out, ensure_ascii=False)
            os.replace(tmp, path)

    def read_all(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for path in self.folder.glob("*.json"):
            out.update(json.loads(path.read_bytes()))
        return out


def median_time(action: Callable[[], object], runs: int, reset: Callable[[], None]) -> float:
    times = []
    for _ in range(runs):
        reset()
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()))
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)  # as bench_scale.py does with its --dir
    items = entries(args.entries)
    changed = dict(list(items.items())[:10])
    print(f"{args.entries:,} entries, median of {args.runs} runs\n")
    print("| layout | write all | read all | read all + change 10 |")
    print("| --- | ---: | ---: | ---: |")
    for layout in (Sqlite, Shards):
        folder = Path(tempfile.mkdtemp(dir=args.dir, prefix="cache-store-"))
        write, read, update = measure(layout(folder), folder, items, changed, args.runs)
        print(f"| {layout.name} | {write:.2f} s | {read:.2f} s | {update:.2f} s |")
        shutil.rmtree(folder)


def measure(
    store: Sqlite | Shards, folder: Path, items: dict[str, str], changed: dict[str, str], runs: int
) -> tuple[float, float, float]:
    def fresh() -> None:
        shutil.rmtree(folder)
        folder.mkdir()

    def filled() -> None:
        if not any(folder.iterdir()):
            store.write(items)

    write = median_time(lambda: store.write(items), runs, fresh)
    read = median_time(store.read_all, runs, filled)
    update = median_time(lambda: (store.read_all(), store.write(changed)), runs, filled)
    return write, read, update


if __name__ == "__main__":
    main()
