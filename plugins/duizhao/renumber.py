"""``duizhao renumber``: make an article's IDs sequential and follow every reference to them.

:func:`plan` reads the whole docs tree and returns the new bytes of every file that changes: the
article's block openers, its ``paragraphs:`` range, links to its paragraphs (``#P042`` in the
article itself, ``article.md#P042`` from anywhere, resolved like ``duizhao check`` resolves
them, and links to its page as built, ``../article/#P042``, in Markdown or in raw HTML's
``href``) and its entries in ``duizhao.lock``. Nothing is written here; the CLI shows a diff or
hands the plan to :func:`duizhao.source.write_atomically`. When a reference cannot be mapped
unambiguously, or a file cannot be read, the plan carries diagnostics and no changes.

Lines are located by :mod:`duizhao.article` (block lines, link columns); the edits touch only
those characters, so BOMs, CRLF line ends and front matter comments survive.
"""

from __future__ import annotations

import difflib
import os
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .article import (
    PARAGRAPH_ID_RE,
    Article,
    Link,
    ParagraphRange,
    decode,
    parse,
    replace_block_argument,
    replace_range,
)
from .checks import Corpus, refused_input
from .diagnostics import Diagnostic, display_path
from .linkforms import code_lines, continued_hrefs
from .lock import Lock, digest
from .siteurls import SiteUrls
from .source import SourceFile
from .yamlsafe import MAX_TEXT_BYTES, InputError, read_bytes

#: Problems in the article that make block positions or its range uncertain.
_BLOCKING = ("DZ007", "DZ010", "DZ011")


@dataclass
class Plan:
    """What renumbering would do. Empty ``changes`` and no ``refusals``: already sequential."""

    mapping: dict[str, str] = field(default_factory=dict)
    #: path → (old bytes, new bytes) for each file that changes
    changes: dict[Path, tuple[bytes, bytes]] = field(default_factory=dict)
    refusals: list[Diagnostic] = field(default_factory=list)
    #: blocks whose ID changes (placeholders such as ``P???`` included)
    renumbered: int = 0
    references: int = 0
    #: (file, line, ID) of each link to an ID of the article that no block carries (nor a
    #: merge took in): left as written
    dangling: list[tuple[Path, int, str]] = field(default_factory=list)

    def diff(self, base: str | os.PathLike[str] | None = None) -> str:
        """A unified diff of every change, paths relative to ``base`` (default: cwd)."""
        return unified_diff(self.changes, base)


def unified_diff(
    changes: dict[Path, tuple[bytes, bytes]], base: str | os.PathLike[str] | None = None
) -> str:
    """A unified diff of ``changes`` (path → old and new bytes), paths relative to ``base``."""
    out: list[str] = []
    for path, (old, new) in sorted(changes.items()):
        name = display_path(path, base)
        out.extend(
            difflib.unified_diff(
                old.decode("utf-8-sig").splitlines(keepends=True),
                new.decode("utf-8-sig").splitlines(keepends=True),
                f"a/{name}",
                f"b/{name}",
            )
        )
    return "".join(line if line.endswith("\n") else line + "\n" for line in out)


@dataclass
class Doc:
    """A source file as read: its bytes, its lines for editing and its parse."""

    path: Path
    data: bytes
    source: SourceFile
    article: Article


def load_doc(path: Path, root: Path, refusals: list[Diagnostic]) -> Doc | None:
    """Read ``path`` (inside ``root``) for editing; None, with the reason in ``refusals``, when
    it cannot be read."""
    # A link out of the project is never read (its text would be quoted in the diff) nor
    # written (the write would change a file outside the project, or copy it into docs).
    problem = refused_input(path, root)
    if problem is not None:
        refusals.append(problem)
        return None
    try:
        data = read_bytes(path, MAX_TEXT_BYTES)  # a FIFO or device is refused, never read
    except (InputError, OSError) as exc:
        reason = exc.message if isinstance(exc, InputError) else f"cannot read file: {exc.strerror}"
        refusals.append(Diagnostic(path, 1, "DZ011", f"{reason}; fix access"))
        return None
    text, problem = decode(data, path)
    if text is None:
        assert problem is not None
        refusals.append(problem)
        return None
    source = SourceFile.from_bytes(data)
    return Doc(path, data, source, parse(source.text, path))


