"""Rules over parsed Articles → Diagnostics. Pure: no MkDocs, no writes.

The CLI (``duizhao check``) and the MkDocs plugin both call :func:`check_corpus`, so an author
sees the same list of problems in the terminal, in CI and in ``mkdocs build``.
"""

from __future__ import annotations

import functools
import os
import posixpath
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote

from .article import (
    FIGURE_ANCHOR_RE,
    INTRO_HEADING,
    MAX_ID_DIGITS,
    MAX_PARAGRAPHS,
    PARAGRAPH_ID_RE,
    PARAGRAPH_REF_RE,
    STATUSES,
    TABLE_ANCHOR_RE,
    TODO_MARKER,
    Article,
    Link,
    ParagraphRange,
    normalize_id,
    parse_range,
    range_too_large,
    read_article,
)
from .diagnostics import Diagnostic
from .figures.catalog import Catalog
from .site.attribution import check_attribution
from .site.indexes import FEATURED_KEY, check_featured, check_listing, is_listed
from .siteurls import SiteUrls
from .yamlsafe import inside

if TYPE_CHECKING:
    from .quality.run import Quality

Loader = Callable[[Path], Article]


def refused_input(
    path: Path, root: Path, *more_roots: Path, page: bool = True
) -> Diagnostic | None:
    """Why a file of the docs tree must not be read at all, or None.

    A FIFO, a device (``/dev/zero`` behind a symlink), a socket or a dangling symlink would
    block or never end a read: DZ011. A file that resolves, through symlinks, outside the
    project ``root`` (or ``more_roots``: a docs folder configured elsewhere) would be published
    or quoted: DZ018 (its contents are not read). A ``page`` (Markdown) whose name is not UTF-8
    (``bad\xff.md``) has no URL, title or lock key that a UTF-8 page, file or JSON can hold:
    DZ011 (MkDocs alone stops with a traceback on it; other files keep such names).
    """
    if page and not utf8_name(path):
        return Diagnostic(
            path,
            1,
            "DZ011",
            "refused: the file name is not UTF-8, so the page has no URL; rename it; left out",
        )
    try:
        info = os.stat(path)
    except OSError as exc:
        return Diagnostic(path, 1, "DZ011", f"cannot read file: {exc.strerror or exc}")
    if not stat.S_ISREG(info.st_mode):
        return Diagnostic(
            path, 1, "DZ011", "refused: not a regular file (a FIFO, device or socket); left out"
        )
    if not any(inside(path, r) for r in (root, *more_roots)):
        return Diagnostic(
            path,
            1,
            "DZ018",
            "refused: the file resolves (through a symlink) outside the project; left out "
            "unread: copy it into the project instead",
        )
    return None


