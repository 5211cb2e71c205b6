"""IL108: a ` #` after unquoted text drops the rest of the line; where it is and is not one."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from conftest import run_curator, write_library

from curator.lint import parse_incident
from curator.rules import comment_in_text
from curator.taxonomy import load_taxonomy
from curator.write.canonical import render
from incidents import file_findings, incident

REPO = Path(__file__).resolve().parent.parent
TITLE = "title: 공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다"


def findings(text: str) -> list[tuple[int, int, str]]:
    return file_findings(comment_in_text, text)


@pytest.mark.parametrize(
    ("old", "new", "line", "column", "lost"),
    [
        ("title: 공유", "title: Incident #19009 공유", 2, 17, "`#19009 공유"),
        ("  - Example", "  - Example # 주최 기관", 6, 13, "`# 주최 기관`"),
        ("로컬 디스크로 옮겼다.", "로컬 디스크로 옮겼다 #7", 22, 22, "`#7`"),
        ("    title: Storage postmortem", "    title: Storage postmortem #3", 27, 31, "`#3`"),
        # Plain text on several lines: the comment ends it on its last line.
        ("title: 공유", "title: 공유\n  Incident #19009 공유", 3, 12, "`#19009 공유"),
        ("  - Example", "  - Example\n    Org # 주최 기관", 7, 9, "`# 주최 기관`"),
    ],
)
def test_a_comment_after_unquoted_text_is_an_error_that_names_what_was_dropped(
    old, new, line, column, lost
):
    [(found_line, found_column, message)] = findings(incident("IL-0001", (old, new)))
    assert (found_line, found_column) == (line, column)
    assert lost in message


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (TITLE, f'title: "Incident #19009 {TITLE[7:]}"  # 원문 제목'),  # quoted: whole
        ("status: published", "status: published # 출처 확인 뒤"),  # not a text field
        ("  - Example", "  - Example  # 주최 기관"),  # two spaces: a comment meant as one
        ("title: 공유", "title: 공유 스토리지\t\t# 탭 둘"),  # (libyaml reads tabs there too)
        ("  학습 처리량이 떨어졌다.", "  학습 처리량이 떨어졌다. #3 은 텍스트다."),  # a block
        ("lessons: |\n  작은 규모", "lessons: !!str |\n  작은 #3 규모"),  # a block after a tag
        ("옮겼다.", "옮겼다.(#2226)"),  # no space before `#`: text
        ("postmortems/{id}", "postmortems/{id}#timeline"),  # a URL's fragment
        ("sources:", "# 출처\nsources:"),  # a comment on its own line
        ("detection: |\n  처리량 그래프에서 보였다.", "detection: # 모름"),  # empty: nothing lost
    ],
)
def test_quoted_values_blocks_other_fields_and_own_line_comments_are_fine(old, new):
    text = incident("IL-0001", (old.replace("{id}", "IL-0001"), new.replace("{id}", "IL-0001")))
    assert findings(text) == []


@pytest.mark.parametrize(
    ("old", "new", "line", "column", "message"),
    [
        (
            "detection: |\n  처리량 그래프에서 보였다.",
            "detection: #장애-채널 알림으로 알았다",
            19,
            12,
            "`#장애-채널 알림으로 알았다` is a YAML comment, so detection is empty; quote the "
            "whole value if it belongs to it",
        ),
        (
            "title: 공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다",
            "title: #1 공유 스토리지 장애",
            2,
            8,
            "`#1 공유 스토리지 장애` is a YAML comment, so title is empty; quote the whole "
            "value if it belongs to it",
        ),
        (
            "  - Example",
            "  - #3 Example",
            6,
            5,
            "`#3 Example` is a YAML comment, so organizations[0] is empty; quote the whole "
            "value if it belongs to it",
        ),
    ],
)
def test_text_dropped_whole_as_a_comment_leaves_the_value_empty_and_is_an_error(
    old, new, line, column, message
):
    # `#` with text at once after the key or the dash: YAML reads no value, and the text
    # is gone without a trace (detection may be empty: no other rule said a word).
    taxonomy = load_taxonomy(REPO / "schema" / "taxonomy")
    path = Path("IL-0001.yaml")
    text = incident("IL-0001", (old, new))
    file = parse_incident(path, path.name, text.encode(), taxonomy, dt.date(2026, 1, 1))
    assert not file.loaded.problems
    found = [(f.line, f.column, f.message) for f in comment_in_text.check(file)]
    assert found == [(line, column, message)]


KEPT = (
    "is text of {}, not a comment: YAML starts a comment at '#' (U+0023), not at U+FF03 "
    "FULLWIDTH NUMBER SIGN; write '#' with two spaces before it, or quote the whole value if "
    "it belongs to it"
)


@pytest.mark.parametrize(
    ("old", "new", "column", "kept", "name"),
    [
        (
            "떨어졌다\n",
            "떨어졌다  \uff03 원문 제목과 다름\n",
            41,
            "\uff03 원문 제목과 다름",
            "title",
        ),
        ("  - Example", "  - Example \uff03", 13, "\uff03", "organizations[0]"),
        (
            "    title: Storage postmortem",
            "    title: Storage postmortem\u3000\uff03 원제",
            31,
            "\uff03 원제",
            "sources[0].title",
        ),
    ],
)
def test_a_comment_started_with_a_full_width_number_sign_is_kept_as_text_and_reported(
    old, new, column, kept, name
):
    # A Korean input method types `＃` for `#`: no comment to YAML, so the note is text of
    # the value, in the data and every export, and nothing else says so.
    text = incident("IL-0001", (old, new))
    line = text[: text.index(new)].count("\n") + 1
    assert findings(text) == [(line, column, f"`{kept}` {KEPT.format(name)}")]


INSIDE = (
    "is text of {}, not a comment: YAML starts a comment at '#' (U+0023), not at U+FF03 "
    "FULLWIDTH NUMBER SIGN, and a comment cannot stand inside a value on several lines (YAML "
    "joins them into one text); write it with '#' after the value's last line, or quote the "
    "whole value if it belongs to it"
)


@pytest.mark.parametrize(
    ("new", "found"),
    [
        # On the last line, `#` would start a comment, as after a value on one line.
        ("title: 공유 스토리지\n  장애  \uff03 원제", [(3, 7, f"`\uff03 원제` {KEPT}")]),
        # Before it, a `#` would end the value, and YAML refuse the line going on with it.
        ("title: 공유 스토리지  \uff03 원제\n  장애", [(2, 17, f"`\uff03 원제` {INSIDE}")]),
        ("title: 공유 스토리지\n  \uff03 원제\n  장애", [(3, 3, f"`\uff03 원제` {INSIDE}")]),
        (
            "title: 공유 \uff03 가\n  스토리지 \uff03\n  장애 \uff03 나",
            [
                (2, 11, f"`\uff03 가` {INSIDE}"),
                (3, 8, f"`\uff03` {INSIDE}"),
                (4, 6, f"`\uff03 나` {KEPT}"),
            ],
        ),
    ],
)
def test_a_full_width_number_sign_on_any_line_of_plain_text_on_several_lines_is_reported(
    new, found
):
    # Each line was left alone: the note was text of the value, folded into it, as on one
    # line, and nothing said so.
    text = incident("IL-0001", (TITLE, new))
    assert findings(text) == [
        (line, column, message.format("title")) for line, column, message in found
    ]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("  - Example", "  - Example\uff03 주최"),  # no white space before it
        ("  - Example", "  - Example \uff03주최"),  # text right after it: a tag, a number
        (TITLE, f'title: "{TITLE[7:]}  \uff03 원문"'),  # quoted: whole
        (
            "  학습 처리량이 떨어졌다.",
            "  학습 처리량이 떨어졌다.  \uff03 3 은 텍스트다.",
        ),  # a block
        ("status: published", "status: published"),  # (no ＃ at all: the rule returns early)
    ],
)
def test_a_full_width_number_sign_in_text_or_quotes_is_left_alone(old, new):
    assert findings(incident("IL-0001", (old, new))) == []


@pytest.mark.parametrize(
    "text",
    [
        "organizations:\n  - a: b #x",  # a mapping where text goes, ending past the last line
        "organizations:\n  - - x\n    - #y",
        "actions:\n  - #y",  # an emptied item at the end, no line break after it
    ],
)
def test_a_value_that_is_no_text_or_ends_the_file_is_read_without_failing(text):
    # Found by fuzzing: with no line break at the end, a value's span ends on a line past
    # the last, and the rule read that line for a comment (IL001, IndexError).
    taxonomy = load_taxonomy(REPO / "schema" / "taxonomy")
    path = Path("IL-0001.yaml")
    file = parse_incident(path, path.name, text.encode(), taxonomy, dt.date(2026, 1, 1))
    found = [(f.line, f.column, f.message[:5]) for f in comment_in_text.check(file)]
    assert found == ([(2, 5, "`#y` ")] if text.startswith("actions") else [])


def test_the_bundled_library_keeps_every_hash_in_its_text():
    taxonomy = load_taxonomy(REPO / "schema" / "taxonomy")
    for path in sorted((REPO / "incidents").glob("*.yaml")):
        file = parse_incident(path, path.name, path.read_bytes(), taxonomy, dt.date(2026, 1, 1))
        assert list(comment_in_text.check(file)) == [], path.name


def test_a_list_replaced_by_a_later_shorter_one_is_read_as_the_data_holds_it():
    # A key written twice keeps its later value (IL102): the items of the earlier, longer
    # list have places but no data. Checking them crashed the rule (IL001) in a file with
    # a `#`; the later list's `#` is still found.
    three = "  - 데이터를 로컬 디스크로 옮겼다.\n  - 둘째.\n  - 셋째.\n"
    text = incident("IL-0001", ("  - 데이터를 로컬 디스크로 옮겼다.\n", three))
    text += "actions:\n  - 한 번만 적었다 #1\n"
    taxonomy = load_taxonomy(REPO / "schema" / "taxonomy")
    path = Path("IL-0001.yaml")
    file = parse_incident(path, path.name, text.encode(), taxonomy, dt.date(2026, 1, 1))
    assert file.loaded.data["actions"] == ["한 번만 적었다"]
    assert [(f.line, f.message[:4]) for f in comment_in_text.check(file)] == [
        (text.count("\n"), "`#1`")
    ]


def test_fmt_writing_plain_text_on_one_line_keeps_its_finding():
    # Plain text on several lines is written on one by `curator fmt`: its comment stays
    # the single space after the text its author wrote, and lint still reports it.
    old = "lessons: |\n  작은 규모 시험으로는 알 수 없었다."
    text = incident("IL-0001", (old, "lessons:\n  작은 규모\n  시험 #3 으로는"))
    out = render(text.encode())
    assert "\nlessons: 작은 규모 시험 #3 으로는\n" in out
    assert [message[:8] for _, _, message in findings(text)] == ["`#3 으로는`"]
    assert [message[:8] for _, _, message in findings(out)] == ["`#3 으로는`"]


def test_a_note_written_as_a_comment_inside_a_block_is_text_and_a_warning(tmp_path):
    # A `# ` line inside a `|` block looked like a comment to its author and was kept as
    # text in the field and every export, with no word from lint or fmt.
    note = ("  학습 처리량이 떨어졌다.", "  # 원문 다시 확인\n  학습 처리량이 떨어졌다.")
    folded = ("  - 데이터를", "  - >\n    데이터를\n    # 확인 필요\n    다시")
    root = write_library(tmp_path / "lib", {"IL-0025.yaml": incident("IL-0025", note, folded)})
    run = run_curator("lint", "--root", str(root), "--no-cache", "--quiet", cwd=root)
    assert run.code == 0, run
    assert run.out.splitlines() == [
        "incidents/IL-0025.yaml:16:3: IL108 [warning] `# 원문 다시 확인` is text of symptom, "
        "not a comment: every line of a `|` or `>` block is text; write a note on a line of "
        "its own above the block, or leave it if it belongs to the text",
        "incidents/IL-0025.yaml:25:5: IL108 [warning] `# 확인 필요` is text of actions[0], "
        "not a comment: every line of a `|` or `>` block is text; write a note on a line of "
        "its own above the block, or leave it if it belongs to the text",
    ], run


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("  학습 처리량이 떨어졌다.", "  #장애-채널 에 알렸다"),  # a channel's name: text
        ("trigger: |", "# 메모\ntrigger: |"),  # a comment after the block, not in it
        ("symptom: |", "symptom: |  # 증상"),  # the block's own comment
    ],
)
def test_a_hash_in_a_block_that_is_no_note_is_left_alone(old, new):
    assert findings(incident("IL-0001", (old, new))) == []
