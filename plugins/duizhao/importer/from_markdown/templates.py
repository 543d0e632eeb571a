"""Template languages inside Markdown (Liquid, Hugo and Quarto shortcodes), include lines
(pymdownx.snippets, FastAPI, markdown-include) and MDX's ESM lines: what they say, read
without backtracking (every repetition is bounded)."""

from __future__ import annotations

import re
from collections.abc import Sequence

#: A template tag: Liquid ``{% … %}``, a shortcode ``{{< … >}}``/``{{% … %}}``, output
#: ``{{ … }}``; a tag longer than this is no tag of a real page.
TEMPLATE_RE = re.compile(
    r"\{%-?.{0,2000}?-?%\}|\{\{[<%].{0,2000}?[>%]\}\}|\{\{.{0,2000}?\}\}", re.DOTALL
)
#: An argument of a shortcode or include whose value is an image file: ``src=``, Istio's
#: ``link=``, a positional ``"x.png"``; the first such value is the picture. A key starts only
#: where a word starts and every run is bounded, so a tag of any length is read in linear time.
TEMPLATE_IMAGE_RE = re.compile(
    r"(?:(?<![\w-])[\w-]{1,64}\s{0,8}=\s{0,8}|\s)"
    r"(?:\"([^\"]{0,1024}\.(?:png|jpe?g|gif|svg|webp|avif))\""
    r"|'([^']{0,1024}\.(?:png|jpe?g|gif|svg|webp|avif))'"
    r"|([^\s\"'>%}]{1,1024}\.(?:png|jpe?g|gif|svg|webp|avif)))"
    r"(?=[\s>%}]|$)",
    re.IGNORECASE,
)
#: Liquid output that is surely Liquid: a filter, or one of Jekyll's variables.
LIQUID_OUTPUT_RE = re.compile(
    r"^\{\{-?\s{0,8}(?:(?:site|page|include|layout|paginator|jekyll|post)\b|[^}|]{0,500}\|\s{0,8}\w)"
)
LIQUID_URL_PREFIX_RE = re.compile(
    r"^(?:\{\{-?\s{0,8}(?:site\.url|site\.baseurl|base_path|site\.base_url|\.Site\.BaseURL)"
    r"\s{0,8}-?\}\}\s{0,8}){1,4}"
)
#: A paragraph that only includes another file: pymdownx.snippets (``--8<-- "x.md"``, also
#: as a block of paths between two ``--8<--``), FastAPI's ``{* ../x.py hl[3] *}``,
#: markdown-include's ``{!x.md!}``, and MDX's ESM ``import``/``export`` lines. The included
#: text is not in the original: such a paragraph is dropped and reported, never translated.
_INCLUDE_LINE_RE = re.compile(r";?--8<--\s{1,8}\S.{0,2000}|\{\*.{0,2000}\*\}|\{!.{0,2000}!\}")
_SNIPPET_BLOCK_RE = re.compile(r";?--8<--\s{0,8}")
_ESM_EXPORT_RE = re.compile(r"export(?:\s{1,8}(?:default|const|let|function|async)\b|\s{0,8}\{)")
#: What an ``import`` binds before ``from``: names, ``* as x``, ``{ a, b as c }``.
_ESM_BINDINGS_RE = re.compile(r"[\w*{}\s,$]{1,2000}")
#: The module an ``import`` line ends with: a quoted specifier, an optional ``;``.
_ESM_SPECIFIER_RE = re.compile(r"\s{0,8}(?:\"[^\"\n]{1,500}\"|'[^'\n]{1,500}');?")
_ATTRIBUTE_RES = {
    name: re.compile(r"\b" + name + r"\s{0,8}=\s{0,8}(?:\"([^\"]{0,1000})\"|'([^']{0,1000})')")
    for name in ("alt", "caption", "title", "text", "term_id")
}


def template_attribute(tag: str, name: str) -> str | None:
    """The quoted value of ``name=`` in a template tag, if any."""
    m = _ATTRIBUTE_RES[name].search(tag)
    return (m.group(1) if m.group(1) is not None else m.group(2)) if m else None


def is_esm(text: str) -> bool:
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


def include_only(lines: Sequence[str]) -> bool:
    """Whether these source lines only include other files (snippets, includes, ESM)."""
    in_block = False
    for line in lines:
        text = line.strip()
        if _SNIPPET_BLOCK_RE.fullmatch(text):
            in_block = not in_block
        elif not (in_block or _INCLUDE_LINE_RE.fullmatch(text) or is_esm(text)):
            return False
    return bool(lines)


def shortcode_words(tag: str) -> str | None:
    """The words an inline shortcode shows: its ``text=``, else its ``term_id=`` (Hugo's
    glossary_tooltip and the like)."""
    said = template_attribute(tag, "text")
    if said:
        return said
    term = template_attribute(tag, "term_id")
    return term.replace("-", " ") if term else None
