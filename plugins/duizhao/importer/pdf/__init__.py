"""A PDF paper → headings, paragraphs, references and figure candidates, from its layout.

The paper is read once (:mod:`duizhao.pdf`: glyphs with fonts and positions, graphics, the
page-layout pass) and its floats are those of the figure detector
(:mod:`duizhao.figures.detect`) run on the same pages. Then, each a module here:

- :mod:`.lines`: the floats' lines leave the text (an algorithm's or a listing's as a block
  the flow sets after the paragraph it interrupts), scripts go back into their lines;
- :mod:`.front`: the title and the authors;
- :mod:`.headings`: section headings (a numbering pattern and a heading style);
- :mod:`.flow`: the lines become units, rule by rule;
- :mod:`.place`: each float goes after the paragraph that first refers to it;
- :mod:`..hyphens`: line-end hyphens joined with a dictionary check against the paper.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ...figures.detect import DetectedFigure, Unboxed, detect_document
from ...pdf.hyphens import Joiner
from ...pdf.page_layout import Layout, analyse, column_feet, drop_footnote_marks, mark_running
from ...pdf.page_layout import Note as LayoutNote
from ...pdf.read import Document, opened
from ..escape import md_fence, md_text, protect_line_start
from ..model import Chunk, ChunkKind, Note, Original
from .flow import Unit, flow
from .front import front_matter
from .lines import (
    Float,
    FloatLike,
    attach_scripts,
    running_notes,
    sweep_float_text,
    use_captions,
    use_floats,
    use_listings,
)
from .place import anchor, place

__all__ = ["Float", "FloatLike", "PdfImport", "figure_key", "figure_text", "import_pdf"]


@dataclass
class PdfImport(Original):
    """A PDF paper read by :func:`import_pdf`: an :class:`Original` with its floats."""

    floats: list[Float] = field(default_factory=list)
    pages: int = 0
    #: captions whose float's body was not found (reported; the author boxes them by hand)
    unboxed: list[Unboxed] = field(default_factory=list)
    #: the floats as the figure detector found them (``.figures.yml`` entries to be)
    detected: list[DetectedFigure] = field(default_factory=list)
    #: which chunk places which float
    placements: dict[int, Float] = field(default_factory=dict)

    def declaring(self, declared: Collection[str]) -> list[Chunk]:
        """The chunks with each float a ``/// figure`` placement when ``declared`` (the keys
        of the article's ``.figures.yml``) has it, else a marker to review."""
        chunks = list(self.chunks)
        placed: set[str] = set()
        for i, f in sorted(self.placements.items()):
            key = figure_key(f.kind, f.number)
            # A key is placed once ("Figure B.1" has the key of "Figure 1": it stays a marker).
            chunks[i] = Chunk(figure_text(f, set(declared) - placed), kind="figure")
            if key in declared:
                placed.add(key)
        return chunks


def import_pdf(
    path: Path,
    *,
    number_references: bool = False,
    declared_figures: Collection[str] = (),
    detect: Callable[[Path], Sequence[FloatLike]] | None = None,
) -> PdfImport:
    """Read a paper and turn it into chunks (see the module docstring).

    References are plain, unnumbered units (``kind="reference"``) unless ``number_references``.
    A float becomes a figure candidate: a ``/// figure`` placement when ``declared_figures``
    (the keys of the article's ``.figures.yml``: ``"3"``, ``"table-2"``) has it, else a comment
    marker for the author to review. ``detect``: floats that override the detector's of the
    same page, kind and number (boxes from the top-left; e.g. an author's own). Raises
    ``OSError`` when the file cannot be read and ``ValueError`` (``PdfError``) when it is not
    a readable PDF.
    """
    with opened(path) as doc:
        override = None if detect is None else detect(path)
        return import_document(
            doc,
            number_references=number_references,
            declared_figures=declared_figures,
            override=override,
        )


