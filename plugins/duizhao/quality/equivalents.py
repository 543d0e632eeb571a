"""DZ405's equivalents: what a correct translation may write a number as, besides its digits.

x between numbers as × (1920x1080), a magnitude suffix with 万 / 亿 (50k: 5 万), a percentage as
its exact Chinese fraction (50%: 一半), a factor as its reciprocal (40–100×: 1/100–1/40), time
units across English and Chinese words (3 minutes: 3 分钟), and versions (v0.8.3, 3.10.2),
whose parts are no numbers. Read from the numbers :mod:`.mask` finds.
"""

from __future__ import annotations

import re
from collections import Counter

from .mask import MASK, _canon, _number_matches, _words_after_numbers, _zh_value

#: x between two numbers is a multiplication sign (1920x1080 → 1920×1080): both numbers count.
#: (The x first, the digit before it looked behind after: the search skips to x's.)
_TIMES_RE = re.compile(r"[xX](?<=\d[xX])(?=\d)")


def times_signs(prose: str) -> str:
    """``prose`` with an x between digits as ×."""
    return _TIMES_RE.sub("×", prose) if ("x" in prose or "X" in prose) else prose


#: Magnitude suffixes written on the number (50k, 1.2M, 3B), which a translation may write
#: with 万 / 亿 (5 万, 120 万, 30 亿).
_MAGNITUDE = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9}
#: Magnitude words after a number (1.1 million liters: 110 万升; 4 trillion tokens: 4 万亿个).
_MAGNITUDE_WORDS = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}


#: The one suffix that may stand apart from its number (10 M queries: 1000 万); 8 B is bytes.
_SPACED_MAGNITUDE = "M"


def _hyphened_magnitude(prose: str, end: int) -> float | None:
    if prose[end : end + 1] != "-":
        return None
    word = prose[end + 1 : end + 10].partition(" ")[0].lower()
    return _MAGNITUDE_WORDS.get(word)


def magnitudes(prose: str) -> dict[str, str]:
    """Each number with an attached magnitude suffix or a magnitude word after it: canonical
    value → value times it."""
    out: dict[str, str] = {}
    for m in _number_matches(prose):
        unit = m.group(4)
        end = m.end(2) if m.group(2) else m.end(1)
        if unit in _MAGNITUDE and (m.start(4) == end or unit == _SPACED_MAGNITUDE):
            scale = _MAGNITUDE[unit]
        elif unit and (scale_word := _MAGNITUDE_WORDS.get(unit.lower())) is not None:
            scale = scale_word
        elif unit is None and (scale_word := _hyphened_magnitude(prose, end)) is not None:
            scale = scale_word  # a 10-billion parameter model
        else:
            continue
        value = float(m.group(1).replace(",", "") + (m.group(2) or ""))
        out[_canon(value)] = _canon(value * scale)
    return out


#: Fractions a translation may write a percentage as (50% → 一半, 25% → 四分之一); only
#: exact ones (33% is not 三分之一).
_ZH_FRACTION_RE = re.compile(
    r"([一二两三四五六七八九十]{1,3})分之([一二两三四五六七八九十]{1,3})|一半|半数"
)
_EXACT_DIGITS = 6


def zh_fraction_percents(prose: str) -> set[str]:
    """The percentages the Chinese fractions of ``prose`` are exactly (一半: 50)."""
    out: set[str] = set()
    if "半" not in prose and "分之" not in prose:
        return out
    for m in _ZH_FRACTION_RE.finditer(prose):
        if m.group(1) is None:
            out.add(_canon(50))
            continue
        den, num = _zh_value(m.group(1)), _zh_value(m.group(2))
        if den and num is not None:
            value = num * 100 / den
            if round(value, 2) == round(value, _EXACT_DIGITS):
                out.add(_canon(value))
    return out


#: Words a translation may write a factor of 2 as, numeral-free: halved (一半, 减半, 折半) or
#: doubled (翻倍, 加倍, 翻番); "shrinks by 2×" is 缩小一半.
_ZH_FACTOR_TWO = ("一半", "减半", "折半", "对半", "翻倍", "加倍", "翻番", "翻一番")


def zh_factor_two(prose: str) -> bool:
    """Does ``prose`` write a factor of 2 as a word (缩小一半, 翻倍)?"""
    return any(w in prose for w in _ZH_FACTOR_TWO)


#: "two dozen", "a dozen", "3 dozen": a count a translation writes as its value (24) or, about,
#: its tens and 多 / 余 / 几 (二十多, 20 多).
#: (The count's digits bounded: a run tried from each digit of a long number is quadratic.)
_DOZEN_RE = re.compile(
    r"\b(a|\d{1,4}|two|three|four|five|six|seven|eight|nine|ten) dozens?\b", re.I
)
_DOZEN_COUNT = {"a": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10}  # fmt: skip
_DOZEN = 12
_ZH_ABOUT = ("多", "余", "几")


