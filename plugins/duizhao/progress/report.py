"""Translation progress per article: declared, translated, stale and missing paragraphs, figures.

``duizhao status`` prints :func:`format_table` / :func:`to_json`; the MkDocs plugin renders
:func:`progress_markdown` as the generated 进度 page and marks stale paragraphs on their pages.
Pure: no MkDocs import.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from ..article import Article
from ..diagnostics import Diagnostic, display_path
from ..escape import html_attr, markdown_text, markdown_url
from ..lock import Lock, digest

BAR_WIDTH = 20


@dataclass(frozen=True)
class ArticleProgress:
    """Where one article stands. ``key`` is its docs-relative POSIX path."""

    key: str
    title: str
    #: paragraphs the article should have (its ``paragraphs:`` range, else its blocks)
    declared: int
    #: paragraphs with a translation, stale ones included
    translated: int
    #: translated paragraphs whose original changed after the translation was accepted
    stale: tuple[str, ...]
    #: paragraph blocks whose translation is empty or still marked to do
    todo: tuple[str, ...]
    #: declared IDs that have no block yet (not imported)
    absent: tuple[str, ...]
    #: translated paragraphs never accepted into the lock (stale tracking starts on accept)
    unaccepted: int
    figures_declared: int | None
    figures_placed: int
    #: entries of the article's .figures.yml with an English caption and no Chinese one
    captions_untranslated: int = 0

    @property
    def missing(self) -> int:
        return len(self.todo) + len(self.absent)

    @property
    def current(self) -> int:
        return self.translated - len(self.stale)

    @property
    def percent(self) -> int:
        return int(100 * self.translated / self.declared) if self.declared else 100

    def to_json(self) -> dict[str, object]:
        return {
            "article": self.key,
            "title": self.title,
            "declared": self.declared,
            "translated": self.translated,
            "stale": list(self.stale),
            "missing": [*self.todo, *self.absent],
            "unaccepted": self.unaccepted,
            "figures": {
                "declared": self.figures_declared,
                "placed": self.figures_placed,
                "captions_untranslated": self.captions_untranslated,
            },
        }


def _declared_figures(article: Article) -> int | None:
    value = article.meta.get("figures")
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, (list, dict)):
        return len(value)
    return None


def article_progress(key: str, article: Article, lock: Lock) -> ArticleProgress:
    seen: set[str] = set()
    translated = unaccepted = 0
    stale: list[str] = []
    todo: list[str] = []
    for p in article.paragraphs:
        if not p.is_well_formed or p.id in seen:
            continue
        seen.add(p.id)
        if p.is_todo:
            todo.append(p.id)
            continue
        translated += 1
        accepted = lock.accepted(key, p.id)
        if accepted is None:
            unaccepted += 1
        elif accepted != digest(p.original):
            stale.append(p.id)
    rng = article.paragraph_range
    absent: list[str] = []
    if rng is not None and rng.start <= rng.end:
        absent = [
            rng.format_id(n) for n in range(rng.start, rng.end + 1) if rng.format_id(n) not in seen
        ]
        declared = rng.end - rng.start + 1
    else:
        declared = len(seen)
    return ArticleProgress(
        key=key,
        title=article.title or key,
        declared=declared,
        translated=translated,
        stale=tuple(stale),
        todo=tuple(todo),
        absent=tuple(absent),
        unaccepted=unaccepted,
        figures_declared=_declared_figures(article),
        figures_placed=len({f.id for f in article.figures}),
        captions_untranslated=_untranslated_captions(article),
    )


def _untranslated_captions(article: Article) -> int:
    from ..figures.spec import spec_path, untranslated_captions

    path = spec_path(article.path)
    return untranslated_captions(path) if path.is_file() else 0


def corpus_progress(
    articles: Mapping[str, Article],
    lock: Lock,
    one: Callable[[str, Article, Lock], ArticleProgress] = article_progress,
) -> list[ArticleProgress]:
    """Progress of every translation among ``articles`` (keyed by docs-relative path).

    ``one`` computes :func:`article_progress` (a caller may pass a memoized one)."""
    return [
        one(key, article, lock) for key, article in sorted(articles.items()) if article.is_article
    ]


def stale_diagnostics(
    articles: Mapping[str, Article], reports: Iterable[ArticleProgress]
) -> list[Diagnostic]:
    """DZ301 at each stale paragraph, saying how to mark the reviewed translation current."""
    found: list[Diagnostic] = []
    for report in reports:
        article = articles[report.key]
        lines: dict[str, int] = {}
        for p in article.paragraphs:
            lines.setdefault(p.id, p.line)
        for pid in report.stale:
            where = display_path(article.path)
            found.append(
                Diagnostic(
                    article.path,
                    lines[pid],
                    "DZ301",
                    f"the original of {pid} changed after its translation was accepted; "
                    f"review the translation, then run 'duizhao status --accept {where}#{pid}'",
                )
            )
    return found


def stale_ids(reports: Iterable[ArticleProgress]) -> dict[str, frozenset[str]]:
    return {r.key: frozenset(r.stale) for r in reports if r.stale}


def earlier_versions(
    lock: Lock, stale: Mapping[str, frozenset[str]], articles: Mapping[str, Article]
) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, tuple[str, ...]]]]:
    """What ``duizhao update`` left for the pages: per article, the earlier original of each
    stale paragraph, and the old IDs that lead to each paragraph (aliases whose ID no block
    of the article carries now)."""
    previous = {
        key: {pid: text for pid, text in lock.previous.get(key, {}).items() if pid in ids}
        for key, ids in stale.items()
    }
    aliases: dict[str, dict[str, tuple[str, ...]]] = {}
    for key, table in lock.aliases.items():
        article = articles.get(key)
        if article is None:
            continue
        current = {p.id for p in article.paragraphs}
        by_target: dict[str, list[str]] = {}
        for old, new in sorted(table.items()):
            if old not in current and new in current:
                by_target.setdefault(new, []).append(old)
        if by_target:
            aliases[key] = {new: tuple(olds) for new, olds in by_target.items()}
    return {k: v for k, v in previous.items() if v}, aliases


# --------------------------------------------------------------------------------------------
# Terminal


def bar(report: ArticleProgress, width: int = BAR_WIDTH) -> str:
    """``█`` current, ``▒`` stale, ``░`` missing: one character per 1/width of the article."""
    if not report.declared:
        return "░" * width
    current = round(width * report.current / report.declared)
    stale = round(width * report.translated / report.declared) - current
    return ("█" * current + "▒" * stale).ljust(width, "░")[:width]


def _figures(report: ArticleProgress) -> str:
    declared = "-" if report.figures_declared is None else str(report.figures_declared)
    untranslated = report.captions_untranslated
    note = f" ({untranslated} captions untranslated)" if untranslated else ""
    return f"{report.figures_placed}/{declared}{note}"


def format_table(reports: list[ArticleProgress]) -> str:
    """One line per article with its counts and a progress bar."""
    header = ("ARTICLE", "DECLARED", "TRANSLATED", "STALE", "MISSING", "FIGURES")
    rows = [
        (
            r.key,
            str(r.declared),
            str(r.translated),
            str(len(r.stale)),
            str(r.missing),
            _figures(r),
        )
        for r in reports
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = []
    for row, report in zip([header, *rows], [None, *reports], strict=True):
        cells = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        tail = "PROGRESS" if report is None else f"{bar(report)} {report.percent:3d}%"
        lines.append("  ".join([*cells, tail]))
    return "\n".join(lines) + "\n"


def to_json(reports: list[ArticleProgress]) -> list[dict[str, object]]:
    return [r.to_json() for r in reports]


# --------------------------------------------------------------------------------------------
# The 进度 page


def _bar_html(report: ArticleProgress) -> str:
    total = report.declared or 1
    current = 100 * report.current / total
    stale = 100 * len(report.stale) / total
    label = f"已译 {report.percent}%"
    if report.stale:
        label += f"，其中 {len(report.stale)} 段原文已更新"
    return (
        f'<span class="dz-progress"><span class="dz-bar" role="img" '
        f'aria-label="{html_attr(label)}">'
        f'<span class="dz-bar__current" style="width: {current:.1f}%"></span>'
        f'<span class="dz-bar__stale" style="width: {stale:.1f}%"></span></span>'
        f" {report.translated}/{report.declared}</span>"
    )


def _runs(ids: tuple[str, ...]) -> str:
    """``P011–P014、P020`` for IDs that have no block to link to."""
    runs: list[list[str]] = []
    for pid in ids:
        if runs and int(pid[1:]) == int(runs[-1][-1][1:]) + 1:
            runs[-1].append(pid)
        else:
            runs.append([pid])
    return "、".join(r[0] if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)


def progress_markdown(reports: list[ArticleProgress], page_uri: str) -> str:
    """The 进度 page: a table of every article and, per article, links to what needs work."""
    base = posixpath.dirname(page_uri) or "."

    def href(key: str, fragment: str = "") -> str:
        rel = posixpath.relpath(key, base)
        return f"{rel}#{fragment}" if fragment else rel

    declared = sum(r.declared for r in reports)
    translated = sum(r.translated for r in reports)
    stale = sum(len(r.stale) for r in reports)
    missing = sum(r.missing for r in reports)
    percent = int(100 * translated / declared) if declared else 100
    out = [
        "---",
        "title: 翻译进度",
        "---",
        "",
        "# 翻译进度",
        "",
        f"共 {len(reports)} 篇文章、{declared} 个段落：已译 {translated} 段（{percent}%），"
        f"其中 {stale} 段的原文在译文确认后有更新、需要复核；缺译 {missing} 段。"
        "“插图”一栏为已放置/已声明的图数。",
        "",
        "| 文章 | 已译/段落 | 原文已更新 | 缺译 | 插图 |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    for r in reports:
        figures = "–" if r.figures_declared is None else str(r.figures_declared)
        out.append(
            f"| [{markdown_text(r.title)}]({markdown_url(href(r.key))}) | {_bar_html(r)} | "
            f"{len(r.stale)} | {r.missing} | {r.figures_placed}/{figures} |"
        )
    for r in reports:
        if not (r.stale or r.missing):
            continue
        out += ["", f"## {markdown_text(r.title)}", ""]
        if r.stale:
            links = "、".join(f"[{pid}]({markdown_url(href(r.key, pid))})" for pid in r.stale)
            out += [f"原文已更新、译文待复核：{links}", ""]
        if r.todo:
            links = "、".join(f"[{pid}]({markdown_url(href(r.key, pid))})" for pid in r.todo)
            out += [f"待翻译：{links}", ""]
        if r.absent:
            out += [f"尚未导入原文：{_runs(r.absent)}", ""]
    return "\n".join(out).rstrip("\n") + "\n"
