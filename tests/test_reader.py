"""The reader's build side: assets copied from node_modules, the early mode script, and one
search entry per numbered paragraph."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import markdown

from conftest import Logs, Site
from duizhao.head import inject_head
from duizhao.markdown import DuizhaoExtension
from duizhao.reader.assets import HEAD_SCRIPT, katex_package, mermaid_package
from duizhao.search.paragraphs import (
    ParagraphText,
    SearchPages,
    paragraph_texts,
    search_entries,
    segment_chinese,
)
from reader_site import FILES, VENDOR, fix_tags, reader_config


def reader_site(make_site: Callable[..., Site], **extra: object) -> Site:
    site = make_site(FILES, **reader_config(**extra))
    fix_tags(site.root / "mkdocs.yml")
    return site


def search_index(site: Site) -> list[dict[str, str]]:
    data = json.loads((site.site_dir / "search/search_index.json").read_text("utf-8"))
    docs: list[dict[str, str]] = data["docs"]
    return docs


def test_paragraph_texts_read_both_sides_without_the_permalink() -> None:
    md = markdown.Markdown(extensions=[DuizhaoExtension(), "tables"])
    html = md.convert(
        "/// paragraph | P007\n> The **MoE** layer &amp; XCCL.\n\n专家层 <b>与</b> XCCL。\n///\n\n"
        "/// paragraph | P008\n只有译文。\n///\n"
    )
    assert paragraph_texts(html) == [
        ParagraphText("P007", "The MoE layer & XCCL.", "专家层 与 XCCL。"),
        ParagraphText("P008", "", "只有译文。"),
    ]


def test_segment_chinese_joins_words_with_zero_width_space() -> None:
    def cut(text: str) -> list[str]:
        return {"的通信契约与显存": ["的", "通信契约", "与", "显存"], "段": ["段"]}[text]

    assert segment_chinese("XCCL 的通信契约与显存, P042 段", cut) == (
        "XCCL \u200b的\u200b通信契约\u200b与\u200b显存\u200b, P042 \u200b段"
    )


def test_segment_chinese_matches_material_with_jieba() -> None:
    import jieba
    from material.plugins.search.plugin import SearchIndex

    text = "FlowServe 在超节点内调度请求，遵守通信契约（显存 42 GB）。"
    assert segment_chinese(text, jieba.cut) == SearchIndex()._segment_chinese(text)


def test_search_entries_link_to_the_paragraph() -> None:
    entries = search_entries(
        "a/", "显存 <调优>", [ParagraphText("P042", "Memory <peak>", "峰值")], lambda s: [s]
    )
    assert entries == [
        {
            "location": "a/#P042",
            "title": "P042 · \u200b显存\u200b &lt;\u200b调优\u200b&gt;",
            "text": "<p>Memory &lt;peak&gt;</p><p>\u200b峰值\u200b</p>",
        }
    ]


def test_inject_head_once() -> None:
    page = "<html><head><title>t</title></head><body></body></html>"
    once = inject_head(page, HEAD_SCRIPT)
    assert once == page.replace("</head>", HEAD_SCRIPT + "</head>")
    assert inject_head(once, HEAD_SCRIPT) == once
    assert inject_head("<p>fragment</p>", HEAD_SCRIPT) == "<p>fragment</p>"


def test_vendor_packages_name_what_is_missing(tmp_path: Path) -> None:
    mermaid = mermaid_package(tmp_path)
    assert mermaid.missing == [tmp_path / "mermaid/dist/mermaid.min.js"]
    assert mermaid.feature == "mermaid diagrams (npm package mermaid@11)"
    assert tmp_path / "katex/dist/katex.min.js" in katex_package(tmp_path).missing
    assert katex_package(VENDOR).missing == []


def test_build_copies_vendor_assets_and_orders_scripts(make_site: Callable[..., Site]) -> None:
    site = reader_site(make_site)
    site.build()
    html = site.html("a.md")
    # In the content, where Material's instant navigation runs them again; before Material's
    # bundle, so that it finds window.mermaid and never asks a CDN for it.
    scripts = re.findall(r'<script src="([^"]+)">', html)
    assert scripts == [
        "../assets/duizhao/vendor/mermaid/mermaid.min.js",
        "../assets/duizhao/vendor/katex/katex.min.js",
        "../assets/duizhao/vendor/katex/contrib/auto-render.min.js",
        "../assets/duizhao/math.js",
        "../assets/duizhao/duizhao.js",
        "../assets/javascripts/bundle.a5f9d56c.min.js",
    ]
    assert html.index("duizhao.js") < html.index("</article>")
    assert '<link rel="stylesheet" href="../assets/duizhao/vendor/katex/katex.min.css">' in html
    assert html.index(HEAD_SCRIPT) < html.index("</head>")
    vendor = site.site_dir / "assets/duizhao/vendor"
    assert (vendor / "mermaid/mermaid.min.js").stat().st_size > 1_000_000
    assert (vendor / "katex/fonts/KaTeX_Main-Regular.woff2").is_file()
    assert "unpkg" not in html and "googleapis" not in html and "cdn" not in html.lower()


def test_site_without_diagrams_or_math_needs_no_node_modules(
    make_site: Callable[..., Site], tmp_path: Path
) -> None:
    site = make_site(
        {"a.md": "# A\n\n/// paragraph | P001\n> Text.\n\n文字。\n///\n"},
        plugins=[{"duizhao": {"vendor_dir": str(tmp_path / "nowhere")}}],
    )
    site.build()
    assert not (site.site_dir / "assets/duizhao/vendor").exists()
    assert (site.site_dir / "assets/duizhao/duizhao.js").is_file()


def test_missing_node_modules_warn_on_the_pages_that_need_them(
    make_site: Callable[..., Site], logs: Logs
) -> None:
    site = reader_site(make_site)
    config = (site.root / "mkdocs.yml").read_text("utf-8")
    (site.root / "mkdocs.yml").write_text(config.replace(str(VENDOR), "vendor"), "utf-8")
    site.build()
    [message] = logs.take("duizhao: a.md needs mermaid", count=1)
    assert message == (
        "duizhao: a.md needs mermaid diagrams (npm package mermaid@11), but "
        f"{site.root / 'vendor/mermaid/dist/mermaid.min.js'} does not exist. Run `npm ci` "
        "(or `make setup`) next to mkdocs.yml, or point the plugin's `vendor_dir` at your "
        "node_modules"
    )
    logs.take(r"duizhao: \S+ needs math \(npm package katex@0.16\)")
    assert "mermaid.min.js" not in site.html("a.md")
    assert not (site.site_dir / "assets/duizhao/vendor").exists()


def test_mathjax_output_is_left_to_the_site(make_site: Callable[..., Site]) -> None:
    site = make_site(
        {"a.md": "# A\n\n/// paragraph | P001\n> $x$\n\n$y$\n///\n"},
        plugins=["duizhao"],
        markdown_extensions=["pymdownx.arithmatex"],
    )
    site.build()
    assert "katex" not in site.html("a.md")


def test_search_index_has_one_entry_per_paragraph(make_site: Callable[..., Site]) -> None:
    site = reader_site(make_site)
    site.build()
    entries = {e["location"]: e for e in search_index(site) if "#P0" in e["location"]}
    assert len(entries) == 12 + 2
    p003 = entries["a/#P003"]
    assert p003["title"] == "P003 · \u200b显存\u200b与\u200b XCCL"
    assert p003["text"] == (
        "<p>FlowServe schedules requests across the supernode.</p>"
        "<p>FlowServe \u200b在\u200b超节点\u200b内\u200b调度\u200b请求\u200b，"
        "\u200b遵守\u200b通信契约\u200b。</p>"
    )
    # Headings stay Material's own entries, without the paragraphs' text: a phrase of P003 is
    # found once, at #P003.
    [section] = [e for e in search_index(site) if e["location"] == "a/#1"]
    assert "FlowServe" not in section["text"]
    assert [e["location"] for e in search_index(site) if "FlowServe" in e["text"]] == ["a/#P003"]
    # Material removes the marker it reads from the published page.
    assert "data-search-exclude" not in site.html("a.md")
    assert 'data-dz-id="P003"' in site.html("a.md")


def test_paragraph_search_can_be_turned_off(make_site: Callable[..., Site]) -> None:
    site = reader_site(make_site)
    config = (site.root / "mkdocs.yml").read_text("utf-8")
    (site.root / "mkdocs.yml").write_text(
        config.replace("vendor_dir:", "paragraph_search: false\n    vendor_dir:"), "utf-8"
    )
    site.build()
    assert not [e for e in search_index(site) if "#P0" in e["location"]]


def test_dirty_rebuild_keeps_other_pages_paragraph_entries(make_site: Callable[..., Site]) -> None:
    """`mkdocs serve --dirty` renders only the changed page; the others' entries must stay."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    site = reader_site(make_site)
    config = load_config(str(site.root / "mkdocs.yml"), site_dir=str(site.site_dir))
    config.plugins.on_startup(command="serve", dirty=True)
    build(config)
    b = site.docs / "b.md"
    b.write_text(b.read_text("utf-8").replace("第二段。", "第二段，改过。"), "utf-8")
    build(config, dirty=True)
    entries = {e["location"]: e["text"] for e in search_index(site) if "#P0" in e["location"]}
    assert len(entries) == 12 + 2
    assert "改过" in entries["b/#P002"]


