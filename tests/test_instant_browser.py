"""duizhao's assets across Material's instant navigation, in headless Chromium.

duizhao links its stylesheets and scripts only from the pages that show its markup (scripts at
the end of the content, which instant navigation runs again on every page it swaps in, in no
fixed order). A reader who starts on a page without duizhao syntax and clicks through to
articles, figures and back must get the same reader as one who opened each page directly:
the mode control where there are paragraphs, KaTeX, mermaid with Material's theme, the
lightbox, each listener once, and no request to any host but the site's own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from playwright.sync_api import Browser, Page, expect

from conftest import Site
from figure_sources import make_pdf
from reader_site import fix_tags, reader_config
from test_reader_browser import DESKTOP, Watch, free_port, mode_radio, serve

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-results" / "instant"

FRONT = """\
---
title: {title}
paper:
  title: {title} (original)
  url: https://example.org/paper
  license: CC-BY-4.0
paragraphs: P001-P002
status: complete
---
"""

MERMAID = """
```mermaid
flowchart LR
  A[超节点] --> B[通信契约]
```
"""


def article(title: str, link: str) -> str:
    return (
        FRONT.format(title=title)
        + f"""
# {title}

## 导言

下一页：[继续]({link})。

/// paragraph | P001
> The step costs $T = T_{{compute}} + T_{{comm}}$ when nothing overlaps.

没有重叠时，一步的代价是 $T = T_{{compute}} + T_{{comm}}$。
///
{MERMAID}
$$
E = mc^2
$$

/// paragraph | P002
> A second paragraph.

第二段。
///
"""
    )


FIGURES = """\
source: ../papers/paper.pdf
figures:
  - {id: 1, page: 1, box: [72, 96, 540, 380], caption: {en: Page one., zh: 第一页的图。}}
