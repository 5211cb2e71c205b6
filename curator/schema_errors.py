"""pydantic validation errors → (location, one readable sentence)."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any, get_args, get_origin

from pydantic import BaseModel, ValidationError

from curator.load import Path
from curator.model import (
    ID_PATTERN,
    LANGUAGE_PATTERN,
    PARTIAL_DATE_PATTERN,
    TERM_ID_PATTERN,
    TEXT_PATTERN,
    parse_partial_date,
    text_problem,
    text_problem_but_byte_order_marks,
)
from curator.yaml_errors import (
    DASHES,
    TYPOGRAPHIC_QUOTES,
    key_slip,
    named,
    typographic_quotes_advice,
)

# What a contributor should write, in words: a regular expression is no help to most.
_PATTERN_WORDS = {
    PARTIAL_DATE_PATTERN: "a date written YYYY, YYYY-MM or YYYY-MM-DD (2024, 2024-05, 2024-05-08)",
    ID_PATTERN: "an incident id: IL- and four or more digits (IL-0137), or IL-NEW-<slug>",
    TERM_ID_PATTERN: "a term id: lower-case letters and digits joined by single hyphens",
    LANGUAGE_PATTERN: "a language tag such as en, ko or zh-Hant",
}

_TYPED_KEY = re.compile("[A-Za-z_]+")
_KINDS = {
    "string_type": "text",
    "list_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
}


def dotted(loc: Path) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the document"


@dataclass(frozen=True)
class SchemaError:
    loc: Path
    message: str
    at_key: bool  # an unknown key is best shown at the key, not at its value
    # Text refused holding U+FEFF (`zero_width`), which in an incident file is IL606's to
    # report, as the zero-width character it is; `but_zero_width`: what else is wrong with
    # the text, said without it (`text_problem_but_byte_order_marks`), None if nothing.
    zero_width: bool = False
    but_zero_width: str | None = None


def describe_errors(
    exc: ValidationError, model: type[BaseModel] | None = None
) -> list[SchemaError]:
    """One sentence per error; but a misspelt required key (`titel` for `title`) is one
    finding, at the misspelling, not two (unknown `titel`, missing `title`)."""
    errors = exc.errors(include_url=False)
    missing = {tuple(e["loc"]) for e in errors if e["type"] == "missing"}
    # Where nothing is, which a key written too far left may be meant for (`facets:` then
    # `causes:` at the start of the line leaves `facets` null).
    empty = missing | {
        tuple(e["loc"]) for e in errors if e["type"] in _KINDS and e.get("input") is None
    }
    meant = {
        tuple(e["loc"]): _meant_key(tuple(e["loc"]), model, empty)
        for e in errors
        if e["type"] == "extra_forbidden"
    }
    explained = {key for key in meant.values() if key in missing}
    described = []
    for error in errors:
        loc: Path = tuple(error["loc"])
        if error["type"] == "missing" and loc in explained:
            continue  # said at the misspelling instead
        sentence = _sentence(error, meant.get(loc))
        if (key := meant.get(loc)) in missing:
            sentence += f" ({dotted(key)!r} is required and missing)"
        at_key = error["type"] == "extra_forbidden"
        described.append(SchemaError(loc, sentence, at_key, *_zero_width(error)))
    return described


def _zero_width(error: Any) -> tuple[bool, str | None]:
    """`SchemaError`'s `zero_width` and `but_zero_width` of `error`."""
    value = error.get("input")
    if not (
        error["type"] == "string_pattern_mismatch"
        and error.get("ctx", {}).get("pattern") == TEXT_PATTERN
        and isinstance(value, str)
        and "\ufeff" in value
    ):
        return False, None
    problem = text_problem_but_byte_order_marks(value)
    return True, None if problem is None else f"{dotted(tuple(error['loc']))}: {problem}"


