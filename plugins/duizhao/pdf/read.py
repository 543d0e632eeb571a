"""The one PDF reader: every page's glyphs and graphics, from PDFium (pypdfium2).

- **Glyphs** (:class:`Char`): text, loose box, drawn size and font (name, weight, italic,
  monospaced, small capitals), whether the PDF put a space before it. Read through plain
  ctypes calls: the per-glyph calls dominate the time, and pypdfium2's typed pointers cost
  several microseconds per call to convert. Glyphs set at an angle to the page (a plot's
  y-axis title, a margin stamp) are part of a drawing: they become graphics of kind ``text``.
- **Graphics** (:class:`Graphic`): images, shadings and the paths that show (a fill or a
  stroke that is neither white nor transparent), each cut to its clipping path, also inside
  form XObjects at any depth, with the forms' matrices composed.
- **Very many objects** (a scatter plot of a few hundred thousand points): over
  ``settings.ink_objects`` the page's graphics are read from its rendered ink instead, in one
  render (:mod:`.ink`).
- **Bad input** (damaged, encrypted, no text layer, a page larger than PDF allows, forms
  nested past PDFium's limit, an absurd number of objects, a page PDFium cannot parse within
  the time and memory of :mod:`.guard`) raises :class:`PdfError`, one line naming the file
  and the page (``PATH:PAGE: DZ113 reason``).

Boxes are in points from the top-left corner of the page as PDFium renders it (crop box,
rotation applied), the units of ``<article>.figures.yml``.
"""

from __future__ import annotations

import ctypes
import math
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .geometry import IDENTITY, Box, Matrix, compose, transform
from .guard import PageGuard
from .settings import SETTINGS, Settings

#: Called with (pages done, pages in all) while a PDF is read.
Progress = Callable[[int, int], None]

_TEXT, _PATH, _IMAGE, _SHADING, _FORM = 1, 2, 3, 4, 5
_FIXED_PITCH, _ITALIC = 1 << 0, 1 << 6
_SC_RE = re.compile(r"(?<=[a-z0-9])SC[0-9]*$|-SC\b")
#: italic by name: …Italic, …Oblique, CMTI, Times's …ReguItal and …MediItal (not "Digital")
_ITALIC_NAME_RE = re.compile(r"(?<!dig)ital|oblique|cmti")
_BOLD_WORDS = ("bold", "black", "heavy", "semibold", "demi", "medi", "cmbx")
_MONO_WORDS = (
    "mono",
    "courier",
    "typewriter",
    "cmtt",
    "sfmono",
    "consol",
    "menlo",
    "inconsolata",
    "txtt",
    "lmtt",
    "nimbusmon",
)


#: The code of a PDF the engine refuses to read (the diagnostics registry's DZ113).
PDF_CODE = "DZ113"


class PdfError(ValueError):
    """A PDF (or one of its pages) that cannot be read: one line for the author,
    ``PATH:PAGE: DZ113 reason`` (``PATH: DZ113 reason`` when no page is to blame)."""

    def __init__(self, name: str, reason: str, page: int | None = None) -> None:
        self.name, self.reason, self.page = name, reason, page
        where = name if page is None else f"{name}:{page}"
        super().__init__(f"{where}: {PDF_CODE} {reason}")


@dataclass(frozen=True)
class FontStyle:
    name: str
    weight: int = 400
    italic: bool = False
    mono: bool = False
    bold: bool = field(init=False)
    #: a small-capitals font (LMRomanCaps10, CMCSC10, …ReguSC): a heading style
    smallcaps: bool = field(init=False)

    def __post_init__(self) -> None:
        lowered = self.name.lower()
        # CM fonts name bold as CMBX*, Times bold as *-Medi (NimbusRomNo9L-Medi).
        bold = (
            self.weight >= 600
            or any(key in lowered for key in _BOLD_WORDS)
            or lowered.endswith((".b", "-b"))
        )
        object.__setattr__(self, "bold", bold)
        smallcaps = "caps" in lowered or "cmcsc" in lowered or bool(_SC_RE.search(self.name))
        object.__setattr__(self, "smallcaps", smallcaps)


