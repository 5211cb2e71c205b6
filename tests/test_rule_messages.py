"""Findings that no broken example shows: each message as `curator lint` prints it, with
the file, line and column it points at."""

from __future__ import annotations

import pytest
from conftest import run_curator, write_library

from incidents import incident

TITLE = "공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다"
SOURCES = (
    "sources:\n  - url: https://example.com/postmortems/IL-0001\n    title: Storage postmortem\n"
)


@pytest.mark.parametrize(
    ("replacements", "expected"),
    [
        pytest.param(
            [("    - capacity-limit\n", "    - nccl\n")],
            "incidents/IL-0001.yaml:9:7: IL301 [error] 'nccl' is not a term of causes "
            "(it is a term of components)",
            id="a term of another dimension is named as such",
        ),
        pytest.param(
            [("id: IL-0001", "id: IL-0002")],
            "incidents/IL-0001.yaml:1:5: IL203 [error] id IL-0002 differs from the file name "
            "IL-0001.yaml: fix the id, or, if IL-0002 is right and no other file holds it, "
            "rename the file to IL-0002.yaml",
            id="an id that is not the file's name",
        ),
        pytest.param(
            [("status: published", "status: withdrawn")],
            "incidents/IL-0001.yaml:3:9: IL205 [error] a withdrawn incident needs withdrawn_reason",
            id="withdrawn without a reason",
        ),
        pytest.param(
            [
                ("status: published", "status: draft"),
                ("작은 규모 시험으로는 알 수 없었다.", "TODO"),
            ],
            "incidents/IL-0001.yaml:23:10: IL402 [warning] 'lessons' holds a placeholder; "
            "leave it out instead",
            id="a placeholder in a draft is a warning",
        ),
        pytest.param(
            [("occurred: 2024-05\n", "occurred: 2024-05\nnull: 1\n")],
            "incidents/IL-0001.yaml:5:1: IL105 [error] an empty key is not allowed",
            id="a null key",
        ),
        pytest.param(
            [(f"title: {TITLE}", 'title: ""')],
            "incidents/IL-0001.yaml:2:8: IL201 [error] title: must not be empty",
            id="empty text",
        ),
        pytest.param(
            [(f"title: {TITLE}", "title: {a: b}")],
            "incidents/IL-0001.yaml:2:8: IL201 [error] title: expected text, found a mapping "
            "(the ': ' after 'a' makes a key of it); put the whole text in double quotes "
            '("…") or write it as a `|` block',
            id="a mapping for text",
        ),
        pytest.param(
            [("  - 데이터를 로컬 디스크로 옮겼다.", "  - 조치: 데이터를 로컬 디스크로 옮겼다.")],
            "incidents/IL-0001.yaml:22:5: IL201 [error] actions[0]: expected text, found a "
            "mapping (the ': ' after '조치' makes a key of it); put the whole text in double "
            'quotes ("…") or write it as a `|` block',
            id="a colon and a space in a list item of Korean text",
        ),
        pytest.param(
            [(f"title: {TITLE}", "title: {a: b, c: d}")],
            "incidents/IL-0001.yaml:2:8: IL201 [error] title: expected text, found a mapping",
            id="a mapping of several keys for text",
        ),
        pytest.param(
            [(f"title: {TITLE}", "title: [a]")],
            "incidents/IL-0001.yaml:2:8: IL201 [error] title: expected text, found a list",
            id="a list for text",
        ),
        pytest.param(
            [("status: published", "status: done")],
            "incidents/IL-0001.yaml:3:9: IL201 [error] status: 'done' is not one of "
            "'published', 'draft' or 'withdrawn'",
            id="a status that is none",
        ),
        pytest.param(
            [(SOURCES, "sources: []\n")],
            "incidents/IL-0001.yaml:25:10: IL201 [error] sources: needs at least 1 item",
            id="no source",
        ),
        pytest.param(
            # 학 as three jamo (as macOS file names write Korean), é as e and an accent.
            [
                ("  학습 처리량이", "  \u1112\u1161\u11a8습 처리량이"),
                (
                    "    title: Storage postmortem",
                    "    title: Storage post-mortem (re\u0301sume\u0301)",
                ),
            ],
            "incidents/IL-0001.yaml:16:3: IL605 [error] '학' is written as U+1112 U+1161 U+11A8: "
            "not Unicode NFC (2 lines are not) (fixable)",
            id="Korean as separate jamo",
        ),
        pytest.param(
            [
                (
                    "    title: Storage postmortem",
                    "    title: Storage post-mortem (re\u0301sume\u0301)",
                )
            ],
            "incidents/IL-0001.yaml:27:34: IL605 [error] 'é' is written as U+0065 U+0301: "
            "not Unicode NFC (fixable)",
            id="a letter and a combining accent",
        ),
        pytest.param(
            # 樂 as KS X 1001 encodes it for one of its readings, twice.
            [("  학습 처리량이", "  \uf914 \uf914 학습 처리량이")],
            "incidents/IL-0001.yaml:16:3: IL605 [error] '\uf914' is U+F914, a CJK "
            "compatibility ideograph (2 in the file), which NFC turns into U+6A02: left as "
            "it is, since the two may be meant apart; write U+6A02, or U+6A02 and a "
            "variation selector to keep the difference",
            id="a compatibility ideograph",
        ),
        pytest.param(
            # 학 as escapes of its jamo: the text is in NFC, the value is not, and `curator
            # fmt` writes it as itself. Nothing was said until then.
            [("    title: Storage postmortem", '    title: "Storage \\u1112\\u1161\\u11a8"')],
            "incidents/IL-0001.yaml:27:12: IL605 [error] sources[0].title writes '학' as "
            "U+1112 U+1161 U+11A8 (escapes): not Unicode NFC; write the letter itself",
            id="Korean as escapes of separate jamo",
        ),
        pytest.param(
            [
                (
                    "detection: |\n  처리량 그래프에서 보였다.",
                    "detection: 경고: 처리량 그래프에서 보였다.",
                )
            ],
            "incidents/IL-0001.yaml:19:14: IL101 [error] YAML syntax error: mapping values are "
            "not allowed in this context: a ': ' inside a value starts another key; put the "
            'whole value in double quotes ("…") or write it as a `|` block',
            id="a colon and a space in a one-line Korean sentence",
        ),
        pytest.param(
            # A Korean input method's `：`: libyaml reads the source's next line as more of
            # the text `url： …` and stops at its ': ', which was said to be indented too deep.
            [("  - url: https://", "  - url\uff1a https://")],
            "incidents/IL-0001.yaml:26:8: IL101 [error] YAML syntax error: mapping values are "
            "not allowed in this context: the key ends with U+FF1A FULLWIDTH COLON, not ':'; "
            "write 'url: '",
            id="a source's key ended with a full-width colon",
        ),
        pytest.param(
            [(f"title: {TITLE}", f"title:\u3000{TITLE}")],
            "incidents/IL-0001.yaml:2:7: IL101 [error] YAML syntax error: could not find "
            "expected ':': the ':' after the key is followed by U+3000 IDEOGRAPHIC SPACE, which "
            "YAML does not take for a space; write 'title: ' with a plain space",
            id="a full-width space after a key's colon",
        ),
        pytest.param(
            [("  - url: https://", "  \u2013 url: https://")],
            "incidents/IL-0001.yaml:26:3: IL101 [error] YAML syntax error: mapping values are "
            "not allowed in this context: the item starts with U+2013 EN DASH, which YAML does "
            "not read as a list's '-'; write '-' (U+002D HYPHEN-MINUS)",
            id="a source started with an en dash",
        ),
        pytest.param(
            [("  - Example\n", "  \uff0d Example\n")],
            "incidents/IL-0001.yaml:6:3: IL201 [error] organizations: expected a list, found "
            "text '\uff0d Example', which starts with U+FF0D FULLWIDTH HYPHEN-MINUS, not '-'; "
            "write each item on a line of its own below the key, indented, as `- item`",
            id="an item started with a full-width hyphen",
        ),
        pytest.param(
            [("  - Example\n", "  \u318d Example\n")],
            "incidents/IL-0001.yaml:6:3: IL201 [error] organizations: expected a list, found "
            "text '\u318d Example', which starts with U+318D HANGUL LETTER ARAEA, not '-'; "
            "write each item on a line of its own below the key, indented, as `- item`",
            id="an item started with a Korean document's middle dot",
        ),
        pytest.param(
            [("sources:\n", "\uff03 원문은 하나\nsources:\n")],
            "incidents/IL-0001.yaml:25:1: IL101 [error] YAML syntax error: could not find "
            "expected ':': U+FF03 FULLWIDTH NUMBER SIGN does not start a comment in YAML; write "
            "'#' (U+0023)",
            id="a comment started with a full-width number sign",
        ),
        pytest.param(
            [
                (
                    "  - 데이터를 로컬 디스크로 옮겼다.\n",
                    "  - \u2018kubectl drain: 노드를 비웠다\u2019\n",
                )
            ],
            "incidents/IL-0001.yaml:22:5: IL201 [error] actions[0]: expected text, found a "
            "mapping (the ': ' after '\u2018kubectl drain' makes a key of it); the value's quotes "
            "are U+2018 LEFT SINGLE QUOTATION MARK and U+2019 RIGHT SINGLE QUOTATION MARK, which "
            'YAML does not take for quotes; write them as " (U+0022)',
            id="an item holding ': ' in typographic quotes",
        ),
        pytest.param(
            # The source's title holds ': ', so YAML reads `title： "A` as a key.
            [("    title: Storage postmortem", '    title\uff1a "Storage: a postmortem"')],
            "incidents/IL-0001.yaml:27:5: IL201 [error] unknown key 'sources[0].title\uff1a "
            "\"Storage'; the key ends with U+FF1A FULLWIDTH COLON, not ':'; write 'title: ' "
            "('sources[0].title' is required and missing)",
            id="a source's key ended with a full-width colon before a ': '",
        ),
        pytest.param(
            [
                ("  - url: https://", "  - url\uff1a https://"),
                ("    title: Storage postmortem\n", ""),
            ],
            "incidents/IL-0001.yaml:26:5: IL201 [error] sources[0]: expected a mapping, found "
            "text 'url\uff1a https://example.com/postmortems/IL-'; the key ends with U+FF1A "
            "FULLWIDTH COLON, not ':'; write 'url: '",
            id="a source of one key ended with a full-width colon",
        ),
        pytest.param(
            [("organizations:\n  - Example\n", "organizations: Example, Lablup\n")],
            "incidents/IL-0001.yaml:5:16: IL201 [error] organizations: expected a list, found "
            "text 'Example, Lablup'; write each item on a line of its own below the key, "
            "indented, as `- item`",
            id="a list written as text with commas",
        ),
        pytest.param(
            [("    - capacity-limit\n", "    - 용량 한계\n")],
            "incidents/IL-0001.yaml:9:7: IL201 [error] facets.causes[0]: '용량 한계' is not a "
            "term id: lower-case letters and digits joined by single hyphens; did you mean "
            "'capacity-limit'? (fixable)",
            id="a facet written as its Korean label is offered the id",
        ),
        pytest.param(
            [("    - nccl\n", "    - NCCL\n")],
            "incidents/IL-0001.yaml:11:7: IL201 [error] facets.components[0]: 'NCCL' is not a "
            "term id: lower-case letters and digits joined by single hyphens; did you mean "
            "'nccl'? (fixable)",
            id="a facet written as its English label is offered the id",
        ),
        pytest.param(
            [("    - nccl\n", "    - 엔비디아 드라이버 업데이트\n")],
            "incidents/IL-0001.yaml:11:7: IL201 [error] facets.components[0]: '엔비디아 드라이버 "
            "업데이트' is not a term id: lower-case letters and digits joined by single hyphens",
            id="a facet like no term's name is offered nothing",
        ),
        pytest.param(
            [("postmortem\n", "postmortem\n    language: EN\n")],
            "incidents/IL-0001.yaml:28:15: IL201 [error] sources[0].language: 'EN' is not a "
            "language tag such as en, ko or zh-Hant; did you mean 'en'?",
            id="a language tag in upper case",
        ),
        pytest.param(
            [("postmortem\n", "postmortem\n    language: ko_KR\n")],
            "incidents/IL-0001.yaml:28:15: IL201 [error] sources[0].language: 'ko_KR' is not a "
            "language tag such as en, ko or zh-Hant; did you mean 'ko-KR'?",
            id="a language tag written as a locale",
        ),
        pytest.param(
            [("occurred: 2024-05\n", "occurred: 2024년 5월\n")],
            "incidents/IL-0001.yaml:4:11: IL201 [error] occurred: '2024년 5월' is not a date "
            "written YYYY, YYYY-MM or YYYY-MM-DD (2024, 2024-05, 2024-05-08); did you mean "
            "'2024-05'?",
            id="a date written the Korean way",
        ),
        pytest.param(
            [("postmortem\n", "postmortem\n    published: 2024/2/23\n")],
            "incidents/IL-0001.yaml:28:16: IL201 [error] sources[0].published: '2024/2/23' is "
            "not a date written YYYY, YYYY-MM or YYYY-MM-DD (2024, 2024-05, 2024-05-08); did you "
            "mean '2024-02-23'?",
            id="a date written with slashes, one digit a part",
        ),
        pytest.param(
            [("occurred: 2024-05\n", "occurred: 05/08/2024\n")],
            "incidents/IL-0001.yaml:4:11: IL201 [error] occurred: '05/08/2024' is not a date "
            "written YYYY, YYYY-MM or YYYY-MM-DD (2024, 2024-05, 2024-05-08)",
            id="a date whose order differs from place to place is not guessed at",
        ),
        pytest.param(
            [("occurred: 2024-05\n", "occurred: 2024.2.30\n")],
            "incidents/IL-0001.yaml:4:11: IL201 [error] occurred: '2024.2.30' is not a date "
            "written YYYY, YYYY-MM or YYYY-MM-DD (2024, 2024-05, 2024-05-08)",
            id="no day that does not exist is offered",
        ),
        pytest.param(
            [("postmortem\n", "postmortem\n    language: English\n")],
            "incidents/IL-0001.yaml:28:15: IL201 [error] sources[0].language: 'English' is not "
            "a language tag such as en, ko or zh-Hant",
            id="a language by name is not guessed at",
        ),
        pytest.param(
            # Twice in the title, once in a comment: counted together, placed at the first.
            [
                ("스토리지의", "스토\u200b리지의"),
                ("떨어졌다\n", "떨어\u2060졌다\n"),
                ("  - nccl\n", "  - nccl  # 통\u200b신\n"),
            ],
            "incidents/IL-0001.yaml:2:13: IL606 [error] U+200B ZERO WIDTH SPACE, which shows as "
            "nothing and hides the word it is in from searches (3 zero-width characters in the "
            "file); remove it (fixable)",
            id="zero-width characters in words",
        ),
        pytest.param(
            # One as itself, one written as an escape: `curator fix` removes both, and the
            # count said none but the first.
            [("스토리지의", "스토\u200b리지의"), ("  - Example\n", '  - "Exam\\u2060ple"\n')],
            "incidents/IL-0001.yaml:2:13: IL606 [error] U+200B ZERO WIDTH SPACE, which shows as "
            "nothing and hides the word it is in from searches (2 zero-width characters in the "
            "file, 1 of them written as an escape); remove it (fixable)",
            id="zero-width characters as themselves and as escapes",
        ),
        pytest.param(
            # Refused by the model too (IL201), but said once: by IL606, which fix removes.
            [("스토리지의", "스토\ufeff리지의")],
            "incidents/IL-0001.yaml:2:13: IL606 [error] U+FEFF ZERO WIDTH NO-BREAK SPACE (a "
            "byte-order mark), which shows as nothing and hides the word it is in from "
            "searches; remove it (fixable)",
            id="a byte-order mark in a word",
        ),
        pytest.param(
            # "Trojan Source": the override displays the text after it right to left.
            [("스토리지의", "스토리지의 \u202e우회\u202c")],
            "incidents/IL-0001.yaml:2:17: IL606 [error] U+202E RIGHT-TO-LEFT OVERRIDE, which "
            "shows as nothing and reorders the text after it as it displays (2 zero-width "
            "characters in the file); remove it (fixable)",
            id="a right-to-left override in the title",
        ),
        pytest.param(
            [("    title: Storage postmortem", '    title: "Storage\\u200f postmortem"')],
            "incidents/IL-0001.yaml:27:12: IL606 [error] sources[0].title holds U+200F "
            "RIGHT-TO-LEFT MARK (character 8, written as an escape), which shows as nothing; "
            "remove it (fixable)",
            id="a right-to-left mark written as an escape",
        ),
        pytest.param(
            [("    title: Storage postmortem", '    title: "Storage\\ufeff postmortem"')],
            "incidents/IL-0001.yaml:27:12: IL606 [error] sources[0].title holds U+FEFF ZERO "
            "WIDTH NO-BREAK SPACE (a byte-order mark) (character 8, written as an escape), "
            "which shows as nothing; remove it (fixable)",
            id="a byte-order mark written as an escape",
        ),
        pytest.param(
            # Nothing to keep, so not IL606's: IL201's, said as of "\u200b" alone.
            [(f"title: {TITLE}", 'title: "\\ufeff"')],
            "incidents/IL-0001.yaml:2:8: IL201 [error] title: holds no visible character",
            id="a byte-order mark and nothing visible",
        ),
        pytest.param(
            [
                ("  - url: https", '  - url: "https'),
                ("IL-0001\n    title", 'IL-0001\\u200b"\n    title'),
            ],
            "incidents/IL-0001.yaml:26:10: IL606 [error] sources[0].url holds U+200B ZERO WIDTH "
            "SPACE (character 40, written as an escape), which shows as nothing; remove it "
            "(fixable)",
            id="a zero-width character written as an escape",
        ),
        pytest.param(
            [("  - Example\n", '  - " Lablup\u3000 "\n')],
            "incidents/IL-0001.yaml:6:5: IL606 [error] organizations[0] starts with U+0020 SPACE "
            "and ends in 2 white-space characters (U+3000 U+0020): white space around a one-line "
            "value; remove it (fixable)",
            id="a padded organization",
        ),
        pytest.param(
            [
                (
                    f"title: {TITLE}",
                    "title: |\n  공유 스토리지의 메타데이터 포화로\n  학습 처리량이 떨어졌다",
                )
            ],
            "incidents/IL-0001.yaml:2:8: IL606 [error] title holds a line break (U+000A LINE "
            "FEED, character 19): it is one line in the website's lists, the feed and the CSV; "
            "write it on one line",
            id="a title on two lines",
        ),
    ],
)
def test_the_finding_is_printed_where_it_stands(tmp_path, replacements, expected):
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001", *replacements)})
    run = run_curator("lint", "--root", str(root), "--no-cache", "--quiet", cwd=root)
    assert run.out.splitlines() == [expected], run
    assert run.code == (1 if "[error]" in expected else 0)


