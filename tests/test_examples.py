"""The example site (examples/demo/) builds strictly and shows what README promises: the syntax
demo's blocks, notes, diagram and math, and the figures demo's cropped figures and indexes."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from demo_site import ROOT, copy_demo
from duizhao.cli import main
from html_checks import empty_paragraphs


def article(site_dir: Path, page: str) -> str:
    html = (site_dir / page / "index.html").read_text(encoding="utf-8")
    start = html.index('<article class="md-content__inner md-typeset">')
    return html[start : html.index("</article>", start)]


@pytest.fixture
def demo(demo_build: Path) -> Path:
    """The example site, built strictly (conftest.py: once a run)."""
    return demo_build


def test_syntax_demo_renders_blocks_notes_diagram_and_math(demo: Path) -> None:
    body = article(demo, "example")
    ids = re.findall(r'<div class="dz-para[^"]*" data-dz-id="(P\d+)" id="\1">', body)
    assert ids == ["P001", "P002", "P003", "P004"]
    assert 'id="P999"' not in body  # block syntax inside a code fence stays code
    assert "<code>/// paragraph | P999\n" in body
    assert '<div class="dz-en" lang="en">' in body and '<div class="dz-zh" lang="zh-CN">' in body
    assert '<div class="admonition note">' in body and "<table>" in body
    assert '<pre class="mermaid">' in body
    assert body.count('class="arithmatex"') >= 3  # inline math in P002 (both sides), a display
    assert '<details class="note"' in body
    assert '<a href="./#P002">P002</a>' in body  # [P002](example.md#P002): its own page
    assert '<aside class="dz-source"' in body  # the source box from `paper:`


@pytest.mark.parametrize(
    "name",
    [
        "example",
        "figures-demo",
    ],
)
def test_demo_pages_have_no_empty_paragraphs(demo: Path, name: str) -> None:
    assert empty_paragraphs(article(demo, name)) == []


def test_figures_demo_shows_cropped_figures_gallery_and_index(demo: Path) -> None:
    body = article(demo, "figures-demo")
    figures = re.findall(
        r'<figure class="dz-figure[^"]*" data-dz-figure="(\d+)" id="fig-\1">', body
    )
    assert figures == ["1", "2", "3", "4"]
    crops = sorted(set(re.findall(r'src="(\.\./assets/figures/figures-demo/[^"]+\.webp)"', body)))
    assert len(crops) == 4
    for src in crops:
        with Image.open(demo / "figures-demo" / src) as image:
            assert image.format == "WEBP" and image.width >= 600
    assert "本文图表" in body  # the article's gallery
    index = article(demo, "figures")
    assert "全站 1 篇文章共 4 幅图" in index
    assert [f"../figures-demo/#fig-{n}" for n in range(1, 5)] == re.findall(
        r'<a class="dz-card" href="([^"]+)"', index
    )


def test_home_lists_both_demos_and_the_lock_is_in_step(demo: Path) -> None:
    home = article(demo, ".")
    assert '<a href="example/">duizhao 语法示例</a>' in home
    assert '<a href="figures-demo/">图表示例：从论文 PDF 裁切插图</a>' in home
    # duizhao.lock holds the current originals: nothing is stale
    progress = " ".join(re.sub(r"<[^>]+>", " ", article(demo, "progress")).split())
    assert "已译 8 段（100%），其中 0 段的原文在译文确认后有更新" in progress


def test_duizhao_check_passes_on_the_example_site(
    tmp_path: Path, chdir: Callable[[Path], None]
) -> None:
    project = copy_demo(tmp_path)
    chdir(project)
    result = CliRunner().invoke(main, ["check", "--strict"])
    assert result.exit_code == 0, result.output
    assert "0 errors, 0 warnings" in result.output


def test_the_study_site_holds_only_study_articles() -> None:
    """The demos live in examples/demo; docs/ is the published study site."""
    articles = sorted(p.name for p in (ROOT / "docs" / "ai-systems").glob("*.md"))
    seeds = sorted(p.stem + ".md" for p in (ROOT / "seeds").glob("*.yml"))
    assert articles == seeds
    assert not list((ROOT / "docs").rglob("*.figures.yml"))
    assert "example.md" not in (ROOT / "duizhao.lock").read_text(encoding="utf-8")
