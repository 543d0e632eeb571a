"""The translation checks' findings between runs: ``<cache_dir>/quality.json``. Pure but for
:meth:`FindingsCache.save`.

The checks cost far more than reading a file (a few hundred microseconds a block against a few
for the structural checks), so ``duizhao check`` and the build keep each file's findings, keyed
by the file's stamp (:func:`duizhao.article.file_stamp`: mtime, ctime, size, inode, never a
file that changed in the last two seconds) and by a version that names everything else they
depend on: the checks' own source, the options and the glossary. A stamp that differs, or a
version that differs, is a miss: the file is checked again. The cache is a cache: a missing,
unreadable or foreign file is an empty one, and one that cannot be written (a read-only
checkout) is not written.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path

from ..yamlsafe import load_json

#: A finding as stored: (line, code, message).
Stored = tuple[int, str, str]

CACHE_NAME = "quality.json"
_FORMAT = 1


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A digest of the checks' source files (quality/ and the glossary): a new version of
    duizhao, or an edited check, never reads the findings of the old one."""
    here = Path(__file__).parent
    digest = hashlib.sha1(usedforsecurity=False)
    for path in sorted([*here.glob("*.py"), *here.glob("glossary/*.py")]):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


class FindingsCache:
    """Stored findings by file: ``get`` before checking a file, ``put`` after, ``save`` once."""

    def __init__(self, path: Path, version: str) -> None:
        self.path = path
        self.version = version
        self._files: dict[str, list[object]] | None = None  # read on first use
        self._used: set[str] = set()
        self._dirty = False

    def _load(self) -> dict[str, list[object]]:
        if self._files is None:
            self._files = {}
            try:
                data = load_json(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return self._files  # none yet, or unreadable: start afresh
            if (
                isinstance(data, dict)
                and data.get("format") == _FORMAT
                and data.get("version") == self.version
                and isinstance(data.get("files"), dict)
            ):
                self._files = data["files"]
            else:
                self._dirty = True  # another version's: replaced at the next save
        return self._files

    def get(self, key: str, stamp: tuple[int, ...]) -> list[Stored] | None:
        """The findings stored for the file ``key`` read with ``stamp``, or None."""
        entry = self._load().get(key)
        self._used.add(key)
        if not isinstance(entry, list) or len(entry) != 2 or entry[0] != list(stamp):
            return None
        found = entry[1]
        if not isinstance(found, list) or not all(_is_stored(f) for f in found):
            return None
        return [(int(f[0]), str(f[1]), str(f[2])) for f in found]

    def put(self, key: str, stamp: tuple[int, ...], found: list[Stored]) -> None:
        self._load()[key] = [list(stamp), [list(f) for f in found]]
        self._used.add(key)
        self._dirty = True

    def save(self) -> None:
        """Write the findings if any changed (files neither checked now nor existing any more
        are forgotten); a cache that cannot be written is skipped: the next run checks again."""
        if not self._dirty or self._files is None:
            return
        files = {
            key: entry
            for key, entry in self._files.items()
            if key in self._used or os.path.isfile(key)
        }
        data = json.dumps(
            {"format": _FORMAT, "version": self.version, "files": files},
            ensure_ascii=False,
            separators=(",", ":"),
        ).encode("utf-8")
        from ..source import write_atomically  # (only a run that checked something writes)

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically({self.path: data}, durable=False)
        except OSError:
            return  # a read-only project: findings are computed again next time, nothing lost
        self._dirty = False


def _is_stored(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 3
        and isinstance(value[0], int)
        and isinstance(value[1], str)
        and isinstance(value[2], str)
    )
