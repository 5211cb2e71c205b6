"""No character that no reader sees where text means none: a zero-width character, white
space padding a one-line value, a line break in one.

U+200B ZERO WIDTH SPACE, U+2060 WORD JOINER, U+FEFF (a byte-order mark past the start of
the file) and U+180E MONGOLIAN VOWEL SEPARATOR show as nothing, so a word holding one
looks whole, but a search for it (on the website, with `grep`) does not find it, and
tools comparing text see another word. So do the bidirectional controls, which besides
reorder the text after them as it displays ("Trojan Source": on the website, in the
feed): the overrides and embeddings U+202A to U+202E, the isolates U+2066 to U+2069, and
the marks U+200E, U+200F and U+061C, which reorder nothing in text that is Korean and
English, left to right, but hide a word as the others do. They come with text copied from
web pages and chat, and no incident means one (a name in Arabic or Hebrew displays right
to left without them). Reported once per file, at the first, with how many there are;
`curator fix` removes them, in values, keys and comments alike, each that it can. Where
taking one out of the text would change more than that character (`- Example ` + U+200B +
`#1` would start a comment), fix takes it out of the value alone (the layout then quotes
the value); one in a key that would then be another key of its mapping, it leaves, and
says so, and the others go. A U+FEFF it leaves (the layout cannot write one) leaves the
file to its author. The finding says what fix does with the first (and why it leaves
it), and is marked fixable where fix takes it out. One a double-quoted value writes as an
escape (`"\\u200b"`) is reported at the value, when the text holds none as itself, and
removed too. U+200C ZERO WIDTH NON-JOINER and U+200D ZERO WIDTH JOINER are left alone:
scripts and emoji need them.

The title, each organization and each source's title and publisher are one line: the
website's lists, the Atom feed and the CSV export show them so, and they are matched as
written (`"Lablup "` is not the organization `Lablup`). White space at either end of one,
which only quotes or a block can keep, is reported at the value; `curator fix` removes
it. A line break inside one (`title: |` and two lines) is reported at the value and left
to its author (the finding is not marked fixable), who alone knows whether the lines are
one sentence or the second belongs in `symptom`.
"""

import json
import re
import unicodedata
from collections.abc import Iterator
from typing import Any, NamedTuple

from curator.document import Path, text_values
from curator.findings import Finding, Severity
from curator.load import Loaded, Position, load_bytes, position_at
from curator.model import Incident
from curator.rules._spaces import not_fixable, scalars
from curator.rules.base import FileFindings, IncidentFile, Rule
from curator.schema_errors import dotted
from curator.unseen import REORDERING, ZERO_WIDTH, ZeroWidth, zero_width
from curator.write.edits import tries

RULE = Rule(
    code="IL606",
    name="invisible-characters",
    severity=Severity.ERROR,
    summary="A zero-width character (a bidirectional control too), or a one-line value "
    "(title, organization, source title or publisher) padded with white space or broken "
    "over lines.",
    failing='title: "GPU 장\\u200b애"   # U+200B inside the word\norganizations:\n  - "Lablup "\n',
    passing="title: GPU 장애\norganizations:\n  - Lablup\n",
    fixable=True,
)

_SHOWN = 8  # characters of a run of padding named
# White space that Unicode gives no name (`unicodedata.name` has none for controls).
_CONTROL_NAMES = {"\n": "LINE FEED", "\t": "CHARACTER TABULATION", "\r": "CARRIAGE RETURN"}


def check(file: IncidentFile) -> FileFindings:
    text = file.loaded.text
    if text is None:
        return
    found = zero_width(text, encoded=file.loaded.raw)  # (the text's bytes: see there)
    if found is not None:
        yield _zero_width_finding(file, found)
    # Nearly every file holds no backslash: one scan for it is 0.6 µs, one for `\u` 10.
    elif "\\" in text and ("\\u" in text or "\\U" in text):
        yield from _escaped_zero_width(file)
    yield from _one_line_findings(file)


