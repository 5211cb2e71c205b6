"""A small on-disk store for results worth keeping between runs: `.curator-cache/`.

A store maps text keys to JSON values (`Store`; a value may come already encoded as JSON,
`Encoded`), or to bytes of one line each (`LineStore`). What a value depends on is the
caller's business:
it names everything in `context` (tool source, versions, taxonomy …) and checks the rest
(the content hash of the file a value describes) on every read. The store guarantees:

- **Never wrong.** Values live in shard files whose first line names their format and holds
  the SHA-256 of the rest; a shard that fails the check, is of another format, does not
  parse, or comes from another context is ignored as a whole. A cache folder that was
  copied or committed to git is not trusted either: the context includes the identity
  (device, inode) of the folder itself, which a checkout or a copy does not reproduce, so
  forged entries are never even looked at.
- **Safe to delete at any time.** Every read or write failure is a miss, never an error.
- **Never through a link.** A `.curator-cache` (or a store's folder in it) that is a
  symbolic link is not used: caching is off for the run, as with `--no-cache`. A pull
  request can commit one (`.curator-cache -> ../../elsewhere`), and the review workflow
  runs lint and the judge on its checkout: followed, the cache's files would be written
  wherever it points.
- **Safe under concurrent runs.** A shard is written to a temporary file in the same
  folder and moved into place with `os.replace`: readers see the old or the new shard,
  never a torn one. Of two runs writing the same shard the later wins; entries the other
  wrote are lost, which costs a miss later and nothing else.

Why shard files rather than one sqlite3 database: `benchmarks/bench_cache_store.py` times
both on 100,000 entries of lint results. Reading everything took 0.09 s from 256 JSON shards
and 0.08 s from sqlite3 (WAL); writing everything 0.41 s against 0.76 s; changing ten
entries 0.12 s against 0.08 s. Speed does not decide; shards need no locking, leave no
journal files to go stale when the folder is deleted mid-run, and are checked with a plain
hash.

Why a `LineStore` beside: `curator export` keeps 100,000 released texts (375 MB of JSON on
one line, bytes from pydantic's serialiser) between runs. As JSON strings in a `Store`, each was
decoded, escaped (every quote) and encoded on the way in, and unescaped and encoded again on
the way out: ≈3.2 s of the main process's CPU to write them all, ≈2.4 s to read them back.
As lines of their own bytes, ≈0.8 s each (medians of runs on the same loaded machine).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import shutil
import stat
import zlib
from collections.abc import Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any, ClassVar, NamedTuple, Self

from curator.regular import read_regular
from curator.write.atomic import made_beside

FOLDER = ".curator-cache"
SHARDS = 256  # a run that changes a few files rewrites a few small shards
_DIGITS = 20  # of the context's hash, in a store's folder name
# A file name that is not UTF-8 reaches Python as text with lone surrogates (PEP 383); kept
# as such, keys and values go back and forth unchanged.
UNDECODABLE = "surrogatepass"
KEEP_CONTEXTS = 3  # other contexts kept (a branch with other code); older ones are removed
_FORMAT = b"curator-cache-1"  # of a `Store`'s shards, and of blobs
# Of a `LineStore`'s shards: another name, so that neither store takes the other's shards
# (nor the shards of an earlier `LineStore` format, once this one is bumped) for its own.
_LINES_FORMAT = b"curator-cache-lines-1"
_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This folder is a cache written by curator (the Incident Library's tool).\n"
    "# It can be deleted at any time; see https://bford.info/cachedir/\n"
)
_GITIGNORE = b"# Written by curator: this folder is a cache, never to be committed.\n*\n"


class Encoded:
    """A value for a `Store` given as the shard's text of its entry, `"key":value` (the
    value compact JSON, not ASCII only: as `json.dumps` writes it in `Store._encode`),
    worked out where the value was made: lint's results are encoded in the workers, so that
    the main process neither encodes 100,000 results nor builds their entries, and a save
    joins texts. Put under the key it was made for; read back as the value the text holds,
    as if from the shard (`Store.get`)."""

    __slots__ = ("entry", "start")

    def __init__(self, entry: str, start: int) -> None:
        self.entry = entry
        self.start = start  # where the value starts in `entry`

    @classmethod
    def of(cls, key: str, text: str) -> Encoded:
        """The entry of `key` whose value is the JSON `text`."""
        name = f"{encode_basestring(key)}:"
        return cls(name + text, len(name))

    @property
    def text(self) -> str:
        """The value's JSON."""
        return self.entry[self.start :]


