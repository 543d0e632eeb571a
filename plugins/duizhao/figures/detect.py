"""Find a paper's figures and tables in its PDF: number, caption and crop box.

Caption-anchored region growing, after pdffigures2 (Clark & Divvala, JCDL 2016), on the page
model of :mod:`duizhao.pdf` (its reader, its layout pass, its caption grammar and its
settings). The steps, each a function:

1. **Running text** (:func:`.running.running_text`): a fragment of body size that fills most of one
   column from its left edge, alone on its line, not monospaced and not drawn inside a
   graphic (and the short last line of a paragraph). It stops a region.
2. **Captions** (:mod:`.caption_steps`: :func:`caption_starts`, :func:`extend`): a
   fragment opening with a label set apart ("Figure 3:", "Fig. 3.", "TABLE II" alone on its
   line, a bold label) starts a caption; the rest of its line and the lines right below it,
   of its size and with no rule between, continue it; a caption's first line stops at
   another caption's label on its baseline (captions of floats side by side). A label
   repeated in the body text loses to one with a bold label or graphics beside it
   (:func:`choose`); one opening a line inside a paragraph is a reference.
3. **Regions** (:func:`grow`): a caption's column is the text column it sits in, or the text
   width when it crosses the gutter (shared with a caption beside it) or when its float does
   (:func:`widen`); the marks drawn in a caption's lines (an underscore drawn as a rule) are
   its own (:func:`caption_mark`). A template's float rules close their floats
   (:func:`float_rules`). From
   the caption the region grows away from it (up for figures; for tables the side where the
   paper puts its tables, by a vote, as captions sit above *or* below them; a figure whose
   region on that side is another float's takes the other side when that is nobody's,
   :func:`.caption_steps.unshared_sides`) over graphics and non-body text until running
   text, another caption,
   another float's rule, a wide gap or the running heads; captions side by side part their
   spans at the white gap between them (:func:`_split`); a figure with nothing above or
   below its caption has its body beside it (:func:`beside`, a side caption). All captions
   grow at once, nearest item first, so what lies between two floats goes to the one it
   hangs together with. Text standing apart beyond a figure's graphics is dropped (:func:`trim`).
   A table's region then reaches its own rules, cell grid and notes, and stops at its last
   rule where another caption needs what lies past it (:mod:`.table_steps`).
4. **Ink**: the box, cut clear of the running heads and folios it reaches over
   (:func:`.body_guards.clear_of_furniture`), is trimmed to the ink the page renders inside it.

A caption whose region holds nothing is reported ("Figure 4: caption found, body not found;
box it by hand"), never boxed around itself. Boxes are in PDF points from the top-left of
the page as rendered (the crop box), the units of ``<article>.figures.yml``.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..pdf.captions import REPORTED
from ..pdf.geometry import Box, intersects, overlap_len, rounded, shares_area, union
from ..pdf.hyphens import Joiner
from ..pdf.ink import trim_to_ink
from ..pdf.page_layout import Layout, analyse
from ..pdf.read import Document, PdfError, Progress, read_pdf
from ..pdf.settings import Settings
from ..yamlsafe import load_json
from .body_guards import clear_of_furniture, keep_to_columns, mend_thin, padded
from .caption_steps import (
    Caption,
    caption_frames,
    caption_mark,
    float_rules,
    page_captions,
    side_by_side,
    unshared_sides,
)
from .continued import continued_tables
from .rotated import rotated_tables
from .running import DetectPage, body_sized, running_text
from .table_steps import grid_extent, ruled_extent, split_limits, table_notes

#: Bumped when a change here changes what is detected (the detection cache is keyed by it).
DETECT_VERSION = 51

__all__ = [
    "DETECT_VERSION",
    "DetectedFigure",
    "Detection",
    "PdfError",
    "Progress",
    "Unboxed",
    "detect_bytes",
    "detect_cached",
    "detect_document",
    "detect_figures",
]


@dataclass(frozen=True)
class DetectedFigure:
    """One figure or table found in a PDF."""

    page: int  # 1-based
    kind: str  # "figure" | "table"
    label: str  # as printed: "Figure 3", "Fig. 3", "Table 2", "TABLE II"
    number: int  # 3, 2 (roman numerals converted)
    caption: str  # caption text without the label, whitespace normalised
    box: Box  # body crop, PDF points from top-left
    caption_box: Box  # the caption's own box, same units


@dataclass(frozen=True)
class Unboxed:
    """A caption whose float's body was not found: to be boxed by hand."""

    page: int
    kind: str
    label: str
    number: int
    caption: str
    caption_box: Box

    def message(self) -> str:
        return f"page {self.page}: {self.label}: caption found, body not found; box it by hand"


