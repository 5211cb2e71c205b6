"""benchmarks/bench_review.py, run by hand: the memory it gives forked workers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

from conftest import benchmark_script

MB = 64  # what the process below writes before it forks


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def test_pages_forked_workers_share_are_counted_once_not_once_in_each():
    # The sum of resident sizes counted a page the review's workers share with it once in
    # each (2,944 MB for 1,354 MB of proportional set size); PSS divides it among them.
    bench_review = benchmark_script("bench_review")
    script = textwrap.dedent(f"""
        import os, time
        shared = b"x" * {MB} * 2**20  # written: resident, and shared once forked
        forked = [os.fork() for _ in range(3)]  # each forks again: eight processes
        print(flush=True)
        time.sleep(60)
        """)
    process = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, start_new_session=True
    )
    try:
        assert process.stdout
        assert [process.stdout.readline() for _ in range(8)] == [b"\n"] * 8  # all forked
        pss_kb = bench_review.descendants_pss_kb(os.getpid())
        tree = [process.pid, *benchmark_script("bench_scale").descendants(process.pid)]
        rss_kb = sum(_rss_kb(pid) for pid in tree)
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # the eight of them
        process.wait()
    assert len(tree) == 8
    assert rss_kb > 8 * MB * 1024
    assert MB * 1024 < pss_kb < 2 * MB * 1024


def test_the_same_change_is_the_same_commit_from_one_run_to_the_next(tmp_path):
    # Committed at the time of the run, the change made another head on every run, and the
    # reports of two builds, which name the head, never compared byte for byte.
    bench_review = benchmark_script("bench_review")
    (tmp_path / "incidents").mkdir()
    names = [f"IL-000{n}.yaml" for n in range(1, 5)]
    source = "sources:\n  - url: https://a.example/\n    publisher: A"
    for name in names:
        text = f"id: {name[:7]}\ntitle: 제목\n{source}\n"
        (tmp_path / "incidents" / name).write_text(text, "utf-8")
    git = [*bench_review.GIT, "-C", str(tmp_path)]
    subprocess.run([*git, "init", "-q", "-b", "master"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "library"], check=True)

    def head() -> str:
        out = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True)
        return out.stdout.decode().strip()

    bench_review._branch(tmp_path, names, 2)
    first = head()
    time.sleep(1.1)  # (git dates a commit to the second)
    bench_review._branch(tmp_path, names, 2)
    assert head() == first
    retitled = (tmp_path / "incidents" / "IL-0001.yaml").read_text("utf-8")
    assert retitled == f"id: IL-0001\ntitle: 제목 개정\n{source}\n"
    bench_review._branch(tmp_path, names, 2, "publisher")
    edited = [(tmp_path / "incidents" / name).read_text("utf-8") for name in names[:2]]
    assert edited == [
        f"id: IL-0001\ntitle: 제목\n{source} 편집부\n",
        f"id: IL-0002\ntitle: 제목\n{source}\n",
    ]
    assert head() != first
    bench_review._branch(tmp_path, names, 4, "publisher", new=1)
    listed = subprocess.run([*git, "ls-files", "incidents"], check=True, capture_output=True)
    assert listed.stdout.decode().split() == [
        "incidents/IL-0001.yaml", "incidents/IL-0002.yaml", "incidents/IL-0003.yaml",
        "incidents/IL-0004.yaml", "incidents/IL-NEW-bench-1.yaml",
    ]  # fmt: skip
    added = (tmp_path / "incidents" / "IL-NEW-bench-1.yaml").read_text("utf-8")
    assert added == f"id: IL-NEW-bench-1\ntitle: 제목 신규\n{source} 편집부\n"
    bench_review._branch(tmp_path, names, 2)  # (the next change has none of it)
    assert not (tmp_path / "incidents" / "IL-NEW-bench-1.yaml").exists()
