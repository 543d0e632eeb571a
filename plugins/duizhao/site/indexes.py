"""The 导言 index: section pages and the home page, rendered from the articles' introductions.

Pure: plain data in, Markdown out; no MkDocs import. The plugin decides which pages are
indexes and in which order articles come (the nav order); this module renders them.

A section index lists, for each article, its linked title, a "导言" heading and the
introduction as the author wrote it (Markdown, with relative links moved to the index page's
folder). The home page shows the featured article, then every section with its articles.
An author-written index places the list where the line :data:`MARKER` stands.
"""

from __future__ import annotations

import datetime as dt
import functools
import posixpath
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from ..article import INTRO_HEADING, Article, rewrite_urls
from ..diagnostics import Diagnostic
from ..escape import Math, markdown_source, markdown_text, markdown_url

#: The line in an author-written index page where the generated list goes.
MARKER = "<!-- duizhao:digest -->"

#: Front matter keys this module reads.
WEIGHT_KEY = "weight"
DATE_KEY = "date"
FEATURED_KEY = "featured"
#: ``digest: false`` leaves an article out of the generated indexes (a syntax demo, say).
LISTED_KEY = "digest"


@dataclass(frozen=True)
class Entry:
    """One article as an index shows it."""

    #: the article's path relative to docs_dir, '/'-separated ("ai-systems/foo.md")
    src_uri: str
    title: str
    #: the 导言 as written (Markdown, links relative to the article), None when missing
    intro: str | None


@dataclass(frozen=True)
class Section:
    #: folder relative to docs_dir ("" is the docs root)
    folder: str
    title: str
    entries: tuple[Entry, ...]

    @property
    def index_uri(self) -> str:
        return posixpath.join(self.folder, "index.md") if self.folder else "index.md"


# --------------------------------------------------------------------------------------------
# Which articles, in which order


def is_listed(article: Article) -> bool:
    """A page the indexes show: a translation or a page with a 导言, unless ``digest: false``."""
    wanted = article.is_article or article.intro is not None
    return wanted and article.meta.get(LISTED_KEY, True) is not False


def entry_of(src_uri: str, article: Article) -> Entry:
    title = article.title or posixpath.splitext(posixpath.basename(src_uri))[0]
    return Entry(src_uri, title, article.intro or None)


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _date(value: object) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError:
            return None
    return None


def sort_key(meta: Mapping[str, Any], src_uri: str) -> tuple[int, float, str]:
    """Order without an explicit nav: ``weight`` ascending, then ``date`` newest first, then path.

    Pages with a weight come before dated pages, which come before the rest.
    """
    weight = _number(meta.get(WEIGHT_KEY))
    if weight is not None:
        return (0, weight, src_uri)
    date = _date(meta.get(DATE_KEY))
    if date is not None:
        return (1, -date.toordinal(), src_uri)
    return (2, 0.0, src_uri)


def folder_of(src_uri: str) -> str:
    return posixpath.dirname(src_uri)


def is_index(src_uri: str) -> bool:
    return posixpath.basename(src_uri) in ("index.md", "README.md")


def sections(ordered: Sequence[tuple[str, Article]], titles: Mapping[str, str]) -> list[Section]:
    """Group listed articles (already in nav order) by folder; folders in order of appearance."""
    groups: dict[str, list[Entry]] = {}
    for src_uri, article in ordered:
        if is_index(src_uri) or not is_listed(article):
            continue
        folder = folder_of(src_uri)
        groups.setdefault(folder, []).append(entry_of(src_uri, article))
    return [
        Section(folder, titles.get(folder, folder), tuple(entries))
        for folder, entries in groups.items()
    ]


def featured(ordered: Sequence[tuple[str, Article]]) -> Entry | None:
    """The first article (in nav order) whose front matter says ``featured: true``."""
    for src_uri, article in ordered:
        if article.meta.get(FEATURED_KEY) is True and not is_index(src_uri):
            return entry_of(src_uri, article)
    return None


# --------------------------------------------------------------------------------------------
# Rendering


def relative_url(target_uri: str, page_uri: str) -> str:
    """The link from the page ``page_uri`` to the docs file ``target_uri`` (both docs-relative)."""
    return posixpath.relpath(target_uri, posixpath.dirname(page_uri) or ".")


def move_links(markdown: str, from_uri: str, to_uri: str) -> str:
    """Rewrite relative links in Markdown written for ``from_uri`` so they work on ``to_uri``."""
    if folder_of(from_uri) == folder_of(to_uri):
        own = posixpath.basename(from_uri)
        return rewrite_urls(markdown, lambda url: own + url if url.startswith("#") else url)

    def move(url: str) -> str:
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or url.startswith("/"):
            return url
        if not parts.path:  # "#P003" or "?x": the article itself
            return relative_url(from_uri, to_uri) + url
        target = posixpath.normpath(posixpath.join(folder_of(from_uri), parts.path))
        rest = url[len(parts.path) :]
        return relative_url(target, to_uri) + rest

    return rewrite_urls(markdown, move)


