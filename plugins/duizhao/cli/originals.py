"""The commands that read an original: ``duizhao import`` (append its paragraphs to an
article) and ``duizhao update`` (bring an article to a new version of it)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..checks import refused_input
from ..clipath import ArticlePath, Refused
from ..diagnostics import display_path
from ..lock import LOCK_NAME
from ..project import project_root
from ..yamlsafe import MAX_TEXT_BYTES, InputError, read_bytes
from .common import (
    _fail,
    _project,
    _read_lock,
    _write,
    find_project,
    iter_linking,
    project_lock,
)

if TYPE_CHECKING:
    from ..importer import Original, PdfImport


@click.command("import")
@click.argument("article", type=ArticlePath(dir_okay=False))
@click.option(
    "--from",
    "original",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The English original: Markdown, plain text or a PDF with a text layer.",
)
@click.option(
    "--base-url",
    metavar="URL",
    help="Where the Markdown original is published: its site-absolute and relative links "
    "and images become absolute links there (without it they stay as text, with a warning).",
)
@click.option(
    "--number-references",
    is_flag=True,
    help="PDF: give each reference a paragraph ID to translate (default: plain, unnumbered).",
)
def import_(article: Path, original: Path, base_url: str | None, number_references: bool) -> None:
    """Append the paragraphs of an original to ARTICLE as numbered blocks to translate.

    IDs continue from the article's last one; each block quotes the original and holds a to-do
    marker for the translation; the front matter's 'paragraphs:' range is extended. A missing
    ARTICLE (and its folder) is created as a draft, titled from the original. Markdown is
    parsed as CommonMark/GFM: only paragraphs, lists, quotes and tables are numbered; code,
    figure candidates and footnotes go between the blocks. A PDF paper is read from its layout
    (columns, headings, floats, references). A report of what was found, dropped or needs
    review goes to stderr.
    """
    if base_url is not None and not re.match(r"^https?://[^/\s]+", base_url):
        raise click.UsageError(f"--base-url must be an http(s) URL, not {base_url!r}")
    # away from a MkDocs project, import works too: the writer lock is beside the article
    project = find_project(article)
    lock_path = project.lock_path if project else project_root(article) / LOCK_NAME
    if (article.exists() or article.is_symlink()) and (
        problem := refused_input(article, project_root(article))
    ) is not None:
        _fail([problem], f"cannot import into {display_path(article)}")
    with project_lock(lock_path):  # read the article, add to it and write it with no other writer
        _import(article, original, base_url, number_references)


def _import(article: Path, original: Path, base_url: str | None, number_references: bool) -> None:
    from ..importer import Chunk, ImportRefused, import_chunks, new_article

    try:
        existing = read_bytes(article, MAX_TEXT_BYTES) if article.exists() else None
    except (InputError, OSError) as exc:
        raise click.UsageError(f"cannot read {article}: {exc}") from None
    source = _read_original(
        original,
        article,
        existing.decode("utf-8", "replace") if existing else "",
        base_url=base_url,
        number_references=number_references,
    )
    from ..importer import PdfImport

    spec, placed = (
        _place_figures(article, original, source, new=existing is None)
        if isinstance(source, PdfImport)
        else ({}, "")
    )
    title = source.title or article.stem.replace("-", " ").replace("_", " ")
    chunks = source.chunks
    if existing is None and chunks and not (chunks[0].is_heading or chunks[0].is_numbered):
        # Code or a figure first would read as part of the new article's 导言 section.
        chunks = [Chunk("正文", 2, kind="heading"), *chunks]
    data = existing if existing is not None else new_article(title, source.paper, source.meta)
    try:
        result = import_chunks(data, article, chunks)
    except ImportRefused as exc:
        _fail([exc.diagnostic], f"cannot import into {article}")
    if result.paragraphs == 0:
        _import_report(original, source)
        raise click.UsageError(f"{original} holds no paragraph to import")
    if existing is None:
        try:
            article.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise click.UsageError(f"cannot create the folder of {article}: {exc}") from exc
    _write({article: result.data, **spec}, "import")
    click.echo(
        f"{article}: imported {result.paragraphs} paragraphs ({result.first}-{result.last}) "
        f"and {result.headings} heading{'s' * (result.headings != 1)}; "
        f"paragraphs: {result.range}"
    )
    _import_report(original, source)
    if placed:
        click.echo(placed, err=True)
    if existing is None:
        click.echo(
            f"{article}: created as a draft; add the original's licence as 'paper: license:' "
            "(an SPDX id such as CC-BY-4.0) before publishing",
            err=True,
        )


def _import_report(original: Path, source: Original) -> None:
    """The import report on stderr: what was found, then each note with its line."""

    def n(count: int, what: str) -> str:
        return f"{count} {what}{'s' * (count != 1)}"

    read_as = f" (read as {'; '.join(source.dialects)})" if source.dialects else ""
    click.echo(
        f"import report for {original}{read_as}: "
        + ", ".join(
            [
                n(source.count("paragraph"), "paragraph"),
                n(source.count("heading"), "heading"),
                n(source.count("figure"), "figure candidate"),
                n(source.count("verbatim"), "code/HTML block"),
                n(source.count("footnote"), "footnote"),
            ]
            + ([n(source.count("reference"), "reference")] if source.count("reference") else [])
        )
        + (
            f"; {n(len(source.notes), 'note')} to review:"
            if source.notes
            else "; nothing to review"
        ),
        err=True,
    )
    for note in source.notes:
        click.echo(note.format(str(original)), err=True)


def _place_figures(
    article: Path, original: Path, paper: PdfImport, new: bool
) -> tuple[dict[Path, bytes], str]:
    """The paper's floats merged into the article's .figures.yml, as `figures detect --write`
    does (an author's entry is never changed), and placed as `/// figure` blocks where the
    text first refers to them; a new article gets 'figures: N'. Only for a paper inside the
    project (the build crops from it): else they stay markers. The spec's new bytes, to be
    written with the article, and what to report."""
    from ..figures.cli import merged_spec
    from ..figures.merge import keyed
    from ..figures.spec import figure_key, spec_path

    if not paper.detected:
        return {}, ""
    if not Path(os.path.realpath(original)).is_relative_to(os.path.realpath(project_root())):
        return {}, (
            f"{original}: outside the project, so its figures cannot be cropped: they are left "
            "as markers; copy the paper into the project (e.g. papers/) and import again"
        )
    spec_file = spec_path(article)
    found, _unkeyed = keyed(paper.detected)  # "Figure B.1" beside "Figure 1" stays a marker
    _text, merged = merged_spec(spec_file, original, found)
    declared = {*_declared_figures(article), *(figure_key(f.kind, f.number) for f in merged.added)}
    paper.chunks = paper.declaring(declared)
    count = max((int(k) for k in declared if k.isdigit()), default=0)
    if new and count:
        paper.meta["figures"] = count
    report = (
        f"{spec_file}: {len(merged.added)} figure and table entries added, "
        f"{len(found) - len(merged.added)} already there; placed where the text "
        "first refers to them"
    )
    return ({spec_file: merged.text.encode("utf-8")} if merged.added else {}), report


def _read_original(
    original: Path,
    article: Path,
    existing: str,
    *,
    base_url: str | None = None,
    number_references: bool = False,
) -> Original:
    """``original`` read as ``duizhao import`` reads it, for ``article`` (whose current text is
    ``existing``): one reader for import and update (:func:`duizhao.importer.read_original`)."""
    from ..importer import footnote_prefix
    from ..importer.read import OriginalError, ReadOptions, is_pdf, read_original

    # A PDF is read once: its layout and the figure detection of `duizhao figures detect` on
    # the same pages; floats leave the text flow and come back as figure placements where
    # they are first referenced.
    options = ReadOptions(
        base_url=base_url,
        footnote_prefix=footnote_prefix(existing),
        number_references=number_references,
        declared_figures=_declared_figures(article) if is_pdf(original) else (),
    )
    try:
        return read_original(original, options)
    except OriginalError as exc:
        if exc.one_line:  # a PDF that cannot be read: PATH:PAGE: DZ113 reason
            raise Refused(str(exc), exit_code=2) from None  # refused, as other originals are
        raise click.UsageError(str(exc)) from exc


def _declared_figures(article: Path) -> list[str]:
    """Keys of the figures the article's .figures.yml declares ("3", "table-2"), if any."""
    from ..figures.spec import load_spec, spec_path

    path = spec_path(article)
    if not path.is_file():
        return []
    return sorted(load_spec(path, project_root(article)).declared)


@click.command("update")
@click.argument("article", type=ArticlePath(exists=True, dir_okay=False))
@click.option(
    "--from",
    "original",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The new version of the original: Markdown, plain text or a PDF (read as import does).",
)
@click.option("--version", "version", metavar="TEXT", help="Its version, for 'paper: version:'.")
@click.option("--write", is_flag=True, help="Apply the plan (default: print it and a diff).")
@click.option(
    "--base-url",
    metavar="URL",
    help="Where the Markdown original is published (as for import).",
)
@click.option(
    "--number-references",
    is_flag=True,
    help="PDF: references have paragraph IDs (as when the article was imported with it).",
)
def update(
    article: Path,
    original: Path,
    version: str | None,
    write: bool,
    base_url: str | None,
    number_references: bool,
) -> None:
    """Bring ARTICLE to a new version of its original without losing a translation.

    Old and new paragraphs are aligned; unchanged and moved ones keep their translation, edited
    ones get the new original and keep their translation as stale (DZ301) until accepted, new
    ones come to translate, removed ones go with their translation to ARTICLE's .removed.yml.
    IDs follow the new version, with every link to them. Without --write, prints the plan and
    a diff. Exit status 1 (nothing written) when the plan cannot be applied.
    """
    from ..lock import article_key

    if base_url is not None and not re.match(r"^https?://[^/\s]+", base_url):
        raise click.UsageError(f"--base-url must be an http(s) URL, not {base_url!r}")
    if version is not None and (not version.strip() or "\n" in version or len(version) > 100):
        raise click.UsageError("--version must be one line of text, such as 'v6' or '2024-07-10'")
    project = _project(article)
    docs_dir, lock_path = project.docs_dir, project.lock_path
    key = article_key(article, docs_dir)
    if key is None:
        raise click.UsageError(f"{article} is not inside the docs folder {docs_dir}")
    options = (original, version, base_url, number_references)
    if write:
        with project_lock(lock_path):  # plan from what is on disk now, write before release
            _update(article, docs_dir, lock_path, key, options, write=True)
    else:
        _update(article, docs_dir, lock_path, key, options, write=False)


def _update(
    article: Path,
    docs_dir: Path,
    lock_path: Path,
    key: str,
    options: tuple[Path, str | None, str | None, bool],
    *,
    write: bool,
) -> None:
    from ..importer import PdfImport
    from ..importer.update import FigureUpdate, plan_update

    original, version, base_url, number_references = options
    lock = _read_lock(lock_path)
    try:
        existing = read_bytes(article, MAX_TEXT_BYTES).decode("utf-8", "replace")
    except (InputError, OSError) as exc:
        raise click.UsageError(f"cannot read {article}: {exc}") from None
    source = _read_original(
        original, article, existing, base_url=base_url, number_references=number_references
    )
    figures = None
    if isinstance(source, PdfImport):  # its floats, detected on the pages read above
        from ..figures.spec import spec_path

        figures = FigureUpdate(spec_path(article), original, source.detected)
    plan = plan_update(
        article,
        source,
        docs_dir=docs_dir,
        files=list(iter_linking(docs_dir)),
        lock=lock,
        lock_path=lock_path,
        key=key,
        root=project_root(article),
        version=version,
        figures=figures,
        urls=_project(article).urls,
    )
    if plan.refusals:
        _fail(plan.refusals, f"cannot update {article}")
    for warning in plan.warnings:
        click.echo(warning.format(), err=True)
    for note in plan.notes:
        click.echo(f"  {note}", err=True)
    if not plan.changes:
        click.echo(f"{article}: already matches {original}; nothing to change", err=True)
        return
    files = f"{len(plan.changes)} file{'s' * (len(plan.changes) != 1)}"
    if not write:
        click.echo(plan.table(), nl=False)
        click.echo(plan.diff(), nl=False)
        click.echo(plan.summary(), err=True)
        click.echo(f"dry run: would change {files}; apply with --write", err=True)
        return
    _write({path: new for path, (_old, new) in plan.changes.items()}, "update")
    click.echo(plan.summary(), err=True)
    click.echo(f"{article}: updated ({files} changed)", err=True)
    if plan.removed_file is not None:
        shown = display_path(plan.removed_file)
        click.echo(f"  removed blocks are kept in {shown} (never published)", err=True)