class Store:
    """One kind of value (e.g. "lint") in one context, as shard files in one folder."""

    marker: ClassVar[bytes] = _FORMAT  # the first word of each shard file: its format
    suffix: ClassVar[str] = ".json"  # of the shard files' names

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder  # None: caching is off (the folder could not be made)
        self._shards: dict[int, dict[str, Any]] = {}
        self._dirty: set[int] = set()
        self._all: dict[str, Any] | None = None  # every entry, once `read_all` ran

    @classmethod
    def open(
        cls, root: Path, kind: str, context: Iterable[str], others_kept: int = KEEP_CONTEXTS
    ) -> Self:
        """The store of `kind` for `context` under `root/.curator-cache/`, where the
        `others_kept` most recently used folders of other contexts of `kind` stay."""
        base = root / FOLDER
        try:
            identity = _own_folder(base)
            tag = base / "CACHEDIR.TAG"
            if not tag.exists():
                _write_atomic(tag, _TAG.encode())
            # git leaves the folder out even where the library's .gitignore does not name
            # it: as an untracked folder it made `assign-ids --push` refuse the working tree.
            ignore = base / ".gitignore"
            if not ignore.exists():
                _write_atomic(ignore, _GITIGNORE)
        except OSError:
            return cls(None)
        digest = hashlib.sha256(f"{identity.st_dev}:{identity.st_ino}".encode())
        for part in context:
            digest.update(b"\0" + part.encode("utf-8", "surrogateescape"))
        folder = base / f"{kind}-{digest.hexdigest()[:_DIGITS]}"
        try:
            _own_folder(folder)
            os.utime(folder)  # marks it as recently used, for `_forget_old`
        except OSError:
            return cls(None)
        _forget_old(base, kind, folder, others_kept)
        return cls(folder)

    @property
    def enabled(self) -> bool:
        return self.folder is not None

    def read_all(self) -> None:
        """Read every shard now, for a run that will ask about (nearly) every entry: then
        each `get` is one dictionary lookup."""
        if self._all is not None:
            return
        everything: dict[str, Any] = {}
        for index in range(SHARDS):
            everything.update(self._shard(index))
        self._all = everything

    def get(self, key: str) -> Any | None:
        shard = self._all if self._all is not None else self._shard(_shard_of(key))
        value = shard.get(key)
        # (Asked for every file of a warm lint: `_read_back` inlined.)
        return json.loads(value.text) if type(value) is Encoded else value

    def take(self, keys: Iterable[str]) -> Iterator[tuple[str, Any]]:
        """(key, value) of each of `keys` the store holds, for values this run reads once:
        a shard at a time, each let go before the next is read, so that the store's other
        values are never all in memory beside what the caller makes of these."""
        wanted = _by_shard(keys)
        for index in sorted(wanted):
            shard = self._shards.get(index) or self._read(index)
            for key in wanted[index]:
                if key in shard:
                    yield key, _read_back(shard[key])

    def put(self, key: str, value: Any) -> None:
        index = _shard_of(key)
        self._shard(index)[key] = value
        self._dirty.add(index)
        if self._all is not None:
            self._all[key] = value

    def save(self, keep: AbstractSet[str] | None = None) -> None:
        """Write the shards that changed, without their entries whose keys are not in
        `keep` (files deleted or renamed since; None: keep them all)."""
        write_shards(self.encoded(keep))

    def encoded(self, keep: AbstractSet[str] | None = None) -> Shards:
        """What `save` would write, encoded, for another process to write (`write_shards`)
        while this one goes on: this store then takes them as saved. (Bytes cross to a
        worker as a copy; the 200,000 entries of lint's two stores at 100,000 files,
        pickled one by one, cost the process sending them 0.2 s.)"""
        dirty, self._dirty = sorted(self._dirty), set()
        if self.folder is None:
            return Shards(self.marker, [])
        bodies = [(self._path(index), self._body(self._shards[index], keep)) for index in dirty]
        return Shards(self.marker, bodies)

    def update(self, entries: Mapping[str, Any], keep: AbstractSet[str] | None) -> None:
        """Write `entries` at once, for many values that this run will not read back: each
        shard they fall in is read, merged, written without the entries not in `keep`, and
        let go before the next, so that at most one shard's old values are in memory
        rather than the whole store's."""
        keys = _by_shard(entries)
        for index in sorted(keys):
            shard = self._shards.pop(index, None) or self._read(index)
            shard.update((key, entries[key]) for key in keys[index])
            self._write(index, shard, keep)
            self._dirty.discard(index)
            if self._all is not None:
                self._all.update((key, entries[key]) for key in keys[index])

    def _write(self, index: int, shard: dict[str, Any], keep: AbstractSet[str] | None) -> None:
        if self.folder is not None:
            write_shards(Shards(self.marker, [(self._path(index), self._body(shard, keep))]))

    def _body(self, shard: dict[str, Any], keep: AbstractSet[str] | None) -> bytes:
        """The shard's body, without its entries whose keys are not in `keep`."""
        # Told apart as sets, in C: a call per key cost 0.2 s of the 0.8 s it took to save
        # lint's 200,000 entries at 100,000 files, where usually none is left out. (A set
        # made of the shard, whose difference looks up its few keys in `keep`: that of
        # `shard.keys()` would go through all of `keep` for each shard.)
        gone = set(shard).difference(keep) if keep is not None else ()
        return self._encode({k: v for k, v in shard.items() if k not in gone} if gone else shard)

    def _path(self, index: int) -> Path:
        assert self.folder is not None
        return self.folder / f"{index:02x}{self.suffix}"

    @staticmethod
    def _encode(entries: dict[str, Any]) -> bytes:
        """A shard's body: its entries as one JSON object, `Encoded` ones as they are."""
        parts = [value.entry for value in entries.values() if type(value) is Encoded]
        if len(parts) == len(entries):  # (after a cold lint, all are: no dictionary to make)
            return ("{" + ",".join(parts) + "}").encode("utf-8", UNDECODABLE)
        plain = {k: v for k, v in entries.items() if type(v) is not Encoded} if parts else entries
        text = json.dumps(plain, ensure_ascii=False, separators=(",", ":"))
        if parts:
            text = "{" + ",".join(parts) + ("," + text[1:] if plain else "}")
        return text.encode("utf-8", UNDECODABLE)

    @staticmethod
    def _decode(raw: bytes, start: int) -> dict[str, Any] | None:
        """The entries of a shard whose body starts at `start` of `raw`; None (or a
        ValueError) for a body `_encode` does not write."""
        entries = json.loads(str(memoryview(raw)[start:], "utf-8", UNDECODABLE))
        return entries if isinstance(entries, dict) else None

    def write_blob(self, name: str, body: bytes) -> str:
        """Keep `body` as one file beside the shards, checked the same way; its SHA-256,
        by which `read_blob` takes it back. (For a value read whole or not at all.)"""
        digest, header = _frame(_FORMAT, body)
        if self.folder is not None:
            with contextlib.suppress(OSError):  # as in `save`: a miss later, nothing else
                _write_atomic(self.folder / name, header, body)
        return digest

    def read_blob(self, name: str, digest: str) -> bytes | None:
        """The body kept under `name`, if it is still the one whose SHA-256 is `digest`."""
        if self.folder is None:
            return None
        try:
            raw = read_regular(self.folder / name)  # a FIFO put there must not block
        except OSError:
            return None
        framed = _unframe(raw, _FORMAT)
        if framed is None or framed[0] != digest:  # (`digest` as kept: of any type)
            return None  # another run's, torn, or corrupted
        return raw[framed[1] :]

    def _shard(self, index: int) -> dict[str, Any]:
        shard = self._shards.get(index)
        if shard is None:
            shard = self._shards[index] = self._read(index)
        return shard

    def _read(self, index: int) -> dict[str, Any]:
        if self.folder is None:
            return {}
        try:
            raw = read_regular(self._path(index))
        except OSError:
            return {}
        framed = _unframe(raw, self.marker)
        if framed is None:
            return {}  # torn, corrupted, foreign or of another format: not one entry trusted
        try:
            entries = self._decode(raw, framed[1])
        except ValueError:
            return {}
        return {} if entries is None else entries


