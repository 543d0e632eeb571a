"""``duizhao``: the authors' command line. Reads sources; never builds the site."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import click
import yaml

from .article import read_article
from .checks import Corpus, check_corpus
from .diagnostics import Diagnostic, Severity
from .seeds import SeedError, load_seed, render_article, section_folder, write_new

CONFIG_NAMES = ("mkdocs.yml", "mkdocs.yaml")


class _PermissiveLoader(yaml.SafeLoader):
    """Reads mkdocs.yml without executing its tags (``!!python/name:``, ``!ENV``, ...)."""


def _ignore_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    return loader.construct_mapping(node)  # type: ignore[arg-type]


_PermissiveLoader.add_multi_constructor("", _ignore_tag)


def find_config(start: Path | None = None) -> Path | None:
    """mkdocs.yml in ``start`` (default: the current directory)."""
    folder = start or Path.cwd()
    for name in CONFIG_NAMES:
        if (folder / name).is_file():
            return folder / name
    return None


def read_config(path: Path) -> dict[str, Any]:
    try:
        with path.open(encoding="utf-8-sig") as f:
            data = yaml.load(f, Loader=_PermissiveLoader)
    except (OSError, yaml.YAMLError) as exc:
        raise click.UsageError(f"cannot read {path}: {exc}") from exc
    return data if isinstance(data, dict) else {}


def docs_dir_of(config_path: Path) -> Path:
    docs = read_config(config_path).get("docs_dir", "docs")
    return (config_path.parent / str(docs)).resolve()


def iter_markdown(paths: Iterable[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.md") if p.is_file())
        else:
            yield path


def _default_docs_dir() -> Path:
    config = find_config()
    if config is None:
        raise click.UsageError(
            "no PATH given and no mkdocs.yml in the current directory; "
            "run 'duizhao check docs/' or run it next to mkdocs.yml"
        )
    return docs_dir_of(config)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="duizhao")
def main() -> None:
    """duizhao: bilingual, paragraph-numbered paper translations on MkDocs + Material."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--strict", is_flag=True, help="Treat warnings as errors (exit 1 on any).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Output format.",
)
def check(paths: tuple[Path, ...], strict: bool, fmt: str) -> None:
    """Check articles for numbering, block and link problems.

    PATHS are files or folders (default: the docs_dir of ./mkdocs.yml). Exit status: 0 with no
    errors, 1 with errors (or, with --strict, warnings), 2 for usage problems.
    """
    config = find_config()
    docs_dir = docs_dir_of(config) if config else None
    targets = list(paths) or [_default_docs_dir()]
    files = list(iter_markdown(targets))
    corpus = Corpus(docs_dir)
    diagnostics = check_corpus((read_article(p) for p in files), corpus)
    diagnostics.sort(key=lambda d: (str(d.path), d.line, d.code))
    _report(diagnostics, fmt, len(files))
    errors = sum(d.severity is Severity.ERROR for d in diagnostics)
    warnings = len(diagnostics) - errors
    sys.exit(1 if errors or (strict and warnings) else 0)


def _report(diagnostics: list[Diagnostic], fmt: str, nfiles: int) -> None:
    if fmt == "json":
        click.echo(json.dumps([d.to_json() for d in diagnostics], ensure_ascii=False, indent=2))
        return
    for d in diagnostics:
        click.echo(d.format())
    errors = sum(d.severity is Severity.ERROR for d in diagnostics)
    warnings = len(diagnostics) - errors
    click.echo(
        f"{nfiles} file{'s' * (nfiles != 1)} checked: {errors} error{'s' * (errors != 1)}, "
        f"{warnings} warning{'s' * (warnings != 1)}",
        err=True,
    )


@main.command()
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
    config = find_config()
    if config is None:
        raise click.UsageError("run 'duizhao new' next to mkdocs.yml")
    docs_dir = docs_dir_of(config)
    sections = site_sections(read_config(config))
    refused = 0
    for seed_path in (*seed_paths, *more):
        try:
            seed = load_seed(seed_path)
        except SeedError as exc:
            raise click.ClickException(str(exc)) from exc
        folder = section_folder(sections, seed.section)
        if folder is None:
            raise click.ClickException(
                f"{seed_path}: section {seed.section!r} is not in {config.name}; add it as "
                f"'plugins: - duizhao: site: sections: {{my-folder: {seed.section}}}'"
            )
        target = docs_dir / folder / f"{seed.slug}.md"
        shown = Diagnostic(target, 1, "", "").display_path()
        try:
            write_new(target, render_article(seed))
        except FileExistsError:
            refused += 1
            click.echo(f"{shown} exists already; not overwritten (edit it instead)", err=True)
            continue
        click.echo(f"wrote {shown}")
    sys.exit(1 if refused else 0)


def site_sections(mkdocs_config: dict[str, Any]) -> dict[str, str]:
    """``{folder: title}`` from the duizhao plugin's ``site: sections:`` in mkdocs.yml."""
    for entry in mkdocs_config.get("plugins") or []:
        if isinstance(entry, dict) and isinstance(entry.get("duizhao"), dict):
            site = entry["duizhao"].get("site") or {}
            sections = site.get("sections") if isinstance(site, dict) else None
            if isinstance(sections, dict):
                return {str(k): str(v) for k, v in sections.items()}
    return {}


if __name__ == "__main__":  # pragma: no cover
    main()
