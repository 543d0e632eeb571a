"""Author text is data: the one place it is escaped, with one function per output context.

Every string an author controls (titles, 导言, captions, alt text, paper fields, IDs, section
names, anything read from YAML or the lock) reaches a page only through these functions, and
exactly once:

==========================  ==============================================================
:func:`html_text`           element content (``<p>…</p>``, ``<title>``, nav titles)
:func:`html_attr`           a double-quoted attribute value (``alt="…"``, ``href="…"``)
:func:`meta_content`        ``<meta content="…">``: the plain text of Markdown, cut, escaped
:func:`search_text`         ``title``/``text`` of ``search_index.json``, as Material writes them
:func:`markdown_text`       plain text re-emitted into generated Markdown, shown literally
:func:`markdown_source`     Markdown shown on pages its author did not write: an imported
                            original, the 导言 on index pages (raw HTML shows as text)
:func:`markdown_url`        a docs path as a link destination in generated Markdown
==========================  ==============================================================

The HTML functions return :class:`markupsafe.Markup`: text that is already HTML. Escaping
``Markup`` again returns it unchanged, and Jinja's ``|e`` filter knows it too, so a value that
travels on (``page.meta["description"]`` into Material's template and into the Open Graph
tags) cannot be escaped twice. Python-Markdown's serializer leaves character references alone,
so ``AtomicString(html_text(s))`` set on an element of the Markdown tree is also escaped once
(``AtomicString`` keeps inline patterns, raw HTML and math off it).

Pure: no MkDocs import.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from urllib.parse import quote

import markdown
from markupsafe import Markup, escape

#: Longer descriptions get cut by every link preview; keep the first sentences.
DESCRIPTION_LIMIT = 160

__all__ = [
    "DESCRIPTION_LIMIT",
    "Markup",
    "html_attr",
    "html_text",
    "markdown_source",
    "markdown_text",
    "markdown_url",
    "meta_content",
    "plain_text",
    "search_text",
]


# --------------------------------------------------------------------------------------------
# HTML


def html_text(text: str) -> Markup:
    """``text`` as HTML element content: ``&``, ``<``, ``>``, ``"`` and ``'`` escaped."""
    return escape(text)


def html_attr(text: str) -> Markup:
    """``text`` as the value of a double-quoted attribute (quotes escaped too)."""
    return escape(text)


