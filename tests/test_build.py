"""Tiny MkDocs sites built in tmp_path: what readers get, and what authors are told."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from mkdocs.exceptions import Abort

from conftest import Logs, Site
from duizhao.memo import TemplatesFeature

ARTICLE = """\
---
title: 示例
paper:
  title: An Example
  license: CC-BY-4.0
paragraphs: P001-P003
status: complete
---

# 示例

## 导言

引言见 [](#P002) 与 [B 的 P001](sub/b.md#P001)。

/// paragraph | P001
> Scaled-out MoE LLMs.

规模化的 MoE 模型。
///

/// paragraph | P002
> Second.

第二段，含表格：

| a | b |
| - | - |
| 1 | 2 |
///

/// paragraph | P003
只有译文。
///
"""

OTHER = """\
---
title: B
paper: {title: B paper, license: CC-BY-4.0}
paragraphs: P001-P001
status: complete
---

## 导言

回到 [A 的 P003](../a.md#P003)。

/// paragraph | P001
一。
///
"""


def test_blocks_render_with_ids_languages_and_permalinks(
    make_site: Callable[..., Site],
) -> None:
    site = make_site({"a.md": ARTICLE, "sub/b.md": OTHER})
    site.build()
    html = site.html("a.md")
    for pid in ("P001", "P002", "P003"):
        assert re.search(rf'<div class="dz-para[^"]*" data-dz-id="{pid}" id="{pid}">', html)
        assert f'<a class="dz-pid" href="#{pid}" title="段落 {pid} 的链接">{pid}</a>' in html
    assert '<div class="dz-en" lang="en">\n<p>Scaled-out MoE LLMs.</p>' in html
    assert '<div class="dz-zh" lang="zh-CN">\n<p>规模化的 MoE 模型。</p>' in html
    assert "<table>" in html
    assert html.count('lang="en"') == 2 + html.count('<html lang="en"')
    # Links: in-page with generated text, and across articles with the page URL rewritten.
    assert '<a href="#P002">P002</a>' in html
    assert '<a href="../sub/b/#P001">B 的 P001</a>' in html
    assert '<a href="../../a/#P003">A 的 P003</a>' in site.html("sub/b.md")
    assert 'href="assets/duizhao/duizhao.css"' not in html  # page-relative URL
    assert '<link rel="stylesheet" href="../assets/duizhao/duizhao.css">' in html
    assert (site.site_dir / "assets/duizhao/duizhao.css").is_file()


def test_diagnostics_are_warnings_with_path_and_line(
    make_site: Callable[..., Site], logs: Logs, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = ARTICLE.replace("| P003", "| P002").replace("(#P002)", "(#P009)")
    site = make_site({"a.md": broken, "sub/b.md": OTHER})
    monkeypatch.chdir(site.root)
    site.build()
    ours = logs.take(r"DZ\d{3}")
    assert ours == [
        "duizhao: docs/a.md:14: DZ008 link [](#P009) points to #P009, which is not in this article",
        "duizhao: docs/a.md:32: DZ002 duplicate paragraph ID P002 (first used at line 22); renumber "
        "with 'duizhao renumber'",
        "duizhao: docs/a.md:32: DZ004 missing paragraph ID P003 in a complete article; add the blocks, "
        "renumber, or set 'status: draft'",
        "duizhao: docs/sub/b.md:10: DZ008 link [A 的 P003](../a.md#P003) points to #P003, which is not "
        "in '../a.md'",
    ]
    # MkDocs' own anchor validation sees the same missing anchors (ids are in the tree).
    logs.take(r"contains a link '#P009', but there is no such anchor", count=1)
    logs.take(r"does not contain an anchor '#P003'", count=1)


def test_strict_build_fails_on_a_diagnostic(make_site: Callable[..., Site], logs: Logs) -> None:
    site = make_site({"a.md": ARTICLE.replace("## 导言", "## 引言"), "sub/b.md": OTHER})
    with pytest.raises(Abort):
        site.build(strict=True)
    logs.take(r"docs/a\.md:10: DZ009 article has no '## 导言' section", count=1)
    logs.take(r"Aborted with 1 warnings in strict mode", count=None)


def test_bad_content_never_raises_and_sources_stay_untouched(
    make_site: Callable[..., Site], logs: Logs
) -> None:
    files: dict[str, str | bytes] = {
        "a.md": ARTICLE,
        "sub/b.md": OTHER,
        "latin1.md": b"---\ntitle: x\n---\ncaf\xe9\n",
        "yaml.md": "---\ntitle: [\n---\n\n/// paragraph | P001\n",
        "soup.md": "/// paragraph | P1\n```\n///\n/// figure\n<div>\n///\n",
    }
    site = make_site(files)
    before = {p: p.read_bytes() for p in site.docs.rglob("*") if p.is_file()}
    mtimes = {p: p.stat().st_mtime_ns for p in before}
    site.build()
    assert {p: p.read_bytes() for p in before} == before
    assert {p: p.stat().st_mtime_ns for p in before} == mtimes
    codes = [re.search(r"DZ\d{3}", m).group(0) for m in logs.take(r"DZ\d{3}")]  # type: ignore[union-attr]
    assert {"DZ011", "DZ010", "DZ007", "DZ001", "DZ015"} <= set(codes)
    assert "caf\ufffd" in site.html("latin1.md")


def test_plugin_can_be_disabled(make_site: Callable[..., Site]) -> None:
    site = make_site(
        {"a.md": ARTICLE, "sub/b.md": OTHER},
        plugins=[{"duizhao": {"enabled": False}}],
        validation={"links": {"anchors": "info"}},
    )
    site.build()
    html = site.html("a.md")
    assert "dz-para" not in html
    assert "/// paragraph | P001" in html


def test_serve_keeps_compiled_templates_and_follows_their_edits(
    make_site: Callable[..., Site],
) -> None:
    """Under `mkdocs serve` the theme's templates are compiled once, not on every rebuild; an
    edited override is compiled again."""
    from mkdocs.config import load_config

    site = make_site(
        {"index.md": "# 首页\n"},
        theme={"name": "material", "language": "zh", "font": False, "custom_dir": "overrides"},
    )
    override = site.root / "overrides/main.html"
    override.parent.mkdir()
    block = '{% extends "base.html" %}{% block content %}<p>MARK-{}</p>{{ super() }}{% endblock %}'
    override.write_text(block.replace("{}", "1", 1), "utf-8")
    site.build(serve=True)
    assert "<p>MARK-1</p>" in site.html("index.html")
    plugin = load_config(str(site.root / "mkdocs.yml")).plugins["duizhao"]
    [feature] = [f for f in plugin.features if isinstance(f, TemplatesFeature)]
    cache = feature.cache
    assert len(cache._code) > 10  # main.html, base.html, partials
    compiled = dict(cache._code)
    override.write_text(block.replace("{}", "2", 1), "utf-8")
    site.build()
    assert "<p>MARK-2</p>" in site.html("index.html")
    changed = {key for key in compiled if cache._code[key] != compiled[key]}
    assert len(changed) == 1  # only the override was compiled again


def test_empty_links_to_other_pages_get_text_only_for_their_duizhao_anchors(
    make_site: Callable[..., Site],
) -> None:
    """`[](b.md#P001)` reads "P001" whether written from the page or from the docs root; the
    same link to a page that is not a translation stays as written (its anchor is the site's)."""
    page = ARTICLE.replace(
        "引言见 [](#P002)",
        "引言见 [](#P002)、[](sub/b.md#P001)、[](/sub/b.md#P001) 与 [](plain.md#P001)",
    )
    plain = "# Plain\n\n## P001\n\nThe site's own heading.\n"
    site = make_site(
        {"a.md": page, "sub/b.md": OTHER, "plain.md": plain},
        validation={"links": {"absolute_links": "relative_to_docs"}},
    )
    site.build(strict=True)
    html = site.html("a.md")
    assert html.count('<a href="../sub/b/#P001">P001</a>') == 2
    assert '<a href="../plain/#P001"></a>' in html


def test_serve_rebuilds_report_links_into_a_changed_page(
    make_site: Callable[..., Site], logs: Logs
) -> None:
    """Under `mkdocs serve --dirty` the link checks of unchanged pages are reused only while no
    page's anchors changed: renumbering b.md reports a's link to it at once, and fixing it
    clears the warning."""
    site = make_site({"a.md": ARTICLE, "sub/b.md": OTHER})
    site.build(serve=True)
    link = r"docs/a\.md:\d+: DZ008 link \[B 的 P001\]\(sub/b\.md#P001\)"
    assert not logs.take(link)
    site.write("sub/b.md", OTHER.replace("P001", "P002"))
    site.build(dirty=True)
    logs.take(link, 1)
    site.write("a.md", ARTICLE.replace("规模化的", "规模化"))  # an edit elsewhere: still reported
    site.build(dirty=True)
    logs.take(link, 1)
    site.write("sub/b.md", OTHER)
    site.build(dirty=True)
    assert not logs.take(link)
    logs.take("A 'dirty' build is being performed", count=3)
