"""markdown-it tokens of an original → units, dispatched by token type; headings settled
(the single leading h1 is the title) and footnotes gathered at the end."""

from __future__ import annotations

import functools
import re
from typing import Any

from markdown.extensions.toc import slugify
from markdown_it.tree import SyntaxTreeNode

from ...escape import markdown_fence
from ..model import Chunk
from .containers import Containers
from .dialects import Dialects
from .front import read_yaml
from .links import Unlinked
from .parsing import AS_TEXT, BLOCKS, MAX_INLINE_MARKUP, make_parser
from .state import HeadingUnit, PlacedHeading, Unit
from .text import excerpt, has_words

_HEADING_ATTRS_RE = re.compile(r"\s{0,16}\{\s{0,8}[#.:][^{}]{0,500}\}\s*$")
_HEADING_ID_RE = re.compile(r"\{#([\w:.-]{1,200})[^}]{0,500}\}\s*$")
#: The first line of a footnote definition, ``[^label]: …``.
FOOTNOTE_DEFINITION_RE = re.compile(r"^ {0,3}\[\^([^\]\n]{1,200})\]:")
_CODE = frozenset({"code_block", "math_block", "math_block_label", "amsmath"})


class Converter(Containers):
    def __init__(
        self,
        source: str,
        base_url: str | None,
        prefix: str,
        dialects: Dialects,
        *,
        autolink: bool = True,
    ) -> None:
        super().__init__(source, base_url, prefix, dialects)
        self.unlinked = Unlinked()
        self.anchor_titles: dict[str, str] = {}
        self.parser = make_parser(dialects, autolink=autolink)

    def parse_tree(self, content: str, env: dict[str, Any]) -> SyntaxTreeNode:
        tree = SyntaxTreeNode(self.parser.parse(content, env))
        for line, positions in env.pop(AS_TEXT, ()):
            self.warn(
                None if line is None else line + 1 + self.line_offset,
                f"a paragraph with {positions:,} markup characters (more than "
                f"{MAX_INLINE_MARKUP:,}) is no prose: read as text, its emphasis, links and "
                "code shown as written",
            )
        return tree

    def parse_again(self, content: str) -> SyntaxTreeNode:
        return self.parse_tree(content, {})

    # -- the top level -------------------------------------------------------------------

    def emit(self, units: list[Unit]) -> None:
        for unit in units:
            if isinstance(unit, HeadingUnit):
                index = len(self.chunks)
                self.headings.append(
                    PlacedHeading(index, unit.level, unit.markdown, unit.plain, unit.line)
                )
                self.chunks.append(None)
            else:
                self.chunks.append(unit)

    def units(self, node: SyntaxTreeNode) -> list[Unit]:
        line = self.line_of(node)
        kind = node.type
        if kind == "front_matter":
            self.front.update(read_yaml(node.content, line, self.warn))
            return []
        if kind == "heading":
            return self.heading_units(node, line)
        if kind == "paragraph":
            return self.paragraph_units(node)
        if kind in ("bullet_list", "ordered_list"):
            return self.list_units(node)
        if kind in ("blockquote", "table"):
            lines = self.block(node)
            return [Chunk("\n".join(lines), line=line)] if lines else []
        if kind == "fence":
            return self.fence_units(node)
        if kind in _CODE:
            lines = self.block_code(node, line)
            return [Chunk("\n".join(lines), kind="verbatim", line=line)]
        if kind == "html_block":
            return self.html_units(node)
        if kind == "colon_fence":
            return self.colon_fence_units(node)
        if kind == "admonition":
            return self.admonition_units(node)
        if kind == BLOCKS:
            return self.blocks_units(node)
        if kind == "alert":
            return self.alert_units(node)
        if kind in ("dl", "field_list"):
            return self.definition_units(node)
        if kind == "myst_target":
            self.drop(line, f"MyST target ({node.content})=")
            return []
        if kind == "myst_line_comment":
            self.drop(line, f"MyST comment {excerpt(node.content)!r}", node.content)
            return []
        if kind == "footnote_block":
            return [self.footnote(footnote) for footnote in node.children]
        if kind in ("hr", "myst_block_break"):
            return []
        out: list[Unit] = []
        for child in node.children:
            out += self.units(child)
        return out

    def block_code(self, node: SyntaxTreeNode, line: int | None) -> list[str]:
        if node.type == "code_block":
            return markdown_fence(node.content)
        return self.math("$$", node.content, line, block=True).split("\n")

    def heading_units(self, node: SyntaxTreeNode, line: int | None) -> list[Unit]:
        inline = node.children[0].children if node.children else []
        last = inline[-1] if inline else None
        if last is not None and last.type == "text" and last.token is not None:
            cut = _HEADING_ATTRS_RE.search(last.token.content)
            if cut:
                self.drop(line, f"heading attributes {cut.group(0).strip()!r}")
                last.token.content = last.token.content[: cut.start()]
        markdown = self.inline(inline, line).strip()
        plain = self.plain(inline).strip()
        if markdown.endswith("#"):
            markdown = markdown[:-1] + "\\#"  # not a closing sequence
        if not has_words(markdown):
            source = node.children[0].content.strip() if node.children else ""
            if source:  # (a heading of markup only, '# <strong>': it goes, reported)
                self.drop(line, f"heading of markup only {excerpt(source)!r}", source)
            return []
        return [HeadingUnit(int(node.tag[1:]), markdown, plain, line)]

    # -- footnotes -----------------------------------------------------------------------

    @functools.cached_property
    def definitions(self) -> dict[str, list[int]]:
        """The (0-based) source lines where each footnote label is defined, found in one pass
        (a search of the whole source per footnote was quadratic in their number)."""
        found: dict[str, list[int]] = {}
        for i, text in enumerate(self.source_lines):
            if "[^" in text and (m := FOOTNOTE_DEFINITION_RE.match(text)):
                found.setdefault(m.group(1), []).append(i)
        return found

    def footnote(self, node: SyntaxTreeNode) -> Chunk:
        label = self.footnote_label(node.meta)
        raw = node.meta.get("label")
        starts = self.definitions.get(str(raw), []) if raw else []
        line = starts[0] + 1 if starts else None
        body = self.blocks(node.children)
        first = body[0] if body else ""
        rest = [("    " + x) if x else "" for x in body[1:]]
        return Chunk(
            "\n".join([f"[^{label}]: {first}".rstrip(), *rest]), kind="footnote", line=line
        )

    def unreferenced_footnotes(self, env: dict[str, Any]) -> None:
        """markdown-it leaves out footnote definitions that nothing refers to, and all but the
        last definition of a label: report them (found by their first line in the source)."""
        refs = env.get("footnotes", {}).get("refs", {})
        lines = self.source_lines
        for key, number in refs.items():
            label = str(key)[1:]
            starts = self.definitions.get(label, [])
            extra = starts if number < 0 else starts[:-1]  # the last definition wins
            for start in extra:
                end = start + 1
                while end < len(lines) and lines[end].strip():
                    if FOOTNOTE_DEFINITION_RE.match(lines[end]):
                        break
                    end += 1
                while end < len(lines) and (
                    not lines[end].strip() or lines[end].startswith("    ")
                ):
                    end += 1  # indented continuation paragraphs
                text = "\n".join(lines[start:end]).strip()
                why = "is never referenced" if number < 0 else "is defined again later"
                self.drop(start + 1, f"footnote [^{label}] {why} {excerpt(text)!r}", text)

    # -- headings ------------------------------------------------------------------------

    def collect_slugs(self, tree: SyntaxTreeNode) -> None:
        """Anchors of the original → the ids its headings get in the article (Python-Markdown's
        default slugify; a kramdown/Pandoc ``{#id}`` or a MyST ``(label)=`` target names the
        same heading)."""
        targets: list[str] = []
        for node in tree.walk():
            kind = node.type  # (read once: a property that costs more than this loop)
            if kind == "myst_target":
                targets.append(node.content.strip())
                continue
            if kind != "heading" or not node.children:
                if kind not in ("root", "html_block") and node.map:
                    targets = []
                continue
            text = "".join(
                c.content
                for c in node.children[0].walk()
                if c.type in ("text", "code_inline", "myst_role")
            )
            title = _HEADING_ATTRS_RE.sub("", text)
            slug = slugify(title, "-")
            self.slugs.setdefault(slug, slug)
            m = _HEADING_ID_RE.search(text)
            for label in [*targets, *([m.group(1)] if m else [])]:
                self.slugs.setdefault(label, slug)
                self.anchor_titles.setdefault(label, " ".join(title.split()))
            targets = []

    def place_headings(self, title: str | None) -> None:
        """The single leading h1 becomes the title; the rest shift so the highest is ``##``."""
        headings = self.headings
        h1 = [h for h in headings if h.level == 1]
        if len(h1) == 1 and headings[0] is h1[0]:
            first = h1[0]
            headings = headings[1:]
            if title is None:
                self.title_from_h1 = first.plain
            elif first.plain.casefold() != title.casefold():
                self.warn(
                    first.line,
                    f"h1 {first.plain!r} differs from the front matter title "
                    f"{title!r}; the title is kept, the h1 dropped",
                )
        if not headings:
            return
        shift = 2 - min(h.level for h in headings)
        for h in headings:
            level = min(6, h.level + shift)
            self.chunks[h.index] = Chunk(h.markdown, level, kind="heading", line=h.line)
