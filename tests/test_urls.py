import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from curator import urls
from curator.urls import normalize_url, url_problem


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("https://www.example.com/a/", "http://example.com/a"),
        ("https://example.com/a#section", "https://EXAMPLE.com/a"),
        ("https://example.com/a?utm_source=x&id=3&fbclid=y", "https://example.com/a?id=3"),
        ("https://example.com:443/a", "https://example.com/a"),
        (
            "https://web.archive.org/web/20230101000000/https://example.com/a/",
            "https://example.com/a",
        ),
        ("https://web.archive.org/web/2023*/example.com/a", "https://example.com/a"),
        ("https://example.com/a?b=2&a=1", "https://example.com/a?a=1&b=2"),
    ],
)
def test_same_page_normalises_the_same(a, b):
    assert normalize_url(a) == normalize_url(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("https://example.com/a", "https://example.com/b"),
        ("https://example.com/a?id=1", "https://example.com/a?id=2"),
        ("https://example.com:8443/a", "https://example.com/a"),
        ("https://a.example.com/x", "https://b.example.com/x"),
    ],
)
def test_different_pages_stay_different(a, b):
    assert normalize_url(a) != normalize_url(b)


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http://example.com", "uses http"),
        ("ftp://example.com/x", "uses ftp"),
        ("example.com/x", "uses no scheme"),
        ("https://localhost/x", "no valid host"),
        ("https://exa mple.com/x", "white space"),
        ("https://example.com:99999/x", "malformed"),
    ],
)
def test_url_problems(url, problem):
    assert problem in (url_problem(url) or "")


def test_good_url_has_no_problem():
    assert url_problem("https://status.openai.com/incidents/tljwlz08w539") is None


_HOSTS = [
    "example.com",
    "www.example.com",
    "EXAMPLE.com",
    "web.archive.org",
    "archive.org",
    "a.b-c.d",
    "localhost",
    ".example.com",
    "example.com.",
    "a..b",
    "example.com:443",
    "user@example.com",
    "exa mple.com",
    "[::1]",
]
_URLS = st.builds(
    lambda lead, scheme, host, path: lead + scheme + host + path,
    st.sampled_from(["", " ", "\t"]),
    st.sampled_from(["https://", "http://", "HTTPS://", "https:/", ""]),
    st.sampled_from(_HOSTS),
    st.text(alphabet="aZ09._~!$&'()*+,;=:@%-/?#[] \t\n한", max_size=16),
)


@settings(max_examples=3000, deadline=None)
@given(_URLS)
def test_the_plain_url_shortcut_changes_no_answer(url):
    """`urls` answers plain https URLs without parsing them; the answers are the same."""
    from curator.rules.source_url_form import tidy

    def answers() -> tuple[object, ...]:
        url_problem.cache_clear()
        return normalize_url(url), url_problem(url), tidy(url)

    shortcut = answers()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(urls, "_PLAIN", re.compile(r"(?!)"))  # matches nothing
        assert answers() == shortcut
    url_problem.cache_clear()
