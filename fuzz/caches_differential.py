"""The differential test of the caches (tests/test_caches_differential.py), run longer.

    python fuzz/caches_differential.py --seeds 1-4 --steps 300 [--count 40] [--settled]

Each seed runs its own sequence of edits on its own generated library, comparing every
command with the cache and without after each step; what differed is printed, and the
exit status is 1 if anything did. A step costs 2-5 s at 40 incidents.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_caches_differential import at_once, run


def seeds(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=seeds, default=seeds("1"), help="N or N-M")
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--count", type=int, default=40, help="incidents generated")
    parser.add_argument("--settled", action="store_true", help="every file settles at once")
    parser.add_argument(
        "--at-once", action="store_true", help="rounds of commands run at once while files change"
    )
    options = parser.parse_args()
    differed = False
    for seed in options.seeds:
        start = time.monotonic()
        with tempfile.TemporaryDirectory() as folder:
            if options.at_once:
                found = at_once(Path(folder), seed, options.steps, options.count)
            else:
                found = run(Path(folder), seed, options.steps, options.count, options.settled)
        took = time.monotonic() - start
        print(f"seed {seed}: {options.steps} steps, {len(found)} differences ({took:.0f} s)")
        for line in found:
            print(f"  {line}")
        differed = differed or bool(found)
        sys.stdout.flush()
    return 1 if differed else 0


if __name__ == "__main__":
    sys.exit(main())
