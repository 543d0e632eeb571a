"""Chinese word segmentation for both search back ends: jieba, with the site's dictionaries.

Material's search plugin loads ``search.jieba_dict`` / ``jieba_dict_user`` (the project's
``jieba_userdict.txt``: 超节点, 通信契约, 显存, …) into jieba when its ``on_config`` runs; every
segmentation here then uses them. :func:`add_terms` adds words of duizhao's own (the hook for
the glossary's Chinese terms: a term added here is never cut in two, in either back end).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

import jieba

# jieba logs its dictionary loading at DEBUG on its own stderr handler, so `mkdocs build -q`
# printed four lines; it follows MkDocs' verbosity instead (shown with `-v`).
jieba.setLogLevel(logging.getLogger("mkdocs").getEffectiveLevel())

if TYPE_CHECKING:
    from ..build import Build

#: Runs of Han characters (the script jieba segments).
HAN_RE = re.compile(
    "[\u2e80-\u2fdf\u3005\u3007\u3021-\u3029\u3038-\u303b\u3400-\u4dbf"
    "\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]+"
)

_added: set[str] = set()


def add_terms(terms: Iterable[str]) -> None:
    """Keep each of ``terms`` whole when segmenting (e.g. the glossary's Chinese terms)."""
    new = [t.strip() for t in terms if t.strip() and t.strip() not in _added]
    for term in new:
        jieba.add_word(term)
        _added.add(term)
    if new:
        cut.cache_clear()


def added_terms() -> tuple[str, ...]:
    """The terms :func:`add_terms` added (they change what jieba cuts)."""
    return tuple(sorted(_added))


@functools.lru_cache(maxsize=1 << 15)
def cut(text: str) -> tuple[str, ...]:
    """jieba's words of ``text``, with the dictionaries loaded (memoized: a rebuild under
    `mkdocs serve` segments an edited article again, and most of its runs did not change)."""
    return tuple(jieba.cut(text))


class Dictionaries:
    """Forgets the memoized words when the search plugin's jieba dictionaries change."""

    def __init__(self) -> None:
        self.stamps: object = None

    def check(self, build: Build) -> None:
        stamps = _stamps(build)
        if stamps != self.stamps:  # jieba's words changed: segment anew
            cut.cache_clear()
            self.stamps = stamps


def _stamps(build: Build) -> object:
    """Path and content digest of the jieba dictionaries that the search config names: a
    dictionary edited within its file system's time resolution, or copied over with its size
    and time kept (``cp -p``, ``rsync -t``), is a new stamp; one only touched is not."""
    search = build.config.plugins.get("material/search") or build.config.plugins.get("search")
    stamps = []
    for name in ("jieba_dict", "jieba_dict_user"):
        path = search.config.get(name) if search is not None else None
        try:
            stamps.append((path, _digest(path) if path else None))
        except OSError:
            stamps.append((path, None))
    return tuple(stamps)


def _digest(path: str) -> str:
    """SHA-256 of the file at ``path`` (jieba's own dictionary: 5 MB, about 10 ms)."""
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()
