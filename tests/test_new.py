"""`curator new`: a valid draft with a placeholder id, every field laid out, Korean hints."""

from __future__ import annotations

import datetime as dt
import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
import typing
import unicodedata

import jsonschema
import pytest
from conftest import (
    REPO,
    STOPPED_WHILE_PARSING,
    ended,
    run_curator,
    start_python,
    stopped_as_it_loads,
    typed_like_other_tools,
    write_library,
)

from curator.ids import plan
from curator.library import Library
from curator.lint import lint
from curator.load import load_bytes
from curator.model import INCIDENT_KEYS
from curator.new import slug_for, suggest_terms
from curator.progress import Progress
from curator.signals import Terminated
from curator.urls import UrlFault, url_fault, url_problem
from curator.write.canonical import render
from incidents import incident

TITLE = "NCCL 타임아웃으로 H100 클러스터의 학습이 멈췄다"
SOURCE = "https://example.com/blog/nccl-hang?utm_source=rss"


FILLED_IN = (
    "curator: note: 제목과 출처 URL 에서 분류를 채웠습니다. 하나씩 확인하세요 (facets filled in "
    "from the title and the source URL; check each):"
)


def new(root, *args):
    return run_curator("new", "--root", str(root), "--no-prompt", *args)


def test_a_draft_from_options_is_valid_canonical_and_fully_laid_out(tmp_path):
    root = write_library(tmp_path / "lib", {})
    run = new(
        root,
        *("--title", TITLE, "--source", SOURCE, "--organization", "Example Corp"),
        *("--occurred", "2024-05", "--cause", "software-defect"),
    )
    assert run.code == 0, run
    path = root / "incidents" / "IL-NEW-nccl-h100.yaml"
    assert run.out.strip() == os.path.relpath(path, REPO)
    text = path.read_text(encoding="utf-8")
    data = load_bytes(text.encode("utf-8")).data
    assert data["id"] == "IL-NEW-nccl-h100" and data["title"] == TITLE
    assert data["status"] == "draft" and data["occurred"] == "2024-05"
    assert data["organizations"] == ["Example Corp"]
    assert data["facets"] == {
        "causes": ["software-defect"],  # given
        "components": ["gpu", "nccl"],  # suggested from the title
        "symptoms": ["training-stall"],
        "contributing_factors": [],
    }
    # The URL tidied, and each suggestion with its evidence, on standard error.
    assert run.err.splitlines()[:5] == [
        "curator: note: 출처 URL 을 `curator fix` 처럼 정리해 썼습니다: "
        "https://example.com/blog/nccl-hang (the source URL is written as "
        "https://example.com/blog/nccl-hang (IL505))",
        FILLED_IN,
        "  components: gpu ← 제목의 “타임아웃으로 H100 클러스터의” (맞는 이름·별칭: “H100”) "
        "(gpu ← “타임아웃으로 H100 클러스터의” in the title (matches “H100”))",
        "  components: nccl ← 제목의 “NCCL 타임아웃으로” (맞는 이름·별칭: “NCCL”) "
        "(nccl ← “NCCL 타임아웃으로” in the title (matches “NCCL”))",
        "  symptoms: training-stall ← 제목의 “클러스터의 학습이 멈췄다” (맞는 이름·별칭: "
        "“학습 멈춤”) (training-stall ← “클러스터의 학습이 멈췄다” in the title "
        "(matches “학습 멈춤”))",
    ]
    tidied = "https://example.com/blog/nccl-hang"  # tracking parameter dropped (IL505)
    assert data["sources"] == [{"url": tidied, "title": tidied}]
    # Every field of the schema is there, as a key or as a commented-out line.
    for key in INCIDENT_KEYS:
        assert re.search(rf"^#? ?{key}:", text, re.MULTILINE), key
    assert "# 증상: 무엇이 보였나" in text and "원문 제목으로 바꾸세요" in text
    findings = lint(Library.at(root))
    assert [(f.code, f.severity) for f in findings] == [("IL206", "warning")]
    assert render(text.encode("utf-8")) == text  # `curator fmt` has nothing to do
    check = run_curator("lint", "--root", str(root))
    assert check.code == 0 and "IL206 [warning] placeholder id IL-NEW-nccl-h100" in check.out


def test_the_source_keys_laid_out_as_comments_are_filled_in_by_taking_out_the_hash(tmp_path):
    # As a contributor fills them in: the `# ` taken off, the hint after the value kept.
    root = write_library(tmp_path / "lib", {})
    assert new(root, "--title", TITLE, "--source", SOURCE, "--cause", "software-defect").code == 0
    path = root / "incidents" / "IL-NEW-nccl-h100.yaml"
    text = path.read_text(encoding="utf-8")
    for key in ("publisher", "published", "language"):
        [line] = [line for line in text.splitlines() if line.lstrip().startswith(f"# {key}:")]
        text = text.replace(line, line.replace(f"# {key}:", f"{key}:", 1))
    path.write_text(text, encoding="utf-8")
    data = load_bytes(text.encode("utf-8")).data
    assert data["sources"] == [
        {
            "url": "https://example.com/blog/nccl-hang",
            "title": "https://example.com/blog/nccl-hang",
            "publisher": "펴낸 곳",
            "published": "2024-05-01",
            "language": "en",
        }
    ]
    assert [f.code for f in lint(Library.at(root))] == ["IL206"]


def test_korean_given_as_separate_jamo_is_written_composed(tmp_path):
    # As macOS file names hold Korean: lint would refuse it (IL605), so `new` composes it.
    root = write_library(tmp_path / "lib", {})
    title, organization = (unicodedata.normalize("NFD", text) for text in (TITLE, "한국 연구소"))
    given = ("--title", title, "--source", SOURCE, "--organization", organization)
    run = new(root, *given, "--cause", "software-defect")
    assert run.code == 0, run
    path = root / "incidents" / "IL-NEW-nccl-h100.yaml"
    data = load_bytes(path.read_bytes()).data
    assert (data["title"], data["organizations"]) == (TITLE, ["한국 연구소"])
    assert [f.code for f in lint(Library.at(root))] == ["IL206"]


def test_a_space_that_is_not_a_plain_one_is_written_as_one_and_said(tmp_path):
    # U+00A0 pasted from a web page, U+3000 typed in full-width mode: written as a plain
    # space, as before, but said (it was silent, and the file shows no trace of it).
    root = write_library(tmp_path / "lib", {})
    title = TITLE.replace(" H100 ", "\u00a0H100\u3000")
    given = ("--title", f" {title}", "--source", SOURCE, "--organization", "한국\u00a0연구소")
    run = new(root, *given, "--organization", "Example", "--cause", "software-defect")
    assert run.code == 0, run
    data = load_bytes((root / "incidents" / "IL-NEW-nccl-h100.yaml").read_bytes()).data
    assert (data["title"], data["organizations"]) == (TITLE, ["한국 연구소", "Example"])
    assert run.err.splitlines()[:2] == [
        "curator: note: 제목의 U+00A0(13번째 글자), U+3000(18번째 글자) 공백을 보통 공백으로 "
        "썼습니다 (the title's U+00A0 NO-BREAK SPACE (character 13) and U+3000 IDEOGRAPHIC "
        "SPACE (character 18) are written as plain spaces)",
        "curator: note: 조직의 U+00A0(3번째 글자) 공백을 보통 공백으로 썼습니다 (an "
        "organization's U+00A0 NO-BREAK SPACE (character 3) is written as a plain space)",
    ]
    answers = [title, SOURCE, "", "", "", "software-defect", "", "", ""]
    output = _in_terminal(["new", "--root", str(tmp_path / "lib")], answers)  # asked, too
    assert "the title's U+00A0 NO-BREAK SPACE (character 12) and U+3000" in output, output


def test_a_space_in_the_source_title_that_is_not_a_plain_one_is_written_as_one_and_said(
    tmp_path,
):
    # The title's and each organization's were, but the source title's U+00A0 and U+3000
    # were written as they came, beside a run of spaces, without a word.
    root = write_library(tmp_path / "lib", {})
    source_title = "  NCCL\u00a0hang\u3000 postmortem "
    given = ("--title", TITLE, "--source", SOURCE, "--source-title", source_title)
    run = new(root, *given, "--cause", "software-defect")
    assert run.code == 0, run
    path = root / "incidents" / "IL-NEW-nccl-h100.yaml"
    assert load_bytes(path.read_bytes()).data["sources"][0]["title"] == "NCCL hang postmortem"
    text = path.read_text(encoding="utf-8")
    assert f"title: {TITLE}  #" in text and "\\u" not in text  # Korean as it is
    assert run.err.splitlines()[0] == (
        "curator: note: 출처 글의 제목의 U+00A0(7번째 글자), U+3000(12번째 글자) 공백을 보통 "
        "공백으로 썼습니다 (the source title's U+00A0 NO-BREAK SPACE (character 7) and U+3000 "
        "IDEOGRAPHIC SPACE (character 12) are written as plain spaces)"
    )
    assert [f.code for f in lint(Library.at(root))] == ["IL206"]
    answers = [TITLE, SOURCE, source_title, "", "", "software-defect", "", "", ""]
    asked = write_library(tmp_path / "lib2", {})
    output = _in_terminal(["new", "--root", str(asked)], answers)  # asked, too
    assert "the source title's U+00A0 NO-BREAK SPACE (character" in output, output
    [draft] = (asked / "incidents").iterdir()
    assert load_bytes(draft.read_bytes()).data["sources"][0]["title"] == "NCCL hang postmortem"


