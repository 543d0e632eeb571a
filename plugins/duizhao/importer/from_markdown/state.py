"""What the converter's parts share: the state of one import and the methods each part
calls on the others (the parts are mixins of :class:`~.converter.Converter`)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

from ..model import Chunk, Note
from .dialects import Dialects

#: How deep content is parsed again inside containers (directives in directives, ``<div
#: markdown>`` in ``<div markdown>``): deeper, it is kept as code. No real page comes near.
MAX_DEPTH = 24


@dataclass(frozen=True)
class HeadingUnit:
    """A heading before the levels are settled (the leading h1 may be the title)."""

    level: int
    markdown: str
    plain: str
    line: int | None


Unit = Chunk | HeadingUnit


@dataclass
class PlacedHeading:
    index: int  # position in the chunk list
    level: int
    markdown: str
    plain: str
    line: int | None


class State:
    """One import: the original's lines, what is found, what is reported."""

    #: the parser of the original's dialects (content of containers is parsed again with it)
    parser: MarkdownIt

    def __init__(self, source: str, base_url: str | None, prefix: str, dialects: Dialects) -> None:
        self.source_lines = source.split("\n")
        #: the lines of the text being converted (the original, or content parsed again)
        self.lines = self.source_lines
        self.base_url = base_url
        self.prefix = prefix
        self.dialects = dialects
        self.notes: list[Note] = []
        self.chunks: list[Chunk | None] = []
        self.headings: list[PlacedHeading] = []
        #: anchors of the original → ids of the imported headings
        self.slugs: dict[str, str] = {}
        self.front: dict[str, Any] = {}
        self.footnote_labels: dict[int, str] = {}
        self.in_table = False
        self.title_from_h1: str | None = None
        #: lines before the text being converted (content parsed again from a container)
        self.line_offset = 0
        self.depth = 0
        #: MyST targets waiting for the heading they name
        self.pending_targets: list[str] = []

    # -- notes ---------------------------------------------------------------------------

    def drop(self, line: int | None, message: str, text: str = "") -> None:
        self.notes.append(Note(line, message, "dropped", text))

    def warn(self, line: int | None, message: str) -> None:
        self.notes.append(Note(line, message, "warning"))

    # -- positions -----------------------------------------------------------------------

    def line_of(self, node: SyntaxTreeNode) -> int | None:
        return node.map[0] + 1 + self.line_offset if node.map else None

    @contextlib.contextmanager
    def nested(self, offset: int, text: str) -> Iterator[None]:
        """Content ``text`` parsed again, ``offset`` lines into the original."""
        saved = self.line_offset, self.lines
        self.line_offset, self.lines = offset, text.split("\n")
        self.depth += 1
        try:
            yield
        finally:
            self.line_offset, self.lines = saved
            self.depth -= 1

    # -- what the parts provide to each other (see the mixins) ---------------------------

    def inline(self, nodes: Sequence[SyntaxTreeNode], line: int | None) -> str:
        raise NotImplementedError

    def plain(self, nodes: Sequence[SyntaxTreeNode]) -> str:
        raise NotImplementedError

    def text(self, content: str, line: int | None) -> str:
        raise NotImplementedError

    def units(self, node: SyntaxTreeNode) -> list[Unit]:
        raise NotImplementedError

    def blocks(self, nodes: Sequence[SyntaxTreeNode], *, tight: bool = False) -> list[str]:
        raise NotImplementedError

    def parse_again(self, content: str) -> SyntaxTreeNode:
        raise NotImplementedError

    def resolve(self, href: str, line: int | None, text: str) -> str | None:
        raise NotImplementedError

    def picture(self, src: str, alt: str, title: str, line: int | None, *, inline: bool) -> str:
        raise NotImplementedError


def flatten(units: Sequence[Unit]) -> list[str]:
    """Units as the lines of nested content (in a list item, a quote, a footnote): headings
    in bold, the rest as written, each set apart by a blank line."""
    out: list[str] = []
    for unit in units:
        lines = [f"**{unit.markdown}**"] if isinstance(unit, HeadingUnit) else unit.text.split("\n")
        if out and lines:
            out.append("")
        out.extend(lines)
    return out
