"""A PDF paper → headings, paragraphs, references and figure candidates, from its layout.

pypdfium2 gives every glyph with its loose box, font size and font (name, weight, flags), and
the boxes of the page's images and vector paths; :mod:`.layout` does the rest without a PDF
library. Floats are found by :func:`find_floats` (caption-anchored); its result has the shape
of ``duizhao.figures.detect.detect_figures`` so either can feed :func:`import_pdf`.
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .layout import (
    Box,
    Char,
    Float,
    FloatLike,
    FontStyle,
    Note,
    PageContent,
    analyse,
    markdown_text,
)
from .model import Chunk, FigureCandidate

_TEXT, _PATH, _IMAGE, _SHADING, _FORM = 1, 2, 3, 4, 5
#: A page with more drawing objects than this (a scatter plot of 100k points) is sampled.
_MAX_OBJECTS = 20000
_FIXED_PITCH, _ITALIC = 1 << 0, 1 << 6
_ADDRESS_PROTO = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)


@dataclass
class PdfImport:
    """What :func:`import_pdf` found: the chunks to append and what the author should review."""

    chunks: list[Chunk]
    title: str
    authors: list[str]
    floats: list[Float]
    notes: list[Note]
    pages: int

    def counts(self) -> dict[str, int]:
        out = {
            "paragraphs": 0,
            "headings": 0,
            "references": 0,
            "code": 0,
            "figures": 0,
            "tables": 0,
        }
        for c in self.chunks:
            if c.figure is not None:
                out["tables" if c.figure.kind == "table" else "figures"] += 1
            elif c.is_heading:
                out["headings"] += 1
            elif c.text.startswith(("```", "~~~~")):
                out["code"] += 1
            elif not c.numbered:
                out["references"] += 1
            else:
                out["paragraphs"] += 1
        return out


def _font_style(font: Any) -> FontStyle:
    import pypdfium2.raw as pdfium_c

    buf = ctypes.create_string_buffer(256)
    n = pdfium_c.FPDFFont_GetBaseFontName(font, buf, 256)
    name = buf.value.decode("latin-1", "replace") if n else ""
    name = name.split("+", 1)[-1]  # subset prefix ABCDEF+
    weight = pdfium_c.FPDFFont_GetWeight(font)
    flags = pdfium_c.FPDFFont_GetFlags(font)
    lowered = name.lower()
    italic = bool(flags & _ITALIC) or any(k in lowered for k in ("italic", "oblique", "cmti"))
    mono = bool(flags & _FIXED_PITCH) or any(
        k in lowered for k in ("mono", "courier", "typewriter", "cmtt", "consol", "inconsolata")
    )
    return FontStyle(name, weight if weight > 0 else 400, italic, mono)


def _fast(function: Any, restype: Any, *argtypes: Any) -> Any:
    """A ctypes function with plain argument types: the per-glyph calls dominate the import
    time, and pypdfium2's typed pointers cost several microseconds per call to convert."""
    address = ctypes.cast(function, ctypes.c_void_p).value
    assert address is not None
    return ctypes.CFUNCTYPE(restype, *argtypes)(address)


