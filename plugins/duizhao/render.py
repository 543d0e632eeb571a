"""The render feature: duizhao's Python-Markdown extension in the build, told about each page."""

from __future__ import annotations

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
            self.extension.stale = build.stale.get(page.file.src_uri, frozenset())
        return markdown
