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
:func:`markdown_source`     outside Markdown: an imported original, the 导言 wherever it
                            is shown (Markdown and math stay; raw HTML, attribute lists
                            and ``javascript:`` links show as text)
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

import bisect
import html
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any
from urllib.parse import quote

from markupsafe import Markup, escape

from .links import destinations
from .mathscan import InlineMath

#: Longer descriptions get cut by every link preview; keep the first sentences.
DESCRIPTION_LIMIT = 160

__all__ = [
    "DESCRIPTION_LIMIT",
    "Markup",
    "Math",
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
    import markdown  # here: the CLI imports this module and need not load Python-Markdown

    from .markdown import linear_links

    md = markdown.Markdown()
    linear_links(md)  # a 导言 with thousands of '[' must not take minutes
    parser = _Text()
    parser.feed(md.convert(markdown_text))
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

# One escaper for Markdown inline text, written for two readers: Python-Markdown with any of the
# extensions a Material site enables (math, ~~del~~, ^^ins^^, ==mark==, ++keys++, :emoji:,
# magic links, critic marks, attribute lists), which must find no markup in it, and the
# translator, who reads the imported English in the source, where ``snake_case``, ``3 < 4``
# and ``[36]`` should stay readable. A character is escaped only where it could start markup:
# a backslash where Python-Markdown honours one (its ESCAPED_CHARS), a character reference
# where no backslash is honoured by every extension (``$``, ``~``, ``^``, ``|``), and the
# start-of-line markers only at the start of a line of its own.
_BACKSLASHED = frozenset("\\`*{}[]")
_REFERENCED = {"$": "&#36;", "~": "&#126;", "^": "&#94;"}
_ENTITY_RE = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{0,31}|#[0-9]{1,8}|#[xX][0-9A-Fa-f]{1,8});")
_TAG_START_RE = re.compile(r"<[A-Za-z/!?]")
#: ``:name:`` (emoji) and ``scheme://`` (magic links) start at a colon.
_EMOJI_NAME_RE = re.compile(r"[+\-\w]{1,64}:")
_EMAIL_AT_RE = re.compile(r"(?<=\w)@(?=\w)")


#: The characters :func:`_escape_inline` may have to escape (the rest are copied as they are).
_SPECIAL_RE = re.compile(r"[\\`*{}\[\]$~^_&<|=+:@\x02\x03]")


def _escape_inline(text: str, table: bool) -> str:
    def escape_one(m: re.Match[str]) -> str:
        ch, i = m.group(0), m.start()
        if ch == "]" and text.startswith(":", i + 1):
            return "&#93;"  # '[\\]: x' is a reference definition (backslash or not)
        if ch in _BACKSLASHED:
            return "\\" + ch
        if ch in _REFERENCED:
            return _REFERENCED[ch]
        if ch == "_":
            before = text[i - 1] if i else " "
            after = text[i + 1] if i + 1 < len(text) else " "
            return "_" if before.isalnum() and after.isalnum() else "\\_"
        if ch == "&":
            return "&amp;" if _ENTITY_RE.match(text, i) else "&"
        if ch == "<":
            return "&lt;" if _TAG_START_RE.match(text, i) else "<"  # '3 < 4' stays
        if ch == "|":
            return "&#124;" if table else "|"
        if ch in "=+":  # ==mark== and ++keys++
            doubled = text.startswith(ch, i + 1) or (i > 0 and text[i - 1] == ch)
            return f"&#{ord(ch)};" if doubled else ch
        if ch == ":":  # :emoji: and scheme:// (magic links)
            special = text.startswith("//", i + 1) or _EMOJI_NAME_RE.match(text, i + 1)
            return "&#58;" if special else ch
        if ch == "@":  # a@b.org would become a mailto link (magiclink)
            return "&#64;" if _EMAIL_AT_RE.match(text, i) else ch
        return ""  # \x02, \x03: Python-Markdown's placeholders, never author text

    return _SPECIAL_RE.sub(escape_one, text)


def _math_block_guard(text: str) -> str:
    """arithmatex reads a block that is ``\\[…\\]`` as display math: the last bracket becomes
    a character reference."""
    if text.startswith("\\[") and text.endswith("\\]") and not text.endswith("\\\\]"):
        return text[:-2] + "&#93;"
    return text


def markdown_text(text: str, *, table: bool = True, inline: bool = False) -> str:
    """Plain ``text`` as Markdown inline text that renders as exactly ``text``.

    By default for a title, caption or section name written into a generated page (a heading,
    link text, a table cell or a line of its own): whitespace, newlines included, is collapsed
    to single spaces, so the text stays on its line, and nothing at its start makes it a
    heading, list item, quote or definition. With ``inline=True`` it is a piece of a line (the
    importer's text between emphasis, links and code): its spaces are kept as they are and
    the start of the line is :func:`protect_line_start`'s; ``table=False`` then leaves ``|``
    readable outside pipe tables. Either way no character can open emphasis, code, a link,
    raw HTML, an entity, math, an attribute list or an extension's markup.
    """
    if inline:
        return _escape_inline(text, table)
    out = _math_block_guard(_escape_inline(" ".join(text.split()), table))
    end = len(out.rstrip("#"))  # a trailing run of '#' is a heading's closing sequence
    if end < len(out):
        out = out[:end] + "\\#" * (len(out) - end)
    return protect_line_start(out)


#: Every character that may start markup in a line, as a character reference (which no
#: Markdown reader parses), for :func:`markdown_literal`; Python-Markdown's placeholders go,
#: and a line break is a space, as a soft break is.
_LITERAL = str.maketrans(
    {
        **{ch: f"&#{ord(ch)};" for ch in "\\`*_{}[]()#+-.!$~^|=:@<>&\"'"},
        "\x02": None,
        "\x03": None,
        "\n": " ",
    }
)


def markdown_literal(text: str) -> str:
    """Plain ``text`` as Markdown inline text that renders as exactly ``text``, in one pass
    of ``str.translate``: each character that could start markup is a character reference.

    For text that is no prose (the importer's runs past ``MAX_INLINE_MARKUP``), where
    :func:`markdown_text`'s readable escaping costs a Python call per special character. It is
    safe anywhere: in a line, a heading, a table cell, at the start of a line.
    """
    return text.translate(_LITERAL)


_LINE_START_RE = re.compile(r"^(?:[#>+=-]|[0-9]{1,9}[.)](?=\s|$)|:(?=\s|$))")


def protect_line_start(line: str) -> str:
    """Escape what would make ``line`` a heading, list item, quote, setext rule or definition
    (leading spaces go: an indent would make it code)."""
    stripped = line.lstrip(" \t")
    m = _LINE_START_RE.match(stripped)
    if not m:
        return stripped
    token = m.group(0)
    if token[0].isdigit():
        # "1999. was a year": the character after the number is what makes a list item.
        return token[:-1] + ("\\." if token[-1] == "." else "&#41;") + stripped[len(token) :]
    if token in "#+-":
        return "\\" + stripped
    # '>' opens a quote, '=' underlines a heading, ':' starts a definition: Python-Markdown
    # cannot backslash-escape them, so they become character references.
    return {"=": "&#61;", ":": "&#58;", ">": "&gt;"}[token] + stripped[1:]


_BACKTICK_RUN_RE = re.compile(r"`+")
_FENCE_LANGUAGE_RE = re.compile(r"[^A-Za-z0-9_+#.-]")
_URL_UNSAFE = {" ": "%20", "(": "%28", ")": "%29", "<": "%3C", ">": "%3E", '"': "%22"}


def markdown_code_span(code: str) -> str:
    """Inline code: a backtick run longer than any inside, padded when it touches the ends."""
    code = code.replace("\n", " ")
    longest = max((len(run) for run in _BACKTICK_RUN_RE.findall(code)), default=0)
    fence = "`" * (longest + 1)
    if code.startswith("`") or code.endswith("`"):
        code = f" {code} "
    return f"{fence}{code}{fence}"


def fence_for(code: str) -> str:
    """A backtick fence longer than any run of three or more backticks in ``code``."""
    longest = max((len(run) for run in _BACKTICK_RUN_RE.findall(code) if len(run) > 2), default=2)
    return "`" * max(3, longest + 1)


def markdown_fence(code: str, language: str = "") -> list[str]:
    """A fenced code block holding ``code`` verbatim (the fence is longer than any inside)."""
    lines = code.rstrip("\n").split("\n") if code.strip("\n") else []
    fence = fence_for(code)
    language = _FENCE_LANGUAGE_RE.sub("", language)[:30]
    return [fence + language, *(line.rstrip() for line in lines), fence]


def markdown_href(url: str) -> str:
    """An absolute URL (checked by the caller) as a Markdown link destination that
    Python-Markdown reads back whole: spaces, parentheses and quotes percent-encoded."""
    return "".join(_URL_UNSAFE.get(ch, ch) for ch in url if ch >= " ")


def markdown_link_title(title: str) -> str:
    """A link title for ``[text](url "title")``: Python-Markdown cannot escape quotes there."""
    return " ".join(title.replace('"', "'").split())


def markdown_url(url: str) -> str:
    """A relative URL (``../a b/x.md#P042``) as a Markdown link destination.

    File names are the author's: spaces, parentheses, ``<`` or ``>`` in them would end or
    break the link. Percent-encoded they cannot, and MkDocs decodes them to find the file.
    """
    path, hash_, fragment = url.partition("#")
    return quote(path, safe="/") + (hash_ + quote(fragment, safe="") if hash_ else "")


# Markdown from an outside document keeps its Markdown, but not its raw HTML, its attribute
# lists nor links to schemes other than the web's: it is text to read, never code on our page.
# Where this module cannot be sure a region is code, it neutralises it: at worst an entity shows
# inside code; never does markup come alive.

# A fence opener as strict as Python-Markdown's and superfences' (a language, no attributes);
# a fence counts only when it is closed, else its lines are prose.
_FENCE_OPEN_RE = re.compile(r"^(`{3,}|~{3,})[ \t]*(?:[\w#.+-]+[ \t]*)?$")
_BACKTICKS_RE = re.compile(r"`+")
# "<" that would start raw HTML (a tag, comment, declaration or processing instruction) or an
# autolink to something other than the web ("<javascript:…>"); web autolinks stay links.
_HTML_START_RE = re.compile(r"<(?=[A-Za-z/!?])(?!(?:https?|ftp)://[^\s<>]*>)")
# "{" opens an attribute list ("{: onclick=…}", "{#id .class}"): escaped, it is text.
_ATTR_LIST_RE = re.compile(r"(?<!\\)\{")
_SAFE_SCHEMES = frozenset(["http", "https", "ftp", "mailto"])
_BLANK_LINE_RE = re.compile(r"\n[ \t]*\n")
NOT_IN_SCHEME_RE = re.compile(r"[\x00-\x20\x7f]+")


def unsafe_scheme(start: str) -> bool:
    """Whether a destination beginning with ``start`` names a scheme other than the web's.

    Browsers decode character references and drop tabs and newlines in URLs
    (``java&#115;cript:``, ``javascript&#58;``, ``java\tscript:``): the scheme is read as they
    read it. Relative links name none; a ``#`` before the colon makes it a fragment or path.
    """
    scheme, colon, _rest = NOT_IN_SCHEME_RE.sub("", html.unescape(start)).partition(":")
    if not colon or "#" in scheme:
        return False
    return scheme.lower() not in _SAFE_SCHEMES


def _links(text: str, kept: Callable[[int], bool]) -> str:
    """``text`` with each link destination (:func:`duizhao.links.destinations`: after an
    inline link's or image's "](", or a reference definition's "[label]:") that names a scheme
    other than the web's made text, unless it starts in code or math (``kept``)."""
    out: list[str] = []
    last = 0
    for link in destinations(text):
        opener, start = text[link.start : link.opener_end], text[link.opener_end : link.end]
        if kept(link.start) or not unsafe_scheme(start):
            continue
        # "](" becomes "]&#40;" and a definition's "[" becomes "\[": the text shows as written.
        if opener.startswith("]"):
            new = "]&#40;" + opener[2:] + start
        else:
            new = opener.replace("[", "\\[", 1) + start
        out += [text[last : link.start], new]
        last = link.end
    return "".join([*out, text[last:]])


def code_spans(line: str, offset: int) -> list[tuple[int, int]]:
    """Where the code spans of ``line`` are (shifted by ``offset``), as Python-Markdown finds
    them: a run of backticks (not after a backslash) up to the next run of the same length.
    Linear in the line.

    Spans that go on to the next line are not trusted: that line may start another block (a
    heading, a list item), where the backtick would close nothing.
    """
    runs = [(m.start(), m.end()) for m in _BACKTICKS_RE.finditer(line)]
    following: list[int | None] = [None] * len(runs)
    last: dict[int, int] = {}
    for index in range(len(runs) - 1, -1, -1):
        following[index] = last.get(runs[index][1] - runs[index][0])
        last[runs[index][1] - runs[index][0]] = index
    spans: list[tuple[int, int]] = []
    index = 0
    while index < len(runs):
        close, start = following[index], runs[index][0]
        if close is None or (start > 0 and line[start - 1] == "\\"):
            index += 1
            continue
        spans.append((offset + start, offset + runs[close][1]))
        index = close + 1
    return spans


@dataclass(frozen=True)
class Math:
    """Where pymdownx.arithmatex, as a site configures it, reads math: the same expressions.

    Math is text for KaTeX (arithmatex escapes it itself), so neutralising inside it would only
    break formulas such as ``$n<k$`` or ``$\\frac{a}{b}$``; what is math is decided exactly
    as arithmatex decides it, so nothing else is left alone.
    """

    #: arithmatex's inline patterns, scanned in linear time (:mod:`duizhao.mathscan`)
    inline: InlineMath | None
    block: re.Pattern[str] | None

    @classmethod
    def of(cls, config: Mapping[str, Any] | None) -> Math | None:
        """From the extension's options (``mdx_configs["pymdownx.arithmatex"]``); None when
        the site does not use arithmatex."""
        if config is None:
            return None
        from pymdownx import arithmatex as ax

        inline_syntax = set(config.get("inline_syntax", ["dollar", "round"]))
        dollar, round_ = "dollar" in inline_syntax, "round" in inline_syntax
        smart = bool(config.get("smart_dollar", True))
        block_syntax = set(config.get("block_syntax", ["dollar", "square", "begin"]))
        block = [
            pattern
            for name, pattern in (
                ("dollar", ax.RE_DOLLAR_BLOCK),
                ("square", ax.RE_BRACKET_BLOCK),
                ("begin", ax.RE_TEX_BLOCK),
            )
            if name in block_syntax
        ]
        return cls(
            InlineMath(dollar, smart, round_) if dollar or round_ else None,
            re.compile("(?s)^(?:" + "|".join(block) + ")[ ]*$") if block else None,
        )

    def spans(self, line: str, offset: int, code: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """Inline math of ``line`` between its code ``spans`` (code comes first, as in
        Python-Markdown, and math never spans a code span)."""
        if self.inline is None:
            return []
        found: list[tuple[int, int]] = []
        at = 0
        for start, end in [*[(s - offset, e - offset) for s, e in code], (len(line), len(line))]:
            for m_start, m_end in self.inline.spans(line, at, start):
                if line[m_start:m_end].strip("\\"):  # not just a run of escaped backslashes
                    found.append((offset + m_start, offset + m_end))
            at = end
        return found


_LINE_START_TAG_RE = re.compile(r"^([ \t]*)<", re.M)


def _neutralise(paragraph: str, math: Math | None = None) -> str:
    """One paragraph (no blank line in it) neutralised outside its code spans and math."""
    if math is not None and math.block is not None and math.block.match(paragraph):
        # Display math; only raw HTML at a line start is read before arithmatex sees it.
        return _LINE_START_TAG_RE.sub(r"\1&lt;", paragraph)
    spans: list[tuple[int, int]] = []
    offset = 0
    for line in paragraph.split("\n"):
        code = code_spans(line, offset)
        spans += code + (math.spans(line, offset, code) if math is not None else [])
        offset += len(line) + 1
    spans.sort()
    starts = [start for start, _end in spans]

    def kept(at: int) -> bool:
        index = bisect.bisect_right(starts, at) - 1
        return index >= 0 and at < spans[index][1]

    def outside(fix: Callable[[re.Match[str]], str]) -> Callable[[re.Match[str]], str]:
        return lambda m: m.group(0) if kept(m.start()) else fix(m)

    # Links first: a neutralised "](<javascript:…>" keeps its "<", then escaped as raw HTML.
    text = _links(paragraph, kept)
    if len(text) != len(paragraph):
        return _neutralise(text, math)  # spans moved: find them again (links are done now)
    text = _HTML_START_RE.sub(outside(lambda m: "&lt;"), text)
    return _ATTR_LIST_RE.sub(outside(lambda m: "\\{"), text)


def markdown_source(text: str, math: Math | None = None) -> str:
    """Markdown to show on a page its author did not write: an imported original, a 导言.

    Its Markdown stays (emphasis, links, lists, code, math); what would become live markup
    shows as the text it is: raw HTML (``<script>``, ``<b>``, comments), attribute lists
    (``{: onclick=…}``), and links, images, autolinks and reference definitions whose target
    has a scheme other than http(s), ftp or mailto (``[x](javascript:…)``). Code spans and
    closed fenced code are left alone: they are text already, and so is math when ``math``
    says how the site reads it (:meth:`Math.of`).
    """
    lines = text.split("\n")
    out: list[str] = []
    prose: list[str] = []
    hopeless: dict[str, int] = {}
    index = 0
    while index < len(lines):
        end = _fence_end(lines, index, hopeless)
        if end is None:
            prose.append(lines[index])
            index += 1
            continue
        out += _neutralise_prose(prose, math)
        prose = []
        out += lines[index : end + 1]
        index = end + 1
    out += _neutralise_prose(prose, math)
    return "\n".join(out)


def _neutralise_prose(lines: list[str], math: Math | None) -> list[str]:
    if not lines:
        return []
    paragraphs = _BLANK_LINE_RE.split("\n".join(lines))
    separators = _BLANK_LINE_RE.findall("\n".join(lines))
    parts = [_neutralise(paragraphs[0], math)]
    for separator, paragraph in zip(separators, paragraphs[1:], strict=True):
        parts += [separator, _neutralise(paragraph, math)]
    return "".join(parts).split("\n")


def _fence_end(lines: list[str], index: int, hopeless: dict[str, int]) -> int | None:
    """The closing line of a fence opened at ``lines[index]``, or None: no fence opens there,
    or it is never closed, or it is closed in a way fenced_code and superfences read apart
    (they agree on an unindented fence closed by the same run). ``hopeless`` remembers, per
    fence character, the shortest run found unclosed, which keeps the search linear."""
    m = _FENCE_OPEN_RE.match(lines[index])
    if m is None:
        return None
    fence = m.group(1)
    if len(fence) >= hopeless.get(fence[0], len(fence) + 1):
        return None
    for at in range(index + 1, len(lines)):
        closer = lines[at].rstrip(" ")
        if closer[:1] == fence[0] and not closer.strip(fence[0]) and len(closer) >= len(fence):
            return at if closer == fence else None
    hopeless[fence[0]] = len(fence)
    return None
