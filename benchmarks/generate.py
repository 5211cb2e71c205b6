"""Write a synthetic Incident Library of N incidents, for benchmarks and tests.

    python benchmarks/generate.py OUT_DIR --count N --seed S [--defects-per-rule K]
                                          [--duplicate-share F] [--force]

OUT_DIR receives `incidents/`, `schema/` (a copy of the real taxonomy and JSON Schemas) and
`manifest.json`. Never the repository's own `incidents/`.

What the library looks like:
- valid per the schema and the taxonomy, 2.5–4 KB per file, Korean narrative with English
  product names, English source titles, https sources — the shape of the real files;
- facets drawn from the real taxonomy with a Zipf-like skew (a few terms are everywhere,
  most are rare), narrative sentences that name the chosen terms' labels and aliases;
- duplicate pairs: the same event (organisation, date, facets, numbers, versions, error
  names) written up twice in different words; some left for `curator similar` to find,
  some already withdrawn with `duplicate_of`;
- defects: `--defects-per-rule K` files per lint rule (default 1; 0 for none), each with one
  known mistake, and the exact findings `curator lint` must report listed in the manifest.
  Two rules need taxonomy entries the real taxonomy lacks (a deprecated term, a term with a
  missing parent); with defects, those are appended to the copied components.yaml.

The same `--count`, `--seed` and options give byte-identical output on any machine.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# Raised whenever the same arguments write other files (2: an IL404 defect planted, which
# moves the picks of every later defect).
GENERATOR_VERSION = 2
MIN_BYTES, MAX_BYTES = 2600, 3950
DEPRECATED_TERM = "synthetic-deprecated-term"
ORPHAN_TERM = "synthetic-orphan-term"

# ---------------------------------------------------------------------------------------------
# Vocabulary
# ---------------------------------------------------------------------------------------------

# (organisation, publisher domain, path of its post-mortems)
ORGANIZATIONS = (
    ("Amazon Web Services", "aws.amazon.com", "message"),
    ("Cloudflare", "blog.cloudflare.com", "post"),
    ("GitHub", "github.blog", "engineering"),
    ("Google Cloud", "status.cloud.google.com", "incidents"),
    ("Datadog", "www.datadoghq.com", "blog"),
    ("OpenAI", "status.openai.com", "incidents"),
    ("Meta", "engineering.fb.com", "posts"),
    ("Microsoft Azure", "azure.status.microsoft", "status/history"),
    ("Slack", "slack.engineering", "posts"),
    ("GitLab", "about.gitlab.com", "blog"),
    ("Lablup", "www.backend.ai", "resources"),
    ("Upstage", "www.upstage.ai", "blog"),
    ("NAVER Cloud", "www.ncloud.com", "notice"),
    ("Kakao", "tech.kakao.com", "posts"),
    ("LINE", "engineering.linecorp.com", "ko/blog"),
    ("Toss", "toss.tech", "article"),
    ("Hugging Face", "huggingface.co", "blog"),
    ("Imbue", "imbue.com", "research"),
    ("CircleCI", "status.circleci.com", "incidents"),
    ("Fastly", "www.fastly.com", "blog"),
    ("Discord", "discord.com", "blog"),
    ("Reddit", "www.redditstatus.com", "incidents"),
    ("Monzo", "monzo.com", "blog"),
    ("Zalando", "engineering.zalando.com", "posts"),
    ("Coinbase", "www.coinbase.com", "blog"),
    ("Spotify", "engineering.atspotify.com", "posts"),
    ("PythonAnywhere", "blog.pythonanywhere.com", "posts"),
    ("Roblox", "blog.roblox.com", "posts"),
)
# Second reports of an event come from these (news, aggregators, conference talks).
REPORTERS = (
    ("The Register", "www.theregister.com", "news"),
    ("InfoQ", "www.infoq.com", "news"),
    ("ZDNet Korea", "zdnet.co.kr", "view"),
    ("ITWorld Korea", "www.itworld.co.kr", "news"),
    ("USENIX", "www.usenix.org", "conference"),
    ("KubeCon", "www.youtube.com", "watch"),
    ("Medium", "medium.com", "p"),
    ("Hacker News", "news.ycombinator.com", "item"),
)
# fmt: off
REGIONS = (
    "us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-northeast-2", "ap-northeast-1",
    "US1", "EU1", "US3", "us-central1", "asia-northeast3", "서울 리전", "도쿄 리전", "KR-2",
)
ERRORS = (
    "Xid 79", "Xid 48", "ECC 오류", "NCCL WARN", "ETIMEDOUT", "ECONNRESET", "EIO", "ENOSPC",
    "OOMKilled", "CrashLoopBackOff", "SERVFAIL", "NXDOMAIN", "HTTP 503", "HTTP 502",
    "x509 certificate has expired", "connection refused", "context deadline exceeded",
    "too many open files", "split brain", "stale file handle", "leader election lost",
    "PFC storm", "CRC 오류", "link down", "segfault", "illegal memory access",
)
PRODUCTS = (
    "H100", "A100", "B200", "H200", "ConnectX-7", "BlueField-3", "Quantum-2", "Spectrum-4",
    "Ubuntu 22.04", "RHEL 9", "Kubernetes 1.27", "Kubernetes 1.29", "Cilium 1.14", "CoreDNS 1.11",
    "etcd 3.5", "Slurm 23.02", "PyTorch 2.1", "Megatron-LM", "DeepSpeed", "Lustre 2.15",
    "WekaFS 4.2", "Ceph Quincy", "PostgreSQL 15", "MySQL 8.0", "Redis 7", "Kafka 3.5", "Envoy",
    "Istio 1.19", "containerd 1.7", "CUDA 12.2", "NCCL 2.18.3", "driver 535.104.05",
)
TEAMS = ("인프라팀", "SRE 팀", "플랫폼팀", "학습 인프라팀", "네트워크팀", "스토리지팀", "보안팀")
DURATIONS = ("40분", "1시간 20분", "2시간", "3시간 15분", "5시간", "8시간", "14시간", "이틀")
UNITS = ("노드", "대의 서버", "개의 GPU", "개의 파드", "개의 랙", "개의 스위치")
# fmt: on

# Sentence templates per narrative field. Slots: {comp} {comp2} {sym} {cause} {factor}
# (Korean labels or aliases), {comp_en} (English), {n} {unit} {pct} {dur} {region} {time}
# {err} {prod} {team} {ver} {org}. Particles after a slot are written "{comp}|이" and
# resolved by `_josa`. No template contains ": " or " #", so every text stays a plain
# YAML scalar.
SYMPTOM = (
    "{time} UTC 부터 {region} 에서 {sym}|이 나타났고 {dur} 동안 이어졌다.",
    "{n}{unit} 규모의 클러스터에서 {comp}|과 관련된 {sym}|이 보고됐다.",
    "{comp}|을 쓰는 작업 가운데 약 {pct}% 에서 {sym}|이 관찰됐다.",
    "사용자들은 {sym}|을 겪었고, 같은 시각 {comp} 로그에는 `{err}` 가 반복해서 찍혔다.",
    "{prod} 를 쓰는 {n}{unit} 중 일부에서 먼저 {sym}|이 보였고 곧 다른 영역으로 번졌다.",
    "{region} 의 {comp}|이 느려지면서 {sym}|이 함께 나타났다.",
    "장애가 이어진 {dur} 동안 {comp2}|을 거치는 요청의 {pct}% 가 실패했다.",
    "처음에는 {comp}|의 일시적인 문제로 보였으나 {sym}|이 여러 {unit}에서 동시에 보였다.",
    "{org} 의 상태 페이지에는 {sym}|이 {dur} 동안 이어졌다고 기록됐다.",
    "{comp_en} 계층에서 `{err}` 오류가 늘었고 그 뒤로 {sym}|이 이어졌다.",
)
TRIGGER = (
    "{team}|이 {comp}|에 {cause}|을 적용한 직후 문제가 시작됐다.",
    "{prod} 로 올리는 작업이 {region} 에 먼저 배포되면서 {cause}|이 드러났다.",
    "{comp}|의 {ver} 버전에 있던 결함이 {comp2}|과 맞물려 {cause}|으로 이어졌다.",
    "정기 점검 중 {comp2}|을 재시작하자 {comp}|이 예상과 다르게 동작했다.",
    "{n}{unit}로 규모를 늘리자 {comp}|이 한계에 부딪혔고, 이것이 {cause}|의 직접 원인이 됐다.",
    "{time} UTC 에 자동화 도구가 {comp} 설정을 바꿨고, 그 변경이 {cause}|을 불렀다.",
    "{comp_en} 의 기본값이 {ver} 에서 바뀐 것을 모른 채 배포했다.",
    "{comp2} 쪽의 {cause}|이 {comp}|으로 번지며 연쇄적으로 장애가 났다.",
)
DETECTION = (
    "{time} UTC 에 {comp} 지표에 걸어 둔 경고가 울려 {team}|이 조사를 시작했다.",
    "사용자 문의가 몰린 뒤에야 {team}|이 {sym}|을 알아챘다.",
    "{comp} 대시보드에서 {pct}% 를 넘는 오류율이 보여 당직자가 호출됐다.",
    "합성 모니터링이 {region} 에서 `{err}` 를 잡아내 {dur} 만에 사고로 선언했다.",
    "{comp2} 로그를 살피던 엔지니어가 `{err}` 가 급증한 것을 처음 발견했다.",
    "외부 모니터링 서비스가 먼저 {sym}|을 알렸고, 내부 경고는 몇 분 늦게 울렸다.",
)
ACTIONS = (
    "{comp} 변경을 되돌리고 {comp2}|을 차례로 재시작했다.",
    "문제가 된 {n}{unit}를 격리하고 트래픽을 다른 리전으로 돌렸다.",
    "{prod} 를 이전 버전으로 내리고 설정을 다시 적용했다.",
    "{team}|이 {comp} 용량을 임시로 늘려 밀린 요청을 처리했다.",
    "영향을 받은 작업을 마지막 체크포인트에서 다시 시작했다.",
    "{region} 의 {comp2} 인스턴스를 교체하고 상태를 하나씩 확인했다.",
    "로그에 `{err}` 를 내던 장비를 서비스에서 빼고 예비 장비로 바꿨다.",
    "{comp_en} 의 재시도 한도를 낮춰 부하가 더 번지지 않게 했다.",
)
FOLLOW_UPS = (
    "{comp} 변경을 한 번에 전체로 적용하지 않고 단계적으로 배포하도록 바꿨다.",
    "{comp2}|에 대한 경고 기준을 다시 정하고 대시보드를 정비했다.",
    "{n}{unit} 규모의 부하 시험을 배포 절차에 넣었다.",
    "{prod} 업그레이드 전에 호환성 시험을 거치도록 했다.",
    "복구 절차를 문서로 만들고 분기마다 훈련하기로 했다.",
)
LESSONS = (
    "{factor}|이 사고를 키웠다는 점을 확인했다.",
    "{comp}|처럼 모두가 기대는 구성 요소는 작은 변경에도 넓은 영향을 준다.",
    "소규모 시험에서는 {sym}|이 드러나지 않았으므로 운영 규모와 비슷한 시험이 필요하다.",
    "{cause}|을 빨리 알아채려면 {comp2} 지표를 사용자 영향과 함께 봐야 한다.",
    "{factor}|은 평소에는 보이지 않다가 장애 때 한꺼번에 드러난다.",
    "되돌릴 수 있는 수단을 미리 갖추지 않으면 {dur} 같은 긴 복구 시간을 피하기 어렵다.",
    "{comp}|과 {comp2} 사이의 의존 관계를 문서로 남겨 두지 않은 것이 진단을 늦췄다.",
)
TITLE = (
    "{comp}|의 {cause}|으로 {region} 에서 {sym}|이 {dur} 동안 이어졌다",
    "{org} 의 {comp}|에서 {cause}|이 일어나 {sym}|으로 번졌다",
    "{n}{unit} 규모에서 {comp}|이 한계에 부딪혀 {sym}|이 나타났다",
    "{prod} 업그레이드 뒤 {comp}|이 {sym}|을 일으켰다",
    "{comp2}|과 {comp}|이 얽힌 {cause}|으로 {sym}|이 생겼다",
)
SOURCE_TITLE = (
    "Postmortem: {comp_en} {sym_en} in {region}",
    "Incident report: {sym_en} caused by {cause_en}",
    "What happened during the {comp_en} outage",
    "Summary of the {region} {sym_en} event",
    "Root cause analysis: {cause_en} in {comp_en}",
    "Lessons from a {sym_en} at {n} {unit_en}",
)
WITHDRAWN_REASON = (
    "{id} 와 같은 사건을 다른 보고서로 다시 적은 것이다.",
    "같은 날 같은 조직의 같은 장애로, {id} 에 합쳤다.",
)

# ---------------------------------------------------------------------------------------------
# Korean particles: the right form depends on whether the word ends in a consonant sound.
# ---------------------------------------------------------------------------------------------

_PAIRS = {"이": "가", "을": "를", "은": "는", "과": "와", "으로": "로"}
_VARIABLE = ("으로", "이", "을", "은", "과")
_BATCHIM_LETTERS = set("LMNR")  # letter names 엘 엠 엔 알 end in a consonant
_BATCHIM_DIGITS = set("013678")  # 영 일 삼 육 칠 팔


def _ends_in_consonant(word: str) -> tuple[bool, bool]:
    """(consonant?, is it ㄹ?) for the last sound of `word`, as a Korean reader says it."""
    word = word.rstrip(" `.)\"'")
    if not word:
        return False, False
    word = word.split()[-1]
    last = word[-1]
    if "가" <= last <= "힣":
        final = (ord(last) - 0xAC00) % 28
        return final != 0, final == 8
    if last.isdigit():
        return last in _BATCHIM_DIGITS, last in "178"
    if word.isupper() or not word.isalpha():
        return last.upper() in _BATCHIM_LETTERS, last.upper() in "LR"
    return last.lower() in "lmnkpt", last.lower() == "l"


def _josa(word: str, particle: str) -> str:
    consonant, rieul = _ends_in_consonant(word)
    if particle == "으로":
        return "로" if not consonant or rieul else "으로"
    return particle if consonant else _PAIRS[particle]


def _fill(template: str, slots: dict[str, str]) -> str:
    out = []
    for piece in template.split("{")[1:]:
        name, rest = piece.split("}", 1)
        value = slots[name]
        if rest.startswith("|"):
            rest = rest[1:]
            particle = next((p for p in _VARIABLE if rest.startswith(p)), None)
            if particle:  # 의, 에, 처럼 … do not change with the sound before them
                rest = _josa(value, particle) + rest[len(particle) :]
            if not "가" <= value[-1] <= "힣":
                rest = " " + rest  # as the real files write it: "NCCL 이", "etcd 의"
        out.append(value + rest)
    return template.split("{")[0] + "".join(out)


# ---------------------------------------------------------------------------------------------
# The taxonomy, and skewed choices from it
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Term:
    id: str
    ko: str
    en: str
    aliases: tuple[str, ...]


def read_taxonomy(folder: Path) -> dict[str, list[Term]]:
    """The real taxonomy, read with the project's own loader (never constructed from tags)."""
    sys.path.insert(0, str(REPO))
    from curator.taxonomy import load_taxonomy

    taxonomy = load_taxonomy(folder)
    if taxonomy.problems:
        raise SystemExit(f"the taxonomy in {folder} has problems: {taxonomy.problems[0]}")
    return {
        dimension: [
            Term(t.id, t.label.ko, t.label.en, tuple(_speakable(t.aliases)))
            for t in terms.values()
            if t.deprecated is None
        ]
        for dimension, terms in taxonomy.terms.items()
    }


