"""MkDocs glue for the study site: 导言 indexes, nav order, source boxes, social tags.

The logic lives in :mod:`.indexes`, :mod:`.attribution` and :mod:`.social`; these events only
wire it in. Only what the site configures is touched: indexes, order and titles of the
sections listed in ``site: sections:``, social tags with ``site: social: true``; every other
page stays as MkDocs makes it.

Under ``mkdocs serve --dirty`` MkDocs rebuilds only pages whose source changed, but an index is
built from *other* pages' sources. Every build has every article at hand, and a page that
carries a digest is rendered again whenever its digest changed (:mod:`duizhao.dirty`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Mapping, MutableMapping
from pathlib import Path
from typing import Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page
from mkdocs.utils import dirname_to_title

from .. import head
from ..article import INTRO_HEADING, Article, parse
from ..options import TextDict
from ..build import Build
from ..escape import Markup, Math, html_attr, html_text, markdown_source, meta_content
from ..features import Feature
from . import attribution, indexes, social

_INTRO_HEADING_RE = re.compile(rf"^##[ \t]+{INTRO_HEADING}[ \t]*#*[ \t]*$", re.M)


class SiteConfig(Config):
    digest = c.Type(bool, default=True)
    """Generate each section's index page (and the home page's list) from the articles' 导言.
    An author-written index.md wins; the line `<!-- duizhao:digest -->` in it places the list."""

    sections = TextDict(default={})
    """Section titles by docs folder, e.g. `{ai-systems: 1-AI Systems}`; the nav and the
    generated index use them. Unlisted folders get MkDocs' title from the folder name."""

    order = c.Type(bool, default=True)
    """Without an explicit `nav`, order the pages of each configured section by front matter
    `weight`, then `date` (newest first), then path, instead of by path alone."""

    attribution = c.Type(bool, default=True)
    """Show a source box (title, authors, link, version, licence, changes) on every article
    whose front matter has `paper:`."""

    social = c.Type(bool, default=False)
    """Add Open Graph / Twitter card tags to every page (in the site's language, with the page's
    own title); an article's description is its 导言."""


