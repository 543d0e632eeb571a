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


def measure(command: list[str], cwd: Path) -> Sample:
    """Run ``command`` once; its own rusage (not the sum over earlier children) via wait4."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
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


def _compile_duizhao() -> None:
    """Byte-compile the duizhao package, as `pip install` does: where PYTHONDONTWRITEBYTECODE
    is set, an editable checkout would otherwise compile every module on every start (about
    0.04 s, a twentieth of a check)."""
    import compileall

    import duizhao

    compileall.compile_dir(str(Path(duizhao.__file__).parent), quiet=1)


def run(args: argparse.Namespace, work: Path) -> dict[str, object]:
    machine = _machine()  # the load average before this run adds its own
    t0 = time.perf_counter()
    dz = generate(work / "duizhao", args.articles, args.paragraphs, args.figures, args.seed)
    plain = generate(
        work / "plain", args.articles, args.paragraphs, args.figures, args.seed, duizhao=False
    )
    print(f"corpora generated in {time.perf_counter() - t0:.1f} s under {work}", file=sys.stderr)
    _compile_duizhao()
    mkdocs, duizhao = _tool("mkdocs"), _tool("duizhao")
    plain_build = Series(
        "mkdocs build, plain Material",
        [mkdocs, "build", "--quiet", "--site-dir", str(work / "site-plain")],
    )
    dz_build = Series(
        "mkdocs build, duizhao",
        [mkdocs, "build", "--quiet", "--site-dir", str(work / "site-duizhao")],
    )
    check = Series("duizhao check --strict", [duizhao, "check", "--strict"])
    where = {id(plain_build): plain, id(dz_build): dz, id(check): dz}
    order = [dz_build, plain_build, check]
    for i in range(args.warmup + args.repeat):
        timed = i >= args.warmup
        # Alternate which build goes first so a drift in machine load hits both alike.
        for series in order if i % 2 == 0 else [plain_build, dz_build, check]:
            # The check takes a second and scatters by ±20 % on a shared machine: it runs
            # several times per repetition (the builds once), so its median is as steady.
            for _ in range(args.check_repeat if series is check else 1):
                sample = measure(series.command, where[id(series)])
                if timed:
                    series.samples.append(sample)
                print(
                    f"{'run' if timed else 'warm-up'} {i + 1 - args.warmup * timed}: "
                    f"{series.label}: {sample.wall:.2f} s wall, {sample.cpu:.2f} s CPU, "
                    f"{sample.max_rss_mb:.0f} MB",
                    file=sys.stderr,
                )
    memory: dict[str, float] = {f"{args.articles}": check.max_rss_mb}
    if args.memory_articles:
        big = generate(work / "big", args.memory_articles, args.paragraphs, 0, args.seed)
        sample = measure(check.command, big)
        memory[f"{args.memory_articles}"] = sample.max_rss_mb
        print(
            f"check of {args.memory_articles} articles: {sample.wall:.1f} s, "
            f"{sample.max_rss_mb:.0f} MB",
            file=sys.stderr,
        )
        shutil.rmtree(big, ignore_errors=True)
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
            for s in (plain_build, dz_build, check)
        },
        "build_overhead": {
            "wall": dz_build.wall / plain_build.wall,
            "cpu": dz_build.cpu / plain_build.cpu,
            "min_wall": dz_build.min_wall / plain_build.min_wall,
            "min_cpu": dz_build.min_cpu / plain_build.min_cpu,
            # The two builds of one repetition run back to back under similar machine load.
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
        "check_peak_mb": max(memory.values()),
    }


def report(result: dict[str, object]) -> tuple[str, bool]:
    """A Markdown report and whether every target is met (on wall and CPU time)."""
    corpus = result["corpus"]
    series = result["series"]
    overhead = result["build_overhead"]
    speedup = result["check_speedup"]
    peak = result["check_peak_mb"]
    assert isinstance(corpus, dict) and isinstance(series, dict)
    assert isinstance(overhead, dict) and isinstance(speedup, dict) and isinstance(peak, float)
    figures = f", {corpus['figures']} figures each" if corpus["figures"] else ""
    memory = result["check_peak_mb_by_articles"]
    assert isinstance(memory, dict)
    by_articles = ", ".join(f"{n} articles: {mb:.0f} MB" for n, mb in memory.items())
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
    ok_overhead = overhead["cpu"] <= BUILD_OVERHEAD_MAX
    ok_speedup = speedup["cpu"] >= CHECK_SPEEDUP_MIN
    ok_memory = peak <= CHECK_MEMORY_MAX_MB

    def verdict(ok: bool) -> str:
        return "met" if ok else "MISSED"

    lines += [
        "",
        "| target | wall | CPU | limit | |",
        "| --- | ---: | ---: | ---: | --- |",
        f"| build overhead (duizhao / plain) | {overhead['wall']:.3f}× "
        f"({overhead['min_wall']:.3f}×) | {overhead['cpu']:.3f}× ({overhead['min_cpu']:.3f}×; "
        f"paired {overhead['paired_cpu']:.3f}×) "
        f"| ≤ {BUILD_OVERHEAD_MAX:.2f}× (aim {BUILD_OVERHEAD_AIM:.2f}×) | {verdict(ok_overhead)} |",
        f"| check speed-up (build / check) | {speedup['wall']:.1f}× ({speedup['min_wall']:.1f}×) "
        f"| {speedup['cpu']:.1f}× ({speedup['min_cpu']:.1f}×) "
        f"| ≥ {CHECK_SPEEDUP_MIN:.0f}× | {verdict(ok_speedup)} |",
        f"| check peak memory ({by_articles}) | {peak:.0f} MB | | "
        f"≤ {CHECK_MEMORY_MAX_MB:.0f} MB | {verdict(ok_memory)} |",
    ]
    return "\n".join(lines), ok_overhead and ok_speedup and ok_memory


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
    args = parser.parse_args(argv)
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
