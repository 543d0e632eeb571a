"""Other written forms of what the paragraph checks compare (DZ403-DZ420), read apart from
:mod:`.mask` and :mod:`.equivalents`.

A statute's section as 第 5 条 / 第五条 ("Section 5" of an act), a date's month with its day
(November 21, 2024: 2024 年 11 月 21 日), a version's number without its v (v1.2: 1.2 版), an
English quotation kept in quotes (“Save as draft”), and English left as a sentence of lower-case
words that numbers and symbols cut into short runs.
"""

from __future__ import annotations

import re

from .mask import MASK, MONTHS, Ref, _canon, _zh_value

# ---------------------------------------------------------------------------------------------
# Statutes: "Section 230 of the Communications Decency Act" is 第 230 条 (or 第二百三十条)

#: 第 + a number in digits or Chinese numerals + 条 (an article or section of an act) or 节 /
#: 章 (a section written in numerals: 第四节). (Bounded runs, one class each: no split retried.)
_ZH_ARTICLE_RE = re.compile(
    r"第\s{0,3}(\d{1,5}|[零〇一二两三四五六七八九十百千]{1,8})\s{0,3}(条|节(?!点)|章)"
)
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
            out.add(("section", number))
    return frozenset(out)


def strip_articles(prose: str, original: frozenset[Ref]) -> str:
    """``prose`` with the sections :func:`articles` reads as :data:`MASK` (no figures)."""
    if not _has_sections(original) or "第" not in prose:
        return prose
    return _ZH_ARTICLE_RE.sub(MASK, prose)


# ---------------------------------------------------------------------------------------------
# Dates and versions

_MONTH_NAMES = "|".join(sorted(MONTHS, key=len, reverse=True))
#: A month name with a day after it (November 21, March 3rd) or before it (1 May).
_MONTH_DAY_RE = re.compile(
    rf"\b({_MONTH_NAMES})\.?\s(?:\d{{1,2}})(?!\d)|(?<!\d)\d{{1,2}}\s({_MONTH_NAMES})\b"
)


def date_months(prose: str) -> set[str]:
    """The numbers of the months of ``prose`` written with a day (November 21 and 22, 2024:
    11), which a translation writes as 11 月."""
    if not any(ch.isdigit() for ch in prose):
        return set()
    return {_canon(MONTHS[mt.group(1) or mt.group(2)]) for mt in _MONTH_DAY_RE.finditer(prose)}


#: A version with its v (v1.2, v2), which a translation may write without it (1.2 版).
_V_NUMBER_RE = re.compile(r"(?<![\w.])[vV](\d{1,4}(?:\.\d{1,4})?)(?![\d.]?\d)")


def v_numbers(prose: str) -> set[str]:
    """The numbers of ``prose``'s short versions written with a v (v1.2: 1.2)."""
    if "v" not in prose and "V" not in prose:
        return set()
    return {_canon(float(mt.group(1))) for mt in _V_NUMBER_RE.finditer(prose)}


#: A number right after 每秒 (每秒 32 GB: a rate written with its per-second word first).
_LEADING_NUMBER_RE = re.compile(r" {0,2}(\d{1,12}(?:,\d{3})*(?:\.\d{1,12})?)(?![\d.,]\d)")
_PER_SECOND = "每秒"


def per_second_values(prose: str) -> set[str]:
    """The numbers of ``prose`` written right after 每秒 (每秒 32 GB: 32)."""
    out: set[str] = set()
    start = prose.find(_PER_SECOND)
    while start >= 0:
        mt = _LEADING_NUMBER_RE.match(prose, start + len(_PER_SECOND))
        if mt is not None:
            out.add(_canon(float(mt.group(1).replace(",", ""))))
        start = prose.find(_PER_SECOND, start + len(_PER_SECOND))
    return out


# ---------------------------------------------------------------------------------------------
# English left in a translation

#: A quotation (“…”, "…", 「…」, 『…』, ‘…’): each class excludes its delimiters, so an attempt
#: ends at the next one (one pass).
_QUOTED_RE = re.compile(
    r"“([^“”\n]*)”|\"([^\"\n]*)\"|「([^「」\n]*)」|『([^『』\n]*)』|‘([^‘’\n]*)’"
)
_QUOTE_CHARS = ("“", '"', "「", "『", "‘")


def _squash(text: str) -> str:
    return " ".join(text.lower().split())


def strip_kept_quotes(prose: str, original: str) -> str:
    """``prose`` without the quotations that keep the original's words (a quoted title, a UI
    label, a quoted phrase kept in English on purpose), as :data:`MASK`."""
    if not any(q in prose for q in _QUOTE_CHARS):
        return prose
    source = _squash(original)

    def _kept(mt: re.Match[str]) -> str:
        inner = next((g for g in mt.groups() if g is not None), "")
        words = _squash(inner).strip(" ,.;:!?")
        return MASK if words and words in source else mt.group(0)

    return _QUOTED_RE.sub(_kept, prose)


#: What separates two stretches of a translation that are no one English sentence: Chinese
#: characters and full-width punctuation.
_ZH_BREAK_RE = re.compile(
    "[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff0f\uff1a-\uff20]+"
)
#: A lower-case English word as a whole token, the punctuation around it stripped.
_LOWER_WORD_RE = re.compile(r"[a-z]+(?:['\-][a-z]+)*")
_TOKEN_EDGES = "*_\"'“”‘’()[]{}<>,.;:!?~"


def lower_case_sentence(prose: str, words: int) -> str | None:
    """The first stretch of ``prose`` between Chinese text that holds ``words`` or more
    lower-case English words (numbers, symbols and capitalised names between them do not cut
    it: "the top 1% of gradient channels contribute over 90% of the energy"); a code-like token
    (snake_case, a.b, read/write, f(x)) is no word."""
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
