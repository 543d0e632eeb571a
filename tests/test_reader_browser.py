"""The reader in headless Chromium: modes, permalinks, hover pairing, search, diagrams and math,
offline loading. Sites are built, served by `python -m http.server` on 127.0.0.1, and every
test fails on a request to another host or a console error."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from playwright.sync_api import Browser, BrowserContext, Page, expect

from budget import LONG
from conftest import Site
from reader_site import FILES, ROOT, fix_tags, reader_config

pytestmark = pytest.mark.browser

ARTIFACTS = ROOT / "test-results" / "reader"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def serve(directory: Path, port: int | None = None) -> Iterator[str]:
    """Serve ``directory`` on 127.0.0.1 (a free port unless given); yield the base URL."""
    port = port or free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
        cwd=directory,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(200):
            try:
                with urllib.request.urlopen(base, timeout=1):
                    break
            except OSError:
                time.sleep(0.05)
        else:
            raise RuntimeError(f"http.server on port {port} did not answer")
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


@dataclass
class Watch:
    """Everything a context did that a reader's browser must never do."""

    base: str
    outside: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def attach(self, context: BrowserContext) -> BrowserContext:
        context.on("request", self._request)
        context.on("page", self._page)
        for page in context.pages:
            self._page(page)
        return context

    def _request(self, request: Any) -> None:
        url = request.url
        if not (url.startswith(self.base) or url.startswith(("data:", "blob:", "about:"))):
            self.outside.append(url)

    def _page(self, page: Page) -> None:
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))
        page.on(
            "console",
            lambda msg: (
                self.errors.append(f"{page.url}: {msg.text}") if msg.type == "error" else None
            ),
        )

    def check(self) -> None:
        assert self.outside == []
        assert self.errors == []


