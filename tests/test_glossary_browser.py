"""The glossary's tooltip in Chromium (issue 23): hover and keyboard/tap show the rendering and
definition; no request leaves 127.0.0.1. One small site, one page: seconds."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from conftest import Site
from test_glossary_site import ARTICLE, GLOSSARY, PLAIN
from test_reader_browser import ARTIFACTS, serve

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("tooltips", [True, False], ids=["material-tooltips", "plain"])
def test_term_tooltip_on_hover_and_tap(
    make_site: Callable[..., Site], browser: Browser, tooltips: bool
) -> None:
    site = make_site(
        {"a.md": ARTICLE, "b.md": PLAIN},
        theme={
            "name": "material",
            "language": "zh",
            "font": False,
            "features": ["content.tooltips"] if tooltips else [],
        },
    )
    (site.root / "glossary.yml").write_text(GLOSSARY, encoding="utf-8")
    site.build()
    outside: list[str] = []
    with serve(site.site_dir) as base:
        context = browser.new_context(viewport={"width": 900, "height": 600}, has_touch=True)
        context.on("request", lambda r: None if r.url.startswith(base) else outside.append(r.url))
        page = context.new_page()
        page.goto(base + "a/")
        term = page.locator("abbr.dz-term").first
        expect(term).to_have_text("KV cache")
        if tooltips:  # Material's tooltip, on hover and on focus (the keyboard, a tap)
            term.hover()
            tip = page.locator(".md-tooltip2, .md-tooltip").filter(has_text="推理时缓存")
            expect(tip.first).to_be_visible()
        term.tap()
        expect(term).to_be_focused()
        if not tooltips:
            content = term.evaluate("e => getComputedStyle(e, '::after').content")
            assert "推理时缓存的注意力键和值" in content
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        name = "glossary-material.png" if tooltips else "glossary-plain.png"
        page.screenshot(path=str(Path(ARTIFACTS) / name))
        context.close()
    assert outside == []
