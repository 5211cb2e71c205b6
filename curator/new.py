"""`curator new`: a draft incident with a placeholder id, every field laid out, and short
Korean guidance beside each field as YAML comments.

The draft is valid as it stands (`curator lint` shows only the placeholder warning), so a
contributor can commit early and fill it in from the source step by step.
"""

from __future__ import annotations

import datetime as dt
import errno
import hashlib
import json
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ParamSpec, TypeVar
from urllib.parse import unquote, urlsplit

from curator.library import Library, NotALibrary
from curator.load import MAX_BYTES
from curator.model import (
    DIMENSIONS,
    PARTIAL_DATE_PATTERN,
    Term,
    TextFault,
    parse_partial_date,
    text_fault,
)
from curator.progress import counted
from curator.rules import (
    empty_file,
    encoding,
    file_too_large,
    forbidden_construct,
    no_tabs,
    schema,
    source_url_form,
    yaml_syntax,
)
from curator.rules.bare_mention import bare_mentions
from curator.signals import deferred
from curator.taxonomy import Taxonomy
from curator.textnorm import composed, normalized
from curator.unseen import ZERO_WIDTH, zero_width
from curator.urls import UrlFault, url_fault
from curator.write.atomic import write_atomic
from curator.write.canonical import render

if TYPE_CHECKING:  # (imported where used: see `suggest_terms`)
    from curator.similarity.phrases import Hit

REQUIRED_DIMENSIONS = ("causes", "components", "symptoms")
STATUSES = ("draft", "published")
P = ParamSpec("P")
T = TypeVar("T")
_SLUG_WORDS = 5
# Characters: a file name must stay well within the 255 bytes file systems allow, with
# `IL-NEW-`, a `-N` suffix, `.yaml` and write_atomic's temporary name around the slug.
_SLUG_LENGTH = 60
# A number written against a Korean word is a measure, a count or a date (3시간, 8대,
# 2024년, 4,088개): no name of the event, and as a slug's last word it reads as the `-N`
# that tells two drafts of one name apart (`IL-NEW-gcs-3`).
_KOREAN_MEASURE = re.compile(r"(?<![A-Za-z0-9])[0-9][0-9.,]*(?=[^\W\d_])(?![A-Za-z])")


class DraftError(ValueError):
    """A value given for the draft that the library would not accept."""


class TaxonomyError(DraftError):
    """A term given that the taxonomy cannot vouch for by a fault of its own (a definition
    broken, a file unread, a deprecation to no current term): the message says where to
    mend it, and no usage is at fault."""


@dataclass
class Draft:
    title: str
    source_url: str
    source_title: str | None = None
    organizations: list[str] = field(default_factory=list)
    occurred: str | None = None
    status: str = "draft"
    facets: dict[str, list[str]] = field(default_factory=dict)
    guessed: list[Hit] = field(default_factory=list)  # the facets filled in unasked
    # What is written otherwise than given, said: a space `one_line` made, the URL tidied.
    notes: list[str] = field(default_factory=list)


# Checking what was given ----------------------------------------------------------------


def bilingual(korean: str, english: str) -> str:
    """An error line in Korean first, as the prompts ask (`제목 title`), and in English
    after it in brackets, as `search` names its filters (`추천 필터 (recognised in the
    query)`): the library is written in Korean, and its tools are used in English too."""
    return f"{korean} ({english})"


# In Korean, as the prompts name them: what `check_text` and `one_line` are told a value is,
# and each dimension.
_KOREAN_NAMES = {
    "the title": "제목",
    "the source title": "출처 글의 제목",
    "an organization": "조직",
    "the source URL": "출처 URL",
}
_DIMENSION_NAMES = {
    "causes": "원인",
    "components": "구성 요소",
    "symptoms": "증상",
    "contributing_factors": "기여 요인",
}


# What makes a one-line value more than one line, or hides its spacing: refused, not
# turned into a space unsaid. Lint leaves a line break in one to its author (IL606), who
# alone knows whether the rest belongs in `symptom`.
_NOT_ONE_LINE = {
    "\t": ("탭", "a tab (U+0009 CHARACTER TABULATION"),
    "\n": ("줄바꿈", "a line break (U+000A LINE FEED"),
    "\u2028": ("줄바꿈", "a line break (U+2028 LINE SEPARATOR"),
    "\u2029": ("줄바꿈", "a line break (U+2029 PARAGRAPH SEPARATOR"),
}


def check_title(title: str) -> str:
    return one_line("the title", title)


def one_line(what: str, text: str) -> str:
    """`text`, a one-line value (the title, an organization), its runs of spaces made one
    and its ends stripped, once `check_one_line` accepts it as given."""
    check_one_line(what, text)
    return check_text(what, " ".join(text.split()))


def respaced(what: str, text: str) -> str | None:
    """What `one_line` writes as a plain space in `text` that is not one (U+00A0 from a web
    page, U+3000 from an input method in full-width mode), to be said: it looks like a
    space, and the file would not show the change."""
    start = len(text) - len(text.lstrip())  # (the ends are dropped, not made spaces)
    found = [
        (char, start + index + 1)
        for index, char in enumerate(text.strip())
        if char.isspace() and char != " "
    ]
    if not found:
        return None
    korean = ", ".join(f"U+{ord(char):04X}({place}번째 글자)" for char, place in found)
    english = " and ".join(
        f"U+{ord(char):04X} {unicodedata.name(char, '')} (character {place})"
        for char, place in found
    )
    written = "is written as a plain space" if len(found) == 1 else "are written as plain spaces"
    return bilingual(
        f"{_KOREAN_NAMES[what]}의 {korean} 공백을 보통 공백으로 썼습니다",
        f"{what}'s {english} {written}",
    )


