"""Glyphs → text: overdrawn glyphs, TeX's separate accents, spaces from geometry, lines.

Steps, each a function: :func:`drop_overdrawn` (bold faked by drawing a glyph twice),
:func:`fragments` (glyphs in drawing order → runs on one line without a wide gap), with their
text from :func:`line_text` (a space where the gap between two glyphs is a word space, never
at a change of font) and :func:`normalize_text` (Unicode folded where it is safe).
"""

from __future__ import annotations

import itertools
import operator
import statistics
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from .geometry import Box
from .read import Char, FontStyle
from .settings import SETTINGS, Settings

_X0 = operator.attrgetter("x0")
_SIZE, _FONT = operator.attrgetter("size"), operator.attrgetter("font")


# ---------------------------------------------------------------------------------------------
# Unicode


def _safe_nfkc(ch: str) -> str:
    """Compatibility characters NFKC may fold without changing meaning: ligatures, full-width
    and half-width forms, the many widths of space. Superscripts, ℝ, ½, ™ … are kept."""
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
# Glyphs


def drop_overdrawn(chars: Sequence[Char], s: Settings = SETTINGS) -> tuple[list[Char], int]:
    """Drop glyphs drawn again at (almost) the same place: bold faked by overprinting."""
    seen: dict[tuple[str, int, int], float] = {}
    kept: list[Char] = []
    dropped = 0
    prev: Char | None = None
    bucket = 1 / s.overdraw_bucket
    for ch in chars:
        # The letters of a ligature (ﬀ, ﬁ, ﬃ) share the glyph's box: they are not drawn twice.
        if prev is not None and ch.x0 == prev.x0 and ch.x1 == prev.x1 and ch.text in "filt":
            kept.append(ch)
            continue
        prev = ch
        # Overprinting shifts a glyph by a fraction of its width ("ll" is two glyphs apart).
        tol = max(s.overdraw_shift * (ch.x1 - ch.x0), s.overdraw_min * ch.size)
        # Buckets: the glyph's own and the neighbour its position is closer to.
        half = ch.x0 * bucket
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


def line_text(
    chars: Sequence[Char], fonts: Sequence[FontStyle], code: bool = False, s: Settings = SETTINGS
) -> str:
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
        text_size = s.script_size * max(map(_SIZE, chars))
    for i, ch in enumerate(chars):
        if ch.text in _ACCENTS and i not in accents:
            continue
        if prev is not None:
            gap = ch.x0 - prev.x1
            size = prev.size if prev.size < ch.size else ch.size
            if code:
                # Listings set each character in a fixed cell: a space is a whole empty cell.
                if gap > s.code_space * size:
                    out.append(" ")
            elif (
                gap > s.word_space * size
                or (ch.space_before and gap > s.marked_space * size)
                or (
                    ch.space_generated
                    and gap > (letter_gap + s.generated_space) * size
                    and prev.text.isalpha()
                    and ch.text.isalpha()
                    # not between the letters of a math script ("t" + "last"): TeX spaces
                    # those with italic corrections
                    and size > text_size
                )
            ) and (
                gap > s.mono_space * size or not (fonts[ch.font].mono and fonts[prev.font].mono)
            ):
                out.append(" ")
        out.append(unicodedata.normalize("NFC", ch.text + accents[i]) if i in accents else ch.text)
        prev = ch
    text = normalize_text("".join(out)).strip()
    # A soft hyphen ends a line only where the word was broken; elsewhere it is invisible.
    if text.endswith("\u00ad"):
        text = text[:-1] + "-"
    return text.replace("\u00ad", "")


def _letter_gap(chars: Sequence[Char]) -> float:
    """The line's usual gap between glyphs, in em: its letter spacing (most gaps are inside
    words), 0.1 em in a letter-spaced listing, about 0 in prose."""
    if len(chars) < 2:
        return 0.0
    return statistics.median(
        (b.x0 - a.x1) / (a.size if a.size < b.size else b.size)
        for a, b in itertools.pairwise(chars)
    )


# ---------------------------------------------------------------------------------------------
# Lines


