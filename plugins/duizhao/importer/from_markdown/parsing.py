"""The markdown-it-py parser for an original, with the mdit-py-plugins its dialects need.

Every dialect's syntax is read by markdown-it-py or one of mdit-py-plugins' own plugins (none
is written here): CommonMark with GFM tables, strikethrough and alerts; front matter,
footnotes, dollar math and GFM autolinks for all; ``:::`` colon fences (MyST directives,
Docusaurus admonitions, Pandoc divs), ``!!!`` admonitions and pymdownx ``///`` blocks for all
(a line that opens one is no prose in any dialect); MyST roles, targets, comments, field
lists, definition lists and amsmath for MyST; attributes (``{#id .class}``) and definition
lists for Pandoc's Markdown (Quarto, R Markdown).
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_core.state_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.admon import admon_plugin
from mdit_py_plugins.amsmath import amsmath_plugin
from mdit_py_plugins.attrs import attrs_plugin
from mdit_py_plugins.colon_fence import colon_fence_plugin
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.field_list import fieldlist_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from mdit_py_plugins.gfm_autolink import gfm_autolink_plugin
from mdit_py_plugins.myst_blocks import myst_block_plugin
from mdit_py_plugins.myst_role import myst_role_plugin

from ...nesting import MAX_MARKDOWN_DEPTH
from .dialects import MYST, Dialects

#: The token name of a pymdownx block (``/// note | Title`` … ``///``).
BLOCKS = "container_blocks"
#: An inline run (a paragraph, a heading, a table cell) with more positions than this at which
#: markdown-it's inline rules start (its terminator characters: ``*_~`[]$<>&\!#:-…``) is read
#: as text, every character shown as written (reported, see :data:`AS_TEXT`). markdown-it-py
#: spends about 7 µs a position trying its rules and making tokens, and the importer 3 µs more
#: on the tokens: 160 KB of emphasis markers nested around brackets or backticks took 1.2-1.5
#: s. A paragraph of real prose has a few hundred such positions (hyphens, colons, markup); a
#: run just under this many takes 0.22-0.30 s (the same kinds, measured at load 10).
MAX_INLINE_MARKUP = 20_000
#: markdown-it's nesting limit (its ``maxNesting``: a level per quote, per list and per list
#: item, past which it skips the rest of the container, unreported). Lines nested past
#: :data:`~duizhao.nesting.MAX_MARKDOWN_DEPTH` are text before parsing (prepare.py); a list
#: takes up to four of these levels per level of that depth (two per list marker, one marker
#: per two columns of indentation), so what is left parses whole.
MAX_PARSE_LEVELS = 4 * MAX_MARKDOWN_DEPTH + 8
#: ``env`` key of the runs read as text: ``[(first line (0-based) or None, positions)]``;
#: also the ``meta`` key of the one text token such a run becomes
AS_TEXT = "duizhao_as_text"


def _inline(state: StateCore) -> None:
    """markdown-it's core ``inline`` rule, but a run with more than
    :data:`MAX_INLINE_MARKUP` rule positions becomes one text token (see there)."""
    inline = state.md.inline
    for token in state.tokens:
        if token.type != "inline":
            continue
        if token.children is None:
            token.children = []
        content = token.content
        if len(content) > MAX_INLINE_MARKUP:
            positions = len(inline.terminator_re.findall(content))  # (in C: 40% less time)
            if positions > MAX_INLINE_MARKUP:
                text = Token("text", "", 0)
                text.content = content
                text.meta = {AS_TEXT: True}  # (written with escape.markdown_literal)
                token.children.append(text)
                line = token.map[0] if token.map else None
                state.env.setdefault(AS_TEXT, []).append((line, positions))
                continue
        inline.parse(content, state.md, state.env, token.children)


def _any_block(params: str, *_args: object) -> bool:
    """pymdownx blocks: ``/// name`` or ``/// name | Title``, any name."""
    name = params.strip().split("|", 1)[0].strip()
    return bool(name) and name.replace("-", "").replace("_", "").isalnum()


def make_parser(dialects: Dialects, *, autolink: bool = True) -> MarkdownIt:
    md = MarkdownIt(
        "commonmark",
        {"html": True, "linkify": False, "alerts": True, "maxNesting": MAX_PARSE_LEVELS},
    )
    md.enable(["table", "strikethrough"])
    md.use(front_matter_plugin).use(footnote_plugin)
    if autolink:
        md.use(gfm_autolink_plugin)
    # $…$ and $$…$$ stay TeX; "$5 and $10" is no math (no digit or space inside the dollars).
    md.use(dollarmath_plugin, allow_space=False, allow_digits=False, double_inline=True)
    md.use(colon_fence_plugin).use(admon_plugin)
    md.use(container_plugin, name="blocks", marker="/", validate=_any_block)
    if MYST in dialects:
        md.use(myst_role_plugin).use(myst_block_plugin).use(fieldlist_plugin)
        md.use(deflist_plugin).use(amsmath_plugin)
    if dialects.pandoc or MYST in dialects:
        # (an image's, a link's or a code span's {width=50%}, and [text]{.class} spans)
        md.use(attrs_plugin, spans=True)
    if dialects.pandoc:
        md.use(deflist_plugin)
    md.core.ruler.at("inline", _inline)
    return md