class SiteFeature(Feature):
    """Per-build state, reset in :meth:`on_config`."""

    def __init__(self, config: SiteConfig) -> None:
        self.config = config
        #: configured section titles, folders written without surrounding slashes
        self.sections: dict[str, str] = {}
        self.articles: Mapping[str, Article] = {}
        self.titles: dict[str, str] = {}
        self.nav_order: list[str] = []
        #: index pages of the build (docs-relative), so the home page links only those
        self.indexes: set[str] = set()
        #: the generated list of each index page, by page (docs-relative)
        self.digests: dict[str, str] = {}
        #: how the site reads math (pymdownx.arithmatex), so a 导言 shown as text keeps it
        self.math: Math | None = None

    # ----------------------------------------------------------------------------------------
    # Files: which indexes exist

    def on_config(self, build: Build) -> None:
        self.indexes = set()
        self.sections = build.sections

    def on_files(self, build: Build, files: Files) -> None:
        config = build.config
        # read once every `on_config` ran (a hook runs after every plugin and may change it)
        arithmatex = "pymdownx.arithmatex" in config.markdown_extensions
        self.math = Math.of(
            config.mdx_configs.get("pymdownx.arithmatex", {}) if arithmatex else None
        )
        articles = build.articles
        self.articles = articles
        self.nav_order = []
        self.digests = {}
        self.titles = {}
        listed = [
            uri for uri, a in articles.items() if not indexes.is_index(uri) and indexes.is_listed(a)
        ]
        folders = {indexes.folder_of(uri) for uri in listed}
        for folder in folders - {""}:
            self.titles[folder] = self.sections.get(folder) or dirname_to_title(
                posixpath.basename(folder)
            )
        if not self.config.digest or not listed:
            return
        # Only configured sections get a generated index: their title is written down, and
        # other folders keep MkDocs' behaviour (an author-written index.md may use the marker).
        for folder in sorted(folders & set(self.sections)):
            uri = posixpath.join(folder, "index.md")
            readme = posixpath.join(folder, "README.md")
            if files.get_file_from_path(uri) or files.get_file_from_path(readme):
                continue
            content = indexes.generated_index(self.titles[folder])
            inclusion = InclusionLevel.UNDEFINED
            if config.nav is not None and not _mentions(config.nav, uri):
                inclusion = InclusionLevel.NOT_IN_NAV
            build.pages.add(files, config, uri, content, inclusion)
            articles[uri] = parse(content, build.docs_dir / uri)
        self.indexes = {
            file.src_uri for file in files.documentation_pages() if indexes.is_index(file.src_uri)
        }

    # ----------------------------------------------------------------------------------------
    # Nav: order and section titles

    def on_nav(self, build: Build, nav: Navigation, files: Files) -> None:
        if self.config.order and build.config.nav is None and self.sections:
            self._sort(nav.items)
            nav.pages = list(_pages(nav.items))
            pages = nav.pages  # may be empty: a docs folder with no pages builds an empty site
            for before, page, after in zip(
                [None, *pages][: len(pages)], pages, [*pages[1:], None][: len(pages)], strict=True
            ):
                page.previous_page, page.next_page = before, after
        for section in _sections(nav.items):
            folder = _folder_of(section)
            if folder is not None and folder in self.sections:
                section.title = html_text(self.sections[folder])
        self.nav_order = [page.file.src_uri for page in nav.pages]
        self.digests = {}  # they follow the nav order

    def _sort(self, items: list[Any]) -> None:
        slots = [i for i, item in enumerate(items) if isinstance(item, Page)]
        folder = indexes.folder_of(items[slots[0]].file.src_uri) if slots else None
        if folder in self.sections:  # only the sections the site configured
            pages = sorted((items[i] for i in slots), key=self._page_key)
            for i, page in zip(slots, pages, strict=True):
                items[i] = page
        for item in items:
            if isinstance(item, Section):
                self._sort(item.children)

    def _page_key(self, page: Page) -> tuple[int, tuple[int, float, str]]:
        uri = page.file.src_uri
        article = self.articles.get(uri)
        return (
            0 if indexes.is_index(uri) else 1,
            indexes.sort_key(article.meta if article else {}, uri),
        )

    # ----------------------------------------------------------------------------------------
    # Pages

    def _ordered(self) -> list[tuple[str, Article]]:
        """Every page in nav order; pages outside the nav after, in front matter order."""
        seen = set(self.nav_order)
        rest = sorted(
            (uri for uri in self.articles if uri not in seen),
            key=lambda uri: indexes.sort_key(self.articles[uri].meta, uri),
        )
        return [
            (uri, self.articles[uri]) for uri in [*self.nav_order, *rest] if uri in self.articles
        ]

    def digest_for(self, page_uri: str) -> str:
        """The generated list for the index page ``page_uri`` (made once per build: the
        plugin reads it in ``on_nav`` to decide whether the page changed, then renders it)."""
        if page_uri not in self.digests:
            self.digests[page_uri] = self._digest(page_uri)
        return self.digests[page_uri]

    def _digest(self, page_uri: str) -> str:
        ordered = self._ordered()
        folder = indexes.folder_of(page_uri)
        if folder:
            own = [(u, a) for u, a in ordered if indexes.folder_of(u) == folder]
            groups = indexes.sections(own, self.titles)
            return indexes.render_section(groups[0], page_uri, math=self.math) if groups else ""
        feature = indexes.featured(ordered)
        rest = [(u, a) for u, a in ordered if feature is None or u != feature.src_uri]
        groups = indexes.sections(rest, self.titles)
        return indexes.render_home(feature, groups, page_uri, self.indexes, self.math)

    def page_inputs(self, build: Build, file: File) -> str:
        article = self.articles.get(file.src_uri)
        if not self.config.digest or article is None or not indexes.has_marker(article.text):
            return ""
        return self.digest_for(file.src_uri)

    def on_page_markdown(self, build: Build, markdown: str, page: Page) -> str:
        uri = page.file.src_uri
        if not build.uses_duizhao(uri) and not indexes.has_marker(markdown):
            return markdown  # the site's own page: as MkDocs makes it
        escape_meta(page.meta)
        if self.config.digest and indexes.has_marker(markdown):
            markdown = indexes.insert(markdown, self.digest_for(uri))
        article = self.articles.get(uri)
        if article is not None and article.intro_source:
            # as on the indexes: the 导言 without the import's to-do marker, Markdown only
            intro = markdown_source(article.intro, self.math) if article.intro else ""
            markdown = _replace_intro(markdown, article.intro_source, intro)
            if article.intro and article.is_article and "description" not in page.meta:
                page.meta["description"] = meta_content(intro)
        return markdown

    def on_page_content(self, build: Build, html: str, page: Page) -> str:
        article = self.articles.get(page.file.src_uri)
        if not self.config.attribution or article is None or "paper" not in article.meta:
            return html
        return attribution.insert_box(html, attribution.source_box(article))

    def on_post_page(self, build: Build, output: str, page: Page) -> str:
        if not self.config.social:
            return output
        config = build.config
        article = self.articles.get(page.file.src_uri)
        description = page.meta.get("description") or config.site_description
        own = article.title if article is not None and build.uses_duizhao(page.file.src_uri) else None
        tags = social.meta_tags(
            title=own or _plain(page.title) or config.site_name,
            # not str(): that would drop the Markup type and escape the description again
            description=description if isinstance(description, str) else None,
            url=page.canonical_url,
            site_name=config.site_name,
            is_article=bool(article and article.is_article),
            locale=social.locale(str(config.theme.get("language") or "en")),
        )
        return head.inject_head(output, tags)


