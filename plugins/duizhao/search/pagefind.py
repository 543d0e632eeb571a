"""The Pagefind back end: what each page gives the index, and the run of Pagefind over them.

Pagefind (``pagefind[extended]``, a Rust binary shipped on PyPI; the extended build segments
Chinese) writes a static index cut into small files: the browser loads the entry, the words'
chunks a query needs and the fragments (text) of the pages it shows, never the whole site.

Each page is given to Pagefind as a small HTML document made here from the page's rendered
content (:func:`index_document`): its title, and its content with an end marker after every
numbered paragraph and figure. Pagefind records every element with an ``id`` as an anchor with
its word position; duizhao's search worker (``assets/search-worker.js``) cuts a page's hits
at those anchors, so a hit inside ``<div id="P042">`` becomes a result for ``#P042``, a hit in a
figure one for ``#fig-3``, a hit under a heading one for that heading, and the marker ends a
block (the notes after a paragraph belong to their section again).

A long page is given as several documents (:func:`page_documents`), cut between top-level
elements every :data:`PART_BYTES` or so: the browser then fetches the text of the parts that
hold a query's hits, not of the whole article. Each part carries the page's URL and title and
the heading it starts under as Pagefind metadata (``url``, ``title``, ``section``,
``section_id``); the worker shows one result per page, whatever parts it came from.

Chinese is segmented here, with jieba and the site's dictionaries (:mod:`.segment`: the
project's jieba_userdict.txt, and the glossary's terms through ``add_terms``), not by
Pagefind: the words of a Chinese site's documents are separated by spaces and the index is
made for no particular language (Pagefind neither stems nor segments it). Pagefind's own Chinese
segmentation (jieba-rs without those dictionaries) and the browser's (``Intl.Segmenter``) cut
differently, so 超节点 found nothing. The index's Chinese words are written beside it, shared
out by their first character (:func:`word_shards`); the worker segments a query's Chinese with
the shards of its characters, longest words first, as Material's search segments a query
with its index's words.

Pages whose content repeats other pages (the 进度 page, 图表索引, the generated 导言 lists) are
given their title only (:func:`index_document` with ``title_only``).
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from markupsafe import Markup

from .. import htmlscan
from ..escape import html_attr, html_text
from .packing import pack_index
from .pagefind_check import FIXED, IndexCheck
from .paragraphs import VOID_ELEMENTS
from .segment import HAN_RE
from .service import Service, ServiceError
from .swap import swap

#: The element that ends a numbered paragraph or a figure in the indexed document.
BLOCK_END = '<i id="dz-end"></i>'
#: Where the index lands in the site (beside Material's search/search_index.json).
OUTPUT = "search/pagefind"
#: What is not indexed: permalinks' ¶, the source box, the gallery of captions that repeats
#: the figures, diagrams' source, and what a page marks as Material's search does.
EXCLUDE_SELECTORS = (
    ".headerlink",
    ".dz-source",
    ".dz-gallery",
    ".mermaid",
    "[data-search-exclude]",
    "[data-pagefind-ignore]",
)
#: Pagefind's files that duizhao's worker loads; the bundled UIs are removed from the site.
KEEP = ("pagefind.js", "pagefind-entry.json", "index", "fragment", "filter", "words")
_KEEP_SUFFIXES = (".pf_meta", ".pagefind")
#: Block openings in duizhao's rendered HTML (markdown.py writes them exactly so).
_BLOCKS = (('<div class="dz-para"', "div"), ('<figure class="dz-figure"', "figure"))


def mark_block_ends(html: str) -> str:
    """``html`` with :data:`BLOCK_END` after each paragraph block and figure (linear time)."""
    ends: list[int] = []
    for opening, tag in _BLOCKS:
        at = html.find(opening)
        while at >= 0:
            end = _close(html, at + len(opening), tag)
            if end < 0:
                break
            ends.append(end)
            at = html.find(opening, end)
    if not ends:
        return html
    parts: list[str] = []
    last = 0
    for end in sorted(ends):
        parts += (html[last:end], BLOCK_END)
        last = end
    parts.append(html[last:])
    return "".join(parts)


def _close(html: str, at: int, tag: str) -> int:
    """The index after the ``</tag>`` that closes the element opened before ``at``; -1 if none.

    Author text inside is escaped, so ``<tag`` and ``</tag>`` in the HTML are elements.
    """
    depth, open_tag, close_tag = 1, f"<{tag}", f"</{tag}>"
    while True:
        close = html.find(close_tag, at)
        if close < 0:
            return -1
        opened = html.find(open_tag, at, close)
        while opened >= 0:
            after = html[opened + len(open_tag) : opened + len(open_tag) + 1]
            if after in (">", " ", "\n", "\t"):
                depth += 1
            opened = html.find(open_tag, opened + len(open_tag), close)
        depth -= 1
        at = close + len(close_tag)
        if depth == 0:
            return at


@dataclass(frozen=True)
class Part:
    """A piece of a page's content, and the heading it starts under ("" at the top)."""

    html: str
    section: str = ""
    section_id: str = ""


