"""What an import produces: the original's units, before they become blocks of an article."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ..article import ParagraphRange
from ..diagnostics import Diagnostic


class ImportRefused(Exception):  # noqa: N818 (reads better than ImportRefusedError)
    """The article cannot take the import; ``diagnostic`` says where and why."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.format())
        self.diagnostic = diagnostic


#: What a unit of an original becomes in the article:
#: ``paragraph``: a numbered ``/// paragraph`` block (what a translator translates);
#: ``heading``: a Markdown heading (``level`` 1–6);
#: ``verbatim``: code or an HTML block, written as a fenced block between the numbered ones;
#: ``figure``: a figure candidate (images, unnumbered) for the author to place or crop;
#: ``footnote``: the original's footnote definitions (labels namespaced, e.g. ``[^orig-1]``);
#: ``reference``: an entry of a paper's reference list (plain text, not translated);
#: ``label``: a tab's or option's label (``npm``, ``PyTorch``), in bold between the blocks.
ChunkKind = Literal["paragraph", "heading", "verbatim", "figure", "footnote", "reference", "label"]


@dataclass(frozen=True)
class Chunk:
    """One unit of the original: ``text`` is Markdown, ready to be written.

    ``Chunk(text, level)`` with ``level`` 1–6 is a heading, as before there were other kinds.
    """

    text: str
    level: int = 0
    kind: ChunkKind = "paragraph"
    #: 1-based line in the original, when known
    line: int | None = field(default=None, compare=False)

    @property
    def is_heading(self) -> bool:
        return self.level > 0 or self.kind == "heading"

    @property
    def is_numbered(self) -> bool:
        """Only what a translator translates gets a paragraph number."""
        return self.kind == "paragraph" and self.level == 0


@dataclass(frozen=True)
class Note:
    """Something the author should know about an import: dropped, uncertain or rewritten."""

    line: int | None
    message: str
    #: "dropped" (not in the article), "warning" (kept, but needs a look)
    severity: Literal["dropped", "warning"] = "warning"
    #: the whole text that was dropped (the message shows an excerpt)
    text: str = field(default="", compare=False)

    def format(self, source: str) -> str:
        where = f"{source}:{self.line}" if self.line else source
        return f"{where}: {self.severity}: {self.message}"


@dataclass
class Original:
    """An original read by an importer: its units, metadata and what the author must review."""

    chunks: list[Chunk]
    #: title of the original (front matter or its h1), None when it gives none
    title: str | None = None
    #: ``paper:`` fields the original gives (title, authors, url)
    paper: dict[str, Any] = field(default_factory=dict)
    #: other article front matter the original gives (``date``)
    meta: dict[str, Any] = field(default_factory=dict)
    notes: list[Note] = field(default_factory=list)
    #: the dialects the original was read as, each with where it was seen (for the report)
    dialects: list[str] = field(default_factory=list)

    def count(self, kind: ChunkKind) -> int:
        if kind == "heading":
            return sum(c.is_heading for c in self.chunks)
        if kind == "paragraph":
            return sum(c.is_numbered for c in self.chunks)
        return sum(c.kind == kind for c in self.chunks)


@dataclass(frozen=True)
class ImportResult:
    data: bytes
    first: str | None
    last: str | None
    paragraphs: int
    headings: int
    range: ParagraphRange | None
