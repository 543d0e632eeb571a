"""MkDocs glue of the figures feature; :class:`DuizhaoPlugin` forwards its events here.

Crops are planned in ``on_files`` (their sizes and URLs are known before any pixel is made),
made in worker processes while the pages render, and collected in ``on_env``, before MkDocs
copies them from the cache into the site with the other static files.
"""

from __future__ import annotations

import os
import posixpath
import xml.etree.ElementTree as etree  # noqa: N813 (Python-Markdown convention)
from pathlib import Path

from markdown import Markdown
from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

from ..article import Article, FigurePlacement
from ..diagnostics import Diagnostic
from ..dirty import GeneratedPage
from .cache import Cache
from .catalog import ArticleFigures, Catalog
from .crops import FORMATS, Batch, Encoder, make_crops, site_uri
from .html import Card, IndexSection, fill_figure, gallery_html, index_markdown
from .spec import SPEC_SUFFIX

log = get_plugin_logger(__name__)

#: Where crops land in the site.
CROP_PREFIX = "assets/figures"
ASSETS = Path(__file__).parent.parent / "assets"
ASSET_PREFIX = "assets/duizhao"
LIGHTBOX_FILES = ("photoswipe.css", "photoswipe.esm.min.js", "photoswipe-lightbox.esm.min.js")


class FiguresConfig(Config):
    enabled = c.Type(bool, default=True)
    """Crop, caption and index the figures declared in `<article>.figures.yml` files."""

    cache_dir = c.Type(str, default=".cache/duizhao")
    """Folder (relative to mkdocs.yml) of the crop cache; delete it to start afresh."""

    format = c.Choice(FORMATS, default="auto")
    """`auto`: WebP, lossless for line art, lossy for photos; `lossless`: lossless WebP; `png`."""

    jobs = c.Type(int, default=0)
    """Worker processes for a cold build (0: one per core; 1: no worker processes)."""

    lightbox = c.Type(bool, default=True)
    """Open a figure in a lightbox (PhotoSwipe, from node_modules; served by the site itself)."""

    gallery = c.Type(bool, default=True)
    """End each article that places figures with a `本文图表` section of thumbnails."""

    index = c.Type(str, default="figures.md")
    """Page (path in the site) listing every figure of every article; empty to leave it out."""


