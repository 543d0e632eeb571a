"""The repacked Pagefind files (duizhao.search.packing): smaller, and unpacked — by Python and by
the search worker's own JavaScript (node) — into the very bytes Pagefind wrote."""

from __future__ import annotations

import gzip
import shutil
import struct
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT
from duizhao.search import packing
from duizhao.search.pagefind import available, page_documents, write_index

WORKER = ROOT / "plugins" / "duizhao" / "assets" / "search-worker.js"

Value = int | str | bytes | list[Any]


def cbor(value: Value) -> bytes:
    """Minimal CBOR of ``value``, as Pagefind (minicbor) writes it."""

    def head(major: int, n: int) -> bytes:
        if n < 24:
            return bytes([major << 5 | n])
        for info, width in ((24, 1), (25, 2), (26, 4), (27, 8)):
            if n < 1 << (8 * width):
                return bytes([major << 5 | info]) + n.to_bytes(width, "big")
        raise ValueError(n)

    if isinstance(value, int):
        return head(0, value) if value >= 0 else head(1, -1 - value)
    if isinstance(value, str):
        return head(3, len(value.encode())) + value.encode()
    if isinstance(value, bytes):
        return head(2, len(value)) + value
    return head(4, len(value)) + b"".join(cbor(item) for item in value)


def chunk(words: dict[str, list[tuple[int, list[int]]]]) -> bytes:
    """An index chunk as Pagefind 1.5 writes it: word, pages (number's gap, weight, gaps)."""
    return packing.SIGNATURE + cbor(
        [[[w, [[page, [-26, *locs], []] for page, locs in pages]] for w, pages in words.items()]]
    )


values = st.recursive(
    st.integers(-(2**63), 2**64 - 1) | st.text(max_size=8) | st.binary(max_size=8),
    lambda inner: st.lists(inner, max_size=6),
    max_leaves=40,
)


@given(values)
@settings(max_examples=300)
def test_any_minimal_cbor_unpacks_to_its_bytes(value: Value) -> None:
    data = packing.SIGNATURE + cbor(value)
    packed = packing.pack(data)
    assert packed is not None
    assert packing.unpack(packed) == data


def test_what_would_not_unpack_to_its_bytes_is_left_alone() -> None:
    assert packing.pack(b"not pagefind" + cbor([1, 2])) is None
    for longer in (b"\x18\x05", b"\x19\x00\x05", b"\x1a\x00\x00\x00\x05", b"\x38\x01"):
        assert packing.pack(packing.SIGNATURE + b"\x81" + longer) is None, longer
    cut = packing.SIGNATURE + cbor(["word", [1, 300, 70000]])
    for end in range(len(packing.SIGNATURE) + 1, len(cut)):
        packed = packing.pack(cut[:end])
        assert packed is None or packing.unpack(packed) == cut[:end]


def test_positions_pack_smaller_than_pagefinds_gzip() -> None:
    """Gaps of a common word's positions (a deterministic spread of 1-900): the repacked chunk
    is at least a tenth smaller gzipped than the CBOR Pagefind gzips."""
    pages = [(1, [(p * 7919 + i * 104729) % 900 + 1 for i in range(14)]) for p in range(2000)]
    data = chunk({"memory": pages})
    packed = packing.pack(data)
    assert packed is not None and packing.unpack(packed) == data
    before, after = len(gzip.compress(data, 9)), len(gzip.compress(packed, packing.LEVEL))
    assert after < 0.9 * before, (before, after)


def _node_unpack(files: list[Path]) -> list[bytes]:
    """The worker's ``unpack`` run by node on ``files`` (each packed, gunzipped)."""
    text = WORKER.read_text(encoding="utf-8")
    code = text[text.index("var PACKED") : text.index("\nself.fetch")]
    script = (
        "var utf8 = new TextEncoder()\n" + code + "\nconst fs = require('fs')\n"
        "for (const f of process.argv.slice(1)) { const b = fs.readFileSync(f);"
        " const out = Buffer.from(unpack(b.buffer.slice(b.byteOffset, b.byteOffset + b.length)));"
        " fs.writeFileSync(f + '.out', out) }"
    )
    subprocess.run(["node", "-e", script, *map(str, files)], check=True, timeout=60)
    return [Path(f"{f}.out").read_bytes() for f in files]


