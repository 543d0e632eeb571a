"""Parse one source file into an :class:`Article`.

This module is the only reader of duizhao's syntax. The CLI, the checks, the MkDocs plugins and
the Python-Markdown extension all call :func:`scan` / :func:`parse`, so a line means the same
thing everywhere. It is pure: no MkDocs import, no I/O beyond :func:`read_article`.

Syntax (fixed by the authoring contract)::

    /// paragraph | P001
    > English original (optional blockquote first)

    中文译文 (any Markdown)
    ///

    /// figure | 3
    optional translator's note
    ///

Block fences follow pymdownx.blocks: three or more slashes, up to three spaces of indent, the
closing fence has the same number of slashes. Text inside fenced code (``` or ~~~, closed by the
same fence, as Python-Markdown's fenced_code and SuperFences require) or inside a multi-line HTML
comment is never a block.
"""

from __future__ import annotations

import os
import re
import time
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, NamedTuple, TypeVar, overload

import yaml

from .diagnostics import Diagnostic
from .htmlscan import hrefs
from .links import inline_links
from .nesting import MAX_BLOCK_DEPTH, MAX_MARKDOWN_DEPTH, html_too_deep, too_deep
from .sanitize import MAX_HTML_DEPTH
from .yamlsafe import MAX_TEXT_BYTES, InputError, load_yaml, read_stat_bytes, snippet

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

# (no ``$``: a line has no newline, and ``.*`` that cannot fail never gives a backtick back)
_FENCE_OPEN_RE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)")
# Each run of spaces has one place in the match (issue 19): the spaces before "|" belong to
# the optional argument part, those after it to the argument only when one follows, and the
# argument starts and ends with a non-space, so no run is split between two quantifiers.
# (An empty argument, "/// name |", leaves group "arg" unmatched.)
_BLOCK_OPEN_RE = re.compile(
    r"^ {0,3}(?P<slashes>/{3,})[ ]*(?P<name>[\w-]+)"
    r"(?:[ ]*\|(?:[ ]*(?P<arg>[^ \n](?:[^\n]*[^ \n])?))?)?[ ]*$"
)
_BLOCK_CLOSE_RE = re.compile(r"^ {0,3}(?P<slashes>/{3,})[ ]*$")
_ATX_RE = re.compile(r"^ {0,3}(?P<hashes>#{1,6})(?P<text>[ \t].*)?$")
_ATTR_LIST_RE = re.compile(r"\{[^{}]*\}[ \t]*$")
_BLOCKQUOTE_RE = re.compile(r"^ {0,3}> ?")
#: The first character (after the indent) of every line :func:`scan` looks at more closely.
_SYNTAX_STARTS = frozenset("`~</#[")
#: What precedes " | " on the usual opening line of each of duizhao's blocks.
_PLAIN_OPENERS = frozenset(f"/// {kind}" for kind in BLOCK_KINDS)
_BACKTICKS_RE = re.compile(r"`+")
#: what a line with an ``href`` of raw HTML holds (tested before the HTML is scanned)
_HREF, _HREF_UPPER = "href", "HREF"
# (inline links and images: duizhao.links, a linear scanner; issue 12 and 19)
_REF_DEF_RE = re.compile(r"^ {0,3}\[(?P<label>[^\]]+)\]:[ \t]*(?P<url><[^>]*>|\S+)")
_RANGE_RE = re.compile(r"^\s*(P[0-9]{3,9})\s*[-–—~]\s*(P[0-9]{3,9})\s*$")
_FRONT_MATTER_END_RE = re.compile(r"^(?:-{3}|\.{3})[ \t]*$")

STATUSES = ("draft", "complete")
_TOP_KEY_RE = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:")


def atx_text(rest: str) -> str:
    """The text of an ATX heading after its opening hashes, without the closing sequence
    (``## a ##``): string methods, not a regex, so that no run of spaces and tabs is split
    between two quantifiers (a 30,000-character run used to take seconds, issue 19)."""
    text = rest.strip(" \t")
    bare = text.rstrip("#")
    if bare != text and (not bare or bare[-1] in " \t"):
        text = bare.rstrip(" \t")
    return text


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


