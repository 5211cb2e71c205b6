"""The CLI surface: commands, flags, output formats and exit statuses are public API."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    REPO,
    STOPPED_WHILE_PARSING,
    run_curator,
    stopped_as_it_loads,
    write_library,
)

from curator.findings import Finding, Severity
from curator.lint import passed_over
from curator.load import load_bytes
from curator.report import github_annotation
from incidents import incident


@pytest.fixture
def library(tmp_path):
    return write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": incident("IL-0001"),
            "IL-0002.yaml": incident("IL-0002", ("    - nccl\n", "    - ncl\n")),
            "IL-0003.yaml": incident("IL-0003", ("status: published", "status: published  ")),
        },
    )


def test_clean_library_exits_0_with_a_summary(tmp_path):
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    run = run_curator("lint", "--root", str(root))
    assert run.code == 0
    assert run.out == ""
    assert "0 errors, 0 warnings in 1 file checked" in run.err


def test_warnings_alone_exit_0(tmp_path):
    root = write_library(
        tmp_path / "lib",
        {"IL-0001.yaml": incident("IL-0001", ("status: published", "status: published "))},
    )
    run = run_curator("lint", "--root", str(root))
    assert run.code == 0
    assert "IL602 [warning] trailing white space (fixable)" in run.out


def test_text_format_is_path_line_col_code_severity_message(library):
    run = run_curator("lint", "--root", str(library))
    assert run.code == 1
    lines = run.out.splitlines()
    assert any(
        line.endswith(
            "IL-0002.yaml:11:7: IL301 [error] 'ncl' is not a term of components; "
            "did you mean 'nccl'?"
        )
        for line in lines
    ), lines
    assert "1 error, 1 warning (1 fixable with `curator fix`) in 3 files checked" in run.err


def test_json_format(library):
    run = run_curator("lint", "--root", str(library), "--format", "json")
    assert run.code == 1
    rows = json.loads(run.out)
    assert [(r["code"], r["line"], r["column"], r["severity"], r["fixable"]) for r in rows] == [
        ("IL301", 11, 7, "error", False),
        ("IL602", 3, 18, "warning", True),
    ]
    assert rows[0]["path"].endswith("incidents/IL-0002.yaml")
    assert run.err == ""  # machine formats print nothing else


def test_github_format_escapes_properties_and_data(library):
    run = run_curator("lint", "--root", str(library), "--format", "github")
    assert run.code == 1
    [error, warning] = run.out.splitlines()
    assert error.startswith("::error file=")
    assert ",line=11,col=7,title=IL301::'ncl' is not a term of components" in error
    assert warning.startswith("::warning file=") and "(fixable with `curator fix`)" in warning


def test_a_github_annotation_escapes_what_would_end_its_properties_or_its_message():
    # A path may hold `:` and `,` (which end a property) and a message `%` and line breaks
    # (which end the command): GitHub reads them back from these escapes.
    finding = Finding("incidents/a:b,c.yaml", 3, 5, "IL101", Severity.ERROR, "50%\r\nx", True)
    assert github_annotation(finding) == (
        "::error file=incidents/a%3Ab%2Cc.yaml,line=3,col=5,title=IL101::"
        "50%25%0D%0Ax (fixable with `curator fix`)"
    )


def test_paths_limit_the_report_but_not_the_cross_file_view(tmp_path):
    root = write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": incident("IL-0001"),
            "IL-0002.yaml": incident(
                "IL-0002",
                (
                    "https://example.com/postmortems/IL-0002",
                    "https://example.com/postmortems/IL-0001",
                ),
            ),
        },
    )
    run = run_curator("lint", "incidents/IL-0002.yaml", cwd=root)
    assert run.code == 1
    assert run.out.startswith("incidents/IL-0002.yaml:")
    assert "IL502" in run.out and "also cited by IL-0001" in run.out
    assert "IL-0001.yaml" not in run.out.split(":", 1)[0]


def test_root_is_found_from_a_subfolder(library):
    run = run_curator("lint", "--format", "json", cwd=library / "incidents")
    assert run.code == 1
    assert {r["path"] for r in json.loads(run.out)} == {"IL-0002.yaml", "IL-0003.yaml"}


def test_no_library_is_a_usage_error(tmp_path):
    run = run_curator("lint", cwd=tmp_path)
    assert run.code == 2
    assert "no library found" in run.err and "--root" in run.err


def test_bad_root_is_a_usage_error(tmp_path):
    run = run_curator("lint", "--root", str(tmp_path))
    assert run.code == 2
    assert "is not a library" in run.err


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["lint", "--format", "xml"],
            "curator lint: Invalid value for '--format': 'xml' is not one of 'text', 'json', "
            "'github' — see `curator lint --help`",
        ),
        (
            ["lint", "no/such/file.yaml"],
            "curator lint: no such file: no/such/file.yaml — see `curator lint --help`",
        ),
        (["lint", "--zzz"], "curator lint: No such option '--zzz' — see `curator lint --help`"),
        (["frobnicate"], "curator: No such command 'frobnicate' — see `curator --help`"),
        (["--nope"], "curator: No such option '--nope' — see `curator --help`"),
        (
            ["github", "comment", "--pr", "1"],
            "curator github comment: Missing option '--repo' — see `curator github comment --help`",
        ),
        (  # a command's own refusal
            ["similar"],
            "curator similar: give incident files, or --all — see `curator similar --help`",
        ),
        (  # options that did nothing without --push: the library was numbered in place
            ["assign-ids", "--branch", "trunk"],
            "curator assign-ids: --branch needs --push — see `curator assign-ids --help`",
        ),
        (
            ["assign-ids", "--branch", "main", "--attempts", "2"],
            "curator assign-ids: --branch and --attempts need --push — see "
            "`curator assign-ids --help`",
        ),
        (
            ["assign-ids", "--push", "origin", "--attempts", "0"],
            "curator assign-ids: Invalid value for '--attempts': 0 is not in the range "
            "1<=x<=50 — see `curator assign-ids --help`",
        ),
        (["export"], "curator export: Missing option '--out' — see `curator export --help`"),
        (["review"], "curator review: Missing option '--base' — see `curator review --help`"),
        (
            ["review", "--base", "HEAD", "--format", "text"],
            "curator review: Invalid value for '--format': 'text' is not one of 'markdown', "
            "'json', 'github' — see `curator review --help`",
        ),
        (
            ["github", "release", "--repo", "o/r", "--dir", "."],
            "curator github release: Missing option '--tag' — see `curator github release --help`",
        ),
        (
            ["github", "comment", "--repo", "o/r", "--pr", "0", "--report", "r.json"],
            "curator github comment: Invalid value for '--pr': 0 is not in the range x>=1 — "
            "see `curator github comment --help`",
        ),
        (
            ["github", "frobnicate"],
            "curator github: No such command 'frobnicate' — see `curator github --help`",
        ),
        (
            ["rules", "--format", "xml"],
            "curator rules: Invalid value for '--format': 'xml' is not one of 'text', "
            "'json', 'markdown' — see `curator rules --help`",
        ),
        (
            ["fmt", "-j", "0"],
            "curator fmt: Invalid value for '--jobs' / '-j': 0 is not in the range x>=1 — "
            "see `curator fmt --help`",
        ),
        (
            ["fix", "--jobs", "0"],
            "curator fix: Invalid value for '--jobs' / '-j': 0 is not in the range x>=1 — "
            "see `curator fix --help`",
        ),
        (
            ["search", "--top", "0", "nccl"],
            "curator search: Invalid value for '--top': 0 is not in the range 1<=x<=10000 — "
            "see `curator search --help`",
        ),
        (
            ["similar", "--all", "--top", "1001"],
            "curator similar: Invalid value for '--top': 1001 is not in the range "
            "1<=x<=1000 — see `curator similar --help`",
        ),
        (
            ["suggest", "--all", "incidents/IL-0001.yaml"],
            "curator suggest: give incident files or --all, not both — see "
            "`curator suggest --help`",
        ),
        (
            ["new", "--status", "withdrawn"],
            "curator new: --status 값은 draft, published 가운데 하나입니다 (Invalid value for "
            "'--status': 'withdrawn' is not one of 'draft', 'published') — `curator new --help` "
            "를 보세요 (see `curator new --help`)",
        ),
    ],
)
def test_usage_errors_exit_2_with_one_line(args, line, library):
    run = run_curator(*args, cwd=library)
    assert run.code == 2
    # (run_curator runs `python -m curator`, and the line names the command as it was run)
    assert run.err == line.replace("curator", "python -m curator") + "\n"


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (["lint", "--format"], "curator lint"),
        (["lint", "-j"], "curator lint"),
        (["rules", "--format"], "curator rules"),
        (["review", "--base"], "curator review"),
        (["fix", "--check=yes"], "curator fix"),
        (["similar", "--all=1"], "curator similar"),
        (["github", "comment", "--repo"], "curator github comment"),
        (["github", "release", "--help=1"], "curator github release"),
        (["github", "--help=1"], "curator github"),
    ],
)
def test_an_option_without_its_value_or_a_flag_with_one_names_its_command(args, command):
    """click reads the command line before the command has a context, and raised these two
    without one: they were said as `curator`'s, and sent the user to `curator --help`."""
    option, _, value = args[-1].partition("=")
    problem = "does not take a value" if value else "requires an argument"
    run = run_curator(*args)
    assert run.code == 2
    assert run.err == (
        f"python -m {command}: Option '{option}' {problem} — see `python -m {command} --help`\n"
    )


def test_the_github_group_alone_shows_its_commands():
    run = run_curator("github")
    assert "comment" in run.out + run.err and "release" in run.out + run.err


