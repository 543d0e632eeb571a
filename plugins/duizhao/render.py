"""The render feature: duizhao's Python-Markdown extension in the build, told about each page."""

from __future__ import annotations

import posixpath
from functools import partial
from urllib.parse import unquote, urlsplit

from mkdocs.structure.pages import Page

from .build import Build
from .features import Feature
from .markdown import DuizhaoExtension, FigureRenderer


class RenderFeature(Feature):
    def __init__(self, figure_renderer: FigureRenderer | None, search_exclude: bool) -> None:
        self.figure_renderer = figure_renderer
        self.search_exclude = search_exclude
        self.extension: DuizhaoExtension | None = None

    def on_config(self, build: Build) -> None:
        # With Material's search, each numbered paragraph is indexed once: as its own entry
        # (the search feature adds it), so Material's section entries leave it out.
        material = build.config.plugins.get("material/search") is not None
        self.extension = DuizhaoExtension(
            figure_renderer=self.figure_renderer or "",
            search_exclude=self.search_exclude and material,
        )
        build.config.markdown_extensions.append(self.extension)  # type: ignore[arg-type]

    def on_page_markdown(self, build: Build, markdown: str, page: Page) -> str:
        if self.extension is not None:
            uri = page.file.src_uri
            self.extension.stale = build.stale.get(uri, frozenset())
            self.extension.previous = build.previous.get(uri, {})
            self.extension.aliases = build.aliases.get(uri, {})
            self.extension.link_anchors = partial(duizhao_anchors, build, page.file.src_uri)
        return markdown


def duizhao_anchors(build: Build, src_uri: str, path: str) -> frozenset[str]:
    """The anchors duizhao emits on the page that ``path`` (a link's path, relative to the
    page ``src_uri``; "" for that page itself) names: none on a page that is not an article."""
    if path:
        parts = urlsplit(path)
        if parts.scheme or parts.netloc:
            return frozenset()
        # a path from the docs root ("/papers/a.md", as the checks read it) or from the page
        base = "" if parts.path.startswith("/") else posixpath.dirname(src_uri)
        target = posixpath.normpath(posixpath.join(base, unquote(parts.path).lstrip("/")))
    else:
        target = src_uri
    article = build.articles.get(target)
    return article.anchors if article is not None and article.is_article else frozenset()
