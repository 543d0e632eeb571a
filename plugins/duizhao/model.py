"""What :mod:`duizhao.article` reads a source file into: the :class:`Article`, its paragraph
blocks, figure placements, links and headings, the declared range, and the names and numbers of
the syntax (IDs, anchors, the to-do marker). Plain data, no parsing beyond a field's own
value."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, NamedTuple, TypeVar, overload

from .diagnostics import Diagnostic

#: Most digits of a paragraph ID. Numbers come from authors: a bound keeps every ID an int
#: well inside Python's int/str conversion limit (a 4,300-digit ID raised ValueError).
MAX_ID_DIGITS = 9
#: Most paragraphs a ``paragraphs:`` range may declare (a long book has a few thousand). The
#: checks and the progress report walk the range; ``P001-P999999999`` must not allocate.
MAX_PARAGRAPHS = 100_000
#: A well-formed paragraph ID: ``P`` and three to :data:`MAX_ID_DIGITS` ASCII digits.
PARAGRAPH_ID_RE = re.compile(r"P[0-9]{3,9}")
#: Any fragment that looks like it means a paragraph (checked by links): ``#P042``.
PARAGRAPH_REF_RE = re.compile(r"P[0-9]+")
#: The figure anchor of the paper's figure N.
FIGURE_ANCHOR_RE = re.compile(r"fig-([0-9]+)")
#: The anchor of the paper's table N (placed with ``/// figure | table-N``).
TABLE_ANCHOR_RE = re.compile(r"table-([0-9]+)")
#: The marker an importer leaves in a translation that is still to be written.
TODO_MARKER = "<!-- duizhao:todo -->"
#: The heading that starts the translator's introduction.
INTRO_HEADING = "导言"

BLOCK_KINDS = ("paragraph", "figure")

STATUSES = ("draft", "complete")
_BLOCKQUOTE_RE = re.compile(r"^ {0,3}> ?")
_RANGE_RE = re.compile(r"^\s*(P[0-9]{3,9})\s*[-–—~]\s*(P[0-9]{3,9})\s*$")

# --------------------------------------------------------------------------------------------
# Data

_T = TypeVar("_T")


class cached(Generic[_T]):  # noqa: N801 (used as a decorator, like cached_property)
    """:func:`functools.cached_property` without its lock (Python 3.11 takes an RLock on every
    first read; 3.12 dropped it): the value is stored in the instance dict, which then shadows
    this non-data descriptor, so later reads are plain attribute reads. Frozen dataclasses
    allow it (the dict is written directly, not through ``__setattr__``)."""

    def __init__(self, func: Callable[[Any], _T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> cached[_T]: ...
    @overload
    def __get__(self, instance: object, owner: type | None = None) -> _T: ...
    def __get__(self, instance: object | None, owner: type | None = None) -> _T | cached[_T]:
        if instance is None:
            return self
        value = self.func(instance)
        instance.__dict__[self.name] = value
        return value


@dataclass(frozen=True)
class Link:
    """An inline link or reference definition in the body, with its 1-based source line."""

    line: int
    text: str
    url: str
    #: 0-based offset of ``url`` in its source line (for tools that rewrite links in place)
    column: int | None = field(default=None, compare=False)
    #: an ``href`` of raw HTML (``<a href="#P042">``), which MkDocs leaves as written: renumber
    #: follows it, the link check leaves it to the browser
    html: bool = field(default=False, compare=False)

    @property
    def path(self) -> str:
        return self.url.split("#", 1)[0].split("?", 1)[0]

    @property
    def fragment(self) -> str | None:
        return self.url.split("#", 1)[1] if "#" in self.url else None

    @property
    def is_external(self) -> bool:
        return bool(re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", self.url)) or self.url.startswith("//")


@dataclass(frozen=True)
class Heading:
    line: int
    level: int
    text: str


class Block(NamedTuple):
    """A ``/// kind | argument`` … ``///`` block as written, with its line span.

    ``end_line`` is None when the block is never closed; its body then runs to where the scanner
    closed it implicitly (the next block of a duizhao kind, or the end of the file), and
    ``body_end`` is that (exclusive) line. (A named tuple, immutable like the other records
    here: an article has thousands, and a tuple is made in a third of a frozen dataclass's
    time.)
    """

    kind: str
    argument: str
    line: int
    end_line: int | None
    body_start: int
    body_end: int
    body: tuple[str, ...]
    #: index into the scanned lines (0-based) of the opening and closing fence lines
    open_index: int
    close_index: int | None


@dataclass(frozen=True)
class Paragraph:
    """A numbered paragraph block: the optional English original and the Chinese translation.

    The block body is split by line indexes; the texts are joined only when asked for (the
    check reads a few paragraphs' texts, a build all of them once).
    """

    block: Block
    original_line: int | None
    translation_line: int | None
    #: index (0-based, relative to the block body) where the translation starts
    split: int

    @cached
    def original(self) -> str:
        """The blockquoted English original, without its ``>`` markers ("" when there is none)."""
        if self.original_line is None:
            return ""
        quoted: list[str] = []
        for line in self.block.body[self.original_line - self.block.body_start : self.split]:
            if line[:2] == "> ":  # the common case, without a regex
                quoted.append(line[2:])
            else:
                quote = _BLOCKQUOTE_RE.match(line)  # (a lazy continuation line has no '>')
                quoted.append(line[quote.end() :] if quote else line)
        return "\n".join(quoted).strip()

    @cached
    def translation(self) -> str:
        """Everything after the original, stripped ("" when nothing is written)."""
        if self.translation_line is None:
            return ""
        return "\n".join(self.block.body[self.split :]).strip()

    @property
    def id(self) -> str:
        return self.block.argument

    @property
    def line(self) -> int:
        return self.block.line

    # Cached (in the instance dict, which a frozen dataclass allows): the checks, anchors and
    # progress each ask several times per paragraph.
    @cached
    def is_well_formed(self) -> bool:
        return PARAGRAPH_ID_RE.fullmatch(self.block.argument) is not None

    @cached
    def number(self) -> int | None:
        return int(self.block.argument[1:]) if self.is_well_formed else None

    @property
    def is_todo(self) -> bool:
        """The translation is still to be written (empty or only the import marker)."""
        if self.translation_line is None:
            return True
        first = self.block.body[self.translation_line - self.block.body_start]
        if TODO_MARKER not in first:  # a written line (not blank) that stays: not to do
            return False  # (the check asks of every paragraph; no text joined)
        text = without_todo(self.translation)
        return not text or text.isspace()


def placement_anchor(key: str) -> str | None:
    """The HTML id of a placement: ``3`` → ``fig-3``, ``table-2`` → ``table-2``."""
    if key.isdigit():
        return f"fig-{key}"
    return key if TABLE_ANCHOR_RE.fullmatch(key) else None


def placement_label(key: str) -> str:
    """How the site names a placement: ``3`` → 图 3, ``table-2`` → 表 2."""
    m = TABLE_ANCHOR_RE.fullmatch(key)
    return f"表 {m.group(1)}" if m else f"图 {key}"


@dataclass(frozen=True)
class FigurePlacement:
    block: Block

    @property
    def id(self) -> str:
        return self.block.argument

    @property
    def line(self) -> int:
        return self.block.line

    @property
    def note(self) -> str:
        return "\n".join(self.block.body).strip()


@dataclass(frozen=True)
class ParagraphRange:
    start: int
    end: int
    width: int

    def __contains__(self, number: object) -> bool:
        return isinstance(number, int) and self.start <= number <= self.end

    def format_id(self, number: int) -> str:
        return f"P{number:0{self.width}d}"

    def __str__(self) -> str:
        return f"{self.format_id(self.start)}-{self.format_id(self.end)}"


@dataclass(frozen=True)
class Scan:
    """What :func:`scan` finds in body lines (front matter already removed)."""

    blocks: tuple[Block, ...]
    links: tuple[Link, ...]
    headings: tuple[Heading, ...]
    #: (line, kind, message) of scanner-level problems: unclosed fences and blocks, stray closers
    problems: tuple[tuple[int, str, str], ...]


@dataclass
class Article:
    """One parsed source file. Lines are 1-based in the file as the author sees it."""

    path: Path
    text: str
    meta: dict[str, Any] = field(default_factory=dict)
    #: 1-based line of each top-level front matter key
    meta_lines: dict[str, int] = field(default_factory=dict)
    has_front_matter: bool = False
    #: 1-based line where the body starts (after the front matter)
    body_line: int = 1
    body: str = ""
    #: the 导言 as readers see it: the text under ``## 导言``, without the import's to-do
    #: markers (an intro of only a marker is ""), or None without the heading
    intro: str | None = None
    #: the 导言 as written (markers included): where the page holds it
    intro_source: str | None = None
    intro_line: int | None = None
    paragraphs: list[Paragraph] = field(default_factory=list)
    figures: list[FigurePlacement] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    headings: list[Heading] = field(default_factory=list)
    #: problems found while reading: encoding, front matter, unclosed blocks and fences
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: the file as read (:func:`file_stamp`), for caches of what is derived from it; None for
    #: text not read from a file, or a file that may change unseen
    stamp: tuple[int, int, int, int] | None = None

    @property
    def title(self) -> str | None:
        title = self.meta.get("title")
        return str(title) if isinstance(title, (str, int, float)) and str(title).strip() else None

    @property
    def status(self) -> str:
        status = self.meta.get("status", "draft")
        return status if isinstance(status, str) else "draft"

    @property
    def is_draft(self) -> bool:
        return self.status != "complete"

    @property
    def paper(self) -> dict[str, Any]:
        paper = self.meta.get("paper")
        return paper if isinstance(paper, dict) else {}

    @property
    def is_article(self) -> bool:
        """A translation (not a plain page): blocks, a paper, a range or duizhao's status.

        Material knows a front matter ``status:`` of its own (``new``, ``deprecated``, …): only
        duizhao's values make a page a translation.
        """
        return bool(
            self.paragraphs
            or self.figures
            or any(key in self.meta for key in ("paragraphs", "paper"))
            or self.meta.get("status") in STATUSES
            # front matter YAML could not read: its keys as written still tell
            or (not self.meta and any(k in self.meta_lines for k in ("paragraphs", "paper")))
        )

    @property
    def paragraph_range(self) -> ParagraphRange | None:
        return parse_range(self.meta.get("paragraphs"))

    @cached
    def anchors(self) -> frozenset[str]:
        """The anchors duizhao itself emits on this page (computed once: every link to the
        page asks, and a parsed Article is not changed afterwards)."""
        ids = {p.id for p in self.paragraphs if p.is_well_formed}
        ids.update(a for f in self.figures if (a := placement_anchor(f.id)) is not None)
        return frozenset(ids)


# --------------------------------------------------------------------------------------------
# Helpers


def parse_range(value: object) -> ParagraphRange | None:
    """``"P001-P129"`` (or with an en dash) → ParagraphRange; None when absent, malformed or
    larger than :data:`MAX_PARAGRAPHS` (see :func:`range_too_large`)."""
    rng = _range(value)
    return None if rng is None or range_too_large(rng) else rng


def _range(value: object) -> ParagraphRange | None:
    if not isinstance(value, str) or len(value) > 64:
        return None
    m = _RANGE_RE.match(value)
    if not m:
        return None
    start, end = m.group(1), m.group(2)
    return ParagraphRange(int(start[1:]), int(end[1:]), len(start) - 1)


def range_too_large(rng: ParagraphRange | object) -> bool:
    """Whether a range (or a front matter value) declares more than :data:`MAX_PARAGRAPHS`."""
    if not isinstance(rng, ParagraphRange):
        rng = _range(rng)
    return rng is not None and rng.end - rng.start + 1 > MAX_PARAGRAPHS


def normalize_id(raw: str) -> str:
    """What a malformed ID probably meant (``Ｐ００１`` → ``P001``, ``p1`` → ``P001``)."""
    text = unicodedata.normalize("NFKC", raw).strip()
    m = re.fullmatch(r"[pP]\s*0*([0-9]{1,9})", text)
    if not m:
        return ""
    return f"P{int(m.group(1)):03d}"


def without_todo(text: str) -> str:
    """``text`` without the import's to-do markers (a line of only a marker goes whole)."""
    if TODO_MARKER not in text:
        return text
    lines = [line.replace(TODO_MARKER, "") for line in text.split("\n")]
    kept = [
        line
        for line, was in zip(lines, text.split("\n"), strict=True)
        if line.strip() or not was.strip()
    ]
    return "\n".join(kept).strip()
