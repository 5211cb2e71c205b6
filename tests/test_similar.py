"""`curator similar`: text and entities in two languages, scores and reasons, settled pairs,
the on-disk index, and the evaluation figures held above their floors."""

from __future__ import annotations

import datetime as dt
import gc
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest
from conftest import REPO, ended, run_curator, start_python, stopped_as_it_loads, write_library
from hypothesis import given, settings
from hypothesis import strategies as st
from synthetic import synthetic_library

from curator.library import Library
from curator.load_canonical import read_canonical
from curator.similarity import entities as entity_kinds
from curator.similarity import index as index_module
from curator.similarity import store
from curator.similarity import text as text_module
from curator.similarity.entities import entities
from curator.similarity.index import build, build_from
from curator.similarity.records import read_alike, read_record
from curator.similarity.similar import DUPLICATE_THRESHOLD, Evidence, Judge, occurred_range
from curator.similarity.text import features, stem, tokens
from incidents import GITLAB_EN, incident

sys.path.insert(0, str(REPO / "tests" / "eval"))
import run as evaluation

EVAL = REPO / "tests" / "eval" / "incidents"

SYSTEMD = """\
id: {id}
title: 무인 보안 업데이트로 재시작된 systemd-networkd 가 규칙을 지워 노드가 네트워크를 잃었다
status: published
occurred: 2023-03-08
organizations:
  - Datadog
facets:
  causes:
    - upgrade-incompatibility
  components:
    - systemd-networkd
  symptoms:
    - node-network-loss
  contributing_factors: []
symptom: |
  여러 리전의 노드가 한꺼번에 네트워크 연결을 잃었다.
trigger: |
  Ubuntu 저장소에 올라온 systemd 패치 249.11-0ubuntu3.7 을 무인 업그레이드가 설치했다.
detection: |
  모든 리전의 경보가 동시에 울렸다.
actions:
  - 인스턴스 수천 대를 재시작했다.
lessons: |
  무인 업데이트는 단계적 배포를 거치지 않는다.
sources:
  - url: {url}
    title: Infrastructure connectivity issue
"""


def systemd(incident_id: str, url: str, *replacements: tuple[str, str]) -> str:
    text = SYSTEMD.format(id=incident_id, url=url)
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


ENGLISH = """\
id: IL-NEW-english
title: An unattended upgrade to systemd 249.11-0ubuntu3.7 restarted systemd-networkd
status: draft
occurred: 2023-03-08
organizations:
  - Datadog
facets:
  causes:
    - upgrade-incompatibility
  components:
    - systemd-networkd
  symptoms:
    - node-network-loss
sources:
  - url: https://example.org/news/datadog-outage
    title: Datadog outage explained
"""


def similar_json(*args: str) -> list[dict]:
    run = run_curator("similar", *args, "--format", "json")
    assert run.code == 0, run.err
    return json.loads(run.out)


# --- text and entities ----------------------------------------------------------------------


def test_korean_particles_and_latin_script_split_into_tokens():
    assert tokens("NCCL의 타임아웃이") == ["nccl", "타임아웃이"]
    assert tokens("Imbue 는 H100 을") == ["imbu", "h100"]


def test_english_inflections_stem_alike():
    assert stem("flapping") == stem("flapped") == stem("flaps") == "flap"
    assert stem("caching") == stem("cached") == stem("caches")
    assert stem("stalled") == stem("stalls") == "stall"


@pytest.mark.parametrize(
    ("korean", "english", "shared"),
    [
        ("H100 4,088개와 서버 511대", "4,088 H100 GPUs in 511 servers", {"4088", "511", "h100"}),
        ("8시간 넘게 걸렸다", "took over 8 hours", {"8h"}),
        ("약 24 TB 데이터셋", "a 24TB dataset", {"24tb"}),
        ("H100 1만 6,384개", "16,384 H100 GPUs", {"16384", "h100"}),
        ("4억 달러", "$400 million", {"400000000"}),
        ("4억 6천만 건", "460 million records", {"460000000"}),
        ("3억 2,500만 명", "325 million people", {"325000000"}),
        ("62분 동안", "for 62 minutes", {"62min"}),
        # Durations stay entities, even below 10: a unit makes a number a fact of the event.
        ("6시간 33분 동안 멈췄다", "down for 6 hours 33 minutes", {"6h", "33min"}),
        ("2주 남짓", "over 2 weeks", {"2wk"}),
        ("4시간 반 동안", "for 4.5 hours", {"4.5h"}),
        ("2시간 반이 걸렸다", "took 2.5 hours", {"2.5h"}),
    ],
)
def test_numbers_with_units_read_the_same_in_korean_and_english(korean, english, shared):
    assert shared <= entities(korean) & entities(english)


def test_versions_cves_error_names_and_product_names_are_entities():
    found = entities(
        "systemd 249.11-0ubuntu3.7 (CVE-2023-26604) 뒤 XID 79 오류, SmolLM3 과 systemd-networkd, "
        "SERVFAIL 이 났다"
    )
    assert {
        "249.11-0ubuntu3.7",
        "cve-2023-26604",
        "xid 79",
        "smollm3",
        "systemd-networkd",
        "servfail",
    } <= found


def test_a_name_that_starts_with_its_digits_is_its_number_as_docs_judgement_says():
    # docs/judgement.md listed 70B among the model names, where it has always been the
    # number 70 (the quantity kind comes first); read as models, the evaluation's facets
    # did no better (session 44), so the documentation says what is done.
    assert entities("Llama 3 70B 모델을 100G 링크로") == {"llama", "70", "100"}
    assert entities("H100 과 B200") == {"h100", "b200"}


def test_the_capitals_of_a_title_case_report_title_are_not_names():
    # Report titles capitalise every word: "large" and "language" are no facts of an event
    # (two write-ups citing the same paper showed "shared entities: language, large").
    title = "MegaScale: Scaling Large Language Model Training to More Than 10,000 GPUs"
    assert entities(title) == {"megascale", "10000"}  # `GPUs`: a common noun (below)
    # A name among Korean words, or in an English sentence, still counts.
    assert {"azure", "front", "door"} <= entities("한때 Azure Front Door(AFD) 가 멈췄다")
    assert "redis" in entities("We found that Redis was slow to answer")


@pytest.mark.parametrize(
    "text",
    [
        "2023년 3월 8일 06:00 UTC, 2023-03-08",
        "01시 38분(UTC) 웹사이트가 내려갔고 02시 00분에 비웠다. 19시 27분 모두 끝났다.",
        "오후 10시(KST) 복제가 멈췄고, 21일 오후 1시 30분까지 저하됐다.",
        "8월 25-28일 사이; Major Outage (27/10/2017)",
        "down on Aug 11; June 21, 2022; the Jan 31st outage; 21 October 2016",
        "from 11pm PST to 5 a.m. GMT",
        # A particle glued to them: these were the numbers 17, 20, 27, 10, 11, 31 and 21.
        "17:20에 멈췄고 27/10/2017에 다시, 11pm에도; Jan 31st에, 21 October에",
    ],
)
def test_dates_clock_times_and_time_zones_are_not_entities(text):
    assert entities(text) == set()


# Every kind tried at every letter and digit, as the pattern did before it tried only the
# Korean dates inside a word and skipped words of small letters whole (`entities._ENTITY`).
EVERY_KIND_EVERYWHERE = re.compile(r"(?=[A-Za-z0-9])(?:" + "|".join(entity_kinds._KINDS) + ")")
# Texts made of the pieces entities are made of (numbers, Korean units and date words,
# letters of each case, version, name and date separators, spaces, Korean text), joined in
# any order: `x2024년`, `H100.5만`, `3월 5~7일`.
ENTITY_PIECES = (
    "0", "7", "12", "2024", "4,088", "1.5", "v1.2", "a", "x", "H", "h", "B", "Jan", "XID",
    "xid", "xid 79", "error", "cve", "cve-2024-1234", "CVE", "GPU", "ms", "TB", "hours",
    "million", "é", ".", ",", "-", "_", ":", "/", "~", "+", " ", "\n",
    "년", "월", "일", "시", "간", "분", "초", "반", "만", "천", "억", "가", "스토리지가",
)  # fmt: skip
ENTITY_TEXT = st.lists(st.sampled_from(ENTITY_PIECES), max_size=12).map("".join)


def found_at(pattern: re.Pattern[str], text: str) -> list[tuple[tuple[int, int], str | None]]:
    return [(m.span(), m.lastgroup) for m in pattern.finditer(text)]


def inside_a_word(text: str, start: int) -> bool:
    return start > 0 and text[start - 1].isascii() and text[start - 1].isalnum()


@settings(max_examples=2000, deadline=None)
@given(ENTITY_TEXT)
def test_only_korean_dates_inside_a_word_and_no_small_word_change_what_is_found(text):
    every = [
        (span, "date_inside" if kind == "date" and inside_a_word(text, span[0]) else kind)
        for span, kind in found_at(EVERY_KIND_EVERYWHERE, text)
    ]
    found = found_at(entity_kinds._ENTITY, text)
    assert [(span, kind) for span, kind in found if kind != "word"] == every


def test_a_korean_date_inside_a_word_is_still_a_date_and_no_number():
    # (No kind starts at `x`, after a Hangul syllable; `x2024년` alone is the model x2024,
    # as `x2024 년` is.)
    assert found_at(entity_kinds._ENTITY, "가x2024년 3월 5일") == [((2, 13), "date_inside")]
    assert entities("가x2024년 3월 5일, H100") == {"h100"}


@pytest.mark.parametrize(
    ("glued", "entity"),
    [
        ("H100이 멈췄다", "h100"),
        ("NCCL에서 타임아웃", "nccl"),
        ("Lustre의 메타데이터", "lustre"),
        ("Kubernetes가 파드를", "kubernetes"),
        ("SERVFAIL이 났다", "servfail"),
        ("systemd-networkd가 규칙을", "systemd-networkd"),
        ("CUDA_ERROR_ECC_UNCORRECTABLE로 끝났다", "cuda_error_ecc_uncorrectable"),
        ("v1.28.3으로 올렸다", "1.28.3"),  # was the name v1.28
        ("CVE-2023-26604가 고쳐졌다", "cve-2023-26604"),  # was the number 26604
        ("XID 79가 찍혔다", "xid 79"),  # was the name xid and the number 79
        ("HBM3메모리가 찼다", "hbm3"),  # glued to a noun: the Latin word is still the name
    ],
)
def test_a_name_with_a_particle_glued_to_it_is_the_name_as_when_spaced(glued, entity):
    # Korean writers glue particles to Latin words; the library's files put a space there.
    spaced = re.sub("(?<=[A-Za-z0-9])(?=[가-힣])", " ", glued)
    assert entity in entities(glued)
    assert entities(glued) == entities(spaced), spaced


def test_a_word_glued_before_a_name_or_a_number_still_keeps_it_from_being_one():
    # As docs/judgement.md says: rare before a name, and mostly part of the word before a
    # number (an ordinal, a node's name), which is no quantity of the event.
    assert entities("엔비디아H100 의 제10회 점검, 노드12") == set()


PARTICLES = ("이", "가", "은", "는", "을", "를", "의", "에", "에서", "으로", "로", "와", "과", "도")
LATIN_PIECES = [p for p in ENTITY_PIECES if not re.search("[가-힣]", p)] + [
    "H100", "NCCL", "Lustre", "The", "17:20", "1.28.3", "systemd-networkd", "Oct", "pm",
]  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(LATIN_PIECES), max_size=10).map("".join),
    st.sampled_from(PARTICLES),
    st.sampled_from(["", " 멈췄다", " H100", " 12"]),
)
def test_a_particle_glued_to_latin_text_reads_as_one_after_a_space(text, particle, rest):
    assert entities(f"{text}{particle}{rest}") == entities(f"{text} {particle}{rest}")


