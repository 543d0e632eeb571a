"""The PDF engine on PDFs no typesetter makes (written byte by byte in bench/rawpdf.py): the
page model agrees with what the renderer draws, dense pages are read by their ink, and bad
input gets one line naming the file and the page, with nothing written."""

from __future__ import annotations

import functools
import resource
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from bench import rawpdf
from click.testing import CliRunner

from conftest import Logs, Site
from duizhao.cli import main
from duizhao.figures.detect import detect_figures
from duizhao.pdf.ink import render_gray, unexplained_ink
from duizhao.pdf.read import read_path
from duizhao.pdf.settings import SETTINGS


def test_forms_are_read_with_their_matrices_composed_and_clipped(tmp_path: Path) -> None:
    """A form whose matrix scales and shifts, a form in a form, a form whose bounding box
    cuts its drawing and one whose box runs far past its ink: each graphic is what the
    renderer draws."""
    doc = read_path(rawpdf.forms_page(tmp_path / "forms.pdf"))
    try:
        page = doc.pages[0]
        assert sorted(g.box for g in page.graphics) == sorted(rawpdf.FORMS_INK)
        pdfium_page = doc.pdf[0]
        assert unexplained_ink(pdfium_page, page, doc.settings) == []
        # …and the render really has ink there (the check is not blind).
        image = render_gray(pdfium_page, 1.0, rawpdf.FORMS_INK[0])
        assert image.getextrema()[0] < 100
        pdfium_page.close()
    finally:
        doc.close()


def test_paths_painted_with_a_pattern_are_ink(tmp_path: Path) -> None:
    """A chart whose bars and axis are painted in a pattern colour (a gradient, as macOS
    Quartz re-encodes a figure's shadings): PDFium reads their colour as white, yet they are
    ink; the figure is found, not reported without a body."""
    pdf = rawpdf.pattern_page(tmp_path / "pattern.pdf")
    doc = read_path(pdf)
    try:
        page = doc.pages[0]
        assert sorted(g.box for g in page.graphics) == sorted(rawpdf.PATTERN_INK)
        assert unexplained_ink(doc.pdf[0], page, doc.settings) == []
    finally:
        doc.close()
    (found,) = detect_figures(pdf)
    assert (found.label, found.caption) == ("Figure 1", "Load of each node, in a gradient.")
    x0, y0, x1, y1 = found.box
    assert abs(x0 - 88) <= 2 and abs(y0 - 152) <= 2 and abs(x1 - 282) <= 2 and abs(y1 - 298) <= 2


def test_a_page_of_300_000_objects_is_read_by_its_ink(tmp_path: Path) -> None:
    pdf = rawpdf.dense_page(tmp_path / "dense.pdf")
    doc = read_path(pdf)
    try:
        page = doc.pages[0]
        assert page.ink and page.objects > 300_000
        assert all(g.kind == "ink" for g in page.graphics)
        assert unexplained_ink(doc.pdf[0], page, doc.settings) == []
    finally:
        doc.close()
    (found,) = detect_figures(pdf)
    assert (found.label, found.caption) == ("Figure 1", "A scatter plot of many points.")
    # the marks' ink: x 72–532, y 92–392 from the top
    x0, y0, x1, y1 = found.box
    assert abs(x0 - 72) <= 2 and abs(y0 - 92) <= 2 and abs(x1 - 532) <= 2 and abs(y1 - 392) <= 2


def test_type_set_at_one_point_and_scaled_by_its_matrix_has_its_drawn_size(
    tmp_path: Path,
) -> None:
    """Some typesetters (InDesign for USENIX, Elsevier's and ACM's journal pipelines) set
    every glyph in a 1-pt font scaled by the text matrix: PDFium's font size says 1.0 for all
    of them. A glyph's size is the one it is drawn at: the font size times the vertical scale
    of its matrix (text matrix, ``cm`` and forms' matrices composed), as the render shows."""
    pdf = rawpdf.matrix_sized_page(tmp_path / "scaled.pdf")
    doc = read_path(pdf)
    try:
        page = doc.pages[0]
        text = "".join(ch.text for ch in page.chars)
        pdfium_page = doc.pdf[0]
        for word, size in rawpdf.MATRIX_SIZES.items():
            first = page.chars[text.index(word)]
            assert all(abs(ch.size - size) < 0.01 for ch in page.chars[text.index(word) :][:4])
            # the render agrees: a Times capital stands 0.66 of its size
            scale = 8.0
            image = render_gray(pdfium_page, scale, (first.x0, first.y0, first.x1, first.y1))
            ink = image.point(lambda v: 255 if v < 128 else 0).getbbox()
            assert ink is not None
            assert abs((ink[3] - ink[1]) / scale / size - 0.66) < 0.05, word
        pdfium_page.close()
    finally:
        doc.close()
    # …and the engine sees a paper: body size 10, a 9-pt caption under a plot.
    (found,) = detect_figures(pdf)
    assert (found.label, found.caption) == (
        "Figure 1",
        "Text set at one point, scaled by its matrix.",
    )
    x0, y0, x1, y1 = found.box
    assert abs(x0 - 120) <= 2 and abs(y0 - 252) <= 2 and abs(x1 - 420) <= 2 and abs(y1 - 352) <= 2


