"""PDFs written byte by byte: pages no typesetter makes, for the benchmarks and the tests of
hostile input (a page of 300,000 or a million vector objects, forms nested 1,000 deep, forms
fanned out to a trillion squares, a page larger than PDF allows, a scanned page without text,
an encrypted file)."""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from pathlib import Path

#: A Type 1 base font every PDF reader has.
FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>"


def write(
    path: Path,
    content: bytes,
    *,
    extra: Sequence[bytes] = (),
    resources: bytes = b"<< /Font << /F1 5 0 R >> >>",
    size: tuple[float, float] = (612, 792),
    trailer: bytes = b"",
) -> Path:
    """A one-page PDF: ``content`` is the page's content stream (compressed), objects 1–5
    are the catalog, the page tree, the page, its contents and the font F1; ``extra``
    objects are numbered from 6."""
    data = zlib.compress(content)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %g %g] /Contents 4 0 R /Resources %s >>"
        % (size[0], size[1], resources),
        b"<< /Filter /FlateDecode /Length %d >>\nstream\n" % len(data) + data + b"\nendstream",
        FONT,
        *extra,
    ]
    path.write_bytes(serialise(objects, trailer=trailer))
    return path


def serialise(
    objects: Sequence[bytes], *, header: bytes = b"%PDF-1.7\n", trailer: bytes = b""
) -> bytes:
    """A PDF file of ``objects`` numbered from 1 (object 1 the catalog), with its cross-reference
    table; ``trailer`` adds keys to the trailer dictionary."""
    out = bytearray(header)
    offsets = []
    for i, obj in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R %s>>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        trailer,
        xref,
    )
    return bytes(out)


def text(lines: Sequence[tuple[float, float, str]], size: float = 10) -> bytes:
    """Text at (x, y from the bottom) in Times-Roman."""
    ops = []
    for x, y, s in lines:
        s = s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        ops.append(f"BT /F1 {size:g} Tf {x:.1f} {y:.1f} Td ({s}) Tj ET\n")
    return "".join(ops).encode()


def body(top: float = 350, lines: int = 20) -> bytes:
    """Lines of running text under a figure, so that the page has a layout."""
    return text(
        [
            (
                72,
                top - 12 * i,
                f"Body text of the paper goes on here, line {i:2}, as running text does in a "
                "paper set in one column from margin to margin.",
            )
            for i in range(lines)
        ]
    )


def marks(objects: int, box: tuple[float, float, float, float] = (72, 400, 532, 700)) -> bytes:
    """``objects`` filled squares scattered over ``box`` (x0, y0, x1, y1 from the bottom)."""
    r = random.Random(0)
    x0, y0, x1, y1 = box
    return (
        b"0 0 1 rg\n"
        + b"".join(
            b"%.1f %.1f 1 1 re f\n"
            % (x0 + r.random() * (x1 - x0 - 1), y0 + r.random() * (y1 - y0 - 1))
            for _ in range(objects)
        )
        + b"0 g\n"
    )


def dense_page(path: Path, objects: int = 300_000) -> Path:
    """A page whose figure is a scatter plot of ``objects`` vector marks, captioned."""
    caption = text([(72, 385, "Figure 1: A scatter plot of many points.")])
    return write(path, marks(objects) + caption + body())


def nested_forms(path: Path, depth: int = 1000) -> Path:
    """A page drawing a form that draws a form … ``depth`` deep, a square at the bottom."""
    forms = []
    for i in range(depth):
        last = i + 1 == depth
        inner = b"0 0 0 rg 100 500 50 50 re f" if last else b"/Fm%d Do" % (i + 1)
        res = b"<< >>" if last else b"<< /XObject << /Fm%d %d 0 R >> >>" % (i + 1, 7 + i)
        stream = b"q 1 0 0 1 0 0 cm " + inner + b" Q"
        forms.append(
            b"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources %s /Length %d >>"
            b"\nstream\n" % (res, len(stream)) + stream + b"\nendstream"
        )
    return write(
        path,
        b"/Fm0 Do\n" + text([(72, 470, "Figure 1: A square, deep down.")]) + body(),
        extra=forms,
        resources=b"<< /Font << /F1 5 0 R >> /XObject << /Fm0 6 0 R >> >>",
    )