def _speakable(aliases: Sequence[str]) -> list[str]:
    """Aliases that read as words in a sentence (not fragments like '학습이 멈')."""
    return [a for a in aliases if not a.endswith(("멈", "잃", "없", "사라", "막", "죽", "드러"))]


class Zipf:
    """Choose from a ranked list with weight 1/rank^s: a few items dominate, most are rare."""

    def __init__(self, items: Sequence[Term] | Sequence[tuple[str, str, str]], s: float = 1.1):
        self.items = list(items)
        self.weights = [1 / (rank**s) for rank in range(1, len(self.items) + 1)]

    def pick(self, rng: random.Random, k: int) -> list:
        chosen: list = []
        while len(chosen) < min(k, len(self.items)):
            item = rng.choices(self.items, self.weights)[0]
            if item not in chosen:
                chosen.append(item)
        return chosen


@dataclass
class Vocabulary:
    terms: dict[str, Zipf]
    organizations: Zipf
    reporters: Zipf

    @classmethod
    def build(cls, taxonomy: dict[str, list[Term]], seed: int) -> Vocabulary:
        shuffle = random.Random(f"{seed}:ranks")
        ranked = {}
        for dimension, terms in taxonomy.items():
            order = sorted(terms, key=lambda t: t.id)
            shuffle.shuffle(order)  # which terms are common differs with the seed
            ranked[dimension] = Zipf(order)
        return cls(ranked, Zipf(ORGANIZATIONS, 0.9), Zipf(REPORTERS, 0.8))


