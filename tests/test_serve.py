"""``mkdocs serve`` for real: an edit to an article's 导言 reaches the index page, and the
browser reloads by itself (live reload breaks with some click releases; constraints.txt pins
the one verified here)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from conftest import Logs, Site

SITE_PLUGIN = {"duizhao": {"site": {"sections": {"topics": "1-Topics"}}}}
#: Generous: this is a deadline for a correct result, not a speed test (that is bench/).
DEADLINE = 30.0


def article(title: str, intro: str, weight: int) -> str:
    return f"---\ntitle: {title}\nweight: {weight}\n---\n\n# {title}\n\n## 导言\n\n{intro}\n"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return str(response.read().decode("utf-8"))
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None


def wait_for(check: Callable[[], bool], what: str) -> None:
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"gave up waiting for {what}")


@contextmanager
def serve(site: Site, *flags: str) -> Iterator[str]:
    port = free_port()
    log = site.root / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}", *flags],
            cwd=site.root,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        )
        url = f"http://127.0.0.1:{port}/"
        try:
            wait_for(lambda: fetch(url) is not None or proc.poll() is not None, "mkdocs serve")
            assert proc.poll() is None, log.read_text(encoding="utf-8")
            yield url
        finally:
            proc.terminate()
            proc.wait(timeout=10)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture
def tiny(make_site: Callable[..., Site]) -> Site:
    return make_site(
        {
            "index.md": "# 首页\n\n<!-- duizhao:digest -->\n",
            "topics/a.md": article("Alpha", "旧的导言。", 1),
            "topics/b.md": article("Bravo", "乙。", 2),
        },
        plugins=[SITE_PLUGIN],
    )


@pytest.mark.parametrize("flags", [("--dirty",), ()], ids=["dirty", "full"])
def test_serve_updates_the_index_after_an_edit(tiny: Site, flags: tuple[str, ...]) -> None:
    with serve(tiny, *flags) as url:
        assert "旧的导言" in (fetch(url + "topics/") or "")
        edit(tiny.docs / "topics/a.md", "旧的导言", "新的导言")
        for page in ("topics/", "", "topics/a/"):
            wait_for(lambda p=page: "新的导言" in (fetch(url + p) or ""), f"/{page} updated")
            assert "旧的导言" not in (fetch(url + page) or "")
    log = (tiny.root / "serve.log").read_text(encoding="utf-8")
    assert ("A 'dirty' build is being performed" in log) == bool(flags), log


@pytest.fixture
def chromium_page(browser: Any) -> Iterator[Any]:
    """A fresh page of pytest-playwright's headless Chromium (conftest's launch args)."""
    page = browser.new_page()
    try:
        yield page
    finally:
        page.close()


@pytest.mark.browser
def test_browser_reloads_by_itself_after_an_edit(tiny: Site, chromium_page: Any) -> None:
    page = chromium_page
    with serve(tiny, "--dirty") as url:
        for target, source in (("topics/a/", "topics/a.md"), ("topics/", "topics/a.md")):
            page.goto(url + target)
            assert "旧的导言" in page.inner_text("article")
            page.evaluate("window.__notReloaded = true")
            edit(tiny.docs / source, "旧的导言", "新的导言")
            page.wait_for_function(
                "document.querySelector('article')?.innerText.includes('新的导言')",
                timeout=DEADLINE * 1000,
            )
            # the page itself reloaded (live reload), nobody navigated it
            assert page.evaluate("window.__notReloaded === undefined")
            edit(tiny.docs / source, "新的导言", "旧的导言")
            page.wait_for_function(
                "document.querySelector('article')?.innerText.includes('旧的导言')",
                timeout=DEADLINE * 1000,
            )


def test_serve_with_a_poll_interval_updates_the_index(make_site: Callable[..., Site]) -> None:
    """`serve_poll_interval` swaps the watcher before anything is watched: MkDocs' own watches
    (docs_dir, mkdocs.yml) land on it and an edit is still seen."""
    plugin = {"duizhao": {**SITE_PLUGIN["duizhao"], "serve_poll_interval": 0.1}}
    site = make_site(
        {"index.md": "# 首页\n", "topics/a.md": article("Alpha", "旧的导言。", 1)}, plugins=[plugin]
    )
    with serve(site, "--dirty") as url:
        edit(site.docs / "topics/a.md", "旧的导言", "新的导言")
        wait_for(lambda: "新的导言" in (fetch(url + "topics/") or ""), "/topics/ updated")


def _on_serve(site: Site, *, native: bool = False, theme: bool = False) -> tuple[Any, Any]:
    """The server before and after the plugins' on_serve, made and watched as `mkdocs serve`
    (MkDocs 1.6) does: docs_dir and mkdocs.yml are watched before on_serve."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.livereload import LiveReloadServer
    from watchdog.observers import Observer

    config = load_config(str(site.root / "mkdocs.yml"), site_dir=str(site.site_dir))
    config.plugins.on_startup(command="serve", dirty=True)
    build(config)
    before = LiveReloadServer(
        builder=lambda: None, host="127.0.0.1", port=free_port(), root=str(site.site_dir)
    )
    if native:  # a watcher of another kind (a later MkDocs, another plugin)
        before.observer = Observer()
    before.watch(config.docs_dir)
    before.watch(config.config_file_path)
    if theme:  # `mkdocs serve --watch-theme`
        for folder in config.theme.dirs:
            before.watch(folder)
    after = config.plugins.on_serve(before, config=config, builder=before.builder)
    after.server_close()
    return before, after


