"""Step 2 of the figure detection: captions, as named steps over the detector's pages
(:class:`.running.DetectPage`), each a function.

1. :func:`caption_starts`: a fragment opening with a label set apart ("Figure 3:", "Fig. 3.",
   "TABLE II" alone on its line, a bold label) starts a caption; a label without its
   delimiter does beside a caption of the float before or after it on its baseline
   (:func:`_row_siblings`); one opening a line inside a paragraph is a reference.
2. :func:`extend`: the rest of its first line (:func:`first_line`) and the lines right below
   it, of its size and with no rule between, continue it (:func:`_next_line`); a caption's
   first line stops at another caption's label on its baseline (:func:`openers`).
3. :func:`widen`: a caption in one column whose float crosses the gutter takes the text width.
4. :func:`float_rules`: a template's rules under its captions close their floats.
5. :func:`caption_frames`: a frame drawn round a caption alone holds no body.

Pure: on the engine's page layout (:mod:`duizhao.pdf`); the regions are grown from these
captions in :mod:`.detect`.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..pdf.captions import (
    REPORTED,
    Label,
    caption_label,
    caption_text,
    lone_label_word,
    parse_label,
)
from ..pdf.geometry import Box, overlap_len, shares_area, union
from ..pdf.hyphens import Joiner
from ..pdf.page_layout import Layout
from ..pdf.settings import Settings
from ..pdf.text import Line, merge
from .running import DetectPage
from .table_steps import header_row

__all__ = [
    "Caption",
    "caption_frames",
    "caption_mark",
    "caption_starts",
    "extend",
    "first_line",
    "float_rules",
    "off_style",
    "openers",
    "others_openers",
    "page_captions",
    "side_by_side",
    "widen",
]


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
    def across_gutter(self) -> bool:
        """Its own lines cross the page's gutter: it is in neither column (a Word figure
        over both columns, its caption centred on the page), so a column's running text
        under or beside it is no wrapfigure's and narrows no span."""
        gutter = self.page.layout.gutter
        cb = self.box
        return gutter is not None and cb[0] < gutter[0] and cb[2] > gutter[1]

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
        centred = (
            label is None
            and len(first) == 1
            and (_centred_title(page, f, layout) or _small_title(page, f, layout))
        )
        if centred:
            label = parse_label(text)  # "Table 1 Comparison of the models", set centred
        if label is None:
            opening = parse_label(text) if len(first) == 1 else None
            if opening is not None and id(f) not in page.body:
                bare.append((f, opening))
            continue
        if id(f) in page.body and not centred and _in_paragraph(page, f, layout):
            continue  # "… shown in / Fig. 7. The two stages …": a reference at a line's start
        if not centred and _opens_paragraph(page, f, layout):
            continue  # "    Figure 1. shows …" over running text: a paragraph's first line
        line = merge(first, layout.fonts, s) if len(first) > 1 else f
        score = (s.bold_label_score if bold else 0.0) + (
            s.delim_score if label.delim in (":", ".", "|") else 0.0
        )
        score += 0.0 if id(f) in page.body else s.apart_score
        found.append(Caption(page, label, [line], _span(page, line, layout), score))
    return found + _row_siblings(page, found, bare, layout)


def side_by_side(a: Caption, b: Caption, others: Sequence[Caption], layout: Layout) -> bool:
    """Captions of floats set side by side (minipages) that do not share their lines:
    minipages centred on each other put the captions of a tall and a short figure at
    different heights, and a table's caption above its cells beside a figure's under its
    drawing. Two captions apart across the page (neither reaching over the other) are side
    by side when the white between their lines is under ``sibling_reach`` leadings and holds
    no running text, heading or other caption across their spans: one row of floats,
    parted at the white gap between them (:func:`.detect._split`)."""
    s = layout.settings
    ab, bb = a.box, b.box
    if a.page is not b.page or not (ab[2] <= bb[0] or bb[2] <= ab[0]):
        return False
    top, bottom = min(ab[3], bb[3]), max(ab[1], bb[1])  # the white between their lines
    if bottom - top > s.sibling_reach * layout.leading:
        return False
    page = a.page
    x0, x1 = min(a.span[0], b.span[0]), max(a.span[1], b.span[1])
    stops = page.body | page.headings
    if any(
        id(f) in stops and f.y0 < bottom and f.y1 > top and f.x1 > x0 and f.x0 < x1
        for f in page.layout.fragments
    ):
        return False
    if not _parted(page, ab, bb, top, bottom, layout):
        return False
    return not any(
        c is not a
        and c is not b
        and c.page is page
        and top < c.box[1]
        and c.box[3] < bottom
        and c.box[2] > x0
        and c.box[0] < x1
        for c in others
    )