def _plain(title: str | None) -> str | None:
    """A page title as MkDocs prints it (HTML) → its text."""
    return Markup(title).unescape() if title else None


#: Front matter values that MkDocs' and Material's templates print unescaped, and how they must
#: be escaped for where they land: the page ``<title>``, header and nav (``title``,
#: ``subtitle``), ``<meta content>`` (``description``, ``author``) and a class attribute of the
#: nav's status badge (``status``).
PRINTED_META: dict[str, Callable[[str], Markup]] = {
    "title": html_text,
    "subtitle": html_text,
    "description": lambda text: html_attr(" ".join(text.split())),
    "author": html_attr,
    "status": html_attr,
}


def escape_meta(meta: MutableMapping[str, Any]) -> None:
    """Escape the front matter values that the templates print as HTML (:data:`PRINTED_META`).

    ``page.title`` comes from ``meta["title"]``. As ``Markup`` the values are escaped once:
    Jinja's ``|e``, Material's search and :mod:`duizhao.social` leave ``Markup`` as it is.
    """
    for key, escape in PRINTED_META.items():
        value = meta.get(key)
        if isinstance(value, str) and not isinstance(value, Markup):
            meta[key] = escape(value)


def _replace_intro(markdown: str, intro: str, shown: str) -> str:
    """``markdown`` with its 导言 ``intro`` written as ``shown``.

    The 导言 also stands on the index pages and in link previews, so it is the same text with
    Markdown everywhere, its own page included: raw HTML in it shows as text.
    """
    if shown == intro:
        return markdown
    heading = _INTRO_HEADING_RE.search(markdown)
    at = markdown.find(intro, heading.end() if heading else 0)
    return markdown if at < 0 else markdown[:at] + shown + markdown[at + len(intro) :]


def _mentions(nav: Any, uri: str) -> bool:
    if isinstance(nav, str):
        return nav == uri
    if isinstance(nav, dict):
        return any(_mentions(v, uri) for v in nav.values())
    if isinstance(nav, list):
        return any(_mentions(v, uri) for v in nav)
    return False


def _pages(items: Iterable[Any]) -> Iterable[Page]:
    for item in items:
        if isinstance(item, Page):
            yield item
        elif isinstance(item, Section):
            yield from _pages(item.children)


def _sections(items: Iterable[Any]) -> Iterable[Section]:
    for item in items:
        if isinstance(item, Section):
            yield item
            yield from _sections(item.children)


def _folder_of(section: Section) -> str | None:
    """The docs folder a section stands for: the folder of its first direct page."""
    page = next((item for item in section.children if isinstance(item, Page)), None)
    return indexes.folder_of(page.file.src_uri) if page is not None else None
