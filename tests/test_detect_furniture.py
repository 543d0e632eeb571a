"""Page furniture never joins a float (issue 20), reproduced on generated pages (every box
known). Told in words from a one-column journal the detector was never tuned on: a bare page
number alone at the top right of every page, one leading over the text, a table at the top of
a page right under it, captioned below. Growing up from its caption, the table took the page
number into its body (a box reaching over to the right margin). The page numbers stand at one
height on every page, rising from page to page (the paper was cut to some of its pages, so
they skip): :func:`duizhao.pdf.furniture.folios` marks them as furniture.

The converse: a table's header row is no running head, though it recurs at one height on two
pages (two results tables with one header, each at a page's top); set between two rules it
is a row (:func:`duizhao.pdf.furniture.between_rules`).

And a float's graphic drawn up under a running head (an image white at its top) takes none of
the head's ink: :func:`duizhao.figures.body_guards.clear_of_furniture`.
"""

from __future__ import annotations

from pathlib import Path

from duizhao.figures.detect import detect_figures
from duizhao.pdf.furniture import folios
from duizhao.pdf.page_layout import analyse
from duizhao.pdf.read import read_path
from paper_sources import (
    BODY,
    CHAR,
    LEAD,
    LEFT,
    RIGHT,
    Box,
    Canvas,
    _pdf,
    body,
    caption_lines,
    union,
)
from test_detect_classes import _check

TEXT = (72.0, 540.0)


def _folio(c: Canvas, number: int) -> None:
    """The page number at the top right, set at the body size, alone on its line."""
    c.color((0, 0, 0))
    label = str(number)
    c.text(TEXT[1] - 6 * len(label), 70, label, BODY)


def _losses(c: Canvas, x0: float, top: float) -> tuple[float, float, float, float]:
    """A ruled table of two columns, its rows at the body size, a rule over its last row."""
    rows = [
        "Copper Loss   510 kW",
        "Core Loss       7 kW",
        "Cryocoolers    24 kW",
        "Efficiency   94.5 %",
    ]
    width = len(rows[0]) * 6.0
    parts = [c.rule(x0, x0 + width, top)]
    c.color((0, 0, 0))
    baseline = top + 3 + BODY
    for k, row in enumerate(rows):
        if k == len(rows) - 1:
            parts.append(c.rule(x0, x0 + width, baseline - BODY))
            baseline += 3
        parts.append(c.text(x0, baseline, row, BODY))
        baseline += LEAD + 1
    parts.append(c.rule(x0, x0 + width, baseline - BODY + 1))
    return union(parts)


def _paper(tmp_path: Path) -> tuple[Path, dict[str, tuple[tuple[float, ...], str]]]:
    pages = []
    truths = {}
    for number in (3, 8, 11):
        c = Canvas()
        _folio(c, number)
        if number == 8:
            table = _losses(c, 200, 80)
            caption = (
                "Main losses and efficiency estimation for the 10 MW, 10 rpm direct-drive "
                "generator with its cryocoolers and air blowers."
            )
            _, below = caption_lines(c, TEXT, table[3] + 10, "Table 4:", caption)
            truths["Table 4"] = (table, caption)
            body(c, TEXT, below + LEAD, 720)
        else:
            body(c, TEXT, 80, 720, number)
        pages.append(c)
    pdf = tmp_path / "folios.pdf"
    pdf.write_bytes(_pdf(pages))
    return pdf, truths


def test_page_numbers_rising_at_one_height_are_folios(tmp_path: Path) -> None:
    pdf, _ = _paper(tmp_path)
    doc = read_path(pdf)
    try:
        layout = analyse(doc)
    finally:
        doc.close()
    tops = [min(p.lines, key=lambda ln: ln.y0) for p in layout.pages]
    assert [(ln.text, ln.role) for ln in tops] == [
        ("3", "running"),
        ("8", "running"),
        ("11", "running"),
    ]


def test_a_page_top_table_never_takes_the_page_number(tmp_path: Path) -> None:
    pdf, truths = _paper(tmp_path)
    _check(detect_figures(pdf), truths)


def test_numbers_that_do_not_rise_are_no_folios(tmp_path: Path) -> None:
    """The same number at one height on every page (a chart's tick label, a repeated value)
    reads as no page number."""
    pages = []
    for _ in range(3):
        c = Canvas()
        _folio(c, 7)
        body(c, TEXT, 80, 720)
        pages.append(c)
    pdf = tmp_path / "same.pdf"
    pdf.write_bytes(_pdf(pages))
    doc = read_path(pdf)
    try:
        layout = analyse(doc)
    finally:
        doc.close()
    tops = [min(p.lines, key=lambda ln: ln.y0) for p in layout.pages]
    assert [ln.role for ln in tops] == ["text"] * 3
    assert folios(layout) == []


