"""The fifth held-out labelled corpus (tests/data/pdfcorpus-heldout5): 13 real papers from 11
templates and publishing stacks the other sets lack (INTERSPEECH, IJCAI, TMLR, REVTeX, BMVC,
Quarto, papaja in two layouts, Frontiers, acmart acmtog, a one-column article of sub-tables),
labelled by ink by someone who never ran the detector or the importer on them, and scored as the
other sets are (``python -m bench.detect --set heldout5``).

The set's form is checked here (there, well formed, no file, sha256, title or source file
shared with the other sets), and in ``make fuzz`` its scores are held to floors: the first
measurement, unseen, rounded down to 0.01. Do not tune the detector on these pages: a failure there is a class to reproduce and fix
on a generated page or a paper of the tuned corpus (tests/data/pdfcorpus).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bench import pdfcorpus

from budget import HELD_OUT_IN_FUZZ, LONG
from heldout_pdf import assert_floors, assert_in_no_other_set, assert_well_formed

#: First measurement, unseen (main at 6b6f35c's code, DETECT_VERSION 32, 2026-12-04: 13 papers,
#: 11 templates, 45 pages, 67 floats): recall 0.881, precision 0.894, captions 0.836. Issue 20
#: wants 0.95: not met. Time per page: median 0.031 s, p95 0.054 s, max 0.057 s.
RECALL_FLOOR = 0.88
PRECISION_FLOOR = 0.89
CAPTION_FLOOR = 0.83
#: The worst template at the first measurement: acmart-acmtog at 0.500 (one paper of two floats:
#: a table's box cut at its bottom), then onecol-article at 0.600 (tables of two stacked
#: sub-tables: only the lower one boxed).
TEMPLATE_FLOOR = 0.5

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


@pytest.mark.skipif(not LONG, reason=HELD_OUT_IN_FUZZ)
def test_heldout5_detection_scores_hold_their_floors() -> None:
    assert_floors(
        PAPERS,
        recall=RECALL_FLOOR,
        precision=PRECISION_FLOOR,
        captions=CAPTION_FLOOR,
        template=TEMPLATE_FLOOR,
    )