#: Splits a text's Chinese into words separated by spaces (see :class:`Words`); None: as is.
Segment = Callable[[str], str] | None


#: CJK punctuation and full-width forms: Pagefind's English words end at white space only, so
#: "XCCL、FlowServe" would be one word.
_CJK_PUNCT_RE = re.compile("[\u3000-\u303f\uff00-\uffef]+")


def _spaced(match: re.Match[str]) -> str:
    return f" {match.group(0)} "


class Words:
    """Segments Chinese with ``cut`` into words separated by spaces, and keeps the words of
    two or more characters it saw (the index's vocabulary for the worker)."""

    def __init__(self, cut: Callable[[str], Iterable[str]]) -> None:
        self.cut = cut
        self.seen: set[str] = set()
        #: each Han run's segmented text (a page's runs repeat: its sentences, its terms)
        self._spaced: dict[str, str] = {}

    def __call__(self, text: str) -> str:
        # Runs of Han alone, as Material's search plugin cuts them (they repeat more, and
        # ``cut`` remembers them).
        text = HAN_RE.sub(self._replace, text)
        return _CJK_PUNCT_RE.sub(_spaced, text)

    def _replace(self, match: re.Match[str]) -> str:
        run = match.group(0)
        spaced = self._spaced.get(run)
        if spaced is None:
            words = self.cut(run)
            self.seen.update(w for w in words if len(w) > 1)
            spaced = self._spaced[run] = " " + " ".join(words) + " "
        return spaced


def index_document(
    title: str, content: str, lang: str, *, title_only: bool = False, segment: Segment = None
) -> str:
    """The HTML that Pagefind indexes for a whole page (``title``: plain text; ``content``:
    the page's rendered content, HTML)."""
    part = Part("" if title_only else content)
    body = segment_text(part.html, segment) if segment is not None else part.html
    return _document("", title, body, part, lang, first=True, segment=segment)


def page_documents(
    url: str,
    title: str,
    content: str,
    lang: str,
    *,
    title_only: bool = False,
    segment: Segment = None,
) -> dict[str, str]:
    """The documents of the page at ``url``, by their path in the indexed folder."""
    if title_only:
        return {
            document_path(url): index_document(title, "", lang, title_only=True, segment=segment)
        }
    stem = document_path(url)
    stem = stem[: -len(".html")] if stem.endswith(".html") else stem
    # One scan of the content's markup serves both the cut into parts and the segmentation.
    tags = list(htmlscan.markup(content))
    documents = {}
    at = 0  # the first tag of the part
    for i, (part, end) in enumerate(_split(content, tags, PART_BYTES)):
        stop = at
        while stop < len(tags) and tags[stop].end <= end:
            stop += 1
        body = (
            _segmented(part.html, tags[at:stop], end - len(part.html), segment)
            if segment is not None
            else part.html
        )
        at = stop
        path = document_path(url) if i == 0 else f"{stem}.part-{i}.html"
        documents[path] = _document(url, title, body, part, lang, first=i == 0, segment=segment)
    return documents


