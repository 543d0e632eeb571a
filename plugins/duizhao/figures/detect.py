"""Find a paper's figures and tables in its PDF: number, caption and crop box. Pure.

Caption-anchored layout analysis, after pdffigures2 (Clark & Divvala, JCDL 2016), from the
PDF's own objects (pypdfium2): the text layer with each character's position, size and font,
and the page's image, vector-path and form objects (measured by what they draw, clipped by
their clipping paths). No OCR; the only rendering is of the final boxes, at 72 dpi.

1. **Text.** Characters become *fragments*: runs on one baseline without a gap wider than
   about an em (so the cells of a table row, or the two columns of a page, are separate
   fragments).
2. **Document layout.** The body font size is the most common one; the text columns are
   where the body-sized, wide fragments start and end. *Body text* is a fragment of body size
   that fills most of one column from its left edge, alone on its line, not monospaced and
   not drawn inside a graphic (and the short last line of a paragraph). Running heads and
   folios (text that recurs word for word above or below the text area) bound the pages.
3. **Captions.** A fragment starting ``Figure 3:``, ``Fig. 3.``, ``Table 2:`` or ``TABLE II``
   (alone on its line, IEEE style) starts a caption; the lines right below it with the same
   size and no rule between them continue it. A label repeated in the body text ("Figure 3.
   The next ...") loses to the one with a bold label or graphics beside it.
4. **Regions.** A caption's column is the text column it sits in, or the whole text width when
   it crosses the gutter (shared with a caption beside it). From the caption the region grows
   away from it (up for figures; for tables the side where the paper puts its tables, as
   captions sit above *or* below them) over graphics and non-body text until body text,
   another caption, a wide empty gap or the running heads. All captions grow at once, nearest
   item first, so what lies between two floats goes to the one it hangs together with. Text
   standing apart beyond a figure's graphics is dropped, and the box is trimmed to its ink.

Boxes are in PDF points from the top-left of the page as rendered (the crop box), the units of
``<article>.figures.yml``.
"""

from __future__ import annotations

import bisect
import contextlib
import ctypes
import hashlib
import itertools
import json
import re
import statistics
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..pdfgeom import compose, transform

#: Bumped when a change here changes what is detected (the detection cache is keyed by it).
DETECT_VERSION = 10

Box = tuple[float, float, float, float]
#: Called with (pages done, pages in all) while a PDF is read.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class DetectedFigure:
    """One figure or table found in a PDF."""

    page: int  # 1-based
    kind: str  # "figure" | "table"
    label: str  # as printed: "Figure 3", "Fig. 3", "Table 2", "TABLE II"
    number: int  # 3, 2 (roman numerals converted)
    caption: str  # caption text without the label, whitespace normalised
    box: Box  # body crop, PDF points from top-left
    caption_box: Box  # the caption's own box, same units


# --------------------------------------------------------------------------------------------
# Page contents


@dataclass(eq=False)
class Fragment:
    """A run of text on one line with no wide gap inside."""

    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    size: float
    #: the font of the first character (identity within one document)
    font: str
    bold: bool
    #: set by the layout pass
    body: bool = False
    margin: bool = False

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def box(self) -> Box:
        return (self.x0, self.y0, self.x1, self.y1)


@dataclass(frozen=True)
class Graphic:
    """An image, vector path or shading, by its bounding box."""

    x0: float
    y0: float
    x1: float
    y1: float
    kind: str  # "image" | "path"

    @property
    def box(self) -> Box:
        return (self.x0, self.y0, self.x1, self.y1)


@dataclass
class Page:
    number: int
    width: float
    height: float
    fragments: list[Fragment] = field(default_factory=list)
    graphics: list[Graphic] = field(default_factory=list)


def read_pages(pdf: Any, progress: Progress | None = None) -> list[Page]:
    """Fragments and graphics of every page of an open ``pypdfium2.PdfDocument``."""
    pages = []
    fonts: dict[int, tuple[str, bool]] = {}
    for index in range(len(pdf)):
        if progress is not None:
            progress(index, len(pdf))
        page = pdf[index]
        try:
            left, bottom, right, top = _visible_box(page)
            out = Page(index + 1, right - left, top - bottom)
            textpage = page.get_textpage()
            try:
                out.fragments = _fragments(textpage, left, top, fonts)
            finally:
                textpage.close()
            out.graphics = _graphics(page, left, top, out.width, out.height)
        finally:
            page.close()
        pages.append(out)
    return pages


#: Ligatures that the Linux Libertine fonts of ACM's 2016–17 template leave without a
#: Unicode mapping, by font and the code PDFium reports (read off the words they occur in:
#: "ﬁgure", "aﬃliation", "diﬀerent", "ﬂoat", "bo‹tt›om", "The").
_UNMAPPED = {
    "linlibertinet": {0x80: "fi", 0x81: "ffi", 0x82: "ff", 0x83: "fl", 0x8A: "tt", 0x8C: "Th"},
    "linlibertinetb": {0x80: "fi", 0x87: "Th"},
    "linlibertineti": {0x80: "fi"},
}


def _visible_box(page: Any) -> Box:
    """The page's crop box as PDFium renders it (inherited boxes included), (l, b, r, t)."""
    import pypdfium2.raw as pdfium_c

    rect = pdfium_c.FS_RECTF()
    if pdfium_c.FPDF_GetPageBoundingBox(page, ctypes.byref(rect)):
        return (rect.left, rect.bottom, rect.right, rect.top)
    width, height = page.get_size()
    return (0.0, 0.0, width, height)