def test_a_source_url_written_without_its_tracking_parameters_is_said(tmp_path):
    # `curator fix` reports the same change as IL505; new made it without a word.
    root = write_library(tmp_path / "lib", {})
    run = new(root, "--title", TITLE, "--source", SOURCE, "--cause", "software-defect")
    assert run.code == 0, run
    data = load_bytes((root / "incidents" / "IL-NEW-nccl-h100.yaml").read_bytes()).data
    assert data["sources"][0]["url"] == "https://example.com/blog/nccl-hang"
    notes = [line for line in run.err.splitlines() if "source URL is" in line]
    assert notes == [
        "curator: note: 출처 URL 을 `curator fix` 처럼 정리해 썼습니다: "
        "https://example.com/blog/nccl-hang (the source URL is written as "
        "https://example.com/blog/nccl-hang (IL505))"
    ]
    clean = ("--title", TITLE, "--source", "https://example.com/blog/nccl-hang")
    run = new(write_library(tmp_path / "lib2", {}), *clean, "--cause", "software-defect")
    assert run.code == 0 and "source URL is" not in run.err, run


def test_a_compatibility_ideograph_given_is_written_as_given(tmp_path):
    # 樂 as KS X 1001 encodes it for one reading: NFC would write another character.
    root = write_library(tmp_path / "lib", {})
    title = "\uf914 " + unicodedata.normalize("NFD", TITLE)
    run = new(root, "--title", title, "--source", SOURCE, "--cause", "software-defect")
    assert run.code == 0, run
    path = root / "incidents" / "IL-NEW-nccl-h100.yaml"
    assert load_bytes(path.read_bytes()).data["title"] == "\uf914 " + TITLE


