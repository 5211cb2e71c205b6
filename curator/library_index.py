"""Which files hold which keys of the cross-file rules, so that a change to a few files of
a large library reruns those rules on the few files it concerns, not on all of them.

The cross-file rules are local to *keys*. Each place of a summary that a cross-file
finding can be at (an anchor) has a key (`anchored` lists both): the id
itself for the file's id and for each reference to an id, the normal form for a source
URL. A finding at an anchor depends only on the summaries of the files that hold the
anchor's key among theirs: whether an id is used twice, or exists at all, is told by the
files holding that id; whether a URL is cited twice, by the files citing it. An id's key
is its number as `curator assign-ids` writes it (`model.canonical_id`), since IL204 tells
one number spelt two ways (`IL-0025`, `IL-00025`) as one id. A file whose
id is not the one its name spells (none, since it could not be read as an incident; or
another) also holds the id its name spells (`held_keys`): a reference to that id, missing,
says what the file named so holds.

So when some files change (their summaries' values, or their display path), or come or
go, the keys of their old and new summaries are the only keys whose findings can change.
The findings at those keys are worked out again from the files holding them; every other
finding is kept. The index records, for the library as the kept findings were worked out,
each file's line (its key, display path and hash of its summary's values: what tells a
change) and the hashes of its keys. Hashes, not keys, keep it small; two keys sharing a
hash only add a file to those looked at again, never take one away.
"""

from __future__ import annotations

import base64
import bisect
import itertools
import json
import zlib
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from curator.load import Position
from curator.model import canonical_id
from curator.rules.base import FileSummary


def anchored(summary: FileSummary) -> list[tuple[Position, str]]:
    """The places of a summary that a cross-file finding can be at (its anchors), each
    with its key, in an order that only its values decide: the same values, the same
    list (places aside)."""
    found = [(summary.id.position, f"id:{canonical_id(summary.id.value)}")] if summary.id else []
    found += [(ref.position, f"id:{canonical_id(ref.value)}") for _, ref in summary.references]
    found += [(url.position, f"url:{url.normal}") for url in summary.source_urls]
    return found


def anchor_keys(summary: FileSummary) -> list[str]:
    return [key for _, key in anchored(summary)]


def held_keys(summary: FileSummary) -> list[str]:
    """The keys a file holds: its anchors'; and, where its id is not the one its name
    spells (it has none: it could not be read as an incident; or another), that id too,
    which a reference to it names when it reports the id missing (IL401)."""
    keys = anchor_keys(summary)
    if summary.id is None or summary.id.value != summary.stem:
        keys.append(f"id:{canonical_id(summary.stem)}")
    return keys


def key_hash(key: str) -> int:
    return zlib.crc32(key.encode("utf-8", "surrogateescape"))


def key_hashes(summary: FileSummary) -> list[int]:
    return [key_hash(key) for key in held_keys(summary)]


@dataclass
class LibraryIndex:
    lines: list[str]  # one per file (`lint_cache.ResultCache.lines`)
    counts: array[int]  # how many keys each file holds, in the order of `lines`
    keys: array[int]  # the hashes of those keys, one file after another

    @classmethod
    def build(cls, files: Iterable[tuple[str, Sequence[int]]]) -> LibraryIndex:
        """The index of files given as (line, hashes of its keys)."""
        index = cls([], array("I"), array("I"))
        for line, hashes in files:
            index.lines.append(line)
            index.counts.append(len(hashes))
            index.keys.extend(hashes)
        return index

    def _offsets(self) -> list[int]:
        return list(itertools.accumulate(self.counts, initial=0))

    def keys_of(self, files: Iterable[int]) -> set[int]:
        """The key hashes held by the files at these positions."""
        offsets = self._offsets()
        found: set[int] = set()
        for file in files:
            found.update(self.keys[offsets[file] : offsets[file + 1]])
        return found

    def holders(self, wanted: set[int]) -> set[int]:
        """The positions of the files holding any of the `wanted` key hashes."""
        offsets = self._offsets()
        at = itertools.compress(itertools.count(), map(wanted.__contains__, self.keys))
        return {bisect.bisect_right(offsets, place) - 1 for place in at}

    def changed(
        self, gone: Iterable[int], came: Iterable[tuple[str, Sequence[int]]]
    ) -> LibraryIndex:
        """This index without the files at positions `gone`, with the files `came`."""
        offsets = self._offsets()
        index = LibraryIndex([], array("I"), array("I"))
        start = 0
        for file in [*sorted(gone), len(self.lines)]:  # copied a stretch at a time
            index.lines += self.lines[start:file]
            index.counts += self.counts[start:file]
            index.keys += self.keys[offsets[start] : offsets[file]]
            start = file + 1
        for line, hashes in came:
            index.lines.append(line)
            index.counts.append(len(hashes))
            index.keys.extend(hashes)
        return index

    def encode(self) -> bytes:
        return json.dumps(
            {
                "lines": self.lines,
                "counts": base64.b64encode(self.counts.tobytes()).decode(),
                "keys": base64.b64encode(self.keys.tobytes()).decode(),
            },
            separators=(",", ":"),  # ASCII, with escapes: paths may hold any character
        ).encode()

    @classmethod
    def decode(cls, body: bytes) -> LibraryIndex | None:
        """The index `encode` wrote, or None for anything else."""
        try:
            data = json.loads(body)
            lines, counts, keys = data["lines"], array("I"), array("I")
            counts.frombytes(base64.b64decode(data["counts"], validate=True))
            keys.frombytes(base64.b64decode(data["keys"], validate=True))
        except (ValueError, TypeError, KeyError):
            return None
        if not (isinstance(lines, list) and all(isinstance(line, str) for line in lines)):
            return None
        if len(counts) != len(lines) or sum(counts) != len(keys):
            return None
        return cls(lines, counts, keys)
