"""The Pagefind back end as a feature (``search: pagefind``): index after the build, worker, box.

Per page (``on_page_content``) it keeps the document Pagefind will index
(:func:`~duizhao.search.pagefind.index_document`) and tells Material's search plugin to leave
the page out of its own index (``search: exclude`` in the page's meta), so the site's
``search/search_index.json`` holds no documents and page load fetches none. After the build it
writes the Pagefind index into ``search/pagefind/``; under ``mkdocs serve`` the documents of
the pages a ``--dirty`` rebuild did not render are those of the last build, and the index is
written in the background (the page reloads at once; the index follows).

A ``mkdocs build`` sends each page's documents to Pagefind's service as the page is rendered
and asks for the index at ``on_env``, once the site's documents are known
(:class:`~duizhao.search.pagefind.Indexing`): Pagefind indexes and writes on the other core
while MkDocs renders the templates, and ``on_post_build`` only checks the index and swaps it in.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from markupsafe import Markup
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from .. import head
from ..build import Build
from ..diagnostics import Diagnostic
from ..features import Feature
from ..site import indexes
from . import theme
from .documents_cache import DocumentsCache
from .index import page_urls
from .pagefind import WORD_SHARDS, IncompleteIndexError, available, pagefind_language
from .segment import Dictionaries, added_terms
from .site_index import SiteIndex
from .worker import IndexProcess, can_fork

log = get_plugin_logger(__name__)

#: Below this much Markdown in the site's pages the documents are made on the build's thread:
#: they cost it about 0.4 s of CPU a million characters (40 of the bench's articles, 8.2
#: million: 3.4 s), and a worker costs about 0.1 s of CPU to fork and end (the study site's
#: 15 pages, 9,400 characters: 0.04 s of documents, 0.1-0.15 s more with a worker).
FORK_MIN_CHARACTERS = 500_000


class PagefindFeature(Feature):
    def __init__(self, background: bool = False, cache_dir: Path | None = None) -> None:
        #: where each page's documents are kept between builds (None: not kept)
        self.cache_dir = cache_dir
        #: the site's documents and words (kept across --dirty rebuilds), the index being made
        self.site = SiteIndex()
        self.dictionaries = Dictionaries()
        self.active = False
        self.lang = "en"
        self.version = ""  # of the served worker (its URL's v=)
        self.background = _Background() if background else None
        #: the worker making this build's documents and index (``mkdocs build`` on Linux)
        self.worker: IndexProcess | None = None
        self.forking = background is False
        self._warned: set[str] = set()

    @property
    def documents(self) -> dict[str, dict[str, str]]:
        """The indexed documents of each page (by path), by URL."""
        return self.site.documents

    @property
    def making(self) -> float:
        """CPU seconds this build spent making documents (in the worker, if any)."""
        return self.site.making

    def on_config(self, build: Build) -> None:
        self._close_worker()
        self.active = available()
        if not self.active:
            self._warn_once(
                "search: pagefind needs the Python package pagefind[extended] "
                "(pip install 'duizhao[pagefind]'); the site keeps Material's search"
            )
            return
        config = build.config
        self.lang = pagefind_language(config.theme.get("language"))
        # mkdocs build: each page's documents go to Pagefind as the page is rendered; mkdocs
        # serve: all at once after the build, in the background.
        streaming = self.background is None
        self.dictionaries.check(build)
        cache = None
        if self.cache_dir is not None:
            salt = repr((self.dictionaries.stamps, added_terms()))
            cache = DocumentsCache(self.cache_dir / "documents", salt)
        self.site.begin(
            Path(config.site_dir), self.lang, dirty=build.dirty, streaming=streaming, cache=cache
        )
        self.forking = streaming and can_fork()
        theme.add_templates(config)
        main = theme.overridden_main(config)
        if main is not None:
            self._warn_once(
                f"search: pagefind: {main} extends Material's base.html, so the search box "
                'keeps Material\'s index; extend "duizhao/base.html" instead'
            )

    def on_files(self, build: Build, files: Files) -> None:
        if self.forking:
            size = sum(len(article.text) for article in build.articles.values())
            self.forking = size >= FORK_MIN_CHARACTERS
        if self.active:
            source = head.ASSETS / theme.WORKER
            text = theme.worker_text(source)
            self.version = theme.worker_version(text)
            head.publish(files, build.config, theme.WORKER, source, text)

    def on_page_content(self, build: Build, html: str, page: Page) -> str:
        if not self.active:
            return html
        search = page.meta.get("search")
        options = dict(search) if isinstance(search, dict) else {}
        index = self._index()
        if options.get("exclude"):
            index.drop(page.url)
            return html
        uri = page.file.src_uri
        article = build.articles.get(uri)
        repeats = build.pages.owns(uri) or (
            article is not None and indexes.has_marker(article.text)
        )
        # HTML by now: the front matter title as SiteFeature escaped it, or the rendered h1.
        title = Markup(str(page.meta.get("title") or page.title or "")).striptags()
        index.page(page.url, title, html, repeats)
        # Material's search plugin indexes nothing: its index would only be downloaded.
        page.meta["search"] = {**options, "exclude": True}
        return html

    def on_env(self, build: Build, env: Any, files: Files) -> None:
        if not self.active:
            return
        shards = WORD_SHARDS if self.lang == "zh" else 0
        env.globals["duizhao_search_config"] = functools.partial(
            theme.search_config, words=shards, version=self.version
        )
        self._index().env(set(page_urls(files)))

    def on_post_build(self, build: Build) -> None:
        if not self.active:
            return
        config_file = Path(build.config.config_file_path or build.root / "mkdocs.yml")
        index, self.worker = self._index(), None
        finish = index.finish if isinstance(index, IndexProcess) else index.finisher()

        def job() -> None:
            start = time.perf_counter()
            try:
                stats = finish()
            except IncompleteIndexError as error:
                # Pagefind wrote part of the index twice: the site keeps its last whole index.
                log.warning(
                    Diagnostic(
                        config_file,
                        1,
                        "DZ208",
                        f"search index incomplete: {error}; search/pagefind/ was left as it was "
                        "(the next build writes it again)",
                    ).format()
                )
                return
            except Exception as error:
                log.warning(f"search: pagefind could not write the index: {error}")
                return
            if self.site.no_service:  # indexed after the build instead
                log.debug(f"search: pagefind: no service during the build: {self.site.no_service}")
            packed = f", {stats.packed} files repacked" if stats.packed else ""
            log.info(
                f"search: pagefind indexed {stats.pages} pages in "
                f"{time.perf_counter() - start:.2f} s (their documents: "
                f"{self.site.making:.2f} s CPU{packed})"
            )

        if self.background is not None:
            self.background.submit(job)
        else:
            job()

    def on_build_error(self, build: Build) -> None:
        self._close_worker()
        self.site.close()

    def _index(self) -> SiteIndex | IndexProcess:
        """Where this build's documents are made: the worker, forked at the first page (the
        build's jieba and dictionaries loaded by then), else this process."""
        if self.worker is None and self.forking:
            self.forking = False
            if threading.active_count() > 1:
                # A fork copies one thread of a process that has others (a figure crop
                # pool's manager thread, a plugin's own): a lock another thread held
                # stays held in the child, which may deadlock. So no fork then.
                log.debug("search: pagefind: documents made in the build's process (threads)")
                return self.site
            try:
                self.worker = IndexProcess(self.site)
            except OSError as error:
                log.debug(f"search: pagefind: documents made in the build's process: {error}")
        return self.worker if self.worker is not None else self.site

    def _close_worker(self) -> None:
        if self.worker is not None:
            self.worker.close()
            self.worker = None

    def _warn_once(self, message: str) -> None:
        if message not in self._warned:
            self._warned.add(message)
            log.warning(message)


class _Background:
    """Runs the latest job submitted, one at a time, off the build's thread (mkdocs serve)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pending: Callable[[], None] | None = None
        self.thread: threading.Thread | None = None

    def submit(self, job: Callable[[], None]) -> None:
        with self.lock:
            self.pending = job
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, daemon=True)
                self.thread.start()

    def _run(self) -> None:
        while True:
            with self.lock:
                job, self.pending = self.pending, None
                if job is None:
                    self.thread = None
                    return
            job()

    def wait(self, timeout: float = 60.0) -> None:
        """Until no job is pending or running (tests)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if self.thread is None:
                    return
            time.sleep(0.02)
