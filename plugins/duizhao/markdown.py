"""Python-Markdown extension that renders duizhao's paragraph and figure blocks.

Works without MkDocs::

    import markdown
    html = markdown.markdown(text, extensions=["duizhao.markdown"])

It does not parse the block syntax itself. A preprocessor asks :func:`duizhao.article.scan`
where the blocks are (so fenced code, nesting and recovery from a missing ``///`` are decided
in one place) and replaces each fence line by a private marker; a block processor then turns
the marked regions into elements of the Markdown tree, so ids such as ``P042`` are visible to
MkDocs' anchor validation and to the table of contents machinery.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree  # noqa: N813 (Python-Markdown convention)
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from markdown import Markdown
from markdown.blockprocessors import BlockProcessor
from markdown.extensions import Extension
from markdown.inlinepatterns import LinkInlineProcessor
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor
from markdown.util import AtomicString

from . import htmlscan
from .article import (
    FIGURE_ANCHOR_RE,
    PARAGRAPH_ID_RE,
    TABLE_ANCHOR_RE,
    Block,
    FigurePlacement,
    Paragraph,
    placement_anchor,
    placement_label,
    scan,
    split_paragraph,
)
from .escape import html_text
from .nesting import as_text, block_as_text, html_too_deep, too_deep

# STX/ETX cannot come from the author: Python-Markdown's normalize_whitespace removes them.
_MARK = "\x02duizhao:{kind}:{n}\x03"
_MARK_RE = re.compile(r"^\x02duizhao:(open|split|close):([0-9]+)\x03$")
_ANY_MARK_RE = re.compile(r"\x02duizhao:(?:open|split|close):[0-9]+\x03\n?")

#: Renders a figure placement into ``element`` (a ``<figure>``); set by the figures feature.
FigureRenderer = Callable[[etree.Element, FigurePlacement, Markdown], None]


@dataclass
class _Entry:
    paragraph: Paragraph | None
    figure: FigurePlacement | None


class _BracketMatcher:
    """A linear stand-in for Python-Markdown's ``LinkInlineProcessor.getText``.

    The original walks from each ``[`` to its matching ``]`` one character at a time, and the
    link, reference and short-reference patterns each call it at every ``[``: a line with
    thousands of unclosed ``[`` took minutes to build (issue 12). The same answer comes from
    one pass with a stack that pairs every ``[`` with its ``]``.

    A ``[``'s partner depends only on the text after it, so the pairs are kept by distance
    from the end of the string they were computed on. The inline processor hands over the
    same string for every ``[`` of a line, and after each match a new one whose text after
    the match is unchanged (the match becomes a placeholder): a ``[`` there is answered from
    the pairs once its suffix is found equal (one comparison in C), and the string is paired
    again only when it is not (``[]()`` repeated was paired once per link: quadratic).
    """

    def __init__(self) -> None:
        self._data = ""
        #: distance from the end of ``_data`` of each "[" -> that of its "]"
        self._closing: dict[int, int] = {}

    def _pair(self, data: str) -> None:
        closing: dict[int, int] = {}
        stack: list[int] = []
        n = len(data)
        for m in _BRACKET_RE.finditer(data):
            if m.group() == "[":
                stack.append(n - m.start())
            elif stack:
                closing[stack.pop()] = n - m.start()
        self._data, self._closing = data, closing

    def _suffix_known(self, data: str, at: int) -> bool:
        known = self._data
        tail = len(data) - at
        if data is known:
            return True
        return tail <= len(known) and data.endswith(known[len(known) - tail :])

    def get_text(self, data: str, index: int) -> tuple[str, int, bool]:
        """``(text, index after the closing ']', found)`` for the ``[`` at ``index - 1``."""
        if data[index - 1 : index] != "[":
            return _get_text(data, index)  # not called right after a "[": the original scan
        end = _near_partner(data, index)
        if end is None:  # far or deep: from the pairs of the whole string
            if not self._suffix_known(data, index - 1):
                self._pair(data)
            to_end = self._closing.get(len(data) - index + 1)
            end = -1 if to_end is None else len(data) - to_end
        if end < 0:  # unmatched: the original consumes the rest of the string
            return data[index:], len(data), False
        return data[index:end], end + 1, True


#: How far after a ``[`` (characters, and ``[``/``]`` read) :func:`_near_partner` looks for its
#: ``]`` before the matcher asks the pairs of the whole string. Link texts are short and seldom
#: nest, so nearly every ``[`` is answered here, in time bounded by these two numbers: the
#: suffix comparison that keeps the pairs exact reads the rest of the string, once per link
#: on a line of thousands of links (``[]()`` repeated: ×3 per doubling of the line, issue 19).
NEAR_WINDOW = 4096
NEAR_BRACKETS = 16


def _near_partner(data: str, index: int) -> int | None:
    """The index of the ``]`` that closes the ``[`` before ``index``, -1 when none does (the
    window reached the end of ``data``), None when it is farther than the window."""
    depth = 1
    stop = index + NEAR_WINDOW
    for count, m in enumerate(_BRACKET_RE.finditer(data, index, stop)):
        if count == NEAR_BRACKETS:
            return None
        depth += 1 if m.group() == "[" else -1
        if depth == 0:
            return m.start()
    return -1 if stop >= len(data) else None


_BRACKET_RE = re.compile(r"[\[\]]")


def _get_text(data: str, index: int) -> tuple[str, int, bool]:
    """Python-Markdown's own scan (for the calls the matcher does not model)."""
    depth = 1
    for pos in range(index, len(data)):
        c = data[pos]
        depth += (c == "[") - (c == "]")
        if depth == 0:
            return data[index:pos], pos + 1, True
    return data[index:], len(data), False


#: Longest ``(destination "title")`` of an inline link, in characters, once a page has used up
#: :data:`EXACT_SCAN_BUDGET`: past this window a ``[text](`` is not a link.
LINK_WINDOW = 1024

#: Characters Python-Markdown's own destination scan may read per page before the window
#: applies. Python-Markdown scans an unclosed ``(`` to the end of the text, once per link text
#: before it (quadratic on a hostile line); a real page reads each link once, however long it
#: is (a mermaid.live or data: URL of several KB), so within this budget every link renders
#: exactly as without duizhao, and past it the work per link is bounded.
EXACT_SCAN_BUDGET = 4_000_000

_GetLink = Callable[[str, int], tuple[str, "str | None", int, bool]]


class _BoundedLinks:
    """``getLink`` with Python-Markdown's answers, then windowed once the budget is spent."""

    def __init__(self, get_link: _GetLink) -> None:
        self.get_link = get_link
        self.budget = EXACT_SCAN_BUDGET

    def __call__(self, data: str, index: int) -> tuple[str, str | None, int, bool]:
        if len(data) - index <= LINK_WINDOW:
            return self.get_link(data, index)  # reads no more than the window
        if self.budget > 0:
            href, title, end, handled = self.get_link(data, index)
            # what the scan read: up to the closing ")", or (not a link) the rest of the text
            self.budget -= (end - index) if handled else len(data) - index
            return href, title, end, handled
        if data.find(")", index, index + LINK_WINDOW) < 0:
            return "", None, index, False  # no ")" to close it: not a link (a C-speed test)
        # getLink reads nothing before ``index``: run it on the window and shift the result.
        href, title, end, handled = self.get_link(data[index : index + LINK_WINDOW], 0)
        if handled and end < LINK_WINDOW:
            return href, title, index + end, True
        return "", None, index, False


def linear_links(md: Markdown) -> None:
    """Give every link-like inline pattern of ``md`` the linear bracket matcher and a bounded
    destination scan (once per processor), and a new scan budget (a call per page).
    ``getText``/``getLink`` are the processors' own documented hooks; the answers are
    Python-Markdown's (tests/test_hostile.py compares)."""
    for processor in md.inlinePatterns:
        if not isinstance(processor, LinkInlineProcessor):
            continue
        # The processor itself says whether it has them: a registry keyed by processors would
        # keep each page's Markdown (and its text) alive through the bound getLink it holds.
        bounded = processor.getLink
        if not isinstance(bounded, _BoundedLinks):
            bounded = _BoundedLinks(processor.getLink)
            processor.getText = _BracketMatcher().get_text  # type: ignore[method-assign]
            processor.getLink = bounded  # type: ignore[method-assign]
        bounded.budget = EXACT_SCAN_BUDGET


class BlockPreprocessor(Preprocessor):
    def __init__(self, md: Markdown, ext: DuizhaoExtension) -> None:
        super().__init__(md)
        self.ext = ext

    def run(self, lines: list[str]) -> list[str]:
        # Here, not in extendMarkdown: extensions loaded after this one may add link patterns.
        linear_links(self.md)
        for index in too_deep(lines):  # reported as DZ020 by the checks
            lines[index] = as_text(lines[index])
        for index, shown in list(html_too_deep(lines)):  # DZ021
            lines[index] = shown
        result = scan(lines, with_links=False)
        for at, kind, _detail in result.problems:
            if kind in ("deep-block", "deep-close"):  # DZ022
                lines[at - 1] = block_as_text(lines[at - 1])
        if not result.blocks:
            return lines
        inserts: dict[int, list[str]] = {}  # before line index → marker lines
        replace: dict[int, list[str]] = {}
        entries = self.ext.entries
        for block in result.blocks:
            n = len(entries)
            paragraph = split_paragraph(block) if block.kind == "paragraph" else None
            figure = FigurePlacement(block) if block.kind == "figure" else None
            entries.append(_Entry(paragraph, figure))
            replace[block.open_index] = ["", _MARK.format(kind="open", n=n), ""]
            close = ["", _MARK.format(kind="close", n=n), ""]
            if block.close_index is not None:
                replace[block.close_index] = close
            else:
                end = block.open_index + 1 + len(block.body)
                inserts.setdefault(end, []).extend(close)
            if paragraph is not None:
                at = block.open_index + 1 + paragraph.split
                inserts.setdefault(at, [])[:0] = ["", _MARK.format(kind="split", n=n), ""]
        out: list[str] = []
        for index, line in enumerate(lines):
            out.extend(inserts.get(index, ()))
            out.extend(replace.get(index, (line,)))
        out.extend(inserts.get(len(lines), ()))
        return out


class BlockRenderer(BlockProcessor):
    def __init__(self, md: Markdown, ext: DuizhaoExtension) -> None:
        super().__init__(md.parser)
        self.md = md
        self.ext = ext

    def test(self, parent: etree.Element, block: str) -> bool:
        m = _MARK_RE.match(block.strip("\n"))
        return bool(m and m.group(1) == "open")

    def run(self, parent: etree.Element, blocks: list[str]) -> bool | None:
        m = _MARK_RE.match(blocks.pop(0).strip("\n"))
        assert m is not None
        n = int(m.group(2))
        split_mark = _MARK.format(kind="split", n=n)
        close_mark = _MARK.format(kind="close", n=n)
        first: list[str] = []
        second: list[str] | None = None
        while blocks:
            block = blocks.pop(0)
            mark = block.strip("\n")
            if mark == close_mark:
                break
            if mark == split_mark:
                second = []
                continue
            (first if second is None else second).append(block)
        entry = self.ext.entries[n]
        if entry.paragraph is not None:
            self._paragraph(parent, entry.paragraph, first, second or [])
        elif entry.figure is not None:
            self._figure(parent, entry.figure, first)
        return True

    def _paragraph(
        self, parent: etree.Element, p: Paragraph, original: list[str], translation: list[str]
    ) -> None:
        pid = p.id
        has_original = bool(original)
        ok = PARAGRAPH_ID_RE.fullmatch(pid) is not None and pid not in self.ext.ids
        el = etree.SubElement(parent, "div", {"class": "dz-para"})
        if ok:
            self.ext.ids.add(pid)
            el.set("id", pid)
            el.set("data-dz-id", pid)
            link = etree.SubElement(
                el, "a", {"class": "dz-pid", "href": f"#{pid}", "title": f"段落 {pid} 的链接"}
            )
            link.text = pid
            for alias in self.ext.aliases.get(pid, ()):
                if alias not in self.ext.ids:  # an old ID: readers' bookmarks land here
                    self.ext.ids.add(alias)
                    etree.SubElement(el, "span", {"class": "dz-alias", "id": alias})
            if pid in self.ext.stale:
                el.set("class", "dz-para dz-para--stale")
                previous = self.ext.previous.get(pid)
                if previous is None:
                    note = "英文原文在译文确认之后有改动，译文待复核"
                    badge = etree.SubElement(el, "span", {"class": "dz-stale", "title": note})
                    badge.text = "原文已更新"
                else:
                    _compare(el, previous, p.original)
        else:
            el.set("class", "dz-para dz-para--invalid")
            label = etree.SubElement(el, "span", {"class": "dz-pid"})
            # An ID the checks reject is still the author's text: shown, never interpreted.
            label.text = AtomicString(html_text(pid or "P???"))
        if has_original:
            holder = etree.Element("div")
            self.parser.parseBlocks(holder, original)
            en = etree.SubElement(el, "div", {"class": "dz-en", "lang": "en"})
            for child in list(holder):
                if child.tag == "blockquote":
                    en.extend(list(child))
                else:
                    en.append(child)
        zh = etree.SubElement(el, "div", {"class": "dz-zh", "lang": "zh-CN"})
        self.parser.parseBlocks(zh, translation)
        if not has_original:
            el.set("class", el.get("class", "") + " dz-para--zh-only")
        if ok and self.ext.getConfig("search_exclude"):
            # On every element inside: Material's search parser matches elements by tag name,
            # so a mark on the block alone would end at the first nested </div>. (HTML stashed
            # until later, such as highlighted code, is not marked: text after it in the same
            # paragraph is then also in its section's entry.)
            for child in el.iter():
                if child is not el:
                    child.set("data-search-exclude", "paragraph")

    def _figure(self, parent: etree.Element, figure: FigurePlacement, body: list[str]) -> None:
        attrs = {"class": "dz-figure"}
        anchor = placement_anchor(figure.id)
        if anchor is not None and anchor not in self.ext.ids:
            attrs["id"] = anchor
            self.ext.ids.add(anchor)
        el = etree.SubElement(parent, "figure", attrs)
        if self.ext.figure_renderer is not None:
            self.ext.figure_renderer(el, figure, self.md)
        else:
            caption = etree.SubElement(el, "figcaption")
            caption.text = AtomicString(html_text(placement_label(figure.id)))
        if body:
            note = etree.SubElement(el, "div", {"class": "dz-figure-note"})
            self.parser.parseBlocks(note, body)


def _compare(parent: etree.Element, previous: str, current: str) -> None:
    """The 原文已更新 mark as a disclosure: it opens the original the translation was made for
    and the new one side by side, the words that changed marked (``<del>``, ``<ins>``). Both
    as the reader sees them (plain text); never in the search index."""
    from .escape import plain_text
    from .worddiff import side, word_diff

    exclude = {"data-search-exclude": "compare"}
    details = etree.SubElement(parent, "details", {"class": "dz-stale", **exclude})
    summary = etree.SubElement(
        details, "summary", {"title": "英文原文在译文确认之后有改动，点击对照新旧原文", **exclude}
    )
    summary.text = "原文已更新"
    box = etree.SubElement(details, "div", {"class": "dz-compare", **exclude})
    runs = word_diff(plain_text(previous), plain_text(current))
    for name, label, which in (
        ("old", "旧版原文（译文据此翻译）", "-"),
        ("new", "新版原文", "+"),
    ):
        column = etree.SubElement(box, "div", {"class": f"dz-compare__{name}", **exclude})
        heading = etree.SubElement(column, "p", {"class": "dz-compare__label", **exclude})
        heading.text = label
        text = etree.SubElement(column, "p", {"lang": "en", **exclude})
        pieces: list[str] = []  # text before the first mark, then after each
        for run in side(runs, which):  # type: ignore[arg-type]
            words = run.text + (" " if run.space else "")
            if run.op == "=":
                if len(text):
                    text[-1].tail = AtomicString((text[-1].tail or "") + html_text(words))
                else:
                    pieces.append(words)
                continue
            mark = etree.SubElement(text, "del" if which == "-" else "ins", exclude)
            mark.text = AtomicString(html_text(run.text))
            mark.tail = AtomicString(" " if run.space else "")
        text.text = AtomicString(html_text("".join(pieces)))


class EmptyLinkText(Treeprocessor):
    """``[](#P042)`` reads "P042", ``[](#fig-3)`` "图 3" and ``[](#table-2)`` "表 2".

    Only links to duizhao's own anchors, when the build says which they are
    (:attr:`DuizhaoExtension.link_anchors`): a site's own ``[](#table-2)`` to its heading
    "Table 2" stays as the site wrote it.
    """

    def __init__(self, md: Markdown, ext: DuizhaoExtension) -> None:
        super().__init__(md)
        self.ext = ext

    def run(self, root: etree.Element) -> None:
        for a in root.iter("a"):
            if (a.text or "").strip() or len(a):
                continue
            href = a.get("href", "")
            path, hash_, fragment = href.rpartition("#")
            if not hash_:
                continue
            if PARAGRAPH_ID_RE.fullmatch(fragment):
                text = fragment
            elif m := FIGURE_ANCHOR_RE.fullmatch(fragment):
                text = f"图 {m.group(1)}"
            elif TABLE_ANCHOR_RE.fullmatch(fragment):
                text = placement_label(fragment)
            else:
                continue
            known = self.ext.link_anchors
            if known is not None and fragment not in known(path):
                continue
            a.text = text


class StrayMarkers(Postprocessor):
    """Drop markers that raw HTML swallowed (``<div>`` left open around a block)."""

    def run(self, text: str) -> str:
        return _ANY_MARK_RE.sub("", text) if "\x02duizhao:" in text else text


#: Elements that end a ``<p>`` when a browser parses them (HTML's "close a p element" rule)
_BLOCK_TAGS = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "details",
        "dialog",
        "div",
        "dl",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "main",
        "menu",
        "nav",
        "ol",
        "p",
        "pre",
        "search",
        "section",
        "table",
        "ul",
    ]
)


def unwrap_blocks(html: str) -> str:
    """Take block elements out of the ``<p>`` around them: ``<p>x<div>…</div>y</p>`` becomes
    ``<p>x</p><div>…</div><p>y</p>`` (no empty or whitespace-only paragraph is left).

    Python-Markdown writes a paragraph around stashed HTML that shares its Markdown block with
    text (a code fence right after a line, raw HTML in a quote); a browser would end the
    paragraph at the block element and leave an empty one behind.
    """
    if "<p" not in html:
        return html
    out, last = [], 0
    for paragraph in htmlscan.paragraphs(html):
        out += [html[last : paragraph.start], _split_paragraph(html, paragraph)]
        last = paragraph.end
    return "".join([*out, html[last:]])


def _split_paragraph(html: str, paragraph: htmlscan.Paragraph) -> str:
    attrs, body = paragraph.attrs or "", paragraph.body
    pieces: list[tuple[bool, str]] = []  # (is a block element, text)
    depth = 0
    start = 0
    block_tag = ""
    for tag in htmlscan.tags(body):
        closing, name, self_closing = tag.closing, tag.name.lower(), tag.self_closing
        if depth == 0 and not closing and name in _BLOCK_TAGS:
            pieces.append((False, body[start : tag.start]))
            start, block_tag = tag.start, name
            if name == "hr" or self_closing:
                pieces.append((True, body[start : tag.end]))
                start = tag.end
            else:
                depth = 1
        elif depth and name == block_tag and not self_closing:
            depth += -1 if closing else 1
            if depth == 0:
                pieces.append((True, body[start : tag.end]))
                start = tag.end
    if not pieces:
        return html[paragraph.start : paragraph.end]
    pieces.append((False, body[start:]))
    out = []
    for is_block, text in pieces:
        if is_block:
            out.append(text)
        elif text.strip():
            out.append(f"<p{attrs}>{text.strip()}</p>")
    return "\n".join(out)


class BlockParagraphs(Postprocessor):
    """:func:`unwrap_blocks` on the pages that have duizhao blocks (others stay as they are)."""

    def __init__(self, md: Markdown, ext: DuizhaoExtension) -> None:
        super().__init__(md)
        self.ext = ext

    def run(self, text: str) -> str:
        return unwrap_blocks(text) if self.ext.entries else text


class DuizhaoExtension(Extension):
    """Register the block renderer. ``figure_renderer`` fills each ``<figure>`` element;
    ``search_exclude`` marks numbered paragraphs for Material's search to skip."""

    def __init__(self, **kwargs: Any) -> None:
        self.config = {
            # Not None: Python-Markdown turns a value whose default is None into a bool.
            "figure_renderer": ["", "callable(element, FigurePlacement, md) filling a figure"],
            "search_exclude": [
                False,
                "mark numbered paragraphs data-search-exclude: Material's search leaves them out "
                "of their section's entry, because each gets an entry of its own",
            ],
        }
        super().__init__(**kwargs)
        self.entries: list[_Entry] = []
        self.ids: set[str] = set()
        #: IDs of the page being converted whose original changed since the translation was
        #: accepted; set by the MkDocs plugin per page (conversion does not reset it)
        self.stale: frozenset[str] = frozenset()
        #: per stale ID, the original its translation was made for (duizhao update): the
        #: 原文已更新 mark then opens the old and the new original side by side
        self.previous: dict[str, str] = {}
        #: per ID, the old IDs that lead to it (alias anchors for readers' bookmarks)
        self.aliases: dict[str, tuple[str, ...]] = {}
        #: The anchors duizhao emits on the page a link's path names ("" for this page), set by
        #: the MkDocs plugin per page; None (without MkDocs): every ``#P042`` is duizhao's.
        self.link_anchors: Callable[[str], frozenset[str]] | None = None

    @property
    def figure_renderer(self) -> FigureRenderer | None:
        renderer = self.getConfig("figure_renderer")
        return renderer if callable(renderer) else None

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's API)
        md.registerExtension(self)
        # After normalize_whitespace (30), before fenced code (25) and raw HTML (20).
        md.preprocessors.register(BlockPreprocessor(md, self), "duizhao_blocks", 29)
        md.parser.blockprocessors.register(BlockRenderer(md, self), "duizhao_blocks", 105)
        # After the inline processor (20), which creates the <a> elements.
        md.treeprocessors.register(EmptyLinkText(md, self), "duizhao_empty_links", 15)
        # After raw HTML is restored (30).
        md.postprocessors.register(StrayMarkers(md), "duizhao_stray_markers", 5)
        md.postprocessors.register(BlockParagraphs(md, self), "duizhao_block_paragraphs", 4)

    def reset(self) -> None:
        self.entries = []
        self.ids = set()


def makeExtension(**kwargs: Any) -> DuizhaoExtension:  # noqa: N802 (Python-Markdown's API)
    return DuizhaoExtension(**kwargs)


__all__ = ["Block", "DuizhaoExtension", "FigureRenderer", "makeExtension"]
