"""After `duizhao update`, in headless Chromium: the 原文已更新 mark opens the old and the new
original side by side (in every reading mode), and an old ID's bookmark lands on the paragraph
it became, highlighted like any #P042 landing. No request leaves 127.0.0.1."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
import yaml
from click.testing import CliRunner
from playwright.sync_api import Browser, Page, expect

from conftest import Site
from duizhao.cli import main
from reader_site import ROOT, reader_config
from test_reader_browser import Watch, free_port, serve

pytestmark = pytest.mark.browser

ARTIFACTS = ROOT / "test-results" / "update"

FILLER = "\n".join(
    f"/// paragraph | P{n:03d}\n> Filler paragraph {n} keeps the page long enough to scroll "
    f"down to the paragraphs below it.\n\n第 {n} 段填充文字，让页面足够长。\n///\n"
    for n in range(3, 12)
)

ARTICLE = (
    """\
---
title: 月饼
paper: {title: Mooncake, license: Apache-2.0, version: v1}
paragraphs: P001-P013
status: draft
---

# 月饼

## 导言

一篇测试文章。

/// paragraph | P001
> The trace will be open-sourced later after following certain internal procedures of the company.

该轨迹数据在走完内部流程后将会开源。
///

/// paragraph | P002
> Mooncake is the serving platform for Kimi, a leading LLM service provided by Moonshot AI, and it separates the prefill and decoding clusters.

Mooncake 是月之暗面旗下领先的大模型（LLM）服务 Kimi 的推理服务平台，它将 prefill 集群与 decoding 集群分开。
///

"""
    + FILLER
    + """
/// paragraph | P012
> The core of Mooncake is its KVCache-centric scheduler, which balances throughput against the latency objectives.

Mooncake 的核心是以 KVCache 为中心的调度器，它在吞吐与延迟目标之间取得平衡。
///

/// paragraph | P013
> Mooncake is the primary platform for serving Kimi and has handled exponential workload growth.

Mooncake 是服务 Kimi 的主要平台，经受住了指数级增长的负载。
///
"""
)


def _new_version() -> str:
    article = ARTICLE.split("## 导言", 1)[1]
    originals = [line[2:] for line in article.split("\n") if line.startswith("> ")]
    originals = originals[1:]  # P001 is gone: every ID moves up by one
    originals[-2] = originals[-2].replace(
        "latency objectives", "latency-related objectives under overload"
    )
    return "\n\n".join(originals) + "\n"


@pytest.fixture(scope="module")
def updated_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    root = tmp_path_factory.mktemp("update-site")
    site = Site(root, root / "site")
    site.docs.mkdir()
    site.write("index.md", "# 首页\n")
    (site.docs / "a.md").write_text(ARTICLE, encoding="utf-8")
    (root / "new.md").write_text(_new_version(), encoding="utf-8")
    port = free_port()
    config = reader_config(site_url=f"http://127.0.0.1:{port}/")
    config.pop("nav", None)
    (root / "mkdocs.yml").write_text(
        yaml.safe_dump({"site_name": "Test", **config}, allow_unicode=True), "utf-8"
    )
    runner = CliRunner()
    cwd = os.getcwd()
    os.chdir(root)
    try:
        for args in (
            ["status", "--accept", "docs/a.md"],
            ["update", "docs/a.md", "--from", "new.md", "--version", "v2", "--write"],
        ):
            result = runner.invoke(main, args)
            assert result.exit_code == 0, result.stderr
    finally:
        os.chdir(cwd)
    build(load_config(str(root / "mkdocs.yml"), site_dir=str(site.site_dir)))
    with serve(site.site_dir, port) as base:
        yield base


def _open(browser: Browser, base: str, path: str) -> tuple[Page, Watch]:
    watch = Watch(base)
    context = watch.attach(browser.new_context(viewport={"width": 1280, "height": 800}))
    page = context.new_page()
    page.goto(base + path)
    page.wait_for_load_state("networkidle")
    return page, watch


def test_the_mark_opens_old_and_new_side_by_side(browser: Browser, updated_site: str) -> None:
    page, watch = _open(browser, updated_site, "a/#P011")
    block = page.locator("#P011")
    summary = block.locator("details.dz-stale > summary")
    expect(summary).to_have_text("原文已更新")
    compare = block.locator(".dz-compare")
    expect(compare).to_be_hidden()
    summary.click()
    expect(compare).to_be_visible()
    old, new = compare.locator(".dz-compare__old"), compare.locator(".dz-compare__new")
    expect(old.locator("del")).to_have_text("latency")
    expect(new.locator("ins").first).to_have_text("latency-related")
    old_box, new_box = old.bounding_box(), new.bounding_box()
    assert old_box and new_box
    assert abs(old_box["y"] - new_box["y"]) < 2 and new_box["x"] > old_box["x"] + old_box["width"]
    # the ID is still a link, though the open comparison shares its row
    expect(block.locator("a.dz-pid")).to_be_visible()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    block.screenshot(path=str(ARTIFACTS / "compare-open.png"))
    # in the 中文 mode the originals of the blocks are hidden, the comparison is not
    page.get_by_role("radiogroup", name="阅读模式").get_by_role("radio", name="中文").check()
    expect(block.locator(".dz-en")).to_be_hidden()
    expect(compare).to_be_visible()
    watch.check()


def test_an_old_bookmark_lands_on_the_paragraph_it_became(
    browser: Browser, updated_site: str
) -> None:
    page, watch = _open(browser, updated_site, "a/#P013")  # P013 is P012 now
    block = page.locator("#P012")
    expect(block).to_have_class("dz-para dz-para--target")
    assert block.locator("#P013").count() == 1
    expect(block).to_be_in_viewport()  # (the last block: the page scrolls to its end)
    assert page.evaluate("window.scrollY") > 0
    watch.check()