def test_internal_error_exits_2_with_one_line_and_no_traceback(tmp_path, monkeypatch):
    from click.testing import CliRunner

    import curator.cli

    def broken_lint(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(curator.cli, "lint", broken_lint)
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    result = CliRunner().invoke(curator.cli.main, ["lint", "--root", str(root)])
    assert result.exit_code == 2
    assert result.output == "curator: internal error: RuntimeError: disk on fire\n"
    assert "Traceback" not in result.output


def test_ctrl_c_exits_2_with_one_line_and_no_traceback(tmp_path, monkeypatch):
    from click.testing import CliRunner

    import curator.cli

    def interrupted_lint(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(curator.cli, "lint", interrupted_lint)
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    result = CliRunner().invoke(curator.cli.main, ["lint", "--root", str(root)])
    assert result.exit_code == 2
    assert result.output == "curator: interrupted\n"


def test_ctrl_c_as_a_command_loads_a_module_is_a_stop_not_an_internal_error(tmp_path, monkeypatch):
    # Python 3.11 wraps a Ctrl-C that lands as a class is made (`__set_name__`): the run
    # ended in "curator: internal error: RuntimeError: Error calling __set_name__ …".
    from click.testing import CliRunner

    import curator.cli

    class Stopping:
        def __set_name__(self, owner: type, name: str) -> None:
            raise KeyboardInterrupt

    def lint_loading_a_module(*args: object, **kwargs: object) -> None:
        type("Made", (), {"field": Stopping()})

    monkeypatch.setattr(curator.cli, "lint", lint_loading_a_module)
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    result = CliRunner().invoke(curator.cli.main, ["lint", "--root", str(root)])
    assert (result.exit_code, result.output) == (2, "curator: interrupted\n")


# Each command that loads its modules on use: the first it imports, and arguments that
# would otherwise end it at once (so that a stop dropped shows as another outcome).
_LOADING_ON_USE = {
    "export": ("curator.export", ["export", "--root", "{lib}", "--out", "{tmp}/out"]),
    "similar": ("curator.similarity", ["similar", "--root", "{lib}", "{lib}/incidents"]),
    "suggest": ("curator.similarity", ["suggest", "--root", "{lib}", "--all"]),
    "search": ("curator.similarity", ["search", "--root", "{lib}", "disk"]),
    "review": ("curator.review", ["review", "--root", "{lib}", "--base", "HEAD"]),
    "new": (
        "curator.similarity.phrases",
        [
            "new",
            "--root",
            "{lib}",
            "--no-prompt",
            "--title",
            "디스크",
            "--source",
            "https://e.co/x",
        ],
    ),
    "github release": (
        "curator.export.publish",
        ["github", "release", "--repo", "no", "--tag", "v1", "--dir", "{lib}"],
    ),
    "github comment": (
        "curator.github.client",
        ["github", "comment", "--repo", "no", "--pr", "1", "--report", "{lib}/.curator.toml"],
    ),
}


@pytest.mark.parametrize("command", _LOADING_ON_USE)
def test_ctrl_c_as_a_command_loads_its_modules_is_not_dropped(tmp_path, monkeypatch, command):
    # pydantic-core prints what is raised while it builds a validator, then drops it:
    # Ctrl-C as the command's models (or numpy, or PyGithub) loaded was lost, and the
    # command went on.
    import builtins

    from click.testing import CliRunner

    import curator.cli

    class Swallowing:  # as pydantic-core does
        def __del__(self) -> None:
            signal.raise_signal(signal.SIGINT)

    first, arguments = _LOADING_ON_USE[command]
    load = builtins.__import__

    def loading(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == first:
            Swallowing()
        return load(name, *args, **kwargs)

    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    (root / ".curator.toml").write_text("", encoding="utf-8")
    args = [a.format(lib=root, tmp=tmp_path) for a in arguments]
    monkeypatch.setattr(builtins, "__import__", loading)
    result = CliRunner().invoke(curator.cli.main, args)
    said = "중단되었습니다 (interrupted)" if command == "new" else "interrupted"  # (Korean first)
    assert (result.exit_code, result.output) == (2, f"curator: {said}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lib"]


def test_the_program_loads_no_command_s_heavy_modules_before_the_command_needs_them():
    # Every run of every command paid for them: pre-commit runs `curator lint` on each
    # commit. (`curator new` imported the similarity's phrase matcher, and numpy with it.)
    code = "import sys, curator.cli; print(sorted(m for m in HEAVY if m in sys.modules))"
    heavy = ["numpy", "curator.similarity", "curator.export", "curator.review", "github"]
    run = subprocess.run(
        [sys.executable, "-c", f"HEAVY = {heavy!r}; {code}"],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    assert run.stdout == "[]\n"


def test_ctrl_c_as_lint_loads_numpy_for_an_unknown_term_is_not_dropped(library):
    # numpy is loaded mid-run, for the first "did you mean": a stop then was printed
    # ("Exception ignored in: …") and dropped, and lint went on to report its findings.
    run = stopped_as_it_loads("numpy", "lint", "--root", str(library), "--no-cache")
    assert (run.code, run.out, run.err) == (2, "", "curator: interrupted\n")


# Ctrl-C or SIGTERM while `curator.cli` and what it imports load.
_AGAIN_AS_IT_ENDS = "import atexit; atexit.register(signal.raise_signal, signal.SIGINT)"
_STOPPED_WHILE_LOADING = """
import builtins, os, signal
class Stopping:  # a descriptor: Python calls its __set_name__ as a class holding it is made
    def __set_name__(self, owner, name):
        os.kill(os.getpid(), signal.SIGTERM)
class Swallowing:  # as pydantic-core does: what its code raises is printed, then dropped
    def __del__(self):
        signal.raise_signal(signal.SIGINT)
load = builtins.__import__
def stopped(name, *args, **kwargs):
    if name == "curator.cli":
        {stop}
    return load(name, *args, **kwargs)
builtins.__import__ = stopped
from curator.__main__ import main
main()
"""


@pytest.mark.parametrize(
    ("stop", "said"),
    [
        ("raise KeyboardInterrupt", "curator: interrupted\n"),  # (as the interpreter raises it)
        ("os.kill(os.getpid(), signal.SIGTERM)", "curator: terminated\n"),
        ('type("Made", (), {"field": Stopping()})', "curator: terminated\n"),
        ("Swallowing()", "curator: interrupted\n"),
        # (a second Ctrl-C as the process ends, which atexit stands for: Python, ending,
        # printed "Exception ignored in atexit callback" and its traceback, or was killed
        # by it once it had given the signal back to the system: exit status 130)
        (f"{_AGAIN_AS_IT_ENDS}; raise KeyboardInterrupt", "curator: interrupted\n"),
    ],
    ids=[
        "ctrl-c",
        "sigterm",
        "sigterm-as-a-class-is-made",
        "ctrl-c-where-it-is-dropped",
        "ctrl-c-and-again-as-it-ends",
    ],
)
def test_ctrl_c_or_sigterm_while_curator_loads_is_one_line_too(stop, said):
    # The command started in curator.cli, whose imports take a third of a second: Ctrl-C
    # then printed a KeyboardInterrupt traceback. SIGTERM ended it at once, as it did any
    # time later. Landing as a class was made, Python 3.11 made it "RuntimeError: Error
    # calling __set_name__ …": a traceback, and exit 1. Landing as pydantic-core built a
    # model's validator, it was printed ("Exception ignored in: …") and dropped: the run
    # went on to the end.
    program = _STOPPED_WHILE_LOADING.format(stop=stop)
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert (run.returncode, run.stdout, run.stderr) == (2, "", said)


@pytest.mark.parametrize(
    ("stop", "said"),
    [
        ("raise KeyboardInterrupt", "curator: interrupted\n"),
        ("os.kill(os.getpid(), signal.SIGTERM)", "curator: terminated\n"),
    ],
    ids=["ctrl-c", "sigterm"],
)
def test_ctrl_c_or_sigterm_while_the_command_line_is_read_is_one_line_and_exit_2(stop, said):
    # click caught it itself: a blank line, "Aborted!", and exit 1, the status of findings.
    program = STOPPED_WHILE_PARSING.format(stop=stop)
    run = subprocess.run([sys.executable, "-c", program, "rules"], capture_output=True, text=True)
    assert (run.returncode, run.stdout, run.stderr) == (2, "", said)


CLOSED_OUTPUT = "curator: standard output is closed: the output had nowhere to go\n"


@pytest.mark.parametrize(
    "command",
    [
        ["lint", "--root", "ROOT"],  # findings: exit 1 said "findings"; nobody could read them
        ["lint", "--root", "ROOT", "--format", "json"],
        ["search", "NCCL", "--root", "ROOT"],
        ["rules"],
        ["--version"],  # printed before any command runs
        ["lint", "--help"],
    ],
)
def test_output_to_a_closed_standard_output_is_an_error_not_silence(library, command):
    # Started with `>&-`, Python makes sys.stdout None and printing to it does nothing: the
    # report was lost and the run exited 0 (1 with findings), or with a traceback for
    # --version.
    args = [str(library) if arg == "ROOT" else arg for arg in command]
    run = run_curator(*args, closing=(1,))
    assert (run.code, run.err) == (2, CLOSED_OUTPUT)


def test_a_run_with_nothing_to_print_needs_no_standard_output(tmp_path):
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    run = run_curator("lint", "--root", str(root), closing=(1,))
    assert run.code == 0
    assert "0 errors, 0 warnings in 1 file checked" in run.err  # (the summary's stream)


@pytest.mark.parametrize("command", [["lint"], ["fmt"], ["search", "NCCL"], ["similar", "--all"]])
def test_a_folder_the_system_will_not_list_is_one_line_not_an_internal_error(
    tmp_path, monkeypatch, command
):
    # An incidents/ folder without read permission (which root, running these tests, would
    # not see) was "internal error: PermissionError: [Errno 13] ...".
    from click.testing import CliRunner

    import curator.cli
    import curator.library

    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    listdir = curator.library.os.listdir

    def unreadable(path):
        if str(path) == str(root / "incidents"):
            raise PermissionError(13, "Permission denied", str(path))
        return listdir(path)

    monkeypatch.setattr(curator.library.os, "listdir", unreadable)
    result = CliRunner().invoke(curator.cli.main, [*command, "--root", str(root), "--quiet"])
    assert result.exit_code == 2
    assert result.output == f"curator: {root / 'incidents'}: Permission denied\n"


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["search", "GPU \udcff"], "'[QUERY]'"),
        (["new", "--title", "\udcffabc", "--source", "https://example.com/a"], "'--title'"),
        (["new", "--title", "abc", "--organization", "\udced\udca0\udc80"], "'--organization'"),
        (["export", "--out", "out", "--version", "v1\udcff"], "'--version'"),
        (["github", "release", "--repo", "a/b", "--tag", "v1\udcff", "--dir", "."], "'--tag'"),
        # Each option that takes text says so too, where a filter said "'\udcff' is not a
        # term of causes", --base-url and --push ended in an internal error (a UnicodeError).
        (["search", "--cause", "\udcff"], "'--cause'"),
        (["search", "GPU", "--factor", "a\udcff"], "'--factor'"),
        (["new", "--title", "abc", "--component", "\udcff"], "'--component'"),
        (["export", "--out", "out", "--base-url", "https://example.com/\udcff/"], "'--base-url'"),
        (["assign-ids", "--push", "\udcff"], "'--push'"),
        (["assign-ids", "--push", "origin", "--branch", "\udcff"], "'--branch'"),
        (["github", "release", "--repo", "a/\udcff", "--tag", "v1", "--dir", "."], "'--repo'"),
        (["github", "comment", "--repo", "\udcff/b", "--pr", "1", "--report", "x"], "'--repo'"),
        (["github", "comment", "--head-sha", "\udcff", "--repo", "a/b"], "'--head-sha'"),
        (["github", "comment", "--author", "\udcff", "--repo", "a/b"], "'--author'"),
    ],
)
def test_text_that_is_not_utf8_is_a_usage_error(library, args, option):
    # Bytes that are not UTF-8 arrive as lone surrogates (PEP 383): writing them to YAML,
    # JSON or GitHub was an internal error (UnicodeEncodeError).
    run = run_curator(*args, cwd=library)
    assert run.code == 2
    assert f"Invalid value for {option}" in run.err and "is not UTF-8 text (byte 0x" in run.err
    if args[0] == "new":  # Korean first, as its other errors
        name = option.strip("'")
        assert f"{name} 값이 UTF-8 글자가 아닙니다(바이트 0x" in run.err, run.err


def test_utf8_text_is_read_as_such_where_the_locale_is_ascii(library):
    # Under LC_ALL=C without Python's UTF-8 mode, arguments arrive decoded as ASCII, each
    # byte of a Korean title a lone surrogate: it was refused as "'\\udced…' is not UTF-8
    # text (byte 0xED)", which it is.
    ascii_locale = {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    title = "NCCL 타임아웃으로 학습이 멈췄다"
    args = ["--title", title, "--source", "https://example.com/a", "--cause", "config-change"]
    made = run_curator(
        "new", *args, "--organization", "예시", "--no-prompt", cwd=library, env=ascii_locale
    )
    assert made.code == 0, made
    [draft] = (library / "incidents").glob("IL-NEW-*.yaml")
    data = load_bytes(draft.read_bytes()).data
    assert (data["title"], data["organizations"]) == (title, ["예시"])
    found = run_curator("search", "타임아웃", "--format", "json", cwd=library, env=ascii_locale)
    assert found.code == 0, found
    assert json.loads(found.out)["query"] == "타임아웃"
    # A filter by its Korean label too, where it was "'\udcec…' is not a term of causes".
    filtered = run_curator(
        "search", "--cause", "용량 한계", "--format", "json", cwd=library, env=ascii_locale
    )
    assert filtered.code == 0, filtered
    assert json.loads(filtered.out)["filters"]["causes"] == ["capacity-limit"]
    refused = run_curator("search", "GPU \udcff", cwd=library, env=ascii_locale)
    assert refused.code == 2 and "is not UTF-8 text (byte 0xFF)" in refused.err


def test_rules_lists_every_code_and_fixability():
    run = run_curator("rules")
    assert run.code == 0
    assert "IL401  error         dangling-reference" in run.out
    assert "IL604  error    fix  bom" in run.out
    assert "IL901  error         incident-removed" in run.out  # checked by `curator review`
    rows = json.loads(run_curator("rules", "--format", "json").out)
    assert {"code", "name", "severity", "fixable", "summary"} <= set(rows[0])
    markdown = run_curator("rules", "--format", "markdown").out
    assert markdown == (REPO / "docs" / "rules.md").read_text(encoding="utf-8")


def test_version_and_help():
    assert run_curator("--version").out.startswith("curator, version ")
    help_text = run_curator("lint", "--help").out
    for flag in ("--root", "--format", "--quiet"):
        assert flag in help_text


def leaf_commands() -> list[tuple[str, Any]]:
    """Every command that does something (`lint`, `github comment`), by its full name."""
    import click

    from curator.cli import main

    found, pending = [], [("", main)]
    while pending:
        name, command = pending.pop()
        if isinstance(command, click.Group):
            pending += [(f"{name} {sub}".strip(), c) for sub, c in command.commands.items()]
        else:
            found.append((name, command))
    return sorted(found, key=lambda pair: pair[0])


def test_the_help_explains_every_flag_and_the_exit_statuses():
    unexplained = [
        f"curator {name} {option.opts[-1]}"
        for name, command in leaf_commands()
        for option in command.params
        if option.param_type_name == "option" and not option.help and "--help" not in option.opts
    ]
    assert unexplained == []
    said = " ".join(run_curator("--help").out.split())
    assert "Exit status: 0 when all is well (warnings allowed); 1 for findings or a refusal" in said
    assert "2 for a usage error, an internal error, or a run stopped" in said


@pytest.mark.parametrize("group", [[], ["github"]])
def test_the_list_of_commands_says_what_each_does_in_full(group):
    # Click cuts a summary it finds too long with "...": the list said half a sentence.
    listed = run_curator(*group, "--help").out.partition("Commands:\n")[2].splitlines()
    assert listed and all(re.fullmatch(r"  [a-z-]+ +\S.*[^.]\.", line) for line in listed), listed


def test_the_review_help_speaks_of_the_revisions_given_not_of_head():
    # `--head REV` reviews REV: "compares HEAD" was true only of the default.
    said = " ".join(run_curator("review", "--help").out.split())
    assert "Compares --head with its merge base with --base" in said
    assert "at HEAD" not in said


def test_the_review_help_says_every_removal_il901_fails():
    # "a published incident was deleted": a withdrawn one deleted, or either made a draft
    # again, fails the review too (IL901, tests/test_review.py).
    said = " ".join(run_curator("review", "--help").out.split())
    assert "a published or withdrawn incident deleted, or made a draft again" in said


def test_quiet_drops_the_summary(library):
    run = run_curator("lint", "--root", str(library), "--quiet")
    assert run.code == 1 and run.err == ""


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["lint", "--no-cache"], "linting 1/3 files"),
        (["fmt", "--check", "--no-cache"], "checking 1/3 files"),
        (["fix", "--check", "--no-cache"], "checking 1/3 files"),
        (["similar", "--all"], "indexing 3/3 files"),
        (["suggest", "--all"], "indexing 3/3 files"),
        (["search", "nccl"], "indexing 3/3 files"),
    ],
    ids=lambda value: value[0] if isinstance(value, list) else "",
)
@pytest.mark.parametrize("quiet", ["-q", "--quiet"])
def test_quiet_drops_the_progress_line_a_terminal_shows(library, monkeypatch, args, line, quiet):
    # Progress draws on a terminal only, for a run set to last two seconds: here one that
    # is (a clock of ten seconds a tick), shown on a terminal of its own.
    import itertools

    from click.testing import CliRunner

    import curator.cli
    import curator.progress

    shown: list[io.StringIO] = []

    class Shown(curator.progress.Progress):
        def __init__(self, what: str, *rest: Any, enabled: bool = True, **options: Any) -> None:
            ticks = itertools.count(0.0, 10.0)
            shown.append(_Terminal())
            super().__init__(what, shown[-1], enabled=enabled, delay=0, clock=lambda: next(ticks))

    monkeypatch.setattr(curator.cli, "Progress", Shown)
    runner = CliRunner()
    drawn = runner.invoke(curator.cli.main, [*args, "--root", str(library)])
    assert drawn.exit_code in (0, 1), drawn.output
    assert any(line in stream.getvalue() for stream in shown), [s.getvalue() for s in shown]
    for cache in library.glob(".curator-cache"):  # (the judgements' index: built again)
        shutil.rmtree(cache)
    shown.clear()
    quieted = runner.invoke(curator.cli.main, [*args, "--root", str(library), quiet])
    assert quieted.exit_code == drawn.exit_code, quieted.output
    assert shown and all(stream.getvalue() == "" for stream in shown)


