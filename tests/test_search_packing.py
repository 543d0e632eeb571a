"""The repacked Pagefind files (duizhao.search.packing): smaller, and unpacked — by Python and by
the search worker's own JavaScript (node) — into the very bytes Pagefind wrote."""

from __future__ import annotations

import gzip
import json
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
    kept = sorted(
        p.relative_to(packed)
        for p in packed.rglob("*.pf_*")
        if p.is_file() and p.suffix != packing.SUFFIX
    )
    assert names == kept  # Pagefind's files where Pagefind wrote them
    repacked = 0
    for name in names:
        assert (packed / name).read_bytes() == (plain / name).read_bytes(), name
        sibling = packed / f"{name}{packing.SUFFIX}"
        if sibling.is_file():
            data = gzip.decompress(sibling.read_bytes())
            if data.startswith(packing.MAGIC):
                repacked += 1
                data = packing.unpack(data)
            assert data == gzip.decompress((plain / name).read_bytes()), name
    assert repacked == stats.packed
    siblings = list(packed.rglob(f"*{packing.SUFFIX}"))
    assert len(siblings) == repacked  # only what repacking makes smaller
    assert all(s.stat().st_size < s.with_suffix("").stat().st_size for s in siblings)
    assert any(n.parts[0] == "index" for n in names if (packed / f"{n}{packing.SUFFIX}").is_file())
    assert not (plain / packing.LIST).exists()


def test_the_header_counts_every_stream() -> None:
    packed = packing.pack(chunk({"w": [(0, [1, 300])]}))
    assert packed is not None
    sizes = struct.unpack_from(">7I", packed, len(packing.MAGIC))
    streams = len(packed) - len(packing.MAGIC) - 28
    assert sum(sizes[1:]) <= streams


#: Runs the whole worker in node on a site folder (argv: site, whether DecompressionStream is
#: there, a JSON map of paths served from elsewhere, the paths to ask for): its wrapped fetch
#: is asked for each path, as Pagefind asks; prints {"got": {path: base64}, "asked": [paths
#: the worker fetched]}.
NODE_WORKER = r"""
const fs = require("fs"), path = require("path"), vm = require("vm")
const [site, decompression, moved, names] = process.argv.slice(1)
const elsewhere = JSON.parse(moved), HOST = "http://site.test/", fetched = []
globalThis.self = globalThis
self.location = { href: HOST + "assets/duizhao/search-worker.js?words=0" }
self.addEventListener = function () {}
self.postMessage = function () {}
delete globalThis.BroadcastChannel
if (decompression !== "1") delete globalThis.DecompressionStream
self.fetch = async function (url) {
  const rel = String(url).slice(HOST.length).replace(/[?#].*$/, "")
  fetched.push(rel)
  const file = elsewhere[rel] || path.join(site, rel)
  if (!fs.existsSync(file)) return new Response("", { status: 404 })
  return new Response(fs.readFileSync(file), { status: 200 })
}
vm.runInThisContext(fs.readFileSync(process.env.WORKER, "utf8"), { filename: "worker.js" })
prefetch()
;(async () => {
  const got = {}
  for (const name of JSON.parse(names)) {
    const r = await self.fetch(BASE + name)
    got[name] = Buffer.from(await r.arrayBuffer()).toString("base64")
  }
  process.stdout.write(JSON.stringify({ got, asked: fetched }))
})()
"""


def _node_worker(
    site: Path, names: list[str], *, decompression: bool, moved: dict[str, Path] | None = None
) -> tuple[dict[str, bytes], list[str]]:
    """What the worker's fetch gives Pagefind for each of ``names`` (under search/pagefind/) of
    the site in ``site``, and the paths it fetched, in order."""
    import base64
    import os

    served = json.dumps({rel: str(path) for rel, path in (moved or {}).items()})
    flag = "1" if decompression else "0"
    done = subprocess.run(
        ["node", "-e", NODE_WORKER, str(site), flag, served, json.dumps(names)],
        timeout=120,
        capture_output=True,
        env={**os.environ, "WORKER": str(WORKER)},
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    out = json.loads(done.stdout)
    return {k: base64.b64decode(v) for k, v in out["got"].items()}, out["asked"]


def _pagefind_files(folder: Path) -> list[str]:
    """Pagefind's metadata, index chunks and fragments in ``folder``, relative to it."""
    return sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.suffix in (".pf_meta", ".pf_index", ".pf_fragment")
    )


