"""Social previews: Open Graph and Twitter card tags, with the description taken from the 导言.

Pure: no MkDocs import. Link previews (WeChat, Slack, X, …) read these tags from ``<head>``.
Every value goes through :func:`duizhao.escape.html_attr`; a description made by
:func:`duizhao.escape.meta_content` is ``Markup`` already and is not escaped again.
"""

from __future__ import annotations

from .escape import html_attr


def meta_tags(
    *,
    title: str,
    description: str | None,
    url: str | None,
    site_name: str,
    is_article: bool,
    locale: str = "zh_CN",
) -> str:
    """``<meta>`` lines for ``<head>`` (every value attribute-escaped once)."""
    tags = [
        ("og:type", "article" if is_article else "website"),
        ("og:title", title),
        ("og:site_name", site_name),
        ("og:locale", locale),
    ]
    if description:
        tags.append(("og:description", description))
    if url:
        tags.append(("og:url", url))
    lines = [f'<meta property="{name}" content="{html_attr(value)}">' for name, value in tags]
    lines.append('<meta name="twitter:card" content="summary">')
    return "\n".join(lines) + "\n"


def insert_head(page_html: str, tags: str) -> str:
    """``tags`` just before ``</head>``."""
    at = page_html.find("</head>")
    return page_html if at < 0 else page_html[:at] + tags + page_html[at:]
