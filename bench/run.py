"""Benchmark duizhao: ``mkdocs build`` with duizhao vs plain Material, ``duizhao check`` vs build.

One run generates two identical corpora (bench/corpus.py): one with the duizhao plugin, one
for plain Material with the blocks left as text. It then times, interleaved, ``mkdocs build``
of each and ``duizhao check --strict`` of the duizhao corpus, each as a child process whose
own resource usage comes from ``os.wait4`` (wall time, user+system CPU time, peak RSS).
Reports the medians and the targets of issue 11::

    python -m bench.run [--articles 100] [--repeat 3] [--memory-articles 1000] [--json out.json]

``--memory-articles M`` also generates an M-article corpus and measures the peak memory of
``duizhao check`` over it (a check streams the corpus: its memory should not grow with M).

Wall time is what an author waits for; CPU time is steadier on a shared machine (other
processes take cores but not this process's CPU seconds), so both are reported.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bench.corpus import generate

BIN = Path(sys.executable).parent

#: The targets of issue 11 at N=100 (issue 2 had 1.15× and 30×), and check memory that stays
#: flat as the corpus grows: at most 200 MB for 1,000 large articles (--memory-articles 1000).
BUILD_OVERHEAD_MAX = 1.05
BUILD_OVERHEAD_AIM = 1.03
CHECK_SPEEDUP_MIN = 50.0
CHECK_MEMORY_MAX_MB = 200.0


@dataclass(frozen=True)
class Sample:
    wall: float
    cpu: float
    max_rss_mb: float


@dataclass
class Series:
    label: str
    command: list[str]
    samples: list[Sample] = field(default_factory=list)

    @property
    def wall(self) -> float:
        return statistics.median(s.wall for s in self.samples)

    @property
    def cpu(self) -> float:
        return statistics.median(s.cpu for s in self.samples)

    @property
    def min_wall(self) -> float:
        return min(s.wall for s in self.samples)

    @property
    def min_cpu(self) -> float:
        return min(s.cpu for s in self.samples)

    @property
    def max_rss_mb(self) -> float:
        return max(s.max_rss_mb for s in self.samples)


def measure(command: list[str], cwd: Path, pythonpath: str | None = None) -> Sample:
    """Run ``command`` once; its own rusage (not the sum over earlier children) via wait4.
    ``pythonpath``: a checkout's ``plugins`` folder whose duizhao the command imports."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            tail = err.read().decode("utf-8", "replace")[-3000:]
            raise SystemExit(f"{' '.join(command)} failed ({proc.returncode}) in {cwd}:\n{tail}")
    # ru_maxrss is in KiB on Linux.
    return Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def _tool(name: str) -> str:
    path = BIN / name
    if not path.exists():
        raise SystemExit(f"{path} not found; run 'make setup' and use the virtualenv's python")
    return str(path)


def _machine() -> dict[str, object]:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        model = platform.processor()
    return {
        "cpus": os.cpu_count(),
        "cpu_model": model,
        "python": platform.python_version(),
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
    }


def _compile_duizhao(folder: Path | None = None) -> None:
    """Byte-compile the duizhao package (or the one in the plugins ``folder``), as `pip
    install` does: where PYTHONDONTWRITEBYTECODE is set, an editable checkout would otherwise
    compile every module on every start (about 0.04 s, a twentieth of a check)."""
    import compileall

    if folder is None:
        import duizhao

        folder = Path(duizhao.__file__).parent.parent
    compileall.compile_dir(str(folder / "duizhao"), quiet=1)


@dataclass
class Tree:
    """One duizhao to time (``--tree LABEL=PLUGINS``), on its own copy of the corpus (each
    keeps its own caches): its build, its check, and its check with ``--no-cache``."""

    label: str
    pythonpath: str | None
    corpus: Path
    build: Series
    check: Series
    cold: Series


