"""The article a new version makes: blocks in the new order, everything between them kept. Pure.

The old article is the skeleton. The blocks that keep their order (*stationary*: the longest run
of carried blocks whose old and new orders agree) stay where they are, their content updated;
every other block leaves its place (removed, merged into another, or moved) and every block the
new order needs between two stationary ones is put between them: a moved block as it was, a new
paragraph as an import writes it. The translator's material between the blocks (headings,
notes, figures, blocks without an original) stays where it was, byte for byte.

Where in the stretch between two stationary blocks an inserted block goes follows the new
version's headings: the headings of the new version between the two blocks are paired, from the
last, with the article's headings there (which the translator may have translated), and each
inserted block goes at the end of its heading's section; a heading of the new version with no
partner is new and comes with the blocks under it, as do the code, equations and figure
candidates that follow a new paragraph.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..article import Article, Heading, Paragraph
from ..source import SourceFile
from .apply import block_lines, quoted
from .model import Chunk
from .similarity import longest_increasing


@dataclass(frozen=True)
class Carry:
    """What the block of an old paragraph becomes in the new version."""

    #: index of the block among the article's paragraphs
    block: int
    #: the new original for its blockquote (None: the block keeps its own)
    original: str | None = None
    #: the lines (without ends) that replace everything after the blockquote, when a merge
    #: joins two translations (None: the block keeps its own)
    translation: tuple[str, ...] | None = None
    #: the ID the block carries in the composed text (its own, or a placeholder)
    pid: str = ""


def stationary(holders: Sequence[Carry | None]) -> set[int]:
    """The carried blocks that keep their place: a longest chain whose block order agrees with
    the new order (patience sorting)."""
    chain = longest_increasing((c.block, c.block) for c in holders if c is not None)
    return set(chain)


def carried_lines(source: SourceFile, p: Paragraph, carry: Carry) -> list[str]:
    """The block of ``p`` (lines with their ends) as ``carry`` makes it."""
    block = p.block
    assert block.end_line is not None
    opener = source.lines[block.line - 1]
    lines = source.lines[block.line - 1 : block.end_line]
    if carry.pid and carry.pid != p.id:
        from ..article import replace_block_argument

        end = opener[len(opener.rstrip("\r\n")) :]
        opener = replace_block_argument(opener.rstrip("\r\n"), carry.pid) + end
        lines = [opener, *lines[1:]]
    if carry.original is None and carry.translation is None:
        return lines
    nl = source.newline
    split = block.body_start + p.split  # first line after the quote (1-based)
    quote_start = p.original_line if p.original_line is not None else split
    head = source.lines[block.line : quote_start - 1]  # between the opener and the quote
    quote = source.lines[quote_start - 1 : split - 1]
    rest = source.lines[split - 1 : block.body_end - 1]
    if carry.original is not None:
        quote = [line + nl for line in quoted(carry.original)]
    if carry.translation is not None:
        rest = [nl, *(line + nl for line in carry.translation)]
    elif rest and rest[0].strip():
        rest = [nl, *rest]  # (a line right after a quote would continue it)
    closer = source.lines[block.end_line - 1]
    return [opener, *head, *quote, *rest, closer]


#: An item to insert: what it is ("unit": a block; "new", "heading": code or a figure after a
#: new paragraph or a heading) and its lines
_Item = tuple[str, list[str]]


@dataclass
class _Region:
    """The lines between two stationary blocks, with the blocks that leave taken out."""

    lines: list[str]
    #: indexes into ``lines`` of the heading lines
    headings: list[int]
    #: the article's headings there (as :mod:`duizhao.article` reads them)
    found: list[Heading]


#: The CJK ideographs: a heading that has some is the translator's, never replaced.
_HAN = (("\u3400", "\u9fff"), ("\uf900", "\ufaff"), ("\U00020000", "\U0003134f"))
#: Character similarity (case aside) from which a heading of the new version is the same
#: heading renamed or renumbered ("4 Implementation" → "5 Implementation")
HEADING_SIMILARITY = 0.6


def _translated(text: str) -> bool:
    return any(lo <= c <= hi for c in text for lo, hi in _HAN)


@dataclass(frozen=True)
class HeadingChange:
    """A heading of the article that follows the new version (it was still the original's)."""

    line: int
    old: str
    new: str


class Composer:
    """Builds the composed article (see the module docstring)."""

    def __init__(
        self,
        source: SourceFile,
        article: Article,
        chunks: Sequence[Chunk],
        holders: Sequence[Carry | None],
        leaving: set[int],
    ) -> None:
        self.source = source
        self.article = article
        self.chunks = list(chunks)
        self.holders = list(holders)
        #: blocks that leave their place (removed, merged away, moved)
        self.leaving = set(leaving)
        self.numbered = [k for k, c in enumerate(self.chunks) if c.is_numbered]
        self.still = stationary(self.holders)
        self.leaving |= {
            c.block for c in self.holders if c is not None and c.block not in self.still
        }
        self.unit_of = {k: j for j, k in enumerate(self.numbered)}
        inside: set[int] = set()  # (a heading in a translation or a figure note is no section)
        for block in [*(p.block for p in article.paragraphs), *(f.block for f in article.figures)]:
            inside.update(range(block.line, (block.end_line or block.body_end) + 1))
        self.heading_lines = {h.line: h for h in article.headings if h.line not in inside}
        self.nl = source.newline
        #: the article's headings that follow the new version's
        self.renamed: list[HeadingChange] = []

    # -- the stretch before the first stationary block starts after the title and 导言

    def _first_line(self) -> int:
        """The first line (1-based) of the body where blocks may be inserted."""
        article = self.article
        start = article.body_line
        headings = article.headings
        intro = next(
            (h for h in headings if h.level == 2 and h.text == "导言"),
            None,
        )
        title = next((h for h in headings if h.level == 1), None)
        if intro is not None:
            later = [h.line for h in headings if h.line > intro.line and h.level <= 2]
            later += [p.line for p in article.paragraphs if p.line > intro.line]
            later += [f.line for f in article.figures if f.line > intro.line]
            return min(later, default=len(self.source.lines) + 1)
        if title is not None:
            return title.line + 1
        return start

    def _region(self, start: int, stop: int) -> _Region:
        """Lines ``start`` to ``stop - 1`` (1-based), without the blocks that leave (and the
        blank line after each)."""
        skip: set[int] = set()
        for i in self.leaving:
            block = self.article.paragraphs[i].block
            assert block.end_line is not None
            if start <= block.line and block.end_line < stop:
                skip.update(range(block.line, block.end_line + 1))
                after = block.end_line + 1
                if after < stop and not self.source.lines[after - 1].strip():
                    skip.add(after)
        lines: list[str] = []
        headings: list[int] = []
        found: list[Heading] = []
        for number in range(start, stop):
            if number in skip:
                continue
            if number in self.heading_lines:
                headings.append(len(lines))
                found.append(self.heading_lines[number])
            lines.append(self.source.lines[number - 1])
        return _Region(lines, headings, found)

    def _block(self, j: int) -> list[str]:
        carry = self.holders[j]
        if carry is None:
            chunk = self.chunks[self.numbered[j]]
            return [line + self.nl for line in block_lines(chunk, f"P?new{j}")[:-1]]
        p = self.article.paragraphs[carry.block]
        return carried_lines(self.source, p, carry)

    def _chunk(self, chunk: Chunk) -> list[str]:
        return [line + self.nl for line in block_lines(chunk, "")[:-1]]

    def _segments(self, ja: int, jb: int) -> list[tuple[Chunk | None, list[_Item]]]:
        """The new version between numbered units ``ja`` and ``jb`` (exclusive; -1 and N for
        the ends), cut at its headings: (heading or None, the items under it)."""
        lo = self.numbered[ja] + 1 if ja >= 0 else 0
        hi = self.numbered[jb] if jb < len(self.numbered) else len(self.chunks)
        segments: list[tuple[Chunk | None, list[_Item]]] = [(None, [])]
        follows: str | None = None  # what code or a figure here would come with
        for k in range(lo, hi):
            chunk = self.chunks[k]
            if chunk.is_heading:
                segments.append((chunk, []))
                follows = "heading"
                continue
            items = segments[-1][1]
            if chunk.is_numbered:
                j = self.unit_of[k]
                items.append(("unit", self._block(j)))
                follows = "new" if self.holders[j] is None else None
            elif follows is not None and chunk.kind in ("verbatim", "figure"):
                items.append((follows, self._chunk(chunk)))
        return segments

    def _fill(self, region: _Region, ja: int, jb: int, *, at_end: bool = False) -> list[str]:
        """``region`` with the new version's blocks between units ``ja`` and ``jb`` in it."""
        segments = self._segments(ja, jb)
        heads = segments[1:]
        offset = len(region.headings) - len(heads)
        inserts: dict[int, list[list[str]]] = {}

        def point(s: int) -> int:  # the end of the section of the region's s-th heading
            return region.headings[s] if s < len(region.headings) else len(region.lines)

        def keep(items: list[_Item], heading_is_new: bool) -> list[list[str]]:
            return [lines for kind, lines in items if kind != "heading" or heading_is_new]

        inserts.setdefault(point(0), []).extend(keep(segments[0][1], False))
        for t, (heading, items) in enumerate(heads, 1):
            s = t + offset  # the region's heading it pairs with (1-based), if any
            if s >= 1:
                assert heading is not None
                self._rename(region, s - 1, heading)
                inserts.setdefault(point(s), []).extend(keep(items, False))
            elif any(kind == "unit" for kind, _ in items):
                # a new heading: it and what is under it go where the new sections start
                assert heading is not None
                inserts.setdefault(point(0), []).extend([self._chunk(heading), *keep(items, True)])
        out: list[str] = []
        lines = region.lines
        for index in range(len(lines) + 1):
            group = inserts.get(index)
            if group:
                if out and not out[-1].endswith(("\n", "\r")):
                    out[-1] += self.nl
                if out and out[-1].strip():
                    out.append(self.nl)
                for item in group:
                    out.extend(item)
                    out.append(self.nl)
                following = lines[index] if index < len(lines) else None
                if (following is None and at_end) or (
                    following is not None and not following.strip()
                ):
                    out.pop()  # a blank line follows already (or nothing does)
            if index < len(lines):
                out.append(lines[index])
        return out

    def _rename(self, region: _Region, index: int, heading: Chunk) -> None:
        """The article's heading at ``index`` of ``region`` as the new version's ``heading``
        when it is still the original's (no Chinese, written plainly) and close to it."""
        from rapidfuzz.distance import Indel

        found = region.found[index]
        line = region.lines[region.headings[index]]
        text = line.rstrip("\r\n")
        plain = "#" * found.level + " " + found.text
        new = heading.text
        if text != plain or new == found.text or _translated(found.text):
            return
        if Indel.normalized_similarity(found.text.casefold(), new.casefold()) < HEADING_SIMILARITY:
            return
        region.lines[region.headings[index]] = "#" * found.level + " " + new + line[len(text) :]
        self.renamed.append(HeadingChange(found.line, found.text, new))

    def compose(self) -> list[str]:
        """The lines (with their ends) of the composed article."""
        source = self.source
        stations = sorted(
            (carry.block, j)
            for j, carry in enumerate(self.holders)
            if carry is not None and carry.block in self.still
        )
        first = min(
            [self._first_line(), *(p.line for p in self.article.paragraphs)],
        )
        out = list(source.lines[: first - 1])
        start, ja = first, -1
        for i, j in stations:
            p = self.article.paragraphs[i]
            assert p.block.end_line is not None
            filled = self._fill(self._region(start, p.line), ja, j)
            self._join(out, filled)
            carry = self.holders[j]
            assert carry is not None
            self._join(out, carried_lines(source, p, carry))
            start, ja = p.block.end_line + 1, j
        tail = self._region(start, len(source.lines) + 1)
        self._join(out, self._fill(tail, ja, len(self.numbered), at_end=True))
        return out

    def _join(self, out: list[str], lines: list[str]) -> None:
        """``out`` + ``lines``, with a line end and a blank line between when needed."""
        if out and lines:
            if not out[-1].endswith(("\n", "\r")):
                out[-1] += self.nl
            if out[-1].strip() and lines[0].strip():
                out.append(self.nl)
        out.extend(lines)
