"""The importers' escaping, kept under its old names for the PDF importer: every function is
:mod:`duizhao.escape`'s (one escaper per context; see there)."""

from __future__ import annotations

from functools import partial

from ..escape import (
    fence_for,
    markdown_code_span,
    markdown_fence,
    markdown_href,
    markdown_link_title,
    markdown_text,
    protect_line_start,
)

#: Running text of a line (``table=True`` for a pipe table's cell).
md_text = partial(markdown_text, table=False, inline=True)
md_code_span = markdown_code_span
md_fence = markdown_fence
md_url = markdown_href
md_title = markdown_link_title

__all__ = [
    "fence_for",
    "md_code_span",
    "md_fence",
    "md_text",
    "md_title",
    "md_url",
    "protect_line_start",
]
