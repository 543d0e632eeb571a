"""Chunks → numbered blocks appended to an article, its ``paragraphs:`` range extended in place.

Each numbered original goes in the blockquote of a ``/// paragraph`` block and the translation
holds :data:`~duizhao.article.TODO_MARKER`; headings, code, figure candidates and footnotes go
between the blocks as they are. Every other byte of the file is kept.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ..article import TODO_MARKER, Article, ParagraphRange, parse, replace_range
from ..diagnostics import Diagnostic
from ..escape import markdown_text
from ..source import SourceFile
from .model import Chunk, ImportRefused, ImportResult


def quoted(text: str) -> list[str]:
    """An original as the blockquote lines of a paragraph block."""
    return [f"> {line}".rstrip() for line in text.split("\n")]


def block_lines(chunk: Chunk, pid: str) -> list[str]:
    """The lines of one imported unit: a numbered paragraph block, or a heading, code, figure
    candidate or footnote written as it is between the blocks (no number, no empty block)."""
    if chunk.is_heading:
        return ["#" * max(1, min(6, chunk.level)) + " " + chunk.text, ""]
    if not chunk.is_numbered:
        return [*chunk.text.split("\n"), ""]
    return [f"/// paragraph | {pid}", *quoted(chunk.text), "", TODO_MARKER, "///", ""]


def _refuse(article: Article, line: int, code: str, message: str) -> ImportRefused:
    return ImportRefused(Diagnostic(article.path, line, code, message))


def new_article(
    title: str, paper: dict[str, Any] | None = None, meta: dict[str, Any] | None = None
) -> bytes:
    """The skeleton written when ``duizhao import`` is given an article that does not exist.

    ``paper`` holds the ``paper:`` fields the original gives (title, authors, url), ``meta``
    other front matter (``date``); the title is escaped in the page heading.
    """
    fields: dict[str, Any] = {"title": title}
    if paper:
        fields["paper"] = paper
    fields.update(meta or {})
    fields["status"] = "draft"
    front = yaml.safe_dump(fields, allow_unicode=True, sort_keys=False, width=1000)
    heading = markdown_text(" ".join(title.split()))
    return f"---\n{front}---\n\n# {heading}\n\n## 导言\n\n{TODO_MARKER}\n".encode()


def import_chunks(data: bytes, path: Path, chunks: list[Chunk]) -> ImportResult:
    """Append ``chunks`` to the article whose bytes are ``data``; return the new bytes.

    Raises :class:`ImportRefused` when the article has problems that make the result uncertain
    (unreadable, unclosed block, malformed front matter or range).
    """
    try:
        source = SourceFile.from_bytes(data)
    except UnicodeDecodeError:
        from ..article import decode

        _text, problem = decode(data, path)
        assert problem is not None
        raise ImportRefused(problem) from None
    article = parse(source.text, path)
    blocking = [d for d in article.diagnostics if d.code in ("DZ007", "DZ010")]
    if blocking:
        raise ImportRefused(blocking[0])
    rng = article.paragraph_range
    range_line = article.meta_lines.get("paragraphs")
    if range_line is not None and (rng is None or rng.start > rng.end):
        raise _refuse(
            article,
            range_line,
            "DZ013",
            f"malformed range {source.line(range_line).strip()!r}; fix it first, "
            "as in 'paragraphs: P001-P129'",
        )
    numbers = [p.number for p in article.paragraphs if p.number is not None]
    well_formed = [p.id for p in article.paragraphs if p.is_well_formed]
    width = rng.width if rng else (len(well_formed[-1]) - 1 if well_formed else 3)
    next_number = max(numbers) + 1 if numbers else (rng.start if rng else 1)
    added: list[str] = []
    if source.lines and source.line(len(source.lines)).strip():
        added.append("")
    first = last = None
    count = 0
    for chunk in chunks:
        pid = f"P{next_number:0{width}d}"
        added.extend(block_lines(chunk, pid))
        if chunk.is_numbered:
            first = first or pid
            last = pid
            next_number += 1
            count += 1
    if added and added[-1] == "":
        added.pop()
    headings = sum(chunk.is_heading for chunk in chunks)
    if count == 0:
        return ImportResult(data, None, None, 0, headings, rng)
    source.append(added)
    new_end = next_number - 1
    start = rng.start if rng else min([*numbers, new_end - count + 1])
    new_range = ParagraphRange(start, max(new_end, rng.end if rng else new_end), width)
    _set_range(source, article, new_range)
    return ImportResult(source.to_bytes(), first, last, count, headings, new_range)


def _set_range(source: SourceFile, article: Article, rng: ParagraphRange) -> None:
    """Write ``paragraphs: rng`` into the front matter, editing only that line."""
    line = article.meta_lines.get("paragraphs")
    if line is not None:
        replaced = replace_range(source.line(line), rng)
        if replaced is None:
            raise _refuse(
                article,
                line,
                "DZ013",
                f"cannot update the range in place; write it on one line as 'paragraphs: {rng}'",
            )
        source.set_line(line, replaced)
    elif article.has_front_matter:
        source.insert(article.body_line - 1, [f"paragraphs: {rng}"])
    else:
        source.insert(1, ["---", f"paragraphs: {rng}", "---", ""])
