"""Linear scanners for Markdown links: inline links and images, and link destinations.

They replace two regular expressions that backtracked super-linearly on author text (issue 19:
``[`` after ``\\[`` a thousand times over made every ``[`` rescan the line) and find exactly
what they found. A link's text ends where the run of its pieces (an escape, a character that is
no bracket, a ``[…]`` without brackets inside) stops, which does not depend on where the run
began: each stop is computed once and kept for every ``[`` that reaches it, and so is what
follows each ``](``. All searching goes through :mod:`duizhao.linear`
(tests/test_linear_scanners.py compares these with the old patterns and counts the characters
scanned).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from . import linear

__all__ = ["Destination", "InlineLink", "destinations", "inline_links"]

_SPACE_RUN_RE = re.compile(r"\s*")
#: characters of a link text with no meaning there
_PLAIN_RUN_RE = re.compile(r"[^\[\]\\]*")
#: what ends a "[…]" nested in a link text
_NESTED_STOP_RE = re.compile(r"[\[\]\n]")
#: characters of a destination without "<>" (and of each of its "(…)")
_URL_RUN_RE = re.compile(r"[^\s()]*")
_ANGLE_STOP_RE = re.compile(r"[<>\n]")
#: characters of a destination up to where a scheme would end
_SCHEME_RUN_RE = re.compile(r"[^/?()\[\]<>\n]*")
_LABEL_STOP_RE = re.compile(r"[\]\n]")


class InlineLink(NamedTuple):
    start: int
    end: int
    text_start: int
    text_end: int
    #: the destination, with its "<>" if it has them
    url_start: int
    url_end: int


def inline_links(line: str, images: bool = False) -> Iterator[InlineLink]:
    r"""The inline links ``[text](url "title")`` of ``line`` (with ``images``, also the images
    ``![alt](src)``, as links from their ``[``), left to right and not overlapping.

    What ``re.finditer`` found with this pattern (without ``(?<!!)`` for ``images``), groups
    included; :func:`_after_paren` spells out its backtracking::

        (?<!!)\[(?P<text>(?:\\.|[^\[\]\\]|\[[^\[\]\n]*\])*)\]
        \(\s*(?P<url><[^<>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)
        (?:\s+(?:"[^"]*"|'[^']*'))?\s*\)
    """
    n = len(line)
    stops: dict[int, int] = {}
    tails: dict[int, tuple[int, int, int] | None] = {}
    pos = 0
    while (start := linear.find(line, "[", pos)) >= 0:
        pos = start + 1
        if not images and start and line[start - 1] == "!":
            continue
        end = _text_end(line, start + 1, stops)
        if end + 1 >= n or line[end] != "]" or line[end + 1] != "(":
            continue
        if end + 2 not in tails:
            tails[end + 2] = _after_paren(line, end + 2)
        tail = tails[end + 2]
        if tail is not None:
            yield InlineLink(start, tail[0], start + 1, end, tail[1], tail[2])
            pos = tail[0]


def _text_end(line: str, at: int, stops: dict[int, int]) -> int:
    """Where the pieces of a link text starting at ``at`` stop (at a "]" if it is one).

    Every piece boundary passed is remembered in ``stops`` with the answer: a text starting
    later at one of them has the same end, so no character is walked twice."""
    n = len(line)
    passed = []
    while at < n and at not in stops:
        passed.append(at)
        char = line[at]
        if char == "\\":
            if at + 1 < n and line[at + 1] != "\n":
                at += 2
                continue
        elif char == "[":
            close = linear.find(line, _NESTED_STOP_RE, at + 1)
            if close >= 0 and line[close] == "]":
                at = close + 1
                continue
        elif char != "]":
            at = linear.run_end(line, _PLAIN_RUN_RE, at)
            continue
        break
    end = stops.get(at, at)
    for boundary in passed:
        stops[boundary] = end
    return end


def _after_paren(line: str, at: int) -> tuple[int, int, int] | None:
    """After a link's "](": the end of the link and the span of its destination, or None.

    The old pattern's order of attempts: all the spaces, then the destination in "<>", else
    the destination as a run with balanced "(…)" (only the longest one can be followed by a
    title or ")"), each followed by an optional title and ")"; failing those, one space fewer
    and an empty destination (a title after the spaces, or ")")."""
    spaces_end = linear.run_end(line, _SPACE_RUN_RE, at)
    if line.startswith("<", spaces_end):
        close = linear.find(line, _ANGLE_STOP_RE, spaces_end + 1)
        if close >= 0 and line[close] == ">":
            end = _title_and_paren(line, close + 1)
            if end >= 0:
                return end, spaces_end, close + 1
    url_end = _url_end(line, spaces_end)
    end = _title_and_paren(line, url_end)
    if end >= 0:
        return end, spaces_end, url_end
    if spaces_end > at:
        end = _title_and_paren(line, spaces_end - 1)
        if end >= 0:
            return end, spaces_end - 1, spaces_end - 1
    return None


def _url_end(line: str, at: int) -> int:
    """The end of the longest destination at ``at`` made of non-space characters other than
    parentheses, and of ``(…)`` groups of them."""
    n = len(line)
    end = linear.run_end(line, _URL_RUN_RE, at)
    while end < n and line[end] == "(":
        close = linear.run_end(line, _URL_RUN_RE, end + 1)
        if close >= n or line[close] != ")":
            break
        end = linear.run_end(line, _URL_RUN_RE, close + 1)
    return end


def _title_and_paren(line: str, at: int) -> int:
    """The end of ``(?:\\s+(?:"…"|'…'))?\\s*\\)`` at ``at``, or -1."""
    n = len(line)
    spaces_end = linear.run_end(line, _SPACE_RUN_RE, at)
    if spaces_end > at and spaces_end < n and line[spaces_end] in "\"'":
        close = linear.find(line, line[spaces_end], spaces_end + 1)
        if close >= 0:
            paren = linear.run_end(line, _SPACE_RUN_RE, close + 1)
            if paren < n and line[paren] == ")":
                return paren + 1
    return spaces_end + 1 if spaces_end < n and line[spaces_end] == ")" else -1


class Destination(NamedTuple):
    """The start of a link destination: ``](`` or a reference definition's ``[label]:``, the
    spaces and ``<`` after it (the opener), and what follows up to where a scheme ends."""

    start: int
    opener_end: int
    end: int


def destinations(text: str) -> Iterator[Destination]:
    r"""The destinations of ``text``'s inline links and images (after ``](``) and reference
    definitions (``[label]:`` at a line start after up to three spaces), up to the first
    ``/``, ``?``, bracket, parenthesis, ``<``, ``>`` or line end: what ``re.finditer`` found
    with ``(\]\(\s*<?|^ {0,3}\[[^\]\n]*\]:\s*<?)([^/?()\[\]<>\n]*)`` and ``re.M``."""
    next_paren, next_newline = linear.Next(text, "]("), linear.Next(text, "\n")
    pos = 0
    n = len(text)
    while pos <= n:
        paren = next_paren(pos)
        if pos == 0:
            line_start = 0
        else:
            newline = next_newline(pos - 1)
            line_start = newline + 1 if newline >= 0 else -1
        if line_start >= 0 and (paren < 0 or line_start < paren):
            opener = _definition_opener(text, line_start)
            if opener < 0:
                pos = line_start + 1
                continue
            start = line_start
        elif paren >= 0:
            start, opener = paren, paren + 2
        else:
            return
        opener = linear.run_end(text, _SPACE_RUN_RE, opener)
        if text.startswith("<", opener):
            opener += 1
        end = linear.run_end(text, _SCHEME_RUN_RE, opener)
        yield Destination(start, opener, end)
        pos = end


def _definition_opener(text: str, at: int) -> int:
    """After ``[label]:`` at the line start ``at`` (up to three spaces first), or -1."""
    indent = 0
    while indent < 3 and text.startswith(" ", at + indent):
        indent += 1
    if not text.startswith("[", at + indent):
        return -1
    close = linear.find(text, _LABEL_STOP_RE, at + indent + 1)
    if close < 0 or not text.startswith("]:", close):
        return -1
    return close + 2
