"""Floats side by side in a one-column page, and their captions' line joins (issue 20),
each class reproduced on a generated page (every box known), described in words from an
unseen set and never tuned on its pages:

1. Two charts side by side, each with its own caption under it (minipages): two floats,
   and each caption's words broken at its line ends joined as its own ("Sum-" + "mary" is
   "Summary": the halves of a word broken in the caption beside are no words of the paper),
   a compound the paper prints with its hyphen ("few-" + "shot") or whose second half starts
   upper-case ("GPU-" + "NPU") keeping it, and a line break standing for a space.
2. Minipages centred on each other, their captions at different heights: a tall chart's
   caption under a short one's, a table's caption above its cells beside a figure's under
   its chart. Apart across the page with no running text between, they are one row of
   floats, parted at the white gap between them (not one float across the text width).
3. A narrow figure centred in a wide one-column page a few points under the running head's
   full-width rule (Frontiers): the rule is page furniture, no part of the figure.
4. Words glued inside a caption's line: a line with inline maths read as a letter-spaced
   listing (seen on papers-we-love's Spartan, Pastry and Tiered Replication papers).
"""

from __future__ import annotations

from pathlib import Path

from duizhao.figures.detect import detect_figures
from duizhao.pdf.geometry import union
from duizhao.pdf.hyphens import Joiner, unbroken_rows
from duizhao.pdf.read import Char, FontStyle
from duizhao.pdf.text import make_line
from paper_sources import BODY, LEAD, Box, Canvas, _pdf, bar_chart, body, heads, ruled_table
from test_detect_classes import _check

#: A one-column page's text width.
WIDE = (54.0, 558.0)
SIZE = 9.0


def _lines(c: Canvas, x: float, top: float, lines: list[str]) -> float:
    """A caption's lines as typeset (broken where the test says), from ``x``; its bottom."""
    c.color((0, 0, 0))
    baseline = top + SIZE
    for line in lines:
        c.text(x, baseline, line, SIZE)
        baseline += SIZE * 1.2
    return baseline - SIZE


def test_captions_side_by_side_join_their_own_broken_words(tmp_path: Path) -> None:
    c = Canvas()
    heads(c, 1)
    end = body(c, WIDE, 72, 140, 1)
    c.color((0.1, 0.1, 0.1))
    c.text(WIDE[0], end + 12 + BODY, "a few-shot setting on GPU-NPU links reads the cache", BODY)
    charts = [bar_chart(c, 60, 180, 290, 300), bar_chart(c, 320, 180, 550, 300)]
    bottom = max(
        _lines(c, 60, 308, ["Figure 1: A sum-", "mary of the runs, of", "every load."]),
        _lines(c, 320, 308, ["Figure 2: Latency of", "few-shot runs on GPU-", "NPU links."]),
    )
    body(c, WIDE, bottom + 2 * LEAD, 720, 3)
    pdf = tmp_path / "minipages.pdf"
    pdf.write_bytes(_pdf([c]))
    _check(
        detect_figures(pdf),
        {
            "Figure 1": (charts[0], "A summary of the runs, of every load."),
            "Figure 2": (charts[1], "Latency of few-shot runs on GPU-NPU links."),
        },
    )


def test_minipages_of_two_heights_part_at_their_gap(tmp_path: Path) -> None:
    c = Canvas()
    heads(c, 1)
    body(c, WIDE, 72, 140, 1)
    tall = bar_chart(c, 60, 150, 290, 350)
    _lines(c, 60, 358, ["Figure 1: Load of the cache over time", "for each of the runs."])
    short = bar_chart(c, 320, 210, 550, 300)
    _lines(c, 320, 308, ["Figure 2: Latency of the runs for each", "of the loads."])
    body(c, WIDE, 400, 720, 3)
    pdf = tmp_path / "heights.pdf"
    pdf.write_bytes(_pdf([c]))
    _check(
        detect_figures(pdf),
        {
            "Figure 1": (tall, "Load of the cache over time for each of the runs."),
            "Figure 2": (short, "Latency of the runs for each of the loads."),
        },
    )


def test_a_figure_beside_a_table_captioned_above_its_cells(tmp_path: Path) -> None:
    c = Canvas()
    heads(c, 1)
    body(c, WIDE, 72, 140, 1)
    chart = bar_chart(c, 60, 170, 290, 330)
    _lines(c, 60, 338, ["Figure 1: Load of the cache over time", "for each of the runs."])
    _lines(c, 320, 200, ["Table 1: Latency of the runs for each", "of the loads."])
    table = ruled_table(c, 320, 226, 5, 4, 8)
    body(c, WIDE, 380, 720, 3)
    pdf = tmp_path / "figure-table.pdf"
    pdf.write_bytes(_pdf([c]))
    _check(
        detect_figures(pdf),
        {
            "Figure 1": (chart, "Load of the cache over time for each of the runs."),
            "Table 1": (table, "Latency of the runs for each of the loads."),
        },
    )