def tidied(url: str) -> str | None:
    """That the source URL is written without the noise IL505 names (`utm_…` and other
    tracking parameters, a `:~:text=` fragment, `:443`, an upper-case host), as `curator
    fix` would make it, to be said: where fix says it, new changed it without a word."""
    written = source_url_form.tidy(url)
    if written == url:
        return None
    return bilingual(
        f"출처 URL 을 `curator fix` 처럼 정리해 썼습니다: {written}",
        f"the source URL is written as {written} (IL505)",
    )


def check_one_line(what: str, text: str) -> str:
    """`text`, if it holds no tab, line break or control character: each is refused where
    it is in `text` as given (`str.split` would make most of them spaces, unseen)."""
    for index, char in enumerate(text):
        if char in _NOT_ONE_LINE:
            korean, english = _NOT_ONE_LINE[char]
            raise DraftError(
                bilingual(
                    f"{_KOREAN_NAMES[what]}에 {korean}(U+{ord(char):04X})이 있습니다({index + 1}"
                    "번째 글자): 웹사이트 목록·피드·CSV 에서 한 줄이니, 공백을 써서 한 줄로 "
                    "쓰세요",
                    f"{what} holds {english}, character {index + 1}): it is one line in the "
                    "website's lists, the feed and the CSV; write it on one line, with spaces",
                )
            )
    fault = text_fault(text) if text.strip() else None  # (nothing visible: said once joined)
    if fault:
        raise _text_error(what, fault)
    return check_visible(what, text)


def check_visible(what: str, text: str) -> str:
    """`text`, if it holds no character lint refuses as unseen (IL606: a zero-width
    character, a bidirectional control such as U+202E): the draft would fail lint over a
    character its author cannot see in it. (`text` is one line: its column is its place.)"""
    found = zero_width(text)
    if found is None:
        return text
    code, name, place = f"U+{ord(found.char):04X}", ZERO_WIDTH[found.char], found.position.column
    raise DraftError(
        bilingual(
            f"{_KOREAN_NAMES[what]}에 보이지 않는 글자가 있습니다({place}번째 글자, {code} "
            f"{name}): 지우세요",
            f"{what} holds {code} {name}, which shows as nothing (character {place}): remove "
            "it (IL606)",
        )
    )


# In Korean, what `TextFault.character_kind` says a refused character is.
_KOREAN_CHARACTER_KINDS = {
    "a control character": "제어 문자",
    "a byte-order mark": "바이트 순서 표시(BOM)",
    "a noncharacter": "비문자(noncharacter)",
}


def _text_error(what: str, fault: TextFault) -> DraftError:
    """`model.text_fault`'s `fault` of `what`, in Korean too."""
    name = _KOREAN_NAMES[what]
    if fault.kind == "character":
        kind = _KOREAN_CHARACTER_KINDS[fault.character_kind]
        korean = f"{name}에 U+{fault.code:04X} {kind}가 있습니다({fault.place}번째 글자): 지우세요"
    elif fault.kind == "empty":
        korean = f"{name}이 비어 있습니다"
    else:
        korean = f"{name}에 보이는 글자가 없습니다"
    return DraftError(bilingual(korean, f"{what} {fault}"))


def _source_title(text: str) -> str:
    """The source title as `one_line` makes it (a space pasted from the report's page,
    U+00A0, written as a plain one, as in the title); blank for one not known."""
    return one_line("the source title", text) if text.strip() else ""


def check_text(what: str, text: str) -> str:
    """What lint would refuse in a text: no visible character, a control character
    (`model.text_problem`, IL201), or a bare `@name` (IL504: the review bot echoes incident
    text on GitHub, where it notifies someone)."""
    fault = text_fault(text)
    if fault:
        raise _text_error(what, fault)
    found = bare_mentions(text)
    if found:
        raise DraftError(
            bilingual(
                f"{_KOREAN_NAMES[what]}의 {found[0]}: GitHub 에서 그 이름에게 알림이 갑니다. "
                "@ 없이, 또는 백틱(`) 안에 쓰세요",
                f"{what} holds {found[0]}, which would notify someone on GitHub; write it "
                "without @, or in backticks",
            )
        )
    return text


def check_source_url(url: str) -> str:
    url = url.strip()
    fault = url_fault(url)
    if fault:
        raise DraftError(
            bilingual(
                f"출처 URL {url!r}: {_korean_url_fault(fault)}", f"source URL {url!r} {fault}"
            )
        )
    return check_visible("the source URL", url)


