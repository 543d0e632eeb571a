"""Masking and extraction: what a paragraph check compares, and what it must not read as prose.

Inline code, math, link and image targets, bare URLs and HTML are replaced by one private-use
character each (so spacing and punctuation checks see a neutral token) and returned apart.
Every pattern is compiled once; a block without a trigger character skips its pattern.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import NamedTuple

#: What a masked span becomes in the prose: neither Latin, digit nor Han.
MASK = "\ue000"

_FENCE_RE = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n(?:.*?^[ \t]*\1[ \t]*$|.*\Z)", re.M | re.S)
_LIST_MARKER_RE = re.compile(r"^[ \t]*\d{1,9}[.)](?=[ \t])", re.M)
_CODE_RE = re.compile(r"(`+)(.+?)\1", re.S)
_MATH_RE = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$(?!\s)([^$\n]+?)(?<!\s)\$", re.S)
# [text](target) and ![alt](target): the text stays prose, the target is masked.
_LINK_RE = re.compile(r"(!?)\[([^\]\n]*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_URL_RE = re.compile(r"<?https?://[^\s<>)\]，。]+>?")
_HTML_RE = re.compile(r"<!--.*?-->|</?[A-Za-z][^<>\n]*>", re.S)


class Masked(NamedTuple):
    prose: str
    code: tuple[str, ...]
    math: tuple[str, ...]
    targets: tuple[str, ...]


def mask(text: str) -> Masked:
    """``text`` with code, math, link targets, URLs and HTML masked, and what was masked."""
    code: list[str] = []
    math: list[str] = []
    targets: list[str] = []
    if "```" in text or "~~~" in text:  # code blocks: translators may translate comments
        text = _FENCE_RE.sub(MASK, text)
    if ". " in text or ") " in text:
        text = _LIST_MARKER_RE.sub(MASK, text)
    if "`" in text:

        def _code(m: re.Match[str]) -> str:
            code.append(m.group(2).strip())
            return MASK

        text = _CODE_RE.sub(_code, text)
    if "$" in text:

        def _math(m: re.Match[str]) -> str:
            math.append("".join((m.group(1) or m.group(2) or "").split()))
            return MASK

        text = _MATH_RE.sub(_math, text)
    if "](" in text:

        def _link(m: re.Match[str]) -> str:
            targets.append(m.group(3))
            return "[" + m.group(2) + "]" + MASK

        text = _LINK_RE.sub(_link, text)
    if "<" in text:
        text = _HTML_RE.sub(MASK, text)
    if "://" in text:

        def _url(m: re.Match[str]) -> str:
            targets.append(m.group(0).strip("<>"))
            return MASK

        text = _URL_RE.sub(_url, text)
    return Masked(text, tuple(code), tuple(math), tuple(targets))


# ---------------------------------------------------------------------------------------------
# Citations: [12], [3-5], [3, 7]; author-year (Smith et al., 2020)

_CITE_RE = re.compile(r"\[(\d{1,4}(?:\s*[,，\-–—]\s*\d{1,4})*)\](?!\()")
_RANGE_SPLIT_RE = re.compile(r"\s*[,，]\s*")
_AUTHOR_YEAR_RE = re.compile(
    r"\b([A-Z][A-Za-z'\-]+)(?: et al\.?| and [A-Z][A-Za-z'\-]+| & [A-Z][A-Za-z'\-]+)?,?\s+"
    r"\(?((?:19|20)\d\d[a-z]?)\)?"
)


def citations(prose: str) -> Counter[int]:
    """The numbers cited in brackets (a multiset), ranges expanded (at most 200 per range)."""
    out: Counter[int] = Counter()
    if "[" not in prose:
        return out
    for m in _CITE_RE.finditer(prose):
        for part in _RANGE_SPLIT_RE.split(m.group(1)):
            bounds = re.split(r"\s*[\-–—]\s*", part)
            if len(bounds) == 2:
                lo, hi = int(bounds[0]), int(bounds[1])
                if 0 <= hi - lo <= 200:
                    out.update(range(lo, hi + 1))
                    continue
            out.update(int(b) for b in bounds)
    return out


_YEAR_RE = re.compile(r"(?:19|20)\d\d")


def author_years(prose: str) -> frozenset[tuple[str, str]]:
    """(surname, year) of author-year citations."""
    if not _YEAR_RE.search(prose):
        return frozenset()
    return frozenset((m.group(1), m.group(2)) for m in _AUTHOR_YEAR_RE.finditer(prose))


def strip_citations(prose: str) -> str:
    """``prose`` without numeric and author-year citations (their numbers are not figures)."""
    prose = _CITE_RE.sub(MASK, prose) if "[" in prose else prose
    return _AUTHOR_YEAR_RE.sub(MASK, prose) if _YEAR_RE.search(prose) else prose


# ---------------------------------------------------------------------------------------------
# Figure, table, section and equation references

_REF_EN_RE = re.compile(
    r"\b((?i:Figures?|Figs?\.|Tables?|Tab\.|Sections?|Sec\.|§|Equations?|Eqs?\.|Appendix|Algorithm))"
    r"\s*\(?(\d+(?:\.\d+)*|[A-Z](?:\.\d+)*)\)?(\s*\([a-z]\)|[a-z](?![a-z]))?",
)
_REF_ZH_RE = re.compile(
    r"(图|表|式|公式|方程|附录|算法|第)\s*\(?(\d+(?:\.\d+)*|[A-Z](?:\.\d+)*)\)?"
    r"(\s*\([a-z]\)|[a-z](?![a-z]))?\s*(节|章)?"
)
_REF_KIND_EN = {
    "fig": "figure",
    "tab": "table",
    "sec": "section",
    "§": "section",
    "equ": "equation",
    "eq": "equation",
    "eqs": "equation",
    "app": "appendix",
    "alg": "algorithm",
}
_REF_KIND_ZH = {
    "图": "figure",
    "表": "table",
    "式": "equation",
    "公式": "equation",
    "方程": "equation",
    "附录": "appendix",
    "算法": "algorithm",
}


def _en_kind(word: str) -> str:
    w = word.lower().rstrip(".s")
    return _REF_KIND_EN.get(w[:3], _REF_KIND_EN.get(w, w))


def references(prose: str, *, chinese: bool) -> frozenset[tuple[str, str]]:
    """(kind, number with sub-panel) of figure/table/section/equation references."""
    out: set[tuple[str, str]] = set()
    if not has_reference_word(prose, chinese=chinese):
        return frozenset()
    if chinese:
        for m in _REF_ZH_RE.finditer(prose):
            word = m.group(1)
            if word == "第":
                if m.group(4) is None:
                    continue
                kind = "section"
            else:
                kind = _REF_KIND_ZH[word]
            out.add((kind, m.group(2) + _panel(m.group(3))))
    else:
        for m in _REF_EN_RE.finditer(prose):
            out.add((_en_kind(m.group(1)), m.group(2) + _panel(m.group(3))))
    return frozenset(out)


def _panel(text: str | None) -> str:
    return "" if not text else "(" + text.strip(" ()") + ")"


def _strip_ref(mt: re.Match[str]) -> str:
    if mt.group(1) == "第" and mt.group(4) is None:
        return mt.group(0)  # 第 54 版 is a number, not a section
    return MASK


_REF_EN_TRIGGERS = ("fig", "tab", "sec", "§", "eq", "appendix", "algorithm")
_REF_ZH_TRIGGERS = frozenset("图表式方程附录算法第")


def has_reference_word(prose: str, *, chinese: bool) -> bool:
    """The cheap prefilter: could ``prose`` hold a reference at all?"""
    if chinese:
        return not _REF_ZH_TRIGGERS.isdisjoint(prose)
    lower = prose.lower()
    return any(w in lower for w in _REF_EN_TRIGGERS)


def strip_references(prose: str, *, chinese: bool) -> str:
    if not has_reference_word(prose, chinese=chinese):
        return prose
    return _REF_ZH_RE.sub(_strip_ref, prose) if chinese else _REF_EN_RE.sub(MASK, prose)


_LINK_TEXT_RE = re.compile(r"\[[^\]\n]*\]" + MASK)


def strip_link_texts(prose: str) -> str:
    """``prose`` without the texts of its links (a cited title stays in its language)."""
    return _LINK_TEXT_RE.sub(MASK, prose) if "[" in prose else prose


# ---------------------------------------------------------------------------------------------
# Numbers

_NUM_RE = re.compile(
    r"(?<![A-Za-z0-9_.])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\d])(?:\s*(万|亿)|\s*([A-Za-z%×µμ/]+|倍))?"
)
_ZH_SCALE = {"万": 1e4, "亿": 1e8}
_UNIT_SAME = {"x": "×", "倍": "×", "percent": "%", "us": "µs", "μs": "µs"}
FULLWIDTH_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")
_EN_WORDS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "twice": 2, "double": 2, "half": 0.5, "eleven": 11, "twelve": 12,
    "hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9,
}  # fmt: skip
_EN_WORD_RE = re.compile(r"\b(" + "|".join(_EN_WORDS) + r")\b", re.I)
_ZH_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
              "八": 8, "九": 9}  # fmt: skip
_ZH_NUM_RE = re.compile(r"[零一二两三四五六七八九十百千万亿半]+")
_SCALE_EN = {"k": 1e3, "m": 1e6, "b": 1e9}


def _zh_value(s: str) -> float | None:
    """A small Chinese numeral (一 .. 九千九百九十九), 半 = 0.5; None when not one."""
    if s == "半":
        return 0.5
    total = 0
    current = 0
    for ch in s:
        if ch in _ZH_DIGITS:
            current = _ZH_DIGITS[ch]
        elif ch in "十百千":
            unit = {"十": 10, "百": 100, "千": 1000}[ch]
            total += (current or 1) * unit
            current = 0
        elif ch == "万":
            total = (total + current) * 10000
            current = 0
        elif ch == "亿":
            total = (total + current) * 10**8
            current = 0
        else:
            return None
    return total + current


def _canon(value: float) -> str:
    return f"{value:.6g}"


def numbers(prose: str) -> list[str]:
    """The digit numbers of ``prose``, canonical (thousands separators removed, 10 亿 = 1e9)."""
    out = []
    for m in _NUM_RE.finditer(prose):
        whole = m.group(1).replace(",", "")
        value = float(whole + (m.group(2) or ""))
        out.append(_canon(value * _ZH_SCALE[m.group(3)] if m.group(3) else value))
    return out


def units(prose: str) -> dict[str, set[str]]:
    """Each number's units (lower case: kB and KB are one), where a unit follows it."""
    out: dict[str, set[str]] = {}
    for m in _NUM_RE.finditer(prose):
        if m.group(4):
            value = _canon(float(m.group(1).replace(",", "") + (m.group(2) or "")))
            unit = m.group(4).lower()
            out.setdefault(value, set()).add(_UNIT_SAME.get(unit, unit))
    return out


def en_word_numbers(prose: str) -> set[str]:
    return {_canon(_EN_WORDS[m.group(1).lower()]) for m in _EN_WORD_RE.finditer(prose)}


def zh_word_numbers(prose: str) -> set[str]:
    out: set[str] = set()
    for m in _ZH_NUM_RE.finditer(prose):
        value = _zh_value(m.group(0))
        if value is not None:
            out.add(_canon(value))
        for ch in m.group(0):  # 一两个 / 三四 : each digit may stand alone
            if ch in _ZH_DIGITS:
                out.add(_canon(_ZH_DIGITS[ch]))
    return out