@functools.lru_cache(maxsize=4096)  # pure; under `mkdocs serve` most entries do not change
def render_entry(entry: Entry, page_uri: str, level: int, math: Math | None = None) -> str:
    """Linked title (heading of ``level``), the 导言 heading one level down, the introduction
    (its math left to arithmatex as ``math`` says the site reads it)."""
    link = relative_url(entry.src_uri, page_uri)
    lines = [f"{'#' * level} [{markdown_text(entry.title)}]({markdown_url(link)})", ""]
    lines += [f"{'#' * (level + 1)} {INTRO_HEADING}", ""]
    if entry.intro:
        # The author wrote the 导言 for the article: here it is shown as text with Markdown.
        lines += [move_links(markdown_source(entry.intro, math), entry.src_uri, page_uri), ""]
    return "\n".join(lines)


def render_section(
    section: Section, page_uri: str, level: int = 2, math: Math | None = None
) -> str:
    return "\n".join(render_entry(e, page_uri, level, math) for e in section.entries)


def render_home(
    feature: Entry | None,
    groups: Iterable[Section],
    page_uri: str = "index.md",
    indexes: Collection[str] = (),
    math: Math | None = None,
) -> str:
    """The featured article, then each section (its title linked to its index page when
    ``indexes`` has one) and its articles."""
    parts: list[str] = []
    if feature is not None:
        parts.append(render_entry(feature, page_uri, 2, math))
    for section in groups:
        if section.folder:
            title = markdown_text(section.title)
            if section.index_uri in indexes:
                title = f"[{title}]({markdown_url(relative_url(section.index_uri, page_uri))})"
            parts.append(f"## {title}\n")
            parts.append(render_section(section, page_uri, 3, math))
        else:  # articles at the docs root have no section heading
            parts.append(render_section(section, page_uri, 2, math))
    return "\n".join(parts)


def generated_index(title: str) -> str:
    """The source of a section index nobody wrote: its title and the marker.

    It stays out of Material's search index (``search: exclude``): each 导言 it lists is found
    on its own article's page.
    """
    meta = {"title": title, "search": {"exclude": True}}
    front = yaml.safe_dump(meta, allow_unicode=True, width=10_000, sort_keys=False)
    return f"---\n{front}---\n\n# {markdown_text(title)}\n\n{MARKER}\n"


def has_marker(markdown: str) -> bool:
    """Whether a line of ``markdown`` is the marker (the substring test keeps it cheap)."""
    return MARKER in markdown and any(line.strip() == MARKER for line in markdown.splitlines())


def insert(markdown: str, digest: str) -> str:
    """``markdown`` with every marker line replaced by ``digest``."""
    return "\n".join(digest if line.strip() == MARKER else line for line in markdown.split("\n"))


# --------------------------------------------------------------------------------------------
# Checks (DZ205, DZ206)


def _warn(article: Article, line: int, code: str, message: str) -> Diagnostic:
    return Diagnostic(article.path, line, code, message)


def check_listing(article: Article) -> Iterator[Diagnostic]:
    """``weight``, ``date``, ``featured`` and ``digest`` must be what the indexes can use."""
    meta, line = article.meta, article.meta_lines.get
    readers = (
        (WEIGHT_KEY, _number, "a number", "'weight: 20' (smaller comes first)"),
        (DATE_KEY, _date, "a date", "'date: 2026-07-07'"),
    )
    for key, read, kind, example in readers:
        if key in meta and read(meta[key]) is None:
            yield _warn(
                article,
                line(key, 1),
                "DZ206",
                f"'{key}: {meta[key]}' is not {kind}, so the indexes ignore it; write {example}",
            )
    for key in (FEATURED_KEY, LISTED_KEY):
        if key in meta and not isinstance(meta[key], bool):
            yield _warn(
                article,
                line(key, 1),
                "DZ206",
                f"'{key}: {meta[key]}' is not true or false; write '{key}: true'",
            )


def check_featured(featured: Iterable[tuple[Path, int]]) -> Iterator[Diagnostic]:
    """One featured article: the home page shows one. ``featured``: each page with
    ``featured: true``, and that key's line."""
    chosen = sorted(featured, key=lambda page: str(page[0]))
    if len(chosen) < 2:
        return
    for path, line in chosen[1:]:
        yield Diagnostic(
            path,
            line,
            "DZ205",
            f"'featured: true' here and in {chosen[0][0].name}; the home page shows one "
            "featured article: remove 'featured: true' from all but one",
        )
