import pytest

from curator.load import MAX_BYTES, MAX_DEPTH, Position, Problem, load_bytes


def kinds(raw: bytes) -> list[Problem]:
    return [p.kind for p in load_bytes(raw).problems]


def test_scalars_stay_text_and_nulls_are_none():
    loaded = load_bytes(b"occurred: 2023\nflag: no\nday: 2023-03-08\nempty:\nquoted: ''\n")
    assert loaded.data == {
        "occurred": "2023",
        "flag": "no",
        "day": "2023-03-08",
        "empty": None,
        "quoted": "",
    }


def test_positions_of_values_and_keys_are_one_based():
    doc = load_bytes(b"a:\n  - x\n  - y: [1, 2]\n").document
    assert doc is not None
    assert doc.position(("a", 0)) == Position(2, 5)
    assert doc.position(("a", 1, "y", 1)) == Position(3, 12)
    assert doc.key_position(("a", 1, "y")) == Position(3, 5)
    # A missing value is located at the nearest enclosing one.
    assert doc.position(("a", 1, "missing")) == Position(3, 5)


def test_block_scalar_span_covers_its_lines():
    doc = load_bytes(b"a: |\n  one\n  two\nb: x\n").document
    assert doc is not None
    start, end = doc.span(("a",))
    assert (start.line, end.line) == (1, 4)
    assert doc.data["a"] == "one\ntwo\n"


def test_korean_text_round_trips_unchanged():
    text = "title: 스토리지에서 NCCL 의 처리량이 떨어졌다\n"
    assert load_bytes(text.encode()).data == {"title": text[7:].strip()}


def test_alias_bomb_is_refused_at_the_first_alias():
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        prev = chr(ord("a") + i - 1)
        lines.append(
            f"{chr(ord('a') + i)}: &{chr(ord('a') + i)} [" + ",".join([f"*{prev}"] * 9) + "]"
        )
    loaded = load_bytes("\n".join(lines).encode())
    assert loaded.document is None
    [problem] = loaded.problems
    assert problem.kind is Problem.FORBIDDEN
    assert problem.position == Position(1, 4)  # its first anchor, before any alias
    [alias] = load_bytes(b"a: [x, *a]\n").problems
    assert (alias.kind, alias.position) == (Problem.FORBIDDEN, Position(1, 8))
    assert alias.message == "alias *a is not allowed; write the value out"


@pytest.mark.parametrize(
    ("text", "where", "anchor"),
    [
        ("title: &a 장애\n", Position(1, 8), "a"),  # the title would be `장애`
        ("a: b\norganizations: &o\n  - Imbue\n", Position(2, 16), "o"),
        ("facets: &f {causes: [x]}\n", Position(1, 9), "f"),
        ("&k title: x\n", Position(1, 1), "k"),  # on a key
        ("- &i x\n", Position(1, 3), "i"),
    ],
)
def test_an_anchor_alone_is_refused_where_it_stands(text: str, where: Position, anchor: str):
    loaded = load_bytes(text.encode())
    assert loaded.document is None
    [problem] = loaded.problems
    assert (problem.kind, problem.position) == (Problem.FORBIDDEN, where)
    assert problem.message.startswith(f"anchor &{anchor} is not allowed: ")
    assert "double quotes" in problem.message


def test_python_tags_are_never_constructed(tmp_path):
    marker = tmp_path / "pwned"
    raw = f"a: !!python/object/apply:os.system ['touch {marker}']\n".encode()
    assert kinds(raw) == [Problem.FORBIDDEN]
    assert not marker.exists()
    assert kinds(b"a: !custom x\n") == [Problem.FORBIDDEN]
    assert kinds(b"a: !!str x\n") == []


