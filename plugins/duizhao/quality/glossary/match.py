"""Finding glossary terms in text, right on CJK, in time linear in the text.

- English forms: one Aho–Corasick automaton over the lower-cased text (a second one over the
  text as written for ``case: true`` entries); a hit counts only on word boundaries, where a
  boundary is anything but a Latin letter, a digit or ``_`` — so a Chinese character is one
  ("使用LLM进行推理" holds LLM) and "LLMs" is the plural, not another word. Plurals (``-s``,
  ``-es``, ``-y`` → ``-ies``) are forms of their own.
- Chinese renderings: one automaton; a hit is rejected when a longer one overlaps it, and of
  two overlapping hits of the same length the later one wins (backward maximum matching, the
  better of the two greedy segmentations for Chinese): with 北大 and 大概 in the glossary,
  北大概 holds 大概, not 北大.
- The same rule for English: longer forms win over the shorter ones they contain ("Ring
  Attention" is not "attention").

Masked text (code, math, URLs, links; :func:`mask`) is replaced by spaces of the same length,
so offsets stay those of the original text.

The rule is :func:`resolve`; the matcher applies it in one pass over the automaton's report
(:func:`_scan`), with Python work per occurrence of a key kept to a few operations: a site with
a large glossary holds about a million (``python -m bench.glossary``), and the build's
tooltips and the glossary check scan every paragraph.
"""

from __future__ import annotations

import bisect
import operator
import re
from collections.abc import Callable, Container, Iterable, Iterator
from typing import NamedTuple

import ahocorasick  # type: ignore[import-not-found]

from .model import Entry

#: What is never prose for the glossary: code spans and fences, math, autolinks and URLs,
#: a link's target (its text stays), HTML tags and entities.
MASK_RE = re.compile(
    r"`[^`]{1,500}`|\$[^$]{1,500}\$"
    r"|\\\([^)]{1,500}\\\)|\\\[[^\]]{1,500}\\\]"
    r"|\]\([^()\s]*(?:\s+\"[^\"]*\")?\)|\]\[[^\[\]]*\]"
    r"|<https?://[^<>\s]+>|https?://[^\s<>()\"'，。；）]+"
    r"|</?[A-Za-z][^<>]*>|&[#A-Za-z0-9]+;",
)


def mask(text: str) -> str:
    """``text`` with its code, math, URLs, link targets and tags blanked (same length)."""
    return MASK_RE.sub(lambda m: " " * len(m.group()), text)


def _is_word(ch: str) -> bool:
    return ch == "_" or (ch.isalnum() and (ch.isascii() or (ch.isalpha() and ord(ch) < 0x2E80)))


class _WordChars(dict[str, bool]):
    """``_is_word`` remembered per character: a boundary test is one dict lookup (a page of
    text asks it for every hit, and holds few distinct characters)."""

    def __missing__(self, ch: str) -> bool:
        value = self[ch] = _is_word(ch)
        return value


_WORD_CHARS = _WordChars()


def _word(ch: str) -> bool:
    """A character that continues a Latin word (a Chinese character does not)."""
    return _WORD_CHARS[ch]


def plurals(form: str) -> list[str]:
    """``form`` and its English plural(s): attention → attentions, batch → batches, …"""
    out = [form]
    if not form[-1:].isalpha():
        return out
    if form.isupper():  # LLM -> LLMs
        return [*out, form + "s"]
    low = form.lower()
    if low.endswith(("s", "x", "z", "ch", "sh")):
        out.append(form + "es")
    elif low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        out += [form[:-1] + "ies", form + "s"]
    else:
        out.append(form + "s")
    return out


def _lower(text: str) -> str:
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)  # İ keeps its length


class Hit(NamedTuple):
    start: int
    end: int
    entry: Entry
    #: the string matched as the glossary spells it (a form or a rendering)
    term: str


