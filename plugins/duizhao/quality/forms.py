"""Other written forms of what the paragraph checks compare (DZ403-DZ420), read apart from
:mod:`.mask` and :mod:`.equivalents`.

A statute's section as 第 5 条 / 第五条 ("Section 5" of an act), a date's month with its day
(November 21, 2024: 2024 年 11 月 21 日), a version's number without its v (v1.2: 1.2 版), an
English quotation kept in quotes (“Save as draft”), and English left as a sentence of lower-case
words that numbers and symbols cut into short runs.
"""

from __future__ import annotations

import re

from .citations import MONTHS
from .equivalents import _MAGNITUDE_WORDS
from .mask import _EN_WORDS, MASK, Ref, _canon, _zh_value, references

# ---------------------------------------------------------------------------------------------
# Statutes: "Section 230 of the Communications Decency Act" is 第 230 条 (or 第二百三十条)

#: 第 + a number in digits or Chinese numerals + 条 (an article or section of an act) or 节 /
#: 章 (a section written in numerals: 第四节). (Bounded runs, one class each: no split retried.)
_ZH_ARTICLE_RE = re.compile(
    r"第\s{0,3}(\d{1,5}|[零〇一二两三四五六七八九十百千]{1,8})((?: {0,2}\([a-z0-9]{1,4}\)){0,4})"
    r"\s{0,3}(条|节(?!点)|章)((?: {0,2}\([a-z0-9]{1,4}\)){0,4})"
)
#: A subsection's letter, as the English reference reads it (Section 230(c)(1): 230(c)); a
#: translation writes 第 230(c)(1) 条 or 第 230 条 (c)(1).
_SUBSECTION_RE = re.compile(r"\(([a-z])\)")
_ZH_ARTICLE_HINTS = ("条", "第")


def _has_sections(accept: frozenset[Ref]) -> bool:
    return any(kind == "section" for kind, _ in accept)


def _article_number(text: str) -> str | None:
    if text.isdigit():
        return str(int(text))
    value = _zh_value(text.replace("〇", "零"))
    return None if value is None else _canon(value)


def articles(prose: str, original: frozenset[Ref]) -> frozenset[Ref]:
    """The sections a translation writes as 第 N 条 or with Chinese numerals (第五节), read only
    where the original has a section reference (``original``): 第 5 条规则 is a fifth rule."""
    if not _has_sections(original) or "第" not in prose:
        return frozenset()
    out = set()
    for mt in _ZH_ARTICLE_RE.finditer(prose):
        number = _article_number(mt.group(1))
        if number is not None:
            letter = _SUBSECTION_RE.search(mt.group(2) or mt.group(4) or "")
            out.add(("section", number + (f"({letter.group(1)})" if letter else "")))
    return frozenset(out)


def strip_articles(prose: str, original: frozenset[Ref]) -> str:
    """``prose`` with the sections :func:`articles` reads as :data:`MASK` (no figures)."""
    if not _has_sections(original) or "第" not in prose:
        return prose
    return _ZH_ARTICLE_RE.sub(_strip_article, prose)


def _strip_article(mt: re.Match[str]) -> str:
    """The article as :data:`MASK`, its subsection's further parts kept (230(c)(1): the 1 is a
    number of the original's prose too, after its reference 230(c))."""
    return MASK + _SUBSECTION_RE.sub("", (mt.group(2) or "") + (mt.group(4) or ""), count=1)


#: A section sign and its number kept as written in a translation (42 U.S.C. § 1983, § 362(a),
#: §§ 3–4): one character class after the sign, bounded.
_KEPT_SECTION_RE = re.compile(r"§{1,2} {0,2}\d[\w.()\-–, ]{0,30}")


def kept_sections(prose: str, original: frozenset[Ref]) -> frozenset[Ref]:
    """The original's section references (``original``) that a translation quotes unchanged
    with its section sign (42 U.S.C. § 1983 on both sides): such a reference is its own
    counterpart."""
    if "§" not in prose or not _has_sections(original):
        return frozenset()
    spans = " ".join(mt.group(0) for mt in _KEPT_SECTION_RE.finditer(prose))
    return references(spans, chinese=False) & original


# ---------------------------------------------------------------------------------------------
# Dates and versions

#: A capitalised word with a day after it (November 21, March 3rd) or before it (1 May): a
#: date where the word is a month. (Any such word, then looked up: an alternation of the
#: month names tried at every position cost 12 µs a block.)
_MONTH_DAY_RE = re.compile(
    r"\b([A-Z][a-z]{2,8})\.?\s\d{1,2}(?!\d)|(?<!\d)\d{1,2}\s([A-Z][a-z]{2,8})\b"
)


def date_months(prose: str) -> set[str]:
    """The numbers of the months of ``prose`` written with a day (November 21 and 22, 2024:
    11), which a translation writes as 11 月."""
    if not any(ch.isdigit() for ch in prose):
        return set()
    names = (mt.group(1) or mt.group(2) for mt in _MONTH_DAY_RE.finditer(prose))
    return {_canon(MONTHS[name]) for name in names if name in MONTHS}