def _sentence(error: Any, meant: Path | None) -> str:
    """`meant`: the key an unknown key probably stands for (`_meant_key`)."""
    loc: Path = tuple(error["loc"])
    kind, where, value = error["type"], dotted(loc), error.get("input")
    if kind == "missing":
        return f"missing required key {where!r}"
    if kind == "extra_forbidden":
        return f"unknown key {where!r}{_unknown_key_hint(loc, meant)}"
    if kind == "list_type" and isinstance(value, str):
        # (Not `[a, b]`: a comma in Korean text would make two items of one sentence.)
        return (
            f"{where}: expected a list, found {_describe(value)}{_dash_named(value)}; write "
            "each item on a line of its own below the key, indented, as `- item`"
        )
    if kind == "string_type" and isinstance(value, dict) and len(value) == 1:
        # `- 원인: 스위치 재시작`: YAML reads a text holding ': ' as a key and its value.
        [(key, rest)] = value.items()
        if str(key)[:1] in TYPOGRAPHIC_QUOTES and str(rest)[-1:] in TYPOGRAPHIC_QUOTES:
            advice = typographic_quotes_advice(f"{key}{rest}")  # (`- ‘kubectl: drain’`)
        else:
            advice = 'put the whole text in double quotes ("…") or write it as a `|` block'
        return (
            f"{where}: expected text, found a mapping (the ': ' after {key!r} makes a key of "
            f"it); {advice}"
        )
    if kind in _KINDS:
        # (`- url： https://…` alone: a key ended with a full-width colon is text to YAML.)
        slip = key_slip(value) if isinstance(value, str) and "mapping" in _KINDS[kind] else None
        said = f"; {slip[1]}" if slip is not None else _bare_source(loc, value)
        return f"{where}: expected {_KINDS[kind]}, found {_describe(value)}{said}"
    if kind == "too_short":
        minimum = error.get("ctx", {}).get("min_length", 1)
        return f"{where}: needs at least {minimum} item{'s' if minimum != 1 else ''}"
    if kind == "string_too_short":
        return f"{where}: must not be empty"
    if kind == "string_pattern_mismatch":
        pattern = error.get("ctx", {}).get("pattern", "")
        if pattern == TEXT_PATTERN:
            return f"{where}: {text_problem(value)}"
        if pattern in _PATTERN_WORDS:
            return f"{where}: {value!r} is not {_PATTERN_WORDS[pattern]}" + _suggest_value(
                pattern, value
            )
        return f"{where}: {value!r} does not match the pattern {pattern}"
    if kind == "literal_error":
        expected = error.get("ctx", {}).get("expected", "")
        return f"{where}: {value!r} is not one of {expected}"
    message = str(error["msg"]).removeprefix("Value error, ")
    return f"{where}: {message}"


def _bare_source(loc: Path, value: Any) -> str:
    """How to write a source given as its address alone (`- https://…`), which is a source
    only as a mapping with the address under `url:`."""
    if len(loc) != 2 or loc[0] != "sources" or not isinstance(value, str):
        return ""
    if not value.strip().lower().startswith(("https://", "http://")):
        return ""
    return (
        f"; write it as `- url: {value.strip()}`, with the source's `title:` on the next "
        "line, under `url`"
    )


def _dash_named(text: str) -> str:
    """What a list's first item started with, where it was a dash that is not `-` (`– a`,
    `－ a`): YAML read the items as one text, which looks as a list does."""
    if text[:1] in DASHES and text[1:2].isspace():
        return f", which starts with {named(text[0])}, not '-'"
    return ""


def _suggest_value(pattern: str, value: str) -> str:
    """Did-you-mean for a date or a language tag written otherwise (`_date_meant`,
    `_language_meant`): what the value most likely stands for, if it is one."""
    meant = None
    if pattern == PARTIAL_DATE_PATTERN:
        meant = _date_meant(value)
    elif pattern == LANGUAGE_PATTERN:
        meant = _language_meant(value)
    return f"; did you mean {meant!r}?" if meant is not None and meant != value else ""


# A date written year first another way: `2024/02/23`, `2024.2.23.`, `2024-5-8`, `2024년 5월
# 8일`, `2024년 5월` (not `05/08/2024`, whose order differs from place to place).
_LOOSE_DATE = re.compile(
    r"\s*(\d{4})\s*(?:(?:[./-]|년)\s*(\d{1,2})\s*(?:월\s*)?"
    r"(?:(?:[./-]\s*)?(\d{1,2})\s*(?:일\s*)?)?)?\.?\s*"
)


_LOOSE_DATE_MAX = 32