_RANGE_IN_LINE_RE = re.compile(r"(P[0-9]{3,9})\s*[-–—~]\s*(P[0-9]{3,9})")


def replace_range(line: str, rng: ParagraphRange) -> str | None:
    """The front matter ``line`` holding ``paragraphs: P001-P129`` with ``rng`` in its place.

    Quotes, dash, spacing and a trailing comment are kept; None when the line has no range.
    """
    m = _RANGE_IN_LINE_RE.search(line)
    if m is None:
        return None
    return (
        line[: m.start(1)]
        + rng.format_id(rng.start)
        + line[m.end(1) : m.start(2)]
        + rng.format_id(rng.end)
        + line[m.end(2) :]
    )


def normalize_id(raw: str) -> str:
    """What a malformed ID probably meant (``Ｐ００１`` → ``P001``, ``p1`` → ``P001``)."""
    text = unicodedata.normalize("NFKC", raw).strip()
    m = re.fullmatch(r"[pP]\s*0*([0-9]{1,9})", text)
    if not m:
        return ""
    return f"P{int(m.group(1)):03d}"


def _strip_code_spans(line: str) -> str:
    """``line`` with each code span blanked out (same length), in linear time.

    A span opens with a run of N backticks and closes at the next run of exactly N (as in
    CommonMark); a run with no partner is literal text. One pass over the runs, with a cursor
    per run length that only moves forward, so hostile lines (thousands of unmatched runs of
    different lengths) cost no more than ordinary ones.
    """
    if "`" not in line:
        return line
    runs = [(m.start(), m.end()) for m in _BACKTICKS_RE.finditer(line)]
    by_length: dict[int, list[int]] = {}
    for i, (start, end) in enumerate(runs):
        by_length.setdefault(end - start, []).append(i)
    cursor = dict.fromkeys(by_length, 0)
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(runs):
        start, end = runs[i]
        same = by_length[end - start]
        k = cursor[end - start]
        while k < len(same) and same[k] <= i:
            k += 1
        cursor[end - start] = k
        if k == len(same):
            i += 1
            continue
        j = same[k]
        spans.append((start, runs[j][1]))
        i = j + 1
    if not spans:
        return line
    out: list[str] = []
    last = 0
    for start, end in spans:
        out.append(line[last:start])
        out.append(" " * (end - start))
        last = end
    out.append(line[last:])
    return "".join(out)


def split_lines(text: str) -> list[str]:
    """Lines without terminators; CRLF and CR are accepted as line ends."""
    if "\r" in text:  # (a test is cheaper than two replacements that find nothing)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.split("\n")


# --------------------------------------------------------------------------------------------
# Scanner


@dataclass
class _Open:
    name: str
    argument: str
    slashes: int
    index: int