ZWSP = (
    "IL606 [error] U+200B ZERO WIDTH SPACE, which shows as nothing and hides the word it is "
    "in from searches (2 zero-width characters in the file); "
)


@pytest.mark.parametrize(
    ("replacements", "expected"),
    [
        pytest.param(
            # It said what to do with the key, as if that were the first, and not fixable:
            # fix takes the first out, and leaves the key's (said when it is the first).
            [
                ("스토리지의", "스토\u200b리지의"),
                ("status: published", "status: published\nsta\u200btus: draft"),
            ],
            f"2:13: {ZWSP}remove it (fixable)",
            id="one fix takes out, before one it leaves in a key",
        ),
        pytest.param(
            [
                ("status: published", "status: published\nsta\u200btus: draft"),
                ("  - nccl\n", "  - nccl  # 통\u200b신\n"),
            ],
            f"4:4: {ZWSP}without its zero-width characters the key 'sta\\u200btus' on line 4 "
            "would be 'status', which its mapping has on line 3 already; merge or rename the "
            "two keys by hand",
            id="one fix leaves in a key, before one it takes out",
        ),
        pytest.param(
            # It said `remove it`, not fixable: out of the text, ` #1` starts a comment.
            [
                ("  - Example\n", "  - Example \u200b#1\n"),
                ("  - nccl\n", "  - nccl  # 통\u200b신\n"),
            ],
            f"6:13: {ZWSP}without it the plain value would read otherwise; remove it and put "
            'the value in double quotes ("Example #1") (fixable)',
            id="one fix takes out of its value alone",
        ),
        pytest.param(
            # It said to quote the title ("without it the plain value would read otherwise"),
            # which the U+200B in it leaves as it is; fix leaves the file for the U+FEFF.
            [("스토리지의", "스토\u200b리지의"), ("  - Example\n", "  - Example:\ufeff Co\n")],
            f"2:13: {ZWSP}remove it; `curator fix` leaves the file for the U+FEFF at 6:13: "
            "without it the plain value would read otherwise; remove it and put the value in "
            'double quotes by hand ("Example: Co")',
            id="one fix takes out, in a file it leaves for a U+FEFF",
        ),
    ],
)
def test_il606_says_what_fix_does_with_the_first_zero_width_character(
    tmp_path, replacements, expected
):
    # IL606 is said once, at the first, and said of the file what only some of its zero-width
    # characters called for: now what `curator fix` does with the first, as fix says it.
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001", *replacements)})
    run = run_curator("lint", "--root", str(root), "--no-cache", "--quiet", cwd=root)
    said = [line for line in run.out.splitlines() if " IL606 " in line]
    assert said == [f"incidents/IL-0001.yaml:{expected}"], run