def test_what_other_yaml_tools_would_type_is_written_quoted(tmp_path):
    # Editors and schema checkers read a plain `2024` as a number, `yes` as a boolean:
    # then the published schema refuses the draft. curator reads both as text either way.
    root = write_library(tmp_path / "lib", {})
    run = new(
        root,
        *("--title", "2024", "--source", SOURCE, "--organization", "yes"),
        *("--occurred", "2024", "--cause", "software-defect", "--component", "nccl"),
        *("--symptom", "training-stall"),
    )
    assert run.code == 0, run
    [path] = (root / "incidents").iterdir()
    text = path.read_text(encoding="utf-8")
    assert 'title: "2024"' in text and 'occurred: "2024"' in text and '  - "yes"' in text
    schema = json.loads((REPO / "schema" / "incident.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator(schema).validate(typed_like_other_tools(text.encode()))
    assert render(text.encode("utf-8")) == text


def test_a_term_missing_because_the_taxonomy_is_broken_names_the_broken_file(tmp_path):
    root = write_library(tmp_path / "lib", {})
    (root / "schema" / "taxonomy" / "components.yaml").write_text("terms: [\n", "utf-8")
    for args, said in (
        (
            ("--cause", "software-defect", "--component", "nccl"),
            "no term of components can be checked, as the taxonomy is broken: ",
        ),
        (("--cause", "software-defect"), "; but the taxonomy is broken: "),
    ):
        run = new(root, "--title", TITLE, "--source", SOURCE, *args)
        assert run.code == 2 and list((root / "incidents").iterdir()) == []
        assert said in run.err, run.err
        assert "schema/taxonomy/components.yaml:2:1: YAML syntax error" in run.err


def test_a_term_whose_definition_is_broken_is_one_line_saying_what_to_mend_where(tmp_path):
    # It said the definition was broken, then that the taxonomy was broken at its first
    # problem (another term's, as often as not), then to see `curator lint`, then to see
    # `curator new --help`; given the term's label, that it was no term.
    root = write_library(tmp_path / "lib", {})
    causes = root / "schema" / "taxonomy" / "causes.yaml"
    text = causes.read_text(encoding="utf-8")
    start = text.index("  - id: resource-exhaustion\n")
    aliases = text.index("    aliases:\n", start)
    end = text.index("  - id: ", start + 1)
    deprecated = (
        "  - id: old-cause\n    label: {ko: 옛 원인, en: Old cause}\n    description: 옛.\n"
        "    deprecated: {replaced_by: capacity-limits, reason: 합쳤다.}\n"
    )
    broken = text[:aliases] + "    aliases: 고갈\n" + text[end:] + deprecated
    causes.write_text(broken, encoding="utf-8")
    where = "schema/taxonomy/causes.yaml"
    list_line = broken[: broken.index("    aliases: 고갈")].count("\n") + 1
    old = broken.count("\n") - 3
    definition = (
        f"a term of causes whose definition is broken: {where}:{list_line}:14: "
        "terms[1].aliases: expected a list, found text '고갈'; write each item on a line of "
        "its own below the key, indented, as `- item`; mend it there, or give another term"
    )
    replacement = (
        f"is deprecated, and its definition, at {where}:{old}:9, names no current "
        "replacement: 'capacity-limits' is not a term of causes; did you mean "
        "'capacity-limit'?; give a current term"
    )
    # Korean first, the English in brackets.
    broken_ko = "정의가 깨진 원인 용어입니다. 정의를 고치거나 다른 용어를 쓰세요"
    old_ko = "더는 쓰지 않는 용어이고, 정의가 대신 쓸 현재 용어를 대지 않습니다. 현재 용어를 쓰세요"
    for cause, said in (
        (
            "resource-exhaustion",
            f"'resource-exhaustion': {broken_ko} ('resource-exhaustion' is {definition})",
        ),
        (  # its label
            "자원 고갈",
            f"'자원 고갈': {broken_ko} ('자원 고갈' names 'resource-exhaustion', {definition})",
        ),
        ("old-cause", f"'old-cause': {old_ko} ('old-cause' {replacement})"),
        ("옛 원인", f"'옛 원인': {old_ko} ('옛 원인' (the term 'old-cause') {replacement})"),
    ):
        run = new(root, "--title", TITLE, "--source", SOURCE, "--cause", cause)
        assert run.code == 2 and list((root / "incidents").iterdir()) == []
        assert run.err == f"curator new: {said}\n", run.err


def test_a_term_given_by_its_label_or_alias_is_written_as_its_id(tmp_path):
    # It was refused with a did-you-mean naming the id: `curator fix` writes that id in a
    # file, and the option takes the same names (`용량 한계`, `GPU`, the alias `job-hang`).
    root = write_library(tmp_path / "lib", {})
    terms = ("--cause", "용량 한계", "--component", "GPU", "--component", "Lustre")
    run = new(root, "--title", TITLE, "--source", SOURCE, *terms, "--symptom", "job-hang")
    assert run.code == 0, run.err
    (draft,) = (root / "incidents").iterdir()
    facets = load_bytes(draft.read_bytes()).data["facets"]
    assert [facets[d] for d in ("causes", "components", "symptoms")] == [
        ["capacity-limit"],
        ["gpu", "lustre"],
        ["training-stall"],
    ]


def _said(*lines: str) -> str:
    """A usage error of `curator new` as run by the tests: a line each, the last pointing
    to `--help`."""
    command = "python -m curator new"
    return "".join(f"{command}: {line}\n" for line in lines[:-1]) + (
        f"{command}: {lines[-1]} — `{command} --help` 를 보세요 (see `{command} --help`)\n"
    )


def _none_guessed(dimension: str, option: str, korean: str) -> str:
    return (
        f"제목과 출처 URL 에서 {korean} 용어를 찾지 못했습니다: {option} TERM 으로 주세요(용어는 "
        f"schema/taxonomy/{dimension}.yaml 에 있습니다) (no {dimension} term could be guessed "
        f"from the title or the source URL; give {option} TERM (the terms are in "
        f"schema/taxonomy/{dimension}.yaml))"
    )


def test_every_dimension_nothing_could_be_guessed_for_is_named_in_one_error(tmp_path):
    # Named in one line (`no causes, components or symptoms term …`), which the other
    # problems of the run could not be put in order of the options beside: a line each.
    root = write_library(tmp_path / "lib", {})
    source = "https://example.com/report"
    run = new(root, "--title", "알 수 없는 일", "--source", source)
    assert run.code == 2 and list((root / "incidents").iterdir()) == []
    assert run.err == _said(
        _none_guessed("causes", "--cause", "원인"),
        _none_guessed("components", "--component", "구성 요소"),
        _none_guessed("symptoms", "--symptom", "증상"),
    )
    run = new(root, "--title", "알 수 없는 일", "--source", source, "--component", "gpu")
    assert run.err == _said(
        _none_guessed("causes", "--cause", "원인"), _none_guessed("symptoms", "--symptom", "증상")
    )


def test_without_a_terminal_one_run_says_every_problem_a_line_each_in_the_order_of_help(
    tmp_path,
):
    # It said the first problem only: an unknown --cause, and the next run that no symptom
    # could be guessed; --title is needed, and the next run that --source is.
    root = write_library(tmp_path / "lib", {})
    source = "https://example.com/post"
    run = new(root, "--title", "GPU 무언가 일어남", "--source", source, "--cause", "nonsense")
    assert (run.code, run.out) == (2, "")
    assert run.err == _said(
        "'nonsense': 원인 용어가 아닙니다 ('nonsense' is not a term of causes)",
        _none_guessed("symptoms", "--symptom", "증상"),
    )
    asked = "터미널에서 `curator new` 를 실행하면 물어봅니다"
    needed = "is needed (or run `curator new` in a terminal to be asked)"
    run = new(root)
    assert run.code == 2
    assert run.err == _said(
        f"제목 --title 값이 필요합니다: {asked} (--title {needed})",
        f"출처 URL --source 값이 필요합니다: {asked} (--source {needed})",
    )
    # Every option's problems, whatever order they are given in, in the order of --help;
    # each of several terms of one option. Without a source nothing is guessed, so no
    # dimension is said to have no term: the source's path may name one.
    run = new(
        root,
        *("--symptom", "training-stal", "--factor", "alert-fatigue, single-point"),
        *("--cause", "nonsense", "--cause", "sofware-defect", "--component", "nccl"),
        *("--occurred", "2024-13", "--organization", "Lab\tlup", "--organization", "@octocat"),
        *("--source-title", "by @someone", "--title", "학습\x07중단"),
    )
    assert run.code == 2
    # Each line in Korean first, as the prompts ask (`제목 title`), the English after it.
    assert run.err == _said(
        "제목에 U+0007 제어 문자가 있습니다(3번째 글자): 지우세요 "
        "(the title holds U+0007, a control character (character 3); remove it)",
        f"출처 URL --source 값이 필요합니다: {asked} (--source {needed})",
        "출처 글의 제목의 @someone: GitHub 에서 그 이름에게 알림이 갑니다. @ 없이, 또는 "
        "백틱(`) 안에 쓰세요 (the source title holds @someone, which would notify someone "
        "on GitHub; write it without @, or in backticks)",
        "조직에 탭(U+0009)이 있습니다(4번째 글자): 웹사이트 목록·피드·CSV 에서 한 줄이니, "
        "공백을 써서 한 줄로 쓰세요 (an organization holds a tab (U+0009 CHARACTER "
        "TABULATION, character 4): it is one line in the website's lists, the feed and the "
        "CSV; write it on one line, with spaces)",
        "조직의 @octocat: GitHub 에서 그 이름에게 알림이 갑니다. @ 없이, 또는 백틱(`) 안에 "
        "쓰세요 (an organization holds @octocat, which would notify someone on GitHub; "
        "write it without @, or in backticks)",
        "일어난 때 '2024-13': 없는 날짜입니다 (occurred '2024-13' is not a real date)",
        "'nonsense': 원인 용어가 아닙니다 ('nonsense' is not a term of causes)",
        "'sofware-defect': 원인 용어가 아닙니다. 혹시 'software-defect' 인가요? "
        "('sofware-defect' is not a term of causes; "
        "did you mean 'software-defect'?)",
        "'training-stal': 증상 용어가 아닙니다. 혹시 'training-stall' 인가요? "
        "('training-stal' is not a term of symptoms; "
        "did you mean 'training-stall'?)",
        "'alert-fatigue, single-point': 용어 2개입니다. 용어마다 --factor 하나씩 주세요: "
        "--factor alert-fatigue --factor single-point ('alert-fatigue, single-point' is 2 "
        "terms: give each its own --factor (--factor alert-fatigue --factor single-point))",
    )
    assert list((root / "incidents").iterdir()) == []


def test_each_error_line_says_it_in_korean_first_then_in_english(tmp_path):
    # They were in English alone, where the prompts ask in Korean first (`제목 title`).
    root = write_library(tmp_path / "lib", {})
    causes = root / "schema" / "taxonomy" / "causes.yaml"
    causes.write_text(
        causes.read_text(encoding="utf-8")
        + "  - id: old-cause\n    label: {ko: 옛 원인, en: Old cause}\n    description: 옛.\n"
        "    deprecated: {replaced_by: capacity-limit, reason: 합쳤다.}\n",
        encoding="utf-8",
    )
    today = dt.datetime.now(dt.UTC).date().isoformat()
    good = ("--title", TITLE, "--source", SOURCE, "--cause", "software-defect")
    cases = [
        (
            ("--occurred", "2024/05"),
            "일어난 때 '2024/05': YYYY, YYYY-MM, YYYY-MM-DD 꼴이 아닙니다 "
            "(occurred '2024/05' is not YYYY, YYYY-MM or YYYY-MM-DD)",
        ),
        (
            ("--occurred", "2999"),
            f"일어난 때 '2999': 오늘({today}) 뒤입니다 (occurred '2999' is after today ({today}))",
        ),
        (
            ("--source", "http://example.com/pm"),
            "출처 URL 'http://example.com/pm': http 주소입니다. 공개된 글의 https 주소만 쓰세요 "
            "(source URL 'http://example.com/pm' uses http; sources must be https)",
        ),
        (("--title", "   "), "제목이 비어 있습니다 (the title must not be empty)"),
        (  # what the character is, in Korean too, as in English
            ("--organization", "Lab\ufeff"),
            "조직에 U+FEFF 바이트 순서 표시(BOM)가 있습니다(4번째 글자): 지우세요 (an "
            "organization holds U+FEFF, a byte-order mark (character 4); remove it)",
        ),
        (
            ("--source-title", "원문\uffff"),
            "출처 글의 제목에 U+FFFF 비문자(noncharacter)가 있습니다(3번째 글자): 지우세요 "
            "(the source title holds U+FFFF, a noncharacter (character 3); remove it)",
        ),
        (
            ("--title", "\u200b"),
            "제목에 보이는 글자가 없습니다 (the title holds no visible character)",
        ),
        (
            ("--source-title", "원문\n제목"),
            "출처 글의 제목에 줄바꿈(U+000A)이 있습니다(3번째 글자): 웹사이트 목록·피드·CSV "
            "에서 한 줄이니, 공백을 써서 한 줄로 쓰세요 (the source title holds a line break "
            "(U+000A LINE FEED, character 3): it is one line in the website's lists, the feed "
            "and the CSV; write it on one line, with spaces)",
        ),
        (  # where the term is, or what it may be a misspelling of, in Korean too
            ("--cause", "nccl"),
            "'nccl': 원인 용어가 아닙니다. 구성 요소 용어입니다 ('nccl' is not a term of causes "
            "(it is a term of components))",
        ),
        (
            ("--cause", "옛 원인"),
            "'옛 원인': 더는 쓰지 않는 용어입니다. 대신 쓸 용어: 'capacity-limit' "
            "('옛 원인' (the term 'old-cause') is deprecated; use 'capacity-limit')",
        ),
    ]
    for args, said in cases:
        run = new(root, *good, *args)
        assert (run.code, run.err) == (2, _said(said)), args
        assert list((root / "incidents").iterdir()) == []


URL_FAULTS = [
    ("https://example.com/a b", "space", "공백이 있습니다"),
    (
        "“https://example.com/a”",
        "wrapped",
        "'“' 로 시작합니다: 따옴표나 괄호 없이 주소만 쓰세요",
    ),
    (
        "https://a.com\\@b.com/",
        "backslash",
        "역슬래시(\\)가 있습니다. URL 에 쓸 수 없는 글자라(RFC 3986) 읽는 쪽마다 달리 읽습니다: "
        "브라우저는 '/' 로 읽고(https://a.com\\@b.com/ 은 a.com 으로 갑니다), 다른 도구는 "
        "호스트나 경로의 일부로 읽습니다. '/' 나 '%5C' 로 쓰세요",
    ),
    (
        "https://example.com/a)",
        "bracket",
        "여는 '(' 없이 ')' 로 끝납니다. 괄호 안 문장이나 Markdown 의 [제목](url) 에서 함께 "
        "복사된 것이니 주소만 쓰세요",
    ),
    (
        "https://example.com:99999/a",
        "malformed",
        "주소 꼴이 잘못되었습니다(Port out of range 0-65535)",
    ),
    ("example.com/a", "scheme", "https:// 가 없는 주소입니다. 공개된 글의 https 주소만 쓰세요"),
    ("https://localhost/a", "host", "호스트 이름이 올바르지 않습니다(localhost)"),
    (
        "https://[v1.x]/a",
        "ipv6",
        "호스트 이름이 올바르지 않습니다([v1.x] 은 IPv6 주소가 아닙니다)",
    ),
    (
        "https://example..com/a",
        "empty-label",
        "호스트 이름이 올바르지 않습니다(example..com: 두 점 사이가 비어 있습니다)",
    ),
    (
        f"https://{'a' * 64}.com/a",
        "long-label",
        f"호스트 이름이 올바르지 않습니다({'a' * 64}.com: 63자보다 긴 레이블이 있습니다)",
    ),
    ("https://1.2.3/a", "ipv4", "호스트 이름이 올바르지 않습니다(1.2.3 은 IPv4 주소가 아닙니다)"),
]


@pytest.mark.parametrize(("url", "kind", "korean"), URL_FAULTS, ids=[k for _, k, _ in URL_FAULTS])
def test_what_is_wrong_with_a_source_url_is_said_in_korean_first(tmp_path, url, kind, korean):
    # The Korean said only that the address could not be used; what was wrong with it was
    # in the English in brackets alone. The English is lint's IL501's, as it was.
    root = write_library(tmp_path / "lib", {})
    run = new(root, "--title", TITLE, "--source", url, "--cause", "software-defect")
    english = f"source URL {url!r} {url_problem(url)}"
    assert (run.code, run.err) == (2, _said(f"출처 URL {url!r}: {korean} ({english})"))
    assert getattr(url_fault(url), "kind", None) == kind


def test_every_kind_of_url_fault_is_said_in_korean():
    kinds = typing.get_args(typing.get_type_hints(UrlFault)["kind"])
    assert sorted(kinds) == sorted(kind for _, kind, _ in URL_FAULTS)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--bogus",), "--bogus 옵션은 없습니다 (No such option '--bogus')"),
        (
            ("--titl", "x"),
            "--titl 옵션은 없습니다. 혹시 --source-title 또는 --title 인가요? (No such option "
            "'--titl'. (Did you mean one of: '--source-title', '--title'?))",
        ),
        (
            ("--status", "done"),
            "--status 값은 draft, published 가운데 하나입니다 (Invalid value for '--status': "
            "'done' is not one of 'draft', 'published')",
        ),
        (("--title",), "--title 옵션의 값이 없습니다 (Option '--title' requires an argument)"),
        (
            ("--prompt=yes",),
            "--prompt 옵션은 값을 받지 않습니다 (Option '--prompt' does not take a value)",
        ),
        (
            ("학습", "중단"),
            "옵션 없이 준 값이 있습니다. 값마다 --title 처럼 옵션을 앞에 붙이세요 (Got "
            "unexpected extra arguments (학습 중단))",
        ),
    ],
    ids=["unknown", "misspelt", "choice", "no-value", "flag-value", "extra"],
)
def test_a_usage_error_of_clicks_own_is_said_in_korean_first_too(tmp_path, args, said):
    # Said in English alone (and, for an option without its value, as `curator`'s).
    root = write_library(tmp_path / "lib", {})
    run = new(root, *args)
    assert (run.code, run.err) == (2, _said(said))
    assert list((root / "incidents").iterdir()) == []


