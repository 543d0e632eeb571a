"""Save → rebuild finished under ``mkdocs serve``, for the real site and a generated corpus.

Each run starts ``mkdocs serve`` (``--dirty`` by default) on a copy of the project, then edits
one article's 导言 in place, as an editor saves, and times the wall clock from the write to the
server's "Reloading browsers" log line. After every rebuild it checks that the generated index
pages and the article really show the edit ("every generated page correct").

    python -m bench.serve         # real site (as configured, with MkDocs' polling, plain
                                  # Material), N=100 (the same three ways)
    python -m bench.serve --articles 100 --reps 10 --full-reps 2  # also without --dirty

Not a test: the figures go in bench/README.md (## Serve).
"""

from __future__ import annotations

import argparse
import os
import queue
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench.corpus import generate

ROOT = Path(__file__).resolve().parent.parent
#: the end of a rebuild: MkDocs logs it right after the build returns. ("Documentation built
#: in N seconds" is not reliable: MkDocs' DuplicateFilter drops it when N repeats.)
BUILT_RE = re.compile(r"Reloading browsers")
SERVING_RE = re.compile(r"Serving on (http://\S+/)")
DETECTED_RE = re.compile(r"Detected file changes")
FAILED_RE = re.compile(r"An error happened during the rebuild")
#: what the output pump sends when mkdocs serve has exited
EXITED = "\0exited"
INTRO = "## 导言\n\n"
#: The real site's option line, and its whole plugin entry (with its options and comments).
POLL_RE = re.compile(r"^ +serve_poll_interval: *([0-9.]+)[^\n]*\n", re.MULTILINE)
PLUGIN_RE = re.compile(r"^  - duizhao:\n(?:(?: {6}.*| *#.*)?\n)*", re.MULTILINE)


@dataclass
class Case:
    name: str
    project: Path
    #: the article edited (docs-relative) and the pages that must show the edit (URL paths)
    article: str
    pages: tuple[str, ...]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        return str(response.read().decode("utf-8"))


#: every line mkdocs serve printed, per output queue (shown when a rebuild fails)
_TRANSCRIPTS: dict[queue.Queue[tuple[float, str]], list[str]] = {}