IL606_FEFF = (
    "IL606 [error] U+FEFF ZERO WIDTH NO-BREAK SPACE (a byte-order mark), which shows as "
    "nothing and hides the word it is in from searches; remove it"
)


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        pytest.param(
            '"가\\ufeff\\x07"',
            [
                "2:8: IL201 [error] title: holds U+0007, a control character (character 3); "
                "remove it",
                "2:8: IL606 [error] title holds U+FEFF ZERO WIDTH NO-BREAK SPACE (a byte-order "
                "mark) (character 2, written as an escape), which shows as nothing; remove it "
                "(fixable)",
            ],
            id="escaped, and a control character",
        ),
        pytest.param(
            '"가\ufeff\\x07"',
            [
                "2:8: IL201 [error] title: holds U+0007, a control character (character 3); "
                "remove it",
                f"2:10: {IL606_FEFF} (fixable)",
            ],
            id="as itself, and a control character",
        ),
        pytest.param(
            '"\ufeff"',
            [
                "2:8: IL201 [error] title: holds no visible character",
                f"2:9: {IL606_FEFF} (fixable)",
            ],
            id="as itself, and nothing visible",
        ),
    ],
)
def test_a_byte_order_mark_in_text_with_another_problem_is_said_once(tmp_path, title, expected):
    # The U+FEFF is IL606's. IL201 named it again ("holds U+FEFF, a byte-order mark"), and
    # not the control character, or the lack of a visible one, which are IL201's own.
    root = write_library(
        tmp_path / "lib",
        {"IL-0001.yaml": incident("IL-0001", (f"title: {TITLE}", f"title: {title}"))},
    )
    run = run_curator("lint", "--root", str(root), "--no-cache", "--quiet", cwd=root)
    assert run.out.splitlines() == [f"incidents/IL-0001.yaml:{line}" for line in expected], run
    assert run.code == 1


