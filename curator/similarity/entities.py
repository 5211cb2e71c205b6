"""Distinctive entities: the facts that two write-ups of one event share in any language.

Numbers with their units ("4,088개" and "4,088 GPUs" are both `4088`; "8시간" and "8 hours"
are both `8h`), product and model names (H100, SmolLM3), versions and package strings
(249.11-0ubuntu3.7), error names (XID 79, SERVFAIL), CVE ids, host names and proper names
written in Latin script. Each is reduced to one lower-case spelling.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from curator.similarity.text import ENGLISH_STOPWORDS, words
from curator.textnorm import normalized

_MAGNITUDES = {
    "천": 1_000, "만": 10_000, "억": 100_000_000,
    "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000,
}  # fmt: skip

_UNITS = {
    "tb": "tb", "tib": "tb", "테라바이트": "tb", "pb": "pb", "pib": "pb",
    "gb": "gb", "gib": "gb", "기가바이트": "gb", "mb": "mb", "mib": "mb", "kb": "kb",
    "tbps": "tbps", "gbps": "gbps", "gb/s": "gbps", "mbps": "mbps", "tflops": "tflops",
    "pflops": "pflops", "ghz": "ghz", "mhz": "mhz", "w": "w", "kw": "kw", "mw": "mw",
    "%": "%", "퍼센트": "%", "percent": "%",
    "시간": "h", "hours": "h", "hour": "h", "hrs": "h", "hr": "h", "h": "h",
    "분": "min", "minutes": "min", "minute": "min", "mins": "min", "min": "min",
    "초": "s", "seconds": "s", "second": "s", "secs": "s", "sec": "s",
    "밀리초": "ms", "ms": "ms", "milliseconds": "ms",
    "일": "d", "days": "d", "day": "d",
    "주": "wk", "weeks": "wk", "week": "wk",
    "개월": "mo", "months": "mo", "month": "mo",
    "년": "y", "years": "y", "year": "y",
}  # fmt: skip
_UNIT_ALTERNATIVES = "|".join(re.escape(u) for u in sorted(_UNITS, key=len, reverse=True))
_DIGITS = r"(?:\d{1,3}(?:,\d{3})+|\d+)"
# `반` after a unit is "and a half" when a particle or no word follows (4시간 반이, 4시간
# 반 동안), not the start of another word (4시간 반복).
_HALF_ENDS = r"(?:(?=[이을은의에쯤만])|(?![가-힣]))"
# Korean glues particles to the word before them (H100이, NCCL에서, CVE-2023-26604가,
# 17:20에): a Hangul syllable after an entity ends it as a space does, where `\b` and
# `(?!\w)`, to which Hangul is a letter of the word, made it no entity, or another one
# (17:20에 was the numbers 17 and 20). A letter of another script still goes on with the
# word (Café2 is no Caf). Before an entity, a Hangul syllable still keeps it from starting,
# as any letter does: a word glued to the next one (엔비디아H100) is rare, and a number
# glued after a Korean word is mostly part of it (제10회, 노드12), not a quantity.
# Japanese and Chinese put no space between words at all (NVIDIAのH100が落ちた, 在H100集群上):
# kana and CJK ideographs end an entity as Hangul does, and, unlike Hangul, let one start
# right after them.
_UNSPACED = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff"
_IN_WORD = rf"[^\W가-힣{_UNSPACED}]"  # a letter, digit or `_`, not of a script that glues
_ENDS = rf"(?!{_IN_WORD})"  # `\b` after a letter or digit, a Hangul syllable no letter
_BEFORE = rf"[^\W{_UNSPACED}]"  # what keeps an entity from starting right after it


def _after_none_of(others: str = "") -> str:
    r"""`(?<![\w{others}])`, kana and ideographs no letters: `\b` before a letter or a
    digit where `others` is empty."""
    return rf"(?<!{_BEFORE}|[{others}])" if others else rf"(?<!{_BEFORE})"


_BOUNDARY = _after_none_of()


def _ahead(wanted: str) -> str:
    r"""`(?=[\w.-]*[wanted])`, a Hangul syllable no letter: the characters before the first
    `wanted` are taken possessively, as none of them is one. (Given back a character at a
    time, as `(?:[^\W가-힣]|[.-])*` gives them, they made the whole pattern 15% slower.)"""
    before = rf"[^\W{wanted}가-힣{_UNSPACED}]*+"
    return rf"(?={before}(?:[.-]{before})*+[{wanted}])"


_LETTER_AHEAD, _DIGIT_AHEAD = _ahead("A-Za-z"), _ahead(r"\d")
_MONTH = (
    rf"{_BOUNDARY}(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    rf"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?){_ENDS}"
)
_TIME_OF_DAY = r"오전|오후|새벽|아침|낮|저녁|밤|정오|자정|[월화수목금토일]요일"
# Dates in Korean (2024년 3월 5일, 3월 5~7일): the only kind that may start right after a
# letter or digit (`가x2024년`, where no kind can start at `x`); every other kind starts at
# a word boundary or after a character that is not one.
_KOREAN_DATES = (
    r"\d{4}\s*년(?:\s*\d{1,2}\s*월)?(?:\s*\d{1,2}\s*일)?"
    r"|\d{1,2}\s*월\s*\d{1,2}(?:\s*[-~–]\s*\d{1,2})?\s*일"
)
# Each kind of entity, a named group; where two could start at the same place, the earlier
# wins.
_KINDS = [
    rf"(?P<cve>{_BOUNDARY}(?i:cve)-\d{{4}}-\d{{4,}}{_ENDS})",
    rf"(?P<xid>{_BOUNDARY}(?i:xid\s*(?:error\s*)?)(?P<xid_code>\d+){_ENDS})",
    # Three or more dotted parts, or two and a package suffix: 249.11-0ubuntu3.7,
    # 1.1.1.1, v1.28.3.
    rf"(?P<version>{_after_none_of('.')}v?\d+(?:\.\d+){{2,}}(?:[-+~][0-9A-Za-z][0-9A-Za-z.+~]*)?{_ENDS}"
    rf"|{_after_none_of('.')}v?\d+\.\d+[-+~](?=[0-9A-Za-z.+~]*[A-Za-z])[0-9A-Za-z][0-9A-Za-z.+~]*)",
    # Dates are compared through `occurred`, not as numbers; clock times say when in
    # a day, which two reports of one event need not share (and give in other zones).
    # (Each branch opens with a look-ahead for its first character: the pattern is
    # tried at every word, and most words start with neither a digit nor a month.)
    rf"(?P<date>(?=\d)(?:{_BOUNDARY}\d{{4}}-\d{{2}}(?:-\d{{2}})?{_ENDS}"
    rf"|{_BOUNDARY}\d{{1,2}}:\d{{2}}(?::\d{{2}})?{_ENDS}"
    rf"|{_KOREAN_DATES}|{_BOUNDARY}\d{{1,2}}/\d{{1,2}}/\d{{2,4}}{_ENDS}"
    rf"|{_BOUNDARY}\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}"
    # 19시 43분, 오후 10시 (not 10시간: hours); 31일 오후 (the 31st; 31일 동안 is days).
    r"|(?<![0-9A-Za-z.,])\d{1,2}\s*시(?!간)(?:\s*\d{1,2}\s*분)?(?:\s*\d{1,2}\s*초)?"
    rf"|(?<![0-9A-Za-z.,])\d{{1,2}}\s*일(?=\s*(?:{_TIME_OF_DAY}|\d{{1,2}}\s*시(?!간)))"
    rf"|{_BOUNDARY}\d{{1,2}}\s*(?i:[ap]\.?m){_ENDS}\.?)"
    rf"|(?=[ADFJMNOS]){_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?{_ENDS})",
    # A number, a magnitude (1만 6,384 · 400 million), a unit (8시간 · 24 TB).
    rf"(?P<quantity>(?P<number>{_after_none_of('.,')}{_DIGITS})(?P<fraction>\.\d+)?"
    r"(?:\s*(?P<magnitude>억|만|천|(?i:thousand|million|billion)(?![a-z]))"
    rf"(?:\s*(?P<rest>{_DIGITS})(?P<rest_thousands>천)?(?P<rest_man>만)?)?)?"
    rf"(?:\s?(?P<unit>(?i:{_UNIT_ALTERNATIVES}))(?![a-z0-9])(?P<half>\s?반{_HALF_ENDS})?)?"
    r"(?!\d))",
    # Letters and digits mixed: H100, B200, SmolLM3, HBM3, text-davinci-003. (One that
    # starts with its digits, 70B or 100G, is taken by the quantity kind first, as 70:
    # read as the model 70b, the evaluation's facets did no better, session 44.)
    rf"(?P<model>{_after_none_of('.-')}{_LETTER_AHEAD}{_DIGIT_AHEAD}[A-Za-z0-9]+"
    rf"(?:[-_.][A-Za-z0-9]+)*{_ENDS}(?!-))",
    # Two capitals or more (NCCL, MegaScale, iDRAC, GitHub), dotted and hyphenated
    # names (systemd-networkd, redis-py, slack.com), error constants (CUDA_ERROR_X).
    # (Two capitals are looked for ahead, not matched by three overlapping runs of
    # letters: on a long word without an end, those were tried in cubic time.) A word in
    # capitals alone (AWS, DNS) is a kind of its own, read as a name is, and a word of a
    # name too (AWS Lambda): told apart by the pattern, not again by each match. One
    # capital is a word of a name only before a capitalised word (G Suite, X Window). A
    # name in mixed case is a word of a name too (GitHub Actions, ChatGPT Enterprise).
    rf"(?P<capitals>{_after_none_of('.-')}(?:[A-Z]{{2,}}|[A-Z](?= [A-Z][a-z][a-z0-9]+{_ENDS}))"
    rf"{_ENDS}(?!-))",
    rf"(?P<name>{_after_none_of('.-')}(?:(?=[a-z]*[A-Z][a-z]*[A-Z])[A-Za-z]+"
    rf"|[a-z][a-z0-9]*(?:[-.][a-z0-9]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+){_ENDS}(?!-))",
    rf"(?P<capitalised>{_after_none_of('.-')}[A-Z][a-z][a-z0-9]+{_ENDS}(?!-))",
]
# A word of small letters alone (`training`, `the`): what most Latin words of a text are,
# and none of the kinds after the CVE ids and XID errors can start with one (they need a
# digit, a capital, or `-`, `.` or a word character after it, a Hangul syllable aside:
# `_ENDS`). Matched whole, as no entity, so that the engine skips it at once instead of
# trying every kind there and every place inside it (a third of the pattern's time on the
# synthetic library's texts).
_WORD = rf"(?P<word>[a-z]+{_ENDS}(?![.-]))"
# One pattern, read once. The look-ahead lets the engine skip Korean text without trying
# every kind (3x); inside a word only the Korean dates are tried (a quarter less time in
# all): every other kind fails there, at a look-behind or `\b` of its own.
# tests/test_similar.py holds it to the kinds tried everywhere. (`_WORD` comes after the
# first two kinds, the CVE ids and XID errors, which may start with a word of small letters.)
_ENTITY = re.compile(
    r"(?=[A-Za-z0-9])(?:"
    rf"(?<=[A-Za-z0-9])(?P<date_inside>{_KOREAN_DATES})"
    r"|(?<![A-Za-z0-9])(?:" + "|".join([*_KINDS[:2], _WORD, *_KINDS[2:]]) + "))"
)
_PLURAL_ACRONYM = re.compile(r"^[A-Z]{2,}s$")
# A word of a name, lower-cased: capitalised (three letters or more) or in capitals (two).
_CAPITALISED_WORD = re.compile(r"[a-z][a-z0-9]+")
_LONGEST_NAME = 5  # words: Knight Capital Americas, OWASP Core Rule Set, Google Compute Engine
_SENTENCE_END = ".!?:;\n"
_MONTHS = words(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec "
    "monday tuesday wednesday thursday friday saturday sunday"
)
# Time zones name no fact of an event: any report of anything may give its times in UTC.
_TIME_ZONES = words("utc gmt kst jst pst pdt est edt cst cdt mst mdt cet cest bst ist")
# Common words that look like names when they open an English sentence or title.
_NOT_NAMES = (
    ENGLISH_STOPWORDS
    | _MONTHS
    | _TIME_ZONES
    | words(
        "incident incidents outage postmortem summary update customers customer engineers team "
        "follow-up follow-ups root-cause e.g i.e"
    )
)
# The field's common nouns: what any system or incident has (a service, a cluster, a
# GPU), capitalised or in capitals only as a word of a name (Service Control, Cloud
# Storage) or by style. Alone, such a word is no entity: two incidents that both say
# `Service` or `GPU` share no fact of one event, and the word is in their text similarity
# already, where a small library's rarity made it weigh as a rare name (IL-0206 and
# IL-0199 were related at 0.22 by `service, 10min, google, api`). A name of several words
# holding one still is an entity (`service control`, `cloud storage`). Names of one
# protocol or product (DNS, HTTP, Kubernetes) are no common nouns, and stay. `API` stays
# too, for now: on the evaluation it alone made facets worse (docs/judgement.md). Nor do
# the words that name a product's edition or a publisher (ChatGPT Enterprise, G Suite, The
# Register): two reports that both cite The Register share no fact of one event.
# The first of them, `GENERIC`, are those that beside an organisation's name name nothing
# more specific than it: `google cloud` is Google, as `google compute engine` (`compute`,
# `engine`) or `aws lambda` is not (similar.py).
GENERIC = words("cloud platform service services status")
_COMMON_NOUNS = GENERIC | words(
    "server servers cluster clusters node nodes network networks networking data database "
    "storage disk compute engine control plane access security code app apps application "
    "applications internet gateway console portal agent interface container containers "
    "health metrics infrastructure system systems error errors cpu gpu enterprise suite "
    "register"
)
_SMALLEST_BARE_NUMBER = 10
# More digits than any count, size, duration or sum of money has: a checksum or a serial
# pasted in decimal, no fact of the event's size. (Python refuses int() of more than 4,300
# digits, and a float ends at 309: one such number in a file failed every judgement.)
_LONGEST_NUMBER = 30


def entities(text: str, query: bool = False) -> set[str]:
    """The distinctive entities of `text`, each in one canonical lower-case spelling.

    With `query`, `text` is what someone typed to search for, neither a sentence nor a
    title: a capitalised word is a name wherever it stands, as its capital is theirs, not
    style (`Datadog outage`, `Azure Front Door Outage` name Datadog and Azure, as
    `Datadog 장애` does)."""
    text = normalized("NFKC", text)
    found: set[str] = set()
    line = (0, -1, False)  # the line of the last capitalised word: start, end, in title case
    run: list[str] = []  # the words of a name kept so far, one space apart
    titled = False  # whether one of them is capitalised, not in capitals
    run_end = -1
    for match in _ENTITY.finditer(text):
        kind = match.lastgroup
        if kind == "word":
            continue
        value = _CANONICAL[kind](match) if kind else None
        if kind == "capitalised" and value:
            if not query:
                if _opens_sentence(text, match.start()) and _english_follows(text, match.end()):
                    continue  # an English sentence may open with any word
                # Each line is read once: a line of 100,000 such words was read 100,000 times.
                if match.start() > line[1]:
                    line = _line_at(text, match.start())
                if line[2]:
                    continue
            word = value
        elif kind == "name" and value and match.group(0).isalpha():
            word = value  # in mixed case (GitHub, ChatGPT), not dotted, hyphenated or _
        elif kind == "capitals":
            # A word of a name (`AWS`, `DNS`, `AD` of AWS Lambda, Google Cloud DNS, Azure AD)
            # unless a time zone or a stopword (`UTC`, `AND`), which are no entity either.
            word = value or match.group(0).lower()  # (two letters are no entity alone)
            if word in _NOT_NAMES:
                continue
        else:
            if value:
                found.add(value)
            continue
        if text[run_end : match.start()] == " ":
            run.append(word)
        else:
            if titled:
                _add_name(found, run)
            run, titled = [word], False
        titled = titled or kind == "capitalised"
        run_end = match.end()
        if value:
            found.add(value)
    if titled:
        _add_name(found, run)
    return found - _COMMON_NOUNS


def _add_name(found: set[str], run: list[str]) -> None:
    """Capitalised words one space apart are one name (`Northern Virginia`, `Network Load
    Balancer`), found beside the shorter names inside it (`name_parts`), so that a text
    naming `Virginia` or an `Application Load Balancer` still shares that part with it.
    Words in capitals are words of the name too (`AWS Lambda`, `Google Cloud DNS`), where
    one word at least is capitalised: words in capitals alone are acronyms side by side
    (`GPU SRAM`, `NFS RPC`), no name (`entities` passes `run` only where one is). A run of
    more words than a name has is a list or a heading, no name."""
    if 1 < len(run) <= _LONGEST_NAME:
        found.update(" ".join(part) for part in _runs(run) if len(part) > 1)


def name_parts(entity: str) -> list[str]:
    """The shorter names inside `entity` where it is a name of several words, which
    `entities` finds beside it: its words and runs of them (`compute engine` and `google`,
    `compute`, `engine` in `google compute engine`); [] for any other entity (`xid 79`)."""
    words = entity.split(" ")
    if len(words) < 2 or not all(map(_CAPITALISED_WORD.fullmatch, words)):
        return []
    return [" ".join(part) for part in _runs(words) if len(part) < len(words)]


def _runs(words: list[str]) -> Iterator[list[str]]:
    return (words[i:j] for i in range(len(words)) for j in range(i + 1, len(words) + 1))


def counted(shared: set[str]) -> set[str]:
    """The entities of `shared` that count: a part of a name of several words that `shared`
    holds is that name, already (`northern virginia`, not `northern` and `virginia` again)."""
    return shared - {part for name in shared for part in name_parts(name)}


def small_words(text: str) -> list[str]:
    """The words of small letters alone in `text` (`datadog`, `training`), which `entities`
    passes over: no name by their letters."""
    text = normalized("NFKC", text)
    return [match.group() for match in _ENTITY.finditer(text) if match.lastgroup == "word"]


def _plain(number: str, fraction: str | None = None) -> str:
    digits = number.replace(",", "")
    if fraction and fraction.strip(".0"):
        return f"{int(digits)}{fraction.rstrip('0')}"
    return str(int(digits))


def _quantity(match: re.Match[str]) -> str | None:
    if len(match.group("number")) > _LONGEST_NUMBER:
        return None
    number = _plain(match.group("number"), match.group("fraction"))
    magnitude = match.group("magnitude")
    if magnitude:
        value = float(number) * _MAGNITUDES[magnitude.lower()]
        if match.group("rest"):
            rest = int(match.group("rest").replace(",", ""))
            # 4억 6천만: what follows 억 counts in 만 when it says so (6천만 = 60,000,000).
            value += (
                rest
                * (1_000 if match.group("rest_thousands") else 1)
                * (10_000 if match.group("rest_man") else 1)
            )
        number = str(int(value))
    unit = match.group("unit")
    if unit:
        unit = _UNITS[unit.lower()]
        if match.group("half"):  # 4시간 반: four and a half hours
            number = format(float(number) + 0.5, "f").rstrip("0").rstrip(".")
        if unit == "y" and 1900 <= float(number) <= 2100:
            return None  # a year, not a duration
        return f"{number}{unit}"
    value = float(number)
    if value < _SMALLEST_BARE_NUMBER or (number.isdigit() and 1970 <= value <= 2039):
        return None
    return number


def _name(match: re.Match[str]) -> str | None:
    name = match.group(0)
    if _PLURAL_ACRONYM.match(name):
        name = name[:-1]
    name = name.lower()
    return None if name in _NOT_NAMES or len(name) < 3 else name


def _capitalised(match: re.Match[str]) -> str | None:
    # (Where an English sentence opens with it, `entities` passes it over: a Korean
    # sentence opens only with a name.)
    word = match.group(0).lower()
    return None if word in _NOT_NAMES else word


def _line_at(text: str, at: int) -> tuple[int, int, bool]:
    """The line of `text` holding `at`: its start, its end, and whether it is a title in
    title case, where capitals are style, not names: "Scaling Large Language Model Training"."""
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    end = len(text) if end < 0 else end
    return start, end, _title_case(text[start:end])


_LONG_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]{3,}")
_HANGUL = re.compile("[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]")


def _title_case(line: str) -> bool:
    """Whether `line` is English in title case, as report titles are written: no Korean,
    and every word of four letters or more capitalised, at least three of them. (A Korean
    sentence naming `Azure Front Door` is not; nor is an English sentence.)"""
    if _HANGUL.search(line):  # first: most lines are Korean, and this is one scan
        return False
    long_words = _LONG_LATIN_WORD.findall(line)
    return len(long_words) >= 3 and all(w[0].isupper() for w in long_words)


def _opens_sentence(text: str, start: int) -> bool:
    i = start - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    return i < 0 or text[i] in _SENTENCE_END


# Capitalised and all-caps words up to a Hangul syllable (kana, an ideograph): the name
# that opens a Korean sentence (`Northern Virginia 리전에서`, `Google Cloud DNS가`).
# Possessive, so that each is read once.
_NAME_BEFORE_HANGUL = re.compile(rf"(?:[ \t]++[A-Z][A-Za-z0-9]*+)*+[ \t]*+[가-힣{_UNSPACED}]")


def _english_follows(text: str, end: int) -> bool:
    """Whether an English sentence goes on after the word that opens it and ends at `end`:
    a Latin word follows, and it is not a name of capitalised words that a Korean sentence
    goes on after (`Northern Virginia 리전에서`, where `Northern` is no style but the name's
    first word)."""
    i = end
    while i < len(text) and text[i] in " \t":
        i += 1
    if not (i < len(text) and text[i].isascii() and text[i].isalpha()):
        return False
    return not _NAME_BEFORE_HANGUL.match(text, end)


_CANONICAL = {
    "cve": lambda m: m.group(0).lower(),
    "xid": lambda m: f"xid {m.group('xid_code')}",
    "version": lambda m: m.group(0).lower().removeprefix("v"),
    "date": lambda m: None,
    "date_inside": lambda m: None,
    "quantity": _quantity,
    "model": lambda m: m.group(0).lower(),
    "name": _name,
    "capitals": _name,
    "capitalised": _capitalised,
}