# --------------------------------------------------------------------------------------------
# 3. Regions


@dataclass
class _Item:
    box: Box
    stop: bool
    #: identity on its page (the fragment or graphic it stands for)
    key: int
    graphic: bool = False
    #: a stop only as running text or a heading (a table's cell or header may read as one:
    #: :mod:`.table_steps`), not as another caption's or float's
    soft: bool = False


def _split(page: DetectPage, left: Caption, right: Caption, layout: Layout) -> float:
    """Where the floats of two captions side by side part: the middle of the widest white
    gap between the captions in what is drawn just over and under them (a short caption
    beside a long one leaves its chart's right part beyond its text), else the middle
    between the captions."""
    s = layout.settings
    lb, rb = left.box, right.box
    a, b = lb[2], rb[0]
    reach = s.sibling_split_reach * layout.leading
    top, bottom = min(lb[1], rb[1]) - reach, max(lb[3], rb[3]) + reach
    own = left.own | right.own
    apart = page.body | page.margin | page.headings | own
    boxes = itertools.chain(
        page.graphics, (f.box for f in page.layout.fragments if id(f) not in apart)
    )
    inked = sorted(
        (max(g[0], a), min(g[2], b))
        for g in boxes
        if g[2] > a and g[0] < b and g[3] > top and g[1] < bottom
    )
    best, at, x = 0.0, (a + b) / 2, a
    for g0, g1 in [*inked, (b, b)]:
        if g0 - x > best:
            best, at = g0 - x, (x + g0) / 2
        x = max(x, g1)
    return at


