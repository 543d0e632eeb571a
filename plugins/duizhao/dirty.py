"""Which pages a ``mkdocs serve --dirty`` rebuild must render again, beyond the edited ones.

MkDocs renders a page on a dirty rebuild when its source file is newer than its output, or
when it has no output (``File.is_modified``). duizhao's pages also show what other files hold:
a 导言 index every article's introduction, an article its 原文已更新 marks (duizhao.lock) and
its figures' crops. Rendering them all on every save is wasted work when an edit leaves them as
they were, and missing work when an edit changes them while their own file stays old.

:class:`DirtyPages` records, per page, a digest of what it shows from outside its own source
(the features' :meth:`~duizhao.features.Feature.page_inputs`) at each finished build. On the
next dirty build the output of a page whose digest changed is removed: it is stale, and
MkDocs then renders the page as it renders any page without an output. Sources are never
touched; generated pages follow their backing files (:mod:`duizhao.pages`).
"""

from __future__ import annotations

import contextlib
import hashlib
import html
import os
from collections.abc import Callable, Iterable, Sequence

from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation

from .article import parse
from .build import Build
from .features import Feature


class DirtyPages:
    """Kept across the builds of one ``mkdocs serve`` session."""

    def __init__(self) -> None:
        #: page (docs-relative) → digest of its outside inputs, as of the last finished build
        self.built: dict[str, str] = {}
        self.pending: dict[str, str] = {}
        self._finished = False

    def plan(self, pages: Iterable[File], inputs: Callable[[File], str]) -> None:
        """Decide, before the pages are read, which of ``pages`` to render again."""
        self.pending = {}
        self._finished = False
        for file in pages:
            made_from = inputs(file)
            key = None
            if made_from:
                key = hashlib.sha256(made_from.encode("utf-8", "surrogatepass")).hexdigest()
                self.pending[file.src_uri] = key
            # Whatever the dirty flag says: a build called through the API may not tell, and
            # a full build writes every page anyway.
            if self.built.get(file.src_uri) != key:
                with contextlib.suppress(FileNotFoundError):
                    os.remove(file.abs_dest_path)

    def finished(self) -> None:
        """The build wrote every page: what it planned is now what the site shows."""
        self.built, self.pending = self.pending, {}
        self._finished = True

    def failed(self) -> None:
        """The build stopped part way: the next one renders every tracked page again.

        A build that wrote every page and then failed (``--strict`` with warnings) keeps
        what it recorded.
        """
        if not self._finished:
            self.built, self.pending = {}, {}


class DirtyFeature(Feature):
    """Renders again the pages whose outside inputs changed; last in the feature list, so the
    other features have made their pages and digests when it asks them."""

    def __init__(self, features: Sequence[Feature]) -> None:
        self.features = features
        self.pages = DirtyPages()

    def on_nav(self, build: Build, nav: Navigation, files: Files) -> None:
        pages = files.documentation_pages(inclusion=InclusionLevel.all)

        def inputs(file: File) -> str:
            parts = [f.page_inputs(build, file) for f in self.features]
            return "\0".join(parts) if any(parts) else ""

        self.pages.plan(pages, inputs)
        if build.dirty:
            _title_unread(build, pages)

    def on_post_build(self, build: Build) -> None:
        self.pages.finished()

    def on_build_error(self, build: Build) -> None:
        self.pages.failed()


def _title_unread(build: Build, pages: Sequence[File]) -> None:
    """Give the pages a dirty rebuild will not read their front matter title.

    MkDocs knows a page's title only once it reads the page, so the nav of the pages a dirty
    rebuild renders would say "None" for all others. duizhao has every source parsed.
    """
    for file in pages:
        if file.page is None or file.page.title is not None or file.is_modified():
            continue  # read this build, or titled by the nav config (which wins)
        article = build.articles.get(file.src_uri)
        if article is None and build.pages.owns(file.src_uri):
            article = parse(file.content_string, build.docs_dir / file.src_uri)
        if article is not None and article.title:
            title = article.title
            if build.uses_duizhao(file.src_uri):
                # as SiteFeature.on_page_markdown escapes it: MkDocs prints titles as HTML
                title = html.escape(title, quote=False)
            file.page.title = title