@dataclass(slots=True)
class Char:
    """One glyph: its text, loose box (top-left origin), size and font (index).

    ``size`` is the size the glyph is drawn at (font size times its matrix's scale), not the
    font size of the PDF's ``Tf``, which may be 1 for every glyph of a paper."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float
    font: int = 0
    #: the PDF has a real space character before this glyph
    space_before: bool = False
    #: PDFium put a generated space before this glyph (it saw a word gap, measured with the
    #: font's advance widths, where the loose boxes of italic overhangs may touch)
    space_generated: bool = False


@dataclass(frozen=True, slots=True)
class Graphic:
    """What a page draws besides upright text: an image, a path, a shading, a glyph set at
    an angle (``text``) or, on a page read by its ink, a blot of rendered ink (``ink``)."""

    box: Box
    kind: str


@dataclass(frozen=True, slots=True)
class Turned:
    """A glyph set at an angle: its text, its box on the page as rendered and its angle
    (radians, counter-clockwise from the page's upright)."""

    text: str
    box: Box
    angle: float
    font: int = 0


@dataclass
class PageContent:
    number: int  # 1-based
    width: float
    height: float
    chars: list[Char]
    graphics: list[Graphic] = field(default_factory=list)
    #: drawing objects on the page, forms' contents included
    objects: int = 0
    #: the graphics were read from the rendered page (too many objects to read one by one)
    ink: bool = False
    #: that render (grey, at ``settings.ink_dpi``), kept to trim boxes without a second load
    image: Any = None
    #: CPU seconds the guard's child spent on the page: its parse, or its whole read for a
    #: dense page (guard.py)
    checked: float = 0.0
    #: the glyphs set at an angle (also among ``graphics`` as ``text``), with their text: a
    #: rotated table's caption and cells (figures/rotated.py)
    turned: list[Turned] = field(default_factory=list)


@dataclass
class Document:
    """A PDF read once per command: its pages, its fonts, and the open file for renders."""

    name: str
    pages: list[PageContent]
    fonts: list[FontStyle]
    pdf: Any = None
    settings: Settings = SETTINGS
    #: warnings for the author, "page N: …"
    notes: list[str] = field(default_factory=list)

    def close(self) -> None:
        if self.pdf is not None:
            self.pdf.close()
            self.pdf = None


def read_path(
    path: Path, progress: Progress | None = None, settings: Settings = SETTINGS
) -> Document:
    """:func:`read_pdf` of a file. ``OSError`` when it cannot be read."""
    return read_pdf(path.read_bytes(), str(path), progress, settings)


@contextmanager
def opened(
    path: Path, progress: Progress | None = None, settings: Settings = SETTINGS
) -> Iterator[Document]:
    """The document at ``path``, closed on leaving."""
    doc = read_path(path, progress, settings)
    try:
        yield doc
    finally:
        doc.close()


def read_pdf(
    data: bytes, name: str = "PDF", progress: Progress | None = None, settings: Settings = SETTINGS
) -> Document:
    """Every page of the PDF ``data``, open for renders until :meth:`Document.close`.

    Raises :class:`PdfError` for a PDF that cannot be read (see the module docstring).
    """
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise PdfError(name, "encrypted: it needs a password to be read") from None
        raise PdfError(name, f"not a readable PDF: damaged or truncated ({_words(exc)})") from None
    doc = Document(name, [], [FontStyle("")], pdf, settings)
    index = 0
    try:
        reader = _Reader(doc)
        reader.patterns = b"/Pattern" in data
        with PageGuard(pdf, settings, reader.dense_page) as guard:
            for index in range(len(pdf)):
                if progress is not None:
                    progress(index, len(pdf))
                refused = guard.check(index)
                if refused is not None:
                    raise PdfError(name, f"{refused}: not read", index + 1)
                reader.check_count(index + 1, guard.top_level(index))
                read = guard.page(index)  # a dense page, read whole in the guard's child
                doc.pages.append(reader.adopt(*read) if read else reader.page(index))
                doc.pages[-1].checked = guard.seconds.get(index, 0.0)
    except pdfium.PdfiumError as exc:
        doc.close()
        raise PdfError(name, f"unreadable ({_words(exc)})", index + 1) from None
    except BaseException:
        doc.close()
        raise
    if doc.pages and not any(p.chars for p in doc.pages):
        doc.close()
        raise PdfError(
            name,
            "no text layer (a scanned paper?): nothing to read; run OCR on it first "
            "(e.g. ocrmypdf)",
            1,
        )
    for page in doc.pages:
        if not page.chars and page.graphics:
            doc.notes.append(f"page {page.number}: no text layer (a scanned page?)")
    return doc


def _words(exc: Exception) -> str:
    """PDFium's reason without pypdfium2's wording ("Failed to load document (PDFium: Data
    format error)." → "data format error")."""
    text = str(exc)
    inner = text[text.find("PDFium:") + 7 :] if "PDFium:" in text else text
    return inner.strip().rstrip(".)").strip().lower() or "unknown error"


def _fast(function: Any, restype: Any, *argtypes: Any) -> Any:
    """A ctypes function with plain argument types (see the module docstring)."""
    address = ctypes.cast(function, ctypes.c_void_p).value
    assert address is not None
    return ctypes.CFUNCTYPE(restype, *argtypes)(address)


class _Frame:
    """Page space → the top-left coordinates of the page as rendered (crop box, rotation)."""

    def __init__(self, left: float, bottom: float, right: float, top: float, rotation: int):
        self.left, self.bottom, self.right, self.top = left, bottom, right, top
        self.rotation = rotation % 4
        w, h = right - left, top - bottom
        self.width, self.height = (h, w) if self.rotation % 2 else (w, h)

    def box(self, x0: float, y0: float, x1: float, y1: float) -> Box:
        """A page-space box (x0 < x1, y0 < y1 upwards) as a top-left box."""
        r = self.rotation
        if r == 0:
            return (x0 - self.left, self.top - y1, x1 - self.left, self.top - y0)
        if r == 1:  # 90° clockwise: the page's left edge is the top
            return (y0 - self.bottom, x0 - self.left, y1 - self.bottom, x1 - self.left)
        if r == 2:
            return (self.right - x1, y0 - self.bottom, self.right - x0, y1 - self.bottom)
        return (self.top - y1, self.right - x1, self.top - y0, self.right - x0)


class _Reader:
    """Reads the pages of one document; fonts are shared across its pages."""

    def __init__(self, doc: Document) -> None:
        import pypdfium2.raw as pdfium_c

        self.doc = doc
        self.settings = doc.settings
        self.font_ids: dict[int | None, int] = {None: 0}
        vp, c_int, c_float = ctypes.c_void_p, ctypes.c_int, ctypes.c_float
        fp = ctypes.POINTER(c_float)
        self.get_unicode = _fast(pdfium_c.FPDFText_GetUnicode, ctypes.c_uint, vp, c_int)
        self.get_box = _fast(pdfium_c.FPDFText_GetLooseCharBox, c_int, vp, c_int, vp)
        self.get_text_object = _fast(pdfium_c.FPDFText_GetTextObject, vp, vp, c_int)
        self.is_generated = _fast(pdfium_c.FPDFText_IsGenerated, c_int, vp, c_int)
        self.get_font_size = _fast(pdfium_c.FPDFText_GetFontSize, ctypes.c_double, vp, c_int)
        self.get_matrix = _fast(pdfium_c.FPDFText_GetMatrix, c_int, vp, c_int, vp)
        self.char_matrix = pdfium_c.FS_MATRIX()
        self.get_font = _fast(pdfium_c.FPDFTextObj_GetFont, vp, vp)
        self.obj_type = _fast(pdfium_c.FPDFPageObj_GetType, c_int, vp)
        self.obj_bounds = _fast(pdfium_c.FPDFPageObj_GetBounds, c_int, vp, fp, fp, fp, fp)
        self.draw_mode = _fast(
            pdfium_c.FPDFPath_GetDrawMode, c_int, vp, ctypes.POINTER(c_int), ctypes.POINTER(c_int)
        )
        up = ctypes.POINTER(ctypes.c_uint)
        self.fill_color = _fast(pdfium_c.FPDFPageObj_GetFillColor, c_int, vp, up, up, up, up)
        self.stroke_color = _fast(pdfium_c.FPDFPageObj_GetStrokeColor, c_int, vp, up, up, up, up)
        self.clip_path = _fast(pdfium_c.FPDFPageObj_GetClipPath, vp, vp)
        self.form_count = _fast(pdfium_c.FPDFFormObj_CountObjects, c_int, vp)
        self.form_object = _fast(pdfium_c.FPDFFormObj_GetObject, vp, vp, ctypes.c_ulong)
        self.page_object = _fast(pdfium_c.FPDFPage_GetObject, vp, vp, c_int)
        #: the file names a pattern (in an uncompressed object: Quartz writes no object
        #: streams): paths whose paint reads as white are checked against the render
        self.patterns = False
        #: such paths of the page being read (top-left boxes)
        self.white: list[Box] = []
        self.objects = _Objects()
        #: the text objects of the page being read whose glyphs the text layer holds
        self.text_objects: set[int] = set()

    # -- one page -------------------------------------------------------------------------

    def page(self, index: int) -> PageContent:
        page = self.doc.pdf[index]
        try:
            return self.read_loaded(page, index)
        finally:
            page.close()

    def dense_page(self, page: Any, index: int) -> tuple[PageContent, dict[int, FontStyle]]:
        """Page ``index`` read in the guard's child (see guard.py) with the fonts its glyphs
        use, for :meth:`adopt` in the reader."""
        out = self.read_loaded(page, index)
        return out, {ch.font: self.doc.fonts[ch.font] for ch in out.chars}

    def adopt(self, out: PageContent, fonts: dict[int, FontStyle]) -> PageContent:
        """A page :meth:`dense_page` read in the child, its glyphs' fonts in this document's
        table (a font is known here by its style: the child's handles are its own)."""
        ids = {style: i for i, style in enumerate(self.doc.fonts)}
        remap: dict[int, int] = {}
        for child_id, style in fonts.items():
            if style not in ids:
                ids[style] = len(self.doc.fonts)
                self.doc.fonts.append(style)
            remap[child_id] = ids[style]
        for ch in out.chars:
            ch.font = remap[ch.font]
        return out

    def read_loaded(self, page: Any, index: int) -> PageContent:
        """Page ``index``, loaded (a pypdfium2 page; the caller closes it)."""
        import pypdfium2.raw as pdfium_c

        s = self.settings
        rect = pdfium_c.FS_RECTF()
        if pdfium_c.FPDF_GetPageBoundingBox(page.raw, ctypes.byref(rect)):
            visible = (rect.left, rect.bottom, rect.right, rect.top)
        else:
            w, h = page.get_size()
            visible = (0.0, 0.0, w, h)
        frame = _Frame(*visible, pdfium_c.FPDFPage_GetRotation(page.raw))
        if max(frame.width, frame.height) > s.max_page_side:
            raise PdfError(
                self.doc.name,
                f"{frame.width:.0f} × {frame.height:.0f} pt, larger than the "
                f"{s.max_page_side:,.0f} pt a PDF page may be: not read",
                index + 1,
            )
        out = PageContent(index + 1, frame.width, frame.height, [])
        rotated: list[Graphic] = []
        textpage = page.get_textpage()
        try:
            out.chars = self._chars(textpage.raw, frame, rotated, out.turned)
        finally:
            textpage.close()
        top_level = pdfium_c.FPDFPage_CountObjects(page.raw)
        self.white = []
        graphics = None if top_level > s.ink_objects else self._graphics(page.raw, frame, out)
        if graphics is not None and self.white:
            graphics.extend(_inked(page, self.white, s))
        if graphics is None:
            out.objects = max(out.objects, top_level)
            self._check_objects(out)
            from .ink import ink_graphics

            out.ink = True
            graphics, out.image = ink_graphics(page, out.chars, s)
        out.graphics = graphics
        out.graphics.extend(rotated)
        return out

    def _check_objects(self, page: PageContent) -> None:
        self.check_count(page.number, page.objects)

    def check_count(self, number: int, objects: int) -> None:
        """Refuse page ``number`` when it has more than ``max_page_objects`` objects."""
        limit = self.settings.max_page_objects
        if objects > limit:
            raise PdfError(
                self.doc.name,
                f"{objects:,} drawing objects, more than the {limit:,} a page may have: not read",
                number,
            )

    # -- glyphs ---------------------------------------------------------------------------

    def _font_style(self, font: Any) -> FontStyle:
        import pypdfium2.raw as pdfium_c

        handle = ctypes.cast(font, pdfium_c.FPDF_FONT)
        buf = ctypes.create_string_buffer(256)
        n = pdfium_c.FPDFFont_GetBaseFontName(handle, buf, 256)
        name = buf.value.decode("latin-1", "replace") if n else ""
        name = name.split("+", 1)[-1]  # subset prefix ABCDEF+
        weight = pdfium_c.FPDFFont_GetWeight(handle)
        flags = pdfium_c.FPDFFont_GetFlags(handle)
        lowered = name.lower()
        italic = bool(flags & _ITALIC) or bool(_ITALIC_NAME_RE.search(lowered))
        mono = bool(flags & _FIXED_PITCH) or any(k in lowered for k in _MONO_WORDS)
        return FontStyle(name, weight if weight > 0 else 400, italic, mono)

    def _font_id(self, obj: int | None) -> int:
        font = self.get_font(obj) if obj else None
        fid = self.font_ids.get(font)
        if fid is None:
            style = self._font_style(font) if font else FontStyle("")
            fid = self.font_ids[font] = len(self.doc.fonts)
            self.doc.fonts.append(style)
        return fid

    def _size(self, textpage: int | None, index: int) -> float:
        """The size glyph ``index`` is drawn at: the font size times the vertical scale of
        the glyph's matrix (text matrix, ``cm`` and forms' matrices composed). Some
        typesetters set a whole paper in a 1-pt font scaled by the text matrix (InDesign for
        USENIX, Elsevier's and ACM's journal pipelines): the font size alone says 1.0 there,
        and PDFium's FPDFTextObj_GetFontSize does too (it leaves the matrix out)."""
        size = self.get_font_size(textpage, index)
        m = self.char_matrix
        if self.get_matrix(textpage, index, ctypes.byref(m)):
            # The length of the image of the glyph space's unit upright vector: the glyph's
            # height whatever the rotation, shear or horizontal squeeze.
            scale = math.hypot(m.c, m.d)
            if scale > 0:
                size *= scale
        return round(size, 2) or 1.0

    def _chars(
        self, textpage: Any, frame: _Frame, rotated: list[Graphic], turned: list[Turned]
    ) -> list[Char]:
        """The page's upright glyphs; those at an angle go to ``rotated`` as graphics and,
        with their text and angle, to ``turned``."""
        import pypdfium2.raw as pdfium_c

        handle = ctypes.cast(textpage, ctypes.c_void_p).value
        count = pdfium_c.FPDFText_CountChars(textpage)
        rect = pdfium_c.FS_RECTF()
        rect_ref = ctypes.byref(rect)
        get_unicode, get_box, is_generated = self.get_unicode, self.get_box, self.is_generated
        get_object = self.get_text_object
        # Upright on the page as rendered: the angle of the page's rotation.
        upright = (-frame.rotation * math.pi / 2) % (2 * math.pi)
        tolerance = self.settings.upright_tolerance
        objects: dict[int | None, tuple[int, float] | None] = {}
        angles: dict[int | None, tuple[float, int]] = {}
        unseen: tuple[int, float] | None = (-1, 0.0)  # a sentinel: not looked up yet
        chars: list[Char] = []
        append = chars.append
        simple = frame.rotation == 0
        left, top = frame.left, frame.top
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
                angle = pdfium_c.FPDFText_GetCharAngle(textpage, i)
                turn = abs(angle - upright) % (2 * math.pi)
                if min(turn, 2 * math.pi - turn) < tolerance:
                    info = (self._font_id(key), self._size(handle, i))
                objects[key] = info
                if info is None:
                    angles[key] = ((angle - upright) % (2 * math.pi), self._font_id(key))
            get_box(handle, i, rect_ref)
            if simple:
                box = (rect.left - left, top - rect.top, rect.right - left, top - rect.bottom)
            else:
                box = frame.box(rect.left, rect.bottom, rect.right, rect.top)
            if info is None:
                rotated.append(Graphic(box, "text"))
                if 0 < code < 0xD800:
                    turned.append(Turned(chr(code), box, *angles[key]))
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
            append(Char(text, *box, info[1], info[0], space, generated))
            space = generated = False
        self.text_objects = {key for key in objects if key}
        for ch in chars:  # a high half without its low half
            if 0xD800 <= ord(ch.text[0]) < 0xDC00:
                ch.text = "\ufffd"
        return chars

    # -- graphics -------------------------------------------------------------------------

    def _graphics(self, page: Any, frame: _Frame, out_page: PageContent) -> list[Graphic] | None:
        """Images, shadings and visible paths, forms opened at any depth (iteratively); None
        when the page holds more than ``settings.ink_objects`` objects (counted as the forms
        are opened, before their contents are walked)."""
        import pypdfium2.raw as pdfium_c

        s = self.settings
        out: list[Graphic] = []
        fl, fb, fr, ft = (ctypes.c_float() for _ in range(4))
        bounds = (ctypes.byref(fl), ctypes.byref(fb), ctypes.byref(fr), ctypes.byref(ft))
        page_handle = ctypes.cast(page, ctypes.c_void_p).value
        # (object, matrix into page space or None for page level, depth)
        top_level = pdfium_c.FPDFPage_CountObjects(page)
        stack: list[tuple[int, Matrix | None, int]] = [
            (self.page_object(page_handle, k), None, 0) for k in reversed(range(top_level))
        ]
        out_page.objects = top_level
        while stack:
            obj, matrix, depth = stack.pop()
            if not obj:
                continue
            kind = self.obj_type(obj)
            if kind == _FORM:
                if depth + 1 >= s.max_form_depth:
                    raise PdfError(
                        self.doc.name,
                        f"forms nested {depth + 1} deep or more (PDFium draws nothing past 40; "
                        "papers nest two or three): not read",
                        out_page.number,
                    )
                own = self.objects.matrix(obj)
                inner = own if matrix is None else compose(own, matrix)
                n = self.form_count(obj)
                out_page.objects += n
                self._check_objects(out_page)
                if out_page.objects > s.ink_objects:
                    return None
                stack.extend(
                    (self.form_object(obj, j), inner, depth + 1) for j in reversed(range(n))
                )
                continue
            if kind == _TEXT and obj in self.text_objects:
                continue  # its glyphs are in the text layer
            if kind not in (_PATH, _IMAGE, _SHADING, _TEXT):
                continue
            paint = self._paint(obj) if kind == _PATH else True
            if paint is False or (paint is None and not self.patterns):
                continue
            if not self.obj_bounds(obj, *bounds):
                continue
            x0, y0, x1, y1 = fl.value, fb.value, fr.value, ft.value
            # What shows of an object is what its clipping path lets through (a plot's bars
            # and lines are clipped to its axes; an embedded figure to its bounding box).
            shown = self.objects.clip_bounds(obj)
            if shown is not None:
                x0, y0 = max(x0, shown[0]), max(y0, shown[1])
                x1, y1 = min(x1, shown[2]), min(y1, shown[3])
                if x1 <= x0 or y1 <= y0:
                    continue
            if matrix is not None:
                x0, y0, x1, y1 = transform(matrix, (x0, y0, x1, y1))
            box = frame.box(x0, y0, x1, y1)
            box = (
                max(0.0, box[0]),
                max(0.0, box[1]),
                min(frame.width, box[2]),
                min(frame.height, box[3]),
            )
            if box[2] < box[0] or box[3] < box[1]:
                continue
            # Text drawn that the text layer does not hold (the pieces of a large bracket, a
            # Type 3 drawing): ink of the page all the same.
            if paint is None:
                self.white.append(box)  # a pattern's paint, or white: the render tells
                continue
            out.append(
                Graphic(
                    box, {_IMAGE: "image", _SHADING: "shading", _TEXT: "text"}.get(kind, "path")
                )
            )
        return out

    def _paint(self, obj: int) -> bool | None:
        """True when a path shows: its fill or its stroke is neither white nor transparent
        (white backgrounds, a plot's figure patch, and clipping paths do not); None when it
        reads as opaque white, which a pattern's paint does too (PDFium gives no colour for
        a gradient or a tile: macOS Quartz re-encodes a figure's shadings and transparency
        as patterns); False when it shows nothing."""
        fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
        if not self.draw_mode(obj, ctypes.byref(fill_mode), ctypes.byref(stroke)):
            return False
        rgba = [ctypes.c_uint() for _ in range(4)]
        refs = [ctypes.byref(c) for c in rgba]
        white = False
        for painted, colour in (
            (fill_mode.value, self.fill_color),
            (stroke.value, self.stroke_color),
        ):
            if painted and colour(obj, *refs):
                if self._visible(rgba):
                    return True
                white |= rgba[3].value == _OPAQUE and min(c.value for c in rgba[:3]) == _OPAQUE
        return None if white else False

    def _visible(self, rgba: list[ctypes.c_uint]) -> bool:
        return rgba[3].value > 0 and min(c.value for c in rgba[:3]) < self.settings.white_level


#: PDFium's channel value of opaque white.
_OPAQUE = 255


def _inked(page: Any, boxes: Sequence[Box], s: Settings) -> list[Graphic]:
    """The ``boxes`` of paths whose paint read as white that the page renders inked over
    ``pattern_ink_share`` of their area (a pattern's paint), at ``pattern_dpi``: one render
    of their union."""
    from .ink import render_gray

    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    scale = s.pattern_dpi / 72
    image = render_gray(page, scale, (x0, y0, x1, y1))
    out = []
    for b in boxes:
        crop = (
            int((b[0] - x0) * scale),
            int((b[1] - y0) * scale),
            max(int((b[0] - x0) * scale) + 1, round((b[2] - x0) * scale)),
            max(int((b[1] - y0) * scale) + 1, round((b[3] - y0) * scale)),
        )
        # A pattern paints its whole shape; a white background only lets others' ink show.
        counts = image.crop(crop).histogram()
        if sum(counts[: s.ink_level]) >= s.pattern_ink_share * sum(counts):
            out.append(Graphic(b, "path"))
    return out


#: Points of a clipping path looked at per sub-path (a rectangle has 5; glyph outlines many).
_CLIP_POINTS = 64


class _Objects:
    """PDFium's page-object calls on plain handles (see :func:`_fast`)."""

    def __init__(self) -> None:
        import pypdfium2.raw as pdfium_c

        vp, c_int, fp = ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_float)
        self.get_matrix = _fast(pdfium_c.FPDFPageObj_GetMatrix, c_int, vp, vp)
        self.clip_path = _fast(pdfium_c.FPDFPageObj_GetClipPath, vp, vp)
        self.count_paths = _fast(pdfium_c.FPDFClipPath_CountPaths, c_int, vp)
        self.count_segments = _fast(pdfium_c.FPDFClipPath_CountPathSegments, c_int, vp, c_int)
        self.segment = _fast(pdfium_c.FPDFClipPath_GetPathSegment, vp, vp, c_int, c_int)
        self.point = _fast(pdfium_c.FPDFPathSegment_GetPoint, c_int, vp, fp, fp)
        self.m = pdfium_c.FS_MATRIX()
        self.x, self.y = ctypes.c_float(), ctypes.c_float()

    def matrix(self, obj: int) -> Matrix:
        m = self.m
        if not self.get_matrix(obj, ctypes.byref(m)):
            return IDENTITY
        return (m.a, m.b, m.c, m.d, m.e, m.f)

    def clip_bounds(self, obj: int) -> Box | None:
        """The box a clipping path lets through (its sub-paths intersect), in the object's
        own coordinates; None without one."""
        clip = self.clip_path(obj)
        if not clip:
            return None
        x, y = self.x, self.y
        xr, yr = ctypes.byref(x), ctypes.byref(y)
        shown: Box | None = None
        for i in range(self.count_paths(clip)):
            xs: list[float] = []
            ys: list[float] = []
            for j in range(min(self.count_segments(clip, i), _CLIP_POINTS)):
                segment = self.segment(clip, i, j)
                if segment and self.point(segment, xr, yr):
                    xs.append(x.value)
                    ys.append(y.value)
            if not xs:
                continue
            b = (min(xs), min(ys), max(xs), max(ys))
            shown = (
                b
                if shown is None
                else (
                    max(shown[0], b[0]),
                    max(shown[1], b[1]),
                    min(shown[2], b[2]),
                    min(shown[3], b[3]),
                )
            )
        return shown