@pytest.fixture(scope="module")
def test_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The small reader site of reader_site.py, built once and served.

    Material's instant navigation only follows links listed in sitemap.xml, whose URLs come from
    site_url (Material swaps in the page's protocol and hostname but keeps the port), so the
    site is built for the port it is then served on."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    root = tmp_path_factory.mktemp("reader-site")
    site = Site(root, root / "site")
    site.docs.mkdir()
    for rel, content in FILES.items():
        site.write(rel, content)

    port = free_port()
    config = reader_config(site_url=f"http://127.0.0.1:{port}/")
    (root / "mkdocs.yml").write_text(
        yaml.safe_dump({"site_name": "Test", **config}, allow_unicode=True), "utf-8"
    )
    fix_tags(root / "mkdocs.yml")
    build(load_config(str(root / "mkdocs.yml"), site_dir=str(site.site_dir)))
    with serve(site.site_dir, port) as base:
        yield base


@pytest.fixture
def watch(test_site: str) -> Watch:
    return Watch(test_site)


@pytest.fixture
def open_page(browser: Browser, watch: Watch) -> Iterator[Callable[..., Page]]:
    contexts: list[BrowserContext] = []

    def make(path: str, **options: Any) -> Page:
        options.setdefault("viewport", DESKTOP)
        context = watch.attach(browser.new_context(**options))
        contexts.append(context)
        page = context.new_page()
        page.goto(watch.base + path)
        if options.get("java_script_enabled", True):
            wait_ready(page)
        return page

    yield make
    for context in contexts:
        context.close()
    watch.check()


def wait_ready(page: Page) -> None:
    """Material has mounted and, on a page that links duizhao.js (only pages that show
    duizhao's markup do), duizhao.js has run (the <head> script alone sets the mode attribute
    early, so wait for the header control)."""
    page.wait_for_function(
        """() => window.component$ !== undefined && (
          !document.querySelector('script[src$="/duizhao/duizhao.js"]') ||
          document.querySelector('.md-header .dz-mode') !== null)"""
    )


def mode_radio(page: Page, name: str) -> Any:
    return page.get_by_role("radiogroup", name="阅读模式").get_by_role("radio", name=name)


def test_modes_switch_and_persist_across_instant_navigation_and_reload(
    open_page: Callable[..., Page],
) -> None:
    page = open_page("a/")
    en, zh = page.locator("#P001 .dz-en"), page.locator("#P001 .dz-zh")
    expect(mode_radio(page, "对照")).to_be_checked()
    expect(en).to_be_visible()
    expect(zh).to_be_visible()
    # Side by side on a desktop window.
    assert en.bounding_box()["y"] == zh.bounding_box()["y"]  # type: ignore[index]

    mode_radio(page, "中文").check()
    expect(en).to_be_hidden()
    expect(zh).to_be_visible()

    page.evaluate("window.__sameDocument = true")
    page.locator(".md-nav__link", has_text="第二篇").first.click()
    page.wait_for_url("**/b/")
    assert page.evaluate("window.__sameDocument") is True  # instant navigation, no reload
    expect(mode_radio(page, "中文")).to_be_checked()
    expect(page.locator("#P002 .dz-en")).to_be_hidden()
    expect(page.locator("#P002 .dz-zh")).to_be_visible()

    mode_radio(page, "English").check()
    page.reload()
    wait_ready(page)
    expect(mode_radio(page, "English")).to_be_checked()
    expect(page.locator("#P002 .dz-en")).to_be_visible()
    expect(page.locator("#P002 .dz-zh")).to_be_hidden()


def test_mode_control_is_keyboard_reachable(open_page: Callable[..., Page]) -> None:
    page = open_page("a/")
    zh = mode_radio(page, "中文")
    zh.check()
    zh.focus()
    page.keyboard.press("ArrowRight")
    expect(mode_radio(page, "English")).to_be_checked()
    expect(mode_radio(page, "English")).to_be_focused()
    assert page.evaluate("document.documentElement.dataset.dzMode") == "en"
    assert page.evaluate("localStorage.getItem('duizhao.mode')") == "en"


def test_control_hidden_on_pages_without_paragraphs(open_page: Callable[..., Page]) -> None:
    page = open_page("")
    expect(page.locator(".dz-mode")).to_be_hidden()
    page.locator(".md-nav__link", has_text="显存与 XCCL").first.click()
    page.wait_for_url("**/a/")
    expect(page.get_by_role("radiogroup", name="阅读模式")).to_be_visible()


def test_without_javascript_both_languages_show(open_page: Callable[..., Page]) -> None:
    page = open_page("a/", java_script_enabled=False)
    expect(page.locator("#P001 .dz-en")).to_be_visible()
    expect(page.locator("#P001 .dz-zh")).to_be_visible()


def test_print_shows_both_languages(open_page: Callable[..., Page]) -> None:
    page = open_page("a/")
    mode_radio(page, "中文").check()
    expect(page.locator("#P001 .dz-en")).to_be_hidden()
    page.emulate_media(media="print")
    expect(page.locator("#P001 .dz-en")).to_be_visible()
    expect(page.locator(".dz-mode")).to_be_hidden()


def test_phone_puts_the_original_above_the_translation(open_page: Callable[..., Page]) -> None:
    page = open_page("a/", viewport=PHONE, is_mobile=True, has_touch=True)
    en = page.locator("#P001 .dz-en").bounding_box()
    zh = page.locator("#P001 .dz-zh").bounding_box()
    assert en is not None and zh is not None
    assert en["y"] + en["height"] <= zh["y"]
    assert en["x"] == zh["x"]
    # Short labels on phones; the accessible names stay the full ones.
    group = page.get_by_role("radiogroup", name="阅读模式")
    for name in ("中文", "English", "对照"):
        expect(group.get_by_role("radio", name=name, exact=True)).to_have_count(1)
    assert group.evaluate("el => el.getBoundingClientRect().width") < 130


def test_hover_on_one_side_highlights_its_partner(open_page: Callable[..., Page]) -> None:
    page = open_page("a/")
    background = "el => getComputedStyle(el).backgroundColor"
    transparent = "rgba(0, 0, 0, 0)"
    zh = page.locator("#P001 .dz-zh")
    en = page.locator("#P001 .dz-en")
    assert zh.evaluate(background) == transparent
    en.hover()
    page.wait_for_function(
        f"getComputedStyle(document.querySelector('#P001 .dz-zh')).backgroundColor"
        f" !== '{transparent}'"
    )
    zh.hover()
    page.wait_for_function(
        f"getComputedStyle(document.querySelector('#P001 .dz-en')).backgroundColor"
        f" !== '{transparent}'"
    )
    # The other paragraph stays untouched.
    assert page.locator("#P002 .dz-zh").evaluate(background) == transparent


def test_paragraph_number_copies_its_link(open_page: Callable[..., Page], watch: Watch) -> None:
    page = open_page("a/")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=watch.base)
    page.locator("#P002 .dz-pid").click()
    expect(page.get_by_role("status")).to_have_text("已复制段落链接 P002")
    assert page.evaluate("navigator.clipboard.readText()") == watch.base + "a/#P002"
    assert page.url == watch.base + "a/#P002"
    expect(page.locator("#P002")).to_have_class("dz-para dz-para--target")


