"""The line store of `.curator-cache/` (`curator.cache.LineStore`), in which `curator export`
keeps each incident's released data: bytes kept as they are, one line each, with every
guarantee of the JSON store (never wrong, safe to delete, safe under concurrent runs)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest
from conftest import write_library
from hypothesis import given, settings
from hypothesis import strategies as st

from curator.cache import FOLDER, SHARDS, LineStore, Store, _shard_of, _write_atomic
from curator.export.collect import compact
from curator.export.released_cache import ReleasedCache, _Spool, context
from curator.library import Library
from curator.workers import Workers

CONTEXT = ["context"]
KOREAN = '{"id":"IL-0001","title":"학습 작업이 멈췄다","text":"첫 줄\\n둘째 \\"인용\\""}'.encode()


def _open(root: Path) -> LineStore:
    return LineStore.open(root, "export", CONTEXT)


def _shard_paths(root: Path) -> list[Path]:
    return sorted((root / FOLDER).glob("export-*/*.lines"))


def _same_shard(key: str, count: int) -> list[str]:
    """`count` keys (blob ids, as the export's) that fall in the shard of `key`."""
    keys, number = [key], 0
    while len(keys) < count:
        number += 1
        other = f"{number:040x}"
        if _shard_of(other) == _shard_of(key):
            keys.append(other)
    return keys


def test_values_come_back_byte_for_byte(tmp_path):
    name = os.fsdecode(b"IL-\xff.yaml")  # a key with a lone surrogate (PEP 383)
    values = {
        "a" * 40: KOREAN,
        "b" * 40: b"",
        "c" * 40: "\u2028\u2029\r\t\x00 값".encode(),  # no b"\n", so one line
        "d" * 40: b"\xff\xfe not UTF-8",
        name: b"[1, 2]",
        "": b"an empty key",
    }
    store = _open(tmp_path)
    for key, value in values.items():
        store.put(key, value)
    store.save()
    again = _open(tmp_path)
    assert {key: again.get(key) for key in values} == values
    assert dict(_open(tmp_path).take([*values, "e" * 40])) == values
    reread = _open(tmp_path)
    reread.read_all()
    assert reread._all == values
    for path in _shard_paths(tmp_path):  # framed as a JSON store's shards are
        header, _, body = path.read_bytes().partition(b"\n")
        assert header == b"curator-cache-lines-1 " + hashlib.sha256(body).hexdigest().encode()
        assert body.endswith(b"\n")


def test_an_update_merges_with_the_entries_kept(tmp_path):
    old, new = _same_shard("a" * 40, 3), {"f" * 40: "새 값".encode()}
    store = _open(tmp_path)
    for number, key in enumerate(old):
        store.put(key, f"old {number}".encode())
    store.save()
    _open(tmp_path).update({old[0]: b"new", **new}, keep={old[0], old[1], *new})
    again = _open(tmp_path)
    assert [again.get(key) for key in old] == [b"new", b"old 1", None]
    assert again.get("f" * 40) == "새 값".encode()


def test_a_value_with_a_line_break_is_not_kept_and_spoils_nothing(tmp_path):
    # Its second line would read as an entry nobody wrote: here, "f…f" with a value.
    forged = b'{"id":"IL-0001"}\n' + b"f" * 40 + b' {"id":"IL-0666"}'
    good, bad, spaced, text = _same_shard("a" * 40, 4)
    store = _open(tmp_path)
    store.put(good, KOREAN)
    store.put(bad, forged)
    store.put(f"{spaced} x", b"a key with a space")
    store.put(text, KOREAN.decode())  # text, not bytes
    store.save()
    store.update({"f" * 40 + "\n": b"a key with a line break"}, keep=None)
    again = _open(tmp_path)
    assert again.get(good) == KOREAN
    assert [again.get(key) for key in (bad, "f" * 40, f"{spaced} x", text)] == [None] * 4
    assert again.get("f" * 40 + "\n") is None
    assert again.folder is not None
    shard = (again.folder / f"{_shard_of(good):02x}.lines").read_bytes()
    assert shard.partition(b"\n")[2] == good.encode() + b" " + KOREAN + b"\n"  # and no more


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
)


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_compact_json_never_holds_a_line_break(data):
    # What the export keeps (`collect.compact`, pydantic's serialiser) is one line: JSON
    # escapes U+000A in a string, and no other character's UTF-8 holds the byte 0x0A.
    assert b"\n" not in compact(data)


