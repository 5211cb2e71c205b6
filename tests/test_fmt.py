"""`curator fmt`: one canonical layout that keeps every value and every comment.

The guarantees are checked on every incident of the bundled library, on incidents that
hypothesis generates in many layouts with comments in many places, and on arbitrary and
corrupted bytes (which must either keep their values or be refused and left untouched).
"""

from __future__ import annotations

import errno
import itertools
import json
import os
import pickle
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO, files_read, run_curator, typed_like_other_tools, write_library
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from curator import file_digests, fmt, lint_cache
from curator.fmt import Formatted, format_file, format_files
from curator.library import Library
from curator.load import MAX_BYTES, Position, load_bytes
from curator.model import DIMENSIONS, INCIDENT_KEYS
from curator.write import atomic, canonical, fastcheck
from curator.write.canonical import SOURCE_KEYS, Refused, Unparsable, render
from curator.write.comments import comments
from curator.write.spaces import strip_line_ends
from incidents import incident

PROPERTY = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
LIBRARY_FILES = [p for p in Library.at(REPO).incident_paths() if p.is_file()]


def data_of(raw: bytes | str) -> Any:
    loaded = load_bytes(raw.encode("utf-8") if isinstance(raw, str) else raw)
    assert loaded.problems == [], loaded.problems
    return loaded.data


def full_line_comments(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip().startswith("#")]


# Generated incidents ---------------------------------------------------------------------

KOREAN = st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3)
ASCII = st.characters(min_codepoint=0x20, max_codepoint=0x7E)
# Not \x85, \u2028, \u2029: YAML 1.1 (libyaml) reads them as line breaks, YAML 1.2 (ruamel)
# does not; a file whose values depend on that is refused (see test_yaml_11_line_breaks...).
AWKWARD = st.sampled_from(list(":#-?[]{},&*!|>'\"%@` \t\u00a0\u3000·…→\u200b😀\x07"))
CHARS = st.one_of(KOREAN, KOREAN, ASCII, ASCII, AWKWARD)
LINE = st.text(CHARS, min_size=1, max_size=50)
MULTILINE = st.builds(
    lambda lines, end: "\n".join(lines) + end,
    st.lists(st.text(CHARS, max_size=40), min_size=2, max_size=5),
    st.sampled_from(["", "\n", "\n", "\n\n"]),
)
TEXT = st.one_of(LINE, MULTILINE)
TERMS = st.sampled_from(
    ["nccl", "gpu", "capacity-limit", "config-change", "training-stall", "a-b", "x9"]
)
IDS = st.one_of(
    st.from_regex(r"IL-[0-9]{4,5}", fullmatch=True),
    st.from_regex(r"IL-NEW-[a-z0-9]{1,6}(-[a-z0-9]{1,4})?", fullmatch=True),
)
DATES = st.dates().map(lambda d: d.isoformat()[: 4 + 3 * (d.day % 3)])
SOURCE = st.fixed_dictionaries(
    {"url": st.just("https://example.com/") | LINE, "title": TEXT},
    optional={"publisher": LINE, "published": DATES, "language": st.sampled_from(["en", "ko"])},
)
INCIDENT = st.fixed_dictionaries(
    {
        "id": IDS,
        "title": LINE,
        "status": st.sampled_from(["published", "draft", "withdrawn"]),
        "facets": st.fixed_dictionaries(
            {d: st.lists(TERMS, max_size=4) for d in DIMENSIONS[:3]},
            optional={"contributing_factors": st.lists(TERMS, max_size=3)},
        ),
        "sources": st.lists(SOURCE, min_size=1, max_size=3),
    },
    optional={
        "occurred": DATES,
        "organizations": st.lists(LINE, max_size=3),
        "symptom": TEXT,
        "trigger": TEXT,
        "detection": st.none() | TEXT,
        "actions": st.lists(TEXT, min_size=1, max_size=3),
        "follow_ups": st.lists(TEXT, max_size=2),
        "lessons": TEXT,
        "related": st.lists(IDS, max_size=3),
        "not_duplicate_of": st.lists(IDS, max_size=2),
        "duplicate_of": IDS,
        "withdrawn_reason": TEXT,
        "x_unknown": st.dictionaries(st.sampled_from(["a", "b"]), LINE, max_size=2),
    },
)


class _LiteralDumper(yaml.SafeDumper):
    """Writes multi-line text as literal blocks where PyYAML can, as people do."""


_LiteralDumper.add_representer(
    str,
    lambda dumper, value: dumper.represent_scalar(
        "tag:yaml.org,2002:str", value, style="|" if "\n" in value else None
    ),
)


@st.composite
def documents(draw: st.DrawFn) -> tuple[dict[str, Any], str, list[str]]:
    """An incident, its text in a random layout, and the comments written into it."""
    data = draw(INCIDENT)
    numbers = itertools.count()
    markers: list[str] = []

    def comment() -> str:
        word = draw(st.sampled_from(["메모", "note", "확인 필요: 출처 2", ""]))
        markers.append(f"# c{next(numbers)}: {word}".rstrip())
        return markers[-1]

    options = {
        "Dumper": draw(st.sampled_from([yaml.SafeDumper, _LiteralDumper])),
        "allow_unicode": draw(st.booleans()),
        "default_flow_style": draw(st.sampled_from([False, None])),
        "width": draw(st.sampled_from([20, 80, 4096])),
        "indent": draw(st.sampled_from([2, 4])),
        "default_style": draw(st.sampled_from([None, None, '"', "'"])),
        "sort_keys": False,
    }
    parts = [comment()] if draw(st.booleans()) else []
    for key in draw(st.permutations(list(data))):
        if draw(st.booleans()):
            parts.append(comment())
        if key == "facets" and options["default_style"] is None:
            parts.append(_facets_text(data["facets"], draw, comment))
            continue
        # A one-key mapping of a scalar would be written in flow style (`{id: x}`) with
        # default_flow_style None; the document's top level is always block style.
        flow = options["default_flow_style"] if isinstance(data[key], list | dict) else False
        style = options["default_style"] if data[key] is not None else None  # not `!!null ""`
        dumped = yaml.dump(
            {key: data[key]}, **{**options, "default_flow_style": flow, "default_style": style}
        )
        # `...` ends a keep-chomped `|+` text at the end of a document; here a key follows.
        lines = [line for line in dumped.rstrip("\n").split("\n") if line != "..."]
        if draw(st.booleans()) and re.fullmatch(r"['\"]?[a-z_]+['\"]?:( [|>][0-9+-]*)?", lines[0]):
            lines[0] += "  " + comment()  # the value follows on the next lines
        parts.append("\n".join(lines))
    text = "\n".join(parts) + "\n"
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    if draw(st.booleans()):
        text = "\ufeff" + text
    return data, text, markers


def _facets_text(facets: dict[str, list[str]], draw: st.DrawFn, comment: Any) -> str:
    """Facets by hand, to put comments beside list items, in three list layouts."""
    lines = ["facets:" + ("  " + comment() if draw(st.booleans()) else "")]
    for dimension in draw(st.permutations(list(facets))):
        terms = facets[dimension]
        style = draw(st.sampled_from(["indented", "flush", "flow"]))
        if style == "flow" or not terms:
            lines.append(f"  {dimension}: [{', '.join(terms)}]")
            continue
        lines.append(f"  {dimension}:")
        indent = "    " if style == "indented" else "  "
        for term in terms:
            lines.append(f"{indent}- {term}" + ("  " + comment() if draw(st.booleans()) else ""))
    return "\n".join(lines)


# Properties -------------------------------------------------------------------------------


@PROPERTY
@given(documents())
def test_generated_incidents_keep_values_and_comments_and_settle(document):
    data, text, markers = document
    raw = text.encode("utf-8")
    assert data_of(raw) == data  # the generator wrote what it meant to
    out = render(raw)
    assert data_of(out) == data
    assert render(out.encode("utf-8")) == out
    for marker in markers:
        assert out.count(marker + "\n") + out.endswith(marker) == 1, marker
    assert_layout(out, data)


def assert_layout(out: str, data: dict[str, Any]) -> None:
    assert out.endswith("\n") and not out.endswith("\n\n")
    assert "\r" not in out and not out.startswith("\ufeff")
    assert not re.search(r"[ \t]$", out, re.MULTILINE), "trailing white space"
    written = data_of(out)
    known = [key for key in INCIDENT_KEYS if key in data]
    assert list(written) == known + [key for key in data if key not in INCIDENT_KEYS]
    assert list(written["facets"]) == [d for d in DIMENSIONS if d in data["facets"]]
    for source in written["sources"]:
        assert list(source) == [key for key in SOURCE_KEYS if key in source]
    for line in out.splitlines():
        item = re.match(r"^( *)- ", line)
        assert item is None or len(item.group(1)) % 2 == 0, line
        assert not re.match(r"^[a-z_]+: \[.+\]", line), f"a non-empty flow list: {line}"
    assert not re.search(r"^- ", out, re.MULTILINE), "a top-level list item is not indented"
    for key in ("title", "symptom", "lessons", "withdrawn_reason"):
        value = data.get(key)
        if not isinstance(value, str) or not re.fullmatch(r"[가-힣a-zA-Z0-9 \n]+", value):
            continue
        if "\n" not in value:
            assert value in out, key  # on one line: never folded
        elif value.strip() and not re.search(r" (\n|$)|^\n|\n\n$", value):
            assert re.search(rf"^{key}: \|", out, re.MULTILINE), key  # a literal block


YAMLISH = st.text(st.sampled_from(list("ab: -#[]{}|>'\"\n\t&*!,?~%@`가\r")), max_size=200)


@PROPERTY
@given(st.binary(max_size=300) | YAMLISH.map(str.encode))
@example(b"\r\r-")  # blank lines first: one fewer at each pass, once
@example(b"\n\n\nid: IL-0001\n")
def test_arbitrary_bytes_are_refused_or_keep_their_values(raw):
    try:
        out = render(raw)
    except Refused:
        return
    assert data_of(out) == load_bytes(raw).data
    assert render(out.encode("utf-8")) == out