def _parted(page: DetectPage, ab: Box, bb: Box, top: float, bottom: float, layout: Layout) -> bool:
    """Two captions apart across the page stand beside each other's floats, not over a float
    under both: the upper caption is not one with drawings right over it (its float's,
    captioned below) and more under it in its span (another float's: a row of small figures
    over a page-wide one), and the drawings of the white band between their lines leave a
    strip free of ink over the gap between the captions (where the floats part)."""
    lo, hi = (ab[2], bb[0]) if ab[2] <= bb[0] else (bb[2], ab[0])
    band = [g for g in page.graphics if g[1] < bottom and g[3] > top]
    upper = ab if ab[1] <= bb[1] else bb
    reach = layout.settings.sibling_own_reach * layout.leading
    over = any(
        upper[1] - reach < g[3] <= upper[1] and g[0] < upper[2] and g[2] > upper[0]
        for g in page.graphics
    )
    if over and any(g[0] < upper[2] and g[2] > upper[0] for g in band):
        return False
    spans = sorted((max(g[0], lo), min(g[2], hi)) for g in band if g[0] < hi and g[2] > lo)
    x = lo
    for x0, x1 in spans:
        if x0 > x:
            return True  # a free strip from x to x0
        x = max(x, x1)
    return x < hi


def _centred_title(page: DetectPage, f: Line, layout: Layout) -> bool:
    """``f`` opens with a figure's or a table's label and a capital after it, no delimiter
    between ("Table 1 Comparison of the models", as Word sets captions at the body size),
    and is set centred in its column (or the text width), its margins equal within
    ``centred_caption`` em and wider than that: a caption. Running text is set flush with
    the column's edges, a paragraph's first line indented on the left only."""
    label = parse_label(f.text)
    if label is None or label.kind not in REPORTED:
        return False
    if not f.text[label.end :].lstrip(" \t\u00a0")[:1].isupper():
        return False
    s = layout.settings
    c0, c1 = page.layout.column_of(f.x0, f.x1, s.column_share) or page.layout.text_span
    left, right = f.x0 - c0, c1 - f.x1
    return abs(left - right) <= s.centred_caption * f.size < min(left, right)


def _small_title(page: DetectPage, f: Line, layout: Layout) -> bool:
    """``f`` opens with a figure's or a table's label and a capital after it, no delimiter
    between ("Figure 1 Weapons and Their Counts", as Word's caption style sets it, flush
    left), in type smaller than the body's and apart from the running text: a caption.
    A reference at a line's start is body text ("Figure 1 illustrates …")."""
    label = parse_label(f.text)
    if label is None or label.kind not in REPORTED or id(f) in page.body:
        return False
    if not f.text[label.end :].lstrip(" \t\u00a0")[:1].isupper():
        return False
    return not layout.body_sized(f) and f.size < layout.body and not layout.mono(f)


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


