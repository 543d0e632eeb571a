"""Pagefind's largest index files, repacked so that they download smaller; the search worker
unpacks them (``assets/search-worker.js``, ``unpack``) into the very bytes Pagefind wrote.

A Pagefind index chunk is CBOR: for each word, for each page, the gaps between the word's
positions, most of them integers of one to three bytes, each after its own header byte. Gzip
does poorly on that mixture: at N=1,000 the chunk of ``memory`` (110,046 positions) is 178 KB,
1.62 bytes a position, where the gaps' entropy is 1.19 bytes. Repacked, the same CBOR is
written as streams, each of bytes alike, then gzipped: the items' header bytes; the small
integers that start an array (pages' numbers, weight markers); the high bytes, then the low
bytes, of the other integers; the other arguments; the strings, each after how many bytes it
shares with the start of the one before (sorted words, fragment names). That chunk becomes
143 KB, and the metadata (a fragment name and a word count per indexed part) 67 KB becomes
53 KB; a first query at N=1,000 fetches one chunk and the metadata whole.

The metadata is repacked where that makes it smaller, index chunks only over
:data:`PACK_BYTES` (gzipped): a
smaller chunk is a small part of a first query's bytes, and repacking costs CPU time in Python
(about 0.4 µs an item: 50 ms and 18 ms of gzip for the 281 KB of ``memory``'s chunk). The
repacking is exact: an integer is written back in its shortest form, which is how Pagefind
(minicbor) writes every integer; a file with any other form is left as it is.

Pagefind's files stay where and as Pagefind wrote them: each file that repacking makes smaller
is written beside its original as ``NAME.dz`` (:data:`SUFFIX`), and :data:`LIST` names them,
with the build's metadata files. The worker inflates a repacked file with the browser's
``DecompressionStream`` (Chrome 80, Firefox 113, Safari 16.4 and later) before it unpacks it,
so only there does it fetch the list, in parallel with the entry. It asks for a chunk's
``NAME.dz`` only for a name the list gives and only where the list names the metadata file the
entry names (the list and the entry may come from two builds, under ``mkdocs serve``); for the
metadata's, so too where the list is in before the entry, and otherwise at once, not waiting
for the list (on a slow link it came 150 ms after the entry once), with Pagefind's own file
where there is no ``NAME.dz`` (a small site's metadata, which repacking does not make
smaller). Any other browser gets
Pagefind's own files and searches as before, with the bytes of an index not repacked. A
repacked file that does not arrive, inflate or unpack whole is fetched again as Pagefind's.
The list and the siblings are written in the folder that :func:`~.pagefind.write_index` swaps
in whole, so a sibling of an earlier build is never beside a later build's file; Pagefind
names its metadata and chunks by a digest of their content, so a browser's cached
``NAME.dz`` is always the repacked form of ``NAME``. Each stream must end where the header
says, so a cut file fails to unpack rather than unpack wrong. At N=1,000 the 213 siblings
add 31.4 MB to the 119.1 MB index on disk, and the list is 6.2 KB (1.2 KB gzipped).
"""

from __future__ import annotations

import gzip
import json
import struct
from pathlib import Path

#: What starts a repacked file (after gzip); the worker knows it.
MAGIC = b"dz_pack1"
#: What a repacked file's name adds to its original's (it lies beside it).
SUFFIX = ".dz"
#: duizhao's list of the repacked files, beside Pagefind's entry (the worker knows its name):
#: ``{"metas": [the build's metadata files], "packed": [paths of the repacked originals]}``.
LIST = "duizhao-packed.json"
#: What starts Pagefind's own files (after gzip).
SIGNATURE = b"pagefind_dcd"
#: Files (gzipped) larger than this are repacked: the size at which one file passes a
#: third of a first query's budget at N=1,000 (300 KB, issue 24).
PACK_BYTES = 96 * 1024
#: Gzip level of a repacked file (Pagefind writes its own at 9). On the chunk of ``memory`` at
#: N=1,000, 9 takes 136 ms for 141.7 KB and 6 takes 18 ms for 143.3 KB.
LEVEL = 6
_HEADER = struct.Struct(">7I")  # the CBOR's length, then the first six streams' lengths
#: An integer's class in the heads (its low five bits): a first item of an array or a negative
#: integer below 256, in the small stream (pages' numbers, weight markers); any other below
#: 65,536, as its high and low bytes (positions' gaps: each plane alike); 4 or 8 bytes.
_SMALL, _PLANES, _WORD, _LONG = 0, 1, 2, 3
_ARGUMENT_BYTES = {24: 1, 25: 2, 26: 4, 27: 8}


