"""Rotated tables (figures/rotated.py): a sidewaystable, its caption, cells and notes turned a
quarter counter-clockwise on an upright page, as the Springer Nature template sets it
(tests/data/pdfcorpus/snjnl-template.pdf, labelled by its ink)."""

from __future__ import annotations

from pathlib import Path

from duizhao.figures.detect import detect_figures
from duizhao.pdf.geometry import Box

CORPUS = Path(__file__).parent / "data" / "pdfcorpus"


def _iou(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    inter = max(w, 0.0) * max(h, 0.0)
    area = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / area


def test_a_sidewaystable_is_found_with_its_turned_caption() -> None:
    found = detect_figures(CORPUS / "snjnl-template.pdf")
    turned = [d for d in found if d.page == 2]
    assert [(d.kind, d.label) for d in turned] == [("table", "Table 3")]
    table = turned[0]
    assert table.caption.startswith("Tables which are too long to fit")
    assert _iou(table.box, (236.9, 73.7, 347.3, 624.5)) >= 0.9
    # the turned caption stands left of the body, outside it
    assert table.caption_box[2] <= table.box[0]


def test_the_upright_table_on_a_page_before_is_unchanged() -> None:
    found = detect_figures(CORPUS / "snjnl-template.pdf")
    assert [(d.page, d.label) for d in found] == [(1, "Table 1"), (2, "Table 3")]
    assert _iou(found[0].box, (194.9, 177.6, 376.1, 298.8)) >= 0.9
