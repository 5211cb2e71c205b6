"""The comments of a YAML text, found by the libyaml scanner rather than by guessing.

A comment is whatever is not white space in the gaps between tokens, plus the comment a
block scalar's header line may carry (`symptom: |  # ...`), which the scanner folds into
the scalar's token. Used to prove that a rewrite kept every comment.
"""

from __future__ import annotations

import re

import yaml

try:
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

_COMMENT = re.compile(r"#[^\n\r]*")


def comments(text: str) -> list[str]:
    """Every comment in `text`, in order, without trailing white space.

    `text` must be scannable YAML (the caller has loaded it); a scanner error propagates.
    """
    found: list[str] = []
    end = 0
    for token in yaml.scan(text, Loader=_Loader):
        start = token.start_mark.index
        found += _COMMENT.findall(text, end, start) if start > end else []
        if isinstance(token, yaml.ScalarToken) and token.style in ("|", ">"):
            header_end = text.find("\n", start, token.end_mark.index)
            header = text[start : header_end if header_end >= 0 else token.end_mark.index]
            found += _COMMENT.findall(header)
        end = max(end, token.end_mark.index)
    found += _COMMENT.findall(text, end)
    return [comment.rstrip() for comment in found]