def header_bottom(page: Page) -> float:
    box = page.locator(".md-header").bounding_box()
    assert box is not None
    return box["y"] + box["height"]


def assert_landed(page: Page, pid: str) -> None:
    target = page.locator(f"#{pid}")
    expect(target).to_have_class("dz-para dz-para--target")
    page.wait_for_function(
        f"""() => {{
          const top = document.getElementById("{pid}").getBoundingClientRect().top;
          const header = document.querySelector(".md-header").getBoundingClientRect().bottom;
          return top >= header && top < window.innerHeight / 2;
        }}"""
    )
    box = target.bounding_box()
    assert box is not None and box["y"] >= header_bottom(page)
    assert page.evaluate("window.scrollY") > 0


def test_opening_a_paragraph_link_lands_below_the_header(open_page: Callable[..., Page]) -> None:
    page = open_page("a/#P012")
    assert_landed(page, "P012")


def test_cross_article_link_lands_on_the_paragraph(open_page: Callable[..., Page]) -> None:
    page = open_page("b/")
    page.evaluate("window.__sameDocument = true")
    page.locator("#P001 .dz-zh a", has_text="P012").click()
    page.wait_for_url("**/a/#P012")
    assert page.evaluate("window.__sameDocument") is True
    assert_landed(page, "P012")


def search(page: Page, query: str) -> list[str]:
    """Type ``query`` into Material's search; the hrefs of the results."""
    page.locator(".md-search__input").click()
    meta = page.locator(".md-search-result__meta")
    expect(meta).to_have_text("键入以开始搜索")  # the index is loaded
    box = page.locator(".md-search__input")
    box.fill(query)
    box.press("End")
    expect(meta).not_to_have_text("键入以开始搜索")
    links = page.locator(".md-search-result__link")
    return [str(links.nth(i).get_attribute("href")) for i in range(links.count())]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("显存", "a/#P001"),
        ("XCCL", "a/#P001"),
        ("超节点", "a/#P003"),
        ("通信契约", "a/#P003"),
        ("FlowServe", "a/#P003"),
        ("P012", "a/#P012"),
    ],
)
def test_search_finds_chinese_english_and_paragraph_ids(
    open_page: Callable[..., Page], query: str, expected: str
) -> None:
    page = open_page("")
    hrefs = search(page, query)
    assert any(href.endswith(expected) for href in hrefs), hrefs


def test_search_result_opens_the_paragraph(open_page: Callable[..., Page]) -> None:
    page = open_page("")
    search(page, "P012")
    page.locator('.md-search-result__link[href$="a/#P012"]').first.click()
    page.wait_for_url("**/a/#P012")
    assert_landed(page, "P012")


def expect_diagrams(page: Page) -> None:
    """Material swaps each ``pre.mermaid`` for a ``div.mermaid`` holding the SVG in a closed
    shadow root (out of reach of selectors): check the swap happened and the host has size."""
    expect(page.locator("pre.mermaid")).to_have_count(0)
    diagram = page.locator("div.mermaid").first
    expect(diagram).to_be_visible()
    box = diagram.bounding_box()
    assert box is not None and box["height"] > 40 and box["width"] > 100


def test_mermaid_and_math_render_offline(open_page: Callable[..., Page]) -> None:
    page = open_page("a/")
    expect_diagrams(page)
    expect(page.locator("div.arithmatex .katex-display")).to_be_visible()
    expect(page.locator("#P002 .dz-zh .arithmatex .katex")).to_be_visible()
    # KaTeX's own fonts are loaded (from the site, as every request is checked).
    page.wait_for_function("document.fonts.check('16px KaTeX_Math')")


# ---------------------------------------------------------------------------------------------
# The real site (docs/ of this repository) and the example site (examples/demo/)