@pytest.mark.parametrize(
    ("unspaced", "expected"),
    [
        ("NVIDIAのH100が故障した", {"nvidia", "h100"}),
        ("在H100集群上训练中断", {"h100"}),
        ("4,088台のH200で学習", {"4088", "h200"}),
        ("CVE-2023-26604が修正された", {"cve-2023-26604"}),
        ("XID 79が出た", {"xid 79"}),
        ("systemdをv1.28.3へ上げた", {"1.28.3"}),
        ("東京リージョンのSERVFAILは17:20に", {"servfail"}),  # 17:20 a time, no numbers
    ],
)
def test_japanese_and_chinese_glue_names_on_either_side_and_they_are_still_names(
    unspaced, expected
):
    # They write no space between words; a Korean word glued before a name still keeps it
    # from being one (above), a Japanese or Chinese one does not.
    assert entities(unspaced) == expected


UNSPACED_GLUE = ("の", "が", "で", "へ", "は", "台", "集群", "東京リージョン", "ー")


@settings(max_examples=500, deadline=None)
@given(
    st.sampled_from(UNSPACED_GLUE),
    st.lists(st.sampled_from(LATIN_PIECES), max_size=10).map("".join),
    st.sampled_from(UNSPACED_GLUE),
)
def test_kana_or_ideographs_glued_around_latin_text_read_as_spaces(before, text, after):
    assert entities(f"{before}{text}{after}") == entities(f"{before} {text} {after}")


LONG_NUMBER = "7" * 5000  # more digits than Python converts (4,300), or a float holds


@pytest.mark.parametrize("unit", ["", "만", " TB", "시간 반"])
def test_a_number_of_thousands_of_digits_is_no_entity_and_no_crash(unit):
    assert entities(f"{LONG_NUMBER}{unit} 와 H100") == {"h100"}
    assert entities(f"{LONG_NUMBER[:400]}{unit} 와 H100") == {"h100"}  # (past a float)


def test_an_incident_with_a_long_run_of_digits_is_judged_and_so_is_the_library(tmp_path):
    # One such incident (a pasted checksum, say) made `similar`, `suggest` and `search`
    # end in "internal error: ValueError: Exceeds the limit (4300 digits) …" for the
    # whole library.
    digits = ("학습 처리량이 떨어졌다.", f"학습 처리량이 떨어졌다. {LONG_NUMBER}")
    root = write_library(
        tmp_path / "lib",
        {"IL-0001.yaml": incident("IL-0001", digits), "IL-0002.yaml": incident("IL-0002")},
    )
    [first, second] = similar_json("--all", "--root", str(root))
    assert [m["id"] for m in first["matches"]] == ["IL-0002"]
    assert [m["id"] for m in second["matches"]] == ["IL-0001"]
    for args in (("suggest", "--all"), ("search", f"처리량 {LONG_NUMBER}")):
        run = run_curator(*args, "--root", str(root), "--quiet", "--format", "json")
        assert (run.code, run.err) == (0, ""), run
        assert json.loads(run.out)
    # Alone, such a number is nothing to search for (no quantity: docs/judgement.md).
    alone = run_curator("search", LONG_NUMBER, "--root", str(root), "--quiet")
    assert alone.code == 2 and alone.err.startswith(
        "python -m curator search: nothing in the query"
    ), alone


def test_clock_times_are_not_shared_entities_of_unrelated_incidents():
    # IL-0277 (docs.rs, 2019) and IL-0284 (MoJ, 2026) only share the minutes of their
    # timelines ("01시 39분", "08시 56분"): they were "related" by 0min, 56min, 39min.
    [result] = similar_json(str(REPO / "incidents" / "IL-0277.yaml"), "--root", str(REPO))
    assert "IL-0284" not in {m["id"] for m in result["matches"]}
    shared = {
        name
        for match in result["matches"]
        for reason in match["reasons"]
        if reason.startswith("shared entities: ")
        for name in reason.removeprefix("shared entities: ").split(", ")
    }
    assert not shared & {"0min", "39min", "56min", "6min", "19", "utc"}


def shared_entities(match: dict) -> list[str]:
    return [
        name
        for reason in match["reasons"]
        if reason.startswith("shared entities: ")
        for name in reason.removeprefix("shared entities: ").split(" (+")[0].split(", ")
    ]


def test_a_share_or_a_count_without_a_unit_is_no_evidence_of_one_event():
    # IL-0137 (B200 storage I/O bottleneck) and IL-0256 (Claude answers degraded) were
    # "related" at 0.39 by `16%, nvidia, gpu` with text similarity 0.02: one wrote at 16.0%
    # of its write bandwidth, the other of 16% of requests. IL-0220 (Zalando's ingress)
    # and IL-0258 (OpenAI's auth cache) at 0.29 by `500, 502` alone; IL-0129 and IL-0276
    # at 0.26 by `32, s3` (3.2M → 32k steps; 32 packages).
    results = similar_json("--all", "--root", str(REPO))
    matched = {(result["id"], match["id"]) for result in results for match in result["matches"]}
    for pair in (("IL-0137", "IL-0256"), ("IL-0220", "IL-0258"), ("IL-0129", "IL-0276")):
        assert not {pair, pair[::-1]} & matched, pair
    shared = {name for r in results for m in r["matches"] for name in shared_entities(m)}
    assert {"h100", "nccl", "us-east-1"} <= shared  # names still count
    assert not [name for name in shared if re.fullmatch(r"\d+(\.\d+)?%?", name)], shared
    # What found the same event still does: the Llama 3 write-ups share 16000, 419, 17.2%…
    # and HBM3, Llama, H100, 54d; the English Datadog write-up 22.04 (a version), not 90%.
    # (IL-0251 is settled as IL-0250's copy: judged here as the evaluation judges it.)
    judge = Judge(build(Library.at(REPO)))
    record = read_record(REPO / "incidents" / "IL-0251.yaml", "incidents/IL-0251.yaml")
    assert record is not None
    llama = judge.similar(record, honour_settled=False)
    assert (llama[0].id, llama[0].kind) == ("IL-0250", "duplicate")
    assert {"hbm3", "llama", "54d"} <= set(shared_entities(llama[0].to_json()))
    [datadog] = similar_json(str(EVAL / "IL-NEW-datadog-systemd-en.yaml"), "--root", str(REPO))
    top = datadog["matches"][0]
    assert (top["id"], top["kind"]) == ("IL-0198", "duplicate")
    assert "22.04" in shared_entities(top) and "90%" not in shared_entities(top)


def test_an_organisation_is_evidence_once_not_again_by_the_words_of_its_name():
    # IL-0216 and IL-0249 are incidents of Amazon Web Services; their texts write "AWS" and
    # "Amazon EC2". The organisation counts (and is said) as one; "aws" and "amazon" were
    # shared entities too, the same name twice more (`ec2, amazon, aws, dns`).
    judge = Judge(build(Library.at(REPO)))
    record = read_record(REPO / "incidents" / "IL-0216.yaml", "incidents/IL-0216.yaml")
    assert record is not None
    match = judge.compare(record, "IL-0249")
    assert match is not None
    assert match.reasons[0] == "same organisation Amazon Web Services"
    assert "shared entities: ec2, dns" in match.reasons


def test_a_name_hardly_more_than_its_maker_is_no_shared_entity_of_its_incidents():
    # docs/judgement.md: Google's IL-0206 and IL-0208 shared `google cloud` alone, the maker
    # again beside "same organisation Google" (0.012; 0.22 by IL-0208's withdrawn copy
    # IL-0209). A product name holding the maker's still counts: IL-0243 and IL-0272 share
    # `google compute engine`.
    judge = Judge(build(Library.at(REPO)))
    record = read_record(REPO / "incidents" / "IL-0206.yaml", "incidents/IL-0206.yaml")
    assert record is not None
    match = judge.compare(record, "IL-0208")
    assert match is not None
    assert match.reasons[0] == "same organisation Google"
    assert not [r for r in match.reasons if r.startswith("shared entities: ")], match.reasons
    assert match.score == 0.0
    record = read_record(REPO / "incidents" / "IL-0243.yaml", "incidents/IL-0243.yaml")
    assert record is not None
    match = judge.compare(record, "IL-0272")
    assert match is not None
    assert "shared entities: gce, google compute engine" in match.reasons
    # A name of the organisation's words alone is the organisation too: `knight capital`
    # of Knight Capital Americas LLC, which IL-0211 and its original IL-0210 shared.
    record = read_record(REPO / "incidents" / "IL-0211.yaml", "incidents/IL-0211.yaml")
    assert record is not None
    match = judge.compare(record, "IL-0210")
    assert match is not None
    assert "shared entities: 45min, nyse, retail liquidity program, smars" in match.reasons
    assert match.kind == "duplicate"


def test_a_name_of_the_organisation_and_generic_words_counts_only_against_other_makers(
    tmp_path,
):
    # Against Google's own incident `Google Cloud` (and `Google Cloud Platform`) is Google,
    # counted as the organisation; `Google Compute Engine` is a product and counts; against
    # a customer's incident, `Google Cloud` is a name like any other.
    said = ("학습 처리량이 떨어졌다.", "{} 장애로 학습 처리량이 떨어졌다.")
    files = {
        "IL-0001.yaml": ("Google", "Google Cloud 와 Google Cloud Platform"),
        "IL-0002.yaml": ("Google", "Google Cloud 와 Google Cloud Platform"),
        "IL-0003.yaml": ("Google", "Google Compute Engine"),
        "IL-0004.yaml": ("Google", "Google Compute Engine"),
        "IL-0005.yaml": ("Globex", "Google Cloud"),
    }
    root = write_library(
        tmp_path,
        {
            name: incident(name[:7], ("Example", org), (said[0], said[1].format(text)))
            for name, (org, text) in files.items()
        },
    )
    judge = Judge(build(Library.at(root)))

    def shared(one: str, other: str) -> list[str]:
        record = read_record(root / "incidents" / f"{one}.yaml", f"incidents/{one}.yaml")
        assert record is not None
        match = judge.compare(record, other)
        assert match is not None
        return shared_entities(match.to_json())

    assert shared("IL-0001", "IL-0002") == []
    assert shared("IL-0003", "IL-0004") == ["google compute engine"]
    assert shared("IL-0005", "IL-0001") == ["google cloud"]
    assert shared("IL-0001", "IL-0005") == ["google cloud"]


def test_a_common_noun_of_the_field_alone_is_no_entity_and_a_name_holding_it_still_is():
    # IL-0206 and IL-0199, different events, were related at 0.22 by `service, 10min,
    # google, api`: `service` of "Service Control" and "Service", a word every incident may
    # use, weighed as a rare name in a library of 93 incidents.
    found = entities("Service Control 과 Cloud Storage 의 GPUs 가 Service 를 멈췄다. 이 Network 는")
    assert {"service control", "cloud storage"} <= found
    assert not found & {"service", "cloud", "storage", "gpu", "network"}, found
    record = read_record(REPO / "incidents" / "IL-0206.yaml", "incidents/IL-0206.yaml")
    assert record is not None
    judge = Judge(build(Library.at(REPO)))
    match = judge.compare(record, "IL-0199")
    assert match is not None
    assert "shared entities: 10min, google, api" in match.reasons, match.reasons
    assert match.score < 0.2  # below MIN_SCORE: `similar` no longer lists it
    assert [m.id for m in judge.similar(record)] == []


