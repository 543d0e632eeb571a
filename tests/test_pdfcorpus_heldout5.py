"""The fifth held-out labelled corpus (tests/data/pdfcorpus-heldout5): 13 real papers from 11
templates and publishing stacks the other sets lack (INTERSPEECH, IJCAI, TMLR, REVTeX, BMVC,
Quarto, papaja in two layouts, Frontiers, acmart acmtog, a one-column article of sub-tables),
labelled by ink by someone who never ran the detector or the importer on them, and scored as the
other sets are (``python -m bench.detect --set heldout5``).

Only the set's form is checked here (there, well formed, no file, sha256, title or source file
shared with the other sets); it has no score floors yet: they come with the first measurement,
unseen. Do not tune the detector on these pages: a failure there is a class to reproduce and fix
on a generated page or a paper of the tuned corpus (tests/data/pdfcorpus).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bench import pdfcorpus

from heldout_pdf import assert_in_no_other_set, assert_well_formed

PAPERS = pdfcorpus.load(pdfcorpus.HELDOUT5)
OTHER_SETS = (
    pdfcorpus.CORPUS,
    pdfcorpus.HELDOUT,
    pdfcorpus.HELDOUT2,
    pdfcorpus.HELDOUT3,
    pdfcorpus.HELDOUT4,
)
#: What the set holds at least: 13 papers, 11 templates, 67 floats (23 tables) when labelled
#: (SOURCES.md).
MIN_PAPERS = 13
MIN_STYLES = 11
MIN_FLOATS = 67
MIN_TABLES = 23


def test_the_fifth_heldout_corpus_is_there_and_well_formed() -> None:
    assert_well_formed(
        PAPERS,
        OTHER_SETS,
        min_papers=MIN_PAPERS,
        min_styles=MIN_STYLES,
        min_floats=MIN_FLOATS,
        min_tables=MIN_TABLES,
    )
    assert {label.kind for paper in PAPERS for label in paper.labels} == {"figure", "table"}


def test_no_heldout5_paper_is_in_another_set() -> None:
    assert_in_no_other_set(PAPERS, OTHER_SETS)


def test_each_heldout5_paper_records_where_it_came_from() -> None:
    """Every paper names its repository, file, commit, licence, template and kept pages."""
    for paper in PAPERS:
        data = json.loads(paper.pdf.with_suffix(".json").read_text("utf-8"))
        source = data["source"]
        for key in ("repo", "path", "commit", "licence", "template", "title", "kept_pages"):
            assert source.get(key), (paper.slug, key)
        assert len(source["commit"]) == 40, paper.slug
        assert len(source["kept_pages"]) == data["pages"], paper.slug


def test_a_paper_cut_again_from_the_same_file_is_in_another_set(tmp_path: Path) -> None:
    """Other pages of the same PDF (same repository and path, another sha256 and title) are the
    same paper: the overlap check refuses them."""
    paper = PAPERS[0]
    data = json.loads(paper.pdf.with_suffix(".json").read_text("utf-8"))
    data["sha256"], data["source"]["title"] = "0" * 64, "another title"
    (tmp_path / paper.pdf.with_suffix(".json").name).write_text(json.dumps(data), "utf-8")
    assert_in_no_other_set(PAPERS[1:], (tmp_path,))
    with pytest.raises(AssertionError, match=paper.slug):
        assert_in_no_other_set(PAPERS[:1], (tmp_path,))
