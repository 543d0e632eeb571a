"""The MkDocs plugin: thin glue between MkDocs events and duizhao's pure core."""

from __future__ import annotations

from pathlib import Path

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from .article import Article, parse, read_article
from .checks import Corpus, check_corpus
from .diagnostics import Diagnostic
from .lock import LOCK_NAME, Lock, LockError, read_lock
from .markdown import DuizhaoExtension
from .progress import corpus_progress, progress_markdown, stale_ids

log = get_plugin_logger(__name__)

ASSETS = Path(__file__).parent / "assets"
#: Where the reader assets land in the site.
ASSET_PREFIX = "assets/duizhao"
STYLESHEETS = ("duizhao.css", "progress.css")


class DuizhaoConfig(Config):
    enabled = c.Type(bool, default=True)
    """Turn the whole plugin off; blocks are then left as plain text."""

    checks = c.Type(bool, default=True)
    """Log every diagnostic of `duizhao check` as a warning, so `mkdocs build --strict` fails."""

    assets = c.Type(bool, default=True)
    """Add duizhao's reader stylesheet to the site (turn off to style the blocks yourself)."""

    lock_file = c.Type(str, default=LOCK_NAME)
    """The lock of accepted originals (`duizhao status --accept`), relative to mkdocs.yml."""

    progress_page = c.Type(str, default="progress.md")
    """Where the generated 进度 page goes (a docs-relative `.md` path); empty to leave it out."""


class DuizhaoPlugin(BasePlugin[DuizhaoConfig]):
    """Renders paragraph and figure blocks and reports duizhao's diagnostics during a build."""

    def __init__(self) -> None:
        self.articles: dict[str, Article] = {}
        self.diagnostics: list[Diagnostic] = []
        self.extension: DuizhaoExtension | None = None
        self.stale: dict[str, frozenset[str]] = {}

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        self.articles = {}
        self.diagnostics = []
        self.stale = {}
        if not self.config.enabled:
            return config
        page = self.config.progress_page
        if page and (not page.endswith(".md") or page.startswith("/") or ".." in page.split("/")):
            raise PluginError(
                f"duizhao: progress_page: {page!r} must be a .md path inside docs_dir, "
                "such as 'progress.md' (or '' for no page)"
            )
        self.extension = DuizhaoExtension()
        config.markdown_extensions.append(self.extension)  # type: ignore[arg-type]
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
            article = self._read(file, config)
            self.articles[file.src_uri] = article
            if any(d.code == "DZ011" for d in article.diagnostics) and file.abs_src_path:
                # MkDocs would abort with a traceback on an undecodable page; build it from a
                # lossy decoding instead, while the DZ011 warning tells the author (and fails
                # --strict).
                data = Path(file.abs_src_path).read_bytes()
                files.remove(file)
                files.append(
                    File.generated(
                        config, file.src_uri, content=data.decode("utf-8-sig", errors="replace")
                    )
                )
        if self.config.checks:
            corpus = Corpus(Path(config.docs_dir))
            self.diagnostics = check_corpus(self.articles.values(), corpus)
            for diagnostic in self.diagnostics:
                log.warning(diagnostic.format())
        self._progress(files, config)
        return files

    def _lock_path(self, config: MkDocsConfig) -> Path:
        return Path(config.config_file_path or ".").parent / self.config.lock_file

    def _progress(self, files: Files, config: MkDocsConfig) -> None:
        """Find stale paragraphs and add the generated 进度 page."""
        try:
            lock = read_lock(self._lock_path(config))
        except LockError as exc:
            log.warning(exc.diagnostic.format())
            lock = Lock()
        reports = corpus_progress(self.articles, lock)
        self.stale = stale_ids(reports)
        uri = self.config.progress_page
        if not uri or not reports:
            return
        if files.get_file_from_path(uri) is not None:
            raise PluginError(
                f"duizhao: docs/{uri} exists, but the generated progress page goes there; "
                "rename the file or set 'progress_page:' of the duizhao plugin"
            )
        files.append(File.generated(config, uri, content=progress_markdown(reports, uri)))

    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if self.extension is not None:
            self.extension.stale = self.stale.get(page.file.src_uri, frozenset())
        return markdown

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: object
    ) -> LiveReloadServer | None:
        lock = self._lock_path(config)
        if lock.exists():
            server.watch(str(lock))
        return server

    @staticmethod
    def _read(file: File, config: MkDocsConfig) -> Article:
        """Parse a page as the author wrote it (with its front matter, for true line numbers)."""
        if file.abs_src_path and not file.generated_by:
            return read_article(file.abs_src_path)
        return parse(file.content_string, Path(config.docs_dir) / file.src_uri)