# ---------------------------------------------------------------------------------------------
# Events and their write-ups
# ---------------------------------------------------------------------------------------------


@dataclass
class Event:
    """What happened: the facts two write-ups of the same incident share."""

    facets: dict[str, list[Term]]
    organization: tuple[str, str, str] | None
    occurred: str
    slots: dict[str, str]


def make_event(rng: random.Random, vocab: Vocabulary) -> Event:
    facets = {
        "causes": vocab.terms["causes"].pick(rng, rng.choice((1, 1, 1, 2))),
        "components": vocab.terms["components"].pick(rng, rng.choice((1, 2, 2, 3, 3, 4))),
        "symptoms": vocab.terms["symptoms"].pick(rng, rng.choice((1, 1, 2, 2, 3))),
        "contributing_factors": vocab.terms["contributing_factors"].pick(
            rng, rng.choice((0, 1, 1, 2, 2, 3))
        ),
    }
    organization = None if rng.random() < 0.12 else vocab.organizations.pick(rng, 1)[0]
    year, month, day = rng.randint(2012, 2025), rng.randint(1, 12), rng.randint(1, 28)
    occurred = f"{year}-{month:02d}-{day:02d}" if rng.random() < 0.7 else f"{year}-{month:02d}"
    unit = rng.choice(UNITS)
    slots = {
        "n": f"{rng.choice((2, 4, 8, 16, 32, 63, 64, 128, 256, 512, 1024, 4088)):,}",
        "unit": unit,
        "unit_en": {"노드": "nodes", "대의 서버": "servers", "개의 GPU": "GPUs"}.get(unit, "hosts"),
        "pct": str(rng.choice((3, 5, 12, 20, 21.5, 35, 40, 60, 80, 100))),
        "dur": rng.choice(DURATIONS),
        "region": rng.choice(REGIONS),
        "time": f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}",
        "err": rng.choice(ERRORS),
        "prod": rng.choice(PRODUCTS),
        "team": rng.choice(TEAMS),
        "ver": f"{rng.randint(1, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 12)}",
        "org": organization[0] if organization else "운영사",
    }
    return Event(facets, organization, occurred, slots)