def test_compact_json_of_every_character_is_one_line():
    every = "".join(map(chr, [*range(0xD800), *range(0xE000, 0x110000)]))
    assert b"\n" not in compact({every: [every, {"text": every}]})


def _flip(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= 0x01
    path.write_bytes(bytes(data))


def _reframe(path: Path, body: bytes, marker: bytes = b"curator-cache-lines-1") -> None:
    """`body` as the shard at `path`, with a header that checks out."""
    _write_atomic(path, marker + b" " + hashlib.sha256(body).hexdigest().encode() + b"\n", body)


@pytest.mark.parametrize(
    "tamper",
    [
        lambda path: _flip(path, -5),  # a bit of a value
        lambda path: _flip(path, len(b"curator-cache-lines-1 ") + 3),  # a bit of the hash
        lambda path: path.write_bytes(path.read_bytes()[:-10]),  # torn
        lambda path: path.write_bytes(path.read_bytes().partition(b"\n")[2]),  # no header
        lambda path: path.write_bytes(b""),
        lambda path: path.unlink(),  # deleted, as the whole folder may be at any time
        # Checksums that hold, on bodies the store does not write:
        lambda path: _reframe(path, path.read_bytes().partition(b"\n")[2][:-1]),  # no end
        lambda path: _reframe(path, path.read_bytes().partition(b"\n")[2] + b"spaceless\n"),
        lambda path: _reframe(path, path.read_bytes().partition(b"\n")[2] + b"\xff\xfe x\n"),
    ],
    ids=["value", "hash", "torn", "header", "empty", "gone", "end", "space", "key"],
)
def test_a_tampered_shard_is_a_miss_as_a_whole(tmp_path, tamper):
    keys = _same_shard("a" * 40, 3)
    store = _open(tmp_path)
    for key in [*keys, "f" * 40]:
        store.put(key, KOREAN)
    store.save()
    (path,) = [p for p in _shard_paths(tmp_path) if p.name == f"{_shard_of(keys[0]):02x}.lines"]
    tamper(path)
    again = _open(tmp_path)
    assert [again.get(key) for key in keys] == [None] * 3
    assert again.get("f" * 40) == KOREAN  # (in another shard)


def test_a_shard_of_another_format_is_a_miss(tmp_path):
    key = "a" * 40
    lines = _open(tmp_path)
    assert lines.folder is not None
    path = lines.folder / f"{_shard_of(key):02x}.lines"
    body = key.encode() + b" " + KOREAN + b"\n"
    for marker in (b"curator-cache-1", b"curator-cache-lines-0", b"curator-cache-lines-2"):
        _reframe(path, body, marker)  # as this store writes it, but for the marker
        assert _open(tmp_path).get(key) is None, marker
    _reframe(path, body)
    assert _open(tmp_path).get(key) == KOREAN  # (what the loop above refused, but for that)
    # The released data as the export kept it before: text, in a JSON store's shards.
    path.unlink()
    json_store = Store.open(tmp_path, "export", CONTEXT)
    json_store.put(key, KOREAN.decode())
    json_store.save()
    assert _open(tmp_path).get(key) is None
    lines.put(key, KOREAN)
    lines.save()
    assert Store.open(tmp_path, "export", CONTEXT).get(key) == KOREAN.decode()  # (its own)
    assert _open(tmp_path).get(key) == KOREAN
    assert json_store.folder is not None  # and neither store reads the other's shards
    (json_store.folder / f"{_shard_of(key):02x}.json").rename(path)
    assert _open(tmp_path).get(key) is None


WRITER = """
import sys
from pathlib import Path
from curator.cache import LineStore, SHARDS

root, name, rounds = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
keys = [f"{n:040x}" for n in range(4 * SHARDS)]
for number in range(rounds):
    value = f"{name} {number} 값".encode()
    store = LineStore.open(root, "export", ["context"])
    store.update(dict.fromkeys(keys, value), None)
"""


def test_concurrent_writers_leave_every_shard_whole(tmp_path):
    """Three runs write every shard over and over, while this one reads them: every read
    finds a shard whole, of one writer's round, or none at all (replaced as it was opened)."""
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), name, "15"])
        for name in NAMES
    ]
    seen: list[bytes] = []
    done = threading.Event()

    def read() -> None:  # (what it read is checked here, after: not on its thread)
        while not done.is_set():
            for path in _shard_paths(tmp_path):
                with contextlib.suppress(FileNotFoundError):
                    seen.append(path.read_bytes())
            time.sleep(0.001)

    reader = threading.Thread(target=read)
    reader.start()
    try:
        assert [writer.wait(120) for writer in writers] == [0, 0, 0]
    finally:
        done.set()
        reader.join()
    assert len(seen) > SHARDS
    assert [raw for raw in seen if len(_values(raw)) != 1] == []
    keys = [f"{n:040x}" for n in range(4 * SHARDS)]
    final = [path.read_bytes() for path in _shard_paths(tmp_path)]
    assert len(final) == len({_shard_of(key) for key in keys})
    assert all(_values(raw) <= {f"{name} 14 값".encode() for name in NAMES} for raw in final)
    kept = dict(_open(tmp_path).take(keys))
    assert sorted(kept) == keys


