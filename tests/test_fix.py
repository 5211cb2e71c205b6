"""`curator fix`: every fix a rule offers, what it prints, and what it never does."""

from __future__ import annotations

import copy
import datetime as dt
import json
import os
import re
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from conftest import BROKEN, REPO, run_curator, stopped_as_it_loads, write_library
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from synthetic import synthetic_library
from test_fmt import documents

import curator.fix
import curator.lint
from curator.fix import FIXED_CODES, fix_file, fix_files, fix_text
from curator.library import Library
from curator.lint import check_file, lint, parse_incident
from curator.load import load_bytes
from curator.rules import (
    ALL,
    facet_order,
    invisible_characters,
    no_tabs,
    source_url_form,
    trailing_whitespace,
)
from curator.write import atomic, edits
from curator.write.canonical import Refused, render
from curator.write.comments import comments
from incidents import incident

DEPRECATED_TERM = """\
  - id: old-storage
    label:
      ko: 옛 스토리지
      en: Old storage
    description: 공유 네트워크 파일 시스템으로 합친 옛 용어.
    deprecated:
      replaced_by: shared-network-filesystem
      reason: 공유 네트워크 파일 시스템으로 합쳤다.
"""


TAXONOMY = Library.at(REPO).taxonomy
TODAY = dt.date(2026, 1, 1)


def fixable_findings(root):
    return [(f.path, f.code) for f in lint(Library.at(root), cwd=root) if f.fixable]


def relative(path):
    return os.path.relpath(path, REPO)


def test_every_fixable_rule_has_a_fix_and_every_fix_a_fixable_rule():
    assert {m.RULE.code for m in ALL if m.RULE.fixable} == FIXED_CODES


def test_fix_says_when_a_broken_taxonomy_may_leave_deprecated_terms(tmp_path):
    # It said "nothing to fix" and no more: a deprecated term of a dimension that could
    # not be read is not replaced, and nothing told why.
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    symptoms = root / "schema" / "taxonomy" / "symptoms.yaml"
    symptoms.write_text("dimension: symptoms\nterms: [\n", encoding="utf-8")
    run = run_curator("fix", "--check", "--root", str(root), cwd=root)
    assert run.code == 0, run
    note, *rest = run.err.splitlines()
    assert note.startswith(
        "curator: note: the taxonomy is broken, so deprecated terms may be left as they are: "
        "schema/taxonomy/symptoms.yaml:3:1: "
    ), note
    assert note.endswith("; see `curator lint`")
    assert rest == ["nothing to fix in 1 file"]


def test_text_fixes_repair_even_a_file_the_parser_refuses(tmp_path):
    text = incident("IL-0001", ("title: ", "title:\t"), ("  causes:\n", "\tcauses:\n"))
    text = text.replace("status: published", "status: published  ").replace("\n", "\r\n")
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": b"\xef\xbb\xbf" + text.encode()})
    path = root / "incidents" / "IL-0001.yaml"
    before = {code for _, code in fixable_findings(root)}
    assert before == {"IL601", "IL602", "IL603", "IL604"}
    run = run_curator("fix", "--root", str(root))
    assert run.code == 0, run
    shown = relative(path)
    assert run.out.splitlines() == [
        f"{shown}:1:1: IL604 removed the byte-order mark",
        f"{shown}:1:12: IL603 changed 27 CR/CRLF line end(s) to LF",
        f"{shown}:2:7: IL601 replaced tab(s) with spaces",
        f"{shown}:3:18: IL602 removed trailing space",
        f"{shown}:8:1: IL601 replaced tab(s) with spaces",
    ]
    assert "5 changes in 1 file" in run.err
    assert lint(Library.at(root)) == []
    assert path.read_text(encoding="utf-8") == incident("IL-0001")


def test_after_fix_a_value_with_crlf_and_a_line_separator_passes_lint(tmp_path):
    # U+2028 in a plain value (a line break to curator, text to YAML 1.2 readers): the fix
    # of the CRLF line ends wrote the value as it was, single-quoted with the break raw,
    # and lint still reported it (IL603, not fixable). Written as the escape `\L`, the
    # value is the same to every reader.
    text = incident("IL-0001", ("  - Example\n", "  - Example\u2028    Corp\n"))
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text.replace("\n", "\r\n")})
    path = root / "incidents" / "IL-0001.yaml"
    run = run_curator("fix", cwd=root)
    assert run.code == 0, run
    assert run.out == "incidents/IL-0001.yaml:1:12: IL603 changed 27 CR/CRLF line end(s) to LF\n"
    escaped = incident("IL-0001", ("  - Example\n", '  - "Example\\LCorp"\n'))
    assert path.read_text(encoding="utf-8") == escaped
    assert load_bytes(path.read_bytes()).data == load_bytes(text.encode()).data
    assert lint(Library.at(root)) == []


def test_fix_names_a_line_separator_ruamel_cannot_read_and_leaves_the_file(tmp_path):
    # In a `|` block with indented text after it, U+2028 stops ruamel.yaml: fix refused
    # the file "ruamel.yaml cannot read it" where ruamel stopped, and with it the CRLF fix.
    # Whether the author meant a line feed or a space is theirs to say: named, not fixed.
    lessons = ("규모 시험으로는", "규모\u2028  시험으로는")
    raw = incident("IL-0001", lessons).replace("\n", "\r\n").encode()
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": raw})
    found = [(f.line, f.column, f.code) for f in lint(Library.at(root), cwd=root)]
    assert (24, 8, "IL603") in found
    run = run_curator("fix", cwd=root)
    assert run.code == 1
    assert run.err.splitlines()[0] == (
        "incidents/IL-0001.yaml:24:8: cannot fix: U+2028 LINE SEPARATOR ends a line for "
        "curator (YAML 1.1) but not for ruamel.yaml, which cannot read the file as curator "
        "does (IL603); replace it with a line feed or a space by hand"
    )
    assert (root / "incidents" / "IL-0001.yaml").read_bytes() == raw


def test_fix_composes_decomposed_letters_in_values_and_comments(tmp_path):
    # Korean as separate jamo (as macOS file names give it) in a value and in a comment,
    # an accent as a combining mark; the rest of the file is left byte for byte.
    nfd = unicodedata.normalize("NFD", "스토리지")
    text = incident(
        "IL-0001",
        ("공유 스토리지의", f"공유 {nfd}의"),
        ("    - nccl\n", f"    - nccl  # {nfd} 통신\n"),
        ("Storage postmortem", "Storage post-mortem (re\u0301sume\u0301)"),
    )
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    path = root / "incidents" / "IL-0001.yaml"
    assert [code for _, code in fixable_findings(root)] == ["IL605"]
    run = run_curator("fix", cwd=root)
    assert run.code == 0, run
    assert run.out.splitlines() == [
        "incidents/IL-0001.yaml:2:11: IL605 composed the letters of 3 line(s) (Unicode NFC)"
    ]
    assert path.read_text(encoding="utf-8") == unicodedata.normalize("NFC", text)
    assert "    - nccl  # 스토리지 통신\n" in path.read_text(encoding="utf-8")
    assert lint(Library.at(root)) == []


