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

Where ``os.fork`` does not exist (Windows) the pages are read unguarded; the object count and
the form depth are still checked by the reader.
"""

from __future__ import annotations

import os
import select
import signal
import sys
from typing import Any

from .settings import Settings

try:
    import resource
except ImportError:  # Windows: no fork either, so no child to limit
    resource = None  # type: ignore[assignment]

#: the child's verdicts, one line per page: "N ok M" (M top-level objects) or "N bad"
_OK, _BAD = b"ok", b"bad"


class PageGuard:
    """The verdicts of a child process that loads every page of ``pdf`` under limits.

    ``check(index)`` returns when page ``index`` parsed within them, and otherwise returns the
    reason in words ("parsing it takes more than 2 s of CPU"); ``top_level(index)`` is the
    page's count of top-level objects as the child found it. Close it (or use it as a context
    manager) to end the child."""

    def __init__(self, pdf: Any, settings: Settings) -> None:
        self.settings = settings
        self.pid = 0
        self.fd = -1
        self.buffer = b""
        self.verdicts: dict[int, tuple[bytes, int]] = {}
        self.status: int | None = None
        if not hasattr(os, "fork") or settings.parse_seconds <= 0:
            return
        count = len(pdf)
        read_fd, write_fd = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            os.close(read_fd)
            _child(pdf.raw, count, write_fd, settings)
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
            *lines, self.buffer = self.buffer.split(b"\n")
            for line in lines:
                number, word, *rest = line.split()
                self.verdicts[int(number)] = (word, int(rest[0]) if rest else 0)
        found = self.verdicts.get(index)
        if found is not None and found[0] == _OK:
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


def _child(document: Any, count: int, out: int, settings: Settings) -> None:
    """Load each page under the limits, report it, and exit (never returns)."""
    code = 0
    try:
        import pypdfium2.raw as pdfium_c  # (imported already: the parent opened the PDF)

        signal.signal(signal.SIGPROF, signal.SIG_DFL)
        _limit_memory(settings.parse_memory)
        for index in range(count):
            signal.setitimer(signal.ITIMER_PROF, settings.parse_seconds)
            page = pdfium_c.FPDF_LoadPage(document, index)
            signal.setitimer(signal.ITIMER_PROF, 0)
            if not page:
                os.write(out, b"%d %s\n" % (index, _BAD))
                break
            objects = pdfium_c.FPDFPage_CountObjects(page)
            pdfium_c.FPDF_ClosePage(page)
            os.write(out, b"%d %s %d\n" % (index, _OK, objects))
    except BaseException:  # (the parent hears of it as a page with no verdict)
        code = 1
    os._exit(code)


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