def resolve(hits: Iterable[Hit]) -> list[Hit]:
    """Longest first; among equals, the later one (see the module doc); no two overlap. (The
    rule as written: the reference :class:`Matcher` is tested against.)"""
    ordered = sorted(hits, key=lambda h: (h.start - h.end, -h.start))
    taken: list[tuple[int, int]] = []
    kept: list[Hit] = []
    for hit in ordered:
        if not any(s < hit.end and hit.start < e for s, e in taken):
            taken.append((hit.start, hit.end))
            kept.append(hit)
    kept.sort(key=lambda h: h.start)
    return kept


#: A hit inside the matcher: (start, end, key), ``key`` the automaton key's number.
_Raw = tuple[int, int, int]


class Scan(NamedTuple):
    """One masked text's scan, kept for the texts it holds (:meth:`Matcher.part`): the glossary
    check scans each block, and the tooltips find most of their texts in those blocks."""

    text: str
    #: the hits the rule keeps, by start
    kept: list[_Raw]
    #: of English terms (else of renderings)
    english: bool
    #: the maximal hits the rule weighed, by start, disjoint (a stretch of overlapping ones is
    #: one, of key ``-1``): a hit the rule weighed holds two neighbouring characters exactly
    #: when one of these does (:meth:`Matcher.part`); ``kept`` itself when there is no stretch
    spans: list[_Raw]


class PageScans(NamedTuple):
    """The scans of one page's blocks, in order, by the matcher of ``signature``: the
    originals' (English terms) and the translations' (renderings)."""

    signature: tuple[tuple[int, str, str], ...]
    en: list[Scan]
    zh: list[Scan]


def _priority(hit: _Raw) -> tuple[int, int]:
    return (hit[0] - hit[1], -hit[0])


def _greedy(hits: list[_Raw]) -> list[_Raw]:
    """:func:`resolve` on the matcher's hits (one per span: a key is one number), by start;
    an occupancy array keeps it linear in the text and the hits."""
    if len(hits) < 2:
        return hits
    hits.sort(key=_priority)
    used = bytearray(max(h[1] for h in hits))
    kept = []
    for hit in hits:
        start, end, _key = hit
        if used.find(1, start, end) < 0:
            used[start:end] = b"\x01" * (end - start)
            kept.append(hit)
    kept.sort()
    return kept


def _scan(raw: list[tuple[int, int]], back: list[int]) -> list[_Raw]:
    """The kept hits of the automaton's report on a text (by end; of the hits that end
    together, the longest first), by start, in one pass (``back[key]``: the key's length less
    one, so that a hit ending at ``end`` starts at ``end - back[key]``): :func:`_spans`,
    resolved."""
    stack, stretches = _spans(raw, back)
    return _stretches(stack, raw, back, None) if stretches else stack


def _spans(raw: list[tuple[int, int]], back: list[int]) -> tuple[list[_Raw], bool]:
    """The maximal hits of the automaton's report (by start, disjoint; key ``-1``: a stretch
    of overlapping ones), and whether there is a stretch (else they are the kept hits).

    A hit inside another is never kept; the hits inside no other (*maximal*) are kept when no
    two of them overlap, as nothing longer overlaps one. The stack holds the maximal hits so
    far, disjoint, by start; where two overlap ("cache ranks" and "ranks replicas") their
    stretch becomes one entry (key ``-1``) that the rule itself resolves at the end."""
    stack: list[_Raw] = []
    top_start = top_last = -1  # the top of the stack (its start and its last index)
    stretches = False
    for end, key in raw:
        start = end - back[key]
        if start > top_last:  # after the top (most hits): a new maximal hit, so far
            stack.append((start, end + 1, key))
            top_start, top_last = start, end
        elif start > top_start:  # starts inside the top
            if end != top_last:  # and ends after it: two maximal hits overlap
                stack[-1] = (top_start, end + 1, -1)
                top_last = end
                stretches = True
        else:  # holds the top, and every hit of the stack that starts inside it
            stack.pop()
            while stack and stack[-1][0] >= start:
                stack.pop()
            if stack and stack[-1][1] > start:  # overlaps the one before
                previous = stack[-1]
                if previous[1] == end + 1:
                    top_start, top_last = previous[0], end
                    continue  # inside it (the longer one that ends here too)
                stack[-1] = (previous[0], end + 1, -1)
                top_start, top_last = previous[0], end
                stretches = True
                continue
            stack.append((start, end + 1, key))
            top_start, top_last = start, end
    return stack, stretches