def test_a_file_whose_text_holds_a_byte_order_mark_is_judged_by_the_other_rules_too(tmp_path):
    # Refused by the model for the U+FEFF, the file was no incident until it was fixed:
    # every other rule was silent, and the term of another dimension came after the fix.
    replacements = [("스토리지의", "스토\ufeff리지의"), ("    - capacity-limit\n", "    - nccl\n")]
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001", *replacements)})
    il301 = (
        "incidents/IL-0001.yaml:9:7: IL301 [error] 'nccl' is not a term of causes (it is a "
        "term of components)"
    )
    run = run_curator("lint", "--root", str(root), "--no-cache", "--quiet", cwd=root)
    assert run.out.splitlines() == [f"incidents/IL-0001.yaml:2:13: {IL606_FEFF} (fixable)", il301]
    assert run_curator("fix", "--root", str(root), "--quiet", cwd=root).code == 0
    run = run_curator("lint", "--root", str(root), "--no-cache", "--quiet", cwd=root)
    assert run.out.splitlines() == [il301], run


@pytest.mark.parametrize(
    ("content", "kind"),
    [("- 학습이 멈췄다\n- NCCL timeout\n", "a list"), ("학습이 멈췄다\n", "plain text")],
    ids=["a list", "plain text"],
)
def test_a_file_that_is_not_a_mapping_is_told_what_an_incident_is(tmp_path, content, kind):
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": content})
    run = run_curator("lint", "--root", str(root), "--no-cache", "--quiet", cwd=root)
    assert run.out.splitlines() == [
        "incidents/IL-0001.yaml:1:1: IL201 [error] an incident is a mapping of keys to "
        f"values, not {kind}"
    ], run
    assert run.code == 1