def test_a_root_that_is_a_file_or_unreadable_is_a_usage_error_saying_so_in_korean_first(
    tmp_path,
):
    # Said in Korean as any value `--root` cannot take: "--root 값을 쓸 수 없습니다".
    root = tmp_path / "lib.yaml"
    root.write_text("", encoding="utf-8")
    run = run_curator("new", "--root", str(root), "--no-prompt")
    assert (run.code, run.err) == (
        2,
        _said(
            f"--root {root} 은 파일입니다: 라이브러리 폴더(incidents/ 와 schema/ 가 있는 "
            f"폴더)를 주세요 (Invalid value for '--root': Directory '{root}' is a file)"
        ),
    )
    root = write_library(tmp_path / "lib", {})
    root.chmod(0o311)
    try:
        run = run_curator("new", "--root", str(root), "--no-prompt", permissions=True)
    finally:
        root.chmod(0o755)
    assert (run.code, run.err) == (
        2,
        _said(
            f"--root {root} 폴더를 읽을 권한이 없습니다 (Invalid value for '--root': "
            f"Directory '{root}' is not readable)"
        ),
    )


def test_a_problem_said_twice_in_one_run_is_one_line(tmp_path):
    root = write_library(tmp_path / "lib", {})
    (root / "schema" / "taxonomy" / "components.yaml").write_text("terms: [\n", "utf-8")
    args = ("--title", TITLE, "--source", SOURCE, "--cause", "software-defect")
    run = new(root, *args, "--component", "nccl", "--component", "gpu")
    assert run.code == 2 and list((root / "incidents").iterdir()) == []
    # The taxonomy's to mend: one line, no usage at fault (no `--help`).
    (line,) = run.err.splitlines()
    assert line.startswith(
        "curator new: 분류 체계가 깨져 구성 요소 용어를 확인할 수 없습니다: `curator lint` 를 "
        "보세요 (no term of components can be checked, as the "
    ), line


def test_facets_read_from_the_source_url_are_said_to_come_from_it(tmp_path):
    root = write_library(tmp_path / "lib", {})
    args = ("--title", "알 수 없는 일이 일어났다", "--source", "https://example.com/blog/nccl-hang")
    run = new(root, *args, "--cause", "software-defect")
    assert run.code == 0, run
    assert run.out.strip().endswith("IL-NEW-nccl-hang.yaml")
    assert run.err.splitlines()[:3] == [
        FILLED_IN,
        "  components: nccl ← 출처 URL 의 “/blog/nccl-hang” (맞는 이름·별칭: “NCCL”) "
        "(nccl ← “/blog/nccl-hang” in the source URL (matches “NCCL”))",
        "  symptoms: training-stall ← 출처 URL 의 “/blog/nccl-hang” (맞는 이름·별칭: "
        "“NCCL hang”) (training-stall ← “/blog/nccl-hang” in the source URL "
        "(matches “NCCL hang”))",
    ]


def test_a_korean_title_takes_its_slug_from_the_source_and_names_never_collide(tmp_path):
    root = write_library(tmp_path / "lib", {})
    args = ("--title", "학습 작업이 멈췄다", "--source", "https://example.com/pm/gpu-outage-2024/")
    args += ("--cause", "hardware-failure", "--component", "gpu", "--symptom", "training-stall")
    assert new(root, *args).code == 0
    assert new(root, *args).code == 0
    names = sorted(p.name for p in (root / "incidents").iterdir())
    assert names == ["IL-NEW-gpu-outage-2024-2.yaml", "IL-NEW-gpu-outage-2024.yaml"]
    assert [f.code for f in lint(Library.at(root))] == ["IL206", "IL502", "IL206", "IL502"]


def test_it_names_the_incidents_the_draft_may_duplicate_with_the_evidence(tmp_path):
    paper = ("https://example.com/postmortems/IL-0001", "https://huggingface.co/papers/2402.15627")
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001", paper)})
    args = ("--title", TITLE, "--source", "https://arxiv.org/pdf/2402.15627v2")
    run = new(root, *args, "--cause", "software-defect")
    assert run.code == 0, run
    assert run.out.strip().endswith("IL-NEW-nccl-h100.yaml")  # standard output: the path
    note = run.err.split("\n")
    note = note[note.index(FILLED_IN) + 4 :]
    assert note[0] == (
        "curator: note: 이 사건이 이미 있을 수 있습니다. 같은 사건이면 그 사건을 고치고, 아니면 "
        "아래 id 를 not_duplicate_of 에 적으세요 (the library may already hold this event; if "
        "it does, correct that incident instead, and if not, list it in not_duplicate_of):"
    )
    assert note[1] == (
        "  duplicate  1.00  IL-0001  공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다"
    )
    assert note[2] == (
        "               - same paper https://arxiv.org/abs/2402.15627 (at any of its addresses: "
        "version, PDF, mirror, DOI)"
    )
    shown = os.path.relpath(root / "incidents" / "IL-NEW-nccl-h100.yaml", REPO)
    assert note[-2] == (
        "다음: 출처를 보고 채운 뒤 `curator fix`, `curator fmt`, `curator lint` 를 실행하세요 "
        f"(next: fill it in from the source, then `curator fix {shown}`, `curator fmt {shown}` "
        f"and `curator lint {shown}`)"
    )
    assert (root / "incidents" / "IL-NEW-nccl-h100.yaml").is_file()  # written all the same
    # Another report, other words: nothing to say.
    other = write_library(tmp_path / "other", {"IL-0001.yaml": incident("IL-0001", paper)})
    run = new(other, *args[:2], "--source", SOURCE, "--cause", "software-defect")
    assert run.code == 0 and "may already hold" not in run.err, run


def test_a_file_of_the_library_it_may_not_read_is_named_in_korean_first(tmp_path):
    # The look for the same event went without it in silence (exit 0, no note): a draft of
    # its very event was said to duplicate nothing. Once it can be read, it counts.
    paper = ("https://example.com/postmortems/IL-0001", "https://huggingface.co/papers/2402.15627")
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001", paper)})
    args = ("--title", TITLE, "--source", "https://arxiv.org/pdf/2402.15627v2")
    args += ("--cause", "software-defect")
    unread = root / "incidents" / "IL-0001.yaml"
    unread.chmod(0o000)
    try:
        run = run_curator("new", "--root", str(root), "--no-prompt", *args, permissions=True)
    finally:
        unread.chmod(0o644)
    assert run.code == 0, run
    shown = os.path.relpath(unread, REPO)
    notes = [line for line in run.err.splitlines() if line.startswith("curator: note: ")]
    assert notes[1:] == [
        f"curator: note: {shown} 은 읽을 수 없어 같은 사건 찾기에서 빠졌습니다: 권한이 없습니다 "
        f"({shown} is left out of the look for the same event: cannot read the file: "
        "Permission denied (IL107))"
    ]
    run = new(root, *args)
    assert run.code == 0, run
    assert "이 사건이 이미 있을 수 있습니다" in run.err and "빠졌습니다" not in run.err
    assert "  duplicate  1.00  IL-0001  " in run.err


def test_files_of_the_library_lint_does_not_read_are_named_in_korean_first_ten_at_most(
    tmp_path,
):
    # The look for the same event went without a file of the library that lint does not
    # read as a YAML mapping (a syntax error, a list) without a word, exit 0. Each is named
    # where lint reports it, with its code, in Korean first; past ten, how many more.
    files = {f"IL-{n:04}.yaml": "- a list\n" for n in range(3, 13)}
    files["IL-0002.yaml"] = incident("IL-0002", ("title: 공유", "title: 경고: 공유"))
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001"), **files})
    run = new(root, "--title", TITLE, "--source", SOURCE, "--cause", "software-defect")
    assert run.code == 0, run

    def shown(n: int) -> str:
        return os.path.relpath(root / "incidents" / f"IL-{n:04}.yaml", REPO)

    syntax = (
        "YAML syntax error: mapping values are not allowed in this context: a ': ' inside a "
        'value starts another key; put the whole value in double quotes ("…") or write it as '
        "a `|` block (IL101)"
    )
    whys = {2: ("2:10", "YAML 문법 오류가 있습니다", syntax)} | {
        n: (
            "1:1",
            "키와 값의 매핑이 아닙니다",
            "an incident is a mapping of keys to values, not a list (IL201)",
        )
        for n in range(3, 12)
    }
    notes = [line for line in run.err.splitlines() if "같은 사건 찾기에서 빠졌습니다" in line]
    assert notes == [
        *(
            f"curator: note: {shown(n)}:{at} 은 사건으로 읽을 수 없어 같은 사건 찾기에서 "
            f"빠졌습니다: {korean} ({shown(n)}:{at} is left out of the look for the same event: "
            f"{why})"
            for n, (at, korean, why) in whys.items()
        ),
        "curator: note: 그 밖에 파일 1개를 사건으로 읽을 수 없어 같은 사건 찾기에서 빠졌습니다 "
        "(1 more file of the library is left out of the look for the same event, not read as "
        "an incident; `curator lint` names each)",
    ]


