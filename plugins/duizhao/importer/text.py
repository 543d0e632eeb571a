"""Plain text or Markdown → :class:`~duizhao.importer.model.Chunk` s.

Paragraphs are separated by blank lines, ATX headings stay headings, fenced code and lists keep
their lines, and the hard wraps and hyphenated line breaks of text copied from a PDF are joined.
"""

from __future__ import annotations

import re

from ..pdf.hyphens import SOFT_HYPHENS, Joiner
from .model import Chunk

_HEADING_RE = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_STRUCTURED_RE = re.compile(r"^ {0,3}(?:[-*+][ \t]|[0-9]{1,3}[.)][ \t]|\||>|<)")


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
            chunks.append(Chunk(heading.group(2).strip(), len(heading.group(1))))
            continue
        if not line.strip():
            flush()
            continue
        group.append(line)
    flush()
    return chunks
