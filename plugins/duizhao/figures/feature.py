"""MkDocs glue of the figures feature (the plugin forwards its events here).

Crops are planned in ``on_files`` (their sizes and URLs are known before any pixel is made),
made in worker processes while the pages render, and collected in ``on_env``, before MkDocs
copies them from the cache into the site with the other static files. The stylesheet, the
lightbox and its script go only to the pages that show figures.
"""

from __future__ import annotations

import os
import posixpath
import xml.etree.ElementTree as etree  # noqa: N813 (Python-Markdown convention)
from pathlib import Path
from typing import Any

from markdown import Markdown
from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

from .. import head
from ..article import FigurePlacement
from ..build import Build
from ..diagnostics import Diagnostic
from ..features import Feature
from ..options import Text
from .cache import Cache
from .catalog import ArticleFigures, Catalog
from .crops import FORMATS, Batch, Encoder, make_crops, site_uri
from .html import Card, IndexSection, fill_figure, gallery_html, index_markdown

log = get_plugin_logger(__name__)

#: Where crops land in the site.
CROP_PREFIX = "assets/figures"
LIGHTBOX_FILES = ("photoswipe.css", "photoswipe.esm.min.js", "photoswipe-lightbox.esm.min.js")


class FiguresConfig(Config):
    enabled = c.Type(bool, default=True)
    """Crop, caption and index the figures declared in `<article>.figures.yml` files."""

    cache_dir = Text(default=".cache/duizhao")
    """Folder (relative to mkdocs.yml) of the crop cache; delete it to start afresh."""

    format = c.Choice(FORMATS, default="auto")
    """`auto`: WebP, lossless for line art, lossy for photos; `lossless`: lossless WebP; `png`."""

    jobs = c.Type(int, default=0)
    """Worker processes for a cold build (0: one per core; 1: no worker processes)."""

    lightbox = c.Type(bool, default=True)
    """Open a figure in a lightbox (PhotoSwipe, from node_modules; served by the site itself)."""

    gallery = c.Type(bool, default=True)
    """End each article that places figures with a `本文图表` section of thumbnails."""

    index = Text(default="figures.md")
    """Page (path in the site) listing every figure of every article; empty to leave it out."""


