"""Benchmark of the figures feature: cold and warm builds of N articles × K figures.

    python -m bench.figures [--articles 100] [--figures 20] [--repeat 3] [--out bench/out/figures]

Three projects from :mod:`bench.corpus`:

- ``figures``: every article places K figures cropped from its own paper PDF (each article gets
  a copy of the corpus PDF with a distinct trailing comment, so every crop is distinct work and
  every source is hashed, as with real papers);
- ``plain``: the same articles with each ``/// figure | N`` block replaced by a Markdown image of
  the crop, already present in docs/ (no figure work at all): the baseline of the warm target;
- ``bare``: no MkDocs, no cache, no workers. One process renders every box with pypdfium2
  (``render_box``: the PDFium calls alone) and encodes it with Pillow using duizhao's encoder
  settings: the baseline of the cold target.

Targets (issue 3): warm ≤ 1.05 × plain; cold figure work (cold − warm) ≤ 1.3 × bare.
Every build is a fresh ``mkdocs build`` process; warm and plain are the median of ``--repeat``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import yaml

from bench.corpus import generate

ROOT = Path(__file__).resolve().parent.parent


def _build(project: Path) -> float:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(project / "mkdocs.yml")],
        check=True,
        cwd=project,
        env=env,
    )
    return time.perf_counter() - start


def _distinct_papers(project: Path) -> int:
    """Give each article its own copy of the paper, so no two crops share a cache key."""
    papers = project / "papers"
    pdf = next(papers.glob("*.pdf")).read_bytes()
    specs = sorted((project / "docs").rglob("*.figures.yml"))
    for spec_file in specs:
        name = spec_file.name.removesuffix(".figures.yml")
        (papers / f"{name}.pdf").write_bytes(pdf + f"%duizhao-bench {name}\n".encode())
        spec = yaml.safe_load(spec_file.read_text(encoding="utf-8"))
        spec["source"] = str(Path(spec["source"]).with_name(f"{name}.pdf"))
        spec_file.write_text(yaml.safe_dump(spec, allow_unicode=True), encoding="utf-8")
    return len(specs)


def _plain_copy(figures_project: Path, plain: Path) -> None:
    """The figures project with each figure block turned into an image already in docs/."""
    from duizhao.article import read_article
    from duizhao.figures.cache import Cache
    from duizhao.figures.catalog import Catalog

    if plain.exists():
        shutil.rmtree(plain)
    shutil.copytree(figures_project, plain, ignore=shutil.ignore_patterns("site", ".cache"))
    cache = Cache(figures_project / ".cache/duizhao")
    catalog = Catalog(figures_project, cache)
    for md in sorted((plain / "docs").rglob("*.md")):
        original = figures_project / md.relative_to(plain)
        article = read_article(original)
        if not article.figures:
            continue
        crops = catalog.figures(article).crops
        folder = md.with_suffix("")
        folder.mkdir(exist_ok=True)
        text = md.read_text(encoding="utf-8")
        for fid, crop in crops.items():
            shutil.copyfile(cache.path(crop), folder / f"{fid}.webp")
            image = f"![{crop.figure.alt_text}]({folder.name}/{fid}.webp){{ #fig-{fid} }}"
            text = re.sub(rf"(?m)^/// figure \| {fid}\n///$", image, text)
        text = re.sub(r"(?m)^figures: \d+\n", "", text)
        md.write_text(text, encoding="utf-8")
        spec = md.with_name(md.stem + ".figures.yml")
        spec.unlink(missing_ok=True)


def _bare(project: Path) -> tuple[float, int]:
    """Render + crop + encode every figure in one process, with no cache and no MkDocs."""
    import pypdfium2 as pdfium

    from duizhao.figures.crops import Encoder, render_box

    encoder = Encoder()
    count = 0
    start = time.perf_counter()
    for spec_file in sorted((project / "docs").rglob("*.figures.yml")):
        spec = yaml.safe_load(spec_file.read_text(encoding="utf-8"))
        pdf = pdfium.PdfDocument((spec_file.parent / spec["source"]).read_bytes())
        scale = spec.get("dpi", 200) / 72
        for entry in spec["figures"]:
            page = pdf[entry["page"] - 1]
            x0, y0, x1, y1 = entry["box"]
            w, h = round((x1 - x0) * scale), round((y1 - y0) * scale)
            image = render_box(page, entry["box"], spec.get("dpi", 200), w, h)
            buffer = io.BytesIO()
            image.save(buffer, "WEBP", **encoder.options(image, "webp"))
            page.close()
            count += 1
        pdf.close()
    return time.perf_counter() - start, count


def _pool(project: Path, articles: int) -> dict[str, float]:
    """Crop work alone on the first ``articles`` articles: duizhao with 1 and 2 processes."""
    from duizhao.article import read_article
    from duizhao.figures.cache import Cache
    from duizhao.figures.catalog import Catalog
    from duizhao.figures.crops import Encoder, make_crops

    found = sorted((project / "docs").rglob("*.figures.yml"))[:articles]
    result = {}
    for jobs in (1, 2):
        cache_dir = project.parent / f"pool-cache-{jobs}"
        shutil.rmtree(cache_dir, ignore_errors=True)
        cache = Cache(cache_dir)
        catalog = Catalog(project, cache)
        crops = [
            crop
            for spec in found
            for crop in catalog.figures(
                read_article(spec.with_name(spec.name[:-12] + ".md"))
            ).crops.values()
        ]
        start = time.perf_counter()
        make_crops(crops, cache, Encoder(), jobs).wait()
        result[f"duizhao_jobs{jobs}_s"] = round(time.perf_counter() - start, 2)
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--articles", type=int, default=100)
    parser.add_argument("--figures", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "figures")
    parser.add_argument(
        "--pool",
        type=int,
        metavar="K",
        help="only time the crop work of the first K articles (1 and 2 processes, and bare)",
    )
    args = parser.parse_args(argv)
    if args.pool:
        project = args.out / "project"
        if not project.is_dir():
            generate(project, args.articles, figures=args.figures)
            _distinct_papers(project)
        result = _pool(project, args.pool)
        subset = args.out / "subset"
        shutil.rmtree(subset, ignore_errors=True)
        for spec in sorted((project / "docs").rglob("*.figures.yml"))[: args.pool]:
            target = subset / spec.relative_to(project)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(spec, target)
        shutil.copytree(project / "papers", subset / "papers")
        result["bare_serial_s"] = round(_bare(subset)[0], 2)
        print(json.dumps(result, indent=1))
        return

    project = args.out / "project"
    plain = args.out / "plain"
    generate(project, args.articles, figures=args.figures)
    _distinct_papers(project)
    shutil.rmtree(project / ".cache", ignore_errors=True)
    print(f"corpus: {args.articles} articles × {args.figures} figures in {project}", flush=True)

    cold = _build(project)
    print(f"cold build: {cold:.1f} s", flush=True)
    warm = statistics.median(_build(project) for _ in range(args.repeat))
    print(f"warm build: {warm:.1f} s (median of {args.repeat})", flush=True)
    _plain_copy(project, plain)
    baseline = statistics.median(_build(plain) for _ in range(args.repeat))
    print(f"plain images build: {baseline:.1f} s (median of {args.repeat})", flush=True)
    bare, count = _bare(project)
    print(f"bare render+crop+encode of {count} figures, one process: {bare:.1f} s", flush=True)

    work = cold - warm
    result = {
        "articles": args.articles,
        "figures_per_article": args.figures,
        "crops": count,
        "cpus": os.cpu_count(),
        "cold_s": round(cold, 2),
        "warm_s": round(warm, 2),
        "plain_s": round(baseline, 2),
        "bare_serial_s": round(bare, 2),
        "cold_figure_work_s": round(work, 2),
        "warm_over_plain": round(warm / baseline, 3),
        "cold_work_over_bare": round(work / bare, 3),
    }
    print(json.dumps(result, indent=1))
    (args.out / "result.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
