"""Section headings of a paper: a numbering pattern *and* a heading style.

Numbered ``1 Introduction``, ``2.1 Title``, ``2.2.1. Title.`` run in (amsart's ``1.1.
**Title.**``, number in roman, too), IEEE ``I. INTRODUCTION`` / ``A. Subsection``, appendix
``A PROOF`` / ``A.1 Lemma``, or a known name (Abstract, References, Acknowledgments, CCS
Concepts, Keywords …); styled larger, bold, in capitals (small capitals count) or, for ``A.
Subsection``, italic. In a paper set in one font a short numbered line standing apart
qualifies.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...pdf.headings import ABSTRACT_RE, caps, heading_candidate
from ...pdf.page_layout import Layout, PageLayout
from ...pdf.read import FontStyle
from ...pdf.text import Line, line_text

#: Numbered headings this deep (1.1.1) may run in without a full stop.
_RUN_IN_DEPTH = 3
_SUBSECTION_NUMBER_RE = re.compile(r"^[0-9]{1,2}(?:\.[0-9]{1,2}){1,3}\.? {1,4}(?=\S)")


#: Numbered this deep (1.1.1.1), a title run in with a colon or a full stop is a heading even
#: in the body's font (IEEE's paragraph heads: "5.1.1.1 Hornet Cluster: The cluster …").
_PARAGRAPH_DEPTH = 4
_PARAGRAPH_HEAD_RE = re.compile(
    r"^(?P<num>[0-9]{1,2}(?:\.[0-9]{1,2}){3})\.? {1,4}(?P<title>[A-Z][^:.;]{0,80}?)[:.] +(?=\S)"
)
#: Named sections of the front matter that run in after a bold name ("Index Terms—…").
_RUN_IN_DELIMITERS = ("—", "–", ":", ".")
_RUN_IN_NAMES = {"index terms": "Index Terms", "keywords": "Keywords", "key words": "Key words"}


_RUN_IN_STOP_RE = re.compile(r"[a-z)]\. +[A-Z]")


#: A heading's style: its size (to half a point), bold, small capitals, capitals.
Style = tuple[float, bool, bool, bool]


def style_of(ln: Line) -> Style:
    return (round(ln.size * 2) / 2, ln.bold, ln.smallcaps, caps(ln.text))


@dataclass
class Sections:
    """The last subsection letter seen (A., B., …), to read "I." after "H." as a letter, and
    the styles of the paper's headings so far, with their levels."""

    letter: str = ""
    styles: dict[Style, int] = field(default_factory=dict)

    def follows_letter(self, number: str) -> bool:
        return bool(self.letter) and ord(number) == ord(self.letter) + 1

    def learn(self, ln: Line, level: int) -> None:
        self.styles.setdefault(style_of(ln), level)


def _abstract(layout: Layout, ln: Line) -> tuple[int, str, str] | None:
    """IEEE's run-in "Abstract—", LNCS's bold "Abstract.", amsart's small capitals."""
    text = ln.text
    m = ABSTRACT_RE.match(text)
    if m is None:
        return None
    lead = layout.fonts[ln.chars[0].font] if ln.chars else None
    if (
        ln.bold
        or ln.italic
        or ln.smallcaps
        or (lead is not None and (lead.bold or lead.italic or lead.smallcaps))
        or caps(text[: m.end()].strip(" —–:.-"))
    ):
        return 2, "Abstract", text[m.end() :].strip()
    return None


def _plain_styled(layout: Layout, page: PageLayout, ln: Line, last: Line | None) -> bool:
    """A paper in one font: a short numbered line standing apart is a heading too."""
    s = layout.settings
    text = ln.text
    left, right = page.extents.get(ln.column, (ln.x0, ln.x1))
    apart = (
        last is None or last.page != ln.page or ln.y0 - last.y1 > s.heading_apart * layout.leading
    )
    title = text.split(None, 1)[-1]
    return (
        apart
        and ln.width < s.plain_heading_width * (right - left)
        and len(text.split()) <= s.plain_heading_words
        and not text.endswith((".", ",", ";", ":"))
        # "2. Memory: 12 GB" is a list item
        and ":" not in title
        and not any(ch.isdigit() for ch in title)
    )


def _level(kind: str, depth: int, number: str, sections: Sections) -> int:
    if kind == "named":
        return 2
    if kind == "numeric":
        return 1 + depth
    if kind == "roman":
        sections.letter = ""
        return 2
    if kind == "appendix":  # "A PROOF" is a section, "A.1 Lemma" a subsection
        return 1 + depth
    if depth == 1:
        sections.letter = number
    return 2 + depth


def as_heading(
    layout: Layout,
    page: PageLayout,
    ln: Line,
    para: Sequence[Line],
    last: Line | None,
    sections: Sections,
) -> tuple[int, str, str] | None:
    """(level, title, rest of the line) when ``ln`` opens a section."""
    s = layout.settings
    # A heading starts a block: after a finished line, a gap, or at a column top.
    if para and last is not None and last.page == ln.page and last.column == ln.column:
        gap = ln.y0 - last.y1
        if (
            gap < s.heading_gap * layout.leading
            and not last.text.endswith((".", ":", "?", "!"))
            and layout.full_width(last, page)
        ):
            return None
    abstract = _abstract(layout, ln)
    if abstract is not None:
        return abstract
    text = ln.text
    larger = ln.size >= layout.body * s.heading_size
    styled = larger or ln.bold_share >= s.bold_heading or ln.smallcaps or caps(text)
    found = heading_candidate(text)
    if found is not None and not styled and found[0] in ("numeric", "roman", "named"):
        styled = _plain_styled(layout, page, ln, last)
    if found is not None:
        kind, depth = found
        # IEEE's "A. Setup" and Elsevier's "2.2. Standard LDA …" are set in italics alone
        # (a numbered subsection, not a section: "2. …" in italics may be a list's item)
        italic_ok = ln.italic and (kind == "letter" or (kind == "numeric" and depth >= 2))
        left, right = page.extents.get(ln.column, (ln.x0, ln.x1))
        reach = s.strong_heading_width if fills_column(ln, larger, italic_ok) else s.heading_width
        if (styled or italic_ok) and ln.width < reach * (right - left) + 1:
            number = text.split(".", 1)[0]
            if kind == "roman" and len(number) == 1 and sections.follows_letter(number):
                kind = "letter"  # "I. Sub Figures" after "H. Figures", not section I
            return _level(kind, depth, number, sections), text, ""
    return (
        _run_in(layout, ln)
        or run_in_named(layout, ln)
        or paragraph_head(text)
        or styled_like_a_heading(layout, page, ln, last, sections)
    )


