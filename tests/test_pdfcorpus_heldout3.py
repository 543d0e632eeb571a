"""The third held-out labelled corpus (tests/data/pdfcorpus-heldout3): 15 more real papers from
templates and publishing stacks the other sets lack, labelled by ink by someone who never ran
the detector or the importer on them, and scored as the other sets are
(``python -m bench.detect --set heldout3``).

The floors are the first measurement rounded down to 0.01; they guard against a change that
makes the detector worse on papers nobody tuned it on. Do not tune the detector on these pages
to raise them: a failure here is a class to reproduce and fix on a generated page or a paper of
the tuned corpus (tests/data/pdfcorpus), then re-measure here and raise the floors.
"""

from __future__ import annotations

import pytest
from bench import pdfcorpus

from budget import HELD_OUT_IN_FUZZ, LONG
from heldout_pdf import assert_floors, assert_in_no_other_set, assert_well_formed

#: Overall floors, rounded down to 0.01. First measurement, unseen (main at 528e388 and again
#: with the second held-out set's last classes fixed, DETECT_VERSION 22: 15 papers, 13
#: templates, 78 pages, 81 floats): recall 0.901, precision 0.901, captions 0.889. Raised to
#: the score after classes told in words to fixers who never read the set (DETECT_VERSION 32,
#: 2026-12-03): 0.914, 0.925, 0.901.
RECALL_FLOOR = 0.91
PRECISION_FLOOR = 0.92
CAPTION_FLOOR = 0.90
#: The worst template at the first measurement (bmc: two legends with no body in the file were
#: given invented bodies, and a table's header row was cut off). Issue 20 wants 0.9: not met.
TEMPLATE_FLOOR = 0.2

PAPERS = pdfcorpus.load(pdfcorpus.HELDOUT3)
OTHER_SETS = (pdfcorpus.CORPUS, pdfcorpus.HELDOUT, pdfcorpus.HELDOUT2)


def test_the_third_heldout_corpus_is_there_and_well_formed() -> None:
    assert_well_formed(PAPERS, OTHER_SETS, min_papers=14, min_styles=8, min_floats=70)
    assert {label.kind for paper in PAPERS for label in paper.labels} == {"figure", "table"}


def test_no_heldout3_paper_is_in_another_set() -> None:
    assert_in_no_other_set(PAPERS, OTHER_SETS)


@pytest.mark.skipif(not LONG, reason=HELD_OUT_IN_FUZZ)
def test_heldout3_detection_scores_hold_their_floors() -> None:
    assert_floors(
        PAPERS,
        recall=RECALL_FLOOR,
        precision=PRECISION_FLOOR,
        captions=CAPTION_FLOOR,
        template=TEMPLATE_FLOOR,
    )
