"""The MkDocs plugin: thin glue between MkDocs events and duizhao's pure core."""

from __future__ import annotations

from pathlib import Path

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import BasePlugin, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from .article import Article, parse
from .cache import ParseCache
from .checks import Corpus, check_corpus
from .diagnostics import Diagnostic
from .markdown import DuizhaoExtension
from .sitefeature import SiteConfig, SiteFeature

log = get_plugin_logger(__name__)

ASSETS = Path(__file__).parent / "assets"
#: Where the reader assets land in the site.
ASSET_PREFIX = "assets/duizhao"
STYLESHEETS = ("duizhao.css", "site.css")


class DuizhaoConfig(Config):
    enabled = c.Type(bool, default=True)
    """Turn the whole plugin off; blocks are then left as plain text."""

    checks = c.Type(bool, default=True)
    """Log every diagnostic of `duizhao check` as a warning, so `mkdocs build --strict` fails."""

    assets = c.Type(bool, default=True)
    """Add duizhao's reader stylesheet to the site (turn off to style the blocks yourself)."""

    site = c.SubConfig(SiteConfig)
    """The study site: generated 导言 indexes, page order, source boxes, social preview tags."""


class DuizhaoPlugin(BasePlugin[DuizhaoConfig]):
    """Renders paragraph and figure blocks and reports duizhao's diagnostics during a build."""

    def __init__(self) -> None:
        self.articles: dict[str, Article] = {}
        self.diagnostics: list[Diagnostic] = []
        self.site = SiteFeature(SiteConfig())
        self.parsed = ParseCache()

    def on_startup(self, *, command: str, dirty: bool) -> None:
        # Defining on_startup keeps this instance across `mkdocs serve` rebuilds, and with it
        # the parse cache: a rebuild re-parses only the sources that changed.
        self.parsed = ParseCache()

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        self.articles = {}
        self.diagnostics = []
        self.site = SiteFeature(self.config.site)
        if not self.config.enabled:
            return config
        config.markdown_extensions.append(DuizhaoExtension())  # type: ignore[arg-type]
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
        self.site.on_files(files, config, self.articles)
        if self.config.checks:
            corpus = Corpus(Path(config.docs_dir))
            self.diagnostics = check_corpus(self.articles.values(), corpus)
            for diagnostic in self.diagnostics:
                log.warning(diagnostic.format())
        return files

    def on_nav(self, nav: Navigation, /, *, config: MkDocsConfig, files: Files) -> None:
        if self.config.enabled:
            self.site.on_nav(nav, config)

    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        return self.site.on_page_markdown(markdown, page) if self.config.enabled else markdown

    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        return self.site.on_page_content(html, page) if self.config.enabled else html

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        return self.site.on_post_page(output, page, config) if self.config.enabled else output

    def _read(self, file: File, config: MkDocsConfig) -> Article:
        """Parse a page as the author wrote it (with its front matter, for true line numbers)."""
        if file.abs_src_path and not file.generated_by:
            return self.parsed.read(file.abs_src_path)
        return parse(file.content_string, Path(config.docs_dir) / file.src_uri)
