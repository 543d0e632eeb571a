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