def test_an_edition_or_a_publisher_alone_is_no_entity():
    # IL-0213, IL-0219, IL-0228 and IL-0268, four events, were related to each other by
    # `register` alone (each cites The Register); IL-0258 and IL-0287, two OpenAI outages a
    # year apart, by `enterprise` of ChatGPT Enterprise; IL-0208 and IL-0232 by `suite` of
    # G Suite and Data Localization Suite.
    found = entities("The Register 가 전한 ChatGPT Enterprise 와 G Suite, Data Localization Suite")
    assert not found & {"register", "enterprise", "suite"}, found
    assert {"chatgpt", "data localization suite", "g suite"} <= found
    judge = Judge(build(Library.at(REPO)))

    def shared(one: str, other: str) -> list[str]:
        record = read_record(REPO / "incidents" / f"{one}.yaml", f"incidents/{one}.yaml")
        assert record is not None
        match = judge.compare(record, other)
        return [] if match is None else shared_entities(match.to_json())

    assert shared("IL-0213", "IL-0219") == []
    assert shared("IL-0287", "IL-0258") == ["chatgpt", "api"]
    assert shared("IL-0232", "IL-0208") == []
    assert shared("IL-0209", "IL-0208") == ["g suite", "cloud storage"]  # one event


def test_one_capital_before_a_capitalised_word_is_a_word_of_its_name():
    # G Suite was no entity (one capital is no name alone, and `suite` is a common noun):
    # `curator search "G Suite 장애"` put IL-0232's Data Localization Suite above
    # IL-0208, which names G Suite.
    assert entities("G Suite 장애", query=True) == {"g suite"}
    assert "g suite" in entities("미국 동부의 Google Cloud, G Suite, YouTube 가 혼잡으로")
    assert entities("G 사 장애, 플랜 B 로 전환") == set()
    assert entities("A Kubernetes cluster failed") == {"kubernetes"}


def test_a_name_in_mixed_case_before_a_capitalised_word_is_a_word_of_its_name():
    # ChatGPT Enterprise and ChatGPT Plus were both `chatgpt`, no edition told apart, and
    # GitHub Actions `github` and `actions`, where Google Cloud was `google cloud`: a name
    # in mixed case never joined the capitalised words after it.
    found = entities("ChatGPT Enterprise 와 ChatGPT Plus, GitHub Actions 가 멈췄다")
    assert {"chatgpt enterprise", "chatgpt plus", "github actions"} <= found
    assert {"chatgpt", "plus", "github", "actions"} <= found  # its words still meet alone
    # Beside a word in capitals only it is no name, as two words in capitals are none;
    # a dotted or hyphenated name stays a word of its own.
    assert entities("GitHub AWS 연동") == {"github", "aws"}
    assert entities("systemd-networkd Service 가 멈췄다") == {"systemd-networkd"}
    # IL-0285 and IL-0286, two events of the Ministry of Justice two years apart, were
    # related (0.226) by `cloud platform` of MoJ Cloud Platform, the organisation's own
    # platform: as `moj cloud platform` it is the organisation (MoJ), counted already.
    judge = Judge(build(Library.at(REPO)))
    record = read_record(REPO / "incidents" / "IL-0285.yaml", "incidents/IL-0285.yaml")
    assert record is not None
    match = judge.compare(record, "IL-0286")
    assert match is not None
    assert shared_entities(match.to_json()) == ["high-priority", "terraform"]
    assert match.score < 0.2  # below MIN_SCORE: `similar` no longer lists it
    assert [m.id for m in judge.similar(record)] == []


def test_a_name_of_several_words_is_one_entity_counted_once():
    # Northern Virginia and Network Load Balancer were two and three entities, each word
    # listed and counted by itself: `ecs, northern, virginia, …` and `balancer, load, …`.
    found = entities("AWS 의 Northern Virginia 리전에서 Network Load Balancer 와 EC2 가 멈췄다")
    assert {"northern virginia", "network load balancer", "load balancer"} <= found
    assert {"northern", "virginia", "load", "balancer", "ec2"} <= found
    assert entities_of_the_library_pair("IL-0212", "IL-0216") == [
        "ecs", "northern virginia", "eks", "lambda", "us-east-1",
    ]  # fmt: skip
    # An Application Load Balancer and a Network Load Balancer share the name's part they
    # have in common, once.
    assert entities_of_the_library_pair("IL-0216", "IL-0264") == [
        "load balancer", "redshift", "ec2", "api",
    ]  # fmt: skip


@pytest.mark.parametrize(
    "before", ["", "장애가 났다. ", "장애가 났다.\n", "symptom: |\n  "], ids=repr
)
def test_a_name_that_opens_a_korean_sentence_keeps_its_first_word(before):
    # "Northern Virginia 리전에서" at the start of a text or a sentence was `virginia` alone:
    # a capitalised word that opens a sentence before a Latin word was read as an English
    # sentence's first word, though a Korean sentence went on after the name.
    found = entities(f"{before}Northern Virginia 리전에서 Google Cloud DNS가 멈췄다")
    assert {"northern virginia", "northern", "virginia", "google cloud", "google"} <= found
    # An English sentence still opens with any word: its first word is no name.
    assert "northern" not in entities(f"{before}Northern Virginia went down. 그 뒤 복구했다")


def entities_of_the_library_pair(one: str, other: str) -> list[str]:
    """The shared entities `similar` lists for two incidents of the bundled library, after
    checking that the score counts each of them once, at its own rarity, and no other."""
    index = build(Library.at(REPO))
    judge = Judge(index)
    record = read_record(REPO / "incidents" / f"{one}.yaml", f"incidents/{one}.yaml")
    assert record is not None
    match = judge.compare(record, other)
    assert match is not None
    listed = shared_entities(match.to_json())
    [row] = index.by_id[other]
    counted = sum(index.rarity_of(name) for name in listed)
    assert Evidence.of(judge, record).rarity[row] == pytest.approx(counted, abs=1e-5)
    return listed


def test_a_word_of_a_name_of_several_words_still_meets_the_word_alone(tmp_path):
    # "Virginia" in one text and "Northern Virginia" in the other still share `virginia`,
    # in either direction, and "Compute Engine" is the part of "Google Compute Engine".
    files = {
        "IL-0001.yaml": incident(
            "IL-0001", ("학습 처리량이", "Virginia 리전의 Compute Engine 학습 처리량이")
        ),
        "IL-0002.yaml": incident(
            "IL-0002",
            ("학습 처리량이", "Northern Virginia 리전의 Google Compute Engine 학습 처리량이"),
        ),
    }
    root = write_library(tmp_path, files)
    index = build(Library.at(root))
    judge = Judge(index)
    for one, other in (("IL-0001", "IL-0002"), ("IL-0002", "IL-0001")):
        record = read_record(root / "incidents" / f"{one}.yaml", f"incidents/{one}.yaml")
        assert record is not None
        match = judge.compare(record, other)
        assert match is not None
        assert set(shared_entities(match.to_json())) == {"virginia", "compute engine"}
        expected = index.rarity_of("virginia") + index.rarity_of("compute engine")
        [row] = index.by_id[other]
        assert Evidence.of(judge, record).rarity[row] == pytest.approx(expected, abs=1e-5)


def test_a_name_with_a_word_in_capitals_is_one_entity_and_its_words_still_meet_alone(tmp_path):
    # "AWS Lambda", "Google Cloud DNS" and "Azure AD" were word by word (`aws, lambda`;
    # `cloud, dns`; `azure`, as `AD` is too short to be an entity alone): only capitalised
    # words were joined into a name.
    found = entities("이번 AWS Lambda 장애는 Google Cloud DNS 와 Azure AD 인증까지 번졌다")
    assert {"aws lambda", "google cloud dns", "cloud dns", "azure ad"} <= found
    assert {"aws", "lambda", "google", "dns", "azure"} <= found and "ad" not in found
    # Acronyms side by side are no name, nor is a time zone a word of one.
    assert entities("NCCL SRAM 오류가 22:54 UTC Lambda 에서 났다") == {"nccl", "sram", "lambda"}
    # "Lambda" alone still meets the word of AWS Lambda, and "Azure" of Azure AD; two texts
    # naming AWS Lambda and Azure AD share those names. Each is counted once.
    files = {
        "IL-0001.yaml": incident(
            "IL-0001", ("학습 처리량이", "Lambda 함수와 Azure 인증의 처리량이")
        ),
        "IL-0002.yaml": incident("IL-0002", ("학습 처리량이", "AWS Lambda 함수와 Azure AD 인증이")),
        "IL-0003.yaml": incident("IL-0003", ("학습 처리량이", "Azure AD 와 AWS Lambda 의 지연이")),
    }
    root = write_library(tmp_path, files)
    index = build(Library.at(root))
    judge = Judge(index)
    for one, other, shared in (
        ("IL-0001", "IL-0002", {"lambda", "azure"}),
        ("IL-0002", "IL-0001", {"lambda", "azure"}),
        ("IL-0002", "IL-0003", {"aws lambda", "azure ad"}),
    ):
        record = read_record(root / "incidents" / f"{one}.yaml", f"incidents/{one}.yaml")
        assert record is not None
        match = judge.compare(record, other)
        assert match is not None
        assert set(shared_entities(match.to_json())) == shared
        expected = sum(index.rarity_of(name) for name in shared)
        [row] = index.by_id[other]
        assert Evidence.of(judge, record).rarity[row] == pytest.approx(expected, abs=1e-5)


def unrelated(incident_id: str, day: str, words: str) -> str:
    """An incident of Acme on `day` whose text shares no word with another's."""
    text = incident(incident_id, ("2024-05", day), ("Example", "Acme"))
    for field in ("title", "symptom", "trigger", "detection", "lessons"):
        text = re.sub(rf"(?m)^({field}: \|?\n?\s*).*$", rf"\g<1>{words}", text, count=1)
    return text.replace("Storage postmortem", words).replace(
        "데이터를 로컬 디스크로 옮겼다.", words
    )


@pytest.mark.parametrize("others", [0, 8])
def test_same_organisation_weighs_less_the_more_of_its_incidents_lie_as_close(tmp_path, others):
    # One Acme incident two days off is likely this event (0.45); among nine that close, any
    # one is no likelier than the rest: each weighs 0.45 / √9, and the reason says why.
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india"]
    files = {"IL-0001.yaml": unrelated("IL-0001", "2024-05-12", "zulu")}
    for number, word in enumerate(words[:others], start=2):
        files[f"IL-{number:04d}.yaml"] = unrelated(
            f"IL-{number:04d}", f"2024-05-{number + 12}", word
        )
    files["IL-0099.yaml"] = unrelated("IL-0099", "2024-09-01", "yankee")  # months off: no crowd
    root = write_library(tmp_path, files)
    (root / "new.yaml").write_text(unrelated("IL-NEW-x", "2024-05-10", "xray"), encoding="utf-8")
    judge = Judge(build(Library.at(root)))
    record = read_record(root / "new.yaml", "new.yaml")
    assert record is not None
    evidence = Evidence.of(judge, record)
    [row] = judge.index.by_id["IL-0001"]
    crowd = others + 1
    assert evidence.crowd == crowd
    assert evidence.organisation[row] == pytest.approx(0.45 / crowd**0.5)
    assert evidence.cosine[row] == 0
    reason = evidence.reasons(row)[0]
    assert reason.startswith("same organisation Acme, occurred 2024-05-10 vs 2024-05-12")
    assert reason.endswith(f"({crowd} of its incidents lie within a month: ÷√{crowd})") == (
        crowd > 1
    )


