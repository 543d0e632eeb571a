"""``duizhao.lock``: the digest of each paragraph's original when its translation was accepted.

The file sits next to mkdocs.yml and is committed. It is sorted JSON with one entry per line, so
that accepting a paragraph changes one line of a diff and two branches rarely conflict::

    {
      "articles": {
        "ai-systems/xdeepserve.md": {
          "P001": "3f0c2a9d41e7b6c5",
          ...
        }
      },
      "version": 1
    }

A translation is *stale* when its original's digest no longer matches the accepted one (like
Sphinx's fuzzy translations, but per numbered paragraph). Pure: no MkDocs import.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from .article import Article
from .diagnostics import Diagnostic

LOCK_NAME = "duizhao.lock"
LOCK_VERSION = 1


def article_key(path: Path, docs_dir: Path) -> str | None:
    """The key of an article in the lock: its docs-relative POSIX path (None outside docs)."""
    try:
        return path.resolve().relative_to(docs_dir.resolve()).as_posix()
    except ValueError:
        return None


def digest(original: str) -> str:
    """A short digest of an original; re-wrapping lines or trailing spaces do not change it."""
    return hashlib.sha256(" ".join(original.split()).encode("utf-8")).hexdigest()[:16]


class LockError(Exception):
    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.format())
        self.diagnostic = diagnostic


@dataclass
class Lock:
    """Accepted digests by article (docs-relative POSIX path) and paragraph ID."""

    articles: dict[str, dict[str, str]] = field(default_factory=dict)

    def accepted(self, key: str, pid: str) -> str | None:
        return self.articles.get(key, {}).get(pid)

    def accept(self, key: str, article: Article, pid: str | None = None) -> list[str]:
        """Record the current originals of ``article`` (one paragraph, or every translated one).

        Accepting the whole article also forgets IDs it no longer has. Returns the IDs accepted;
        raises ``KeyError`` for an unknown ``pid`` and ``ValueError`` for one not translated yet.
        """
        seen: set[str] = set()
        current: dict[str, str] = {}
        for p in article.paragraphs:
            if p.is_well_formed and p.id not in seen and not p.is_todo:
                current[p.id] = digest(p.original)
            seen.add(p.id)
        entries = self.articles.setdefault(key, {})
        if pid is None:
            entries.clear()
            entries.update(current)
            accepted = sorted(current)
        elif pid in current:
            entries[pid] = current[pid]
            accepted = [pid]
        elif pid in seen:
            raise ValueError(pid)
        else:
            raise KeyError(pid)
        if not entries:
            del self.articles[key]
        return accepted

    def to_bytes(self) -> bytes:
        data = {"articles": self.articles, "version": LOCK_VERSION}
        text = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True)
        return (text + "\n").encode("utf-8")


def _bad(path: Path, line: int, message: str) -> LockError:
    return LockError(Diagnostic(path, line, "DZ303", message))


def parse_lock(data: bytes, path: Path) -> Lock:
    """Read a lock file's bytes; :class:`LockError` (DZ303) says what is wrong and where."""
    example = (
        'write it with \'duizhao status --accept ARTICLE\', e.g. {"articles": {}, "version": 1}'
    )
    try:
        raw = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise _bad(path, 1, f"lock file is not UTF-8 ({exc.reason})") from None
    except json.JSONDecodeError as exc:
        text = data.decode("utf-8-sig")
        snippet = text.splitlines()[exc.lineno - 1].strip() if text.strip() else ""
        conflict = snippet.startswith(("<<<<<<<", "=======", ">>>>>>>"))
        hint = " (an unresolved merge conflict?)" if conflict else ""
        raise _bad(
            path,
            exc.lineno,
            f"lock file is not valid JSON: {exc.msg} in {snippet!r}{hint}; {example}",
        ) from None
    articles = raw.get("articles") if isinstance(raw, dict) else None
    if (
        not isinstance(raw, dict)
        or raw.get("version") != LOCK_VERSION
        or not isinstance(articles, dict)
    ):
        raise _bad(path, 1, f"lock file has an unknown layout (expected version 1); {example}")
    lock = Lock()
    for key, entries in articles.items():
        if not isinstance(entries, dict) or not all(isinstance(v, str) for v in entries.values()):
            raise _bad(path, 1, f"lock entry {key!r} is not a map of paragraph IDs to digests")
        lock.articles[str(key)] = {str(k): v for k, v in entries.items()}
    return lock


def read_lock(path: Path) -> Lock:
    """The lock at ``path``; an empty one when the file does not exist yet."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return Lock()
    except OSError as exc:
        raise _bad(path, 1, f"cannot read lock file: {exc.strerror or exc}") from None
    return parse_lock(data, path)
