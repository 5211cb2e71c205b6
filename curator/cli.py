"""The `curator` command: parse flags, call the library, print. Nothing else lives here.

Exit status is public API: 0 clean (warnings allowed), 1 findings, 2 usage or internal error.
"""

from __future__ import annotations

import contextlib
import difflib
import errno
import io
import json
import os
import sys
import time
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar
from urllib.parse import urlsplit

import click

from curator import WEBSITE, __version__, new
from curator.findings import Finding
from curator.fix import Fixed, fix_files
from curator.fmt import format_files, incident_files
from curator.ids import CannotAssign, assign
from curator.ids_git import GitError, assign_and_push, deleted_numbers
from curator.library import Library, NotALibrary, link_within_incidents
from curator.lint import (
    NO_DRAFT,
    GitMissing,
    commit_scope,
    display_path,
    expand,
    fold_unread_taxonomy,
    has_errors,
    lint,
    passed_over,
    scope,
)
from curator.new import (
    STATUSES,
    DraftError,
    Given,
    TaxonomyError,
    bilingual,
    evidence,
    gather,
    write_draft,
)
from curator.oneline import escaped
from curator.progress import Progress
from curator.report import FORMATS, render, summary
from curator.ruledocs import rules_markdown, rules_table
from curator.signals import Terminated, deferred, said, stop_behind
from curator.write.atomic import temporary_folder
from curator.write.canonical import Refused
from curator.write.changes import what_changed

if TYPE_CHECKING:  # (imported where used, as the commands that judge load it)
    from curator.similarity.commands import LeftOut

F = TypeVar("F", bound=Callable[..., Any])

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class CuratorCommand(click.Command):
    """A command (or group) whose usage errors all name it. click's reader of the command
    line raises an option without its value, and a flag given one (`--format`,
    `--quiet=1`), without the command they are about: they were said as `curator`'s,
    sending the user to `curator --help`."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            exc.ctx = exc.ctx or ctx
            raise


# Whether the command line runs `curator new`, which says a stop in Korean first too.
_KOREAN_FIRST = "curator.korean_first"


class CuratorGroup(CuratorCommand, click.Group):
    """Turns any unexpected exception into one line and exit status 2, never a traceback."""

    command_class = CuratorCommand
    group_class = type  # (`curator github` is one too, and its commands CuratorCommands)

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        # Reading the command line (and printing --help or --version) comes before `invoke`:
        # a stop there reached click's own handler, "Aborted!" and exit 1, that of findings.
        # `curator new` says it in Korean first, known by its name as `__main__` knows it
        # (before click reads, which may consume `args`).
        korean_first = parent is None and args[:1] == ["new"]
        try:
            ctx = super().make_context(info_name, args, parent, **extra)
        except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM or SIGHUP (curator.signals)
            click.echo(said(stop, korean_first=korean_first), err=True)
            raise click.exceptions.Exit(EXIT_ERROR) from None
        except click.UsageError as exc:  # `curator --nope`
            _usage_error(exc)
        if parent is None:  # (and a stop later, as new's options are read or it runs: `invoke`)
            ctx.meta[_KOREAN_FIRST] = korean_first
        return ctx

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:  # a command's flags or arguments, or its own refusal
            _usage_error(exc)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except NotALibrary as exc:
            click.echo(f"curator: {exc}", err=True)
            ctx.exit(EXIT_ERROR)
        except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM or SIGHUP (curator.signals)
            click.echo(said(stop, korean_first=ctx.meta.get(_KOREAN_FIRST, False)), err=True)
            ctx.exit(EXIT_ERROR)
        except BrokenPipeError:
            # The reader went away (`curator fmt --diff | head`). Point stdout at devnull so
            # that flushing it at exit does not fail a second time.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            click.echo("curator: output closed before all of it was written", err=True)
            ctx.exit(EXIT_ERROR)
        except OSError as exc:
            # The system refused (a folder that cannot be read, a full disk): not a bug in
            # curator, and the path with the reason says what to do about it.
            click.echo(refused(exc), err=True)
            ctx.exit(EXIT_ERROR)
        except Exception as exc:
            wrapped = stop_behind(exc)  # (a stop as a module loads, on Python 3.11)
            internal = f"curator: internal error: {type(exc).__name__}: {exc}"
            korean_first = ctx.meta.get(_KOREAN_FIRST, False)
            click.echo(said(wrapped, korean_first=korean_first) if wrapped else internal, err=True)
            ctx.exit(EXIT_ERROR)


def refused(exc: OSError) -> str:
    """The one line for what the system refused: the file, or standard output, and why."""
    if exc.filename == STANDARD_OUTPUT:
        return f"curator: cannot write {STANDARD_OUTPUT}: {exc.strerror or exc}"
    where = f"{exc.filename}: " if exc.filename else ""
    return f"curator: {where}{exc.strerror or exc}"


# `curator github` alone: click shows the group's help (and exits 2), not an error line.
_HELP_INSTEAD = getattr(click.exceptions, "NoArgsIsHelpError", ())


class KoreanFirstUsageError(click.UsageError):
    """A usage error said in Korean first, the English after it in brackets (`curator
    new`'s): where its options are explained is said so too."""


class KoreanFirstCommand(CuratorCommand):
    """`curator new`: click's own usage errors (an option it does not have, an option
    without its value or with one it takes none of, a value not among an option's choices,
    words given without an option) in Korean first too, as new's own are, the English
    after it as click says it."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except KoreanFirstUsageError:
            raise
        except click.UsageError as exc:
            korean_first = _korean_first(exc, ctx)
            if korean_first is None:
                raise
            raise KoreanFirstUsageError(korean_first, ctx) from exc

    def invoke(self, ctx: click.Context) -> Any:
        """A library not found in Korean first too. (A stop, as its options are read or as
        it runs, `CuratorGroup.invoke` says so.)"""
        try:
            return super().invoke(ctx)
        except NotALibrary as exc:
            click.echo(f"curator: {new.no_library(exc)}", err=True)
        ctx.exit(EXIT_ERROR)


def _korean_first(exc: click.UsageError, ctx: click.Context) -> str | None:
    """`exc` as `new` says it, or None for a usage error it has no words for."""
    english = exc.format_message().removesuffix(".")  # (click ends its own with a stop)
    if isinstance(exc, click.NoSuchOption):
        near = difflib.get_close_matches(exc.option_name, exc.possibilities or [])
        return new.unknown_option(exc.option_name, sorted(near), english)
    if isinstance(exc, click.BadOptionUsage):
        option = next((p for p in ctx.command.params if exc.option_name in p.opts), None)
        flag = isinstance(option, click.Option) and option.is_flag
        return (new.value_not_taken if flag else new.value_missing)(exc.option_name, english)
    # (A value refused otherwise is refused by new's own callbacks, in Korean first.)
    param = exc.param if isinstance(exc, click.BadParameter) else None
    if param is not None and isinstance(param.type, click.Choice):
        choices = [str(choice) for choice in param.type.choices]
        return new.bad_value(param.opts[0], choices, english)
    # (The one usage error of `Command.parse_args` itself: words given without an option.)
    return new.not_an_option(english) if type(exc) is click.UsageError else None


def _usage_error(exc: click.UsageError) -> NoReturn:
    """One line, naming the command and where its options are explained, where click
    prints the usage, a hint and the error on four lines; exit status 2. A line each for
    several problems, each naming the command, the last where the options are explained."""
    if isinstance(exc, _HELP_INSTEAD):
        raise exc
    command = exc.ctx.command_path if exc.ctx is not None else "curator"
    message = exc.format_message().removesuffix(".")  # (click ends its own with a stop)
    see = f"see `{command} --help`"
    if isinstance(exc, KoreanFirstUsageError):
        see = bilingual(f"`{command} --help` 를 보세요", see)
    click.echo(_each_line(command, f"{message} — {see}"), err=True)
    raise click.exceptions.Exit(EXIT_ERROR)


def _each_line(command: str, message: str) -> str:
    return "\n".join(f"{command}: {line}" for line in message.split("\n"))


def _utf8(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """Text typed on the command line must be UTF-8: other bytes arrive as lone surrogates
    (PEP 383), which no file or JSON that curator writes can hold. So does UTF-8 itself
    where the locale's encoding is ASCII (LC_ALL=C without Python's UTF-8 mode): that is
    read again as UTF-8, as click writes UTF-8 to a terminal that says ASCII."""
    if isinstance(value, tuple):
        return tuple(_as_utf8(text, sys.getfilesystemencoding()) for text in value)
    return value if value is None else _as_utf8(value, sys.getfilesystemencoding())


def _as_utf8(text: str, encoding: str) -> str:
    """`text`, decoded from `encoding` with surrogateescape, as the UTF-8 its bytes are; a
    BadParameter if they are not UTF-8."""
    if not any("\udc80" <= c <= "\udcff" for c in text):
        return text
    try:
        return text.encode(encoding, "surrogateescape").decode("utf-8")
    except UnicodeError:
        _check_utf8(text)
        raise


def _check_utf8(text: str) -> None:
    """A BadParameter if `text` holds bytes that were not UTF-8 (as lone surrogates)."""
    byte = _not_utf8(text)
    if byte is not None:
        raise click.BadParameter(f"{text!r} is not UTF-8 text (byte 0x{byte:02X})")


def _not_utf8(text: str) -> int | None:
    """The first byte of `text` that was not UTF-8 (held as a lone surrogate), or None."""
    undecodable = next((c for c in text if "\udc80" <= c <= "\udcff"), None)
    return None if undecodable is None else ord(undecodable) - 0xDC00


def _utf8_korean_first(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """`_utf8`, for `curator new`: what it refuses is said in Korean first, as new's other
    errors are, the English after it in brackets as it was."""
    try:
        return _utf8(ctx, param, value)
    except click.BadParameter as exc:
        texts = value if isinstance(value, tuple) else (value,)
        byte = next(b for b in map(_not_utf8, texts) if b is not None)
        korean = f"{param.opts[0]} 값이 UTF-8 글자가 아닙니다(바이트 0x{byte:02X})"
        english = f"Invalid value for {param.get_error_hint(ctx)}: {exc.message}"
        raise KoreanFirstUsageError(bilingual(korean, english), ctx) from exc


def format_option(choices: Sequence[str], help: str, default: str = "text") -> Callable[[F], F]:
    """`--format`: what a command prints, for people or for machines; each says how."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(list(choices)),
        default=default,
        show_default=True,
        help=help,
    )


