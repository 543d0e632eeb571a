"""Blocks of prose: paragraphs, lists, quotes, tables, definition and field lists, and the
paragraphs that are pictures (figure candidates, with the caption under them)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html.parser import HTMLParser

from markdown_it.tree import SyntaxTreeNode

from ...escape import protect_line_start
from ..model import Chunk
from .dialects import MYST
from .html import Html
from .inline import attribute_block, ial_re
from .state import Unit, flatten
from .templates import TEMPLATE_IMAGE_RE, TEMPLATE_RE, include_only, template_attribute
from .text import excerpt, has_words

_TOC_WORDS = {"toc", "table of contents", "contents"}
#: Tags that only lay out pictures (a paragraph of these and images is a figure).
_LAYOUT_TAGS = frozenset(
    {"div", "p", "center", "span", "a", "br", "figure", "picture", "source", "section", "img"}
)
_MDX_COMMENT_RE = re.compile(r"^\{/\*.{0,100000}\*/\}$", re.DOTALL)
#: Hugging Face doc-builder lines that the builder replaces: API docs, notebook buttons.
_DOC_BUILDER_LINE_RE = re.compile(r"^\[\[(?:autodoc|open-in-colab|include)\]\]")
_BREAKS = frozenset({"softbreak", "hardbreak"})


class _Tag(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.name = ""
        self.attrs: dict[str, str] = {}
        self.closing = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.name, self.attrs = tag, {k: v or "" for k, v in attrs}

    def handle_endtag(self, tag: str) -> None:
        self.name, self.closing = tag, True


def read_tag(content: str) -> _Tag:
    tag = _Tag()
    tag.feed(content)
    tag.close()
    return tag


class Blocks(Html):
    # -- paragraphs ----------------------------------------------------------------------

    def paragraph_units(self, node: SyntaxTreeNode) -> list[Unit]:
        line = self.line_of(node)
        inline = node.children[0] if node.children else None
        children = inline.children if inline is not None else []
        raw = inline.content if inline is not None else ""
        stripped = raw.strip()
        if include_only(raw.split("\n")):
            flat = " ".join(x.strip() for x in raw.split("\n"))
            self.drop(line, f"include or MDX import {excerpt(flat)!r}", raw)
            return []
        if stripped.startswith("{/*") and _MDX_COMMENT_RE.match(stripped):
            self.drop(line, f"MDX comment {excerpt(stripped)!r}", raw)
            return []
        if stripped.startswith("[[") and _DOC_BUILDER_LINE_RE.match(stripped):
            self.drop(line, f"doc-builder directive {excerpt(stripped)!r}", raw)
            return []
        handled, template = self.template_paragraph(children, line)
        if handled:
            return [template] if template is not None else []
        if _anchor_only(children):
            self.drop(line, f"anchor {excerpt(stripped)!r}", raw)
            return []
        cut = _picture_lines(children)
        if cut:
            units: list[Unit] = []
            for start, end in zip([0, *cut], [*cut, len(children)], strict=True):
                part = children[start:end]
                while part and part[0].type in _BREAKS:
                    part = part[1:]
                at = line + _breaks_before(children, start) if line is not None else None
                units += self.prose_units(part, at, raw) if part else []
            return units
        return self.prose_units(children, line, raw)

    def prose_units(
        self, children: Sequence[SyntaxTreeNode], line: int | None, raw: str
    ) -> list[Unit]:
        """A paragraph (or a run of its lines) as a figure candidate and its caption, or as
        one block of prose; none when it is markup only."""
        figure = self.figure_units(children, line)
        if figure is not None:
            return figure
        noted = len(self.notes)
        lines = self.paragraph_lines(children, line)
        text = "\n".join(lines)
        if not has_words(text) and len(self.notes) > noted:
            return []  # (what it held is reported already)
        if not has_words(text):
            self.drop(line, f"paragraph of markup only {excerpt(raw)!r}", raw)
            return []
        return [Chunk(text, line=line)]

    def paragraph_lines(self, children: Sequence[SyntaxTreeNode], line: int | None) -> list[str]:
        # Lines end where the original had hard breaks; each line is protected on its own.
        rendered = self.inline(children, line).strip()
        if not rendered:
            return []
        if rendered.startswith("\\[") and rendered.endswith("\\]"):
            rendered = rendered[:-2] + "&#93;"  # arithmatex reads \[…\] as display math
        return [protect_line_start(part) for part in rendered.split("\n")]

    def template_paragraph(
        self, children: Sequence[SyntaxTreeNode], line: int | None
    ) -> tuple[bool, Chunk | None]:
        """A paragraph that is only template tags (Liquid includes, Hugo shortcodes): (True,
        a figure candidate or None when dropped); (False, None) for any other paragraph."""
        source = self.plain(children)
        if "{" not in source or not source.strip() or TEMPLATE_RE.sub("", source).strip():
            return False, None
        pictures = []
        for tag in TEMPLATE_RE.findall(source):
            m = TEMPLATE_IMAGE_RE.search(tag)
            if m:
                alt = next(
                    (v for n in ("alt", "caption", "title") if (v := template_attribute(tag, n))),
                    "",
                )
                src = m.group(1) or m.group(2) or m.group(3) or ""
                pictures.append(self.picture(src, alt, "", line, inline=False))
            else:
                self.drop(line, f"template tag {excerpt(tag)!r}", tag)
        if pictures:
            return True, Chunk(" ".join(pictures), kind="figure", line=line)
        return True, None

    def figure_units(
        self, children: Sequence[SyntaxTreeNode], line: int | None
    ) -> list[Unit] | None:
        """A paragraph that opens with pictures (images, linked images, ``<img>`` tags and the
        tags that lay them out): a figure candidate, and when text follows them on a line of
        its own, that text as its caption. Else None (an icon before the words of a line is
        part of the paragraph)."""
        pictures: list[SyntaxTreeNode] = []
        broke = False
        at = len(children)
        for index, child in enumerate(children):
            if _is_picture(child):
                pictures.append(child)
            elif child.type in _BREAKS or (child.type == "html_inline" and _is_break(child)):
                broke = bool(pictures)
            elif (
                (child.type == "text" and not ial_re().sub("", child.content).strip())
                or (child.type == "html_inline" and _is_layout(child.content))
                or (child.type == "text" and pictures and self.attributes_only(child.content))
            ):
                continue
            else:
                at = index
                break
        rest = children[at:]
        if not pictures or (rest and not broke):
            return None
        for child in children[:at]:
            if child.type == "text" and child.content.strip():
                if attribute_block(child.content.strip()):
                    self.drop(line, f"image attributes {excerpt(child.content.strip())!r}")
                else:
                    self.text(child.content, line)  # reports the attribute lists it drops
        shown = [self.picture_of(p, line) for p in pictures]
        units: list[Unit] = [Chunk(" ".join(s for s, _alt in shown), kind="figure", line=line)]
        caption = self.paragraph_lines(rest, line) if rest else []
        if caption and has_words("\n".join(caption)):
            units.append(Chunk("\n".join(caption), line=line))
        elif not rest and len(shown) == 1 and shown[0][1].strip() and self.dialects.pandoc:
            # Pandoc's implicit figures: a lone image's alt text is its caption
            units.append(Chunk(protect_line_start(self.text(shown[0][1], line)), line=line))
        return units

    def attributes_only(self, text: str) -> bool:
        """Whether ``text`` after a picture is only its Pandoc attributes (``{width=40%}``)."""
        if not (self.dialects.pandoc or MYST in self.dialects):
            return False
        end = attribute_block(text)
        return bool(end) and not text[end:].strip()

    def picture_of(self, child: SyntaxTreeNode, line: int | None) -> tuple[str, str]:
        """(Markdown of a picture, its alt text); ``child`` is one (:func:`_is_picture`)."""
        image = child
        if child.type == "link" and [c.type for c in child.children] == ["image"]:
            image = child.children[0]
        if image.type == "image":
            return self.image(image, line, inline=False), self.plain(image.children)
        if child.type == "html_inline" and child.content.lower().startswith("<img"):
            tag = read_tag(child.content)
            alt = tag.attrs.get("alt", "")
            title = tag.attrs.get("title", "")
            return self.picture(tag.attrs.get("src", ""), alt, title, line, inline=False), alt
        raise ValueError(child.type)

    # -- lists, quotes, tables -----------------------------------------------------------

    def blocks(self, nodes: Sequence[SyntaxTreeNode], *, tight: bool = False) -> list[str]:
        """Nested content (list items, blockquotes, footnotes) as Markdown lines."""
        out: list[str] = []
        for node in nodes:
            lines = self.block(node)
            if not lines:
                continue
            # A tight list item keeps its nested list on the next line (a blank line would
            # make Python-Markdown wrap the item in <p>); anything else is set apart.
            if out and not (tight and node.type in ("paragraph", "bullet_list", "ordered_list")):
                out.append("")
            out.extend(lines)
        return out

    def block(self, node: SyntaxTreeNode) -> list[str]:
        kind = node.type
        if kind in ("bullet_list", "ordered_list"):
            return self.list_lines(node)
        if kind == "blockquote":
            return [f"> {x}".rstrip() for x in self.blocks(node.children)]
        if kind == "table":
            return self.table_lines(node)
        return flatten(self.units(node))

    def list_lines(self, node: SyntaxTreeNode) -> list[str]:
        ordered = node.type == "ordered_list"
        start = int(str(node.attrs.get("start", 1))) if ordered else 1
        items = node.children
        tight = all(
            child.hidden for item in items for child in item.children if child.type == "paragraph"
        )
        out: list[str] = []
        for i, item in enumerate(items):
            marker = f"{start + i}. " if ordered else "- "
            body = self.blocks(item.children, tight=tight) or [""]
            if out and not tight:
                out.append("")
            out.append((marker + body[0]).rstrip())
            out.extend(("    " + x) if x else "" for x in body[1:])
        return out

    def list_units(self, node: SyntaxTreeNode) -> list[Unit]:
        line = self.line_of(node)
        if self.is_toc(node):
            self.drop(line, "kramdown table-of-contents marker list", self.plain(node.children))
            return []
        lines = self.list_lines(node)
        if not has_words("\n".join(lines)):
            return []
        return [Chunk("\n".join(lines), line=line)]

    def table_lines(self, node: SyntaxTreeNode) -> list[str]:
        rows: list[list[str]] = []
        aligns: list[str] = []
        self.in_table = True
        try:
            for section in node.children:
                for tr in section.children:
                    cells = []
                    for cell in tr.children:
                        line = self.line_of(tr)
                        inner = cell.children[0].children if cell.children else []
                        cells.append(self.inline(inner, line).strip() or " ")
                        if section.type == "thead":
                            style = str(cell.attrs.get("style", ""))
                            aligns.append(style.rsplit(":", 1)[-1] if style else "")
                    rows.append(cells)
        finally:
            self.in_table = False
        if not rows:
            return []
        width = max(len(r) for r in rows)
        rule = {"left": ":---", "right": "---:", "center": ":---:"}
        sep = [rule.get(a, "---") for a in aligns] + ["---"] * (width - len(aligns))
        lines = ["| " + " | ".join(r + [" "] * (width - len(r))) + " |" for r in rows]
        return [lines[0], "| " + " | ".join(sep) + " |", *lines[1:]]

    def is_toc(self, node: SyntaxTreeNode) -> bool:
        if len(node.children) != 1:
            return False
        text = self.plain(node.children[0].children)
        return bool(ial_re().search(text)) and (
            ial_re().sub("", text).strip().lower() in _TOC_WORDS
        )

    # -- definition and field lists (MyST, Pandoc) ---------------------------------------

    def definition_units(self, node: SyntaxTreeNode) -> list[Unit]:
        """``Term`` / ``: definition`` (and MyST's ``:field: body``): one numbered paragraph
        per term, the term in bold, its definitions after it."""
        units: list[Unit] = []
        term: list[str] = []
        line = self.line_of(node)
        for child in node.children:
            if child.type in ("dt", "fieldlist_name"):
                if term:
                    units.append(Chunk("\n".join(term), line=line))
                line = self.line_of(child) or line
                inline = child.children[0].children if child.children else []
                name = self.inline(inline, line).strip()
                term = [f"**{name}**"] if name else []
            elif child.type in ("dd", "fieldlist_body"):
                body = self.blocks(child.children)
                if term and body:
                    term[-1] += "<br>"
                term += body
        if term:
            units.append(Chunk("\n".join(term), line=line))
        return [u for u in units if isinstance(u, Chunk) and has_words(u.text)]


def _is_picture(child: SyntaxTreeNode, kind: str | None = None) -> bool:
    """Whether ``child`` (of type ``kind``, when the caller has it) is an image alone."""
    kind = child.type if kind is None else kind
    if kind == "image":
        return True
    if kind == "link" and [c.type for c in child.children] == ["image"]:
        return True
    if kind == "html_inline" and child.content.lower().startswith("<img"):
        return bool(read_tag(child.content).attrs.get("src"))
    return False


def _picture_lines(children: Sequence[SyntaxTreeNode]) -> list[int]:
    """Where the lines of a paragraph that are a picture alone start, when a line of words
    comes before one (Docusaurus and GitHub pages put an equation's image and its caption on
    the lines under the sentence that introduces it, with no blank line): each such picture
    opens a figure candidate of its own, the lines under it its caption."""
    cuts: list[int] = []
    words = False  # whether the run of lines before has words
    # (each node's type read once: the property costs more than the rest of the loop)
    types = [child.type for child in children]
    for i, child in enumerate(children):
        if types[i] in _BREAKS:
            continue
        picture = _is_picture(child, types[i])
        alone = i + 1 == len(children) or types[i + 1] in _BREAKS  # on a line of its own
        if picture and words and i > 0 and types[i - 1] in _BREAKS and alone:
            cuts.append(i)
            words = False
            continue
        if not picture:
            words = True
    return cuts


def _breaks_before(children: Sequence[SyntaxTreeNode], end: int) -> int:
    return sum(1 for c in children[:end] if c.type in _BREAKS)


def _anchor_only(children: Sequence[SyntaxTreeNode]) -> bool:
    """A paragraph that is only empty links and attribute lists (``[](){#old-anchor}``, the
    anchor that MkDocs sites keep for an old link): no prose."""
    empty_link = False
    for child in children:
        if child.type == "link" and not child.children:
            empty_link = True
        elif child.type == "text":
            text = child.content.strip()
            while text and (end := attribute_block(text)):
                text = text[end:].strip()
            if text:
                return False
        elif child.type not in _BREAKS:
            return False
    return empty_link


def _is_break(node: SyntaxTreeNode) -> bool:
    tag = node.content.strip().lower().replace(" ", "")
    return tag in ("<br>", "<br/>", "</br>")


def _is_layout(content: str) -> bool:
    """An inline tag that only lays out pictures (``<a href>``, ``<p align>``, ``</div>``)."""
    if content.startswith("<!--"):
        return True
    tag = read_tag(content)
    return tag.name in _LAYOUT_TAGS and tag.name != "img"
