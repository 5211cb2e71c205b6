"""`curator search`: taxonomy values recognised in the query, ranked incidents, filters."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import run_curator, write_library

from curator.library import Library
from curator.similarity.index import buckets, build
from curator.similarity.text import features
from incidents import incident

STALL = (
    ("학습 처리량이 떨어졌다.", "NCCL 타임아웃 뒤 학습이 멈췄다."),
    ("    - throughput-degradation\n", "    - training-stall\n"),
)


@pytest.fixture
def library(tmp_path):
    withdrawn = (
        incident(
            "IL-0004",
            *STALL,
            ("status: published", "status: withdrawn"),
            ("https://example.com/postmortems/IL-0004", "https://example.com/other"),
        )
        + "duplicate_of: IL-0001\nwithdrawn_reason: |\n  같은 사건이다.\n"
    )
    return write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": incident("IL-0001", *STALL),
            "IL-0002.yaml": incident("IL-0002"),
            "IL-0003.yaml": incident(
                "IL-0003",
                ("    - nccl\n", "    - weka\n"),
                ("학습 처리량이 떨어졌다.", "Weka 스토리지의 메타데이터 서버가 포화됐다."),
            ),
            "IL-0004.yaml": withdrawn,
        },
    )


def search_json(*args: str) -> dict:
    run = run_curator("search", *args, "--format", "json")
    assert run.code == 0, run.err
    return json.loads(run.out)


def test_query_values_are_recognised_like_the_seed_pages_filters(library):
    found = search_json("NCCL 타임아웃 때문에 학습이 멈춤", "--root", str(library))
    recognised = {(r["dimension"], r["term"]) for r in found["recognised"]}
    assert recognised == {("components", "nccl"), ("symptoms", "training-stall")}
    ids = [r["id"] for r in found["results"]]
    assert ids[0] == "IL-0001"  # carries both recognised values
    assert "IL-0004" not in ids  # withdrawn: it repeats IL-0001
    top = found["results"][0]
    assert set(top) >= {"id", "score", "title", "reasons"}
    assert "carries training-stall (학습 멈춤)" in top["reasons"]
    assert "carries nccl (NCCL)" in top["reasons"]


def test_a_step_taken_is_no_symptom_recognised(library):
    # 학습을 멈추고: operators stopped training, no training-stall (학습 멈춤, 학습이 멈).
    found = search_json("학습을 멈추고 노드를 교체했다", "--root", str(library))
    assert found["recognised"] == []
    found = search_json("학습이 멈추고 노드가 빠졌다", "--root", str(library))
    assert [r["term"] for r in found["recognised"]] == ["training-stall"]


def test_scores_are_ordered_and_in_range(library):
    found = search_json("NCCL 타임아웃", "--root", str(library))
    scores = [r["score"] for r in found["results"]]
    assert scores == sorted(scores, reverse=True)
    assert all(0 < s <= 1 for s in scores)
    assert found["total"] == len(found["results"])


def test_explicit_filters_are_hard_and_include_children(library):
    found = search_json("처리량", "--component", "weka", "--root", str(library))
    assert [r["id"] for r in found["results"]] == ["IL-0003"]
    assert found["filters"] == {"components": ["weka"]}
    parent = search_json("", "--component", "shared-network-filesystem", "--root", str(library))
    assert [r["id"] for r in parent["results"]] == ["IL-0003"]  # weka is its child


OLD_NCCL = """\
  - id: old-nccl
    label: {ko: 옛 NCCL, en: Old NCCL}
    description: 시험용으로 없앤 용어.
    deprecated: {replaced_by: nccl, reason: nccl 로 합쳤다.}
