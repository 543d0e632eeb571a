"""Layout analysis of a paper's pages: glyphs with fonts and positions → the units of an import.

Pure (no PDF library): :mod:`.pdf` reads the glyphs and graphics boxes with pypdfium2 and hands
them over as :class:`PageContent`. Coordinates are PDF points from the page's *top-left* corner,
like the boxes of ``<article>.figures.yml``.

The steps, each a function below:

1. overdrawn glyphs (bold faked by drawing a glyph twice) are dropped;
2. glyphs become line fragments in drawing order, split at large horizontal gaps; spaces come
   from the gaps between glyphs, never from a change of font;
3. the column gutter of each page is found from the body-size lines; fragments on one baseline
   in one column are merged; the reading order is band by band, left column before right;
4. floats are found from their captions ("Figure 3:", "Fig. 3.", "Table 2", "TABLE II") and the
   graphics and non-body text next to them: all of it leaves the text flow;
5. the front matter (title, authors), running heads and page numbers are set aside;
6. headings need a numbering pattern *and* a heading style (larger, bold, italic or capitals),
   or a well-known name (Abstract, References, …) in a heading style;
7. the remaining lines become paragraphs (gaps, indents, short last lines); a paragraph
   interrupted by a float or a column break stays one; references are split one per entry.
"""

from __future__ import annotations

import itertools
import operator
import re
import statistics
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

Box = tuple[float, float, float, float]


_SC_RE = re.compile(r"(?<=[a-z0-9])SC(?:[0-9]*)$|-SC\b")


@dataclass(frozen=True)
class FontStyle:
    name: str
    weight: int = 400
    italic: bool = False
    mono: bool = False
    bold: bool = field(init=False)
    #: a small-capitals font (LMRomanCaps10, CMCSC10, …ReguSC): a heading style
    smallcaps: bool = field(init=False)

    def __post_init__(self) -> None:
        lowered = self.name.lower()
        bold = self.weight >= 600 or any(
            key in lowered for key in ("bold", "black", "heavy", "semibold", "medi", "cmbx")
        )
        object.__setattr__(self, "bold", bold)
        smallcaps = "caps" in lowered or "cmcsc" in lowered or bool(_SC_RE.search(self.name))
        object.__setattr__(self, "smallcaps", smallcaps)


@dataclass(slots=True)
class Char:
    """One glyph: its text, loose box (top-left origin), font size and font (index)."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float
    font: int = 0
    #: the PDF has a real space character before this glyph
    space_before: bool = False
    #: PDFium put a generated space before this glyph (it saw a word gap, measured with the
    #: font's advance widths, where the loose boxes of italic overhangs may touch)
    space_generated: bool = False


@dataclass
class PageContent:
    number: int  # 1-based
    width: float
    height: float
    chars: list[Char]
    #: bounding boxes of images, vector paths and shadings (top-left origin)
    graphics: list[Box] = field(default_factory=list)


@dataclass(eq=False)
class Line:
    page: int
    chars: list[Char]
    x0: float
    y0: float
    x1: float
    y1: float
    size: float
    bold: bool = False
    italic: bool = False
    mono: bool = False
    #: number of large gaps inside (table rows and figure text have them)
    gaps: int = 0
    #: monospaced or letter-spaced: a code listing
    code: bool = False
    #: set in small capitals
    smallcaps: bool = False
    #: share of glyphs in a bold font (a heading is bold throughout; "2. Phase 2: …" is not)
    bold_share: float = 0.0
    #: the texts of the fragments merged into this line
    parts: list[str] = field(default_factory=list)
    column: int = -1  # 0 left, 1 right, -1 spanning or single column
    role: str = "text"  # text, running, front, title, float, caption, dropped
    number: int = 0  # 1-based line number on its page, in reading order
    text: str = ""

    @property
    def mid(self) -> float:
        return (self.y0 + self.y1) / 2

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def mid_x(self) -> float:
        return (self.x0 + self.x1) / 2


@dataclass(frozen=True)
class Float:
    """A figure or table found from its caption: the same shape as figures.detect's result."""

    page: int
    kind: str  # "figure" | "table"
    label: str  # as printed: "Figure 3", "Fig. 3", "TABLE II"
    number: int
    caption: str
    box: Box
    caption_box: Box


@dataclass(frozen=True)
class Unit:
    """A heading (level ≥ 1), a paragraph, a reference or a float placement, in order."""

    kind: str  # "heading" | "paragraph" | "reference" | "code" | "equation" | "float"
    text: str
    level: int = 0
    page: int = 0
    line: int = 0
    figure: Float | None = None


@dataclass(frozen=True)
class Note:
    """Something the author should review: what was dropped or is uncertain, and where."""

    page: int
    line: int
    message: str


@dataclass
class Layout:
    units: list[Unit]
    title: str
    authors: list[str]
    floats: list[Float]
    notes: list[Note]


# ---------------------------------------------------------------------------------------------
# Unicode


#: Compatibility characters that NFKC may fold without changing meaning: ligatures, full-width
#: and half-width forms, and the many widths of space. Superscripts, ℝ, ½, ™ … are kept.
def _safe_nfkc(ch: str) -> str:
    code = ord(ch)
    if 0xFB00 <= code <= 0xFB06 or 0xFF01 <= code <= 0xFFEE:
        return unicodedata.normalize("NFKC", ch)
    if ch in "\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f":
        return " "
    if ch == "\ufffe":  # PDFium's mark for a soft hyphen at a line end
        return "-"
    if ch in "\u200b\u200c\u200d\u2060\ufeff\uffff":
        return ""
    if ch == "\u2212":  # the minus sign of math fonts reads as a hyphen-minus in prose
        return "-"
    if code < 32 or 0x7F <= code < 0xA0:
        # PDFium marks a hyphen it takes for a line-end hyphenation as U+0002; other control
        # characters are glyphs without a Unicode mapping.
        return "-" if ch == "\x02" else ""
    return ch


def normalize_text(text: str) -> str:
    """Unicode normalisation where it is safe (ﬁ → fi, full-width → ASCII, odd spaces → space)."""
    if text.isascii() and text.isprintable():
        return text
    return unicodedata.normalize("NFC", "".join(_safe_nfkc(ch) for ch in text))


# ---------------------------------------------------------------------------------------------
# 1-2. Glyphs → line fragments


def drop_overdrawn(chars: Sequence[Char]) -> tuple[list[Char], int]:
    """Drop glyphs drawn again at (almost) the same place: bold faked by overprinting."""
    seen: dict[tuple[str, int, int], float] = {}
    kept: list[Char] = []
    dropped = 0
    prev: Char | None = None
    for ch in chars:
        # The letters of a ligature (ﬀ, ﬁ, ﬃ) share the glyph's box: they are not drawn twice.
        if prev is not None and ch.x0 == prev.x0 and ch.x1 == prev.x1 and ch.text in "filt":
            kept.append(ch)
            continue
        prev = ch
        # Overprinting shifts a glyph by a fraction of its width ("ll" is two glyphs apart).
        tol = max(0.3 * (ch.x1 - ch.x0), 0.05 * ch.size)
        # Buckets 2 pt wide: the glyph's own and the neighbour its position is closer to.
        half = ch.x0 * 0.5
        ix, iy = int(half), int(ch.y1)
        key = (ch.text, ix, iy)
        x = seen.get(key)
        if x is None:
            x = seen.get((ch.text, ix + 1 if half - ix > 0.5 else ix - 1, iy))
        if x is not None and abs(x - ch.x0) < tol:
            dropped += 1
            continue
        seen[key] = ch.x0
        kept.append(ch)
    return kept, dropped


#: Spacing accents that TeX draws as glyphs of their own, and their combining forms.
_ACCENTS = {
    "¨": "\u0308",
    "´": "\u0301",
    "`": "\u0300",
    "ˆ": "\u0302",
    "˜": "\u0303",
    "¸": "\u0327",
    "ˇ": "\u030c",
    "˚": "\u030a",
}


def _place_accents(chars: Sequence[Char]) -> dict[int, str]:
    """TeX draws "ä" as "a" and a separate "¨" over it: the letter under each accent.

    Returns {index of a letter: combining accents}; an accent over no letter is kept as it is
    (its own index maps to "").
    """
    out: dict[int, str] = {}
    for i, ch in enumerate(chars):
        accent = _ACCENTS.get(ch.text)
        if accent is None:
            continue
        center = (ch.x0 + ch.x1) / 2
        under = [
            j
            for j in range(len(chars))
            if j != i and chars[j].text.isalpha() and chars[j].x0 <= center <= chars[j].x1
        ]
        if under:
            out[under[0]] = out.get(under[0], "") + accent
        else:
            out[i] = ""
    return out


def line_text(chars: Sequence[Char], fonts: Sequence[FontStyle], code: bool = False) -> str:
    """The text of glyphs on one line; a space where the gap is a word space, never elsewhere.

    Inter-word gaps of justified text are ≥ 0.15 em and kerning stays under 0.1 em (measured on
    real ACM and IEEE papers); monospaced glyphs sit edge to edge, so only a wider gap counts.
    A loose box includes the overhang of an italic glyph ("of" + "moving": the italic f reaches
    0.15 em into the gap), so a tightly set line can show a word gap of 0.06 em between boxes:
    where PDFium saw a word gap (it measures with the font's advance widths and generates a
    space), a gap between letters clearly above the line's own letter gaps is one too.
    """
    out: list[str] = []
    prev: Char | None = None
    accents = _place_accents(chars) if any(ch.text in _ACCENTS for ch in chars) else {}
    letter_gap = text_size = 0.0
    if any(ch.space_generated for ch in chars):
        letter_gap = _letter_gap(chars)
        text_size = 0.9 * max(map(_SIZE, chars))
    for i, ch in enumerate(chars):
        if ch.text in _ACCENTS and i not in accents:
            continue
        if prev is not None:
            gap = ch.x0 - prev.x1
            size = prev.size if prev.size < ch.size else ch.size
            if code:
                # Listings set each character in a fixed cell: a space is a whole empty cell.
                if gap > 0.35 * size:
                    out.append(" ")
            elif (
                gap > 0.11 * size
                or (ch.space_before and gap > 0.02 * size)
                or (
                    ch.space_generated
                    and gap > (letter_gap + 0.03) * size
                    and prev.text.isalpha()
                    and ch.text.isalpha()
                    # not between the letters of a math script ("t" + "last"): TeX spaces
                    # those with italic corrections
                    and size > text_size
                )
            ) and (gap > 0.3 * size or not (fonts[ch.font].mono and fonts[prev.font].mono)):
                out.append(" ")
        out.append(unicodedata.normalize("NFC", ch.text + accents[i]) if i in accents else ch.text)
        prev = ch
    text = normalize_text("".join(out)).strip()
    # A soft hyphen ends a line only where the word was broken; elsewhere it is invisible.
    if text.endswith("\u00ad"):
        text = text[:-1] + "-"
    return text.replace("\u00ad", "")