def utf8_name(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is text (a name of undecodable bytes holds lone surrogates)."""
    try:
        os.fspath(path).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@dataclass(frozen=True)
class LinkTarget:
    """What a link into an article needs of it: kept instead of the article, so that a check
    of many files holds one article at a time (memory stays flat as the corpus grows)."""

    anchors: frozenset[str]
    is_article: bool = True

    @classmethod
    def of(cls, article: Article) -> LinkTarget:
        return cls(article.anchors, article.is_article)


@dataclass(frozen=True)
class LinkSource:
    """What the link check needs of the article the links are in."""

    path: Path
    links: tuple[Link, ...]
    is_article: bool
    anchors: frozenset[str]

    @classmethod
    def of(cls, article: Article) -> LinkSource:
        return cls(article.path, tuple(article.links), article.is_article, article.anchors)


class Corpus:
    """The articles a check can see: parsed on first use, so linked files are read lazily.

    ``docs_dir`` resolves links written from the docs root (``/x/y.md``). Articles may be
    preloaded (the MkDocs plugin passes the pages of the build, including generated ones).
    ``root`` is the project: links are followed only inside it (default: the folder above
    ``docs_dir``, else the current directory). ``figures`` reads the articles' .figures.yml
    specs (default: sources must lie in ``root``). ``target_of`` reads what links need of a
    file not added (default: the ``loader``'s Article; ``duizhao check`` reads it from its
    cache).
    """

    def __init__(
        self,
        docs_dir: Path | None = None,
        loader: Loader = read_article,
        figures: Catalog | None = None,
        root: Path | None = None,
        urls: SiteUrls | None = None,
        target_of: Callable[[Path], LinkTarget] | None = None,
    ) -> None:
        self.docs_dir = docs_dir.resolve() if docs_dir is not None else None
        #: how the site's pages are published: where a link to the built site lands
        self.urls = urls or SiteUrls()
        if root is None:
            root = self.docs_dir.parent if self.docs_dir else Path.cwd()
        #: links are followed only to files inside this folder (symlinks resolved)
        self.root = root.resolve()
        if figures is None:
            figures = Catalog(root)
        self.figures = figures
        #: what links read of a file not added (``target_of``, default: the loader's Article)
        self._target_of = target_of or (lambda path: LinkTarget.of(loader(path)))
        self._cache: dict[Path, LinkTarget | None] = {}
        self._resolved: dict[Path, Path] = {}

    def resolved(self, path: Path) -> Path:
        """``path.resolve()``, once per path (links to one article are many).

        A link's path is the author's: a name too long for the file system, a ``%00``, a
        symlink loop cannot be resolved, and name no file; they stay as written (absolute).
        """
        resolved = self._resolved.get(path)
        if resolved is None:
            try:
                resolved = path.resolve()
            except (OSError, ValueError, RuntimeError):  # RuntimeError: a loop (Python < 3.13)
                resolved = Path(os.path.abspath(path))
            self._resolved[path] = resolved
        return resolved

    def contains(self, path: Path) -> bool:
        """Whether ``path`` resolves (through every symlink) inside :attr:`root`."""
        return self.resolved(path).is_relative_to(self.root)

    def add(self, article: Article) -> None:
        self.add_target(article.path, LinkTarget.of(article))

    def add_target(self, path: Path, target: LinkTarget) -> None:
        """What links into the file ``path`` read of it (known: it is not read again)."""
        self._cache[self.resolved(path)] = target

    def get(self, path: Path) -> LinkTarget | None:
        key = self.resolved(path)
        if key not in self._cache:
            try:
                exists = key.is_file()
            except (OSError, ValueError):  # a name too long, a NUL: no such file
                exists = False
            self._cache[key] = self._target_of(path) if exists else None
        return self._cache[key]

    def built_source(self, article: Article | LinkSource, url: str) -> Path | None:
        """The Markdown file of the docs folder that makes the page a link to the built site
        reaches (``url``: its path, ``../b/`` or ``/duizhao/b/``, or the site's own full URL),
        written in ``article``; None when it reaches no such page (or ``article`` is not in
        the docs folder)."""
        if self.docs_dir is None:
            return None
        here = self.resolved(article.path)
        if not here.is_relative_to(self.docs_dir):
            return None
        path = self.urls.own_path(url) if ":" in url or url.startswith("//") else url
        if path is None:
            return None
        page = self.urls.lands_on(here.relative_to(self.docs_dir).as_posix(), path)
        for src in self.urls.sources(page) if page is not None else ():
            candidate = self.docs_dir / src
            if self.get(candidate) is not None:
                return candidate
        return None

    def resolve_link(self, article: Article | LinkSource, link_path: str) -> Path | None:
        """The file a relative link points to, or None for links this checker leaves alone."""
        link_path = unquote(link_path)
        if link_path.startswith("/"):
            if self.docs_dir is None:
                return None
            return self.docs_dir / posixpath.normpath(link_path.lstrip("/"))
        return article.path.parent / posixpath.normpath(link_path)


def _short(value: object, limit: int = 40) -> str:
    """``value`` as text, cut for quoting (an author's 4,300-digit ID is not repeated whole)."""
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _err(article: Article | LinkSource, line: int, code: str, message: str) -> Diagnostic:
    return Diagnostic(article.path, line, code, message)


def check_front_matter(article: Article) -> Iterator[Diagnostic]:
    line = article.meta_lines.get
    if not article.title:
        yield _err(
            article,
            line("title", 1),
            "DZ012",
            "front matter has no title; add one such as 'title: xDeepServe on CloudMatrix384'",
        )
    if "status" in article.meta and article.meta["status"] not in STATUSES:
        yield _err(
            article,
            line("status", 1),
            "DZ014",
            f"unknown status {article.meta['status']!r}; use 'status: draft' or 'status: complete'",
        )
    if "paragraphs" in article.meta:
        value = article.meta["paragraphs"]
        rng = parse_range(value)
        if range_too_large(value):
            yield _err(
                article,
                line("paragraphs", 1),
                "DZ013",
                f"range 'paragraphs: {_short(value)}' declares more than {MAX_PARAGRAPHS:,} "
                "paragraphs; declare the paper's real range, as in 'paragraphs: P001-P129'",
            )
        elif rng is None:
            yield _err(
                article,
                line("paragraphs", 1),
                "DZ013",
                f"malformed range 'paragraphs: {_short(value)}'; write it as "
                "'paragraphs: P001-P129'",
            )
        elif rng.start > rng.end:
            yield _err(
                article,
                line("paragraphs", 1),
                "DZ013",
                f"range 'paragraphs: {value}' runs backwards; write the first ID "
                "first, as in 'paragraphs: P001-P129'",
            )


def _format_run(rng: ParagraphRange | None, start: int, end: int, width: int) -> str:
    fmt = rng.format_id if rng else (lambda n: f"P{n:0{width}d}")
    return fmt(start) if start == end else f"{fmt(start)}-{fmt(end)}"


def check_paragraphs(article: Article) -> Iterator[Diagnostic]:
    rng = article.paragraph_range
    if rng is not None and rng.start > rng.end:
        rng = None
    seen: dict[str, int] = {}
    numbered: list[tuple[int, int]] = []  # (number, line) of each first, well-formed ID
    highest: tuple[int, str, int] | None = None
    for p in article.paragraphs:
        if not p.is_well_formed:
            suggestion = normalize_id(p.id)
            digits = p.id[1:]
            if len(digits) > MAX_ID_DIGITS and digits.isascii() and digits.isdigit():
                msg = (
                    f"paragraph ID {_short(p.id)!r} has {len(digits):,} digits; IDs are 'P' "
                    f"and 3 to {MAX_ID_DIGITS} ASCII digits, as in '/// paragraph | P001'"
                )
            elif not p.id:
                msg = "paragraph block has no ID; write it as '/// paragraph | P001'"
            elif suggestion:
                msg = (
                    f"malformed paragraph ID {_short(p.id)!r}; IDs are 'P' and at least three "
                    f"ASCII digits: write '/// paragraph | {suggestion}'"
                )
            else:
                msg = (
                    f"malformed paragraph ID {_short(p.id)!r}; IDs are 'P' and at least three "
                    "ASCII digits, as in '/// paragraph | P001'"
                )
            yield _err(article, p.line, "DZ001", msg)
            continue
        number = p.number
        assert number is not None
        if rng is not None and len(p.id) - 1 != rng.width and number < 10**rng.width:
            yield _err(
                article,
                p.line,
                "DZ001",
                f"paragraph ID {p.id!r} has {len(p.id) - 1} digits but the declared "
                f"range {rng} uses {rng.width}; write '{rng.format_id(number)}'",
            )
            continue
        if p.id in seen:
            yield _err(
                article,
                p.line,
                "DZ002",
                f"duplicate paragraph ID {p.id} (first used at line {seen[p.id]}); "
                "renumber with 'duizhao renumber'",
            )
            continue
        seen[p.id] = p.line
        if rng is not None and number not in rng:
            yield _err(
                article,
                p.line,
                "DZ005",
                f"paragraph ID {p.id} is outside the declared range {rng}; "
                "fix the ID or widen 'paragraphs:' in the front matter",
            )
        if highest is not None and number < highest[0]:
            yield _err(
                article,
                p.line,
                "DZ003",
                f"paragraph ID {p.id} comes after {highest[1]} (line {highest[2]}); "
                "IDs must increase through the article",
            )
        else:
            highest = (number, p.id, p.line)
        numbered.append((number, p.line))
        if p.is_todo and (TODO_MARKER not in p.translation or not article.is_draft):
            if TODO_MARKER in p.translation:
                what = "is still marked to do"
            elif p.original and not p.block.body[p.split - 1].lstrip(" ").startswith(">"):
                what = (
                    "has no translation (the line right after the quoted original continues "
                    "the quote; leave a blank line before the translation)"
                )
            else:
                what = "has no translation"
            yield _err(
                article,
                p.translation_line or p.line,
                "DZ006",
                f"paragraph {p.id} {what}; write the Chinese translation after the quoted original",
            )
    if article.is_draft or not numbered:
        return
    width = rng.width if rng else min(len(i) - 1 for i in seen)
    present = {n for n, _ in numbered}
    lo = rng.start if rng else min(present)
    hi = rng.end if rng else max(present)
    by_number = dict(numbered)
    # The gaps between consecutive present numbers, not a walk over lo..hi: the work follows
    # the blocks written, whatever numbers they carry.
    ordered = sorted(n for n in present if lo <= n <= hi)
    runs: list[tuple[int, int]] = []
    previous = lo - 1
    for n in [*ordered, hi + 1]:
        if n > previous + 1:
            runs.append((previous + 1, n - 1))
        previous = n
    for start, end in runs:
        after = by_number.get(end + 1)
        # A trailing gap is reported where the blocks end: that is where they are added.
        line = after if after is not None else article.paragraphs[-1].line
        ids = _format_run(rng, start, end, width)
        yield _err(
            article,
            line,
            "DZ004",
            f"missing paragraph {'IDs' if start != end else 'ID'} {ids} in a complete "
            "article; add the blocks, renumber, or set 'status: draft'",
        )


def check_intro(article: Article) -> Iterator[Diagnostic]:
    if article.intro is None:
        body = article.body.split("\n")
        first = next((i for i, text in enumerate(body) if text.strip()), 0)
        yield _err(
            article,
            article.body_line + first,
            "DZ009",
            f"article has no '## {INTRO_HEADING}' section; add the translator's "
            f"introduction under a heading '## {INTRO_HEADING}'",
        )
    elif not article.intro:
        yield _err(
            article,
            article.intro_line or article.body_line,
            "DZ009",
            f"the '## {INTRO_HEADING}' section holds only the import's to-do marker "
            f"{TODO_MARKER}; write the introduction in its place"
            if article.intro_source
            else f"the '## {INTRO_HEADING}' section is empty; write the introduction under it",
        )


def check_links(article: Article | LinkSource, corpus: Corpus) -> Iterator[Diagnostic]:
    for link in article.links:
        if link.html:  # (raw HTML: MkDocs leaves it to the browser)
            continue
        fragment = link.fragment
        target_path = link.path
        built = None  # a link to the built site (``../b/#P042``): the page's Markdown file
        if link.is_external or (target_path and not target_path.endswith(".md")):
            built = corpus.built_source(article, target_path) if fragment else None
            if built is None:
                continue
        target: Article | LinkSource | LinkTarget = article
        if target_path:
            resolved = built or corpus.resolve_link(article, target_path)
            if resolved is None:
                continue
            if not corpus.contains(resolved):
                yield _err(
                    article,
                    link.line,
                    "DZ018",
                    f"link [{_short(link.text)}]({_short(link.url, 80)}) resolves outside the "
                    "project (through a symlink or '..'); it is not followed",
                )
                continue
            found = corpus.get(resolved)
            if found is None and not article.is_article:
                continue  # the site's own page: MkDocs validates its links
            if found is None:
                yield _err(
                    article,
                    link.line,
                    "DZ017",
                    f"link [{_short(link.text)}]({_short(link.url, 80)}) points to "
                    f"{_short(target_path, 80)!r}, which "
                    "does not exist",
                )
                continue
            target = found
        if fragment is None or not target.is_article:
            # A page that is not a translation has no anchor of duizhao's: its `#table-2` or
            # `#P001` is the site's own heading or id, for MkDocs to validate.
            continue
        fragment = unquote(fragment)
        if not (
            PARAGRAPH_REF_RE.fullmatch(fragment)
            or FIGURE_ANCHOR_RE.fullmatch(fragment)
            or TABLE_ANCHOR_RE.fullmatch(fragment)
        ):
            continue  # headings and other anchors are MkDocs' to validate
        if fragment in target.anchors:
            continue
        where = "this article" if target is article else repr(target_path)
        hint = ""
        if PARAGRAPH_REF_RE.fullmatch(fragment) and not PARAGRAPH_ID_RE.fullmatch(fragment):
            hint = f" (IDs have at least three digits: #{normalize_id(fragment)})"
        yield _err(
            article,
            link.line,
            "DZ008",
            f"link [{_short(link.text)}]({_short(link.url, 80)}) points to #{_short(fragment)}, "
            f"which is not in {where}{hint}",
        )


def check_local(article: Article, quality: Quality | None = None) -> list[Diagnostic]:
    """The problems that depend on ``article`` alone (no other file), in no particular order.

    A page that is not a translation is the site's own: only an unreadable file is reported
    (its links to paragraphs are checked by :func:`check_links`). ``quality``: the translation
    checks of the project (DZ401-DZ447), or None for none.
    """
    found = list(article.diagnostics)
    if any(d.code == "DZ011" for d in found) or not article.is_article:
        found = [d for d in found if d.code in ("DZ011", "DZ020", "DZ021", "DZ022")]
        if not found and is_listed(article):  # an introduction that a 导言 index shows
            found.extend(check_listing(article))
        return found
    found.extend(check_front_matter(article))
    found.extend(check_paragraphs(article))
    found.extend(check_intro(article))
    found.extend(check_attribution(article))
    found.extend(check_listing(article))
    if quality is not None:
        found.extend(quality.article(article))
    return found


def check_article(
    article: Article,
    corpus: Corpus,
    local: Callable[[Article], list[Diagnostic]] = check_local,
) -> list[Diagnostic]:
    """Every problem in one article, in source order.

    ``local`` computes :func:`check_local`; a caller that keeps Articles between runs may pass
    a memoized one (the figure and link checks read other files, so they always run).
    """
    found = _check_alone(article, corpus, local)
    if not any(d.code == "DZ011" for d in found):
        found.extend(check_links(article, corpus))
    found.sort(key=lambda d: (d.line, d.code))
    return found


def _check_alone(
    article: Article, corpus: Corpus, local: Callable[[Article], list[Diagnostic]]
) -> list[Diagnostic]:
    found = list(local(article))
    if not any(d.code == "DZ011" for d in found):
        found.extend(corpus.figures.check(article))
    return found


#: How :func:`check_corpus` checks one article's links: ``linked(source, compute)`` returns
#: ``compute()`` or, from a memo, what it returned for an equal source in an unchanged corpus.
Linked = Callable[[LinkSource, Callable[[], list[Diagnostic]]], list[Diagnostic]]


@dataclass(frozen=True)
class FileSummary:
    """What :func:`check_summaries` needs of one checked file: its problems found alone (the
    checks of :func:`check_local` and the figures'), and what the checks across files read
    of it. Small and plain: ``duizhao check`` keeps one per file between runs
    (:mod:`duizhao.checkcache`)."""

    path: Path
    #: the problems of the file alone, in no particular order
    found: tuple[Diagnostic, ...]
    #: what links into the file read
    target: LinkTarget
    #: the file's links to check, or None for an unreadable file (DZ011)
    source: LinkSource | None
    #: the line of its ``featured: true``, or None
    featured: int | None = None


def summarize(
    article: Article,
    corpus: Corpus,
    local: Callable[[Article], list[Diagnostic]] = check_local,
) -> FileSummary:
    """``article`` checked alone, and kept as what the checks across files need of it."""
    found = _check_alone(article, corpus, local)
    readable = not any(d.code == "DZ011" for d in found)
    featured = article.meta.get(FEATURED_KEY) is True
    return FileSummary(
        article.path,
        tuple(found),
        LinkTarget.of(article),
        LinkSource.of(article) if readable else None,
        article.meta_lines.get(FEATURED_KEY, 1) if featured else None,
    )


def _links_of(source: LinkSource, corpus: Corpus) -> list[Diagnostic]:
    return list(check_links(source, corpus))


def check_corpus(
    articles: Iterable[Article],
    corpus: Corpus,
    local: Callable[[Article], list[Diagnostic]] = check_local,
    linked: Linked | None = None,
) -> list[Diagnostic]:
    """Check ``articles``, one at a time: each is checked alone as it comes and kept only as
    its links and anchors (links are checked once every article is known)."""
    summaries = (summarize(article, corpus, local) for article in articles)
    return check_summaries(summaries, corpus, linked)


def check_summaries(
    summaries: Iterable[FileSummary], corpus: Corpus, linked: Linked | None = None
) -> list[Diagnostic]:
    """Every problem of the files ``summaries`` describe (each taken as it comes, so that
    linked files not among them are read lazily): their own, then those across files (links,
    featured pages), each file's in source order."""
    kept: list[FileSummary] = []
    featured: list[tuple[Path, int]] = []
    for summary in summaries:
        corpus.add_target(summary.path, summary.target)
        kept.append(summary)
        if summary.featured is not None:
            featured.append((summary.path, summary.featured))  # few: the home page shows one
    result: list[Diagnostic] = []
    for summary in kept:
        found = list(summary.found)
        if summary.source is not None:
            links = functools.partial(_links_of, summary.source, corpus)
            found.extend(links() if linked is None else linked(summary.source, links))
        found.sort(key=lambda d: (d.line, d.code))
        result.extend(found)
    result.extend(check_featured(featured))
    return result
