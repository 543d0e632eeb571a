"""``duizhao glossary check``: each paragraph's terms rendered as the glossary says.

For each term of a paragraph's original (outside code, math, URLs and links), the translation
must use one of the entry's renderings (``zh`` or ``zh_allowed``; for a ``keep_en`` entry, or
one whose ``zh`` is the English, one of its English forms), and none of its ``zh_forbidden``.
Either problem is a warning at the translation's line. A term the translation leaves in English
is not a wrong rendering: English left in a translation is the untranslated-text check's (and a
translation identical to its original the identity check's), so it is not reported twice. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from ...article import Article, Paragraph
from ...diagnostics import Diagnostic
from .match import Hit, Matcher, mask
from .model import Entry, Glossary


class GlossaryCheck:
    """The glossary's rules, compiled once for every article checked."""

    def __init__(self, glossary: Glossary) -> None:
        self.glossary = glossary
        self.matcher = Matcher(glossary.entries)

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

    def paragraph(self, original: str, translation: str, path: Path, line: int) -> list[Diagnostic]:
        """The warnings of one original and its translation (``line``: the translation's)."""
        terms: dict[int, Entry] = {}
        for hit in self.matcher.english(mask(original)):
            terms.setdefault(id(hit.entry), hit.entry)
        if not terms or original.strip() == translation.strip():
            return []  # (a translation identical to its original is reported on its own)
        masked = mask(translation)
        rendered: dict[int, list[Hit]] = {}
        for hit in self.matcher.chinese(masked):
            rendered.setdefault(id(hit.entry), []).append(hit)
        kept_en = {id(h.entry) for h in self.matcher.english(masked)}
        out: list[Diagnostic] = []
        for key, entry in terms.items():
            out += _judge(entry, rendered.get(key, []), key in kept_en, path, line)
        return out


def _judge(
    entry: Entry, hits: list[Hit], kept_en: bool, path: Path, line: int
) -> Iterator[Diagnostic]:
    name = entry.key
    forbidden = [h.term for h in hits if h.term in entry.zh_forbidden]
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
    if not any(h.term in entry.renderings for h in hits):
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
