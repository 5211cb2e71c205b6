"""Text fields hold a visible character and no control character but tab and line feed.

A double-quoted YAML scalar can write any character ("\\x07", "\\0", "\\u200b"); the Atom
feed of an export cannot carry a control character at all (XML 1.0), so lint refuses them.
"""

from __future__ import annotations

import json
import re

import jsonschema
from conftest import REPO, run_curator, write_library
from hypothesis import example, given
from hypothesis import strategies as st
from pydantic import ValidationError

from curator.model import TEXT_PATTERN, Source, text_problem
from incidents import incident

TITLE_SCHEMA = json.loads((REPO / "schema" / "incident.schema.json").read_text("utf-8"))["$defs"][
    "Source"
]["properties"]["title"]
TITLE_CHECK = jsonschema.Draft202012Validator(TITLE_SCHEMA)

# What each character near an edge of the rule is, written out by hand.
# U+FEFF is refused with them: YAML can write it inside a value only as an escape.
CONTROL = "\x00\x07\x0b\x0c\r\x1b\x1f\x7f\x80\x85\x9f\ufeff\ufffe\uffff"
INVISIBLE = "\t\n \xa0\xad\u1680\u2000\u200a\u200b\u200d\u200e\u202e\u2028\u2029\u2060\u3000"
VISIBLE = "a가.\ufffd\U0001f600\u0600\u2010\u205e"


def test_lint_says_which_text_holds_nothing_visible_or_a_control_character(tmp_path):
    text = incident(
        "IL-0001",
        ("title: ", 'title: "\\u200b\\u3000"\n# '),
        ("organizations:\n  - Example\n", 'organizations:\n  - "Example\\0"\n'),
    )
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    run = run_curator("lint", "--root", str(root), "--format", "json")
    found = [(f["line"], f["column"], f["code"], f["message"]) for f in json.loads(run.out)]
    assert run.code == 1
    assert found == [
        (2, 8, "IL201", "title: holds no visible character"),
        (7, 5, "IL201", "organizations[0]: holds U+0000, a control character (character 8); "
         "remove it"),
    ]  # fmt: skip


def test_lint_says_in_words_what_a_date_an_id_and_a_language_are_written_as(tmp_path):
    text = incident(
        "IL-0001",
        ("occurred: 2024-05", "occurred: 2024-5"),
        ("    title: Storage postmortem\n", "    title: Storage postmortem\n    language: en-\n"),
    )
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text + "related: [IL-12]\n"})
    run = run_curator("lint", "--root", str(root), "--format", "json")
    found = [(f["line"], f["code"], f["message"]) for f in json.loads(run.out)]
    assert run.code == 1
    assert found == [
        (4, "IL201", "occurred: '2024-5' is not a date written YYYY, YYYY-MM or YYYY-MM-DD "
         "(2024, 2024-05, 2024-05-08); did you mean '2024-05'?"),
        (28, "IL201", "sources[0].language: 'en-' is not a language tag such as en, ko or "
         "zh-Hant"),
        (29, "IL201", "related[0]: 'IL-12' is not an incident id: IL- and four or more digits "
         "(IL-0137), or IL-NEW-<slug>"),
    ]  # fmt: skip


def test_the_bundled_library_has_only_good_text():
    run = run_curator("lint", "--format", "json")
    assert run.code == 0 and json.loads(run.out) == []


def _verdicts(text: str) -> tuple[bool, bool, bool, bool]:
    """Is `text` good Text, by pydantic (Rust regex), Python's re, a JSON Schema validator
    reading the published schema, and `text_problem`?"""
    try:
        Source.model_validate({"url": "https://example.com/a", "title": text})
        by_pydantic = True
    except ValidationError:
        by_pydantic = False
    by_python = text != "" and re.match(TEXT_PATTERN, text) is not None
    return by_pydantic, by_python, TITLE_CHECK.is_valid(text), text_problem(text) is None


@given(st.text(max_size=12))
def test_every_regex_engine_reads_the_pattern_the_same(text):
    assert len(set(_verdicts(text))) == 1, repr(text)


@given(st.text(alphabet=st.sampled_from(CONTROL + INVISIBLE + VISIBLE), max_size=8))
@example("")
@example(" \u3000\n")
@example("\u200b가")
@example("가\x1b")
def test_good_text_has_a_visible_character_and_no_control_character(text):
    expected = any(c in VISIBLE for c in text) and not any(c in CONTROL for c in text)
    assert _verdicts(text) == (expected,) * 4, repr(text)


def test_a_byte_order_mark_inside_text_is_named_as_such():
    # YAML can write U+FEFF inside a value only as the escape \ufeff, which curator never
    # writes; U+2060, the word joiner, is the character meant.
    assert text_problem("가\ufeff나") == "holds U+FEFF, a byte-order mark (character 2); remove it"
    assert text_problem("가\u2060나") is None
