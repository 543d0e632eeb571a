"""The MkDocs plugin: thin glue between MkDocs events and duizhao's pure core."""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from .article import Article, parse
from .cache import ArticleMemo, ParseCache, TemplateCache
from .checks import Corpus, check_corpus, check_local, refused_input
from .diagnostics import Diagnostic
from .digest import has_marker
from .dirty import DirtyPages, GeneratedPage
from .figures_plugin import FigureBuild, FiguresConfig
from .lock import LOCK_NAME, Lock, LockError, read_lock
from .markdown import DuizhaoExtension
from .progress import (
    ArticleProgress,
    article_progress,
    corpus_progress,
    progress_markdown,
    stale_ids,
)
from .reader import (
    MissingVendorFilesError,
    VendorFile,
    inject_head,
    math_is_generic,
    needs_math,
    needs_mermaid,
    vendor_files,
)
from .searchfeature import SearchFeature, material_search
from .sitefeature import SiteConfig, SiteFeature

log = get_plugin_logger(__name__)

ASSETS = Path(__file__).parent / "assets"
#: Where the reader assets land in the site.
ASSET_PREFIX = "assets/duizhao"
STYLESHEETS = ("duizhao.css", "progress.css", "site.css")
SCRIPTS = ("duizhao.js",)


class DuizhaoConfig(Config):
    enabled = c.Type(bool, default=True)
    """Turn the whole plugin off; blocks are then left as plain text."""

    checks = c.Type(bool, default=True)
    """Log every diagnostic of `duizhao check` as a warning, so `mkdocs build --strict` fails."""

    assets = c.Type(bool, default=True)
    """Add duizhao's reader stylesheet and script (modes, permalinks) to the site."""

    vendor_dir = c.Type(str, default="node_modules")
    """Folder of the npm packages mermaid and katex (`make setup` runs `npm ci`), relative to
    mkdocs.yml. Their files are copied into the site when the config uses mermaid fences or
    pymdownx.arithmatex, so no page asks a CDN for them."""

    paragraph_search = c.Type(bool, default=True)
    """Add one search entry per numbered paragraph, so searching `P042` links to `#P042`."""

    lock_file = c.Type(str, default=LOCK_NAME)
    """The lock of accepted originals (`duizhao status --accept`), relative to mkdocs.yml."""

    progress_page = c.Type(str, default="progress.md")
    """Where the generated 进度 page goes (a docs-relative `.md` path); empty to leave it out."""

    figures = c.SubConfig(FiguresConfig)
    """Figures cropped from the paper: cache, encoding, lightbox, gallery and index page."""

    site = c.SubConfig(SiteConfig)
    """The study site: generated 导言 indexes, page order, source boxes, social preview tags."""