def _document(
    url: str, title: str, body: str, part: Part, lang: str, *, first: bool, segment: Segment
) -> str:
    """The document of ``part`` whose content, segmented, is ``body``."""
    body = mark_block_ends(body)
    shown = html_text(title)
    words = html_text(segment(shown)) if segment is not None else shown
    # The title is a word of the page (ranked as a heading) on the first part, unless the
    # content has its own h1.
    heading = f'<h1 data-pagefind-weight="7">{words}</h1>' if first and "<h1" not in body else ""
    meta = {"title": title, "url": url, "section": part.section, "section_id": part.section_id}
    tags = "".join(
        f'<meta data-pagefind-meta="{key}[content]" content="{html_attr(value)}">'
        for key, value in meta.items()
        if value or key == "title"
    )
    return (
        f'<!doctype html><html lang="{html_attr(lang)}"><head><meta charset="utf-8">{tags}'
        f"<title>{html_text(title)}</title></head><body>"
        f"<div data-pagefind-body>{heading}{body}</div></body></html>"
    )


#: About how much HTML of a page's content one part holds (about 24 numbered paragraphs).
#: Pagefind's search in the browser costs the square of the number of documents that hold a
#: query's word (for each of them it scans every (word, document) entry of the query's words,
#: pagefind_core_search's search_term): 0.55-0.65 s in node for a word in 7,800 parts of 36 KB
#: at N=1,000. Larger parts cut that, and the metadata, but cost each result's text, and at
#: 72 KB they changed the quality set's ranks (内存语义 2 -> 41); at 48 KB every rank held.
PART_BYTES = 48_000
_SECTION_TAGS = frozenset(["h2", "h3"])
_ID_RE = re.compile(r"""\bid=(?:"([^"]*)"|'([^']*)')""")


def segment_text(html: str, segment: Callable[[str], str]) -> str:
    """``html`` with ``segment`` applied to its text, never to a tag (ids stay as they are)."""
    return _segmented(html, list(htmlscan.markup(html)), 0, segment)


#: Joins a part's texts for one call of the segmentation (no Han, no CJK punctuation: the
#: segmentation leaves it where it is, so the result splits back into the same texts).
_JOIN = "\x00"


def _segmented(
    html: str, tags: list[htmlscan.Markup], offset: int, segment: Callable[[str], str]
) -> str:
    """``html`` with ``segment`` applied to the text between ``tags`` (its markup, at their
    positions less ``offset``, in order; text is escaped: "<" starts markup)."""
    texts, last = [], 0
    for m in tags:
        texts.append(html[last : m.start - offset])
        last = m.end - offset
    texts.append(html[last:])
    if _JOIN in html:
        done = [segment(text) for text in texts]
    else:
        done = segment(_JOIN.join(texts)).split(_JOIN)
    out = [done[0]]
    for m, text in zip(tags, done[1:], strict=True):
        out += (html[m.start - offset : m.end - offset], text)
    return "".join(out)


def _top_level(html: str, tags: Iterable[htmlscan.Markup]) -> Iterable[tuple[int, str | None, str]]:
    """The ends of the top-level elements of ``html`` (whose markup is ``tags``), with the
    text and id of headings."""
    depth = 0
    heading: tuple[int, str] | None = None  # where an h2/h3 starts, its id
    for m in tags:
        closing, tag = m.closing, (m.name or "").lower()
        if not tag:
            continue  # a comment
        if tag in VOID_ELEMENTS or m.attrs.endswith("/"):
            if depth == 0:
                yield m.end, None, ""
            continue
        if not closing:
            if depth == 0 and tag in _SECTION_TAGS:
                ident = _ID_RE.search(m.attrs)
                heading = (m.end, (ident.group(1) or ident.group(2) or "") if ident else "")
            depth += 1
            continue
        depth = max(depth - 1, 0)
        if depth == 0:
            if heading is not None:
                text = Markup(html[heading[0] : m.start]).striptags().rstrip("¶").strip()
                yield m.end, text, heading[1]
                heading = None
            else:
                yield m.end, None, ""


def split_content(html: str, budget: int = PART_BYTES) -> list[Part]:
    """``html`` cut between top-level elements into parts of about ``budget`` bytes; a part
    starts before a heading where one is near. Every byte is in exactly one part."""
    if len(html) <= budget:
        return [Part(html)]
    return [part for part, _end in _split(html, list(htmlscan.markup(html)), budget)]


