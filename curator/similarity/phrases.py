"""Find taxonomy terms in text by their labels and aliases, in Korean and English.

An alias matches when its words appear in order in the text's tokens (text.tokens), where
- a Korean alias word matches a text word that *starts* with it, so particles and endings
  attached to the text word do not matter (처리량 → 처리량이, 처리량은), unless the text
  word goes on into a longer noun of the taxonomy's phrases (인증서를 is no 인증: `_shadowed`);
- a Korean alias word that is a verb (…다) or a noun made from one (`_VERB_NOUNS`: 멈춤,
  끊김) matches up to the first consonant of its last syllable, because Korean contracts
  that syllable with the ending (멈춤 → 멈췄다, 떨어지다 → 떨어졌다), where that syllable is one an
  ending makes (`_CONTRACTED`, `_ENDING_FINALS`): 멈칫 is no 멈춤;
- a Korean alias word of one syllable matches only a text word that ends after it or goes
  on with a verb ending (`_ENDING_STARTS`) or a particle that may follow its last sound
  (`text.particle_after`): 배포가 막 matches 배포가 막혔다, not 배포가 막바지에, and 다시 붙 not
  다시 붙였다;
- English words match after light stemming and case folding (flapping → flap);
- up to `GAP` unrelated words may stand between two alias words (학습이 갑자기 멈췄다,
  인증서가 2019년 5월 4일 만료되어), but no sentence end: a match lies within one sentence
  (a line, or text up to ". ", "? ", "! "), and one clause (up to ", ", "; ", ": ",
  unless the alias holds the mark: `_CLAUSE_MARK`); and it lies either within one parenthesis or
  outside it: the words in brackets are an aside, skipped (서비스 거부(DDoS) 공격) but
  never joined to the words around them (ingress-controller 의 PR 20)을 manager is no
  controller-manager); nor past a word of it made a verb that closes its clause
  (변경을 배포하자 고객 결제가 실패하기 is no 배포 실패), nor from a word of it with a case
  particle to a noun of it with another, or bare before a comma, an item of a list
  (메타데이터가 엣지 사이트 서버에 is no 메타데이터 서버, 복구를 줄이도록 절차, 도구 no 복구
  절차: two roles in the sentence), unless a verb ending in 는 or 던 stands before the
  noun (옛 기능을 켜던 플래그를 is 기능 플래그), or the noun is what the subject or the
  topic failed at (이름이 해석에 실패했다, 이름은 해석에 실패했다, 이름도 해석에 실패했다: 이름
  해석 실패); nor to a
  last word that is a verb in a form joined by 고 or 고서 to the next verb, after a word of
  it with the object particle 을 or 를, a step someone took (학습을 멈추고 노드를 교체했다
  is no 학습 멈춤, 배포를 막고 no 배포가 막), unless the phrase writes that word with 을 or
  를 too (데이터를 잃); and two words an alias joins by a hyphen stand side by side, joined
  by one or by spaces (kube-apiserver, kube apiserver; not kube-system 네임스페이스의
  extension-apiserver); and none goes past a word of success (DNS 해석에 성공했지만 연결에
  실패했다 is no DNS 해석 실패);
- spacing may differ: "처리량저하" matches 처리량 저하, and a word of an alias may be written
  apart, once, between two of its syllables (`_apart`): "네임 서버" matches 네임서버, "타임
  아웃 증가" matches 타임아웃 증가; and a word of an alias may be glued to the word before
  it, straight after it or after a particle (`_glued`): "걸러내지" matches 걸러 내지,
  "검증을건너뛰었다" matches 검증을 건너뛰, "데이터를잃었다" 데이터를 잃.
A match that is negated is no match: in Korean by what directly follows it (데이터를 잃지
않았다, 복구하지 못했다, 손실은 없었다, 손실 없이, OOM 은 없었다, OOM은없었다), in English by
what directly precedes it (no data loss, without any data loss, never lost data).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from curator.model import DIMENSIONS, Term
from curator.similarity.text import (
    OWN_ENDINGS,
    PARTICLES,
    normalise,
    particle_after,
    strip_particle,
    token_spans,
    words,
)
from curator.taxonomy import Taxonomy

_FIRST, _LAST = 0xAC00, 0xD7A3
_FIRST_SYLLABLE, _LAST_SYLLABLE = chr(_FIRST), chr(_LAST)
_SYLLABLES_PER_INITIAL = 588  # 21 vowels × 28 finals
_FINAL_M = 16  # index of ㅁ among the final consonants
# How an ending changes a verb stem's last syllable (`Word.loose`): its vowel contracts with
# 아/어 (추 → 춰, 오 → 와, 지 → 져, 쓰 → 써, 하 → 해, 되 → 돼; by index among the 21 vowels,
# each way, as an alias may give the contracted form: 끊겼다 → 끊긴), and it takes the final
# of an ending (ㄴ ㄹ ㅁ ㅂ ㅆ: 멈춘, 멈출, 멈춤, 멈춥니다, 멈췄다) or keeps its own.
# Nothing else: 멈칫 (멈 + 칫) is no form of 멈추다.
_CONTRACTED = {(8, 9), (13, 14), (20, 6), (18, 4), (0, 1), (11, 10)}
_CONTRACTED |= {(b, a) for a, b in _CONTRACTED}
_ENDING_FINALS = frozenset({0, 4, 8, 16, 17, 20})
# Korean negates after the word it governs: the rest of the matched word, then the next word.
_KO_PARTICLE = re.compile(r"(?:[은는이가도을를]|조차|마저)?")
_KO_NONE = r"없(?:었|이|는|다|고|음)"  # there was none; not 없애다 (to remove)
_KO_NEGATED_REST = re.compile(rf"(?:[은는이가도]|조차)?{_KO_NONE}|.*지[는도]?(?:않|못)")
_KO_BEFORE_NEGATION = re.compile(r".*지[는도]?")  # 잃지 | 않았다, 멈추지는 | 않았다
_EN_NEGATION = re.compile(r"(?:\b(?:not|no|never|without)|n't)\s+(?:(?:a|an|the|any)\s+)?\Z", re.I)
_FEW = 16  # alias words beginning with one syllable that Node.matching compares one by one
_CONTEXT = 200  # characters looked at for the word before a match, and for an English negation
# The fewest syllables before the space of an alias word written apart, and after it unless
# the next word holds nothing else but a particle (see `_apart`).
_SHORTEST_PART = 2
_PARTICLE_OR_NOTHING = PARTICLES | {""}
_LONGEST_PARTICLE = max(map(len, PARTICLES))
# What ends a sentence between two words: a line break, or a full stop, question or
# exclamation mark (closing quotes and brackets after it) before a space. A point inside
# a word (1.1.1.1, slack.com) ends nothing.
_SENTENCE_END = re.compile(r"\n|[.!?。！？…][\"'”’)\]]*\s")
# What ends a clause too: a comma, semicolon or colon before a space, or a full-width one
# (백본이 꺼졌겠지만, 네트워크는 is no 백본 네트워크), unless the phrase holds it there itself. One
# inside a word ends nothing (13,500, XLA:TPU, 14:10), nor does ·, which lists nouns that
# share the next word (관리·제어 평면 is 관리 평면 and 제어 평면).
_CLAUSE_MARK = re.compile(r"[,;:][\"'”’)\]]*\s|[，；：、]")
_HYPHENS = frozenset("-‐‑–")  # (hyphen-minus, hyphen, non-breaking hyphen, en dash)
# A comma after a word, straight after it or apart (절차, 도구; 절차 , 도구): what lists it
# with the next.
_LIST_COMMA = re.compile(r"\s*[,，、]")
# How many words (apart in the text: 2019년 is one) may stand between two words of a phrase.
GAP = 3
_SPACE = re.compile(r"\s")
_OPEN, _CLOSE = "(（", ")）"
_LISTING = ("와", "과")
# A noun of a phrase made a verb that closes its clause (배포하자, 시작됐고, 변경했지만):
# what follows is another clause, no part of the phrase (변경을 배포하자 고객 결제가 실패하기
# is no 배포 실패). Not 며 or 면서, which go on with the same doing (학습하면서 … 중단을).
_CLAUSE_CLOSED = re.compile(r"[하되해돼했됐](?:였|었|어)?(?:고|자|지만|는데|으나|니|서)")
# A word of a phrase that goes on with a case particle has its own role in the sentence; a
# later noun of the phrase that goes on with a particle too has another, and the two are no
# compound (메타데이터가 엣지 사이트 서버에 is no 메타데이터 서버). 의 joins two nouns; 은, 는
# and 을 also end verbs (잃은, 돌려주는, 죽을), which a phrase's noun may be made.
_CASE_PARTICLES = PARTICLES - {"의"}
_ROLES = PARTICLES - {"은", "는", "을"}
# The subject particle, or the topic's, which before X에 실패했다 marks what failed too
# (이름은 해석에 실패했다), or an auxiliary one that stands in its place, also, only or even
# (이름도 해석에 실패했다, 이름만, 이름조차, 이름마저).
_SUBJECT = ("이", "가", "은", "는", "도", "만", "조차", "마저")
# What a subject failed at, X에 실패하다, is the failure's, no role of its own (see
# `_another_role`).
_FAILED = "실패"
_SUCCESS = "성공"  # what no later word of a phrase goes past (see `_succeeded`)
_HEADED = ("는", "던")  # a verb's ending before the noun its clause describes (켜던 플래그)
_OBJECT = ("을", "를")  # the object particle
_THEN = ("고", "고서")  # a verb's ending that joins it to the next (멈추고 교체했다)
# The nouns of a symptom's phrases that, made a verb by 하다 after their object, tell of a
# halt someone made (학습을 중단하고): a fault 중단시키다. Not 노출, 유실, 탈취, 축출, 종료, whose
# verb is as often what befell the thing (데이터를 유실하고, 프로세스를 종료하고 OOM killer).
_HALTS = ("중단", "정지")
_MADE_THEN = re.compile(r"(?:하|했|하였)고서?")
# What may follow a one-syllable alias word in a text word (`Word.lone`): the first syllable
# of a verb ending (막았다, 잃은, 늘고, 없으면, 않도록), or the verb's own last syllable in any
# form: 막히다 (히 혀 혔 힌 힐 힘), 멈추다 and 늦추다 (추 춰 췄 춘 출 춤), 빠지다 (지 져 졌 진
# 질 짐), 못하다 (하 한 했 해 할 함). Not a syllable that starts another word: 막바지, 늘상,
# 멈칫, 때문, 후속, nor one that makes another verb: 없애다, 붙이다, 늘리다.
_ENDING_STARTS = words(
    "아 어 았 었 고 는 은 을 던 다 지 게 기 음 으 도 거 자 면 며 습 "
    "히 혀 혔 힌 힐 힘 추 춰 췄 춘 출 춤 져 졌 진 질 짐 하 한 했 해 할 함"
)
# What makes a verb of a noun (부팅되지, 복구하지, 배포한): a noun of an alias written with it is
# the noun, no longer noun (see `Node._shadowed`).
_MAKES_VERB = words("하 한 할 함 합 했 해 되 된 될 됨 됩 됐 돼 시 적")
# The nouns of the taxonomy's phrases made from a verb by ㅁ or 음 (끊기다 → 끊김, 없다 →
# 없음), which match the verb's forms as a verb does (연결이 끊겼다 is 연결 끊김). Their
# spelling does not tell them from the nouns that end in ㅁ (결함, 시험, 이름, 시스템: 결합 is no
# 결함, 이른 no 이름), so they are listed; a noun not listed matches itself alone, and a
# term that needs a verb's forms may name the verb in an alias (설정이 어긋나다).
_VERB_NOUNS = words("깨짐 끊김 막힘 멈춤 어긋남 없음 흐름 알림")


def _is_hangul(token: str) -> bool:
    return _FIRST_SYLLABLE <= token[:1] <= _LAST_SYLLABLE  # (none for "")


def _initial(syllable: str) -> int:
    return (ord(syllable) - _FIRST) // _SYLLABLES_PER_INITIAL


def _final(syllable: str) -> int:
    return (ord(syllable) - _FIRST) % 28


def _vowel(syllable: str) -> int:
    return (ord(syllable) - _FIRST) // 28 % 21


def _inflected(stem: str, syllable: str) -> bool:
    """Whether `syllable` may be the last syllable `stem` ends in (see `_CONTRACTED`),
    once its first consonant is the same."""
    vowel, final = _vowel(syllable), _final(syllable)
    return (vowel == _vowel(stem) or (_vowel(stem), vowel) in _CONTRACTED) and (
        final in _ENDING_FINALS or final == _final(stem)
    )


@dataclass(frozen=True)
class Word:
    """One word of an alias and how it may match a word of the text."""

    text: str
    loose: bool  # Korean verb or noun made of one (_VERB_NOUNS): its last syllable may change
    # One Korean syllable, or ending in one (the phrase written together): the text word
    # must end after it or go on with a particle or a verb ending (_ENDING_STARTS), as a
    # lone syllable starts many other words (배포가 막 is no 배포가 막바지에).
    lone: bool = False

    @classmethod
    def of(cls, token: str, last: bool = True) -> Word:
        """The word `token` of an alias, the `last` of it or not: a noun made of a verb
        (`_VERB_NOUNS`) before another word of its alias names a kind of that word (알림
        폭주), which a form of the verb never does (알리는 요청이 폭주했다 is no 알림 폭주),
        so it matches itself alone there."""
        if not _is_hangul(token):
            return cls(token, False)
        if token.endswith("다") and len(token) >= 3 and not token.endswith(OWN_ENDINGS):
            return cls(token[:-1], True)
        stripped = strip_particle(token)
        return cls(stripped, last and stripped in _VERB_NOUNS, len(stripped) == 1)

    @property
    def key(self) -> str:
        """What a text word must begin with to be worth a closer look."""
        return self.text[0] if _is_hangul(self.text) else self.text

    def matches(self, word: str) -> bool:
        if not _is_hangul(self.text):
            return word == self.text
        if word.startswith(self.text):
            rest = word[len(self.text) :]
            return (
                not self.lone
                or not rest
                or rest[0] in _ENDING_STARTS
                or particle_after(rest, self.text[-1])
            )
        if not self.loose or len(word) < len(self.text):
            return False
        head = self.text[:-1]
        last = word[len(head)]
        return (
            word.startswith(head)
            and _is_hangul(last)
            and _initial(last) == _initial(self.text[-1])
            and _inflected(self.text[-1], last)
        )


@dataclass(frozen=True)
class Phrase:
    """A label or alias of a term, as the words to look for."""

    dimension: str
    term: str
    text: str
    words: tuple[Word, ...]
    # The alias gives the word before its last as that word's object (데이터를 잃): see
    # `_done_then`.
    objected: bool = False

    def joined(self) -> Word | None:
        """The phrase written without spaces, when all its words are Korean: its words
        without their particles (데이터를 잃 → 데이터잃), as apart they match a text word with
        any particle or none ("데이터 잃었다"); the phrase with its particle written
        together ("데이터를잃었다") is found by `_glued`."""
        if len(self.words) < 2 or not all(_is_hangul(w.text) for w in self.words):
            return None
        last = self.words[-1]
        return Word("".join(w.text for w in self.words), last.loose, last.lone)


@dataclass(frozen=True)
class Hit:
    dimension: str
    term: str
    alias: str  # the label or alias that matched
    field: str
    quote: str  # the words it matched as they stand in the text, and a word either side


def _inflects(rest: str) -> bool:
    """Whether `rest`, after a noun, is a particle, or may begin an ending or make a verb
    of it: an alias word that holds one (때만, 부팅되지) is the noun it begins with."""
    return rest in PARTICLES or rest[0] in _MAKES_VERB or rest[0] in _ENDING_STARTS


class Node:
    """Phrases that share their first words: the words from the root to here. Its children
    are found by what a text word must begin with, so that a text word is compared only
    with the alias words it can match, however many aliases share its first syllable."""

    def __init__(self, word: Word | None = None, nouns: set[str] | None = None) -> None:
        self.word = word  # the last of the words from the root to here (None at the root)
        # Every Korean noun of the taxonomy's phrases, shared by the tree: a text word that
        # begins with a longer one than a child's is that noun (`_shadowed`).
        self.nouns: set[str] = set() if nouns is None else nouns
        self.phrases: list[tuple[int, Phrase]] = []  # (order of addition, phrase) ending here
        self.listing = False  # a phrase's word here lists it with the next (스테이징과 운영)
        self.marked = False  # a phrase holds a clause mark after its word here (multiple, …)
        # Whether every phrase through here joins its word here to the next by a hyphen
        # (kube-apiserver): the next word must then follow at once (`_Layout.joins`).
        self.hyphened: bool | None = None
        self.children: dict[Word, Node] = {}
        self._by_key: dict[tuple[str, str, int], list[Word]] = {}
        # The Korean words among the children, and their lengths (ascending), by their
        # first syllable: a text word matches only words that begin as it does (a loose
        # word's last syllable may change, and it has two or more).
        self._by_first: dict[str, list[Word]] = {}
        self._lengths: dict[str, list[int]] = {}

    def child(self, word: Word) -> Node:
        if word not in self.children:
            self.children[word] = Node(word, self.nouns)
            for key in _keys(word):
                self._by_key.setdefault(key, []).append(word)
            if _is_hangul(word.text):
                self._by_first.setdefault(word.text[0], []).append(word)
                lengths = self._lengths.setdefault(word.text[0], [])
                self._lengths[word.text[0]] = sorted({*lengths, len(word.text)})
        return self.children[word]

    def may_match(self, word: str) -> bool:
        """Whether a child may match `word`, or a word that begins with it."""
        if _is_hangul(word):
            return word[0] in self._by_first
        return ("=", word, 0) in self._by_key

    def matching(self, word: str, longer_than: int = 0) -> list[Word]:
        """The children whose word matches `word` (Word.matches) and is longer than
        `longer_than`: compared one by one when few begin as `word` does, else looked up by
        each length of a child word (a taxonomy may give thousands one first syllable)."""
        if not _is_hangul(word):
            return self._by_key.get(("=", word, 0), [])
        candidates = self._by_first.get(word[0])
        if candidates is None:
            return []
        if len(candidates) <= _FEW:  # the usual case: comparing them is the cheapest
            found_ = [w for w in candidates if len(w.text) > longer_than and w.matches(word)]
            return [w for w in found_ if not _shadowed(w, word, self.nouns)]
        found: dict[Word, None] = {}
        for length in self._lengths[word[0]]:
            if length > len(word):
                break
            if length > longer_than and _is_hangul(word[length - 1]):
                for key in (
                    ("^", word[:length], 0),
                    ("~", word[: length - 1], _initial(word[length - 1])),
                ):
                    found.update(dict.fromkeys(self._by_key.get(key, ())))
        return [w for w in found if w.matches(word) and not _shadowed(w, word, self.nouns)]


def _shadowed(child: Word, word: str, nouns: set[str]) -> bool:
    """Whether `word` goes on past `child`'s text into a longer noun of the taxonomy's
    phrases (`nouns`), and so is that noun, not `child`'s: 인증서를 is no 인증 and 서를.
    Not where that noun holds `child`'s with a particle or an ending (`_inflects`)."""
    length = len(child.text)
    if not word.startswith(child.text):
        return False
    return any(
        word[:end] in nouns and not _inflects(word[length:end])
        for end in range(length + 1, len(word) + 1)
    )


