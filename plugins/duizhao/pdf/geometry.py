"""Boxes and matrices: the one geometry of the PDF engine.

A :data:`Box` is ``(x0, y0, x1, y1)`` in PDF points from the top-left corner of the page as
it is rendered (crop box, rotation applied): the units of ``<article>.figures.yml``. Plain
tuples, so that a page of many thousand objects costs no object per box.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Box = tuple[float, float, float, float]
#: (a, b, c, d, e, f) of PDF's [a b 0; c d 0; e f 1]
Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


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


def union(boxes: Iterable[Box]) -> Box:
    """The smallest box holding all of ``boxes`` (at least one)."""
    it = iter(boxes)
    x0, y0, x1, y1 = next(it)
    for b in it:
        if b[0] < x0:
            x0 = b[0]
        if b[1] < y0:
            y0 = b[1]
        if b[2] > x1:
            x1 = b[2]
        if b[3] > y1:
            y1 = b[3]
    return (x0, y0, x1, y1)


def width(b: Box) -> float:
    return b[2] - b[0]


def height(b: Box) -> float:
    return b[3] - b[1]


def area(b: Box) -> float:
    return max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1])


def grow(b: Box, dx: float, dy: float | None = None) -> Box:
    dy = dx if dy is None else dy
    return (b[0] - dx, b[1] - dy, b[2] + dx, b[3] + dy)


def clamp(b: Box, w: float, h: float) -> Box:
    """``b`` cut to the page ``w`` × ``h``."""
    return (max(0.0, b[0]), max(0.0, b[1]), min(w, b[2]), min(h, b[3]))


def overlap_x(a: tuple[float, float], b: tuple[float, float], slack: float = 0.0) -> bool:
    """Intervals ``a`` and ``b`` overlap (by more than ``-slack``)."""
    return a[0] < b[1] + slack and b[0] < a[1] + slack


def overlap_len(a0: float, a1: float, b0: float, b1: float) -> float:
    """Length of the overlap of two intervals (negative: the gap between them)."""
    return min(a1, b1) - max(a0, b0)


def inside(inner: Box, outer: Box, slack: float = 0.0) -> bool:
    return (
        outer[0] - slack <= inner[0]
        and inner[2] <= outer[2] + slack
        and outer[1] - slack <= inner[1]
        and inner[3] <= outer[3] + slack
    )


def intersects(a: Box, b: Box, slack: float = 0.0) -> bool:
    return (
        a[0] <= b[2] + slack
        and b[0] <= a[2] + slack
        and a[1] <= b[3] + slack
        and b[1] <= a[3] + slack
    )


def shares_area(a: Box, b: Box) -> bool:
    """Boxes ``a`` and ``b`` share some area (not a mere edge)."""
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def iou(a: Box, b: Box) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    total = area(a) + area(b) - inter
    return inter / total if total > 0 else 0.0


def rounded(b: Box, digits: int = 1) -> Box:
    return (round(b[0], digits), round(b[1], digits), round(b[2], digits), round(b[3], digits))


#: Side of the grid cells :func:`merge_boxes` files boxes under (points).
_CELL = 24.0


def merge_boxes(boxes: Sequence[Box], slack: float = 1.0) -> list[Box]:
    """Union of the boxes that overlap or touch (within ``slack``), transitively.

    A grid of cells gives each box its candidate neighbours; a cell keeps one entry per cluster
    (compared by the cluster's bounding box), so a dense plot of 20 000 paths stays fast.
    """
    while True:
        merged = _merge_once(boxes, slack)
        # A cluster that grew may now touch one it was compared with before: merge again
        # until no two boxes touch (few boxes are left after the first pass).
        if len(merged) == len(boxes):
            return merged
        boxes = merged


def _merge_once(boxes: Sequence[Box], slack: float) -> list[Box]:
    if len(boxes) < 2:
        return list(boxes)
    parent = list(range(len(boxes)))
    cluster = list(boxes)  # bounding box of each cluster, kept at its root

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    grid: dict[tuple[int, int], list[int]] = {}
    for i, b in enumerate(boxes):
        cx0, cy0 = int((b[0] - slack) // _CELL), int((b[1] - slack) // _CELL)
        cx1, cy1 = int((b[2] + slack) // _CELL), int((b[3] + slack) // _CELL)
        for cx in range(cx0, cx1 + 1):
            for cy in range(cy0, cy1 + 1):
                members = grid.setdefault((cx, cy), [])
                roots = {find(j) for j in members}
                for r in roots:
                    ri = find(i)
                    if r != ri and intersects(b, cluster[r], slack):
                        parent[r] = ri
                        cluster[ri] = union((cluster[ri], cluster[r]))
                members[:] = list({find(j) for j in roots} | {find(i)})
    return [cluster[i] for i in range(len(boxes)) if find(i) == i]