def test_hostile_files_each_yield_a_finding_and_the_run_goes_on(tmp_path):
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]\n"
        for i in range(8)
    )
    root = write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": b"id: IL-0001\n" + b"# " + b"x" * (50 * 1024 * 1024) + b"\n",
            "IL-0002.yaml": bomb,
            "IL-0003.yaml": "id: !!python/object/apply:os.system ['echo pwned']\n",
            "IL-0004.yaml": b"\xff\xfe\x00i\x00d",
            "IL-0005.yaml": incident("IL-0005", ("    - nccl\n", "    - ncl\n")),
        },
    )
    (root / "incidents" / "IL-0006.yaml").mkdir()
    run = run_curator("lint", "--root", str(root), "--format", "json")
    assert run.code == 1
    codes = {(r["path"].rsplit("/", 1)[-1], r["code"]) for r in json.loads(run.out)}
    assert codes == {
        ("IL-0001.yaml", "IL104"),
        ("IL-0002.yaml", "IL105"),
        ("IL-0003.yaml", "IL105"),
        ("IL-0004.yaml", "IL103"),
        ("IL-0005.yaml", "IL301"),
        ("IL-0006.yaml", "IL107"),
    }
    assert "pwned" not in run.out + run.err


def test_a_folder_given_counts_the_files_inside(library):
    run = run_curator("lint", "--root", str(library), str(library / "incidents"))
    assert "in 3 files checked" in run.err


SPELLINGS = (
    "incidents/IL-0003.yaml",
    "./incidents/IL-0003.yaml",
    "incidents/../incidents/IL-0003.yaml",
)


def test_a_file_named_twice_or_by_two_spellings_is_linted_and_counted_once(library):
    # The summary said "in 4 files checked" of one file.
    named = run_curator("lint", "--format", "json", *SPELLINGS, "incidents", cwd=library)
    alone = run_curator("lint", "--format", "json", "incidents", cwd=library)
    assert (named.code, json.loads(named.out)) == (alone.code, json.loads(alone.out))
    run = run_curator("lint", *SPELLINGS, cwd=library)
    assert "in 1 file checked" in run.err, run.err


@pytest.mark.parametrize(
    ("command", "said", "summary"),
    [
        ("fmt", "reformatted", "1 file reformatted, 0 unchanged"),
        ("fix", "IL602", "1 change in 1 file"),
    ],
)
def test_a_file_named_twice_or_by_two_spellings_is_rewritten_and_counted_once(
    library, command, said, summary
):
    # fmt said "reformatted" three times (and wrote the file three times), "3 files".
    run = run_curator(command, *SPELLINGS, cwd=library)
    assert run.code == 0, run.err
    assert [line for line in run.out.splitlines() if said in line] == [
        line for line in run.out.splitlines() if "IL-0003.yaml" in line
    ]
    assert len(run.out.splitlines()) == 1 and summary in run.err, run


def test_a_folder_given_that_holds_no_incident_file_reports_nothing(library, tmp_path):
    # It reported every finding of the library, "in 0 files checked", and exit 1.
    empty = tmp_path / "drafts"
    empty.mkdir()
    # (schema/ holds the taxonomy: it stands for the whole library, see below)
    run = run_curator("lint", "--root", str(library), "--format", "json", str(empty))
    assert (run.code, run.out) == (0, "[]\n"), run
    run = run_curator("lint", "--root", str(library), str(empty))
    assert (run.code, run.out) == (0, "")
    assert "0 errors, 0 warnings in 0 files checked" in run.err


def test_a_symlinked_incident_named_on_the_command_line_is_checked_under_its_own_name(
    library, tmp_path
):
    # pre-commit names files; the verdict must be the one a lint of the whole library gives.
    outside = tmp_path / "elsewhere.yaml"
    link = library / "incidents" / "IL-0001.yaml"
    outside.write_bytes(link.read_bytes())
    link.unlink()
    link.symlink_to(outside)
    whole = run_curator("lint", "--root", str(library), "--format", "json")
    named = run_curator("lint", "--root", str(library), "--format", "json", str(link))
    mine = [f for f in json.loads(whole.out) if f["path"].endswith("IL-0001.yaml")]
    assert json.loads(named.out) == mine
    assert all(f["path"].endswith("incidents/IL-0001.yaml") for f in json.loads(named.out))