def test_why_a_file_of_the_library_is_left_out_is_said_in_korean_too(tmp_path):
    # The Korean said only that the file could not be read as an incident; why (a syntax
    # error, a tab, …) was in English alone, after it. Each common reason has its Korean
    # words, lint's English, its place and its code after them. A key given twice keeps
    # no file out: it is not named.
    files: dict[str, str | bytes] = {
        "IL-0002.yaml": incident("IL-0002", ("title: 공유", "title: 경고: 공유")),
        "IL-0003.yaml": incident("IL-0003", ("status: published", "\tstatus: published")),
        "IL-0004.yaml": incident("IL-0004").encode().replace(b"Example", b"Ex\xc0ample"),
        "IL-0005.yaml": "x" * 1_048_577,
        "IL-0006.yaml": incident(
            "IL-0006", ("occurred: 2024-05", "occurred: !!python/object 2024-05")
        ),
        "IL-0007.yaml": "# 아직 비어 있다\n",
        "IL-0008.yaml": "- a list\n",
        "IL-0009.yaml": incident("IL-0009", ("status: published", "status: published\nid: X")),
    }
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001"), **files})
    run = new(root, "--title", TITLE, "--source", SOURCE, "--cause", "software-defect")
    assert run.code == 0, run
    said = {
        "IL-0002.yaml:2:10": (
            "YAML 문법 오류가 있습니다",
            "YAML syntax error: mapping values are not allowed in this context: a ': ' inside a "
            'value starts another key; put the whole value in double quotes ("…") or write it '
            "as a `|` block (IL101)",
        ),
        "IL-0003.yaml:3:1": (
            "YAML 이 공백만 받는 자리에 탭이 있습니다",
            "a tab where YAML takes only spaces (to indent, and after an item's '-'), so the "
            "file cannot be read; use spaces; indent the line by hand: the two spaces `curator "
            "fix` puts for a tab do not mend it (IL601)",
        ),
        "IL-0004.yaml:6:7": (
            "UTF-8 로 저장된 파일이 아닙니다",
            "not valid UTF-8 (byte 0xc0 at offset 158); save the file as UTF-8 (IL103)",
        ),
        "IL-0005.yaml:1:1": (
            "파일이 1,048,576 바이트보다 큽니다",
            "file is 1,048,577 bytes; curator reads files of up to 1,048,576 bytes (IL104)",
        ),
        "IL-0006.yaml:4:11": (
            "태그, 앵커, 별칭처럼 사건 파일에 쓰지 않는 YAML 구문이 있습니다",
            "tag !!python/object is not allowed; incidents hold plain values only: write the value "
            "without the tag (IL105)",
        ),
        "IL-0007.yaml:1:1": ("YAML 문서가 없습니다", "the file holds no YAML document (IL106)"),
        "IL-0008.yaml:1:1": (
            "키와 값의 매핑이 아닙니다",
            "an incident is a mapping of keys to values, not a list (IL201)",
        ),
    }
    notes = [line for line in run.err.splitlines() if "같은 사건 찾기에서 빠졌습니다" in line]
    folder = os.path.relpath(root / "incidents", REPO)
    assert notes == [
        f"curator: note: {folder}/{where} 은 사건으로 읽을 수 없어 같은 사건 찾기에서 빠졌습니다: "
        f"{korean} ({folder}/{where} is left out of the look for the same event: {why})"
        for where, (korean, why) in said.items()
    ]
    # The English, the place and the code are lint's.
    linted = run_curator("lint", "--root", str(root), cwd=root).out.splitlines()
    for where, (_, why) in said.items():
        message, _, code = why.rpartition(" (")
        assert f"incidents/{where}: {code[:-1]} [error] {message}" in linted


def test_two_drafts_from_one_site_share_no_entity_by_their_placeholder_source_titles(tmp_path):
    # A draft's source title is its URL till the report's title is written in: two drafts
    # of other events from one blog shared its host as an entity, and `curator similar`
    # named each as the other's related incident ("shared entities: blog.example.com").
    # (Among other incidents, as in a library: of the two alone, nothing was said.)
    others = {f"IL-{n:04d}.yaml": incident(f"IL-{n:04d}") for n in range(1, 11)}
    root = write_library(tmp_path / "lib", others)
    drafts = [
        (
            "NCCL 타임아웃으로 학습이 멈췄다",
            "2024/nccl-timeout",
            "software-defect",
            "training-stall",
        ),
        (
            "DNS 캐시가 비워지며 API 서버가 느려졌다",
            "2023/dns",
            "config-change",
            "elevated-latency",
        ),
    ]
    for title, path, cause, symptom in drafts:
        source = ("--source", f"https://blog.example.com/{path}")
        run = new(root, "--title", title, *source, "--cause", cause, "--symptom", symptom)
        assert run.code == 0, run
    draft = root / "incidents" / "IL-NEW-dns-api.yaml"
    assert "    title: https://blog.example.com/2023/dns  #" in draft.read_text("utf-8")
    run = run_curator("similar", "--root", str(root), "--format", "json", str(draft))
    assert (run.code, json.loads(run.out)[0]["matches"]) == (0, []), run


@pytest.mark.parametrize(
    ("title", "url", "expected"),
    [
        # Particles and endings between a label's words (`인증서 만료`, `DNS 조회 실패`).
        (
            "인증서가 만료되어 API 서버가 멈췄다",
            "https://e.com/x",
            {"causes": ["certificate-expiry"]},
        ),
        (
            "설정을 바꾼 뒤 DNS 조회가 실패했다",
            "https://e.com/x",
            {"symptoms": ["dns-resolution-failure"]},
        ),
        # Every term named, not one per dimension; a negated one left out.
        ("GPU 고장 없이 H100 학습이 NCCL 타임아웃으로 멈췄다", "https://e.com/x", {"causes": []}),
        # The source URL's path is read too, its %XX decoded.
        ("학습 작업이 멈췄다", "https://e.com/blog/nccl-hang", {"components": ["nccl"]}),
        (
            "장애 회고",
            "https://e.com/%EC%9D%B8%EC%A6%9D%EC%84%9C-%EB%A7%8C%EB%A3%8C",
            {"causes": ["certificate-expiry"]},
        ),
    ],
)
def test_facets_are_guessed_as_search_recognises_terms(title, url, expected):
    guessed = suggest_terms(Library.at(REPO).taxonomy, title, url)
    assert {d: [g.term for g in guessed[d]] for d in expected} == expected


def _as_a_class_is_made(stop: KeyboardInterrupt) -> RuntimeError:
    """`stop` as Python 3.11 raises one that lands as a class is made (`stop_behind`)."""
    error = RuntimeError("Error calling __set_name__ on 'Stopping' instance 'field' in 'Made'")
    error.__cause__ = stop
    return error


@pytest.mark.parametrize(
    ("stop", "said"),
    [
        (KeyboardInterrupt, "curator: 중단되었습니다 (interrupted)"),
        (Terminated, "curator: 종료 신호로 중단되었습니다 (terminated)"),
        # (Python 3.11's, for one landing as a class is made, a module loading; the look
        # was said stopped only for a KeyboardInterrupt itself)
        (_as_a_class_is_made(KeyboardInterrupt()), "curator: 중단되었습니다 (interrupted)"),
    ],
)
def test_stopped_while_looking_for_the_same_event_it_says_the_draft_is_written(
    tmp_path, monkeypatch, stop, said
):
    from click.testing import CliRunner

    import curator.cli
    from curator.similarity import commands

    def stopped(*_: object) -> None:
        raise stop

    monkeypatch.setattr(commands, "known_already", stopped)
    root = write_library(tmp_path / "lib", {})
    args = ["new", "--root", str(root), "--no-prompt", "--title", TITLE, "--source", SOURCE]
    result = CliRunner().invoke(curator.cli.main, [*args, "--cause", "software-defect"])
    assert result.exit_code == 2
    shown = os.path.relpath(root / "incidents" / "IL-NEW-nccl-h100.yaml")
    assert (
        f"curator: note: {shown} 은 썼습니다. 같은 사건 찾기는 멈췄습니다: `curator similar "
        f"{shown}` 로 다시 찾습니다 ({shown} is written; the look for the same event was "
        f"stopped (`curator similar {shown}` looks again))\n{said}\n"
    ) in result.stderr
    assert (root / "incidents" / "IL-NEW-nccl-h100.yaml").is_file()


def test_stopped_as_curator_loads_or_reads_its_command_line_new_says_so_in_korean_first(
    tmp_path,
):
    # Said `curator: interrupted` or `curator: terminated` alone, as every command does.
    root = write_library(tmp_path / "lib", {})
    args = ("new", "--root", str(root), "--no-prompt", "--title", TITLE, "--source", SOURCE)
    run = stopped_as_it_loads("curator.cli", *args)
    assert (run.code, run.out, run.err) == (2, "", "curator: 중단되었습니다 (interrupted)\n")
    program = _STOPPED_WHILE_NEW_IS_READ.format(stop="os.kill(os.getpid(), signal.SIGTERM)")
    run = ended(start_python("-c", program, *args))
    said = "curator: 종료 신호로 중단되었습니다 (terminated)\n"
    assert (run.code, run.out, run.err) == (2, "", said)
    assert list((root / "incidents").iterdir()) == []
    # Every other command says it as before, in English.
    run = stopped_as_it_loads("curator.cli", "lint", "--root", str(root))
    assert (run.code, run.out, run.err) == (2, "", "curator: interrupted\n")


def test_stopped_before_curator_knows_the_command_is_new_it_says_so_in_korean_first(tmp_path):
    # A stop as `curator` itself read the command line, before it had found `new`, said
    # `curator: interrupted` alone.
    root = write_library(tmp_path / "lib", {})
    for stop, korean in (
        ("signal.raise_signal(signal.SIGINT)", "중단되었습니다 (interrupted)"),
        ("os.kill(os.getpid(), signal.SIGTERM)", "종료 신호로 중단되었습니다 (terminated)"),
    ):
        program = STOPPED_WHILE_PARSING.format(stop=stop)
        run = ended(start_python("-c", program, "new", "--root", str(root), "--no-prompt"))
        assert (run.code, run.out, run.err) == (2, "", f"curator: {korean}\n")
        english = korean.split(" (")[1].rstrip(")")
        run = ended(start_python("-c", program, "lint", "--root", str(root)))
        assert (run.code, run.out, run.err) == (2, "", f"curator: {english}\n")
    assert list((root / "incidents").iterdir()) == []