def _keys(word: Word) -> list[tuple[str, str, int]]:
    """What a text word that `word` matches is looked up by (see Node.matching)."""
    if not _is_hangul(word.text):
        return [("=", word.text, 0)]
    keys = [("^", word.text, 0)]
    if word.loose:
        keys.append(("~", word.text[:-1], _initial(word.text[-1])))
    return keys


class Matcher:
    """Every label and alias of a taxonomy, in a tree of their words."""

    def __init__(self, taxonomy: Taxonomy) -> None:
        self.taxonomy = taxonomy
        self.root = Node()
        # Each Korean phrase of two words or more, written together.
        self.joined = Node(nouns=self.root.nouns)
        self._seen: set[tuple[str, tuple[Word, ...]]] = set()
        for dimension in DIMENSIONS:
            for term in taxonomy.terms[dimension].values():
                if not term.deprecated:
                    for name in _names(term):
                        self._add(dimension, term.id, name)
        # A deprecated term's names still signal what it meant: its replacement, after the
        # replacement's own names (which a passage is quoted beside first).
        for dimension in DIMENSIONS:
            for term in taxonomy.terms[dimension].values():
                replacement = taxonomy.replacement(dimension, term.id)
                if replacement is not None:
                    for name in _names(term):
                        self._add(dimension, replacement, name)

    def _add(self, dimension: str, term: str, name: str) -> None:
        spans = token_spans(name)
        found = [token for token, _, _ in spans]
        if not found:
            return
        last = len(found) - 1
        words = tuple(Word.of(t, i == last) for i, t in enumerate(found))
        objected = last > 0 and found[-2][len(words[-2].text) :] in _OBJECT
        phrase = Phrase(dimension, term, name, words, objected)
        if (term, phrase.words) in self._seen:  # "NCCL" and "nccl" are one phrase
            return
        self._seen.add((term, phrase.words))
        order = len(self._seen)
        node = self.root
        for i, (token, word) in enumerate(zip(found, phrase.words, strict=True)):
            node = node.child(word)
            if _is_hangul(word.text) and not word.loose:
                self.root.nouns.add(word.text)
            node.listing |= token != word.text and token.endswith(_LISTING)
            between = name[spans[i][2] : spans[i + 1][1]] if i + 1 < len(spans) else ""
            node.marked |= bool(_CLAUSE_MARK.search(between))
            if between:
                node.hyphened = node.hyphened is not False and between in _HYPHENS
        node.phrases.append((order, phrase))
        joined = phrase.joined()
        if joined is not None:
            self.joined.child(joined).phrases.append((order, phrase))

    def find(self, text: str, field: str = "text") -> Iterator[Hit]:
        """Every (term, phrase) found in `text` and not negated there, once each; and
        where two phrases of one term match words that overlap ("로드 밸런서" and
        "로드밸런서", "링크 플래핑" and "플래핑"), the first only: one passage is quoted once."""
        spans = token_spans(text)
        found = [token for token, _, _ in spans]
        layout = _Layout(text, spans)
        seen: set[tuple[str, str]] = set()
        quoted: dict[str, list[tuple[int, int]]] = {}  # by term, the stretches of text matched
        for start in range(len(found)):
            for phrase, end, used in self._matches_at(found, start, layout):
                if (phrase.term, phrase.text) in seen or _negated(text, spans, start, end, used):
                    continue
                stretch = (spans[start][1], spans[end - 1][2])
                if any(_overlap(stretch, other) for other in quoted.get(phrase.term, ())):
                    continue
                seen.add((phrase.term, phrase.text))
                quoted.setdefault(phrase.term, []).append(stretch)
                quote = _quote(text, *stretch)
                yield Hit(phrase.dimension, phrase.term, phrase.text, field, quote)

    def named(self, texts: Iterable[tuple[str, str]]) -> list[Hit]:
        """The terms that `texts` ((field, text) pairs) name, each by its first hit; a
        parent left out when a child of it is named too, as its phrase then adds nothing
        to the child's (what `curator search` recognises, what `curator new` fills in)."""
        found: dict[tuple[str, str], Hit] = {}
        for field, text in texts:
            for hit in self.find(text, field):
                if self.taxonomy.term(hit.dimension, hit.term) is not None:
                    found.setdefault((hit.dimension, hit.term), hit)
        ancestors = self.taxonomy.ancestors
        implied = {(d, parent) for d, term in found for parent in ancestors(d, term)}
        return [hit for key, hit in found.items() if key not in implied]

    def _matches_at(
        self, found: list[str], start: int, layout: _Layout
    ) -> Iterator[tuple[Phrase, int, int]]:
        """Each phrase matching at found[start], with the end of its match and how many
        characters of the last word it matched (the rest is particles and endings), its
        words where `layout` lets them stand; in
        the order the phrases were added, whichever way the spacing matched: a term's
        label before its aliases, which `find` quotes a passage beside (docs/judgement.md)."""
        word = found[start]
        # Most words of a text begin no phrase: ruled out by one look-up each.
        if not (self.root.may_match(word) or self.joined.may_match(word)):
            return
        matches = _walk(self.root, found, start, layout)
        if _is_hangul(word):  # the phrases written together are Korean
            matches += self._written_together(word, start)
        # By order, then by end (a phrase may match written together and apart).
        for _, phrase, end, used in sorted(matches, key=lambda match: (match[0], match[2])):
            yield phrase, end, used

    def _written_together(self, word: str, start: int) -> list[tuple[int, Phrase, int, int]]:
        """(order, phrase, end, used) of the phrases written apart that `word`, at
        found[start], holds written together ("처리량저하가")."""
        return [
            (order, phrase, start + 1, len(key.text))
            for key in self.joined.matching(word)
            for order, phrase in self.joined.children[key].phrases
        ]