def _items(caption: Caption, others: Sequence[Caption], layout: Layout) -> list[_Item]:
    """What a caption's float may be made of: the page's text and graphics in its span."""
    s = layout.settings
    page = caption.page
    s0, s1 = caption.span
    own = caption.own
    # Captions side by side (two minipages in one float) share the span; they need not
    # start on one line (a caption of two lines beside one of a single line).
    cb = caption.box
    # A page-wide float's caption (:func:`widen`) shares its span only with a caption on its
    # own lines: one in the other column on the lines under it is a float set under it.
    near = (s.wide_beside_lines if caption.wide else s.beside_lines) * layout.leading
    for other in others:
        ob = other.box
        if other is caption or other.page is not page:
            continue
        if min(ob[3], cb[3]) - max(ob[1], cb[1]) > -near or (
            not caption.wide and not other.wide and side_by_side(caption, other, others, layout)
        ):
            if ob[2] <= cb[0]:
                s0 = max(s0, _split(page, other, caption, layout))
            elif ob[0] >= cb[2]:
                s1 = min(s1, _split(page, caption, other, layout))
    # Running text beside the caption (a wrapfigure's, a wraptable's), on its lines or the
    # next few: the float lies on the caption's side of it.
    # (A page-wide float has none beside its caption: see :func:`widen`.)
    reach = s.beside_lines * layout.leading
    span = caption.span
    wrapped = False
    for f in [] if caption.wide or caption.across_gutter else page.layout.fragments:
        if id(f) in page.body and min(f.y1, cb[3] + reach) - max(f.y0, cb[1] - reach) > 0:
            if f.x1 <= cb[0]:
                s0 = max(s0, (f.x1 + cb[0]) / 2)
            elif f.x0 >= cb[2]:
                s1 = min(s1, (f.x0 + cb[2]) / 2)
            else:
                continue
            # running text in the caption's own column: a wrapfigure's
            wrapped |= overlap_len(f.x0, f.x1, *span) > s.region_share * f.width
    # Beside running text, a graphic reaching out of the span across that text (a margin
    # note's leader line, drawn from a word to the margin) is none of the float's.
    stoppers = set().union(*(o.own for o in others if o.page is page and o is not caption))
    items: list[_Item] = []
    for f in page.layout.fragments:
        if id(f) in own or id(f) in page.margin:
            continue
        if overlap_len(f.x0, f.x1, s0, s1) < s.region_share * f.width:
            continue
        soft = id(f) in page.body or id(f) in page.headings
        hard = id(f) in stoppers
        items.append(_Item(f.box, hard or soft, id(f), soft=soft and not hard))
    band = layout.band
    for i, g in enumerate(page.graphics):
        if g[3] < band[0] - s.band_slack or g[1] > band[1] + s.band_slack:
            continue
        if caption_mark(g, caption, s):
            continue
        w = max(g[2] - g[0], 0.1)
        if overlap_len(g[0], g[2], s0, s1) < s.region_share * w:
            continue
        if wrapped and (g[0] < s0 - s.wrap_reach or g[2] > s1 + s.wrap_reach):
            continue
        closes = page.closing.get(i, id(caption)) != id(caption)  # another float's rule
        closes |= i in page.frames  # a frame around a caption alone holds no body
        items.append(_Item(g, closes, -1 - i, graphic=True))
    return items


@dataclass
class _Growth:
    """One caption's region growing away from it, item by item, nearest first."""

    caption: Caption
    up: bool
    items: list[_Item]
    edge: float
    taken: list[_Item] = field(default_factory=list)
    next: int = 0
    done: bool = False

    def distance(self, item: _Item) -> float:
        return (self.edge - item.box[3]) if self.up else (item.box[1] - self.edge)

    def take(self, item: _Item) -> None:
        self.taken.append(item)
        self.edge = min(self.edge, item.box[1]) if self.up else max(self.edge, item.box[3])
        self.next += 1


def grow(
    seeds: Sequence[tuple[Caption, bool]], captions: Sequence[Caption], layout: Layout
) -> list[Box | None]:
    """The boxes of the regions of ``seeds`` (caption, up), grown together (see
    :func:`growths`); None where a region holds nothing. A sliver is no table's body, and a
    float captioned in one column keeps off the other's running text (:mod:`.body_guards`)."""
    for _again in range(2):  # again when a float was kept to its caption's column
        grown = growths(seeds, captions, layout)
        limits = split_limits(grown, layout)
        if limits:
            grown = growths(seeds, captions, layout, limits)
        ruled_extent(grown, layout)
        grid_extent(grown, layout)
        table_notes(grown, layout)
        mend_thin(grown, layout)
        boxes = [_box_of(g, layout) for g in grown]
        if not keep_to_columns(seeds, boxes, layout):
            break
    return boxes


