"""`duizhao figures detect`: boxes, labels and captions on generated and real papers, the YAML
it prints, merging into a spec, the review page, the cache, and table entries on a site."""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples
from conftest import Logs, Site
from duizhao.cli import main
from duizhao.figures import detect as detect_module
from duizhao.figures.detect import DetectedFigure, detect_figures
from duizhao.figures.merge import merge, spec_text
from duizhao.figures.review import review_html
from duizhao.figures.spec import load_spec, untranslated_captions
from paper_sources import Truth, make_paper

CORPUS = Path(__file__).parent / "data" / "pdfcorpus"
#: The two papers labelled for issue 14 (now in the labelled corpus, tests/data/pdfcorpus;
#: tests/test_pdfcorpus.py scores all of it).
LABELLED = {"ieee-pfanalyzer": "ieeetran-pfanalyzer", "acm-aiwc": "acmart-aiwc"}


def _truths(paper: str) -> list[dict[str, object]]:
    """A labelled paper's floats in the shape of the issue-14 labels."""
    items = json.loads((CORPUS / f"{LABELLED[paper]}.json").read_text("utf-8"))["items"]
    return [
        {
            "page": i["page"],
            "kind": i["kind"],
            "label": i["printed"],
            "number": i["number"],
            "box": i["box_tl"],
            "caption": i["caption"],
        }
        for i in items
    ]


