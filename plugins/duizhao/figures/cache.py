"""The crop cache: ``<cache_dir>/figures/``, encoded crops named by key and a manifest. Pure."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..source import write_atomically
from ..yamlsafe import load_json
from .sources import SourceInfo

if TYPE_CHECKING:
    from .crops import Crop


class Cache:
    """``<dir>/figures/``: encoded crops named by key, and a manifest of crops and sources."""

    VERSION = 1

    def __init__(self, directory: Path) -> None:
        self.dir = directory / "figures"
        self.manifest_path = self.dir / "manifest.json"
        self.crops: dict[str, dict[str, Any]] = {}
        self.sources: dict[str, dict[str, Any]] = {}
        self._dirty = False
        try:
            data = load_json(self.manifest_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return  # no cache yet, or an unreadable one: start afresh
        if isinstance(data, dict) and data.get("version") == self.VERSION:
            self.crops = dict(data.get("crops", {}))
            self.sources = dict(data.get("sources", {}))

    def path(self, crop: Crop) -> Path:
        return self.dir / crop.filename

    def has(self, crop: Crop) -> bool:
        return crop.key in self.crops and self.path(crop).is_file()

    def source_info(self, digest: str) -> SourceInfo | None:
        data = self.sources.get(digest)
        if data is None:
            return None
        try:
            return SourceInfo.from_json(digest, data)
        except (KeyError, TypeError, ValueError):
            return None

    def remember_source(self, info: SourceInfo) -> None:
        if self.sources.get(info.digest) != info.to_json():
            self.sources[info.digest] = info.to_json()
            self._dirty = True

    def remember_crop(self, crop: Crop) -> None:
        self.crops[crop.key] = {
            "file": crop.filename,
            "width": crop.width,
            "height": crop.height,
            "format": crop.format,
        }
        self._dirty = True

    def save(self) -> None:
        if not self._dirty:
            return
        self.dir.mkdir(parents=True, exist_ok=True)
        data = {"version": self.VERSION, "crops": self.crops, "sources": self.sources}
        write_published(self.manifest_path, json.dumps(data, indent=1, sort_keys=True).encode())
        self._dirty = False


def write_published(path: Path, data: bytes) -> None:
    """A crop, preview or cache entry: atomic, not flushed to disk (a build makes it again),
    readable by a web server whatever the umask."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically({path: data}, durable=False, mode=0o644)
