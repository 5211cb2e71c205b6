"""Text → comparable units, for Korean and English alike.

Two views of the same text:
- *features* for similarity: character 2- and 3-grams inside runs of Hangul (Korean glues
  particles and endings to words — 스토리지에서, NCCL의 — so whole words rarely repeat, but
  their first syllables do), kana and CJK ideographs (Japanese and Chinese put no space
  between words), and lightly stemmed words of Latin, Greek and Cyrillic letters. Each
  feature is a 64-bit integer so that a whole library's vocabulary fits in numpy arrays.
- *tokens* for phrase matching (taxonomy aliases in text): words split at every change of
  script, with stand-alone Korean particles dropped.
"""

from __future__ import annotations

import codecs
import hashlib
import re
import unicodedata
from functools import lru_cache
from itertools import chain

import numpy as np

from curator.textnorm import normalized

# Looked up as this module loads (under `deferred`, as the commands load theirs), not when
# `features` first encodes, mid-run: Python loads a codec's module on its first use, and a
# stop as a module loads can be dropped ("Exception ignored in: …"; see curator.cli).
codecs.lookup("utf-32-le")

HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3
# Scripts written without spaces between words, or with particles glued to them, read as
# character n-grams: Hangul syllables, kana and CJK ideographs (東京リージョン で発生した).
NGRAM_SCRIPTS = (
    (HANGUL_FIRST, HANGUL_LAST),
    (0x3040, 0x30FF),  # hiragana and katakana (NFKC makes half-width katakana full)
    (0x3400, 0x4DBF),  # CJK ideographs, extension A
    (0x4E00, 0x9FFF),  # CJK ideographs
    (0xF900, 0xFAFF),  # CJK compatibility ideographs (NFKC maps most to the above)
    (0x20000, 0x3FFFF),  # CJK ideographs, extensions B and after
)
# Whether a code point is of an n-gram script, looked up in one step (a comparison per
# range took as long as the rest of `features`); any code point above the table is not.
_IN_NGRAM_SCRIPT = np.zeros(NGRAM_SCRIPTS[-1][1] + 2, dtype=bool)
for _first, _last in NGRAM_SCRIPTS:
    _IN_NGRAM_SCRIPT[_first : _last + 1] = True
_BEYOND = np.uint64(len(_IN_NGRAM_SCRIPT) - 1)
# Scripts written in words: Latin (with Vietnamese's letters), Greek and Cyrillic. Ranges
# rather than "any letter", which took twice as long to find, for the few scripts that
# reports of this library are written or titled in; the others are not read (docs/judgement.md).
_WORD_LETTERS = "a-z\u00e0-\u024f\u1e00-\u1eff\u0370-\u03ff\u1f00-\u1fff\u0400-\u052f"
_TOKEN = re.compile(r"[가-힣]+|[a-z\u00e0-\u024f]+[0-9]*[a-z\u00e0-\u024f0-9]*|[0-9]+")
_WORD = re.compile(f"[{_WORD_LETTERS}][{_WORD_LETTERS}0-9]+")
# Set on word features so that they never meet a Hangul n-gram (those stay below 2**63).
WORD_BIT = np.uint64(1 << 63)


# Particles and copulas that Korean writers in this library put after a space when the word
# before them is in Latin script ("NCCL 의", "Imbue 는"). Alone, they carry no meaning.
def words(text: str) -> frozenset[str]:
    """A set of words written as one string (easier to read and edit than a list)."""
    return frozenset(text.split())


