"""Guards on a table's grown body (issue 20): what :func:`.detect.grow` found is checked
against the shapes a table's body never has, and mended or given up.

* :func:`thin`: a box under ``body_min_lines`` leadings in either dimension is no table
  body. Seen on papers the detector was not tuned on: a box 1–3 pt tall on a table's top
  rule (an IEEE table of one column, its rows of body-size text read as running text), one
  3–5 pt wide (a column rule alone under the caption) and a 10 pt strip over a tall table
  of bordered cells (a LibreOffice export).
* :func:`ruled_body`: the real body of such a table: away from its caption, over its rules,
  cells and cell borders (text read as running text too: a cell may fill its column), to
  the farthest rule of the extent of its first one, while no other float, caption or wide
  white gap comes between; nothing when no such rule closes it (the caption is then
  reported: "caption found, body not found").
* :func:`over_gutter`: a float captioned in one column whose box reaches across the gutter
  over the other column's running text (ACL 2013: a tall table in the left column found
  from the left margin to the right column's edge) keeps to its caption's column.
* :func:`clear_of_furniture`: a float's box is cut clear of the running heads, footers and
  folios it reaches over (a Springer Nature preprint's page-top image, white at its top,
  drawn up under the running head: trimmed to its ink, the box took the head's glyphs).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..pdf.geometry import Box, intersects, union
from ..pdf.page_layout import Layout, PageLayout
from ..pdf.settings import Settings

if TYPE_CHECKING:
    from .caption_steps import Caption
    from .detect import _Growth, _Item


def thin(box: Box, layout: Layout) -> bool:
    """``box`` is under ``body_min_lines`` leadings wide or tall: no table's body."""
    least = layout.settings.body_min_lines * layout.leading
    return min(box[2] - box[0], box[3] - box[1]) < least


def _rule(item: _Item, layout: Layout) -> bool:
    s = layout.settings
    b = item.box
    return (
        item.graphic
        and b[3] - b[1] <= s.float_rule_height
        and b[2] - b[0] >= s.ruled_min_lines * layout.leading
    )


def _aligned(a: Box, b: Box, layout: Layout) -> bool:
    slack = layout.settings.ruled_align
    return abs(a[0] - b[0]) <= slack and abs(a[2] - b[2]) <= slack


def _column_rule(item: _Item, layout: Layout) -> bool:
    """A column rule (or a cell's side border): a graphic no wider than a float rule is
    tall, at least a line high."""
    b = item.box
    return (
        item.graphic
        and b[2] - b[0] <= layout.settings.float_rule_height
        and b[3] - b[1] >= layout.leading
    )


def ruled_body(g: _Growth, owned: set[tuple[int, int]], layout: Layout) -> list[_Item]:
    """The items of table ``g``'s body found over its rules (see the module's docstring):
    from its caption away, each within ``ruled_gap_lines`` leadings of the last (running
    text too: a cell may fill its column), up to the farthest rule aligned with the first,
    else to the far end of its column rules (a table ruled down only) when a row gap
    (``row_*``) parts it from what follows (a rule alone beside running text is no table).
    ``owned``: (page, item) keys other floats took."""
    s = layout.settings
    gap_limit = max(s.gap_floor, s.ruled_gap_lines * layout.leading)
    row_limit = max(s.row_floor, s.row_lines * layout.leading)
    page_key = id(g.caption.page)
    cb = g.caption.box
    edge = cb[1] if g.up else cb[3]
    first: Box | None = None
    closed: float | None = None  # the far edge of the farthest rule aligned with the first
    down: float | None = None  # the far end of the column rules
    walked: list[_Item] = []
    for item in g.items:
        b = item.box
        if (page_key, item.key) in owned or (item.stop and not item.soft):
            break  # another float's, or another caption
        if ((edge - b[3]) if g.up else (b[1] - edge)) > gap_limit:
            break
        walked.append(item)
        edge = min(edge, b[1]) if g.up else max(edge, b[3])
        far = b[1] if g.up else b[3]
        if _rule(item, layout):
            if first is None:
                first = b
            elif _aligned(b, first, layout):
                closed = far
        elif _column_rule(item, layout):
            down = far if down is None else (min(down, far) if g.up else max(down, far))
    end = closed if closed is not None else down
    if end is None:
        return []
    slack = s.start_slack

    def within(i: _Item) -> bool:
        return i.box[1] >= end - slack if g.up else i.box[3] <= end + slack

    body = [i for i in walked if within(i)]
    if closed is None:
        after = [(end - i.box[3]) if g.up else (i.box[1] - end) for i in walked if not within(i)]
        if after and min(after) < row_limit:
            return []  # what follows the column rules goes on as it went: no table's end
    if not body or thin(union(i.box for i in body), layout):
        return []
    return body


