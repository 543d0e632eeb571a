"""Rotated tables: a ``sidewaystable`` (or a landscape page's table) set a quarter turn on an
upright page, its caption turned with it (issue 20).

The reader keeps the glyphs set at an angle as graphics (they draw, but are no upright text)
and, with their text, in :attr:`.PageContent.turned`. On a page with many of them at one
quarter turn (``Settings.turned_min_glyphs``), the steps here read them in the turned frame,
where they are upright:

1. :func:`turned_lines`: the glyphs grouped into lines (overlapping across the line), each
   line's glyphs along it, a space where they stand apart (``turned_space``).
2. :func:`rotated_tables`: a line opening with a table's caption label (the one caption
   grammar, :func:`.captions.caption_label`, its bold label counted) starts a caption; lines
   of its size right under it continue it. The body grows from the caption, on the side
   where something lies nearest, over the page's graphics (rules, turned cells and notes)
   each within ``turned_body_gap`` of what it took, never over upright text of the page's
   body size.

Boxes are in the page's top-left points (as every detection's), the caption's too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..pdf.captions import caption_label
from ..pdf.geometry import Box, overlap_len, rounded, union
from ..pdf.page_layout import Layout, PageLayout
from ..pdf.read import Turned

if TYPE_CHECKING:
    from .detect import DetectedFigure

_QUARTER = math.pi / 2


@dataclass(frozen=True)
class Rotated:
    """A rotated table found: its page, label, caption and boxes (page top-left points)."""

    page: int
    label: str
    number: int
    caption: str
    box: Box
    caption_box: Box


@dataclass(frozen=True)
class _Frame:
    """The turned frame of a page: ``u`` along the turned lines, ``v`` down across them."""

    width: float
    height: float
    #: the glyphs read bottom to top (turned a quarter counter-clockwise on the page)
    up: bool

    def to(self, b: Box) -> Box:
        if self.up:
            return (self.height - b[3], b[0], self.height - b[1], b[2])
        return (b[1], self.width - b[2], b[3], self.width - b[0])


@dataclass
class _Line:
    glyphs: list[tuple[Turned, Box]]  # (glyph, its box in the turned frame)

    @property
    def box(self) -> Box:
        return union(b for _g, b in self.glyphs)

    @property
    def page_box(self) -> Box:
        return union(g.box for g, _b in self.glyphs)

    @property
    def size(self) -> float:
        return max(b[3] - b[1] for _g, b in self.glyphs)


def turned_lines(glyphs: Sequence[Turned], frame: _Frame, layout: Layout) -> list[_Line]:
    """The turned glyphs of one quarter turn as lines, top to bottom in the turned frame."""
    s = layout.settings
    boxed = sorted(((g, frame.to(g.box)) for g in glyphs), key=lambda gb: (gb[1][1], gb[1][0]))
    lines: list[_Line] = []
    for g, b in boxed:
        for line in reversed(lines[-4:]):  # a line's superscripts start a little above it
            lb = line.box
            if overlap_len(lb[1], lb[3], b[1], b[3]) >= s.turned_line_overlap * min(
                lb[3] - lb[1], b[3] - b[1]
            ):
                line.glyphs.append((g, b))
                break
        else:
            lines.append(_Line([(g, b)]))
    for line in lines:
        line.glyphs.sort(key=lambda gb: gb[1][0])
    return lines


def _text(line: _Line, layout: Layout) -> str:
    out: list[str] = []
    x1 = None
    size = line.size
    for g, b in line.glyphs:
        if x1 is not None and b[0] - x1 > layout.settings.turned_space * size:
            out.append(" ")
        out.append(g.text)
        x1 = b[2] if x1 is None else max(x1, b[2])
    return "".join(out)


def _quarters(page: PageLayout, layout: Layout) -> dict[bool, list[Turned]]:
    """The page's turned glyphs by the way they read (bottom to top: True)."""
    s = layout.settings
    out: dict[bool, list[Turned]] = {True: [], False: []}
    for g in page.content.turned:
        for up, at in ((True, 3 * _QUARTER), (False, _QUARTER)):
            if abs(g.angle - at) < s.turned_tolerance:
                out[up].append(g)
    return {up: gs for up, gs in out.items() if len(gs) >= s.turned_min_glyphs}