def _damaged(path: Path) -> Path:
    whole = rawpdf.write(path, rawpdf.text([(72, 700, "A paper.")]))
    path.write_bytes(whole.read_bytes()[:200])
    return path


#: Drawing objects on the page that is refused for holding too many.
MILLION = 1_000_000


@functools.cache
def _million_bytes() -> bytes:
    """The page of :data:`MILLION` objects, written once a run (3 s of CPU; two tests hand it
    to a command and to a build)."""
    with tempfile.TemporaryDirectory() as tmp:
        return rawpdf.dense_page(Path(tmp) / "million.pdf", MILLION).read_bytes()


def _million(path: Path) -> Path:
    path.write_bytes(_million_bytes())
    return path


#: (generator, page or None, reason): each is refused with ``paper.pdf:PAGE: DZ113 reason``.
BAD: dict[str, tuple[Callable[[Path], Path], int | None, str]] = {
    "scanned": (rawpdf.scanned, 1, "no text layer (a scanned paper?): nothing to read"),
    "encrypted": (rawpdf.encrypted, None, "encrypted: it needs a password to be read"),
    "damaged": (_damaged, None, "not a readable PDF: damaged or truncated"),
    "huge": (rawpdf.huge_page, 1, "20000 × 20000 pt, larger than the 14,400 pt"),
    "nested": (rawpdf.nested_forms, 1, "forms nested 32 deep or more"),
    "million": (
        _million,
        1,
        "1,000,021 drawing objects, more than the 500,000 a page may have",
    ),
    # 3 KB that PDFium expands to 10¹² squares when it loads the page: stopped in the guard's
    # child after 2 s of CPU (or 1 GB), before the reader parses it
    "fanned": (rawpdf.fanned_forms, 1, "parsing it takes more than 2 s of CPU"),
}
#: refused only after a second of parsing: the import's refusal is the same code path
SLOW = {"million", "fanned"}
#: PDFium loads the million-object page in about 1.5-2.5 s of CPU, so the guard's 2 s limit may
#: stop the child before it counts the objects (seen once on an idle clean clone): either
#: refusal is one bounded line that writes nothing.
#: The thousand fanned-out forms grow PDFium's memory and CPU together: on an idle machine the
#: 2 s CPU limit stops the child first, on a loaded one (load 6-12, seen at 14:35 on
#: 2026-12-04 in main as well) the 1,024 MB memory limit: either refusal is right.
EITHER_REFUSAL = {
    "million": ("parsing it takes more than 2 s of CPU",),
    "fanned": ("parsing it takes more than 1,024 MB of memory",),
}


def _files(root: Path) -> list[str]:
    """What a project holds (the writers' advisory lock file aside: it holds nothing)."""
    return sorted(
        str(p.relative_to(root)) for p in root.rglob("*") if p.name != ".duizhao.lock.lock"
    )


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_pdfs_get_one_line_naming_file_and_page(
    case: str, make_site: Callable[..., Site], chdir: Callable[[Path], None]
) -> None:
    """``figures detect``, ``import`` and ``update --from`` answer ``PATH:PAGE: DZ113 reason``
    on one line, in bounded time (the guard's child is stopped at 2 s of CPU), and write
    nothing."""
    make, page, reason = BAD[case]
    site = make_site({"index.md": "# Home\n", "a.md": "---\ntitle: A\n---\n"})
    chdir(site.root)
    make(site.root / "paper.pdf")
    before = _files(site.root)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = CliRunner().invoke(main, ["figures", "detect", "paper.pdf"])
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    where = "paper.pdf" if page is None else f"paper.pdf:{page}"
    reasons = (reason, *EITHER_REFUSAL.get(case, ()))
    refusals = tuple(f"{where}: DZ113 {r}" for r in reasons)
    assert len(lines) == 1 and lines[0].startswith(refusals), lines
    assert "Traceback" not in result.output and "Error" not in result.output
    spent = resource.getrusage(resource.RUSAGE_CHILDREN)
    child_cpu = spent.ru_utime + spent.ru_stime - children.ru_utime - children.ru_stime
    assert child_cpu < SETTINGS.parse_seconds + 1.0
    if case == "million":
        return  # the import reads the same way; a second million-object parse adds nothing
    result = CliRunner().invoke(main, ["import", "docs/x.md", "--from", "paper.pdf"])
    assert result.exit_code == 2, result.output  # the original is refused
    again = result.stderr.strip().splitlines()
    assert len(again) == 1 and again[0].startswith(refusals), again  # (parsed again: either)
    if case not in SLOW:
        result = CliRunner().invoke(main, ["update", "docs/a.md", "--from", "paper.pdf"])
        assert result.exit_code == 2, result.output
        assert result.stderr.strip().splitlines() == lines
    assert _files(site.root) == before  # nothing written


