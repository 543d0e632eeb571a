"""``duizhao import``: turn an English original into numbered blocks awaiting translation.

Pure functions over text (plus :func:`pdf_text`, which reads a PDF's text layer with pypdfium2).
The input is plain text or Markdown: paragraphs are separated by blank lines, ATX headings stay
headings, fenced code and lists keep their lines, and the hard wraps and hyphenated line breaks
of text copied from a PDF are joined. The result is appended to an article after its last
paragraph ID, each original in the blockquote and the translation holding
:data:`~duizhao.article.TODO_MARKER`, and the front matter's ``paragraphs:`` range is extended
in place (every other byte of the file is kept).
"""

from __future__ import annotations

import itertools
import math
import re
import statistics
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml

from .article import TODO_MARKER, Article, ParagraphRange, parse, replace_range
from .diagnostics import Diagnostic
from .source import SourceFile

#: PDFium marks a hyphen it found at a line end with U+0002 (and some producers use U+00AD).
_SOFT_HYPHENS = ("\x02", "\xad")
_HEADING_RE = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_STRUCTURED_RE = re.compile(r"^ {0,3}(?:[-*+][ \t]|[0-9]{1,3}[.)][ \t]|\||>|<)")
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


class ImportRefused(Exception):  # noqa: N818 (reads better than ImportRefusedError)
    """The article cannot take the import; ``diagnostic`` says where and why."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.format())
        self.diagnostic = diagnostic


@dataclass(frozen=True)
class Chunk:
    """A heading (``level`` 1–6) or a paragraph (``level`` 0) of the original."""

    text: str
    level: int = 0

    @property
    def is_heading(self) -> bool:
        return self.level > 0


@dataclass(frozen=True)
class ImportResult:
    data: bytes
    first: str | None
    last: str | None
    paragraphs: int
    headings: int
    range: ParagraphRange | None


# --------------------------------------------------------------------------------------------
# Text → chunks


_WORD_RE = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")


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


# --------------------------------------------------------------------------------------------
# PDF → text


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


def pdf_text(path: Path) -> str:
    """The text layer of a PDF as paragraphs and headings, best effort (the author reviews).

    Raises ``OSError`` when the file cannot be read and ``ValueError`` when it is not a PDF.
    """
    import pypdfium2 as pdfium

    data = path.read_bytes()
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise ValueError(f"{path}: not a readable PDF ({exc})") from exc
    try:
        pages = [_page_lines(page.get_textpage()) for page in pdf]
    finally:
        pdf.close()
    return text_from_pages(pages)


# --------------------------------------------------------------------------------------------
# Chunks → article


def block_lines(chunk: Chunk, pid: str) -> list[str]:
    """The lines of one imported paragraph block (or one heading)."""
    if chunk.is_heading:
        return ["#" * chunk.level + " " + chunk.text, ""]
    quoted = [f"> {line}".rstrip() for line in chunk.text.split("\n")]
    return [f"/// paragraph | {pid}", *quoted, "", TODO_MARKER, "///", ""]


def _refuse(article: Article, line: int, code: str, message: str) -> ImportRefused:
    return ImportRefused(Diagnostic(article.path, line, code, message))


def new_article(title: str) -> bytes:
    """The skeleton written when ``duizhao import`` is given an article that does not exist."""
    meta = yaml.safe_dump({"title": title, "status": "draft"}, allow_unicode=True, sort_keys=False)
    return f"---\n{meta}---\n\n# {title}\n\n## 导言\n\n{TODO_MARKER}\n".encode()


def import_chunks(data: bytes, path: Path, chunks: list[Chunk]) -> ImportResult:
    """Append ``chunks`` to the article whose bytes are ``data``; return the new bytes.

    Raises :class:`ImportRefused` when the article has problems that make the result uncertain
    (unreadable, unclosed block, malformed front matter or range).
    """
    try:
        source = SourceFile.from_bytes(data)
    except UnicodeDecodeError:
        from .article import decode

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
        if not chunk.is_heading:
            first = first or pid
            last = pid
            next_number += 1
            count += 1
    if added and added[-1] == "":
        added.pop()
    if count == 0:
        return ImportResult(data, None, None, 0, len(chunks), rng)
    source.append(added)
    new_end = next_number - 1
    start = rng.start if rng else min([*numbers, new_end - count + 1])
    new_range = ParagraphRange(start, max(new_end, rng.end if rng else new_end), width)
    _set_range(source, article, new_range)
    return ImportResult(source.to_bytes(), first, last, count, len(chunks) - count, new_range)


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
