"""The MkDocs plugin: thin glue between MkDocs events and duizhao's pure core."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from .article import Article, parse, read_article
from .checks import Corpus, check_corpus
from .diagnostics import Diagnostic
from .figures_plugin import FigureBuild, FiguresConfig
from .markdown import DuizhaoExtension

log = get_plugin_logger(__name__)

ASSETS = Path(__file__).parent / "assets"
#: Where the reader assets land in the site.
ASSET_PREFIX = "assets/duizhao"
STYLESHEETS = ("duizhao.css",)


class DuizhaoConfig(Config):
    enabled = c.Type(bool, default=True)
    """Turn the whole plugin off; blocks are then left as plain text."""

    checks = c.Type(bool, default=True)
    """Log every diagnostic of `duizhao check` as a warning, so `mkdocs build --strict` fails."""

    assets = c.Type(bool, default=True)
    """Add duizhao's reader stylesheet to the site (turn off to style the blocks yourself)."""

    figures = c.SubConfig(FiguresConfig)
    """Figures cropped from the paper: cache, encoding, lightbox, gallery and index page."""


class DuizhaoPlugin(BasePlugin[DuizhaoConfig]):
    """Renders paragraph and figure blocks and reports duizhao's diagnostics during a build."""

    def __init__(self) -> None:
        self.articles: dict[str, Article] = {}
        self.diagnostics: list[Diagnostic] = []
        self.figures: FigureBuild | None = None
        #: figure signature of each page at the previous build (kept across `mkdocs serve`)
        self.figure_signatures: dict[str, str] = {}

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Defined so that MkDocs keeps this instance across `mkdocs serve` rebuilds."""

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        self.articles = {}
        self.diagnostics = []
        self.figures = FigureBuild(self.config.figures, config)
        if not self.config.enabled:
            return config
        self.figures.on_config(config)
        config.markdown_extensions.append(
            DuizhaoExtension(figure_renderer=self.figures.render)  # type: ignore[arg-type]
        )
        if self.config.assets:
            for name in STYLESHEETS:
                uri = f"{ASSET_PREFIX}/{name}"
                if uri not in config.extra_css:
                    config.extra_css.insert(0, uri)
        return config

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files | None:
        if not self.config.enabled:
            return files
        if self.config.assets:
            for name in STYLESHEETS:
                files.append(
                    File.generated(
                        config, f"{ASSET_PREFIX}/{name}", abs_src_path=str(ASSETS / name)
                    )
                )
        for file in files.documentation_pages():
            self.articles[file.src_uri] = self._read(file, config)
        assert self.figures is not None
        if self.config.checks:
            corpus = Corpus(Path(config.docs_dir), figures=self.figures.catalog)
            self.diagnostics = check_corpus(self.articles.values(), corpus)
            for diagnostic in self.diagnostics:
                log.warning(diagnostic.format())
        self.figure_signatures = self.figures.on_files(
            files, self.articles, config, self.figure_signatures
        )
        return files

    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if self.figures is not None:
            self.figures.page = page  # the figure renderer runs next, for this page
        return markdown

    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if self.figures is None or not self.config.enabled:
            return html
        return self.figures.on_page_content(html, page)

    def on_env(self, env: Any, /, *, config: MkDocsConfig, files: Files) -> Any:
        if self.figures is not None:
            self.figures.on_env(files)
        return env

    def on_build_error(self, *, error: Exception) -> None:
        if self.figures is not None:
            self.figures.abort()

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Any
    ) -> LiveReloadServer | None:
        if self.figures is not None and self.config.enabled:
            self.figures.on_serve(server, config)
        return server

    @staticmethod
    def _read(file: File, config: MkDocsConfig) -> Article:
        """Parse a page as the author wrote it (with its front matter, for true line numbers)."""
        if file.abs_src_path and not file.generated_by:
            return read_article(file.abs_src_path)
        return parse(file.content_string, Path(config.docs_dir) / file.src_uri)
