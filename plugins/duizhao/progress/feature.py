"""The progress feature: 原文已更新 marks from duizhao.lock, and the generated 进度 page."""

from __future__ import annotations

from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.structure.files import File, Files

from ..article import Article
from ..build import Build
from ..features import Feature
from ..lock import Lock, LockError, read_lock
from ..memo import ArticleMemo
from .report import (
    ArticleProgress,
    article_progress,
    corpus_progress,
    earlier_versions,
    progress_markdown,
    stale_ids,
)


def check_page_uri(uri: str) -> None:
    """``progress_page`` must be a Markdown path inside docs_dir (or empty)."""
    if uri and (not uri.endswith(".md") or uri.startswith("/") or ".." in uri.split("/")):
        raise PluginError(
            f"duizhao: progress_page: {uri!r} must be a .md path inside docs_dir, "
            "such as 'progress.md' (or '' for no page)"
        )


class ProgressFeature(Feature):
    def __init__(self, lock_path: Path, page_uri: str) -> None:
        check_page_uri(page_uri)
        self.lock_path = lock_path
        self.page_uri = page_uri
        #: per-article progress, reused while an article and its lock entry are unchanged
        self.memo: ArticleMemo[ArticleProgress] = ArticleMemo()

    def on_files(self, build: Build, files: Files) -> None:
        try:
            lock = read_lock(self.lock_path)
        except LockError as exc:
            build.report(exc.diagnostic)
            lock = Lock()
        self.memo.retain(build.articles.values())
        reports = corpus_progress(build.articles, lock, self._one)
        build.stale = stale_ids(reports)
        build.previous, build.aliases = earlier_versions(lock, build.stale, build.articles)
        uri = self.page_uri
        if not uri or not reports:
            return
        if files.get_file_from_path(uri) is not None:
            raise PluginError(
                f"duizhao: docs/{uri} exists, but the generated progress page goes there; "
                "rename the file or set 'progress_page:' of the duizhao plugin"
            )
        build.pages.add(files, build.config, uri, progress_markdown(reports, uri))

    def _one(self, key: str, article: Article, lock: Lock) -> ArticleProgress:
        return self.memo.get(
            article, lambda: article_progress(key, article, lock), (key, lock.articles.get(key))
        )

    def page_inputs(self, build: Build, file: File) -> str:
        uri = file.src_uri
        stale = " ".join(sorted(build.stale.get(uri, ())))
        extra = (sorted(build.previous.get(uri, {}).items()), sorted(build.aliases.get(uri, {})))
        return stale + (repr(extra) if any(extra) else "")

    def on_serve(self, build: Build, server: LiveReloadServer) -> LiveReloadServer | None:
        if self.lock_path.exists():
            server.watch(str(self.lock_path))
        return None