def scan(lines: list[str], first_line: int = 1) -> Scan:
    """Find blocks, links and headings in body ``lines``; ``first_line`` numbers ``lines[0]``.

    Only the duizhao kinds (:data:`BLOCK_KINDS`) become :class:`Block` objects, but every
    ``///`` block is tracked so that nested pymdownx blocks (``/// details``) close correctly.
    A duizhao block never contains another of the same kind: an opener while one is still open
    closes the open one implicitly (and it is reported unclosed), which keeps one missing
    ``///`` from swallowing the rest of the article.
    """
    blocks: list[Block] = []
    links: list[Link] = []
    headings: list[Heading] = []
    problems: list[tuple[int, str, str]] = []
    stack: list[_Open] = []
    #: the slashes of the openers past MAX_BLOCK_DEPTH (text, with their closers): the stack
    #: stays short, so each closer looks at a bounded number of open blocks
    ghosts: list[int] = []
    fence: tuple[str, int] | None = None  # (fence string, index of opener)
    in_comment = False

    def close(entry: _Open, close_index: int | None, end: int) -> None:
        if entry.name not in BLOCK_KINDS:
            return
        body = tuple(lines[entry.index + 1 : end])
        blocks.append(
            Block(
                kind=entry.name,
                argument=entry.argument,
                line=first_line + entry.index,
                end_line=None if close_index is None else first_line + close_index,
                body_start=first_line + entry.index + 1,
                body_end=first_line + end,
                body=body,
                open_index=entry.index,
                close_index=close_index,
            )
        )
        if close_index is None:
            problems.append((first_line + entry.index, "unclosed-block", entry.name))

    for index, line in enumerate(lines):
        if fence is not None:
            if line.strip() == fence[0]:
                fence = None
            continue
        # Each syntax below starts with a known character after the indent; testing it first
        # skips the regexes on the prose lines that make up most of an article.
        first = line[:1]
        if first == " " or first == "\t":
            first = line.lstrip(" \t")[:1]
        if first not in _SYNTAX_STARTS and not in_comment and "](" not in line:
            if _HREF in line or _HREF_UPPER in line:
                links.extend(_html_links(line, first_line + index))
            continue  # prose: no fence, comment, block, heading or link starts here
        # Fences come before HTML comments, as in Python-Markdown, whose fenced-code
        # preprocessors run before raw HTML is recognised: a fence inside a comment is a fence.
        m = _FENCE_OPEN_RE.match(line) if first in ("`", "~") else None
        if m and not (m.group("fence")[0] == "`" and "`" in m.group("info")):
            fence = (m.group("fence"), index)
            continue
        if in_comment:
            if "-->" in line:
                in_comment = False
            continue
        if first == "<":
            stripped = line.lstrip(" ")
            if stripped.startswith("<!--") and len(line) - len(stripped) <= 3:
                if "-->" not in stripped[4:]:
                    in_comment = True
                continue
        if first == "/":
            slashes = 3 if line == "///" else 0  # the common closing line, without a regex
            if not slashes:
                # The common openers ("/// paragraph | P001") without a regex: the same name and
                # argument as _BLOCK_OPEN_RE gives them.
                head, bar, rest = line.partition(" | ")
                if bar and head in _PLAIN_OPENERS:
                    opened: tuple[str, str, int] | None = (head[4:], rest.strip(), 3)
                elif m := _BLOCK_OPEN_RE.match(line):
                    opened = (m.group("name"), (m.group("arg") or "").strip(), len(m["slashes"]))
                else:
                    opened = None
                if opened:
                    name, argument, count = opened
                    if name in BLOCK_KINDS and not ghosts:
                        for pos in range(len(stack) - 1, -1, -1):
                            if stack[pos].name in BLOCK_KINDS:
                                for entry in reversed(stack[pos:]):
                                    close(entry, None, index)
                                del stack[pos:]
                                break
                    if len(stack) >= MAX_BLOCK_DEPTH or ghosts:
                        ghosts.append(count)
                        problems.append((first_line + index, "deep-block", line.strip()))
                    else:
                        stack.append(_Open(name, argument, count, index))
                    continue
                m = _BLOCK_CLOSE_RE.match(line)
                slashes = len(m.group("slashes")) if m else 0
            if slashes and ghosts and ghosts[-1] == slashes:  # closes a block shown as text
                ghosts.pop()
                problems.append((first_line + index, "deep-close", line.strip()))
                continue
            if slashes and stack and stack[-1].slashes == slashes:  # closes the innermost
                close(stack.pop(), index, index)
                continue
            if slashes:
                for pos in range(len(stack) - 1, -1, -1):
                    if stack[pos].slashes == slashes:
                        for entry in reversed(stack[pos + 1 :]):
                            close(entry, None, index)
                        close(stack[pos], index, index)
                        del stack[pos:]
                        break
                else:
                    problems.append((first_line + index, "stray-close", line.strip()))
                continue
        m = _ATX_RE.match(line) if first == "#" else None
        if m:
            text = _ATTR_LIST_RE.sub("", atx_text(m.group("text") or "")).strip()
            headings.append(Heading(first_line + index, len(m.group("hashes")), text))
        # Scrubbing only blanks characters out, so a link or reference definition in the
        # scrubbed line needs "](" or a leading "[" and "]:" in the line itself.
        is_inline = "](" in line
        is_ref_def = first == "[" and "]:" in line
        if _HREF in line or _HREF_UPPER in line:
            links.extend(_html_links(line, first_line + index))
        if not (is_inline or is_ref_def):
            continue
        scrubbed = _strip_code_spans(line)
        if is_inline and "](" in scrubbed:
            for lm in inline_links(scrubbed):
                url, column = _unbracket(scrubbed[lm.url_start : lm.url_end], lm.url_start)
                text = scrubbed[lm.text_start : lm.text_end]
                links.append(Link(first_line + index, text, url, column))
        rm = _REF_DEF_RE.match(scrubbed) if is_ref_def else None
        if rm:
            url, column = _unbracket(rm.group("url"), rm.start("url"))
            links.append(Link(first_line + index, rm.group("label"), url, column))

    if fence is not None:
        problems.append((first_line + fence[1], "unclosed-fence", fence[0]))
    for entry in reversed(stack):
        close(entry, None, len(lines))
    blocks.sort(key=lambda b: b.open_index)
    return Scan(tuple(blocks), tuple(links), tuple(headings), tuple(problems))


