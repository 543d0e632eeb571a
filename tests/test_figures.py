"""Figures: specs, checks, crops, captions, gallery, index page, cache and the CLI."""

from __future__ import annotations

import json
import os
import random
import re
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from PIL import Image

from conftest import Logs, Site
from duizhao.article import parse
from duizhao.checks import Corpus, check_corpus
from duizhao.cli import main
from duizhao.diagnostics import CODES
from duizhao.figures import crops as crops_module
from duizhao.figures import sources as sources_module
from duizhao.figures.catalog import Catalog
from duizhao.figures.crops import Encoder, crop_size
from duizhao.figures.spec import load_spec
from figure_sources import PAGE_COLORS, bomb_png, make_pdf, make_png, png_bytes

ARTICLE = """\
---
title: 文章 A
paper: {title: Demo, license: CC-BY-4.0}
figures: 2
status: complete
---

# 文章 A

## 导言

见 [](#fig-1) 与 [图二](#fig-2)。

/// figure | 1
译注：图 1 的 **说明**。
///

正文。

/// figure | 2
///
"""

SPEC = """\
source: ../papers/paper.pdf
figures:
  - id: 1
    page: 1
    box: [72, 96, 540, 380]
    caption: {en: Overview of the system., zh: 系统总览。}
    alt: 系统的组件与数据流
  - id: 2
    page: 2
    box: [100.5, 120, 300, 250]
"""

SERIAL = {"duizhao": {"figures": {"jobs": 1}}}


def figure_site(
    make_site: Callable[..., Site],
    article: str = ARTICLE,
    spec: str | None = SPEC,
    extra: dict[str, str] | None = None,
    plugin: dict[str, Any] | None = None,
    **config: Any,
) -> Site:
    files = {"index.md": "# 首页\n", "a.md": article, **(extra or {})}
    if spec is not None:
        files["a.figures.yml"] = spec
    site = make_site(files, plugins=[plugin or SERIAL], **config)
    make_pdf(site.root / "papers" / "paper.pdf")
    return site


def figure_html(html: str, fid: int) -> str:
    m = re.search(rf'<figure class="dz-figure[^"]*" data-dz-figure="{fid}".*?</figure>', html, re.S)
    assert m, html
    return m.group(0)


def crop_file(site: Site, html: str, fid: int) -> Path:
    src = re.search(r'<img[^>]* src="([^"]+)"', figure_html(html, fid))
    assert src
    return (site.site_dir / "a" / src.group(1)).resolve()


# ---------------------------------------------------------------------------------------------
# Rendering


def test_figure_is_cropped_captioned_and_sized_from_box_and_dpi(
    make_site: Callable[..., Site],
) -> None:
    site = figure_site(make_site)
    site.build()
    html = site.html("a.md")
    fig1 = figure_html(html, 1)
    src = re.search(r'src="(\.\./assets/figures/a/fig-1\.[0-9a-f]{12}\.webp)"', fig1)
    assert src, fig1
    url = src.group(1)
    assert fig1 == (
        '<figure class="dz-figure" data-dz-figure="1" id="fig-1">'
        f'<a class="dz-figure-zoom" data-pswp-height="789" data-pswp-width="1300" href="{url}" '
        'title="放大图 1">'
        f'<img alt="系统的组件与数据流" decoding="async" height="789" loading="lazy" src="{url}" '
        'width="1300" /></a>'
        '<figcaption><span class="dz-caption-zh" lang="zh-CN"><span class="dz-caption-label">'
        "图 1：</span>系统总览。</span>"
        '<span class="dz-caption-en" lang="en"><span class="dz-caption-label">Figure 1: </span>'
        "Overview of the system.</span></figcaption>\n"
        '<div class="dz-figure-note">\n<p>译注：图 1 的 <strong>说明</strong>。</p>\n</div>\n'
        "</figure>"
    )
    # 468 × 284 pt at 200 dpi; the crop is the red rectangle of page 1, edge to edge.
    with Image.open(crop_file(site, html, 1)) as im:
        assert im.format == "WEBP"
        assert im.size == (1300, 789) == crop_size("pdf", (72, 96, 540, 380), 200)
        rgb = im.convert("RGB")
        for xy in [(8, 8), (1291, 8), (650, 394), (8, 780), (1291, 780)]:
            assert _close(rgb.getpixel(xy), PAGE_COLORS[0]), xy
    # Figure 2: no caption, alt defaults to the label; box from page 2 (blue) at fractional points.
    fig2 = figure_html(html, 2)
    assert 'alt="图 2"' in fig2
    assert re.search(r'height="361"[^>]*width="554"', fig2), fig2
    assert '<span class="dz-caption-label">图 2</span>' in fig2
    assert "Figure 2" not in fig2
    with Image.open(crop_file(site, html, 2)) as im:
        assert im.size == (554, 361)
        assert _close(im.convert("RGB").getpixel((276, 180)), PAGE_COLORS[1])
    # Empty links read 图 N; written text stays; the spec itself is not published.
    assert '<a href="#fig-1">图 1</a>' in html and '<a href="#fig-2">图二</a>' in html
    assert not list(site.site_dir.rglob("*.figures.yml"))


