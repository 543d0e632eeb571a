"""Find a paper's figures and tables in its PDF: number, caption and crop box.

Caption-anchored region growing, after pdffigures2 (Clark & Divvala, JCDL 2016), on the page
model of :mod:`duizhao.pdf` (its reader, its layout pass, its caption grammar and its
settings). The steps, each a function:

1. **Running text** (:func:`.running.running_text`): a fragment of body size that fills most of one
   column from its left edge, alone on its line, not monospaced and not drawn inside a
   graphic (and the short last line of a paragraph). It stops a region.
2. **Captions** (:func:`caption_starts`, :func:`extend`): a fragment opening with a label
   set apart ("Figure 3:", "Fig. 3.", "TABLE II" alone on its line, a bold label) starts a
   caption; the rest of its line and the lines right below it, of its size and with no rule
   between, continue it; a caption's first line stops at another caption's label on its
   baseline (captions of floats side by side). A label repeated in the body text loses to
   one with a bold label or graphics beside it (:func:`choose`); one opening a line inside
   a paragraph is a reference.
3. **Regions** (:func:`grow`): a caption's column is the text column it sits in, or the text
   width when it crosses the gutter (shared with a caption beside it) or when its float does
   (:func:`widen`). A template's float rules close their floats (:func:`float_rules`). From
   the caption the region grows away from it (up for figures; for tables the side where the
   paper puts its tables, by a vote, as captions sit above *or* below them; a figure whose
   region on that side is another float's takes the other side when that is nobody's,
   :func:`_unshared`) over graphics and non-body text until running text, another caption,
   another float's rule, a wide gap or the running heads; captions side by side part their
   spans at the white gap between them (:func:`_split`); a figure with nothing above or
   below its caption has its body beside it (:func:`beside`, a side caption). All captions
   grow at once, nearest item first, so what lies between two floats goes to the one it
   hangs together with. Text standing apart beyond a figure's graphics is dropped (:func:`trim`).
4. **Ink**: the box is trimmed to the ink the page renders inside it.

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

from ..pdf.captions import (
    REPORTED,
    Label,
    caption_label,
    caption_text,
    lone_label_word,
    parse_label,
)
from ..pdf.geometry import Box, intersects, overlap_len, rounded, union
from ..pdf.hyphens import Joiner
from ..pdf.ink import trim_to_ink
from ..pdf.page_layout import Layout, PageLayout, analyse
from ..pdf.read import Document, PdfError, Progress, read_pdf
from ..pdf.settings import Settings
from ..pdf.text import Line, merge
from ..yamlsafe import load_json
from .running import DetectPage, running_text

#: Bumped when a change here changes what is detected (the detection cache is keyed by it).
DETECT_VERSION = 22

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
# 2. Captions


@dataclass(eq=False)
class Caption:
    page: DetectPage
    label: Label
    #: the caption's lines, top to bottom (each made of one or more fragments)
    lines: list[Line]
    #: the horizontal span of its float: its column, or the text width
    span: tuple[float, float]
    score: float = 0.0
    #: its float crosses the gutter though the caption lies in one column (:func:`widen`)
    wide: bool = False
    #: a float rule lies right under it: its body is above it (:func:`float_rules`)
    ruled: bool = False

    @property
    def kind(self) -> str:
        return self.label.kind

    @property
    def number(self) -> int:
        return self.label.number

    @property
    def box(self) -> Box:
        return union(ln.box for ln in self.lines)

    @property
    def own(self) -> set[int]:
        return {id(p) for ln in self.lines for p in (ln.pieces or [ln])}

    def text(self, layout: Layout, joiner: Joiner) -> str:
        return caption_text(self.lines, layout.fonts, joiner)


def _span(page: DetectPage, line: Line, layout: Layout) -> tuple[float, float]:
    col = page.layout.column_of(line.x0, line.x1, layout.settings.column_share)
    if col is not None:
        return col
    # Across the gutter, or wider than the text a page without a gutter has (its other
    # column holding no body-size text): the text width, and at least the caption's.
    s0, s1 = page.layout.text_span
    return (min(s0, line.x0), max(s1, line.x1))


def caption_starts(page: DetectPage, layout: Layout) -> list[Caption]:
    """Fragments that open with a caption's label (a label word set apart from its number
    joins the fragment to its right)."""
    s = layout.settings
    found = []
    frags = page.layout.fragments
    bare: list[tuple[Line, Label]] = []
    for f in frags:
        if id(f) in page.margin:
            continue
        first = [f]
        text = f.text
        if lone_label_word(text):
            right = _right_of(page, f, [f], layout, s.label_gap)
            if right is None:
                continue
            first.append(right)
            text = f"{text} {right.text}"
        # A bold label ("**Algorithm 1** Ordering"): its first glyph is set in bold.
        bold = bool(f.chars) and layout.fonts[f.chars[0].font].bold
        label = caption_label(text, bold)
        if label is None:
            opening = parse_label(text) if len(first) == 1 else None
            if opening is not None and id(f) not in page.body:
                bare.append((f, opening))
            continue
        if id(f) in page.body and _in_paragraph(page, f, layout):
            continue  # "… shown in / Fig. 7. The two stages …": a reference at a line's start
        line = merge(first, layout.fonts, s) if len(first) > 1 else f
        score = (s.bold_label_score if bold else 0.0) + (
            s.delim_score if label.delim in (":", ".", "|") else 0.0
        )
        score += 0.0 if id(f) in page.body else s.apart_score
        found.append(Caption(page, label, [line], _span(page, line, layout), score))
    return found + _row_siblings(page, found, bare, layout)


def _in_paragraph(page: DetectPage, f: Line, layout: Layout) -> bool:
    """Running text ``f`` goes on a paragraph: a line of running text stands right above it
    (``paragraph_pitch`` leadings, top to top) in its column. A caption never does: its
    float, or the float's separation, lies between it and the text."""
    s = layout.settings
    lo, hi = (p * layout.leading for p in s.paragraph_pitch)
    return any(
        id(g) in page.body and lo <= f.y0 - g.y0 <= hi and overlap_len(g.x0, g.x1, f.x0, f.x1) > 0
        for g in page.layout.fragments
    )


