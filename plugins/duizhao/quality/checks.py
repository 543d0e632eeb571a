"""Paragraph checks: does a block's translation keep what its original says (DZ401-DZ439)?

Each check is a small named function ``(original, translation) -> message | None`` over the
masked texts; :func:`check_block` runs those whose trigger is present (a cheap prefilter).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic
from . import citations as cite
from . import equivalents as eq
from . import forms as fm
from . import mask as m
from . import numwords as nw

if TYPE_CHECKING:
    from pathlib import Path

    from ..article import Paragraph

Finding = tuple[str, str]  # (code, message)

#: Tolerances, named.
#: A run of this many Latin words in a translation (outside masks) is an untranslated sentence.
UNTRANSLATED_MIN_WORDS = 6
#: A stretch between Chinese text with this many lower-case English words is one too, whatever
#: numbers, symbols or names cut it into shorter runs (code-like tokens and kept quotations are
#: no words).
UNTRANSLATED_MIN_LOWER_WORDS = 8
#: The shortest original that can be "identical" to its translation (titles like "BERT" are not).
IDENTICAL_MIN_LETTERS = 12
#: Math of at most this many characters and no letter or digit (``$<$``) may become words.
MATH_WORD_MAX = 2
#: Acronyms with a usual Chinese rendering: their absence is no warning.
TRANSLATED_ACRONYMS = frozenset(
    ("VRAM", "QA", "OS", "E2E", "URL", "URLs", "AI", "ML", "CPU", "GPU", "RAM", "DRAM", "ONLY")
)
#: Capitalised Latin abbreviations that are no acronyms when a colon follows them: "NB:" (nota
#: bene) and "PS:" are written 注意 / 附注 ("NB" alone may be Naive Bayes).
NOTE_WORDS = frozenset(("NB", "PS"))
#: Common acronyms and their standard Chinese renderings (a maintained table, not the site
#: glossary: the paragraph checks' findings are memoised by the block alone): such an acronym,
#: or its plural (APIs), may be absent where one of its renderings is there (LM head: 语言模型头;
#: file- and object-based APIs: 文件接口和对象接口; an Ethernet NIC: 以太网网卡), unless the
#: original defines it in parentheses ("network interface cards (NICs)": a defined acronym is
#: kept). The convention: a generic acronym of computing with one settled Chinese word is
#: listed; an acronym of the paper's own terms (DP, TP, FSDP) or of the field's (LLM, RAG,
#: TTFT, RTT, WAN), which the seeded sets' translators keep (大语言模型 alone for LLM is a
#: seeded mistake there), is not. A site's glossary wins over the table: an acronym it lists is
#: judged by the glossary check alone (its renderings, or ``keep_en``), not here.
ACRONYM_RENDERINGS = {
    "LM": ("语言模型",),
    "VM": ("虚拟机",),
    "CO2": ("二氧化碳",),
    "API": ("接口",),
    "NIC": ("网卡",),
    # Countries and unions, and a count of code, by their one Chinese name: the EU AI Act is
    # 欧盟《人工智能法案》, 2,000 LOC is 2000 行代码.
    "US": ("美国", "美元"),
    "USA": ("美国",),
    "USD": ("美元",),
    "USC": ("美国法典",),  # 17 USC 105: 《美国法典》第 17 编第 105 条
    "UK": ("英国",),
    "EU": ("欧盟", "欧洲联盟"),
    "UN": ("联合国",),
    "LOC": ("代码行", "行代码"),
    "KLOC": ("代码行", "行代码"),
    # and a few generic words of computing and business with one settled rendering
    "UI": ("界面",),
    "CLI": ("命令行",),
    "DB": ("数据库",),
    "FAQ": ("常见问题",),
    "CEO": ("首席执行官",),
}

#: Units a factor or share is written with: 2× may become 两倍, 5% 一半 (DZ405's equivalents).
_FACTOR_UNITS = frozenset(("×", "%"))

_IGNORE_RE = re.compile(r"<!--\s*duizhao-ignore(\s[^>]{0,500}?)-->")
_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_HAN_RE = re.compile(f"[{_HAN}]")
# A comma, semicolon, colon, ! or ? after Chinese text is half-width before Chinese or before a
# digit or Latin word (集群;7B 和 13B); a full stop only between Chinese characters (配置.yaml).
_HALFWIDTH_RE = re.compile(
    f"(?<=[{_HAN}])[,;:!?](?=[{_HAN}]| ?[A-Za-z0-9])|(?<=[{_HAN}])\\.(?=[{_HAN}])"
)
_FULLWIDTH_RE = re.compile("[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]+")
_SPACING_RE = re.compile(f"[{_HAN}][A-Za-z0-9]|[A-Za-z0-9][{_HAN}]")
# Words, joined into runs by scanning (a pattern of repeated words backtracks quadratically
# through a long word that no run follows: issue 19).
_LATIN_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'\-]*")
_ACRONYM_RE = re.compile(r"\b([A-Z][A-Z0-9]*[A-Z][A-Z0-9]*)s?\b")
#: A mixed-case acronym defined in parentheses after its expansion: quality of experience
#: (QoE), mixture of experts (MoE); it must have this many capitals.
_DEFINED_ACRONYM_RE = re.compile(r"\(([A-Za-z][A-Za-z0-9\-]{1,11})\)")
DEFINED_ACRONYM_MIN_CAPITALS = 2
#: How far before a translation's acronym its definition's parenthesis may open (强化学习（即
#: reinforcement learning，RL）), and how far after it one may follow (RL（强化学习）).
DEFINITION_REACH = 40
DEFINITION_GAP = 3
_DIGIT_RE = re.compile(r"\d")
#: Units compared when a number carries one on both sides (lower case); a prefixed family is
#: listed whole (W and Wh: 391 MWh written 391 kWh is a change).
_LATIN_UNITS = frozenset(
    [
        "b",
        "kb",
        "mb",
        "gb",
        "tb",
        "pb",
        "kib",
        "mib",
        "gib",
        "tib",
        "ns",
        "us",
        "µs",
        "μs",
        "ms",
        "s",
        "min",
        "h",
        "hz",
        "khz",
        "mhz",
        "ghz",
        "x",
        "×",
        "%",
        "tok/s",
        "req/s",
        "gb/s",
        "mb/s",
        "tb/s",
        "tflops",
        "gflops",
        "pflops",
        "w",
        "kw",
        "mw",
        "gw",
        "tw",
        "wh",
        "kwh",
        "mwh",
        "gwh",
        "twh",
    ]
)


def ignored_codes(text: str) -> frozenset[str]:
    """Codes a ``<!-- duizhao-ignore DZ4xx DZ4yy -->`` comment in ``text`` suppresses."""
    if "duizhao-ignore" not in text:
        return frozenset()
    return frozenset(
        code for mt in _IGNORE_RE.finditer(text) for code in mt.group(1).replace(",", " ").split()
    )


def _multiset_diff(a: Iterable[str], b: Iterable[str]) -> tuple[list[str], list[str]]:
    ca, cb = Counter(a), Counter(b)
    return sorted((ca - cb).elements()), sorted((cb - ca).elements())


def _short(items: Iterable[str], limit: int = 3) -> str:
    shown = [f"'{s[:40]}'" for s in items]
    more = f" (+{len(shown) - limit})" if len(shown) > limit else ""
    return ", ".join(shown[:limit]) + more


def check_code(o: m.Masked, t: m.Masked) -> str | None:
    """Inline code of the original missing or retyped. A translation may add code (an
    identifier the original names in prose), and may write a span the original repeats fewer
    times when it writes it at least once, retypes nothing and never writes it as prose ("this
    `FlatParameter` … within the `FlatParameter`": "`FlatParameter` 使得对其中的参数……",
    referring back with 其中 or 它). A span dropped everywhere, dropped where another span is
    new (retyped), or left in the prose without its backticks is an error, unless the original
    writes it as prose too (an identifier plain at its first mention, code at its second): the
    translation may then write it plain."""
    missing, extra = _multiset_diff(o.code, t.code)
    if missing and not extra:
        present = set(t.code)
        missing = [
            span
            for span in missing
            if (span not in present or span in t.prose) and not _plain_in_both(span, o, t)
        ]
    if not missing:
        return None
    parts = []
    if missing:
        parts.append(f"missing {_short(missing)}")
    if extra:
        parts.append(f"not in the original {_short(extra)}")
    return "inline code differs from the original: " + "; ".join(parts)


def _plain_in_both(span: str, o: m.Masked, t: m.Masked) -> bool:
    """Does the original write ``span`` as prose too ("pprof (…). Start by installing
    ``pprof``", code) and the translation write it at all? Then the translation follows the
    original's plain mention ("pprof（…）……安装它")."""
    return _has_word(o.prose, span) and (span in t.code or _has_word(t.prose, span))


def check_math(o: m.Masked, t: m.Masked) -> str | None:
    missing, _extra = _multiset_diff(o.math, t.math)
    missing = [x for x in missing if len(x) > MATH_WORD_MAX or any(c.isalnum() for c in x)]
    if not missing:  # ``$<$`` may become 不到, a translation may add a symbol
        return None
    return f"math differs from the original: {_short(missing)}"


def check_links(o: m.Masked, t: m.Masked) -> str | None:
    missing, extra = _multiset_diff(set(o.targets), set(t.targets))
    # A translation may add the site's own cross-references: [P042](#P042), [](#fig-3),
    # [第 7 篇](a007.md#P017) are the translator's, not the paper's.
    extra = [x for x in extra if not m.is_site_link(x)]
    if not missing and not extra:
        if t.bare and (unlinked := sorted(set(t.bare) - set(o.bare))):
            return f"link {_short(unlinked[:1])} of the original is written as a bare URL"
        return None
    what = f"missing {_short(missing)}" if missing else f"not in the original {_short(extra)}"
    return f"link targets differ from the original: {what}"


def check_citations(o: m.Masked, t: m.Masked) -> str | None:
    oc, tc = cite.citations(o.prose), cite.citations(t.prose)
    if oc != tc:
        missing = sorted((oc - tc).elements())
        extra = sorted((tc - oc).elements())
        what = f"missing [{', '.join(map(str, missing))}]" if missing else ""
        if extra:
            what += ("; " if what else "") + f"not in the original [{', '.join(map(str, extra))}]"
        return f"citations differ from the original: {what}"
    for surname, year in sorted(cite.author_years(o.prose)):
        if year not in t.prose or not _has_word(t.prose, surname):
            return f"citation {surname} ({year}) missing from the translation"
    return None


def _has_word(prose: str, word: str, *, plural: bool = False) -> bool:
    """``word`` in ``prose`` as a word of its own, not inside a longer one (Lin in Ling, DP in
    FSDP); with ``plural``, an s may follow (LLMs)."""
    start = prose.find(word)
    while start >= 0:
        end = start + len(word)
        if plural and prose[end : end + 1] == "s":
            end += 1
        if not (start and _is_letter(prose[start - 1])) and not (
            end < len(prose) and _is_letter(prose[end])
        ):
            return True
        start = prose.find(word, start + 1)
    return False


def _is_letter(ch: str) -> bool:
    return ch.isascii() and ch.isalpha()


def check_references(o: m.Masked, t: m.Masked) -> str | None:
    orf = m.references(o.prose, chinese=False)
    tprose = m.halfwidth_digits(t.prose)
    trf = m.references(tprose, chinese=True, accept=orf) | fm.articles(tprose, orf)
    trf |= fm.kept_sections(tprose, orf)  # 42 U.S.C. § 1983 quoted unchanged
    missing = sorted(orf - trf)
    if not missing:
        extra = sorted(trf - orf)
        if not extra or not orf:  # a translation may add 如图 3 where the original says "it"
            return None
        return f"reference {_ref(extra[0])} is not in the original"
    return f"reference {_ref(missing[0])} of the original has no counterpart in the translation"


def _ref(ref: tuple[str, str]) -> str:
    return f"{ref[0]} {ref[1]}"


def check_numbers(o: m.Masked, t: m.Masked) -> str | None:
    op = eq.times_signs(m.strip_references(cite.strip_citations(o.prose), chinese=False))
    tp = eq.times_signs(m.halfwidth_digits(t.prose))  # x between digits, kept as written
    orf = m.references(o.prose, chinese=False)
    tp = fm.strip_articles(cite.strip_citations(tp), orf)  # Section 5 of an act: 第 5 条
    tp = m.strip_references(tp, chinese=True, accept=orf)
    tp = m.strip_references(tp, chinese=False)  # an English sentence left in the translation
    ov, tv = eq.versions(op), eq.versions(tp)
    if ov or tv:
        if missing_version := sorted(ov - tv):
            return f"version {missing_version[0]} of the original is missing or changed"
        op, tp = eq.strip_versions(op), eq.strip_versions(tp)
    # A number that moved in or out of math or code (delimiters dropped) is DZ402/DZ401's, and
    # so is one of a code span changed (`DIV 8` written `DIV 4`: the 4 may be in the prose).
    changed = _changed_code(o, t)
    on = set(m.numbers(op)) - set(m.numbers(" ".join((*t.math, *t.code, *changed))))
    tn = set(m.numbers(tp)) - set(m.numbers(" ".join((*o.math, *o.code, *changed))))
    if on != tn:
        missing = on - tn - m.zh_word_numbers(tp)
        if missing and o.links:
            missing = missing - _in_link_targets(o)
        if missing:
            missing = missing - fm.idiom_numbers(op, tp)  # runs 24/7: 全天候运行
        extra = tn - on
        for excused in _EXTRA_WORDS:  # each read only while something is left to excuse
            if extra:
                extra = extra - excused(op)
        if missing or extra:
            missing, extra = _equivalents(op, tp, on, missing, extra)
        if missing:
            return f"number {sorted(missing)[0]} of the original is missing or changed"
        if extra:
            return f"number {sorted(extra)[0]} is not in the original"
    return (
        _check_units(op, tp)
        or _check_number_words(fm.strip_word_magnitudes(op), tp)
        or nw.check_formulas(op, " ".join((tp, *t.code)))
    )


def _in_link_targets(o: m.Masked) -> set[str]:
    """The numbers of the original's link texts that their targets hold ([issue 1234](…/1234),
    [arxiv.org/abs/2401.12345](…)): a translation may word the text without them (该问题);
    DZ403 compares the target."""
    out: set[str] = set()
    for text, target in o.links:
        for mt in m._number_matches(text):
            if _has_digits(target, mt.group(1) + (mt.group(2) or "")):
                out.update(m.numbers(mt.group(0)))
    return out


def _has_digits(text: str, digits: str) -> bool:
    """``digits`` in ``text`` as a number of its own (1234 in /issues/1234, not in /12345)."""
    start = text.find(digits)
    while start >= 0:
        end = start + len(digits)
        if not (start and text[start - 1].isdigit()) and not text[end : end + 1].isdigit():
            return True
        start = text.find(digits, start + 1)
    return False


#: What the original may write an extra number of the translation as: number words (ten
#: million is 1e7, not 10), a month's name before its year or with its day.
_EXTRA_WORDS = (
    lambda op: m.en_word_numbers(fm.strip_word_magnitudes(op)),
    cite.month_numbers,
    fm.date_months,
)


def _changed_code(o: m.Masked, t: m.Masked) -> list[str]:
    """The code spans of either side that the other does not have (DZ401 reports them)."""
    if not o.code and not t.code:
        return []
    missing, extra = _multiset_diff(o.code, t.code)
    return missing + extra


def _equivalents(
    op: str, tp: str, on: set[str], missing: set[str], extra: set[str]
) -> tuple[set[str], set[str]]:
    """``missing`` and ``extra`` without what a correct translation may write otherwise:
    a magnitude suffix as 万 / 亿 (50k: 5 万), a percentage as an exact fraction (50%: 一半),
    a factor of 2 as a word (2×: 一半), dozens as their value (two dozen: 24, 二十多), a factor
    as a reciprocal (40–100×: 1/100–1/40), a version without its v (v1.2: 1.2 版)."""
    if "v" in op or "V" in op or "v" in tp or "V" in tp:
        extra = extra - fm.v_numbers(op)
        missing = missing - fm.v_numbers(tp)
    extra = extra - fm.word_magnitudes(op)  # ten million: 1000 万
    if missing and "年代" in tp:  # the 1990s: 20 世纪 90 年代
        years, centuries = fm.decades(op, tp)
        missing, extra = missing - years, extra - centuries - years
    if "50" in extra and "%" in m.units(tp).get("50", ()) and _says_half(op):
        extra = extra - {"50"}  # half, halved: 50%
    scaled = eq.magnitudes(op)
    if scaled:
        missing = {v for v in missing if scaled.get(v) not in extra}
        extra = extra - set(scaled.values())
    if missing and ("半" in tp or "分之" in tp):
        percents = {v for v, u in m.units(op).items() if "%" in u}
        missing -= percents & eq.zh_fraction_percents(tp)
    if "2" in missing and eq.zh_factor_two(tp) and "×" in m.units(op).get("2", ()):
        missing = missing - {"2"}  # shrinks by 2×: 缩小一半
    if extra and (dozens := eq.dozen_values(op, tp)):
        extra = extra - dozens  # two dozen: 24, 二十多
    if "1" in extra and (denominators := eq.reciprocal_denominators(tp)) is not None:
        factors = {v for v, u in m.units(op).items() if "×" in u} | (on & denominators)
        if denominators <= on and denominators & factors:
            extra = extra - {"1"}
    return missing, extra


def _says_half(prose: str) -> bool:
    low = prose.lower()
    return "half" in low or "halv" in low


def _is_latin_unit(unit: str) -> bool:
    return unit.lower() in _LATIN_UNITS or m.is_unit_of_grammar(unit)


def _check_units(op: str, tp: str) -> str | None:
    ou, tu = m.units(op), m.units(tp)
    for value, unit_set in ou.items():
        there = tu.get(value)
        if (
            there
            and not _rates(unit_set) & _rates(there)
            and not _per_second(value, unit_set, there, op, tp)
            and any(map(_is_latin_unit, unit_set))
            and any(map(_is_latin_unit, there))
        ):
            was, now = sorted(_rates(unit_set))[0], sorted(_rates(there))[0]
            was, now = m.written_unit(op, value, was), m.written_unit(tp, value, now)
            return f"unit of {value} changed: {was} → {now}"
    if any(u in eq.TIME_UNIT for us in ou.values() for u in us):
        return _check_bound_units(ou, tu, op) or _check_time_units(op, tp)
    return _check_bound_units(ou, tu, op)


def _rates(unit_set: set[str]) -> set[str]:
    """A number's units without its thousands suffix where a rate follows it (9K tok/s)."""
    return unit_set - {"k"} if len(unit_set) > 1 and "k" in unit_set else unit_set


def _per_second(value: str, unit_set: set[str], there: set[str], op: str, tp: str) -> bool:
    """Is a rate written with its per-second word on the other side: 32 GB/s as 每秒 32 GB
    or 32 GB 每秒, 2 GB per second as 2 GB/s?"""
    if any(u.removesuffix("/s") in there for u in unit_set if u.endswith("/s")):
        return value in fm.per_second_values(tp)
    if any(u.removesuffix("/s") in unit_set for u in there if u.endswith("/s")):
        return value in fm.per_second_values(op)
    return False


def _check_bound_units(ou: dict[str, set[str]], tu: dict[str, set[str]], op: str) -> str | None:
    """A number with a unit matches with its unit: 30 ms written 3 ms is a change even where
    the paragraph has a 3 elsewhere (the numbers alone then agree); 9K tok/s may be 9000 tok/s."""
    for value, unit_set in ou.items():
        for unit in unit_set:
            if unit in tu.get(value, ()) or not _is_latin_unit(unit) or unit in _FACTOR_UNITS:
                continue
            scaled = eq.magnitudes(op).get(value) if "k" in unit_set else None
            new = [
                v
                for v, us in tu.items()
                if unit in us and unit not in ou.get(v, ()) and v != scaled
            ]
            if new:
                return f"number {value} {unit} of the original is written {sorted(new)[0]} {unit}"
    return None


def _check_time_units(op: str, tp: str) -> str | None:
    """A time unit changed between English and Chinese (3 minutes written 3 秒钟)."""
    ot = eq.time_units(op)
    if not ot:
        return None
    tt = eq.time_units(tp)
    for value, names in ot.items():
        there = tt.get(value)
        if there and not names & there:
            return f"unit of {value} changed: {sorted(names)[0]} → {sorted(there)[0]}"
    return None


def _check_number_words(op: str, tp: str) -> str | None:
    """A small number word of the original (three) that the translation writes as no
    numeral, digit or word of that value (三, 3)."""
    words = m.en_small_numbers(op)
    if not words:
        return None
    have = m.zh_number_values(tp, set(m.numbers(op)))
    dozens = eq.dozen_words(op) if have & eq.dozen_values(op, tp) else set()
    for value, word in sorted(words.items()):
        if (
            value not in have
            and word.lower() not in dozens  # two dozen: 24
            and not nw.digits_cover(op, tp, value)  # 8 tokens … eight tokens: 8 … 8
        ):
            return f"number {word!r} ({value}) of the original is missing or changed"
    changed = nw.changed_count(op, tp, words)
    if changed is None:
        changed = nw.changed_attached_count(op, tp, words)  # 两阶段 written 三阶段
    if changed is not None:
        return f"number {words[changed]!r} ({changed}) of the original is missing or changed"
    return _check_word_time_units(op, tp, words)


def _check_word_time_units(op: str, tp: str, words: dict[str, str]) -> str | None:
    """A number word's time unit changed (five minutes written 五秒钟)."""
    ot = nw.word_time_units(op)
    if not ot:
        return None
    tt = nw.zh_numeral_time_units(tp)
    for value, unit in eq.time_units(tp).items():
        tt.setdefault(value, set()).update(unit)
    for value, names in sorted(ot.items()):
        if (there := tt.get(value)) and not names & there:
            word = words.get(value, value)
            return f"unit of {word!r} changed: {sorted(names)[0]} → {sorted(there)[0]}"
    return None


def check_identical(o: m.Masked, t: m.Masked, original: str, translation: str) -> str | None:
    if original.strip() != translation.strip():
        return None
    letters = sum(ch.isalpha() for ch in o.prose)
    return "translation is identical to the original" if letters >= IDENTICAL_MIN_LETTERS else None


def check_untranslated(
    t: m.Masked, o: m.Masked | None = None, terms: frozenset[str] = frozenset()
) -> str | None:
    """A sentence left in English: a run of Latin words, or a stretch of lower-case words that
    numbers and symbols cut; link texts, author-year citations (Patterson et al., 2021) and
    quotations of the original's words are kept on purpose (a cited title, a UI label: 点击“Save
    as draft”)."""
    prose = m.strip_link_texts(t.prose)
    if o is not None:
        prose = fm.strip_kept_quotes(prose, o.prose)
    for term in terms:  # a glossary term of several words kept in English is no sentence
        if " " in term and term in prose:
            prose = prose.replace(term, m.MASK)
    run = _english_run(prose)
    if run is not None:  # (citations are read only where a run is found: the rare case)
        run = _english_run(cite.strip_kept_author_years(prose))
    return None if run is None else f"English left untranslated: '{run[:60]}'"


def _english_run(prose: str) -> str | None:
    return latin_run(prose) or fm.lower_case_sentence(prose, UNTRANSLATED_MIN_LOWER_WORDS)


def latin_run(prose: str, words: int = UNTRANSLATED_MIN_WORDS) -> str | None:
    """The first run of ``words`` or more Latin words separated by spaces and commas only."""
    first = last = None
    count = 0
    for mt in _LATIN_WORD_RE.finditer(prose):
        if (
            last is not None
            and mt.start() > last.end()
            and _only_spaces(prose, last.end(), mt.start())
        ):
            count += 1
        else:
            if count >= words and first is not None and last is not None:
                return prose[first.start() : last.end()]
            first, count = mt, 1
        last = mt
    if count >= words and first is not None and last is not None:
        return prose[first.start() : last.end()]
    return None


def _only_spaces(text: str, start: int, end: int) -> bool:
    return not text[start:end].strip(" ,")


def check_acronyms(
    o: m.Masked, t: m.Masked, glossary_terms: frozenset[str] = frozenset()
) -> str | None:
    """An acronym of the original missing from the translation; ``glossary_terms`` (the site
    glossary's English forms) are the glossary check's to judge. An acronym typed full-width in
    the translation (ＧＢ) is there (DZ424 reports its letters)."""
    tprose = m.halfwidth_digits(t.prose)
    for mt in _ACRONYM_RE.finditer(o.prose):
        word = mt.group(1)
        if (
            word not in TRANSLATED_ACRONYMS
            and word not in glossary_terms
            and not (word in NOTE_WORDS and o.prose.startswith(":", mt.end()))
            and not _has_word(tprose, word, plural=True)  # DP of per-DP-rank is not in FSDP
            and not _rendered(word, o.prose, t.prose)
            and not _unit_compared(word, o.prose, tprose)
        ):
            return f"acronym {word} of the original is missing from the translation"
    if "(" in o.prose:
        for mt in _DEFINED_ACRONYM_RE.finditer(o.prose):
            word = mt.group(1).removesuffix("s")  # LLMs: the plural of LLM
            capitals = sum(ch.isupper() for ch in word)
            if (
                capitals < DEFINED_ACRONYM_MIN_CAPITALS
                or word in glossary_terms
                or word in TRANSLATED_ACRONYMS
            ):
                continue
            if not _has_word(tprose, word, plural=True):
                return f"acronym {word} of the original is missing from the translation"
            if not _kept_at_definition(tprose, word):
                return (
                    f"acronym {word}, which the original defines, is not kept at its definition"
                    f" (中文（{word}）)"
                )
    return None


def _unit_compared(word: str, original: str, translation: str) -> bool:
    """Is acronym ``word`` a unit of a number of the original (1 GB/s) that the translation
    writes with a Latin unit of its own (1 Gb/s)? DZ405 compares the units then."""
    if not m.is_unit_of_grammar(word):
        return False
    name = m.unit_name(word)
    there = m.units(translation)
    return any(
        any(u.removesuffix("/s") == name for u in unit_set)
        and any(map(_is_latin_unit, there.get(value, ())))
        for value, unit_set in m.units(original).items()
    )


def _kept_at_definition(prose: str, word: str) -> bool:
    """Is ``word`` written with its expansion: in parentheses (强化学习（RL）, （RL，…）) or
    before them (RL（强化学习）)? The convention of DZ421: an acronym the original defines
    ("Markov Decision Processes (MDPs)") is defined in the translation too."""
    start = prose.find(word)
    while start >= 0:
        before = prose[max(0, start - DEFINITION_REACH) : start]
        if max(before.rfind("（"), before.rfind("(")) > max(before.rfind("）"), before.rfind(")")):
            return True
        after = prose[start + len(word) : start + len(word) + DEFINITION_GAP].lstrip(" s")
        if after.startswith(("（", "(")):
            return True
        start = prose.find(word, start + 1)
    return False


def _rendered(word: str, original: str, translation: str) -> bool:
    """Is acronym ``word`` written as one of its standard renderings? Not when the original
    defines it ("network interface card (NIC)", "(NICs)"): a translation keeps a defined
    acronym."""
    renderings = ACRONYM_RENDERINGS.get(word)
    if renderings is None or f"({word})" in original or f"({word}s)" in original:
        return False
    return any(zh in translation for zh in renderings)


def check_halfwidth(t: m.Masked) -> str | None:
    mt = _HALFWIDTH_RE.search(t.prose)
    if mt is None:
        return None
    where = (
        "between Chinese characters" if _HAN_RE.match(t.prose, mt.end()) else "after Chinese text"
    )
    return f"half-width '{mt.group(0)}' {where}"


def check_fullwidth(t: m.Masked) -> str | None:
    mt = _FULLWIDTH_RE.search(t.prose)
    return None if mt is None else f"full-width letters or digits '{mt.group(0)}'"


def check_spacing(t: m.Masked) -> str | None:
    mt = _SPACING_RE.search(t.prose)
    if mt is None:
        return None
    return f"no space between Chinese and Latin or digits in '{mt.group(0)}'"


def check_block(
    original: str, translation: str, glossary_terms: frozenset[str] = frozenset()
) -> Iterator[Finding]:
    """The findings of one block, in code order; nothing when either side is empty.
    ``glossary_terms``: the site glossary's English forms (DZ421 leaves them to it)."""
    if not original or not translation:
        return
    o, t = m.mask(original), m.mask(translation)
    if (msg := check_identical(o, t, original, translation)) is not None:
        yield "DZ407", msg
        return  # every other check would only repeat it
    if (o.code or t.code) and (msg := check_code(o, t)):
        yield "DZ401", msg
    if (o.math or t.math) and (msg := check_math(o, t)):
        yield "DZ402", msg
    if (o.targets or t.targets) and (msg := check_links(o, t)):
        yield "DZ403", msg
    if (msg := check_citations(o, t)) is not None:
        yield "DZ404", msg
    has_digit = _DIGIT_RE.search(o.prose) or _DIGIT_RE.search(t.prose)
    if (has_digit or m.has_small_number(o.prose)) and (msg := check_numbers(o, t)):
        yield "DZ405", msg
    if has_digit and (msg := check_references(o, t)):
        yield "DZ406", msg
    if (msg := check_untranslated(t, o, glossary_terms)) is not None:
        yield "DZ420", msg
    if (msg := check_acronyms(o, t, glossary_terms)) is not None:
        yield "DZ421", msg
    if (msg := check_halfwidth(t)) is not None:
        yield "DZ423", msg
    if (msg := check_fullwidth(t)) is not None:
        yield "DZ424", msg
    if (msg := check_spacing(t)) is not None:
        yield "DZ425", msg


def check_paragraphs(paragraphs: Iterable[Paragraph], path: Path) -> Iterator[Diagnostic]:
    """Diagnostics for an article's paragraph blocks, at the blocks' lines."""
    for p in paragraphs:
        original, translation = p.original, p.translation
        if not original or not translation or p.is_todo:
            continue
        skip = ignored_codes(translation)
        for code, message in check_block(original, translation):
            if code not in skip:
                yield Diagnostic(path, p.line, code, f"{p.id}: {message}")
