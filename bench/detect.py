"""Benchmark of `duizhao figures detect`: seconds per page, cold (no cache) and cached.

    python -m bench.detect [--repeat 5] [PDF ...]

Without PDFs it times the labelled real papers of tests/data/papers and a generated 6-page
paper (tests/paper_sources.py). Per PDF it reports the best of ``--repeat`` runs of
:func:`detect_figures` (reading every page's text and objects, the layout analysis and the
regions) and of a cached run of :func:`detect_cached` (hash the PDF, read the JSON). Target
(issue 14): well under 1 s per page, a 12-page paper in a few seconds.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _best(repeat: int, run: object) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    import pypdfium2 as pdfium

    from duizhao.figures.detect import detect_cached, detect_figures

    with tempfile.TemporaryDirectory() as tmp:
        pdfs = list(args.pdfs)
        if not pdfs:
            sys.path.insert(0, str(ROOT / "tests"))
            from paper_sources import make_paper

            generated = Path(tmp) / "generated.pdf"
            make_paper(generated)
            pdfs = [*sorted((ROOT / "tests" / "data" / "papers").glob("*.pdf")), generated]
        cache = Path(tmp) / "cache"
        print(f"{'PDF':<28} {'pages':>5} {'found':>5} {'cold s':>7} {'s/page':>7} {'cached s':>9}")
        total_pages = 0
        total_cold = 0.0
        for pdf in pdfs:
            pages = len(pdfium.PdfDocument(pdf))
            found = len(detect_figures(pdf))
            cold = _best(args.repeat, lambda pdf=pdf: detect_figures(pdf))
            detect_cached(pdf, cache)
            cached = _best(args.repeat, lambda pdf=pdf: detect_cached(pdf, cache))
            total_pages += pages
            total_cold += cold
            print(
                f"{pdf.name[:28]:<28} {pages:>5} {found:>5} {cold:>7.3f} "
                f"{cold / pages:>7.3f} {cached:>9.4f}"
            )
        per_page = total_cold / total_pages
        print(f"{'all':<28} {total_pages:>5} {'':>5} {total_cold:>7.3f} {per_page:>7.3f}")


if __name__ == "__main__":
    main()
