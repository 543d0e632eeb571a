"""The figure lightbox in headless Chromium, across Material's instant navigation."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from conftest import CHROMIUM
from figure_sources import make_pdf

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium"),
]

SPEC = """\
source: ../papers/paper.pdf
figures:
  - {id: 1, page: 1, box: [72, 96, 540, 380], caption: {en: Page one., zh: 第一页的图。}}
  - {id: 2, page: 2, box: [72, 96, 540, 380], caption: {en: Page two., zh: 第二页的图。}}
"""


def article(title: str, other: str) -> str:
    return f"""\
---
title: {title}
paper: {{title: Demo, license: CC-BY-4.0}}
---

# {title}

## 导言

另见 [下一篇]({other})。

/// figure | 1
///

/// figure | 2
///
"""


@pytest.fixture
def served(make_site: Callable[..., Any], tmp_path: Path) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/"
    site = make_site(
        {
            "index.md": "# 首页\n",
            "a.md": article("文章 A", "b.md"),
            "a.figures.yml": SPEC,
            "b.md": article("文章 B", "a.md"),
            "b.figures.yml": SPEC,
        },
        plugins=[{"duizhao": {"figures": {"jobs": 1}}}],
        # Material's instant navigation only takes over links to pages of its sitemap, which
        # lists them under site_url: serve the site where site_url says it is.
        site_url=url,
        theme={
            "name": "material",
            "language": "zh",
            "font": False,
            "features": ["navigation.instant"],
        },
    )
    make_pdf(site.root / "papers" / "paper.pdf")
    site.build()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "http.server",
            str(port),
            "--bind",
            "127.0.0.1",
            "--directory",
            str(site.site_dir),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(url, timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        yield url
    finally:
        server.terminate()
        server.wait(10)


def close_lightbox(page: Any) -> None:
    """Close it; PhotoSwipe ignores a close while its opening animation still runs."""
    for _ in range(40):
        if page.locator(".pswp").count() == 0:
            return
        page.keyboard.press("Escape")
        page.wait_for_timeout(250)
    state = page.evaluate("[...document.querySelectorAll('.pswp')].map(e => e.className)")
    raise AssertionError(f"the lightbox does not close: {state}")


def test_lightbox_opens_and_survives_instant_navigation(served: str, page: Any) -> None:
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(served + "a/")
    page.wait_for_load_state("networkidle")
    page.evaluate("window.__sameDocument = true")

    page.wait_for_selector(".md-content[data-dz-lightbox=ready]", state="attached")
    page.click("#fig-1 a.dz-figure-zoom")
    page.wait_for_selector(".pswp--open .pswp__img")
    caption = page.locator(".pswp__dz-caption")
    expect(caption).to_contain_text("图 1：第一页的图。")
    expect(caption).to_contain_text("Figure 1: Page one.")
    page.click(".pswp__button--arrow--next")
    expect(caption).to_contain_text("图 2：第二页的图。")
    close_lightbox(page)

    # Instant navigation swaps the page in place: the lightbox must follow it.
    page.click("text=下一篇")
    page.wait_for_url(served + "b/")
    page.wait_for_selector("h1:has-text('文章 B')")
    assert page.evaluate("window.__sameDocument === true")
    # figures.js is a module: instant navigation runs it after the page is swapped in.
    page.wait_for_selector(".md-content[data-dz-lightbox=ready]", state="attached")
    page.click("#fig-2 a.dz-figure-zoom")
    page.wait_for_selector(".pswp--open .pswp__img")
    assert "图 2：第二页的图。" in page.locator(".pswp__dz-caption").inner_text()
    page.wait_for_selector('.pswp__img[src*="/assets/figures/b/fig-2."][src$=".webp"]')
    close_lightbox(page)

    assert errors == []
    assert requests and all(r.startswith(served) for r in requests), requests
