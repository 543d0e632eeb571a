"""Write examples/demo/papers/figures-demo.pdf: a small vector "paper" for the figures demo.

    python scripts/make_demo_paper.py [OUT]

The PDF is written by hand (a few hundred bytes of drawing operators per page, the standard
Helvetica font, no embedded images), so it is small, deterministic and reviewable as text. The
committed copy must equal this script's output (a test checks it); change both together.

Figure boxes, in points from the top-left of each US Letter page (612 × 792), are in FIGURES;
examples/demo/docs/figures-demo.figures.yml declares the same boxes.
"""

from __future__ import annotations

import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "examples" / "demo" / "papers" / "figures-demo.pdf"
W, H = 612, 792

#: figure id → (page, box x0, y0, x1, y1 from the top-left, in points)
FIGURES: dict[int, tuple[int, tuple[int, int, int, int]]] = {
    1: (1, (72, 250, 540, 500)),
    2: (2, (72, 80, 300, 330)),
    3: (2, (312, 80, 540, 330)),
    4: (3, (72, 96, 540, 420)),
}

BLUE, ORANGE, GREEN, RED, GREY = (
    (0.12, 0.47, 0.71),
    (1.0, 0.5, 0.05),
    (0.17, 0.63, 0.17),
    (0.84, 0.15, 0.16),
    (0.5, 0.5, 0.5),
)


class Canvas:
    """PDF drawing operators with y measured from the top of the page, as the boxes are."""

    def __init__(self) -> None:
        self.ops: list[str] = []

    def color(self, rgb: tuple[float, float, float], stroke: bool = False) -> None:
        self.ops.append(" ".join(f"{c:.3f}" for c in rgb) + (" RG" if stroke else " rg"))

    def rect(self, x: float, y: float, w: float, h: float, fill: bool = True) -> None:
        self.ops.append(f"{x:.2f} {H - y - h:.2f} {w:.2f} {h:.2f} re {'f' if fill else 'S'}")

    def line(self, x0: float, y0: float, x1: float, y1: float, width: float = 1) -> None:
        self.ops.append(f"{width:.2f} w {x0:.2f} {H - y0:.2f} m {x1:.2f} {H - y1:.2f} l S")

    def polyline(self, points: list[tuple[float, float]], width: float = 1.5) -> None:
        first, *rest = points
        path = f"{first[0]:.2f} {H - first[1]:.2f} m " + " ".join(
            f"{x:.2f} {H - y:.2f} l" for x, y in rest
        )
        self.ops.append(f"{width:.2f} w {path} S")

    def text(self, x: float, y: float, s: str, size: float = 10, bold: bool = False) -> None:
        s = s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        font = "/F2" if bold else "/F1"
        self.ops.append(f"BT {font} {size:g} Tf {x:.2f} {H - y - size:.2f} Td ({s}) Tj ET")

    def arrow(self, x0: float, y: float, x1: float) -> None:
        self.line(x0, y, x1 - 6, y, 1.2)
        self.ops.append(
            f"{x1:.2f} {H - y:.2f} m {x1 - 7:.2f} {H - y + 3.5:.2f} l "
            f"{x1 - 7:.2f} {H - y - 3.5:.2f} l f"
        )


def body_text(c: Canvas, top: float, lines: int) -> None:
    words = (
        "Serving large mixture-of-experts models on a SuperPod is a systems problem: who "
        "computes, who moves data, where the state lives and what each step waits for."
    )
    c.color((0.15, 0.15, 0.15))
    for i in range(lines):
        c.text(72, top + i * 14, words[(i * 7) % 40 :][:88], 9.5)


def caption(c: Canvas, x: float, y: float, label: str, text: str) -> None:
    c.color((0, 0, 0))
    c.text(x, y, label, 9, bold=True)
    c.text(x + 6.2 * len(label), y, text, 9)