def _term_slots(rng: random.Random, event: Event) -> dict[str, str]:
    """Per sentence: which of the event's terms it names, by label or by alias."""

    def say(term: Term) -> str:
        return rng.choice((term.ko, term.ko, *term.aliases)) if term.aliases else term.ko

    comps = event.facets["components"]
    factors = event.facets["contributing_factors"] or event.facets["causes"]
    comp, comp2 = rng.choice(comps), rng.choice(comps if len(comps) == 1 else comps[1:])
    cause, sym = rng.choice(event.facets["causes"]), rng.choice(event.facets["symptoms"])
    return {
        "comp": say(comp),
        "comp2": say(comp2) if comp2 is not comp else comp2.ko,
        "comp_en": comp.en,
        "cause": say(cause),
        "cause_en": cause.en.lower(),
        "sym": say(sym),
        "sym_en": sym.en.lower(),
        "factor": rng.choice(factors).ko,
    }


def _sentences(
    rng: random.Random, event: Event, bank: Sequence[str], k: int, used: Sequence[str] = ()
) -> list[str]:
    """`k` sentences from templates of `bank` not in `used` (all of them once exhausted)."""
    fresh = [t for t in bank if t not in used] or list(bank)
    templates = rng.sample(fresh, min(k, len(fresh)))
    if isinstance(used, list):
        used.extend(templates)
    return [_fill(t, {**event.slots, **_term_slots(rng, event)}) for t in templates]


@dataclass
class Writeup:
    """One incident file's content, as fields; `render` lays it out as YAML lines."""

    id: str
    title: str
    status: str
    occurred: str
    organizations: list[str]
    facets: dict[str, list[str]]
    narrative: dict[str, list[str]]  # symptom/trigger/detection/lessons → sentences
    actions: list[str]
    follow_ups: list[str]
    sources: list[dict[str, str]]
    duplicate_of: str | None = None
    withdrawn_reason: str | None = None
    used: dict[str, list[str]] = field(default_factory=dict)  # templates already said


def write_up(
    rng: random.Random, event: Event, incident_id: str, number: int, vocab: Vocabulary
) -> Writeup:
    slots = {**event.slots, **_term_slots(rng, event)}
    used: dict[str, list[str]] = {name: [] for name in ("symptom", "trigger", "lessons")}
    narrative = {
        "symptom": _sentences(rng, event, SYMPTOM, rng.randint(3, 5), used["symptom"]),
        "trigger": _sentences(rng, event, TRIGGER, rng.randint(2, 4), used["trigger"]),
        "detection": _sentences(rng, event, DETECTION, rng.randint(1, 3)),
        "lessons": _sentences(rng, event, LESSONS, rng.randint(2, 4), used["lessons"]),
    }
    status = "published" if rng.random() < 0.88 else "draft"
    if status == "draft" and rng.random() < 0.6:
        del narrative["lessons"]  # drafts leave out what the source does not say
    return Writeup(
        id=incident_id,
        title=_fill(rng.choice(TITLE), slots),
        status=status,
        occurred=event.occurred,
        organizations=[event.organization[0]] if event.organization else [],
        facets={d: [t.id for t in terms] for d, terms in event.facets.items()},
        narrative=narrative,
        actions=_sentences(rng, event, ACTIONS, rng.randint(2, 4)),
        follow_ups=_sentences(rng, event, FOLLOW_UPS, rng.choice((0, 0, 1, 2, 3))),
        sources=_sources(rng, event, number, slots, vocab),
        used=used,
    )


def _sources(
    rng: random.Random, event: Event, number: int, slots: dict[str, str], vocab: Vocabulary
) -> list[dict[str, str]]:
    sources = []
    publishers = [event.organization] if event.organization else []
    publishers += vocab.reporters.pick(rng, rng.choice((0, 1, 1, 2)))
    for index, (publisher, domain, section) in enumerate(
        publishers or vocab.reporters.pick(rng, 1)
    ):
        year = int(event.occurred[:4]) + rng.choice((0, 0, 1))
        slug = _fill(rng.choice(SOURCE_TITLE), slots).lower()
        slug = "-".join("".join(c if c.isalnum() else " " for c in slug).split())[:60]
        source = {
            "url": f"https://{domain}/{section}/{year}/{slug}-{number}-{index}",
            "title": _fill(rng.choice(SOURCE_TITLE), slots),
            "publisher": publisher,
            "published": f"{min(year, 2025)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            "language": "ko" if domain.endswith(".kr") else "en",
        }
        if rng.random() < 0.3:
            del source["published"]
        sources.append(source)
    return sources


# ---------------------------------------------------------------------------------------------
# Layout: the canonical key order and block style of the real incident files
# ---------------------------------------------------------------------------------------------


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


_INDICATORS = tuple("-?:,[]{}#&*!|>'\"%@`")


def _plain(text: str) -> str:
    """`text` as a plain scalar; the templates are written so that it always can be."""
    assert text and not text.startswith(_INDICATORS) and ": " not in text and " #" not in text
    return text