def _close(pixel: object, color: tuple[int, int, int], tolerance: int = 40) -> bool:
    assert isinstance(pixel, tuple)
    return all(abs(int(a) - b) <= tolerance for a, b in zip(pixel, color, strict=False))


def test_raster_source_is_cropped_in_pixels(make_site: Callable[..., Site]) -> None:
    spec = """\
    figures:
      - id: 1
        source: img/page.png
        box: [100, 50, 500, 350]
        caption: {zh: 截图。}
      - id: 2
        source: img/page.png
        box: [0, 0, 800, 600]
    """
    site = figure_site(make_site, spec=textwrap.dedent(spec))
    make_png(site.docs / "img" / "page.png")
    site.build()
    html = site.html("a.md")
    with Image.open(crop_file(site, html, 1)) as im:
        assert im.size == (400, 300)
        assert _close(im.convert("RGB").getpixel((5, 5)), PAGE_COLORS[2])
    with Image.open(crop_file(site, html, 2)) as im:
        assert im.size == (800, 600)


def test_gallery_index_page_and_cross_article_links(
    make_site: Callable[..., Site], logs: Any
) -> None:
    other = """\
    ---
    title: 文章 B
    ---

    # 文章 B

    引用 [](a.md#fig-2) 与 [](a.md#fig-9)。
    """
    site = figure_site(make_site, extra={"b.md": textwrap.dedent(other)})
    site.build()
    logs.take(r"/docs/b\.md:7: DZ008 link \[\]\(a\.md#fig-9\) points to #fig-9", 1)
    logs.take(r"contains a link 'a\.md#fig-9', but the doc 'a\.md' does not contain an anchor", 1)
    html = site.html("a.md")
    gallery = re.search(r'<section class="dz-gallery".*?</section>', html, re.S)
    assert gallery
    assert '<h2 id="dz-figures">本文图表</h2>' in gallery.group(0)
    cards = re.findall(r'<a class="dz-card" href="([^"]+)"><img src="([^"]+)"', gallery.group(0))
    assert [href for href, _ in cards] == ["#fig-1", "#fig-2"]
    assert all((site.site_dir / "a" / src).resolve().is_file() for _, src in cards)
    index = site.html("figures.md")
    assert "<title>图表索引" in index
    assert '<h2 id="a"><a href="../a/">文章 A</a>' in index
    links = re.findall(r'<a class="dz-card" href="([^"]+)"><img src="([^"]+)"', index)
    assert [href for href, _ in links] == ["../a/#fig-1", "../a/#fig-2"]
    assert all((site.site_dir / "figures" / src).resolve().is_file() for _, src in links)
    assert "图 1：系统总览。" in index
    b = site.html("b.md")
    assert re.search(r'<a href="\.\./a/#fig-2">图 2</a>', b)


def test_lightbox_assets_are_self_hosted(make_site: Callable[..., Site]) -> None:
    site = figure_site(make_site, theme={"name": "material", "features": ["navigation.instant"]})
    site.build()
    html = site.html("a.md")
    assert '<script src="../assets/duizhao/figures.js" type="module"></script>' in html
    assert 'href="../assets/duizhao/photoswipe/photoswipe.css"' in html
    assets = site.site_dir / "assets" / "duizhao"
    for name in ["photoswipe-lightbox.esm.min.js", "photoswipe.esm.min.js", "photoswipe.css"]:
        assert (assets / "photoswipe" / name).is_file()
    script = (assets / "figures.js").read_text(encoding="utf-8")
    assert 'from "./photoswipe/photoswipe-lightbox.esm.min.js"' in script
    assert "document$.subscribe" in script
    assert "http" not in script


