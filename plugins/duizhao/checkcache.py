"""What ``duizhao check`` keeps of each file between runs: ``<cache_dir>/check.json``. Pure but
for :meth:`CheckCache.save`.

Reading and scanning the files is most of a check whose translation checks are cached
(``quality.json``); a file that did not change gives the same
:class:`~duizhao.checks.FileSummary`: its own problems and what the checks across files read
of it (its anchors, its links, its ``featured: true``). This cache keeps each file's summary,
keyed by its absolute path, with its stamp (:func:`duizhao.article.file_stamp`) and a digest
of its bytes. A file whose stamp is unchanged is not read; one whose stamp changed (touched,
checked out again, or written in the last two seconds) is read and its bytes compared; only
a file whose bytes changed is parsed and checked again. The checks across files (links, the
featured page) run every time, from the summaries, so a cached check reports what an
uncached one does.

The ``version`` names everything else a summary depends on: every source file of duizhao
(the parser and the checks), Python's and PyYAML's versions, the project's mkdocs.yml and the
translation checks' own version (their options and glossary.yml). A file with figures (a
placement, a ``figures:`` count, or a ``.figures.yml`` beside it) is never taken from the
cache: the figure check reads the spec and its sources. A missing, unreadable, corrupt or
foreign cache is an empty one, and one that cannot be written (a read-only checkout) is not
written.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from pathlib import Path

import yaml

from .article import Article, article_of, file_stamp, read_article
from .checks import Corpus, FileSummary, LinkSource, LinkTarget, summarize
from .diagnostics import Diagnostic
from .figures.spec import spec_path
from .filestore import FileStore
from .model import Link
from .yamlsafe import MAX_TEXT_BYTES, InputError, read_stat_bytes

CACHE_NAME = "check.json"
#: The layout of the file (a change makes every older file a foreign one).
_FORMAT = 1
#: The codes of a file that could not be read: its summary is never kept.
_UNREADABLE = "DZ011"

#: A stored summary: [is_article, anchors joined by " ", links, problems, featured line].
#: Anchors are paragraph IDs and ``fig-N`` / ``table-N``, never holding a space; a link is
#: [line, text, url, column, html]; a problem [line, code, message, path or None for the file's
#: own].
_Stored = list[object]


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A digest of duizhao's source files and of the Python and PyYAML that run them: another
    version of the parser or of a check never reads the summaries of this one."""
    here = Path(__file__).parent
    digest = hashlib.sha1(usedforsecurity=False)
    digest.update(f"{sys.version}\0{yaml.__version__}\0".encode())
    for path in sorted(here.rglob("*.py")):
        digest.update(path.relative_to(here).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_version(config: Path | None, quality_version: str) -> str:
    """The version of the summaries of a project: the code, its mkdocs.yml (``config``, if
    any) and the translation checks' version (``quality_version``)."""
    digest = hashlib.sha1(code_digest().encode(), usedforsecurity=False)
    digest.update(quality_version.encode())
    if config is not None:
        try:
            digest.update(config.read_bytes())
        except OSError:
            digest.update(b"\0unreadable")
    return digest.hexdigest()


def _digest(data: bytes) -> str:
    return hashlib.sha1(data, usedforsecurity=False).hexdigest()


class CheckCache(FileStore):
    """Stored summaries by file: :func:`summaries` reads them, and :meth:`save` once after."""

    # Parsed by plain json.loads, not yamlsafe.load_json, whose depth check reads every string
    # token: the file is duizhao's own, and one nested too deep is a corrupt one.
    FORMAT = _FORMAT
    ASCII = True

    def get(self, path: Path) -> tuple[FileSummary | None, tuple[os.stat_result, bytes] | None]:
        """The summary stored for ``path`` if the file is unchanged; else None and, when the
        file had to be read to tell, its status and bytes (not to be read twice)."""
        key = os.path.abspath(path)
        entry = self._load().get(key)
        self._used.add(key)
        if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[1], str)):
            return None, None
        try:
            if spec_path(path).is_file():
                return None, None  # figures: the spec and its sources are checked each time
            stamp = file_stamp(os.stat(path))
        except (OSError, ValueError):
            return None, None
        if stamp is None or entry[0] != list(stamp):
            try:
                info, data = read_stat_bytes(path, MAX_TEXT_BYTES)
            except (InputError, OSError):
                return None, None  # read_article says why
            if _digest(data) != entry[1]:
                return None, (info, data)
            stamp = file_stamp(info)
            entry[0] = list(stamp) if stamp is not None else None
            self._dirty = True
        summary = _decode(path, entry[2])
        return summary, None

    def put(self, path: Path, article: Article, data: bytes, summary: FileSummary) -> None:
        """Keep ``summary`` of the file ``path`` read as ``data`` (``article``: its parse), if
        it can be kept: a readable file without figures."""
        if (
            article.figures
            or "figures" in article.meta
            or any(d.code == _UNREADABLE for d in summary.found)
            or summary.source is None
            or spec_path(path).is_file()
        ):
            return
        stamp = list(article.stamp) if article.stamp is not None else None
        self._keep(os.path.abspath(path), [stamp, _digest(data), _encode(summary)])

    def target(self, path: Path) -> LinkTarget | None:
        """What links read of ``path`` from its stored summary, if the file is unchanged."""
        summary, _read = self.get(path)
        return summary.target if summary is not None else None