def _korean_url_fault(fault: UrlFault) -> str:
    """In Korean, what `fault` says in English (which lint's IL501 says alone)."""
    detail = fault.detail
    host = "호스트 이름이 올바르지 않습니다"
    return {
        "space": "공백이 있습니다",
        "wrapped": f"{detail!r} 로 시작합니다: 따옴표나 괄호 없이 주소만 쓰세요",
        "backslash": "역슬래시(\\)가 있습니다. URL 에 쓸 수 없는 글자라(RFC 3986) 읽는 쪽마다 "
        "달리 읽습니다: 브라우저는 '/' 로 읽고(https://a.com\\@b.com/ 은 a.com 으로 갑니다), "
        "다른 도구는 호스트나 경로의 일부로 읽습니다. '/' 나 '%5C' 로 쓰세요",
        "bracket": "여는 '(' 없이 ')' 로 끝납니다. 괄호 안 문장이나 Markdown 의 [제목](url) 에서 "
        "함께 복사된 것이니 주소만 쓰세요",
        "malformed": f"주소 꼴이 잘못되었습니다({detail})",
        "scheme": f"{detail + ' 주소' if detail else 'https:// 가 없는 주소'}입니다. 공개된 글의 "
        "https 주소만 쓰세요",
        "host": f"{host}({detail or '비어 있음'})",
        "ipv6": f"{host}([{detail}] 은 IPv6 주소가 아닙니다)",
        "empty-label": f"{host}({detail}: 두 점 사이가 비어 있습니다)",
        "long-label": f"{host}({detail}: 63자보다 긴 레이블이 있습니다)",
        "ipv4": f"{host}({detail} 은 IPv4 주소가 아닙니다)",
    }[fault.kind]


def check_occurred(text: str) -> str | None:
    text = text.strip()
    if not text:
        return None
    if not re.match(PARTIAL_DATE_PATTERN, text):
        raise DraftError(
            bilingual(
                f"일어난 때 {text!r}: YYYY, YYYY-MM, YYYY-MM-DD 꼴이 아닙니다",
                f"occurred {text!r} is not YYYY, YYYY-MM or YYYY-MM-DD",
            )
        )
    try:
        parse_partial_date(text)
    except ValueError as exc:
        raise DraftError(
            bilingual(
                f"일어난 때 {text!r}: 없는 날짜입니다",
                f"occurred {text!r} is not a real date",
            )
        ) from exc
    today = dt.datetime.now(dt.UTC).date()  # as lint's IL503
    year, month, day = parse_partial_date(text)
    if dt.date(year, month or 1, day or 1) > today:
        raise DraftError(
            bilingual(
                f"일어난 때 {text!r}: 오늘({today.isoformat()}) 뒤입니다",
                f"occurred {text!r} is after today ({today.isoformat()})",
            )
        )
    return text


def check_terms(taxonomy: Taxonomy, dimension: str, terms: list[str]) -> list[str]:
    """Known, current term ids of `dimension`, sorted and without repeats. A term may be
    given by its label or an alias where that name is one term's alone (`용량 한계`,
    `GPU`), as `curator fix` writes such a facet: the draft has its id."""
    ids = []
    for given in terms:
        term_id = taxonomy.named_term(dimension, given)
        term = taxonomy.term(dimension, term_id) if term_id else None
        if term is None:
            raise _no_term(taxonomy, dimension, given)
        if term.deprecated is not None:
            raise _deprecated(taxonomy, dimension, given, term)
        ids.append(term.id)
    return sorted(set(ids))


def _no_term(taxonomy: Taxonomy, dimension: str, given: str) -> DraftError:
    """Why `given` names no term of `dimension`: its definition is broken (said once,
    with the first of its own errors where it is, not the taxonomy's first), no term of
    the dimension could be read, or it is none, with where the dimension's file is broken
    if it is."""
    name = _DIMENSION_NAMES[dimension]
    broken = taxonomy.broken_term(dimension, given)
    if broken is not None:
        said = f"{given!r} is" if broken == given else f"{given!r} names {broken!r},"
        problem = taxonomy.why_broken(dimension, broken)
        return TaxonomyError(
            bilingual(
                f"{given!r}: 정의가 깨진 {name} 용어입니다. 정의를 고치거나 다른 용어를 쓰세요",
                f"{said} a term of {dimension} whose definition is broken: {problem}; mend "
                "it there, or give another term",
            )
        )
    unread = taxonomy.unread(dimension) and taxonomy.file_problem(dimension)
    if unread:
        return TaxonomyError(
            bilingual(
                f"분류 체계가 깨져 {name} 용어를 확인할 수 없습니다: `curator lint` 를 보세요",
                f"no term of {dimension} can be checked, as the taxonomy is broken: {unread}; "
                "see `curator lint`",
            )
        )
    message = taxonomy.not_a_term(dimension, given)
    korean = f"{given!r}: {name} 용어가 아닙니다" + _where_else(taxonomy, dimension, given)
    problem = taxonomy.file_problem(dimension)  # (another file's cannot hide this one's terms)
    if problem:
        return TaxonomyError(
            bilingual(
                f"{korean}. 그런데 {name} 파일이 깨졌습니다: `curator lint` 를 보세요",
                f"{message}; but its file is broken: {problem}; see `curator lint`",
            )
        )
    return DraftError(bilingual(korean, message))


def _where_else(taxonomy: Taxonomy, dimension: str, given: str) -> str:
    """In Korean, what `Taxonomy.not_a_term` says after "is not a term of": the dimension
    that has `given`, or the terms it may be a misspelling of (lint's IL301 says it in
    English alone, and its message stays as it is)."""
    home = taxonomy.dimension_of(given)
    if home:
        return f". {_DIMENSION_NAMES[home]} 용어입니다"
    hint = taxonomy.did_you_mean(dimension, given)
    return f". 혹시 {' 또는 '.join(map(repr, hint))} 인가요?" if hint else ""


