"""``duizhao import``: turn an English original into numbered blocks awaiting translation.

- :mod:`.model`: the units of an original (:class:`Chunk`) and the result of an import;
- :mod:`.text`: plain text → chunks;
- :mod:`.markdown`: a Markdown original (markdown-it-py tokens) → chunks, metadata, report;
- :mod:`.escape`: author text → Markdown that renders it literally;
- :mod:`.pdf`: a PDF paper → chunks, on the PDF engine (:mod:`duizhao.pdf`) and its figure
  detector;
- :mod:`.hyphens`: line-end hyphens, joined with a dictionary check (PDF and plain text);
- :mod:`.apply`: chunks → blocks appended to an article, its range extended in place.
"""

from __future__ import annotations

from ..pdf.hyphens import vocabulary
from .apply import block_lines, import_chunks, new_article
from .markdown import parse_markdown
from .model import Chunk, ImportRefused, ImportResult, Note, Original
from .pdf import PdfImport, import_pdf
from .text import chunks_from_text, join_lines

__all__ = [
    "Chunk",
    "ImportRefused",
    "ImportResult",
    "Note",
    "Original",
    "PdfImport",
    "block_lines",
    "chunks_from_text",
    "import_chunks",
    "import_pdf",
    "join_lines",
    "new_article",
    "parse_markdown",
    "vocabulary",
]
