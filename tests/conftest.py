"""Shared fixtures: tiny MkDocs sites built in tmp_path, strict log capture, Chromium."""

from __future__ import annotations

import logging
import os
import re
import shutil
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import settings

os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")

#: No property test is timed: on this shared 2-core machine one example can take over
#: Hypothesis' default 200 ms deadline (a first call that loads jieba, a loaded core), which
#: fails a correct test (test_segmenting_a_page_at_once_is_segmenting_each_text did, at load 15).
#: Hangs are caught by the watchdogs; speed is measured in bench/.
settings.register_profile("duizhao", deadline=None)
settings.load_profile("duizhao")

ROOT = Path(__file__).resolve().parent.parent

# ---------------------------------------------------------------------------------------------
# Log capture: a warning that a test does not claim with `logs.take(...)` fails the test.


class Logs:
    def __init__(self, caplog: pytest.LogCaptureFixture) -> None:
        self._caplog = caplog
        self._taken: set[int] = set()

    def records(self, level: int = logging.WARNING) -> list[logging.LogRecord]:
        # every phase: at teardown caplog.records holds the teardown's records alone
        phases = [self._caplog.get_records(when) for when in ("setup", "call", "teardown")]
        return [
            r
            for records in phases
            for r in records
            if r.levelno >= level and id(r) not in self._taken and _counted(r)
        ]

    def messages(self, level: int = logging.WARNING) -> list[str]:
        return [r.getMessage() for r in self.records(level)]

    def take(self, pattern: str, count: int | None = None) -> list[str]:
        """Claim the warnings matching ``pattern`` (a regex); assert how many if given."""
        found = [r for r in self.records() if re.search(pattern, r.getMessage())]
        if count is not None:
            assert len(found) == count, (pattern, [r.getMessage() for r in self.records()])
        self._taken.update(id(r) for r in found)
        return [r.getMessage() for r in found]


def _counted(record: logging.LogRecord) -> bool:
    # jieba and Material's end-of-life notice are not ours to judge.
    return not record.name.startswith(("jieba",))


@pytest.fixture(autouse=True)
def logs(caplog: pytest.LogCaptureFixture) -> Iterator[Logs]:
    caplog.set_level(logging.INFO)
    capture = Logs(caplog)
    _LEAKS.clear()
    yield capture
    left = capture.messages()
    assert not left, f"unexpected warnings: {left}"
    for when in ("setup", "call", "teardown"):
        for record in caplog.get_records(when):
            if record.levelno >= logging.WARNING and _counted(record):
                scan_message(record.getMessage(), "log")
    leaks, _LEAKS[:] = list(_LEAKS), []
    assert not leaks, f"Python's words reach a user (issue 19): {leaks}"


# ---------------------------------------------------------------------------------------------
# Messages in words: every diagnostic duizhao makes, every warning logged and every CLI output
# a test captures is scanned for what only Python says (an exception's class name, a traceback,
# a repr). Issue 19.

_PYTHON_WORDS_RE = re.compile(
    r"\b[A-Z][a-zA-Z]*(?:Error|Exception|Warning)\b|Traceback \(most recent|"
    # a bytes repr: b'…' holding an escape (b'\\xff'); a bare "b'" is an author's text
    # quoted in a message ("'a b'")
    r"<[\w.]+ object at 0x|\bb'[^'\n]*\\[xnrt0][^'\n]*'|\bb\"[^\"\n]*\\[xnrt0][^\"\n]*\""
)
#: Words that look like Python's but are an author's text a message quotes, or not Python's.
ALLOWED_WORDS = frozenset({"DeprecationWarning"})
_LEAKS: list[str] = []


def scan_message(text: str, where: str) -> None:
    """Record ``text`` if it holds an exception name, a traceback or a repr (cheap: one
    regex search; most messages have no capital followed by 'Error')."""
    for m in _PYTHON_WORDS_RE.finditer(text):
        if m.group() not in ALLOWED_WORDS:
            _LEAKS.append(f"{where}: {text[:300]!r}")
            return


