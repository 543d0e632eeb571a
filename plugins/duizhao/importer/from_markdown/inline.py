"""Inline content of an original → escaped Markdown: text, emphasis, code, links, math,
footnote references, MyST roles and doc-builder references. Raw HTML goes through
:mod:`.html` (the sanitiser)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from markdown_it.tree import SyntaxTreeNode

from ...escape import (
    html_text,
    markdown_code_span,
    markdown_literal,
    markdown_text,
    protect_line_start,
)
from . import myst
from .dialects import HF_DOC_BUILDER, MYST
from .links import Links
from .parsing import AS_TEXT
from .templates import LIQUID_OUTPUT_RE, TEMPLATE_RE, shortcode_words
from .text import excerpt

_IAL_RE = re.compile(
    r"\{:(?:[^{}\n]|\{[^{}\n]{0,500}\}){0,500}\}|\{::[^{}\n]{0,500}\}|\{:/[^{}\n]{0,500}\}"
)
_UNRESOLVED_REF_RE = re.compile(r"\[([^\[\]\n]{1,500})\]\[([^\[\]\n]{0,500})\]")
_TAG_OR_ENTITY_RE = re.compile(
    r"<[A-Za-z/!?]|&(?:[A-Za-z][A-Za-z0-9]{0,31}|#[0-9]{1,8}|#[xX][0-9A-Fa-f]{1,8});"
)
_FOOTNOTE_NAME_RE = re.compile(r"[\]\s^\\]+")
#: ``:name:`` between non-word characters (not ``10:30:00``, not ``a:b:c``).
_SHORTCODE_RE = re.compile(r"(?<![\w:]):([a-z0-9+_][a-z0-9+_-]{0,60}):(?![\w:])")
#: Material for MkDocs' icon sets (``:octicons-file-16:``, ``:fontawesome-brands-x:``).
_ICON_SETS = frozenset({"material", "octicons", "fontawesome", "simple"})


def emoji_character(name: str) -> str:
    """The emoji of a GitHub shortcode name (pymdownx's gemoji index), else ""."""
    from pymdownx import gemoji_db  # (pymdownx comes with Material; imported when used)

    found = gemoji_db.emoji.get(f":{name}:") or gemoji_db.emoji.get(
        gemoji_db.aliases.get(f":{name}:", "")
    )
    if not found:
        return ""
    return "".join(chr(int(code, 16)) for code in found["unicode"].split("-"))


def ial_re() -> re.Pattern[str]:
    return _IAL_RE


class Inline(Links):
    def text(self, content: str, line: int | None) -> str:
        """A text token: kramdown attribute lists and unresolved references cleaned, escaped."""
        if "{:" in content:

            def cut(m: re.Match[str]) -> str:
                self.drop(line, f"kramdown attribute list {m.group(0)!r}", m.group(0))
                return ""

            content = _IAL_RE.sub(cut, content)
        if "{%" in content or "{{" in content:
            content = TEMPLATE_RE.sub(lambda m: self.template_tag(m.group(0), line), content)
        if ":" in content:
            content = _SHORTCODE_RE.sub(lambda m: self.shortcode(m, line), content)
        if "][" in content:

            def unresolved(m: re.Match[str]) -> str:
                self.warn(
                    line,
                    f"reference link [{m.group(1)}][{m.group(2)}] has no definition; kept its text",
                )
                return m.group(1)

            content = _UNRESOLVED_REF_RE.sub(unresolved, content)
        return markdown_text(content, table=self.in_table, inline=True)

    def shortcode(self, m: re.Match[str], line: int | None) -> str:
        """An emoji or icon shortcode of GitHub, pymdownx.emoji and Material (``:tada:``,
        ``:material-check:``): the emoji's character; an icon (an SVG the site would need)
        goes, reported; any other ``:word:`` is text."""
        name = m.group(1)
        known = emoji_character(name)
        if known:
            return known
        if name.split("-", 1)[0] in _ICON_SETS and "-" in name:
            self.drop(line, f"icon shortcode {m.group(0)!r}", m.group(0))
            return ""
        return m.group(0)

    def template_tag(self, tag: str, line: int | None) -> str:
        if tag[:3] not in ("{{<", "{{%") and tag[:2] == "{{" and not LIQUID_OUTPUT_RE.match(tag):
            return tag  # '{{ x }}' may be literal text outside Jekyll: kept
        said = shortcode_words(tag) if tag[:3] == "{{<" else None
        if said:  # {{< glossary_tooltip text="nodes" term_id="node" >}} reads "nodes"
            self.warn(line, f"template tag {excerpt(tag)!r} replaced by {said!r}")
            return said
        self.drop(line, f"template tag {excerpt(tag)!r}", tag)
        return ""

    def inline(self, nodes: Sequence[SyntaxTreeNode], line: int | None) -> str:
        if any(_is_markup(node) for node in nodes):
            return self.inline_html(nodes, line)
        return self.inline_markdown(nodes, line)

    def inline_html(self, nodes: Sequence[SyntaxTreeNode], line: int | None) -> str:
        raise NotImplementedError

    def inline_markdown(self, nodes: Sequence[SyntaxTreeNode], line: int | None) -> str:
        if len(nodes) == 1 and nodes[0].meta.get(AS_TEXT):  # a run past MAX_INLINE_MARKUP
            return markdown_literal(nodes[0].content)
        texts = {i: node.content for i, node in enumerate(nodes) if node.type == "text"}
        references = _bracketed_code(nodes, texts, HF_DOC_BUILDER in self.dialects)
        if self.dialects.pandoc or MYST in self.dialects:
            self.picture_attributes(nodes, texts, line)
        out: list[str] = []
        for index, node in enumerate(nodes):
            if index in texts:
                out.append(self.text(texts[index], line))
            elif index in references:
                out.append(markdown_code_span(references[index]))
            else:
                out.append(self.inline_node(node, line))
        return "".join(out)

    def picture_attributes(
        self, nodes: Sequence[SyntaxTreeNode], texts: dict[int, str], line: int | None
    ) -> None:
        """Pandoc's ``![x](y){width=40%}`` that markdown-it's attribute plugin leaves as text
        (values it does not take, like ``40%``): the braces go, reported."""
        for index, node in enumerate(nodes):
            after = texts.get(index + 1)
            if node.type in ("image", "link") and after is not None:
                end = attribute_block(after)
                if end:
                    self.drop(line, f"image attributes {excerpt(after[:end])!r}", after[:end])
                    texts[index + 1] = after[end:]

    def inline_node(self, node: SyntaxTreeNode, line: int | None) -> str:
        kind = node.type
        if kind == "text":
            return self.text(node.content, line)
        if kind == "softbreak":
            return " "
        if kind == "hardbreak":
            return " " if self.in_table else "<br>"
        if kind == "code_inline":
            # (Python-Markdown's tables leave pipes inside code spans alone)
            return markdown_code_span(node.content)
        if kind in ("em", "strong", "s"):
            inner = self.inline(node.children, line)
            if not inner.strip():
                return inner
            if kind == "s":
                return f"<del>{inner}</del>"
            mark = "*" if kind == "em" else "**"
            return f"{mark}{inner}{mark}"
        if kind == "link":
            return self.link(node, line)
        if kind == "image":
            return self.image(node, line, inline=True)
        if kind == "html_inline":
            return self.html_inline(node.content, line)
        if kind == "footnote_ref":
            return f"[^{self.footnote_label(node.meta)}]"
        if kind in ("math_inline", "math_inline_double"):
            return self.math(node.markup, node.content, line)
        if kind == "myst_role":
            return self.role(str(node.meta.get("name", "")), node.content, line)
        if kind == "footnote_anchor":
            return ""
        return self.inline(node.children, line) or self.text(node.content, line)

    def html_inline(self, content: str, line: int | None) -> str:
        """An inline tag outside a fragment: a comment (dropped) or a line break."""
        if content.startswith("<!--"):
            self.drop(line, f"HTML comment {excerpt(content)!r}", content)
            return ""
        return " " if self.in_table else "<br>"

    def math(self, delimiter: str, content: str, line: int | None, *, block: bool = False) -> str:
        """TeX as written (for pymdownx.arithmatex), unless it holds what could be HTML."""
        if _TAG_OR_ENTITY_RE.search(content):
            self.warn(line, f"math {excerpt(content)!r} holds HTML-like text; kept as text")
            text = markdown_text(f"{delimiter}{' '.join(content.split())}{delimiter}", inline=True)
            return protect_line_start(text) if block else text
        if block:
            body = [x.strip() for x in content.split("\n") if x.strip()]
            return "\n".join([delimiter, *body, delimiter])
        return f"{delimiter}{' '.join(content.split())}{delimiter}"

    def role(self, name: str, content: str, line: int | None) -> str:
        """A MyST role as what Sphinx shows: code, math, formatting, a title or a link."""
        base = myst.role_name(name)
        if base in myst.CODE_ROLES:
            return markdown_code_span(myst.code_shown(content, base))
        if base == "math":
            return self.math("$", content, line)
        if base in myst.HTML_ROLES:
            tag = myst.HTML_ROLES[base]
            return f"<{tag}>{html_text(content)}</{tag}>"
        title, target = myst.title_and_target(content)
        if base == "pep":
            return self.text(f"PEP {target}", line)
        if base == "rfc":
            return self.text(f"RFC {target}", line)
        if base == "abbr":
            return self.text(title or target, line)
        if (
            base in ("ref", "numref", "eq", "doc", "any", "download")
            and target.lstrip("#") in self.slugs
        ):
            anchor = self.slugs[target.lstrip("#")]
            shown = title or self.anchor_titles.get(target.lstrip("#"), target)
            return f"[{self.text(shown, line)}](#{anchor})"
        if base not in myst.TEXT_ROLES:
            self.warn(
                line, f"MyST role {{{name}}} is not known; kept its text {excerpt(content)!r}"
            )
        elif base in ("ref", "numref", "doc", "eq", "any"):
            self.unlinked.anchors.append((line, f"{{{name}}}`{excerpt(content, 40)}`"))
        if base == "eq" and not title:
            return self.text(f"({target})", line)
        if base in ("emphasis", "strong"):
            mark = "*" if base == "emphasis" else "**"
            return f"{mark}{self.text(title or target, line)}{mark}"
        if base in ("del", "delete"):
            return f"<del>{self.text(title or target, line)}</del>"
        return self.text(title or target, line)

    def plain(self, nodes: Sequence[SyntaxTreeNode]) -> str:
        out: list[str] = []
        for node in nodes:
            if node.type in ("text", "code_inline", "myst_role"):
                out.append(node.content)
            elif node.type in ("softbreak", "hardbreak"):
                out.append(" ")
            elif node.type == "image" or node.children:
                out.append(self.plain(node.children))
        return "".join(out)

    def footnote_label(self, meta: dict[str, Any]) -> str:
        number = int(meta.get("id", 0))
        if number not in self.footnote_labels:
            label = meta.get("label")
            name = _FOOTNOTE_NAME_RE.sub("-", str(label)) if label else f"n{number + 1}"
            self.footnote_labels[number] = f"{self.prefix}-{name}"
        return self.footnote_labels[number]


def attribute_block(text: str) -> int:
    """The length of a Pandoc attribute block (``{width=40% .class}``) at the start of
    ``text``, else 0; read by a scan."""
    if not text.startswith("{"):
        return 0
    close = text.find("}", 1, 1000)
    inner = text[1:close] if close > 0 else ""
    return close + 1 if inner.strip() and "{" not in inner and "\n" not in inner else 0


def _is_markup(node: SyntaxTreeNode) -> bool:
    """Inline HTML that is more than a comment or a line break (those need no sanitiser)."""
    if node.type != "html_inline":
        return False
    content = node.content
    return not content.startswith("<!--") and not _is_br(content)


def _is_br(content: str) -> bool:
    tag = content.strip().lower().replace(" ", "")
    return tag in ("<br>", "<br/>", "</br>")


def _bracketed_code(
    nodes: Sequence[SyntaxTreeNode], texts: dict[int, str], doc_builder: bool
) -> dict[int, str]:
    """Code in brackets that is a cross-reference: mkdocstrings/autorefs' ``[`Name`][a.b]``
    (a reference link with no definition in the page) and, in HF doc-builder pages,
    ``[`Name`]``. Read from the tokens text ``…[``, code, ``]…``: returns the name each such
    code token shows (``~a.b`` shows ``b``) and trims the brackets off ``texts``."""
    found: dict[int, str] = {}
    for index, node in enumerate(nodes):
        before, after = texts.get(index - 1), texts.get(index + 1)
        if node.type != "code_inline" or before is None or after is None:
            continue
        if not before.endswith("[") or not after.startswith("]") or after.startswith("]("):
            continue
        if after.startswith("]["):
            close = after.find("]", 2)
            if close < 0:
                continue
            after = after[close + 1 :]
        elif not doc_builder:
            continue
        else:
            after = after[1:]
        texts[index - 1], texts[index + 1] = before[:-1], after
        name = node.content.strip()
        found[index] = name[1:].rsplit(".", 1)[-1] if name.startswith("~") else name
    return found