def _names(term: Term) -> dict[str, None]:
    """A term's labels, its id as words and its aliases, in that order, each once."""
    return dict.fromkeys((term.label.ko, term.label.en, term.id.replace("-", " "), *term.aliases))


class _Layout:
    """Where the next word of a phrase may stand in a text (its tokens, `spans`): within
    the sentence, with at most `GAP` words between (tokens written together, 2019년, are
    one word), and in the same parenthesis as the word before, or outside all (an aside
    in brackets between is skipped). Worked out only for the tokens that a phrase's word
    matched."""

    def __init__(self, text: str, spans: list[tuple[str, int, int]]) -> None:
        self.text = text
        self.spans = spans
        self._after: dict[tuple[int, bool], Sequence[int]] = {}
        # Which parenthesis each token stands in (0: none; else the opening bracket's
        # number), when the text holds a bracket at all. A closing bracket with no opening
        # one ("1) 먼저") closes nothing.
        self.asides: list[int] | None = None
        if any(bracket in text for bracket in _OPEN + _CLOSE):
            self.asides = []
            open_, opened, end = [0], 0, 0
            for _, start, stop in spans:
                for char in text[end:start]:
                    if char in _OPEN:
                        opened += 1
                        open_.append(opened)
                    elif char in _CLOSE and len(open_) > 1:
                        open_.pop()
                self.asides.append(open_[-1])
                end = stop

    def left_out(self, i: int) -> str:
        """The particle that the tokens leave out after token i, alone before the next
        word: glued to a Latin word or apart (OOM은, OOM 은, 타임아웃 은); else ""."""
        return _left_out(self.text, self.spans, i)

    def ends_sentence(self, i: int) -> bool:
        """Whether a sentence ends after token i (or the text does)."""
        if i + 1 >= len(self.spans):
            return True
        return bool(_SENTENCE_END.search(self.text, self.spans[i][2], self.spans[i + 1][1]))

    def ends_clause(self, i: int) -> bool:
        """Whether a sentence or a clause ends after token i (`_CLAUSE_MARK`)."""
        return self.ends_sentence(i) or bool(
            _CLAUSE_MARK.search(self.text, self.spans[i][2], self.spans[i + 1][1])
        )

    def lists(self, i: int) -> bool:
        """Whether a comma follows token i, as after an item of a list."""
        return i + 1 < len(self.spans) and bool(
            _LIST_COMMA.match(self.text, self.spans[i][2], self.spans[i + 1][1])
        )

    def joins(self, i: int) -> bool:
        """Whether tokens i and i + 1 are joined as a hyphenated word's may be: by a hyphen,
        or by spaces (kube-apiserver, kube apiserver; not kube-system … extension-apiserver)."""
        between = self.text[self.spans[i][2] : self.spans[i + 1][1]]
        return between in _HYPHENS or self.together(i)

    def together(self, i: int) -> bool:
        """Whether tokens i and i + 1 may be two parts of one word written apart: nothing
        but spaces between them, within a line (not 네임 (서버, nor 네임 이 서버, whose
        particle the tokens leave out)."""
        if i + 1 >= len(self.spans):
            return False
        between = self.text[self.spans[i][2] : self.spans[i + 1][1]]
        return between.isspace() and "\n" not in between

    def after(self, i: int, marked: bool = False) -> Sequence[int]:
        """The tokens where the word of a phrase after the one that token i matched may
        stand: in the same clause, or sentence when the phrase is `marked` there itself,
        and none past a word that tells of success (`_succeeded`)."""
        places = self._after.get((i, marked))
        if places is None:
            ends = self.ends_sentence if marked else self.ends_clause
            end, words = i + 1, 0
            while not ends(end - 1):
                words += bool(_SPACE.search(self.text, self.spans[end - 1][2], self.spans[end][1]))
                if words > GAP + 1:
                    break
                end += 1
                if _succeeded(self.spans[end - 1][0]):
                    break
            places = range(i + 1, end)
            if self.asides is not None:
                aside = self.asides[i]
                places = [at for at in places if self.asides[at] == aside]
            self._after[i, marked] = places
        return places


