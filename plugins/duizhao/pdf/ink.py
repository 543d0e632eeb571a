"""What a page's render shows: ink boxes for pages of too many objects, a box trimmed to its
ink, and the ink that neither glyphs nor graphics explain (the reader's self-check).

All renders are grey, of the page as PDFium draws it (crop box, rotation; its annotations left
out), at low resolution.
Ink is a pixel darker than ``settings.ink_level``; blots are 8-connected runs of ink,
labelled row by row (runs of one row joined to the runs they touch in the row above).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .geometry import Box, grow
from .settings import Settings


def render_gray(page: Any, scale: float, box: Box | None = None) -> Any:
    """A grey PIL image of ``box`` (the whole page when None) at ``scale`` pixels per point."""
    width, height = page.get_size()
    crop = (0.0, 0.0, 0.0, 0.0)
    if box is not None:
        x0, y0 = max(0.0, box[0]), max(0.0, box[1])
        x1, y1 = min(width, box[2]), min(height, box[3])
        crop = (x0, height - y1, width - x1, y0)
    # Without annotations: highlights and comments lie over a page, they are not its content.
    bitmap = page.render(scale=scale, crop=crop, grayscale=True, draw_annots=False)
    return bitmap.to_pil().convert("L")


def trim_to_ink(page: Any, box: Box, settings: Settings, rendered: Any = None) -> Box:
    """``box`` shrunk to the ink inside it: an image's white margins, a plot's white
    background and invisible objects are no part of what a reader sees as the figure.

    ``rendered``: the whole page already rendered at ``settings.ink_dpi`` (a page read by its
    ink keeps its render: loading it again would cost as much as reading it)."""
    x0, y0 = max(0.0, box[0]), max(0.0, box[1])
    if rendered is not None:
        scale = settings.ink_dpi / 72
        w, h = rendered.size
        crop = (
            int(x0 * scale),
            int(y0 * scale),
            min(w, round(box[2] * scale)),
            min(h, round(box[3] * scale)),
        )
        image = rendered.crop(crop)
        x0, y0 = crop[0] / scale, crop[1] / scale
    else:
        scale = settings.trim_dpi / 72
        image = render_gray(page, scale, box)
    level = settings.ink_level
    ink = image.point(lambda v: 255 if v < level else 0).getbbox()
    if ink is None:
        return box
    pad = settings.trim_pad
    return (
        max(box[0], x0 + ink[0] / scale - pad),
        max(box[1], y0 + ink[1] / scale - pad),
        min(box[2], x0 + ink[2] / scale + pad),
        min(box[3], y0 + ink[3] / scale + pad),
    )


def _mask(image: Any, boxes: Sequence[Box], scale: float, pad: float) -> None:
    """Paint ``boxes`` (grown by ``pad`` points) white on ``image``."""
    from PIL import ImageDraw

    draw = ImageDraw.Draw(image)
    for b in boxes:
        g = grow(b, pad)
        draw.rectangle((g[0] * scale, g[1] * scale, g[2] * scale, g[3] * scale), fill=255)


def blots(image: Any, level: int, scale: float, min_pixels: int = 1) -> list[Box]:
    """Boxes (points) of the 8-connected blots of ink in a grey ``image``."""
    w, h = image.size
    data = image.point(lambda v: 1 if v < level else 0).tobytes()
    parent: list[int] = []
    boxes: list[list[int]] = []  # x0, y0, x1, y1 (pixels, inclusive) and the pixel count
    prev: list[tuple[int, int, int]] = []  # runs of the row above: (start, end, label)

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for y in range(h):
        row = data[y * w : (y + 1) * w]
        runs: list[tuple[int, int, int]] = []
        x = row.find(1)
        k = 0
        while x != -1:
            end = row.find(0, x)
            end = w if end == -1 else end
            label = -1
            while k < len(prev) and prev[k][1] < x:  # runs above that end left of this one
                k += 1
            j = k
            while j < len(prev) and prev[j][0] <= end:  # 8-connected: touching diagonally
                other = find(prev[j][2])
                if label == -1:
                    label = other
                elif other != label:
                    parent[other] = label
                    a, b = boxes[label], boxes[other]
                    a[0], a[1], a[2], a[3] = (
                        min(a[0], b[0]),
                        min(a[1], b[1]),
                        max(a[2], b[2]),
                        max(a[3], b[3]),
                    )
                    a[4] += b[4]
                j += 1
            if label == -1:
                label = len(parent)
                parent.append(label)
                boxes.append([x, y, end - 1, y, 0])
            b = boxes[label]
            b[0], b[2], b[3] = min(b[0], x), max(b[2], end - 1), y
            b[4] += end - x
            runs.append((x, end, label))
            x = row.find(1, end)
        prev = runs
    out = []
    for i in range(len(parent)):
        if find(i) == i and boxes[i][4] >= min_pixels:
            x0, y0, x1, y1, _n = boxes[i]
            out.append((x0 / scale, y0 / scale, (x1 + 1) / scale, (y1 + 1) / scale))
    return out


def ink_graphics(page: Any, chars: Sequence[Any], settings: Settings) -> tuple[list[Any], Any]:
    """The graphics of a page read by its rendered ink: the blots left when the glyphs are
    painted out, each a :class:`~.read.Graphic` of kind ``ink``; and the render."""
    from .read import Graphic

    scale = settings.ink_dpi / 72
    image = render_gray(page, scale)
    masked = image.copy()
    _mask(masked, [(c.x0, c.y0, c.x1, c.y1) for c in chars], scale, settings.glyph_pad)
    return [Graphic(b, "ink") for b in blots(masked, settings.ink_level, scale)], image


def unexplained_ink(page: Any, content: Any, settings: Settings) -> list[Box]:
    """Blots of ink on the rendered ``page`` that no glyph and no graphic of ``content`` (its
    :class:`~.read.PageContent`) covers: what the reader missed."""
    scale = settings.check_dpi / 72
    image = render_gray(page, scale)
    boxes = [(c.x0, c.y0, c.x1, c.y1) for c in content.chars]
    _mask(image, boxes, scale, settings.glyph_pad)
    _mask(image, [g.box for g in content.graphics], scale, settings.graphic_pad)
    return blots(image, settings.ink_level, scale, settings.check_min_pixels)