PARTICLES = words(
    "이 가 은 는 을 를 의 에 에서 에게 로 으로 와 과 도 만 까지 부터 보다 처럼 이다 였다 이었다 "
    "라는 이라는 란 이란 나 이나 와도 과도 에도 에는 에서는 로는 으로는 조차 마저 께서"
)
# Endings stripped from the *aliases* of taxonomy terms (never from incident text), so that
# an alias written with a particle ("처리량이") still matches "처리량은", "처리량 저하". Not 도
# (also) alone, which no alias needs and which ends many nouns: 재시도, 심각도 and 처리속도 are
# no 재시, 심각 and 처리속 (재시 would match 재시작).
_ALIAS_PARTICLES = tuple(sorted(PARTICLES - {"도"}, key=len, reverse=True))
# Korean stacks particles: an auxiliary one after a particle of place, direction, company or
# limit (규모에서만, 사용자에게도, 수동으로는, 복구까지도), or a case particle after a limit
# (팀만으로, 운영만이, 여기까지가). An alias word loses them one at a time, the last first (도
# too, after another particle), so that it matches the noun with any particle or none.
_AUXILIARY = words("은 는 도 만 까지 부터 조차 마저 나 이나")
_ADVERBIAL = words("에 에서 에게 께서 로 으로 와 과 까지 부터 만 보다 처럼 조차 마저")
_CASE = words("이 가 을 를 의 에 로 으로")
_LIMIT = words("만 까지 부터 조차 마저")
# Particles that follow a syllable without a final consonant only (배포가, 때는), and those
# that follow one with a final only (막이, 결함이나): a particle of the wrong kind for the
# syllable before it is the word's own (전문가, 평가, 단가: 가 after 문, 평, 단; 사이, 차이,
# 효과: 이 and 과 after 사, 차, 효), or, after a one-syllable alias word, the start of another
# word (붙였다 is 붙이다, not 붙 + 였다: phrases.py).
_AFTER_VOWEL = words("가 는 를 와 로 로는 였다 라는 란 나 와도")  # 로, 로는 also after ㄹ
_AFTER_CONSONANT = words("이 은 을 과 으로 으로는 이었다 이라는 이란 이나 과도")
_FINAL_L = 8  # index of ㄹ among the final consonants
# The ends of words that read as a particle, or as a verb's 다, but are the word's own: an
# alias word ending in one is kept whole (그대로 is no 그대 + 로, 한꺼번에 no 한꺼번 + 에, 넓거나
# no 넓거 + 나, 거나 being a verb's ending; 팀마다 is no verb 팀마 + 다, 마다 a particle;
# 결과, 경과, 성과 and 통과, whose 과 may follow the syllable before it, are no 결 + 과 …:
# 검사결과 is no 검사결).
OWN_ENDINGS = ("그대로", "제대로", "한꺼번에", "거나", "마다", "결과", "경과", "성과", "통과")

ENGLISH_STOPWORDS = words(
    """a an the and or but if of to in on at by for with from as is are was were be been being
    it its this that these those there their they them we our us you your he she his her i
    not no so than then too very can could would should will shall may might must do does did
    done have has had having into onto over under about after before during while when where
    which who whom whose what why how all any both each few more most other some such only own
    same just also out up down off again further once here via per"""
)


