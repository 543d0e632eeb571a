"""The layout rules that issue 20's corpus asked for, one small case each: footnotes in type
one step smaller, unmarked notes at a page's foot, footnote marks in the text, and the
rules of the later classes below them. Lines are built glyph by glyph (points from the
page's top-left corner), as the reader gives them."""

from __future__ import annotations

from duizhao.pdf.page_layout import (
    Layout,
    PageLayout,
    column_feet,
    drop_footnote_marks,
    foot_notice,
    footnote_numbers,
    footnote_type,
    opens_footnote,
)
from duizhao.pdf.read import Char, FontStyle, PageContent
from duizhao.pdf.settings import SETTINGS
from duizhao.pdf.text import Line, make_line

FONTS = [FontStyle("Regular"), FontStyle("Regular-Bold"), FontStyle("Regular-Italic", italic=True)]
BODY = 10.0
LEADING = 12.0


def glyphs(text: str, x0: float, top: float, size: float = BODY, font: int = 0) -> list[Char]:
    """Glyphs half an em wide, a word space of 0.3 em, the baseline ``size`` below ``top``."""
    out = []
    x = x0
    for ch in text:
        if ch == " ":
            x += 0.3 * size
            continue
        out.append(Char(ch, x, top, x + 0.5 * size, top + size, size, font))
        x += 0.5 * size
    return out


def line(
    text: str, x0: float, top: float, size: float = BODY, font: int = 0, page: int = 1
) -> Line:
    ln = make_line(page, glyphs(text, x0, top, size, font), FONTS)
    ln.text = text  # the glyph spacing above reads back as the text given
    return ln


def layout_of(*pages: list[Line], height: float = 792.0) -> Layout:
    laid = []
    for number, lines in enumerate(pages, 1):
        for n, ln in enumerate(lines, 1):
            ln.page, ln.number = number, n
        page = PageLayout(PageContent(number, 612.0, height, []), [], list(lines))
        page.extents = {-1: (72.0, 540.0), 0: (72.0, 540.0), 1: (72.0, 540.0)}
        laid.append(page)
    return Layout(laid, FONTS, BODY, LEADING, (0.0, height), False, [])


# ---------------------------------------------------------------------------------------------
# Footnotes


def test_footnote_type_is_one_size_step_down() -> None:
    assert footnote_type(line("a note in 9 pt type", 72, 700, 9.0), BODY)
    assert footnote_type(line("a note in 8 pt type", 72, 700, 8.0), BODY)
    assert not footnote_type(line("running text in 10 pt", 72, 700, 10.0), BODY)
    # a formula's body-size base letters among its scripts: not a footnote's type
    mixed = make_line(1, glyphs("x", 72, 700, 10.0) + glyphs("ij", 78, 704, 7.0), FONTS)
    mixed.size = 7.0
    assert not footnote_type(mixed, BODY)


def test_a_footnote_opens_with_a_mark() -> None:
    raised = make_line(1, glyphs("1", 72, 700, 6.0) + glyphs("Affiliation", 76, 700, 9.0), FONTS)
    assert opens_footnote(raised) and opens_footnote(raised, raised=True)
    plain_digit = line("2 Corresponding author", 72, 700, 9.0)
    assert opens_footnote(plain_digit) and not opens_footnote(plain_digit, raised=True)
    assert not opens_footnote(line("REFERENCES", 72, 700, 9.0))


def test_an_unmarked_note_at_the_page_foot() -> None:
    text = line("the last line of the page's running text", 72, 700)
    notice = line("Preprint. Under review.", 72, 730, 9.0)
    layout = layout_of([text, notice])
    foot = column_feet(layout)[(1, -1)]
    assert foot == text.y1
    assert foot_notice(notice, foot, layout)
    # set tight under the text (a small-type paragraph), or high on the page: no notice
    close = line("small type right under the text", 72, text.y1 + 2, 9.0)
    assert not foot_notice(close, foot, layout_of([text, close]))
    high = line("small type mid-page", 72, 400, 9.0)
    assert not foot_notice(high, 300.0, layout_of([line("text", 72, 290), high]))
    assert SETTINGS.footnote_apart * LEADING <= notice.y0 - foot


def test_footnote_marks_leave_the_text() -> None:
    body = make_line(
        1,
        glyphs("the DMS", 72, 600)
        + glyphs("4", 107.5, 597, 7.0)
        + glyphs("is here and", 114, 600)
        + glyphs("it", 180, 600)
        + glyphs("4", 190, 597, 7.0)
        + glyphs(".", 193.5, 600)
        + glyphs("x", 200, 600)
        + glyphs("2", 205, 597, 7.0),
        FONTS,
    )
    note = make_line(
        1, glyphs("4", 72, 700, 6.0) + glyphs("https://example.org", 76, 700, 8.0), FONTS
    )
    layout = layout_of([body, note])
    feet = column_feet(layout)
    assert footnote_numbers(layout, feet) == {1: {"4"}}
    drop_footnote_marks(layout, feet, FONTS)
    # the mark's gap is no word space ("it."), and x² (no footnote 2 on the page) stays
    assert body.text == "the DMS is here and it. x2"
    assert note.text.startswith("4")