def _html_links(line: str, number: int) -> list[Link]:
    """The ``href`` links of raw HTML on ``line`` (an HTML block's or inline HTML in prose),
    outside code spans and comments."""
    return [
        Link(number, h.text, h.value, h.start, html=True) for h in hrefs(_strip_code_spans(line))
    ]


def _unbracket(url: str, column: int) -> tuple[str, int]:
    stripped = url.lstrip("<")
    return stripped.rstrip(">"), column + len(url) - len(stripped)


def replace_block_argument(line: str, argument: str) -> str:
    """The opening fence ``line`` of a block with its argument set to ``argument``.

    Everything else on the line (indent, number of slashes, spacing) is kept:
    ``replace_block_argument("/// paragraph | P003", "P004") == "/// paragraph | P004"``.
    """
    m = _BLOCK_OPEN_RE.match(line)
    if m is None:
        raise ValueError(f"not a block opener: {line!r}")
    if m.group("arg"):
        start, end = m.span("arg")
        return line[:start] + argument + line[end:]
    return f"{line[: m.end('name')]} | {argument}"


def split_paragraph(block: Block) -> Paragraph:
    """Split a paragraph block body into the blockquoted original and the translation."""
    body = block.body
    n = len(body)
    i = 0
    while i < n and (not body[i] or body[i].isspace()):
        i += 1
    original_line: int | None = None
    split = i
    if i < n and _BLOCKQUOTE_RE.match(body[i]):
        original_line = block.body_start + i
        j = i
        while j < n and body[j] and not body[j].isspace():
            j += 1
        split = j
    k = split
    while k < n and (not body[k] or body[k].isspace()):
        k += 1
    return Paragraph(
        block=block,
        original_line=original_line,
        translation_line=block.body_start + k if k < n else None,
        split=split,
    )


# --------------------------------------------------------------------------------------------
# Front matter and the whole file


def _front_matter(lines: list[str]) -> tuple[int, int] | None:
    """(start, end) indexes of the YAML lines between the ``---`` fences, as MkDocs reads them."""
    if not lines or not re.match(r"^-{3}[ \t]*$", lines[0]):
        return None
    for i in range(1, len(lines)):
        if _FRONT_MATTER_END_RE.match(lines[i]):
            return 1, i
    return None


def _key_lines(node: yaml.Node | None, first_line: int) -> dict[str, int]:
    if not isinstance(node, yaml.MappingNode):
        return {}
    lines: dict[str, int] = {}
    for key, _value in node.value:
        if isinstance(key, yaml.ScalarNode):
            lines.setdefault(str(key.value), first_line + key.start_mark.line)
    return lines


