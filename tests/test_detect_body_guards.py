"""Degenerate table bodies (issue 20, figures/body_guards.py), each shape reproduced on a
generated page (every box known). Told in words from papers of templates the detector was
never tuned on, each came back as a sliver instead of the table:

1. A box 1–3 pt tall on the table's top rule: IEEE's "TABLE I" centred above a table of one
   column whose rows of body-size text fill the column (read as running text).
2. A box 3–5 pt wide standing in the column just under the caption: a table ruled down its
   middle only, the column rule taken alone. A column rule with nothing of a table around it
   is no body either: the caption is reported.
3. A 10 pt strip over the real body: a table of bordered cells whose first row is a shaded
   header strip, its rows of body-size text.

Each must come back as the table's real body (its rules, cells and borders), or as "caption
found, body not found" — never the sliver. And a float captioned in one column never reaches
over the other column's running text (an ACL 2013 table of one column found two columns wide):
:func:`~duizhao.figures.body_guards.over_gutter`.
"""

from __future__ import annotations

from pathlib import Path

from duizhao.figures.body_guards import over_gutter, thin
from duizhao.figures.caption_steps import page_captions
from duizhao.figures.detect import detect_document, detect_figures
from duizhao.figures.running import running_text
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
    heads,
    ruled_table,
    union,
)
from test_detect_classes import _check


def _filled_rows(c: Canvas, col: tuple[float, float], baseline: float, rows: int) -> list[Box]:
    """Rows of body-size text filling ``col`` from its left edge (as running text does)."""
    per = int((col[1] - col[0]) / (CHAR * BODY))
    c.color((0, 0, 0))
    out = []
    for r in range(rows):
        line = (f"R{r} the system shall keep every record of the run " * 3)[:per]
        out.append(c.text(col[0], baseline + r * LEAD, line, BODY))
    return out


def _page(tmp_path: Path, name: str, c: Canvas, below: float) -> Path:
    body(c, LEFT, below + 14, 720, 3)
    body(c, RIGHT, 72, 720, 5)
    pdf = tmp_path / f"{name}.pdf"
    pdf.write_bytes(_pdf([c]))
    return pdf


def test_a_one_column_ieee_table_is_not_its_top_rule(tmp_path: Path) -> None:
    """Shape 1: TABLE I alone on its line, centred, its text in smaller capitals under it,
    a top rule, rows filling the column, a bottom rule (before: a 2 pt box on the top rule)."""
    c = Canvas()
    heads(c, 1)
    y = body(c, LEFT, 72, 300, 1)
    mid = (LEFT[0] + LEFT[1]) / 2
    c.color((0, 0, 0))
    c.text(mid - 3.5 * CHAR * 8, y + 20, "TABLE I", 8)
    cap = c.text(mid - 12 * CHAR * 7, y + 30, "REQUIREMENTS OF THE RUNS", 7)
    top = cap[3] + 5
    parts = [c.rule(LEFT[0], LEFT[1], top)]
    parts += _filled_rows(c, LEFT, top + 4 + BODY, 5)
    parts.append(c.rule(LEFT[0], LEFT[1], parts[-1][3] + 3))
    table = union(parts)
    pdf = _page(tmp_path, "ieee-one-column", c, table[3])
    _check(detect_figures(pdf), {"TABLE I": (table, "REQUIREMENTS OF THE RUNS")})


def test_a_table_ruled_down_its_middle_is_not_its_column_rule(tmp_path: Path) -> None:
    """Shape 2: no horizontal rule, a column rule down the middle of rows that fill the
    column (before: a box 2 pt wide on that rule)."""
    c = Canvas()
    heads(c, 1)
    y = body(c, LEFT, 72, 300, 1)
    _cap, y = caption_lines(c, LEFT, y + 16, "Table 6:", "Requirements of the runs.")
    top = y + 6
    rows = _filled_rows(c, LEFT, top + 2 + BODY, 6)
    mid = (LEFT[0] + LEFT[1]) / 2
    rule = c.rect(mid - 0.2, top, mid + 0.2, rows[-1][3] + 3)
    table = union([*rows, rule])
    pdf = _page(tmp_path, "ruled-down", c, table[3])
    _check(detect_figures(pdf), {"Table 6": (table, "Requirements of the runs.")})


def test_a_column_rule_alone_beside_running_text_is_no_body(tmp_path: Path) -> None:
    """Shape 2's limit: a rule down the column under a caption, the running text going on
    past its end as it went: caption found, body not found (before: a 2 pt wide box)."""
    c = Canvas()
    heads(c, 1)
    y = body(c, LEFT, 72, 300, 1)
    _cap, y = caption_lines(c, LEFT, y + 16, "Table 7:", "Requirements of the runs.")
    mid = (LEFT[0] + LEFT[1]) / 2
    c.color((0, 0, 0))
    c.rect(mid - 0.2, y + 6, mid + 0.2, y + 50)
    body(c, LEFT, y + 6, 720, 3)
    body(c, RIGHT, 72, 720, 5)
    pdf = tmp_path / "rule-alone.pdf"
    pdf.write_bytes(_pdf([c]))
    found = detect_document(read_path(pdf))
    assert [f.label for f in found.figures] == []
    assert [u.message() for u in found.unboxed] == [
        "page 1: Table 7: caption found, body not found; box it by hand"
    ]