def _trees(args: argparse.Namespace, work: Path, dz: Path) -> list[Tree]:
    mkdocs, duizhao = _tool("mkdocs"), _tool("duizhao")
    named = [spec.split("=", 1) for spec in args.tree] or [["", ""]]
    trees = []
    for label, plugins in named:
        suffix = f" ({label})" if label else ""
        corpus = dz
        if label:
            corpus = work / f"duizhao-{label}"
            shutil.rmtree(corpus, ignore_errors=True)
            shutil.copytree(dz, corpus, symlinks=True)
        _compile_duizhao(Path(plugins) if plugins else None)
        site = work / f"site-duizhao{'-' + label if label else ''}"
        trees.append(
            Tree(
                label,
                str(Path(plugins).resolve()) if plugins else None,
                corpus,
                Series(
                    f"mkdocs build, duizhao{suffix}",
                    [mkdocs, "build", "--quiet", "--site-dir", str(site)],
                ),
                Series(f"duizhao check --strict{suffix}", [duizhao, "check", "--strict"]),
                Series(
                    f"duizhao check --strict --no-cache{suffix}",
                    [duizhao, "check", "--strict", "--no-cache"],
                ),
            )
        )
    return trees


def run(args: argparse.Namespace, work: Path) -> dict[str, object]:
    machine = _machine()  # the load average before this run adds its own
    t0 = time.perf_counter()
    dz = generate(work / "duizhao", args.articles, args.paragraphs, args.figures, args.seed)
    plain = generate(
        work / "plain", args.articles, args.paragraphs, args.figures, args.seed, duizhao=False
    )
    print(f"corpora generated in {time.perf_counter() - t0:.1f} s under {work}", file=sys.stderr)
    trees = _trees(args, work, dz)
    plain_build = Series(
        "mkdocs build, plain Material",
        [_tool("mkdocs"), "build", "--quiet", "--site-dir", str(work / "site-plain")],
    )
    for i in range(args.warmup + args.repeat):
        timed = i >= args.warmup
        # Alternate which build goes first so a drift in machine load hits both alike.
        steps: list[tuple[Series, Path, str | None, int]] = []
        for tree in trees if i % 2 == 0 else trees[::-1]:
            # The check takes a second and scatters by ±20 % on a shared machine: it runs
            # several times per repetition (the builds once), so its median is as steady.
            steps += [
                (tree.build, tree.corpus, tree.pythonpath, 1),
                (tree.check, tree.corpus, tree.pythonpath, args.check_repeat),
                (tree.cold, tree.corpus, tree.pythonpath, args.cold),
            ]
        steps.insert(1 if i % 2 == 0 else 0, (plain_build, plain, None, 1))
        for series, cwd, pythonpath, times in steps:
            for _ in range(times):
                sample = measure(series.command, cwd, pythonpath)
                if timed:
                    series.samples.append(sample)
                print(
                    f"{'run' if timed else 'warm-up'} {i + 1 - args.warmup * timed}: "
                    f"{series.label}: {sample.wall:.2f} s wall, {sample.cpu:.2f} s CPU, "
                    f"{sample.max_rss_mb:.0f} MB",
                    file=sys.stderr,
                )
    memory = {f"{args.articles} articles{_suffix(t)}": t.check.max_rss_mb for t in trees}
    if args.memory_articles:
        big = generate(work / "big", args.memory_articles, args.paragraphs, 0, args.seed)
        for tree in trees:
            # cold (nothing cached), then warm (everything cached)
            shutil.rmtree(big / ".cache", ignore_errors=True)
            for how in ("cold", "warm"):
                sample = measure(tree.check.command, big, tree.pythonpath)
                memory[f"{args.memory_articles} articles, {how}{_suffix(tree)}"] = sample.max_rss_mb
                print(
                    f"check of {args.memory_articles} articles, {how}{_suffix(tree)}: "
                    f"{sample.wall:.1f} s, {sample.cpu:.1f} s CPU, {sample.max_rss_mb:.0f} MB",
                    file=sys.stderr,
                )
        shutil.rmtree(big, ignore_errors=True)
    every = [plain_build, *(s for t in trees for s in (t.build, t.check, t.cold) if s.samples)]
    first = trees[0]
    by_tree = {t.label: _ratios(t, plain_build) for t in trees}
    return {
        "check_peak_mb_by_articles": memory,
        "corpus": {
            "articles": args.articles,
            "paragraphs": args.paragraphs,
            "figures": args.figures,
            "seed": args.seed,
            "markdown_bytes": sum(p.stat().st_size for p in (dz / "docs").rglob("*.md")),
        },
        "machine": machine,
        "repeat": args.repeat,
        "series": {
            s.label: {
                "median_wall_s": round(s.wall, 3),
                "median_cpu_s": round(s.cpu, 3),
                "min_wall_s": round(s.min_wall, 3),
                "min_cpu_s": round(s.min_cpu, 3),
                "peak_rss_mb": round(s.max_rss_mb, 1),
                "samples": [asdict(x) for x in s.samples],
            }
            for s in every
        },
        **by_tree[first.label],
        "trees": by_tree,
        "check_peak_mb": max(memory.values()),
    }


