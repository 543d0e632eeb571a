"""Hand-labelling helper for the PDF corpus (tests/data/pdfcorpus, issue 20).

Renders pages and measures ink, independently of duizhao's own detector and importer (the
labels must not depend on them). Every coordinate is in PDF points from the top-left of the
page as pypdfium2 renders it (crop box applied): ``[x0, top, x1, bottom]``, the ``box_tl`` of
tests/data/pdfcorpus/*.json.

Commands (``python scripts/labelling/floattool.py CMD --help`` for each):

  captions PDF             caption labels ("Figure 3", "Fig. 3.", "TABLE II") at line starts
  grid PDF PAGE -o PNG     the page at 100 dpi with a light 10-pt grid (labels every 50 pt)
  ink PDF PAGE BOX         the ink box inside BOX, and its 1-pt row/column profiles
  crop PDF PAGE BOX -o PNG a 150-dpi crop with the box outlined in red and a margin around it
  text PDF PAGE BOX        the text layer inside BOX
  objects PDF [PAGE]       page objects per type, counted through nested forms
  keep SRC PAGES OUT       copy the 1-based PAGES (e.g. 1,3-5) of SRC into OUT
  tighten DRAFT OUT        a draft's "rough" boxes to tight ink boxes, captions filled in
  headings PDF             candidate heading lines (bold or numbered), to read and confirm by eye
  check JSON               labels against the page: ring clear, edges touch ink, label on page
  sheet JSON -o PNG        a contact sheet of every page with the labelled boxes drawn

The ink threshold is 250/255 (a pixel darker than that is ink), measured on a 300-dpi
grayscale render; renders are cached in /tmp/floattool-cache.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from functools import lru_cache
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image, ImageDraw, ImageFont

INK_THRESHOLD = 250  # a pixel darker than this (0-255 gray) is ink
MEASURE_DPI = 300  # dpi of the render that ink is measured on
RING_PT = 1.5  # width of the ring just outside a box that must be free of ink
CACHE = Path("/tmp/floattool-cache")
ZWSP = "\u200b"  # stands for the second half of a UTF-16 surrogate pair (keeps indexes aligned)

CAPTION_LABEL = re.compile(
    r"(?P<label>(?:Figure|Fig\.|FIGURE|FIG\.|Table|TABLE|Tab\.)\s*(?P<num>(?:[A-Z]\.)?[0-9]+(?:\.[0-9]+)*|[IVXLC]+)"
    r"(?:\s*\([a-z]\))?)(?P<punct>\s*[:.|]?)"
)


# ---------------------------------------------------------------- rendering and ink


@lru_cache(maxsize=8)
def _doc(path: str) -> pdfium.PdfDocument:
    return pdfium.PdfDocument(path)


def render(path: str, page: int, dpi: int, gray: bool = True) -> Image.Image:
    """The 1-based ``page`` of ``path`` rendered at ``dpi`` (cached on disk)."""
    src = Path(path).resolve()
    key = hashlib.sha1(f"{src}:{src.stat().st_mtime_ns}".encode()).hexdigest()[:12]
    out = CACHE / f"{key}-p{page}-{dpi}-{'g' if gray else 'c'}.png"
    if out.exists():
        return Image.open(out)
    CACHE.mkdir(parents=True, exist_ok=True)
    pg = _doc(str(src))[page - 1]
    img = pg.render(scale=dpi / 72, grayscale=gray, may_draw_forms=True).to_pil()
    img = img.convert("L" if gray else "RGB")
    img.save(out)
    return img


def page_size(path: str, page: int) -> tuple[float, float]:
    return tuple(_doc(str(Path(path).resolve()))[page - 1].get_size())  # type: ignore[return-value]


def _pt_to_px(v: float, dpi: int) -> int:
    return round(v * dpi / 72)


def ink_mask(
    path: str, page: int, box: list[float], dpi: int = MEASURE_DPI
) -> tuple[Image.Image, int, int]:
    """A 0/255 mask of the ink inside ``box`` and the pixel offset of its top-left corner."""
    img = render(path, page, dpi)
    w, h = img.size
    x0 = max(0, _pt_to_px(box[0], dpi))
    y0 = max(0, _pt_to_px(box[1], dpi))
    x1 = min(w, _pt_to_px(box[2], dpi))
    y1 = min(h, _pt_to_px(box[3], dpi))
    crop = img.crop((x0, y0, max(x0, x1), max(y0, y1)))
    mask = crop.point(lambda v: 255 if v < INK_THRESHOLD else 0)
    return mask, x0, y0


def ink_box(path: str, page: int, box: list[float], dpi: int = MEASURE_DPI) -> list[float] | None:
    """The tight box (points) of the ink inside ``box``, or None when it holds no ink."""
    mask, ox, oy = ink_mask(path, page, box, dpi)
    bb = mask.getbbox()
    if bb is None:
        return None
    k = 72 / dpi
    return [
        round((ox + bb[0]) * k, 1),
        round((oy + bb[1]) * k, 1),
        round((ox + bb[2]) * k, 1),
        round((oy + bb[3]) * k, 1),
    ]


def profile(
    path: str, page: int, box: list[float], axis: str, dpi: int = MEASURE_DPI
) -> list[tuple[float, int, float, float]]:
    """Ink per 1-pt strip of ``box``: (strip start, ink pixels, first and last inked coordinate).

    ``axis`` "rows" cuts horizontal strips (for top/bottom edges), "cols" vertical ones.
    """
    out = []
    step = 1.0
    if axis == "rows":
        t = box[1]
        while t < box[3] - 1e-6:
            strip = [box[0], t, box[2], min(box[3], t + step)]
            mask, ox, _ = ink_mask(path, page, strip, dpi)
            bb = mask.getbbox()
            n = mask.histogram()[255]
            lo = hi = 0.0
            if bb:
                lo, hi = (ox + bb[0]) * 72 / dpi, (ox + bb[2]) * 72 / dpi
            out.append((round(t, 1), n, round(lo, 1), round(hi, 1)))
            t += step
    else:
        x = box[0]
        while x < box[2] - 1e-6:
            strip = [x, box[1], min(box[2], x + step), box[3]]
            mask, _, oy = ink_mask(path, page, strip, dpi)
            bb = mask.getbbox()
            n = mask.histogram()[255]
            lo = hi = 0.0
            if bb:
                lo, hi = (oy + bb[1]) * 72 / dpi, (oy + bb[3]) * 72 / dpi
            out.append((round(x, 1), n, round(lo, 1), round(hi, 1)))
            x += step
    return out


# ---------------------------------------------------------------- text layer


def page_text(path: str, page: int) -> tuple[str, list[tuple[float, float, float, float] | None]]:
    """The page's text and, per character, its box (top-left points) or None (generated)."""
    pg = _doc(str(Path(path).resolve()))[page - 1]
    left, _, _, top = pg.get_cropbox()
    tp = pg.get_textpage()
    n = tp.count_chars()
    chars = []
    boxes: list[tuple[float, float, float, float] | None] = []
    for i in range(n):
        code = pdfium_c.FPDFText_GetUnicode(tp.raw, i)
        chars.append(chr(code) if code else "\ufffd")
        if pdfium_c.FPDFText_IsGenerated(tp.raw, i) == 1:
            boxes.append(None)
            continue
        lft, b, r, t = tp.get_charbox(i)
        boxes.append((lft - left, top - t, r - left, top - b))
    for i in range(
        len(chars) - 1
    ):  # UTF-16 surrogate pairs: the character, then a zero-width space
        hi, lo = ord(chars[i]), ord(chars[i + 1])
        if 0xD800 <= hi < 0xDC00 and 0xDC00 <= lo < 0xE000:
            chars[i] = chr(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
            chars[i + 1] = ZWSP
    chars = ["\ufffd" if 0xD800 <= ord(c) < 0xE000 else c for c in chars]
    return "".join(chars), boxes


def text_in(path: str, page: int, box: list[float]) -> str:
    pg = _doc(str(Path(path).resolve()))[page - 1]
    left, _, _, top = pg.get_cropbox()
    tp = pg.get_textpage()
    return tp.get_text_bounded(box[0] + left, top - box[3], box[2] + left, top - box[1])


def text_lines(path: str, page: int) -> list[dict]:
    """The page's text lines in stream order: box (top-left points), font size and text."""
    pg = _doc(str(Path(path).resolve()))[page - 1]
    tp = pg.get_textpage()
    text, boxes = page_text(path, page)
    out = []
    start = 0
    for i in range(len(text) + 1):
        if i < len(text) and text[i] not in "\r\n":
            continue
        bs = [(b, j) for j, b in enumerate(boxes[start:i], start) if b and text[j].strip()]
        if bs:
            size = max(pdfium_c.FPDFText_GetFontSize(tp.raw, j) for _, j in bs)
            out.append(
                {
                    "x0": round(min(b[0] for b, _ in bs), 1),
                    "top": round(min(b[1] for b, _ in bs), 1),
                    "x1": round(max(b[2] for b, _ in bs), 1),
                    "bottom": round(max(b[3] for b, _ in bs), 1),
                    "size": round(size, 1),
                    "text": text[start:i].replace(ZWSP, "").strip(),
                }
            )
        start = i + 1
    return out


def caption_labels(path: str, page: int) -> list[dict]:
    """Caption labels that begin a line: label, number, position and the text that follows."""
    text, boxes = page_text(path, page)
    out = []
    for m in CAPTION_LABEL.finditer(text):
        i = m.start()
        if i > 0 and text[i - 1] not in "\r\n":
            continue
        bs = [b for b in boxes[m.start() : m.end("label")] if b]
        if not bs:
            continue
        x0 = min(b[0] for b in bs)
        top = min(b[1] for b in bs)
        bottom = max(b[3] for b in bs)
        end = text.find("\n", m.end())
        follow = text[m.end() : end if end > 0 else None].strip()
        out.append(
            {
                "label": m.group("label"),
                "punct": m.group("punct").strip(),
                "x0": round(x0, 1),
                "top": round(top, 1),
                "bottom": round(bottom, 1),
                "follow": follow[:90],
            }
        )
    return out


# ---------------------------------------------------------------- objects


def count_objects(path: str, page: int, max_depth: int = 64) -> dict[str, int]:
    pg = _doc(str(Path(path).resolve()))[page - 1]
    names = {
        pdfium_c.FPDF_PAGEOBJ_TEXT: "text",
        pdfium_c.FPDF_PAGEOBJ_PATH: "path",
        pdfium_c.FPDF_PAGEOBJ_IMAGE: "image",
        pdfium_c.FPDF_PAGEOBJ_SHADING: "shading",
        pdfium_c.FPDF_PAGEOBJ_FORM: "form",
    }
    counts: dict[str, int] = {}
    deepest = 0
    for obj in pg.get_objects(max_depth=max_depth):
        k = names.get(obj.type, "other")
        counts[k] = counts.get(k, 0) + 1
        deepest = max(deepest, obj.level)
    counts["max_form_level"] = deepest
    return counts


# ---------------------------------------------------------------- drawing


def _font(size: int) -> ImageFont.ImageFont:
    for name in ("DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default()


def grid_image(path: str, page: int, dpi: int = 100) -> Image.Image:
    img = render(path, page, dpi, gray=False).copy()
    w, h = page_size(path, page)
    over = Image.new("RGBA", img.size, (0, 0, 0, 0))
    d = ImageDraw.Draw(over)
    f = _font(9)
    for v in range(0, int(max(w, h)) + 1, 10):
        strong = v % 50 == 0
        col = (0, 90, 255, 110) if strong else (0, 160, 255, 45)
        px = _pt_to_px(v, dpi)
        if v <= w:
            d.line([(px, 0), (px, img.size[1])], fill=col, width=1)
            if strong:
                d.text((px + 1, 1), str(v), fill=(0, 60, 200, 255), font=f)
        if v <= h:
            d.line([(0, px), (img.size[0], px)], fill=col, width=1)
            if strong:
                d.text((1, px + 1), str(v), fill=(0, 60, 200, 255), font=f)
    return Image.alpha_composite(img.convert("RGBA"), over).convert("RGB")


def crop_image(
    path: str, page: int, boxes: list[list[float]], margin: float = 14, dpi: int = 150
) -> Image.Image:
    img = render(path, page, dpi, gray=False)
    x0 = max(0, min(b[0] for b in boxes) - margin)
    y0 = max(0, min(b[1] for b in boxes) - margin)
    x1 = max(b[2] for b in boxes) + margin
    y1 = max(b[3] for b in boxes) + margin
    c = img.crop(
        (_pt_to_px(x0, dpi), _pt_to_px(y0, dpi), _pt_to_px(x1, dpi), _pt_to_px(y1, dpi))
    ).copy()
    d = ImageDraw.Draw(c)
    for b in boxes:
        d.rectangle(
            [
                _pt_to_px(b[0] - x0, dpi) - 1,
                _pt_to_px(b[1] - y0, dpi) - 1,
                _pt_to_px(b[2] - x0, dpi),
                _pt_to_px(b[3] - y0, dpi),
            ],
            outline=(255, 0, 0),
            width=1,
        )
    return c


# ---------------------------------------------------------------- checks


def ring_ink(path: str, page: int, box: list[float]) -> dict[str, list[float] | None]:
    """Ink in the 1.5-pt strips just outside each edge of ``box``."""
    r = RING_PT
    x0, t, x1, b = box
    strips = {
        "left": [x0 - r, t - r, x0, b + r],
        "right": [x1, t - r, x1 + r, b + r],
        "top": [x0 - r, t - r, x1 + r, t],
        "bottom": [x0 - r, b, x1 + r, b + r],
    }
    return {k: ink_box(path, page, s) for k, s in strips.items()}


def edge_touch(path: str, page: int, box: list[float]) -> dict[str, bool]:
    """Whether the 0.6-pt strip inside each edge holds ink (a tight box touches every edge)."""
    e = 0.6
    x0, t, x1, b = box
    strips = {
        "left": [x0, t, x0 + e, b],
        "right": [x1 - e, t, x1, b],
        "top": [x0, t, x1, t + e],
        "bottom": [x0, b - e, x1, b],
    }
    return {k: ink_box(path, page, s) is not None for k, s in strips.items()}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def check(json_path: Path) -> int:
    data = json.loads(json_path.read_text(encoding="utf-8"))
    pdf = json_path.parent / data["file"]
    problems = 0
    doc = pdfium.PdfDocument(str(pdf))
    if len(doc) != data["pages"]:
        print(f"pages: json {data['pages']} != pdf {len(doc)}")
        problems += 1
    if sha256(pdf) != data["sha256"]:
        print("sha256 differs")
        problems += 1
    for it in data["items"]:
        tag = f"p{it['page']} {it['printed']}"
        box = it["box_tl"]
        tight = ink_box(str(pdf), it["page"], box)
        ring = {k: v for k, v in ring_ink(str(pdf), it["page"], box).items() if v}
        touch = edge_touch(str(pdf), it["page"], box)
        labels = [c["label"] for c in caption_labels(str(pdf), it["page"])]
        norm = lambda s: re.sub(r"\s+", " ", s)  # noqa: E731
        found = norm(it["printed"]) in {norm(x) for x in labels}
        flags = []
        if tight and any(abs(a - c) > 0.6 for a, c in zip(tight, box, strict=True)):
            flags.append(f"ink box {tight}")
        if ring:
            flags.append(f"ring ink {ring}")
        if not all(touch.values()):
            flags.append(f"edges without ink {[k for k, v in touch.items() if not v]}")
        if not found:
            flags.append(f"label not at a line start on the page (labels: {labels})")
        print(f"{tag}: {'ok' if not flags else '; '.join(flags)}")
        problems += bool(flags)
    return problems


def caption_sentence(path: str, page: int, printed: str) -> str | None:
    """The first sentence after ``printed`` where it begins a line on ``page`` (as the text layer
    spells it).

    The caption is the label's line and the lines after it in the same font size, each starting
    within 1.6 line heights of the one before. Line-end hyphens are joined, other line breaks
    become spaces; the sentence ends at the first full stop followed by a space and a capital.
    """
    lines = text_lines(path, page)
    label = re.compile(re.sub(r"\\?\s+", r"\\s*", re.escape(printed)) + r"(?![0-9])")
    starts = [(i, label.match(ln["text"])) for i, ln in enumerate(lines)]
    starts = [(i, m) for i, m in starts if m]
    # a label followed by ":" or "." (or ending its line, as "TABLE II") before a mention in text
    starts.sort(key=lambda im: not re.match(r"\s*([:.|]|$)", lines[im[0]]["text"][im[1].end() :]))
    for i, m in starts:
        ln = lines[i]
        parts = [ln["text"][m.end() :]]
        prev = ln
        for nxt in lines[i + 1 :]:
            height = prev["bottom"] - prev["top"]
            if (
                abs(nxt["size"] - ln["size"]) > 0.2
                or not 0 < nxt["top"] - prev["top"] < 1.6 * height + 1
            ):
                break
            parts.append(nxt["text"])
            prev = nxt
        rest = "\n".join(parts)
        rest = re.sub(r"^\s*[:.|]?\s*", "", rest)
        rest = re.sub(r"(\w)[-\u00ad\ufffe\x02]\n", r"\1", rest)
        rest = re.sub(r"[\x02\ufffe]", "", rest)
        rest = re.sub(r"\s*\n\s*", " ", rest)
        cut = re.search(r"[.?!](?=\s+[A-Z(\[]|\s*$)", rest)
        return (rest[: cut.end()] if cut else rest).strip()
    return None


def tighten(draft: Path, out: Path) -> None:
    """Write ``out`` from ``draft``: each item's ``rough`` box becomes the tight ink box inside it.

    ``rough`` is drawn by eye between the float body and its caption or the text around it; an
    item may instead give ``box_tl`` itself (kept as is) or ``rough`` plus ``clip`` edges
    ("top", "bottom", ...) to keep from the rough box where ink continues past the float (a rule
    shared with the page). A missing ``caption`` is read from the text layer.
    """
    data = json.loads(draft.read_text(encoding="utf-8"))
    pdf = str(draft.parent / data["file"])
    data["sha256"] = sha256(Path(pdf))
    data["pages"] = len(pdfium.PdfDocument(pdf))
    data["page_size"] = list(page_size(pdf, 1))
    items = []
    for it in data["items"]:
        it = dict(it)
        rough = it.pop("rough", None)
        keep = it.pop("clip", [])
        if rough:
            tight = ink_box(pdf, it["page"], rough)
            if tight is None:
                raise SystemExit(f"{it['printed']}: no ink inside {rough}")
            for edge in keep:
                i = ["left", "top", "right", "bottom"].index(edge)
                tight[i] = rough[i]
            it["box_tl"] = tight
        if not it.get("caption"):
            it["caption"] = caption_sentence(pdf, it["page"], it["printed"]) or ""
        order = ["kind", "number", "printed", "page", "box_tl", "caption", "note"]
        items.append(
            {k: it[k] for k in order if k in it} | {k: v for k, v in it.items() if k not in order}
        )
    data["items"] = items
    order = ["file", "sha256", "pages", "page_size", "style", "source", "items", "import"]
    data = {k: data[k] for k in order if k in data} | {
        k: v for k, v in data.items() if k not in order
    }
    out.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def heading_candidates(path: str) -> list[tuple[int, dict]]:
    """Lines that may be headings: starting in a bold font, or larger than the body text."""
    doc = _doc(str(Path(path).resolve()))
    sizes: dict[float, int] = {}
    pages = []
    for p in range(1, len(doc) + 1):
        lines = text_lines(path, p)
        pages.append(lines)
        for ln in lines:
            sizes[ln["size"]] = sizes.get(ln["size"], 0) + len(ln["text"])
    body = max(sizes, key=lambda k: sizes[k])
    out = []
    for p, lines in enumerate(pages, 1):
        tp = doc[p - 1].get_textpage()
        text, _ = page_text(path, p)
        for ln in lines:
            if ln["size"] < body - 0.6 or len(ln["text"]) > 90:
                continue
            i = text.find(ln["text"][:12])
            weight = pdfium_c.FPDFText_GetFontWeight(tp.raw, i) if i >= 0 else 0
            if weight >= 600 or ln["size"] > body + 0.6:
                out.append((p, ln | {"weight": weight}))
    return out


def crops_sheet(json_path: Path, page: int, out: Path) -> None:
    """Every labelled box of ``page`` as a 150-dpi crop (red outline, 14-pt margin), stacked."""
    data = json.loads(json_path.read_text(encoding="utf-8"))
    pdf = str(json_path.parent / data["file"])
    crops = []
    for it in data["items"]:
        if it["page"] != page:
            continue
        c = crop_image(pdf, page, [it["box_tl"]])
        head = Image.new("RGB", (c.size[0], 16), (255, 255, 210))
        ImageDraw.Draw(head).text(
            (3, 2), f"{it['printed']}  {it['box_tl']}", fill=(0, 0, 0), font=_font(11)
        )
        both = Image.new("RGB", (c.size[0], c.size[1] + 16), (255, 255, 255))
        both.paste(head, (0, 0))
        both.paste(c, (0, 16))
        crops.append(both)
    if not crops:
        return
    w = max(c.size[0] for c in crops)
    h = sum(c.size[1] for c in crops) + 8 * (len(crops) - 1)
    im = Image.new("RGB", (w, h), (90, 90, 90))
    y = 0
    for c in crops:
        im.paste(c, (0, y))
        y += c.size[1] + 8
    im.save(out)


def sheet(json_path: Path, out: Path, dpi: int = 60, cols: int = 4) -> None:
    data = json.loads(json_path.read_text(encoding="utf-8"))
    pdf = str(json_path.parent / data["file"])
    tiles = []
    for p in range(1, data["pages"] + 1):
        im = render(pdf, p, dpi, gray=False).copy()
        d = ImageDraw.Draw(im)
        for it in data["items"]:
            if it["page"] != p:
                continue
            b = [_pt_to_px(v, dpi) for v in it["box_tl"]]
            col = (220, 0, 0) if it["kind"] == "figure" else (0, 110, 220)
            d.rectangle(b, outline=col, width=2)
            d.text((b[0] + 2, b[1] + 2), it["printed"], fill=col, font=_font(10))
        d.text((4, 4), f"p{p}", fill=(0, 150, 0), font=_font(14))
        tiles.append(im)
    w = max(t.size[0] for t in tiles)
    h = max(t.size[1] for t in tiles)
    rows = (len(tiles) + cols - 1) // cols
    out_im = Image.new("RGB", (cols * w + (cols - 1) * 6, rows * h + (rows - 1) * 6), (90, 90, 90))
    for i, t in enumerate(tiles):
        out_im.paste(t, ((i % cols) * (w + 6), (i // cols) * (h + 6)))
    out_im.save(out)


# ---------------------------------------------------------------- command line


def _pages(spec: str) -> list[int]:
    out: list[int] = []
    for part in spec.split(","):
        if "-" in part:
            a, b = part.split("-")
            out.extend(range(int(a), int(b) + 1))
        else:
            out.append(int(part))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("captions")
    s.add_argument("pdf")
    s.add_argument("--pages", default="")
    s = sub.add_parser("grid")
    s.add_argument("pdf")
    s.add_argument("page", type=int)
    s.add_argument("-o", "--out", required=True)
    s.add_argument("--dpi", type=int, default=100)
    for name in ("ink", "crop", "text"):
        s = sub.add_parser(name)
        s.add_argument("pdf")
        s.add_argument("page", type=int)
        s.add_argument(
            "box", type=float, nargs="+", help="x0 top x1 bottom (several boxes for crop)"
        )
        if name == "ink":
            s.add_argument("--rows", action="store_true", help="print the 1-pt row profile")
            s.add_argument("--cols", action="store_true", help="print the 1-pt column profile")
        if name == "crop":
            s.add_argument("-o", "--out", required=True)
            s.add_argument("--margin", type=float, default=14)
            s.add_argument("--dpi", type=int, default=150)
    s = sub.add_parser("lines")
    s.add_argument("pdf")
    s.add_argument("page", type=int)
    s.add_argument("box", type=float, nargs="*", help="only lines that overlap x0 top x1 bottom")
    s = sub.add_parser("crops")
    s.add_argument("json", type=Path)
    s.add_argument("page", type=int)
    s.add_argument("-o", "--out", required=True)
    s = sub.add_parser("objects")
    s.add_argument("pdf")
    s.add_argument("page", type=int, nargs="?")
    s = sub.add_parser("keep")
    s.add_argument("src")
    s.add_argument("pages")
    s.add_argument("out")
    s = sub.add_parser("tighten")
    s.add_argument("draft", type=Path)
    s.add_argument("out", type=Path)
    s = sub.add_parser("headings")
    s.add_argument("pdf")
    s = sub.add_parser("check")
    s.add_argument("json", type=Path)
    s = sub.add_parser("sheet")
    s.add_argument("json", type=Path)
    s.add_argument("-o", "--out", type=Path, required=True)
    s.add_argument("--dpi", type=int, default=60)
    s.add_argument("--cols", type=int, default=4)
    a = ap.parse_args(argv)

    if a.cmd == "captions":
        n = len(_doc(str(Path(a.pdf).resolve())))
        for p in _pages(a.pages) if a.pages else range(1, n + 1):
            for c in caption_labels(a.pdf, p):
                print(
                    f"p{p} {c['label']!r}{c['punct']} x0={c['x0']} top={c['top']} "
                    f"bottom={c['bottom']} | {c['follow']}"
                )
    elif a.cmd == "grid":
        grid_image(a.pdf, a.page, a.dpi).save(a.out)
    elif a.cmd == "ink":
        box = a.box[:4]
        print("ink box:", ink_box(a.pdf, a.page, box))
        for axis in ("rows", "cols"):
            if getattr(a, axis):
                for start, n, lo, hi in profile(a.pdf, a.page, box, axis):
                    print(
                        f"  {axis[:-1]} {start:7.1f} ink={n:6d} "
                        f"{'' if not n else f'{lo:.1f}..{hi:.1f}'}"
                    )
    elif a.cmd == "crop":
        boxes = [a.box[i : i + 4] for i in range(0, len(a.box), 4)]
        crop_image(a.pdf, a.page, boxes, a.margin, a.dpi).save(a.out)
    elif a.cmd == "text":
        print(text_in(a.pdf, a.page, a.box[:4]))
    elif a.cmd == "lines":
        for ln in text_lines(a.pdf, a.page):
            b = a.box
            if b and (
                ln["x1"] < b[0] or ln["x0"] > b[2] or ln["bottom"] < b[1] or ln["top"] > b[3]
            ):
                continue
            print(
                f"{ln['top']:6.1f}-{ln['bottom']:6.1f} x {ln['x0']:6.1f}-{ln['x1']:6.1f} "
                f"{ln['size']:4.1f}pt | {ln['text'][:70]}"
            )
    elif a.cmd == "crops":
        crops_sheet(a.json, a.page, Path(a.out))
    elif a.cmd == "objects":
        n = len(_doc(str(Path(a.pdf).resolve())))
        for p in [a.page] if a.page else range(1, n + 1):
            print(f"p{p}", count_objects(a.pdf, p))
    elif a.cmd == "keep":
        src = pdfium.PdfDocument(a.src)
        dst = pdfium.PdfDocument.new()
        dst.import_pages(src, [p - 1 for p in _pages(a.pages)])
        dst.save(a.out)
        print(f"{a.out}: {len(dst)} pages, {Path(a.out).stat().st_size} bytes")
    elif a.cmd == "tighten":
        tighten(a.draft, a.out)
    elif a.cmd == "headings":
        for p, ln in heading_candidates(a.pdf):
            print(f"p{p} {ln['top']:6.1f} x{ln['x0']:6.1f} {ln['size']:4.1f}pt | {ln['text']}")
    elif a.cmd == "check":
        return 1 if check(a.json) else 0
    elif a.cmd == "sheet":
        sheet(a.json, a.out, a.dpi, a.cols)
    return 0


if __name__ == "__main__":
    sys.exit(main())
