"""What one build knows, handed to every feature: the explicit inputs of the plugin layer.

The plugin makes a :class:`Build` in ``on_config`` (per-build state is never carried over by
accident); features read the articles and report diagnostics through it instead of sharing
dicts with one another.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .article import Article
from .diagnostics import Diagnostic

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

    from .figures import Catalog
    from .pages import GeneratedPages
    from .quality.glossary.match import PageScans


@dataclass
class Build:
    config: MkDocsConfig
    #: the folder of mkdocs.yml: paths in the plugin's options are relative to it
    root: Path
    docs_dir: Path
    #: `mkdocs serve --dirty`: MkDocs renders only the pages whose sources changed
    dirty: bool
    pages: GeneratedPages
    #: logs one diagnostic as a warning (so `--strict` counts it)
    warn: Callable[[str], None]
    #: every documentation page as the author wrote it, by docs-relative path
    articles: dict[str, Article] = field(default_factory=dict)
    #: paragraph IDs whose original changed after the translation was accepted, by page
    stale: dict[str, frozenset[str]] = field(default_factory=dict)
    #: per page, the original each stale paragraph's translation was made for (recorded by
    #: duizhao update), shown beside the new one
    previous: dict[str, dict[str, str]] = field(default_factory=dict)
    #: per page, the old IDs (alias anchors) that lead to each paragraph after an update
    aliases: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    #: ``site: sections:`` as :class:`~duizhao.project.Project` reads it: the docs folders whose
    #: pages the site hands to duizhao, with their titles
    sections: dict[str, str] = field(default_factory=dict)
    #: the figures of the articles (set by the figures feature; read by the checks)
    catalog: Catalog | None = None
    #: the glossary check's scans of each article's blocks, by path (left by the checks;
    #: the tooltips take them: most of a page's texts are in its blocks)
    term_scans: dict[Path, PageScans] = field(default_factory=dict)

    def report(self, diagnostic: Diagnostic) -> None:
        self.warn(diagnostic.format())

    def uses_duizhao(self, src_uri: str) -> bool:
        """Whether the page is duizhao's business: an article (blocks, paper, range), a page
        of a configured section or one that duizhao generated. Every other page is left
        exactly as MkDocs makes it."""
        article = self.articles.get(src_uri)
        return (
            (article is not None and article.is_article)
            or posixpath.dirname(src_uri) in self.sections
            or self.pages.owns(src_uri)
        )