# SIGTERM as click reads new's options, once `curator` has found the command.
_STOPPED_WHILE_NEW_IS_READ = """
import click, os, signal
parse = click.Command.parse_args
def stopped(self, ctx, args):
    if ctx.info_name == "new":
        {stop}
    return parse(self, ctx, args)
click.Command.parse_args = stopped
from curator.__main__ import main
main()
"""


def test_stopped_as_the_look_for_the_same_event_loads_it_says_the_draft_is_written(tmp_path):
    # The modules that look load once the draft is written: a stop then said only
    # `curator: 중단되었습니다 (interrupted)`, not that the draft was written nor how to look.
    root = write_library(tmp_path / "lib", {})
    args = ("new", "--root", str(root), "--no-prompt", "--title", TITLE, "--source", SOURCE)
    run = stopped_as_it_loads("curator.similarity.index", *args, "--cause", "software-defect")
    shown = os.path.relpath(root / "incidents" / "IL-NEW-nccl-h100.yaml", REPO)
    assert (run.code, run.out) == (2, f"{shown}\n")
    assert run.err.endswith(
        f"curator: note: {shown} 은 썼습니다. 같은 사건 찾기는 멈췄습니다: `curator similar "
        f"{shown}` 로 다시 찾습니다 ({shown} is written; the look for the same event was "
        f"stopped (`curator similar {shown}` looks again))\ncurator: 중단되었습니다 "
        "(interrupted)\n"
    )
    assert (root / "incidents" / "IL-NEW-nccl-h100.yaml").is_file()


def test_the_look_for_the_same_event_is_labelled_in_korean_first(tmp_path, monkeypatch):
    from click.testing import CliRunner

    import curator.cli
    import curator.progress
    from curator.similarity import commands

    def slow(
        library: Library, draft: object, progress: Progress
    ) -> tuple[list[object], commands.LeftOut]:
        progress.started -= 10  # (the run has gone on for a while, the line is due)
        progress(1, 10)
        return [], commands.LeftOut([])

    monkeypatch.setattr(commands, "known_already", slow)
    monkeypatch.setattr(curator.progress, "_is_terminal", lambda stream: True)
    root = write_library(tmp_path / "lib", {})
    args = ["new", "--root", str(root), "--no-prompt", "--title", TITLE, "--source", SOURCE]
    result = CliRunner().invoke(curator.cli.main, [*args, "--cause", "software-defect"])
    assert result.exit_code == 0
    assert (
        "\r\x1b[K같은 사건을 찾는 중 파일 1/10개, 초당 0개 (looking for the same event 1/10 "
        "files (0 files/s))\r\x1b[K"
    ) in result.stderr


def test_no_library_is_said_in_korean_first_by_new_alone(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    run = run_curator("new", "--title", TITLE, cwd=outside)
    assert run.code == 2
    assert run.err == (
        f"curator: {outside} 에도 그 위 폴더에도 라이브러리가 없습니다. 라이브러리는 "
        "incidents/ 와 schema/ 가 있는 폴더입니다. --root PATH 로 지정하세요 (no library "
        f"found in {outside} or above (a library holds incidents/ and schema/); use --root "
        "PATH)\n"
    )
    run = run_curator("new", "--root", str(outside), "--title", TITLE)
    assert run.code == 2
    assert run.err == (
        f"curator: {outside} 폴더는 라이브러리가 아닙니다: incidents/ 와 schema/ 폴더가 "
        f"있어야 합니다 ({outside} is not a library: it needs incidents/ and schema/ folders)\n"
    )
    # Every other command says it as before, in English.
    run = run_curator("lint", "--root", str(outside))
    assert (run.code, run.err) == (
        2,
        f"curator: {outside} is not a library: it needs incidents/ and schema/ folders\n",
    )


def test_slugs():
    assert slug_for("NCCL 타임아웃: H100 8대", "https://x.org/") == "nccl-h100"
    # A number against a Korean word is a measure, a count or a date, not a name; last,
    # it read as the `-N` of another draft (bug: `IL-NEW-gcs-3`, `IL-NEW-5-6-8-fastly-85`).
    title = "GCS 버킷 권한 변경으로 학습 체크포인트 저장이 3시간 실패했다"
    assert slug_for(title, SOURCE) == "gcs"
    title = "2019년 5월 4일 Firefox 부가 기능 4,088개가 H100가 Xid 79 로 1.5배 꺼졌다"
    assert slug_for(title, SOURCE) == "firefox-h100-xid-79"
    # A word the title repeats is written once (bug: `IL-NEW-gpu-gpu-xid-gpu-nccl`, the
    # repeats taking the places of the title's other words).
    title = "GPU 장애: GPU Xid 오류 뒤 GPU 가 빠져 NCCL 이 멈추고 ECC 오류"
    assert slug_for(title, SOURCE) == "gpu-xid-nccl-ecc"
    assert slug_for("학습 중단", "https://example.com/nccl-hang-nccl") == "nccl-hang"
    assert slug_for("학습 중단", "https://www.example.com/blog/") == "blog"
    assert slug_for("학습 중단", "https://www.example.com/") == "example"
    assert re.fullmatch(r"[0-9a-f]{8}", slug_for("학습 중단", "https://가.한국/"))


def test_without_a_terminal_missing_or_bad_values_are_usage_errors_and_nothing_is_written(
    tmp_path,
):
    root = write_library(tmp_path / "lib", {})
    cases = [
        ((), "--title is needed"),
        (("--title", "학습 중단"), "--source is needed"),
        (("--title", "학습 중단", "--source", "http://example.com/pm"), "sources must be https"),
        (("--title", "학습 중단", "--source", SOURCE), "no causes term could be guessed"),
        (
            ("--title", TITLE, "--source", SOURCE, "--cause", "sofware-defect"),
            "'sofware-defect' is not a term of causes; did you mean 'software-defect'?",
        ),
        (
            ("--title", TITLE, "--source", SOURCE, "--cause", "nccl"),
            "'nccl' is not a term of causes (it is a term of components)",
        ),
        (
            # Written as the prompt takes them: each is named, none offered alone.
            ("--title", TITLE, "--source", SOURCE, "--cause", "software-defect,config-change"),
            "'software-defect,config-change' is 2 terms: give each its own --cause "
            "(--cause software-defect --cause config-change)",
        ),
        (
            ("--title", TITLE, "--source", SOURCE, "--factor", "alert-fatigue, single-point"),
            "'alert-fatigue, single-point' is 2 terms: give each its own --factor "
            "(--factor alert-fatigue --factor single-point)",
        ),
        (
            ("--title", TITLE, "--source", SOURCE, "--cause", "config-change"),
            None,
        ),
        (("--title", TITLE, "--source", SOURCE, "--occurred", "2024-13"), "not a real date"),
        # What lint would refuse (IL201, IL503, IL504) is refused here, before a file exists.
        (("--title", "\u200b\u2060", "--source", SOURCE), "the title holds no visible character"),
        (("--title", "학습\x07중단", "--source", SOURCE), "the title holds U+0007, a control"),
        (
            ("--title", TITLE, "--source", SOURCE, "--organization", "\u2060"),
            "an organization holds no visible character",
        ),
        (
            ("--title", TITLE, "--source", SOURCE, "--source-title", "보고서\x1b[31m"),
            "the source title holds U+001B, a control character (character 4)",
        ),
        (("--title", TITLE, "--source", SOURCE, "--occurred", "2999"), "is after today"),
        (
            ("--title", TITLE, "--source", SOURCE, "--organization", "@octocat"),
            "an organization holds @octocat, which would notify someone",
        ),
        (("--title", "@ops-team 에 알린 장애", "--source", SOURCE), "the title holds @ops-team"),
        (
            ("--title", TITLE, "--source", SOURCE, "--source-title", "by @someone"),
            "the source title holds @someone",
        ),
    ]
    for args, message in cases:
        run = new(root, *args)
        if message is None:
            assert run.code == 0, run
            (root / "incidents" / "IL-NEW-nccl-h100.yaml").unlink()
            continue
        assert run.code == 2, (args, run)
        assert message in run.err, (args, run.err)
        assert list((root / "incidents").iterdir()) == []


def test_a_tab_line_break_or_control_character_in_a_one_line_value_is_refused_where_it_is(
    tmp_path,
):
    # The title and each organization were joined on any white space first: a tab, a
    # line break, U+001F became spaces unsaid (`NCCL 학습 멈춤 탭`), where a U+0001 was
    # refused; and a source title's line break was written, for lint to refuse (IL606).
    root = write_library(tmp_path / "lib", {})
    facets = ("--cause", "config-change", "--component", "nccl", "--symptom", "training-stall")
    one_line = "it is one line in the website's lists, the feed and the CSV"
    cases = [
        (
            ("--title", "NCCL 학습 멈춤\t탭"),
            "the title holds a tab (U+0009 CHARACTER TABULATION, character 11): " + one_line,
        ),
        (
            ("--title", "NCCL 학습\n멈춤"),
            "the title holds a line break (U+000A LINE FEED, character 8): " + one_line,
        ),
        (
            ("--title", "NCCL 학습\u2028멈춤"),
            "the title holds a line break (U+2028 LINE SEPARATOR, character 8)",
        ),
        (
            ("--title", "NCCL 학습\x1f멈춤"),
            "the title holds U+001F, a control character (character 8); remove it",
        ),
        (
            ("--title", TITLE, "--organization", "Lab\tlup"),
            "an organization holds a tab (U+0009 CHARACTER TABULATION, character 4)",
        ),
        (
            ("--title", TITLE, "--source-title", "원문\n제목"),
            "the source title holds a line break (U+000A LINE FEED, character 3)",
        ),
    ]
    for args, message in cases:
        run = new(root, *args, "--source", SOURCE, *facets)
        assert (run.code, len(run.err.splitlines())) == (2, 1), (args, run)
        assert message in run.err, (args, run.err)
        assert list((root / "incidents").iterdir()) == []
    # Runs of spaces are still made one, and the ends stripped, as before.
    run = new(root, "--title", "  NCCL  학습 멈춤 ", "--source", SOURCE, *facets)
    assert run.code == 0, run
    written = (root / "incidents" / "IL-NEW-nccl.yaml").read_text(encoding="utf-8")
    assert "\ntitle: NCCL 학습 멈춤  #" in written


def test_a_zero_width_or_bidirectional_control_character_is_refused_where_it_is(tmp_path):
    # A U+202E in the title (or the source URL, an organization, the source title) was
    # written as given: a draft that lint refuses at once (IL606) over what no one sees.
    root = write_library(tmp_path / "lib", {})
    facets = ("--cause", "config-change", "--component", "nccl", "--symptom", "training-stall")
    cases = [
        (
            ("--title", "\u202eNCCL 학습 멈춤", "--source", SOURCE),
            "curator new: 제목에 보이지 않는 글자가 있습니다(1번째 글자, U+202E RIGHT-TO-LEFT "
            "OVERRIDE): 지우세요 (the title holds U+202E RIGHT-TO-LEFT OVERRIDE, which shows "
            "as nothing (character 1): remove it (IL606))",
        ),
        (
            ("--title", TITLE, "--source", "https://example.com/pm\u2066"),
            "the source URL holds U+2066 LEFT-TO-RIGHT ISOLATE, which shows as nothing "
            "(character 23)",
        ),
        (
            ("--title", TITLE, "--source", SOURCE, "--organization", "Lab\u200blup"),
            "an organization holds U+200B ZERO WIDTH SPACE, which shows as nothing (character 4)",
        ),
        (
            ("--title", TITLE, "--source", SOURCE, "--source-title", "원문\u200f제목"),
            "the source title holds U+200F RIGHT-TO-LEFT MARK",
        ),
    ]
    for args, message in cases:
        run = new(root, *args, *facets)
        assert (run.code, len(run.err.splitlines())) == (2, 1), (args, run)
        assert message in run.err, (args, run.err)
        assert list((root / "incidents").iterdir()) == []


def test_in_a_terminal_it_asks_for_what_is_missing(tmp_path):
    root = write_library(tmp_path / "lib", {})
    answers = [
        TITLE,
        "http://example.com/pm",  # refused: asked again
        "https://example.com/pm",
        "NCCL hang postmortem",
        "Example, Other Org",
        "2024-05-07",
        "software-defect",
        "",  # accept the suggested component
        "",  # and symptom
        "scale-only-behaviour",
    ]
    output = _in_terminal(["new", "--root", str(root)], answers)
    assert "sources must be https" in output
    path = root / "incidents" / "IL-NEW-nccl-h100.yaml"
    data = load_bytes(path.read_bytes()).data
    assert data["sources"] == [{"url": "https://example.com/pm", "title": "NCCL hang postmortem"}]
    assert data["organizations"] == ["Example", "Other Org"]
    assert data["occurred"] == "2024-05-07"
    assert data["facets"]["components"] == ["gpu", "nccl"]
    assert data["facets"]["contributing_factors"] == ["scale-only-behaviour"]
    # Each suggestion offered with its evidence.
    assert (
        "제안 suggested: nccl ← 제목의 “NCCL 타임아웃으로” (맞는 이름·별칭: “NCCL”) "
        "(nccl ← “NCCL 타임아웃으로” in the title (matches “NCCL”))"
    ) in output
    assert [f.code for f in lint(Library.at(root))] == ["IL206"]


def test_asked_for_terms_it_says_how_to_give_them_and_where_they_are(tmp_path):
    root = write_library(tmp_path / "lib", {})
    answers = [TITLE, "https://example.com/pm", "", "", ""]
    answers += ["", "software-defect", "", "", ""]  # no cause: refused, asked again
    output = " ".join(_in_terminal(["new", "--root", str(root)], answers).split())
    assert "원인 causes (용어 id, 쉼표로 구분):" in output
    assert (
        "원인 용어가 하나 이상 있어야 합니다(용어는 schema/taxonomy/causes.yaml 에 있습니다) "
        "(causes needs at least one term (the terms are in schema/taxonomy/causes.yaml))"
    ) in output
    data = load_bytes((root / "incidents" / "IL-NEW-nccl-h100.yaml").read_bytes()).data
    assert data["facets"]["causes"] == ["software-defect"]


TAB_IN_ORGANIZATION = (
    "조직에 탭(U+0009)이 있습니다(4번째 글자): 웹사이트 목록·피드·CSV 에서 한 줄이니, 공백을 "
    "써서 한 줄로 쓰세요 (an organization holds a tab (U+0009 CHARACTER TABULATION, "
    "character 4): it is one line in the website's lists, the feed and the CSV; write it on "
    "one line, with spaces)"
)
NOT_A_REAL_DATE = "일어난 때 '2024-13': 없는 날짜입니다 (occurred '2024-13' is not a real date)"
NOT_A_CAUSE = "'nonsense': 원인 용어가 아닙니다 ('nonsense' is not a term of causes)"
NOT_ANSWERED = (
    "curator: 모든 질문에 답하지 않아 아무것도 쓰지 않았습니다 "
    "(not every question was answered; nothing written)\n"
)


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--occurred", "2024-13"], [NOT_A_REAL_DATE]),
        (["--cause", "nonsense"], [NOT_A_CAUSE]),
        (["--organization", "Lab\tlup"], [TAB_IN_ORGANIZATION]),
        (
            ["--cause", "nonsense", "--organization", "Lab\tlup", "--occurred", "2024-13"],
            [TAB_IN_ORGANIZATION, NOT_A_REAL_DATE, NOT_A_CAUSE],
        ),
    ],
)
def test_asking_it_refuses_the_options_given_before_the_first_question(tmp_path, options, said):
    # It asked for the title, the source, its title and the organizations (and the date,
    # and the facets) first, then refused the option, and the answers were lost.
    root = write_library(tmp_path / "lib", {})
    proc = subprocess.run(
        [sys.executable, "-m", "curator", "new", "--root", str(root), "--prompt", *options],
        stdin=subprocess.DEVNULL,  # a question asked would find the input ended
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        check=False,
    )
    assert (proc.returncode, proc.stdout) == (2, "")  # nothing asked
    assert proc.stderr == _said(*said)
    assert list((root / "incidents").iterdir()) == []