def fanned_forms(path: Path, depth: int = 12, fan: int = 10) -> Path:
    """A "billion laughs" of forms: a form that draws the next ``fan`` times, ``depth`` deep,
    a square at the bottom: 3 KB of PDF that expands to ``fan ** depth`` squares (PDFium parses
    all of them when it loads the page: ten million need over 2 GB)."""
    forms = []
    for i in range(depth):
        last = i + 1 == depth
        if last:
            stream, res = b"0 0 0 rg 100 500 1 1 re f", b"<< >>"
        else:
            stream = b" ".join(b"q 1 0 0 1 %d 0 cm /Fm%d Do Q" % (k, i + 1) for k in range(fan))
            res = b"<< /XObject << /Fm%d %d 0 R >> >>" % (i + 1, 7 + i)
        forms.append(
            b"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources %s /Length %d >>"
            b"\nstream\n" % (res, len(stream)) + stream + b"\nendstream"
        )
    return write(
        path,
        b"/Fm0 Do\n" + text([(72, 470, "Figure 1: Squares, many times over.")]) + body(),
        extra=forms,
        resources=b"<< /Font << /F1 5 0 R >> /XObject << /Fm0 6 0 R >> >>",
    )


def huge_page(path: Path, side: float = 20_000) -> Path:
    return write(path, text([(72, 72, "A page larger than PDF allows.")]), size=(side, side))


def scanned(path: Path) -> Path:
    """A page that is one grey picture and no text: a scan without OCR."""
    w, h = 64, 64
    pixels = bytes((x * 3 + y * 5) % 256 for y in range(h) for x in range(w))
    image = zlib.compress(pixels)
    return write(
        path,
        b"q 468 0 0 648 72 72 cm /Im1 Do Q",
        extra=[
            b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
            b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n"
            % (w, h, len(image))
            + image
            + b"\nendstream"
        ],
        resources=b"<< /XObject << /Im1 6 0 R >> >>",
    )


def encrypted(path: Path) -> Path:
    """A PDF protected by a user password (the standard security handler, RC4)."""
    key = b"<" + b"7a" * 32 + b">"
    return write(
        path,
        text([(72, 700, "Secret.")]),
        trailer=b"/Encrypt << /Filter /Standard /V 1 /R 2 /O %s /U %s /P -4 >> "
        b"/ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>] "
        % (key, key),
    )


def _form(content: bytes, bbox: bytes, matrix: bytes, resources: bytes = b"<< >>") -> bytes:
    return (
        b"<< /Type /XObject /Subtype /Form /BBox %s /Matrix %s /Resources %s /Length %d >>"
        b"\nstream\n" % (bbox, matrix, resources, len(content)) + content + b"\nendstream"
    )


#: What :func:`forms_page` draws, by the rendered ink: (x0, y0, x1, y1) from the top-left.
FORMS_INK = [
    (150.0, 342.0, 200.0, 392.0),  # a form whose matrix scales and shifts
    (340.0, 452.0, 380.0, 472.0),  # a form in a form, each with a matrix
    (100.0, 142.0, 150.0, 192.0),  # a form whose bounding box cuts its drawing
    (405.0, 172.0, 420.0, 187.0),  # a form whose bounding box runs far past its ink
]


def forms_page(path: Path) -> Path:
    """Drawings inside form XObjects the ways papers embed their figures (see FORMS_INK)."""
    square = b"0 0 1 rg 0 0 100 100 re f"
    forms = [
        _form(square, b"[0 0 400 400]", b"[0.5 0 0 0.5 100 100]"),
        _form(
            b"q 2 0 0 2 10 10 cm /Fi Do Q",
            b"[0 0 400 400]",
            b"[1 0 0 1 20 0]",
            b"<< /XObject << /Fi 8 0 R >> >>",
        ),
        _form(b"1 0 0 rg 0 0 20 10 re f", b"[0 0 400 400]", b"[1 0 0 1 5 5]"),
        _form(b"0 1 0 rg 0 0 300 300 re f", b"[0 0 50 50]", b"[1 0 0 1 0 0]"),
        _form(b"0 0 0 rg 10 10 30 30 re f", b"[-500 -500 1500 1500]", b"[1 0 0 1 0 0]"),
    ]
    content = (
        b"q 1 0 0 1 50 300 cm /A Do Q\n"
        b"q 1 0 0 1 300 300 cm /B Do Q\n"
        b"q 1 0 0 1 100 600 cm /C Do Q\n"
        b"q 0.5 0 0 0.5 400 600 cm /D Do Q\n"
    ) + text([(72, 72, "Four drawings in forms.")])
    return write(
        path,
        content,
        extra=forms,
        resources=b"<< /Font << /F1 5 0 R >> "
        b"/XObject << /A 6 0 R /B 7 0 R /C 9 0 R /D 10 0 R >> >>",
    )