#: (generator, code, reason): a site whose figure is cut from such a PDF builds, with one
#: line naming the spec, the figure, the PDF and its page.
HOSTILE_CROPS: dict[str, tuple[Callable[[Path], Path], str, str]] = {
    "nested": (rawpdf.nested_forms, "DZ113", "page 1: forms nested 32 deep or more"),
    "million": (
        _million,
        "DZ113",
        "page 1: 1,000,021 drawing objects, more than the 500,000 a page may have",
    ),
    # PDFium expands it to 10¹² squares when it loads the page: the child's timer stops it
    "fanned": (
        rawpdf.fanned_forms,
        "DZ113",
        "page 1: rendering it takes more than (5 s of CPU|1,024 MB of memory)",
    ),
    # refused by its size before any child (catalog.py)
    "huge": (rawpdf.huge_page, "DZ111", "page 1 of source '../papers/bad.pdf' is 20000 × 20000"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_CROPS))
def test_a_build_cuts_no_crop_from_a_hostile_pdf_page(
    case: str, make_site: Callable[..., Site], logs: Logs
) -> None:
    """A build renders a figure's page in a started child bounded in CPU time and memory,
    after the reader's checks of size, objects and form depth (figures/pdf_crops.py): a
    hostile page costs the build a bounded time and one diagnostic, and the rest builds."""
    make, code, reason = HOSTILE_CROPS[case]
    article = (
        "---\ntitle: A\npaper: {title: A, license: CC-BY-4.0}\nfigures: 1\n---\n\n# A\n\n"
        "## 导言\n\n正文。\n\n/// figure | 1\n///\n"
    )
    spec = "source: ../papers/bad.pdf\nfigures:\n  - id: 1\n    page: 1\n    box: [72, 300, 300, 400]\n"
    site = make_site(
        {"index.md": "# Home\n", "a.md": article, "a.figures.yml": spec},
        plugins=[{"duizhao": {"figures": {"jobs": 1}}}],
    )
    (site.root / "papers").mkdir()
    make(site.root / "papers" / "bad.pdf")
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    site.build()
    spent = resource.getrusage(resource.RUSAGE_CHILDREN)
    child_cpu = spent.ru_utime + spent.ru_stime - children.ru_utime - children.ru_stime
    where = r"/docs/a\.figures\.yml:\d+: "
    if code == "DZ113":
        where += r"DZ113 cannot crop figure 1 from '\.\./papers/bad\.pdf': "
    else:
        where += f"{code} "
    (line,) = logs.take(where + reason, 1)
    assert "\n" not in line and "Traceback" not in line
    # the child's start (an interpreter, pypdfium2, Pillow) and at most its timer's 5 s
    assert child_cpu < SETTINGS.render_seconds + 3.0
    assert "<h1" in site.html("a.md")  # the rest built
    assert not list(site.site_dir.rglob("fig-1.*"))  # and no crop of that page


