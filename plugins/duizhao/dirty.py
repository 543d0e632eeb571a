"""Which pages a ``mkdocs serve --dirty`` rebuild must render again, beyond the edited ones.

MkDocs renders a page on a dirty rebuild when its source file is newer than its output, and
always renders pages that live in memory. duizhao's pages are of both kinds and depend on
other files: a 导言 index (generated, or author-written with the digest marker) shows every
article's introduction, the 进度 page every paragraph's state, the figure index every crop,
an article its 原文已更新 marks (from duizhao.lock). Rendering them all on every save is wasted
work when an edit leaves them as they were, and missing work when an edit changes them while
their own file stays old.

:class:`DirtyPages` records, per page, what it is made from beyond its own file (its
generated Markdown, the digest it shows, its stale paragraphs) at each finished build; the
next dirty build renders a page again exactly when that changed (or when MkDocs would anyway,
for its own source).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable

from mkdocs.structure.files import File


class GeneratedPage(File):
    """A page made in memory that a dirty rebuild may skip (``unchanged``).

    Create it with ``GeneratedPage.generated(config, uri, content=...)``.
    """

    unchanged = False

    def is_modified(self) -> bool:
        return not self.unchanged and super().is_modified()


class DirtyPages:
    """Kept across the builds of one ``mkdocs serve`` session."""

    def __init__(self) -> None:
        #: page (docs-relative) → digest of its inputs, as of the last finished build
        self.built: dict[str, str] = {}
        self.pending: dict[str, str] = {}
        self._finished = False

    def plan(
        self, pages: Iterable[File], inputs: Callable[[File], str | None], dirty: bool
    ) -> None:
        """Decide, before the pages are read, which of ``pages`` to render again.

        ``inputs(file)`` is what the page is made from beyond its own source file, or None for
        a page of no concern here (MkDocs decides as usual).
        """
        self.pending = {}
        self._finished = False
        for file in pages:
            made_from = inputs(file)
            if made_from is None:
                continue
            key = hashlib.sha256(made_from.encode("utf-8", "surrogatepass")).hexdigest()
            self.pending[file.src_uri] = key
            same = dirty and self.built.get(file.src_uri) == key
            if isinstance(file, GeneratedPage):
                file.unchanged = same and os.path.isfile(file.abs_dest_path)
            elif not same and os.path.isfile(file.abs_dest_path):
                # An author's page whose digest or marks changed (or not known to be the same):
                # an output older than its source makes a dirty build render it again. The
                # source is the author's and stays untouched; a full build has no outputs yet.
                os.utime(file.abs_dest_path, ns=(0, 0))

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
