"""The Pagefind back end (`search: pagefind`): the indexed documents, the index in the site,
Material's search box pointed at duizhao's worker, and what a site that does not opt in keeps."""

from __future__ import annotations

import gzip
import json
import os
import re
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duizhao.search import pagefind
from duizhao.search.pagefind import (
    BLOCK_END,
    index_document,
    mark_block_ends,
    page_documents,
    pagefind_language,
    split_content,
)
from duizhao.search.theme import search_config, worker_version
from reader_site import FILES, reader_config

PAGEFIND = {"duizhao": {"search": "pagefind"}}


def para(pid: str, en: str, zh: str) -> str:
    return (
        f'<div class="dz-para" data-dz-id="{pid}" id="{pid}"><a class="dz-pid">{pid}</a>'
        f'<div class="dz-en"><p>{en}</p></div><div class="dz-zh"><p>{zh}</p></div></div>'
    )


# ---------------------------------------------------------------------------------------------
# The documents


def test_block_ends_follow_paragraphs_and_figures_not_their_inner_divs() -> None:
    html = (
        para("P001", "a", "甲")
        + "<p>note</p>"
        + '<figure class="dz-figure" id="fig-1"><figure><img></figure>'
        + "<figcaption>图 1</figcaption></figure><p>tail</p>"
    )
    marked = mark_block_ends(html)
    assert marked == (
        para("P001", "a", "甲")
        + BLOCK_END
        + "<p>note</p>"
        + '<figure class="dz-figure" id="fig-1"><figure><img></figure>'
        + "<figcaption>图 1</figcaption></figure>"
        + BLOCK_END
        + "<p>tail</p>"
    )


def test_an_unclosed_block_gets_no_marker_and_text_is_not_taken_for_tags() -> None:
    assert mark_block_ends('<div class="dz-para" id="P001"><p>x') == (
        '<div class="dz-para" id="P001"><p>x'
    )
    html = para("P001", "&lt;/div&gt; &lt;div&gt;", "&lt;/div&gt;")
    assert mark_block_ends(html) == html + BLOCK_END


def test_marking_many_blocks_is_linear() -> None:
    html = "".join(para(f"P{n:03d}", "x " * 50, "字" * 50) for n in range(1, 2001))
    start = time.perf_counter()
    marked = mark_block_ends(html)
    assert time.perf_counter() - start < 1.0
    assert marked.count(BLOCK_END) == 2000


def test_documents_escape_the_title_and_carry_the_page_url() -> None:
    doc = index_document('<script>alert("x")</script> & 标题', "<p>text</p>", "zh")
    assert "<script>" not in doc
    assert '<html lang="zh">' in doc
    assert 'content="&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; 标题"' in doc
    assert "<p>text</p>" in doc
    title_only = index_document("进度", "<p>每篇文章的进度</p>", "zh", title_only=True)
    assert "每篇文章" not in title_only and "<h1" in title_only


def test_a_long_page_is_cut_between_top_level_elements_with_its_headings() -> None:
    # Sections of about one and a half parts each, so that some parts start inside one.
    per_section = 3 * pagefind.PART_BYTES // 2 // len(para("P001", "word " * 80, "字" * 120))
    body = "".join(
        f'<h2 id="s{s}">第 {s} 节<a class="headerlink" href="#s{s}">¶</a></h2>'
        + "".join(
            para(f"P{s * per_section + n:03d}", "word " * 80, "字" * 120)
            for n in range(per_section)
        )
        for s in range(1, 6)
    )
    parts = split_content(body)
    assert len(parts) > 3
    assert "".join(p.html for p in parts) == body
    assert parts[0].section == ""
    for part in parts:
        assert part.html.startswith(("<h2", '<div class="dz-para"'))
        assert len(part.html) < 3 * pagefind.PART_BYTES
    later = [p for p in parts[1:] if not p.html.startswith("<h2")]
    assert later and all(re.fullmatch(r"第 \d 节", p.section) for p in later)
    assert all(p.section_id == f"s{p.section.split()[1]}" for p in later)
    docs = page_documents("a/", "Article", body, "zh")
    assert next(iter(docs)) == "a/index.html"
    assert all(re.fullmatch(r"a/index(\.part-\d+)?\.html", path) for path in docs)
    assert all('data-pagefind-meta="url[content]" content="a/"' in d for d in docs.values())