def without_zero_width(text: str) -> str:
    """`text` (after the byte-order mark) less its zero-width characters."""
    for char in ZERO_WIDTH:
        text = text.replace(char, "")
    return text


def removable(loaded: Loaded, after: Loaded | None = None) -> bool:
    """Whether the text without its zero-width characters (`after`, when it was read
    already) reads as the same values less them: nothing else changes. A text that cannot
    be read yet is taken as it is, as the white-space fixes take it (`curator fix` repairs
    what it can, and then leaves a file it still cannot read)."""
    if loaded.text is None or loaded.document is None:
        return loaded.text is not None
    after = after or load_bytes(without_zero_width(loaded.text).encode("utf-8"))
    return _reads_as(loaded, after)


def _reads_as(loaded: Loaded, after: Loaded) -> bool:
    """Whether `after` reads as `loaded`, less zero-width characters in both (one a
    double-quoted value writes as an escape stays)."""
    return (
        after.document is not None
        and [p.kind for p in after.problems] == [p.kind for p in loaded.problems]
        and less_zero_width(after.data) == less_zero_width(loaded.data)
    )


class Removal(NamedTuple):
    """What `curator fix` makes of the zero-width characters of a text: the text less those
    it takes out of it (`removed`, their offsets in the text it was given), and the offsets
    of those it leaves there: those whose going would change more than them (`kept`), and
    those it had no reads left to try (`untried`)."""

    text: str
    removed: list[int]
    kept: list[int]
    untried: list[int]


def removal(loaded: Loaded) -> Removal:
    """All of them at once where that changes nothing else (`removable`: one read, the usual
    case); else each that can go alone, tried one after another, as far as `tries` allows
    (one in a key that would make a duplicate key stays, the others go)."""
    text = loaded.text or ""
    places = [found.start() for found in _ZERO_WIDTH.finditer(text)]
    if removable(loaded):
        return Removal(without_zero_width(text), places, [], [])
    budget = tries(text)
    removed: list[int] = []
    kept: list[int] = []
    for place in places[:budget]:
        tried = load_bytes(_less(text, [*removed, place]))
        (removed if _reads_as(loaded, tried) else kept).append(place)
    return Removal(_less(text, removed).decode("utf-8"), removed, kept, places[budget:])


def _less(text: str, places: list[int]) -> bytes:
    """`text` without the characters at `places`, encoded."""
    pieces, at = [], 0
    for place in sorted(places):
        pieces.append(text[at:place])
        at = place + 1
    return ("".join(pieces) + text[at:]).encode("utf-8")


_ZERO_WIDTH = re.compile("|".join(map(re.escape, ZERO_WIDTH)))
NOT_TRIED = "not tried (too many in a file this size); remove it by hand"


def left(loaded: Loaded) -> list[tuple[int, str | None]]:
    """The zero-width characters of a text that `curator fix` made (`removal`), each with
    why it is left (`why_kept`), as far as `tries` allows; the others, not tried."""
    places = [found.start() for found in _ZERO_WIDTH.finditer(loaded.text or "")]
    budget = tries(loaded.text or "")
    return [(place, why_kept(loaded, place)) for place in places[:budget]] + [
        (place, NOT_TRIED) for place in places[budget:]
    ]


def why_kept(loaded: Loaded, place: int) -> str | None:
    """Why `curator fix` leaves the zero-width character at `place` of the text (one that
    `removal` keeps) and what to do instead, as lint, fmt and fix say it; None where fix
    takes it out of its value alone (`- Example <U+200B>#1`, written `'Example #1'`),
    which it cannot do with a U+FEFF, which the layout cannot write. Taken out by hand, it
    would change the same: a key made one its mapping has already (the usual case:
    `sta<U+200B>tus:` under `status:`) or a plain value made another. One that would go
    alone is one fix had no reads left to try."""
    text = loaded.text or ""
    where = position_at(text, place)
    after = load_bytes(_less(text, [place]))
    if _reads_as(loaded, after):
        return NOT_TRIED
    clash = key_made_again(loaded, where)
    if clash is not None:
        return clash
    in_value = _value_at(loaded, where) is not None
    if in_value and text[place] != "\ufeff":
        return None
    quoted = quoted_instead(loaded, where) if in_value else None
    if quoted is not None:
        return quoted
    if after.document is None or [p.kind for p in after.problems] != [
        p.kind for p in loaded.problems
    ]:
        why = after.problems[0] if after.problems else None
        said = f" (line {why.position.line}: {why.message})" if why else ""
        return f"without it the file would read otherwise{said}; fix it by hand"
    path = _first_difference(less_zero_width(loaded.data), less_zero_width(after.data))
    return f"without it {dotted(path) or 'the file'} would read otherwise; fix it by hand"