def render(w: Writeup) -> list[str]:
    lines = [
        f"id: {w.id}",
        f"title: {_plain(w.title)}",
        f"status: {w.status}",
        f"occurred: {w.occurred}",
    ]
    lines += ["organizations: []"] if not w.organizations else ["organizations:"]
    lines += [f"  - {org}" for org in w.organizations]
    lines.append("facets:")
    for dimension, ids in w.facets.items():
        lines.append(f"  {dimension}:" + ("" if ids else " []"))
        lines += [f"    - {term}" for term in sorted(ids)]  # IL304 wants them sorted
    for name in ("symptom", "trigger", "detection"):
        if name in w.narrative:
            lines += [f"{name}: |", "  " + " ".join(w.narrative[name])]
    lines.append("actions:")
    lines += [f"  - {_plain(action)}" for action in w.actions]
    if w.follow_ups:
        lines.append("follow_ups:")
        lines += [f"  - {_plain(item)}" for item in w.follow_ups]
    if "lessons" in w.narrative:
        lines += ["lessons: |", "  " + " ".join(w.narrative["lessons"])]
    lines.append("sources:")
    for source in w.sources:
        lines.append(f"  - url: {source['url']}")
        lines.append(f"    title: {_quoted(source['title'])}")
        lines += [
            f"    {key}: {source[key]}"
            for key in ("publisher", "published", "language")
            if key in source
        ]
    if w.duplicate_of:
        lines.append(f"duplicate_of: {w.duplicate_of}")
    if w.withdrawn_reason:
        lines += ["withdrawn_reason: |", f"  {w.withdrawn_reason}"]
    return lines


def fit_size(rng: random.Random, event: Event, w: Writeup, target: int) -> None:
    """Add sentences until the file reaches `target` bytes, without passing MAX_BYTES."""
    fields = [name for name in ("symptom", "trigger", "lessons") if name in w.narrative]
    banks = {"symptom": SYMPTOM, "trigger": TRIGGER, "lessons": LESSONS}
    while _size(w) < target:
        name = rng.choice(fields)
        sentence = _sentences(rng, event, banks[name], 1, w.used.setdefault(name, []))[0]
        w.narrative[name].append(sentence)
        if _size(w) > MAX_BYTES:
            w.narrative[name].pop()
            return


def _size(w: Writeup) -> int:
    return len(("\n".join(render(w)) + "\n").encode("utf-8"))


# ---------------------------------------------------------------------------------------------
# Defects: one mutation per rule, and the findings it must produce
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expected:
    path: str  # relative to the library root, as `curator lint --root OUT_DIR` prints it
    line: int
    column: int
    code: str

    def to_json(self) -> dict[str, object]:
        return {"path": self.path, "line": self.line, "column": self.column, "code": self.code}


@dataclass
class Slot:
    """A file being written: its name, lines (or raw bytes) and the findings it carries."""

    name: str
    lines: list[str]
    raw: bytes | None = None
    expected: list[tuple[int, int, str]] = field(default_factory=list)

    def find(self, prefix: str, after: int = 0) -> int:
        """0-based index of the first line starting with `prefix` at or after `after`."""
        return next(i for i in range(after, len(self.lines)) if self.lines[i].startswith(prefix))

    def source_url(self) -> str:
        return self.lines[self.find("  - url: ")][len("  - url: ") :]

    def expect(self, index: int, column: int, code: str) -> None:
        self.expected.append((index + 1, column, code))


def _url_column(line: str) -> int:
    """1-based column of the URL in `  - url: https://...`."""
    return line.index("url: ") + len("url: ") + 1


Mutation = Callable[[Slot, "Library"], None]


@dataclass
class Library:
    """The whole plan: slots by number, and what later mutations may refer to."""

    slots: dict[int, Slot]
    ids: dict[int, str]
    clean: list[int]  # numbers of incidents no defect or duplicate touches
    next_unused: int

    def unused_id(self) -> str:
        self.next_unused += 1
        return f"IL-{self.next_unused:04d}"


def _syntax(slot: Slot, lib: Library) -> None:  # IL101
    i = slot.find("title: ")
    words = slot.lines[i][len("title: ") :].split(" ")
    slot.lines[i] = f"title: {words[0]}: {' '.join(words[1:])}"
    slot.expect(i, len("title: ") + len(words[0]) + 1, "IL101")


def _duplicate_key(slot: Slot, lib: Library) -> None:  # IL102
    i = slot.find("status: ")
    slot.lines.insert(i + 1, slot.lines[i])
    slot.expect(i + 1, 1, "IL102")


def _encoding(slot: Slot, lib: Library) -> None:  # IL103
    i = slot.find("title: ")
    before = "\n".join(slot.lines[:i]).encode("utf-8") + b"\n"
    title = "전력 장애로 서비스가 멈췄다"
    line = b"title: " + title.encode("euc-kr")
    rest = "\n".join(slot.lines[i + 1 :]).encode("utf-8") + b"\n"
    slot.raw = before + line + b"\n" + rest
    slot.expect(i, len("title: ") + 1, "IL103")


def _too_large(slot: Slot, lib: Library) -> None:  # IL104
    i = slot.find("lessons: |") if any(s.startswith("lessons") for s in slot.lines) else None
    filler = "  " + "대규모 학습 클러스터의 운영 기록을 그대로 붙여 넣었다. " * 24
    block = [filler] * 650  # ≈ 1.2 MB: over the 1 MiB limit
    if i is None:
        slot.lines += ["lessons: |", *block]
    else:
        slot.lines[i + 2 : i + 2] = block
    slot.expect(0, 1, "IL104")


def _forbidden(slot: Slot, lib: Library) -> None:  # IL105
    i = slot.find("title: ")
    slot.lines[i] = "title: !!python/object/apply:os.system [echo hi]"
    slot.expect(i, len("title: ") + 1, "IL105")


def _empty(slot: Slot, lib: Library) -> None:  # IL106
    slot.lines = ["# 아직 쓰지 않은 사건 기록", "# 출처를 읽고 채울 예정"]
    slot.expect(0, 1, "IL106")


def _not_an_incident_file(slot: Slot, lib: Library) -> None:  # IL107
    slot.name = slot.name.removesuffix(".yaml") + ".yml"
    slot.expect(0, 1, "IL107")


def _comment_after_text(slot: Slot, lib: Library) -> None:  # IL108
    i = slot.find("title: ")
    column = len(slot.lines[i]) + 2
    slot.lines[i] += " #2 보고서"  # (one space: text that YAML takes for a comment)
    slot.expect(i, column, "IL108")


