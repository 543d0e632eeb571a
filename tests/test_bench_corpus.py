"""The benchmark corpus generator writes projects that check clean and build strictly."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
import yaml
from bench.corpus import FIGURE_SLOTS, PAGE_H, PAGE_W, generate
from mkdocs.commands.build import build
from mkdocs.config import load_config

from conftest import Logs
from duizhao.article import read_article
from duizhao.checks import Corpus, check_corpus
from duizhao.project import read_mkdocs_yml


def _check(root: Path) -> list[str]:
    docs = root / "docs"
    articles = [read_article(p) for p in sorted(docs.rglob("*.md"))]
    # Paths relative to the corpus, wherever the checkout and the temp folder are.
    return [d.format(root) for d in check_corpus(articles, Corpus(docs))]


def _build(root: Path) -> Path:
    site = root / "site"
    build(load_config(str(root / "mkdocs.yml"), site_dir=str(site), strict=True))
    return site


def test_corpus_checks_clean_and_builds_strict(tmp_path: Path) -> None:
    root = generate(tmp_path / "dz", 2, paragraphs=12)
    assert _check(root) == []
    article = read_article(root / "docs/articles/a001.md")
    assert [p.id for p in article.paragraphs] == [f"P{n:03d}" for n in range(1, 13)]
    assert article.intro and article.meta["paper"]["license"] == "CC-BY-4.0"
    html = (_build(root) / "articles/a001/index.html").read_text(encoding="utf-8")
    for n in range(1, 13):
        assert f'id="P{n:03d}"' in html
    assert 'lang="zh-CN"' in html


def test_paragraph_lengths_are_realistic(tmp_path: Path) -> None:
    root = generate(tmp_path / "dz", 1, paragraphs=60)
    article = read_article(root / "docs/articles/a001.md")
    originals = [p.original for p in article.paragraphs if p.original]
    assert len(originals) >= 50
    for original in originals:
        assert 60 <= len(original.split()) <= 180
    for p in article.paragraphs:
        prose = p.translation.split("\n\n")[0].split("（")[0]
        assert 80 <= len(prose.replace("**", "")) <= 300


def test_plain_corpus_is_the_same_text_without_the_plugin(tmp_path: Path, logs: Logs) -> None:
    dz = generate(tmp_path / "dz", 2, paragraphs=12)
    plain = generate(tmp_path / "plain", 2, paragraphs=12, duizhao=False)
    for rel in ("docs/articles/a001.md", "docs/articles/a002.md", "docs/index.md"):
        assert (dz / rel).read_bytes() == (plain / rel).read_bytes()
    config = read_mkdocs_yml(plain / "mkdocs.yml")  # tags such as !!python/name kept as text
    assert config["plugins"] == [{"search": {"lang": "zh"}}]
    assert config["theme"] == {"name": "material", "language": "zh", "font": False}
    build(load_config(str(plain / "mkdocs.yml"), site_dir=str(plain / "site")))
    # without duizhao the blocks are text: MkDocs finds no #P… anchors for the links
    logs.take(r"contains a link '[^']*#P\d+'")
    html = (plain / "site/articles/a001/index.html").read_text(encoding="utf-8")
    assert "/// paragraph | P001" in html and 'id="P001"' not in html


def test_generate_is_deterministic_and_replaces_its_own_output(tmp_path: Path) -> None:
    first = generate(tmp_path / "a", 2, paragraphs=20, seed=7)
    text = (first / "docs/articles/a002.md").read_text(encoding="utf-8")
    generate(tmp_path / "a", 1, paragraphs=20, seed=7)
    assert not (first / "docs/articles/a002.md").exists()
    second = generate(tmp_path / "b", 2, paragraphs=20, seed=7)
    assert (second / "docs/articles/a002.md").read_text(encoding="utf-8") == text
    other = generate(tmp_path / "c", 2, paragraphs=20, seed=8)
    assert (other / "docs/articles/a002.md").read_text(encoding="utf-8") != text
    (tmp_path / "d").mkdir()
    (tmp_path / "d/keep.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(ValueError, match="not a generated corpus"):
        generate(tmp_path / "d", 1)


def test_figures_follow_the_figure_contract(tmp_path: Path) -> None:
    root = generate(tmp_path / "dz", 2, paragraphs=12, figures=5)
    assert _check(root) == []
    article = read_article(root / "docs/articles/a002.md")
    assert article.meta["figures"] == 5
    assert [f.id for f in article.figures] == ["1", "2", "3", "4", "5"]
    spec_path = root / "docs/articles/a002.figures.yml"
    spec = yaml.safe_load(spec_path.read_text(encoding="utf-8"))
    source = (spec_path.parent / spec["source"]).resolve()
    assert source.is_relative_to(root.resolve()) and spec["dpi"] == 200
    pdf = pdfium.PdfDocument(source)
    assert len(pdf) == 3
    for entry in spec["figures"]:
        assert set(entry) == {"id", "page", "box", "caption"}
        assert set(entry["caption"]) == {"en", "zh"}
        assert 1 <= entry["page"] <= len(pdf)
        assert tuple(entry["box"]) in FIGURE_SLOTS
        assert pdf[entry["page"] - 1].get_size() == (PAGE_W, PAGE_H)
    pdf.close()


def test_defects_added_to_a_generated_article_are_reported(tmp_path: Path) -> None:
    root = generate(tmp_path / "dz", 2, paragraphs=12)
    rel = "docs/articles/a001.md"
    path = root / rel
    text = path.read_text(encoding="utf-8")
    lines = len(text.splitlines())
    path.write_text(
        text + "\n见 [](#P013)、[](a002.md#P099) 与 [ok](a002.md#P012)。\n"
        "[ref]: a002.md#P100\n/// paragraph | P012\n重复\n///\n",
        encoding="utf-8",
    )
    assert _check(root) == [
        f"{rel}:{lines + 2}: DZ008 link [](#P013) points to #P013, which is not in this article",
        f"{rel}:{lines + 2}: DZ008 link [](a002.md#P099) points to #P099, which is not in "
        "'a002.md'",
        f"{rel}:{lines + 3}: DZ008 link [ref](a002.md#P100) points to #P100, which is not in "
        "'a002.md'",
        f"{rel}:{lines + 4}: DZ002 duplicate paragraph ID P012 (first used at line "
        f"{text.splitlines().index('/// paragraph | P012') + 1}); renumber with 'duizhao renumber'",
    ]


def test_the_glossary_benchs_translations_follow_its_glossary(tmp_path: Path) -> None:
    """bench.glossary's corpus: the same originals, each translation rendering the terms of
    its original, so the glossary check (and every other check) finds nothing."""
    from bench.glossary import agreeing_prose, make_glossary

    from duizhao.quality.run import Quality

    root = generate(tmp_path / "dz", 3, paragraphs=12)
    before = read_article(root / "docs/articles/a002.md")
    entries = make_glossary(root, 200)
    root = generate(root, 3, paragraphs=12, prose=agreeing_prose(entries))
    after = read_article(root / "docs/articles/a002.md")
    assert [p.original for p in after.paragraphs] == [p.original for p in before.paragraphs]
    assert [p.translation for p in after.paragraphs] != [p.translation for p in before.paragraphs]
    glossary = root / "glossary.yml"
    glossary.write_text(yaml.safe_dump(entries, allow_unicode=True), encoding="utf-8")
    quality = Quality(glossary_path=glossary)
    docs = sorted((root / "docs").rglob("*.md"))
    assert [d.format(root) for p in docs for d in quality.article(read_article(p))] == []
    assert _check(root) == []
    assert any(d.code == "DZ445" for d in quality.article(before))  # the random prose: not
