"""Readers' search in headless Chromium: Pagefind inside Material's search box against
Material's own search (duizhao's paragraph entries) on the same site (tests/search_site.py).

Quality: every query of the set that finds its right result in the first five with Material's
search does so with Pagefind. Then what a reader does: keyboard, instant navigation, paragraph
results with their numbers, nothing loaded before the box opens, hostile queries, light and
dark on desktop and phone (screenshots under test-results/search/).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from conftest import ROOT, fresh_mkdocs_plugins
from search_site import QUERIES, make_project
from test_reader_browser import DESKTOP, PHONE, Watch, free_port, serve

pytestmark = pytest.mark.browser

ARTIFACTS = ROOT / "test-results" / "search"
TOP = 5


def _build(where: Path, search: str) -> tuple[str, Path]:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    port = free_port()
    root = make_project(where / "project", search, f"http://127.0.0.1:{port}/")
    site = where / "site"
    fresh_mkdocs_plugins()
    build(load_config(str(root / "mkdocs.yml"), site_dir=str(site)))
    return f"http://127.0.0.1:{port}/", site


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """Both builds, served: {"material": base URL, "pagefind": base URL}."""
    built = {name: _build(tmp_path_factory.mktemp(name), name) for name in ("material", "pagefind")}
    with (
        serve(built["material"][1], int(built["material"][0].split(":")[2].rstrip("/"))) as a,
        serve(built["pagefind"][1], int(built["pagefind"][0].split(":")[2].rstrip("/"))) as b,
    ):
        yield {"material": a, "pagefind": b}


@pytest.fixture
def context(browser: Browser) -> Iterator[Any]:
    made: list[Any] = []

    def make(**options: Any) -> Any:
        options.setdefault("viewport", DESKTOP)
        ctx = browser.new_context(**options)
        made.append(ctx)
        return ctx

    yield make
    for ctx in made:
        ctx.close()


def open_search(page: Page) -> None:
    page.locator(".md-search__input").click()
    expect(page.locator(".md-search-result__meta")).to_have_text("键入以开始搜索")


def results(page: Page, query: str, settle: float = 0.6) -> list[str]:
    """Type ``query``; the result links (path and anchor, as the page resolves them) once the
    list has not changed for ``settle`` seconds."""
    box = page.locator(".md-search__input")
    box.fill(query)
    box.press("End")
    meta = page.locator(".md-search-result__meta")
    expect(meta).not_to_have_text("键入以开始搜索", timeout=20_000)
    last, since = None, time.monotonic()
    deadline = since + 20
    while time.monotonic() < deadline:
        now = page.eval_on_selector_all(".md-search-result__link", "els => els.map(e => e.href)")
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= settle:
            break
        time.sleep(0.05)
    base = urlsplit(page.url)
    out = []
    for href in last or []:
        parts = urlsplit(href)
        assert (parts.scheme, parts.netloc) == (base.scheme, base.netloc), href
        out.append(parts.path.lstrip("/") + (f"#{parts.fragment}" if parts.fragment else ""))
    return out


def rank(hrefs: list[str], expected: str) -> int | None:
    """1-based position of the first link that is the expected result, or None."""
    for i, href in enumerate(hrefs, 1):
        if href == expected or (expected.startswith("#") and href.endswith(expected)):
            return i
    return None


def test_pagefind_finds_every_result_materials_search_finds(
    sites: dict[str, str], context: Any
) -> None:
    table = []
    for name in ("material", "pagefind"):
        page = context().new_page()
        page.goto(sites[name] + "reader/a/")
        open_search(page)
        for query, expected in QUERIES:
            hrefs = results(page, query)
            table.append((name, query, expected, rank(hrefs, expected), hrefs[:TOP]))
    ranks = {(name, query): r for name, query, _e, r, _h in table}
    report = "\n".join(
        f"{name:9} {query!r:22} {expected:42} rank {r}  {hrefs}"
        for name, query, expected, r, hrefs in table
    )
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "quality.txt").write_text(report + "\n", encoding="utf-8")
    lost = [
        query
        for query, _expected in QUERIES
        if (ranks[("material", query)] or 99) <= TOP and (ranks[("pagefind", query)] or 99) > TOP
    ]
    assert lost == [], report
    found = {
        name: sum((ranks[(name, q)] or 99) <= TOP for q, _ in QUERIES)
        for name in ("material", "pagefind")
    }
    # Not a set that both miss: Material finds a good part of it, Pagefind more.
    assert found["material"] >= len(QUERIES) * 0.4, report
    assert found["pagefind"] > found["material"], report


def test_a_paragraph_result_shows_its_number_and_excerpt(
    sites: dict[str, str], context: Any
) -> None:
    page = context().new_page()
    page.goto(sites["pagefind"] + "quality/")
    open_search(page)
    hrefs = results(page, "流水线并行")
    assert rank(hrefs, "quality/#P003") == 1 or "quality/#P003" in hrefs[:TOP]
    item = page.locator(".md-search-result__link[href*='#P003']").first
    expect(item.locator("h2")).to_have_text("P003 · 1 显存")
    expect(item.locator("mark").first).to_be_visible()
    assert "流水" in item.inner_text()
    # An English query shows the original's words.
    results(page, "micro-batches")
    expect(page.locator(".md-search-result__link[href*='#P003'] mark").first).to_be_visible()


def test_keyboard_and_instant_navigation_land_on_the_paragraph(
    sites: dict[str, str], context: Any
) -> None:
    watch = Watch(sites["pagefind"])
    page = watch.attach(context()).new_page()
    page.goto(sites["pagefind"] + "reader/b/")
    page.wait_for_function("window.component$ !== undefined")
    page.evaluate("window.__sameDocument = true")
    page.keyboard.press("/")  # Material's shortcut opens the box
    expect(page.locator(".md-search__input")).to_be_focused()
    expect(page.locator(".md-search-result__meta")).to_have_text("键入以开始搜索")
    hrefs = results(page, "超节点 NPU")
    assert hrefs[:2] == ["quality/", "quality/#P007"]
    page.keyboard.press("ArrowDown")  # the page, then its best hit
    page.keyboard.press("ArrowDown")
    expect(page.locator(".md-search-result__link[href*='#P007']").first).to_be_focused()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    expect(page.locator(".md-search__input")).to_be_focused()
    page.keyboard.press("Enter")  # Material: the best result of the first page
    page.wait_for_function("location.pathname.endsWith('/quality/')")
    assert page.evaluate("window.__sameDocument") is True  # instant navigation
    assert urlsplit(page.url).fragment == "P007"
    expect(page.locator("#P007")).to_be_in_viewport()
    watch.check()


def test_page_load_fetches_no_search_data_until_the_box_opens(
    sites: dict[str, str], context: Any
) -> None:
    ctx = context()
    requested: list[str] = []
    ctx.on("request", lambda r: requested.append(urlsplit(r.url).path))
    page = ctx.new_page()
    page.goto(sites["pagefind"] + "quality/", wait_until="networkidle")
    page.wait_for_timeout(500)
    assert not [p for p in requested if "/search/pagefind/" in p], requested
    index = [p for p in requested if p.endswith("search_index.json")]
    assert index  # Material still asks for its index: it holds no documents
    page.locator(".md-search__input").click()
    page.wait_for_timeout(1000)
    assert "/search/pagefind/pagefind.js" in requested  # opening the box loads the index
    assert not [p for p in requested if "/fragment/" in p]  # the text comes with a query


BAD_QUERIES = [
    "显" * 10_000,
    "memory " * 1500,
    ".*+?^${}()|[]\\",
    "(a+)+$",
    '<img src=x onerror="window.__pwned=1">',
    "<script>window.__pwned=1</script>",
    '"unclosed',
    "-",
    "P042" + "\u0000" + "\u202e",
]


def test_hostile_queries_render_no_markup_and_end(sites: dict[str, str], context: Any) -> None:
    watch = Watch(sites["pagefind"])
    page = watch.attach(context()).new_page()
    page.goto(sites["pagefind"] + "quality/")
    open_search(page)
    box = page.locator(".md-search__input")
    for query in BAD_QUERIES:
        start = time.monotonic()
        box.fill(query)
        box.press("End")
        page.wait_for_timeout(300)
        results(page, query, settle=0.3)
        assert time.monotonic() - start < 15, query[:40]
        list_html = page.locator(".md-search-result__list").inner_html()
        assert "<img" not in list_html and "<script" not in list_html, query[:40]
        assert page.evaluate("window.__pwned") is None
    box.fill("")
    box.press("End")
    expect(page.locator(".md-search-result__meta")).to_have_text("键入以开始搜索")
    watch.check()


def test_a_page_whose_text_holds_markup_shows_it_as_text(
    sites: dict[str, str], context: Any
) -> None:
    page = context().new_page()
    page.goto(sites["pagefind"] + "quality/")
    open_search(page)
    results(page, "代码块")  # the demo's code block shows "/// paragraph | P999" as text
    list_html = page.locator(".md-search-result__list").inner_html()
    assert "<script" not in list_html


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_screenshots_of_results(
    sites: dict[str, str], context: Any, scheme: str, device: str
) -> None:
    options: dict[str, Any] = {"color_scheme": scheme}
    if device == "phone":
        options.update(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context(**options).new_page()
    page.goto(sites["pagefind"] + "quality/")
    if device == "phone":
        page.locator("label.md-header__button[for=__search]").click()
    open_search(page)
    results(page, "显存")
    expect(page.locator(".md-search-result__item").first).to_be_visible()
    background = page.evaluate(
        "getComputedStyle(document.querySelector('.md-search__output')).backgroundColor"
    )
    dark = page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
    assert dark == (scheme == "dark"), background
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"results-{device}-{scheme}.png"))
    if os.environ.get("DUIZHAO_README_SHOTS"):
        page.screenshot(
            path=str(Path(os.environ["DUIZHAO_README_SHOTS"]) / f"search-{device}-{scheme}.png")
        )