@given(st.lists(st.sampled_from(["<p>x</p>", "<h2 id='h'>t</h2>", para("P001", "e", "z"), "y"])))
def test_parts_always_join_back_to_the_content(pieces: list[str]) -> None:
    html = "".join(pieces)
    assert "".join(p.html for p in split_content(html, budget=30)) == html


@pytest.mark.parametrize(
    ("language", "code"),
    [("zh", "zh"), ("zh-Hans", "zh"), ("zh_CN", "zh"), (None, "en"), ("x!", "en")],
)
def test_pagefind_language(language: str | None, code: str) -> None:
    assert pagefind_language(language) == code


def test_the_config_block_gets_the_worker_and_stays_json() -> None:
    block = (
        '<script id="__config" type="application/json">'
        '{"base":"..","search":"../assets/javascripts/workers/search.x.min.js","t":"a<b"}'
        "</script>"
    )
    out = search_config(block, "../assets/duizhao/search-worker.js")
    data = json.loads(out[out.index(">") + 1 : out.rindex("</script>")])
    assert data == {"base": "..", "search": "../assets/duizhao/search-worker.js", "t": "a<b"}
    assert "a<b" not in out  # as Jinja's tojson writes it inside <script>
    assert search_config("<p>not Material's</p>", "w.js") == "<p>not Material's</p>"
    out = search_config(block, "w.js", words=64, version="0a1b2c3d")
    assert json.loads(out[out.index(">") + 1 : out.rindex("</script>")])["search"] == (
        "w.js?words=64&v=0a1b2c3d"
    )


# ---------------------------------------------------------------------------------------------
# A site


def fragments(site_dir: Path) -> list[dict[str, Any]]:
    out = []
    for path in sorted((site_dir / "search" / "pagefind" / "fragment").iterdir()):
        data = gzip.decompress(path.read_bytes())
        assert data.startswith(b"pagefind_dcd")
        out.append(json.loads(data[len(b"pagefind_dcd") :]))
    return out


def pagefind_site(make_site: Any, **extra: Any) -> Any:
    config = reader_config(**extra)
    config["plugins"] = [
        p if "duizhao" not in p else {"duizhao": {**p["duizhao"], "search": "pagefind"}}
        for p in config["plugins"]
    ]
    return make_site(FILES, **config)


def test_a_pagefind_site_has_the_index_the_worker_and_no_lunr_documents(make_site: Any) -> None:
    site = pagefind_site(make_site)
    site.build(strict=True)
    out = site.site_dir
    folder = out / "search" / "pagefind"
    assert (folder / "pagefind.js").is_file() and (folder / "pagefind-entry.json").is_file()
    assert list(folder.glob("*.pf_meta")) and list(folder.glob("wasm.*.pagefind"))
    assert not list(folder.glob("pagefind-*ui*")) and not (folder / "pagefind-worker.js").exists()
    assert json.loads((out / "search" / "search_index.json").read_text("utf-8"))["docs"] == []
    served = (out / "assets" / "duizhao" / "search-worker.js").read_text("utf-8")
    source = (Path(pagefind.__file__).parent.parent / "assets" / "search-worker.js").read_text()
    code = [line.strip() for line in source.splitlines() if re.match(r"\s*(var|function) ", line)]
    assert "/*" not in served and code and all(line in served.splitlines() for line in code)
    assert len(served) < 0.8 * len(source)
    html = site.html("a.md")
    config = json.loads(
        re.search(r'id="__config" type="application/json">(.*?)</script>', html, re.S)[1]
    )  # type: ignore[index]
    # The URL names the served worker: a browser's cached older worker is not used.
    version = worker_version(served)
    assert config["search"] == f"../assets/duizhao/search-worker.js?words=64&v={version}"
    shards = list((folder / "words").glob("*.json"))
    assert shards and any("显存" in json.loads(p.read_text("utf-8")) for p in shards)
    assert 'class="md-search"' in html and 'BroadcastChannel("duizhao-search")' in html
    assert "data-search-exclude" not in html
    by_url = {f["meta"].get("url") or f["url"].lstrip("/"): f for f in fragments(out)}
    article = by_url["a/"]
    assert article["meta"]["title"] == "显存与 XCCL"
    ids = [a["id"] for a in article["anchors"]]
    assert ids[:4] == ["_1", "1", "P001", "dz-end"] or "P001" in ids
    assert "dz-end" in ids and "P012" in ids
    assert "显存" in article["content"] and "Activation" in article["content"]
    assert "激活 占用 的 显存" in article["content"]  # jieba's words, for Pagefind
    assert "¶" not in article["content"]


