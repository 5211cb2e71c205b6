"""What every harness shares: run a check on each input, and with FUZZ_FAILURES set, keep
going past a failure rather than stop at the first one.

libFuzzer stops at the first failure, and a campaign that has found one bug would find it
again at every restart. With `FUZZ_FAILURES=DIR`, a failing input is written to DIR once
for each place it fails at (the exception's type and the last frame of its traceback,
in `signature.txt` beside it), and the run goes on; `python fuzz/fuzz_X.py INPUT` then
runs one input and stops at its failure, and `-minimize_crash=1 -runs=N INPUT`
minimises it. Without FUZZ_FAILURES, the first failure stops the run, as usual.

With `FUZZ_LINES=1`, half of the mutations edit lines (`mutate_lines`) rather than bytes:
random bytes rarely stay YAML that loads, let alone the canonical layout.
"""

from __future__ import annotations

import hashlib
import os
import random
import sys
import traceback
from collections.abc import Callable
from pathlib import Path

import atheris

# What the line mutator inserts: the pieces of the canonical language and those just
# outside it, where the fast reader and libyaml could part ways.
PIECES = [
    *("- ", ": ", ":", "  ", " ", "'", "''", '"', "|", "|-", "|+", "[]", "[", "]", "{}"),
    *("~", "null", "Null", "NULL", "nul", "-", "?", "? ", "#", " # c", "&a", "*a", "!!str "),
    *("---", "...", "key:", "id", "x", "1", "\\", "\\n", "\n", "\u00e9", "가", "\u00a0"),
    "\u3000",
]


def mutate_lines(data: bytes, max_size: int, seed: int) -> bytes:
    """libFuzzer's byte mutations half of the time; else an edit of whole lines or of
    one line's indentation, or a piece of YAML put inside a line: random bytes rarely
    stay within the canonical language, which is what `read_canonical` reads."""
    chance = random.Random(seed)
    text = data.decode("utf-8", errors="ignore")
    if chance.random() < 0.5 or "\n" not in text:
        return bytes(atheris.Mutate(data, max_size))
    lines = text.split("\n")[:-1]
    at = chance.randrange(len(lines))
    how = chance.randrange(6)
    if how == 0:
        lines.insert(chance.randrange(len(lines) + 1), lines[at])
    elif how == 1 and len(lines) > 1:
        del lines[at]
    elif how == 2:
        lines[at] = lines[at][chance.randrange(1, 3) :]
    elif how == 3:
        lines[at] = " " * chance.randrange(1, 3) + lines[at]
    elif how == 4:
        lines.insert(at, "")
    else:
        where = chance.randrange(len(lines[at]) + 1)
        lines[at] = lines[at][:where] + chance.choice(PIECES) + lines[at][where:]
    out = ("\n".join(lines) + "\n").encode("utf-8")
    return out if len(out) <= max_size else bytes(atheris.Mutate(data, max_size))


def _signature(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    last = frames[-1] if frames else None
    where = f"{Path(last.filename).name}:{last.lineno}" if last else "?"
    return f"{type(exc).__name__} at {where}"


def fuzz(check: Callable[[bytes], None]) -> None:
    """Fuzz `check` with the command line's atheris / libFuzzer options; with FUZZ_LINES
    set, half of the mutations are `mutate_lines`'."""
    folder = os.environ.get("FUZZ_FAILURES")
    seen: set[str] = set()

    def one(data: bytes) -> None:
        if folder is None:
            check(bytes(data))
            return
        try:
            check(bytes(data))
        except Exception as exc:
            signature = _signature(exc)
            if signature in seen:
                return
            seen.add(signature)
            name = hashlib.sha256(signature.encode()).hexdigest()[:12]
            kept = Path(folder) / name
            kept.mkdir(parents=True, exist_ok=True)
            (kept / "input").write_bytes(bytes(data))
            (kept / "signature.txt").write_text(
                f"{signature}\n\n{''.join(traceback.format_exception(exc))}"
            )
            print(f"FAILURE {name}: {signature}", file=sys.stderr, flush=True)

    if os.environ.get("FUZZ_LINES"):
        atheris.Setup(sys.argv, one, custom_mutator=mutate_lines)
    else:
        atheris.Setup(sys.argv, one)
    atheris.Fuzz()
