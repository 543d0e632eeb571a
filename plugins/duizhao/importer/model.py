"""What an import produces: the original's units, before they become blocks of an article."""

from __future__ import annotations

from dataclasses import dataclass

from ..article import ParagraphRange
from ..diagnostics import Diagnostic


class ImportRefused(Exception):  # noqa: N818 (reads better than ImportRefusedError)
    """The article cannot take the import; ``diagnostic`` says where and why."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.format())
        self.diagnostic = diagnostic


@dataclass(frozen=True)
class FigureCandidate:
    """A figure or table of the original, placed where the text first refers to it."""

    kind: str  # "figure" | "table"
    label: str  # as printed: "Figure 3", "TABLE II"
    number: int
    caption: str
    page: int
    box: tuple[float, float, float, float]  # PDF points from the top-left
    #: the article's .figures.yml declares it: write a ``/// figure`` placement
    declared: bool = False


@dataclass(frozen=True)
class Chunk:
    """A heading (``level`` 1–6), a paragraph (``level`` 0) or a figure of the original.

    ``numbered=False`` keeps a paragraph as plain Markdown without an ID (references, which are
    not translated, by default).
    """

    text: str
    level: int = 0
    numbered: bool = True
    figure: FigureCandidate | None = None

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