NAMES = ("first", "second", "third")


def _values(raw: bytes) -> set[bytes]:
    """The values of a shard, which must be whole."""
    start = raw.index(b"\n") + 1
    assert raw[:start] == b"curator-cache-lines-1 %s\n" % _sha256(raw[start:])
    entries = LineStore._decode(raw, start)
    assert entries is not None
    return set(entries.values())


def _sha256(body: bytes) -> bytes:
    return hashlib.sha256(body).hexdigest().encode()


def test_the_released_cache_keeps_the_export_s_bytes(tmp_path):
    library = Library.at(write_library(tmp_path / "lib", {}))
    data = {"id": "IL-0001", "title": "학습\n작업", "text": 'a "quoted"\r\nline\u2028'}
    texts = {"1" * 40: compact(data), "2" * 40: KOREAN, "3" * 40: b'{"two":\n"lines"}'}
    cache = ReleasedCache(library, enabled=True)
    for blob, text in texts.items():
        cache.keep(blob, text)
    cache.save_meanwhile(set(texts))
    cache.wait()
    found = ReleasedCache(library, enabled=True).lookup([*texts, "4" * 40])
    assert found == {"1" * 40: compact(data), "2" * 40: KOREAN}  # not the one of two lines
    kept = LineStore.open(library.root, "export", context())
    assert kept.get("1" * 40) == compact(data) and json.loads(kept.get("1" * 40)) == data


def test_an_error_writing_the_released_cache_on_its_thread_is_not_lost(tmp_path, monkeypatch):
    library = Library.at(write_library(tmp_path / "lib", {}))
    cache = ReleasedCache(library, enabled=True)

    def failing(*args: object) -> None:
        raise RuntimeError("a bug in the store")

    monkeypatch.setattr(LineStore, "update", failing)
    cache.keep("1" * 40, KOREAN)
    cache.save_meanwhile({"1" * 40})
    with pytest.raises(RuntimeError, match="a bug in the store"):
        cache.wait()


def test_what_the_released_cache_keeps_waits_on_disk_not_in_memory(tmp_path):
    # An export keeps every incident's released data from the moment lint renders it to
    # the cache's write (at 100,000 incidents, 335 MB the main process held beside the rest).
    import tracemalloc

    library = Library.at(write_library(tmp_path / "lib", {}))

    def text(n: int) -> bytes:
        return compact({"id": f"IL-{n:04d}", "text": "학습" * 4_000})

    cache = ReleasedCache(library, enabled=True)
    tracemalloc.start()
    try:
        for n in range(1000):
            cache.keep(f"{n:040x}", text(n))  # (the caller lets go of each at once)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    kept = 1000 * len(text(0))  # 24 MB, of which the spool's buffer holds at most 1 MB
    assert held < kept / 10, (held, kept)
    cache.save({f"{n:040x}" for n in range(1000)})
    found = ReleasedCache(library, enabled=True).lookup([f"{n:040x}" for n in range(1000)])
    assert found == {f"{n:040x}": text(n) for n in range(1000)}


def _texts(count: int) -> dict[str, bytes]:
    return {f"{n:040x}": compact({"id": f"IL-{n:04d}", "text": f"학습 {n}"}) for n in range(count)}


def _spools() -> set[str]:
    return {entry.name for entry in Path(tempfile.gettempdir()).glob("curator-released-*")}


def test_ctrl_c_as_the_spool_is_made_leaves_nothing_in_the_temporary_folder(tmp_path, monkeypatch):
    # A stop between mkstemp making the spool and `add` keeping it left an empty
    # `curator-released-k2x8` in the temporary folder for good, and its descriptor open.
    library = Library.at(write_library(tmp_path / "lib", {}))
    making = tempfile.mkstemp

    def ctrl_c_once_made(**where: Any) -> tuple[int, str]:
        made = making(**where)
        signal.raise_signal(signal.SIGINT)  # (as the terminal sends it)
        return made

    before, open_before = _spools(), sorted(os.listdir("/proc/self/fd"))
    monkeypatch.setattr(tempfile, "mkstemp", ctrl_c_once_made)
    with pytest.raises(KeyboardInterrupt), ReleasedCache(library, enabled=True) as cache:
        cache.keep("a" * 40, KOREAN)
    assert _spools() == before
    assert sorted(os.listdir("/proc/self/fd")) == open_before