MUTATIONS = st.sampled_from(
    ["\t", "&a ", "*a ", "!!python/object:os.system ", ": ", "- ", "[", "'", '"', "#", "|", "\n"]
)


@PROPERTY
@given(documents(), st.data())
def test_corrupted_incidents_are_refused_and_untouched_or_keep_their_values(document, draw):
    _, text, _ = document
    raw = text.encode("utf-8")
    at = draw.draw(st.integers(0, len(raw)))
    junk = draw.draw(MUTATIONS.map(str.encode) | st.binary(min_size=1, max_size=3))
    corrupted = raw[:at] + junk + raw[at:]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "IL-0001.yaml"
        path.write_bytes(corrupted)
        [result] = format_files([path], write=True)
        if result.refused is not None:
            assert path.read_bytes() == corrupted
            assert result.refused.position.line >= 1
        else:
            assert data_of(path.read_bytes()) == load_bytes(corrupted).data


# The bundled library ---------------------------------------------------------------------


@pytest.mark.parametrize("path", LIBRARY_FILES, ids=lambda p: p.name)
def test_every_library_file_keeps_values_and_comments_and_settles(path):
    raw = path.read_bytes()
    out = render(raw)
    assert data_of(out) == data_of(raw)
    assert render(out.encode("utf-8")) == out
    assert sorted(full_line_comments(out)) == sorted(full_line_comments(raw.decode("utf-8")))
    assert sorted(comments(out)) == sorted(comments(raw.decode("utf-8-sig")))


# The layout, by example ------------------------------------------------------------------

MESSY = """\
# 메모: 출처 두 개를 더 찾을 것
title: "GPU 장애: NCCL"   # 제목은 한 줄
id: IL-0001
sources:
- title: Postmortem
  url: https://example.com/pm
status: draft
facets:
  symptoms: [training-stall]
  causes:
  - capacity-limit     # 주 원인
  components:
      - nccl
trigger: "노드를 늘렸다.\\n그 뒤 처리량이 떨어졌다.\\n"
lessons: >
  접힌 글은
  한 줄로 읽힌다.
detection: |-
  한 줄뿐인 감지
"""

CANONICAL = """\
# 메모: 출처 두 개를 더 찾을 것
id: IL-0001
title: "GPU 장애: NCCL"   # 제목은 한 줄
status: draft
facets:
  causes:
    - capacity-limit   # 주 원인
  components:
    - nccl
  symptoms:
    - training-stall
trigger: |
  노드를 늘렸다.
  그 뒤 처리량이 떨어졌다.
detection: 한 줄뿐인 감지
lessons: |
  접힌 글은 한 줄로 읽힌다.
sources:
  - url: https://example.com/pm
    title: Postmortem
"""


def test_a_messy_incident_comes_out_in_the_canonical_layout():
    """Keys reordered with their comments, lists indented under their key and in block
    style, text as literal blocks or plain one-liners, quotes kept. A comment keeps its
    column, so the one after a re-indented item sits two columns closer."""
    assert render(MESSY.encode("utf-8")) == CANONICAL
    assert render(CANONICAL.encode("utf-8")) == CANONICAL


# What the author wrote before `---`, and how the layout writes it (a directive's
# spacing is its own, a comment on the `---` line goes below it, with those above it).
DIRECTIVES = {
    "yaml-1.2": ("%YAML 1.2\n---\n", "%YAML 1.2\n---\n"),
    "yaml-1.1": ("%YAML   1.1\n--- # 문서 시작\n", "%YAML 1.1\n---\n# 문서 시작\n"),
    "tag": (
        "# 머리 주석\n%TAG !t! tag:yaml.org,2002:\n%YAML 1.2\n---\n",
        "%TAG !t! tag:yaml.org,2002:\n%YAML 1.2\n---\n# 머리 주석\n",
    ),
}


@pytest.mark.parametrize("name", sorted(DIRECTIVES))
def test_the_directives_of_a_document_are_kept(name):
    # They were dropped without a word: `%YAML 1.1` makes other readers take `no` for
    # false, and a `%TAG` names what a tag stands for; lint accepts both.
    written, canonical = DIRECTIVES[name]
    expected = canonical + CANONICAL
    assert render((written + MESSY).encode("utf-8")) == expected
    assert render(expected.encode("utf-8")) == expected


def test_the_directives_of_a_document_are_kept_through_a_fix():
    def retitle(tree: Any) -> None:  # an edit, as `curator fix` makes one
        tree["title"] = "새 제목"

    edited = render(("%TAG !t! tag:yaml.org,2002:\n---\n" + MESSY).encode("utf-8"), retitle)
    assert edited == "%TAG !t! tag:yaml.org,2002:\n---\n" + render(MESSY.encode("utf-8"), retitle)


def test_yaml_line_breaks_in_a_value_are_written_as_yaml_s_own_escapes():
    # U+2028, U+2029 and NEL end a line for YAML 1.1 (libyaml, curator's loader) and not
    # for YAML 1.2: written as themselves, they would read as two values here and one
    # there (IL603). `\L`, `\P` and `\N` are the escapes YAML names for them, read alike
    # by both; the text stays double-quoted, where escapes are read, even over lines.
    raw = 'id: IL-0001\ntitle: "가\\u2028나"\nsymptom: "다\\u2029라\\n마\\x85바"\n'
    out = render(raw.encode("utf-8"))
    assert out == 'id: IL-0001\ntitle: "가\\L나"\nsymptom: "다\\P라\\n마\\N바"\n'
    assert (
        data_of(out)
        == data_of(raw)
        == {
            "id": "IL-0001",
            "title": "가\u2028나",
            "symptom": "다\u2029라\n마\u0085바",
        }
    )
    assert render(out.encode("utf-8")) == out


@pytest.mark.parametrize(
    "written",
    [
        "title: 가{}  나\n",  # plain, over two lines to libyaml
        "title: '가{}나'\n",
        "organizations:\n  - 가{}    나\n",
    ],
)
@pytest.mark.parametrize("other_break", ["\u2028", "\u2029"])
def test_a_one_line_value_holding_a_yaml_line_break_is_written_escaped_too(written, other_break):
    # Plain or single-quoted, it was written as itself (`'가<LS>  나'`): a YAML 1.2 reader
    # reads the break and the indentation after it as text, and lint still found it
    # (IL603), also after a `curator fix`.
    raw = f"id: IL-0001\n{written.format(other_break)}".encode()
    out = render(raw)
    escape = {"\u2028": "\\L", "\u2029": "\\P"}[other_break]
    assert f'"가{escape}나"' in out
    assert other_break not in out
    assert data_of(out) == data_of(raw)
    assert render(out.encode("utf-8")) == out


@pytest.mark.parametrize(
    ("written", "at"),
    [
        ("lessons: |\n  가{}  나\n", Position(3, 4)),  # ruamel.yaml stops at 나
        ("lessons: >\n  가{}  나\n", Position(3, 4)),
        ("organizations:\n  - 가{}  - 나\n", Position(3, 6)),  # two items, or one
    ],
)
@pytest.mark.parametrize("other_break", ["\u2028", "\u2029", "\x85"])
def test_a_yaml_line_break_ruamel_cannot_read_is_named_where_lint_names_it(
    written, at, other_break
):
    # The refusal was ruamel.yaml's "expected <block end>, but found '<scalar>'" where it
    # stopped (3:7), or "reads this file differently" at 1:1: nothing said what to change.
    raw = f"id: IL-0001\n{written.format(other_break)}".encode()
    with pytest.raises(Refused) as refused:
        render(raw)
    assert refused.value.position == at
    name = {"\u2028": "U+2028 LINE SEPARATOR", "\u2029": "U+2029 PARAGRAPH SEPARATOR"}
    assert refused.value.message == (
        f"{name.get(other_break, 'U+0085 NEXT LINE')} ends a line for curator (YAML 1.1) but "
        "not for ruamel.yaml, which cannot read the file as curator does (IL603); replace "
        "it with a line feed or a space by hand"
    )


def test_a_yaml_line_break_is_not_named_for_what_ruamel_refuses_without_it():
    # A tab inside a plain value stops ruamel.yaml, line feeds or not: that is said.
    raw = "id: IL-0001\ntitle: 가\u2028  나\nlessons: a\tb\n".encode()
    with pytest.raises(Unparsable) as refused:
        render(raw)
    assert refused.value.position == Position(3, 11)


def test_long_korean_lines_are_never_folded_and_never_escaped():
    title = "스토리지 메타데이터 서버가 포화되어 학습 처리량이 떨어졌다 " * 20
    raw = incident(
        "IL-0001", ("공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다", title.strip())
    )
    escaped = raw.replace("status: published", 'status: "\\uD55C\\uAD6D"')
    out = render(escaped.encode("utf-8"))
    assert f"title: {title.strip()}\n" in out
    assert 'status: "한국"' in out and "\\u" not in out


def test_a_tab_in_a_quoted_value_stays_as_its_author_wrote_it():
    # Bug: ruamel.yaml writes any text holding a tab double-quoted, the tab as `\t`: fmt
    # wrote '공유<TAB>스토리지의 …' as "공유\t스토리지의 …" and "Ex<TAB>ample" as
    # "Ex\tample", unsaid (`would reformat … (layout)`), and lint's IL601 went with them.
    text = incident(
        "IL-0001",
        ("title: 공유 스토리지의", "title: '공유\t스토리지의"),
        ("떨어졌다\nstatus", "떨어졌다\t'\nstatus"),
        ("  - Example\n", '  - "Ex\tample"\n'),
        ("title: Storage postmortem", 'title: "Storage\\tpostmortem"'),  # an escape stays one
    )
    assert render(text.encode("utf-8")) == text
    spaced = text.replace("2024-05", "2024-05 ")
    assert render(spaced.encode("utf-8")) == text
    assert data_of(text)["title"] == "공유\t스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다\t"
    assert data_of(text)["organizations"] == ["Ex\tample"]
    assert data_of(text)["sources"][0]["title"] == "Storage\tpostmortem"


