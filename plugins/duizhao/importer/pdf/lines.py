"""Steps on a laid-out paper's lines before they flow into units: the floats leave the text
(their captions, bodies, the text inside large drawings and the tick labels beside them),
scripts drawn off their line go back into it, running heads are named in the report."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ...pdf.geometry import Box, area, inside, merge_boxes, union
from ...pdf.page_layout import Layout, Note, PageLayout
from ...pdf.read import Char
from ...pdf.settings import SETTINGS, Settings
from ...pdf.text import Line, make_line, merge


class FloatLike(Protocol):
    """What a figure detector returns per float (``figures.detect.DetectedFigure``)."""

    @property
    def page(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def number(self) -> int: ...
    @property
    def caption(self) -> str: ...
    @property
    def box(self) -> Box: ...
    @property
    def caption_box(self) -> Box: ...


@dataclass(frozen=True)
class Float:
    """A figure or table of the paper: the shape of figures.detect's result, its caption as
    printed (label included)."""

    page: int
    kind: str  # "figure" | "table"
    label: str  # as printed: "Figure 3", "Fig. 3", "TABLE II"
    number: int
    caption: str
    box: Box
    caption_box: Box


def _box(b: Sequence[float]) -> Box:
    return (float(b[0]), float(b[1]), float(b[2]), float(b[3]))


def _within(ln: Line, box: Box, s: Settings) -> bool:
    return inside(ln.box, box, s.float_slack)


def use_floats(layout: Layout, floats: Sequence[FloatLike]) -> list[Float]:
    """Take the floats of a detector: the lines in their boxes leave the text flow, and each
    caption is read as printed, label and all, from the lines of its box."""
    s = layout.settings
    out = []
    for f in floats:
        page = layout.pages[f.page - 1] if 1 <= f.page <= len(layout.pages) else None
        lines = [ln for ln in page.lines if _within(ln, _box(f.caption_box), s)] if page else []
        printed = " ".join(ln.text for ln in lines) or f"{f.label}: {f.caption}"
        out.append(
            Float(f.page, f.kind, f.label, f.number, printed, _box(f.box), _box(f.caption_box))
        )
    for page in layout.pages:
        here = [f for f in out if f.page == page.number]
        if not here:
            continue
        page.lines = [_outside(ln, here, layout) for ln in page.lines]
        for ln in page.lines:
            for f in here:
                if _within(ln, f.caption_box, s):
                    ln.role = "caption"
                elif _within(ln, f.box, s) or straddles_float(ln, f.box, page, layout):
                    ln.role = "float"
        for f in here:
            _narrowed(page, f, layout)
    return out


def straddles_float(ln: Line, box: Box, page: PageLayout, layout: Layout) -> bool:
    """``ln`` crosses an edge of a float's box, inside its width: a plot's title or axis
    label the box was drawn a little short of ("Time (S)" half under it). Running text does
    not run through a drawing; a full line of it touching a loose box stays text."""
    s = layout.settings
    slack = s.float_slack
    if ln.x0 < box[0] - slack or ln.x1 > box[2] + slack:
        return False
    overlap = min(ln.y1, box[3]) - max(ln.y0, box[1])
    if overlap < s.straddle_overlap * (ln.y1 - ln.y0):
        return False
    return not (layout.body_like(ln, page) and layout.full_width(ln, page))


def _outside(ln: Line, floats: Sequence[Float], layout: Layout) -> Line:
    """A line without the fragments of it that lie in a float (on a page of one column a
    wrapfigure's labels share the baselines of the text beside it)."""
    s = layout.settings
    if len(ln.pieces) < 2:
        return ln
    kept = [
        p
        for p in ln.pieces
        if not any(_within(p, f.box, s) or _within(p, f.caption_box, s) for f in floats)
    ]
    if len(kept) == len(ln.pieces) or not kept:
        return ln
    line = merge(kept, layout.fonts, s)
    line.column, line.number = ln.column, ln.number
    return line


def _narrowed(page: PageLayout, f: Float, layout: Layout) -> None:
    """Text set beside a float in its column (a wrapfigure's) has the measure of its lines:
    their own edges tell its full lines and indents."""
    b = union((f.box, f.caption_box))
    beside = []
    for ln in page.lines:
        left, right = page.extent(ln)
        if (
            ln.role != "text"
            or min(ln.y1, b[3]) - max(ln.y0, b[1]) <= 0
            or b[0] < left - layout.body
            or b[2] > right + layout.body
        ):
            continue
        if ln.x1 <= b[0] or ln.x0 >= b[2]:
            beside.append(ln)
    for side in (True, False):
        lines = [ln for ln in beside if (ln.x1 <= b[0]) == side]
        if len(lines) < 2:
            continue
        left, right = page.extent(lines[0])
        edge = (left, max(ln.x1 for ln in lines)) if side else (min(ln.x0 for ln in lines), right)
        for ln in lines + wrap_tail(page, lines, edge, layout):
            ln.measure = edge


def wrap_tail(
    page: PageLayout, beside: Sequence[Line], edge: tuple[float, float], layout: Layout
) -> list[Line]:
    """The lines under those set beside a float that keep their measure (LaTeX's wrapfigure
    narrows a few more lines than the float is tall): set on within ``wrap_tail_lead``
    leadings of the line above, inside the narrowed edges, until one reaches past them."""
    s = layout.settings
    last = max(beside, key=lambda ln: ln.y0)
    column = [
        ln
        for ln in page.lines
        if ln.role == "text" and ln.column == last.column and ln.y0 > last.y0
    ]
    out: list[Line] = []
    for ln in sorted(column, key=lambda ln: ln.y0):
        if ln.y0 - last.y1 > s.wrap_tail_lead * layout.leading:
            break
        if ln.x0 < edge[0] - s.float_slack or ln.x1 > edge[1] + s.float_slack:
            break
        out.append(ln)
        last = ln
    return out


def use_listings(layout: Layout, listings: Sequence[FloatLike]) -> dict[int, int]:
    """Algorithms and listings whose body the detector found (its box taller than
    ``listing_lines`` leadings; a box that stops at the rule under the caption says nothing
    of where the body ends): their lines leave the prose as a block (roles ``listing`` and
    ``listing_caption``), which the flow sets after the paragraph they interrupt. Returns
    which listing (its index) each of those lines (by ``id``) belongs to."""
    s = layout.settings
    groups: dict[int, int] = {}
    for n, f in enumerate(listings):
        if not 1 <= f.page <= len(layout.pages):
            continue
        box, caption = _box(f.box), _box(f.caption_box)
        if box[3] - box[1] < s.listing_lines * layout.leading:
            continue
        for ln in layout.pages[f.page - 1].lines:
            if ln.role != "text":
                continue
            if _within(ln, caption, s):
                ln.role = "listing_caption"
            elif _within(ln, box, s):
                ln.role = "listing"
            else:
                continue
            groups[id(ln)] = n
    return groups


def use_captions(layout: Layout, boxes: Sequence[tuple[int, Box]]) -> None:
    """Captions whose float has no body found: their lines leave the text flow all the same."""
    for number, box in boxes:
        if 1 <= number <= len(layout.pages):
            for ln in layout.pages[number - 1].lines:
                if ln.role == "text" and _within(ln, box, layout.settings):
                    ln.role = "caption"


def drawings(page: PageLayout, s: Settings = SETTINGS) -> list[Box]:
    """The page's drawings, touching ones merged (a plot of 10 000 paths is one box), without
    page-size backgrounds and invisible specks."""
    limit = s.drawing_share * page.width * page.height
    boxes = [
        g.box
        for g in page.graphics
        if area(g.box) <= limit
        and not (g.box[2] - g.box[0] < s.speck and g.box[3] - g.box[1] < s.speck)
    ]
    return merge_boxes(boxes)


_TICK_RE = re.compile(r"^[-+−]?[0-9][0-9.,]{0,12} ?(?:%|[a-zA-Zµ]{1,3})?$")


def sweep_float_text(layout: Layout, floats: Sequence[Float]) -> None:
    """Text inside a float's box, or inside a large drawing without a caption, is not prose;
    nor are tick labels ("0.5", "10", "250ms") just outside a float's box."""
    s = layout.settings
    m = layout.body
    for page in layout.pages:
        own = [f.box for f in floats if f.page == page.number]
        large = s.large_drawing * m * m
        boxes = own + [g for g in drawings(page, s) if area(g) > large]
        for ln in page.lines:
            if ln.role != "text":
                continue
            for b in boxes:
                if _within(ln, b, s):
                    if not layout.body_like(ln, page) or b in own:
                        ln.role = "float"
                    break
            else:
                if _TICK_RE.match(ln.text) and any(
                    _within(
                        ln,
                        (b[0] - s.tick_reach * m, b[1] - m, b[2] + s.tick_reach * m, b[3] + m),
                        s,
                    )
                    for b in own
                ):
                    ln.role = "float"


def small_type(ln: Line, body: float, s: Settings = SETTINGS) -> bool:
    """Set in small type throughout: a line with a body-size letter or digit is not
    ("G" + "txcreate", "2" + "256": its scripts may outnumber the body-size glyphs)."""
    return ln.size < s.small_type * body and not any(
        ch.size >= s.body_glyph * body and ch.text.isalnum() for ch in ln.chars
    )


def _covers(ch: Char, script: Char, s: Settings) -> bool:
    """``ch`` stands over or under ``script`` (loose boxes of neighbours overlap a little)."""
    overlap = min(ch.x1, script.x1) - max(ch.x0, script.x0)
    return overlap > s.limit_overlap * min(ch.x1 - ch.x0, script.x1 - script.x0)


def _host(ln: Line, hosts: Sequence[Line], layout: Layout) -> Line | None:
    """The body-size line a small fragment is a script of: the one it overlaps most."""
    s = layout.settings
    best, most = None, 0.0
    for host in hosts:
        overlap = min(ln.y1, host.y1) - max(ln.y0, host.y0)
        if (
            overlap > most
            and host.x0 - s.script_reach[0] * layout.body <= ln.x0
            and ln.x1 <= host.x1 + s.script_reach[1] * layout.body
            # a limit under or over a large operator is no script of the line
            and not any(_covers(ch, sc, s) for sc in ln.chars for ch in host.chars)
        ):
            best, most = host, overlap
    if best is not None and most >= s.script_overlap * (ln.y1 - ln.y0):
        return best
    return None


def attach_scripts(layout: Layout) -> None:
    """Sub- and superscripts drawn off their line's baseline (``log`` + ``P`` + a 5 pt ``1``)
    become fragments of their own; each small one that overlaps a body-size line of text by a
    third of its height, within that line's width, is put back into it in x order. A footnote
    or figure text overlaps no line of running text."""
    s = layout.settings
    for page in layout.pages:
        text = [ln for ln in page.lines if ln.role == "text"]
        hosts = [ln for ln in text if layout.body_sized(ln)]
        taken: dict[int, list[Line]] = {}
        for ln in text:
            if ln.size >= s.small_type * layout.body or len(ln.chars) > s.script_chars:
                continue
            host = _host(ln, hosts, layout)
            if host is not None:
                taken.setdefault(id(host), [host]).append(ln)
        if not taken:
            continue
        gone = {id(x) for group in taken.values() for x in group[1:]}
        lines: list[Line] = []
        for ln in page.lines:
            if id(ln) in gone:
                continue
            group = taken.get(id(ln))
            if group is not None:
                chars = sorted((ch for g in group for ch in g.chars), key=lambda c: c.x0)
                merged = make_line(ln.page, chars, layout.fonts, gaps=ln.gaps, s=s)
                merged.size, merged.column, merged.number = ln.size, ln.column, ln.number
                merged.parts = ln.parts
                ln = merged
            lines.append(ln)
        page.lines = lines


def running_notes(layout: Layout) -> list[Note]:
    return [
        Note(ln.page, ln.number, f"dropped running head/foot {ln.text!r}")
        for page in layout.pages
        for ln in page.lines
        if ln.role == "running"
    ]
