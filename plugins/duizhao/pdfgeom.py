"""PDF geometry shared by the figure detector and the PDF importer: affine matrices."""

from __future__ import annotations

#: (a, b, c, d, e, f) of PDF's [a b 0; c d 0; e f 1]
Matrix = tuple[float, ...]
Box = tuple[float, float, float, float]


def compose(inner: Matrix, outer: Matrix) -> Matrix:
    """``inner`` then ``outer`` (an object's matrix inside a form drawn with ``outer``)."""
    a, b, c, d, e, f = inner
    A, B, C, D, E, F = outer  # noqa: N806 (matrix notation)
    return (
        a * A + b * C,
        a * B + b * D,
        c * A + d * C,
        c * B + d * D,
        e * A + f * C + E,
        e * B + f * D + F,
    )


def transform(m: Matrix, box: Box) -> Box:
    """The bounding box of ``box`` (x0, y0, x1, y1) mapped by ``m``."""
    a, b, c, d, e, f = m
    xs, ys = [], []
    for x, y in ((box[0], box[1]), (box[0], box[3]), (box[2], box[1]), (box[2], box[3])):
        xs.append(a * x + c * y + e)
        ys.append(b * x + d * y + f)
    return (min(xs), min(ys), max(xs), max(ys))
