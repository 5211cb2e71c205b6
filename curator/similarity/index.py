"""The similarity index of a library: built once, kept on disk, keyed by the library's content.

What it holds, all in numpy arrays so that 100k incidents stay within memory and a query
touches only the postings of its own features:
- per incident, a `Record` (ids, dates, organisations, URLs, facets, settled ids);
- text: TF-IDF vectors (sublinear tf, L2-normalised) of title + narrative, over hashed
  features (see text.py), stored column-major so that a query gathers the columns it has;
  each document keeps only its `KEEP_PER_DOCUMENT` heaviest features (the rest carry a
  small share of its weight and most of the index's size), and every word it holds of
  Latin, Greek or Cyrillic letters, which a search for the word finds;
- Korean words: per incident, the keys of the Korean words its text holds, particles
  dropped (`WordSets`), which a search for the word finds it by, however light the word's
  n-grams are in its text: apart from the TF-IDF vectors, which they do not weigh into;
- entities: for each distinctive entity (see entities.py), the incidents mentioning it,
  and how rare it is.
"""

from __future__ import annotations

import hashlib
import math
import os
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import cached_property, partial
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

import numpy as np

from curator.library import INCIDENTS, Library, meant_as_incident, read_as_incident
from curator.load import MAX_BYTES
from curator.memory import release_freed_memory
from curator.regular import read_regular
from curator.similarity.entities import entities
from curator.similarity.records import Record, parse_mapping, record_of
from curator.similarity.sorting import id_order, stable_order
from curator.similarity.text import WORD_BIT, features, korean_forms, korean_word_keys
from curator.workers import Workers

BUCKET_BITS = 22
N_BUCKETS = 1 << BUCKET_BITS
KEEP_PER_DOCUMENT = 150
GATHER_BUDGET = 1_000_000
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
# Below this many files, starting worker processes costs more than it saves.
_PARALLEL_FROM = 3000
_CHUNK = 1000
_NO_FIELDS: dict[str, str] = {}


def buckets(keys: np.ndarray) -> np.ndarray:
    """Feature keys → column numbers (multiplicative hashing onto N_BUCKETS columns)."""
    return ((keys * _GOLDEN) >> np.uint64(64 - BUCKET_BITS)).astype(np.int32)


@dataclass(frozen=True)
class Postings:
    """A sparse matrix stored column by column: column c holds rows[indptr[c]:indptr[c+1]];
    for the text, each entry marked where a word is among the features of its column in
    its row (`Chunk.words`), as against an n-gram that the hashing put there too."""

    indptr: np.ndarray
    rows: np.ndarray
    values: np.ndarray
    marks: np.ndarray | None = None

    @classmethod
    def from_entries(
        cls,
        rows: np.ndarray,
        cols: np.ndarray,
        values: np.ndarray,
        n_cols: int,
        marks: np.ndarray | None = None,
    ) -> Postings:
        order = stable_order(cols, n_cols)
        indptr = np.zeros(n_cols + 1, dtype=np.int64)
        np.cumsum(np.bincount(cols, minlength=n_cols), out=indptr[1:])
        rows = rows[order].astype(np.int32, copy=False)
        marked = None if marks is None else marks[order]
        return cls(indptr, rows, values[order].astype(np.float32, copy=False), marked)

    def marked_in(self, col: int) -> np.ndarray:
        """The rows of column `col` whose entry is marked (none without marks)."""
        if self.marks is None:
            return np.zeros(0, dtype=np.int32)
        start, end = self.indptr[col], self.indptr[col + 1]
        return np.asarray(self.rows[start:end][self.marks[start:end]])

    def column(self, col: int) -> np.ndarray:
        return self.rows[self.indptr[col] : self.indptr[col + 1]]

    def gather(self, cols: np.ndarray, weights: np.ndarray, n_rows: int) -> np.ndarray:
        """Σ_c weights[c] · column c, as a dense vector of n_rows."""
        starts, ends = self.indptr[cols], self.indptr[cols + 1]
        lengths = ends - starts
        if int(lengths.sum()) == 0:
            return np.zeros(n_rows, dtype=np.float64)
        # The columns' entries copied slice by slice, where an array of every entry's
        # position took as long again, to make and to index with (a query's cosine at
        # 10,000 incidents, ≈500,000 entries: 4.5 → 2.4 ms), the same products summed in
        # the same order (a review reports the scores of both, which must not move).
        spans = list(zip(starts.tolist(), ends.tolist(), strict=True))
        values = np.concatenate([self.values[start:end] for start, end in spans])
        rows = np.concatenate([self.rows[start:end] for start, end in spans])
        contributions = values * np.repeat(weights, lengths)
        return np.bincount(rows, weights=contributions, minlength=n_rows)