def _scaled_text(lines: Sequence[tuple[float, float, str]], scale: float) -> bytes:
    """Text at (x, y from the bottom) set as some typesetters (InDesign, Elsevier's and ACM's
    journal pipelines) set a whole paper: a 1-pt font scaled by the text matrix to ``scale``."""
    ops = []
    for x, y, s in lines:
        s = s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        ops.append(f"BT /F1 1 Tf {scale:g} 0 0 {scale:g} {x:.1f} {y:.1f} Tm ({s}) Tj ET\n")
    return "".join(ops).encode()


#: The type sizes :func:`matrix_sized_page` sets, as a reader sees them: (text, size).
MATRIX_SIZES = {
    "Body": 10.0,  # 1 Tf scaled by Tm to 10
    "Figure": 9.0,  # the caption: 1 Tf, Tm 9
    "Load": 7.0,  # the plot's labels: 1 Tf, Tm 7
    "Scaled": 8.0,  # 16 Tf under a cm of 0.5
    "Formed": 6.0,  # 1 Tf, Tm 12, in a form whose matrix halves it
}


def matrix_sized_page(path: Path) -> Path:
    """A one-column paper page whose every glyph is set at 1 pt and scaled through a matrix
    (see MATRIX_SIZES): running text, a plot (a frame, bars, labels and a legend, one word of
    it under a ``cm``, one in a scaled form) and its caption. The plot's ink: x 120–420,
    y 252–350 from the top (its labels reach 4 pt under the frame)."""
    lines = [
        (
            72,
            700 - 12 * i,
            f"Body text of the paper goes on here, line {i:2}, as running text "
            "does in a paper set in one column.",
        )
        for i in range(14)
    ]
    lines += [
        (
            72,
            390 - 12 * i,
            f"Body text goes on under the figure, line {i:2}, as running text "
            "does in a paper set in one column.",
        )
        for i in range(14)
    ]
    plot = (
        b"0 0 0 RG 1 w 120 450 300 90 re S\n"
        b"0 0 1 rg 140 450 30 60 re f 200 450 30 80 re f 260 450 30 40 re f 0 g\n"
    )
    labels = _scaled_text([(130, 442, "Load 1"), (190, 442, "Load 2"), (250, 442, "Load 3")], 7)
    caption = _scaled_text([(72, 420, "Figure 1: Text set at one point, scaled by its matrix.")], 9)
    scaled = b"q 0.5 0 0 0.5 0 0 cm BT /F1 16 Tf 660 1040 Td (Scaled) Tj ET Q\n"
    form = _form(
        b"BT /F1 1 Tf 12 0 0 12 0 0 Tm (Formed) Tj ET",
        b"[0 0 200 50]",
        b"[0.5 0 0 0.5 330 505]",
        b"<< /Font << /F1 5 0 R >> >>",
    )
    return write(
        path,
        _scaled_text(lines, 10) + plot + labels + caption + scaled + b"/Fm Do\n",
        extra=[form],
        resources=b"<< /Font << /F1 5 0 R >> /XObject << /Fm 6 0 R >> >>",
    )


#: What :func:`pattern_page` draws, by the rendered ink: (x0, y0, x1, y1) from the top-left.
PATTERN_INK = [
    (100.0, 192.0, 140.0, 292.0),  # bars filled with a shading pattern (a gradient)
    (160.0, 152.0, 200.0, 292.0),
    (220.0, 232.0, 260.0, 292.0),
    (88.0, 294.0, 282.0, 298.0),  # an axis stroked with it (2 pt, square of its ends)
]


def pattern_page(path: Path) -> Path:
    """A bar chart painted in a pattern colour (``/Pattern cs /P1 scn``), as macOS Quartz
    re-encodes gradients and transparency: no RGB colour to read off its paths."""
    shading = (
        b"<< /PatternType 2 /Shading << /ShadingType 2 /ColorSpace /DeviceRGB "
        b"/Coords [0 0 400 0] /Function << /FunctionType 2 /Domain [0 1] /C0 [0 0 1] "
        b"/C1 [1 0 0] /N 1 >> >> >>"
    )
    content = (
        (
            b"q /Pattern cs /P1 scn /Pattern CS /P1 SCN\n"
            b"100 500 40 100 re f 160 500 40 140 re f 220 500 40 60 re f\n"
            b"2 w 90 496 m 280 496 l S Q\n"
        )
        + text([(72, 470, "Figure 1: Load of each node, in a gradient.")])
        + body(440)
    )
    return write(
        path,
        content,
        extra=[shading],
        resources=b"<< /Font << /F1 5 0 R >> /Pattern << /P1 6 0 R >> >>",
    )