@pytest.mark.parametrize(
    ("title", "written"),
    [
        ('"공유\\t스토리지\t메타데이터"', None),
        (
            '"공유\t스토리지\\x09메타데이터\\u0009포화\\\t학습"',
            '"공유\t스토리지\\t메타데이터\\t포화\\t학습"',
        ),
        ('!!str "공유\\t스토리지\t메타데이터"', '"공유\\t스토리지\t메타데이터"'),
        # Folded lines: the tabs written as themselves around the line break are not text.
        ('"공유\\t스토리지\t메타\t\n  \t데이터"', '"공유\\t스토리지\t메타 데이터"'),
        ('"공유\\t스토리지\t메타\t\\\n  \t데이터"', '"공유\\t스토리지\t메타\t데이터"'),
    ],
    ids=["one of each", "every escape", "tagged", "folded", "escaped line break"],
)
def test_each_tab_of_a_double_quoted_value_stays_as_its_author_wrote_it(title, written):
    # Bug: `"a\tb<TAB>c"` came out `"a<TAB>b<TAB>c"`: one tab written as itself made
    # ruamel.yaml write every tab of the value so, the author's escapes lost, unsaid.
    original = "title: 공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다"
    text = incident("IL-0001", (original, f"title: {title}"))
    out = render(text.encode("utf-8"))
    assert out == incident("IL-0001", (original, f"title: {written or title}"))
    assert data_of(out) == data_of(text)
    assert render(out.encode("utf-8")) == out


def test_text_of_many_lines_with_a_tab_written_as_an_escape_stays_double_quoted():
    # Bug: the layout wrote `"a\tb\nc"` as a `|` block, where the tab is itself: the
    # author's escape was gone, and lint's IL601 (not fixable: the value's) came with it.
    text = incident(
        "IL-0001",
        ("symptom: |\n  학습 처리량이 떨어졌다.", 'symptom: "학습\\t처리량이\\n떨어졌다."'),
    )
    out = render(text.encode("utf-8"))
    assert out == text
    assert data_of(out)["symptom"] == "학습\t처리량이\n떨어졌다."
    written = text.replace('"학습\\t', '"학습\t')  # the tab written as itself: a block holds it
    assert "symptom: |-\n  학습\t처리량이\n  떨어졌다.\n" in render(written.encode("utf-8"))


TITLE = ("title: 공유 스토리지의", "떨어졌다\nstatus")
KEY = "    title: Storage postmortem\n"  # (the last; a key it does not know goes after it)


@pytest.mark.parametrize(
    ("written", "formatted"),
    [
        # A quoted key, which the layout writes plain where it can: stays as it is.
        (((KEY, f"{KEY}    '비고\t내부': 메모\n"),), None),
        (((KEY, f'{KEY}    "비고\t내부": 메모\n'),), None),
        (
            (((KEY, f"{KEY}    ? !!str '비고\t내부'\n    : 메모\n"),)),
            (((KEY, f"{KEY}    '비고\t내부': 메모\n"),)),
        ),
        # A `|-` one-liner, which the layout writes plain where it can.
        (
            ((TITLE[0], "title: |-\n  공유\t스토리지의"),),
            ((TITLE[0], "title: '공유\t스토리지의"), (TITLE[1], "떨어졌다'\nstatus")),
        ),
        # A value tagged `!!str`, whose tag the layout drops.
        (
            ((TITLE[0], 'title: !!str "공유\t스토리지의'), (TITLE[1], '떨어졌다"\nstatus')),
            ((TITLE[0], 'title: "공유\t스토리지의'), (TITLE[1], '떨어졌다"\nstatus')),
        ),
    ],
)
def test_a_tab_its_author_wrote_stays_where_the_layout_rewrites_the_text(written, formatted):
    # Bug: the key written plain, the `|-` block plain, the tag dropped, each was a new
    # string, which ruamel.yaml wrote double-quoted with the tab as `\t`, unsaid.
    text = incident("IL-0001", *written)
    out = render(text.encode("utf-8"))
    assert out == (text if formatted is None else incident("IL-0001", *formatted))
    assert data_of(out) == data_of(text)
    assert "\\t" not in out and render(out.encode("utf-8")) == out


# Inputs hypothesis once found wrong, kept as plain examples.
TRICKY = [
    "title: x\nwithdrawn_reason: \xa0\n",  # a value that str.rstrip() would eat
    'sources:\n- url: x\n  title: "\\t가\\n"\n',  # a tab opening a line: no literal
    "id: x  # 메모\r\ntitle: y\r\n",  # CRLF inside comments
    "withdrawn_reason: |+  # 끝\n  text\n\n",  # keep-chomped text at the end, with comment
    "lessons: >-  # 접힘\n  one\n  line\n",  # a header comment on a one-line folded text
    "trigger: '\n\n  '\n",  # only a line break
]


@pytest.mark.parametrize("text", TRICKY)
def test_tricky_inputs_keep_their_values_and_comments(text):
    out = render(text.encode("utf-8"))
    assert data_of(out) == data_of(text)
    assert sorted(comments(out)) == sorted(comments(text.replace("\r\n", "\n")))
    assert render(out.encode("utf-8")) == out


def test_no_line_ends_in_white_space_but_in_block_text(tmp_path):
    """ruamel writes a null item as `- ` and keeps the spaces after a comment: the linter
    flags them (IL602) and fix could not remove them for good. The spaces at the end of a
    line of a `|` block are text (this one keeps its style for its header comment)."""
    text = (
        "id: IL-0001   # 메모   \n"
        "lessons: |  # 머리\t \n  끝에 공백   \n  다음\n"
        "related:\n  -\n  - IL-0002\n"
        "# 끝  \n"
    )
    out = render(text.encode("utf-8"))
    assert out == (
        "id: IL-0001   # 메모\n"
        "lessons: |  # 머리\n  끝에 공백   \n  다음\n"
        "related:\n  -\n  - IL-0002\n"
        "# 끝\n"
    )
    assert data_of(out) == data_of(text)
    assert render(out.encode("utf-8")) == out
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    assert run_curator("fmt", "--root", str(root)).code == 0
    lint = run_curator("lint", "--root", str(root), "--format", "json")
    found = [(f["line"], f["code"], f["fixable"]) for f in json.loads(lint.out)]
    assert [f for f in found if f[1] in ("IL601", "IL602")] == [
        (3, "IL602", False)  # in the block: the value, which fix leaves to its author
    ]


def test_a_block_with_a_line_ending_in_white_space_stays_a_block(tmp_path):
    """A `|` (or `>`) block with a space at the end of a line was written double-quoted on
    one line (`symptom: "…다. \\n둘째…"`) by fmt, and by fix when it fixed anything else
    in the file: the value was kept, the author's block was gone. The space is the
    author's text (IL602, not fixable) and stays, in the block."""
    block = "symptom: |\n  학습 처리량이 떨어졌다. \n  둘째 줄이다.\t\n"
    text = incident("IL-0001", ("symptom: |\n  학습 처리량이 떨어졌다.\n", block))
    assert render(text.encode("utf-8")) == text
    folded = text.replace(block, "symptom: >\n  학습 처리량이 떨어졌다. \n\n  둘째 줄이다.\n")
    assert render(folded.encode("utf-8")) == text.replace("\t\n", "\n")
    # A quoted value stays quoted: written as a block, its spaces would be hidden.
    quoted = text.replace(block, 'symptom: "가 \\n나\\n"\n')
    assert render(quoted.encode("utf-8")) == quoted
    # fix, sorting the components, keeps the block too.
    unsorted = text.replace("    - nccl\n", "    - nccl\n    - gpu\n")
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": unsorted})
    path = root / "incidents" / "IL-0001.yaml"
    run = run_curator("fix", "--root", str(root))
    assert "IL304" in run.out and "IL602 not fixed" in run.err, run
    sorted_text = text.replace("    - nccl\n", "    - gpu\n    - nccl\n")
    assert path.read_text(encoding="utf-8") == sorted_text
    assert run_curator("fmt", "--root", str(root)).code == 0
    assert block in path.read_text(encoding="utf-8")


@pytest.mark.parametrize("spaces", ["  ", " \t", "\t\t", "   "])
def test_a_block_with_a_line_ending_in_more_than_one_white_space_stays_a_block(spaces):
    # Found by fuzzing: one space or tab kept the block, two wrote it double-quoted on one
    # line (`symptom: "…떨어졌다.  \n"`), as before the fix above.
    block = f"symptom: |\n  학습 처리량이 떨어졌다.{spaces}\n  둘째 줄이다.\n"
    text = incident("IL-0001", ("symptom: |\n  학습 처리량이 떨어졌다.\n", block))
    assert render(text.encode("utf-8")) == text
    assert fmt.canonical_form(text.encode("utf-8")) is None


@pytest.mark.parametrize(
    ("text", "stripped"),
    [
        ("a:\n  - |\n    x \n  - \n", "a:\n  - |\n    x \n  -\n"),
        ("a: >\n  x \n\n   \n  y\t\nb: c  \n", "a: >\n  x \n\n   \n  y\t\nb: c\n"),
        ("a: |  \n  x  ", "a: |\n  x  "),  # the text ends the file, on its last line
        ("a: x  \n@: y\n", "a: x  \n@: y\n"),  # the scanner refuses it: left as it is
    ],
)
def test_line_end_space_is_stripped_outside_block_text_only(text, stripped):
    assert strip_line_ends(text) == stripped


def test_comments_are_found_where_yaml_has_them():
    text = (
        'a: "# not a comment"  # one\n# 둘\n'
        "b: | # three\n  # not a comment either\n"
        "c: [x, # four\n  y]\n"
    )
    assert comments(text) == ["# one", "# 둘", "# three", "# four"]


