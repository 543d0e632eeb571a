"""The files duizhao keeps beside an article: sources of the build, never pages of the site.

``docs/x/foo.md`` may have ``foo.figures.yml`` (its figures, :mod:`duizhao.figures.spec`) and
``foo.removed.yml`` (the blocks ``duizhao update`` took out, :mod:`duizhao.importer.removed`).
Both are left out of the site (and so of its search index) whether duizhao is enabled or not;
a file of that name with no page of the same name beside it is the site's own and is published.
Pure: no MkDocs import.
"""

from __future__ import annotations

from collections.abc import Container
from pathlib import Path

from .figures.spec import is_spec

REMOVED_SUFFIX = ".removed.yml"


def removed_path(article: Path) -> Path:
    """Where the removed blocks of ``article`` go: ``foo.md`` → ``foo.removed.yml``."""
    return article.with_name(article.name.removesuffix(".md") + REMOVED_SUFFIX)


def is_removed_file(src_uri: str, pages: Container[str]) -> bool:
    """Whether the docs file ``src_uri`` is ``x/foo.removed.yml`` beside a page ``x/foo.md``."""
    stem = src_uri.removesuffix(REMOVED_SUFFIX)
    return stem != src_uri and f"{stem}.md" in pages


def is_sidecar(src_uri: str, pages: Container[str]) -> bool:
    """Whether the docs file ``src_uri`` is one of duizhao's files beside a page of ``pages``."""
    return is_spec(src_uri, pages) or is_removed_file(src_uri, pages)