def _install_scanners() -> None:
    from click.testing import CliRunner

    from duizhao.diagnostics import Diagnostic

    init = Diagnostic.__init__

    def scanned_init(self: Diagnostic, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        scan_message(self.message, f"diagnostic {self.code}")

    Diagnostic.__init__ = scanned_init  # type: ignore[method-assign]
    invoke = CliRunner.invoke

    def scanned_invoke(self: CliRunner, *args: Any, **kwargs: Any) -> Any:
        result = invoke(self, *args, **kwargs)
        scan_message(result.output, "CLI output")
        return result

    CliRunner.invoke = scanned_invoke  # type: ignore[method-assign]


_install_scanners()


def fresh_mkdocs_plugins() -> None:
    """Forget the plugin instances MkDocs keeps for the process.

    MkDocs keeps every plugin that defines ``on_startup`` (duizhao, Material's blog) in its
    ``plugins`` option for the life of the process: that is how `mkdocs serve` keeps them
    between rebuilds. In one pytest process, the builds of different tests (or of two projects
    in one test) would then share those instances and their state, which no `mkdocs build`
    process does; a build that must stand alone calls this first.
    """
    from mkdocs.config.defaults import MkDocsConfig

    MkDocsConfig.plugins.plugin_cache.clear()


@pytest.fixture(autouse=True)
def _fresh_plugins() -> None:
    """Each test starts as a new `mkdocs` process would (see :func:`fresh_mkdocs_plugins`)."""
    fresh_mkdocs_plugins()


# ---------------------------------------------------------------------------------------------
# pytest-xdist (`make test` runs two workers, each given whole files: --dist loadfile, so a
# module's fixtures are set up once): the longest files are handed out first, so that neither
# worker is left with a long one at the end. Longest first, as measured: an idle clean clone's
# per-file wall for the eight it gave (test_reader_browser 101 s … test_messages 29 s), the
# others ranked by their wall in one run of all files at load 15 (session 32; test_search_browser
# and test_update_properties placed by what they take since their cuts); a file not listed
# follows in collection order. (A stale list costs balance, never a result.)

LONGEST_FILES = [
    "tests/test_reader_browser.py",
    "tests/test_neutral.py",
    "tests/test_pdfcorpus.py",
    "tests/test_pdf_input.py",
    "tests/test_scaling.py",
    "tests/test_linear_scanners.py",
    "tests/test_messages.py",
    "tests/test_hostile.py",
    "tests/test_search_browser.py",
    "tests/test_redos.py",
    "tests/test_figures.py",
    "tests/test_update_properties.py",
    "tests/test_import_markdown.py",
    "tests/test_escape.py",
    "tests/test_detect.py",
    "tests/test_serve.py",
    "tests/test_instant_browser.py",
    "tests/test_search_pagefind.py",
    "tests/test_neutral_browser.py",
    "tests/test_search_packing.py",
    "tests/test_pdfcorpus_heldout.py",
    "tests/test_import_corpus.py",
    "tests/test_import_pdf.py",
    "tests/test_update_corpus.py",
    "tests/test_fuzz.py",
    "tests/test_reader.py",
    "tests/test_site.py",
]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not hasattr(config, "workerinput"):
        return  # one process: the files in their usual order
    rank = {path: n for n, path in enumerate(LONGEST_FILES)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


# ---------------------------------------------------------------------------------------------
# Tiny sites


@dataclass
class Site:
    root: Path
    site_dir: Path
    config: dict[str, Any] = field(default_factory=dict)

    @property
    def docs(self) -> Path:
        return self.root / "docs"

    def html(self, page: str) -> str:
        """The built HTML of ``page`` ("index.html", "a/b/index.html" or "a/b.md")."""
        if page.endswith(".md"):
            stem = page[:-3]
            page = (
                "index.html"
                if stem == "index"
                else (
                    stem[: -len("index")] + "index.html"
                    if stem.endswith("/index")
                    else f"{stem}/index.html"
                )
            )
        return (self.site_dir / page).read_text(encoding="utf-8")

    def write(self, rel: str, content: str | bytes) -> Path:
        path = self.docs / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content).lstrip("\n"), encoding="utf-8")
        return path

    def build(self, *, strict: bool = False, dirty: bool = False, serve: bool = False) -> None:
        """Build the site. ``serve=True`` starts a session as `mkdocs serve --dirty` does (the
        plugins keep their state for the next builds, which pass ``dirty=True``)."""
        from mkdocs.commands.build import build
        from mkdocs.config import load_config

        cfg = load_config(str(self.root / "mkdocs.yml"), site_dir=str(self.site_dir), strict=strict)
        if serve:
            cfg.plugins.on_startup(command="serve", dirty=True)
        build(cfg, dirty=dirty)