def test_site_without_figures_loads_no_lightbox(make_site: Callable[..., Site]) -> None:
    site = make_site({"index.md": "# 首页\n"})
    site.build()
    html = site.html("index.md")
    assert "figures.js" not in html and "photoswipe" not in html
    # Every stylesheet the page links exists (figures.css styles placeholders too).
    for href in re.findall(r'<link rel="stylesheet" href="([^"]+)"', html):
        assert (site.site_dir / href).is_file(), href
    assert not (site.site_dir / "assets" / "figures").exists()
    assert not (site.site_dir / "figures").exists()


def test_lightbox_and_gallery_and_index_can_be_turned_off(make_site: Callable[..., Site]) -> None:
    plugin = {"duizhao": {"figures": {"jobs": 1, "lightbox": False, "gallery": False, "index": ""}}}
    site = figure_site(make_site, plugin=plugin)
    site.build()
    html = site.html("a.md")
    assert 'id="fig-1"' in html
    assert "figures.js" not in html and "dz-gallery" not in html
    assert not (site.site_dir / "figures").exists()


# ---------------------------------------------------------------------------------------------
# Cache


def test_warm_build_does_no_image_work(
    make_site: Callable[..., Site], monkeypatch: pytest.MonkeyPatch
) -> None:
    site = figure_site(make_site)
    site.build()
    first = site.html("a.md")
    manifest = json.loads((site.root / ".cache/duizhao/figures/manifest.json").read_text("utf-8"))
    assert len(manifest["crops"]) == 2 and len(manifest["sources"]) == 1

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("image work in a warm build")

    monkeypatch.setattr(crops_module, "run_crops", forbidden)
    monkeypatch.setattr(crops_module, "run_pdf_crops", forbidden)
    monkeypatch.setattr(sources_module, "inspect_source", forbidden)
    monkeypatch.setattr(Image.Image, "save", forbidden)
    site.build()
    assert site.html("a.md") == first


def test_changed_box_recrops_only_that_figure(
    make_site: Callable[..., Site], monkeypatch: pytest.MonkeyPatch
) -> None:
    site = figure_site(make_site)
    site.build()
    made: list[int] = []
    real = crops_module.run_pdf_crops

    def counting(sources: list[tuple[Path, list[crops_module.Crop]]], *args: Any) -> Any:
        made.extend(c.figure.id for _source, crops in sources for c in crops)
        return real(sources, *args)

    # (a serial build cuts every PDF's crops in one bounded child: figures/pdf_crops.py)
    monkeypatch.setattr(crops_module, "run_pdf_crops", counting)
    site.write("a.figures.yml", SPEC.replace("[100.5, 120, 300, 250]", "[100, 120, 300, 250]"))
    site.build()
    assert made == [2]
    with Image.open(crop_file(site, site.html("a.md"), 2)) as im:
        assert im.size == (556, 361)
    # A changed source re-crops everything cut from it.
    made.clear()
    make_pdf(site.root / "papers" / "paper.pdf", pages=4)
    site.build()
    assert sorted(made) == [1, 2]


def test_parallel_cold_build_matches_serial(make_site: Callable[..., Site]) -> None:
    site = figure_site(make_site, plugin={"duizhao": {"figures": {"jobs": 2}}})
    site.build()
    html = site.html("a.md")
    with Image.open(crop_file(site, html, 1)) as one, Image.open(crop_file(site, html, 2)) as two:
        assert (one.size, two.size) == ((1300, 789), (554, 361))


def test_spec_and_source_folders_are_watched_under_serve(make_site: Callable[..., Site]) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    site = figure_site(make_site)
    config = load_config(str(site.root / "mkdocs.yml"), site_dir=str(site.site_dir))
    build(config)
    watched: list[tuple[str, bool]] = []

    class Server:
        def watch(self, path: str, *, recursive: bool = True) -> None:
            watched.append((path, recursive))

    plugin = config.plugins["duizhao"]
    plugin.on_serve(Server(), config=config, builder=None)
    assert watched == [(str((site.root / "papers").resolve()), False)]