def _font(textpage: Any, index: int, fonts: dict[int, tuple[str, bool]]) -> tuple[str, bool]:
    import pypdfium2.raw as pdfium_c

    obj = pdfium_c.FPDFText_GetTextObject(textpage, index)
    font = pdfium_c.FPDFTextObj_GetFont(obj) if obj else None
    handle = ctypes.cast(font, ctypes.c_void_p).value if font else 0
    key = int(handle or 0)
    if key not in fonts:
        name = ""
        if font:
            buffer = ctypes.create_string_buffer(256)
            length = pdfium_c.FPDFFont_GetBaseFontName(font, buffer, 256)
            name = buffer.raw[: max(0, min(length, 256) - 1)].decode("latin-1")
        # The name says it; the weight PDFium reports is unreliable (695 for Times Regular).
        base = name.split("+")[-1].lower()
        bold = any(w in base for w in ("bold", "black", "heavy", "semibold", "demi"))
        # CM fonts name bold as CMBX*, Times bold as *-Medi (NimbusRomNo9L-Medi).
        bold = bold or base.startswith("cmbx") or base.endswith(("-medi", ".b", "-b"))
        fonts[key] = (name, bold)
    return fonts[key]


def _fragments(
    textpage: Any, left: float, top: float, fonts: dict[int, tuple[str, bool]]
) -> list[Fragment]:
    import pypdfium2.raw as pdfium_c

    count = pdfium_c.FPDFText_CountChars(textpage)
    cl, cr, cb, ct = (ctypes.c_double() for _ in range(4))
    ox, oy = ctypes.c_double(), ctypes.c_double()
    pl, pr, pb, pt = (ctypes.pointer(v) for v in (cl, cr, cb, ct))
    pox, poy = ctypes.pointer(ox), ctypes.pointer(oy)
    get_unicode = pdfium_c.FPDFText_GetUnicode
    get_box = pdfium_c.FPDFText_GetCharBox
    get_origin = pdfium_c.FPDFText_GetCharOrigin
    get_size = pdfium_c.FPDFText_GetFontSize
    out: list[Fragment] = []
    cur: Fragment | None = None
    chars: list[str] = []
    baseline = 0.0
    space = False

    def close() -> None:
        nonlocal cur
        if cur is not None:
            cur.text = "".join(chars).strip()
            if cur.text:
                out.append(cur)
        cur = None
        chars.clear()

    for i in range(count):
        code = get_unicode(textpage, i)
        if code in (10, 13):
            close()
            continue
        if code in (32, 9, 0xA0) or code == 0xFFFE:
            space = True
            continue
        if not get_box(textpage, i, pl, pr, pb, pt):
            continue
        size = get_size(textpage, i) or (ct.value - cb.value) or 1.0
        get_origin(textpage, i, pox, poy)
        x0, x1 = cl.value - left, cr.value - left
        base = top - oy.value
        y0 = min(top - ct.value, base - 0.72 * size)
        y1 = max(top - cb.value, base + 0.22 * size)
        if x1 - x0 <= 0 and code < 0x250:
            x1 = x0 + 0.1
        if cur is not None:
            gap = x0 - cur.x1
            same_line = abs(base - baseline) <= 0.3 * max(size, cur.size) or (
                y0 < cur.y1 - 0.3 * cur.size and y1 > cur.y0 + 0.3 * cur.size
            )
            backward = gap < -0.6 * cur.size and x1 < cur.x1 - 0.1  # ligatures share a box
            if not same_line or gap > 1.0 * max(size, cur.size) or backward:
                close()
        if cur is None:
            font, bold = _font(textpage, i, fonts)
            cur = Fragment(x0, y0, x1, y1, "", size, font, bold)
            baseline = base
            space = False
        else:
            if space and chars and chars[-1] != " ":
                chars.append(" ")
            cur.x0, cur.y0 = min(cur.x0, x0), min(cur.y0, y0)
            cur.x1, cur.y1 = max(cur.x1, x1), max(cur.y1, y1)
            # The fragment's size is that of its first, normal-sized characters: sub- and
            # superscripts must not make a body line look like small figure text.
            if abs(base - baseline) <= 0.1 * size:
                cur.size = max(cur.size, size) if len(chars) < 3 else cur.size
        space = False
        if 0x80 <= code <= 0x9F:
            # A ligature glyph its font does not map to Unicode.
            name = _font(textpage, i, fonts)[0].split("+")[-1].lower()
            chars.append(_UNMAPPED.get(name, {}).get(code, ""))
        else:
            chars.append(chr(code) if code < 0x110000 else "")
    close()
    return out


