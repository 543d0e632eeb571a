"""Figure sources made by the tests themselves: PDFs and images drawn with Pillow."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

from PIL import Image, ImageDraw

#: The colour of the rectangle drawn on each page (page 1 red, page 2 blue, …).
PAGE_COLORS = [(220, 30, 30), (30, 30, 220), (30, 160, 30), (200, 160, 0)]
#: Where that rectangle sits on every page, in points from the top-left (Letter pages).
RECT = (72, 96, 540, 380)
PAGE = (612, 792)


def page_image(number: int, size: tuple[int, int] = PAGE, scale: float = 1.0) -> Image.Image:
    im = Image.new("RGB", (round(size[0] * scale), round(size[1] * scale)), "white")
    draw = ImageDraw.Draw(im)
    draw.rectangle([round(v * scale) for v in RECT], fill=PAGE_COLORS[(number - 1) % 4])
    draw.text((80 * scale, 110 * scale), f"page {number}", fill="black")
    return im


def make_pdf(path: Path, pages: int = 3) -> Path:
    """A ``pages``-page Letter PDF (1 px = 1 pt) with a coloured rectangle at RECT."""
    path.parent.mkdir(parents=True, exist_ok=True)
    images = [page_image(n) for n in range(1, pages + 1)]
    images[0].save(path, "PDF", save_all=True, append_images=images[1:], resolution=72)
    return path


def make_png(path: Path, size: tuple[int, int] = (800, 600)) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    im = Image.new("RGB", size, "white")
    ImageDraw.Draw(im).rectangle([100, 50, 500, 350], fill=PAGE_COLORS[2])
    im.save(path, "PNG")
    return path


def png_bytes(size: tuple[int, int] = (64, 48)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, (10, 20, 30)).save(buffer, "PNG")
    return buffer.getvalue()


def bomb_png(width: int = 100_000, height: int = 100_000) -> bytes:
    """A tiny PNG whose header claims ``width`` × ``height`` pixels (a decompression bomb)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 16))
        + chunk(b"IEND", b"")
    )
