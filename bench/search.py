"""Benchmark readers' search in Chromium: plain Material, duizhao today, duizhao with Pagefind.

For each back end one site is built from the same generated corpus (bench/corpus.py; or the
real site, ``--real``), served by a small static server of this module that compresses text
as GitHub Pages does (gzip for HTML, CSS, JS, JSON, SVG; Pagefind's files are gzip already)
and counts every byte it sends, the page's and the search worker's alike. Then, in a fresh
browser context each time, Chromium (Playwright, Debian's /usr/bin/chromium) opens an article,
waits for the page load to settle, opens the search box, types the query at once and waits for
the first result. Reported per back end, query and condition:

- **first results**: from the search box's focus to the first result in the list (ms); also
  from the query's input event (``from typing``: the bench's own click and typing left out);
- **search bytes**: what the server sent from opening the box to the first result, plus the
  search files the page load itself fetched (Material's index is fetched at page load);
- **page load**: what the page load fetched of search files (worker, index) before the box
  was opened.

Conditions: unthrottled, and "slow phone": Chromium's 4× CPU throttling
(``Emulation.setCPUThrottlingRate``) and a 1.5 Mbit/s link with 150 ms latency. The link is
emulated by the server for every request (a shared 1.5 Mbit/s budget and 150 ms before each
response), so that the search worker's requests are slowed as surely as the page's;
``--devtools-network`` uses ``Network.emulateNetworkConditions`` instead, for comparison.

    python -m bench.search [--articles 100] [--real] [--queries 显存 memory] [--repeat 3]
        [--backends material duizhao pagefind] [--workdir DIR] [--json out.json]
        [--timeline] [--sites before=SITE after=SITE]
"""

from __future__ import annotations

import argparse
import gzip
import json
import mimetypes
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from bench.corpus import REAL_CONFIG, generate
from bench.run import measure

BIN = Path(sys.executable).parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
#: What GitHub Pages compresses.
COMPRESSED = (".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".map")
#: The targets of issue 24 (first query, N=100 unthrottled; N=1,000).
TARGETS = {100: (500.0, 150_000), 1000: (1000.0, 300_000)}
SLOW = {"cpu": 4, "latency_s": 0.150, "bits_per_s": 1.5e6}
BACKENDS = ("material", "duizhao", "pagefind")
MARKER = "__first_result__"


# ---------------------------------------------------------------------------------------------
# The static server


@dataclass
class Sent:
    at: float
    path: str
    bytes: int


@dataclass
class Link:
    """A shared link: latency before each response, ``bits_per_s`` over all of them."""

    latency_s: float = 0.0
    bits_per_s: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)
    free_at: float = 0.0

    def send(self, write: object, data: bytes) -> None:
        if self.latency_s:
            time.sleep(self.latency_s)
        chunk = 16 * 1024
        for at in range(0, len(data), chunk):
            piece = data[at : at + chunk]
            if self.bits_per_s:
                with self.lock:
                    start = max(time.monotonic(), self.free_at)
                    self.free_at = start + len(piece) * 8 / self.bits_per_s
                    wait = self.free_at - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
            write(piece)  # type: ignore[operator]


