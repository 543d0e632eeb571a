"""What one ``mkdocs serve`` session keeps between builds.

Every build reads every page (the 导言 indexes and the link checks need all of them); under
``mkdocs serve --dirty`` re-parsing and re-checking the unchanged ones would dominate the
rebuild. :class:`ParseCache` parses a file again only when its size or modification time
changed, and returns the very same :class:`~duizhao.article.Article` otherwise;
:class:`ArticleMemo` keeps what is derived from an Article for as long as that object (and
any other input named with it) stays the same. MkDocs also makes a new Jinja environment
for every build, so the theme's templates would be compiled again each time:
:class:`TemplateCache` keeps their compiled code (Jinja recompiles a template whose source
changed).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import Any, Generic, TypeVar

from jinja2 import BytecodeCache
from jinja2.bccache import Bucket

from .article import Article, read_article
from .build import Build
from .features import Feature

T = TypeVar("T")


class ParseCache:
    def __init__(self) -> None:
        self._entries: dict[str, tuple[tuple[int, int], Article]] = {}

    def read(self, path: str | os.PathLike[str]) -> Article:
        """``read_article(path)``, from the cache when the file did not change."""
        key = os.fspath(path)
        try:
            st = os.stat(key)
        except OSError:
            self._entries.pop(key, None)
            return read_article(Path(key))  # reports why it cannot be read
        stamp = (st.st_mtime_ns, st.st_size)
        cached = self._entries.get(key)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        article = read_article(Path(key))
        self._entries[key] = (stamp, article)
        return article

    def retain(self, paths: Collection[str]) -> None:
        """Forget the files not in ``paths`` (deleted or renamed since)."""
        for key in self._entries.keys() - set(paths):
            del self._entries[key]


class ArticleMemo(Generic[T]):
    """Values derived from an article, reused while the article object is the same one."""

    def __init__(self) -> None:
        self._entries: dict[Path, tuple[Article, object, T]] = {}

    def get(self, article: Article, compute: Callable[[], T], extra: object = None) -> T:
        """``compute()``, or its value from the last call for this article; ``extra`` names any
        other input of ``compute`` (compared by equality)."""
        cached = self._entries.get(article.path)
        if cached is not None and cached[0] is article and cached[1] == extra:
            return cached[2]
        value = compute()
        self._entries[article.path] = (article, extra, value)
        return value

    def retain(self, articles: Iterable[Article]) -> None:
        """Forget the articles not among ``articles``."""
        keep = {article.path for article in articles}
        for key in self._entries.keys() - keep:
            del self._entries[key]


class TemplateCache(BytecodeCache):
    """Jinja bytecode in memory: set as ``env.bytecode_cache`` in each build's ``on_env``."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)  # checks the source's checksum

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()

    def clear(self) -> None:
        self._code.clear()


class TemplatesFeature(Feature):
    """Under ``mkdocs serve``: the theme's compiled templates kept between builds."""

    def __init__(self) -> None:
        self.cache = TemplateCache()

    def on_env(self, build: Build, env: Any, files: Any) -> None:
        env.bytecode_cache = self.cache  # no template is loaded before this event
