"""Whether a Pagefind index on disk is whole, before it is swapped into the site.

Pagefind's service answers ``WriteFiles`` when it has handed every file's bytes to tokio's
file writer, not when they are on disk: tokio writes a file in chunks of 16 KiB on its
blocking threads, and ``write_all`` returns once the last chunk is queued (Pagefind 1.5.2
never flushes). The Python wrapper terminates the binary as soon as the answer is in
(``PagefindService.close``), so a last chunk still queued is lost: on a loaded machine a
build wrote ``pagefind.js`` as 32,768 of its 45,555 bytes and every query in the browser
failed. :class:`IndexCheck` says what is missing or cut; the indexer waits, the binary still
running, until it says nothing (:func:`~duizhao.search.pagefind.write_index`).

What is checked, from the entry down:

- ``pagefind.js`` (and the WebAssembly Pagefind bundles) byte for byte against the same
  binary's own copy, taken from memory (``get_files`` of a one-record index: nothing on disk);
  without that copy, that the script is non-empty and ends as Pagefind's script ends;
- ``pagefind-entry.json`` parses, and names for each language its metadata file and its
  WebAssembly, which exist;
- every gzipped file (metadata, WebAssembly, and every fragment, index chunk and filter the
  metadata lists) is a whole gzip stream: its CRC and length trailer match what it inflates to,
  so a file cut anywhere fails.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping
from pathlib import Path

#: The bytes Pagefind puts before each of its gzipped files' contents.
MAGIC = b"pagefind_dcd"
#: How Pagefind's script ends (1.5: its exports); checked when the binary's copy is unknown.
SCRIPT_END = b"export{"
#: Files Pagefind writes the same for every index (compared with the binary's own copy).
FIXED = ("pagefind.js", "wasm.unknown.pagefind", "wasm.en.pagefind")


class IndexCheck:
    """The problems of the index in ``folder``, in words; a file found whole is not read again
    (Pagefind writes each file once)."""

    def __init__(self, folder: Path, reference: Mapping[str, bytes] | None = None) -> None:
        self.folder = folder
        self.reference = dict(reference or {})
        self._whole: set[str] = set()

    def problems(self) -> list[str]:
        """Empty when the index is whole."""
        found: list[str] = []
        script = self._fixed("pagefind.js")
        if script:
            found.append(script)
        try:
            entry = json.loads((self.folder / "pagefind-entry.json").read_bytes())
            languages = entry["languages"]
            if not isinstance(languages, dict) or not languages:
                raise ValueError("no language")
        except (OSError, ValueError, KeyError, TypeError) as error:
            return [*found, f"pagefind-entry.json is missing or not whole ({_reason(error)})"]
        for language in languages.values():
            if not isinstance(language, dict) or not isinstance(language.get("hash"), str):
                found.append("pagefind-entry.json names a language without its metadata")
                continue
            wasm = f"wasm.{language.get('wasm') or 'unknown'}.pagefind"
            problem = self._fixed(wasm) if wasm in self.reference else self._gzip(wasm)
            if problem:
                found.append(problem)
            found += self._meta(f"pagefind.{language['hash']}.pf_meta", language)
            if len(found) > 8:
                break
        return found

    def _fixed(self, name: str) -> str | None:
        """A file every index of this binary has alike."""
        if name in self._whole:
            return None
        path = self.folder / name
        try:
            data = path.read_bytes()
        except OSError:
            return f"{name} is missing"
        expected = self.reference.get(name)
        if expected is not None and data != expected:
            return f"{name} is {len(data):,} of {len(expected):,} bytes" + (
                "" if len(data) != len(expected) else " but not Pagefind's"
            )
        if expected is None and name.endswith(".js"):
            if not data or data.rstrip()[-400:].rfind(SCRIPT_END) < 0:
                return f"{name} is cut short ({len(data):,} bytes, not ending as Pagefind's script)"
        elif expected is None:
            problem = self._gzip(name)
            if problem:
                return problem
        self._whole.add(name)
        return None

    def _gzip(self, name: str) -> str | None:
        """``None`` if ``name`` is a whole gzip stream (its contents are kept for the meta)."""
        return self._inflate(name)[1]

    def _inflate(self, name: str) -> tuple[bytes, str | None]:
        try:
            data = (self.folder / name).read_bytes()
        except OSError:
            return b"", f"{name} is missing"
        inflater = zlib.decompressobj(wbits=31)
        try:
            inflated = inflater.decompress(data)
        except zlib.error:
            return b"", f"{name} is not a whole gzip file ({len(data):,} bytes)"
        if not inflater.eof or inflater.unused_data:
            return b"", f"{name} is cut short ({len(data):,} bytes)"
        self._whole.add(name)
        return inflated, None

    def _meta(self, name: str, language: Mapping[str, object]) -> list[str]:
        inflated, problem = self._inflate(name)
        if problem:
            return [problem]
        try:
            meta = decode_cbor(inflated[len(MAGIC) :]) if inflated.startswith(MAGIC) else None
            pages, chunks, filters = meta[1], meta[2], meta[3]  # type: ignore[index]
            files = [f"fragment/{page[0]}.pf_fragment" for page in pages]
            files += [f"index/{chunk[2]}.pf_index" for chunk in chunks]
            files += [f"filter/{entry[1]}.pf_filter" for entry in filters]
        except (ValueError, TypeError, IndexError, KeyError):
            return [f"{name} does not list the index's files as Pagefind 1.5 does"]
        found: list[str] = []
        count = language.get("page_count")
        if isinstance(count, int) and count != len(pages):
            found.append(f"{name} lists {len(pages):,} pages, the entry {count:,}")
        missing = [path for path in files if path not in self._whole and self._gzip(path)]
        if missing:
            more = f" (and {len(missing) - 1:,} more files not whole)" if len(missing) > 1 else ""
            found.append(f"{self._gzip(missing[0])}{more}")
        return found


def _reason(error: BaseException) -> str:
    if isinstance(error, FileNotFoundError):
        return "no such file"
    if isinstance(error, json.JSONDecodeError):
        return f"its JSON breaks off at character {error.pos:,}"
    return "not Pagefind's layout"


def decode_cbor(data: bytes, limit: int = 16) -> object:
    """The value CBOR ``data`` holds (the subset Pagefind's metadata uses: integers, strings,
    arrays, maps, simple values; definite lengths). ``ValueError`` if it is cut or is more."""
    value, end = _cbor(data, 0, limit)
    if end != len(data):
        raise ValueError("trailing bytes")
    return value


def _cbor(data: bytes, at: int, depth: int) -> tuple[object, int]:
    if depth <= 0 or at >= len(data):
        raise ValueError("cut short or nested too deep")
    major, info = data[at] >> 5, data[at] & 31
    at += 1
    if info < 24:
        arg = info
    elif info <= 27:
        size = 1 << (info - 24)
        if at + size > len(data):
            raise ValueError("cut short")
        arg = int.from_bytes(data[at : at + size], "big")
        at += size
    else:
        raise ValueError("indefinite length")
    if major == 0:
        return arg, at
    if major == 1:
        return -1 - arg, at
    if major in (2, 3):
        if at + arg > len(data):
            raise ValueError("cut short")
        raw = data[at : at + arg]
        return (raw.decode("utf-8") if major == 3 else raw), at + arg
    if major == 4:
        items: list[object] = []
        for _ in range(arg):
            item, at = _cbor(data, at, depth - 1)
            items.append(item)
        return items, at
    if major == 5:
        pairs: dict[object, object] = {}
        for _ in range(arg):
            key, at = _cbor(data, at, depth - 1)
            value, at = _cbor(data, at, depth - 1)
            pairs[key if isinstance(key, (int, str)) else repr(key)] = value
        return pairs, at
    if major == 6:
        return _cbor(data, at, depth - 1)
    return {20: False, 21: True, 22: None}.get(arg), at
