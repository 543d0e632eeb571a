"""What a word's Pagefind index chunk holds, and what it would weigh with fewer positions.

A first query fetches the chunk of its word whole, and Pagefind keeps every position of the
word in every indexed part (issue 24: at N=1,000 the chunk of ``memory``, 110,046 positions in
7,794 parts, was 178 KB, over half of that query's bytes). duizhao's worker uses a hit's
position for which segment of its part it lies in (a heading's, a numbered paragraph's or a
figure's span: the part's anchors cut it) and where that segment's excerpt starts; a word's
later positions in one segment add only to the scores. This reads a built site's index and
prints, for each word given: the parts that hold it, its positions, how many are the first of
their weight in their segment (what :func:`thin` keeps), and the chunk's bytes as Pagefind
wrote it, repacked (:mod:`duizhao.search.packing`), and thinned (re-encoded as minicbor
writes, gzipped at Pagefind's level, and repacked). ``--thin`` rewrites a site's chunks over
``--limit`` bytes thinned, in place (a copy's), for the browser's measurements.

Measured in bench/README.md (issue 24, ninth pass): a quarter off ``memory``'s chunk, but
Pagefind's scores count the positions, and with every chunk thinned a query of the quality set
fell out of the first five (内存语义, 2nd → 63rd): not made part of the build.

    python -m bench.search_positions SITE_DIR memory 显存
    python -m bench.search_positions SITE_DIR --thin [--limit 0]
"""

from __future__ import annotations

import argparse
import bisect
import gzip
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from duizhao.search import packing
from duizhao.search.pagefind_check import decode_cbor

#: Chunks (gzipped) over this many bytes are thinned by ``--thin`` (as
#: :data:`~duizhao.search.packing.PACK_BYTES`, which are repacked; 0: every chunk).
THIN_BYTES = 96 * 1024
#: Pagefind's gzip level (``Compression::best()``), kept for the thinned chunks.
LEVEL = 9
#: What starts Pagefind's files (after gzip).
SIGNATURE = b"pagefind_dcd"
#: How deep a chunk's CBOR nests: chunk, words, word, parts, part, positions.
DEPTH = 16


def thin_index(folder: Path, limit: int = THIN_BYTES) -> int:
    """Thin the index chunks over ``limit`` bytes in ``folder`` (a Pagefind index, checked
    whole); how many were rewritten."""
    chunks = sorted(p for p in (folder / "index").glob("*.pf_index") if p.stat().st_size > limit)
    if not chunks:
        return 0
    metas = sorted(folder.glob("*.pf_meta"))
    if len(metas) != 1:
        return 0  # one language's index: duizhao's sites have one
    pages = _read(metas[0])[1]
    anchors = _Anchors(folder / "fragment", [page[0] for page in pages])
    rewritten = 0
    for path in chunks:
        chunk = _read(path)
        if _thin_chunk(chunk, anchors):
            path.write_bytes(gzip.compress(cbor(chunk), LEVEL, mtime=0))
            rewritten += 1
    return rewritten


class _Anchors:
    """The sorted word positions of each part's anchors, read from its fragment once."""

    def __init__(self, folder: Path, fragments: list[str]) -> None:
        self.folder, self.fragments = folder, fragments
        self.read: dict[int, list[int]] = {}

    def __call__(self, page: int) -> list[int]:
        if page not in self.read:
            path = self.folder / f"{self.fragments[page]}.pf_fragment"
            data = json.loads(gzip.decompress(path.read_bytes())[len(SIGNATURE) :])
            self.read[page] = sorted(int(a["location"]) for a in data.get("anchors", []))
        return self.read[page]


def _thin_chunk(chunk: Any, anchors: Callable[[int], list[int]]) -> bool:
    """Thin every word's positions in ``chunk`` (``[[word, [[page gap, positions, …], …]],
    …]``, its first item); whether any was dropped."""
    dropped = False
    for entry in chunk[0]:
        page = 0
        for part in entry[1]:
            page += part[0]
            thinned = thin(part[1], anchors(page))
            dropped = dropped or len(thinned) < len(part[1])
            part[1] = thinned
    return dropped


def thin(positions: list[int], anchors: list[int]) -> list[int]:
    """``positions`` (a word's positions in a part, as Pagefind writes them: in groups of one
    weight, each but the default's after its marker, a negative number, each group's
    positions as gaps from 0) with each group's first position in each segment only (the
    segments start at ``anchors``); a group left empty loses its marker."""
    out: list[int] = []
    marker: list[int] = []  # the marker of the group being read ([] for the first, unmarked)
    at = last = 0
    seen: set[int] = set()
    for value in positions:
        if value < 0:
            marker, at, last, seen = [value], 0, 0, set()
            continue
        at += value
        segment = bisect.bisect_right(anchors, at)
        if segment in seen:
            continue
        seen.add(segment)
        out += marker  # before the group's first kept position
        marker = []
        out.append(at - last)
        last = at
    return out


