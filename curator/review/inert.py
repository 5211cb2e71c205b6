"""Make text from incident files inert in GitHub-flavoured Markdown.

Anything an incident (or a forged report) holds is shown as the characters it is, never
interpreted: no HTML, no link, image, heading, emphasis, code or table syntax, no autolinked
URL, and no `@mention`, `@org/team` or `#123` reference that would notify someone or
cross-link an issue. The result is one line that is safe anywhere, the start of a line
included (an incident without an id has its title there): no block syntax (list, rule,
heading, quote, fence, table) can begin in it.

How, in this order:
1. control, format (zero-width, bidi) and line-break characters become one space, and
   spaces at the ends go (no indented code block); in a file name, or a message that may
   quote one (`inert_name`), they are written as escapes instead, as the CLI prints them;
2. `&`, `<`, `>` become entities: no tag (`</details>`, `<img>`), comment, autolink or quote;
3. ASCII punctuation with a meaning in Markdown gets a backslash;
4. what would open a block only at the start of a line gets a backslash there: a leading
   `-`, `+` or `=` (bullet, rule, setext underline) and the `.` after leading digits
   (`2023. 3. 8.` would be an ordered list); CommonMark reads any escaped ASCII punctuation
   as the character itself, so this is invisible wherever the text ends up;
5. a zero-width space (as the entity `&#8203;`) is put after every `@`, after a `#` or a
   `GH-` that precedes a digit (`GH-26` is an issue reference too), inside `://` and
   `www.`, and after the `:` that opens an emoji shortcode (`:fire:` would show as a
   picture): GitHub's mention, reference, autolink and emoji matchers need those
   characters adjacent, and a reader sees no difference.

A lint message (`inert_message`) may keep a code span, where its text holds one shaped like
a command or a key, whoever wrote it: GitHub reads nothing inside one, and that shape holds
nothing that could end it or act outside it.
"""

from __future__ import annotations

import re
import shlex
from urllib.parse import quote

from curator.oneline import escaped, shorten, shown

ZWSP = "&#8203;"
_MARKDOWN = re.compile(r"([\\`*_\[\]{}()#!|~$])")
# Block markers that other punctuation escaping leaves alone: `*`, `_`, `#`, `>`, `|`, `)`
# and the fence characters are escaped or made entities wherever they are.
_LINE_START = re.compile(r"^(?:[-+=]|[0-9]{1,9}(?=\.))")
# One pass, so that the `#` of an inserted `&#8203;` is never matched again.
_NOTIFIERS = re.compile(
    r"@|#(?=[0-9])|(?i:\bGH-)(?=[0-9])|(?<=[A-Za-z]):(?=//)|(?i:\bwww)(?=\.)|:(?=[A-Za-z0-9_+-]+:)"
)
# What `inert` writes, one piece at a time: an escape, an entity, or a character.
_TOKENS = re.compile(r"\\.|&#?[A-Za-z0-9]+;|.", re.DOTALL)
_TICK = "\\`"  # a backtick, escaped
# What a span `inert_message` shows as code may hold after its first letter (`\_`: `_`).
_IN_CODE = re.compile(r"[A-Za-z0-9 :.-]|\\_")


def inert(text: str, limit: int = 500) -> str:
    """`text` as inline Markdown that renders exactly as the characters it holds."""
    # A file name that is not UTF-8 holds lone surrogates (PEP 383): shown as `\udcff`, as
    # the CLI prints them, since no UTF-8 or UTF-16 text (a comment, a summary) can hold one.
    text = shown(text.encode("utf-8", "backslashreplace").decode("utf-8"), limit)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MARKDOWN.sub(r"\\\1", text)
    text = _LINE_START.sub(_escape_line_start, text, count=1)
    return _NOTIFIERS.sub(lambda m: m.group(0) + ZWSP, text)


def inert_name(text: str, limit: int = 200) -> str:
    """A file name, or a lint message that may quote one, as `inert` makes it, but with each
    control, format and line-break character written as its escape (`\\u202e`), as
    `curator lint` prints it: made a space, it would name a file that is not there."""
    return inert(escaped(text), limit)


def inert_message(text: str, limit: int = 500) -> str:
    """A lint message as `inert_name` makes it, but for each span between single backticks
    shaped like a command or a key (`curator assign-ids`, `duplicate_of`), which is shown
    as code, where its backticks were shown as such. Only the shape counts, never whose
    text it is (a message may quote the file): the span starts with an ASCII letter and
    holds only ASCII letters, digits, spaces and `_:.-`, which as code can be no mention,
    reference, link, tag or emoji, nor end the span; and no backtick, letter or digit is
    next to it. It is found in what `inert_name` made, where every backtick of the text is
    escaped and every backslash starts an escape, so that everything around it is as
    `inert_name` makes it, and a span in which it broke a mention or a URL (`www.` with a
    zero-width space after it) stays as it was."""
    tokens = _TOKENS.findall(inert_name(text, limit))
    shown: list[str] = []
    start = 0
    while start < len(tokens):
        end = _code_span_end(tokens, start)
        if end is None:
            shown.append(tokens[start])
            start += 1
            continue
        shown.append("`" + "".join(token[-1] for token in tokens[start + 1 : end]) + "`")
        start = end + 1
    return "".join(shown)


def _code_span_end(tokens: list[str], start: int) -> int | None:
    """Where the span `inert_message` shows as code that starts at `tokens[start]` ends."""
    if tokens[start] != _TICK or not _apart(tokens, start - 1):
        return None
    first = tokens[start + 1] if start + 1 < len(tokens) else ""
    if not (first.isascii() and first.isalpha()):
        return None
    end = start + 1
    while end < len(tokens) and _IN_CODE.fullmatch(tokens[end]):
        end += 1
    if end < len(tokens) and tokens[end] == _TICK and _apart(tokens, end + 1):
        return end
    return None


def _apart(tokens: list[str], index: int) -> bool:
    """No backtick, letter or digit at `index` (outside the text: none)."""
    if not 0 <= index < len(tokens):
        return True
    return tokens[index] != _TICK and not tokens[index].isalnum()


def command(words: str, path: str, limit: int = 200) -> str:
    """`words PATH` as a code span to copy: GitHub reads no Markdown, entity, mention or link
    inside one, so the path goes in as `curator lint` names it (shell-quoted when it must
    be), not escaped for Markdown, whose backslashes a code span would show. Only what
    could end the span is seen to: a line break is an escape by then, and the span is
    delimited by more backticks than any run inside it."""
    name = escaped(path).encode("utf-8", "backslashreplace").decode("utf-8")
    text = f"{words} {shlex.quote(shorten(name, limit))}"
    # (Quoted, a path with a backtick ends in a quote: no space is needed before the fence.)
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    return f"{fence}{text}{fence}"


def _escape_line_start(marker: re.Match[str]) -> str:
    found = marker.group(0)
    return "\\" + found if found in "-+=" else found + "\\"


def link(label: str, url: str) -> str:
    """A Markdown link whose label is inert; `url` must be built by the caller from trusted
    parts and `url_path` segments."""
    return f"[{label}]({url})"


def url_path(path: str) -> str:
    """A repository path as a URL path: every character that could end the link or the path
    (space, parentheses, `#`, `?`, quotes) percent-encoded; a name that is not UTF-8 as the
    bytes it is (`%FF`), which is how GitHub names it."""
    return quote(path, safe="/", errors="surrogateescape")
