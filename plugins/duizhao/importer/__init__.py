"""``duizhao import``: turn an English original into numbered blocks awaiting translation.

- :mod:`.model`: the units of an original (:class:`Chunk`) and the result of an import;
- :mod:`.text`: plain text or Markdown → chunks;
- :mod:`.pdf`: a PDF paper → chunks, from glyphs, fonts and positions (pypdfium2);
- :mod:`.layout`: the layout analysis behind it (columns, floats, headings), pure;
- :mod:`.apply`: chunks → blocks appended to an article, its range extended in place.
"""

from __future__ import annotations

from .apply import block_lines, import_chunks, new_article
from .model import Chunk, FigureCandidate, ImportRefused, ImportResult
from .pdf import PdfImport, import_pdf, report
from .text import chunks_from_text, join_lines, vocabulary

__all__ = [
    "Chunk",
    "FigureCandidate",
    "ImportRefused",
    "ImportResult",
    "PdfImport",
    "block_lines",
    "chunks_from_text",
    "import_chunks",
    "import_pdf",
    "join_lines",
    "new_article",
    "report",
    "vocabulary",
]