def parse(text: str, path: str | Path = "<string>") -> Article:
    """Parse the decoded source ``text`` of one file."""
    path = Path(path)
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = split_lines(text)
    article = Article(path=path, text=text)
    fm = _front_matter(lines)
    body_index = 0
    if lines and re.match(r"^-{3}[ \t]*$", lines[0]) and fm is None:
        article.diagnostics.append(
            Diagnostic(
                path,
                1,
                "DZ010",
                "front matter opened with '---' is never closed; end it with a line '---'",
            )
        )
    if fm is not None:
        start, end = fm
        article.has_front_matter = True
        body_index = end + 1
        source = "\n".join(lines[start:end]) + "\n"
        # One parse gives the data and the node with the key lines.
        node: yaml.Node | None = None
        try:
            meta, node = load_yaml(source)
        except InputError as exc:
            line = start + exc.line
            quoted = snippet(lines[line - 1]) if 0 < line <= len(lines) else ""
            article.diagnostics.append(
                Diagnostic(
                    path,
                    line,
                    "DZ010",
                    f"unreadable front matter: {exc.message} "
                    f"in {quoted!r}; write YAML such as 'title: My article'",
                )
            )
            meta = {}
            # The keys as written, so that the page is still known as an article (and its
            # problem reported) when its YAML cannot be read.
            for number in range(start, end):
                km = _TOP_KEY_RE.match(lines[number])
                if km and km.group(1) in ("paragraphs", "paper"):
                    article.meta_lines.setdefault(km.group(1), number + 1)
        if meta is None:
            meta = {}
        if not isinstance(meta, dict):
            article.diagnostics.append(
                Diagnostic(
                    path,
                    start + 1,
                    "DZ010",
                    "unreadable front matter: expected "
                    f"'key: value' pairs, got a YAML {type(meta).__name__}",
                )
            )
            meta = {}
        article.meta = {str(k): v for k, v in meta.items()}
        if node is not None:
            article.meta_lines = _key_lines(node, start + 1)
    article.body_line = body_index + 1
    body_lines = lines[body_index:]
    if "\r" in text:
        article.body = "\n".join(body_lines)
    else:  # the same text, sliced rather than joined again
        article.body = text[sum(map(len, lines[:body_index])) + body_index :]
    result = scan(body_lines, first_line=body_index + 1)
    deep = list(too_deep(body_lines, article.body))
    if deep:
        more = f" (and {len(deep) - 1} more lines)" if len(deep) > 1 else ""
        article.diagnostics.append(
            Diagnostic(
                path,
                body_index + deep[0] + 1,
                "DZ020",
                f"quotes, lists or indentation nested more than {MAX_MARKDOWN_DEPTH} levels "
                f"deep{more}: shown as text; nest less deeply",
            )
        )
    html_deep = next(html_too_deep(body_lines, article.body), None)
    if html_deep is not None:
        article.diagnostics.append(
            Diagnostic(
                path,
                body_index + html_deep[0] + 1,
                "DZ021",
                f"HTML elements nested more than {MAX_HTML_DEPTH} levels deep: the tags past "
                "that depth are shown as text; nest less deeply",
            )
        )
    deep_blocks = [line for line, kind, _detail in result.problems if kind == "deep-block"]
    if deep_blocks:
        more = f" (and {len(deep_blocks) - 1} more)" if len(deep_blocks) > 1 else ""
        article.diagnostics.append(
            Diagnostic(
                path,
                deep_blocks[0],
                "DZ022",
                f"'///' blocks nested more than {MAX_BLOCK_DEPTH} levels deep{more}: this "
                f"block {snippet(lines[deep_blocks[0] - 1])!r} is shown as text; nest less deeply",
            )
        )
    article.links = list(result.links)
    article.headings = list(result.headings)
    for block in result.blocks:
        if block.kind == "paragraph":
            article.paragraphs.append(split_paragraph(block))
        else:
            article.figures.append(FigurePlacement(block))
    for line, kind, detail in result.problems:
        if kind == "unclosed-block":
            article.diagnostics.append(
                Diagnostic(
                    path,
                    line,
                    "DZ007",
                    f"unclosed {detail} block "
                    f"{snippet(lines[line - 1])!r}: end it with a line '///'",
                )
            )
        elif kind == "unclosed-fence":
            article.diagnostics.append(
                Diagnostic(
                    path,
                    line,
                    "DZ015",
                    f"code fence {detail!r} is never closed, so the "
                    f"rest of the file is code; close it with a line {detail!r}",
                )
            )
        elif kind == "stray-close":
            article.diagnostics.append(
                Diagnostic(
                    path,
                    line,
                    "DZ016",
                    f"closing fence {detail!r} has no open block; "
                    "remove it or open a block such as '/// paragraph | P001'",
                )
            )
    _find_intro(article, body_lines, body_index, result.blocks)
    return article


