"""Containers of prose and the fences that are not plain code: admonitions (``!!!``,
``:::note``, ``/// note``, ``> [!NOTE]``), MyST directives, Pandoc/Quarto divs and callouts,
and R Markdown/Quarto chunks.

A container's markers go (reported), its title stays as a bold paragraph of its own, and its
content is read as what it is: paragraphs, lists, code. A MyST ``{figure}`` is a figure
candidate and its caption; ``{list-table}`` a table; ``{eval-rst}`` and ``{toctree}`` are
dropped and reported.
"""

from __future__ import annotations

import csv
import re

from markdown_it.tree import SyntaxTreeNode

from ...escape import markdown_fence, protect_line_start
from ..model import Chunk
from . import myst
from .blocks import Blocks
from .dialects import MYST
from .state import HeadingUnit, Unit
from .text import excerpt

#: Languages of executable chunks: ```` ```{r} ````, ```` ```{python} ````, ```` ```{.r} ````.
_CHUNK_LANGUAGES = frozenset(
    {"r", "python", "python3", "julia", "ojs", "sql", "bash", "sh", "rcpp", "stan", "js"}
    | {"css", "mermaid", "dot", "cpp", "c", "ruby", "scala", "perl", "octave", "matlab"}
)
_CHUNK_INFO_RE = re.compile(r"^\{\.?([A-Za-z][\w+-]{0,30})(?=[\s,}.])([^}]{0,2000})\}?")
#: A chunk option in the braces: ``echo=FALSE``, ``include = FALSE``, ``fig.cap="…"``.
_CHUNK_ARGUMENT_RE = re.compile(
    r"([\w.-]{1,60})\s{0,8}=\s{0,8}(\"[^\"\n]{0,500}\"|'[^'\n]{0,500}'|[^,\s}]{1,500})"
)
_CHUNK_OPTION_RE = re.compile(r"^#\|\s{0,8}([\w.-]{1,60})\s{0,8}:\s{0,8}(.{0,500})$")
_FALSE = {"false", "FALSE", "False", "F", "no"}
_INCLUDE_GRAPHICS_RE = re.compile(
    r"include_graphics\(\s{0,8}(?:path\s{0,8}=\s{0,8})?[\"']([^\"'\n]{1,1000})[\"']"
)
_PANDOC_ATTR_RE = re.compile(
    r"([.#])([\w:-]{1,100})|([\w-]{1,60})\s{0,8}=\s{0,8}(?:\"([^\"\n]{0,500})\"|([^\s\"}]{1,500}))"
)