# Each YAML tag but `!!str` asks other readers (and ruamel.yaml, for `curator fmt`) for a
# value the loader does not read: `!!int 5` is 5 to them, "5" here, and `!!int x` fails.
STANDARD_TAGS = {
    "bool": "yes",
    "int": "5",
    "float": "1.5",
    "null": "~",
    "timestamp": "2024-05-01",
    "binary": "aGk=",
    "map": "{a: b}",
    "seq": "[a]",
    "set": "{a}",
    "omap": "[a: b]",
    "str": "[a]",  # (not on a list or a mapping either)
}


@pytest.mark.parametrize("name", sorted(STANDARD_TAGS))
@pytest.mark.parametrize("written", ["!!{}", "!<tag:yaml.org,2002:{}>"])
def test_a_standard_tag_is_refused_where_it_stands_and_named_as_written(name, written):
    tag = written.format(name)
    loaded = load_bytes(f"id: IL-0001\ntitle: {tag} {STANDARD_TAGS[name]}\n".encode())
    assert loaded.document is None
    [problem] = loaded.problems
    assert (problem.kind, problem.position) == (Problem.FORBIDDEN, Position(2, 8))
    assert problem.message == (
        f"tag !!{name} is not allowed; incidents hold plain values only: "
        "write the value without the tag"
    )


@pytest.mark.parametrize(
    ("text", "position", "shown"),
    [
        ("title: ! 5\n", (1, 8), "!"),  # PyYAML and ruamel.yaml read a number
        ("title: ! {a: b}\n", (1, 8), "!"),
        ("%TAG !t! tag:yaml.org,2002:\n---\ntitle: !t!int 5\n", (3, 8), "!!int"),
        ("!!int 5: x\n", (1, 1), "!!int"),  # a key
        ("- !!python/name:os.system x\n", (1, 3), "!!python/name:os.system"),
        ("title: !custom x\n", (1, 8), "!custom"),
    ],
)
def test_every_other_tag_is_refused_too(text, position, shown):
    [problem] = load_bytes(text.encode()).problems
    assert (problem.kind, problem.position) == (Problem.FORBIDDEN, position)
    assert problem.message.startswith(f"tag {shown} is not allowed;"), problem.message


def test_the_text_tag_alone_is_read_and_says_text():
    raw = b"a: !!str 5\nb: !<tag:yaml.org,2002:str> ~\nc: !!str\n!!str d: e\n"
    loaded = load_bytes(raw)
    assert loaded.problems == []
    assert loaded.data == {"a": "5", "b": "~", "c": "", "d": "e"}


def test_deep_nesting_is_bounded_without_crashing():
    raw = b"a: " + b"[" * 200_000 + b"]" * 200_000
    assert kinds(raw) == [Problem.FORBIDDEN]
    assert kinds(b"a:\n" + b"- " * 100_000 + b"x\n") == [Problem.FORBIDDEN]


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("[" * 1000, Position(1, 33)),
        ("[" * 1001, Position(1, 33)),
        ("title: " + "[" * 40 + "]" * 40, Position(1, 39)),
        ("title: " + "[" * 1000 + "]" * 1000, Position(1, 39)),
        ("- " * 20 + "[" * 1000, Position(1, 53)),
        ("title: 장애\nk: " + "[" * 1000, Position(2, 35)),
        ("a: b\rtitle: " + "[" * 1000, Position(1, 44)),  # (lines counted by LF)
        ("title: " + "{a: " * 1000, Position(1, 132)),
        ("- " * 1100 + "x", Position(1, 65)),
        ("".join(" " * level + f"k{level}:\n" for level in range(1100)), Position(33, 33)),
    ],
)
def test_nesting_past_the_limit_is_refused_where_it_passes_the_limit(text, position):
    # libyaml 0.2.6 refuses flow nesting past 1000 levels while it scans ahead of a
    # possible key, before the loader meets the level past its own limit.
    [problem] = load_bytes(text.encode()).problems
    assert (problem.kind, problem.position) == (Problem.FORBIDDEN, position)
    assert problem.message == f"nesting deeper than {MAX_DEPTH} levels"


