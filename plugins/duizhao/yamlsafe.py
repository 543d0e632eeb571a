"""Bounded reading of the files authors write: the one YAML loader and the one file reader.

Every YAML duizhao reads goes through :func:`load_yaml`: article front matter, ``*.figures.yml``
specs, seed records and (with ``permissive_tags``) mkdocs.yml in the CLI. Every author file is
read through :func:`read_bytes`. Both turn whatever a file holds into an :class:`InputError` with a
1-based line and an English message, never a traceback, a hang or an exhausted machine:

- a size limit (:data:`MAX_TEXT_BYTES` for Markdown and originals, :data:`MAX_YAML_BYTES` for
  YAML, :data:`MAX_LOCK_BYTES` for the lock), checked before anything is read;
- only regular files are opened, with ``O_NONBLOCK``: a FIFO, ``/dev/zero`` behind a symlink, a
  socket or a device is refused instead of blocking or streaming forever;
- the safe loader only (no Python objects); nesting deeper than :data:`MAX_DEPTH` and aliases
  that expand to more than :data:`MAX_NODES` values (or refer to themselves) are refused
  before anything is constructed, so "billion laughs" costs nothing;
- every construction error (``date: 2026-13-45``, a 5,000-digit integer, an unknown tag, an
  unhashable key, control characters) becomes a InputError at the line of the value;
- what the reader refuses written raw (control characters, lone surrogates) is refused when a
  double-quoted escape makes it too (``"\\0"``, ``"\\udcff"``): no value holds a character
  that cannot be written to a UTF-8 page or file.

Pure: no MkDocs import.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

#: Largest Markdown source or plain-text original (bytes).
MAX_TEXT_BYTES = 8 * 1024 * 1024
#: Largest YAML document: front matter, a .figures.yml, a seed record, mkdocs.yml.
MAX_YAML_BYTES = 1024 * 1024
#: Largest duizhao.lock (about 70 bytes a paragraph: room for 400,000 paragraphs).
MAX_LOCK_BYTES = 32 * 1024 * 1024
#: Largest PDF or image a figure or an import reads.
MAX_BINARY_BYTES = 256 * 1024 * 1024
#: Deepest nesting of YAML collections (real front matter uses 2 or 3 levels).
MAX_DEPTH = 64
#: Most YAML values a document may expand to, aliases counted at every place they are used.
MAX_NODES = 100_000
#: Deepest nesting of JSON ``[``/``{`` duizhao reads (the lock, a ``--baseline``, its caches:
#: its own files nest 4 levels at most); deeper is refused by one linear pass before
#: ``json.loads``, whose C decoder recurses per level (100,000 levels: RecursionError).
MAX_JSON_DEPTH = 32
#: Longest excerpt of a line quoted in a message.
SNIPPET = 80
#: What YAML text may not hold (PyYAML's reader refuses it raw): C0 and C1 controls but tab,
#: newlines and NEL, DEL, lone surrogates, U+FFFE and U+FFFF.
NON_PRINTABLE_RE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)


#: a JSON string (closed or not) or a bracket
_JSON_TOKEN_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"?|[\[\]{}]')


def json_too_deep(text: str, limit: int = MAX_JSON_DEPTH) -> int | None:
    """The line where ``text`` nests JSON brackets (outside strings) deeper than ``limit``,
    or None; one linear pass."""
    depth = 0
    for m in _JSON_TOKEN_RE.finditer(text):
        char = m.group()
        if char in "[{":
            depth += 1
            if depth > limit:
                return text.count("\n", 0, m.start()) + 1
        elif char in "]}":
            depth -= 1
    return None


def load_json(text: str) -> Any:
    """``json.loads`` of JSON nested at most :data:`MAX_JSON_DEPTH` levels; deeper (or not
    JSON) raises ``ValueError``, never ``RecursionError``."""
    line = json_too_deep(text)
    if line is not None:
        raise ValueError(f"line {line}: nested more than {MAX_JSON_DEPTH} levels")
    return json.loads(text)


@dataclass(eq=False)
class InputError(Exception):
    """Why an input was refused; ``line`` is 1-based in the file (or the YAML text)."""

    line: int
    message: str

    def __str__(self) -> str:
        return self.message


def snippet(text: str) -> str:
    """``text`` stripped and cut to :data:`SNIPPET` characters, for quoting in a message."""
    text = text.strip()
    return text if len(text) <= SNIPPET else text[: SNIPPET - 1] + "…"


def _size(n: int) -> str:
    for unit, factor in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= factor:
            return f"{n / factor:.1f} {unit}".replace(".0 ", " ")
    return f"{n} bytes"


def read_bytes(path: str | os.PathLike[str], limit: int = MAX_TEXT_BYTES) -> bytes:
    """The bytes of the regular file ``path`` (symlinks followed); :class:`InputError` otherwise.
    (:func:`read_stat_bytes` without the file's status.)"""
    return read_stat_bytes(path, limit)[1]


def read_stat_bytes(
    path: str | os.PathLike[str], limit: int = MAX_TEXT_BYTES
) -> tuple[os.stat_result, bytes]:
    """The status (taken before the first read) and the bytes of the regular file ``path``.

    Opened with ``O_NONBLOCK`` and checked with ``fstat`` before the first read, so a FIFO
    without a writer or a character device never blocks. ``FileNotFoundError`` propagates
    (callers treat a missing file as their own case).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise InputError(1, f"cannot read file: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InputError(1, "is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            kind = (
                "a FIFO (named pipe)"
                if stat.S_ISFIFO(info.st_mode)
                else "a device"
                if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
                else "a socket"
                if stat.S_ISSOCK(info.st_mode)
                else "not a regular file"
            )
            raise InputError(1, f"refused: {kind}, not a regular file; only plain files are read")
        if info.st_size > limit:
            raise InputError(
                1, f"refused: the file is {_size(info.st_size)}, over the limit of {_size(limit)}"
            )
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # it grew while being read
                raise InputError(1, f"refused: the file is over the limit of {_size(limit)}")
        return info, b"".join(chunks)
    except OSError as exc:
        raise InputError(1, f"cannot read file: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def inside(path: str | os.PathLike[str], root: str | os.PathLike[str]) -> bool:
    """Whether ``path`` resolves (through every symlink) to ``root`` or a file under it."""
    try:
        Path(path).resolve().relative_to(Path(root).resolve())
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
        return False
    return True


# --------------------------------------------------------------------------------------------
# YAML


class _Bounds:
    """The nesting limit while composing and no construction error left raw: shared by the
    pure-Python loader and the libyaml one."""

    _depth = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                event = self.peek_event()  # type: ignore[attr-defined]
                raise yaml.composer.ComposerError(
                    None,
                    None,
                    f"nesting deeper than {MAX_DEPTH} levels",
                    event.start_mark,
                )
            node: yaml.Node | None = super().compose_node(parent, index)  # type: ignore[misc]
            return node
        finally:
            self._depth -= 1

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        if isinstance(node, yaml.ScalarNode) and node.style == '"':
            # Only a double-quoted scalar has escapes; the reader checked the rest raw.
            bad = NON_PRINTABLE_RE.search(node.value)
            if bad is not None:
                raise yaml.constructor.ConstructorError(
                    None,
                    None,
                    f"the escape for U+{ord(bad.group(0)):04X} is not allowed in YAML "
                    "(a control character or a lone surrogate); remove it",
                    node.start_mark,
                )
        try:
            return super().construct_object(node, deep)  # type: ignore[misc]
        except yaml.YAMLError:
            raise
        except Exception as exc:  # date: 2026-13-45, a 5,000-digit int, ...
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"cannot read the value {snippet(str(node.value))!r} ({_why(exc, node)})",
                node.start_mark,
            ) from None


def _why(exc: Exception, node: yaml.Node) -> str:
    """Why a value could not be read, in words (Python's own for a 5,000-digit number names
    ``sys.set_int_max_str_digits()``, which an author cannot call)."""
    if "int_max_str_digits" in str(exc):
        digits = sum(c.isdigit() for c in str(node.value))
        return (
            f"a number of {digits:,} digits; a value has at most {sys.get_int_max_str_digits():,}"
        )
    return str(exc)


#: Line breaks to YAML that no editor (nor duizhao's line count, nor Python-Markdown) breaks at.
YAML_ONLY_BREAKS = "\x85\u2028\u2029"


class _BoundedLoader(_Bounds, yaml.SafeLoader):
    """The safe loader, pure Python: its messages and lines are the ones reported."""

    def forward(self, length: int = 1) -> None:
        """PyYAML's ``Reader.forward``, but only CR, LF and CRLF count as new lines, as in
        :func:`duizhao.article.split_lines`: NEL, U+2028 and U+2029 still end a line for the
        scanner (as MkDocs reads the YAML), yet a problem after one is reported at the line an
        editor shows."""
        if self.pointer + length + 1 >= len(self.buffer):
            self.update(length + 1)
        while length:
            ch = self.buffer[self.pointer]
            self.pointer += 1
            self.index += 1
            if ch in "\n\x85\u2028\u2029" or (ch == "\r" and self.buffer[self.pointer] != "\n"):
                if ch in "\r\n":
                    self.line += 1
                self.column = 0
            elif ch != "\ufeff":
                self.column += 1
            length -= 1

    def fetch_flow_collection_start(self, TokenClass: Any) -> None:  # noqa: N803 (PyYAML's)
        # Checked in the scanner, not only the composer: PyYAML's scanner spends time
        # proportional to the flow depth on every token, so "[[[[…" 100,000 deep would take
        # hours before the composer sees it.
        if self.flow_level >= MAX_DEPTH:
            raise yaml.scanner.ScannerError(
                None, None, f"nesting deeper than {MAX_DEPTH} levels", self.get_mark()
            )
        super().fetch_flow_collection_start(TokenClass)


class _PermissiveLoader(_BoundedLoader):
    """For mkdocs.yml: tags it does not know (``!ENV``, ``!!python/name:``) read as plain
    values instead of running anything."""


def _ignore_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    return loader.construct_mapping(node)  # type: ignore[arg-type]


_PermissiveLoader.add_multi_constructor("", _ignore_tag)

if yaml.__with_libyaml__:
    from yaml.cyaml import CParser  # type: ignore[attr-defined]

    class _FastLoader(
        _Bounds,
        yaml.composer.Composer,
        CParser,
        yaml.constructor.SafeConstructor,
        yaml.resolver.Resolver,
    ):
        """libyaml's scanner and parser under the same (Python) composer, resolver and
        constructor: the same nodes and values, about six times faster. Used only on text
        that parses; any error is reported by parsing again with :class:`_BoundedLoader`."""

        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)

    class _FastPermissiveLoader(_FastLoader):
        pass

    _FastPermissiveLoader.add_multi_constructor("", _ignore_tag)
    _FAST: dict[bool, type[Any]] = {False: _FastLoader, True: _FastPermissiveLoader}
else:  # PyYAML built without libyaml
    _FAST = {}


def _expanded(node: yaml.Node) -> None:
    """Refuse a node graph whose aliases expand beyond :data:`MAX_NODES` values or
    :data:`MAX_DEPTH` levels, or refer to themselves. Linear in the distinct nodes."""
    sizes: dict[int, int] = {}
    active: set[int] = set()

    def walk(n: yaml.Node, depth: int) -> int:
        key = id(n)
        if key in sizes:
            return sizes[key]
        if key in active:
            raise yaml.composer.ComposerError(
                None, None, "an alias refers to the collection that contains it", n.start_mark
            )
        if depth > MAX_DEPTH:
            raise yaml.composer.ComposerError(
                None, None, f"aliases nest deeper than {MAX_DEPTH} levels", n.start_mark
            )
        total = 1
        if isinstance(n, (yaml.SequenceNode, yaml.MappingNode)):
            active.add(key)
            children: list[yaml.Node] = (
                list(n.value)
                if isinstance(n, yaml.SequenceNode)
                else [child for pair in n.value for child in pair]
            )
            for child in children:
                total += walk(child, depth + 1)
                if total > MAX_NODES:
                    raise yaml.composer.ComposerError(
                        None,
                        None,
                        f"aliases expand to more than {MAX_NODES:,} values; "
                        "write the values out or drop the aliases",
                        n.start_mark,
                    )
            active.discard(key)
        sizes[key] = total
        return total

    walk(node, 0)


def _load(loader_class: type[Any], text: str) -> tuple[Any, yaml.Node | None]:
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, None
        _expanded(node)
        return loader.construct_document(node), node
    finally:
        loader.dispose()


def load_yaml(
    text: str, *, permissive_tags: bool = False, limit: int = MAX_YAML_BYTES
) -> tuple[Any, yaml.Node | None]:
    """Parse one YAML document: ``(data, root node)`` (the node gives key lines).

    Raises :class:`InputError` with the 1-based line within ``text`` for anything unreadable. An
    empty document is ``(None, None)``.
    """
    if len(text) > limit:
        raise InputError(1, f"refused: the YAML is over the limit of {_size(limit)}")
    fast = _FAST.get(permissive_tags)
    # libyaml's scanner, too, spends time proportional to the flow depth on every token; text
    # with at most MAX_DEPTH brackets cannot nest deeper than that.
    # (libyaml counts NEL, U+2028 and U+2029 as new lines: the lines of its nodes would be off.)
    if (
        fast is not None
        and text.count("[") + text.count("{") <= MAX_DEPTH
        and not any(ch in text for ch in YAML_ONLY_BREAKS)
    ):
        try:
            return _load(fast, text)
        except Exception:  # the pure-Python loader below reports it, with its own message
            pass
    loader_class = _PermissiveLoader if permissive_tags else _BoundedLoader
    try:
        return _load(loader_class, text)  # its reader rejects control characters
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        raise InputError(
            line, f"the control character U+{code:04X} is not allowed in YAML"
        ) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = exc.problem or exc.context or "invalid YAML"
        raise InputError(line, problem) from None
    except yaml.YAMLError as exc:
        raise InputError(1, str(exc).splitlines()[0] if str(exc) else "invalid YAML") from None
    except RecursionError:  # not reachable with MAX_DEPTH, kept as a last line of defence
        raise InputError(1, "nesting too deep") from None


def load_yaml_file(
    path: str | os.PathLike[str], *, permissive_tags: bool = False, limit: int = MAX_YAML_BYTES
) -> tuple[Any, yaml.Node | None]:
    """:func:`read_bytes` + UTF-8 decoding (BOM accepted) + :func:`load_yaml`."""
    data = read_bytes(path, limit)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(
            line,
            f"file is not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "save it as UTF-8",
        ) from None
    return load_yaml(text, permissive_tags=permissive_tags, limit=limit)