class Containers(Blocks):
    def title_unit(self, title: str, line: int | None) -> list[Unit]:
        """A container's title (Markdown of one line) as a bold paragraph of its own."""
        title = " ".join(title.split())
        if not title:
            return []
        tokens = SyntaxTreeNode(self.parser.parseInline(title, {}))
        inline = tokens.children[0].children if tokens.children else []
        shown = self.inline(inline, line).strip()
        return [Chunk(f"**{shown}**", line=line)] if shown else []

    def children_units(self, nodes: list[SyntaxTreeNode]) -> list[Unit]:
        units: list[Unit] = []
        for child in nodes:
            units += self.units(child)
        return units

    # -- containers whose content markdown-it parsed -------------------------------------

    def admonition_units(self, node: SyntaxTreeNode) -> list[Unit]:
        line = self.line_of(node)
        info = node.info.strip()
        title_node = next((c for c in node.children if c.type == "admonition_title"), None)
        # (a title the author wrote is quoted; else the plugin names the kind)
        title = self.plain(title_node.children[0].children) if title_node and '"' in info else ""
        self.drop(line, f"admonition marker {excerpt(node.markup + ' ' + info)!r}")
        content = [c for c in node.children if c.type != "admonition_title"]
        return self.title_unit(title, line) + self.children_units(content)

    def alert_units(self, node: SyntaxTreeNode) -> list[Unit]:
        line = self.line_of(node)
        self.drop(line, f"alert marker '[!{node.info}]'")
        return self.children_units([c for c in node.children if c.type != "alert_title"])

    def blocks_units(self, node: SyntaxTreeNode) -> list[Unit]:
        """pymdownx blocks: ``/// note | Title`` … ``///``."""
        line = self.line_of(node)
        name, _bar, title = node.info.strip().partition("|")
        if name.strip().lower() == "html":  # '/// html | div': a tag, no title
            title = ""
        self.drop(line, f"block markers {excerpt('/// ' + node.info.strip())!r} … '///'")
        return self.title_unit(title, line) + self.children_units(node.children)

    # -- fences ----------------------------------------------------------------------------

    def fence_units(self, node: SyntaxTreeNode) -> list[Unit]:
        line = self.line_of(node)
        info = node.info.strip()
        if info.startswith("{"):
            chunk = _CHUNK_INFO_RE.match(info)
            if chunk and chunk.group(1).lower() in _CHUNK_LANGUAGES:
                return self.chunk_units(chunk.group(1).lower(), chunk.group(2), node.content, line)
            directive = myst.directive(info, node.content)
            if directive is not None:
                return self.directive_units(directive, line)
        language = info.split()[0] if info.split() else ""
        return [
            Chunk("\n".join(markdown_fence(node.content, language)), kind="verbatim", line=line)
        ]

    def chunk_units(self, language: str, options: str, code: str, line: int | None) -> list[Unit]:
        """An R Markdown/Quarto chunk: its code; a chunk whose code the original's page does
        not show (``include=FALSE``, ``echo: false``) is dropped, unless it only places a
        picture (``knitr::include_graphics``)."""
        defaults = self.front.get("execute")  # Quarto's for the document: execute: echo: false
        settings = {
            str(key): str(value).lower()
            for key, value in (defaults.items() if isinstance(defaults, dict) else ())
            if key in ("echo", "include", "eval")
        }
        for m in _CHUNK_ARGUMENT_RE.finditer(options):
            settings[m.group(1).lower()] = m.group(2).strip("\"'")
        body: list[str] = []
        for text in code.split("\n"):
            option = _CHUNK_OPTION_RE.match(text.strip())
            if option:
                settings[option.group(1).lower()] = option.group(2).strip().strip("\"'")
            else:
                body.append(text)
        source = "\n".join(body)
        picture = _INCLUDE_GRAPHICS_RE.search(source)
        if picture:
            caption = settings.get("fig.cap") or settings.get("fig-cap") or ""
            shown = self.picture(picture.group(1), caption, "", line, inline=False)
            units: list[Unit] = [Chunk(shown, kind="figure", line=line)]
            if caption:
                units.append(Chunk(self.text(caption, line), line=line))
            return units
        hidden = settings.get("include") in _FALSE or settings.get("echo") in _FALSE
        if hidden or (settings.get("eval") in _FALSE and settings.get("echo") in _FALSE):
            self.drop(line, f"{{{language}}} chunk the original's page does not show", code)
            return []
        return [Chunk("\n".join(markdown_fence(source, language)), kind="verbatim", line=line)]

    def directive_units(self, d: myst.Directive, line: int | None) -> list[Unit]:
        offset = (line or 1) + d.skipped  # lines before the content (the fence, its options)
        name = d.name
        if name in myst.DROPPED:
            what = "reStructuredText" if name in ("eval-rst", "rst") else "MyST directive"
            self.drop(line, f"{what} {{{name}}} {excerpt(d.argument or d.content)!r}", d.content)
            return []
        if name in myst.CODE:
            language = d.options.get("language") or (d.argument.split()[0] if d.argument else "")
            if name == "code-cell" and not language:
                language = "python"
            elif name.startswith("myst"):  # a demo: the MyST source, shown as code
                language = "markdown"
            return [
                Chunk("\n".join(markdown_fence(d.content, language)), kind="verbatim", line=line)
            ]
        if name in myst.MATH:
            return [Chunk(self.math("$$", d.content, line, block=True), kind="verbatim", line=line)]
        if name in myst.FIGURES:
            return self.figure_directive(d, line, offset)
        if name in myst.TABLES:
            return self.table_directive(d, line, offset)
        if name not in myst.ADMONITIONS and name not in myst.LAYOUT:
            self.warn(line, f"MyST directive {{{name}}} is not known; its content is imported")
        else:
            self.drop(line, f"MyST directive markers {{{name}}}")
        content = self.markdown_units(d.content, offset, line)
        if name in myst.TABS:
            return self.label(d.argument, line) + content
        title = "" if name in myst.LAYOUT else d.argument
        return self.title_unit(title, line) + content

    def figure_directive(self, d: myst.Directive, line: int | None, offset: int) -> list[Unit]:
        if d.name == "figure-md":  # the image and its caption are Markdown
            return self.markdown_units(d.content, offset, line)
        alt = d.options.get("alt", "")
        shown = self.picture(d.argument, alt, "", line, inline=False)
        units: list[Unit] = [Chunk(shown, kind="figure", line=line)]
        return units + self.markdown_units(d.content, offset, line)

    def table_directive(self, d: myst.Directive, line: int | None, offset: int) -> list[Unit]:
        units = self.title_unit(d.argument, line) if d.argument else []
        if d.name == "table":
            return units + self.markdown_units(d.content, offset, line)
        if d.name == "csv-table":
            rows = [
                [self.text(cell.strip(), line) for cell in row]
                for row in csv.reader(d.content.split("\n"))
                if row
            ]
            header = (
                [[self.text(c.strip(), line) for c in next(csv.reader([d.options["header"]]))]]
                if "header" in d.options
                else []
            )
            table = myst.list_table_rows(header + rows, 1 if header else 0)
        else:
            table = myst.list_table_rows(
                self.list_table_cells(d, offset), int(d.options.get("header-rows", "0") or 0)
            )
        if table:
            units.append(Chunk("\n".join(table), line=line))
        return units

    def list_table_cells(self, d: myst.Directive, offset: int) -> list[list[str]]:
        """A ``{list-table}``'s rows: a bullet list of bullet lists, each cell on one line."""
        tree = self.parse_again(d.content)
        rows: list[list[str]] = []
        self.in_table = True
        try:
            with self.nested(offset, d.content):
                for lst in tree.children:
                    if lst.type != "bullet_list":
                        continue
                    for item in lst.children:
                        cells = next((c for c in item.children if c.type == "bullet_list"), None)
                        row = []
                        for cell in cells.children if cells is not None else []:
                            lines = self.blocks(cell.children)
                            row.append(" ".join(x.strip() for x in lines if x.strip()) or " ")
                        rows.append(row)
        finally:
            self.in_table = False
        return rows

    # -- ::: colon fences: MyST, Docusaurus, Pandoc ----------------------------------------

    def colon_fence_units(self, node: SyntaxTreeNode) -> list[Unit]:
        line = self.line_of(node)
        info = node.info.strip()
        offset = line or 1  # the content starts on the line after the fence
        if not self.closed(node):  # never closed: no container, its line stays text
            opener = self.lines[node.map[0]] if node.map else info
            return [Chunk(protect_line_start(self.text(opener.strip(), line)), line=line)] + (
                self.markdown_units(node.content, offset, line) if node.content.strip() else []
            )
        if (
            info.startswith("{")
            and not info.startswith(("{.", "{#"))
            and "=" not in info.split("}")[0]
        ):
            directive = myst.directive(info, node.content)
            if directive is not None and (
                MYST in self.dialects or directive.name in myst.ADMONITIONS
            ):
                return self.directive_units(directive, line)
        if info.startswith("{") or info.startswith("."):
            return self.pandoc_div(info, node.content, line, offset)
        title = _remark_title(info)
        opener = f"{node.markup}{info}"
        self.drop(line, f"admonition markers {excerpt(opener)!r} … {node.markup!r}", opener)
        return self.title_unit(title, line) + self.markdown_units(node.content, offset, line)

    def closed(self, node: SyntaxTreeNode) -> bool:
        """Whether a colon fence has its closing line (markdown-it runs an unclosed one to
        the end of the text)."""
        if not node.map or node.map[1] > len(self.lines):
            return True
        last = self.lines[node.map[1] - 1].strip()
        return node.map[1] - node.map[0] > 1 and bool(last) and not last.strip(":")

    def pandoc_div(self, info: str, content: str, line: int | None, offset: int) -> list[Unit]:
        """A fenced div (``::: {.callout-note title="…"}``, ``::: {#fig-x}``): a callout's
        title is its ``title=`` or its first heading; the rest is content."""
        classes: list[str] = []
        values: dict[str, str] = {}
        for m in _PANDOC_ATTR_RE.finditer(info):
            if m.group(1) == ".":
                classes.append(m.group(2))
            elif m.group(3):
                values[m.group(3)] = m.group(4) if m.group(4) is not None else (m.group(5) or "")
        self.drop(line, f"fenced div markers {excerpt(':::' + info)!r}")
        units = self.markdown_units(content, offset, line)
        if not any(c.startswith("callout") for c in classes):
            return units
        title = values.get("title", "")
        if not title and units and isinstance(units[0], HeadingUnit):
            title, units = units[0].plain, units[1:]
        return self.title_unit(title, line) + units


def _remark_title(info: str) -> str:
    """The title of a remark directive (Docusaurus, Starlight): ``tip[Title]``, ``note
    Title``, ``details{open} Title``; read by a scan (a title can be of any length)."""
    at = 0
    while at < len(info) and (info[at].isalnum() or info[at] in "-_"):
        at += 1
    rest = info[at:].lstrip()
    if rest.startswith("["):
        close = rest.find("]")
        return rest[1:close] if close > 0 else rest[1:]
    if rest.startswith("{"):
        close = rest.find("}")
        rest = rest[close + 1 :] if close > 0 else ""
    return rest.strip()
