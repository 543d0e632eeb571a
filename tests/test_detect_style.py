"""Caption grammar and choice on generated pages. A paper sets its captions' labels one
way ("Figure 1:", "Table 2:" in ACL's and AAAI's styles, "Fig. 3:" in a restyled IEEEtran
paper); a label that opens a line with another delimiter while a caption of the same float
is set the paper's way is a reference: a sentence that ends "... as in / Figure 1." in
running text, or a line of another caption opening "Fig. 3." (a caption that refers to the
next figure). It starts no caption, and the caption it stands in goes on through it. And
Word sets a caption's label without a delimiter, centred ("Table 1 Comparison of the
models").

No real paper with these shapes was found in the papers fetched for them (about fifty: ACL,
AAAI, IEEE and Word exports; tests/test_detect_real.py holds the real ones found for other
classes), so the pages are generated, every box known.
"""

from __future__ import annotations

from pathlib import Path

from duizhao.figures.detect import detect_figures
from paper_sources import (
    BODY,
    CHAR,
    LEAD,
    LEFT,
    RIGHT,
    WORDS,
    Box,
    Canvas,
    _pdf,
    bar_chart,
    body,
    caption_lines,
    heads,
    ruled_table,
)


def _iou(a: Box, b: Box) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def _lines(c: Canvas, col: tuple[float, float], baseline: float, text: str) -> list[Box]:
    """``text`` at the body size in lines filling ``col`` (Courier: exact widths), as ACL
    sets its captions and its running text alike."""
    per_line = int((col[1] - col[0]) / (CHAR * BODY))
    c.color((0, 0, 0))
    lines = [text[k : k + per_line] for k in range(0, len(text), per_line)]
    return [c.text(col[0], baseline + k * LEAD, ln, BODY) for k, ln in enumerate(lines)]


def test_a_sentence_ending_on_the_label_in_running_text_is_no_caption(tmp_path: Path) -> None:
    """ACL: running text in the left column goes on under a table, flush with the column's
    edge (a paragraph the table interrupted), its line opening "Figure 1. The ..." (the
    sentence before ended "... as in"); the real caption, "Figure 1:", stands in the right
    column three leadings under its plot (white space under the drawing), set like running
    text."""
    c = Canvas()
    heads(c, 1)
    y = body(c, LEFT, 72, 180, 2)
    _cap, ty = caption_lines(c, LEFT, y + 12, "Table 1:", "The data sets.", BODY)
    table = ruled_table(c, LEFT[0] + 20, ty + 6, 4, 3, 8)
    text = _lines(c, LEFT, table[3] + 14 + BODY, "Figure 1. The " + " ".join(WORDS[4:60]))
    body(c, LEFT, text[-1][3] + 2, 720, 5)
    chart = bar_chart(c, RIGHT[0] + 30, 72, RIGHT[1] - 30, 200)
    caption = _lines(c, RIGHT, 200 + 3 * LEAD + BODY, "Figure 1: " + " ".join(WORDS[9:30]))
    body(c, RIGHT, caption[-1][3] + 14, 720, 3)
    pdf = tmp_path / "acl.pdf"
    pdf.write_bytes(_pdf([c]))
    found = {f.label: f for f in detect_figures(pdf)}
    assert sorted(found) == ["Figure 1", "Table 1"], found
    figure = found["Figure 1"]
    assert figure.caption_box[0] >= RIGHT[0] - 1, figure
    assert _iou(figure.box, chart) >= 0.9, (figure.box, chart)
    assert _iou(found["Table 1"].box, table) >= 0.9, (found["Table 1"].box, table)


def test_a_caption_line_opening_with_the_next_figures_label_goes_on(tmp_path: Path) -> None:
    """IEEEtran restyled "Fig. N:": two figures stacked in one column, each captioned under
    its chart; a line of Fig. 2's caption opens "Fig. 3." (it refers to the next figure),
    and Fig. 3's own caption stands under Fig. 3's chart."""
    c = Canvas()
    heads(c, 1)
    chart2 = bar_chart(c, LEFT[0] + 30, 72, LEFT[1] - 30, 190)
    size = 8.0
    per_line = int((LEFT[1] - LEFT[0]) / (CHAR * size))
    lines = ["Fig. 2: Throughput of the stages over runs, as", "Fig. 3. shows for larger inputs."]
    assert all(len(ln) <= per_line for ln in lines)
    c.color((0, 0, 0))
    cap2 = [c.text(LEFT[0], 200 + size + k * size * 1.2, ln, size) for k, ln in enumerate(lines)]
    chart3 = bar_chart(c, LEFT[0] + 30, cap2[-1][3] + 16, LEFT[1] - 30, cap2[-1][3] + 130)
    _box, y = caption_lines(c, LEFT, chart3[3] + 8, "Fig. 3:", "Latency of the stages.", size)
    _box, y4 = caption_lines(c, RIGHT, 400, "Fig. 4:", "The data sets.", size)
    body(c, LEFT, y + 14, 720, 2)
    body(c, RIGHT, 72, 380, 4)
    body(c, RIGHT, y4 + 14, 720, 6)
    pdf = tmp_path / "ieee.pdf"
    pdf.write_bytes(_pdf([c]))
    found = {f.label: f for f in detect_figures(pdf)}
    assert {"Fig. 2", "Fig. 3"} <= set(found), found
    assert found["Fig. 2"].caption == (
        "Throughput of the stages over runs, as Fig. 3. shows for larger inputs."
    ), found["Fig. 2"]
    assert found["Fig. 3"].caption == "Latency of the stages.", found["Fig. 3"]
    assert _iou(found["Fig. 2"].box, chart2) >= 0.9, (found["Fig. 2"].box, chart2)
    assert _iou(found["Fig. 3"].box, chart3) >= 0.9, (found["Fig. 3"].box, chart3)


def test_a_centred_label_without_a_delimiter_starts_a_caption(tmp_path: Path) -> None:
    """Word: "Table 1 Comparison of the models", no delimiter, set centred in its column
    over a raster picture of the table; running text that opens "Table 2 Results ..."
    flush with the column is a paragraph, not a caption."""
    c = Canvas()
    heads(c, 1)
    y = body(c, LEFT, 72, 200, 2)
    title = "Table 1 Comparison of the models"
    width = CHAR * BODY * len(title)
    c.color((0, 0, 0))
    cap = c.text((LEFT[0] + LEFT[1] - width) / 2, y + 14 + BODY, title, BODY)
    picture = c.image(LEFT[0] + 20, cap[3] + 6, LEFT[1] - 20, cap[3] + 120, 3)
    _lines(c, LEFT, picture[3] + 14 + BODY, "Table 2 Results " + " ".join(WORDS[5:40]))
    body(c, LEFT, picture[3] + 14 + 4 * LEAD, 720, 4)
    body(c, RIGHT, 72, 720, 6)
    pdf = tmp_path / "word.pdf"
    pdf.write_bytes(_pdf([c]))
    found = detect_figures(pdf)
    assert [(f.label, f.caption) for f in found] == [("Table 1", "Comparison of the models")]
    assert _iou(found[0].box, picture) >= 0.9, (found[0].box, picture)