def _succeeded(word: str) -> bool:
    """Whether `word` tells that what came before it went well (성공했지만, 성공한, 성공으로;
    not 성공률): the words of a phrase before it are what succeeded, and a later word of
    the phrase, a failure, befell something else (DNS 해석에 성공했지만 연결에 실패했다 is
    no DNS 해석 실패)."""
    rest = word[len(_SUCCESS) :]
    return word.startswith(_SUCCESS) and (not rest or _inflects(rest))


def _walk(
    root: Node, found: list[str], start: int, layout: _Layout
) -> list[tuple[int, Phrase, int, int]]:
    """(order, phrase, end, used) of each phrase matching at found[start]: where its match
    ends, and how many characters of the last text word it matched. Its first word matches
    found[start], or that word and the next, written apart (`_apart`); each word after
    matches the first text word (or two) it can after the word before it: up to `GAP`
    unrelated words may stand between two words of the phrase, within one sentence and
    one parenthesis (`_Layout`), and none after a word listed with the next. The phrases
    below a child share its word, so they share that choice, and each node is reached at
    most once."""
    out: list[tuple[int, Phrase, int, int]] = []
    pending = [(*reached, False) for reached in _children_at(root, found, [start], layout)]
    while pending:
        node, position, used, after_object = pending.pop()
        rest = found[position - 1][used:]
        done = after_object and _done_then(node, rest)
        halted = after_object and _halted_then(node, rest)
        out.extend(
            (order, phrase, position, used)
            for order, phrase in node.phrases
            if not (done or (halted and phrase.dimension == "symptoms")) or phrase.objected
        )
        # (Most phrases are one word.) A word listed with the next by the particle 와 or 과,
        # its own or one the tokens left out (GPU와 디스크, 메모리 와 디스크), ends the
        # phrase, unless the phrase lists it too: what follows names another thing (인증서와
        # 갱신된 DNS 레코드 is no 인증서 갱신); so does a word made a verb that closes its
        # clause (`_CLAUSE_CLOSED`). (Only the listing: another particle the tokens left out
        # gives a Latin word no role of its own, as DNS 가 조회에 실패 is DNS 조회 실패.)
        listed = (rest or layout.left_out(position - 1)) in _LISTING and not node.listing
        if node.children and not listed and not _CLAUSE_CLOSED.fullmatch(rest):
            glued = _glued(node, found, position, used)
            places = layout.after(position - 1, node.marked)
            if node.hyphened:
                places = [at for at in places[:1] if layout.joins(at - 1)]
            after = _children_at(node, found, places, layout, glued)
            if rest in _CASE_PARTICLES:  # (its own role: the next word may not have one)
                subject = rest in _SUBJECT
                after = [
                    a for a in after if not _another_role(found, layout, position, subject, *a)
                ]
            for child, end, u in after:
                between = rest
                if end == position and child.word is not None:  # glued to it: 학습을멈추고
                    between = rest[: u - used - len(child.word.text)]
                pending.append((child, end, u, between in _OBJECT))
    return out


