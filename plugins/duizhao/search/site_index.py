"""One site's Pagefind index as its pages are built: each page's documents made and kept, sent
to Pagefind's service as they are made, and the index written from them at the end.

:class:`SiteIndex` runs wherever the documents are made: in the build's own process (``mkdocs
serve``, where the index is written in the background after the build, and where no process
can be forked), or in a process of its own that a ``mkdocs build`` forks
(:mod:`.worker`), so that jieba and the cut into parts run on the other core, beside
Pagefind, while the build's thread renders the next page.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .documents_cache import DocumentsCache
from .pagefind import (
    Indexing,
    IndexStats,
    Words,
    index_language,
    page_documents,
    write_index,
)
from .segment import cut
from .service import ServiceError


@dataclass
class SiteIndex:
    """The documents of a site's pages, by URL (kept across ``--dirty`` rebuilds), and the
    index being made from them."""

    site_dir: Path = Path("site")
    lang: str = "en"  # Pagefind's language of the site's pages (``pagefind_language``)
    #: the indexed documents of each page (by path), by URL
    documents: dict[str, dict[str, str]] = field(default_factory=dict)
    #: the Chinese words of each page's documents, by URL
    words: dict[str, set[str]] = field(default_factory=dict)
    making: float = 0.0  # CPU seconds this build spent making documents
    #: send each page's documents to Pagefind as it is made (else: all at once at the end)
    streaming: bool = True
    indexing: Indexing | None = None
    #: why the documents were not sent as they were made ("": they were, or were not asked to)
    no_service: str = ""
    #: the documents of the pages of earlier builds, by a digest of what they are made from
    cache: DocumentsCache | None = None
    dirty: bool = False

    def begin(
        self,
        site_dir: Path,
        lang: str,
        *,
        dirty: bool,
        streaming: bool,
        cache: DocumentsCache | None = None,
    ) -> None:
        """A new build: forget the last build's documents unless it is ``dirty``."""
        self.close()
        if not dirty:
            self.documents, self.words = {}, {}
        self.site_dir, self.lang, self.streaming = site_dir, lang, streaming
        self.making, self.no_service = 0.0, ""
        self.cache, self.dirty = cache, dirty

    def page(self, url: str, title: str, html: str, title_only: bool) -> None:
        """Make the documents of the page at ``url`` (its content ``html``, its plain
        ``title``) and send them to Pagefind."""
        start = time.process_time()
        cache = self.cache
        key = cache.key(url, title, html, self.lang, title_only) if cache is not None else ""
        kept = cache.get(key) if cache is not None else None
        if kept is not None:
            documents, seen = kept
        else:
            words = Words(cut) if self.lang == "zh" else None
            documents = page_documents(
                url, title, html, self.lang, title_only=title_only, segment=words
            )
            seen = words.seen if words is not None else set()
            if cache is not None:
                cache.put(key, documents, seen)
        self.making += time.process_time() - start
        self.documents[url] = documents
        self.words[url] = seen
        if self.streaming:
            self._send(documents)

    def drop(self, url: str) -> None:
        """The page at ``url`` is not indexed (its ``search: exclude``)."""
        self.documents.pop(url, None)
        self.words.pop(url, None)

    def env(self, urls: set[str]) -> None:
        """The site's pages are ``urls``: keep their documents and ask for the index."""
        self.documents = {url: doc for url, doc in self.documents.items() if url in urls}
        self.words = {url: words for url, words in self.words.items() if url in urls}
        if self.indexing is not None:
            self.indexing.write(self.site_documents())

    def finish(self) -> IndexStats:
        """Write the index (the one being made, or one made now from the documents), check it
        and swap it in; :class:`~.pagefind.IncompleteIndexError` if it was never whole."""
        return self.finisher()()

    def finisher(self) -> Callable[[], IndexStats]:
        """:meth:`finish` of the documents as they are now, to be run later (in the
        background, while the next ``--dirty`` build changes them)."""
        words = {word for seen in self.words.values() for word in seen}
        if self.cache is not None and not self.dirty:
            self.cache.prune()  # every page of the site was seen
        indexing, self.indexing = self.indexing, None
        if indexing is not None:
            return lambda: indexing.finish(words)
        documents, site_dir, lang = self.site_documents(), self.site_dir, self.lang
        return lambda: write_index(documents, site_dir, index_language(lang), words)

    def close(self) -> None:
        """End the index being made, if any (a build that failed)."""
        if self.indexing is not None:
            self.indexing.close()
            self.indexing = None

    def site_documents(self) -> dict[str, str]:
        return {path: doc for docs in self.documents.values() for path, doc in docs.items()}

    def _send(self, documents: dict[str, str]) -> None:
        if self.indexing is None:
            try:
                self.indexing = Indexing(self.site_dir, index_language(self.lang))
            except (OSError, ServiceError) as error:
                # Indexed at the end as under mkdocs serve (which says what fails).
                self.no_service = str(error)
                self.streaming = False
                return
        for path, document in documents.items():
            self.indexing.add(path, document)