def _row_siblings(
    page: DetectPage, found: Sequence[Caption], bare: Sequence[tuple[Line, Label]], layout: Layout
) -> list[Caption]:
    """Captions of floats set side by side share a baseline, and a paper may set one of them
    without its delimiter ("Figure 10: …   Figure 11 Datasets …   Figure 12 …"): a label
    without one is a caption's when a caption on its line, of the same label word, numbers
    its float one before or after it (taken in turn, so a row of three is read whole)."""
    s = layout.settings
    rows = [(c.lines[0], c.label) for c in found]
    out: list[Caption] = []
    pending = list(bare)
    while pending:
        taken = [
            (f, label)
            for f, label in pending
            if any(
                abs(g.mid - f.mid) < s.label_line * f.size
                and other.word == label.word
                and abs(other.number - label.number) == 1
                and (g.x1 <= f.x0 or f.x1 <= g.x0)
                for g, other in rows
            )
        ]
        if not taken:
            break
        for f, label in taken:
            rows.append((f, label))
            out.append(Caption(page, label, [f], _span(page, f, layout), s.apart_score))
        pending = [p for p in pending if all(p[0] is not f for f, _ in taken)]
    return out


def _right_of(
    page: DetectPage, f: Line, taken: Sequence[Line], layout: Layout, reach: float
) -> Line | None:
    """The nearest fragment on ``f``'s line to the right of ``taken``, within ``reach`` em."""
    last = taken[-1]
    mid = f.y0 + f.y1
    candidates = [
        g
        for g in page.layout.fragments
        if all(g is not t for t in taken)
        and abs((g.y0 + g.y1) - mid) < layout.settings.label_line * f.size
        and 0 <= g.x0 - last.x1 <= reach * f.size
    ]
    return min(candidates, key=lambda g: g.x0) if candidates else None


def _openers(caption: Caption) -> frozenset[int]:
    """The fragments that open ``caption`` (its label, and a number set apart from it)."""
    first = caption.lines[0]
    return frozenset(id(p) for p in (first.pieces or [first]))


def _others_openers(caption: Caption, opening: dict[Caption, frozenset[int]]) -> frozenset[int]:
    return frozenset().union(*(ids for c, ids in opening.items() if c is not caption))


