"""setuptools' build backend, which also asks for mypy (mypyc) when CURATOR_COMPILE=1.

In-tree (pyproject.toml's `backend-path`), as setuptools documents for dynamic build
requirements: a default build needs setuptools alone, and `CURATOR_COMPILE=1 pip install .`
works in pip's isolated build environment too (see setup.py and docs/compiled.md).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403 - every other hook, as setuptools has it

FLAG = "CURATOR_COMPILE"
# mypyc, and what mypy reads the compiled modules' imports from (as `mypy --strict` in the
# test suite does): the project's dependencies and PyYAML's stubs.
COMPILER = ["mypy>=1.10", "types-PyYAML>=6.0"]

Hook = Callable[[dict[str, str] | None], list[str]]


def get_requires_for_build_wheel(config_settings: dict[str, str] | None = None) -> list[str]:
    return _requires(build_meta.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(config_settings: dict[str, str] | None = None) -> list[str]:
    return _requires(build_meta.get_requires_for_build_editable, config_settings)


def _requires(hook: Hook, config_settings: dict[str, str] | None) -> list[str]:
    compiling = os.environ.get(FLAG, "") == "1"
    # setuptools runs setup.py to find its own requirements, before mypy is there to import.
    with _without(FLAG):
        found = hook(config_settings)
    return [*found, *COMPILER, *_dependencies()] if compiling else found


def _dependencies() -> list[str]:
    with open("pyproject.toml", "rb") as stream:  # (a build runs in the project's folder)
        dependencies: list[str] = tomllib.load(stream)["project"]["dependencies"]
    return dependencies


@contextmanager
def _without(name: str) -> Iterator[None]:
    value = os.environ.pop(name, None)
    try:
        yield
    finally:
        if value is not None:
            os.environ[name] = value
