"""A PDF's text layer → paragraphs and ``##`` headings (best effort; the author reviews)."""

from __future__ import annotations

import itertools
import math
import re
import statistics
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .text import join_lines, vocabulary

_PAGE_NUMBER_RE = re.compile(
    r"^(?:[-–—]\s*)?(?:page\s+)?[0-9ivxlc]{1,5}(?:\s+of\s+[0-9]+)?(?:\s*[-–—])?$", re.IGNORECASE
)
_SECTION_RE = re.compile(
    r"^(?P<num>[0-9]{1,2}(?:\.[0-9]{1,2})*)\.?\s+(?P<title>[A-Z][^!?]{0,80}[^.!?:;,])$"
)
_BULLETS = ("•", "◦", "▪", "‣", "∙")
_UNNUMBERED_SECTIONS = {
    "abstract",
    "acknowledgments",
    "acknowledgements",
    "references",
    "appendix",
    "conclusion",
    "introduction",
}


@dataclass
class _Line:
    text: str
    left: float
    bottom: float
    right: float
    top: float

    @property
    def height(self) -> float:
        return self.top - self.bottom


def _page_lines(textpage: object) -> list[_Line]:
    lines: list[_Line] = []
    count: int = textpage.count_rects()  # type: ignore[attr-defined]
    for i in range(count):
        left, bottom, right, top = textpage.get_rect(i)  # type: ignore[attr-defined]
        text = textpage.get_text_bounded(left, bottom, right, top)  # type: ignore[attr-defined]
        text = text.replace("\r", " ").replace("\n", " ")
        if not text.strip():
            continue
        prev = lines[-1] if lines else None
        overlap = 0.0
        if prev is not None:
            overlap = min(prev.top, top) - max(prev.bottom, bottom)
        # Rects split at font changes: pieces on the same line continue it.
        if (
            prev is not None
            and overlap > 0.5 * min(prev.height, top - bottom)
            and left >= prev.left
        ):
            prev.text = prev.text.rstrip() + " " + text.strip()
            prev.right = max(prev.right, right)
            prev.bottom, prev.top = min(prev.bottom, bottom), max(prev.top, top)
        else:
            lines.append(_Line(text.strip(), left, bottom, right, top))
    return lines


def _running_key(text: str) -> str:
    return re.sub(r"[0-9]+", "#", text.strip().lower())


def _drop_running_lines(pages: list[list[_Line]]) -> list[list[_Line]]:
    """Remove page numbers and headers/footers that repeat at the top or bottom of pages."""
    edges: Counter[str] = Counter()
    for lines in pages:
        ends = {id(line): line for line in lines[:2] + lines[-2:]}
        edges.update({_running_key(line.text) for line in ends.values()})
    # Running heads often change per chapter (two pages may be all a chapter has).
    threshold = 2
    kept: list[list[_Line]] = []
    for lines in pages:
        edge_ids = {id(line) for line in lines[:2] + lines[-2:]}
        kept.append(
            [
                line
                for line in lines
                if id(line) not in edge_ids
                or not (
                    _PAGE_NUMBER_RE.match(line.text.strip())
                    or edges[_running_key(line.text)] >= threshold
                )
            ]
        )
    return kept


def _section_level(text: str) -> int:
    m = _SECTION_RE.match(text.strip())
    if m:
        return 2 + m.group("num").count(".")
    return 2 if text.strip().lower() in _UNNUMBERED_SECTIONS else 0


def text_from_pages(pages: list[list[_Line]]) -> str:
    """Paragraphs (blank-line separated) and ``##`` headings from positioned lines."""
    pages = _drop_running_lines(pages)
    all_lines = [line for lines in pages for line in lines]
    if not all_lines:
        return ""
    # A full line: most lines of a paper are; the few longest may be equations or URLs.
    widths = sorted(line.right - line.left for line in all_lines)
    full = widths[math.ceil(0.9 * (len(widths) - 1))]
    gaps = [
        a.bottom - b.bottom
        for lines in pages
        for a, b in itertools.pairwise(lines)
        if a.bottom - b.bottom > 0
    ]
    # Line spacing inside a paragraph: the smaller gaps (blank lines are the larger ones),
    # bounded by the text height for short documents with few lines per page.
    height = statistics.median(line.height for line in all_lines)
    spacing = min(sorted(gaps)[len(gaps) // 4], 1.3 * height) if gaps else 1.3 * height
    words = vocabulary(" ".join(line.text for line in all_lines))
    out: list[str] = []
    para: list[str] = []

    def end_paragraph() -> None:
        if para:
            out.append(join_lines(para, words))
            para.clear()

    for lines in pages:
        prev: _Line | None = None
        for line in lines:
            level = _section_level(line.text)
            if level and line.right - line.left < 0.8 * full:
                end_paragraph()
                out.append("#" * level + " " + line.text.strip())
                prev = None
                continue
            if line.text.lstrip().startswith(_BULLETS) or (
                prev is not None and prev.bottom - line.bottom > 1.4 * spacing
            ):
                end_paragraph()
            para.append(line.text)
            short = line.right - line.left < 0.75 * full
            if short and line.text.rstrip().endswith((".", "!", "?", ":")):
                end_paragraph()
            prev = line
    end_paragraph()
    return "\n\n".join(out) + "\n"


def pdf_text(path: Path, data: bytes | None = None) -> str:
    """The text layer of a PDF as paragraphs and headings, best effort (the author reviews).

    ``data`` is the file's content when the caller has read it already (the CLI reads it
    with :func:`duizhao.yamlsafe.read_bytes`, which refuses FIFOs and devices). Raises
    ``OSError`` when the file cannot be read and ``ValueError`` when it is not a PDF.
    """
    import pypdfium2 as pdfium

    if data is None:
        data = path.read_bytes()
    if b"%PDF-" not in data[:1024]:  # the header readers accept within the first 1 KB
        raise ValueError(f"{path}: not a readable PDF (no '%PDF-' header)")
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise ValueError(f"{path}: not a readable PDF ({exc})") from exc
    try:
        pages = [_page_lines(page.get_textpage()) for page in pdf]
    finally:
        pdf.close()
    return text_from_pages(pages)