def beside(
    caption: Caption, captions: Sequence[Caption], taken: Sequence[Box], layout: Layout
) -> Box | None:
    """A figure whose caption is set beside it (a side caption, its lines beside the drawing):
    when nothing lies above or below the caption, the graphics and figure text on one side of
    it, level with its lines, are the body, with what hangs on to them above and below (within
    ``row_lines`` leadings, up to running text or another caption). None when that side draws
    nothing, or where it meets what another float took (``taken``)."""
    s = layout.settings
    cb = caption.box
    items = [
        i for i in _items(caption, captions, layout) if not any(intersects(i.box, t) for t in taken)
    ]
    gap = max(s.row_floor, s.row_lines * layout.leading)
    best: list[_Item] = []
    for side in (0, 1):
        out = [
            i
            for i in items
            if (
                i.box[2] <= cb[0] + s.start_slack
                if side == 0
                else i.box[0] >= cb[2] - s.start_slack
            )
        ]
        level = [i for i in out if not i.stop and i.box[3] > cb[1] and i.box[1] < cb[3]]
        if not any(i.graphic for i in level):
            continue
        top, bottom = min(i.box[1] for i in level), max(i.box[3] for i in level)
        body = list(level)
        for i in sorted((i for i in out if i.box[3] <= top), key=lambda i: -i.box[3]):
            if top - i.box[3] > gap or i.stop:
                break
            body.append(i)
            top = min(top, i.box[1])
        for i in sorted((i for i in out if i.box[1] >= bottom), key=lambda i: i.box[1]):
            if i.box[1] - bottom > gap or i.stop:
                break
            body.append(i)
            bottom = max(bottom, i.box[3])
        if len(body) > len(best):
            best = body
    return union(i.box for i in best) if best else None


def _box_of(g: _Growth, layout: Layout) -> Box | None:
    if not g.taken:
        return None
    pl = g.caption.page.layout
    kept = trim(g, layout)
    if g.caption.kind == "figure" and not _draws(kept, g.caption, layout):
        return None  # prose alone or tiny marks: no body (the caption is reported)
    box = union(i.box for i in kept)
    box = (max(0.0, box[0]), max(0.0, box[1]), min(pl.width, box[2]), min(pl.height, box[3]))
    return clear_of_furniture(box, pl)


def _draws(items: Sequence[_Item], caption: Caption, layout: Layout) -> bool:
    """``items`` are a figure's body: at least ``figure_ink_min`` both ways, and graphics
    as large, or text that is no prose (code, or type of neither the body's size nor the
    caption's)."""
    s = layout.settings

    def large(boxes: Sequence[Box]) -> bool:
        x0, y0, x1, y1 = union(boxes)
        return min(x1 - x0, y1 - y0) >= s.figure_ink_min

    if not large([i.box for i in items]):
        return False
    graphics = [i.box for i in items if i.graphic]
    if graphics and large(graphics):
        return True  # a few tiny marks are no drawing
    size = caption.lines[-1].size
    keys = {i.key for i in items}
    return any(
        layout.mono(f) or not (body_sized(layout, f) or abs(f.size - size) <= s.caption_size)
        for f in caption.page.layout.fragments
        if id(f) in keys
    )


def _rule(item: _Item, s: Settings) -> bool:
    return item.graphic and item.box[3] - item.box[1] <= s.float_rule_height