def test_the_text_tag_is_dropped_and_any_other_refused_where_lint_refuses_it():
    assert render(b"title: !!str 2023\nid: IL-0001\n") == "id: IL-0001\ntitle: '2023'\n"
    # (`!`: PyYAML and ruamel.yaml read `! 2023` as a number, the loader as text.)
    for tag in ("!!bool", "!!int", "!"):
        with pytest.raises(Refused) as refused:
            render(f"id: IL-0001\ntitle: {tag} 2023\n".encode())
        assert type(refused.value) is Refused  # the loader's, not ruamel.yaml's (Unparsable)
        assert refused.value.position == Position(2, 8)
        assert refused.value.message.startswith(f"cannot be read (tag {tag} is not allowed;")


@pytest.mark.parametrize(
    ("tag", "shown"),
    [("!!bool", "!!bool"), ("!!int", "!!int"), ("!<tag:yaml.org,2002:int>", "!!int")],
)
def test_a_tagged_value_is_refused_by_lint_fmt_and_fix_at_the_tag_in_lint_s_words(
    tmp_path, tag, shown
):
    """lint read `title: !!int 장애` as text and passed it; fmt and fix refused it at 1:1,
    with ruamel.yaml's words ("invalid literal for int() …"), or fix said "nothing to fix"."""
    text = incident("IL-0001", ("title: ", f"title: {tag} "))
    messy = MESSY.replace("id: IL-0001", "id: IL-0002")
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text, "IL-0002.yaml": messy})
    why = (
        f"tag {shown} is not allowed; incidents hold plain values only: "
        "write the value without the tag"
    )
    lint = run_curator("lint", "--root", str(root), "--no-cache", cwd=root)
    assert lint.code == 1, lint
    of_the_file = [line for line in lint.out.splitlines() if line.startswith("incidents/IL-0001")]
    assert of_the_file == [f"incidents/IL-0001.yaml:2:8: IL105 [error] {why}"], lint
    for command, verb in (("fmt", "format"), ("fix", "fix")):
        run = run_curator(command, "--check", "--root", str(root), cwd=root)
        assert run.code == 1, run
        refused = (
            f"incidents/IL-0001.yaml:2:8: cannot {verb}: cannot be read ({why}); fix it by hand"
        )
        assert run.err.splitlines()[0] == refused, run
    assert run_curator("fmt", "--check", "--root", str(root), cwd=root).out == (
        "would reformat incidents/IL-0002.yaml (layout)\n"  # (the run went on)
    )
    assert (root / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8") == text


def test_a_key_tagged_as_text_is_ordered_and_written_as_the_plain_key():
    # ruamel.yaml kept `!!str id` a tagged scalar: neither ordered as `id` nor untagged.
    raw = b"title: x\n!!str id: IL-0001\n!!str 2024: y\n"
    assert render(raw) == "id: IL-0001\ntitle: x\n'2024': y\n"


def test_a_refusal_crosses_from_a_worker_process_as_the_same_kind():
    # `fix` tells "ruamel.yaml cannot parse it" (Unparsable) from other refusals by class.
    for refused in (Refused(Position(2, 9), "why"), Unparsable(Position(3, 1), "cannot")):
        again = pickle.loads(pickle.dumps(refused))
        assert type(again) is type(refused)
        assert (again.position, again.message) == (refused.position, refused.message)
    with pytest.raises(Unparsable):
        render(b"title: a\tb\n")


# Refusals leave the file alone ------------------------------------------------------------

UNREADABLE = {
    "tab-indent": b"id: IL-0001\nfacets:\n\tcauses: []\n",
    "alias": b"id: &x IL-0001\ntitle: *x\n",
    "python-tag": b"id: !!python/object:os.system IL-0001\n",
    "duplicate-key": b"id: IL-0001\nid: IL-0002\n",
    "two-documents": b"id: IL-0001\n---\nid: IL-0002\n",
    "not-utf8": "id: IL-0001\ntitle: 장애\n".encode("euc-kr"),
    "syntax": b"id: [IL-0001\n",
    "empty": b"# only a comment\n",
    "too-large": b"id: IL-0001\ntitle: " + b"x" * MAX_BYTES + b"\n",
}


@pytest.mark.parametrize("name", sorted(UNREADABLE))
def test_an_unreadable_file_is_reported_and_left_byte_for_byte(tmp_path, name):
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": UNREADABLE[name]})
    path = root / "incidents" / "IL-0001.yaml"
    for flags in ([], ["--check"], ["--diff"]):
        run = run_curator("fmt", *flags, "--root", str(root))
        assert run.code == 1, run
        assert re.search(r"IL-0001\.yaml:\d+:\d+: cannot format: cannot be read", run.err), run.err
        assert path.read_bytes() == UNREADABLE[name]


NOT_A_MAPPING = {
    "literal-block": ("|\n  그냥 글  \n", "plain text"),
    "folded-block": ("--- >-\n  접힌 글\n", "plain text"),
    "list": ("- a\n- b  \n", "a list"),
    "flow-list": ("[a, b]\n", "a list"),
    "plain": ("그냥 글  \n", "plain text"),
    "null": ("~\n", "plain text"),
}


@pytest.mark.parametrize("command", ["fmt", "fix"])
@pytest.mark.parametrize("name", sorted(NOT_A_MAPPING))
def test_a_document_that_is_no_mapping_is_said_so_and_left_byte_for_byte(tmp_path, name, command):
    # fmt rewrote a list or a plain text (indented, `...` added, `~` as `null`), and a
    # block scalar was "would not hold the same values; please report": none is an
    # incident, and lint says so (IL201).
    text, kind = NOT_A_MAPPING[name]
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    path = root / "incidents" / "IL-0001.yaml"
    verb = "format" if command == "fmt" else "fix"
    for flags in ([], ["--check"], ["--diff"]):
        run = run_curator(command, *flags, "--root", str(root), cwd=root)
        assert run.code == 1, run
        assert run.out == ""
        assert re.match(
            rf"incidents/IL-0001\.yaml:1:\d+: cannot {verb}: an incident is a mapping of keys "
            rf"to values, not {kind}; fix it by hand$",
            run.err.splitlines()[0],
        ), run.err
        assert path.read_text(encoding="utf-8") == text


def test_a_tab_as_indentation_is_left_to_curator_fix_not_to_the_hand(tmp_path):
    tabbed = b"id: IL-0001\ntitle: \xec\x9e\xa5\xec\x95\xa0\norganizations:\n\t- A\n"
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": tabbed})
    run = run_curator("fmt", "--root", str(root))
    assert run.code == 1, run
    assert "IL-0001.yaml:4:1: cannot format: cannot be read (YAML syntax error: " in run.err
    assert run.err.splitlines()[0].endswith("; `curator fix` replaces the tab (IL601)"), run.err
    assert "by hand" not in run.err
    assert run_curator("fix", "--root", str(root), str(root / "incidents")).code == 0
    assert run_curator("fmt", "--root", str(root)).code == 0


@pytest.mark.parametrize(
    ("text", "told"),
    [
        # Found by fuzzing: fmt read the place off the loader, whose lines end at an LF
        # only, and said `1:42`, where lint and fix say `4:5`.
        (
            "id: IL-0001\ntitle: 장애\norganizations:\n  - &a A\n",
            "4:5: cannot format: cannot be read (anchor &a",
        ),
        # ... and so lost the hint that `curator fix` replaces the tab, looked for on line 4
        # of a text of one line.
        (
            "id: IL-0001\ntitle: 장애\norganizations:\n\t- A\n",
            "4:1: cannot format: cannot be read (YAML syntax error: ",
        ),
    ],
)
def test_a_file_of_lone_cr_line_ends_is_refused_where_lint_says(tmp_path, text, told):
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text.replace("\n", "\r")})
    run = run_curator("fmt", "--root", str(root))
    assert run.code == 1, run
    assert f"IL-0001.yaml:{told}" in run.err, run.err
    lint = run_curator("lint", "--root", str(root), "-q")
    place = ":".join(told.split(":")[:2])
    assert f"IL-0001.yaml:{place}: IL" in lint.out, lint  # (IL105, IL601)
    if "\t" in text:
        assert run.err.splitlines()[0].endswith("; `curator fix` replaces the tab (IL601)")


def test_a_tab_that_curator_fix_cannot_mend_is_left_to_the_hand(tmp_path):
    # Two spaces for the tab leave `title` indented past the item's other keys: fix
    # refuses the file as well, and fmt sent people to it all the same.
    tabbed = "id: IL-0001\nsources:\n  - url: x\n\t    title: y\n"
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": tabbed})
    run = run_curator("fmt", "--root", str(root))
    assert run.code == 1, run
    assert "IL-0001.yaml:4:1: cannot format: cannot be read (YAML syntax error: " in run.err
    assert run.err.splitlines()[0].endswith("; fix it by hand"), run.err
    fix = run_curator("fix", "--root", str(root))
    assert fix.code == 1 and "IL-0001.yaml:4:1: cannot fix: a tab where YAML takes" in fix.err, fix
    assert "do not mend it" in fix.err