# ---------------------------------------------------------------------------------------------
# Checks: every bad input gives PATH:LINE CODE


def _check(root: Path, article_text: str, spec_text: str | None) -> list[str]:
    docs = root / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    (docs / "a.md").write_text(textwrap.dedent(article_text), encoding="utf-8")
    if spec_text is not None:
        (docs / "a.figures.yml").write_text(textwrap.dedent(spec_text), encoding="utf-8")
    corpus = Corpus(docs, figures=Catalog(root))
    article = parse((docs / "a.md").read_text(encoding="utf-8"), docs / "a.md")
    found = check_corpus([article], corpus)
    return [d.format(root) for d in found if d.code.startswith("DZ1")]


PLACES_1_2 = """\
---
title: A
status: complete
---
## 导言

x

/// figure | 1
///

/// figure | 2
///
"""


def _spec(*entries: str, source: str = "../papers/paper.pdf") -> str:
    return f"source: {source}\nfigures:\n" + "\n".join(entries) + "\n"


FIG1 = "  - {id: 1, page: 1, box: [72, 96, 540, 380]}"
FIG2 = "  - {id: 2, page: 2, box: [0, 0, 100, 100]}"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    make_pdf(tmp_path / "papers" / "paper.pdf")
    return tmp_path


def test_clean_spec_has_no_diagnostics(project: Path) -> None:
    assert _check(project, PLACES_1_2, _spec(FIG1, FIG2)) == []


def test_unknown_and_twice_placed_figures(project: Path) -> None:
    article = PLACES_1_2 + "\n/// figure | 7\n///\n\n/// figure | 2\n///\n\n/// figure | x\n///\n"
    found = _check(project, article, _spec(FIG1, FIG2))
    assert found == [
        "docs/a.md:15: DZ101 '/// figure | 7' places an unknown figure; a.figures.yml declares "
        "1, 2: write '/// figure | N' with one of them",
        "docs/a.md:18: DZ102 figure 2 is placed twice (first at line 12); remove this "
        "'/// figure | 2' or refer to it with '[](#fig-2)'",
        "docs/a.md:21: DZ101 '/// figure | x' places an unknown figure; a.figures.yml declares "
        "1, 2: write '/// figure | N' with one of them",
    ]


def test_placement_without_spec(project: Path) -> None:
    found = _check(project, PLACES_1_2, None)
    assert [f.split(" ", 2)[:2] for f in found] == [
        ["docs/a.md:9:", "DZ101"],
        ["docs/a.md:12:", "DZ101"],
    ]
    assert "there is no a.figures.yml declaring it" in found[0]


def test_declared_but_never_placed_unless_draft(project: Path) -> None:
    spec = _spec(FIG1, FIG2, "  - {id: 3, page: 3, box: [0, 0, 10, 10]}")
    found = _check(project, PLACES_1_2, spec)
    assert found == [
        "docs/a.figures.yml:5: DZ103 figure 3 is declared but never placed in a.md; add "
        "'/// figure | 3' and '///' where it belongs, or set 'status: draft'"
    ]
    assert _check(project, PLACES_1_2.replace("complete", "draft"), spec) == []