def extend(caption: Caption, layout: Layout, starts: frozenset[int] = frozenset()) -> None:
    """Add the rest of the caption's first line, and the lines that continue it below.
    ``starts``: the fragments that open the page's other captions; the first line stops at
    one (captions of charts set side by side, each its own float, share a baseline)."""
    s = layout.settings
    page = caption.page
    first = caption.lines[0]
    pieces = list(first.pieces or [first])
    # The label may stand apart from its text (a bold label set with a wide space).
    while True:
        right = _right_of(page, pieces[0], pieces, layout, s.label_gap)
        if right is None or id(right) in page.body or id(right) in starts:
            break
        col_first = page.layout.column_of(pieces[0].x0, pieces[-1].x1, s.column_share)
        if (
            not caption.wide
            and col_first is not None
            and page.layout.column_of(pieces[0].x0, right.x1, s.column_share) is None
        ):
            break
        pieces.append(right)
    if len(pieces) > len(first.pieces or [first]):
        first = merge(pieces, layout.fonts, s)
        caption.lines = [first]
        caption.span = _span(page, first, layout)
    s0, s1 = caption.span
    own = caption.own
    beside = any(
        id(g) in page.body
        and abs(g.mid - first.mid) < s.label_line * first.size
        and overlap_len(g.x0, g.x1, s0, s1) > s.region_share * g.width
        for g in page.layout.fragments
        if g.x1 <= first.x0 or first.x1 <= g.x0
    )
    reach = s.wrap_caption_reach * first.size
    while True:
        last = caption.lines[-1]
        below = [
            f
            for f in page.layout.fragments
            if id(f) not in own
            and id(f) not in page.margin
            and f.y0 >= last.y0 + s.caption_next * last.size
            and f.y0 - last.y1 <= s.caption_lead * first.size
            and overlap_len(f.x0, f.x1, s0, s1) > s.region_share * f.width
            # Under the first line, and not the start of a caption beside this one.
            and overlap_len(f.x0, f.x1, first.x0, first.x1) > 0
            and caption_label(f.text) is None
            and not (beside and (f.x0 < first.x0 - reach or f.x1 > first.x1 + reach))
        ]
        if not below:
            return
        top = min(f.y0 for f in below)
        row = sorted(
            (f for f in below if f.y0 < top + s.caption_next * first.size), key=lambda f: f.x0
        )
        if any(b.x0 - a.x1 > s.caption_cell_gap * first.size for a, b in itertools.pairwise(row)):
            return  # the cells of a table row
        nxt = row[0] if len(row) == 1 else merge(row, layout.fonts, s)
        # A label alone on its line (IEEE's TABLE I) may be followed by its text in smaller
        # capitals; after that the caption keeps the size of its text.
        if caption.label.alone and len(caption.lines) == 1:
            fits = abs(nxt.size - first.size) <= s.alone_caption_size * first.size
        else:
            fits = abs(nxt.size - caption.lines[-1].size) <= s.caption_size
        if not fits or caption_label(nxt.text) is not None:
            return
        if any(
            (g[1] >= last.y1 - 1 and g[3] <= nxt.y0 + 1 and overlap_len(g[0], g[2], s0, s1) > 0)
            or (
                overlap_len(g[1], g[3], nxt.y0, nxt.y1) > s.caption_next * (nxt.y1 - nxt.y0)
                and overlap_len(g[0], g[2], nxt.x0, nxt.x1) > 0
            )
            for g in page.graphics
        ):
            return  # a rule between, or one down across the line (a table's column rule)
        caption.lines.append(nxt)
        own |= {id(p) for p in (nxt.pieces or [nxt])}


def widen(caption: Caption, captions: Sequence[Caption], layout: Layout) -> bool:
    """A page-wide float whose caption is set in one column's width (Elsevier's short
    captions set from the left edge, a label set apart from its text): an item of no running
    text that straddles the gutter, within ``wide_reach`` leadings of the caption above or
    below it or going on from its first line, makes the float's span the text width. True
    when it did (the caption is then extended again: its text may go on across the gutter)."""
    s = layout.settings
    page = caption.page
    pl = page.layout
    if pl.gutter is None or caption.wide:
        return False
    (_l0, l1), (r0, _r1) = pl.columns
    s0, s1 = caption.span
    if not (s1 <= l1 + s.body_start_slack or s0 >= r0 - s.body_start_slack):
        return False  # across the gutter already
    cb = caption.box
    reach = s.wide_reach * layout.leading
    others = set().union(*(o.own for o in captions if o.page is page and o is not caption))
    own = caption.own

    first = caption.lines[0]

    def straddles(b: Box) -> bool:
        near = (
            -s.start_slack <= cb[1] - b[3] <= reach
            or -s.start_slack <= b[1] - cb[3] <= reach
            # the caption's own line going on across the gutter (extend stopped at it)
            or (
                abs((b[1] + b[3]) / 2 - first.mid) < s.label_line * first.size
                and 0 <= b[0] - first.x1 <= s.label_gap * first.size
            )
        )
        return near and b[0] < l1 - s.wide_overlap and b[2] > r0 + s.wide_overlap

    apart = page.body | page.margin | page.headings | others | own
    texts = (f.box for f in pl.fragments if id(f) not in apart)
    # a rule under a running head is none of a float's (as in :func:`_items`)
    band = layout.band
    graphics = (
        g
        for g in page.graphics
        if g[3] >= band[0] - s.band_slack and g[1] <= band[1] + s.band_slack
    )
    if not any(straddles(b) for b in itertools.chain(graphics, texts)):
        return False
    if any(
        id(f) in page.body and min(f.y1, cb[3]) > max(f.y0, cb[1]) and (f.x1 <= s0 or f.x0 >= s1)
        for f in pl.fragments
    ):
        return False  # running text beside the caption: the float keeps to its column
    t0, t1 = pl.text_span
    caption.span = (min(t0, s0), max(t1, s1))
    caption.wide = True
    return True