def import_document(
    doc: Document,
    *,
    number_references: bool = False,
    declared_figures: Collection[str] = (),
    override: Sequence[FloatLike] | None = None,
) -> PdfImport:
    """:func:`import_pdf` of a document already read (the command reads a PDF once)."""
    layout = analyse(doc)
    found = detect_document(doc, layout)
    detected: list[FloatLike] = list(found.figures)
    if override:
        mine = {(f.page, f.kind, f.number): f for f in override}
        detected = [mine.pop((f.page, f.kind, f.number), f) for f in detected]
        detected += list(mine.values())
    floats = use_floats(layout, detected)
    placed_keys = {(f.page, f.kind, f.number) for f in floats}
    use_captions(layout, [(u.page, u.caption_box) for u in found.unboxed])
    listings = use_listings(layout, found.others)
    sweep_float_text(layout, floats)
    title, authors, front_notes = front_matter(layout)
    mark_running(layout)
    attach_scripts(layout)
    drop_footnote_marks(layout, column_feet(layout), layout.fonts)
    notes = [*layout.notes, *front_notes, *running_notes(layout)]
    joiner = Joiner.of(ln.text for page in layout.pages for ln in page.lines)
    state = flow(layout, joiner, listings)
    notes += state.notes
    placed = place(state.units, floats, [anchor(layout, f) for f in floats])
    chunks = _chunks(placed, number_references, set(declared_figures))
    placements = {
        i: f
        for i, f in zip(
            (i for i, c in enumerate(chunks) if c.kind == "figure"),
            (f for _u, f in placed if f is not None),
            strict=True,
        )
    }
    paper: dict[str, Any] = {}
    if title:
        paper["title"] = title
    if authors:
        paper["authors"] = authors if len(authors) > 1 else authors[0]
    report = [_note(n) for n in notes] + [Note(None, n) for n in doc.notes]
    for f in floats:
        box = ", ".join(str(round(v)) for v in f.box)
        report.append(
            Note(None, f"page {f.page}: {f.label} found, box [{box}]; check it, then place it")
        )
    report += [Note(None, u.message()) for u in found.unboxed]
    return PdfImport(
        chunks,
        title=title or None,
        paper=paper,
        notes=report,
        floats=floats,
        pages=len(layout.pages),
        unboxed=list(found.unboxed),
        detected=[f for f in found.figures if (f.page, f.kind, f.number) in placed_keys],
        placements=placements,
    )


def _chunks(
    placed: Sequence[tuple[Unit, Float | None]], number_references: bool, declared: set[str]
) -> list[Chunk]:
    chunks: list[Chunk] = []
    for unit, f in placed:
        if f is not None:
            chunks.append(Chunk(figure_text(f, declared), kind="figure"))
        elif unit.kind == "heading":
            chunks.append(Chunk(md_text(unit.text), min(max(unit.level, 2), 6), kind="heading"))
        elif unit.kind == "paragraph":
            chunks.append(Chunk(protect_line_start(md_text(unit.text))))
        elif unit.kind == "reference":
            kind: ChunkKind = "paragraph" if number_references else "reference"
            chunks.append(Chunk(protect_line_start(md_text(unit.text)), kind=kind))
        elif unit.kind in ("code", "equation"):
            chunks.append(Chunk("\n".join(md_fence(unit.text, "text")), kind="verbatim"))
    return chunks


def _note(note: LayoutNote) -> Note:
    where = (
        f"page {note.page}, line {note.line}: "
        if note.line
        else (f"page {note.page}: " if note.page else "")
    )
    severity: Literal["dropped", "warning"] = (
        "dropped" if note.message.startswith("dropped") else "warning"
    )
    return Note(None, where + note.message, severity)


def figure_key(kind: str, number: int) -> str:
    """The key of a figure in ``.figures.yml`` (as ``duizhao.figures.spec.figure_key``)."""
    return str(number) if kind == "figure" else f"{kind}-{number}"


def figure_text(f: Float, declared: Collection[str] = ()) -> str:
    """A placement when the figure spec declares the float, else a marker to review."""
    key = figure_key(f.kind, f.number)
    if key in declared:
        return f"/// figure | {key}\n///"
    box = ", ".join(str(round(v)) for v in f.box)
    caption = " ".join(f.caption.split()).replace("--", "- -")
    return f"<!-- duizhao:{f.kind} {key} page: {f.page} box: [{box}] {caption} -->"


__all__ += ["Layout", "import_document"]