def _shown(link: Link) -> str:
    """``link`` as its author wrote it: ``[text](url)`` or ``<a href="url">``."""
    return f'<a href="{link.url}">' if link.html else f"[{link.text}]({link.url})"


def _text_span(link: Link, line: str, url_end: int) -> tuple[int, int] | None:
    """Where the text of ``link`` (whose URL ends at ``url_end``) is on its ``line``, when it
    is its fragment: ``[P042](#P042)``, ``<a href="#P042">P042</a>``."""
    assert link.column is not None and link.fragment is not None
    size = len(link.fragment)
    if link.html:
        at = line.find(f">{link.fragment}<", url_end)
        return None if at < 0 else (at + 1, at + 1 + size)
    head = line[: link.column].rstrip("<").rstrip()
    if not head.endswith("]("):
        return None
    end = len(head) - 2
    return (end - size, end) if line[end - size : end] == link.fragment else None


@dataclass
class _Landing:
    """Which links land on the article being renumbered: a link to its source (``x.md``,
    resolved as ``duizhao check`` resolves it), or to its page as built (``../x/``,
    ``/site/papers/x/``, ``x.html``: :class:`duizhao.siteurls.SiteUrls`)."""

    corpus: Corpus
    target: Path
    docs_dir: Path
    urls: SiteUrls
    #: the article's page URL (None: it is not in the docs folder, so it has none)
    page: str | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.docs_dir = self.docs_dir.resolve()
        src = self._src(self.target)
        self.page = None if src is None else self.urls.page_url(src)

    def _src(self, path: Path) -> str | None:
        """``path`` relative to the docs folder, as MkDocs names the file, or None outside."""
        docs = self.docs_dir
        for candidate in (Path(os.path.abspath(path)), self.corpus.resolved(path)):
            if candidate.is_relative_to(docs):
                return candidate.relative_to(docs).as_posix()
        return None

    def on_target(self, link: Link, doc: Doc, key: Path) -> bool:
        if link.is_external:  # a full URL of the site itself is its path from the root
            own = self.urls.own_path(link.path)
            src = self._src(doc.path)
            return own is not None and src is not None and self.urls.lands_on(src, own) == self.page
        if not link.path:
            return key == self.target
        resolved = self.corpus.resolve_link(doc.article, link.path)
        if resolved is not None and self.corpus.resolved(resolved) == self.target:
            return True
        if self.page is None or link.path.endswith(".md"):
            return False
        src = self._src(doc.path)
        return src is not None and self.urls.lands_on(src, link.path) == self.page


def _links(doc: Doc) -> list[Link]:
    """The links of ``doc`` renumber follows: its parse's, less those in indented code (the
    parse skips fenced code only), and the ``href`` values on a later line than their tag's
    ``<`` (:mod:`duizhao.linkforms`). An HTML page of the docs (``.html``) has no Markdown
    code: each of its lines is read as raw HTML."""
    lines = doc.source.text.split("\n")
    code = code_lines(lines) if doc.path.suffix == ".md" else set()
    found = [link for link in doc.article.links if link.line - 1 not in code]
    found += continued_hrefs(lines, 1, code)
    return found


def _new_range(article: Article, count: int, start: int, width: int) -> ParagraphRange | None:
    rng = article.paragraph_range
    if rng is None or count == 0:
        return None
    end = start + count - 1
    highest = max((p.number for p in article.paragraphs if p.number is not None), default=0)
    # A draft may declare the whole paper while holding its first paragraphs only: its range
    # follows the blocks when they reach (or pass) its end.
    if highest < rng.end and end <= rng.end:
        end = rng.end
    return ParagraphRange(start, end, width)


