"""``duizhao import``: turn an English original into numbered blocks awaiting translation.

- :mod:`.model`: the units of an original (:class:`Chunk`) and the result of an import;
- :mod:`.text`: plain text → chunks;
- :mod:`.from_markdown`: a Markdown original in its dialect (markdown-it-py tokens) → chunks,
  metadata, report;
- :mod:`.escape`: the old names of :mod:`duizhao.escape`'s Markdown escapers (for the PDF importer);
- :mod:`.pdf`: a PDF paper → chunks, on the PDF engine (:mod:`duizhao.pdf`) and its figure
  detector;
- :mod:`.apply`: chunks → blocks appended to an article, its range extended in place;
- :mod:`.read`: the one entry point that reads an original of any kind (import and update);
- ``duizhao update`` (a new version of an original): :mod:`.align` (which old paragraph became
  which new one), :mod:`.compose` (the article in the new order), :mod:`.removed` (the blocks
  the new version no longer has, beside the article), :mod:`.update` (the plan).
"""

from __future__ import annotations

from ..pdf.hyphens import vocabulary
from .apply import block_lines, import_chunks, new_article
from .from_markdown import footnote_prefix, parse_markdown
from .model import Chunk, ImportRefused, ImportResult, Note, Original
from .pdf import PdfImport, import_pdf
from .read import OriginalError, ReadOptions, read_original
from .text import chunks_from_text, join_lines, literal_chunks

__all__ = [
    "Chunk",
    "ImportRefused",
    "ImportResult",
    "Note",
    "Original",
    "OriginalError",
    "PdfImport",
    "ReadOptions",
    "block_lines",
    "chunks_from_text",
    "footnote_prefix",
    "import_chunks",
    "import_pdf",
    "join_lines",
    "literal_chunks",
    "new_article",
    "parse_markdown",
    "read_original",
    "vocabulary",
]
