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
Sphinx's fuzzy translations, but per numbered paragraph).

``duizhao update`` (a new version of the original) adds three sections, each written only when
it has entries, so a lock that never saw an update keeps exactly the layout above:

- ``previous``: per article and paragraph, the original the translation was made for, as it
  was before the update changed it (what ``duizhao status --diff`` and the reader's 原文已更新
  mark compare the new original with); an entry goes when its paragraph is accepted;
- ``aliases``: per article, an old paragraph ID that no paragraph carries any more → the ID of
  the paragraph it became (an alias anchor on the page, so readers' bookmarks survive);
- ``updates``: per article, one record per update, oldest first:
  ``{"from": "v5", "ids": {"P042": "P043", "P057": null, …}, "to": "v6"}`` (``null``: removed).

Pure: no MkDocs import.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .article import PARAGRAPH_ID_RE, Article
from .diagnostics import Diagnostic
from .yamlsafe import MAX_JSON_DEPTH, MAX_LOCK_BYTES, InputError, json_too_deep, read_bytes

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
    import hashlib  # (here: `duizhao check` and the CLI's start need no hashing)

    return hashlib.sha256(" ".join(original.split()).encode("utf-8")).hexdigest()[:16]


class LockError(Exception):
    def __init__(self, diagnostic: Diagnostic, *, conflict: bool = False) -> None:
        super().__init__(diagnostic.format())
        self.diagnostic = diagnostic
        #: an unresolved merge conflict: never rebuilt over (the other side's entries are there)
        self.conflict = conflict


#: One update of an article: the versions (``from``, ``to``; None when not given) and the fate
#: of every old ID (``ids``: old → new, None for a removed paragraph).
UpdateRecord = dict[str, Any]


@dataclass
class Lock:
    """Accepted digests by article (docs-relative POSIX path) and paragraph ID, and what
    ``duizhao update`` keeps about earlier versions (see the module docstring)."""

    articles: dict[str, dict[str, str]] = field(default_factory=dict)
    previous: dict[str, dict[str, str]] = field(default_factory=dict)
    aliases: dict[str, dict[str, str]] = field(default_factory=dict)
    updates: dict[str, list[UpdateRecord]] = field(default_factory=dict)

    def accepted(self, key: str, pid: str) -> str | None:
        return self.articles.get(key, {}).get(pid)

    def previous_original(self, key: str, pid: str) -> str | None:
        """The original ``pid``'s translation was made for, before an update changed it."""
        return self.previous.get(key, {}).get(pid)

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
        # What was compared with the new original is reviewed now: nothing left to show.
        previous = self.previous.get(key, {})
        for one in accepted if pid is not None else list(previous):
            previous.pop(one, None)
        if key in self.previous and not previous:
            del self.previous[key]
        return accepted

    def to_bytes(self) -> bytes:
        data: dict[str, Any] = {"articles": self.articles, "version": LOCK_VERSION}
        for name in ("previous", "aliases", "updates"):
            section = {k: v for k, v in getattr(self, name).items() if v}
            if section:
                data[name] = section
        text = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True)
        return (text + "\n").encode("utf-8")


#: What a broken lock's diagnostic tells the author to do.
RECOVER = (
    "restore it from version control (git checkout duizhao.lock), or rebuild it with "
    "'duizhao status --accept docs/' (this accepts every current translation)"
)
_DIGEST_RE = re.compile(r"[0-9a-f]{16}")


def _bad(path: Path, line: int, message: str, *, conflict: bool = False) -> LockError:
    how = "resolve the conflict, keeping the entries of both sides" if conflict else RECOVER
    return LockError(Diagnostic(path, line, "DZ303", f"{message}; {how}"), conflict=conflict)