def _find_intro(
    article: Article, body_lines: list[str], body_index: int, blocks: Iterable[Block]
) -> None:
    heading = next((h for h in article.headings if h.level == 2 and h.text == INTRO_HEADING), None)
    if heading is None:
        return
    stops = [h.line for h in article.headings if h.line > heading.line and h.level <= 2]
    stops += [b.line for b in blocks if b.line > heading.line]
    end = min(stops, default=body_index + len(body_lines) + 1)
    start = heading.line + 1
    intro_lines = body_lines[start - body_index - 1 : end - body_index - 1]
    written = "\n".join(intro_lines).strip()
    article.intro_source = written
    # The import's to-do marker is the translator's note to self: never shown, never a
    # description (the one place the 导言 is derived: the page, the indexes and the meta
    # tags all read it here).
    article.intro = without_todo(written)
    offset = next((i for i, text in enumerate(intro_lines) if text.strip()), 0)
    article.intro_line = start + offset if written else heading.line


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


def decode(data: bytes, path: str | Path = "<bytes>") -> tuple[str | None, Diagnostic | None]:
    """Decode UTF-8 (a BOM is accepted); a diagnostic names the first bad byte's line."""
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return None, Diagnostic(
            Path(path),
            line,
            "DZ011",
            f"file is not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "save it as UTF-8",
        )


def read_article(path: str | Path) -> Article:
    """Read and parse a file; unreadable files give an Article whose diagnostics say why."""
    path = Path(path)
    try:
        info, data = read_stat_bytes(path, MAX_TEXT_BYTES)  # regular files, bounded, never block
    except (InputError, OSError) as exc:
        reason = exc.message if isinstance(exc, InputError) else f"cannot read file: {exc.strerror}"
        article = Article(path=path, text="")
        article.diagnostics.append(Diagnostic(path, 1, "DZ011", reason))
        return article
    text, problem = decode(data, path)
    if text is None:
        article = Article(path=path, text="")
        assert problem is not None
        article.diagnostics.append(problem)
        return article
    article = parse(text, path)
    article.stamp = file_stamp(info)
    return article


#: A file changed this recently may change again unseen: file systems stamp times with a clock
#: that ticks every few milliseconds, so a second write of the same size can keep the stamp.
RACY_NS = 2_000_000_000


def file_stamp(info: os.stat_result, now_ns: int | None = None) -> tuple[int, int, int, int] | None:
    """(mtime, ctime, size, inode) of a file's status taken before it was read, or None when it
    changed within :data:`RACY_NS` of ``now_ns`` (default: now), as git treats a "racily clean"
    file: its stamp cannot tell the content read from a later one."""
    now = time.time_ns() if now_ns is None else now_ns
    if now - max(info.st_mtime_ns, info.st_ctime_ns) < RACY_NS:
        return None
    return (info.st_mtime_ns, info.st_ctime_ns, info.st_size, info.st_ino)


def rewrite_urls(text: str, rewrite: Callable[[str], str]) -> str:
    """``text`` with ``rewrite(url)`` applied to every inline link, image and reference definition.

    Fenced code and code spans are left alone, as :func:`scan` leaves them. Used to move a piece
    of Markdown (an article's 导言) to a page in another folder.
    """
    out: list[str] = []
    fence: str | None = None
    for line in split_lines(text):
        if fence is not None:
            if line.strip() == fence:
                fence = None
            out.append(line)
            continue
        m = _FENCE_OPEN_RE.match(line)
        if m and not (m.group("fence")[0] == "`" and "`" in m.group("info")):
            fence = m.group("fence")
            out.append(line)
            continue
        scrubbed = _strip_code_spans(line)
        spans: list[tuple[int, int]] = []
        if "](" in scrubbed:
            spans += [(lm.url_start, lm.url_end) for lm in inline_links(scrubbed, images=True)]
        rm = _REF_DEF_RE.match(scrubbed)
        if rm:
            spans.append(rm.span("url"))
        for start, end in sorted(spans, reverse=True):
            url = line[start:end]
            bracketed = url.startswith("<") and url.endswith(">")
            new = rewrite(url[1:-1] if bracketed else url)
            line = line[:start] + (f"<{new}>" if bracketed else new) + line[end:]
        out.append(line)
    return "\n".join(out)
