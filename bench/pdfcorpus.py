"""The labelled PDF corpus (tests/data/pdfcorpus): load it, score a detector and the importer.

A paper is a ``<slug>.pdf`` with its labels in ``<slug>.json`` (format: the corpus's
SOURCES.md and the brief's PDFCORPUS.md). Scoring is independent of the engine: a
detection's box is first trimmed to the ink a renderer draws inside it (pypdfium2 at
:data:`INK_DPI`, pixels darker than :data:`INK_LEVEL`), as the labels are, then matched one to
one with the labels of its page and kind, best overlap first. A match needs an IoU of at least
:data:`IOU`; its caption is right when the printed label and the number agree and the
detected caption starts with the labelled first sentence (Unicode-normalised, spaces
collapsed, case folded).
"""

from __future__ import annotations

import html
import json
import re
import statistics
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duizhao.importer.pdf import FloatLike

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "pdfcorpus"
#: Papers the detector was never tuned on (issue 20: "keep a quarter of the corpus aside"):
#: scored and reported, never tuned on.
HELDOUT = ROOT / "tests" / "data" / "pdfcorpus-heldout"
#: A second held-out set (16 papers, 12 templates, labelled while the detector was being tuned
#: elsewhere): scored and reported like :data:`HELDOUT`, never tuned on.
HELDOUT2 = ROOT / "tests" / "data" / "pdfcorpus-heldout2"
#: A third held-out set (15 papers, 13 templates and publishing stacks the others lack: ACL,
#: CVPR, AAAI, JMLR, MDPI, BMC, Springer Nature, Oxford Bioinformatics, Typst, Quartz- and
#: Ghostscript-made PDFs), labelled by someone who never ran the detector on it: scored and
#: reported, never tuned on.
HELDOUT3 = ROOT / "tests" / "data" / "pdfcorpus-heldout3"
#: A fourth held-out set (15 papers, 12 templates and publishing stacks the others have least:
#: IEEE Access, PLOS by XeTeX, acmsmall, a thesis, a Word export, Ghostscript-, MiKTeX- and
#: Overleaf-made IEEEtran and USENIX papers; 44 of its 131 floats are tables), labelled by someone
#: who never ran the detector on it: scored and reported, never tuned on.
HELDOUT4 = ROOT / "tests" / "data" / "pdfcorpus-heldout4"
#: A fifth held-out set (13 papers, 11 templates and publishing stacks the other sets lack:
#: INTERSPEECH, IJCAI, TMLR, REVTeX, BMVC, Quarto, papaja, Frontiers, acmtog; 23 of its 67
#: floats are tables), labelled by someone who never ran the detector on it: scored and
#: reported, never tuned on.
HELDOUT5 = ROOT / "tests" / "data" / "pdfcorpus-heldout5"
#: A sixth held-out set (10 papers, 10 templates and stacks: Elsevier CAS, ACL camera-ready,
#: ICCV review copy, Springer Nature sn-jnl, AAAI camera-ready, PLOS, Typst, IEEEtran journal,
#: MDPI, a LibreOffice export; 49 of its 90 floats are tables), labelled by someone who never
#: ran the detector on it: scored and reported, never tuned on.
HELDOUT6 = ROOT / "tests" / "data" / "pdfcorpus-heldout6"
#: A seventh held-out set (12 papers, 8 templates and stacks: CVPR camera-ready and review
#: copies, Copernicus, IOP, PMLR (AISTATS), IEEE's Word template through Distiller and
#: PDFMaker, Word 2016 and Word for Microsoft 365 documents, an InDesign journal article on
#: rotated pages; 48 of its 116 floats are tables), labelled by two helpers who never ran or
#: read the detector: scored and reported, never tuned on.
HELDOUT7 = ROOT / "tests" / "data" / "pdfcorpus-heldout7"
#: An eighth held-out set (12 papers, 12 templates and stacks: PVLDB, ACM sig-alternate,
#: IEEEtran, USENIX, elsarticle, ICML; a Chrome print of an HTML paper, Pandoc with margin
#: captions, Quarto through XeLaTeX, Typst, Word 2013, a company's technical report; 38 of its
#: 128 floats are tables), labelled by two helpers who never ran or read the detector: scored
#: and reported, never tuned on.
HELDOUT8 = ROOT / "tests" / "data" / "pdfcorpus-heldout8"
#: The labelled sets by name (``python -m bench.detect --set NAME``).
SETS = {
    "tuned": CORPUS,
    "heldout": HELDOUT,
    "heldout2": HELDOUT2,
    "heldout3": HELDOUT3,
    "heldout4": HELDOUT4,
    "heldout5": HELDOUT5,
    "heldout6": HELDOUT6,
    "heldout7": HELDOUT7,
    "heldout8": HELDOUT8,
}
#: The overlap a detection needs with its label to count as found.
IOU = 0.8
#: Resolution and grey level of the ink trim (the labels' own method: 250/255).
INK_DPI = 144
INK_LEVEL = 250