def _suffix(tree: Tree) -> str:
    return f" ({tree.label})" if tree.label else ""


def _ratios(tree: Tree, plain_build: Series) -> dict[str, dict[str, float]]:
    """A tree's build overhead against plain Material and its checks' speed-up."""
    dz_build, check, cold = tree.build, tree.check, tree.cold
    result = {
        "build_overhead": {
            "wall": dz_build.wall / plain_build.wall,
            "cpu": dz_build.cpu / plain_build.cpu,
            "min_wall": dz_build.min_wall / plain_build.min_wall,
            "min_cpu": dz_build.min_cpu / plain_build.min_cpu,
            # The two builds of one repetition run close together under similar machine load.
            "paired_cpu": statistics.median(
                d.cpu / p.cpu for d, p in zip(dz_build.samples, plain_build.samples, strict=True)
            ),
        },
        "check_speedup": {
            "wall": dz_build.wall / check.wall,
            "cpu": dz_build.cpu / check.cpu,
            "min_wall": dz_build.min_wall / check.min_wall,
            "min_cpu": dz_build.min_cpu / check.min_cpu,
        },
    }
    if cold.samples:
        result["cold_check_speedup"] = {
            "wall": dz_build.wall / cold.wall,
            "cpu": dz_build.cpu / cold.cpu,
            "min_wall": dz_build.min_wall / cold.min_wall,
            "min_cpu": dz_build.min_cpu / cold.min_cpu,
        }
    return result