#: A count in words before a magnitude word (ten million, a billion, two-thousand): a
#: translation writes its value (1000 万, 10 亿, 2000).
_COUNT_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve", "fifteen", "twenty")  # fmt: skip
#: Their values: :data:`.mask._EN_WORDS`'s, with "a" (a billion) and "fifty", which it lacks
#: (the pattern's alternatives in this order: a, the counts, fifty, hundred).
_WORD_COUNT = {"a": 1} | {w: _EN_WORDS[w] for w in _COUNT_WORDS} | {"fifty": 50, "hundred": 100}
_WORD_MAGNITUDE_RE = re.compile(
    r"\b(" + "|".join(_WORD_COUNT) + r")[ -](" + "|".join(_MAGNITUDE_WORDS) + r")\b", re.I
)


def word_magnitudes(prose: str) -> set[str]:
    """The values of the counts in words before a magnitude word (ten million: 1e7)."""
    low = prose.lower()
    if not any(h in low for h in _MAGNITUDE_WORDS):
        return set()
    return {
        _canon(_WORD_COUNT[mt.group(1).lower()] * _MAGNITUDE_WORDS[mt.group(2).lower()])
        for mt in _WORD_MAGNITUDE_RE.finditer(prose)
    }


def strip_word_magnitudes(prose: str) -> str:
    """``prose`` without its counts in words before a magnitude word (their words are no
    small numbers: "ten million" is 1000 万, never 十)."""
    low = prose.lower()
    if not any(h in low for h in _MAGNITUDE_WORDS):
        return prose
    return _WORD_MAGNITUDE_RE.sub(MASK, prose)


#: A decade (the 1990s), which a translation writes 20 世纪 90 年代 or 90 年代.
_DECADE_RE = re.compile(r"(?<!\d)((?:1[89]|20)\d0)'?s\b")
_ZH_DECADE_RE = re.compile(r"(?<!\d)(\d0) ?年代")
_ZH_CENTURY_RE = re.compile(r"(?<!\d)(\d{2}) ?世纪")