def _page_chars(
    textpage: Any, height: float, fonts: list[FontStyle], font_ids: dict[int | None, int]
) -> list[Char]:
    import pypdfium2.raw as pdfium_c

    vp, c_int = ctypes.c_void_p, ctypes.c_int
    raw = textpage.raw
    handle = ctypes.cast(raw, vp).value
    count = pdfium_c.FPDFText_CountChars(raw)
    rect = pdfium_c.FS_RECTF()
    rect_ref = ctypes.byref(rect)
    # Per glyph: FPDFText_GetText does not map one to one (it drops and rewrites some glyphs).
    get_unicode = _fast(pdfium_c.FPDFText_GetUnicode, ctypes.c_uint, vp, c_int)
    get_box = _fast(pdfium_c.FPDFText_GetLooseCharBox, c_int, vp, c_int, vp)
    get_object = _fast(pdfium_c.FPDFText_GetTextObject, vp, vp, c_int)
    is_generated = _fast(pdfium_c.FPDFText_IsGenerated, c_int, vp, c_int)
    get_font = _fast(pdfium_c.FPDFTextObj_GetFont, vp, vp)
    objects: dict[int | None, tuple[int, float] | None] = {}
    unseen: tuple[int, float] | None = (-1, 0.0)  # a sentinel: not looked up yet
    chars: list[Char] = []
    append = chars.append
    space = False
    for i in range(count):
        code = get_unicode(handle, i)
        if code == 32:
            space = space or not is_generated(handle, i)
            continue
        if code in (10, 13):
            space = False
            continue
        key = get_object(handle, i)
        info = objects.get(key, unseen)
        if info is unseen:
            info = None
            angle = pdfium_c.FPDFText_GetCharAngle(raw, i)
            # Rotated text (margin stamps, rotated table headers) is not part of the prose.
            if min(abs(angle), abs(angle - 2 * math.pi)) < 0.01:
                font = get_font(key) if key else None
                fid = font_ids.get(font)
                if fid is None:
                    style = (
                        _font_style(ctypes.cast(font, pdfium_c.FPDF_FONT))
                        if font
                        else FontStyle("")
                    )
                    fid = font_ids[font] = len(fonts)
                    fonts.append(style)
                info = (fid, round(pdfium_c.FPDFText_GetFontSize(raw, i), 2) or 1.0)
            objects[key] = info
        if info is None:
            space = False
            continue
        get_box(handle, i, rect_ref)
        try:
            text = chr(code)
        except ValueError:
            text = "\ufffd"
        append(
            Char(
                text,
                rect.left,
                height - rect.top,
                rect.right,
                height - rect.bottom,
                info[1],
                info[0],
                space,
            )
        )
        space = False
    return chars


def _page_graphics(page: Any, height: float) -> list[Box]:
    """Boxes of images, paths and shadings, also inside form XObjects (top-left origin)."""
    import pypdfium2.raw as pdfium_c

    out: list[Box] = []
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    budget = [_MAX_OBJECTS]

    def bounds(obj: Any) -> tuple[float, float, float, float] | None:
        if not pdfium_c.FPDFPageObj_GetBounds(
            obj, ctypes.byref(left), ctypes.byref(bottom), ctypes.byref(right), ctypes.byref(top)
        ):
            return None
        return left.value, bottom.value, right.value, top.value

    def walk(count: int, get: Callable[[int], Any], matrix: tuple[float, ...] | None) -> None:
        for i in range(count):
            if budget[0] <= 0:
                return
            budget[0] -= 1
            obj = get(i)
            kind = pdfium_c.FPDFPageObj_GetType(obj)
            if kind == _FORM:
                m = pdfium_c.FS_MATRIX()
                pdfium_c.FPDFPageObj_GetMatrix(obj, m)
                own = (m.a, m.b, m.c, m.d, m.e, m.f)
                walk(
                    pdfium_c.FPDFFormObj_CountObjects(obj),
                    _form_getter(obj),
                    _compose(own, matrix),
                )
            elif kind in (_PATH, _IMAGE, _SHADING):
                b = bounds(obj)
                if b is None:
                    continue
                if matrix is not None:
                    b = _transform(b, matrix)
                out.append((b[0], height - b[3], b[2], height - b[1]))

    walk(
        pdfium_c.FPDFPage_CountObjects(page.raw),
        lambda j: pdfium_c.FPDFPage_GetObject(page.raw, j),
        None,
    )
    return out


def _form_getter(form: Any) -> Callable[[int], Any]:
    import pypdfium2.raw as pdfium_c

    return lambda j: pdfium_c.FPDFFormObj_GetObject(form, j)


def _compose(inner: tuple[float, ...], outer: tuple[float, ...] | None) -> tuple[float, ...]:
    if outer is None:
        return inner
    a, b, c, d, e, f = inner
    A, B, C, D, E, F = outer  # noqa: N806 (matrix names)
    return (
        a * A + b * C,
        a * B + b * D,
        c * A + d * C,
        c * B + d * D,
        e * A + f * C + E,
        e * B + f * D + F,
    )


def _transform(b: tuple[float, float, float, float], m: tuple[float, ...]) -> Box:
    a, bb, c, d, e, f = m
    xs, ys = [], []
    for x, y in ((b[0], b[1]), (b[0], b[3]), (b[2], b[1]), (b[2], b[3])):
        xs.append(a * x + c * y + e)
        ys.append(bb * x + d * y + f)
    return (min(xs), min(ys), max(xs), max(ys))


