"""A contact sheet of detected figures: one self-contained HTML file to check them at a glance.

Every page as a thumbnail with the detected boxes drawn (red: figure, blue: table; the caption
boxes thin), then every crop beside its label and caption. Images are embedded as ``data:``
URIs (WebP), so the file can be opened, mailed or archived on its own. Text from the PDF
reaches the HTML only through :func:`markupsafe.escape`.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Callable, Sequence
from pathlib import Path

from markupsafe import Markup, escape
from PIL import Image, ImageDraw

from .crops import crop_size, render_box
from .detect import DetectedFigure

THUMB_DPI = 50
CROP_DPI = 110
COLORS = {"figure": (215, 40, 40), "table": (30, 90, 200)}

_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:1.5rem;color:#222;background:#fafafa}
h1{font-size:1.3rem}h2{font-size:1.1rem;margin-top:2rem}
.pages{display:flex;flex-wrap:wrap;gap:12px}
.pages figure{margin:0;background:#fff;box-shadow:0 1px 3px #0003}
.pages figcaption{text-align:center;font-size:12px;color:#555;padding:2px}
.crop{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem;
 background:#fff;padding:1rem;margin:1rem 0;box-shadow:0 1px 3px #0003}
.crop img{max-width:100%;height:auto;border:1px solid #ddd}
.label{font-weight:600}.figure .label{color:#c22}.table .label{color:#1e5ac8}
.meta{color:#666;font-size:12px;font-family:ui-monospace,monospace}
.missing{color:#a60}
"""


def _data_uri(im: Image.Image) -> str:
    buffer = io.BytesIO()
    im.convert("RGB").save(buffer, format="WEBP", quality=70, method=3)
    return "data:image/webp;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def review_html(
    pdf_path: Path,
    found: Sequence[DetectedFigure],
    progress: Callable[[int, int], None] | None = None,
) -> str:
    """The contact sheet of ``found`` (detected in ``pdf_path``)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(pdf_path.read_bytes())
    try:
        count = len(pdf)
        thumbs: list[Markup] = []
        crops: list[Markup] = []
        for index in range(count):
            if progress is not None:
                progress(index, count)
            page = pdf[index]
            try:
                here = [f for f in found if f.page == index + 1]
                thumbs.append(_thumbnail(page, index + 1, here))
                for f in here:
                    crops.append(_crop(page, f))
            finally:
                page.close()
    finally:
        pdf.close()
    figures = sum(f.kind == "figure" for f in found)
    tables = len(found) - figures
    title = escape(f"{pdf_path.name}: {count_of(figures, 'figure')}, {count_of(tables, 'table')}")
    parts = [
        Markup('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'),
        Markup("<title>") + title + Markup("</title><style>") + Markup(_STYLE),
        Markup("</style></head><body><h1>") + title + Markup("</h1>"),
        Markup(_gaps(found)),
        Markup('<h2>Pages</h2><div class="pages">'),
        *thumbs,
        Markup("</div><h2>Crops</h2>"),
        *crops,
        Markup("</body></html>\n"),
    ]
    return str(Markup("\n").join(parts))


def _thumbnail(page: object, number: int, here: Sequence[DetectedFigure]) -> Markup:
    scale = THUMB_DPI / 72
    im = page.render(scale=scale).to_pil().convert("RGB")  # type: ignore[attr-defined]
    draw = ImageDraw.Draw(im)
    for f in here:
        color = COLORS.get(f.kind, COLORS["figure"])
        draw.rectangle([v * scale for v in f.box], outline=color, width=2)
        draw.rectangle([v * scale for v in f.caption_box], outline=color, width=1)
        draw.text((f.box[0] * scale + 2, f.box[1] * scale + 1), f.label, fill=color)
    return Markup(
        '<figure><img src="{}" width="{}" height="{}" alt="{}"><figcaption>{}</figcaption></figure>'
    ).format(_data_uri(im), im.width, im.height, f"page {number}", f"page {number}")


def _crop(page: object, f: DetectedFigure) -> Markup:
    width, height = crop_size("pdf", f.box, CROP_DPI)
    im = render_box(page, f.box, CROP_DPI, width, height)
    box = ", ".join(f"{v:g}" for v in f.box)
    return Markup(
        '<section class="crop {}" id="{}"><img src="{}" width="{}" height="{}" alt="{}">'
        '<div><p><span class="label">{}</span> {}</p>'
        '<p class="meta">page {} · box [{}]</p></div></section>'
    ).format(
        f.kind,
        f"{f.kind}-{f.number}",
        _data_uri(im),
        width,
        height,
        f.label,
        f.label,
        f.caption or "(no caption text)",
        f.page,
        box,
    )


def _gaps(found: Sequence[DetectedFigure]) -> str:
    """A warning naming figure or table numbers missing from the sequence found."""
    notes = []
    for kind in ("figure", "table"):
        missing = missing_numbers([f.number for f in found if f.kind == kind])
        if missing:
            notes.append(f"{kind} {missing} not found")
    if not notes:
        return ""
    return str(
        Markup('<p class="missing">{}; look for them on the pages below.</p>').format(
            "; ".join(notes)
        )
    )


def count_of(n: int, noun: str) -> str:
    """``3 figures``, ``1 table``."""
    return f"{n} {noun}{'s' * (n != 1)}"


def missing_numbers(numbers: Sequence[int]) -> str:
    """Numbers below the highest found that were not found (1 … max), as runs ("2-4, 7"): a
    caption's number comes from the paper, so the gap is never enumerated."""
    from .catalog import absent_runs

    have = sorted(set(numbers))
    if not have:
        return ""
    runs = absent_runs(have, 1, have[-1] - 1)
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)