def cbor(value: Any) -> bytes:
    """Pagefind's file of ``value``: the signature, then CBOR as minicbor writes it."""
    out = bytearray(SIGNATURE)
    _encode(value, out)
    return bytes(out)


def _head(out: bytearray, major: int, arg: int) -> None:
    if arg < 24:
        out.append(major << 5 | arg)
        return
    size = 1 if arg < 1 << 8 else 2 if arg < 1 << 16 else 4 if arg < 1 << 32 else 8
    out.append(major << 5 | {1: 24, 2: 25, 4: 26, 8: 27}[size])
    out += arg.to_bytes(size, "big")


def _encode(value: Any, out: bytearray) -> None:
    if value is None or isinstance(value, bool):
        out.append({False: 0xF4, True: 0xF5, None: 0xF6}[value])
    elif isinstance(value, int):
        _head(out, 0, value) if value >= 0 else _head(out, 1, -1 - value)
    elif isinstance(value, str):
        raw = value.encode("utf-8")
        _head(out, 3, len(raw))
        out += raw
    elif isinstance(value, bytes):
        _head(out, 2, len(value))
        out += value
    elif isinstance(value, list):
        _head(out, 4, len(value))
        for item in value:
            _encode(item, out)
    else:
        raise TypeError(f"not in Pagefind's chunks: {type(value).__name__}")


def _read(path: Path) -> Any:
    data = gzip.decompress(path.read_bytes())
    if not data.startswith(SIGNATURE):
        raise ValueError(f"{path.name}: not Pagefind's")
    return decode_cbor(data[len(SIGNATURE) :], DEPTH)


def _counts(positions: list[int], anchors: list[int]) -> tuple[int, int]:
    """How many positions ``positions`` holds, and how many :func:`~thinning.thin` keeps."""
    return sum(v >= 0 for v in positions), sum(v >= 0 for v in thin(positions, anchors))


def measure(folder: Path, word: str) -> dict[str, Any]:
    meta = _read(next(folder.glob("*.pf_meta")))
    pages, chunks = meta[1], meta[2]
    name = next(h for lo, hi, h in chunks if lo <= word <= hi)
    path = folder / "index" / f"{name}.pf_index"
    chunk = _read(path)
    anchors: dict[int, list[int]] = {}
    found = {"word": word, "chunk": name, "parts": 0, "positions": 0, "kept": 0}
    for entry in chunk[0]:
        if entry[0] != word:
            continue
        page = 0
        for item in entry[1]:
            page += item[0]
            if page not in anchors:
                fragment = folder / "fragment" / f"{pages[page][0]}.pf_fragment"
                data = json.loads(gzip.decompress(fragment.read_bytes())[len(b"pagefind_dcd") :])
                anchors[page] = sorted(a["location"] for a in data.get("anchors", []))
            total, kept = _counts(item[1], anchors[page])
            item[1] = thin(item[1], anchors[page])
            found["parts"] += 1
            found["positions"] += total
            found["kept"] += kept
    original = gzip.decompress(path.read_bytes())
    found["words_in_chunk"] = len(chunk[0])
    found["bytes"] = {"chunk": _sizes(original), "chunk_thinned": _sizes(cbor(chunk))}
    alone = [[entry for entry in chunk[0] if entry[0] == word], *chunk[1:]]
    found["bytes"]["word_thinned"] = _sizes(cbor(alone))
    for entry in alone[0]:  # the word's positions as Pagefind wrote them
        entry[1] = next(item for item in _read(path)[0] if item[0] == word)[1]
    found["bytes"]["word"] = _sizes(cbor(alone))
    return found


def _sizes(data: bytes) -> dict[str, int | None]:
    """Gzipped as Pagefind writes it, and repacked as duizhao does."""
    repacked = packing.pack(data)
    return {
        "pagefind": len(gzip.compress(data, LEVEL)),
        "repacked": len(gzip.compress(repacked, packing.LEVEL)) if repacked else None,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("words", nargs="*")
    parser.add_argument("--thin", action="store_true", help="rewrite the chunks thinned")
    parser.add_argument("--limit", type=int, default=THIN_BYTES)
    args = parser.parse_args(argv)
    folder = args.site / "search" / "pagefind"
    if args.thin:
        for sibling in folder.rglob(f"*{packing.SUFFIX}"):
            sibling.unlink()  # repacked again from the thinned chunks
        print(f"thinned {thin_index(folder, args.limit)} chunks")
        packing.pack_index(folder)
    for word in args.words:
        print(json.dumps(measure(folder, word), ensure_ascii=False))


if __name__ == "__main__":
    main()
