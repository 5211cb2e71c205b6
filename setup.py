"""The optional compiled build: `CURATOR_COMPILE=1 pip install .` (see docs/compiled.md).

By default curator installs as pure Python (what pyproject.toml describes; no compiler
needed). With CURATOR_COMPILE=1, the modules that do the work for every file are compiled
with mypyc from the same source: they already pass `mypy --strict`, which is what mypyc
needs. Each compiled module sits beside its source and is imported instead of it.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import setup

# The per-file work of lint and export: the reader, the rules, the render. Left out:
# modules whose objects cross to worker processes by pickle (mypyc's classes do not
# pickle as Python's do: `curator.cache.Store`), the pydantic models (their metaclass
# builds them at import), and what runs once a command (the CLI, git, the aggregate files).
COMPILED = [
    "curator/document.py",
    "curator/load_canonical.py",
    "curator/lint.py",
    "curator/textnorm.py",
    "curator/urls.py",
    "curator/rules/",
    "curator/export/build.py",
    "curator/export/graph.py",
    "curator/export/collect.py",
    "curator/export/released.py",
    "curator/export/write.py",
]


def compiled_modules() -> list[Any]:
    if os.environ.get("CURATOR_COMPILE", "") != "1":
        return []
    from mypyc.build import mypycify  # (a build requirement only when asked for)

    return mypycify(COMPILED, opt_level="3")


if __name__ == "__main__":  # (as setuptools runs it; tests read COMPILED)
    setup(ext_modules=compiled_modules())