def test_a_file_holding_another_incident_s_id_counts_that_incident_in_its_month(tmp_path):
    # The file judged is left out of its organisation's month by its place, as `similar`
    # leaves it out of the results: a copy under another name carries the id of the
    # incident it repeats, which is one of that month's incidents all the same.
    root = write_library(
        tmp_path,
        {
            "IL-0001.yaml": unrelated("IL-0001", "2024-05-12", "zulu"),
            "IL-0002.yaml": unrelated("IL-0002", "2024-05-14", "alpha"),
        },
    )
    (root / "copy.yaml").write_text(unrelated("IL-0001", "2024-05-10", "xray"), encoding="utf-8")
    judge = Judge(build(Library.at(root)))
    record = read_record(root / "copy.yaml", "copy.yaml")
    assert record is not None and record.id == "IL-0001"
    assert Evidence.of(judge, record).crowd == 2


def test_partial_dates_become_day_ranges():
    day = occurred_range("2023-03-08")
    month = occurred_range("2023-03")
    assert day is not None and month is not None
    assert day[0] == day[1] and month[0] <= day[0] <= month[1]
    assert month[1] - month[0] == 30
    assert occurred_range("2023-02-30") is None


def test_the_last_month_a_date_can_name_is_a_range_to_its_last_day():
    # December 9999 was no date: its end was worked out as the day before 10000-01-01.
    last = dt.date(9999, 12, 31).toordinal()
    assert occurred_range("9999-12") == (dt.date(9999, 12, 1).toordinal(), last)
    assert occurred_range("9999") == (dt.date(9999, 1, 1).toordinal(), last)
    assert occurred_range("9999-12-31") == (last, last)
    assert occurred_range("2024-02") == (
        dt.date(2024, 2, 1).toordinal(),
        dt.date(2024, 2, 29).toordinal(),
    )


def test_a_year_too_large_for_a_date_is_no_date_and_the_others_are_judged(tmp_path):
    # `occurred: 1000000000000000000000000000000` (IL201 in lint) ended `similar`, `review`
    # and `new` with "internal error: OverflowError" once the dates were compared.
    huge = "1" + "0" * 30
    root = write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": incident("IL-0001"),
            "IL-0002.yaml": incident("IL-0002", ("occurred: 2024-05", f"occurred: {huge}")),
        },
    )
    assert occurred_range(huge) is None
    assert occurred_range("２０２４") is None  # (int() reads full-width digits; the schema not)
    judged = similar_json("--all", "--root", str(root))
    assert [entry["id"] for entry in judged] == ["IL-0001", "IL-0002"]


# --- the command ------------------------------------------------------------------------------


def test_one_paper_at_two_addresses_is_decisive_and_says_so(tmp_path):
    root = write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": systemd("IL-0001", "https://arxiv.org/pdf/2402.15627v2.pdf"),
            "IL-0002.yaml": incident(
                "IL-0002",
                (
                    "https://example.com/postmortems/IL-0002",
                    "https://huggingface.co/papers/2402.15627",
                ),
            ),
        },
    )
    [result] = similar_json(str(root / "incidents" / "IL-0001.yaml"), "--root", str(root))
    [match] = result["matches"]
    assert (match["id"], match["score"], match["kind"]) == ("IL-0002", 1.0, "duplicate")
    assert match["reasons"][0] == (
        "same paper https://arxiv.org/abs/2402.15627 (at any of its addresses: version, PDF, "
        "mirror, DOI)"
    )


def test_same_source_url_is_decisive_and_reasoned_as_the_file_spells_it(tmp_path):
    # One page spelt two ways: the reason quotes the judged file's spelling, never the
    # normal form they are compared in (https://example.com/blog/outage), which neither
    # file writes.
    mine, theirs = "https://example.com/blog/outage/", "https://www.example.com/blog/outage?ref=x"
    root = write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": systemd("IL-0001", mine),
            "IL-0002.yaml": incident(
                "IL-0002", ("https://example.com/postmortems/IL-0002", theirs)
            ),
        },
    )
    paths = [str(root / "incidents" / f"IL-000{n}.yaml") for n in (1, 2)]
    results = similar_json(*paths, "--root", str(root))
    assert [r["id"] for r in results] == ["IL-0001", "IL-0002"]
    for result, spelt, other in zip(results, (mine, theirs), ("IL-0002", "IL-0001"), strict=True):
        [match] = result["matches"]
        assert (match["id"], match["score"], match["kind"]) == (other, 1.0, "duplicate")
        assert match["reasons"][0] == f"same source URL {spelt}"
        assert set(match) >= {"id", "score", "kind", "reasons"}


def test_a_new_file_outside_the_library_finds_the_same_event_across_languages(tmp_path):
    root = write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": systemd("IL-0001", "https://example.com/a"),
            "IL-0002.yaml": incident("IL-0002"),
        },
    )
    new = tmp_path / "IL-NEW-english.yaml"
    new.write_text(ENGLISH, encoding="utf-8")
    [result] = similar_json(str(new), "--root", str(root))
    top = result["matches"][0]
    assert top["id"] == "IL-0001"
    assert top["kind"] == "duplicate" and top["score"] >= DUPLICATE_THRESHOLD
    assert "same organisation Datadog, occurred 2023-03-08 vs 2023-03-08" in top["reasons"]
    shared = next(r for r in top["reasons"] if r.startswith("shared entities: "))
    assert "249.11-0ubuntu3.7" in shared and "systemd-networkd" in shared
    assert all(m["id"] != "IL-0002" or m["kind"] == "related" for m in result["matches"])


def test_text_output_lists_kind_score_id_and_reasons(tmp_path):
    root = write_library(
        tmp_path / "lib", {"IL-0001.yaml": systemd("IL-0001", "https://example.com/a")}
    )
    new = tmp_path / "IL-NEW-english.yaml"
    new.write_text(ENGLISH, encoding="utf-8")
    run = run_curator("similar", str(new), "--root", str(root))
    assert run.code == 0
    lines = run.out.splitlines()
    assert lines[0] == f"{new} (IL-NEW-english): 1 possible duplicate, 0 related"
    assert lines[1].startswith("  duplicate  0.") and "  IL-0001  " in lines[1]
    assert "- same organisation Datadog, occurred 2023-03-08 vs 2023-03-08" in lines[2]


@pytest.mark.parametrize(
    "settle",
    [
        ("related:\n  - IL-0002\n", "IL-0001"),
        ("not_duplicate_of:\n  - IL-0002\n", "IL-0001"),
        ("not_duplicate_of:\n  - IL-0001\n", "IL-0002"),  # settled by the other side
    ],
)
def test_settled_pairs_are_never_flagged_again(tmp_path, settle):
    text, holder = settle
    files = {
        "IL-0001.yaml": systemd("IL-0001", "https://example.com/one"),
        "IL-0002.yaml": systemd("IL-0002", "https://example.com/two"),
    }
    files[f"{holder}.yaml"] += text
    root = write_library(tmp_path / "lib", files)
    assert run_curator("lint", "--root", str(root)).code == 0
    results = similar_json("--all", "--root", str(root))
    assert [r["matches"] for r in results] == [[], []]
    (root / "incidents" / f"{holder}.yaml").write_text(files[f"{holder}.yaml"].replace(text, ""))
    unsettled = similar_json("--all", "--root", str(root))
    assert [[m["kind"] for m in r["matches"]] for r in unsettled] == [["duplicate"]] * 2


def withdrawn_copy(incident_id: str, original: str, url: str) -> str:
    return (
        systemd(incident_id, url, ("status: published", "status: withdrawn"))
        + f"duplicate_of: {original}\nwithdrawn_reason: |\n  같은 사건이다.\n"
    )


def test_a_copy_of_a_copy_of_a_settled_incident_is_settled_too(tmp_path):
    # IL-0003 repeats IL-0002, which repeats IL-0001: one event. A new incident that
    # settled IL-0001 was still flagged as a duplicate of IL-0003, at 1.00.
    root = write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": systemd("IL-0001", "https://example.com/a"),
            "IL-0002.yaml": withdrawn_copy("IL-0002", "IL-0001", "https://example.com/b"),
            "IL-0003.yaml": withdrawn_copy("IL-0003", "IL-0002", "https://example.com/c"),
        },
    )
    new = tmp_path / "IL-NEW-x.yaml"
    new.write_text(systemd("IL-NEW-x", "https://example.com/c"), encoding="utf-8")
    [unsettled] = similar_json(str(new), "--root", str(root))
    assert [(m["id"], sorted(m["copies"])) for m in unsettled["matches"]] == [
        ("IL-0001", ["IL-0002", "IL-0003"])
    ]
    new.write_text(systemd("IL-NEW-x", "https://example.com/c") + "related: [IL-0001]\n")
    [result] = similar_json(str(new), "--root", str(root))
    assert result["matches"] == []


def test_matches_of_one_score_are_listed_by_the_number_of_their_id(tmp_path):
    # By their place in the library, whose files are listed by name: IL-10000 came
    # between IL-0002 and IL-9999.
    names = ["IL-9999", "IL-10000", "IL-0002"]
    root = write_library(tmp_path / "lib", {f"{name}.yaml": incident(name) for name in names})
    new = tmp_path / "IL-NEW-x.yaml"
    new.write_text(incident("IL-NEW-x"), encoding="utf-8")
    [result] = similar_json(str(new), "--root", str(root))
    assert [m["id"] for m in result["matches"]] == ["IL-0002", "IL-9999", "IL-10000"]
    assert len({m["score"] for m in result["matches"]}) == 1


def test_a_withdrawn_copy_is_settled_and_folds_into_the_incident_it_repeats(tmp_path):
    root = write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": systemd("IL-0001", "https://example.com/a"),
            "IL-0002.yaml": withdrawn_copy("IL-0002", "IL-0001", "https://example.com/b"),
        },
    )
    by_input = {r["id"]: r["matches"] for r in similar_json("--all", "--root", str(root))}
    assert by_input == {"IL-0001": [], "IL-0002": []}
    new = tmp_path / "IL-NEW-english.yaml"
    new.write_text(ENGLISH, encoding="utf-8")
    [result] = similar_json(str(new), "--root", str(root))
    [match] = result["matches"]  # one event, one match: not IL-0002 beside it
    assert (match["id"], match["kind"], match["copies"]) == ("IL-0001", "duplicate", ["IL-0002"])
    assert any(r.startswith("its withdrawn copy IL-0002 (0.") for r in match["reasons"])
    run = run_curator("similar", str(new), "--root", str(root))
    assert f"{new} (IL-NEW-english): 1 possible duplicate, 0 related" in run.out
    assert "  IL-0001 (and its withdrawn copy IL-0002)  " in run.out


def test_a_copy_that_matches_better_lifts_the_incident_it_repeats(tmp_path):
    # The new write-up cites the copy's source, not the original's: decisive all the same.
    root = write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": incident("IL-0001"),
            "IL-0002.yaml": withdrawn_copy(
                "IL-0002", "IL-0001", "https://example.org/news/datadog-outage"
            ),
        },
    )
    new = tmp_path / "IL-NEW-english.yaml"
    new.write_text(ENGLISH, encoding="utf-8")
    [result] = similar_json(str(new), "--root", str(root))
    [match] = result["matches"]
    assert (match["id"], match["score"], match["copies"]) == ("IL-0001", 1.0, ["IL-0002"])
    assert any(
        r.startswith("its withdrawn copy IL-0002 (1.00): same source URL https://example.org/")
        for r in match["reasons"]
    )


def test_the_bundled_librarys_withdrawn_copy_is_not_a_second_duplicate(tmp_path):
    new = tmp_path / "IL-NEW-gl.yaml"
    new.write_text(GITLAB_EN, encoding="utf-8")
    [result] = similar_json(str(new), "--root", str(REPO))
    duplicates = [(m["id"], m["copies"]) for m in result["matches"] if m["kind"] == "duplicate"]
    assert duplicates == [("IL-0260", ["IL-0261"])]
    assert "IL-0261" not in {m["id"] for m in result["matches"]}