def plan(
    article_path: Path,
    docs_dir: Path,
    files: list[Path],
    lock: Lock | None = None,
    lock_path: Path | None = None,
    lock_key: str | None = None,
    root: Path | None = None,
    *,
    edited: bytes | None = None,
    absorbed: Mapping[str, str] | None = None,
    urls: SiteUrls | None = None,
) -> Plan:
    """Plan the renumbering of ``article_path``; ``files`` are every Markdown file that may link
    to it (normally the whole docs tree). ``lock`` entries under ``lock_key`` follow the IDs.
    Every file must lie, through its symlinks, inside ``root`` (default: ``docs_dir``).

    ``duizhao update`` plans its edit and the renumbering as one change: ``edited`` is the
    article as the update leaves it, renumbered instead of the file (whose bytes stay the old
    side of the change), and ``absorbed`` maps IDs that no block of ``edited`` carries any more
    (paragraphs merged into another) to the ID of the block that took them in: links to them
    follow that block. ``urls`` says how the site's pages are published (default: MkDocs'
    defaults), for links written to the built site (``../x/#P042``, raw HTML's ``href``).
    """
    result = Plan()
    target = article_path.resolve()
    docs: dict[Path, Doc] = {}
    for path in dict.fromkeys([article_path, *files]):
        doc = load_doc(path, root or docs_dir, result.refusals)
        if doc is not None:
            docs[path.resolve()] = doc
    if result.refusals:
        return result
    main = docs[target]
    if edited is not None:
        updated = SourceFile.from_bytes(edited)
        main = Doc(main.path, main.data, updated, parse(updated.text, main.path))
        docs[target] = main
    article = main.article
    blocking = [d for d in article.diagnostics if d.code in _BLOCKING]
    rng = article.paragraph_range
    range_line = article.meta_lines.get("paragraphs")
    if range_line is not None and (rng is None or rng.start > rng.end):
        blocking.append(
            Diagnostic(
                article.path,
                range_line,
                "DZ013",
                f"malformed range {main.source.line(range_line).strip()!r}; renumber needs its "
                "start: write it as 'paragraphs: P001-P129'",
            )
        )
    if blocking:
        result.refusals.extend(blocking)
        return result

    paragraphs = article.paragraphs
    widths = [len(p.id) - 1 for p in paragraphs if p.is_well_formed]
    width = rng.width if rng else max([3, *widths])
    # Without a declared range, numbering goes on from the first block (a paper split over
    # several pages may start its second page at P050).
    first = paragraphs[0].number if paragraphs else None
    start = rng.start if rng else (first if first is not None else 1)
    new_ids = [f"P{start + i:0{width}d}" for i in range(len(paragraphs))]
    counts = Counter(p.id for p in paragraphs)
    duplicates = {
        pid: [p.line for p in paragraphs if p.id == pid] for pid, n in counts.items() if n > 1
    }
    mapping = {
        p.id: new
        for p, new in zip(paragraphs, new_ids, strict=True)
        if p.is_well_formed and p.id not in duplicates and p.id != new
    }
    result.mapping = mapping
    # Links may also name an ID a merge took away: they follow the block that took it in.
    followed = dict(mapping)
    for old, into in (absorbed or {}).items():
        if old not in counts:
            followed[old] = mapping.get(into, into)

    # References to the article's paragraphs, in every file.
    corpus = Corpus(docs_dir)
    edits: dict[Path, dict[int, list[tuple[int, int, str]]]] = {}
    lands = _Landing(corpus, target, docs_dir, urls or SiteUrls())
    for key, doc in docs.items():
        for link in _links(doc):
            if link.fragment is None or link.column is None:
                continue
            if not lands.on_target(link, doc, key):
                continue
            fragment = link.fragment
            if not PARAGRAPH_ID_RE.fullmatch(fragment):
                continue
            if fragment in duplicates:
                lines = ", ".join(str(n) for n in duplicates[fragment])
                where = display_path(article.path)
                result.refusals.append(
                    Diagnostic(
                        doc.path,
                        link.line,
                        "DZ302",
                        f"link {_shown(link)} is ambiguous: {fragment} is the ID of "
                        f"the blocks at lines {lines} of {where}; give the inserted block a "
                        "placeholder ID such as "
                        "'/// paragraph | P???' so that renumber can tell them apart",
                    )
                )
                continue
            if fragment not in followed:
                if fragment not in counts:
                    result.dangling.append((doc.path, link.line, fragment))
                continue
            begin = link.column + len(link.url) - len(fragment)
            line_text = doc.source.line(link.line)
            if line_text[begin : begin + len(fragment)] != fragment:
                continue  # an escaped URL whose text differs from its value: left to the author
            spans = edits.setdefault(key, {}).setdefault(link.line, [])
            spans.append((begin, begin + len(fragment), followed[fragment]))
            if link.text == fragment:  # [P042](#P042) keeps reading as its target
                label = _text_span(link, line_text, begin + len(fragment))
                if label is not None:
                    spans.append((*label, followed[fragment]))
            result.references += 1
    if result.refusals:
        result.refusals.sort(key=lambda d: (str(d.path), d.line))
        return result

    for key, by_line in edits.items():
        source = docs[key].source
        for number, spans in by_line.items():
            text = source.line(number)
            for begin, end, new in sorted(set(spans), reverse=True):
                text = text[:begin] + new + text[end:]
            source.set_line(number, text)

    source = main.source
    for p, new in zip(paragraphs, new_ids, strict=True):
        if p.id != new:
            source.set_line(p.line, replace_block_argument(source.line(p.line), new))
            result.renumbered += 1
    new_range = _new_range(article, len(paragraphs), start, width)
    if new_range is not None and range_line is not None and str(new_range) != str(rng):
        replaced = replace_range(source.line(range_line), new_range)
        if replaced is not None:
            source.set_line(range_line, replaced)

    for doc in docs.values():
        data = doc.source.to_bytes()
        if data != doc.data:  # (for the article of an update: against the file on disk)
            result.changes[doc.path] = (doc.data, data)

    if lock is not None and lock_path is not None and lock_key is not None:
        _follow_lock(result, lock, lock_path, lock_key, article, new_ids)
    return result


