"""Each incident file's share of the similarity index, kept between builds under its bytes.

The index itself is kept under a key of the whole library's content (store.py), so any
edit builds it again, and reading every file for its features and entities is nearly all
of a build: about a minute at 100,000 incidents. So each file's share (`index.Share`) is
kept too, in the "index-shares" store of `curator.cache`, one entry per file under its
name: `[sha256 hex, record row, packed features as base64, entities, Korean word keys as
base64]`. A build after an edit reads only the files whose bytes are not those of their
entry, and assembles the index from every share (the weights depend on the whole
library, so they are worked out again, which costs seconds, not a minute).

- **Never wrong.** An entry is kept under the digest of the very bytes it was read from
  (`index.extract_file`), and used only for a file whose digest now is that one
  (`curator.file_digests`); the context names curator's code and numpy's version, as the
  index's does; an entry of any other shape is a miss, and so is every entry decoded in
  the same batch as one whose record or features fail their check
  (`records.records_from_rows`, `_as_extracted`).
- A file that could not be read as a YAML mapping keeps no share: it is read each time.
- The store's own guarantees (a checksum per shard, the cache folder's identity in its
  context, atomic writes, safe to delete) are `curator.cache`'s.
"""

from __future__ import annotations

import binascii
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from curator.cache import Encoded, Store
from curator.library import Library
from curator.lint_cache import code_context
from curator.similarity.index import COUNT_BITS, COUNT_MAX, Share
from curator.similarity.records import record_row, records_from_rows

KIND = "index-shares"
# The entries' shape: bump it to change them (2: a word's flag in the features; 3: the keys
# of the Korean words)
FORMAT = 3
# Shares made by other code (another curator) are kept for one other only, as indexes are
# (`store.OTHER_INDEXES_KEPT`): at 100,000 incidents they take 383 MB.
OTHER_CONTEXTS_KEPT = 1


class KeptShares:
    """The shares kept for one library's files, by file name."""

    def __init__(self, store: Store | None) -> None:
        self.store = store  # None: nothing kept (the cache is off, or cannot be written)
        self.fresh: dict[str, tuple[bytes, Share]] = {}

    @classmethod
    def open(cls, library: Library) -> KeptShares:
        context = [f"{KIND} {FORMAT}", *code_context(f"numpy {np.__version__}")]
        store = Store.open(library.root, KIND, context, OTHER_CONTEXTS_KEPT)
        return cls(store if store.enabled else None)

    def take(self, wanted: Sequence[tuple[str, bytes]]) -> list[Share | None]:
        """For each (name, digest) of `wanted`, the share kept of those bytes; None where
        none is. Read a shard at a time, and decoded a batch at a time: at 100,000 files,
        the entries' JSON values are three times the size of the shares."""
        found: list[Share | None] = [None] * len(wanted)
        if self.store is None:
            return found
        digests = {name: digest.hex() for name, digest in wanted}
        position = {name: i for i, (name, _digest) in enumerate(wanted)}
        batch: list[tuple[int, list[Any]]] = []
        for name, value in self.store.take(digests):
            if _is_entry(value, digests[name]):
                batch.append((position[name], value))
            if len(batch) == _BATCH:
                _decode(batch, found)
                batch = []
        _decode(batch, found)
        return found

    def keep(self, name: str, digest: bytes, share: Share) -> None:
        """Keep `share` of the file `name` whose bytes have the SHA-256 `digest`."""
        self.fresh[name] = (digest, share)

    def save(self, names: Iterable[str]) -> None:
        """Write the shares kept since `take`; the entries of files not in `names`
        (deleted or renamed since) go as their shards are written."""
        if self.store is not None and self.fresh:
            self.store.update(_Encoding(self.fresh), keep=set(names))
        self.fresh = {}


class _Encoding(Mapping[str, Encoded]):
    """The entries of shares, each encoded as the store asks for it: the store writes a
    shard at a time, so only one shard's entries are ever encoded at once. (Encoded all
    at once, at 100,000 files, they were 290 MB held beside the shares themselves.)"""

    def __init__(self, shares: dict[str, tuple[bytes, Share]]) -> None:
        self.shares = shares

    def __getitem__(self, name: str) -> Encoded:
        digest, share = self.shares[name]
        packed, korean = (
            binascii.b2a_base64(value, newline=False).decode("ascii")
            for value in (share.packed, share.korean)
        )
        entry = [digest.hex(), record_row(share.record), packed, share.entities, korean]
        return Encoded.of(name, json.dumps(entry, ensure_ascii=False))

    def __iter__(self) -> Iterator[str]:
        return iter(self.shares)

    def __len__(self) -> int:
        return len(self.shares)


_BATCH = 1000  # entries decoded at once: their records are checked a column at a time


def _decode(batch: list[tuple[int, list[Any]]], found: list[Share | None]) -> None:
    """Put the share of each (position, entry) of `batch` in its place in `found`; none,
    if any of their records fails its check (then they are read from their files)."""
    try:
        records = records_from_rows([value[1] for _, value in batch])
        packed = [binascii.a2b_base64(value[2], strict_mode=True) for _, value in batch]
        korean = [binascii.a2b_base64(value[4], strict_mode=True) for _, value in batch]
    except (TypeError, KeyError, ValueError):  # (binascii.Error is a ValueError)
        return
    if not (_as_extracted(packed) and _as_keyed(korean)):
        return
    for (i, value), record, features, keys in zip(batch, records, packed, korean, strict=True):
        found[i] = Share(record, features, value[3], keys)


def _as_extracted(packed: list[bytes]) -> bool:
    """Whether each of `packed` holds whole uint32s as `index.extract_file` packs them:
    columns strictly ascending, each with a count of at least one. Checked for a batch at
    once (0.3 s at 100,000 files): any other would make an index no build makes."""
    if any(len(features) % 4 for features in packed):
        return False
    values = np.frombuffer(b"".join(packed), dtype="<u4")
    if not (values & COUNT_MAX).all():
        return False
    return _rising_in_each(values >> COUNT_BITS, packed)


def _as_keyed(korean: list[bytes]) -> bool:
    """Whether each of `korean` holds whole uint32s, ascending, as `index.extract_file`
    keys a file's Korean words."""
    if any(len(keys) % 4 for keys in korean):
        return False
    return _rising_in_each(np.frombuffer(b"".join(korean), dtype="<u4"), korean)


def _rising_in_each(values: np.ndarray, parts: list[bytes]) -> bool:
    """Whether `values`, the uint32s of `parts` one after another, rise strictly within
    each part."""
    rising = values[1:] > values[:-1]
    starts = np.cumsum([len(part) // 4 for part in parts], dtype=np.int64)[:-1]
    rising[starts[(starts > 0) & (starts < len(values))] - 1] = True  # one file to the next
    return bool(rising.all())


def _is_entry(value: Any, digest: str) -> bool:
    """Whether `value` is an entry of `KeptShares.keep`'s shape for the bytes of `digest`."""
    return (
        type(value) is list
        and len(value) == 5
        and value[0] == digest
        and type(value[2]) is str
        and type(value[3]) is str
        and type(value[4]) is str
    )
