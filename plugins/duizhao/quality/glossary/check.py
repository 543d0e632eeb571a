"""``duizhao glossary check``: each paragraph's terms rendered as the glossary says.

For each term of a paragraph's original (outside code, math, URLs and links), the translation
must use one of the entry's renderings (``zh`` or ``zh_allowed``; for a ``keep_en`` entry, or
one whose ``zh`` is the English, one of its English forms), and none of its ``zh_forbidden``.
Either problem is a warning at the translation's line. A term the translation leaves in English
is not a wrong rendering: English left in a translation is the untranslated-text check's (and a
translation identical to its original the identity check's), so it is not reported twice. Pure.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator
from pathlib import Path

from ...article import Article, Paragraph
from ...diagnostics import Diagnostic
from .match import Matcher, PageScans, mask
from .model import Entry, Glossary

_KEY = operator.itemgetter(2)


class GlossaryCheck:
    """The glossary's rules, compiled once for every article checked."""

    def __init__(self, glossary: Glossary) -> None:
        self.glossary = glossary
        self.matcher = matcher = Matcher(glossary.entries)
        # by automaton key: its entry's number when its term is an allowed (a forbidden)
        # rendering of the entry, else -1
        self._allowed = [-1] * len(matcher.items)
        self._forbidden = [-1] * len(matcher.items)
        for key, (entry, term) in enumerate(matcher.items):
            if term in entry.renderings:
                self._allowed[key] = matcher.entry_number[key]
            if term in entry.zh_forbidden:
                self._forbidden[key] = matcher.entry_number[key]
        #: some entry has a forbidden rendering
        self._any_forbidden = any(n >= 0 for n in self._forbidden)
        #: the entries that stay in Latin letters
        self._latin = {n for n, entry in enumerate(matcher.entries) if entry.latin}
        #: every English form as written, for the acronym check to leave to this one (the
        #: site glossary wins over its table of standard renderings)
        self.english_forms = frozenset(form for entry in glossary.entries for form in entry.en)

    def article(self, article: Article) -> list[Diagnostic]:
        if not self.glossary:
            return []
        found: list[Diagnostic] = []
        for paragraph in article.paragraphs:
            if paragraph.original and not paragraph.is_todo:
                line = paragraph.translation_line or paragraph.line
                found += self.paragraph(
                    paragraph.original, paragraph.translation, article.path, line
                )
        return found

    def scans(self) -> PageScans:
        """An empty record of a page's scans for :meth:`paragraph` to fill (for the tooltips)."""
        return PageScans(self.matcher.signature, [], [])

    def paragraph(
        self,
        original: str,
        translation: str,
        path: Path,
        line: int,
        scans: PageScans | None = None,
    ) -> list[Diagnostic]:
        """The warnings of one original and its translation (``line``: the translation's);
        with ``scans``, both texts' scans are added to it."""
        matcher = self.matcher
        masked = mask(original)
        scan = matcher.english_scan(masked) if scans is not None else None
        if scans is not None and scan is not None:
            scans.en.append(scan)
            zh_scan = matcher.chinese_scan(mask(translation))
            scans.zh.append(zh_scan)
            found = scan.kept
        else:
            found = matcher.english_raw(masked)
            zh_scan = None
        if not found or original.strip() == translation.strip():
            return []  # (a translation identical to its original is reported on its own)
        number = matcher.entry_number
        terms = dict.fromkeys(map(number.__getitem__, map(_KEY, found)))  # in order of use
        if zh_scan is not None:
            masked, rendered = zh_scan.text, zh_scan.kept
        else:
            masked = mask(translation)
            rendered = matcher.chinese_raw(masked)
        keys = list(map(_KEY, rendered))
        # the entries whose rendering may be wrong: none rendered, forbidden or kept in Latin
        suspects = terms.keys() - set(map(self._allowed.__getitem__, keys))
        if self._any_forbidden:
            suspects |= terms.keys() & set(map(self._forbidden.__getitem__, keys))
        if self._latin:
            suspects |= terms.keys() & self._latin
        if not suspects:
            return []
        kept_en = {number[k] for _s, _e, k in matcher.english_raw(masked)}
        entries, items = matcher.entries, matcher.items
        used: dict[int, list[str]] = {}
        for k in keys:
            used.setdefault(number[k], []).append(items[k][1])
        out: list[Diagnostic] = []
        for key in terms:
            if key in suspects:
                out += _judge(entries[key], used.get(key, []), key in kept_en, path, line)
        return out


def _judge(
    entry: Entry, terms: list[str], kept_en: bool, path: Path, line: int
) -> Iterator[Diagnostic]:
    """The warnings of one term of the original (``terms``: its renderings the translation
    uses, in order)."""
    name = entry.key
    forbidden = [t for t in terms if t in entry.zh_forbidden]
    if forbidden:
        yield Diagnostic(
            path,
            line,
            "DZ446",
            f"{name!r} is translated as {forbidden[0]!r}, which the glossary forbids; "
            f"write {entry.zh!r}",
        )
        return
    if entry.latin:
        if not kept_en:
            yield Diagnostic(
                path,
                line,
                "DZ447",
                f"{name!r} must stay in Latin letters in the translation (keep_en)",
            )
        return
    if kept_en:
        return  # the English left as it is: the untranslated-text check's business
    if not any(t in entry.renderings for t in terms):
        allowed = " or ".join(repr(r) for r in entry.renderings)
        yield Diagnostic(
            path,
            line,
            "DZ445",
            f"{name!r} is in the original but the translation uses none of its renderings "
            f"({allowed})",
        )


def check_articles(glossary: Glossary, articles: Iterable[Article]) -> list[Diagnostic]:
    check = GlossaryCheck(glossary)
    return [d for article in articles for d in check.article(article)]


def paragraphs_of(article: Article) -> list[Paragraph]:
    return [p for p in article.paragraphs if p.original and not p.is_todo]