@pytest.mark.parametrize(
    ("edit", "told", "fixed"),
    [
        # A U+FEFF inside a word: fmt said "remove it", where fix removes it (IL606).
        (
            ("title: 공유", "title: 공\ufeff유"),
            "2:9: cannot format: holds U+FEFF, a byte-order mark; `curator fix` removes it (IL606)",
            True,
        ),
        # One whose removal would make `Example: Co` a mapping: fix leaves it, as lint says.
        (
            ("  - Example\n", "  - Example:\ufeff Co\n"),
            "6:13: cannot format: holds U+FEFF, a byte-order mark, which `curator fix` leaves: "
            "without it the plain value would read otherwise; remove it and put the value in "
            'double quotes by hand ("Example: Co")',
            False,
        ),
        # One that makes `status:` no key, which fix removes: fmt said "fix it by hand".
        (
            ("status: published", "status:\ufeff published"),
            "3:1: cannot format: cannot be read (YAML syntax error: could not find expected "
            "':': this line is not `key: value`; put ': ' after its key, or, if it goes on "
            "with the text above, write that text as a `|` block (`key: |`, its lines indented "
            "below)); `curator fix` mends it",
            True,
        ),
        # A tab in a plain value, which fix leaves: fmt named ruamel.yaml's error ("found
        # character '\t' that cannot start any token") and no way to mend it.
        (
            ("title: 공유 ", "title: 공유\t"),
            "2:10: cannot format: the tab is part of a plain value, which ruamel.yaml cannot "
            "read; fix it by hand: use spaces, or put the value in double quotes and write \\t "
            "for the tab",
            False,
        ),
    ],
)
def test_each_refusal_of_fmt_says_whether_curator_fix_mends_it(tmp_path, edit, told, fixed):
    text = incident("IL-0001", edit)
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    run = run_curator("fmt", cwd=root)
    assert run.code == 1, run
    assert run.err.splitlines()[0] == f"incidents/IL-0001.yaml:{told}", run.err
    fix = run_curator("fix", cwd=root)
    assert fix.code == (0 if fixed else 1), fix
    assert run_curator("fmt", cwd=root).code == (0 if fixed else 1)


@pytest.mark.parametrize(
    ("edit", "lead", "path"),
    [
        (("  - Example\n", "  - Example:\ufeff Co\n"), "  - ", ("organizations", 0)),  # a mapping
        (("title: 공유", "title: 공유:\ufeff 스토리지"), "title: ", ("title",)),  # a syntax error
    ],
)
def test_a_mark_whose_removal_changes_a_plain_value_is_told_to_quote_it(tmp_path, edit, lead, path):
    # fmt and fix said "remove it by hand" of a U+FEFF after `Example:` in a plain list
    # item: removed, it makes the item the mapping `Example: Co` (and `title` unreadable).
    # They now say to quote the value too, and lint's IL606 as they do (it said "remove
    # it"), and the file edited so is one lint accepts.
    text = incident("IL-0001", edit)
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text})
    advice = re.compile(r"; remove it and put the value in double quotes by hand \((.*)\)$")
    said = []
    for command, verb in (("fmt", "format"), ("fix", "fix")):
        run = run_curator(command, "--check", cwd=root)
        assert run.code == 1, run
        first = run.err.splitlines()[0]
        assert f": cannot {verb}: holds U+FEFF, a byte-order mark, which `curator fix` " in first
        found = advice.search(first)
        assert found is not None, first
        said.append(found[1])
    assert said[0] == said[1]
    linted = run_curator("lint", cwd=root)
    il606 = [line for line in linted.out.splitlines() if " IL606 " in line]
    assert len(il606) == 1, linted
    found = advice.search(il606[0])
    assert found is not None and found[1] == said[0], il606
    marked = next(line for line in text.split("\n") if "\ufeff" in line)
    edited = text.replace(marked, lead + said[0])
    (root / "incidents" / "IL-0001.yaml").write_text(edited, encoding="utf-8")
    lint = run_curator("lint", cwd=root)
    assert lint.code == 0, lint
    value: Any = data_of(edited)
    for part in path:
        value = value[part]
    assert value == marked.removeprefix(lead).replace("\ufeff", "")


def test_a_comment_ruamel_has_nowhere_to_keep_is_told_where_it_is_and_the_run_goes_on(tmp_path):
    # Found by fuzzing (fuzz/fuzz_fix.py): ruamel.yaml raises NotImplementedError ("overlap
    # in comment"), no YAMLError, for a comment after a key whose value starts on the next
    # line, then a blank line. fmt and fix stopped at it: "curator: internal error", exit
    # 2, no other file done.
    title = "title: 공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다\n"
    apart = "title: # 원제는 영어\n  공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다\n\n"
    # (A trailing space for fix to remove: with nothing to fix, it reads no further.)
    text = incident("IL-0001", (title, apart), ("status: published\n", "status: published \n"))
    other = incident("IL-0002") + "\n\n"  # (blank lines at the end: fmt's to remove)
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": text, "IL-0002.yaml": other})
    told = (
        "incidents/IL-0001.yaml:2:8: cannot {}: ruamel.yaml cannot keep this comment where "
        "it is (as after a key whose value starts on the next line); move it to a line of "
        "its own"
    )
    formatted = run_curator("fmt", cwd=root)
    assert formatted.code == 1, formatted
    assert formatted.err.splitlines()[0] == told.format("format"), formatted.err
    assert (root / "incidents" / "IL-0002.yaml").read_text(encoding="utf-8") == incident("IL-0002")
    fixed = run_curator("fix", cwd=root)
    assert fixed.code == 1, fixed
    assert told.format("fix") in fixed.err.splitlines(), fixed.err
    assert (root / "incidents" / "IL-0001.yaml").read_text(encoding="utf-8") == text


# The command ------------------------------------------------------------------------------


@pytest.fixture
def messy_library(tmp_path):
    return write_library(
        tmp_path / "lib",
        {"IL-0001.yaml": MESSY, "IL-0002.yaml": incident("IL-0002")},
    )


def test_check_lists_what_would_change_and_changes_nothing(messy_library):
    path = messy_library / "incidents" / "IL-0001.yaml"
    run = run_curator("fmt", "--check", "--root", str(messy_library))
    assert run.code == 1
    assert run.out.splitlines() == [f"would reformat {os.path.relpath(path, REPO)} (layout)"]
    assert "1 file would be reformatted, 1 unchanged" in run.err
    assert path.read_text(encoding="utf-8") == MESSY


CHANGES_SAID = {
    "crlf": ("CRLF line endings → LF", lambda text: text.replace("\n", "\r\n")),
    "bom": (
        "byte-order mark removed, CRLF line endings → LF",
        lambda text: "\ufeff" + text.replace("\n", "\r\n"),
    ),
    "cr": ("CR line endings → LF", lambda text: text.replace("\n", "\r")),
    "unended": ("newline added at the end", lambda text: text.rstrip("\n")),
    "blank": ("blank lines at the end removed", lambda text: text + "\n\n"),
    "blanks": ("trailing spaces removed", lambda text: text.replace("\n", "  \n", 4)),
    "keys": (
        "key order",
        lambda text: text.replace(
            "title: 공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다\nstatus: published\n",
            "status: published\ntitle: 공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다\n",
        ),
    ),
    "spaced": ("layout", lambda text: text.replace("status: ", "status:   ")),
}


@pytest.mark.parametrize("kind", sorted(CHANGES_SAID))
@pytest.mark.parametrize("check", [True, False])
def test_each_file_to_reformat_is_told_what_changes(tmp_path, kind, check):
    # "would reformat" alone: a contributor whose editor wrote CRLF could not tell what.
    said, spoilt = CHANGES_SAID[kind]
    canonical = incident("IL-0001")
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": spoilt(canonical).encode("utf-8")})
    run = run_curator("fmt", *(["--check"] if check else []), cwd=root)
    assert run.code == (1 if check else 0), run
    verb = "would reformat" if check else "reformatted"
    assert run.out == f"{verb} {Path('incidents', 'IL-0001.yaml')} ({said})\n"
    written = (root / "incidents" / "IL-0001.yaml").read_bytes()
    assert written == (spoilt(canonical) if check else canonical).encode("utf-8")


def test_quiet_check_lists_the_files_and_nothing_else(messy_library):
    path = messy_library / "incidents" / "IL-0001.yaml"
    run = run_curator("fmt", "--check", "--quiet", "--root", str(messy_library))
    assert (run.code, run.err) == (1, "")
    assert run.out.splitlines() == [f"would reformat {os.path.relpath(path, REPO)} (layout)"]


def test_diff_prints_a_unified_diff_and_changes_nothing(messy_library):
    path = messy_library / "incidents" / "IL-0001.yaml"
    run = run_curator("fmt", "--diff", str(path), "--root", str(messy_library))
    assert run.code == 1
    assert run.out.startswith("--- a/") and "\n+++ b/" in run.out
    assert "\n-  symptoms: [training-stall]\n" in run.out
    assert "\n+    - training-stall\n" in run.out
    removed = [line[1:] for line in run.out.splitlines()[2:] if line.startswith("-")]
    added = [line[1:] for line in run.out.splitlines()[2:] if line.startswith("+")]
    assert set(removed) <= set(MESSY.splitlines()) and set(added) <= set(CANONICAL.splitlines())
    assert path.read_text(encoding="utf-8") == MESSY


# Files whose lines git and `str.splitlines` count differently: lone CRs (a line to
# Python, no line end to git), and a last line without a line break.
UNEVEN_LINE_ENDS = {
    "IL-0001.yaml": incident("IL-0001").replace("\n", "\r"),
    "IL-0002.yaml": incident("IL-0002", ("occurred: 2024-05", "occurred: 2024-05  ")).rstrip(),
    "IL-0003.yaml": incident("IL-0003", ("status: published\n", "")) + "status: published",
}


@pytest.mark.parametrize("command", ["fmt", "fix"])
def test_diff_is_a_patch_git_apply_makes_the_run_s_files_from(tmp_path, command):
    # Its lines were split by `str.splitlines` and a last line without a line break was
    # given one unmarked: `git apply` refused the patch of each of these files.
    applied = write_library(tmp_path / "applied", UNEVEN_LINE_ENDS)
    written = write_library(tmp_path / "written", UNEVEN_LINE_ENDS)
    patch = subprocess.run(
        [sys.executable, "-m", "curator", command, "--diff"], cwd=applied, capture_output=True
    )
    assert patch.returncode == 1, patch
    assert b"\n\\ No newline at end of file\n" in patch.stdout
    git = subprocess.run(["git", "apply"], input=patch.stdout, cwd=applied, capture_output=True)
    assert git.returncode == 0, git.stderr
    run = run_curator(command, cwd=written)
    assert run.code == 0, run
    changed = set()
    for name, before in UNEVEN_LINE_ENDS.items():
        after = (written / "incidents" / name).read_bytes()
        assert (applied / "incidents" / name).read_bytes() == after, name
        changed |= {name} if after != before.encode("utf-8") else set()
    assert changed == (
        {"IL-0001.yaml", "IL-0002.yaml"} | ({"IL-0003.yaml"} if command == "fmt" else set())
    )


