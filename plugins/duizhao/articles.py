"""The sources feature: every page read as an :class:`~duizhao.article.Article`, then checked.

Each build has every article at hand (the 导言 indexes and the link checks need all of them);
under ``mkdocs serve`` the unchanged ones come from a :class:`~duizhao.memo.ParseCache`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation

from .article import Article, parse
from .build import Build
from .checks import Corpus, LinkSource, check_corpus, check_local, refused_input
from .diagnostics import Diagnostic
from .features import Feature
from .memo import ArticleMemo, ParseCache
from .project import Project
from .quality.run import Quality
from .sidecars import is_sidecar
from .siteurls import SiteUrls
from .yamlsafe import MAX_TEXT_BYTES, InputError, read_bytes


class ArticlesFeature(Feature):
    def __init__(self, checks: bool, project: Project | None = None) -> None:
        self.checks = checks
        self.project = project
        #: the translation checks, kept while their version (options, glossary) holds
        self.quality: Quality | None = None
        self.parsed = ParseCache()
        self.local: ArticleMemo[list[Diagnostic]] = ArticleMemo()
        #: each page's link diagnostics, with the page's links and the pages they were read in
        self.links: dict[Path, tuple[LinkSource, frozenset[object], list[Diagnostic]]] = {}

    def on_files(self, build: Build, files: Files) -> None:
        pages = {file.src_uri for file in files.documentation_pages()}
        for file in list(files):
            if is_sidecar(file.src_uri, pages):
                files.remove(file)  # a source of the build, never a page of the site
            elif file.abs_src_path and not file.generated_by:
                # Before MkDocs opens anything: a FIFO or /dev/zero behind a symlink would
                # block or never end, a file resolving outside the project would be published.
                source = Path(file.abs_src_path)
                if source.is_relative_to(build.docs_dir):  # (not the theme's own files)
                    problem = refused_input(
                        source,
                        build.root,
                        build.docs_dir.resolve(),
                        page=file.is_documentation_page(),
                    )
                    if problem is not None:
                        files.remove(file)
                        build.report(problem)
        for file in list(files.documentation_pages()):
            article = self._read(build, file)
            build.articles[file.src_uri] = article
            if any(d.code == "DZ011" for d in article.diagnostics) and file.abs_src_path:
                # MkDocs would abort with a traceback on an undecodable page; build it from a
                # lossy decoding instead, while the DZ011 warning tells the author (and fails
                # --strict).
                files.remove(file)
                try:
                    data = read_bytes(file.abs_src_path, MAX_TEXT_BYTES)
                except (InputError, OSError):
                    continue  # over the size limit or unreadable: left out of the site
                text = data.decode("utf-8-sig", errors="replace")
                files.append(File.generated(build.config, file.src_uri, content=text))
        self.parsed.retain([f.abs_src_path for f in files.documentation_pages() if f.abs_src_path])
        self.local.retain(build.articles.values())

    def on_nav(self, build: Build, nav: Navigation, files: Files) -> None:
        """Report every problem of every page (the other features have added theirs)."""
        if not self.checks:
            return
        corpus = Corpus(
            build.docs_dir, figures=build.catalog, urls=SiteUrls.from_config(build.config)
        )
        # What every link check reads of the pages: which exist, their anchors, which are
        # translations (links into files outside docs_dir, which MkDocs does not watch, are
        # read again at the next full build).
        pages = frozenset((a.path, a.anchors, a.is_article) for a in build.articles.values())

        def linked(source: LinkSource, compute: Callable[[], list[Diagnostic]]) -> list[Diagnostic]:
            cached = self.links.get(source.path)
            if cached is None or cached[0] != source or cached[1] != pages:
                cached = self.links[source.path] = (source, pages, compute())
            return list(cached[2])

        self.quality = self._quality()
        if self.quality is not None:
            self.quality.scans = build.term_scans
        found = check_corpus(build.articles.values(), corpus, self._check_local, linked)
        if self.quality is not None:
            self.quality.save()
        current = {a.path for a in build.articles.values()}
        self.links = {path: entry for path, entry in self.links.items() if path in current}
        for diagnostic in found:
            build.report(diagnostic)

    def _quality(self) -> Quality | None:
        """This build's translation checks: the last build's while glossary.yml and the options
        are the same (its memo of checked blocks is then still good)."""
        if self.project is None or not self.project.quality.enabled:
            return None
        glossary = self.project.root / "glossary.yml"
        quality = Quality(
            self.project.quality,
            glossary_path=glossary,
            cache_dir=self.project.cache_dir,
            memo=True,
        )
        if self.quality is not None and self.quality.version == quality.version:
            return self.quality
        return quality

    def _check_local(self, article: Article) -> list[Diagnostic]:
        quality = self.quality
        version = quality.version if quality is not None else None
        return self.local.get(article, lambda: check_local(article, quality), version)

    def _read(self, build: Build, file: File) -> Article:
        """A page as the author wrote it (with its front matter, for true line numbers)."""
        if file.abs_src_path and not file.generated_by:
            return self.parsed.read(file.abs_src_path)
        return parse(file.content_string, build.docs_dir / file.src_uri)