def _later(path: Path, text: str) -> None:
    """Write ``text`` with a modification time that a dirty build sees as newer."""
    import os
    import time

    path.write_text(text, "utf-8")
    later = time.time() + 5
    os.utime(path, (later, later))


def _canonical(entries: list[dict[str, str]]) -> list[str]:
    return sorted(json.dumps(e, ensure_ascii=False, sort_keys=True) for e in entries)


def test_dirty_rebuild_of_several_pages_writes_the_full_index(
    make_site: Callable[..., Site], logs: Logs, tmp_path: Path
) -> None:
    """An edited 导言 renders its article, the section index and the home page again. Material
    merges a dirty rebuild's entries by the first one's location prefix (the home page's is "",
    which matched every page); the index must be exactly what a full build writes."""
    files = {
        **FILES,
        "index.md": "# 首页\n\n首页的话。\n\n<!-- duizhao:digest -->\n",
        "topics/c.md": "---\ntitle: 丙\npaper: {license: MIT}\n---\n\n# 丙\n\n## 导言\n\n丙的旧导言。\n\n## 正文\n\n"
        "/// paragraph | P001\n> Old text.\n\n旧的段落。\n///\n",
    }
    site = make_site(files, **reader_config())
    fix_tags(site.root / "mkdocs.yml")
    config = (site.root / "mkdocs.yml").read_text("utf-8")
    (site.root / "mkdocs.yml").write_text(
        config.replace("vendor_dir:", "site: {sections: {topics: 专题}}\n    vendor_dir:"), "utf-8"
    )
    site.build(serve=True)
    before = search_index(site)
    assert any(e["location"] == "b/#P001" for e in before)
    source = site.docs / "topics/c.md"
    text = source.read_text("utf-8").replace("丙的旧导言", "丙的新导言")
    _later(source, text.replace("旧的段落", "新的段落"))
    site.build(dirty=True)
    logs.take("A 'dirty' build is being performed", count=1)
    dirty = search_index(site)
    [c] = [e["text"] for e in dirty if e["location"] == "topics/c/#P001"]
    assert "新的段落" in c.replace("\u200b", "")

    full = Site(site.root, tmp_path / "full-site")  # the same sources, built whole
    full.build()
    assert _canonical(dirty) == _canonical(search_index(full))
    # the generated section index is left to its articles (no duplicate 导言 hits)
    assert not [e for e in dirty if e["location"].startswith("topics/#")]
    assert not [e for e in dirty if e["location"] == "topics/"]
    # the home page, written by the author, keeps its entries
    assert any(e["location"] == "" and "首页" in e["text"] for e in dirty)