def test_fmt_writes_the_canonical_layout_then_check_passes(messy_library):
    path = messy_library / "incidents" / "IL-0001.yaml"
    path.chmod(0o640)
    run = run_curator("fmt", "--root", str(messy_library))
    assert run.code == 0, run
    assert run.out.splitlines() == [f"reformatted {os.path.relpath(path, REPO)} (layout)"]
    assert path.read_text(encoding="utf-8") == CANONICAL
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in path.parent.iterdir()) == ["IL-0001.yaml", "IL-0002.yaml"]
    again = run_curator("fmt", "--check", "--root", str(messy_library))
    assert again.code == 0 and again.out == ""
    assert "0 files would be reformatted, 2 unchanged" in again.err


# Another user's and another group's (the ids no account here has): run as root, as in a
# container or with sudo, a rewrite gave the file to root; only root may give it back.
OTHER_OWNER = (4321, 8765)


@pytest.mark.parametrize("command", ["fmt", "fix"])
def test_a_rewritten_file_keeps_its_owner_and_group(messy_library, command):
    assert os.geteuid() == 0, "giving a file to another user takes root"
    path = messy_library / "incidents" / "IL-0002.yaml"
    before = incident("IL-0002").replace("status: published", "status: published  ")
    path.write_text(before, encoding="utf-8")  # (trailing blanks: each command removes them)
    os.chown(path, *OTHER_OWNER)
    path.chmod(0o640)
    run = run_curator(command, "--root", str(messy_library), str(path))
    assert run.code == 0, run
    assert path.read_text(encoding="utf-8") == incident("IL-0002")
    after = path.stat()
    assert (after.st_uid, after.st_gid, stat.S_IMODE(after.st_mode)) == (*OTHER_OWNER, 0o640)


def test_a_file_whose_owner_cannot_be_kept_is_rewritten_all_the_same(messy_library, monkeypatch):
    def refused(fd: int, uid: int, gid: int) -> None:
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(atomic.os, "fchown", refused)  # as for a user who is not root
    path = messy_library / "incidents" / "IL-0001.yaml"
    os.chown(path, *OTHER_OWNER)
    [result] = format_files([path], write=True)
    assert result.changed and path.read_text(encoding="utf-8") == CANONICAL
    assert (path.stat().st_uid, path.stat().st_gid) == (os.geteuid(), os.getegid())


def test_fmt_on_a_missing_path_is_a_usage_error(messy_library):
    run = run_curator("fmt", "nope.yaml", "--root", str(messy_library))
    assert run.code == 2 and "no such file: nope.yaml" in run.err


@pytest.mark.parametrize("command", [["fmt", "--check"], ["fmt"], ["fix"], ["fix", "--check"]])
def test_an_entry_that_is_no_incident_file_is_reported_as_lint_reports_it(messy_library, command):
    # Named in vain (a `.yml`), or found in incidents/ (a FIFO): fmt and fix once passed
    # them over and said "0 files"; lint reports each one as IL107. A README, no incident
    # by its name, is passed over by each with a note, as lint passes it over.
    incidents = messy_library / "incidents"
    readme = messy_library / "README.md"
    readme.write_text("# 읽어 보기\n", encoding="utf-8")
    other = incidents / "IL-0003.yml"
    other.write_text(MESSY.replace("IL-0001", "IL-0003"), encoding="utf-8")
    os.mkfifo(incidents / "IL-0004.yaml")
    named = run_curator(*command, str(readme), str(other), "--root", str(messy_library))
    listed = run_curator(*command, "--root", str(messy_library))
    verb = command[0].replace("fmt", "format")
    assert named.code == listed.code == 1, (named, listed)
    other_at, fifo_at = (
        os.path.relpath(path, REPO) for path in (other, incidents / "IL-0004.yaml")
    )
    done = "not fixed" if verb == "fix" else "not formatted"
    assert named.err.splitlines()[:2] == [
        f"curator: note: {readme} is {done}: it is outside incidents/ and not named like an "
        "incident (`IL-…`, `.yaml` or `.yml`), so it is neither an incident nor a draft of one",
        f"{other_at}:1:1: cannot {verb}: extension '.yml': incident files end in .yaml (IL107)",
    ]
    assert f"{fifo_at}:1:1: cannot {verb}: not a regular file (IL107)" in listed.err
    assert other.read_text(encoding="utf-8") == MESSY.replace("IL-0001", "IL-0003")
    assert readme.read_text(encoding="utf-8") == "# 읽어 보기\n"
    lint_run = run_curator("lint", str(readme), str(other), "--root", str(messy_library))
    assert lint_run.code == 1 and lint_run.out.count("IL107") == 1
    if command == ["fmt", "--check"]:
        assert named.err.splitlines()[-1] == (
            "0 files would be reformatted, 0 unchanged, 1 could not be formatted"
        )


def test_an_interrupted_write_leaves_the_old_file_and_no_temporary(messy_library, monkeypatch):
    path = messy_library / "incidents" / "IL-0001.yaml"

    def crash(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic.os, "replace", crash)
    with pytest.raises(KeyboardInterrupt):
        format_files([path], write=True)
    assert path.read_text(encoding="utf-8") == MESSY
    assert sorted(p.name for p in path.parent.iterdir()) == ["IL-0001.yaml", "IL-0002.yaml"]


def test_ctrl_c_as_the_temporary_file_is_made_leaves_no_temporary(messy_library, monkeypatch):
    # A stop between mkstemp making the file and write_atomic keeping its name left it
    # behind (`.IL-0001.yaml.k2x8.tmp`): the cleanup had no name to delete. Kept, the
    # name was deleted, but the file stayed open (its descriptor never closed).
    path = messy_library / "incidents" / "IL-0001.yaml"
    open_before = sorted(os.listdir("/proc/self/fd"))
    making = atomic.tempfile.mkstemp

    def ctrl_c_once_made(**where: Any) -> tuple[int, str]:
        made = making(**where)
        signal.raise_signal(signal.SIGINT)  # (as the terminal sends it)
        return made

    monkeypatch.setattr(atomic.tempfile, "mkstemp", ctrl_c_once_made)
    with pytest.raises(KeyboardInterrupt):  # (deferred, not dropped)
        format_files([path], write=True)
    assert path.read_text(encoding="utf-8") == MESSY
    assert sorted(p.name for p in path.parent.iterdir()) == ["IL-0001.yaml", "IL-0002.yaml"]
    assert sorted(os.listdir("/proc/self/fd")) == open_before


@pytest.mark.parametrize("command", [["fmt"], ["fmt", "--check"], ["fix"], ["fix", "--check"]])
def test_a_file_with_hard_links_is_left_whole_not_split_in_two(messy_library, command):
    # A rewrite puts a new file in the name's place: the other link kept the old bytes,
    # two files where there was one, without a word.
    path = messy_library / "incidents" / "IL-0001.yaml"
    before = MESSY.replace("status: draft", "status: draft  ")  # for fix too (IL602)
    path.write_text(before, encoding="utf-8")
    other = messy_library / "IL-0001-link.yaml"
    os.link(path, other)
    run = run_curator(*command, "--root", str(messy_library), cwd=messy_library)
    assert run.code == 1, run
    verb = "format" if command[0] == "fmt" else "fix"
    assert f"incidents/IL-0001.yaml:1:1: cannot {verb}: the file has 2 hard links, " in run.err
    assert "reformat" not in run.out and "IL602" not in run.out
    assert path.read_text(encoding="utf-8") == before and os.path.samefile(path, other)
    os.unlink(other)  # one name again: rewritten as usual
    assert run_curator(*command, "--root", str(messy_library), cwd=messy_library).code == (
        1 if "--check" in command else 0
    )


@pytest.mark.parametrize("command", [["fmt"], ["fmt", "--check"], ["fix"], ["fix", "--diff"]])
def test_a_read_only_file_is_left_as_it_is_and_said_so(messy_library, command):
    # A rewrite renames a new file into place, which a file's mode does not stop: a file
    # made read-only (chmod a-w) was replaced all the same, and kept its mode after.
    # (Formatters that write in place, black and ruff among them, fail on such a file.)
    path = messy_library / "incidents" / "IL-0001.yaml"
    before = MESSY.replace("status: draft", "status: draft  ")  # for fix too (IL602)
    path.write_text(before, encoding="utf-8")
    path.chmod(0o444)
    run = run_curator(*command, "--root", str(messy_library), cwd=messy_library)
    assert run.code == 1, run
    verb = "format" if command[0] == "fmt" else "fix"
    assert run.err.splitlines()[0] == (
        f"incidents/IL-0001.yaml:1:1: cannot {verb}: the file is read-only (mode 0444); "
        "make it writable to have it rewritten, or change it by hand"
    )
    assert "reformat" not in run.out and "IL602" not in run.out
    assert path.read_text(encoding="utf-8") == before
    assert stat.S_IMODE(path.stat().st_mode) == 0o444
    path.chmod(0o644)  # writable again: rewritten as usual (`--check`, `--diff`: would be)
    again = run_curator(*command, "--root", str(messy_library), cwd=messy_library)
    assert again.code == (1 if command[1:] else 0), again
    assert (path.read_text(encoding="utf-8") == before) == bool(command[1:])


def test_a_file_the_user_may_not_write_is_read_only_to_the_rewrite(tmp_path, monkeypatch):
    # Another user's file, in a folder the user may write: renamed over, it would be the
    # user's. (Tests run as root, whom `os.access` lets write anything: it is told so.)
    path = tmp_path / "IL-0001.yaml"
    path.write_text(MESSY, encoding="utf-8")
    path.chmod(0o644)
    assert canonical.not_replaceable(path) is None
    monkeypatch.setattr(canonical.os, "access", lambda *args, **kwargs: False)
    refused = canonical.not_replaceable(path)
    assert refused is not None and refused.message.startswith("the file is read-only (mode 0644)")


