"""Plain text → :class:`~duizhao.importer.model.Chunk` s: literally (:func:`literal_chunks`,
what ``duizhao import`` does with a ``.txt`` original), or read as simple Markdown
(:func:`chunks_from_text`).

Paragraphs are separated by blank lines, ATX headings stay headings, fenced code and lists keep
their lines, and the hard wraps and hyphenated line breaks of text copied from a PDF are joined.
"""

from __future__ import annotations

import re

from ..article import atx_text
from ..pdf.hyphens import SOFT_HYPHENS, Joiner
from .model import Chunk

_HEADING_RE = re.compile(r"^ {0,3}(#{1,6})([ \t].*)$")
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_STRUCTURED_RE = re.compile(r"^ {0,3}(?:[-*+][ \t]|[0-9]{1,3}[.)][ \t]|\||>|<)")
_BLANK_RE = re.compile(r"\n[ \t]*\n")


def join_lines(lines: list[str], joiner: Joiner | None = None) -> str:
    """Join hard-wrapped lines into one; ``commu-`` + ``nication`` becomes ``communication``.

    The hyphen stays where the :class:`~.hyphens.Joiner` (by default one that knows the words
    of ``lines``) keeps it: a compound already (``state-of-the-`` + ``art``), before a capital
    (``GPU-`` + ``NPU``), a compound the text writes with its hyphen (``well-`` + ``known``).
    """
    stripped = [line.strip() for line in lines]
    cleaned = [line[:-1] + "-" if line.endswith(SOFT_HYPHENS) else line for line in stripped]
    out = (joiner or Joiner.of(cleaned)).join(cleaned)
    return "".join(ch for ch in out if ch not in SOFT_HYPHENS)


def chunks_from_text(text: str) -> list[Chunk]:
    """Split plain text or Markdown into headings and paragraphs (see the module docstring)."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").replace("\f", "\n\n")
    joiner = Joiner.of(text.split("\n"))
    chunks: list[Chunk] = []
    group: list[str] = []
    fence: str | None = None

    def flush() -> None:
        if not group:
            return
        if _FENCE_RE.match(group[0]) or any(_STRUCTURED_RE.match(g) for g in group):
            chunks.append(Chunk("\n".join(g.rstrip() for g in group)))
        else:
            joined = join_lines(group, joiner)
            if joined:
                chunks.append(Chunk(joined))
        group.clear()

    for line in text.split("\n"):
        if fence is not None:
            group.append(line)
            if line.strip().startswith(fence) and line.strip().strip(fence[0]) == "":
                fence = None
                flush()
            continue
        m = _FENCE_RE.match(line)
        if m:
            flush()
            fence = m.group(1)
            group.append(line)
            continue
        heading = _HEADING_RE.match(line)
        if heading:
            flush()
            chunks.append(Chunk(atx_text(heading.group(2)).strip(), len(heading.group(1))))
            continue
        if not line.strip():
            flush()
            continue
        group.append(line)
    flush()
    return chunks


def literal_chunks(text: str) -> list[Chunk]:
    """A plain-text original, literally: every character shows as written (``*stars*``,
    ``_under_``, `` `ticks` ``, ``<b>``, ``# not a heading``). Paragraphs are separated by
    blank lines; hard wraps are joined as in :func:`join_lines`, except in a paragraph whose
    lines are a list, a table or code (a line starting with a marker or an indent), whose
    line breaks stay."""
    from ..escape import markdown_text, protect_line_start

    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").replace("\f", "\n\n")
    joiner = Joiner.of(text.split("\n"))
    chunks: list[Chunk] = []

    def literal(line: str) -> str:
        return protect_line_start(markdown_text(line.strip(), table=False, inline=True))

    for block in _BLANK_RE.split(text):
        lines = [line for line in block.split("\n") if line.strip()]
        if not lines:
            continue
        if len(lines) > 1 and any(_STRUCTURED_RE.match(x) or x[:1] in " \t" for x in lines[1:]):
            chunks.append(Chunk("<br>\n".join(literal(x) for x in lines)))
        else:
            joined = join_lines(lines, joiner)
            if joined:
                chunks.append(Chunk(literal(joined)))
    return chunks
