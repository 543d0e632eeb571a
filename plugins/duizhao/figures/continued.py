"""Tables broken across columns or pages: the part without a caption.

A table captioned above it that runs to the foot of its column goes on at the top of the next
column (a two-column page's right one) or of the next page, in the same span, with no caption
(its header row repeated, or not: Word splits a table where the column ends). That part is
reported as an item of its own, with the same label and caption, so that both parts get a
crop: :func:`continued_tables`, after regions are grown.

What makes the top of the next column that part: no running text, heading or caption opens
it; its items stand within a few leadings of one another; they lie in the table's span and
reach across most of it; cells (a row of fragments set apart) or rules are among them (a
picture stops them); and no float found holds them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..pdf.geometry import Box, overlap_len, shares_area, union
from ..pdf.page_layout import Layout
from .caption_steps import Caption
from .running import DetectPage


@dataclass(frozen=True)
class Broken:
    """A table whose body ends at the foot of its column: where its next part would be."""

    page: int  # the 1-based number of the page of the next part
    span: tuple[float, float]  # the x extent the next part lies in


def _foot_of_column(page: DetectPage, box: Box, caption: Box, layout: Layout) -> bool:
    """``box`` (a table's body under its caption) reaches the foot of its column: within
    ``continued_foot`` leadings of the text band's bottom, nothing of the page's text (but its
    margins) under it in its span."""
    s = layout.settings
    if caption[3] > box[1] + s.continued_slack:
        return False  # captioned below: its first part (if broken) has no caption
    if box[3] < layout.band[1] - s.continued_foot * layout.leading:
        return False
    return not any(
        f.y0 >= box[3] - s.continued_slack
        and overlap_len(f.x0, f.x1, box[0], box[2]) > 0
        and id(f) not in page.margin
        for f in page.layout.fragments
    )


def _next_place(pages: Sequence[DetectPage], k: int, box: Box, layout: Layout) -> Broken | None:
    """Where the part after ``box`` (on ``pages[k]``) stands: the right column of the same
    page for a table in the left one, else the next page in the same span; as far out of
    that column as ``box`` reaches out of its own, and at least as wide as ``box`` from
    there (Word's columns measured by their text are narrower than its tables)."""
    s = layout.settings
    pl = pages[k].layout
    column = pl.column_of(box[0], box[2], s.continued_span_share)
    if column is not None and len(pl.columns) == 2 and column == pl.columns[0]:
        number, target = pl.number, pl.columns[1]
    elif k + 1 >= len(pages):
        return None
    else:
        nxt = pages[k + 1].layout
        number = nxt.number
        if column is None or len(pl.columns) == 1:
            column, target = pl.text_span, nxt.text_span  # page-wide on the next page too
        else:
            target = nxt.columns[min(pl.columns.index(column), len(nxt.columns) - 1)]
    left, right = max(0.0, column[0] - box[0]), max(0.0, box[2] - column[1])
    x0 = target[0] - left
    return Broken(number, (x0, max(target[1] + right, x0 + box[2] - box[0])))


def _top_part(
    page: DetectPage, span: tuple[float, float], stops: list[Box], layout: Layout
) -> tuple[Box, bool] | None:
    """The items at the top of ``span`` on ``page`` down to the first stop or wide gap: (their
    box, whether they hold cells or rules), or None when running text, a heading or a caption
    opens the column, or nothing stands at its top."""
    s = layout.settings
    top = layout.band[0] - s.continued_foot * layout.leading
    inside = s.continued_span_share
    items: list[tuple[Box, bool, bool]] = []  # box, stops, a cell or a rule
    for f in page.layout.fragments:
        if id(f) in page.margin or f.y0 < top:
            continue
        if overlap_len(f.x0, f.x1, *span) < inside * (f.x1 - f.x0):
            continue
        stop = id(f) in page.body or id(f) in page.headings
        items.append((f.box, stop, f.gaps > 0))
    thin = s.float_rule_height
    for g in page.graphics:
        if g[1] >= top and overlap_len(g[0], g[2], *span) >= inside * (g[2] - g[0]):
            rule = min(g[2] - g[0], g[3] - g[1]) <= thin
            items.append((g, not rule, rule))  # a picture is no table's: it stops the part
    items += [(b, True, False) for b in stops if overlap_len(b[0], b[2], *span) > 0]
    items.sort(key=lambda i: i[0][1])
    box: Box | None = None
    telling = False
    gap = s.continued_gap * layout.leading
    for b, stop, cell in items:
        if box is None and b[1] > layout.band[0] + s.continued_top * layout.leading:
            break  # the column opens with white: no part carried over
        if stop or (box is not None and b[1] > box[3] + gap):
            break
        box = b if box is None else union((box, b))
        telling = telling or cell
    return (box, telling) if box is not None else None


def continued_tables(
    pages: Sequence[DetectPage],
    tables: Sequence[tuple[int, Box, Box]],
    captions: Sequence[Caption],
    taken: Sequence[tuple[int, Box]],
    layout: Layout,
) -> list[tuple[int, int, Box]]:
    """The parts of broken ``tables`` at the top of the next column or page, each as (index
    in ``tables``, page number, box). A table is (page number, body box, caption box);
    ``taken`` holds the boxes of every float found, with their page numbers."""
    s = layout.settings
    index = {p.layout.number: k for k, p in enumerate(pages)}
    out: list[tuple[int, int, Box]] = []
    for t, (number, box, caption) in enumerate(tables):
        k = index[number]
        if not _foot_of_column(pages[k], box, caption, layout):
            continue
        place = _next_place(pages, k, box, layout)
        if place is None:
            continue
        page = pages[index[place.page]]
        stops = [c.box for c in captions if c.page is page]
        part = _top_part(page, place.span, stops, layout)
        if part is None or not part[1]:
            continue
        found = part[0]
        width = min(box[2] - box[0], place.span[1] - place.span[0])
        if found[2] - found[0] < s.continued_width * width:
            continue
        if any(p == place.page and shares_area(found, b) for p, b in taken):
            continue
        out.append((t, place.page, found))
    return out
