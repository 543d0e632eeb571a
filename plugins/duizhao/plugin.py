"""The MkDocs plugin: dispatches MkDocs events to duizhao's features, and owns nothing else.

The features (:mod:`duizhao.features`) are made once per ``mkdocs serve`` session (or build),
in the order their events must run; each build gets a new :class:`~duizhao.build.Build`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from .articles import ArticlesFeature
from .build import Build
from .config import DuizhaoConfig
from .dirty import DirtyFeature
from .features import Feature
from .figures.feature import FiguresFeature
from .memo import TemplatesFeature
from .pages import GeneratedPages
from .progress.feature import ProgressFeature
from .project import Project
from .reader.feature import ReaderFeature
from .render import RenderFeature
from .search.feature import SearchFeature
from .search.pagefind_feature import PagefindFeature
from .sidecars import is_sidecar
from .site.feature import SiteFeature
from .terms.feature import GlossaryFeature
from .watch import WatchFeature

log = get_plugin_logger(__name__)


class DuizhaoPlugin(BasePlugin[DuizhaoConfig]):
    """Renders paragraph and figure blocks and reports duizhao's diagnostics during a build."""

    def __init__(self) -> None:
        self.features: list[Feature] = []
        self.build: Build | None = None
        self.command = "build"
        self.dirty = False
        #: the options the features were made with (new options: new features)
        self._made_with: str | None = None

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        """Defined so that MkDocs keeps this instance across `mkdocs serve` rebuilds."""
        self.command, self.dirty = command, dirty
        self._made_with = None  # a new session starts without what the last one knew

    def _make_features(self, project: Project) -> list[Feature]:
        options = self.config
        vendor = project.root / options.vendor_dir
        figures = FiguresFeature(options.figures, vendor)
        features: list[Feature] = [
            ArticlesFeature(options.checks, project),
            SiteFeature(options.site),
            figures,
            ProgressFeature(project.lock_path, options.progress_page),
            GlossaryFeature(project.root / "glossary.yml", options.glossary_page),
            RenderFeature(
                figures.render, options.paragraph_search and options.search == "material"
            ),
            ReaderFeature(options.assets, vendor, options.math, options.mermaid),
            (
                PagefindFeature(
                    background=self.command == "serve",
                    cache_dir=project.root / options.cache_dir / "search",
                )
                if options.search == "pagefind"
                else SearchFeature(options.paragraph_search)
            ),
        ]
        if self.command == "serve":
            features.append(TemplatesFeature())
            if options.serve_poll_interval is not None:  # first: before anything is watched
                features.insert(0, WatchFeature(options.serve_poll_interval))
        return [*features, DirtyFeature(features)]

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        self.build = None
        if not self.config.enabled:
            return config
        root = Path(config.config_file_path or ".").parent
        project = Project.from_options(root, config.docs_dir, self.config)
        made_with = repr((project, sorted(self.config.items())))
        if made_with != self._made_with:
            self.features = self._make_features(project)
            self._made_with = made_with
        self.build = Build(
            config=config,
            root=root,
            docs_dir=Path(config.docs_dir),
            dirty=self.dirty,
            pages=GeneratedPages(root / self.config.cache_dir / "pages"),
            warn=log.warning,
            sections=project.sections,
        )
        for feature in self.features:
            feature.on_config(self.build)
        return config

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files | None:
        if self.build is None:
            pages = {file.src_uri for file in files.documentation_pages()}
            for file in list(files):
                if is_sidecar(file.src_uri, pages):
                    files.remove(file)  # duizhao's source, even while duizhao is off
            return files
        for feature in self.features:
            feature.on_files(self.build, files)
        return files

    def on_nav(self, nav: Navigation, /, *, config: MkDocsConfig, files: Files) -> None:
        if self.build is not None:
            for feature in self.features:
                feature.on_nav(self.build, nav, files)

    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if self.build is not None:
            for feature in self.features:
                markdown = feature.on_page_markdown(self.build, markdown, page)
        return markdown

    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if self.build is not None:
            for feature in self.features:
                html = feature.on_page_content(self.build, html, page)
        return html

    @event_priority(-100)  # after the search plugins (priority 0) have read page.content
    def on_page_context(
        self, context: Any, /, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> Any:
        if self.build is not None:
            for feature in self.features:
                feature.on_page_context(self.build, page)
        return context

    def on_env(self, env: Any, /, *, config: MkDocsConfig, files: Files) -> Any:
        if self.build is not None:
            for feature in self.features:
                feature.on_env(self.build, env, files)
        return env

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str | None:
        if self.build is not None:
            for feature in self.features:
                output = feature.on_post_page(self.build, output, page)
        return output

    @event_priority(-50)  # after the search plugins have written their index
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if self.build is not None:
            for feature in self.features:
                feature.on_post_build(self.build)

    def on_build_error(self, *, error: Exception) -> None:
        if self.build is not None:
            for feature in self.features:
                feature.on_build_error(self.build)

    @event_priority(100)  # first: serve_poll_interval may give MkDocs another server
    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Any
    ) -> LiveReloadServer | None:
        if self.build is not None:
            for feature in self.features:
                server = feature.on_serve(self.build, server) or server
        return server