def _split(html: str, tags: list[htmlscan.Markup], budget: int) -> Iterable[tuple[Part, int]]:
    """:func:`split_content` of ``html`` whose markup is ``tags``: each part with its end."""
    if len(html) <= budget:
        yield Part(html), len(html)
        return
    ends = list(_top_level(html, tags))
    start, section, section_id = 0, "", ""
    current = ("", "")  # the heading the text at the scan's position is under
    for index, (end, heading, hid) in enumerate(ends):
        if heading is not None:
            current = (heading, hid)
        size = end - start
        before_heading = index + 1 < len(ends) and ends[index + 1][1] is not None
        if size >= budget or (before_heading and size >= budget // 2):
            yield Part(html[start:end], section, section_id), end
            start = end
            section, section_id = current
    if start < len(html):
        yield Part(html[start:], section, section_id), len(html)


def pagefind_language(language: object) -> str:
    """Pagefind's language code for the site's ``theme.language`` (``zh-Hans`` → ``zh``)."""
    text = str(language or "en").replace("_", "-").split("-")[0].lower()
    return text if text.isalpha() and 2 <= len(text) <= 3 else "en"


def index_language(language: str) -> str:
    """The language the index is made for. A Chinese site's documents come segmented: their
    index is for no language in particular ("und": no stemming, as Material's Chinese index
    has none; Pagefind's stemmer would add 4 KB to a first query); other sites keep Pagefind's
    own handling of their language."""
    return "und" if language == "zh" else language


#: Shards of the index's Chinese words (by their first character; a query touches a few).
WORD_SHARDS = 64
WORDS_DIR = "words"


def word_shards(words: Iterable[str], shards: int = WORD_SHARDS) -> dict[str, list[str]]:
    """File name → sorted words, for every shard that has words (``ord(first) % shards``)."""
    out: dict[str, list[str]] = {}
    for word in sorted(set(words)):
        out.setdefault(f"{ord(word[0]) % shards}.json", []).append(word)
    return out


def available() -> bool:
    """Whether the Pagefind package and its binary are installed."""
    try:
        from pagefind.service import get_executable
    except ImportError:
        return False
    return get_executable() is not None


@dataclass(frozen=True)
class IndexStats:
    pages: int
    documents: int
    packed: int = 0  # metadata and index chunks repacked (:mod:`.packing`)


class IncompleteIndexError(Exception):
    """Pagefind's index was not written whole, twice: the old index is left in place."""


#: How long the written index may take to be whole on disk after Pagefind has answered (its
#: last chunks are still queued in its writer threads), the binary running meanwhile.
SETTLE_SECONDS = 10.0
#: Attempts at writing a whole index before the old one is kept.
ATTEMPTS = 2
#: How long an answer of Pagefind's service may take (the write of a 1,000-article index: ~60 s
#: of CPU time on a loaded machine), before the index is given up as not written.
ANSWER_SECONDS = 900.0


def _index_config(lang: str, exclude: Iterable[str]) -> dict[str, Any]:
    return {
        "force_language": lang,
        "exclude_selectors": [*EXCLUDE_SELECTORS, *exclude],
        "write_playground": False,
    }


def _new_index(service: Service, lang: str, exclude: Iterable[str]) -> int:
    answer = service.request({"type": "NewIndex", "config": _index_config(lang, exclude)})
    return int(answer.result(ANSWER_SECONDS)["index_id"])


def write_index(
    documents: Mapping[str, str],
    site_dir: Path,
    lang: str,
    words: Iterable[str] = (),
    extra: Iterable[str] = (),
    attempts: int = ATTEMPTS,
) -> IndexStats:
    """Index ``documents`` (path → document, :func:`page_documents`) into
    ``site_dir/search/pagefind``.

    The new index is written beside the old one, checked whole (:mod:`.pagefind_check`) and
    swapped in, so a browser never sees half an index and files of an older index do not
    linger. An index still not whole after :data:`SETTLE_SECONDS` is written again, up to
    ``attempts`` times in all; then :class:`IncompleteIndexError` is raised and the old index
    stays. ``extra`` selectors are not indexed.
    """
    target = site_dir / OUTPUT
    target.parent.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    for _attempt in range(attempts):
        staging = _staging(target)
        try:
            with Service(_executable()) as service:
                pages = _index_folder(service, documents, staging, lang, extra)
                problems = _settle(staging)
            if not problems:
                return _install(staging, target, words, IndexStats(pages, len(documents)))
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    raise IncompleteIndexError(_summary(problems))


def _index_folder(
    service: Service, documents: Mapping[str, str], output: Path, lang: str, extra: Iterable[str]
) -> int:
    """Index ``documents`` into ``output``; how many pages Pagefind indexed.

    Pagefind reads a folder of files in parallel (documents sent one by one are parsed one
    after the other): the documents go to a folder laid out as the site is.
    """
    index = _new_index(service, lang, extra)
    with tempfile.TemporaryDirectory(prefix=".pagefind-src-", dir=output.parent) as source:
        for rel, document in documents.items():
            path = Path(source, rel)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(document, encoding="utf-8")
        added = service.request({"type": "AddDir", "index_id": index, "path": source})
        pages = int(added.result(ANSWER_SECONDS).get("page_count") or 0)
    _write_files(service, index, output).result(ANSWER_SECONDS)
    return pages


def _write_files(service: Service, index: int, output: Path) -> Future[dict[str, Any]]:
    """Ask Pagefind to write the index ``index`` into ``output``."""
    return service.request(
        {"type": "WriteFiles", "index_id": index, "output_path": os.fspath(output)}
    )


def _staging(target: Path) -> Path:
    staging = Path(tempfile.mkdtemp(prefix=".pagefind-", dir=target.parent))
    staging.chmod(0o755)  # served as the site's other folders are
    return staging


def _settle(staging: Path) -> list[str]:
    """The problems of the index Pagefind has answered it wrote into ``staging``, once it is
    whole or :data:`SETTLE_SECONDS` have passed (the binary still running: it answers
    ``WriteFiles`` before its last writes are on disk, :mod:`.pagefind_check`)."""
    check = IndexCheck(staging, _reference())
    deadline = time.monotonic() + SETTLE_SECONDS
    while (problems := check.problems()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return problems


def _summary(problems: list[str]) -> str:
    return "; ".join(problems[:3]) + (" …" if len(problems) > 3 else "")


def _install(staging: Path, target: Path, words: Iterable[str], stats: IndexStats) -> IndexStats:
    """Swap the whole index in ``staging`` in at ``target``, pruned, repacked and with the
    Chinese words' shards."""
    _prune(staging)
    # Checked whole, the largest files are repacked (the worker unpacks them).
    stats = replace(stats, packed=pack_index(staging))
    shards = word_shards(words)
    if shards:
        folder = staging / WORDS_DIR
        folder.mkdir()
        for name, listed in shards.items():
            text = json.dumps(listed, ensure_ascii=False, separators=(",", ":"))
            (folder / name).write_text(text, encoding="utf-8")
    swap(staging, target)  # whole, even under a signal or another build's swap
    return stats


class Indexing:
    """An index made while the site is built: each page's documents are sent to Pagefind as
    the page is rendered (:meth:`add`), and the index is asked for once the site's documents
    are known (:meth:`write`, at ``on_env``), so that Pagefind parses, indexes and writes on
    the other core while MkDocs renders the pages' templates; :meth:`finish`, after the build,
    checks the index and swaps it in as :func:`write_index` does.

    A document sent that the site does not keep as it was sent (a page rendered twice with
    other content, or left out of the site: Pagefind cannot take a page back) makes
    :meth:`finish` index the site's documents afresh with :func:`write_index`, as does an index
    not whole.
    """

    def __init__(self, site_dir: Path, lang: str, extra: Iterable[str] = ()) -> None:
        self.target = site_dir / OUTPUT
        self.lang, self.extra = lang, tuple(extra)
        self.service = Service(_executable())
        try:
            self.index = _new_index(self.service, lang, self.extra)
        except BaseException:
            self.service.close()
            raise
        self.sent: dict[str, str] = {}
        self.added: list[Future[dict[str, Any]]] = []
        self.stale = False  # a document sent is not the site's
        self.documents: Mapping[str, str] = {}
        self.staging: Path | None = None
        self.written: Future[dict[str, Any]] | None = None

    def add(self, path: str, document: str) -> None:
        """Send ``document`` (the site's file ``path``) to Pagefind now."""
        if path in self.sent:
            self.stale = self.stale or self.sent[path] != document
            return
        self.sent[path] = document
        request = {"type": "AddFile", "index_id": self.index, "file_path": path, "url": None}
        self.added.append(self.service.request({**request, "file_contents": document}))

    def write(self, documents: Mapping[str, str]) -> None:
        """The site's documents are ``documents``: send those not sent, and ask for the index
        once Pagefind has taken every one (it is written while the build goes on)."""
        self.documents = dict(documents)
        self.stale = self.stale or any(documents.get(p) != d for p, d in self.sent.items())
        if self.stale:
            self.service.close()
            return
        for path, document in documents.items():
            self.add(path, document)
        self.target.parent.mkdir(parents=True, exist_ok=True)
        self.staging = staging = _staging(self.target)
        written: Future[dict[str, Any]] = Future()
        asking = threading.Lock()
        asked: list[bool] = []

        def ask(_done: object = None) -> None:  # once every document has its answer
            with asking:
                if asked or not all(added.done() for added in self.added):
                    return
                asked.append(True)
            answer = _write_files(self.service, self.index, staging)
            answer.add_done_callback(lambda a: _relay(a, written))

        for added in self.added:
            added.add_done_callback(ask)
        ask()
        self.written = written

    def finish(self, words: Iterable[str] = ()) -> IndexStats:
        """Check the index and swap it in (its pages, documents and repacked files), or
        index the site's documents afresh (:func:`write_index`) where this one will not do;
        :class:`IncompleteIndexError` as there (this index is its first attempt)."""
        attempts = ATTEMPTS
        try:
            if not self.stale and self.staging is not None and self.written is not None:
                for added in self.added:
                    added.result(ANSWER_SECONDS)  # a document Pagefind refused: afresh
                self.written.result(ANSWER_SECONDS)
                problems = _settle(self.staging)
                if not problems:
                    self.service.close()
                    stats = IndexStats(len(self.added), len(self.documents))
                    return _install(self.staging, self.target, words, stats)
                attempts -= 1
                if not attempts:
                    raise IncompleteIndexError(_summary(problems))
        except ServiceError:
            pass  # written afresh below
        finally:
            self.close()
        site_dir = self.target.parent.parent
        return write_index(self.documents, site_dir, self.lang, words, self.extra, attempts)

    def close(self) -> None:
        """End Pagefind's service and remove what it wrote (a build that failed)."""
        try:
            self.service.close()
        finally:
            if self.staging is not None:
                shutil.rmtree(self.staging, ignore_errors=True)


def _relay(source: Future[dict[str, Any]], target: Future[dict[str, Any]]) -> None:
    error = source.exception()
    if error is not None:
        target.set_exception(error)
    else:
        target.set_result(source.result())


def _executable() -> Path:
    from pagefind.service import get_executable

    executable = get_executable()
    if executable is None:
        raise ServiceError("the pagefind[extended] package has no binary")
    return executable


#: The binary's own copy of the files every index has alike, by the binary (path, size, time).
_REFERENCE: dict[tuple[str, int, int], dict[str, bytes]] = {}


def _reference() -> dict[str, bytes]:
    """The files of :data:`~.pagefind_check.FIXED` as this Pagefind binary makes them, from a
    one-record index in memory (once per binary and process); empty if it cannot be had
    (checked without it: the script's end, the gzip files' trailers)."""
    try:
        executable = _executable()
        stat = executable.stat()
    except (ServiceError, OSError):
        return {}
    key = (os.fspath(executable), stat.st_size, stat.st_mtime_ns)
    if key not in _REFERENCE:
        try:
            with Service(executable) as service:
                index = _new_index(service, "en", ())
                record = {"type": "AddRecord", "index_id": index, "url": "/"}
                service.request({**record, "content": "pagefind", "language": "en"}).result(
                    ANSWER_SECONDS
                )
                got = service.request({"type": "GetFiles", "index_id": index})
                files = got.result(ANSWER_SECONDS)["files"]
        except (ServiceError, OSError, KeyError, TypeError):
            return {}
        _REFERENCE[key] = {
            f["path"]: base64.b64decode(f["content"]) for f in files if f["path"] in FIXED
        }
    return _REFERENCE[key]


def document_path(url: str) -> str:
    """Where the page of ``url`` lies in the site (``a/`` → ``a/index.html``): Pagefind
    gives each file the URL of its path."""
    return url if url.endswith(".html") else f"{url}index.html"


def _prune(output: Path) -> None:
    """Remove Pagefind's bundled UIs, its own worker and the playground: duizhao's worker
    runs Pagefind inside Material's search box."""
    for path in output.iterdir():
        if path.name in KEEP or path.name.endswith(_KEEP_SUFFIXES):
            continue
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink()
