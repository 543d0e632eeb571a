"""The one caption grammar: "Figure 3:", "Fig. 3.", "FIG. 3", "Table 2", "TABLE II", "Table 2
(continued)", "Algorithm 1:", "Listing 2.".

A label is a word (Figure, FIGURE, Fig., FIG., Table, TABLE, Tab., Algorithm, Listing), a
dash a Word author may set between the two ("Figure – 1:", "Fig-1:"), a
number (arabic 1–999, a roman numeral written the canonical way, an appendix's "B.1": B's
first, or a section's "2.1": section 2's first, as Word numbers them, "Fig.1.1", "FIG. 3.5")
and what follows it: a delimiter (``: . | — – -``), nothing (the label alone on its line, as
IEEE sets TABLE II), or a ``(continued)`` mark. A line is a caption's first line when its
label is set apart like that, or when a section-numbered label is followed by a capital
("Figure 2.1 Number of images"); "Figure 3 shows …" is a reference, and so is "Table IV
lists …" (IEEE prints TABLE IV).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from .hyphens import Joiner
from .read import FontStyle
from .text import Line, line_text

# No nested quantifiers and every repetition bounded: linear on any input.
_LABEL_RE = re.compile(
    r"(?P<word>Figure|FIGURE|Fig\.|FIG\.|Fig|FIG|Table|TABLE|Tab\.|Algorithm|ALGORITHM|Listing"
    r"|LISTING)[ \t\u00a0]{0,3}(?:[-\u2013\u2014][ \t\u00a0]{0,3})?"
    r"(?P<num>[A-Z]\.[0-9]{1,3}|[0-9]{1,2}(?:\.[0-9]{1,3}){1,2}|[0-9]{1,3}|[IVXLCDM]{1,12})"
    r"(?![0-9A-Za-z]|\.[0-9])"
)
#: A section-numbered label whose last number the text layer glued to the caption's first
#: word, after a space ("Fig.1. 3Relation between …" is Fig. 1.3, as a Word export reads).
_GLUED_RE = re.compile(r"[ \t\u00a0]?(?P<num>[0-9]{1,3})(?=[A-Z][a-z])")
_CONTINUED_RE = re.compile(r"[ \t]{0,3}\((?:continued|Continued|CONTINUED|cont\.|Cont\.)\)")
_DELIMS = ":.|—–-"
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
_LONE_WORDS = {"Figure", "FIGURE", "Fig.", "FIG.", "Fig", "FIG", "Table", "TABLE", "Tab."}
#: A label's kind by its word's first three letters. Algorithms and listings are floats too:
#: the detector grows them (so that no figure takes their lines) but reports only figures and
#: tables, the floats a ``.figures.yml`` holds.
_KINDS = {"fig": "figure", "tab": "table", "alg": "algorithm", "lis": "listing"}
REPORTED = ("figure", "table")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffd\ufffe]")

#: Ligatures that the Linux Libertine fonts of ACM's 2016–17 template leave without a
#: Unicode mapping, by font and the code PDFium reports (read off the words they occur in:
#: "ﬁgure", "aﬃliation", "diﬀerent", "ﬂoat", "bo‹tt›om", "The").
_UNMAPPED = {
    "linlibertinet": {0x80: "fi", 0x81: "ffi", 0x82: "ff", 0x83: "fl", 0x8A: "tt", 0x8C: "Th"},
    "linlibertinetb": {0x80: "fi", 0x87: "Th"},
    "linlibertineti": {0x80: "fi"},
}


@dataclass(frozen=True)
class Label:
    kind: str  # "figure" | "table"
    word: str  # as printed: "Fig.", "TABLE"
    numeral: str  # as printed: "3", "II"
    number: int
    #: the delimiter after the number ("" when none)
    delim: str
    #: nothing follows the label on its line
    alone: bool
    continued: bool
    #: where the caption's text starts
    end: int

    @property
    def sectioned(self) -> bool:
        """Numbered within its section ("2.1", "3.5"), as Word numbers captions."""
        return "." in self.numeral and self.numeral[0].isdigit()

    @property
    def printed(self) -> str:
        """The label as the paper prints it, one space between word and number."""
        return f"{self.word} {self.numeral}"


def roman(numeral: str) -> int | None:
    """The value of a roman numeral written the canonical way (IV, not IIII), else None."""
    total = 0
    for a, b in zip(numeral, numeral[1:] + " ", strict=True):
        value = _ROMAN[a]
        total += -value if b in _ROMAN and _ROMAN[b] > value else value
    return total if 0 < total < 4000 and to_roman(total) == numeral else None


def to_roman(n: int) -> str:
    out = ""
    for value, letters in (
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
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


def parse_label(text: str) -> Label | None:
    """The label that opens ``text``, if it does (a reference or a caption alike)."""
    m = _LABEL_RE.match(text)
    if m is None:
        return None
    word, num = m["word"], m["num"]
    if num[:1].isdigit() and "." in num:  # a section's "Fig. 2.1": section 2's first figure
        parts = num.split(".")
        if any(p[0] == "0" for p in parts):
            return None
        number = int(parts[-1])
    elif num[1:2] == ".":  # an appendix's "Figure B.1": B's first figure
        number = int(num[2:])
        if number == 0:
            return None
    elif num.isdigit():
        number = int(num)
        if number == 0 or num[0] == "0":
            return None
    else:
        value = roman(num)
        if value is None:
            return None
        number = value
    end = m.end()
    continued = False
    c = _CONTINUED_RE.match(text, end)
    if c is not None:
        continued, end = True, c.end()
    rest = text[end:]
    stripped = rest.lstrip(" \t\u00a0")
    delim = stripped[:1] if stripped[:1] in _DELIMS and stripped[:1] else ""
    if delim:
        end += len(rest) - len(stripped) + 1
    if delim == "." and num.isdigit() and not continued:
        glued = _GLUED_RE.match(text, end)
        if glued is not None and glued["num"][0] != "0":
            num, number, end = f"{num}.{glued['num']}", int(glued["num"]), glued.end()
            stripped = text[end:]
    alone = not stripped
    if num.isalpha() and not (word.isupper() or delim or alone or continued):
        return None  # "Table IV lists …": a reference (IEEE prints TABLE IV)
    return Label(_KINDS[word.lower()[:3]], word, num, number, delim, alone, continued, end)


def caption_label(text: str, bold: bool = False) -> Label | None:
    """The label of a caption's first line: set apart by a delimiter, alone on its line,
    marked continued, in bold ("**Figure 3** Overview"), or numbered within its section and
    followed by a capital ("Figure 2.1 Number of images", as Word sets its captions; "Figure
    2.1 shows …" is a reference)."""
    label = parse_label(text)
    if label is None:
        return None
    titled = label.sectioned and text[label.end :].lstrip(" \t\u00a0")[:1].isupper()
    if not (label.delim or label.alone or label.continued or bold or titled):
        return None
    return label


def caption_match(text: str) -> tuple[str, str, int] | None:
    """(kind, label, number) when ``text`` starts like a figure's or a table's caption
    ("Figure 3:", "TABLE II")."""
    label = caption_label(text)
    if label is None or label.kind not in REPORTED:
        return None
    return (label.kind, label.printed, label.number)


def lone_label_word(text: str) -> bool:
    """``text`` is a label word set apart from its number ("Fig." [wide space] "3.")."""
    return text in _LONE_WORDS


def _mapped(line: Line, fonts: Sequence[FontStyle]) -> str:
    """A line's text with the ligatures its fonts leave unmapped put back (see _UNMAPPED)."""
    if not any("\x80" <= ch.text <= "\x9f" for ch in line.chars):
        return line.text
    chars = []
    for ch in line.chars:
        if "\x80" <= ch.text <= "\x9f":
            table = _UNMAPPED.get(fonts[ch.font].name.lower(), {})
            ch = type(ch)(table.get(ord(ch.text), ""), ch.x0, ch.y0, ch.x1, ch.y1, ch.size, ch.font)
            if not ch.text:
                continue
        chars.append(ch)
    return line_text(chars, fonts)


def caption_text(lines: Sequence[Line], fonts: Sequence[FontStyle], joiner: Joiner) -> str:
    """A caption's text without its label: lines joined (a line-end hyphen closed where it
    broke a word, kept in a compound: ``joiner`` knows the paper's words), Unicode-normalised,
    glyphs without a mapping left out."""
    texts = [unicodedata.normalize("NFKC", _mapped(line, fonts)) for line in lines]
    label = parse_label(texts[0]) if texts else None
    if label is not None:  # the label of the first line, however the caption goes on
        texts[0] = texts[0][label.end :].lstrip(":.|—–- ")
    joined = _CONTROL_RE.sub("", joiner.join(texts))
    return " ".join(joined.split()).lstrip(":.|—–- ")