@pytest.mark.parametrize(
    ("replacement", "expected"),
    [
        pytest.param(
            ("symptom: |", "symptoms: |"),
            "incidents/IL-0001.yaml:15:1: IL201 [error] unknown key 'symptoms'; "
            "did you mean 'symptom'?",
            id="at the top",
        ),
        pytest.param(
            ("  contributing_factors: []", "  contributing-factors: []"),
            "incidents/IL-0001.yaml:14:3: IL201 [error] unknown key "
            "'facets.contributing-factors'; did you mean 'facets.contributing_factors'?",
            id="in facets",
        ),
        pytest.param(
            ("    title: Storage postmortem", "    titel: Storage postmortem"),
            "incidents/IL-0001.yaml:27:5: IL201 [error] unknown key 'sources[0].titel'; "
            "did you mean 'sources[0].title'? ('sources[0].title' is required and missing)",
            id="in a source",
        ),
        pytest.param(
            ("title: ", "titel: "),
            "incidents/IL-0001.yaml:2:1: IL201 [error] unknown key 'titel'; did you mean "
            "'title'? ('title' is required and missing)",
            id="a required key at the top",
        ),
        pytest.param(
            ("  causes:", "  cuases:"),
            "incidents/IL-0001.yaml:8:3: IL201 [error] unknown key 'facets.cuases'; did you "
            "mean 'facets.causes'? ('facets.causes' is required and missing)",
            id="a required key in facets",
        ),
        pytest.param(
            ("  contributing_factors: []", "contributing_factors: []"),
            "incidents/IL-0001.yaml:14:1: IL201 [error] unknown key 'contributing_factors': "
            "it is a key of 'facets'; indent it under `facets:`",
            id="a key of facets written too far left",
        ),
        pytest.param(
            ("    title: Storage postmortem", "    title: Storage postmortem\npublisher: Example"),
            "incidents/IL-0001.yaml:28:1: IL201 [error] unknown key 'publisher': it is a key "
            "of each item of 'sources'; indent it as far as the item's other keys",
            id="a key of a source written too far left",
        ),
    ],
)
def test_a_misspelt_key_is_told_the_key_it_may_mean(tmp_path, replacement, expected):
    # One finding: a misspelt required key is not also "missing required key" at 1:1.
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001", replacement)})
    run = run_curator("lint", "--root", str(root), "--no-cache", "--quiet", cwd=root)
    assert run.out.splitlines() == [expected], run
    assert run.code == 1


