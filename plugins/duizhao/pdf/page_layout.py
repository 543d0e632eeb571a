"""The page-layout pass: body type, columns, reading order, running heads and footers, page
and line numbers, margin stamps, the text band, running text. Pure (no PDF library).

The steps, each a function below, over a :class:`~.read.Document`:

1. overdrawn glyphs are dropped (:func:`~.text.drop_overdrawn`), glyphs become fragments
   (:func:`~.text.fragments`), the line numbers of a review copy leave (:func:`line_numbers`),
   as does text drawn off the page (:func:`off_page`);
2. the body size is the most common type size (:func:`body_size`);
3. each page's gutter is found from its body-size lines (:func:`find_gutter`), pages without
   one of their own take the paper's usual one (:func:`settle_gutters`; a page of small type
   alone by its own lines, :func:`small_type_lines`);
4. fragments on one baseline in one column become a line (:func:`merge_baselines`), read
   band by band, left column before right (:func:`reading_order`), and numbered;
5. column edges (:func:`column_edges`) and the leading (:func:`leading`) are measured;
6. running heads, footers, page numbers and margin stamps get the role ``running``
   (:func:`mark_running`; bare page numbers rising at one height from page to page even a
   line over the text, :func:`.furniture.folios`); the text band is what lies between them
   (:func:`text_band`);
7. footnotes: footnote type (:func:`footnote_type`) under a column's last line of body-size
   text (:func:`column_feet`) that opens with a mark (:func:`opens_footnote`) or stands apart
   at the page's foot (:func:`foot_notice`); their marks leave the text
   (:func:`drop_footnote_marks`).

Coordinates are points from the page's top-left corner.
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .furniture import between_rules, folios, thin_rules
from .geometry import Box, overlap_len
from .read import Char, Document, FontStyle, Graphic, PageContent
from .settings import SETTINGS, Settings
from .text import Line, drop_overdrawn, fragments, line_text, make_line, merge

_PAGE_NUMBER_RE = re.compile(
    r"^(?:[-–—] ?)?(?:page )?[0-9ivxlc]{1,5}(?: of [0-9]{1,5})?(?: ?[-–—])?$", re.IGNORECASE
)
_DIGITS_RE = re.compile(r"[0-9]+")


@dataclass(frozen=True)
class Note:
    """Something the author should review: what was dropped or is uncertain, and where."""

    page: int
    line: int
    message: str


@dataclass(eq=False)
class PageLayout:
    content: PageContent
    #: runs of glyphs without a wide gap, in drawing order (a table's cells apart)
    fragments: list[Line]
    #: fragments on one baseline in one column, in reading order, numbered from 1
    lines: list[Line]
    gutter: tuple[float, float] | None = None
    #: x extent of each column (0, 1) and of the text block (-1)
    extents: dict[int, tuple[float, float]] = field(default_factory=dict)

    @property
    def number(self) -> int:
        return self.content.number

    @property
    def width(self) -> float:
        return self.content.width

    @property
    def height(self) -> float:
        return self.content.height

    @property
    def graphics(self) -> list[Graphic]:
        return self.content.graphics

    @property
    def columns(self) -> list[tuple[float, float]]:
        """The text columns, left to right (one on a page without a gutter)."""
        if self.gutter is None:
            return [self.extents[-1]]
        return [self.extents[0], self.extents[1]]

    @property
    def text_span(self) -> tuple[float, float]:
        return self.extents[-1]

    def column_of(self, x0: float, x1: float, share: float) -> tuple[float, float] | None:
        """The one column holding ``share`` of ``x0``–``x1``, or None (it crosses a gutter)."""
        for c0, c1 in self.columns:
            if overlap_len(x0, x1, c0, c1) >= share * (x1 - x0):
                return (c0, c1)
        return None

    def extent(self, ln: Line) -> tuple[float, float]:
        """The edges of the measure ``ln`` is set in: its column's, or narrower beside a
        float."""
        if ln.measure is not None:
            return ln.measure
        return self.extents.get(ln.column, self.extents.get(-1, (ln.x0, ln.x1)))


@dataclass
class Layout:
    pages: list[PageLayout]
    fonts: Sequence[FontStyle]
    body: float
    leading: float
    #: the band of a page that holds its text, (top, bottom); running heads lie outside
    band: tuple[float, float]
    #: the paper itself is set in a monospaced font (then code is not told by its font)
    mono_body: bool
    notes: list[Note]
    settings: Settings = SETTINGS

    # -- predicates on lines, shared by the figure detector and the importer --------------

    def body_sized(self, ln: Line) -> bool:
        return abs(ln.size - self.body) <= self.settings.body_size_tolerance * self.body + 0.1

    def body_like(self, ln: Line, page: PageLayout) -> bool:
        """A line of running text: body size, not monospaced, few gaps, most of a column."""
        if not self.body_sized(ln) or ln.code or ln.gaps > 0:
            return False
        left, right = page.extent(ln)
        # The short last line of a paragraph starts at the column's left edge.
        return ln.width >= self.settings.body_width * (right - left) or abs(ln.x0 - left) < 1.5

    def full_width(self, ln: Line, page: PageLayout) -> bool:
        _left, right = page.extent(ln)
        return ln.x1 >= right - self.settings.full_line * self.body

    def indented(self, ln: Line, page: PageLayout) -> bool:
        left, _right = page.extent(ln)
        s = self.settings
        return s.indent_min * self.body < ln.x0 - left < s.indent_max * self.body

    def mono(self, ln: Line) -> bool:
        return not self.mono_body and self.fonts[ln.chars[0].font].mono


# ---------------------------------------------------------------------------------------------
# 1. Glyphs → fragments


def glyph_notes(content: PageContent, dropped: int) -> list[Note]:
    text = "".join(ch.text for ch in content.chars)
    # Control characters and U+FFFD are glyphs without a Unicode mapping (U+0002 is PDFium's
    # mark of a line-end hyphen).
    unmapped = sum(not c.isprintable() for c in text) - text.count("\x02") + text.count("\ufffd")
    notes = []
    if unmapped:
        notes.append(
            Note(
                content.number,
                0,
                f"{unmapped} glyphs have no Unicode mapping in the PDF: words there may "
                "miss letters (often the ligatures ﬁ, ﬀ, Th)",
            )
        )
    if dropped:
        notes.append(
            Note(content.number, 0, f"merged {dropped} overdrawn glyphs (bold drawn twice)")
        )
    return notes


def line_numbers(
    lines: list[Line], fonts: Sequence[FontStyle], s: Settings = SETTINGS
) -> tuple[list[Line], int]:
    """Remove the line numbers of a review copy: bare numbers stacked in one margin column,
    ``line_number_stack`` of them on a page, or at least ``line_number_run`` counting at one
    step (lineno's every fifth line) left or right of all other text on the page. A number
    drawn into the fragment of the line beside it (small type set apart from the text,
    :func:`_numbered`) counts, and leaves the line."""
    bare = [(ln, ln, None) for ln in lines if _bare_number(ln.text)]
    split = [(ln, *parts) for ln in lines for parts in [_numbered(ln, fonts, s)] if parts]
    stacks: dict[int, list[tuple[Line, Line, Line | None]]] = {}
    for entry in bare + split:
        stacks.setdefault(round(entry[1].x1 / s.line_number_column), []).append(entry)
    numbers: dict[int, Line | None] = {}  # a fragment that goes: id → what stays of it
    for stack in stacks.values():
        full = [e for e in stack if e[2] is None]
        if len(full) >= s.line_number_stack:
            numbers.update((id(e[0]), None) for e in full)
        elif _counting(stack, lines, s):
            numbers.update((id(e[0]), e[2]) for e in stack)
    if not numbers:
        return lines, 0
    kept = [numbers.get(id(ln), ln) for ln in lines]
    return [ln for ln in kept if ln is not None], len(numbers)


def _bare_number(text: str) -> bool:
    return text.isdigit() and len(text) <= 4


def _numbered(ln: Line, fonts: Sequence[FontStyle], s: Settings) -> tuple[Line, Line] | None:
    """A fragment opening with a line number drawn into it: up to four digits in type at
    most ``line_number_size`` of the text's, set ``line_number_gap`` em of their own size
    apart from it; (the number, the rest), else None."""
    chars = ln.chars
    k = 0
    while k < len(chars) and k < 4 and chars[k].text.isdigit():
        k += 1
    if k == 0 or k == len(chars) or chars[k].text.isdigit():
        return None
    digits, rest = chars[:k], chars[k:]
    small = max(c.size for c in digits)
    if small > s.line_number_size * min(c.size for c in rest):
        return None
    if rest[0].x0 - digits[-1].x1 < s.line_number_gap * small:
        return None
    return make_line(ln.page, digits, fonts, s=s), make_line(ln.page, rest, fonts, s=s)


def _counting(
    stack: Sequence[tuple[Line, Line, Line | None]], lines: Sequence[Line], s: Settings
) -> bool:
    """Numbers in one column that count lines: at least ``line_number_run`` of them, growing
    by one step down the page, in the margin: left (or right) of every other text of the
    page (a numbered listing's numbers lie inside its column, right of the column's text)."""
    if len(stack) < s.line_number_run:
        return False
    values = [int(e[1].text) for e in sorted(stack, key=lambda e: e[1].y0)]
    steps = {b - a for a, b in itertools.pairwise(values)}
    if len(steps) != 1 or min(steps) < 1:
        return False
    own = {id(e[0]) for e in stack}
    others = [ln for ln in lines if id(ln) not in own] + [e[2] for e in stack if e[2]]
    if not others:
        return False
    x0 = min(e[1].x0 for e in stack)
    x1 = max(e[1].x1 for e in stack)
    return x1 <= min(ln.x0 for ln in others) or x0 >= max(ln.x1 for ln in others)


# ---------------------------------------------------------------------------------------------
# 2-3. Body size, gutters


def body_size(lines: Iterable[Line]) -> float:
    """The most common type size, by glyph count: the body text's."""
    sizes: Counter[float] = Counter()
    for ln in lines:
        sizes[round(ln.size * 2) / 2] += len(ln.chars)
    return sizes.most_common(1)[0][0] if sizes else SETTINGS.default_body


def _is_body_size(line: Line, body: float, s: Settings) -> bool:
    return abs(line.size - body) <= s.body_size_tolerance * body + 0.1


def find_gutter(
    lines: Sequence[Line], width: float, body: float, s: Settings = SETTINGS
) -> tuple[float, float] | None:
    """The empty vertical band between two columns, from the body-size lines of a page."""
    body_lines = [
        ln for ln in lines if _is_body_size(ln, body, s) and len(ln.chars) >= s.gutter_line_chars
    ]
    if len(body_lines) < s.gutter_min_lines:
        return None
    bins = [0] * (int(width) + 2)
    for ln in body_lines:
        for x in range(max(0, int(ln.x0)), min(len(bins), int(ln.x1) + 1)):
            bins[x] += 1
    allowed = max(1, int(s.gutter_crossing * len(body_lines)))
    lo, hi = int(s.gutter_zone[0] * width), int(s.gutter_zone[1] * width)
    best: tuple[float, float] | None = None
    x = lo
    while x < hi:
        if bins[x] <= allowed:
            start = x
            while x < len(bins) - 1 and bins[x] <= allowed:
                x += 1
            if x - start >= s.gutter_min_width:
                left = sum(1 for ln in body_lines if ln.x1 <= start + 1)
                right = sum(1 for ln in body_lines if ln.x0 >= x - 1)
                candidate = (float(start), float(x))
                enough = max(2, s.gutter_side_share * len(body_lines))
                if left >= enough and right >= enough:
                    center = width / 2
                    if best is None or abs(sum(candidate) / 2 - center) < abs(
                        sum(best) / 2 - center
                    ):
                        best = candidate
        x += 1
    return best


def settle_gutters(pages: Sequence[PageLayout], body: float, s: Settings = SETTINGS) -> None:
    """Pages without a gutter of their own (a page of floats) take the paper's usual one."""
    found = [p.gutter for p in pages if p.gutter is not None]
    if len(found) < max(1, len(pages) // s.gutter_pages):
        for p in pages:
            p.gutter = None
        return
    usual = statistics.median_low([(g[0] + g[1]) / 2 for g in found])
    common = min(found, key=lambda g: abs((g[0] + g[1]) / 2 - usual))
    for p in pages:
        if p.gutter is None:
            lines = [ln for ln in p.fragments if _is_body_size(ln, body, s)] or small_type_lines(
                p.fragments, s
            )
            crossing = [ln for ln in lines if ln.x0 < common[0] and ln.x1 > common[1]]
            # A title page: a block across the page (title, authors, abstract), then columns
            # on both sides of the gutter, all below it.
            lowest = max((ln.y1 for ln in crossing), default=0.0)
            below = [ln for ln in lines if ln.y0 >= lowest - body]
            header = (
                bool(crossing)
                and len(below) >= s.gutter_min_lines
                and any(ln.x1 <= common[1] for ln in below)
                and any(ln.x0 >= common[0] for ln in below)
            )
            if lines and (len(crossing) <= s.gutter_settle_crossing * len(lines) or header):
                p.gutter = common


def small_type_lines(frags: Sequence[Line], s: Settings = SETTINGS) -> list[Line]:
    """A page without body-size text (references or an appendix set smaller): its lines of
    ``gutter_line_chars`` glyphs or more, of its own most common size, tell whether it keeps
    the paper's gutter."""
    sized = [ln for ln in frags if len(ln.chars) >= s.gutter_line_chars]
    if not sized:
        return []
    size = body_size(sized)
    return [ln for ln in sized if _is_body_size(ln, size, s)]


def off_page(frags: Sequence[Line], width: float, height: float) -> list[Line]:
    """The fragments drawn outside the page's box (text a PDF places off the page, as a
    clipped margin note's): nothing of them shows."""
    return [ln for ln in frags if ln.x1 <= 0 or ln.y1 <= 0 or ln.x0 >= width or ln.y0 >= height]


# ---------------------------------------------------------------------------------------------
# 4. Lines and reading order


def assign_columns(lines: Iterable[Line], gutter: tuple[float, float] | None) -> None:
    for ln in lines:
        if gutter is None:
            ln.column = -1
        elif ln.x1 <= gutter[1] - 1:
            ln.column = 0
        elif ln.x0 >= gutter[0] + 1:
            ln.column = 1
        else:
            ln.column = -1


def merge_baselines(
    lines: list[Line], fonts: Sequence[FontStyle], s: Settings = SETTINGS
) -> list[Line]:
    """Fragments on one baseline in one column become one line (in x order)."""
    ordered = sorted(lines, key=lambda ln: (ln.column, ln.mid, ln.x0))
    out: list[Line] = []
    group: list[Line] = []
    for ln in ordered:
        if group:
            head = group[0]
            tol = s.same_baseline * min(head.size, ln.size)
            if ln.column == head.column and abs(ln.mid - head.mid) < tol:
                group.append(ln)
                continue
            out.append(merge(group, fonts, s))
            group.clear()
        group.append(ln)
    if group:
        out.append(merge(group, fonts, s))
    return out


def reading_order(lines: list[Line]) -> list[Line]:
    """Bands separated by spanning lines; in each band the left column, then the right."""
    by_y = sorted(lines, key=lambda ln: (ln.y0, ln.x0))
    spanning = [ln for ln in by_y if ln.column == -1]
    columns = [ln for ln in by_y if ln.column != -1]
    if not columns:
        return by_y
    out: list[Line] = []
    i = 0
    for span in [*spanning, None]:
        limit = span.y0 if span is not None else float("inf")
        band = []
        while i < len(columns) and columns[i].mid < limit:
            band.append(columns[i])
            i += 1
        out.extend(sorted(band, key=lambda ln: (ln.column, ln.y0, ln.x0)))
        if span is not None:
            out.append(span)
    return out


# ---------------------------------------------------------------------------------------------
# 5. Column edges, leading


def _left_edge(lefts: Counter[int]) -> float:
    """Where a column's lines start: the leftmost edge two lines share (indented first lines
    and hanging list items start further right, and may be the majority on a page)."""
    shared = [x for x, n in lefts.items() if n >= 2]
    return float(min(shared) if shared else lefts.most_common(1)[0][0])


def column_edges(
    lines: Iterable[Line], body: float, least: int = 1, s: Settings = SETTINGS
) -> dict[int, tuple[float, float]]:
    """The usual left and right edge of each column (-1: the text block), from lines of
    running text (body size, 20 glyphs or more: not tick labels or table cells)."""
    lefts: dict[int, Counter[int]] = {-1: Counter(), 0: Counter(), 1: Counter()}
    rights: dict[int, Counter[int]] = {-1: Counter(), 0: Counter(), 1: Counter()}
    for ln in lines:
        if len(ln.chars) >= s.edge_line_chars and _is_body_size(ln, body, s):
            for col in {-1, ln.column}:
                lefts[col][round(ln.x0)] += 1
                rights[col][round(ln.x1)] += 1
    return {
        col: (_left_edge(lefts[col]), float(rights[col].most_common(1)[0][0]))
        for col in (-1, 0, 1)
        if lefts[col].total() >= least
    }


def page_extents(
    page: PageLayout, usual: dict[int, tuple[float, float]], body: float, s: Settings = SETTINGS
) -> dict[int, tuple[float, float]]:
    own = column_edges(page.lines, body, s.edge_page_lines, s)
    out = {col: own.get(col) or usual.get(col) for col in (-1, 0, 1)}
    found = {col: e for col, e in out.items() if e is not None}
    w = page.width
    margin = s.default_margin
    if page.gutter is None:
        block = found.get(-1, (w * margin, w * (1 - margin)))
        return {-1: block, 0: block, 1: block}
    left = found.get(0, (w * margin, page.gutter[0]))
    right = found.get(1, (page.gutter[1], w * (1 - margin)))
    return {0: left, 1: right, -1: (left[0], right[1])}


def leading(pages: Sequence[PageLayout], body: float, s: Settings = SETTINGS) -> float:
    """The usual distance from one body line to the next (baseline to baseline)."""
    diffs: list[float] = []
    for page in pages:
        prev: Line | None = None
        for ln in page.lines:
            # (a table row's cells, merged into one line, are no running text)
            if (
                prev is not None
                and prev.column == ln.column
                and _is_body_size(ln, body, s)
                and len(ln.pieces) <= 1
                and len(prev.pieces) <= 1
            ):
                d = ln.y1 - prev.y1
                if s.leading_range[0] * body < d < s.leading_range[1] * body:
                    diffs.append(d)
            prev = ln
    return statistics.median(diffs) if diffs else s.default_leading * body


# ---------------------------------------------------------------------------------------------
# 6. Running heads, page numbers, stamps; the text band


def _running_key(text: str) -> str:
    return _DIGITS_RE.sub("#", text.strip().lower())


def mark_running(layout: Layout, words_only: bool = False) -> None:
    """Lines above or below the text block that repeat across pages, and page numbers.

    Candidates are a page's two top and two bottom lines of text that lie in its top or
    bottom ``running_zone`` (LNCS sets its running heads 12 % down an A4 page). A candidate
    is running when its words (digits aside) recur on another page at its height in type of
    its size, or it reads as a page number. ``words_only``: only those with words ("Berthoud
    et al."), as bare numbers may be a float's tick labels until the floats have taken theirs.
    """
    s = layout.settings
    places: dict[str, list[tuple[int, float, float]]] = {}
    candidates: list[Line] = []
    for page in layout.pages:
        h = page.height
        live = sorted((ln for ln in page.lines if ln.role == "text"), key=lambda ln: ln.y0)
        for ln in live[:2] + live[-2:]:
            near_edge = ln.y1 <= s.running_zone * h or ln.y0 >= (1 - s.running_zone) * h
            # A line of running text is no running head, even where the same words open
            # the next page at the same height: the text goes on a line under it.
            if (
                near_edge
                and not any(c is ln for c in candidates)
                and not _in_text(ln, live, layout)
            ):
                candidates.append(ln)
                # A head's parts (left and right of a page without a gutter, where they
                # merge into one line) are looked up one by one too.
                for part in {ln.text, *ln.parts}:
                    places.setdefault(_running_key(part), []).append((page.number, ln.y0, ln.size))

    def recurs(text: str, ln: Line) -> bool:
        return any(
            number != ln.page
            and abs(y - ln.y0) <= s.running_height
            and abs(size - ln.size) <= s.running_size * max(size, ln.size)
            for number, y, size in places[_running_key(text)]
        )

    def parts_recur(ln: Line) -> bool:
        """A head in parts at both sides of the page: every part recurs, or reads as a page
        number, and one with words recurs (not a row of a figure's labels)."""
        w = layout.pages[ln.page - 1].width
        return (
            len(ln.parts) > 1
            and ln.x0 < s.head_sides * w
            and ln.x1 > (1 - s.head_sides) * w
            and all(recurs(p, ln) or _PAGE_NUMBER_RE.match(p) for p in ln.parts)
            and any(recurs(p, ln) and sum(c.isalpha() for c in p) >= 3 for p in ln.parts)
        )

    rules = {page.number: thin_rules(page, s) for page in layout.pages}
    for ln in candidates:
        if words_only and not any(ch.isalpha() for ch in ln.text.replace("page", "")):
            continue
        # A table's header row at a page's top recurs where another page sets a table with
        # the same header: set between its rules, it is a row, no running head.
        if between_rules(ln.box, rules[ln.page], layout):
            continue
        if _PAGE_NUMBER_RE.match(ln.text) or recurs(ln.text, ln) or parts_recur(ln):
            set_role(ln, "running")
    for ln in folios(layout):
        set_role(ln, "running")
    if words_only:
        return
    # Margin stamps (arXiv identifiers, "Preprint") are outside every column.
    for page in layout.pages:
        w = page.width
        for ln in page.lines:
            if ln.role == "text" and (
                ln.x1 < s.stamp_margin * w or ln.x0 > (1 - s.stamp_margin) * w
            ):
                set_role(ln, "running")


def _in_text(ln: Line, lines: Sequence[Line], layout: Layout) -> bool:
    """``ln`` is running text with more of it a line away (below it at a page's top, above
    it at its foot), in its column: running heads stand further apart."""
    if not layout.body_sized(ln):
        return False
    reach = layout.settings.running_gap * layout.leading
    top = ln.y1 < layout.pages[ln.page - 1].height / 2
    for other in lines:
        if other is ln or other.column != ln.column or not layout.body_sized(other):
            continue
        step = other.y1 - ln.y1 if top else ln.y1 - other.y1
        if 0 < step <= reach:
            return True
    return False


def column_feet(layout: Layout) -> dict[tuple[int, int], float]:
    """Where each (page, column)'s body-size text ends (lines of role ``text``: call it once
    the floats have taken theirs). Small type below it is a footnote."""
    feet: dict[tuple[int, int], float] = {}
    for page in layout.pages:
        for ln in page.lines:
            if ln.role == "text" and layout.body_sized(ln):
                key = (ln.page, ln.column)
                feet[key] = max(feet.get(key, ln.y1), ln.y1)
    return feet


_FOOTNOTE_MARKS = "*†‡§¶‖#"


def opens_footnote(ln: Line, s: Settings = SETTINGS, raised: bool = False) -> bool:
    """``ln`` opens with a footnote's mark: a raised or smaller glyph, a number or a symbol
    (``raised``: only a smaller glyph)."""
    if not ln.chars:
        return False
    first = ln.chars[0]
    if first.size < s.mark_size * ln.size:
        return True
    return not raised and (first.text in _FOOTNOTE_MARKS or first.text.isdigit())


def footnote_type(ln: Line, body: float, s: Settings = SETTINGS) -> bool:
    """``ln`` is set in a footnote's type: smaller than the body's (one size step down is
    enough, NeurIPS and ICML set 9 pt notes under 10 pt text), with no glyph of body size
    (a formula's base letters among its scripts are the body's)."""
    return ln.size < s.footnote_size * body and not any(
        ch.size >= s.body_glyph * body and ch.text.isalnum() for ch in ln.chars
    )


def foot_notice(ln: Line, foot: float, layout: Layout) -> bool:
    """``ln`` is an unmarked note at its page's foot (NeurIPS's "Preprint. Under review.",
    set where a footnote goes): footnote type standing apart below the column's last line of
    body-size text (``foot``), in the page's bottom ``running_zone``."""
    s = layout.settings
    page = layout.pages[ln.page - 1]
    return (
        footnote_type(ln, layout.body, s)
        and ln.y0 - foot >= s.footnote_apart * layout.leading
        and ln.y0 >= (1 - s.running_zone) * page.height
    )


def footnote_numbers(layout: Layout, feet: dict[tuple[int, int], float]) -> dict[int, set[str]]:
    """The numbers of each page's footnotes: footnote type under a column's last line of
    body-size text (``feet``: :func:`column_feet`), opening with digits."""
    s = layout.settings
    out: dict[int, set[str]] = {}
    for page in layout.pages:
        for ln in page.lines:
            foot = feet.get((ln.page, ln.column))
            if (
                ln.role == "text"
                and foot is not None
                and ln.y0 > foot
                and footnote_type(ln, layout.body, s)
            ):
                m = _DIGITS_RE.match(ln.text)
                if m and opens_footnote(ln, s):
                    out.setdefault(page.number, set()).add(m.group())
    return out


def drop_footnote_marks(
    layout: Layout, feet: dict[tuple[int, int], float], fonts: Sequence[FontStyle]
) -> None:
    """The marks in the text of footnotes that leave it: digits in type smaller than
    ``mark_size`` of their line, raised by ``mark_raise`` of its size, right after a glyph,
    whose number opens a footnote of the page ("(DMS)⁴ is" reads "(DMS) is")."""
    s = layout.settings
    numbers = footnote_numbers(layout, feet)
    for page in layout.pages:
        marks = numbers.get(page.number)
        if not marks:
            continue
        for ln in page.lines:
            foot = feet.get((ln.page, ln.column))
            if ln.role != "text" or foot is None or ln.y0 > foot:
                continue
            pieces = _without_marks(ln, marks, fonts, s)
            if len(pieces) > 1:
                ln.chars = [ch for piece, _space in pieces for ch in piece]
                ln.text = "".join(
                    line_text(piece, fonts, ln.code, s) + (" " if space else "")
                    for piece, space in pieces
                ).strip()


def _without_marks(
    ln: Line, marks: set[str], fonts: Sequence[FontStyle], s: Settings
) -> list[tuple[list[Char], bool]]:
    """``ln``'s glyphs in runs between the footnote marks among them, each with whether a
    word space followed the mark after it (the gap a mark leaves is no space: "it⁴." reads
    "it.")."""
    chars = ln.chars
    baseline = statistics.median(ch.y1 for ch in chars) if chars else 0.0

    def raised(ch: Char) -> bool:
        return (
            ch.text.isdigit()
            and ch.size < s.mark_size * ln.size
            and baseline - ch.y1 >= s.mark_raise * ln.size
        )

    pieces: list[tuple[list[Char], bool]] = []
    run: list[Char] = []
    i = 0
    while i < len(chars):
        j = i
        while j < len(chars) and raised(chars[j]):
            j += 1
        if j > i and run and "".join(ch.text for ch in chars[i:j]) in marks:
            space = j < len(chars) and " " in line_text(chars[j - 1 : j + 1], fonts, False, s)
            pieces.append((run, space))
            run = []
            i = j
            continue
        run.append(chars[i])
        i += 1
    pieces.append((run, False))
    return [(piece, space) for piece, space in pieces if piece]


def set_role(ln: Line, role: str) -> None:
    """Give a line and the fragments it was merged from one role."""
    ln.role = role
    for piece in ln.pieces:
        piece.role = role


def text_band(layout: Layout) -> tuple[float, float]:
    """The band of a page that holds text: from the body text's usual top to its usual
    bottom, narrowed to stay clear of the running heads and footers."""
    s = layout.settings
    body = [
        ln for p in layout.pages for ln in p.lines if ln.role == "text" and layout.body_like(ln, p)
    ]
    height = statistics.median([p.height for p in layout.pages]) if layout.pages else 792.0
    band = (0.0, height)
    tops = sorted(ln.y0 for ln in body)
    bottoms = sorted(ln.y1 for ln in body)
    if len(tops) >= s.band_min_lines:
        # A robust extreme: a stray body-like line in a margin must not widen the band.
        k = max(1, len(tops) // s.band_outliers)
        half = s.band_pad * layout.leading
        band = (tops[k] - half, bottoms[-k - 1] + half)
        band = (min(band[0], s.band_edge * height), max(band[1], (1 - s.band_edge) * height))
    heads = [
        ln.y1 for p in layout.pages for ln in p.lines if ln.role == "running" and ln.y1 < height / 2
    ]
    feet = [
        ln.y0 for p in layout.pages for ln in p.lines if ln.role == "running" and ln.y0 > height / 2
    ]
    if heads:
        band = (max(band[0], max(heads) + 1.0), band[1])
    if feet:
        band = (band[0], min(band[1], min(feet) - 1.0))
    return band


# ---------------------------------------------------------------------------------------------
# The pass


def analyse(doc: Document, s: Settings | None = None) -> Layout:
    """The layout of every page of ``doc`` (see the module docstring)."""
    s = s or doc.settings
    notes: list[Note] = []
    pages: list[PageLayout] = []
    for content in doc.pages:
        chars, dropped = drop_overdrawn(content.chars, s)
        notes.extend(glyph_notes(content, dropped))
        frags, numbered = line_numbers(fragments(content.number, chars, doc.fonts, s), doc.fonts, s)
        if numbered:
            notes.append(Note(content.number, 0, f"dropped {numbered} line numbers in the margin"))
        outside = off_page(frags, content.width, content.height)
        if outside:
            gone = {id(ln) for ln in outside}
            frags = [ln for ln in frags if id(ln) not in gone]
            message = f"dropped {len(outside)} texts drawn off the page"
            notes.append(Note(content.number, 0, message))
        pages.append(PageLayout(content, frags, []))
    body = body_size(ln for page in pages for ln in page.fragments)
    for page in pages:
        page.gutter = find_gutter(page.fragments, page.width, body, s)
    settle_gutters(pages, body, s)
    for page in pages:
        assign_columns(page.fragments, page.gutter)
        page.lines = reading_order(merge_baselines(page.fragments, doc.fonts, s))
        for n, ln in enumerate(page.lines, 1):
            ln.number = n
    usual = column_edges((ln for page in pages for ln in page.lines), body, 1, s)
    for page in pages:
        page.extents = page_extents(page, usual, body, s)
    sized = [f for p in pages for f in p.fragments if _is_body_size(f, body, s)]
    mono_chars = sum(len(f.chars) for f in sized if doc.fonts[f.chars[0].font].mono)
    mono_body = mono_chars > s.mono_paper * max(1, sum(len(f.chars) for f in sized))
    layout = Layout(
        pages, doc.fonts, body, leading(pages, body, s), (0.0, 1e9), mono_body, notes, s
    )
    mark_running(layout, words_only=True)
    layout.band = text_band(layout)
    return layout


def margin(layout: Layout, box: Box) -> bool:
    """``box`` lies outside the text band (in the page's top or bottom margin)."""
    return box[3] < layout.band[0] or box[1] > layout.band[1]