def float_rules(captions: Sequence[Caption], layout: Layout) -> None:
    """A template that draws a rule right under every float's caption (OSDI '14 draws it as
    an image) closes each float with it: the rule is no part of the float below it, and the
    caption it hangs under stands below its body, a table's as a figure's. Told from a table's
    top rule under a caption set above the table: the paper's figure captions carry such a
    rule (at least ``float_rule_figures`` of them, ``float_rule_share`` of all), and no rule
    stands right above the caption. A ruled float style (an algorithm's) frames its caption
    with two and closes the float with a third under its body: that one is no part of the
    float below it either."""
    s = layout.settings
    hung: list[tuple[Caption, list[int]]] = []
    for c in captions:
        cb, size = c.box, c.lines[-1].size
        thin = [(i, g) for i, g in enumerate(c.page.graphics) if g[3] - g[1] <= s.float_rule_height]
        under = [i for i, g in thin if _hugs(cb, c.span, size, g, True, s)]
        if not under:
            continue
        if not any(_hugs(cb, c.span, size, g, False, s) for _i, g in thin):
            hung.append((c, under))
            continue
        # A ruled float (an algorithm's): rules over and under its caption, its body under
        # them, closed by the next rule across its span before any other caption.
        s0, s1 = c.span
        top = max(c.page.graphics[i][3] for i in under)
        below = [
            (g[1], i)
            for i, g in thin
            if g[1] > top + s.float_rule_height
            and overlap_len(g[0], g[2], s0, s1) >= s.float_rule_span * (s1 - s0)
        ]
        if below:
            y, i = min(below)
            if not any(
                o.page is c.page and top < o.box[1] < y and overlap_len(o.box[0], o.box[2], s0, s1)
                for o in captions
            ):
                c.page.closing[i] = id(c)
    figures = sum(1 for c in captions if c.kind == "figure")
    ruled = sum(1 for c, _ in hung if c.kind == "figure")
    if ruled < s.float_rule_figures or ruled < s.float_rule_share * figures:
        return
    for c, under in hung:
        c.ruled = True
        c.page.closing.update(dict.fromkeys(under, id(c)))


def _hugs(
    cb: Box, span: tuple[float, float], size: float, g: Box, below: bool, s: Settings
) -> bool:
    """Thin rule ``g`` lies right under (or over) the caption boxed ``cb``, set at ``size``,
    across its ``span``."""
    s0, s1 = span
    gap = g[1] - cb[3] if below else cb[1] - g[3]
    return -s.start_slack <= gap <= s.float_rule_gap * size and overlap_len(
        g[0], g[2], s0, s1
    ) >= s.float_rule_span * (s1 - s0)


# --------------------------------------------------------------------------------------------
# 3. Regions