def test_in_a_terminal_good_options_lead_to_the_questions_for_the_rest(tmp_path):
    root = write_library(tmp_path / "lib", {})
    options = ["--organization", "Example", "--occurred", "2024-05"]
    options += ["--cause", "software-defect", "--factor", "scale-only-behaviour"]
    answers = [TITLE, "https://example.com/pm", "", "", ""]  # title, source, its title, …
    output = _in_terminal(["new", "--root", str(root), *options], answers)
    assert "제목 title:" in output and "증상 symptoms" in output
    assert "조직 organizations" not in output and "occurred:" not in output  # given
    assert "원인 causes" not in output and "기여 요인" not in output
    data = load_bytes((root / "incidents" / "IL-NEW-nccl-h100.yaml").read_bytes()).data
    assert (data["organizations"], data["occurred"]) == (["Example"], "2024-05")
    assert data["facets"] == {
        "causes": ["software-defect"],
        "components": ["gpu", "nccl"],
        "symptoms": ["training-stall"],
        "contributing_factors": ["scale-only-behaviour"],
    }


def test_an_organization_answered_that_lint_would_refuse_is_asked_again(tmp_path):
    # The answer was taken unchecked and refused once it was given (exit 2), the title
    # and the source answered before it lost.
    root = write_library(tmp_path / "lib", {})
    answers = [TITLE, "https://example.com/pm", "", "Example, @octocat", "Example", ""]
    answers += ["config-change", "", "", ""]
    output = _in_terminal(["new", "--root", str(root)], answers)
    assert "an organization holds @octocat, which would notify someone on GitHub" in output
    data = load_bytes((root / "incidents" / "IL-NEW-nccl-h100.yaml").read_bytes()).data
    assert data["organizations"] == ["Example"]


def _in_terminal(args: list[str], answers: list[str]) -> str:
    """Run curator with a pseudo-terminal as stdin/stdout, typing `answers` as asked."""
    leader, follower = pty.openpty()
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "200"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "curator", *args],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        cwd=REPO,
        env=env,
    )
    os.close(follower)
    seen, asked_at = b"", 0
    pending = list(answers)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            if pending and seen[asked_at:].rstrip().endswith(b":"):
                os.write(leader, pending.pop(0).encode("utf-8") + b"\n")
                asked_at = len(seen)
        elif proc.poll() is not None:
            break
    proc.wait(timeout=10)
    os.close(leader)
    output = seen.decode("utf-8", errors="replace")
    assert "Traceback" not in output, output
    assert proc.returncode == 0, output
    assert pending == [], output
    return output


def test_status_and_factor_options_are_written(tmp_path):
    root = write_library(tmp_path / "lib", {})
    run = new(
        root,
        *("--title", TITLE, "--source", SOURCE, "--status", "published"),
        *("--cause", "software-defect", "--factor", "latent-until-restart"),
    )
    assert run.code == 0, run
    data = load_bytes((root / "incidents" / "IL-NEW-nccl-h100.yaml").read_bytes()).data
    assert data["status"] == "published"
    assert data["facets"]["contributing_factors"] == ["latent-until-restart"]
    refused = new(root, "--title", TITLE, "--source", SOURCE, "--status", "withdrawn")
    assert refused.code == 2 and "withdrawn" in refused.err