def _deprecated(taxonomy: Taxonomy, dimension: str, given: str, term: Term) -> DraftError:
    """`given` names deprecated `term`: what to give instead; or, when the taxonomy
    names no current replacement (IL303), where its definition is."""
    named = "" if given == term.id else f" (the term {term.id!r})"
    replacement = taxonomy.replacement(dimension, term.id)
    if replacement is not None:
        return DraftError(
            bilingual(
                f"{given!r}: 더는 쓰지 않는 용어입니다. 대신 쓸 용어: {replacement!r}",
                f"{given!r}{named} is deprecated; {taxonomy.use_instead(dimension, term.id)}",
            )
        )
    replaced_by = term.deprecated.replaced_by if term.deprecated else ""
    problem = (
        f"{replaced_by!r} is deprecated too"
        if taxonomy.term(dimension, replaced_by)
        else taxonomy.not_a_term(dimension, replaced_by)
    )
    return TaxonomyError(
        bilingual(
            f"{given!r}: 더는 쓰지 않는 용어이고, 정의가 대신 쓸 현재 용어를 대지 않습니다. "
            "현재 용어를 쓰세요",
            f"{given!r}{named} is deprecated, and its definition, at "
            f"{taxonomy.where(dimension, term.id)}, names no current replacement: {problem}; "
            "give a current term",
        )
    )