def page1(c: Canvas) -> None:
    c.color((0, 0, 0))
    c.text(72, 72, "A Demo Paper for duizhao Figures", 18, bold=True)
    c.text(72, 100, "Anonymous Authors", 11)
    body_text(c, 130, 8)
    # Figure 1: an architecture diagram (boxes, arrows, labels) in the box (72, 250)-(540, 500).
    stages = [("Router", BLUE), ("Prefill pool", ORANGE), ("Decode pool", GREEN)]
    for i, (name, rgb) in enumerate(stages):
        x = 96 + i * 150
        c.color(rgb)
        c.rect(x, 290, 110, 60)
        c.color((1, 1, 1))
        c.text(x + 12, 312, name, 11, bold=True)
        if i:
            c.color((0, 0, 0))
            c.color((0, 0, 0), stroke=True)
            c.arrow(x - 40, 320, x)
    c.color((0.92, 0.92, 0.92))
    c.rect(96, 380, 410, 50)
    c.color((0, 0, 0))
    c.text(110, 398, "KV cache pool (shared over the SuperPod interconnect)", 10)
    c.color(GREY, stroke=True)
    for x in (151, 301, 451):
        c.line(x, 350, x, 380, 1)
    caption(c, 96, 460, "Figure 1:", "Overview of the demo serving system.")
    body_text(c, 520, 14)


def bar_chart(c: Canvas, x0: float, y0: float, values: list[float], label: str) -> None:
    c.color((0, 0, 0), stroke=True)
    c.line(x0 + 24, y0 + 20, x0 + 24, y0 + 200, 1)
    c.line(x0 + 24, y0 + 200, x0 + 214, y0 + 200, 1)
    for i, v in enumerate(values):
        c.color((BLUE, ORANGE, GREEN, RED)[i % 4])
        c.rect(x0 + 36 + i * 34, y0 + 200 - v * 170, 22, v * 170)
        c.color((0, 0, 0))
        c.text(x0 + 38 + i * 34, y0 + 204, f"B{i + 1}", 8)
    c.text(x0 + 2, y0 + 4, label, 8)


def page2(c: Canvas) -> None:
    bar_chart(c, 72, 80, [0.35, 0.6, 0.8, 0.55, 0.95], "tokens/s (normalised)")
    caption(c, 80, 306, "Figure 2:", "Throughput per batch size.")
    # Figure 3: latency curves.
    c.color((0, 0, 0), stroke=True)
    c.line(336, 100, 336, 280, 1)
    c.line(336, 280, 530, 280, 1)
    for rgb, shift in ((BLUE, 0), (RED, 40)):
        c.color(rgb, stroke=True)
        c.polyline([(336 + i * 19, 270 - shift - (i * i) * 1.4) for i in range(11)], 2)
    c.color((0, 0, 0))
    c.text(314, 84, "p99 latency (ms)", 8)
    caption(c, 320, 306, "Figure 3:", "Tail latency under load.")
    body_text(c, 360, 26)


def page3(c: Canvas) -> None:
    # Figure 4: a heat map of expert load, 12 × 8 cells with a colour ramp.
    for row in range(8):
        for col in range(12):
            v = ((row * 5 + col * 3) % 11) / 10
            c.color((1 - 0.8 * v, 1 - 0.5 * v, 1 - 0.1 * v))
            c.rect(96 + col * 34, 110 + row * 30, 32, 28)
    c.color((0, 0, 0))
    for col in range(12):
        c.text(104 + col * 34, 354, f"E{col}", 8)
    caption(c, 96, 380, "Figure 4:", "Expert load per layer (darker is busier).")
    body_text(c, 440, 20)


def pdf_bytes() -> bytes:
    pages = []
    for draw in (page1, page2, page3):
        canvas = Canvas()
        draw(canvas)
        pages.append("\n".join(canvas.ops).encode("ascii"))
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"",  # the page tree, filled in below
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>",
    ]
    kids = []
    for content in pages:
        stream = zlib.compress(content, 9)
        objects.append(
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream)
            + stream
            + b"\nendstream"
        )
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents %d 0 R "
            b"/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> >>" % (W, H, len(objects))
        )
        kids.append(b"%d 0 R" % len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), len(kids))
    out = bytearray(b"%PDF-1.4\n%\xe5\xaf\xb9\xe7\x85\xa7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def main(argv: list[str]) -> None:
    out = Path(argv[0]) if argv else OUT
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(pdf_bytes())
    print(out)


if __name__ == "__main__":
    main(sys.argv[1:])
