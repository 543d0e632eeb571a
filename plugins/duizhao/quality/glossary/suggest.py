"""``duizhao glossary suggest``: candidate terms with the renderings the translations use.

Candidates from the originals of translated paragraphs: acronyms (``RAG``, ``KV``, ``TTFT``)
and capitalised phrases of two words or more seen at least twice ("Automatic Prefix
Caching"), which the glossary does not have yet. A rendering is mined from the translations:
the Chinese just before ``（ACRONYM）`` or ``(Phrase)`` (the usual first-use pattern
"检索增强生成（RAG）"), else the acronym kept as it is (``keep_en``). Pure.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from ...article import Article
from .match import Matcher, _word, mask
from .model import Glossary

ACRONYM_RE = re.compile(r"(?<![A-Za-z0-9])[A-Z][A-Za-z]*[A-Z][A-Za-z0-9]*(?![A-Za-z0-9])")
PHRASE_RE = re.compile(r"(?<![A-Za-z])(?:[A-Z][a-z]+(?:[- ](?:of |for |and )?[A-Z][a-z]+)+)")
#: Least occurrences of a phrase (acronyms: one, in two paragraphs).
MIN_COUNT = 2
#: Words that start sentences rather than terms.
_STOP = {
    "The",
    "In",
    "We",
    "Our",
    "This",
    "A",
    "An",
    "For",
    "To",
    "On",
    "As",
    "It",
    "Figure",
    "Table",
    "Section",
}


def suggest(articles: Iterable[Article], glossary: Glossary) -> list[dict[str, Any]]:
    matcher = Matcher(glossary.entries)
    counts: Counter[str] = Counter()
    translations: dict[str, list[str]] = {}
    for article in articles:
        for p in article.paragraphs:
            if not p.original or p.is_todo:
                continue
            original = mask(p.original)
            known = {original[h.start : h.end] for h in matcher.english(original)}
            found = set(ACRONYM_RE.findall(original))
            found |= {m for m in PHRASE_RE.findall(original) if m.split()[0] not in _STOP}
            for term in found - known:
                if len(term) < 2 or term.lower() in {k.lower() for k in known}:
                    continue
                counts[term] += 1
                translations.setdefault(term, []).append(mask(p.translation))
    items = []
    for term, n in counts.most_common():
        if n < MIN_COUNT:
            continue
        zh = _rendering(term, translations[term])
        if zh is None:
            continue
        item: dict[str, Any] = {"en": [term], "zh": zh}
        if zh == term:
            item["keep_en"] = True
        item["note"] = f"suggested: {n} paragraphs"
        items.append(item)
    return items


#: The Chinese just before a "（TERM）" (matched on a window of the text, so short).
_BEFORE_RE = re.compile(r"([\u4e00-\u9fff][\u4e00-\u9fffA-Za-z0-9 -]{0,15})[ \t]*$")


def _rendering(term: str, translations: list[str]) -> str | None:
    mined: Counter[str] = Counter()
    kept = 0
    for text in translations:
        at = min(
            (i for i in (text.find(f"（{term}）"), text.find(f"({term})")) if i >= 0), default=-1
        )
        before = _BEFORE_RE.search(text[max(0, at - 20) : at]) if at > 0 else None
        if before:
            mined[before.group(1).strip()] += 1
        elif _has_word(text, term):
            kept += 1
    if mined:
        return mined.most_common(1)[0][0]
    return term if kept and term.isupper() else None


def _has_word(text: str, term: str) -> bool:
    at = text.find(term)
    while at >= 0:
        end = at + len(term)
        if (at == 0 or not _word(text[at - 1])) and (end == len(text) or not _word(text[end])):
            return True
        at = text.find(term, at + 1)
    return False