EDITED = MESSY.replace("Postmortem", "방금 저장한 제목")


def change_before_the_rename(monkeypatch, path: Path, meanwhile: str) -> None:
    """Edit, delete or replace by a link `path` as its rewrite starts, after it was read:
    as an editor saving, or a `git checkout`, while a run over many files goes on."""
    making = atomic.tempfile.mkstemp

    def change_first(**where: Any) -> tuple[int, str]:
        if meanwhile in ("edited", "formatted"):
            path.write_text(EDITED if meanwhile == "edited" else CANONICAL, encoding="utf-8")
        elif meanwhile == "deleted":
            path.unlink()
        else:  # a link to a file holding the bytes that were read
            copy = path.with_name("copy.txt")
            path.rename(copy)
            path.symlink_to(copy.name)
        return making(**where)

    monkeypatch.setattr(atomic.tempfile, "mkstemp", change_first)


@pytest.mark.parametrize("meanwhile", ["edited", "deleted", "linked"])
def test_a_file_changed_since_it_was_read_is_left_as_it_now_is(
    messy_library, monkeypatch, meanwhile
):
    # The files are read, rendered, then written: an edit saved in between was overwritten
    # with the layout of the old bytes, a deleted file came back, a link became a file.
    path = messy_library / "incidents" / "IL-0001.yaml"
    change_before_the_rename(monkeypatch, path, meanwhile)
    [result] = format_files([path], write=True)
    assert not result.changed and result.refused is not None
    assert result.refused.message == "the file changed while curator was rewriting it; run again"
    assert result.refused.position == Position(1, 1)
    if meanwhile == "edited":
        assert path.read_text(encoding="utf-8") == EDITED
    else:
        assert not path.is_file() or path.is_symlink()
    assert not [name for name in os.listdir(path.parent) if name.endswith(".tmp")]


def test_a_file_another_run_has_just_formatted_is_no_change_of_the_user_s(
    messy_library, monkeypatch
):
    # Two runs at once (two terminals, an editor's format-on-save): the second to write
    # finds the bytes it would write, not a change to keep.
    path = messy_library / "incidents" / "IL-0001.yaml"
    change_before_the_rename(monkeypatch, path, "formatted")
    [result] = format_files([path], write=True)
    assert result.changed and result.refused is None
    assert path.read_text(encoding="utf-8") == CANONICAL
    assert not [name for name in os.listdir(path.parent) if name.endswith(".tmp")]


def test_exclusive_write_never_overwrites(tmp_path):
    path = tmp_path / "IL-0001.yaml"
    path.write_bytes(b"old\n")
    with pytest.raises(FileExistsError):
        atomic.write_atomic(path, b"new\n", exclusive=True)
    assert path.read_bytes() == b"old\n" and os.listdir(tmp_path) == ["IL-0001.yaml"]


def test_a_write_that_fails_is_said_with_the_file_not_its_temporary(tmp_path, monkeypatch):
    # On a read-only file system `curator fmt` said "curator: …/.IL-0001.yaml.2xkutl9o.tmp:
    # Read-only file system"; a number taken, "….tmp: File exists".
    path = tmp_path / "IL-0001.yaml"
    path.write_bytes(b"old\n")
    with pytest.raises(FileExistsError) as taken:
        atomic.write_atomic(path, b"new\n", exclusive=True)
    assert (taken.value.filename, taken.value.filename2) == (str(path), None)

    def read_only(dir: str, prefix: str, suffix: str) -> tuple[int, str]:
        raise OSError(errno.EROFS, "Read-only file system", f"{dir}/{prefix}x1y2{suffix}")

    monkeypatch.setattr(atomic.tempfile, "mkstemp", read_only)
    with pytest.raises(OSError) as refused:
        atomic.write_atomic(path, b"new\n")
    assert refused.value.filename == str(path) and path.read_bytes() == b"old\n"


def test_format_file_reports_without_writing(messy_library):
    path = messy_library / "incidents" / "IL-0001.yaml"
    result = format_file(path)
    assert result.changed and result.after == CANONICAL.encode("utf-8")
    assert path.read_text(encoding="utf-8") == MESSY


# Speed: kept verdicts and worker processes -----------------------------------------------


def test_a_canonical_file_is_rendered_once_and_its_verdict_never_outlives_its_bytes(
    messy_library, monkeypatch
):
    library = Library.at(messy_library)
    canonical = messy_library / "incidents" / "IL-0002.yaml"
    messy = MESSY.encode("utf-8")
    paths = sorted((messy_library / "incidents").glob("*.yaml"))
    first = format_files(paths, write=False, cache=library)
    assert [r.changed for r in first] == [True, False]  # IL-0001 is MESSY, IL-0002 canonical
    rendered: list[bytes] = []

    def counting(raw: bytes, *args: Any) -> str:
        rendered.append(raw)
        return render(raw, *args)

    monkeypatch.setattr(fmt, "render", counting)
    again = format_files(paths, write=False, cache=library)
    assert rendered == [messy]  # the canonical file cost a hash, the messy one a render
    assert [(r.before, r.after) for r in again] == [(r.before, r.after) for r in first]

    moved = canonical.read_text(encoding="utf-8").replace("  - nccl", "  -   nccl")
    canonical.write_text(moved, encoding="utf-8")  # same values, no longer canonical
    [_, result] = format_files(paths, write=False, cache=library)
    assert rendered[-1] == moved.encode("utf-8") and result.changed

    shutil.rmtree(messy_library / ".curator-cache")  # safe to delete at any time
    rendered.clear()
    assert format_files(paths, write=False, cache=library)[1].changed
    assert rendered == [messy, moved.encode("utf-8")]


def outcome(results: list[Formatted]) -> list[tuple[Any, ...]]:
    return [
        (r.display, r.before, r.after, r.refused and (r.refused.position, r.refused.message))
        for r in results
    ]


def test_workers_format_exactly_as_one_process_does(tmp_path):
    files = {
        f"IL-{n:04d}.yaml": MESSY.replace("IL-0001", f"IL-{n:04d}")
        if n % 3
        else incident(f"IL-{n:04d}")
        for n in range(1, 25)
    }
    files["IL-0099.yaml"] = UNREADABLE["syntax"]
    root = write_library(tmp_path / "lib", files)
    paths = sorted((root / "incidents").glob("*.yaml"))
    serial = outcome(format_files(paths, write=False, jobs=1))
    assert serial == outcome(format_files(paths, write=False, jobs=2))
    assert sum(after is None for _, _, after, _ in serial) == 1  # the broken file, refused


def test_check_keeps_verdicts_unless_told_not_to(messy_library):
    cache = messy_library / ".curator-cache"
    run = run_curator("fmt", "--check", "--no-cache", cwd=messy_library)
    assert run.code == 1 and not cache.exists()
    for _ in range(2):  # the second run finds IL-0002's verdict and says the same
        run = run_curator("fmt", "--check", cwd=messy_library)
        assert run.code == 1
        assert run.out == f"would reformat {Path('incidents', 'IL-0001.yaml')} (layout)\n"
        assert "1 file would be reformatted, 1 unchanged" in run.err
    kinds = sorted(p.name.rsplit("-", 1)[0] for p in cache.iterdir() if p.is_dir())
    assert kinds == ["file-digests", "fmt"]  # (each file's digest, kept under its stat)


def test_canonical_files_are_proven_so_without_a_render(tmp_path, monkeypatch):
    """The fast check (`curator.write.fastcheck`) recognises the canonical files; only the
    others cost a ruamel.yaml render."""
    files = {f"IL-{n:04d}.yaml": incident(f"IL-{n:04d}") for n in range(1, 21)}
    files["IL-0099.yaml"] = MESSY
    root = write_library(tmp_path / "lib", files)
    rendered: list[bytes] = []

    def counting(raw: bytes, *args: Any) -> str:
        rendered.append(raw)
        return render(raw, *args)

    monkeypatch.setattr(fmt, "render", counting)
    paths = sorted((root / "incidents").glob("*.yaml"))
    results = format_files(paths, write=False, jobs=1)
    assert rendered == [MESSY.encode("utf-8")]
    assert [r.changed for r in results] == [False] * 20 + [True]


def test_a_fast_verdict_is_kept_like_a_rendered_one(messy_library, monkeypatch):
    library = Library.at(messy_library)
    paths = sorted((messy_library / "incidents").glob("*.yaml"))
    format_files(paths, write=False, cache=library)
    asked: list[bytes] = []

    def counting(raw: bytes) -> bool:
        asked.append(raw)
        return fastcheck.is_canonical(raw)

    monkeypatch.setattr(fmt, "is_canonical", counting)
    [messy, canonical] = format_files(paths, write=False, cache=library)
    assert asked == [MESSY.encode("utf-8")]  # IL-0002's verdict was kept
    assert messy.changed and not canonical.changed


def test_an_unchanged_canonical_file_costs_a_stat_once_its_verdict_is_kept(
    messy_library, monkeypatch
):
    monkeypatch.setattr(lint_cache, "SETTLED_NS", 0)  # every file is settled once written
    library = Library.at(messy_library)
    paths = sorted((messy_library / "incidents").glob("*.yaml"))
    first = outcome(format_files(paths, write=False, cache=library, keep_unchanged=False))
    read = files_read(monkeypatch, fmt, file_digests)
    assert outcome(format_files(paths, write=False, cache=library, keep_unchanged=False)) == first
    assert read == ["IL-0001.yaml"]  # MESSY: its bytes are shown; IL-0002 was not read
    canonical = paths[1]
    moved = canonical.read_text(encoding="utf-8").replace("  - nccl", "  -   nccl")
    canonical.write_text(moved, encoding="utf-8")  # same values, no longer canonical
    read.clear()
    [_, result] = format_files(paths, write=False, cache=library, keep_unchanged=False)
    assert result.changed and result.after == incident("IL-0002").encode("utf-8")
    assert read == ["IL-0001.yaml", "IL-0002.yaml"]
    read.clear()
    kept = format_files(paths, write=False, cache=library)  # bytes wanted: every file read
    assert sorted(read) == ["IL-0001.yaml", "IL-0002.yaml"] and kept[1].before == moved.encode()