@pytest.mark.skipif(shutil.which("node") is None, reason="node runs the worker's unpack")
def test_the_workers_unpack_gives_the_bytes_back(tmp_path: Path) -> None:
    cases = [
        chunk({"memory": [(0, [15, 12, 216, 66]), (1, [52, 439, 1704])], "显存": [(3, [1653])]}),
        packing.SIGNATURE + cbor(["1", [["und_f153ad9", 3338], ["und_1106f62", 3250]], [], []]),
        packing.SIGNATURE + cbor([2**40, -(2**33), 70000, -300, b"\x00\xff", "", ["a", "ab"]]),
    ]
    files = []
    for i, data in enumerate(cases):
        packed = packing.pack(data)
        assert packed is not None
        (tmp_path / f"{i}.bin").write_bytes(packed)
        files.append(tmp_path / f"{i}.bin")
    assert _node_unpack(files) == cases
    plain = tmp_path / "plain.bin"  # not packed: returned as it is
    plain.write_bytes(cases[0])
    assert _node_unpack([plain]) == [cases[0]]


def _para(i: int) -> str:
    words = " ".join(("memory", "bandwidth", "expert", "token")[(i * j) % 4] for j in range(40))
    return (
        f'<div class="dz-para" id="P{i:03d}"><div class="dz-en" lang="en"><p>{words}</p></div>'
        f'<div class="dz-zh" lang="zh-CN"><p>显存 与 带宽 第 {i} 段</p></div></div>'
    )


@pytest.mark.skipif(not available(), reason="needs pagefind[extended]")
def test_a_written_index_is_repacked_and_unpacks_to_pagefinds_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With every chunk repacked (limit 0), each repacked file gunzips and unpacks to what
    Pagefind wrote in the same index (written again without repacking)."""
    content = "".join(_para(i) for i in range(1, 400))
    documents = {
        path: document
        for page in "abcdef"
        for path, document in page_documents(f"{page}/", page, content, "zh").items()
    }
    monkeypatch.setattr(packing, "PACK_BYTES", 0)
    monkeypatch.setattr("duizhao.search.pagefind.pack_index", lambda f: packing.pack_index(f, 0))
    stats = write_index(documents, tmp_path / "packed", "und")
    monkeypatch.setattr("duizhao.search.pagefind.pack_index", lambda f: 0)
    write_index(documents, tmp_path / "plain", "und")
    packed, plain = (tmp_path / name / "search" / "pagefind" for name in ("packed", "plain"))
    names = sorted(p.relative_to(plain) for p in plain.rglob("*.pf_*") if p.is_file())
    assert names == sorted(p.relative_to(packed) for p in packed.rglob("*.pf_*") if p.is_file())
    repacked = 0
    for name in names:
        original = gzip.decompress((plain / name).read_bytes())
        data = gzip.decompress((packed / name).read_bytes())
        if data.startswith(packing.MAGIC):
            repacked += 1
            data = packing.unpack(data)
        assert data == original, name
    assert repacked == stats.packed
    chunks = [n for n in names if n.parts[0] == "index"]
    assert any(gzip.decompress((packed / n).read_bytes()).startswith(packing.MAGIC) for n in chunks)


def test_the_header_counts_every_stream() -> None:
    packed = packing.pack(chunk({"w": [(0, [1, 300])]}))
    assert packed is not None
    sizes = struct.unpack_from(">7I", packed, len(packing.MAGIC))
    streams = len(packed) - len(packing.MAGIC) - 28
    assert sum(sizes[1:]) <= streams
