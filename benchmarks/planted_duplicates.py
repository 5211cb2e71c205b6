"""How many of a synthetic library's planted duplicates `curator similar` finds, at scale.

    python benchmarks/planted_duplicates.py /tmp/bench/lib-100000-clean

`tests/eval/run.py` judges the similarity on the bundled library of about a hundred real
incidents; this script asks the one question a library of 100,000 can answer too: of the
pairs `generate.py` plants (the same event written up twice, listed in the library's
`manifest.json`), is each one's first write-up the match at rank 1 of the second, and is it
flagged as a possible duplicate? Each second write-up is judged as a new incident would be
(its own `duplicate_of` ignored), on an index built from the files, no cache. It prints a
Markdown table: pairs, found at rank 1, flagged, and the quantiles of their scores.

Only recall means something here. The synthetic text draws on a small vocabulary, a few
organisations and a few years, so two different synthetic events share far more words,
names and dates than two real ones: how often they score above the threshold says nothing
about a real library, and is not printed.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from curator.library import Library
from curator.similarity.index import build
from curator.similarity.records import read_record
from curator.similarity.similar import Judge


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, help="a library written by benchmarks/generate.py")
    args = parser.parse_args()
    pairs = json.loads((args.root / "manifest.json").read_text(encoding="utf-8"))["duplicates"]
    started = time.perf_counter()
    judge = Judge(build(Library.at(args.root)))
    built = time.perf_counter() - started
    paths = {record.id: record.path for record in judge.index.records}
    found = flagged = 0
    scores = []
    for pair in pairs:
        path = paths[pair["duplicate"]]
        record = read_record(args.root / path, path)
        assert record is not None, path
        matches = judge.similar(record, top=1, honour_settled=False)
        right = bool(matches) and matches[0].id == pair["original"]
        found += right
        flagged += right and matches[0].kind == "duplicate"
        scores.append(matches[0].score if right else 0.0)
    low, p5, median = np.percentile(scores, [0, 5, 50])
    print(f"{len(judge.index):,} incidents, index built in {built:.1f} s\n")
    print("| planted pairs | found at rank 1 | flagged | lowest score | 5th percentile | median |")
    print("| --- | --- | --- | --- | --- | --- |")
    print(f"| {len(pairs):,} | {found:,} | {flagged:,} | {low:.2f} | {p5:.2f} | {median:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