_X0, _Y0, _X1, _Y1 = (operator.attrgetter(a) for a in ("x0", "y0", "x1", "y1"))
_SIZE, _FONT = operator.attrgetter("size"), operator.attrgetter("font")


def _letter_gap(chars: Sequence[Char]) -> float:
    """The line's usual gap between glyphs, in em: its letter spacing (most gaps are inside
    words), 0.1 em in a letter-spaced listing, about 0 in prose."""
    if len(chars) < 2:
        return 0.0
    return statistics.median(
        (b.x0 - a.x1) / (a.size if a.size < b.size else b.size)
        for a, b in itertools.pairwise(chars)
    )


def _make_line(page: int, chars: list[Char], fonts: Sequence[FontStyle], gaps: int = 0) -> Line:
    sizes: Counter[float] = Counter(map(_SIZE, chars))
    styles = Counter(map(_FONT, chars))
    n = len(chars)
    bold = sum(k for f, k in styles.items() if fonts[f].bold)
    italic = sum(k for f, k in styles.items() if fonts[f].italic)
    mono = sum(k for f, k in styles.items() if fonts[f].mono)
    smallcaps = sum(k for f, k in styles.items() if fonts[f].smallcaps)
    text = line_text(chars, fonts)
    tokens = text.split()
    singles = sum(len(t) == 1 for t in tokens)
    code = mono > 0.8 * n or (len(tokens) >= 6 and singles >= 0.45 * len(tokens))
    return Line(
        page=page,
        chars=chars,
        x0=min(map(_X0, chars)),
        y0=min(map(_Y0, chars)),
        x1=max(map(_X1, chars)),
        y1=max(map(_Y1, chars)),
        size=sizes.most_common(1)[0][0],
        bold=bold > n / 2,
        italic=italic > n / 2,
        mono=mono > n / 2,
        gaps=gaps,
        code=code,
        smallcaps=smallcaps > n / 2,
        bold_share=bold / n,
        text=line_text(chars, fonts, True) if code else text,
    )


def fragments(page: PageContent, fonts: Sequence[FontStyle]) -> list[Line]:
    """Glyphs in drawing order → line fragments (a new one at a line change or a large gap)."""
    out: list[Line] = []
    current: list[Char] = []
    ref_mid = ref_size = 0.0

    def flush() -> None:
        if current:
            line = _make_line(page.number, current[:], fonts)
            if line.text:
                out.append(line)
            current.clear()

    for ch in page.chars:
        mid = (ch.y0 + ch.y1) / 2
        if current:
            prev = current[-1]
            size = max(ref_size, ch.size)
            same_line = abs(mid - ref_mid) < 0.45 * size
            gap = ch.x0 - prev.x1
            if same_line and (-0.5 * size < gap < 1.5 * size or ch.x0 == prev.x0):
                current.append(ch)
                if ch.size > ref_size * 1.05:
                    ref_mid, ref_size = mid, ch.size
                continue
            flush()
        current.append(ch)
        ref_mid, ref_size = mid, ch.size
    flush()
    return out


# ---------------------------------------------------------------------------------------------
# 3. Columns and reading order


def body_size(lines: Iterable[Line]) -> float:
    """The most common type size, by glyph count: the body text's."""
    sizes: Counter[float] = Counter()
    for ln in lines:
        sizes[round(ln.size * 2) / 2] += len(ln.chars)
    return sizes.most_common(1)[0][0] if sizes else 10.0


def _is_body_size(line: Line, body: float) -> bool:
    return abs(line.size - body) <= 0.08 * body + 0.1


def find_gutter(lines: Sequence[Line], width: float, body: float) -> tuple[float, float] | None:
    """The empty vertical band between two columns, from the body-size lines of a page."""
    body_lines = [ln for ln in lines if _is_body_size(ln, body) and len(ln.chars) >= 8]
    if len(body_lines) < 6:
        return None
    bins = [0] * (int(width) + 2)
    for ln in body_lines:
        for x in range(max(0, int(ln.x0)), min(len(bins), int(ln.x1) + 1)):
            bins[x] += 1
    allowed = max(1, int(0.1 * len(body_lines)))
    lo, hi = int(0.3 * width), int(0.7 * width)
    best: tuple[float, float] | None = None
    x = lo
    while x < hi:
        if bins[x] <= allowed:
            start = x
            while x < len(bins) - 1 and bins[x] <= allowed:
                x += 1
            if x - start >= 4:
                left = sum(1 for ln in body_lines if ln.x1 <= start + 1)
                right = sum(1 for ln in body_lines if ln.x0 >= x - 1)
                candidate = (float(start), float(x))
                enough = max(2, 0.1 * len(body_lines))
                if left >= enough and right >= enough:
                    center = width / 2
                    if best is None or abs(sum(candidate) / 2 - center) < abs(
                        sum(best) / 2 - center
                    ):
                        best = candidate
        x += 1
    return best


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


def drop_line_numbers(lines: list[Line]) -> tuple[list[Line], int]:
    """Remove the line numbers of a review copy: bare numbers stacked in one margin column."""
    stacks: dict[int, list[Line]] = {}
    for ln in lines:
        if ln.text.isdigit() and len(ln.text) <= 4:
            stacks.setdefault(round(ln.x1 / 3), []).append(ln)
    numbers = {id(ln) for stack in stacks.values() if len(stack) >= 8 for ln in stack}
    if not numbers:
        return lines, 0
    return [ln for ln in lines if id(ln) not in numbers], len(numbers)


def merge_baselines(lines: list[Line], fonts: Sequence[FontStyle]) -> list[Line]:
    """Fragments on one baseline in one column become one line (in x order)."""
    lines = sorted(lines, key=lambda ln: (ln.column, ln.mid, ln.x0))
    out: list[Line] = []
    group: list[Line] = []

    def flush() -> None:
        if not group:
            return
        if len(group) == 1:
            out.append(group[0])
        else:
            group.sort(key=lambda ln: ln.x0)
            chars = [ch for ln in group for ch in ln.chars]
            # Wide word spaces of a justified line are not the gaps between table cells.
            gaps = sum(
                b.x0 - a.x1 > 2.0 * min(a.size, b.size) for a, b in itertools.pairwise(group)
            )
            merged = _make_line(group[0].page, chars, fonts, gaps=gaps)
            merged.column = group[0].column
            merged.parts = [ln.text for ln in group]
            out.append(merged)
        group.clear()

    for ln in lines:
        if group:
            head = group[0]
            tol = 0.35 * min(head.size, ln.size)
            if ln.column == head.column and abs(ln.mid - head.mid) < tol:
                group.append(ln)
                continue
            flush()
        group.append(ln)
    flush()
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
# 4. Floats

_CAPTION_RE = re.compile(
    r"^(?P<label>(?P<word>Figure|FIGURE|Fig\.?|FIG\.?|Table|TABLE|Tab\.)\s*"
    r"(?P<num>[0-9]{1,3}|[IVXLC]{1,7}))(?:\s*(?P<punct>[.:|—–-])\s*|\s*$)"
)
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def _roman(text: str) -> int:
    total = 0
    for a, b in zip(text, text[1:] + " ", strict=True):
        value = _ROMAN[a]
        total += -value if b in _ROMAN and _ROMAN[b] > value else value
    return total


def caption_match(text: str) -> tuple[str, str, int] | None:
    """(kind, label, number) when ``text`` starts like a caption ("Figure 3:", "TABLE II")."""
    m = _CAPTION_RE.match(text)
    if not m:
        return None
    word, num = m.group("word"), m.group("num")
    if word.isupper() and len(word) > 3 and num.isdigit() and not m.group("punct"):
        return None
    number = int(num) if num.isdigit() else _roman(num)
    kind = "table" if word.lower().startswith("tab") else "figure"
    return kind, m.group("label"), number


def _union(boxes: Iterable[Box]) -> Box:
    bs = list(boxes)
    return (
        min(b[0] for b in bs),
        min(b[1] for b in bs),
        max(b[2] for b in bs),
        max(b[3] for b in bs),
    )


def _line_box(ln: Line) -> Box:
    return (ln.x0, ln.y0, ln.x1, ln.y1)


@dataclass
class _Page:
    content: PageContent
    lines: list[Line]
    gutter: tuple[float, float] | None
    #: x extent of each column (0, 1) and of the text block (-1)
    extents: dict[int, tuple[float, float]]
    #: the drawings, merged (see _graphics)
    drawings: list[Box] | None = None