def _graphics(page: Any, left: float, top: float, width: float, height: float) -> list[Graphic]:
    import pypdfium2.raw as pdfium_c

    out: list[Graphic] = []
    fl, fb, fr, ft = (ctypes.c_float() for _ in range(4))
    bounds = (ctypes.pointer(fl), ctypes.pointer(fb), ctypes.pointer(fr), ctypes.pointer(ft))
    fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
    rgba = [ctypes.c_uint() for _ in range(4)]
    page_area = width * height

    def visit(obj: Any, matrix: tuple[float, ...] | None, depth: int, clip: Box) -> None:
        kind = pdfium_c.FPDFPageObj_GetType(obj)
        if kind == pdfium_c.FPDF_PAGEOBJ_TEXT:
            return
        if not pdfium_c.FPDFPageObj_GetBounds(obj, *bounds):
            return
        x0, y0, x1, y1 = fl.value, fb.value, fr.value, ft.value
        if kind != pdfium_c.FPDF_PAGEOBJ_FORM:
            # What shows of a path is what its clipping path lets through (a plot's bars
            # and lines are clipped to its axes).
            shown = _clip_bounds(obj)
            if shown is not None:
                x0, y0 = max(x0, shown[0]), max(y0, shown[1])
                x1, y1 = min(x1, shown[2]), min(y1, shown[3])
                if x1 <= x0 or y1 <= y0:
                    return
        if matrix is not None:
            x0, y0, x1, y1 = transform(matrix, (x0, y0, x1, y1))
        box = (
            max(x0 - left, clip[0]),
            max(top - y1, clip[1]),
            min(x1 - left, clip[2]),
            min(top - y0, clip[3]),
        )
        area = max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])
        if kind == pdfium_c.FPDF_PAGEOBJ_FORM:
            # Look inside: an embedded figure (a form) is measured by what it draws, not by
            # its bounding box, which often has white margins; whatever is drawn is clipped
            # to that box.
            if depth < 6:
                inner = _matrix(obj)
                combined = inner if matrix is None else compose(inner, matrix)
                for j in range(pdfium_c.FPDFFormObj_CountObjects(obj)):
                    visit(pdfium_c.FPDFFormObj_GetObject(obj, j), combined, depth + 1, box)
                return
        elif kind == pdfium_c.FPDF_PAGEOBJ_PATH:
            if not pdfium_c.FPDFPath_GetDrawMode(
                obj, ctypes.byref(fill_mode), ctypes.byref(stroke)
            ):
                return
            # A path shows when its fill or its stroke is neither white nor transparent:
            # white backgrounds (a plot's figure patch) and clipping paths do not.
            if fill_mode.value:
                pdfium_c.FPDFPageObj_GetFillColor(obj, *(ctypes.byref(c) for c in rgba))
                fill_shows = _shows(rgba)
            else:
                fill_shows = False
            if stroke.value and not fill_shows:
                pdfium_c.FPDFPageObj_GetStrokeColor(obj, *(ctypes.byref(c) for c in rgba))
                if not _shows(rgba):
                    return
            elif not fill_shows:
                return
        elif kind not in (pdfium_c.FPDF_PAGEOBJ_IMAGE, pdfium_c.FPDF_PAGEOBJ_SHADING):
            return
        if area > 0.85 * page_area:
            return  # a page background or frame
        bx0, by0 = max(0.0, box[0]), max(0.0, box[1])
        bx1, by1 = min(width, box[2]), min(height, box[3])
        if bx1 < bx0 or by1 < by0:
            return
        out.append(Graphic(bx0, by0, bx1, by1, "image" if kind == 3 else "path"))

    everything = (-1e9, -1e9, 1e9, 1e9)
    for k in range(pdfium_c.FPDFPage_CountObjects(page)):
        visit(pdfium_c.FPDFPage_GetObject(page, k), None, 0, everything)
    return out


def _clip_bounds(obj: Any) -> Box | None:
    """The bounding box of an object's clipping path (its own coordinates), if it has one."""
    import pypdfium2.raw as pdfium_c

    clip = pdfium_c.FPDFPageObj_GetClipPath(obj)
    if not clip:
        return None
    x, y = ctypes.c_float(), ctypes.c_float()
    xs: list[float] = []
    ys: list[float] = []
    for i in range(pdfium_c.FPDFClipPath_CountPaths(clip)):
        for j in range(min(pdfium_c.FPDFClipPath_CountPathSegments(clip, i), 64)):
            segment = pdfium_c.FPDFClipPath_GetPathSegment(clip, i, j)
            if segment and pdfium_c.FPDFPathSegment_GetPoint(
                segment, ctypes.byref(x), ctypes.byref(y)
            ):
                xs.append(x.value)
                ys.append(y.value)
    if not xs:
        return None
    return (min(xs), min(ys), max(xs), max(ys))


def _shows(rgba: Sequence[ctypes.c_uint]) -> bool:
    return rgba[3].value > 0 and min(c.value for c in rgba[:3]) < 250


