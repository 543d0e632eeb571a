"""The study site on tiny sites: generated 导言 indexes, order, escaping, dirty rebuilds,
source boxes, social tags and the DZ2xx checks."""

from __future__ import annotations

import os
import re
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import Logs, Site
from duizhao.article import parse
from duizhao.diagnostics import CODES, Severity
from duizhao.site import attribution, indexes

SITE_PLUGIN = {"duizhao": {"site": {"sections": {"topics": "1-Topics <b>"}}}}


def article(title: str, intro: str, **meta: Any) -> str:
    lines = [f"title: {title!r}"] + [f"{k}: {v}" for k, v in meta.items()]
    front = "\n".join(lines)
    return f"---\n{front}\n---\n\n# T\n\n## 导言\n\n{intro}\n\n## 正文\n\n正文。\n"


def main_html(site: Site, page: str) -> str:
    """The page's article body (Material's <article>), without the theme around it."""
    html = site.html(page)
    match = re.search(r'<article class="md-content__inner md-typeset">(.*?)</article>', html, re.S)
    assert match, page
    return match.group(1).strip()


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def nav_titles(site: Site, page: str) -> list[str]:
    html = site.html(page)
    return [
        " ".join(t.split())
        for t in re.findall(r'<span class="md-ellipsis">\s*(.*?)\s*</span>', html, re.S)
    ]


@pytest.fixture
def topics(make_site: Callable[..., Site]) -> Site:
    return make_site(
        {
            "index.md": "# 首页\n\n前言。\n\n<!-- duizhao:digest -->\n\n后记。\n",
            "topics/b.md": article(
                "Bravo", "**乙**的导言，见 [](#P001)。", weight=20, paper="{license: MIT}"
            ),
            "topics/a.md": article("Alpha", "甲的导言。\n\n第二段。", weight=30, featured="true"),
            "topics/c.md": article("<script>alert(1)</script> & C", "丙的导言。", weight=10),
            "topics/z.md": article("Zulu", "未排序。"),
            "topics/demo.md": article("Demo", "不列出。", digest="false"),
            "other/d.md": article("Delta", "[链接](../topics/b.md#P001) 与 ![图](img.png)"),
            "other/img.png": b"\x89PNG\r\n\x1a\n",
        },
        plugins=[SITE_PLUGIN],
    )


def add_paragraph(site: Site) -> None:
    path = site.docs / "topics/b.md"
    path.write_text(
        path.read_text(encoding="utf-8") + "\n/// paragraph | P001\n译文。\n///\n", "utf-8"
    )


def test_generated_section_index_lists_articles_in_weight_order(topics: Site) -> None:
    add_paragraph(topics)
    topics.build()
    body = main_html(topics, "topics/index.html")
    assert body.startswith('<h1 id="1-topics-b">1-Topics &lt;b&gt;')
    titles = re.findall(r"<h2[^>]*><a href=\"([^\"]+)\">(.*?)</a>", body)
    assert titles == [
        ("c/", "&lt;script&gt;alert(1)&lt;/script&gt; &amp; C"),
        ("b/", "Bravo"),
        ("a/", "Alpha"),
        ("z/", "Zulu"),
    ]
    assert "<script>alert" not in topics.html("topics/index.html")
    # each entry: linked title, a 导言 heading, the introduction rendered as Markdown
    entry = body[body.index('href="b/"') :]
    entry = entry[: entry.index("<h2", 10)]
    assert re.search(r"<h3 [^>]*>导言", entry)
    assert '<p><strong>乙</strong>的导言，见 <a href="b/#P001">P001</a>。</p>' in entry
    assert "甲的导言。</p>\n<p>第二段。</p>" in body
    assert "不列出" not in body
    # the sidebar follows the same order (pages without weight last), under the section title
    sidebar = nav_titles(topics, "topics/index.html")
    run = ["&lt;script&gt;alert(1)&lt;/script&gt; &amp; C", "Bravo", "Alpha", "Demo", "Zulu"]
    assert any(sidebar[i : i + 5] == run for i in range(len(sidebar))), sidebar
    assert sidebar.count("1-Topics &lt;b&gt;") >= 2 and "1-Topics <b>" not in sidebar


