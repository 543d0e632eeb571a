"""The layout rules that issue 20's corpus asked for, one small case each: footnotes in type
one step smaller, unmarked notes at a page's foot, footnote marks in the text, and the
rules of the later classes below them. Lines are built glyph by glyph (points from the
page's top-left corner), as the reader gives them."""

from __future__ import annotations

from duizhao.figures.detect import DetectedFigure
from duizhao.importer.pdf.flow import flow, inline_enumeration
from duizhao.importer.pdf.headings import (
    Sections,
    as_heading,
    fills_column,
    paragraph_head,
    run_in_named,
    styled_like_a_heading,
)
from duizhao.importer.pdf.lines import straddles_float, use_listings, wrap_tail
from duizhao.pdf.headings import heading_candidate
from duizhao.pdf.hyphens import Joiner
from duizhao.pdf.page_layout import (
    Layout,
    PageLayout,
    column_feet,
    drop_footnote_marks,
    foot_notice,
    footnote_numbers,
    footnote_type,
    off_page,
    opens_footnote,
    settle_gutters,
)
from duizhao.pdf.read import _ITALIC_NAME_RE, Char, FontStyle, PageContent
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


# ---------------------------------------------------------------------------------------------
# Headings


def test_times_italic_is_italic_by_its_name() -> None:
    for name in ("nimbusromno9l-reguital", "nimbusromno9l-mediital", "cmti10", "arial-italicmt"):
        assert _ITALIC_NAME_RE.search(name), name
    assert not _ITALIC_NAME_RE.search("digitalfont-regular")


def test_a_title_may_open_with_a_name_in_lower_case() -> None:
    assert heading_candidate("2.2 vLLM Automatic Prefix Caching") == ("numeric", 2)
    assert heading_candidate("IV. eBPF Programs") == ("roman", 1)
    assert heading_candidate("2 the results") is None


def test_a_heading_in_capitals_or_italics_may_fill_its_column() -> None:
    wide = line("III. BESTFIT CURVE-FITTING MODEL BASED HPC DATA", 316, 564, 8.0)
    assert fills_column(wide, larger=False, italic_ok=False)
    plain = line("2 Results of the runs", 72, 100)
    assert not fills_column(plain, larger=False, italic_ok=False)
    assert fills_column(plain, larger=False, italic_ok=True)
    # a full stop inside: a heading run in, whose line goes on with text
    run_in = line("4.1.1 Repetition Levels. Repetition and", 72, 100, font=2)
    assert not fills_column(run_in, larger=False, italic_ok=True)


def test_a_named_section_runs_in_after_its_bold_name() -> None:
    ln = make_line(
        1,
        glyphs("Index Terms", 72, 280, 8.0, font=1)
        + glyphs("—Distributed file systems", 118, 280, 8.0),
        FONTS,
    )
    layout = layout_of([ln])
    assert run_in_named(layout, ln) == (2, "Index Terms", "Distributed file systems")
    colon = make_line(
        1, glyphs("Keywords:", 72, 280, font=1) + glyphs("storage, energy", 120, 280), FONTS
    )
    assert run_in_named(layout, colon) == (2, "Keywords", "storage, energy")
    # a bold run-in phrase of the text is no named section
    phrase = make_line(
        1, glyphs("Results.", 72, 280, font=1) + glyphs("We ran it", 120, 280), FONTS
    )
    assert run_in_named(layout, phrase) is None


def test_a_paragraph_head_is_numbered_four_deep() -> None:
    assert paragraph_head("5.1.1.1 Hornet Cluster: The Hornet Cluster is a") == (
        5,
        "5.1.1.1 Hornet Cluster",
        "The Hornet Cluster is a",
    )
    assert paragraph_head("5.1.1 Workloads: three traces") is None
    assert paragraph_head("1.2.3.4 is a version: it") is None


def test_an_unnumbered_line_in_a_heading_style_the_paper_has_had() -> None:
    sections = Sections()
    acks = line("ACKNOWLEDGMENTS", 108, 85, 8.0)
    sections.learn(acks, 2)
    text = line("We are grateful for advice from a colleague on the design.", 108, 104)
    head = line("SUPPLEMENTAL INFORMATION.", 108, 128, 8.0)
    layout = layout_of([acks, text, head])
    page = layout.pages[0]
    assert styled_like_a_heading(layout, page, head, text, sections) == (
        2,
        "SUPPLEMENTAL INFORMATION.",
        "",
    )
    # in the body's style, or set tight under the line before: not one
    assert styled_like_a_heading(layout, page, text, head, sections) is None
    tight = line("MORE CAPITALS", 108, text.y1 + 1, 8.0)
    assert styled_like_a_heading(layout, page, tight, text, sections) is None
    # a style no heading has had
    other = line("NOTE ON DATA", 108, 200, 9.0)
    assert styled_like_a_heading(layout, page, other, text, sections) is None


def test_as_heading_takes_a_paragraph_head_in_the_body_font() -> None:
    prev = line("the department.", 312, 271)
    ln = line("5.1.1.1 Hornet Cluster: The Hornet Cluster is a", 332, 308)
    layout = layout_of([prev, ln])
    found = as_heading(layout, layout.pages[0], ln, [], prev, Sections())
    assert found == (5, "5.1.1.1 Hornet Cluster", "The Hornet Cluster is a")