BASE_CONFIG: dict[str, Any] = {
    "site_name": "Test",
    "theme": {"name": "material", "language": "zh", "font": False},
    "plugins": ["duizhao"],
    "markdown_extensions": [
        "attr_list",
        "md_in_html",
        "tables",
        "admonition",
        {"toc": {"permalink": True}},
        "pymdownx.superfences",
        "pymdownx.blocks.details",
    ],
    "validation": {"links": {"anchors": "warn", "unrecognized_links": "warn"}},
}


def _with_vendor_dir(plugin: Any) -> Any:
    """Point duizhao at this checkout's node_modules unless a test says otherwise, and leave
    the translation checks off unless it sets ``quality:`` (the tiny sites' translations are
    placeholders, written for what each test is about)."""
    if plugin == "duizhao":
        plugin = {"duizhao": {}}
    if isinstance(plugin, dict) and isinstance(plugin.get("duizhao"), dict):
        options = plugin["duizhao"]
        return {
            "duizhao": {
                "vendor_dir": str(ROOT / "node_modules"),
                "quality": {"enabled": False},
                **options,
            }
        }
    return plugin


@pytest.fixture
def make_site(tmp_path: Path) -> Callable[..., Site]:
    """``make_site({"a.md": "..."}, plugins=[...])`` writes a project; ``.build()`` builds it."""

    def make(files: dict[str, str | bytes] | None = None, **config: Any) -> Site:
        root = tmp_path / "project"
        root.mkdir(exist_ok=True)
        merged = {**BASE_CONFIG, **config}
        merged["plugins"] = [_with_vendor_dir(p) for p in merged.get("plugins", [])]
        (root / "mkdocs.yml").write_text(yaml.safe_dump(merged, allow_unicode=True), "utf-8")
        site = Site(root, tmp_path / "site", merged)
        site.docs.mkdir(exist_ok=True)
        for rel, content in (files or {}).items():
            site.write(rel, content)
        return site

    return make


@pytest.fixture(scope="session")
def demo_build(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The example site (examples/demo/) built once a run, for the files that only read it
    (test_examples, test_reader_browser): under pytest-xdist the first worker that asks builds
    it in the folder the workers' temporary folders share, behind a file lock; the other
    finds it there. Returns its site folder."""
    from filelock import FileLock

    from demo_site import build_demo

    base = tmp_path_factory.getbasetemp()
    where = (base.parent if worker_id != "master" else base) / "demo-build"
    with FileLock(f"{where}.lock"):
        done = where / "built"
        if not done.exists():
            shutil.rmtree(where, ignore_errors=True)  # a build that stopped half way
            where.mkdir()
            site_dir = build_demo(where)
            done.write_text(str(site_dir), encoding="utf-8")
        return Path(done.read_text(encoding="utf-8"))


@pytest.fixture
def chdir(monkeypatch: pytest.MonkeyPatch) -> Callable[[Path], None]:
    return lambda path: monkeypatch.chdir(path)


# ---------------------------------------------------------------------------------------------
# Chromium (Debian's /usr/bin/chromium; pytest-playwright must not look for its own download)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="session")
def delete_output_dir() -> None:
    """pytest-playwright empties its output folder (test-results/) when a session starts; under
    pytest-xdist every worker would, while the other writes its screenshots there, so the
    folder is emptied once, by the process that starts the run (:func:`pytest_sessionstart`)."""


def pytest_sessionstart(session: pytest.Session) -> None:
    if hasattr(session.config, "workerinput"):
        return  # an xdist worker: the controller has emptied it before starting the workers
    output = Path(session.config.getoption("--output", "test-results"))
    shutil.rmtree(output, ignore_errors=True)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}
