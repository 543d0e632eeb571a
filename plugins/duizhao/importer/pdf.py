"""A PDF paper → headings, paragraphs, references and figure candidates, from its layout.

pypdfium2 gives every glyph with its loose box, font size and font (name, weight, flags), and
the boxes of the page's images and vector paths; :mod:`.layout` does the rest without a PDF
library. Floats are found by :func:`find_floats` (caption-anchored); its result has the shape
of ``duizhao.figures.detect.detect_figures`` so either can feed :func:`import_pdf`.
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..pdfgeom import compose, transform
from .escape import md_fence, md_text, protect_line_start
from .layout import Box, Char, Float, FloatLike, FontStyle, PageContent, analyse
from .layout import Note as LayoutNote
from .model import Chunk, ChunkKind, Note, Original

_TEXT, _PATH, _IMAGE, _SHADING, _FORM = 1, 2, 3, 4, 5
#: A page with more drawing objects than this (a scatter plot of 100k points) is sampled.
_MAX_OBJECTS = 20000
_FIXED_PITCH, _ITALIC = 1 << 0, 1 << 6
_ADDRESS_PROTO = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)


@dataclass
class PdfImport(Original):
    """A PDF paper read by :func:`import_pdf`: an :class:`Original` with its floats."""

    floats: list[Float] = field(default_factory=list)
    pages: int = 0


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
    textpage: Any,
    height: float,
    fonts: list[FontStyle],
    font_ids: dict[int | None, int],
    rotated: list[Box],
) -> list[Char]:
    """The page's glyphs; the boxes of rotated ones (a plot's y-axis title, a margin stamp)
    go to ``rotated``: they are part of a drawing, not of the prose."""
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
    space = generated = False
    for i in range(count):
        code = get_unicode(handle, i)
        if code == 32:
            if is_generated(handle, i):
                generated = True
            else:
                space = True
            continue
        if code in (10, 13):
            space = generated = False
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
        get_box(handle, i, rect_ref)
        if info is None:
            rotated.append((rect.left, height - rect.top, rect.right, height - rect.bottom))
            space = generated = False
            continue
        if 0xDC00 <= code < 0xE000:
            # PDFium gives a glyph beyond the BMP (math letters 𝑠𝑘) as two UTF-16 halves.
            if chars and len(chars[-1].text) == 1 and 0xD800 <= ord(chars[-1].text) < 0xDC00:
                high = ord(chars[-1].text)
                chars[-1].text = chr(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00))
                continue
            code = 0xFFFD
        text = chr(code) if code < 0x110000 else "\ufffd"
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
                generated,
            )
        )
        space = generated = False
    for ch in chars:  # a high half without its low half
        if 0xD800 <= ord(ch.text[0]) < 0xDC00:
            ch.text = "\ufffd"
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
                    own if matrix is None else compose(own, matrix),
                )
            elif kind in (_PATH, _IMAGE, _SHADING):
                b = bounds(obj)
                if b is None:
                    continue
                if matrix is not None:
                    b = transform(matrix, b)
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
                    rotated: list[Box] = []
                    chars = _page_chars(textpage, height, fonts, font_ids, rotated)
                finally:
                    textpage.close()
                graphics = _page_graphics(page, height) + rotated
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
    declared_figures: Collection[str] = (),
    detect: Callable[[Path], Sequence[FloatLike]] | None = None,
) -> PdfImport:
    """Read a paper and turn it into chunks (see the module docstring).

    References are plain, unnumbered units (``kind="reference"``) unless ``number_references``.
    A float becomes a figure candidate: a ``/// figure`` placement when ``declared_figures``
    (the keys of the article's ``.figures.yml``: ``"3"``, ``"table-2"``) has it, else a comment
    marker for the author to review. ``detect``: a figure detector
    (``duizhao.figures.detect.detect_figures``) to use instead of the caption-anchored search.
    Raises ``OSError`` when the file cannot be read and ``ValueError`` when it is not a PDF.
    """
    pages, fonts = read_pages(path)
    layout = analyse(pages, fonts, None if detect is None else detect(path))
    chunks: list[Chunk] = []
    declared = set(declared_figures)
    for unit in layout.units:
        if unit.kind == "heading":
            chunks.append(Chunk(md_text(unit.text), min(max(unit.level, 2), 6), kind="heading"))
        elif unit.kind == "paragraph":
            chunks.append(Chunk(protect_line_start(md_text(unit.text))))
        elif unit.kind == "reference":
            kind: ChunkKind = "paragraph" if number_references else "reference"
            chunks.append(Chunk(protect_line_start(md_text(unit.text)), kind=kind))
        elif unit.kind in ("code", "equation"):
            chunks.append(Chunk("\n".join(md_fence(unit.text, "text")), kind="verbatim"))
        elif unit.figure is not None:
            chunks.append(Chunk(figure_text(unit.figure, declared), kind="figure"))
    paper: dict[str, Any] = {}
    if layout.title:
        paper["title"] = layout.title
    if layout.authors:
        paper["authors"] = layout.authors if len(layout.authors) > 1 else layout.authors[0]
    notes = [_note(n) for n in layout.notes]
    for f in layout.floats:
        box = ", ".join(str(round(v)) for v in f.box)
        notes.append(
            Note(None, f"page {f.page}: {f.label} found, box [{box}]; check it, then place it")
        )
    return PdfImport(
        chunks,
        title=layout.title or None,
        paper=paper,
        notes=notes,
        floats=list(layout.floats),
        pages=len(pages),
    )


def _note(note: LayoutNote) -> Note:
    where = (
        f"page {note.page}, line {note.line}: "
        if note.line
        else (f"page {note.page}: " if note.page else "")
    )
    severity: Literal["dropped", "warning"] = (
        "dropped" if note.message.startswith("dropped") else "warning"
    )
    return Note(None, where + note.message, severity)


def figure_key(kind: str, number: int) -> str:
    """The key of a figure in ``.figures.yml`` (as ``duizhao.figures.spec.figure_key``)."""
    return str(number) if kind == "figure" else f"{kind}-{number}"


def figure_text(f: Float, declared: Collection[str] = ()) -> str:
    """A placement when the figure spec declares the float, else a marker to review."""
    key = figure_key(f.kind, f.number)
    if key in declared:
        return f"/// figure | {key}\n///"
    box = ", ".join(str(round(v)) for v in f.box)
    caption = " ".join(f.caption.split()).replace("--", "- -")
    return f"<!-- duizhao:{f.kind} {key} page: {f.page} box: [{box}] {caption} -->"
