"""The index on disk: `.curator-cache/similarity-<context>/index.npz` at the library root.

The folder comes from the project's cache store (curator/cache.py), with the content key
below as its context, so it shares that store's guarantees and housekeeping: the folder's
own identity is part of the context (a cache folder committed to git or copied from
elsewhere is never read), and only the few most recently used contexts are kept.
- Keyed by content: the key hashes every incident file's name and bytes, the index format
  and curator's code (`lint_cache.code_context`: its source and the versions of what it
  runs on), so a cached index is never stale — any change gives a new folder. The bytes'
  digests are remembered under the files' settled stats (curator/file_digests.py), so a
  run where nothing changed reads no incident file; after a change, the index is built
  again from each unchanged file's share (curator/similarity/shares.py) and the changed
  files, and written only if every file read had the bytes its key was made of.
- Safe to delete at any time: a missing or unreadable file is rebuilt.
- Safe under concurrent runs: each writer writes its own temporary file in the same folder
  and renames it into place (atomic on POSIX and Windows); readers see a whole file or none.
- Never executes data: numpy arrays are loaded with `allow_pickle=False` and the records
  travel as JSON, so a corrupt file can at worst be rejected.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import math
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from curator import __version__
from curator.cache import UNDECODABLE, Store
from curator.file_digests import NOT_REGULAR, UNREADABLE, FileDigests
from curator.library import INCIDENTS, Library, read_as_incident
from curator.lint_cache import code_context
from curator.memory import without_cyclic_gc
from curator.regular import open_regular
from curator.similarity.index import (
    N_BUCKETS,
    NONE_ADDED,
    Added,
    Index,
    Postings,
    Progress,
    Share,
    WordSets,
    added_items,
    assemble,
    build,
    extract,
)
from curator.similarity.records import Record, only_texts, records_from_json, records_to_json
from curator.similarity.shares import KeptShares
from curator.write.atomic import made_beside

# The codec zipfile reads np.load's member names with, looked up as this module loads
# rather than mid-run (see `codecs.lookup` in curator.similarity.text).
codecs.lookup("cp437")

# 4: idf and the text postings' column starts stored sparse; 5: records as columns; 6: the
# text postings' word marks; 7: the keys of each incident's Korean words
FORMAT = 7
INDEX_FILE = "index.npz"
# Each edit gives the library a new index, in a folder of its own (248 MB at 100,000
# incidents): one other is kept, for going back and forth between two branches, or for
# `curator review`'s base and head. One dropped is built again from the shares kept of its
# files (15-20 s at 100,000).
OTHER_INDEXES_KEPT = 1


def index_path(library: Library, digests: dict[str, bytes] | None = None) -> Path | None:
    """Where the index of the library as it is now belongs; None if caching is off.
    `digests`: `file_digests(library)`, if the caller has them."""
    # curator's code, not only its version: a change to how text is read (an entity rule,
    # say) must never meet an index built by the code before it.
    context = [
        f"similarity-index {FORMAT}",
        *code_context(f"numpy {np.__version__}"),
        library_key(library, digests),
    ]
    folder = Store.open(library.root, "similarity", context, OTHER_INDEXES_KEPT).folder
    return folder / INDEX_FILE if folder is not None else None


def file_digests(library: Library) -> dict[str, bytes]:
    """The SHA-256 of each incident file's bytes, by name (`FileDigests.digest`: a stand-in
    for what is not a readable regular file); bytes are read only where a file's stat
    changed since they were last hashed."""
    # Anything in incidents/ that is not a regular file (a FIFO, a link to a device) is
    # not read, and `build` skips it too.
    digests = FileDigests.open(library)
    folder = f"{library.incidents_dir}{os.sep}"
    names = filter(read_as_incident, library.incident_names())  # (as `library_items`)
    found = {name: digests.digest(folder + name) for name in names}
    digests.save()
    return found


def library_key(library: Library, digests: dict[str, bytes] | None = None) -> str:
    digest = hashlib.sha256(f"similarity-index:{FORMAT}:{__version__}".encode())
    for name, content in (digests if digests is not None else file_digests(library)).items():
        # fsencode: a file name need not be UTF-8 (it is then a finding of lint's, not a crash)
        digest.update(os.fsencode(name) + b"\0" + content)
    return digest.hexdigest()[:32]


def load_index(
    library: Library,
    use_cache: bool = True,
    progress: Progress | None = None,
    added: Added = NONE_ADDED,
) -> Index:
    """The library's index: from the cache when it holds this content, else built from
    the shares kept of the files that did not change and the files that did (and written
    to the cache, when the library folder is writable); `progress` sees the files read.
    With files `added` (`index.Added`), the index of the library and them, built from
    the library's shares and those files, which are read each time: it is not the
    library's index, nor are they its files, so neither is kept in its cache (the shares
    of the library's own files are)."""
    if not use_cache:
        return build(library, progress=progress, added=added)
    digests = file_digests(library)
    if added:
        return build_keeping(library, digests, progress, added)[0]
    path = index_path(library, digests)
    if path is None:
        return build(library, progress=progress)
    cached = read(path)
    if cached is not None:
        return cached
    index, exact = build_keeping(library, digests, progress)
    if exact:  # (else a file changed while the index was built: not what `path` names)
        write(index, path)
    return index


