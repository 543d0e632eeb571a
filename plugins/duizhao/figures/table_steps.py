"""Table-specific steps of the region growing of :mod:`.detect` (issue 20).

A table's extent is its rules, the cell text between them and the notes under it; the
caption-anchored growth of :func:`.detect.growths` stops at the first wide gap or line it reads
as running text, which cuts tables whose rows stand a line apart or whose group rows are set
like prose. The steps here finish what the growth started:

* :func:`ruled_extent`: past where a table's growth stopped, on to the next rule of the extent
  of one it took, over the cells between, header cells read as headings too (never over
  another float's items, a caption, a line of prose as wide as the table, or a wide white
  gap).
* :func:`grid_extent`: an unruled table goes on, row by row, over rows whose cells start at
  its columns' left edges, however far apart its rows stand.
* :func:`table_notes`: the lines of small type right under a table's bottom rule (its notes)
  are the table's, however its growth ended.
* :func:`split_limits`: a table grown past its rule over a drawing that another caption
  (further on, its body lost) needs ends at that rule: two captions in one column are two
  floats, split between them.
* :func:`header_row`: a line under a caption set as a table's cells (apart by more than a
  word space) with a rule right under it is the table's header row, not the caption's next
  line (the caption's grammar, :mod:`.caption_steps`, asks).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..pdf.geometry import Box, overlap_len
from ..pdf.page_layout import Layout
from ..pdf.settings import Settings

if TYPE_CHECKING:
    from ..pdf.text import Line
    from .detect import _Growth, _Item


def _is_rule(item: _Item, s: Settings, min_width: float) -> bool:
    b = item.box
    return item.graphic and b[3] - b[1] <= s.float_rule_height and b[2] - b[0] >= min_width


def _aligned(a: Box, b: Box, s: Settings) -> bool:
    return abs(a[0] - b[0]) <= s.ruled_align and abs(a[2] - b[2]) <= s.ruled_align


def ruled_extent(grown: Sequence[_Growth], layout: Layout) -> None:
    """Extend each table's region (in place) to the farthest rule of its own extent that
    follows what it took, item by item away from its caption, while what lies between is
    the table's (see ``Settings.ruled_*``)."""
    s = layout.settings
    min_width = s.ruled_min_lines * layout.leading
    gap_limit = max(s.gap_floor, s.ruled_gap_lines * layout.leading)
    owned = {(id(g.caption.page), i.key) for g in grown for i in g.taken}
    for g in grown:
        if g.caption.kind != "table":
            continue
        rules = [i.box for i in g.taken if _is_rule(i, s, min_width)]
        if not rules:
            continue
        width = max(r[2] - r[0] for r in rules)
        page_key = id(g.caption.page)
        pending: list[_Item] = []
        edge = g.edge
        for item in g.items[g.next :]:
            b = item.box
            if (page_key, item.key) in owned:
                break  # another float's (or already this one's)
            gap = (edge - b[3]) if g.up else (b[1] - edge)
            if gap > gap_limit or (item.stop and not item.soft):
                break
            if item.soft and b[2] - b[0] >= s.ruled_prose * width:
                break  # a line of running text across the table: it ended
            pending.append(item)
            edge = min(edge, b[1]) if g.up else max(edge, b[3])
            if _is_rule(item, s, min_width) and any(_aligned(b, r, s) for r in rules):
                for p in pending:
                    g.taken.append(p)
                    owned.add((page_key, p.key))
                g.edge = edge
                pending = []


def table_notes(grown: Sequence[_Growth], layout: Layout) -> None:
    """Add to each table grown down from its caption (in place) the notes under its bottom
    rule: lines in type smaller than the body's (``Settings.note_size``), each within a row
    gap (``row_*``) of what is above, none another float's, a caption or running text."""
    s = layout.settings
    min_width = s.ruled_min_lines * layout.leading
    row_limit = max(s.row_floor, s.row_lines * layout.leading)
    owned = {(id(g.caption.page), i.key) for g in grown for i in g.taken}
    for g in grown:
        if g.caption.kind != "table" or g.up or not g.taken:
            continue
        last = max(g.taken, key=lambda i: i.box[3])
        if not _is_rule(last, s, min_width):
            continue  # no bottom rule: its notes are no different from its rows
        page_key = id(g.caption.page)
        sizes = {id(f): f.size for f in g.caption.page.layout.fragments}
        edge = last.box[3]
        for item in sorted(
            (i for i in g.items if i.box[1] >= edge - s.start_slack), key=lambda i: i.box[1]
        ):
            if (page_key, item.key) in owned:
                if item.box[3] <= edge + s.start_slack:
                    continue  # the table's own (its bottom rule), or level with it
                break  # another float's
            size = sizes.get(item.key)
            small = size is not None and size < s.note_size * layout.body
            if item.box[1] - edge > row_limit or not small or (item.stop and not item.soft):
                break
            g.taken.append(item)
            owned.add((page_key, item.key))
            edge = max(edge, item.box[3])
        g.edge = max(g.edge, edge)


def header_row(row: Sequence[Line], graphics: Sequence[Box], layout: Layout) -> bool:
    """``row`` (a line's fragments, left to right) is a table's header row: glyphs (its
    cells') apart by more than ``header_gap`` em somewhere, over a rule (no thicker than a
    float rule) across ``ruled_row_span`` of its width within ``header_rule_lines`` leadings
    under it (a two-line header's first line has the second between it and the rule)."""
    s = layout.settings
    size = max(f.size for f in row)
    glyphs = sorted((c for f in row for c in f.chars if not c.text.isspace()), key=lambda c: c.x0)
    edges = list(itertools.accumulate((c.x1 for c in glyphs), max))
    if not any(
        b.x0 - x1 > s.header_gap * size for x1, b in zip(edges[:-1], glyphs[1:], strict=True)
    ):
        return False
    x0, right, bottom = row[0].x0, max(f.x1 for f in row), max(f.y1 for f in row)
    reach = s.header_rule_lines * layout.leading
    return any(
        0 <= g[1] - bottom <= reach
        and g[3] - g[1] <= s.float_rule_height
        and overlap_len(g[0], g[2], x0, right) >= s.ruled_row_span * (right - x0)
        for g in graphics
    )


