"""``duizhao glossary …``: check, suggest, import, export (the commands; logic next door)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ...diagnostics import Diagnostic, Severity

if TYPE_CHECKING:
    from .model import Glossary

DRAFT_NAME = "glossary.draft.yml"


def _root() -> Path:
    from ...cli.common import _project

    return _project().root


def _load(root: Path) -> Glossary:
    from .model import glossary_path, read_glossary  # (not imported by `duizhao check`)

    glossary, problems = read_glossary(glossary_path(root))
    for d in problems:
        click.echo(d.format(), err=True)
    if any(d.severity is Severity.ERROR for d in problems) and not glossary:
        sys.exit(1)
    return glossary


def glossary_diagnostics(root: Path, articles: list) -> list[Diagnostic]:  # type: ignore[type-arg]
    """What ``duizhao check`` adds: the glossary's own problems and each paragraph's terms."""
    from .check import check_articles
    from .model import glossary_path, read_glossary

    path = glossary_path(root)
    glossary, problems = read_glossary(path)
    return problems + check_articles(glossary, articles)


@click.group()
def glossary() -> None:
    """The project's glossary (glossary.yml next to mkdocs.yml)."""


@glossary.command("check")
@click.option("--strict", is_flag=True, help="Treat warnings as errors (exit 1 on any).")
def check_command(strict: bool) -> None:
    """Report terms translated with none of their renderings, or a forbidden one."""
    from ...article import read_article
    from ...cli.common import _project, iter_markdown

    project = _project()
    articles = [read_article(p) for p in iter_markdown([project.docs_dir])]
    found = glossary_diagnostics(project.root, articles)
    found.sort(key=lambda d: (str(d.path), d.line, d.code))
    for d in found:
        click.echo(d.format())
    errors = sum(d.severity is Severity.ERROR for d in found)
    click.echo(f"{len(found)} problem(s) in the glossary's terms", err=True)
    sys.exit(1 if errors or (strict and found) else 0)


@glossary.command("suggest")
def suggest_command() -> None:
    """Write candidate terms to glossary.draft.yml (glossary.yml is never touched)."""
    from ...article import read_article
    from ...cli.common import _project, _write, iter_markdown, project_lock
    from .io import dump_yaml
    from .suggest import suggest

    project = _project()
    glossary = _load(project.root)
    articles = [read_article(p) for p in iter_markdown([project.docs_dir])]
    items = suggest(articles, glossary)
    draft = project.root / DRAFT_NAME
    with project_lock(project.lock_path):
        _write(
            {
                draft: (
                    "# Drafts: check them, then move them to glossary.yml\n" + dump_yaml(items)
                ).encode()
            },
            "suggest",
        )
    click.echo(f"{len(items)} suggested term(s) written to {DRAFT_NAME}")


@glossary.command("export")
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
def export_command(out: Path) -> None:
    """Write the glossary as OUT.tbx (TBX-Basic) or OUT.csv (source,target,tgt_lng,…)."""
    from ...cli.common import _write
    from .io import export_csv, export_tbx

    glossary = _load(_root())
    text = (
        export_tbx(glossary.entries)
        if out.suffix.lower() == ".tbx"
        else export_csv(glossary.entries)
    )
    _write({out: text.encode()}, "export")
    click.echo(f"{len(glossary.entries)} term(s) written to {out}")


@glossary.command("import")
@click.argument("source", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def import_command(source: Path) -> None:
    """Read a .tbx or .csv glossary into glossary.draft.yml (terms glossary.yml lacks)."""
    from ...cli.common import _project, _write, project_lock
    from .io import dump_yaml, import_file

    project = _project()
    glossary = _load(project.root)
    items, problems = import_file(source)
    if problems:
        for d in problems:
            click.echo(d.format(), err=True)
        sys.exit(1)
    known = {f.casefold() for e in glossary.entries for f in e.en}
    new = [i for i in items if not any(f.casefold() in known for f in i["en"])]
    draft = project.root / DRAFT_NAME
    with project_lock(project.lock_path):
        _write(
            {
                draft: (
                    "# Imported drafts: check them, then move them to glossary.yml\n"
                    + dump_yaml(new)
                ).encode()
            },
            "import",
        )
    click.echo(f"{len(new)} term(s) of {len(items)} written to {DRAFT_NAME}")