class Server:
    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.sent: list[Sent] = []
        self.first_at = 0.0
        self.link = Link()
        self._gz: dict[Path, bytes] = {}
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                server.handle(self)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def handle(self, h: BaseHTTPRequestHandler) -> None:
        rel = unquote(urlsplit(h.path).path).lstrip("/")
        if rel == MARKER:  # the page saw its first result: what was sent until now counts
            with self._lock:
                self.first_at = time.monotonic()
            h.send_response(204)
            h.send_header("Content-Length", "0")
            h.end_headers()
            return
        path = (self.root / rel).resolve()
        if path.is_dir():
            path = path / "index.html"
        if not path.is_relative_to(self.root) or not path.is_file():
            h.send_response(404)
            h.send_header("Content-Length", "0")
            h.end_headers()
            return
        data = path.read_bytes()
        gzipped = path.suffix in COMPRESSED and "gzip" in h.headers.get("Accept-Encoding", "")
        if gzipped:
            with self._lock:
                if path not in self._gz:
                    self._gz[path] = gzip.compress(data, 6)
                data = self._gz[path]
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if path.suffix == ".js":
            kind = "text/javascript"
        h.send_response(200)
        h.send_header("Content-Type", kind)
        h.send_header("Content-Length", str(len(data)))
        h.send_header("Cache-Control", "max-age=600")
        if gzipped:
            h.send_header("Content-Encoding", "gzip")
        h.end_headers()
        self.link.send(h.wfile.write, data)
        with self._lock:
            self.sent.append(Sent(time.monotonic(), rel, len(data)))

    def since(self, mark: int) -> list[Sent]:
        with self._lock:
            return self.sent[mark:]

    def mark(self) -> int:
        with self._lock:
            return len(self.sent)


def is_search_file(path: str) -> bool:
    return path.startswith("search/") or "workers/search" in path or "search-worker" in path


# ---------------------------------------------------------------------------------------------
# The browser

#: Installed before any page script: the time the search box gets focus and the time the
#: first result shows.
PROBE = """
window.__dz = {focus: null, typed: null, first: null, origin: performance.timeOrigin};
addEventListener("focusin", e => {
  if (e.target.classList && e.target.classList.contains("md-search__input") && !__dz.focus)
    __dz.focus = performance.now();
});
addEventListener("input", e => {
  if (e.target.classList && e.target.classList.contains("md-search__input") && !__dz.typed)
    __dz.typed = performance.now();
});
new MutationObserver(() => {
  if (__dz.focus && !__dz.first && document.querySelector(".md-search-result__item")) {
    __dz.first = performance.now();
    __dz.items = document.querySelectorAll(".md-search-result__item").length;
    fetch("/__first_result__", {cache: "no-store"}).catch(() => {});
  }
}).observe(document, {subtree: true, childList: true});
"""


#: What a search worker saw (evaluated in it): its time origin, its requests and its marks.
WORKER_ENTRIES = """() => ({
  origin: performance.timeOrigin,
  entries: performance.getEntries()
    .filter(e => e.entryType === "resource" || e.entryType === "mark")
    .map(e => ({type: e.entryType, name: e.name, start: e.startTime,
                end: e.entryType === "resource" ? e.responseEnd : e.startTime,
                bytes: e.transferSize || 0}))
})"""


def timeline(page: object) -> list[tuple[float, float, str, str, int]]:
    """A first query's events from the search box's focus (ms): the page's and the search
    worker's requests (start, end, file, bytes as transferred) and the worker's marks, and
    the first result's paint. Times are aligned on the two time origins (epoch ms)."""
    probe = page.evaluate("window.__dz")  # type: ignore[attr-defined]
    zero = probe["origin"] + probe["focus"]
    rows: list[tuple[float, float, str, str, int]] = []
    sources = [("page", page)] + [
        ("worker", w)
        for w in page.workers
        if "search" in w.url  # type: ignore[attr-defined]
    ]
    for who, source in sources:
        seen = source.evaluate(WORKER_ENTRIES)  # type: ignore[attr-defined]
        for e in seen["entries"]:
            start = seen["origin"] + e["start"] - zero
            end = seen["origin"] + e["end"] - zero
            if end < -1:
                continue  # the page load's
            name = urlsplit(e["name"]).path.rsplit("/search/pagefind/", 1)[-1]
            if e["type"] == "resource" and who == "page" and "search" not in name:
                continue
            rows.append(
                (start, end, who, name if e["type"] == "resource" else f"mark {name}", e["bytes"])
            )
    rows.append((probe["first"] - probe["focus"],) * 2 + ("page", "first results painted", 0))
    if probe.get("typed") is not None:
        rows.append((probe["typed"] - probe["focus"],) * 2 + ("page", "query typed (input)", 0))
    return sorted(rows)


