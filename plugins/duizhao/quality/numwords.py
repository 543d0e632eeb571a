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


def changed_count(op: str, tp: str, words: dict[str, str]) -> str | None:
    """The value of a number word the translation writes fewer times than the original while
    it writes a count of 2 .. 20 the original has not ("three approaches … three benchmarks":
    "两种方法……三个基准"); None when there is none."""
    if "dozen" in op.lower():
        return None  # two dozen: 24 or 二十多, counted by the dozen check
    wanted = word_counts(op)
    written = numeral_counts(tp)
    original = set(wanted) | set(m.numbers(op)) | m.en_word_numbers(op)
    if not any(v in _SMALL_VALUES and v not in original for v in written):
        return None
    for value, count in sorted(wanted.items()):
        if value in words and written[value] < count:
            return value
    return None


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
