"""Search entries for numbered paragraphs, so that a query for ``P042`` lands on ``#P042``.

Material's search plugin indexes a page by headings, so a paragraph's ID would only lead to the
section around it. This module reads the rendered paragraph blocks of a page (the HTML that
:mod:`duizhao.markdown` produced; the block syntax itself is never parsed here) and turns each
into one entry of ``search/search_index.json``: location ``page/#P042``, title
``P042 · <article title>``, text original + translation. Chinese text is segmented with jieba
exactly as Material segments its own entries (words joined by U+200B), so the same queries
match.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any, Generic, TypeVar

from ..escape import search_text
from .segment import HAN_RE

_SPACE_RE = re.compile(r"\s+")
_SIDES = {"dz-en": "original", "dz-zh": "translation"}


@dataclass
class ParagraphText:
    """Plain text of one rendered paragraph block."""

    id: str
    original: str = ""
    translation: str = ""


@dataclass
class _Open:
    tag: str
    para: ParagraphText | None = None
    side: str | None = None
    skip: bool = False


#: HTML elements without an end tag.
VOID_ELEMENTS = frozenset(
    ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"]
)


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.paragraphs: list[ParagraphText] = []
        self.stack: list[_Open] = []
        self.parts: dict[tuple[int, str], list[str]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID_ELEMENTS:
            return
        values = dict(attrs)
        classes = (values.get("class") or "").split()
        opened = _Open(tag)
        if "dz-para" in classes and values.get("data-dz-id"):
            opened.para = ParagraphText(str(values["data-dz-id"]))
            self.paragraphs.append(opened.para)
        for cls, side in _SIDES.items():
            if cls in classes:
                opened.side = side
        # The permalink label and scripts/styles are not content.
        opened.skip = "dz-pid" in classes or tag in ("script", "style")
        self.stack.append(opened)

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index].tag == tag:
                del self.stack[index:]
                return

    def handle_data(self, data: str) -> None:
        para = side = None
        for opened in self.stack:
            if opened.skip:
                return
            if opened.para is not None:
                para, side = opened.para, None
            if opened.side is not None and para is not None:
                side = opened.side
        if para is not None and side is not None:
            self.parts.setdefault((id(para), side), []).append(data)

    def result(self) -> list[ParagraphText]:
        for para in self.paragraphs:
            for side in _SIDES.values():
                text = _SPACE_RE.sub(" ", "".join(self.parts.get((id(para), side), []))).strip()
                setattr(para, side, text)
        return self.paragraphs


def paragraph_texts(html: str) -> list[ParagraphText]:
    """The numbered paragraphs of a rendered page, in order, with their plain text."""
    collector = _Collector()
    collector.feed(html)
    collector.close()
    return collector.result()


def segment_chinese(
    text: str, cut: Callable[[str], Iterable[str]], separator: str = "\u200b"
) -> str:
    """Join the words of each Han run with ``separator`` (U+200B, as Material's search plugin
    does)."""

    def replace(match: re.Match[str]) -> str:
        return separator + separator.join(cut(match.group(0))) + separator

    return HAN_RE.sub(replace, text).strip(separator)


def search_entries(
    url: str,
    title: str,
    paragraphs: Iterable[ParagraphText],
    cut: Callable[[str], Iterable[str]],
) -> list[dict[str, str]]:
    """One search entry per paragraph: ``page/#P042``, ``P042 · title``, both languages.

    ``title`` and the paragraphs' text are plain text; the entries hold them as Material's own
    entries do (:func:`duizhao.escape.search_text`).
    """
    entries = []
    for para in paragraphs:
        text = "".join(
            f"<p>{search_text(part)}</p>" for part in (para.original, para.translation) if part
        )
        entries.append(
            {
                "location": f"{url}#{para.id}",
                "title": segment_chinese(search_text(f"{para.id} · {title}"), cut),
                "text": segment_chinese(text, cut),
            }
        )
    return entries


Entry = dict[str, Any]

T = TypeVar("T")


class SearchPages(Generic[T]):
    """A site's search entries by page, kept across the builds of one ``mkdocs serve``.

    A ``--dirty`` rebuild indexes only the pages it renders. Material merges them into the
    previous index by the location prefix of the first new entry, which goes wrong when one save
    renders several pages, as an edited 导言 does (the article, its section's index and the home
    page, whose prefix ``""`` matches every entry). Here each page's entries are replaced as a
    whole, the entries of pages no longer in the site are dropped, and the paragraph entries of a
    page follow its own: the index holds the entries a full build would write.
    """

    def __init__(self) -> None:
        self.pages: dict[str, list[T]] = {}

    def update(
        self,
        urls: Iterable[str],
        rendered: Iterable[str],
        entries: Iterable[tuple[str, T]],
        paragraphs: Mapping[str, list[T]],
    ) -> list[T]:
        """The whole index after a build of the pages ``urls`` that rendered the pages
        ``rendered`` and indexed them as ``entries`` ((page URL, entry) pairs).

        Pages keep the order they had (a full build: the search plugin's own order); a new
        page comes after them, and a page no longer in the site is dropped.
        """
        fresh: dict[str, list[T]] = {url: [] for url in rendered}
        for page, entry in entries:
            fresh.setdefault(page, []).append(entry)
        site = set(urls)
        order = [url for url in self.pages if url in site or url in fresh]
        order += [url for url in fresh if url not in self.pages]
        self.pages = {url: fresh[url] if url in fresh else self.pages[url] for url in order}
        return [entry for url in order for entry in (*self.pages[url], *paragraphs.get(url, ()))]
