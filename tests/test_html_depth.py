"""HTML nesting has a limit, `sanitize.MAX_HTML_DEPTH` (issue 19): an original's tags past it are
dropped on import with their text kept (reported with the line), a page's are shown as text
(DZ021, in check and build), and no reader of HTML does work per tag in proportion to the depth.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from conftest import Logs, Site
from test_fuzz import bounded, build_deep_page, run_cli

#: Nesting well past the limit; on main before the limit, html5ever (inside nh3) took ~11 s for
#: the inline one (×4 per doubling) and Python-Markdown ended ``<div markdown>`` in
#: RecursionError at 400 levels.
DEEP = 60_000


def _import(text: str) -> tuple[str, list[str]]:
    from duizhao.importer import parse_markdown

    start = time.process_time()
    original = parse_markdown(text)
    took = time.process_time() - start
    assert took < 4.0, f"import took {took:.1f} s"
    return "\n".join(c.text for c in original.chunks), [n.format("o.md") for n in original.notes]


#: Inline tags in one paragraph within the importer's MAX_INLINE_MARKUP (four rule positions a
#: pair of tags): parsed, and the tags past MAX_HTML_DEPTH dropped.
INLINE = 4_000


@pytest.mark.parametrize(
    "text",
    [
        "A paragraph " + "<b>" * INLINE + "deep text" + "</b>" * INLINE + " after.",
        "A paragraph " + "<b>" * DEEP + "deep text" + "</b>" * DEEP + " after.",
        "A paragraph " + "<div>" * DEEP + "deep text",
        "<table><tr><td>" + "<span>" * DEEP + "deep text",
        "<div>" * DEEP + "deep text" + "</div>" * DEEP,
    ],
    ids=["inline-b", "inline-b-as-text", "inline-div", "table", "block-div"],
)
def test_an_original_nested_past_the_limit_keeps_its_text_in_bounded_time(text: str) -> None:
    from duizhao.importer.from_markdown.parsing import MAX_INLINE_MARKUP
    from duizhao.sanitize import MAX_HTML_DEPTH

    with bounded(memory=False):
        body, notes = _import(text)
    assert "deep text" in body
    assert body.count("<b>") <= MAX_HTML_DEPTH
    assert body.count("<span>") <= MAX_HTML_DEPTH
    if text.startswith("A paragraph") and text.count("<") * 2 > MAX_INLINE_MARKUP:
        # 120,000 rule positions or more in one paragraph: text, shown as written, reported
        assert body.count("&#60;") == text.count("<"), body[:200]
        (note,) = [n for n in notes if "markup characters" in n]
        assert note.startswith("o.md:1: warning: a paragraph with ") and (
            f"more than {MAX_INLINE_MARKUP:,}" in note
        )
        return
    deep = [n for n in notes if f"nested more than {MAX_HTML_DEPTH} levels deep" in n]
    assert len(deep) == 1 and deep[0].startswith("o.md:1: dropped: HTML "), notes


def test_an_original_within_the_limit_is_untouched() -> None:
    body, notes = _import("A " + "<b>" * 200 + "x" + "</b>" * 200 + " b.")
    assert body.count("<b>") == 200
    assert not any("nested more than" in n for n in notes), notes


def test_the_depth_counts_only_elements_that_must_be_closed() -> None:
    from duizhao.sanitize import MAX_HTML_DEPTH, limit_html_depth

    # unclosed items and paragraphs, void elements, self-closing tags: no depth
    flat = "<ul>" + "<li><p>a<br><img src=x><x-y/>" * 1000 + "</ul>"
    assert limit_html_depth(flat) == (flat, 0)
    deep = "<i>" * (MAX_HTML_DEPTH + 3) + "t" + "</i>" * (MAX_HTML_DEPTH + 3) + "<i>u</i>"
    kept, dropped = limit_html_depth(deep)
    assert dropped == 6  # three start tags past the limit, and their end tags
    assert kept == "<i>" * MAX_HTML_DEPTH + "t" + "</i>" * MAX_HTML_DEPTH + "<i>u</i>"


PAGES = {  # a page's body, the line of the first tag past the limit
    "inline": ("Text " + "<b>" * 300 + "deep" + "</b>" * 300 + " end.\n", 3),
    "block": ("<div>\n" * 300 + "deep\n" + "</div>\n" * 300, 3 + 256),
    "md-in-html": ('<div markdown="1">\n\n' * 500 + "deep\n\n" + "</div>\n\n" * 500, 3 + 512),
}


@pytest.mark.parametrize(("body", "line"), PAGES.values(), ids=PAGES.keys())
def test_a_page_nested_past_the_limit_is_dz021_and_builds_with_the_tags_as_text(
    make_site: Callable[..., Site], logs: Logs, body: str, line: int
) -> None:
    site = make_site({"index.md": "# 首页\n", "deep.md": "# Deep\n\n" + body + "\nafter\n"})
    html = build_deep_page(
        site, logs, line, "DZ021", "HTML elements nested more than 256 levels deep"
    )
    assert "deep" in html and "after" in html
    assert "&lt;div" in html or "&lt;b&gt;" in html


def test_tags_in_code_are_not_counted(make_site: Callable[..., Site]) -> None:
    code = "`" + "<b>" * 400 + "`"
    fenced = "```html\n" + "<div>\n" * 400 + "```\n"
    site = make_site({"index.md": "# 首页\n", "code.md": f"# Code\n\n{code}\n\n{fenced}"})
    site.build()
    assert not [d for d in run_cli(site.root, "check", "docs") if " DZ021 " in d]
    assert site.html("code.md").count("&lt;b&gt;") == 400


def test_an_imported_original_builds_without_a_depth_warning(
    make_site: Callable[..., Site], logs: Logs
) -> None:
    from duizhao.importer import parse_markdown

    original = parse_markdown("Deep " + "<i>" * 2000 + "words" + "</i>" * 2000 + " here.")
    body = next(c.text for c in original.chunks if c.is_numbered)
    site = make_site({"index.md": "# 首页\n", "o.md": f"# O\n\n{body}\n"})
    site.build()
    assert not [d for d in run_cli(site.root, "check", "docs") if " DZ021 " in d]
    assert "words" in site.html("o.md")


def test_elements_that_need_no_end_tag_inside_a_dropped_one_are_read_in_linear_time() -> None:
    """``<p>`` does not deepen the count (its end tag may be left out), but the block reader
    kept every one inside a dropped ``<svg>`` on a stack that each end tag searched: 40,000
    took 3.1 s, ×3 per doubling."""
    text = "<div>\n<svg>" + "<p>" * DEEP + "x" + "</p>" * DEEP + "</svg>\n<p>deep text</p>\n</div>"
    with bounded(memory=False):
        body, _notes = _import(text)
    assert body == "deep text"