def test_figure_count_disagrees_with_spec(project: Path) -> None:
    article = PLACES_1_2.replace("status: complete", "status: complete\nfigures: 4")
    found = _check(project, article, _spec(FIG1, FIG2))
    assert found == [
        "docs/a.md:4: DZ104 'figures: 4' disagrees with a.figures.yml (figures 3-4 not "
        "declared); declare figures 1-4 there or correct the count"
    ]
    article = PLACES_1_2.replace("status: complete", "status: complete\nfigures: many")
    assert _check(project, article, _spec(FIG1, FIG2))[0].startswith(
        "docs/a.md:4: DZ104 'figures: many' must be the paper's figure count"
    )


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (
            "source: [unclosed\nfigures: []\n",
            "docs/a.figures.yml:2: DZ105 unreadable figure spec:",
        ),
        (
            _spec(FIG1, "  - {id: 2, page: two, box: [0, 0, 100, 100]}"),
            "docs/a.figures.yml:4: DZ105 page must be a whole number, got 'two'; write 'page: 3'",
        ),
        (
            _spec(FIG1, "  - id: 2\n    page: 2\n    box: [0, 0, 100]"),
            "docs/a.figures.yml:6: DZ105 box must be four numbers [x0, y0, x1, y1], "
            "got [0, 0, 100]",
        ),
        (
            _spec(FIG1, "  - {id: 2, page: 2, box: [0, 0, 9, 9], capton: {zh: 图}}"),
            "docs/a.figures.yml:4: DZ105 unknown key 'capton' in a figure entry",
        ),
        (
            _spec(FIG1, "  - {id: 2, page: 2, box: [0, 0, 9, 9], caption: {zh: 1}}"),
            "docs/a.figures.yml:4: DZ105 caption.zh must be text, got 1",
        ),
        (
            _spec(FIG1, FIG2, "  - {id: 1, page: 3, box: [0, 0, 9, 9]}"),
            "docs/a.figures.yml:5: DZ112 figure 1 is declared twice (first at line 3)",
        ),
        (
            _spec(FIG1, FIG2, source="../papers/missing.pdf"),
            "docs/a.figures.yml:1: DZ106 source '../papers/missing.pdf' does not exist",
        ),
        (
            _spec(FIG1, FIG2, source="../../../../../../etc/passwd"),
            "docs/a.figures.yml:1: DZ107 source '../../../../../../etc/passwd' is outside the "
            "project root",
        ),
        (
            _spec(FIG1, "  - {id: 2, page: 9, box: [0, 0, 100, 100]}"),
            "docs/a.figures.yml:4: DZ108 page 9 of figure 2 is out of range: source "
            "'../papers/paper.pdf' has 3 pages",
        ),
        (
            _spec(FIG1, "  - {id: 2, box: [0, 0, 100, 100]}"),
            "docs/a.figures.yml:4: DZ108 figure 2 has no page; source '../papers/paper.pdf' is "
            "a PDF of 3 pages: add 'page: N' (1-based)",
        ),
        (
            _spec(FIG1, "  - {id: 2, page: 2, box: [300, 0, 100, 100]}"),
            "docs/a.figures.yml:4: DZ109 box [300, 0, 100, 100] is inverted: x1 and y1 must be "
            "larger than x0 and y0 (from the top-left); write 'box: [100, 0, 300, 100]'",
        ),
        (
            _spec(FIG1, "  - {id: 2, page: 2, box: [10, 10, 10, 100]}"),
            "docs/a.figures.yml:4: DZ109 box [10, 10, 10, 100] is empty",
        ),
        (
            _spec(FIG1, "  - {id: 2, page: 2, box: [0, 0, 700, 100]}"),
            "docs/a.figures.yml:4: DZ109 box [0.0, 0.0, 700.0, 100.0] of figure 2 is outside "
            "the page (612 × 792 points, origin at the top-left); keep 0 ≤ x ≤ 612 and "
            "0 ≤ y ≤ 792",
        ),
        (
            _spec(FIG1, "  - {id: 2, page: 2, dpi: 1200, box: [0, 0, 612, 792]}") + "",
            None,  # 10200 × 13200 = 134.6 MP: over the limit
        ),
    ],
)
def test_bad_spec_inputs(project: Path, spec: str, expected: str | None) -> None:
    found = _check(project, PLACES_1_2, spec)
    if expected is None:
        assert len(found) == 1 and found[0].startswith(
            "docs/a.figures.yml:4: DZ111 figure 2 would be 10200 × 13200 pixels at 1200 dpi, "
            "over Pillow's decompression-bomb limit"
        ), found
        return
    assert len(found) == 1, found
    assert found[0].startswith(expected), found


def test_symlink_escaping_the_root_is_refused(project: Path, tmp_path_factory: Any) -> None:
    outside = make_pdf(tmp_path_factory.mktemp("elsewhere") / "secret.pdf")
    (project / "papers" / "link.pdf").symlink_to(outside)
    found = _check(project, PLACES_1_2, _spec(FIG1, FIG2, source="../papers/link.pdf"))
    assert found == [
        f"docs/a.figures.yml:1: DZ107 source '../papers/link.pdf' is outside the project root "
        f"{str(project.resolve())!r}; keep the paper inside the project, as in "
        "'source: ../../papers/paper.pdf'"
    ]