def growths(
    seeds: Sequence[tuple[Caption, bool]],
    captions: Sequence[Caption],
    layout: Layout,
    limits: dict[int, float] | None = None,
) -> list[_Growth]:
    """Grow the regions of ``seeds`` (caption, up) together, nearest item first anywhere.

    Growing together settles what lies between two floats: a table's rows go to the table
    caption they follow closely, not to the figure caption further away below them.
    ``limits``: how far (y) the regions of some captions (by id) may reach at most
    (:func:`.table_steps.split_limits`).
    """
    s = layout.settings
    gap_limit = max(s.gap_floor, s.gap_lines * layout.leading)
    row_limit = max(s.row_floor, s.row_lines * layout.leading)
    first_limit = max(gap_limit, s.first_gap_lines * layout.leading)
    grown: list[_Growth] = []
    for caption, up in seeds:
        cb = caption.box
        items = _items(caption, captions, layout)
        # A rule the caption's glyphs (their loose boxes) reach over is on its side all the
        # same: a caption set a couple of points under a table's bottom rule.
        over = s.rule_overlap * caption.lines[0].size
        if up:
            near = sorted(
                (i for i in items if i.box[3] <= cb[1] + (over if _rule(i, s) else s.start_slack)),
                key=lambda i: -i.box[3],
            )
        else:
            near = sorted(
                (i for i in items if i.box[1] >= cb[3] - (over if _rule(i, s) else s.start_slack)),
                key=lambda i: i.box[1],
            )
        if limits and id(caption) in limits:
            at = limits[id(caption)]
            near = [i for i in near if (i.box[1] >= at if up else i.box[3] <= at)]
        grown.append(_Growth(caption, up, near, cb[1] if up else cb[3]))
    owner: dict[tuple[int, int], _Growth] = {}
    while True:
        best: tuple[float, _Growth] | None = None
        for g in grown:
            page_key = id(g.caption.page)
            while not g.done and g.next < len(g.items):
                item = g.items[g.next]
                distance = g.distance(item)
                # Past its first item a table is dense, row after row: a gap of more than a
                # line ends it (a boxed note set below a table stands that far apart).
                limit = row_limit if g.taken and g.caption.kind == "table" else gap_limit
                if not g.taken and g.caption.kind == "figure":
                    limit = first_limit  # a figure's own white space under its drawing
                if distance > limit:
                    g.done = True
                elif item.stop or (page_key, item.key) in owner:
                    if distance > s.beside_overlap:
                        g.done = True  # body text, a caption or another float: the end
                    else:
                        g.next += 1  # beside what was taken (text next to a narrow float)
                else:
                    if best is None or distance < best[0]:
                        best = (distance, g)
                    break
            if g.next >= len(g.items):
                g.done = True
        if best is None:
            break
        g = best[1]
        item = g.items[g.next]
        owner[(id(g.caption.page), item.key)] = g
        g.take(item)
    return grown


def trim(g: _Growth, layout: Layout) -> list[_Item]:
    """Drop text beyond the far edge of the graphics unless it follows them closely.

    Axis titles, legends and table rows hang together line by line; the block above a
    teaser image (a paper's title and authors) or a stray heading stands apart by more than
    a line.
    """
    graphics = [i for i in g.taken if i.graphic]
    if not graphics:
        return g.taken  # a table of text only: nothing to measure from
    far = min(i.box[1] for i in graphics) if g.up else max(i.box[3] for i in graphics)
    inside_ = [i for i in g.taken if (i.box[3] > far if g.up else i.box[1] < far)]
    within = {id(i) for i in inside_}
    beyond = [i for i in g.taken if id(i) not in within]
    beyond.sort(key=lambda i: -i.box[3] if g.up else i.box[1])
    edge = far
    kept = list(inside_)
    for item in beyond:
        gap = (edge - item.box[3]) if g.up else (item.box[1] - edge)
        if gap > layout.leading:
            break
        kept.append(item)
        edge = min(edge, item.box[1]) if g.up else max(edge, item.box[3])
    return kept


def _first_gap(caption: Caption, box: Box | None, up: bool) -> float:
    if box is None:
        return float("inf")
    cb = caption.box
    return cb[1] - box[3] if up else box[1] - cb[3]


