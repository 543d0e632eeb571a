"""A JSON file of entries by source file, kept between runs (the check's summaries, the
translation checks' findings): read on first use, entries of files neither used now nor
existing any more forgotten, written once, atomically, when something changed. A file of
another format or version, unreadable or corrupt, is no store: it is replaced at the next
save. A store that cannot be written is skipped: the next run computes again, nothing lost."""

from __future__ import annotations

import json
import os
from pathlib import Path


class FileStore:
    """Entries (JSON lists) by file key. Subclasses give :attr:`FORMAT`, how the file is
    parsed (:meth:`_parse`) and whether it is written in ASCII (:attr:`ASCII`)."""

    FORMAT = 1
    #: Write non-ASCII characters as escapes (a name of undecodable bytes, a lone surrogate,
    #: is kept as an escape and read back as it was).
    ASCII = False

    def __init__(self, path: Path, version: str) -> None:
        self.path = path
        self.version = version
        self._files: dict[str, list[object]] | None = None  # read on first use
        self._used: set[str] = set()
        self._dirty = False

    def _parse(self, raw: bytes) -> object:
        """The file's JSON; raises ValueError (or RecursionError) when it is none."""
        return json.loads(raw)

    def _load(self) -> dict[str, list[object]]:
        if self._files is None:
            self._files = {}
            try:
                data = self._parse(self.path.read_bytes())
            except (OSError, ValueError, RecursionError):
                return self._files  # none yet, or unreadable: start afresh
            if (
                isinstance(data, dict)
                and data.get("format") == self.FORMAT
                and data.get("version") == self.version
                and isinstance(data.get("files"), dict)
            ):
                self._files = data["files"]
            else:
                self._dirty = True  # another version's: replaced at the next save
        return self._files

    def _keep(self, key: str, entry: list[object]) -> None:
        self._load()[key] = entry
        self._used.add(key)
        self._dirty = True

    def save(self) -> None:
        """Write the entries if any changed (those of files neither used now nor existing any
        more are forgotten); a store that cannot be written is skipped."""
        if not self._dirty or self._files is None:
            return
        files = {
            key: entry
            for key, entry in self._files.items()
            if key in self._used or os.path.isfile(key)
        }
        text = json.dumps(
            {"format": self.FORMAT, "version": self.version, "files": files},
            ensure_ascii=self.ASCII,
            separators=(",", ":"),
        )
        from .source import write_atomically  # (only a run that computed something writes)

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically({self.path: text.encode("utf-8")}, durable=False)
        except OSError:
            return  # a read-only project: computed again next time, nothing lost
        self._dirty = False
