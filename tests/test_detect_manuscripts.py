"""Manuscript classes of the figure detector, each reproduced on a generated page (every box
known): a sixth unseen set's misses, described in words only (its pages are never opened
here), fixed as classes in the engine.

1. An office export (LibreOffice, Word) of a double-spaced, single-column manuscript: a
   page-tall table, every cell boxed by its own frame of four thin rectangles, a bold first
   column and rows of several lines, captioned above by a 'Table N:' caption of one to three
   double-spaced lines. Its whole grid is the table, not a strip under the caption's first
   line (the caption's later lines stand a double-spaced line apart, and the page's table
   rows, merged into lines, must not set the leading).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from duizhao.figures.detect import detect_figures
from paper_sources import BODY, CHAR, WORDS, Box, Canvas, _pdf, heads, union
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