def _stretches(
    stack: list[_Raw], raw: list[tuple[int, int]], back: list[int], valid: _Valid | None
) -> list[_Raw]:
    """``stack`` with each stretch replaced by the hits the rule keeps of every hit inside it
    (``valid``: the test a hit of ``raw`` must pass, None for none)."""
    out: list[_Raw] = []
    for entry in stack:
        if entry[2] >= 0:
            out.append(entry)
            continue
        lo, hi = entry[0], entry[1]
        first = bisect.bisect_left(raw, lo, key=_end_of)  # (raw: the last index)
        last = bisect.bisect_right(raw, hi - 1, key=_end_of)
        inside = []
        for end, key in raw[first:last]:
            start = end - back[key]
            if start >= lo and (valid is None or valid(start, end + 1)):
                inside.append((start, end + 1, key))
        out += _greedy(inside)
    return out


def _crosses(spans: list[_Raw], pos: int) -> bool:
    """Some hit the rule weighed holds both ``pos - 1`` and ``pos``: exactly when one of its
    maximal ``spans`` does (a hit is inside one; of two overlapping hits of a stretch, two
    neighbouring characters are both in one of them)."""
    index = bisect.bisect_left(spans, pos, key=_end_of) - 1  # the last one starting before
    return index >= 0 and spans[index][1] > pos


_end_of = operator.itemgetter(0)
_key_of = operator.itemgetter(1)
#: A hit's test beyond the automaton's (word boundaries): ``valid(start, end)``.
_Valid = Callable[[int, int], bool]