def test_far_apart_dates_count_against_a_match(tmp_path):
    root = write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": systemd("IL-0001", "https://example.com/a"),
            "IL-0002.yaml": systemd(
                "IL-0002", "https://example.com/b", ("occurred: 2023-03-08", "occurred: 2019-06")
            ),
        },
    )
    [result] = similar_json(str(root / "incidents" / "IL-0001.yaml"), "--root", str(root))
    [match] = result["matches"]
    # The dates are said once, against the pair: the organisation's reason no longer
    # repeated them ("same organisation Datadog, occurred 2023-03-08 vs 2019-06").
    assert match["reasons"][:2] == [
        "same organisation Datadog",
        "occurred 2023-03-08 vs 2019-06: far apart, so probably a different event",
    ]
    assert sum("2019-06" in reason for reason in match["reasons"]) == 1
    assert match["kind"] == "related"


@pytest.mark.parametrize("command", ["similar", "suggest"])
def test_files_and_all_at_once_are_a_usage_error(tmp_path, command):
    # The files were ignored: `--all` judged the library, and the output did not say so.
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    given = tmp_path / "IL-NEW-x.yaml"
    given.write_text(incident("IL-NEW-x"), encoding="utf-8")
    run = run_curator(command, str(given), "--all", "--root", str(root))
    assert (run.code, run.out) == (2, "")
    assert "give incident files or --all, not both" in run.err


def test_usage_and_input_errors_exit_2_without_traceback(tmp_path):
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    assert run_curator("similar", "--root", str(root)).code == 2
    broken = tmp_path / "broken.yaml"
    broken.write_text("- just\n- a list\n", encoding="utf-8")
    run = run_curator("similar", str(broken), "--root", str(root))
    assert run.code == 2
    assert f"{broken}:1:1: an incident is a mapping of keys to values, not a list" in run.err
    assert run_curator("similar", str(tmp_path / "missing.yaml"), "--root", str(root)).code == 2
    # A mapping with no incident text (a taxonomy file) was judged as an incident `causes`.
    taxonomy = root / "schema" / "taxonomy" / "causes.yaml"
    for command in ("similar", "suggest"):
        run = run_curator(command, str(taxonomy), "--root", str(root))
        assert (run.code, run.out) == (2, ""), run
        assert "causes.yaml: not an incident file" in run.err


# IL601's words for a tab where YAML takes none, which `curator fix`'s two spaces mend or not.
TAB_STOPS = (
    "a tab where YAML takes only spaces (to indent, and after an item's '-'), so the file "
    "cannot be read; use spaces"
)
NOT_MENDED = "; indent the line by hand: the two spaces `curator fix` puts for a tab do not mend it"


@pytest.mark.parametrize(
    ("tabbed", "at", "words"),
    [
        (("  - Example", "\t- Example"), "6:1", TAB_STOPS),
        (("status: published", "\tstatus: published"), "3:1", TAB_STOPS + NOT_MENDED),
    ],
    ids=["mended-by-fix", "not-mended"],
)
@pytest.mark.parametrize("command", ["similar", "suggest"])
def test_an_incident_that_cannot_be_read_is_named_with_line_and_column(
    tmp_path, command, tabbed, at, words
):
    # A tab was said in the loader's words ("YAML syntax error: found character that
    # cannot start any token: … replace it with spaces"), where lint says IL601's of the
    # same file: those, whether `curator fix` mends it or not, are said here too.
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    path = tmp_path / "IL-NEW-x.yaml"
    path.write_text(incident("IL-NEW-x", tabbed), encoding="utf-8")
    run = run_curator(command, str(path), "--root", str(root))
    assert (run.code, run.out) == (2, ""), run
    assert run.err == (
        f"curator: {path}:{at}: {words}; `curator lint {path}` lists every problem\n"
        "curator: 1 of 1 input not judged\n"
    )
    linted = run_curator("lint", path.name, "--root", str(root), cwd=tmp_path).out.splitlines()
    assert f"{path.name}:{at}: IL601 [error] {words}" in [
        line.removesuffix(" (fixable)") for line in linted
    ]


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("command", ["similar", "suggest"])
def test_inputs_that_cannot_be_judged_are_named_and_the_others_judged(tmp_path, command, fmt):
    # Lint's bar: a malformed file is a finding with its position, and the run goes on.
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    good = [tmp_path / f"IL-NEW-{name}.yaml" for name in ("a", "b", "c")]
    for path in good:
        path.write_text(incident(path.stem), encoding="utf-8")
    tabbed = tmp_path / "tabbed.yaml"
    tabbed.write_text(incident("IL-NEW-t", ("  - Example", "\t- Example")), encoding="utf-8")
    listed = tmp_path / "listed.yaml"
    listed.write_text("- just\n- a list\n", encoding="utf-8")
    taxonomy = root / "schema" / "taxonomy" / "causes.yaml"
    args = [command, "--root", str(root), "--format", fmt]

    run = run_curator(*args, *map(str, [good[0], tabbed, good[1], listed, taxonomy, good[2]]))
    alone = run_curator(*args, *map(str, good))

    assert alone.code == 0, alone
    assert run.code == 2, run
    assert run.out == alone.out  # the same judgements, in the order given
    if fmt == "json":
        assert [r["input"] for r in json.loads(run.out)] == list(map(str, good))
    else:
        headers = [line for line in run.out.splitlines() if not line.startswith(" ")]
        assert [line.split(" (")[0] for line in headers] == list(map(str, good))
    assert run.err.splitlines() == [
        f"curator: {tabbed}:6:1: {TAB_STOPS}; `curator lint {tabbed}` lists every problem",
        f"curator: {listed}:1:1: an incident is a mapping of keys to values, not a list; "
        f"`curator lint {listed}` lists every problem",
        f"curator: {taxonomy}: not an incident file (run `curator lint {taxonomy}`)",
        "curator: 3 of 6 inputs not judged",
    ]


@pytest.mark.parametrize("command", ["similar", "suggest"])
def test_all_names_each_library_file_it_cannot_judge(tmp_path, command):
    # `--all` judged what the index could read and passed over the rest without a word:
    # exit 0, as if every incident had been judged.
    root = write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": incident("IL-0001"),
            "IL-0002.yaml": incident("IL-0002", ("  - Example", "\t- Example")),
            "IL-0003.yaml": "- just\n- a list\n",
            "IL-0004.yaml": incident("IL-0004"),
        },
    )
    run = run_curator(command, "--all", "--format", "json", cwd=root)
    assert run.code == 2, run
    assert [r["input"] for r in json.loads(run.out)] == [
        "incidents/IL-0001.yaml",
        "incidents/IL-0004.yaml",
    ]
    assert run.err.splitlines() == [
        f"curator: incidents/IL-0002.yaml:6:1: {TAB_STOPS}; `curator lint "
        "incidents/IL-0002.yaml` lists every problem",
        "curator: incidents/IL-0003.yaml:1:1: an incident is a mapping of keys to values, not "
        "a list; `curator lint incidents/IL-0003.yaml` lists every problem",
        "curator: 2 of 4 inputs not judged",
    ]


@pytest.mark.parametrize("command", ["similar", "suggest"])
def test_json_stays_a_list_when_no_input_can_be_judged(tmp_path, command):
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    listed = tmp_path / "listed.yaml"
    listed.write_text("- just\n- a list\n", encoding="utf-8")
    run = run_curator(command, str(listed), "--root", str(root), "--format", "json")
    assert (run.code, json.loads(run.out)) == (2, []), run
    assert run.err == (
        f"curator: {listed}:1:1: an incident is a mapping of keys to values, not a list; "
        f"`curator lint {listed}` lists every problem\n"
        "curator: 1 of 1 input not judged\n"
    )


@pytest.mark.parametrize(
    ("text", "where", "kind"),
    [("# a note\n\n- just\n- a list\n", "3:1", "a list"), ("just text\n", "1:1", "plain text")],
)
@pytest.mark.parametrize("command", ["similar", "suggest"])
def test_a_document_not_a_mapping_is_named_where_lint_names_it(
    tmp_path, command, text, where, kind
):
    # It was "PATH: not an incident file", without a line and column, for what lint, fix
    # and fmt report at PATH:LINE:COLUMN as IL201, "an incident is a mapping ...".
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    draft = root / "incidents" / "IL-NEW-x.yaml"
    draft.write_text(text, encoding="utf-8")
    named = os.path.join("incidents", "IL-NEW-x.yaml")
    run = run_curator(command, named, cwd=root)
    linted = run_curator("lint", named, cwd=root)
    assert run.code == 2, run
    assert run.err.splitlines()[0] == (
        f"curator: {named}:{where}: an incident is a mapping of keys to values, not {kind}; "
        f"`curator lint {named}` lists every problem"
    )
    assert f"{named}:{where}: IL201 [error] an incident is a mapping of keys to values, " in (
        linted.out
    )


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("command", ["similar", "suggest"])
def test_a_library_with_no_incident_says_so(tmp_path, command, fmt):
    # It printed nothing at all in text: a run that found nothing read as one that did not run.
    root = write_library(tmp_path / "lib", {})
    every = run_curator(command, "--all", "--root", str(root), "--format", fmt)
    folder = run_curator(command, str(root / "incidents"), "--root", str(root), "--format", fmt)
    assert (every.code, folder.code) == (0, 0), (every, folder)
    assert every.out == folder.out == ("[]\n" if fmt == "json" else "")
    assert every.err == "curator: no incident to judge: incidents/ holds none\n"
    assert folder.err == "curator: no incident to judge: the folders given hold none\n"


def test_not_duplicate_of_is_checked_by_the_dangling_reference_rule(tmp_path):
    root = write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": incident("IL-0001") + "not_duplicate_of:\n  - IL-0002\n",
            "IL-0002.yaml": incident("IL-0002") + "not_duplicate_of:\n  - IL-9999\n",
        },
    )
    run = run_curator("lint", "--root", str(root))
    assert run.code == 1
    assert "IL401 [error] not_duplicate_of names IL-9999, but no incident has that id" in run.out
    assert "IL-0001.yaml" not in run.out


# --- the index on disk ------------------------------------------------------------------------


def test_a_cached_index_is_never_read_by_other_code(tmp_path, monkeypatch):
    # An entity rule changed without a new FORMAT must not meet the index built before it.
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    library = Library.at(root)
    before = store.index_path(library)
    monkeypatch.setattr(store, "code_context", lambda *others: ["curator, changed", *others])
    assert store.index_path(library) not in (before, None)


@pytest.mark.parametrize(("where", "name"), [(np, "__version__"), (store, "FORMAT")])
def test_a_cached_index_is_never_read_by_another_numpy_or_format(
    tmp_path, monkeypatch, where, name
):
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    library = Library.at(root)
    before = store.index_path(library)
    monkeypatch.setattr(where, name, f"{getattr(where, name)} changed")
    assert store.index_path(library) not in (before, None)


def test_a_cached_index_reads_back_every_record_as_built(tmp_path):
    root, _ = synthetic_library(tmp_path / "lib", count=200, defects_per_rule=0)
    built = build(Library.at(root))
    path = tmp_path / "index.npz"
    assert store.write(built, path)
    again = store.read(path)
    assert again is not None
    assert again.records == built.records  # every field but the text, which is not kept
    assert [r.facets for r in again.records] == [r.facets for r in built.records]
    # The synthetic library has all of what a record can hold, somewhere.
    assert any(r.duplicate_of for r in built.records)
    assert any(r.settled for r in built.records)
    assert any(r.urls for r in built.records) and any(r.organizations for r in built.records)
    assert all(r.occurred for r in built.records)


