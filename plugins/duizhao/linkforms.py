"""The link forms ``duizhao renumber`` reads beyond a page's parse (:mod:`duizhao.blockscan`,
which reads one line at a time): an ``href`` on a later line than its tag's ``<``, and which
lines are code (fenced or indented), where a link is text and stays as written.

Pure and linear: each line is looked at once, a tag is followed over at most
:data:`MAX_TAG_LINES` lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from .htmlscan import _ATTRIBUTE_RE, markup
from .model import Link

__all__ = ["MAX_TAG_LINES", "code_lines", "continued_hrefs"]

#: a start tag is followed over this many lines at most (an unclosed ``<a`` in prose is text)
MAX_TAG_LINES = 20
#: Python-Markdown's indent of an indented code block, and of a list item's content
_CODE_INDENT = 4
_TAB = 4
_LIST_ITEM_RE = re.compile(r"^ {0,3}(?:[-*+]|[0-9]+[.)])[ \t]")
#: the start of a start tag (its name): what may be left open at a line's end
_OPEN_RE = re.compile(r"<[A-Za-z][\w:-]*")


def _indent(line: str) -> int:
    width = 0
    for char in line:
        if char == " ":
            width += 1
        elif char == "\t":
            width += _TAB - width % _TAB
        else:
            break
    return width


def _fence(line: str) -> str | None:
    """The run of three or more backticks or tildes ``line`` opens a fence with, if it does
    (a backtick fence's info has no backtick)."""
    rest = line.lstrip(" \t")
    mark = rest[:1]
    if mark not in ("`", "~"):
        return None
    run = len(rest) - len(rest.lstrip(mark))
    if run < 3 or (mark == "`" and "`" in rest[run:]):
        return None
    return rest[:run]


def code_lines(lines: Sequence[str]) -> set[int]:
    """The indexes of the lines of a Markdown text that are code: fenced (as the block scanner
    reads fences: a run of three backticks or tildes opens, the same run alone closes) or
    indented (four spaces or a tab after a blank line, eight in a list item's content, as
    Python-Markdown reads them; a line indented under a paragraph goes on with it)."""
    found: set[int] = set()
    fence: str | None = None
    in_code = in_list = False
    blank_before = True
    for index, line in enumerate(lines):
        if fence is not None:
            found.add(index)
            if line.strip() == fence:
                fence = None
            continue
        blank = not line.strip()
        indent = _indent(line)
        if blank:
            blank_before = True
            continue
        if indent >= _CODE_INDENT * (2 if in_list else 1) and (blank_before or in_code):
            found.add(index)
            in_code, blank_before = True, False
            continue
        in_code = False
        opener = _fence(line) if indent < _CODE_INDENT else None
        if opener is not None:
            fence = opener
            found.add(index)
        elif indent < _CODE_INDENT:
            in_list = bool(_LIST_ITEM_RE.match(line)) or (in_list and not blank_before)
        blank_before = False
    return found


def continued_hrefs(lines: Sequence[str], first_line: int, skip: set[int]) -> Iterator[Link]:
    """The ``href`` values of start tags that open on one line and hold their ``href`` on a
    later one (``<a class="md-button"`` then ``href="../x/#P042">``), as raw HTML links of
    the line the value is on (``first_line`` numbers ``lines[0]``). Lines in ``skip`` (code)
    neither open nor continue a tag."""
    index = 0
    while index < len(lines):
        opened = _left_open(lines[index]) if index not in skip else None
        if opened is None:
            index += 1
            continue
        # the tag's text, from its "<" over the lines up to the one with its ">"
        parts = [lines[index][opened:]]
        last = index
        while last + 1 < len(lines) and last + 1 - index < MAX_TAG_LINES and last + 1 not in skip:
            last += 1
            parts.append(lines[last])
            if ">" in lines[last]:
                break
        text = "\n".join(parts)
        tag = next(markup(text), None)
        if tag is not None and tag.name is not None and not tag.closing and tag.start == 0:
            found = _href_after_first_line(text, 1 + len(tag.name), tag.attrs)
            if found is not None:
                line_offset, column, value = found
                yield Link(first_line + index + line_offset, "", value, column, html=True)
        index = last if last > index else index + 1


def _left_open(line: str) -> int | None:
    """Where the last start tag of ``line`` begins when its ``>`` is not on the line (and the
    line does not leave a comment open), else None."""
    closed_at = 0
    for tag in markup(line):
        closed_at = tag.end
    if "<!--" in line[closed_at:]:
        return None
    opens = [m.start() for m in _OPEN_RE.finditer(line, closed_at)]
    if not opens or ">" in line[opens[-1] :]:
        return None
    return opens[-1]


def _href_after_first_line(text: str, offset: int, attrs: str) -> tuple[int, int, str] | None:
    """The tag's ``href`` (its attributes ``attrs`` at ``offset`` of ``text``, the tag from its
    ``<`` on) when it is not on the tag's first line (the parse reads that one): how many
    lines after it, its value's column there and the value; None otherwise. The first
    ``href`` is the one browsers follow."""
    for m in _ATTRIBUTE_RE.finditer(attrs):
        if m.group(1).lower() != "href":
            continue
        group = next((g for g in (2, 3, 4) if m.group(g) is not None), None)
        if group is None:
            return None
        start = offset + m.start(group)
        line_offset = text.count("\n", 0, start)
        if line_offset == 0:
            return None
        return line_offset, start - (text.rfind("\n", 0, start) + 1), m.group(group)
    return None