def split_limits(grown: Sequence[_Growth], layout: Layout) -> dict[int, float]:
    """Where tables must stop (by their caption's id: the y of their last rule) because they
    grew over another float: past a rule of theirs they took a drawing (a graphic neither a
    rule nor spanning their rules, as a cell's shading does) and a caption further on, in
    their span, holds no body of its own (a figure none drawn, a table nothing) or is a
    figure's caption facing the table, its region growing towards it."""
    s = layout.settings
    min_width = s.ruled_min_lines * layout.leading
    lost = [
        g
        for g in grown
        if not any(i.graphic for i in g.taken) and (g.caption.kind == "figure" or not g.taken)
    ]
    limits: dict[int, float] = {}
    for g in grown:
        if g.caption.kind != "table":
            continue
        rules: list[Box] = []
        for item in g.taken:
            if not lost:
                break
            if _is_rule(item, s, min_width):
                rules.append(item.box)
            elif item.graphic and rules and not any(_aligned(item.box, r, s) for r in rules):
                if any(_further(g, o, item.box) for o in lost):
                    edge = [r[1] for r in rules] if g.up else [r[3] for r in rules]
                    limits[id(g.caption)] = min(edge) if g.up else max(edge)
                break
        if id(g.caption) not in limits and (end := _facing_end(g, grown, layout)) is not None:
            limits[id(g.caption)] = end
    return limits


def _facing_end(g: _Growth, grown: Sequence[_Growth], layout: Layout) -> float | None:
    """The y of ``g``'s last rule (of its first rule's extent) when past it the table took a
    solid drawing (no cell's border: thicker than a float rule both ways) on the way to the
    caption of a figure growing towards it (captioned below, under a table captioned above):
    that figure had its upper part taken (IEEE's TABLE V over Fig. 9 in one column, subplots
    stacked a few points apart)."""
    s = layout.settings
    facing = [o for o in grown if o.caption.kind == "figure" and o.up != g.up]
    rules = [i.box for i in g.taken if _is_rule(i, s, s.ruled_min_lines * layout.leading)]
    if not facing or not rules:
        return None
    rules = [r for r in rules if _aligned(r, rules[0], s)]  # the table's, not a chart's axis
    end = min(r[1] for r in rules) if g.up else max(r[3] for r in rules)
    thin = s.float_rule_height
    for item in g.taken:
        b = item.box
        if (
            item.graphic
            and (b[3] <= end if g.up else b[1] >= end)
            and min(b[2] - b[0], b[3] - b[1]) > thin
            and any(_further(g, o, b) for o in facing)
        ):
            return end
    return None


def _further(g: _Growth, other: _Growth, drawing: Box) -> bool:
    """``other``'s caption lies beyond ``drawing`` from ``g``'s caption, in ``g``'s span."""
    cb, (s0, s1) = other.caption.box, g.caption.span
    if other.caption.page is not g.caption.page or overlap_len(cb[0], cb[2], s0, s1) <= 0:
        return False
    return cb[3] <= drawing[1] if g.up else cb[1] >= drawing[3]


def grid_extent(grown: Sequence[_Growth], layout: Layout) -> None:
    """Extend each table without rules (in place) row by row away from its caption over
    rows with at least ``grid_cells`` cells (and most of them) starting within
    ``grid_align`` pt of where its cells start, each within ``ruled_gap_lines`` leadings of
    the last, no drawing, no other float's item or caption, no line as wide as
    ``ruled_prose`` of the table."""
    s = layout.settings
    min_width = s.ruled_min_lines * layout.leading
    gap_limit = max(s.gap_floor, s.ruled_gap_lines * layout.leading)
    owned = {(id(g.caption.page), i.key) for g in grown for i in g.taken}
    for g in grown:
        text = [i for i in g.taken if not i.graphic]
        if g.caption.kind != "table" or any(_is_rule(i, s, min_width) for i in g.taken):
            continue
        starts = sorted({round(i.box[0], 1) for i in text})
        if len(starts) < s.grid_cells:
            continue
        width = max(i.box[2] for i in text) - min(i.box[0] for i in text)
        page_key = id(g.caption.page)
        rest = [i for i in g.items[g.next :] if (page_key, i.key) not in owned]
        edge = g.edge
        while rest:
            first = rest[0]
            row = [i for i in rest if min(i.box[3], first.box[3]) > max(i.box[1], first.box[1])]
            gap = (edge - first.box[3]) if g.up else (first.box[1] - edge)
            aligned = sum(any(abs(i.box[0] - x) <= s.grid_align for x in starts) for i in row)
            if (
                gap > gap_limit
                or aligned < max(s.grid_cells, (len(row) + 1) // 2)
                or any(i.graphic or (i.stop and not i.soft) for i in row)
                or any(i.box[2] - i.box[0] >= s.ruled_prose * width for i in row)
            ):
                break
            for i in row:
                g.taken.append(i)
                owned.add((page_key, i.key))
            edge = (
                min(edge, *(i.box[1] for i in row)) if g.up else max(edge, *(i.box[3] for i in row))
            )
            keys = {i.key for i in row}
            rest = [i for i in rest if i.key not in keys and (page_key, i.key) not in owned]
        g.edge = edge