def print_timeline(rows: list[tuple[float, float, str, str, int]]) -> None:
    print(f"{'start ms':>9} {'end ms':>8} {'bytes':>8}  who     what", file=sys.stderr)
    for start, end, who, name, size in rows:
        print(f"{start:9.1f} {end:8.1f} {size:8d}  {who:6}  {name}", file=sys.stderr)


@dataclass
class Run:
    backend: str
    query: str
    condition: str
    first_ms: float
    search_bytes: int
    load_search_bytes: int
    load_search_files: list[str]
    results: int
    first_href: str
    #: from the query's input event (the bench's click and typing left out)
    typed_ms: float = 0.0


def open_and_search(
    browser: object,
    server: Server,
    page_path: str,
    query: str,
    slow: bool,
    devtools: bool,
    show_timeline: bool = False,
) -> tuple[float, int, int, list[str], int, str, float]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    context.add_init_script(PROBE)
    page = context.new_page()
    if slow:
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": SLOW["cpu"]})
        if devtools:
            rate = SLOW["bits_per_s"] / 8
            cdp.send("Network.enable")
            cdp.send(
                "Network.emulateNetworkConditions",
                {
                    "offline": False,
                    "latency": SLOW["latency_s"] * 1000,
                    "downloadThroughput": rate,
                    "uploadThroughput": rate,
                },
            )
    server.link.latency_s = SLOW["latency_s"] if slow and not devtools else 0.0
    server.link.bits_per_s = SLOW["bits_per_s"] if slow and not devtools else 0.0
    mark = server.mark()
    try:
        page.goto(server.base + page_path, wait_until="load", timeout=600_000)
        page.wait_for_timeout(1500)  # what the page load fetches by itself (and settles)
        load = [s for s in server.since(mark) if is_search_file(s.path)]
        opened = server.mark()
        page.locator(".md-search__input").click()
        page.locator(".md-search__input").fill(query)
        page.locator(".md-search__input").press("End")
        page.wait_for_function("window.__dz.first !== null", timeout=600_000, polling=20)
        first_ms = page.evaluate("window.__dz.first - window.__dz.focus")
        typed_ms = page.evaluate("window.__dz.first - (window.__dz.typed ?? window.__dz.focus)")
        # The bytes up to the first result: the responses sent before the page said so.
        deadline = time.monotonic() + 5
        while not server.first_at and time.monotonic() < deadline:
            time.sleep(0.01)
        done = server.first_at or time.monotonic()
        after = [s for s in server.since(opened) if s.at <= done]
        server.first_at = 0.0
        if os.environ.get("BENCH_SEARCH_FILES"):
            print([(s.path, s.bytes) for s in after], file=sys.stderr)
        hrefs = page.eval_on_selector_all(
            ".md-search-result__link", "els => els.map(e => e.getAttribute('href'))"
        )
        page.wait_for_timeout(500)
        if show_timeline:
            print_timeline(timeline(page))
    finally:
        context.close()
    search = sum(s.bytes for s in after) + sum(s.bytes for s in load)
    return (
        first_ms,
        search,
        sum(s.bytes for s in load),
        sorted({s.path for s in load}),
        len(hrefs),
        hrefs[0] if hrefs else "",
        typed_ms,
    )


# ---------------------------------------------------------------------------------------------
# Sites


def build(project: Path, site: Path) -> dict[str, float]:
    cmd = [str(BIN / "mkdocs"), "build", "--quiet", "--site-dir", str(site)]
    sample = measure(cmd, project)
    return {"wall_s": round(sample.wall, 2), "cpu_s": round(sample.cpu, 2)}


def _pagefind_bytes(site: Path) -> dict[str, int]:
    folder = site / "search" / "pagefind"
    files = [p for p in folder.rglob("*") if p.is_file()] if folder.is_dir() else []
    return {"files": len(files), "bytes": sum(p.stat().st_size for p in files)}