def _follow_lock(
    result: Plan, lock: Lock, path: Path, key: str, article: Article, new_ids: list[str]
) -> None:
    """Move the article's entries in the lock to the new IDs: accepted digests (duplicates: by
    matching digest), earlier originals and the targets of alias anchors."""
    old = lock.articles.get(key, {})
    moved: dict[str, str] = {}
    #: the new ID of the block each old ID's entries belong to: the one whose original
    #: matches the accepted digest, else the first block with that ID
    owner: dict[str, str] = {}
    counts = Counter(p.id for p in article.paragraphs)
    for p, new in zip(article.paragraphs, new_ids, strict=True):
        accepted = old.get(p.id)
        if accepted is None or p.id in owner:
            continue
        if counts[p.id] > 1 and accepted != digest(p.original):
            continue
        owner[p.id] = new
        moved[new] = accepted
    for p, new in zip(article.paragraphs, new_ids, strict=True):
        if p.is_well_formed:
            owner.setdefault(p.id, new)
    before = (
        lock.articles.get(key),
        lock.previous.get(key),
        lock.aliases.get(key),
    )
    previous = {owner[pid]: t for pid, t in lock.previous.get(key, {}).items() if pid in owner}
    aliases = {
        alias: owner[into]
        for alias, into in lock.aliases.get(key, {}).items()
        if into in owner and alias not in owner.values()
    }
    for name, section in (("articles", moved), ("previous", previous), ("aliases", aliases)):
        table = getattr(lock, name)
        if section:
            table[key] = section
        else:
            table.pop(key, None)
    if (lock.articles.get(key), lock.previous.get(key), lock.aliases.get(key)) == before:
        return
    try:
        on_disk = path.read_bytes()
    except FileNotFoundError:
        on_disk = b""
    result.changes[path] = (on_disk, lock.to_bytes())