@dataclass(eq=False)
class Line:
    """Glyphs on one line: a fragment (a run without a wide gap) or a line of a column
    (fragments on one baseline merged, in x order). Roles are set by later steps."""

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
    #: the fragments merged into this line (empty for a fragment)
    pieces: list[Line] = field(default_factory=list)
    #: the left and right edges of the text's measure when it is set narrower than its
    #: column, beside a float (a wrapfigure's); None: the column's
    measure: tuple[float, float] | None = None
    column: int = -1  # 0 left, 1 right, -1 spanning or single column
    #: text, running, front, title, float, caption, dropped
    role: str = "text"
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

    @property
    def box(self) -> Box:
        return (self.x0, self.y0, self.x1, self.y1)


def make_line(
    page: int, chars: list[Char], fonts: Sequence[FontStyle], gaps: int = 0, s: Settings = SETTINGS
) -> Line:
    sizes: Counter[float] = Counter(map(_SIZE, chars))
    styles = Counter(map(_FONT, chars))
    n = len(chars)
    bold = sum(k for f, k in styles.items() if fonts[f].bold)
    italic = sum(k for f, k in styles.items() if fonts[f].italic)
    mono = sum(k for f, k in styles.items() if fonts[f].mono)
    smallcaps = sum(k for f, k in styles.items() if fonts[f].smallcaps)
    text = line_text(chars, fonts, s=s)
    tokens = text.split()
    # letters and ASCII signs set apart ("m : = p r e . R a n d"); a formula's digits and
    # operators ("for 1 ≤ n ≤ 9") are no letter-spaced listing
    singles = sum(
        len(t) == 1 and (t.isalpha() or (t.isascii() and not t.isdigit())) for t in tokens
    )
    # … and set in one font: a line of prose with inline maths ("graph for Z = X + Y") has as
    # many letters and signs apart, in the maths fonts beside the text's
    code = mono > s.code_mono_share * n or (
        len(tokens) >= s.spaced_tokens
        and singles >= s.spaced_share * len(tokens)
        and max(styles.values()) >= s.spaced_font_share * n
    )
    return Line(
        page=page,
        chars=chars,
        x0=min(c.x0 for c in chars),
        y0=min(c.y0 for c in chars),
        x1=max(c.x1 for c in chars),
        y1=max(c.y1 for c in chars),
        size=sizes.most_common(1)[0][0],
        bold=bold > n / 2,
        italic=italic > n / 2,
        mono=mono > n / 2,
        gaps=gaps,
        code=code,
        smallcaps=smallcaps > n / 2,
        bold_share=bold / n,
        text=line_text(chars, fonts, True, s) if code else text,
    )


def fragments(
    number: int, chars: Sequence[Char], fonts: Sequence[FontStyle], s: Settings = SETTINGS
) -> list[Line]:
    """Glyphs in drawing order → fragments (a new one at a line change or a wide gap)."""
    out: list[Line] = []
    current: list[Char] = []
    ref_mid = ref_size = 0.0

    def flush() -> None:
        if current:
            line = make_line(number, current[:], fonts, s=s)
            if line.text:
                out.append(line)
            current.clear()

    for ch in chars:
        mid = (ch.y0 + ch.y1) / 2
        if current:
            prev = current[-1]
            size = max(ref_size, ch.size)
            same_line = abs(mid - ref_mid) < s.same_line * size
            gap = ch.x0 - prev.x1
            if same_line and (
                -s.backward_gap * size < gap < s.fragment_gap * size or ch.x0 == prev.x0
            ):
                current.append(ch)
                if ch.size > ref_size * s.size_step:
                    ref_mid, ref_size = mid, ch.size
                continue
            flush()
        current.append(ch)
        ref_mid, ref_size = mid, ch.size
    flush()
    return out


def merge(group: Sequence[Line], fonts: Sequence[FontStyle], s: Settings = SETTINGS) -> Line:
    """One line of fragments on one baseline (in x order); its ``gaps`` count the gaps wider
    than a justified line's word spaces (the gaps between table cells)."""
    ordered = sorted(group, key=_X0)
    if len(ordered) == 1:
        return ordered[0]
    chars = [ch for ln in ordered for ch in ln.chars]
    gaps = sum(
        b.x0 - a.x1 > s.cell_gap * min(a.size, b.size) for a, b in itertools.pairwise(ordered)
    )
    merged = make_line(ordered[0].page, chars, fonts, gaps=gaps, s=s)
    merged.column = ordered[0].column
    merged.parts = [ln.text for ln in ordered]
    merged.pieces = list(ordered)
    return merged
