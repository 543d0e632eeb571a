"""The search index's worker and Pagefind's service when things go wrong (issue 24, ninth pass):
a start that fails leaves no descriptor open and no process running; two builds of one site
leave each other's files alone; the documents cache sees a dictionary changed under the same
size and time; a signal during the swap of the index never leaves half of one; the forked
worker segments the glossary's terms whole."""

from __future__ import annotations

import errno
import gzip
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import jieba
import pytest

from duizhao.search import pagefind, service
from duizhao.search.documents_cache import STALE_SECONDS, DocumentsCache
from duizhao.search.pagefind_check import IndexCheck
from duizhao.search.segment import Dictionaries
from duizhao.search.site_index import SiteIndex
from duizhao.search.swap import swap
from duizhao.search.worker import IndexProcess
from test_search_pagefind import _document_makers, _gone, fragments, pagefind_site

ROOT = Path(__file__).resolve().parent.parent


def _descriptors() -> set[int]:
    return {int(name) for name in os.listdir("/proc/self/fd")}


def _stable_descriptors() -> set[int]:
    """This process's open descriptors, once the listing itself is closed."""
    _descriptors()
    return _descriptors()


# ---------------------------------------------------------------------------------------------
# (a) A start that fails


def test_a_service_whose_binary_is_missing_leaves_no_descriptor_open(tmp_path: Path) -> None:
    """Not a bug: subprocess closes both ends of its pipes when the binary cannot be run."""
    before = _stable_descriptors()
    with pytest.raises(OSError):
        service.Service(tmp_path / "no-pagefind")
    assert _descriptors() == before


def test_a_service_whose_threads_cannot_start_ends_its_binary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The binary started, then a thread could not (a process at its thread limit): the binary
    is ended and its pipes closed, not left running with nothing reading its answers."""
    script = tmp_path / "fake-pagefind"
    script.write_text("#!/bin/sh\nexec cat\n", "utf-8")
    script.chmod(0o755)
    started: list[subprocess.Popen[bytes]] = []
    real_popen = subprocess.Popen

    def popen(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        started.append(real_popen(*args, **kwargs))
        return started[-1]

    def no_thread(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(service.subprocess, "Popen", popen)
    before = _stable_descriptors()
    monkeypatch.setattr(service.threading.Thread, "start", no_thread)
    with pytest.raises(RuntimeError):
        service.Service(script)
    monkeypatch.undo()
    assert started and started[0].poll() is not None
    assert _descriptors() == before


def test_a_worker_that_cannot_fork_leaves_no_descriptor_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """os.fork failing (EAGAIN: the process limit) leaves neither the worker's two pipes nor
    multiprocessing's own two open; the build then makes its documents itself."""
    before = _stable_descriptors()

    def no_fork() -> int:
        raise OSError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    with pytest.raises(OSError) as failed:  # the exception (and its frames) still held
        IndexProcess(SiteIndex(tmp_path, "zh"))
    assert failed.value.errno == errno.EAGAIN
    assert _descriptors() == before