def test_keys_written_too_far_left_are_told_where_they_belong(tmp_path):
    # As a contributor writes facets who has not seen that its keys are indented: not
    # "did you mean 'symptom'" for `symptoms`, the narrative key of the same level.
    facets = "  causes:\n    - capacity-limit\n  components:\n    - nccl\n  symptoms:\n"
    written = "causes:\n  - capacity-limit\ncomponents:\n  - nccl\nsymptoms:\n"
    content = incident(
        "IL-0001", (facets, written), ("  contributing_factors", "contributing_factors")
    )
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": content})
    run = run_curator("lint", "--root", str(root), "--no-cache", "--quiet", cwd=root)
    where = "incidents/IL-0001.yaml"
    assert run.out.splitlines() == [
        f"{where}:7:8: IL201 [error] facets: expected a mapping, found nothing (null)",
        *(
            f"{where}:{line}:1: IL201 [error] unknown key '{key}': it is a key of 'facets'; "
            "indent it under `facets:`"
            for line, key in [
                (8, "causes"),
                (10, "components"),
                (12, "symptoms"),
                (14, "contributing_factors"),
            ]
        ),
    ], run
    assert run.code == 1


def test_a_file_without_an_id_is_an_error(tmp_path):
    # IL201 left the id to IL202, which judges an id written, not a missing one: the file
    # passed (exit 0) unchecked, as no other rule runs on a file the schema refuses.
    content = incident("IL-0001", ("id: IL-0001\n", ""))
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": content})
    run = run_curator("lint", "--root", str(root), "--no-cache", "--quiet", cwd=root)
    assert run.out.splitlines() == [
        "incidents/IL-0001.yaml:1:1: IL201 [error] missing required key 'id'"
    ], run
    assert run.code == 1