def dozen_words(prose: str) -> set[str]:
    """The number words that count dozens in ``prose`` (two of "two dozen"), lower case."""
    if "dozen" not in prose.lower():
        return set()
    return {m.group(1).lower() for m in _DOZEN_RE.finditer(prose)}


def dozen_values(prose: str, translation: str) -> set[str]:
    """The values a translation may write the dozens of ``prose`` as: N dozen as 12 N, and as
    10 N where the translation says about (多 / 余 / 几) of it."""
    if "dozen" not in prose.lower():
        return set()
    out: set[str] = set()
    about = any(w in translation for w in _ZH_ABOUT)
    for m in _DOZEN_RE.finditer(prose):
        word = m.group(1).lower()
        count = float(word) if word.isdigit() else _DOZEN_COUNT[word]
        out.add(_canon(count * _DOZEN))
        if about:
            out.add(_canon(count * 10))
    return out


#: A reciprocal (1/100–1/40 for a 40–100× reduction): its 1 is no number of the original.
_RECIPROCAL_RE = re.compile(r"(?<![\d.])1/(\d+)")


def reciprocal_denominators(prose: str) -> set[str] | None:
    """The denominators of the reciprocals 1/N of ``prose``; None when it has none."""
    if "1/" not in prose:
        return None
    found = {_canon(float(m.group(1))) for m in _RECIPROCAL_RE.finditer(prose)}
    return found or None


# Time units: English (ms, minutes) and Chinese (毫秒, 分钟) compared as one

#: A time unit as compared, from its English forms (lower case) and its Chinese words.
TIME_UNIT = {
    **dict.fromkeys(("ns", "nanosecond", "nanoseconds", "纳秒"), "ns"),
    **dict.fromkeys(("us", "µs", "μs", "microsecond", "microseconds", "微秒"), "µs"),
    **dict.fromkeys(("ms", "msec", "millisecond", "milliseconds", "毫秒"), "ms"),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds", "秒", "秒钟"), "s"),
    **dict.fromkeys(("min", "mins", "minute", "minutes", "分钟"), "min"),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours", "小时", "个小时"), "h"),
    **dict.fromkeys(("day", "days", "天"), "day"),
    **dict.fromkeys(("week", "weeks", "周", "个星期", "星期"), "week"),
}
#: The Chinese time words (longest first: 秒钟 before 秒).
_ZH_TIME_WORDS = tuple(
    sorted((w for w in TIME_UNIT if not w.isascii() and w != "µs" and w != "μs"), key=len)[::-1]
)
_ZH_TIME_CHARS = ("秒", "分钟", "小时", "天", "周", "星期")


def time_units(prose: str) -> dict[str, set[str]]:
    """Each number's time units (as compared: 3 minutes, 3 min and 3 分钟 are one)."""
    out: dict[str, set[str]] = {}
    for m in _number_matches(prose):
        unit = m.group(4)
        if unit and (name := TIME_UNIT.get(unit.lower())) is not None:
            value = _canon(float(m.group(1).replace(",", "") + (m.group(2) or "")))
            out.setdefault(value, set()).add(name)
    if any(w in prose for w in _ZH_TIME_CHARS):
        for m, word in _words_after_numbers(prose, _ZH_TIME_WORDS):
            value = _canon(float(m.group(1).replace(",", "") + (m.group(2) or "")))
            out.setdefault(value, set()).add(TIME_UNIT[word])
    return out


# Versions: v0.8.3, 3.10.2 (the number pattern reads neither: a digit after a letter or a dot)

#: A version: three or more dotted parts, a v before them or not (every number matches, the v and
#: the parts optional: a failed match from each digit of a long run would be quadratic).
_VERSION_RE = re.compile(r"(?<![\w.])(v?)(\d+(?:\.\d+)*)")
#: (A dot first: the search skips to dots; "v\d" or a digit first cost 5-10 µs a block.)
_VERSION_HINT_RE = re.compile(r"\.\d+\.\d")
_VERSION_MIN_DOTS = 2


def versions(prose: str) -> Counter[str]:
    """The versions of ``prose`` (without their v: a translation may write 0.8.3 版)."""
    out: Counter[str] = Counter()
    if _VERSION_HINT_RE.search(prose) is None:
        return out
    for m in _VERSION_RE.finditer(prose):
        if m.group(1) or m.group(2).count(".") >= _VERSION_MIN_DOTS:
            out[m.group(2)] += 1
    return out


def strip_versions(prose: str) -> str:
    """``prose`` with its versions as :data:`MASK` (their parts are no numbers)."""
    return _VERSION_RE.sub(_strip_version, prose)


def _strip_version(m: re.Match[str]) -> str:
    if m.group(1) or m.group(2).count(".") >= _VERSION_MIN_DOTS:
        return MASK
    return m.group(0)