def test_a_file_named_through_a_symlinked_incidents_folder_is_the_librarys_own(library, tmp_path):
    # It was checked as a second file beside the library's own: its id used twice (IL204).
    incidents = library / "incidents"
    incidents.rename(tmp_path / "elsewhere")
    incidents.symlink_to(tmp_path / "elsewhere")
    whole = run_curator("lint", "--format", "json", cwd=library)
    named = run_curator("lint", "--format", "json", "incidents/IL-0003.yaml", cwd=library)
    mine = [f for f in json.loads(whole.out) if f["path"] == "incidents/IL-0003.yaml"]
    assert mine and (named.code, json.loads(named.out)) == (0, mine)
    # A hidden copy is passed over there, and so when named through the link.
    (incidents / ".IL-0003.yaml").write_text(incident("IL-0003"), encoding="utf-8")
    hidden = run_curator("lint", "--format", "json", "incidents/.IL-0003.yaml", cwd=library)
    assert (hidden.code, json.loads(hidden.out)) == (0, [])
    assert "incidents/.IL-0003.yaml is not checked, as in a run over the library" in hidden.err


def test_a_link_that_loops_in_a_folder_given_is_a_finding_not_a_crash(library):
    (library / "incidents" / "IL-0009.yaml").symlink_to("IL-0009.yaml")
    run = run_curator(
        "lint", "--root", str(library), "--format", "json", str(library / "incidents")
    )
    assert run.code == 1, run.err
    looped = [f for f in json.loads(run.out) if f["path"].endswith("IL-0009.yaml")]
    assert [f["code"] for f in looped] == ["IL107"]