Box = tuple[float, float, float, float]


#: What a detector reports per float (``duizhao.figures.detect.DetectedFigure``).
Found = FloatLike


@dataclass(frozen=True)
class Label:
    kind: str
    number: int
    printed: str
    page: int
    box: Box
    caption: str


@dataclass(frozen=True)
class Paper:
    slug: str
    pdf: Path
    style: str
    pages: int
    labels: list[Label]
    expect: dict[str, Any]


def load(corpus: Path = CORPUS) -> list[Paper]:
    """Every paper of ``corpus`` (its ``*.json`` files, in name order)."""
    papers = []
    for path in sorted(corpus.glob("*.json")):
        data = json.loads(path.read_text("utf-8"))
        labels = [
            Label(
                str(item["kind"]),
                int(item["number"]),
                str(item["printed"]),
                int(item["page"]),
                _box(item["box_tl"]),
                str(item.get("caption", "")),
            )
            for item in data.get("items", [])
        ]
        papers.append(
            Paper(
                path.stem,
                path.parent / str(data.get("file", f"{path.stem}.pdf")),
                str(data.get("style", "unknown")),
                int(data["pages"]),
                labels,
                dict(data.get("import") or {}),
            )
        )
    return papers


def label_problems(paper: Paper, others: set[str]) -> list[str]:
    """What is wrong with a held-out ``paper`` and its labels (empty when well formed):
    its file missing or shared with another set (``others``: their PDF file names), no label,
    a label of another kind, off its pages, with an empty box or no caption."""
    problems = []
    if not paper.pdf.is_file():
        problems.append(f"{paper.slug}: no PDF")
    if paper.pdf.name in others:
        problems.append(f"{paper.slug}: the PDF is in another set too")
    if not paper.labels:
        problems.append(f"{paper.slug}: no label")
    for label in paper.labels:
        x0, y0, x1, y1 = label.box
        if (
            label.kind not in ("figure", "table")
            or not 1 <= label.page <= paper.pages
            or not (x0 < x1 and y0 < y1)
            or not label.caption
        ):
            problems.append(f"{paper.slug}: {label}")
    return problems


def _box(values: Sequence[Any]) -> Box:
    x0, y0, x1, y1 = (float(v) for v in values)
    return (x0, y0, x1, y1)


def iou(a: Box, b: Box) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def ink_boxes(pdf: Path, found: Sequence[Found]) -> list[Box]:
    """Each detection's box trimmed to the ink inside it (its own box when it has none)."""
    import pypdfium2 as pdfium

    out: list[Box] = []
    doc = pdfium.PdfDocument(str(pdf))
    try:
        for f in found:
            out.append(_ink(doc, f.page, f.box))
    finally:
        doc.close()
    return out


def _ink(doc: Any, page_no: int, box: Box) -> Box:
    if not 1 <= page_no <= len(doc):
        return box
    page = doc[page_no - 1]
    try:
        width, height = page.get_size()
        x0, y0 = max(0.0, box[0]), max(0.0, box[1])
        x1, y1 = min(width, box[2]), min(height, box[3])
        if x1 <= x0 or y1 <= y0:
            return box
        scale = INK_DPI / 72
        bitmap = page.render(scale=scale, crop=(x0, height - y1, width - x1, y0), grayscale=True)
        image = bitmap.to_pil().convert("L")
    finally:
        page.close()
    ink = image.point(lambda v: 255 if v < INK_LEVEL else 0).getbbox()
    if ink is None:
        return box
    return (
        x0 + ink[0] / scale,
        y0 + ink[1] / scale,
        x0 + ink[2] / scale,
        y0 + ink[3] / scale,
    )


_PUNCT_SPACE_RE = re.compile(r" (?=[)\],.;:])|(?<=[(\[]) ")


