"""A Markdown original (Jekyll, Hugo, GitHub, plain CommonMark) → :class:`~.model.Original`.

The original is parsed by markdown-it-py (CommonMark + GFM tables and strikethrough, with the
front-matter, footnote, dollar-math and GFM-autolink plugins of mdit-py-plugins), and its
*tokens* are mapped to duizhao units; nothing here splits Markdown blocks by hand. Every
piece of author text reaches the article through :mod:`.escape`, so the article renders the
original's characters, never its HTML.

What becomes what (README, "Import an original"):

- front matter (YAML ``---`` or TOML ``+++``) → title, ``paper:`` (title, authors, url), date
  (or a Jekyll file name's date);
- the single leading h1 → the title (not a block); the other headings are shifted by one
  amount so that the highest becomes ``##`` (the article keeps one h1 and its table of
  contents);
- paragraphs, lists, blockquotes and tables → numbered paragraphs (what a translator
  translates); a paragraph of images only, an HTML block of images only and an image
  shortcode → a figure candidate; code (also ``<pre>`` blocks), display math and other HTML
  blocks → verbatim blocks; ``<div markdown="1">`` → its content, parsed again; the
  original's footnotes → footnote definitions with namespaced labels (``[^orig-1]``);
- HTML comments (with any fence inside them), kramdown attribute lists (``{: .notice}``),
  HTML wrapper tags without content and template-only paragraphs are dropped and reported;
- links: reference links arrive resolved; site-absolute and relative links become absolute
  with ``base_url``, otherwise they stay as their text and one warning says so; unsafe
  schemes (``javascript:``) stay text.

Two template-dialect passes run before parsing and keep every line where it was: Liquid's
``{% raw %}`` markers are removed and ``{% highlight x %}`` … ``{% endhighlight %}`` (and
Hugo's ``{{< highlight x >}}``) become code fences.
"""

from __future__ import annotations

import bisect
import datetime as dt
import functools
import importlib
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import unquote, urljoin

from markdown.extensions.toc import slugify
from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from mdit_py_plugins.gfm_autolink import gfm_autolink_plugin

from ..yamlsafe import InputError, load_yaml
from .escape import fence_for, md_code_span, md_fence, md_text, md_title, md_url, protect_line_start
from .model import Chunk, ChunkKind, Note, Original

#: Link schemes kept as links; anything else (javascript:, data:, vbscript:, file:) is text.
SAFE_SCHEMES = frozenset({"http", "https", "mailto", "ftp", "ftps", "tel", "irc", "ircs"})

