"""Author text is data: golden cases per escaping context, rendering properties, and a site
whose every author string is hostile."""

from __future__ import annotations

import html
import json
import os
import re
import time
import xml.etree.ElementTree as etree  # noqa: N813 (Python-Markdown convention)
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import markdown
import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown.serializers import to_html_string

from budget import examples
from conftest import Logs, Site
from duizhao import escape
from duizhao.cli import main
from duizhao.importer import new_article
from figure_sources import make_pdf

GOLDEN = Path(__file__).parent / "golden" / "escape"
CASES = sorted(GOLDEN.glob("*.yml"))

HOSTILE = (
    'A & B <T> "(x)" $y$ \\(z\\) *w* [l](javascript:alert(1)) <script>alert(1)</script> '
    "<img src=x onerror=alert(1)>"
)

# ---------------------------------------------------------------------------------------------
# Golden cases: input and expected output side by side, one file per context


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_golden(case: Path) -> None:
    spec = yaml.safe_load(case.read_text(encoding="utf-8"))
    function = getattr(escape, spec["function"])
    assert case.stem == spec["function"]
    got = [{"in": c["in"], "out": str(function(c["in"]))} for c in spec["cases"]]
    assert got == spec["cases"]


def test_every_context_has_a_golden_file() -> None:
    contexts = {n for n in escape.__all__ if n[0].islower() and n != "plain_text"}
    assert contexts == {c.stem for c in CASES}


def test_markup_is_escaped_once() -> None:
    once = escape.html_text(HOSTILE)
    assert escape.html_text(once) == once
    assert escape.html_attr(once) == once
    assert escape.meta_content("`a` & b") == escape.html_attr(escape.meta_content("`a` & b"))
    assert escape.search_text(once) == escape.search_text(HOSTILE)


# ---------------------------------------------------------------------------------------------
# Rendering: what each context's output becomes on a page

#: Extensions of a rich Material site: everything that reads characters of inline text.
RICH = [
    "attr_list",
    "md_in_html",
    "tables",
    "abbr",
    "footnotes",
    "def_list",
    "toc",
    "pymdownx.arithmatex",
    "pymdownx.tilde",
    "pymdownx.caret",
    "pymdownx.mark",
    "pymdownx.emoji",
    "pymdownx.betterem",
    "pymdownx.inlinehilite",
    "pymdownx.superfences",
    "pymdownx.magiclink",
    "pymdownx.keys",
    "pymdownx.critic",
]
RICH_CONFIG = {"pymdownx.arithmatex": {"generic": True}}


