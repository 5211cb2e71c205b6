import pytest

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