def choose(
    candidates: Sequence[Caption], layout: Layout
) -> tuple[list[tuple[Caption, bool]], dict[int, dict[bool, Box | None]]]:
    """One caption per label (the best scored: a label in body text loses), and the side of
    each float (per kind by a majority vote: a paper puts its table captions above, or
    below, their tables)."""
    s = layout.settings
    regions: dict[int, dict[bool, Box | None]] = {}
    graphic: dict[int, dict[bool, bool]] = {}
    for caption in candidates:
        grown = {up: growths([(caption, up)], candidates, layout)[0] for up in (True, False)}
        regions[id(caption)] = {up: _box_of(g, layout) for up, g in grown.items()}
        graphic[id(caption)] = {up: any(i.graphic for i in g.taken) for up, g in grown.items()}
        near = min(_first_gap(caption, regions[id(caption)][up], up) for up in (True, False))
        caption.score += s.near_score if near < s.near_lines * layout.leading else 0.0
        # A body at all, if further off (a plot with white space under it), beats none (a
        # paragraph carried over to a column's top that opens "Figure 1. We then ...").
        if any(
            regions[id(caption)][up] is not None
            and (caption.kind != "figure" or graphic[id(caption)][up])
            for up in (True, False)
        ):
            caption.score += s.body_score
    best: dict[tuple[str, str, bool], Caption] = {}
    for caption in candidates:
        # A continued caption is the same float's second part, on its own page.
        key = (caption.kind, caption.label.numeral, caption.label.continued)
        if key not in best or caption.score > best[key].score:
            best[key] = caption
    chosen = sorted(best.values(), key=lambda c: (c.page.layout.number, c.box[1], c.box[0]))
    # A figure's body surely above its caption (nothing under it) is no table's body.
    figures = [
        (c, b)
        for c in chosen
        if c.kind == "figure"
        and (b := regions[id(c)][True]) is not None
        and regions[id(c)][False] is None
    ]
    side: dict[str, bool] = {}
    for kind in {c.kind for c in chosen}:
        votes: Counter[bool] = Counter()
        for caption in chosen:
            if caption.kind != kind:
                continue
            if caption.ruled:
                votes[True] += 1  # the float rule under it closes the float: body above
                continue
            r = regions[id(caption)]
            # A figure's body draws something: text alone beside its caption says nothing;
            # nor does a line of text alone beside a table's.
            up_gap, down_gap = (
                _first_gap(caption, r[u], u)
                if _telling(caption, r[u], graphic[id(caption)][u], layout)
                and not (kind == "table" and _a_figures(caption, r[u], figures))
                else float("inf")
                for u in (True, False)
            )
            # The usual side (figures above their captions) holds unless the other starts
            # clearly nearer: floats stacked with a caption between their bodies put the
            # next float's body right under a caption.
            default = kind == "figure"  # tables, algorithms and listings: captioned above
            usual, other = (up_gap, down_gap) if default else (down_gap, up_gap)
            margin = s.side_margin * layout.leading
            if usual != other:
                # A caption with nothing on one side says for sure where its body is; one
                # with something on both (floats stacked in a column) only which is nearer.
                sure = math.inf in (usual, other)
                votes[default if usual <= other + margin else not default] += (
                    s.sure_vote if sure else 1
                )
        default = kind == "figure"
        side[kind] = votes.most_common(1)[0][0] if votes else default
        if votes[True] == votes[False]:
            side[kind] = default
    seeds = []
    for caption in chosen:
        r = regions[id(caption)]
        up = True if caption.ruled else side[caption.kind]
        seeds.append((caption, up if r[up] is not None or r[not up] is None else not up))
    return unshared_sides(seeds, regions, graphic), regions


def _a_figures(
    caption: Caption, region: Box | None, figures: Sequence[tuple[Caption, Box]]
) -> bool:
    """``region`` overlaps the body of a figure on ``caption``'s page whose body is surely
    above its caption (nothing under it): a table captioned below its body, a figure right
    under that caption (ACL's template), has that figure's body under it, not its own."""
    return region is not None and any(
        f.page is caption.page and shares_area(b, region) for f, b in figures
    )


def _telling(caption: Caption, region: Box | None, draws: bool, layout: Layout) -> bool:
    """A region that can tell the side of its caption's body: a figure's draws something, a
    table's draws something or holds more than a line of text (``vote_table_lines``)."""
    if region is None or draws:
        return region is not None
    if caption.kind == "figure":
        return False
    return region[3] - region[1] > layout.settings.vote_table_lines * layout.leading


# --------------------------------------------------------------------------------------------
# The whole document


