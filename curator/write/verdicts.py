"""Which bytes are already canonical: the verdicts `curator fmt` keeps between runs.

One entry per verdict, in the "fmt" store of `curator.cache` (`.curator-cache/`): the key is
the SHA-256 of a file's bytes, present only if rendering exactly those bytes gave them back
unchanged. Rendering depends on nothing else but the code that renders, so the store's
context names all of it: curator's own source (the layout, the loader, the model's key
order), and the versions of Python, ruamel.yaml, PyYAML, libyaml and pydantic. Only
verdicts that a render actually gave are kept (never "the output of a render is canonical",
which would lean on the formatter being idempotent rather than prove it).

The store guarantees the rest: a corrupt or foreign shard is ignored, the folder may be
deleted at any time, and concurrent runs cost misses at worst. Entries are never pruned
within a context: each is ~70 bytes, and a new curator version starts a new store (the
older ones are deleted after a few).
"""

from __future__ import annotations

import ruamel.yaml

from curator.cache import Store
from curator.library import Library
from curator.lint_cache import code_context

_CANONICAL = 1


def context() -> list[str]:
    """Everything a render depends on besides the bytes rendered."""
    return code_context(f"ruamel.yaml {ruamel.yaml.__version__}")


class Verdicts:
    """`canonical(digest)` for bytes seen canonical before; `remember(digest)` when a
    render has just shown it; `save()` at the end of the run."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @classmethod
    def open(cls, library: Library) -> Verdicts:
        return cls(Store.open(library.root, "fmt", context()))

    def canonical(self, digest: str) -> bool:
        # Exactly what `remember` writes: `true` and `1.0` equal 1 in Python, but curator
        # never wrote them, so an entry holding one was not written by curator as it is.
        verdict = self.store.get(digest)
        return type(verdict) is int and verdict == _CANONICAL

    def remember(self, digest: str) -> None:
        self.store.put(digest, _CANONICAL)

    def save(self) -> None:
        self.store.save()