class Matcher:
    """Every entry's English forms and Chinese renderings (allowed and forbidden).

    Each automaton key (a form, a plural, a rendering) has a number; a key several entries
    share is the first one's (of hits on one span the rule keeps the first)."""

    def __init__(self, entries: Iterable[Entry]) -> None:
        self.entries = list(entries)
        #: by key number: the entry and the term as the glossary spells it
        self.items: list[tuple[Entry, str]] = []
        self._length: list[int] = []
        self._back: list[int] = []
        #: by key number: the entry's number (its place in ``entries``)
        self.entry_number: list[int] = []
        #: by key number: the rendering is Latin at its start / end (keeps to word boundaries)
        self._lead: list[bool] = []
        self._tail: list[bool] = []
        self._folded = ahocorasick.Automaton()
        self._cased = ahocorasick.Automaton()
        self._zh = ahocorasick.Automaton()
        #: by key number: its automaton, the key and its term (what a :class:`Scan` means)
        self._signature: list[tuple[int, str, str]] = []
        #: some rendering has a Latin end
        self._zh_bounded = False
        for number, entry in enumerate(self.entries):
            for form in entry.en:
                for variant in plurals(form):
                    if entry.case:
                        self._add(self._cased, variant, number, form)
                    else:
                        self._add(self._folded, variant.lower(), number, form)
            for zh in (*entry.renderings, *entry.zh_forbidden):
                self._add(self._zh, zh, number, zh)
        for automaton in (self._folded, self._cased, self._zh):
            if len(automaton):
                automaton.make_automaton()
        #: by key number: ``id`` of the entry (what ``seen`` holds)
        self.entry_id = [id(entry) for entry, _term in self.items]
        #: the English keys of entries that stay in Latin letters
        self.latin_keys = frozenset(k for k, (entry, _term) in enumerate(self.items) if entry.latin)
        #: some entry stays in Latin letters in a translation (``keep_en``, or ``zh`` = ``en``)
        self.has_latin = any(entry.latin for entry in self.entries)
        #: by entry number: its keys (a term marked once per page marks none of them again)
        self.keys_of: list[tuple[int, ...]] = [() for _entry in self.entries]
        for key, number in enumerate(self.entry_number):
            self.keys_of[number] += (key,)
        #: equal for two matchers whose key numbers mean the same keys (a :class:`Scan` of
        #: one serves the other)
        self.signature = tuple(self._signature)
        #: the keys of forbidden renderings (never marked as a term's use)
        self.forbidden_keys = frozenset(
            k for k, (entry, term) in enumerate(self.items) if term in entry.zh_forbidden
        )

    def _add(self, automaton: ahocorasick.Automaton, key: str, number: int, term: str) -> None:
        if automaton.exists(key):
            return  # another entry's key: the first entry's hit is the one kept
        automaton.add_word(key, len(self.items))
        tag = 0 if automaton is self._folded else 1 if automaton is self._cased else 2
        self._signature.append((tag, key, term))
        entry = self.entries[number]
        self.items.append((entry, term))
        self._length.append(len(key))
        self._back.append(len(key) - 1)
        self.entry_number.append(number)
        self._lead.append(_is_word(term[0]))
        self._tail.append(_is_word(term[-1]))
        if automaton is self._zh and (self._lead[-1] or self._tail[-1]):
            self._zh_bounded = True

    # -- the kept hits, as (start, end, key) ------------------------------------------------

    def english_raw(self, text: str, done: set[int] | frozenset[int] = frozenset()) -> list[_Raw]:
        """The English terms of ``text`` (already masked) the rule keeps, by start; none when
        every key the automaton reports is in ``done`` (no hit of another key to keep)."""
        folded: list[tuple[int, int]] = (
            list(self._folded.iter(_lower(text))) if len(self._folded) else []
        )
        cased: list[tuple[int, int]] = list(self._cased.iter(text)) if len(self._cased) else []
        if folded and cased:  # both: one list, the case-folded keys first on a common span
            return _greedy(self._bounded([*folded, *cased], text))
        raw = folded or cased
        if not raw or (done and done.issuperset(map(_key_of, raw))):
            return []
        return self._scan_english(raw, text)

    def chinese_raw(self, text: str, done: set[int] | frozenset[int] = frozenset()) -> list[_Raw]:
        """The renderings (allowed and forbidden) in ``text`` the rule keeps, by start; a
        rendering with Latin letters ("KV 缓存") keeps to word boundaries at its Latin ends.
        ``done`` as :meth:`english_raw`."""
        raw = self._zh_weighed(text)
        if not raw or (done and done.issuperset(map(_key_of, raw))):
            return []
        return _scan(raw, self._back)

    def _zh_weighed(self, text: str) -> list[tuple[int, int]]:
        """The automaton's report of renderings in ``text`` that the rule weighs."""
        if not len(self._zh):
            return []
        raw = list(self._zh.iter(text))
        if raw and self._zh_bounded:  # renderings with Latin ends keep to word boundaries
            raw = self._bounded_zh(raw, text)
        return raw

    def _bounded_zh(self, raw: list[tuple[int, int]], text: str) -> list[tuple[int, int]]:
        """``raw`` without the renderings whose Latin end continues a word of ``text``."""
        word, n, length, lead, tail = _WORD_CHARS, len(text), self._length, self._lead, self._tail
        out = []
        for end, key in raw:
            start = end + 1 - length[key]
            if lead[key] and start and word[text[start - 1]]:
                continue
            if tail[key] and end + 1 < n and word[text[end + 1]]:
                continue
            out.append((end, key))
        return out

    def _scan_english(self, raw: list[tuple[int, int]], text: str) -> list[_Raw]:
        """:func:`_scan` of the hits on word boundaries."""
        return _scan(self._on_boundaries(raw, text), self._back)

    def _on_boundaries(self, raw: list[tuple[int, int]], text: str) -> list[tuple[int, int]]:
        """The English hits of ``raw`` on word boundaries of ``text`` (in its order)."""
        word, back = _WORD_CHARS, self._back
        padded = "\0" + text + "\0"  # padded[end + 2]: the character after a hit's last
        return [
            hit
            for hit in raw  # and padded[end - back]: the one before its first
            if not word[padded[hit[0] + 2]] and not word[padded[hit[0] - back[hit[1]]]]
        ]

    # -- one text's scan, for the texts it holds (the tooltips' parts of a checked block) -----

    def english_scan(self, text: str) -> Scan | None:
        """:meth:`english_raw` of ``text`` (masked) as a :class:`Scan`; None with both
        case-folded and cased entries (resolved together: :meth:`part` would not know)."""
        if len(self._folded) and len(self._cased):
            return None
        if len(self._folded):
            raw = list(self._folded.iter(_lower(text)))
        else:
            raw = list(self._cased.iter(text)) if len(self._cased) else []
        return self._as_scan(text, self._on_boundaries(raw, text) if raw else raw, True)

    def chinese_scan(self, text: str) -> Scan:
        """:meth:`chinese_raw` of ``text`` (masked) as a :class:`Scan`."""
        return self._as_scan(text, self._zh_weighed(text), False)

    def _as_scan(self, text: str, weighed: list[tuple[int, int]], english: bool) -> Scan:
        spans, stretches = _spans(weighed, self._back)
        kept = _stretches(spans, weighed, self._back, None) if stretches else spans
        return Scan(text, kept, english, spans)

    def part(self, scan: Scan, fragment: str, after: int = 0) -> tuple[int, list[_Raw]] | None:
        """Where ``fragment`` (masked) is in the text of ``scan`` (from ``after`` on), and its
        kept hits there, in the text's offsets — what the fragment's own scan keeps, shifted;
        None when the text does not hold it, or where its own scan could differ: a word
        continues past one of its ends, a hit the rule weighed crosses one, or a capital
        sigma (whose lower case depends on what follows)."""
        text = scan.text
        start = text.find(fragment, after)
        if start < 0 or (scan.english and "Σ" in fragment):
            return None
        end = start + len(fragment)
        word = _WORD_CHARS
        if (start and word[text[start - 1]]) or (end < len(text) and word[text[end]]):
            return None
        kept, spans = scan.kept, scan.spans
        first = bisect.bisect_left(kept, start, key=_end_of)  # (kept: by start)
        last = bisect.bisect_left(kept, end, first, key=_end_of)
        if spans is kept:  # no stretch: the spans crossing an end are the kept hits before
            if (first and kept[first - 1][1] > start) or (last and kept[last - 1][1] > end):
                return None
        elif _crosses(spans, start) or _crosses(spans, end):
            return None
        return start, kept[first:last]

    def _bounded(self, raw: list[tuple[int, int]], text: str) -> list[_Raw]:
        """English hits on word boundaries, in the order of ``raw`` (no resolving)."""
        word, n, length = _WORD_CHARS, len(text), self._length
        hits = []
        for end, key in raw:
            after = end + 1
            start = after - length[key]
            if (after == n or not word[text[after]]) and (start == 0 or not word[text[start - 1]]):
                hits.append((start, after, key))
        return hits

    # -- as Hits ------------------------------------------------------------------------------

    def english(self, text: str, seen: Container[int] = ()) -> list[Hit]:
        """The English terms of ``text`` (already masked), by start, no overlaps (longest
        first); of entries not in ``seen`` (``id`` of entries marked already) only."""
        return self._hits(self.english_raw(text), seen)

    def chinese(self, text: str, seen: Container[int] = ()) -> list[Hit]:
        """The renderings (allowed and forbidden) in ``text``, as :meth:`english`."""
        return self._hits(self.chinese_raw(text), seen)

    def _hits(self, kept: list[_Raw], seen: Container[int]) -> list[Hit]:
        items = self.items
        if seen:
            entry_id = self.entry_id
            kept = [h for h in kept if entry_id[h[2]] not in seen]
        return [_new(Hit, (s, e, *items[k])) for s, e, k in kept]


#: ``Hit``'s constructor without its Python-level ``__new__`` (one per hit returned)
_new = tuple.__new__


def first_uses(hits: Iterable[Hit], seen: set[int]) -> Iterator[Hit]:
    """The hits of entries not in ``seen`` (ids), one per entry; ``seen`` grows."""
    for hit in hits:
        if id(hit.entry) not in seen:
            seen.add(id(hit.entry))
            yield hit