@dataclass(frozen=True)
class Found:
    """What a document holds: its floats (boxed) and the captions without a body."""

    figures: list[DetectedFigure]
    unboxed: list[Unboxed]
    #: captioned floats that are no ``.figures.yml`` entry (algorithms, listings), boxed as
    #: grown (not trimmed to their ink): the importer keeps their text apart from the prose
    others: list[DetectedFigure] = field(default_factory=list)


def find_floats(
    layout: Layout,
) -> tuple[list[DetectedFigure], list[Unboxed], list[DetectedFigure]]:
    """The floats of a laid-out document, before their boxes are trimmed to their ink, the
    captions without a body, and the floats that are no spec entry (:attr:`Found.others`)."""
    pages = running_text(layout)
    candidates = page_captions(pages, layout)
    float_rules(candidates, layout)
    caption_frames(candidates, layout)
    seeds, _regions = choose(candidates, layout)
    joiner = Joiner.of_rows(
        [(p.x0, p.x1, p.text) for p in ln.pieces or [ln]]
        for page in layout.pages
        for ln in page.lines
    )
    boxes = grow(seeds, [c for c, _up in seeds], layout)
    for k, ((caption, _up), box) in enumerate(zip(seeds, boxes, strict=True)):
        if box is None and caption.kind == "figure":
            taken = [
                b
                for (c, _u), b in zip(seeds, boxes, strict=True)
                if b is not None and c.page is caption.page
            ]
            boxes[k] = beside(caption, [c for c, _up in seeds], taken, layout)
    found: list[DetectedFigure] = []
    unboxed: list[Unboxed] = []
    others: list[DetectedFigure] = []
    for (caption, up), box in zip(seeds, boxes, strict=True):
        pl = caption.page.layout
        label, text = caption.label.printed, caption.text(layout, joiner)
        cb = rounded(caption.box)
        if caption.kind not in REPORTED:
            # grown so that no figure takes its lines; not a .figures.yml entry
            if box is not None:
                others.append(
                    DetectedFigure(
                        pl.number, caption.kind, label, caption.number, text, rounded(box), cb
                    )
                )
            continue
        if box is None:
            unboxed.append(Unboxed(pl.number, caption.kind, label, caption.number, text, cb))
            continue
        body = padded(box, caption, up, pl, layout.settings)
        found.append(
            DetectedFigure(pl.number, caption.kind, label, caption.number, text, rounded(body), cb)
        )
    found += rotated_tables(layout, found)  # a sidewaystable's turned caption and body
    found += _continued(pages, found, others, candidates, layout)
    # Reading order: a page's left column before its right one, top to bottom in each.
    widths = {p.number: p.width for p in layout.pages}
    found.sort(key=lambda d: (d.page, d.box[0] >= widths[d.page] / 2, d.box[1], d.box[0]))
    return found, unboxed, others


def _continued(
    pages: Sequence[DetectPage],
    found: Sequence[DetectedFigure],
    others: Sequence[DetectedFigure],
    captions: Sequence[Caption],
    layout: Layout,
) -> list[DetectedFigure]:
    """The parts of tables broken across columns or pages (:mod:`.continued`): the same
    label and caption; as its caption box, the part's top edge (it has no caption there)."""
    tables = [f for f in found if f.kind == "table"]
    parts = continued_tables(
        pages,
        [(f.page, f.box, f.caption_box) for f in tables],
        captions,
        [(f.page, f.box) for f in [*found, *others]],
        layout,
    )
    return [
        replace(tables[t], page=page, box=rounded(box), caption_box=rounded((*box[:3], box[1])))
        for t, page, box in parts
    ]


def detect_document(doc: Document, layout: Layout | None = None) -> Found:
    """Detect the floats of a document read by :func:`duizhao.pdf.read.read_pdf` (its layout
    when the caller has it already), boxes trimmed to their ink."""
    layout = layout if layout is not None else analyse(doc)
    figures, unboxed, others = find_floats(layout)
    trimmed = []
    for f in figures:
        rendered = doc.pages[f.page - 1].image
        if rendered is not None:
            ink = trim_to_ink(None, f.box, doc.settings, rendered)
        else:
            page = doc.pdf[f.page - 1]
            try:
                ink = trim_to_ink(page, f.box, doc.settings)
            finally:
                page.close()
        trimmed.append(replace(f, box=rounded(ink)))
    return Found(trimmed, unboxed, others)


