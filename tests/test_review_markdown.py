"""The review comment: pinned by snapshots, inert to hostile incident text, within GitHub's
size limits; and the annotations, within GitHub's per-step limits.

Snapshots live in tests/snapshots/; after an intended change to the layout, rewrite them
with `UPDATE_SNAPSHOTS=1 python -m pytest tests/test_review_markdown.py` and read the diff.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from curator.review import output
from curator.review.annotations import workflow_commands
from curator.review.inert import ZWSP, inert, inert_message, inert_name
from curator.review.links import Links
from curator.review.markdown import (
    COMMENT,
    COMMENT_LIMIT,
    SUMMARY,
    Budget,
    render,
    utf16_length,
)
from curator.review.model import (
    Evidence,
    FacetChange,
    FacetJudgement,
    FileReview,
    FilterChange,
    Match,
    MendedTaxonomy,
    ReportFinding,
    Review,
    TermChange,
    TermJudgement,
    UnreadOnBase,
    UnreadTaxonomy,
)
from curator.rules import not_in_korean, placeholder_id
from curator.similarity.similar import DUPLICATE_THRESHOLD
from incidents import file_findings, incident

SNAPSHOTS = Path(__file__).parent / "snapshots"
BASE, HEAD = "1" * 40, "2" * 40
REPOSITORY = "octo-org/incident-library"
LINKS = Links(
    repository=REPOSITORY, run_url=f"https://github.com/{REPOSITORY}/actions/runs/123456789"
)
OURS = f"https://github.com/{REPOSITORY}/"


def assert_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no snapshot {path}: run with UPDATE_SNAPSHOTS=1 to write it"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{name} differs from its snapshot (UPDATE_SNAPSHOTS=1 rewrites)"


def finding(line: int, code: str, message: str, severity: str = "error", **kw: object):
    path = str(kw.pop("path", "incidents/IL-0300.yaml"))
    return ReportFinding(
        path=path, line=line, column=7, code=code, severity=severity, message=message, **kw
    )


def sample() -> Review:
    """A pull request adding IL-0300 (a duplicate of IL-0198, a wrong cause, a typo in a
    component) and deleting IL-0007."""
    added = FileReview(
        path="incidents/IL-0300.yaml",
        change="added",
        id="IL-0300",
        title="자동 보안 패치가 systemd 를 재시작해 노드들이 네트워크를 잃었다",
        facets={
            "causes": ["hardware-failure"],
            "components": ["systemd-netwrkd"],
            "symptoms": ["node-network-loss"],
            "contributing_factors": [],
        },
        findings=[
            finding(
                11,
                "IL301",
                "'systemd-netwrkd' is not a term of components; did you mean 'systemd-networkd'?",
            ),
            finding(3, "IL602", "trailing white space", "warning", fixable=True),
        ],
        matches=[
            Match(
                id="IL-0198",
                score=0.93,
                kind="duplicate",
                title="무인 보안 업데이트로 재시작된 systemd-networkd 가 라우팅 규칙을 지웠다",
                reasons=[
                    "same organisation Datadog, occurred 2023-03-08 vs 2023-03-08",
                    "shared entities: 249.11-0ubuntu3.7, cilium",
                    "text similarity 0.41",
                ],
            ),
            Match(id="IL-0116", score=0.31, kind="related", title="CNI 설정 변경", reasons=[]),
        ],
        suggestions=[
            FacetJudgement(
                dimension="causes",
                missing=[
                    TermJudgement(
                        term="upgrade-incompatibility",
                        score=0.84,
                        evidence=[
                            Evidence(phrase="자동 보안 패치가", field="title", alias="보안 패치"),
                            Evidence(incident="IL-0198", similarity=0.93),
                        ],
                    )
                ],
                unsupported=[
                    TermJudgement(
                        term="hardware-failure",
                        score=0.07,
                        evidence=[Evidence(incident="IL-0251", similarity=0.07, kind="related")],
                    )
                ],
            ),
            FacetJudgement(
                dimension="components",
                missing=[
                    TermJudgement(
                        term="unattended-upgrades",
                        score=0.88,
                        evidence=[
                            Evidence(
                                phrase="unattended-upgrades",
                                field="trigger",
                                alias="unattended-upgrades",
                            )
                        ],
                    )
                ],
            ),
        ],
        # As the build makes it: the unknown term dropped, the suggested ones in order.
        facets_to_paste={
            "causes": ["hardware-failure", "upgrade-incompatibility"],
            "components": ["unattended-upgrades"],
            "symptoms": ["node-network-loss"],
            "contributing_factors": [],
        },
    )
    removed = FileReview(
        path="incidents/IL-0007.yaml",
        change="removed",
        id="IL-0007",
        findings=[
            finding(
                1,
                "IL901",
                "IL-0007 is deleted: its id disappears from the library",
                path="incidents/IL-0007.yaml",
            ),
        ],
    )
    quiet = FileReview(path="incidents/IL-0012.yaml", change="changed", id="IL-0012")
    return Review(base=BASE, head=HEAD, files=[added, removed, quiet])


def sample_not_a_duplicate() -> Review:
    """The sample, IL-0198 only related to IL-0300: its facets are judged in the comment."""
    review = sample()
    added, *others = review.files
    related = added.matches[0].model_copy(update={"score": 0.55, "kind": "related"})
    added = added.model_copy(update={"matches": [related, *added.matches[1:]]})
    return review.model_copy(update={"files": [added, *others]})


def test_the_comment_snapshot():
    assert_snapshot("review_comment.md", render(sample(), LINKS, COMMENT))


def unread_taxonomy_review() -> Review:
    """A change whose contributing_factors.yaml the head cannot read (a bad indent), and
    that removes the cause `human-error`: seven incidents carry the first's terms, one of
    them the removed cause too."""
    taxonomy = "schema/taxonomy/contributing_factors.yaml"
    changed = FileReview(
        path=taxonomy,
        change="changed",
        findings=[
            finding(
                4, "IL303", "YAML syntax error: did not find expected '-' indicator", path=taxonomy
            )
        ],
    )
    # (As lint ends them: a review knows them by it.)
    unknown = "{!r} is not a term of contributing_factors; " + taxonomy
    unknown += " could not be read (its IL303 errors say why)"

    def broken(number: int, *terms: str, cause: str | None = None) -> FileReview:
        path = f"incidents/IL-{number:04d}.yaml"
        findings = [
            finding(30 + i, "IL301", unknown.format(t), path=path) for i, t in enumerate(terms)
        ]
        if cause:
            findings.append(finding(22, "IL301", f"{cause!r} is not a term of causes", path=path))
        return FileReview(
            path=path,
            change="unchanged",
            id=f"IL-{number:04d}",
            facets={"causes": [cause or "capacity-limit"], "contributing_factors": list(terms)},
            findings=findings,
        )

    incidents = [broken(n, "scale-only-behaviour") for n in (25, 116, 128, 129, 137, 198)]
    incidents.append(broken(203, "scale-only-behaviour", "staging-production-gap"))
    incidents.append(broken(204, "implicit-defaults", cause="human-error"))
    removed = TermChange(
        dimension="causes",
        term="human-error",
        kinds=["removed"],
        carried_by=1,
        incidents=["IL-0204"],
    )
    return Review(
        base=BASE,
        head=HEAD,
        files=[changed, *incidents],
        terms_changed=[removed],
        taxonomy_unread=[
            UnreadTaxonomy(dimension="contributing_factors", path=taxonomy, line=4, column=4)
        ],
    )


def test_a_taxonomy_file_the_head_cannot_read_is_one_line_its_errors_counted():
    text = render(unread_taxonomy_review(), LINKS, COMMENT)
    assert_snapshot("review_comment_unread_taxonomy.md", text)
    lines = text.splitlines()
    assert lines[1].startswith("### ❌ 11 errors · ")  # every IL301 counted, folded or not
    unread = next(line for line in lines if line.startswith("- **contributing_factors** · "))
    assert "8 incidents this change leaves alone carry them, with 9 IL301 errors" in unread
    assert "and 3 more." in unread
    # The incident with another IL301 too keeps its section, where only that one is said:
    # the line counts and names it with the others (its section said the file could not be
    # read again).
    sections = [line for line in lines if line.startswith("#### ")]
    assert len(sections) == 2 and "IL-0204.yaml" in sections[1]
    section = lines[lines.index(sections[1]) :]
    said = [line.split(" · ", 1)[1] for line in section if "**IL301**" in line]
    assert said == ["**IL301** · 'human-error' is not a term of causes"]


def test_the_taxonomy_heading_says_what_the_change_does_only_when_it_does_something():
    # A file the base could not read either was said under "what this change does to the
    # incidents", the change having done nothing to the taxonomy.
    path = "schema/taxonomy/components.yaml"
    unread = UnreadTaxonomy(dimension="components", path=path, line=4, column=4, at_base=True)
    removed = TermChange(dimension="causes", term="human-error", kinds=["removed"])
    for review, heading in [
        (
            Review(base=BASE, head=HEAD, taxonomy_unread=[unread]),
            "**Taxonomy** — as at the base, none of it this change's doing:",
        ),
        (
            Review(base=BASE, head=HEAD, taxonomy_unread=[unread], terms_changed=[removed]),
            "**Taxonomy** — what this change does to the incidents:",
        ),
        (  # (a report of an older version, which says nothing of the base)
            Review(
                base=BASE, head=HEAD, taxonomy_unread=[unread.model_copy(update={"at_base": None})]
            ),
            "**Taxonomy** — what this change does to the incidents:",
        ),
    ]:
        lines = render(review, LINKS, COMMENT).splitlines()
        assert [line for line in lines if line.startswith("**Taxonomy**")] == [heading]


def test_a_taxonomy_file_mended_is_said_with_where_its_error_was_at_the_base():
    # Every other judgement names its place; the mended file's said only "(IL303)".
    path = "schema/taxonomy/components.yaml"
    mended = MendedTaxonomy(dimension="components", path=path, line=4, column=4)
    text = render(Review(base=BASE, head=HEAD, taxonomy_mended=[mended]), LINKS, COMMENT)
    [line] = [line for line in text.splitlines() if line.startswith("- **components** · ")]
    assert (
        f"could not be read at the base (IL303 at [line 4, column 4]({OURS}blob/{BASE}/{path}"
        "#L4)) and is read now" in line
    )
    # A report of an older version gives no place, and none is made up.
    older = Review(base=BASE, head=HEAD, taxonomy_mended=[mended.model_copy(update={"line": None})])
    assert "could not be read at the base (IL303) and is read now" in render(older, LINKS, COMMENT)


def test_a_report_from_a_newer_curator_is_read_and_its_new_fields_ignored():
    # The comment workflow reads a pull request's report with the default branch's curator.
    data = json.loads(sample().model_dump_json())
    data["added_later"] = {"anything": 1}
    data["files"][0]["added_later"] = "@everyone"
    data["files"][0]["matches"][0]["added_later"] = [1, 2]
    read = Review.model_validate_json(json.dumps(data))
    assert read == sample()
    assert render(read, LINKS, COMMENT) == render(sample(), LINKS, COMMENT)


def test_the_local_comment_snapshot_has_no_links():
    text = render(sample(), Links(), COMMENT)
    assert "](" not in text
    assert_snapshot("review_comment_local.md", text)


def test_status_line_first_then_head_and_run():
    lines = render(sample(), LINKS, COMMENT).splitlines()
    assert lines[0] == "<!-- curator-review -->"
    assert lines[1] == (
        "### ❌ 2 errors · ⚠️ 1 warning · ❌ 1 possible duplicate · ✅ 0 facet suggestions"
    )
    assert f"[`222222222222`]({OURS}commit/{HEAD})" in lines[3]
    assert f"[workflow run]({OURS}actions/runs/123456789)" in lines[3]
    clean = Review(base=BASE, head=HEAD).model_copy()
    assert render(clean, LINKS, COMMENT).splitlines()[1] == (
        "### ✅ 0 errors · ✅ 0 warnings · ✅ 0 possible duplicates · ✅ 0 facet suggestions"
    )


def test_claims_to_check_are_counted_in_the_status_line_without_a_made_up_plural():
    # `duplicate_of` is a key's name: "2 duplicate_of to checks" read as a typo.
    def withdrawn(number: int) -> FileReview:
        claim = Match(id="IL-0001", score=0.1, kind="related")
        return FileReview(
            path=f"incidents/IL-030{number}.yaml", change="changed", duplicate_of=claim
        )

    for number, said in [(1, "❌ 1 duplicate_of to check"), (2, "❌ 2 duplicate_of to check")]:
        review = Review(base=BASE, head=HEAD, files=[withdrawn(n) for n in range(number)])
        assert render(review, LINKS, COMMENT).splitlines()[1].endswith(f" · {said}")


def test_a_change_of_title_alone_is_shown_old_and_new():
    # With nothing else to report, the file was one name among "other changed files",
    # and neither title was shown.
    retitled = FileReview(
        path="incidents/IL-0301.yaml",
        change="changed",
        id="IL-0301",
        title="스토리지 포화로 학습이 멈췄다",
        title_was="스토리지 포화",
    )
    comment = render(Review(base=BASE, head=HEAD, files=[retitled]), LINKS, COMMENT)
    assert "IL-0301 · title “스토리지 포화” → “스토리지 포화로 학습이 멈췄다”" in comment
    assert "nothing to report" not in comment


def test_a_title_holding_bidirectional_controls_does_not_reorder_the_comment():
    # "Trojan Source": U+202E displays what follows it right to left, to the end of the
    # line (the comment's line, the arrow and the other title with it).
    retitled = FileReview(
        path="incidents/IL-0301.yaml",
        change="changed",
        id="IL-0301",
        title="스토리지 \u202e우회\u202c 포화\u2067",
        title_was="스토리지\u200f\u2066 포화\u061c",
    )
    comment = render(Review(base=BASE, head=HEAD, files=[retitled]), LINKS, COMMENT)
    assert "IL-0301 · title “스토리지 포화” → “스토리지 우회 포화”" in comment
    bidi = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
    assert not set(comment) & set(bidi)


def test_a_doubtful_claim_names_the_threshold_its_score_is_below():
    # It said "below the duplicate threshold" without saying what that is.
    claim = Match(id="IL-0001", score=0.12, kind="related")
    file = FileReview(path="incidents/IL-0301.yaml", change="changed", duplicate_of=claim)
    text = render(Review(base=BASE, head=HEAD, files=[file]), LINKS, COMMENT)
    assert f"(score 0.12, below the duplicate threshold, {DUPLICATE_THRESHOLD:.2f}):" in text


def test_only_errors_and_possible_duplicates_are_marked_as_failures():
    # A new incident's placeholder id (IL206) is a warning CONTRIBUTING asks for, and a
    # suggestion is advice: neither may look like a failed check.
    file = FileReview(
        path="incidents/IL-NEW-x.yaml",
        change="added",
        findings=[finding(1, "IL206", "placeholder id IL-NEW-x", "warning")],
        suggestions=[
            FacetJudgement(dimension="causes", missing=[TermJudgement(term="bug", score=0.5)])
        ],
    )
    text = render(Review(base=BASE, head=HEAD, files=[file]), LINKS, COMMENT)
    assert text.splitlines()[1] == (
        "### ✅ 0 errors · ⚠️ 1 warning · ✅ 0 possible duplicates · 💡 1 facet suggestion"
    )
    assert "❌" not in text


def test_a_suggested_facet_says_which_words_of_its_phrase_matched():
    # As `curator suggest` says it: the phrase alone left the reviewer to guess which of
    # its words the taxonomy knows.
    text = render(sample_not_a_duplicate(), LINKS, COMMENT)
    il_0198 = f"[IL-0198]({OURS}blob/{HEAD}/incidents/IL-0198.yaml)"
    said = f"“자동 보안 패치가” in title (matches “보안 패치”); {il_0198} carries it (0.93)"
    assert f"`upgrade-incompatibility` · score 0.84 · {said}" in text


def test_the_facets_of_a_likely_duplicate_are_left_out_of_the_comment_not_the_report():
    # A copy of an incident got "💡 N facet suggestions", mostly "possible duplicate … carries
    # it", and a block to paste, where what to do is drop or withdraw it.
    review = sample()
    text = render(review, LINKS, COMMENT)
    assert "Suggested facets" not in text and "Ready to paste" not in text
    assert "Facets nothing in the text supports" not in text
    said = "_Facet suggestions left out: this incident looks like IL-0198 (0.93). "
    assert said + "`curator review --format json` lists them._" in text
    assert text.splitlines()[1].endswith(" · ✅ 0 facet suggestions")
    assert len(review.files[0].missing()) == 2  # (the report keeps them)
    # Not a duplicate: judged as before.
    text = render(sample_not_a_duplicate(), LINKS, COMMENT)
    assert "left out" not in text and "Ready to paste" in text
    assert text.splitlines()[1].endswith(" · 💡 2 facet suggestions · ⚠️ 1 unsupported facet")


def test_an_unsupported_facet_names_its_neighbours_to_compare_not_as_support():
    # Under "Facets nothing in the text supports", "IL-0252 carries it (0.21)" read as
    # evidence for the facet the heading says nothing supports.
    near = [
        Evidence(incident="IL-0252", similarity=0.217, kind="related"),
        Evidence(incident="IL-0260", similarity=0.62, kind="duplicate"),
    ]
    file = FileReview(
        path="incidents/IL-0025.yaml", change="changed", id="IL-0025",
        suggestions=[
            FacetJudgement(
                dimension="causes",
                unsupported=[TermJudgement(term="dependency-failure", score=0.11, evidence=near)],
            )
        ],
    )  # fmt: skip
    text = render(Review(base=BASE, head=HEAD, files=[file]), Links(), COMMENT)
    unsupported = text.split("**Facets nothing in the text supports** — please check:\n\n")[1]
    assert unsupported.splitlines()[0] == (
        "- **causes** · `dependency-failure` · score 0.11 · the most similar incidents that "
        "carry it, to compare: IL-0252 (0.22), possible duplicate IL-0260 (0.62)"
    )
    assert "carries it" not in text
    one = file.model_copy(deep=True)
    one.suggestions[0].unsupported[0].evidence.pop()
    assert "· the most similar incident that carries it, to compare: IL-0252 (0.22)\n" in render(
        Review(base=BASE, head=HEAD, files=[one]), Links(), COMMENT
    )


def test_an_added_facet_nothing_supports_is_listed_once_where_the_change_is():
    # It was listed under "Facets changed", with its neighbours to compare, and again under
    # "Facets nothing in the text supports", with less. The JSON keeps both.
    judged = TermJudgement(
        term="security-attack",
        score=0.04,
        evidence=[Evidence(incident="IL-0252", similarity=0.21, kind="related")],
    )
    file = FileReview(
        path="incidents/IL-0025.yaml", change="changed", id="IL-0025",
        suggestions=[FacetJudgement(dimension="causes", unsupported=[judged])],
        facets_changed=[
            FacetChange(dimension="causes", term="security-attack", change="added", support=judged)
        ],
    )  # fmt: skip
    text = render(Review(base=BASE, head=HEAD, files=[file]), Links(), COMMENT)
    assert "Facets nothing in the text supports" not in text
    [line] = [line for line in text.splitlines() if "security-attack" in line]
    assert line == (
        "- `+ causes: security-attack` · score 0.04 · the most similar incident that carries "
        "it, to compare: IL-0252 (0.21)"
    )
    # Of a new file, which has no facets changed, it is where it was.
    new = file.model_copy(update={"change": "added", "facets_changed": []})
    text = render(Review(base=BASE, head=HEAD, files=[new]), Links(), COMMENT)
    unsupported = text.split("**Facets nothing in the text supports** — please check:\n\n")[1]
    assert unsupported.startswith("- **causes** · `security-attack` · score 0.04 · ")


def english_review() -> Review:
    """A new incident written in English: IL404 on six fields, as the rule words it, beside
    its IL206 and two findings of a rule that say the same on two lines."""
    path = "incidents/IL-NEW-en.yaml"
    text = incident(
        "IL-NEW-en",
        ("공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다", "Metadata saturation"),
        ("학습 처리량이 떨어졌다.", "Throughput fell."),
        ("노드 수를 늘렸다.", "Nodes were added."),
        ("처리량 그래프에서 보였다.", "A graph showed it."),
        ("  - 데이터를 로컬 디스크로 옮겼다.", "  - Data was moved.\n  - Disks were added."),
    )
    found = [
        finding(line, "IL404", message, "warning", path=path)
        for line, _, message in file_findings(not_in_korean, text)
    ]
    file = FileReview(
        path=path,
        change="added",
        id="IL-NEW-en",
        title="Metadata saturation",
        findings=[
            finding(
                1, "IL206", "placeholder id IL-NEW-en, numbered at merge", "warning", path=path
            ),
            *found,
            *(
                finding(n, "IL602", "trailing white space", "warning", path=path, fixable=True)
                for n in (26, 27)
            ),
        ],
    )
    return Review(base=BASE, head=HEAD, files=[file])


def test_findings_that_say_the_same_of_several_fields_are_one_line_with_every_line():
    # Seven IL404 lines repeated one long message, field by field, five shown and two
    # folded: a reviewer read the same sentence six times to learn which fields.
    review = english_review()
    assert [f.code for f in review.files[0].findings].count("IL404") == 6
    text = render(review, Links(), COMMENT)
    warnings = text.split("**Warnings**\n\n")[1].split("\n\n")[0].splitlines()
    assert warnings == [
        "- line 1 · **IL206** · placeholder id IL-NEW-en, numbered at merge",
        "- lines 2, 15, 17, 19, 22, 23 · **IL404** · each of title, symptom, trigger, "
        "detection, actions\\[0\\], actions\\[1\\] holds no Korean: the library is written "
        "in Korean, with English only beside it \\(in parentheses, or as a product or error "
        "name\\)",
        "- lines 26, 27 · **IL602** · trailing white space (fixable with `curator fix`)",
    ]
    assert "<details>" not in text  # nothing folded: three lines
    # Each line is linked, the status line and the annotations count each finding.
    linked = render(review, LINKS, COMMENT)
    url = f"{OURS}blob/{HEAD}/incidents/IL-NEW-en.yaml"
    assert f"- lines [2]({url}#L2), [15]({url}#L15), [17]({url}#L17), " in linked
    assert linked.splitlines()[1].startswith("### ✅ 0 errors · ⚠️ 9 warnings · ")
    assert len(workflow_commands(review)) == 9
    assert_snapshot("review_comment_grouped.md", linked)


def test_findings_folded_or_cut_are_counted_one_by_one_not_by_line():
    path = "incidents/IL-0300.yaml"
    found = [finding(n, f"IL60{n}", f"message {n}", "warning") for n in range(1, 7)]
    same = [finding(n, "IL602", "trailing white space", "warning") for n in range(10, 14)]
    file = FileReview(path=path, change="added", findings=[*found, *same])
    text = render(Review(base=BASE, head=HEAD, files=[file]), Links(), COMMENT)
    assert "<summary>5 more warnings</summary>" in text  # message 6 and the four lines
    assert "- lines 10, 11, 12, 13 · **IL602** · trailing white space" in text


def unsupported_review() -> Review:
    """IL-0025 given six components and losing one, `mysql` supported by nothing; five
    suggestions, with scores and evidence."""
    nothing = TermJudgement(term="mysql", score=0.0)
    near = Evidence(incident="IL-0128", similarity=0.54, kind="related")
    supported = TermJudgement(term="nic", score=0.67, evidence=[near])
    terms = ["cilium", "cooling", "feature-flags", "iam", "package-registry"]
    changes = [
        *(FacetChange(dimension="components", term=t, change="added", support=supported)
          for t in terms),
        FacetChange(dimension="components", term="ufm", change="removed"),
        FacetChange(dimension="components", term="mysql", change="added", support=nothing),
    ]  # fmt: skip
    missing = [
        TermJudgement(
            term=term,
            score=score,
            evidence=[Evidence(phrase=phrase, field="symptom", alias=alias), near],
        )
        for term, score, phrase, alias in [
            ("nic", 0.67, "ConnectX-7 NIC 가 하나씩", "NIC"),
            ("local-nvme", 0.64, "불량 NVMe 드라이브,", "NVMe"),
            ("linux-kernel", 0.58, "커널 모듈을 추가하고", "커널 모듈"),
            ("network-switch", 0.54, "스위치", "스위치"),
            ("nvlink", 0.48, "NVLink", "NVLink"),
            ("pcie", 0.41, "PCIe 케이블", "PCIe"),
            ("gpu", 0.40, "GPU", "GPU"),
        ]
    ]
    new_term = TermJudgement(term="dns", score=0.02, evidence=[near])
    file = FileReview(
        path="incidents/IL-0025.yaml", change="changed", id="IL-0025",
        suggestions=[
            FacetJudgement(dimension="components", missing=missing, unsupported=[nothing]),
        ],
        facets_changed=changes,
        facets_to_paste={"components": ["cilium", "gpu", "mysql"]},
    )  # fmt: skip
    fresh = FileReview(
        path="incidents/IL-NEW-x.yaml", change="added",
        suggestions=[
            FacetJudgement(dimension="components", missing=missing, unsupported=[new_term]),
        ],
    )  # fmt: skip
    return Review(base=BASE, head=HEAD, files=[file, fresh])


def test_facets_nothing_supports_are_counted_and_never_folded_behind_the_rest():
    # The status line said "✅ 0 facet suggestions" and nothing of them; an added term
    # nothing supports was the seventh facet change, folded; a new file's came after its
    # suggestions and the block to paste.
    review = unsupported_review()
    text = render(review, Links(), COMMENT)
    assert text.splitlines()[1] == (
        "### ✅ 0 errors · ✅ 0 warnings · ✅ 0 possible duplicates · 💡 14 facet suggestions"
        " · ⚠️ 2 unsupported facets"
    )
    changed = text.split("**Facets changed**")[1].split("<details>")[0]
    said = "- `+ components: mysql` · score 0.00 · " + "nothing in the text or the most "
    assert said + "similar incidents supports it" in changed
    fresh = text.split("IL-NEW-x.yaml")[1]
    assert fresh.index("**Facets nothing in the text supports**") < fresh.index("Suggested")
    # None when there are none, as the claims to check.
    quiet = sample_not_a_duplicate()
    quiet.files[0].suggestions[0].unsupported.clear()
    assert "unsupported" not in render(quiet, Links(), COMMENT).splitlines()[1]
    assert_snapshot("review_comment_facets.md", render(review, LINKS, COMMENT))


def test_findings_link_to_their_line_at_the_head_and_removed_files_at_the_base():
    text = render(sample(), LINKS, COMMENT)
    assert f"[line 11]({OURS}blob/{HEAD}/incidents/IL-0300.yaml#L11) · **IL301**" in text
    assert f"[line 1]({OURS}blob/{BASE}/incidents/IL-0007.yaml#L1) · **IL901**" in text
    assert f"| [IL-0198]({OURS}blob/{HEAD}/incidents/IL-0198.yaml) |" in text


# --- hostile text ------------------------------------------------------------------------------

HOSTILE = (
    "<img src=x onerror=alert(1)></details><details open><summary>x</summary> "
    "[click me](https://evil.example/phish) ![tracker](https://evil.example/t.png) "
    "<https://evil.example/auto> www.evil.example @octo-org/security-team @admin "
    "#1 # Heading **bold** _em_ ~~strike~~ $x^2$ | a | b | `code` <!-- "
    "\n\n## injected heading\n- list\n```\nfence\n```\n| x | y |\n</sub>"
)


def hostile_review() -> Review:
    judged = TermJudgement(
        term="nccl\n```\n@admin",
        score=0.9,
        evidence=[Evidence(phrase=HOSTILE, field=HOSTILE, alias=HOSTILE)],
    )
    file = FileReview(
        path="incidents/IL-0300.yaml) [x](https://evil.example",
        change="renamed",
        old_path=HOSTILE,
        id=HOSTILE,
        title=HOSTILE,
        facets={"causes": ["capacity-limit", "x\n```\n@admin"]},
        findings=[
            finding(2, "IL201", HOSTILE, path=HOSTILE),
            finding(2, "IL201", "up and out", path="../../../../evil-org/evil/blob/main/x"),
            # (Each its own: the same message on several lines is one line, `_grouped`.)
            *(finding(i, "IL602", f"{HOSTILE} {i}", "warning") for i in range(3, 12)),
            finding(12, "IL602", "evil.example", "warning", path="incidents/./../../x"),
        ],
        matches=[
            # (Not the file's own id, which the block to settle a false duplicate leaves out.)
            Match(id=f"x{HOSTILE}", score=0.9, kind="duplicate", title=HOSTILE, reasons=[HOSTILE]),
            Match(id="IL-0001](https://evil.example", score=0.3, kind="related", title=HOSTILE),
        ],
        suggestions=[FacetJudgement(dimension="causes", missing=[judged], unsupported=[judged])],
        facets_to_paste={"causes": ["capacity-limit", "x\n```\n@admin", judged.term]},
        duplicate_of=Match(id=HOSTILE, score=0.1, kind="related", title=HOSTILE, reasons=[HOSTILE]),
    )
    # The same, not taken for a duplicate: its facets judged are shown (`_left_out`).
    judged_file = file.model_copy(update={"path": f"{file.path}2", "matches": file.related()})
    return Review(base=BASE, head=HEAD, files=[file, judged_file])


def test_hostile_incident_text_comes_out_inert():
    text = render(hostile_review(), LINKS, COMMENT)
    # Only our own tags, balanced.
    tags = set(re.findall(r"<[^>]*>", text))
    assert tags <= {
        "<!-- curator-review -->",
        "<details>",
        "</details>",
        "<summary>",
        "</summary>",
        "<sub>",
        "</sub>",
    }
    assert text.count("<details>") == text.count("</details>") == 4
    # Links and images only where we put them, to this repository.
    assert "![" not in text.replace("\\![", "")
    targets = re.findall(r"(?<!\\)\]\(([^)]*)\)", text)
    assert targets and all(t.startswith(OURS) for t in targets), targets
    assert all(re.fullmatch(r"[A-Za-z0-9%/._~:#-]+", t) and "/.." not in t for t in targets)
    # No mention, team mention, issue reference or autolink can fire.
    assert not re.search(r"@[A-Za-z0-9]", text)
    assert not re.search(r"(?<!&)#[0-9]", text)
    assert "://evil" not in text and "www.evil" not in text
    # No heading, list, quote or fence starts from data; no table row gains a column.
    for line in text.splitlines():
        if line.startswith("#"):
            assert line.startswith(("### ✅", "### ❌", "### ⚠️", "### 💡", "#### 📄 ")), line
        if line.startswith("|"):
            assert len(re.findall(r"(?<!\\)\|", line)) == 5, line
    assert "\n## injected" not in text and "\n- list" not in text
    fences = [line for line in text.splitlines() if line.startswith("```")]
    assert fences == ["```yaml", "```", "```yaml", "```"]
    snippet = text.split("```yaml\n")[1].split("```")[0]
    assert "@" not in snippet and "    - capacity-limit\n" in snippet


def test_a_command_a_rule_quotes_in_backticks_shows_as_code():
    # IL206's message, as the rule words it, where the comment showed \`curator assign-ids\`
    # beside its own "(fixable with `curator fix`)".
    [(_, _, message)] = file_findings(placeholder_id, incident("IL-NEW-weka-eviction"))
    file = FileReview(
        path="incidents/IL-NEW-weka-eviction.yaml",
        change="added",
        id="IL-NEW-weka-eviction",
        findings=[finding(1, "IL206", message, "warning")],
    )
    text = render(Review(base=BASE, head=HEAD, files=[file]), LINKS, COMMENT)
    line = next(line for line in text.splitlines() if "**IL206**" in line)
    assert line.endswith(
        "· **IL206** · placeholder id IL-NEW-weka-eviction, numbered at merge "
        "\\(`curator assign-ids`\\)"
    )
    assert inert_message("`duplicate_of` names IL-0001") == "`duplicate_of` names IL-0001"


@pytest.mark.parametrize(
    "message",
    [
        "`@admin`",
        "`curator @octo-org/security-team`",
        "`<img src=x onerror=alert(1)>`",
        "`x</details>`",
        "`](http://x)`",
        "`www.evil.example`",
        "`https://evil.example`",
        "`#1`",
        "`GH-1`",
        "`:fire:`",
        "`a :fire: b`",
        "`.`",
        "`#`",
        "`-`",
        "``code``",
        "```code```",
        "`a``b`",
        "`code``",
        "x`code`",
        "`code`x",
        "1`code`",
        "`code`로",
        "`co\u200bde`",
        "`co\u202ede`",
        "\u202e`code`",
        "`code\u202e`",
        "`code\\`",
        "\\``code`",
        "`" + "a" * 10_000 + "`",
        "`" + "a" * 10_000,
    ],
)
def test_a_backtick_span_not_shaped_like_a_command_stays_text(message):
    # As `inert_name` makes it: backticks escaped, nothing that can act.
    assert inert_message(message) == inert_name(message, 500)
    assert "`" not in inert_message(message).replace("\\`", "")


def test_a_span_shaped_like_a_command_beside_hostile_text_leaves_that_text_inert():
    cases = {
        # A mention, a tag, a link, a URL next to the span: each as `inert_name` makes it.
        "`code`@admin": f"`code`@{ZWSP}admin",
        "`code`<img src=x>": "`code`&lt;img src=x&gt;",
        "[`click`](http://evil.example)": f"\\[`click`\\]\\(http:{ZWSP}//evil.example\\)",
        "`http`://evil.example": "`http`://evil.example",
        "`code` www.evil.example": f"`code` www{ZWSP}.evil.example",
        "`code`#1": f"`code`\\#{ZWSP}1",
        # A backtick run beside it, apart by a space: escaped, the span alone is code.
        "`` `code` ``": "\\`\\` `code` \\`\\`",
        "`a `code`": "\\`a `code`",
        # An invisible character next to it is written as its escape, not kept.
        "`code`\u202e": "`code`\\\\u202e",
        "`code`\u200b 로": "`code`\\\\u200b 로",
        "\\`code`": "\\\\`code`",
        # Cut inside a span: its backtick stays text.
        "`" + "a" * 10_000 + "`": "\\`" + "a" * 498 + "…",
    }
    assert {message: inert_message(message) for message in cases} == cases
    assert inert_message("`" + "a" * 10_000 + "`", 20_000) == "`" + "a" * 10_000 + "`"


# In what `inert_message` makes: an escape, a code span (single backticks), or a lone backtick.
_PIECES = re.compile(r"\\.|`([^`]*)`|`", re.DOTALL)


@given(st.text(st.sampled_from("`` ``aZ0_:.-@#<>[]()\\/ 로\u200b\u202e\n") | st.characters()))
@example("\\`ab`")
@example("`a `b_c`:")
def test_a_message_has_no_markup_but_code_spans_shaped_like_a_command(text):
    out = inert_message(text, 10_000)

    def unescaped(piece: re.Match[str]) -> str:
        if piece.group(1) is None:
            assert piece.group(0) != "`", out  # a lone backtick
            return piece.group(0)
        assert re.fullmatch(r"[A-Za-z][A-Za-z0-9 _:.-]*", piece.group(1)), out
        before, after = out[: piece.start()][-1:], out[piece.end() :][:1]
        assert not before.isalnum() and not after.isalnum(), out
        return "\\`" + piece.group(1).replace("_", "\\_") + "\\`"

    # Everything but the spans is as `inert_name` makes it; the spans are its, unescaped.
    back = _PIECES.sub(unescaped, out)
    assert back == inert_name(text, 10_000)


def added(slug: str, *duplicates: str, broken: bool = False) -> FileReview:
    """A new incident of the change, `IL-NEW-<slug>`, taken for a duplicate of each of
    `duplicates`; `broken`, with an error."""
    path = f"incidents/IL-NEW-{slug}.yaml"
    return FileReview(
        path=path,
        change="added",
        id=f"IL-NEW-{slug}",
        matches=[Match(id=i, score=0.9, kind="duplicate", title="t") for i in duplicates],
        findings=[finding(4, "IL301", "x", path=path)] if broken else [],
    )


def _unescaped(text: str, specials: str) -> list[str]:
    found, i = [], 0
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] in specials:
            found.append(text[i])
        i += 1
    return found


@given(st.text())
def test_inert_text_has_no_markup_whatever_the_input(text):
    out = inert(text, 10_000)
    assert "\n" not in out and "\r" not in out
    assert "<" not in out and ">" not in out
    assert _unescaped(out.replace(ZWSP, ""), "[]`*_|~$!#()") == []
    assert all(out[i + 1 :].startswith(ZWSP) for i, ch in enumerate(out) if ch == "@")
    assert re.search(r"(?i)\bGH-[0-9]", out) is None  # an issue reference, as #26 is
    assert re.search(r":[A-Za-z0-9_+-]+:", out) is None  # an emoji shortcode


def test_emoji_shortcodes_stay_text():
    assert inert("NCCL :warning: 로그") == f"NCCL :{ZWSP}warning: 로그"
    assert inert("10:30 UTC") == "10:30 UTC"  # nothing to break without a closing colon


def test_issue_references_in_both_forms_are_broken():
    assert inert("see #26 and GH-26, gh-7") == f"see \\#{ZWSP}26 and GH-{ZWSP}26, gh-{ZWSP}7"


# What opens a block at the start of a line (CommonMark and GitHub's extensions).
BLOCK_START = re.compile(r"[-+*=_>#|<~`]|[0-9]{1,9}[.)]|\s")


@given(st.text())
def test_inert_text_cannot_open_a_block_at_the_start_of_a_line(text):
    assert not BLOCK_START.match(inert(text, 10_000))


def test_an_incident_without_a_usable_id_does_not_make_its_title_markup():
    hostile = [
        (None, "2023. 3. 8. Datadog 장애 (초안)", "2023\\. 3. 8. Datadog 장애 \\(초안\\)"),
        ("+ x", "제목", "\\+ x · 제목"),
        (None, "---", "\\---"),
        (None, "- - -", "\\- - -"),
        (None, "===", "\\==="),
        ("1) 가", None, "1\\) 가"),
        (None, "  > 인용", "&gt; 인용"),
    ]
    for number, (incident_id, title, expected) in enumerate(hostile):
        path = f"incidents/IL-NEW-{number}.yaml"
        file = FileReview(
            path=path,
            change="added",
            id=incident_id,
            title=title,
            findings=[finding(1, "IL202", "no id", path=path)],
        )
        lines = render(Review(base=BASE, head=HEAD, files=[file]), LINKS, COMMENT).splitlines()
        heading = next(i for i, line in enumerate(lines) if line.startswith("#### 📄"))
        assert lines[heading + 2] == expected


def test_inert_keeps_korean_and_cuts_long_text():
    assert inert("스토리지에서 NCCL의 타임아웃") == "스토리지에서 NCCL의 타임아웃"
    assert inert("가" * 600, 10) == "가" * 9 + "…"


def test_a_cut_never_splits_a_letter_written_as_several_characters():
    # Korean as separate jamo (NFD, as some sources paste it: IL605 until `curator fix`)
    # was cut inside a syllable, leaving a lone consonant, or 각 made 가; an accent alike.
    jamo = unicodedata.normalize("NFD", "스토리지 각각")
    assert len(jamo) == 15
    cut = {limit: unicodedata.normalize("NFC", inert(jamo, limit)) for limit in (4, 12, 14)}
    assert cut == {4: "스…", 12: "스토리지…", 14: "스토리지 각…"}
    assert inert("e\u0301" * 5, 4) == "e\u0301…"


def test_a_file_name_holding_an_invisible_character_is_shown_as_curator_lint_prints_it():
    # Made a space, or dropped at the end, U+202E and U+200B named files that are not there:
    # `IL-0300.yaml\u200b` was shown as the valid incident file name IL-0300.yaml.
    renamed = "incidents/IL-NEW-a\u202eb.yaml"
    message = "id IL-0300 differs from the file name IL-NEW-a\u202eb.yaml"
    file = FileReview(
        path=renamed,
        change="renamed",
        old_path="incidents/IL-0300.yaml\u200b",
        id="IL-0300",
        findings=[finding(1, "IL203", message, path=renamed)],
    )
    lines = render(Review(base=BASE, head=HEAD, files=[file]), Links(), COMMENT).splitlines()
    # (The escape's backslash is escaped too: the comment shows `\u202e`, as lint prints it.)
    shown, old = r"incidents/IL-NEW-a\\u202eb.yaml", r"incidents/IL-0300.yaml\\u200b"
    assert f"#### 📄 **{shown}** (renamed from {old})" in lines
    said = r"id IL-0300 differs from the file name IL-NEW-a\\u202eb.yaml"
    assert f"- line 1 · **IL203** · {said}" in lines


# --- size limits ---------------------------------------------------------------------------------


def big_review(files: int) -> Review:
    message = "'ncl' is not a term of components; did you mean 'nccl'? " * 4
    reviews = [
        FileReview(
            path=f"incidents/IL-{1000 + i:04d}.yaml",
            change="added",
            id=f"IL-{1000 + i:04d}",
            title="공유 스토리지의 메타데이터 포화로 학습 처리량이 떨어졌다 " * 3,
            findings=[
                finding(n + 1, "IL301", message, path=f"incidents/IL-{1000 + i:04d}.yaml")
                for n in range(20)
            ],
            matches=[
                Match(
                    id=f"IL-{i:04d}",
                    score=0.8,
                    kind="duplicate",
                    title="제목 " * 30,
                    reasons=["same organisation Example, occurred 2024-05 vs 2024-05"] * 3,
                )
            ],
        )
        for i in range(files)
    ]
    return Review(base=BASE, head=HEAD, files=reviews)


def test_a_300_file_review_is_trimmed_to_the_comment_limit_with_a_note():
    review = big_review(300)
    text = render(review, LINKS, COMMENT)
    assert utf16_length(text) <= COMMENT_LIMIT
    assert "This report was trimmed to fit GitHub's limit of 65,536 characters" in text
    assert "the job summary of the workflow run and its `review` artifact" in text
    # Every file with an error keeps at least its line; none is left out.
    assert all(f"incidents/IL-{1000 + i:04d}.yaml" in text for i in range(300))
    assert "more file" not in text
    assert text.rstrip().endswith("<sub>curator 0.1.0</sub>")  # the footer survives
    assert text.count("<details>") == text.count("</details>")


def test_the_job_summary_holds_more_but_stays_within_1_mib():
    review = big_review(300)
    summary = render(review, LINKS, SUMMARY)
    assert len(summary.encode("utf-8")) <= 1024 * 1024
    assert len(summary) > 10 * len(render(review, LINKS, COMMENT))
    huge = render(big_review(1000), LINKS, SUMMARY)  # 8.5 MB before trimming
    assert len(huge.encode("utf-8")) <= 1024 * 1024 and "1,048,576 bytes" in huge


def test_annotations_respect_githubs_ten_per_kind_and_say_what_was_left_out():
    file = FileReview(
        path="incidents/IL-0300.yaml",
        change="added",
        findings=[finding(i, "IL301", "bad\nline") for i in range(1, 26)]
        + [finding(i, "IL602", "ws", "warning") for i in range(1, 16)],
        matches=[Match(id=f"IL-{i:04d}", score=0.9, kind="duplicate") for i in range(12)],
    )
    lines = workflow_commands(Review(base=BASE, head=HEAD, files=[file]))
    kinds = [line.split(" ", 1)[0] for line in lines]
    assert kinds.count("::error") == 10 and kinds.count("::warning") == 10
    assert kinds.count("::notice") == 10
    assert lines[-1].endswith(
        "::not shown as annotations (GitHub shows 10 of each kind per step): 15 more "
        "errors, 5 more warnings and 3 more possible duplicates; the job summary lists them all"
    )
    assert all("\n" not in line for line in lines) and "bad%0Aline" in lines[0]


def test_a_pair_of_incidents_of_the_change_is_one_notice_as_it_is_one_duplicate():
    # Each of the two files got a notice of the other: a pair took two of the ten notices,
    # and the count of those left out was not the status line's.
    pairs = [added(f"p{i}", f"IL-NEW-q{i}") for i in range(6)]
    pairs += [added(f"q{i}", f"IL-NEW-p{i}") for i in range(6)]
    review = Review(base=BASE, head=HEAD, files=[*pairs, added("r", "IL-0001")])
    lines = workflow_commands(review)
    notices = [line for line in lines if line.startswith("::notice file=")]
    assert review.count().duplicates == 7 and len(notices) == 7
    assert not any("title=more in the job summary" in line for line in lines)
    assert notices[0].startswith("::notice file=incidents/IL-NEW-p0.yaml,line=1,")
    assert "possible duplicate of IL-NEW-q0 (score 0.90)" in notices[0]


def advice_only(number: int) -> FileReview:
    """A file that a wording change touched: nothing but long facet suggestions."""
    evidence = [Evidence(phrase="공유 스토리지의 메타데이터 포화 " * 3, field="trigger")] * 6
    judged = [TermJudgement(term=f"term-{n}", score=0.5, evidence=evidence) for n in range(12)]
    return FileReview(
        path=f"incidents/IL-{number:04d}.yaml",
        change="changed",
        id=f"IL-{number:04d}",
        suggestions=[FacetJudgement(dimension="causes", missing=judged)],
    )


def test_a_trimmed_comment_keeps_errors_and_duplicates_before_advice():
    # Sorted last by path, as new incidents (IL-NEW-…) are, after 80 files of advice.
    bad = FileReview(
        path="incidents/IL-NEW-bad.yaml",
        change="added",
        id="IL-NEW-bad",
        findings=[finding(11, "IL301", "'consul' is not a term", path="incidents/IL-NEW-bad.yaml")],
    )
    twin = FileReview(
        path="incidents/IL-NEW-twin.yaml",
        change="added",
        id="IL-NEW-twin",
        matches=[Match(id="IL-0262", score=0.97, kind="duplicate", title="GitHub 2018")],
    )
    noisy = [advice_only(n) for n in range(1, 81)]
    text = render(Review(base=BASE, head=HEAD, files=[*noisy, bad, twin]), LINKS, COMMENT)
    assert "This report was trimmed" in text and utf16_length(text) <= COMMENT_LIMIT
    sections = text.split("#### 📄 ")[1:]
    assert sections[0].startswith("[incidents/IL-NEW-bad.yaml]") and "**IL301**" in sections[0]
    assert sections[1].startswith("[incidents/IL-NEW-twin.yaml]") and "IL-0262" in sections[1]
    # Advice shrinks to one line a file before anything is left out.
    assert "more file" not in text
    assert all(f"incidents/IL-{n:04d}.yaml" in text for n in range(1, 81))
    shrunk = [line for line in text.splitlines() if line.endswith(": 12 facet suggestions")]
    assert shrunk and all(line.startswith("- [incidents/IL-0") for line in shrunk)


def test_the_one_line_entries_of_a_trimmed_comment_are_a_tight_list():
    # Joined by blank lines, as whole sections are, they were a loose list: GitHub showed
    # each line as a paragraph of its own, a blank line apart.
    noisy = [advice_only(n) for n in range(1, 81)]
    text = render(Review(base=BASE, head=HEAD, files=noisy), LINKS, COMMENT)
    lines = [line for line in text.splitlines() if line.endswith(": 12 facet suggestions")]
    assert len(lines) > 20 and all(line.startswith("- [incidents/IL-0") for line in lines)
    assert "\n\n" + "\n".join(lines) + "\n\n" in text  # one list, apart from the rest


def test_when_not_even_every_line_fits_errors_are_the_lines_kept():
    errors = [
        FileReview(
            path=f"incidents/IL-NEW-{n:04d}.yaml",
            change="added",
            findings=[finding(1, "IL301", "x", path=f"incidents/IL-NEW-{n:04d}.yaml")],
        )
        for n in range(350)
    ]
    noisy = [advice_only(n) for n in range(1, 2001)]
    text = render(Review(base=BASE, head=HEAD, files=[*noisy, *errors]), LINKS, COMMENT)
    assert utf16_length(text) <= COMMENT_LIMIT
    assert all(f"incidents/IL-NEW-{n:04d}.yaml" in text for n in range(350))
    assert re.search(r"… and [\d,]+ more files with findings", text)


def test_a_files_one_line_names_the_codes_of_its_errors():
    # "1 error" was all a trimmed comment said of a file whose section did not fit: the
    # reviewer could not tell a misspelt term from a broken file without the job summary.
    codes = ["IL301", "IL301", "IL502", "IL101", "IL205", "IL602"]
    severities = ["error"] * 5 + ["warning"]
    many = FileReview(
        path="incidents/IL-NEW-many.yaml",
        change="added",
        findings=[
            finding(n, code, "x", severity, path="incidents/IL-NEW-many.yaml")
            for n, (code, severity) in enumerate(zip(codes, severities, strict=True), 1)
        ],
    )
    two = FileReview(
        path="incidents/IL-NEW-two.yaml",
        change="added",
        findings=[finding(n, "IL301", f"x{n}", path="incidents/IL-NEW-two.yaml") for n in (1, 2)],
    )
    noisy = [advice_only(n) for n in range(1, 2001)]
    text = render(Review(base=BASE, head=HEAD, files=[*noisy, many, two]), LINKS, COMMENT)
    lines = {line.split("): ", 1)[1] for line in text.splitlines() if "IL-NEW-" in line}
    assert lines == {
        "5 errors (IL301, IL502, IL101 and 1 more), 1 warning",
        "2 errors (IL301)",
    }


def test_a_relabel_s_one_line_counts_its_facet_changes():
    # A relabel with nothing else said "see the full report" on its line in a trimmed
    # comment, as if it held nothing the line could count.
    broken = FileReview(
        path="incidents/IL-NEW-big.yaml",
        change="added",
        findings=[
            finding(n, "IL301", f"{n}" + "x" * 400, path="incidents/IL-NEW-big.yaml")
            for n in range(1, 301)
        ],
    )
    relabel = FileReview(
        path="incidents/IL-0025.yaml",
        change="changed",
        id="IL-0025",
        facets_changed=[
            FacetChange(dimension="causes", term="security-attack", change="added"),
            FacetChange(dimension="causes", term="hardware-failure", change="removed"),
        ],
    )
    text = render(Review(base=BASE, head=HEAD, files=[broken, relabel]), LINKS, COMMENT)
    assert "This report was trimmed" in text and "Facets changed" not in text
    [line] = [line for line in text.splitlines() if "IL-0025" in line]
    assert line.startswith("- [incidents/IL-0025.yaml](") and line.endswith("): 2 facet changes")
    one = relabel.model_copy(update={"facets_changed": relabel.facets_changed[:1]})
    text = render(Review(base=BASE, head=HEAD, files=[broken, one]), LINKS, COMMENT)
    assert "): 1 facet change\n" in text


def test_a_match_merged_to_the_base_meanwhile_is_said_so_and_linked_at_the_base_tip():
    tip = "3" * 40
    file = FileReview(
        path="incidents/IL-NEW-gh2.yaml",
        change="added",
        matches=[
            Match(id="IL-NEW-gh", score=1.0, kind="duplicate", title="GitHub 2018", on_base=True),
            Match(id="IL-0262", score=0.97, kind="duplicate", title="GitHub 2018"),
        ],
    )
    text = render(Review(base=BASE, head=HEAD, base_tip=tip, files=[file]), LINKS, COMMENT)
    assert (
        f"| [IL-NEW-gh]({OURS}blob/{tip}/incidents/IL-NEW-gh.yaml) (merged to the base branch "
        "since this branch started) | GitHub 2018 | 1.00 |  |"
    ) in text
    assert f"| [IL-0262]({OURS}blob/{HEAD}/incidents/IL-0262.yaml) | GitHub 2018 | 0.97 |" in text
    assert "`curator review --base 333333333333 --head 222222222222`" in text
    # A report that does not say where the base's tip is: no link (the head has no such file).
    untold = render(Review(base=BASE, head=HEAD, files=[file]), LINKS, COMMENT)
    assert "| IL-NEW-gh (merged to the base branch since this branch started) |" in untold
    assert "`curator review --base 111111111111 --head 222222222222`" in untold


def test_files_merged_to_the_base_meanwhile_that_could_not_be_read_are_named_the_rest_counted():
    tip = "3" * 40
    unread = [
        UnreadOnBase(
            path=f"incidents/IL-09{n:02}.yaml", line=n, column=3, code="IL101", message="YAML"
        )
        for n in range(1, 7)
    ]
    refused = UnreadOnBase(
        path="incidents/IL-0999.yaml",
        code="IL107",
        message="cannot read the file: Permission denied",
    )
    review = Review(base=BASE, head=HEAD, base_tip=tip, base_tip_unread=[refused, *unread])
    lines = render(review, LINKS, COMMENT).splitlines()
    at = lines.index(
        "⚠️ 7 incident files merged to the base branch since this branch started could not be "
        "read: possible duplicates of this change's incidents were not looked for among them."
    )
    assert lines[at + 2 : at + 9] == [
        f"- [incidents/IL-0999.yaml]({OURS}blob/{tip}/incidents/IL-0999.yaml) · **IL107** · "
        "cannot read the file: Permission denied",
        *(
            f"- [incidents/IL-09{n:02}.yaml]({OURS}blob/{tip}/incidents/IL-09{n:02}.yaml#L{n}) "
            f"line {n}, column 3 · **IL101** · YAML"
            for n in range(1, 5)
        ),
        "- … and 2 more files: `curator review --format json` lists them all",
        "",
    ]
    # Without the base's tip (a report made by hand) nothing is linked: the merge base has
    # no such file.
    one = Review(base=BASE, head=HEAD, base_tip_unread=[unread[0]])
    text = render(one, LINKS, COMMENT)
    assert "\n- incidents/IL-0901.yaml line 1, column 3 · **IL101** · YAML\n" in text
    assert "1 incident file merged to the base branch since this branch started could" in text
    assert "were not looked for in it.\n" in text
    # A base that gained more than a report holds of anything else: no refusal, five named.
    many = [unread[0].model_copy(update={"path": f"incidents/IL-{n}.yaml"}) for n in range(10_001)]
    text = render(Review(base=BASE, head=HEAD, base_tip_unread=many), LINKS, COMMENT)
    assert "\n- … and 9,996 more files: `curator review --format json` lists them all\n" in text
    assert "could not be read" not in render(Review(base=BASE, head=HEAD), LINKS, COMMENT)


def test_an_incident_given_as_evidence_is_linked_where_it_is():
    # "IL-0216 carries it (0.41)" named an incident the reviewer had to look up elsewhere,
    # where the table of matches links each: the evidence is linked the same way, at the
    # head, or at the base's tip for one merged there meanwhile (the head has no such file).
    tip = "3" * 40
    near = Evidence(incident="IL-0216", similarity=0.41, kind="related")
    merged = Evidence(incident="IL-0300", similarity=0.3, kind="related", on_base=True)
    file = FileReview(
        path="incidents/IL-0212.yaml",
        change="changed",
        id="IL-0212",
        suggestions=[
            FacetJudgement(
                dimension="components",
                missing=[TermJudgement(term="load-balancer", score=0.48, evidence=[near, merged])],
                unsupported=[TermJudgement(term="dns", score=0.1, evidence=[near])],
            )
        ],
    )
    text = render(Review(base=BASE, head=HEAD, base_tip=tip, files=[file]), LINKS, COMMENT)
    at_head = f"[IL-0216]({OURS}blob/{HEAD}/incidents/IL-0216.yaml)"
    at_tip = f"[IL-0300]({OURS}blob/{tip}/incidents/IL-0300.yaml)"
    assert (
        f"- **components** · `load-balancer` · score 0.48 · {at_head} carries it (0.41); "
        f"{at_tip} carries it (0.30)"
    ) in text
    assert (
        "- **components** · `dns` · score 0.10 · the most similar incident that carries it, "
        f"to compare: {at_head} (0.41)"
    ) in text
    # Without a repository to link to, the ids stay as they were.
    plain = render(Review(base=BASE, head=HEAD, files=[file]), Links(), COMMENT)
    assert "· IL-0216 carries it (0.41); IL-0300 carries it (0.30)" in plain


def test_the_false_duplicate_block_says_when_the_branch_lacks_the_incident_it_names():
    # The block named an incident merged to the base branch since the branch started as it
    # named any other: pasted and pushed, it failed the review, as lint at the head found no
    # incident with that id (IL401).
    file = FileReview(
        path="incidents/IL-NEW-gh2.yaml",
        change="added",
        id="IL-NEW-gh2",
        matches=[
            Match(id="IL-0300", score=0.9, kind="duplicate", title="t", on_base=True),
            Match(id="IL-0262", score=0.8, kind="duplicate", title="t"),
        ],
    )
    review = Review(base=BASE, head=HEAD, base_tip="3" * 40, files=[file])
    foot = render(review, LINKS, COMMENT).split("**A false duplicate?**")[1]
    assert foot.split("<sub>")[0].endswith(
        "```yaml\nnot_duplicate_of:\n  - IL-0300  # if it is a different event\n"
        "  - IL-0262  # if it is a different event\n```\n\n"
        "This branch does not have IL-0300 yet (merged to the base branch since this branch "
        "started): merge the base branch into this one, or rebase onto it, before you add "
        "the block, or lint reports IL401 (no incident has that id).\n\n"
    )
    here = file.model_copy(update={"matches": [file.matches[1]]})
    assert "does not have" not in render(review.model_copy(update={"files": [here]}), LINKS)


def test_an_error_that_stops_the_other_checks_says_so():
    def comment(code: str) -> str:
        broken = FileReview(
            path="incidents/IL-0009.yaml",
            change="added",
            findings=[finding(3, code, "title: holds no visible character")],
        )
        return render(Review(base=BASE, head=HEAD, files=[broken]), LINKS, COMMENT)

    said = "the file is not read as an incident: the checks of its terms"
    assert said in comment("IL201") and said in comment("IL101")
    assert said not in comment("IL301")  # read, and checked: this is all there is


def test_the_false_duplicate_block_names_the_flagged_ids_and_only_when_there_are_some():
    def comment(*matches: Match) -> str:
        file = FileReview(path="incidents/IL-0009.yaml", change="added", matches=list(matches))
        return render(Review(base=BASE, head=HEAD, files=[file]), LINKS, COMMENT)

    def duplicate(incident_id: str) -> Match:
        return Match(id=incident_id, score=0.9, kind="duplicate", title="t", reasons=[])

    assert "A false duplicate?" not in comment()
    assert "A false duplicate?" not in comment(
        Match(id="IL-0116", score=0.31, kind="related", title="t", reasons=[])
    )
    block = comment(duplicate("IL-0198"), duplicate("IL-0025")).split("```yaml\n")[-1]
    assert block.startswith(
        "not_duplicate_of:\n  - IL-0198  # if it is a different event\n"
        "  - IL-0025  # if it is a different event\n```"
    )
    forged = comment(duplicate("IL-1\n```\n@everyone")).split("```yaml\n")[-1]
    assert forged.startswith("not_duplicate_of:\n  - IL-0000  # the incident it was taken for\n")


def test_the_false_duplicate_blocks_of_several_files_name_each_pair_once():
    # Two files with possible duplicates got one block naming IL-0000, and a pair of two
    # new incidents was counted twice.
    files = [added("a", "IL-NEW-b", "IL-0198"), added("b", "IL-NEW-a"), added("c", "IL-0025")]
    review = Review(base=BASE, head=HEAD, files=files)
    comment = render(review, LINKS, COMMENT)
    assert review.count().duplicates == 3
    assert "### ✅ 0 errors · ✅ 0 warnings · ❌ 3 possible duplicates ·" in comment
    assert comment.split("**A false duplicate?**")[1].split("<sub>")[0] == (
        " If the incidents describe different events, list the other id under "
        "`not_duplicate_of` in one of the two and push; the pair is not flagged again:\n\n"
        "In incidents/IL-NEW-a.yaml:\n\n```yaml\nnot_duplicate_of:\n"
        "  - IL-NEW-b  # if it is a different event\n"
        "  - IL-0198  # if it is a different event\n```\n\n"
        "In incidents/IL-NEW-c.yaml:\n\n```yaml\nnot_duplicate_of:\n"
        "  - IL-0025  # if it is a different event\n```\n\n"
    )
    many = [added(f"n{i}", f"IL-{i:04d}") for i in range(1, 8)]  # blocks for the first five
    foot = render(Review(base=BASE, head=HEAD, files=many), LINKS, COMMENT).split("---")[-1]
    assert foot.count("```yaml") == 5 and "IL-0005  #" in foot and "IL-0006" not in foot
    assert "… and so for 2 other files, with the ids of their possible duplicates." in foot


def two_new_incidents(
    matches: Callable[[str, str], list[Match]],
    findings: Callable[[str], list[ReportFinding]] = lambda path: [],
) -> tuple[FileReview, FileReview]:
    """IL-NEW-a and IL-NEW-b, added by the change: each with the `matches` made of its own
    name and the other's (`a`, `b`) and the `findings` made of its path."""

    def new(one: str, other: str) -> FileReview:
        path = f"incidents/IL-NEW-{one}.yaml"
        return FileReview(
            path=path,
            change="added",
            id=f"IL-NEW-{one}",
            findings=findings(path),
            matches=matches(one, other),
        )

    return new("a", "b"), new("b", "a")