def test_the_released_cache_is_written_by_a_worker_process_when_there_are_workers(tmp_path):
    library = Library.at(write_library(tmp_path / "lib", {}))
    texts = _texts(300)
    before = _spools()
    with Workers(2) as workers:
        cache = ReleasedCache(library, enabled=True)
        for blob, text in texts.items():
            cache.keep(blob, text)
        cache.save_meanwhile(set(texts), workers)
        assert cache._saving is not None and cache._sent is not None  # sent to a worker
        cache.wait()
    assert ReleasedCache(library, enabled=True).lookup(list(texts)) == texts
    assert _spools() == before  # the spool the worker read is deleted once it is done


# A process that keeps released data, then is killed (SIGKILL: no `finally`, no `close`),
# printing the spool's name first.
_KILLED = """
import os, signal, sys
from curator.export.released_cache import _Spool
spool = _Spool()
spool.add("a" * 40, b'{"id": "IL-0001"}')
spool.add("b" * 40, b'{"id": "IL-0002"}')
print(spool._name, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_an_export_killed_while_it_keeps_released_data_leaves_no_spool_behind():
    # A killed export used to leave its spool (up to 335 MB) in the temporary folder. On
    # Linux, nothing is left; elsewhere the spool keeps a name (deleted by `close`).
    before = _spools()
    done = subprocess.run([sys.executable, "-c", _KILLED], capture_output=True, text=True)
    assert done.returncode == -9, done.stderr
    left = _spools() - before
    if sys.platform == "linux":
        assert done.stdout.startswith("/proc/")  # (named through the process, not a path)
        assert left == set()
    else:
        assert left == {Path(done.stdout.strip()).name}
        Path(done.stdout.strip()).unlink()


def test_a_spool_is_read_back_through_the_name_it_sends(tmp_path):
    # What a worker process does with the spool it is sent: open it by that name, and read
    # each entry, while the process that made it holds it (deleted from the folder).
    import pickle

    texts = _texts(20)
    before = _spools()
    spool = _Spool()
    for blob, text in texts.items():
        spool.add(blob, text)
    script = "import pickle, sys; spool = pickle.loads(sys.stdin.buffer.read())\n"
    script += "sys.stdout.buffer.write(pickle.dumps(dict(spool.items())))"
    sent = pickle.dumps(spool)
    done = subprocess.run([sys.executable, "-c", script], input=sent, capture_output=True)
    assert done.returncode == 0, done.stderr
    assert pickle.loads(done.stdout) == texts
    if sys.platform == "linux":
        assert _spools() == before  # deleted already, read all the same
    spool.close()
    assert _spools() == before


def test_a_released_cache_write_whose_worker_fails_is_done_here(tmp_path):
    library = Library.at(write_library(tmp_path / "lib", {}))
    texts = _texts(50)

    class DyingWorkers(Workers):
        def submit(self, work, *args):  # as a pool whose worker was killed answers
            failed: Future[None] = Future()
            failed.set_exception(BrokenProcessPool("a worker died"))
            return failed

    before = _spools()
    cache = ReleasedCache(library, enabled=True)
    for blob, text in texts.items():
        cache.keep(blob, text)
    cache.save_meanwhile(set(texts), DyingWorkers(2))
    cache.wait()
    assert ReleasedCache(library, enabled=True).lookup(list(texts)) == texts
    assert _spools() == before


def test_nothing_kept_means_no_write_and_nothing_to_wait_for(tmp_path):
    library = Library.at(write_library(tmp_path / "lib", {}))
    cache = ReleasedCache(library, enabled=True)
    with Workers(2) as workers:
        cache.save_meanwhile({"1" * 40}, workers)
    assert cache._saving is None
    assert _shard_paths(library.root) == []


def test_workers_without_a_pool_leave_submitted_work_to_the_caller():
    with Workers(1) as workers:
        assert workers.submit(sum, [1, 2]) is None
    with Workers(2) as workers:
        done = workers.submit(os.getpid)
        assert done is not None and done.result() != os.getpid()
