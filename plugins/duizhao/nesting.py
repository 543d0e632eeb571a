"""How deep a Markdown line nests (block quotes, lists, indentation), and the line as text
when it nests deeper than :data:`MAX_MARKDOWN_DEPTH` (issue 19).

Python-Markdown parses nested quotes and lists by recursion: a list 600 levels deep takes
15 s and ends in ``RecursionError``. Every line deeper than the limit is reported (DZ020,
by ``duizhao check`` and the build alike) and rendered as text at the top level: its quote
markers and list marker escaped, so the reader still sees every character.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

#: Deepest nesting of a Markdown line: one level per ``>``, per list marker and per four
#: columns of indentation. Python-Markdown stays fast and well inside Python's recursion limit here.
MAX_MARKDOWN_DEPTH = 32

_PREFIX_RE = re.compile(r"[ \t>]*")
_MARKER_RE = re.compile(r"(?:[-*+]|[0-9]{1,9}[.)])(?=[ \t]|$)")
_FENCE_RE = re.compile(r"[ \t]{0,3}(`{3,}|~{3,})")


def line_depth(line: str) -> int:
    """The nesting depth of ``line`` (one pass over its leading markers)."""
    prefix = _PREFIX_RE.match(line)
    assert prefix is not None  # the pattern matches the empty string
    text = prefix.group()
    quotes = text.count(">")
    columns = sum(4 if c == "\t" else 1 for c in text if c != ">")
    marker = 1 if _MARKER_RE.match(line, prefix.end()) else 0
    return quotes + columns // 4 + marker


def too_deep(lines: list[str]) -> Iterator[int]:
    """The indexes of the lines of ``lines`` deeper than :data:`MAX_MARKDOWN_DEPTH`, outside
    fenced code (whose indentation is its text)."""
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
        if (
            fence is None
            and len(line) > MAX_MARKDOWN_DEPTH
            and line_depth(line) > MAX_MARKDOWN_DEPTH
        ):
            yield index


def as_text(line: str) -> str:
    """``line`` at the top level with its quote and list markers escaped (shown, not parsed)."""
    prefix = _PREFIX_RE.match(line)
    assert prefix is not None
    rest = line[prefix.end() :]
    quotes = "\\>" * prefix.group().count(">")
    if _MARKER_RE.match(rest):
        rest = "\\" + rest if rest[0] in "-*+" else re.sub(r"^([0-9]+)([.)])", r"\1\\\2", rest)
    return quotes + rest