def iou(a: Sequence[float], b: Sequence[float]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union else 0.0


# ---------------------------------------------------------------------------------------------
# Generated papers: every box known to a fraction of a point


@pytest.mark.parametrize("style", ["acm", "ieee"])
def test_generated_paper_boxes_labels_and_captions(tmp_path: Path, style: str) -> None:
    truths = make_paper(tmp_path / "paper.pdf", style)
    found = detect_figures(tmp_path / "paper.pdf")
    assert sorted((f.kind, f.number) for f in found) == sorted((t.kind, t.number) for t in truths)
    by_key = {(f.kind, f.number): f for f in found}
    for truth in truths:
        got = by_key[(truth.kind, truth.number)]
        assert got.page == truth.page, truth
        assert got.label == truth.label
        assert got.caption == truth.caption
        assert iou(got.box, truth.box) >= 0.9, (truth, got.box)
        # The caption is outside the body's box.
        assert iou(got.box, got.caption_box) == 0


def test_generated_paper_is_in_reading_order(tmp_path: Path) -> None:
    make_paper(tmp_path / "paper.pdf")
    found = detect_figures(tmp_path / "paper.pdf")
    # Page 1: Table 1 (left column) before Figure 1 (right column, higher on the page).
    assert [f.label for f in found] == [
        "Table 1",
        "Figure 1",
        "Figure 2",
        "Table 2",
        "Figure 3",
        "Table 3",
        "Figure 4",
        "Figure 5",
        "Table 4",
        "Figure 6",
        "Figure 7",
        "Figure 8",
    ]


def test_demo_paper_figures(tmp_path: Path) -> None:
    """The repository's own demo paper (one column, bold labels set apart from their text)."""
    found = detect_figures(Path(__file__).parent.parent / "examples/demo/papers/figures-demo.pdf")
    assert [(f.page, f.label, f.caption) for f in found] == [
        (1, "Figure 1", "Overview of the demo serving system."),
        (2, "Figure 2", "Throughput per batch size."),
        (2, "Figure 3", "Tail latency under load."),
        (3, "Figure 4", "Expert load per layer (darker is busier)."),
    ]


# ---------------------------------------------------------------------------------------------
# Real papers, labelled by hand (tests/data/papers/SOURCES.md)


def _score(found: list[DetectedFigure], truths: list[dict[str, object]]) -> tuple[int, int, int]:
    """(matches at IoU ≥ 0.8, matches whose caption is right, …) by page, kind and number."""
    matched = captions = 0
    for t in truths:
        for f in found:
            if (f.page, f.kind, f.number) == (t["page"], t["kind"], t["number"]):
                box = t["box"]
                assert isinstance(box, list)
                if iou(f.box, box) >= 0.8:
                    matched += 1
                    captions += f.caption == t["caption"] and f.label == t["label"]
    return matched, captions, len(found)


@pytest.mark.parametrize("paper", ["ieee-pfanalyzer", "acm-aiwc"])
def test_real_paper_recall_precision_and_captions(paper: str) -> None:
    truths = _truths(paper)
    found = detect_figures(CORPUS / f"{LABELLED[paper]}.pdf")
    matched, captions, detected = _score(found, truths)
    recall = matched / len(truths)
    precision = matched / detected
    assert recall >= 0.9 and precision >= 0.9, (paper, recall, precision)
    assert captions / len(truths) >= 0.9, (paper, captions)


def test_real_papers_in_all() -> None:
    """Pooled over the labelled papers: at least 0.9 each, and in fact everything."""
    matched = captions = detected = total = 0
    for paper in sorted(LABELLED):
        truths = _truths(paper)
        m, c, d = _score(detect_figures(CORPUS / f"{LABELLED[paper]}.pdf"), truths)
        matched, captions, detected, total = (
            matched + m,
            captions + c,
            detected + d,
            total + len(truths),
        )
    assert total == 15
    assert (matched, captions, detected) == (15, 15, 15)


# ---------------------------------------------------------------------------------------------
# The command


ARTICLE = "---\ntitle: A\nfigures: 3\nstatus: draft\n---\n\n# A\n"


def _project(tmp_path: Path, style: str = "acm") -> tuple[Path, list[Truth]]:
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n", "utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text(ARTICLE, "utf-8")
    return tmp_path, make_paper(tmp_path / "papers" / "paper.pdf", style)


def _run(root: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["figures", "detect", *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_detect_prints_spec_entries_and_a_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _truths = _project(tmp_path)
    monkeypatch.chdir(root)
    code, out, err = _run(root, "papers/paper.pdf")
    assert code == 0, err
    assert re.match(r"papers/paper\.pdf: 6 pages, 8 figures, 4 tables \([0-9.]+ s, ", err)
    data = yaml.safe_load(out)
    assert data["source"] == "papers/paper.pdf"
    entries = data["figures"]
    assert [(e.get("kind", "figure"), e["id"]) for e in entries] == [
        *(("figure", n) for n in range(1, 9)),
        *(("table", n) for n in range(1, 5)),
    ]
    assert entries[8]["label"] == "Table 1" and entries[8]["caption"] == {
        "en": "Model sizes and memory.",
        "zh": "",
    }
    # The same command for an article prints entries whose source is relative to its spec.
    code, out, err = _run(root, "papers/paper.pdf", "--article", "docs/a.md")
    assert code == 0
    assert yaml.safe_load(out)["source"] == "../papers/paper.pdf"
    assert "12 new entries for a.figures.yml; --write adds them" in err
    assert "(cached)" in err
    assert not (root / "docs" / "a.figures.yml").exists()


def test_write_creates_the_spec_and_keeps_what_the_author_edited(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _truths = _project(tmp_path)
    monkeypatch.chdir(root)
    code, _out, err = _run(root, "papers/paper.pdf", "--article", "docs/a.md", "--write")
    assert code == 0, err
    spec_file = root / "docs" / "a.figures.yml"
    spec = load_spec(spec_file, root)
    assert spec.diagnostics == []
    assert sorted(spec.declared) == [
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
        "table-1",
        "table-2",
        "table-3",
        "table-4",
    ]
    table = next(f for f in spec.figures if f.key == "table-2")
    assert (table.kind, table.label, table.page, table.caption_zh) == ("table", "Table 2", 2, "")
    assert untranslated_captions(spec_file) == 12
    status = CliRunner().invoke(main, ["status"], catch_exceptions=False)
    assert "(12 captions untranslated)" in status.stdout, status.output

    # The author corrects figure 2's box, translates a caption, deletes table 3 and adds a
    # comment; a second --write restores only what is missing.
    text = spec_file.read_text("utf-8")
    fig2 = re.search(r"  - id: 2\n    label: \"Figure 2\"\n    page: 2\n    box: \[[^\]]*\]", text)
    assert fig2
    edited = text.replace(fig2.group(0), fig2.group(0).split("box:")[0] + "box: [80, 70, 530, 220]")
    edited = edited.replace(
        'en: "Cache hit rate."\n      zh: ""', 'en: "Cache hit rate."\n      zh: "缓存命中率。"'
    )
    start = edited.index("  - id: 3\n    kind: table")
    edited = "# mine\n" + edited[:start]
    spec_file.write_text(edited, "utf-8")
    code, _out, err = _run(root, "papers/paper.pdf", "--article", "docs/a.md", "--write")
    assert code == 0
    assert "a.figures.yml: Figure 2 kept as written; differs in box [80, 70, 530, 220]" in err
    assert "2 entries added, 10 already there" in err
    after = spec_file.read_text("utf-8")
    assert after.startswith(edited)  # every byte the author wrote stays
    assert "  - id: 3\n    kind: table" in after[len(edited) :]
    assert load_spec(spec_file, root).diagnostics == []
    assert untranslated_captions(spec_file) == 11


def test_write_needs_an_article_and_reports_an_unreadable_pdf(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _truths = _project(tmp_path)
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, ["figures", "detect", "papers/paper.pdf", "--write"])
    assert result.exit_code == 2 and "--write needs --article" in result.stderr
    (root / "papers" / "bad.pdf").write_bytes(b"%PDF-1.4\nnot really")
    result = CliRunner().invoke(main, ["figures", "detect", "papers/bad.pdf"])
    assert result.exit_code == 1
    assert "papers/bad.pdf: DZ113 not a readable PDF" in result.stderr
    assert "Traceback" not in result.output


def test_detection_is_cached_by_the_pdf_digest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _truths = _project(tmp_path)
    monkeypatch.chdir(root)
    code, first, _err = _run(root, "papers/paper.pdf")
    assert code == 0
    cached = list((root / ".cache/duizhao/figures/detect").glob("*.json"))
    assert len(cached) == 1 and len(cached[0].stem) == 64

    def forbidden(*args: object) -> None:
        raise AssertionError("detected again")

    monkeypatch.setattr(detect_module, "_detect", forbidden)
    code, second, err = _run(root, "papers/paper.pdf")
    assert code == 0 and second == first and "(cached)" in err
    # A changed PDF is a new digest: detected afresh.
    monkeypatch.undo()
    monkeypatch.chdir(root)
    make_paper(root / "papers" / "paper.pdf", "ieee")
    code, third, _err = _run(root, "papers/paper.pdf")
    assert "TABLE II" in third


def test_review_page_is_self_contained_and_escapes_captions(tmp_path: Path) -> None:
    make_paper(tmp_path / "paper.pdf")
    found = detect_figures(tmp_path / "paper.pdf")
    evil = DetectedFigure(
        1,
        "figure",
        "Figure 10",
        10,
        '<script>alert("x")</script> & co',
        (60, 80, 200, 200),
        (60, 210, 200, 220),
    )
    html = review_html(tmp_path / "paper.pdf", [*found, evil])
    assert "<script>" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; co" in html
    # 6 page thumbnails and 13 crops, all embedded.
    assert html.count('src="data:image/webp;base64,') == 6 + 13
    assert not re.search(r'src="(?!data:)', html)
    assert "figure 9 not found" in html


def test_review_option_writes_the_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root, _truths = _project(tmp_path)
    monkeypatch.chdir(root)
    code, _out, err = _run(root, "papers/paper.pdf", "--review", "--out", "rev")
    assert code == 0
    written = re.search(r"review: (rev/paper-[0-9a-f]{8}\.html)", err)
    assert written and (root / written.group(1)).read_text("utf-8").startswith("<!DOCTYPE html>")


# ---------------------------------------------------------------------------------------------
# Merging never changes an existing entry (property)


@pytest.fixture(scope="module")
def detected_paper(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[DetectedFigure]]:
    """The generated paper and what detection finds in it, once (detection is deterministic;
    the merge is what the property varies)."""
    paper = tmp_path_factory.mktemp("merge") / "papers" / "paper.pdf"
    make_paper(paper)
    return paper, detect_figures(paper)


@settings(max_examples=examples(15, 400), deadline=None)
@given(
    keep=st.lists(st.booleans(), min_size=12, max_size=12),
    indent=st.sampled_from(["", "  ", "    "]),
    trailer=st.sampled_from(["", "\n", "\n\n# end\n", "dpi: 150\n"]),
    # line breaks to YAML only: in a caption they must not move where entries go
    sep=st.sampled_from(["", "\u2028", "\x85", "\u2029"]),
)
def test_merge_only_adds(
    detected_paper: tuple[Path, list[DetectedFigure]],
    keep: list[bool],
    indent: str,
    trailer: str,
    sep: str,
) -> None:
    paper, found = detected_paper
    spec_file = paper.parent.parent / "docs" / "a.figures.yml"
    spec_file.parent.mkdir(exist_ok=True)
    full = yaml.safe_load(spec_text(found, "../papers/paper.pdf", "paper.pdf"))
    existing = [e for e, k in zip(full["figures"], keep, strict=True) if k]
    for e in existing:
        e["box"] = [1, 2, 3, 4]  # an author's edit
        e["caption"] = {"en": f"line{sep}break", "zh": ""}
    body = "".join(f"{indent}- {json.dumps(e, ensure_ascii=False)}\n" for e in existing)
    text = (
        f"source: ../papers/paper.pdf\nfigures:\n{body}{trailer}"
        if existing
        else ("source: ../papers/paper.pdf\n" + trailer)
    )
    result = merge(text, spec_file, paper, found)
    data = yaml.safe_load(result.text)
    # The author's text is all there, in order: the merge only inserted lines.
    ops = difflib.SequenceMatcher(
        None, text.splitlines(), result.text.splitlines(), autojunk=False
    ).get_opcodes()
    assert {op for op, *_ in ops} <= {"equal", "insert"}
    # (as YAML reads them: a raw line break in a double-quoted caption folds to a space)
    assert data["figures"][: len(existing)] == (yaml.safe_load(text).get("figures") or [])
    assert len(data["figures"]) == 12
    assert len(result.added) == 12 - len(existing)
    assert len(result.differences) == len(existing)
    if trailer == "dpi: 150\n":
        assert data["dpi"] == 150


# ---------------------------------------------------------------------------------------------
# Table entries on a site


SITE_ARTICLE = """\
---
title: 文章 A
paper: {title: Demo, license: CC-BY-4.0}
figures: 2
status: complete
---

# 文章 A

见 [](#fig-2) 与 [](#table-2)。

/// figure | 1
///

/// figure | 2
///

/// figure | table-2
///
"""

SITE_SPEC = """\
source: ../papers/paper.pdf
figures:
  - {id: 1, page: 1, box: [72, 96, 540, 380], caption: {en: Overview., zh: 总览。}}
  - {id: 2, page: 2, box: [72, 96, 300, 250], caption: {en: Throughput., zh: ""}}
  - id: 2
    kind: table
    label: TABLE II
    page: 3
    box: [72, 96, 540, 300]
    caption: {en: Settings of each run., zh: 每次运行的设置。}
"""


def test_tables_and_figures_of_one_number_coexist_on_a_site(
    make_site: Callable[..., Site], logs: Logs
) -> None:
    from figure_sources import make_pdf

    site = make_site(
        {"index.md": "# 首页\n", "a.md": SITE_ARTICLE, "a.figures.yml": SITE_SPEC},
        plugins=[{"duizhao": {"figures": {"jobs": 1}}}],
    )
    make_pdf(site.root / "papers" / "paper.pdf")
    site.build()
    logs.take(r"DZ009 article has no '## 导言'")  # not this test's concern
    html = site.html("a.md")
    table = re.search(
        r'<figure class="dz-figure" data-dz-figure="table-2" id="table-2">.*?</figure>', html, re.S
    )
    assert table, html
    assert 'src="../assets/figures/a/table-2.' in table.group(0)
    assert '<span class="dz-caption-label">表 2：</span>每次运行的设置。' in table.group(0)
    assert '<span class="dz-caption-label">TABLE II: </span>Settings of each run.' in table.group(0)
    fig2 = re.search(
        r'<figure class="dz-figure" data-dz-figure="2" id="fig-2">.*?</figure>', html, re.S
    )
    assert fig2 and "Figure 2: </span>Throughput." in fig2.group(0)
    assert '<a href="#fig-2">图 2</a>' in html and '<a href="#table-2">表 2</a>' in html
    index = site.html("figures.md")
    assert "a/#table-2" in index and "表 2：每次运行的设置。" in index


def test_table_entries_are_checked(tmp_path: Path) -> None:
    from duizhao.article import parse
    from duizhao.figures.catalog import Catalog
    from figure_sources import make_pdf

    make_pdf(tmp_path / "papers" / "paper.pdf")
    (tmp_path / "docs").mkdir()
    spec = (
        SITE_SPEC
        + "  - {id: 2, kind: table, page: 1, box: [1, 1, 2, 2]}\n  - {id: 4, kind: chart, page: 1, box: [1, 1, 2, 2]}\n"
    )
    (tmp_path / "docs" / "a.figures.yml").write_text(spec, "utf-8")
    text = SITE_ARTICLE.replace("/// figure | table-2\n///\n", "/// figure | table-3\n///\n")
    path = tmp_path / "docs" / "a.md"
    path.write_text(text, "utf-8")
    found = [
        f"{d.path}:{d.line}: {d.code} {d.message}"
        for d in Catalog(tmp_path).check(parse(text, path))
    ]
    assert found == [
        f"{path.parent}/a.figures.yml:11: DZ112 table 2 is declared twice (first at line 5); "
        "give each of the paper's tables one entry",
        f"{path.parent}/a.figures.yml:12: DZ105 kind 'chart' is unknown; write 'kind: table' "
        "for a table (figures need no kind)",
        f"{path}:18: DZ101 '/// figure | table-3' places an unknown figure; a.figures.yml "
        "declares 1, 2, table-2: write '/// figure | N' or '/// figure | table-N' with one "
        "of them",
        f"{path.parent}/a.figures.yml:5: DZ103 table 2 is declared but never placed in a.md; "
        "add '/// figure | table-2' and '///' where it belongs, or set 'status: draft'",
    ]


def test_merge_names_the_paper_when_the_spec_has_another_source(tmp_path: Path) -> None:
    from figure_sources import make_pdf

    paper = tmp_path / "papers" / "paper.pdf"
    make_paper(paper)
    make_pdf(tmp_path / "papers" / "other.pdf")
    spec_file = tmp_path / "docs" / "a.figures.yml"
    spec_file.parent.mkdir()
    text = "source: ../papers/other.pdf\nfigures:\n  - {id: 9, page: 1, box: [72, 96, 540, 380]}\n"
    result = merge(text, spec_file, paper, detect_figures(paper))
    assert result.text.startswith(text)
    assert result.text.count('source: "../papers/paper.pdf"') == 12
    spec_file.write_text(result.text, "utf-8")
    spec = load_spec(spec_file, tmp_path)
    assert spec.diagnostics == []
    sources = {f.key: f.source.path.name for f in spec.figures}
    assert sources == {
        "9": "other.pdf",
        **{k: "paper.pdf" for k in (*"12345678", "table-1", "table-2", "table-3", "table-4")},
    }


def test_detection_cache_follows_the_plugins_cache_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _truths = _project(tmp_path)
    (root / "mkdocs.yml").write_text(
        "site_name: t\nplugins:\n  - duizhao:\n      figures: {cache_dir: build/cache}\n", "utf-8"
    )
    monkeypatch.chdir(root)
    code, _out, _err = _run(root, "papers/paper.pdf")
    assert code == 0
    assert len(list((root / "build/cache/figures/detect").glob("*.json"))) == 1
