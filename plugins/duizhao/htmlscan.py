"""Linear scanners for the HTML duizhao reads back: paragraphs, tags, comments, classes.

Each replaces a regular expression that backtracked super-linearly on author text passed
through to the page (issue 19) and finds exactly what it found, in one pass: whatever a failed
attempt searched for is kept (:class:`duizhao.linear.Next`) or was searched for once and
remembered, so a thousand unclosed ``<p`` or ``<a`` cost no more than one. The regular
expression each one replaces is quoted in its docstring (tests/test_linear_scanners.py
compares them on generated input).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from . import linear

__all__ = [
    "Href",
    "Markup",
    "Paragraph",
    "Tag",
    "has_class",
    "hrefs",
    "loads_math",
    "markup",
    "paragraphs",
    "tags",
]

_NAME_RUN_RE = re.compile(r"[a-zA-Z0-9-]*")
_MARKUP_NAME_RUN_RE = re.compile(r"[\w:-]*")
_ATTRIBUTE_STOP_RE = re.compile(r"['\">]")
_CLASS_TOKEN_RE = re.compile(r'<[a-z]|>|\sclass="')
#: A tag up to its ">" when no "<" or ">" comes before it, inside quotes or not (group 4: the
#: ">"; without it the tag is left to :func:`markup`'s scan). Possessive: it never backtracks.
_PLAIN_TAG_RE = re.compile(
    r"<(/?)([A-Za-z][\w:-]*+)((?:[^'\"<>]++|\"[^\"<>]*+\"|'[^'<>]*+')*+)(>?)"
)
#: One attribute of a tag: its name and, after "=", its value quoted or bare (groups 2-4). Each
#: match consumes what it matched and an optional part that fails gives nothing back: linear.
_ATTRIBUTE_RE = re.compile(
    r"""([^\s"'>/=]++)(?:\s*+=\s*+(?:"([^"]*+)"|'([^']*+)'|([^\s"'=<>`]++)))?+"""
)
#: what ends the text of a link on its line: the next tag
_TEXT_STOP_RE = re.compile(r"<")
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _word(char: str) -> bool:
    """Whether ``char`` is a word character as ``\\w`` and ``\\b`` read it."""
    return char.isalnum() or char == "_"


class Paragraph(NamedTuple):
    start: int
    end: int
    #: the attributes after ``<p``, from their leading space to ``>``; None for a bare ``<p>``
    attrs: str | None
    body: str


def paragraphs(html: str) -> Iterator[Paragraph]:
    """Each ``<p …>…</p>`` of ``html``, from ``<p`` to the first ``</p>`` after it, left to
    right and not overlapping: what ``re.finditer(r"<p(\\s[^>]*)?>(.*?)</p>", html, re.S)``
    finds."""
    next_gt, next_close = linear.Next(html, ">"), linear.Next(html, "</p>")
    n = len(html)
    pos = 0
    while (start := linear.find(html, "<p", pos)) >= 0:
        after = start + 2
        attrs: str | None = None
        if after < n and html[after].isspace():
            gt = next_gt(after + 1)
            attrs = html[after:gt] if gt >= 0 else None
        else:
            gt = after if html.startswith(">", after) else -1
        close = next_close(gt + 1) if gt >= 0 else -1
        if close < 0:
            pos = start + 1
            continue
        yield Paragraph(start, close + 4, attrs, html[gt + 1 : close])
        pos = close + 4


class Tag(NamedTuple):
    start: int
    end: int
    closing: bool
    name: str
    self_closing: bool


def tags(html: str) -> Iterator[Tag]:
    """Each tag of ``html`` up to the first ``>`` after its name (quotes do not count): what
    ``re.finditer(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)\\b[^>]*?(/?)>", html)`` finds. The name is
    its longest run of letters, digits and ``-`` that a word boundary ends (``<a->`` is an
    ``a``, ``<a-_>`` an ``a-``)."""
    next_gt = linear.Next(html, ">")
    n = len(html)
    pos = 0
    while (start := linear.find(html, "<", pos)) >= 0:
        pos = start + 1
        first = start + 2 if html.startswith("/", start + 1) else start + 1
        if first >= n or html[first] not in _LETTERS:
            continue
        run = linear.run_end(html, _NAME_RUN_RE, first + 1)
        end = run
        while end > first and _word(html[end - 1]) == (end < n and _word(html[end])):
            end -= 1  # no word boundary after this prefix of the run: a shorter one
        gt = next_gt(end) if end > first else -1
        if gt < 0:
            continue
        yield Tag(start, gt + 1, first > start + 1, html[first:end], html[gt - 1] == "/")
        pos = gt + 1


class Markup(NamedTuple):
    start: int
    end: int
    #: "/" for an end tag, else ""
    closing: str
    #: the element's name; None for a comment
    name: str | None
    #: everything between the name and ``>``
    attrs: str


def markup(html: str) -> Iterator[Markup]:
    """Each comment and each tag of ``html``, a tag ending at the first ``>`` outside quoted
    attribute values: what ``re.finditer(r"<!--.*?-->|<(/?)([A-Za-z][\\w:-]*)"
    r"((?:\\"[^\\"]*\\"|'[^']*'|[^'\\">])*)>", html, re.S)`` finds."""
    # A tag whose quoted values hold no "<" or ">", and that has no "<" before its ">", is
    # matched by _PLAIN_TAG_RE in one step (most tags); the others are found by the scan below.
    # A match stops at the first "<" or ">" after its "<": the matches at successive "<" pass
    # over disjoint stretches of the text.
    next_comment_end = linear.Next(html, "-->")
    next_stop = linear.Next(html, _ATTRIBUTE_STOP_RE)
    #: per quote or ">" an attribute run stopped at: the ">" that ends the tag, or -1
    ends: dict[int, int] = {}

    def tag_end(stop: int) -> int:
        chain = []
        while stop >= 0 and stop not in ends and html[stop] != ">":
            chain.append(stop)
            close = linear.find(html, html[stop], stop + 1)
            stop = linear.find(html, _ATTRIBUTE_STOP_RE, close + 1) if close >= 0 else -1
        end = ends.get(stop, stop)
        for at in chain:
            ends[at] = end
        return end

    n = len(html)
    pos = 0
    while (start := linear.find(html, "<", pos)) >= 0:
        pos = start + 1
        if html.startswith("<!--", start):
            close = next_comment_end(start + 4)
            if close >= 0:
                yield Markup(start, close + 3, "", None, "")
                pos = close + 3
            continue
        plain = linear.match(html, _PLAIN_TAG_RE, start)
        if plain is not None and plain.group(4):
            yield Markup(start, plain.end(), plain.group(1), plain.group(2), plain.group(3))
            pos = plain.end()
            continue
        closing = "/" if html.startswith("/", start + 1) else ""
        first = start + 1 + len(closing)
        if first >= n or html[first] not in _LETTERS:
            continue
        name_end = linear.run_end(html, _MARKUP_NAME_RUN_RE, first + 1)
        gt = tag_end(next_stop(name_end))
        if gt < 0:
            continue
        yield Markup(start, gt + 1, closing, html[first:name_end], html[name_end:gt])
        pos = gt + 1


def has_class(html: str, name: str, *, prefix: bool = False) -> bool:
    """Whether an element of ``html`` has the class ``name`` (with ``prefix``: a class that
    starts with ``name``) in a double-quoted ``class`` attribute: what
    ``re.search(r'<[a-z][^>]*\\sclass="(?:[^"]*\\s)?NAME[\\s"]', html)`` finds (without
    ``[\\s"]`` for a prefix)."""
    if linear.find(html, name, 0) < 0:  # (most pages have no mermaid class)
        return False
    opened = False  # a "<a" since the last ">"
    pos = 0
    while (at := linear.find(html, _CLASS_TOKEN_RE, pos)) >= 0:
        if html[at] == "<":
            opened, pos = True, at + 2
        elif html[at] == ">":
            opened, pos = False, at + 1
        else:
            pos = at + 8
            if opened and _value_has(html, pos, name, prefix):
                return True
    return False


def _value_has(html: str, value: int, name: str, prefix: bool) -> bool:
    """Whether the attribute value starting at ``value`` (up to the next ``"``) has ``name``
    at its start or after a space."""
    quote = linear.find(html, '"', value)
    end = len(html) if quote < 0 else quote
    at = value
    while (at := linear.find(html, name, at, end)) >= 0:
        after = at + len(name)
        if (at == value or html[at - 1].isspace()) and (
            prefix or (after < len(html) and (html[after] == '"' or html[after].isspace()))
        ):
            return True
        at += 1
    return False


_SCRIPT_RE = re.compile(r"<script\b", re.IGNORECASE)
#: a script that configures or calls a math renderer
_MATH_CALL_RE = re.compile(r"mathjax\s*=|katex\.render|renderMathInElement", re.IGNORECASE)


def loads_math(html: str, renderers: re.Pattern[str]) -> bool:
    r"""Whether a ``<script>`` of ``html`` loads a math renderer (its attributes hold a match of
    ``renderers``, a case-insensitive search for a few words) or configures or calls one in
    its first text (``MathJax =``, ``katex.render``, ``renderMathInElement``): what
    ``re.search(rf"<script\b[^>]*(?:{renderers})|<script\b[^>]*>[^<]*(?:MathJax\s*=|"
    r"katex\.render|renderMathInElement)", html, re.I)`` finds."""
    next_gt, next_lt = linear.Next(html, ">"), linear.Next(html, "<")
    next_source, next_call = linear.Next(html, renderers), linear.Next(html, _MATH_CALL_RE)
    pos = 0
    while (at := linear.find(html, _SCRIPT_RE, pos)) >= 0:
        attrs = at + len("<script")
        gt = next_gt(attrs)
        named = next_source(attrs)
        if named >= 0 and (gt < 0 or named < gt):
            return True
        if gt >= 0:
            text_end, call = next_lt(gt + 1), next_call(gt + 1)
            if call >= 0 and (text_end < 0 or call < text_end):
                return True
        pos = at + 1
    return False


class Href(NamedTuple):
    """An ``href`` attribute's value in a start tag: where it is, and, for an ``<a>`` whose
    text runs to the next tag on the line, that text (else "")."""

    start: int
    end: int
    value: str
    text: str


def hrefs(html: str) -> Iterator[Href]:
    """The ``href`` values of the start tags of ``html`` (one line of a Markdown source, say),
    left to right: comments and what lies inside their ``<!--…-->`` have none, and neither do
    quoted values that merely hold ``href=``. The value's span is that of its text, without
    the quotes (character references such as ``&amp;`` are left as written). A start tag the
    text ends in, its ``>`` on a later line (``<a href="#P042"`` then ``class="x">``), counts."""
    end = 0
    for tag in markup(html):
        end = tag.end
        if tag.name is None or tag.closing:
            continue
        found = _href(html, tag.start + 1 + len(tag.name), tag.attrs, tag.name, tag.end)
        if found is not None:
            yield found
    last = html.rfind("<", end)
    # (not in a comment the line opens, nor in a quoted value that goes on to the next line)
    if last >= 0 and ">" not in html[last:] and "<!--" not in html[end:]:
        m = _OPEN_TAG_RE.match(html, last)
        if m is not None:
            closed = _CLOSED_QUOTES_RE.match(html, m.end())
            assert closed is not None  # (a starred group always matches)
            found = _href(html, m.end(), html[m.end() : closed.end()], m.group(1), -1)
            if found is not None:
                yield found


#: a start tag's "<" and name, as :func:`markup` reads them
_OPEN_TAG_RE = re.compile(r"<([A-Za-z][\w:-]*+)")
#: attributes up to a quote that does not close on this line
_CLOSED_QUOTES_RE = re.compile(r"""(?:[^"']++|"[^"]*+"|'[^']*+')*+""")


def _href(html: str, offset: int, attrs: str, name: str, tag_end: int) -> Href | None:
    """The ``href`` of the attributes ``attrs`` (at ``offset`` in ``html``) of a start tag
    ``name`` that ends at ``tag_end`` (-1: on a later line), if it has one."""
    for m in _ATTRIBUTE_RE.finditer(attrs):
        if m.group(1).lower() != "href":
            continue
        group = next((g for g in (2, 3, 4) if m.group(g) is not None), None)
        if group is None:
            return None  # "href" without a value
        text = ""
        if name.lower() == "a" and tag_end >= 0:
            stop = linear.find(html, _TEXT_STOP_RE, tag_end)
            if stop >= 0 and html[stop : stop + 4].lower() == "</a>":
                text = html[tag_end:stop]
        return Href(offset + m.start(group), offset + m.end(group), m.group(group), text)
    return None  # (the first of two hrefs is the one browsers follow)
