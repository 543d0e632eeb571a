"""Read an original, whatever its kind: the one entry point of ``duizhao import`` and ``update``.

The suffix decides the reader: ``.pdf`` the PDF importer, Markdown suffixes the Markdown
importer (its dialect found from the file), anything else plain text (imported literally:
every character shows as written). Both commands read an original through
:func:`read_original`, so a new version of a paper is read exactly as its first version was
imported.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..yamlsafe import MAX_BINARY_BYTES, MAX_TEXT_BYTES, InputError, read_bytes
from .model import Original

#: Originals read as Markdown (markdown-it-py); any other suffix but .pdf is plain text.
#: MDX (Docusaurus, Starlight, Nextra), Markdoc, Quarto and R Markdown pages are Markdown with
#: a dialect of their own on top: read as plain text, their front matter and code would
#: become paragraphs to translate.
MARKDOWN_SUFFIXES = frozenset(
    {".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".mdwn", ".mkdown", ".markdn", ".mdtxt"}
    | {".mdtext", ".mdx", ".mdoc", ".markdoc", ".qmd", ".rmd"}
)


class OriginalError(Exception):
    """The original cannot be read (the message says why, in words)."""

    def __init__(self, message: str, one_line: bool = False) -> None:
        super().__init__(message)
        #: the message names the file and the page itself, on one line (a PDF's)
        self.one_line = one_line


@dataclass(frozen=True)
class ReadOptions:
    """How to read an original (each reader takes the options that concern it)."""

    #: Markdown: where the original is published (its relative links resolve against it)
    base_url: str | None = None
    #: Markdown: the prefix of its footnote labels (``orig``, ``orig2``, …)
    footnote_prefix: str = "orig"
    #: PDF: give each reference a paragraph ID
    number_references: bool = False
    #: PDF: the figure keys the article's ``.figures.yml`` declares ("3", "table-2")
    declared_figures: Collection[str] = ()
    #: PDF: floats that override the figure detector's of the same page, kind and number
    #: (``detect_figures``-shaped), or None
    detect: Callable[[Path], Any] | None = None


def is_pdf(path: Path) -> bool:
    return path.suffix.lower() == ".pdf"


def read_original(path: Path, options: ReadOptions = ReadOptions()) -> Original:
    """The units of the original at ``path``; :class:`OriginalError` when it cannot be read.

    Only a regular file is read, and only up to the size limit of its kind (a FIFO or
    /dev/zero is refused, never read).
    """
    pdf = is_pdf(path)
    try:
        raw = read_bytes(path, MAX_BINARY_BYTES if pdf else MAX_TEXT_BYTES)
    except (InputError, OSError) as exc:
        raise OriginalError(f"cannot read {path}: {exc}") from None
    if pdf:
        from ..pdf.read import PdfError
        from .pdf import import_pdf

        del raw  # (the PDF reader opens the file itself)
        try:
            return import_pdf(
                path,
                number_references=options.number_references,
                declared_figures=options.declared_figures,
                detect=options.detect,
            )
        except PdfError as exc:
            raise OriginalError(str(exc), one_line=True) from exc
        except OSError as exc:  # (its str is "[Errno 5] ...": the words only)
            raise OriginalError(f"cannot read {path}: {exc.strerror or 'unreadable'}") from exc
        except ValueError as exc:
            raise OriginalError(f"cannot read {path}: {exc}") from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise OriginalError(
            f"cannot read {path}: it is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset "
            f"{exc.start:,}); save it as UTF-8"
        ) from exc
    if path.suffix.lower() in MARKDOWN_SUFFIXES:
        from .from_markdown import parse_markdown

        return parse_markdown(
            text, base_url=options.base_url, prefix=options.footnote_prefix, name=path.name
        )
    from .text import literal_chunks

    # plain text is text: every character shows as written
    return Original(literal_chunks(text), dialects=["plain text (the file is not Markdown)"])