def _done_then(node: Node, rest: str) -> bool:
    """Whether the verb of a phrase that reached `node`, with `rest` after it in the text,
    after a word of the phrase with the object particle, tells what someone did and then
    did next: its form joins it by 고 or 고서 to the next verb (학습을 멈추고 노드를 교체했다,
    배포를 막고), a step taken, not the state the phrase names (학습 멈춤, 학습이 멈: what
    befell training), unless the phrase gives the word before as the verb's object too
    (데이터를 잃고 is 데이터를 잃)."""
    word = node.word
    return word is not None and (word.loose or word.lone) and rest.endswith(_THEN)


def _halted_then(node: Node, rest: str) -> bool:
    """Whether the noun of a phrase that reached `node`, with `rest` after it in the text,
    after a word of the phrase with the object particle, is a halt someone made and then
    did next (학습을 중단하고 노드를 교체했다, 모니터링을 정지하고서): a step taken, no symptom
    (see `_done_then`). A change made and then another is still a cause (설정을 변경하고)."""
    word = node.word
    return word is not None and word.text in _HALTS and bool(_MADE_THEN.fullmatch(rest))


def _children_at(
    node: Node,
    found: list[str],
    places: Iterable[int],
    layout: _Layout,
    reached: dict[Word, tuple[int, int]] | None = None,
) -> list[tuple[Node, int, int]]:
    """(child, end, used) of each child of `node` whose word matches at the first of
    `places` it can, and there the one text word it can, or else two of one sentence
    (`_apart`); unless `reached` already holds it (where it matched before `places`)."""
    reached = {} if reached is None else reached
    for at in places:
        if node.may_match(found[at]):  # (most text words do not)
            for word in node.matching(found[at]):
                reached.setdefault(word, (at + 1, len(word.text)))
            for word, used in _apart(node, found, at, layout):
                reached.setdefault(word, (at + 2, used))
    return [(node.children[word], end, used) for word, (end, used) in reached.items()]