def summaries(
    paths: Iterable[Path],
    corpus: Corpus,
    local: Callable[[Article], list[Diagnostic]],
    cache: CheckCache | None,
) -> Iterator[FileSummary]:
    """The summary of each file of ``paths``, from ``cache`` when the file is unchanged, else
    parsed and checked alone (and kept in ``cache``)."""
    for path in paths:
        if cache is None:
            yield summarize(read_article(path), corpus, local)
            continue
        summary, read = cache.get(path)
        if summary is not None:
            yield summary
            continue
        if read is None:
            try:
                read = read_stat_bytes(path, MAX_TEXT_BYTES)
            except (InputError, OSError):
                yield summarize(read_article(path), corpus, local)  # it says why
                continue
        article = article_of(path, *read)
        summary = summarize(article, corpus, local)
        cache.put(path, article, read[1], summary)
        yield summary


def _encode(summary: FileSummary) -> _Stored:
    assert summary.source is not None
    own = summary.path
    return [
        summary.target.is_article,
        " ".join(sorted(summary.target.anchors)),
        [[k.line, k.text, k.url, k.column, k.html] for k in summary.source.links],
        [
            [d.line, d.code, d.message, None if d.path == own else str(d.path)]
            for d in summary.found
        ],
        summary.featured,
    ]


def _decode(path: Path, stored: object) -> FileSummary | None:
    """The summary ``_encode`` stored, read for the file ``path``; None if it is not one."""
    if not (isinstance(stored, list) and len(stored) == 5):
        return None
    is_article, anchors, links, found, featured = stored
    if not (
        isinstance(is_article, bool)
        and isinstance(anchors, str)
        and isinstance(links, list)
        and isinstance(found, list)
        and (featured is None or _is_int(featured))
    ):
        return None
    kept_links = [_link(item) for item in links]
    problems = [_problem(path, item) for item in found]
    if None in kept_links or None in problems:
        return None
    names = frozenset(anchors.split(" ")) if anchors else frozenset()
    return FileSummary(
        path,
        tuple(d for d in problems if d is not None),
        LinkTarget(names, is_article),
        LinkSource(path, tuple(k for k in kept_links if k is not None), is_article, names),
        featured,
    )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _link(item: object) -> Link | None:
    if not (isinstance(item, list) and len(item) == 5):
        return None
    line, text, url, column, html = item
    if not (
        _is_int(line)
        and isinstance(text, str)
        and isinstance(url, str)
        and (column is None or _is_int(column))
        and isinstance(html, bool)
    ):
        return None
    return Link(line, text, url, column, html)


def _problem(path: Path, item: object) -> Diagnostic | None:
    if not (isinstance(item, list) and len(item) == 4):
        return None
    line, code, message, where = item
    if not (
        _is_int(line)
        and isinstance(code, str)
        and isinstance(message, str)
        and (where is None or isinstance(where, str))
    ):
        return None
    return Diagnostic(path if where is None else Path(where), line, code, message)
