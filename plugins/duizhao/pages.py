"""Pages duizhao generates (导言 indexes, 进度, 图表索引): one helper, MkDocs' public File API.

Each page is a :meth:`mkdocs.structure.files.File.generated` file backed by a copy of its
Markdown under the cache folder. The copy is rewritten only when the Markdown changed, so
``mkdocs serve --dirty`` renders a generated page again exactly when MkDocs would for an
author's file: its source is newer than its output.
"""

from __future__ import annotations

import os
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files, InclusionLevel

from .source import write_atomically


class GeneratedPages:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.uris: set[str] = set()

    def owns(self, src_uri: str) -> bool:
        return src_uri in self.uris

    def add(
        self,
        files: Files,
        config: MkDocsConfig,
        src_uri: str,
        content: str,
        inclusion: InclusionLevel = InclusionLevel.UNDEFINED,
    ) -> File:
        """Add the page ``src_uri`` made of ``content`` to ``files`` and return its File."""
        path = self.folder / src_uri
        data = content.encode("utf-8")
        try:
            same = path.read_bytes() == data
        except OSError:
            same = False
        if not same:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically({path: data})
        file = File.generated(config, src_uri, abs_src_path=os.fspath(path), inclusion=inclusion)
        files.append(file)
        self.uris.add(src_uri)
        return file
