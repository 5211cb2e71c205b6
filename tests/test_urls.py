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
        # Dot segments, and the spellings of one percent-encoding (RFC 3986 §6.2.2).
        ("https://example.com/a/./b", "https://example.com/a/b"),
        ("https://example.com/a/x/../b/", "https://example.com/a/b"),
        ("https://example.com/a/%2E%2E/b", "https://example.com/b"),
        ("https://example.com/../a/.", "https://example.com/a"),
        ("https://example.com/%6Aobs/%7Euser", "https://example.com/jobs/~user"),
        ("https://example.com/a%2fb", "https://example.com/a%2Fb"),
        ("https://example.com/%ed%95%9c%EA%B8%80", "https://example.com/%ED%95%9C%EA%B8%80"),
        (
            "https://blog.example.kr/%ED%95%9C%EA%B8%80-%EC%9E%A5%EC%95%A0",
            "https://blog.example.kr/한글-장애",
        ),
        ("https://example.com/a/./b?x=%6A", "http://example.com/a/b/?x=j"),
        # A %XX run cut short (an address pasted to its limit) or not UTF-8: the whole
        # characters before the bytes that are none are decoded as they are written alone.
        ("https://example.com/%C3%A9%ED%95", "https://example.com/é%ed%95"),
        ("https://example.com/%ED%95%9C%ED%95", "https://example.com/한%ED%95"),
        ("https://example.com/%ED%9C%ED%95%9C", "https://example.com/%ed%9c한"),
        ("https://example.com/%ED%A0%80", "https://example.com/%ed%a0%80"),  # a surrogate
        # One paper at its many addresses: versions, formats, mirrors, its DOI.
        ("https://arxiv.org/abs/2402.15627v2", "https://arxiv.org/abs/2402.15627"),
        ("https://arxiv.org/pdf/2402.15627v1.pdf", "https://arxiv.org/abs/2402.15627"),
        ("https://arxiv.org/pdf/2402.15627", "https://www.arxiv.org/abs/2402.15627/"),
        ("https://arxiv.org/html/2402.15627v1", "https://arxiv.org/abs/2402.15627"),
        ("https://export.arxiv.org/abs/2402.15627", "https://arxiv.org/abs/2402.15627"),
        ("https://huggingface.co/papers/2402.15627", "https://arxiv.org/abs/2402.15627"),
        ("https://www.alphaxiv.org/abs/2402.15627", "https://arxiv.org/abs/2402.15627"),
        ("https://doi.org/10.48550/arXiv.2402.15627", "https://arxiv.org/abs/2402.15627"),
        ("https://arxiv.org/abs/2402.15627?context=cs.LG", "https://arxiv.org/abs/2402.15627"),
        ("https://arxiv.org/abs/hep-th/9901001v3", "https://arxiv.org/pdf/hep-th/9901001"),
        ("https://dx.doi.org/10.1145/ABC.123", "https://doi.org/10.1145/abc.123"),
        # A DOI's slash encoded, as doi.org reads it: the DOI is a name, not a path.
        ("https://doi.org/10.1000%2F182", "https://doi.org/10.1000/182"),
        ("https://dx.doi.org/10.1000%2f182", "https://doi.org/10.1000/182"),
        (
            "https://dl.acm.org/doi/10.1145%2F3651890.3672233",
            "https://doi.org/10.1145/3651890.3672233",
        ),
        ("https://doi.org/10.1000/a%2Fb", "https://doi.org/10.1000/A/B"),
        ("https://doi.org/10.48550%2FarXiv.2402.15627", "https://arxiv.org/abs/2402.15627"),
        (
            "https://dl.acm.org/doi/10.1145/3651890.3672233",
            "https://doi.org/10.1145/3651890.3672233",
        ),
        (
            "https://dl.acm.org/doi/pdf/10.1145/3651890.3672233",
            "https://doi.org/10.1145/3651890.3672233",
        ),
        (
            "https://dl.acm.org/doi/abs/10.1145/3651890.3672233",
            "https://dx.doi.org/10.1145/3651890.3672233",
        ),
        (
            "https://web.archive.org/web/2024/https://arxiv.org/pdf/2402.15627v3",
            "https://arxiv.org/abs/2402.15627",
        ),
        # An internationalised host in its letters, its ASCII (xn--) form, its cases, widths.
        ("https://한국.kr/장애", "https://xn--3e0b707e.kr/%EC%9E%A5%EC%95%A0"),
        ("https://www.한국.KR/a/", "https://XN--3E0B707E.kr/a"),
        ("https://ｂüｃｈｅｒ.de/x", "https://xn--bcher-kva.de/x"),
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
        ("https://arxiv.org/abs/2402.15627", "https://arxiv.org/abs/2402.15628"),
        ("https://huggingface.co/papers/2402.15627", "https://huggingface.co/spaces/2402.15627"),
        ("https://arxiv.org/list/cs.LG/recent", "https://arxiv.org/list/cs.DC/recent"),
        ("https://doi.org/10.1145/1", "https://doi.org/10.1145/2"),
        ("https://dl.acm.org/doi/proceedings/10.1145/1", "https://doi.org/10.1145/1"),
        # Reserved characters keep their meaning however they are written.
        ("https://example.com/a%2Fb", "https://example.com/a/b"),
        ("https://example.com/a%2F..%2Fb", "https://example.com/b"),
        ("https://example.com/a?q=x%26y", "https://example.com/a?q=x&y"),
        ("https://example.com/a%3Fq=1", "https://example.com/a?q=1"),
        ("https://example.com/a%20b", "https://example.com/a+b"),
        ("https://example.com/a%2541", "https://example.com/aA"),  # decoded once, not twice
        ("https://example.com/%E2%80%8Ba", "https://example.com/a"),
        # Bytes that are no character are kept, whatever whole characters they follow.
        ("https://example.com/%ED%95", "https://example.com/%ED%95%9C"),
        ("https://example.com/%C3%A9%ED%95", "https://example.com/é"),
        ("https://example.com/%ED%95%9C%ED%95", "https://example.com/%ED%95%9C%ED%96"),
        ("https://doi.org/10.1000%2F182", "https://doi.org/10.1000/183"),
        ("https://doi.org/10.1000%2F182", "https://doi.org/10.1000%252F182"),  # a `%2F` DOI
        ("https://example.com/10.1000%2F182", "https://example.com/10.1000/182"),  # no DOI
        ("https://example.com/..a", "https://example.com/a"),
        ("https://한국.kr/a", "https://한국.com/a"),
        ("https://xn--3e0b707e.kr/a", "https://xn--3e0b707f.kr/a"),
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
        # Pasted with what surrounded it.
        ("“https://example.com/x”", "starts with '“': write the address alone"),
        ("<https://example.com/x>", "starts with '<': write the address alone"),
        ("https://example.com/x)", "ends with a ')' that no '(' in it opens"),
        ("https://example.com/a_(b))", "ends with a ')' that no '(' in it opens"),
        # Hosts that readers take apart, or no browser goes to (found by fuzzing).
        ("https://x.com\\@y.com/", "holds a backslash"),
        ("https://x.com/a\\b", "holds a backslash"),
        ("https://a..b/", "(a..b: an empty label between two dots)"),
        (f"https://{'a' * 64}.com/", "a label longer than 63 characters"),
        ("https://1.2.3.4.5/", "(1.2.3.4.5 is no IPv4 address)"),
        ("https://example.123/", "(example.123 is no IPv4 address)"),
        ("https://[v1.x]/", "([v1.x] is no IPv6 address)"),
    ],
)
def test_url_problems(url, problem):
    assert problem in (url_problem(url) or "")


