"""The one place that adds duizhao's files and markup to a rendered page outside its content.

A feature publishes its static files with :func:`publish` (only when some page needs them) and
links them from the pages that use them: stylesheets in ``<head>`` (Material's instant
navigation adds and removes head elements as pages change), scripts at the end of the page's
content (instant navigation runs the scripts of the content it swaps in, before it announces
the new page on ``document$``). Every URL is relative to the page, as MkDocs writes its own.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from markupsafe import escape
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

#: duizhao's own assets (CSS/JS) in the package, and where every duizhao file lands in the site
ASSETS = Path(__file__).parent / "assets"
ASSET_PREFIX = "assets/duizhao"


def publish(
    files: Files, config: MkDocsConfig, uri: str, source: Path, content: str | None = None
) -> None:
    """Copy ``source`` into the site at ``assets/duizhao/<uri>`` (once); with ``content``,
    write that instead (made from ``source``)."""
    src_uri = f"{ASSET_PREFIX}/{uri}"
    if files.get_file_from_path(src_uri) is None:
        if content is not None:
            files.append(File.generated(config, src_uri, content=content))
        else:
            files.append(File.generated(config, src_uri, abs_src_path=os.fspath(source)))


def url(page: Page, uri: str) -> str:
    """The URL of ``assets/duizhao/<uri>`` as written in ``page``."""
    return get_relative_url(f"{ASSET_PREFIX}/{uri}", page.url)


def stylesheets(page: Page, uris: Iterable[str]) -> str:
    return "".join(f'<link rel="stylesheet" href="{escape(url(page, u))}">' for u in uris)


def scripts(page: Page, uris: Iterable[str], module: bool = False) -> str:
    kind = ' type="module"' if module else ""
    return "".join(f'<script src="{escape(url(page, u))}"{kind}></script>' for u in uris)


def inject_head(html: str, snippet: str) -> str:
    """Insert ``snippet`` right before ``</head>`` (once); a page without a head is unchanged."""
    if not snippet or snippet in html:
        return html
    at = html.find("</head>")
    if at < 0:
        return html
    return html[:at] + snippet + html[at:]