def parse_lock(data: bytes, path: Path) -> Lock:
    """Read a lock file's bytes; :class:`LockError` (DZ303) says what is wrong, where, and how
    to recover. Every entry is validated: a docs-relative article path, well-formed paragraph
    IDs and 16-hex-digit digests."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise _bad(path, line, f"lock file is not UTF-8 ({exc.reason})") from None
    if not text.strip():
        raise _bad(path, 1, "lock file is empty (truncated?)")
    deep = _too_deep(text)
    if deep is not None:
        raise _bad(
            path,
            deep,
            f"lock file nests more than {MAX_LOCK_DEPTH} levels of brackets (a lock has 4 at most)",
        )
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        rows = text.splitlines()
        snippet = rows[exc.lineno - 1].strip()[:80] if 0 < exc.lineno <= len(rows) else ""
        conflict = snippet.startswith(("<<<<<<<", "=======", ">>>>>>>"))
        hint = " (an unresolved merge conflict?)" if conflict else ""
        truncated = " (truncated?)" if exc.lineno >= len(rows) else ""
        raise _bad(
            path,
            exc.lineno,
            f"lock file is not valid JSON: {exc.msg} in {snippet!r}{hint}{truncated}",
            conflict=conflict,
        ) from None
    except (ValueError, RecursionError):  # a 5,000-digit number (depth is refused above)
        raise _bad(path, 1, "lock file is not valid JSON (a number too long to read)") from None
    articles = raw.get("articles") if isinstance(raw, dict) else None
    if (
        not isinstance(raw, dict)
        or raw.get("version") != LOCK_VERSION
        or not isinstance(articles, dict)
    ):
        raise _bad(path, 1, "lock file has an unknown layout (expected version 1)")
    lock = Lock()
    lines = _entry_lines(text)
    for key, entries in articles.items():
        line = _check_key(path, key, entries, lines, "a map of paragraph IDs to digests")
        for pid, value in entries.items():
            if not PARAGRAPH_ID_RE.fullmatch(pid) or not (
                isinstance(value, str) and _DIGEST_RE.fullmatch(value)
            ):
                raise _bad(
                    path,
                    lines.get(pid, line),
                    f"lock entry {_shown(key)!r} has a malformed paragraph {pid[:20]!r}: "
                    f"expected an ID such as P042 and a digest of 16 hex digits",
                )
        lock.articles[key] = dict(entries)
    lock.previous = _section(raw, "previous", path, lines, _previous_entry)
    lock.aliases = _section(raw, "aliases", path, lines, _alias_entry)
    lock.updates = _section(raw, "updates", path, lines, _update_entry)
    return lock


#: Deepest nesting of ``[``/``{`` a lock may have (it has 4 at most); deeper is DZ303 before
#: ``json.loads`` recurses.
MAX_LOCK_DEPTH = MAX_JSON_DEPTH


def _too_deep(text: str) -> int | None:
    """The line where ``text`` nests brackets (outside strings) deeper than
    :data:`MAX_LOCK_DEPTH`, or None; one linear pass."""
    return json_too_deep(text, MAX_LOCK_DEPTH)


def _shown(key: str) -> str:
    return key if len(key) <= 80 else key[:79] + "…"


def _check_key(path: Path, key: str, entries: object, lines: dict[str, int], shape: str) -> int:
    """The line of the article entry ``key``, after checking it is a docs path and that its
    value is a JSON object (or, for ``updates``, a list)."""
    line = lines.get(key, 1)
    if not key or key.startswith("/") or ".." in key.split("/") or "\\" in key:
        raise _bad(path, line, f"lock entry {_shown(key)!r} is not a path inside the docs folder")
    if not isinstance(entries, list if shape.startswith("a list") else dict):
        raise _bad(path, line, f"lock entry {_shown(key)!r} is not {shape}")
    return line


def _section(
    raw: dict[str, Any],
    name: str,
    path: Path,
    lines: dict[str, int],
    valid: Any,
) -> dict[str, Any]:
    """An optional section of the lock (``previous``, ``aliases``, ``updates``), validated."""
    section = raw.get(name, {})
    if not isinstance(section, dict):
        raise _bad(path, lines.get(name, 1), f"lock section {name!r} is not a JSON object")
    shape, check = valid
    out: dict[str, Any] = {}
    for key, entries in section.items():
        line = _check_key(path, key, entries, lines, shape)
        problem = check(entries)
        if problem is not None:
            raise _bad(path, line, f"{name} of {_shown(key)!r}: {problem}")
        out[key] = entries
    return out


def _is_id(value: object) -> bool:
    return isinstance(value, str) and PARAGRAPH_ID_RE.fullmatch(value) is not None


def _check_previous(entries: dict[str, Any]) -> str | None:
    for pid, text in entries.items():
        if not _is_id(pid) or not isinstance(text, str):
            return f"expected paragraph IDs and their earlier originals, got {pid[:20]!r}"
    return None


def _check_aliases(entries: dict[str, Any]) -> str | None:
    for old, new in entries.items():
        if not (_is_id(old) and _is_id(new)):
            return f"expected old paragraph IDs and the IDs they became, got {old[:20]!r}"
    return None


def _check_updates(records: list[Any]) -> str | None:
    for record in records:
        if not isinstance(record, dict) or not isinstance(record.get("ids"), dict):
            return "expected records {from, to, ids}"
        if any(not (v is None or isinstance(v, str)) for k, v in record.items() if k != "ids"):
            return "versions must be text or null"
        for old, new in record["ids"].items():
            if not _is_id(old) or not (new is None or _is_id(new)):
                return f"expected old IDs and their new IDs (or null), got {old[:20]!r}"
    return None


_previous_entry = ("a map of paragraph IDs to originals", _check_previous)
_alias_entry = ("a map of old paragraph IDs to new ones", _check_aliases)
_update_entry = ("a list of update records", _check_updates)


def _entry_lines(text: str) -> dict[str, int]:
    """The line of the first occurrence of each JSON key (for diagnostics; best effort)."""
    lines: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        m = re.match(r'^\s*"((?:[^"\\]|\\.)*)"\s*:', line)  # (^: anchored for the analyser)
        if m:
            lines.setdefault(m.group(1), number)
    return lines


def read_lock(path: Path) -> Lock:
    """The lock at ``path``; an empty one when the file does not exist yet."""
    try:
        data = read_bytes(path, MAX_LOCK_BYTES)
    except FileNotFoundError:
        return Lock()
    except InputError as exc:
        raise _bad(path, exc.line, f"cannot read lock file: {exc.message}") from None
    return parse_lock(data, path)
