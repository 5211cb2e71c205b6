"""IL109: a line of unquoted text that starts like a list item is joined to the text above."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.rules import list_item_in_text
from curator.write.canonical import Refused, render
from incidents import file_findings, incident

REPO = Path(__file__).resolve().parent.parent
ACTION = "  - 데이터를 로컬 디스크로 옮겼다."


def findings(text: str) -> list[tuple[int, int, str]]:
    return file_findings(list_item_in_text, text)


@pytest.mark.parametrize(
    ("new", "line", "column", "joined"),
    [
        # A list nested under an item, as Markdown writes one: one action, not three.
        (
            f"{ACTION}\n    - 컨트롤러를 재시작했다\n    - 펌웨어를 되돌렸다",
            23,
            5,
            "actions[0] is “데이터를 로컬 디스크로 옮겼다. - 컨트롤러를 재시작했다 - 펌웨어를",
        ),
        # An item indented one space too deep.
        (f"{ACTION}\n   - 재시작했다", 23, 4, "옮겼다. - 재시작했다”"),
        # Markdown's and the typewriter's bullets under a text field.
        ("lessons: 두 가지\n  * 작은 규모 시험\n  * 경보", 24, 3, "lessons is “두 가지 * 작은"),
        ("lessons: 두 가지\n  • 작은 규모 시험", 24, 3, "lessons is “두 가지 • 작은 규모 시험”"),
        # A dash alone on its line.
        (f"{ACTION}\n    -", 23, 5, "actions[0] is “데이터를 로컬 디스크로 옮겼다. -”"),
    ],
)
def test_a_list_mark_on_a_line_of_unquoted_text_is_an_error_that_shows_the_joined_text(
    new, line, column, joined
):
    old = ACTION if new.startswith(ACTION) else "lessons: |\n  작은 규모 시험으로는 알 수 없었다."
    found = findings(incident("IL-0001", (old, new)))
    assert (found[0][0], found[0][1]) == (line, column)
    assert joined in found[0][2]
    assert "at the indent of the list's other items" in found[0][2]


def test_each_line_that_starts_like_an_item_is_reported_at_its_mark():
    new = f"{ACTION}\n    - 컨트롤러를 재시작했다\n    - 펌웨어를 되돌렸다"
    found = findings(incident("IL-0001", (ACTION, new)))
    assert [(line, column) for line, column, _ in found] == [(23, 5), (24, 5)]


def test_a_long_joined_text_is_shortened_in_the_message():
    new = f"{ACTION}\n    - {'가' * 100}"
    [(_, _, message)] = findings(incident("IL-0001", (ACTION, new)))
    assert "…”" in message and "가" * 100 not in message


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (ACTION, f"{ACTION}\n  - 컨트롤러를 재시작했다"),  # two items, as meant
        (ACTION, '  - "스토리지 조치\n    - 이 줄도 값의 일부다"'),  # quoted: the author's
        (ACTION, "  - 'A\n    - B'"),  # single-quoted alike
        ("  작은 규모 시험으로는 알 수 없었다.", "  작은 규모 시험:\n  - 블록 안의 줄은 텍스트다"),
        ("lessons: |\n  작은", "lessons: >\n  작은\n  - 접힌 블록도 작성자의 것\n  작은"),
        (ACTION, f"{ACTION}\n    이어지는 줄 - 가운데의 줄표"),  # a dash inside the line
        (ACTION, f"{ACTION}\n    -5 도에서 멈췄다"),  # a dash that starts a word
        ("title: 공유", "title: 공유\n  스토리지"),  # plain text on two lines, no mark
    ],
)
def test_items_as_meant_quoted_values_blocks_and_dashes_inside_text_are_fine(old, new):
    assert findings(incident("IL-0001", (old, new))) == []


def test_fmt_and_fix_leave_the_file_as_it_is_rather_than_join_the_item_for_good():
    # Written on one line by fmt, the joined text would show no trace of the item meant.
    text = incident("IL-0001", (ACTION, f"{ACTION}\n    - 컨트롤러를 재시작했다"))
    with pytest.raises(Refused) as refused:
        render(text.encode())
    assert (refused.value.position.line, refused.value.position.column) == (23, 5)
    assert "(IL109); fix it by hand" in refused.value.message


def test_the_canonical_reader_and_libyaml_agree_that_a_canonical_file_folds_nothing():
    from curator.load import load_bytes

    loaded = load_bytes(incident("IL-0001").encode())
    assert loaded.document is not None and loaded.document.folded == []