def _watched(server: Any) -> set[tuple[str, bool]]:
    return {(e.watch.raw_path, e.watch.is_recursive) for e in server.observer.emitters}


@pytest.mark.parametrize("option", [0.1, None])
def test_poll_interval_serves_with_the_same_watches(
    make_site: Callable[..., Site], option: float | None
) -> None:
    plugin = {"duizhao": {} if option is None else {"serve_poll_interval": option}}
    site = make_site({"a.md": "# A\n"}, plugins=[plugin])
    before, after = _on_serve(site)
    assert after.observer.timeout == (option or 0.5)
    assert (after is before) == (option is None)
    assert (
        _watched(after)
        == _watched(before)
        == {
            (str(site.docs), True),
            (str(site.root / "mkdocs.yml"), False),  # (a file: watched through its folder)
        }
    )
    assert (after.url, after.root, after.builder) == (before.url, before.root, before.builder)
    assert after.error_handler is before.error_handler


def test_poll_interval_is_not_applied_to_a_watched_theme(make_site: Callable[..., Site]) -> None:
    """Under `--watch-theme` the installed theme's thousands of files are watched: polling them
    five times as often would keep a core busy, so MkDocs' own server stays."""
    site = make_site({"a.md": "# A\n"}, plugins=[{"duizhao": {"serve_poll_interval": 0.1}}])
    before, after = _on_serve(site, theme=True)
    assert after is before and after.observer.timeout == 0.5


def test_poll_interval_leaves_another_watcher(make_site: Callable[..., Site], logs: Logs) -> None:
    site = make_site({"a.md": "# A\n"}, plugins=[{"duizhao": {"serve_poll_interval": 0.1}}])
    before, after = _on_serve(site, native=True)
    assert after is before


@pytest.mark.parametrize("value", [0, 0.01, 60, "fast", True])
def test_poll_interval_is_validated(
    make_site: Callable[..., Site], logs: Logs, value: object
) -> None:
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    site = make_site({"a.md": "# A\n"}, plugins=[{"duizhao": {"serve_poll_interval": value}}])
    with pytest.raises(Abort):
        load_config(str(site.root / "mkdocs.yml"))
    assert logs.take(r"option 'serve_poll_interval': expected (a number of )?seconds", 1)