class LineStore(Store):
    """A `Store` whose values are bytes already encoded, one line each (compact JSON, say:
    it never holds a raw line break), kept as they are: a shard's body is a line
    `<key> <value>\\n` for each entry. Nothing is decoded, escaped or encoded again on the
    way in or out, which for 100,000 released texts of `curator export` is most of the
    cost of a `Store` (see the top of this module)."""

    marker = _LINES_FORMAT
    suffix = ".lines"

    @staticmethod
    def _encode(entries: dict[str, Any]) -> bytes:
        parts: list[bytes] = []
        for key, value in entries.items():
            encoded = key.encode("utf-8", UNDECODABLE)
            if _one_line(encoded, value):
                parts += (encoded, b" ", value, b"\n")
        return b"".join(parts)  # (one copy of each value, not one per piece joined)

    @staticmethod
    def _decode(raw: bytes, start: int) -> dict[str, Any] | None:
        entries: dict[str, Any] = {}
        find, end = raw.find, len(raw)
        while start < end:
            space, newline = find(b" ", start), find(b"\n", start)
            if not 0 <= space < newline:
                return None  # not a line `_encode` writes: the shard is foreign, as a whole
            entries[raw[start:space].decode("utf-8", UNDECODABLE)] = raw[space + 1 : newline]
            start = newline + 1
        return entries