def key_made_again(loaded: Loaded, where: Position | None = None) -> str | None:
    """A key that without its zero-width characters is one its mapping has already (the key
    holding `where`, if given), said with what to do (taking them out by hand makes the
    same duplicate); else None."""
    keys = loaded.document.key_positions if loaded.document is not None else {}
    clash = _clash(keys, (loaded.text or "").split("\n"), where)
    if clash is None:
        return None
    key, line, name, first = clash
    return (
        f"without its zero-width characters the key {key!r} on line {line} would be "
        f"{name!r}, which its mapping has on line {first} already; merge or rename the "
        "two keys by hand"
    )


def _clash(
    keys: dict[Path, Position], lines: list[str], where: Position | None
) -> tuple[str, int, str, int] | None:
    """The first key holding a zero-width character (the one holding `where`, if given)
    that is, without them, another key of its mapping, with its line, the other key and
    its line."""
    named: dict[Path, list[tuple[Position, Path]]] = {}
    for path, start in keys.items():
        if all(isinstance(part, str | int) for part in path):
            named.setdefault(tuple(map(less_zero_width, path)), []).append((start, path))
    clashes = []
    for same in named.values():
        if len(same) > 1:
            same.sort()
            hidden = [
                (start, path)
                for start, path in same
                if _count(str(path[-1]))
                and (where is None or _holds(lines, start, str(path[-1]), where))
            ]
            if hidden:
                start, path = hidden[0]
                other = next(s for s, p in same if p != path)
                clashes.append((start, str(path[-1]), other))
    if not clashes:
        return None
    start, key, other = min(clashes)
    return key, start.line, less_zero_width(key), other.line


def _holds(lines: list[str], start: Position, key: str, where: Position) -> bool:
    """Whether the key written from `start` holds `where` (a key stands on one line; one
    in quotes is two characters longer)."""
    quoted = lines[start.line - 1][start.column - 1 : start.column] in ("'", '"')
    return start.line == where.line and 0 <= where.column - start.column < len(key) + 2 * quoted


def _first_difference(before: Any, after: Any, path: Path = ()) -> Path:
    """The path of the first value (or mapping) that `after` holds otherwise than `before`."""
    if isinstance(before, dict) and isinstance(after, dict) and list(before) == list(after):
        for key in before:
            if before[key] != after[key]:
                return _first_difference(before[key], after[key], (*path, key))
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (one, other) in enumerate(zip(before, after, strict=True)):
            if one != other:
                return _first_difference(one, other, (*path, index))
    return path


def quoted_instead(loaded: Loaded, where: Position) -> str | None:
    """What to do with a zero-width character at `where` in a plain value (`- Example:<U+FEFF>
    Co`) that without it would read otherwise (a mapping, `Example: Co`, or a syntax error),
    one that `removal` keeps: take it out and quote the value, written as it would then
    be, where "remove it" made the mapping; None if it is in no plain value."""
    found = _value_at(loaded, where)
    if found is None or loaded.text is None:
        return None
    start, value = found
    lines = loaded.text.split("\n")
    if not isinstance(value, str) or lines[start.line - 1][start.column - 1] in "'\"|>":
        return None
    quoted = json.dumps(less_zero_width(value), ensure_ascii=False)
    # (`curator fix` does so itself, but with a U+FEFF, which the layout cannot write.)
    by_hand = " by hand" if lines[where.line - 1][where.column - 1] == "\ufeff" else ""
    return (
        "without it the plain value would read otherwise; remove it and put "
        f"the value in double quotes{by_hand} ({quoted})"
    )


