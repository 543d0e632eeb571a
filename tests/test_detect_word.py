"""Word exports' captions and figures (issue 20), each class reproduced on a generated page
(every box known), described in words from papers the detector was not tuned on:

1. A label with a dash between its word and its number ("Figure – 1:", "Fig- 1:"): a
   caption all the same (word-fogvision; IRJET's "Fig- 1:").
2. Word's caption style without a delimiter, flush left in type smaller than the body's
   ("Figure 1 Weapons and Their Counts"): a caption; a line of running text that starts
   with a label ("Figure 1 illustrates …") stays a reference.
3. A figure over both columns whose caption is centred on the page across the gutter, the
   columns' running text starting right under the caption (word-diabetesmlp): the body is
   the whole drawing, not the part of it that one column's text would leave.
"""

from __future__ import annotations

from pathlib import Path

from duizhao.figures.detect import detect_figures
from paper_sources import LEAD, LEFT, RIGHT, Canvas, _pdf, bar_chart, body, heads
from test_detect_classes import _check

SMALL = 8.0


def test_dashed_and_undelimited_word_labels(tmp_path: Path) -> None:
    c = Canvas()
    heads(c, 1)
    body(c, LEFT, 72, 150, 1)
    first = bar_chart(c, 70, 160, 280, 290)
    c.color((0, 0, 0))
    c.text(LEFT[0], 300 + SMALL, "Figure 1 Weapons and Their Counts", SMALL)
    body(c, LEFT, 330, 420, 2)
    c.color((0.1, 0.1, 0.1))
    c.text(LEFT[0], 420 + LEAD, "Figure 1 illustrates the load of the cache", 10.0)
    body(c, LEFT, 420 + 2 * LEAD, 720, 3)
    body(c, RIGHT, 72, 150, 4)
    second = bar_chart(c, 330, 160, 540, 290)
    c.color((0, 0, 0))
    c.text(RIGHT[0] + 40, 300 + 9.0, "Fig- 2: Latency of the runs", 9.0)
    body(c, RIGHT, 330, 720, 5)
    pdf = tmp_path / "word-labels.pdf"
    pdf.write_bytes(_pdf([c]))
    _check(
        detect_figures(pdf),
        {
            "Figure 1": (first, "Weapons and Their Counts"),
            "Fig 2": (second, "Latency of the runs"),
        },
    )


def test_a_figure_over_both_columns_captioned_across_the_gutter(tmp_path: Path) -> None:
    c = Canvas()
    heads(c, 1)
    chart = bar_chart(c, 140, 62, 470, 238)
    c.color((0, 0, 0))
    caption = "Fig. 1. End-to-End Framework for the Runs"
    c.text((612 - 0.6 * 9.0 * len(caption)) / 2, 242 + 9.0, caption, 9.0)
    # the columns' text starts right under the caption, the left column's with a paragraph's
    # short last line that ends left of the caption
    c.color((0.1, 0.1, 0.1))
    c.text(LEFT[0], 262 + 10.0, "the runs of the cache", 10.0)
    body(c, LEFT, 262 + LEAD, 720, 1)
    body(c, RIGHT, 262, 720, 2)
    pdf = tmp_path / "word-wide.pdf"
    pdf.write_bytes(_pdf([c]))
    _check(detect_figures(pdf), {"Fig. 1": (chart, "End-to-End Framework for the Runs")})
