"""The linear replacements of issue 19's super-linear patterns agree with the patterns.

Each pattern the ReDoS analyser flagged (tests/test_redos.py) was replaced by a pattern it
proves safe or by a scanner that walks the string once (duizhao.links, duizhao.htmlscan). Here
the old pattern is the reference: on generated inputs made of the characters that matter to
it, the replacement finds the same matches with the same groups. Linearity is checked without
a clock: the scanners do all their searching through one helper (``linear.find``), and the
characters it passes over stay within a small multiple of the input's length on the shapes
that made the patterns quadratic.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duizhao import article, blockscan, htmlscan, linear, links, lock, mathscan

EXAMPLES = settings(max_examples=400, deadline=None)


def texts(alphabet: str, max_size: int = 40) -> st.SearchStrategy[str]:
    return st.text(st.sampled_from(alphabet), max_size=max_size)


# ---------------------------------------------------------------------------------------------
# Patterns made safe (no scanner): the same matches as before

OLD_BLOCK_OPEN_RE = re.compile(
    r"^ {0,3}(?P<slashes>/{3,})[ ]*(?P<name>[\w-]+)[ ]*(?:\|[ ]*(?P<arg>.*?))?[ ]*$"
)
OLD_JSON_KEY_RE = re.compile(r'\s*"((?:[^"\\]|\\.)*)"\s*:')


def _opener(m: re.Match[str] | None) -> object:
    if m is None:
        return None
    # An empty argument was "" and is now unmatched: both read as no argument.
    arg = m.span("arg") if m.group("arg") else None
    return m.span(), m.group("slashes"), m.span("name"), arg


@EXAMPLES
@given(st.text(st.sampled_from(" /|a-_\n\té"), max_size=30).map(lambda s: "///" + s))
def test_block_opener_matches_as_before(line: str) -> None:
    for text in (line, " " + line, line.lstrip("/")):
        assert _opener(blockscan._BLOCK_OPEN_RE.match(text)) == _opener(
            OLD_BLOCK_OPEN_RE.match(text)
        )


def test_block_opener_examples() -> None:
    line = "/// paragraph |  P003  "
    assert article.replace_block_argument(line, "P004") == "/// paragraph |  P004  "
    assert article.replace_block_argument("/// figure |  ", "fig-1") == "/// figure | fig-1"
    assert article.replace_block_argument("////figure", "fig-1") == "////figure | fig-1"


def _old_entry_lines(text: str) -> dict[str, int]:
    lines: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        m = OLD_JSON_KEY_RE.match(line)
        if m:
            lines.setdefault(m.group(1), number)
    return lines


@EXAMPLES
@given(texts(' "\\:a\n\t'))
def test_json_key_matches_as_before(text: str) -> None:
    assert lock._entry_lines(text) == _old_entry_lines(text)
    assert lock._entry_lines('{\n  "a\\"b": 1,\n  "c": {"d": 2}\n}') == {'a\\"b': 2, "c": 3}


# ---------------------------------------------------------------------------------------------
# Linearity without a clock: the characters the scanners pass over


class Scanned:
    """Adds up the characters :mod:`duizhao.linear` passes over while installed."""

    def __init__(self) -> None:
        self.total = 0

    def __call__(self, text: str, pos: int, end: int) -> None:
        self.total += max(end - pos, 0)


@pytest.fixture
def scanned(monkeypatch: pytest.MonkeyPatch) -> Scanned:
    counter = Scanned()
    monkeypatch.setattr(linear, "_count", counter)
    return counter


def assert_linear(scanned: Scanned, run: Callable[[str], object], fragment: str) -> None:
    """``run`` on ``fragment`` repeated passes over at most a few characters per input one,
    at every size (a quadratic scan passes over about n²/2)."""
    for repeat in (100, 1000, 4000):
        text = fragment * repeat
        scanned.total = 0
        run(text)
        assert scanned.total <= 8 * len(text) + 64, (fragment, repeat, scanned.total)


# ---------------------------------------------------------------------------------------------
# htmlscan: paragraphs, tags, comments, classes

OLD_P_RE = re.compile(r"<p(\s[^>]*)?>(.*?)</p>", re.S)
OLD_TAG_RE = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)\b[^>]*?(/?)>")
OLD_MARKUP_RE = re.compile(
    r"<!--.*?-->|<(/?)([A-Za-z][\w:-]*)((?:\"[^\"]*\"|'[^']*'|[^'\">])*)>", re.S
)
OLD_CLASS_RES = {
    ("dz-", True): re.compile(r'<[a-z][^>]*\sclass="(?:[^"]*\s)?dz-'),
    ("arithmatex", False): re.compile(r'<[a-z][^>]*\sclass="(?:[^"]*\s)?arithmatex[\s"]'),
    ("mermaid", False): re.compile(r'<[a-z][^>]*\sclass="(?:[^"]*\s)?mermaid[\s"]'),
}
HTML_ALPHABET = "<>/p \n\t'\"=-_a!B:é"


def html_like(extra: str = "") -> st.SearchStrategy[str]:
    pieces = ["<p", "</p>", "<p ", "<div>", "</div>", "<hr/>", "<!--", "-->", "<a-", "<x-_"]
    pieces += list(HTML_ALPHABET + extra)
    return st.lists(st.sampled_from(pieces), max_size=25).map("".join)


@EXAMPLES
@given(html_like())
def test_paragraphs_as_before(html: str) -> None:
    old = [(m.start(), m.end(), m.group(1), m.group(2)) for m in OLD_P_RE.finditer(html)]
    assert [tuple(p) for p in htmlscan.paragraphs(html)] == old


@EXAMPLES
@given(html_like("A9"))
def test_tags_as_before(html: str) -> None:
    old = [
        (m.start(), m.end(), m.group(1) == "/", m.group(2), m.group(3) == "/")
        for m in OLD_TAG_RE.finditer(html)
    ]
    assert [tuple(t) for t in htmlscan.tags(html)] == old


@EXAMPLES
@given(html_like("A9"))
def test_markup_as_before(html: str) -> None:
    old = [
        (m.start(), m.end(), m.group(1) or "", m.group(2), m.group(3) or "")
        for m in OLD_MARKUP_RE.finditer(html)
    ]
    assert [tuple(t) for t in htmlscan.markup(html)] == old


@EXAMPLES
@given(html_like("href=#P1 "))
def test_hrefs_are_values_of_start_tags(html: str) -> None:
    """Each href found is the text of an ``href`` attribute's value inside a start tag that
    :func:`htmlscan.markup` finds (so never in a comment), one per tag at most."""
    found = list(htmlscan.markup(html))
    tags = [t for t in found if t.name is not None and not t.closing]
    last = html.rfind("<", found[-1].end if found else 0)
    if last >= 0 and ">" not in html[last:]:  # a start tag whose ">" is on a later line
        tags.append(htmlscan.Markup(last, len(html) + 1, "", "x", ""))
    seen = set()
    for h in htmlscan.hrefs(html):
        assert html[h.start : h.end] == h.value
        (tag,) = [t for t in tags if t.start < h.start and h.end < t.end]
        assert tag.start not in seen
        seen.add(tag.start)
        assert re.search(r"href\s*=\s*['\"]?$", html[tag.start : h.start], re.I)


def classy() -> st.SearchStrategy[str]:
    pieces = ["<a", "<div ", ">", ' class="', '"', " ", "\t", "x", "dz-", "arithmatex"]
    pieces += ["mermaid", "<B", "=", "class"]
    return st.lists(st.sampled_from(pieces), max_size=20).map("".join)


@EXAMPLES
@given(classy())
def test_has_class_as_before(html: str) -> None:
    for (name, prefix), old in OLD_CLASS_RES.items():
        assert htmlscan.has_class(html, name, prefix=prefix) == bool(old.search(html)), name


def test_html_scanners_are_linear(scanned: Scanned) -> None:
    for fragment in ["<p ", "<p>", "<a", "<a-", "</a", '<a "', "<a '", "<!--", "<p <a x"]:
        assert_linear(scanned, lambda s: list(htmlscan.paragraphs(s)), fragment)
        assert_linear(scanned, lambda s: list(htmlscan.tags(s)), fragment)
        assert_linear(scanned, lambda s: list(htmlscan.markup(s)), fragment)
    for fragment in ['<a class="', '<a class="x ', ' class="dz', '<a class=" " x']:
        assert_linear(scanned, lambda s: htmlscan.has_class(s, "mermaid"), fragment)
        assert_linear(scanned, lambda s: htmlscan.has_class(s, "dz-", prefix=True), fragment)
    for fragment in [
        '<a href="#P1">',
        "<a href='",
        "<a href=x>P1",
        '<a title="href=" href',
        "<a href=#",
    ]:
        assert_linear(scanned, lambda s: list(htmlscan.hrefs(s)), fragment)
    # the old patterns on the same shapes were quadratic: a check that the shapes are hostile
    text = "<a" * 3000
    assert OLD_MARKUP_RE.search(text) is None


# ---------------------------------------------------------------------------------------------
# links: inline links and images, link destinations

OLD_INLINE_LINK_RE = re.compile(
    r"(?<!!)\[(?P<text>(?:\\.|[^\[\]\\]|\[[^\[\]\n]*\])*)\]"
    r"\(\s*(?P<url><[^<>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)"
    r"(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)"
)
OLD_LINK_OR_IMAGE_RE = re.compile(OLD_INLINE_LINK_RE.pattern.removeprefix("(?<!!)"))
OLD_DESTINATION_RE = re.compile(r"(\]\(\s*<?|^ {0,3}\[[^\]\n]*\]:\s*<?)([^/?()\[\]<>\n]*)", re.M)


def markdown_like() -> st.SearchStrategy[str]:
    pieces = ["[", "]", "(", ")", "](", "![", "\\", "\\[", "<", ">", " ", "\t", "\n", '"', "'"]
    pieces += ["a", "x:", "/", "?", "  ", "[]", "[a]: "]
    return st.lists(st.sampled_from(pieces), max_size=30).map("".join)


def _old_links(line: str, pattern: re.Pattern[str]) -> list[tuple[int, ...]]:
    return [(*m.span(), *m.span("text"), *m.span("url")) for m in pattern.finditer(line)]


@settings(max_examples=1500, deadline=None)
@given(markdown_like())
def test_inline_links_as_before(line: str) -> None:
    assert [tuple(lm) for lm in links.inline_links(line)] == _old_links(line, OLD_INLINE_LINK_RE)
    images = [tuple(lm) for lm in links.inline_links(line, images=True)]
    assert images == _old_links(line, OLD_LINK_OR_IMAGE_RE)


@settings(max_examples=1500, deadline=None)
@given(markdown_like())
def test_destinations_as_before(text: str) -> None:
    old = [(m.start(), m.end(1), m.end()) for m in OLD_DESTINATION_RE.finditer(text)]
    assert [tuple(d) for d in links.destinations(text)] == old


def test_link_examples() -> None:
    (link,) = links.inline_links('see [a [b] \\] c](<x y> "t") and ![i](j)')
    assert (link.text_start, link.text_end, link.url_start, link.url_end) == (5, 15, 17, 22)
    # the old pattern's backtracking: an empty destination before a title with a space in it
    (link,) = links.inline_links('[a]( "b c")')
    assert (link.url_start, link.url_end, link.end) == (4, 4, 11)


def test_link_scanners_are_linear(scanned: Scanned) -> None:
    for fragment in ["[", "[a", "\\[", "[]()\\[a", "[x](<", "[x](", "[x]( ", "](a(", '[](" ']:
        assert_linear(scanned, lambda s: list(links.inline_links(s)), fragment)
        assert_linear(scanned, lambda s: list(links.inline_links(s, images=True)), fragment)
        assert_linear(scanned, lambda s: list(links.destinations(s)), fragment)
    for fragment in ["[a\n", "\n[", " [a]", "]( \n", "[a]:\n"]:
        assert_linear(scanned, lambda s: list(links.destinations(s)), fragment)


OLD_OWN_MATH = r"mathjax|katex|tex-(?:mml-)?(?:chtml|svg)"
OLD_LOADS_MATH_RE = re.compile(
    rf"<script\b[^>]*(?:{OLD_OWN_MATH})"
    r"|<script\b[^>]*>[^<]*(?:MathJax\s*=|katex\.render|renderMathInElement)",
    re.IGNORECASE,
)
OWN_MATH_RE = re.compile(OLD_OWN_MATH, re.IGNORECASE)


def scripts() -> st.SearchStrategy[str]:
    pieces = ["<script", "<SCRIPT", "<scripts", ">", "<", " ", "src=", "katex", "KaTeX.render"]
    pieces += ["MathJax", " =", "=", "tex-svg", "renderMathInElement", "x", "\n", "ſ", "K"]
    return st.lists(st.sampled_from(pieces), max_size=20).map("".join)


@EXAMPLES
@given(scripts())
def test_loads_math_as_before(html: str) -> None:
    assert htmlscan.loads_math(html, OWN_MATH_RE) == bool(OLD_LOADS_MATH_RE.search(html))


def test_loads_math_is_linear(scanned: Scanned) -> None:
    for fragment in ["<script", "<script>", "<script a", "<script>MathJax ", "<script>x<"]:
        assert_linear(scanned, lambda s: htmlscan.loads_math(s, OWN_MATH_RE), fragment)


# ---------------------------------------------------------------------------------------------
# mathscan: arithmatex's inline math, as arithmatex itself finds it


def _arithmatex_configs() -> list[tuple[mathscan.InlineMath, re.Pattern[str]]]:
    from pymdownx import arithmatex as ax

    configs = []
    for dollar, smart, round_ in itertools.product((True, False), repeat=3):
        inline = [ax.RE_SMART_DOLLAR_INLINE if smart else ax.RE_DOLLAR_INLINE] if dollar else []
        inline += [ax.RE_BRACKET_INLINE] if round_ else []
        if inline:
            pattern = re.compile("(?:" + "|".join(inline) + ")")
            configs.append((mathscan.InlineMath(dollar, smart, round_), pattern))
    return configs


ARITHMATEX = _arithmatex_configs()


@settings(max_examples=1000, deadline=None)
@given(
    st.lists(
        st.sampled_from(["$", "\\", "\\\\", "(", ")", "\\(", "\\)", " ", "a", "\n", "\x02", "$$"]),
        max_size=24,
    ).map("".join),
    st.integers(0, 30),
    st.integers(0, 30),
)
def test_inline_math_as_arithmatex(line: str, pos: int, end: int) -> None:
    pos, end = min(pos, len(line)), min(max(pos, end), len(line))
    for scanner, pattern in ARITHMATEX:
        old = [m.span() for m in pattern.finditer(line, pos, end)]
        assert list(scanner.spans(line, pos, end)) == old, scanner


def test_inline_math_is_linear(scanned: Scanned) -> None:
    for fragment in ["\\(", "\\(a", "\\(\\\\", "$a", "$a\\$", "\\\\\\", "$ a $", "\\(\\)"]:
        for scanner, _pattern in ARITHMATEX:
            assert_linear(scanned, lambda s, m=scanner: list(m.spans(s, 0, len(s))), fragment)


# ---------------------------------------------------------------------------------------------
# Fast paths of the article model: the same answers as the definition


@settings(max_examples=600, deadline=None)
@given(st.lists(texts(" >a\t\u3000", max_size=6) | st.just(article.TODO_MARKER), max_size=6))
def test_is_todo_as_defined(lines: list[str]) -> None:
    """``Paragraph.is_todo`` reads the first translation line only when it holds no marker:
    the same as the definition (the translation without its markers is blank)."""
    body = "\n".join(line.replace("\n", "") for line in lines)
    parsed = article.parse(f"/// paragraph | P001\n{body}\n///\n")
    for p in parsed.paragraphs:
        text = article.without_todo(p.translation)
        assert p.is_todo == (not text or text.isspace())