class _Analysis:
    def __init__(self, pages: Sequence[PageContent], fonts: Sequence[FontStyle]) -> None:
        self.fonts = fonts
        self.notes: list[Note] = []
        self.pages: list[_Page] = []
        for content in pages:
            chars, dropped = drop_overdrawn(content.chars)
            text = "".join(ch.text for ch in chars)
            # Control characters and U+FFFD are glyphs without a Unicode mapping (U+0002 is
            # PDFium's mark of a line-end hyphen).
            unmapped = (
                sum(not c.isprintable() for c in text) - text.count("\x02") + text.count("\ufffd")
            )
            if unmapped:
                self.notes.append(
                    Note(
                        content.number,
                        0,
                        f"{unmapped} glyphs have no Unicode mapping in the PDF: words there may "
                        "miss letters (often the ligatures ﬁ, ﬀ, Th)",
                    )
                )
            if dropped:
                self.notes.append(
                    Note(content.number, 0, f"merged {dropped} overdrawn glyphs (bold drawn twice)")
                )
            content = PageContent(
                content.number, content.width, content.height, chars, content.graphics
            )
            frags, numbered = drop_line_numbers(fragments(content, fonts))
            if numbered:
                self.notes.append(
                    Note(content.number, 0, f"dropped {numbered} line numbers in the margin")
                )
            self.pages.append(_Page(content, frags, None, {}))
        self.body = body_size(ln for page in self.pages for ln in page.lines)
        for page in self.pages:
            page.gutter = find_gutter(page.lines, page.content.width, self.body)
        self._settle_gutters()
        for page in self.pages:
            assign_columns(page.lines, page.gutter)
            page.lines = reading_order(merge_baselines(page.lines, fonts))
            for n, ln in enumerate(page.lines, 1):
                ln.number = n
        # Column edges from lines of running text; a page of figures takes the paper's usual.
        usual = self._edges(ln for page in self.pages for ln in page.lines)
        for page in self.pages:
            page.extents = self._extents(page, usual)
        self.leading = self._leading()

    def _settle_gutters(self) -> None:
        """Pages without a gutter of their own (a page of floats) take the paper's usual one."""
        found = [p.gutter for p in self.pages if p.gutter is not None]
        if len(found) < max(1, len(self.pages) // 3):
            for p in self.pages:
                p.gutter = None
            return
        usual = statistics.median_low([(g[0] + g[1]) / 2 for g in found])
        common = min(found, key=lambda g: abs((g[0] + g[1]) / 2 - usual))
        for p in self.pages:
            if p.gutter is None:
                body = [ln for ln in p.lines if _is_body_size(ln, self.body)]
                crossing = [ln for ln in body if ln.x0 < common[0] and ln.x1 > common[1]]
                if body and len(crossing) <= 0.2 * len(body):
                    p.gutter = common

    def _edges(self, lines: Iterable[Line], least: int = 1) -> dict[int, tuple[float, float]]:
        """The usual left and right edge of each column (-1: the text block), from lines of
        running text (body size, 20 glyphs or more: not tick labels or table cells)."""
        lefts: dict[int, Counter[int]] = {-1: Counter(), 0: Counter(), 1: Counter()}
        rights: dict[int, Counter[int]] = {-1: Counter(), 0: Counter(), 1: Counter()}
        for ln in lines:
            if len(ln.chars) >= 20 and _is_body_size(ln, self.body):
                for col in {-1, ln.column}:
                    lefts[col][round(ln.x0)] += 1
                    rights[col][round(ln.x1)] += 1
        return {
            col: (_left_edge(lefts[col]), float(rights[col].most_common(1)[0][0]))
            for col in (-1, 0, 1)
            if lefts[col].total() >= least
        }

    def _extents(
        self, page: _Page, usual: dict[int, tuple[float, float]]
    ) -> dict[int, tuple[float, float]]:
        own = self._edges(page.lines, least=5)
        out = {col: own.get(col) or usual.get(col) for col in (-1, 0, 1)}
        found = {col: e for col, e in out.items() if e is not None}
        if page.gutter is None:
            block = found.get(-1, (page.content.width * 0.08, page.content.width * 0.92))
            return {-1: block, 0: block, 1: block}
        left = found.get(0, (page.content.width * 0.08, page.gutter[0]))
        right = found.get(1, (page.gutter[1], page.content.width * 0.92))
        return {0: left, 1: right, -1: (left[0], right[1])}

    def _leading(self) -> float:
        diffs: list[float] = []
        for page in self.pages:
            prev: Line | None = None
            for ln in page.lines:
                if prev is not None and prev.column == ln.column and _is_body_size(ln, self.body):
                    d = ln.y1 - prev.y1
                    if 0.8 * self.body < d < 2.0 * self.body:
                        diffs.append(d)
                prev = ln
        return statistics.median(diffs) if diffs else 1.2 * self.body

    # -- helpers --------------------------------------------------------------------------

    def body_like(self, ln: Line, page: _Page) -> bool:
        """A line of running text: body size, not monospaced, few gaps, most of a column."""
        if not _is_body_size(ln, self.body) or ln.code or ln.gaps > 0:
            return False
        left, right = page.extents.get(ln.column, page.extents.get(-1, (ln.x0, ln.x1)))
        # The short last line of a paragraph starts at the column's left edge.
        return ln.width >= 0.55 * (right - left) or abs(ln.x0 - left) < 1.5

    def full_width(self, ln: Line, page: _Page) -> bool:
        _left, right = page.extents.get(ln.column, page.extents.get(-1, (ln.x0, ln.x1)))
        return ln.x1 >= right - 1.2 * self.body

    def indented(self, ln: Line, page: _Page) -> bool:
        left, _right = page.extents.get(ln.column, page.extents.get(-1, (ln.x0, ln.x1)))
        return 0.5 * self.body < ln.x0 - left < 4.0 * self.body


def _left_edge(lefts: Counter[int]) -> float:
    """Where a column's lines start: the leftmost edge two lines share (indented first lines
    and hanging list items start further right, and may be the majority on a page)."""
    shared = [x for x, n in lefts.items() if n >= 2]
    return float(min(shared) if shared else lefts.most_common(1)[0][0])


def _graphics(page: _Page) -> list[Box]:
    """The page's drawings, touching ones merged (a plot of 10 000 paths is one box), without
    page-size backgrounds and invisible specks. Computed once per page."""
    if page.drawings is None:
        area = page.content.width * page.content.height
        boxes = []
        for box in page.content.graphics:
            w, h = box[2] - box[0], box[3] - box[1]
            if w * h > 0.5 * area or (w < 0.5 and h < 0.5):
                continue
            boxes.append(box)
        page.drawings = merge_boxes(boxes)
    return page.drawings


def merge_boxes(boxes: Sequence[Box], slack: float = 1.0) -> list[Box]:
    """Union of the boxes that overlap or touch (within ``slack``), transitively.

    A grid of cells gives each box its candidate neighbours; a cell keeps one entry per cluster
    (compared by the cluster's bounding box), so a dense plot of 20 000 paths stays fast.
    """
    if len(boxes) < 2:
        return list(boxes)
    parent = list(range(len(boxes)))
    cluster = list(boxes)  # bounding box of each cluster, kept at its root

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def touch(a: Box, o: Box) -> bool:
        return (
            a[0] <= o[2] + slack
            and o[0] <= a[2] + slack
            and a[1] <= o[3] + slack
            and o[1] <= a[3] + slack
        )

    cell = 24.0
    grid: dict[tuple[int, int], list[int]] = {}
    for i, b in enumerate(boxes):
        cx0, cy0 = int((b[0] - slack) // cell), int((b[1] - slack) // cell)
        cx1, cy1 = int((b[2] + slack) // cell), int((b[3] + slack) // cell)
        for cx in range(cx0, cx1 + 1):
            for cy in range(cy0, cy1 + 1):
                members = grid.setdefault((cx, cy), [])
                roots = {find(j) for j in members}
                for r in roots:
                    ri = find(i)
                    if r != ri and touch(b, cluster[r]):
                        parent[r] = ri
                        cluster[ri] = _union((cluster[ri], cluster[r]))
                members[:] = list({find(j) for j in roots} | {find(i)})
    merged = [cluster[i] for i in range(len(boxes)) if find(i) == i]
    # A cluster that grew may now touch one it was compared with before: merge again until
    # no two boxes touch (few boxes are left after the first pass).
    return merged if len(merged) == len(boxes) else merge_boxes(merged, slack)


def _overlaps_x(a: tuple[float, float], b: tuple[float, float], slack: float = 0.0) -> bool:
    return a[0] < b[1] + slack and b[0] < a[1] + slack


def find_floats(an: _Analysis) -> list[Float]:
    """Caption-anchored floats; their lines get the roles ``caption`` and ``float``."""
    floats: list[Float] = []
    for page in an.pages:
        graphics = _graphics(page)
        lines = page.lines
        for i, ln in enumerate(lines):
            if ln.role != "text":
                continue
            found = caption_match(ln.text)
            if found is None and ln.parts:
                # A caption on the baseline of a figure label ("fi Figure 4: …").
                for k, part in enumerate(ln.parts[1:], 1):
                    found = caption_match(part)
                    if found is not None:
                        ln.text = " ".join(ln.parts[k:])
                        break
            if found is None:
                continue
            prev = lines[i - 1] if i > 0 else None
            # "… as shown in\nFigure 3. The …" inside a paragraph is not a caption.
            if (
                prev is not None
                and prev.role == "text"
                and prev.column == ln.column
                and 0 < ln.y0 - prev.y1 < 0.6 * an.body
                and an.body_like(prev, page)
                and an.full_width(prev, page)
                and not prev.text.endswith((".", ":"))
                and not graphics_between(graphics, prev, ln)
            ):
                continue
            kind, label, number = found
            caption_lines = [ln]
            pitch = 1.45 * ln.size
            for nxt in lines[i + 1 :]:
                last = caption_lines[-1]
                if (
                    nxt.role == "text"
                    and (len(nxt.text) <= 2 or nxt.size < 0.5 * an.body)
                    and last.y0 - 2 <= nxt.mid <= last.y1 + 2
                ):
                    nxt.role = "float"  # a stray glyph of the figure on the caption's line
                    continue
                if (
                    nxt.role != "text"
                    or nxt.page != ln.page
                    or not (0 <= nxt.y0 - last.y0 <= pitch + 0.5)
                    or abs(nxt.size - ln.size) > 0.15 * ln.size
                    or not _overlaps_x((nxt.x0, nxt.x1), (ln.x0, ln.x1), 20)
                    or caption_match(nxt.text)
                ):
                    break
                caption_lines.append(nxt)
            cap_box = _union(_line_box(c) for c in caption_lines)
            spanning = page.gutter is not None and (
                cap_box[0] < page.gutter[0] - 5 and cap_box[2] > page.gutter[1] + 5
            )
            col = -1 if spanning or page.gutter is None else caption_lines[0].column
            extent = page.extents.get(col, (cap_box[0], cap_box[2]))
            extent = (min(extent[0], cap_box[0]), max(extent[1], cap_box[2]))
            directions = ["below", "above"] if kind == "table" else ["above", "below"]
            body_lines: list[Line] = []
            body_graphics: list[Box] = []
            for direction in directions:
                body_lines, body_graphics = _grow(
                    an, page, graphics, caption_lines, extent, direction, col, kind
                )
                if body_lines or body_graphics:
                    break
            for c in caption_lines:
                c.role = "caption"
            for b in body_lines:
                b.role = "float"
            # A drawing belongs to one float (a table's last rule is not the next figure's).
            claimed = set(body_graphics)
            graphics = [g for g in graphics if g not in claimed]
            boxes = [_line_box(b) for b in body_lines] + body_graphics
            box = _union(boxes) if boxes else cap_box
            caption = " ".join(c.text for c in caption_lines)
            floats.append(Float(ln.page, kind, label, number, caption, box, cap_box))
    _sweep_float_text(an, floats)
    return floats


def graphics_between(graphics: Sequence[Box], upper: Line, lower: Line) -> bool:
    return any(
        g[1] >= upper.y1 - 1
        and g[3] <= lower.y0 + 1
        and _overlaps_x((g[0], g[2]), (lower.x0, lower.x1))
        for g in graphics
    )


def _grow(
    an: _Analysis,
    page: _Page,
    graphics: Sequence[Box],
    caption: Sequence[Line],
    extent: tuple[float, float],
    direction: str,
    column: int,
    kind: str = "figure",
) -> tuple[list[Line], list[Box]]:
    """Lines and graphics of a float's body, walking away from its caption until body text.

    A table reaches at least to the last of the horizontal rules that start next to its caption
    (booktabs' top, mid and bottom rules): its rows may look like body text.
    """
    top, bottom = caption[0].y0, caption[-1].y1
    inside = [
        ln
        for ln in page.lines
        if ln.role in ("text", "caption", "float")
        and ln not in caption
        and (column == -1 or ln.column == column)
        and _overlaps_x((ln.x0, ln.x1), extent, -2)
        and (ln.y1 <= top + 1 if direction == "above" else ln.y0 >= bottom - 1)
    ]
    inside.sort(key=lambda ln: -ln.y1 if direction == "above" else ln.y0)
    near = [g for g in graphics if _overlaps_x((g[0], g[2]), extent, -2)]
    if direction == "above":
        near = [g for g in near if g[3] <= top + 2]
    else:
        near = [g for g in near if g[1] >= bottom - 2]
    above = direction == "above"
    taken: list[Line] = []
    edge = top if above else bottom
    reach = _rules_reach(an, near, extent, edge, direction, inside) if kind == "table" else None
    # A float's body is contiguous: each drawing and each line starts within a line or two of
    # what was taken before it, so text beyond a float's margin (\textfloatsep) stays text.
    pending = sorted(near, key=lambda g: -g[3] if above else g[1])
    accepted: list[Box] = []
    step = 1.6 * an.leading

    def absorb(edge: float) -> float:
        while pending:
            g = pending[0]
            distance = edge - g[3] if above else g[1] - edge
            first = not taken and not accepted
            if distance > (2.5 * an.leading if first else step):
                break
            accepted.append(pending.pop(0))
            edge = min(edge, g[1]) if above else max(edge, g[3])
        return edge

    for ln in inside:
        edge = absorb(edge)
        if ln.role != "text":  # another float's caption or body
            break
        if reach is not None:
            # A ruled table ends at its last rule.
            if ln.y0 >= reach - 1 if above else ln.y1 <= reach + 1:
                taken.append(ln)
                continue
            break
        gap = edge - ln.y1 if above else ln.y0 - edge
        covered = any(
            g[0] - 2 <= ln.x0 and ln.x1 <= g[2] + 2 and g[1] - 2 <= ln.y0 and ln.y1 <= g[3] + 2
            for g in accepted
        )
        # Body text, or type larger than body text (a heading, the title block), ends a float.
        if (an.body_like(ln, page) or ln.size > 1.1 * an.body) and not covered:
            break
        if gap > (2.5 * an.leading if not taken and not accepted else step) and not covered:
            break
        if caption_match(ln.text) or (
            _heading_candidate(ln.text) is not None
            and (ln.bold or _caps(ln.text))
            and ln.size >= 0.75 * an.body  # small capitals count; plot legends are smaller
        ):
            break
        taken.append(ln)
        edge = min(edge, ln.y0) if above else max(edge, ln.y1)
    absorb(edge)
    if reach is not None:
        accepted = [g for g in near if (g[1] >= reach - 1 if above else g[3] <= reach + 1)]
    boxes = accepted
    # Graphics must touch the float: no body text between them and the caption.
    if boxes:
        lo = min(b[1] for b in boxes)
        hi = max(b[3] for b in boxes)
        for ln in page.lines:
            if (
                ln.role == "text"
                and ln not in taken
                and ln not in caption
                and _overlaps_x((ln.x0, ln.x1), extent, -2)
                and lo - 1 <= ln.y0
                and ln.y1 <= hi + 1
                and not an.body_like(ln, page)
            ):
                taken.append(ln)
    return taken, boxes


def _rules_reach(
    an: _Analysis,
    graphics: Sequence[Box],
    extent: tuple[float, float],
    edge: float,
    direction: str,
    lines: Sequence[Line],
) -> float | None:
    """How far a table's chain of horizontal rules goes from its caption, if it has one."""
    width = extent[1] - extent[0]
    above = direction == "above"
    rules = [g for g in graphics if g[3] - g[1] < 2.0 and g[2] - g[0] > 0.3 * width]
    rules.sort(key=lambda g: -g[3] if above else g[1])
    stops = [_line_box(ln) for ln in lines if ln.role != "text" or caption_match(ln.text)]
    # A drawing (an image, a plot) between two rules means the chain has left the table.
    stops += [g for g in graphics if g[3] - g[1] >= 2.0]
    pos = edge
    for g in rules:
        near, far = (g[3], g[1]) if above else (g[1], g[3])
        distance = pos - near if above else near - pos
        if distance > (4 if pos == edge else 30) * an.leading:
            break
        if any(
            (far <= b[1] and b[3] <= pos) if above else (pos <= b[1] and b[3] <= far) for b in stops
        ):
            break
        pos = far
    return None if pos == edge else pos


def _sweep_float_text(an: _Analysis, floats: Sequence[Float]) -> None:
    """Text inside a float's box, or inside a large drawing without a caption, is not prose;
    nor are tick labels ("0.5", "10", "250ms") just outside a float's box."""
    m = an.body
    for page in an.pages:
        own = [f.box for f in floats if f.page == page.content.number]
        boxes = own + [g for g in _graphics(page) if (g[2] - g[0]) * (g[3] - g[1]) > 40 * m * m]
        for ln in page.lines:
            if ln.role != "text":
                continue
            for b in boxes:
                if _inside(ln, b):
                    if not an.body_like(ln, page) or b in own:
                        ln.role = "float"
                    break
            else:
                if _TICK_RE.match(ln.text) and any(
                    _inside(ln, (b[0] - 3 * m, b[1] - m, b[2] + 3 * m, b[3] + m)) for b in own
                ):
                    ln.role = "float"


_TICK_RE = re.compile(r"^[-+−]?[0-9][0-9.,]*\s?(?:%|[a-zA-Zµ]{1,3})?$")


# ---------------------------------------------------------------------------------------------
# 5. Running heads, page numbers, front matter

_PAGE_NUMBER_RE = re.compile(
    r"^(?:[-–—]\s*)?(?:page\s+)?[0-9ivxlc]{1,5}(?:\s+of\s+[0-9]+)?(?:\s*[-–—])?$", re.IGNORECASE
)


def _running_key(text: str) -> str:
    return re.sub(r"[0-9]+", "#", text.strip().lower())


def mark_running(an: _Analysis, words_only: bool = False) -> None:
    """Lines above or below the text block that repeat across pages, and page numbers.

    ``words_only``: only running heads with words in them ("Berthoud et al."), found before
    the floats so that none grows into them; bare numbers wait until the floats have taken
    their tick labels.
    """
    edges: Counter[str] = Counter()
    candidates: list[tuple[_Page, Line]] = []
    for page in an.pages:
        h = page.content.height
        live = sorted((ln for ln in page.lines if ln.role == "text"), key=lambda ln: ln.y0)
        # The two top and two bottom lines, if they lie in the page's top or bottom 15 %
        # (LNCS sets its running heads 12 % down an A4 page).
        for ln in live[:2] + live[-2:]:
            if (ln.y1 <= 0.15 * h or ln.y0 >= 0.85 * h) and (page, ln) not in candidates:
                candidates.append((page, ln))
                edges[_running_key(ln.text)] += 1
    for _page, ln in candidates:
        if words_only and not any(ch.isalpha() for ch in ln.text.replace("page", "")):
            continue
        if _PAGE_NUMBER_RE.match(ln.text) or (edges[_running_key(ln.text)] >= 2):
            ln.role = "running"
    if words_only:
        return
    # Margin stamps (arXiv identifiers, "Preprint") are outside every column.
    for page in an.pages:
        for ln in page.lines:
            if ln.role == "text" and (
                ln.x1 < page.content.width * 0.07 or ln.x0 > page.content.width * 0.93
            ):
                ln.role = "running"


_ABSTRACT_RE = re.compile(r"^(?:ABSTRACT|Abstract|A\s?BSTRACT)\b\s*(?:[—–:.-]\s*)?")


def front_matter(an: _Analysis) -> tuple[str, list[str]]:
    """The title (largest type on page 1) and the authors; both leave the text flow."""
    if not an.pages:
        return "", []
    page = an.pages[0]
    lines = [ln for ln in page.lines if ln.role == "text"]
    upper = [ln for ln in lines if ln.y0 < page.content.height * 0.5]
    if not upper:
        return "", []
    biggest = max(ln.size for ln in upper)
    if biggest >= an.body * 1.15:
        title_lines = [ln for ln in upper if ln.size >= biggest - 0.3]
        title_lines.sort(key=lambda ln: (ln.y0, ln.x0))
    else:
        # Title in body-size type (amsart: bold capitals): the set-apart block at the top.
        title_lines = _title_block(an, page, upper)
    if not title_lines or any(_heading_candidate(ln.text) for ln in title_lines):
        return "", []  # the largest type is a section heading: no title page
    title = _strip_marks(" ".join(ln.text for ln in title_lines))
    title_bottom = max(ln.y1 for ln in title_lines)
    # The front matter ends where the abstract or the first section starts.
    end = page.content.height
    for ln in lines:
        if ln.y0 > title_bottom and (
            _ABSTRACT_RE.match(ln.text)
            or (_heading_candidate(ln.text) is not None and ln.size >= 0.75 * an.body)
        ):
            end = min(end, ln.y0)
    if end == page.content.height:
        paragraphs = [ln for ln in lines if ln.y0 > title_bottom and an.body_like(ln, page)]
        end = min((ln.y0 for ln in paragraphs), default=title_bottom)
    header = [ln for ln in lines if ln.y1 <= end + 0.5 and ln not in title_lines]
    for ln in title_lines:
        ln.role = "title"
    for ln in header:
        ln.role = "front"
    below = [ln for ln in header if ln.y0 >= title_lines[0].y0]
    names = [ln for ln in below if not _affiliation(ln.text)]
    authors: list[str] = []
    if names:
        size = max(ln.size for ln in names)
        # Names, affiliations and e-mail all in one size: a name is the first line of its stack.
        flat = all(abs(ln.size - size) < 0.3 for ln in below)
        kept: list[Line] = []
        for ln in sorted(names, key=lambda ln: (ln.y0, ln.x0)):
            if abs(ln.size - size) >= 0.3 or (flat and _stacked(ln, below)):
                continue
            kept.append(ln)
            for name in re.split(r",\s*|\s+and\s+|\s*;\s*", _strip_marks(ln.text)):
                name = _HONORIFIC_RE.sub("", name.strip())
                if name and name not in authors and name.lower() != "and":
                    authors.append(name)
    if below:
        # The affiliations never reach the article's text: the report keeps all of the block.
        block = " ".join(ln.text for ln in sorted(below, key=lambda ln: (ln.y0, ln.x0)))
        first = min(below, key=lambda ln: ln.number)
        an.notes.append(
            Note(
                first.page,
                first.number,
                f"dropped author block (names in paper.authors): {block!r}",
            )
        )
    return title, authors


_HONORIFIC_RE = re.compile(r"^(?:Dr|Prof|Professor|Mr|Mrs|Ms)\.?\s+", re.IGNORECASE)


def _stacked(ln: Line, lines: Sequence[Line]) -> bool:
    """Whether ``ln`` sits right under another line of its block (an affiliation's place)."""
    return any(
        o is not ln
        and 0 <= ln.y0 - o.y1 < 0.6 * ln.size
        and min(o.x1, ln.x1) - max(o.x0, ln.x0) > 0.3 * min(o.width, ln.width)
        for o in lines
    )


def _title_block(an: _Analysis, page: _Page, lines: Sequence[Line]) -> list[Line]:
    """The title when it is not the largest type: the first block of page 1, one to four lines
    set tight, centred, bold or capitals throughout, with a clear gap before what follows."""
    ordered = sorted(lines, key=lambda ln: (ln.y0, ln.x0))
    if not ordered:
        return []
    block = [ordered[0]]
    for ln in ordered[1:]:
        if ln.y0 - block[-1].y1 > 0.8 * an.leading or len(block) > 4:
            rest = ln
            break
        block.append(ln)
    else:
        return []
    left, right = page.extents.get(-1, (0.0, page.content.width))
    centre = (left + right) / 2
    if len(block) > 4 or rest.y0 - block[-1].y1 < 1.2 * an.leading:
        return []
    for ln in block:
        if not (ln.bold_share >= 0.9 or ln.smallcaps or _caps(ln.text)):
            return []
        if abs(ln.mid_x - centre) > 0.05 * (right - left) or ln.size < 0.85 * an.body:
            return []
        if _ABSTRACT_RE.match(ln.text) or _heading_candidate(ln.text) is not None:
            return []
    return block


_AFFILIATION_WORDS = re.compile(
    r"@|https?:|\b(?:Universit|Institut|Department|Dept\.|College|School|Laborator|Lab\b|Inc\b|"
    r"Corporation|Research|Center|Centre|Academy|Email|USA|China|Germany)",
    re.IGNORECASE,
)


def _affiliation(text: str) -> bool:
    return bool(_AFFILIATION_WORDS.search(text)) or sum(ch.isdigit() for ch in text) > 3


def _strip_marks(text: str) -> str:
    text = re.sub(r"[∗*†‡§¶♯#]+(?=,|\s|$)", "", text)
    # A footnote number ends a word of letters ("Wood1," or "Turing 2"), not "b5aded7".
    return re.sub(r"(?<!\S)([^\W\d_]*)[0-9]{1,3}(?=,|\s|$)", r"\1", text).strip(" ,")


# ---------------------------------------------------------------------------------------------
# 6. Headings

_NUMERIC_RE = re.compile(r"^(?P<num>[0-9]{1,2}(?:\.[0-9]{1,2}){0,3})\.?\s+(?P<title>[A-Z].*)$")
_ROMAN_RE = re.compile(r"^(?P<num>[IVX]{1,5})\.\s+(?P<title>[A-Z].*)$")
_LETTER_RE = re.compile(r"^(?P<num>[A-Z](?:\.[0-9]{1,2}){0,2})(?P<dot>\.?)\s+(?P<title>[A-Z].*)$")
_NAMED = {
    "abstract",
    "references",
    "bibliography",
    "acknowledgments",
    "acknowledgements",
    "acknowledgment",
    "acknowledgement",
    "appendix",
    "appendices",
    "ccs concepts",
    "keywords",
    "index terms",
    "conclusion",
    "conclusions",
    "introduction",
    "related work",
}


def _heading_candidate(text: str) -> tuple[str, int] | None:
    """(kind, depth) when ``text`` is numbered like a section title: numeric, roman, letter."""
    text = text.strip()
    if len(text) > 160 or text.endswith((",", ";")):
        return None
    m = _NUMERIC_RE.match(text)
    if m:
        first = int(m.group("num").split(".")[0])
        title = m.group("title")
        digits = sum(ch.isdigit() for ch in title)
        if 0 < first <= 30 and digits <= len(title) * 0.3:
            return "numeric", m.group("num").count(".") + 1
        return None
    m = _ROMAN_RE.match(text)
    if m and not m.group("title").endswith("."):
        return "roman", 1
    m = _LETTER_RE.match(text)
    # "A. Subsection" (IEEE), "A.1 Proof" or "A PROOF" (appendices); not "A FaaS platform …".
    if (
        m
        and not m.group("title").endswith(".")
        and (m.group("dot") or "." in m.group("num") or _caps(m.group("title")))
    ):
        if m.group("dot") and "." not in m.group("num"):
            return "letter", 1  # IEEE's subsection under a roman section
        return "appendix", m.group("num").count(".") + 1
    if text.lower().rstrip(":.") in _NAMED:
        return "named", 1
    return None


def _caps(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    return len(letters) >= 3 and all(ch.isupper() for ch in letters)


# ---------------------------------------------------------------------------------------------
# 7. Paragraphs, references, hyphenation

_WORD_RE = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")
_REF_LABEL_RE = re.compile(r"^(?:\[[^\]]{1,20}\]|[0-9]{1,3}\.\s)")
_BULLETS = ("•", "◦", "▪", "‣", "∙", "–", "·")


def vocabulary(texts: Iterable[str]) -> tuple[set[str], set[str]]:
    """Words (lowercase) written whole, and compounds written with a hyphen, in the paper."""
    whole: set[str] = set()
    compounds: set[str] = set()
    for text in texts:
        for w in _WORD_RE.findall(text):
            (compounds if "-" in w else whole).add(w.lower())
    return whole, compounds


def _unbroken(texts: Iterable[str]) -> Iterator[str]:
    """Line texts without the halves of words broken at a line end ("commu-", "nication")."""
    broken = False
    for text in texts:
        if broken:
            text = text.split(" ", 1)[1] if " " in text else ""
        broken = text.endswith("-")
        yield text.rsplit(" ", 1)[0] if broken else text


@dataclass
class Joiner:
    whole: set[str]
    compounds: set[str]
    #: (page, line, "commu-nication") of the joins the paper's own words could not confirm
    uncertain: list[tuple[int, int, str]] = field(default_factory=list)
    #: (page, line, "goal-oriented") of the hyphens kept between two words of the paper
    kept: list[tuple[int, int, str]] = field(default_factory=list)
    #: page and line of the paragraph being joined
    where: tuple[int, int] = (0, 0)
    #: the words that stand after a hyphen in a compound ("network-oriented": "oriented")
    tails: set[str] = field(init=False)
    #: every word of a compound ("network", "oriented")
    parts: set[str] = field(init=False)

    def __post_init__(self) -> None:
        self.tails = {t for c in self.compounds for t in c.split("-")[1:]}
        self.parts = self.tails | {c.split("-", 1)[0] for c in self.compounds}

    def _word(self, w: str) -> bool:
        """``w`` is a word of the paper: written whole or in a compound, also with or
        without a plural s ("users": "end-user")."""
        forms = {w, w[:-1]} if w.endswith("s") and len(w) > 3 else {w}
        return any(f in self.whole or f in self.parts for f in forms)

    def _compound(self, compound: str) -> bool:
        """The paper prints ``compound`` with its hyphen (also in the singular or plural)."""
        return (
            compound in self.compounds
            or (compound.endswith("s") and compound[:-1] in self.compounds)
            or compound + "s" in self.compounds
        )

    def join(self, parts: Sequence[str]) -> str:
        """Join lines; ``commu-`` + ``nication`` → ``communication``, ``32-`` + ``bit`` kept."""
        out = ""
        for part in parts:
            part = part.strip()
            if not part:
                continue
            if not out:
                out = part
                continue
            if out.endswith("-") and len(out) > 1 and not out.endswith("--"):
                out = self._hyphen(out, part)
            elif out.endswith("/") and "://" in out.rsplit(" ", 1)[-1]:
                out += part  # a URL broken after a slash
            else:
                out += " " + part
        return out

    def _hyphen(self, out: str, part: str) -> str:
        before = out[:-1].rsplit(" ", 1)[-1]
        m = _WORD_RE.match(part)
        head = m.group(0) if m else ""
        stem_m = re.search(r"[A-Za-z]+$", before)
        stem = stem_m.group(0) if stem_m else ""
        joined = (stem + head).lower()
        compound = f"{stem}-{head}".lower()
        if (
            not stem
            or not before[-1:].isalpha()  # 32-bit, x86-64
            or not part[:1].isalpha()
            or "/" in before  # URLs
            or "-" in before  # state-of-the-art
        ):
            return out + part
        if joined in self.whole:  # the paper writes "communication", "RTCPeerConnection"
            return out[:-1] + part
        if self._compound(compound) or part[:1].isupper():  # well-known, GPU-NPU, end-users
            return out + part
        # Two words of the paper ("goal" + "oriented", where it prints "network-oriented")
        # make a compound: a syllable ("cus-", "dom-", "trans-") is no word of it, and a
        # hyphen wrongly kept is visible to the translator, a compound wrongly joined is not.
        lower, low_head = stem.lower(), head.lower()
        if (
            len(stem) > 2
            and len(head) > 2
            and (
                (self._word(lower) and self._word(low_head))
                or (low_head in self.tails and any(v in lower for v in "aeiouy"))
            )
        ):
            self.kept.append((*self.where, f"{stem}-{head}"))
            return out + part
        if head.lower() not in self.whole or len(head) < 3:
            self.uncertain.append((*self.where, f"{stem}-{head}"))
        return out[:-1] + part


# ---------------------------------------------------------------------------------------------
# The whole analysis


_REFERENCE_NAMES = {"references", "bibliography", "reference", "literature cited"}


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


def analyse(
    pages: Sequence[PageContent],
    fonts: Sequence[FontStyle],
    floats: Sequence[FloatLike] | None = None,
) -> Layout:
    """Pages of glyphs → headings, paragraphs, references and float placements, with notes.

    ``floats``: the figures and tables found by a detector (boxes from the top-left); a float
    whose caption :func:`find_floats` finds and the detector did not is kept too. Without a
    detector :func:`find_floats` alone finds them from their captions.
    """
    an = _Analysis(pages, fonts)
    if not an.pages or not any(p.lines for p in an.pages):
        return Layout([], "", [], [], an.notes)
    mark_running(an, words_only=True)
    found = find_floats(an)
    if floats is not None:
        own, found = found, _use_floats(an, floats)
        seen = {(f.page, f.kind, f.number) for f in found}
        found += [f for f in own if (f.page, f.kind, f.number) not in seen]
        found.sort(key=lambda f: (f.page, f.caption_box[1], f.caption_box[0]))
    title, authors = front_matter(an)
    mark_running(an)
    attach_scripts(an)
    _drop_notes(an)
    units = _flow(an)
    anchors = [_anchor(an, f) for f in found]
    units = _place_floats(units, found, anchors)
    return Layout(units, title, authors, found, an.notes)


#: Below this share of the body size a line is set in small type (footnotes, scripts).
SMALL_TYPE = 0.88


def _small_type(ln: Line, body: float) -> bool:
    """Set in small type throughout: a line with a body-size letter or digit is not
    ("G" + "txcreate", "2" + "256": its scripts may outnumber the body-size glyphs)."""
    return ln.size < SMALL_TYPE * body and not any(
        ch.size >= 0.92 * body and ch.text.isalnum() for ch in ln.chars
    )


def _covers(ch: Char, script: Char) -> bool:
    """``ch`` stands over or under ``script`` (loose boxes of neighbours overlap a little)."""
    overlap = min(ch.x1, script.x1) - max(ch.x0, script.x0)
    return overlap > 0.3 * min(ch.x1 - ch.x0, script.x1 - script.x0)


def attach_scripts(an: _Analysis) -> None:
    """Sub- and superscripts drawn off their line's baseline (``log`` + ``P`` + a 5 pt ``1``)
    become fragments of their own; each small one that overlaps a body-size line of text by a
    third of its height, within that line's width, is put back into it in x order. A footnote
    or figure text overlaps no line of running text."""
    for page in an.pages:
        text = [ln for ln in page.lines if ln.role == "text"]
        hosts = [ln for ln in text if _is_body_size(ln, an.body)]
        taken: dict[int, list[Line]] = {}
        for ln in text:
            if ln.size >= SMALL_TYPE * an.body or len(ln.chars) > 24:
                continue
            best, most = None, 0.0
            for host in hosts:
                overlap = min(ln.y1, host.y1) - max(ln.y0, host.y0)
                if (
                    overlap > most
                    and host.x0 - 0.3 * an.body <= ln.x0
                    and ln.x1 <= host.x1 + 0.6 * an.body
                    # a limit under or over a large operator is no script of the line
                    and not any(_covers(ch, sc) for sc in ln.chars for ch in host.chars)
                ):
                    best, most = host, overlap
            if best is not None and most >= (ln.y1 - ln.y0) / 3:
                taken.setdefault(id(best), [best]).append(ln)
        if not taken:
            continue
        gone = {id(s) for group in taken.values() for s in group[1:]}
        lines: list[Line] = []
        for ln in page.lines:
            if id(ln) in gone:
                continue
            group = taken.get(id(ln))
            if group is not None:
                chars = sorted((ch for g in group for ch in g.chars), key=_X0)
                merged = _make_line(ln.page, chars, an.fonts, gaps=ln.gaps)
                merged.size, merged.column, merged.number = ln.size, ln.column, ln.number
                merged.parts = ln.parts
                ln = merged
            lines.append(ln)
        page.lines = lines


def _inside(ln: Line, box: Box, slack: float = 2.0) -> bool:
    return (
        box[0] - slack <= ln.x0
        and ln.x1 <= box[2] + slack
        and box[1] - slack <= ln.y0
        and ln.y1 <= box[3] + slack
    )


def _box(b: Sequence[float]) -> Box:
    return (float(b[0]), float(b[1]), float(b[2]), float(b[3]))


def _use_floats(an: _Analysis, floats: Sequence[FloatLike]) -> list[Float]:
    """Take the floats of a detector: the lines in their boxes leave the text flow."""
    out = [
        Float(f.page, f.kind, f.label, f.number, f.caption, _box(f.box), _box(f.caption_box))
        for f in floats
    ]
    for page in an.pages:
        here = [f for f in out if f.page == page.content.number]
        for ln in page.lines:
            for f in here:
                if _inside(ln, f.caption_box):
                    ln.role = "caption"
                elif _inside(ln, f.box):
                    ln.role = "float"
    return out


def _drop_notes(an: _Analysis) -> None:
    for page in an.pages:
        for ln in page.lines:
            if ln.role == "running":
                an.notes.append(Note(ln.page, ln.number, f"dropped running head/foot {ln.text!r}"))


@dataclass
class _Para:
    lines: list[Line]
    kind: str = "paragraph"


def _flow(an: _Analysis) -> list[Unit]:
    lines = [ln for page in an.pages for ln in page.lines]
    pages = {p.content.number: p for p in an.pages}
    whole, compounds = vocabulary(_unbroken(ln.text for ln in lines))
    joiner = Joiner(whole, compounds)
    units: list[Unit] = []
    para: list[Line] = []
    in_refs = False
    ref_left: dict[tuple[int, int], float] = {}
    heading_state = _Sections()
    #: the last heading's name: "" before the first one
    section = ""
    last_text: Line | None = None
    interrupted = False

    def end() -> None:
        nonlocal para
        if para:
            kind = "reference" if in_refs else "paragraph"
            joiner.where = (para[0].page, para[0].number)
            text = joiner.join([ln.text for ln in para])
            small = all(_small_type(ln, an.body) for ln in para) and not _front_text(
                an, para, section
            )
            if in_refs and re.match(r"^Received \d", text):
                # ACM's "Received …; revised …; accepted …" line ends the references.
                an.notes.append(Note(para[0].page, para[0].number, f"dropped {_clip(text)!r}"))
            elif small and not in_refs:
                an.notes.append(
                    Note(
                        para[0].page,
                        para[0].number,
                        f"dropped small text (footnote or figure text?) {_clip(text)!r}",
                    )
                )
            else:
                units.append(Unit(kind, text, 0, para[0].page, para[0].number))
            para = []

    code: list[Line] = []

    def end_code() -> None:
        if code:
            units.append(
                Unit("code", "\n".join(c.text for c in code), 0, code[0].page, code[0].number)
            )
            code.clear()

    display: list[Line] = []

    def end_display() -> None:
        nonlocal para
        if display and all(_small_type(d, an.body) for d in display):
            # Nothing in it is of body size: figure text or a footnote, dropped and reported.
            para = display[:]
            end()
        elif display:
            text = "\n".join(d.text for d in display)
            units.append(Unit("equation", text, 0, display[0].page, display[0].number))
        display.clear()

    # Where each column's body-size text ends: small type below it is a footnote, which must
    # leave the flow without ending the paragraph it interrupts (a paragraph runs on under it
    # into the next column or page, often mid-word: "The Mi-" | footnote | "grators").
    body_foot: dict[tuple[int, int], float] = {}
    for ln in lines:
        if ln.role == "text" and _is_body_size(ln, an.body):
            key = (ln.page, ln.column)
            body_foot[key] = max(body_foot.get(key, ln.y1), ln.y1)
    footnote: list[Line] = []

    def end_footnote() -> None:
        if footnote:
            text = " ".join(f.text for f in footnote)
            message = f"dropped small text (footnote or figure text?) {_clip(text)!r}"
            an.notes.append(Note(footnote[0].page, footnote[0].number, message))
            footnote.clear()

    open_heading: Line | None = None  # a heading line that may wrap onto the next line
    for ln in lines:
        page = pages[ln.page]
        if ln.role in ("float", "caption"):
            interrupted = True
            continue
        if ln.role != "text":
            continue
        foot = body_foot.get((ln.page, ln.column))
        if (
            not in_refs
            and foot is not None
            and ln.y0 > foot
            and _small_type(ln, an.body)
            and section.lower().strip(":. ") not in _FRONT_SECTIONS
            # a footnote opens with its mark (a small-type heading, "REFERENCES", does not)
            and (footnote or _footnote_mark(ln))
        ):
            footnote.append(ln)
            continue
        end_footnote()
        if not in_refs and display and _continues_display(an, page, display[-1], ln):
            display.append(ln)
            last_text = ln
            continue
        if not in_refs and _numbered_equation(ln):
            end()
            end_code()
            end_display()
            display.append(ln)
            last_text = ln
            open_heading = None
            continue
        end_display()
        if open_heading is not None and _continues_heading(an, page, open_heading, ln):
            head = units[-1]
            units[-1] = Unit("heading", f"{head.text} {ln.text}", head.level, head.page, head.line)
            open_heading = last_text = ln
            continue
        open_heading = None
        if not in_refs and (ln.code or (code and _continues_code(an, page, code[-1], ln))):
            end()
            code.append(ln)
            continue
        end_code()
        heading = _as_heading(an, page, ln, para, last_text, heading_state)
        if heading is not None:
            level, text, rest = heading
            end()
            units.append(Unit("heading", text, level, ln.page, ln.number))
            section = text
            in_refs = text.lower().strip(":. ") in _REFERENCE_NAMES or (in_refs and level > 2)
            last_text = ln
            interrupted = False
            open_heading = None if rest else ln
            if rest:
                rest_line = Line(
                    ln.page,
                    [],
                    ln.x0,
                    ln.y0,
                    ln.x1,
                    ln.y1,
                    ln.size,
                    column=ln.column,
                    number=ln.number,
                    text=rest,
                )
                para = [rest_line]
            continue
        # A display opens at a line set in with mathematics (a display's numbered line has
        # opened it above); not in the front matter, where blocks are set narrower.
        if (
            not in_refs
            and not ln.code
            and section.lower().strip(":. ") not in _FRONT_SECTIONS | {""}
            and _displayed(an, page, ln, para[-1] if para else None, short=False)
        ):
            end()
            display.append(ln)
            last_text = ln
            interrupted = False
            continue
        if para and _breaks(
            an, page, pages[para[-1].page], para[-1], ln, interrupted, in_refs, ref_left
        ):
            end()
        if in_refs:
            key = (ln.page, ln.column)
            ref_left[key] = min(ref_left.get(key, ln.x0), ln.x0)
        para.append(ln)
        last_text = ln
        interrupted = False
    end()
    end_code()
    end_display()
    end_footnote()
    for page_no, line_no, word in joiner.uncertain:
        message = f"hyphen removed, no other spelling in the paper to check: {word!r}"
        an.notes.append(Note(page_no, line_no, message))
    for page_no, line_no, word in joiner.kept:
        message = f"hyphen kept at a line end, both halves are words of the paper: {word!r}"
        an.notes.append(Note(page_no, line_no, message))
    return units


_EQUATION_NUMBER_RE = re.compile(r"\([0-9]{1,4}[a-z]?\)")


def _footnote_mark(ln: Line) -> bool:
    """``ln`` opens with a footnote's mark: a raised or smaller glyph, a number or a symbol."""
    if not ln.chars:
        return False
    first = ln.chars[0]
    return first.text in "*†‡§¶‖#" or first.text.isdigit() or first.size < 0.8 * ln.size


def _numbered_equation(ln: Line) -> bool:
    """A line of a displayed equation with its number, "(12)", set apart at a margin."""
    if _EQUATION_NUMBER_RE.fullmatch(ln.text):
        return True
    return len(ln.parts) > 1 and any(
        _EQUATION_NUMBER_RE.fullmatch(part) for part in (ln.parts[0], ln.parts[-1])
    )


def _mathlike(ch: str) -> bool:
    if not ch.strip():
        return False
    category = unicodedata.category(ch)
    # Math operators, Greek letters, and the private-use pieces of large braces (TeX's fonts)
    return category in ("Sm", "Co") or "\u0370" <= ch <= "\u03ff"


def _displayed(an: _Analysis, page: _Page, ln: Line, prev: Line | None, short: bool) -> bool:
    """A line of a displayed equation: set in from the column's left edge by more than an
    indent, holding mathematics (operators, Greek, scripts) or, inside a display (``short``),
    short. Not the run-on line of a hanging indent, which starts under a word of ``prev``."""
    left, right = page.extents.get(ln.column, page.extents.get(-1, (ln.x0, ln.x1)))
    if ln.x0 - left <= 3.0 * an.body:
        return False
    if prev is not None and prev.page == ln.page and _hangs_under(prev, ln):
        return False
    return (
        (short and ln.width < 0.6 * (right - left))
        # a limit or script above the line it belongs to (a display of small type alone is
        # figure text: dropped)
        or _small_type(ln, an.body)
        or len({round(ch.size) for ch in ln.chars}) > 1
        or any(_mathlike(ch) for ch in ln.text)
    )


def _hangs_under(prev: Line, ln: Line) -> bool:
    """``ln`` starts where a word of ``prev`` starts: the hanging indent of a list item."""
    last: Char | None = None
    for ch in prev.chars:
        starts = (
            last is None
            or ch.x0 - last.x1 > 0.11 * ch.size
            or ch.space_before
            or ch.space_generated
        )
        if starts and abs(ch.x0 - ln.x0) < 1.0:
            return True
        last = ch
    return False


def _continues_display(an: _Analysis, page: _Page, last: Line, ln: Line) -> bool:
    """The next line of an open display: set tight below it, numbered, set in or small."""
    if ln.page != last.page or ln.column != last.column or ln.y0 - last.y1 > 0.8 * an.leading:
        return False
    return (
        _numbered_equation(ln)
        or _small_type(ln, an.body)
        or _displayed(an, page, ln, None, short=True)
    )


#: Sections of the front matter that some styles set in small type.
_FRONT_SECTIONS = {"abstract", "keywords", "index terms", "ccs concepts", "key words"}


def _front_text(an: _Analysis, para: Sequence[Line], section: str) -> bool:
    """Small type that is the paper's text, not a footnote: the abstract (amsart, LNCS set it
    small), or a block on page 1 before the first section that body text follows in its column
    (a footnote or the ACM copyright block sits at a column's foot, under the body text)."""
    if section.lower().strip(":. ") in _FRONT_SECTIONS:
        return True
    first = an.pages[0]
    if section or para[0].page != first.content.number:
        return False
    last = para[-1]
    return any(
        ln.role == "text"
        and ln.y0 > last.y1
        and _is_body_size(ln, an.body)
        and (ln.column == last.column or -1 in (ln.column, last.column))
        for ln in first.lines
    )


def _continues_heading(an: _Analysis, page: _Page, head: Line, ln: Line) -> bool:
    """The second line of a heading too wide for one line: same style, set tight below it."""
    left, right = page.extents.get(head.column, (head.x0, head.x1))
    return (
        head.page == ln.page
        and head.column == ln.column
        and head.width > 0.6 * (right - left)
        and -0.5 * head.size <= ln.y0 - head.y1 < 0.6 * head.size
        and abs(ln.size - head.size) < 0.3
        and (ln.bold, ln.italic, ln.smallcaps) == (head.bold, head.italic, head.smallcaps)
        and _caps(ln.text) == _caps(head.text)
        and _heading_candidate(ln.text) is None
        and not ln.text.endswith(".")
    )


def _continues_code(an: _Analysis, page: _Page, prev: Line, ln: Line) -> bool:
    """A short line right below a listing line (a brace, an argument in another font)."""
    return (
        prev.page == ln.page
        and prev.column == ln.column
        and 0 < ln.y1 - prev.y1 < 2.6 * an.leading
        and ln.width
        < 0.5
        * (
            page.extents.get(ln.column, (0.0, 1.0e9))[1]
            - page.extents.get(ln.column, (0.0, 1.0e9))[0]
        )
        and not ln.text.endswith(".")
    )


def _clip(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _as_heading(
    an: _Analysis,
    page: _Page,
    ln: Line,
    para: list[Line],
    last: Line | None,
    sections: _Sections,
) -> tuple[int, str, str] | None:
    """(level, title, rest of the line) when ``ln`` opens a section."""
    # A heading starts a block: after a finished line, a gap, or at a column top.
    if para and last is not None and last.page == ln.page and last.column == ln.column:
        gap = ln.y0 - last.y1
        if (
            gap < 0.35 * an.leading
            and not last.text.endswith((".", ":", "?", "!"))
            and an.full_width(last, page)
        ):
            return None
    text = ln.text
    m = _ABSTRACT_RE.match(text)
    lead = an.fonts[ln.chars[0].font] if ln.chars else None
    if (
        m
        and (
            ln.bold
            or ln.italic
            or ln.smallcaps
            # LNCS: "Abstract." in bold; amsart: in small capitals
            or (lead is not None and (lead.bold or lead.italic or lead.smallcaps))
            or _caps(text[: m.end()].strip(" —–:.-"))
        )
    ):
        rest = text[m.end() :].strip()
        return 2, "Abstract", rest
    styled = ln.size >= an.body * 1.08 or ln.bold_share >= 0.9 or ln.smallcaps or _caps(text)
    found = _heading_candidate(text)
    if found is not None and not styled and found[0] in ("numeric", "roman", "named"):
        # A paper in one font: a short numbered line standing apart is a heading too.
        left, right = page.extents.get(ln.column, (ln.x0, ln.x1))
        apart = last is None or last.page != ln.page or ln.y0 - last.y1 > 0.5 * an.leading
        title = text.split(None, 1)[-1]
        styled = (
            apart
            and ln.width < 0.6 * (right - left)
            and len(text.split()) <= 9
            and not text.endswith((".", ",", ";", ":"))
            # "2. Memory: 12 GB" is a list item
            and ":" not in title
            and not any(ch.isdigit() for ch in title)
        )
    if found is not None:
        kind, depth = found
        italic_ok = kind == "letter" and ln.italic
        left, right = page.extents.get(ln.column, (ln.x0, ln.x1))
        # A bold or larger heading may fill its column (and wrap); others are short.
        strong = ln.bold or ln.size >= an.body * 1.08
        if (styled or italic_ok) and ln.width < (1.02 if strong else 0.95) * (right - left) + 1:
            number = text.split(".", 1)[0]
            if kind == "roman" and len(number) == 1 and sections.follows_letter(number):
                kind = "letter"  # "I. Sub Figures" after "H. Figures", not section I
            if kind == "named":
                level = 2
            elif kind == "numeric":
                level = 1 + depth
            elif kind == "roman":
                level = 2
                sections.letter = ""
            elif kind == "appendix":  # "A PROOF" is a section, "A.1 Lemma" a subsection
                level = 1 + depth
            else:
                level = 2 + depth
                if depth == 1:
                    sections.letter = number
            return level, text, ""
    # Run-in heading: a bold (or italic) numbered prefix ending with a full stop.
    prefix = _styled_prefix(ln, an.fonts)
    if prefix and prefix.endswith((".", "?", "!")) and len(prefix) < 100:
        found = _heading_candidate(prefix.rstrip("."))
        if found is not None and found[0] in ("numeric", "letter", "roman", "appendix"):
            depth = found[1]
            level = 1 + depth if found[0] in ("numeric", "appendix") else 3 + depth
            rest = text[len(prefix) :].strip()
            if rest:
                return min(level, 6), prefix.rstrip(". "), rest
    return None


@dataclass
class _Sections:
    """The last subsection letter seen (A., B., …), to read "I." after "H." as a letter."""

    letter: str = ""

    def follows_letter(self, number: str) -> bool:
        return bool(self.letter) and ord(number) == ord(self.letter) + 1


_SUBSECTION_NUMBER_RE = re.compile(r"^[0-9]{1,2}(?:\.[0-9]{1,2}){1,3}\.?\s+(?=\S)")


def _styled_prefix(ln: Line, fonts: Sequence[FontStyle]) -> str:
    """The bold (or italic) run that opens ``ln``: "2.2.1. WebRTC APIs." in LNCS, IEEE.

    amsart sets a run-in subsection's number in the roman body font and only its words in
    bold ("1.1. **Driving Factors.**"): a subsection number (two levels or more, so that a
    list item "1. **Setup.**" is not taken) may come before the run.
    """
    if not ln.chars:
        return ""
    start = 0
    m = _SUBSECTION_NUMBER_RE.match(ln.text)
    if m and not (fonts[ln.chars[0].font].bold or fonts[ln.chars[0].font].italic):
        # The number's glyphs (the text's spaces have no glyph).
        start = sum(not ch.isspace() for ch in m.group())
        if start >= len(ln.chars):
            return ""
    first = fonts[ln.chars[start].font]
    if not (first.bold or first.italic):
        return ""
    n = start
    for ch in ln.chars[start:]:
        style = fonts[ch.font]
        if style.bold != first.bold or style.italic != first.italic:
            break
        n += 1
    if n == len(ln.chars):
        return ""
    return line_text(ln.chars[:n], fonts)


def _breaks(
    an: _Analysis,
    page: _Page,
    prev_page: _Page,
    prev: Line,
    ln: Line,
    interrupted: bool,
    in_refs: bool,
    ref_left: dict[tuple[int, int], float],
) -> bool:
    """Whether ``ln`` starts a new paragraph after ``prev``."""
    if in_refs:
        if _REF_LABEL_RE.match(ln.text):
            return True
        left = ref_left.get((ln.page, ln.column))
        if left is not None and ln.x0 <= left + 0.3 * an.body:
            prev_hanging = prev.x0 > left + 0.5 * an.body
            return prev_hanging or not an.full_width(prev, prev_page)
        if left is None:
            # A new column: a reference starts here unless the line is indented (hanging).
            col_left = page.extents.get(ln.column, (ln.x0, ln.x1))[0]
            return ln.x0 <= col_left + 0.3 * an.body
        return False
    if ln.text.startswith(_BULLETS) or re.match(r"^\(?[0-9a-z]{1,2}\)\s", ln.text):
        return True
    same_column = prev.page == ln.page and prev.column == ln.column
    if prev.page == ln.page and page.gutter is not None and -1 in (prev.column, ln.column):
        # A block across both columns, set narrower than the page (an abstract): its own edges
        # tell indents and full lines (a short last line may not cross the gutter).
        left, right = min(prev.x0, ln.x0), max(prev.x1, ln.x1)
        prev_full = prev.x1 >= right - 1.2 * an.body
        indented = 0.5 * an.body < ln.x0 - left < 4.0 * an.body
        same_column = True
    else:
        prev_full = an.full_width(prev, prev_page)
        indented = an.indented(ln, page)
    ended = prev.text.endswith((".", "!", "?", ":")) and not prev_full
    if ended:
        return True
    # An indent opens a paragraph after a finished sentence or a short line; after a full line
    # that runs on it is the hanging indent of a list item or a description. A line set in as
    # far as the one before it is no indent: the item runs on under its hanging indent, even
    # after a sentence ends at the end of a line.
    hanging = same_column and prev.x0 - 1.0 <= ln.x0 <= prev.x0 + 1.0
    if indented and not hanging and (prev.text.endswith((".", "!", "?", ":")) or not prev_full):
        return True
    if abs(ln.size - prev.size) > 0.2 * an.body:
        return True
    if same_column and not interrupted:
        gap = ln.y0 - prev.y1
        pitch = ln.y1 - prev.y1
        return pitch > 1.6 * an.leading and gap > 0.6 * an.body
    # Across a float, a column or a page: the paragraph goes on after a full line.
    return not prev_full


_REF_RE_CACHE: dict[tuple[str, int], re.Pattern[str]] = {}


def _ref_pattern(f: Float) -> re.Pattern[str]:
    key = (f.kind, f.number)
    pattern = _REF_RE_CACHE.get(key)
    if pattern is None:
        words = r"(?:Table|TABLE|Tab\.)" if f.kind == "table" else r"(?:Figure|FIGURE|Fig\.|FIG\.)"
        numbers = {str(f.number)}
        if f.kind == "table":
            numbers.add(_to_roman(f.number))
        alternatives = "|".join(sorted(numbers))
        pattern = re.compile(rf"{words}s?\s*(?:{alternatives})(?![0-9A-Za-z])")
        _REF_RE_CACHE[key] = pattern
    return pattern


def _to_roman(n: int) -> str:
    out = ""
    for value, letters in (
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ):
        while n >= value:
            out += letters
            n -= value
    return out


def _anchor(an: _Analysis, f: Float) -> int:
    """The line number (in reading order) of a float's caption on its page: where it stood."""
    page = next((p for p in an.pages if p.content.number == f.page), None)
    numbers = [
        ln.number
        for ln in (page.lines if page else [])
        if _inside(ln, f.caption_box) or _inside(ln, f.box)
    ]
    return min(numbers, default=0)


def _place_floats(units: list[Unit], floats: Sequence[Float], anchors: Sequence[int]) -> list[Unit]:
    """Each float after the first paragraph that refers to it; else where it stood."""
    after: dict[int, list[Float]] = {}
    placed: set[int] = set()
    for idx, f in enumerate(floats):
        pattern = _ref_pattern(f)
        for i, u in enumerate(units):
            if u.kind == "paragraph" and pattern.search(u.text):
                after.setdefault(i, []).append(f)
                placed.add(idx)
                break
    for idx, f in enumerate(floats):
        if idx in placed:
            continue
        # Where it stood: after the last unit that starts before it in reading order.
        pos = -1
        for i, u in enumerate(units):
            if u.page and (u.page, u.line) < (f.page, anchors[idx]):
                pos = i
        after.setdefault(pos, []).append(f)
    out: list[Unit] = [Unit("float", f.caption, 0, f.page, 0, f) for f in after.get(-1, [])]
    for i, u in enumerate(units):
        out.append(u)
        for f in after.get(i, []):
            out.append(Unit("float", f.caption, 0, f.page, 0, f))
    return out