def _site(tmp_path: Path, name: str, pages: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A site of ``pages`` (one article each) whose metadata and every index chunk are
    repacked (limit 0); its search/pagefind folder."""
    content = "".join(_para(i) for i in range(1, 400))
    documents = {
        path: document
        for page in pages
        for path, document in page_documents(f"{page}/", page, content, "zh").items()
    }
    monkeypatch.setattr("duizhao.search.pagefind.pack_index", lambda f: packing.pack_index(f, 0))
    write_index(documents, tmp_path / name, "und")
    return tmp_path / name / "search" / "pagefind"


needs_node_and_pagefind = pytest.mark.skipif(
    shutil.which("node") is None or not available(), reason="needs node and pagefind[extended]"
)


@needs_node_and_pagefind
def test_without_decompression_the_worker_gets_pagefinds_own_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A browser without DecompressionStream (Safari < 16.4, Firefox < 113) is given every
    file as Pagefind wrote it, gzip and all (Pagefind inflates it), and never asks for the
    list or a repacked file."""
    folder = _site(tmp_path, "site", "abcdef", monkeypatch)
    names = _pagefind_files(folder)
    assert any((folder / f"{n}{packing.SUFFIX}").is_file() for n in names if "index/" in n)
    got, asked = _node_worker(folder.parent.parent, names, decompression=False)
    for name in names:
        assert got[name] == (folder / name).read_bytes(), name
    assert not [a for a in asked if a.endswith(packing.SUFFIX) or a.endswith(packing.LIST)]


@needs_node_and_pagefind
def test_with_decompression_the_worker_unpacks_the_repacked_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where DecompressionStream exists the worker fetches each listed file's repacked form,
    never its original, and gives Pagefind the bytes Pagefind wrote, inflated."""
    folder = _site(tmp_path, "site", "abcdef", monkeypatch)
    names = _pagefind_files(folder)
    listed = json.loads((folder / packing.LIST).read_text(encoding="utf-8"))
    assert listed["metas"] and len(listed["packed"]) >= 2
    assert set(listed["packed"]) == {
        p.relative_to(folder).as_posix()[: -len(packing.SUFFIX)]
        for p in folder.rglob(f"*{packing.SUFFIX}")
    }
    got, asked = _node_worker(folder.parent.parent, names, decompression=True)
    for name in names:
        assert got[name] == gzip.decompress((folder / name).read_bytes()), name
    prefix = "search/pagefind/"
    for name in listed["packed"]:
        assert prefix + name + packing.SUFFIX in asked, name
        assert prefix + name not in asked, name
    assert prefix + packing.LIST in asked
    assert not [a for a in asked if a.endswith(".pf_fragment.dz")]


@needs_node_and_pagefind
def test_a_rebuild_with_fewer_chunks_serves_no_stale_repacked_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Built again into the same site with fewer pages (fewer chunks): every repacked file
    there is listed and unpacks to its original of the new build; the worker, given the list
    of the earlier build (a rebuild under ``mkdocs serve`` between its two requests), asks for
    no repacked file and gets the new build's own files."""
    old = _site(tmp_path, "site", "abcdefghij", monkeypatch)
    before = {p.relative_to(old) for p in old.rglob(f"*{packing.SUFFIX}")}
    chunks = len(list((old / "index").glob("*.pf_index")))
    old_list = tmp_path / "old-list.json"
    shutil.copy(old / packing.LIST, old_list)
    folder = _site(tmp_path, "site", "ab", monkeypatch)
    assert folder == old
    siblings = sorted(folder.rglob(f"*{packing.SUFFIX}"))
    assert len(list((folder / "index").glob("*.pf_index"))) < chunks
    assert before - {p.relative_to(folder) for p in siblings}  # the earlier build's are gone
    listed = json.loads((folder / packing.LIST).read_text(encoding="utf-8"))
    assert set(listed["packed"]) == {
        p.relative_to(folder).as_posix()[: -len(packing.SUFFIX)] for p in siblings
    }
    for sibling in siblings:
        original = sibling.with_name(sibling.name[: -len(packing.SUFFIX)])
        data = gzip.decompress(sibling.read_bytes())
        data = packing.unpack(data) if data.startswith(packing.MAGIC) else data
        assert data == gzip.decompress(original.read_bytes()), sibling
    names = _pagefind_files(folder)
    got, asked = _node_worker(folder.parent.parent, names, decompression=True)
    for name in names:
        assert got[name] == gzip.decompress((folder / name).read_bytes()), name
    moved = {f"search/pagefind/{packing.LIST}": old_list}
    got, asked = _node_worker(folder.parent.parent, names, decompression=True, moved=moved)
    for name in names:
        assert got[name] == gzip.decompress((folder / name).read_bytes()), name
    # The earlier build's list does not name this build's metadata: no chunk's NAME.dz is
    # asked for (the metadata's may be, before the list is in).
    assert {a for a in asked if a.endswith(packing.SUFFIX)} <= {
        f"search/pagefind/{meta}{packing.SUFFIX}" for meta in listed["metas"]
    }


@needs_node_and_pagefind
def test_a_repacked_file_that_will_not_unpack_is_fetched_as_pagefinds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A listed repacked file that is missing or cut: the worker fetches the original. A
    metadata file's copy is taken as it is."""
    folder = _site(tmp_path, "site", "abcdef", monkeypatch)
    listed = json.loads((folder / packing.LIST).read_text(encoding="utf-8"))
    first, second = listed["packed"][:2]
    (folder / f"{first}{packing.SUFFIX}").unlink()
    cut = folder / f"{second}{packing.SUFFIX}"
    cut.write_bytes(gzip.compress(gzip.decompress(cut.read_bytes())[:-5]))
    (meta,) = listed["metas"]  # a metadata file that repacking did not make smaller: a copy
    shutil.copy(folder / meta, folder / f"{meta}{packing.SUFFIX}")
    names = [first, second, meta]
    got, _asked = _node_worker(folder.parent.parent, names, decompression=True)
    for name in names:
        assert got[name] == gzip.decompress((folder / name).read_bytes()), name


def test_the_worker_knows_the_names_packing_writes() -> None:
    text = WORKER.read_text(encoding="utf-8")
    assert f'var LIST = "{packing.LIST}", PACKED_SUFFIX = "{packing.SUFFIX}"' in text


@needs_node_and_pagefind
def test_a_metadata_file_repacking_does_not_shrink_has_no_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A small site's metadata, which repacking makes no smaller, is left alone (no NAME.dz);
    the worker gets Pagefind's own file, with the list and without it."""
    documents = {"a/index.html": "<html><body><h1>A</h1><p>memory 显存</p></body></html>"}
    write_index(documents, tmp_path / "site", "und")
    folder = tmp_path / "site" / "search" / "pagefind"
    (meta,) = [p.name for p in folder.glob("*.pf_meta")]
    repacked = packing.pack(gzip.decompress((folder / meta).read_bytes()))
    assert repacked is not None
    assert len(gzip.compress(repacked, packing.LEVEL)) >= (folder / meta).stat().st_size
    assert not list(folder.rglob(f"*{packing.SUFFIX}"))
    listed = json.loads((folder / packing.LIST).read_text(encoding="utf-8"))
    assert listed == {"metas": [meta], "packed": []}
    names = _pagefind_files(folder)
    got, asked = _node_worker(folder.parent.parent, names, decompression=True)
    for name in names:
        assert got[name] == gzip.decompress((folder / name).read_bytes()), name
    assert f"search/pagefind/{meta}" in asked
    slow = {f"search/pagefind/{packing.LIST}": tmp_path / "missing.json"}
    got, asked = _node_worker(folder.parent.parent, names, decompression=True, moved=slow)
    for name in names:
        assert got[name] == gzip.decompress((folder / name).read_bytes()), name