def normalise(text: str) -> str:
    """NFKC (full-width → ASCII, compatibility jamo → syllables) and case folding."""
    return normalized("NFKC", text).casefold()


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light English stemmer: plural, -ed and -ing, a final e, doubled consonants.

    It only has to map the inflections of one word to one string, the same way on both
    sides of a comparison (flapping, flapped, flaps → flap); it need not be a real root.
    """
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ing", "ed"):
        base = word[: -len(suffix)]
        if word.endswith(suffix) and len(base) >= 3 and any(v in base for v in "aeiouy"):
            word = base
            if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
                word = word[:-1]
            break
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


def tokens(text: str) -> list[str]:
    """Normalised words split at script changes; stand-alone particles dropped; English
    words stemmed. "NCCL의 타임아웃이" → ["nccl", "타임아웃이"]."""
    return [token for token, _, _ in token_spans(text)]


def token_spans(text: str) -> list[tuple[str, int, int]]:
    """tokens(text), each with the start and end in `text` of the words it was read from,
    so that evidence can quote the text as it stands."""
    folded = normalise(text)
    origin = _origin(text, folded)
    found = []
    for match in _TOKEN.finditer(folded):
        token = match.group()
        if token in PARTICLES:
            continue
        if token[0].isalpha() and token.isascii():
            token = stem(token)
        # Ends where the next character's source starts: a syllable may come from several
        # characters (jamo), all of them its own.
        end = origin[match.end()] if match.end() < len(folded) else len(text)
        found.append((token, origin[match.start()], max(end, origin[match.end() - 1] + 1)))
    return found


def _origin(text: str, folded: str) -> list[int] | range:
    """Where in `text` each character of `folded` (its normalised form) comes from."""
    if len(folded) == len(text):
        return range(len(text))  # the usual case: NFKC and case folding kept every place
    # Normalised a cluster at a time: a character that composes with the one before it
    # (Korean as separate jamo, as macOS writes it: 학 as ㅎ ㅏ ㄱ) comes from where its
    # cluster starts. Normalised a character at a time, jamo did not compose, and every
    # quote after the first syllable was taken from the wrong place in the text.
    clusters = [i for i, char in enumerate(text) if i == 0 or not _joins_previous(char)]
    ends = [*clusters[1:], len(text)]
    starts = [a for a, b in zip(clusters, ends, strict=True) for _ in normalise(text[a:b])]
    if len(starts) != len(folded):  # characters composed across clusters (none known)
        return [min(i, len(text) - 1) for i in range(len(folded))]
    return starts


def _joins_previous(char: str) -> bool:
    """Whether `char` may compose with the character before it: once normalised, a
    combining mark, or a Hangul vowel or final consonant jamo (U+1160-U+11FF, U+D7B0-U+D7FF;
    a compatibility vowel such as ㅠ too, which NFKC makes one: ㅋㅠ is 큐)."""
    first = normalise(char)[:1]
    return (
        unicodedata.combining(first) != 0
        or "\u1160" <= first <= "\u11ff"
        or "\ud7b0" <= first <= "\ud7ff"
    )


def particle_after(rest: str, syllable: str) -> bool:
    """Whether `rest` is a particle that may follow `syllable` (`_AFTER_VOWEL`)."""
    if rest not in PARTICLES:
        return False
    final = (ord(syllable) - HANGUL_FIRST) % 28  # (its index among the 28 finals; 0: none)
    if not final:
        return rest not in _AFTER_CONSONANT
    return rest not in _AFTER_VOWEL or (final == _FINAL_L and rest in ("로", "로는"))


def strip_particle(token: str) -> str:
    """An alias word without the particles after its noun: the last, then each that it
    stacks on (규모에서만 → 규모), each one that may follow the syllable before it
    (`particle_after`: 전문가 and 사이 keep their ends), while at least two syllables remain
    and the word does not end in one of its own (`OWN_ENDINGS`)."""
    return particle_stages(token)[-1]


def particle_stages(token: str) -> list[str]:
    """`token`, then each word `strip_particle` makes of it on its way, a particle less
    each time (규모에서만, 규모에서, 규모)."""
    stages, particles = [token], _ALIAS_PARTICLES
    if token.endswith("도") and _last_particle(token[:-1], _stacked_on("도")):
        stages, particles = [token, token[:-1]], _stacked_on("도")
    while (particle := _last_particle(stages[-1], particles)) is not None:
        stages.append(stages[-1][: -len(particle)])
        particles = _stacked_on(particle)
    return stages


def _last_particle(word: str, particles: tuple[str, ...]) -> str | None:
    """The longest of `particles` that `word` ends in and may lose (see `strip_particle`)."""
    if not ("가" <= word[:1] <= "힣") or word.endswith(OWN_ENDINGS):
        return None
    for particle in particles:
        rest = len(word) - len(particle)
        if word.endswith(particle) and rest >= 2 and particle_after(particle, word[rest - 1]):
            return particle
    return None


def _stacked_on(particle: str) -> tuple[str, ...]:
    """The particles that `particle` may follow in a stack, the longest first."""
    inner = (_ADVERBIAL if particle in _AUXILIARY else set()) | (
        _LIMIT if particle in _CASE else set()
    )
    return tuple(sorted(inner, key=lambda p: (-len(p), p)))


def _words(folded: str) -> list[str]:
    return [word for word in _WORD.findall(folded) if word not in ENGLISH_STOPWORDS]


# A run of Hangul is a Korean word with what is glued to it (규모에서만, 타임아웃이 of
# NCCL타임아웃이); the index keeps its noun, without the particles (`korean_word_keys`).
_HANGUL_RUN = re.compile("[가-힣]+")
_SEARCHED_WORD = re.compile(f"{_HANGUL_RUN.pattern}|{_WORD.pattern}")


def korean_word(run: str) -> str | None:
    """The word a run of Hangul is searched for as: its noun without the particles after
    it (`strip_particle`: 규모에서만 → 규모), if of two syllables or more (a lone syllable is
    no feature of the text either); None for a particle alone or a lone syllable."""
    if run in PARTICLES:
        return None
    word = strip_particle(run)
    return word if len(word) >= 2 else None


@lru_cache(maxsize=65536)
def _korean_keys_in(token: str) -> tuple[int, ...]:
    """The keys of the Korean words a token of text (between spaces) holds: of each run of
    Hangul in it, its `korean_word`, and that of the run without a last 도 (also), which
    `strip_particle` keeps as a noun's own (재시도): 규모도 holds 규모 (and 재시도 holds
    재시, which no one searches for). Memoised: a library's texts repeat their words."""
    found = set()
    for run in _HANGUL_RUN.findall(token):
        found |= {korean_word(run), korean_word(run[:-1]) if run.endswith("도") else None}
    return tuple(_korean_key(word) for word in found if word is not None)


