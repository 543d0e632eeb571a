"""``duizhao figures …``: authoring help for figure specs. Reads sources; never builds."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..article import read_article
from ..clipath import ArticlePath, Refused
from ..project import project_root
from ..yamlsafe import MAX_BINARY_BYTES, MAX_YAML_BYTES, InputError, read_bytes
from .catalog import Catalog
from .spec import load_spec, spec_path

if TYPE_CHECKING:
    from .merge import Merge

DEFAULT_PREVIEW_DIR = Path(".cache/duizhao/preview")
DEFAULT_CACHE_DIR = ".cache/duizhao"


def _cache_dir(root: Path) -> Path:
    """The plugin's cache folder as mkdocs.yml sets it (``figures: cache_dir:``)."""
    from ..project import ConfigError, find_config, plugin_options, read_mkdocs_yml

    folder = DEFAULT_CACHE_DIR
    config = find_config(root)
    if config is not None:
        try:
            options = plugin_options(read_mkdocs_yml(config)).get("figures")
        except ConfigError:
            options = None
        if isinstance(options, dict) and isinstance(options.get("cache_dir"), str):
            folder = options["cache_dir"]
    return root / folder


def detect_cache_dir(start: Path) -> Path:
    """Where detection results are cached, for the project of ``start``."""
    return _cache_dir(project_root(start)) / "figures" / "detect"


@click.group()
def figures() -> None:
    """Help with the paper's figures declared in <article>.figures.yml."""


@figures.command("preview")
@click.argument("article", type=ArticlePath(exists=True, dir_okay=False))
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
    root = project_root(article)
    catalog = Catalog(root)
    spec = load_spec(spec_file, root)
    for diagnostic in catalog.check(read_article(article)):
        click.echo(diagnostic.format(), err=True)
    usable = [f for f in spec.figures if catalog.source(f.source.path).kind != "bad"]
    spec.figures = usable
    if not usable:
        raise click.ClickException("no figure with a usable source to draw")
    refused: list[str] = []
    from .preview import preview  # Pillow's drawing, for this command alone

    written = preview(spec, out, page=page, dpi=dpi, refused=refused)
    for reason in refused:
        click.echo(reason, err=True)
    if not written and refused:
        raise click.ClickException("no page could be drawn")
    if not written:
        raise click.ClickException(f"page {page} is in none of the sources")
    for path in written:
        click.echo(os.path.relpath(path))


DEFAULT_REVIEW_DIR = Path(".cache/duizhao/review")
#: Papers with at least this many pages get a progress bar.
PROGRESS_PAGES = 8