def test_good_url_has_no_problem():
    assert url_problem("https://status.openai.com/incidents/tljwlz08w539") is None
    assert url_problem("https://en.wikipedia.org/wiki/Fallacies_(computing)") is None
    assert url_problem(f"https://{'a' * 63}.com/") is None
    assert url_problem("https://1.2.3.4/x") is None


_HOSTS = [
    "example.com",
    "arxiv.org",
    "www.arxiv.org",
    "huggingface.co",
    "doi.org",
    "dx.doi.org",
    "dl.acm.org",
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
    "xn--3e0b707e.kr",
    "XN--3E0B707E.kr",
    "xn--zz.com",
    "한국.kr",
]
_URLS = st.builds(
    lambda lead, scheme, host, path: lead + scheme + host + path,
    st.sampled_from(["", " ", "\t"]),
    st.sampled_from(["https://", "http://", "HTTPS://", "https:/", ""]),
    st.sampled_from(_HOSTS),
    st.one_of(
        st.text(alphabet="aZ09._~!$&'()*+,;=:@%-/?#[] \t\n한", max_size=16),
        st.sampled_from(
            ["/abs/", "/pdf/", "/papers/", "/10.48550/arXiv.", "/doi/pdf/10.1145/"]
        ).flatmap(
            lambda page: st.from_regex(r"\A[0-9]{4}\.[0-9]{4,6}(v[0-9])?(\.pdf)?/?\Z").map(
                lambda paper: page + paper
            )
        ),
    ),
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


def test_a_host_in_full_width_letters_is_tidied_to_ascii_lower_case():
    from curator.rules.source_url_form import tidy

    # Found by fuzzing: IL505 asked for `ｅｘａｍｐｌｅ.com`, full-width still.
    assert tidy("https://ＥＸＡＭＰＬＥ.com/x") == "https://example.com/x"
    assert tidy("https://한국.KR/x") == "https://한국.kr/x"