@pytest.fixture(scope="module")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    site_dir = tmp_path_factory.mktemp("real-site")
    cwd = Path.cwd()
    os.chdir(ROOT)  # search.jieba_dict_user is relative to the working directory
    try:
        build(load_config(str(ROOT / "mkdocs.yml"), site_dir=str(site_dir)))
    finally:
        os.chdir(cwd)
    with serve(site_dir) as base:
        yield base, site_dir


@pytest.fixture(scope="module")
def demo_site(demo_build: Path) -> Iterator[tuple[str, Path]]:
    """The example site (conftest.py: built once a run), served."""
    with serve(demo_build) as base:
        yield base, demo_build


@pytest.mark.parametrize(
    ("which", "expected"),
    [("real_site", "ai-systems/xdeepserve-cloudmatrix384"), ("demo_site", "figures-demo")],
)
def test_every_page_of_the_real_and_example_sites_is_offline_and_error_free(
    browser: Browser, request: pytest.FixtureRequest, which: str, expected: str
) -> None:
    base, site_dir = request.getfixturevalue(which)
    pages = sorted(
        p.parent.relative_to(site_dir).as_posix()
        for p in site_dir.rglob("index.html")
        if not p.relative_to(site_dir).as_posix().startswith(("assets/", "search/"))
    )
    assert expected in pages
    watch = Watch(base)
    context = watch.attach(browser.new_context(viewport=DESKTOP))
    page = context.new_page()
    for path in pages:
        url = base + ("" if path == "." else path + "/")
        # "load", not "networkidle" (half a second of quiet on each of some thirty pages): every
        # request a page starts is seen by the watch when it starts, and the last page waits.
        page.goto(url, wait_until="load")
        wait_ready(page)
        if page.locator(".mermaid").count():
            expect_diagrams(page)
    page.wait_for_load_state("networkidle")
    context.close()
    watch.check()


#: Every mode x colour scheme x screen size: under `make fuzz` and `make readme-shots`.
ALL_SHOTS = [
    (scheme, size, mode)
    for scheme in ("light", "dark")
    for size in ("desktop", "phone")
    for mode in ("both", "zh", "en")
]
#: The suite's slice: each mode, scheme and size at least once, and the README's light desktop
#: shots (twelve full-page screenshots took about a minute of the suite; the seven of session
#: 32's slice, which added dark phone Chinese, light phone English and dark desktop English,
#: 68 s of the file's 248 s of wall at load 15-26; those three are in `make fuzz`'s matrix).
SUITE_SHOTS = [
    ("light", "desktop", "both"),
    ("light", "desktop", "zh"),
    ("light", "desktop", "en"),
    ("dark", "phone", "both"),
]
SHOTS = ALL_SHOTS if LONG or os.environ.get("DUIZHAO_README_SHOTS") else SUITE_SHOTS


def test_screenshots_of_an_article(browser: Browser, demo_site: tuple[str, Path]) -> None:
    """Artifacts under test-results/reader/ (three modes × light/dark × desktop/phone) of the
    syntax demo, examples/demo/docs/example.md."""
    base, _ = demo_site
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    watch = Watch(base)
    for scheme, size, mode in SHOTS:
        phone = size == "phone"
        context = watch.attach(
            browser.new_context(
                viewport=PHONE if phone else DESKTOP,
                color_scheme=scheme,  # type: ignore[arg-type]
                is_mobile=phone,
                has_touch=phone,
            )
        )
        context.add_init_script(
            f"if (location.protocol === 'http:') localStorage.setItem('duizhao.mode', '{mode}')"
        )
        page = context.new_page()
        page.goto(base + "example/", wait_until="networkidle")
        wait_ready(page)
        expect_diagrams(page)
        label = {"both": "对照", "zh": "中文", "en": "English"}[mode]
        expect(mode_radio(page, label)).to_be_checked()
        path = ARTIFACTS / f"example-{scheme}-{size}-{mode}.png"
        page.screenshot(path=str(path), full_page=True)
        page.screenshot(path=str(path.with_name(path.stem + "-top.png")))
        context.close()
        assert path.stat().st_size > 10_000
    watch.check()
    readme = os.environ.get("DUIZHAO_README_SHOTS")
    if readme:  # `make readme-shots` refreshes the README's pictures from these artifacts
        for mode in ("both", "zh", "en"):
            shutil.copyfile(
                ARTIFACTS / f"example-light-desktop-{mode}-top.png",
                Path(readme) / f"mode-{mode}.png",
            )