def _date_meant(value: str) -> str | None:
    # (A date is short; on a long run of spaces, the pattern's runs would take time squared.)
    found = _LOOSE_DATE.fullmatch(value) if len(value) <= _LOOSE_DATE_MAX else None
    if found is None:
        return None
    year, month, day = found.groups()
    meant = year + "".join(f"-{int(part):02d}" for part in (month, day) if part is not None)
    try:
        parse_partial_date(meant)
    except ValueError:  # (no such month or day: no guess)
        return None
    return meant


def _language_meant(value: str) -> str | None:
    """A language tag written as a locale or a header writes it (`EN`, `en_US`): the
    language subtag in lower case, subtags joined by hyphens (BCP 47). (A language named in
    words, `English`, is not guessed at.)"""
    language, *rest = value.strip().replace("_", "-").split("-")
    tag = "-".join([language.lower(), *rest])
    return tag if re.fullmatch(LANGUAGE_PATTERN, tag) else None


def _describe(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"text {str(value)[:40]!r}"


def _unknown_key_hint(loc: Path, meant: Path | None) -> str:
    slip = key_slip(loc[-1]) if loc and isinstance(loc[-1], str) else None
    if slip is not None:  # (`title： "A: B"`, the key `title： "A` to YAML)
        return f"; {slip[1]}"
    if meant is None:
        return ""
    if meant[-1] != loc[-1]:
        return f"; did you mean {dotted(meant)!r}?"
    # The key itself, one level in: written too far left.
    if isinstance(meant[-2], int):
        items = dotted(meant[:-2])
        return f": it is a key of each item of {items!r}; indent it as far as the item's other keys"
    return f": it is a key of {dotted(meant[:-1])!r}; indent it under `{meant[-2]}:`"


def _meant_key(loc: Path, model: type[BaseModel] | None, empty: set[Path]) -> Path | None:
    """The key an unknown one probably stands for, by its whole path: a key one level in
    (`causes` for `facets.causes`, `publisher` for `sources[0].publisher`), written too far
    left; or a misspelt key at the same level, at the top (`symptoms`) or within
    (`facets.cause`, `sources[0].titel`). A misspelling is taken first, unless the key one
    level in, or the mapping holding it, is missing or empty (`empty`). None for any other
    key."""
    parent, key = loc[:-1], loc[-1] if loc else None
    within = _model_at(model, parent) if model is not None else None
    if within is None or not isinstance(key, str):
        return None
    if key_slip(key) is not None:  # (`title： "A: B"`: the key `title` typed with `：`)
        typed = _TYPED_KEY.match(key)
        return (*parent, typed.group()) if typed and typed.group() in within.model_fields else None
    inner = _inner_key(within, parent, key)
    if inner is not None and (inner in empty or inner[: len(parent) + 1] in empty):
        return inner
    close = difflib.get_close_matches(key, list(within.model_fields), n=1, cutoff=0.7)
    return (*parent, close[0]) if close else inner


def _inner_key(model: type[BaseModel], loc: Path, key: str) -> Path | None:
    """Where `key` is a key of a mapping `model` holds at `loc`, directly or as the items
    of a list (then as of the first item)."""
    for name, field in model.model_fields.items():
        inner = _model_in(field.annotation)
        if inner is not None and key in inner.model_fields:
            return (*loc, name, 0, key) if _holds_list(field.annotation) else (*loc, name, key)
    return None


def _holds_list(annotation: Any) -> bool:
    """Whether a field is a list (`list[X]`, or `list[X] | None`)."""
    if get_origin(annotation) is list:
        return True
    return any(get_origin(option) is list for option in get_args(annotation))


def _model_at(model: type[BaseModel], loc: Path) -> type[BaseModel] | None:
    """The model of the mapping at `loc` within `model`; None where there is none."""
    for part in loc:
        if isinstance(part, int):  # an item of a list: `_model_in` looked through the list
            continue
        field = model.model_fields.get(part)
        found = _model_in(field.annotation) if field is not None else None
        if found is None:
            return None
        model = found
    return model


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The model a field holds: itself, as a list's items, or as an option (`X | None`)."""
    if get_origin(annotation) is None and isinstance(annotation, type):
        return annotation if issubclass(annotation, BaseModel) else None
    return next(filter(None, map(_model_in, get_args(annotation))), None)
