"""The front matter of page 1: the title and the authors; both leave the text flow.

The title is the largest type on page 1, or, when nothing there is larger than the body
(amsart), its first block: one to four tight lines, centred, bold or capitals, set apart.
The authors are the largest lines between it and the abstract that are not affiliations or
e-mail addresses (all in one size: the first line of each stack).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...pdf.headings import ABSTRACT_RE, caps, heading_candidate
from ...pdf.page_layout import Layout, Note, PageLayout
from ...pdf.text import Line

_HONORIFIC_RE = re.compile(r"^(?:Dr|Prof|Professor|Mr|Mrs|Ms)\.? {1,3}", re.IGNORECASE)
_NAME_SPLIT_RE = re.compile(r", {0,3}| {1,3}and {1,3}| {0,3}; {0,3}")
_AFFILIATION_WORDS = re.compile(
    r"@|https?:|\b(?:Universit|Institut|Department|Dept\.|College|School|Laborator|Lab\b|Inc\b|"
    r"Corporation|Research|Center|Centre|Academy|Email|USA|China|Germany)",
    re.IGNORECASE,
)
_MARKS_RE = re.compile(r"[∗*†‡§¶♯#]{1,8}(?=,|\s|$)")
# A footnote number ends a word of letters ("Wood1," or "Turing 2"), not "b5aded7".
_FOOTNOTE_NUMBER_RE = re.compile(r"(?<!\S)([^\W\d_]{0,80})[0-9]{1,3}(?=,|\s|$)")
#: An affiliation line has more digits than this (a postcode, a phone number).
_AFFILIATION_DIGITS = 3


def _affiliation(text: str) -> bool:
    return (
        bool(_AFFILIATION_WORDS.search(text))
        or sum(ch.isdigit() for ch in text) > _AFFILIATION_DIGITS
    )


def _strip_marks(text: str) -> str:
    text = _MARKS_RE.sub("", text)
    return _FOOTNOTE_NUMBER_RE.sub(r"\1", text).strip(" ,")


def _stacked(ln: Line, lines: Sequence[Line], layout: Layout) -> bool:
    """Whether ``ln`` sits right under another line of its block (an affiliation's place)."""
    s = layout.settings
    return any(
        o is not ln
        and 0 <= ln.y0 - o.y1 < s.stack_gap * ln.size
        and min(o.x1, ln.x1) - max(o.x0, ln.x0) > s.stack_overlap * min(o.width, ln.width)
        for o in lines
    )


def _title_block(layout: Layout, page: PageLayout, lines: Sequence[Line]) -> list[Line]:
    """The title when it is not the largest type: the first block of page 1, one to four lines
    set tight, centred, bold or capitals throughout, with a clear gap before what follows."""
    s = layout.settings
    ordered = sorted(lines, key=lambda ln: (ln.y0, ln.x0))
    if not ordered:
        return []
    block = [ordered[0]]
    for ln in ordered[1:]:
        if ln.y0 - block[-1].y1 > s.title_lead * layout.leading or len(block) > s.title_lines:
            rest = ln
            break
        block.append(ln)
    else:
        return []
    left, right = page.extents.get(-1, (0.0, page.width))
    centre = (left + right) / 2
    if len(block) > s.title_lines or rest.y0 - block[-1].y1 < s.title_apart * layout.leading:
        return []
    for ln in block:
        if not (ln.bold_share >= s.bold_heading or ln.smallcaps or caps(ln.text)):
            return []
        if abs(ln.mid_x - centre) > s.title_centred * (right - left):
            return []
        if ln.size < s.title_size * layout.body:
            return []
        if ABSTRACT_RE.match(ln.text) or heading_candidate(ln.text) is not None:
            return []
    return block


def _title_lines(layout: Layout, page: PageLayout, upper: Sequence[Line]) -> list[Line]:
    s = layout.settings
    biggest = max(ln.size for ln in upper)
    if biggest >= layout.body * s.title_larger:
        return sorted(
            (ln for ln in upper if ln.size >= biggest - s.same_size), key=lambda ln: (ln.y0, ln.x0)
        )
    # Title in body-size type (amsart: bold capitals): the set-apart block at the top.
    return _title_block(layout, page, upper)


def _front_end(
    layout: Layout, page: PageLayout, lines: Sequence[Line], title_bottom: float
) -> float:
    """Where the front matter ends: where the abstract or the first section starts."""
    s = layout.settings
    end = page.height
    for ln in lines:
        if ln.y0 > title_bottom and (
            ABSTRACT_RE.match(ln.text)
            or (heading_candidate(ln.text) is not None and ln.size >= s.heading_min * layout.body)
        ):
            end = min(end, ln.y0)
    if end == page.height:
        paragraphs = [ln for ln in lines if ln.y0 > title_bottom and layout.body_like(ln, page)]
        end = min((ln.y0 for ln in paragraphs), default=title_bottom)
    return end


def _authors(layout: Layout, below: Sequence[Line]) -> list[str]:
    s = layout.settings
    names = [ln for ln in below if not _affiliation(ln.text)]
    authors: list[str] = []
    if not names:
        return authors
    size = max(ln.size for ln in names)
    # Names, affiliations and e-mail all in one size: a name is the first line of its stack.
    flat = all(abs(ln.size - size) < s.same_size for ln in below)
    for ln in sorted(names, key=lambda ln: (ln.y0, ln.x0)):
        if abs(ln.size - size) >= s.same_size or (flat and _stacked(ln, below, layout)):
            continue
        for name in _NAME_SPLIT_RE.split(_strip_marks(ln.text)):
            name = _HONORIFIC_RE.sub("", name.strip())
            if name and name not in authors and name.lower() != "and":
                authors.append(name)
    return authors


def front_matter(layout: Layout) -> tuple[str, list[str], list[Note]]:
    """The title and the authors (lines get the roles ``title`` and ``front``), and the
    report's note of the author block."""
    s = layout.settings
    if not layout.pages:
        return "", [], []
    page = layout.pages[0]
    lines = [ln for ln in page.lines if ln.role == "text"]
    upper = [ln for ln in lines if ln.y0 < page.height * s.title_zone]
    if not upper:
        return "", [], []
    title_lines = _title_lines(layout, page, upper)
    if not title_lines or any(heading_candidate(ln.text) for ln in title_lines):
        return "", [], []  # the largest type is a section heading: no title page
    title = _strip_marks(" ".join(ln.text for ln in title_lines))
    end = _front_end(layout, page, lines, max(ln.y1 for ln in title_lines))
    header = [ln for ln in lines if ln.y1 <= end + 0.5 and ln not in title_lines]
    for ln in title_lines:
        ln.role = "title"
    for ln in header:
        ln.role = "front"
    below = [ln for ln in header if ln.y0 >= title_lines[0].y0]
    notes = []
    if below:
        # The affiliations never reach the article's text: the report keeps all of the block.
        block = " ".join(ln.text for ln in sorted(below, key=lambda ln: (ln.y0, ln.x0)))
        first = min(below, key=lambda ln: ln.number)
        notes.append(
            Note(
                first.page,
                first.number,
                f"dropped author block (names in paper.authors): {block!r}",
            )
        )
    return title, _authors(layout, below), notes