@dataclass(frozen=True)
class WordSets:
    """A set of keys per row, one row after another: row r holds keys[indptr[r]:indptr[r+1]].
    Kept as they are, not inverted: a key is looked for in all of them at once (14 M keys
    at 100,000 synthetic incidents: 57 MB, and 10-40 ms a key), where an inverted copy
    took a sort of them all to build and as much memory again."""

    indptr: np.ndarray
    keys: np.ndarray

    def rows_holding(self, key: int) -> np.ndarray:
        """The rows that hold `key`, ascending (each once, as a row holds a key once)."""
        places = np.flatnonzero(self.keys == np.uint32(key))
        return np.searchsorted(self.indptr, places, side="right") - 1


@dataclass(frozen=True)
class Vector:
    """A sparse TF-IDF vector: sorted column numbers and their weights (L2 norm 1)."""

    cols: np.ndarray
    weights: np.ndarray


# A feature's count within one text, packed with its column into 32 bits (`Share.packed`):
# the column in the high 22 bits, then whether a word is among its features (`WORD_FLAG`),
# then the count, at most COUNT_MAX, in the low 9. (A text repeats no feature near 511
# times short of a hostile file, whose weight the sublinear tf, 1 + log(count), would
# barely raise further: 7.2 against 12.1 at 65,535.)
COUNT_BITS = 10
WORD_FLAG = 1 << (COUNT_BITS - 1)
COUNT_MAX = WORD_FLAG - 1


class Share(NamedTuple):
    """What the index takes from one incident file: its record (without its text), its
    distinct feature columns with their counts, packed (see COUNT_BITS), its entities
    joined by newlines, and the keys of its Korean words (`text.korean_word_keys`). Plain
    values, cheap to pass between processes and to keep (`curator.similarity.shares`)."""

    record: Record
    # uint32, little-endian: column << COUNT_BITS | WORD_FLAG or 0 | count, columns ascending
    packed: bytes
    entities: str
    # uint32, little-endian, ascending: the keys of its Korean words
    korean: bytes


def extract_file(path: Path, display: str) -> tuple[bytes, Share | None]:
    """The SHA-256 of the bytes read (b"" if none could be) and the file's share; None
    for a file judgement does not read (not a YAML mapping: records.py)."""
    try:
        raw = read_regular(path, MAX_BYTES)
    except OSError:
        return b"", None
    digest = hashlib.sha256(raw).digest()
    data = parse_mapping(raw)
    if data is None:
        return digest, None
    record = record_of(data, display, path.stem)
    keys = features(record.text)
    # (Each key's place among `cols` from the one sort: np.isin, sorting twice more, made a
    # build of 2,000 incidents a quarter slower.)
    cols, where, times = np.unique(buckets(keys), return_inverse=True, return_counts=True)
    packed = (cols.astype("<u4") << COUNT_BITS) | np.minimum(times, COUNT_MAX).astype("<u4")
    packed[where[(keys & WORD_BIT) != 0]] |= np.uint32(WORD_FLAG)
    found = "\n".join(sorted(entities(record.text)))
    korean = korean_word_keys(record.text).tobytes()
    return digest, Share(replace(record, fields=_NO_FIELDS), packed.tobytes(), found, korean)