def test_home_shows_featured_article_then_each_section(topics: Site) -> None:
    add_paragraph(topics)
    topics.build()
    body = main_html(topics, "index.html")
    assert "<p>前言。</p>" in body and body.rstrip().endswith("<p>后记。</p>")
    order = re.findall(r"<h([23])[^>]*>(?:<a href=\"([^\"]*)\">)?(.*?)(?:</a>|<a class)", body)
    assert [(level, href, title) for level, href, title in order if title != "导言"] == [
        ("2", "topics/a/", "Alpha"),
        ("2", "", "Other"),  # not a configured section: no index
        ("3", "other/d/", "Delta"),
        ("2", "topics/", "1-Topics &lt;b&gt;"),
        ("3", "topics/c/", "&lt;script&gt;alert(1)&lt;/script&gt; &amp; C"),
        ("3", "topics/b/", "Bravo"),
        ("3", "topics/z/", "Zulu"),
    ]
    # links in a moved 导言 still point where the author meant
    assert '<a href="topics/b/#P001">链接</a>' in body
    assert '<img alt="图" src="other/img.png" />' in body


def test_author_written_section_index_wins(make_site: Callable[..., Site]) -> None:
    site = make_site(
        {
            "topics/index.md": (
                "---\ntitle: 我的专题\n---\n\n# 我的专题\n\n手写。\n\n<!-- duizhao:digest -->\n"
            ),
            "topics/a.md": article("Alpha", "甲。"),
        },
        plugins=[SITE_PLUGIN],
    )
    site.build()
    body = main_html(site, "topics/index.html")
    assert body.count("<h1") == 1 and "我的专题" in body and "<p>手写。</p>" in body
    assert '<a href="a/">Alpha</a>' in body and "<p>甲。</p>" in body
    assert "duizhao:digest" not in body


def test_explicit_nav_order_is_the_index_order(make_site: Callable[..., Site]) -> None:
    site = make_site(
        {
            "index.md": "# Home\n",
            "topics/a.md": article("Alpha", "甲。", weight=1),
            "topics/b.md": article("Bravo", "乙。", weight=2),
        },
        plugins=[SITE_PLUGIN],
        nav=["index.md", {"Topics": ["topics/b.md", "topics/a.md"]}],
        validation={"nav": {"omitted_files": "warn"}},
    )
    site.build()
    body = main_html(site, "topics/index.html")
    assert body.index("Bravo") < body.index("Alpha")


def _touch_later(path: Path, text_: str) -> None:
    path.write_text(text_, encoding="utf-8")
    later = time.time() + 5
    os.utime(path, (later, later))


@pytest.mark.parametrize("index", ["generated", "author"])
def test_dirty_rebuild_updates_index_pages(
    make_site: Callable[..., Site], logs: Logs, index: str
) -> None:
    files = {
        "index.md": "# 首页\n\n<!-- duizhao:digest -->\n",
        "topics/a.md": article("Alpha", "旧的导言。", featured="true"),
        "topics/b.md": article("Bravo", "乙。"),
    }
    if index == "author":
        files["topics/index.md"] = "# 专题\n\n<!-- duizhao:digest -->\n"
    site = make_site(files, plugins=[SITE_PLUGIN])
    site.build(serve=True)  # as `mkdocs serve --dirty` starts
    assert "旧的导言" in main_html(site, "topics/index.html")
    source = site.docs / "topics/a.md"
    _touch_later(source, source.read_text(encoding="utf-8").replace("旧的导言", "新的导言"))
    site.build(dirty=True)
    logs.take("A 'dirty' build is being performed", count=1)
    for page in ("topics/index.html", "index.html", "topics/a/index.html"):
        body = main_html(site, page)
        assert "新的导言" in body and "旧的导言" not in body, page
    # an unchanged page was not rebuilt: the dirty build really was dirty
    stamp = (site.site_dir / "topics/b/index.html").stat().st_mtime
    site.build(dirty=True)
    logs.take("A 'dirty' build is being performed", count=1)
    assert (site.site_dir / "topics/b/index.html").stat().st_mtime == stamp