def _value_at(loaded: Loaded, where: Position) -> tuple[Position, Any] | None:
    """The value (not a key) whose text holds `where`, and where it starts; None if none."""
    if loaded.text is None or loaded.document is None:
        return None
    for start, end, path in scalars(loaded.document, loaded.text.split("\n")):
        if start <= where < end:
            value: Any = loaded.document.data
            for part in path:
                value = value[part]
            return start, value
    return None


def less_zero_width(value: Any) -> Any:
    """`value` (text, or a list or mapping of values) without zero-width characters."""
    if isinstance(value, str):
        for char in ZERO_WIDTH:
            value = value.replace(char, "")
        return value
    if isinstance(value, dict):
        return {less_zero_width(k): less_zero_width(v) for k, v in value.items()}
    if isinstance(value, list):
        return [less_zero_width(item) for item in value]
    return value


def _zero_width_finding(file: IncidentFile, found: ZeroWidth) -> Finding:
    text = file.loaded.text or ""  # (found in it)
    after = load_bytes(without_zero_width(text).encode("utf-8"))
    # `curator fix` removes those a double-quoted value writes as escapes too: counted
    # apart, they are what the values hold once the text holds none.
    escaped = sum(_count(value) for _, value in zero_width_values(after.data))
    total = found.total + escaped
    form = "an escape" if escaped == 1 else "escapes"
    written = f", {escaped} of them written as {form}" if escaped else ""
    more = f" ({total} zero-width characters in the file{written})" if total > 1 else ""
    fixable, advice = (
        (True, "remove it") if removable(file.loaded, after) else _advice(file.loaded, found)
    )
    finding = RULE.at(
        file.display,
        found.position,
        f"U+{ord(found.char):04X} {ZERO_WIDTH[found.char]}, which {_does(found.char)}{more}; "
        f"{advice}",
    )
    return finding if fixable else not_fixable(finding)


def _advice(loaded: Loaded, found: ZeroWidth) -> tuple[bool, str]:
    """Whether `curator fix` takes out the first zero-width character (`found`), the one
    lint reports, and what to do with it, as fix says it: taken out by hand, one in a key
    can make a duplicate key, and one in a plain value another value. Not fixable where
    fix leaves a U+FEFF anywhere: the layout cannot write it, and fix leaves the file."""
    text = loaded.text or ""  # (found in it)
    place = text.find(found.char)
    left = removal(loaded)
    kept = [*left.kept, *left.untried]
    why = why_kept(loaded, place) if place in kept else None
    if why is not None:
        return False, why
    taken = "`curator fix` takes it out of the value alone"
    advice = (quoted_instead(loaded, found.position) or taken) if place in kept else "remove it"
    mark = next((other for other in kept if text[other] == "\ufeff"), None)
    if mark is None:
        return True, advice
    line, column = position_at(text, mark)
    return False, (
        f"{advice}; `curator fix` leaves the file for the U+FEFF at {line}:{column}: "
        f"{why_kept(loaded, mark)}"
    )


def _shows(char: str) -> str:
    """What `char` does to the text it is in, as a reader sees it."""
    if char in REORDERING:
        return "shows as nothing and reorders the text after it as it displays"
    return "shows as nothing"


def _does(char: str) -> str:
    if char in REORDERING:
        return _shows(char)
    return "shows as nothing and hides the word it is in from searches"


def _count(text: str) -> int:
    return sum(text.count(char) for char in ZERO_WIDTH)


def zero_width_values(value: Any, path: Path = ()) -> Iterator[tuple[Path, str]]:
    """The text values (not keys) holding a zero-width character, with their paths."""
    for where, text in text_values(value, path):
        if any(char in text for char in ZERO_WIDTH):
            yield where, text


