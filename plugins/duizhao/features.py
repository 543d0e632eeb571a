"""The feature protocol: the plugin forwards MkDocs events, in order, to small features.

Each feature owns one concern (sources and checks, figures, study site, progress, reader
assets, search) and gets the :class:`~duizhao.build.Build` as its explicit input. Every method
does nothing by default, so a feature implements only the events it needs. State that must
survive the builds of one ``mkdocs serve`` lives on the feature, made in ``__init__`` (the
plugin makes its features in ``on_startup``); per-build state is made in :meth:`on_config`.
"""

from __future__ import annotations

from typing import Any

from mkdocs.livereload import LiveReloadServer
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from .build import Build


class Feature:
    def on_config(self, build: Build) -> None:
        """A new build starts: reset per-build state."""

    def on_files(self, build: Build, files: Files) -> None:
        """Add or remove files; ``build.articles`` holds every page once the sources ran."""

    def on_nav(self, build: Build, nav: Navigation, files: Files) -> None:
        """The nav is final; page order is known."""

    def page_inputs(self, build: Build, file: File) -> str:
        """What the page shows from outside its own source (under ``--dirty`` a page is
        rendered again when this changes); "" for nothing."""
        return ""

    def on_page_markdown(self, build: Build, markdown: str, page: Page) -> str:
        return markdown

    def on_page_content(self, build: Build, html: str, page: Page) -> str:
        return html

    def on_page_context(self, build: Build, page: Page) -> None:
        """The search plugins have read ``page.content``; the theme renders it next. What
        only readers see (and no index needs) goes into ``page.content`` here."""

    def on_env(self, build: Build, env: Any, files: Files) -> None:
        """Every page is rendered to HTML (not yet written)."""

    def on_post_page(self, build: Build, output: str, page: Page) -> str:
        return output

    def on_post_build(self, build: Build) -> None:
        """Every file is written, the search plugins' index included."""

    def on_build_error(self, build: Build) -> None:
        """The build stopped part way."""

    def on_serve(self, build: Build, server: LiveReloadServer) -> LiveReloadServer | None:
        """Watch what the site is made from outside docs_dir; return a server to serve with
        instead (MkDocs' ``on_serve`` contract), or None to keep ``server``."""
        return None