def _read_back(value: Any) -> Any:
    """A value as the store reads it: an `Encoded` one decoded (as from its shard)."""
    return json.loads(value.text) if type(value) is Encoded else value


def _one_line(key: bytes, value: Any) -> bool:
    """Whether an entry can be a line of a `LineStore` shard and be read back as it was
    given. Any other is left out, as a write that failed would be (a miss later): a line
    break in a value would make its end the start of an entry nobody wrote."""
    return type(value) is bytes and b"\n" not in value and not (b" " in key or b"\n" in key)


def _header(fmt: bytes, digest: str) -> bytes:
    """The first line of a file of the store: its format and the SHA-256 of the rest."""
    return fmt + b" " + digest.encode() + b"\n"


def _frame(fmt: bytes, body: bytes) -> tuple[str, bytes]:
    """The SHA-256 of `body`, and the header to write before it in a file of format `fmt`.
    (Written apart, so that a shard of 1 MB is not copied once more to be framed.)"""
    digest = hashlib.sha256(body).hexdigest()
    return digest, _header(fmt, digest)


def _unframe(raw: bytes, fmt: bytes) -> tuple[str, int] | None:
    """The SHA-256 of the body of a file of format `fmt`, and where the body starts,
    behind its header; None for a file torn, corrupted or of another format."""
    start = raw.find(b"\n") + 1
    if start == 0:
        return None
    digest = hashlib.sha256(memoryview(raw)[start:]).hexdigest()  # (the body not copied)
    return (digest, start) if raw[:start] == _header(fmt, digest) else None


def _by_shard(keys: Iterable[str]) -> dict[int, list[str]]:
    shards: dict[int, list[str]] = {}
    for key in keys:
        shards.setdefault(_shard_of(key), []).append(key)
    return shards


def _shard_of(key: str) -> int:
    return zlib.crc32(key.encode("utf-8", "surrogateescape")) % SHARDS


class Shards(NamedTuple):
    """Shard files to write (`Store.encoded`): their format, and each one's path and body."""

    marker: bytes
    bodies: list[tuple[Path, bytes]]


def write_shards(shards: Shards) -> None:
    """Write each shard, framed (its format and the SHA-256 of its body), in its place."""
    for path, body in shards.bodies:
        _digest, header = _frame(shards.marker, body)
        with contextlib.suppress(OSError):  # deleted mid-run, read-only, disk full: a miss
            _write_atomic(path, header, body)


def _write_atomic(path: Path, *chunks: bytes) -> None:
    with made_beside(path) as (temporary, out):
        with out:
            for chunk in chunks:
                out.write(chunk)
        os.replace(temporary, path)


def _own_folder(path: Path) -> os.stat_result:
    """The stat of the folder at `path`, made if missing; an OSError if it is anything else,
    a symbolic link to a folder included. (Told by `lstat`, after `mkdir`: a link committed
    to the library is there before the run; a process that could swap one in during the run
    could write to the library itself.)"""
    with contextlib.suppress(FileExistsError):
        os.mkdir(path)
    found = os.lstat(path)
    if not stat.S_ISDIR(found.st_mode):
        raise NotADirectoryError(errno.ENOTDIR, "not a folder of its own", str(path))
    return found


def _forget_old(base: Path, kind: str, keep: Path, others_kept: int) -> None:
    """Remove the folders of `kind` other than `keep` beyond the `others_kept` most
    recently used."""
    try:
        others = sorted(_folders(base, kind, keep), key=_mtime, reverse=True)
    except OSError:
        return
    for folder in others[others_kept:]:
        shutil.rmtree(folder, ignore_errors=True)


def _folders(base: Path, kind: str, keep: Path) -> Iterator[Path]:
    name = re.compile(rf"{re.escape(kind)}-[0-9a-f]{{{_DIGITS}}}")
    for entry in base.iterdir():
        if name.fullmatch(entry.name) and entry != keep and entry.is_dir():
            yield entry


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
