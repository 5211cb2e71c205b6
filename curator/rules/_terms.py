"""Shared by the term rules (IL301, IL302): the ids of each dimension's terms, and of its
deprecated ones, as sets, so that a file's facets are checked in a few set operations.

They are worked out once per taxonomy. Lint checks every file against one `Taxonomy`
object, which nothing changes once it is loaded (its own caches of names and hints rest
on that too). The last one asked about is kept with its sets (`last_seen`)."""

from __future__ import annotations

from typing import NamedTuple

from curator.model import DIMENSIONS, Dimension
from curator.rules._last import last_seen
from curator.taxonomy import Taxonomy


class TermIds(NamedTuple):
    known: tuple[tuple[Dimension, frozenset[str]], ...]  # each dimension's, in order
    deprecated: tuple[tuple[Dimension, frozenset[str]], ...]  # of the dimensions having any


def _sets(taxonomy: Taxonomy) -> TermIds:
    known, deprecated = [], []
    for dimension in DIMENSIONS:
        # The ids `taxonomy.term(dimension, id)` finds: the keys of this dictionary.
        terms = taxonomy.terms.get(dimension, {})
        known.append((dimension, frozenset(terms)))
        old = frozenset(i for i, term in terms.items() if term.deprecated is not None)
        if old:
            deprecated.append((dimension, old))
    return TermIds(tuple(known), tuple(deprecated))


term_ids = last_seen(_sets)