class DuizhaoPlugin(BasePlugin[DuizhaoConfig]):
    """Renders paragraph and figure blocks and reports duizhao's diagnostics during a build."""

    def __init__(self) -> None:
        self.articles: dict[str, Article] = {}
        self.diagnostics: list[Diagnostic] = []
        self.site = SiteFeature(SiteConfig())
        self.parsed = ParseCache()
        #: per-article check results and progress, reused while an article is unchanged
        self.local_checks: ArticleMemo[list[Diagnostic]] = ArticleMemo()
        self.progress_memo: ArticleMemo[ArticleProgress] = ArticleMemo()
        self.vendor: list[VendorFile] = []
        self.search = SearchFeature()
        self.dirty = False
        #: the theme's compiled templates, under `mkdocs serve` (None for a single build)
        self.templates: TemplateCache | None = None
        self.extension: DuizhaoExtension | None = None
        self.stale: dict[str, frozenset[str]] = {}
        self.figures: FigureBuild | None = None
        #: figure signature of each page at the previous build (kept across `mkdocs serve`)
        self.figure_signatures: dict[str, str] = {}
        #: what each page was made from at the last build, to skip unchanged ones (--dirty)
        self.dirty_pages = DirtyPages()

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        """Defined so that MkDocs keeps this instance across `mkdocs serve` rebuilds.

        A new session (MkDocs may keep the instance for the next one in the same process)
        starts without what the last one knew of its site.
        """
        self.dirty = dirty
        self.search = SearchFeature(dirty)
        self.dirty_pages = DirtyPages()
        self.figure_signatures = {}
        self.templates = TemplateCache() if command == "serve" else None

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        self.articles = {}
        self.diagnostics = []
        self.site = SiteFeature(self.config.site)
        self.vendor = []
        self.search.on_config(config)
        self.stale = {}
        project = Path(config.config_file_path).parent
        self.figures = FigureBuild(self.config.figures, config, project / self.config.vendor_dir)
        if not self.config.enabled:
            return config
        page = self.config.progress_page
        if page and (not page.endswith(".md") or page.startswith("/") or ".." in page.split("/")):
            raise PluginError(
                f"duizhao: progress_page: {page!r} must be a .md path inside docs_dir, "
                "such as 'progress.md' (or '' for no page)"
            )
        self.figures.on_config(config)
        # With Material's search, each numbered paragraph is indexed once: as its own entry.
        own_entries = self.config.paragraph_search and material_search(config) is not None
        self.extension = DuizhaoExtension(
            figure_renderer=self.figures.render, search_exclude=own_entries
        )
        config.markdown_extensions.append(self.extension)  # type: ignore[arg-type]
        if self.config.assets:
            self._add_assets(config)
        return config

    def _add_assets(self, config: MkDocsConfig) -> None:
        mermaid = needs_mermaid(config.mdx_configs)
        math = needs_math(config.markdown_extensions)
        if math and not math_is_generic(config.mdx_configs):
            raise PluginError(
                "duizhao renders math with KaTeX, which needs arithmatex's generic output; "
                "in mkdocs.yml write:\n  markdown_extensions:\n    - pymdownx.arithmatex:\n"
                "        generic: true"
            )
        vendor_dir = Path(config.config_file_path).parent / self.config.vendor_dir
        try:
            self.vendor = list(vendor_files(vendor_dir, mermaid=mermaid, math=math))
        except MissingVendorFilesError as error:
            raise PluginError(
                f"duizhao: {error.feature} is configured but {error.missing[0]} does not exist. "
                f"Run `make setup` (or `npm ci`) in {Path(config.config_file_path).parent}, "
                f"or point the plugin's `vendor_dir` option at the folder holding node packages."
            ) from None
        css = [f"{ASSET_PREFIX}/{name}" for name in STYLESHEETS]
        css += [f"{ASSET_PREFIX}/{f.uri}" for f in self.vendor if f.uri.endswith(".css")]
        for uri in reversed(css):
            if uri not in config.extra_css:
                config.extra_css.insert(0, uri)
        # Deferred scripts run before DOMContentLoaded, hence before Material's `document$`
        # fires: `window.mermaid` exists when Material looks for it, so it never fetches unpkg.
        scripts = [f"{ASSET_PREFIX}/{f.uri}" for f in self.vendor if f.uri.endswith(".js")]
        scripts += [f"{ASSET_PREFIX}/{name}" for name in SCRIPTS]
        present = {str(script) for script in config.extra_javascript}
        for uri in scripts:
            if uri not in present:
                script = ExtraScriptValue(uri)
                script.defer = True
                config.extra_javascript.append(script)

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files | None:
        if not self.config.enabled:
            return files
        self._refuse_unsafe(files, config)
        if self.config.assets:
            sources = [(name, ASSETS / name) for name in (*STYLESHEETS, *SCRIPTS)]
            sources += [(f.uri, f.source) for f in self.vendor]
            for uri, source in sources:
                files.append(
                    File.generated(config, f"{ASSET_PREFIX}/{uri}", abs_src_path=str(source))
                )
        pages = [f.abs_src_path for f in files.documentation_pages() if f.abs_src_path]
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
        self.parsed.retain(pages)
        self.site.on_files(files, config, self.articles)
        for memo in (self.local_checks, self.progress_memo):
            memo.retain(self.articles.values())
        assert self.figures is not None
        if self.config.checks:
            corpus = Corpus(Path(config.docs_dir), figures=self.figures.catalog)
            self.diagnostics = check_corpus(self.articles.values(), corpus, self._check_local)
            for diagnostic in self.diagnostics:
                log.warning(diagnostic.format())
        self.figure_signatures = self.figures.on_files(
            files, self.articles, config, self.figure_signatures
        )
        self._progress(files, config)
        return files

    def _refuse_unsafe(self, files: Files, config: MkDocsConfig) -> None:
        """Leave out the docs files MkDocs must not open: FIFOs and devices (a read would block
        or never end) and files that resolve outside the project (they would be published)."""
        root = Path(config.config_file_path or ".").parent
        docs = Path(config.docs_dir)
        for file in list(files):
            if not file.abs_src_path or file.generated_by:
                continue
            if not Path(file.abs_src_path).is_relative_to(docs):
                continue  # the theme's own files
            problem = refused_input(Path(file.abs_src_path), root)
            if problem is not None:
                files.remove(file)
                log.warning(problem.format())

    def _check_local(self, article: Article) -> list[Diagnostic]:
        return self.local_checks.get(article, lambda: check_local(article))

    def _article_progress(self, key: str, article: Article, lock: Lock) -> ArticleProgress:
        return self.progress_memo.get(
            article, lambda: article_progress(key, article, lock), (key, lock.articles.get(key))
        )

    def _lock_path(self, config: MkDocsConfig) -> Path:
        return Path(config.config_file_path or ".").parent / self.config.lock_file

    def _progress(self, files: Files, config: MkDocsConfig) -> None:
        """Find stale paragraphs and add the generated 进度 page."""
        try:
            lock = read_lock(self._lock_path(config))
        except LockError as exc:
            log.warning(exc.diagnostic.format())
            lock = Lock()
        reports = corpus_progress(self.articles, lock, self._article_progress)
        self.stale = stale_ids(reports)
        uri = self.config.progress_page
        if not uri or not reports:
            return
        if files.get_file_from_path(uri) is not None:
            raise PluginError(
                f"duizhao: docs/{uri} exists, but the generated progress page goes there; "
                "rename the file or set 'progress_page:' of the duizhao plugin"
            )
        files.append(GeneratedPage.generated(config, uri, content=progress_markdown(reports, uri)))

    def on_nav(self, nav: Navigation, /, *, config: MkDocsConfig, files: Files) -> None:
        if self.config.enabled:
            self.site.on_nav(nav, config)
            pages = files.documentation_pages(inclusion=InclusionLevel.all)
            self.dirty_pages.plan(pages, self._page_inputs, self.dirty)
            if self.dirty:
                self._title_unread(pages, config)

    def _title_unread(self, pages: Sequence[File], config: MkDocsConfig) -> None:
        """Give the pages a dirty rebuild will not read their front matter title.

        MkDocs knows a page's title only once it reads the page, so the nav of the pages a
        dirty rebuild renders would say "None" for all others. duizhao has every source parsed.
        """
        for file in pages:
            if file.page is None or file.page.title is not None or file.is_modified():
                continue  # read this build, or titled by the nav config (which wins)
            article = self.articles.get(file.src_uri)
            if article is None and isinstance(file, GeneratedPage):
                article = parse(file.content_string, Path(config.docs_dir) / file.src_uri)
            if article is not None and article.title:
                # as SiteFeature.on_page_markdown escapes it: MkDocs prints titles as HTML
                file.page.title = html.escape(article.title, quote=False)

    def _page_inputs(self, file: File) -> str | None:
        """What a page is made from beyond its own source file: its generated Markdown, the
        digest it shows and its stale paragraphs (None: nothing, MkDocs decides alone)."""
        uri = file.src_uri
        article = self.articles.get(uri)
        if article is None and not isinstance(file, GeneratedPage):
            return None
        parts = [file.content_string if isinstance(file, GeneratedPage) else ""]
        if article is not None and self.config.site.digest and has_marker(article.text):
            parts.append(self.site.digest_for(uri))
        parts.append(" ".join(sorted(self.stale.get(uri, ()))))
        return "\0".join(parts)

    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if self.extension is not None:
            self.extension.stale = self.stale.get(page.file.src_uri, frozenset())
        if self.figures is not None:
            self.figures.page = page  # the figure renderer runs next, for this page
        return self.site.on_page_markdown(markdown, page) if self.config.enabled else markdown

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: object
    ) -> LiveReloadServer | None:
        lock = self._lock_path(config)
        if lock.exists():
            server.watch(str(lock))
        if self.figures is not None and self.config.enabled:
            self.figures.on_serve(server, config)
        return server

    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if not self.config.enabled:
            return html
        html = self.site.on_page_content(html, page)
        if self.figures is not None:
            html = self.figures.on_page_content(html, page)
        if self.config.paragraph_search:
            self.search.on_page_content(html, page)
        return html

    def on_env(self, env: Any, /, *, config: MkDocsConfig, files: Files) -> Any:
        if self.figures is not None:
            self.figures.on_env(files)
        if self.templates is not None and self.config.enabled:
            env.bytecode_cache = self.templates  # no template is loaded before this event
        self.search.on_env(files)
        return env

    def on_page_context(
        self, context: Any, /, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> Any:
        self.search.on_page_context(page)
        return context

    def on_build_error(self, *, error: Exception) -> None:
        self.dirty_pages.failed()
        if self.figures is not None:
            self.figures.abort()

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str | None:
        if self.config.enabled:
            output = self.site.on_post_page(output, page, config)
        if self.config.enabled and self.config.assets:
            return inject_head(output)
        return output

    @event_priority(50)  # before the search plugin writes its index
    def _before_search_index(self, *, config: MkDocsConfig) -> None:
        if self.config.enabled:
            self.search.before_index_written(config, self.config.paragraph_search)

    @event_priority(-100)  # after any search plugin has written its index
    def _after_search_index(self, *, config: MkDocsConfig) -> None:
        self.dirty_pages.finished()
        if self.config.enabled and self.config.paragraph_search:
            self.search.after_index_written(config)

    on_post_build = CombinedEvent(_before_search_index, _after_search_index)

    def _read(self, file: File, config: MkDocsConfig) -> Article:
        """Parse a page as the author wrote it (with its front matter, for true line numbers)."""
        if file.abs_src_path and not file.generated_by:
            return self.parsed.read(file.abs_src_path)
        return parse(file.content_string, Path(config.docs_dir) / file.src_uri)
