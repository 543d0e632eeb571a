"""Citations in a paragraph: numbered ([12], [3-5], [3, 7]) and author-year (Smith et al.,
2020; Zhang 等人（2019）), the month names before a year, and the prose without them (what the
untranslated-English and number checks must not read)."""

from __future__ import annotations

import re
from collections import Counter

from .mask import MASK, _canon

_CITE_RE = re.compile(r"\[(\d{1,4}(?:\s*[,，\-–—]\s*\d{1,4})*)\](?!\()")
# The surname starts after a character that is no letter, ' or - (matched, not looked behind:
# a run of letters that an assertion alone would start anywhere in backtracks quadratically);
# applied to " " + prose.
# A year before a slash and digits is no citation's: EU acts are numbered YYYY/NNN (Decision
# 2011/833, Regulation 2016/679), a translation keeps the number whole (第 2011/833 号决定).
# Groups: 1 the character before, 2 the surname, 3 a second author's (and / &), 4 the year, 5 the
# same authors' further years ("Haj-Ali et al., 2020; 2019a": "; 2019a").
_AUTHOR_YEAR_RE = re.compile(
    r"([^\w'\-])([A-Z][A-Za-z'\-]+)(?: et al\.?| (?:and|&) ([A-Z][A-Za-z'\-]+))?"
    r",?\s+\(?((?:19|20)\d\d[a-z]?)(?![-/]\d)\)?((?:[;,] ?(?:19|20)\d\d[a-z]?(?![\w]))*)"
)
_CITE_YEAR_RE = re.compile(r"(?:19|20)\d\d[a-z]?")
#: A translation's author-year forms written as the original's, so that one pattern reads
#: both (a pattern of both forms is one the ReDoS checker cannot decide in time): full-width
#: parentheses and comma, 等人 / 等 for et al., 和 / 与 for and — Zhang 等人（2019）, （Zhang
#: 等，2019）, Zhang 和 Li（2019）.
_ZH_CITE_MARKS = str.maketrans({"（": " (", "）": ")", "，": ", ", "；": "; "})
_ZH_CITE_WORDS = (
    ("等人 (", "et al. ("), ("等 (", "et al. ("), ("等人, ", "et al., "), ("等, ", "et al., "),
    (" 和 ", " and "), (" 与 ", " and "),
)  # fmt: skip
_ZH_CITE_HINTS = ("（", "等", " 和 ", " 与 ")


def _latin_citation_forms(prose: str) -> str:
    if not any(h in prose for h in _ZH_CITE_HINTS):
        return prose
    prose = prose.translate(_ZH_CITE_MARKS)
    for zh, en in _ZH_CITE_WORDS:
        prose = prose.replace(zh, en)
    return prose


_DASHES = str.maketrans("–—，", "--,")
#: Month names and their abbreviations: "August 2018" is a date, not an author-year citation;
#: a translation writes it as its numeral and 月 (2018 年 8 月).
MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("January", "Jan"), ("February", "Feb"), ("March", "Mar"), ("April", "Apr"),
            ("May",), ("June", "Jun"), ("July", "Jul"), ("August", "Aug"),
            ("September", "Sep", "Sept"), ("October", "Oct"), ("November", "Nov"),
            ("December", "Dec"),
        ),
        start=1,
    )
    for name in names
}  # fmt: skip
#: Capitalised words before a year that name no author: months and the prepositions a
#: sentence opens with ("In 2021, these were consolidated": 2021 年，……; "By 2030", "Since 2019").
NOT_AUTHORS = frozenset(MONTHS) | frozenset(
    ("In", "By", "Since", "From", "Until", "Till", "Before", "After", "During", "Through",
     "Around", "Circa", "As", "Of", "On", "At", "For", "To", "Early", "Late", "Mid", "Summer",
     "Winter", "Spring", "Fall", "Autumn")
)  # fmt: skip


def citations(prose: str) -> Counter[int]:
    """The numbers cited in brackets (a multiset), ranges expanded (at most 200 per range)."""
    out: Counter[int] = Counter()
    if "[" not in prose:
        return out
    for m in _CITE_RE.finditer(prose):
        for part in m.group(1).translate(_DASHES).split(","):
            bounds = part.split("-")  # (int() ignores the spaces around each)
            if len(bounds) == 2:
                lo, hi = int(bounds[0]), int(bounds[1])
                if 0 <= hi - lo <= 200:
                    out.update(range(lo, hi + 1))
                    continue
            out.update(int(b) for b in bounds)
    return out


_YEAR_RE = re.compile(r"(?:19|20)\d\d")


def author_years(prose: str) -> frozenset[tuple[str, str]]:
    """(surname, year) of author-year citations: each author of two (Sutton & Barto, 1998),
    each year of one author's list with its letter (Haj-Ali et al., 2020; 2019a)."""
    if not _YEAR_RE.search(prose):
        return frozenset()
    out: set[tuple[str, str]] = set()
    for m in _AUTHOR_YEAR_RE.finditer(" " + _latin_citation_forms(prose)):
        if m.group(2) in NOT_AUTHORS:
            continue
        years = [m.group(4), *_CITE_YEAR_RE.findall(m.group(5))] if m.group(5) else [m.group(4)]
        for name in (m.group(2), m.group(3)) if m.group(3) else (m.group(2),):
            out.update((name, year) for year in years)
    return frozenset(out)


def strip_citations(prose: str) -> str:
    """``prose`` without numeric and author-year citations (their numbers are not figures)."""
    prose = _CITE_RE.sub(MASK, prose) if "[" in prose else prose
    if not _YEAR_RE.search(prose):
        return prose
    return _AUTHOR_YEAR_RE.sub(_strip_author_year, " " + _latin_citation_forms(prose))[1:]


def strip_kept_author_years(prose: str) -> str:
    """``prose`` without the author-year citations it writes in Latin form (Patterson et al.,
    2021; Smith and Jones, 2020a), as :data:`MASK`, the rest unchanged: a citation list kept in
    a translation is no English sentence (DZ420)."""
    if not _YEAR_RE.search(prose):
        return prose
    return _AUTHOR_YEAR_RE.sub(_strip_author_year, " " + prose)[1:]


def _strip_author_year(m: re.Match[str]) -> str:
    return m.group(0) if m.group(2) in NOT_AUTHORS else m.group(1) + MASK


def month_numbers(prose: str) -> set[str]:
    """The numbers of the month names of ``prose`` before a year (August 2018: 8)."""
    if not _YEAR_RE.search(prose):
        return set()
    return {
        _canon(MONTHS[m.group(2)])
        for m in _AUTHOR_YEAR_RE.finditer(" " + prose)
        if m.group(2) in MONTHS
    }