@dataclass
class _Item:
    box: Box
    stop: bool
    #: identity on its page (the fragment or graphic it stands for)
    key: int
    graphic: bool = False


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
        if min(ob[3], cb[3]) - max(ob[1], cb[1]) > -near:
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
    for f in [] if caption.wide else page.layout.fragments:
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
        stop = id(f) in page.body or id(f) in page.headings or id(f) in stoppers
        items.append(_Item(f.box, stop, id(f)))
    band = layout.band
    for i, g in enumerate(page.graphics):
        if g[3] < band[0] - s.band_slack or g[1] > band[1] + s.band_slack:
            continue
        w = max(g[2] - g[0], 0.1)
        if overlap_len(g[0], g[2], s0, s1) < s.region_share * w:
            continue
        if wrapped and (g[0] < s0 - s.wrap_reach or g[2] > s1 + s.wrap_reach):
            continue
        closes = page.closing.get(i, id(caption)) != id(caption)  # another float's rule
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
    :func:`growths`); None where a region holds nothing."""
    return [_box_of(g, layout) for g in growths(seeds, captions, layout)]


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
    box = union(i.box for i in trim(g, layout))
    return (max(0.0, box[0]), max(0.0, box[1]), min(pl.width, box[2]), min(pl.height, box[3]))


def growths(
    seeds: Sequence[tuple[Caption, bool]], captions: Sequence[Caption], layout: Layout
) -> list[_Growth]:
    """Grow the regions of ``seeds`` (caption, up) together, nearest item first anywhere.

    Growing together settles what lies between two floats: a table's rows go to the table
    caption they follow closely, not to the figure caption further away below them.
    """
    s = layout.settings
    gap_limit = max(s.gap_floor, s.gap_lines * layout.leading)
    row_limit = max(s.row_floor, s.row_lines * layout.leading)
    first_limit = max(gap_limit, s.first_gap_lines * layout.leading)
    grown: list[_Growth] = []
    for caption, up in seeds:
        cb = caption.box
        items = _items(caption, captions, layout)
        if up:
            near = sorted(
                (i for i in items if i.box[3] <= cb[1] + s.start_slack), key=lambda i: -i.box[3]
            )
        else:
            near = sorted(
                (i for i in items if i.box[1] >= cb[3] - s.start_slack), key=lambda i: i.box[1]
            )
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
    best: dict[tuple[str, str, bool], Caption] = {}
    for caption in candidates:
        # A continued caption is the same float's second part, on its own page.
        key = (caption.kind, caption.label.numeral, caption.label.continued)
        if key not in best or caption.score > best[key].score:
            best[key] = caption
    chosen = sorted(best.values(), key=lambda c: (c.page.layout.number, c.box[1], c.box[0]))
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
            # A figure's body draws something: text alone beside its caption says nothing.
            up_gap, down_gap = (
                _first_gap(caption, r[u], u)
                if kind != "figure" or graphic[id(caption)][u]
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
    return _unshared(seeds, regions, graphic), regions


def _unshared(
    seeds: Sequence[tuple[Caption, bool]],
    regions: dict[int, dict[bool, Box | None]],
    graphic: dict[int, dict[bool, bool]],
) -> list[tuple[Caption, bool]]:
    """A figure captioned on the side its paper does not use (set above its charts, right
    under another figure's charts that the other's caption, above them, grows down over):
    when its region on its side is another seed's as well and the one on the other side
    draws something and is nobody else's, its body is on the other side."""
    out = list(seeds)
    for k, (caption, up) in enumerate(out):
        if caption.kind != "figure" or caption.ruled or not graphic[id(caption)][not up]:
            continue
        mine, alt = regions[id(caption)][up], regions[id(caption)][not up]
        if mine is None or alt is None:
            continue
        theirs = [
            b
            for o, u in out
            if o is not caption and o.page is caption.page
            for b in [regions[id(o)][u]]
            if b is not None
        ]
        if any(_overlaps(mine, b) for b in theirs) and not any(_overlaps(alt, b) for b in theirs):
            out[k] = (caption, not up)
    return out


def _overlaps(a: Box, b: Box) -> bool:
    """Boxes ``a`` and ``b`` share some area (not a mere edge)."""
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


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
    candidates: list[Caption] = []
    for page in pages:
        starts = caption_starts(page, layout)
        opening = {c: _openers(c) for c in starts}
        for caption in starts:
            extend(caption, layout, _others_openers(caption, opening))
        for caption in starts:
            if widen(caption, starts, layout):
                extend(caption, layout, _others_openers(caption, opening))
        candidates.extend(starts)
    float_rules(candidates, layout)
    seeds, _regions = choose(candidates, layout)
    joiner = Joiner.of(ln.text for page in layout.pages for ln in page.lines)
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
        padded = _pad(box, caption, up, pl, layout.settings)
        found.append(
            DetectedFigure(
                pl.number, caption.kind, label, caption.number, text, rounded(padded), cb
            )
        )
    # Reading order: a page's left column before its right one, top to bottom in each.
    widths = {p.number: p.width for p in layout.pages}
    found.sort(key=lambda d: (d.page, d.box[0] >= widths[d.page] / 2, d.box[1], d.box[0]))
    return found, unboxed, others


def _pad(box: Box, caption: Caption, up: bool, page: PageLayout, s: Settings) -> Box:
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
