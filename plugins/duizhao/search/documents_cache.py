"""The Pagefind documents of each page between builds: ``<cache_dir>/search/documents/``.

Making a page's documents (jieba over its Chinese, the cut into parts) is most of the CPU
time the indexing spends outside Pagefind; a page whose rendered content has not changed
since the last build gives the same documents. Each page's documents and words are kept in a
file named by a SHA-256 digest of everything they are made from: the page's URL, title and
rendered content, the site's language, the segmentation's dictionaries and added terms, and
the code that makes them (:data:`MAKERS`). A changed input is a new name, never a stale hit. A
whole build (not ``--dirty``) removes the files it did not use, but not those of another build
of the same site running at the same time (``mkdocs serve`` beside ``mkdocs build``): a file
being written, or one kept since this build began.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
import time
from pathlib import Path

import jieba

#: The modules whose code makes the documents (relative to this package), and this one (the
#: files' format): a change to one is a change to every page's key.
MAKERS = (
    "pagefind.py",
    "segment.py",
    "paragraphs.py",
    "site_index.py",
    "documents_cache.py",
    "../htmlscan.py",
    "../linear.py",  # htmlscan's scanning
    "../escape.py",
)
#: The files' suffix.
SUFFIX = ".json"
#: The start of a file being written (renamed to its key's name once whole).
TEMPORARY = ".tmp-"
#: A file being written this long ago was left by a build that was killed: pruned.
STALE_SECONDS = 3600.0
#: How much earlier than the build's start a file's time may read and still be taken as
#: written after it: file times come from the kernel's coarse clock, which lags the clock by
#: up to a jiffy (4-10 ms). Not more: a file the previous build wrote in its last second is
#: this build's to prune (a page removed or changed since).
CLOCK_SLACK_SECONDS = 0.05


@functools.cache
def code_digest() -> str:
    """A digest of the :data:`MAKERS` and of jieba's version."""
    digest = hashlib.sha256(str(getattr(jieba, "__version__", "")).encode())
    here = Path(__file__).parent
    for name in MAKERS:
        digest.update(name.encode())
        digest.update((here / name).read_bytes())
    return digest.hexdigest()


class DocumentsCache:
    """One build's use of the folder ``folder``: ``salt`` holds what the segmentation is made
    with (the dictionaries' stamps, the added terms)."""

    def __init__(self, folder: Path, salt: str) -> None:
        self.folder = folder
        self.salt = salt
        self.used: set[str] = set()
        self.begun = time.time()

    def key(self, url: str, title: str, html: str, lang: str, title_only: bool) -> str:
        digest = hashlib.sha256()
        for part in (code_digest(), self.salt, lang, url, title, str(title_only)):
            digest.update(part.encode("utf-8", "surrogatepass"))
            digest.update(b"\x00")
        digest.update(html.encode("utf-8", "surrogatepass"))
        return digest.hexdigest()

    def get(self, key: str) -> tuple[dict[str, str], set[str]] | None:
        """The documents and words kept under ``key``; None if none (or unreadable)."""
        self.used.add(key)
        try:
            data = json.loads((self.folder / f"{key}{SUFFIX}").read_text("utf-8"))
            documents, words = data["documents"], data["words"]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if not (
            isinstance(documents, dict)
            and isinstance(words, list)
            and all(isinstance(value, str) for value in documents.values())
            and all(isinstance(word, str) for word in words)
        ):
            return None  # JSON, but not documents and words (corrupted): made again
        return documents, set(words)

    def put(self, key: str, documents: dict[str, str], words: set[str]) -> None:
        """Keep ``documents`` and ``words`` under ``key`` (written whole or not at all; a
        folder that cannot be written is a build without the cache)."""
        self.used.add(key)
        data = {"documents": documents, "words": sorted(words)}
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle, name = tempfile.mkstemp(prefix=TEMPORARY, suffix=SUFFIX, dir=self.folder)
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(data, out, ensure_ascii=False, separators=(",", ":"))
            os.replace(name, self.folder / f"{key}{SUFFIX}")
        except OSError:
            return

    def prune(self) -> None:
        """Remove the files this build did not use (a whole build's: every page was seen),
        except another build's: one being written, or kept since this build began."""
        try:
            paths = list(self.folder.iterdir())
        except OSError:
            return
        now = time.time()
        for path in paths:
            name = path.name
            if not name.endswith(SUFFIX) or name[: -len(SUFFIX)] in self.used:
                continue
            try:
                written = path.stat().st_mtime
            except OSError:
                continue  # gone meanwhile (renamed by the build that wrote it)
            if name.startswith(TEMPORARY):
                if written < now - STALE_SECONDS:
                    path.unlink(missing_ok=True)
            elif written < self.begun - CLOCK_SLACK_SECONDS:
                path.unlink(missing_ok=True)