def corpus_sites(work: Path, articles: int, backends: list[str]) -> dict[str, Path]:
    sites: dict[str, Path] = {}
    for backend in backends:
        project = work / f"project-{backend}"
        generate(
            project,
            articles,
            duizhao=backend != "material",
            search="pagefind" if backend == "pagefind" else "material",
        )
        sites[backend] = project
    return sites


def real_sites(work: Path, backends: list[str]) -> dict[str, Path]:
    """The study site as configured, with Material's search or Pagefind."""
    text = REAL_CONFIG.read_text(encoding="utf-8")
    sites: dict[str, Path] = {}
    for backend in backends:
        if backend == "material":
            continue  # the study site without duizhao does not build its own pages
        project = work / f"real-{backend}"
        project.mkdir(parents=True, exist_ok=True)
        own = "\n".join(line for line in text.splitlines() if not line.startswith("      search: "))
        choice = "pagefind" if backend == "pagefind" else "material"
        config = own.replace("  - duizhao:\n", f"  - duizhao:\n      search: {choice}\n")
        root = REAL_CONFIG.parent
        (project / "mkdocs.yml").write_text(
            config.replace("docs_dir: docs", f"docs_dir: {root / 'docs'}").replace(
                "jieba_dict_user: jieba_userdict.txt",
                f"jieba_dict_user: {root / 'jieba_userdict.txt'}",
            )
            + f"\n# bench copy of {REAL_CONFIG}\n",
            encoding="utf-8",
        )
        lock = root / "duizhao.lock"
        if lock.exists():
            shutil.copy(lock, project / "duizhao.lock")
        if not (project / "node_modules").exists():
            (project / "node_modules").symlink_to(root / "node_modules")
        sites[backend] = project
    return sites


@contextmanager
def served(site: Path) -> Iterator[Server]:
    server = Server(site)
    try:
        yield server
    finally:
        server.close()