def fills_column(ln: Line, larger: bool, italic_ok: bool) -> bool:
    """A heading set in bold, larger type, capitals (IEEE's "III. BESTFIT CURVE-FITTING …
    DATA" wraps) or, a lettered subsection, italics may fill its column and wrap; a plain one
    is short. Not a line with a full stop inside: a heading run in ("4.1.1 Levels. Text").
    """
    return (ln.bold or larger or caps(ln.text) or italic_ok) and not _RUN_IN_STOP_RE.search(ln.text)


def run_in_named(layout: Layout, ln: Line) -> tuple[int, str, str] | None:
    """A named section of the front matter run in after its name in bold ("Index Terms—",
    "Keywords:"), as IEEE's abstract is."""
    prefix = styled_prefix(ln, layout.fonts)
    name = _RUN_IN_NAMES.get(prefix.strip(" —–:.-").lower())
    after = ln.text[len(prefix) :]
    # the delimiter, in the name's font or the text's
    delimited = prefix.rstrip().endswith(_RUN_IN_DELIMITERS) or after.lstrip().startswith(
        _RUN_IN_DELIMITERS
    )
    rest = after.strip(" —–:")
    if name is None or not delimited or not rest:
        return None
    return 2, name, rest


def paragraph_head(text: str) -> tuple[int, str, str] | None:
    """A paragraph head numbered four deep, run in with a colon or a full stop (in any
    font): "5.1.1.1 Hornet Cluster: The Hornet Cluster is …"."""
    m = _PARAGRAPH_HEAD_RE.match(text)
    if m is None:
        return None
    return min(1 + _PARAGRAPH_DEPTH, 6), f"{m.group('num')} {m.group('title')}", text[m.end() :]


def styled_like_a_heading(
    layout: Layout, page: PageLayout, ln: Line, last: Line | None, sections: Sections
) -> tuple[int, str, str] | None:
    """An unnumbered line set in the style of a heading the paper has had (ICLR's
    "SUPPLEMENTAL INFORMATION." in the small capitals of its "ACKNOWLEDGMENTS"): a style
    other than the body's, a few words alone on their line, standing apart."""
    s = layout.settings
    style = style_of(ln)
    level = sections.styles.get(style)
    size, _bold, smallcaps, capitals = style
    # capitals or another size (some papers' fonts call their body text bold)
    distinct = capitals or smallcaps or abs(size - layout.body) >= s.same_size
    apart = (
        last is None or last.page != ln.page or ln.y0 - last.y1 > s.heading_apart * layout.leading
    )
    left, right = page.extent(ln)
    if (
        level is None
        or not distinct
        or not apart
        or ln.width >= s.plain_heading_width * (right - left)
        or len(ln.text.split()) > s.plain_heading_words
        or ln.text.endswith((",", ";", ":"))
        or any(ch.isdigit() for ch in ln.text)
    ):
        return None
    return level, ln.text, ""


def _run_in(layout: Layout, ln: Line) -> tuple[int, str, str] | None:
    """Run-in heading: a bold (or italic) numbered prefix ending with a full stop."""
    prefix = styled_prefix(ln, layout.fonts)
    found = heading_candidate(prefix.rstrip(".")) if prefix else None
    # A run-in heading's prefix ends with a full stop, or is a subsection's number and title
    # (acmart's italic "6.1.1 Throughput and Delay" runs in without one).
    ended = prefix.endswith((".", "?", "!")) or (
        found is not None and found[0] == "numeric" and found[1] >= _RUN_IN_DEPTH
    )
    if (
        found is None
        or not ended
        or len(prefix) >= layout.settings.run_in_length
        or found[0] not in ("numeric", "letter", "roman", "appendix")
    ):
        return None
    depth = found[1]
    level = 1 + depth if found[0] in ("numeric", "appendix") else 3 + depth
    rest = ln.text[len(prefix) :].strip()
    return (min(level, 6), prefix.rstrip(". "), rest) if rest else None


def styled_prefix(ln: Line, fonts: Sequence[FontStyle]) -> str:
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


def continues_heading(layout: Layout, page: PageLayout, head: Line, ln: Line) -> bool:
    """The second line of a heading too wide for one line: same style, set tight below it."""
    s = layout.settings
    left, right = page.extents.get(head.column, (head.x0, head.x1))
    gap = ln.y0 - head.y1
    return (
        head.page == ln.page
        and head.column == ln.column
        and head.width > s.wrapped_heading * (right - left)
        and -s.heading_wrap_gap * head.size <= gap < s.heading_wrap_lead * head.size
        and abs(ln.size - head.size) < s.same_size
        and (ln.bold, ln.italic, ln.smallcaps) == (head.bold, head.italic, head.smallcaps)
        and caps(ln.text) == caps(head.text)
        and heading_candidate(ln.text) is None
        and not ln.text.endswith(".")
    )
