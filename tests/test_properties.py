"""Property tests: random Markdown and block soup never break the parser or the renderer."""

from __future__ import annotations

import re

import markdown
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import examples
from duizhao.article import parse, scan, split_lines
from duizhao.blockscan import _BLOCK_OPEN_RE
from duizhao.checks import Corpus, check_article
from duizhao.markdown import DuizhaoExtension

LINES = [
    "/// paragraph | P001",
    "/// paragraph | P002",
    "/// paragraph | p3",
    "/// paragraph | Ｐ００４",
    "/// paragraph",
    "/// figure | 1",
    "/// figure | x",
    "/// details | 注",
    "//// paragraph | P010",
    "///",
    "////",
    "```",
    "```markdown",
    "~~~",
    "    indented",
    "> quoted original",
    ">",
    "- item",
    "1. item",
    "## 导言",
    "# Title",
    "!!! note",
    "    note body",
    "| a | b |",
    "$$",
    "x = y",
    "[P001](#P001)",
    "[](other.md#P042)",
    "[ref]: #P9",
    "---",
    "title: t",
    "<!--",
    "-->",
    "",
    "",
    "中文译文。",
    "English original text.",
]
HTML_LINES = ["<div>", "</div>", '<div markdown="1">', "<p>", "</p>", "<pre>", "</pre>"]

soup = st.lists(st.sampled_from(LINES), max_size=40)
free_text = st.lists(
    st.one_of(st.sampled_from(LINES + HTML_LINES), st.text(max_size=30)), max_size=40
)
newline = st.sampled_from(["\n", "\r\n", "\r"])

PROPS = settings(
    max_examples=examples(100, 3000), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def render(text: str, *extensions: str) -> str:
    return markdown.Markdown(extensions=[DuizhaoExtension(), *extensions]).convert(text)


@PROPS
@given(lines=free_text, nl=newline, bom=st.booleans())
def test_parser_and_checks_never_raise(lines: list[str], nl: str, bom: bool) -> None:
    text = ("\ufeff" if bom else "") + nl.join(lines)
    article = parse(text, "docs/x.md")
    n = len(split_lines(text.lstrip("\ufeff")))
    for d in check_article(article, Corpus()):
        assert 1 <= d.line <= n, d
        assert re.fullmatch(r"DZ[0-9]{3}", d.code)
    for p in article.paragraphs:
        assert 1 <= p.line <= n
        assert p.block.end_line is None or p.line < p.block.end_line <= n


@PROPS
@given(lines=free_text)
def test_renderer_never_raises_or_leaks_markers(lines: list[str]) -> None:
    html = render(
        "\n".join(lines),
        "pymdownx.superfences",
        "pymdownx.blocks.details",
        "md_in_html",
        "admonition",
        "tables",
    )
    assert "\x02" not in html and "\x03" not in html
    assert "duizhao:open" not in html


@PROPS
@given(lines=soup)
def test_renderer_and_parser_agree_on_blocks(lines: list[str]) -> None:
    """One reading of the syntax: every block the parser finds is rendered, and no other."""
    text = "\n".join(lines)
    blocks = scan(split_lines(text)).blocks
    html = render(text, "pymdownx.superfences", "admonition", "tables")
    assert html.count('<div class="dz-para') == sum(b.kind == "paragraph" for b in blocks)
    assert html.count('<figure class="dz-figure"') == sum(b.kind == "figure" for b in blocks)


@PROPS
@given(
    kind=st.sampled_from(["paragraph", "figure", "details"]),
    gap=st.sampled_from([" ", "  ", "\t", ""]),
    argument=st.text(st.characters(blacklist_characters="\n\r"), max_size=20),
    slashes=st.sampled_from(["///", "////"]),
)
def test_block_openers_read_as_the_block_pattern_reads_them(
    kind: str, gap: str, argument: str, slashes: str
) -> None:
    """The scanner reads the usual opener ("/// paragraph | P001") without a regex; name and
    argument must be what the opener pattern gives for every such line."""
    line = f"{slashes} {kind}{gap}| {argument}"
    m = _BLOCK_OPEN_RE.match(line)
    blocks = scan([line, slashes]).blocks
    if m is None or m["name"] not in ("paragraph", "figure"):
        assert blocks == ()
    else:
        assert [(b.kind, b.argument) for b in blocks] == [(m["name"], (m["arg"] or "").strip())]