def run(args: argparse.Namespace, work: Path) -> dict[str, object]:
    from playwright.sync_api import sync_playwright

    if args.sites:
        projects = {}
    else:
        projects = (
            real_sites(work, args.backends)
            if args.real
            else corpus_sites(work, args.articles, args.backends)
        )
    page_path = "ai-systems/xdeepserve-cloudmatrix384/" if args.real else "articles/a001/"
    builds: dict[str, object] = {}
    sites: dict[str, Path] = {}
    for backend, project in projects.items():
        site = work / f"site-{backend}"
        if args.reuse and (site / "index.html").exists():
            builds[backend] = {"wall_s": 0.0, "cpu_s": 0.0, "pagefind": _pagefind_bytes(site)}
        else:
            builds[backend] = {**build(project, site), "pagefind": _pagefind_bytes(site)}
        index = site / "search" / "search_index.json"
        builds[backend]["search_index_json_bytes"] = index.stat().st_size if index.exists() else 0  # type: ignore[index]
        sites[backend] = site
        print(f"built {backend}: {builds[backend]}", file=sys.stderr)
    for label, built in (item.split("=", 1) for item in args.sites or []):
        sites[label] = Path(built)
        builds[label] = {"wall_s": 0.0, "cpu_s": 0.0, "pagefind": _pagefind_bytes(Path(built))}
        index = Path(built) / "search" / "search_index.json"
        builds[label]["search_index_json_bytes"] = index.stat().st_size if index.exists() else 0  # type: ignore[index]
    runs: list[Run] = []
    conditions = [("unthrottled", False)] + ([("slow", True)] if not args.no_slow else [])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        # With --sites the sites take turns run by run (the same load for each).
        turns = (
            [
                (backend, site, query, condition, slow)
                for rep in range(args.repeat)
                for backend, site in sites.items()
                for query in args.queries
                for condition, slow in conditions
            ]
            if args.sites
            else [
                (backend, site, query, condition, slow)
                for backend, site in sites.items()
                for query in args.queries
                for condition, slow in conditions
                for rep in range(args.repeat)
            ]
        )
        for backend, site, query, condition, slow in turns:
            with served(site) as server:
                first_ms, search, load, files, n, href, typed_ms = open_and_search(
                    browser,
                    server,
                    page_path,
                    query,
                    slow,
                    args.devtools_network,
                    args.timeline,
                )
                runs.append(
                    Run(
                        backend,
                        query,
                        condition,
                        first_ms,
                        search,
                        load,
                        files,
                        n,
                        href,
                        typed_ms,
                    )
                )
                print(
                    f"{backend} {query!r} {condition}: {first_ms:.0f} ms "
                    f"({typed_ms:.0f} ms from typing), "
                    f"{search / 1000:.1f} KB ({load / 1000:.1f} KB at load), "
                    f"{n} links, first {href}",
                    file=sys.stderr,
                )
        browser.close()
    return {
        "articles": None if args.real else args.articles,
        "real": args.real,
        "builds": builds,
        "runs": [asdict(r) for r in runs],
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def report(result: dict[str, object]) -> str:
    runs = [Run(**r) for r in result["runs"]]  # type: ignore[arg-type, union-attr]
    keys = sorted(
        {(r.backend, r.query, r.condition) for r in runs},
        key=lambda k: (
            BACKENDS.index(k[0]) if k[0] in BACKENDS else len(BACKENDS),
            k[0],
            k[1],
            k[2] != "unthrottled",
        ),
    )
    what = "the real site" if result["real"] else f"N={result['articles']}"
    lines = [
        f"Search, {what}; medians of the runs (load average at the end {result['load_average']}).",
        "",
        "| back end | query | condition | first results | from typing | "
        "transferred for search | of which at page load |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for key in keys:
        sample = [r for r in runs if (r.backend, r.query, r.condition) == key]
        ms = statistics.median(r.first_ms for r in sample)
        typed = statistics.median(r.typed_ms for r in sample)
        kb = statistics.median(r.search_bytes for r in sample) / 1000
        load = statistics.median(r.load_search_bytes for r in sample) / 1000
        backend, query, condition = key
        lines.append(
            f"| {backend} | {query} | {condition} | {ms / 1000:.2f} s | {typed / 1000:.2f} s "
            f"| {kb:,.1f} KB "
            f"| {load:,.1f} KB |"
        )
    lines += ["", "| back end | build wall | build CPU | Pagefind index | search_index.json |"]
    lines += ["| --- | ---: | ---: | ---: | ---: |"]
    for backend, b in result["builds"].items():  # type: ignore[union-attr]
        pf = b["pagefind"]
        lines.append(
            f"| {backend} | {b['wall_s']:.1f} s | {b['cpu_s']:.1f} s | "
            f"{pf['bytes'] / 1e6:.1f} MB in {pf['files']} files | "
            f"{b['search_index_json_bytes'] / 1e6:.2f} MB |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.search", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--articles", type=int, default=100)
    parser.add_argument("--real", action="store_true", help="the study site instead of a corpus")
    parser.add_argument("--queries", nargs="+", default=["显存", "memory"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--backends", nargs="+", choices=BACKENDS, default=list(BACKENDS))
    parser.add_argument("--no-slow", action="store_true", help="unthrottled only")
    parser.add_argument(
        "--devtools-network", action="store_true", help="DevTools' network emulation"
    )
    parser.add_argument(
        "--timeline",
        action="store_true",
        help="print each first query's requests, the worker's marks and the first paint",
    )
    parser.add_argument(
        "--sites",
        nargs="+",
        metavar="LABEL=DIR",
        help="measure these built sites (taking turns run by run) instead of building",
    )
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--reuse", action="store_true", help="keep sites built in --workdir")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if args.workdir is not None:
        args.workdir.mkdir(parents=True, exist_ok=True)
        result = run(args, args.workdir.resolve())
    else:
        work = Path(tempfile.mkdtemp(prefix="duizhao-search-bench-"))
        try:
            result = run(args, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    print(report(result))
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", "utf-8")


if __name__ == "__main__":
    main()