def split_list(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


# Guessing what was not given ------------------------------------------------------------


# In Korean, where `suggest_terms` finds the words that name a term.
_KOREAN_FIELDS = {"title": "제목의", "source URL": "출처 URL 의"}


def evidence(guess: Hit) -> str:
    """Why `curator new` filled in a term: the words that name it, where, and what they match."""
    return bilingual(
        f"{guess.term} ← {_KOREAN_FIELDS[guess.field]} “{guess.quote}” "
        f"(맞는 이름·별칭: “{guess.alias}”)",
        f"{guess.term} ← “{guess.quote}” in the {guess.field} (matches “{guess.alias}”)",
    )


def suggest_terms(taxonomy: Taxonomy, title: str, url: str) -> dict[str, list[Hit]]:
    """Per dimension, the terms the title or the source URL's path names, as `curator
    search` recognises them (Korean particles and spacing allowed, a negated phrase left
    out, a parent left out beside its child), in the order facets are written. Only a
    starting point: the draft says so, and the contributor checks it."""
    with deferred():  # (numpy comes with it: loaded by this command only, not by every one)
        from curator.similarity.phrases import Matcher

    path = unquote(urlsplit(url).path)  # (a Korean post's address spells its words in %XX)
    hits = Matcher(taxonomy).named([("title", title), ("source URL", path)])
    suggested: dict[str, list[Hit]] = {dimension: [] for dimension in DIMENSIONS}
    for hit in sorted(hits, key=lambda hit: hit.term):
        suggested[hit.dimension].append(hit)
    return suggested


def slug_for(title: str, source_url: str) -> str:
    """Lowercase ASCII words of the title (Korean is not transliterated; a number written
    against a Korean word is left out), each once, else of the source's path or host,
    else a short hash of the title."""
    words = _ascii_words(_KOREAN_MEASURE.sub(" ", title))
    if not words:
        parts = urlsplit(source_url)
        segments = [s for s in parts.path.split("/") if s]
        words = _ascii_words(segments[-1]) if segments else []
        if not words:
            host = (parts.hostname or "").removeprefix("www.")
            words = _ascii_words(host.rsplit(".", 1)[0])
    if not words:
        return hashlib.sha256(title.encode("utf-8")).hexdigest()[:8]
    # A word once: a Korean title names its few English ones again (`GPU … GPU 가 …`).
    words = list(dict.fromkeys(words))
    return "-".join(words[:_SLUG_WORDS])[:_SLUG_LENGTH].rstrip("-")


def _ascii_words(text: str) -> list[str]:
    ascii_text = normalized("NFKD", text).encode("ascii", "ignore").decode()
    return re.findall(r"[a-z0-9]+", ascii_text.lower())


def placeholder_for(library: Library, slug: str) -> str:
    """`IL-NEW-<slug>`, with `-2`, `-3`, ... if an entry of incidents/ already has that
    name (a link pointing nowhere too: the draft is never written through it), whatever
    its extension or case: `assign-ids` takes `IL-NEW-x.yml` for the placeholder IL-NEW-x
    as well, and refuses two files of one id; and a file system that ignores case (macOS,
    Windows) cannot hold `IL-NEW-X.yaml` and `IL-NEW-x.yaml` side by side."""
    taken = {Path(name).stem.casefold() for name in library.incident_names()}
    candidate, number = f"IL-NEW-{slug}", 1
    while candidate.casefold() in taken:
        number += 1
        candidate = f"IL-NEW-{slug}-{number}"
    return candidate


# Asking for what is missing ------------------------------------------------------------

# (question, default answer, check) → the answer; the check raises DraftError to ask again.
Ask = Callable[[str, str, Callable[[str], object]], str]
_QUESTIONS = {
    "causes": "원인 causes (용어 id, 쉼표로 구분)",
    "components": "구성 요소 components (용어 id, 쉼표로 구분)",
    "symptoms": "증상 symptoms (용어 id, 쉼표로 구분)",
    "contributing_factors": "기여 요인 contributing_factors (용어 id, 쉼표로 구분, 없으면 빈칸)",
}
_KOREAN_OPTIONS = {"--title": "제목", "--source": "출처 URL"}
_OPTIONS = {
    "causes": "--cause",
    "components": "--component",
    "symptoms": "--symptom",
    "contributing_factors": "--factor",
}


@dataclass
class Given:
    """What the command line said; None or empty where it said nothing."""

    title: str | None = None
    source_url: str | None = None
    source_title: str | None = None
    organizations: list[str] = field(default_factory=list)
    occurred: str | None = None
    status: str = "draft"
    facets: dict[str, list[str]] = field(default_factory=dict)


def gather(taxonomy: Taxonomy, given: Given, ask: Ask | None) -> Draft:
    """A checked draft from the options, asking (when `ask` is given) for what is missing.
    Facets not given are suggested from the title and the source URL's path; without `ask`
    a required dimension that has neither is an error naming the option to use. Every
    problem the options have is said in one error, a line each, in the order of the
    options in `--help`, before anything is asked (the answers would be lost); an answer
    is checked as it is given, and asked again until it passes."""
    problems = _Problems()
    title = _given(problems, given.title, "--title", check_title, ask)
    url = _given(problems, given.source_url, "--source", check_source_url, ask)
    if given.source_title is not None:
        problems.check(_source_title, given.source_title)
    written = [o for o in given.organizations if o.strip()]
    checked = [problems.check(one_line, "an organization", o) for o in written]
    organizations = [organization for organization in checked if organization]
    occurred = problems.check(check_occurred, given.occurred or "")
    # Guessed only from a title and a source URL both usable: what either would name is
    # not known otherwise, nor whether a dimension is left without a term. (Asking, once
    # they are asked for.)
    known = ask is None and title is not None and url is not None
    suggested = suggest_terms(taxonomy, title or "", url or "") if known else {}
    facets: dict[str, list[str]] = {}
    guessed: list[Hit] = []
    for dimension in DIMENSIONS:
        named = given.facets.get(dimension)
        if named:
            # Every term as it is given, as one term, then as a term of the dimension.
            single = [t for t in named if problems.check(_one_each, dimension, [t])]
            found = [problems.check(check_terms, taxonomy, dimension, [t]) for t in single]
            facets[dimension] = sorted({term for terms in found for term in terms or ()})
        elif known:
            required = dimension in REQUIRED_DIMENSIONS
            facets[dimension] = [g.term for g in suggested[dimension]] if required else []
            guessed += [g for g in suggested[dimension] if g.term in facets[dimension]]
            if not facets[dimension] and required:
                problems.add(DraftError(_none_guessed(taxonomy, dimension)))
    problems.raise_any()
    source_title = given.source_title
    typed = (given.title or "", given.organizations)  # as given or answered
    if ask is not None:
        if title is None:
            typed = (ask("제목 title", "", check_title), typed[1])
            title = check_title(typed[0])
        url = url or check_source_url(ask("출처 URL source", "", check_source_url))
        if source_title is None:
            source_title = ask("출처 글의 제목 source title (모르면 빈칸)", "", _source_title)
        if not given.organizations:
            question = "조직 organizations (쉼표로 구분, 없으면 빈칸)"
            typed = (typed[0], split_list(ask(question, "", _organizations)))
            organizations = [one_line("an organization", o) for o in typed[1]]
        if given.occurred is None:
            question = "일어난 때 occurred: YYYY[-MM[-DD]] (모르면 빈칸)"
            occurred = check_occurred(ask(question, "", check_occurred))
        suggested = suggest_terms(taxonomy, title, url)
        for dimension in DIMENSIONS:
            if not given.facets.get(dimension):
                facets[dimension] = _asked_terms(taxonomy, dimension, suggested, ask)
    assert title is not None and url is not None  # (else a problem was raised)
    said = [respaced("the title", typed[0])]
    said += [respaced("an organization", organization) for organization in typed[1]]
    said += [respaced("the source title", source_title or ""), tidied(url)]
    return Draft(
        title,
        url,
        _source_title(source_title or "") or None,
        organizations,
        occurred,
        given.status,
        facets,
        guessed,
        [note for note in said if note],
    )


class _Problems:
    """The problems of the options given: kept to be said at once, so that one run says
    them all."""

    def __init__(self) -> None:
        self.found: list[DraftError] = []

    def check(self, check: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T | None:
        """`check(*args)`, or None for a problem kept."""
        try:
            return check(*args, **kwargs)
        except DraftError as problem:
            self.add(problem)
            return None

    def add(self, problem: DraftError) -> None:
        self.found.append(problem)

    def raise_any(self) -> None:
        """One error for every problem found, a line each (a line said twice, once): a
        TaxonomyError when each is the taxonomy's to mend, not a usage's."""
        if len(self.found) == 1:
            raise self.found[0]
        if self.found:
            lines = "\n".join(dict.fromkeys(str(problem) for problem in self.found))
            taxonomy = all(isinstance(problem, TaxonomyError) for problem in self.found)
            raise (TaxonomyError if taxonomy else DraftError)(lines)


def _none_guessed(taxonomy: Taxonomy, dimension: str) -> str:
    """That no term of `dimension` was guessed; and where the taxonomy itself is broken, if
    it is: then a term may be missing only because its file could not be read, and the
    file is what to fix."""
    option = _OPTIONS[dimension]
    korean = (
        f"제목과 출처 URL 에서 {_DIMENSION_NAMES[dimension]} 용어를 찾지 못했습니다: "
        f"{option} TERM 으로 주세요(용어는 schema/taxonomy/{dimension}.yaml 에 있습니다)"
    )
    english = (
        f"no {dimension} term could be guessed from the title or the source URL; give "
        f"{option} TERM (the terms are in schema/taxonomy/{dimension}.yaml)"
    )
    problem = taxonomy.first_problem()
    if problem:
        korean += ". 그런데 분류 체계가 깨졌습니다: `curator lint` 를 보세요"
        english += f"; but the taxonomy is broken: {problem}; see `curator lint`"
    return bilingual(korean, english)


def _given(
    problems: _Problems,
    value: str | None,
    option: str,
    check: Callable[[str], str],
    ask: Ask | None,
) -> str | None:
    """`value` given, as `check` makes it; None for a problem kept, or for a value not
    given (a problem too when nobody is asked for it)."""
    if value is None:
        if ask is None:
            korean = f"{_KOREAN_OPTIONS[option]} {option} 값이 필요합니다"
            needed = "is needed (or run `curator new` in a terminal to be asked)"
            problems.add(
                DraftError(
                    bilingual(
                        f"{korean}: 터미널에서 `curator new` 를 실행하면 물어봅니다",
                        f"{option} {needed}",
                    )
                )
            )
        return None
    return problems.check(check, value)


def _organizations(text: str) -> list[str]:
    """The organizations of an answer, a comma between two, each as `one_line` makes it."""
    return [one_line("an organization", organization) for organization in split_list(text)]


def _asked_terms(
    taxonomy: Taxonomy, dimension: str, suggested: dict[str, list[Hit]], ask: Ask
) -> list[str]:
    """The terms of `dimension` answered, the suggested ones offered as the default."""

    def check(text: str) -> list[str]:
        terms = check_terms(taxonomy, dimension, split_list(text))
        if not terms and dimension in REQUIRED_DIMENSIONS:
            raise DraftError(
                bilingual(
                    f"{_DIMENSION_NAMES[dimension]} 용어가 하나 이상 있어야 합니다(용어는 "
                    f"schema/taxonomy/{dimension}.yaml 에 있습니다)",
                    f"{dimension} needs at least one term (the terms are in "
                    f"schema/taxonomy/{dimension}.yaml)",
                )
            )
        return terms

    question = _QUESTIONS[dimension] + "".join(
        f"\n  제안 suggested: {evidence(guess)}" for guess in suggested[dimension]
    )
    default = ", ".join(guess.term for guess in suggested[dimension])
    return check(ask(question, default, check))


def _one_each(dimension: str, terms: list[str]) -> list[str]:
    """`terms` as given, each one term: `--cause a,b`, written as the prompt takes terms,
    would be offered `a` alone as the term meant, and `b` lost."""
    for term in terms:
        several = split_list(term)
        if len(several) > 1:
            option = _OPTIONS[dimension]
            repeated = " ".join(f"{option} {one}" for one in several)
            raise DraftError(
                bilingual(
                    f"{term!r}: 용어 {len(several)}개입니다. 용어마다 {option} 하나씩 "
                    f"주세요: {repeated}",
                    f"{term!r} is {len(several)} terms: give each its own {option} ({repeated})",
                )
            )
    return terms


# Writing --------------------------------------------------------------------------------


def render_draft(incident_id: str, draft: Draft) -> str:
    """The new file's text: every field, each with a Korean hint; canonical and in NFC."""
    org_lines = [f"  - {_scalar(org)}" for org in draft.organizations]
    occurred = (
        f"occurred: {_scalar(draft.occurred)}  # 일어난 때: YYYY, YYYY-MM 또는 YYYY-MM-DD"
        if draft.occurred
        else "# occurred: 2024-05  # 일어난 때: YYYY, YYYY-MM 또는 YYYY-MM-DD (모르면 비워 둠)"
    )
    source_url = source_url_form.tidy(draft.source_url)
    source_title = draft.source_title or source_url
    lines = [
        "# 새 사건 초안. 출처(공개된 글)에 적힌 사실만 쓰세요:"
        " 숫자·날짜·원인·조치·교훈을 지어내지 않습니다.",
        "# 쓰는 법: CONTRIBUTING.md · 검사: curator lint · 정리: curator fix, curator fmt",
        f"id: {incident_id}  # 임시 id. 병합 뒤 봇이 번호를 매깁니다 (curator assign-ids).",
        f"title: {_scalar(draft.title)}  # 한 줄: 무엇이, 어디서, 어떤 결과로",
        f"status: {draft.status}  # draft(초안) → 서술 다섯 항목을 모두 채우면 published",
        occurred,
        "organizations:"
        + ("  # 시스템의 주인이나 보고한 조직" if org_lines else " []  # 익명이면 []"),
        *org_lines,
        "facets:  # 분류: schema/taxonomy/*.yaml 의 용어 id. 미리 채운 값은 제안이니 확인하세요.",
        *_facet_lines(draft.facets),
        "symptom:  # 증상: 무엇이 보였나. 여러 줄은 `symptom: |` 아래에 두 칸 들여 씁니다.",
        "trigger:  # 촉발: 무엇이 일을 일으켰나",
        "detection:  # 감지: 어떻게 알아챘나 (출처에 없으면 비워 둠)",
        "actions:  # 조치: 한 일을 한 줄에 하나씩 `  - ...` 로",
        "follow_ups:  # 후속 조치: 나중에 한 일 (없으면 비워 둠)",
        "lessons:  # 교훈: 출처가 말한 교훈 (없으면 비워 둠)",
        "sources:  # 출처: 원문 글 (그 글을 모아 둔 목록이 아니라)",
        f"  - url: {_scalar(source_url)}",
        # Above `title`, not below it: a comment after a list's last key is written
        # above the next key of the file, at its indentation, where `publisher:` taken
        # out of its comment would be a key of the incident.
        "    # publisher: 펴낸 곳",
        "    # published: 2024-05-01  # 펴낸 날",
        "    # language: en  # 원문 언어: en, ko, ...",
        f"    title: {_scalar(source_title)}  # "
        + ("원문 제목 그대로" if draft.source_title else "지금은 URL: 원문 제목으로 바꾸세요"),
        "related: []  # 함께 읽을 사건 id, 예: [IL-0137]",
        "not_duplicate_of: []  # 봇이 중복 후보로 짚었지만 다른 사건인 id",
        "# status: withdrawn 일 때만 (같은 사건이 이미 있을 때):",
        "# duplicate_of: IL-0137  # 이 사건과 같은 사건의 id",
        "# withdrawn_reason: |  # 철회한 까닭",
        "#   ...",
    ]
    # Korean typed or pasted on macOS may come as separate jamo: written composed (IL605).
    return render(composed("\n".join(lines) + "\n").encode("utf-8"))


def _facet_lines(facets: dict[str, list[str]]) -> list[str]:
    hints = {
        "causes": "원인 (1개 이상)",
        "components": "관련 구성 요소 (1개 이상)",
        "symptoms": "드러난 증상 (1개 이상)",
        "contributing_factors": "기여 요인 (없으면 [])",
    }
    lines: list[str] = []
    for dimension in DIMENSIONS:
        terms = facets.get(dimension, [])
        if terms:
            lines.append(f"  {dimension}:  # {hints[dimension]}")
            lines += [f"    - {term}" for term in terms]
        else:
            lines.append(f"  {dimension}: []  # {hints[dimension]}")
    return lines


_PLAIN = re.compile(r"[^\s\-?:,\[\]{}#&*!|>'\"%@`][^\n]*")
_NOT_PLAIN = re.compile(r": | #|[\x00-\x1f\x7f]")
# What YAML 1.2 (and 1.1) tools read as a number, a boolean or null when plain: curator
# reads every scalar as text, but editors and schema checkers given schema/ do not (a bare
# `occurred: 2024` is a number to them, which the schema refuses).
_TYPED = re.compile(
    r"[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|~|null|Null|NULL"
    r"|(?:true|True|TRUE|false|False|FALSE|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF)"
)


def _scalar(text: str) -> str:
    """`text` as one YAML scalar that every YAML tool reads as this text: plain when safe,
    else double-quoted (JSON's quoting is valid YAML and keeps Korean as it is)."""
    plain = (
        _PLAIN.fullmatch(text)
        and not _NOT_PLAIN.search(text)
        and not text.endswith((" ", ":"))
        and not _TYPED.fullmatch(text)
    )
    return text if plain else json.dumps(text, ensure_ascii=False)


def write_draft(library: Library, draft: Draft) -> Path:
    """Write the draft as `incidents/IL-NEW-<slug>.yaml`; never overwrites a file."""
    incident_id = placeholder_for(library, slug_for(draft.title, draft.source_url))
    path = library.incident_path(incident_id)
    write_atomic(path, render_draft(incident_id, draft).encode("utf-8"), exclusive=True)
    return path


# Telling the author what happened ---------------------------------------------------------
# (The command prints these around the draft; in Korean first, as its questions ask.)


def unanswered() -> str:
    return bilingual(
        "모든 질문에 답하지 않아 아무것도 쓰지 않았습니다",
        "not every question was answered; nothing written",
    )


# In Korean, why the system would not write the draft, or read a file of the library: what
# a folder allows, a full disk, a name too long.
_KOREAN_REFUSALS = {
    errno.EACCES: "권한이 없습니다",
    errno.EPERM: "권한이 없습니다",
    errno.EROFS: "읽기 전용 파일 시스템입니다",
    errno.ENOSPC: "디스크에 남은 공간이 없습니다",
    errno.EDQUOT: "디스크 사용량 한도(quota)를 넘었습니다",
    errno.ENAMETOOLONG: "파일 이름이나 경로가 너무 깁니다",
}


def _refused(korean: str, refused: OSError) -> str:
    """`korean`, and why the system refused in Korean where there are words for it; else
    `korean` alone, the system's reason following in English (`bilingual`), not in it."""
    why = _KOREAN_REFUSALS.get(refused.errno or 0)
    return f"{korean}: {why}" if why else korean


def not_written(folder: str, refused: OSError) -> str:
    reason = refused.strerror or str(refused)
    return bilingual(
        _refused(f"초안을 {folder} 에 쓸 수 없습니다", refused),
        f"cannot write the draft in {folder}: {reason}",
    )


# In Korean, why lint does not read a file as a YAML mapping, by the code it reports it
# under: the loader's first problem (`curator.similarity.commands._stopped`), or a list or
# a text where the mapping should be. (A key given twice keeps no file out.)
_KOREAN_REASONS = {
    yaml_syntax.RULE.code: "YAML 문법 오류가 있습니다",
    no_tabs.RULE.code: "YAML 이 공백만 받는 자리에 탭이 있습니다",
    encoding.RULE.code: "UTF-8 로 저장된 파일이 아닙니다",
    file_too_large.RULE.code: f"파일이 {MAX_BYTES:,} 바이트보다 큽니다",
    forbidden_construct.RULE.code: (
        "태그, 앵커, 별칭처럼 사건 파일에 쓰지 않는 YAML 구문이 있습니다"
    ),
    empty_file.RULE.code: "YAML 문서가 없습니다",
    schema.RULE.code: "키와 값의 매핑이 아닙니다",
}


def left_out(shown: str, why: str, code: str, refused: OSError | None) -> str:
    """A file of the library that could not be read (`refused`), or not as an incident
    (`why`, lint's reason, and `code`, its rule), which the look for the same event went
    without: why in Korean too, where there are words for it."""
    if refused is None:
        korean = f"{shown} 은 사건으로 읽을 수 없어 같은 사건 찾기에서 빠졌습니다"
        reason = _KOREAN_REASONS.get(code)
        korean = f"{korean}: {reason}" if reason else korean
    else:
        korean = _refused(f"{shown} 은 읽을 수 없어 같은 사건 찾기에서 빠졌습니다", refused)
    return bilingual(korean, f"{shown} is left out of the look for the same event: {why} ({code})")


def more_left_out(more: int) -> str:
    """How many more files of the library `left_out` would have named."""
    files = f"{more} more files of the library are" if more > 1 else "1 more file of the library is"
    return bilingual(
        f"그 밖에 파일 {more}개를 사건으로 읽을 수 없어 같은 사건 찾기에서 빠졌습니다",
        f"{files} left out of the look for the same event, not read as an incident; "
        "`curator lint` names each",
    )


def facets_guessed() -> str:
    return bilingual(
        "제목과 출처 URL 에서 분류를 채웠습니다. 하나씩 확인하세요",
        "facets filled in from the title and the source URL; check each",
    )


def next_steps(draft: str) -> str:
    commands = f"`curator fix {draft}`, `curator fmt {draft}`"
    return bilingual(
        "다음: 출처를 보고 채운 뒤 `curator fix`, `curator fmt`, `curator lint` 를 실행하세요",
        f"next: fill it in from the source, then {commands} and `curator lint {draft}`",
    )


def no_library(exc: NotALibrary) -> str:
    """No library where one was looked for: the root given, or from here upward."""
    if exc.upward:
        korean = (
            f"{exc.folder} 에도 그 위 폴더에도 라이브러리가 없습니다. 라이브러리는 incidents/ 와 "
            "schema/ 가 있는 폴더입니다. --root PATH 로 지정하세요"
        )
    else:
        korean = (
            f"{exc.folder} 폴더는 라이브러리가 아닙니다: incidents/ 와 schema/ 폴더가 있어야 합니다"
        )
    return bilingual(korean, str(exc))


def root_refused(root: str, is_file: bool, english: str) -> str:
    """`--root` given a file, or a folder that cannot be read; `english`, click's message."""
    if is_file:
        korean = (
            f"--root {root} 은 파일입니다: 라이브러리 폴더(incidents/ 와 schema/ 가 있는 "
            "폴더)를 주세요"
        )
    else:
        korean = f"--root {root} 폴더를 읽을 권한이 없습니다"
    return bilingual(korean, english)


def looking(done: int, total: int, rate: float) -> str:
    """The progress line while the library is searched for the same event: `done` of
    `total` files, `rate` a second."""
    return bilingual(
        f"같은 사건을 찾는 중 파일 {done:,}/{total:,}개, 초당 {rate:,.0f}개",
        counted("looking for the same event", done, total, rate),
    )


def look_stopped(draft: str) -> str:
    return bilingual(
        f"{draft} 은 썼습니다. 같은 사건 찾기는 멈췄습니다: `curator similar {draft}` 로 "
        "다시 찾습니다",
        f"{draft} is written; the look for the same event was stopped "
        f"(`curator similar {draft}` looks again)",
    )


def may_be_known() -> str:
    return bilingual(
        "이 사건이 이미 있을 수 있습니다. 같은 사건이면 그 사건을 고치고, 아니면 아래 id 를 "
        "not_duplicate_of 에 적으세요",
        "the library may already hold this event; if it does, correct that incident "
        "instead, and if not, list it in not_duplicate_of",
    )


# click's own usage errors, said in Korean first too; `english` is click's message.


def unknown_option(option: str, near: list[str], english: str) -> str:
    """`option` is none of new's; `near`, the options it may be a misspelling of."""
    hint = f". 혹시 {' 또는 '.join(near)} 인가요?" if near else ""
    return bilingual(f"{option} 옵션은 없습니다{hint}", english)


def value_missing(option: str, english: str) -> str:
    return bilingual(f"{option} 옵션의 값이 없습니다", english)


def value_not_taken(option: str, english: str) -> str:
    return bilingual(f"{option} 옵션은 값을 받지 않습니다", english)


def bad_value(option: str, choices: list[str], english: str) -> str:
    """A value `option` cannot take: it takes one of `choices`."""
    return bilingual(f"{option} 값은 {', '.join(choices)} 가운데 하나입니다", english)


def not_an_option(english: str) -> str:
    """Words given without an option before them (`curator new 제목`)."""
    return bilingual(
        "옵션 없이 준 값이 있습니다. 값마다 --title 처럼 옵션을 앞에 붙이세요", english
    )
