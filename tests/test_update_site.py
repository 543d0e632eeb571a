"""What `duizhao update` leaves for the site: removed blocks never published, the 原文已更新 mark
comparing the old and the new original, alias anchors that MkDocs' validation accepts."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import Logs, Site
from duizhao.cli import main
from test_search_pagefind import fragments

ARTICLE = """\
---
title: 月饼
paper: {title: Mooncake, license: Apache-2.0}
paragraphs: P001-P003
status: draft
---

# 月饼

## 导言

一篇测试文章。

/// paragraph | P001
> Mooncake is the serving platform for Kimi, a leading LLM service provided by Moonshot AI, and it separates the prefill and decoding clusters.

Mooncake 是月之暗面旗下领先的大模型服务 Kimi 的推理服务平台，它将 prefill 集群与 decoding 集群分开。
///

/// paragraph | P002
> The trace will be open-sourced later after following certain internal procedures of the company.

REMOVEDSECRET 该轨迹数据在走完内部流程后将会开源。
///

/// paragraph | P003
> The core of Mooncake is its KVCache-centric scheduler, which balances throughput against the latency objectives.

Mooncake 的核心是以 KVCache 为中心的调度器，它在吞吐与延迟目标之间取得平衡。
///
"""

NEW = """\
Mooncake is the serving platform for Kimi, a leading LLM service provided by Moonshot AI, and it separates the prefill and decoding clusters.

The core of Mooncake is its KVCache-centric scheduler, which balances throughput against the latency-related objectives under overload.
"""

LINKS = "# 链接\n\n[书签](a.md#P003) 与 [第二段](a.md#P002)\n"


def _cli(root: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.stderr
    return result.stderr


def _updated(
    make_site: Callable[..., Site], monkeypatch: pytest.MonkeyPatch, duizhao: object = "duizhao"
) -> Site:
    site = make_site(
        {"a.md": ARTICLE, "links.md": LINKS, "index.md": "# 首页\n"},
        plugins=["search", duizhao],
    )
    (site.root / "new.md").write_text(NEW, encoding="utf-8")
    _cli(site.root, monkeypatch, "status", "--accept", "docs/a.md")
    err = _cli(site.root, monkeypatch, "update", "docs/a.md", "--from", "new.md", "--write")
    assert "3 → 2 paragraphs: 1 same, 1 edited, 1 removed" in err
    return site


def test_removed_blocks_never_reach_the_site(
    make_site: Callable[..., Site], monkeypatch: pytest.MonkeyPatch, logs: Logs
) -> None:
    site = _updated(make_site, monkeypatch)
    assert "REMOVEDSECRET" in (site.docs / "a.removed.yml").read_text(encoding="utf-8")
    site.build()
    logs.take(r"DZ008 link \[第二段\]\(a\.md#P002\)")  # P002 no longer exists: checked
    published = [p for p in site.site_dir.rglob("*") if p.is_file()]
    assert not [p for p in published if p.name.endswith(".removed.yml")]
    for path in published:
        data = path.read_bytes()
        assert b"REMOVEDSECRET" not in data, path  # not in a page, a comment or the index
    assert "REMOVEDSECRET" not in (site.site_dir / "search/search_index.json").read_text("utf-8")


def test_pagefinds_index_holds_neither_removed_blocks_nor_the_old_original(
    make_site: Callable[..., Site], monkeypatch: pytest.MonkeyPatch, logs: Logs
) -> None:
    """The other search back end (``search: pagefind``): its fragments are compressed, so the
    byte search above cannot see into them; read, they hold the page's new original and its
    translations, not the removed block nor the comparison's old original."""
    site = _updated(make_site, monkeypatch, {"duizhao": {"search": "pagefind"}})
    site.build()
    logs.take(r"DZ008 link \[第二段\]\(a\.md#P002\)")
    texts = [json.dumps(f, ensure_ascii=False) for f in fragments(site.site_dir)]
    article = [t for t in texts if "月饼" in t]
    assert article and any("latency-related objectives under overload" in t for t in article)
    for text in texts:
        assert "REMOVEDSECRET" not in text
        assert "旧版原文" not in text and "latency objectives" not in text


def test_a_removed_file_without_its_page_is_the_sites_own(
    make_site: Callable[..., Site], logs: Logs
) -> None:
    site = make_site({"index.md": "# 首页\n", "notes.removed.yml": "mine: true\n"})
    site.build()
    assert (site.site_dir / "notes.removed.yml").read_text(encoding="utf-8") == "mine: true\n"


def test_stale_mark_opens_old_and_new_side_by_side(
    make_site: Callable[..., Site], monkeypatch: pytest.MonkeyPatch, logs: Logs
) -> None:
    site = _updated(make_site, monkeypatch)
    (site.docs / "links.md").write_text("# 链接\n\n[书签](a.md#P002)\n", encoding="utf-8")
    site.build(strict=True)
    page = site.html("a.md")
    assert '<div class="dz-para dz-para--stale" data-dz-id="P002" id="P002">' in page
    assert '<details class="dz-stale">' in page
    assert "<summary" in page and "原文已更新</summary>" in page
    assert "旧版原文（译文据此翻译）" in page and "新版原文" in page
    assert "against the <del>latency</del> objectives.</p>" in page
    assert (
        "against the <ins>latency-related</ins> objectives <ins>under overload</ins>.</p>" in page
    )
    index = (site.site_dir / "search/search_index.json").read_text(encoding="utf-8")
    assert "旧版原文" not in index  # the comparison is not indexed
    entries = [e for e in json.loads(index)["docs"] if e["location"].startswith("a/")]
    assert not any("latency objectives" in e["text"] for e in entries)


def test_alias_anchors_keep_old_bookmarks(
    make_site: Callable[..., Site], monkeypatch: pytest.MonkeyPatch, logs: Logs
) -> None:
    site = make_site(
        {"a.md": ARTICLE, "index.md": "# 首页\n", "links.md": "[旧书签](a.md#P003)\n"},
        plugins=["search", "duizhao"],
    )
    (site.root / "new.md").write_text(NEW, encoding="utf-8")
    _cli(site.root, monkeypatch, "update", "docs/a.md", "--from", "new.md", "--write")
    # the update rewrote the link to the paragraph's new ID (links in the docs tree follow;
    # the alias is for readers' bookmarks from before)
    assert (site.docs / "links.md").read_text(encoding="utf-8") == "[旧书签](a.md#P002)\n"
    lock = json.loads((site.root / "duizhao.lock").read_text(encoding="utf-8"))
    assert lock["aliases"] == {"a.md": {"P003": "P002"}}
    site.build(strict=True)  # MkDocs' anchor validation: no warning, no duplicate ID
    page = site.html("a.md")
    at = page.index('id="P002"')
    assert page.index('<span class="dz-alias" id="P003"></span>', at) < page.index("dz-en", at)
    assert page.count('id="P003"') == 1
    assert '<a href="../a/#P002">旧书签</a>' in site.html("links.md")
