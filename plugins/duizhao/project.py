"""The project as mkdocs.yml describes it to duizhao: one reader for the CLI and the plugin.

The plugin hands :meth:`Project.from_options` the options MkDocs validated; the CLI, which never
builds the site (and does not import MkDocs), reads mkdocs.yml itself with
:func:`read_mkdocs_yml` and hands the same function the raw options. Either way the paths, the
lock and the sections mean the same thing.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .diagnostics import Diagnostic
from .lock import LOCK_NAME
from .quality.run import OptionsError, QualityOptions
from .siteurls import SiteUrls
from .yamlsafe import InputError, load_yaml_file

CONFIG_NAMES = ("mkdocs.yml", "mkdocs.yaml")


class ConfigError(Exception):
    """mkdocs.yml cannot be read."""


@dataclass(frozen=True)
class Project:
    #: the folder of mkdocs.yml: every path of the plugin's options is relative to it
    root: Path
    docs_dir: Path
    lock_path: Path
    #: ``site: sections:``, ``{folder: title}``, folders without surrounding slashes
    sections: dict[str, str] = field(default_factory=dict)
    #: ``quality:``: the translation checks' options
    quality: QualityOptions = field(default_factory=QualityOptions)
    #: ``cache_dir``: what the build and the check keep between runs
    cache_dir: Path | None = None
    #: how pages are published (``use_directory_urls``, ``site_url``'s path): where links to
    #: the built site land
    urls: SiteUrls = field(default_factory=SiteUrls)

    @classmethod
    def from_options(cls, root: Path, docs_dir: str | Path, options: Mapping[str, Any]) -> Project:
        """``options``: the duizhao plugin's options (validated by MkDocs, or as written)."""
        site = options.get("site")
        sections = site.get("sections") if isinstance(site, Mapping) else None
        lock = options.get("lock_file") or LOCK_NAME
        try:
            quality = QualityOptions.from_raw(options.get("quality"))
        except OptionsError as exc:
            shown = Diagnostic(root / "mkdocs.yml", 1, "DZ019", f"plugins: duizhao: {exc}")
            raise ConfigError(shown.format()) from None
        cache_dir = options.get("cache_dir") or ".cache/duizhao"
        return cls(
            root=root,
            docs_dir=(root / str(docs_dir)).resolve(),
            lock_path=root / str(lock),
            sections={
                str(k).strip("/"): str(v)
                for k, v in (sections.items() if isinstance(sections, Mapping) else ())
            },
            quality=quality,
            cache_dir=root / str(cache_dir),
        )

    @classmethod
    def from_mkdocs_yml(cls, path: Path) -> Project:
        config = read_mkdocs_yml(path)
        project = cls.from_options(
            path.parent, config.get("docs_dir") or "docs", plugin_options(config)
        )
        return replace(project, urls=SiteUrls.from_config(config))


def find_config(start: Path | None = None) -> Path | None:
    """The nearest mkdocs.yml (or mkdocs.yaml) at or above ``start`` (default: the current
    directory), as git finds ``.git``: the configuration of the project ``start`` is in."""
    folder = _folder_of(start)
    for candidate in (folder, *folder.parents):
        for name in CONFIG_NAMES:
            if (candidate / name).is_file():
                return candidate / name
    return None


def project_root(path: Path | None = None) -> Path:
    """The project of ``path`` (default: the current directory): the folder of the nearest
    mkdocs.yml at or above it, else the path itself (a file's folder; for a path still to be
    created, its nearest existing folder). The one answer to "which project" for the CLI: no
    file a command reads or writes for ``path`` may lead out of it. Absolute, symlinks not
    resolved: a link is judged where it is written, so one out of the project is refused."""
    config = find_config(path)
    return config.parent if config is not None else _folder_of(path)


def _folder_of(path: Path | None) -> Path:
    folder = Path(os.path.abspath(path if path is not None else Path.cwd()))
    if not folder.is_dir():
        folder = folder.parent
    while not folder.is_dir() and folder != folder.parent:
        folder = folder.parent
    return folder


def plugin_options(config: Mapping[str, Any]) -> dict[str, Any]:
    """The duizhao entry of ``plugins:`` (a list of names/mappings, or a mapping)."""
    plugins = config.get("plugins") or []
    entries = (
        plugins.items()
        if isinstance(plugins, Mapping)
        else (
            next(iter(p.items())) if isinstance(p, Mapping) and len(p) == 1 else (p, None)
            for p in plugins
            if isinstance(p, (str, Mapping))
        )
    )
    for name, options in entries:
        if name == "duizhao":
            return dict(options) if isinstance(options, Mapping) else {}
    return {}


def read_mkdocs_yml(path: Path) -> dict[str, Any]:
    """mkdocs.yml as data (its tags such as ``!ENV`` and ``!!python/name:`` read as plain
    values, never run), through the one bounded loader; raises :class:`ConfigError` whose
    message is ``PATH:LINE: DZ019 …``."""
    try:
        data, _node = load_yaml_file(path, permissive_tags=True)
    except (InputError, OSError) as exc:
        line = exc.line if isinstance(exc, InputError) else 1
        reason = exc.message if isinstance(exc, InputError) else (exc.strerror or str(exc))
        shown = Diagnostic(path, line, "DZ019", f"cannot read the MkDocs configuration: {reason}")
        raise ConfigError(shown.format()) from None
    return data if isinstance(data, dict) else {}
