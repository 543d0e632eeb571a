"""A build's PDF crops, rendered where a hostile PDF cannot hurt the build: in a child process
bounded in CPU time and memory, each page checked before it is rendered.

PDFium parses a page, forms included, when it loads it, in one C call nothing interrupts; the
work is what the drawing expands to (a form drawing a form ten times, twelve deep, is 3 KB of
PDF and 10¹² squares). The reader guards its pages in a forked child (:mod:`duizhao.pdf.guard`),
but a build must not fork (MkDocs' server runs threads), so the crops of one PDF are cut in a
*started* child (``python -m duizhao.figures.pdf_crops``, the jobs pickled on its stdin; 0.3 s
of CPU to start), or, in a crop worker of the pool (a started process that runs no threads),
in a forked one (a millisecond). It limits its own address space to what it has plus
``settings.parse_memory`` and arms a CPU timer of ``settings.render_seconds`` over each
page's load, check and render. Before rendering, a
page is refused as the reader refuses it: larger than ``max_page_side``, more than
``max_page_objects`` objects (forms opened), forms nested ``max_form_depth`` deep. The child
reports each crop on a line of its stdout; when it dies (the timer, the memory limit) the
crop it was on fails with the page named, every other crop of that page with it, and a new
child cuts the rest. The parent waits at most ``parse_wall_seconds`` for any line.

Where ``resource`` or the timer does not exist (Windows) the child runs without limits and
is waited for without a wall-clock bound; the page checks still hold.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..pdf.settings import SETTINGS, Settings

if TYPE_CHECKING:
    from .crops import Crop, CropResult, Encoder

#: the code of a page refused by a limit (as the reader's)
CODE = "DZ113"
#: a line the child writes: "start K", "ok K" or "fail K CODE reason"
_START, _OK, _FAIL = "start", "ok", "fail"


def render_pdf_crops(
    sources: Sequence[tuple[bytes, Sequence[Crop]]],
    encoder: Encoder,
    out_dir: Path,
    fork: bool = False,
    settings: Settings = SETTINGS,
) -> list[CropResult]:
    """Cut the crops of ``sources`` (a PDF's bytes, the crops from it) into ``out_dir`` in
    bounded children, one for all while none dies: forked when ``fork`` (the caller is a
    worker process of no threads, where a fork costs a millisecond), else started (a build's
    own process: 0.3 s to start the child). The results in the order of the crops."""
    from .crops import CropResult

    crops = [(n, crop) for n, (_data, group) in enumerate(sources) for crop in group]
    results: dict[int, CropResult] = {}
    pending = list(range(len(crops)))
    while pending:
        jobs = [
            (data, [crops[k][1] for k in pending if crops[k][0] == m])
            for m, (data, _group) in enumerate(sources)
        ]
        done, current, reason = _run_child(jobs, encoder, out_dir, fork, settings)
        for k, result in done.items():
            results[pending[k]] = result
        if current is None:
            break  # the child cut them all
        source, page = crops[pending[current]][0], crops[pending[current]][1].figure.page
        for k in pending:
            if k not in results and crops[k][0] == source and crops[k][1].figure.page == page:
                results[k] = CropResult(crops[k][1].key, False, f"page {page}: {reason}", CODE)
        pending = [k for k in pending if k not in results]
    return [results[k] for k in range(len(crops))]


def _run_child(
    jobs: Sequence[tuple[bytes, Sequence[Crop]]],
    encoder: Encoder,
    out_dir: Path,
    fork: bool,
    s: Settings,
) -> tuple[dict[int, CropResult], int | None, str]:
    """One child over the crops of ``jobs``: what it reported (by index in the jobs' crops
    in order), and the crop it died on with why (None, "" when it finished)."""
    from .crops import CropResult

    crops = [crop for _data, group in jobs for crop in group]
    child = _Child(jobs, encoder, out_dir, s, fork and hasattr(os, "fork"))
    done: dict[int, CropResult] = {}
    current: int | None = None
    buffer = b""
    while not child.timed_out:
        chunk = child.read()
        if not chunk:
            break
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            word, number, *rest = line.decode("utf-8", "replace").split(" ", 3)
            k = int(number)
            if word == _START:
                current = k
            elif word == _OK:
                done[k], current = CropResult(crops[k].key, True), None
            elif word == _FAIL:
                done[k], current = CropResult(crops[k].key, False, rest[1], rest[0]), None
    status = child.wait()
    if len(done) == len(crops):
        return done, None, ""
    if current is None:
        current = next(k for k in range(len(crops)) if k not in done)
    return done, current, _why(status, child.timed_out, s)


class _Child:
    """A child process cutting crops (:func:`_serve`): forked, or started as
    ``python -m duizhao.figures.pdf_crops`` with its jobs pickled on its stdin."""

    def __init__(
        self,
        jobs: Sequence[tuple[bytes, Sequence[Crop]]],
        encoder: Encoder,
        out_dir: Path,
        s: Settings,
        fork: bool,
    ) -> None:
        self.s = s
        self.timed_out = False
        self.process: subprocess.Popen[bytes] | None = None
        if fork:
            read_fd, write_fd = os.pipe()
            self.pid = os.fork()
            if self.pid == 0:  # the child: never returns
                os.close(read_fd)
                code = 0
                try:
                    out = os.fdopen(write_fd, "w", encoding="utf-8")
                    _serve(jobs, encoder, out_dir, s, out)
                except BaseException:  # (the parent hears of it as a crop not reported)
                    code = 1
                os._exit(code)
            os.close(write_fd)
            self.fd = read_fd
            return
        env = dict(os.environ)
        package_root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "duizhao.figures.pdf_crops"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.pid, self.fd = self.process.pid, self.process.stdout.fileno()
        try:
            self.process.stdin.write(pickle.dumps((jobs, encoder, out_dir, s)))
            self.process.stdin.close()
        except OSError:
            pass  # it died already: its status says why

    def read(self) -> bytes:
        """What the child wrote next (b"" when it is done); stops it after
        ``parse_wall_seconds`` without a word."""
        ready = [self.fd]
        if sys.platform != "win32":  # (select() waits on sockets alone there)
            ready, _, _ = select.select([self.fd], [], [], self.s.parse_wall_seconds)
        if not ready:
            self.timed_out = True
            os.kill(self.pid, signal.SIGKILL)
            return b""
        return os.read(self.fd, 4096)

    def wait(self) -> int:
        """Its exit status: the exit code, or minus the signal that ended it."""
        if self.process is not None:
            status = self.process.wait()
            assert self.process.stdout is not None
            self.process.stdout.close()
            return status
        _, raw = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return -os.WTERMSIG(raw) if os.WIFSIGNALED(raw) else os.WEXITSTATUS(raw)


def _why(status: int, timed_out: bool, s: Settings) -> str:
    if timed_out:
        return f"PDFium did not finish rendering it in {s.parse_wall_seconds:g} s: not rendered"
    if -status in (getattr(signal, "SIGPROF", None), getattr(signal, "SIGXCPU", None)):
        return (
            f"rendering it takes more than {s.render_seconds:g} s of CPU (a paper's page takes "
            "milliseconds; its drawing expands to far more than a paper draws): not rendered"
        )
    return (
        f"rendering it takes more than {s.parse_memory >> 20:,} MB of memory or PDFium failed on "
        "it (a paper's page takes a few): not rendered"
    )


def page_problem(page: Any, s: Settings) -> str | None:
    """Why the loaded pypdfium2 ``page`` is not to be rendered, in words, or None: the
    reader's limits of size, objects (forms opened) and form depth. The forms of a page of
    over ``ink_objects`` top-level objects are not walked (about 2 µs an object); its load and
    render are bounded by the timer and the memory limit all the same."""
    import pypdfium2.raw as pdfium_c

    width, height = page.get_size()
    if max(width, height) > s.max_page_side:
        return (
            f"{width:g} × {height:g} pt, larger than the {s.max_page_side:,.0f} pt a PDF page "
            "may be: not rendered"
        )
    count = pdfium_c.FPDFPage_CountObjects(page.raw)
    # (a container, its form object or None for the page, its depth), walked for forms
    stack: list[tuple[Any, int]] = [(None, 0)]
    while stack:
        if count > s.max_page_objects:
            return (
                f"{count:,} drawing objects, more than the {s.max_page_objects:,} a page may "
                "have: not rendered"
            )
        form, depth = stack.pop()
        if depth >= s.max_form_depth:
            return (
                f"forms nested {depth} deep or more (PDFium draws nothing past 40; papers "
                "nest two or three): not rendered"
            )
        if form is None:
            if count > s.ink_objects:
                return None  # a dense page: walking it costs more than its forms can hide
            objects = (pdfium_c.FPDFPage_GetObject(page.raw, k) for k in range(count))
        else:
            n = pdfium_c.FPDFFormObj_CountObjects(form)
            count += n
            objects = (pdfium_c.FPDFFormObj_GetObject(form, j) for j in range(n))
        stack.extend(
            (obj, depth + 1)
            for obj in objects
            if pdfium_c.FPDFPageObj_GetType(obj) == pdfium_c.FPDF_PAGEOBJ_FORM
        )
    return None


def _child() -> None:
    """The started child: its jobs from stdin, its reports to stdout."""
    jobs, encoder, out_dir, s = pickle.loads(sys.stdin.buffer.read())
    _serve(jobs, encoder, out_dir, s, out=sys.stdout)


def _serve(
    jobs: Sequence[tuple[bytes, Sequence[Crop]]],
    encoder: Encoder,
    out_dir: Path,
    s: Settings,
    out: IO[str],
) -> None:
    """Cut each crop of each job (a PDF's bytes, the crops from it) under the limits, and
    report it on a line of ``out`` (numbered across the jobs)."""
    from ..pdf.guard import _limit_memory

    def say(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    timer = hasattr(signal, "setitimer")  # (not on Windows)
    if timer:
        signal.signal(signal.SIGPROF, signal.SIG_DFL)
    _limit_memory(s.parse_memory)
    k = 0
    for data, crops in jobs:
        k = _serve_one(data, crops, k, encoder, out_dir, s, say, timer)


def _serve_one(
    data: bytes,
    crops: Sequence[Crop],
    k: int,
    encoder: Encoder,
    out_dir: Path,
    s: Settings,
    say: Callable[[str], None],
    timer: bool,
) -> int:
    """:func:`_serve` of one PDF, its crops numbered from ``k``; the next number."""
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        for j in range(len(crops)):
            say(f"{_FAIL} {k + j} DZ110 corrupt or truncated PDF ({exc})")
        return k + len(crops)
    for crop in crops:
        say(f"{_START} {k}")
        if timer:
            signal.setitimer(signal.ITIMER_PROF, s.render_seconds)
        try:
            failed = _cut(pdf, crop, encoder, out_dir, s)
        finally:
            if timer:
                signal.setitimer(signal.ITIMER_PROF, 0)
        say(f"{_FAIL} {k} {failed[0]} {failed[1]}" if failed[0] else f"{_OK} {k}")
        k += 1
    pdf.close()
    return k


def _cut(pdf: Any, crop: Crop, encoder: Encoder, out_dir: Path, s: Settings) -> tuple[str, str]:
    """Load the crop's page, check it, render and write the crop; ("", "") when done, else
    (code, reason)."""
    import pypdfium2 as pdfium

    from .crops import _encode, render_box

    figure = crop.figure
    assert figure.page is not None  # (a PDF's figure has its page: catalog.py checks it)
    try:
        page = pdf[figure.page - 1]
        try:
            problem = page_problem(page, s)
            if problem:
                return CODE, f"page {figure.page}: {problem}"
            image = render_box(page, figure.box, figure.dpi, crop.width, crop.height)
        finally:
            page.close()
        _encode(image, crop, encoder, out_dir / crop.filename)
    except (pdfium.PdfiumError, OSError, ValueError) as exc:
        return "DZ110", f"cannot render: {exc}"
    return "", ""


if __name__ == "__main__":
    _child()