def _results(c: Canvas, x0: float, top: float, rows: int) -> tuple[float, float, float, float]:
    """A booktabs table of results: its header row between the top and the middle rule."""
    c.color((0, 0, 0))
    width = 30 * CHAR * 9
    parts = [c.rule(x0, x0 + width, top)]
    parts.append(c.text(x0 + 4, top + 3 + 7, "Methods  BLEU%  B1%  B2%", 9))
    baseline = top + 15
    parts.append(c.rule(x0, x0 + width, baseline))
    for r in range(rows):
        baseline += 11
        parts.append(c.text(x0 + 4, baseline, f"Model-{r}   2.{r}0  27.{r}  10.{r}", 9))
    parts.append(c.rule(x0, x0 + width, baseline + 4))
    return union(parts)


def test_a_header_row_recurring_at_page_tops_is_no_running_head(tmp_path: Path) -> None:
    """Told in words from a two-column conference paper: two results tables with one header
    row, each at the top of its page, captioned below. The header rows recur at one height
    on two pages, so the layout pass read them as running heads and both tables lost their
    header row (a box from the middle rule down). Set between its rules, a line is a table's
    row (:func:`duizhao.pdf.furniture.between_rules`), no running head."""
    pages = []
    truths = {}
    for n in (1, 2):
        c = Canvas()
        table = _results(c, LEFT[0] + 20, 58, 3 + n)
        caption = f"Comparison results on task {n} of the story completion benchmark."
        _, below = caption_lines(c, LEFT, table[3] + 8, f"Table {n}:", caption)
        truths[f"Table {n}"] = (table, caption)
        body(c, LEFT, below + LEAD, 720, n)
        body(c, RIGHT, 72, 720, n + 3)
        pages.append(c)
    pdf = tmp_path / "headers.pdf"
    pdf.write_bytes(_pdf(pages))
    doc = read_path(pdf)
    try:
        layout = analyse(doc)
    finally:
        doc.close()
    headers = [ln for p in layout.pages for ln in p.lines if ln.text.startswith("Methods")]
    assert [ln.role for ln in headers] == ["text", "text"]
    _check(detect_figures(pdf), truths)


def _image_white_top(c: Canvas, box: Box, white_rows: int) -> None:
    """An image whose top ``white_rows`` of 32 rows are white (a plot saved with a margin)."""
    pixels = bytearray()
    for j in range(32):
        for i in range(48):
            pixels += bytes((255, 255, 255) if j < white_rows else ((i * 5) % 256, j * 7, 90))
    c.images.append(pixels)
    x0, y0, x1, y1 = box
    name = f"Im{len(c.images)}"
    c.ops.append(f"q {x1 - x0:.2f} 0 0 {y1 - y0:.2f} {x0:.2f} {792 - y1:.2f} cm /{name} Do Q")


def test_a_figure_drawn_under_the_running_head_takes_none_of_its_ink(tmp_path: Path) -> None:
    """Told in words from a Springer Nature preprint: a page-top figure whose image, white at
    its top, reaches up under the running head; trimmed to its ink, the box took the head's
    glyphs (a box from the page's edge). The box is cut clear of running lines first
    (:func:`duizhao.figures.body_guards.clear_of_furniture`)."""
    pages = []
    truths = {}
    for n in (1, 2):
        c = Canvas()
        drawn = (LEFT[0], 30.0, LEFT[1], 158.0)
        if n == 2:
            _image_white_top(c, drawn, 8)
        # the running head, drawn over the image (black, at the body size)
        c.color((0, 0, 0))
        c.text(LEFT[0] + 20, 40, "Springer Nature 2021 LaTeX template", BODY)
        if n == 2:
            caption = "The delays learnt for motion detection in a single layer."
            _, below = caption_lines(c, LEFT, drawn[3] + 8, "Figure 1:", caption)
            truths["Figure 1"] = ((LEFT[0], 62.0, LEFT[1], 158.0), caption)
            body(c, LEFT, below + LEAD, 720, n)
        else:
            body(c, LEFT, 72, 720, n)
        body(c, RIGHT, 72, 720, n + 3)
        pages.append(c)
    pdf = tmp_path / "under-head.pdf"
    pdf.write_bytes(_pdf(pages))
    _check(detect_figures(pdf), truths)