def _escaped_zero_width(file: IncidentFile) -> FileFindings:
    """A zero-width character a double-quoted value writes as an escape (`"\\u200b"`): in
    sight in the file, not on the website, and `curator fmt` writes it as itself."""
    # (A value of nothing visible is IL201's to report.)
    found = [(p, v) for p, v in zero_width_values(file.loaded.data) if less_zero_width(v).strip()]
    if not found:
        return
    path, value = found[0]
    index, char = next((i, c) for i, c in enumerate(value) if c in ZERO_WIDTH)
    more = f" ({len(found)} values hold one)" if len(found) > 1 else ""
    yield RULE.at(
        file.display,
        file.position(*path),
        f"{dotted(path)} holds U+{ord(char):04X} {ZERO_WIDTH[char]} (character "
        f"{index + 1}, written as an escape), which {_shows(char)}{more}; remove it",
    )


def one_line_values(data: Any) -> list[tuple[Path, str]]:
    """The values that are one line (title, organizations, sources' titles and
    publishers) that are text, with their paths."""
    if not isinstance(data, dict):
        return []
    values: list[tuple[Path, Any]] = [(("title",), data.get("title"))]
    organizations = data.get("organizations")
    if isinstance(organizations, list):
        values += [(("organizations", i), name) for i, name in enumerate(organizations)]
    sources = data.get("sources")
    for i, source in enumerate(sources if isinstance(sources, list) else ()):
        if isinstance(source, dict):
            values += [(("sources", i, key), source.get(key)) for key in ("title", "publisher")]
    return [(path, value) for path, value in values if isinstance(value, str)]


def padding(value: str) -> tuple[str, str] | None:
    """The white space starting and ending a one-line `value`; None if there is none to
    take away: none at all, a line break inside it (which is reported instead), or
    nothing but white space and zero-width characters (IL201's: no visible character)."""
    stripped = value.strip()
    if stripped == value or not less_zero_width(stripped) or "\n" in stripped:
        return None
    return value[: len(value) - len(value.lstrip())], value[len(value.rstrip()) :]


def _one_line_findings(file: IncidentFile) -> FileFindings:
    if file.incident is not None and _all_one_line(file.incident):
        return  # (the usual case, told without paths or positions)
    for path, value in one_line_values(file.loaded.data):
        if value.strip() != value or "\n" in value:
            yield from _one_line_value(file, path, value)


def _all_one_line(incident: Incident) -> bool:
    """Whether each one-line value of `incident` is one line, with nothing around it."""
    texts = [incident.title, *incident.organizations]
    for source in incident.sources:
        texts.append(source.title)
        if source.publisher is not None:
            texts.append(source.publisher)
    for text in texts:  # noqa: SIM110 - for so few, cheaper than all()
        if text.strip() != text or "\n" in text:
            return False
    return True


def _one_line_value(file: IncidentFile, path: Path, value: str) -> FileFindings:
    name = dotted(path)
    where = file.position(*path)
    line_break = value.strip().find("\n")
    if line_break >= 0:
        column = len(value) - len(value.lstrip()) + line_break + 1
        yield not_fixable(
            RULE.at(
                file.display,
                where,
                f"{name} holds a line break (U+000A LINE FEED, character {column}): it is "
                "one line in the website's lists, the feed and the CSV; write it on one line",
            )
        )
        return
    ends = padding(value)
    if ends is None:
        return
    head, tail = ends
    said = [f"starts with {_run(head)}"] if head else []
    said += [f"ends in {_run(tail)}"] if tail else []
    yield RULE.at(
        file.display,
        where,
        f"{name} {' and '.join(said)}: white space around a one-line value; remove it",
    )


def _run(white: str) -> str:
    if len(white) == 1:
        return f"U+{ord(white):04X} {_space_name(white)}"
    points = " ".join(f"U+{ord(c):04X}" for c in white[:_SHOWN])
    return f"{len(white)} white-space characters ({points}{' …' if len(white) > _SHOWN else ''})"


def _space_name(char: str) -> str:
    if char in _CONTROL_NAMES:
        return _CONTROL_NAMES[char]
    return unicodedata.name(char, "WHITE SPACE")