def _list_item_in_text(slot: Slot, lib: Library) -> None:  # IL109
    i = slot.find("  - ", slot.find("actions:"))
    # (Indented under the first action, as Markdown nests a list: YAML joins it to the text.)
    slot.lines.insert(i + 1, "    - 현장 점검을 함께 했다")
    slot.expect(i + 1, 5, "IL109")


def _schema(slot: Slot, lib: Library) -> None:  # IL201
    slot.lines.append("severity: high")
    slot.expect(len(slot.lines) - 1, 1, "IL201")


def _id_format(slot: Slot, lib: Library) -> None:  # IL202
    slot.lines[0] = "id: IL-12"
    slot.expect(0, 5, "IL202")


def _id_mismatch(slot: Slot, lib: Library) -> None:  # IL203
    slot.lines[0] = f"id: {lib.unused_id()}"
    slot.expect(0, 5, "IL203")


def _duplicate_id(slot: Slot, lib: Library) -> None:  # IL204 (both holders) + IL203
    holder = lib.slots[lib.clean.pop()]
    slot.lines[0] = holder.lines[0]
    slot.expect(0, 5, "IL204")
    slot.expect(0, 5, "IL203")
    holder.expect(0, 5, "IL204")


def _withdrawn_fields(slot: Slot, lib: Library) -> None:  # IL205
    target = lib.ids[lib.clean[-1]]
    slot.lines.append(f"duplicate_of: {target}")
    slot.expect(len(slot.lines) - 1, len("duplicate_of: ") + 1, "IL205")


def _only_component(slot: Slot, term: str) -> int:
    """Make `term` the one component (a list of one is always in order); its line index."""
    start = slot.find("  components:")
    slot.lines[start + 1 : slot.find("  symptoms:", start)] = [f"    - {term}"]
    return start + 1


def _unknown_term(slot: Slot, lib: Library) -> None:  # IL301
    slot.expect(_only_component(slot, "ncl"), 7, "IL301")


def _deprecated_term(slot: Slot, lib: Library) -> None:  # IL302
    slot.expect(_only_component(slot, DEPRECATED_TERM), 7, "IL302")


def _placeholder_id(slot: Slot, lib: Library) -> None:  # IL206
    placeholder = f"IL-NEW-synthetic-{slot.name.removesuffix('.yaml').lower()}"
    slot.name = f"{placeholder}.yaml"
    slot.lines[0] = f"id: {placeholder}"
    slot.expect(0, 5, "IL206")


def _facet_order(slot: Slot, lib: Library) -> None:  # IL304
    start = slot.find("  components:")
    end = slot.find("  symptoms:", start)
    slot.lines[start + 1 : end] = ["    - nccl", "    - gpu"]
    slot.expect(start + 1, 7, "IL304")


def _dangling(slot: Slot, lib: Library) -> None:  # IL401
    slot.lines += ["related:", "  - IL-99999999"]
    slot.expect(len(slot.lines) - 1, 5, "IL401")


def _narrative(slot: Slot, lib: Library) -> None:  # IL402
    slot.lines[slot.find("status: ")] = "status: published"
    if "lessons: |" not in slot.lines:  # a draft without lessons: published needs them
        at = slot.find("sources:")
        slot.lines[at:at] = ["lessons: |", "  작은 규모 시험으로는 알 수 없었다."]
    i = slot.find("detection: ")
    slot.lines[i : i + 2] = ["detection: TODO"]
    slot.expect(i, len("detection: ") + 1, "IL402")


def _duplicate_cycle(slot: Slot, lib: Library) -> None:  # IL403 on both files
    other = lib.slots[lib.clean.pop()]
    for one, two in ((slot, other), (other, slot)):
        one.lines[one.find("status: ")] = "status: withdrawn"
        named = two.lines[0].removeprefix("id: ")
        one.lines += [f"duplicate_of: {named}", "withdrawn_reason: |", f"  {named} 에 이미 적었다."]
        one.expect(len(one.lines) - 3, len("duplicate_of: ") + 1, "IL403")


def _not_in_korean(slot: Slot, lib: Library) -> None:  # IL404
    # The English report's title pasted in as the incident's own.
    i = slot.find("title: ")
    slot.lines[i] = "title: Storage metadata saturation slowed training throughput"
    slot.expect(i, len("title: ") + 1, "IL404")


def _source_url(slot: Slot, lib: Library) -> None:  # IL501
    i = slot.find("  - url: https://")
    slot.lines[i] = slot.lines[i].replace("https://", "http://", 1)
    slot.expect(i, _url_column(slot.lines[i]), "IL501")


def _shared_url(slot: Slot, lib: Library) -> None:  # IL502 on both files
    other = lib.slots[lib.clean.pop()]
    j = other.find("  - url: https://")
    url = other.source_url()
    # The same page spelt differently (IL505 leaves a trailing slash and a fragment alone):
    # normalisation must see through it.
    i = slot.find("  - url: https://")
    slot.lines[i] = f"  - url: {url}/#details"
    slot.expect(i, _url_column(slot.lines[i]), "IL502")
    other.expect(j, _url_column(other.lines[j]), "IL502")


def _source_url_form(slot: Slot, lib: Library) -> None:  # IL505
    i = slot.find("  - url: https://")
    slot.lines[i] += "?utm_source=newsletter"
    slot.expect(i, _url_column(slot.lines[i]), "IL505")


def _future(slot: Slot, lib: Library) -> None:  # IL503
    i = slot.find("occurred: ")
    slot.lines[i] = "occurred: 2999-01-01"
    slot.expect(i, len("occurred: ") + 1, "IL503")


def _bare_mention(slot: Slot, lib: Library) -> None:  # IL504
    i = slot.find("symptom: |") + 1
    slot.lines[i] = "  @oncall-team 에 알렸다. " + slot.lines[i][2:]
    slot.expect(i, 3, "IL504")


def _tab(slot: Slot, lib: Library) -> None:  # IL601
    i = slot.find("trigger: |") + 1
    slot.lines[i] = "  원인은\t" + slot.lines[i][2:]
    slot.expect(i, len("  원인은") + 1, "IL601")


def _trailing(slot: Slot, lib: Library) -> None:  # IL602
    i = slot.find("title: ")
    slot.expect(i, len(slot.lines[i]) + 1, "IL602")
    slot.lines[i] += "   "