def _opens_paragraph(page: DetectPage, f: Line, layout: Layout) -> bool:
    """``f`` is a paragraph's first line: indented (``paragraph_indent`` em) from its
    column's left edge, over a line of running text set flush with that edge right under it
    (``paragraph_pitch`` leadings, top to top)."""
    s = layout.settings
    col = page.layout.column_of(f.x0, f.x1, s.column_share)
    if col is None:
        return False
    lo_em, hi_em = s.paragraph_indent
    if not lo_em * f.size <= f.x0 - col[0] <= hi_em * f.size:
        return False
    lo, hi = (p * layout.leading for p in s.paragraph_pitch)
    return any(
        id(g) in page.body
        and lo <= g.y0 - f.y0 <= hi
        and abs(g.x0 - col[0]) <= s.body_start_slack
        and g.x1 > f.x0
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


def caption_mark(g: Box, caption: Caption, s: Settings) -> bool:
    """Graphic ``g`` is a mark drawn in one of the caption's lines (TeX draws the underscore
    of "make_regression" as a rule; an underline, a math bar): on the line, with the line's
    glyphs left and right of it, no wider than ``caption_mark_width`` em. It is the
    caption's, no float's body (a box of a few points right under the caption, taken for
    the table's body on the other side)."""
    for ln in caption.lines:
        if g[2] - g[0] > s.caption_mark_width * ln.size:
            continue
        if ln.x0 < g[0] and g[2] < ln.x1 and ln.y0 < g[1] and g[3] < ln.y1:
            return True
    return False


def openers(caption: Caption) -> frozenset[int]:
    """The fragments that open ``caption`` (its label, and a number set apart from it)."""
    first = caption.lines[0]
    return frozenset(id(p) for p in (first.pieces or [first]))


def others_openers(caption: Caption, opening: dict[Caption, frozenset[int]]) -> frozenset[int]:
    return frozenset().union(*(ids for c, ids in opening.items() if c is not caption))


def extend(
    caption: Caption,
    layout: Layout,
    starts: frozenset[int] = frozenset(),
    through: frozenset[int] = frozenset(),
) -> None:
    """Add the rest of the caption's first line, and the lines that continue it below.
    ``starts``: the fragments that open the page's other captions; the first line stops at
    one (captions of charts set side by side, each its own float, share a baseline).
    ``through``: labels set off the paper's style (:func:`off_style`), which a caption goes
    on through ("... as / Fig. 3. shows ...")."""
    first = first_line(caption, layout, starts)
    beside = _text_beside(caption, first, layout)
    own = caption.own
    while True:
        nxt = _next_line(caption, first, beside, own, layout, through)
        if nxt is None:
            return
        caption.lines.append(nxt)
        own |= {id(p) for p in (nxt.pieces or [nxt])}


def first_line(caption: Caption, layout: Layout, starts: frozenset[int]) -> Line:
    """The caption's first line with the rest of its line: the label may stand apart from
    its text (a bold label set with a wide space), up to running text, another caption's
    label (``starts``) or, for a caption in one column, the gutter."""
    s = layout.settings
    page = caption.page
    first = caption.lines[0]
    pieces = list(first.pieces or [first])
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
    return first


def page_captions(pages: Sequence[DetectPage], layout: Layout) -> list[Caption]:
    """Every page's captions, extended and widened (steps 1–3); the labels set off the
    paper's style that are references (:func:`off_style`) left out."""
    starts = [caption_starts(page, layout) for page in pages]
    odd = off_style([c for page in starts for c in page], layout.settings)
    through = frozenset(i for c in odd for i in openers(c))
    found: list[Caption] = []
    for page in starts:
        opening = {c: openers(c) for c in page}
        for caption in page:
            extend(caption, layout, others_openers(caption, opening), through)
        for caption in page:
            if widen(caption, page, layout):
                extend(caption, layout, others_openers(caption, opening), through)
        found.extend(page)
    odd_ids = {id(c) for c in odd}
    styled = [c for c in found if id(c) not in odd_ids]
    taken = set().union(*(c.own for c in styled))
    twins = {(c.kind, c.label.numeral, c.label.continued) for c in styled}
    return [
        c
        for c in found
        if id(c) not in odd_ids
        or ((c.kind, c.label.numeral, c.label.continued) not in twins and not openers(c) & taken)
    ]


def off_style(candidates: Sequence[Caption], s: Settings) -> list[Caption]:
    """A paper sets its captions' labels one way ("Figure 1:", "Table 2:"): the delimiter
    that at least ``style_share`` of its figure and table labels set with a delimiter use,
    at least ``style_min`` of them, is its style. A label set with another is a reference
    when a caption of its float is set the paper's way (a sentence ending "... as in /
    Figure 1." in running text) or when another caption goes on through it (a caption's line
    opening "Fig. 3. shows ..."): :func:`page_captions` keeps it only when neither holds."""
    delimited = [c for c in candidates if c.kind in REPORTED and c.label.delim]
    if not delimited:
        return []
    delim, count = Counter(c.label.delim for c in delimited).most_common(1)[0]
    if count < s.style_min or count < s.style_share * len(delimited):
        return []
    return [c for c in delimited if c.label.delim != delim]


def _text_beside(caption: Caption, first: Line, layout: Layout) -> bool:
    """Running text in the caption's span stands on its first line, beside it (a
    wrapfigure's caption: its lines keep to the first line's measure)."""
    s = layout.settings
    page = caption.page
    s0, s1 = caption.span
    return any(
        id(g) in page.body
        and abs(g.mid - first.mid) < s.label_line * first.size
        and overlap_len(g.x0, g.x1, s0, s1) > s.region_share * g.width
        for g in page.layout.fragments
        if g.x1 <= first.x0 or first.x1 <= g.x0
    )


def _next_line(
    caption: Caption,
    first: Line,
    beside: bool,
    own: set[int],
    layout: Layout,
    through: frozenset[int] = frozenset(),
) -> Line | None:
    """The line that continues the caption under its last line: right below it, under the
    first line, of its size, no caption's start, no table row and no rule between; None
    when the caption ends there."""
    s = layout.settings
    page = caption.page
    s0, s1 = caption.span
    reach = s.wrap_caption_reach * first.size
    last = caption.lines[-1]
    lead = caption_lead(first, layout)
    if last.text.rstrip().endswith("-"):
        # a word broken at the line's end goes on on the next line, however loosely set
        lead = max(lead, s.caption_hyphen_lead * first.size)
    below = [
        f
        for f in page.layout.fragments
        if id(f) not in own
        and id(f) not in page.margin
        and f.y0 >= last.y0 + s.caption_next * last.size
        # (the lead is checked on the row's top below: a line whose superscript pushed it
        # down starts at that superscript)
        and f.y0 - last.y1 <= lead + s.caption_script_lead * first.size
        # A script hanging under the last line (inline maths' subscript) is on that line.
        and overlap_len(f.y0, f.y1, last.y0, last.y1) <= s.caption_script * (f.y1 - f.y0)
        and overlap_len(f.x0, f.x1, s0, s1) > s.region_share * f.width
        # Under the first line, and not the start of a caption beside this one.
        and overlap_len(f.x0, f.x1, first.x0, first.x1) > 0
        and (caption_label(f.text) is None or id(f) in through)
        and not (beside and (f.x0 < first.x0 - reach or f.x1 > first.x1 + reach))
    ]
    if not below:
        return None
    # The next line's top is its own type's: a superscript on it stands higher.
    main = [f for f in below if abs(f.size - last.size) <= s.caption_size]
    top = min(f.y0 for f in main or below)
    row = sorted((f for f in below if f.y0 < top + s.caption_next * first.size), key=lambda f: f.x0)
    if min(f.y0 for f in row) - last.y1 > lead:
        return None
    # Gaps from the right edge so far: a subscript under a superscript ends left of it.
    edges = list(itertools.accumulate((f.x1 for f in row), max))
    cell_gap = s.caption_cell_gap * first.size
    if any(b.x0 - x1 > cell_gap for x1, b in zip(edges[:-1], row[1:], strict=True)):
        return None  # the cells of a table row
    if header_row(row, page.graphics, layout):
        return None  # a table's header row over its rule
    nxt = row[0] if len(row) == 1 else merge(row, layout.fonts, s)
    # A label alone on its line (IEEE's TABLE I) may be followed by its text in smaller
    # capitals; after that the caption keeps the size of its text.
    if caption.label.alone and len(caption.lines) == 1:
        fits = abs(nxt.size - first.size) <= s.alone_caption_size * first.size
    else:
        fits = abs(nxt.size - caption.lines[-1].size) <= s.caption_size
    if not fits or (caption_label(nxt.text) is not None and id(row[0]) not in through):
        return None
    if any(
        (g[1] >= last.y1 - 1 and g[3] <= nxt.y0 + 1 and overlap_len(g[0], g[2], s0, s1) > 0)
        or _table_rule_under(g, last, nxt, (s0, s1), s)
        or (
            overlap_len(g[1], g[3], nxt.y0, nxt.y1) > s.caption_next * (nxt.y1 - nxt.y0)
            and overlap_len(g[0], g[2], nxt.x0, nxt.x1) > 0
        )
        for g in page.graphics
    ):
        return None  # a rule between, or one down across the line (a table's column rule)
    return nxt


def caption_lead(first: Line, layout: Layout) -> float:
    """How far (pt) a caption's next line may stand under its last: ``caption_lead`` em,
    or on a double-spaced page the white between two body lines and ``caption_body_lead`` em
    (a manuscript double-spaces its captions too)."""
    s = layout.settings
    white = layout.leading - layout.body + s.caption_body_lead * first.size
    return max(s.caption_lead * first.size, white)


def _table_rule_under(
    g: Box, last: Line, nxt: Line, span: tuple[float, float], s: Settings
) -> bool:
    """``g`` is a table's top rule between a caption's ``last`` line and ``nxt``, drawn
    through the bottom of the last line's loose box (under its middle: BMC sets the rule
    1.3 pt over the bottom of that box), in the caption's ``span`` and under most of
    ``nxt`` (no underline of a word, no other column's rule)."""
    width = nxt.x1 - nxt.x0
    return (
        last.mid <= g[1] < last.y1
        and g[3] <= nxt.y0
        and g[3] - g[1] <= s.float_rule_height
        and overlap_len(g[0], g[2], *span) >= s.region_share * (g[2] - g[0])
        and overlap_len(g[0], g[2], nxt.x0, nxt.x1) >= s.region_share * width
    )


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

    t0, t1 = pl.text_span
    rule_reach = s.wide_rule_reach * layout.leading

    def straddles(b: Box) -> bool:
        # a rule across the text width under the caption (a page-wide table's top rule) may
        # stand a little further (over it, it may be the running head's)
        thin = b[3] - b[1] <= s.float_rule_height
        wide_rule = thin and b[2] - b[0] >= s.wide_rule_share * (t1 - t0)
        near = (
            -s.start_slack <= cb[1] - b[3] <= reach
            or -s.start_slack <= b[1] - cb[3] <= (rule_reach if wide_rule else reach)
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


def caption_frames(captions: Sequence[Caption], layout: Layout) -> None:
    """A frame drawn around a caption alone (BMC's submission template sets each figure's
    legend in a ruled box where the figure was placed; the figure is a file of its own): its
    rules are no float's body and stop every region, so the legend is reported as found
    without a body, never boxed over the text above it. A frame is thin rules on the
    caption's four sides (over and under its lines, beside its span), or one graphic round
    it, within ``frame_reach`` leadings, with nothing but the caption inside."""
    s = layout.settings
    reach = s.frame_reach * layout.leading
    for c in captions:
        page = c.page
        x0, y0, x1, y1 = c.box
        # The frame's sides stand by the caption's span (a one-line legend's frame is as
        # wide as its column's), its top and bottom by the caption's lines.
        s0, s1 = c.span
        sides: list[list[int]] = [[], [], [], []]
        for i, g in enumerate(page.graphics):
            if g[3] < y0 - reach or g[1] > y1 + reach:
                continue  # neither over, under nor beside the caption
            thin_h = g[3] - g[1] <= s.float_rule_height
            thin_v = g[2] - g[0] <= s.float_rule_height
            across = g[0] <= x0 + s.start_slack and g[2] >= x1 - s.start_slack
            down = g[1] <= y0 + s.start_slack and g[3] >= y1 - s.start_slack
            if thin_h and across and 0 <= y0 - g[3] <= reach:
                sides[0].append(i)
            elif thin_h and across and 0 <= g[1] - y1 <= reach:
                sides[1].append(i)
            elif thin_v and down and g[2] <= x0 and g[0] >= min(x0, s0) - reach:
                sides[2].append(i)
            elif thin_v and down and g[0] >= x1 and g[2] <= max(x1, s1) + reach:
                sides[3].append(i)
            elif (
                0
                <= min(margins := (x0 - g[0], y0 - g[1], g[2] - x1, g[3] - y1))
                <= max(margins)
                <= reach
            ):
                sides = [[i], [i], [i], [i]]  # one graphic round the caption: all four sides
                break
        if not all(sides):
            continue
        # Each side is the rule nearest the caption: the next legend's frame, stacked a line
        # under this one, has its top rule within reach too (and would enclose its own sides).
        rules = {i for k, side in enumerate(sides) for i in _nearest(page.graphics, side, k, s)}
        frame = union(page.graphics[i] for i in rules)
        if _holds_more(page, c, frame, rules):
            continue  # a framed float: its body is inside the frame with its caption
        page.frames |= rules


def _nearest(graphics: Sequence[Box], side: list[int], k: int, s: Settings) -> list[int]:
    """Of the rules on ``side`` ``k`` of a caption (0 over, 1 under, 2 left, 3 right), those
    nearest it (the pieces of one rule lie within ``float_rule_height`` of each other)."""
    edge = (3, 1, 2, 0)[k]  # the rule's edge that faces the caption
    sign = 1 if k in (0, 2) else -1  # over and left: the greatest edge is nearest
    best = max(sign * graphics[i][edge] for i in side)
    return [i for i in side if best - sign * graphics[i][edge] <= s.float_rule_height]


def _holds_more(page: DetectPage, caption: Caption, frame: Box, rules: set[int]) -> bool:
    """Something besides ``caption`` and the ``rules`` of its frame lies inside ``frame``."""
    own = caption.own
    fx0, fy0, fx1, fy1 = frame
    cx0, cy0, cx1, cy1 = caption.box

    def inside(b: Box) -> bool:
        return b[0] < fx1 and b[2] > fx0 and b[1] < fy1 and b[3] > fy0

    def in_caption(g: Box) -> bool:
        # drawn in the caption's own lines: an underscore set as a rule ("Bla1_64")
        return g[0] >= cx0 and g[2] <= cx1 and g[1] >= cy0 and g[3] <= cy1

    if any(inside(g) and not in_caption(g) for i, g in enumerate(page.graphics) if i not in rules):
        return True
    apart = own | page.margin
    return any(inside(f.box) for f in page.layout.fragments if id(f) not in apart)


#: the kinds whose side :func:`unshared_sides` may turn
SIDED = frozenset({"figure", "table"})


def unshared_sides(
    seeds: Sequence[tuple[Caption, bool]],
    regions: dict[int, dict[bool, Box | None]],
    graphic: dict[int, dict[bool, bool]],
) -> list[tuple[Caption, bool]]:
    """A figure captioned on the side its paper does not use (set above its charts, right
    under another figure's charts that the other's caption, above them, grows down over):
    when its region on its side is another seed's as well and the one on the other side
    draws something and is nobody else's, its body is on the other side. So for a table
    (two tables stacked in one column, each captioned above, in a paper that captions its
    tables below: two captions in a column are two floats, split between them)."""
    out = list(seeds)
    for k, (caption, up) in enumerate(out):
        if caption.kind not in SIDED or caption.ruled or not graphic[id(caption)][not up]:
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
        if any(shares_area(mine, b) for b in theirs) and not any(
            shares_area(alt, b) for b in theirs
        ):
            out[k] = (caption, not up)
    return out