def test_index_is_cached_by_content_and_rebuilt_when_anything_changes(tmp_path):
    root = write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": incident("IL-0001"),
            "IL-0002.yaml": systemd("IL-0002", "https://e.com/a"),
        },
    )
    library = Library.at(root)
    first = store.load_index(library)
    cached = list((root / ".curator-cache").glob("similarity-*/index.npz"))
    assert cached == [store.index_path(library)]
    again = store.read(cached[0])
    assert again is not None and [r.id for r in again.records] == [r.id for r in first.records]
    key = store.library_key(library)
    (root / "incidents" / "IL-0001.yaml").write_text(
        incident("IL-0001", ("Example", "Other")), encoding="utf-8"
    )
    assert store.library_key(library) != key
    changed = store.load_index(library)
    assert changed.records[0].organizations == ("Other",)
    assert len(list((root / ".curator-cache").glob("similarity-*/index.npz"))) == 2


def test_the_cached_index_reads_back_as_built_and_stays_small(tmp_path):
    # Its 2^22 hashed columns were stored whole: 50 MB for any library, two incidents too.
    import numpy as np

    files = {
        "IL-0001.yaml": incident("IL-0001"),
        "IL-0002.yaml": systemd("IL-0002", "https://e.com/a"),
    }
    library = Library.at(write_library(tmp_path / "lib", files))
    built = store.load_index(library)
    path = store.index_path(library)
    assert path is not None and path.stat().st_size < 1_000_000
    again = store.read(path)
    assert again is not None
    assert again.idf.dtype == built.idf.dtype and again.idf.tobytes() == built.idf.tobytes()
    for name in ("indptr", "rows", "values"):
        ours, theirs = getattr(again.text, name), getattr(built.text, name)
        assert ours.dtype == theirs.dtype and np.array_equal(ours, theirs), name


def test_a_corrupt_or_planted_cache_file_is_ignored(tmp_path):
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    library = Library.at(root)
    planted = store.index_path(library)
    assert planted is not None
    planted.write_bytes(b"PK\x03\x04 not a real archive")
    assert store.read(planted) is None
    index = store.load_index(library)
    assert [r.id for r in index.records] == ["IL-0001"]
    assert store.read(planted) is not None  # rewritten whole, atomically


@pytest.mark.parametrize(
    "content",
    [b"", b"[3]", b"[" * 100_000],
    ids=["empty", "meta-not-an-object", "meta-nested-too-deep-to-parse"],
)
def test_an_empty_cache_file_or_one_of_another_shape_is_rebuilt(tmp_path, content):
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    planted = store.index_path(Library.at(root))
    assert planted is not None
    if content:  # a whole archive, whose meta is not an object (or JSON too deep to read)
        with planted.open("wb") as out:
            np.savez(out, meta=np.frombuffer(content, np.uint8))
    else:
        planted.write_bytes(b"")
    run = run_curator("search", "--root", str(root), "메타데이터 포화", "--quiet")
    assert run.code == 0, run.err
    assert "IL-0001" in run.out
    assert store.read(planted) is not None


def test_concurrent_runs_share_the_cache_safely(tmp_path):
    import subprocess

    root = write_library(
        tmp_path / "lib",
        {f"IL-000{i}.yaml": systemd(f"IL-000{i}", f"https://e.com/{i}") for i in range(1, 6)},
    )
    command = [sys.executable, "-m", "curator", "similar", "--all", "--format", "json"]
    runs = [
        subprocess.Popen([*command, "--root", str(root)], stdout=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    outputs = [run.communicate()[0] for run in runs]
    assert [run.returncode for run in runs] == [0, 0, 0, 0]
    assert len(set(outputs)) == 1 and json.loads(outputs[0])[0]["matches"]
    cached = list((root / ".curator-cache").glob("similarity-*/*"))
    assert [p.name for p in cached] == ["index.npz"]  # no temporary file left behind
    assert similar_json("--all", "--root", str(root)) == json.loads(outputs[0])


def test_index_search_matches_brute_force_cosine(tmp_path):
    """The column-gather of the inverted index equals a plain dot product."""
    import numpy as np

    root = write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": incident("IL-0001"),
            "IL-0002.yaml": systemd("IL-0002", "https://e.com/a"),
            "IL-0003.yaml": systemd("IL-0003", "https://e.com/b", ("Datadog", "Example")),
        },
    )
    library = Library.at(root)
    index = build(library)
    # (Named as the index names it, as `curator similar` names it: the file is not its own
    # match, though it would be under another name.)
    query = read_record(root / "incidents" / "IL-0002.yaml", "incidents/IL-0002.yaml")
    assert query is not None
    vector = index.vector(query.text)
    got = index.cosine(vector)
    for row in range(len(index)):
        other = read_record(root / index.records[row].path)
        assert other is not None
        doc = index.vector(other.text)
        _, mine, theirs = np.intersect1d(vector.cols, doc.cols, return_indices=True)
        expected = float(vector.weights[mine] @ doc.weights[theirs])
        assert got[row] == pytest.approx(expected, abs=1e-5)
    assert int(np.argmax(got)) == 1
    assert Judge(index).similar(query)[0].id == "IL-0003"


# --- quality, on the labelled evaluation set ---------------------------------------------------


@pytest.fixture(scope="module")
def report():
    return evaluation.evaluate(REPO)


def test_duplicates_are_found(report):
    figures = report.all_pairs
    assert figures.queries >= 19
    assert figures.recall_at_1 >= 0.9, figures.misses
    assert figures.recall_at_5 >= 0.95, figures.misses


def test_korean_and_english_write_ups_of_one_event_find_each_other(report):
    assert report.written_pairs.queries == 3
    assert report.written_pairs.recall_at_1 >= 0.66, report.written_pairs.misses


def test_flagged_duplicates_are_precise(report):
    figures = report.all_pairs
    assert figures.flagged >= 12
    assert figures.precision >= 0.9
    assert figures.hard_negatives >= 300
    assert figures.hard_negatives_flagged <= 2


def test_same_event_pairs_are_flagged_and_each_one_that_is_not_is_named_with_its_score(report):
    # Found at rank 1 is not found by a reviewer who reads only the possible duplicates:
    # IL-0201, a second write-up of IL-0200's outage, was right at rank 1 at 0.26, and no
    # figure of the evaluation said it was not flagged.
    figures = report.all_pairs
    assert figures.same_event_flagged >= figures.queries - 2
    assert len(figures.unflagged) == figures.queries - figures.same_event_flagged
    for line in figures.unflagged:
        found = re.search(r": (IL-\d+) at (\d\.\d+): .*text similarity \d\.\d+$", line)
        assert found, line
        assert float(found[2]) < DUPLICATE_THRESHOLD


def test_new_english_write_up_is_flagged_against_the_bundled_library():
    [result] = similar_json(str(EVAL / "IL-NEW-datadog-systemd-en.yaml"), "--root", str(REPO))
    top = result["matches"][0]
    assert (top["id"], top["kind"]) == ("IL-0198", "duplicate")