def decades(op: str, tp: str) -> tuple[set[str], set[str]]:
    """The decades of ``op`` the translation writes with 年代 (1990s: 90 年代), and the
    centuries it names with them (20 世纪): numbers missing and extra that are no change."""
    if "年代" not in tp:
        return set(), set()
    written = {int(mt.group(1)) for mt in _ZH_DECADE_RE.finditer(tp)}
    found = {int(mt.group(1)) for mt in _DECADE_RE.finditer(op)}
    kept = {year for year in found if year % 100 in written}
    centuries = {_canon(year // 100 + 1) for year in kept}
    named = {_canon(float(mt.group(1))) for mt in _ZH_CENTURY_RE.finditer(tp)} & centuries
    return {_canon(year) for year in kept} | {_canon(year % 100) for year in kept}, named


#: Numbers joined by a slash that an idiom is, and the Chinese words it is written as (runs
#: 24/7: 全天候运行; a 50/50 split: 五五开).
SLASH_IDIOMS = {
    "24/7": ("全天候", "全天", "不间断", "7×24", "7 × 24"),
    "50/50": ("五五开", "对半", "各半", "一半"),
}


def idiom_numbers(op: str, tp: str) -> set[str]:
    """The numbers of the slash idioms of ``op`` that ``tp`` writes as words (24/7: 24, 7)."""
    if "/" not in op:
        return set()
    out: set[str] = set()
    for idiom, words in SLASH_IDIOMS.items():
        if idiom in op and any(w in tp for w in words):
            out.update(_canon(float(n)) for n in idiom.split("/"))
    return out


#: A version with its v (v1.2, v2), which a translation may write without it (1.2 版).
_V_NUMBER_RE = re.compile(r"(?<![\w.])[vV](\d{1,4}(?:\.\d{1,4})?)(?![\d.]?\d)")


def v_numbers(prose: str) -> set[str]:
    """The numbers of ``prose``'s short versions written with a v (v1.2: 1.2)."""
    if "v" not in prose and "V" not in prose:
        return set()
    return {_canon(float(mt.group(1))) for mt in _V_NUMBER_RE.finditer(prose)}


#: A number right after 每秒 (每秒 32 GB: a rate written with its per-second word first).
_LEADING_NUMBER_RE = re.compile(r" {0,2}(\d{1,12}(?:,\d{3}){0,4}(?:\.\d{1,12})?)(?![\d.,]\d)")
_PER_SECOND = "每秒"


#: A number and its unit, then the per-second word: 2 GB 每秒, 2 GB per second.
_UNIT_THEN_PER_SECOND_RE = re.compile(
    r"(?<![\d.,])(\d{1,12}(?:,\d{3}){0,4}(?:\.\d{1,12})?) ?[A-Za-z]{1,8}"
    r" ?(?:每秒|per sec(?:ond)?\b)"
)
_PER_SECOND_HINTS = ("每秒", "per sec")


def per_second_values(prose: str) -> set[str]:
    """The numbers of ``prose`` written right after 每秒 (每秒 32 GB: 32) or with their unit
    before 每秒 or "per second" (2 GB 每秒, 2 GB per second: 2)."""
    out: set[str] = set()
    if not any(h in prose for h in _PER_SECOND_HINTS):
        return out
    for mt in _UNIT_THEN_PER_SECOND_RE.finditer(prose):
        out.add(_canon(float(mt.group(1).replace(",", ""))))
    start = prose.find(_PER_SECOND)
    while start >= 0:
        lead = _LEADING_NUMBER_RE.match(prose, start + len(_PER_SECOND))
        if lead is not None:
            out.add(_canon(float(lead.group(1).replace(",", ""))))
        start = prose.find(_PER_SECOND, start + len(_PER_SECOND))
    return out


# ---------------------------------------------------------------------------------------------
# English left in a translation

#: A quotation (“…”, "…", 「…」, 『…』, ‘…’): each class excludes its delimiters, so an attempt
#: ends at the next one (one pass).
_QUOTED_RE = re.compile(
    r"“([^“”\n]*)”|\"([^\"\n]*)\"|「([^「」\n]*)」|『([^『』\n]*)』|‘([^‘’\n]*)’"
)
_QUOTE_CHARS = ("“", '"', "「", "『", "‘", "《")
#: A title in book-title marks (《…》), and a span in emphasis (*…*, **…**), which keeps the
#: original's words only where they are a title (most words capitalised).
_TITLE_RE = re.compile(r"《([^《》\n]*)》")
_EMPHASIS_RE = re.compile(r"\*{1,2}([^*\n]+)\*{1,2}")


def _squash(text: str) -> str:
    return " ".join(text.lower().split())


def strip_kept_quotes(prose: str, original: str) -> str:
    """``prose`` without the quotations that keep the original's words (a quoted title, a UI
    label, a quoted phrase kept in English on purpose, a title in 《》 or in emphasis: the book
    *The Twenty-Six Words that Created the Internet*), as :data:`MASK`. A sentence left in
    emphasis (**the top 1% of channels …**) is no title and stays."""
    if not any(q in prose for q in _QUOTE_CHARS) and "*" not in prose:
        return prose
    source: list[str] = []  # the original squashed, once a quotation asks

    def _in_source(inner: str) -> bool:
        words = _squash(inner).strip(" ,.;:!?")
        if not source:
            source.append(_squash(original))
        return bool(words) and words in source[0]

    def _kept(mt: re.Match[str]) -> str:
        inner = next((g for g in mt.groups() if g is not None), "")
        return MASK if _in_source(inner) else mt.group(0)

    def _title(mt: re.Match[str]) -> str:
        inner = mt.group(1)
        return MASK if _is_title(inner) and _in_source(inner) else mt.group(0)

    prose = _TITLE_RE.sub(_kept, _QUOTED_RE.sub(_kept, prose))
    return _EMPHASIS_RE.sub(_title, prose) if "*" in prose else prose


#: A title has at least this share of its words capitalised (The Twenty-Six Words that Created
#: the Internet: 5 of 7).
TITLE_CAPITALS_MIN = 0.5


def _is_title(text: str) -> bool:
    words = text.split()
    capitals = sum(1 for w in words if w[:1].isupper())
    return bool(words) and capitals >= TITLE_CAPITALS_MIN * len(words)


#: What separates two stretches of a translation that are no one English sentence: Chinese
#: characters and full-width punctuation.
_ZH_BREAK_RE = re.compile(
    "[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff0f\uff1a-\uff20]+"
)
#: A lower-case English word as a whole token, the punctuation around it stripped.
_LOWER_WORD_RE = re.compile(r"[a-z]+(?:['\-][a-z]+)*")
#: (Lower-case letters after a space or at the start: at least one per such word.)
_LOWER_RUN_RE = re.compile(r"(?<![^\s*_\"'“‘(\[])[a-z]")
_TOKEN_EDGES = "*_\"'“”‘’()[]{}<>,.;:!?~"


def lower_case_sentence(prose: str, words: int) -> str | None:
    """The first stretch of ``prose`` between Chinese text that holds ``words`` or more
    lower-case English words (numbers, symbols and capitalised names between them do not cut
    it: "the top 1% of gradient channels contribute over 90% of the energy"); a code-like token
    (snake_case, a.b, read/write, f(x)) is no word."""
    if len(_LOWER_RUN_RE.findall(prose)) < words:  # the common case, in one C-level scan
        return None
    for stretch in _ZH_BREAK_RE.split(prose):
        if stretch.count(" ") + 1 < words:
            continue
        count = sum(
            1
            for token in stretch.split()
            if _LOWER_WORD_RE.fullmatch(token.strip(_TOKEN_EDGES)) is not None
        )
        if count >= words:
            return stretch.strip()
    return None
