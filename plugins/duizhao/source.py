"""Byte-faithful edits of source files and atomic multi-file writes. Pure: no MkDocs import.

Authors' files carry things a parser forgets: a BOM, CRLF line ends, comments and formatting in
the front matter. :class:`SourceFile` edits whole lines by their 1-based number (the numbers
:mod:`duizhao.article` reports) and keeps every other byte as it was, line terminators included.

:func:`write_atomically` writes several files so that a crash leaves each one either old or new:
every new content goes to a temporary file in the target's folder first, and only when all of
them are on disk are they moved over the originals with :func:`os.replace`.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

BOM = "\ufeff"
# The line ends article.split_lines accepts, so line N here is line N there.
_LINE_RE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_END_RE = re.compile(r"(\r\n|\r|\n)\Z")


def lines_with_ends(text: str) -> list[str]:
    """``text`` split at CR, LF and CRLF only, each line keeping its end: the lines of
    :func:`duizhao.article.split_lines` and of :mod:`duizhao.yamlsafe`'s marks (``str.splitlines``
    also splits at NEL, U+2028, form feeds, … that no editor breaks at)."""
    return _LINE_RE.findall(text)


@dataclass
class SourceFile:
    """A decoded file as a list of lines that keep their own terminators."""

    lines: list[str]
    bom: bool = False
    #: the file's dominant line end, used for lines this module adds
    newline: str = "\n"
    original: bytes = field(default=b"", repr=False)

    @classmethod
    def from_bytes(cls, data: bytes) -> SourceFile:
        """Decode UTF-8 (``UnicodeDecodeError`` for anything else: callers report DZ011)."""
        text = data.decode("utf-8")
        bom = text.startswith(BOM)
        if bom:
            text = text[1:]
        lines = _LINE_RE.findall(text)
        ends = [m.group(1) for line in lines if (m := _END_RE.search(line))]
        newline = max(("\r\n", "\n", "\r"), key=ends.count) if ends else "\n"
        return cls(lines, bom, newline, data)

    @property
    def text(self) -> str:
        return "".join(self.lines)

    def to_bytes(self) -> bytes:
        return ((BOM if self.bom else "") + self.text).encode("utf-8")

    @property
    def changed(self) -> bool:
        return self.to_bytes() != self.original

    def line(self, number: int) -> str:
        """Line ``number`` (1-based) without its terminator."""
        return _END_RE.sub("", self.lines[number - 1])

    def set_line(self, number: int, content: str) -> None:
        """Replace the content of line ``number`` (1-based), keeping its terminator."""
        old = self.lines[number - 1]
        end = _END_RE.search(old)
        self.lines[number - 1] = content + (end.group(1) if end else "")

    def insert(self, number: int, contents: list[str]) -> None:
        """Insert lines before line ``number`` (1-based; ``len + 1`` appends)."""
        index = number - 1
        if index > 0 and not _END_RE.search(self.lines[index - 1]):
            self.lines[index - 1] += self.newline
        self.lines[index:index] = [c + self.newline for c in contents]

    def append(self, contents: list[str]) -> None:
        self.insert(len(self.lines) + 1, contents)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomically(
    files: Mapping[Path, bytes], *, durable: bool = True, mode: int | None = None
) -> None:
    """Write every file or, if anything fails first, none; each file is always old or new.

    ``durable``: flush each file to the disk before it replaces the old one (an author's source
    must survive a crash); build output and caches, which a build makes again, skip that.
    ``mode``: the files' permissions (default: the target's, or the umask's for a new file).

    All contents go to temporary files next to their targets (same filesystem, so the final
    rename is atomic) before the first :func:`os.replace`. A symlink stays a symlink: the file
    it names is written. If a replace fails part-way, the
    files already replaced hold their complete new content and the others their complete old
    content; the leftover temporary files are removed and the error propagates.
    """
    staged: list[tuple[str, Path]] = []
    try:
        for link, data in files.items():
            # Through a symlink to the file it names: replacing the link with a regular copy
            # would lose the author's link (and duplicate what it points at).
            path = Path(os.path.realpath(link))
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            staged.append((tmp, path))
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                if durable:
                    f.flush()
                    os.fsync(f.fileno())
            # mkstemp makes 0600 files; keep the target's mode (or the umask's default).
            if mode is None:
                mode_of = path.stat().st_mode & 0o7777 if path.exists() else 0o666 & ~_umask()
            else:
                mode_of = mode
            os.chmod(tmp, mode_of)
        while staged:
            tmp, path = staged[0]
            os.replace(tmp, path)
            staged.pop(0)
    finally:
        for tmp, _path in staged:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)


#: Seconds a second writer waits for the first before it gives up (``DUIZHAO_LOCK_TIMEOUT``).
WRITER_WAIT = 5.0


class ProjectBusyError(Exception):
    """Another duizhao command holds the project's writer lock."""


def writer_lock_path(lock_file: Path) -> Path:
    """The advisory lock next to ``duizhao.lock``: ``.duizhao.lock.lock`` (not committed)."""
    return lock_file.parent / f".{lock_file.name}.lock"


@contextlib.contextmanager
def project_lock(lock_file: Path, timeout: float | None = None) -> Iterator[None]:
    """Hold the project's writer lock while reading, changing and writing sources or the lock.

    Every command that writes (renumber --write, status --accept, import, new) reads what it
    changes inside this block, so two of them run one after the other and neither works from
    the other's stale copy. A second writer waits up to ``timeout`` seconds (default
    :data:`WRITER_WAIT`, or the ``DUIZHAO_LOCK_TIMEOUT`` environment variable), then raises
    :class:`ProjectBusyError`. The lock is advisory (filelock: ``fcntl``/``msvcrt``); an editor
    saving a file at the same moment is not stopped.
    """
    if timeout is None:
        try:
            timeout = float(os.environ.get("DUIZHAO_LOCK_TIMEOUT", WRITER_WAIT))
        except ValueError:
            timeout = WRITER_WAIT
    from filelock import FileLock, Timeout  # only commands that write need it

    path = writer_lock_path(lock_file)
    lock = FileLock(path, timeout=timeout)
    try:
        lock.acquire()
    except Timeout:
        raise ProjectBusyError(
            f"another duizhao command is changing this project (it holds {path.name}); "
            f"waited {timeout:g} s: try again when it has finished"
        ) from None
    try:
        yield
    finally:
        lock.release()