@pytest.mark.parametrize(
    ("data", "code", "message"),
    [
        (
            b"not an image at all",
            "DZ110",
            "not a PDF, PNG, JPEG or WebP file (judged by its content",
        ),
        (png_bytes()[:60], "DZ110", "corrupt or truncated image"),
        (b"%PDF-1.4\n1 0 obj garbage", "DZ110", "corrupt or truncated PDF"),
        (bomb_png(), "DZ111", "image is over Pillow's decompression-bomb limit"),
    ],
)
def test_bad_source_files(project: Path, data: bytes, code: str, message: str) -> None:
    (project / "papers" / "bad.png").write_bytes(data)
    spec = _spec(
        "  - {id: 1, box: [0, 0, 10, 10]}",
        "  - {id: 2, box: [0, 0, 10, 10]}",
        source="../papers/bad.png",
    )
    found = _check(project, PLACES_1_2, spec)
    assert len(found) == 1, found  # reported once, at the source shared by both figures
    assert found[0].startswith(f"docs/a.figures.yml:1: {code} source '../papers/bad.png': "), found
    assert message in found[0]


def test_page_for_an_image_source(project: Path) -> None:
    (project / "papers" / "page.png").write_bytes(png_bytes((200, 100)))
    spec = _spec(
        "  - {id: 1, box: [0, 0, 200, 100]}",
        "  - {id: 2, page: 2, box: [0, 0, 10, 10]}",
        source="../papers/page.png",
    )
    assert _check(project, PLACES_1_2, spec) == [
        "docs/a.figures.yml:4: DZ108 figure 2 names page 2, but source '../papers/page.png' is "
        "an image with one page; remove 'page:'"
    ]


def test_build_logs_figure_diagnostics_and_still_builds(
    make_site: Callable[..., Site], logs: Any
) -> None:
    spec = SPEC.replace("page: 2", "page: 5")
    site = figure_site(make_site, spec=spec)
    site.build()
    logs.take(r"/docs/a\.figures\.yml:9: DZ108 page 5 of figure 2 is out of range", 1)
    html = site.html("a.md")
    assert 'class="dz-figure dz-figure--missing"' in figure_html(html, 2)
    assert "<img" in figure_html(html, 1)


def test_every_figure_code_is_documented() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    for code, (_severity, summary) in CODES.items():
        if code.startswith("DZ1"):
            assert f"| {code} |" in readme, code
            assert summary in readme, code


def test_load_spec_keeps_lines_and_defaults(project: Path) -> None:
    spec_file = project / "docs" / "a.figures.yml"
    spec_file.parent.mkdir(parents=True)
    spec_file.write_text(SPEC, encoding="utf-8")
    spec = load_spec(spec_file, project)
    assert spec.diagnostics == []
    one, two = spec.figures
    assert (one.id, one.line, one.page_line, one.box_line, one.dpi) == (1, 3, 4, 5, 200)
    assert (one.caption_en, one.caption_zh, one.alt_text) == (
        "Overview of the system.",
        "系统总览。",
        "系统的组件与数据流",
    )
    assert two.alt_text == "图 2" and two.box == (100.5, 120.0, 300.0, 250.0)
    assert one.source.path == (project / "papers" / "paper.pdf").resolve()
    assert Encoder().choose(16383, 10) == "webp" and Encoder().choose(16384, 10) == "png"
    assert Encoder("png").choose(10, 10) == "png"


def test_encoder_keeps_line_art_lossless_and_photos_lossy() -> None:
    line_art = Image.new("RGB", (64, 64), "white")
    photo = Image.frombytes("RGB", (128, 128), random.Random(0).randbytes(128 * 128 * 3))
    assert Encoder().options(line_art, "webp")["lossless"] is True
    assert "lossless" not in Encoder().options(photo, "webp")
    assert Encoder("lossless").options(photo, "webp")["lossless"] is True
    assert "lossless" not in Encoder("png").options(photo, "png")


# ---------------------------------------------------------------------------------------------
# CLI


