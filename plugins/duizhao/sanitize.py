"""HTML an original carries: the one allow-list sanitiser (nh3) and the nesting limit.

An imported original (a docs page, a blog post) may hold raw HTML. It never reaches a page as
code: :func:`sanitize_html` keeps formatting from an allow-list and names everything it drops;
:class:`HtmlDepth` and :func:`limit_html_depth` bound the nesting every HTML reader walks
(issue 19). Text the author writes goes through :mod:`duizhao.escape` instead.

Pure: no MkDocs import.
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser

from .escape import NOT_IN_SCHEME_RE, html_text, unsafe_scheme

#: Formatting a reader should see as formatting, inside a line of text.
INLINE_HTML_TAGS = frozenset(
    {"a", "abbr", "b", "bdi", "bdo", "br", "cite", "code", "del", "dfn", "em", "i", "img"}
    | {"ins", "kbd", "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time"}
    | {"u", "var", "wbr"}
)
#: ... and the blocks that may hold it, where HTML stands as a block of its own.
BLOCK_HTML_TAGS = INLINE_HTML_TAGS | frozenset(
    {"blockquote", "caption", "center", "col", "colgroup", "dd", "details", "div", "dl", "dt"}
    | {"figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "li", "ol", "p", "pre"}
    | {"summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul"}
)
_HTML_ATTRIBUTES = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title", "width", "height", "align"},
    "abbr": {"title"},
    "td": {"colspan", "rowspan", "align"},
    "th": {"colspan", "rowspan", "align", "scope"},
    "col": {"span"},
    "colgroup": {"span"},
    "ol": {"start", "type"},
    "details": {"open"},
    "p": {"align"},
    "div": {"align"},
    "time": {"datetime"},
}
#: Elements whose content goes with them (the rest lose their tags and keep their text).
_DROPPED_WITH_CONTENT = frozenset({"script", "style", "template", "noscript", "textarea", "title"})
#: Attributes that only style or name an element: dropped without a word (every docs page has
#: them); any other attribute not allowed (``onerror``, ``srcdoc``, ``formaction``) is reported.
_QUIET_ATTRIBUTES = frozenset({"class", "style", "id", "name", "role", "target", "rel", "lang"})
_QUIET_PREFIXES = ("data-", "aria-")
_WEB_SCHEMES = frozenset({"http", "https", "mailto"})
_URL_ATTRIBUTES = frozenset({"href", "src"})
_SCHEME_RE = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]{0,31}):")
#: Characters of an attribute value that an inline pattern of Python-Markdown or an extension
#: could read (code, escapes, links, math, emphasis, emoji, magic links, table cells): written
#: as character references, which the browser reads back and no pattern matches.
_ATTRIBUTE_REFERENCES = {ch: f"&#{ord(ch)};" for ch in "`\\[]()*_~=^$:|!{}<>+@"}


#: Deepest nesting of HTML elements an original or a page may carry (issue 19): real pages nest
#: a few tens of levels. Deeper, every reader of HTML slows down by the depth per tag
#: (html5ever inside nh3 and Material's search indexer walk the open elements: 100,000 nested
#: ``<div>`` did not finish in minutes, and ``<div markdown="1">`` 400 deep made Python-Markdown
#: end in ``RecursionError``). A tag past the limit is not read as a tag: the import drops it and
#: keeps its text; a page shows it as text (DZ021).
MAX_HTML_DEPTH = 256

#: Elements that do not deepen the nesting: void ones, and those whose end tag HTML lets a page
#: leave out (an unclosed ``<li>`` or ``<p>`` is closed by the next one, not nested in it).
_DEPTHLESS = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
    | {"track", "wbr", "p", "li", "dt", "dd", "tr", "td", "th", "thead", "tbody", "tfoot"}
    | {"option", "optgroup", "rt", "rp", "colgroup", "caption", "html", "head", "body"}
)
#: A start or end tag: ``[^<>]*`` stops at the next ``<``, so each tag is read once.
_TAG_RE = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)(?:[\s/][^<>]*)?>")


class HtmlDepth:
    """The nesting of HTML read tag by tag, one pass (a page keeps one for all its lines):
    :meth:`beyond` says which tags lie past :data:`MAX_HTML_DEPTH`, and their end tags."""

    def __init__(self, limit: int = MAX_HTML_DEPTH) -> None:
        self.limit = limit
        self.depth = 0
        #: open elements past the limit, by name (their end tags are past it too)
        self.over: dict[str, int] = {}

    def past(self, closing: bool, name: str, self_closing: bool) -> bool:
        """Whether this tag lies past the limit (and the nesting after it)."""
        name = name.lower()
        if name in _DEPTHLESS or self_closing:
            return False
        if closing:
            if self.over.get(name):
                self.over[name] -= 1
                return True
            self.depth = max(0, self.depth - 1)
            return False
        if self.depth >= self.limit:
            self.over[name] = self.over.get(name, 0) + 1
            return True
        self.depth += 1
        return False

    def beyond(self, text: str, skip: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int]]:
        """The spans of the tags of ``text`` past the limit, outside the sorted ``skip`` spans
        (code), in order."""
        found: list[tuple[int, int]] = []
        starts = [start for start, _end in skip]
        for m in _TAG_RE.finditer(text):
            at = bisect.bisect_right(starts, m.start()) - 1
            if at >= 0 and m.start() < skip[at][1]:
                continue
            if self.past(m.group(1) == "/", m.group(2), m.group().endswith("/>")):
                found.append(m.span())
        return found


def limit_html_depth(fragment: str) -> tuple[str, int]:
    """``fragment`` without the tags past :data:`MAX_HTML_DEPTH` (their text stays), and how
    many tags went."""
    if fragment.count("<") <= MAX_HTML_DEPTH:
        return fragment, 0
    spans = HtmlDepth().beyond(fragment)
    if not spans:
        return fragment, 0
    parts: list[str] = []
    at = 0
    for start, end in spans:
        parts.append(fragment[at:start])
        at = end
    parts.append(fragment[at:])
    return "".join(parts), len(spans)


@dataclass(frozen=True)
class SanitizedHtml:
    """What :func:`sanitize_html` kept, and what it dropped, in words for a report."""

    html: str
    dropped: tuple[str, ...]


class _HtmlSurvey(HTMLParser):
    """What the sanitiser will drop, named for the author (nh3 says nothing)."""

    def __init__(self, allowed: frozenset[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.allowed = allowed
        self.dropped: dict[str, None] = {}  # ordered set

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.allowed:
            self.dropped[
                f"<{tag}>" + (" with its content" if tag in _DROPPED_WITH_CONTENT else "")
            ] = None
            return
        kept = _HTML_ATTRIBUTES.get(tag, set())
        for name, value in attrs:
            if name in kept:
                if name in _URL_ATTRIBUTES and unsafe_scheme((value or "")[:64]):
                    self.dropped[f"{_scheme_of(value or '')}: URL in <{tag} {name}>"] = None
            elif name not in _QUIET_ATTRIBUTES and not name.startswith(_QUIET_PREFIXES):
                self.dropped[f"{name} attribute of <{tag}>"] = None

    handle_startendtag = handle_starttag


def _scheme_of(url: str) -> str:
    m = _SCHEME_RE.match(NOT_IN_SCHEME_RE.sub("", html.unescape(url[:64])))
    return m.group(1).lower() if m else "unsafe"


class _Reserialise(HTMLParser):
    """nh3's output written again: text and attribute values with
    :data:`_ATTRIBUTE_REFERENCES` (so that no Markdown pattern reads them) and an ``<img>``
    that kept no ``src`` replaced by its alt text. nh3's output is well formed, so this
    parser reads it exactly."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.out: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "img" and not values.get("src"):
            self.out.append(html_text(values.get("alt") or ""))
            return
        written = "".join(f' {name}="{_attribute_value(value or "")}"' for name, value in attrs)
        self.out.append(f"<{tag}{written}>")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        self.out.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        # Text of kept HTML may be read as Markdown (inline HTML in a paragraph, a table in a
        # numbered block): what a pattern reads is written as a character reference, which
        # shows the same either way (the caller's own Markdown, in \x02N\x03, is left alone).
        self.out.append("".join(_ATTRIBUTE_REFERENCES.get(ch, ch) for ch in data))

    def handle_entityref(self, name: str) -> None:
        self.out.append(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.out.append(f"&#{name};")


def _attribute_value(value: str) -> str:
    escaped = html.escape(value, quote=True)
    return "".join(_ATTRIBUTE_REFERENCES.get(ch, ch) for ch in escaped)


def sanitize_html(
    fragment: str,
    *,
    inline: bool,
    url: Callable[[str, str], str | None] | None = None,
    keep: Sequence[str] | None = None,
) -> SanitizedHtml:
    """HTML from an original, through the allow-list sanitiser nh3 (the Rust ammonia crate).

    Formatting stays (:data:`INLINE_HTML_TAGS`, and with ``inline=False`` the blocks of
    :data:`BLOCK_HTML_TAGS`), with a few harmless attributes (``href``, ``src``, ``alt``,
    ``title``, sizes, spans, alignment); everything else goes: ``<script>`` and ``<style>``
    with their content, other elements (``<iframe>``, ``<svg>``, MDX components) leaving
    their text, ``on*`` and other attributes, URLs with a scheme other than http(s) or
    mailto. ``url(value, tag)`` rewrites each ``href``/``src`` (the importer resolves relative
    ones, or returns None to drop the attribute); whatever it returns is checked again.

    The result is safe as raw HTML in a Markdown page: attribute values hold no character a
    Markdown pattern reads, ``<`` and ``&`` in text are escaped, and ``\\x02``/``\\x03``
    (Python-Markdown's placeholders) never come from the original.

    With ``keep``, text between the tags is the caller's own Markdown, already escaped: the
    fragment holds ``\\x02N\\x03`` where ``keep[N]`` goes (the caller removes ``\\x02`` and
    ``\\x03`` from the original's tags), and each is put back after sanitising, where the
    sanitiser left it (inside a dropped ``<script>``, it goes too).
    """
    import nh3  # here: only an import needs it

    if keep is None:
        fragment = fragment.replace("\x02", "").replace("\x03", "")
    fragment, deep = limit_html_depth(fragment)  # before html5ever, which is slow past it
    allowed = INLINE_HTML_TAGS if inline else BLOCK_HTML_TAGS
    survey = _HtmlSurvey(allowed)
    if deep:
        survey.dropped[f"{deep:,} tags nested more than {MAX_HTML_DEPTH} levels deep"] = None
    try:
        survey.feed(fragment)
        survey.close()
    except AssertionError:  # html.parser on a malformed declaration; nh3 still decides
        survey.dropped["a malformed declaration"] = None

    def attribute(tag: str, name: str, value: str) -> str | None:
        if name not in _URL_ATTRIBUTES:
            return value
        target = url(value, tag) if url is not None else value
        if target is None or _unsafe_web(target):
            return None
        return target

    cleaned = nh3.clean(
        fragment,
        tags=set(allowed),
        clean_content_tags=set(_DROPPED_WITH_CONTENT),
        attributes={tag: set(names) for tag, names in _HTML_ATTRIBUTES.items() if tag in allowed},
        attribute_filter=attribute,
        url_schemes=set(_WEB_SCHEMES),
        link_rel=None,
        strip_comments=True,
    )
    writer = _Reserialise()
    writer.feed(cleaned)
    writer.close()
    out = "".join(writer.out)
    if keep is not None:
        out = _PLACEHOLDER_RE.sub(lambda m: _kept(keep, m.group(1)), out)
    return SanitizedHtml(out, tuple(survey.dropped))


_PLACEHOLDER_RE = re.compile("\x02([0-9]{1,9})\x03")


def _kept(keep: Sequence[str], index: str) -> str:
    n = int(index)
    return keep[n] if n < len(keep) else ""


def _unsafe_web(url: str) -> bool:
    """Whether ``url`` names a scheme other than http(s) or mailto (read as browsers do)."""
    scheme, colon, _rest = NOT_IN_SCHEME_RE.sub("", html.unescape(url[:64])).partition(":")
    return (
        bool(colon)
        and "/" not in scheme
        and "#" not in scheme
        and "?" not in scheme
        and (scheme.lower() not in _WEB_SCHEMES)
    )
