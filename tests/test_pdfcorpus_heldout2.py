"""The second held-out labelled corpus (tests/data/pdfcorpus-heldout2): 16 more real papers the
detector was never tuned on, labelled while it was being tuned elsewhere, and scored as the
other sets are (``python -m bench.detect --heldout2``).

The floors are the first measurement rounded down to 0.01; they guard against a change that
makes the detector worse on papers nobody tuned it on. Do not tune the detector on these pages
to raise them: a failure here is a class to reproduce and fix on a paper of the tuned corpus
(tests/data/pdfcorpus), then re-measure here and raise the floors.
"""

from __future__ import annotations

import pytest
from bench import pdfcorpus

from budget import HELD_OUT_IN_FUZZ, LONG
from heldout_pdf import assert_floors, assert_well_formed

#: Overall floors, rounded down to 0.01. First measurement, unseen (main at c8fefe4, and
#: unchanged after the first held-out set's classes were fixed: 16 papers, 12 templates, 46
#: pages, 91 floats): recall 0.868, precision 0.929, captions 0.868. After its failure classes,
#: told to the detector's author in words only and fixed on generated pages (DETECT_VERSION
#: 21): 0.967 / 0.978 / 0.967. Its last two misses reproduced on generated pages as classes
#: (a page-wide figure over a table caption in the other column; line numbers every fifth
#: line; DETECT_VERSION 22): 0.989 / 0.989 / 0.989. Per-template figures: bench/README.md.
RECALL_FLOOR = 0.98
PRECISION_FLOOR = 0.98
CAPTION_FLOOR = 0.98
#: Issue 20: no template below 0.9.
TEMPLATE_FLOOR = 0.9

PAPERS = pdfcorpus.load(pdfcorpus.HELDOUT2)


def test_the_second_heldout_corpus_is_there_and_well_formed() -> None:
    assert_well_formed(
        PAPERS,
        (pdfcorpus.CORPUS, pdfcorpus.HELDOUT),
        min_papers=16,
        min_styles=12,
        min_floats=60,
    )


@pytest.mark.skipif(not LONG, reason=HELD_OUT_IN_FUZZ)
def test_heldout2_detection_scores_hold_their_floors() -> None:
    assert_floors(
        PAPERS,
        recall=RECALL_FLOOR,
        precision=PRECISION_FLOOR,
        captions=CAPTION_FLOOR,
        template=TEMPLATE_FLOOR,
    )
