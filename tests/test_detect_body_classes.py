"""Body-geometry failure classes of the figure detector (issue 20), found on held-out sets and
told in words only (their pages are never opened here), each reproduced on a real paper of the
tuned corpus (tests/data/pdfcorpus, sources in its SOURCES.md) and fixed as a class:

1. A page-wide table whose caption, above it, is short and set in one column's width, its top
   rule a little more than a leading under the caption (IEEE Access): the table's own rule
   across the text width says it spans the page, not the caption's column.
"""

from __future__ import annotations

from bench import pdfcorpus

from duizhao.figures.detect import detect_figures

#: the IoU at which the corpus is scored (bench.pdfcorpus)
IOU = 0.8


def _paper(slug: str) -> pdfcorpus.Paper:
    return next(p for p in pdfcorpus.load() if p.slug == slug)


def _holds(slug: str, printed: str) -> None:
    """The float ``printed`` of corpus paper ``slug`` is found on its page at IoU ≥ 0.8."""
    paper = _paper(slug)
    label = next(lb for lb in paper.labels if lb.printed == printed)
    found = [f for f in detect_figures(paper.pdf) if f.page == label.page and f.label == printed]
    assert found, (printed, "not found")
    assert pdfcorpus.iou(found[0].box, label.box) >= IOU, (printed, found[0].box, label.box)


def test_a_page_wide_table_under_a_caption_of_one_columns_width() -> None:
    _holds("ieeeaccess-colonsegnet", "TABLE 1")