def test_the_bytes_of_unchanged_files_are_dropped_when_asked(tmp_path):
    """What `curator fmt` asks for: enough to list, diff and write the files that change,
    and not the bytes of the 100,000 that do not; with workers or without."""
    files = {f"IL-{n:04d}.yaml": incident(f"IL-{n:04d}") for n in range(1, 30)}
    files["IL-0050.yaml"] = MESSY
    files["IL-0099.yaml"] = UNREADABLE["syntax"]
    root = write_library(tmp_path / "lib", files)
    paths = sorted((root / "incidents").glob("*.yaml"))
    kept = format_files(paths, write=False, jobs=1)
    for jobs in (1, 2):
        dropped = format_files(paths, write=False, jobs=jobs, keep_unchanged=False)
        for full, light in zip(kept, dropped, strict=True):
            assert (light.changed, light.diff()) == (full.changed, full.diff())
            if full.changed or full.refused is not None:
                assert outcome([light]) == outcome([full])
            else:
                assert (light.display, light.before, light.after) == (full.display, b"", b"")
    assert [r.changed for r in kept].count(True) == 1 and kept[-1].refused is not None


# Values other YAML tools would type -------------------------------------------------------

# Words YAML 1.1 or 1.2 reads as a boolean, a number, a date or null when written plain.
TYPED_WORDS = st.sampled_from(
    ["no", "No", "yes", "on", "off", "y", "true", "False", "~", "null", "", "1e3", "0x1F",
     "0o17", "1_000", "+1", "-.5", ".inf", "-.Inf", ".nan", "2023", "2023-01-01",
     "2023-01-01T10:00:00Z", "12:30", "<<", "=", "!x", "&a", "*a", "@x", "%x", "-", "?"]
)  # fmt: skip
TYPED_VALUE = st.builds(
    lambda before, word, after: before + word + after,
    st.sampled_from(["", "", " ", "  ", "\t", "# ", "'", '"', "장애 ", "a: "]),
    TYPED_WORDS,
    st.sampled_from(["", "", " ", " #", " # 주석", ": ", "'", '"', "\t", " 이후"]),
)


@PROPERTY
@given(
    title=TYPED_VALUE,
    organizations=st.lists(TYPED_VALUE, min_size=1, max_size=3),
    action=TYPED_VALUE,
    source_title=TYPED_VALUE,
)
def test_values_yaml_would_type_keep_their_text_for_curator_and_other_tools(
    title, organizations, action, source_title
):
    # Written as JSON strings (always a double-quoted YAML scalar), each with a comment.
    def quoted(value: str) -> str:
        return json.dumps(value, ensure_ascii=False)

    organizations_block = "".join(
        f"  - {quoted(o)}  # 조직 {n}\n" for n, o in enumerate(organizations)
    )
    raw = incident(
        "IL-0001",
        (
            "title: 공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다",
            f"title: {quoted(title)}",
        ),
        ("organizations:\n  - Example\n", "organizations:  # 원문 기준\n" + organizations_block),
        ("  - 데이터를 로컬 디스크로 옮겼다.", f"  - {quoted(action)}  # 조치"),
        ("    title: Storage postmortem", f"    title: {quoted(source_title)}"),
    ).encode("utf-8")
    before = load_bytes(raw).data
    assert before["title"] == title and before["organizations"] == organizations
    out = render(raw)
    assert load_bytes(out.encode("utf-8")).data == before  # as curator reads it
    assert typed_like_other_tools(out.encode("utf-8")) == typed_like_other_tools(raw)
    assert sorted(full_line_comments(out)) == sorted(full_line_comments(raw.decode("utf-8")))
    for note in ["# 원문 기준", "# 조치", *(f"# 조직 {n}" for n in range(len(organizations)))]:
        assert note in out, note
    assert "\\u" not in out and "\\x" not in out
    assert render(out.encode("utf-8")) == out


@pytest.mark.parametrize("quoted", ["'b'", "'---b'", "!!str b"])
def test_a_plain_key_other_readers_type_stays_plain_beside_a_quoted_one(quoted):
    # Found by fuzzing (fuzz/fuzz_fmt.py): a quoted key made every key of its mapping be
    # written anew, and `0:` came out `'0':`, text to other readers where it was a number;
    # alone, it stayed `0:`. So a second fmt changed a file the first had written.
    raw = f"0: a\n{quoted}: c\nno: d\n".encode()
    out = render(raw)
    assert out.startswith("0: a\n") and out.endswith("no: d\n"), out
    assert typed_like_other_tools(out.encode("utf-8")) == typed_like_other_tools(raw)
    assert render(out.encode("utf-8")) == out


@pytest.mark.parametrize("raw", [b"a:\n\n|+\n\nb:\n\n  1x\n", b"a:\n\n|+\n  x\n\nb: 1\n"])
def test_a_block_after_a_blank_line_is_written_as_any_other(raw):
    # Found by fuzzing (fuzz/fuzz_fmt.py): ruamel.yaml keeps the blank line before `|+` as
    # if it were a comment on the block's header, so the block was kept: once with the
    # blank lines after it, which it then held ("would not hold the same values; please
    # report"), once as `|+`, which a second run made double-quoted.
    out = render(raw)
    assert load_bytes(out.encode("utf-8")).data == load_bytes(raw).data
    assert "|" not in out, out  # (a blank line at the end: double-quoted, `literal_ok`)
    assert render(out.encode("utf-8")) == out


@pytest.mark.parametrize(
    ("raw", "out"),
    [
        (
            "id: IL-0001\ntitle:\n  # 메모\n  |-\n  한 줄\n",
            "id: IL-0001\n# 메모\ntitle: 한 줄\n",
        ),
        ("id: IL-0001\ntitle:\n  # 나중에\n  |\n", "id: IL-0001\n# 나중에\ntitle: ''\n"),
    ],
)
def test_a_block_after_a_comment_line_is_written_as_any_other_at_once(raw, out):
    # Found by fuzzing (fuzz/fuzz_fmt.py): ruamel.yaml keeps a comment on a line of its own
    # before `|-` as it keeps a blank line there, and the block was kept as if the comment
    # were on its header; the comment went above the key, so a second `fmt` wrote it plain.
    assert render(raw.encode("utf-8")) == out
    assert render(out.encode("utf-8")) == out


def _as_other_tools_read(raw: bytes) -> tuple[Any, Any]:
    """What YAML 1.2 (as `typed_like_other_tools`) and YAML 1.1 (PyYAML) make of `raw`: a
    reader that refuses it (a plain `<<` is a merge key) gives its error's name."""
    typed: list[Any] = []
    for read in (typed_like_other_tools, yaml.safe_load):
        try:
            typed.append(read(raw))
        except Exception as exc:  # (the error is the outcome compared)
            typed.append(type(exc).__name__)
    return typed[0], typed[1]


@pytest.mark.parametrize("word", ["2024", "no", "yes", "true", "0755", "1e3", ".inf", "<<", "="])
@pytest.mark.parametrize(
    "written",
    [
        "title: |-\n  {}\n",  # a one-line block leaves block style
        "title: >-\n  {}\n",
        "title: !!str {}\n",  # the tag goes
        '"{}": 값  # 알 수 없는 키\n',  # keys lose their quotes
        "? |-\n  {}\n: 값\n",
    ],
)
def test_text_that_other_tools_would_type_plain_keeps_its_quotes(written, word):
    # Each was written plain: `title: 2024` (a number to other tools, where the block or
    # the tag said text), `'<<': 값` a merge key that PyYAML and ruamel refuse to read.
    raw = ("id: IL-0001\n" + written.format(word, word)).encode("utf-8")
    out = render(raw)
    assert data_of(out) == data_of(raw)
    assert _as_other_tools_read(out.encode("utf-8")) == _as_other_tools_read(raw)
    assert f"'{word}'" in out
    assert sorted(comments(out)) == sorted(comments(raw.decode("utf-8")))
    assert render(out.encode("utf-8")) == out


def test_text_every_reader_reads_as_text_still_leaves_its_block_or_quotes():
    raw = "id: IL-0001\ntitle: |-\n  2024년 장애\n'x_note': 'no'\n".encode()
    assert render(raw) == "id: IL-0001\ntitle: 2024년 장애\nx_note: 'no'\n"


def test_fmt_reads_no_taxonomy_and_says_nothing_of_a_broken_one(tmp_path):
    # The layout does not depend on the taxonomy: fmt, run on every commit, neither reads
    # it nor notes that it is broken (fix's note was once given to fmt too).
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    symptoms = root / "schema" / "taxonomy" / "symptoms.yaml"
    symptoms.write_text("dimension: symptoms\nterms: [\n", encoding="utf-8")
    run = run_curator("fmt", "--check", "--root", str(root), cwd=root)
    assert (run.code, run.out) == (0, "")
    assert "taxonomy" not in run.err, run.err


def test_a_file_the_layout_would_grow_past_the_size_limit_is_refused_with_its_size():
    # 40,000 comment lines above a flow list (990 KB): the layout indents each by two
    # spaces, 1,069,540 bytes, which the check of the written file could not read back; it
    # said "would not hold the same values; please report".
    notes = "".join(f"# 주석 {n} 입니다\n" for n in range(40_000))
    raw = incident("IL-0001").replace("  - Example\n", notes + "  [Example, Other]\n").encode()
    assert len(raw) <= MAX_BYTES
    with pytest.raises(Refused) as refused:
        render(raw)
    assert refused.value.position == Position(1, 1)
    assert str(refused.value) == (
        "in the canonical layout the file would be 1,069,540 bytes, over the 1,048,576 "
        "curator reads; make it shorter by hand"
    )