def _crlf(slot: Slot, lib: Library) -> None:  # IL603
    slot.raw = ("\r\n".join(slot.lines) + "\r\n").encode("utf-8")
    slot.expect(0, len(slot.lines[0]) + 1, "IL603")


def _bom(slot: Slot, lib: Library) -> None:  # IL604
    slot.raw = b"\xef\xbb\xbf" + ("\n".join(slot.lines) + "\n").encode("utf-8")
    slot.expect(0, 1, "IL604")


def _decomposed(slot: Slot, lib: Library) -> None:  # IL605
    # The symptom's first Korean syllable as separate jamo, as macOS file names write it.
    i = slot.find("symptom: |") + 1
    column = next(c for c, char in enumerate(slot.lines[i]) if "가" <= char <= "힣")
    syllable = slot.lines[i][column]
    slot.lines[i] = slot.lines[i].replace(syllable, unicodedata.normalize("NFD", syllable), 1)
    slot.expect(i, column + 1, "IL605")


def _zero_width(slot: Slot, lib: Library) -> None:  # IL606
    # A ZERO WIDTH SPACE inside the title's first Korean word, as text copied from a web
    # page brings it: the word looks whole, and searches miss it.
    i = slot.find("title: ")
    line = slot.lines[i]
    column = next(c for c in range(len(line) - 1) if _hangul(line[c]) and _hangul(line[c + 1]))
    slot.lines[i] = line[: column + 1] + "\u200b" + line[column + 1 :]
    slot.expect(i, column + 2, "IL606")


def _hangul(char: str) -> bool:
    return "가" <= char <= "힣"


# Rule code → the mutation that breaks it. IL001 (internal error) is a bug in curator and
# IL303 and IL305 (taxonomy) live in the taxonomy, so none is an incident mutation.
DEFECTS: dict[str, Mutation] = {
    "IL101": _syntax,
    "IL102": _duplicate_key,
    "IL103": _encoding,
    "IL104": _too_large,
    "IL105": _forbidden,
    "IL106": _empty,
    "IL107": _not_an_incident_file,
    "IL108": _comment_after_text,
    "IL109": _list_item_in_text,
    "IL201": _schema,
    "IL202": _id_format,
    "IL203": _id_mismatch,
    "IL204": _duplicate_id,
    "IL205": _withdrawn_fields,
    "IL206": _placeholder_id,
    "IL301": _unknown_term,
    "IL302": _deprecated_term,
    "IL304": _facet_order,
    "IL401": _dangling,
    "IL402": _narrative,
    "IL403": _duplicate_cycle,
    "IL404": _not_in_korean,
    "IL501": _source_url,
    "IL502": _shared_url,
    "IL503": _future,
    "IL504": _bare_mention,
    "IL505": _source_url_form,
    "IL601": _tab,
    "IL602": _trailing,
    "IL603": _crlf,
    "IL604": _bom,
    "IL605": _decomposed,
    "IL606": _zero_width,
}

SYNTHETIC_TERMS = f"""\
  - id: {DEPRECATED_TERM}
    label:
      ko: 합성 폐기 용어
      en: Synthetic deprecated term
    description: 벤치마크 생성기가 폐기 용어 검사를 위해 넣은 용어.
    deprecated:
      replaced_by: nccl
      reason: 벤치마크용으로 폐기했다.
  - id: {ORPHAN_TERM}
    label:
      ko: 합성 고아 용어
      en: Synthetic orphan term
    description: 벤치마크 생성기가 없는 상위 용어를 가리키게 넣은 용어.
    aliases:
      - NCCL
    parent: no-such-parent-term
"""


# ---------------------------------------------------------------------------------------------
# The plan and the writing
# ---------------------------------------------------------------------------------------------


@dataclass
class Options:
    count: int
    seed: int
    defects_per_rule: int = 1
    duplicate_share: float = 0.02


def incident_id(number: int) -> str:
    return f"IL-{number:04d}"


def build(options: Options, taxonomy: dict[str, list[Term]]) -> tuple[Library, dict]:
    """Every file's lines and the manifest, in memory (nothing written yet)."""
    vocab = Vocabulary.build(taxonomy, options.seed)
    plan = random.Random(f"{options.seed}:plan")
    numbers = list(range(1, options.count + 1))
    ids = {n: incident_id(n) for n in numbers}
    pairs = _duplicate_pairs(plan, numbers, options.duplicate_share)
    events = {n: make_event(random.Random(f"{options.seed}:event:{n}"), vocab) for n in numbers}
    slots: dict[int, Slot] = {}
    duplicates = []
    original_of = {dup: (orig, kind) for orig, dup, kind in pairs}
    for n in numbers:
        rng = random.Random(f"{options.seed}:writeup:{n}")
        orig, kind = original_of.get(n, (n, None))
        event = events[orig]
        w = write_up(rng, event, ids[n], n, vocab)
        if kind == "withdrawn":
            w.status = "withdrawn"
            w.duplicate_of = ids[orig]
            w.withdrawn_reason = _fill(rng.choice(WITHDRAWN_REASON), {"id": ids[orig]})
            if rng.random() < 0.5:  # cites the original's report too: allowed, and settled
                w.sources[0]["url"] = slots[orig].source_url() + "#summary"
        fit_size(rng, event, w, rng.randint(MIN_BYTES, MAX_BYTES - 150))
        slots[n] = Slot(f"{ids[n]}.yaml", render(w))
        if kind:
            duplicates.append({"original": ids[orig], "duplicate": ids[n], "kind": kind})
    touched = {n for pair in pairs for n in pair[:2]}
    clean = [n for n in numbers if n not in touched]
    _add_related(plan, slots, ids, clean)
    lib = Library(slots, ids, clean, options.count + 1000)
    defects = _apply_defects(plan, lib, options.defects_per_rule)
    manifest = {
        "generator_version": GENERATOR_VERSION,
        "count": options.count,
        "seed": options.seed,
        "defects_per_rule": options.defects_per_rule,
        "duplicate_share": options.duplicate_share,
        "files": len(slots),
        "expected_findings": [e.to_json() for e in defects],
        "defect_files": sorted({e.path for e in defects}),
        "duplicates": duplicates,
    }
    return lib, manifest


