"""The documents name the real tool: every `curator …` line they show parses with its options,
and every link between them leads somewhere."""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from conftest import REPO, run_curator, write_library

from curator.cli import main
from incidents import incident

DOCUMENTS = [
    REPO / "README.md",
    REPO / "CONTRIBUTING.md",
    REPO / "CHANGELOG.md",
    REPO / "benchmarks" / "README.md",
    REPO / "benchmarks" / "HISTORY.md",
    REPO / "fuzz" / "README.md",
    *sorted((REPO / "docs").glob("*.md")),
]
SHELL_OPERATORS = {"&&", "||", "|", ";"}
REDIRECTIONS = {">", ">>", "<", "2>"}


def code_lines(text: str) -> Iterator[str]:
    """The lines of the fenced code blocks, a `\\` continuation joined to its next line and
    a console's `$ ` prompt dropped."""
    inside, pending = False, ""
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            inside, pending = not inside, ""
            continue
        if not inside:
            continue
        line = pending + line.strip().removeprefix("$ ")
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        pending = ""
        yield line


def curator_commands(text: str) -> Iterator[list[str]]:
    """Each `curator …` command of the code blocks, as the shell splits it (comments,
    redirections and what other commands on the line do left out)."""
    for line in code_lines(text):
        command: list[str] = []
        words = iter(shlex.split(line, comments=True))
        for word in words:
            if word in SHELL_OPERATORS:
                if command[:1] == ["curator"]:
                    yield command
                command = []
            elif word in REDIRECTIONS:
                next(words, None)
            else:
                command.append(word)
        if command[:1] == ["curator"]:
            yield command


def shown_commands() -> list[tuple[str, list[str]]]:
    return [
        (path.relative_to(REPO).as_posix(), command)
        for path in DOCUMENTS
        for command in curator_commands(path.read_text(encoding="utf-8"))
    ]


def numbered(pairs: list[tuple[str, object]]) -> list[object]:
    """Test cases named `document-N`, the Nth of that document."""
    seen: dict[str, int] = {}
    cases = []
    for document, value in pairs:
        seen[document] = seen.get(document, 0) + 1
        cases.append(pytest.param(document, value, id=f"{document}-{seen[document]}"))
    return cases


def test_the_documents_show_commands():
    # So that a change to the extraction above cannot make the next test check nothing.
    shown = {" ".join(command[:2]) for _, command in shown_commands()}
    assert {"curator lint", "curator new", "curator review", "curator export"} <= shown


@pytest.mark.parametrize(("document", "command"), numbered(shown_commands()))
def test_every_command_a_document_shows_parses(document, command, tmp_path, monkeypatch):
    # Parsing checks commands, options, their arity and choices, and required options; the
    # files a command line names are made, as the reader would have them.
    monkeypatch.chdir(tmp_path)
    for word in command:
        if re.fullmatch(r"[\w./-]+\.(yaml|json)", word):
            (tmp_path / word).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / word).touch()
    name, words, found = "curator", command[1:], main
    while isinstance(found, click.Group):
        group, (name, *words) = found, words
        found = group.get_command(click.Context(group), name)
        assert found is not None, f"{document}: no command {name!r} in {' '.join(command)}"
    try:
        found.make_context(name, words)
    except click.ClickException as error:
        pytest.fail(f"{document}: {' '.join(command)}: {error.format_message()}")


# Links ------------------------------------------------------------------------------------

