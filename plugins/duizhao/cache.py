"""Parsed articles kept between builds of one ``mkdocs serve`` session.

Every build reads every page (the 导言 indexes and the link checks need all of them); under
``mkdocs serve --dirty`` re-parsing the unchanged ones would dominate the rebuild. A file is
parsed again only when its size or modification time changed.
"""

from __future__ import annotations

import os
from pathlib import Path

from .article import Article, read_article


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