@lru_cache(maxsize=65536)
def _korean_key(word: str) -> int:
    """32 bits of a word's hash: at 100,000 incidents of about 143 such words each, about
    one search for a word in 300 finds an incident holding another word of its key (the
    marks of Latin words share a column of 22 bits). 64 bits would double their memory."""
    return int.from_bytes(hashlib.blake2b(word.encode("utf-8"), digest_size=4).digest(), "little")


def korean_word_keys(text: str) -> np.ndarray:
    """The sorted distinct keys (uint32) of the Korean words `text` holds (`korean_word`),
    each with any particles after it: what a search for a Korean word finds an incident by.
    (Read a distinct token at a time: a run of Hangul never spans a space, and finding
    the runs of every text afresh took longer than its features.)"""
    tokens = set(normalise(text).split())
    keys = np.sort(np.fromiter(chain.from_iterable(map(_korean_keys_in, tokens)), "<u4"))
    return keys[np.concatenate(([True], keys[1:] != keys[:-1]))] if len(keys) else keys


def searched_words(text: str) -> list[str]:
    """The words of a query that an incident is listed for holding, in its order, each
    once: its words of Latin, Greek or Cyrillic letters (no stop word, not stemmed) and
    its Korean words (`korean_word`): `Enterprise 요금제를` → ["enterprise", "요금제"]."""
    found = []
    for word in _SEARCHED_WORD.findall(normalise(text)):
        if _HANGUL_RUN.fullmatch(word):
            found.append(korean_word(word))
        elif word not in ENGLISH_STOPWORDS:
            found.append(word)
    return list(dict.fromkeys(word for word in found if word is not None))


def korean_forms(text: str) -> dict[str, tuple[int, ...]]:
    """Each Korean word of a query (`korean_word`), with the keys of the words an incident
    holds it by (`korean_word_keys`): of each word the stripping of its particles goes
    through (`particle_stages`), as an incident's word may keep what the query's loses,
    a particle that ends a stack being read otherwise alone (늘어나는 is 늘어나, where
    늘어나 alone is 늘어 and 나: 늘어나 is held by 늘어나는 and 늘어나), and without a last 도."""
    found: dict[str, set[int]] = {}
    for run in _HANGUL_RUN.findall(normalise(text)):
        word = korean_word(run)
        if word is None:
            continue
        stages = particle_stages(run) + (particle_stages(run[:-1]) if run.endswith("도") else [])
        forms = {stage for stage in stages if len(stage) >= 2 and stage not in PARTICLES}
        found.setdefault(word, set()).update(map(_korean_key, forms))
    return {word: tuple(sorted(keys)) for word, keys in found.items()}


@lru_cache(maxsize=262144)
def _word_feature(word: str) -> int:
    digest = hashlib.blake2b(word.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "little") | int(WORD_BIT)


def features(text: str) -> np.ndarray:
    """Every feature occurrence of `text` as uint64 (repeats kept: they are the counts)."""
    folded = normalise(text)
    points = np.frombuffer(folded.encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(
        np.uint64
    )
    grams = _IN_NGRAM_SCRIPT[np.minimum(points, _BEYOND)]
    pair = grams[:-1] & grams[1:]
    bigrams = (points[:-1] << np.uint64(21)) | points[1:]
    triple = pair[:-1] & grams[2:]
    trigrams = (points[:-2] << np.uint64(42)) | (points[1:-1] << np.uint64(21)) | points[2:]
    words = [_word_feature(stem(w)) for w in _words(folded)]
    return np.concatenate([bigrams[pair], trigrams[triple], np.array(words, dtype=np.uint64)])
