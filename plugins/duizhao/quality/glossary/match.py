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
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Iterator
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
    """Longest first; among equals, the later one (see the module doc); no two overlap."""
    ordered = sorted(hits, key=lambda h: (h.start - h.end, -h.start))
    taken: list[tuple[int, int]] = []
    kept: list[Hit] = []
    for hit in ordered:
        if not any(s < hit.end and hit.start < e for s, e in taken):
            taken.append((hit.start, hit.end))
            kept.append(hit)
    kept.sort(key=lambda h: h.start)
    return kept


def _resolve_linear(hits: list[Hit], n: int) -> list[Hit]:
    """:func:`resolve` with an occupancy array: time linear in the text and the hits."""
    if len(hits) <= 8:
        return resolve(hits)
    hits.sort(key=_longest_then_later)
    used = bytearray(n)
    kept = []
    for hit in hits:
        start, end = hit.start, hit.end
        if used.find(1, start, end) < 0:
            used[start:end] = b"\x01" * (end - start)
            kept.append(hit)
    kept.sort()  # by start (hits that start together overlap: one is kept)
    return kept


def _longest_then_later(hit: Hit) -> tuple[int, int]:
    return (hit.start - hit.end, -hit.start)


def _resolve_new(hits: list[Hit], n: int, seen: Container[int]) -> list[Hit]:
    """:func:`_resolve_linear`, or [] when every hit is of an entry in ``seen``."""
    if not seen or any(id(hit[2]) not in seen for hit in hits):
        return _resolve_linear(hits, n)
    return []


class Matcher:
    """Every entry's English forms and Chinese renderings (allowed and forbidden)."""

    def __init__(self, entries: Iterable[Entry]) -> None:
        self.entries = list(entries)
        self._folded = ahocorasick.Automaton()
        self._cased = ahocorasick.Automaton()
        self._zh = ahocorasick.Automaton()
        for entry in self.entries:
            for form in entry.en:
                for variant in plurals(form):
                    if entry.case:
                        _add(self._cased, variant, entry, form)
                    else:
                        _add(self._folded, variant.lower(), entry, form)
            for zh in (*entry.renderings, *entry.zh_forbidden):
                _add(self._zh, zh, entry, zh)
        for automaton in (self._folded, self._cased, self._zh):
            if len(automaton):
                automaton.make_automaton()
        #: some entry stays in Latin letters in a translation (``keep_en``, or ``zh`` = ``en``)
        self.has_latin = any(entry.latin for entry in self.entries)

    def english(self, text: str, seen: Container[int] = ()) -> list[Hit]:
        """The English terms of ``text`` (already masked), longest first, no overlaps; [] when
        every term found is of an entry in ``seen`` (ids of entries marked already: nothing is
        left to mark, so the overlaps are not resolved)."""
        hits: list[Hit] = []
        word, n = _WORD_CHARS, len(text)
        for automaton, haystack in ((self._folded, _lower), (self._cased, str)):
            if not len(automaton):
                continue
            for end, items in automaton.iter(haystack(text)):
                after = end + 1
                if after < n and word[text[after]]:
                    continue
                for length, entry, term in items:
                    start = after - length
                    if start == 0 or not word[text[start - 1]]:
                        hits.append(_new(Hit, (start, after, entry, term)))
        return _resolve_new(hits, n, seen)

    def chinese(self, text: str, seen: Container[int] = ()) -> list[Hit]:
        """The renderings (allowed and forbidden) in ``text``; a rendering with Latin letters
        ("KV 缓存") keeps to word boundaries at its Latin ends. ``seen`` as for
        :meth:`english`."""
        if not len(self._zh):
            return []
        hits = []
        word, n = _WORD_CHARS, len(text)
        for end, items in self._zh.iter(text):
            after = end + 1
            for length, entry, term in items:
                start = after - length
                if word[term[0]] and start and word[text[start - 1]]:
                    continue
                if word[term[-1]] and after < n and word[text[after]]:
                    continue
                hits.append(_new(Hit, (start, after, entry, term)))
        return _resolve_new(hits, n, seen)


#: ``Hit``'s constructor without its Python-level ``__new__`` (the loops above make one per
#: occurrence of a term: hundreds of thousands on a large site)
_new = tuple.__new__


def _add(automaton: ahocorasick.Automaton, key: str, entry: Entry, term: str) -> None:
    found = automaton.get(key, None)
    items = found if found is not None else []
    if all(e is not entry for _n, e, _t in items):
        items.append((len(key), entry, term))
    automaton.add_word(key, items)


def first_uses(hits: Iterable[Hit], seen: set[int]) -> Iterator[Hit]:
    """The hits of entries not in ``seen`` (ids), one per entry; ``seen`` grows."""
    for hit in hits:
        if id(hit.entry) not in seen:
            seen.add(id(hit.entry))
            yield hit
