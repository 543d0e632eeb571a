"""``duizhao``: the authors' command line. Reads sources; never builds the site."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from .article import Article, read_article
from .checks import Corpus, check_corpus, refused_input, utf8_name
from .clipath import ArticlePath
from .diagnostics import Diagnostic, Severity, display_path
from .escape import Math, markdown_source
from .figures.catalog import Catalog
from .figures.cli import figures
from .lock import LOCK_NAME
from .project import ConfigError, Project, find_config, project_root, read_mkdocs_yml
from .yamlsafe import MAX_BINARY_BYTES, MAX_TEXT_BYTES, InputError, read_bytes

# The writing commands' modules (the lock's hashing, atomic writes, the progress report) are
# imported by the commands that use them: `duizhao check` starts without them.
if TYPE_CHECKING:
    from .importer import Original, PdfImport
    from .lock import Lock

# Commands import what only they need: `duizhao check` starts without the importer's
# Markdown parser, Pillow or MkDocs.


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


def iter_markdown(paths: Iterable[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            # Not only regular files: a FIFO or a device named *.md is reported, not skipped.
            yield from sorted(p for p in path.rglob("*.md") if not p.is_dir())
        else:
            yield path


def _default_docs_dir(project: Project | None) -> Path:
    if project is None:
        raise click.UsageError(
            "no PATH given and no mkdocs.yml in the current directory or above it; "
            "run 'duizhao check docs/' or run it next to mkdocs.yml"
        )
    return project.docs_dir


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="duizhao")
def main() -> None:
    """duizhao: bilingual, paragraph-numbered paper translations on MkDocs + Material."""


_format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Output format.",
)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--strict", is_flag=True, help="Treat warnings as errors (exit 1 on any).")
@_format_option
def check(paths: tuple[Path, ...], strict: bool, fmt: str) -> None:
    """Check articles for numbering, block and link problems.

    PATHS are files or folders (default: the docs_dir of ./mkdocs.yml). Exit status: 0 with no
    errors, 1 with errors (or, with --strict, warnings), 2 for usage problems.
    """
    # Each target is judged by its own project: its links are followed, its figures found and
    # its files kept inside it. The current directory only decides what a bare check means.
    by_root: dict[Path, list[Path]] = {}
    if not paths:
        here = find_project()
        by_root[project_root()] = [_default_docs_dir(here)]
    for target in paths:
        by_root.setdefault(project_root(target), []).append(target)
    diagnostics: list[Diagnostic] = []
    nfiles = 0
    for root, targets in by_root.items():
        found, checked = _check_project(root, targets)
        diagnostics += found
        nfiles += checked
    diagnostics.sort(key=lambda d: (str(d.path), d.line, d.code))
    _report(diagnostics, fmt, nfiles)
    errors = sum(d.severity is Severity.ERROR for d in diagnostics)
    warnings = len(diagnostics) - errors
    sys.exit(1 if errors or (strict and warnings) else 0)


def _check_project(root: Path, targets: list[Path]) -> tuple[list[Diagnostic], int]:
    """Check ``targets``, all in the project at ``root``: (diagnostics, files checked)."""
    project = find_project(root)
    docs = [project.docs_dir] if project else []  # (it may be configured elsewhere)
    refused: list[Diagnostic] = []
    files: list[Path] = []
    for path in iter_markdown(targets):
        # A file must stay inside its project: a symlink to /etc/passwd is refused, never
        # read or quoted.
        problem = refused_input(path, root, *docs)
        if problem is None:
            files.append(path)
        else:
            refused.append(problem)
    corpus = Corpus(project.docs_dir if project else None, figures=Catalog(root), root=root)
    found = check_corpus((read_article(p) for p in files), corpus)
    return found + refused, len(files) + len(refused)


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
    project = find_project()
    if project is None:
        raise click.UsageError("run 'duizhao new' next to mkdocs.yml")
    with project_lock(project.lock_path):
        refused = _new(seed_paths + more, project.docs_dir, project.sections)
    sys.exit(1 if refused else 0)


def _new(seeds: tuple[Path, ...], docs_dir: Path, sections: dict[str, str]) -> int:
    from .seeds import SeedError, load_seed, render_article, section_folder, write_new

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


# --------------------------------------------------------------------------------------------
# The translator's workflow: import, renumber, status (logic in importer/renumber/lock/progress)


def _project(path: Path | None = None) -> Project:
    """The project of ``path`` (default: the current directory); a usage error if none."""
    project = find_project(path)
    if project is None:
        where = f"above {display_path(path)}" if path else "in the current directory or above"
        raise click.UsageError(f"no mkdocs.yml {where}; run this in a MkDocs project")
    return project


def _site_math(article: Path) -> Math | None:
    """How the site of ``article`` reads math (pymdownx.arithmatex), if it has one."""
    config = find_config(article)
    try:
        extensions = read_mkdocs_yml(config).get("markdown_extensions") if config else None
    except ConfigError:
        return None
    for item in extensions if isinstance(extensions, list) else []:
        if item == "pymdownx.arithmatex":
            return Math.of({})
        if isinstance(item, dict) and "pymdownx.arithmatex" in item:
            options = item["pymdownx.arithmatex"]
            return Math.of(options if isinstance(options, dict) else {})
    return None


@contextmanager
def project_lock(lock_path: Path) -> Iterator[None]:
    """The project's writer lock (:func:`duizhao.source.project_lock`); busy → exit 1."""
    from .source import ProjectBusyError
    from .source import project_lock as _project_lock

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
    from .source import write_atomically

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
    from .lock import LockError, read_lock

    try:
        return read_lock(path)
    except LockError as exc:
        _fail([exc.diagnostic], "the lock file must be fixed first")