def _apart(node: Node, found: list[str], at: int, layout: _Layout) -> list[tuple[Word, int]]:
    """(child, characters of found[at + 1] it matched) of each child of `node` whose word
    found[at] and found[at + 1] hold written apart: Korean writes a compound together or
    not (네임서버, 네임 서버). The space may stand only between two syllables of the word,
    once, nothing else beside it (`_Layout.together`: 네임 이 서버가 is two words), with
    two or more before it, as a lone syllable is often a word of its own (저 장소, that
    place, is no 저장소), and two or more after it, or one that the next word holds alone
    or with a particle (기본 값을 is 기본값, 인증 서버 is no 인증서). The first text word is
    the word's first part, nothing glued to it."""
    if not layout.together(at):
        return []
    first, second = found[at], found[at + 1]
    if len(first) < _SHORTEST_PART or not (_is_hangul(first) and _is_hangul(second)):
        return []
    found_apart = []
    for word in node.matching(first + second, longer_than=len(first)):
        used = len(word.text) - len(first)
        if used >= _SHORTEST_PART or second[used:] in _PARTICLE_OR_NOTHING:
            found_apart.append((word, used))
    return found_apart


def _another_role(
    found: list[str],
    layout: _Layout,
    after: int,
    subject: bool,
    node: Node,
    end: int,
    used: int,
) -> bool:
    """Whether the word of a phrase that reached `node` at found[end - 1], its first `used`
    characters, after a word of the phrase with a case particle at found[after - 1] (the
    subject's or the topic's, 이, 가, 은 or 는, or 도, 만, 조차 or 마저 in their place, or
    not), has a role of its own in the sentence: a noun there (written as it is, not 멈춰도
    for 멈춤; no verb's stem, …다, nor one syllable, most of which are verbs) that goes on
    with a particle, or stands bare
    before a comma, an item of a list (복구를 줄이도록 절차, 도구, … is no 복구 절차), unless
    the word before it is a verb whose clause it heads, which the word of the phrase before
    is in (옛 기능을 켜던 플래그를 is 기능 플래그), or it is what the subject failed at: with
    에 before 실패 (도메인이 조회에 실패했다 and 도메인은 조회에 실패했다 are 도메인 조회 실패;
    도메인을 조회에 실패한 리졸버 no)."""
    word, text_word = node.word, found[end - 1]
    if word is None or word.lone or (word.loose and _final(word.text[-1]) != _FINAL_M):
        return False
    if not text_word.startswith(word.text):
        return False
    rest = text_word[used:]
    if not (rest in _ROLES or (not rest and layout.lists(end - 1))):
        return False
    if subject and rest == "에" and layout.together(end - 1) and found[end].startswith(_FAILED):
        return False
    return not (end - 2 >= after and found[end - 2].endswith(_HEADED))


