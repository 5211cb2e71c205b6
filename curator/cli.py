"""The `curator` command: parse flags, call the library, print. Nothing else lives here.

Exit status is public API: 0 clean (warnings allowed), 1 findings, 2 usage or internal error.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from curator import __version__
from curator.library import Library, NotALibrary
from curator.lint import has_errors, lint
from curator.report import FORMATS, render, summary
from curator.ruledocs import rules_markdown, rules_table

F = TypeVar("F", bound=Callable[..., Any])

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class CuratorGroup(click.Group):
    """Turns any unexpected exception into one line and exit status 2, never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except NotALibrary as exc:
            click.echo(f"curator: {exc}", err=True)
            ctx.exit(EXIT_ERROR)
        except KeyboardInterrupt:
            click.echo("curator: interrupted", err=True)
            ctx.exit(EXIT_ERROR)
        except Exception as exc:
            click.echo(f"curator: internal error: {type(exc).__name__}: {exc}", err=True)
            ctx.exit(EXIT_ERROR)


def root_option(command: F) -> F:
    return click.option(
        "--root",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help="The library root (holds incidents/ and schema/). Default: found from the "
        "current directory upward.",
    )(command)


@click.group(cls=CuratorGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="curator")
def main() -> None:
    """Tools for the Incident Library: lint, format, judge and export incident reports."""


@main.command("lint")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@root_option
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("--quiet", "-q", is_flag=True, help="Print findings only, no summary line.")
def lint_command(paths: tuple[Path, ...], root: Path | None, fmt: str, quiet: bool) -> None:
    """Check incidents against the schema, the taxonomy and the project's rules.

    With PATHS, report on those files only; rules that span files still see the whole
    library. Exit 0 when there is no error (warnings allowed), 1 when there is one.
    """
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise click.UsageError(f"no such file: {', '.join(missing)}")
    library = Library.at(root)
    started = time.perf_counter()
    findings = lint(library, paths)
    click.echo(render(findings, fmt), nl=False)
    if not quiet and fmt == "text":
        files = len(paths) if paths else len(library.incident_paths())
        elapsed = time.perf_counter() - started
        click.echo(f"{summary(findings, files)} ({elapsed:.2f}s)", err=True)
    sys.exit(EXIT_FINDINGS if has_errors(findings) else EXIT_CLEAN)


@main.command("rules")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "markdown"]),
    default="text",
    show_default=True,
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