class Tree(HTMLParser):
    """Tags, attributes and text of an HTML fragment or page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        #: text inside <nav> elements (the site's and the table of contents)
        self.nav: list[str] = []
        self.tags: list[tuple[str, tuple[str, ...]]] = []
        self.attrs: list[tuple[str, str, str]] = []
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []
        self.scripts: list[str] = []
        self._in: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, tuple(sorted(name for name, _ in attrs))))
        self.attrs += [(tag, name, value or "") for name, value in attrs]
        self.elements.append((tag, {name: value or "" for name, value in attrs}))
        self._in.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self._in:
            del self._in[len(self._in) - 1 - self._in[::-1].index(tag) :]

    def handle_data(self, data: str) -> None:
        if self._in and self._in[-1] in ("script", "style"):
            self.scripts.append(data)
        else:
            self.text.append(data)
            if "nav" in self._in:
                self.nav.append(data)

    @property
    def nav_text(self) -> str:
        return " ".join("".join(self.nav).split())

    @property
    def visible(self) -> str:
        return " ".join("".join(self.text).split())


def parse_html(text: str) -> Tree:
    tree = Tree()
    tree.feed(text)
    tree.close()
    return tree


def render(source: str) -> str:
    return markdown.markdown(source, extensions=RICH, extension_configs=RICH_CONFIG)


# Text made of what Markdown and its extensions read, and what HTML reads.
hostile_text = st.text(
    alphabet=st.sampled_from(list("\\`*_{}[]()<>#+-.!$|~^=:&;\"' /\nxyT1é中")), max_size=40
) | st.sampled_from([HOSTILE, "&amp;", "&#36;", "\\$", "javascript:alert(1)", ":smile:", "1. x"])


@settings(max_examples=examples(50, 1500), deadline=None)
@given(hostile_text)
def test_markdown_text_renders_as_the_text(text: str) -> None:
    """A line of its own, a heading, link text or table cell: no element, the text, once."""
    shown = " ".join(text.split())
    if shown:
        tree = parse_html(render(escape.markdown_text(text)))
        assert [tag for tag, _ in tree.tags] == ["p"] and tree.visible == shown, text
    for source, wrapper in (
        (f"# {escape.markdown_text(text)}", ["h1"]),
        (f"[{escape.markdown_text(text)}](x.md)", ["p", "a"]),
        (f"| h |\n| --- |\n| {escape.markdown_text(text)} |", None),
    ):
        tree = parse_html(render(source))
        if wrapper is not None:
            assert [tag for tag, _ in tree.tags] == wrapper, source
            assert tree.visible == shown, source
        else:
            assert "td" in [tag for tag, _ in tree.tags]
            assert {tag for tag, _ in tree.tags} <= {"table", "thead", "tbody", "tr", "th", "td"}
            assert " ".join("".join(tree.text).split()) == " ".join(f"h {shown}".split())


SAFE_TAGS = {"p", "em", "strong", "code", "pre", "a", "img", "ul", "ol", "li", "blockquote"}
SAFE_TAGS |= {"h1", "h2", "h3", "h4", "h5", "h6", "hr", "br", "span", "div", "del", "sup"}
SAFE_TAGS |= {"table", "thead", "tbody", "tr", "th", "td", "dl", "dt", "dd", "mark", "ins"}
SAFE_TAGS |= {"sub", "abbr"}  # what Markdown and the RICH extensions make


def assert_no_live_markup(tree: Tree) -> None:
    """No script, no event handler, no link that runs code."""
    assert not tree.scripts
    assert {tag for tag, _ in tree.tags} <= SAFE_TAGS, tree.tags
    for tag, name, value in tree.attrs:
        assert not name.startswith("on"), (tag, name, value)
        if name in ("href", "src"):
            scheme = re.sub(r"[\x00-\x20]", "", value).lower().partition(":")
            assert not scheme[1] or scheme[0] in ("http", "https", "mailto", "ftp"), value


@settings(max_examples=examples(50, 1500), deadline=None)
@given(hostile_text)
def test_markdown_source_keeps_markdown_but_no_live_markup(text: str) -> None:
    tree = parse_html(render(escape.markdown_source(text)))
    assert_no_live_markup(tree)
    # Math left to arithmatex is still no way in.
    math = escape.Math.of(RICH_CONFIG["pymdownx.arithmatex"])
    assert_no_live_markup(parse_html(render(escape.markdown_source(text, math))))


def test_markdown_source_leaves_math_to_arithmatex() -> None:
    math = escape.Math.of({"generic": True})
    source = "$n<k$, $\\frac{a}{b}$, \\(a<b\\) <b>x</b>\n\n$$\n\\frac{a}{b} < c\n<div>\n$$"
    out = escape.markdown_source(source, math)
    assert out == (
        "$n<k$, $\\frac{a}{b}$, \\(a<b\\) &lt;b>x&lt;/b>\n\n$$\n\\frac{a}{b} < c\n&lt;div>\n$$"
    )
    tree = parse_html(render(out))
    assert [attrs for tag, attrs in tree.elements if tag in ("span", "div")] == [
        {"class": "arithmatex"}
    ] * 4
    assert "\\(n<k\\)" in tree.visible and "\\(\\frac{a}{b}\\)" in tree.visible
    # Without arithmatex on the site there is no math: "$<b>$" is text like the rest.
    assert escape.markdown_source("$<b>$") == "$&lt;b>$"
    assert escape.Math.of(None) is None


def test_markdown_source_keeps_an_original_readable() -> None:
    source = escape.markdown_source(
        "Keep *this*, `<b>` and [a link](https://e.org).\n\n"
        "<b>bold</b> [x](javascript:alert(1)) <script>alert(1)</script>"
    )
    tree = parse_html(render(source))
    assert_no_live_markup(tree)
    assert [tag for tag, _ in tree.tags] == ["p", "em", "code", "a", "p"]
    assert tree.visible == (
        "Keep this, <b> and a link. <b>bold</b> [x](javascript:alert(1)) <script>alert(1)</script>"
    )


def test_figure_caption_on_the_markdown_tree_is_text_once() -> None:
    """``AtomicString(html_text(...))``: no inline pattern reads it, the serializer keeps it."""
    from markdown.util import AtomicString

    md = markdown.Markdown(extensions=RICH, extension_configs=RICH_CONFIG)
    root = etree.Element("div")
    caption = etree.SubElement(root, "figcaption", {"title": escape.html_attr(HOSTILE)})
    caption.text = AtomicString(escape.html_text(HOSTILE + " &lt;"))
    md.treeprocessors["inline"].run(root)
    out = to_html_string(root)
    tree = parse_html(out)
    assert [tag for tag, _ in tree.tags] == ["div", "figcaption"]
    assert tree.visible == HOSTILE + " &lt;"
    assert tree.attrs[0][2] == HOSTILE


def test_import_writes_an_original_as_literal_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plain-text original: every character shows as written (its Markdown too)."""
    monkeypatch.chdir(tmp_path)
    original = tmp_path / "paper.txt"
    original.write_text(f"## Title <script>x</script>\n\n{HOSTILE} <b>b</b>\n", "utf-8")
    article = tmp_path / "x.md"
    result = CliRunner().invoke(main, ["import", str(article), "--from", str(original)])
    assert result.exit_code == 0, result.output
    tree = parse_html(render(article.read_text(encoding="utf-8").split("---\n", 2)[2]))
    assert_no_live_markup(tree)
    assert "<script>alert(1)</script> <img src=x onerror=alert(1)> <b>b</b>" in tree.visible
    assert "Title <script>x</script>" in tree.visible
    skeleton = new_article("A <T> $y$").decode()
    assert "# A &lt;T> &#36;y&#36;\n" in skeleton