#: Originals read as Markdown (markdown-it-py); any other suffix but .pdf is plain text.
#: MDX (Docusaurus, Starlight, Nextra), Markdoc, Quarto and R Markdown pages are Markdown with
#: a dialect of their own on top: read as plain text, their front matter and code would
#: become paragraphs to translate.
MARKDOWN_SUFFIXES = frozenset(
    {".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".mdwn", ".mkdown", ".markdn", ".mdtxt"}
    | {".mdtext", ".mdx", ".mdoc", ".markdoc", ".qmd", ".rmd"}
)


@main.command("import")
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
    suffix = original.suffix.lower()
    try:  # a regular file only, bounded: a FIFO or /dev/zero is refused, never read
        raw = read_bytes(original, MAX_BINARY_BYTES if suffix == ".pdf" else MAX_TEXT_BYTES)
    except (InputError, OSError) as exc:
        raise click.UsageError(f"cannot read {original}: {exc}") from None
    # away from a MkDocs project, import works too: the writer lock is beside the article
    project = find_project(article)
    lock_path = project.lock_path if project else project_root(article) / LOCK_NAME
    if (article.exists() or article.is_symlink()) and (
        problem := refused_input(article, project_root(article))
    ) is not None:
        _fail([problem], f"cannot import into {display_path(article)}")
    with project_lock(lock_path):  # read the article, add to it and write it with no other writer
        _import(article, original, base_url, number_references, suffix, raw)


def _import(
    article: Path,
    original: Path,
    base_url: str | None,
    number_references: bool,
    suffix: str,
    raw: bytes,
) -> None:
    from .importer import (
        Chunk,
        ImportRefused,
        Original,
        chunks_from_text,
        import_chunks,
        import_pdf,
        new_article,
        parse_markdown,
    )
    from .importer.markdown import footnote_prefix

    try:
        existing = read_bytes(article, MAX_TEXT_BYTES) if article.exists() else None
    except (InputError, OSError) as exc:
        raise click.UsageError(f"cannot read {article}: {exc}") from None
    if suffix == ".pdf":
        from .pdf.read import PdfError

        try:
            # read once: the layout and the figure detection of `duizhao figures detect` on
            # the same pages; floats leave the text flow and come back as figure placements
            # where they are first referenced
            paper = import_pdf(
                original,
                number_references=number_references,
                declared_figures=_declared_figures(article),
            )
        except PdfError as exc:  # one line naming the file and the page
            refused = click.ClickException(str(exc))
            refused.exit_code = 2  # an original that cannot be read, as for other originals
            raise refused from None
        except (OSError, ValueError) as exc:
            raise click.UsageError(f"cannot read {original}: {exc}") from exc
        spec, placed = _place_figures(article, original, paper, new=existing is None)
        source: Original = paper
    else:
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise click.UsageError(f"cannot read {original} as UTF-8 text: {exc}") from exc
        if suffix in MARKDOWN_SUFFIXES:
            prefix = footnote_prefix(existing.decode("utf-8", "replace") if existing else "")
            source = parse_markdown(text, base_url=base_url, prefix=prefix, name=original.name)
        else:
            # plain text: its Markdown stays, raw HTML and non-web links show as text
            math = _site_math(article)
            source = Original(
                [replace(c, text=markdown_source(c.text, math)) for c in chunks_from_text(text)]
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
    _write({article: result.data, **(spec if suffix == ".pdf" else {})}, "import")
    click.echo(
        f"{article}: imported {result.paragraphs} paragraphs ({result.first}-{result.last}) "
        f"and {result.headings} heading{'s' * (result.headings != 1)}; "
        f"paragraphs: {result.range}"
    )
    _import_report(original, source)
    if suffix == ".pdf" and placed:
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

    click.echo(
        f"import report for {original}: "
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
    from .figures.cli import merged_spec
    from .figures.merge import keyed
    from .figures.spec import figure_key, spec_path

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


def _declared_figures(article: Path) -> list[str]:
    """Keys of the figures the article's .figures.yml declares ("3", "table-2"), if any."""
    from .figures.spec import load_spec, spec_path

    path = spec_path(article)
    if not path.is_file():
        return []
    return sorted(load_spec(path, project_root(article)).declared)


@main.command("renumber")
@click.argument("article", type=ArticlePath(exists=True, dir_okay=False))
@click.option("--write", is_flag=True, help="Apply the changes (default: print a diff).")
def renumber(article: Path, write: bool) -> None:
    """Make ARTICLE's paragraph IDs sequential from its range start, with every reference.

    Links to its paragraphs anywhere in the docs tree, its 'paragraphs:' range and its entries
    in duizhao.lock follow. Without --write, prints a unified diff. Exit status 1 (nothing
    written) when a file cannot be read or a link points at a duplicated ID.
    """
    from .lock import article_key

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
    from . import renumber as renumbering

    lock = _read_lock(lock_path)
    plan = renumbering.plan(
        article,
        docs_dir,
        list(iter_markdown([docs_dir])),
        lock,
        lock_path,
        key,
        root=project_root(article),
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


@main.command("status")
@_format_option
@click.option(
    "--accept",
    "accept",
    multiple=True,
    metavar="ARTICLE[#P042]",
    help="Mark the translation of an article (or one paragraph) current in duizhao.lock.",
)
def status(fmt: str, accept: tuple[str, ...]) -> None:
    """Per article: declared, translated, stale and missing paragraphs, figures, progress.

    A translation is stale when its original changed after it was accepted with --accept.
    """
    from .lock import article_key
    from .progress.report import corpus_progress, format_table, stale_diagnostics, to_json

    project = _project()
    docs_dir, lock_path = project.docs_dir, project.lock_path
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


def _accept(targets: tuple[str, ...], docs_dir: Path, lock_path: Path) -> None:
    from .lock import Lock, LockError, article_key, read_lock

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


main.add_command(figures)


if __name__ == "__main__":  # pragma: no cover
    main()
