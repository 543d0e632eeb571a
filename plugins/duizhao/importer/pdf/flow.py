"""Lines in reading order → units: headings, paragraphs, references, code, equations.

One pass over the lines of every page. Each line is offered to the rules of :data:`RULES`
in turn (after markdown-it-py's block rules): a rule takes the line and returns True, or
closes what it had open and returns False for the next rule. The state they share is one
:class:`Flow`; each rule is a plain function of ``(flow, line, page)``.

- **floats**: lines of a float or its caption leave the text (a paragraph they interrupt
  goes on after them; an algorithm's or a listing's are set after it, caption and code);
  other roles (running heads, front matter) are skipped;
- **footnote**: footnote type under a column's last body-size line, opening with a mark or
  standing apart at the page's foot, leaves the flow without ending the paragraph it
  interrupts (reported);
- **display** / **equation**: a line whose number, "(12)", is set apart at a margin opens a
  displayed equation; lines set in with mathematics, set tight below it, continue it;
- **heading_continues** / **heading**: see :mod:`.headings`;
- **code**: monospaced or letter-spaced lines (and the short lines under them);
- **text**: everything else; a paragraph ends at a vertical gap, at an indented first line
  after a finished sentence, at a short last line ending a sentence, at a bullet or ``(1)``.
  Across a float, a column or a page a paragraph goes on after a full line.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from ...pdf.headings import heading_like
from ...pdf.hyphens import Joiner
from ...pdf.page_layout import (
    Layout,
    Note,
    PageLayout,
    column_feet,
    foot_notice,
    footnote_type,
    opens_footnote,
)
from ...pdf.read import Char
from ...pdf.text import Line
from .headings import Sections, as_heading, continues_heading
from .lines import small_type


@dataclass(frozen=True)
class Unit:
    """A heading (level ≥ 1), a paragraph, a reference, code, an equation, or a float."""

    kind: str  # "heading" | "paragraph" | "reference" | "code" | "equation" | "float"
    text: str
    level: int = 0
    page: int = 0
    line: int = 0


#: Sections of the front matter that some styles set in small type.
FRONT_SECTIONS = {"abstract", "keywords", "index terms", "ccs concepts", "key words"}
REFERENCE_NAMES = {"references", "bibliography", "reference", "literature cited"}
_EQUATION_NUMBER_RE = re.compile(r"\([0-9]{1,4}[a-z]?\)")
_REF_LABEL_RE = re.compile(r"^(?:\[[^\]]{1,20}\]|[0-9]{1,3}\.\s)")
_ITEM_RE = re.compile(r"^\(?[0-9a-z]{1,2}\)\s")
_RECEIVED_RE = re.compile(r"^Received \d")
_BULLETS = ("•", "◦", "▪", "‣", "∙", "–", "·")
#: Dropped text is quoted in the report up to this many characters.
_CLIP = 60


def clip(text: str, n: int = _CLIP) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


@dataclass
class Flow:
    layout: Layout
    joiner: Joiner
    units: list[Unit] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    para: list[Line] = field(default_factory=list)
    code: list[Line] = field(default_factory=list)
    display: list[Line] = field(default_factory=list)
    footnote: list[Line] = field(default_factory=list)
    #: an algorithm's or a listing's lines, set after the paragraph they interrupt
    held: list[Line] = field(default_factory=list)
    #: which listing each listing line (by ``id``) is of, and how many lines each has
    listings: dict[int, int] = field(default_factory=dict)
    listing_sizes: dict[int, int] = field(default_factory=dict)
    in_refs: bool = False
    #: where each (page, column)'s references start (their hanging indents lie right of it)
    ref_left: dict[tuple[int, int], float] = field(default_factory=dict)
    sections: Sections = field(default_factory=Sections)
    #: the last heading's name: "" before the first one
    section: str = ""
    last_text: Line | None = None
    interrupted: bool = False
    #: a heading line that may wrap onto the next line
    open_heading: Line | None = None
    #: where each (page, column)'s body-size text ends: small type below it is a footnote
    body_foot: dict[tuple[int, int], float] = field(default_factory=dict)

    @property
    def front(self) -> bool:
        return self.section.lower().strip(":. ") in FRONT_SECTIONS

    def page(self, number: int) -> PageLayout:
        return self.layout.pages[number - 1]

    def note(self, ln: Line, message: str) -> None:
        self.notes.append(Note(ln.page, ln.number, message))

    # -- closing what is open -------------------------------------------------------------

    def end(self) -> None:
        """End the open paragraph (or reference), then set the algorithm or listing that
        interrupted it."""
        self._end_paragraph()
        self.end_held(whole=False)

    def end_held(self, whole: bool = True) -> None:
        """The algorithms and listings held apart whose every line has come (``whole``: all
        of them): each its caption a paragraph, its body code."""
        groups: dict[int, list[Line]] = {}
        for ln in self.held:
            groups.setdefault(self.listings.get(id(ln), -1), []).append(ln)
        self.held = []
        for n, held in groups.items():
            if not whole and len(held) < self.listing_sizes.get(n, 0):
                self.held.extend(held)  # lines of it are still to come (a column further)
                continue
            caption = [ln.text for ln in held if ln.role == "listing_caption"]
            body = [ln.text for ln in held if ln.role == "listing"]
            page, line = held[0].page, held[0].number
            if caption:
                self.units.append(Unit("paragraph", self.joiner.join(caption), 0, page, line))
            if body:
                self.units.append(Unit("code", "\n".join(body), 0, page, line))

    def _end_paragraph(self) -> None:
        para, self.para = self.para, []
        if not para:
            return
        kind = "reference" if self.in_refs else "paragraph"
        self.joiner.where = (para[0].page, para[0].number)
        text = self.joiner.join([ln.text for ln in para])
        body = self.layout.body
        small = all(small_type(ln, body, self.layout.settings) for ln in para)
        if self.in_refs and _RECEIVED_RE.match(text):
            # ACM's "Received …; revised …; accepted …" line ends the references.
            self.note(para[0], f"dropped {clip(text)!r}")
        elif small and not self.in_refs and not _front_text(self, para):
            self.note(para[0], f"dropped small text (footnote or figure text?) {clip(text)!r}")
        else:
            self.units.append(Unit(kind, text, 0, para[0].page, para[0].number))

    def end_code(self) -> None:
        if self.code:
            text = "\n".join(c.text for c in self.code)
            self.units.append(Unit("code", text, 0, self.code[0].page, self.code[0].number))
            self.code = []

    def end_display(self) -> None:
        display, self.display = self.display, []
        s = self.layout.settings
        if display and all(small_type(d, self.layout.body, s) for d in display):
            # Nothing in it is of body size: figure text or a footnote, dropped and reported.
            self.para = display
            self.end()
        elif display:
            text = "\n".join(d.text for d in display)
            self.units.append(Unit("equation", text, 0, display[0].page, display[0].number))

    def end_footnote(self) -> None:
        if self.footnote:
            text = " ".join(f.text for f in self.footnote)
            self.note(
                self.footnote[0], f"dropped small text (footnote or figure text?) {clip(text)!r}"
            )
            self.footnote = []

    def finish(self) -> None:
        self.end()
        self.end_held()
        self.end_code()
        self.end_display()
        self.end_footnote()
        for page_no, line_no, word in self.joiner.uncertain:
            message = f"hyphen removed, no other spelling in the paper to check: {word!r}"
            self.notes.append(Note(page_no, line_no, message))
        for page_no, line_no, word in self.joiner.kept:
            message = f"hyphen kept at a line end, both halves are words of the paper: {word!r}"
            self.notes.append(Note(page_no, line_no, message))


# ---------------------------------------------------------------------------------------------
# The rules


Rule = Callable[[Flow, Line, PageLayout], bool]


def floats(flow: Flow, ln: Line, page: PageLayout) -> bool:
    if ln.role in ("float", "caption"):
        flow.interrupted = True
        return True
    if ln.role in ("listing", "listing_caption"):
        # held until the paragraph it interrupts ends
        flow.held.append(ln)
        flow.interrupted = True
        return True
    return ln.role != "text"


def footnote(flow: Flow, ln: Line, page: PageLayout) -> bool:
    foot = flow.body_foot.get((ln.page, ln.column))
    if (
        not flow.in_refs
        and foot is not None
        and ln.y0 > foot
        and footnote_type(ln, flow.layout.body, flow.layout.settings)
        # a footnote opens with its mark (a small-type heading, "REFERENCES", does not), or
        # is an unmarked note at the page's foot; in the front matter, whose abstract some
        # styles set small, only a raised mark opens one (ICML's affiliations)
        and (
            bool(flow.footnote)
            or (
                opens_footnote(ln, flow.layout.settings, raised=flow.front)
                or (not flow.front and foot_notice(ln, foot, flow.layout))
            )
        )
    ):
        flow.footnote.append(ln)
        return True
    flow.end_footnote()
    return False


def display_continues(flow: Flow, ln: Line, page: PageLayout) -> bool:
    if not flow.in_refs and flow.display and _continues_display(flow, page, flow.display[-1], ln):
        flow.display.append(ln)
        flow.last_text = ln
        return True
    return False


def equation(flow: Flow, ln: Line, page: PageLayout) -> bool:
    if not flow.in_refs and _numbered_equation(ln):
        flow.end()
        flow.end_code()
        flow.end_display()
        flow.display.append(ln)
        flow.last_text = ln
        flow.open_heading = None
        return True
    flow.end_display()
    return False


def heading_continues(flow: Flow, ln: Line, page: PageLayout) -> bool:
    head = flow.open_heading
    if head is not None and continues_heading(flow.layout, page, head, ln):
        last = flow.units[-1]
        # a wrapped heading's line-end hyphen is joined as a paragraph's ("TECH-" "NIQUES")
        text = flow.joiner.join([last.text, ln.text])
        flow.units[-1] = Unit("heading", text, last.level, last.page, last.line)
        flow.open_heading = flow.last_text = ln
        return True
    flow.open_heading = None
    return False


def code(flow: Flow, ln: Line, page: PageLayout) -> bool:
    if not flow.in_refs and (
        ln.code
        or (
            flow.code
            and _continues_code(flow, page, flow.code[-1], ln)
            # a heading ends a listing ("3.2 Fold Function Support" under its last line)
            and not heading_like(ln, flow.layout.body, flow.layout.settings)
        )
    ):
        flow.end()
        flow.code.append(ln)
        return True
    flow.end_code()
    return False


def heading(flow: Flow, ln: Line, page: PageLayout) -> bool:
    found = as_heading(flow.layout, page, ln, flow.para, flow.last_text, flow.sections)
    if found is None:
        return False
    level, text, rest = found
    flow.end()
    flow.units.append(Unit("heading", text, level, ln.page, ln.number))
    if not rest:
        flow.sections.learn(ln, level)
    flow.section = text
    named = text.lower().strip(":. ")
    flow.in_refs = named in REFERENCE_NAMES or (flow.in_refs and level > 2)
    flow.last_text = ln
    flow.interrupted = False
    flow.open_heading = None if rest else ln
    if rest:
        # The rest of a run-in heading's line opens the paragraph that follows it.
        flow.para = [
            Line(
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
        ]
    return True


def display(flow: Flow, ln: Line, page: PageLayout) -> bool:
    """A display opens at a line set in with mathematics (a display's numbered line has
    opened it above); not in the front matter, where blocks are set narrower."""
    if (
        not flow.in_refs
        and not ln.code
        and flow.section.lower().strip(":. ") not in FRONT_SECTIONS | {""}
        and _displayed(flow, page, ln, flow.para[-1] if flow.para else None, short=False)
    ):
        flow.end()
        flow.display.append(ln)
        flow.last_text = ln
        flow.interrupted = False
        return True
    return False


def text(flow: Flow, ln: Line, page: PageLayout) -> bool:
    if flow.para and _breaks(flow, page, flow.page(flow.para[-1].page), flow.para[-1], ln):
        flow.end()
    elif not flow.para:
        flow.end_held(whole=False)  # a listing that stood between paragraphs
    if flow.in_refs:
        key = (ln.page, ln.column)
        flow.ref_left[key] = min(flow.ref_left.get(key, ln.x0), ln.x0)
    flow.para.append(ln)
    flow.last_text = ln
    flow.interrupted = False
    return True


RULES: tuple[Rule, ...] = (
    floats,
    footnote,
    display_continues,
    equation,
    heading_continues,
    code,
    heading,
    display,
    text,
)


def flow(layout: Layout, joiner: Joiner, listings: dict[int, int] | None = None) -> Flow:
    """Every page's lines through :data:`RULES`, in reading order (``listings``: which
    algorithm or listing each of their lines is of, by ``id``)."""
    state = Flow(layout, joiner, body_foot=column_feet(layout))
    state.listings = listings or {}
    for n in state.listings.values():
        state.listing_sizes[n] = state.listing_sizes.get(n, 0) + 1
    for page in layout.pages:
        for ln in page.lines:
            for rule in RULES:
                if rule(state, ln, page):
                    break
    state.finish()
    return state


# ---------------------------------------------------------------------------------------------
# What the rules look at


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


def _displayed(flow: Flow, page: PageLayout, ln: Line, prev: Line | None, short: bool) -> bool:
    """A line of a displayed equation: set in from the column's left edge by more than an
    indent, holding mathematics (operators, Greek, scripts) or, inside a display (``short``),
    short. Not the run-on line of a hanging indent, which starts under a word of ``prev``."""
    layout = flow.layout
    s = layout.settings
    left, right = page.extent(ln)
    if ln.x0 - left <= s.display_indent * layout.body:
        return False
    if prev is not None and prev.page == ln.page and _hangs_under(prev, ln, s.word_space):
        return False
    return (
        (short and ln.width < s.display_short * (right - left))
        # a limit or script above the line it belongs to (a display of small type alone is
        # figure text: dropped)
        or small_type(ln, layout.body, s)
        or len({round(ch.size) for ch in ln.chars}) > 1
        or any(_mathlike(ch) for ch in ln.text)
    )


def _hangs_under(prev: Line, ln: Line, word_space: float) -> bool:
    """``ln`` starts where a word of ``prev`` starts: the hanging indent of a list item."""
    last: Char | None = None
    for ch in prev.chars:
        starts = (
            last is None
            or ch.x0 - last.x1 > word_space * ch.size
            or ch.space_before
            or ch.space_generated
        )
        if starts and abs(ch.x0 - ln.x0) < 1.0:
            return True
        last = ch
    return False


def _continues_display(flow: Flow, page: PageLayout, last: Line, ln: Line) -> bool:
    """The next line of an open display: set tight below it, numbered, set in or small."""
    layout = flow.layout
    gap = ln.y0 - last.y1
    if (
        ln.page != last.page
        or ln.column != last.column
        or gap > layout.settings.display_lead * layout.leading
    ):
        return False
    return (
        _numbered_equation(ln)
        or small_type(ln, layout.body, layout.settings)
        or _displayed(flow, page, ln, None, short=True)
    )


def _front_text(flow: Flow, para: list[Line]) -> bool:
    """Small type that is the paper's text, not a footnote: the abstract (amsart, LNCS set it
    small), or a block on page 1 before the first section that body text follows in its column
    (a footnote or the ACM copyright block sits at a column's foot, under the body text)."""
    if flow.front:
        return True
    first = flow.layout.pages[0]
    if flow.section or para[0].page != first.number:
        return False
    last = para[-1]
    return any(
        ln.role == "text"
        and ln.y0 > last.y1
        and flow.layout.body_sized(ln)
        and (ln.column == last.column or -1 in (ln.column, last.column))
        for ln in first.lines
    )


def _continues_code(flow: Flow, page: PageLayout, prev: Line, ln: Line) -> bool:
    """A short line right below a listing line (a brace, an argument in another font)."""
    s = flow.layout.settings
    left, right = page.extents.get(ln.column, (0.0, 1.0e9))
    return (
        prev.page == ln.page
        and prev.column == ln.column
        and 0 < ln.y1 - prev.y1 < s.code_lead * flow.layout.leading
        and ln.width < s.code_short * (right - left)
        and not ln.text.endswith(".")
    )


def inline_enumeration(text: str) -> bool:
    """``text`` opens an enumeration run in the sentence, not a list item: the next item's
    mark follows on the same line ("(a) overlaps …; (b) adjusts …")."""
    m = _ITEM_RE.match(text)
    if m is None:
        return False
    mark = m.group().strip()
    label = mark.strip("()")
    if len(label) != 1:
        return False
    nxt = mark.replace(label, chr(ord(label) + 1))
    return f" {nxt} " in text[m.end() - 1 :] or text.endswith(f" {nxt}")


def _breaks_reference(
    flow: Flow, page: PageLayout, prev_page: PageLayout, prev: Line, ln: Line
) -> bool:
    """Whether ``ln`` starts a new reference: a label ("[12]", "12."), or back at the left
    edge after a hanging indent or a short line."""
    s = flow.layout.settings
    body = flow.layout.body
    if _REF_LABEL_RE.match(ln.text):
        return True
    left = flow.ref_left.get((ln.page, ln.column))
    if left is not None and ln.x0 <= left + s.ref_edge * body:
        prev_hanging = prev.x0 > left + s.indent_min * body
        return prev_hanging or not flow.layout.full_width(prev, prev_page)
    if left is None:
        # A new column: a reference starts here unless the line is indented (hanging).
        col_left = page.extents.get(ln.column, (ln.x0, ln.x1))[0]
        return ln.x0 <= col_left + s.ref_edge * body
    return False


def _breaks(flow: Flow, page: PageLayout, prev_page: PageLayout, prev: Line, ln: Line) -> bool:
    """Whether ``ln`` starts a new paragraph after ``prev``."""
    layout = flow.layout
    s = layout.settings
    body = layout.body
    if flow.in_refs:
        return _breaks_reference(flow, page, prev_page, prev, ln)
    if ln.text.startswith(_BULLETS) or (
        _ITEM_RE.match(ln.text) and not inline_enumeration(ln.text)
    ):
        return True
    same_column = prev.page == ln.page and prev.column == ln.column
    if prev.page == ln.page and page.gutter is not None and -1 in (prev.column, ln.column):
        # A block across both columns, set narrower than the page (an abstract): its own edges
        # tell indents and full lines (a short last line may not cross the gutter).
        left, right = min(prev.x0, ln.x0), max(prev.x1, ln.x1)
        prev_full = prev.x1 >= right - s.full_line * body
        indented = s.indent_min * body < ln.x0 - left < s.indent_max * body
        same_column = True
    else:
        prev_full = layout.full_width(prev, prev_page)
        indented = layout.indented(ln, page)
    if prev.text.endswith((".", "!", "?", ":")) and not prev_full:
        return True
    # An indent opens a paragraph after a finished sentence or a short line; after a full line
    # that runs on it is the hanging indent of a list item or a description. A line set in as
    # far as the one before it is no indent: the item runs on under its hanging indent, even
    # after a sentence ends at the end of a line.
    hanging = same_column and prev.x0 - 1.0 <= ln.x0 <= prev.x0 + 1.0
    if indented and not hanging and (prev.text.endswith((".", "!", "?", ":")) or not prev_full):
        return True
    if abs(ln.size - prev.size) > s.size_break * body:
        return True
    if same_column and not flow.interrupted:
        gap = ln.y0 - prev.y1
        pitch = ln.y1 - prev.y1
        return pitch > s.paragraph_pitch_break * layout.leading and gap > s.paragraph_gap * body
    # Across a float, a column or a page: the paragraph goes on after a full line.
    return not prev_full