def test_a_narrow_figure_under_the_running_heads_rule(tmp_path: Path) -> None:
    pages = []
    truths: dict[str, tuple[Box, str]] = {}
    for number in (1, 2):
        c = Canvas()
        heads(c, number)
        c.rule(WIDE[0], WIDE[1], 50, 0.5)  # the head's rule, 6 pt under it
        chart = bar_chart(c, 200, 58, 412, 200)
        _lines(c, WIDE[0], 214, [f"Figure {number}: Load of the cache over time."])
        truths[f"Figure {number}"] = (chart, "Load of the cache over time.")
        body(c, WIDE, 240, 720, number)
        pages.append(c)
    pdf = tmp_path / "headrule.pdf"
    pdf.write_bytes(_pdf(pages))
    _check(detect_figures(pdf), truths)


def test_halves_of_words_broken_beside_another_caption_are_no_words() -> None:
    """Rows of two captions side by side: the halves of "sum-mary" (and the first word of
    a line broken at its end) are left out of the paper's words; the rest is kept."""
    rows = [
        [(60.0, 140.0, "Figure 1: A sum-"), (320.0, 420.0, "Figure 2: The com-")],
        [(60.0, 150.0, "mary of runs"), (320.0, 410.0, "pute share")],
        [(60.0, 300.0, "running text broken at its end by hyphen-")],
        [(60.0, 300.0, "ation and going on")],
    ]
    words = " ".join(unbroken_rows(rows)).split()
    assert "sum" not in words and "mary" not in words and "pute" not in words
    assert "com" not in words and "hyphen" not in words and "ation" not in words
    assert {"Figure", "A", "of", "runs", "The", "share", "going"} <= set(words)
    joiner = Joiner.of_rows(rows)
    assert joiner.join(["A sum-", "mary of runs"]) == "A summary of runs"


def test_a_hyphen_at_a_line_end_both_ways() -> None:
    """Joined where the halves make a word (or are syllables: no words of the paper); kept
    where both halves are words of the paper, where it prints the compound, or where the
    second half starts upper-case; a line break without a hyphen stands for a space."""
    joiner = Joiner(whole={"summary", "few", "shot", "goal", "oriented"}, compounds=set())
    assert joiner.join(["a sum-", "mary"]) == "a summary"
    assert joiner.join(["of few-", "shot runs"]) == "of few-shot runs"
    assert joiner.join(["goal-", "oriented"]) == "goal-oriented"
    assert joiner.join(["on GPU-", "NPU links"]) == "on GPU-NPU links"
    assert joiner.join(["the cus-", "tomer"]) == "the customer"
    assert joiner.join(["runs of", "few-shot"]) == "runs of few-shot"


def _glyphs(words: list[tuple[str, int]], gap: float, size: float = 9.0) -> list[Char]:
    """Glyphs of ``words`` (text, font), half an em wide, ``gap`` em between words."""
    out, x = [], 100.0
    for text, font in words:
        for ch in text:
            out.append(Char(ch, x, 100.0, x + 0.5 * size, 100.0 + size, size, font))
            x += 0.5 * size
        x += gap * size
    return out


def test_a_caption_line_with_inline_maths_keeps_its_word_spaces() -> None:
    """'graph for Z = X + Y − X · Y.' (a caption's last line): as many letters and signs
    stand apart as in a letter-spaced listing, but in the maths fonts beside the text's;
    read as a listing its word spaces went ('graphforZ=X+Y-X·Y.'). A listing set in one
    font, its letters apart, stays one."""
    fonts = [FontStyle("NimbusRomNo9L-Regu"), FontStyle("CMMI9", italic=True), FontStyle("CMR9")]
    maths = [("graph", 0), ("for", 0), ("Z", 1), ("=", 2), ("X", 1), ("+", 2), ("Y", 1)]
    line = make_line(1, _glyphs(maths, 0.25), fonts)
    assert not line.code and line.text == "graph for Z = X + Y"
    listing = make_line(1, _glyphs([(ch, 0) for ch in "m:=pre.Rand"], 0.25), fonts)
    assert listing.code


def test_a_row_of_small_figures_over_a_page_wide_one(tmp_path: Path) -> None:
    """Three small figures in a row, each captioned below, over a page-wide figure of two
    charts captioned under both: the white between the charts of the wide one lies under the
    gap between two captions, yet the first small caption (its own chart right over it, the
    wide figure under it) and the wide caption are one column of stacked floats, not two
    floats side by side (USENIX ATC '17's CherryPick, page 4)."""
    c = Canvas()
    heads(c, 1)
    truths: dict[str, tuple[Box, str]] = {}
    for k, (x0, x1) in enumerate(((60.0, 200.0), (230.0, 380.0), (410.0, 550.0)), start=1):
        truths[f"Figure {k}"] = (bar_chart(c, x0, 72, x1, 170), f"Small figure {k}.")
        _lines(c, x0, 178, [f"Figure {k}: Small figure {k}."])
    left = bar_chart(c, 70, 210, 205, 320)
    right = bar_chart(c, 222, 210, 550, 320)
    truths["Figure 4"] = (union((left, right)), "Search paths of both workloads.")
    _lines(c, 214, 328, ["Figure 4: Search paths of both workloads."])
    body(c, WIDE, 360, 720, 2)
    pdf = tmp_path / "row-over-wide.pdf"
    pdf.write_bytes(_pdf([c]))
    _check(detect_figures(pdf), truths)