def test_a_reader_that_stops_early_gets_exit_2_and_one_line_not_a_traceback(tmp_path):
    # More output than a pipe holds, so that writing fails once the reader has gone.
    unformatted = {
        f"IL-{n:04d}.yaml": incident(f"IL-{n:04d}").replace("id: ", "id:  ") for n in range(1, 400)
    }
    root = write_library(tmp_path / "lib", unformatted)
    process = subprocess.Popen(
        [sys.executable, "-m", "curator", "fmt", "--diff"],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline().startswith(b"--- a/incidents/")
    process.stdout.close()
    error = process.stderr.read().decode("utf-8")
    assert process.wait(timeout=60) == 2
    assert error == "curator: output closed before all of it was written\n"


@pytest.mark.parametrize(
    "args",
    [
        ("lint",),
        ("lint", "--format", "json"),
        ("rules",),
        ("rules", "--format", "markdown"),
        ("search", "nccl"),
        ("fmt", "--check"),
        ("--version",),
    ],
)
def test_a_full_disk_under_standard_output_is_named_in_one_line_and_exit_2(library, args):
    # /dev/full refuses every write as a full disk does. The line named nothing: "curator:
    # No space left on device", as if some file of the library could not be written.
    with open("/dev/full", "w", encoding="utf-8") as full:
        run = subprocess.run(
            [sys.executable, "-m", "curator", *args],
            cwd=library,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            check=False,
        )
    assert run.returncode == 2
    assert run.stderr.splitlines()[-1:] == [
        "curator: cannot write standard output: No space left on device"
    ]
    assert "Traceback" not in run.stderr and "Exception ignored" not in run.stderr


@pytest.mark.parametrize("args", [("lint", "--format", "json"), ("rules",)])
def test_a_pipe_closed_by_its_reader_ends_the_run_without_a_traceback(tmp_path, args):
    broken = {f"IL-{n:04d}.yaml": "id: [\n" for n in range(1, 400)}  # a finding each
    root = write_library(tmp_path / "lib", broken)
    process = subprocess.Popen(
        [sys.executable, "-m", "curator", *args],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # as `| true` does, before anything is read
    error = process.stderr.read().decode("utf-8")
    assert process.wait(timeout=60) == 2, error
    assert error.splitlines()[-1:] == ["curator: output closed before all of it was written"]
    assert "Traceback" not in error and "Exception ignored" not in error


def test_the_library_root_given_as_a_folder_stands_for_its_incidents(library):
    (library / ".pre-commit-config.yaml").write_text("repos: []\n", encoding="utf-8")
    whole = run_curator("lint", "--format", "json", cwd=library)
    for given in (".", ""):
        named = run_curator("lint", "--format", "json", given, cwd=library)
        assert (named.code, json.loads(named.out)) == (whole.code, json.loads(whole.out))
        assert "in 3 files checked" in run_curator("lint", given, cwd=library).err


def test_a_folder_holding_the_taxonomy_named_is_checked_as_the_whole_library(library):
    # `curator lint schema` checked nothing ("0 files checked", exit 0) however broken the
    # taxonomy, and `curator lint .` left out the taxonomy's own findings (IL303).
    causes = library / "schema" / "taxonomy" / "causes.yaml"
    causes.write_text(causes.read_text("utf-8").replace("    label:", "    lable:", 1), "utf-8")
    whole = run_curator("lint", "--format", "json", cwd=library)
    assert whole.code == 1 and "IL303" in {f["code"] for f in json.loads(whole.out)}
    for given in ("schema", "."):
        named = run_curator("lint", "--format", "json", given, cwd=library)
        assert (named.code, json.loads(named.out)) == (whole.code, json.loads(whole.out))
        assert "in 3 files checked" in run_curator("lint", given, cwd=library).err


def test_the_incidents_folder_named_is_checked_and_reported_as_the_whole_library(library):
    # Entries the library reports (misnamed ones) and those it leaves alone (hidden ones):
    # `curator lint incidents` listed the folder's .yaml and .yml files instead, so it
    # passed over IL-0004.txt and IL-0005 (no IL107) and checked an editor's backup.
    incidents = library / "incidents"
    (incidents / "IL-0004.txt").write_text(incident("IL-0004"), encoding="utf-8")
    (incidents / "IL-0005").write_text(incident("IL-0005"), encoding="utf-8")
    (incidents / ".IL-0001.yaml").write_text("id: [\n", encoding="utf-8")
    whole = run_curator("lint", "--format", "json", cwd=library)
    reported = {(f["path"], f["code"]) for f in json.loads(whole.out)}
    assert {("incidents/IL-0004.txt", "IL107"), ("incidents/IL-0005", "IL107")} <= reported
    for given in (".", "incidents", "incidents/"):
        named = run_curator("lint", "--format", "json", given, cwd=library)
        assert (named.code, json.loads(named.out)) == (whole.code, json.loads(whole.out))
        assert "in 5 files checked" in run_curator("lint", given, cwd=library).err


def test_entries_a_pattern_line_passed_over_are_checked_and_reported(library):
    # `.` stopped at a line break and `.yaml` was matched in small letters only: lint said
    # nothing of these two, and passed a library holding them.
    incidents = library / "incidents"
    (incidents / "IL-0001.yaml").rename(incidents / "draft\nIL-0001.yaml")
    (incidents / "notes.YAML").write_text(incident("IL-0004"), encoding="utf-8")
    run = run_curator("lint", "--format", "json", cwd=library)
    found = {(f["path"], f["code"]) for f in json.loads(run.out)}
    assert ("incidents/draft\nIL-0001.yaml", "IL203") in found
    assert ("incidents/notes.YAML", "IL107") in found
    assert "in 4 files checked" in run_curator("lint", cwd=library).err


def test_text_output_shows_control_characters_in_a_name_as_escapes(library):
    # A line break in a file name split a finding over two lines, and an escape sequence
    # reached the terminal as it is (and, through a pipe, click dropped it and the name
    # with it: the file shown was not the file).
    incidents = library / "incidents"
    (incidents / "IL-0002.yaml").rename(incidents / "IL-0002\x1b[2J.yaml")
    (incidents / "IL-0003.yaml").rename(incidents / "IL-0003\n.yaml")
    lint = run_curator("lint", cwd=library)
    lines = lint.out.splitlines()
    assert all(line.startswith("incidents/") for line in lines), lines
    assert "incidents/IL-0002\\x1b[2J.yaml:11:7: IL301 [error] 'ncl'" in lint.out
    assert "incidents/IL-0003\\n.yaml:1:5: IL203 [error]" in lint.out
    assert "\x1b" not in lint.out and "\x1b" not in lint.err
    fmt = run_curator("fmt", "--check", cwd=library)
    assert "would reformat incidents/IL-0003\\n.yaml (trailing spaces removed)\n" in fmt.out
    diff = run_curator("fmt", "--diff", cwd=library)
    assert "--- a/incidents/IL-0003\\n.yaml\n+++ b/incidents/IL-0003\\n.yaml\n" in diff.out
    fix = run_curator("fix", "--check", cwd=library)
    assert "incidents/IL-0003\\n.yaml:" in fix.out + fix.err
    assert "\x1b" not in fix.out + fix.err


def test_a_taxonomy_file_named_is_checked_as_taxonomy_with_the_whole_library(tmp_path):
    # As pre-commit names it: once read as an incident, with six false IL201 errors.
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    components = root / "schema" / "taxonomy" / "components.yaml"
    run = run_curator("lint", str(components), "--root", str(root), "--format", "json")
    assert (run.code, json.loads(run.out)) == (0, [])
    text = components.read_text(encoding="utf-8")
    components.write_text(text.replace("  - id: nccl\n", "  - id: nccl-lib\n"), "utf-8")
    run = run_curator("lint", str(components), "--root", str(root))
    assert run.code == 1
    assert [line.split(": ", 1)[1] for line in run.out.splitlines()] == [
        "IL301 [error] 'nccl' is not a term of components; did you mean 'nccl-lib'? (fixable)"
    ]
    assert "1 error, 0 warnings (1 fixable with `curator fix`) in 1 file checked" in run.err


def test_the_taxonomy_folder_named_is_checked_as_taxonomy_with_the_whole_library(tmp_path):
    # As its files are: not read as incidents, and every incident checked against it.
    files = {
        "IL-0001.yaml": incident("IL-0001"),
        "IL-0002.yaml": incident("IL-0002", ("    - nccl\n", "    - ncl\n")),
    }
    root = write_library(tmp_path / "lib", files)
    whole = run_curator("lint", "--format", "json", cwd=root)
    assert whole.code == 1
    for given in ("schema/taxonomy", "schema/taxonomy/"):
        named = run_curator("lint", "--format", "json", given, cwd=root)
        assert (named.code, json.loads(named.out)) == (1, json.loads(whole.out))


@pytest.mark.parametrize("linked", ["schema", "schema/taxonomy"])
def test_a_taxonomy_file_named_through_a_symlinked_folder_is_checked_as_taxonomy(tmp_path, linked):
    # It was read as an incident, with six false IL201 errors, and the commit refused.
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    (root / linked).rename(tmp_path / "elsewhere")
    (root / linked).symlink_to(tmp_path / "elsewhere")
    run = run_curator("lint", "--format", "json", "schema/taxonomy/components.yaml", cwd=root)
    assert (run.code, json.loads(run.out)) == (0, [])


def test_a_symlinked_taxonomy_file_named_is_reported_as_a_lint_of_the_library_does(tmp_path):
    # The taxonomy refuses the link (IL303); named, it was read as an incident too (IL107).
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    components = root / "schema" / "taxonomy" / "components.yaml"
    components.rename(tmp_path / "components.yaml")
    components.symlink_to(tmp_path / "components.yaml")
    whole = run_curator("lint", "--format", "json", cwd=root)
    named = run_curator("lint", "--format", "json", "schema/taxonomy/components.yaml", cwd=root)
    assert "IL303" in whole.out
    assert (named.code, json.loads(named.out)) == (whole.code, json.loads(whole.out))


def test_a_folder_named_like_an_incident_is_reported_not_entered(library):
    # `incidents/IL-0009.yaml/` is a misnamed folder (IL107), not a folder of incidents.
    folder = library / "incidents" / "IL-0009.yaml"
    folder.mkdir()
    (folder / "IL-0010.yaml").write_text(incident("IL-0010"), encoding="utf-8")
    run = run_curator("lint", "--format", "json", "incidents/IL-0009.yaml", cwd=library)
    assert run.code == 1
    assert [(f["path"], f["code"]) for f in json.loads(run.out)] == [
        ("incidents/IL-0009.yaml", "IL107")
    ]


def filed_in_subfolders(library: Path) -> None:
    """Incidents filed where the library does not read them, beside folders that hold
    nothing meant as an incident (left alone, as hidden files are)."""
    incidents = library / "incidents"
    (incidents / "2024" / "05").mkdir(parents=True)
    (incidents / "2024" / "IL-0009.yaml").write_text(incident("IL-0009"), encoding="utf-8")
    (incidents / "2024" / "bad.yaml").write_text("id: [\n", encoding="utf-8")
    (incidents / "2024" / "05" / "IL-0010.yaml").write_text(incident("IL-0001"), "utf-8")
    (incidents / "images").mkdir()
    (incidents / "images" / "diagram.png").write_bytes(b"\x89PNG")
    (incidents / ".archive").mkdir()
    (incidents / ".archive" / "IL-0011.yaml").write_text("id: [\n", encoding="utf-8")


SUBFOLDER = (
    "a folder holding what may be incidents (05/IL-0010.yaml, IL-0009.yaml, bad.yaml): "
    "the library reads only the files directly in incidents/"
)


def test_a_folder_holding_incidents_is_reported_by_a_lint_of_the_library(library):
    # It was passed over in silence: "0 errors", and incidents not in the library.
    for clean in ("IL-0002", "IL-0003"):
        (library / "incidents" / f"{clean}.yaml").write_text(incident(clean), "utf-8")
    filed_in_subfolders(library)
    whole = run_curator("lint", "--format", "json", cwd=library)
    assert whole.code == 1
    assert [(f["path"], f["code"], f["message"]) for f in json.loads(whole.out)] == [
        ("incidents/2024", "IL107", SUBFOLDER)
    ]
    for given in ("incidents", "."):
        named = run_curator("lint", "--format", "json", given, cwd=library)
        assert (named.code, json.loads(named.out)) == (1, json.loads(whole.out))


def test_a_file_named_in_a_subfolder_of_incidents_is_reported_not_checked(library):
    # As pre-commit names it: it was checked as an incident, its id one the library
    # already holds (IL204), where a lint of the library would not read it at all.
    filed_in_subfolders(library)
    message = (
        "in a subfolder of incidents/: the library reads only the files directly in incidents/"
    )
    for named in ("incidents/2024/05/IL-0010.yaml", "incidents/2024/bad.yaml"):
        run = run_curator("lint", "--format", "json", named, cwd=library)
        assert run.code == 1
        assert [(f["path"], f["code"], f["message"]) for f in json.loads(run.out)] == [
            (named, "IL107", message)
        ]
    run = run_curator("lint", "--format", "json", "incidents/2024", cwd=library)
    assert {(f["path"], f["code"]) for f in json.loads(run.out)} == {
        ("incidents/2024/05", "IL107"),
        ("incidents/2024/IL-0009.yaml", "IL107"),
        ("incidents/2024/bad.yaml", "IL107"),
    }


@pytest.mark.parametrize("command", ["fmt", "fix"])
@pytest.mark.parametrize("named", [(), ("incidents/2024/IL-0009.yaml",)])
def test_fmt_and_fix_leave_incidents_in_a_subfolder_alone_and_say_why(library, command, named):
    filed_in_subfolders(library)
    unformatted = incident("IL-0009").replace("id: ", "id:  ")
    (library / "incidents" / "2024" / "IL-0009.yaml").write_text(unformatted, "utf-8")
    run = run_curator(command, *named, cwd=library)
    assert run.code == 1, run
    where = named[0] if named else "incidents/2024"
    verb = "format" if command == "fmt" else "fix"
    assert f"{where}:1:1: cannot {verb}: " in run.err and "(IL107)" in run.err, run.err
    saved = (library / "incidents" / "2024" / "IL-0009.yaml").read_text(encoding="utf-8")
    assert saved == unformatted


def passed_over_by_the_library(library: Path) -> str:
    """Entries of incidents/ a lint of the library neither checks nor reports, hidden or
    not named like an incident, the files among them not in the canonical layout; returns
    their text."""
    incidents = library / "incidents"
    unformatted = incident("IL-0009").replace("id: ", "id:  ")
    (incidents / ".archive").mkdir()
    (incidents / "images").mkdir()
    for name in PASSED_OVER:
        (incidents / name).write_text(unformatted, encoding="utf-8")
    return unformatted


PASSED_OVER = (".IL-0009.yaml", ".archive/IL-0009.yaml", "README.md", "images/diagram.png")


@pytest.mark.parametrize(
    ("named", "why"),
    [
        ("incidents/.IL-0009.yaml", "it is hidden (its name starts with `.`)"),
        ("incidents/.archive", "it is hidden (its name starts with `.`)"),
        ("incidents/.archive/IL-0009.yaml", "it is in a hidden folder"),
        ("incidents/README.md", "it is not named like an incident (`IL-…` or `.yaml`)"),
        ("incidents/images/diagram.png", "it is not named like an incident (`IL-…` or `.yaml`)"),
        ("incidents/images", "it is a folder holding nothing named like an incident"),
    ],
)
def test_what_a_lint_of_the_library_passes_over_is_left_alone_when_named(library, named, why):
    # Named (as pre-commit names `incidents/.IL-0009.yaml`), a hidden file was checked as
    # an incident (IL203, IL204) and rewritten by fmt, a file in a hidden folder or not
    # named like an incident (`README.md`) was an IL107 error: exit 1 where a lint of the
    # library passes them over. `images/` said nothing at all.
    unformatted = passed_over_by_the_library(library)
    whole = run_curator("lint", "--format", "json", cwd=library)
    assert [f for f in json.loads(whole.out) if not f["path"].startswith("incidents/IL-")] == []
    run = run_curator("lint", "--format", "json", named, cwd=library)
    note = f"curator: note: {named} is not checked, as in a run over the library: {why}\n"
    assert (run.code, json.loads(run.out), run.err) == (0, [], note)
    # Beside a file it checks, the report is that file's alone.
    alone = run_curator("lint", "--format", "json", "incidents/IL-0002.yaml", cwd=library)
    both = run_curator("lint", "--format", "json", named, "incidents/IL-0002.yaml", cwd=library)
    assert (both.code, both.out, both.err) == (alone.code, alone.out, note)
    assert (
        "in 1 file checked" in run_curator("lint", named, "incidents/IL-0002.yaml", cwd=library).err
    )
    for command, done in (("fmt", "not formatted"), ("fix", "not fixed")):
        run = run_curator(command, named, cwd=library)
        assert run.code == 0, run
        assert f"curator: note: {named} is {done}, as in a run over the library: {why}" in run.err
    for name in PASSED_OVER:
        assert (library / "incidents" / name).read_text(encoding="utf-8") == unformatted, name


def test_a_library_under_a_hidden_folder_is_asked_about_each_folder_named_once(
    tmp_path, monkeypatch
):
    # Under a hidden folder (`~/.work/lib`), every file named took the way meant for the
    # hidden entries of incidents/: a look at each folder of its path, file after file
    # (3,000 files named of 10,000: 1.8 s of CPU where 1.0 s elsewhere). What is hidden
    # in the library is still passed over, the rest checked.
    files = {f"IL-{n:04d}.yaml": incident(f"IL-{n:04d}") for n in range(1, 31)}
    files["IL-0002.yaml"] = incident("IL-0002", ("    - nccl\n", "    - ncl\n"))
    root = write_library(tmp_path / ".work" / "lib", files)
    (root / "incidents" / ".archive").mkdir()
    for hidden in (".IL-0009.yaml", ".archive/IL-0009.yaml"):
        (root / "incidents" / hidden).write_text(incident("IL-0001"), encoding="utf-8")
    monkeypatch.chdir(root)
    named = [Path("incidents", name) for name in (".IL-0009.yaml", ".archive/IL-0009.yaml")]
    named += [Path("incidents", name) for name in files]
    looks: list[str] = []
    for name in ("stat", "lstat"):
        monkeypatch.setattr(os, name, counted(getattr(os, name), looks))
    passed = passed_over(named[:3])
    few = len(looks)
    assert passed_over(named) == passed and len(looks) == 2 * few
    assert passed == [
        (named[0], "it is hidden (its name starts with `.`)"),
        (named[1], "it is in a hidden folder"),
    ]
    monkeypatch.undo()
    alone = run_curator("lint", "--format", "json", "incidents/IL-0002.yaml", cwd=root)
    run = run_curator("lint", "--format", "json", *map(str, named), cwd=root)
    assert json.loads(alone.out) and (run.code, run.out) == (alone.code, alone.out)
    assert run.err == "".join(
        f"curator: note: {path} is not checked, as in a run over the library: {why}\n"
        for path, why in passed
    )


def counted(call: Any, calls: list[str]) -> Any:
    """`call`, which notes in `calls` the path of each call."""

    def counting(path: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(str(path))
        return call(path, *args, **kwargs)

    return counting


@pytest.mark.parametrize("command", ["similar", "suggest"])
def test_similar_and_suggest_leave_alone_what_a_run_over_the_library_passes_over(library, command):
    # A hidden copy of an incident was judged (`similar --all` never judges it).
    passed_over_by_the_library(library)
    named = ["incidents/.IL-0009.yaml", "incidents/IL-0001.yaml"]
    run = run_curator(command, "--format", "json", *named, cwd=library)
    assert run.code == 0, run
    assert [judged["input"] for judged in json.loads(run.out)] == ["incidents/IL-0001.yaml"]
    assert run.err == (
        "curator: note: incidents/.IL-0009.yaml is not judged, as in a run over the library: "
        "it is hidden (its name starts with `.`)\n"
    )


@pytest.mark.parametrize("command", ["similar", "suggest"])
def test_when_every_path_named_is_passed_over_similar_and_suggest_say_so(library, command):
    # After the note, it said "the folders given hold none", of a file named: untrue.
    passed_over_by_the_library(library)
    (library / "drafts").mkdir()
    hidden = (
        "curator: note: incidents/.IL-0009.yaml is not judged, as in a run over the library: "
        "it is hidden (its name starts with `.`)\n"
    )
    for named, why in (
        (["incidents/.IL-0009.yaml"], "every path given is passed over"),
        (["incidents/.IL-0009.yaml", "drafts"], "the other folders given hold none"),
    ):
        run = run_curator(command, "--format", "json", *named, cwd=library)
        assert (run.code, run.out, run.err) == (
            0,  # (docs/judgement.md: no input at all is no error)
            "[]\n",
            f"{hidden}curator: no incident to judge: {why}\n",
        )


@pytest.mark.parametrize("command", ["similar", "suggest"])
def test_a_file_in_a_subfolder_of_incidents_is_judged_as_a_draft_and_said_to_be(library, command):
    # It was judged as if the library held it, with not a word: lint reports it (IL107),
    # the library never reads it, and a contributor who filed it there would not know.
    (library / "incidents" / "2024").mkdir()
    copy = incident("IL-0001").replace("id: IL-0001", "id: IL-0100")
    (library / "incidents" / "2024" / "IL-0100.yaml").write_text(copy, encoding="utf-8")
    named = "incidents/2024/IL-0100.yaml"
    lint = run_curator("lint", "--format", "json", named, cwd=library)
    [(code, message)] = [(f["code"], f["message"]) for f in json.loads(lint.out)]
    assert (lint.code, code) == (1, "IL107")
    run = run_curator(command, "--format", "json", named, "incidents/IL-0002.yaml", cwd=library)
    assert run.code == 0, run
    judged = json.loads(run.out)
    assert [given["input"] for given in judged] == [named, "incidents/IL-0002.yaml"]
    assert run.err == (
        f"curator: note: {named} is judged as a draft, the library does not hold it: "
        f"{message} (IL107)\n"
    )
    if command == "similar":  # (as a draft: the incident it copies is its match)
        assert [match["id"] for match in judged[0]["matches"]][:1] == ["IL-0001"]


@pytest.mark.parametrize("command", ["similar", "suggest"])
@pytest.mark.parametrize("name", ["IL-0100.yml", "IL-0100.YAML"])
def test_a_file_in_incidents_the_library_does_not_read_is_judged_as_a_draft_and_said_to_be(
    library, command, name
):
    # It was judged as if the library held it, with not a word, where `--all` says it is
    # not judged: lint reports it (IL107) and the index never reads it.
    copy = incident("IL-0001").replace("id: IL-0001", "id: IL-0100")
    (library / "incidents" / name).write_text(copy, encoding="utf-8")
    named = f"incidents/{name}"
    lint = run_curator("lint", "--format", "json", named, cwd=library)
    [(code, message)] = [(f["code"], f["message"]) for f in json.loads(lint.out)]
    assert (lint.code, code) == (1, "IL107")
    run = run_curator(command, "--format", "json", named, cwd=library)
    assert run.code == 0, run
    assert [given["input"] for given in json.loads(run.out)] == [named]
    assert run.err == (
        f"curator: note: {named} is judged as a draft, the library does not hold it: "
        f"{message} (IL107)\n"
    )


def linked_to_a_folder_elsewhere(library: Path, elsewhere: Path) -> None:
    """A copy of an incident reached through links in incidents/ to a folder outside it,
    beside links that hide nothing: one to a file not meant as an incident, one to nothing."""
    elsewhere.mkdir()
    (elsewhere / "IL-0999.yaml").write_text(incident("IL-0001"), encoding="utf-8")
    (elsewhere / "notes.txt").write_text("메모\n", encoding="utf-8")
    incidents = library / "incidents"
    (incidents / "2024").symlink_to(elsewhere)
    (incidents / "archive").mkdir()
    (incidents / "archive" / "05").symlink_to(elsewhere)
    (incidents / "notes.txt").symlink_to(elsewhere / "notes.txt")
    (incidents / "gone").symlink_to(elsewhere / "gone")


def test_a_link_in_incidents_to_a_folder_is_reported_not_followed(library, tmp_path):
    # It was passed over in silence ("0 errors", exit 0), its target never looked at.
    linked_to_a_folder_elsewhere(library, tmp_path / "elsewhere")
    whole = run_curator("lint", "--format", "json", cwd=library)
    assert whole.code == 1
    reported = [f for f in json.loads(whole.out) if not f["path"].startswith("incidents/IL-")]
    assert [(f["path"], f["code"], f["message"]) for f in reported] == [
        (
            "incidents/2024",
            "IL107",
            "a symbolic link to a folder, not followed: the library reads only the files "
            "directly in incidents/; move any incidents it leads to there, and remove the link",
        ),
        (
            "incidents/archive",
            "IL107",
            "a folder holding what may be incidents (05 (a symbolic link to a folder, not "
            "followed)): the library reads only the files directly in incidents/",
        ),
    ]
    for given in ("incidents", "."):
        named = run_curator("lint", "--format", "json", given, cwd=library)
        assert (named.code, json.loads(named.out)) == (1, json.loads(whole.out))
    named = run_curator("lint", "--format", "json", "incidents/2024", cwd=library)
    assert (named.code, json.loads(named.out)) == (1, reported[:1])


@pytest.mark.parametrize(
    "named",
    [
        "incidents/2024/IL-0999.yaml",
        "incidents/archive/05/IL-0999.yaml",
        "incidents/2024/IL-0998.yaml",
        "incidents/gone/IL-0999.yaml",
        "incidents/notes.txt/IL-0999.yaml",
    ],
)
def test_a_file_named_through_a_link_in_incidents_is_reported_not_checked(library, tmp_path, named):
    # As pre-commit names it: it was checked where the link led, as an incident of the
    # library's (IL203, IL204 and IL502 against IL-0001). And where nothing was behind the
    # link (a file not there, a link to nothing or to a file) it was "no such file", exit
    # 2: the answer told whether a file exists outside the library. The link is the
    # problem, whatever it leads to.
    linked_to_a_folder_elsewhere(library, tmp_path / "elsewhere")
    run = run_curator("lint", "--format", "json", named, cwd=library)
    assert run.code == 1
    link = named.rpartition("/")[0]
    message = through_a_link(link)
    assert [(f["path"], f["code"], f["message"]) for f in json.loads(run.out)] == [
        (named, "IL107", message)
    ]
    fmt = run_curator("fmt", named, cwd=library)
    assert fmt.code == 1
    assert f"{named}:1:1: cannot format: {message} (IL107)" in fmt.err


def test_paths_named_through_two_links_to_one_folder_are_each_reported(library, tmp_path):
    # 2024 and archive/05 lead to the same folder: the second path was taken for the same
    # file as the first and dropped ("1 file checked"), which told where the links lead.
    linked_to_a_folder_elsewhere(library, tmp_path / "elsewhere")
    named = ["incidents/2024/IL-0999.yaml", "incidents/archive/05/IL-0999.yaml"]
    run = run_curator("lint", "--format", "json", *named, cwd=library)
    assert (run.code, [(f["path"], f["message"]) for f in json.loads(run.out)]) == (
        1,
        [(name, through_a_link(name.rpartition("/")[0])) for name in named],
    )


@pytest.mark.parametrize(
    ("named", "why"),
    [
        (
            "incidents/.2024/IL-0999.yaml",
            "it is named through a hidden link (its name starts with `.`)",
        ),
        (
            "incidents/.2024/IL-0998.yaml",
            "it is named through a hidden link (its name starts with `.`)",
        ),
        (
            "incidents/.gone/IL-0999.yaml",
            "it is named through a hidden link (its name starts with `.`)",
        ),
        ("incidents/.archive/05/IL-0999.yaml", "it is in a hidden folder"),
    ],
)
def test_a_file_named_through_a_hidden_link_in_incidents_is_passed_over(
    library, tmp_path, named, why
):
    # It was IL107, "named through incidents/.2024" (exit 1), where a run over the library
    # passes the hidden link over. Whether a file is behind it (IL-0998.yaml is
    # not), or anything at all (.gone), does not change the answer.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "IL-0999.yaml").write_text(incident("IL-0001"), encoding="utf-8")
    incidents = library / "incidents"
    (incidents / ".2024").symlink_to(elsewhere)
    (incidents / ".gone").symlink_to(elsewhere / "gone")
    (incidents / ".archive").mkdir()
    (incidents / ".archive" / "05").symlink_to(elsewhere)
    whole = run_curator("lint", "--format", "json", cwd=library)
    assert [f for f in json.loads(whole.out) if not f["path"].startswith("incidents/IL-")] == []
    run = run_curator("lint", "--format", "json", named, cwd=library)
    note = f"curator: note: {named} is not checked, as in a run over the library: {why}\n"
    assert (run.code, json.loads(run.out), run.err) == (0, [], note)
    fmt = run_curator("fmt", named, cwd=library)
    assert fmt.code == 0
    assert (
        f"curator: note: {named} is not formatted, as in a run over the library: {why}" in fmt.err
    )
    similar = run_curator("similar", "--format", "json", named, cwd=library)
    assert (similar.code, json.loads(similar.out)) == (0, [])
    assert (
        f"curator: note: {named} is not judged, as in a run over the library: {why}" in similar.err
    )


def through_a_link(link: str) -> str:
    return (
        f"named through {link}, a symbolic link, not followed: the library reads only the "
        "files directly in incidents/"
    )


@pytest.mark.parametrize(
    ("named", "message"),
    [
        ("incidents/up/schema/taxonomy/causes.yaml", through_a_link("incidents/up")),
        ("incidents/up/schema", through_a_link("incidents/up")),
        (
            "incidents/up",
            "a symbolic link to a folder, not followed: the library reads only the files "
            "directly in incidents/; move any incidents it leads to there, and remove the link",
        ),
    ],
)
def test_a_link_in_incidents_never_names_the_taxonomy(library, named, message):
    # `up`, a link to the library's root: each path was taken for the taxonomy, or a
    # folder holding it, and lint reported the whole library, where the link leads
    # deciding the answer; a path through a link elsewhere is one IL107.
    (library / "incidents" / "up").symlink_to("..")
    run = run_curator("lint", "--format", "json", named, cwd=library)
    assert (run.code, [(f["path"], f["code"], f["message"]) for f in json.loads(run.out)]) == (
        1,
        [(named, "IL107", message)],
    )


def test_where_a_link_in_incidents_leads_decides_where_a_file_named_through_it_is(
    library, tmp_path
):
    # `incidents/2024/../IL-0001.yaml` is, as the system reads it, a file beside the link's
    # target. It was reported as `incidents/IL-0001.yaml` "in a subfolder", with that
    # file's own findings, and fmt said the same of it.
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "2024").mkdir(parents=True)
    (elsewhere / "IL-0001.yaml").write_text(incident("IL-0002"), encoding="utf-8")
    incidents = library / "incidents"
    (incidents / "2024").symlink_to(elsewhere / "2024")
    (incidents / "IL-0001.yaml").write_text(incident("IL-0001", ("  - nccl", "  - ncl")), "utf-8")
    named = "incidents/2024/../IL-0001.yaml"
    run = run_curator("lint", "--format", "json", named, cwd=library)
    assert (run.code, [(f["path"], f["code"], f["message"]) for f in json.loads(run.out)]) == (
        1,
        [(named, "IL107", through_a_link("incidents/2024"))],
    )
    fmt = run_curator("fmt", "--check", named, cwd=library)
    assert fmt.code == 1
    assert f"{named}:1:1: cannot format: {through_a_link('incidents/2024')} (IL107)" in fmt.err
    # A folder named through the link is not listed (it was: the target's parent, here).
    folder = run_curator("lint", "--format", "json", "incidents/2024/..", cwd=library)
    assert (folder.code, [(f["path"], f["message"]) for f in json.loads(folder.out)]) == (
        1,
        [("incidents/2024/..", through_a_link("incidents/2024"))],
    )
    # Through no link, `..` leads back into incidents/: that file is the library's. Through
    # a link, even one to a folder of incidents/, it is not followed (see below).
    (incidents / "images").mkdir()
    (incidents / "inner").symlink_to("images")
    itself = run_curator("lint", "--format", "json", "incidents/IL-0001.yaml", cwd=library)
    assert itself.code == 1 and json.loads(itself.out)
    run = run_curator("lint", "--format", "json", "incidents/images/../IL-0001.yaml", cwd=library)
    assert (run.code, run.out) == (itself.code, itself.out)
    named = "incidents/inner/../IL-0001.yaml"
    run = run_curator("lint", "--format", "json", named, cwd=library)
    assert (run.code, [(f["path"], f["message"]) for f in json.loads(run.out)]) == (
        1,
        [(named, through_a_link("incidents/inner"))],
    )


@pytest.mark.parametrize("command", ["lint", "fmt", "similar", "suggest"])
def test_a_link_in_incidents_that_leads_back_in_is_not_followed_by_any_command(library, command):
    # `incidents/2024/IL-0002.yaml`, 2024 a link to incidents/ itself, was checked by lint
    # and fmt as incidents/IL-0002.yaml, where similar and suggest refused it (IL107) as
    # they refuse a path through any other link in incidents/. Named beside that file, it
    # was one file with it: similar and suggest judged neither when it came first.
    (library / "incidents" / "2024").symlink_to(".")
    through, itself = "incidents/2024/IL-0002.yaml", "incidents/IL-0002.yaml"
    reason = through_a_link("incidents/2024")
    if command == "lint":
        alone = run_curator("lint", "--format", "json", itself, cwd=library)
        run = run_curator("lint", "--format", "json", through, itself, cwd=library)
        found = json.loads(run.out)
        assert (run.code, found[1:]) == (1, json.loads(alone.out)) and found[1:]
        assert (found[0]["path"], found[0]["code"], found[0]["message"]) == (
            through,
            "IL107",
            reason,
        )
    elif command == "fmt":
        run = run_curator("fmt", "--check", through, itself, cwd=library)
        assert (run.code, run.err.splitlines()) == (
            1,
            [
                f"{through}:1:1: cannot format: {reason} (IL107)",
                "0 files would be reformatted, 1 unchanged, 1 could not be formatted",
            ],
        )
    else:
        run = run_curator(command, "--format", "json", through, itself, cwd=library)
        assert run.code == 2
        assert [judged["input"] for judged in json.loads(run.out)] == [itself]
        assert run.err.splitlines() == [
            f"curator: {through}: not an incident file: {reason} (IL107)",
            "curator: 1 of 2 inputs not judged",
        ]


def test_a_file_named_outside_incidents_is_checked_however_its_path_is_spelled(library):
    # `incidents/../drafts/IL-0009.yaml` passes through incidents/ but through no link: it
    # was IL107 "in a subfolder of incidents/", where `drafts/IL-0009.yaml` is checked.
    (library / "drafts").mkdir()
    (library / "drafts" / "IL-0009.yaml").write_text(incident("IL-0001"), encoding="utf-8")
    plain = run_curator("lint", "--format", "json", "drafts/IL-0009.yaml", cwd=library)
    assert plain.code == 1
    assert {f["code"] for f in json.loads(plain.out)} >= {"IL203", "IL204"}
    spelled = run_curator(
        "lint", "--format", "json", "incidents/../drafts/IL-0009.yaml", cwd=library
    )
    assert (spelled.code, spelled.out) == (plain.code, plain.out)


def test_one_mistake_is_one_finding_a_withdrawal_as_its_own_duplicate(tmp_path):
    text = incident("IL-0001", ("status: published", "status: withdrawn"))
    text += "duplicate_of: IL-0001\nwithdrawn_reason: |\n  같은 사건.\n"
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    run = run_curator("lint", "--root", str(root), "--format", "json")
    found = [(f["line"], f["code"], f["message"]) for f in json.loads(run.out)]
    assert found == [(28, "IL401", "duplicate_of names the incident itself")]  # not IL205 too


def test_a_file_named_outside_the_incidents_folder_is_checked_with_the_library(library):
    # A draft kept beside the library, named on the command line: checked against the
    # library's taxonomy and incidents, and reported under the name it was given.
    drafts = library / "drafts"
    drafts.mkdir()
    draft = incident("IL-0009", ("    - nccl\n", "    - ncl\n"))
    (drafts / "IL-0009.yaml").write_text(draft, encoding="utf-8")
    run = run_curator("lint", "--format", "json", "drafts/IL-0009.yaml", cwd=library)
    assert run.code == 1
    assert {(f["path"], f["code"]) for f in json.loads(run.out)} == {
        ("drafts/IL-0009.yaml", "IL301")
    }


def test_with_commit_and_no_git_a_file_outside_incidents_is_one_line_and_exit_2(library):
    # Its place in the repository, which the verdict hangs on, is git's to tell: without
    # git it was taken from the library's folder, and the verdict could differ from the
    # hook's and the review's without a word.
    (library / "incident").mkdir()
    (library / "incident" / "IL-0009.yaml").write_text(incident("IL-0001"), encoding="utf-8")
    no_git = {"PATH": str(Path(sys.executable).parent / "no-such-folder")}
    named = ("incident/IL-0009.yaml", "incidents/IL-0001.yaml")
    run = run_curator("lint", "--commit", *named, cwd=library, env=no_git)
    assert (run.code, run.out) == (2, ""), run
    assert run.err.endswith(
        "curator lint: git is not installed or not on PATH (--commit needs it for files "
        "outside incidents/) — see `python -m curator lint --help`\n"
    )
    assert len(run.err.splitlines()) == 1
    # A commit of incidents alone needs no git: checked as before.
    run = run_curator("lint", "--commit", "incidents/IL-0001.yaml", cwd=library, env=no_git)
    assert run.code == 0 and "in 1 file checked" in run.err, run


def test_with_commit_a_file_named_like_an_incident_outside_incidents_is_il107(library):
    # As the pre-commit hook names what a commit adds: the library never reads it, so it is
    # reported where it is, as `curator review` does, not checked as a draft (whose copied
    # id made IL-0001 a duplicate, IL204, and hid the real mistake).
    (library / "incident").mkdir()
    (library / "incident" / "IL-0009.yaml").write_text(incident("IL-0001"), encoding="utf-8")
    named = ("incident/IL-0009.yaml", "incidents/IL-0001.yaml")
    run = run_curator("lint", "--commit", "--format", "json", *named, cwd=library)
    assert run.code == 1
    assert [(f["path"], f["line"], f["code"], f["message"]) for f in json.loads(run.out)] == [
        (
            "incident/IL-0009.yaml",
            1,
            "IL107",
            "an incident outside incidents/: the library reads only the files directly in "
            "incidents/; move it to incidents/IL-0009.yaml",
        )
    ]
    drafted = run_curator("lint", "--format", "json", *named, cwd=library)  # (no --commit)
    assert {(f["path"], f["code"]) for f in json.loads(drafted.out)} >= {
        ("incident/IL-0009.yaml", "IL204"),
        ("incidents/IL-0001.yaml", "IL204"),
    }


def test_with_commit_a_draft_after_a_byte_order_mark_is_still_shaped_like_an_incident(library):
    # Notepad begins a UTF-8 file with U+FEFF: the line test (`^id:`) missed the first line
    # of such a draft, and `lint --commit` left the misplaced incident out, unchecked.
    (library / "drafts").mkdir()
    (library / "drafts" / "nccl.yaml").write_text("\ufeff" + incident("IL-0009"), "utf-8")
    (library / "drafts" / "app.yaml").write_text("\ufeffid: 3\nkind: x\n", "utf-8")
    run = run_curator("lint", "--commit", "--format", "json", "drafts/nccl.yaml", cwd=library)
    assert run.code == 1
    assert [(f["path"], f["line"], f["code"]) for f in json.loads(run.out)] == [
        ("drafts/nccl.yaml", 1, "IL107")
    ]
    left_out = run_curator("lint", "--commit", "drafts/app.yaml", cwd=library)
    assert (left_out.code, left_out.out) == (0, ""), left_out


def test_with_commit_a_draft_after_two_byte_order_marks_is_shaped_like_an_incident(library):
    # The line test allowed one mark: a draft begun with two (a file saved with a BOM, pasted
    # into another) was left out of `lint --commit`, unchecked, where in incidents/ the
    # loader reads past both (IL604 and IL606).
    (library / "drafts").mkdir()
    (library / "drafts" / "nccl.yaml").write_text("\ufeff\ufeff" + incident("IL-0009"), "utf-8")
    run = run_curator("lint", "--commit", "--format", "json", "drafts/nccl.yaml", cwd=library)
    assert run.code == 1
    assert [(f["path"], f["line"], f["code"]) for f in json.loads(run.out)] == [
        ("drafts/nccl.yaml", 1, "IL107")
    ]


def test_with_commit_yaml_outside_incidents_that_is_no_incident_is_left_out(library):
    # The hook names every such file, as its pattern cannot look inside one: `mkdocs.yml`
    # was an IL107 error ("extension '.yml'"), and a `.yaml` one a draft full of errors.
    # With every file left out, nothing is checked: not the whole library, as if none were
    # named (its error here would stop the commit).
    broken = incident("IL-0001", ("    - nccl\n", "    - ncl\n"))
    (library / "incidents" / "IL-0001.yaml").write_text(broken, encoding="utf-8")
    (library / "mkdocs.yml").write_text("site_name: 사건 목록\n", encoding="utf-8")
    (library / "deploy").mkdir()
    (library / "deploy" / "app.yaml").write_text("id: 3\nkind: x\n", encoding="utf-8")
    run = run_curator("lint", "--commit", "mkdocs.yml", "deploy/app.yaml", cwd=library)
    assert (run.code, run.out) == (0, ""), run
    assert "0 errors, 0 warnings in 0 files checked" in run.err


def test_with_commit_a_file_outside_incidents_that_is_no_incident_is_left_out(library, tmp_path):
    # Named by hand (the hook names none of them), each was taken for a draft and refused:
    # README.md and notes.json as IL107 "extension '.md': incident files end in .yaml", a
    # fixture under tests/ for its keys, where the hook and `curator review` leave them out.
    files = {
        "README.md": "# 사건 목록\n",
        "notes.json": '{"id": "IL-0001"}\n',
        "docs/topology.svg": "<svg/>\n",
        "tests/data/IL-0009.yaml": "a: 1\n",
        "tests/data/IL-0009.json": "{}\n",
        ".hidden.yaml": "a: 1\n",
    }
    for name, text in files.items():
        (library / name).parent.mkdir(parents=True, exist_ok=True)
        (library / name).write_text(text, encoding="utf-8")
    run = run_curator("lint", "--commit", *files, cwd=library)
    assert (run.code, run.out) == (0, ""), run
    assert "0 errors, 0 warnings in 0 files checked" in run.err
    # Outside the library's folder, a YAML draft is still checked as one, and no other file.
    (tmp_path / "notes.txt").write_text("메모\n", encoding="utf-8")
    draft = incident("IL-0009", ("    - nccl\n", "    - ncl\n"))
    (tmp_path / "IL-0009.yaml").write_text(draft, encoding="utf-8")
    elsewhere = (str(tmp_path / "notes.txt"), str(tmp_path / "IL-0009.yaml"))
    run = run_curator("lint", "--commit", "--format", "json", *elsewhere, cwd=library)
    assert run.code == 1, run
    assert {(Path(f["path"]).name, f["code"]) for f in json.loads(run.out)} == {
        ("IL-0009.yaml", "IL301")
    }


def test_a_file_outside_incidents_named_like_no_incident_is_passed_over_with_a_note(library):
    # `curator lint README.md` was IL107 "extension '.md': incident files end in .yaml",
    # as if README.md were an incident to rename, where the hook never names it and a
    # README.md in incidents/ is passed over with a note. A file named like an incident
    # keeps its finding, in incidents/ and outside it.
    files = {"README.md": "# 사건 목록\n", "docs/notes.json": "{}\n", "IL-0140.md": "# 메모\n"}
    files |= {"drafts/IL-0009.yml": incident("IL-0009"), "incidents/IL-0141.md": "# 메모\n"}
    for name, text in files.items():
        (library / name).parent.mkdir(parents=True, exist_ok=True)
        (library / name).write_text(text, encoding="utf-8")
    run = run_curator("lint", "--format", "json", *files, cwd=library)
    assert run.code == 1, run
    extension = "incident files end in .yaml"
    assert [(f["path"], f["code"], f["message"]) for f in json.loads(run.out)] == [
        ("IL-0140.md", "IL107", f"extension '.md': {extension}"),
        ("drafts/IL-0009.yml", "IL107", f"extension '.yml': {extension}"),
        ("incidents/IL-0141.md", "IL107", f"extension '.md': {extension}"),
    ]
    why = (
        "it is outside incidents/ and not named like an incident (`IL-…`, `.yaml` or `.yml`), "
        "so it is neither an incident nor a draft of one"
    )
    assert run.err.splitlines() == [
        f"curator: note: {name} is not checked: {why}" for name in ("README.md", "docs/notes.json")
    ]
    alone = run_curator("lint", "README.md", cwd=library)  # (not the library's errors either)
    assert (alone.code, alone.out) == (0, ""), alone
    assert "0 errors, 0 warnings in 0 files checked" in alone.err
    judged = run_curator("similar", "README.md", cwd=library)
    assert judged.code == 0 and f"curator: note: README.md is not judged: {why}" in judged.err


def test_with_commit_files_are_judged_by_their_place_in_a_repository_holding_the_library(
    tmp_path,
):
    # The library in `data/` of its repository, the hook run at the repository's top as
    # pre-commit runs it: a fixture in tests/ there was checked as a draft and refused,
    # mkdocs.yml refused by its extension, and IL-0140.json left out, unchecked; the
    # review judges each by its place in the repository, as the commit now does.
    repository = tmp_path / "repo"
    write_library(repository / "data", {"IL-0001.yaml": incident("IL-0001")})
    subprocess.run(["git", "init", "-q", str(repository)], check=True)
    files = {
        "tests/fixture.yaml": "id: IL-0001\ntitle: 시험\n",
        "mkdocs.yml": "site_name: 사건 목록\n",
        "IL-0140.json": "{}\n",
        "drafts/nccl.yaml": incident("IL-0009"),
        "data/IL-0141.json": "{}\n",
    }
    for name, text in files.items():
        (repository / name).parent.mkdir(parents=True, exist_ok=True)
        (repository / name).write_text(text, encoding="utf-8")
    run = run_curator(
        "lint", "--commit", "--root", "data", "--format", "json", *files, cwd=repository
    )
    assert run.code == 1, run
    assert [(f["path"], f["code"]) for f in json.loads(run.out)] == [
        ("IL-0140.json", "IL107"),
        ("data/IL-0141.json", "IL107"),
        ("drafts/nccl.yaml", "IL107"),
    ]


def test_with_commit_an_incident_outside_is_told_the_librarys_folder_as_paths_are_shown(
    tmp_path,
):
    # It was told `move it to incidents/IL-0140.yaml` with the library in `data/`: moved so
    # from the repository's top, where the hook runs, the library still did not read it.
    repository = tmp_path / "repo"
    write_library(repository / "data", {"IL-0001.yaml": incident("IL-0001")})
    subprocess.run(["git", "init", "-q", str(repository)], check=True)
    (repository / "IL-0140.json").write_text("{}\n", encoding="utf-8")
    (repository / "drafts").mkdir()
    (repository / "drafts" / "nccl.yaml").write_text(incident("IL-0009"), encoding="utf-8")
    outside = "an incident outside {0}: the library reads only the files directly in {0}; "
    for cwd, named, folder in (
        (repository, ("IL-0140.json", "drafts/nccl.yaml"), "data/incidents/"),
        (repository / "data", ("../IL-0140.json", "../drafts/nccl.yaml"), "incidents/"),
        (repository / "drafts", ("../IL-0140.json", "nccl.yaml"), "../data/incidents/"),
    ):
        args = ("lint", "--commit", "--root", str(repository / "data"), "--format", "json")
        run = run_curator(*args, *named, cwd=cwd)
        assert run.code == 1, run
        told = outside.format(folder)
        assert [(f["path"], f["message"]) for f in json.loads(run.out)] == [
            (named[0], f"{told}move it to {folder}IL-0140.yaml"),
            (named[1], f"{told}move it to {folder}, named after its id"),
        ]


# The environment git gives its hooks when told where the repository is: `git
# --git-dir=… --work-tree=. commit` (a repository kept apart from its files), and `git
# --git-dir=… commit` run at the work tree's top.
TOLD_WHERE = {"work tree": {"GIT_WORK_TREE": "."}, "git dir only": {}}


@pytest.mark.parametrize("told", TOLD_WHERE.values(), ids=TOLD_WHERE)
def test_with_commit_files_are_judged_by_the_repository_git_names_as_the_review_does(
    tmp_path, told
):
    # lint looked for a `.git` above the library and found none: the files a commit named
    # were taken for drafts kept outside the repository (IL-0141.yaml checked, and passed;
    # IL-0140.json left out), and the review asked git from the library's folder, which git
    # then took for the work tree's top, and stopped ("no library at …").
    work, git_dir = tmp_path / "work", tmp_path / "repository.git"
    write_library(work / "data", {"IL-0001.yaml": incident("IL-0001")})
    subprocess.run(["git", "init", "-q"], cwd=work, check=True)
    (work / ".git").rename(git_dir)
    env = {"GIT_DIR": str(git_dir), **told}
    author = ("-c", "user.name=Test", "-c", "user.email=test@example.com")
    for args in (("add", "."), ("commit", "-qm", "library")):
        subprocess.run(["git", *author, *args], cwd=work, env={**os.environ, **env}, check=True)
    files = {"IL-0140.json": "{}\n", "IL-0141.yaml": incident("IL-0141")}
    for name, text in files.items():
        (work / name).write_text(text, encoding="utf-8")
    for args in (("add", "."), ("commit", "-qm", "misplaced")):
        subprocess.run(["git", *author, *args], cwd=work, env={**os.environ, **env}, check=True)
    run = run_curator(
        "lint", "--commit", "--root", "data", "--format", "json", *files, cwd=work, env=env
    )
    assert run.code == 1, run
    assert [(f["path"], f["code"]) for f in json.loads(run.out)] == [
        ("IL-0140.json", "IL107"),
        ("IL-0141.yaml", "IL107"),
    ]
    args = ("review", "--root", "data", "--base", "HEAD~1", "--format", "json")
    reviewed = run_curator(*args, cwd=work, env=env)
    assert reviewed.code == 1, reviewed
    report = json.loads(reviewed.out)
    assert [(f["path"], [x["code"] for x in f["findings"]]) for f in report["files"]] == [
        ("IL-0140.json", ["IL107"]),
        ("IL-0141.yaml", ["IL107"]),
    ]


def test_with_commit_notes_and_media_named_like_an_incident_are_left_out(library):
    # A diagram or a PDF of an incident, named by its id, was "an incident outside
    # incidents/" (IL107): a commit adding one stopped, with no way past but --no-verify.
    media = {"docs/img/IL-0001.png": b"\x89PNG\r\n\x1a\n\0", "IL-0001.PDF": b"%PDF-1.7\n"}
    for name, data in media.items():
        (library / name).parent.mkdir(parents=True, exist_ok=True)
        (library / name).write_bytes(data)
    (library / "IL-0002.bak").write_text(incident("IL-0002"), encoding="utf-8")
    run = run_curator("lint", "--commit", "--format", "json", *media, "IL-0002.bak", cwd=library)
    assert run.code == 1, run
    assert [(f["path"], f["code"]) for f in json.loads(run.out)] == [("IL-0002.bak", "IL107")]


def test_findings_at_one_place_are_in_the_order_of_their_codes_on_every_run(tmp_path):
    # IL203 and IL204 both at IL-0002.yaml:1:5. The report is sorted by place, then code,
    # then message; ties must not be left in the order of a set, which changes with the
    # process's hash seed (a CI log that reorders itself from run to run).
    copied = incident("IL-0001", ("postmortems/IL-0001", "postmortems/other"))
    root = write_library(
        tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001"), "IL-0002.yaml": copied}
    )
    outputs = {
        run_curator(
            "lint", "--no-cache", "--format", "json", cwd=root, env={"PYTHONHASHSEED": seed}
        ).out
        for seed in ("0", "1", "2", "3", "4", "5")
    }
    [output] = outputs
    codes = [f["code"] for f in json.loads(output) if f["path"] == "incidents/IL-0002.yaml"]
    assert codes == ["IL203", "IL204"]


def test_the_command_leaves_at_once_with_its_status_and_all_of_its_output():
    # `curator.cli.run` skips Python's teardown (os._exit): what was printed, more than
    # standard output's buffer holds, must still all arrive, with the status the command
    # chose.
    from click.testing import CliRunner

    import curator.cli

    expected = CliRunner().invoke(curator.cli.main, ["rules", "--format", "markdown"]).output
    assert len(expected) > io.DEFAULT_BUFFER_SIZE
    shown = run_curator("rules", "--format", "markdown")
    assert (shown.code, shown.out) == (0, expected)
    broken = REPO / "tests" / "data" / "broken"
    found = run_curator("lint", "--root", str(broken), "--format", "json", "--no-cache")
    assert found.code == 1 and len(json.loads(found.out)) > 20
    assert run_curator("lint", "--no-such-flag").code == 2


def test_a_run_ended_with_a_message_says_it_and_exits_2():
    program = "import sys, curator.cli as c; c.main = lambda: sys.exit('a message'); c.run()"
    ended = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert (ended.returncode, ended.stderr) == (2, "a message\n")
