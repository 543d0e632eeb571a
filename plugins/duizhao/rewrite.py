"""Edits of source text as the scanner reads it: a block's argument, the front matter's range,
the URLs of links. They keep everything else on the line byte for byte."""

from __future__ import annotations

import re
from collections.abc import Callable

from .blockscan import _BLOCK_OPEN_RE, _FENCE_OPEN_RE, _REF_DEF_RE, _strip_code_spans, split_lines
from .links import inline_links
from .model import ParagraphRange

_RANGE_IN_LINE_RE = re.compile(r"(P[0-9]{3,9})\s*[-–—~]\s*(P[0-9]{3,9})")


def replace_range(line: str, rng: ParagraphRange) -> str | None:
    """The front matter ``line`` holding ``paragraphs: P001-P129`` with ``rng`` in its place.

    Quotes, dash, spacing and a trailing comment are kept; None when the line has no range.
    """
    m = _RANGE_IN_LINE_RE.search(line)
    if m is None:
        return None
    return (
        line[: m.start(1)]
        + rng.format_id(rng.start)
        + line[m.end(1) : m.start(2)]
        + rng.format_id(rng.end)
        + line[m.end(2) :]
    )


def replace_block_argument(line: str, argument: str) -> str:
    """The opening fence ``line`` of a block with its argument set to ``argument``.

    Everything else on the line (indent, number of slashes, spacing) is kept:
    ``replace_block_argument("/// paragraph | P003", "P004") == "/// paragraph | P004"``.
    """
    m = _BLOCK_OPEN_RE.match(line)
    if m is None:
        raise ValueError(f"not a block opener: {line!r}")
    if m.group("arg"):
        start, end = m.span("arg")
        return line[:start] + argument + line[end:]
    return f"{line[: m.end('name')]} | {argument}"


def rewrite_urls(text: str, rewrite: Callable[[str], str]) -> str:
    """``text`` with ``rewrite(url)`` applied to every inline link, image and reference definition.

    Fenced code and code spans are left alone, as :func:`scan` leaves them. Used to move a piece
    of Markdown (an article's 导言) to a page in another folder.
    """
    out: list[str] = []
    fence: str | None = None
    for line in split_lines(text):
        if fence is not None:
            if line.strip() == fence:
                fence = None
            out.append(line)
            continue
        m = _FENCE_OPEN_RE.match(line)
        if m and not (m.group("fence")[0] == "`" and "`" in m.group("info")):
            fence = m.group("fence")
            out.append(line)
            continue
        scrubbed = _strip_code_spans(line)
        spans: list[tuple[int, int]] = []
        if "](" in scrubbed:
            spans += [(lm.url_start, lm.url_end) for lm in inline_links(scrubbed, images=True)]
        rm = _REF_DEF_RE.match(scrubbed)
        if rm:
            spans.append(rm.span("url"))
        for start, end in sorted(spans, reverse=True):
            url = line[start:end]
            bracketed = url.startswith("<") and url.endswith(">")
            new = rewrite(url[1:-1] if bracketed else url)
            line = line[:start] + (f"<{new}>" if bracketed else new) + line[end:]
        out.append(line)
    return "\n".join(out)