# ---------------------------------------------------------------------------------------------
# Floats


def test_a_line_across_a_float_box_edge_is_the_floats() -> None:
    box = (80.0, 297.0, 540.0, 486.0)
    title = line("Iterative Progress of Live Migration", 88, 290.5, 9.0)  # 2 pt into the box
    label = line("Time (S)", 140, 170, 14.0)
    layout = layout_of([title, label])
    page = layout.pages[0]
    assert straddles_float(title, box, page, layout)
    assert straddles_float(label, (60.0, 72.0, 280.0, 179.0), page, layout)
    # above the box, or wider than it: the text's
    above = line("text above the figure", 88, 280)
    assert not straddles_float(above, box, page, layout)
    wide = line("a line reaching past the box", 60, 292)
    assert not straddles_float(wide, box, page, layout)
    # a full line of running text touching a loose box stays text
    full = line("x" * 93, 72, 294)
    assert layout.full_width(full, page)
    assert not straddles_float(full, (70.0, 297.0, 545.0, 486.0), page, layout)


# ---------------------------------------------------------------------------------------------
# Paragraphs


def test_an_enumeration_run_in_the_sentence_is_no_list_item() -> None:
    assert inline_enumeration("(a) overlaps halo exchange; (b) adjusts the partitions")
    assert inline_enumeration("1) reuse the cache as much as possible; and 2) maximize")
    assert not inline_enumeration("(a) overlaps halo exchange with local computation;")
    assert not inline_enumeration("Text that (a) mentions (b) items")


# ---------------------------------------------------------------------------------------------
# Pages


def test_text_drawn_off_the_page_leaves() -> None:
    stamp = line("A clipped margin note", 730, -175, 9.0)
    head = line("Under review as a conference paper", 108, 28)
    assert off_page([stamp, head], 612.0, 792.0) == [stamp]


def test_a_page_of_small_type_keeps_the_papers_gutter() -> None:
    def column_page(size: float) -> PageLayout:
        frags = [
            line("a line of the left column of text", 72, 100 + 12 * i, size) for i in range(8)
        ] + [line("a line of the right column of text", 320, 100 + 12 * i, size) for i in range(8)]
        return PageLayout(PageContent(1, 612.0, 792.0, []), frags, [])

    pages = [column_page(10.0), column_page(10.0), column_page(7.0)]
    pages[0].gutter = pages[1].gutter = (300.0, 318.0)
    settle_gutters(pages, BODY)
    assert pages[2].gutter == (300.0, 318.0)
    # a page of small type across the page does not
    across = PageLayout(
        PageContent(3, 612.0, 792.0, []),
        [
            line("a line of small type right across the page " * 3, 72, 100 + 12 * i, 7.0)
            for i in range(8)
        ],
        [],
    )
    pages[2] = across
    settle_gutters(pages, BODY)
    assert across.gutter is None


def test_a_wrapfigures_measure_goes_on_under_it() -> None:
    beside = [line("text set beside the figure", 72, 500 + 11 * i) for i in range(3)]
    for ln in beside:
        ln.x1 = 296.0
    tail = line("still narrow under it", 72, 533)
    tail.x1 = 296.0
    back = line("back at the column's full width", 72, 544)
    back.x1 = 540.0
    layout = layout_of([*beside, tail, back])
    assert wrap_tail(layout.pages[0], beside, (72.0, 296.0), layout) == [tail]


def test_an_algorithm_is_set_after_the_paragraph_it_interrupts() -> None:
    first = line("Transfer overlapping allows the prefill instance's execution", 72, 700)
    second = line("time to be equivalent to the loading time, depending on the", 72, 712)
    caption = line("Algorithm 1 Scheduling", 72, 80, 9.0, page=2)
    steps = [line(f"{n}: step {n}", 72, 95 + 10 * n, 9.0, page=2) for n in (1, 2)]
    rest = line("prefix cache proportion relative to the input length.", 72, 200, page=2)
    for ln in (first, second):
        ln.x1 = 538.0
    layout = layout_of([first, second], [caption, *steps, rest])
    algorithm = DetectedFigure(
        2, "algorithm", "Algorithm 1", 1, "Scheduling", (70, 92, 540, 130), (70, 78, 540, 91)
    )
    groups = use_listings(layout, [algorithm])
    assert [ln.role for ln in (caption, *steps)] == ["listing_caption", "listing", "listing"]
    joiner = Joiner.of(ln.text for page in layout.pages for ln in page.lines)
    units = flow(layout, joiner, groups).units
    assert [(u.kind, u.text) for u in units] == [
        (
            "paragraph",
            "Transfer overlapping allows the prefill instance's execution time to be equivalent "
            "to the loading time, depending on the prefix cache proportion relative to the "
            "input length.",
        ),
        ("paragraph", "Algorithm 1 Scheduling"),
        ("code", "1: step 1\n2: step 2"),
    ]
    # a box that stops at the rule under the caption says nothing of the body: left alone
    ruled = DetectedFigure(
        2, "algorithm", "Algorithm 1", 1, "S", (70, 92, 540, 93), (70, 78, 540, 91)
    )
    for ln in (caption, *steps):
        ln.role = "text"
    assert use_listings(layout, [ruled]) == {}
