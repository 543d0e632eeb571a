"""Plain text → :class:`~duizhao.importer.model.Chunk` s: literally (:func:`literal_chunks`,
what ``duizhao import`` does with a ``.txt`` original), or read as simple Markdown
(:func:`chunks_from_text`).

Paragraphs are separated by blank lines, ATX headings stay headings, fenced code and lists keep
their lines, and the hard wraps and hyphenated line breaks of text copied from a PDF are joined.
"""

from __future__ import annotations

import re

from .model import Chunk

#: PDFium marks a hyphen it found at a line end with U+0002 (and some producers use U+00AD).
_SOFT_HYPHENS = ("\x02", "\xad")
_HEADING_RE = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_STRUCTURED_RE = re.compile(r"^ {0,3}(?:[-*+][ \t]|[0-9]{1,3}[.)][ \t]|\||>|<)")
_WORD_RE = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")
_BLANK_RE = re.compile(r"\n[ \t]*\n")


def vocabulary(text: str) -> set[str]:
    """The words of ``text`` (lowercase, compounds whole) to settle hyphens at line ends."""
    return {w.lower() for w in _WORD_RE.findall(text)}


def join_lines(lines: list[str], words: set[str] | None = None) -> str:
    """Join hard-wrapped lines into one; ``commu-`` + ``nication`` becomes ``communication``.

    A hyphen stays when the broken word is already a compound (``state-of-the-`` + ``art``),
    when the next line does not start with a lowercase letter (``GPU-`` + ``NPU``), or when
    ``words`` (the document's vocabulary) has the hyphenated form but not the joined one
    (``well-`` + ``known``).
    """
    out = ""
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        if not out:
            out = line
            continue
        soft = out.endswith(_SOFT_HYPHENS)
        if (soft or out.endswith("-")) and len(out) > 1 and out[-2].isalpha():
            word = out[:-1].rsplit(" ", 1)[-1]
            m = _WORD_RE.match(line)
            head = m.group(0) if m else ""
            compound = f"{word}-{head}".lower()
            known = words is not None and compound in words and f"{word}{head}".lower() not in words
            if line[:1].islower() and "-" not in word and not known:
                out = out[:-1] + line
            else:
                out = out[:-1] + "-" + line
        else:
            out += " " + line
    return "".join(ch for ch in out if ch not in _SOFT_HYPHENS)


def chunks_from_text(text: str) -> list[Chunk]:
    """Split plain text or Markdown into headings and paragraphs (see the module docstring)."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").replace("\f", "\n\n")
    words = vocabulary(text)
    chunks: list[Chunk] = []
    group: list[str] = []
    fence: str | None = None

    def flush() -> None:
        if not group:
            return
        if _FENCE_RE.match(group[0]) or any(_STRUCTURED_RE.match(g) for g in group):
            chunks.append(Chunk("\n".join(g.rstrip() for g in group)))
        else:
            joined = join_lines(group, words)
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


def literal_chunks(text: str) -> list[Chunk]:
    """A plain-text original, literally: every character shows as written (``*stars*``,
    ``_under_``, `` `ticks` ``, ``<b>``, ``# not a heading``). Paragraphs are separated by
    blank lines; hard wraps are joined as in :func:`join_lines`, except in a paragraph whose
    lines are a list, a table or code (a line starting with a marker or an indent), whose
    line breaks stay."""
    from ..escape import markdown_text, protect_line_start

    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").replace("\f", "\n\n")
    words = vocabulary(text)
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
            joined = join_lines(lines, words)
            if joined:
                chunks.append(Chunk(literal(joined)))
    return chunks
