"""``duizhao``: the authors' command line. Reads sources; never builds the site."""

from __future__ import annotations

import json
import os
import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from .article import Article, read_article
from .checks import Corpus, check_corpus, check_local, refused_input, utf8_name
from .clipath import ArticlePath, Refused
from .diagnostics import Diagnostic, Severity, display_path, to_sarif
from .figures.catalog import Catalog
from .figures.cli import figures
from .lock import LOCK_NAME
from .project import ConfigError, Project, find_config, project_root
from .quality.glossary.cli import glossary
from .yamlsafe import MAX_TEXT_BYTES, InputError, load_json, read_bytes

# The writing commands' modules (the lock's hashing, atomic writes, the progress report) are
# imported by the commands that use them: `duizhao check` starts without them.
if TYPE_CHECKING:
    from .importer import Original, PdfImport
    from .lock import Lock
    from .quality.run import Quality

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
_check_format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "sarif"]),
    default="text",
    show_default=True,
    help="Output format (sarif: SARIF 2.1.0, for code scanning and review tools).",
)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--strict", is_flag=True, help="Treat warnings as errors (exit 1 on any).")
@click.option(
    "--baseline",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Leave out the problems this earlier 'duizhao check --format json' output lists "
    "(matched by file, code and message, not line).",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="Check every file afresh (the translation checks' findings are otherwise kept in "
    "cache_dir between runs).",
)
@_check_format_option
def check(
    paths: tuple[Path, ...], strict: bool, baseline: Path | None, no_cache: bool, fmt: str
) -> None:
    """Check articles for numbering, block, link and translation problems.

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
    known = _read_baseline(baseline) if baseline is not None else None
    diagnostics: list[Diagnostic] = []
    nfiles = 0
    for root, targets in by_root.items():
        found, checked = _check_project(root, targets, cache=not no_cache)
        diagnostics += found
        nfiles += checked
    diagnostics.sort(key=lambda d: (str(d.path), d.line, d.code))
    left = 0
    if known is not None:
        diagnostics, left = _without_baseline(diagnostics, known)
    _report(diagnostics, fmt, nfiles, left)
    errors = sum(d.severity is Severity.ERROR for d in diagnostics)
    warnings = len(diagnostics) - errors
    sys.exit(1 if errors or (strict and warnings) else 0)


def _check_project(root: Path, targets: list[Path], cache: bool) -> tuple[list[Diagnostic], int]:
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
    quality, terms = _quality(project, cache)
    found = check_corpus(
        (read_article(p) for p in files),
        corpus,
        lambda article: check_local(article, quality),
    )
    quality.save()
    return terms + found + refused, len(files) + len(refused)


def _quality(project: Project | None, cache: bool) -> tuple[Quality, list[Diagnostic]]:
    """The project's translation checks (with its glossary.yml, if any), and the glossary's
    own problems. Outside a project: the checks' defaults, without glossary or cache."""
    from .quality.run import Quality, QualityOptions

    if project is None:
        return Quality(QualityOptions()), []
    path = project.root / "glossary.yml"
    problems: list[Diagnostic] = []
    if path.exists():
        from .quality.glossary.model import read_glossary

        problems = read_glossary(path)[1]
    quality = Quality(
        project.quality,
        glossary_path=path if path.exists() else None,
        cache_dir=project.cache_dir if cache else None,
    )
    return quality, problems


#: What identifies a problem across edits: the file, the code and the message (lines move).
BaselineKey = tuple[str, str, str]


def _read_baseline(path: Path) -> Counter[BaselineKey]:
    """The problems of a ``duizhao check --format json`` output, as a multiset."""
    how = "write one with 'duizhao check --format json > baseline.json'"
    try:
        data = load_json(read_bytes(path, MAX_TEXT_BYTES).decode("utf-8"))
    except InputError as exc:
        raise click.UsageError(f"--baseline {path}: {exc.message}") from None
    except OSError as exc:
        raise click.UsageError(f"--baseline {path}: cannot read: {exc.strerror}") from None
    except ValueError:
        raise click.UsageError(
            f"--baseline {path}: not the JSON of 'duizhao check --format json'; {how}"
        ) from None
    known: Counter[BaselineKey] = Counter()
    items = data if isinstance(data, list) else []
    for item in items:
        if isinstance(item, dict) and all(
            isinstance(item.get(k), str) for k in ("path", "code", "message")
        ):
            known[(item["path"], item["code"], item["message"])] += 1
    if not known and items:
        raise click.UsageError(
            f"--baseline {path}: not the output of 'duizhao check --format json' (a list of "
            f"{{path, line, code, message}}); {how}"
        )
    return known


def _without_baseline(
    diagnostics: list[Diagnostic], known: Counter[BaselineKey]
) -> tuple[list[Diagnostic], int]:
    """``diagnostics`` less those the baseline lists (each as often as it lists it), and how
    many were left out."""
    left = known.copy()
    kept: list[Diagnostic] = []
    for d in diagnostics:
        key = (d.display_path(), d.code, d.message)
        if left[key] > 0:
            left[key] -= 1
        else:
            kept.append(d)
    return kept, len(diagnostics) - len(kept)


def _report(diagnostics: list[Diagnostic], fmt: str, nfiles: int, baselined: int = 0) -> None:
    if fmt == "json":
        click.echo(json.dumps([d.to_json() for d in diagnostics], ensure_ascii=False, indent=2))
        return
    if fmt == "sarif":
        click.echo(json.dumps(to_sarif(diagnostics), ensure_ascii=False, indent=2))
        return
    for d in diagnostics:
        click.echo(d.format())
    errors = sum(d.severity is Severity.ERROR for d in diagnostics)
    warnings = len(diagnostics) - errors
    click.echo(
        f"{nfiles} file{'s' * (nfiles != 1)} checked: {errors} error{'s' * (errors != 1)}, "
        f"{warnings} warning{'s' * (warnings != 1)}"
        + (f" ({baselined} more in the baseline)" if baselined else ""),
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
    from .importer import Chunk, ImportRefused, import_chunks, new_article

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
    from .importer import PdfImport

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
    from .importer import footnote_prefix
    from .importer.read import OriginalError, ReadOptions, is_pdf, read_original

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


@main.command("update")
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
    from .lock import article_key

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
    from .importer import PdfImport
    from .importer.update import FigureUpdate, plan_update

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
        from .figures.spec import spec_path

        figures = FigureUpdate(spec_path(article), original, source.detected)
    plan = plan_update(
        article,
        source,
        docs_dir=docs_dir,
        files=list(iter_markdown([docs_dir])),
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


@main.command("status")
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
    from .lock import article_key
    from .progress.report import corpus_progress, format_table, stale_diagnostics, to_json

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
    from .lock import article_key, digest
    from .worddiff import plain, word_diff

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
main.add_command(glossary)


if __name__ == "__main__":  # pragma: no cover
    main()
