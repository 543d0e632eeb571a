"""Step 1 of the figure detection: which fragments of a page stop a float's region.

*Running text* is a fragment of body size that fills most of one column from its left edge,
alone on its line, not monospaced and not drawn inside a graphic, the short last line of a
paragraph (one resumed under a float too), and running text narrowed beside a wrapfigure;
section headings stop a region as it does; running heads and folios lie outside it. Pure: on
the engine's page layout.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..pdf.furniture import between_rules
from ..pdf.geometry import Box, area, inside, overlap_len
from ..pdf.headings import heading_like
from ..pdf.page_layout import Layout, PageLayout, margin
from ..pdf.settings import Settings
from ..pdf.text import Line


@dataclass
class DetectPage:
    """A page as the detector sees it: its layout and which fragments stop a region."""

    layout: PageLayout
    #: ids of fragments of running text
    body: set[int] = field(default_factory=set)
    #: ids of fragments outside the text band (running heads, folios, stamps)
    margin: set[int] = field(default_factory=set)
    #: ids of fragments of section headings (they stop a region as running text does)
    headings: set[int] = field(default_factory=set)
    #: the graphics a float may hold (not page backgrounds)
    graphics: list[Box] = field(default_factory=list)
    #: a template's float rules, by index in ``graphics``: each closes the float of the
    #: caption (its ``id``) it belongs to and stops every other float's region (see
    #: :func:`duizhao.figures.caption_steps.float_rules`)
    closing: dict[int, int] = field(default_factory=dict)
    #: the frames drawn around captions alone (BMC's legends), by index in ``graphics``:
    #: they stop every region, their own caption's too (see
    #: :func:`duizhao.figures.caption_steps.caption_frames`)
    frames: set[int] = field(default_factory=set)


def running_text(layout: Layout) -> list[DetectPage]:
    """Mark every page's fragments of running text and of the margins (see step 1)."""
    s = layout.settings
    pages = []
    furniture = _furniture(layout)
    for pl in layout.pages:
        page = DetectPage(pl)
        limit = s.background_share * pl.width * pl.height
        heads = [
            ln
            for ln in pl.lines
            if (ln.role == "running" or margin(layout, ln.box)) and any(map(str.isalpha, ln.text))
        ]
        page.graphics = [
            g.box
            for g in pl.graphics
            if area(g.box) <= limit
            and not _running_rule(g.box, heads, layout)
            and (pl.number, _place(g.box)) not in furniture
        ]
        rows = {id(p) for ln in pl.lines if len(ln.pieces) > 1 for p in ln.pieces}
        rules = _row_rules(page.graphics, pl, s)
        for ln in pl.lines:
            if heading_like(ln, layout.body, s):
                page.headings.update(id(p) for p in ln.pieces or [ln])
        for f in pl.fragments:
            if f.role != "text" or margin(layout, f.box):
                page.margin.add(id(f))
                continue
            col = pl.column_of(f.x0, f.x1, s.column_share)
            if (
                body_sized(layout, f)
                and id(f) not in rows
                and col is not None
                and f.width >= s.body_width * (col[1] - col[0])
                and col[0] - s.body_start_slack <= f.x0 <= col[0] + s.body_indent * layout.body
                and f.x1 <= col[1] + s.body_start_slack
                and not _inside_graphic(f, page.graphics, s)
                and not between_rules(f.box, rules, layout)
            ):
                page.body.add(id(f))
        _narrowed_text(page, layout)
        _paragraph_ends(page, layout, rows)
        pages.append(page)
    return pages


def _place(g: Box) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = (round(v) for v in g)
    return (x0, y0, x1, y1)


def _furniture(layout: Layout) -> set[tuple[int, tuple[int, int, int, int]]]:
    """The graphics (page number, rounded box) of the page furniture: drawn in a page's
    running zone (``running_zone`` of its height at its top or bottom), above all its text or
    under it, and at the same place (within ``running_height`` pt each way) on another page:
    a journal's logo in its running head (PLOS's submission template), a footer's rule. A
    figure set under it would grow up to it."""
    s = layout.settings
    outside: list[tuple[int, Box]] = []
    for pl in layout.pages:
        text = [ln for ln in pl.lines if ln.role == "text"]
        top = min([s.running_zone * pl.height, *(ln.y0 for ln in text)])
        bottom = max([(1 - s.running_zone) * pl.height, *(ln.y1 for ln in text)])
        outside += [
            (pl.number, g.box) for g in pl.graphics if g.box[3] <= top or g.box[1] >= bottom
        ]
    found: set[tuple[int, tuple[int, int, int, int]]] = set()
    outside.sort(key=lambda e: e[1][1])
    for k, (n, a) in enumerate(outside):
        # (sorted by top: only those starting within running_height under it can match)
        for m, b in outside[k + 1 :]:
            if b[1] - a[1] > s.running_height:
                break
            if n != m and all(abs(u - v) <= s.running_height for u, v in zip(a, b, strict=True)):
                found.add((n, _place(a)))
                found.add((m, _place(b)))
    return found