def test_a_pair_of_two_incidents_of_the_change_gives_its_reasons_in_the_first_section_only():
    # Each file's table gave the pair its full row, the same reasons printed twice.
    reasons = ["same organisation Hugging Face, neither gives a date", "text similarity 0.49"]
    a, b = two_new_incidents(
        lambda one, other: [
            Match(id=f"IL-NEW-{other}", score=1.0, kind="duplicate", reasons=reasons),
            Match(id="IL-0129", score=0.97, kind="duplicate", reasons=reasons),
        ]
    )
    # b first: its error puts its section first, and the pair's reasons with it.
    b = b.model_copy(update={"findings": [finding(4, "IL301", "x", path=b.path)]})
    comment = render(Review(base=BASE, head=HEAD, files=[a, b]), LINKS, COMMENT)
    assert "### ✅ 0 errors" not in comment and "❌ 3 possible duplicates" in comment
    first, second = comment.split("#### 📄 ")[1:]
    assert first.startswith("[incidents/IL-NEW-b.yaml]")
    assert f"| 1.00 | {reasons[0]}; {reasons[1]} |" in first
    [row] = [line for line in second.splitlines() if line.startswith("| [IL-NEW-b]")]
    assert row.endswith(
        "| 1.00 | the pair is shown with its reasons under incidents/IL-NEW-b.yaml, above |"
    )
    # The other pairs keep their reasons in each section.
    assert second.count(f"| 0.97 | {reasons[0]}; {reasons[1]} |") == 1
    assert comment.count(reasons[0]) == 3


