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
takes of each build: the time of the build's thread in the Pagefind feature's events (making
or handing over the documents, then waiting for the index after the pages), and the CPU time
of Pagefind's process and of the worker that makes the documents (the children's), as shares
of the build's wall and CPU time. The same measure serves an older commit's plugin put first
on ``PYTHONPATH``.
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


#: The Pagefind feature's events timed by ``--shares`` (the build's thread spends its indexing
#: there: the documents, made there or handed to the worker; the wait for the index).
HOOKS = ("on_page_content", "on_env", "on_post_build")


def shares(project: Path, site: Path) -> str:
    """Build ``project`` once in this process; what the indexing takes of the build's wall and
    CPU time: the build's thread in the Pagefind feature's events (:data:`HOOKS`: making the
    documents, or handing them to the worker process; waiting for the index after the pages),
    and the CPU time of this process's children (Pagefind's services, and the worker that
    makes the documents where the build forks one). The documents' CPU time is the feature's
    own count (``making``), wherever they were made."""
    import resource
    import time

    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from duizhao.search import pagefind_feature

    feature = pagefind_feature.PagefindFeature
    spent = {f"{hook} {kind}": 0.0 for hook in HOOKS for kind in ("wall", "cpu")}
    real = {hook: getattr(feature, hook) for hook in HOOKS}
    made: list[float] = []

    def timed(hook: str) -> Any:
        def run(self: Any, *args: Any, **kwargs: Any) -> Any:
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                return real[hook](self, *args, **kwargs)
            finally:
                spent[f"{hook} wall"] += time.perf_counter() - wall
                spent[f"{hook} cpu"] += time.process_time() - cpu
                if hook == "on_post_build":
                    made.append(float(self.making))

        return run

    def _children() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    cwd = os.getcwd()
    os.chdir(project)
    for hook in HOOKS:
        setattr(feature, hook, timed(hook))
    try:
        config = load_config(str(project / "mkdocs.yml"), site_dir=str(site))
        wall, cpu, children = time.perf_counter(), time.process_time(), _children()
        build(config)
        child = _children() - children
        wall, own = time.perf_counter() - wall, time.process_time() - cpu
    finally:
        for hook in HOOKS:
            setattr(feature, hook, real[hook])
        os.chdir(cwd)
    cpu = own + child
    thread_wall = sum(spent[f"{hook} wall"] for hook in HOOKS)
    index_cpu = sum(spent[f"{hook} cpu"] for hook in HOOKS) + child
    post = spent["on_post_build wall"]
    return (
        f"build {wall:.2f} s wall, {cpu:.2f} s CPU ({child:.2f} s of it children's); "
        f"documents {made[-1] if made else 0:.2f} s CPU; build's thread in the indexing "
        f"{thread_wall:.2f} s wall, of which pages {spent['on_page_content wall']:.2f} s and "
        f"after the pages {post:.2f} s. Indexing: {100 * index_cpu / cpu:.1f} % of the CPU "
        f"({100 * child / cpu:.1f} % the children's), {100 * thread_wall / wall:.1f} % of "
        f"the wall time ({100 * post / wall:.1f} % after the pages)"
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
