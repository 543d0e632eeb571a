"""The build's overhead with the study site's settings, and where its time goes.

Two identical corpora (bench/corpus.py, 40 articles × 129 paragraph blocks by default): one
built with duizhao as the study site configures it (``math: all``, ``mermaid: all``, social
tags, the 进度 page, paragraph search; ``--search pagefind`` for the Pagefind back end), one
with plain Material. The builds run as child processes, interleaved, and their CPU time
(user + system, the child's own, with Pagefind's process) is compared: the target is ≤ 1.05×.
``--profile`` then builds the duizhao corpus once more in this process under cProfile and
prints the functions where the time goes (cumulative and own time), by package.

    python -m bench.overhead [--articles 40] [--repeat 5] [--search material|pagefind]
        [--profile] [--workdir DIR]
    python -m bench.overhead --search pagefind --shares 3 [--workdir DIR]

``--shares N`` builds the duizhao corpus N times in this process and prints what the indexing
takes of each build: the documents' CPU time, Pagefind's process's (the children's CPU time),
and the indexing's step after the pages are written (``on_post_build``, which the build waits
for: its wall time and its CPU time here), as shares of the build's wall and CPU time.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.corpus import generate
from bench.run import measure

BIN = Path(sys.executable).parent
TARGET = 1.05
#: The study site's own duizhao options (mkdocs.yml), less what needs its docs folder.
STUDY = (
    "      math: all\n"
    "      mermaid: all\n"
    "      progress_page: progress.md\n"
    "      paragraph_search: true\n"
    "      site:\n"
    "        social: true\n"
)


def study_project(where: Path, articles: int, search: str) -> Path:
    root = generate(where, articles, search=search)
    config = root / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    marker = "      vendor_dir: "
    at = text.index("\n", text.index(marker)) + 1
    config.write_text(text[:at] + STUDY + text[at:], encoding="utf-8")
    return root


def profile(project: Path, site: Path, top: int) -> str:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    cwd = os.getcwd()
    os.chdir(project)
    profiler = cProfile.Profile()
    try:
        config = load_config(str(project / "mkdocs.yml"), site_dir=str(site))
        profiler.enable()
        build(config)
        profiler.disable()
    finally:
        os.chdir(cwd)
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("cumulative").print_stats(r"duizhao|material|jieba|pagefind", top)
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()


def shares(project: Path, site: Path) -> str:
    """Build ``project`` once in this process; what the indexing takes of the build's wall and
    CPU time: the documents (``page_documents``), Pagefind's process (the CPU time of this
    process's children: Pagefind's services are its only ones), and the indexing's step
    after the pages are written (``on_post_build``: the build waits for it)."""
    import resource
    import time

    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from duizhao.search import pagefind_feature

    feature = pagefind_feature.PagefindFeature
    spent = {"documents": 0.0, "documents wall": 0.0, "post wall": 0.0, "post self": 0.0}
    real_documents, real_post = pagefind_feature.page_documents, feature.on_post_build

    def documents(*args: Any, **kwargs: Any) -> Any:
        start, wall = time.process_time(), time.perf_counter()
        try:
            return real_documents(*args, **kwargs)
        finally:
            spent["documents"] += time.process_time() - start
            spent["documents wall"] += time.perf_counter() - wall

    def post(*args: Any, **kwargs: Any) -> Any:
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            return real_post(*args, **kwargs)
        finally:
            spent["post wall"] += time.perf_counter() - wall
            spent["post self"] += time.process_time() - cpu

    def _children() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    cwd = os.getcwd()
    os.chdir(project)
    pagefind_feature.page_documents, feature.on_post_build = documents, post  # type: ignore[method-assign]
    try:
        config = load_config(str(project / "mkdocs.yml"), site_dir=str(site))
        wall, cpu, children = time.perf_counter(), time.process_time(), _children()
        build(config)
        pagefind = _children() - children
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu + pagefind
    finally:
        pagefind_feature.page_documents, feature.on_post_build = real_documents, real_post  # type: ignore[method-assign]
        os.chdir(cwd)
    index_cpu = spent["documents"] + spent["post self"] + pagefind
    # On a loaded machine the documents' wall time is their CPU time stretched as the rest
    # of the build's main thread is.
    index_wall = spent["documents wall"] + spent["post wall"]
    return (
        f"build {wall:.2f} s wall, {cpu:.2f} s CPU; documents {spent['documents']:.2f} s CPU "
        f"({spent['documents wall']:.2f} s wall); "
        f"after the pages {spent['post wall']:.2f} s wall, {spent['post self']:.2f} s CPU here; "
        f"Pagefind's process {pagefind:.2f} s CPU. Indexing: "
        f"{100 * index_cpu / cpu:.1f} % of the CPU ({100 * pagefind / cpu:.1f} % "
        f"Pagefind's process), {100 * index_wall / wall:.1f} % of the wall time "
        f"({100 * spent['post wall'] / wall:.1f} % after the pages)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.overhead", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--articles", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--search", choices=("material", "pagefind"), default="material")
    parser.add_argument("--profile", action="store_true", help="also profile the duizhao build")
    parser.add_argument("--top", type=int, default=35, help="functions listed by the profile")
    parser.add_argument(
        "--shares", type=int, metavar="N", help="only: N in-process builds, indexing's shares"
    )
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args(argv)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="duizhao-overhead-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        dz = work / "duizhao"
        if not (args.shares and (dz / "mkdocs.yml").exists()):
            dz = study_project(dz, args.articles, args.search)
        if args.shares:
            for i in range(args.shares):
                print(f"shares {i + 1}: {shares(dz, work / 'site-shares')}", flush=True)
            return
        plain = generate(work / "plain", args.articles, duizhao=False)
        mkdocs = str(BIN / "mkdocs")
        runs: dict[str, list[float]] = {"duizhao": [], "plain": []}
        for i in range(args.repeat + 1):  # the first round warms caches and is not counted
            order = [("duizhao", dz), ("plain", plain)]
            for name, project in order if i % 2 else order[::-1]:
                sample = measure(
                    [mkdocs, "build", "--quiet", "--site-dir", str(work / f"site-{name}")], project
                )
                if i:
                    runs[name].append(sample.cpu)
                print(
                    f"{'run' if i else 'warm-up'} {i}: {name} {sample.cpu:.2f} s CPU",
                    file=sys.stderr,
                )
        ratios = [d / p for d, p in zip(runs["duizhao"], runs["plain"], strict=True)]
        med = {name: statistics.median(values) for name, values in runs.items()}
        ratio = med["duizhao"] / med["plain"]
        verdict = "met" if ratio <= TARGET else "MISSED"
        print(
            f"{args.articles} articles, search: {args.search}, median of {args.repeat}: "
            f"duizhao {med['duizhao']:.2f} s CPU, plain Material {med['plain']:.2f} s CPU, "
            f"{ratio:.3f}× (paired {statistics.median(ratios):.3f}×; target ≤ {TARGET}×: {verdict})"
        )
        if args.profile:
            print(profile(dz, work / "site-profile", args.top))
    finally:
        if args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