def test_cli_check_reports_figure_problems(project: Path, chdir: Callable[[Path], None]) -> None:
    (project / "mkdocs.yml").write_text("site_name: T\n", encoding="utf-8")
    docs = project / "docs"
    docs.mkdir()
    (docs / "a.md").write_text(PLACES_1_2, encoding="utf-8")
    (docs / "a.figures.yml").write_text(
        _spec(FIG1, "  - {id: 2, page: 4, box: [0, 0, 1, 1]}"), encoding="utf-8"
    )
    chdir(project)
    result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 1
    assert result.output.splitlines()[0].startswith(
        "docs/a.figures.yml:4: DZ108 page 4 of figure 2 is out of range"
    )
    assert not (project / "site").exists()


def test_cli_preview_draws_every_box(project: Path, chdir: Callable[[Path], None]) -> None:
    (project / "mkdocs.yml").write_text("site_name: T\n", encoding="utf-8")
    docs = project / "docs"
    docs.mkdir()
    (docs / "a.md").write_text(PLACES_1_2, encoding="utf-8")
    (docs / "a.figures.yml").write_text(_spec(FIG1, FIG2), encoding="utf-8")
    chdir(project)
    out = project / "preview"
    result = CliRunner().invoke(main, ["figures", "preview", "docs/a.md", "--out", str(out)])
    assert result.exit_code == 0, result.output
    written = sorted(p.name for p in out.iterdir())
    assert written == ["a-paper-p001.png", "a-paper-p002.png"]
    assert result.output.splitlines() == [os.path.join("preview", name) for name in written]
    with Image.open(out / "a-paper-p001.png") as im:
        # 100 dpi by default: the page is 850 × 1100 px.
        assert im.size == (850, 1100)
    with Image.open(out / "a-paper-p002.png") as im:
        # The outline of figure 2's box [0, 0, 100, 100] on the white of page 2.
        rgb = im.convert("RGB")
        assert _close(rgb.getpixel((1, 70)), (220, 30, 30))
        assert _close(rgb.getpixel((70, 70)), (255, 255, 255))
    result = CliRunner().invoke(
        main, ["figures", "preview", "docs/a.md", "--page", "3", "--out", str(out / "p3")]
    )
    assert result.exit_code == 0, result.output
    assert [p.name for p in (out / "p3").iterdir()] == ["a-paper-p003.png"]


def test_cli_preview_without_spec_is_a_usage_error(
    project: Path, chdir: Callable[[Path], None]
) -> None:
    docs = project / "docs"
    docs.mkdir()
    (docs / "a.md").write_text(PLACES_1_2, encoding="utf-8")
    chdir(project)
    result = CliRunner().invoke(main, ["figures", "preview", "docs/a.md"])
    assert result.exit_code == 2
    assert "no figure spec docs/a.figures.yml" in result.output


def test_demo_paper_is_the_generator_output() -> None:
    import importlib.util

    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location(
        "make_demo_paper", root / "scripts/make_demo_paper.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    demo = root / "examples" / "demo"
    pdf = demo / "papers" / "figures-demo.pdf"
    assert pdf == module.OUT  # where the script writes by default
    assert pdf.read_bytes() == module.pdf_bytes()
    declared = load_spec(demo / "docs" / "figures-demo.figures.yml", demo)
    assert declared.diagnostics == []
    assert {f.id: (f.page, f.box) for f in declared.figures} == {
        fid: (page, tuple(float(v) for v in box)) for fid, (page, box) in module.FIGURES.items()
    }


def test_dirty_rebuild_updates_pages_whose_crops_changed(
    make_site: Callable[..., Site], logs: Logs
) -> None:
    site = figure_site(make_site)
    site.build()
    before = crop_file(site, site.html("a.md"), 2).name
    page = site.site_dir / "a" / "index.html"
    os.utime(page, (page.stat().st_atime, page.stat().st_mtime + 60))  # newer than a.md
    site.write("a.figures.yml", SPEC.replace("[100.5, 120, 300, 250]", "[100, 120, 300, 250]"))
    site.build(dirty=True)  # as `mkdocs serve --dirty` does after the spec is saved
    logs.take("A 'dirty' build is being performed", count=1)
    after = crop_file(site, site.html("a.md"), 2)
    assert after.name != before and after.is_file()
