"""The glossary feature: tooltips on duizhao's pages, the optional 术语表 page, search words.

Reads ``glossary.yml`` next to mkdocs.yml once per build (its problems are the build's
warnings); feeds its Chinese renderings to jieba (:func:`duizhao.search.segment.add_terms`);
marks the first use of each term per page and side (:mod:`.annotate`), once the search
plugins have read the page, on the pages
:meth:`~duizhao.build.Build.uses_duizhao` accepts only (every other page stays as MkDocs
makes it); with ``glossary_page:`` set, generates that page.
"""

from __future__ import annotations

import posixpath
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from ..build import Build
from ..diagnostics import Diagnostic
from ..escape import markdown_text
from ..features import Feature
from ..quality.glossary.match import Matcher, mask
from ..quality.glossary.model import Entry, Glossary, read_glossary
from ..search import segment
from .annotate import annotate

TITLE = "术语表"


class GlossaryFeature(Feature):
    def __init__(self, path: Path, page_uri: str) -> None:
        if page_uri and (
            not page_uri.endswith(".md") or page_uri.startswith("/") or ".." in page_uri.split("/")
        ):
            raise PluginError(
                f"duizhao: glossary_page: {page_uri!r} must be a .md path inside docs_dir, "
                "such as 'glossary.md' (or '' for no page)"
            )
        self.path = path
        self.page_uri = page_uri
        self.glossary = Glossary(path)
        self.problems: list[Diagnostic] = []
        self.matcher: Matcher | None = None
        self._stamp: object = None

    def on_config(self, build: Build) -> None:
        try:
            st = self.path.stat()
            stamp: object = (st.st_mtime_ns, st.st_size)
        except OSError:
            stamp = None
        if stamp != self._stamp:
            self._stamp = stamp
            self.glossary, self.problems = read_glossary(self.path)
            self.matcher = Matcher(self.glossary.entries) if self.glossary else None
        for problem in self.problems:
            build.report(problem)
        if self.glossary:
            segment.add_terms(self.glossary.chinese_terms())

    def on_files(self, build: Build, files: Files) -> None:
        if not self.page_uri or self.matcher is None:
            return
        if files.get_file_from_path(self.page_uri) is not None:
            raise PluginError(
                f"duizhao: docs/{self.page_uri} exists, but the generated glossary page goes "
                "there; rename the file or set 'glossary_page:' of the duizhao plugin"
            )
        build.pages.add(files, build.config, self.page_uri, self._page(build))

    def _page(self, build: Build) -> str:
        assert self.matcher is not None
        uses: dict[int, list[str]] = {}
        here = posixpath.dirname(self.page_uri)
        for uri, article in sorted(build.articles.items()):
            if not article.is_article:
                continue
            href = posixpath.relpath(uri, here or ".")
            for paragraph in article.paragraphs:
                if not paragraph.original or not paragraph.is_well_formed:
                    continue
                for key in {id(h.entry) for h in self.matcher.english(mask(paragraph.original))}:
                    uses.setdefault(key, []).append(f"[{paragraph.id}]({href}#{paragraph.id})")
        lines = [f"# {TITLE}", "", "| 英文 | 中文 | 释义 | 出现于 |", "| --- | --- | --- | --- |"]
        for entry in sorted(self.glossary.entries, key=lambda e: e.en[0].casefold()):
            links = uses.get(id(entry), [])
            lines.append(
                f"| {markdown_text(' / '.join(entry.en))} | {markdown_text(_zh(entry))} "
                f"| {markdown_text(entry.definition)} | {' '.join(links[:50])} |"
            )
        return "\n".join(lines) + "\n"

    def page_inputs(self, build: Build, file: File) -> str:
        return repr(self._stamp) if self.matcher is not None else ""

    def on_page_context(self, build: Build, page: Page) -> None:
        """Marked after the search plugins read the page: the tooltips are for readers, and
        each search plugin would parse every one of their tags again."""
        if self.matcher is None or page.content is None or page.file.src_uri == self.page_uri:
            return
        if build.uses_duizhao(page.file.src_uri):
            path = page.file.abs_src_path
            scans = build.term_scans.pop(Path(path), None) if path else None
            page.content = annotate(page.content, self.matcher, scans)

    def on_serve(self, build: Build, server: LiveReloadServer) -> LiveReloadServer | None:
        if self.path.exists():
            server.watch(str(self.path))
        return None


def _zh(entry: Entry) -> str:
    return "、".join(entry.renderings)