_IAL_RE = re.compile(r"\{:(?:[^{}\n]|\{[^{}\n]*\})*\}|\{::[^{}\n]*\}|\{:/[^{}\n]*\}")
_HEADING_ATTRS_RE = re.compile(r"\s*\{\s*[#.:][^{}]*\}\s*$")
#: The first line of a footnote definition, ``[^label]: …``.
_FOOTNOTE_DEFINITION_RE = re.compile(r"^ {0,3}\[\^([^\]]+)\]:")
_UNRESOLVED_REF_RE = re.compile(r"\[([^\[\]\n]+)\]\[([^\[\]\n]*)\]")
_TEMPLATE_RE = re.compile(r"\{%-?.*?-?%\}|\{\{[<%].*?[>%]\}\}|\{\{.*?\}\}", re.DOTALL)
#: An argument of a shortcode or include whose value is an image file: ``src=``, Istio's
#: ``link=``, a positional ``"x.png"``; the first such value is the picture. A key starts only
#: where a word starts and every run is bounded, so a tag of any length is read in linear time
#: (``a-a-a-…`` or ``b=b=b=…`` made each position cost the rest of the tag).
_TEMPLATE_IMAGE_RE = re.compile(
    r"(?:(?<![\w-])[\w-]{1,64}\s{0,8}=\s{0,8}|\s)"
    r"(?:\"([^\"]{0,1024}\.(?:png|jpe?g|gif|svg|webp|avif))\""
    r"|'([^']{0,1024}\.(?:png|jpe?g|gif|svg|webp|avif))'"
    r"|([^\s\"'>%}]{1,1024}\.(?:png|jpe?g|gif|svg|webp|avif)))"
    r"(?=[\s>%}]|$)",
    re.IGNORECASE,
)
#: A paragraph that only includes another file: pymdownx.snippets (``--8<-- "x.md"``, also
#: as a block of paths between two ``--8<--``), FastAPI's ``{* ../x.py hl[3] *}``,
#: markdown-include's ``{!x.md!}``, and MDX's ESM ``import``/``export`` lines. The included
#: text is not in the original: such a paragraph is dropped and reported, never translated.
_INCLUDE_LINE_RE = re.compile(r";?--8<--\s+\S.*|\{\*.*\*\}|\{!.*!\}")
_SNIPPET_BLOCK_RE = re.compile(r";?--8<--\s*")
#: An MDX ``export`` line; an ``import`` line is read by :func:`_is_esm_import`.
_ESM_EXPORT_RE = re.compile(r"export(?:\s+(?:default|const|let|function|async)\b|\s*\{)")
#: What an ``import`` binds before ``from``: names, ``* as x``, ``{ a, b as c }``.
_ESM_BINDINGS_RE = re.compile(r"[\w*{}\s,$]+")
#: The module an ``import`` line ends with: a quoted specifier, an optional ``;``.
_ESM_SPECIFIER_RE = re.compile(r"\s*(?:\"[^\"\n]+\"|'[^'\n]+');?")
_TEMPLATE_ATTR_RE = r"\b{name}\s*=\s*(?:\"([^\"]*)\"|'([^']*)')"
#: Liquid output that is surely Liquid: a filter, or one of Jekyll's variables.
_LIQUID_OUTPUT_RE = re.compile(
    r"^\{\{-?\s*(?:(?:site|page|include|layout|paginator|jekyll|post)\b|[^}]*\|\s*\w)"
)
_RAW_TAG_RE = re.compile(r"\{%-?\s*(?:end)?raw\s*-?%\}")
_HIGHLIGHT_OPEN_RE = re.compile(r"^\s*\{%-?\s*highlight\s+([\w+#.-]+)[^%]*-?%\}\s*$")
_HIGHLIGHT_CLOSE_RE = re.compile(r"^\s*\{%-?\s*endhighlight\s*-?%\}\s*$")
#: A paired Hugo shortcode of code: ``{{< highlight go >}}``, Istio's ``{{< text bash >}}``,
#: ``{{< code lang="yaml" >}}``: a code name (the first word its language), or any name with a
#: ``lang=``/``language=`` argument. Other paired shortcodes (``{{< idea >}}``) wrap prose.
_SHORTCODE_OPEN_RE = re.compile(r"^\s*\{\{([<%])\s*([\w-]+)\b([^>%]*)[>%]\}\}\s*$")
_SHORTCODE_CLOSE_RE = re.compile(r"^\s*\{\{[<%]\s*/([\w-]+)\s*[>%]\}\}\s*$")
_CODE_SHORTCODES = frozenset(
    {"highlight", "text", "code", "codeblock", "code-block", "terminal", "console", "shell"}
)
_SHORTCODE_LANG_RE = re.compile(r"\blang(?:uage)?\s*=\s*[\"']?([\w+#.-]+)")
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
#: Container syntaxes whose content is prose: remark directives (Docusaurus, Starlight:
#: ``:::tip[Title]``, ``:::note Title``) and pymdownx blocks (``/// note | Title``), closed by
#: a line of the same marker; Python-Markdown's admonitions, details and tabs (``!!! note
#: "Title"``, ``???+ tip``, ``=== "Tab"``), whose content is indented by four spaces.
_DIRECTIVE_OPEN_RE = re.compile(
    r"^\s*(:{3,})\s*([A-Za-z][\w-]*)\s*(?:\[([^\]]*)\])?\s*(?:\{[^{}]*\})?\s*(.*)$"
)
#: (The title groups run to the end of the line, trailing spaces included, and are stripped
#: where used: a lazy ``(.*?)`` before ``\s*$`` made each space of a long line cost the rest.)
_BLOCKS_OPEN_RE = re.compile(r"^\s*(/{3,})\s*([A-Za-z][\w-]*)\s*(?:\|(.*))?$")
_CONTAINER_CLOSE_RE = re.compile(r"^\s*(:{3,}|/{3,})\s*$")
_INDENTED_OPEN_RE = re.compile(
    r"^(\s*)(?:!!!|\?\?\?\+?|===\+?)(?:\s+([A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)*))?"
    r"(?:\s+\"([^\"]*)\")?\s*$"
)
_LIQUID_URL_PREFIX_RE = re.compile(
    r"^(?:\{\{-?\s*(?:site\.url|site\.baseurl|base_path|site\.base_url|\.Site\.BaseURL)"
    r"\s*-?\}\}\s*)+"
)
_MARKDOWN_IN_HTML_RE = re.compile(
    r"^\s*<([A-Za-z][A-Za-z0-9]*)\b[^>]*\smarkdown\s*=\s*[\"']?(?:1|block|span)[\"']?[^>]*>"
)
_DATE_RE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}(?![0-9])")
_TAG_OR_ENTITY_RE = re.compile(r"<[A-Za-z/!?]|&(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#[xX][0-9A-Fa-f]+);")
_BR_RE = re.compile(r"^<br\s*/?>$", re.IGNORECASE)
_TOC_WORDS = {"toc", "table of contents", "contents"}
#: Tags that only wrap or lay out pictures (an HTML block of these and images is a figure).
_LAYOUT_TAGS = frozenset(
    {"div", "p", "center", "span", "a", "br", "figure", "picture", "source", "section", "img"}
    | {"article", "aside", "small", "em", "strong", "b", "i", "figcaption", "hr"}
)
#: Tags that matter even without text (kept as code, never dropped as empty wrappers).
_ACTIVE_TAGS = frozenset(
    {"script", "style", "iframe", "video", "audio", "object", "embed", "canvas", "svg", "form"}
    | {"input", "button", "select", "textarea", "math", "template", "noscript", "?"}
)
_CODE_TAGS = frozenset({"pre", "code", "span", "b", "i", "em", "strong"})
_HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
#: Tags that start a new paragraph of prose in an HTML block.
_PROSE_BLOCKS = frozenset(
    {"p", "div", "li", "blockquote", "section", "article", "aside", "header", "footer", "center"}
    | {"details", "summary", "figure", "figcaption", "dd", "dt", "ul", "ol", "dl"}
    | _HEADING_TAGS
)
_PROSE_MARKS = {"b": "**", "strong": "**", "i": "*", "em": "*", "del": "~~", "s": "~~"}
#: Tags of an HTML block that is prose (a note box, a centred paragraph): imported as text.
_PROSE_TAGS = _PROSE_BLOCKS | frozenset(
    {"a", "br", "code", "span", "small", "sup", "sub", "mark", "abbr", "kbd", "hr", "img"}
    | set(_PROSE_MARKS)
)


#: The longest run of text between blank lines (a bound on a paragraph's length) whose bare
#: URLs are linked: mdit-py-plugins' gfm_autolink searches the whole pending text at every
#: ':' (0.8 s at 20 KB, 12 s at 80 KB of "[x]: y" runs). A longer paragraph is no prose of a
#: real post; its URLs stay text (reported) and the rest is read in linear time.
AUTOLINK_MAX_PARAGRAPH = 16 * 1024
_BLANK_LINES_RE = re.compile(r"\n[ \t]*\n")


def _parser(*, autolink: bool = True) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True, "linkify": False})
    md.enable(["table", "strikethrough"])
    md.use(front_matter_plugin).use(footnote_plugin)
    if autolink:
        md.use(gfm_autolink_plugin)
    # $…$ and $$…$$ stay TeX; "$5 and $10" is no math (no digit or space inside the dollars).
    md.use(dollarmath_plugin, allow_space=False, allow_digits=False, double_inline=True)
    return md


# --------------------------------------------------------------------------------------------
# Template dialects and TOML front matter (line-preserving passes before parsing)


