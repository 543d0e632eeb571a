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


def _turned_clockwise(src: Path, out: Path) -> tuple[float, float]:
    """The sidewaystable's page turned half round (its table then reads top to bottom, as a
    sidewaystable turned clockwise does), with an upright page number; its size."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(src)
    page = doc[1]
    w, h = page.get_size()
    raw.FPDFPage_TransFormWithClip(page.raw, ctypes.byref(raw.FS_MATRIX(-1, 0, 0, -1, w, h)), None)
    number = raw.FPDFPageObj_NewTextObj(doc.raw, b"Helvetica", 10.0)
    text = ctypes.create_string_buffer("5".encode("utf-16-le") + b"\x00\x00")
    raw.FPDFText_SetText(number, ctypes.cast(text, ctypes.POINTER(raw.FPDF_WCHAR)))
    raw.FPDFPageObj_Transform(number, 1, 0, 0, 1, w / 2, 40)
    raw.FPDFPage_InsertObject(page.raw, number)
    raw.FPDFPage_GenerateContent(page.raw)
    new = pdfium.PdfDocument.new()
    new.import_pages(doc, [1])
    new.save(out)
    return w, h


def test_a_table_turned_clockwise_is_found_too(tmp_path: Path) -> None:
    pdf = tmp_path / "clockwise.pdf"
    w, h = _turned_clockwise(CORPUS / "snjnl-template.pdf", pdf)
    found = detect_figures(pdf)
    assert [(d.kind, d.label) for d in found] == [("table", "Table 3")]
    x0, y0, x1, y1 = 236.9, 73.7, 347.3, 624.5  # the counter-clockwise label, turned
    assert _iou(found[0].box, (w - x1, h - y1, w - x0, h - y0)) >= 0.9
    assert found[0].caption_box[0] >= found[0].box[2]
