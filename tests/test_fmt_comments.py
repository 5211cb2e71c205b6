"""`curator fmt` reorders keys but leaves each comment beside the key or item it was
written beside.

ruamel.yaml keeps a comment line in the slot of the key *before* it, so reordering keys
used to carry a comment off to another key; sorted comment texts could not see it. Here the
written file is read line by line: a comment on a line of its own must be directly above
the same key or item, an end-of-line comment on the line of the same key or item, a comment
ending the file still at the end; values unchanged, and a second pass changes nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import run_curator, write_library

import curator.write.comments as comments_module
from curator.load import load_bytes
from curator.write import canonical
from curator.write.canonical import Refused, render


def data_of(text: str) -> Any:
    loaded = load_bytes(text.encode("utf-8"))
    assert loaded.problems == [], loaded.problems
    return loaded.data


def rendered(text: str) -> str:
    """The canonical text, checked to hold the same values and to settle."""
    out = render(text.encode("utf-8"))
    assert data_of(out) == data_of(text)
    assert render(out.encode("utf-8")) == out
    return out


def below(out: str, comment: str) -> str:
    """The line right below `comment`, which must stand on a line of its own, once."""
    lines = out.split("\n")
    found = [number for number, line in enumerate(lines) if line.strip() == comment]
    assert len(found) == 1, (comment, out)
    return lines[found[0] + 1]


def holding(out: str, comment: str) -> str:
    """The one line that ends with `comment` after something else."""
    found = [line for line in out.split("\n") if line.endswith(comment)]
    assert len(found) == 1, (comment, out)
    assert found[0].strip() != comment, f"{comment} is on a line of its own"
    return found[0].removesuffix(comment).rstrip()


REPORTED = """\
id: IL-0032
occurred: 2020
# NOTE: status must stay draft until legal review
status: draft
title: t
organizations:
  - Airbnb
facets:
  symptoms:
    - deploys-blocked
  # causes reviewed by SRE team
  causes:
    - software-defect
  components:
    - mutating-admission-webhook
  contributing_factors: []
sources:
  - title: x
    # the canonical talk url
    url: https://example.com/x
    language: en
