"""Authoring help: source pages with every declared box drawn and labelled, as PNGs."""

from __future__ import annotations

import io
import math
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from ..yamlsafe import MAX_BINARY_BYTES, InputError, read_bytes
from .cache import write_published
from .sources import MAX_PAGE_POINTS, PDF_MAGIC, open_image
from .spec import SPEC_SUFFIX, FigureSpec, Spec


def preview(
    spec: Spec,
    out_dir: Path,
    page: int | None = None,
    dpi: int = 100,
    refused: list[str] | None = None,
) -> list[Path]:
    """Write a PNG per source page (or only ``page``) with every declared box drawn, labelled.

    A page larger than a PDF page may be, whose picture would be over Pillow's
    decompression-bomb limit at ``dpi``, or over the reader's limits (objects, form depth,
    parse time and memory: :func:`_pdf_page`), is not rendered: it is named in ``refused``.
    """
    by_page: dict[tuple[Path, int], list[FigureSpec]] = {}
    for figure in spec.figures:
        by_page.setdefault((figure.source.path, figure.page or 1), []).append(figure)
    if page is not None:
        sources = {f.source.path for f in spec.figures}
        by_page = {
            (s, page): [f for f in spec.figures if f.source.path == s and (f.page or 1) == page]
            for s in sources
        }
    written: list[Path] = []
    out_dir.mkdir(parents=True, exist_ok=True)
    font_size = max(12, dpi // 5)
    font = ImageFont.load_default(size=font_size)
    for (source, number), figures in sorted(by_page.items()):
        try:
            data = read_bytes(source, MAX_BINARY_BYTES)
        except (OSError, InputError) as exc:
            (refused if refused is not None else []).append(f"{source.name}: {exc}")
            continue
        if data.startswith(PDF_MAGIC):
            image = _pdf_page(data, source, number, dpi, refused)
            if image is None:
                continue
            scale = dpi / 72
        elif number == 1:  # an image is a source of one page
            with open_image(data) as im:
                image = im.convert("RGB")
            scale = 1.0
        else:
            continue
        draw = ImageDraw.Draw(image)
        for figure in figures:
            x0, y0, x1, y1 = (v * scale for v in figure.box)
            draw.rectangle((x0, y0, x1, y1), outline=(220, 30, 30), width=3)
            label = f"{figure.label_en}  [{', '.join(f'{v:g}' for v in figure.box)}]"
            tx, ty = x0 + 4, max(0.0, y0 - font_size - 8)
            bbox = draw.textbbox((tx, ty), label, font=font)
            draw.rectangle(bbox, fill=(220, 30, 30))
            draw.text((tx, ty), label, fill="white", font=font)
        name = f"{spec.path.name.removesuffix(SPEC_SUFFIX)}-{source.stem}-p{number:03d}.png"
        target = out_dir / name
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        write_published(target, buffer.getvalue())
        written.append(target)
    return written


def _pdf_page(
    data: bytes, source: Path, number: int, dpi: int, refused: list[str] | None
) -> Image.Image | None:
    """Page ``number`` of the PDF ``data`` rendered at ``dpi``, or None (named in ``refused``
    when it is refused): larger than a PDF page may be, a picture over Pillow's limit, or a
    page the reader refuses, PDFium's parse of it first bounded in a forked child
    (:class:`~duizhao.pdf.guard.PageGuard`; the command runs no threads)."""
    import pypdfium2 as pdfium

    from ..pdf.guard import PageGuard
    from ..pdf.settings import SETTINGS
    from .pdf_crops import page_problem

    notes = refused if refused is not None else []
    pdf = pdfium.PdfDocument(data)
    try:
        if not 1 <= number <= len(pdf):
            return None
        with PageGuard(pdf, SETTINGS, pages=range(number - 1, number)) as guard:
            reason = guard.check(number - 1)
        if reason is not None:
            notes.append(f"{source.name} page {number}: {reason}; not rendered")
            return None
        pdf_page = pdf[number - 1]
        try:
            width, height = pdf_page.get_size()
            pixels = math.ceil(width * dpi / 72) * math.ceil(height * dpi / 72)
            limit = Image.MAX_IMAGE_PIXELS or math.inf
            if not (0 < width <= MAX_PAGE_POINTS and 0 < height <= MAX_PAGE_POINTS) or (
                pixels > limit
            ):
                notes.append(
                    f"{source.name} page {number}: {width:g} × {height:g} points at {dpi} dpi "
                    f"is too large to draw (pages up to {MAX_PAGE_POINTS:g} pt, pictures up to "
                    f"{limit:g} pixels); not rendered"
                )
                return None
            problem = page_problem(pdf_page, SETTINGS)
            if problem is not None:
                notes.append(f"{source.name} page {number}: {problem}")
                return None
            image: Image.Image = pdf_page.render(scale=dpi / 72).to_pil().convert("RGB")
            return image
        finally:
            pdf_page.close()
    finally:
        pdf.close()