class FigureBuild:
    """State of the figures feature for one build (a new one in each ``on_config``)."""

    def __init__(self, options: FiguresConfig, config: MkDocsConfig, vendor_dir: Path) -> None:
        self.options = options
        #: the npm packages folder (the plugin's `vendor_dir`), where photoswipe is installed
        self.vendor_dir = vendor_dir
        self.root = Path(config.config_file_path).parent.resolve()
        self.cache = Cache(self.root / options.cache_dir)
        self.encoder = Encoder(options.format)
        self.catalog = Catalog(self.root, self.cache, self.encoder)
        self.pages: dict[str, ArticleFigures] = {}
        #: (page src_uri, figure key) → the crop's File in the site
        self.files: dict[tuple[str, str], File] = {}
        self.batch: Batch | None = None
        self.page: Page | None = None

    @property
    def enabled(self) -> bool:
        return bool(self.options.enabled)

    def on_config(self, config: MkDocsConfig) -> None:
        if not self.enabled:
            return
        uri = f"{ASSET_PREFIX}/figures.css"
        if uri not in config.extra_css:
            config.extra_css.append(uri)

    def on_files(
        self,
        files: Files,
        articles: dict[str, Article],
        config: MkDocsConfig,
        previous: dict[str, str],
    ) -> dict[str, str]:
        """Plan and start the crops; add them, the index page and the assets to ``files``.

        Returns a signature (its crops' keys) per article source path. A page whose signature
        differs from ``previous`` (the last build's) is rebuilt even under ``--dirty``: its
        source did not change, but the crops it shows did.
        """
        for file in list(files):
            if file.src_uri.endswith(SPEC_SUFFIX):
                files.remove(file)  # a source of the build, not a page of the site
        if not self.enabled:
            return {}
        crops = []
        signatures: dict[str, str] = {}
        for uri, article in articles.items():
            if not article.figures:
                continue
            figures = self.catalog.figures(article)
            self.pages[uri] = figures
            for _placement, spec, crop in figures.placed():
                if crop is None:
                    continue
                crops.append(crop)
                file = File.generated(
                    config,
                    site_uri(CROP_PREFIX, uri, crop),
                    abs_src_path=str(self.cache.path(crop)),
                )
                files.append(file)
                self.files[(uri, spec.key)] = file
            key = str(article.path.resolve())
            signatures[key] = " ".join(sorted(c.key for c in figures.crops.values()))
            page_file = files.get_file_from_path(uri)
            if page_file is not None and previous.get(key, signatures[key]) != signatures[key]:
                page_file.content_bytes = page_file.content_bytes  # marks it modified
        self.batch = make_crops(crops, self.cache, self.encoder, self.options.jobs)
        # figures.css is listed in extra_css by on_config: it must exist on every site.
        files.append(
            File.generated(
                config, f"{ASSET_PREFIX}/figures.css", abs_src_path=str(ASSETS / "figures.css")
            )
        )
        if self.files:
            self._add_index(files, config)
            self._add_lightbox(files, config)
        return signatures

    def _add_index(self, files: Files, config: MkDocsConfig) -> None:
        uri = self.options.index
        if not uri:
            return
        if files.get_file_from_path(uri) is not None:
            raise PluginError(
                f"duizhao: the figure index page {uri!r} would replace docs/{uri}; set "
                "'figures: {index: other/path.md}' for the duizhao plugin in mkdocs.yml"
            )
        index = GeneratedPage.generated(config, uri, content="")
        sections = []
        for src_uri, figures in sorted(self.pages.items()):
            page_file = files.get_file_from_path(src_uri)
            if page_file is None:
                continue
            href = get_relative_url(page_file.url, index.url)
            cards = self._cards(src_uri, figures, index.url, href)
            if cards:
                link = posixpath.relpath(src_uri, posixpath.dirname(uri) or ".")
                title = figures.article.title or src_uri
                sections.append(IndexSection(title, link, cards))
        index.content_string = index_markdown(sections)
        files.append(index)

    def _cards(
        self, uri: str, figures: ArticleFigures, from_url: str, page_href: str
    ) -> list[Card]:
        """Thumbnails of the placed figures of page ``uri``, with URLs relative to from_url."""
        cards = []
        for _placement, spec, crop in figures.placed():
            file = self.files.get((uri, spec.key))
            if crop is None or file is None:
                continue
            src = get_relative_url(file.url, from_url)
            cards.append(Card(spec, crop, src, f"{page_href}#{spec.anchor}"))
        return cards

    def _add_lightbox(self, files: Files, config: MkDocsConfig) -> None:
        if not self.options.lightbox:
            return
        modules = self.vendor_dir
        if not (modules / "photoswipe" / "dist").is_dir():
            raise PluginError(
                f"duizhao: the figure lightbox needs the npm package photoswipe in {modules}; "
                "run 'npm ci' next to mkdocs.yml (or 'make setup'), point the plugin's "
                "'vendor_dir' at your node_modules, or set 'figures: {lightbox: false}'"
            )
        # Only sites with figures load the lightbox; config is read again for every build.
        config.extra_css.append(f"{ASSET_PREFIX}/photoswipe/photoswipe.css")
        script = ExtraScriptValue(f"{ASSET_PREFIX}/figures.js")
        script.type = "module"
        config.extra_javascript.append(script)
        for name in LIGHTBOX_FILES:
            path = modules / "photoswipe" / "dist" / name
            files.append(
                File.generated(config, f"{ASSET_PREFIX}/photoswipe/{name}", abs_src_path=str(path))
            )
        files.append(
            File.generated(
                config, f"{ASSET_PREFIX}/figures.js", abs_src_path=str(ASSETS / "figures.js")
            )
        )

    # ----------------------------------------------------------------------------------------
    # Pages

    def render(self, element: etree.Element, placement: FigurePlacement, md: Markdown) -> None:
        """The DuizhaoExtension's figure_renderer: fill one ``<figure>``."""
        page = self.page
        figures = self.pages.get(page.file.src_uri) if page is not None else None
        fid = placement.id
        spec = figures.figures.get(fid) if figures is not None else None
        crop = figures.crops.get(fid) if figures is not None else None
        file = self.files.get((page.file.src_uri, fid)) if page is not None else None
        src = None
        if page is not None and file is not None:
            src = posixpath.relpath(file.src_uri, posixpath.dirname(page.file.src_uri) or ".")
        fill_figure(element, placement.id, spec, crop, src)

    def on_page_content(self, html: str, page: Page) -> str:
        figures = self.pages.get(page.file.src_uri)
        if not self.options.gallery or figures is None:
            return html
        cards = self._cards(page.file.src_uri, figures, page.url, "")
        return f"{html}\n{gallery_html(cards)}" if cards else html

    def abort(self) -> None:
        """The build failed: stop the crop workers (what they finished stays cached)."""
        if self.batch is not None and self.batch.executor is not None:
            self.batch.executor.shutdown(cancel_futures=True)
            self.batch = None

    def on_env(self, files: Files) -> None:
        """Wait for the crops; report those that failed and leave them out of the site."""
        if self.batch is None:
            return
        failures = self.batch.wait()
        self.batch = None
        for crop, result in failures:
            figure = crop.figure
            log.warning(
                Diagnostic(
                    figure.spec_path,
                    figure.source.line,
                    result.code,
                    f"cannot crop {figure.kind} {figure.id} from {figure.source.written!r}: "
                    f"{result.error}",
                ).format()
            )
            for key, file in list(self.files.items()):
                if file.abs_src_path == str(self.cache.path(crop)):
                    files.remove(file)
                    del self.files[key]

    def watched(self, config: MkDocsConfig) -> list[Path]:
        """Folders of sources outside docs_dir (MkDocs already watches docs_dir)."""
        docs = Path(config.docs_dir).resolve()
        folders = {p.parent for p in self.catalog.sources() if not p.is_relative_to(docs)}
        return sorted(folders)

    def on_serve(self, server: LiveReloadServer, config: MkDocsConfig) -> None:
        for folder in self.watched(config):
            server.watch(os.fspath(folder), recursive=False)
