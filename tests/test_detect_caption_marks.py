"""A mark drawn in a caption's line is the caption's, no float's body (issue 20), reproduced
on a generated page (every box known). Told in words from a one-column preprint the detector
was never tuned on: three ruled tables stacked on a page, each captioned below ("Table 1:
make_regression Results"), TeX drawing each underscore as a short rule. The rule, a couple of
points under the caption's glyph tops, read as a body right under every caption; so every
caption voted for a body below it, and each table took the next one's body.
:func:`duizhao.figures.caption_steps.caption_mark` keeps such marks out of every region.
"""

from __future__ import annotations

from pathlib import Path

from duizhao.figures.detect import detect_figures
from paper_sources import CHAR, Canvas, _pdf, ruled_table
from test_detect_classes import _check

SIZE = 10.0


def _caption(c: Canvas, x: float, top: float, n: int) -> str:
    """``Table n: make_regression Results`` with its underscore drawn as a rule."""
    head, tail = f"Table {n}: make", "regression Results"
    baseline = top + SIZE
    c.color((0, 0, 0))
    c.text(x, baseline, head, SIZE)
    gap = x + CHAR * SIZE * len(head)
    c.rule(gap + 0.5, gap + CHAR * SIZE - 0.5, baseline + 1.2, 0.4)
    c.text(gap + CHAR * SIZE, baseline, tail, SIZE)
    return "make_regression Results"


def test_an_underscore_drawn_in_a_caption_is_no_body(tmp_path: Path) -> None:
    c = Canvas()
    truths = {}
    top = 120.0
    for n in (1, 2, 3):
        table = ruled_table(c, 150, top, 10, 3, 12)
        _caption(c, 200, table[3] + 10, n)
        # the caption's text as the detector joins it: the rule is no glyph
        truths[f"Table {n}"] = (table, "make regression Results")
        top = table[3] + 45
    pdf = tmp_path / "stacked.pdf"
    pdf.write_bytes(_pdf([c]))
    _check(detect_figures(pdf), truths)