LINK = re.compile(r"\]\(([^)\s]+)\)")


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces → `-`."""
    kept = (
        "-" if char == " " else char
        for char in heading.strip().lower()
        if char in " -_" or unicodedata.category(char)[0] in "LNM"
    )
    return "".join(kept)


def anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    return {github_anchor(h) for h in re.findall(r"^#+ (.+)$", text, re.MULTILINE)}


def test_github_anchor_matches_githubs_for_the_headings_the_guide_uses():
    assert github_anchor("6. 봇 댓글 읽고 답하기 · The bot's comment") == (
        "6-봇-댓글-읽고-답하기--the-bots-comment"
    )
    assert github_anchor("`incidents.json` and `incidents/IL-NNNN.json`") == (
        "incidentsjson-and-incidentsil-nnnnjson"
    )


def relative_links() -> list[tuple[str, str]]:
    found = []
    for path in [*DOCUMENTS, REPO / ".github" / "PULL_REQUEST_TEMPLATE.md"]:
        for target in LINK.findall(path.read_text(encoding="utf-8")):
            if not re.match(r"[a-z][a-z0-9+.-]*:", target):  # not https:, mailto: …
                found.append((path.relative_to(REPO).as_posix(), target))
    return found


def test_the_documents_link_to_each_other():
    assert ("README.md", "docs/rules.md") in relative_links()


@pytest.mark.parametrize(("document", "target"), numbered(relative_links()))
def test_every_relative_link_resolves(document, target):
    path, _, anchor = target.partition("#")
    linked = (REPO / document).parent / path if path else REPO / document
    assert linked.exists(), f"{document}: {target}: no such file"
    if anchor and linked.suffix == ".md":
        assert anchor in anchors(linked), f"{document}: {target}: no such heading"


# What the documents say of the output ---------------------------------------------------------


def test_the_readme_names_every_field_of_lints_json_findings(tmp_path):
    # A finding of each severity, one fixable: every field holds something.
    broken = incident(
        "IL-0001", ("    - nccl\n", "    - ncl\n"), ("status: published", "status: published  ")
    )
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": broken})
    run = run_curator("lint", "--root", str(root), "--no-cache", "--format", "json")
    fields = {key for finding in json.loads(run.out) for key in finding}
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    paragraph = readme.partition("`--format json` prints")[2].partition("\n\n")[0]
    named = set(re.findall(r"`([a-z]+)`", paragraph))
    assert fields and fields <= named, fields - named


def test_the_readme_says_where_the_suite_finds_the_webhook_payloads():
    # A contributor runs the README's test command on a fresh clone: the file the suite
    # reads beside it must be named, and the CI step that makes it must exist.
    from test_github_comment import EXAMPLES

    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    beside = EXAMPLES.relative_to(REPO.parent).as_posix()
    assert f"`../{beside}`" in readme
    step = re.search(r'step "([^"]+)" of `\.github/workflows/ci\.yml`', readme)
    assert step is not None
    ci = (REPO / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8")
    assert f"- name: {step.group(1)}" in ci
    assert f"../{EXAMPLES.parent.relative_to(REPO.parent).as_posix()}" in ci
    # Run from a clone, the step's commands need what Actions sets: the README says which.
    script = ci.partition(f"- name: {step.group(1)}")[2].partition("\n      - name:")[0]
    actions_sets = set(re.findall(r"\$\{?([A-Z][A-Z0-9_]*)", script))
    assert actions_sets and all(f"{name}=" in readme for name in actions_sets), actions_sets


def test_the_readme_names_every_command_that_takes_jobs():
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    sentence = readme.partition("`--jobs N` sets")[2].partition(";")[0]
    named = set(re.findall(r"`([a-z-]+)`", sentence))
    taking = {
        name
        for name, command in main.commands.items()
        if any("--jobs" in option.opts for option in command.params)
    }
    assert taking and named == taking, (named, taking)


# The numbers docs/judgement.md gives: "the numbers below are its module constants" ----------


def judgement_md() -> str:
    return " ".join((REPO / "docs" / "judgement.md").read_text(encoding="utf-8").split())


def test_every_constant_docs_judgement_md_names_has_the_number_it_gives():
    from curator.similarity import index, search, similar, suggest

    text = judgement_md()
    named = list(re.finditer(r"\(`([A-Z][A-Z0-9_]+)`", text))
    assert len(named) >= 5
    for found in named:
        name = found.group(1)
        # similar's MIN_SCORE before search's: the document speaks of similar's.
        module = next(m for m in (similar, suggest, index, search) if hasattr(m, name))
        before = text[: found.start()].rpartition(". ")[2]
        number = re.findall(r"\d[\d,]*(?:\.\d+)?|one million", before)[-1]
        given = 1_000_000 if number == "one million" else float(number.replace(",", ""))
        assert given == getattr(module, name), (name, number)


def test_the_formulas_docs_judgement_md_gives_are_the_codes():
    from curator.similarity import search, similar, suggest

    text = judgement_md()
    assert (
        f"`{similar.TEXT_WEIGHT} · clip((c − {similar.TEXT_FLOOR}) / "
        f"({similar.TEXT_FULL:.2f} − {similar.TEXT_FLOOR}), 0, 1)`" in text
    )
    assert f"`1 − exp(−max(R − {similar.ENTITY_FLOOR}, 0) / {similar.ENTITY_SCALE:g})`" in text
    assert f"more than {similar.DATE_CONFLICT_DAYS} days apart" in text
    assert f"more than {similar.DAY_CONFLICT_DAYS} days apart" in text
    assert f"of the {suggest.NEIGHBOURS} most similar incidents" in text
    assert (
        f"`1 − (1 − min(c / {search.TEXT_FULL}, 1))(1 − {search.TERM_WEIGHT} · share of "
        f"recognised terms carried)(1 − {search.ENTITY_WEIGHT} · mentions an entity of the "
        f"query)`, where `c` is the query's cosine to the incident; scores below "
        f"{search.MIN_SCORE} " in text
    )


def test_docs_judgement_md_gives_every_fields_phrase_strength():
    from curator.similarity.suggest import FIELD_STRENGTH

    listed = judgement_md().partition("depends on where it was found: ")[2].partition(";")[0]
    given = {}
    for item in listed.split(", "):
        names, _, number = item.rpartition(" ")
        for name in names.split(" and "):
            given[name.replace("-", "_")] = float(number)
    assert given == FIELD_STRENGTH


# What docs/export.md says an export holds ------------------------------------------------------

EXPORT_MD = REPO / "docs" / "export.md"
PINNED_EXPORT = REPO / "tests" / "snapshots" / "export"  # tests/test_export_golden.py's


def test_docs_export_md_lists_every_file_of_an_export_and_its_schema():
    text = EXPORT_MD.read_text(encoding="utf-8")
    table = text.partition("## The files")[2].partition("\n\n")[2].partition("\n\n")[0]
    rows = re.findall(r"^\| `([^`]+)` \| (?:`([^`]+)`|[^|]+) \|", table, re.MULTILINE)
    top_level = sorted(p.name for p in PINNED_EXPORT.iterdir() if p.is_file())
    folders = ["incidents/IL-NNNN.json", "schema/*.schema.json"]
    assert sorted(name for name, _ in rows) == sorted([*top_level, *folders])
    for name, schema in rows:
        if name.endswith(".json") and not name.startswith("schema/"):
            # The schema named is the one every export ships, at that path.
            assert (PINNED_EXPORT / schema).is_file(), (name, schema)
    # The release's assets: every top-level file, besides the zip.
    assets = " ".join(text.split()).partition("the top-level files (")[2].partition(")")[0]
    assert sorted(re.findall(r"`([^`]+)`", assets)) == top_level


def test_docs_export_md_gives_the_csv_columns_in_order():
    from curator.export.build import CSV_COLUMNS

    text = " ".join(EXPORT_MD.read_text(encoding="utf-8").split())
    named = text.partition("columns in field order: `")[2].partition("`.")[0].split(", ")
    header = (PINNED_EXPORT / "incidents.csv").read_text(encoding="utf-8-sig").splitlines()[0]
    assert named == list(CSV_COLUMNS) == header.split(",")


def test_what_docs_compiled_md_says_is_left_out_is_not_compiled():
    from test_compiled import compiled_module_names

    compiled = set(compiled_module_names())
    text = " ".join((REPO / "docs" / "compiled.md").read_text(encoding="utf-8").split())
    by_pickle = re.findall(r"`(curator\.[a-z_.]+)`", text.partition("by pickle (")[2][:80])
    models = [
        ".".join(path.relative_to(REPO).with_suffix("").parts)
        for path in sorted((REPO / "curator").rglob("*.py"))
        if re.search(r"^class \w+\(.*BaseModel", path.read_text(encoding="utf-8"), re.MULTILINE)
    ]
    assert by_pickle and models and compiled
    for name in [*by_pickle, *models]:
        assert importlib.util.find_spec(name) is not None, name
        assert name not in compiled, f"docs/compiled.md says {name} is left out"