def test_huge_file_is_not_parsed():
    raw = b"a: b\n" * (50 * 1024 * 1024 // 5)
    loaded = load_bytes(raw)
    assert [p.kind for p in loaded.problems] == [Problem.TOO_LARGE]
    assert loaded.text is None
    assert len(raw) > MAX_BYTES


def test_bad_encoding_points_at_the_byte():
    loaded = load_bytes("title: 한\nx: ".encode() + "전력".encode("euc-kr"))
    [problem] = loaded.problems
    assert problem.kind is Problem.ENCODING
    assert problem.position == Position(2, 4)


def test_bom_is_read_through():
    loaded = load_bytes(b"\xef\xbb\xbfa: b\n")
    assert loaded.problems == [] and loaded.data == {"a": "b"}


def test_empty_and_comment_only_files():
    assert kinds(b"") == [Problem.EMPTY]
    assert kinds(b"# nothing\n\n") == [Problem.EMPTY]


def test_duplicate_key_is_reported_and_the_later_value_used():
    loaded = load_bytes(b"a: 1\nb: 2\na: 3\n")
    assert loaded.data == {"a": "3", "b": "2"}
    [problem] = loaded.problems
    assert problem.kind is Problem.DUPLICATE_KEY and problem.position == Position(3, 1)


def test_syntax_error_and_control_characters():
    assert kinds(b"a: [b\n") == [Problem.SYNTAX]
    assert kinds(b"a: \x07\n") == [Problem.SYNTAX]


@pytest.mark.parametrize("control", ["\x00", "\x07", "\x1b"])
def test_a_control_character_after_korean_text_is_placed_where_it_is(control):
    # libyaml says where its reader stopped in bytes of UTF-8: read as characters, that
    # put the character lines below where it is (3 bytes to a Hangul syllable).
    text = "\ufeffid: IL-0001\ntitle: 스토리지 장애\nlessons: |\n  같은 장애가" + control + "또\n"
    [problem] = load_bytes(text.encode("utf-8")).problems
    assert problem.position == Position(4, 9), problem


def test_second_document_and_complex_keys_are_refused():
    assert kinds(b"a: 1\n---\nb: 2\n") == [Problem.FORBIDDEN]
    assert kinds(b"? [a]\n: b\n") == [Problem.FORBIDDEN]


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_file_is_named_as_such(codec):
    raw = "\ufeffid: IL-0001\ntitle: 장애\n".encode(codec)
    [problem] = load_bytes(raw).problems
    assert problem.kind is Problem.ENCODING and problem.position == (1, 1)
    assert problem.message.startswith("the file is UTF-16"), problem.message


@pytest.mark.parametrize("codec", ["cp949", "euc-kr"])
def test_a_file_saved_by_korean_windows_is_named_as_such(codec):
    raw = "id: IL-0001\ntitle: 전력 장애\n".encode(codec)
    [problem] = load_bytes(raw).problems
    assert problem.kind is Problem.ENCODING and problem.position == (2, 8)
    assert problem.message == (
        "not valid UTF-8 (byte 0xc0 at offset 19): it reads as CP949 (EUC-KR), as Korean "
        "Windows saves files; save the file as UTF-8"
    )


def test_other_bytes_that_are_not_utf8_are_named_by_the_byte_alone():
    [problem] = load_bytes("title: café\n".encode("latin-1")).problems
    assert problem.message == "not valid UTF-8 (byte 0xe9 at offset 10); save the file as UTF-8"


@pytest.mark.parametrize("other_break", ["\u2028", "\u2029", "\x85", "\r"])
def test_lines_are_counted_by_lf_alone_as_editors_and_the_rules_do(other_break):
    # libyaml also breaks lines at these; a finding after one must not land a line late.
    document = load_bytes(f'title: "a{other_break}b"\nstatus: 발행\n'.encode()).document
    assert document is not None
    assert document.key_positions[("status",)] == Position(2, 1)
    assert document.value_spans[("status",)] == (Position(2, 9), Position(2, 11))
    assert document.value_spans[()][1] == Position(3, 1)
    [problem] = load_bytes(f'title: "a{other_break}b"\nx: y: z\n'.encode()).problems
    assert problem.kind is Problem.SYNTAX and problem.position == (2, 5)
    # A message that names a line counts the same way as the finding's own position.
    repeated = f'title: "a{other_break}b"\nstatus: 발행\nstatus: 초안\n'.encode()
    [problem] = load_bytes(repeated).problems
    assert problem.kind is Problem.DUPLICATE_KEY and problem.position == (3, 1)
    assert "(first at line 2)" in problem.message, problem.message


KEY_WITHOUT_COLON = (
    "could not find expected ':': this line is not `key: value`; put ': ' after its key, or, "
    "if it goes on with the text above, write that text as a `|` block (`key: |`, its lines "
    "indented below)"
)
INDENTED_DEEPER = (
    "mapping values are not allowed in this context: this key is indented deeper than the "
    "key above it: line it up with the keys of its mapping; or, if it goes on with the text "
    "above, write that text as a `|` block"
)
FULL_WIDTH_HASH = (
    "U+FF03 FULLWIDTH NUMBER SIGN does not start a comment in YAML; write '#' (U+0023)"
)
NOT_AN_ITEM = (
    "did not find expected '-' indicator: this line is lined up with the list's items but "
    "is not one: start it with '- ', or, if it is a key of the item above, indent it as far "
    "as that item's keys"
)


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        pytest.param(
            "id: IL-0001\nstatus draft\noccurred: 2024\n",
            (2, 1),  # (libyaml stops at line 3)
            KEY_WITHOUT_COLON,
            id="a key without its colon",
        ),
        pytest.param(
            "id: IL-0001\ntrigger: 스위치가\n멈췄다\nstatus: draft\n",
            (3, 1),
            KEY_WITHOUT_COLON,
            id="text going on at the start of the next line",
        ),
        pytest.param(
            "id: IL-0001\nsymptom: |\n학습이 멈췄다.\n처리량도 떨어졌다.\nstatus: draft\n",
            (3, 1),
            "could not find expected ':': the `symptom: |` above starts a block, which holds "
            "the lines indented under its key: indent this line, and the block's other lines, "
            "two spaces more than the key",
            id="a block's text not indented under its key",
        ),
        pytest.param(
            "actions:\n  - note: >-\n  스위치를 껐다\n",
            (3, 3),
            "could not find expected ':': the `note: >-` above starts a block, which holds "
            "the lines indented under its key: indent this line, and the block's other lines, "
            "two spaces more than the key",
            id="a block's text in a list item, not indented under its key",
        ),
        pytest.param(
            "id: IL-0001\ndetection: 경고: 학습 손실이 멈췄다\n",
            (2, 14),
            "mapping values are not allowed in this context: a ': ' inside a value starts "
            'another key; put the whole value in double quotes ("…") or write it as a `|` block',
            id="a colon and a space in a Korean sentence",
        ),
        pytest.param(
            "sources:\n  - url: https://example.com/a\n    title: t\n      publisher: p\n",
            (4, 16),
            INDENTED_DEEPER,
            id="a key indented deeper than the one above",
        ),
        pytest.param(
            "trigger:\n  스위치가 멈췄다\n  원인: 펌웨어\n",
            (3, 5),
            INDENTED_DEEPER,
            id="text on several lines holding a colon and a space",
        ),
        pytest.param(
            "facets:\ncauses:\n    - config-change\n  components:\n    - nccl\n",
            (4, 3),
            "did not find expected key: nothing above this line is indented as far as it: "
            "line it up with the keys or items it belongs with",
            id="a key indented as none above",
        ),
        pytest.param(
            "sources:\n  - url: https://example.com/a\n    title: t\n  publisher: p\n",
            (4, 3),
            NOT_AN_ITEM,
            id="a key of an item lined up with the items",
        ),
        pytest.param(
            'id: IL-0001\ntitle: "NCCL 타임아웃\nstatus: draft\n',
            (2, 8),  # (libyaml stops at the end of the file)
            'found unexpected end of stream: the " here is never closed; end the value with "',
            id="a quote left open",
        ),
        pytest.param(
            "sources:\n  - url: https://example.com/a\n    title: 'How we fixed NCCL's hang'\n",
            (3, 31),
            "did not find expected key: a quoted value ends at its closing quote; write a ' "
            "inside '…' as '', and a \" inside \"…\" as \\\"",
            id="a quote inside single quotes",
        ),
        pytest.param(
            'actions:\n  - "kubectl drain" 으로 노드를 비웠다\n',
            (2, 21),  # (after the closing quote)
            "did not find expected '-' indicator: a quoted value ends at its closing quote; "
            "write a ' inside '…' as '', and a \" inside \"…\" as \\\"",
            id="an item starting with a quoted word",
        ),
        pytest.param(
            "actions:\n  - `kubectl drain` 으로 노드를 비웠다\n",
            (2, 5),
            "found character that cannot start any token: a value cannot start with `: YAML "
            "keeps ` for future use; if the ` belongs to the text, put the whole value in "
            "double quotes",
            id="a value starting with a backtick",
        ),
        pytest.param(
            "organizations:\n\u3000- Imbue\nstatus: draft\n",
            (2, 1),
            "could not find expected ':': this line starts with U+3000 IDEOGRAPHIC SPACE, "
            "which YAML does not take for indentation; indent with plain spaces",
            id="an item indented with a full-width space",
        ),
        pytest.param(
            "actions:\n  - 노드를 비웠다\n\u00a0 - 다시 시작했다\n",
            (3, 1),
            "could not find expected ':': this line starts with U+00A0 NO-BREAK SPACE, which "
            "YAML does not take for indentation; indent with plain spaces",
            id="an item indented with a no-break space pasted from a web page",
        ),
        pytest.param(
            "id: IL-0001\ntitle\uff1a NCCL 멈춤\nstatus: draft\n",
            (2, 6),
            "could not find expected ':': the key ends with U+FF1A FULLWIDTH COLON, not ':'; "
            "write 'title: '",
            id="a key ending with a full-width colon",
        ),
        pytest.param(
            "sources:\n  - url\uff1a https://example.com/a\n    title: t\n",
            (2, 8),  # (libyaml stops at the ': ' of the next line, which it reads as more text)
            "mapping values are not allowed in this context: the key ends with U+FF1A "
            "FULLWIDTH COLON, not ':'; write 'url: '",
            id="a list item's key ending with a full-width colon",
        ),
        pytest.param(
            "facets:\n  causes\uff1a\n    - config-change\n\n    - software-defect\n"
            "  components:\n    - nccl\n",
            (2, 9),  # (libyaml stops four lines below)
            "mapping values are not allowed in this context: the key ends with U+FF1A "
            "FULLWIDTH COLON, not ':'; write 'causes: '",
            id="a nested key ending with a full-width colon, its list below",
        ),
        pytest.param(
            "sources:\n  - url: https://example.com/a\n    title\uff1a t\n    publisher: p\n",
            (3, 10),
            "could not find expected ':': the key ends with U+FF1A FULLWIDTH COLON, not ':'; "
            "write 'title: '",
            id="a list item's second key ending with a full-width colon",
        ),
        pytest.param(
            "trigger:\n  스위치가 멈췄다\n  Note\uff1a 펌웨어\n  원인: 설정\n",
            (4, 5),
            INDENTED_DEEPER,  # (the full-width colon is in text going on, not the text's start)
            id="text going on with a full-width colon, then a ': '",
        ),
        pytest.param(
            "id: IL-0001\ntitle:\u3000NCCL 멈춤\nstatus: draft\n",
            (2, 7),
            "could not find expected ':': the ':' after the key is followed by U+3000 "
            "IDEOGRAPHIC SPACE, which YAML does not take for a space; write 'title: ' with a "
            "plain space",
            id="a full-width space after a key's colon",
        ),
        pytest.param(
            "sources:\n  - url:\u00a0https://example.com/a\n    title: t\n",
            (2, 9),
            "mapping values are not allowed in this context: the ':' after the key is followed "
            "by U+00A0 NO-BREAK SPACE, which YAML does not take for a space; write 'url: ' "
            "with a plain space",
            id="a no-break space after a list item's key",
        ),
        pytest.param(
            "facets:\n  causes:\u3000\n    - config-change\n  components:\n    - nccl\n",
            (2, 10),
            "mapping values are not allowed in this context: the ':' after the key is followed "
            "by U+3000 IDEOGRAPHIC SPACE, which YAML does not take for a space; remove it",
            id="a full-width space after a nested key's colon, its list below",
        ),
        pytest.param(
            "sources:\n  - url: https://example.com/a\n    title: t\n"
            "  \uff0d url: https://example.com/b\n    title: u\n",
            (4, 3),
            "did not find expected '-' indicator: the item starts with U+FF0D FULLWIDTH "
            "HYPHEN-MINUS, which YAML does not read as a list's '-'; write '-' (U+002D "
            "HYPHEN-MINUS)",
            id="a second source started with a full-width hyphen",
        ),
        pytest.param(
            "actions:\n  - 노드를 비웠다\n  \u2014 다시 시작했다\n  - 확인했다\n",
            (3, 3),
            "could not find expected ':': the item starts with U+2014 EM DASH, which YAML does "
            "not read as a list's '-'; write '-' (U+002D HYPHEN-MINUS)",
            id="an item of text started with an em dash",
        ),
        *(
            pytest.param(
                f"actions:\n  - 노드를 비웠다\n  {dot} 다시 시작했다\n  - 확인했다\n",
                (3, 3),
                f"could not find expected ':': the item starts with {name}, which YAML does "
                "not read as a list's '-'; write '-' (U+002D HYPHEN-MINUS)",
                id=f"an item of text started with {name}, as Korean documents list",
            )
            for dot, name in (
                ("\u00b7", "U+00B7 MIDDLE DOT"),
                ("\u318d", "U+318D HANGUL LETTER ARAEA"),
                ("\u3161", "U+3161 HANGUL LETTER EU"),
            )
        ),
        pytest.param(
            "trigger:\n  스위치가 멈췄다\n  \u2013 원인: 펌웨어\n",
            (3, 7),
            INDENTED_DEEPER,  # (a dash in text going on is no item's)
            id="text going on with a dash and a ': '",
        ),
        pytest.param(
            "id: IL-0001\n\uff03 출처를 더 찾을 것\nstatus: draft\n",
            (2, 1),
            f"could not find expected ':': {FULL_WIDTH_HASH}",
            id="a comment started with a full-width number sign",
        ),
        pytest.param(
            "actions:\n  - 노드를 비웠다\n  \uff03 순서는 원문대로\n  - 다시 시작했다\n",
            (3, 3),
            f"could not find expected ':': {FULL_WIDTH_HASH}",
            id="a comment between items started with a full-width number sign",
        ),
        pytest.param(
            "sources:\n  \uff03 원문 둘\n  - url: https://example.com/a\n    title: t\n",
            (2, 3),  # (libyaml stops at the ': ' after `url`, which it reads as more text)
            f"mapping values are not allowed in this context: {FULL_WIDTH_HASH}",
            id="a comment above a list of sources started with a full-width number sign",
        ),
        pytest.param(
            "id: IL-0001\nlessons: |  \uff03 원문 요약\n  작은 시험으로는 알 수 없었다\n",
            (2, 13),
            f"did not find expected comment or line break: {FULL_WIDTH_HASH}",
            id="a comment on a block's header started with a full-width number sign",
        ),
        pytest.param(
            'id: IL-0001\ntitle: "NCCL 멈춤"  \uff03 원문 제목\n',
            (2, 19),
            f"did not find expected key: {FULL_WIDTH_HASH}",
            id="a comment after a quoted value started with a full-width number sign",
        ),
        pytest.param(
            "sources:\n  - url: https://example.com/a\n"
            "    title: \u201cFrom bare metal: infrastructure\u201d  # 원제\n",
            (3, 12),  # (at the quote: libyaml stops at the ': ')
            "mapping values are not allowed in this context: a ': ' inside a value starts "
            "another key, and the value's quotes are U+201C LEFT DOUBLE QUOTATION MARK and "
            "U+201D RIGHT DOUBLE QUOTATION MARK, which YAML does not take for quotes; write them "
            'as " (U+0022)',
            id="a value holding ': ' in typographic quotes",
        ),
        pytest.param(
            "id: IL-0001\ntitle: \u201c경고: 손실\u201d 이 멈췄다\n",
            (2, 11),
            "mapping values are not allowed in this context: a ': ' inside a value starts "
            'another key; put the whole value in double quotes ("…") or write it as a `|` block',
            id="a value holding ': ' in typographic quotes and more text",
        ),
        pytest.param(
            "id: IL-0001\ntitle: [초안] NCCL 멈춤\nstatus: draft\n",
            (2, 8),  # (libyaml stops after the `]`)
            "did not find expected key: a value cannot start with [: YAML reads a list there, "
            "which must end with ] before anything else on its line; if the [ belongs to the "
            "text, put the whole value in double quotes",
            id="a title starting with a bracketed tag",
        ),
        pytest.param(
            "actions:\n  - [긴급 노드를 비웠다\nstatus: draft\n",
            (2, 5),  # (libyaml stops on the next line)
            "did not find expected ',' or ']': a value cannot start with [: YAML reads a list "
            "there, which must end with ] before anything else on its line; if the [ belongs "
            "to the text, put the whole value in double quotes",
            id="an item starting with a bracket never closed",
        ),
        pytest.param(
            "id: IL-0001\ntitle: *중요* 스토리지 장애\n",
            (2, 8),
            "did not find expected alphabetic or numeric character: a value cannot start with "
            "*: YAML reads an alias there (a name for another value); if the * belongs to the "
            "text, put the whole value in double quotes",
            id="a title starting with emphasis",
        ),
        pytest.param(
            "id: IL-0001\nlessons: > 작은 시험으로는 알 수 없었다\n",
            (2, 10),
            "did not find expected comment or line break: a value cannot start with >: YAML "
            "reads a block there, whose text goes on the lines below it; if the > belongs to "
            "the text, put the whole value in double quotes",
            id="a quotation mark of e-mail",
        ),
        pytest.param(
            "id: IL-0001\ntrigger: - 설정 변경\n",
            (2, 10),
            "block sequence entries are not allowed in this context: a value cannot start with "
            "-: YAML reads a list's item there; if the - belongs to the text, put the whole "
            "value in double quotes",
            id="a dash after a key",
        ),
        pytest.param(
            'id: IL-0001\ntitle: "C:\\Windows 경로"\n',
            (2, 11),
            "found unknown escape character: inside double quotes a \\ starts an escape (\\n, "
            "\\u00e9): write \\\\ for a backslash, or quote the value with ' instead, inside "
            "which \\ is text",
            id="a backslash inside double quotes",
        ),
        pytest.param(
            "facets:\n  causes: [config-change, software-defect\n  components: [nccl]\n",
            (2, 11),
            "did not find expected ',' or ']': a value cannot start with [: YAML reads a list "
            "there, which must end with ] before anything else on its line; if the [ belongs "
            "to the text, put the whole value in double quotes",
            id="a list left open",
        ),
        pytest.param(
            "facets:\n  causes: {config-change: x\n  components: {nccl: y}\n",
            (2, 11),
            "did not find expected ',' or '}': a value cannot start with {: YAML reads a "
            "mapping there, which must end with } before anything else on its line; if the { "
            "belongs to the text, put the whole value in double quotes",
            id="a mapping left open, closed lines below",
        ),
        # A quote left open that the next quote of the text closes, lines below: libyaml
        # stops after that one (4:12), its marks at the top mapping (1:1), none where the
        # value opened.
        pytest.param(
            'id: IL-0001\ntitle: "NCCL 타임아웃\nstatus: draft\noccurred: "2024-05"\n',
            (2, 8),
            'did not find expected key: the " at line 2, column 8 opens a value that only the '
            '" at line 4, column 11 closes, and YAML reads on past it; end the value with " on '
            'line 2, and write a " inside it as \\"',
            id="a double quote left open, closed lines below",
        ),
        pytest.param(
            "id: IL-0001\ntitle: 'NCCL 타임아웃\norganizations:\n  - 'Example'\n",
            (2, 8),
            "did not find expected key: the ' at line 2, column 8 opens a value that only the "
            "' at line 4, column 5 closes, and YAML reads on past it; end the value with ' on "
            "line 2, and write a ' inside it as ''",
            id="a single quote left open, closed lines below",
        ),
        pytest.param(
            'actions:\n  - "kubectl drain\n  - "curator fix" 를 돌렸다\n',
            (2, 5),
            "did not find expected '-' indicator: the \" at line 2, column 5 opens a value that "
            'only the " at line 3, column 5 closes, and YAML reads on past it; end the value '
            'with " on line 2, and write a " inside it as \\"',
            id="an item's quote left open, closed by the next item's",
        ),
        pytest.param(
            "%YAML 1.3\n---\nid: IL-0001\n",
            (1, 1),
            "found incompatible YAML document: this line is a YAML directive, which no incident "
            "needs (curator reads every file as YAML 1.1); remove it",
            id="a %YAML line of a version no reader knows",
        ),
        pytest.param(
            "%YAML 1.1\n%YAML 1.1\n---\nid: IL-0001\n",
            (2, 1),
            "found duplicate %YAML directive: this line is a YAML directive, which no incident "
            "needs (curator reads every file as YAML 1.1); remove it",
            id="a %YAML line twice",
        ),
        pytest.param(
            # (YAML wants a `---` line after it; libyaml stops at the key.)
            "%YAML 1.1\nid: IL-0001\n",
            (1, 1),
            "did not find expected <document start>: this line is a YAML directive, which no "
            "incident needs (curator reads every file as YAML 1.1); remove it",
            id="a %YAML line with no --- after it",
        ),
    ],
)
def test_a_usual_syntax_slip_is_placed_where_it_is_and_said_what_to_write(text, where, words):
    [problem] = load_bytes(text.encode()).problems
    assert problem.kind is Problem.SYNTAX
    assert (problem.position, problem.message) == (where, f"YAML syntax error: {words}")