def _glued(node: Node, found: list[str], position: int, used: int) -> dict[Word, tuple[int, int]]:
    """(end, used) by child of `node` whose word found[position - 1] holds glued to the word
    of the phrase before, which matched its first `used` characters: straight after it
    (걸러내지 holds 걸러 and 내지) or after a particle (검증을건너뛰었다 holds 검증 and 건너뛰).
    Both words have two syllables or more, as in `_apart`: a lone syllable is often a word
    of its own; but after a particle, which ends the word before, a word of one syllable
    too, matched as it is apart (`Word.lone`: 데이터를잃었다 holds 데이터를 잃, 배포가막바지에
    no 배포가 막)."""
    word = found[position - 1]
    reached: dict[Word, tuple[int, int]] = {}
    if used < _SHORTEST_PART or len(word) - used < _SHORTEST_PART or not _is_hangul(word):
        return reached
    rest = word[used:]
    # (Most text words end in no more than a particle or an ending: ruled out at once.)
    for skip in range(min(len(rest) - _SHORTEST_PART, _LONGEST_PARTICLE) + 1):
        if (skip == 0 or rest[:skip] in PARTICLES) and node.may_match(rest[skip:]):
            shortest = 0 if skip else _SHORTEST_PART - 1
            for child in node.matching(rest[skip:], longer_than=shortest):
                reached.setdefault(child, (position, used + skip + len(child.text)))
    return reached


