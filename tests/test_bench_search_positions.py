"""bench/search_positions.py: a chunk's CBOR written back as Pagefind wrote it, and thinned to
one position of a word per segment and weight with every such segment kept, in fewer bytes
(what the ninth pass of issue 24 measured; the build does not thin)."""

from __future__ import annotations

import bisect
import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from bench import search_positions as thinning
from bench.search_positions import cbor, thin, thin_index

from duizhao.search.pagefind import available, page_documents, write_index

pytestmark = pytest.mark.skipif(not available(), reason="needs pagefind[extended]")


def _para(i: int) -> str:
    words = " ".join(("memory", "bandwidth", "expert", "token")[(i * j) % 4] for j in range(40))
    return (
        f'<div class="dz-para" id="P{i:03d}"><div class="dz-en" lang="en"><p>{words}</p></div>'
        f'<div class="dz-zh" lang="zh-CN"><p>显存 与 带宽 第 {i} 段，显存 再 说 一次</p></div></div>'
    )


def _documents() -> dict[str, str]:
    content = "".join(_para(i) for i in range(1, 300))
    return {
        path: document
        for page in "abcd"
        for path, document in page_documents(f"{page}/", page, content, "zh").items()
    }


def _index(tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr("duizhao.search.pagefind.pack_index", lambda f: 0)
    write_index(_documents(), tmp_path / name, "und")
    return tmp_path / name / "search" / "pagefind"


def test_thin_keeps_each_segments_first_position_for_each_weight() -> None:
    # positions 3, 5, 15, 16 (gaps 3, 2, 10, 1); segments start at 0, 4 and 14
    assert thin([-25, 3, 2, 10, 1], [0, 4, 14]) == [-25, 3, 2, 10]
    # each weight's group counts from 0 (here the page's h1 at 0, weight 169, after a
    # paragraph's hit at 41): both kept, though 0 lies in the segment of nothing else
    assert thin([-25, 41, -169, 0], [0, 3, 23, 52]) == [-25, 41, -169, 0]
    assert thin([-25, 41, 1, -169, 0, 1], [0, 3, 23, 52]) == [-25, 41, -169, 0]
    # a group left empty loses its marker; an unmarked first group stays unmarked
    assert thin([1, 1, -49, 1, 1], [0]) == [1, -49, 1]
    assert thin([], [0]) == []


def test_chunks_are_written_back_as_pagefind_wrote_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _index(tmp_path, "plain", monkeypatch)
    files = [*folder.glob("*.pf_meta"), *(folder / "index").glob("*.pf_index")]
    assert len(files) >= 2
    for path in files:
        assert cbor(thinning._read(path)) == gzip.decompress(path.read_bytes()), path.name


def _segments(folder: Path) -> tuple[dict[tuple[str, str], set[tuple[int, int]]], int]:
    """Each (word, part's fragment) → the (weight, segment) holding the word; how many
    positions."""
    pages = thinning._read(next(folder.glob("*.pf_meta")))[1]
    out: dict[tuple[str, str], set[tuple[int, int]]] = {}
    positions = 0
    for path in (folder / "index").glob("*.pf_index"):
        for word, parts, *_rest in thinning._read(path)[0]:
            page = 0
            for part in parts:
                page += part[0]
                fragment = pages[page][0]
                data = (folder / "fragment" / f"{fragment}.pf_fragment").read_bytes()
                found: Any = json.loads(gzip.decompress(data)[len(thinning.SIGNATURE) :])
                anchors = sorted(a["location"] for a in found["anchors"])
                at, weight, held = 0, 0, out.setdefault((word, fragment), set())
                for value in part[1]:
                    if value < 0:
                        at, weight = 0, value  # a weight's group: gaps from 0
                        continue
                    at += value
                    positions += 1
                    held.add((weight, bisect.bisect_right(anchors, at)))
    return out, positions


def test_a_thinned_index_holds_every_segment_of_every_word_in_fewer_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = _index(tmp_path, "plain", monkeypatch)
    thinned = _index(tmp_path, "thinned", monkeypatch)
    assert thin_index(thinned, 0) >= 1
    before, positions_before = _segments(plain)
    after, positions_after = _segments(thinned)
    assert after == before  # every word still in every segment it was in
    assert positions_after < positions_before * 0.6  # memory, 显存: repeated in each paragraph
    sizes = [
        sum(p.stat().st_size for p in (f / "index").glob("*.pf_index")) for f in (plain, thinned)
    ]
    assert sizes[1] < sizes[0]
    fragments = [sorted((f / "fragment").iterdir()) for f in (plain, thinned)]
    assert [p.read_bytes() for p in fragments[0]] == [p.read_bytes() for p in fragments[1]]