def test_a_syntax_error_of_no_usual_slip_keeps_libyaml_words_alone():
    [problem] = load_bytes(b"title: x\n...\nstatus: draft\n").problems
    assert problem.message == ("YAML syntax error: did not find expected <document start>")
    # A list written as one, its brackets closed: no slip to explain.
    assert load_bytes(b"related: [IL-0001, IL-0002]\n").problems == []


@pytest.mark.parametrize(
    ("text", "end"),
    [
        # A list left open inside a mapping: libyaml finds it out at the end. (A key without
        # `: ` is placed where its line starts, and a value starting with `[` at the `[`, as
        # the slip is there.)
        ("rel: {a: [IL-0001, # 메모\u2028\n장애", (2, 3)),  # (line 4 by libyaml's count)
        ("rel: {a: [IL-0001,\r장애", (1, 22)),  # (line 3)
        ("rel: {a: [IL-0001,\n장애", (2, 3)),  # (line 3: libyaml ends the last line at the end)
        ("rel: {a: [IL-0001,\n장애\n", (3, 1)),  # (line 3 is where the text ends)
    ],
)
def test_a_syntax_error_at_the_end_of_the_text_is_placed_there_not_past_it(text, end):
    [problem] = load_bytes(text.encode()).problems
    assert problem.kind is Problem.SYNTAX and problem.position == end