def test_generated_and_digest_pages_are_indexed_by_title_only(make_site: Any) -> None:
    site = pagefind_site(make_site, nav=None)
    site.config["plugins"][1]["duizhao"]["progress_page"] = "progress.md"
    import yaml

    (site.root / "mkdocs.yml").write_text(yaml.safe_dump(site.config, allow_unicode=True), "utf-8")
    from reader_site import fix_tags

    fix_tags(site.root / "mkdocs.yml")
    site.build()
    pages = {f["meta"].get("url") or f["url"].lstrip("/"): f for f in fragments(site.site_dir)}
    assert pages["progress/"]["content"].strip(" .") == "翻译 进度"
    assert set(pages) == {"", "a/", "b/", "progress/"}, set(pages)
    assert "显存" in pages["a/"]["content"]


def test_missing_pagefind_keeps_materials_search_and_says_so(
    make_site: Any, logs: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from duizhao.search import pagefind_feature

    monkeypatch.setattr(pagefind_feature, "available", lambda: False)
    site = pagefind_site(make_site)
    site.build()
    logs.take(r"search: pagefind needs the Python package pagefind\[extended\]", 1)
    assert not (site.site_dir / "search" / "pagefind").exists()
    assert "workers/search" in site.html("a.md")
    assert json.loads((site.site_dir / "search" / "search_index.json").read_text("utf-8"))["docs"]


def test_a_custom_main_html_that_extends_base_is_named(make_site: Any, logs: Any) -> None:
    site = pagefind_site(make_site)
    overrides = site.root / "overrides"
    overrides.mkdir()
    (overrides / "main.html").write_text('{% extends "base.html" %}\n', "utf-8")
    site.config["theme"]["custom_dir"] = "overrides"
    import yaml

    from reader_site import fix_tags

    (site.root / "mkdocs.yml").write_text(yaml.safe_dump(site.config, allow_unicode=True), "utf-8")
    fix_tags(site.root / "mkdocs.yml")
    site.build()
    logs.take(r'main.html extends Material\'s base.html.*extend "duizhao/base.html"', 1)
    (overrides / "main.html").write_text('{% extends "duizhao/base.html" %}\n', "utf-8")
    site.build()
    assert "assets/duizhao/search-worker.js" in site.html("a.md")


def test_serve_dirty_rebuilds_index_the_edited_page_in_the_background(
    make_site: Any, logs: Any
) -> None:
    site = pagefind_site(make_site)
    site.build(serve=True)
    _wait_for(site.site_dir, "显存")
    text = (site.docs / "b.md").read_text("utf-8")
    (site.docs / "b.md").write_text(text + "\n新加的一段：流水线并行。\n", "utf-8")
    time.sleep(0.01)
    site.build(dirty=True)
    logs.take("A 'dirty' build is being performed", 1)
    found = _wait_for(site.site_dir, "新加的一段")
    urls = {f["meta"].get("url") or f["url"].lstrip("/") for f in found}
    assert {"a/", "b/", ""} <= urls  # the pages this rebuild did not render are kept


# ---------------------------------------------------------------------------------------------
# A whole index or none: Pagefind answers WriteFiles before its last writes are on disk, and
# the package's client terminated the binary at once (a loaded build wrote pagefind.js as 32,768 of
# 45,555 bytes). The write step is made to cut a file as that build did.


class Events:
    """A list kept in a file: appended to by the build's process and by the worker it forks
    (:mod:`duizhao.search.worker`), read in the test's."""

    def __init__(self) -> None:
        handle, name = tempfile.mkstemp(prefix="duizhao-events-")
        os.close(handle)
        self.path = Path(name)

    def append(self, event: object) -> None:
        with self.path.open("a", encoding="utf-8") as out:
            out.write(f"{event}\n")

    def items(self) -> list[str]:
        return self.path.read_text("utf-8").splitlines()

    def __len__(self) -> int:
        return len(self.items())


def _cut_writes(
    monkeypatch: pytest.MonkeyPatch, cuts: list[bool], late: float | None = None
) -> Events:
    """Each ``WriteFiles`` asked of Pagefind writes, then cuts ``pagefind.js`` to 32,768 bytes
    if its entry of ``cuts`` says so (the rest: whole) before its answer is given; with
    ``late``, the cut bytes land that many seconds later, as a write still queued in
    Pagefind's writer threads."""
    import threading
    from concurrent.futures import Future

    real = pagefind._write_files
    written = Events()

    def write_files(service: Any, index: int, out: Path) -> Future[dict[str, Any]]:
        answer, relayed = real(service, index, out), Future()  # type: ignore[var-annotated]

        def cut(answer: Future[dict[str, Any]]) -> None:
            written.append(out)
            if cuts[len(written) - 1] if len(written) <= len(cuts) else False:
                script = out / "pagefind.js"
                whole = script.read_bytes()
                script.write_bytes(whole[:32768])
                if late is not None:
                    threading.Timer(late, lambda: script.write_bytes(whole)).start()
            relayed.set_result(answer.result())

        answer.add_done_callback(cut)
        return relayed

    monkeypatch.setattr(pagefind, "_write_files", write_files)
    return written


def test_a_cut_pagefind_js_is_never_swapped_in_and_is_named(
    make_site: Any, logs: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pagefind, "SETTLE_SECONDS", 0.3, raising=False)
    written = _cut_writes(monkeypatch, [True, True])
    site = pagefind_site(make_site)
    site.build()
    assert len(written) == 2  # written once more
    (line,) = logs.take(r"DZ208", 1)
    assert line.endswith(
        "mkdocs.yml:1: DZ208 search index incomplete: pagefind.js is 32,768 of 45,555 bytes; "
        "search/pagefind/ was left as it was (the next build writes it again)"
    ), line
    search = site.site_dir / "search"
    assert not (search / "pagefind").exists()  # a clean build had none: none, not half of one
    assert not [p for p in search.iterdir() if p.name.startswith(".pagefind")]


def test_the_old_index_stays_when_the_new_one_is_cut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = {"a/index.html": "<html><body><h1>A</h1><p>memory 显存</p></body></html>"}
    pagefind.write_index(docs, tmp_path, "en")
    folder = tmp_path / "search" / "pagefind"
    before = {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    monkeypatch.setattr(pagefind, "SETTLE_SECONDS", 0.2, raising=False)
    _cut_writes(monkeypatch, [True, True])
    with pytest.raises(
        pagefind.IncompleteIndexError, match=r"pagefind\.js is 32,768 of 45,555 bytes"
    ):
        pagefind.write_index({**docs, "b/index.html": docs["a/index.html"]}, tmp_path, "en")
    after = {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert after == before
    assert [p.name for p in folder.parent.iterdir()] == ["pagefind"]


def test_a_write_still_queued_is_waited_for(
    make_site: Any, logs: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = _cut_writes(monkeypatch, [True], late=0.4)
    site = pagefind_site(make_site)
    site.build()
    assert len(written) == 1  # waited for, not written again
    script = site.site_dir / "search" / "pagefind" / "pagefind.js"
    assert len(script.read_bytes()) == 45555 and script.read_bytes().rstrip().endswith(b"};")
    assert "显存" in json.dumps(fragments(site.site_dir), ensure_ascii=False)


def test_an_index_cut_once_is_written_again(
    make_site: Any, logs: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pagefind, "SETTLE_SECONDS", 0.3, raising=False)
    written = _cut_writes(monkeypatch, [True, False])
    site = pagefind_site(make_site)
    site.build()
    assert len(written) == 2
    assert len((site.site_dir / "search" / "pagefind" / "pagefind.js").read_bytes()) == 45555


def test_the_check_names_what_is_missing_or_cut(tmp_path: Path) -> None:
    from duizhao.search.pagefind_check import IndexCheck, decode_cbor

    docs = {
        f"p{i}/index.html": f"<html><body><h1>T{i}</h1><p>memory word{i}</p></body></html>"
        for i in range(3)
    }
    pagefind.write_index(docs, tmp_path, "en")
    folder = tmp_path / "search" / "pagefind"
    assert IndexCheck(folder).problems() == []
    fragment = sorted((folder / "fragment").iterdir())[0]
    fragment.write_bytes(fragment.read_bytes()[:-3])
    chunk = sorted((folder / "index").iterdir())[0]
    chunk.unlink()
    (problem,) = IndexCheck(folder).problems()
    assert problem.startswith(f"fragment/{fragment.name} is cut short (")
    assert problem.endswith("(and 1 more files not whole)")
    (folder / "pagefind.js").write_bytes(b"")
    entry = folder / "pagefind-entry.json"
    entry.write_bytes(entry.read_bytes()[:40])
    assert IndexCheck(folder).problems() == [
        "pagefind.js is cut short (0 bytes, not ending as Pagefind's script)",
        "pagefind-entry.json is missing or not whole (its JSON breaks off at character 38)",
    ]
    assert decode_cbor(bytes([0x82, 0x01, 0x62]) + b"ab") == [1, "ab"]
    for cut in (bytes([0x82, 0x01]), bytes([0x62, 0x61]), bytes([0x9F])):
        with pytest.raises(ValueError):
            decode_cbor(cut)


def _wait_for(site_dir: Path, text: str, timeout: float = 60) -> list[dict[str, Any]]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            found = fragments(site_dir)
        except (OSError, ValueError):
            found = []
        if any(text in f["content"].replace(" ", "") for f in found):
            return found
        time.sleep(0.1)
    raise AssertionError(f"{text!r} never indexed")


@given(
    st.lists(
        st.sampled_from(
            ["<p>", "</p>", '<a title="段落 P001">', "</a>", "显存与通信", "、", "x\x00y", " ", "<"]
        ),
        max_size=20,
    )
)
def test_segmenting_a_page_at_once_is_segmenting_each_text(pieces: list[str]) -> None:
    """The texts between tags are segmented in one call (joined by U+0000, or one by one when
    the page holds it); tags and their attributes are never segmented."""
    from duizhao import htmlscan
    from duizhao.search.pagefind import Words, segment_text

    html = "".join(pieces)

    def cut(text: str) -> tuple[str, ...]:
        return tuple(text)  # a character a word: every Han run is cut

    expected, last, words = [], 0, Words(cut)
    for m in htmlscan.markup(html):
        expected += (words(html[last : m.start]), html[m.start : m.end])
        last = m.end
    expected.append(words(html[last:]))
    assert segment_text(html, Words(cut)) == "".join(expected)


# ---------------------------------------------------------------------------------------------
# Indexing while the site builds: each page's documents go to Pagefind's service as the page is
# rendered, and the index is asked for at on_env, not after the build.


def test_a_build_asks_for_the_index_before_its_pages_are_written(
    make_site: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from duizhao.search import pagefind_feature

    events = Events()
    real_write, real_post = pagefind._write_files, pagefind_feature.PagefindFeature.on_post_build

    def write_files(*args: Any) -> Any:
        events.append("WriteFiles")
        return real_write(*args)

    def post(self: Any, build: Any) -> None:
        events.append("on_post_build")
        real_post(self, build)

    monkeypatch.setattr(pagefind, "_write_files", write_files, raising=False)
    monkeypatch.setattr(pagefind_feature.PagefindFeature, "on_post_build", post)
    site = pagefind_site(make_site)
    site.build(strict=True)
    assert events.items() == ["WriteFiles", "on_post_build"]
    by_url = {f["meta"].get("url") or f["url"].lstrip("/"): f for f in fragments(site.site_dir)}
    assert "激活 占用 的 显存" in by_url["a/"]["content"]
    search = site.site_dir / "search"
    assert not [p for p in search.iterdir() if p.name.startswith(".pagefind")]


def _page(words: str) -> str:
    return f"<html><body><h1>T</h1><p>{words}</p></body></html>"


def test_documents_the_site_does_not_keep_as_sent_are_indexed_afresh(tmp_path: Path) -> None:
    """A page rendered again with other content, and a page sent but left out of the site:
    Pagefind cannot take a page back, so the index is made from the site's documents."""
    indexing = pagefind.Indexing(tmp_path, "en")
    indexing.add("a/index.html", _page("alpha"))
    indexing.add("a/index.html", _page("beta"))
    indexing.add("c/index.html", _page("gamma"))
    indexing.write({"a/index.html": _page("beta"), "b/index.html": _page("delta")})
    stats = indexing.finish()
    assert (stats.pages, stats.documents) == (2, 2)
    text = " ".join(f["content"] for f in fragments(tmp_path))
    assert "beta" in text and "delta" in text
    assert "alpha" not in text and "gamma" not in text


def test_documents_sent_as_pages_render_make_the_index_the_batch_makes(tmp_path: Path) -> None:
    docs = {f"p{i}/index.html": _page(f"memory word{i} 显存") for i in range(5)}
    pagefind.write_index(docs, tmp_path / "batch", "und")
    indexing = pagefind.Indexing(tmp_path / "streamed", "und")
    for path, document in docs.items():
        indexing.add(path, document)
    indexing.write(docs)
    assert indexing.finish() == pagefind.IndexStats(5, 5, 0)

    def contents(site: Path) -> list[tuple[str, str]]:
        return sorted((f["url"], f["content"]) for f in fragments(site))

    assert contents(tmp_path / "streamed") == contents(tmp_path / "batch")


def test_the_service_reads_answers_as_they_come() -> None:
    """The ``pagefind`` package's client reads one answer every 0.1 s: 200 documents sent one
    at a time would wait 20 s for their answers."""
    from duizhao.search.service import Service

    with Service(pagefind._executable()) as service:
        index = pagefind._new_index(service, "en", ())
        start = time.monotonic()
        answers = [
            service.request(
                {
                    "type": "AddFile",
                    "index_id": index,
                    "file_path": f"p{i}/index.html",
                    "url": None,
                    "file_contents": _page(f"word{i}"),
                }
            )
            for i in range(200)
        ]
        assert all(a.result(60)["type"] == "IndexedFile" for a in answers)
        assert time.monotonic() - start < 10


def test_a_stopped_service_fails_what_it_has_not_answered() -> None:
    from duizhao.search.service import Service, ServiceError

    service = Service(pagefind._executable())
    service.close()
    with pytest.raises(ServiceError, match="Pagefind's service"):
        service.request({"type": "NewIndex", "config": {}}).result(5)


def test_a_failed_build_ends_the_service_and_leaves_nothing(tmp_path: Path) -> None:
    indexing = pagefind.Indexing(tmp_path, "en")
    indexing.add("a/index.html", _page("alpha"))
    indexing.write({"a/index.html": _page("alpha")})
    assert indexing.staging is not None and indexing.staging.is_dir()
    indexing.close()
    assert indexing.service._process.poll() is not None
    assert not list((tmp_path / "search").iterdir())


# ---------------------------------------------------------------------------------------------
# The documents made in a worker process that the build forks (duizhao.search.worker): jieba and
# the cut into parts run beside the build's thread, not on it.


def _document_makers(monkeypatch: pytest.MonkeyPatch) -> Events:
    """The process ids that make a page's documents, one per page, in the order made."""
    from duizhao.search import site_index

    makers = Events()
    real = site_index.page_documents

    def documents(*args: Any, **kwargs: Any) -> Any:
        makers.append(os.getpid())
        return real(*args, **kwargs)

    monkeypatch.setattr(site_index, "page_documents", documents)
    return makers


def test_a_build_makes_its_documents_in_a_worker_not_on_its_own_thread(
    make_site: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from duizhao.search import pagefind_feature

    makers = _document_makers(monkeypatch)
    site = pagefind_site(make_site)
    site.build(strict=True)  # a small site: made on the build's thread (a worker costs more)
    assert len(makers) >= 3 and set(makers.items()) == {str(os.getpid())}
    monkeypatch.setattr(pagefind_feature, "FORK_MIN_CHARACTERS", 100)
    # threads other tests of this process left running (a browser's, a pool's) would make the
    # build keep its documents (test_a_build_with_other_threads_running_does_not_fork)
    monkeypatch.setattr(pagefind_feature.threading, "active_count", lambda: 1)
    (site.root / ".cache").rename(site.root / "cache-before")
    made = len(makers)
    site.build(strict=True)
    pids = set(makers.items()[made:])
    assert len(makers) - made >= 3 and len(pids) == 1 and str(os.getpid()) not in pids
    by_url = {f["meta"].get("url") or f["url"].lstrip("/"): f for f in fragments(site.site_dir)}
    assert "激活 占用 的 显存" in by_url["a/"]["content"]
    search = site.site_dir / "search"
    assert not [p for p in search.iterdir() if p.name.startswith(".pagefind")]


def test_a_build_with_other_threads_running_does_not_fork(
    make_site: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forking a process with other threads (a crop pool's manager, a plugin's own) may copy a
    lock another thread holds: the documents are then made in the build's process."""
    from duizhao.search import pagefind_feature

    makers = _document_makers(monkeypatch)
    monkeypatch.setattr(pagefind_feature, "FORK_MIN_CHARACTERS", 100)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()
    try:
        site = pagefind_site(make_site)
        site.build(strict=True)
    finally:
        stop.set()
        other.join()
    assert len(makers) >= 3 and set(makers.items()) == {str(os.getpid())}
    by_url = {f["meta"].get("url") or f["url"].lstrip("/"): f for f in fragments(site.site_dir)}
    assert "激活 占用 的 显存" in by_url["a/"]["content"]


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return True
    return state in ("Z", "X")  # ended (a zombie until its new parent reaps it)


def test_a_failed_build_ends_the_worker_and_its_service_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from duizhao.search import service
    from duizhao.search.site_index import SiteIndex
    from duizhao.search.worker import IndexProcess

    services = Events()
    real, real_close = service.Service.__init__, service.Service.close

    def start(self: Any, executable: Path) -> None:
        real(self, executable)
        services.append(self._process.pid)

    def close(self: Any) -> None:  # as on a loaded machine: the build's SIGTERM comes meanwhile
        time.sleep(0.5)
        real_close(self)

    monkeypatch.setattr(service.Service, "__init__", start)
    monkeypatch.setattr(service.Service, "close", close)
    worker = IndexProcess(SiteIndex(tmp_path, "zh"))
    worker.page("a/", "A", "<p>显存 memory</p>", False)
    worker.env({"a/"})
    deadline = time.monotonic() + 30
    while not list((tmp_path / "search").glob(".pagefind-*")) and time.monotonic() < deadline:
        time.sleep(0.05)  # the worker has asked Pagefind for the index
    worker.close()  # as on_build_error does
    assert worker._process.exitcode is not None
    assert services.items() and all(_gone(int(pid)) for pid in services.items())
    assert not list((tmp_path / "search").iterdir())


def _index_files(site_dir: Path) -> dict[str, bytes]:
    folder = site_dir / "search" / "pagefind"
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_a_page_whose_content_did_not_change_is_not_segmented_again(
    make_site: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each page's documents are kept in the cache folder by a digest of what they are made
    from: a second build makes none, and writes the same index, byte for byte."""
    from duizhao.search import pagefind_feature, site_index

    made = Events()
    real = site_index.page_documents

    def documents(url: str, *args: Any, **kwargs: Any) -> Any:
        made.append(url)
        return real(url, *args, **kwargs)

    monkeypatch.setattr(site_index, "page_documents", documents)
    monkeypatch.setattr(pagefind_feature, "FORK_MIN_CHARACTERS", 100)  # in the worker
    site = pagefind_site(make_site)
    site.build(strict=True)
    first, pages = _index_files(site.site_dir), len(made)
    cached = site.root / ".cache" / "duizhao" / "search" / "documents"
    assert pages >= 3 and len(list(cached.glob("*.json"))) == pages
    site.build(strict=True)
    assert len(made) == pages  # none made again
    assert _index_files(site.site_dir) == first
    text = (site.docs / "b.md").read_text("utf-8")
    (site.docs / "b.md").write_text(text + "\n新加的一段：流水线并行。\n", "utf-8")
    site.build(strict=True)
    assert "b/" in made.items()[pages:] and "a/" not in made.items()[pages:]
    assert len(list(cached.glob("*.json"))) == pages  # the old b/ is gone
    assert "新加 的 一段" in json.dumps(fragments(site.site_dir), ensure_ascii=False)


def test_the_cache_key_follows_every_input_of_the_documents(tmp_path: Path) -> None:
    from duizhao.search.documents_cache import DocumentsCache

    base = DocumentsCache(tmp_path, "dictionaries A")
    key = base.key("a/", "T", "<p>显存</p>", "zh", False)
    assert key == DocumentsCache(tmp_path, "dictionaries A").key(
        "a/", "T", "<p>显存</p>", "zh", False
    )
    others = {
        DocumentsCache(tmp_path, "dictionaries B").key("a/", "T", "<p>显存</p>", "zh", False),
        base.key("b/", "T", "<p>显存</p>", "zh", False),
        base.key("a/", "U", "<p>显存</p>", "zh", False),
        base.key("a/", "T", "<p>显存 </p>", "zh", False),
        base.key("a/", "T", "<p>显存</p>", "en", False),
        base.key("a/", "T", "<p>显存</p>", "zh", True),
    }
    assert key not in others and len(others) == 6
    base.put(key, {"a/index.html": "<html></html>"}, {"显存"})
    assert base.get(key) == ({"a/index.html": "<html></html>"}, {"显存"})
    (tmp_path / f"{key}.json").write_text("{cut", "utf-8")
    assert base.get(key) is None  # unreadable: made again


def test_the_code_digest_covers_every_module_that_makes_a_pages_documents(tmp_path: Path) -> None:
    """Every duizhao module that runs while a page's documents are made, kept and read back
    is in MAKERS: a change to its code is a change to every page's key."""
    import duizhao
    from duizhao.search import documents_cache
    from duizhao.search.documents_cache import MAKERS, DocumentsCache
    from duizhao.search.site_index import SiteIndex

    package = Path(duizhao.__file__).parent
    here = Path(documents_cache.__file__).parent
    makers = {(here / name).resolve() for name in MAKERS}
    ran: set[Path] = set()

    def profile(frame: Any, event: str, _arg: Any) -> None:
        if event == "call":
            ran.add(Path(frame.f_code.co_filename).resolve())

    site = SiteIndex(tmp_path / "site", "zh", streaming=False)
    site.cache = DocumentsCache(tmp_path / "cache", "salt")
    html = '<h2 id="s">第一节</h2><p>显存 memory &amp; <code>x</code></p><!-- c --><br>'
    sys.setprofile(profile)
    try:
        site.page("a/", "显存 & T", html, False)  # made and kept
        site.page("a/", "显存 & T", html, False)  # read back
    finally:
        sys.setprofile(None)
    ours = {path for path in ran if package in path.parents}
    assert ours and ours <= makers, sorted(str(p.relative_to(package)) for p in ours - makers)


@pytest.mark.parametrize(
    "text",
    [
        '{"documents": {"a/index.html": "<html></html>"}, "words": [["显存"]]}',
        '{"documents": {"a/index.html": 1}, "words": []}',
        '{"documents": {"a/index.html": "<html></html>"}, "words": [1]}',
    ],
)
def test_a_cache_file_of_the_wrong_shape_is_made_again(tmp_path: Path, text: str) -> None:
    """A file that is JSON but not documents (corrupted, or another format) is a miss,
    never a crash or documents that are not text."""
    from duizhao.search.documents_cache import DocumentsCache

    cache = DocumentsCache(tmp_path, "salt")
    key = cache.key("a/", "T", "<p>显存</p>", "zh", False)
    (tmp_path / f"{key}.json").write_text(text, "utf-8")
    assert cache.get(key) is None
