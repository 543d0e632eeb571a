"""The fourth held-out labelled corpus (tests/data/pdfcorpus-heldout4): 15 real papers from
templates and publishing stacks the other four sets have least (IEEE Access, PLOS set by XeTeX,
acmsmall, a NeurIPS-style report by xdvipdfmx, a thesis, a Microsoft Word export, Ghostscript-,
MiKTeX- and Overleaf-made IEEEtran and USENIX papers), labelled by ink by someone who never ran
the detector or the importer on them, and scored as the other sets are
(``python -m bench.detect --set heldout4``).

The set's form is checked here (there, well formed, no file, sha256 or title shared with the
other sets) and its scores are held to floors: the first measurement, unseen, rounded down to
0.01. Do not tune the detector on these pages: a failure here is a class to reproduce and fix on a generated page or a
paper of the tuned corpus (tests/data/pdfcorpus).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bench import pdfcorpus

from budget import HELD_OUT_IN_FUZZ, LONG
from heldout_pdf import assert_floors, assert_in_no_other_set, assert_well_formed

#: Overall floors, rounded down to 0.01. First measurement, unseen (main at 69c99cf,
#: 2026-12-03: 15 papers, 12 templates, 78 pages, 131 floats): recall 0.840, precision 0.924,
#: captions 0.824 (recall is 110/131 = 0.8397). Issue 20 wants 0.95: not met. Raised to the
#: score after classes told in words to fixers who never read the set, on its 14 papers
#: (DETECT_VERSION 32, 2026-12-03): 0.902, 0.924, 0.893 (the 14 scored 0.852 / 0.929 / 0.836 at
#: the first measurement).
RECALL_FLOOR = 0.90
PRECISION_FLOOR = 0.92
CAPTION_FLOOR = 0.89
#: The worst template at the first measurement is word-ieee at 0.000 (captions: a Word export's
#: section-numbered labels "Fig.1.1", "FIG.3.2" were not read; recall 0.091); next is
#: onecol-article at 0.111 (a page of three ruled tables captioned below got boxes of a few
#: points under each caption). After the fixes: onecol-article still 0.111, word-ieee 0.636.
TEMPLATE_FLOOR = 0.11

PAPERS = pdfcorpus.load(pdfcorpus.HELDOUT4)
OTHER_SETS = (pdfcorpus.CORPUS, pdfcorpus.HELDOUT, pdfcorpus.HELDOUT2, pdfcorpus.HELDOUT3)
#: What the set holds at least: 15 papers, 12 templates, 131 floats (44 tables) when labelled;
#: 14, 11, 122 (39) since ieeeaccess-colonsegnet went to the tuned corpus (SOURCES.md).
MIN_PAPERS = 14
MIN_STYLES = 11
MIN_FLOATS = 120
MIN_TABLES = 39


def test_the_fourth_heldout_corpus_is_there_and_well_formed() -> None:
    assert_well_formed(
        PAPERS,
        OTHER_SETS,
        min_papers=MIN_PAPERS,
        min_styles=MIN_STYLES,
        min_floats=MIN_FLOATS,
        min_tables=MIN_TABLES,
    )
    assert {label.kind for paper in PAPERS for label in paper.labels} == {"figure", "table"}


def test_no_heldout4_paper_is_in_another_set() -> None:
    assert_in_no_other_set(PAPERS, OTHER_SETS)


@pytest.mark.skipif(not LONG, reason=HELD_OUT_IN_FUZZ)
def test_heldout4_detection_scores_hold_their_floors() -> None:
    assert_floors(
        PAPERS,
        recall=RECALL_FLOOR,
        precision=PRECISION_FLOOR,
        captions=CAPTION_FLOOR,
        template=TEMPLATE_FLOOR,
    )


def test_a_paper_cut_again_from_the_same_file_is_in_another_set(tmp_path: Path) -> None:
    """Other pages of the same PDF (same repository and path, another sha256 and title) are the
    same paper: the overlap check refuses them (the tuned corpus took ieeeaccess-colonsegnet's
    pages 4 and 9 while this set held pages 4-10, under a longer title)."""
    paper = PAPERS[0]
    data = json.loads(paper.pdf.with_suffix(".json").read_text("utf-8"))
    data["sha256"], data["source"]["title"] = "0" * 64, "another title"
    (tmp_path / paper.pdf.with_suffix(".json").name).write_text(json.dumps(data), "utf-8")
    assert_in_no_other_set(PAPERS[1:], (tmp_path,))
    with pytest.raises(AssertionError, match=paper.slug):
        assert_in_no_other_set(PAPERS[:1], (tmp_path,))
