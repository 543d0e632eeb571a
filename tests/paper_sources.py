"""Two-column papers made by the tests, with the true box of every figure and table.

Written as raw PDF operators (the style of scripts/make_demo_paper.py): Courier for body text
and figure text, so every text width is exact (0.6 em a character) and the true boxes are
known to a fraction of a point. Each paper holds a vector figure, a raster figure, a
two-column-spanning multi-panel figure with (a)/(b) sub-captions, a ruled table, an unruled
table, captions of several lines, a table captioned above and one below, running heads,
folios, a body line that starts with "Figure 3 shows" (a reference, not a caption) and an
appendix page set in one column.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from pathlib import Path

from bench import rawpdf

W, H = 612.0, 792.0
LEFT = (54.0, 297.0)
RIGHT = (315.0, 558.0)
BODY = 10.0
LEAD = 12.0
CHAR = 0.6  # Courier's advance, in em

Box = tuple[float, float, float, float]

_TEXT = (
    "serving large models is a systems problem who computes who moves data where the "
    "state lives and what each step waits for under load the cache grows and the batch "
    "shrinks so the scheduler must trade latency for throughput at every step of decoding"
)
#: Body text, a word at a time.
WORDS = _TEXT.split()


@dataclass
class Truth:
    page: int
    kind: str
    label: str
    number: int
    caption: str
    box: Box


@dataclass
class Canvas:
    ops: list[str] = field(default_factory=list)
    images: list[bytes] = field(default_factory=list)

    def color(self, rgb: tuple[float, float, float]) -> None:
        self.ops.append(" ".join(f"{c:.3f}" for c in rgb) + " rg")
        self.ops.append(" ".join(f"{c:.3f}" for c in rgb) + " RG")

    def rect(self, x0: float, y0: float, x1: float, y1: float) -> Box:
        self.ops.append(f"{x0:.2f} {H - y1:.2f} {x1 - x0:.2f} {y1 - y0:.2f} re f")
        return (x0, y0, x1, y1)

    def rule(self, x0: float, x1: float, y: float, width: float = 0.6) -> Box:
        return self.rect(x0, y - width / 2, x1, y + width / 2)

    def text(self, x: float, baseline: float, s: str, size: float, font: str = "F1") -> Box:
        s = s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        self.ops.append(f"BT /{font} {size:g} Tf {x:.2f} {H - baseline:.2f} Td ({s}) Tj ET")
        return (x, baseline - 0.72 * size, x + CHAR * size * len(s), baseline + 0.22 * size)

    def image(self, x0: float, y0: float, x1: float, y1: float, seed: int) -> Box:
        w, h = 48, 32
        pixels = bytearray()
        for j in range(h):
            for i in range(w):
                pixels += bytes(((i * 5 + seed * 40) % 256, (j * 7) % 256, (i * j + seed) % 256))
        self.images.append(pixels)
        name = f"Im{len(self.images)}"
        self.ops.append(f"q {x1 - x0:.2f} 0 0 {y1 - y0:.2f} {x0:.2f} {H - y1:.2f} cm /{name} Do Q")
        return (x0, y0, x1, y1)


def union(boxes: list[Box]) -> Box:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def body(c: Canvas, col: tuple[float, float], top: float, bottom: float, seed: int = 0) -> float:
    """Justified-looking body lines (Courier fills the column exactly) from top to bottom."""
    per_line = int((col[1] - col[0]) / (CHAR * BODY))
    baseline = top + BODY
    n = seed
    c.color((0.1, 0.1, 0.1))
    while baseline + 0.22 * BODY <= bottom:
        words: list[str] = []
        while len(" ".join(words)) < per_line:
            words.append(WORDS[n % len(WORDS)])
            n += 1
        line = " ".join(words)[:per_line]
        c.text(col[0], baseline, line, BODY)
        baseline += LEAD
    return baseline - BODY


def caption_lines(
    c: Canvas, span: tuple[float, float], top: float, label: str, text: str, size: float = 9
) -> tuple[Box, float]:
    """A caption wrapped to ``span``, centred when it fits one line; returns box and bottom."""
    per_line = int((span[1] - span[0]) / (CHAR * size))
    words = f"{label} {text}".split()
    lines: list[str] = []
    for word in words:
        if lines and len(lines[-1]) + 1 + len(word) <= per_line:
            lines[-1] += " " + word
        else:
            lines.append(word)
    boxes = []
    baseline = top + size
    c.color((0, 0, 0))
    for line in lines:
        width = CHAR * size * len(line)
        x = (span[0] + span[1] - width) / 2 if len(lines) == 1 else span[0]
        boxes.append(c.text(x, baseline, line, size))
        baseline += size * 1.2
    box = union(boxes)
    return box, box[3]


def bar_chart(c: Canvas, x0: float, y0: float, x1: float, y1: float) -> Box:
    """Axes, bars, tick labels left of the axis and an axis title below: a vector figure."""
    parts = []
    c.color((0, 0, 0))
    ax = x0 + 24  # tick labels go left of the axis
    parts.append(c.rule(ax, x1, y1 - 14, 0.8))
    parts.append(c.rect(ax - 0.4, y0, ax + 0.4, y1 - 14))
    for k, v in enumerate((0.3, 0.55, 0.8, 0.45, 0.95)):
        c.color(((0.12, 0.47, 0.71), (1.0, 0.5, 0.05))[k % 2])
        bx = ax + 8 + k * (x1 - ax - 10) / 5
        parts.append(c.rect(bx, y1 - 14 - v * (y1 - y0 - 20), bx + 14, y1 - 14))
    c.color((0, 0, 0))
    for k in range(3):
        parts.append(c.text(x0, y1 - 14 - k * 30, f"{k * 5:>3}", 7))
    parts.append(c.text(ax + 20, y1, "batch size", 7))
    return union(parts)


def ruled_table(c: Canvas, x0: float, top: float, rows: int, cols: int, cell: int) -> Box:
    """booktabs style: top, mid and bottom rules, Courier 8 pt cells."""
    size = 8.0
    width = cols * (cell + 2) * CHAR * size
    parts = [c.rule(x0, x0 + width, top)]
    baseline = top + 4 + size
    c.color((0, 0, 0))
    for r in range(rows):
        for k in range(cols):
            text = ("Name" if r == 0 else f"r{r}c{k}").ljust(cell)[:cell].rstrip()
            parts.append(c.text(x0 + k * (cell + 2) * CHAR * size, baseline, text, size))
        if r == 0:
            parts.append(c.rule(x0, x0 + width, baseline + 3))
            baseline += 3
        baseline += size * 1.3
    parts.append(c.rule(x0, x0 + width, baseline - size + 3))
    return union(parts)


def plain_table(c: Canvas, x0: float, top: float, rows: int, cols: int, cell: int) -> Box:
    """A table without rules: cells apart by whitespace only."""
    size = 8.0
    parts = []
    baseline = top + size
    c.color((0, 0, 0))
    for r in range(rows):
        for k in range(cols):
            text = f"v{r}.{k}" if r else f"col{k}"
            parts.append(c.text(x0 + k * (cell + 3) * CHAR * size, baseline, text, size))
        baseline += size * 1.4
    return union(parts)


def wide_table(c: Canvas, x0: float, top: float, rows: int) -> Box:
    """Rules, and rows whose first cell is long text at the body size (a row is still a row,
    not a line of running text)."""
    parts = [c.rule(x0, x0 + 232, top)]
    baseline = top + 4 + BODY
    c.color((0, 0, 0))
    for r in range(rows):
        parts.append(c.text(x0, baseline, f"a long description {r:>2}", BODY))
        parts.append(c.text(x0 + 200, baseline, f"{r}.5", BODY))
        baseline += LEAD
    parts.append(c.rule(x0, x0 + 232, baseline - BODY + 2))
    return union(parts)


def heads(c: Canvas, number: int) -> None:
    c.color((0.3, 0.3, 0.3))
    c.text(54, 40, "Synthetic Paper for Detection Tests, 2026", 8)
    c.text(W / 2 - 3, 760, str(number), 8)


def make_paper(path: Path, style: str = "acm") -> list[Truth]:
    """Write a six-page two-column paper; return the true figures and tables."""
    ieee = style == "ieee"

    def fig_label(n: int) -> str:
        return f"Fig. {n}." if ieee else f"Figure {n}:"

    def table_caption(
        c: Canvas, span: tuple[float, float], top: float, n: int, text: str
    ) -> tuple[Box, float, str]:
        if ieee:
            roman = ["I", "II", "III", "IV"][n - 1]
            a, y = caption_lines(c, span, top, f"TABLE {roman}", "")
            b, y = caption_lines(c, span, y + 2, "", text.upper())
            return union([a, b]), y, f"TABLE {roman}"
        box, y = caption_lines(c, span, top, f"Table {n}:", text)
        return box, y, f"Table {n}"

    truths: list[Truth] = []
    pages: list[Canvas] = []

    # Page 1: title; Figure 1 (vector) atop the right column, two-line caption; Table 1
    # (ruled, caption above) at the foot of the left column.
    c = Canvas()
    heads(c, 1)
    c.color((0, 0, 0))
    c.text(120, 90, "A Synthetic Paper With Known Figure Boxes", 14, "F2")
    body(c, LEFT, 120, 560, 0)
    cap1 = "Throughput of the baseline and of our system under a load that grows over time."
    fig = bar_chart(c, RIGHT[0] + 10, 80, RIGHT[1] - 10, 250)
    _cbox, y = caption_lines(c, RIGHT, 262, fig_label(1), cap1)
    truths.append(Truth(1, "figure", fig_label(1).rstrip(":."), 1, cap1, fig))
    body(c, RIGHT, y + 16, 720, 3)
    tcap1 = "Model sizes and memory."
    _tbox, y, tlabel = table_caption(c, LEFT, 580, 1, tcap1)
    table = ruled_table(c, LEFT[0] + 20, y + 6, 5, 3, 9)
    truths.append(Truth(1, "table", tlabel, 1, tcap1.upper() if ieee else tcap1, table))
    pages.append(c)

    # Page 2: Figure 2 spans both columns at the top (two raster panels with (a)/(b)),
    # caption over two lines; Table 2 (no rules, caption above) in the right column.
    c = Canvas()
    heads(c, 2)
    parts = [c.image(90, 80, 280, 200, 1), c.image(332, 80, 522, 200, 2)]
    c.color((0, 0, 0))
    parts.append(c.text(160, 214, "(a) Prefill", 8))
    parts.append(c.text(402, 214, "(b) Decode", 8))
    cap2 = (
        "Latency of prefill and decode as the batch grows, measured on the cluster with the "
        "scheduler on and off; lower is better. (a) Prefill. (b) Decode."
    )
    _cbox, y = caption_lines(c, (LEFT[0], RIGHT[1]), 228, fig_label(2), cap2)
    truths.append(Truth(2, "figure", fig_label(2).rstrip(":."), 2, cap2, union(parts)))
    body(c, LEFT, y + 18, 720, 5)
    body(c, RIGHT, y + 18, 470, 9)
    tcap2 = "Settings of each run."
    _tbox, y, tlabel = table_caption(c, RIGHT, 490, 2, tcap2)
    table = plain_table(c, RIGHT[0] + 30, y + 8, 6, 3, 6)
    truths.append(Truth(2, "table", tlabel, 2, tcap2.upper() if ieee else tcap2, table))
    body(c, RIGHT, table[3] + 18, 720, 11)
    pages.append(c)

    # Page 3: Figure 3 (raster) in the middle of the left column, body text above and below
    # and a body line starting "Figure 3 shows"; Table 3 (ruled) on the right, captioned
    # below (above in IEEE style, which always captions tables above).
    c = Canvas()
    heads(c, 3)
    y = body(c, LEFT, 72, 200, 13)
    c.color((0.1, 0.1, 0.1))
    c.text(LEFT[0], y + BODY, "Figure 3 shows the hit rate over a day,", BODY)
    y = body(c, LEFT, y + LEAD, y + 3 * LEAD, 17)
    img = c.image(90, y + 14, 260, y + 134, 3)
    cap3 = "Cache hit rate."
    _cbox, y = caption_lines(c, LEFT, img[3] + 10, fig_label(3), cap3)
    truths.append(Truth(3, "figure", fig_label(3).rstrip(":."), 3, cap3, img))
    body(c, LEFT, y + 16, 720, 19)
    tcap3 = "Results per workload, best in each row first."
    if ieee:
        _tbox, y, tlabel = table_caption(c, RIGHT, 72, 3, tcap3)
        table = ruled_table(c, RIGHT[0] + 10, y + 6, 4, 3, 10)
        y = table[3]
    else:
        table = ruled_table(c, RIGHT[0] + 10, 80, 4, 3, 10)
        _tbox, y, tlabel = table_caption(c, RIGHT, table[3] + 8, 3, tcap3)
    truths.append(Truth(3, "table", tlabel, 3, tcap3.upper() if ieee else tcap3, table))
    body(c, RIGHT, y + 16, 720, 23)
    pages.append(c)

    # Page 4: two figures stacked in the left column between body text, the upper one's
    # caption between them; Table 4 on the right, rows of body-sized long text.
    c = Canvas()
    heads(c, 4)
    y = body(c, LEFT, 72, 130, 29)
    fig4 = bar_chart(c, LEFT[0] + 20, y + 14, LEFT[1] - 20, y + 134)
    cap4 = "Goodput at low load."
    _cbox, y = caption_lines(c, LEFT, fig4[3] + 10, fig_label(4), cap4)
    truths.append(Truth(4, "figure", fig_label(4).rstrip(":."), 4, cap4, fig4))
    img5 = c.image(80, y + 14, 270, y + 124, 4)
    cap5 = "Goodput at high load, with the scheduler on."
    _cbox, y = caption_lines(c, LEFT, img5[3] + 10, fig_label(5), cap5)
    truths.append(Truth(4, "figure", fig_label(5).rstrip(":."), 5, cap5, img5))
    body(c, LEFT, y + 16, 720, 31)
    tcap4 = "Settings in words."
    _tbox, y, tlabel = table_caption(c, RIGHT, 76, 4, tcap4)
    table = wide_table(c, RIGHT[0] + 4, y + 6, 6)
    truths.append(Truth(4, "table", tlabel, 4, tcap4.upper() if ieee else tcap4, table))
    body(c, RIGHT, table[3] + 18, 720, 37)
    pages.append(c)

    # Page 5: two figures side by side atop the page, each with its own caption (two
    # minipages in one float), the right caption a line longer than the left.
    c = Canvas()
    heads(c, 5)
    fig6 = bar_chart(c, 70, 80, 280, 220)
    fig7 = c.image(330, 80, 540, 220, 5)
    cap6 = "Load per expert."
    cap7 = "Load per expert after balancing, over the whole run."
    _cbox, y6 = caption_lines(c, (60, 290), 240, fig_label(6), cap6)
    _cbox, y7 = caption_lines(c, (322, 552), 232, fig_label(7), cap7)
    truths.append(Truth(5, "figure", fig_label(6).rstrip(":."), 6, cap6, fig6))
    truths.append(Truth(5, "figure", fig_label(7).rstrip(":."), 7, cap7, fig7))
    body(c, LEFT, max(y6, y7) + 20, 720, 41)
    body(c, RIGHT, max(y6, y7) + 20, 720, 43)
    pages.append(c)

    # Page 6: an appendix set in one column across the page, Figure 8 between its lines.
    c = Canvas()
    heads(c, 6)
    y = body(c, (LEFT[0], RIGHT[1]), 72, 250, 47)
    fig8 = bar_chart(c, 200, y + 14, 410, y + 164)
    cap8 = "Goodput per step, in the appendix."
    _cbox, y = caption_lines(c, (LEFT[0], RIGHT[1]), fig8[3] + 10, fig_label(8), cap8)
    truths.append(Truth(6, "figure", fig_label(8).rstrip(":."), 8, cap8, fig8))
    body(c, (LEFT[0], RIGHT[1]), y + 16, 720, 53)
    pages.append(c)

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(_pdf(pages))
    return truths


def _pdf(pages: list[Canvas]) -> bytes:
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>",
    ]
    kids = []
    for canvas in pages:
        xobjects = []
        for k, pixels in enumerate(canvas.images, start=1):
            data = zlib.compress(bytes(pixels))
            objects.append(
                b"<< /Type /XObject /Subtype /Image /Width 48 /Height 32 /ColorSpace /DeviceRGB "
                b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n"
                % len(data)
                + data
                + b"\nendstream"
            )
            xobjects.append(b"/Im%d %d 0 R" % (k, len(objects)))
        stream = zlib.compress("\n".join(canvas.ops).encode("ascii"))
        objects.append(
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream)
            + stream
            + b"\nendstream"
        )
        content = len(objects)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
            b"/Resources << /Font << /F1 3 0 R /F2 4 0 R >> /XObject << %s >> >> >>"
            % (content, b" ".join(xobjects))
        )
        kids.append(b"%d 0 R" % len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), len(kids))
    return rawpdf.serialise(objects, header=b"%PDF-1.4\n")
