"""How deep a page nests, and what is shown as text past each limit (issue 19).

- Markdown lines (block quotes, lists, indentation), past :data:`MAX_MARKDOWN_DEPTH`:
  Python-Markdown parses nested quotes and lists by recursion: a list 600 levels deep takes
  15 s and ends in ``RecursionError``. Every line deeper than the limit is reported (DZ020,
  by ``duizhao check`` and the build alike) and rendered as text at the top level: its quote
  markers and list marker escaped, so the reader still sees every character.
- ``///`` blocks, past :data:`MAX_BLOCK_DEPTH` (found by :func:`duizhao.article.scan`, DZ022):
  the opening line and its closing line are shown as text (:func:`block_as_text`).
- HTML elements, past :data:`duizhao.sanitize.MAX_HTML_DEPTH` (DZ021): the tags past it are
  shown as text (:func:`html_too_deep`), their content stays where it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .escape import code_spans
from .sanitize import MAX_HTML_DEPTH, HtmlDepth

#: Deepest nesting of a Markdown line: one level per ``>``, per list marker and per four
#: columns of indentation. Python-Markdown stays fast and well inside Python's recursion limit here.
MAX_MARKDOWN_DEPTH = 32

#: Deepest nesting of ``///`` blocks (``/// details`` in ``//// details`` …): pages nest two
#: or three. Past it an opening line and its closing line are text.
MAX_BLOCK_DEPTH = 32

_PREFIX_RE = re.compile(r"[ \t>]*")
_MARKER_RE = re.compile(r"(?:[-*+]|[0-9]{1,9}[.)])(?=[ \t]|$)")
_FENCE_RE = re.compile(r"[ \t]{0,3}(`{3,}|~{3,})")
#: A line that may be too deep: its depth is at most one more than its markers' count (a
#: ``>``, a tab or four spaces is one level, a list marker one more), so it starts with at
#: least MAX_MARKDOWN_DEPTH of them. (After a line feed, not ``^``: the engine then skips to
#: each line feed in C instead of trying every position.)
_MAYBE_DEEP_RE = re.compile(r"\n[ \t>]{32}")  # (32: MAX_MARKDOWN_DEPTH, a test checks)


def line_depth(line: str) -> int:
    """The nesting depth of ``line`` (one pass over its leading markers)."""
    prefix = _PREFIX_RE.match(line)
    assert prefix is not None  # the pattern matches the empty string
    text = prefix.group()
    quotes = text.count(">")
    columns = sum(4 if c == "\t" else 1 for c in text if c != ">")
    marker = 1 if _MARKER_RE.match(line, prefix.end()) else 0
    return quotes + columns // 4 + marker


def _outside_fences(lines: list[str]) -> Iterator[int]:
    """The indexes of the lines of ``lines`` outside fenced code (whose text is code)."""
    fence: str | None = None
    for index, line in enumerate(lines):
        m = _FENCE_RE.match(line)
        if m is not None:
            mark = m.group(1)
            if fence is None:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence):
                fence = None
            continue
        if fence is None:
            yield index


def too_deep(lines: list[str], text: str | None = None) -> Iterator[int]:
    """The indexes of the lines of ``lines`` deeper than :data:`MAX_MARKDOWN_DEPTH`, outside
    fenced code (whose indentation is its text); ``text``: the lines joined by line feeds,
    when the caller has it."""
    joined = "\n".join(lines) if text is None else text
    first = lines[0][:MAX_MARKDOWN_DEPTH] if lines else ""
    if _MAYBE_DEEP_RE.search(joined) is None and (
        len(first) < MAX_MARKDOWN_DEPTH or first.lstrip(" \t>")
    ):
        return  # (most pages: no line starts with enough markers; found in C)

    # Each character of a line's leading markers adds at most one level, its list marker one
    # more: a line past the limit starts with more than MAX_MARKDOWN_DEPTH - 1 of " \t>".
    head = MAX_MARKDOWN_DEPTH - 1
    for index in _outside_fences(lines):
        line = lines[index]
        if (
            len(line) > MAX_MARKDOWN_DEPTH
            and not line[:head].strip(" \t>")
            and line_depth(line) > MAX_MARKDOWN_DEPTH
        ):
            yield index


def html_too_deep(lines: list[str], text: str | None = None) -> Iterator[tuple[int, str]]:
    """``(index, line)`` for each line of ``lines`` holding HTML tags nested past
    :data:`~duizhao.sanitize.MAX_HTML_DEPTH` (one count for the page, outside fenced code and
    code spans), with those tags shown as text (``<`` as ``&lt;``); ``text`` as for
    :func:`too_deep`."""
    if ("".join(lines) if text is None else text).count("<") <= MAX_HTML_DEPTH:
        return  # (most pages: nothing to count)
    depth = HtmlDepth()
    for index in _outside_fences(lines):
        line = lines[index]
        if "<" not in line:
            continue
        spans = depth.beyond(line, code_spans(line, 0) if "`" in line else ())
        if spans:
            parts: list[str] = []
            at = 0
            for start, end in spans:
                parts.append(line[at:start] + "&lt;" + line[start + 1 : end])
                at = end
            yield index, "".join(parts) + line[at:]


def block_as_text(line: str) -> str:
    """A ``///`` line shown as text: its first ``/`` as a character reference."""
    return line.replace("/", "&#47;", 1)


def as_text(line: str) -> str:
    """``line`` at the top level with its quote and list markers escaped (shown, not parsed).

    One escape a line: after ``\\>`` the other markers are no longer at the start of a line
    (an escape for each made Python-Markdown's inline pass quadratic in them: 120,000 of them
    in one paragraph took 12 s).
    """
    prefix = _PREFIX_RE.match(line)
    assert prefix is not None
    rest = line[prefix.end() :]
    quotes = prefix.group().count(">")
    if quotes:
        return "\\" + ">" * quotes + rest
    if _MARKER_RE.match(rest):
        return "\\" + rest if rest[0] in "-*+" else re.sub(r"^([0-9]+)([.)])", r"\1\\\2", rest)
    return rest