@contextmanager
def _serve(project: Path, dirty: bool) -> Iterator[tuple[str, queue.Queue[tuple[float, str]]]]:
    port = _free_port()
    args = [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"]
    if dirty:
        args.append("--dirty")
    proc = subprocess.Popen(
        args,
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    lines: queue.Queue[tuple[float, str]] = queue.Queue()
    transcript = _TRANSCRIPTS.setdefault(lines, [])

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            transcript.append(line)
            lines.put((time.monotonic(), line))
        lines.put((time.monotonic(), EXITED))

    threading.Thread(target=pump, daemon=True).start()
    try:
        # after the first build, serve announces the address (with site_url's path)
        yield _wait_line(lines, SERVING_RE, timeout=900)[1].group(1), lines
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def _wait_line(
    lines: queue.Queue[tuple[float, str]], pattern: re.Pattern[str], timeout: float
) -> tuple[float, re.Match[str]]:
    end = time.monotonic() + timeout
    while True:
        stamp, line = lines.get(timeout=max(0.1, end - time.monotonic()))
        if line == EXITED:
            raise RuntimeError("mkdocs serve exited")
        if match := pattern.search(line):
            return stamp, match


def _wait_built(lines: queue.Queue[tuple[float, str]], timeout: float) -> float:
    end = time.monotonic() + timeout
    while True:
        try:
            stamp, line = lines.get(timeout=max(0.1, end - time.monotonic()))
        except queue.Empty:
            line = f"(no rebuild finished within {timeout:.0f} s)\n"
        if line == EXITED or FAILED_RE.search(line) or line.startswith("(no rebuild"):
            time.sleep(0.5)  # let a traceback arrive
            tail = "".join(_TRANSCRIPTS.get(lines, [])[-60:])
            raise RuntimeError(f"mkdocs serve did not rebuild:\n{tail}{line}")
        if BUILT_RE.search(line):
            return stamp


def _edit(path: Path, token: str) -> None:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"基准标记 [0-9a-z]+。", "", text)
    path.write_text(text.replace(INTRO, f"{INTRO}基准标记 {token}。", 1), encoding="utf-8")


def _missing(url: str, pages: tuple[str, ...], token: str) -> list[str]:
    """The pages that do not show the edit ``token`` (yet)."""
    return [page or "/" for page in pages if f"基准标记 {token}" not in _fetch(url + page)]


@dataclass
class Sample:
    #: seconds from the save to the end of the first rebuild whose pages all show the edit
    total: float
    #: of which: until MkDocs' watcher noticed the save (it polls the files every 0.5 s)
    watcher: float


def measure(case: Case, dirty: bool, reps: int) -> list[Sample]:
    """One sample per edit.

    A save can reach the watcher as two events (truncate, write), so a rebuild may start on a
    half-written file; then the next rebuild is the one that counts.
    """
    times: list[Sample] = []
    jitter = random.Random(0)
    with _serve(case.project, dirty) as (url, lines):
        time.sleep(1.0)  # let the file watcher settle after the first build
        for rep in range(reps):
            token = f"r{rep}{'d' if dirty else 'p'}{int(time.time() * 1000) % 100000}"
            while not lines.empty():
                lines.get_nowait()
            start = time.monotonic()
            _edit(case.project / "docs" / case.article, token)
            detected, _match = _wait_line(lines, DETECTED_RE, timeout=60)
            finished = _wait_built(lines, timeout=60 if dirty else 900)
            # A rebuild that started on a half-written file is followed by another one; when
            # none comes, the site is wrong, and the benchmark says which page.
            while missing := _missing(url, case.pages, token):
                try:
                    finished = _wait_built(lines, timeout=30)
                except RuntimeError as error:
                    raise AssertionError(
                        f"{case.name}: the edit {token} is not on {', '.join(missing)}"
                    ) from error
            times.append(Sample(finished - start, detected - start))
            # Let a trailing rebuild (second watcher event) finish. The random part puts the
            # next save at a random point of the watcher's 0.5 s polling cycle: a fixed pause
            # would give every save of one project the same, build-time-dependent wait.
            time.sleep(2.0 + jitter.uniform(0.0, 0.5))
            while not lines.empty():
                lines.get_nowait()
    return times


def real_site(work: Path, variant: str = "") -> Case:
    """The study site as configured; ``variant`` "mkdocs-poll": without its
    ``serve_poll_interval`` (MkDocs' own watcher); "plain": without duizhao at all."""
    project = work / f"real{variant}"
    project.mkdir()
    shutil.copytree(ROOT / "docs", project / "docs")
    for name in ("mkdocs.yml", "jieba_userdict.txt", "duizhao.lock"):
        if (ROOT / name).is_file():
            shutil.copy2(ROOT / name, project / name)
    (project / "node_modules").symlink_to(ROOT / "node_modules")  # mermaid, KaTeX
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    assert POLL_RE.search(text), "the real site should set serve_poll_interval"
    article = "ai-systems/xdeepserve-cloudmatrix384.md"
    pages: tuple[str, ...] = ("ai-systems/", "", article[:-3] + "/")
    name = "real site (13 articles)"
    if variant == "mkdocs-poll":
        text, name = POLL_RE.sub("", text), name + ", MkDocs' 0.5 s polling"
    elif variant == "plain":
        text, n = PLUGIN_RE.subn("", text)
        assert n == 1, "the real site should list the duizhao plugin once"
        name, pages = name + ", plain Material", (article[:-3] + "/",)
    config.write_text(text, encoding="utf-8")
    return Case(name, project, article, pages)


def corpus(work: Path, n: int, poll: float | None = None) -> Case:
    """The generated corpus, with the real site's ``serve_poll_interval`` when ``poll``."""
    project = generate(work / f"corpus{n}{'-poll' if poll else ''}", n)
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    plugin = "  - duizhao:\n"
    assert plugin in text, "the corpus config should list the duizhao plugin with options"
    # make articles/ a configured section, so it gets the generated 导言 index
    options = "      site:\n        sections:\n          articles: Articles\n"
    if poll:
        options += f"      serve_poll_interval: {poll}\n"
    config.write_text(text.replace(plugin, plugin + options, 1), encoding="utf-8")
    if not (project / "node_modules").exists():  # its markdown_extensions use mermaid and math
        (project / "node_modules").symlink_to(ROOT / "node_modules")
    article = f"articles/a{n // 2:03d}.md"
    assert (project / "docs" / article).is_file(), article
    # the corpus's home page is author-written without the digest marker: not checked
    name = f"corpus N={n}" + (f", polling {poll} s" if poll else "")
    return Case(name, project, article, ("articles/", article[:-3] + "/"))


def material_corpus(work: Path, n: int) -> Case:
    """The same corpus for plain Material (no duizhao): the baseline."""
    project = generate(work / f"material{n}", n, duizhao=False)
    if not (project / "node_modules").exists():
        (project / "node_modules").symlink_to(ROOT / "node_modules")
    article = f"articles/a{n // 2:03d}.md"
    return Case(f"corpus N={n}, plain Material", project, article, (article[:-3] + "/",))


def _row(name: str, mode: str, samples: list[Sample]) -> str:
    times = [s.total for s in samples]
    watcher = statistics.median(s.watcher for s in samples)
    return (
        f"| {name} | {mode} | {len(times)} | {statistics.median(times):.2f} s "
        f"| {min(times):.2f} s | {max(times):.2f} s | {watcher:.2f} s |"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--articles", type=int, default=100)
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--full-reps", type=int, default=0, help="edits without --dirty")
    args = parser.parse_args(argv)
    rows = [
        "| project | mkdocs serve | edits | median | min | max | of which watcher (median) |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    medians: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="duizhao-bench-serve-") as tmp:
        work = Path(tmp)
        poll = float(POLL_RE.findall((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))[0])
        cases = (
            real_site(work),
            real_site(work, "mkdocs-poll"),
            real_site(work, "plain"),
            corpus(work, args.articles, poll),
            corpus(work, args.articles),
            material_corpus(work, args.articles),
        )
        for case in cases:
            samples = measure(case, True, args.reps)
            medians[case.name] = statistics.median(s.total for s in samples)
            rows.append(_row(case.name, "--dirty", samples))
            print(rows[-1], flush=True)
            if args.full_reps:
                rows.append(_row(case.name, "(full)", measure(case, False, args.full_reps)))
                print(rows[-1], flush=True)
    print("\n".join(rows))
    for ours, theirs in (
        (cases[0], cases[2]),
        (cases[1], cases[2]),
        (cases[3], cases[5]),
        (cases[4], cases[5]),
    ):
        ratio = medians[ours.name] / medians[theirs.name]
        print(f"{ours.name} / {theirs.name}, --dirty: {ratio:.2f}")


if __name__ == "__main__":
    main()
