"""``duizhao new``: article skeletons from seed records."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..diagnostics import display_path
from .common import find_project, project_lock


@click.command()
@click.option(
    "--from-seed",
    "seed_paths",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    multiple=True,
    required=True,
    help="A seed record (seeds/<slug>.yml).",
)
@click.argument("more", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
def new(seed_paths: tuple[Path, ...], more: tuple[Path, ...]) -> None:
    """Write new article skeletons into their section folders; never overwrites.

    \b
    duizhao new --from-seed seeds/ub-mesh-architecture.yml
    duizhao new --from-seed seeds/*.yml

    The section folder is the one mkdocs.yml names for the seed's section
    (plugins: duizhao: site: sections: {FOLDER: TITLE}). Exit 1 if any article exists already.
    """
    project = find_project()
    if project is None:
        raise click.UsageError("run 'duizhao new' next to mkdocs.yml")
    with project_lock(project.lock_path):
        refused = _new(seed_paths + more, project.docs_dir, project.sections)
    sys.exit(1 if refused else 0)


def _new(seeds: tuple[Path, ...], docs_dir: Path, sections: dict[str, str]) -> int:
    from ..seeds import SeedError, load_seed, render_article, section_folder, write_new

    refused = 0
    for seed_path in seeds:
        try:
            seed = load_seed(seed_path)
        except SeedError as exc:
            raise click.ClickException(str(exc)) from exc
        folder = section_folder(sections, seed.section)
        if folder is None:
            raise click.ClickException(
                f"{seed_path}: section {seed.section!r} is not in mkdocs.yml; add it as "
                f"'plugins: - duizhao: site: sections: {{my-folder: {seed.section}}}'"
            )
        target = docs_dir / folder / f"{seed.slug}.md"
        shown = display_path(target)
        try:
            write_new(target, render_article(seed))
        except FileExistsError:
            refused += 1
            click.echo(f"{shown} exists already; not overwritten (edit it instead)", err=True)
            continue
        click.echo(f"wrote {shown}")
    return refused