"""


def test_a_deprecated_term_and_its_replacement_filter_alike_before_and_after_fix(tmp_path):
    # `--component old-nccl` found no incident once `curator fix` had replaced it (a term
    # id is kept for ever, so that old references resolve), and `--component nccl` none
    # that still carried old-nccl.
    fixed = incident("IL-0001")
    carrying = incident("IL-0002", ("    - nccl\n", "    - old-nccl\n"))
    other = incident("IL-0003", ("    - nccl\n", "    - weka\n"))
    root = write_library(
        tmp_path / "lib",
        {"IL-0001.yaml": fixed, "IL-0002.yaml": carrying, "IL-0003.yaml": other},
    )
    with (root / "schema" / "taxonomy" / "components.yaml").open("a", encoding="utf-8") as out:
        out.write(OLD_NCCL)
    for term in ("old-nccl", "nccl"):
        found = search_json("--component", term, "--root", str(root))
        assert [r["id"] for r in found["results"]] == ["IL-0001", "IL-0002"], term
        assert found["filters"] == {"components": [term]}


def test_a_filter_given_by_a_term_s_label_or_alias_filters_on_the_term(library):
    # It was refused with a did-you-mean naming the id, which `curator new` and `curator
    # fix` now take such a name for.
    for name in ("WEKA", "WekaFS", "Weka 스토리지"):
        found = search_json("처리량", "--component", name, "--root", str(library))
        assert [r["id"] for r in found["results"]] == ["IL-0003"], name
        assert found["filters"] == {"components": ["weka"]}


def test_unknown_filter_term_is_a_usage_error_with_a_hint(library):
    run = run_curator("search", "x", "--component", "ncl", "--root", str(library))
    assert run.code == 2
    assert "'ncl' is not a term of components; did you mean 'nccl'?" in run.err


def test_a_filter_term_of_another_dimension_is_told_its_dimension(library):
    run = run_curator("search", "x", "--cause", "nccl", "--root", str(library))
    assert run.code == 2
    assert run.err == (
        "python -m curator search: 'nccl' is not a term of causes (it is a term of components)"
        " — see `python -m curator search --help`\n"
    )


def test_text_output_shows_filters_then_results(library):
    run = run_curator("search", "NCCL 타임아웃 때문에 학습이 멈춤", "--root", str(library))
    assert run.code == 0
    lines = run.out.splitlines()
    assert lines[0] == "추천 필터 (recognised in the query):"
    assert "  components: nccl (NCCL) ← “NCCL”" in lines
    assert any(line.startswith("  symptoms: training-stall (") for line in lines)
    assert any("  IL-0001  " in line for line in lines)


@pytest.mark.parametrize("query", [(), ("",), ("  ",)])
def test_no_query_and_no_filter_is_a_usage_error_in_one_line(library, query):
    run = run_curator("search", *query, "--root", str(library))
    assert run.code == 2
    assert run.out == ""
    assert run.err == (
        "python -m curator search: give a query, or a filter "
        "(--cause, --component, --symptom, --factor)"
        " — see `python -m curator search --help`\n"
    )


def test_a_filter_alone_lists_every_incident_that_passes_it(library):
    found = search_json("--component", "nccl", "--root", str(library))
    assert [(r["id"], r["score"]) for r in found["results"]] == [("IL-0001", 0.0), ("IL-0002", 0.0)]


def test_incidents_of_one_score_are_listed_by_the_number_of_their_id(tmp_path):
    # By id as text, IL-10000 came between IL-0002 and IL-9999: a filter alone, where
    # every incident scores 0, listed a library past IL-9999 out of order.
    names = ["IL-9999", "IL-10000", "IL-0002"]
    root = write_library(tmp_path / "lib", {f"{name}.yaml": incident(name) for name in names})
    for query in (("--component", "nccl"), ("처리량",)):
        found = search_json(*query, "--root", str(root))
        assert [r["id"] for r in found["results"]] == ["IL-0002", "IL-9999", "IL-10000"]
        assert len({r["score"] for r in found["results"]}) == 1


def test_top_caps_the_list_but_not_the_total(library):
    every = search_json("스토리지", "--root", str(library))
    assert every["total"] == len(every["results"]) >= 2
    first = search_json("스토리지", "--top", "1", "--root", str(library))
    assert first["total"] == every["total"]
    assert first["results"] == every["results"][:1]
    assert run_curator("search", "스토리지", "--top", "0", "--root", str(library)).code == 2


def test_factor_filters_and_repeated_filters_must_all_hold(tmp_path):
    latent = ("  contributing_factors: []", "  contributing_factors:\n    - latent-until-restart")
    root = write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": incident("IL-0001"),
            "IL-0002.yaml": incident("IL-0002", latent),
            "IL-0003.yaml": incident("IL-0003", ("    - nccl\n", "    - weka\n")),
        },
    )
    found = search_json("--factor", "latent-until-restart", "--root", str(root))
    assert [r["id"] for r in found["results"]] == ["IL-0002"]
    assert found["filters"] == {"contributing_factors": ["latent-until-restart"]}
    nccl = search_json("--component", "nccl", "--root", str(root))
    assert [r["id"] for r in nccl["results"]] == ["IL-0001", "IL-0002"]
    # Each filter is a condition of its own (docs/judgement.md): no incident has both.
    both = search_json("--component", "nccl", "--component", "weka", "--root", str(root))
    assert (both["total"], both["results"]) == (0, [])
    narrowed = search_json(
        "--component", "nccl", "--factor", "latent-until-restart", "--root", str(root)
    )
    assert [r["id"] for r in narrowed["results"]] == ["IL-0002"]


# Words of scripts other than Hangul and Latin: none was read, so a search for one found
# nothing, and two incidents that differ only in such words had the same text.
OTHER_SCRIPTS = {
    "IL-0001": "Отказ дисков в стойке",  # Cyrillic
    "IL-0002": "Σφάλμα δικτύου στο κέντρο",  # Greek
    "IL-0003": "東京リージョン で発生した事象",  # kana and CJK ideographs
    "IL-0004": "存储集群元数据服务器故障",  # CJK ideographs, no space at all
}


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("дисков", "IL-0001"),
        ("δικτύου", "IL-0002"),
        ("リージョン", "IL-0003"),
        ("元数据", "IL-0004"),
    ],
)
def test_a_word_of_another_script_finds_the_incident_holding_it(tmp_path, query, found):
    root = write_library(
        tmp_path / "lib",
        {
            f"{name}.yaml": incident(
                name, ("title: 공유 스토리지의", f"title: {words} 공유 스토리지의")
            )
            for name, words in OTHER_SCRIPTS.items()
        },
    )
    report = search_json(query, "--root", str(root))
    assert [r["id"] for r in report["results"]] == [found], report
    assert report["total"] == 1


def test_the_bundled_library_is_found_by_a_japanese_source_title():
    # IL-0264 cites AWS's Japanese summary: 東京リージョン (AP-NORTHEAST-1) で発生した…
    report = search_json("東京リージョン")
    assert report["results"][0]["id"] == "IL-0264", report


@pytest.mark.parametrize("query", ["?!...", "망", "مرحبا بالعالم", "1월 31일"])
@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("symptom", [(), ("--symptom", "training-stall")])
def test_a_query_with_nothing_to_search_for_is_a_usage_error(library, query, fmt, symptom):
    # It listed "0 matching incidents" as if the library held nothing of the kind; with a
    # filter, none of the incidents the filter alone lists.
    run = run_curator("search", query, *symptom, "--root", str(library), "--format", fmt)
    assert (run.code, run.out) == (2, ""), run
    assert run.err == (
        f"python -m curator search: nothing in the query {query!r} can be searched for: "
        "it needs a word (two letters or more of Latin, Greek or Cyrillic script, two "
        "characters or more of Hangul, kana or CJK ideographs), a number of 2 to 30 digits, "
        "or a name"
        " — see `python -m curator search --help`\n"
    )


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("x", "--component", "ncl"), "a filter names no term"),
        (("?!...",), "the query holds nothing to search for"),
        ((), "neither a query nor a filter is given"),
    ],
)
def test_the_help_names_each_usage_error_of_search(library, args, named):
    # The help said nothing of a query with nothing to search for, which exits 2 too.
    assert run_curator("search", *args, "--root", str(library)).code == 2
    said = " ".join(run_curator("search", "--help").out.split())
    assert f"when {named}" in said.partition("Exit 2 ")[2], said


@pytest.mark.parametrize("query", ["404", "H100", "NCCL", "스토리지가", '"NCCL 타임아웃"'])
def test_a_number_a_name_or_a_quoted_phrase_is_searched_for(library, query):
    report = search_json(query, "--root", str(library))
    assert report["query"] == query
    assert set(report) - {"unmatched"} == {"query", "recognised", "filters", "total", "results"}
    assert ("unmatched" in report) == (report["total"] == 0)  # why nothing was listed


def test_a_name_of_several_words_is_mentioned_once(tmp_path):
    # `mentions balancer, load, load balancer, network, network load, network load balancer`
    # said one name six times: its words, and runs of them, are that name.
    said = ("노드 수를 늘렸다.", "그 뒤 Network Load Balancer 와 Northern Virginia 리전이 멈췄다.")
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001", said)})
    report = search_json("Network Load Balancer in Northern Virginia", "--root", str(root))
    [result] = report["results"]
    assert "mentions network load balancer, northern virginia" in result["reasons"], result


@pytest.mark.parametrize(
    "query",
    ["Cilium 장애", "Cilium이 멈춤", "Cilium outage", "CILIUM", "Cilium Agent Restart Loop"],
)
def test_a_capitalised_name_in_the_query_is_a_name_wherever_it_stands(tmp_path, query):
    # `Cilium outage` (read as a sentence opening with it) and a query in title case (read
    # as a report's title, where capitals are style) mentioned no name: only the Korean
    # `Cilium 장애` and `CILIUM` had the incident naming Cilium said to mention it.
    root = write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": incident("IL-0001", ("노드 수를 늘렸다.", "Cilium 을 올렸다.")),
            "IL-0002.yaml": incident("IL-0002"),
        },
    )
    report = search_json(query, "--root", str(root))
    assert [r["id"] for r in report["results"]] == ["IL-0001"], report
    assert "mentions cilium" in report["results"][0]["reasons"]


def test_an_incident_a_filter_alone_lists_is_told_the_term_that_passes_it(library):
    # Its one reason was "text similarity 0.00", to no text: nothing said why it was listed,
    # nor that weka passes a filter on its parent.
    found = search_json("--component", "shared-network-filesystem", "--root", str(library))
    assert [(r["id"], r["reasons"]) for r in found["results"]] == [
        ("IL-0003", ["carries weka (WEKA), a kind of shared-network-filesystem"])
    ]
    both = search_json("--component", "nccl", "--symptom", "training-stall", "--root", str(library))
    assert [(r["id"], r["reasons"]) for r in both["results"]] == [
        ("IL-0001", ["carries nccl (NCCL)", "carries training-stall (학습 멈춤)"])
    ]
    text = run_curator("search", "--component", "nccl", "--root", str(library)).out
    assert "text similarity" not in text
    assert "        - carries nccl (NCCL)\n" in text


DATADOG = "https://datadoghq.com/blog/2023-03-08-multiregion-infrastructure-connectivity-issue"
GITLAB = "https://about.gitlab.com/blog/2017/02/10/postmortem-of-database-outage-of-january-31"


DATADOG_TYPED = (
    "http://www.datadoghq.com/blog/2023-03-08-multiregion-infrastructure-connectivity-issue"
    "?utm_source=feed"
)


@pytest.mark.parametrize(
    ("query", "typed"),
    [
        (f"{DATADOG}/", f"{DATADOG}/"),
        (DATADOG_TYPED, DATADOG_TYPED),
        (f"이 글이 라이브러리에 있나? ({DATADOG}).", DATADOG),
    ],
)
def test_the_address_of_a_report_finds_the_incident_citing_it(query, typed):
    # IL-0198 cites it: pasted into the search box, it was not listed at all (two unrelated
    # incidents shared a word or two of its path), though `similar` takes a cited address
    # for the strongest evidence there is. The reason quotes the address as typed, where
    # it quoted the normal form it is compared in, which the searcher did not write.
    report = search_json(query)
    top = report["results"][0]
    assert (top["id"], top["score"]) == ("IL-0198", 1.0), report
    assert top["reasons"][0] == f"same source URL {typed}"
    assert "mentions http" not in top["reasons"]  # an address's words are no names


def test_an_address_a_withdrawn_copy_cites_finds_the_incident_it_repeats():
    # IL-0261, withdrawn as a copy of IL-0260, cites GitLab's postmortem: search lists no
    # withdrawn incident, so the incident it repeats stands for it.
    report = search_json(GITLAB)
    top = report["results"][0]
    assert (top["id"], top["score"]) == ("IL-0260", 1.0), report
    assert top["reasons"][0] == f"its withdrawn copy IL-0261: same source URL {GITLAB}"
    assert "IL-0261" not in [r["id"] for r in report["results"]]


@pytest.mark.parametrize("query", ["IL-0001", "il-0001", "IL-00001 참고", "(IL-0001)"])
def test_an_incident_s_id_finds_it(library, query):
    # No incident's text holds its own id: `curator search IL-0001` listed none.
    report = search_json(query, "--root", str(library))
    assert [(r["id"], r["score"]) for r in report["results"]][:1] == [("IL-0001", 1.0)], report
    assert report["results"][0]["reasons"][0] == "the query names IL-0001"


def test_the_id_of_a_withdrawn_copy_finds_the_incident_it_repeats(library):
    report = search_json("IL-0004", "--root", str(library))  # withdrawn: a copy of IL-0001
    assert [r["id"] for r in report["results"]] == ["IL-0001"], report
    assert report["results"][0]["reasons"][0] == "the query names its withdrawn copy IL-0004"


@pytest.mark.parametrize(
    ("query", "written"),
    [
        ("datadog", "Datadog"),  # an organisation the library names
        ("datadog outage", "Datadog outage"),
        ("nccl 타임아웃", "NCCL 타임아웃"),  # names the taxonomy writes as names
        ("infiniband", "InfiniBand"),
        ("kubernetes 업그레이드", "Kubernetes 업그레이드"),
    ],
)
def test_a_name_typed_in_small_letters_is_the_name(query, written):
    # `datadog` was no name, where `Datadog` was: IL-0276, which only names Datadog, was not
    # listed, and the incidents naming it were ranked without `mentions datadog`.
    typed, named = search_json(query), search_json(written)
    assert [(r["id"], r["reasons"]) for r in typed["results"]] == [
        (r["id"], r["reasons"]) for r in named["results"]
    ]
    assert any(reason.startswith("mentions ") for reason in typed["results"][0]["reasons"])


@pytest.mark.parametrize(
    "query",
    ["storage", "data", "cloud", "program", "outage", "network", "스토리지 장애", "data 손실"],
)
def test_a_common_word_in_small_letters_is_no_name(query):
    # The bundled library writes each of these English words only with a capital, as part
    # of a name (Cloud Storage, VAST Data, Google Cloud): it is still no name typed small.
    report = search_json(query)
    said = [reason for r in report["results"] for reason in r["reasons"]]
    assert not [reason for reason in said if reason.startswith("mentions ")], report


def test_a_word_the_library_writes_in_small_letters_too_is_no_name(tmp_path):
    # Slack the organisation, and slack the common word: typed small, it is not the name
    # where the incidents write it small as often as not.
    slack = incident("IL-0001", ("노드 수를 늘렸다.", "Slack 알림이 오지 않았다."))
    slack = slack.replace("  - Example\n", "  - Slack\n")
    slow = incident("IL-0002", ("노드 수를 늘렸다.", "용량에 slack 이 없었다."))
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": slack, "IL-0002.yaml": slow})
    said = [
        reason
        for r in search_json("slack", "--root", str(root))["results"]
        for reason in r["reasons"]
    ]
    assert "mentions slack" not in said
    named = search_json("Slack", "--root", str(root))["results"]
    assert "mentions slack" in named[0]["reasons"]
    only = write_library(
        tmp_path / "only", {"IL-0001.yaml": slack, "IL-0002.yaml": incident("IL-0002")}
    )
    typed = search_json("slack", "--root", str(only))["results"]
    assert "mentions slack" in typed[0]["reasons"]  # the library's one Slack: the organisation


@pytest.mark.parametrize(
    ("query", "written"),
    [
        ("infini band", "InfiniBand"),  # a taxonomy name written apart, or with a hyphen
        ("Infini-Band", "InfiniBand"),
        ("core dns 장애", "CoreDNS 장애"),
        ("쿠버 네티스 API", "쿠버네티스 API"),  # the Korean of one
        ("loadbalancer", "load balancer"),  # one written together
        ("data dog", "datadog"),  # a name the library writes as one word
        ("Git Hub", "GitHub"),
    ],
)
def test_a_name_spaced_otherwise_finds_what_the_name_finds(query, written):
    # `infini band` and `Infini-Band` recognised nothing and listed no incident, where
    # `InfiniBand` listed IL-0025 and IL-0252.
    apart, named = search_json(query), search_json(written)
    assert apart["results"], apart
    assert [(r["id"], r["reasons"]) for r in apart["results"]] == [
        (r["id"], r["reasons"]) for r in named["results"]
    ]
    assert apart["recognised"] == named["recognised"]
    said = run_curator("search", query).out
    assert said.startswith("query read as “"), said


@pytest.mark.parametrize(
    "query",
    ["로드밸런서", "Load-Balancer", "NCCL", "in fini", "https://example.com/infini-band"],
)
def test_a_query_spaced_as_the_library_writes_it_is_read_as_it_is(query):
    # One of a term's own spellings (로드밸런서 beside 로드 밸런서), pieces that are no name,
    # and an address are read as typed.
    assert "query read as" not in run_curator("search", query).out


def test_nothing_listed_says_the_words_matched_and_which_filter_removed_them(library):
    # "0 matching incidents" said nothing of why: the words matched two incidents (IL-0001
    # and IL-0002 carry NCCL), and the filter on a cause neither carries removed both.
    report = search_json("NCCL", "--cause", "config-change", "--root", str(library))
    assert report["total"] == 0
    assert report["unmatched"] == {
        "matching_words": 2,
        "without_filter": [{"dimension": "causes", "term": "config-change", "total": 2}],
        "did_you_mean": [],
        "broader": [],
    }
    said = run_curator("search", "NCCL", "--cause", "config-change", "--root", str(library)).out
    assert said.endswith(
        "0 matching incidents\n"
        "  2 incidents match the words, but none passes the filters\n"
        "  without --cause config-change: 2 incidents would be listed\n"
    ), said


def test_nothing_listed_by_filters_alone_says_what_each_leaves(library):
    args = ("--cause", "capacity-limit", "--component", "weka", "--symptom", "training-stall")
    report = search_json(*args, "--root", str(library))
    assert report["unmatched"]["matching_words"] is None  # no words to match
    assert report["unmatched"]["without_filter"] == [
        {"dimension": "causes", "term": "capacity-limit", "total": 0},
        {"dimension": "components", "term": "weka", "total": 1},  # IL-0001 has the stall
        {"dimension": "symptoms", "term": "training-stall", "total": 1},  # IL-0003 weka
    ]
    said = run_curator("search", *args, "--root", str(library)).out
    assert "  no incident passes every filter\n" in said, said


def test_nothing_listed_by_the_words_offers_a_spelling_and_a_broader_term():
    # `infinband` is in no incident: InfiniBand is. Lustre, recognised, no incident carries
    # (nor mentions): four carry the kind of component it is.
    typo = search_json("infinband 장애")
    assert typo["total"] == 0
    assert typo["unmatched"]["matching_words"] == 0
    assert typo["unmatched"]["did_you_mean"] == [{"word": "infinband", "name": "infiniband"}]
    said = run_curator("search", "infinband 장애").out
    assert "  no incident matches the words\n" in said
    assert "  “infinband” is in no incident: did you mean “infiniband”?\n" in said
    lustre = search_json("lustre")
    assert lustre["unmatched"]["broader"] == [
        {
            "dimension": "components",
            "term": "lustre",
            "ancestor": "shared-network-filesystem",
            "total": 4,
        }
    ]
    assert lustre["unmatched"]["did_you_mean"] == []  # a term's own id is no misspelling
    assert (
        "(--component shared-network-filesystem lists them)" in run_curator("search", "lustre").out
    )


def test_a_lone_surrogate_in_a_query_given_in_process_is_searched_around(library):
    # A lone surrogate (no command line gives one: its bytes decode to \udc80-\udcff, which
    # are refused) ended `search` called in-process with "internal error: UnicodeEncodeError
    # 'utf-32-le'" as its text was made features.
    from click.testing import CliRunner

    from curator.cli import main

    def found(query: str) -> dict:
        args = ["search", query, "--root", str(library), "--format", "json", "--quiet"]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        return json.loads(result.output)

    odd, plain = found("NCCL 타임아웃 \ud800"), found("NCCL 타임아웃")
    assert odd["query"] == "NCCL 타임아웃 \ud800"
    assert odd["results"] == plain["results"] and odd["results"][0]["id"] == "IL-0001"


def lesson_of(words: int) -> str:
    """A lesson of `words` words of three syllables that no other incident has, then
    bcrypt once."""
    syllables = (
        "".join(chr(0xAC00 + (word * 3 + i) * 37 % 11172) for i in range(3))
        for word in range(words)
    )
    return f"{' '.join(syllables)} 암호는 bcrypt 로 해시했다."


def library_of(root: Path, lesson: str, second: str, third: tuple[str, str] | None) -> Path:
    first = ("작은 규모 시험으로는 알 수 없었다.", lesson)
    return write_library(
        root,
        {
            "IL-0001.yaml": incident("IL-0001", first),
            "IL-0002.yaml": incident("IL-0002", ("알 수 없었다.", second)),
            "IL-0003.yaml": incident("IL-0003", third) if third else incident("IL-0003"),
        },
    )


@pytest.fixture
def long_library(tmp_path):
    # 100 words: more features than an incident keeps of its heaviest (KEEP_PER_DOCUMENT),
    # each heavier than a word that two incidents hold.
    return library_of(tmp_path / "lib", lesson_of(100), "bcrypt 를 썼다.", None)


def test_a_word_searched_for_finds_an_incident_holding_it_among_many_heavier_features(
    long_library,
):
    # IL-0001 holds bcrypt once among 300 syllables: the index kept only its 150 heaviest
    # features, bcrypt not among them, and the search found it in IL-0002 alone.
    found = search_json("bcrypt", "--root", str(long_library))
    scores = {r["id"]: r["score"] for r in found["results"]}
    assert set(scores) == {"IL-0001", "IL-0002"} and found["total"] == 2
    assert scores["IL-0002"] > scores["IL-0001"] >= 0.1  # (the shorter text first)


@pytest.fixture
def longer_library(tmp_path):
    # 400 words: the lesson's cosine to one word of it is under the floor. "text" and the
    # syllables 업데이 share a column of the index's hashing: IL-0003 holds no word text.
    third = ("알 수 없었다.", "업데이트를 미뤘다.")
    return library_of(tmp_path / "lib", lesson_of(400), "bcrypt 와 text 를 썼다.", third)


def test_a_word_searched_for_lists_every_incident_holding_it_however_long(longer_library):
    # IL-0001 holds bcrypt once among 1,200 syllables: its cosine to it is under the floor.
    found = search_json("bcrypt", "--root", str(longer_library))
    results = {r["id"]: r for r in found["results"]}
    assert set(results) == {"IL-0001", "IL-0002"} and found["total"] == 2
    long = results["IL-0001"]
    assert long["score"] < 0.1
    assert long["reasons"][0] == "holds the word bcrypt"
    assert long["reasons"][1].startswith("text similarity 0.0")
    assert "holds the word bcrypt" not in results["IL-0002"]["reasons"]  # at its score


def test_an_incident_holding_some_words_of_the_query_only_keeps_the_floor(longer_library):
    found = search_json("bcrypt argon", "--root", str(longer_library))
    assert [r["id"] for r in found["results"]] == ["IL-0002"]  # IL-0001 under the floor


def test_a_word_is_held_by_its_own_feature_not_by_another_that_shares_its_column(
    longer_library,
):
    index = build(Library.at(longer_library), workers=1)
    assert buckets(features("text"))[0] == buckets(features("업데이"))[-1]  # (one column)
    held = index.holding_words("text")
    assert held is not None
    assert [index.records[row].id for row in np.flatnonzero(held)] == ["IL-0002"]


@pytest.fixture
def korean_library(tmp_path):
    # IL-0001 holds 규모 once, with a stack of particles, at the end of 1,200 syllables: none
    # of its n-grams among the 150 heaviest features the index keeps of it. IL-0002 holds
    # it before 도; IL-0003 holds 대규모 only, another word; IL-0004 none, but 늘어나.
    lessons = "작은 규모 시험으로는 알 수 없었다."
    tail = lesson_of(400).replace("암호는 bcrypt 로 해시했다.", "bcrypt 는 운영 규모에서만 썼다.")
    return write_library(
        tmp_path / "lib",
        {
            "IL-0001.yaml": incident("IL-0001", (lessons, tail)),
            "IL-0002.yaml": incident("IL-0002", (lessons, "시험 규모도 작았다.")),
            "IL-0003.yaml": incident("IL-0003", (lessons, "대규모 시험을 했다.")),
            "IL-0004.yaml": incident("IL-0004", (lessons, "처리량이 늘어나는 것을 알 수 없었다.")),
        },
    )


def test_a_korean_word_searched_for_lists_every_incident_holding_it_with_its_particles(
    korean_library,
):
    # IL-0001 was not listed: its cosine to 규모 is 0, the word's n-grams being among the
    # light features the index drops.
    for query in ("규모", "규모에서만", "규모가"):
        found = search_json(query, "--root", str(korean_library))
        results = {r["id"]: r for r in found["results"]}
        assert {"IL-0001", "IL-0002"} <= set(results) and "IL-0004" not in results, query
        long = results["IL-0001"]
        assert long["score"] < 0.1
        assert long["reasons"] == ["holds the word 규모", "text similarity 0.00"], query


def test_a_korean_word_is_held_whole_with_any_particles_not_inside_a_longer_word(
    korean_library,
):
    index = build(Library.at(korean_library), workers=1)

    def holding(query: str) -> list[str]:
        held = index.holding_words(query)
        assert held is not None, query
        return [index.records[row].id for row in np.flatnonzero(held)]

    assert holding("규모") == ["IL-0001", "IL-0002"]  # 규모에서만, 규모도; not 대규모
    assert holding("대규모를") == ["IL-0003"]
    # 늘어나 alone loses 나 as a particle (늘어); 늘어나는 loses 는 only: held all the same.
    assert holding("늘어나") == ["IL-0004"]
    assert holding("bcrypt 규모는") == ["IL-0001"]  # every word of the query
    assert holding("시험") == ["IL-0002", "IL-0003"]  # (시험으로는 was IL-0001's, replaced)
    assert index.holding_words("규") is None  # a lone syllable is no word, as no feature


def test_an_incident_holding_korean_and_latin_words_of_the_query_is_listed_for_both(
    korean_library,
):
    found = search_json("bcrypt 규모", "--root", str(korean_library))
    results = {r["id"]: r for r in found["results"]}
    assert results["IL-0001"]["reasons"][0] == "holds the words bcrypt, 규모"


def test_holders_of_a_korean_word_filtered_out_are_counted_as_matching_it(korean_library):
    # Nothing listed: the count of incidents matching the words takes in IL-0001, which
    # shares no feature the index kept with the query, as the listing does.
    listed = search_json("규모", "--root", str(korean_library))["total"]
    found = search_json("규모", "--cause", "human-error", "--root", str(korean_library))
    assert found["total"] == 0
    assert found["unmatched"]["matching_words"] == listed
    assert found["unmatched"]["without_filter"] == [
        {"dimension": "causes", "term": "human-error", "total": listed}
    ]