def test_a_build_that_cannot_fork_makes_its_documents_itself(
    make_site: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from duizhao.search import pagefind_feature

    makers = _document_makers(monkeypatch)
    monkeypatch.setattr(pagefind_feature, "FORK_MIN_CHARACTERS", 100)
    monkeypatch.setattr(pagefind_feature.threading, "active_count", lambda: 1)
    site = pagefind_site(make_site)

    def no_fork() -> int:
        raise OSError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    before = _stable_descriptors()
    site.build(strict=True)
    assert len(makers) >= 3 and set(makers.items()) == {str(os.getpid())}
    by_url = {f["meta"].get("url") or f["url"].lstrip("/"): f for f in fragments(site.site_dir)}
    assert "激活 占用 的 显存" in by_url["a/"]["content"]
    leaked = _descriptors() - before
    assert not [os.readlink(f"/proc/self/fd/{fd}") for fd in leaked if _is_pipe(fd)]


def _is_pipe(fd: int) -> bool:
    try:
        return os.readlink(f"/proc/self/fd/{fd}").startswith("pipe:")
    except OSError:
        return False


# ---------------------------------------------------------------------------------------------
# (b) Two builds of one site at once


def test_a_build_leaves_another_builds_cache_files_alone(tmp_path: Path) -> None:
    """A whole build prunes the files it did not use, but not another build's file being
    written (``.tmp-*.json``) nor one another build kept after this one began; a temporary
    file left by a build killed long ago goes."""
    folder = tmp_path / "documents"
    first = DocumentsCache(folder, "salt")
    used = first.key("a/", "A", "<p>a</p>", "zh", False)
    first.put(used, {"a/index.html": "<p>a</p>"}, set())
    old = folder / f"{'0' * 64}.json"  # of an earlier build, not used by this one
    old.write_text('{"documents": {}, "words": []}', "utf-8")
    stale = folder / ".tmp-killed.json"
    stale.write_text("{", "utf-8")
    long_ago = time.time() - STALE_SECONDS - 60
    os.utime(old, (long_ago, long_ago))
    os.utime(stale, (long_ago, long_ago))
    second = DocumentsCache(folder, "salt")  # another build, begun after the first
    writing = folder / ".tmp-writing.json"
    writing.write_text('{"documents":', "utf-8")
    theirs = second.key("b/", "B", "<p>b</p>", "zh", False)
    second.put(theirs, {"b/index.html": "<p>b</p>"}, set())
    first.prune()
    left = {path.name for path in folder.iterdir()}
    assert left == {f"{used}.json", f"{theirs}.json", writing.name}


def test_two_swaps_at_once_each_install_a_whole_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Build A moves the old index aside; build B swaps its own in meanwhile; A's index then
    replaces B's (the last one wins), and neither fails nor leaves a folder behind."""
    target = tmp_path / "search" / "pagefind"
    target.mkdir(parents=True)
    (target / "pagefind-entry.json").write_text("old", "utf-8")
    stagings = {}
    for name in ("A", "B"):
        stagings[name] = staging = pagefind._staging(target)
        (staging / "pagefind-entry.json").write_text(name, "utf-8")
    real_replace = os.replace
    nested: list[bool] = []

    def replace(source: Any, destination: Any) -> None:
        real_replace(source, destination)
        if Path(source) == target and not nested:  # A moved the old index aside
            nested.append(True)
            swap(stagings["B"], target)

    monkeypatch.setattr(os, "replace", replace)
    swap(stagings["A"], target)
    monkeypatch.undo()
    assert nested
    assert (target / "pagefind-entry.json").read_text("utf-8") == "A"
    assert [p.name for p in target.parent.iterdir()] == ["pagefind"]


# ---------------------------------------------------------------------------------------------
# (c) The dictionaries' stamps


def _build_naming(user_dict: Path) -> Any:
    search = SimpleNamespace(config={"jieba_dict": None, "jieba_dict_user": str(user_dict)})
    plugins = {"material/search": search}
    return SimpleNamespace(config=SimpleNamespace(plugins=plugins))


def test_a_dictionary_changed_under_the_same_size_and_time_is_a_new_stamp(tmp_path: Path) -> None:
    """Edited within the time's resolution, or copied over with its time kept (``cp -p``,
    ``rsync -t``): the same size and mtime, other words. The cache's key must change."""
    user = tmp_path / "userdict.txt"
    user.write_text("显存墙 5\n", "utf-8")
    stat = user.stat()
    dictionaries = Dictionaries()
    dictionaries.check(_build_naming(user))
    before = dictionaries.stamps
    user.write_text("显存桥 5\n", "utf-8")  # same size
    os.utime(user, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert user.stat().st_size == stat.st_size and user.stat().st_mtime_ns == stat.st_mtime_ns
    dictionaries.check(_build_naming(user))
    assert dictionaries.stamps != before
    folder = tmp_path / "cache"
    keys = {
        DocumentsCache(folder, repr(salt)).key("a/", "A", "<p>显存</p>", "zh", False)
        for salt in (before, dictionaries.stamps)
    }
    assert len(keys) == 2
    unchanged = dictionaries.stamps
    dictionaries.check(_build_naming(user))
    assert dictionaries.stamps == unchanged  # the same file: the same stamp


# ---------------------------------------------------------------------------------------------
# (d) A signal while the index is swapped in, and a build ended while its worker runs


def test_a_signal_during_the_swap_leaves_a_whole_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker's SIGTERM ends it (SystemExit) wherever it is; arriving between moving the
    old index aside and moving the new one in, it is held until the new one is in place."""
    target = tmp_path / "search" / "pagefind"
    target.mkdir(parents=True)
    (target / "pagefind-entry.json").write_text("old", "utf-8")
    staging = pagefind._staging(target)
    (staging / "pagefind-entry.json").write_text("new", "utf-8")

    def ended(_signal: int, _frame: object) -> None:
        raise SystemExit(1)

    real_replace = os.replace

    def replace(source: Any, destination: Any) -> None:
        real_replace(source, destination)
        if Path(source) == target:
            signal.raise_signal(signal.SIGTERM)

    previous = signal.signal(signal.SIGTERM, ended)
    try:
        monkeypatch.setattr(os, "replace", replace)
        with pytest.raises(SystemExit):
            swap(staging, target)
    finally:
        monkeypatch.undo()
        signal.signal(signal.SIGTERM, previous)
    assert (target / "pagefind-entry.json").read_text("utf-8") == "new"
    assert [p.name for p in target.parent.iterdir()] == ["pagefind"]


BUILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from duizhao.search.pagefind import write_index
    from duizhao.search.site_index import SiteIndex
    from duizhao.search.worker import IndexProcess

    site_dir = Path(sys.argv[1])
    page = "<p>显存 memory</p>" * 2000
    write_index({"old/index.html": "<html><body>" + page + "</body></html>"}, site_dir, "zh")
    worker = IndexProcess(SiteIndex(site_dir, "zh"))
    for n in range(40):
        worker.page(f"p{n}/", f"P{n}", page, False)
    worker.env({f"p{n}/" for n in range(40)})
    print(worker._process.pid, flush=True)
    worker.finish()
    print("finished", flush=True)
    time.sleep(60)
    """
)


def _group(pgid: int) -> list[int]:
    """The live processes of the process group ``pgid``."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            out.append(int(entry))
    return out


@pytest.mark.skipif(not pagefind.available(), reason="needs pagefind[extended]")
@pytest.mark.parametrize("whom", ["group", "build"])
@pytest.mark.parametrize("after", [0.0, 0.6, 1.5])
def test_a_build_ended_while_its_worker_indexes_leaves_no_process_and_a_whole_index(
    tmp_path: Path, whom: str, after: float
) -> None:
    """SIGTERM to the build's process group (as ``timeout`` or a service manager sends it) or
    to the build alone, while its worker makes documents, indexes or swaps the index in: no
    worker or Pagefind process outlives it, no staging folder stays, the index in place is
    whole (the old one or the new), and the worker prints no traceback."""
    site_dir = tmp_path / "site"
    errors = tmp_path / "stderr.txt"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "plugins"), *sys.path])}
    with errors.open("wb") as stderr:
        build = subprocess.Popen(
            [sys.executable, "-c", BUILD, str(site_dir)],
            stdout=subprocess.PIPE,
            stderr=stderr,
            env=env,
            start_new_session=True,
        )
        assert build.stdout is not None
        try:
            worker = int(build.stdout.readline() or 0)
            assert worker, errors.read_text("utf-8")
            time.sleep(after)
            if whom == "group":
                os.killpg(build.pid, signal.SIGTERM)
            else:
                build.terminate()
            build.wait(30)
            deadline = time.monotonic() + service.EXIT_SECONDS + 20
            while _group(build.pid) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert _group(build.pid) == []
        finally:
            if _group(build.pid):
                os.killpg(build.pid, signal.SIGKILL)
            build.stdout.close()
    assert _gone(worker)
    search = site_dir / "search"
    assert [p.name for p in search.iterdir()] == ["pagefind"]
    assert IndexCheck(search / "pagefind", pagefind._reference()).problems() == []
    assert "Traceback" not in errors.read_text("utf-8")


def test_a_worker_whose_build_ended_mid_message_ends_quietly(tmp_path: Path) -> None:
    """The build died while writing a page's message to the worker: the worker sees the end
    of its pipe (not a traceback), and ends."""
    import multiprocessing

    from duizhao.search import worker as worker_module

    context = multiprocessing.get_context("fork")
    inbox, send = context.Pipe(duplex=False)
    outbox, _back = context.Pipe(duplex=False)
    os.write(send.fileno(), (1000).to_bytes(4, "big") + b"x" * 10)  # a message cut short
    send.close()
    closed: list[bool] = []
    site = SiteIndex(tmp_path, "zh")
    site.close = lambda: closed.append(True)  # type: ignore[method-assign]
    worker_module._serve(site, inbox, _back, ())
    assert closed == [True]
    outbox.close()


# ---------------------------------------------------------------------------------------------
# (e) The glossary's terms in the forked worker

#: A term jieba cuts in two without the glossary: made up, so no other test of this process
#: has added it to jieba before (the terms are jieba's, process-wide).
TERM = "瀚骊缓存"
GLOSSARY = f"- en: hanli cache\n  zh: {TERM}\n"


def test_the_forked_worker_keeps_the_glossarys_terms_whole(
    make_site: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from duizhao.search import pagefind_feature

    assert TERM not in jieba.lcut(f"{TERM}加快预填充")  # without the glossary: cut
    makers = _document_makers(monkeypatch)
    monkeypatch.setattr(pagefind_feature, "FORK_MIN_CHARACTERS", 100)
    monkeypatch.setattr(pagefind_feature.threading, "active_count", lambda: 1)
    site = pagefind_site(make_site)
    text = (site.docs / "a.md").read_text("utf-8")
    site.write("a.md", text.replace("激活占用的显存", f"激活占用的显存，{TERM}加快预填充", 1))
    (site.root / "glossary.yml").write_text(GLOSSARY, "utf-8")
    site.build(strict=True)
    assert str(os.getpid()) not in makers.items() and len(makers) >= 3  # made in the worker
    by_url = {f["meta"].get("url") or f["url"].lstrip("/"): f for f in fragments(site.site_dir)}
    assert f" {TERM} 加快" in by_url["a/"]["content"]
    shards = site.site_dir / "search" / "pagefind" / pagefind.WORDS_DIR
    words = {w for shard in shards.iterdir() for w in json.loads(shard.read_text("utf-8"))}
    assert TERM in words  # the browser's worker cuts a query at the term too
    assert _indexed_words(site.site_dir) >= {TERM}


def _indexed_words(site_dir: Path) -> set[str]:
    """The words of the Pagefind index's chunks (CBOR: each word a text string)."""
    from duizhao.search.pagefind_check import decode_cbor

    found: set[str] = set()
    for chunk in (site_dir / "search" / "pagefind" / "index").glob("*.pf_index"):
        data = gzip.decompress(chunk.read_bytes())
        data = data[data.index(b"pagefind_dcd") + len(b"pagefind_dcd") :]
        _collect(decode_cbor(data, 64), found)
    return found


def _collect(item: object, found: set[str]) -> None:
    if isinstance(item, str):
        found.add(item)
    elif isinstance(item, list | tuple):
        for sub in item:
            _collect(sub, found)
    elif isinstance(item, dict):
        for sub in item.values():
            _collect(sub, found)
