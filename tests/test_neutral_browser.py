"""The translated page of tests/test_neutral.py on a real Chinese site, in headless Chromium.

TonyCrane's notebook (tests/data/sites/tonycrane-note) renders math with KaTeX it loads itself
from its CDN, which the browser is given from this checkout's node_modules instead; every other
request to another host is refused. What the HTML assertions of test_neutral.py cannot see is
checked here: the site's KaTeX renders the blocks' math once, the 中文/English/对照 control
works, the page makes no request and logs no error that the same page without duizhao does not,
and a translation's justified lines space out Chinese characters, never the letters of a word.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Route, expect

from conftest import Site
from test_neutral import BUILD_DATE, SITES, TRANSLATION_URL, VENDOR, build_project, make_project
from test_reader_browser import DESKTOP, mode_radio, serve, wait_ready

pytestmark = pytest.mark.browser

SITE = SITES["tonycrane-note"]
#: where the site loads KaTeX (its `extra_css`/`extra_javascript`) and KaTeX's fonts from
SITE_KATEX = "https://cdn.tonycrane.cc/utils/"
KATEX_DIST = VENDOR / "katex" / "dist"


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """The site with the translated page, without duizhao ("plain") and with it."""
    built = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", BUILD_DATE)
        for name, variant in (("plain", None), ("duizhao", "default")):
            where = tmp_path_factory.mktemp(f"browser-{name}")
            built[name] = build_project(make_project(where, variant, translation=True, site=SITE))
    yield built


class Visit:
    """One page load: what went to another host and what the browser logged as an error."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.base = ""
        self.outside: list[str] = []
        self.errors: list[str] = []
        self.context: BrowserContext | None = None

    def open(self, base: str) -> Page:
        self.base = base
        self.context = self.browser.new_context(viewport=DESKTOP)
        self.context.route(lambda url: not url.startswith(base), self._outside)
        page = self.context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", self._console)
        page.goto(base + TRANSLATION_URL)
        wait_ready(page)
        # the site's katex.js renders on DOMContentLoaded, once KaTeX has loaded
        page.wait_for_function("() => document.querySelectorAll('.arithmatex .katex').length > 0")
        return page

    def _outside(self, route: Route) -> None:
        url = route.request.url
        if url.startswith(SITE_KATEX):
            local = KATEX_DIST / url.removeprefix(SITE_KATEX).partition("?")[0]
            if local.is_file():
                route.fulfill(path=local)
                return
        self.outside.append(url)
        route.abort()

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            url = str(message.location.get("url", "")).replace(self.base, "/")
            self.errors.append(f"{message.text} at {url}")

    def close(self) -> None:
        if self.context is not None:
            self.context.close()


def test_translated_page_on_a_site_with_its_own_katex(
    browser: Browser, builds: dict[str, Path]
) -> None:
    plain, ours = Visit(browser), Visit(browser)
    with serve(builds["plain"]) as base:
        plain.open(base)
        plain.close()
    with serve(builds["duizhao"]) as base:
        page = ours.open(base)
        try:
            check_translated_page(page, base)
        finally:
            ours.close()
    # The site's own requests (its CDN fonts, analytics, GitHub) and the errors they cause,
    # and nothing more (the page was loaded twice with duizhao: sets, not lists).
    assert plain.outside, "the site's own outside requests were not seen"
    assert set(ours.outside) == set(plain.outside)
    assert set(ours.errors) == set(plain.errors)


