"""Patterns written `^…$` must match the whole text: Python's `re.match` lets `$` match
before a final line break, so `"IL-0007\n"` passed as a numbered id and `"<sha>\n"` as a
commit. Each check that judges a whole value uses `fullmatch`."""

from __future__ import annotations

import pytest

from curator.github.verify import valid_sha
from curator.ids import number_of
from curator.review.links import Links, valid_repository
from curator.rules.incident_removed import removed_id
from curator.rules.placeholder_id import is_placeholder

SHA = "0123456789abcdef0123456789abcdef01234567"


@pytest.mark.parametrize("tail", ["", "\n"])
def test_an_id_with_a_final_line_break_is_no_id(tail):
    whole = tail == ""
    assert number_of("IL-0007" + tail) == (7 if whole else None)
    assert is_placeholder("IL-NEW-gpu" + tail) is whole
    quoted = '"IL-0007\\n"' if tail else "IL-0007"
    raw = f"id: {quoted}\nstatus: published\n".encode()
    assert removed_id(raw) == (("IL-0007", 1, 5) if whole else None)


def test_a_commit_or_a_repository_with_a_final_line_break_is_refused():
    assert valid_sha(SHA) and not valid_sha(SHA + "\n")
    assert valid_repository("octo-org/lib") and not valid_repository("octo-org/lib\n")
    links = Links(repository="octo-org/lib")
    assert links.blob(SHA, "incidents/IL-0001.yaml") is not None
    assert links.blob(SHA + "\n", "incidents/IL-0001.yaml") is None
    assert links.commit(SHA + "\n") is None
    with pytest.raises(ValueError, match="not a server URL"):
        Links(server="https://github.com\n")
