"""What the commands share: the project a path is in, the Markdown files under a folder, the
writer lock, atomic writes and the one way to give up."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from ..diagnostics import Diagnostic, display_path
from ..project import ConfigError, Project, find_config

if TYPE_CHECKING:
    from ..lock import Lock


def find_project(path: Path | None = None) -> Project | None:
    """The project of ``path`` (default: the current directory) as its mkdocs.yml describes
    it: the nearest one at or above it (:func:`duizhao.project.project_root`), if any."""
    config = find_config(path)
    if config is None:
        return None
    try:
        return Project.from_mkdocs_yml(config)
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from exc


def iter_linking(docs_dir: Path) -> Iterator[Path]:
    """The files of the docs folder that may link to a paragraph: its Markdown pages and its
    HTML pages (``.html``, which MkDocs copies to the site as they are)."""
    yield from iter_markdown([docs_dir])
    yield from sorted(p for p in docs_dir.rglob("*.html") if not p.is_dir())


def iter_markdown(paths: Iterable[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            # Not only regular files: a FIFO or a device named *.md is reported, not skipped.
            yield from sorted(p for p in path.rglob("*.md") if not p.is_dir())
        else:
            yield path


def _project(path: Path | None = None) -> Project:
    """The project of ``path`` (default: the current directory); a usage error if none."""
    project = find_project(path)
    if project is None:
        where = f"above {display_path(path)}" if path else "in the current directory or above"
        raise click.UsageError(f"no mkdocs.yml {where}; run this in a MkDocs project")
    return project


@contextmanager
def project_lock(lock_path: Path) -> Iterator[None]:
    """The project's writer lock (:func:`duizhao.source.project_lock`); busy → exit 1."""
    from ..source import ProjectBusyError
    from ..source import project_lock as _project_lock

    try:
        with _project_lock(lock_path):
            yield
    except ProjectBusyError as exc:
        raise click.ClickException(str(exc)) from None


def _fail(diagnostics: Iterable[Diagnostic], what: str) -> NoReturn:
    for d in diagnostics:
        click.echo(d.format(), err=True)
    click.echo(f"{what}; nothing written", err=True)
    sys.exit(1)


def _write(files: dict[Path, bytes], what: str) -> None:
    """Write atomically; if that stops part-way, say which files hold their new content."""
    from ..source import write_atomically

    try:
        write_atomically(files)
    except OSError as exc:
        done = [p for p, data in files.items() if p.is_file() and p.read_bytes() == data]
        click.echo(f"{what} stopped: {exc}", err=True)
        click.echo(
            "every file is complete, either unchanged or fully rewritten; rewritten: "
            + (", ".join(os.path.relpath(p) for p in done) or "none"),
            err=True,
        )
        sys.exit(1)


def _read_lock(path: Path) -> Lock:
    from ..lock import LockError, read_lock

    try:
        return read_lock(path)
    except LockError as exc:
        _fail([exc.diagnostic], "the lock file must be fixed first")
