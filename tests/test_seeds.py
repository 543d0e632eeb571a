"""The 13 seed records, the real site built from them, and ``duizhao new --from-seed``."""

from __future__ import annotations

import html
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from conftest import ROOT
from duizhao.article import read_article
from duizhao.cli import main
from duizhao.seeds import SeedError, load_seed, render_article, write_new

SEEDS = sorted((ROOT / "seeds").glob("*.yml"))
RECORDS = {path.stem: load_seed(path) for path in SEEDS}
SECTION_DIR = ROOT / "docs" / "ai-systems"


def shared_seeds() -> Path | None:
    """The seed documents: ../shared/seeds beside the clone (CI), or two levels up (worktrees)."""
    env = os.environ.get("DUIZHAO_SEEDS_DIR")
    candidates = [Path(env)] if env else []
    candidates += [ROOT.parent / "shared" / "seeds", ROOT.parent.parent / "shared" / "seeds"]
    return next((p for p in candidates if p.is_dir() and any(p.glob("*.txt"))), None)


def test_thirteen_records_one_per_file() -> None:
    assert len(RECORDS) == 13
    for slug, seed in RECORDS.items():
        assert seed.slug == slug
        assert seed.section == "1-AI Systems"
    weights = [seed.data["weight"] for seed in RECORDS.values()]
    assert len(set(weights)) == 13
    featured = [s.slug for s in RECORDS.values() if s.data.get("featured")]
    assert featured == ["ub-mesh-architecture"]


def test_intros_are_the_seed_text_exactly() -> None:
    seeds_dir = shared_seeds()
    if seeds_dir is None:
        pytest.skip("seed documents not found (../shared/seeds or $DUIZHAO_SEEDS_DIR)")
    docs = {p.name: p.read_text(encoding="utf-8") for p in sorted(seeds_dir.glob("*.txt"))}
    used: dict[str, set[str]] = {name: set() for name in docs}
    for seed in RECORDS.values():
        assert seed.data["seed"] in docs
        found_in = []
        for name, source in docs.items():
            lines = source.split("\n")
            if "导言" in lines and seed.title in lines:
                # the published page: title, "导言", then the paragraphs, one a line
                at = lines.index(seed.title)
                assert lines[at + 1] == "导言"
                assert tuple(lines[at + 2 : at + 2 + len(seed.intro)]) == seed.intro
                found_in.append(name)
            elif "导言" not in lines and seed.intro[0] in source.split("\n\n"):
                # the list of intros: paragraphs separated by blank lines, a contiguous run
                paragraphs = source.split("\n\n")
                at = paragraphs.index(seed.intro[0])
                assert tuple(paragraphs[at : at + len(seed.intro)]) == seed.intro
                found_in.append(name)
            else:
                continue
            used[name].update(seed.intro)
        assert seed.data["seed"] in found_in
        titled = any(seed.title in s.split("\n") for s in docs.values())
        assert seed.data["title_from_seed"] is titled
    # nothing left out: every intro paragraph and every titled entry of the seeds has a record
    titles = {seed.title for seed in RECORDS.values()}
    for name, paragraphs in used.items():
        lines = (seeds_dir / name).read_text(encoding="utf-8").split("\n")
        if "导言" in lines:
            entries = {lines[i - 1] for i, line in enumerate(lines) if line == "导言"}
            assert entries <= titles
        else:
            assert set("\n".join(lines).split("\n\n")) == paragraphs


def test_facts_are_only_the_ones_the_seeds_state() -> None:
    allowed = {
        "slug",
        "title",
        "title_from_seed",
        "section",
        "weight",
        "featured",
        "seed",
        "intro",
        "paper",
        "paragraphs",
        "figures",
        "date",
    }
    for seed in RECORDS.values():
        assert set(seed.data) <= allowed, seed.slug
    x = RECORDS["xdeepserve-cloudmatrix384"].data
    assert x["paper"]["license"] == "CC-BY-4.0" and x["paper"]["version"] == "arXiv v6"
    assert x["paragraphs"] == "P001-P129" and x["figures"] == 20
    assert "url" not in x["paper"]  # the seeds give no link
    assert RECORDS["xtuner-memory-optimization"].data["paper"]["commit"] == "e949653"
    assert RECORDS["ascend-950-a5-multimodal-quantization"].data["date"] == "2026-07-07"


@pytest.mark.parametrize("slug", sorted(RECORDS))
def test_docs_article_keeps_the_seeded_intro(slug: str) -> None:
    article = read_article(SECTION_DIR / f"{slug}.md")
    assert article.title == RECORDS[slug].title
    assert article.intro == "\n\n".join(RECORDS[slug].intro)


def _paragraph_texts(page: str) -> list[str]:
    body = page[page.index('<article class="md-content__inner md-typeset">') :]
    body = body[: body.index("</article>")]
    return [html.unescape(re.sub(r"<[^>]+>", "", p)) for p in re.findall(r"<p>(.*?)</p>", body)]