def build_keeping(
    library: Library,
    digests: dict[str, bytes],
    progress: Progress | None = None,
    added: Added = NONE_ADDED,
) -> tuple[Index, bool]:
    """The index, reading only the files whose share is not kept under their digest, and
    keeping the shares of those it read; and whether every file read had the bytes of its
    digest (a file may change between the two). The files are those `library_items`
    gives, told by their digests (a `Path` made of each of 100,000 names cost 1 s); one
    that could not be read at all is listed as not read, as `build` lists one it cannot
    read. The files of `added` are read too, and their shares not kept."""
    names = [name for name, digest in digests.items() if digest != NOT_REGULAR]
    kept = KeptShares.open(library)
    shares = kept.take([(name, digests[name]) for name in names])
    missing = [i for i, share in enumerate(shares) if share is None]
    folder = library.incidents_dir
    todo = [(folder / names[i], f"{INCIDENTS}/{names[i]}") for i in missing]
    others = added_items(added)
    read = extract([*todo, *others], progress=progress)
    exact = True
    for i, (digest, share) in zip(missing, read[: len(todo)], strict=True):
        shares[i] = share
        exact = exact and _as_keyed(digest, digests[names[i]])
        if share is not None:
            kept.keep(names[i], digest, share)
    kept.save(names)
    displays = [f"{INCIDENTS}/{name}" for name in names]
    if others:
        displays, shares = _in_name_order(
            [*displays, *(display for _path, display in others)],
            [*shares, *(share for _digest, share in read[len(todo) :])],
        )
    del read  # (its shares are in `shares` now, which `assemble` lets go of as it goes)
    return assemble(displays, shares), exact


def _in_name_order(
    displays: list[str], shares: list[Share | None]
) -> tuple[list[str], list[Share | None]]:
    """The files (and their shares) in the order a build lists them, by name."""
    order = sorted(range(len(displays)), key=displays.__getitem__)
    return [displays[i] for i in order], [shares[i] for i in order]


def _as_keyed(read: bytes, keyed: bytes) -> bool:
    """Whether the digest of the bytes a build read (b"": none could be) is the one the
    library's key was made of (`UNREADABLE` for a file that could not be read then)."""
    return read == keyed or (read == b"" and keyed == UNREADABLE)


def read(path: Path) -> Index | None:
    """The index kept at `path`; None for a file this code did not write whole: missing,
    torn, of another format, or well formed but not an index (`_consistent`). Read without
    the cyclic garbage collector, as lint checks files: decoding the records of 100,000
    incidents made it go through every object of the run eight times (0.8 s of a warm
    `curator review`), for no cycle."""
    with without_cyclic_gc():
        return _read(path)


def _read(path: Path) -> Index | None:
    try:
        # Opened here: np.load would open the path itself, and a FIFO put there would block.
        with open_regular(path) as stream, np.load(stream, allow_pickle=False) as archive:
            meta = _json(_array(archive, "meta"))
            if not _is_meta(meta):
                return None
            # The records first: their JSON is let go before the other arrays are read.
            records = records_from_json(_json(_array(archive, "records")))
            arrays = {name: _array(archive, name) for name in _ARRAYS if name not in _JSON}
        if not _consistent(arrays, len(records), len(meta["entity_names"])):
            return None
        return _index(arrays, records, meta)
    # EOFError: an empty file (np.load's answer to it), as a crash can leave one behind.
    # RecursionError: JSON nested deeper than the parser goes ("[[[[…"), which no write makes.
    except (OSError, EOFError, ValueError, KeyError, TypeError, RecursionError, zipfile.BadZipFile):
        return None


def _array(archive: Any, name: str) -> np.ndarray:
    """The array `name` of the archive, if it is of the shape and dtype `write` gives it;
    else a ValueError (see `read`)."""
    array: np.ndarray = archive[name]
    if array.ndim != 1 or array.dtype != _ARRAYS[name]:
        raise ValueError(f"{name}: not an array of the index")
    return array


