"""Failure classes of the figure detector reproduced on real papers of the tuned corpus
(tests/data/pdfcorpus, hand-labelled; source, commit and licence in its SOURCES.md). The classes
were found on held-out sets and described in words only; their pages are never opened here.
Each paper is held to all of its floats found, boxed and captioned as labelled.

1. A Word export numbering its captions within sections ("Figure 4.1 CNN Architecture", no
   delimiter after the label; figures 4.2 and 5.2 share their last number): word-plantcnn.
2. AAAI's tables captioned below them, cells parted by vertical rules only, an unnumbered
   bold heading (no heading by the engine's rules: a line of text) right under the second
   table's caption; the side vote read that line as the second table's body and sent both
   tables' regions down, the first over the second's body: aaai-authorkit.
3. ACL's template: a table captioned below it at the top of a column, a figure's body right
   under that caption (the figure's caption under it, nothing under that); the side vote
   read the figure's body as the table's, the table was left without one and the second
   table, page-wide, took the text under its caption: acl-semeval.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bench import pdfcorpus

from duizhao.figures.detect import detect_figures

PAPERS = {paper.slug: paper for paper in pdfcorpus.load()}


def _detector(pdf: Path) -> tuple[list[object], list[float]]:
    return list(detect_figures(pdf)), [0.0]


@pytest.mark.parametrize("slug", ["word-plantcnn", "aaai-authorkit", "acl-semeval"])
def test_every_float_is_found_boxed_and_captioned(slug: str) -> None:
    score = pdfcorpus.score([PAPERS[slug]], _detector).papers[slug]
    assert score.labels > 0
    assert (score.found, score.matched, score.captions) == (score.labels,) * 3, score.misses