def test_search_pages_replace_what_a_build_rendered_and_keep_the_rest() -> None:
    def entry(location: str) -> dict[str, str]:
        return {"location": location, "title": location, "text": ""}

    def paged(*entries: dict[str, str]) -> list[tuple[str, dict[str, str]]]:
        return [(e["location"].partition("#")[0], e) for e in entries]

    pages: SearchPages[dict[str, str]] = SearchPages()
    first = pages.update(
        ["", "a/", "b/"],
        ["", "a/", "b/"],
        paged(entry(""), entry("#x"), entry("a/"), entry("b/"), entry("b/#y")),
        {"a/": [entry("a/#P001")]},
    )
    assert [e["location"] for e in first] == ["", "#x", "a/", "a/#P001", "b/", "b/#y"]
    # a dirty rebuild rendered the home page and b/ (its #y heading is gone); c/ is new, a/ kept
    second = pages.update(
        ["", "a/", "b/", "c/"],
        ["", "b/", "c/"],
        paged(entry(""), entry("b/"), entry("c/")),
        {"a/": [entry("a/#P001")]},
    )
    assert [e["location"] for e in second] == ["", "a/", "a/#P001", "b/", "c/"]
    # a/ was deleted; an entry of a page outside the list is kept, at the end
    third = pages.update(["", "b/", "c/"], ["c/"], paged(entry("c/"), entry("x/")), {})
    assert [e["location"] for e in third] == ["", "b/", "c/", "x/"]


def test_pages_excluded_from_search_get_no_paragraph_entries(
    make_site: Callable[..., Site],
) -> None:
    site = reader_site(make_site)
    b = site.docs / "b.md"
    b.write_text(b.read_text("utf-8").replace("---\n", "---\nsearch: {exclude: true}\n", 1))
    site.build()
    locations = [e["location"] for e in search_index(site)]
    assert "a/#P001" in locations
    assert not [loc for loc in locations if loc.startswith("b/")]


def test_material_skips_the_whole_paragraph_even_around_nested_blocks() -> None:
    from material.plugins.search.plugin import Parser

    md = markdown.Markdown(extensions=[DuizhaoExtension(search_exclude=True), "admonition"])
    html = md.convert(
        "## 节\n\n/// paragraph | P001\n> Before the note.\n\n前文。\n\n"
        "!!! note\n    注记。\n\n后文。\n///\n\n段落之外。\n"
    )
    parser = Parser()
    parser.feed(html)
    parser.close()
    text = "".join("".join(section.text) for section in parser.data)
    assert "段落之外" in text
    assert not [word for word in ("Before", "前文", "注记", "后文", "P001") if word in text]