def test_source_box_names_licence_and_changes(make_site: Callable[..., Site]) -> None:
    page = textwrap.dedent(
        """\
        ---
        title: X
        paper:
          title: A <Paper>
          authors: [Ann, Bob]
          url: https://arxiv.org/abs/1234.5678v6
          version: arXiv v6
          license: CC-BY-4.0
        paragraphs: P001-P001
        status: complete
        ---

        # X

        ## 导言

        导言。

        /// paragraph | P001
        > Original.

        译文。
        ///
        """
    )
    site = make_site({"x.md": page})
    site.build()
    body = main_html(site, "x.md")
    box = body[body.index('<aside class="dz-source"') : body.index("</aside>")]
    assert body.index("</h1>") < body.index('<aside class="dz-source"') < body.index("导言")
    assert '<a href="https://arxiv.org/abs/1234.5678v6">A &lt;Paper&gt;</a>' in box
    assert "作者：Ann、Bob" in box and "版本：arXiv v6" in box
    assert (
        '许可：<a href="https://creativecommons.org/licenses/by/4.0/" rel="license">CC BY 4.0</a>'
        "（Creative Commons Attribution 4.0 International）"
    ) in box
    assert "改动说明：本文将原文译为中文，加入了译者的导言与注释；改动不代表原作者观点。" in box


def test_licence_checks_warn_in_the_build(make_site: Callable[..., Site], logs: Logs) -> None:
    block = "\n/// paragraph | P001\n译文。\n///\n"
    site = make_site(
        {
            "none.md": article("N", "导。", paper="{title: X}") + block,
            "odd.md": article("O", "导。", paper="{license: cc by 4.0}"),
            "nd.md": article("D", "导。", paper="{license: CC-BY-ND-4.0}"),
            "url.md": article("U", "导。", paper="{url: arxiv.org/abs/1}"),
            "f1.md": article("F1", "导。", featured="true"),
            "f2.md": article("F2", "导。", featured="true", weight="heavy"),
            "plain.md": "# 不是文章\n\n/// details | 注\n内容\n///\n",
        }
    )
    site.build()
    logs.take(r"none\.md:3: DZ201 article republishes paragraphs .* 'paper:'", count=1)
    logs.take(
        r"odd\.md:3: DZ202 unknown licence 'license: cc by 4.0'; write 'license: CC-BY-4.0'", 1
    )
    logs.take(r"nd\.md:3: DZ203 'license: CC-BY-ND-4.0' \(CC BY-ND 4.0\) does not allow", 1)
    logs.take(r"url\.md:3: DZ204 'paper.url: arxiv.org/abs/1' is not a web address", 1)
    logs.take(r"f2\.md:3: DZ205 'featured: true' here and in f1\.md", 1)
    logs.take(r"f2\.md:4: DZ206 'weight: heavy' is not a number", 1)


def test_site_codes_are_registered_with_their_severity() -> None:
    bad = parse("---\ntitle: t\npaper: x\nweight: a\n---\n/// paragraph | P001\n译\n///\n", "a.md")
    found = {d.code: d.severity for d in attribution.check_attribution(bad)}
    found.update({d.code: d.severity for d in indexes.check_listing(bad)})
    assert set(found) == {"DZ201", "DZ204", "DZ206"}
    for code, severity in found.items():
        assert CODES[code][0] is severity is Severity.WARNING


def test_social_tags_come_from_the_intro(make_site: Callable[..., Site]) -> None:
    site = make_site(
        {
            "index.md": "# 首页\n",
            "a.md": article(
                'A "quoted" <title>', "导言里的 **粗体** 与 <b>HTML</b>。", status="draft"
            ),
        },
        site_description="站点描述",
        site_url="https://example.org/s/",
        plugins=[{"duizhao": {"site": {"social": True}}}],
    )
    site.build()
    html = site.html("a.md")
    assert '<meta property="og:type" content="article">' in html
    assert '<meta property="og:locale" content="zh_CN">' in html
    assert '<meta property="og:title" content="A &#34;quoted&#34; &lt;title&gt;">' in html
    assert (
        '<meta property="og:description" content="导言里的 粗体 与 &lt;b&gt;HTML&lt;/b&gt;。">'
        in html
    )
    assert '<meta name="description" content="导言里的 粗体 与 &lt;b&gt;HTML&lt;/b&gt;。">' in html
    assert '<meta property="og:url" content="https://example.org/s/a/">' in html
    home = site.html("index.html")
    assert '<meta property="og:type" content="website">' in home
    assert '<meta property="og:description" content="站点描述">' in home