def test_a_long_title_makes_a_file_name_the_file_system_takes(tmp_path):
    root = write_library(tmp_path / "lib", {})
    title = "Checkpointing" * 30 + " stalled"  # one 390-letter word
    run = new(root, "--title", title, "--source", SOURCE, "--cause", "config-change")
    assert run.code == 0, run.err
    (draft,) = (root / "incidents").iterdir()
    assert draft.name == f"IL-NEW-{'checkpointing' * 4}checkpoi.yaml"
    assert slug_for("a" * 59 + " b", SOURCE) == "a" * 59  # no `-` left at the end


def test_a_link_pointing_nowhere_is_never_written_through(tmp_path):
    root = write_library(tmp_path / "lib", {})
    (root / "incidents" / "IL-NEW-nccl-h100.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    run = new(root, "--title", TITLE, "--source", SOURCE, "--cause", "config-change")
    assert run.code == 0, run.err
    assert run.out.endswith("/incidents/IL-NEW-nccl-h100-2.yaml\n")
    assert not (tmp_path / "elsewhere.yaml").exists()


@pytest.mark.parametrize(
    "existing", ["IL-NEW-nccl-h100.yml", "IL-NEW-nccl-h100.YAML", "IL-NEW-NCCL-H100.yaml"]
)
def test_a_placeholder_taken_under_another_extension_or_case_is_not_given_again(tmp_path, existing):
    # `IL-NEW-nccl-h100.yml` (a draft saved by an editor that prefers .yml) did not count:
    # the new draft took IL-NEW-nccl-h100 too, and assign-ids refused the library ("is
    # used by IL-NEW-nccl-h100.yaml too"). A case-blind file system holds one of the two.
    root = write_library(tmp_path / "lib", {})
    other = incident(existing.split(".")[0]).replace("postmortems/IL-NEW-", "postmortems/")
    (root / "incidents" / existing).write_text(other, encoding="utf-8")
    run = new(root, "--title", TITLE, "--source", SOURCE, "--cause", "config-change")
    assert run.code == 0, run.err
    assert run.out.endswith("/incidents/IL-NEW-nccl-h100-2.yaml\n")
    assert sorted(p.name for p in (root / "incidents").iterdir()) == sorted(
        [existing, "IL-NEW-nccl-h100-2.yaml"]
    )
    assert "IL-NEW-nccl-h100-2" in plan(Library.at(root)).mapping()  # (not refused)


def test_asking_without_answers_is_a_usage_error_and_writes_nothing(tmp_path):
    root = write_library(tmp_path / "lib", {})
    proc = subprocess.run(
        [sys.executable, "-m", "curator", "new", "--root", str(root), "--prompt"],
        stdin=subprocess.DEVNULL,  # the input ends at the first question
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        check=False,
    )
    assert proc.returncode == 2, proc
    assert proc.stderr == NOT_ANSWERED
    assert proc.stdout.endswith(": \n")  # the question's line is ended, not left open
    assert list((root / "incidents").iterdir()) == []


@pytest.mark.parametrize(
    ("stop", "said"),
    [
        (signal.SIGTERM, "curator: 종료 신호로 중단되었습니다 (terminated)\n"),
        (signal.SIGHUP, "curator: 종료 신호로 중단되었습니다 (terminated)\n"),
        (signal.SIGINT, NOT_ANSWERED),
    ],
)
def test_stopped_at_a_question_it_says_how_and_writes_nothing(tmp_path, stop, said):
    # SIGTERM at a question (a job cancelled, `timeout`) said "not every question was
    # answered", as if the input had ended: click's prompt turns every stop into Abort.
    root = write_library(tmp_path / "lib", {})
    proc = subprocess.Popen(
        [sys.executable, "-m", "curator", "new", "--root", str(root), "--prompt"],
        stdin=subprocess.PIPE,  # open, and nothing typed: it waits at the first question
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    asked = b""
    while b"title:" not in asked:
        chunk = os.read(proc.stdout.fileno(), 4096)
        assert chunk, proc.communicate(timeout=60)
        asked += chunk
    proc.send_signal(stop)
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, err.decode("utf-8")) == (2, said)
    assert (asked + out).decode("utf-8").endswith(": \n")  # the question's line is ended
    assert list((root / "incidents").iterdir()) == []


def test_a_utf8_answer_is_read_as_such_where_standard_input_says_ascii(tmp_path):
    # Read as ASCII (LC_ALL=C without Python's UTF-8 mode), a Korean answer was refused as
    # "is not UTF-8 text (byte 0x..)" and asked again, for ever.
    root = write_library(tmp_path / "lib", {})
    answers = [TITLE.encode("utf-8"), b"https://example.com/pm", b"", b"", b""]
    answers += [b"config-change", b"", b"", b""]
    proc = subprocess.run(
        [sys.executable, "-m", "curator", "new", "--root", str(root), "--prompt"],
        input=b"\n".join(answers) + b"\n",
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
        check=False,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr.decode("utf-8")
    assert b"is not UTF-8 text" not in proc.stdout
    [draft] = (root / "incidents").iterdir()
    assert load_bytes(draft.read_bytes()).data["title"] == TITLE


def test_an_answer_that_is_not_utf8_is_asked_again(tmp_path):
    # It was "curator: internal error: UnicodeDecodeError" (or UnicodeEncodeError once the
    # draft was written, where standard input was read with surrogateescape), exit 2.
    root = write_library(tmp_path / "lib", {})
    answers = [b"\xbd\xc5 " + TITLE.encode("euc-kr"), TITLE.encode("utf-8")]
    answers += [b"https://example.com/pm", b"", b"", b"", b"config-change", b"", b"", b""]
    for errors in ("strict", "surrogateescape"):
        proc = subprocess.run(
            [sys.executable, "-m", "curator", "new", "--root", str(root), "--prompt"],
            input=b"\n".join(answers) + b"\n",
            capture_output=True,
            env={**os.environ, "PYTHONIOENCODING": f"utf-8:{errors}"},
            check=False,
        )
        stdout, stderr = proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")
        assert proc.returncode == 0, stderr
        assert "Error: UTF-8 글자가 아닙니다(바이트 0xBD) ('\\udcbd\\udcc5 NCCL" in stdout
        assert "is not UTF-8 text (byte 0xBD)" in stdout
    drafts = sorted((root / "incidents").iterdir())
    assert [load_bytes(p.read_bytes()).data["title"] for p in drafts] == [TITLE, TITLE]


def test_with_standard_input_closed_nothing_is_asked(tmp_path):
    # Started with `<&-` (a cron job, say), `curator new` failed with "internal error:
    # AttributeError: 'NoneType' object has no attribute 'isatty'", and with --prompt with
    # "RuntimeError: input(): lost sys.stdin".
    root = write_library(tmp_path / "lib", {})
    args = ["new", "--root", str(root), "--title", TITLE, "--source", SOURCE]
    args += ["--cause", "config-change"]
    for prompt in ([], ["--prompt"]):
        run = run_curator(*args, *prompt, closing=(0,))
        if prompt:
            assert run.code == 2, run
            assert run.err == NOT_ANSWERED
        else:
            assert run.code == 0, run
            assert run.out.endswith("/incidents/IL-NEW-nccl-h100.yaml\n")
    assert len(list((root / "incidents").iterdir())) == 1


@pytest.mark.parametrize("mode", [0o555, 0o333], ids=["not-writable", "not-readable"])
def test_a_folder_of_incidents_it_may_not_write_or_read_is_said_in_korean_first(tmp_path, mode):
    # The Korean said the system's English reason, `… 쓸 수 없습니다: Permission denied`.
    root = write_library(tmp_path / "lib", {})
    (root / "incidents").chmod(mode)
    try:
        run = run_curator(
            *("new", "--root", str(root), "--no-prompt", "--title", TITLE, "--source", SOURCE),
            *("--cause", "software-defect"),
            permissions=True,
        )
    finally:
        (root / "incidents").chmod(0o755)
    shown = os.path.relpath(root / "incidents", REPO)
    assert (run.code, run.out, run.err) == (
        2,
        "",
        f"curator: 초안을 {shown} 에 쓸 수 없습니다: 권한이 없습니다 (cannot write the draft "
        f"in {shown}: Permission denied)\n",
    )
    assert os.listdir(root / "incidents") == []


@pytest.mark.parametrize(
    ("code", "korean"),
    [
        ("ENOSPC", ": 디스크에 남은 공간이 없습니다"),
        ("EDQUOT", ": 디스크 사용량 한도(quota)를 넘었습니다"),
        ("ENAMETOOLONG", ": 파일 이름이나 경로가 너무 깁니다"),
        ("EROFS", ": 읽기 전용 파일 시스템입니다"),
        ("EIO", ""),  # (no Korean words for it: the system's follow, in English)
    ],
    ids=["ENOSPC", "EDQUOT", "ENAMETOOLONG", "EROFS", "EIO"],
)
def test_a_draft_the_system_will_not_write_is_one_line_and_exit_2(
    tmp_path, monkeypatch, code, korean
):
    # The Korean said the system's English reason for a full disk, a quota, a name too
    # long (`… 쓸 수 없습니다: No space left on device`), as for any it had no words for.
    import errno

    from click.testing import CliRunner

    import curator.cli
    import curator.new

    number = getattr(errno, code)
    reason = os.strerror(number)

    def refused(path, data, exclusive=False):
        raise OSError(number, reason, str(path))

    monkeypatch.setattr(curator.new, "write_atomic", refused)
    root = write_library(tmp_path / "lib", {})
    args = ["new", "--root", str(root), "--no-prompt", "--title", TITLE, "--source", SOURCE]
    args += [
        "--organization",
        "Example Corp",
        "--occurred",
        "2024-05",
        "--cause",
        "software-defect",
    ]
    result = CliRunner().invoke(curator.cli.main, args)
    assert result.exit_code == 2, result.output
    shown = os.path.relpath(root / "incidents")
    assert result.output == (
        f"curator: 초안을 {shown} 에 쓸 수 없습니다{korean} "
        f"(cannot write the draft in {shown}: {reason})\n"
    )
    assert os.listdir(root / "incidents") == []