def quiet_option(help: str) -> Callable[[F], F]:
    """`-q/--quiet`: long runs show progress on a terminal unless told not to."""
    return click.option("-q", "--quiet", is_flag=True, help=help)


# One option a taxonomy dimension: (its flag's name, the dimension, what one term of it is).
_TERM_FLAGS = (
    ("cause", "causes", "cause"),
    ("component", "components", "component"),
    ("symptom", "symptoms", "symptom"),
    ("factor", "contributing_factors", "contributing factor"),
)


def term_options(
    parameter: Callable[[str], str],
    help: Callable[[str, str], str],
    callback: Callable[[click.Context, click.Parameter, Any], Any] = _utf8,
) -> Callable[[F], F]:
    """`--cause`, `--component`, `--symptom` and `--factor`, each repeatable, each taking a
    term by its id, label or alias: `parameter` names the function's argument from the
    flag's name, `help` says what the option does from the dimension and a term's noun,
    `callback` refuses text that is not UTF-8."""

    def options(command: F) -> F:
        for flag, dimension, noun in reversed(_TERM_FLAGS):  # (click lists the last added first)
            option = click.option(
                f"--{flag}",
                parameter(flag),
                multiple=True,
                metavar="TERM",
                callback=callback,
                help=help(dimension, noun),
            )
            command = option(command)
        return command

    return options


def no_cache_option(what: str) -> Callable[[F], F]:
    """`--no-cache`: the commands that keep results in `.curator-cache/` can do without."""
    return click.option(
        "--no-cache",
        is_flag=True,
        help=f"{what} every file afresh; neither read nor write .curator-cache/ (it is safe to "
        "delete at any time).",
    )


def jobs_option(command: F) -> F:
    """`-j/--jobs`: the commands that handle every file of a large library use one worker
    process per CPU unless told otherwise (a shared CI runner, say)."""
    return click.option(
        "--jobs",
        "-j",
        type=click.IntRange(min=1),
        default=None,
        help="Worker processes for large libraries (at most four per CPU). Default: one per CPU.",
    )(command)


def paths_argument(command: F) -> F:
    """`PATHS` of lint, fmt, fix, similar and suggest: a file or folder the user may not
    read is still one to report (IL107, as when it is found in incidents/), not a usage
    error, so click is not asked to check it can be read (`_existing` checks it is there)."""
    return click.argument("paths", nargs=-1, type=click.Path(readable=False, path_type=Path))(
        command
    )


_ROOT_HELP = (
    "The library root (holds incidents/ and schema/). Default: found from the current "
    "directory upward."
)
_FOLDER = click.Path(file_okay=False, path_type=Path)


def root_option(command: F) -> F:
    return click.option("--root", type=_FOLDER, default=None, help=_ROOT_HELP)(command)


def _root_korean_first(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    """`--root` of `curator new`: a file, or a folder that cannot be read, is refused in
    Korean first too, as new's other errors are, the English after it as click says it."""
    if value is None:
        return None
    try:
        return _FOLDER.convert(value, param, ctx)
    except click.BadParameter as exc:
        english = f"Invalid value for {param.get_error_hint(ctx)}: {exc.message}"
        korean_first = new.root_refused(value, os.path.isfile(value), english.removesuffix("."))
        raise KoreanFirstUsageError(korean_first, ctx) from exc


@click.group(cls=CuratorGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="curator")
def main() -> None:
    """Tools for the Incident Library: lint, format, judge and export incident reports.

    Exit status: 0 when all is well (warnings allowed); 1 for findings or a refusal (each
    command's --help says which); 2 for a usage error, an internal error, or a run stopped
    (Ctrl-C, SIGTERM).
    """
    # A file name that is not UTF-8 is text with lone surrogates here (PEP 383). Printed
    # as `\udcff`, it cannot fail the run, and in JSON output it is the escape that reads
    # back as the same name.
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    # An answer to `curator new` that is not UTF-8 is read as lone surrogates too, to be
    # refused and asked again (`_ask`), not to fail the run with a UnicodeDecodeError.
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="surrogateescape")