def test_cli_import_of_a_hostile_original(tmp_path: Path) -> None:
    """`duizhao import`: the original's HTML and script links become text of the article."""
    original = tmp_path / "paper.md"
    original.write_text(
        f"# Intro <script>alert(1)</script>\n\n{HOSTILE}\n\n<b>bold</b> and **bold**.\n\n"
        '<div align="center"><img src=x onerror=alert(1)></div>\n',
        encoding="utf-8",
    )
    article = tmp_path / "docs" / "x.md"
    article.parent.mkdir()
    result = CliRunner().invoke(main, ["import", str(article), "--from", str(original)])
    assert result.exit_code == 0, result.output
    text = article.read_text(encoding="utf-8")
    page = markdown.markdown(text, extensions=["duizhao", "pymdownx.superfences", "meta"])
    tree = parse_html(page)
    assert not tree.scripts
    # formatting HTML of the original stays formatting (sanitised); nothing else is live
    assert {tag for tag, _ in tree.tags} <= SAFE_TAGS | {"blockquote", "b"}, tree.tags
    assert not [a for a in tree.attrs if a[1].startswith("on") or a[1] == "src"]
    # the h1 is the title (its tags dropped); the script and the image (no src it could link)
    # are dropped and reported; <b> stays bold; the image block is a figure candidate
    for shown in ("Intro alert(1)", "[l](javascript:alert(1)) P002", "bold and bold."):
        assert shown in tree.visible
    assert "onerror attribute of <img>" in result.stderr
    assert "<script> with its content" in result.stderr
    assert ("strong", ()) in tree.tags  # the original's Markdown stays Markdown