def test_move_links_unit() -> None:
    moved = indexes.move_links(
        "[x](#P1) [y](c.md) [z](https://e.org) ![i](../i.png)", "a/b.md", "index.md"
    )
    assert moved == "[x](a/b.md#P1) [y](a/c.md) [z](https://e.org) ![i](i.png)"
    same = indexes.move_links("[x](#P1) [y](c.md)", "a/b.md", "a/index.md")
    assert same == "[x](b.md#P1) [y](c.md)"


def test_parse_cache_reparses_only_changed_files(tmp_path: Path) -> None:
    from duizhao.memo import ParseCache

    source = tmp_path / "a.md"
    source.write_text(article("A", "一。"), encoding="utf-8")
    cache = ParseCache()
    first = cache.read(source)
    assert cache.read(source) is first
    source.write_text(article("A", "二，更长。"), encoding="utf-8")
    second = cache.read(source)
    assert second is not first and second.intro == "二，更长。"
    source.unlink()
    assert cache.read(source).diagnostics[0].code == "DZ011"


def test_dirty_rebuild_renders_digest_pages_only_when_their_digest_changed(
    make_site: Callable[..., Site], logs: Logs
) -> None:
    site = make_site(
        {
            "index.md": "# 首页\n\n<!-- duizhao:digest -->\n",
            "topics/a.md": article("Alpha", "甲的导言。", featured="true", paper="{license: MIT}")
            + "\n/// paragraph | P001\n> Text.\n\n译文。\n///\n",
            "topics/b.md": article("Bravo", "乙的导言。"),
        },
        plugins=[{"duizhao": {**SITE_PLUGIN["duizhao"], "progress_page": "progress.md"}}],
    )
    site.build(serve=True)
    pages = ("index.html", "topics/index.html", "topics/a/index.html", "progress/index.html")

    def stamps() -> dict[str, int]:
        return {p: (site.site_dir / p).stat().st_mtime_ns for p in pages}

    first = stamps()
    source = site.docs / "topics/a.md"
    # an edit outside the 导言: only the article is rendered again
    _touch_later(source, source.read_text(encoding="utf-8").replace("正文。", "新的正文。"))
    site.build(dirty=True)
    logs.take("A 'dirty' build is being performed", count=1)
    second = stamps()
    assert [p for p in pages if second[p] != first[p]] == ["topics/a/index.html"]
    assert "新的正文" in main_html(site, "topics/a/index.html")
    # an edit of the 导言: the article and both pages showing it
    _touch_later(source, source.read_text(encoding="utf-8").replace("甲的导言", "甲的新导言"))
    site.build(dirty=True)
    logs.take("A 'dirty' build is being performed", count=1)
    third = stamps()
    assert [p for p in pages if third[p] != second[p]] == list(pages[:3])
    for page in pages[:3]:
        assert "甲的新导言" in main_html(site, page), page
    # the nav of a rendered page names the pages the rebuild did not read (MkDocs alone: None)
    titles = nav_titles(site, "topics/a/index.html")
    assert "None" not in titles
    assert {"首页", "翻译进度", "1-Topics &lt;b&gt;", "Bravo"} <= set(titles)


def test_dirty_pages_keep_author_files_and_survive_a_late_failure(
    make_site: Callable[..., Site],
) -> None:
    from mkdocs.structure.files import File

    from duizhao.dirty import DirtyPages

    site = make_site({"a.md": "# A\n"})
    file = File("a.md", str(site.docs), str(site.site_dir), use_directory_urls=True)
    pages = DirtyPages()
    pages.plan([file], lambda f: "digest")
    assert file.abs_src_path == str(site.docs / "a.md")  # other plugins still read it
    pages.finished()
    pages.failed()  # e.g. --strict aborts after every page was written
    assert pages.built == {"a.md": pages.built["a.md"]} and pages.built
    pages.plan([file], lambda f: "digest")
    pages.failed()  # a build that stopped part way: the next one renders everything
    assert pages.built == {}


def test_generated_index_stays_out_of_search(make_site: Callable[..., Site]) -> None:
    site = make_site(
        {"topics/a.md": article("Alpha", "甲的导言。")},
        plugins=["search", SITE_PLUGIN],
    )
    site.build()
    import json

    docs = json.loads((site.site_dir / "search/search_index.json").read_text("utf-8"))["docs"]
    pages = {d["location"].partition("#")[0] for d in docs}
    assert "topics/a/" in pages and "topics/" not in pages
    assert "甲的导言" in text(main_html(site, "topics/index.html"))