class _Text(HTMLParser):
    """The text a reader sees in a piece of HTML (scripts and styles are not text)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def plain_text(markdown_text: str, limit: int | None = None) -> str:
    """What a reader sees of ``markdown_text``: rendered, tags dropped, whitespace collapsed,
    cut at ``limit`` characters (with "…")."""
    parser = _Text()
    parser.feed(markdown.markdown(markdown_text))
    parser.close()
    text = " ".join("".join(parser.parts).split())
    if limit is not None and len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text


def meta_content(markdown_text: str, limit: int = DESCRIPTION_LIMIT) -> Markup:
    """A ``<meta content>`` value from Markdown (a 导言): plain text, cut, attribute-escaped.

    Code spans keep their text, links their label; markup and raw HTML are gone. The cut
    comes before escaping, so it never splits a character reference.
    """
    return html_attr(plain_text(markdown_text, limit))


# --------------------------------------------------------------------------------------------
# Search index


def search_text(text: str) -> str:
    """Plain ``text`` as Material's search index holds it: HTML, ``&``/``<``/``>`` escaped once.

    Material's search plugin writes the text of each section with ``html.escape(data,
    quote=False)`` and its client shows titles and text as HTML; entries made here match its own
    byte for byte. ``Markup`` (text that is HTML already) is taken back to plain text first.
    """
    if isinstance(text, Markup):
        text = text.unescape()
    return html.escape(text, quote=False)


# --------------------------------------------------------------------------------------------
# Markdown

# Backslash escapes that Python-Markdown honours whatever the extensions (its ESCAPED_CHARS).
# Not "(" and ")": "\(" opens inline math for pymdownx.arithmatex. Not "[" and "]": a line
# "[\]: x" is still a reference definition (that regex ignores backslashes).
_BACKSLASHED = "\\`*_{}#+-"
# Characters other extensions read (math, tables, ~~del~~, ^^ins^^, ==mark==, :emoji:), and
# HTML's own: written as character references, which no inline pattern matches and every
# renderer shows as the character.
_REFERENCES = {
    "[": "&#91;",
    "]": "&#93;",
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    "$": "&#36;",
    "|": "&#124;",
    "~": "&#126;",
    "^": "&#94;",
    "=": "&#61;",
}
_MARKDOWN_RE = re.compile(
    "|".join(
        [
            "[" + re.escape(_BACKSLASHED + "".join(_REFERENCES)) + "]",
            r":(?=\S)",  # ":name:" (emoji) and "scheme:" (autolinking extensions)
        ]
    )
)


_ORDERED_RE = re.compile(r"^([0-9]+)([.)])")


def _markdown_char(m: re.Match[str]) -> str:
    char = m.group(0)
    if char == ":":
        return "&#58;"
    return _REFERENCES.get(char) or "\\" + char


def markdown_text(text: str) -> str:
    """Plain ``text`` as Markdown inline text that renders as exactly ``text``.

    For titles, captions and section names written into a generated page: a heading, link text
    or table cell. Whitespace (newlines included) is collapsed to single spaces, so the text
    stays on its line; no character can open emphasis, code, a link, raw HTML, an entity, math
    (``$…$``, ``\\(…\\)``), a table cell, a heading's closing ``#`` or an attribute list.
    """
    out = _MARKDOWN_RE.sub(_markdown_char, " ".join(text.split()))
    # "1. Intro" and "1) Intro" at the start of a line open an ordered list.
    return _ORDERED_RE.sub(lambda m: m.group(1) + ("\\." if m.group(2) == "." else "&#41;"), out)


def markdown_url(url: str) -> str:
    """A relative URL (``../a b/x.md#P042``) as a Markdown link destination.

    File names are the author's: spaces, parentheses, ``<`` or ``>`` in them would end or
    break the link. Percent-encoded they cannot, and MkDocs decodes them to find the file.
    """
    path, hash_, fragment = url.partition("#")
    return quote(path, safe="/") + (hash_ + quote(fragment, safe="") if hash_ else "")


# Markdown from an outside document keeps its Markdown, but not its raw HTML nor links to
# schemes other than the web's: an original is text to translate, never code on our page.
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_CODE_SPAN_RE = re.compile(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)", re.S)
# "<" that would start raw HTML (a tag, comment, declaration or processing instruction) or an
# autolink to something other than the web ("<javascript:…>"); web autolinks stay links.
_HTML_START_RE = re.compile(r"(?<!\]\()<(?=[A-Za-z/!?])(?!(?:https?|ftp)://[^\s<>]*>)")
_SAFE_SCHEMES = frozenset(["http", "https", "ftp", "mailto"])
# An inline link's or image's "](", or a reference definition's "[label]:", then a destination
# that names a scheme: whatever precedes the first ":" before any "/", "?" or ")". Relative and
# "#fragment" links name none.
_LINK_DEST_RE = re.compile(r"(\]\(\s*<?|^ {0,3}\[[^\]]*\]:\s*<?)([^/?)\n]*?):", re.M)
_BLANK_LINES_RE = re.compile(r"(\n[ \t]*\n)")
_NOT_IN_SCHEME_RE = re.compile(r"[\x00-\x20\x7f]+")


def _unsafe_scheme(written: str) -> bool:
    """Whether a destination starting ``written:`` links somewhere a browser would run or
    fetch outside the web. Browsers decode character references and drop tabs and newlines in
    URLs (``java&#115;cript:``, ``java\tscript:``), so the scheme is read as they read it."""
    scheme = _NOT_IN_SCHEME_RE.sub("", html.unescape(written)).lower()
    if "#" in scheme:
        return False  # a path or fragment that holds a colon ("#sec:intro")
    return scheme not in _SAFE_SCHEMES


def _link(m: re.Match[str]) -> str:
    opener, written = m.group(1), m.group(2)
    if not _unsafe_scheme(written):
        return m.group(0)
    # "](" becomes "]&#40;" and a definition's "[" becomes "\[": the text shows as written.
    if opener.startswith("]"):
        return "]&#40;" + opener[2:] + written + ":"
    return opener.replace("[", "\\[", 1) + written + ":"


def _neutralise(text: str) -> str:
    # Links first: a neutralised "](<javascript:…>" loses the "](" that keeps its "<".
    return _HTML_START_RE.sub("&lt;", _LINK_DEST_RE.sub(_link, text))


def markdown_source(text: str) -> str:
    """Markdown to show on a page its author did not write: an imported original, a 导言.

    Its Markdown stays (emphasis, links, lists, code); what would become live markup shows as
    the text it is: raw HTML (``<script>``, ``<b>``, comments), and links, images, autolinks
    and reference definitions whose target has a scheme other than http(s), ftp or mailto
    (``[x](javascript:…)``). Code spans and fenced code are left alone: they are text already.
    """
    out: list[str] = []
    prose: list[str] = []  # lines since the last fence, neutralised paragraph by paragraph
    fence: str | None = None

    def flush() -> None:
        if prose:
            paragraphs = _BLANK_LINES_RE.split("\n".join(prose))
            out.append("".join(p if i % 2 else _outside_code(p) for i, p in enumerate(paragraphs)))
            prose.clear()

    for line in text.split("\n"):
        m = _FENCE_RE.match(line)
        if fence is not None:
            out.append(line)
            closing = m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence)
            if closing and not line.strip().strip(fence[0]):
                fence = None
        elif m:
            flush()
            fence = m.group(1)
            out.append(line)
        else:
            prose.append(line)
    flush()
    return "\n".join(out)


def _outside_code(paragraph: str) -> str:
    """``paragraph`` neutralised except inside its code spans (which never cross paragraphs)."""
    parts: list[str] = []
    at = 0
    for m in _CODE_SPAN_RE.finditer(paragraph):
        parts.append(_neutralise(paragraph[at : m.start()]))
        parts.append(m.group(0))
        at = m.end()
    parts.append(_neutralise(paragraph[at:]))
    return "".join(parts)