def report(result: dict[str, object]) -> tuple[str, bool]:
    """A Markdown report and whether every target is met (on wall and CPU time)."""
    corpus = result["corpus"]
    series = result["series"]
    peak = result["check_peak_mb"]
    assert isinstance(corpus, dict) and isinstance(series, dict) and isinstance(peak, float)
    figures = f", {corpus['figures']} figures each" if corpus["figures"] else ""
    memory = result["check_peak_mb_by_articles"]
    assert isinstance(memory, dict)
    by_articles = ", ".join(f"{n}: {mb:.0f} MB" for n, mb in memory.items())
    lines = [
        f"Corpus: {corpus['articles']} articles × {corpus['paragraphs']} paragraph blocks"
        f"{figures} "
        f"({corpus['markdown_bytes'] / 1e6:.1f} MB of Markdown); "
        f"median of {result['repeat']} runs.",
        f"Machine: {result['machine']}",
        "",
        "Times are medians; the fastest run is in parentheses. Targets are judged on CPU time.",
        "",
        "| measurement | wall (s) | CPU (s) | peak RSS (MB) |",
        "| --- | ---: | ---: | ---: |",
    ]
    for label, s in series.items():
        lines.append(
            f"| {label} | {s['median_wall_s']:.2f} ({s['min_wall_s']:.2f}) | "
            f"{s['median_cpu_s']:.2f} ({s['min_cpu_s']:.2f}) | {s['peak_rss_mb']:.0f} |"
        )
    # Judged on median CPU time: the commands are single-threaded, so on an idle machine wall
    # time equals CPU time, and on a shared one wall time measures the other jobs too.
    trees = result["trees"]
    assert isinstance(trees, dict)

    def verdict(ok: bool) -> str:
        return "met" if ok else "MISSED"

    def ratio(name: str, r: dict[str, float]) -> str:
        return (
            f"| {name} | {r['wall']:.1f}× ({r['min_wall']:.1f}×) "
            f"| {r['cpu']:.1f}× ({r['min_cpu']:.1f}×) "
        )

    lines += ["", "| target | wall | CPU | limit | |", "| --- | ---: | ---: | ---: | --- |"]
    ok = bool(peak <= CHECK_MEMORY_MAX_MB)
    for label, ratios in trees.items():
        of = f" ({label})" if label else ""
        overhead, speedup = ratios["build_overhead"], ratios["check_speedup"]
        ok_overhead = overhead["cpu"] <= BUILD_OVERHEAD_MAX
        ok_speedup = speedup["cpu"] >= CHECK_SPEEDUP_MIN
        ok = ok and ok_overhead and ok_speedup
        lines += [
            f"| build overhead (duizhao / plain){of} | {overhead['wall']:.3f}× "
            f"({overhead['min_wall']:.3f}×) | {overhead['cpu']:.3f}× "
            f"({overhead['min_cpu']:.3f}×; paired {overhead['paired_cpu']:.3f}×) "
            f"| ≤ {BUILD_OVERHEAD_MAX:.2f}× (aim {BUILD_OVERHEAD_AIM:.2f}×) "
            f"| {verdict(ok_overhead)} |",
            ratio(f"check speed-up (build / check){of}", speedup)
            + f"| ≥ {CHECK_SPEEDUP_MIN:.0f}× | {verdict(ok_speedup)} |",
        ]
        if "cold_check_speedup" in ratios:
            lines.append(
                ratio(f"build / check --no-cache{of}", ratios["cold_check_speedup"]) + "| | |"
            )
    lines.append(
        f"| check peak memory ({by_articles}) | {peak:.0f} MB | | "
        f"≤ {CHECK_MEMORY_MAX_MB:.0f} MB | {verdict(peak <= CHECK_MEMORY_MAX_MB)} |"
    )
    return "\n".join(lines), ok


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.split("\n")[0])
    parser.add_argument("--articles", type=int, default=100, help="articles in the corpus")
    parser.add_argument("--paragraphs", type=int, default=129, help="paragraph blocks per article")
    parser.add_argument("--figures", type=int, default=0, help="figures per article")
    parser.add_argument("--seed", type=int, default=0, help="seed of the generated text")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of each (median)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed runs of each first")
    parser.add_argument(
        "--check-repeat", type=int, default=5, help="runs of the check per repetition"
    )
    parser.add_argument("--workdir", type=Path, help="keep the corpora and sites here")
    parser.add_argument("--json", type=Path, help="also write the results as JSON here")
    parser.add_argument("--enforce", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument(
        "--memory-articles", type=int, default=0, help="also check an M-article corpus (memory)"
    )
    parser.add_argument(
        "--cold", type=int, default=0, help="runs of the check with --no-cache per repetition"
    )
    parser.add_argument(
        "--tree",
        action="append",
        default=[],
        metavar="LABEL=PLUGINS",
        help="time the duizhao of this checkout's plugins folder (repeat: side by side, each "
        "on its own copy of the corpus; default: the installed one)",
    )
    args = parser.parse_args(argv)
    if any("=" not in spec or not spec.split("=", 1)[0] for spec in args.tree):
        parser.error("--tree takes LABEL=PLUGINS, as in --tree main=../main/plugins")
    if args.repeat < 1 or args.warmup < 0 or args.check_repeat < 1:
        parser.error("--repeat and --check-repeat must be >= 1 and --warmup >= 0")
    if args.workdir is not None:
        args.workdir.mkdir(parents=True, exist_ok=True)
        result = run(args, args.workdir.resolve())
    else:
        work = Path(tempfile.mkdtemp(prefix="duizhao-bench-"))
        try:
            result = run(args, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    text, ok = report(result)
    print(text)
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", "utf-8")
    if args.enforce and not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