def mend_thin(grown: Sequence[_Growth], layout: Layout) -> None:
    """A table whose grown body is :func:`thin` takes its :func:`ruled_body` instead (in
    place), or nothing (its caption is reported)."""
    owned = {(id(g.caption.page), i.key) for g in grown for i in g.taken}
    for g in grown:
        if g.caption.kind != "table" or not g.taken:
            continue
        if not thin(union(i.box for i in g.taken), layout):
            continue
        page_key = id(g.caption.page)
        mine = {(page_key, i.key) for i in g.taken}
        found = ruled_body(g, owned - mine, layout)
        owned -= mine
        g.taken = found
        owned |= {(page_key, i.key) for i in found}
        if found:
            g.edge = min(i.box[1] for i in found) if g.up else max(i.box[3] for i in found)


def keep_to_columns(
    seeds: Sequence[tuple[Caption, bool]], boxes: Sequence[Box | None], layout: Layout
) -> bool:
    """Keep each float whose box is :func:`over_gutter` to its caption's column (its
    caption's span narrowed, in place): True when one was, and the regions must grow again."""
    narrowed = False
    for (caption, _up), box in zip(seeds, boxes, strict=True):
        column = None if box is None else over_gutter(caption, box, layout)
        if column is not None:
            caption.span, caption.wide = column, False
            narrowed = True
    return narrowed


def over_gutter(caption: Caption, box: Box, layout: Layout) -> tuple[float, float] | None:
    """The column ``caption`` keeps to when ``box`` (its float's) reaches across the
    gutter over running text of the other column while the caption itself stands in one
    column (within ``body_start_slack`` of its edges); None when the box may stand."""
    s = layout.settings
    page = caption.page
    pl = page.layout
    if pl.gutter is None:
        return None
    (l0, l1), (r0, r1) = pl.columns
    if box[0] >= l1 - s.wide_overlap or box[2] <= r0 + s.wide_overlap:
        return None  # within one column
    cb = caption.box
    slack = s.body_start_slack
    if cb[2] <= l1 + slack:
        mine, other = (l0, l1), (r0, r1)
    elif cb[0] >= r0 - slack:
        mine, other = (r0, r1), (l0, l1)
    else:
        return None  # the caption crosses the gutter: a page-wide float
    for f in pl.fragments:
        if id(f) not in page.body:
            continue
        if f.x0 < other[0] - slack or f.x1 > other[1] + slack:
            continue
        if min(f.y1, box[3]) - max(f.y0, box[1]) > 0 and min(f.x1, box[2]) > max(f.x0, box[0]):
            return mine
    return None


def clear_of_furniture(box: Box, pl: PageLayout) -> Box:
    """``box`` cut clear of the running heads, footers and folios it reaches over: a
    graphic drawn under a running head (an image whose white top reaches the page's edge)
    takes none of the head's ink into the float."""
    x0, y0, x1, y1 = box
    middle = (y0 + y1) / 2
    for f in pl.fragments:
        if f.role != "running" or not intersects(f.box, (x0, y0, x1, y1)):
            continue
        if f.y1 <= middle:
            y0 = max(y0, f.y1)
        elif f.y0 >= middle:
            y1 = min(y1, f.y0)
    return (x0, y0, x1, y1) if y1 > y0 else box


def padded(box: Box, caption: Caption, up: bool, page: PageLayout, s: Settings) -> Box:
    """A little white around the body (strokes are wider than their paths), not over the
    caption."""
    p = s.trim_pad
    x0, y0, x1, y1 = box[0] - p, box[1] - p, box[2] + p, box[3] + p
    cb = caption.box
    if up:
        y1 = max(box[3], min(y1, cb[1]))
    else:
        y0 = min(box[1], max(y0, cb[3]))
    return (max(0.0, x0), max(0.0, y0), min(page.width, x1), min(page.height, y1))
