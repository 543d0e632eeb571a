"""Masking and extraction: what a paragraph check compares, and what it must not read as prose.

Inline code, math, link and image targets, bare URLs and HTML are replaced by one private-use
character each (so spacing and punctuation checks see a neutral token) and returned apart.
Every pattern is compiled once; a block without a trigger character skips its pattern.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

#: What a masked span becomes in the prose: neither Latin, digit nor Han.
MASK = "\ue000"

# Fences and code spans are found by scanning, not by a pattern with a back-reference to the
# opening run (which backtracks cubically on a line of backticks: issue 19).
_BACKTICKS_RE = re.compile(r"`+")
_LIST_MARKER_RE = re.compile(r"^[ \t]*(\d{1,9})[.)](?=[ \t])")
_MATH_RE = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$(?!\s)([^$\n]+?)(?<!\s)\$", re.S)
# [text](target) and ![alt](target): the text stays prose, the target is masked (an image's
# '!' stays). The parentheses are read apart (``<url> "title"``): a pattern of the target's
# parts with their optional spaces is one recheck cannot decide in time.
_LINK_RE = re.compile(r"\[([^\[\]\n]*)\]\(([^()\n]*)\)")
#: The label duizhao gives an empty link to a placement of the page (``#fig-3``, ``#table-2``).
_ANCHOR_LABEL = {"#fig": "图", "#table": "表"}
_URL_RE = re.compile(r"<?https?://[^\s<>)\]，。、；：！？（）\u3400-\u9fff]+>?")
_AUTOLINK_STARTS = ("<http://", "<https://")
#: What ends a bare URL's sentence and is no part of it, as GFM's autolinks read them: a URL
#: "… from: https://developer.nvidia.com/nccl." ends before its full stop.
_URL_TRAILING = ".,:;!?*_~'\""
# HTML comments are found by scanning (an unclosed "<!--" would make every later one scan to
# the end); tags end at the next '<' or '>'.
_TAG_RE = re.compile(r"</?[A-Za-z][^<>\n]*>")


class Masked(NamedTuple):
    prose: str
    code: tuple[str, ...]
    math: tuple[str, ...]
    targets: tuple[str, ...]
    #: The targets written as bare URLs (also in ``targets``): a link's markup dropped.
    bare: tuple[str, ...] = ()
    #: Each link's text and target ([issue 1234](…/issues/1234)).
    links: tuple[tuple[str, str], ...] = ()


def mask(text: str) -> Masked:
    """``text`` with code, math, link targets, URLs and HTML masked, and what was masked."""
    code: list[str] = []
    math: list[str] = []
    targets: list[str] = []
    bare: list[str] = []
    links: list[tuple[str, str]] = []
    if "```" in text or "~~~" in text:  # code blocks: translators may translate comments
        text = _mask_fences(text)
    if ". " in text or ") " in text:
        text = _mask_list_markers(text)
    if "`" in text:
        text = _mask_code_spans(text, code)
    if "$" in text:

        def _math(m: re.Match[str]) -> str:
            math.append("".join((m.group(1) or m.group(2) or "").split()))
            return MASK

        text = _MATH_RE.sub(_math, text)
    if "](" in text:

        def _link(m: re.Match[str]) -> str:
            text, inside = m.group(1), m.group(2).strip()
            if inside.startswith("<") and ">" in inside:
                target = inside[1 : inside.index(">")]
            else:
                target = inside.split(None, 1)[0] if inside else ""
            if not target:
                return m.group(0)  # no target: not a link
            targets.append(target)
            links.append((text, target))
            label = _ANCHOR_LABEL.get(target.partition("-")[0]) if target[:1] == "#" else None
            if label is not None and not text:
                # duizhao gives an empty link to a figure or table of the page its label:
                # [](#fig-3) reads 图 3
                text = label + " " + target.partition("-")[2]
            elif label is None and is_site_link(target):
                # the translator's cross-reference ([第 2 篇的 P014](a002.md#P014)): its text
                # is not the paper's
                text = MASK
            return "[" + text + "]" + MASK

        text = _LINK_RE.sub(_link, text)
    if "<" in text:
        if "<!--" in text:
            text = _mask_comments(text)
        # (an autolink, <https://…>, is a link target, read with the bare URLs below)
        text = _TAG_RE.sub(_tag, text)
    if "://" in text:

        def _url(m: re.Match[str]) -> str:
            url = m.group(0)
            if url.startswith("<") and url.endswith(">"):
                targets.append(url[1:-1])
                bare.append(url[1:-1])
                return MASK
            target = url.rstrip(_URL_TRAILING)
            targets.append(target.strip("<>"))
            bare.append(target.strip("<>"))
            return MASK + url[len(target) :]

        text = _URL_RE.sub(_url, text)
    return Masked(text, tuple(code), tuple(math), tuple(targets), tuple(bare), tuple(links))


def _tag(mt: re.Match[str]) -> str:
    return mt.group(0) if mt.group(0).startswith(_AUTOLINK_STARTS) else MASK


def is_site_link(target: str) -> bool:
    """A link within the site: a fragment, or a relative path to a page (``a007.md#P017``)."""
    if target[:1] == "#":
        return True
    path = target.partition("#")[0]
    return path.endswith(".md") and ":" not in path and not path.startswith("//")


def _mask_list_markers(text: str) -> str:
    """Ordered list markers (``2.``, ``3)``) as :data:`MASK`. As in CommonMark, a list starts
    after a blank line or at the top, or with 1 inside a paragraph: a wrapped line that starts
    with a sentence's last number ("… achieves\n279. The …") is prose."""
    lines = text.split("\n")
    can_start = True  # at the top, after a blank line or after an item
    for i, line in enumerate(lines):
        marker = _LIST_MARKER_RE.match(line)
        if marker is not None and (can_start or marker.group(1) == "1"):
            lines[i] = MASK + line[marker.end() :]
            can_start = True
        else:
            can_start = not line.strip()
    return "\n".join(lines)


def _fence(line: str) -> str | None:
    """The fence a line opens or closes (three or more backticks or tildes), or None."""
    body = line.lstrip(" \t")
    char = body[:1]
    if char not in ("`", "~") or not body.startswith(char * 3):
        return None
    return char * (len(body) - len(body.lstrip(char)))


def _mask_fences(text: str) -> str:
    """Fenced code blocks (an unclosed one runs to the end) as one :data:`MASK` each: a line
    of the same fence (and spaces or tabs) closes one."""
    out: list[str] = []
    fence: str | None = None
    for line in text.splitlines(keepends=True):
        if fence is None:
            opener = _fence(line) if line.endswith("\n") else None
            if opener is not None:
                fence = opener
                out.append(MASK)
            else:
                out.append(line)
        elif line.rstrip("\n").strip(" \t") == fence:
            fence = None
            out.append("\n" if line.endswith("\n") else "")
    return "".join(out)


def _mask_code_spans(text: str, code: list[str]) -> str:
    """Code spans as one :data:`MASK` each, their contents (stripped) appended to ``code``.

    As CommonMark reads them: a run of backticks opens a span that the next run of the same
    length closes; a run that nothing closes is text.
    """
    runs = [(m.start(), m.end()) for m in _BACKTICKS_RE.finditer(text)]
    starts: dict[int, list[int]] = {}  # length -> the starts of the runs of that length
    for start, end in runs:
        starts.setdefault(end - start, []).append(start)
    out: list[str] = []
    done = 0
    for start, end in runs:
        if start < done:
            continue  # inside the span just closed
        same = starts[end - start]
        k = bisect.bisect_right(same, start)
        if k == len(same):
            continue  # nothing closes it: text
        close = same[k]
        out += [text[done:start], MASK]
        code.append(text[end:close].strip())
        done = close + (end - start)
    out.append(text[done:])
    return "".join(out)


def _mask_comments(text: str) -> str:
    """HTML comments as one :data:`MASK` each (an unclosed one is text, as is what follows)."""
    out: list[str] = []
    pos = 0
    while True:
        start = text.find("<!--", pos)
        if start < 0:
            break
        end = text.find("-->", start + 4)
        if end < 0:
            break
        out += [text[pos:start], MASK]
        pos = end + 3
    out.append(text[pos:])
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Figure, table, section and equation references

_REF_EN_RE = re.compile(
    r"\b((?i:Figures?|Figs?\.|Tables?|Tab\.|Sections?|Sec\.|§|Equations?|Eqs?\.|Appendix|Algorithm))"
    r"\s*\(?(\d+(?:\.\d+)*|[A-Z](?:\.\d+)*)\)?(\s*\([a-z]\)|[a-z](?![a-z]))?",
)
#: The section sign read as its words (§ is no word character, so the pattern's word boundary
#: never holds before it after a space or '(': "in §3.2" and "(§6.5)" were no references).
_SECTION_SIGNS = (("§§", "Sections "), ("§", "Section "))


def _section_words(prose: str) -> str:
    """English ``prose`` with § and §§ as Section and Sections (§§3–4: Sections 3–4)."""
    if "§" not in prose:
        return prose
    for sign, words in _SECTION_SIGNS:
        prose = prose.replace(sign, words)
    return prose


_REF_ZH_RE = re.compile(
    r"(图|表|式|公式|方程|附录|算法|第)\s*\(?(\d+(?:\.\d+)*|[A-Z](?:\.\d+)*)\)?"
    r"(\s*\([a-z]\)|[a-z](?![a-z]))?\s*(节(?!点)|章)?"
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


#: A reference's list continued without its word (matched at the end of a reference): after
#: a plural in English ("Figures 3 and 4"); in Chinese ("图 11(a) 和 11(b)", "第 3.1 节和 3.2
#: 节") tentatively, a reference only where the original has it (图 3 和 5 次运行 is a count); a
#: range's end too ("§§3–4", "第 3–4 节", "Sections 3.1 to 3.4", "第 3.1 至 3.4 节": a range is
#: read as its two ends, as a translation writes it).
_REF_MORE_RE = re.compile(
    r"\s{0,3}(?:,|，|、|and\b|or\b|&|to\b|through\b|和|与|及|或|以及|–|—|-|至|到)\s{0,3}"
    r"(?:第\s{0,3})?(\d+(?:\.\d+)*)"
    r"(?![\d.]\d)"
    r"(\s{0,3}\([a-z]\)|[a-z](?![a-z]))?\s{0,3}(?:节(?!点)|章)?"
)
#: A section written with its number and 节 or 章 only (5.3 节, no 第): read after the numbers
#: of :data:`_NUM_RE` (a pattern of its own, from every digit, cost 10-25 µs a block).
_ZH_SECTION_WORDS = ("节", "章")
#: Words that start with one of them and are no section: 节点 (node: 160 节点的集群).
_ZH_NOT_SECTION = ("节点",)
#: A bare section range's first number (3– of 3–4 节), read back from the second, at most
#: this many characters before it (bounded runs: a run tried from each digit is quadratic).
_ZH_RANGE_START_RE = re.compile(
    r"(?<![\d.])(\d{1,4}(?:\.\d{1,4}){0,3})\s{0,3}([–—\-至到]|[、和与及])\s{0,3}$"
)
#: The list connectors of a bare section's first number (3、4 节, 3 和 4 节): tentative, a
#: section only where the original has it (a range's dash or 至 is no count).
_ZH_LIST_JOINERS = frozenset("、和与及")
_RANGE_START_MAX = 16
#: How far after a number its Chinese word may start (spaces).
_WORD_AFTER_MAX = 3


def _words_after_numbers(prose: str, words: tuple[str, ...]) -> Iterator[tuple[re.Match[str], str]]:
    """Each number of ``prose`` without a unit that one of ``words`` follows, and the word."""
    for m in _number_matches(prose):
        if m.group(3) or m.group(4):
            continue
        after = prose[m.end() : m.end() + _WORD_AFTER_MAX + 3]
        tail = after.lstrip(" ")
        for word in words:
            if tail.startswith(word) and len(after) - len(tail) <= _WORD_AFTER_MAX:
                yield m, word
                break


_REF_EN_PLURALS = ("figures", "figs.", "tables", "sections", "equations", "eqs.")
#: (kind, number with sub-panel, start, end, tentative)
_Span = tuple[str, str, int, int, bool]


def _reference_spans(prose: str, *, chinese: bool) -> Iterator[_Span]:
    """Each reference, its list continued (:data:`_REF_MORE_RE`)."""
    if chinese:
        for m in _REF_ZH_RE.finditer(prose):
            word = m.group(1)
            if word == "第":
                if m.group(4) is None:
                    # 第 54 版 is a number, not a section; 第 3–4 节 and 第 3、5 节 are sections
                    more = list(_continued(prose, "section", m.end(), tentative=False))
                    if more and prose[more[-1][3] - 1] in _ZH_SECTION_WORDS:
                        yield "section", m.group(2), m.start(), m.end(), False
                        yield from more
                    continue
                kind = "section"
            else:
                kind = _REF_KIND_ZH[word]
            yield kind, m.group(2) + _panel(m.group(3)), m.start(), m.end(), False
            yield from _continued(prose, kind, m.end(), tentative=True)
        if "节" in prose or "章" in prose:
            for m, word in _words_after_numbers(prose, _ZH_SECTION_WORDS):
                end = prose.index(word, m.end()) + len(word)
                if prose.startswith(_ZH_NOT_SECTION, end - len(word)):
                    continue  # 160 节点: nodes
                first = _ZH_RANGE_START_RE.search(
                    prose, max(0, m.start() - _RANGE_START_MAX), m.start()
                )
                if first is not None:  # 3–4 节, 3、4 节
                    listed = first.group(2) in _ZH_LIST_JOINERS
                    yield "section", first.group(1), first.start(), m.start(), listed
                yield "section", prose[m.start() : m.end()], m.start(), end, False
    else:
        for m in _REF_EN_RE.finditer(prose):
            kind = _en_kind(m.group(1))
            yield kind, m.group(2) + _panel(m.group(3)), m.start(), m.end(), False
            if m.group(1).lower() in _REF_EN_PLURALS:
                yield from _continued(prose, kind, m.end(), tentative=False)


def _continued(prose: str, kind: str, pos: int, *, tentative: bool) -> Iterator[_Span]:
    while (more := _REF_MORE_RE.match(prose, pos)) is not None:
        yield kind, more.group(1) + _panel(more.group(2)), more.start(1), more.end(), tentative
        pos = more.end()


Ref = tuple[str, str]


@lru_cache(maxsize=16)
def references(
    prose: str, *, chinese: bool, accept: frozenset[Ref] = frozenset()
) -> frozenset[Ref]:
    """(kind, number with sub-panel) of figure/table/section/equation references; a tentative
    one (a Chinese list continued) only where it is in ``accept`` (the original's)."""
    if not has_reference_word(prose, chinese=chinese):
        return frozenset()
    if not chinese:
        prose = _section_words(prose)
    if not _has_list_or_bare(prose, chinese=chinese):  # the common case, without spans
        if not chinese:
            return frozenset(
                (_en_kind(m.group(1)), m.group(2) + _panel(m.group(3)))
                for m in _REF_EN_RE.finditer(prose)
            )
        return frozenset(
            (_REF_KIND_ZH.get(m.group(1), "section"), m.group(2) + _panel(m.group(3)))
            for m in _REF_ZH_RE.finditer(prose)
            if m.group(1) != "第" or m.group(4) is not None
        )
    return frozenset(
        r[:2] for r in _reference_spans(prose, chinese=chinese) if not r[4] or r[:2] in accept
    )


def _panel(text: str | None) -> str:
    return "" if not text else "(" + text.strip(" ()") + ")"


# What every reference holds: a word of the patterns above (lower case), or one of the Chinese
# words' last characters followed by a number or letter.
_REF_EN_TRIGGERS = (
    "fig", "table", "tab.", "section", "sec.", "§", "equation", "eq.", "eqs.", "appendix",
    "algorithm",
)  # fmt: skip
_REF_ZH_TRIGGER_RE = re.compile(r"[图表式程录法第]\s*\(?[\dA-Z]|\d\s*[节章]")


def has_reference_word(prose: str, *, chinese: bool) -> bool:
    """The cheap prefilter: could ``prose`` hold a reference at all?"""
    if chinese:
        return _REF_ZH_TRIGGER_RE.search(prose) is not None
    # (the words tested in C, by map, not in a generator: the check asks for every block)
    return any(map(prose.lower().__contains__, _REF_EN_TRIGGERS))


def _strip_ref(mt: re.Match[str]) -> str:
    if mt.group(1) == "第" and mt.group(4) is None:
        return mt.group(0)  # 第 54 版 is a number, not a section
    return MASK


def _has_list_or_bare(prose: str, *, chinese: bool) -> bool:
    """Could ``prose`` hold a reference list continued or a bare section (5.3 节)?"""
    if chinese:
        return (
            "节" in prose
            or "章" in prose
            or any(_REF_MORE_RE.match(prose, mt.end()) for mt in _REF_ZH_RE.finditer(prose))
        )
    return any(map(prose.lower().__contains__, _REF_EN_PLURALS))


def strip_references(prose: str, *, chinese: bool, accept: frozenset[Ref] = frozenset()) -> str:
    """``prose`` with its references (tentative ones in ``accept``) as :data:`MASK`: their
    numbers are not figures."""
    if not has_reference_word(prose, chinese=chinese):
        return prose
    if not chinese:
        prose = _section_words(prose)
    if not _has_list_or_bare(prose, chinese=chinese):  # the common case, in one pass
        return _REF_ZH_RE.sub(_strip_ref, prose) if chinese else _REF_EN_RE.sub(MASK, prose)
    out: list[str] = []
    done = 0
    for kind, num, start, end, tentative in sorted(
        _reference_spans(prose, chinese=chinese), key=lambda r: r[2]
    ):
        if start >= done and (not tentative or (kind, num) in accept):
            out += [prose[done:start], MASK]
            done = end
    out.append(prose[done:])
    return "".join(out)


_LINK_TEXT_RE = re.compile(r"\[[^\[\]\n]*\]" + MASK)


def strip_link_texts(prose: str) -> str:
    """``prose`` without the texts of its links (a cited title stays in its language)."""
    return _LINK_TEXT_RE.sub(MASK, prose) if "[" in prose else prose


# ---------------------------------------------------------------------------------------------
# Numbers

# (A digit first, the look behind it after: the search then skips to digits fast.)
_NUM_RE = re.compile(
    r"(\d(?<![A-Za-z0-9_.]\d)(?:\d{0,2}(?:,\d{3})+|\d*))(\.\d+)?(?![\d])"
    r"(?:\s*(万亿|万|亿)|\s*([A-Za-z%×µμ/]+|倍))?"
)
_ZH_SCALE = {"万": 1e4, "亿": 1e8, "万亿": 1e12}
_UNIT_SAME = {"x": "×", "倍": "×", "percent": "%", "us": "µs", "μs": "µs"}
#: Full-width digits and Latin letters as ASCII (Ｌ３ is L3: DZ424's, not a number of its own).
FULLWIDTH_DIGITS = str.maketrans(
    {chr(0xFF10 + i): chr(0x30 + i) for i in range(10)}
    | {chr(0xFF21 + i): chr(0x41 + i) for i in range(26)}
    | {chr(0xFF41 + i): chr(0x61 + i) for i in range(26)}
)
_FULLWIDTH_DIGIT_RE = re.compile("[０-９Ａ-Ｚａ-ｚ]")


def halfwidth_digits(text: str) -> str:
    """``text`` with full-width digits and Latin letters as ASCII ones (a translation may
    write ３; DZ424 reports it)."""
    return text.translate(FULLWIDTH_DIGITS) if _FULLWIDTH_DIGIT_RE.search(text) else text


#: Number words and what a translation may write them as (a single GPU: 1 块; the first: 第 1;
#: "second" is left out, it is mostly the time unit of "per second").
_EN_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "twice": 2, "double": 2, "half": 0.5, "eleven": 11, "twelve": 12,
    "single": 1, "first": 1, "third": 3, "fourth": 4, "fifth": 5, "thirds": 3, "once": 1,
    "both": 2, "pair": 2, "doubles": 2, "doubled": 2, "doubling": 2, "triple": 3, "triples": 3,
    "tripled": 3, "tripling": 3, "quadruple": 4, "quadrupled": 4,
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "twenty": 20,
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


@lru_cache(maxsize=16)
def _number_matches(prose: str) -> tuple[re.Match[str], ...]:
    return tuple(_NUM_RE.finditer(prose))  # (numbers and units of one text are both asked)


def numbers(prose: str) -> list[str]:
    """The digit numbers of ``prose``, canonical (thousands separators removed, 10 亿 = 1e9)."""
    out = []
    for m in _number_matches(prose):
        whole = m.group(1).replace(",", "")
        value = float(whole + (m.group(2) or ""))
        out.append(_canon(value * _ZH_SCALE[m.group(3)] if m.group(3) else value))
    return out


#: A unit of data, rate or work outside the fixed list (lower case): a prefix, a base and a
#: per-second part — Mbit/s, Gbit, Gbps, MiB/s, kbit/sec.
_UNIT_GRAMMAR_RE = re.compile(
    r"(?:[kmgtpe]i?|µ|μ|u|n)?(?:b|bits?|bytes?|flops?|hz|ops|pkts?|packets?)(?:/s|/sec|ps)?"
)
_BASE_RE = re.compile(r"bits?|bytes?|packets?|pkts?|flop\b")
#: A base as compared: bit and byte as b (their case then tells them apart), packet as pkt.
_BASE_NAME = {"bit": "b", "bits": "b", "byte": "b", "bytes": "b", "flop": "flops"}
#: A data unit's parts (lower case): the prefix, the base and the per-second part.
_DATA_UNIT_RE = re.compile(r"([kmgtpe]i?|µ|μ|u|n)?(b|bits?|bytes?)(/s|/sec|ps)?")
#: Prefixes written in lower case (kilo, micro, nano); the others as capitals (M, G, T, P, E).
_LOWER_PREFIXES = "kµμun"


@lru_cache(maxsize=1024)
def unit_name(unit: str) -> str:
    """``unit`` as compared: /sec and ps as /s, bit as b and byte as B, packet as pkt (Mbps,
    Mbit/s and Mb/s are one; MB/s is another), the case of other units and of the k prefix
    folded (kB and KB are one, Hz and hz); a data unit's magnitude letter as a capital
    (GB, Gb), a bare b or B in lower case (7B is seven billion as often as seven bytes)."""
    name = _folded_unit_name(unit)
    parts = _DATA_UNIT_RE.fullmatch(unit.lower())
    if parts is None or not (parts.group(1) or parts.group(3)):
        return name
    prefix, base = parts.group(1) or "", parts.group(2)
    written_base = unit[len(prefix) : len(prefix) + len(base)]
    byte = written_base == "B" if base == "b" else base.startswith("byte")
    if prefix and prefix[0] not in _LOWER_PREFIXES:
        prefix = prefix[0].upper() + prefix[1:]
    return prefix + ("B" if byte else "b") + ("/s" if parts.group(3) else "")


def _folded_unit_name(unit: str) -> str:
    unit = unit.lower()
    unit = _UNIT_SAME.get(unit, unit)
    if not _UNIT_GRAMMAR_RE.fullmatch(unit):
        return unit
    if unit.endswith("/sec"):
        unit = unit[: -len("ec")]
    elif unit.endswith("ps") and not unit.endswith("ops"):
        unit = unit[: -len("ps")] + "/s"
    return _BASE_RE.sub(lambda mt: _BASE_NAME.get(mt.group(), "pkt"), unit, count=1)


def is_unit_of_grammar(unit: str) -> bool:
    """A data, rate or work unit that :data:`_UNIT_GRAMMAR_RE` reads (as :func:`unit_name`)."""
    return _UNIT_GRAMMAR_RE.fullmatch(unit.lower()) is not None


def written_unit(prose: str, value: str, name: str) -> str:
    """The unit of ``value`` in ``prose`` as written whose :func:`unit_name` is ``name`` (for
    messages: GB/s, not gb/s); ``name`` when there is none."""
    for m in _number_matches(prose):
        unit = m.group(4)
        if unit and _canon(float(m.group(1).replace(",", "") + (m.group(2) or ""))) == value:
            if unit_name(unit) == name:
                return unit
            rate = _RATE_AFTER_RE.match(prose, m.end()) if unit in _THOUSANDS else None
            if rate is not None and unit_name(rate.group(1)) == name:
                return rate.group(1)
    return name


def units(prose: str) -> dict[str, set[str]]:
    """Each number's units (as :func:`unit_name`: kB and KB are one, GB and Gb two), where a
    unit follows."""
    out: dict[str, set[str]] = {}
    for m in _number_matches(prose):
        if m.group(4):
            value = _canon(float(m.group(1).replace(",", "") + (m.group(2) or "")))
            out.setdefault(value, set()).add(unit_name(m.group(4)))
            if m.group(4) in _THOUSANDS and (rate := _RATE_AFTER_RE.match(prose, m.end())):
                out[value].add(unit_name(rate.group(1)))  # 9K tok/s: a rate after the k
    return out


#: The thousands suffix, and the rate a word after it may be (9K tok/s, 94K req/s).
_THOUSANDS = ("k", "K")
_RATE_AFTER_RE = re.compile(r" ([A-Za-z]{1,8}/s(?:ec)?)\b")


def en_word_numbers(prose: str) -> set[str]:
    return {_canon(_EN_WORDS[m.group(1).lower()]) for m in _EN_WORD_RE.finditer(prose)}


#: The number words a translation writes as a numeral (一 .. 十二 or digits), never reworded
#: away as "twice" (两倍, 再次), "double" (翻倍) or "hundreds" (数百) may be.
_EN_SMALL = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
             "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
             "nineteen", "twenty", "a hundred", "one hundred", "a thousand",
             "one thousand")  # fmt: skip
#: (Matched in the lower-cased text, first letters first and no boundary test before them,
#: which :func:`_small_words` makes: a case-insensitive alternation of the eleven words, tried
#: at every position, cost 25 µs a block, a third of the number check.)
_EN_SMALL_RE = re.compile(
    r"(t(?:wo|hree|hirteen|en|welve|wenty)|f(?:our|ourteen|ive|ifteen)|s(?:ix|ixteen|even|eventeen)"
    r"|e(?:ight|ighteen|leven)|nine(?:teen)?|(?:a|one) (?:hundred|thousand)"
    r"(?! (?:thousand|million|billion)))\b"
)
assert {w for w in _EN_SMALL if _EN_SMALL_RE.fullmatch(w)} == set(_EN_SMALL)
#: Chinese words for two without a numeral: 双 (dual), 俩.
_ZH_TWO = ("双", "俩")


def en_small_numbers(prose: str) -> dict[str, str]:
    """The small number words of ``prose`` (two .. twelve), canonical value → the word."""
    return {_canon(en_word_value(word)): word for word in _small_words(prose.lower())}


def en_word_value(word: str) -> float:
    """The value of a number word of :data:`_EN_SMALL` (a hundred: 100), lower case."""
    return _EN_WORDS[word.rpartition(" ")[2]]


def has_small_number(prose: str) -> bool:
    return next(_small_words(prose.lower()), None) is not None


def _small_words(low: str) -> Iterator[str]:
    """The small number words of lower-cased ``low`` that start a word ("often" holds none)."""
    for m in _EN_SMALL_RE.finditer(low):
        start = m.start()
        if not start or not (low[start - 1].isalnum() or low[start - 1] == "_"):
            yield m.group(1)


#: What may follow a numeral that still counts: 倍 (两倍), a fraction's slash (2/3: two thirds).
_COUNT_UNITS = ("倍", "/")


def zh_number_values(prose: str, digits_of_original: set[str]) -> set[str]:
    """What a translation may write a small number word as: its Chinese numerals (each digit
    alone too), English number words left in it, 双 / 俩 for two, and its digit numbers
    outside link texts without a Latin unit (1.1B and 3T are names) that are not digits of
    the original (``digits_of_original``: those stand for themselves)."""
    out = zh_word_numbers(prose) | en_word_numbers(prose)
    if any(w in prose for w in _ZH_TWO):
        out.add(_canon(2))
    for m in _number_matches(strip_link_texts(prose)):
        unit = m.group(4)
        if unit is None or unit in _COUNT_UNITS:
            value = float(m.group(1).replace(",", "") + (m.group(2) or ""))
            out.add(_canon(value * _ZH_SCALE[m.group(3)] if m.group(3) else value))
    return out - (digits_of_original - zh_word_numbers(prose))


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