@pytest.mark.parametrize("workers", [1, 2])
def test_building_the_index_reports_progress_up_to_every_file(tmp_path, workers):
    items = [(path, path.name) for path in sorted((REPO / "incidents").glob("*.yaml"))]
    items = items * 40  # past the point where worker processes are used
    calls: list[tuple[int, int]] = []
    index = build_from(items, workers, lambda done, total: calls.append((done, total)))
    assert len(index.records) == len(items)
    assert calls[-1] == (len(items), len(items))
    assert [done for done, _ in calls] == sorted({done for done, _ in calls})  # rising
    assert len(calls) == -(-len(items) // 1000)  # one call per chunk of files


def test_a_fifo_or_device_in_incidents_is_skipped_not_read(tmp_path):
    # Reading a FIFO blocks until a writer comes; a link to /dev/zero never ends.
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    os.mkfifo(root / "incidents" / "IL-0002.yaml")
    (root / "incidents" / "IL-0003.yaml").symlink_to("/dev/zero")
    run = run_curator_within(10, "search", "--root", str(root), "--format", "json", "nccl")
    assert run.returncode == 0, run.stderr
    assert [r["id"] for r in json.loads(run.stdout)["results"]] == ["IL-0001"]


def test_a_link_to_an_incident_outside_the_library_is_never_read(tmp_path):
    # In a pull request a link could point anywhere on the runner (lint: IL107).
    outside = tmp_path / "outside.yaml"
    outside.write_text(incident("IL-0002"), encoding="utf-8")
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    (root / "incidents" / "IL-0002.yaml").symlink_to(outside)
    run = run_curator("search", "--root", str(root), "--format", "json", "nccl")
    assert run.code == 0, run.err
    assert [r["id"] for r in json.loads(run.out)["results"]] == ["IL-0001"]
    named = run_curator("similar", "--root", str(root), str(root / "incidents" / "IL-0002.yaml"))
    assert named.code == 2 and "IL-0002" not in named.out, named


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_file_is_no_record_as_it_is_no_incident_to_lint(tmp_path, codec):
    # PyYAML decodes UTF-16 by its byte-order mark; lint refuses it (IL103): the same here.
    path = tmp_path / "IL-0001.yaml"
    path.write_bytes(("\ufeff" + incident("IL-0001")).encode(codec))
    assert read_record(path) is None
    path.write_bytes(incident("IL-0001").encode("utf-8"))
    record = read_record(path)
    assert record is not None and record.id == "IL-0001"


def test_a_file_is_the_same_record_whichever_reader_reads_it(tmp_path):
    # The layout `curator fmt` writes is read without libyaml; anything else through it.
    canonical = incident("IL-0001")
    quoted = incident("IL-0001", ("status: published", "status: 'published'"))
    other = "# a comment: libyaml's to read\n" + quoted
    assert read_canonical(canonical) is not None and read_canonical(other) is None
    records = []
    for name, text in (("canonical.yaml", canonical), ("other.yaml", other)):
        (tmp_path / name).write_text(text, encoding="utf-8")
        records.append(read_record(tmp_path / name, "incidents/IL-0001.yaml"))
    first, second = records
    assert first is not None and first.id == "IL-0001" and first.status == "published"
    assert vars(first) == vars(second)


def test_a_file_name_that_is_not_utf8_is_indexed_and_shown(tmp_path):
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    odd = os.fsdecode(b"IL-0002\xff.yaml")
    (root / "incidents" / odd).write_text(incident("IL-0002"), encoding="utf-8")
    run = run_curator("similar", "--root", str(root), "--all", "--format", "json")
    assert run.code in (0, 1), run.err
    shown = {entry["input"] for entry in json.loads(run.out)}
    assert shown == {"incidents/IL-0001.yaml", f"incidents/{odd}"}
    index = store.load_index(Library.at(root))
    assert odd in {record.path.rsplit("/", 1)[-1] for record in index.records}
    again = store.read(store.index_path(Library.at(root)))  # the cached copy keeps the name
    assert again is not None and {r.path for r in again.records} == {r.path for r in index.records}


def run_curator_within(seconds: float, *args: str) -> subprocess.CompletedProcess[str]:
    """`curator ARGS`, failing the test instead of hanging it."""
    return subprocess.run(
        [sys.executable, "-m", "curator", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=seconds,
        check=False,
    )


def test_a_half_is_read_only_where_it_means_one():
    assert entities("4시간 반복해 재시작했다") == {"4h"}  # 반복: "repeatedly", no half


def test_top_caps_the_matches_of_each_input_keeping_the_best(tmp_path):
    # Four retellings of one template: each is related to the three others.
    root = write_library(
        tmp_path / "lib", {f"IL-000{n}.yaml": incident(f"IL-000{n}") for n in range(1, 5)}
    )
    path = str(root / "incidents" / "IL-0001.yaml")
    [every] = similar_json(path, "--root", str(root))
    assert len(every["matches"]) == 3
    [best] = similar_json(path, "--top", "1", "--root", str(root))
    assert best["matches"] == every["matches"][:1]
    assert run_curator("similar", path, "--top", "0", "--root", str(root)).code == 2


# `curator similar` whose main process gets Ctrl-C as the index's workers fork, while an
# at-fork hook runs in it (logging registers some). Workers from 2 files on, two of them
# (as on a machine of two CPUs or more).
_CTRL_C_AS_THE_INDEX_WORKERS_FORK = """
import os, signal
import curator.similarity.index
curator.similarity.index._PARALLEL_FROM = 2
os.cpu_count = lambda: 2
os.register_at_fork(after_in_parent=lambda: signal.raise_signal(signal.SIGINT))
from curator.__main__ import main
main()
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked workers: Linux")
def test_ctrl_c_as_the_index_workers_fork_stops_the_run(tmp_path):
    # The index's own pool forked outside `deferred`: Python reported the KeyboardInterrupt
    # raised in the at-fork hook ("Exception ignored in: …") and dropped it, and the run
    # went on to print its matches and exit 0.
    names = ("IL-0001.yaml", "IL-0002.yaml", "IL-0003.yaml")
    root = write_library(tmp_path / "lib", {name: incident(name[:-5]) for name in names})
    args = ("similar", "--root", str(root), "--quiet", str(root / "incidents" / names[0]))
    run = ended(start_python("-c", _CTRL_C_AS_THE_INDEX_WORKERS_FORK, *args))
    assert (run.code, run.out, run.err) == (2, "", "curator: interrupted\n")


# `curator similar` sent Ctrl-C once the index is written to its temporary file, before
# that file is put in place.
_CTRL_C_AS_THE_INDEX_IS_SAVED = """
import signal
import numpy as np
save = np.savez
def saved_then_stopped(*args, **options):
    save(*args, **options)
    signal.raise_signal(signal.SIGINT)
np.savez = saved_then_stopped
from curator.__main__ import main
main()
"""


@pytest.mark.parametrize(
    ("codec", "index"),
    [("encodings.utf_32_le", "built"), ("encodings.cp437", "read from the cache")],
)
def test_ctrl_c_as_similar_loads_a_codec_is_not_dropped(tmp_path, codec, index):
    # Python loads a codec's module on its first use: UTF-32 for the text's features as the
    # index is built, the zip's file names as a kept one is read. A stop then, mid-run, was
    # printed ("Exception ignored in: …") and dropped, and the command printed its results.
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    args = ("similar", "--root", str(root), "--quiet", "--all")
    if index == "read from the cache":
        assert run_curator(*args).code == 0
    run = stopped_as_it_loads(codec, *args)
    assert (run.code, run.out, run.err) == (2, "", "curator: interrupted\n")


def test_ctrl_c_as_the_index_is_saved_leaves_no_part_of_it_in_the_cache(tmp_path):
    # Only an OSError deleted the temporary file: each index stopped as it was saved stayed
    # in .curator-cache for good (`similarity-…/.tmp-k2x8.part`, as large as the index).
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    args = ("similar", "--root", str(root), "--quiet", "--all")
    run = ended(start_python("-c", _CTRL_C_AS_THE_INDEX_IS_SAVED, *args))
    assert (run.code, run.out, run.err) == (2, "", "curator: interrupted\n")
    [folder] = (root / ".curator-cache").glob("similarity-*")
    assert list(folder.iterdir()) == []


def test_the_index_built_in_worker_processes_is_the_one_built_here(monkeypatch):
    # Below ~3,000 files the build stays in one process: lowered here, so that the pool
    # (curator's Workers, as lint's and export's) is used.
    import curator.similarity.index as index
    from curator.workers import Workers

    pools: list[int] = []

    class Recorded(Workers):
        def __enter__(self) -> Workers:
            pools.append(self.count)
            return super().__enter__()

    monkeypatch.setattr(index, "Workers", Recorded)
    monkeypatch.setattr(index, "_PARALLEL_FROM", 2)
    monkeypatch.setattr(index, "_CHUNK", 20)
    library = Library.at(REPO)
    items = [(p, p.relative_to(REPO).as_posix()) for p in library.incident_paths()]
    serial, parallel = build_from(items, workers=1), build_from(items, workers=2)
    assert pools == [1, 2]
    assert [r.id for r in parallel.records] == [r.id for r in serial.records]
    assert parallel.entity_names == serial.entity_names
    assert (parallel.idf == serial.idf).all()
    # The postings too, which are made chunk by chunk on as many threads as workers.
    for array in ("indptr", "rows", "values"):
        assert np.array_equal(getattr(parallel.text, array), getattr(serial.text, array))
    judged = {r.id: Judge(parallel).neighbours(r, 3) for r in serial.records[:5]}
    assert judged == {r.id: Judge(serial).neighbours(r, 3) for r in serial.records[:5]}


@pytest.mark.parametrize(
    ("mine", "theirs", "said"),
    [
        (None, None, "same organisation Datadog, neither gives a date"),
        ("2023-03-08", None, "same organisation Datadog, occurred 2023-03-08 vs date not given"),
    ],
)
def test_an_unknown_date_is_said_in_words(tmp_path, mine, theirs, said):
    def dated(text: str, occurred: str | None) -> str:
        line = "occurred: 2023-03-08\n"
        return text.replace(line, f"occurred: {occurred}\n" if occurred else "")

    root = write_library(
        tmp_path / "lib", {"IL-0001.yaml": dated(systemd("IL-0001", "https://a.example/"), theirs)}
    )
    new = tmp_path / "IL-NEW-english.yaml"
    new.write_text(dated(ENGLISH, mine), encoding="utf-8")
    [result] = similar_json(str(new), "--root", str(root))
    assert said in result["matches"][0]["reasons"], result["matches"][0]["reasons"]


class _TouchesWhenUnpickled:
    """A pickle that, were it ever unpickled, would create `path`: planted in an index, it
    tells whether reading the index runs what the file holds."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[object, tuple[Path]]:
        return (Path.touch, (self.path,))


def test_a_pickle_planted_in_the_cached_index_is_never_run(tmp_path):
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    planted = store.index_path(Library.at(root))
    assert planted is not None
    ran = tmp_path / "ran"
    with planted.open("wb") as out:  # np.savez pickles an array of objects
        np.savez(out, meta=np.array([_TouchesWhenUnpickled(ran)], dtype=object))
    assert store.read(planted) is None
    assert not ran.exists()  # read, it would have run: the cache must never execute data


def _fails(*args: object, **kwargs: object) -> None:
    raise OSError(28, "No space left on device")


@pytest.mark.parametrize("failing", ["mkstemp", "replace"])
def test_an_index_that_cannot_be_written_leaves_nothing_and_the_command_answers(
    tmp_path, monkeypatch, failing
):
    # A full disk or a read-only folder (which tests run as root cannot make with chmod):
    # the index is built and used as if there were no cache, and no part file is left.
    files = {
        "IL-0001.yaml": incident("IL-0001"),
        "IL-0002.yaml": systemd("IL-0002", "https://e.com/a"),
    }
    library = Library.at(write_library(tmp_path / "lib", files))
    path = store.index_path(library)
    assert path is not None
    built = build(library)
    where = tempfile if failing == "mkstemp" else store.os
    with monkeypatch.context() as patched:
        patched.setattr(where, failing, _fails)
        assert store.write(built, path) is False
        index = store.load_index(library)
    assert [r.id for r in index.records] == ["IL-0001", "IL-0002"]
    assert list(path.parent.iterdir()) == []  # neither the index nor a temporary file
    path.parent.rmdir()  # as another run's housekeeping may do: the folder is made again
    assert store.write(built, path) is True
    assert [p.name for p in path.parent.iterdir()] == ["index.npz"]


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Отказ диска", "Отказ сети"),
        ("Σφάλμα δίσκου", "Σφάλμα δικτύου"),
        ("東京リージョン", "大阪リージョン"),
        ("存储集群故障", "网络集群故障"),
    ],
)
def test_text_in_greek_cyrillic_kana_and_cjk_ideographs_has_features(one, other):
    # None was read: two titles differing only in such words had the same (empty) text.
    assert len(features(one)) and len(features(other))
    assert set(features(one).tolist()) != set(features(other).tolist())


def test_hangul_and_latin_text_gives_the_features_it_gave_before():
    text = "NCCL의 타임아웃이 ÷ Ünïcode flapping 링크"
    words = ["nccl", "ünïcod", "flap"]
    bigrams = [(ord(a) << 21) | ord(b) for a, b in ("타임", "임아", "아웃", "웃이", "링크")]
    trigrams = [
        (ord(a) << 42) | (ord(b) << 21) | ord(c) for a, b, c in ("타임아", "임아웃", "아웃이")
    ]
    expected = bigrams + trigrams + [text_module._word_feature(w) for w in words]
    assert sorted(features(text).tolist()) == sorted(expected)


@pytest.mark.parametrize(
    "where", ["incidents/IL-0001.yml", "incidents/IL-0003.yaml", "drafts/IL-0001.yaml"]
)
def test_a_copy_under_another_name_finds_the_incident_whose_id_it_kept(tmp_path, where):
    # The candidates left out every incident carrying the input's id, not only the input:
    # a copy of IL-0001 that kept its id had "0 possible duplicates".
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    copy = (root if where.startswith("incidents/") else tmp_path) / where
    copy.parent.mkdir(exist_ok=True)
    copy.write_text(incident("IL-0001"), encoding="utf-8")
    [result] = similar_json(str(copy), "--root", str(root))
    [match] = result["matches"]
    assert (result["id"], match["id"], match["path"]) == (
        "IL-0001",
        "IL-0001",
        "incidents/IL-0001.yaml",
    )
    assert (match["kind"], match["score"]) == ("duplicate", 1.0)
    assert "same source URL https://example.com/postmortems/IL-0001" in match["reasons"]
    # The library's own file is still never its own match, whatever else holds its id.
    [result] = similar_json(str(root / "incidents" / "IL-0001.yaml"), "--root", str(root))
    held = ["incidents/IL-0003.yaml"] if where == "incidents/IL-0003.yaml" else []
    assert [m["path"] for m in result["matches"]] == held


@pytest.mark.parametrize("name", ["IL-0002.yml", "IL-0002.YAML", "IL-0002.yaml.txt"])
def test_a_file_lint_never_reads_is_no_incident_s_duplicate(tmp_path, name):
    # The index read every name meant as an incident, `IL-0002.yml` too: lint reports it
    # (IL107) and the library never publishes it, yet IL-0001 was "duplicate 1.00 IL-0002".
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    copy = incident("IL-0001").replace("id: IL-0001", "id: IL-0002")
    (root / "incidents" / name).write_text(copy, encoding="utf-8")
    for _ in ("built", "from the cache"):
        [result] = similar_json(str(root / "incidents" / "IL-0001.yaml"), "--root", str(root))
        assert result["matches"] == [], result
    # Every file judged (`--all`): it is said not to be an incident file, as lint says it.
    run = run_curator("similar", "--all", "--root", str(root), "--format", "json", cwd=root)
    assert run.code == 2 and [r["id"] for r in json.loads(run.out)] == ["IL-0001"], run
    assert f"incidents/{name}: not an incident file: " in run.err and "(IL107)" in run.err, run