def test_a_bordered_table_is_not_its_header_strip(tmp_path: Path) -> None:
    """Shape 3: a top border, a shaded header strip 10 pt tall, rows of body-size text in
    bordered cells, a border under each (before: a 13 pt box over the strip)."""
    c = Canvas()
    heads(c, 1)
    y = body(c, LEFT, 72, 200, 1)
    _cap, y = caption_lines(c, LEFT, y + 16, "Table 8:", "Requirements and their tests.")
    x0, x1 = LEFT
    top = y + 6
    parts = [c.rect(x0, top, x1, top + 0.5)]
    c.color((0.85, 0.85, 0.85))
    parts.append(c.rect(x0, top + 0.5, x1, top + 10.5))
    c.color((0, 0, 0))
    parts.append(c.text(x0 + 3, top + 8.5, "REQUIREMENT", 7))
    edge = top + 10.5
    parts.append(c.rect(x0, edge, x1, edge + 0.5))
    for _row in range(4):
        rows = _filled_rows(c, LEFT, edge + 2 + BODY, 3)
        parts += rows
        edge = rows[-1][3] + 3
        parts.append(c.rect(x0, edge, x1, edge + 0.5))
    table = union(parts)
    pdf = _page(tmp_path, "header-strip", c, table[3])
    _check(detect_figures(pdf), {"Table 8": (table, "Requirements and their tests.")})


def test_a_box_under_a_line_and_a_half_either_way_is_thin(tmp_path: Path) -> None:
    """The guard's measure: IEEE's smallest table (a header and a row, 24 pt at a 12 pt
    leading) stands; a rule's 2 pt, a column rule's 3 pt and a 10 pt strip do not."""
    pdf = tmp_path / "blank.pdf"
    c = Canvas()
    heads(c, 1)
    body(c, LEFT, 72, 720, 3)
    body(c, RIGHT, 72, 720, 5)
    pdf.write_bytes(_pdf([c]))
    layout = analyse(read_path(pdf))
    assert layout.leading == LEAD
    assert not thin((100, 200, 222, 224), layout)
    for box in ((54, 300, 297, 302), (174, 300, 177, 400), (54, 300, 297, 310)):
        assert thin(box, layout), box


def test_a_float_captioned_in_one_column_keeps_off_the_others_running_text(
    tmp_path: Path,
) -> None:
    """A tall table in the left column captioned below, the right column all running text:
    a box over both columns is cut back to the left column; one over a page without running
    text beside it (a page-wide float) stands."""
    c = Canvas()
    heads(c, 1)
    table = ruled_table(c, LEFT[0] + 10, 80, 30, 4, 7)
    _cap, y = caption_lines(c, LEFT, table[3] + 10, "Table 9:", "Sizes of the corpora.")
    body(c, LEFT, y + 20, 720, 3)
    body(c, RIGHT, 72, 720, 5)
    pdf = tmp_path / "gutter.pdf"
    pdf.write_bytes(_pdf([c]))
    layout = analyse(read_path(pdf))
    (caption,) = (c for c in page_captions(running_text(layout), layout) if c.kind == "table")
    wide = (table[0], table[1] - 10, RIGHT[1], table[3] + 10)
    column = over_gutter(caption, wide, layout)
    assert column is not None and column[1] < RIGHT[0] and column[0] <= LEFT[0] + 1
    assert over_gutter(caption, table, layout) is None
    _check(detect_figures(pdf), {"Table 9": (table, "Sizes of the corpora.")})


def test_a_loosely_set_caption_broken_at_a_hyphen_goes_on(tmp_path: Path) -> None:
    """A table in the right column under its caption, the caption's lines 17.5 pt apart at
    10 pt (about 8 pt of white), the first ending in a hyphen (IEEE's 'TABLE IV: ... asso- /
    ciated ...' in ieeeconf-irace, 6.6 pt of white): the second line, filling the column, is
    the caption's, not running text that stops the table (before: caption found, body not
    found)."""
    c = Canvas()
    heads(c, 1)
    body(c, LEFT, 72, 720, 3)
    c.color((0, 0, 0))
    per = int((RIGHT[1] - RIGHT[0]) / (CHAR * BODY))
    first = "TABLE IV: Configuration space of the hy-"
    assert len(first) <= per
    c.text(RIGHT[0], 72 + BODY, first, BODY)
    c.text(RIGHT[0], 72 + BODY + 17.5, "perparameters of each of the algorithms.", BODY)
    table = ruled_table(c, RIGHT[0] + 10, 72 + BODY + 17.5 + 10, 12, 4, 7)
    body(c, RIGHT, table[3] + 16, 720, 5)
    pdf = tmp_path / "hyphen-caption.pdf"
    pdf.write_bytes(_pdf([c]))
    _check(
        detect_figures(pdf),
        {
            "TABLE IV": (
                table,
                "Configuration space of the hyperparameters of each of the algorithms.",
            )
        },
    )