def test_a_missing_key_with_no_misspelling_of_it_is_still_told(tmp_path):
    root = write_library(
        tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001", ("  causes:", "  reasons:"))}
    )
    run = run_curator("lint", "--root", str(root), "--no-cache", "--quiet", cwd=root)
    assert run.out.splitlines() == [
        "incidents/IL-0001.yaml:7:1: IL201 [error] missing required key 'facets.causes'",
        "incidents/IL-0001.yaml:8:3: IL201 [error] unknown key 'facets.reasons'",
    ], run


def test_a_term_of_a_taxonomy_file_that_cannot_be_read_is_sent_to_that_file(tmp_path):
    # A typo in the key `terms` leaves the whole file unread: every term of it is unknown.
    # (One in a term's key leaves out that term alone: test_taxonomy.) Linting the incident
    # alone, the file's error is reported all the same, not its term's IL301: a hook that
    # lints the files a commit changes must still fail, and say why.
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    causes = root / "schema" / "taxonomy" / "causes.yaml"
    causes.write_text(causes.read_text("utf-8").replace("terms:", "term:", 1), "utf-8")
    run = run_curator(
        "lint", "--root", str(root), "--no-cache", "--quiet", "incidents/IL-0001.yaml", cwd=root
    )
    assert run.out.splitlines() == [
        "schema/taxonomy/causes.yaml:2:1: IL303 [error] unknown key 'term'; did you mean "
        "'terms'? ('terms' is required and missing); none of its terms is known, so the "
        "causes of incidents are not checked (IL301) until it is fixed: 1 incident carries 1 "
        "term of it"
    ], run
    assert run.code == 1


def test_one_number_spelt_two_ways_is_one_id_used_twice(tmp_path):
    # The id pattern lets zeros lead a number of five digits or more: IL-00025 passed
    # beside IL-0025, two incidents that a reader citing "IL-0025" could not tell apart.
    root = write_library(
        tmp_path / "lib",
        {
            "IL-0025.yaml": incident("IL-0025"),
            "IL-00025.yaml": incident("IL-00025"),
            "IL-000025.yaml": incident("IL-000025", ("status: published", "status: withdrawn"))
            + "withdrawn_reason: |\n  같은 사건이다.\n",
            "IL-12345.yaml": incident("IL-12345"),  # five digits, no zero leading: its own
        },
    )
    run = run_curator("lint", "--root", str(root), "--no-cache", "--quiet", cwd=root)
    one_number = "a number is one id, however many zeros lead it (assign-ids writes IL-0025)"
    used = "(a withdrawn id is never reused)"
    assert run.out.splitlines() == [
        "incidents/IL-000025.yaml:1:5: IL204 [error] id IL-000025 is also used by "
        "incidents/IL-00025.yaml (as IL-00025), incidents/IL-0025.yaml (as IL-0025) "
        f"{used}; {one_number}",
        "incidents/IL-00025.yaml:1:5: IL204 [error] id IL-00025 is also used by "
        "incidents/IL-000025.yaml (as IL-000025), incidents/IL-0025.yaml (as IL-0025) "
        f"{used}; {one_number}",
        "incidents/IL-0025.yaml:1:5: IL204 [error] id IL-0025 is also used by "
        "incidents/IL-000025.yaml (as IL-000025), incidents/IL-00025.yaml (as IL-00025) "
        f"{used}; {one_number}",
    ], run
    assert run.code == 1


