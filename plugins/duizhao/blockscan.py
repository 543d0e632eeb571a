"""The block scanner: one pass over an article body's lines finds the ``///`` blocks, links and
headings (:func:`scan`), skipping fenced code, HTML comments and code spans as the site does.
Linear in the length of the lines: every pattern here is bounded (issue 19's ReDoS check)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .htmlscan import hrefs
from .links import inline_links
from .model import _BLOCKQUOTE_RE, BLOCK_KINDS, Block, Heading, Link, Paragraph, Scan
from .nesting import MAX_BLOCK_DEPTH

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
#: The first character (after the indent) of every line :func:`scan` looks at more closely.
_SYNTAX_STARTS = frozenset("`~</#[")
#: What precedes " | " on the usual opening line of each of duizhao's blocks.
_PLAIN_OPENERS = frozenset(f"/// {kind}" for kind in BLOCK_KINDS)
_BACKTICKS_RE = re.compile(r"`+")
#: what a line with an ``href`` of raw HTML holds (tested before the HTML is scanned)
_HREF, _HREF_UPPER = "href", "HREF"
# (inline links and images: duizhao.links, a linear scanner; issue 12 and 19)
_REF_DEF_RE = re.compile(r"^ {0,3}\[(?P<label>[^\]]+)\]:[ \t]*(?P<url><[^>]*>|\S+)")


def atx_text(rest: str) -> str:
    """The text of an ATX heading after its opening hashes, without the closing sequence
    (``## a ##``): string methods, not a regex, so that no run of spaces and tabs is split
    between two quantifiers (a 30,000-character run used to take seconds, issue 19)."""
    text = rest.strip(" \t")
    bare = text.rstrip("#")
    if bare != text and (not bare or bare[-1] in " \t"):
        text = bare.rstrip(" \t")
    return text


def _strip_code_spans(line: str) -> str:
    """``line`` with each code span blanked out (same length), in linear time.

    A span opens with a run of N backticks and closes at the next run of exactly N (as in
    CommonMark); a run with no partner is literal text. One pass over the runs, with a cursor
    per run length that only moves forward, so hostile lines (thousands of unmatched runs of
    different lengths) cost no more than ordinary ones.
    """
    if "`" not in line:
        return line
    if "``" not in line:
        return _strip_single_spans(line)
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


def _strip_single_spans(line: str) -> str:
    """:func:`_strip_code_spans` of a line whose every run is one backtick: each span is a
    backtick and the next one (an odd last one is literal), found by ``str.find``."""
    out: list[str] = []
    last = 0
    start = line.find("`")
    while start >= 0:
        end = line.find("`", start + 1)
        if end < 0:
            break
        out.append(line[last:start])
        out.append(" " * (end + 1 - start))
        last = end + 1
        start = line.find("`", last)
    if not out:
        return line
    out.append(line[last:])
    return "".join(out)


def split_lines(text: str) -> list[str]:
    """Lines without terminators; CRLF and CR are accepted as line ends."""
    if "\r" in text:  # (a test is cheaper than two replacements that find nothing)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.split("\n")


# --------------------------------------------------------------------------------------------
# Scanner


#: Makes a :class:`Block` from its fields in order, without the named tuple's own ``__new__``
#: (a Python function that takes keywords; 13,000 blocks a check of the bench corpus).
_new_block = tuple.__new__


@dataclass
class _Open:
    name: str
    argument: str
    slashes: int
    index: int


def scan(
    lines: list[str], first_line: int = 1, *, with_links: bool = True, text: str | None = None
) -> Scan:
    """Find blocks, links and headings in body ``lines``; ``first_line`` numbers ``lines[0]``.
    ``with_links=False`` leaves the links out (the renderer wants the blocks only: reading the
    links of a line of thousands was a third of duizhao's part of its build, issue 19).

    Only the duizhao kinds (:data:`BLOCK_KINDS`) become :class:`Block` objects, but every
    ``///`` block is tracked so that nested pymdownx blocks (``/// details``) close correctly.
    A duizhao block never contains another of the same kind: an opener while one is still open
    closes the open one implicitly (and it is reported unclosed), which keeps one missing
    ``///`` from swallowing the rest of the article.

    ``text``: the lines joined by line feeds, when the caller has it: a page whose text holds
    no ``href`` is not searched for one line by line (most pages have no raw HTML link).
    """
    may_href = with_links and (text is None or _HREF in text or _HREF_UPPER in text)
    return _Scanner(lines, first_line, with_links, may_href).run()


class _Scanner:
    """The state of one :func:`scan`: what is open (blocks, a fence, a comment) and found."""

    def __init__(self, lines: list[str], first_line: int, with_links: bool, may_href: bool) -> None:
        self.lines = lines
        self.first_line = first_line
        self.with_links = with_links
        #: the lines may hold an ``href`` of raw HTML (with_links, and the page's text has one)
        self.may_href = may_href
        self.blocks: list[Block] = []
        self.links: list[Link] = []
        self.headings: list[Heading] = []
        self.problems: list[tuple[int, str, str]] = []
        self.stack: list[_Open] = []
        #: the slashes of the openers past MAX_BLOCK_DEPTH (text, with their closers): the
        #: stack stays short, so each closer looks at a bounded number of open blocks
        self.ghosts: list[int] = []
        self.fence: tuple[str, int] | None = None  # (fence string, index of opener)
        self.in_comment = False

    def run(self) -> Scan:
        first_line, with_links, links = self.first_line, self.with_links, self.links
        may_href = self.may_href
        for index, line in enumerate(self.lines):
            if self.fence is not None:
                if line.strip() == self.fence[0]:
                    self.fence = None
                continue
            # Each syntax below starts with a known character after the indent; testing it
            # first skips the regexes on the prose lines that make up most of an article.
            first = line[:1]
            if first == " " or first == "\t":
                first = line.lstrip(" \t")[:1]
            if first not in _SYNTAX_STARTS and not self.in_comment and "](" not in line:
                if may_href and (_HREF in line or _HREF_UPPER in line):
                    links.extend(_html_links(line, first_line + index))
                continue  # prose: no fence, comment, block, heading or link starts here
            if line == "///" and not self.in_comment and not self.ghosts:
                stack = self.stack
                if stack and stack[-1].slashes == 3:  # the common closing line, at once
                    self._close(stack.pop(), index, index)
                    continue
            if self._fence_or_comment(index, line, first):
                continue
            if first == "/" and self._slashes(index, line):
                continue
            if first == "#":
                self._heading(index, line)
            if with_links:
                self._links(index, line, first)
        return self._finish()

    def _fence_or_comment(self, index: int, line: str, first: str) -> bool:
        """Opens a fence or a comment, or is inside a comment (True: nothing else here)."""
        # Fences come before HTML comments, as in Python-Markdown, whose fenced-code
        # preprocessors run before raw HTML is recognised: a fence inside a comment is a fence.
        m = _FENCE_OPEN_RE.match(line) if first in ("`", "~") else None
        if m and not (m.group("fence")[0] == "`" and "`" in m.group("info")):
            self.fence = (m.group("fence"), index)
            return True
        if self.in_comment:
            if "-->" in line:
                self.in_comment = False
            return True
        if first == "<":
            stripped = line.lstrip(" ")
            if stripped.startswith("<!--") and len(line) - len(stripped) <= 3:
                if "-->" not in stripped[4:]:
                    self.in_comment = True
                return True
        return False

    def _slashes(self, index: int, line: str) -> bool:
        """A ``///`` line: a block opened or closed (True), or text."""
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
                self._open(index, line, *opened)
                return True
            m = _BLOCK_CLOSE_RE.match(line)
            slashes = len(m.group("slashes")) if m else 0
        if not slashes:
            return False
        self._close_line(index, line, slashes)
        return True

    def _open(self, index: int, line: str, name: str, argument: str, count: int) -> None:
        stack, ghosts = self.stack, self.ghosts
        if name in BLOCK_KINDS and not ghosts:
            for pos in range(len(stack) - 1, -1, -1):
                if stack[pos].name in BLOCK_KINDS:
                    for entry in reversed(stack[pos:]):
                        self._close(entry, None, index)
                    del stack[pos:]
                    break
        if len(stack) >= MAX_BLOCK_DEPTH or ghosts:
            ghosts.append(count)
            self.problems.append((self.first_line + index, "deep-block", line.strip()))
        else:
            stack.append(_Open(name, argument, count, index))

    def _close_line(self, index: int, line: str, slashes: int) -> None:
        stack, ghosts = self.stack, self.ghosts
        if ghosts and ghosts[-1] == slashes:  # closes a block shown as text
            ghosts.pop()
            self.problems.append((self.first_line + index, "deep-close", line.strip()))
            return
        if stack and stack[-1].slashes == slashes:  # closes the innermost
            self._close(stack.pop(), index, index)
            return
        for pos in range(len(stack) - 1, -1, -1):
            if stack[pos].slashes == slashes:
                for entry in reversed(stack[pos + 1 :]):
                    self._close(entry, None, index)
                self._close(stack[pos], index, index)
                del stack[pos:]
                return
        self.problems.append((self.first_line + index, "stray-close", line.strip()))

    def _close(self, entry: _Open, close_index: int | None, end: int) -> None:
        if entry.name not in BLOCK_KINDS:
            return
        first_line, opened = self.first_line, entry.index
        # (the fields in Block's order, without the keyword parsing of its __new__)
        self.blocks.append(
            _new_block(
                Block,
                (
                    entry.name,  # kind
                    entry.argument,
                    first_line + opened,  # line
                    None if close_index is None else first_line + close_index,  # end_line
                    first_line + opened + 1,  # body_start
                    first_line + end,  # body_end
                    tuple(self.lines[opened + 1 : end]),  # body
                    opened,  # open_index
                    close_index,
                ),
            )
        )
        if close_index is None:
            self.problems.append((first_line + entry.index, "unclosed-block", entry.name))

    def _heading(self, index: int, line: str) -> None:
        m = _ATX_RE.match(line)
        if m:
            text = _ATTR_LIST_RE.sub("", atx_text(m.group("text") or "")).strip()
            self.headings.append(Heading(self.first_line + index, len(m.group("hashes")), text))

    def _links(self, index: int, line: str, first: str) -> None:
        number, links = self.first_line + index, self.links
        # Scrubbing only blanks characters out, so a link or reference definition in the
        # scrubbed line needs "](" or a leading "[" and "]:" in the line itself.
        is_inline = "](" in line
        is_ref_def = first == "[" and "]:" in line
        if self.may_href and (_HREF in line or _HREF_UPPER in line):
            links.extend(_html_links(line, number))
        if not (is_inline or is_ref_def):
            return
        scrubbed = _strip_code_spans(line)
        if is_inline and "](" in scrubbed:
            for lm in inline_links(scrubbed):
                url, column = _unbracket(scrubbed[lm.url_start : lm.url_end], lm.url_start)
                text = scrubbed[lm.text_start : lm.text_end]
                links.append(Link(number, text, url, column))
        rm = _REF_DEF_RE.match(scrubbed) if is_ref_def else None
        if rm:
            url, column = _unbracket(rm.group("url"), rm.start("url"))
            links.append(Link(number, rm.group("label"), url, column))

    def _finish(self) -> Scan:
        if self.fence is not None:
            self.problems.append((self.first_line + self.fence[1], "unclosed-fence", self.fence[0]))
        for entry in reversed(self.stack):
            self._close(entry, None, len(self.lines))
        self.blocks.sort(key=lambda b: b.open_index)
        return Scan(
            tuple(self.blocks), tuple(self.links), tuple(self.headings), tuple(self.problems)
        )


def _html_links(line: str, number: int) -> list[Link]:
    """The ``href`` links of raw HTML on ``line`` (an HTML block's or inline HTML in prose),
    outside code spans and comments."""
    return [
        Link(number, h.text, h.value, h.start, html=True) for h in hrefs(_strip_code_spans(line))
    ]


def _unbracket(url: str, column: int) -> tuple[str, int]:
    stripped = url.lstrip("<")
    return stripped.rstrip(">"), column + len(url) - len(stripped)


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
        split = _blank_from(body, i, n)
    k = split
    while k < n and (not body[k] or body[k].isspace()):
        k += 1
    # (a frozen dataclass's __init__ sets each field through object.__setattr__; its dict
    # written at once makes the same object in half the time, 12,900 times a check)
    paragraph = _new_object(Paragraph)
    paragraph.__dict__.update(
        block=block,
        original_line=original_line,
        translation_line=block.body_start + k if k < n else None,
        split=split,
    )
    return paragraph


_new_object = object.__new__


def _blank_from(body: tuple[str, ...], at: int, n: int) -> int:
    """The index of the first blank line (empty or only white space) at or after ``at``, or
    ``n``: the empty lines found by ``tuple.index`` and the rare white-space line by ``map``,
    both in C (the lines of an original were a Python loop's)."""
    try:
        end = body.index("", at)
    except ValueError:
        end = n
    if any(map(str.isspace, body[at:end])):
        while not body[at].isspace():
            at += 1
        return at
    return end