def test_fix_composes_jamo_but_leaves_compatibility_ideographs_to_people(tmp_path):
    # 樂 as KS X 1001 encodes it for one reading (U+F914), beside Korean as separate jamo:
    # NFC would make U+F914 the unified U+6A02, another character, so fix keeps it.
    nfd = unicodedata.normalize("NFD", "스토리지")
    text = incident("IL-0001", ("공유 스토리지의", f"\uf914 공유 {nfd}의"))
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    run = run_curator("fix", cwd=root)
    assert run.code == 0, run  # (what is left is lint's to report)
    assert run.out.splitlines() == [
        "incidents/IL-0001.yaml:2:13: IL605 composed the letters of 1 line(s) (Unicode NFC)"
    ]
    written = (root / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8")
    assert written == text.replace(nfd, "스토리지")
    [left] = lint(Library.at(root))
    assert (left.code, left.line, left.column, left.fixable) == ("IL605", 2, 8, False)
    assert "U+F914, a CJK compatibility ideograph" in left.message


@pytest.mark.parametrize(
    ("title", "written"),
    [
        ('"공유\t스토리지의 ', '"공유\t스토리지의 '),
        ('"공유\\t스토리지\t의 ', '"공유\t스토리지\t의 '),  # (a new value: the tabs as themselves)
    ],
    ids=["a tab", "a tab and an escape"],
)
def test_a_padded_double_quoted_value_with_a_tab_written_as_itself_is_stripped(
    tmp_path, title, written
):
    # The value set in place of the padded one is one ruamel.yaml makes of the old one's
    # kind, without which of its tabs were escapes: fix stopped with a traceback.
    original = ("title: 공유 스토리지의 ", "떨어졌다\nstatus")
    text = incident(
        "IL-0001", (original[0], f"title: {title}"), (original[1], '떨어졌다 "\nstatus')
    )
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    run = run_curator("fix", "--root", str(root), cwd=root)
    assert run.out.startswith("incidents/IL-0001.yaml:2:8: IL606 title: "), run
    assert run.err.startswith(
        "incidents/IL-0001.yaml:2:11: IL601 not fixed: the tab is part of a value or a comment"
    ), run
    fixed = (root / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8")
    assert fixed == incident(
        "IL-0001", (original[0], f"title: {written}"), (original[1], '떨어졌다"\nstatus')
    )


def test_fix_removes_zero_width_characters_and_padding_and_keeps_everything_else(tmp_path):
    # U+200B inside a word, U+2060 in a comment and U+200B written as an escape; padded
    # one-line values (one quoted, one a block with its comment, one ending in U+3000).
    text = incident(
        "IL-0001",
        ("스토리지의", "스토\u200b리지의"),
        ("  - nccl\n", "  - nccl  # 통\u2060신\n"),
        ("  - Example\n", '  - "Lablup "  # 조직\n'),
        ("처리량 그래프에서", '"처리량\\u200b 그래프에서'),
        ("보였다.\n", '보였다."\n'),
        (
            "    title: Storage postmortem\n",
            "    title: |  # 원제\n      Storage postmortem\n    publisher: Example Co\u3000\n",
        ),
    ).replace("detection: |\n  ", "detection: ")
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    path = root / "incidents" / "IL-0001.yaml"
    assert fixable_findings(root) == [("incidents/IL-0001.yaml", "IL606")] * 4
    run = run_curator("fix", cwd=root)
    assert run.code == 0, run
    assert run.out.splitlines() == [
        "incidents/IL-0001.yaml:2:13: IL606 removed 2 zero-width character(s)",
        "incidents/IL-0001.yaml:6:5: IL606 organizations[0]: 'Lablup ' → 'Lablup'",
        "incidents/IL-0001.yaml:19:12: IL606 detection: removed 1 zero-width character(s)",
        "incidents/IL-0001.yaml:26:12: IL606 sources[0].title: 'Storage postmortem\\n' → "
        "'Storage postmortem'",
        "incidents/IL-0001.yaml:28:16: IL606 sources[0].publisher: 'Example Co\\u3000' → "
        "'Example Co'",
    ]
    fixed = path.read_text(encoding="utf-8")
    assert fixed == (
        incident(
            "IL-0001",
            ("  - nccl\n", "  - nccl  # 통신\n"),
            ("  - Example\n", '  - "Lablup"   # 조직\n'),
            (
                "    title: Storage postmortem\n",
                "    title: Storage postmortem  # 원제\n    publisher: Example Co\n",
            ),
            ("처리량 그래프에서 보였다.", '"처리량 그래프에서 보였다."'),
        ).replace("detection: |\n  ", "detection: ")
    )
    assert lint(Library.at(root)) == []
    assert run_curator("fix", cwd=root).out == ""  # and nothing more to do


def test_fix_removes_bidirectional_controls_and_keeps_everything_else(tmp_path):
    # An override in the title ("Trojan Source"), an isolate in a comment, a mark in a word.
    text = incident(
        "IL-0001",
        ("스토리지의", "스토리지의 \u202e\u2066"),
        ("  - nccl\n", "  - nccl  # 통신\u2069\n"),
        ("처리량 그래프에서", "처리량\u200e 그래프에서"),
    )
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    assert fixable_findings(root) == [("incidents/IL-0001.yaml", "IL606")]
    run = run_curator("fix", cwd=root)
    assert run.code == 0, run
    assert run.out.splitlines() == [
        "incidents/IL-0001.yaml:2:17: IL606 removed 4 zero-width character(s)"
    ]
    fixed = (root / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8")
    assert fixed == incident(
        "IL-0001", ("스토리지의", "스토리지의 "), ("  - nccl\n", "  - nccl  # 통신\n")
    )
    assert lint(Library.at(root)) == []


def test_fix_leaves_a_title_on_two_lines_to_its_author(tmp_path):
    title = "title: 공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다"
    text = incident("IL-0001", (title, "title: |\n  공유 스토리지의\n  메타데이터 포화"))
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    run = run_curator("fix", cwd=root)
    assert (run.code, run.out) == (0, "")  # (what is left is lint's to report)
    assert (root / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8") == text
    [left] = lint(Library.at(root))
    assert (left.code, left.line, left.column, left.fixable) == ("IL606", 2, 8, False)
    assert "title holds a line break (U+000A LINE FEED, character 9)" in left.message


def test_fix_takes_a_zero_width_character_out_of_the_value_where_the_text_would_change_more(
    tmp_path,
):
    # Out of the text, ` #1` would start a comment: the organization would lose "#1". Lint
    # says what fix does, and that fix does it (it said `remove it`, which made the comment,
    # not fixable).
    text = incident("IL-0001", ("  - Example\n", "  - Example \u200b#1\n"))
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    [found] = lint(Library.at(root))
    assert (found.code, found.line, found.column, found.fixable) == ("IL606", 6, 13, True)
    assert found.message.endswith(
        "; without it the plain value would read otherwise; remove it and put the value in "
        'double quotes ("Example #1")'
    ), found.message
    run = run_curator("fix", cwd=root)
    assert run.out.splitlines() == [
        "incidents/IL-0001.yaml:6:5: IL606 organizations[0]: removed 1 zero-width character(s)"
    ]
    fixed = (root / "incidents" / "IL-0001.yaml").read_bytes()
    assert load_bytes(fixed).data["organizations"] == ["Example #1"]
    assert lint(Library.at(root)) == []


@pytest.mark.parametrize(
    ("written", "where"),
    [
        ("공유 스\u1110\ufeff\u1169리지의", "2:13"),  # decomposed 토 with U+FEFF inside
        ('"공유 스\u1110\\u200b\u1169리지의', "2:8"),  # …with U+200B written as an escape
    ],
    ids=["in the text", "as an escape"],
)
def test_fix_composes_the_letters_a_zero_width_character_it_removes_kept_apart(
    tmp_path, written, where
):
    # Found by fuzzing (fuzz/fuzz_fix.py): the letters either side of the zero-width
    # character compose once it is gone, and fix left them apart; a second fix composed
    # them (IL605), where one fix must leave nothing to do.
    text = incident("IL-0001", ("공유 스토리지의", written))
    if written.startswith('"'):  # (closed at the end of the title's line)
        title = text.splitlines()[1]
        text = text.replace(title, title + '"')
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    run = run_curator("fix", cwd=root)
    assert run.code == 0, run
    assert f"incidents/IL-0001.yaml:{where}: IL606" in run.out, run.out
    fixed = load_bytes((root / "incidents" / "IL-0001.yaml").read_bytes()).data
    assert fixed["title"].startswith("공유 스토리지의 메타데이터 포화로"), fixed["title"]
    assert lint(Library.at(root)) == []
    assert run_curator("fix", cwd=root).out == ""  # and nothing more to do


def test_fix_strips_a_tagged_value_as_it_strips_any_other(tmp_path):
    # Found by fuzzing (fuzz/fuzz_fix.py): no value fix saw through `!!str`, so the padding
    # stayed; the layout dropped the tag, and a second fix stripped it.
    padded = "    title: !!str \u00a0Storage postmortem  # 원제\n"
    text = incident("IL-0001", ("    title: Storage postmortem\n", padded))
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    run = run_curator("fix", cwd=root)
    assert run.code == 0, run
    assert run.out.splitlines() == [
        "incidents/IL-0001.yaml:27:12: IL606 sources[0].title: '\\xa0Storage postmortem' → "
        "'Storage postmortem'"
    ]
    fixed = (root / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8")
    assert re.search(r"^    title: Storage postmortem +# 원제$", fixed, re.MULTILINE), fixed
    assert lint(Library.at(root)) == []
    assert run_curator("fix", cwd=root).out == ""  # and nothing more to do


def test_fix_leaves_a_file_that_nfc_would_make_unreadable(tmp_path):
    # U+1FEF (GREEK VARIA) is, in NFC, the backquote, which cannot start a plain value.
    text = incident("IL-0001", ("title: 공유", "title: \u1fefx 공유")).encode("utf-8")
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    run = run_curator("fix", cwd=root)
    assert run.code == 1, run
    assert "incidents/IL-0001.yaml:2:8: cannot fix" in run.err
    assert (root / "incidents" / "IL-0001.yaml").read_bytes() == text


def test_a_facet_written_as_its_term_s_name_is_written_as_the_id(tmp_path):
    # Lint offered the id (IL201 for a label, IL301 for an alias in an id's shape) and fix
    # left it: a contributor writing the labels the taxonomy shows had three errors to mend
    # by hand. A name two terms share is left, and its finding is not called fixable.
    text = incident(
        "IL-0001",
        ("    - capacity-limit\n", "    - 용량 한계  # 원문: 처리 한계\n"),
        ("    - nccl\n", "    - Lustre\n    - 옛 스토리지\n    - NCCL\n"),
        ("    - throughput-degradation\n", "    - job-hang\n    - throughput-degradation\n"),
        ("  contributing_factors: []\n", "  contributing_factors:\n    - shared-alias\n"),
    )
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    with (root / "schema" / "taxonomy" / "components.yaml").open("a", encoding="utf-8") as f:
        f.write(DEPRECATED_TERM)
    factors = root / "schema" / "taxonomy" / "contributing_factors.yaml"
    lines = factors.read_text(encoding="utf-8").split("\n")
    for at in [i for i, line in enumerate(lines) if line == "    aliases:"][:2][::-1]:
        lines.insert(at + 1, "      - shared alias")
    factors.write_text("\n".join(lines), encoding="utf-8")
    path = root / "incidents" / "IL-0001.yaml"
    found = lint(Library.at(root), cwd=root)
    assert [(f.code, f.fixable) for f in found if f.code in ("IL201", "IL301")] == [
        ("IL201", True),
        ("IL201", True),
        ("IL201", True),
        ("IL201", True),
    ]  # (IL301 is not run until the structure is valid)
    run = run_curator("fix", str(path), "--root", str(root))
    assert run.code == 0, run
    shown = relative(path)
    assert run.out.splitlines() == [
        f"{shown}:9:7: IL201 facets.causes: 용량 한계 → capacity-limit",
        f"{shown}:11:7: IL201 facets.components: Lustre → lustre",
        f"{shown}:11:7: IL304 facets.components: sorted",
        f"{shown}:12:7: IL201 facets.components: 옛 스토리지 → old-storage",
        f"{shown}:12:7: IL302 facets.components: old-storage → shared-network-filesystem",
        f"{shown}:13:7: IL201 facets.components: NCCL → nccl",
        f"{shown}:15:7: IL301 facets.symptoms: job-hang → training-stall",
        f"{shown}:15:7: IL304 facets.symptoms: sorted",
    ]
    fixed = path.read_text(encoding="utf-8")
    assert "  causes:\n    - capacity-limit  # 원문: 처리 한계\n" in fixed
    assert "    - lustre\n    - nccl\n    - shared-network-filesystem\n" in fixed
    assert "  contributing_factors:\n    - shared-alias\n" in fixed  # two terms': left
    left = [f for f in lint(Library.at(root), cwd=root) if f.severity.value == "error"]
    assert [(f.code, f.fixable) for f in left] == [("IL301", False)]
    assert "'shared-alias' is not a term of contributing_factors" in left[0].message


def test_value_fixes_keep_comments_and_write_the_canonical_layout(tmp_path):
    text = incident(
        "IL-0001",
        (
            "    - nccl\n",
            "    - old-storage  # 옛 용어\n    - nccl\n    - shared-network-filesystem\n",
        ),
        (
            "  symptoms:\n    - throughput-degradation\n",
            "  symptoms: [training-stall, job-crash, job-crash]\n",
        ),
        (
            "https://example.com/postmortems/IL-0001",
            "https://Example.com:443/pm?utm_source=feed&id=7#:~:text=GPU",
        ),
    )
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    with (root / "schema" / "taxonomy" / "components.yaml").open("a", encoding="utf-8") as f:
        f.write(DEPRECATED_TERM)
    path = root / "incidents" / "IL-0001.yaml"
    assert sorted(code for _, code in fixable_findings(root)) == [
        "IL302",
        "IL304",
        "IL304",
        "IL505",
    ]
    run = run_curator("fix", str(path), "--root", str(root))
    assert run.code == 0, run
    shown = relative(path)
    assert run.out.splitlines() == [
        f"{shown}:11:7: IL302 facets.components: old-storage → shared-network-filesystem",
        f"{shown}:11:7: IL304 facets.components: removed repeated shared-network-filesystem"
        " and sorted",
        f"{shown}:14:14: IL304 facets.symptoms: removed repeated job-crash and sorted",
        f"{shown}:27:10: IL505 sources[0].url: https://Example.com:443/pm?utm_source=feed&id=7"
        "#:~:text=GPU → https://example.com/pm?id=7",
    ]
    fixed = path.read_text(encoding="utf-8")
    # The end-of-line comment stays with its item through replacement and sorting.
    assert "  components:\n    - nccl\n    - shared-network-filesystem  # 옛 용어\n" in fixed
    assert "  symptoms:\n    - job-crash\n    - training-stall\n" in fixed
    assert "  - url: https://example.com/pm?id=7\n" in fixed
    assert render(fixed.encode("utf-8")) == fixed  # canonical
    assert fixable_findings(root) == []


@pytest.mark.parametrize(
    ("replaced_by", "nccl_replaced_by", "broken"),
    [
        ("old-store", None, "is not a term of components"),  # misspelt, or not added yet
        ("nccl", "shared-network-filesystem", "is deprecated too"),  # a chain
        ("nccl", "old-storage", "is deprecated too"),  # a cycle
    ],
)
def test_fix_leaves_a_deprecated_term_whose_replacement_is_broken(
    tmp_path, replaced_by, nccl_replaced_by, broken
):
    # It wrote the replacement all the same: a misspelt one into every incident carrying
    # the term, each then an IL301 error and the term it carried lost; along a chain one
    # step a run, and round a cycle the other term at each run.
    text = incident("IL-0001", ("    - nccl\n", "    - old-storage  # 옛 용어\n"))
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    components = root / "schema" / "taxonomy" / "components.yaml"
    taxonomy = components.read_text(encoding="utf-8")
    if nccl_replaced_by:
        deprecated = f"    deprecated: {{replaced_by: {nccl_replaced_by}, reason: 시험.}}\n"
        taxonomy = taxonomy.replace("  - id: nccl\n", "  - id: nccl\n" + deprecated, 1)
    term = DEPRECATED_TERM.replace("shared-network-filesystem\n", f"{replaced_by}\n", 1)
    components.write_text(taxonomy + term, encoding="utf-8")
    run = run_curator("fix", "--root", str(root), cwd=root)
    assert run.code == 0, run
    assert run.err.splitlines()[-1] == "nothing to fix in 1 file", run
    assert (root / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8") == text
    lint_run = run_curator("lint", "--root", str(root), cwd=root)
    assert (
        "incidents/IL-0001.yaml:11:7: IL302 [warning] 'old-storage' is deprecated (공유 "
        f"네트워크 파일 시스템으로 합쳤다.); its replacement {replaced_by!r} {broken}: once the "
        "taxonomy names a current one (IL303), `curator fix` replaces it\n"
    ) in lint_run.out, lint_run


SOURCE = "  - url: https://example.com/postmortems/IL-0001\n    title: Storage postmortem\n"
OTHER_SOURCE = SOURCE.replace("IL-0001", "other")


def test_fix_removes_a_source_the_same_as_one_above_and_keeps_every_comment(tmp_path):
    # The comment lines below the repeat belong to what follows it: they stay there.
    below = "  # 다음 글\n" + OTHER_SOURCE + "# 관련 사건\nrelated:\n  - IL-0002\n"
    text = incident("IL-0001", (SOURCE, SOURCE + SOURCE + below))
    root = write_library(
        tmp_path / "lib", {"IL-0001.yaml": text, "IL-0002.yaml": incident("IL-0002")}
    )
    path = root / "incidents" / "IL-0001.yaml"
    run = run_curator("fix", str(path), "--root", str(root))
    assert run.code == 0, run
    assert run.out.splitlines() == [
        f"{relative(path)}:28:10: IL505 sources[1]: removed, the same as sources[0]"
    ]
    assert path.read_bytes() == incident("IL-0001", (SOURCE, SOURCE + below)).encode()
    assert fixable_findings(root) == []


@pytest.mark.parametrize(
    ("first", "repeat"),
    [
        (SOURCE, SOURCE.replace("Storage postmortem", '"Storage postmortem "')),  # IL606
        (SOURCE, SOURCE.replace("Storage", '"Sto\\u200brage').replace("m\n", 'm"\n')),
        (SOURCE.replace("Storage", "학습"), SOURCE.replace("Storage", "\u1112\u1161\u11a8습")),
    ],
    ids=["padded", "a zero-width character", "not NFC"],
)
def test_lint_says_fix_removes_a_source_that_its_other_fixes_make_the_same(tmp_path, first, repeat):
    # Lint said "whose title differs; merge the two into one", not fixable; fix mended the
    # title (IL605, IL606), then removed the source as the same as the first.
    root = write_library(
        tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001", (SOURCE, first + repeat))}
    )
    [repeated] = [f for f in lint(Library.at(root)) if f.code == "IL505"]
    assert repeated.fixable, repeated
    assert "the same in every key once `curator fix` has mended the title" in repeated.message
    run = run_curator("fix", "--root", str(root))
    assert run.code == 0, run
    assert "IL-0001.yaml:28:10: IL505 sources[1]: removed, the same as sources[0]" in run.out
    kept = load_bytes((root / "incidents" / "IL-0001.yaml").read_bytes()).data["sources"]
    assert kept == load_bytes(incident("IL-0001", (SOURCE, first)).encode()).data["sources"]
    assert lint(Library.at(root)) == []


@pytest.mark.parametrize(
    ("repeat", "code", "said"),
    [
        # Another title: only its author can tell which is right. Lint says so, fix leaves it.
        (SOURCE.replace("Storage", "Other"), 0, "nothing to fix in 1 file"),
        # A comment of its own, which removing it would lose.
        (
            SOURCE.replace("postmortem\n", "postmortem  # 두 번째\n"),
            1,
            "incidents/IL-0001.yaml:28:10: cannot fix: sources[1] is the same as a source "
            "above it, but has a comment beside it or above it, which removing it would lose "
            "or move; remove it by hand",
        ),
        # A comment line above it, which may be about it.
        ("  # 같은 글\n" + SOURCE, 1, "incidents/IL-0001.yaml:29:10: cannot fix: sources[1]"),
    ],
)
def test_fix_leaves_a_repeated_source_that_differs_or_has_a_comment(tmp_path, repeat, code, said):
    text = incident("IL-0001", (SOURCE, SOURCE + repeat))
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    path = root / "incidents" / "IL-0001.yaml"
    run = run_curator("fix", str(path), "--root", str(root), cwd=root)
    assert (run.code, run.out) == (code, "")
    assert said in run.err
    assert path.read_text(encoding="utf-8") == text
    assert [f.code for f in lint(Library.at(root), cwd=root)] == ["IL505"]


UNSORTED = incident("IL-0002", ("    - nccl\n", "    - nccl\n    - gpu-driver\n"))


def test_ctrl_c_as_fix_loads_ruamel_s_merge_keys_is_not_dropped(tmp_path):
    # ruamel.yaml loads its merge-key module as it reads the first mapping, mid-run: a stop
    # then was printed ("Exception ignored in: …") and dropped, and fix went on to write.
    root = write_library(tmp_path / "lib", {"IL-0002.yaml": UNSORTED})
    run = stopped_as_it_loads("ruamel.yaml.mergevalue", "fix", "--root", str(root))
    assert (run.code, run.out, run.err) == (2, "", "curator: interrupted\n")
    assert (root / "incidents" / "IL-0002.yaml").read_text(encoding="utf-8") == UNSORTED


@pytest.mark.parametrize(
    ("above", "where"),
    [
        ("    # 원문 3절\n    - nccl\n    # 원문 5절\n", "12:7"),  # above the first item
        ("    - nccl\n    # 원문 5절\n", "13:7"),  # between two items: at the one below
    ],
)
def test_a_list_with_a_comment_above_an_item_is_left_to_be_sorted_by_hand(tmp_path, above, where):
    # Bug: sorting moved the values and left the comment lines where they were, each now
    # above another item.
    text = incident("IL-0001", ("    - nccl\n", above + "    - gpu-driver\n"))
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text, "IL-0002.yaml": UNSORTED})
    run = run_curator("fix", "--root", str(root))
    assert run.code == 1, run
    shown = relative(root / "incidents" / "IL-0001.yaml")
    refused = "has a comment line above an item, which sorting would leave beside another item"
    assert f"{shown}:{where}: cannot fix: facets.components {refused}" in run.err, run
    assert (root / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8") == text
    assert "IL-0002.yaml:11:7: IL304 facets.components: sorted" in run.out  # others go on
    linted = run_curator("lint", "--no-cache", "--root", str(root))  # and lint says so
    said = "expected gpu-driver, nccl; a comment line stands above an item: sort the list by hand"
    assert f"IL304 [warning] components are not in alphabetical order; {said}\n" in linted.out
    assert "fixable" not in linted.out + linted.err, linted


def fixed_with_components(tmp_path: Path, components: str) -> str:
    """IL-0001 with these lines for its components, as `curator fix` (which passes) left it."""
    text = incident("IL-0001", ("    - nccl\n", components))
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    run = run_curator("fix", "--root", str(root))
    assert run.code == 0, run
    return (root / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8")


def test_comment_lines_below_a_list_stay_below_it_when_it_is_sorted(tmp_path):
    fixed = fixed_with_components(tmp_path, "    - nccl\n    - gpu-driver\n    # 다음\n")
    assert "  components:\n    - gpu-driver\n    - nccl\n  # 다음\n  symptoms:\n" in fixed


def test_sorting_a_facet_list_keeps_each_term_s_own_quotes(tmp_path):
    # The quotes stayed in their place and the terms moved: `- 'nccl'` and `- gpu-driver`
    # came out `- 'gpu-driver'` and `- nccl`.
    fixed = fixed_with_components(tmp_path, "    - 'nccl'  # 따옴표\n    - gpu-driver\n")
    assert "  components:\n    - gpu-driver\n    - 'nccl'  # 따옴표\n  symptoms:\n" in fixed


def test_a_repeated_term_with_a_comment_of_its_own_is_left_to_be_removed_by_hand(tmp_path):
    # Its comment would be lost with it: refused as "the rewritten file would lose a
    # comment; please report", at 1:1. (A repeat whose first item has no comment gives
    # its comment to the term: `test_value_fixes_keep_comments_...`.)
    repeated = "    - nccl  # 원문 2절\n    - gpu-driver\n    - nccl  # 원문 5절\n"
    text = incident("IL-0001", ("    - nccl\n", repeated))
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    run = run_curator("fix", "--root", str(root), cwd=root)
    assert run.code == 1 and run.out == "", run
    assert run.err.startswith(
        "incidents/IL-0001.yaml:13:7: cannot fix: facets.components repeats nccl with a "
        "comment of its own, which removing the repeat would lose; remove it by hand\n"
    ), run.err
    assert (root / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8") == text
    linted = run_curator("lint", "--no-cache", "--root", str(root), cwd=root)  # lint says so
    assert (
        "incidents/IL-0001.yaml:13:7: IL304 [warning] 'nccl' is already listed in components; "
        "it and the item above each have a comment: remove one by hand, keeping the comment "
        "you mean\n"
    ) in linted.out, linted
    assert "fixable" not in linted.out + linted.err, linted


def test_a_comment_in_a_flow_list_is_kept_by_a_value_fix_as_fmt_then_fix_keep_it(tmp_path):
    # ruamel.yaml keeps no comment inside `[...]` in its tree: any value fix in the file
    # was refused, "this comment would be lost by the fix (ruamel.yaml drops comments
    # inside `[...]` and `{...}`); run `curator fmt` on the file first, ..., then `curator
    # fix`", exit 1, though lint called the finding fixable.
    url = "https://example.com/pm?utm_source=feed"
    text = incident("IL-0001", ("https://example.com/postmortems/IL-0001", url))
    text += "related: [IL-0002, # 같은 장비\n  IL-0003]\n"
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    by_hand = write_library(tmp_path / "by-hand", {"IL-0001.yaml": text})
    linted = run_curator("lint", "--no-cache", "--root", str(root), cwd=root)
    assert (
        "incidents/IL-0001.yaml:26:10: IL505 [warning] write the source URL as "
        "https://example.com/pm (fixable)\n"
    ) in linted.out, linted
    run = run_curator("fix", "--root", str(root), cwd=root)
    assert run.code == 0 and run.err == "1 change in 1 file\n", run
    # Said where lint says it, in the file as it was (not in the file as fmt writes it).
    assert run.out == (
        f"incidents/IL-0001.yaml:26:10: IL505 sources[0].url: {url} → https://example.com/pm\n"
    ), run
    fixed = (root / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8")
    assert "  - url: https://example.com/pm\n" in fixed
    assert "related:\n  - IL-0002  # 같은 장비\n  - IL-0003\n" in fixed
    # The same file as `curator fmt` then `curator fix` make.
    assert run_curator("fmt", "--root", str(by_hand), cwd=by_hand).code == 0
    assert run_curator("fix", "--root", str(by_hand), cwd=by_hand).code == 0
    assert fixed == (by_hand / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8")


def test_a_facet_list_with_a_comment_in_flow_style_is_sorted_keeping_the_comment():
    # The report's case: `components: [vast-data, # why` then `nfs]` (IL304, fixable).
    text = (REPO / "incidents" / "IL-0137.yaml").read_text(encoding="utf-8")
    block = "  components:\n    - nfs\n    - shared-network-filesystem\n    - vast-data\n"
    assert block in text
    flow = text.replace(block, "  components: [vast-data, # 왜 먼저인지\n    nfs]\n")
    after, changes, left = fix_text(flow.encode("utf-8"), TAXONOMY)
    assert changes == [curator.fix.Change(13, 16, "IL304", "facets.components: sorted")]
    assert left == []
    formatted = render(flow.encode("utf-8"))
    # Set off by two spaces, not at its column in the `[...]` line (`- vast-data      # …`).
    assert "    - vast-data  # 왜 먼저인지\n    - nfs\n" in formatted
    assert fix_text(formatted.encode("utf-8"), TAXONOMY)[0] == after
    written = after.decode("utf-8")
    assert "  components:\n    - nfs\n    - vast-data  # 왜 먼저인지\n" in written
    assert sorted(comments(written)) == sorted(comments(flow))
    expected = load_bytes(text.encode("utf-8")).data  # (every other value as it was)
    expected["facets"]["components"] = ["nfs", "vast-data"]
    assert load_bytes(after).data == expected


def test_a_comment_in_a_flow_list_that_the_fix_after_fmt_refuses_too_is_named_where_it_is():
    # A comment line inside `[...]` above an item becomes, once fmt writes the list one
    # item a line, a comment line above an item, which a sort leaves to people: that is
    # said at once, at the comment in the file as it is, and nothing is written. It said
    # "run `curator fmt` on the file first", after which fix said "sort the list by hand".
    text = (REPO / "incidents" / "IL-0137.yaml").read_text(encoding="utf-8")
    block = "  components:\n    - nfs\n    - shared-network-filesystem\n    - vast-data\n"
    flow = text.replace(block, "  components: [vast-data,\n    # 왜 먼저인지\n    nfs]\n")
    with pytest.raises(Refused) as refused:
        fix_text(flow.encode("utf-8"), TAXONOMY)
    assert refused.value.position == (14, 5)
    assert refused.value.message == (
        "facets.components has a comment line above an item, which sorting would leave "
        "beside another item; sort the list by hand"
    )
    assert "# 왜 먼저인지" in render(flow.encode("utf-8"))  # (fmt keeps it)
    # Sorted by hand, in `[...]` still: fmt writes it one item a line, the comment kept.
    by_hand = text.replace(block, "  components: [\n    # 왜 먼저인지\n    nfs, vast-data]\n")
    written = render(by_hand.encode("utf-8"))
    assert "  components:\n    # 왜 먼저인지\n    - nfs\n    - vast-data\n" in written


# IL-0025 with its two causes out of order (an IL304 fix to make), the lines written
# before and after it (a directive, `---`, `...`, comments), and what fix and fmt make of
# them: each comment where it was, at the top or at the end of the file; a `---` or `...`
# dropped, but the `---` after a directive.
SORTED_CAUSES = (REPO / "incidents" / "IL-0025.yaml").read_text(encoding="utf-8")
UNSORTED_CAUSES = SORTED_CAUSES.replace(
    "    - dependency-failure\n    - hardware-failure\n",
    "    - hardware-failure\n    - dependency-failure\n",
)
AROUND_A_DOCUMENT = {
    "comment-above-start": (("# 머리 주석\n---\n", ""), ("# 머리 주석\n", "")),
    "comment-on-start": (("--- # 문서 시작\n", ""), ("# 문서 시작\n", "")),
    "comment-after-directive": (
        ("%YAML 1.2\n# 사이 주석\n---\n", ""),
        ("%YAML 1.2\n---\n# 사이 주석\n", ""),
    ),
    "comment-on-end": (("", "... # 문서 끝\n"), ("", "# 문서 끝\n")),
    "comment-after-end": (("", "...\n# 끝난 뒤 주석\n"), ("", "# 끝난 뒤 주석\n")),
}


@pytest.mark.parametrize("name", sorted(AROUND_A_DOCUMENT))
def test_comments_around_the_document_markers_stay_where_they_are_through_a_fix(tmp_path, name):
    # ruamel.yaml's tree holds no comment before or on a `---`, nor after a `...`: the fix
    # was refused as one that "would be lost by the fix (ruamel.yaml drops comments inside
    # `[...]` ...)", and one on the `---` line came out indented, `    # 문서 시작`.
    (before, after), (head, end) = AROUND_A_DOCUMENT[name]
    written = before + UNSORTED_CAUSES + after
    root = write_library(tmp_path / "lib", {"IL-0025.yaml": written})
    path = root / "incidents" / "IL-0025.yaml"
    run = run_curator("fix", "--root", str(root), cwd=root)
    assert run.code == 0, run
    line = before.count("\n") + 9  # (the first of the causes)
    assert run.out == f"incidents/IL-0025.yaml:{line}:7: IL304 facets.causes: sorted\n", run
    assert path.read_text(encoding="utf-8") == head + SORTED_CAUSES + end
    # fmt, which sorts nothing, writes them in the same places, and a second run settles.
    formatted = render(written.encode("utf-8"))
    assert formatted == head + UNSORTED_CAUSES + end
    assert render(formatted.encode("utf-8")) == formatted


def test_a_key_tagged_as_text_is_the_key_to_fix_as_it_is_to_lint(tmp_path):
    # `!!str facets:` is `facets` to lint (IL304, fixable), but fix looked the key up in
    # ruamel.yaml's tree, where it was a tagged scalar: "nothing to fix", exit 0.
    tagged = UNSORTED_CAUSES.replace("\nfacets:", "\n!!str facets:")
    root = write_library(tmp_path / "lib", {"IL-0025.yaml": tagged})
    run = run_curator("fix", cwd=root)
    assert run.code == 0, run
    assert run.out == "incidents/IL-0025.yaml:9:7: IL304 facets.causes: sorted\n"
    assert (root / "incidents" / "IL-0025.yaml").read_text(encoding="utf-8") == SORTED_CAUSES


def test_unsafe_url_changes_are_left_to_people(tmp_path):
    url = "http://www.example.com/pm/#section-2"
    text = incident("IL-0001", ("https://example.com/postmortems/IL-0001", url))
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    run = run_curator("fix", "--root", str(root))
    assert run.code == 0 and run.out == ""
    assert url in (root / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8")
    assert [f.code for f in lint(Library.at(root))] == ["IL501"]


def test_a_file_without_fixable_findings_is_not_touched_even_if_not_canonical(tmp_path):
    text = incident("IL-0001").replace(
        "organizations:\n  - Example\n", "organizations: [Example]\n"
    )
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    run = run_curator("fix", "--root", str(root))
    assert run.code == 0 and run.out == ""
    assert "nothing to fix in 1 file" in run.err
    assert (root / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8") == text


def test_the_files_with_nothing_to_fix_are_counted_apart_from_those_that_could_not_be(
    tmp_path,
):
    # "nothing to fix in 3 files; 2 could not be fixed" for one file with nothing to fix
    # (fmt said "1 unchanged, 2 could not be formatted").
    files = {
        "IL-0001.yaml": incident("IL-0001"),
        "IL-0002.yaml": "id: [\n",  # no YAML: refused
        "IL-0003.yaml": "\ufeff".encode("utf-16-le") + incident("IL-0003").encode("utf-16-le"),
    }
    root = write_library(tmp_path / "lib", files)
    run = run_curator("fix", "--root", str(root))
    assert run.code == 1, run
    assert run.err.endswith("\nnothing to fix in 1 file; 2 could not be fixed\n"), run.err


def test_a_file_that_cannot_be_fixed_safely_is_reported_and_left_alone(tmp_path):
    raw = b"\xef\xbb\xbfid: IL-0001\nid: IL-0001  \n"
    root = write_library(
        tmp_path / "lib",
        {"IL-0001.yaml": raw, "IL-0002.yaml": incident("IL-0002", ("title: ", "title:\t"))},
    )
    run = run_curator("fix", "--root", str(root))
    assert run.code == 1
    assert "IL-0001.yaml:2:1: cannot fix: cannot be read (key 'id' appears again" in run.err
    assert (root / "incidents" / "IL-0001.yaml").read_bytes() == raw
    assert "IL-0002.yaml:2:7: IL601 replaced tab(s) with spaces" in run.out  # others go on
    assert lint(Library.at(root), [root / "incidents" / "IL-0002.yaml"]) == []


# A tab or trailing space inside a value (or a comment) is text: fix must not touch it.
IN_VALUES = (
    ("status: published", "status: published  # 메모\t끝"),
    ("  학습 처리량이 떨어졌다.\n", "  열1\t열2   \n  다음 줄\n"),
    ("lessons: |\n  작은 규모 시험으로는 알 수 없었다.\n", 'lessons: "가\t나"\n'),
    # (Not in a source title: white space around a one-line value is IL606's, and fixed.)
    ("로컬 디스크로 옮겼다.\n", "로컬 디스크로 옮겼다.\u3000\n"),
)


def test_tabs_and_trailing_spaces_that_are_text_are_left_and_said_so(tmp_path):
    text = incident("IL-0001", *IN_VALUES)
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    path = root / "incidents" / "IL-0001.yaml"
    [result] = fix_files([path], Library.at(root).taxonomy)
    assert path.read_text(encoding="utf-8") == text
    assert result.changes == [] and result.refused is None
    assert [(c.line, c.column, c.code) for c in result.left] == [
        (3, 24, "IL601"),  # in a comment
        (16, 5, "IL601"),  # in a `|` block
        (16, 8, "IL602"),
        (23, 22, "IL602"),  # U+3000 ends a plain value: YAML keeps it
        (24, 12, "IL601"),  # in a quoted value
    ]
    assert all(c.description.endswith("; fix it by hand") for c in result.left)
    # Lint reports each one, and does not call it fixable (it did, sending people to fix).
    found = [(f.line, f.column, f.code, f.fixable) for f in lint(Library.at(root))]
    assert found == [(c.line, c.column, c.code, False) for c in result.left]
    run = run_curator("fix", "--root", str(root))
    assert run.code == 0 and run.out == "" and "nothing to fix in 1 file" in run.err


def test_a_fix_elsewhere_leaves_a_tab_in_a_quoted_value_as_written_and_says_so(tmp_path):
    # Bug: with a trailing space to remove, fix wrote the file with '공유<TAB>스토리지의 …'
    # as "공유\t스토리지의 …" and said only `IL602 removed trailing space`.
    text = incident(
        "IL-0001",
        ("title: 공유 스토리지의", "title: '공유\t스토리지의"),
        ("떨어졌다\nstatus", "떨어졌다'\nstatus"),
        ("2024-05", "2024-05 "),
    )
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    path = root / "incidents" / "IL-0001.yaml"
    run = run_curator("fix", "--root", str(root))
    assert path.read_text(encoding="utf-8") == text.replace("2024-05 ", "2024-05")
    assert run.out == f"{relative(path)}:4:18: IL602 removed trailing space\n", run
    assert run.err.splitlines()[0] == (
        f"{relative(path)}:2:11: IL601 not fixed: the tab is part of a value or a comment; "
        "fix it by hand"
    ), run


def test_what_is_left_is_said_where_it_is_in_the_file_the_user_will_open(tmp_path):
    # Bug: what fix leaves for people was said in the fixed text, which --check and --diff
    # never write: a line down past a lone CR made a line end, a column left past a removed
    # zero-width character, and as the canonical layout wrote the rest (a `|` block
    # indented 2, where the file has 4; a `[...]` list written a line an item above it).
    text = incident(
        "IL-0001",
        ("status: published", "status: published  # 메모\r# 끝"),
        ("  - Example\n", "  - Example  # 회\u200b사\t이름\n"),
        ("  components:\n    - nccl\n", "  components: [nccl]\n"),
        ("symptom: |\n  학습 처리량이 떨어졌다.\n", "symptom: |\n    열1\t열2   \n    다음 줄\n"),
    )
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    path = root / "incidents" / "IL-0001.yaml"
    taxonomy = Library.at(root).taxonomy

    def unfixable() -> list[tuple[int, int, str]]:
        found = lint(Library.at(root))
        return [(f.line, f.column, f.code) for f in found if f.code in {"IL601", "IL602"}]

    on_disk = [(6, 19, "IL601"), (15, 7, "IL601"), (15, 10, "IL602")]  # was 7:18, 17:5, 17:8
    assert unfixable() == on_disk
    [checked] = fix_files([path], taxonomy, write=False)
    assert [(c.line, c.column, c.code) for c in checked.left] == on_disk
    assert path.read_bytes() == text.encode()
    run = run_curator("fix", "--check", "--root", str(root))
    assert f"{relative(path)}:6:19: IL601 not fixed: the tab is part" in run.err, run
    # Written, the fixed text is the file: said where it is in that.
    [written] = fix_files([path], taxonomy)
    written_places = [(7, 18, "IL601"), (17, 5, "IL601"), (17, 8, "IL602")]
    assert [(c.line, c.column, c.code) for c in written.left] == written_places
    assert unfixable() == written_places


def test_what_is_left_is_found_by_the_value_or_comment_that_holds_it(tmp_path):
    # Bug: --check found each line the canonical layout wrote by a line of the file with
    # the same characters but white space, first to first, and said the rest at its place
    # in the fixed text it never writes: a value put in the layout's order took the
    # other's line, a `>` block written `|` (its lines joined) and a key unquoted and moved
    # up were said where the fixed text has them: 3:26, 16:6, 16:14, 17:6.
    text = incident(
        "IL-0001",
        ("status: published\n", ""),
        (
            "  contributing_factors: []\n",
            '  contributing_factors: []\n"status": published  # 메모\t끝\n',
        ),
        ("symptom: |\n  학습 처리량이 떨어졌다.\n", ""),
        (
            "trigger: |\n  노드 수를 늘렸다.\n",
            "trigger: |\n    노드 수를 늘렸다.\n    가\t나 다\n"
            "symptom: >\n  가 나\t다\n  떨어졌다.  \n\n  둘\n",
        ),
        ("  - Example\n", "  - Example \n"),
    )
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    path = root / "incidents" / "IL-0001.yaml"
    found = lint(Library.at(root))
    on_disk = [(f.line, f.column, f.code) for f in found if not f.fixable]
    assert on_disk == [(14, 26, "IL601"), (17, 6, "IL601"), (19, 6, "IL601"), (20, 8, "IL602")]
    [checked] = fix_files([path], Library.at(root).taxonomy, write=False)
    assert [(c.line, c.column, c.code) for c in checked.left] == on_disk
    run = run_curator("fix", "--check", "--root", str(root))
    assert f"{relative(path)}:20:8: IL602 not fixed: the trailing space is part" in run.err, run


def test_tabs_in_a_value_cost_a_bounded_number_of_reads(monkeypatch):
    # Each tab kept out of the all-at-once fix was tried alone, a parse of the whole file
    # each: 50,000 tabs in one quoted value took minutes. The ones not tried are left too.
    import curator.fix

    reads: list[int] = []
    read = curator.fix.load_bytes
    monkeypatch.setattr(curator.fix, "load_bytes", lambda raw: reads.append(1) or read(raw))
    # (Not in the title: white space around a one-line value is IL606's, and fixed.)
    lessons = "lessons: |\n  작은 규모 시험으로는 알 수 없었다."
    text = incident("IL-0001", (lessons, 'lessons: "' + "\t" * 1000 + '공유"')).encode()
    after, changes, left = fix_text(text, TAXONOMY)
    assert (after, changes) == (text, [])
    # The first hundred were tried (each a read) and are text; the rest were not tried.
    assert [(c.line, c.column, c.code, c.description) for c in left] == [
        (23, 11, "IL601", "not fixed: the tab is part of a value or a comment; fix it by hand"),
        (23, 111, "IL601", "not fixed: not tried (too many in a file this size); fix it by hand"),
    ]
    assert len(reads) < 500


def test_the_reads_of_a_large_file_are_bounded_by_their_bytes(monkeypatch):
    # 40,000 quoted values holding a tab (1 MiB) and a tab in the indentation: each tab was
    # tried alone, a second's read each, 100 of them (with the comments compared, 2 min).
    import curator.fix

    reads: list[int] = []
    read = curator.fix.load_bytes
    monkeypatch.setattr(curator.fix, "load_bytes", lambda raw: reads.append(len(raw)) or read(raw))
    values = "".join(f'  - "a\t{n}"\n' for n in range(40_000))
    text = incident("IL-0001").replace("id: ", "id:\t", 1) + "notes:\n" + values
    assert 500_000 < len(text) < 1024 * 1024
    _after, changes, left = fix_text(text.encode(), TAXONOMY)
    assert [(c.line, c.column, c.code) for c in changes] == [(1, 4, "IL601")]
    assert sum(reads) < 20 * len(text)  # was 103 reads of the whole file
    # Each tab in a value is written as itself again (it was `\t`), and said.
    assert [(c.line, c.column, c.code) for c in left] == [
        (29 + n, 7, "IL601") for n in range(40_000)
    ]


def test_only_the_tabs_and_trailing_spaces_outside_values_are_fixed(tmp_path):
    text = incident(
        "IL-0001",
        *IN_VALUES,
        ("  causes:\n", "\tcauses:\n"),  # indentation: the parser refuses it
        ("title: ", "title:\t"),  # a separator
        ("  - Example\n", "  - Example\t  \n"),  # after a plain value
    )
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    path = root / "incidents" / "IL-0001.yaml"
    run = run_curator("fix", "--root", str(root))
    assert run.code == 0, run
    shown = relative(path)
    assert run.out.splitlines() == [
        f"{shown}:2:7: IL601 replaced tab(s) with spaces",
        f"{shown}:6:12: IL601 replaced tab(s) with spaces",
        f"{shown}:6:12: IL602 removed trailing space",
        f"{shown}:8:1: IL601 replaced tab(s) with spaces",
    ]
    data = load_bytes(path.read_bytes()).data
    assert data == load_bytes(incident("IL-0001", *IN_VALUES).encode("utf-8")).data
    assert data["symptom"] == "열1\t열2   \n다음 줄\n" and data["lessons"] == "가\t나"
    assert "# 메모\t끝" in path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("old", "new", "mended"),
    [
        # Two spaces put the key as deep as the list's items, not as its item's keys.
        ("    title: Storage postmortem", "\ttitle: Storage postmortem", False),
        # Two spaces put the item as deep as its list's key: YAML joins the next to its text.
        ("    - capacity-limit", "\t- capacity-limit\n    - hardware-failure", False),
        ("  causes:", "\tcauses:", True),
        ("    - nccl", "\t\t- nccl", True),
    ],
)
def test_a_tab_that_stops_the_loader_is_fixable_only_where_fix_mends_it(old, new, mended):
    text = incident("IL-0001").replace(old, new, 1)
    file = parse_incident(Path("IL-0001.yaml"), "IL-0001.yaml", text.encode(), TAXONOMY, TODAY)
    [finding] = no_tabs.check(file)
    assert finding.fixable is mended
    assert ("curator fix" in finding.message) is not mended, finding.message
    try:
        fixed, changes, _ = fix_text(text.encode(), TAXONOMY)
    except Refused:
        assert not mended
    else:
        assert mended and load_bytes(fixed).problems == []
        assert [change.code for change in changes] == ["IL601"]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        # Two spaces put the key as deep as the list's items: fix named the repaired text's
        # error (`27:3`, "lined up with the list's items"), not the tab.
        (incident("IL-0001").replace("    title: Storage", "\ttitle: Storage", 1), 27),
        # Two spaces make `- hardware-failure` text of the item above: fix named IL109 at
        # 10:5, and no tab.
        (
            incident(
                "IL-0001",
                ("    - capacity-limit\n", "\t- capacity-limit\n    - hardware-failure\n"),
            ),
            9,
        ),
    ],
)
def test_fix_refusing_a_tab_its_spaces_do_not_mend_says_so_at_the_tab(tmp_path, text, line):
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    path = root / "incidents" / "IL-0001.yaml"
    [tab] = [f for f in lint(Library.at(root)) if f.code == "IL601"]
    assert (tab.line, tab.column, tab.fixable) == (line, 1, False)
    run = run_curator("fix", "--root", str(root))
    assert run.code == 1 and run.out == "", run
    assert run.err.splitlines()[0] == f"{relative(path)}:{line}:1: cannot fix: {tab.message}"
    assert "IL109" not in run.err and "do not mend it" in tab.message
    assert path.read_text(encoding="utf-8") == text


def test_fix_refusing_a_file_it_cannot_read_says_where_lint_does_past_a_lone_cr(tmp_path):
    # Found by fuzzing: fix refused it where the text with its CR made an LF said
    # (`4:5`), a line below the anchor as the file has it, and as lint and fmt say it.
    text = "id: IL-0001\rtitle: 장애\norganizations:\n  - &a A\n"
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    path = root / "incidents" / "IL-0001.yaml"
    [anchor] = [f for f in lint(Library.at(root)) if f.code == "IL105"]
    assert (anchor.line, anchor.column) == (3, 5)
    for command, verb in (("fix", "fix"), ("fmt", "format")):
        run = run_curator(command, "--root", str(root))
        assert run.code == 1, run
        told = f"{relative(path)}:3:5: cannot {verb}: cannot be read (anchor &a is not allowed"
        assert run.err.startswith(told), run.err
    assert path.read_bytes() == text.encode("utf-8")


LONE_CR = ("status: published\n", "status: published\r")  # (one line's text to lint, as to git)
HUMAN_ERROR_FIRST = ("    - capacity-limit\n", "    - human-error\n    - capacity-limit\n")


@pytest.mark.parametrize(
    ("edits", "places"),
    [
        # A lone CR among LF line ends, which fix makes an LF: it said the facets a line below.
        ([LONE_CR, HUMAN_ERROR_FIRST], [(3, 18, "IL603"), (8, 7, "IL304")]),
        # A zero-width character that fix removes before a label: said a column to the left.
        (
            [
                (
                    "  causes:\n    - capacity-limit\n",
                    "  causes: [capacity-limit\u200b, 운영자 실수]\n",
                )
            ],
            [(8, 26, "IL606"), (8, 29, "IL201")],
        ),
        # Letters that fix composes (공유 as five jamo) before a trailing space: said three
        # columns to the left.
        (
            [
                ("title: 공유", "title: \u1100\u1169\u11bc\u110b\u1172"),
                ("떨어졌다\n", "떨어졌다  \n"),
            ],
            [(2, 8, "IL605"), (2, 42, "IL602")],
        ),
        # CRLF line ends after a byte-order mark: said at the first CR, where it said 1:1.
        ([("id:", "\ufeffid:"), ("\n", "\r\n")], [(1, 1, "IL604"), (1, 12, "IL603")]),
    ],
)
def test_fix_says_each_change_where_lint_says_it_in_the_file_as_it_is(tmp_path, edits, places):
    # fix found the places it said in the text its earlier text fixes had made: a lone CR
    # made an LF, a character removed or letters composed before it on its line.
    text = incident("IL-0001", *edits)
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    codes = {code for *_, code in places}
    _, changes, _ = fix_text(text.encode(), TAXONOMY)
    assert sorted((c.line, c.column, c.code) for c in changes if c.code in codes) == places
    linted = {(f.line, f.column, f.code) for f in lint(Library.at(root)) if f.code in codes}
    assert set(places) <= linted


def test_fix_refuses_a_file_at_the_place_in_it_past_a_lone_cr():
    # It said 11:7, the line the item has once the CR is an LF: a line below it.
    text = incident(
        "IL-0001",
        LONE_CR,
        ("    - capacity-limit\n", "    - human-error\n    # 왜\n    - capacity-limit\n"),
    )
    with pytest.raises(Refused) as refused:
        fix_text(text.encode(), TAXONOMY)
    assert refused.value.position == (10, 7)
    assert text.split("\n")[9] == "    - capacity-limit"
    assert refused.value.message.startswith("facets.causes has a comment line above an item")


def test_fix_refusing_a_list_item_in_text_beside_a_mended_tab_names_the_item():
    # The item was text before the tab's spaces: the refusal is IL109's, at the item.
    text = incident(
        "IL-0001",
        ("  causes:\n", "\tcauses:\n"),
        (
            "  - 데이터를 로컬 디스크로 옮겼다.\n",
            "  - 데이터를 로컬 디스크로 옮겼다.\n    - 다시 시도했다.\n",
        ),
    )
    with pytest.raises(Refused) as refused:
        fix_text(text.encode(), TAXONOMY)
    assert refused.value.position == (23, 5)
    assert refused.value.message.endswith("(IL109); fix it by hand")


BROKEN_TITLE = ("title: 공유", "title: a: 공유")  # a ': ' inside a value: no text fix mends it


@pytest.mark.parametrize(
    ("edits", "code", "mended"),
    [
        ([("떨어졌다\n", "떨어졌다  \n"), BROKEN_TITLE], "IL602", False),
        ([("\n", "\r\n"), BROKEN_TITLE], "IL603", False),
        ([("id:", "\ufeffid:"), BROKEN_TITLE], "IL604", False),
        ([("공유 스토리지", "공유 \u1100\u1161스토리지"), BROKEN_TITLE], "IL605", False),
        ([("공유 스토리지", "공유\u200b 스토리지"), BROKEN_TITLE], "IL606", False),
        # (The loader stops before the tab.)
        ([("  causes:", "\tcauses:"), BROKEN_TITLE], "IL601", False),
        (
            [
                ("    - capacity-limit\n", "    - hardware-failure\n    - capacity-limit\n"),
                ("status: published\n", "status: published\nstatus: published\n"),
            ],
            "IL304",
            False,
        ),
        # Where the text fixes mend the file, fix reads it and fixes what lint says.
        ([("  - Example", "\u200b  - Example")], "IL606", True),
        ([("  causes:", "\tcauses:"), ("\n", "\r\n")], "IL601", True),
    ],
)
def test_a_finding_is_fixable_only_in_a_file_fix_reads_once_its_text_is_fixed(
    tmp_path, edits, code, mended
):
    # `curator fix` refuses a file its text fixes leave unreadable ("cannot be read"):
    # lint marked its trailing spaces, CR line ends, mark, jamo and sorting fixable all
    # the same.
    text = incident("IL-0001")
    for old, new in edits:
        text = text.replace(old, new, 1) if old != "\n" else text.replace(old, new)
    path = tmp_path / "IL-0001.yaml"
    path.write_bytes(text.encode("utf-8"))
    findings = check_file(path, "IL-0001.yaml", TAXONOMY, TODAY).findings
    assert load_bytes(text.encode("utf-8")).problems, findings
    fixable = {finding.code: finding.fixable for finding in findings if finding.code in FIXED_CODES}
    assert fixable[code] is mended and set(fixable.values()) == {mended}, findings
    try:
        fixed, changes, _ = fix_text(text.encode("utf-8"), TAXONOMY)
    except Refused as refused:
        assert not mended and refused.message.startswith("cannot be read"), refused.message
    else:
        assert mended and load_bytes(fixed).problems == []
        assert {change.code for change in changes} == set(fixable), changes


NESTED_ACTION = (
    "  - 데이터를 로컬 디스크로 옮겼다.\n",
    "  - 데이터를 로컬 디스크로 옮겼다.\n    - 다시 시도했다.\n",
)
TRAILING_TITLE = ("떨어졌다\nstatus", "떨어졌다  \nstatus")
GPU_AFTER_NCCL = ("    - nccl\n", "    - nccl\n    - gpu\n")


@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        (incident("IL-0001", NESTED_ACTION, TRAILING_TITLE), "23:5 this line is no list item"),
        (incident("IL-0001", NESTED_ACTION, GPU_AFTER_NCCL), "24:5 this line is no list item"),
        ("- 공유 스토리지  \n- 학습\n", "1:1 an incident is a mapping of keys to values"),
        (
            incident(
                "IL-0001",
                ("    - nccl\n", "    - nccl\n    # 주된 원인\n    - gpu\n"),
                TRAILING_TITLE,
            ),
            "13:7 facets.components has a comment line above an item",
        ),
        (
            incident(
                "IL-0001",
                ("    - nccl\n", "    - nccl  # 원문 2절\n    - nccl  # 원문 5절\n"),
                TRAILING_TITLE,
            ),
            "12:7 facets.components repeats nccl with a comment of its own",
        ),
        (
            incident("IL-0001", ("title: ", "title: # 원제\n  "), ("떨어졌다\n", "떨어졌다  \n\n")),
            "2:8 ruamel.yaml cannot keep this comment where it is",
        ),
    ],
)
def test_no_finding_is_fixable_in_a_file_the_loader_reads_but_fix_refuses_whole(
    tmp_path, text, refusal
):
    # A Markdown-style nested item (IL109), a document that is a list, a facet list out
    # of order with a comment line above an item, a repeat and its term's item above each
    # with a comment, or a comment after a key whose value starts below it, a blank line
    # after that (ruamel.yaml cannot read it): fix refuses the file whole, and lint called
    # its trailing space (IL602) or facet order (IL304) fixable.
    path = tmp_path / "IL-0001.yaml"
    path.write_bytes(text.encode("utf-8"))
    findings = check_file(path, "IL-0001.yaml", TAXONOMY, TODAY).findings
    assert load_bytes(text.encode("utf-8")).problems == []
    assert {"IL602", "IL304"} & {finding.code for finding in findings}, findings
    assert [finding for finding in findings if finding.fixable] == []
    with pytest.raises(Refused) as refused:
        fix_text(text.encode("utf-8"), TAXONOMY)
    line, column = refused.value.position
    assert f"{line}:{column} {refused.value.message}".startswith(refusal)


def test_a_tab_inside_a_plain_value_is_named_as_what_stops_the_fix(tmp_path):
    # The loader reads it as text; ruamel.yaml cannot read it at all.
    text = incident("IL-0001", ("title: 공유", "title: 공\t유"), ("  causes:\n", "\tcauses:\n"))
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    run = run_curator("fix", "--root", str(root))
    assert run.code == 1 and run.out == "", run
    assert "IL-0001.yaml:2:9: cannot fix: the tab is part of a plain value" in run.err
    assert (root / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8") == text


TITLE = "공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다"


INDENT_TAB = ("  causes:", "\tcauses:")  # (a tab the loader stops at, fix's spaces mend)


@pytest.mark.parametrize(
    ("title", "rewritten", "more"),
    [
        (f"title: 공\t{TITLE[1:]}", False, ()),
        (f"title: '공\t{TITLE[1:]}'", True, ()),  # (ruamel.yaml reads a tab in quotes)
        (f"title: |\n  공\t{TITLE[1:]}", True, ()),  # (and its line end, IL606)
        # The loader stops at the other tab first, and read nothing to find this one in.
        (f"title: 공\t{TITLE[1:]}", False, (INDENT_TAB,)),
        (f"title: '공\t{TITLE[1:]}'", True, (INDENT_TAB,)),
        # A tab in a key ("the tab is part of a key"); not between a key and its colon.
        (f"title: {TITLE}", False, (("    title:", "    ti\ttle:"),)),
        (f"title\t: {TITLE}", True, ()),
    ],
)
def test_no_finding_is_fixable_in_a_file_with_a_tab_in_a_plain_value(
    tmp_path, title, rewritten, more
):
    # fix refuses the file at the tab ("the tab is part of a plain value"), and lint
    # called its trailing space (IL602) and facet order (IL304) fixable.
    edits = (f"title: {TITLE}", title), GPU_AFTER_NCCL, ("  - Example\n", "  - Example  \n")
    text = incident("IL-0001", *edits, *more)
    path = tmp_path / "IL-0001.yaml"
    path.write_bytes(text.encode("utf-8"))
    findings = check_file(path, "IL-0001.yaml", TAXONOMY, TODAY).findings
    codes = {finding.code for finding in findings}
    assert {"IL601", "IL602"} <= codes, findings
    assert not any(no_tabs.NOT_MENDED in finding.message for finding in findings), findings
    fixable = {finding.code for finding in findings if finding.fixable}
    assert (codes & {"IL304", "IL602"} <= fixable) if rewritten else fixable == set(), findings
    read = not load_bytes(text.encode("utf-8")).problems  # (else lint reports no IL304)
    try:
        _, changes, _ = fix_text(text.encode("utf-8"), TAXONOMY)
    except Refused as refused:
        assert not rewritten and refused.message.startswith("the tab is part of a "), refused
        assert ("key" in refused.message) is ("ti\ttle" in text), refused
    else:
        made = {change.code for change in changes}  # (and IL304, once fix reads the file)
        assert rewritten and (made == fixable if read else fixable <= made), changes


@pytest.mark.parametrize("char", ["\x85", "\u2028", "\u2029"])
@pytest.mark.parametrize(("after", "refused"), [("  늘렸다.", True), ("\n", False)])
def test_no_finding_is_fixable_in_a_file_with_a_unicode_break_fix_refuses(
    tmp_path, char, after, refused
):
    # In a `|` block, indented text after a NEL or U+2028: ruamel.yaml reads the file
    # otherwise than the loader, fix refuses it at the break (IL603), and lint called its
    # trailing space (IL602) fixable. A break before a line feed fix reads as lint does.
    edits = (
        ("  노드 수를 늘렸다.", f"  노드 수를{char}{after}"),
        ("  - Example\n", "  - Example  \n"),
    )
    text = incident("IL-0001", *edits)
    path = tmp_path / "IL-0001.yaml"
    path.write_bytes(text.encode("utf-8"))
    findings = check_file(path, "IL-0001.yaml", TAXONOMY, TODAY).findings
    assert {"IL602", "IL603"} <= {finding.code for finding in findings}, findings
    assert {f.code for f in findings if f.fixable} == (set() if refused else {"IL602"}), findings
    try:
        _, changes, _ = fix_text(text.encode("utf-8"), TAXONOMY)
    except Refused as refusal:
        assert refused and "ends a line for curator (YAML 1.1)" in refusal.message, refusal
    else:
        assert not refused and {change.code for change in changes} == {"IL602"}, changes


def test_fix_reports_only_changes_the_written_file_has(tmp_path):
    # `curator fmt` once wrote a null item as `- `; fix removed the space, the canonical
    # writer put it back, and fix said "removed trailing space" all the same.
    text = incident("IL-0001") + "related:\n  - \n  - IL-0002\n"
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    path = root / "incidents" / "IL-0001.yaml"
    run = run_curator("fix", "--root", str(root))
    assert run.code == 0, run
    assert run.out.splitlines() == [f"{relative(path)}:29:4: IL602 removed trailing space"]
    assert "1 change in 1 file" in run.err
    assert path.read_text(encoding="utf-8").endswith("related:\n  -\n  - IL-0002\n")
    assert [f.code for f in lint(Library.at(root)) if f.fixable] == []


SPACED = incident(
    "IL-0001",
    ("title: 공유", 'title: "공유'),
    ("떨어졌다\nstatus", '떨어졌다"  # 제목\nstatus'),
    ("  - Example\n", "  - Example  # 회사\n  - 'Other Co'\n"),
    ("  학습 처리량이 떨어졌다.\n", "  학습 처리량이\n    떨어졌다.\n\n  끝\n"),
    ("detection: |\n", "detection: >\n"),
)
WHITE = st.sampled_from(["\t", " ", "  ", "\t ", "\u3000"])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(SPACED)), WHITE), min_size=1, max_size=4))
@example([(SPACED.index("  학습") + 4, "\t"), (SPACED.index("  학습") - 1, "  ")])
@example([(218, " "), (218, "\u3000")])  # `symptoms: <space><U+3000>`: the U+3000 is a value
def test_fix_never_changes_a_value_or_a_comment_and_says_what_is_left(insertions):
    text = SPACED
    for at, white in sorted(insertions, reverse=True):
        text = text[:at] + white + text[at:]
    try:
        after, _, left = fix_text(text.encode("utf-8"), TAXONOMY)
    except Refused:
        return
    fixed = after.decode("utf-8")
    before = load_bytes(text.encode("utf-8"))
    assert load_bytes(after).problems == []
    if not before.problems:  # (else a tab in the indentation was fixed: nothing to compare)
        assert load_bytes(after).data == _named_by_id(_unpadded(before.data))
        assert sorted(comments(fixed)) == sorted(comments(text))
    found = set()
    for number, line in enumerate(fixed.split("\n"), start=1):
        if "\t" in line:
            found.add((number, "IL601"))
        if line != line.rstrip(" \t\u3000\u00a0"):
            found.add((number, "IL602"))
    assert {(change.line, change.code) for change in left} == found
    if not before.problems and _bare(text) == _bare(fixed):  # (left counts lines of `fixed`)
        _lint_agrees_with_fix(text, {(change.line, change.code) for change in left})


def _bare(text: str) -> list[str]:
    return [re.sub(r"[ \t\u3000]", "", line) for line in text.split("\n")]


def _lint_agrees_with_fix(text: str, left: set[tuple[int, str]]) -> None:
    """Lint calls a white-space finding fixable where fix fixes it, and not where fix
    leaves it (it may be more careful than fix, never less)."""
    file = parse_incident(Path("IL-0001.yaml"), "IL-0001.yaml", text.encode(), TAXONOMY, TODAY)
    lines = text.split("\n")
    for finding in [*no_tabs.check(file), *trailing_whitespace.check(file)]:
        place = (finding.line, finding.code)
        if finding.fixable:
            assert place not in left or lines[finding.line - 1].count("\t") > 1, finding
        else:
            assert place in left, finding


def _nfc(value: Any) -> Any:
    if isinstance(value, dict):
        return {_nfc(key): _nfc(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_nfc(item) for item in value]
    return unicodedata.normalize("NFC", value) if isinstance(value, str) else value


def _fixed_values(data: dict[str, Any]) -> dict[str, Any]:
    """`data` as the value fixes (and NFC) leave it, for generated incidents: no zero-width
    characters, facet lists sorted without repeats, source URLs tidied (the real taxonomy
    deprecates no term), one-line values unpadded, no source repeated."""
    fixed = _nfc(invisible_characters.less_zero_width(data))
    fixed["facets"] = {d: facet_order.tidy(terms) for d, terms in fixed["facets"].items()}
    for source in fixed["sources"]:
        source["url"] = source_url_form.tidy(source["url"])
    fixed = _unpadded(fixed)
    # A source the same in every key as one above it goes.
    fixed["sources"] = [s for i, s in enumerate(fixed["sources"]) if s not in fixed["sources"][:i]]
    return fixed


def _named_by_id(data: dict[str, Any]) -> dict[str, Any]:
    """`data` with each facet that is no term id but names one term (`t hroughput-degradation`,
    `NCCL`) written as the term's id, as fix writes it."""
    data = copy.deepcopy(data)
    facets = data.get("facets")
    for dimension, terms in facets.items() if isinstance(facets, dict) else []:
        if isinstance(terms, list):
            facets[dimension] = [_id_named(dimension, term) for term in terms]
    return data


def _id_named(dimension: str, term: Any) -> Any:
    if not isinstance(term, str) or TAXONOMY.term(dimension, term) is not None:
        return term
    return TAXONOMY.named_term(dimension, term) or term


def _unpadded(data: dict[str, Any]) -> dict[str, Any]:
    """`data` without white space around its one-line values: the title, organizations,
    and sources' titles and publishers (not one holding a line break, or only white
    space)."""

    def unpadded(value: Any) -> Any:
        if not isinstance(value, str) or not value.strip() or "\n" in value.strip():
            return value
        return value.strip()

    data = copy.deepcopy(data)
    if "title" in data:
        data["title"] = unpadded(data["title"])
    if isinstance(data.get("organizations"), list):
        data["organizations"] = [unpadded(name) for name in data["organizations"]]
    sources = data.get("sources")
    for source in sources if isinstance(sources, list) else []:
        for key in ("title", "publisher"):
            if isinstance(source, dict) and key in source:
                source[key] = unpadded(source[key])
    return data


def _comments_of(text: str) -> list[str]:
    return sorted(comments(text.removeprefix("\ufeff").replace("\r\n", "\n")))


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(documents())
def test_generated_incidents_keep_values_and_comments_through_fix_and_fmt(document):
    # Incidents in many layouts, comments beside keys and list items, facet lists with
    # repeats: fix changes only what its fixes say, keeps every comment, settles, writes
    # the canonical layout, and gives what `fmt` then `fix` gives. A file it refuses is
    # one it says why of, never "please report" (once: a repeat with a comment of its own).
    _, text, _ = document
    raw = text.encode("utf-8")
    try:
        after, changes, _ = fix_text(raw, TAXONOMY)
    except Refused as refused:
        assert "please report" not in refused.message
        return
    fixed = after.decode("utf-8")
    assert load_bytes(after).data == _fixed_values(load_bytes(raw).data)
    assert _comments_of(fixed) == [unicodedata.normalize("NFC", c) for c in _comments_of(text)]
    assert fix_text(after, TAXONOMY)[:2] == (after, [])
    assert render(after) == fixed if changes else after == raw
    formatted_first, _, _ = fix_text(render(raw).encode("utf-8"), TAXONOMY)
    assert formatted_first == render(after).encode("utf-8")


def test_fix_over_the_broken_examples_leaves_no_fixable_finding(tmp_path):
    root = tmp_path / "broken"
    shutil.copytree(BROKEN, root)
    before = {p.name: p.read_bytes() for p in (root / "incidents").iterdir() if p.is_file()}
    assert fixable_findings(root)
    run = run_curator("fix", "--root", str(root))
    assert run.code == 1  # some examples cannot be read at all; they are named
    for path, code in fixable_findings(root):  # only in files fix could not read, named
        assert f"{os.path.basename(path)}:" in run.err, (path, code)
        assert load_bytes((root / path).read_bytes()).problems, (path, code)
    for name, raw in before.items():
        after = (root / "incidents" / name).read_bytes()
        if after != raw:
            assert load_bytes(after).problems == [], name
            assert f"{name}:" in run.out
        elif load_bytes(raw).problems:
            assert f"{name}:" in run.err, name


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_lint_marks_the_new_fixable_rules_in_every_format(tmp_path, fmt):
    text = incident(
        "IL-0001",
        ("    - nccl\n", "    - nccl\n    - gpu\n"),
        ("postmortems/IL-0001", "postmortems/IL-0001?fbclid=x"),
    )
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    run = run_curator("lint", "--root", str(root), "--format", fmt)
    assert run.code == 0
    if fmt == "json":
        rows = {r["code"]: r["fixable"] for r in json.loads(run.out)}
        assert rows == {"IL304": True, "IL505": True}
    else:
        mark = "(fixable)" if fmt == "text" else "(fixable with `curator fix`)"
        lines = run.out.splitlines()
        assert len(lines) == 2 and all(line.endswith(mark) for line in lines), lines


def test_rules_shows_which_rules_can_fix():
    run = run_curator("rules", "--format", "json")
    table = {row["code"]: row["fixable"] for row in json.loads(run.out)}
    assert {code for code, fixable in table.items() if fixable} == FIXED_CODES
    text = run_curator("rules").out.splitlines()
    assert any(line.startswith("IL505  warning  fix  source-url-form") for line in text)
    assert any(line.startswith("IL304  warning  fix  facet-order") for line in text)


def broken_layout(incident_id: str) -> bytes:
    """An incident with a byte-order mark, CRLF line ends and a trailing space: three
    text fixes, each a line of `curator fix`."""
    text = incident(incident_id).replace("status: published", "status: published  ")
    return b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8")


def test_fix_check_lists_the_changes_and_writes_nothing(tmp_path):
    files = {"IL-0001.yaml": broken_layout("IL-0001"), "IL-0002.yaml": incident("IL-0002")}
    root = write_library(tmp_path / "lib", files)
    path = root / "incidents" / "IL-0001.yaml"
    check = run_curator("fix", "--check", cwd=root)
    assert check.code == 1, check
    assert check.out.splitlines() == [
        "incidents/IL-0001.yaml:1:1: IL604 removed the byte-order mark",
        "incidents/IL-0001.yaml:1:12: IL603 changed 27 CR/CRLF line end(s) to LF",
        "incidents/IL-0001.yaml:3:18: IL602 removed trailing space",
    ]
    assert "3 changes in 1 file would be made; nothing written" in check.err
    assert path.read_bytes() == files["IL-0001.yaml"]
    # The same changes as `fix` then makes, after which there is nothing left to check.
    fixed = run_curator("fix", cwd=root)
    assert (fixed.code, fixed.out) == (0, check.out)
    again = run_curator("fix", "--check", cwd=root)
    assert (again.code, again.out) == (0, "")
    assert again.err.endswith("nothing to fix in 2 files\n")


def test_fix_leaves_a_file_edited_since_it_was_read_as_it_now_is(tmp_path, monkeypatch):
    # Every file is read and fixed, then the changed ones written: an edit saved in
    # between was overwritten with the fixed old bytes.
    files = {"IL-0001.yaml": broken_layout("IL-0001"), "IL-0002.yaml": broken_layout("IL-0002")}
    root = write_library(tmp_path / "lib", files)
    edited, path = root / "incidents" / "IL-0001.yaml", root / "incidents" / "IL-0002.yaml"
    saved = incident("IL-0001", ("Storage postmortem", "방금 저장한 제목"))
    making = atomic.tempfile.mkstemp

    def saving_first(**where):
        if edited.read_bytes() == files["IL-0001.yaml"]:
            edited.write_text(saved, encoding="utf-8")
        return making(**where)

    monkeypatch.setattr(atomic.tempfile, "mkstemp", saving_first)
    first, second = fix_files([edited, path], TAXONOMY)
    assert (first.changed, first.changes, first.left) == (False, [], [])
    assert first.refused is not None
    assert first.refused.message == "the file changed while curator was rewriting it; run again"
    assert edited.read_text(encoding="utf-8") == saved
    assert second.refused is None and len(second.changes) == 3
    assert path.read_text(encoding="utf-8") == incident("IL-0002")


def test_fix_diff_prints_a_patch_that_makes_what_fix_writes(tmp_path):
    files = {"IL-0001.yaml": broken_layout("IL-0001"), "IL-0002.yaml": incident("IL-0002")}
    root = write_library(tmp_path / "lib", files)
    path = root / "incidents" / "IL-0001.yaml"
    # Bytes, not text: the patch's removed lines end in CR LF, as the file's do.
    run = subprocess.run(
        [sys.executable, "-m", "curator", "fix", "--diff"], cwd=root, capture_output=True
    )
    assert run.returncode == 1, run
    assert path.read_bytes() == files["IL-0001.yaml"]
    # Standard output is the patch alone; the changes are listed on standard error.
    assert run.stdout.startswith(b"--- a/incidents/IL-0001.yaml\n+++ b/incidents/IL-0001.yaml\n")
    assert b"\n-status: published  \r\n" in run.stdout
    assert b"\n+status: published\n" in run.stdout
    assert "incidents/IL-0001.yaml:3:18: IL602 removed trailing space" in run.stderr.decode()
    applied = subprocess.run(["git", "apply", "-"], input=run.stdout, cwd=root, capture_output=True)
    assert applied.returncode == 0, applied.stderr
    assert path.read_text(encoding="utf-8") == incident("IL-0001")
    again = run_curator("fix", "--diff", cwd=root)
    assert (again.code, again.out, again.err) == (0, "", "nothing to fix in 2 files\n")


# `fix` reads for a fix only the files lint finds something in ---------------------------


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """A synthetic library with a defect of each rule at a known place, large enough for
    lint's worker processes (200 files and more)."""
    root, _ = synthetic_library(tmp_path_factory.mktemp("fix") / "lib", count=250, seed=11)
    return root


def test_a_file_lint_finds_nothing_in_is_one_fix_has_nothing_to_do_with(generated, tmp_path):
    # What lets `fix` leave unread the files lint finds nothing in: every fix answers a
    # finding, so a file without one is one fix would neither change, nor leave something
    # in for people, nor refuse. Over files of every kind: the synthetic library (each
    # rule's defect, the fixable ones among them), the broken examples, text a fix must
    # leave, and a clean file that is not in the canonical layout.
    extra = write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": incident("IL-0001", *IN_VALUES),
            "IL-0002.yaml": incident("IL-0002").replace(
                "organizations:\n  - Example\n", "organizations: [Example]\n"
            ),
        },
    )
    corpus = [
        (root, path)
        for root in (generated, BROKEN, extra)
        for path in sorted((root / "incidents").iterdir())
    ]
    flagged = clean = 0
    for root, path in corpus:
        taxonomy = Library.at(root).taxonomy
        found = check_file(path, str(path), taxonomy, TODAY).findings
        fixed = fix_file(path, taxonomy)
        if found:
            flagged += bool(fixed.changes or fixed.left or fixed.refused)
            continue
        clean += 1
        done = (fixed.changes, fixed.left, fixed.refused, fixed.changed)
        assert done == ([], [], None, False), path
    assert flagged >= len(FIXED_CODES) and clean >= 200  # both kinds, many of each


def test_fix_reads_only_the_files_lint_finds_something_in(tmp_path, monkeypatch):
    files = {f"IL-000{n}.yaml": incident(f"IL-000{n}") for n in range(1, 5)}
    files["IL-0002.yaml"] = broken_layout("IL-0002")
    root = write_library(tmp_path / "lib", files)
    paths = sorted((root / "incidents").iterdir())
    read = []

    def recording(path, taxonomy, cwd=None, **kwargs):
        read.append(path.name)
        return fix_file(path, taxonomy, cwd, **kwargs)

    monkeypatch.setattr(curator.fix, "fix_file", recording)
    results = fix_files(paths, Library.at(root).taxonomy, cwd=root, write=False)
    assert read == ["IL-0002.yaml"]
    assert [r.display for r in results] == [f"incidents/{p.name}" for p in paths]
    assert [len(r.changes) for r in results] == [0, 3, 0, 0]
    assert [r.changed for r in results] == [False, True, False, False]


def checks_made(monkeypatch):
    """The files lint checks afresh from now on (not answered by its cache), by name."""
    checked = []
    check = curator.lint.check_file

    def counting(path, *args, **kwargs):
        checked.append(Path(path).name)
        return check(path, *args, **kwargs)

    monkeypatch.setattr(curator.lint, "check_file", counting)
    return checked


def invoke(*args):
    from click.testing import CliRunner

    import curator.cli

    return CliRunner().invoke(curator.cli.main, list(args))


def test_fix_uses_and_keeps_lint_s_cache_over_the_whole_library(tmp_path, monkeypatch):
    files = {f"IL-000{n}.yaml": incident(f"IL-000{n}") for n in range(1, 4)}
    files["IL-0002.yaml"] = broken_layout("IL-0002")
    root = write_library(tmp_path / "lib", files)
    checked = checks_made(monkeypatch)
    first = invoke("fix", "--check", "--root", str(root))
    assert first.exit_code == 1 and sorted(checked) == sorted(files)
    checked.clear()
    again = invoke("fix", "--check", "--root", str(root))  # answered by the cache it kept
    assert (again.exit_code, again.output, checked) == (1, first.output, [])
    assert lint(Library.at(root), cache=True) != [] and checked == []  # lint's own cache
    afresh = invoke("fix", "--check", "--no-cache", "--root", str(root))
    assert (afresh.exit_code, afresh.output) == (1, first.output)
    assert sorted(checked) == sorted(files)
    checked.clear()
    named = invoke("fix", "--check", "--root", str(root), str(root / "incidents" / "IL-0003.yaml"))
    assert (named.exit_code, checked) == (0, ["IL-0003.yaml"])  # files named: checked afresh
    assert "nothing to fix in 1 file" in named.output


def test_fix_quiet_and_jobs(generated, tmp_path):
    root = tmp_path / "lib"
    shutil.copytree(generated, root)
    runs = [
        run_curator("fix", "--check", "--no-cache", "--root", str(root), *jobs)
        for jobs in (["-j", "1"], ["--jobs", "2"])
    ]
    assert runs[0].code == runs[1].code == 1
    assert runs[0].out == runs[1].out and runs[0].err == runs[1].err
    # Each fixable rule's defect is mended, but the tab, which is in a value, and the
    # schema's and the taxonomy's, which are none fix mends (an unknown key, a misspelt id).
    made = {line.split(": ")[1].split()[0] for line in runs[0].out.splitlines()}
    assert made == FIXED_CODES - {"IL601", "IL201", "IL301"} and "IL601 not fixed" in runs[0].err
    assert runs[0].err.endswith(
        "8 changes in 8 files would be made; nothing written; 8 could not be fixed\n"
    )
    quiet = run_curator("fix", "--check", "--quiet", "--root", str(root))
    assert (quiet.code, quiet.out) == (1, runs[0].out)
    assert "would be made" not in quiet.err and "cannot fix" in quiet.err
    refused = run_curator("fix", "--root", str(root), "-j", "0")
    assert refused.code == 2 and "-j" in refused.err


@pytest.mark.parametrize("mark", ["\ufeff", "\u200b"])
def test_a_zero_width_character_in_a_key_goes_only_where_no_value_is_lost(tmp_path, mark):
    # `sta<U+FEFF>tus:` shows as `status:`, and lint says 'status' is missing: fix takes
    # the character out (said, at it) and the value is status's. Where the file has a
    # `status:` too, that would make a duplicate key: the file is left, both values in it.
    alone = incident("IL-0001", ("status: published", f"sta{mark}tus: published"))
    both = incident("IL-0002", ("status: published", f"status: published\nsta{mark}tus: draft"))
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": alone, "IL-0002.yaml": both})
    run = run_curator("fix", "--root", str(root), cwd=root)
    assert run.out == "incidents/IL-0001.yaml:3:4: IL606 removed 1 zero-width character(s)\n"
    assert (root / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8") == incident("IL-0001")
    assert (root / "incidents" / "IL-0002.yaml").read_text(encoding="utf-8") == both
    assert "1 change in 1 file" in run.err and run.code == (1 if mark == "\ufeff" else 0), run


@pytest.mark.parametrize("mark", ["\ufeff", "\u200b"])
def test_a_zero_width_character_left_in_a_key_is_said_with_why_and_what_to_do(tmp_path, mark):
    # Without the character, `sta<mark>tus:` would be a second `status:`: fix leaves it, and
    # says so with what to do, where it said "remove it by hand" of U+FEFF (which makes the
    # duplicate key) and nothing at all of U+200B ("nothing to fix in 1 file").
    both = incident("IL-0002", ("status: published", f"status: published\nsta{mark}tus: draft"))
    root = write_library(tmp_path / "lib", {"IL-0002.yaml": both})
    why = (
        f"without its zero-width characters the key 'sta\\u{ord(mark):04x}tus' on line 4 would "
        "be 'status', which its mapping has on line 3 already; merge or rename the two keys by hand"
    )
    for check in ("--check",), ():
        run = run_curator("fix", *check, "--root", str(root), cwd=root)
        said = run.err.splitlines()[0]
        if mark == "\ufeff":
            mark_left = "holds U+FEFF, a byte-order mark, which `curator fix` leaves"
            assert said == f"incidents/IL-0002.yaml:4:4: cannot fix: {mark_left}: {why}", run
            assert run.code == 1
        else:
            assert said == f"incidents/IL-0002.yaml:4:4: IL606 not fixed: {why}", run
            assert run.code == 0
        assert run.out == ""
        assert (root / "incidents" / "IL-0002.yaml").read_text(encoding="utf-8") == both
    if mark == "\ufeff":
        run = run_curator("fmt", "--check", "--root", str(root), cwd=root)
        assert run.err.splitlines()[0] == (
            "incidents/IL-0002.yaml:4:4: cannot format: holds U+FEFF, a byte-order mark, which "
            f"`curator fix` leaves: {why}"
        )


@pytest.mark.parametrize("mark", ["\ufeff", "\u200b"])
def test_lint_gives_a_zero_width_character_left_in_a_key_the_advice_fix_gives(tmp_path, mark):
    # Lint ended its IL606 `remove it`, which makes the duplicate key fix will not make.
    both = incident("IL-0002", ("status: published", f"status: published\nsta{mark}tus: draft"))
    root = write_library(tmp_path / "lib", {"IL-0002.yaml": both})
    [found] = [f for f in lint(Library.at(root)) if f.code == "IL606"]
    assert (found.line, found.column, found.fixable) == (4, 4, False)
    assert found.message.endswith(
        f"searches; without its zero-width characters the key 'sta\\u{ord(mark):04x}tus' on "
        "line 4 would be 'status', which its mapping has on line 3 already; merge or rename "
        "the two keys by hand"
    ), found.message


def test_a_zero_width_character_fix_leaves_is_said_at_its_place_in_the_file_written(tmp_path):
    # Another fix (a trailing space) rewrites the file, and the layout puts the unknown key
    # last: the character left is said where the written file has it, as lint then says it.
    both = incident(
        "IL-0002",
        ("status: published", "status: published\nsta\u200btus: draft"),
        ("2024-05", "2024-05 "),
    )
    root = write_library(tmp_path / "lib", {"IL-0002.yaml": both})
    dry = run_curator("fix", "--check", "--root", str(root), cwd=root)
    assert dry.out == "incidents/IL-0002.yaml:5:18: IL602 removed trailing space\n"
    why = "IL606 not fixed: without its zero-width characters the key 'sta\\u200btus' on line"
    assert f"incidents/IL-0002.yaml:4:4: {why} 4 would be 'status'" in dry.err
    run = run_curator("fix", "--root", str(root), cwd=root)
    assert run.out == dry.out
    [found] = [f for f in lint(Library.at(root)) if f.code == "IL606"]
    assert (
        f"incidents/IL-0002.yaml:{found.line}:{found.column}: IL606 not fixed: without its "
        f"zero-width characters the key 'sta\\u200btus' on line {found.line} would be 'status'"
    ) in run.err
    assert found.line > 4  # (moved)


@pytest.mark.parametrize("mark", ["\ufeff", "\u200b"])
def test_lint_fix_and_fmt_say_the_same_of_a_zero_width_character_fix_leaves(tmp_path, mark):
    # In the key `a <mark>#b`, out of the text it would start a comment. Lint said `remove
    # it`, which does that; fix, for U+200B, `taken out of the text they would change
    # organizations[0] too, so fix takes them out of values alone; remove the others by
    # hand` (there were no others), and for U+FEFF `remove it by hand`, as fmt did.
    text = incident("IL-0001", ("  - Example\n", f"  - a {mark}#b: c\n"))
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    why = "without it organizations[0] would read otherwise; fix it by hand"
    [found] = [f for f in lint(Library.at(root)) if f.code == "IL606"]
    assert (found.line, found.column, found.fixable) == (6, 7, False)
    assert found.message.endswith(f"; {why}"), found.message
    fixed = run_curator("fix", "--check", "--root", str(root), cwd=root)
    formatted = run_curator("fmt", "--check", "--root", str(root), cwd=root)
    if mark == "\ufeff":
        left = f"holds U+FEFF, a byte-order mark, which `curator fix` leaves: {why}"
        assert fixed.err.splitlines()[0] == f"incidents/IL-0001.yaml:6:7: cannot fix: {left}"
        assert formatted.err.splitlines()[0] == f"incidents/IL-0001.yaml:6:7: cannot format: {left}"
    else:
        assert fixed.err.splitlines()[0] == f"incidents/IL-0001.yaml:6:7: IL606 not fixed: {why}"
        assert formatted.code == 0, formatted
    assert (root / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8") == text


def test_zero_width_characters_fix_has_no_reads_left_to_try_are_said_not_tried(tmp_path):
    # Each tried alone is a read of the whole file: as many as `tries` allows (20 for a
    # file of 100,000 characters), the others left, said once a line.
    long = ("작은 규모 시험으로는 알 수 없었다. " * 4800).strip()
    text = incident(
        "IL-0001",
        ("status: published", "status: published\nsta\u200btus: draft"),
        ("organizations:\n", "organizations:  # " + "회사\u200b" * 30 + "\n"),
        ("  작은 규모 시험으로는 알 수 없었다.", f"  {long}"),
    )
    assert edits.tries(text) == 20
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    run = run_curator("fix", "--check", "--root", str(root), cwd=root)
    assert run.out == "incidents/IL-0001.yaml:6:21: IL606 removed 19 zero-width character(s)\n"
    assert run.err.splitlines()[:2] == [
        "incidents/IL-0001.yaml:4:4: IL606 not fixed: without its zero-width characters the key "
        "'sta\\u200btus' on line 4 would be 'status', which its mapping has on line 3 "
        "already; merge or rename the two keys by hand",
        "incidents/IL-0001.yaml:6:78: IL606 not fixed: not tried (too many in a file this "
        "size); remove it by hand",
    ], run


def test_a_zero_width_character_in_a_comment_goes_where_one_in_a_value_goes_from_it_alone(
    tmp_path,
):
    # Out of the text, ` #1` would start a comment: fix takes that one out of the value
    # alone. It left the one in the comment too ("not fixed: …; remove the others by hand"):
    # all of them stayed in the text where one could not go.
    text = incident(
        "IL-0001",
        ("organizations:\n", "organizations:  # 회\u200b사\n"),
        ("  - Example\n", "  - Example \u200b#1\n"),
    )
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    run = run_curator("fix", "--root", str(root), cwd=root)
    assert run.out.splitlines() == [
        "incidents/IL-0001.yaml:5:20: IL606 removed 1 zero-width character(s)",
        "incidents/IL-0001.yaml:6:5: IL606 organizations[0]: removed 1 zero-width character(s)",
    ]
    assert "not fixed" not in run.err, run
    written = (root / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8")
    assert "organizations:  # 회사\n  - 'Example #1'\n" in written
    assert lint(Library.at(root)) == []


def test_fix_removes_the_zero_width_characters_it_can_and_says_each_it_leaves(tmp_path):
    # Two keys would be keys their mapping has already without theirs: fix left every
    # zero-width character of the file, the title's and the comment's too, and said the
    # first key alone. It now takes out those it can, and says each it leaves and why.
    text = incident(
        "IL-0001",
        ("공유 스토리지", "공유 스\u200b토리지"),
        ("status: published", "status: published\nsta\u200btus: draft\nti\u2060tle: 제목"),
        ("organizations:\n", "organizations:  # 회\u200b사\n"),
    )
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    why = (
        "without its zero-width characters the key {key!r} on line {line} would be {name!r}, "
        "which its mapping has on line {first} already; merge or rename the two keys by hand"
    )
    status = {"key": "sta\u200btus", "name": "status", "first": 3}
    title = {"key": "ti\u2060tle", "name": "title", "first": 2}
    dry = run_curator("fix", "--check", "--root", str(root), cwd=root)
    assert dry.out == "incidents/IL-0001.yaml:2:12: IL606 removed 2 zero-width character(s)\n"
    assert dry.err.splitlines()[:2] == [
        f"incidents/IL-0001.yaml:4:4: IL606 not fixed: {why.format(line=4, **status)}",
        f"incidents/IL-0001.yaml:5:3: IL606 not fixed: {why.format(line=5, **title)}",
    ], dry
    run = run_curator("fix", "--root", str(root), cwd=root)
    assert run.out == dry.out
    written = (root / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8")
    # (The layout puts the keys it does not know last: they are said where they now are.)
    end = len(written.splitlines())
    assert written.endswith("sta\u200btus: draft\nti\u2060tle: 제목\n")
    left = "incidents/IL-0001.yaml:{}:{}: IL606 not fixed: {}"
    assert run.err.splitlines()[:2] == [
        left.format(end - 1, 4, why.format(line=end - 1, **status)),
        left.format(end, 3, why.format(line=end, **title)),
    ], run
    assert "organizations:  # 회사\n" in written
    expected = load_bytes(text.encode()).data
    expected["title"] = expected["title"].replace("\u200b", "")
    assert load_bytes(written.encode()).data == expected
    [found] = [f for f in lint(Library.at(root)) if f.code == "IL606"]
    assert (found.line, found.column, found.fixable) == (end - 1, 4, False)
    assert found.message.endswith(f"; {why.format(line=end - 1, **status)}"), found.message