"""


def test_the_reported_incident_keeps_each_note_above_its_key():
    out = rendered(REPORTED)
    order = ["id", "title", "status", "occurred", "organizations", "facets", "sources"]
    assert list(data_of(out)) == order
    assert below(out, "# NOTE: status must stay draft until legal review") == "status: draft"
    assert below(out, "# causes reviewed by SRE team") == "  causes:"
    # `url` is now the first key of its item: the note stays on the line just above it.
    assert below(out, "# the canonical talk url") == "  - url: https://example.com/x"


def test_comments_in_a_flow_list_stay_on_their_items_lines():
    text = REPORTED.replace(
        "organizations:\n  - Airbnb\n", "organizations: [Airbnb, # c1\n  Lyft] # c2\n"
    )
    out = rendered(text)
    assert holding(out, "# c1") == "  - Airbnb"
    assert holding(out, "# c2") == "  - Lyft"
    assert "organizations:\n" in out


def test_a_comment_in_a_flow_list_is_set_off_from_its_item_not_kept_at_its_column():
    # Written one item a line, a comment kept the column it had on the `[...]` line:
    # `- gpu                  # 메모`. It is set off as a person writes it; a comment
    # after a plain value keeps its column (comments aligned down the file stay aligned).
    text = (
        "id: IL-0001      # 번호\n"
        "organizations: [nccl, gpu,  # 메모\n  Lyft]\n"
        "related: [IL-0002, IL-0003]   # 끝\n"
        "title: 장애       # 제목\n"
        "follow_ups: []   # 없음\n"
    )
    assert rendered(text) == (
        "id: IL-0001      # 번호\n"
        "title: 장애       # 제목\n"
        "organizations:\n  - nccl\n  - gpu  # 메모\n  - Lyft\n"
        "follow_ups: []   # 없음\n"
        "related:\n  - IL-0002\n  - IL-0003  # 끝\n"
    )


def test_a_comment_brought_up_to_text_is_set_off_by_two_spaces(tmp_path):
    """Where a comment's column leaves no room on its new line, it followed the text by
    one space: `[Sky, # 메모` became `- Sky # 메모`, which lint takes for text that YAML
    drops (IL108, an error). One space the author wrote after the text stays; an edit
    (`curator fix`) sets comments off as fmt does."""
    text = "id: IL-0001\norganizations: [\n  Sky, # 메모\n]\ntitle: # 제목\n  장애\n"
    out = rendered(text)
    assert holding(out, "  # 메모") == "  - Sky"
    assert holding(out, "  # 제목") == "title: 장애"
    assert rendered("id: IL-0001 # 메모\n") == "id: IL-0001 # 메모\n"

    def edit(tree: Any) -> None:  # (comments are then placed from ruamel.yaml's text)
        tree["id"] = "IL-0002"

    indented = "id: IL-0001\norganizations:\n- Sky  # 메모\n"  # (the item moves right)
    assert rendered(indented) == "id: IL-0001\norganizations:\n  - Sky  # 메모\n"
    assert "  - Sky  # 메모\n" in render(indented.encode("utf-8"), edit)
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    assert run_curator("fmt", "--root", str(root)).code == 0
    lint = run_curator("lint", "--root", str(root))
    assert "IL108" not in lint.out, lint


# A key of more than 128 characters, which ruamel.yaml writes as `? key` with its value on
# the `: ` line below (an unknown key: fmt keeps it, lint reports it).
LONG_KEY = "k" * 129


@pytest.mark.parametrize(
    ("block", "value"),
    [("|", ""), ("|-", "한 줄"), (">-", "한 줄")],  # (empty, and one line: both written plain)
)
def test_a_block_under_a_long_key_keeps_the_comment_on_its_header_and_settles(
    tmp_path, block, value
):
    """Found by fuzzing (fuzz/fuzz_fmt.py): the comment on the block's header went to the
    `? key` line, and the next `fmt`, finding the block with no comment on its header,
    wrote it as `''` (or plain): fmt was not idempotent. It stays on the header."""
    text = f"id: IL-0001\n{LONG_KEY}: {block}  # 머리 주석\n" + (f"  {value}\n" if value else "")
    out = rendered(text)
    assert out == f"id: IL-0001\n? {LONG_KEY}\n: {block}  # 머리 주석\n" + (
        f"  {value}\n" if value else ""
    )
    # An end-of-line comment of a value below its key is set off, not left at the column
    # it had on the key's line; one on the key stays on the key's line.
    assert holding(rendered(f"id: IL-0001\n{LONG_KEY}: 값  # 메모\n"), "  # 메모") == ": 값"
    assert holding(rendered(f"id: IL-0001\n{LONG_KEY}:  # 메모\n  - a\n"), "  # 메모") == (
        f"? {LONG_KEY}"
    )
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    assert run_curator("fmt", "--root", str(root)).code == 0
    assert run_curator("fmt", "--check", "--root", str(root)).code == 0
    assert (root / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8") == out
    lint = run_curator("lint", "--root", str(root), "--format", "json")
    assert f"unknown key '{LONG_KEY}'" in lint.out, lint


def test_a_comment_ending_the_file_stays_at_the_end():
    text = REPORTED.replace("title: t\n", "") + "title: t\n\n# the end\n"
    out = rendered(text)
    assert out.endswith("    language: en\n\n# the end\n")
    assert "title: t\n" in out


def test_an_indented_comment_ending_the_file_is_no_text_of_a_block_moved_to_the_end():
    # `x_note`, unknown, goes after `sources`: written below its block with its old
    # indentation, the comment read as a line of its text (refused: "please report").
    text = REPORTED + "    # 끝\n"
    assert rendered(text).endswith("    language: en\n    # 끝\n")  # (stays as it was)
    moved = "x_note: |\n  메모\n" + text
    assert rendered(moved).endswith("    language: en\nx_note: |\n  메모\n# 끝\n")


def test_a_comment_ends_at_a_line_break_of_yaml_11_as_libyaml_reads_it():
    # NEL (U+0085) and U+2028 end a line for libyaml: a comment on a block's header
    # taken to run past one was written back with it, one more line in the block's text
    # (refused: "please report").
    for other_break in ("\x85", "\u2028"):
        assert rendered(f"m: | #{other_break}\n 장애\n") == "m: |2 #\n\n  장애\n"


def test_a_comment_before_the_first_key_stays_above_it():
    out = rendered("# 메모: 출처를 더 찾을 것\n" + REPORTED)
    assert out.startswith("# 메모: 출처를 더 찾을 것\nid: IL-0032\n")


def test_a_comment_heading_the_file_stays_at_the_top_whichever_key_comes_first():
    text = REPORTED.replace("id: IL-0032\n", "")
    out = rendered("# 파일 머리말\n" + text.replace("title: t\n", "") + "id: IL-0032\n")
    assert out.startswith("# 파일 머리말\nid: IL-0032\n")


def test_comments_between_items_of_a_block_list_stay_between_them():
    text = REPORTED.replace(
        "  symptoms:\n    - deploys-blocked\n",
        "  symptoms:\n    # first\n    - deploys-blocked\n    # second, from the status page\n"
        "    - job-crash  # 메모\n",
    ).replace("organizations:\n  - Airbnb\n", "organizations:\n- Airbnb\n# the other one\n- Lyft\n")
    out = rendered(text)
    assert below(out, "# first") == "    - deploys-blocked"
    assert below(out, "# second, from the status page") == "    - job-crash  # 메모"
    assert below(out, "# the other one") == "  - Lyft"
    assert out.index("  causes:") < out.index("  symptoms:")  # the list moved with its notes


def test_a_comment_above_the_first_nested_key_in_facets_moves_with_that_key():
    text = REPORTED.replace("  symptoms:\n", "  # symptoms from the postmortem\n  symptoms:\n")
    out = rendered(text)
    assert below(out, "# symptoms from the postmortem") == "  symptoms:"
    assert below(out, "# causes reviewed by SRE team") == "  causes:"
    assert out.index("  causes:") < out.index("  components:") < out.index("  symptoms:")


def test_comments_in_a_source_item_stay_with_their_keys_and_items():
    text = REPORTED.replace(
        "    language: en\n",
        "    # 한국어 번역은 없음\n    language: en\n"
        "  # the second source\n  - language: ko\n    # the slides\n    title: y\n"
        "    url: https://example.com/y  # mirror\n",
    )
    out = rendered(text)
    assert below(out, "# 한국어 번역은 없음") == "    language: en"
    assert below(out, "# the canonical talk url") == "  - url: https://example.com/x"
    # Above an item's line it stays above the item, whichever key now starts the item.
    assert below(out, "# the second source") == "  - url: https://example.com/y  # mirror"
    assert below(out, "# the slides") == "    title: y"
    assert holding(out, "# mirror") == "  - url: https://example.com/y"


def test_end_of_line_comments_stay_on_their_keys_lines():
    text = REPORTED.replace("title: t\n", "title: t  # working title\n").replace(
        "occurred: 2020\n", "occurred: 2020    # year only\n"
    )
    text = text.replace("facets:\n", "facets:  # checked 2024-05\n")
    text = text.replace("    - software-defect\n", "    - software-defect # 확인\n")
    out = rendered(text)
    assert holding(out, "# working title") == "title: t"
    assert holding(out, "# year only") == "occurred: 2020"  # (at its old column)
    assert holding(out, "# checked 2024-05") == "facets:"
    assert holding(out, "# 확인") == "    - software-defect"


def test_a_comment_after_a_dash_goes_above_its_item():
    text = REPORTED.replace("  - title: x\n", "  - # the talk\n    title: x\n")
    out = rendered(text.replace("    # the canonical talk url\n", ""))
    assert below(out, "# the talk") == "  - url: https://example.com/x"


def test_blank_lines_go_with_the_key_below_them():
    text = REPORTED.replace("title: t\n", "\ntitle: t\n")
    out = rendered(text)
    assert "occurred: 2020\norganizations:" in out
    assert "id: IL-0032\n\ntitle: t\n" in out


def test_a_line_of_spaces_indented_past_its_block_is_text_not_a_blank_line():
    """`   ` in a block indented by two holds a space of the text (`노드\\n \\n`). Taken for
    a blank line below the block, it was written once more as one: a block kept for its
    header's comment gained a blank line at every pass, a block rewritten as quoted text
    one where there was none."""
    kept = "trigger: |  # 메모\n  노드\n   \ndetection: d\n"
    assert rendered(kept) == kept
    quoted = "trigger: |\n  노드\n   \n\ndetection: d\n"  # (its text, then a blank line)
    assert rendered(quoted) == 'trigger: "노드\\n \\n"\n\ndetection: d\n'


def test_comments_stay_with_their_keys_through_an_edit_that_changes_values():
    def edit(tree: Any) -> None:
        tree["title"] = "a new title"

    out = render(REPORTED.encode("utf-8"), edit)
    assert data_of(out)["title"] == "a new title"
    assert below(out, "# NOTE: status must stay draft until legal review") == "status: draft"
    assert below(out, "# causes reviewed by SRE team") == "  causes:"
    assert below(out, "# the canonical talk url") == "  - url: https://example.com/x"


# Where a comment cannot be kept beside its node, the file is refused --------------------

SHARED = "id: IL-0001\ntitle: # 제목\n  t # 임시\n"


def test_two_comments_that_would_share_a_line_are_refused():
    with pytest.raises(Refused) as refused:
        render(SHARED.encode("utf-8"))
    assert (refused.value.position.line, refused.value.position.column) == (3, 5)
    assert "would end the same line as another one" in refused.value.message


def test_fmt_leaves_a_refused_file_as_it_is_and_says_why(tmp_path):
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": SHARED})
    path = root / "incidents" / "IL-0001.yaml"
    run = run_curator("fmt", "--root", str(root))
    assert run.code == 1
    assert "IL-0001.yaml:3:5: cannot format: this comment would end the same line" in run.err
    assert path.read_text(encoding="utf-8") == SHARED


def test_a_moved_comment_is_caught_by_the_check_not_written(monkeypatch):
    """The check compares each comment with the node it is beside, not the sorted texts:
    leave the comments to ruamel again, and the moved status note is refused."""
    monkeypatch.setattr(canonical, "_uncommented", lambda tree: tree)
    monkeypatch.setattr(canonical, "overlay", lambda bare, notes: bare)
    with pytest.raises(Refused) as refused:
        render(REPORTED.encode("utf-8"))
    assert (refused.value.position.line, refused.value.position.column) == (3, 1)
    assert refused.value.message.startswith("cannot put the keys in order without moving")


def test_misplaced_names_the_comment_that_moved():
    notes, misplaced = comments_module.notes, comments_module.misplaced
    text = "a: 1\n# about b\nb: 2\nc: 3  # about c\n"
    assert misplaced(notes(text), notes("b: 2\na: 1\n# about b\nc: 3  # about c\n")).text == (
        "# about b"
    )
    assert misplaced(notes(text), notes("c: 3\n# about b\nb: 2\na: 1  # about c\n")).text == (
        "# about c"
    )
    assert misplaced(notes(text), notes("# about b\nb: 2\nc: 3 # about c\na: 1\n")) is None


def test_a_comment_line_takes_the_indentation_of_the_line_it_stands_above():
    # Left at its old column, the note on `title` would seem to continue the facets block
    # it followed; and one between a key and its value goes above the key, indented so.
    text = """\
id: IL-0032
facets:
  causes:
    - software-defect
    # on the title, indented like the list above it
title: t
status: draft
symptom:
  # between the key and its text
  |
  text
"""
    out = rendered(text)
    lines = out.split("\n")
    title = lines.index("title: t")
    assert lines[title - 1] == "# on the title, indented like the list above it"
    symptom = next(n for n, line in enumerate(lines) if line.startswith("symptom:"))
    assert lines[symptom - 1] == "# between the key and its text"


def test_an_anchored_value_is_refused_where_its_anchor_stands_as_lint_refuses_it():
    # (fmt kept the anchor, and the comment after it, where lint now refuses it: IL105.)
    with pytest.raises(Refused) as refused:
        render(b"title: &a t  # on the title\nid: IL-0032\n")
    assert refused.value.position == (1, 8)
    assert "anchor &a is not allowed" in str(refused.value)