def _prepare(text: str) -> tuple[str, str | None, int, list[tuple[int, str, str]]]:
    """Normalise line ends, cut TOML front matter out (returned apart), turn Liquid/Hugo code
    tags into fences and unwrap admonition containers; every line keeps its number. Returns
    the text, the TOML, its line and notes ``(line, message, text)`` of what was dropped."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    toml: str | None = None
    toml_line = 0
    if lines and lines[0].rstrip() == "+++":
        for i in range(1, len(lines)):
            if lines[i].rstrip() == "+++":
                toml = "\n".join(lines[1:i])
                toml_line = 1
                lines[: i + 1] = [""] * (i + 1)
                break
    raw: set[int] = set()  # lines inside Liquid's {% raw %}: their tags are text
    in_raw = False
    for i, line in enumerate(lines):
        if in_raw:
            raw.add(i)
        raw_tags = _RAW_TAG_RE.findall(line)
        for tag in raw_tags:
            in_raw = not tag.replace(" ", "").strip("{%-}").startswith("end")
        if raw_tags:
            lines[i] = _RAW_TAG_RE.sub("", line)
    notes: list[tuple[int, str, str]] = []
    lines = _unwrap_containers(_code_shortcodes(lines, raw), notes)
    return "\n".join(lines), toml, toml_line, notes


def _code_shortcodes(lines: list[str], raw: set[int]) -> list[str]:
    """Liquid ``{% highlight x %}`` and paired Hugo code shortcodes (``{{< highlight x >}}``,
    ``{{< text bash >}}``) → code fences, when closed; an unclosed one stays (as a tag)."""
    out = list(lines)
    # Where each kind of tag closes, found in one pass: an opener takes the first close after
    # it (a search forward from each opener would cost the rest of the file per unclosed one).
    closes: dict[str, list[int]] = {}
    for j, line in enumerate(lines):
        if _HIGHLIGHT_CLOSE_RE.match(line):
            closes.setdefault("{% highlight", []).append(j)
        elif c := _SHORTCODE_CLOSE_RE.match(line):
            closes.setdefault(c.group(1), []).append(j)
    i = 0
    while i < len(out):
        line = out[i]
        lang = ""
        kind: str | None = None
        m = None if i in raw else _HIGHLIGHT_OPEN_RE.match(line)
        if m:
            lang, kind = m.group(1), "{% highlight"
        else:
            h = None if i in raw else _SHORTCODE_OPEN_RE.match(line)
            if h:
                named = _SHORTCODE_LANG_RE.search(h.group(3))
                if h.group(2).lower() in _CODE_SHORTCODES or named:
                    first = re.match(r"\s*([\w+#.-]+)(?=\s|$)", h.group(3))
                    lang = named.group(1) if named else (first.group(1) if first else "")
                    kind = h.group(2)
        at = closes.get(kind, []) if kind is not None else []
        k = bisect.bisect_right(at, i)
        if k == len(at):  # not closed (or not code): the tag stays text
            i += 1
            continue
        end = at[k]
        fence = fence_for("\n".join(out[i + 1 : end]))
        out[i], out[end] = fence + lang, fence
        i = end + 1
    return out


def _unwrap_containers(lines: list[str], notes: list[tuple[int, str, str]]) -> list[str]:
    """Admonitions, asides, details and tabs hold prose to translate: their marker lines go
    (reported; a title stays as bold text on its line) and indented content is dedented, so
    the content is read as the paragraphs, lists and code it is. Code fences are left alone."""
    out = list(lines)
    indents: list[int] = []  # content indent of each open indented container
    opened: list[tuple[int, str, str]] = []  # (line index, marker, opener) of ::: and ///
    fence: tuple[str, int] | None = None
    for i, line in enumerate(out):
        if line.strip():
            width = len(line) - len(line.lstrip(" "))
            while indents and width < indents[-1]:
                indents.pop()
            if indents:
                line = line[min(width, indents[-1]) :]
        elif indents:
            line = ""
        out[i] = line
        f = _FENCE_RE.match(line)
        if fence is not None:
            if (
                f
                and f.group(1)[0] == fence[0]
                and len(f.group(1)) >= fence[1]
                and not line[f.end() :].strip()
            ):
                fence = None
            continue
        if f and not (f.group(1)[0] == "`" and "`" in line[f.end() :]):
            fence = (f.group(1)[0], len(f.group(1)))
            continue
        ind = _INDENTED_OPEN_RE.match(line)
        if ind and (ind.group(2) or ind.group(3) is not None):
            title = ind.group(3) or ""
            notes.append((i + 1, f"admonition marker {_excerpt(line.strip())!r}", line))
            out[i] = ind.group(1) + (f"**{title}**" if title.strip() else "")
            indents.append(len(ind.group(1)) + 4)
            continue
        close = _CONTAINER_CLOSE_RE.match(line)
        if close and opened and opened[-1][1] == close.group(1):
            start, _marker, opener = opened.pop()
            marks = f"{_excerpt(opener)!r} … {line.strip()!r}"
            notes.append((start + 1, f"admonition markers {marks}", opener))
            out[i] = ""
            continue
        d = _DIRECTIVE_OPEN_RE.match(line) or _BLOCKS_OPEN_RE.match(line)
        if d:
            opened.append((i, d.group(1), line.strip()))
            title = (d.group(3) or (d.group(4) if d.lastindex and d.lastindex >= 4 else "")) or ""
            if d.group(2).lower() == "html":  # pymdownx's '/// html | div': a tag, no title
                title = ""
            indent = line[: len(line) - len(line.lstrip())]
            out[i] = indent + (f"**{title.strip()}**" if title.strip() else "")
    for start, _marker, _opener in opened:  # never closed: not a container, the line stays
        out[start] = lines[start]
    return out


# --------------------------------------------------------------------------------------------
# Front matter → title, paper fields, date


def _text(value: object) -> str | None:
    if isinstance(value, (str, int, float)) and str(value).strip():
        return " ".join(str(value).split())
    return None


def _authors(value: object) -> str | list[str] | None:
    if isinstance(value, dict):
        return _text(value.get("name")) or _text(value.get("display_name"))
    if isinstance(value, list):
        names = [a for a in (_authors(v) for v in value) if isinstance(a, str)]
        return names if len(names) > 1 else (names[0] if names else None)
    return _text(value)


# --------------------------------------------------------------------------------------------
# HTML blocks: which are pictures, which only wrap, which hold text


class _HtmlSurvey(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.images: list[dict[str, str]] = []
        self.tags: set[str] = set()
        self.text: list[str] = []
        self.caption: list[str] = []
        #: all character data as written (for <pre> blocks)
        self.raw: list[str] = []
        self.language = ""
        self._in_caption = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        if tag == "code" and not self.language:
            classes = dict(attrs).get("class") or ""
            m = re.search(r"\b(?:language|lang)-([\w+#.-]+)", classes)
            self.language = m.group(1) if m else ""
        if tag == "img":
            values = {k: v or "" for k, v in attrs}
            if values.get("src"):
                self.images.append(values)
        elif tag == "figcaption":
            self._in_caption += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "figcaption" and self._in_caption:
            self._in_caption -= 1

    def handle_data(self, data: str) -> None:
        self.raw.append(data)
        if data.strip():
            (self.caption if self._in_caption else self.text).append(data.strip())


class _HtmlProse(HTMLParser):
    """An HTML block of prose tags (see :data:`_PROSE_TAGS`) as escaped Markdown lines: block
    tags start paragraphs, ``<li>`` list items, headings become bold, links and images go
    through the converter (so they are resolved and checked like Markdown ones)."""

    def __init__(self, conv: _Converter, line: int | None) -> None:
        super().__init__(convert_charrefs=True)
        self.conv = conv
        self.line = line
        self.lines: list[str] = []
        self.pieces: list[str] = []
        #: open inline tags: (tag, index into pieces where they started, attributes)
        self.stack: list[tuple[str, int, dict[str, str]]] = []
        self.prefix = ""

    def flush(self) -> None:
        text = " ".join("".join(self.pieces).split())
        self.pieces = []
        self.stack = []
        if text:
            if self.lines:
                self.lines.append("")
            self.lines.append(self.prefix + protect_line_start(text))
        self.prefix = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag in _PROSE_BLOCKS:
            self.flush()
            self.prefix = "- " if tag == "li" else ""
            if tag in _HEADING_TAGS:
                self.stack.append((tag, len(self.pieces), values))
        elif tag == "br":
            self.pieces.append("<br>")
        elif tag == "img" and values.get("src"):
            alt = values.get("alt", "")
            self.pieces.append(
                self.conv.picture(
                    values["src"], alt, values.get("title", ""), self.line, inline=True
                )
            )
        elif self.in_code:
            return  # markup inside <code> is not code's to show
        elif tag in _PROSE_MARKS or tag in ("a", "code"):
            self.stack.append((tag, len(self.pieces), values))

    def handle_endtag(self, tag: str) -> None:
        at = next((i for i in range(len(self.stack) - 1, -1, -1) if self.stack[i][0] == tag), None)
        if at is None:
            if tag in _PROSE_BLOCKS:
                self.flush()
            return
        _tag, start, values = self.stack[at]
        del self.stack[at:]
        inner = "".join(self.pieces[start:])
        del self.pieces[start:]
        if tag == "code":
            self.pieces.append(md_code_span(inner))
        elif tag == "a":
            url = self.conv.resolve(values.get("href", ""), self.line, inner)
            self.pieces.append(
                f"[{inner.strip()}]({md_url(url)})" if url and inner.strip() else inner
            )
        elif inner.strip():
            mark = "**" if tag in _HEADING_TAGS else _PROSE_MARKS.get(tag, "")
            lead = " " if inner[:1].isspace() else ""
            trail = " " if inner[-1:].isspace() else ""
            body = f"<del>{inner.strip()}</del>" if mark == "~~" else f"{mark}{inner.strip()}{mark}"
            self.pieces.append(f"{lead}{body}{trail}")
        if tag in _HEADING_TAGS:
            self.flush()

    @property
    def in_code(self) -> bool:
        return any(tag == "code" for tag, _start, _values in self.stack)

    def handle_data(self, data: str) -> None:
        # Inside <code> the text stays raw until </code> makes it one code span.
        self.pieces.append(data if self.in_code else self.conv.text(data, self.line))

    def close(self) -> None:
        super().close()
        self.flush()


def _is_esm(text: str) -> bool:
    """Whether a stripped line is an MDX ``import``/``export`` statement (ESM), read without a
    backtracking regex: ``import x from "y"``, ``import { a } from 'y';``, ``import "y"``."""
    if text.startswith("export"):
        return _ESM_EXPORT_RE.match(text) is not None
    if not text.startswith("import"):
        return False
    quote = min((i for i in (text.find('"', 6), text.find("'", 6)) if i >= 0), default=-1)
    if quote < 0 or not _ESM_SPECIFIER_RE.fullmatch(text, quote):
        return False
    head = text[6:quote]
    if not head.strip():
        return True  # a side-effect import: `import "y"`
    if not head[:1].isspace():
        return False
    body = head.rstrip()
    if not (body.endswith("from") and body[-5:-4] in (" ", "\t", "}", "*")):
        return False
    bindings = body[:-4].strip()
    return bool(bindings) and _ESM_BINDINGS_RE.fullmatch(bindings) is not None


def _include_only(lines: Sequence[str]) -> bool:
    """Whether these source lines only include other files (``_INCLUDE_LINE_RE``, ESM)."""
    in_block = False
    for line in lines:
        text = line.strip()
        if _SNIPPET_BLOCK_RE.fullmatch(text):
            in_block = not in_block
        elif not (in_block or _INCLUDE_LINE_RE.fullmatch(text) or _is_esm(text)):
            return False
    return bool(lines)


def _shortcode_words(tag: str) -> str | None:
    """The words an inline shortcode shows: its ``text=``, else its ``term_id=`` (Hugo's
    glossary_tooltip and the like)."""
    for name in ("text", "term_id"):
        m = re.search(r"\b" + name + r"\s*=\s*\"([^\"]+)\"", tag)
        if m:
            return m.group(1).replace("-", " ") if name == "term_id" else m.group(1)
    return None


def _survey(content: str) -> _HtmlSurvey:
    survey = _HtmlSurvey()
    try:
        survey.feed(content)
        survey.close()
    except Exception:  # html.parser is lenient; anything it cannot take is kept as code
        survey.tags.add("?")
    return survey


# --------------------------------------------------------------------------------------------
# The converter


@dataclass
class _Heading:
    index: int  # position in the chunk list
    level: int
    markdown: str
    plain: str
    line: int | None


@dataclass
class _Links:
    """Links that could not stay links, gathered for one warning per kind."""

    site_absolute: list[tuple[int | None, str]] = field(default_factory=list)
    relative: list[tuple[int | None, str]] = field(default_factory=list)
    anchors: list[tuple[int | None, str]] = field(default_factory=list)
    inline_html: list[tuple[int | None, str]] = field(default_factory=list)


class _Converter:
    def __init__(self, source: str, base_url: str | None, prefix: str) -> None:
        self.source_lines = source.split("\n")
        self.base_url = base_url
        self.prefix = prefix
        self.notes: list[Note] = []
        self.chunks: list[Chunk | None] = []
        self.headings: list[_Heading] = []
        self.slugs: dict[str, str] = {}
        self.links = _Links()
        self.footnote_labels: dict[int, str] = {}
        self._table = False
        self.title_from_h1: str | None = None
        #: lines before the text being converted (content re-parsed from an HTML block)
        self.line_offset = 0

    # -- notes ---------------------------------------------------------------------------

    def drop(self, line: int | None, message: str, text: str = "") -> None:
        self.notes.append(Note(line, message, "dropped", text))

    def warn(self, line: int | None, message: str) -> None:
        self.notes.append(Note(line, message, "warning"))

    # -- inline --------------------------------------------------------------------------

    def text(self, content: str, line: int | None) -> str:
        """A text token: kramdown attribute lists and unresolved references cleaned, escaped."""
        if "{:" in content:

            def cut(m: re.Match[str]) -> str:
                self.drop(line, f"kramdown attribute list {m.group(0)!r}", m.group(0))
                return ""

            content = _IAL_RE.sub(cut, content)
        if "{%" in content or "{{" in content:

            def template(m: re.Match[str]) -> str:
                tag = m.group(0)
                if (
                    tag[:3] not in ("{{<", "{{%")
                    and tag[:2] == "{{"
                    and not (_LIQUID_OUTPUT_RE.match(tag))
                ):
                    return m.group(0)  # '{{ x }}' may be literal text outside Jekyll: kept
                said = _shortcode_words(tag) if tag[:3] == "{{<" else None
                if said:  # {{< glossary_tooltip text="nodes" term_id="node" >}} reads "nodes"
                    self.warn(line, f"template tag {_excerpt(tag)!r} replaced by {said!r}")
                    return said
                self.drop(line, f"template tag {_excerpt(tag)!r}", tag)
                return ""

            content = _TEMPLATE_RE.sub(template, content)
        if "][" in content:

            def unresolved(m: re.Match[str]) -> str:
                self.warn(
                    line,
                    f"reference link [{m.group(1)}][{m.group(2)}] has no definition; kept its text",
                )
                return m.group(1)

            content = _UNRESOLVED_REF_RE.sub(unresolved, content)
        return md_text(content, table=self._table)

    def inline(self, nodes: Sequence[SyntaxTreeNode], line: int | None) -> str:
        out: list[str] = []
        for node in nodes:
            kind = node.type
            if kind == "text":
                out.append(self.text(node.content, line))
            elif kind == "softbreak":
                out.append(" ")
            elif kind == "hardbreak":
                out.append(" " if self._table else "<br>")
            elif kind == "code_inline":
                # (Python-Markdown's tables leave pipes inside code spans alone)
                out.append(md_code_span(node.content))
            elif kind in ("em", "strong", "s"):
                inner = self.inline(node.children, line)
                if not inner.strip():
                    out.append(inner)
                elif kind == "s":
                    out.append(f"<del>{inner}</del>")
                else:
                    mark = "*" if kind == "em" else "**"
                    out.append(f"{mark}{inner}{mark}")
            elif kind == "link":
                out.append(self.link(node, line))
            elif kind == "image":
                out.append(self.image(node, line, inline=True))
            elif kind == "html_inline":
                out.append(self.html_inline(node.content, line))
            elif kind == "footnote_ref":
                out.append(f"[^{self.footnote_label(node.meta)}]")
            elif kind in ("math_inline", "math_inline_double"):
                out.append(self.math(node.markup, node.content, line))
            elif kind == "footnote_anchor":
                continue
            else:
                out.append(self.inline(node.children, line) or self.text(node.content, line))
        return "".join(out)

    def math(self, delimiter: str, content: str, line: int | None, *, block: bool = False) -> str:
        """TeX as written (for pymdownx.arithmatex), unless it holds what could be HTML."""
        if _TAG_OR_ENTITY_RE.search(content):
            self.warn(line, f"math {_excerpt(content)!r} holds HTML-like text; kept as text")
            text = md_text(f"{delimiter}{' '.join(content.split())}{delimiter}")
            return protect_line_start(text) if block else text
        if block:
            body = [x.strip() for x in content.split("\n") if x.strip()]
            return "\n".join([delimiter, *body, delimiter])
        return f"{delimiter}{' '.join(content.split())}{delimiter}"

    def html_inline(self, content: str, line: int | None) -> str:
        if content.startswith("<!--"):
            self.drop(line, f"HTML comment {_excerpt(content)!r}", content)
            return ""
        if _BR_RE.match(content.strip()):
            return " " if self._table else "<br>"
        self.links.inline_html.append((line, content))
        return md_text(content, table=self._table)

    def plain(self, nodes: Sequence[SyntaxTreeNode]) -> str:
        out: list[str] = []
        for node in nodes:
            if node.type in ("text", "code_inline"):
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
            name = re.sub(r"[\]\s^\\]+", "-", str(label)) if label else f"n{number + 1}"
            self.footnote_labels[number] = f"{self.prefix}-{name}"
        return self.footnote_labels[number]

    def resolve(self, href: str, line: int | None, text: str) -> str | None:
        """The URL a link of the original gets in the article, or None to keep it as text."""
        href = href.strip()
        if "%7B" in href or "{" in href:
            decoded = unquote(href)
            stripped = _LIQUID_URL_PREFIX_RE.sub("", decoded)
            if _TEMPLATE_RE.search(stripped):
                self.warn(line, f"link {text!r} → {decoded!r}: a template URL; kept as text")
                return None
            href = stripped if stripped != decoded else href
        if not href:
            return None
        scheme = re.match(r"^([A-Za-z][A-Za-z0-9+.-]*):", href)
        if scheme:
            if scheme.group(1).lower() in SAFE_SCHEMES:
                return href
            self.drop(line, f"target of {text!r} has an unsafe scheme {scheme.group(1)!r}")
            return None
        if href.startswith("//"):
            return "https:" + href
        if href.startswith("#"):
            fragment = unquote(href[1:])
            if fragment in self.slugs:
                return "#" + self.slugs[fragment]
            if self.base_url:
                return urljoin(self.base_url, href)
            self.links.anchors.append((line, href))
            return None
        if self.base_url:
            return urljoin(self.base_url, href)
        if href.startswith("/"):
            self.links.site_absolute.append((line, href))
        else:
            self.links.relative.append((line, href))
        return None

    def link(self, node: SyntaxTreeNode, line: int | None) -> str:
        text = self.inline(node.children, line)
        href = str(node.attrs.get("href", ""))
        url = self.resolve(href, line, self.plain(node.children))
        if url is None:
            return text
        if not text.strip():
            text = md_text(url, table=self._table)
        return f"[{text}]({_target(url, str(node.attrs.get('title') or ''))})"

    def image(self, node: SyntaxTreeNode, line: int | None, *, inline: bool) -> str:
        alt = self.plain(node.children)
        src = str(node.attrs.get("src", ""))
        title = str(node.attrs.get("title") or "")
        return self.picture(src, alt, title, line, inline=inline)

    def picture(self, src: str, alt: str, title: str, line: int | None, *, inline: bool) -> str:
        """An image as Markdown, or (when it cannot be linked) its alt text inline and a
        figure-candidate marker (an HTML comment naming it) on its own."""
        url = self.resolve(src, line, alt or src)
        if url is None:
            shown = _excerpt(src, 80)
            local = bool(src.strip()) and not re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", src)
            why = "cannot be linked without --base-url" if local else "cannot be linked"
            kept = "kept its alt text" if inline else "left a figure-candidate marker"
            self.warn(line, f"image {shown!r} ({alt or 'no alt text'}) {why}; {kept}")
            if inline:
                return md_text(alt, table=self._table)
            safe = " ".join(f"{shown} {alt}".replace("--", "- -").replace(">", "&gt;").split())
            return f"<!-- duizhao:figure-candidate {safe} -->"
        alt_md = md_text(alt, table=self._table).replace("\\[", "(").replace("\\]", ")")
        return f"![{alt_md}]({_target(url, title)})"

    # -- blocks --------------------------------------------------------------------------

    def line_of(self, node: SyntaxTreeNode) -> int | None:
        return node.map[0] + 1 + self.line_offset if node.map else None

    def paragraph_lines(self, node: SyntaxTreeNode, line: int | None) -> list[str]:
        children = node.children[0].children if node.children else []
        # Lines end where the original had hard breaks; each line is protected on its own.
        rendered = self.inline(children, line).strip()
        return [protect_line_start(part) for part in rendered.split("\n")] if rendered else []

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
        line = self.line_of(node)
        kind = node.type
        if kind == "paragraph":
            figure = self.figure_paragraph(node, line)
            return figure if figure is not None else self.paragraph_lines(node, line)
        if kind == "heading":
            text = self.inline(node.children[0].children, line).strip() if node.children else ""
            return [f"**{text}**"] if text else []
        if kind in ("bullet_list", "ordered_list"):
            return self.list_lines(node)
        if kind == "blockquote":
            return [f"> {x}".rstrip() for x in self.blocks(node.children)]
        if kind == "table":
            return self.table_lines(node)
        if kind in ("fence", "code_block"):
            return md_fence(node.content, node.info.split()[0] if node.info.split() else "")
        if kind in ("math_block", "math_block_label"):
            return self.math("$$", node.content, line, block=True).split("\n")
        if kind == "html_block":
            unit = self.html_block(node, line)
            return unit[1] if unit else []
        if kind == "hr":
            return []
        return self.blocks(node.children)

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

    def table_lines(self, node: SyntaxTreeNode) -> list[str]:
        rows: list[list[str]] = []
        aligns: list[str] = []
        self._table = True
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
            self._table = False
        if not rows:
            return []
        width = max(len(r) for r in rows)
        rule = {"left": ":---", "right": "---:", "center": ":---:"}
        sep = [rule.get(a, "---") for a in aligns] + ["---"] * (width - len(aligns))
        lines = ["| " + " | ".join(r + [" "] * (width - len(r))) + " |" for r in rows]
        return [lines[0], "| " + " | ".join(sep) + " |", *lines[1:]]

    def html_block(
        self, node: SyntaxTreeNode, line: int | None
    ) -> tuple[ChunkKind, list[str]] | None:
        """An HTML block as a unit: a figure, code, prose (numbered) or nothing (dropped)."""
        content = node.content.strip("\n")
        if content.lstrip().startswith("<!--"):
            tail = content.rsplit("-->", 1)[-1].strip() if "-->" in content else ""
            end = line + content.count("\n") if line else None
            span = f" (lines {line}–{end})" if end and end != line else ""
            self.drop(line, f"HTML comment{span} {_excerpt(content)!r}", content)
            if tail:
                self.drop(line, f"HTML after a comment {_excerpt(tail)!r}", tail)
            return None
        survey = _survey(content)
        if survey.tags <= _LAYOUT_TAGS and not survey.text and survey.images:
            caption = " ".join(survey.caption)
            pictures = [self.html_picture(img, caption, line) for img in survey.images]
            lines = [" ".join(pictures)] + ([f"*{md_text(caption)}*"] if caption else [])
            return "figure", lines
        if "pre" in survey.tags and survey.tags <= _CODE_TAGS:
            # <pre><code class="language-rust">: a code block written in HTML
            return "verbatim", md_fence("".join(survey.raw).strip("\n"), survey.language)
        words = _TEMPLATE_RE.sub("", " ".join(survey.text + survey.caption)).strip()
        if not (survey.tags & _ACTIVE_TAGS or words or survey.images):
            self.drop(line, f"HTML wrapper tags without content {_excerpt(content)!r}", content)
            return None
        if survey.tags <= _PROSE_TAGS and survey.text:
            prose = _HtmlProse(self, line)
            try:
                prose.feed(content)
                prose.close()
            except Exception:  # html.parser is lenient; anything it cannot take is kept as code
                prose.lines = []
            if prose.lines:
                self.warn(line, f"HTML block {_excerpt(content)!r} imported as text; review it")
                return "paragraph", prose.lines
        self.warn(line, f"HTML block kept as code {_excerpt(content)!r}; review it")
        return "verbatim", md_fence(content, "html")

    def figure_paragraph(self, node: SyntaxTreeNode, line: int | None) -> list[str] | None:
        """A paragraph of images only (perhaps linked, perhaps inline ``<img>`` tags): their
        Markdown, else None."""
        children = node.children[0].children if node.children else []
        pictures: list[SyntaxTreeNode | dict[str, str]] = []
        attributes: list[str] = []
        for child in children:
            if child.type == "image":
                pictures.append(child)
            elif child.type == "link" and [c.type for c in child.children] == ["image"]:
                pictures.append(child.children[0])
            elif child.type == "html_inline" and not child.content.startswith("<!--"):
                survey = _survey(child.content)
                if not survey.tags <= _LAYOUT_TAGS or survey.text:
                    return None
                pictures.extend(survey.images)
            elif child.type == "softbreak" or (
                child.type == "text" and not _IAL_RE.sub("", child.content).strip()
            ):
                if child.type == "text" and child.content.strip():
                    attributes.append(child.content)
            else:
                return None
        if not pictures:
            return None
        for text in attributes:
            self.text(text, line)  # reports the attribute lists it drops
        return [
            " ".join(
                self.html_picture(p, "", line)
                if isinstance(p, dict)
                else self.image(p, line, inline=False)
                for p in pictures
            )
        ]

    def html_picture(self, img: dict[str, str], caption: str, line: int | None) -> str:
        alt = img.get("alt", "") or caption
        return self.picture(img["src"], alt, img.get("title", ""), line, inline=False)

    # -- the top level -------------------------------------------------------------------

    def add(self, chunk: Chunk | None) -> None:
        self.chunks.append(chunk)

    def top(self, node: SyntaxTreeNode, meta: Callable[[str, int | None], None]) -> None:
        line = self.line_of(node)
        kind = node.type
        if kind == "front_matter":
            meta(node.content, line)
        elif kind == "heading":
            inline = node.children[0].children if node.children else []
            last = inline[-1] if inline else None
            if last is not None and last.type == "text" and last.token is not None:
                cut = _HEADING_ATTRS_RE.search(last.token.content)
                if cut:
                    self.drop(line, f"heading attributes {cut.group(0).strip()!r}")
                    last.token.content = last.token.content[: cut.start()]
            markdown = self.inline(inline, line).strip()
            plain = self.plain(inline)
            if markdown.endswith("#"):
                markdown = markdown[:-1] + "\\#"  # not a closing sequence
            if markdown:
                self.headings.append(
                    _Heading(len(self.chunks), int(node.tag[1:]), markdown, plain.strip(), line)
                )
                self.add(None)
        elif kind == "paragraph":
            figure = self.figure_paragraph(node, line)
            if figure is not None:
                self.add(Chunk("\n".join(figure), kind="figure", line=line))
                return
            if node.children:  # the inline token's content is the paragraph's source
                raw = node.children[0].content.split("\n")
                if _include_only(raw):
                    self.drop(
                        line,
                        f"include or MDX import {_excerpt(' '.join(x.strip() for x in raw))!r}",
                        "\n".join(raw),
                    )
                    return
            handled, template = self.template_paragraph(node, line)
            if handled:
                self.add(template)
                return
            lines = self.paragraph_lines(node, line)
            if lines:
                self.add(Chunk("\n".join(lines), line=line))
        elif kind in ("bullet_list", "ordered_list"):
            if self.is_toc(node):
                self.drop(line, "kramdown table-of-contents marker list", self.plain(node.children))
                return
            lines = self.list_lines(node)
            if any(x.strip() for x in lines):
                self.add(Chunk("\n".join(lines), line=line))
        elif kind in ("blockquote", "table"):
            lines = self.block(node)
            if lines:
                self.add(Chunk("\n".join(lines), line=line))
        elif kind in ("fence", "code_block", "math_block", "math_block_label"):
            self.add(Chunk("\n".join(self.block(node)), kind="verbatim", line=line))
        elif kind == "html_block" and _MARKDOWN_IN_HTML_RE.match(node.content):
            self.markdown_in_html(node, line, meta)
        elif kind == "html_block":
            unit = self.html_block(node, line)
            if unit:
                self.add(Chunk("\n".join(unit[1]), kind=unit[0], line=line))
        elif kind == "footnote_block":
            for footnote in node.children:
                self.footnote(footnote)
        elif kind == "hr":
            return
        else:
            for child in node.children:
                self.top(child, meta)

    def markdown_in_html(
        self, node: SyntaxTreeNode, line: int | None, meta: Callable[[str, int | None], None]
    ) -> None:
        """``<div markdown="1">`` (kramdown, md_in_html): the tags go, the content is Markdown,
        parsed again by markdown-it with its lines kept in place."""
        content = node.content
        opening = _MARKDOWN_IN_HTML_RE.match(content)
        assert opening is not None
        self.drop(line, f"HTML wrapper tag {_excerpt(opening.group(0))!r}")
        inner = content[opening.end() :]
        closing = re.search(r"</" + opening.group(1) + r">\s*$", inner)
        if closing:
            self.drop(line, f"HTML wrapper tag {closing.group(0).strip()!r}")
            inner = inner[: closing.start()]
        offset = (line or 1) - 1 + content[: opening.end()].count("\n")
        tree = SyntaxTreeNode(_parser().parse(inner, {}))
        saved, self.line_offset = self.line_offset, offset
        try:
            for child in tree.children:
                self.top(child, meta)
        finally:
            self.line_offset = saved

    def template_paragraph(
        self, node: SyntaxTreeNode, line: int | None
    ) -> tuple[bool, Chunk | None]:
        """A paragraph that is only template tags (Liquid includes, Hugo shortcodes): (True,
        a figure candidate or None when dropped); (False, None) for any other paragraph."""
        source = self.plain(node.children[0].children if node.children else [])
        if not source.strip() or _TEMPLATE_RE.sub("", source).strip():
            return False, None
        tags = _TEMPLATE_RE.findall(source)
        pictures = []
        for tag in tags:
            m = _TEMPLATE_IMAGE_RE.search(tag)
            if m:
                alt = ""
                for name in ("alt", "caption", "title"):
                    am = re.search(_TEMPLATE_ATTR_RE.format(name=name), tag)
                    if am:
                        alt = am.group(1) or am.group(2) or ""
                        break
                src = m.group(1) or m.group(2) or m.group(3) or ""
                pictures.append(self.picture(src, alt, "", line, inline=False))
            else:
                self.drop(line, f"template tag {_excerpt(tag)!r}", tag)
        if pictures:
            return True, Chunk(" ".join(pictures), kind="figure", line=line)
        return True, None

    def is_toc(self, node: SyntaxTreeNode) -> bool:
        if len(node.children) != 1:
            return False
        text = self.plain(node.children[0].children)
        return bool(_IAL_RE.search(text)) and (_IAL_RE.sub("", text).strip().lower() in _TOC_WORDS)

    @functools.cached_property
    def definitions(self) -> dict[str, list[int]]:
        """The (0-based) source lines where each footnote label is defined, found in one pass
        (a search of the whole source per footnote was quadratic in their number)."""
        found: dict[str, list[int]] = {}
        for i, text in enumerate(self.source_lines):
            if "[^" in text and (m := _FOOTNOTE_DEFINITION_RE.match(text)):
                found.setdefault(m.group(1), []).append(i)
        return found

    def footnote(self, node: SyntaxTreeNode) -> None:
        label = self.footnote_label(node.meta)
        raw = node.meta.get("label")
        starts = self.definitions.get(str(raw), []) if raw else []
        line = starts[0] + 1 if starts else None
        body = self.blocks(node.children)
        first = body[0] if body else ""
        rest = [("    " + x) if x else "" for x in body[1:]]
        self.add(
            Chunk("\n".join([f"[^{label}]: {first}".rstrip(), *rest]), kind="footnote", line=line)
        )

    def summarise_links(self) -> None:
        base = "give --base-url URL (where the original is published) to keep them as links"
        groups = [
            (self.links.site_absolute, "site-absolute link", base),
            (self.links.relative, "relative link", base),
            (self.links.anchors, "link to an anchor of the original", "check them"),
        ]
        for found, what, fix in groups:
            if found:
                shown = ", ".join(f"{href} (line {line})" for line, href in found[:5])
                more = f" and {len(found) - 5} more" if len(found) > 5 else ""
                what = what if len(found) == 1 else what.replace("link", "links", 1)
                self.warn(
                    found[0][0], f"{len(found)} {what} kept as plain text: {shown}{more}; {fix}"
                )
        if self.links.inline_html:
            shown = ", ".join(
                f"{_excerpt(tag)} (line {line})" for line, tag in self.links.inline_html[:5]
            )
            more = (
                f" and {len(self.links.inline_html) - 5} more"
                if len(self.links.inline_html) > 5
                else ""
            )
            self.warn(
                self.links.inline_html[0][0],
                f"{len(self.links.inline_html)} inline HTML tag"
                f"{'s' * (len(self.links.inline_html) != 1)} kept as literal text: {shown}{more}",
            )


def _target(url: str, title: str) -> str:
    """What goes between the parentheses of a Markdown link or image."""
    title = md_title(title)
    return md_url(url) + (f' "{title}"' if title else "")


def _excerpt(text: str, limit: int = 60) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _collect_slugs(tree: SyntaxTreeNode) -> dict[str, str]:
    """Anchors of the original → the ids its headings get in the article (Python-Markdown's
    default slugify; a kramdown ``{#id}`` names the same heading)."""
    slugs: dict[str, str] = {}
    for node in tree.walk():
        if node.type == "heading" and node.children:
            text = "".join(
                c.content for c in node.children[0].walk() if c.type in ("text", "code_inline")
            )
            slug = slugify(_HEADING_ATTRS_RE.sub("", text), "-")
            slugs.setdefault(slug, slug)
            m = re.search(r"\{#([\w-]+)[^}]*\}\s*$", text)
            if m:
                slugs.setdefault(m.group(1), slug)
    return slugs


def footnote_prefix(article_text: str) -> str:
    """A footnote label prefix the article does not use yet: ``orig``, then ``orig2``, …"""
    n = 1
    while f"[^{'orig' if n == 1 else f'orig{n}'}-" in article_text:
        n += 1
    return "orig" if n == 1 else f"orig{n}"


def parse_markdown(
    text: str, *, base_url: str | None = None, prefix: str = "orig", name: str = ""
) -> Original:
    """Read a Markdown original (see the module docstring); never raises on any text.

    ``base_url`` is where the original is published (its links and images are resolved
    against it), ``prefix`` namespaces its footnote labels, ``name`` is its file name (a
    Jekyll post's ``YYYY-MM-DD-`` prefix is its date when the front matter gives none).
    """
    source, toml, toml_line, prepared = _prepare(text)
    longest = max(map(len, _BLANK_LINES_RE.split(source)), default=0)
    md = _parser(autolink=longest <= AUTOLINK_MAX_PARAGRAPH)
    env: dict[str, Any] = {}
    tokens = md.parse(source, env)
    tree = SyntaxTreeNode(tokens)
    conv = _Converter(source, base_url, prefix)
    conv.slugs = _collect_slugs(tree)
    if longest > AUTOLINK_MAX_PARAGRAPH:
        conv.warn(
            None,
            f"a paragraph of {longest // 1024:,} KB: bare URLs (not written as links) are left "
            "as text in the whole original",
        )
    for at, message, dropped in prepared:
        conv.drop(at, message, dropped)
    front: dict[str, Any] = {}

    def meta(content: str, line: int | None) -> None:
        try:
            data, _node = load_yaml(content)  # the one bounded loader (depth, aliases, size)
        except InputError as exc:
            conv.warn(line, f"front matter is not YAML ({_excerpt(exc.message)}); ignored")
            return
        if isinstance(data, dict):
            front.update({str(k): v for k, v in data.items()})
        elif data is not None:
            conv.warn(line, "front matter is not a mapping; ignored")

    if toml is not None:
        try:
            # tomllib from Python 3.11; tomli (the same parser) on 3.10 if it is installed
            toml_module = importlib.import_module(
                "tomllib" if sys.version_info >= (3, 11) else "tomli"
            )
        except ImportError:
            conv.warn(toml_line, "TOML front matter needs Python 3.11 (or tomli); ignored")
        else:
            try:
                front.update(toml_module.loads(toml))
            except ValueError as exc:  # TOMLDecodeError is a ValueError
                conv.warn(toml_line, f"front matter is not TOML ({_excerpt(str(exc))}); ignored")

    for node in tree.children:
        conv.top(node, meta)
    _unreferenced_footnotes(conv, env)
    title = _text(front.get("title"))
    _place_headings(conv, title)
    title = title or conv.title_from_h1
    conv.summarise_links()
    paper: dict[str, Any] = {}
    if title:
        paper["title"] = title
    authors = _authors(front.get("authors", front.get("author")))
    if authors:
        paper["authors"] = authors
    url = _source_url(front, base_url)
    if url:
        paper["url"] = url
    extra: dict[str, Any] = {}
    date = front.get("date")
    if isinstance(date, dt.datetime):
        extra["date"] = date.date()
    elif isinstance(date, dt.date):
        extra["date"] = date
    else:
        named = _DATE_RE.match(date.strip() if isinstance(date, str) else name)
        if named:
            try:
                extra["date"] = dt.date.fromisoformat(named.group(0))
            except ValueError:
                conv.warn(None, f"date {named.group(0)!r} is not a calendar date; ignored")
    chunks = [c for c in conv.chunks if c is not None]
    conv.notes.sort(key=lambda n: n.line or 0)  # the report reads in the original's order
    return Original(chunks, title=title, paper=paper, meta=extra, notes=conv.notes)


def _unreferenced_footnotes(conv: _Converter, env: dict[str, Any]) -> None:
    """markdown-it leaves out footnote definitions that nothing refers to, and all but the
    last definition of a label: report them (found by their first line in the source)."""
    refs = env.get("footnotes", {}).get("refs", {})
    lines = conv.source_lines
    definition = _FOOTNOTE_DEFINITION_RE
    for key, number in refs.items():
        label = str(key)[1:]
        starts = conv.definitions.get(label, [])
        extra = starts if number < 0 else starts[:-1]  # the last definition wins
        for start in extra:
            end = start + 1
            while end < len(lines) and lines[end].strip() and not definition.match(lines[end]):
                end += 1
            while end < len(lines) and (not lines[end].strip() or lines[end].startswith("    ")):
                end += 1  # indented continuation paragraphs
            text = "\n".join(lines[start:end]).strip()
            why = "is never referenced" if number < 0 else "is defined again later"
            conv.drop(start + 1, f"footnote [^{label}] {why} {_excerpt(text)!r}", text)


def _source_url(front: dict[str, Any], base_url: str | None) -> str | None:
    # (not Jekyll's `link:`, the target of a link post, nor `source:`, often a file)
    for key in ("canonical_url", "canonical", "original_url", "source_url", "url", "permalink"):
        value = _text(front.get(key))
        if not value:
            continue
        if re.match(r"^https?://", value):
            return value
        if base_url and value.startswith("/"):
            return urljoin(base_url, value)
    if base_url and re.match(r"^https?://", base_url):
        return base_url
    return None


def _place_headings(conv: _Converter, title: str | None) -> None:
    """The single leading h1 becomes the title; the rest shift so the highest is ``##``."""
    headings = conv.headings
    h1 = [h for h in headings if h.level == 1]
    if len(h1) == 1 and headings[0] is h1[0]:
        first = h1[0]
        headings = headings[1:]
        if title is None:
            conv.title_from_h1 = first.plain
        elif first.plain.casefold() != title.casefold():
            conv.warn(
                first.line,
                f"h1 {first.plain!r} differs from the front matter title "
                f"{title!r}; the title is kept, the h1 dropped",
            )
    if not headings:
        return
    shift = 2 - min(h.level for h in headings)
    for h in headings:
        level = min(6, h.level + shift)
        conv.chunks[h.index] = Chunk(h.markdown, level, kind="heading", line=h.line)


__all__ = ["SAFE_SCHEMES", "footnote_prefix", "parse_markdown"]
