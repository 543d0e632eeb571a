"""The Pagefind documents made in a process of their own while ``mkdocs build`` renders pages.

Making a page's documents (jieba over its Chinese, the cut into parts, :mod:`.pagefind`) took
13 % of a build's main thread, and the build waited for it page by page. A ``mkdocs build``
now forks a worker at its first page (:class:`IndexProcess`): the build's thread hands over
each page's rendered content and goes on; the worker makes the documents and sends them to
Pagefind's service itself (:class:`~.site_index.SiteIndex`), on the other core, while the
build renders the next page. After the pages the build asks the worker to finish the index
and waits for it, as it waited for Pagefind before.

Forked, not spawned: the worker starts with the build's jieba already loaded, with the site's
dictionaries and the glossary's terms (a spawned process would load jieba's dictionary
again: about 1.2 s of CPU), and with the documents of the pages a ``--dirty`` build does not
render. Where a process cannot be forked (not Linux), the documents are made in the build's
process as before. The worker ignores Ctrl-C (the build stops and ends it: it is a daemon
process, ended when the build's process exits) and, ended, ends Pagefind's service and removes
what it wrote.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.process
import os
import queue
import signal
import sys
import threading
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from .pagefind import ANSWER_SECONDS, ATTEMPTS, SETTLE_SECONDS, IncompleteIndexError, IndexStats
from .service import EXIT_SECONDS as SERVICE_EXIT_SECONDS
from .site_index import SiteIndex

#: How long the build waits for the worker's index once its pages are done: the worker's own
#: waits on Pagefind are bounded (its answers, the settling of each attempt), this bounds a
#: worker that hangs.
FINISH_SECONDS = ANSWER_SECONDS + ATTEMPTS * SETTLE_SECONDS + 60.0
#: How long an ended worker may take to close Pagefind's service (which may itself wait
#: :data:`~.service.EXIT_SECONDS` for the binary) and remove its staging folder, before it
#: is killed (a worker killed sooner left its staging folder behind, at load 20).
EXIT_SECONDS = SERVICE_EXIT_SECONDS + 10.0


def can_fork() -> bool:
    """Whether the documents can be made in a forked process here (Linux: fork is safe for a
    process such as the build's, with no threads of its own at its first page)."""
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


class WorkerError(Exception):
    """The worker stopped, or failed, before it wrote the index."""


@dataclass
class _Outcome:
    """What the worker sends back once its index is written (or not)."""

    stats: IndexStats | None
    incomplete: str  # IncompleteIndexError's message, "" if none
    error: str  # another failure's message, "" if none
    documents: dict[str, dict[str, str]]
    words: dict[str, set[str]]
    making: float
    no_service: str


class IndexProcess:
    """A forked worker making ``site``'s documents and index: the same calls as
    :class:`~.site_index.SiteIndex` (``page``, ``drop``, ``env``, ``finish``, ``close``),
    each sent to the worker and never waited for but :meth:`finish`, which updates ``site``
    with the worker's documents and words (a ``--dirty`` build's next build keeps them)."""

    def __init__(self, site: SiteIndex) -> None:
        self.site = site
        context = multiprocessing.get_context("fork")
        inbox_read, self._inbox = context.Pipe(duplex=False)
        self._outbox, outbox_write = context.Pipe(duplex=False)
        self._process = context.Process(
            target=_serve,
            args=(site, inbox_read, outbox_write, (self._inbox, self._outbox)),
            name="duizhao-search-index",
            daemon=True,
        )
        try:
            _start(self._process)
        except BaseException:  # not forked (EAGAIN, ENOMEM): the build makes its documents
            for end in (inbox_read, self._inbox, self._outbox, outbox_write):
                end.close()
            raise
        inbox_read.close()
        outbox_write.close()
        #: messages for the worker, written by a thread: a page's content may be more than a
        #: pipe holds, and the build's thread does not wait for the worker to read it
        self._queue: queue.SimpleQueue[tuple[Any, ...] | None] = queue.SimpleQueue()
        self._writer = threading.Thread(target=self._write, daemon=True)
        self._writer.start()

    def page(self, url: str, title: str, html: str, title_only: bool) -> None:
        self._queue.put(("page", url, title, html, title_only))

    def drop(self, url: str) -> None:
        self._queue.put(("drop", url))

    def env(self, urls: set[str]) -> None:
        self._queue.put(("env", urls))

    def finish(self) -> IndexStats:
        """Wait for the worker's index; the site's documents and words are then the worker's.
        :class:`~.pagefind.IncompleteIndexError` as :meth:`SiteIndex.finish
        <.site_index.SiteIndex.finish>`; :class:`WorkerError` if the worker failed."""
        self._queue.put(("finish",))
        self._queue.put(None)
        try:
            if not self._outbox.poll(FINISH_SECONDS):
                raise WorkerError(f"no index after {FINISH_SECONDS:.0f} s")
            outcome: _Outcome = self._outbox.recv()
        except (EOFError, OSError) as error:
            raise WorkerError(
                f"the indexing process stopped (exit status {self._process.exitcode})"
            ) from error
        finally:
            self.close(EXIT_SECONDS)
        site = self.site
        site.documents, site.words = outcome.documents, outcome.words
        site.making, site.no_service = outcome.making, outcome.no_service
        if outcome.incomplete:
            raise IncompleteIndexError(outcome.incomplete)
        if outcome.error or outcome.stats is None:
            raise WorkerError(outcome.error or "no index")
        return outcome.stats

    def close(self, wait: float = 0.0) -> None:
        """End the worker (it ends Pagefind's service and removes what it wrote), after
        ``wait`` seconds at most for it to end by itself, and wait for it: its CPU time is
        then the build's (its children's)."""
        self._queue.put(None)
        self._process.join(wait)
        if self._process.is_alive():
            self._process.terminate()
            self._process.join(EXIT_SECONDS)
        if self._process.is_alive():
            self._process.kill()
        self._process.join()
        self._outbox.close()

    def _write(self) -> None:
        try:
            while (message := self._queue.get()) is not None:
                self._inbox.send(message)
        except OSError:  # the worker ended: finish() says so
            pass
        finally:
            self._inbox.close()


def _start(process: multiprocessing.process.BaseProcess) -> None:
    """Start ``process``, closing the pipes multiprocessing opened for it if it cannot fork
    (Python 3.11's ``popen_fork``, as of 3.11.7, leaves its two pipes open when ``os.fork``
    fails).

    The build forks only while it has no other thread (:mod:`.pagefind_feature`), so the
    pipes opened meanwhile are multiprocessing's."""
    before = _pipes()
    try:
        process.start()
    except OSError:
        for descriptor in _pipes() - before:
            with contextlib.suppress(OSError):
                os.close(descriptor)
        raise


def _pipes() -> set[int]:
    """This process's open descriptors that are pipes (Linux: ``/proc/self/fd``)."""
    out = set()
    for name in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{name}").startswith("pipe:"):
                out.add(int(name))
        except OSError:
            continue  # the listing's own descriptor, closed by now
    return out


def _ended(_signal: int, _frame: object) -> None:
    raise SystemExit(1)


def _serve(
    site: SiteIndex, inbox: Connection, outbox: Connection, parents: tuple[Connection, ...]
) -> None:
    """The worker: apply each message to ``site`` until ``finish``, then send the outcome."""
    for end in parents:  # the build's ends: the worker sees the pipe end when the build does
        end.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _ended)
    failure = ""
    try:
        while True:
            try:
                message = inbox.recv()
            except (EOFError, OSError):  # OSError: it ended in the middle of a message
                return  # the build ended without asking for the index
            kind, args = message[0], message[1:]
            if kind == "finish":
                outcome = _finish(site, failure)
                with contextlib.suppress(OSError):  # the build ended meanwhile
                    outbox.send(outcome)
                return
            if failure:
                continue
            try:
                getattr(site, kind)(*args)
            except Exception as error:  # sent to the build, which logs it
                failure = f"{args[0] if kind == 'page' else kind}: {error}"
    finally:
        # Closing is not cut short by the build's SIGTERM (the build ends a worker whose pipe
        # it has just closed: both may come at once); the build kills it after EXIT_SECONDS.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        site.close()


def _finish(site: SiteIndex, failure: str) -> _Outcome:
    stats, incomplete, error = None, "", failure
    if not failure:
        try:
            stats = site.finish()
        except IncompleteIndexError as problem:
            incomplete = str(problem) or "not whole"
        except Exception as problem:
            error = str(problem) or "the index was not written"
    return _Outcome(
        stats, incomplete, error, site.documents, site.words, site.making, site.no_service
    )
