"""DZ405's number words: how often the original counts with a word, and the time units of words.

"three approaches" written 两种 where the paragraph has a 三 elsewhere, and "five minutes" written
五秒钟 (the numeral kept, its unit changed), are misses of a check that reads the numbers of each
side as a set. Read from the number words :mod:`.mask` finds.
"""

from __future__ import annotations

import re
from collections import Counter

from . import mask as m
from .equivalents import TIME_UNIT

#: How many times a number word must be written for its count to be compared.
REPEATED_COUNT = 2
#: The counts a translation's numerals of a changed count may hold (2 .. 20: 两种, 十五个).
_SMALL_VALUES = frozenset(m._canon(v) for v in range(2, 21))
#: An English time word after a number word (five minutes, two hours).
_EN_TIME_RE = re.compile(r"[a-z]+")
#: The Chinese time words after a numeral (五秒钟, 两个小时, 十分钟), longest first; at most
#: this many spaces between. (Read after each numeral run: a pattern of the run and the word
#: backtracks quadratically through a long run that no word follows.)
_ZH_TIME_WORDS = (
    "个小时",
    "个星期",
    "小时",
    "秒钟",
    "分钟",
    "毫秒",
    "微秒",
    "纳秒",
    "星期",
    "秒",
    "天",
    "周",
)
_ZH_TIME_GAP = 2


def word_counts(prose: str) -> Counter[str]:
    """How many times each small number word's value is written in English ``prose``."""
    return Counter(m._canon(m.en_word_value(w)) for w in m._small_words(prose.lower()))


def numeral_counts(prose: str) -> Counter[str]:
    """How many times each value is written as a Chinese numeral or as digits in ``prose``."""
    out: Counter[str] = Counter()
    for mt in m._ZH_NUM_RE.finditer(prose):
        value = m._zh_value(mt.group(0))
        if value is not None:
            out[m._canon(value)] += 1
    out.update(m.numbers(prose))
    return out


def _count_digits(prose: str) -> Counter[str]:
    """How many times each value is written in digits outside link texts."""
    return Counter(m.numbers(m.strip_link_texts(prose)))


def digits_cover(op: str, tp: str, value: str) -> bool:
    """Does the translation write ``value`` in digits as often as the original writes it in
    digits and in words together ("generate 8 tokens … all eight tokens": 8 twice)? A
    multiset: one 8 in the translation stands for the original's digit, not its word too."""
    return _count_digits(tp)[value] >= _count_digits(op)[value] + word_counts(op)[value]


def changed_count(op: str, tp: str, words: dict[str, str]) -> str | None:
    """The value of a number word the translation writes fewer times than the original while
    it writes a count of 2 .. 20 the original has not ("three approaches … three benchmarks":
    "两种方法……三个基准"); None when there is none."""
    if "dozen" in op.lower():
        return None  # two dozen: 24 or 二十多, counted by the dozen check
    wanted = word_counts(op)
    if max(wanted.values(), default=0) < REPEATED_COUNT:
        return None  # a word written once is missing where no numeral has its value (above)
    written = numeral_counts(tp)
    original = set(wanted) | set(m.numbers(op)) | m.en_word_numbers(op)
    if not any(v in _SMALL_VALUES and v not in original for v in written):
        return None
    for value, count in sorted(wanted.items()):
        if value in words and written[value] < count:
            return value
    return None


#: Chinese words with a numeral that count nothing (二进制 binary, 十分 very, 再三 again and
#: again): not read as counts.
_ZH_NUMERAL_IDIOMS = (
    "二进制",
    "十分",
    "十足",
    "三角",
    "四处",
    "再三",
    "万一",
    "独一无二",
    "一五一十",
)
#: Words after an English number word that make it no count of the noun next to it.
_NOT_NOUNS = frozenset(
    ("of", "and", "or", "to", "times", "more", "fewer", "less", "than", "in", "on", "at", "is",
     "are", "was", "were", "by", "per", "for", "with", "from", "hundred", "thousand", "million",
     "billion", "dozen", "out", "the", "a", "an")
)  # fmt: skip
#: The word after a number word, past one space or hyphen (two phase, two-phase).
_NEXT_WORD_RE = re.compile(r"[ \-]([a-z]+)")
#: How far before a numeral 第 makes it an ordinal (第二阶段, 第 二).
_ORDINAL_GAP = 2


def attached_counts(prose: str) -> Counter[str]:
    """How many times each small number word of English ``prose`` counts the noun after it
    (a two phase process, three-way: 2, 3)."""
    low = prose.lower()
    out: Counter[str] = Counter()
    for mt in m._EN_SMALL_RE.finditer(low):
        if mt.start() and (low[mt.start() - 1].isalnum() or low[mt.start() - 1] == "_"):
            continue
        after = _NEXT_WORD_RE.match(low, mt.end())
        if after is not None and after.group(1) not in _NOT_NOUNS:
            out[m._canon(m.en_word_value(mt.group(1)))] += 1
    return out


