"""Each page parsed first where it cannot hurt: in a child process bounded in CPU time and
memory, before the reader parses it.

PDFium parses a page, forms included, when it is loaded, in one C call nothing can interrupt,
and the work is what the page's drawing expands to, not what the file weighs: a form that
draws another form ten times, seven deep, is 3 KB of PDF and ten million objects (PDFium needs
over 2 GB for them), and a content stream inflates a thousand times. So before the reader
loads page N, a forked child (which shares the open document) loads it under a CPU timer of
``settings.parse_seconds`` and a memory limit of ``settings.parse_memory``, counts its
objects and reports; the reader loads the page only when the child did so within the limits.
A page past them is refused with its number (:class:`~duizhao.pdf.read.PdfError`), in bounded
time and memory. The child runs one page ahead of the reader, on the other core.

A page of very many objects (over ``settings.ink_objects``, read by its rendered ink) is read
whole in the child, by the reader's own function, and handed over pickled: parsing it is most
of its cost (0.4 s for 300,000 objects), and it is parsed once, not twice.

Where ``os.fork`` does not exist (Windows) the pages are read unguarded; the object count and
the form depth are still checked by the reader.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

from .settings import Settings

try:
    import resource
except ImportError:  # Windows: no fork either, so no child to limit
    resource = None  # type: ignore[assignment]

#: the child's verdicts, one line per page: "N ok M S" (M top-level objects, S CPU seconds),
#: "N read M S L" followed by L bytes (the page read, pickled) or "N bad"
_OK, _READ, _BAD = b"ok", b"read", b"bad"
#: (pypdfium2's page, its index) → what the reader makes of it, picklable
ReadPage = Callable[[Any, int], Any]


class PageGuard:
    """The verdicts of a child process that loads every page of ``pdf`` under limits.

    ``check(index)`` returns when page ``index`` parsed within them, and otherwise returns the
    reason in words ("parsing it takes more than 2 s of CPU"); ``top_level(index)`` is the
    page's count of top-level objects as the child found it. Close it (or use it as a context
    manager) to end the child."""

    def __init__(
        self,
        pdf: Any,
        settings: Settings,
        read_page: ReadPage | None = None,
        pages: range | None = None,
    ) -> None:
        self.settings = settings
        self.pid = 0
        self.fd = -1
        self.buffer = b""
        self.verdicts: dict[int, tuple[bytes, int]] = {}
        #: CPU seconds the child spent on each page (for the benchmarks)
        self.seconds: dict[int, float] = {}
        #: pages the child read whole (see the module docstring), pickled
        self.pages: dict[int, bytes] = {}
        self.status: int | None = None
        if not hasattr(os, "fork") or settings.parse_seconds <= 0:
            return
        indices = pages if pages is not None else range(len(pdf))  # those checked, in turn
        read_fd, write_fd = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            os.close(read_fd)
            _child(pdf, indices, write_fd, settings, read_page)
        os.close(write_fd)
        self.pid, self.fd = pid, read_fd

    def __enter__(self) -> PageGuard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def check(self, index: int) -> str | None:
        """None when page ``index`` parsed within the limits; else why it did not."""
        if not self.pid:
            return None
        while index not in self.verdicts and self.status is None:
            # The child's CPU timer bounds its work; a wall-clock bound as well, in case it
            # waits on something instead (a lock another thread held when it was forked).
            ready, _, _ = select.select([self.fd], [], [], self.settings.parse_wall_seconds)
            if not ready:
                os.kill(self.pid, signal.SIGKILL)
                self._reap()
                self.status = -1
                break
            chunk = os.read(self.fd, 4096)
            if not chunk:
                self._reap()
                break
            self.buffer += chunk
            self._parse()
        found = self.verdicts.get(index)
        if found is not None and found[0] in (_OK, _READ):
            return None
        if found is not None:
            return "PDFium cannot parse it"
        s = self.settings
        status = self.status or 0
        if status == -1:
            return f"PDFium did not finish parsing it in {s.parse_wall_seconds:g} s"
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGPROF:
            return (
                f"parsing it takes more than {s.parse_seconds:g} s of CPU (a paper's page takes "
                "milliseconds; its drawing expands to far more than a paper draws)"
            )
        return (
            f"parsing it takes more than {s.parse_memory >> 20:,} MB of memory (a paper's page "
            "takes a few; its drawing expands to far more than a paper draws)"
        )

    def _parse(self) -> None:
        """The verdicts (and pages) complete in the buffer."""
        while True:
            end = self.buffer.find(b"\n")
            if end < 0:
                return
            number, word, *rest = self.buffer[:end].split()
            size = int(rest[2]) if word == _READ else 0
            if len(self.buffer) < end + 1 + size:
                return  # the page is still coming
            index = int(number)
            if size:
                self.pages[index] = self.buffer[end + 1 : end + 1 + size]
            self.buffer = self.buffer[end + 1 + size :]
            self.verdicts[index] = (word, int(rest[0]) if rest else 0)
            if len(rest) > 1:
                self.seconds[index] = float(rest[1])

    def page(self, index: int) -> Any:
        """What ``read_page`` made of page ``index`` in the child, or None (read it here)."""
        import pickle

        data = self.pages.pop(index, None)
        return pickle.loads(data) if data is not None else None

    def top_level(self, index: int) -> int:
        """The page's top-level objects, as the child counted them (0 when unguarded)."""
        verdict = self.verdicts.get(index)
        return verdict[1] if verdict is not None else 0

    def close(self) -> None:
        if self.pid and self.status is None:
            os.kill(self.pid, signal.SIGKILL)
            self._reap()
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def _reap(self) -> None:
        _, self.status = os.waitpid(self.pid, 0)