def _left_out(text: str, spans: list[tuple[str, int, int]], i: int) -> str:
    """The particle that the tokens leave out after spans[i], alone before the next word:
    glued to a Latin word or apart (OOM은, OOM 은, 타임아웃 은); else ""."""
    if i + 1 >= len(spans):
        return ""
    between = text[spans[i][2] : spans[i + 1][1]]
    alone = normalise(between).split()
    if len(alone) == 1 and alone[0] in PARTICLES and between[-1].isspace():
        return alone[0]
    return ""


def _negated(text: str, spans: list[tuple[str, int, int]], start: int, end: int, used: int) -> bool:
    """Whether the match of spans[start:end] is negated where it stands."""
    last, _, last_end = spans[end - 1]
    rest = last[used:]
    following = ""
    if end < len(spans):
        between = text[last_end : spans[end][1]]
        # A particle the tokens leave out stands where the rest of the word would: then the
        # next word.
        particle = _left_out(text, spans, end - 1)
        if not rest and particle:
            rest, between = particle, " "
        elif not (rest or between or _is_hangul(last)) and _is_hangul(spans[end][0]):
            # Hangul glued to a Latin word is the word's rest, a token of its own
            # (OOM은없었다): then the word after it.
            rest, end = spans[end][0], end + 1
            between = text[spans[end - 1][2] : spans[end][1]] if end < len(spans) else ""
        if between.isspace():
            following = spans[end][0]
    before = text[max(0, spans[start][1] - _CONTEXT) : spans[start][1]]
    return bool(
        _KO_NEGATED_REST.match(rest)
        or (_KO_BEFORE_NEGATION.fullmatch(rest) and following.startswith(("않", "못")))
        or (_KO_PARTICLE.fullmatch(rest) and re.match(_KO_NONE, following))
        or _EN_NEGATION.search(before)
    )


def _overlap(one: tuple[int, int], other: tuple[int, int]) -> bool:
    return one[0] < other[1] and other[0] < one[1]


def _quote(text: str, start: int, end: int) -> str:
    """text[start:end] widened to whole words and one more word either side, within its
    line: words a reviewer can find in the file. A particle written apart, as after a
    Latin word (`systemd 를`, `Nanotron 에`), is no word of its own: the quote takes the
    word it belongs to as well, rather than start on it (“를 재시작해”) or stop at it."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    first = max(line_start, start - _CONTEXT)
    before = _WORD_BEFORE.search(text, first, start)
    begin = before.start() if before else start
    particle = _FIRST_WORD.match(text, begin, start)
    if particle and particle[1] in PARTICLES:
        before = _WORD_BEFORE.search(text, first, begin)
        begin = before.start() if before else begin
    after = _WORD_AFTER.match(text, end, line_end)
    finish = after.end() if after else end
    if after and after[1] in PARTICLES:
        further = _NEXT_WORD.match(text, finish, line_end)
        finish = further.end() if further else finish
    return text[begin:finish].strip()


_WORD_BEFORE = re.compile(r"(?:\S+\s+)?\S*\Z")
_FIRST_WORD = re.compile(r"(\S+)\s")  # a whole word before the one the match starts in
_WORD_AFTER = re.compile(r"\S*(?:\s+(\S+))?")
_NEXT_WORD = re.compile(r"\s+\S+")