def test_an_organisation_named_in_another_organisations_incident_is_a_shared_entity(tmp_path):
    # Leaving an incident's organisation names out of every comparison (they are said as
    # "same organisation") also lost them against a customer's write-up that names the
    # provider: there the name is the evidence, not the organisation.
    said = ("학습 처리량이 떨어졌다.", "Acme 리전 장애로 학습 처리량이 떨어졌다.")
    provider = incident("IL-0001", ("Example", "Acme"), said)
    customer = incident("IL-0002", ("Example", "Globex"), said)
    root = write_library(tmp_path, {"IL-0001.yaml": provider, "IL-0002.yaml": customer})
    judge = Judge(build(Library.at(root)))
    record = read_record(root / "incidents" / "IL-0001.yaml", "incidents/IL-0001.yaml")
    assert record is not None
    match = judge.compare(record, "IL-0002")
    assert match is not None
    assert not any(reason.startswith("same organisation") for reason in match.reasons)
    assert "acme" in next(r for r in match.reasons if r.startswith("shared entities: "))


def test_a_file_of_the_library_it_may_not_read_is_named_and_counts_once_it_can_be_read(
    tmp_path,
):
    # `similar`, `suggest` and `search` went without a file of the library they could not
    # read (no permission) without a word, exit 0: a draft repeating its incident was said
    # to repeat none. It is named as lint names it, on standard error, run after run (the
    # index is cached), and counts again once it can be read.
    root = write_library(
        tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001"), "IL-NEW-gl.yaml": GITLAB_EN}
    )
    draft = tmp_path / "draft.yaml"
    draft.write_text(incident("IL-NEW-copy"), encoding="utf-8")
    unread = root / "incidents" / "IL-0001.yaml"

    def runs() -> dict[str, tuple[int, bool, str]]:
        """Each command's exit status, whether it names IL-0001 (or, `suggest`, judges the
        draft), and what it says on standard error."""
        found = {}
        for command in (
            ["similar", str(draft)],
            ["suggest", str(draft)],
            ["search", "메타데이터 포화"],
        ):
            run = run_curator(*command, "--format", "json", cwd=root, permissions=True)
            output = json.loads(run.out)
            if command[0] == "similar":
                named = any(m["id"] == "IL-0001" for m in output[0]["matches"])
            elif command[0] == "search":
                named = any(r["id"] == "IL-0001" for r in output["results"])
            else:
                named = [judged["id"] for judged in output] == ["IL-NEW-copy"]
            found[command[0]] = (run.code, named, run.err)
        return found

    said = "curator: note: incidents/IL-0001.yaml: cannot read the file: Permission denied (IL107)"
    unread.chmod(0o000)
    try:
        for _ in range(2):  # built, then read from the cache
            assert runs() == {
                "similar": (0, False, f"{said}; judged without it\n"),
                "suggest": (0, True, f"{said}; judged without it\n"),
                "search": (0, False, f"{said}; searched without it\n"),
            }
    finally:
        unread.chmod(0o644)
    assert runs() == {
        "similar": (0, True, ""),
        "suggest": (0, True, ""),
        "search": (0, True, ""),
    }


def test_a_file_of_the_library_lint_does_not_read_is_named_where_lint_names_it(tmp_path):
    # `similar`, `suggest` and `search` went without a file of the library that lint does
    # not read as a YAML mapping (a syntax error, a tab, a list, not UTF-8) without a word,
    # exit 0. Each is named once, where lint reports the problem that keeps it out, with
    # lint's code, run after run (the index is cached). A draft and a withdrawn copy, which
    # the index holds, are not named; nor a key given twice, which keeps nothing out.
    broken = {
        "IL-0004.yaml": incident("IL-0004", ("title: 공유", "title: 경고: 공유")),
        "IL-0005.yaml": "- just\n- a list\n",
        "IL-0007.yaml": incident("IL-0007", ("  - Example", "\t- Example")),
        "IL-0008.yaml": incident(
            "IL-0008",
            ("status: published", "title: 다시\nstatus: published"),
            ("title: Storage postmortem", "title: Storage: postmortem"),
        ),
        "IL-0009.yaml": incident("IL-0009", ("status: published", "\tstatus: published")),
    }
    root = write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": systemd("IL-0001", "https://example.com/a"),
            "IL-0002.yaml": withdrawn_copy("IL-0002", "IL-0001", "https://example.com/b"),
            "IL-0003.yaml": systemd(
                "IL-0003", "https://example.com/c", ("status: published", "status: draft")
            ),
            **broken,
        },
    )
    not_utf8 = incident("IL-0006").encode().replace(b"Example", b"Ex\xc0ample")
    (root / "incidents" / "IL-0006.yaml").write_bytes(not_utf8)
    draft = tmp_path / "draft.yaml"
    draft.write_text(systemd("IL-NEW-x", "https://example.com/a"), encoding="utf-8")
    syntax = (
        "YAML syntax error: mapping values are not allowed in this context: a ': ' inside a "
        'value starts another key; put the whole value in double quotes ("…") or write it as '
        "a `|` block (IL101)"
    )
    said = [
        f"incidents/IL-0004.yaml:2:10: {syntax}",
        "incidents/IL-0005.yaml:1:1: an incident is a mapping of keys to values, not a list "
        "(IL201)",
        "incidents/IL-0006.yaml:6:7: not valid UTF-8 (byte 0xc0 at offset 158); save the file "
        "as UTF-8 (IL103)",
        f"incidents/IL-0007.yaml:6:1: {TAB_STOPS} (IL601)",
        f"incidents/IL-0008.yaml:28:19: {syntax}",
        f"incidents/IL-0009.yaml:3:1: {TAB_STOPS}{NOT_MENDED} (IL601)",
    ]
    # Each in lint's words, all of them, at lint's place, under lint's code. (A tab's were
    # said without what lint adds where `curator fix` does not mend it.)
    linted = [
        line.removesuffix(" (fixable)") for line in run_curator("lint", cwd=root).out.splitlines()
    ]
    for note in said:
        where, why = note.split(": ", 1)
        message, code = why.rsplit(" (", 1)
        assert f"{where}: {code[:-1]} [error] {message}" in linted
    for _ in range(2):  # built, then read from the cache
        for command, done in (
            (["similar", str(draft)], "judged"),
            (["suggest", str(draft)], "judged"),
            (["search", "systemd-networkd"], "searched"),
        ):
            run = run_curator(*command, cwd=root)
            assert run.code == 0, run
            assert run.err.splitlines() == [
                f"curator: note: {note}; {done} without it" for note in said
            ]
            assert command[0] == "suggest" or "IL-0001" in run.out  # (it judges the rest)


def test_past_the_first_ten_files_left_out_it_says_how_many_more(tmp_path):
    # A library of many files that lint does not read gets ten notes, and a count of the
    # rest, rather than a page of them.
    files = {f"IL-{n:04}.yaml": "- a list\n" for n in range(2, 15)}
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001"), **files})
    run = run_curator("search", "메타데이터", cwd=root)
    assert run.code == 0, run
    assert run.err.splitlines() == [
        *(
            f"curator: note: incidents/IL-{n:04}.yaml:1:1: an incident is a mapping of keys to "
            "values, not a list (IL201); searched without it"
            for n in range(2, 12)
        ),
        "curator: note: 3 more files of the library cannot be read as an incident; searched "
        "without them (`curator lint` names each)",
    ]


def test_an_input_is_named_where_its_syntax_error_stops_it_not_at_a_key_given_twice(tmp_path):
    # A key given twice before a syntax error was named as why it was not judged, where
    # the loader read on past it and stopped at the syntax error.
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    draft = tmp_path / "IL-NEW-x.yaml"
    draft.write_text(
        incident(
            "IL-NEW-x",
            ("status: published", "title: 다시\nstatus: published"),
            ("title: Storage postmortem", "title: Storage: postmortem"),
        ),
        encoding="utf-8",
    )
    run = run_curator("similar", str(draft), cwd=root)
    assert run.code == 2, run
    assert run.err.splitlines()[0] == (
        f"curator: {draft}:28:19: YAML syntax error: mapping values are not allowed in this "
        "context: a ': ' inside a value starts another key; put the whole value in double "
        'quotes ("…") or write it as a `|` block; '
        f"`curator lint {draft}` lists every problem"
    )


@pytest.mark.parametrize(
    ("edit", "alike"),
    [
        ({"facets": {"causes": ["human-error"]}}, True),
        ({"sources": [{"url": "https://EXAMPLE.com/a", "title": "A", "publisher": "B"}]}, True),
        ({"title": "다른 제목"}, False),
        ({"lessons": "새 교훈"}, False),
        ({"sources": [{"url": "https://example.com/b", "title": "A"}]}, False),
        ({"sources": [{"url": "https://example.com/a", "title": "B"}]}, False),
        ({"related": ["IL-0009"]}, False),
        ({"status": "draft"}, False),
        ({"occurred": "2024-06"}, False),
        ({"organizations": ["Other"]}, False),
        ({"id": "IL-0002"}, False),
    ],
)
def test_two_versions_read_alike_when_they_differ_only_in_what_similar_does_not_read(
    edit: dict, alike: bool
) -> None:
    base = {
        "id": "IL-0001",
        "title": "스토리지 포화",
        "status": "published",
        "occurred": "2024-05",
        "organizations": ["Example"],
        "facets": {"causes": ["capacity-limit"]},
        "lessons": "교훈",
        "sources": [{"url": "https://example.com/a", "title": "A"}],
    }
    assert read_alike(base, {**base, **edit}, "IL-0001") is alike
    assert read_alike(base, dict(base), "IL-0001")


def test_the_names_of_a_librarys_files_are_those_of_the_files_the_index_reads(tmp_path):
    # `library_names` lists them for the review without a Path made of each: the same
    # regular `.yaml` files `library_items` gives, no link, FIFO, folder, `.yml` or
    # hidden file among them.
    root = write_library(
        tmp_path / "lib",
        {"IL-0001.yaml": incident("IL-0001"), "IL-0002.yml": incident("IL-0002")},
    )
    folder = root / "incidents"
    (folder / ".IL-0003.yaml").write_text(incident("IL-0003"), encoding="utf-8")
    (folder / "IL-0004.yaml").symlink_to(folder / "IL-0001.yaml")
    (folder / "IL-0005.yaml").mkdir()
    os.mkfifo(folder / "IL-0006.yaml")
    (folder / "IL-0007.yaml").write_text(incident("IL-0007"), encoding="utf-8")
    library = Library.at(root)
    names = index_module.library_names(library)
    assert names == ["IL-0001.yaml", "IL-0007.yaml"]
    assert [p for p, _ in index_module.library_items(library)] == [folder / n for n in names]


def test_the_index_is_read_without_the_cyclic_collector_which_is_on_again_after(
    tmp_path, monkeypatch
):
    # Decoding the records of 100,000 incidents made the collector go through every object
    # of the run, again and again (0.8 s of a warm `curator review`), for no cycle.
    root = write_library(
        tmp_path / "lib", {f"IL-000{n}.yaml": incident(f"IL-000{n}") for n in range(1, 6)}
    )
    library = Library.at(root)
    built = store.load_index(library)  # (kept in the cache)
    path = store.index_path(library)
    assert path is not None and path.is_file()
    collector_on: list[tuple[str, bool]] = []
    for name in ("_json", "records_from_json"):
        real = getattr(store, name)
        monkeypatch.setattr(
            store, name, lambda x, n=name, f=real: collector_on.append((n, gc.isenabled())) or f(x)
        )
    assert gc.isenabled()
    kept = store.read(path)
    assert kept is not None and kept.records == built.records
    assert collector_on == [("_json", False), ("_json", False), ("records_from_json", False)]
    assert gc.isenabled()
