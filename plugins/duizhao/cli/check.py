"""``duizhao check``: read the sources and report their problems (text, JSON or SARIF), less
those a baseline lists."""

from __future__ import annotations

import functools
import json
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..article import read_article
from ..checkcache import CACHE_NAME, CheckCache, cache_version, summaries
from ..checks import Corpus, LinkTarget, check_local, check_summaries, refused_input
from ..diagnostics import Diagnostic, Severity, to_sarif
from ..figures.catalog import Catalog
from ..project import Project, find_config, project_root
from ..yamlsafe import MAX_TEXT_BYTES, InputError, inside, load_json, read_bytes
from .common import find_project, iter_markdown

if TYPE_CHECKING:
    from ..quality.run import Quality


def _default_docs_dir(project: Project | None) -> Path:
    if project is None:
        raise click.UsageError(
            "no PATH given and no mkdocs.yml in the current directory or above it; "
            "run 'duizhao check docs/' or run it next to mkdocs.yml"
        )
    return project.docs_dir


_check_format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "sarif"]),
    default="text",
    show_default=True,
    help="Output format (sarif: SARIF 2.1.0, for code scanning and review tools).",
)


@click.command()
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
    help="Read and check every file afresh (each file's problems, links and anchors are "
    "otherwise kept in cache_dir between runs, and only changed files are read again).",
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
    cache_dir = _cache_dir(project) if cache else None
    quality, terms = _quality(project, cache_dir)
    kept = _check_cache(project, quality, cache_dir)
    corpus = Corpus(
        project.docs_dir if project else None,
        figures=Catalog(root),
        root=root,
        urls=project.urls if project else None,
        target_of=None if kept is None else functools.partial(_target_of, kept),
    )
    found = check_summaries(
        summaries(files, corpus, lambda article: check_local(article, quality), kept), corpus
    )
    quality.save()
    if kept is not None:
        kept.save()
    return terms + found + refused + _lock_problems(project), len(files) + len(refused)


def _cache_dir(project: Project | None) -> Path | None:
    """The project's cache_dir, unless it lies in the docs folder (a check writes no source,
    and MkDocs would publish the cache): no cache then."""
    if project is None or project.cache_dir is None:
        return None
    if inside(project.cache_dir, project.docs_dir):
        return None
    return project.cache_dir


def _check_cache(
    project: Project | None, quality: Quality, cache_dir: Path | None
) -> CheckCache | None:
    """The project's per-file cache (``check.json``), or None for none: its version names the
    project's mkdocs.yml and whether and how the translation checks run."""
    if project is None or cache_dir is None:
        return None
    checks = f"enabled={quality.options.enabled} {quality.version}"
    return CheckCache(cache_dir / CACHE_NAME, cache_version(find_config(project.root), checks))


def _target_of(cache: CheckCache, path: Path) -> LinkTarget:
    """What links read of a file outside the check: from the cache if it holds it."""
    return cache.target(path) or LinkTarget.of(read_article(path))


def _lock_problems(project: Project | None) -> list[Diagnostic]:
    """The project's duizhao.lock, read as the build reads it: DZ303 if it is unreadable (the
    build reports it too, so a check that passes is a build that does not warn of it)."""
    from ..lock import LockError, read_lock

    if project is None:
        return []
    try:
        read_lock(project.lock_path)
    except LockError as exc:
        return [exc.diagnostic]
    return []


def _quality(project: Project | None, cache_dir: Path | None) -> tuple[Quality, list[Diagnostic]]:
    """The project's translation checks (with its glossary.yml, if any), and the glossary's
    own problems. Outside a project: the checks' defaults, without glossary or cache."""
    from ..quality.run import Quality, QualityOptions

    if project is None:
        return Quality(QualityOptions()), []
    path = project.root / "glossary.yml"
    problems: list[Diagnostic] = []
    if path.exists():
        from ..quality.glossary.model import read_glossary

        problems = read_glossary(path)[1]
    quality = Quality(
        project.quality,
        glossary_path=path if path.exists() else None,
        cache_dir=cache_dir,
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
