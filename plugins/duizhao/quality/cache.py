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
from functools import lru_cache
from pathlib import Path

from ..filestore import FileStore
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


class FindingsCache(FileStore):
    """Stored findings by file: ``get`` before checking a file, ``put`` after, ``save`` once."""

    FORMAT = _FORMAT

    def _parse(self, raw: bytes) -> object:
        return load_json(raw.decode("utf-8"))

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
        self._keep(key, [list(stamp), [list(f) for f in found]])


def _is_stored(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 3
        and isinstance(value[0], int)
        and isinstance(value[1], str)
        and isinstance(value[2], str)
    )