def normalise(text: str) -> str:
    """Unicode-folded, spaces collapsed and not counted before closing or after opening
    brackets and punctuation (a text layer's artefact: "10−5 )"), case-folded."""
    text = unicodedata.normalize("NFKC", text).replace("\u2212", "-")
    return _PUNCT_SPACE_RE.sub("", " ".join(text.split())).casefold()


def caption_right(label: Label, found: Found) -> bool:
    want = normalise(label.caption).rstrip(".")
    got = normalise(found.caption)
    return (
        found.number == label.number
        and normalise(found.label).replace(" ", "") == normalise(label.printed).replace(" ", "")
        and got.startswith(want)
    )


@dataclass
class Score:
    labels: int = 0
    found: int = 0
    matched: int = 0
    captions: int = 0
    #: per miss or false detection a line for the report
    misses: list[str] = field(default_factory=list)

    def add(self, other: Score) -> None:
        self.labels += other.labels
        self.found += other.found
        self.matched += other.matched
        self.captions += other.captions

    @property
    def recall(self) -> float:
        return self.matched / self.labels if self.labels else 1.0

    @property
    def precision(self) -> float:
        return self.matched / self.found if self.found else (1.0 if not self.labels else 0.0)

    @property
    def caption_accuracy(self) -> float:
        return self.captions / self.labels if self.labels else 1.0


def score_paper(paper: Paper, found: Sequence[Found], boxes: Sequence[Box]) -> Score:
    """Match ``found`` (with ``boxes``, their ink) to the paper's labels, best IoU first."""
    score = Score(labels=len(paper.labels), found=len(found))
    pairs = []
    for li, label in enumerate(paper.labels):
        for fi, f in enumerate(found):
            if f.page == label.page and f.kind == label.kind:
                overlap = iou(boxes[fi], label.box)
                if overlap >= IOU:
                    pairs.append((overlap, li, fi))
    used_l: set[int] = set()
    used_f: set[int] = set()
    for _overlap, li, fi in sorted(pairs, reverse=True):
        if li in used_l or fi in used_f:
            continue
        used_l.add(li)
        used_f.add(fi)
        score.matched += 1
        if caption_right(paper.labels[li], found[fi]):
            score.captions += 1
        else:
            f = found[fi]
            score.misses.append(f"caption of {paper.labels[li].printed}: {f.label}: {f.caption!r}")
    for li, label in enumerate(paper.labels):
        if li not in used_l:
            near = [
                f"{f.label} {[round(v) for v in boxes[fi]]} IoU {iou(boxes[fi], label.box):.2f}"
                for fi, f in enumerate(found)
                if f.page == label.page and f.kind == label.kind and f.number == label.number
            ]
            score.misses.append(
                f"missed {label.printed} (page {label.page}, {[round(v) for v in label.box]})"
                + (f": found {near[0]}" if near else "")
            )
    for fi, f in enumerate(found):
        if fi not in used_f and not any(
            (lb.page, lb.kind, lb.number) == (f.page, f.kind, f.number) for lb in paper.labels
        ):
            score.misses.append(f"false {f.label} (page {f.page}, {[round(v) for v in f.box]})")
    return score


#: A detector for the scorer: (figures, seconds per page) of a PDF.
Detector = Callable[[Path], tuple[Sequence[Found], Sequence[float]]]


@dataclass
class Report:
    papers: dict[str, Score]
    styles: dict[str, Score]
    overall: Score
    page_seconds: list[float]

    def worst_style(self) -> float:
        return min(
            (min(s.recall, s.precision, s.caption_accuracy) for s in self.styles.values()),
            default=1.0,
        )

    def below(
        self, *, recall: float, precision: float, captions: float, template: float
    ) -> list[str]:
        """The floors this report falls below, in words (none: it holds them all): the overall
        recall, precision and caption accuracy, and the worst template's lowest of the three."""
        measured = {
            "recall": (self.overall.recall, recall),
            "precision": (self.overall.precision, precision),
            "captions": (self.overall.caption_accuracy, captions),
            "worst template": (self.worst_style(), template),
        }
        return [
            f"{name} {got:.3f} < {floor}" for name, (got, floor) in measured.items() if got < floor
        ]