def _running_rule(g: Box, heads: Sequence[Line], layout: Layout) -> bool:
    """``g`` is a running head's rule: thin, right under a running head or over a running
    footer (``heads``: the page's running lines and the lines outside its text band, as a
    head worded on one page alone is; a folio alone is none: a table's bottom rule may stand
    close over it), within ``running_rule_reach`` leadings of it and
    across most of its width (``running_rule_span``). Page furniture, as the head is: a
    figure set under it would otherwise grow up to it and take the text width."""
    s = layout.settings
    if g[3] - g[1] > s.float_rule_height:
        return False
    reach = s.running_rule_reach * layout.leading
    for ln in heads:
        if overlap_len(g[0], g[2], ln.x0, ln.x1) < s.running_rule_span * ln.width:
            continue
        if 0 <= g[1] - ln.y1 <= reach or 0 <= ln.y0 - g[3] <= reach:
            return True
    return False


def _narrowed_text(page: DetectPage, layout: Layout) -> None:
    """Running text set narrower than its column, beside a wrapfigure: a stack of body-size
    lines from the column's left edge, one leading apart, justified to one right edge (the
    figure's labels may share their baselines). Table cells are ragged or start right of
    the column's edge."""
    s = layout.settings
    lead = layout.leading
    pl = page.layout
    stack: list[Line] = []

    def close() -> None:
        rights = Counter(round(f.x1) for f in stack)
        if len(stack) >= s.narrow_lines and rights.most_common(1)[0][1] >= s.narrow_justified:
            page.body.update(id(f) for f in stack)
        stack.clear()

    candidates = sorted(
        (
            f
            for f in pl.fragments
            if id(f) not in page.body
            and id(f) not in page.margin
            and len(f.chars) >= s.narrow_chars
            and body_sized(layout, f)
            and any(abs(f.x0 - c0) <= s.body_start_slack for c0, _c1 in pl.columns)
        ),
        key=lambda f: (round(f.x0), f.y0),
    )
    for f in candidates:
        if stack:
            last = stack[-1]
            pitch = f.y0 - last.y0
            same_start = abs(f.x0 - last.x0) <= s.body_start_slack
            if not (
                same_start and s.paragraph_pitch[0] * lead <= pitch <= s.paragraph_pitch[1] * lead
            ):
                close()
        stack.append(f)
    if stack:
        close()


def body_sized(layout: Layout, f: Line) -> bool:
    """Body size, and not code (a listing set as a figure is body-sized but monospaced)."""
    return layout.body_sized(f) and not layout.mono(f)


def _row_rules(graphics: Sequence[Box], pl: PageLayout, s: Settings) -> list[Box]:
    """The thin rules of a page long enough to rule a line of running text (a table's)."""
    narrowest = min(c1 - c0 for c0, c1 in pl.columns)
    least = s.ruled_row_span * s.body_width * narrowest
    return [g for g in graphics if g[3] - g[1] <= s.float_rule_height and g[2] - g[0] >= least]


def _inside_graphic(f: Line, graphics: Sequence[Box], s: Settings) -> bool:
    slack = s.inside_slack
    return any(
        inside(f.box, g, slack) and (g[3] - g[1]) > s.inside_height * (f.y1 - f.y0)
        for g in graphics
    )


def _paragraph_ends(page: DetectPage, layout: Layout, rows: set[int]) -> None:
    """Mark the short last line of a paragraph as running text: body-sized, starting at the
    column's left edge one line below a body line, or, alone on its line (no table row),
    one line above one (a paragraph resumed under a float, ending in a short line, and the
    next paragraph)."""
    s = layout.settings
    lead = layout.leading
    frags = page.layout.fragments
    body = sorted((f for f in frags if id(f) in page.body), key=lambda f: f.y0)
    tops = [f.y0 for f in body]
    for f in frags:
        if id(f) in page.body or id(f) in page.margin or not body_sized(layout, f):
            continue
        col = page.layout.column_of(f.x0, f.x1, s.column_share)
        if col is None or abs(f.x0 - col[0]) > s.body_start_slack:
            continue
        if _inside_graphic(f, page.graphics, s):
            continue
        lo = bisect.bisect_left(tops, f.y0 - s.paragraph_pitch[1] * lead)
        hi = bisect.bisect_right(tops, f.y0 - s.paragraph_pitch[0] * lead)
        if any(abs(b.x0 - f.x0) <= s.body_indent * layout.body for b in body[lo:hi]):
            page.body.add(id(f))
            continue
        if id(f) in rows:
            continue
        lo = bisect.bisect_left(tops, f.y0 + s.paragraph_pitch[0] * lead)
        hi = bisect.bisect_right(tops, f.y0 + s.paragraph_pitch[1] * lead)
        if any(0 <= b.x0 - f.x0 <= s.body_indent * layout.body for b in body[lo:hi]):
            page.body.add(id(f))