@main.command("lint", short_help="Check incidents against the schema, the taxonomy and the rules.")
@paths_argument
@root_option
@format_option(
    FORMATS,
    "text: `path:line:col: CODE [severity] message` lines; json: a list of findings; "
    "github: a workflow annotation per finding.",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress line and no summary line.")
@click.option("--release", is_flag=True, help="Check as for a release: placeholder ids are errors.")
@click.option(
    "--commit",
    is_flag=True,
    help="Check as for a commit (the pre-commit hook). Outside incidents/ (but for tests/, "
    "examples/, benchmarks/, schema/ and hidden files): a file of PATHS named like an "
    "incident (IL-0140.yaml, IL-0140.json; not notes or media: IL-0140.md, IL-0140.png), or a "
    ".yaml or .yml file holding top-level id: and title: lines, is an error, IL107, not a "
    "draft to check. Any other file outside incidents/ is left out, but a YAML draft kept "
    "outside the library's git repository. Paths are taken from the repository's top, "
    "wherever in it the library is.",
)
@no_cache_option("Check")
@jobs_option
def lint_command(
    paths: tuple[Path, ...],
    root: Path | None,
    fmt: str,
    quiet: bool,
    release: bool,
    commit: bool,
    no_cache: bool,
    jobs: int | None,
) -> None:
    """Check incidents against the schema, the taxonomy and the project's rules.

    With PATHS, report on those files only; rules that span files still see the whole
    library. A taxonomy file among them, or a folder holding the taxonomy (schema/, the
    library's root), stands for the whole library, which depends on it. A file outside
    incidents/ is checked as a draft if it is a .yaml or .yml file or named IL-…; any
    other is left out, with a note.
    Exit 0 when there is no error (warnings allowed), 1 when there is one.
    """
    _named(paths, "not checked")
    library = Library.at(root).listed()  # (lint and the summary line count the same files)
    checked = _lint_scope(library, paths, commit)
    started = time.perf_counter()
    with Progress("linting", enabled=not quiet) as progress:
        findings = (
            lint(
                library,
                checked,
                release=release,
                cache=not no_cache,
                jobs=jobs,
                progress=progress,
                held=_held_till_exit,
                commit=commit,
            )
            if checked is not None
            else []
        )
    findings = fold_unread_taxonomy(findings, library.taxonomy)
    click.echo(render(findings, fmt), nl=False)
    if not quiet and fmt == "text":
        files = (
            len(library.incident_names()) if checked == () else len(expand(library, checked or ()))
        )
        elapsed = time.perf_counter() - started
        click.echo(f"{summary(findings, files)} ({elapsed:.2f}s)", err=True)
    sys.exit(EXIT_FINDINGS if has_errors(findings) else EXIT_CLEAN)


def _lint_scope(library: Library, paths: tuple[Path, ...], commit: bool) -> tuple[Path, ...] | None:
    """The paths lint checks (none: the whole library, as `scope` says); None for nothing
    to check: with `commit`, files that are all YAML files outside incidents/ but no
    incidents (`commit_scope`), which the pre-commit hook names without looking inside."""
    scoped = tuple(scope(library, paths))
    if not (commit and scoped):
        return scoped
    try:
        return tuple(commit_scope(library, scoped)) or None
    except GitMissing as exc:
        raise click.UsageError(str(exc)) from exc


@main.command("rules", short_help="List the lint rules and which `curator fix` can fix.")
@format_option(
    ["text", "json", "markdown"],
    "text: a table; json: the same for machines; markdown: docs/rules.md, with examples.",
)
def rules_command(fmt: str) -> None:
    """List the lint rules: code, name, severity, whether `curator fix` can fix it."""
    if fmt == "markdown":
        click.echo(rules_markdown(), nl=False)
        return
    table = rules_table()
    if fmt == "json":
        click.echo(json.dumps(table, ensure_ascii=False, indent=2))
        return
    for row in table:
        fix = "fix" if row["fixable"] else "   "
        click.echo(
            f"{row['code']}  {row['severity']:<7}  {fix}  {row['name']:<22}  {row['summary']}"
        )


@main.command("export", short_help="Write the library at HEAD as versioned JSON, CSV and Atom.")
@root_option
@click.option(
    "--out",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder to write; replaced as a whole, and only once the new export is complete.",
)
@click.option(
    "--version",
    "version",
    default=None,
    metavar="TAG",
    callback=lambda ctx, param, value: _one_line(_utf8(ctx, param, value)),
    help="Library version to record. Default: the tag at HEAD (of the highest version, if it "
    "has several), else `git describe` from the previous release.",
)
@click.option(
    "--since",
    default=None,
    metavar="REV",
    callback=lambda ctx, param, value: _not_blank(value),
    help="Revision that changes.json and feed.atom compare with. Default: the previous release.",
)
@click.option(
    "--base-url",
    default=WEBSITE,
    metavar="URL",
    show_default=True,
    callback=lambda ctx, param, value: _web_address(_utf8(ctx, param, value)),
    help="Where the exports are published: the feed links <base>latest/incidents/<id>.json. "
    "The default is a placeholder, which `curator github release` refuses.",
)
@format_option(
    FORMATS,
    "How to print the findings of the export's lint, as `curator lint --release --format` "
    "does: the errors that refuse the export, and warnings.",
)
@no_cache_option("Lint and read")
@quiet_option("No progress line and no closing summary.")
@jobs_option
def export_command(
    root: Path | None,
    out: Path,
    version: str | None,
    since: str | None,
    base_url: str,
    fmt: str,
    no_cache: bool,
    quiet: bool,
    jobs: int | None,
) -> None:
    """Write the library at HEAD as versioned JSON, CSV and Atom (see docs/export.md).

    Lints every file as `curator lint --release` does, and prints what it finds. Refuses
    (exit 1) when lint finds an error or an id is still a placeholder; exit 2 when the
    library is not a clean git checkout with its full history, when --since names no
    commit, when a taxonomy term of the release it compares with is gone, or when --out is
    a folder it may not replace.
    """
    # (Imported here: the export's models cost ~0.1 s to build, which `curator lint`, run
    # on every commit, should not pay. Deferred, as at start-up: see `curator.__main__`.)
    with deferred():
        from curator.export import ExportError, ExportOptions, ExportRefused, export

    library = Library.at(root)
    try:
        progress = None if quiet else Progress
        options = ExportOptions(
            version, since, base_url, cache=not no_cache, jobs=jobs, progress=progress
        )
        exported = export(library, out, options, held=_held_till_exit)
    except ExportRefused as refused:
        click.echo(render(refused.findings, fmt), nl=False)
        _say_notes(refused.notes)
        count = len(refused.errors)
        click.echo(f"curator: export refused: {count} error(s) under lint --release", err=True)
        sys.exit(EXIT_FINDINGS)
    except ExportError as exc:
        _say_notes(exc.notes)
        click.echo(f"curator: export failed: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    click.echo(render(exported.findings, fmt), nl=False)
    _say_notes(exported.notes)
    manifest = exported.manifest
    if quiet:
        return
    commit = manifest.commit[:12]  # before the first tag, the version is this short id
    version = manifest.version if manifest.version == commit else f"{manifest.version} ({commit})"
    click.echo(f"exported {manifest.counts.incidents} incidents, {version}, to {out}", err=True)


def _say_notes(notes: Iterable[str]) -> None:
    """What the export passed over, on standard error, before how it ended."""
    for note in notes:
        click.echo(escaped(f"curator: note: {note}"), err=True)


def repo_option(command: F) -> F:
    return click.option(
        "--repo",
        "repo_name",
        required=True,
        callback=_utf8,
        metavar="OWNER/NAME",
        help="The repository.",
    )(command)


@main.group("github", short_help="Post the review comment; attach an export to a release.")
def github_group() -> None:
    """Talk to GitHub (token from GITHUB_TOKEN, API from GITHUB_API_URL)."""


@github_group.command("release", short_help="Attach an export to the GitHub release of a tag.")
@repo_option
@click.option(
    "--tag", required=True, callback=_utf8, metavar="TAG", help="The release's tag, e.g. v1.2.0."
)
@click.option(
    "--dir",
    "export_dir",
    required=True,
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    help="The folder `curator export` wrote.",
)
def github_release_command(repo_name: str, tag: str, export_dir: Path) -> None:
    """Attach an export to the GitHub release of TAG, creating the release if needed.

    Uploads the export's top-level files and a zip of the whole export; assets of the same
    name are replaced, so a failed run can be repeated. A new tag is made at the export's
    commit. Refuses (exit 1) when TAG names another commit; exit 2 when it could not publish,
    or when the export's feed links to the placeholder site (an export without --base-url).
    """
    # Importing PyGithub adds ~0.1 s to every start-up; only this command needs it.
    with deferred():
        from curator.export.publish import (
            PublishError,
            TagElsewhere,
            exported_commit,
            publish,
            release_assets,
            tag_problem,
        )
        from curator.github.client import GitHubError
        from curator.review.links import valid_repository

    if not valid_repository(repo_name):
        raise click.BadParameter("OWNER/NAME expected", param_hint="--repo")
    refused = tag_problem(tag)
    if refused:
        message = f"{tag!r} is not a tag name git allows: {refused}"
        raise click.BadParameter(message, param_hint="--tag")

    try:
        with temporary_folder() as workdir:
            assets = release_assets(export_dir, tag, workdir)
            published = publish(repo_name, tag, exported_commit(export_dir), assets)
    except TagElsewhere as refused:
        click.echo(f"curator: release not published: {refused}", err=True)
        sys.exit(EXIT_FINDINGS)
    except (PublishError, GitHubError) as exc:
        click.echo(f"curator: release not published: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    for name in published.assets:
        click.echo(name)
    draft = " (a draft: publish it there)" if published.draft else ""
    click.echo(
        f"{len(published.assets)} assets attached to {published.release_url}{draft}", err=True
    )


def _not_blank(value: str | None) -> str | None:
    if value is not None and not value.strip():
        raise click.BadParameter("is empty; leave the option out for the default")
    return value


def _control(text: str) -> str | None:
    """The first control character in `text`, if any."""
    return next((c for c in text if unicodedata.category(c) == "Cc"), None)


def _one_line(value: str | None) -> str | None:
    """Text the export carries as it stands, into XML too, which cannot hold a control
    character or the noncharacters U+FFFE and U+FFFF at all."""
    text = _not_blank(value) or ""
    control = _control(text)
    if control is not None:
        raise click.BadParameter(f"holds U+{ord(control):04X}, a control character")
    noncharacter = next((c for c in text if c in "\ufffe\uffff"), None)
    if noncharacter is not None:
        raise click.BadParameter(f"holds U+{ord(noncharacter):04X}, a noncharacter")
    return value


def _web_address(value: str) -> str:
    """An absolute http(s) address, without a query, a fragment, white space or a control
    character: the feed's links are built on it as they stand."""
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError as exc:
        raise click.BadParameter(f"{value!r} is malformed ({exc})") from exc
    odd = any(c.isspace() or c in "?#" for c in value) or _control(value) is not None
    if parts.scheme not in ("https", "http") or not parts.netloc or odd:
        raise click.BadParameter(f"{value!r} is not an http(s) address such as {WEBSITE}")
    return value


def _named(paths: tuple[Path, ...], not_done: str) -> tuple[Path, ...]:
    """`paths`, if each names something (`_existing`), having said of each that a run over
    the whole library passes over (in incidents/, hidden or not named like an incident)
    that it is left alone as there, and why: it is neither checked as an incident, nor
    reported (IL107), nor dropped without a word. Returns those it passes over."""
    passed = passed_over(_existing(paths))
    for path, why in passed:
        as_there = "" if why == NO_DRAFT else ", as in a run over the library"
        note = f"curator: note: {path} is {not_done}{as_there}: {why}"
        click.echo(escaped(note), err=True)
    return tuple(path for path, _ in passed)


def _existing(paths: tuple[Path, ...]) -> tuple[Path, ...]:
    """`paths`, if each names something. A symbolic link that leads nowhere is something:
    lint reports it (IL107) as it does in the whole library, not as "no such file"; so is
    a path in a folder the user may not look into, which lint reports as it can, and one
    named through a link in incidents/, which is reported whatever the link leads to."""
    missing = [str(p) for p in paths if _missing(p)]
    if missing:
        raise click.UsageError(f"no such file: {', '.join(missing)}")
    return paths


def _missing(path: Path) -> bool:
    try:
        os.lstat(path)
    except PermissionError:  # no permission to look (EACCES): it may well be there
        return False
    except OSError:  # not there, or through a file or a link that loops
        # (unless through a link in incidents/: whether there is a file behind it, outside
        # the library, is not for the answer to tell)
        return link_within_incidents(str(path.absolute())) is None
    return False


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1)}"


@main.command("fmt", short_help="Rewrite incident files in the canonical layout.")
@paths_argument
@root_option
@click.option("--check", is_flag=True, help="Change nothing; list the files that would change.")
@click.option("--diff", "show_diff", is_flag=True, help="Change nothing; print unified diffs.")
@no_cache_option("Render")
@quiet_option("No progress line and no closing summary.")
@jobs_option
def fmt_command(
    paths: tuple[Path, ...],
    root: Path | None,
    check: bool,
    show_diff: bool,
    no_cache: bool,
    quiet: bool,
    jobs: int | None,
) -> None:
    """Rewrite incident files in the canonical layout (key order, indentation, text style).

    Values and comments are kept; a file that cannot be read is reported and left as it
    is. Exit 1 when a file could not be formatted, or with --check/--diff when one would
    change; else 0.
    """
    library = Library.at(root)
    write = not (check or show_diff)
    _named(paths, "not formatted")
    files, others = incident_files(library, paths)
    _not_incident_files(others, "format")
    with Progress("formatting" if write else "checking", enabled=not quiet) as progress:
        cache = None if no_cache else library
        results = format_files(
            files, write=write, cache=cache, jobs=jobs, progress=progress, keep_unchanged=False
        )
    for result in results:
        if result.refused is not None:
            _cannot(result.display, result.refused, "format")
        elif result.changed and show_diff:
            click.echo(result.diff(), nl=False)
        elif result.changed:
            verb = "reformatted" if write else "would reformat"
            what = ", ".join(what_changed(result.before, result.after or b""))
            click.echo(f"{verb} {escaped(result.display)} ({what})")
    changed = sum(r.changed for r in results)
    unchanged = sum(not r.changed and r.refused is None for r in results)
    refused = len(results) - changed - unchanged + len(others)
    verb = "reformatted" if write else "would be reformatted"
    note = f"{_plural(changed, 'file')} {verb}, {unchanged} unchanged"
    if not quiet:
        click.echo(note + (f", {refused} could not be formatted" if refused else ""), err=True)
    sys.exit(EXIT_FINDINGS if refused or (changed and not write) else EXIT_CLEAN)


def _cannot(display: str, refused: Refused, verb: str) -> None:
    """A file fmt or fix leaves as it is: where, and why."""
    where = f"{display}:{refused.position.line}:{refused.position.column}"
    click.echo(escaped(f"{where}: cannot {verb}: {refused.message}"), err=True)


def _not_incident_files(findings: list[Finding], verb: str) -> None:
    """What lint reports as IL107, said by fmt and fix too: left alone, and why."""
    for finding in findings:
        where = f"{finding.path}:{finding.line}:{finding.column}"
        click.echo(escaped(f"{where}: cannot {verb}: {finding.message} ({finding.code})"), err=True)


@main.command("fix", short_help="Apply the fixes rules offer, printing each change.")
@paths_argument
@root_option
@click.option("--check", is_flag=True, help="Change nothing; list the changes fix would make.")
@click.option(
    "--diff",
    "show_diff",
    is_flag=True,
    help="Change nothing; print unified diffs (the changes are listed on standard error).",
)
@no_cache_option("Check")
@quiet_option("No progress line and no closing summary.")
@jobs_option
def fix_command(
    paths: tuple[Path, ...],
    root: Path | None,
    check: bool,
    show_diff: bool,
    no_cache: bool,
    quiet: bool,
    jobs: int | None,
) -> None:
    """Apply the fixes that rules offer (`curator rules` marks them) and print each change.

    Only the files lint finds something in are read for a fix. A changed file is written
    in the canonical layout. Exit 1 when a file could not be read or fixed safely (it is
    left as it is), or with --check/--diff when one would change; else 0. Run `curator
    lint` for the rest.
    """
    library = _with_taxonomy_note(Library.at(root), "deprecated terms may be left as they are")
    write = not (check or show_diff)
    _named(paths, "not fixed")
    files, others = incident_files(library, paths)
    _not_incident_files(others, "fix")
    # Lint's cache answers for the files of the library by path, and a save keeps only the
    # files a run saw: it serves a run over all of them, and files named are checked afresh.
    cache = None if no_cache or paths else library
    with Progress("checking", enabled=not quiet) as progress:
        results = fix_files(
            files, library.taxonomy, write=write, cache=cache, jobs=jobs, progress=progress
        )
    for result in results:
        _print_fixed(result, show_diff)
    changes = sum(len(r.changes) for r in results)
    changed = sum(r.changed for r in results)
    unfixable = sum(r.refused is not None for r in results)
    refused = unfixable + len(others)
    note = f"{_plural(changes, 'change')} in {_plural(changed, 'file')}"
    note += " would be made; nothing written" if changes and not write else ""
    if not changes:  # "0 changes in 0 files" left unsaid how many were looked at
        note = f"nothing to fix in {_plural(len(results) - unfixable, 'file')}"
    if not quiet:
        click.echo(note + (f"; {refused} could not be fixed" if refused else ""), err=True)
    sys.exit(EXIT_FINDINGS if refused or (changed and not write) else EXIT_CLEAN)


def _print_fixed(result: Fixed, show_diff: bool) -> None:
    """What fix did (or would do) to one file. With --diff, standard output holds nothing
    but the diffs, so that it can be applied as a patch."""
    if result.refused is not None:
        _cannot(result.display, result.refused, "fix")
    for change in result.changes:
        click.echo(
            escaped(
                f"{result.display}:{change.line}:{change.column}: "
                f"{change.code} {change.description}"
            ),
            err=show_diff,
        )
    for left in result.left:  # part of a value or a comment: the author's to change
        click.echo(
            escaped(f"{result.display}:{left.line}:{left.column}: {left.code} {left.description}"),
            err=True,
        )
    if show_diff:
        click.echo(result.diff(), nl=False)


def _ask(question: str, default: str, check: Callable[[str], object]) -> str:
    if sys.stdin is None:  # started with standard input closed (`<&-`): no answer will come
        raise click.Abort

    def answer(text: str) -> str:
        try:
            text = _as_utf8(text, sys.stdin.encoding)
        except click.BadParameter as exc:  # (`new`'s: Korean first, as its questions)
            korean = f"UTF-8 글자가 아닙니다(바이트 0x{_not_utf8(text) or 0:02X})"
            raise click.BadParameter(bilingual(korean, exc.message)) from exc
        try:
            check(text)
        except DraftError as exc:
            raise click.BadParameter(str(exc)) from exc
        return text

    return str(
        click.prompt(question, default=default, value_proc=answer, show_default=bool(default))
    )


@main.command(
    "new",
    cls=KoreanFirstCommand,
    short_help="Start a new incident (incidents/IL-NEW-<slug>.yaml) to fill in.",
)
@click.option("--root", metavar="DIRECTORY", callback=_root_korean_first, help=_ROOT_HELP)
@click.option(
    "--title",
    callback=_utf8_korean_first,
    help="One line: what happened, where, with what effect (Korean).",
)
@click.option(
    "--source",
    "source_url",
    callback=_utf8_korean_first,
    metavar="URL",
    help="https URL of the public report.",
)
@click.option(
    "--source-title", callback=_utf8_korean_first, help="The report's title as published."
)
@click.option(
    "--organization",
    "organizations",
    callback=_utf8_korean_first,
    multiple=True,
    help="Repeat for several.",
)
@click.option(
    "--occurred",
    callback=_utf8_korean_first,
    metavar="DATE",
    help="When it happened: YYYY, YYYY-MM or YYYY-MM-DD.",
)
@click.option(
    "--status",
    type=click.Choice(STATUSES),
    default="draft",
    show_default=True,
    help="published only once the five narrative fields are filled in.",
)
@term_options(
    lambda flag: f"{flag}s",
    lambda dimension, _noun: f"A {dimension} term: its id, label or alias; repeat for several.",
    _utf8_korean_first,
)
@click.option(
    "--prompt/--no-prompt",
    "prompt",
    default=None,
    help="Ask for what is missing. Default: ask when stdin is a terminal.",
)
def new_command(
    root: Path | None,
    title: str | None,
    source_url: str | None,
    source_title: str | None,
    organizations: tuple[str, ...],
    occurred: str | None,
    status: str,
    causes: tuple[str, ...],
    components: tuple[str, ...],
    symptoms: tuple[str, ...],
    factors: tuple[str, ...],
    prompt: bool | None,
) -> None:
    """Start a new incident: incidents/IL-NEW-<slug>.yaml, every field laid out with
    Korean guidance, a placeholder id that is numbered at merge.

    Facets not given are suggested from the title and the source URL's path, as `curator
    search` recognises terms, each named on standard error with its evidence (check them).
    So are the incidents the draft may duplicate, with score and evidence. Exit 2 when a value is
    unusable or, without a terminal, something required is missing.
    """
    library = Library.at(root)
    facets = {
        "causes": list(causes),
        "components": list(components),
        "symptoms": list(symptoms),
        "contributing_factors": list(factors),
    }
    given = Given(title, source_url, source_title, list(organizations), occurred, status, facets)
    # (Standard input may be closed, `<&-`: None, and no terminal.)
    in_terminal = sys.stdin is not None and sys.stdin.isatty()
    ask = _ask if (in_terminal if prompt is None else prompt) else None
    try:
        draft = gather(library.taxonomy, given, ask)
        path = write_draft(library, draft)
    except TaxonomyError as exc:  # the taxonomy's to mend, not a usage: no `--help`
        click.echo(_each_line("curator new", str(exc)), err=True)
        raise click.exceptions.Exit(EXIT_ERROR) from exc
    except DraftError as exc:
        raise KoreanFirstUsageError(str(exc)) from exc
    except click.Abort as abort:  # end of input, Ctrl-C, SIGTERM or SIGHUP at a question
        # End the question's line (and flush it: stdout may be a pipe beside stderr), so
        # that the message starts a line of its own.
        click.echo()
        sys.stdout.flush()
        # click.prompt makes a stop an Abort; the stop it replaced is the Abort's context.
        stop = abort.__context__
        if isinstance(stop, Terminated):  # the user did not stop answering: a job was ended
            click.echo(said(stop, korean_first=True), err=True)
        else:
            click.echo(f"curator: {new.unanswered()}", err=True)
        sys.exit(EXIT_ERROR)
    except OSError as exc:
        shown = display_path(library.incidents_dir)
        click.echo(f"curator: {new.not_written(shown, exc)}", err=True)
        sys.exit(EXIT_ERROR)
    shown = display_path(path)
    click.echo(shown)
    for note in draft.notes:
        click.echo(f"curator: note: {escaped(note)}", err=True)
    if draft.guessed:
        click.echo(f"curator: note: {new.facets_guessed()}:", err=True)
        for guess in draft.guessed:
            click.echo(f"  {guess.dimension}: {escaped(evidence(guess))}", err=True)
    _say_if_known(library, path)
    click.echo(new.next_steps(shown), err=True)


def _say_if_known(library: Library, draft: Path) -> None:
    """Name the incidents the draft may duplicate, with the evidence, before its author
    writes the rest: the same report cited, the same organisation and date, the same words.
    The draft stays; whether it is the same event is for its author to tell."""
    try:
        with deferred():
            from curator.similarity import commands

        with Progress(new.looking, enabled=True) as progress:
            matches, left_out = commands.known_already(library, draft, progress)
    # (Then said as any stop is, exit 2: the draft stays. A stop as a module loads, on
    # Python 3.11, may come as a RuntimeError: `stop_behind`.)
    except (KeyboardInterrupt, RuntimeError) as error:
        if stop_behind(error) is None:
            raise
        click.echo(f"curator: note: {new.look_stopped(display_path(draft))}", err=True)
        raise
    for file in left_out.files:
        note = new.left_out(file.shown, file.reason, file.code, file.refused)
        click.echo(f"curator: note: {escaped(note)}", err=True)
    if left_out.more:
        click.echo(f"curator: note: {new.more_left_out(left_out.more)}", err=True)
    if matches:
        click.echo(f"curator: note: {new.may_be_known()}:", err=True)
        click.echo(commands.known_text(matches), err=True, nl=False)


def _note(message: str) -> None:
    click.echo(f"curator: {message}", err=True)


@main.command("assign-ids", short_help="Number the placeholder ids (IL-NEW-...) after a merge.")
@root_option
@click.option(
    "--push",
    "remote",
    callback=_utf8,
    metavar="REMOTE",
    help="Start from REMOTE's --branch, commit and push; redo from the new head if the "
    "branch moved meanwhile.",
)
@click.option(
    "--branch", default="main", show_default=True, callback=_utf8, help="The branch for --push."
)
@click.option(
    "--attempts",
    default=5,
    show_default=True,
    type=click.IntRange(1, 50),
    help="With --push: how many times to number again when the branch moved meanwhile.",
)
def assign_ids_command(root: Path | None, remote: str | None, branch: str, attempts: int) -> None:
    """Give each placeholder id (IL-NEW-...) the next free number: rename its file and
    rewrite every reference to it. Run by the assign-ids workflow after a merge.

    Exit 1 when the library cannot be numbered safely (a file cannot be read), 2 when git
    fails.
    """
    context = click.get_current_context()
    given = [
        f"--{name}"
        for name in ("branch", "attempts")
        if context.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
    ]
    if remote is None and given:
        raise click.UsageError(
            f"{' and '.join(given)} {'needs' if len(given) == 1 else 'need'} --push"
        )
    library = Library.at(root)
    try:
        if remote is None:
            result = assign(library, deleted_numbers(library.root))
        else:
            result = assign_and_push(library.root, remote, branch, attempts, _note).plan
    except CannotAssign as exc:
        for problem in exc.problems:
            click.echo(f"curator: cannot number: {problem}", err=True)
        sys.exit(EXIT_FINDINGS)
    except GitError as exc:
        click.echo(f"curator: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    for a in result.assignments:
        click.echo(f"{a.placeholder} → {a.number}  ({display_path(a.new_path)})")
    for path in result.references:
        click.echo(f"  references rewritten in {display_path(path)}")
    click.echo(f"{_plural(len(result.assignments), 'placeholder')} numbered", err=True)


# The judgement commands import numpy (~0.1 s); they load it on use so that `curator lint`,
# run on every commit, does not pay for it. Like every module a command loads on use (its
# models, numpy, PyGithub), under `deferred`, as at start-up (see `curator.__main__`).
def _judge_output_options(command: F) -> F:
    """`--format` and `-q` of the commands that build the index: similar, suggest, search."""
    quiet = quiet_option("No progress line while the index is built.")(command)
    return format_option(["text", "json"], "text: for people; json: the same for machines.")(quiet)


def _judged_library(root: Path | None, paths: tuple[Path, ...], every: bool) -> tuple[Library, str]:
    """The library to judge in, and what to say if there turns out to be no input at all:
    why, for what was given (`--all`, folders, or paths each passed over with a note)."""
    if not paths and not every:
        raise click.UsageError("give incident files, or --all")
    if paths and every:  # (the files were left unread: which did the user mean?)
        raise click.UsageError("give incident files or --all, not both")
    passed = _named(paths, "not judged")
    if every:
        nothing_found = "incidents/ holds none"
    elif len(passed) == len(paths):  # (a file named, not a folder: only the notes say why)
        nothing_found = "every path given is passed over"
    else:  # (what is left is folders: a file is judged or said not to be)
        nothing_found = f"the {'other ' * bool(passed)}folders given hold none"
    # (listed once: for the index, and for the files named in incidents/, `named_files`)
    return _with_taxonomy_note(Library.at(root).listed()), nothing_found


def _with_taxonomy_note(
    library: Library, consequence: str = "its terms may be missing here"
) -> Library:
    """The library, having said on standard error if its taxonomy is broken: `similar`,
    `suggest`, `search` and `fix` work on with the terms that could be read, so a term or
    a whole dimension may be missing from what they say (`consequence`)."""
    problem = library.taxonomy.first_problem()
    if problem:
        click.echo(
            f"curator: note: the taxonomy is broken, so {consequence}: {problem}; see "
            "`curator lint`",
            err=True,
        )
    return library


def _judge_and_print(
    judge: Callable[[Progress], tuple[list[Any], list[str], LeftOut]],
    to_json: Callable[[Any], Any],
    to_text: Callable[[Any], str],
    fmt: str,
    quiet: bool,
    nothing_found: str,
) -> None:
    """Run a judgement (building the index, with its progress line) and print it; then, on
    standard error, which inputs the library does not hold though they are in incidents/
    (judged as drafts), why each input that could not be judged was not, and exit 2 if any,
    or that there was no input at all, and why (`nothing_found`: an empty library, folders
    holding no incident, paths passed over). Before all that, each file of the library it
    could not read, and so judged without. Standard output holds the judgements only, so
    that JSON stays one parseable list."""
    with Progress("indexing", enabled=not quiet) as progress:
        results, not_judged, left_out = judge(progress)
    _say_left_out(left_out, "judged")
    for given, _ in results:
        if given.unheld:  # (lint reports it: IL107, an error)
            held = "is judged as a draft, the library does not hold it"
            click.echo(
                escaped(f"curator: note: {given.display} {held}: {given.unheld} (IL107)"), err=True
            )
    if fmt == "json":
        output = json.dumps(to_json(results), ensure_ascii=False, indent=2) + "\n"
    else:
        output = to_text(results)
    click.echo(output, nl=False)
    if not results and not not_judged:
        # Else a run that found no incident would print nothing (`[]` in JSON): as if it
        # had not run at all.
        click.echo(f"curator: no incident to judge: {nothing_found}", err=True)
    if not_judged:
        for message in not_judged:
            click.echo(f"curator: {message}", err=True)
        # The last line a terminal shows: how much of the output is missing.
        given = _plural(len(results) + len(not_judged), "input")
        _bad_input(f"{len(not_judged)} of {given} not judged")


def _say_left_out(left_out: LeftOut, done: str) -> None:
    """On standard error, each file of the library the index holds nothing of (a
    `commands.Unread`: it could not be read, or not as a YAML mapping), as lint reports it,
    and that the run was `done` (judged, searched) without it; past the first few, how many
    more."""
    for file in left_out.files:
        said = f"{file.shown}: {file.why}; {done} without it"
        click.echo(escaped(f"curator: note: {said}"), err=True)
    if left_out.more:
        more = _plural(left_out.more, "more file")
        them = "them" if left_out.more > 1 else "it"
        click.echo(
            f"curator: note: {more} of the library cannot be read as an incident; {done} "
            f"without {them} (`curator lint` names each)",
            err=True,
        )


def _bad_input(message: str) -> NoReturn:
    click.echo(f"curator: {message}", err=True)
    sys.exit(EXIT_ERROR)


@main.command("similar", short_help="The incidents that may describe the same event.")
@paths_argument
@root_option
@click.option("--all", "every", is_flag=True, help="Judge every incident of the library.")
@click.option(
    "--top",
    default=5,
    show_default=True,
    type=click.IntRange(1, 1000),
    help="The most likely incidents shown for each PATH.",
)
@_judge_output_options
def similar_command(
    paths: tuple[Path, ...], root: Path | None, every: bool, top: int, fmt: str, quiet: bool
) -> None:
    """The incidents most likely to describe the same event as each PATH (new files too),
    ranked, with a score in [0, 1], "duplicate" or "related", and the reasons.

    Pairs already settled (related, duplicate_of, not_duplicate_of) are not shown. An input
    that cannot be judged (broken YAML, not a mapping, a taxonomy file) does not stop the
    others: after their output, it is named on standard error, with the line and column
    where its YAML breaks or is not a mapping, or why it cannot be read. Exit 0 whatever is
    found; 2 when an input could not be judged. See docs/judgement.md.
    """
    with deferred():
        from curator.similarity import commands

    library, nothing_found = _judged_library(root, paths, every)
    _judge_and_print(
        lambda progress: commands.similar(library, paths, every, top, progress),
        commands.similar_json,
        commands.similar_text,
        fmt,
        quiet,
        nothing_found,
    )


@main.command("suggest", short_help="Facets an incident probably lacks, or that nothing supports.")
@paths_argument
@root_option
@click.option("--all", "every", is_flag=True, help="Judge every incident of the library.")
@_judge_output_options
def suggest_command(
    paths: tuple[Path, ...], root: Path | None, every: bool, fmt: str, quiet: bool
) -> None:
    """Facets each PATH probably lacks (with the phrase or the similar incidents that
    suggest them) and facets it carries that nothing supports ("please check").

    An input that cannot be judged (broken YAML, not a mapping, a taxonomy file) does not
    stop the others: after their output, it is named on standard error, with the line and
    column where its YAML breaks or is not a mapping, or why it cannot be read. Exit 0
    whatever is suggested; 2 when an input could not be judged.
    """
    with deferred():
        from curator.similarity import commands

    library, nothing_found = _judged_library(root, paths, every)
    _judge_and_print(
        lambda progress: commands.suggest(library, paths, every, progress),
        commands.suggest_json,
        commands.suggest_text,
        fmt,
        quiet,
        nothing_found,
    )


@main.command("search", short_help="Incidents matching a query, with the filters it names.")
@click.argument("query", default="", callback=_utf8)
@root_option
@term_options(
    lambda flag: flag,
    lambda _dimension, noun: (
        f"Only incidents with this {noun} (or a child): its id, label or alias."
    ),
)
@click.option(
    "--top",
    default=10,
    show_default=True,
    type=click.IntRange(1, 10000),
    help="The best-ranked incidents shown.",
)
@_judge_output_options
def search_command(
    query: str,
    root: Path | None,
    cause: tuple[str, ...],
    component: tuple[str, ...],
    symptom: tuple[str, ...],
    factor: tuple[str, ...],
    top: int,
    fmt: str,
    quiet: bool,
) -> None:
    """The taxonomy values QUERY names (추천 필터), then the incidents matching it, ranked,
    with the filters applied. Exit 2 when a filter names no term, when the query holds
    nothing to search for (punctuation, a lone syllable, a date), or when neither a query
    nor a filter is given."""
    with deferred():
        from curator.similarity import commands

    given = {"cause": cause, "component": component, "symptom": symptom, "factor": factor}
    filters = {commands.FILTER_DIMENSIONS[k]: list(v) for k, v in given.items() if v}
    library = _with_taxonomy_note(Library.at(root))
    try:
        with Progress("indexing", enabled=not quiet) as progress:
            report, left_out = commands.run_search(library, query, filters, top, progress)
    except commands.BadInput as exc:  # in the form of every command's usage error
        raise click.UsageError(str(exc)) from exc
    _say_left_out(left_out, "searched")
    if fmt == "json":
        click.echo(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    else:
        click.echo(commands.search_text(report), nl=False)


@main.command("review", short_help="Review a change: lint, possible duplicates, facets.")
@click.option("--base", required=True, metavar="REV", help="What the change is compared with.")
@click.option("--head", default="HEAD", show_default=True, metavar="REV", help="The change.")
@format_option(
    ["markdown", "json", "github"],
    "markdown: the pull-request comment; json: the report; github: annotations, and the "
    "full report in $GITHUB_STEP_SUMMARY.",
    default="markdown",
)
@click.option(
    "--json-out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the JSON report to this file (the workflow's artifact).",
)
@root_option
def review_command(
    base: str, head: str, fmt: str, json_out: Path | None, root: Path | None
) -> None:
    """Review the incidents a change adds, changes, renames or removes: lint them in the
    library at the change's head, look for possible duplicates, suggest facets.

    Compares --head with its merge base with --base, as a pull request's "Files changed"
    does.
    Exit 1 when a changed file has a lint error (IL901 included: a published or withdrawn
    incident deleted, or made a draft again) or the change causes one in another file.
    """
    # Imported here: the judgement's numpy and the review modules cost every other command
    # start-up time. (Deferred, as at start-up: see `curator.__main__`.)
    with deferred():
        from curator.review import ReviewError
        from curator.review.build import build_review
        from curator.review.judge import LibraryJudge
        from curator.review.links import Links
        from curator.review.output import as_json, rendered, write_summary

    # Checked first: a review of a large change takes a while to find out otherwise.
    if json_out is not None and json_out.name in ("", ".."):  # `''` is `.`: no file name
        raise click.BadParameter(f"{str(json_out)!r} names no file", param_hint="'--json-out'")
    if json_out is not None and not json_out.absolute().parent.is_dir():
        raise click.BadParameter(
            f"{json_out.parent} is not a folder that exists", param_hint="'--json-out'"
        )
    library = Library.at(root)
    try:
        links = Links.from_env()  # first, too: a bad GITHUB_SERVER_URL should fail at once
    except ValueError as exc:
        click.echo(f"curator: the GitHub Actions environment is not usable: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    try:
        review = build_review(library.root, base, head, LibraryJudge)
    except ReviewError as exc:
        click.echo(f"curator: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    if json_out is not None:
        try:
            # A file name that is not UTF-8 as the escape `\udcff`, as on stdout (main()).
            json_out.write_text(as_json(review), encoding="utf-8", errors="backslashreplace")
        except OSError as exc:
            click.echo(f"curator: cannot write {json_out}: {exc.strerror}", err=True)
            sys.exit(EXIT_ERROR)
    click.echo(rendered(review, fmt, links), nl=False)
    try:
        if fmt == "github" and write_summary(review, links) is None:
            click.echo("curator: GITHUB_STEP_SUMMARY is not set; no job summary written", err=True)
    except ReviewError as exc:
        click.echo(f"curator: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    sys.exit(EXIT_FINDINGS if review.count().errors else EXIT_CLEAN)


@github_group.command("comment", short_help="Post a review as the pull request's one bot comment.")
@repo_option
@click.option(
    "--pr",
    "number",
    required=True,
    type=click.IntRange(min=1),
    metavar="N",
    help="The pull request's number.",
)
@click.option(
    "--report",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The JSON report of `curator review` (read as untrusted data).",
)
@click.option(
    "--head-sha",
    callback=_utf8,
    metavar="SHA",
    help="Post only if this commit is the pull request's head (and the report's).",
)
@click.option(
    "--event",
    "event_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A workflow_run event ($GITHUB_EVENT_PATH): PR and SHA must agree with it.",
)
@click.option(
    "--author",
    default="github-actions[bot]",
    show_default=True,
    callback=_utf8,
    help="The account the token posts as, whose comment is edited.",
)
def github_comment_command(
    repo_name: str,
    number: int,
    report: Path,
    head_sha: str | None,
    event_path: Path | None,
    author: str,
) -> None:
    """Post the review as the one bot comment of pull request N: edit it when the report
    changed, leave it when identical, create it when missing.

    When the pull request changes the review's own code (as GitHub lists its files: all but
    incidents/, schema/taxonomy/, the folders the review never reads and *.md outside
    curator/ and build_backend/; any hidden file), the comment says so first.

    Exit 0 also when GitHub refuses the write (403: no write permission, as on a fork's
    pull request): the report then goes to the job summary. Posting never decides the
    verdict; `curator review` and `curator lint` do. Exit 2 when GitHub refuses to let the
    token read the pull request or its files (403), the report in the job summary too: no
    run with that token can post, and a run that passed would hide it.
    """
    with deferred():
        from curator.github.client import Forbidden, GitHubError
        from curator.github.post import post_comment
        from curator.github.verify import RunEvent, Stale, valid_sha
        from curator.review import ReviewError
        from curator.review.links import Links, valid_repository
        from curator.review.markdown import COMMENT, MARKER, render
        from curator.review.output import read_review, write_summary
        from curator.review.tooling import ChangedTooling

    if not valid_repository(repo_name):
        raise click.BadParameter("OWNER/NAME expected", param_hint="--repo")
    if head_sha is not None and not valid_sha(head_sha):
        raise click.BadParameter("a full commit SHA expected", param_hint="--head-sha")
    try:
        review = read_review(report)
        event = RunEvent.read(event_path) if event_path else None
        if head_sha is not None and review.head != head_sha:
            raise GitHubError(f"the report is for {review.head[:12]}, not {head_sha[:12]}")
        env_links = Links.from_env({**os.environ, "GITHUB_REPOSITORY": repo_name})
        run_url = event.html_url if event and event.html_url else env_links.run_url
        links = Links(env_links.server, repo_name, run_url)
    except (ReviewError, GitHubError, ValueError) as exc:
        click.echo(f"curator: {exc}", err=True)
        sys.exit(EXIT_ERROR)

    def comment(tooling: ChangedTooling) -> str:
        # What of the pull request's files can change the review is GitHub's list, said at
        # the top whatever the report holds: the change may have written the report.
        return render(review, links, COMMENT, tooling)

    try:
        outcome = post_comment(
            repo_name,
            number,
            comment,
            MARKER,
            head_sha,
            event,
            author,
        )
    except Stale as exc:
        click.echo(f"curator: {exc}", err=True)
        sys.exit(EXIT_CLEAN)
    except Forbidden as exc:
        # The job summary stands in for the comment: with its warning, from the files
        # GitHub listed, or, refused before it listed them, the warning that they were not.
        base = review.base_tip or review.base
        seen = exc.listed
        if seen is None:
            seen = ChangedTooling.not_listed(number, base, review.head)
        try:
            where = write_summary(review, links, seen)
        except ReviewError as unwritten:
            kept = str(unwritten)
        else:
            kept = "the report is in the job summary" if where else "GITHUB_STEP_SUMMARY is not set"
        doubt = seen.in_one_line()
        kept += f" (warning: {doubt})" if doubt else ""
        click.echo(f"curator: comment not posted: {exc}; {kept}", err=True)
        sys.exit(EXIT_ERROR if exc.reading else EXIT_CLEAN)
    except GitHubError as exc:
        click.echo(f"curator: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    extra = f" ({_plural(outcome.removed, 'extra copy')} deleted)" if outcome.removed else ""
    click.echo(f"comment {outcome.action}: {outcome.url}{extra}", err=True)


# What a command made and has no more use for, left here rather than freed (`held`, of
# `export` and `lint`), when `run` is to end the process without freeing anything (None:
# `main` was called some other way, say by a test, in a process that goes on).
_held_till_exit: list[object] | None = None


class ClosedOutput(io.TextIOBase):
    """Standard output of a command started without one (`curator lint >&-`). Python makes
    it None, and printing to None does nothing: the report was lost and the run exited 0.
    Writing here fails as a closed pipe does, so the run ends with exit status 2."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed: the output had nowhere to go")


STANDARD_OUTPUT = "standard output"


class NamedOutput(io.TextIOWrapper):
    """Standard output whose write errors name it. A full disk (`curator lint > /dev/full`)
    raised an OSError naming no file, and the run ended with "curator: No space left on
    device", which did not say what could not be written."""

    @classmethod
    def replacing(cls, stream: io.TextIOWrapper) -> NamedOutput:
        return cls(
            stream.detach(),
            encoding=stream.encoding,
            errors=stream.errors,
            line_buffering=stream.line_buffering,
            write_through=stream.write_through,
        )

    def write(self, text: str) -> int:
        try:
            return super().write(text)
        except OSError as exc:
            exc.filename = STANDARD_OUTPUT
            raise

    def flush(self) -> None:
        try:
            super().flush()
        except OSError as exc:
            exc.filename = STANDARD_OUTPUT
            raise


def run() -> NoReturn:
    """The `curator` command: `main`, then out of the process at once. Freeing one by one
    the objects a run over 100,000 files made takes Python ≈0.4 s once the work is done
    (an export's main process holds ≈850 MB of them); the system takes the memory back
    at once. By then every file curator writes is closed and its workers are joined:
    only standard output and error are left to flush."""
    global _held_till_exit
    _held_till_exit = []
    if sys.stdout is None:  # started with standard output closed
        sys.stdout = ClosedOutput()
    elif type(sys.stdout) is io.TextIOWrapper:
        sys.stdout = NamedOutput.replacing(sys.stdout)
    try:
        main()
    except SystemExit as done:
        code = done.code
    except OSError as exc:  # printing --help or --version, before any command could catch it
        print(refused(exc), file=sys.stderr)
        code = EXIT_ERROR
    else:  # (click ends every run with SystemExit; this is for the type checker)
        code = 0
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)  # as Python does with SystemExit("message")
        code = EXIT_ERROR
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a closed pipe: nothing more to tell it
            stream.flush()
    os._exit(code or 0)