def _child(
    pdf: Any, indices: range, out: int, settings: Settings, read_page: ReadPage | None
) -> None:
    """Load each page under the limits, report it, and exit (never returns)."""
    code = 0
    try:
        import faulthandler
        import pickle

        # A page over the memory limit aborts the child by design (the parent says why);
        # where the parent enabled faulthandler (pytest, PYTHONFAULTHANDLER) it would print
        # the child's stack as if it had crashed.
        faulthandler.disable()

        import pypdfium2.raw as pdfium_c  # (imported already: the parent opened the PDF)

        signal.signal(signal.SIGPROF, signal.SIG_DFL)
        _limit_memory(settings.parse_memory)
        for index in indices:
            started = time.process_time()
            signal.setitimer(signal.ITIMER_PROF, settings.parse_seconds)
            try:
                page = pdf[index]
            except Exception:  # (PDFium loads no page: the reader says so)
                _write(out, b"%d %s\n" % (index, _BAD))
                break
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
            objects = pdfium_c.FPDFPage_CountObjects(page.raw)
            data = b""
            dense = settings.ink_objects < objects <= settings.max_page_objects
            if read_page is not None and dense:
                try:
                    data = pickle.dumps(read_page(page, index))
                except Exception:  # (the reader reads it again, and says what is wrong)
                    data = b""
            page.close()
            took = time.process_time() - started
            if data:
                _write(out, b"%d %s %d %.6f %d\n" % (index, _READ, objects, took, len(data)))
                _write(out, data)
            else:
                _write(out, b"%d %s %d %.6f\n" % (index, _OK, objects, took))
    except BaseException:  # (the parent hears of it as a page with no verdict)
        code = 1
    os._exit(code)


def _write(out: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(out, view) :]


def _limit_memory(budget: int) -> None:
    """Limit the child's address space to what it has now plus ``budget`` bytes."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            used = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return  # not Linux: the CPU timer still bounds the work
    if resource is None:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = used + budget
    if soft != resource.RLIM_INFINITY:  # never raise a limit the process already has
        limit = min(limit, soft)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
