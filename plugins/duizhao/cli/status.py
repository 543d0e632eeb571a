"""``duizhao status``: per article, what is translated, stale and missing; ``--accept`` and
``--diff`` for the stale ones."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from ..article import Article, read_article
from ..checks import refused_input, utf8_name
from ..diagnostics import Diagnostic, display_path
from ..project import project_root
from .common import _fail, _project, _read_lock, _write, iter_markdown, project_lock

_format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Output format.",
)


@click.command("status")
@_format_option
@click.option(
    "--accept",
    "accept",
    multiple=True,
    metavar="ARTICLE[#P042]",
    help="Mark the translation of an article (or one paragraph) current in duizhao.lock.",
)
@click.option(
    "--diff",
    "diff",
    multiple=True,
    metavar="ARTICLE[#P042]",
    help="Word diff of each stale paragraph's original since its translation was accepted.",
)
def status(fmt: str, accept: tuple[str, ...], diff: tuple[str, ...]) -> None:
    """Per article: declared, translated, stale and missing paragraphs, figures, progress.

    A translation is stale when its original changed after it was accepted with --accept;
    --diff shows what changed (when duizhao update recorded the earlier original).
    """
    from ..lock import article_key
    from ..progress.report import corpus_progress, format_table, stale_diagnostics, to_json

    project = _project()
    docs_dir, lock_path = project.docs_dir, project.lock_path
    if accept and diff:
        raise click.UsageError("--accept and --diff do not go together: review, then accept")
    if diff:
        _diff(diff, docs_dir, lock_path)
        return
    if accept:
        with project_lock(lock_path):  # read, change and write the lock with no other writer
            _accept(accept, docs_dir, lock_path)
        return
    lock = _read_lock(lock_path)
    articles: dict[str, Article] = {}
    refused: list[Diagnostic] = []
    root = project.root
    for path in iter_markdown([docs_dir]):
        key = article_key(path, docs_dir)
        problem = refused_input(path, root, docs_dir)
        if problem is not None:  # as in check and the build: named, never read
            refused.append(problem)
        elif key is not None:
            articles[key] = read_article(path)
    for diagnostic in refused:
        click.echo(diagnostic.format(), err=True)
    reports = corpus_progress(articles, lock)
    if fmt == "json":
        click.echo(json.dumps(to_json(reports), ensure_ascii=False, indent=2))
        return
    click.echo(format_table(reports), nl=False)
    for diagnostic in stale_diagnostics(articles, reports):
        click.echo(diagnostic.format(), err=True)


def _diff(targets: tuple[str, ...], docs_dir: Path, lock_path: Path) -> None:
    """``status --diff``: per stale paragraph, the word diff of its original from the one its
    translation was made for (``[-old-]{+new+}``, coloured on a terminal)."""
    from ..lock import article_key, digest
    from ..worddiff import plain, word_diff

    lock = _read_lock(lock_path)
    style = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    root = project_root()
    for target in targets:
        name, _, pid = target.partition("#")
        path = Path(name)
        key = article_key(path, docs_dir)
        if key is None or not path.is_file():
            raise click.UsageError(f"{name} is not an article in {docs_dir}")
        problem = refused_input(path, root, docs_dir)
        if problem is not None:
            _fail([problem], f"cannot show {target}")
        article = read_article(path)
        if any(d.code == "DZ011" for d in article.diagnostics):
            _fail(article.diagnostics, f"cannot show {target}")
        paragraphs = {p.id: p for p in reversed(article.paragraphs) if p.is_well_formed}
        if pid and pid not in paragraphs:
            raise click.UsageError(f"{name} has no paragraph {pid}")
        shown = 0
        for p in article.paragraphs:
            if (pid and p.id != pid) or p.id not in paragraphs or paragraphs[p.id] is not p:
                continue
            accepted = lock.accepted(key, p.id)
            stale = accepted is not None and accepted != digest(p.original) and not p.is_todo
            where = f"{display_path(path)}#{p.id}"
            if not stale:
                if pid:
                    click.echo(f"{where}: {_not_stale(p.is_todo, accepted is None)}")
                continue
            earlier = lock.previous_original(key, p.id)
            shown += 1
            if earlier is None:
                click.echo(
                    f"{where}: its original changed after the translation was accepted; the "
                    "earlier original is not recorded (it changed outside 'duizhao update')"
                )
                continue
            click.echo(f"{where}: the original its translation was made for → now")
            click.echo(plain(word_diff(earlier, p.original), style))
            click.echo("")
        if not pid and not shown:
            click.echo(f"{display_path(path)}: no stale paragraph")


def _not_stale(todo: bool, never_accepted: bool) -> str:
    """Why ``status --diff`` has no diff for one paragraph."""
    if todo:
        return "not translated yet (a block to translate); nothing to compare"
    if never_accepted:
        return (
            "its translation was never accepted, so no earlier original is known; accept it "
            "with 'duizhao status --accept' once reviewed"
        )
    return "not stale (its translation was accepted for this original)"


def _accept(targets: tuple[str, ...], docs_dir: Path, lock_path: Path) -> None:
    from ..lock import Lock, LockError, article_key, read_lock

    try:
        lock = read_lock(lock_path)
    except LockError as exc:
        if exc.conflict:
            _fail([exc.diagnostic], "the lock file must be fixed first")
        # Unreadable (truncated, not JSON, a wrong layout): rebuilt from what is accepted now.
        click.echo(exc.diagnostic.format(), err=True)
        click.echo(
            f"{lock_path.name} is rebuilt from the articles accepted now; the acceptances it "
            "held for other articles are dropped (accept docs/ to accept every article)",
            err=True,
        )
        lock = Lock()
    root = project_root()  # (status is the current directory's project)
    for target in targets:
        name, _, pid = target.partition("#")
        path = Path(name)
        if path.is_dir() and not pid:
            if article_key(path, docs_dir) is None and path.resolve() != docs_dir:
                raise click.UsageError(f"{name} is not a folder in {docs_dir}")
            # Every file is judged before anything is accepted: a FIFO, a dangling link, a
            # name that is not UTF-8 or a link out of the project is named, and nothing written.
            paths, refused = [], []
            for found in iter_markdown([path]):
                problem = refused_input(found, root, docs_dir)
                if problem is not None:
                    refused.append(problem)
                elif article_key(found, docs_dir) is not None:
                    paths.append(found)
            if refused:
                _fail(refused, f"cannot accept {target}")
        else:
            problem = refused_input(path, root, docs_dir)
            if problem is not None and path.exists():
                _fail([problem], f"cannot accept {target}")
            paths = [path]
        accepted = 0
        for one in paths:
            key = article_key(one, docs_dir)
            if key is None or not one.is_file():
                raise click.UsageError(f"{display_path(one)} is not an article in {docs_dir}")
            if not utf8_name(key):
                raise click.UsageError(
                    f"{display_path(one)}: the file name is not UTF-8; rename it"
                )
            article = read_article(one)
            if article.diagnostics and any(d.code == "DZ011" for d in article.diagnostics):
                _fail(article.diagnostics, f"cannot accept {target}")
            if len(paths) > 1 and not article.paragraphs:
                continue  # a folder: its plain pages have nothing to accept
            try:
                ids = lock.accept(key, article, pid or None)
            except KeyError:
                raise click.UsageError(f"{name} has no paragraph {pid}") from None
            except ValueError:
                raise click.UsageError(f"{pid} in {name} has no translation yet") from None
            accepted += len(ids)
        click.echo(f"{target}: accepted {accepted} paragraph{'s' * (accepted != 1)}")
    _write({lock_path: lock.to_bytes()}, "accept")
