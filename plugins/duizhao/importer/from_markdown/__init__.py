"""A Markdown original, in any dialect real projects publish in → :class:`~..model.Original`.

The original is parsed by markdown-it-py with mdit-py-plugins' own plugins for the dialects
found in it (:mod:`.dialects`, :mod:`.parsing`), and its *tokens* are mapped to units;
nothing here splits Markdown blocks by hand. Every piece of author text reaches the article
through :mod:`duizhao.escape`: text escaped for Markdown, raw HTML through the sanitiser.

- :mod:`.prepare`: line-preserving passes before parsing (TOML front matter, Liquid and
  Hugo code tags, pymdownx tabs);
- :mod:`.front`: front matter → title, ``paper:``, date;
- :mod:`.inline`, :mod:`.links`: inline content, MyST roles, links and images;
- :mod:`.html`: inline HTML and HTML blocks, MDX components;
- :mod:`.blocks`: paragraphs, figures and captions, lists, tables, definition lists;
- :mod:`.containers`: admonitions, alerts, MyST directives, Pandoc divs, R/Quarto chunks;
- :mod:`.converter`: the dispatch by token type, headings, footnotes.

What becomes what is the README's table ("Import an original").
"""

from __future__ import annotations

import re
from typing import Any

from ..model import Original
from .converter import Converter
from .dialects import Dialects, detect
from .front import date_of, paper_fields, read_toml, read_yaml, text_value
from .links import SAFE_SCHEMES
from .prepare import prepare

#: The longest run of text between blank lines (a bound on a paragraph's length) whose bare
#: URLs are linked: mdit-py-plugins' gfm_autolink searches the whole pending text at every
#: ':' (0.8 s at 20 KB, 12 s at 80 KB of "[x]: y" runs). A longer paragraph is no prose of a
#: real post; its URLs stay text (reported) and the rest is read in linear time.
AUTOLINK_MAX_PARAGRAPH = 16 * 1024
_BLANK_LINES_RE = re.compile(r"\n[ \t]*\n")
_YAML_FRONT_RE = re.compile(r"^---[ \t]*\n")


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
    against it), ``prefix`` namespaces its footnote labels, ``name`` is its file name (its
    suffix tells some dialects; a Jekyll post's ``YYYY-MM-DD-`` prefix is its date when the
    front matter gives none).
    """
    prepared = prepare(text)
    source = prepared.text
    dialects = detect(source, name, _front_matter(source))
    longest = max(map(len, _BLANK_LINES_RE.split(source)), default=0)
    conv = Converter(source, base_url, prefix, dialects, autolink=longest <= AUTOLINK_MAX_PARAGRAPH)
    env: dict[str, Any] = {}
    tree = conv.parse_tree(source, env)
    conv.collect_slugs(tree)
    if longest > AUTOLINK_MAX_PARAGRAPH:
        conv.warn(
            None,
            f"a paragraph of {longest // 1024:,} KB: bare URLs (not written as links) are left "
            "as text in the whole original",
        )
    for at, message, dropped in prepared.notes:
        conv.drop(at, message, dropped)
    for at, message in prepared.warnings:
        conv.warn(at, message)
    if prepared.toml is not None:
        conv.front.update(read_toml(prepared.toml, prepared.toml_line, conv.warn))
    labels = list(prepared.labels)
    for node in tree.children:
        at = conv.line_of(node) or 0
        while labels and labels[0][0] < at:  # a pymdownx tab's label, where it stood
            conv.emit(conv.label(labels.pop(0)[1], at))
        conv.emit(conv.units(node))
    for at, label in labels:
        conv.emit(conv.label(label, at))
    conv.unreferenced_footnotes(env)
    front = conv.front
    title = text_value(front.get("title"))
    conv.place_headings(title)
    title = title or conv.title_from_h1
    conv.summarise_links()
    paper = paper_fields(front, title, base_url)
    extra = date_of(front, name, conv.warn)
    chunks = [c for c in conv.chunks if c is not None]
    conv.notes.sort(key=lambda n: n.line or 0)  # the report reads in the original's order
    return Original(
        chunks, title=title, paper=paper, meta=extra, notes=conv.notes, dialects=dialects.describe()
    )


def _front_matter(source: str) -> dict[str, Any]:
    """The YAML front matter, read only to tell the dialect (errors are reported later)."""
    if not _YAML_FRONT_RE.match(source):
        return {}
    end = source.find("\n---", 4)
    if end < 0:
        return {}
    return read_yaml(source[4:end], None, lambda _line, _message: None)


__all__ = [
    "AUTOLINK_MAX_PARAGRAPH",
    "SAFE_SCHEMES",
    "Dialects",
    "footnote_prefix",
    "parse_markdown",
]
