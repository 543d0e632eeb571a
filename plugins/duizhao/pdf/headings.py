"""Section headings as a page shows them: numbered like one (``1 Introduction``, ``2.1 …``,
``IV. EVALUATION``, ``A. Subsection``, ``A PROOF``, ``A.1 Lemma``) or named like one
(Abstract, References, …). The figure detector stops a region at one set in a heading
style; the importer (``importer/pdf/headings.py``) decides levels and run-in headings."""

from __future__ import annotations

import re

from .settings import SETTINGS, Settings
from .text import Line

#: A title starts with a capital, or with a name in lower case that has one ("vLLM", "eBPF").
_TITLE = r"(?P<title>(?:[A-Z]|[a-z]{1,3}[A-Z]).*)"
_NUMERIC_RE = re.compile(r"^(?P<num>[0-9]{1,2}(?:\.[0-9]{1,2}){0,3})\.? {1,4}" + _TITLE + "$")
_ROMAN_RE = re.compile(r"^(?P<num>[IVX]{1,5})\. {1,4}" + _TITLE + "$")
_LETTER_RE = re.compile(
    r"^(?P<num>[A-Z](?:\.[0-9]{1,2}){0,2})(?P<dot>\.?) {1,4}(?P<title>[A-Z].*)$"
)
ABSTRACT_RE = re.compile(r"^(?:ABSTRACT|Abstract|A ?BSTRACT)\b *(?:[—–:.-] *)?")
NAMED = {
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
#: The longest line a heading may be (characters).
_MAX_HEADING = 160
#: Numbered sections go no higher than this (a larger number is a list item or a year).
_MAX_SECTION = 30
#: A numbered title of more digits than this share is a table row or a formula.
_TITLE_DIGITS = 0.3


def caps(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    return len(letters) >= 3 and all(ch.isupper() for ch in letters)


#: Words this short may stay in lower case in a title ("of", "the", "and", "for").
_MINOR_WORD = 3


def title_case(text: str) -> bool:
    """Every word longer than a minor word starts with a capital ("Why Do the Loss
    Landscapes of LLMs Resemble Basins?", not "FaaS platform for …")."""
    words = [w for w in text.split() if w[:1].isalpha()]
    return bool(words) and all(w[0].isupper() for w in words if len(w.strip("?:,")) > _MINOR_WORD)


def heading_candidate(text: str) -> tuple[str, int] | None:
    """(kind, depth) when ``text`` is numbered like a section title: numeric, roman, letter."""
    text = text.strip()
    if len(text) > _MAX_HEADING or text.endswith((",", ";")):
        return None
    m = _NUMERIC_RE.match(text)
    if m:
        first = int(m.group("num").split(".")[0])
        title = m.group("title")
        digits = sum(ch.isdigit() for ch in title)
        if 0 < first <= _MAX_SECTION and digits <= len(title) * _TITLE_DIGITS:
            return "numeric", m.group("num").count(".") + 1
        return None
    m = _ROMAN_RE.match(text)
    if m and not m.group("title").endswith("."):
        return "roman", 1
    m = _LETTER_RE.match(text)
    # "A. Subsection" (IEEE), "A.1 Proof", "A PROOF" or "A Related Work" (appendices, the
    # title in title case); not "A FaaS platform …".
    if (
        m
        and not m.group("title").endswith(".")
        and (
            m.group("dot")
            or "." in m.group("num")
            or caps(m.group("title"))
            or title_case(m.group("title"))
        )
    ):
        if m.group("dot") and "." not in m.group("num"):
            return "letter", 1  # IEEE's subsection under a roman section
        return "appendix", m.group("num").count(".") + 1
    if text.lower().rstrip(":.") in NAMED:
        return "named", 1
    return None


def heading_like(line: Line, body: float, s: Settings = SETTINGS) -> bool:
    """``line`` reads as a section heading and is set like one: larger than the body, bold,
    in capitals or small capitals, and not in small type (a plot's legend "1 Baseline")."""
    if heading_candidate(line.text) is None or line.size < s.heading_min * body:
        return False
    return (
        line.size >= s.heading_size * body
        or line.bold_share >= s.bold_heading
        or line.smallcaps
        or caps(line.text)
    )
