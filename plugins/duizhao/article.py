"""Parse one source file into an :class:`Article`.

This module is the only reader of duizhao's syntax. The CLI, the checks, the MkDocs plugins and
the Python-Markdown extension all call :func:`scan` / :func:`parse`, so a line means the same
thing everywhere. It is pure: no MkDocs import, no I/O beyond :func:`read_article`.
The model lives in :mod:`duizhao.model`, the block scanner in :mod:`duizhao.blockscan` and the
edits of source lines in :mod:`duizhao.rewrite`; this module reads front matter and whole
files, and is the one name the rest of the package imports them by.

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
from collections.abc import Iterable
from pathlib import Path

import yaml

from .blockscan import atx_text, scan, split_lines, split_paragraph
from .diagnostics import Diagnostic
from .model import (
    BLOCK_KINDS,
    FIGURE_ANCHOR_RE,
    INTRO_HEADING,
    MAX_ID_DIGITS,
    MAX_PARAGRAPHS,
    PARAGRAPH_ID_RE,
    PARAGRAPH_REF_RE,
    STATUSES,
    TABLE_ANCHOR_RE,
    TODO_MARKER,
    Article,
    Block,
    FigurePlacement,
    Heading,
    Link,
    Paragraph,
    ParagraphRange,
    Scan,
    cached,
    normalize_id,
    parse_range,
    placement_anchor,
    placement_label,
    range_too_large,
    without_todo,
)
from .nesting import MAX_BLOCK_DEPTH, MAX_MARKDOWN_DEPTH, html_too_deep, too_deep
from .rewrite import replace_block_argument, replace_range, rewrite_urls
from .sanitize import MAX_HTML_DEPTH
from .yamlsafe import MAX_TEXT_BYTES, InputError, load_yaml, read_stat_bytes, snippet

# The names the rest of the package reads the syntax by (defined here and in the modules above).
__all__ = [
    "BLOCK_KINDS",
    "FIGURE_ANCHOR_RE",
    "INTRO_HEADING",
    "MAX_ID_DIGITS",
    "MAX_PARAGRAPHS",
    "PARAGRAPH_ID_RE",
    "PARAGRAPH_REF_RE",
    "RACY_NS",
    "STATUSES",
    "TABLE_ANCHOR_RE",
    "TODO_MARKER",
    "Article",
    "Block",
    "FigurePlacement",
    "Heading",
    "Link",
    "Paragraph",
    "ParagraphRange",
    "Scan",
    "atx_text",
    "cached",
    "decode",
    "file_stamp",
    "normalize_id",
    "parse",
    "parse_range",
    "placement_anchor",
    "placement_label",
    "range_too_large",
    "read_article",
    "replace_block_argument",
    "replace_range",
    "rewrite_urls",
    "scan",
    "split_lines",
    "split_paragraph",
    "without_todo",
]

_FRONT_MATTER_END_RE = re.compile(r"^(?:-{3}|\.{3})[ \t]*$")
_TOP_KEY_RE = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:")

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
    body_index = _read_front_matter(article, lines)
    article.body_line = body_index + 1
    body_lines = lines[body_index:]
    if "\r" in text:
        article.body = "\n".join(body_lines)
    else:  # the same text, sliced rather than joined again
        article.body = text[sum(map(len, lines[:body_index])) + body_index :]
    result = scan(body_lines, first_line=body_index + 1, text=article.body)
    _report_nesting(article, lines, body_lines, body_index, result)
    article.links = list(result.links)
    article.headings = list(result.headings)
    for block in result.blocks:
        if block.kind == "paragraph":
            article.paragraphs.append(split_paragraph(block))
        else:
            article.figures.append(FigurePlacement(block))
    _report_scan(article, lines, result)
    _find_intro(article, body_lines, body_index, result.blocks)
    return article


def _read_front_matter(article: Article, lines: list[str]) -> int:
    """Read the front matter into ``article`` (its problems as DZ010); the body's index."""
    path = article.path
    fm = _front_matter(lines)
    if lines and re.match(r"^-{3}[ \t]*$", lines[0]) and fm is None:
        article.diagnostics.append(
            Diagnostic(
                path,
                1,
                "DZ010",
                "front matter opened with '---' is never closed; end it with a line '---'",
            )
        )
    if fm is None:
        return 0
    start, end = fm
    article.has_front_matter = True
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
    return end + 1


def _report_nesting(
    article: Article, lines: list[str], body_lines: list[str], body_index: int, result: Scan
) -> None:
    """DZ020-DZ022: Markdown, HTML or ``///`` blocks nested too deeply (shown as text)."""
    path = article.path
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


def _report_scan(article: Article, lines: list[str], result: Scan) -> None:
    """DZ007, DZ015, DZ016: a block or fence never closed, a closing line with no block."""
    path = article.path
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
    return article_of(path, info, data)


def article_of(path: Path, info: os.stat_result, data: bytes) -> Article:
    """The Article of the file ``path`` whose bytes ``data`` were read after its status
    ``info`` (:func:`read_article` without the read)."""
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