def test_dirty_rebuild_keeps_nav_titles_from_the_config(
    make_site: Callable[..., Site], logs: Logs
) -> None:
    site = make_site(
        {
            "topics/a.md": article("Alpha", "甲。"),
            "topics/b.md": article("Bravo", "乙。"),
        },
        plugins=[SITE_PLUGIN],
        nav=[{"甲篇": "topics/a.md"}, "topics/b.md"],
    )
    site.build(serve=True)
    source = site.docs / "topics/b.md"
    _touch_later(source, source.read_text(encoding="utf-8").replace("正文。", "新的正文。"))
    site.build(dirty=True)
    logs.take("A 'dirty' build is being performed", count=1)
    titles = nav_titles(site, "topics/b/index.html")
    assert "甲篇" in titles and "Alpha" not in titles  # a/ was not read; its nav title stays


def test_the_import_s_todo_marker_is_never_shown_nor_a_description(
    make_site: Callable[..., Site], logs: Logs
) -> None:
    """An article as `duizhao import` creates it has `<!-- duizhao:todo -->` as its 导言: not
    shown on its page, on the home page or the section's 导言 index, not its description;
    an intro that holds only the marker is an empty intro (DZ009)."""
    from duizhao.importer import chunks_from_text, import_chunks, new_article

    created = import_chunks(
        new_article("Imported", {"title": "X", "license": "MIT"}),
        Path("x.md"),
        chunks_from_text("First.\n\nSecond.\n"),
    ).data.decode()
    assert "## 导言\n\n<!-- duizhao:todo -->\n" in created  # what the import writes
    half = article(
        "Half",
        "半写的导言。\n\n<!-- duizhao:todo -->\n\n还有 <b>一段</b>。",
        paper="{license: MIT}",
    )
    half += "\n/// paragraph | P001\n译文。\n///\n"
    site = make_site(
        {
            "index.md": "# 首页\n\n<!-- duizhao:digest -->\n",
            "topics/imported.md": created,
            "topics/half.md": half,
        },
        site_url="https://example.org/",
        plugins=[{"duizhao": {"site": {"sections": {"topics": "专题"}, "social": True}}}],
    )
    site.build()
    for page in ("topics/imported.md", "topics/half.md", "index.md", "topics/index.md"):
        html = site.html(page)
        assert "duizhao:todo" not in text(main_html(site, page)), page
        assert "&lt;!-- duizhao:todo" not in html, page
        for description in re.findall(r'<meta (?:name|property)="[^"]*description" [^>]*>', html):
            assert "todo" not in description, (page, description)
    imported = site.html("topics/imported.md")
    assert "<!-- duizhao:todo -->\n\n<h2" not in imported  # not even as a comment before 正文
    assert 'name="description"' not in imported.replace('content="站点', "")
    half_html = site.html("topics/half.md")
    assert '<meta name="description" content="半写的导言。 还有 &lt;b&gt;一段&lt;/b&gt;。">' in (
        half_html
    )
    assert "<p>还有 &lt;b&gt;一段&lt;/b&gt;。</p>" in main_html(site, "topics/half.md")
    home = main_html(site, "index.md")
    assert "半写的导言。" in home and "还有 &lt;b&gt;一段&lt;/b&gt;。" in home
    logs.take(r"imported\.md:\d+: DZ009 the '## 导言' section holds only the import's", count=1)


def test_an_intro_of_only_the_todo_marker_is_empty() -> None:
    from duizhao.checks import check_intro

    only = parse(
        "---\ntitle: T\n---\n\n## 导言\n\n<!-- duizhao:todo -->\n\n## 正文\n", Path("a.md")
    )
    assert only.intro == ""
    assert [d.format() for d in check_intro(only)] == [
        "a.md:7: DZ009 the '## 导言' section holds only the import's to-do marker "
        "<!-- duizhao:todo -->; write the introduction in its place"
    ]
    mixed = parse("---\ntitle: T\n---\n\n## 导言\n\n导言 <!-- duizhao:todo -->。\n", Path("a.md"))
    assert mixed.intro == "导言 。"