def test_cli_import_of_plain_text_shows_every_character(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plain text is text, on a site that reads math too: dollars, stars, underscores,
    ticks and tags show as written."""
    original = tmp_path / "paper.txt"
    original.write_text(
        "When $n<k$ the bound is $\\frac{n}{k}$, <b>tight</b>, *stars* _under_ `ticks`.\n\n"
        "# not a heading\n- not\n- a list\n",
        "utf-8",
    )
    config = {"markdown_extensions": [{"pymdownx.arithmatex": {"generic": True}}]}
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), "utf-8")
    (tmp_path / "docs").mkdir()
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["import", "docs/x.md", "--from", str(original)])
    assert result.exit_code == 0, result.output
    assert "(read as plain text" in result.stderr
    text = (tmp_path / "docs" / "x.md").read_text(encoding="utf-8")
    md = markdown.Markdown(
        extensions=["duizhao", "pymdownx.arithmatex"],
        extension_configs={"pymdownx.arithmatex": {"generic": True}},
    )
    tree = parse_html(md.convert(text.split("---\n", 2)[2]))
    assert_no_live_markup(tree)
    assert not {"em", "code", "b", "li"} & {tag for tag, _ in tree.tags}
    assert [tag for tag, _ in tree.tags].count("h2") == 1  # the new article's 导言 only
    assert (
        "When $n<k$ the bound is $\\frac{n}{k}$, <b>tight</b>, *stars* _under_ `ticks`."
        in tree.visible
    )
    assert "# not a heading - not - a list" in tree.visible


# ---------------------------------------------------------------------------------------------
# A whole site whose every author string is hostile

CONFIG: dict[str, Any] = {
    "site_url": "https://example.org/s/",
    "markdown_extensions": [
        "attr_list",
        "md_in_html",
        "tables",
        {"toc": {"permalink": True}},
        "pymdownx.superfences",
        {"pymdownx.arithmatex": {"generic": True}},
    ],
}


def hostile_site(make_site: Callable[..., Site], text: str) -> Site:
    """Every string an author controls is ``text``, except the bodies (Markdown)."""
    intro = HOSTILE  # the 导言 is Markdown: hostile in both builds, checked on its own
    front = {
        "title": text,
        "description": None,
        "paper": {
            "title": text,
            "authors": [text, text],
            "url": f"https://e.org/?q={text}",
            "version": text,
            "commit": text,
            "license": "CC-BY-4.0",
            "changes": text,
        },
        "paragraphs": "P001-P002",
        "figures": 1,
        "status": "draft",
        "featured": True,
    }
    del front["description"]
    body = (
        f"## 导言\n\n{intro}\n\n/// paragraph | P001\n> {escape.markdown_text(text)}\n\n"
        f"译文：{escape.markdown_text(text)}\n///\n\n/// figure | 1\n///\n"
    )
    # status: Material prints it into a class attribute (not a translation's: no DZ014 here).
    plain = {"title": text, "description": text, "subtitle": text, "author": text, "status": text}
    spec = {
        "source": "../../papers/paper.pdf",
        "figures": [
            {
                "id": 1,
                "page": 1,
                "box": [72, 96, 540, 380],
                # two paragraphs, in a raw HTML block of the figure index page too
                "caption": {"en": text, "zh": f"{text}\n\n{text}"},
                "alt": text,
            }
        ],
    }
    dump = yaml.safe_dump
    files = {
        "index.md": "# 首页\n\n<!-- duizhao:digest -->\n",
        "sec/a.md": f"---\n{dump(front, allow_unicode=True)}---\n\n{body}",
        "sec/a.figures.yml": dump(spec, allow_unicode=True),
        "sec/b.md": f"---\n{dump(plain, allow_unicode=True)}---\n\n## 导言\n\n简介。\n",
        # IDs the checks reject are still shown (as text)
        "ids.md": (
            "---\ntitle: IDs\nstatus: draft\npaper: {license: CC-BY-4.0}\n---\n\n## 导言\n\n简介。\n\n"
            f"/// paragraph | {text}\n> en\n\nzh\n///\n\n/// figure | {text}\n///\n"
        ),
    }
    plugin = {
        "duizhao": {
            "progress_page": "progress.md",
            "site": {"sections": {"sec": text}, "social": True},
            "figures": {"jobs": 1},
        }
    }
    site = make_site(files, plugins=["search", plugin], **CONFIG)
    make_pdf(site.root / "papers" / "paper.pdf")
    return site


def claim_warnings(logs: Logs) -> None:
    """The hostile site's expected warnings, and nothing else (the bad status and IDs)."""
    logs.take(r"DZ001 malformed paragraph ID '", 1)
    logs.take(r"DZ101 '/// figure \| ", 1)
    assert logs.messages() == []


def pages(site: Site) -> dict[str, str]:
    return {
        p.relative_to(site.site_dir).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(site.site_dir.rglob("*.html"))
    }


@pytest.fixture
def built(make_site: Callable[..., Site], logs: Logs) -> tuple[dict[str, str], Site]:
    site = hostile_site(make_site, HOSTILE)
    site.build()
    claim_warnings(logs)
    return pages(site), site


def test_hostile_strings_add_no_element_or_attribute(
    make_site: Callable[..., Site], tmp_path: Path, logs: Logs
) -> None:
    """Built with "SAFE" and with the hostile string: every page has the same elements and
    attributes, in the same order (only text and attribute values differ)."""
    hostile = hostile_site(make_site, HOSTILE)
    hostile.build()
    claim_warnings(logs)
    bad = pages(hostile)
    safe = hostile_site(make_site, "SAFE")
    safe.site_dir = tmp_path / "safe-site"
    safe.build()
    claim_warnings(logs)
    good = pages(safe)
    assert bad.keys() == good.keys()
    assert {"index.html", "sec/index.html", "sec/a/index.html", "progress/index.html"} <= set(bad)
    assert "figures/index.html" in bad
    for name in bad:
        assert parse_html(bad[name]).tags == parse_html(good[name]).tags, name


def test_hostile_site_shows_every_string_literally_once(
    built: tuple[dict[str, str], Site],
) -> None:
    site_pages, _site = built
    for name, page in site_pages.items():
        tree = parse_html(page)
        # Nothing the author wrote runs: no handler, no script with their text, no tag <T>.
        assert not [a for a in tree.attrs if a[1].startswith("on")], name
        assert not [s for s in tree.scripts if "alert" in s], name
        assert "t" not in {tag for tag, _ in tree.tags}, name
        assert not [a for a in tree.attrs if a[2].strip().lower().startswith("javascript:")]
        # Escaped once: no entity shows as text.
        assert not re.search(r"&(?:amp|lt|gt|quot|#\d+);", tree.visible), name
        # The head is intact: one of each tag, and the values are the author's strings.
        metas = _meta_attrs(page)
        if name == "404.html":
            continue  # MkDocs renders it without a page, so without social tags
        for key in ("og:title", "og:type", "og:site_name", "og:url"):
            assert len([m for m in metas if m.get("property") == key]) == 1, (name, key)
        assert len([m for m in metas if m.get("name") == "description"]) <= 1, name
    article = parse_html(site_pages["sec/a/index.html"])
    head = _head(site_pages["sec/a/index.html"])
    assert head["og:title"] == HOSTILE
    # The 导言 as a reader sees it: its Markdown read (\( is an escaped parenthesis, *w* is
    # emphasis), its raw HTML and javascript: link as text; escaped once by the parser.
    intro = 'A & B <T> "(x)" $y$ (z) w [l](javascript:alert(1)) <script>alert(1)</script> '
    intro += "<img src=x onerror=alert(1)>"
    assert head["description"] == head["og:description"] == intro
    assert html.unescape(_title(site_pages["sec/a/index.html"])).startswith(HOSTILE + " - ")
    # Title (h1, nav), caption (zh, en), alt, box fields and section name show literally.
    caption = f"图 1：{HOSTILE} {HOSTILE}"
    assert article.visible.count(caption) == 2  # the figure and the gallery card
    assert caption in parse_html(site_pages["figures/index.html"]).visible
    assert f"Figure 1: {HOSTILE}" in article.visible
    assert f"作者：{HOSTILE}、{HOSTILE}" in article.visible
    assert f"改动说明：{HOSTILE}" in article.visible
    assert ("img", "alt", HOSTILE) in article.attrs
    for name in ("index.html", "sec/index.html", "progress/index.html", "figures/index.html"):
        visible = parse_html(site_pages[name]).visible
        assert HOSTILE in visible, name
    b = site_pages["sec/b/index.html"]
    assert _head(b)["description"] == _head(b)["author"] == HOSTILE
    ids = parse_html(site_pages["ids/index.html"])
    assert ("span", ("class",)) in ids.tags and HOSTILE in ids.visible
    assert ("figure", "data-dz-figure", HOSTILE) in ids.attrs
    assert ("span", "class", f"md-status md-status--{HOSTILE}") in parse_html(b).attrs


def test_the_intro_shows_raw_html_as_text(built: tuple[dict[str, str], Site]) -> None:
    """The 导言 keeps its Markdown (emphasis, math) everywhere it appears; raw HTML and
    javascript: links in it show as text."""
    site_pages, _site = built
    for name in ("sec/a/index.html", "sec/index.html", "index.html"):
        tree = parse_html(site_pages[name])
        assert "<script>alert(1)</script> <img src=x onerror=alert(1)>" in tree.visible, name
        assert "[l](javascript:alert(1))" in tree.visible, name
        assert ("em", ()) in tree.tags, name
        # $y$ and \(z\) stay math for KaTeX (arithmatex is configured)
        math = [a for tag, a in tree.elements if a.get("class") == "arithmatex"]
        assert len(math) == 2, name


def test_hostile_search_index_holds_plain_strings_once(
    built: tuple[dict[str, str], Site],
) -> None:
    _pages, site = built
    raw = (site.site_dir / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "&amp;amp;" not in raw and "&amp;lt;" not in raw
    docs = json.loads(raw)["docs"]
    titles = [html.unescape(d["title"]) for d in docs]
    assert HOSTILE in titles  # the article's own entry (Material's)
    assert f"P001 · {HOSTILE}" in titles  # its paragraph's entry (duizhao's)
    para = next(d for d in docs if d["location"] == "sec/a/#P001")
    assert para["text"].startswith(f"<p>{html.escape(HOSTILE, quote=False)}</p><p>")
    assert para["text"].endswith(f"{html.escape(HOSTILE, quote=False)}</p>")
    # Titles and text are HTML as Material writes them: parsed, no element of the author's.
    for doc in docs:
        for key in ("title", "text"):
            tree = parse_html(doc[key])
            assert {tag for tag, _ in tree.tags} <= SAFE_TAGS | {"sub", "sup"}, doc
            assert not tree.attrs, doc


def _meta_attrs(page: str) -> list[dict[str, str]]:
    head = parse_html(page.split("</head>", 1)[0])
    return [attrs for tag, attrs in head.elements if tag == "meta"]


def _head(page: str) -> dict[str, str]:
    """``<meta>`` contents by property or name."""
    metas = _meta_attrs(page)
    return {m.get("property") or m.get("name") or "": m.get("content", "") for m in metas}


def _title(page: str) -> str:
    m = re.search(r"<title>(.*?)</title>", page, re.S)
    assert m is not None
    return m.group(1)


def test_hostile_titles_in_the_nav_after_a_dirty_rebuild(
    make_site: Callable[..., Site], logs: Logs
) -> None:
    """The nav names pages a dirty rebuild does not read (from their front matter) and the
    section: each title shows once, literally."""
    site = hostile_site(make_site, HOSTILE)
    site.build(serve=True)
    claim_warnings(logs)
    nav = parse_html(site.html("ids.md")).nav_text
    assert nav.count(HOSTILE) >= 3  # the section, article a and page b
    source = site.docs / "ids.md"
    source.write_text(source.read_text(encoding="utf-8") + "\n改。\n", encoding="utf-8")
    later = time.time() + 5
    os.utime(source, (later, later))
    site.build(dirty=True)
    logs.take("A 'dirty' build is being performed", 1)
    claim_warnings(logs)
    rebuilt = parse_html(site.html("ids.md"))
    assert "改。" in rebuilt.visible
    assert rebuilt.nav_text.count(HOSTILE) >= 3
    assert not re.search(r"&(?:amp|lt|gt|quot|#\d+);", rebuilt.nav_text)
    assert "t" not in {tag for tag, _ in rebuilt.tags}
