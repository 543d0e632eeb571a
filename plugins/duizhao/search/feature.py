"""The search feature: one entry per numbered paragraph, and a whole index after --dirty builds.

The logic lives in :mod:`duizhao.search.paragraphs`; these events only wire it in. duizhao
never touches a search plugin's state: after the plugin wrote ``search/search_index.json``
(``on_post_build`` at a lower priority), it reads the file, puts each page's paragraph entries
after the page's own and writes it again. Under ``mkdocs serve --dirty`` the plugin indexes
only the pages a build rendered; the file then gets the entries a full build would write
(the other pages' from the last build). A site without duizhao pages keeps its file as the
search plugin wrote it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from ..build import Build
from ..escape import Markup
from ..features import Feature
from ..source import write_atomically
from .index import IndexText, dump_entry, fresh_entries, page_of, page_urls, split_index
from .paragraphs import SearchPages, paragraph_texts, search_entries
from .segment import Dictionaries, cut

log = get_plugin_logger(__name__)


class SearchFeature(Feature):
    """State for one ``mkdocs serve`` session (or one build)."""

    def __init__(self, paragraphs: bool) -> None:
        self.enabled = paragraphs
        #: paragraph entries (as JSON text) by page URL, kept across --dirty rebuilds
        self.paragraphs: dict[str, list[str]] = {}
        #: the index by page (entries as JSON text), as duizhao last wrote it
        self.pages: SearchPages[str] = SearchPages()
        #: URLs of the site's pages, and of the pages this build rendered (in render order)
        self.urls: list[str] = []
        self.rendered: list[str] = []
        self.first_location: str | None = None
        #: the jieba dictionaries when paragraphs were last segmented
        self.dictionaries = Dictionaries()

    def on_config(self, build: Build) -> None:
        if not build.dirty:
            self.paragraphs = {}
            self.pages = SearchPages()
        self.urls = []
        self.rendered = []
        self.first_location = None
        self.dictionaries.check(build)

    def on_page_content(self, build: Build, html: str, page: Page) -> str:
        """Read the page's rendered paragraph blocks into search entries."""
        search = page.meta.get("search")
        excluded = isinstance(search, dict) and bool(search.get("exclude"))
        if not excluded and self.first_location is None:
            self.first_location = page.url  # a search plugin's first entry of the build
        self.rendered.append(page.url)
        if not self.enabled or excluded or "dz-para" not in html:
            self.paragraphs.pop(page.url, None)
            return html
        # HTML by now: the front matter title as SiteFeature escaped it, or the rendered h1.
        title = Markup(str(page.meta.get("title") or page.title or "")).striptags()
        entries = search_entries(page.url, title, paragraph_texts(html), cut)
        self.paragraphs[page.url] = [dump_entry(entry) for entry in entries]
        return html

    def on_env(self, build: Build, env: Any, files: Files) -> None:
        self.urls = page_urls(files)
        pages = set(self.urls)
        self.paragraphs = {k: v for k, v in self.paragraphs.items() if k in pages}

    def on_post_build(self, build: Build) -> None:
        """Complete the index the search plugin wrote (it has run: a higher priority)."""
        path = Path(build.config.site_dir) / "search" / "search_index.json"
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            return  # no search plugin
        index = split_index(text) or _parsed(text)
        if index is None:
            return  # a search plugin with another format: nothing to complete
        fresh = fresh_entries(index.entries, self.first_location)
        docs = self.pages.update(self.urls, self.rendered, fresh, self.paragraphs)
        if docs == [entry for _page, entry in index.entries]:
            return  # a site without duizhao pages keeps its file byte for byte
        write_atomically({path: index.join(docs).encode("utf-8")}, durable=False)


def _parsed(text: str) -> IndexText | None:
    """An index that is not laid out as :func:`split_index` expects, read as JSON."""
    try:
        data = json.loads(text)
        docs = data.pop("docs")
        entries = [(page_of(str(d.get("location", ""))), dump_entry(d)) for d in docs]
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    head = json.dumps({**data, "docs": []}, separators=(",", ":"), default=str)
    at = head.index('"docs":[') + len('"docs":[')
    return IndexText(head[:at], entries, head[at:])