"""

FILES = {
    # A plain page, as on any Material site: no duizhao syntax, so no duizhao asset.
    "index.md": "# 首页\n\n普通页面，没有对照语法。[第一篇](a.md)\n",
    "a.md": article("第一篇", "figs.md"),
    "figs.md": "---\ntitle: 插图\npaper: {title: Figures, license: CC-BY-4.0}\n---\n\n"
    "# 插图\n\n## 导言\n\n[下一页](plain.md)\n\n/// figure | 1\n///\n",
    "figs.figures.yml": FIGURES,
    "plain.md": "# 普通页面\n\n没有对照语法。[第二篇](b.md)\n",
    "b.md": article("第二篇", "diagram.md"),
    # A page of the site's own with a diagram and math, but no duizhao syntax.
    "diagram.md": "# 站点自己的图\n\n$x^2$ 与图：\n" + MERMAID,
}


def build_site(root: Path, port: int, **duizhao: Any) -> Path:
    site = Site(root, root / "site")
    site.docs.mkdir(parents=True)
    for rel, content in FILES.items():
        site.write(rel, content)
    make_pdf(root / "papers" / "paper.pdf")
    config = reader_config(site_url=f"http://127.0.0.1:{port}/")
    config["plugins"][1]["duizhao"].update({"figures": {"jobs": 1}, **duizhao})
    config["nav"] = [f for f in FILES if f.endswith(".md")]
    (root / "mkdocs.yml").write_text(
        yaml.safe_dump({"site_name": "Test", **config}, allow_unicode=True), "utf-8"
    )
    fix_tags(root / "mkdocs.yml")
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    build(load_config(str(root / "mkdocs.yml"), site_dir=str(site.site_dir)))
    return site.site_dir


@pytest.fixture(scope="module", params=["auto", "all"])
def mixed_site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, str]]:
    """The site above, with ``math`` and ``mermaid`` both ``auto`` (a third-party site's
    default) or both ``all`` (the real site's choice); instant navigation only follows links
    of its sitemap, so it is built for the port it is served on."""
    mode = request.param
    port = free_port()
    root = tmp_path_factory.mktemp(f"instant-{mode}")
    site_dir = build_site(root, port, math=mode, mermaid=mode)
    with serve(site_dir, port) as base:
        yield base, mode


#: Material puts each diagram in a closed shadow root: open it, so the SVG can be checked;
#: count clipboard writes, so a listener added twice shows.
OPEN_SHADOW = """
const attach = Element.prototype.attachShadow;
Element.prototype.attachShadow = function (options) {
  return attach.call(this, { ...options, mode: "open" });
};
window.__copies = 0;
if (window.Clipboard) {  // secure contexts only (127.0.0.1 is one)
  const write = Clipboard.prototype.writeText;
  Clipboard.prototype.writeText = function (text) {
    window.__copies++;
    return write.call(this, text);
  };
}
"""


def open_context(browser: Browser, watch: Watch) -> Page:
    context = watch.attach(browser.new_context(viewport=DESKTOP))
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=watch.base)
    context.add_init_script(OPEN_SHADOW)
    return context.new_page()


def follow(page: Page, text: str, path: str, title: str) -> None:
    """Click a link in the content; instant navigation swaps the page in (no reload)."""
    page.locator(".md-content a", has_text=text).first.click()
    page.wait_for_url(f"**/{path}")
    expect(page.locator(".md-content h1")).to_contain_text(title)
    assert page.evaluate("window.__sameDocument") is True


def expect_themed_diagram(page: Page) -> None:
    """Every diagram is an SVG in div.mermaid drawn with Material's theme (its themeCSS uses
    Material's --md-mermaid-* variables; mermaid's default theme does not)."""
    expect(page.locator("pre.mermaid")).to_have_count(0)
    page.wait_for_function(
        """() => {
          const hosts = [...document.querySelectorAll("div.mermaid")];
          return hosts.length > 0 && hosts.every(h => h.shadowRoot &&
            h.shadowRoot.querySelector("svg") &&
            h.shadowRoot.querySelector("svg style").textContent.includes("--md-mermaid"));
        }"""
    )


def expect_math(page: Page) -> None:
    page.wait_for_function(
        "[...document.querySelectorAll('.arithmatex')].every(m => m.querySelector('.katex'))"
    )
    expect(page.locator(".arithmatex .katex").locator("visible=true").first).to_be_visible()
    # Rendered once: no KaTeX inside KaTeX, no TeX delimiters left.
    assert page.locator(".katex .katex").count() == 0
    assert "\\(" not in page.locator(".md-content").inner_text()


def has_stylesheet(page: Page, name: str) -> bool:
    found: bool = page.evaluate(
        f"[...document.head.querySelectorAll('link[rel=stylesheet]')]"
        f".some(l => l.href.endsWith('/{name}'))"
    )
    return found


def shoot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def copy_permalink(page: Page, pid: str, copies: int) -> None:
    page.locator(f"#{pid} .dz-pid").click()
    expect(page.get_by_role("status")).to_have_text(f"已复制段落链接 {pid}")
    assert page.evaluate("window.__copies") == copies  # one listener, one copy per click
    assert page.locator(".dz-toast").count() == 1
    assert page.evaluate("navigator.clipboard.readText()").endswith(f"#{pid}")


def test_reader_follows_instant_navigation_from_a_plain_page(
    browser: Browser, mixed_site: tuple[str, str]
) -> None:
    base, mode = mixed_site
    watch = Watch(base)
    page = open_context(browser, watch)
    page.goto(base)
    page.wait_for_load_state("networkidle")
    page.evaluate("window.__sameDocument = true")
    # A plain page: nothing of duizhao's.
    assert page.locator(".dz-mode").count() == 0
    assert not has_stylesheet(page, "duizhao.css")
    assert page.evaluate("typeof window.mermaid") == "undefined"
    shoot(page, f"{mode}-1-plain-start")

    # (a) an article: paragraphs, math, a diagram.
    follow(page, "第一篇", "a/", "第一篇")
    expect(mode_radio(page, "对照")).to_be_checked()
    assert has_stylesheet(page, "duizhao.css")
    expect_math(page)
    expect_themed_diagram(page)
    mode_radio(page, "中文").check()
    expect(page.locator("#P001 .dz-en")).to_be_hidden()
    expect(page.locator("#P001 .dz-zh")).to_be_visible()
    copy_permalink(page, "P002", copies=1)
    shoot(page, f"{mode}-2-article-zh")

    # (b) figures: no paragraphs, so no mode control; the lightbox opens.
    follow(page, "继续", "figs/", "插图")
    expect(page.locator(".dz-mode")).to_be_hidden()
    # figures.js is a module: instant navigation runs it after the page is swapped in.
    page.wait_for_selector(".md-content[data-dz-lightbox=ready]", state="attached")
    page.click("#fig-1 a.dz-figure-zoom")
    page.wait_for_selector(".pswp--open .pswp__img")
    expect(page.locator(".pswp__dz-caption")).to_contain_text("图 1：第一页的图。")
    assert page.locator(".pswp").count() == 1
    page.wait_for_function(  # opened (PhotoSwipe fades its backdrop in)
        "parseFloat(getComputedStyle(document.querySelector('.pswp__bg')).opacity) > 0.9"
    )
    shoot(page, f"{mode}-3-figures-lightbox")
    for _ in range(40):  # PhotoSwipe ignores a close while it still opens
        if page.locator(".pswp").count() == 0:
            break
        page.keyboard.press("Escape")
        page.wait_for_timeout(250)
    expect(page.locator(".pswp")).to_have_count(0)

    # (c) back to a plain page: duizhao's stylesheet leaves with the page that linked it.
    follow(page, "下一页", "plain/", "普通页面")
    expect(page.locator(".dz-mode")).to_be_hidden()
    expect(page.locator(".dz-toast")).to_have_count(0)  # unstyled here: it must not linger
    assert not has_stylesheet(page, "duizhao.css")
    assert not has_stylesheet(page, "figures.css")
    shoot(page, f"{mode}-4-plain-again")

    # Again a diagram page: mermaid is kept (with Material's theme), the mode is remembered,
    # and the listeners were not added twice by the scripts running again.
    follow(page, "第二篇", "b/", "第二篇")
    expect(mode_radio(page, "中文")).to_be_checked()
    expect(page.locator("#P001 .dz-en")).to_be_hidden()
    expect_math(page)
    expect_themed_diagram(page)
    copy_permalink(page, "P001", copies=2)
    mode_radio(page, "对照").check()
    expect(page.locator("#P001 .dz-en")).to_be_visible()
    shoot(page, f"{mode}-5-article-again")

    # The site's own page with a diagram and math: mermaid is there already either way.
    follow(page, "继续", "diagram/", "站点自己的图")
    expect(page.locator(".dz-mode")).to_be_hidden()
    expect(page.locator(".dz-toast")).to_have_count(0)
    expect_themed_diagram(page)
    if mode == "all":
        expect_math(page)
    else:  # the site's own page: its math is the site's (no KaTeX stylesheet here either)
        assert page.locator(".katex").count() == 0
    shoot(page, f"{mode}-6-site-diagram")

    page.context.close()
    watch.check()


def test_a_plain_page_with_a_diagram_opened_directly(
    browser: Browser, mixed_site: tuple[str, str]
) -> None:
    """With ``mermaid: all`` duizhao serves mermaid to the site's own diagram pages too: no
    request leaves the site. With ``auto`` such a page is the theme's alone (Material fetches
    mermaid from unpkg, which a test machine cannot reach): only that may leave the site."""
    base, mode = mixed_site
    watch = Watch(base)
    page = open_context(browser, watch)
    page.goto(base + "diagram/")
    page.wait_for_load_state("networkidle")
    if mode == "all":
        expect_themed_diagram(page)
        expect_math(page)
        page.context.close()
        watch.check()
    else:
        page.context.close()
        assert all(url.startswith("https://unpkg.com/mermaid@") for url in watch.outside)