def test_a_reference_to_a_number_spelt_with_more_zeros_names_the_id_it_means(tmp_path):
    # "no incident has that id" was all it said: true, and no help to find IL-0025.
    root = write_library(
        tmp_path / "lib",
        {
            "IL-0025.yaml": incident("IL-0025"),
            "IL-0026.yaml": incident(
                "IL-0026",
                ("status: published", "related:\n  - IL-00025\n  - IL-000099\nstatus: published"),
            ),
        },
    )
    run = run_curator("lint", "--root", str(root), "--no-cache", "--quiet", cwd=root)
    assert run.out.splitlines() == [
        "incidents/IL-0026.yaml:4:5: IL401 [error] related names IL-00025, but no incident has "
        "that id; its number is IL-0025's, as assign-ids writes it: write IL-0025",
        "incidents/IL-0026.yaml:5:5: IL401 [error] related names IL-000099, but no incident "
        "has that id",
    ], run


def test_the_id_a_reference_means_is_named_once_it_comes_through_lint_s_cache(tmp_path):
    # The finding depends on IL-0025's file, which holds the reference's key (its number):
    # a lint that reruns the cross-file rules on the files a change concerns sees it come.
    related = ("status: published", "related:\n  - IL-00025\nstatus: published")
    root = write_library(tmp_path / "lib", {"IL-0026.yaml": incident("IL-0026", related)})
    first = run_curator("lint", "--root", str(root), "--quiet", cwd=root)
    assert first.out.endswith("but no incident has that id\n"), first
    (root / "incidents" / "IL-0025.yaml").write_text(incident("IL-0025"), encoding="utf-8")
    again = run_curator("lint", "--root", str(root), "--quiet", cwd=root)
    assert again.out.endswith("as assign-ids writes it: write IL-0025\n"), again
    fresh = run_curator("lint", "--root", str(root), "--quiet", "--no-cache", cwd=root)
    assert again.out == fresh.out


def test_a_narrative_field_written_inside_the_block_above_is_said_to_be_there(tmp_path):
    # The file shows `trigger:`; "lacks 'trigger'" alone sent its author looking for
    # what the `|` block above took in as text.
    swallowed = ("\ntrigger: |\n  노드 수를", "\n  trigger: 노드 수를")
    root = write_library(tmp_path / "lib", {"IL-0025.yaml": incident("IL-0025", swallowed)})
    run = run_curator("lint", "--root", str(root), "--no-cache", "--quiet", cwd=root)
    assert run.out.splitlines() == [
        "incidents/IL-0025.yaml:3:9: IL402 [error] published incident lacks 'trigger'; the "
        "`trigger:` of line 17 is indented, so YAML reads it as text of the value above it; "
        "write it at the start of its line"
    ], run
    left_out = ("\ntrigger: |\n  노드 수를 늘렸다.", "")
    root = write_library(tmp_path / "other", {"IL-0025.yaml": incident("IL-0025", left_out)})
    run = run_curator("lint", "--root", str(root), "--no-cache", "--quiet", cwd=root)
    assert run.out.endswith(
        "lacks 'trigger'; fill it from the source or keep the incident a draft\n"
    )


def test_a_source_given_as_its_address_alone_is_told_how_a_source_is_written(tmp_path):
    bare = (
        "  - url: https://example.com/postmortems/IL-0025\n    title: Storage postmortem",
        "  - https://example.com/postmortems/IL-0025",
    )
    root = write_library(tmp_path / "lib", {"IL-0025.yaml": incident("IL-0025", bare)})
    run = run_curator("lint", "--root", str(root), "--no-cache", "--quiet", cwd=root)
    assert run.out.splitlines() == [
        "incidents/IL-0025.yaml:26:5: IL201 [error] sources[0]: expected a mapping, found text "
        "'https://example.com/postmortems/IL-0025'; write it as `- url: "
        "https://example.com/postmortems/IL-0025`, with the source's `title:` on the next line, "
        "under `url`"
    ], run


def test_a_published_source_titled_by_its_url_is_told_to_take_the_reports_title(tmp_path):
    # `curator new` without --source-title writes the URL as the source's title; a
    # published incident that kept it passed lint, and the reviewer's checklist asks for
    # the report's title as published.
    url = "https://example.com/postmortems/IL-0025"
    titled_by_url = ("    title: Storage postmortem", f"    title: {url}")
    root = write_library(tmp_path / "lib", {"IL-0025.yaml": incident("IL-0025", titled_by_url)})
    run = run_curator("lint", "--root", str(root), "--no-cache", "--quiet", cwd=root)
    assert run.code == 1, run
    assert run.out.splitlines() == [
        "incidents/IL-0025.yaml:27:12: IL402 [error] sources[0].title is the source's URL, as "
        "`curator new` writes it without --source-title; write the report's title as published"
    ], run
    draft = ("status: published", "status: draft")
    root = write_library(
        tmp_path / "draft", {"IL-0025.yaml": incident("IL-0025", titled_by_url, draft)}
    )
    run = run_curator("lint", "--root", str(root), "--no-cache", "--quiet", cwd=root)
    assert run.code == 0 and run.out == "", run