def test_real_site_index_pages_show_all_thirteen_intros(tmp_path: Path) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    site = tmp_path / "site"
    build(load_config(str(ROOT / "mkdocs.yml"), site_dir=str(site), strict=True))
    ordered = sorted(RECORDS.values(), key=lambda s: s.data["weight"])
    section = (site / "ai-systems/index.html").read_text(encoding="utf-8")
    home = (site / "index.html").read_text(encoding="utf-8")
    assert re.search(r"<h1 id=\"[^\"]*\">1-AI Systems<a class=\"headerlink\"", section)
    expected = [p for seed in ordered for p in seed.intro]
    assert _paragraph_texts(section) == expected
    # home: the featured article first, then the section with the others, in the same order
    home_order = [ordered[0], *ordered[1:]]
    assert ordered[0].slug == "ub-mesh-architecture"
    texts = _paragraph_texts(home)
    assert texts[-len(expected) :] == [p for s in home_order for p in s.intro]
    titles = re.findall(r'<h[23] id="[^"]*"><a href="([^"]+)">([^<]+)</a>', home)
    assert titles == [
        ("ai-systems/ub-mesh-architecture/", "UB-Mesh Architecture"),
        ("ai-systems/", "1-AI Systems"),
    ] + [(f"ai-systems/{s.slug}/", html.escape(s.title, quote=False)) for s in ordered[1:]]


# ---------------------------------------------------------------------------------------------
# duizhao new


def _project(tmp_path: Path, sections: dict[str, str]) -> Path:
    config = {"site_name": "t", "plugins": [{"duizhao": {"site": {"sections": sections}}}]}
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), "utf-8")
    (tmp_path / "docs").mkdir()
    return tmp_path


def test_new_writes_the_skeleton_and_refuses_to_overwrite(
    tmp_path: Path, chdir: Callable[[Path], None]
) -> None:
    project = _project(tmp_path, {"papers": "1-AI Systems"})
    chdir(project)
    seed = ROOT / "seeds" / "xdeepserve-cloudmatrix384.yml"
    result = CliRunner().invoke(main, ["new", "--from-seed", str(seed)])
    assert result.exit_code == 0, result.output
    target = project / "docs/papers/xdeepserve-cloudmatrix384.md"
    assert result.output == "wrote docs/papers/xdeepserve-cloudmatrix384.md\n"
    text = target.read_text(encoding="utf-8")
    assert text == render_article(RECORDS["xdeepserve-cloudmatrix384"])
    assert text.startswith("---\ntitle: xDeepServe on CloudMatrix384\npaper:\n")
    assert "paragraphs: P001-P129\nfigures: 20\nweight: 20\nstatus: draft\n---\n" in text
    assert text.endswith(
        '## 正文\n\n!!! info "翻译进行中"\n\n'
        "    本文计划逐段翻译论文的 P001–P129（共 129 段），并收录 20 幅原图；译文尚未录入。\n"
    )
    assert oct(target.stat().st_mode & 0o777) != "0o600"
    target.write_text("作者的修改\n", encoding="utf-8")
    again = CliRunner().invoke(main, ["new", "--from-seed", str(seed)])
    assert again.exit_code == 1
    assert "exists already; not overwritten" in again.output
    assert target.read_text(encoding="utf-8") == "作者的修改\n"
    assert [p.name for p in target.parent.iterdir()] == [target.name]  # no temp file left


def test_new_needs_the_section_in_mkdocs_yml(tmp_path: Path, chdir: Callable[[Path], None]) -> None:
    chdir(_project(tmp_path, {}))
    seed = ROOT / "seeds" / "ub-mesh-architecture.yml"
    result = CliRunner().invoke(main, ["new", "--from-seed", str(seed)])
    assert result.exit_code == 1
    assert "section '1-AI Systems' is not in mkdocs.yml" in result.output
    assert not any((tmp_path / "docs").iterdir())


def test_bad_seed_names_the_problem(tmp_path: Path) -> None:
    bad = tmp_path / "x.yml"
    bad.write_text("slug: Not A Slug\ntitle: t\nsection: s\nintro: [a]\n", "utf-8")
    with pytest.raises(SeedError, match="slug 'Not A Slug' should be lowercase"):
        load_seed(bad)
    bad.write_text("slug: ok\ntitle: t\nsection: s\nintro: []\n", "utf-8")
    with pytest.raises(SeedError, match="'intro' should be a list"):
        load_seed(bad)
    bad.write_text("slug: [\n", "utf-8")
    with pytest.raises(SeedError, match=r"x\.yml:2: DZ207 not valid YAML"):
        load_seed(bad)


def test_write_new_is_atomic_and_exclusive(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b.md"
    write_new(target, "一\n")
    assert target.read_text(encoding="utf-8") == "一\n"
    with pytest.raises(FileExistsError):
        write_new(target, "二\n")
    assert target.read_text(encoding="utf-8") == "一\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["b.md"]
