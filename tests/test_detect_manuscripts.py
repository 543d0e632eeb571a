"""Manuscript classes of the figure detector, each reproduced on a generated page (every box
known): a sixth unseen set's misses, described in words only (its pages are never opened
here), fixed as classes in the engine.

1. An office export (LibreOffice, Word) of a double-spaced, single-column manuscript: a
   page-tall table, every cell boxed by its own frame of four thin rectangles, a bold first
   column and rows of several lines, captioned above by a 'Table N:' caption of one to three
   double-spaced lines. Its whole grid is the table, not a strip under the caption's first
   line (the caption's later lines stand a double-spaced line apart, and the page's table
   rows, merged into lines, must not set the leading).
2. A PLOS-style submission (a wide left margin, line numbers in the right margin, figures in
   the text column): the figure's box stops at the text column, never takes the running
   head's logo over the left margin, empty margin or the line numbers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from duizhao.figures.detect import detect_figures
from paper_sources import (
    BODY,
    CHAR,
    LEAD,
    WORDS,
    Box,
    Canvas,
    _pdf,
    bar_chart,
    caption_lines,
    heads,
    union,
)
from test_detect_classes import _check

#: a single-column manuscript's text column, and its double-spaced leading
COLUMN = (72.0, 540.0)
DOUBLE = 24.0
CAPTION = (
    "Table 1: Characteristics of the included studies and their main outcomes, by the",
    "country of origin, the design, the sample size and the follow-up in months of",
    "each study.",
)


def _double_spaced(c: Canvas, top: float, bottom: float, seed: int = 0) -> float:
    """Running text filling the column, ``DOUBLE`` pt from baseline to baseline."""
    per_line = int((COLUMN[1] - COLUMN[0]) / (CHAR * BODY))
    baseline, n = top + BODY, seed
    c.color((0.1, 0.1, 0.1))
    while baseline + 0.22 * BODY <= bottom:
        words: list[str] = []
        while len(" ".join(words)) < per_line:
            words.append(WORDS[n % len(WORDS)])
            n += 1
        c.text(COLUMN[0], baseline, " ".join(words)[:per_line], BODY)
        baseline += DOUBLE
    return baseline - BODY


def _boxed_table(c: Canvas, top: float, rows: int, cols: int) -> Box:
    """Every cell framed by four thin rectangles of its own; a bold header row and first
    column; body rows of three single-spaced lines."""
    size, x0 = BODY, COLUMN[0]
    width = (COLUMN[1] - COLUMN[0]) / cols
    parts: list[Box] = []
    y = top
    c.color((0, 0, 0))
    for r in range(rows):
        lines = 3 if r else 1
        height = lines * size * 1.2 + 6
        for k in range(cols):
            x = x0 + k * width
            for frame in (
                (x, y, x + width, y + 0.5),
                (x, y + height - 0.5, x + width, y + height),
                (x, y, x + 0.5, y + height),
                (x + width - 0.5, y, x + width, y + height),
            ):
                parts.append(c.rect(*frame))
            font = "F2" if k == 0 or r == 0 else "F1"
            text = f"row {r} item" if k == 0 else f"cell {r}.{k} wrapped"
            for line in range(lines):
                parts.append(c.text(x + 4, y + 3 + size + line * size * 1.2, text, size, font))
        y += height
    return union(parts)


@pytest.mark.parametrize("lines", [1, 2, 3])
def test_an_office_table_of_a_double_spaced_manuscript(tmp_path: Path, lines: int) -> None:
    """Class 1: the caption's lines one double-spaced line apart, the boxed grid under it:
    the whole grid is the table's."""
    c = Canvas()
    heads(c, 1)
    y = _double_spaced(c, 72, 110)
    c.color((0, 0, 0))
    caption = [
        c.text(COLUMN[0], y + DOUBLE + BODY + k * DOUBLE, text, BODY)
        for k, text in enumerate(CAPTION[:lines])
    ]
    table = _boxed_table(c, union(caption)[3] + 14, 12, 4)
    _double_spaced(c, table[3] + DOUBLE, 740, 3)
    pdf = tmp_path / "office.pdf"
    pdf.write_bytes(_pdf([c]))
    text = " ".join(CAPTION[:lines]).removeprefix("Table 1: ")
    _check(detect_figures(pdf), {"Table 1": (table, text)})


# --------------------------------------------------------------------------------------------
# 2. A PLOS-style submission: a wide left margin, the text column right of it, line numbers in
#    the right margin, a logo in the running head over the left margin and a footer rule
#    across the page, a figure in the text column captioned below it (its caption set out
#    into the left margin, as PLOS's template sets captions). The figure is the text
#    column's drawing alone: no logo, no empty margin, no line numbers.

PLOS_COLUMN = (217.0, 557.0)


def _numbered(c: Canvas, top: float, bottom: float, seed: int, first: int) -> tuple[float, int]:
    """Running text in the PLOS column, each line numbered in the right margin; returns the
    last line's bottom and the next number."""
    per_line = int((PLOS_COLUMN[1] - PLOS_COLUMN[0]) / (CHAR * BODY))
    baseline, n, number = top + BODY, seed, first
    while baseline + 0.22 * BODY <= bottom:
        words: list[str] = []
        while len(" ".join(words)) < per_line:
            words.append(WORDS[n % len(WORDS)])
            n += 1
        c.color((0.1, 0.1, 0.1))
        c.text(PLOS_COLUMN[0], baseline, " ".join(words)[:per_line], BODY)
        c.color((0.3, 0.3, 0.3))
        c.text(564, baseline, str(number), 7)
        number += 1
        baseline += LEAD
    return baseline - BODY, number


def _furniture(c: Canvas, page: int) -> None:
    """The template's logo over the left margin, its footer rule and folio."""
    c.image(36, 28, 180, 52, 9)
    c.color((0, 0, 0))
    c.rect(36, 748, 576, 750)
    c.text(556.8, 760, f"{page}/12", 8)


@pytest.mark.parametrize("drawing", ["image", "chart"])
def test_a_plos_figure_stops_at_its_text_column(tmp_path: Path, drawing: str) -> None:
    """Class 2: the figure at the top of its page, right under the running head's logo."""
    first = Canvas()
    _furniture(first, 1)
    _y, number = _numbered(first, 72, 740, 5, 1)
    c = Canvas()
    _furniture(c, 2)
    x0, x1 = PLOS_COLUMN
    figure = c.image(x0, 74, x1, 280, 2) if drawing == "image" else bar_chart(c, x0, 74, x1, 280)
    text = "Throughput of the systems under load, by batch size and by model. " * 2
    _cap, bottom = caption_lines(c, (36.0, x1), figure[3] + 10, "Fig 1.", text.strip())
    _numbered(c, bottom + 14, 740, 3, number)
    pdf = tmp_path / "plos.pdf"
    pdf.write_bytes(_pdf([first, c]))
    _check(detect_figures(pdf), {"Fig 1": (figure, text.strip())})
