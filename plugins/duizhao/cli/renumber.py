"""``duizhao renumber``: make an article's paragraph IDs sequential, with every link to them."""

from __future__ import annotations

from pathlib import Path

import click

from ..clipath import ArticlePath
from ..project import project_root
from .common import _fail, _project, _read_lock, _write, iter_linking, project_lock


@click.command("renumber")
@click.argument("article", type=ArticlePath(exists=True, dir_okay=False))
@click.option("--write", is_flag=True, help="Apply the changes (default: print a diff).")
def renumber(article: Path, write: bool) -> None:
    """Make ARTICLE's paragraph IDs sequential from its range start, with every reference.

    Links to its paragraphs anywhere in the docs tree, its 'paragraphs:' range and its entries
    in duizhao.lock follow. Without --write, prints a unified diff. Exit status 1 (nothing
    written) when a file cannot be read or a link points at a duplicated ID.
    """
    from ..lock import article_key

    project = _project(article)
    docs_dir, lock_path = project.docs_dir, project.lock_path
    key = article_key(article, docs_dir)
    if key is None:
        raise click.UsageError(f"{article} is not inside the docs folder {docs_dir}")
    if write:
        with project_lock(lock_path):  # plan from what is on disk now, write before release
            _renumber(article, docs_dir, lock_path, key, write=True)
    else:
        _renumber(article, docs_dir, lock_path, key, write=False)


def _renumber(article: Path, docs_dir: Path, lock_path: Path, key: str, *, write: bool) -> None:
    from .. import renumber as renumbering

    lock = _read_lock(lock_path)
    plan = renumbering.plan(
        article,
        docs_dir,
        list(iter_linking(docs_dir)),
        lock,
        lock_path,
        key,
        root=project_root(article),
        urls=_project(article).urls,
    )
    if plan.refusals:
        _fail(plan.refusals, f"cannot renumber {article}")
    if not plan.changes:
        click.echo(f"{article}: IDs are already sequential; nothing to change", err=True)
        return
    summary = (
        f"{plan.renumbered} ID{'s' * (plan.renumbered != 1)}, "
        f"{plan.references} link{'s' * (plan.references != 1)}, "
        f"{len(plan.changes)} file{'s' * (len(plan.changes) != 1)}"
    )
    if not write:
        click.echo(plan.diff(), nl=False)
        click.echo(f"dry run: would change {summary}; apply with --write", err=True)
        return
    _write({path: new for path, (_old, new) in plan.changes.items()}, "renumber")
    click.echo(f"{article}: renumbered {summary}", err=True)
