"""MkDocs glue for search: paragraph entries, and a whole index after ``--dirty`` rebuilds.

The logic lives in :mod:`duizhao.paragraph_search`; these events only wire it in.
:class:`~duizhao.plugin.DuizhaoPlugin` calls them.

With Material's search plugin, duizhao hands it the complete entry list just before it writes
``search/search_index.json`` (one write per build). With another search plugin, the paragraph
entries are added to the file it wrote.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

import jieba
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import Files, InclusionLevel
from mkdocs.structure.pages import Page

from .escape import Markup
from .paragraph_search import Entry, SearchPages, add_to_index, paragraph_texts, search_entries

log = get_plugin_logger(__name__)


class SearchFeature:
    """State for one ``mkdocs serve`` session (or one build)."""

    def __init__(self, dirty: bool = False) -> None:
        #: under `mkdocs serve --dirty`: builds render only the changed pages
        self.dirty = dirty
        #: paragraph entries by page URL, kept across --dirty rebuilds (they render few pages)
        self.paragraphs: dict[str, list[Entry]] = {}
        self.pages = SearchPages()
        #: URLs of the site's pages, and of the pages this build rendered
        self.urls: list[str] = []
        self.rendered: list[str] = []
        #: the jieba dictionaries' stamps when paragraphs were last segmented
        self.dictionaries: object = None

    def on_config(self, config: MkDocsConfig) -> None:
        if not self.dirty:
            self.paragraphs = {}
            self.pages = SearchPages()
        self.urls = []
        self.rendered = []
        dictionaries = _dictionaries(config)
        if dictionaries != self.dictionaries:  # jieba's words changed: segment anew
            _cut.cache_clear()
            self.dictionaries = dictionaries

    def on_page_content(self, html: str, page: Page) -> None:
        """Read the page's rendered paragraph blocks into search entries."""
        # HTML by now: the front matter title as SiteFeature escaped it, or the rendered h1.
        title = Markup(str(page.meta.get("title") or page.title or "")).striptags()
        search = page.meta.get("search")
        excluded = isinstance(search, dict) and search.get("exclude")
        paragraphs = [] if excluded else paragraph_texts(html)
        self.paragraphs[page.url] = search_entries(page.url, title, paragraphs, _cut)

    def on_env(self, files: Files) -> None:
        self.urls = [f.url for f in files.documentation_pages(inclusion=InclusionLevel.all)]
        pages = set(self.urls)
        self.paragraphs = {k: v for k, v in self.paragraphs.items() if k in pages}

    def on_page_context(self, page: Page) -> None:
        self.rendered.append(page.url)  # the search plugin indexes it in this event

    def before_index_written(self, config: MkDocsConfig, paragraphs: bool) -> None:
        """Give Material's search plugin the whole index, with the paragraph entries."""
        search = material_search(config)
        if search is None:
            return
        index = search.search_index
        index.entries = self.pages.update(
            self.urls, self.rendered, index.entries, self.paragraphs if paragraphs else {}
        )
        search.search_index_prev = None  # the entries are merged already

    def after_index_written(self, config: MkDocsConfig) -> None:
        """Add the paragraph entries to an index that another search plugin wrote."""
        index = Path(config.site_dir) / "search" / "search_index.json"
        if material_search(config) is not None or not index.is_file():
            return
        count = add_to_index(index, (e for v in self.paragraphs.values() for e in v))
        log.debug(f"Added {count} paragraph entries to {index}")


def material_search(config: MkDocsConfig) -> Any | None:
    """Material's search plugin, if the site uses it and it is enabled."""
    try:
        from material.plugins.search.plugin import SearchPlugin
    except ImportError:  # pragma: no cover - Material is a dependency
        return None
    for plugin in config.plugins.values():
        if isinstance(plugin, SearchPlugin) and plugin.config.enabled:
            return plugin
    return None


def _dictionaries(config: MkDocsConfig) -> object:
    """Path, size and time of the jieba dictionaries that Material's search config names."""
    search = material_search(config)
    stamps = []
    for name in ("jieba_dict", "jieba_dict_user"):
        path = search.config.get(name) if search is not None else None
        try:
            st = os.stat(path) if path else None
        except OSError:
            st = None
        stamps.append((path, st.st_mtime_ns, st.st_size) if st else (path, None, None))
    return tuple(stamps)


@functools.lru_cache(maxsize=1 << 15)
def _cut(text: str) -> tuple[str, ...]:
    """jieba with the user dictionary the search plugin loaded (`search.jieba_dict_user`).

    Memoized: a rebuild under `mkdocs serve` segments an edited article again, and most of its
    runs of Han characters did not change.
    """
    return tuple(jieba.cut(text))