def test_a_trimmed_comment_never_points_at_reasons_it_does_not_print():
    # The pair's reasons are given in the section shown first; trimmed to a line while the
    # other file's section fitted (same rank, smaller), that section still sent the reader
    # to reasons "above" that were nowhere in the comment.
    reasons = ["same organisation Hugging Face, neither gives a date", "text similarity 0.49"]
    a, b = two_new_incidents(
        lambda one, other: [
            Match(id=f"IL-NEW-{other}", score=1.0, kind="duplicate", reasons=reasons)
        ],
        lambda path: [
            finding(n, "IL301", "not a term " + "x" * 400, path=path)
            for n in range(1, 7 if path.endswith("-a.yaml") else 2)
        ],
    )
    review = Review(base=BASE, head=HEAD, files=[a, b])
    full = utf16_length(render(review, LINKS, COMMENT))
    a_line_b_whole = 0
    for limit in range(full // 3, full, 10):
        comment = render(review, LINKS, Budget(limit, utf16_length, "the job summary"))
        assert utf16_length(comment) <= limit
        for ref in re.findall(r"shown with its reasons under (\S+), above", comment):
            assert f"#### 📄 [{ref}]" in comment, f"at {limit}: {ref} is one line or not shown"
        if "- [incidents/IL-NEW-a.yaml]" in comment and "#### 📄 [incidents/IL-NEW-b" in comment:
            a_line_b_whole += 1
            assert f"| 1.00 | {reasons[0]}; {reasons[1]} |" in comment
    assert a_line_b_whole  # the case above was met


def test_the_lines_of_a_trimmed_comment_count_a_pair_of_the_change_once():
    # Each of the two files' lines counted the pair, 3 possible duplicates in the lines
    # under a status line of 2, while the pair's reasons are given once.
    a, b = two_new_incidents(
        lambda one, other: [
            Match(id=f"IL-NEW-{other}", score=1.0, kind="duplicate", reasons=["r" * 300]),
            *[Match(id="IL-0129", score=0.9, kind="duplicate")] * (one == "a"),
        ],
        lambda path: [finding(1, "IL301", "x" * 400, path=path)],
    )
    review = Review(base=BASE, head=HEAD, files=[a, b])
    for limit in range(1000, COMMENT_LIMIT, 50):
        comment = render(review, LINKS, Budget(limit, utf16_length, "the job summary"))
        lines = [line for line in comment.splitlines() if line.startswith("- [incidents/")]
        if len(lines) == 2:
            break
    assert "❌ 2 possible duplicates" in comment.splitlines()[1]
    assert lines[0].endswith(": 1 error (IL301), 2 possible duplicates")
    assert lines[1].endswith(
        ": 1 error (IL301), its pair with incidents/IL-NEW-a.yaml counted above"
    )


def test_the_false_duplicate_blocks_follow_the_order_of_the_sections():
    # The blocks followed the report's order (by path) while the sections put files with
    # errors first: of a pull request adding many incidents, the five blocks shown were of
    # files far down the comment, and those of the first sections were "… and so for".
    files = [added(f"a{i}", f"IL-{i:04d}") for i in range(1, 6)]
    files += [added("b", "IL-NEW-a1", broken=True), added("c", "IL-0025", broken=True)]
    comment = render(Review(base=BASE, head=HEAD, files=files), LINKS, COMMENT)
    sections = re.findall(r"^#### 📄 \[incidents/(IL-NEW-\w+)\.yaml\]", comment, re.M)
    blocks = re.findall(r"^In incidents/(IL-NEW-\w+)\.yaml:$", comment, re.M)
    assert sections[:3] == ["IL-NEW-b", "IL-NEW-c", "IL-NEW-a1"]
    assert blocks == sections[:5]
    # The pair of two new incidents is in the block of the one shown first.
    assert "In incidents/IL-NEW-b.yaml:\n\n```yaml\nnot_duplicate_of:\n  - IL-NEW-a1  #" in comment
    assert "… and so for 2 other files" in comment


def test_a_report_with_thousands_of_long_duplicate_ids_still_fits_the_comment():
    # The footer is never trimmed: its blocks to paste named every id, of any length,
    # and a report made by hand made a comment of 430,827 UTF-16 units that GitHub refuses.
    long_id = "IL-NEW-" + "-".join(["very-long-slug"] * 20)
    matches = [Match(id=f"IL-{i:05d}", score=0.9, kind="duplicate") for i in range(10_000)]
    files = [
        FileReview(path="incidents/IL-0001.yaml", change="added", id="IL-0001", matches=matches),
        FileReview(
            path="incidents/IL-0002.yaml", change="added", id="IL-0002",
            matches=[Match(id=long_id, score=0.9, kind="duplicate")],
        ),
    ]  # fmt: skip
    text = render(Review(base=BASE, head=HEAD, files=files), LINKS, COMMENT)
    assert utf16_length(text) <= COMMENT_LIMIT
    foot = text.split("**A false duplicate?**")[1]
    assert "  - IL-00004  # if it is a different event\n" in foot
    assert "IL-00005" not in foot and "  # … and 9,995 more, in the full report\n" in foot
    assert long_id not in foot


def test_a_file_too_big_for_the_comment_still_shows_its_first_errors_and_counts_the_rest():
    path = "incidents/IL-NEW-huge.yaml"
    errors = [
        finding(n, "IL301", f"'term-{n}' is not a term of causes", path=path)
        for n in range(1, 3001)
    ]
    warnings = [
        finding(n, "IL602", "trailing white space", "warning", path=path) for n in range(1, 2001)
    ]
    huge = FileReview(path=path, change="added", id="IL-NEW-huge", findings=[*errors, *warnings])
    small = FileReview(
        path="incidents/IL-NEW-small.yaml",
        change="added",
        findings=[finding(4, "IL203", "id mismatch", path="incidents/IL-NEW-small.yaml")],
    )
    text = render(Review(base=BASE, head=HEAD, files=[huge, small]), LINKS, COMMENT)
    assert utf16_length(text) <= COMMENT_LIMIT and "This report was trimmed" in text
    section = text.split("#### 📄 ")[1]
    assert section.startswith(f"[{path}]")
    shown = re.findall(r"· \*\*IL301\*\* · 'term-(\d+)'", section)
    assert shown == ["1", "2", "3", "4", "5"]
    assert f"[line 1]({OURS}blob/{HEAD}/{path}#L1)" in section
    assert "- … and 2,995 more errors, in the full report" in section
    assert "- … and 1,995 more warnings, in the full report" in section
    # The other file with an error is whole too, and nothing is left out.
    assert "#### 📄 [incidents/IL-NEW-small.yaml]" in text and "**IL203**" in text
    assert "more file" not in text


def test_the_command_listing_findings_left_out_names_the_file_as_it_is():
    # Escaped for Markdown inside a code span, which shows every backslash, the command
    # named `incident\_library/…`, a file that is not there.
    path = "incident_library/incidents/IL-0300.yaml"
    file = FileReview(
        path=path,
        change="added",
        findings=[finding(4, "IL301", "bad term", path=path)],
        findings_omitted=12_000,
    )
    review = Review(base=BASE, head=HEAD, root="incident_library", files=[file])
    text = render(review, LINKS, COMMENT)
    assert "`curator lint incident_library/incidents/IL-0300.yaml` lists them all." in text
    # A name no shell or code span takes as it is is quoted, and the span is longer than
    # any run of backticks in it, so that nothing can end it early.
    odd_path = "incidents/a`b c.yaml"
    odd = FileReview(
        path=odd_path,
        change="added",
        findings=[finding(1, "IL107", "not an incident file", path=odd_path)],
        findings_omitted=1,
    )
    text = render(Review(base=BASE, head=HEAD, files=[odd]), LINKS, COMMENT)
    assert "``curator lint 'incidents/a`b c.yaml'`` lists them all." in text


def test_evidence_and_reasons_past_those_shown_are_counted_not_dropped_silently():
    # A term found in seven fields showed six phrases, and the possible duplicate that
    # carries it, often the strongest evidence, not at all; a pair sharing seven source
    # URLs lost its shared entities and text similarity alike.
    phrases = [Evidence(phrase=f"구절 {n}", field="trigger", alias="구절") for n in range(7)]
    carried = Evidence(incident="IL-0198", similarity=0.93, kind="duplicate")
    judged = TermJudgement(term="nccl", score=0.9, evidence=[*phrases, carried])
    reasons = [f"same source URL https://example.com/{n}" for n in range(7)]
    reasons += ["shared entities: nccl", "text similarity 0.80"]
    file = FileReview(
        path="incidents/IL-0300.yaml",
        change="added",
        # (Related: the facets of a possible duplicate are left out of the comment.)
        matches=[Match(id="IL-0198", score=0.5, kind="related", reasons=reasons)],
        suggestions=[FacetJudgement(dimension="components", missing=[judged])],
    )
    text = render(Review(base=BASE, head=HEAD, files=[file]), LINKS, COMMENT)
    [line] = [line for line in text.splitlines() if line.startswith("- **components**")]
    assert line.endswith("(matches “구절”); … and 2 more: `curator suggest` lists them all")
    [row] = [line for line in text.splitlines() if line.startswith("| [IL-0198]")]
    assert row.endswith("shared entities: nccl; … and 1 more: `curator similar` lists them all |")


def test_reasons_past_those_a_report_holds_are_counted_in_the_rest():
    # A match's reasons are cut to 100 in the report, the last counting the others; the
    # comment counted that last one as one reason: of 113, it said "… and 92 more", not 105.
    reasons = [f"its withdrawn copy IL-{n:04d} (1.00): text similarity 0.49" for n in range(99)]
    reasons.append("and 14 more: `curator similar` lists them all")
    file = FileReview(
        path="incidents/IL-0300.yaml",
        change="added",
        matches=[Match(id="IL-0129", score=1.0, kind="duplicate", reasons=reasons)],
    )
    text = render(Review(base=BASE, head=HEAD, files=[file]), LINKS, COMMENT)
    [row] = [line for line in text.splitlines() if line.startswith("| [IL-0129]")]
    assert row.count("its withdrawn copy") == 8
    assert row.endswith("; … and 105 more: `curator similar` lists them all |")


def test_changed_files_with_nothing_to_report_are_named():
    # "1 other changed file: nothing to report." hid which: under a taxonomy change that
    # breaks incidents, the taxonomy file itself, and a draft deleted, the draft.
    broken = FileReview(
        path="incidents/IL-0206.yaml",
        change="unchanged",
        findings=[finding(15, "IL301", "'feature-flags' is not a term of components")],
    )
    taxonomy = FileReview(path="schema/taxonomy/components.yaml", change="changed")
    text = render(Review(base=BASE, head=HEAD, files=[broken, taxonomy]), LINKS, COMMENT)
    # Not "nothing to report": the change gives the incident above its error.
    said = (
        "1 other changed file, no findings in it (the findings this change gives files it "
        "leaves alone are above): schema/taxonomy/components.yaml (changed)."
    )
    assert said in text.splitlines()
    drafts = [FileReview(path=f"incidents/IL-NEW-d{n}.yaml", change="removed") for n in range(7)]
    text = render(Review(base=BASE, head=HEAD, files=drafts), LINKS, COMMENT)
    named = ", ".join(f"incidents/IL-NEW-d{n}.yaml (removed)" for n in range(5))
    assert f"7 changed files, nothing to report: {named}, and 2 more." in text.splitlines()


def test_the_files_with_nothing_to_report_are_other_only_after_files_with_a_section():
    # A pull request that only rewords a sentence ended in "1 other changed file, nothing to
    # report", with no file before it for it to be other than.
    reworded = FileReview(path="incidents/IL-0009.yaml", change="changed", id="IL-0009")
    alone = render(Review(base=BASE, head=HEAD, files=[reworded]), LINKS, COMMENT)
    assert "####" not in alone
    said = "1 changed file, nothing to report: incidents/IL-0009.yaml (changed)."
    assert said in alone.splitlines() and "other" not in alone
    retitled = FileReview(
        path="incidents/IL-0301.yaml",
        change="changed",
        id="IL-0301",
        title="스토리지 포화로 학습이 멈췄다",
        title_was="스토리지 포화",
    )
    beside = render(Review(base=BASE, head=HEAD, files=[retitled, reworded]), LINKS, COMMENT)
    assert "#### 📄 [incidents/IL-0301.yaml](" in beside
    said = "1 other changed file, nothing to report: incidents/IL-0009.yaml (changed)."
    assert said in beside.splitlines()


@pytest.mark.parametrize(
    ("errors", "warnings", "duplicates", "said"),
    [
        (11, 0, 0, "1 more error"),
        (10, 12, 0, "2 more warnings"),
        (11, 0, 11, "1 more error and 2 more possible duplicates"),
    ],
)
def test_annotations_name_only_what_was_left_out_in_its_number(errors, warnings, duplicates, said):
    # "1 more errors, 0 more warnings and 0 more possible duplicates are not shown".
    file = FileReview(
        path="incidents/IL-0300.yaml",
        change="added",
        findings=[finding(i, "IL301", "bad") for i in range(1, errors + 1)]
        + [finding(i, "IL602", "ws", "warning") for i in range(1, warnings + 1)],
        matches=[Match(id=f"IL-{i:04d}", score=0.9, kind="duplicate") for i in range(duplicates)],
    )
    lines = workflow_commands(Review(base=BASE, head=HEAD, files=[file]))
    assert lines[-1].endswith(
        f"::not shown as annotations (GitHub shows 10 of each kind per step): {said}; "
        "the job summary lists them all"
    )


def test_the_status_line_says_findings_were_left_out_and_whether_they_may_be_errors():
    # 10,000 findings kept of 30,001 said "❌ 10000 errors" alone: a reviewer read the
    # counts as the whole of it. A file keeps its errors first, so what one that kept a
    # warning left out can only be warnings.
    all_errors = FileReview(
        path="incidents/IL-0300.yaml",
        change="added",
        findings=[finding(n, "IL504", "bad") for n in range(1, 4)],
        findings_omitted=20_001,
    )
    status = render(Review(base=BASE, head=HEAD, files=[all_errors]), LINKS, COMMENT)
    assert status.splitlines()[1] == (
        "### ❌ 3 errors · ✅ 0 warnings · ✅ 0 possible duplicates · ✅ 0 facet suggestions"
        " · ❌ 20,001 more findings not in this report"
    )
    with_a_warning = all_errors.model_copy(
        update={"findings": [*all_errors.findings, finding(9, "IL602", "ws", "warning")]}
    )
    status = render(Review(base=BASE, head=HEAD, files=[with_a_warning]), LINKS, COMMENT)
    assert status.splitlines()[1].endswith(" · ⚠️ 20,001 more findings not in this report")
    whole = all_errors.model_copy(update={"findings_omitted": 0})
    status = render(Review(base=BASE, head=HEAD, files=[whole]), LINKS, COMMENT)
    assert "not in this report" not in status


def deprecation_review(terms: int, carriers: int) -> Review:
    """A taxonomy change deprecating `terms` terms, each carried by `carriers` incidents
    that it gives an IL302 warning."""
    names = [f"IL-{n:04d}" for n in range(1, carriers + 1)]
    warned = [
        FileReview(
            path=f"incidents/{name}.yaml",
            change="unchanged",
            id=name,
            title="학습이 멈췄다",
            findings=[
                finding(
                    9, "IL302", "'old-0' is deprecated; use 'new-0'", "warning", fixable=True
                ).model_copy(update={"path": f"incidents/{name}.yaml"})
            ],
        )
        for name in names
    ]
    return Review(
        base=BASE,
        head=HEAD,
        files=[FileReview(path="schema/taxonomy/causes.yaml", change="changed"), *warned],
        terms_changed=[
            TermChange(
                dimension="causes",
                term=f"old-{n}" if n else "old-0](https://evil.example)",
                kinds=["deprecated"],
                replaced_by=f"new-{n}",
                fixable=True,
                carried_by=carriers,
                incidents=names[:100],
            )
            for n in range(terms)
        ],
        filters_changed=[
            FilterChange(dimension="causes", term=f"new-{n}", gains=carriers, gained=names[:100])
            for n in range(terms)
        ],
    )


def test_a_deprecation_is_said_once_with_the_first_incidents_it_reaches_not_a_section_each():
    comment = render(deprecation_review(terms=1, carriers=2_000), LINKS, COMMENT)
    assert comment.splitlines()[1] == (
        "### ✅ 0 errors · ⚠️ 2,000 warnings · ✅ 0 possible duplicates · ✅ 0 facet suggestions"
    )
    at_head = f"{OURS}blob/{HEAD}/incidents"
    first = ", ".join(
        f"IL-000{n} ([incidents/IL-000{n}.yaml]({at_head}/IL-000{n}.yaml))" for n in range(1, 6)
    )
    line = next(x for x in comment.splitlines() if x.startswith("- **causes**"))
    # The term is data: a forged one shows as text, never as a link or code.
    assert line.startswith("- **causes** · old-0\\]\\(https:&#8203;//evil.example\\) deprecated")
    assert line.endswith(f": {first}, and 1,995 more.")
    assert "- A search filter on `new-0` finds 2,000 more (IL-0001, IL-0002, IL-0003, …)." in (
        comment.splitlines()
    )
    assert "#### 📄" not in comment and "✂️" not in comment
    assert utf16_length(comment) < 5_000


def test_the_taxonomy_lines_of_a_huge_report_are_bounded_and_the_rest_counted():
    comment = render(deprecation_review(terms=10_000, carriers=100), LINKS, COMMENT)
    lines = comment.splitlines()
    assert sum(x.startswith("- **causes** · ") for x in lines) == 10
    rest = "- … and 9,990 more terms changed: `curator review --format json` lists them all"
    assert rest in lines
    assert "; and 9,995 more filters." in comment
    assert utf16_length(comment) <= COMMENT_LIMIT


def test_counts_of_a_thousand_or_more_are_grouped_by_thousands():
    # "48945 warnings" on the status line of a bulk pull request read as a code, not a count.
    many = FileReview(
        path="incidents/IL-0300.yaml",
        change="changed",
        findings=[finding(n, "IL602", "ws", "warning") for n in range(1, 1201)],
    )
    text = render(Review(base=BASE, head=HEAD, files=[many]), LINKS, COMMENT)
    status = "### ✅ 0 errors · ⚠️ 1,200 warnings · ✅ 0 possible duplicates · ✅ 0 facet "
    status += "suggestions"
    assert text.splitlines()[1] == status
    assert "1,195 more warnings" in text


def test_a_files_one_line_counts_its_unsupported_facets_as_the_status_line_does():
    # A file a trimmed comment shows as a line said "7 facet suggestions, 7 facet
    # changes", and nothing of the facet nothing supports that the status line counted.
    review = unsupported_review()
    noisy = [advice_only(n) for n in range(100, 180)]  # (shown first: made whole)
    review = review.model_copy(update={"files": [*noisy, *review.files]})
    text = render(review, LINKS, COMMENT)
    assert "This report was trimmed" in text
    assert text.splitlines()[1].endswith(" · ⚠️ 2 unsupported facets")
    line = next(line for line in text.splitlines() if line.startswith("- [incidents/IL-0025"))
    assert line.endswith(": 7 facet suggestions, 1 unsupported facet, 7 facet changes")


@pytest.mark.parametrize("kept", [0.8, 0.6, 0.2])
def test_the_status_line_of_a_report_that_leaves_files_out_counts_what_they_hold(kept, monkeypatch):
    # `omitted` counted no unsupported facet: a report that left out the files holding them
    # said "⚠️ 1 unsupported facet", or nothing, where the whole said 2. It counted the
    # suggestions of a file that looks like another incident, which the comment leaves out
    # and does not count: 💡 16 where the whole said 14.
    duplicated, advice = sample(), unsupported_review()
    review = duplicated.model_copy(update={"files": [*duplicated.files, *advice.files]})
    whole = render(review, LINKS, COMMENT).splitlines()[1]
    assert whole == (
        "### ❌ 2 errors · ⚠️ 1 warning · ❌ 1 possible duplicate · 💡 14 facet suggestions"
        " · ⚠️ 2 unsupported facets"
    )
    monkeypatch.setattr(output, "MAX_REPORT_BYTES", int(len(output.as_json(review)) * kept))
    report = Review.model_validate_json(output.as_json(review))
    assert report.omitted is not None and report.omitted.files > 0
    assert report.count() == review.count()
    assert render(report, LINKS, COMMENT).splitlines()[1] == whole


def test_a_tab_that_stops_the_file_being_read_says_its_checks_have_not_run():
    # A tab in the indentation is IL601 alone (IL101 leaves it to that rule), and the
    # section did not say that the file was not read, as it does for IL101.
    from curator.rules import no_tabs

    def review(message: str) -> str:
        tab = finding(9, "IL601", message, fixable=True)
        file = FileReview(path="incidents/IL-0300.yaml", change="changed", findings=[tab])
        return render(Review(base=BASE, head=HEAD, files=[file]), LINKS, COMMENT)

    assert "_Until these errors are fixed, the file is not read" in review(no_tabs.STOPPED)
    assert "_Until these errors are fixed" not in review("tab character; use spaces")


def test_the_likeness_an_edit_leaves_as_at_the_base_is_one_line_of_bounded_length():
    # A report made by hand may hold thousands of them: five named, the rest counted.
    kept = [
        Match(id=f"IL-{n:04d}", score=0.7, kind="duplicate" if n % 2 else "related")
        for n in range(1, 8)
    ]
    new = [Match(id="IL-0010", score=0.5, kind="related")]  # (what gives it a section)
    edited = FileReview(
        path="incidents/IL-0009.yaml",
        change="changed",
        id="IL-0009",
        matches=new,
        matches_at_base=kept,
    )
    comment = render(Review(base=BASE, head=HEAD, files=[edited]), LINKS, COMMENT)
    said = [line for line in comment.splitlines() if "not repeated" in line]
    assert said == [
        "_Similar at the base already, not repeated: IL-0001 (possible duplicate, 0.70), "
        "IL-0002 (related, 0.70), IL-0003 (possible duplicate, 0.70), IL-0004 (related, "
        "0.70), IL-0005 (possible duplicate, 0.70), 2 more in the full report._"
    ]
    assert "✅ 0 possible duplicates" in comment


def test_a_file_whose_only_news_is_the_likeness_it_had_at_the_base_gets_no_section():
    # A typo fixed in an incident with near-duplicates had a section of its own, its title
    # and "Similar at the base already, not repeated: …", which says that nothing changed.
    kept = [Match(id="IL-0001", score=0.97, kind="duplicate")]
    typo = FileReview(
        path="incidents/IL-0009.yaml",
        change="changed",
        id="IL-0009",
        title="스토리지 포화",
        matches_at_base=kept,
    )
    review = Review(base=BASE, head=HEAD, files=[typo])
    comment = render(review, LINKS, COMMENT)
    assert "####" not in comment and "not repeated" not in comment
    quiet = "1 changed file, nothing to report: incidents/IL-0009.yaml (changed)."
    assert quiet in comment.splitlines()
    assert "✅ 0 possible duplicates" in comment
    # The report keeps them, for whatever reads it.
    [file] = json.loads(output.as_json(review))["files"]
    assert [(m["id"], m["kind"], m["score"]) for m in file["matches_at_base"]] == [
        ("IL-0001", "duplicate", 0.97)
    ]
    # A draft published with them keeps its section: publishing puts the pair in a release.
    published = typo.model_copy(update={"status_was": "draft", "status": "published"})
    comment = render(Review(base=BASE, head=HEAD, files=[published]), LINKS, COMMENT)
    assert "#### 📄 [incidents/IL-0009.yaml](" in comment and "(published)\n" in comment
    said = "_Similar at the base already, not repeated: IL-0001 (possible duplicate, 0.97)._"
    assert said in comment.splitlines()