def rotated_tables(layout: Layout, upright: Sequence[DetectedFigure]) -> list[DetectedFigure]:
    """The tables set a quarter turn on the pages of ``layout`` that are none of the
    ``upright`` ones (by number), boxed as grown (the caller trims them to their ink)."""
    from .detect import DetectedFigure  # detect imports this module

    seen = {d.number for d in upright if d.kind == "table"}
    found: list[Rotated] = []
    for page in layout.pages:
        for up, glyphs in _quarters(page, layout).items():
            frame = _Frame(page.width, page.height, up)
            lines = turned_lines(glyphs, frame, layout)
            reach = union(ln.box for ln in lines)
            found.extend(_tables(page, frame, lines, (reach[0], reach[2]), layout))
    return [
        DetectedFigure(r.page, "table", r.label, r.number, r.caption, r.box, r.caption_box)
        for r in found
        if r.number not in seen
    ]


def _tables(
    page: PageLayout,
    frame: _Frame,
    lines: list[_Line],
    reach: tuple[float, float],
    layout: Layout,
) -> list[Rotated]:
    """The tables whose captions open one of ``lines``; ``reach``: the extent of the turned
    lines along them (a body lies in it)."""
    s = layout.settings
    out: list[Rotated] = []
    used: set[int] = set()
    for k, line in enumerate(lines):
        if k in used:
            continue
        text = _text(line, layout)
        bold = layout.fonts[line.glyphs[0][0].font].bold
        label = caption_label(text, bold)
        if label is None or label.kind != "table":
            continue
        caption = [line]
        for nxt in lines[k + 1 :]:
            last = caption[-1].box
            if (
                nxt.box[1] - last[3] > s.turned_caption_gap * line.size
                or abs(nxt.size - line.size) > s.caption_size
            ):
                break
            caption.append(nxt)
        used.update(range(k, k + len(caption)))
        body = _body(page, frame, caption, reach, layout)
        if body is None:
            continue
        cb = union(c.page_box for c in caption)
        words = " ".join(_text(c, layout) for c in caption)[label.end :].strip()
        out.append(
            Rotated(page.number, label.printed, label.number, words, rounded(body), rounded(cb))
        )
    return out


def _body(
    page: PageLayout,
    frame: _Frame,
    caption: list[_Line],
    reach: tuple[float, float],
    layout: Layout,
) -> Box | None:
    """The body of a turned caption's table: what lies on one side of the caption across
    its lines, within ``reach`` along them, taken nearest first while each item lies within
    ``turned_body_gap`` of the last, up to upright body-size text; None when it is too small
    to be a table."""
    s = layout.settings
    top, bottom = caption[0].box[1], caption[-1].box[3]
    size = caption[0].size
    gap = s.turned_body_gap * size
    turned_boxes = {g.box for c in caption for g, _b in c.glyphs}
    items: list[tuple[Box, Box, bool]] = []  # (turned-frame box, page box, stops)
    for g in page.graphics:
        if g.kind == "text" and g.box in turned_boxes:
            continue
        items.append((frame.to(g.box), g.box, False))
    for f in page.fragments:
        items.append((frame.to(f.box), f.box, layout.body_sized(f)))
    items = [i for i in items if overlap_len(i[0][0], i[0][2], *reach) > 0]
    best: list[tuple[Box, Box, bool]] = []
    for below in (True, False):
        side = sorted(
            (i for i in items if (i[0][1] >= bottom if below else i[0][3] <= top)),
            key=lambda i: i[0][1] if below else -i[0][3],
        )
        edge = bottom if below else top
        taken: list[tuple[Box, Box, bool]] = []
        for item in side:
            b = item[0]
            if (b[1] - edge if below else edge - b[3]) > gap or item[2]:
                break
            taken.append(item)
            edge = max(edge, b[3]) if below else min(edge, b[1])
        if sum(i[0][3] - i[0][1] for i in taken) > sum(i[0][3] - i[0][1] for i in best):
            best = taken
    if not best:
        return None
    tb = union(i[0] for i in best)
    if tb[2] - tb[0] < s.turned_body_min or tb[3] - tb[1] < s.turned_body_lines * size:
        return None
    b = union(i[1] for i in best)
    p = s.trim_pad
    return (
        max(0.0, b[0] - p),
        max(0.0, b[1] - p),
        min(page.width, b[2] + p),
        min(page.height, b[3] + p),
    )