def extract_chunk(items: list[tuple[Path, str]]) -> list[tuple[bytes, Share | None]]:
    return [extract_file(path, display) for path, display in items]


@dataclass
class Chunk:
    """The shares of a run of files in flat arrays: per record its number of distinct
    features, then all their columns and counts, packed as in `Share.packed`, one record
    after another; and so the keys of their Korean words."""

    records: list[Record]
    lengths: np.ndarray
    packed: np.ndarray
    entities: list[str]  # per record, its entities joined by newlines (one string, not 30)
    korean_lengths: np.ndarray
    korean: np.ndarray

    @classmethod
    def of(cls, shares: Sequence[Share]) -> Chunk:
        return cls(
            [share.record for share in shares],
            np.array([len(share.packed) // 4 for share in shares], dtype=np.int64),
            np.frombuffer(b"".join(share.packed for share in shares), dtype="<u4"),
            [share.entities for share in shares],
            np.array([len(share.korean) // 4 for share in shares], dtype=np.int64),
            np.frombuffer(b"".join(share.korean for share in shares), dtype="<u4"),
        )

    @property
    def cols(self) -> np.ndarray:
        return (self.packed >> COUNT_BITS).astype(np.int32)

    @property
    def counts(self) -> np.ndarray:
        return self.packed & COUNT_MAX

    @property
    def words(self) -> np.ndarray:
        """Per feature, whether a word is among those of its column (`WORD_FLAG`)."""
        return (self.packed & WORD_FLAG).astype(bool)


@dataclass
class Index:
    records: list[Record]
    idf: np.ndarray
    text: Postings
    entity_names: list[str]
    entity_rarity: np.ndarray
    entity_postings: Postings
    doc_entities: Postings
    korean: WordSets
    skipped: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.records)

    @cached_property
    def entity_ids(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.entity_names)}

    @cached_property
    def by_id(self) -> dict[str, list[int]]:
        found: dict[str, list[int]] = {}
        for i, record in enumerate(self.records):
            found.setdefault(record.id, []).append(i)
        return found

    @cached_property
    def id_ranks(self) -> np.ndarray:
        """Each row's place when the rows are sorted by id (`id_order`): how matches of
        one score are listed."""
        order = sorted(range(len(self.records)), key=lambda row: id_order(self.records[row].id))
        ranks = np.empty(len(order), dtype=np.int64)
        ranks[order] = np.arange(len(order))
        return ranks

    @cached_property
    def by_path(self) -> dict[str, int]:
        return {record.path: i for i, record in enumerate(self.records)}

    @cached_property
    def by_url(self) -> dict[str, list[int]]:
        found: dict[str, list[int]] = {}
        for i, record in enumerate(self.records):
            for url in record.urls:
                found.setdefault(url, []).append(i)
        return found

    @cached_property
    def duplicates_of(self) -> dict[str, list[int]]:
        """Incident id → rows of the incidents withdrawn as its duplicates."""
        found: dict[str, list[int]] = {}
        for i, record in enumerate(self.records):
            if record.duplicate_of:
                found.setdefault(record.duplicate_of, []).append(i)
        return found

    def copies_of(self, incident_id: str) -> list[int]:
        """Rows of the incidents withdrawn as duplicates of `incident_id`, directly or along
        a chain (a copy of a copy): each is its event too."""
        found: list[int] = []
        todo, seen = [incident_id], {incident_id}
        while todo:
            for row in self.duplicates_of.get(todo.pop(), []):
                found.append(row)
                if (copy := self.records[row].id) not in seen:
                    seen.add(copy)
                    todo.append(copy)
        return found

    @cached_property
    def copies(self) -> tuple[np.ndarray, np.ndarray]:
        """Rows of the incidents withdrawn as duplicates, and for each the row of the incident
        it repeats (a chain of duplicates followed to its end): one event, one judgement."""
        pairs = [
            (row, original)
            for row in range(len(self.records))
            if (original := self._original(row)) is not None
        ]
        return (
            np.array([copy for copy, _ in pairs], dtype=np.int64),
            np.array([original for _, original in pairs], dtype=np.int64),
        )

    def _original(self, row: int) -> int | None:
        """The row `row` is a copy of; None when it is none, or its chain is broken or loops."""
        seen = {row}
        while target := self.records[row].duplicate_of:
            found = self.by_id.get(target)
            if not found or found[0] in seen:
                return None
            row = found[0]
            seen.add(row)
        return row if len(seen) > 1 else None

    @cached_property
    def withdrawn(self) -> np.ndarray:
        return np.array([r.status == "withdrawn" for r in self.records], dtype=bool)

    @cached_property
    def settled_with(self) -> dict[str, list[int]]:
        """Incident id → rows of the incidents that name it as related, duplicate or not."""
        found: dict[str, list[int]] = {}
        for i, record in enumerate(self.records):
            for other in record.settled:
                found.setdefault(other, []).append(i)
        return found

    @cached_property
    def by_organisation(self) -> dict[str, list[int]]:
        found: dict[str, list[int]] = {}
        for i, record in enumerate(self.records):
            for key in record.organisation_keys():
                found.setdefault(key, []).append(i)
        return found

    def vector(self, text: str) -> Vector:
        cols, counts = np.unique(buckets(features(text)), return_counts=True)
        return self._weigh(cols, counts)

    def _weigh(self, cols: np.ndarray, counts: np.ndarray) -> Vector:
        weights = (1.0 + np.log(counts)) * self.idf[cols]
        norm = float(np.sqrt(np.dot(weights, weights)))
        return Vector(cols, weights / norm if norm else weights)

    def cosine(self, vector: Vector) -> np.ndarray:
        """Cosine similarity of `vector` to every incident (against each one's kept features).

        A query reads its features heaviest first, up to GATHER_BUDGET postings in all: the
        light features of a query are the common ones, with the longest postings and the
        least effect on a cosine. Below ~10k incidents the budget is never reached and the
        cosine is exact; at 100k all features of a query would gather ~5 M postings (~50 ms).
        """
        order = np.argsort(-vector.weights, kind="stable")
        cols, weights = vector.cols[order], vector.weights[order]
        read = np.cumsum(self.text.indptr[cols + 1] - self.text.indptr[cols])
        taken = max(1, int(np.searchsorted(read, GATHER_BUDGET, side="right")))
        return self.text.gather(cols[:taken], weights[:taken], len(self.records))

    def entity_columns(self, names: Iterable[str]) -> np.ndarray:
        ids = self.entity_ids
        return np.array(sorted(ids[n] for n in names if n in ids), dtype=np.int64)

    def shared_rarity(self, cols: np.ndarray) -> np.ndarray:
        """Per incident, the summed rarity of the given entities it mentions."""
        return self.entity_postings.gather(cols, self.entity_rarity[cols], len(self.records))

    def rows_mentioning(self, name: str) -> np.ndarray:
        """The incidents that mention the entity `name`, by row."""
        col = self.entity_ids.get(name)
        return self.entity_postings.column(col) if col is not None else np.zeros(0, np.int32)

    def rarity_of(self, name: str) -> float:
        col = self.entity_ids.get(name)
        return float(self.entity_rarity[col]) if col is not None else 0.0

    def mentioning(self, name: str) -> int:
        """How many incidents mention the entity `name`."""
        return len(self.rows_mentioning(name))

    def holding(self, word: str) -> float:
        """About how many incidents' text holds `word`, in any case (and inflection the
        stemmer folds), as its idf says: log((n + 1) / (df + 1)) + 1."""
        found = buckets(features(word))
        if len(found) != 1:  # a stop word, or more than one word
            return 0.0
        return (len(self.records) + 1) / math.exp(float(self.idf[found[0]]) - 1.0) - 1.0

    def holding_words(self, text: str) -> np.ndarray | None:
        """Per incident, whether its text holds every word of `text` (`searched_words`):
        of Latin, Greek or Cyrillic letters (no stop word; in any case and inflection the
        stemmer folds), which the index keeps all of, marked apart from the n-grams that
        share their columns (`Postings.marks`), and Korean, with any particles after it
        (`WordSets`); None where `text` has no such word."""
        found = features(text)
        cols = np.unique(buckets(found[(found & WORD_BIT) != 0]))
        korean = korean_forms(text)
        if not len(cols) and not korean:
            return None
        held = np.zeros(len(self.records), dtype=np.int64)
        for col in cols.tolist():
            held[self.text.marked_in(col)] += 1
        for keys in korean.values():
            holding = np.zeros(len(self.records), dtype=bool)
            for key in keys:  # (a word held by any of its forms: `korean_forms`)
                holding[self.korean.rows_holding(key)] = True
            held += holding
        return np.asarray(held == len(cols) + len(korean))

    def entities_of(self, row: int) -> set[str]:
        return {self.entity_names[c] for c in self.doc_entities.column(row)}


Progress = Callable[[int, int], None]


# Incident files kept outside a library, indexed as if in its incidents/, each under the
# name it would have there: what the base branch of a pull request added since the
# branch started, which `curator review` judges the branch's incidents against.
Added = Mapping[str, Path]
NONE_ADDED: Added = MappingProxyType({})


def build(
    library: Library,
    workers: int | None = None,
    progress: Progress | None = None,
    added: Added = NONE_ADDED,
) -> Index:
    """`progress`, if given, is called with (files read, files in all) as the build goes."""
    return build_from(library_items(library, added), workers, progress)


def library_items(library: Library, added: Added = NONE_ADDED) -> list[tuple[Path, str]]:
    """Each incident file to read, with its name as the index shows it, in name order:
    the regular `.yaml` files lint reads, no other (a link is never followed, an
    `IL-0001.yml` never read: IL107, and no incident is a duplicate of one); with those
    of `added` among them, as if they were in the library's folder."""
    folder = library.incidents_dir
    own = [(folder / name, f"{INCIDENTS}/{name}") for name in library_names(library)]
    return sorted([*own, *added_items(added)], key=_display) if added else own


def library_names(library: Library) -> list[str]:
    """The names of the library's files `library_items` lists, without a `Path` made of
    each (at 100,000 incidents, making them took 0.5 s of a warm `curator review`)."""
    folder = f"{library.incidents_dir}{os.sep}"
    names = library.incident_names()
    return [name for name in names if read_as_incident(name) and _is_regular(folder + name)]


def added_items(added: Added) -> list[tuple[Path, str]]:
    """The files of `added` that the index reads, as `library_items` lists a library's
    own (a hidden one, a `.yml`, a link: none), in name order."""
    return [
        (path, f"{INCIDENTS}/{name}")
        for name, path in sorted(added.items())
        if meant_as_incident(name) and read_as_incident(name) and _is_regular(path)
    ]


def _display(item: tuple[Path, str]) -> str:
    return item[1]


def _is_regular(path: str | Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def build_from(
    items: Sequence[tuple[Path, str]],
    workers: int | None = None,
    progress: Progress | None = None,
) -> Index:
    shares = [share for _digest, share in extract(items, workers, progress)]
    return assemble([display for _path, display in items], shares, workers)


def extract(
    items: Sequence[tuple[Path, str]],
    workers: int | None = None,
    progress: Progress | None = None,
) -> list[tuple[bytes, Share | None]]:
    """`extract_file` of each item, in order; on worker processes for many files."""
    count = workers if workers is not None else (os.cpu_count() or 1)
    batches = [list(items[i : i + _CHUNK]) for i in range(0, len(items), _CHUNK)]
    with Workers(count if len(items) >= _PARALLEL_FROM else 1) as pool:
        extracted = pool.in_order(extract_chunk, batches, chunk_size=1)
        return _gather(extracted, batches, progress or _silent)


def assemble(
    displays: Sequence[str], shares: list[Share | None], workers: int | None = None
) -> Index:
    """The index of the files named `displays`, given each one's share (None: a file not
    read).
    Empties `shares`, each share let go once it is in a chunk (at 100,000 files they hold
    200 MB of features)."""
    threads = workers if workers is not None else (os.cpu_count() or 1)
    skipped = [d for d, share in zip(displays, shares, strict=True) if share is None]
    found = [share for share in reversed(shares) if share is not None]
    shares.clear()
    chunks = []
    while found:
        chunks.append(Chunk.of([found.pop() for _ in range(min(_CHUNK, len(found)))]))
    records = [r for chunk in chunks for r in chunk.records]
    # The shares' bytes, now freed, left holes in the heap that the arrays below, mapped
    # apart, never fill: at 100,000 files 150 MB of the build's peak (1,243 → 1,091 MB).
    release_freed_memory()
    korean = _word_sets(chunks)
    idf, text = _text_postings(chunks, len(records), threads)
    names, rarity, by_entity, by_doc = _entity_postings([e for c in chunks for e in c.entities])
    return Index(records, idf, text, names, rarity, by_entity, by_doc, korean, skipped)


def _word_sets(chunks: list[Chunk]) -> WordSets:
    """The keys of each record's Korean words, the chunks' copies let go once joined."""
    lengths = _concatenate([chunk.korean_lengths for chunk in chunks], np.int64)
    indptr = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=indptr[1:])
    keys = _concatenate([chunk.korean for chunk in chunks], np.uint32)
    for chunk in chunks:
        chunk.korean = np.zeros(0, dtype="<u4")
    return WordSets(indptr, keys)


def _silent(done: int, total: int) -> None:
    pass


def _gather(
    extracted: Iterable[list[tuple[bytes, Share | None]]],
    batches: list[list[tuple[Path, str]]],
    progress: Progress,
) -> list[tuple[bytes, Share | None]]:
    total = sum(map(len, batches))
    found: list[tuple[bytes, Share | None]] = []
    for batch in extracted:
        found += batch
        progress(len(found), total)
    return found


def _text_postings(chunks: list[Chunk], n: int, threads: int) -> tuple[np.ndarray, Postings]:
    """TF-IDF weights, each document's heaviest KEEP_PER_DOCUMENT, as postings. Chunk by
    chunk, so that only the kept entries of the whole library are ever in memory at once;
    on `threads` threads, since numpy lets go of the GIL for most of a chunk's work (at
    100,000 incidents, with the entity postings: 3.5 s on one thread, 2.8 s on two)."""
    df = np.zeros(N_BUCKETS, dtype=np.int64)
    for chunk in chunks:  # (not `bincount`, which makes and adds all N_BUCKETS each time)
        np.add.at(df, chunk.cols, 1)
    idf = (np.log((n + 1) / (df + 1)) + 1.0).astype(np.float32)
    del df
    kept_rows, kept_cols, kept_weights, kept_words = [], [], [], []
    first_row = 0
    with ThreadPoolExecutor(max(threads, 1)) as pool:
        for chunk, (rows, cols, weights, words) in zip(
            chunks, pool.map(partial(_kept_entries, idf=idf), chunks), strict=True
        ):
            kept_rows.append(rows + first_row)
            kept_cols.append(cols)
            kept_weights.append(weights)
            kept_words.append(words)
            first_row += len(chunk.lengths)
    rows, cols, weights, words = (
        _concatenate(kept_rows, np.int32),
        _concatenate(kept_cols, np.int32),
        _concatenate(kept_weights, np.float32),
        _concatenate(kept_words, np.bool_),
    )
    del kept_rows, kept_cols, kept_weights, kept_words  # the parts, now copied
    return idf, Postings.from_entries(rows, cols, weights, N_BUCKETS, words)


def _kept_entries(
    chunk: Chunk, idf: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rows (within the chunk), columns, weights and word marks of a chunk's kept
    entries: each
    document's heaviest, and every word of it (`Chunk.words`), light or not, so that a
    search for a word finds each document holding it. A word is one feature, where a
    Korean word is several, and they are few: 4% of the bundled library's features, 2%
    more entries in the index of a synthetic library."""
    lengths = chunk.lengths
    cols = chunk.cols
    words = chunk.words
    weights = (1.0 + np.log(chunk.counts.astype(np.float32))) * idf[cols]
    chunk.packed = np.zeros(0, dtype="<u4")  # done with them; free the memory now
    weights /= np.repeat(_row_norms(weights, lengths).astype(np.float32), lengths)
    kept = np.flatnonzero(_heaviest_per_row(weights, lengths) | words)
    rows = np.repeat(np.arange(len(lengths), dtype=np.int32), lengths)
    return rows.take(kept), cols.take(kept), weights.take(kept), words.take(kept)


def _row_norms(weights: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Each row's L2 norm, at least 1e-12 (rows are contiguous runs of `lengths`)."""
    squares = np.zeros(len(lengths))
    filled = lengths > 0  # (`reduceat` would give an empty row one value, not none)
    starts = (np.cumsum(lengths) - lengths)[filled]
    if len(starts):
        squares[filled] = np.add.reduceat(np.square(weights, dtype=np.float64), starts)
    return np.maximum(np.sqrt(squares), 1e-12)


def _concatenate(parts: list[np.ndarray], dtype: type) -> np.ndarray:
    return np.concatenate(parts).astype(dtype, copy=False) if parts else np.zeros(0, dtype)


def _heaviest_per_row(weights: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Mask of the KEEP_PER_DOCUMENT heaviest entries of each row (rows are contiguous,
    weights non-negative float32); of equal weights, the first."""
    rows = np.repeat(np.arange(len(lengths), dtype=np.uint64), lengths)
    # A non-negative float's bits order as its value does: their complement, heaviest first.
    lightness = ~np.ascontiguousarray(weights, dtype=np.float32).view(np.uint32)
    order = stable_order((rows << np.uint64(32)) | lightness, len(lengths) << 32)
    starts = np.repeat(np.cumsum(lengths) - lengths, lengths)
    rank = np.arange(len(weights)) - starts
    keep = np.zeros(len(weights), dtype=bool)
    keep[order[rank < KEEP_PER_DOCUMENT]] = True
    return keep


def _entity_postings(
    per_record: list[str],
) -> tuple[list[str], np.ndarray, Postings, Postings]:
    ids: dict[str, int] = {}
    rows: list[int] = []
    cols: list[int] = []
    for row, joined in enumerate(per_record):
        for name in joined.split("\n") if joined else ():
            cols.append(ids.setdefault(name, len(ids)))
            rows.append(row)
    names = list(ids)
    row_array = np.array(rows, dtype=np.int32)
    col_array = np.array(cols, dtype=np.int32)
    df = np.bincount(col_array, minlength=len(names))
    total = len(per_record) + 1
    # Rarity in (0, 1]: 1 for an entity one incident has, near 0 for one every incident has.
    rarity = (np.log(total / np.maximum(df, 1)) / math.log(max(total, 2))).astype(np.float32)
    ones = np.ones(len(rows), dtype=np.float32)
    by_entity = Postings.from_entries(row_array, col_array, ones, len(names))
    by_doc = Postings.from_entries(col_array, row_array, ones, len(per_record))
    return names, rarity, by_entity, by_doc