def read_pages(path: Path) -> tuple[list[PageContent], list[FontStyle]]:
    """Glyphs and graphics of every page. ``OSError`` if unreadable, ``ValueError`` if no PDF."""
    import pypdfium2 as pdfium

    data = path.read_bytes()
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise ValueError(f"{path}: not a readable PDF ({exc})") from exc
    fonts: list[FontStyle] = [FontStyle("")]
    font_ids: dict[int | None, int] = {None: 0}
    pages: list[PageContent] = []
    try:
        for number in range(len(pdf)):
            page = pdf[number]
            try:
                width, height = page.get_size()
                textpage = page.get_textpage()
                try:
                    chars = _page_chars(textpage, height, fonts, font_ids)
                finally:
                    textpage.close()
                graphics = _page_graphics(page, height)
            finally:
                page.close()
            pages.append(PageContent(number + 1, width, height, chars, graphics))
    finally:
        pdf.close()
    return pages, fonts


def find_floats(path: Path) -> list[Float]:
    """The figures and tables of a PDF, caption-anchored (shape of ``detect_figures``)."""
    pages, fonts = read_pages(path)
    return analyse(pages, fonts).floats


def import_pdf(
    path: Path,
    *,
    number_references: bool = False,
    declared_figures: Sequence[int] = (),
    detect: Callable[[Path], Sequence[FloatLike]] | None = None,
) -> PdfImport:
    """Read a paper and turn it into chunks (see the module docstring).

    References become unnumbered blocks unless ``number_references``. A float becomes a figure
    candidate: a ``/// figure`` placement when ``declared_figures`` (the ids of the article's
    ``.figures.yml``) has its number, else a comment marker for the author to review.
    ``detect``: a figure detector (``duizhao.figures.detect.detect_figures``) to use instead of
    the caption-anchored :func:`find_floats`.
    """
    pages, fonts = read_pages(path)
    layout = analyse(pages, fonts, None if detect is None else detect(path))
    chunks: list[Chunk] = []
    declared = set(declared_figures)
    for unit in layout.units:
        if unit.kind == "heading":
            chunks.append(Chunk(markdown_text(unit.text, False), min(max(unit.level, 2), 6)))
        elif unit.kind == "paragraph":
            chunks.append(Chunk(markdown_text(unit.text)))
        elif unit.kind == "code":
            fence = "~~~~" if "```" in unit.text else "```"
            chunks.append(Chunk(f"{fence}text\n{unit.text}\n{fence}", numbered=False))
        elif unit.kind == "reference":
            chunks.append(Chunk(markdown_text(unit.text), numbered=number_references))
        elif unit.figure is not None:
            f = unit.figure
            placed = f.kind == "figure" and f.number in declared
            chunks.append(
                Chunk(
                    f.caption,
                    figure=FigureCandidate(
                        f.kind, f.label, f.number, f.caption, f.page, f.box, placed
                    ),
                )
            )
    return PdfImport(chunks, layout.title, layout.authors, layout.floats, layout.notes, len(pages))


def report(result: PdfImport, source: str) -> list[str]:
    """The end-of-import report: what was found, then what to review (page and line)."""
    counts = result.counts()
    lines = [
        f"{source}: {result.pages} pages; {counts['headings']} headings, "
        f"{counts['paragraphs']} paragraphs, {counts['references']} references, "
        f"{counts['code']} code listings, "
        f"{counts['figures']} figures, {counts['tables']} tables",
    ]
    if result.title:
        lines.append(f"  title: {result.title}")
    if result.authors:
        lines.append(f"  authors: {', '.join(result.authors)}")
    for c in result.chunks:
        if c.is_heading:
            lines.append(f"  heading: {'#' * c.level} {c.text}")
    for f in result.floats:
        lines.append(f"  {f.kind}: {f.label} on page {f.page}, box {[round(v) for v in f.box]}")
    for note in result.notes:
        where = (
            f"page {note.page}, line {note.line}"
            if note.line
            else (f"page {note.page}" if note.page else "document")
        )
        lines.append(f"  review ({where}): {note.message}")
    return lines
