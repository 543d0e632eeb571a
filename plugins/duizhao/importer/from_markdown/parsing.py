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

from .dialects import MYST, Dialects

#: The token name of a pymdownx block (``/// note | Title`` … ``///``).
BLOCKS = "container_blocks"


def _any_block(params: str, *_args: object) -> bool:
    """pymdownx blocks: ``/// name`` or ``/// name | Title``, any name."""
    name = params.strip().split("|", 1)[0].strip()
    return bool(name) and name.replace("-", "").replace("_", "").isalnum()


def make_parser(dialects: Dialects, *, autolink: bool = True) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True, "linkify": False, "alerts": True})
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
    return md