def pack(data: bytes) -> bytes | None:
    """Pagefind's file ``data`` (gunzipped: signature, then CBOR) repacked; None where it is not
    Pagefind's or holds an integer not in its shortest form (so :func:`unpack` would differ)."""
    if not data.startswith(SIGNATURE):
        return None
    heads, small, low, high, args, shared = (bytearray() for _ in range(6))
    strings: list[bytes] = []
    last = b""  # the last string, whose start the next one may share (sorted words, hashes)
    at, end = len(SIGNATURE), len(data)
    first = False  # the item is the first of an array (a page's number, a weight marker)
    try:
        while at < end:
            byte = data[at]
            at += 1
            major, info = byte >> 5, byte & 31
            if major <= 1:  # an integer: its class in the heads, its bytes in a stream
                if info < 24:
                    value = info
                elif info == 24:
                    value = data[at]
                    at += 1
                    if value < 24:
                        return None
                elif info == 25:
                    value = data[at] << 8 | data[at + 1]
                    at += 2
                    if value < 256:
                        return None
                elif info in (26, 27):
                    size = _ARGUMENT_BYTES[info]
                    if at + size > end:
                        return None
                    value = int.from_bytes(data[at : at + size], "big")
                    if value < (1 << (4 * size)):
                        return None
                    heads.append(major << 5 | (_WORD if info == 26 else _LONG))
                    args += data[at : at + size]
                    at += size
                    first = False
                    continue
                else:
                    return None
                if value < 256 and (first or major == 1):
                    heads.append(major << 5 | _SMALL)
                    small.append(value)
                else:
                    heads.append(major << 5 | _PLANES)
                    high.append(value >> 8)
                    low.append(value & 255)
                first = False
                continue
            heads.append(byte)
            length = info
            size = _ARGUMENT_BYTES.get(info, 0)
            if size:
                if at + size > end:
                    return None
                length = int.from_bytes(data[at : at + size], "big")
                args += data[at : at + size]
                at += size
            elif 28 <= info <= 30:
                return None
            if major in (2, 3) and info != 31:
                if at + length > end:
                    return None
                text = data[at : at + length]
                common = _common(last, text)
                shared.append(common)
                strings.append(text[common:])
                last = text
                at += length
            first = major == 4 and length > 0 and info != 31
    except IndexError:  # cut CBOR
        return None
    sizes = (len(heads), len(small), len(low), len(high), len(args), len(shared))
    header = _HEADER.pack(end - len(SIGNATURE), *sizes)
    return b"".join([MAGIC, header, heads, small, low, high, args, shared, *strings])


def _common(a: bytes, b: bytes) -> int:
    """How many bytes ``b`` shares with the start of ``a`` (at most 255)."""
    n = min(len(a), len(b), 255)
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def unpack(packed: bytes) -> bytes:
    """The file :func:`pack` was given (for tests; the worker has its own)."""
    size, n_heads, n_small, n_low, n_high, n_args, n_shared = _HEADER.unpack_from(
        packed, len(MAGIC)
    )
    h = len(MAGIC) + _HEADER.size
    sm = h + n_heads
    lo = sm + n_small
    hi = lo + n_low
    ar = hi + n_high
    sh = ar + n_args
    st = sh + n_shared
    ends = (lo, hi, ar, sh, st, len(packed))  # where each stream ends: a cut file fails
    out = bytearray(SIGNATURE)
    last = b""
    for at in range(h, h + n_heads):
        byte = packed[at]
        major, info = byte >> 5, byte & 31
        if major <= 1:
            if info in (_WORD, _LONG):
                width = 4 if info == _WORD else 8
                out.append(major << 5 | (26 if info == _WORD else 27))
                out += packed[ar : ar + width]
                ar += width
                continue
            if info == _SMALL:
                value = packed[sm]
                sm += 1
            else:
                value = packed[hi] << 8 | packed[lo]
                hi += 1
                lo += 1
            if value < 24:
                out.append(major << 5 | value)
            elif value < 256:
                out += bytes((major << 5 | 24, value))
            else:
                out += bytes((major << 5 | 25, value >> 8, value & 255))
            continue
        out.append(byte)
        length, width = info, _ARGUMENT_BYTES.get(info, 0)
        if width:
            length = int.from_bytes(packed[ar : ar + width], "big")
            out += packed[ar : ar + width]
            ar += width
        if major in (2, 3) and info != 31:
            common = packed[sh]
            sh += 1
            last = last[:common] + packed[st : st + length - common]
            st += length - common
            out += last
    if len(out) != size + len(SIGNATURE) or (sm, lo, hi, ar, sh, st) != ends:
        raise ValueError("packed file does not unpack to its length")
    return bytes(out)


def pack_index(folder: Path, limit: int = PACK_BYTES) -> int:
    """Repack the metadata (every query fetches it whole) and the index chunks larger than
    ``limit`` bytes in ``folder``, where that makes them smaller, each beside its original
    (:data:`SUFFIX`); write :data:`LIST`. How many were repacked."""
    metas = sorted(folder.glob("*.pf_meta"))
    chunks = sorted(p for p in (folder / "index").glob("*.pf_index") if p.stat().st_size > limit)
    packed: list[str] = []
    for path in [*metas, *chunks]:
        original = path.read_bytes()
        repacked = pack(gzip.decompress(original))
        data = None if repacked is None else gzip.compress(repacked, LEVEL, mtime=0)
        sibling = path.with_name(path.name + SUFFIX)
        if data is not None and len(data) < len(original):
            sibling.write_bytes(data)
            packed.append(path.relative_to(folder).as_posix())
    listing = {"metas": [path.name for path in metas], "packed": packed}
    (folder / LIST).write_text(json.dumps(listing, separators=(",", ":")), encoding="utf-8")
    return len(packed)