@figures.command("detect")
@click.argument("paper", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--article",
    type=ArticlePath(exists=True, dir_okay=False),
    help="The translation (docs/x/foo.md) whose foo.figures.yml the entries are for.",
)
@click.option("--write", is_flag=True, help="Merge the entries into the article's spec.")
@click.option("--review", is_flag=True, help="Write an HTML contact sheet of what was found.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=DEFAULT_REVIEW_DIR,
    show_default=True,
    help="Folder for the --review page.",
)
def detect_command(paper: Path, article: Path | None, write: bool, review: bool, out: Path) -> None:
    """Find every figure and table of PAPER (a PDF): number, caption and crop box.

    Prints the entries for ARTICLE's .figures.yml (YAML) on stdout and a summary on stderr.
    With --write they are merged into the spec: new figures are added; an entry already
    there is never changed (differences from the detection are reported). Results are cached
    by the PDF's SHA-256, so a second run is instant.
    """
    import time

    from ..lock import LOCK_NAME
    from ..pdf.read import PdfError
    from ..source import ProjectBusyError, project_lock, write_atomically
    from .detect import detect_cached
    from .merge import keyed, spec_text
    from .review import count_of, missing_numbers, review_html
    from .sources import sniff

    if write and article is None:
        raise click.UsageError("--write needs --article ARTICLE (the .md whose spec to write)")
    root = project_root(article or paper)
    try:  # a regular file, bounded, and a PDF by its content (a FIFO is refused, not read)
        head = read_bytes(paper, MAX_BINARY_BYTES)
    except (InputError, OSError) as exc:
        raise click.UsageError(f"cannot read {paper}: {exc}") from None
    if sniff(head) != "pdf":
        raise click.UsageError(f"{paper} is not a PDF (judged by its content)")
    del head
    cache_dir = detect_cache_dir(root)
    started = time.perf_counter()
    with _progress("reading pages") as progress:
        try:
            result = detect_cached(paper, cache_dir, progress)
        except PdfError as exc:  # one line: PATH:PAGE: DZ113 reason
            raise Refused(str(exc)) from None
        except (OSError, ValueError) as exc:
            raise click.ClickException(str(exc)) from exc
    seconds = time.perf_counter() - started
    found, unkeyed = keyed(result.figures)
    spec_file = spec_path(article) if article is not None else None

    figures_n = sum(f.kind == "figure" for f in found)
    tables_n = len(found) - figures_n
    how = (
        "cached"
        if result.cached
        else f"{seconds:.1f} s, {seconds / max(1, result.pages):.2f} s/page"
    )
    click.echo(
        f"{paper}: {count_of(result.pages, 'page')}, {count_of(figures_n, 'figure')}, "
        f"{count_of(tables_n, 'table')} ({how})",
        err=True,
    )
    for note in result.notes:
        click.echo(f"  {paper}: {note}", err=True)
    for unboxed in result.unboxed:
        click.echo(f"  {paper}: {unboxed.message()}", err=True)
    for f in unkeyed:
        click.echo(
            f"  {paper}: page {f.page}: {f.label} has the number of another {f.kind} (a "
            ".figures.yml id is a number): left out; add it by hand under a free id",
            err=True,
        )
    for kind in ("figure", "table"):
        missing = missing_numbers([f.number for f in found if f.kind == kind])
        if missing:
            click.echo(
                f"  {kind} {missing} not found: add by hand (duizhao figures preview helps)",
                err=True,
            )
    if review:
        name = f"{paper.stem}-{result.digest[:8]}.html"
        target = out / name
        with _progress("drawing pages") as progress:
            html = review_html(paper, found, progress)
        out.mkdir(parents=True, exist_ok=True)
        write_atomically({target: html.encode("utf-8")})
        click.echo(f"  review: {os.path.relpath(target)}", err=True)

    if spec_file is None:
        click.echo(spec_text(found, os.path.relpath(paper), paper.name), nl=False)
        return
    if write:
        try:  # read, merge and write the spec with no other duizhao writer in between
            with project_lock(root / LOCK_NAME):
                _merge(spec_file, paper, found, write=True)
        except ProjectBusyError as exc:
            raise click.ClickException(str(exc)) from None
    else:
        _merge(spec_file, paper, found, write=False)


def merged_spec(spec_file: Path, paper: Path, found: Sequence[Any]) -> tuple[str, Merge]:
    """The spec's text as it is and with ``found`` merged in (nothing written); the
    differences of the entries kept as written are reported. ``ClickException`` when the
    spec cannot be read or merged into."""
    from .merge import MergeError, merge

    try:
        data = read_bytes(spec_file, MAX_YAML_BYTES) if spec_file.is_file() else b""
        text = data.decode("utf-8-sig")
    except (InputError, OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(f"cannot read {spec_file}: {exc}") from None
    try:
        merged = merge(text, spec_file, paper, found)
    except MergeError as exc:
        raise click.ClickException(f"{spec_file}: {exc}") from exc
    for f, diff in merged.differences:
        click.echo(f"  {spec_file.name}: {f.label} kept as written; differs in {diff}", err=True)
    return text, merged


def _merge(spec_file: Path, paper: Path, found: list[Any], *, write: bool) -> None:
    from ..source import write_atomically
    from .merge import entry_lines

    text, merged = merged_spec(spec_file, paper, found)
    if not write:
        lines: list[str] = []
        for f in merged.added:
            lines += entry_lines(f)
        if not text:
            click.echo(merged.text, nl=False)
        elif lines:
            click.echo("\n".join(lines))
        click.echo(
            f"  {_entries(len(merged.added), 'new ')} for {spec_file.name}; --write adds them",
            err=True,
        )
        return
    if merged.added:
        write_atomically({spec_file: merged.text.encode("utf-8")})
    click.echo(
        f"  {spec_file}: {_entries(len(merged.added))} added, "
        f"{len(found) - len(merged.added)} already there",
        err=True,
    )


def _entries(n: int, adjective: str = "") -> str:
    return f"{n} {adjective}{'entry' if n == 1 else 'entries'}"


class _progress:  # noqa: N801 (used as a function)
    """A progress bar on stderr for papers of many pages (hidden when stderr is no terminal)."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.bar: Any = None

    def __enter__(self) -> Callable[[int, int], None]:
        return self.update

    def update(self, done: int, total: int) -> None:
        if total < PROGRESS_PAGES or not sys.stderr.isatty():
            return
        if self.bar is None:
            self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr)
            self.bar.__enter__()
        self.bar.update(done + 1 - self.bar.pos)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
