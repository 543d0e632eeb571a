"""``duizhao figures …``: authoring help for figure specs. Reads sources; never builds."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ..article import read_article
from .catalog import Catalog
from .preview import preview
from .spec import load_spec, spec_path

DEFAULT_PREVIEW_DIR = Path(".cache/duizhao/preview")


def _project_root(start: Path) -> Path:
    """The folder of the nearest mkdocs.yml above ``start``, else the current directory."""
    for folder in [start, *start.parents]:
        if (folder / "mkdocs.yml").is_file() or (folder / "mkdocs.yaml").is_file():
            return folder
    return Path.cwd()


@click.group()
def figures() -> None:
    """Help with the paper's figures declared in <article>.figures.yml."""


@figures.command("preview")
@click.argument("article", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--page", type=click.IntRange(min=1), help="Only this page (1-based).")
@click.option("--dpi", type=click.IntRange(20, 400), default=100, show_default=True)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=DEFAULT_PREVIEW_DIR,
    show_default=True,
    help="Folder for the PNGs.",
)
def preview_command(article: Path, page: int | None, dpi: int, out: Path) -> None:
    """Draw every declared box on the source pages of ARTICLE, labelled, as PNGs.

    Adjust the boxes in the .figures.yml by eye, then run again. Problems in the spec are
    listed first; the figures that parse are drawn.
    """
    spec_file = spec_path(article)
    if not spec_file.is_file():
        raise click.UsageError(f"no figure spec {spec_file}; create it beside {article.name}")
    root = _project_root(article.resolve().parent)
    catalog = Catalog(root)
    spec = load_spec(spec_file, root)
    for diagnostic in catalog.check(read_article(article)):
        click.echo(diagnostic.format(), err=True)
    usable = [f for f in spec.figures if catalog.source(f.source.path).kind != "bad"]
    spec.figures = usable
    if not usable:
        raise click.ClickException("no figure with a usable source to draw")
    written = preview(spec, out, page=page, dpi=dpi)
    if not written:
        raise click.ClickException(f"page {page} is in none of the sources")
    for path in written:
        click.echo(os.path.relpath(path))
