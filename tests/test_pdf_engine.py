"""Pieces of the PDF engine (duizhao/pdf): the caption grammar, spec keys of detected floats."""

from __future__ import annotations

from duizhao.figures.detect import DetectedFigure
from duizhao.figures.merge import keyed
from duizhao.pdf.captions import caption_label, caption_match, parse_label, roman
from duizhao.pdf.headings import heading_candidate
from duizhao.pdf.page_layout import analyse
from duizhao.pdf.read import Char, Document, FontStyle, PageContent


def test_caption_grammar() -> None:
    assert caption_match("Figure 3: Overview.") == ("figure", "Figure 3", 3)
    assert caption_match("Fig.3. Latency") == ("figure", "Fig. 3", 3)
    assert caption_match("TABLE II") == ("table", "TABLE II", 2)
    assert caption_match("Table 4 (continued)") == ("table", "Table 4", 4)
    assert caption_match("Figure B.1: Roughness.") == ("figure", "Figure B.1", 1)
    # references, not captions
    assert caption_match("Figure 3 shows the design.") is None
    assert caption_match("Table IV lists the runs") is None
    assert caption_match("Figure 3.1 shows") is None  # a section's numbering, in a reference
    assert caption_match("Figure 03: x") is None
    assert caption_match("Figure 1.0 Setup") is None
    # a bold label needs no delimiter; algorithms and listings are floats, not spec entries
    assert caption_label("Figure 3 Overview", bold=True) is not None
    algorithm = caption_label("Algorithm 1 Ordering", bold=True)
    assert algorithm is not None and algorithm.kind == "algorithm"
    assert caption_match("Algorithm 1: Ordering") is None
    label = parse_label("Figure 3: Overview")
    assert label is not None and label.end == len("Figure 3:")


def test_section_numbered_labels_as_word_sets_them() -> None:
    """A Word export numbers captions within sections ("Fig.1.1", "FIG.2.1", "FIG. 3.5"),
    sets the label without a space or a delimiter, and its text layer may glue the label's
    last digit to the caption's first word ("Fig.1. 3Relation between ..."). The number is the
    last one (two sections' figures share it); the label keeps the section's."""
    assert caption_match("Fig.1.1 Block diagram") == ("figure", "Fig. 1.1", 1)
    assert caption_match("FIG.2.1. Test bench") == ("figure", "FIG. 2.1", 1)
    assert caption_match("FIG. 3.5: Results") == ("figure", "FIG. 3.5", 5)
    assert caption_match("Figure 2.1 Number of images per class") == ("figure", "Figure 2.1", 1)
    assert caption_match("Table 5.1 Performance") == ("table", "Table 5.1", 1)
    glued = parse_label("Fig.1. 3Relation between the two")
    assert glued is not None and (glued.numeral, glued.number) == ("1.3", 3)
    assert "Fig.1. 3Relation between the two"[glued.end :] == "Relation between the two"
    # a caption's text that starts with a figure, not a glued number
    assert caption_match("Fig. 1. 3D view of the rig") == ("figure", "Fig. 1", 1)
    assert caption_match("Figure 5.2 and Figure 5.3 show") is None


def test_a_dash_between_label_word_and_number() -> None:
    """Word authors set a dash between a label's word and its number ("Figure – 1:",
    "Fig-1:", word-fogvision); a reference written so in running text stays a reference."""
    assert caption_match("Figure – 1: Real time Infrared-Thermal vision data") == (
        "figure",
        "Figure 1",
        1,
    )
    assert caption_match("Fig-1: Overview") == ("figure", "Fig 1", 1)
    assert caption_match("TABLE — II") == ("table", "TABLE II", 2)
    label = parse_label("Figure – 12: Canny Edge Detection")
    assert label is not None and "Figure – 12: Canny Edge Detection"[label.end :] == (
        " Canny Edge Detection"
    )
    assert caption_match("Figure – 4 shows the workflow") is None
    assert caption_match("Figure -- 4: x") is None


def test_roman_numerals_are_canonical() -> None:
    assert [roman(n) for n in ("I", "IV", "IX", "XIV", "XL")] == [1, 4, 9, 14, 40]
    assert roman("IIII") is None and roman("VX") is None


def test_lettered_appendix_headings() -> None:
    assert heading_candidate("A Notations") == ("appendix", 1)
    assert heading_candidate("C Why Do the Loss Landscapes of LLMs Resemble Basins?") == (
        "appendix",
        1,
    )
    assert heading_candidate("A FaaS platform for the edge") is None


def test_a_spec_holds_one_float_per_number() -> None:
    def fig(label: str, number: int) -> DetectedFigure:
        return DetectedFigure(1, "figure", label, number, "c", (0, 0, 1, 1), (0, 2, 1, 3))

    kept, others = keyed([fig("Figure 1", 1), fig("Figure B.1", 1), fig("Figure 2", 2)])
    assert [f.label for f in kept] == ["Figure 1", "Figure 2"]
    assert [f.label for f in others] == ["Figure B.1"]


def _line(text: str, x: float, top: float, size: float) -> list[Char]:
    """Glyphs of ``text`` set at ``size`` from (x, top), half an em wide each."""
    chars, space = [], False
    for ch in text:
        if ch == " ":
            x, space = x + size * 0.25, True
            continue
        chars.append(Char(ch, x, top, x + size * 0.5, top + size, size, 0, space))
        x, space = x + size * 0.5, False
    return chars


def test_a_running_head_recurs_in_type_of_its_size() -> None:
    """A running head is set alike on every page. A plot's title ('Kernel', 9 pt) at the top
    of one page and another plot's legend that shares its word ('CCP Kernel', 5 pt) at the
    same height on another are no running heads; the head in 8 pt on both pages is."""
    tops = {
        1: _line("Kernel", 146, 85, 9.0),
        2: _line("CCP", 140, 89, 5.0) + _line("Kernel", 180, 89, 5.0),  # two legend entries
    }
    pages = []
    for number, top in tops.items():
        chars = _line("Proceedings of a Conference on Examples", 72, 40, 8.0) + top
        for i in range(40):
            chars += _line(
                f"Body text of page {number} goes on here, line {i}.", 72, 130 + 12 * i, 10
            )
        pages.append(PageContent(number, 612, 792, chars))
    layout = analyse(Document("paper.pdf", pages, [FontStyle("Times-Roman")]))
    roles = {
        (ln.page, ln.text): ln.role
        for page in layout.pages
        for ln in page.lines
        if "Body" not in ln.text
    }
    assert roles == {
        (1, "Proceedings of a Conference on Examples"): "running",
        (2, "Proceedings of a Conference on Examples"): "running",
        (1, "Kernel"): "text",
        (2, "CCP Kernel"): "text",
    }