def score(papers: Iterable[Paper], detector: Detector) -> Report:
    per_paper: dict[str, Score] = {}
    styles: dict[str, Score] = {}
    overall = Score()
    seconds: list[float] = []
    for paper in papers:
        found, times = detector(paper.pdf)
        seconds.extend(times)
        s = score_paper(paper, found, ink_boxes(paper.pdf, found))
        per_paper[paper.slug] = s
        styles.setdefault(paper.style, Score()).add(s)
        overall.add(s)
    return Report(per_paper, styles, overall, seconds)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def format_report(report: Report, papers: Sequence[Paper], details: bool = True) -> str:
    style_of = {p.slug: p.style for p in papers}
    lines = [
        f"{'paper / template':<34} {'labels':>6} {'found':>6} {'recall':>7} {'precis.':>7} "
        f"{'captions':>8}"
    ]

    def row(name: str, s: Score) -> str:
        return (
            f"{name[:34]:<34} {s.labels:>6} {s.found:>6} {s.recall:>7.3f} {s.precision:>7.3f} "
            f"{s.caption_accuracy:>8.3f}"
        )

    for slug, s in report.papers.items():
        lines.append(row(f"{slug} ({style_of.get(slug, '?')})", s))
        if details:
            lines.extend(f"    {m}" for m in s.misses)
    lines.append("")
    for style, s in sorted(report.styles.items()):
        lines.append(row(f"template {style}", s))
    lines.append(row("overall", report.overall))
    t = report.page_seconds
    if t:
        lines.append(
            f"time per page over {len(t)} pages: median {statistics.median(t):.3f} s, "
            f"95th percentile {percentile(t, 0.95):.3f} s, max {max(t):.3f} s"
        )
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# The importer's hand-read expectations


_ESCAPE_RE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")


def plain(markdown: str) -> str:
    """Markdown text of a chunk → the words it shows (escapes and entities undone)."""
    return " ".join(html.unescape(_ESCAPE_RE.sub(r"\1", markdown)).split())


@dataclass
class ImportCheck:
    held: int = 0
    total: int = 0
    failed: list[str] = field(default_factory=list)

    def check(self, ok: bool, what: str) -> None:
        self.total += 1
        if ok:
            self.held += 1
        else:
            self.failed.append(what)


#: Share of a page's height at its top and bottom where running heads and footers are set.
RUNNING_ZONE = 0.1


def body_occurrences(pdf: Path, texts: Sequence[str]) -> dict[str, int]:
    """How often each of ``texts`` occurs in the PDF's text between the top and bottom
    margins (pypdfium2's own text extraction): a running head's words may be the paper's too
    (an ACM reference format quotes its authors)."""
    import pypdfium2 as pdfium

    counts = dict.fromkeys(texts, 0)
    doc = pdfium.PdfDocument(str(pdf))
    try:
        for page in doc:
            w, h = page.get_size()
            textpage = page.get_textpage()
            body = normalise(
                textpage.get_text_bounded(0, h * RUNNING_ZONE, w, h * (1 - RUNNING_ZONE))
                .replace("\x02", "")
                .replace("\ufffe", "")
            )
            textpage.close()
            page.close()
            for text in texts:
                counts[text] += body.count(normalise(text))
    finally:
        doc.close()
    return counts


def check_import(paper: Paper, title: str | None, chunks: Sequence[Any]) -> ImportCheck:
    """How many of ``paper``'s import expectations the imported ``chunks`` meet.

    One each for: the title; each heading, found in order among the headings (case-folded,
    spaces collapsed); each running head, in the units no more often than the paper's text
    between its margins has it; each joined sentence, inside one unit.
    """
    out = ImportCheck()
    expect = paper.expect
    if not expect:
        return out
    if expect.get("title"):
        out.check(normalise(title or "") == normalise(expect["title"]), f"title {title!r}")
    headings = [normalise(plain(c.text)) for c in chunks if c.is_heading]
    at = 0
    for heading in expect.get("headings", []):
        want = normalise(heading)
        try:
            at = headings.index(want, at) + 1
            out.check(True, heading)
        except ValueError:
            out.check(False, f"heading {heading!r}")
    texts = [normalise(plain(c.text)) for c in chunks]
    heads = list(expect.get("running_heads", []))
    allowed = body_occurrences(paper.pdf, heads) if heads else {}
    for head in heads:
        want = normalise(head)
        if sum(ch.isalpha() for ch in want) < 3:
            # a page number: a unit of its own (inside a unit it cannot be told from a number)
            out.check(want not in texts, f"running head {head!r} a unit of its own")
            continue
        found = sum(t.count(want) for t in texts)
        out.check(found <= allowed[head], f"running head {head!r} in the text {found} times")
    for sentence in expect.get("joined", []):
        want = normalise(sentence)
        out.check(any(want in t for t in texts), f"not one unit: {sentence[:60]!r}…")
    return out