def test_the_crop_workers_cut_a_hostile_page_in_a_forked_child(
    make_site: Callable[..., Site], logs: Logs
) -> None:
    """With two jobs the crops are cut in the pool's workers (started processes of no
    threads), each forking its bounded child: a page that PDFium expands to 10¹² squares
    costs each crop of it one line and a bounded time."""
    article = (
        "---\ntitle: A\npaper: {title: A, license: CC-BY-4.0}\nfigures: 2\n---\n\n# A\n\n"
        "## 导言\n\n正文。\n\n/// figure | 1\n///\n\n/// figure | 2\n///\n"
    )
    spec = (
        "source: ../papers/bad.pdf\nfigures:\n"
        "  - {id: 1, page: 1, box: [72, 300, 300, 400]}\n"
        "  - {id: 2, page: 1, box: [72, 100, 300, 200]}\n"
    )
    site = make_site(
        {"index.md": "# Home\n", "a.md": article, "a.figures.yml": spec},
        plugins=[{"duizhao": {"figures": {"jobs": 2}}}],
    )
    (site.root / "papers").mkdir()
    rawpdf.fanned_forms(site.root / "papers" / "bad.pdf")
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    site.build()
    spent = resource.getrusage(resource.RUSAGE_CHILDREN)
    child_cpu = spent.ru_utime + spent.ru_stime - children.ru_utime - children.ru_stime
    found = logs.take(
        r"DZ113 cannot crop figure [12] from '\.\./papers/bad\.pdf': page 1: rendering it takes "
        r"more than (5 s of CPU|1,024 MB of memory)",
        2,
    )
    assert len(found) == 2
    # two workers' start, and each crop's child stopped by its timer (or its memory)
    assert child_cpu < 2 * SETTINGS.render_seconds + 6.0


def test_a_serial_build_cuts_the_other_pdfs_after_a_hostile_one(
    make_site: Callable[..., Site], logs: Logs
) -> None:
    """One bounded child cuts every PDF of a serial build; when a page kills it, that page's
    crops fail and a new child cuts the rest: the other paper's figure is in the site."""
    from figure_sources import make_pdf

    def article(title: str) -> str:
        return (
            f"---\ntitle: {title}\npaper: {{title: A, license: CC-BY-4.0}}\nfigures: 1\n---\n\n"
            f"# {title}\n\n## 导言\n\n正文。\n\n/// figure | 1\n///\n"
        )

    def spec(pdf: str) -> str:
        return (
            f"source: ../papers/{pdf}\nfigures:\n  - {{id: 1, page: 1, box: [72, 100, 300, 200]}}\n"
        )

    site = make_site(
        {
            "index.md": "# Home\n",
            "a.md": article("A"),
            "a.figures.yml": spec("bad.pdf"),
            "b.md": article("B"),
            "b.figures.yml": spec("paper.pdf"),
        },
        plugins=[{"duizhao": {"figures": {"jobs": 1}}}],
    )
    (site.root / "papers").mkdir()
    rawpdf.fanned_forms(site.root / "papers" / "bad.pdf")
    make_pdf(site.root / "papers" / "paper.pdf")
    site.build()
    logs.take(r"a\.figures\.yml:\d+: DZ113 cannot crop figure 1 from '\.\./papers/bad\.pdf'", 1)
    assert len(list(site.site_dir.rglob("fig-1.*"))) == 1  # b's, not a's
    assert "/b/fig-1." in str(next(site.site_dir.rglob("fig-1.*"))).replace("\\", "/")


@pytest.mark.parametrize("case", ["fanned", "nested"])
def test_figures_preview_refuses_a_hostile_page_in_bounded_time(
    case: str, make_site: Callable[..., Site], chdir: Callable[[Path], None]
) -> None:
    """``figures preview`` renders whole pages: each is parsed first in the guard's forked
    child (the command runs no threads) and checked as the reader checks it."""
    make = {"fanned": rawpdf.fanned_forms, "nested": rawpdf.nested_forms}[case]
    reasons = {
        "fanned": ("parsing it takes more than 2 s of CPU", *EITHER_REFUSAL["fanned"]),
        "nested": ("forms nested 32 deep or more",),
    }[case]
    spec = "source: ../papers/bad.pdf\nfigures:\n  - {id: 1, page: 1, box: [72, 300, 300, 400]}\n"
    site = make_site(
        {"index.md": "# Home\n", "a.md": "---\ntitle: A\n---\n", "a.figures.yml": spec}
    )
    (site.root / "papers").mkdir()
    make(site.root / "papers" / "bad.pdf")
    chdir(site.root)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = CliRunner().invoke(main, ["figures", "preview", "docs/a.md", "--out", "preview"])
    spent = resource.getrusage(resource.RUSAGE_CHILDREN)
    child_cpu = spent.ru_utime + spent.ru_stime - children.ru_utime - children.ru_stime
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert lines[0].startswith(tuple(f"bad.pdf page 1: {r}" for r in reasons)), lines
    assert "Traceback" not in result.output
    assert child_cpu < SETTINGS.parse_seconds + 1.0
    assert not (site.root / "preview").exists() or not list((site.root / "preview").iterdir())