def check_translated_page(page: Page, base: str) -> None:
    # Math: the site's KaTeX rendered each of the seven formulas once (two display), and
    # duizhao loaded no renderer of its own.
    assert page.locator(".arithmatex").count() == 7
    assert page.locator(".arithmatex > .katex, .arithmatex > .katex-display").count() == 7
    assert page.locator(".katex-display").count() == 2
    assert page.locator(".katex .katex").count() == 0
    scripts = page.evaluate("[...document.scripts].map(s => s.src).filter(Boolean)")
    renderers = [s for s in scripts if re.search(r"katex|mathjax|math\.js", s, re.I)]
    assert renderers == [SITE_KATEX + "katex.min.js", base + "js/katex.js"]
    assert page.evaluate("document.documentElement.lang") == "zh"

    # Letters of a Latin word in a justified Chinese line stay together.
    spread = page.evaluate(SPREAD_WORDS)
    assert "Bellman" in [word for word, _ in spread]
    assert [(word, ratio) for word, ratio in spread if ratio > 1.1] == []

    # The mode control.
    en, zh = page.locator("#P002 .dz-en"), page.locator("#P002 .dz-zh")
    expect(mode_radio(page, "对照")).to_be_checked()
    expect(en).to_be_visible()
    expect(zh).to_be_visible()
    mode_radio(page, "中文").check()
    expect(en).to_be_hidden()
    expect(zh).to_be_visible()
    expect(page.locator("#P003 .dz-zh .katex-display")).to_be_visible()
    mode_radio(page, "English").check()
    expect(en).to_be_visible()
    expect(zh).to_be_hidden()
    page.reload()
    wait_ready(page)
    expect(mode_radio(page, "English")).to_be_checked()
    expect(zh).to_be_hidden()
    mode_radio(page, "对照").check()
    expect(zh).to_be_visible()


#: Each Latin word (4+ letters, outside code and math) of the translations' paragraphs with the
#: ratio of its width on the page to its width set alone in the same font.
SPREAD_WORDS = """() => {
  const found = [];
  for (const p of document.querySelectorAll('.dz-zh p')) {
    const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode()); ) {
      if (node.parentElement.closest('.arithmatex, code')) continue;
      for (const match of node.data.matchAll(/[A-Za-z]{4,}/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const alone = document.createElement('span');
        alone.style.cssText = 'position: absolute; white-space: nowrap';
        alone.textContent = match[0];
        node.parentElement.appendChild(alone);
        const natural = alone.getBoundingClientRect().width;
        alone.remove();
        found.push([match[0], range.getBoundingClientRect().width / natural]);
      }
    }
  }
  return found;
}"""


# ---------------------------------------------------------------------------------------------
# The site's fonts

FONT_ARTICLE = """\
---
title: 字体
paper: {title: A Paper, url: "https://example.org/paper", license: CC-BY-4.0}
paragraphs: P001-P001
status: complete
---

## 导言

导言。

/// paragraph | P001
> The original, in English.

译文，含 Latin words。
///
"""


@pytest.mark.parametrize(
    ("how", "css", "theme_font"),
    [
        # a Chinese blog's usual way: a rule on body (or on .md-typeset) in extra_css
        ("body rule", 'body { font-family: "Site Kai", serif; }', False),
        ("typeset rule", '.md-typeset { font-family: "Site Kai", serif; }', False),
        # Material's way: its variable, as TonyCrane's notebook sets it
        ("variable", ':root { --md-text-font: "Site Kai"; }', False),
        # theme.font.text (Material writes --md-text-font; no request: fonts are not fetched)
        ("theme.font", "", {"text": "Site Kai"}),
    ],
)
def test_translation_is_set_in_the_sites_text_font(
    browser: Browser,
    make_site: Callable[..., Site],
    how: str,
    css: str,
    theme_font: object,
) -> None:
    site = make_site(
        {"a.md": FONT_ARTICLE, "site.css": css, "plain.md": "# Plain\n\nText.\n"},
        theme={"name": "material", "language": "zh", "font": theme_font},
        extra_css=["site.css"],
    )
    site.build(strict=True)
    context = browser.new_context(viewport=DESKTOP)
    context.route(lambda url: not url.startswith("http://127.0.0.1"), lambda r: r.abort())
    try:
        page = context.new_page()
        with serve(site.site_dir) as base:
            page.goto(base + "a/")
            wait_ready(page)
            fonts = page.evaluate(
                """() => Object.fromEntries(
                  ['.md-typeset > h2', '#P001 .dz-zh p', '#P001 .dz-en']
                    .map(s => [s, getComputedStyle(document.querySelector(s)).fontFamily]))"""
            )
    finally:
        context.close()
    assert '"Site Kai"' in fonts[".md-typeset > h2"], (how, fonts)
    # the translation (and the original) in the very font of the page's other text
    assert set(fonts.values()) == {fonts[".md-typeset > h2"]}, (how, fonts)
