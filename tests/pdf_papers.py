"""Two-column papers written by the tests with PDFium: every line, font and float is known.

Like LaTeX output, words are placed one by one without space characters (spacing must come from
geometry), lines are justified, a paragraph is interrupted by a float, a heading is drawn twice
(fake bold), citations switch fonts without a gap (``Rust [36]``), and words are hyphenated at
line ends (``commu-nication``, ``32-bit``).
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

WIDTH, HEIGHT = 612.0, 792.0
LEFT, RIGHT = (54.0, 300.0), (312.0, 558.0)  # column x extents
BODY, LEADING = 10.0, 12.0


@dataclass
class Writer:
    pdf: pdfium.PdfDocument
    page: pdfium.PdfPage
    fonts: dict[str, object] = field(default_factory=dict)

    def font(self, name: str) -> object:
        if name not in self.fonts:
            self.fonts[name] = pdfium_c.FPDFText_LoadStandardFont(self.pdf.raw, name.encode())
        return self.fonts[name]

    def word(
        self, text: str, x: float, y: float, size: float = BODY, font: str = "Times-Roman"
    ) -> float:
        """Draw ``text`` with its left end at x and baseline at y (from the top); its width."""
        obj = pdfium_c.FPDFPageObj_CreateTextObj(self.pdf.raw, self.font(font), size)
        buffer = ctypes.create_string_buffer((text + "\x00").encode("utf-16-le"))
        pdfium_c.FPDFText_SetText(obj, ctypes.cast(buffer, ctypes.POINTER(pdfium_c.FPDF_WCHAR)))
        pdfium_c.FPDFPageObj_Transform(obj, 1, 0, 0, 1, x, HEIGHT - y)
        left, bottom, right, top = (ctypes.c_float() for _ in range(4))
        pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom, right, top)
        pdfium_c.FPDFPage_InsertObject(self.page.raw, obj)
        return right.value - left.value

    def width(self, text: str, size: float = BODY, font: str = "Times-Roman") -> float:
        obj = pdfium_c.FPDFPageObj_CreateTextObj(self.pdf.raw, self.font(font), size)
        buffer = ctypes.create_string_buffer((text + "\x00").encode("utf-16-le"))
        pdfium_c.FPDFText_SetText(obj, ctypes.cast(buffer, ctypes.POINTER(pdfium_c.FPDF_WCHAR)))
        left, bottom, right, top = (ctypes.c_float() for _ in range(4))
        pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom, right, top)
        pdfium_c.FPDFPageObj_Destroy(obj)
        return right.value - left.value

    def line(
        self,
        text: str,
        x0: float,
        x1: float,
        y: float,
        *,
        justify: bool = True,
        size: float = BODY,
        font: str = "Times-Roman",
    ) -> None:
        """Words separated by spaces in ``text``; ``a|b|c`` draws a, b and c without gaps, b in
        Helvetica (a citation number in another font)."""
        words = text.split(" ")
        pieces = [
            [(p, font if i % 2 == 0 else "Helvetica") for i, p in enumerate(w.split("|")) if p]
            for w in words
        ]
        widths = [sum(self.width(p, size, f) for p, f in w) for w in pieces]
        natural = 0.25 * size
        gap = natural
        if justify and len(words) > 1:
            gap = max(natural, (x1 - x0 - sum(widths)) / (len(words) - 1))
            assert gap < 0.9 * size, f"too short to justify: {text!r}"
        x = x0
        for w, width in zip(pieces, widths, strict=True):
            px = x
            for p, f in w:
                px += self.word(p, px, y, size, f)
            x += width + gap

    def rect(self, x0: float, y0: float, x1: float, y1: float) -> None:
        path = pdfium_c.FPDFPageObj_CreateNewRect(x0, HEIGHT - y1, x1 - x0, y1 - y0)
        pdfium_c.FPDFPath_SetDrawMode(path, 0, True)
        pdfium_c.FPDFPage_InsertObject(self.page.raw, path)

    def hline(self, x0: float, x1: float, y: float) -> None:
        path = pdfium_c.FPDFPageObj_CreateNewPath(x0, HEIGHT - y)
        pdfium_c.FPDFPath_LineTo(path, x1, HEIGHT - y)
        pdfium_c.FPDFPath_SetDrawMode(path, 0, True)
        pdfium_c.FPDFPage_InsertObject(self.page.raw, path)


def paragraph(
    w: Writer,
    col: tuple[float, float],
    y: float,
    lines: list[str],
    indent: bool = True,
    ends: bool = True,
) -> float:
    """Justified lines, the first indented, the last ragged if the paragraph ``ends`` here
    (not where it goes on after a float). Returns the next baseline."""
    for i, text in enumerate(lines):
        x0 = col[0] + (10 if indent and i == 0 else 0)
        w.line(text, x0, col[1], y, justify=i < len(lines) - 1 or not ends)
        y += LEADING
    return y


def heading(w: Writer, col: tuple[float, float], y: float, number: str, title: str) -> float:
    """IEEE section heading: ``I. INTRODUCTION`` in small capitals, centred, drawn twice."""
    big = f"{number} {title[0]}"
    small = title[1:]
    width = w.width(big, BODY) + 0.3 * BODY + w.width(small, 8.0)
    x = (col[0] + col[1] - width) / 2
    for dx in (0.0, 0.3):  # fake bold: the same glyphs again, 0.3 pt to the right
        x1 = x + dx
        x1 += w.word(number, x1, y, BODY) + 0.3 * BODY
        x1 += w.word(title[0], x1, y, BODY)
        w.word(small, x1, y, 8.0)
    return y + 2 * LEADING


def make_ieee_paper(path: Path) -> Path:
    """Two pages, IEEE conference style (see the module docstring)."""
    pdf = pdfium.PdfDocument.new()
    # Page 1 ----------------------------------------------------------------------------------
    page = pdf.new_page(WIDTH, HEIGHT)
    w = Writer(pdf, page)
    title = "Layout Analysis for Owned<T> Papers"
    w.word(title, (WIDTH - w.width(title, 22)) / 2, 80, 22)
    authors = "Ada Lovelace and Alan Turing"
    w.word(authors, (WIDTH - w.width(authors, 11)) / 2, 110, 11)
    aff = "University of Examples, London"
    w.word(aff, (WIDTH - w.width(aff, 9, "Times-Italic")) / 2, 124, 9, "Times-Italic")
    y = 160.0
    x = LEFT[0] + w.word("Abstract—", LEFT[0], y, 9, "Times-BoldItalic")
    w.word("We", x, y, 9, "Times-Bold")  # no gap after the dash, as IEEEtran sets it
    abstract = [
        "",
        "structure of a paper: its columns, floats, headings and",
        "references. The method reads every glyph with its font.",
    ]
    w.line(
        "study how the layout of a page tells the", x + 14, LEFT[1], y, size=9, font="Times-Bold"
    )
    y += 11
    for i, text in enumerate(abstract[1:]):
        w.line(text, LEFT[0], LEFT[1], y, justify=i == 0, size=9, font="Times-Bold")
        y += 11
    y += 14
    y = heading(w, LEFT, y, "I.", "INTRODUCTION")
    y = paragraph(
        w,
        LEFT,
        y,
        [
            "Serving large language models needs very fast commu-",
            "nication between the accelerators of a cluster. Systems",
            "such as Rust [|36|] and its Owned<T> types help us here,",
            "and the small counters of Table I are kept as 32-",
            "bit integers.",
        ],
        indent=False,
    )
    y = paragraph(
        w,
        LEFT,
        y,
        [
            "The second paragraph starts with an indent of its own",
            "and ends on a short line.",
        ],
    )
    y += 6
    w.line("A. Related Work", LEFT[0], LEFT[1], y, justify=False, font="Times-Italic")
    y += LEADING + 4
    paragraph(
        w,
        LEFT,
        y,
        [
            "Earlier systems drew the same picture many times over,",
            "as Fig. 1 shows for three runs of the benchmark. This",
            "paragraph goes on in the right-hand column, after all of",
        ],
        ends=False,
    )
    # Right column: a figure at the top, the paragraph continues below it.
    top = 150.0
    w.rect(RIGHT[0] + 20, top, RIGHT[1] - 20, top + 100)
    w.word("Throughput", RIGHT[0] + 100, top + 15, 7, "Helvetica")
    w.word("1 Baseline", RIGHT[0] + 30, top + 30, 7, "Helvetica-Bold")
    w.word("2 Ours", RIGHT[0] + 30, top + 40, 7, "Helvetica-Bold")
    for i, tick in enumerate(["0", "10", "20", "30"]):
        w.word(tick, RIGHT[0] + 25 + 60 * i, top + 110, 7, "Helvetica")
    w.word("Latency (ms)", RIGHT[0] + 95, top + 120, 7, "Helvetica")
    w.word("Fig. 1.", RIGHT[0], top + 140, 8, "Times-Roman")
    w.line(
        "Throughput of three runs on one superpod.",
        RIGHT[0] + 24,
        RIGHT[1],
        top + 140,
        justify=False,
        size=8,
    )
    y = paragraph(
        w,
        RIGHT,
        top + 170,
        [
            "the float that stands above it, in the very same sentence,",
            "and ends here.",
        ],
        indent=False,
    )
    y += 6
    w.line("B. Method", RIGHT[0], RIGHT[1], y, justify=False, font="Times-Italic")
    y += LEADING + 4
    paragraph(
        w,
        RIGHT,
        y,
        [
            "We read the glyphs of each page with their boxes, sizes",
            "and fonts, and find the gap between the two columns of",
            "the page from the lines of body text. The lines then fol-",
            "low in reading order, and the floats leave the text flow",
            "together with their captions and the text drawn inside",
            "them.",
        ],
        indent=False,
    )
    w.word("1", WIDTH / 2, 760, 8)
    assert pdfium_c.FPDFPage_GenerateContent(w.page.raw)
    w.page.close()
    # Page 2 ----------------------------------------------------------------------------------
    page = pdf.new_page(WIDTH, HEIGHT)
    w = Writer(pdf, page)
    w.word("IEEE TRANSACTIONS ON EXAMPLES, VOL. 1", LEFT[0], 40, 7)
    w.word("TABLE I", (LEFT[0] + LEFT[1] - w.width("TABLE I", 8)) / 2, 70, 8)
    cap = "COUNTERS BY WIDTH"
    w.word(cap, (LEFT[0] + LEFT[1] - w.width(cap, 8)) / 2, 80, 8)
    w.hline(LEFT[0] + 30, LEFT[1] - 30, 88)
    for i, (a, b) in enumerate([("Width", "Count"), ("32-bit", "12"), ("64-bit", "3")]):
        w.word(a, LEFT[0] + 50, 100 + 11 * i, 8)
        w.word(b, LEFT[0] + 160, 100 + 11 * i, 8)
    w.hline(LEFT[0] + 30, LEFT[1] - 30, 128)
    y = heading(w, LEFT, 160, "II.", "RESULTS")
    y = paragraph(
        w,
        LEFT,
        y,
        [
            "The method finds every heading and every float of the",
            "generated paper, and a Vector<u8> stays text, literally.",
        ],
        indent=False,
    )
    y += 10
    # A numbered heading too wide for one line (bold, as ACM sets them).
    w.line(
        "2.1 A Rather Long Numbered Heading That Needs Two", LEFT[0], LEFT[1], y, font="Times-Bold"
    )
    w.line("Lines of the Column", LEFT[0], LEFT[1], y + 11, justify=False, font="Times-Bold")
    y = paragraph(
        w,
        LEFT,
        y + 26,
        [
            "Wide headings wrap like this one and stay one heading.",
        ],
        indent=False,
    )
    # A figure across both columns at the foot of the page, referred to nowhere.
    w.rect(LEFT[0] + 40, 600, RIGHT[1] - 40, 680)
    w.word("Nodes", WIDTH / 2 - 10, 690, 7, "Helvetica")
    cap = "Fig. 2. A wide figure across both columns, referred to nowhere in the text."
    w.word(cap, (WIDTH - w.width(cap, 8)) / 2, 710, 8)
    y += 10
    w.word("REFERENCES", (LEFT[0] + LEFT[1] - w.width("REFERENCES", 8)) / 2, y, 8)
    y += 16
    refs = [
        (
            "[1]",
            [
                "A. Author, B. Writer and C. Reader, “A rather long title of a",
                "paper that needs two lines,” in Proc. Examples, 2020.",
            ],
        ),
        ("[2]", ["C. Coder, “Another title,” J. Tests, 2021."]),
    ]
    for label, lines in refs:
        w.word(label, LEFT[0], y, 8)
        for i, text in enumerate(lines):
            w.line(text, LEFT[0] + 16, LEFT[1], y, justify=i < len(lines) - 1, size=8)
            y += 10
    w.word("2", WIDTH / 2, 760, 8)
    assert pdfium_c.FPDFPage_GenerateContent(w.page.raw)
    w.page.close()
    pdf.save(str(path))
    pdf.close()
    return path
