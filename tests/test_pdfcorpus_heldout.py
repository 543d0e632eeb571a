"""The held-out labelled corpus (tests/data/pdfcorpus-heldout, issue 20: "keep a quarter of the
corpus aside until the end and report both halves"): real papers the detector was never tuned
on, scored as the tuned corpus is (``python -m bench.detect --heldout``).

The floors are a little under what the engine measured when the set was labelled; they guard
against a change that makes the detector worse on papers nobody tuned it on. Do not tune the
detector on these pages to raise them: a failure here is a class to reproduce and fix on a paper
of the tuned corpus (tests/data/pdfcorpus), then re-measure here and raise the floors.
"""

from __future__ import annotations

import pytest
from bench import pdfcorpus

from budget import HELD_OUT_IN_FUZZ, LONG
from heldout_pdf import assert_floors, assert_well_formed

#: Overall floors, about two floats under the measurement (13 papers, 11 templates, 77
#: floats: 1.000, 1.000, 1.000 once the three failure classes found here were reproduced on
#: generated pages and fixed as classes, tests/test_detect_classes.py; before that 0.935,
#: 0.935, 0.922, usenix 0.833 / 0.833 / 0.778, elsevier 0.750; before the reader gave each
#: glyph the size it is drawn at, main at 4ca2679: 0.597, 0.719, 0.506). Per-template
#: figures: bench/README.md.
RECALL_FLOOR = 0.97
PRECISION_FLOOR = 0.97
CAPTION_FLOOR = 0.97
#: Issue 20: no template below 0.9.
TEMPLATE_FLOOR = 0.9

PAPERS = pdfcorpus.load(pdfcorpus.HELDOUT)


def test_the_heldout_corpus_is_there_and_well_formed() -> None:
    assert_well_formed(PAPERS, (pdfcorpus.CORPUS,), min_papers=13)


@pytest.mark.skipif(not LONG, reason=HELD_OUT_IN_FUZZ)
def test_heldout_detection_scores_hold_their_floors() -> None:
    assert_floors(
        PAPERS,
        recall=RECALL_FLOOR,
        precision=PRECISION_FLOOR,
        captions=CAPTION_FLOOR,
        template=TEMPLATE_FLOOR,
    )