def _duplicate_pairs(
    plan: random.Random, numbers: list[int], share: float
) -> list[tuple[int, int, str]]:
    """(original, duplicate, kind): a later incident retelling an earlier one."""
    wanted = int(len(numbers) * share)
    candidates = numbers[len(numbers) // 10 :] if len(numbers) >= 20 else []
    chosen = sorted(plan.sample(candidates, min(wanted, len(candidates))))
    taken = set(chosen)
    pairs = []
    for dup in chosen:
        # An earlier incident, not far back (a retelling usually follows soon after).
        tries = [plan.randrange(max(1, dup - 2000), dup) for _ in range(20)]
        orig = next((n for n in tries if n not in taken), None)
        if orig is None:
            continue
        taken.add(orig)
        pairs.append((orig, dup, "withdrawn" if plan.random() < 0.3 else "unmarked"))
    return pairs


def _add_related(
    plan: random.Random, slots: dict[int, Slot], ids: dict[int, str], clean: list[int]
) -> None:
    """About one incident in six points to an earlier one, as editors link similar cases."""
    for position in range(1, len(clean)):
        if plan.random() < 0.16:
            earlier = clean[plan.randrange(max(0, position - 50), position)]
            slots[clean[position]].lines += ["related:", f"  - {ids[earlier]}"]


def _apply_defects(plan: random.Random, lib: Library, per_rule: int) -> list[Expected]:
    if per_rule <= 0:
        return []
    # Defect files and the clean files they borrow from are never related-link targets, so
    # each defect produces exactly the findings listed, and nothing else.
    linked = {ref for slot in lib.slots.values() for ref in _related_ids(slot)}
    usable = [n for n in lib.clean if lib.ids[n] not in linked and not _links(lib.slots[n])]
    needed = per_rule * len(DEFECTS) * 2
    if len(usable) < needed:
        raise SystemExit(f"--count is too small for {per_rule} defect(s) per rule; try more")
    picked = plan.sample(usable, needed)
    targets, lib.clean = picked[: needed // 2], picked[needed // 2 :]
    for offset, (code, mutate) in enumerate(sorted(DEFECTS.items()) * per_rule):
        slot = lib.slots[targets[offset]]
        mutate(slot, lib)
        assert slot.expected, code
    found = [
        Expected(f"incidents/{slot.name}", line, column, code)
        for slot in lib.slots.values()
        for line, column, code in slot.expected
    ]
    return sorted(found, key=lambda e: (e.path, e.line, e.column, e.code)) + _taxonomy_defects()


def _related_ids(slot: Slot) -> list[str]:
    if "related:" not in slot.lines:
        return []
    start = slot.lines.index("related:") + 1
    return [line[4:] for line in slot.lines[start:] if line.startswith("  - ")]


def _links(slot: Slot) -> bool:
    return "related:" in slot.lines or any(s.startswith("duplicate_of") for s in slot.lines)


def _taxonomy_defects() -> list[Expected]:
    components = (REPO / "schema" / "taxonomy" / "components.yaml").read_text(encoding="utf-8")
    first_line = len(components.rstrip("\n").splitlines()) + 1
    orphan_line = first_line + SYNTHETIC_TERMS.splitlines().index(f"  - id: {ORPHAN_TERM}")
    alias_line = first_line + SYNTHETIC_TERMS.splitlines().index("      - NCCL")
    return [
        Expected("schema/taxonomy/components.yaml", orphan_line, 9, "IL303"),
        Expected("schema/taxonomy/components.yaml", alias_line, 9, "IL305"),  # nccl's id
    ]


def write(out: Path, lib: Library, manifest: dict, with_defects: bool) -> None:
    incidents, taxonomy = out / "incidents", out / "schema" / "taxonomy"
    incidents.mkdir(parents=True)
    taxonomy.mkdir(parents=True)
    for source in sorted((REPO / "schema" / "taxonomy").glob("*.yaml")):
        text = source.read_text(encoding="utf-8")
        if with_defects and source.name == "components.yaml":
            text = text.rstrip("\n") + "\n" + SYNTHETIC_TERMS
        (taxonomy / source.name).write_text(text, encoding="utf-8", newline="\n")
    for schema in sorted((REPO / "schema").glob("*.schema.json")):
        shutil.copyfile(schema, out / "schema" / schema.name)
    for slot in lib.slots.values():
        data = slot.raw if slot.raw is not None else ("\n".join(slot.lines) + "\n").encode()
        (incidents / slot.name).write_bytes(data)
    text = json.dumps(manifest, ensure_ascii=False, indent=1) + "\n"
    (out / "manifest.json").write_text(text, encoding="utf-8")


def _check_target(out: Path, force: bool) -> None:
    out = out.resolve()
    if out == REPO or REPO / "incidents" in (out, *out.parents) or out in REPO.parents:
        raise SystemExit(f"refusing to write into {out}: choose a folder outside the library")
    if out.exists() and any(out.iterdir()):
        if not (force and (out / "manifest.json").is_file()):
            raise SystemExit(
                f"{out} is not empty; pass --force to replace a library this script wrote"
            )
        for name in ("incidents", "schema", "manifest.json", ".curator-cache"):
            target = out / name
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()


def generate(out: Path, options: Options, force: bool = False) -> dict:
    _check_target(out, force)
    taxonomy = read_taxonomy(REPO / "schema" / "taxonomy")
    lib, manifest = build(options, taxonomy)
    write(out, lib, manifest, options.defects_per_rule > 0)
    return manifest


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder to create the library in")
    parser.add_argument("--count", type=int, default=1000, help="number of incidents")
    parser.add_argument("--seed", type=int, default=1, help="same seed, same library")
    parser.add_argument(
        "--defects-per-rule", type=int, default=1, help="broken files per lint rule (0: none)"
    )
    parser.add_argument(
        "--duplicate-share",
        type=float,
        default=0.02,
        help="share of incidents that retell an earlier one (default 0.02)",
    )
    parser.add_argument("--force", action="store_true", help="replace a generated library")
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--count must be at least 1")
    options = Options(args.count, args.seed, args.defects_per_rule, args.duplicate_share)
    manifest = generate(args.out, options, args.force)
    print(
        f"wrote {manifest['files']} incident files to {args.out / 'incidents'} "
        f"({len(manifest['expected_findings'])} expected findings, "
        f"{len(manifest['duplicates'])} duplicate pairs)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
