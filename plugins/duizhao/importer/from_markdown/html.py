"""Raw HTML of an original: kept as formatting through the one sanitiser
(:func:`duizhao.sanitize.sanitize_html`, nh3), never shown as code, never live beyond its
allow-list.

- Inline HTML in a paragraph (``<small>``, ``<sup>``, ``<img>``, ``<a href>``) is gathered
  with the paragraph's own Markdown into one fragment and sanitised whole, so an element
  keeps its content and a tag left open is closed.
- An HTML block is read into units: its paragraphs (``<p>``, ``<div>``, ``<li>`` …) become
  numbered paragraphs of sanitised inline HTML, its headings headings, pictures figure
  candidates and their ``<figcaption>`` (or the text after them) captions, ``<pre>`` code,
  tables sanitised tables; wrappers with nothing inside go.
- MDX/JSX components (``<Tip>``, ``<Tabs>``, ``<hfoption id=…>``) lose their tags and their
  content is read as Markdown; ``<div markdown="1">`` likewise.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html.parser import HTMLParser

from markdown_it.tree import SyntaxTreeNode

from ...escape import html_text, markdown_code_span, markdown_fence, protect_line_start
from ...sanitize import MAX_HTML_DEPTH, limit_html_depth, sanitize_html
from ..model import Chunk
from .dialects import HF_DOC_BUILDER, MDX
from .inline import Inline
from .state import MAX_DEPTH, HeadingUnit, Unit
from .templates import TEMPLATE_RE
from .text import excerpt, has_words

#: Tags that end a paragraph of an HTML block (and start the next).
_BLOCK_TAGS = frozenset(
    {"p", "div", "section", "article", "aside", "header", "footer", "center", "main", "nav"}
    | {"blockquote", "figure", "figcaption", "details", "summary", "dl", "dt", "dd", "ul", "ol"}
    | {"li", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "table", "pre", "address", "form"}
    | {"picture", "caption", "fieldset", "legend", "hgroup", "body", "html", "head"}
)
#: Block tags that wrap others: a heading inside one is a box's title.
_WRAPPERS = frozenset(
    {"div", "section", "article", "aside", "header", "footer", "center", "main", "nav"}
    | {"blockquote", "figure", "details", "dd", "li", "table", "form", "fieldset"}
)
_HEADING_TAGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
#: Elements dropped with everything inside them: code that runs, media a reader cannot be
#: given here, drawings whose text is labels.
_SKIPPED = frozenset(
    {"script", "style", "template", "noscript", "iframe", "object", "embed", "video", "audio"}
    | {"canvas", "svg", "math", "select", "textarea", "button", "input", "head", "title"}
)
_VOID = frozenset({"img", "br", "hr", "wbr", "input", "source", "meta", "link", "col", "area"})
#: An MDX/JSX component (``<Tip>``, ``<TabItem …>``, ``</Tabs>``, ``<Youtube … />``) and the
#: lowercase ones of Hugging Face's doc-builder, at the start or end of a line.
_COMPONENT = (
    r"</?(?:[A-Z][\w.]{0,60}|hfoptions|hfoption|frameworkcontent|pt|tf|jax)"
    r"(?:\s[^<>\n]{0,2000})?/?>"
)
_INLINE_COMPONENT_RE = re.compile(r"^</?[A-Z]")
_COMPONENT_HEAD_RE = re.compile(r"^\s{0,16}" + _COMPONENT)
_COMPONENT_TAIL_RE = re.compile(_COMPONENT + r"\s{0,16}$")
#: The label a tab shows: ``<TabItem label="…">``, ``<Tab title="…">``, doc-builder's
#: ``<hfoption id="…">`` (its ``<hfoptions id="…">`` names the group, which shows nothing).
_COMPONENT_TITLE_RE = re.compile(
    r"^<(?:[A-Z][\w.]{0,60}\s[^<>\n]{0,2000}?\b(?:label|title)|hfoption\s[^<>\n]{0,2000}?\bid)"
    r"\s{0,8}=\s{0,8}(?:\"([^\"\n]{1,300})\"|'([^'\n]{1,300})')"
)
_MARKDOWN_IN_HTML_RE = re.compile(
    r"^\s{0,16}<([A-Za-z][A-Za-z0-9]{0,30})\b[^>\n]{0,2000}\smarkdown\s{0,8}=\s{0,8}[\"']?"
    r"(?:1|block|span)[\"']?[^>\n]{0,2000}>"
)
_CODE_CLASS_RE = re.compile(r"\b(?:language|lang)-([\w+#.-]{1,40})")
_LICENCE_RE = re.compile(r"\b(?:Copyright|Licen[cs]ed under|SPDX-License-Identifier)\b")


class Html(Inline):
    # -- inline HTML in a paragraph -------------------------------------------------------

    def inline_html(self, nodes: Sequence[SyntaxTreeNode], line: int | None) -> str:
        """A run of inline content holding raw HTML: its tags and its Markdown (escaped, as
        placeholders) sanitised as one fragment."""
        pieces: list[str] = []
        keep: list[str] = []
        source: list[str] = []  # the original's text of it, for the report
        run: list[SyntaxTreeNode] = []

        def flush() -> None:
            if run:
                keep.append(self.inline_markdown(run, line))
                pieces.append(f"\x02{len(keep) - 1}\x03")
                source.append(self.plain(run))
                run.clear()

        components = MDX in self.dialects or HF_DOC_BUILDER in self.dialects
        for node in nodes:
            if node.type != "html_inline" or node.content.startswith("<!--"):
                run.append(node)
                continue
            flush()
            if components and _INLINE_COMPONENT_RE.match(node.content):
                # a JSX component (<Abbr>, <Link to=…>): not the HTML element of its name
                self.drop(line, f"MDX component tag {excerpt(node.content)!r}", node.content)
                continue
            tag = node.content.replace("\x02", "").replace("\x03", "")
            if self.in_table and tag.strip().lower().startswith("<br"):
                tag = " "
            pieces.append(tag)
            source.append(node.content)
        flush()
        return self.sanitized("".join(pieces), keep, line, inline=True, source="".join(source))

    def sanitized(
        self,
        fragment: str,
        keep: Sequence[str],
        line: int | None,
        *,
        inline: bool,
        source: str = "",
    ) -> str:
        """``fragment`` through the sanitiser; what it drops is reported with ``source``
        (the original's text of it, whose placeholders ``keep`` holds escaped)."""

        def url(value: str, tag: str) -> str | None:
            return self.resolve(value, line, f"<{tag}>")

        result = sanitize_html(fragment, inline=inline, url=url, keep=keep)
        if result.dropped:
            kept = "" if any("with its content" in d for d in result.dropped) else " (text kept)"
            self.drop(line, f"HTML {', '.join(result.dropped)}{kept}", source or fragment)
        return result.html

    # -- HTML blocks ---------------------------------------------------------------------

    def html_units(self, node: SyntaxTreeNode) -> list[Unit]:
        line = self.line_of(node)
        content = node.content.strip("\n")
        if content.lstrip().startswith("<!--"):
            return self.html_comment(content, line)
        if _MARKDOWN_IN_HTML_RE.match(content):
            return self.markdown_in_html(content, line)
        if _COMPONENT_HEAD_RE.match(content) or _COMPONENT_TAIL_RE.search(content):
            return self.component(content, line)
        content, deep = limit_html_depth(content)  # the reader's stacks stay short
        if deep:
            self.drop(
                line,
                f"HTML {deep:,} tags nested more than {MAX_HTML_DEPTH} levels deep (text kept)",
            )
        reader = _BlockReader(self, line)
        try:
            reader.feed(content)
            reader.close()
        except AssertionError:  # html.parser on a malformed declaration
            self.warn(line, f"HTML block {excerpt(content)!r} could not be read; kept as code")
            return [Chunk("\n".join(markdown_fence(content, "html")), kind="verbatim", line=line)]
        for what in reader.skipped:
            self.drop(line, f"HTML {what}", content)
        if not reader.units:
            if not reader.skipped:
                self.drop(line, f"HTML without text {excerpt(content)!r}", content)
            return []
        return reader.units

    def html_comment(self, content: str, line: int | None) -> list[Unit]:
        tail = content.rsplit("-->", 1)[-1].strip() if "-->" in content else ""
        end = line + content.count("\n") if line else None
        span = f" (lines {line}–{end})" if end and end != line else ""
        what = "licence header" if line == 1 and _LICENCE_RE.search(content) else "HTML comment"
        self.drop(line, f"{what}{span} {excerpt(content)!r}", content)
        if not tail:
            return []
        self.drop(line, f"HTML after a comment {excerpt(tail)!r}", tail)
        return []

    def markdown_in_html(self, content: str, line: int | None) -> list[Unit]:
        """``<div markdown="1">`` (kramdown, md_in_html): the tags go, the content is Markdown."""
        opening = _MARKDOWN_IN_HTML_RE.match(content)
        assert opening is not None
        self.drop(line, f"HTML wrapper tag {excerpt(opening.group(0))!r}")
        inner = content[opening.end() :]
        closing = inner.rstrip().endswith(f"</{opening.group(1)}>")
        if closing:
            self.drop(line, f"HTML wrapper tag '</{opening.group(1)}>'")
            inner = inner.rstrip()[: -len(opening.group(1)) - 3]
        offset = (line or 1) - 1 + content[: opening.end()].count("\n")
        return self.markdown_units(inner, offset, line)

    def component(self, content: str, line: int | None) -> list[Unit]:
        """MDX/JSX components around Markdown: their tags go (reported), a tab's or option's
        label stays as its title, the content is read as Markdown in place."""
        lines = content.split("\n")
        units: list[Unit] = []
        tags: list[str] = []
        for i, text in enumerate(lines):
            while head := _COMPONENT_HEAD_RE.match(text):
                tags.append(head.group(0).strip())
                text = text[head.end() :]
            while tail := _COMPONENT_TAIL_RE.search(text):
                tags.append(tail.group(0).strip())
                text = text[: tail.start()]
            lines[i] = text
        for tag in tags:
            title = _COMPONENT_TITLE_RE.match(tag) if not tag.startswith("</") else None
            if title and not tag.endswith("/>"):
                units += self.label(title.group(1) or title.group(2) or "", line)
        self.drop(line, f"MDX component tags {excerpt(' '.join(tags))!r}", content)
        rest = "\n".join(lines)
        if rest.strip():
            units += self.markdown_units(rest, (line or 1) - 1, line)
        return units

    def html_data(self, data: str, line: int | None) -> str:
        """The text of an HTML block as Markdown: Pandoc (Quarto, R Markdown) reads Markdown
        between HTML block tags (its ``markdown_in_html_blocks``), so ``<p>… *Title* …</p>``
        shows *Title* in italics; elsewhere (CommonMark) it is text as written."""
        stripped = data.strip()
        if self.dialects.pandoc and stripped and any(c in stripped for c in "*_`"):
            tree = self.parse_again(stripped)
            first = tree.children[0] if len(tree.children) == 1 else None
            if first is not None and first.type == "paragraph" and first.children:
                shown = self.inline_markdown(first.children[0].children, line)
                lead = " " if data[:1].isspace() else ""
                return lead + shown + (" " if data[-1:].isspace() else "")
        return self.text(data, line)

    def label(self, text: str, line: int | None) -> list[Unit]:
        """A tab's or option's label: in bold between the blocks, not numbered."""
        text = " ".join(text.split())
        tree = self.parse_again(text)  # (a label is inline Markdown: `code`, icons, emphasis)
        first = tree.children[0] if len(tree.children) == 1 else None
        if first is not None and first.type == "paragraph" and first.children:
            shown = self.inline(first.children[0].children, line).strip()
        else:
            shown = self.text(text, line)
        return [Chunk(f"**{shown}**", kind="label", line=line)] if shown.strip() else []

    def markdown_units(self, text: str, offset: int, line: int | None) -> list[Unit]:
        """Content parsed again as Markdown, ``offset`` lines into the original."""
        if self.depth >= MAX_DEPTH:
            self.warn(line, f"content nested over {MAX_DEPTH} levels deep; kept as code")
            return [Chunk("\n".join(markdown_fence(text)), kind="verbatim", line=line)]
        tree = self.parse_again(text)
        units: list[Unit] = []
        with self.nested(offset, text):
            for child in tree.children:
                units += self.units(child)
        return units


class _BlockReader(HTMLParser):
    """An HTML block as units (see the module docstring). Inline tags are kept as written
    for the sanitiser, text goes through the converter's escaping as placeholders."""

    def __init__(self, conv: Html, line: int | None) -> None:
        super().__init__(convert_charrefs=True)
        self.conv = conv
        self.line = line
        self.units: list[Unit] = []
        #: what was dropped with its content ("<script> with its content")
        self.skipped: list[str] = []
        self.pieces: list[str] = []
        self.keep: list[str] = []
        self.words = False
        #: pictures met before the paragraph's first word (a figure, if no word follows)
        self.leading: list[dict[str, str]] = []
        self.heading = 0
        self.caption = False
        self.item_prefix = ""
        self.items: list[str] | None = None
        self.code: list[str] | None = None
        self.pre: list[str] | None = None
        self.pre_language = ""
        self.table: list[str] | None = None
        self.table_depth = 0
        self.skip: list[str] = []
        self.ordered = False
        #: open wrappers (div, section, aside …) around what is read
        self.wrappers: list[str] = []
        #: the paragraph's text as written (a heading's plain title)
        self.plain: list[str] = []

    # -- paragraphs ------------------------------------------------------------------------

    def flush(self) -> None:
        pieces, keep, leading, plain = self.pieces, self.keep, self.leading, self.plain
        self.pieces, self.keep, self.leading, self.plain = [], [], [], []
        words, self.words = self.words, False
        if leading and not words:
            self.figure(leading)
            return
        if not words:
            return
        if leading:  # pictures, then the text under them: a figure and its caption
            self.figure(leading)
            pieces = [p for p in pieces if not p.lower().startswith("<img")]
        markdown = " ".join(
            self.conv.sanitized(
                "".join(pieces), keep, self.line, inline=True, source=" ".join(plain)
            ).split()
        )
        while markdown.startswith("<br>"):  # (the break between a picture and its caption)
            markdown = markdown[4:].lstrip()

        if not has_words(markdown):
            return
        if self.heading and not self.wrappers:
            title = " ".join(TEMPLATE_RE.sub("", "".join(plain)).split())
            self.units.append(HeadingUnit(self.heading, markdown, title, self.line))
        elif self.heading:  # a box's title (<div class="note"><h5>…): bold, not a section
            self.units.append(Chunk(f"**{markdown}**", line=self.line))
        elif self.items is not None:
            self.items.append(self.item_prefix + markdown)
        else:
            self.units.append(Chunk(protect_line_start(markdown), line=self.line))

    def figure(self, pictures: list[dict[str, str]]) -> None:
        shown = [
            self.conv.picture(
                p["src"], p.get("alt", ""), p.get("title", ""), self.line, inline=False
            )
            for p in pictures
        ]
        self.units.append(Chunk(" ".join(shown), kind="figure", line=self.line))

    def text_piece(self, markdown: str) -> None:
        self.keep.append(markdown)
        self.pieces.append(f"\x02{len(self.keep) - 1}\x03")

    # -- the parser's events ---------------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if self.skip:
            # (bounded: elements whose end tag may be left out, <p>, <li>, are not limited by
            # limit_html_depth, and each end tag looks through this stack)
            if tag not in _VOID and len(self.skip) < MAX_HTML_DEPTH:
                self.skip.append(tag)
            return
        if self.table is not None:
            self.table.append(self.get_starttag_text() or "")
            self.table_depth += tag == "table"
            return
        if self.pre is not None:
            if tag == "code" and not self.pre_language:
                m = _CODE_CLASS_RE.search(values.get("class", ""))
                self.pre_language = m.group(1) if m else ""
            return
        if tag in _SKIPPED:
            self.skipped.append(f"<{tag}> with its content" + _source_of(values))
            if tag not in _VOID:
                self.skip.append(tag)
            return
        if tag in _BLOCK_TAGS:
            self.skipped += _active_attributes(tag, values)
            self.block_start(tag, values)
            return
        if self.code is not None:
            return
        if tag == "code":
            self.code = []
            return
        if tag == "img":
            if not values.get("src"):
                return
            if not self.words:
                self.leading.append(values)
        self.pieces.append((self.get_starttag_text() or "").replace("\x02", "").replace("\x03", ""))

    def block_start(self, tag: str, values: dict[str, str]) -> None:
        self.flush()
        if tag == "table":
            self.table, self.table_depth = [self.get_starttag_text() or "<table>"], 1
        elif tag == "pre":
            self.pre = []
            classes = values.get("class", "")
            m = _CODE_CLASS_RE.search(classes)
            self.pre_language = m.group(1) if m else ""
        elif tag in _HEADING_TAGS:
            self.heading = _HEADING_TAGS[tag]
        elif tag == "figcaption":
            self.caption = True
        elif tag in ("ul", "ol") and self.items is None:
            self.items = []
            self.ordered = tag == "ol"
        elif tag == "li":
            self.item_prefix = (
                f"{len(self.items) + 1}. " if self.items is not None and self.ordered else "- "
            )
        elif tag in _WRAPPERS and len(self.wrappers) < MAX_HTML_DEPTH:
            self.wrappers.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if self.skip:
            if tag in self.skip:
                del self.skip[len(self.skip) - 1 - self.skip[::-1].index(tag) :]
            return
        if self.table is not None:
            self.table.append(f"</{tag}>")
            self.table_depth -= tag == "table"
            if self.table_depth <= 0:
                self.end_table()
            return
        if self.pre is not None:
            if tag == "pre":
                code = "".join(self.pre).strip("\n")
                self.pre = None
                self.units.append(
                    Chunk(
                        "\n".join(markdown_fence(code, self.pre_language)),
                        kind="verbatim",
                        line=self.line,
                    )
                )
            return
        if self.code is not None:
            if tag == "code":
                self.text_piece(markdown_code_span("".join(self.code)))
                self.words = self.words or bool("".join(self.code).strip())
                self.code = None
            return
        if tag in _BLOCK_TAGS:
            self.flush()
            if tag in _HEADING_TAGS:
                self.heading = 0
            elif tag == "figcaption":
                self.caption = False
            elif tag in ("ul", "ol") and self.items is not None:
                items, self.items = self.items, None
                if items:
                    self.units.append(Chunk("\n".join(items), line=self.line))
            elif tag in self.wrappers:
                del self.wrappers[len(self.wrappers) - 1 - self.wrappers[::-1].index(tag) :]
            return
        self.pieces.append(f"</{tag}>")

    def end_table(self) -> None:
        fragment, self.table = "".join(self.table or []), None
        table = self.conv.sanitized(fragment, [], self.line, inline=False)
        if has_words(table):
            self.units.append(Chunk(table, line=self.line))

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        if self.table is not None:
            self.table.append(str(html_text(data.replace("\x02", "").replace("\x03", ""))))
            return
        if self.pre is not None:
            self.pre.append(data)
            return
        if self.code is not None:
            self.code.append(data)
            return
        if data.strip():
            self.words = True
        self.plain.append(data)
        self.text_piece(self.conv.html_data(data, self.line))

    def close(self) -> None:
        super().close()
        if self.table is not None:
            self.end_table()
        if self.pre is not None:
            self.handle_endtag("pre")
        self.flush()
        if self.items:
            self.units.append(Chunk("\n".join(self.items), line=self.line))
            self.items = None


def _active_attributes(tag: str, values: dict[str, str]) -> list[str]:
    """What of a block tag's attributes would have run (its tag is never written, so the
    sanitiser does not see them): for the report."""
    found = [f"{name} attribute of <{tag}>" for name in values if name.startswith("on")]
    for name in ("href", "src", "action", "formaction"):
        scheme = values.get(name, "").split(":", 1)[0].strip().lower()
        if ":" in values.get(name, "") and scheme in ("javascript", "data", "vbscript"):
            found.append(f"{scheme}: URL in <{tag} {name}>")
    return found


def _source_of(values: dict[str, str]) -> str:
    src = values.get("src") or values.get("data") or ""
    return f" ({excerpt(src, 80)})" if src else ""