def detect_figures(path: Path) -> list[DetectedFigure]:
    """Every figure and table of the PDF at ``path``, ordered by page, then position.

    Raises ``OSError`` when the file cannot be read and ``ValueError`` (:class:`PdfError`)
    when it is not a readable PDF.
    """
    return detect_bytes(path.read_bytes(), str(path))


def detect_bytes(
    data: bytes, name: str = "PDF", progress: Progress | None = None
) -> list[DetectedFigure]:
    """:func:`detect_figures` of a PDF's bytes (``name`` is for messages)."""
    return _detect(data, name, progress).figures


def _detect(data: bytes, name: str, progress: Progress | None) -> Detection:
    doc = read_pdf(data, name, progress)
    try:
        found = detect_document(doc)
    finally:
        doc.close()
    return Detection("", len(doc.pages), found.figures, unboxed=found.unboxed, notes=doc.notes)


@dataclass(frozen=True)
class Detection:
    """The result for one PDF, as cached: its digest, page count and what was found."""

    digest: str
    pages: int
    figures: list[DetectedFigure]
    cached: bool = False
    unboxed: list[Unboxed] = field(default_factory=list)
    #: the reader's warnings ("page 3: no text layer (a scanned page?)")
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": DETECT_VERSION,
            "pages": self.pages,
            "figures": [
                {**d.__dict__, "box": list(d.box), "caption_box": list(d.caption_box)}
                for d in self.figures
            ],
            "unboxed": [{**u.__dict__, "caption_box": list(u.caption_box)} for u in self.unboxed],
            "notes": self.notes,
        }

    @classmethod
    def from_json(cls, digest: str, data: dict[str, Any]) -> Detection:
        figures = [
            DetectedFigure(
                page=int(f["page"]),
                kind=str(f["kind"]),
                label=str(f["label"]),
                number=int(f["number"]),
                caption=str(f["caption"]),
                box=_box4(f["box"]),
                caption_box=_box4(f["caption_box"]),
            )
            for f in data["figures"]
        ]
        unboxed = [
            Unboxed(
                page=int(u["page"]),
                kind=str(u["kind"]),
                label=str(u["label"]),
                number=int(u["number"]),
                caption=str(u["caption"]),
                caption_box=_box4(u["caption_box"]),
            )
            for u in data.get("unboxed", [])
        ]
        notes = [str(n) for n in data.get("notes", [])]
        return cls(digest, int(data["pages"]), figures, True, unboxed, notes)


def _box4(values: Sequence[Any]) -> Box:
    x0, y0, x1, y1 = (float(v) for v in values)
    return (x0, y0, x1, y1)


def detect_cached(
    path: Path, cache_dir: Path | None, progress: Progress | None = None
) -> Detection:
    """:func:`detect_figures` remembered in ``cache_dir/<sha256 of the PDF>.json``.

    Raises ``OSError`` and ``ValueError`` as :func:`detect_figures` does.
    """
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    entry = cache_dir / f"{digest}.json" if cache_dir is not None else None
    if entry is not None:
        try:
            cached = load_json(entry.read_text(encoding="utf-8"))
            if cached.get("version") == DETECT_VERSION:
                return Detection.from_json(digest, cached)
        except (OSError, ValueError, KeyError, TypeError):
            pass  # none yet, or unreadable: detect again
    result = replace(_detect(data, str(path), progress), digest=digest)
    if entry is not None:
        from .cache import write_published

        # A cache that cannot be written only costs time.
        with contextlib.suppress(OSError):
            write_published(entry, json.dumps(result.to_json(), ensure_ascii=False).encode())
    return result