def count_numerals(tp: str, op: str) -> Counter[str]:
    """How many times each value is written as a count in a translation: its Chinese numerals
    outside ordinals (第二) and idioms (二进制), 双 / 俩 as two, and its digits beyond the
    original's (those stand for themselves)."""
    for idiom in _ZH_NUMERAL_IDIOMS:
        if idiom in tp:
            tp = tp.replace(idiom, m.MASK)
    out: Counter[str] = Counter()
    for mt in m._ZH_NUM_RE.finditer(tp):
        if "第" in tp[max(0, mt.start() - _ORDINAL_GAP) : mt.start()]:
            continue
        value = m._zh_value(mt.group(0))
        if value is not None:
            out[m._canon(value)] += 1
    out[m._canon(2)] += sum(tp.count(w) for w in m._ZH_TWO)
    return out + (Counter(m.numbers(tp)) - Counter(m.numbers(op)))


def changed_attached_count(op: str, tp: str, words: dict[str, str]) -> str | None:
    """The value of a number word counting a noun ("a two phase process") that the
    translation writes fewer times as a count, while it counts with a value of 2 .. 20 the
    original has nowhere (一个三阶段的过程, where 第二阶段 or 二进制 elsewhere holds a 二);
    None when there is none."""
    attached = attached_counts(op)
    if not attached:
        return None
    written = count_numerals(tp, op)
    lost = [v for v, count in sorted(attached.items()) if v in words and written[v] < count]
    if not lost:  # the common case: each count is there
        return None
    new = {v for v, count in written.items() if count > 0 and v in _SMALL_VALUES}
    new -= set(word_counts(op)) | set(m.numbers(op))
    if new:
        new -= m.en_word_numbers(op)
    return lost[0] if new else None


def word_time_units(prose: str) -> dict[str, set[str]]:
    """Each English number word's time units (five minutes: 5 → min)."""
    out: dict[str, set[str]] = {}
    low = prose.lower()
    for mt in m._EN_SMALL_RE.finditer(low):
        unit = _EN_TIME_RE.match(low, mt.end() + 1) if low[mt.end() : mt.end() + 1] == " " else None
        if unit is not None and (name := TIME_UNIT.get(unit.group(0))) is not None:
            out.setdefault(m._canon(m.en_word_value(mt.group(1))), set()).add(name)
    return out


def zh_numeral_time_units(prose: str) -> dict[str, set[str]]:
    """Each Chinese numeral's time units (五秒钟: 5 → s)."""
    out: dict[str, set[str]] = {}
    if not any(ch in prose for ch in "秒钟时天周期"):
        return out
    for mt in m._ZH_NUM_RE.finditer(prose):
        after = prose[mt.end() : mt.end() + _ZH_TIME_GAP + 3]
        tail = after.lstrip(" ")
        word = next((w for w in _ZH_TIME_WORDS if tail.startswith(w)), None)
        if word is None or len(after) - len(tail) > _ZH_TIME_GAP:
            continue
        value = m._zh_value(mt.group(0))
        if value is not None:
            out.setdefault(m._canon(value), set()).add(TIME_UNIT[word])
    return out


# Flags and prose formulas: -O3, --tp=2, n-1, 2(n-1) (the number pattern reads no digit after a
# letter, and n-1 written n+1 keeps its 1)

#: A command-line flag with a digit, outside code (-O3, -j8, --stage=2).
#: (The dash first, what is before it looked behind after: the search skips to dashes.)
_FLAG_RE = re.compile(r"-(?<![\w\-]-)-?[A-Za-z][A-Za-z_\-]{0,30}\d[\w.=]{0,12}")
#: What every formula holds, found fast (an operator first): the cheap prefilter.
_FORMULA_HINT_RE = re.compile(r"[\-+−] ?\d")
#: A one-letter variable, + or - and a number: n-1, k + 1 (Top-1 is a name, not a formula).
_FORMULA_RE = re.compile(r"(?<![\w.])([A-Za-z]) ?([\-+−]) ?(\d{1,6})(?![\w.])")
_MINUS = str.maketrans({"−": "-"})


def flags(prose: str) -> Counter[str]:
    """The flags with a digit of ``prose`` (-O3)."""
    if "-" not in prose:
        return Counter()
    return Counter(flag.rstrip(".=") for flag in _FLAG_RE.findall(prose))  # -O3. ends a sentence


def formulas(prose: str) -> Counter[str]:
    """The one-letter formulas of ``prose`` as written without spaces (n-1, k+1)."""
    if _FORMULA_HINT_RE.search(prose) is None:
        return Counter()
    return Counter("".join(mt.groups()).translate(_MINUS) for mt in _FORMULA_RE.finditer(prose))


def check_formulas(op: str, tp: str) -> str | None:
    """A flag or formula of the original the translation writes otherwise: -O3 written -O2,
    "n-1 additions" written n+1 (where 2(n-1) elsewhere keeps an n-1)."""
    for read, kind in ((flags, "flag"), (formulas, "formula")):
        was_there = read(op)
        if not was_there:
            continue  # the common case: the translation is not read
        now_there = read(tp)
        missing, extra = was_there - now_there, now_there - was_there
        for was in sorted(missing):
            now = [x for x in sorted(extra) if _stem(x) == _stem(was)]
            if now:
                return f"{kind} {was} of the original is written {now[0]}"
    return None


def _stem(token: str) -> str:
    """A flag's or formula's letters (-O of -O3, n of n-1)."""
    return token.lstrip("-")[:1]