def _matrix(obj: Any) -> tuple[float, ...]:
    import pypdfium2.raw as pdfium_c

    m = pdfium_c.FS_MATRIX()
    if not pdfium_c.FPDFPageObj_GetMatrix(obj, ctypes.byref(m)):
        return (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    return (m.a, m.b, m.c, m.d, m.e, m.f)


# --------------------------------------------------------------------------------------------
# Document layout: body size, columns, body text, margins


@dataclass
class Layout:
    body_size: float
    #: text columns as (x0, x1); one for single-column papers
    columns: list[tuple[float, float]]
    #: the band of the page that holds text, (y0, y1); running heads and folios lie outside
    band: tuple[float, float]
    line_height: float
    #: pages set in one column in a paper of two (an appendix, a page-wide listing)
    single: set[int] = field(default_factory=set)

    @property
    def text_span(self) -> tuple[float, float]:
        return (self.columns[0][0], self.columns[-1][1])

    def column_of(self, x0: float, x1: float, page: int = 0) -> tuple[float, float] | None:
        """The one column holding ``x0``–``x1`` (mostly), or None when it crosses a gutter."""
        columns = [self.text_span] if page in self.single else self.columns
        for c0, c1 in columns:
            overlap = min(x1, c1) - max(x0, c0)
            if overlap >= 0.8 * (x1 - x0):
                return (c0, c1)
        return None


def _mode(values: Iterable[float], step: float = 1.0) -> float | None:
    counts = Counter(round(v / step) * step for v in values)
    return counts.most_common(1)[0][0] if counts else None


def analyse(pages: Sequence[Page]) -> Layout:
    """Body font size, columns and text band of a document; marks body and margin fragments."""
    sizes: Counter[float] = Counter()
    for page in pages:
        for f in page.fragments:
            sizes[round(f.size * 2) / 2] += len(f.text)
    body_size = sizes.most_common(1)[0][0] if sizes else 10.0
    width = statistics.median([p.width for p in pages]) if pages else 612.0

    sized = [f for p in pages for f in p.fragments if _near(f.size, body_size)]
    mono_chars = sum(len(f.text) for f in sized if _MONO_RE.search(f.font))
    # Code (a listing set as a figure) is body-sized but monospaced: not running text,
    # unless the paper itself is set in a monospaced font.
    mono_body = mono_chars > 0.3 * max(1, sum(len(f.text) for f in sized))

    def body_sized(f: Fragment) -> bool:
        return _near(f.size, body_size) and (mono_body or not _MONO_RE.search(f.font))

    wide = [f for p in pages for f in p.fragments if body_sized(f) and f.width > 0.2 * width]
    left = [f for f in wide if f.x1 < 0.56 * width]
    right = [f for f in wide if f.x0 > 0.44 * width]
    columns: list[tuple[float, float]]
    if len(left) >= 10 and len(right) >= 10 and len(left) + len(right) >= 0.5 * len(wide):
        columns = [_column(left), _column(right)]
    elif wide:
        columns = [_column(wide)]
    else:
        columns = [(0.1 * width, 0.9 * width)]
    layout = Layout(body_size, columns, (0.0, 1e9), body_size * 1.2)
    if len(columns) == 2:
        # A page whose wide body-sized lines mostly cross the gutter is set in one column.
        gutter = (columns[0][1] + columns[1][0]) / 2
        for page in pages:
            lines = [f for f in page.fragments if body_sized(f) and f.width > 0.25 * width]
            across = sum(f.x0 < gutter - 10 and f.x1 > gutter + 10 for f in lines)
            if across >= 5 and across > len(lines) - across:
                layout.single.add(page.number)
    leads = []
    for page in pages:
        prev: Fragment | None = None
        rows = _table_rows(page, layout)
        for f in page.fragments:
            col = layout.column_of(f.x0, f.x1, page.number)
            f.body = (
                body_sized(f)
                and id(f) not in rows
                and col is not None
                and f.width >= 0.55 * (col[1] - col[0])
                and col[0] - 3 <= f.x0 <= col[0] + 3 * body_size
                and f.x1 <= col[1] + 3
                and not _inside_graphic(f, page.graphics)
            )
            if f.body and prev is not None and prev.body and 0 < f.y0 - prev.y0 < 3 * body_size:
                leads.append(f.y0 - prev.y0)
            if f.body:
                prev = f
    if leads:
        layout.line_height = statistics.median(leads)
    for page in pages:
        _paragraph_ends(page, layout, body_sized)
    tops = sorted(f.y0 for p in pages for f in p.fragments if f.body)
    bottoms = sorted(f.y1 for p in pages for f in p.fragments if f.body)
    height = statistics.median([p.height for p in pages])
    band = (0.0, height)
    if len(tops) >= 20:
        # A robust extreme: a stray body-like line in a margin must not widen the band.
        k = max(1, len(tops) // 200)
        band = (tops[k] - 0.5 * layout.line_height, bottoms[-k - 1] + 0.5 * layout.line_height)
        # Text areas start within the top tenth of the page and end in the bottom tenth; a
        # short paper whose body text never reaches them says nothing about its margins.
        band = (min(band[0], 0.1 * height), max(band[1], 0.9 * height))
    # Running heads and folios: lines repeated at one height on most pages, near an edge.
    heads, feet = _repeated_lines(pages)
    if heads:
        band = (max(band[0], max(heads) + 1.0), band[1])
    if feet:
        band = (band[0], min(band[1], min(feet) - 1.0))
    layout.band = band
    for page in pages:
        for f in page.fragments:
            f.margin = f.y1 < band[0] or f.y0 > band[1]
            f.body = f.body and not f.margin
    return layout


def _repeated_lines(pages: Sequence[Page]) -> tuple[list[float], list[float]]:
    """Bottoms of running heads and tops of running feet.

    A running head is text above a page's body text, in the top eighth of the page, that
    recurs (the same words, numbers aside) at the same height (to a point) on a third of the
    pages or more, and on two at least: a title, an author list, a page number. Figures and
    tables at the tops of pages do not recur word for word.
    """
    if len(pages) < 2:
        return [], []
    heads: dict[tuple[int, str], set[int]] = {}
    feet: dict[tuple[int, str], set[int]] = {}
    edges: dict[tuple[int, str], float] = {}
    firsts: list[float] = []
    lasts: list[float] = []
    for page in pages:
        body = [f for f in page.fragments if f.body]
        first = min((f.y0 for f in body), default=page.height / 2)
        last = max((f.y1 for f in body), default=page.height / 2)
        if body:
            firsts.append(first)
            lasts.append(last)
        for f in page.fragments:
            if f.body or (first < f.y1 and f.y0 < last):
                continue  # within the page's text, not around it
            words = re.sub(r"\d+", "#", f.text)
            if f.y1 < page.height / 8:
                key = (round(f.y1), words)
                heads.setdefault(key, set()).add(page.number)
                edges[key] = max(edges.get(key, 0.0), f.y1)
            elif f.y0 > page.height * 7 / 8:
                key = (round(f.y0), words)
                feet.setdefault(key, set()).add(page.number)
                edges[key] = min(edges.get(key, 1e9), f.y0)
    # Where the text area starts and ends on a typical page: a head lies above that, a foot
    # below (text recurring inside it is a figure's, at the top of several pages).
    top = statistics.median(firsts) if firsts else 0.0
    bottom = statistics.median(lasts) if lasts else 1e9

    def repeated(groups: dict[tuple[int, str], set[int]], inside: Any) -> list[float]:
        found = []
        for (y, words), numbers in groups.items():
            near = set(numbers)
            for d in (-1, 1):
                near |= groups.get((y + d, words), set())
            # Words recur on a third of the pages (odd and even heads alternate); a bare
            # number (a folio, or a tick label) must recur on two thirds.
            letters = sum(c.isalpha() for c in words) >= 3
            need = max(2, len(pages) // 3 if letters else 2 * len(pages) // 3)
            if len(near) >= need and not inside(edges[(y, words)]):
                found.append(edges[(y, words)])
        return found

    return (
        repeated(heads, lambda y: y > top + 1),
        repeated(feet, lambda y: y < bottom - 1),
    )


_MONO_RE = re.compile(
    r"mono|courier|typewriter|cmtt|sfmono|consol|menlo|inconsolata|txtt|lmtt", re.IGNORECASE
)


def _near(size: float, body_size: float) -> bool:
    return abs(size - body_size) <= max(0.6, 0.08 * body_size)


def _table_rows(page: Page, layout: Layout) -> set[int]:
    """Fragments that share their line, in one column, with another fragment: the cells of a
    table row (a line of running text is one fragment)."""
    lines: dict[tuple[int, int], list[Fragment]] = {}
    for f in page.fragments:
        col = layout.column_of(f.x0, f.x1, page.number)
        if col is None:
            continue
        lines.setdefault((round(col[0]), round(f.y1 / 2)), []).append(f)
    return {id(f) for group in lines.values() if len(group) > 1 for f in group}


def _paragraph_ends(page: Page, layout: Layout, body_sized: Any) -> None:
    """Mark the short last line of a paragraph as body text: body-sized, starting at the
    column's left edge one line below a body line."""
    lead = layout.line_height
    body = sorted((f for f in page.fragments if f.body), key=lambda f: f.y0)
    tops = [f.y0 for f in body]
    for f in page.fragments:
        if f.body or not body_sized(f):
            continue
        col = layout.column_of(f.x0, f.x1, page.number)
        if col is None or abs(f.x0 - col[0]) > 3 or _inside_graphic(f, page.graphics):
            continue
        lo = bisect.bisect_left(tops, f.y0 - 1.3 * lead)
        hi = bisect.bisect_right(tops, f.y0 - 0.7 * lead)
        if any(abs(b.x0 - f.x0) <= 3 * layout.body_size for b in body[lo:hi]):
            f.body = True


def _column(fragments: Sequence[Fragment]) -> tuple[float, float]:
    x0 = _mode((f.x0 for f in fragments), 1.0)
    x1 = _mode((f.x1 for f in fragments), 1.0)
    assert x0 is not None and x1 is not None
    return (x0, max(x1, x0 + 1))


def _inside_graphic(f: Fragment, graphics: Sequence[Graphic]) -> bool:
    for g in graphics:
        if (
            g.x0 - 2 <= f.x0
            and f.x1 <= g.x1 + 2
            and g.y0 - 2 <= f.y0
            and f.y1 <= g.y1 + 2
            and (g.y1 - g.y0) > 2 * (f.y1 - f.y0)
        ):
            return True
    return False


# --------------------------------------------------------------------------------------------
# Captions


_LABEL_RE = re.compile(
    r"^(?P<word>Figure|FIGURE|Fig\.|FIG\.|Fig|Table|TABLE|Tab\.)\s*"
    r"(?P<num>[1-9][0-9]{0,2}|[IVXL]{1,6})(?![0-9A-Za-z])\s*(?P<delim>[:.|—–-])?"
)
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50}
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffd\ufffe]")


def _roman(text: str) -> int | None:
    total = 0
    for a, b in zip(text, text[1:] + " ", strict=True):
        value = _ROMAN[a]
        total += -value if b in _ROMAN and _ROMAN[b] > value else value
    return total if total > 0 else None


@dataclass
class Caption:
    page: Page
    kind: str
    label: str
    number: int
    lines: list[Fragment]
    #: the horizontal span of its figure: its column, or the text width
    span: tuple[float, float]
    score: float = 0.0

    @property
    def box(self) -> Box:
        return _union(f.box for f in self.lines)

    def text(self) -> str:
        parts: list[str] = []
        for line in self.lines:
            text = line.text
            # PDFium marks a hyphen that breaks a word at the line's end as U+0002.
            if parts and parts[-1].endswith(("-", "\x02")) and text[:1].islower():
                parts[-1] = parts[-1][:-1] + text
            else:
                parts.append(text)
        joined = unicodedata.normalize("NFKC", " ".join(parts))
        # Glyphs without a Unicode mapping come out as control characters.
        joined = _CONTROL_RE.sub("", joined)
        match = _LABEL_RE.match(joined)
        rest = joined[match.end() :] if match else joined
        return " ".join(rest.split()).lstrip(":.|—–- ")


def _caption_starts(page: Page, layout: Layout) -> list[Caption]:
    found = []
    _join_lone_labels(page)
    for f in page.fragments:
        if f.margin:
            continue
        match = _LABEL_RE.match(f.text)
        if not match:
            continue
        word, num, delim = match["word"], match["num"], match["delim"]
        if num.isdigit():
            number = int(num)
        else:
            if not (word.isupper() or delim):
                continue  # "Table IV shows": a reference (IEEE prints TABLE IV)
            value = _roman(num)
            if value is None:
                continue
            number = value
        alone = match.end() >= len(f.text.rstrip())
        if not (delim or alone or f.bold):
            continue  # "Figure 3 shows ...": a reference, not a caption
        kind = "table" if word.lower().startswith("tab") else "figure"
        label = f"{word} {num}"
        col = layout.column_of(f.x0, f.x1, page.number)
        span = col if col is not None else layout.text_span
        score = (2.0 if f.bold else 0.0) + (1.0 if delim in (":", ".", "|") else 0.0)
        score += 0.0 if f.body else 1.0
        found.append(Caption(page, kind, label, number, [f], span, score))
    return found


_LONE_LABEL_RE = re.compile(r"^(Figure|FIGURE|Fig\.?|FIG\.?|Table|TABLE|Tab\.)$")


def _join_lone_labels(page: Page) -> None:
    """A label word set apart from its number ("Fig." [wide space] "3."): one fragment."""
    for f in list(page.fragments):
        if not _LONE_LABEL_RE.match(f.text):
            continue
        right = [
            g
            for g in page.fragments
            if g is not f
            and abs((g.y0 + g.y1) - (f.y0 + f.y1)) < 0.5 * f.size
            and 0 <= g.x0 - f.x1 <= 3 * f.size
        ]
        if right:
            _merge([f, min(right, key=lambda g: g.x0)], page)


def _extend(caption: Caption, page: Page, layout: Layout) -> None:
    """Add the rest of the caption's first line, and the lines that continue it below."""
    first = caption.lines[0]
    s0, s1 = caption.span
    # The label may stand apart from its text (a bold label set with a wide space).
    while True:
        right = [
            f
            for f in page.fragments
            if f not in caption.lines
            and abs((f.y0 + f.y1) - (first.y0 + first.y1)) < 0.5 * first.size
            and 0 <= f.x0 - caption.lines[-1].x1 <= 3 * first.size
            and not f.body
            and (
                layout.column_of(first.x0, first.x1, page.number) is None
                or layout.column_of(first.x0, f.x1, page.number) is not None
            )
        ]
        if not right:
            break
        caption.lines.append(min(right, key=lambda f: f.x0))
    if len(caption.lines) > 1:
        line = _merge(caption.lines, page)
        caption.lines = [line]
        first = line
        col = layout.column_of(line.x0, line.x1, page.number)
        caption.span = col if col is not None else layout.text_span
        s0, s1 = caption.span
    while True:
        last = caption.lines[-1]
        below = [
            f
            for f in page.fragments
            if f is not last
            and f not in caption.lines
            and not f.margin
            and f.y0 >= last.y0 + 0.5 * last.size
            and f.y0 - last.y1 <= 0.6 * first.size
            and min(f.x1, s1) - max(f.x0, s0) > 0.5 * f.width
            # Under the first line, and not the start of a caption beside this one.
            and min(f.x1, first.x1) - max(f.x0, first.x0) > 0
            and not _LABEL_RE.match(f.text)
        ]
        if not below:
            return
        top = min(f.y0 for f in below)
        row = sorted((f for f in below if f.y0 < top + 0.5 * first.size), key=lambda f: f.x0)
        if any(b.x0 - a.x1 > 1.5 * first.size for a, b in itertools.pairwise(row)):
            return  # the cells of a table row
        if abs(row[0].size - first.size) > 0.6 or _LABEL_RE.match(row[0].text):
            return
        nxt = row[0] if len(row) == 1 else _merge(row, page)
        if abs(nxt.size - first.size) > 0.6 or _LABEL_RE.match(nxt.text):
            return
        if any(
            g.y0 >= last.y1 - 1 and g.y1 <= nxt.y0 + 1 and min(g.x1, s1) - max(g.x0, s0) > 0
            for g in page.graphics
        ):
            return  # a rule between: the table starts
        caption.lines.append(nxt)


def _merge(fragments: Sequence[Fragment], page: Page) -> Fragment:
    """One fragment for pieces of one line (in the page's list in their place)."""
    first = fragments[0]
    line = Fragment(
        *_union(f.box for f in fragments),
        text=" ".join(f.text for f in fragments),
        size=first.size,
        font=first.font,
        bold=first.bold,
        body=first.body,
    )
    gone = {id(f) for f in fragments}
    page.fragments = [f for f in page.fragments if id(f) not in gone] + [line]
    return line


# --------------------------------------------------------------------------------------------
# Regions


@dataclass
class _Item:
    box: Box
    stop: bool
    #: identity on its page (the fragment or graphic it stands for)
    key: int
    graphic: bool = False


def _items(caption: Caption, others: Sequence[Caption], layout: Layout) -> list[_Item]:
    """What a caption's figure may be made of: the page's text and graphics in its span."""
    page = caption.page
    s0, s1 = caption.span
    own = {id(f) for f in caption.lines}
    # Captions side by side (two minipages in one float) share the span; they need not
    # start on one line (a caption of two lines beside one of a single line).
    cb = caption.box
    for other in others:
        ob = other.box
        if other is caption or other.page is not page:
            continue
        if min(ob[3], cb[3]) - max(ob[1], cb[1]) > -2 * layout.line_height:
            if ob[2] <= cb[0]:
                s0 = max(s0, (ob[2] + cb[0]) / 2)
            elif ob[0] >= cb[2]:
                s1 = min(s1, (ob[0] + cb[2]) / 2)
    stoppers = {id(f) for o in others if o.page is page and o is not caption for f in o.lines}
    items: list[_Item] = []
    for f in page.fragments:
        if id(f) in own or f.margin:
            continue
        if min(f.x1, s1) - max(f.x0, s0) < 0.5 * f.width:
            continue
        items.append(_Item(f.box, f.body or id(f) in stoppers, id(f)))
    for g in page.graphics:
        if g.y1 < layout.band[0] - 2 or g.y0 > layout.band[1] + 2:
            continue
        w = max(g.x1 - g.x0, 0.1)
        if min(g.x1, s1) - max(g.x0, s0) < 0.5 * w:
            continue
        items.append(_Item(g.box, False, id(g), graphic=True))
    return items


@dataclass
class _Growth:
    """One caption's region growing away from it, item by item, nearest first."""

    caption: Caption
    up: bool
    items: list[_Item]
    edge: float
    taken: list[_Item] = field(default_factory=list)
    next: int = 0
    done: bool = False

    def distance(self, item: _Item) -> float:
        return (self.edge - item.box[3]) if self.up else (item.box[1] - self.edge)

    def take(self, item: _Item) -> None:
        self.taken.append(item)
        self.edge = min(self.edge, item.box[1]) if self.up else max(self.edge, item.box[3])
        self.next += 1


def _grow(
    seeds: Sequence[tuple[Caption, bool]], captions: Sequence[Caption], layout: Layout
) -> list[Box | None]:
    """Grow the regions of ``seeds`` (caption, up) together, nearest item first anywhere.

    Growing together settles what lies between two floats: a table's rows go to the table
    caption they follow closely, not to the figure caption further away below them.
    """
    gap_limit = max(24.0, 2.5 * layout.line_height)
    row_limit = max(8.0, 0.8 * layout.line_height)
    growths = []
    for caption, up in seeds:
        cb = caption.box
        items = _items(caption, captions, layout)
        if up:
            near = sorted((i for i in items if i.box[3] <= cb[1] + 1.5), key=lambda i: -i.box[3])
        else:
            near = sorted((i for i in items if i.box[1] >= cb[3] - 1.5), key=lambda i: i.box[1])
        growths.append(_Growth(caption, up, near, cb[1] if up else cb[3]))
    owner: dict[int, _Growth] = {}
    while True:
        best: tuple[float, _Growth] | None = None
        for g in growths:
            while not g.done and g.next < len(g.items):
                item = g.items[g.next]
                distance = g.distance(item)
                # Past its first item a table is dense, row after row: a gap of more than a
                # line ends it (a boxed note set below a table stands that far apart).
                limit = row_limit if g.taken and g.caption.kind == "table" else gap_limit
                if distance > limit:
                    g.done = True
                elif item.stop or item.key in owner:
                    if distance > -0.5:
                        g.done = True  # body text, a caption or another float: the end
                    else:
                        g.next += 1  # beside what was taken (text next to a narrow float)
                else:
                    if best is None or distance < best[0]:
                        best = (distance, g)
                    break
            if g.next >= len(g.items):
                g.done = True
        if best is None:
            break
        g = best[1]
        item = g.items[g.next]
        owner[item.key] = g
        g.take(item)
    out: list[Box | None] = []
    for g in growths:
        if not g.taken:
            out.append(None)
            continue
        page = g.caption.page
        box = _union(i.box for i in _trim(g, layout))
        out.append(
            (max(0.0, box[0]), max(0.0, box[1]), min(page.width, box[2]), min(page.height, box[3]))
        )
    return out


def _trim(g: _Growth, layout: Layout) -> list[_Item]:
    """Drop text beyond the far edge of the graphics unless it follows them closely.

    Axis titles, legends and table rows hang together line by line; the block above a
    teaser image (a paper's title and authors) or a stray heading stands apart by more than
    a line.
    """
    graphics = [i for i in g.taken if i.graphic]
    if not graphics:
        return g.taken  # a table of text only: nothing to measure from
    far = min(i.box[1] for i in graphics) if g.up else max(i.box[3] for i in graphics)
    inside = [i for i in g.taken if (i.box[3] > far if g.up else i.box[1] < far)]
    within = {id(i) for i in inside}
    beyond = [i for i in g.taken if id(i) not in within]
    beyond.sort(key=lambda i: -i.box[3] if g.up else i.box[1])
    edge = far
    kept = list(inside)
    for item in beyond:
        gap = (edge - item.box[3]) if g.up else (item.box[1] - edge)
        if gap > layout.line_height:
            break
        kept.append(item)
        edge = min(edge, item.box[1]) if g.up else max(edge, item.box[3])
    return kept


def _region(caption: Caption, others: Sequence[Caption], layout: Layout, up: bool) -> Box | None:
    """The region of ``caption`` alone (up or down); None if there is nothing."""
    return _grow([(caption, up)], others, layout)[0]


def _union(boxes: Iterable[Box]) -> Box:
    xs0, ys0, xs1, ys1 = zip(*boxes, strict=True)
    return (min(xs0), min(ys0), max(xs1), max(ys1))


def _first_gap(caption: Caption, box: Box | None, up: bool) -> float:
    if box is None:
        return float("inf")
    cb = caption.box
    return cb[1] - box[3] if up else box[1] - cb[3]


# --------------------------------------------------------------------------------------------
# The whole document


def detect_pages(pages: Sequence[Page]) -> list[DetectedFigure]:
    """Detect the figures and tables of pages read with :func:`read_pages`."""
    if not pages:
        return []
    layout = analyse(pages)
    candidates: list[Caption] = []
    for page in pages:
        starts = _caption_starts(page, layout)
        for caption in starts:
            _extend(caption, page, layout)
        candidates.extend(starts)
    regions: dict[int, dict[bool, Box | None]] = {}
    for caption in candidates:
        regions[id(caption)] = {
            up: _region(caption, candidates, layout, up) for up in (True, False)
        }
        near = min(_first_gap(caption, regions[id(caption)][up], up) for up in (True, False))
        caption.score += 3.0 if near < 2 * layout.line_height else 0.0
    # One caption per label: the best scored (a label in body text loses).
    best: dict[tuple[str, int], Caption] = {}
    for caption in candidates:
        key = (caption.kind, caption.number)
        if key not in best or caption.score > best[key].score:
            best[key] = caption
    chosen = sorted(best.values(), key=lambda c: (c.page.number, c.box[1], c.box[0]))
    # Which side of its caption a figure / table is on: per kind, by majority, since a paper
    # puts all its table captions above (or below) their tables.
    side: dict[str, bool] = {}
    for kind in ("figure", "table"):
        votes: Counter[bool] = Counter()
        for caption in chosen:
            if caption.kind != kind:
                continue
            r = regions[id(caption)]
            up_gap, down_gap = (_first_gap(caption, r[u], u) for u in (True, False))
            if up_gap != down_gap:
                votes[up_gap < down_gap] += 1
        default = kind == "figure"
        side[kind] = votes.most_common(1)[0][0] if votes else default
        if votes[True] == votes[False]:
            side[kind] = default
    seeds = []
    for caption in chosen:
        r = regions[id(caption)]
        up = side[caption.kind]
        seeds.append((caption, up if r[up] is not None or r[not up] is None else not up))
    boxes = _grow(seeds, chosen, layout)
    found = []
    for (caption, up), box in zip(seeds, boxes, strict=True):
        if box is None:
            continue
        found.append(
            DetectedFigure(
                page=caption.page.number,
                kind=caption.kind,
                label=caption.label,
                number=caption.number,
                caption=caption.text(),
                box=_rounded(_pad(box, caption, up, caption.page)),
                caption_box=_rounded(caption.box),
            )
        )
    # Reading order: a page's left column before its right one, top to bottom in each.
    widths = {p.number: p.width for p in pages}
    found.sort(key=lambda d: (d.page, d.box[0] >= widths[d.page] / 2, d.box[1], d.box[0]))
    return found


def _pad(box: Box, caption: Caption, up: bool, page: Page) -> Box:
    """A point of white around the body (strokes are wider than their paths), not over the
    caption."""
    x0, y0, x1, y1 = box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1
    cb = caption.box
    if up:
        y1 = max(box[3], min(y1, cb[1]))
    else:
        y0 = min(box[1], max(y0, cb[3]))
    return (max(0.0, x0), max(0.0, y0), min(page.width, x1), min(page.height, y1))


def _rounded(box: Box) -> Box:
    return (round(box[0], 1), round(box[1], 1), round(box[2], 1), round(box[3], 1))


def detect_figures(path: Path) -> list[DetectedFigure]:
    """Every figure and table of the PDF at ``path``, ordered by page, then position.

    Raises ``OSError`` when the file cannot be read and ``ValueError`` when it is not a
    readable PDF.
    """
    return detect_bytes(path.read_bytes(), str(path))


def detect_bytes(
    data: bytes, name: str = "PDF", progress: Progress | None = None
) -> list[DetectedFigure]:
    """:func:`detect_figures` of a PDF's bytes (``name`` is for messages)."""
    return _detect(data, name, progress)[1]


def _detect(data: bytes, name: str, progress: Progress | None) -> tuple[int, list[DetectedFigure]]:
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise ValueError(f"{name}: not a readable PDF ({exc})") from exc
    try:
        pages = read_pages(pdf, progress)
        found = [_to_ink(pdf, f) for f in detect_pages(pages)]
    except pdfium.PdfiumError as exc:
        raise ValueError(f"{name}: unreadable page ({exc})") from exc
    finally:
        pdf.close()
    return len(pages), found


#: Resolution of the render that finds a box's ink, and what counts as ink (0-255 grey).
INK_DPI = 72
INK_LEVEL = 245


def _to_ink(pdf: Any, found: DetectedFigure) -> DetectedFigure:
    """Shrink a box to the ink inside it: an image's white margins, a plot's white
    background and invisible objects are no part of what a reader sees as the figure."""
    from .crops import crop_size, render_box

    page = pdf[found.page - 1]
    try:
        width, height = crop_size("pdf", found.box, INK_DPI)
        grey = render_box(page, found.box, INK_DPI, width, height).convert("L")
    finally:
        page.close()
    ink = grey.point(lambda v: 255 if v < INK_LEVEL else 0).getbbox()
    if ink is None:
        return found
    scale = 72 / INK_DPI
    x0, y0 = found.box[0], found.box[1]
    box = (
        max(found.box[0], x0 + ink[0] * scale - 1),
        max(found.box[1], y0 + ink[1] * scale - 1),
        min(found.box[2], x0 + ink[2] * scale + 1),
        min(found.box[3], y0 + ink[3] * scale + 1),
    )
    return replace(found, box=_rounded(box))


@dataclass(frozen=True)
class Detection:
    """The result for one PDF, as cached: its digest, page count and what was found."""

    digest: str
    pages: int
    figures: list[DetectedFigure]
    cached: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "version": DETECT_VERSION,
            "pages": self.pages,
            "figures": [
                {**d.__dict__, "box": list(d.box), "caption_box": list(d.caption_box)}
                for d in self.figures
            ],
        }

    @classmethod
    def from_json(cls, digest: str, data: dict[str, Any]) -> Detection:
        figures = [
            DetectedFigure(
                page=int(f["page"]),
                kind=str(f["kind"]),
                label=str(f["label"]),
                number=int(f["number"]),
                caption=str(f["caption"]),
                box=_box4(f["box"]),
                caption_box=_box4(f["caption_box"]),
            )
            for f in data["figures"]
        ]
        return cls(digest, int(data["pages"]), figures, cached=True)


def _box4(values: Sequence[Any]) -> Box:
    x0, y0, x1, y1 = (float(v) for v in values)
    return (x0, y0, x1, y1)


def detect_cached(
    path: Path, cache_dir: Path | None, progress: Progress | None = None
) -> Detection:
    """:func:`detect_figures` remembered in ``cache_dir/<sha256 of the PDF>.json``.

    Raises ``OSError`` and ``ValueError`` as :func:`detect_figures` does.
    """
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    entry = cache_dir / f"{digest}.json" if cache_dir is not None else None
    if entry is not None:
        try:
            cached = json.loads(entry.read_text(encoding="utf-8"))
            if cached.get("version") == DETECT_VERSION:
                return Detection.from_json(digest, cached)
        except (OSError, ValueError, KeyError, TypeError):
            pass  # none yet, or unreadable: detect again
    count, found = _detect(data, str(path), progress)
    result = Detection(digest, count, found)
    if entry is not None:
        from .cache import write_published

        # A cache that cannot be written only costs time.
        with contextlib.suppress(OSError):
            write_published(entry, json.dumps(result.to_json(), ensure_ascii=False).encode())
    return result