def _json(array: np.ndarray) -> Any:
    return json.loads(array.tobytes().decode("utf-8", UNDECODABLE))


def _index(arrays: dict[str, np.ndarray], records: list[Record], meta: dict[str, Any]) -> Index:
    entity_cols, doc_cols = arrays["entity_rows"], arrays["doc_entity_rows"]
    return Index(
        records=records,
        idf=_unpack(arrays["idf_common"], arrays["idf_cols"], arrays["idf_values"]),
        text=Postings(
            _column_starts(arrays["text_cols"], arrays["text_counts"]),
            arrays["text_rows"],
            arrays["text_values"],
            arrays["text_words"],
        ),
        entity_names=meta["entity_names"],
        entity_rarity=arrays["entity_rarity"],
        entity_postings=Postings(
            arrays["entity_indptr"], entity_cols, np.ones(len(entity_cols), np.float32)
        ),
        doc_entities=Postings(
            arrays["doc_entity_indptr"], doc_cols, np.ones(len(doc_cols), np.float32)
        ),
        korean=WordSets(arrays["korean_indptr"], arrays["korean_keys"]),
        skipped=meta["skipped"],
    )


def write(index: Index, path: Path) -> bool:
    """Write atomically; False (and nothing left behind) if the folder is not writable."""
    meta = {"format": FORMAT, "entity_names": index.entity_names, "skipped": index.skipped}
    # (Columns of the records' own values: no second copy of them is made to be written.)
    listed = json.dumps(records_to_json(index.records), ensure_ascii=False)
    records = np.frombuffer(listed.encode("utf-8", UNDECODABLE), np.uint8)
    del listed
    encoded = np.frombuffer(
        json.dumps(meta, ensure_ascii=False).encode("utf-8", UNDECODABLE), np.uint8
    )
    idf_common, idf_cols, idf_values = _packed(index.idf, index.idf.max())
    lengths = np.diff(index.text.indptr)  # of each column: most are 0
    text_cols = np.flatnonzero(lengths).astype(np.int32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # (Deleted on any exception: a stop as it was saved left it, as large as the index.)
        with made_beside(path) as (temporary, out):
            with out:
                np.savez(
                    out,
                    meta=encoded,
                    records=records,
                    idf_common=idf_common,
                    idf_cols=idf_cols,
                    idf_values=idf_values,
                    text_cols=text_cols,
                    text_counts=lengths[text_cols],
                    text_rows=index.text.rows,
                    text_values=index.text.values,
                    text_words=_marks(index.text),
                    entity_rarity=index.entity_rarity,
                    entity_indptr=index.entity_postings.indptr,
                    entity_rows=index.entity_postings.rows,
                    doc_entity_indptr=index.doc_entities.indptr,
                    doc_entity_rows=index.doc_entities.rows,
                    korean_indptr=index.korean.indptr,
                    korean_keys=index.korean.keys,
                )
            os.replace(temporary, path)
    except OSError:
        return False
    return True


def _marks(postings: Postings) -> np.ndarray:
    """The postings' word marks; none marked where it has none."""
    marks = postings.marks
    return np.zeros(len(postings.rows), dtype=np.bool_) if marks is None else marks


# The text postings have a column per hashed feature (2^22): their idf and their column
# starts are long arrays of which a small library fills a few thousand places. Stored
# whole, they made every index 50 MB; stored as what differs from one common value, the
# bundled library's is well under a megabyte.


def _packed(dense: np.ndarray, common: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`dense` (N_BUCKETS long) as its `common` value, where it differs, its values there.
    (The column lengths need no common value: it is 0.)"""
    cols = np.flatnonzero(dense != common).astype(np.int32)
    return np.array([common], dtype=dense.dtype), cols, dense[cols]


def _unpack(common: np.ndarray, cols: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The array `_packed` described (of the shapes `_consistent` checks)."""
    dense = np.full(N_BUCKETS, common[0], dtype=values.dtype)
    dense[cols] = values
    return dense


def _column_starts(cols: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The postings' `indptr` from the lengths of their non-empty columns, built in place
    (no second array of N_BUCKETS lengths)."""
    indptr = np.zeros(N_BUCKETS + 1, np.int64)
    indptr[cols.astype(np.int64) + 1] = counts
    np.cumsum(indptr, out=indptr)
    return indptr


# What `write` stores: every array one-dimensional, of these dtypes.
_ARRAYS = {
    "meta": np.dtype(np.uint8),
    "records": np.dtype(np.uint8),
    "idf_common": np.dtype(np.float32),
    "idf_cols": np.dtype(np.int32),
    "idf_values": np.dtype(np.float32),
    "text_cols": np.dtype(np.int32),
    "text_counts": np.dtype(np.int64),
    "text_rows": np.dtype(np.int32),
    "text_values": np.dtype(np.float32),
    "text_words": np.dtype(np.bool_),
    "entity_rarity": np.dtype(np.float32),
    "entity_indptr": np.dtype(np.int64),
    "entity_rows": np.dtype(np.int32),
    "doc_entity_indptr": np.dtype(np.int64),
    "doc_entity_rows": np.dtype(np.int32),
    "korean_indptr": np.dtype(np.int64),
    "korean_keys": np.dtype(np.uint32),
}
_JSON = ("meta", "records")  # arrays of UTF-8 bytes
_SLACK = 1e-5  # float32 rounding of the weights' upper bounds


def _is_meta(meta: Any) -> bool:
    """Whether `meta` is this format's; a TypeError for lists that are not of text."""
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        return False
    names = only_texts(meta.get("entity_names"))  # a TypeError (see `read`) unless text
    only_texts(meta.get("skipped"))
    return len(set(names)) == len(names)


def _consistent(arrays: dict[str, np.ndarray], n: int, n_entities: int) -> bool:
    """Whether the arrays are what `build` gives for `n` records and `n_entities` entities:
    lengths that agree, indices in range, weights in the range their formulas give. A file
    that passes can still hold other values than the build's, but none that fails a query.
    (Linear in the stored arrays, a few milliseconds at 10,000 incidents.)"""
    a = arrays
    idf = np.concatenate([a["idf_common"], a["idf_values"]])
    top_idf = math.log(n + 1) + 1  # idf = log((n + 1) / (df + 1)) + 1, with 0 ≤ df ≤ n
    return (
        len(a["idf_common"]) == 1
        and len(a["idf_cols"]) == len(a["idf_values"])
        and _increasing_below(a["idf_cols"], N_BUCKETS)
        and _within(idf, 1.0, top_idf * (1 + _SLACK))
        and len(a["text_counts"]) == len(a["text_cols"])
        and _increasing_below(a["text_cols"], N_BUCKETS)
        and _within(a["text_counts"], 1, n)  # a feature is counted once per incident
        and int(a["text_counts"].sum()) == len(a["text_rows"]) == len(a["text_values"])
        and len(a["text_words"]) == len(a["text_rows"])
        and _within(a["text_rows"], 0, n - 1)
        and _positive_up_to(a["text_values"], 1 + _SLACK)  # L2-normalised, idf ≥ 1
        and len(a["entity_rarity"]) == n_entities
        and _positive_up_to(a["entity_rarity"], 1 + _SLACK)
        and _postings(a["entity_indptr"], a["entity_rows"], n_entities, n)
        and _postings(a["doc_entity_indptr"], a["doc_entity_rows"], n, n_entities)
        # The two entity postings are one relation read both ways: the same counts.
        and _column_lengths(a["entity_indptr"]) == _row_counts(a["doc_entity_rows"], n_entities)
        and _column_lengths(a["doc_entity_indptr"]) == _row_counts(a["entity_rows"], n)
        and _starts(a["korean_indptr"], len(a["korean_keys"]), n)
    )


def _within(values: np.ndarray, low: float, high: float) -> bool:
    """All of `values` in [low, high] (NaN is not)."""
    return len(values) == 0 or bool(values.min() >= low and values.max() <= high)


def _positive_up_to(values: np.ndarray, high: float) -> bool:
    return len(values) == 0 or bool(values.min() > 0 and values.max() <= high)


def _increasing_below(cols: np.ndarray, bound: int) -> bool:
    """Column numbers as `np.flatnonzero` gives them, for `bound` columns."""
    return _within(cols, 0, bound - 1) and bool(np.all(cols[1:] > cols[:-1]))


def _postings(indptr: np.ndarray, rows: np.ndarray, n_cols: int, n_rows: int) -> bool:
    """Column starts that slice `rows` whole and in order, and rows in range."""
    return _starts(indptr, len(rows), n_cols) and _within(rows, 0, n_rows - 1)


def _starts(indptr: np.ndarray, total: int, n: int) -> bool:
    """The starts of `n` runs that slice `total` values whole and in order."""
    return (
        len(indptr) == n + 1
        and indptr[0] == 0
        and indptr[-1] == total
        and bool(np.all(indptr[1:] >= indptr[:-1]))
    )


def _column_lengths(indptr: np.ndarray) -> bytes:
    return np.diff(indptr).astype(np.int64).tobytes()


def _row_counts(rows: np.ndarray, n: int) -> bytes:
    return np.bincount(rows, minlength=n).astype(np.int64).tobytes()