class FiguresFeature(Feature):
    """Figures of the articles: crops, ``<figure>`` elements, galleries and the index page."""

    def __init__(self, options: FiguresConfig, vendor_dir: Path) -> None:
        self.options = options
        #: the npm packages folder (the plugin's `vendor_dir`), where photoswipe is installed
        self.vendor_dir = vendor_dir
        self.catalog: Catalog | None = None
        self.cache: Cache | None = None
        self.encoder = Encoder(options.format)
        self.pages: dict[str, ArticleFigures] = {}
        #: (page src_uri, figure key) → the crop's File in the site
        self.files: dict[tuple[str, str], File] = {}
        self.batch: Batch | None = None
        self.page: Page | None = None
        self.index_uri: str | None = None

    @property
    def enabled(self) -> bool:
        return bool(self.options.enabled)

    def on_config(self, build: Build) -> None:
        self.cache = Cache(build.root / self.options.cache_dir)
        self.catalog = Catalog(build.root.resolve(), self.cache, self.encoder)
        build.catalog = self.catalog
        self.pages = {}
        self.files = {}
        self.batch = None
        self.page = None
        self.index_uri = None

    def on_files(self, build: Build, files: Files) -> None:
        """Plan and start the crops; add them, the index page and the assets to ``files``."""
        if not self.enabled:
            return
        assert self.catalog is not None and self.cache is not None
        crops = []
        for uri, article in build.articles.items():
            if not article.figures:
                continue
            figures = self.catalog.figures(article)
            self.pages[uri] = figures
            for _placement, spec, crop in figures.placed():
                if crop is None:
                    continue
                crops.append(crop)
                file = File.generated(
                    build.config,
                    site_uri(CROP_PREFIX, uri, crop),
                    abs_src_path=str(self.cache.path(crop)),
                )
                files.append(file)
                self.files[(uri, spec.key)] = file
        self.batch = make_crops(crops, self.cache, self.encoder, self.options.jobs)
        if not self.pages:
            return
        head.publish(files, build.config, "figures.css", head.ASSETS / "figures.css")
        if self.files:
            self._add_index(build, files)
            self._add_lightbox(build, files)

    def page_inputs(self, build: Build, file: File) -> str:
        figures = self.pages.get(file.src_uri)
        if figures is None:
            return ""
        return " ".join(sorted(c.key for c in figures.crops.values()))

    def _add_index(self, build: Build, files: Files) -> None:
        uri = self.options.index
        if not uri:
            return
        if files.get_file_from_path(uri) is not None:
            raise PluginError(
                f"duizhao: the figure index page {uri!r} would replace docs/{uri}; set "
                "'figures: {index: other/path.md}' for the duizhao plugin in mkdocs.yml"
            )
        index_url = File.generated(build.config, uri, content="").url
        sections = []
        for src_uri, figures in sorted(self.pages.items()):
            page_file = files.get_file_from_path(src_uri)
            if page_file is None:
                continue
            href = get_relative_url(page_file.url, index_url)
            cards = self._cards(src_uri, figures, index_url, href)
            if cards:
                link = posixpath.relpath(src_uri, posixpath.dirname(uri) or ".")
                title = figures.article.title or src_uri
                sections.append(IndexSection(title, link, cards))
        build.pages.add(files, build.config, uri, index_markdown(sections))
        self.index_uri = uri

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

    def _add_lightbox(self, build: Build, files: Files) -> None:
        if not self.options.lightbox:
            return
        modules = self.vendor_dir
        if not (modules / "photoswipe" / "dist").is_dir():
            raise PluginError(
                f"duizhao: the figure lightbox needs the npm package photoswipe in {modules}; "
                "run 'npm ci' next to mkdocs.yml (or 'make setup'), point the plugin's "
                "'vendor_dir' at your node_modules, or set 'figures: {lightbox: false}'"
            )
        for name in LIGHTBOX_FILES:
            path = modules / "photoswipe" / "dist" / name
            head.publish(files, build.config, f"photoswipe/{name}", path)
        head.publish(files, build.config, "figures.js", head.ASSETS / "figures.js")

    def _shows_figures(self, page: Page) -> bool:
        return page.file.src_uri in self.pages or page.file.src_uri == self.index_uri

    # ----------------------------------------------------------------------------------------
    # Pages

    def on_page_markdown(self, build: Build, markdown: str, page: Page) -> str:
        self.page = page  # the figure renderer runs next, for this page
        return markdown

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

    def on_page_content(self, build: Build, html: str, page: Page) -> str:
        if not self._shows_figures(page):
            return html
        figures = self.pages.get(page.file.src_uri)
        if self.options.gallery and figures is not None:
            cards = self._cards(page.file.src_uri, figures, page.url, "")
            if cards:
                html = f"{html}\n{gallery_html(cards)}"
        if self.files and self.options.lightbox:
            html += head.scripts(page, ["figures.js"], module=True)
        return html

    def on_post_page(self, build: Build, output: str, page: Page) -> str:
        if not self._shows_figures(page):
            return output
        css = ["figures.css"]
        if self.files and self.options.lightbox:
            css.append("photoswipe/photoswipe.css")
        return head.inject_head(output, head.stylesheets(page, css))

    def on_build_error(self, build: Build) -> None:
        """Stop the crop workers (what they finished stays cached)."""
        if self.batch is not None and self.batch.executor is not None:
            self.batch.executor.shutdown(cancel_futures=True)
            self.batch = None

    def on_env(self, build: Build, env: Any, files: Files) -> None:
        """Wait for the crops; report those that failed and leave them out of the site."""
        if self.batch is None:
            return
        assert self.cache is not None
        failures = self.batch.wait()
        self.batch = None
        for crop, result in failures:
            figure = crop.figure
            build.report(
                Diagnostic(
                    figure.spec_path,
                    figure.source.line,
                    result.code,
                    f"cannot crop {figure.kind} {figure.id} from {figure.source.written!r}: "
                    f"{result.error}",
                )
            )
            for key, file in list(self.files.items()):
                if file.abs_src_path == str(self.cache.path(crop)):
                    files.remove(file)
                    del self.files[key]

    def on_serve(self, build: Build, server: LiveReloadServer) -> LiveReloadServer | None:
        """Watch the folders of sources outside docs_dir (MkDocs already watches docs_dir)."""
        if self.catalog is None:
            return None
        docs = build.docs_dir.resolve()
        folders = {p.parent for p in self.catalog.sources() if not p.is_relative_to(docs)}
        for folder in sorted(folders):
            server.watch(os.fspath(folder), recursive=False)
        return None
