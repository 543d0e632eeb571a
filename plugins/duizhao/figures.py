"""The paper's figures: read ``<article>.figures.yml``, check it, crop, encode and cache. Pure.

An article ``docs/x/foo.md`` declares where each of the paper's figures sits in a file beside
it, ``docs/x/foo.figures.yml``::

    source: ../../papers/foo.pdf   # default source, relative to this file: PDF, PNG, JPEG, WebP
    dpi: 200                       # PDF render resolution (default 200)
    figures:
      - id: 1                      # the paper's own figure number
        page: 3                    # 1-based PDF page (not for raster sources)
        box: [72, 96, 540, 380]    # x0, y0, x1, y1 from the top-left: PDF points, or pixels
        caption: {en: Overview., zh: 总览。}
        alt: 组件与数据流           # optional; defaults to the zh caption

This module reads and checks those files (:class:`Catalog`), turns each declared figure into a
:class:`Crop` (its output size and cache key are known before any pixel is made) and makes the
missing crops (:func:`make_crops`) in worker processes. PDF pages are rasterised with pypdfium2
(only the box, at the spec's dpi), crops are encoded with Pillow.

Encoding (:class:`Encoder`): WebP, lossless or lossy by the crop's colour count. Figures
rendered from a vector PDF are line art and text with few colours (250–900 in the demo paper):
lossless WebP keeps glyphs sharp and is also the smallest (demo figure 1, 1300×693: 16 KB
lossless, 19 KB lossy q90, 40 KB PNG). Raster content (photos, scans, JPEG-compressed pages;
over 4096 colours) goes lossy at q90: there lossless was 3× larger and slower (a JPEG-page crop
of 1300×799: 30 KB and 400 ms lossless, 9 KB and 150 ms lossy, 48 KB PNG). Lossless uses a low
effort (``method=1, quality=25``): Pillow's default effort took up to 3× as long for files
under 10 % smaller. PNG is kept only where WebP cannot go (a side longer than 16383 px), or
everywhere with ``format: png``.

The cache lives in ``<cache_dir>/figures/``: one file per crop named by a SHA-256 digest of
(source bytes, page, box, dpi, encoder settings, renderer version) and ``manifest.json``, which
records every crop made and what was learnt about each source (page sizes, or why it is
unusable) by the digest of its bytes. A warm build hashes the sources and renders nothing.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import posixpath
import tempfile
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar

import yaml
from PIL import Image, ImageDraw, ImageFont

from .article import Article, FigurePlacement
from .diagnostics import Diagnostic

SPEC_SUFFIX = ".figures.yml"
DEFAULT_DPI = 200
MAX_DPI = 1200
#: Bumped when a change in this module changes the pixels of a crop.
RENDER_VERSION = 1
#: WebP cannot hold a side longer than this.
WEBP_MAX_SIDE = 16383
FORMATS = ("auto", "lossless", "png")
PDF_MAGIC = b"%PDF-"

_TOP_KEYS = ("source", "dpi", "figures")
_FIGURE_KEYS = ("id", "page", "box", "caption", "alt", "source", "dpi")
_EXAMPLE = "- {id: 1, page: 3, box: [72, 96, 540, 380], caption: {en: Overview., zh: 总览。}}"


# --------------------------------------------------------------------------------------------
# Spec data


@dataclass(frozen=True)
class SourceRef:
    """A ``source:`` as written, where it points and the spec line that names it."""

    written: str
    path: Path
    line: int


@dataclass(frozen=True)
class FigureSpec:
    id: int
    line: int
    source: SourceRef
    page: int | None
    page_line: int
    box: tuple[float, float, float, float]
    box_line: int
    dpi: int
    #: the .figures.yml that declares it
    spec_path: Path
    caption_en: str = ""
    caption_zh: str = ""
    alt: str = ""

    @property
    def alt_text(self) -> str:
        return self.alt or self.caption_zh or self.caption_en or f"图 {self.id}"


@dataclass
class Spec:
    """One ``.figures.yml``: the figures that parsed, and what was wrong with the rest."""

    path: Path
    figures: list[FigureSpec] = field(default_factory=list)
    #: every id declared (also those of entries with problems), with its line
    declared: dict[int, int] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: False when the file as a whole could not be read (its placements are then not checked)
    readable: bool = True


def spec_path(article_path: Path) -> Path:
    """``docs/x/foo.md`` → ``docs/x/foo.figures.yml``."""
    return article_path.with_name(article_path.stem + SPEC_SUFFIX)


class _SpecError(Exception):
    def __init__(self, line: int, code: str, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.code = code
        self.message = message


def _line(node: yaml.Node) -> int:
    return int(node.start_mark.line) + 1


def _plain(node: yaml.Node) -> Any:
    loader = yaml.SafeLoader("")
    try:
        return loader.construct_object(node, deep=True)
    finally:
        loader.dispose()


def _mapping(node: yaml.Node, what: str, keys: Sequence[str]) -> dict[str, yaml.Node]:
    if not isinstance(node, yaml.MappingNode):
        raise _SpecError(_line(node), "DZ105", f"{what} must be a mapping of 'key: value' pairs")
    found: dict[str, yaml.Node] = {}
    for key, value in node.value:
        name = str(_plain(key))
        if name not in keys:
            raise _SpecError(
                _line(key),
                "DZ105",
                f"unknown key {name!r} in {what}; expected one of {', '.join(keys)}",
            )
        found[name] = value
    return found


def _int(node: yaml.Node, what: str, example: str, low: int = 1, high: int | None = None) -> int:
    value = _plain(node)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _SpecError(
            _line(node), "DZ105", f"{what} must be a whole number, got {value!r}; write {example!r}"
        )
    if value < low or (high is not None and value > high):
        bound = f"between {low} and {high}" if high is not None else f"at least {low}"
        raise _SpecError(_line(node), "DZ105", f"{what} {value} must be {bound}; write {example!r}")
    return value


def _str(node: yaml.Node, what: str, example: str) -> str:
    value = _plain(node)
    if not isinstance(value, str) or not value.strip():
        raise _SpecError(
            _line(node), "DZ105", f"{what} must be text, got {value!r}; write {example!r}"
        )
    return value.strip()


def _box(node: yaml.Node) -> tuple[float, float, float, float]:
    value = _plain(node)
    if (
        not isinstance(value, list)
        or len(value) != 4
        or any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in value)
    ):
        raise _SpecError(
            _line(node),
            "DZ105",
            f"box must be four numbers [x0, y0, x1, y1], got {value!r}; "
            "write 'box: [72, 96, 540, 380]'",
        )
    x0, y0, x1, y1 = (float(v) for v in value)
    if x1 < x0 or y1 < y0:
        raise _SpecError(
            _line(node),
            "DZ109",
            f"box {value!r} is inverted: x1 and y1 must be larger than x0 and y0 "
            f"(from the top-left); write 'box: [{min(x0, x1):g}, {min(y0, y1):g}, "
            f"{max(x0, x1):g}, {max(y0, y1):g}]'",
        )
    if x1 == x0 or y1 == y0:
        raise _SpecError(
            _line(node),
            "DZ109",
            f"box {value!r} is empty; give the figure a width and a height, as in "
            "'box: [72, 96, 540, 380]'",
        )
    return x0, y0, x1, y1


def _caption(node: yaml.Node) -> tuple[str, str]:
    fields = _mapping(node, "caption", ("en", "zh"))
    en = _str(fields["en"], "caption.en", "en: Overview.") if "en" in fields else ""
    zh = _str(fields["zh"], "caption.zh", "zh: 总览。") if "zh" in fields else ""
    return en, zh


def _source(node: yaml.Node, spec_file: Path, root: Path) -> SourceRef:
    written = _str(node, "source", "source: ../../papers/paper.pdf")
    resolved = Path(os.path.realpath(spec_file.parent / written))
    if not resolved.is_relative_to(root):
        raise _SpecError(
            _line(node),
            "DZ107",
            f"source {written!r} is outside the project root {str(root)!r}; keep the paper "
            "inside the project, as in 'source: ../../papers/paper.pdf'",
        )
    if not resolved.is_file():
        raise _SpecError(
            _line(node),
            "DZ106",
            f"source {written!r} does not exist (looked for {str(resolved)!r}); "
            "paths are relative to the .figures.yml file",
        )
    return SourceRef(written, resolved, _line(node))


def load_spec(path: Path, root: Path) -> Spec:
    """Read and validate one spec file; sources resolve relative to it and stay under ``root``."""
    root = Path(os.path.realpath(root))
    spec = Spec(path=path)

    def problem(p: _SpecError, fatal: bool = True) -> None:
        spec.diagnostics.append(Diagnostic(path, p.line, p.code, p.message))
        spec.readable = spec.readable and not fatal

    try:
        text = path.read_bytes().decode("utf-8-sig")
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except OSError as exc:
        problem(_SpecError(1, "DZ105", f"cannot read figure spec: {exc.strerror or exc}"))
        return spec
    except UnicodeDecodeError as exc:
        problem(
            _SpecError(1, "DZ105", f"figure spec is not UTF-8 ({exc.reason}); save it as UTF-8")
        )
        return spec
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark is not None else 1
        what = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        snippet = text.splitlines()[line - 1].strip() if line <= len(text.splitlines()) else ""
        problem(
            _SpecError(
                line,
                "DZ105",
                f"unreadable figure spec: {what} in {snippet!r}; "
                f"write YAML such as 'figures:' then '  {_EXAMPLE}'",
            )
        )
        return spec
    if node is None:
        problem(_SpecError(1, "DZ105", f"figure spec is empty; add 'figures:' then '  {_EXAMPLE}'"))
        return spec
    try:
        top = _mapping(node, "the figure spec", _TOP_KEYS)
        if "figures" not in top:
            raise _SpecError(1, "DZ105", f"figure spec has no 'figures:' list; add '  {_EXAMPLE}'")
        dpi = _int(top["dpi"], "dpi", "dpi: 200", 1, MAX_DPI) if "dpi" in top else DEFAULT_DPI
        entries = top["figures"]
        if not isinstance(entries, yaml.SequenceNode):
            raise _SpecError(
                _line(entries), "DZ105", f"'figures:' must be a list of entries such as {_EXAMPLE}"
            )
    except _SpecError as p:
        problem(p)
        return spec
    default: SourceRef | _SpecError | None = None
    if "source" in top:
        try:
            default = _source(top["source"], path, root)
        except _SpecError as p:
            problem(p, fatal=False)
            default = p
    for entry in entries.value:
        try:
            figure = _figure(entry, spec, default, dpi, root)
        except _SpecError as p:
            problem(p, fatal=False)
            continue
        if figure is not None:
            spec.figures.append(figure)
    return spec


def _figure(
    entry: yaml.Node, spec: Spec, default: SourceRef | _SpecError | None, dpi: int, root: Path
) -> FigureSpec | None:
    if isinstance(entry, yaml.MappingNode):
        # Declare the id before anything else in the entry can fail, so that its placement is
        # not reported as unknown as well.
        for key, value in entry.value:
            fid = _plain(value) if _plain(key) == "id" else None
            if isinstance(fid, int) and not isinstance(fid, bool) and fid not in spec.declared:
                spec.declared[fid] = _line(value)
    fields = _mapping(entry, "a figure entry", _FIGURE_KEYS)
    if "id" not in fields:
        raise _SpecError(_line(entry), "DZ105", f"figure entry has no id; write it as {_EXAMPLE}")
    fid = _int(fields["id"], "figure id", "id: 3")
    line = _line(fields["id"])
    if spec.declared.get(fid, line) != line:
        raise _SpecError(
            line,
            "DZ112",
            f"figure {fid} is declared twice (first at line {spec.declared[fid]}); "
            "give each of the paper's figures one entry",
        )
    spec.declared[fid] = line
    if "source" in fields:
        source = _source(fields["source"], spec.path, root)
    elif isinstance(default, SourceRef):
        source = default
    elif isinstance(default, _SpecError):
        return None  # already reported at the top-level 'source:'
    else:
        raise _SpecError(
            line,
            "DZ105",
            f"figure {fid} has no source; add 'source: ../../papers/paper.pdf' at the top "
            "or to the entry",
        )
    if "box" not in fields:
        raise _SpecError(
            line, "DZ105", f"figure {fid} has no box; add 'box: [x0, y0, x1, y1]' to the entry"
        )
    box = _box(fields["box"])
    page = _int(fields["page"], "page", "page: 3") if "page" in fields else None
    fig_dpi = _int(fields["dpi"], "dpi", "dpi: 200", 1, MAX_DPI) if "dpi" in fields else dpi
    en, zh = _caption(fields["caption"]) if "caption" in fields else ("", "")
    alt = _str(fields["alt"], "alt", "alt: 组件与数据流") if "alt" in fields else ""
    return FigureSpec(
        id=fid,
        line=line,
        source=source,
        page=page,
        page_line=_line(fields["page"]) if "page" in fields else line,
        box=box,
        box_line=_line(fields["box"]),
        dpi=fig_dpi,
        spec_path=spec.path,
        caption_en=en,
        caption_zh=zh,
        alt=alt,
    )


# --------------------------------------------------------------------------------------------
# Sources


@dataclass(frozen=True)
class SourceInfo:
    """What a source file is: a PDF with page sizes (points) or an image with its pixel size."""

    digest: str
    kind: str  # "pdf" | "image" | "bad"
    sizes: tuple[tuple[float, float], ...] = ()
    code: str = ""
    error: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "sizes": self.sizes, "code": self.code, "error": self.error}

    @classmethod
    def from_json(cls, digest: str, data: dict[str, Any]) -> SourceInfo:
        sizes = tuple((float(w), float(h)) for w, h in data.get("sizes", ()))
        return cls(digest, str(data["kind"]), sizes, str(data["code"]), str(data["error"]))


def digest_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def inspect_source(data: bytes, digest: str | None = None) -> SourceInfo:
    """Open a source fully (decoding images, so truncation shows) and describe it."""
    digest = digest or digest_bytes(data)
    if data.startswith(PDF_MAGIC):
        import pypdfium2 as pdfium

        try:
            pdf = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as exc:
            return SourceInfo(digest, "bad", (), "DZ110", f"corrupt or truncated PDF ({exc})")
        try:
            sizes = tuple(pdf.get_page_size(i) for i in range(len(pdf)))
        except pdfium.PdfiumError as exc:
            return SourceInfo(digest, "bad", (), "DZ110", f"corrupt PDF page table ({exc})")
        finally:
            pdf.close()
        return SourceInfo(digest, "pdf", sizes)
    try:
        with _open_image(data) as im:
            im.load()
            size = (float(im.width), float(im.height))
    except _BombError as exc:
        return SourceInfo(digest, "bad", (), "DZ111", str(exc))
    except (OSError, SyntaxError, ValueError) as exc:
        # Pillow signals unknown, corrupt and truncated data with these (UnidentifiedImageError
        # is an OSError); the message says which.
        return SourceInfo(digest, "bad", (), "DZ110", f"corrupt or truncated image ({exc})")
    return SourceInfo(digest, "image", (size,))


class _BombError(Exception):
    pass


def _open_image(data: bytes) -> Image.Image:
    """Image.open, refusing anything over Pillow's decompression-bomb limit before decoding."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            im = Image.open(io.BytesIO(data))
        except (Image.DecompressionBombWarning, Image.DecompressionBombError) as exc:
            raise _BombError(
                f"image is over Pillow's decompression-bomb limit of {Image.MAX_IMAGE_PIXELS} "
                f"pixels ({exc}); use a smaller page image"
            ) from exc
    return im


# --------------------------------------------------------------------------------------------
# Crops


@dataclass(frozen=True)
class Encoder:
    """Encoder settings; part of every cache key.

    ``auto``: lossless WebP for line art and text (at most :attr:`MAX_LOSSLESS_COLORS`
    colours), lossy WebP for photographs and scanned or JPEG-compressed pages (more colours);
    ``lossless``: always lossless WebP; ``png``: always PNG. WebP gives way to PNG for a side
    over 16383 px.
    """

    format: str = "auto"
    MAX_LOSSLESS_COLORS: ClassVar[int] = 4096
    LOSSLESS: ClassVar[Mapping[str, Any]] = MappingProxyType(
        {"lossless": True, "quality": 25, "method": 1}
    )
    LOSSY: ClassVar[Mapping[str, Any]] = MappingProxyType({"quality": 90, "method": 4})
    PNG: ClassVar[Mapping[str, Any]] = MappingProxyType({"compress_level": 6})

    def choose(self, width: int, height: int) -> str:
        if self.format == "png" or max(width, height) > WEBP_MAX_SIDE:
            return "png"
        return "webp"

    def settings(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "max_lossless_colors": self.MAX_LOSSLESS_COLORS,
            "lossless": dict(self.LOSSLESS),
            "lossy": dict(self.LOSSY),
            "png": dict(self.PNG),
        }

    def options(self, im: Image.Image, fmt: str) -> dict[str, Any]:
        """Pillow save options for ``im`` in ``fmt`` (the colour count picks lossy or not)."""
        if fmt == "png":
            return dict(self.PNG)
        if self.format == "auto" and im.getcolors(self.MAX_LOSSLESS_COLORS) is None:
            return dict(self.LOSSY)
        return dict(self.LOSSLESS)


@dataclass(frozen=True)
class Crop:
    """One figure to cut: everything a worker needs, and the key naming its output."""

    figure: FigureSpec
    kind: str
    digest: str
    width: int
    height: int
    format: str
    key: str

    @property
    def filename(self) -> str:
        return f"{self.key}.{self.format}"


def crop_size(kind: str, box: tuple[float, float, float, float], dpi: int) -> tuple[int, int]:
    """Output pixels: the box at ``dpi`` for PDFs (points are 1/72 in), the box for images."""
    x0, y0, x1, y1 = box
    scale = dpi / 72 if kind == "pdf" else 1.0
    return max(1, round((x1 - x0) * scale)), max(1, round((y1 - y0) * scale))


def crop_key(
    digest: str, page: int | None, box: Sequence[float], dpi: int | None, fmt: str, encoder: Encoder
) -> str:
    material = json.dumps(
        [RENDER_VERSION, digest, page, list(box), dpi, fmt, encoder.settings()], sort_keys=True
    )
    return hashlib.sha256(material.encode()).hexdigest()


@dataclass(frozen=True)
class CropResult:
    key: str
    ok: bool
    error: str = ""
    code: str = "DZ110"


def render_box(page: Any, box: Sequence[float], dpi: int, width: int, height: int) -> Image.Image:
    """Rasterise only ``box`` (points from the top-left) of a pypdfium2 page at ``dpi``."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    scale = dpi / 72
    bitmap = pdfium.PdfBitmap.new_native(
        width, height, format=pdfium_c.FPDFBitmap_BGR, rev_byteorder=True
    )
    bitmap.fill_rect((255, 255, 255, 255), 0, 0, width, height)
    # Device coordinates start at the top-left, as boxes do: shift the page so the box's
    # corner lands on the bitmap's origin and let PDFium clip the rest.
    pdfium_c.FPDF_RenderPageBitmap(
        bitmap,
        page,
        -round(box[0] * scale),
        -round(box[1] * scale),
        math.ceil(page.get_width() * scale),
        math.ceil(page.get_height() * scale),
        0,
        pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_REVERSE_BYTE_ORDER,
    )
    image: Image.Image = bitmap.to_pil()
    return image


def _render_pdf(pdf: Any, crop: Crop) -> Image.Image:
    figure = crop.figure
    assert figure.page is not None
    page = pdf[figure.page - 1]
    try:
        return render_box(page, figure.box, figure.dpi, crop.width, crop.height)
    finally:
        page.close()


def _crop_image(im: Image.Image, crop: Crop) -> Image.Image:
    left, top = round(crop.figure.box[0]), round(crop.figure.box[1])
    out = im.crop((left, top, left + crop.width, top + crop.height))
    if out.mode not in ("RGB", "RGBA"):
        has_alpha = out.mode in ("LA", "PA") or "transparency" in out.info
        out = out.convert("RGBA" if has_alpha else "RGB")
    return out


def _encode(im: Image.Image, crop: Crop, encoder: Encoder, out: Path) -> None:
    buffer = io.BytesIO()
    im.save(buffer, format=crop.format.upper(), **encoder.options(im, crop.format))
    _write_atomic(out, buffer.getvalue())


def run_crops(
    source: Path, crops: Sequence[Crop], encoder: Encoder, out_dir: Path
) -> list[CropResult]:
    """Cut ``crops`` (all from ``source``) into ``out_dir``. Runs in a worker process."""
    results: list[CropResult] = []
    try:
        data = source.read_bytes()
    except OSError as exc:
        return [CropResult(c.key, False, f"cannot read source: {exc.strerror}") for c in crops]
    if crops and crops[0].kind == "pdf":
        import pypdfium2 as pdfium

        try:
            pdf = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as exc:
            return [CropResult(c.key, False, f"corrupt or truncated PDF ({exc})") for c in crops]
        try:
            for crop in crops:
                try:
                    _encode(_render_pdf(pdf, crop), crop, encoder, out_dir / crop.filename)
                except (pdfium.PdfiumError, OSError, ValueError) as exc:
                    results.append(CropResult(crop.key, False, f"cannot render: {exc}"))
                else:
                    results.append(CropResult(crop.key, True))
        finally:
            pdf.close()
        return results
    try:
        with _open_image(data) as im:
            im.load()
            for crop in crops:
                _encode(_crop_image(im, crop), crop, encoder, out_dir / crop.filename)
                results.append(CropResult(crop.key, True))
    except _BombError as exc:
        return [CropResult(c.key, False, str(exc), "DZ111") for c in crops]
    except (OSError, SyntaxError, ValueError) as exc:
        return [CropResult(c.key, False, f"corrupt or truncated image ({exc})") for c in crops]
    return results


# --------------------------------------------------------------------------------------------
# Cache


class Cache:
    """``<dir>/figures/``: encoded crops named by key, and a manifest of crops and sources."""

    VERSION = 1

    def __init__(self, directory: Path) -> None:
        self.dir = directory / "figures"
        self.manifest_path = self.dir / "manifest.json"
        self.crops: dict[str, dict[str, Any]] = {}
        self.sources: dict[str, dict[str, Any]] = {}
        self._dirty = False
        try:
            data = json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return  # no cache yet, or an unreadable one: start afresh
        if isinstance(data, dict) and data.get("version") == self.VERSION:
            self.crops = dict(data.get("crops", {}))
            self.sources = dict(data.get("sources", {}))

    def path(self, crop: Crop) -> Path:
        return self.dir / crop.filename

    def has(self, crop: Crop) -> bool:
        return crop.key in self.crops and self.path(crop).is_file()

    def source_info(self, digest: str) -> SourceInfo | None:
        data = self.sources.get(digest)
        if data is None:
            return None
        try:
            return SourceInfo.from_json(digest, data)
        except (KeyError, TypeError, ValueError):
            return None

    def remember_source(self, info: SourceInfo) -> None:
        if self.sources.get(info.digest) != info.to_json():
            self.sources[info.digest] = info.to_json()
            self._dirty = True

    def remember_crop(self, crop: Crop) -> None:
        self.crops[crop.key] = {
            "file": crop.filename,
            "width": crop.width,
            "height": crop.height,
            "format": crop.format,
        }
        self._dirty = True

    def save(self) -> None:
        if not self._dirty:
            return
        self.dir.mkdir(parents=True, exist_ok=True)
        data = {"version": self.VERSION, "crops": self.crops, "sources": self.sources}
        _write_atomic(self.manifest_path, json.dumps(data, indent=1, sort_keys=True).encode())
        self._dirty = False


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(name, 0o644)  # mkstemp makes 0600 files; crops are published
        os.replace(name, path)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise


# --------------------------------------------------------------------------------------------
# The catalog: specs and sources of a build, checks and crop plans


@dataclass
class ArticleFigures:
    """The figures of one article: its spec and a crop for each usable declared figure."""

    article: Article
    spec: Spec | None
    crops: dict[int, Crop] = field(default_factory=dict)

    @property
    def figures(self) -> dict[int, FigureSpec]:
        return {f.id: f for f in self.spec.figures} if self.spec else {}

    def placed(self) -> list[tuple[FigurePlacement, FigureSpec, Crop | None]]:
        """Placements with a declared figure, first placement of each id, in page order."""
        declared = self.figures
        seen: set[int] = set()
        out = []
        for placement in self.article.figures:
            fid = int(placement.id) if placement.id.isdigit() else -1
            if fid in declared and fid not in seen:
                seen.add(fid)
                out.append((placement, declared[fid], self.crops.get(fid)))
        return out


class Catalog:
    """Specs and sources seen in one build or check run, read once each.

    ``root`` is the project root (the folder of mkdocs.yml): no source may lie outside it.
    ``cache`` (optional) remembers what was learnt about each source by its digest, so a warm
    build does not decode images again.
    """

    def __init__(self, root: Path, cache: Cache | None = None, encoder: Encoder | None = None):
        self.root = Path(os.path.realpath(root))
        self.cache = cache
        self.encoder = encoder or Encoder()
        self._specs: dict[Path, Spec | None] = {}
        self._sources: dict[Path, SourceInfo] = {}
        self._articles: dict[Path, ArticleFigures] = {}

    def spec(self, article: Article) -> Spec | None:
        path = spec_path(article.path)
        key = path.resolve()
        if key not in self._specs:
            self._specs[key] = load_spec(path, self.root) if path.is_file() else None
        return self._specs[key]

    def source(self, path: Path) -> SourceInfo:
        if path not in self._sources:
            try:
                data = path.read_bytes()
            except OSError as exc:
                info = SourceInfo("", "bad", (), "DZ106", f"cannot read: {exc.strerror}")
            else:
                digest = digest_bytes(data)
                known = self.cache.source_info(digest) if self.cache else None
                info = known or inspect_source(data, digest)
                if self.cache is not None:
                    self.cache.remember_source(info)
            self._sources[path] = info
        return self._sources[path]

    def sources(self) -> list[Path]:
        """Every source file named by a spec read so far."""
        found = {f.source.path for s in self._specs.values() if s for f in s.figures}
        return sorted(found)

    def figures(self, article: Article) -> ArticleFigures:
        """The article's spec and crop plan (problems are reported by :meth:`check`)."""
        key = article.path.resolve()
        if key not in self._articles:
            spec = self.spec(article)
            result = ArticleFigures(article, spec)
            if spec is not None:
                for figure in spec.figures:
                    crop, _problem = self._plan(figure)
                    if crop is not None:
                        result.crops[figure.id] = crop
            self._articles[key] = result
        return self._articles[key]

    def _plan(self, figure: FigureSpec) -> tuple[Crop | None, _SpecError | None]:
        info = self.source(figure.source.path)
        where = f"source {figure.source.written!r}"
        if info.kind == "bad":
            return None, _SpecError(figure.source.line, info.code, f"{where}: {info.error}")
        box = figure.box
        if info.kind == "pdf":
            if figure.page is None:
                return None, _SpecError(
                    figure.line,
                    "DZ108",
                    f"figure {figure.id} has no page; {where} is a PDF of {len(info.sizes)} "
                    "pages: add 'page: N' (1-based)",
                )
            if not 1 <= figure.page <= len(info.sizes):
                return None, _SpecError(
                    figure.page_line,
                    "DZ108",
                    f"page {figure.page} of figure {figure.id} is out of range: {where} has "
                    f"{len(info.sizes)} page{'s' * (len(info.sizes) != 1)}",
                )
            width, height = info.sizes[figure.page - 1]
            unit = "points"
        else:
            if figure.page is not None and figure.page != 1:
                return None, _SpecError(
                    figure.page_line,
                    "DZ108",
                    f"figure {figure.id} names page {figure.page}, but {where} is an image "
                    "with one page; remove 'page:'",
                )
            width, height = info.sizes[0]
            unit = "pixels"
        eps = 1e-6
        if box[0] < -eps or box[1] < -eps or box[2] > width + eps or box[3] > height + eps:
            return None, _SpecError(
                figure.box_line,
                "DZ109",
                f"box {[round(v, 2) for v in box]} of figure {figure.id} is outside the page "
                f"({width:g} × {height:g} {unit}, origin at the top-left); "
                f"keep 0 ≤ x ≤ {width:g} and 0 ≤ y ≤ {height:g}",
            )
        w, h = crop_size(info.kind, box, figure.dpi)
        limit = Image.MAX_IMAGE_PIXELS
        if limit is not None and w * h > limit:
            return None, _SpecError(
                figure.box_line,
                "DZ111",
                f"figure {figure.id} would be {w} × {h} pixels at {figure.dpi} dpi, over "
                f"Pillow's decompression-bomb limit of {limit}; lower 'dpi:'",
            )
        fmt = self.encoder.choose(w, h)
        page = figure.page if info.kind == "pdf" else None
        dpi = figure.dpi if info.kind == "pdf" else None
        key = crop_key(info.digest, page, box, dpi, fmt, self.encoder)
        return Crop(figure, info.kind, info.digest, w, h, fmt, key), None

    def check(self, article: Article) -> list[Diagnostic]:
        """DZ1xx problems of one article and its spec, each at its line in the .md or .yml."""
        spec = self.spec(article)
        found: list[Diagnostic] = []
        placements = article.figures
        count = article.meta.get("figures")
        if spec is None and not placements and count is None:
            return found
        found.extend(_check_count(article, spec))
        if spec is None:
            for p in placements:
                found.append(
                    Diagnostic(
                        article.path,
                        p.line,
                        "DZ101",
                        f"'/// figure | {p.id}' places a figure, but there is no "
                        f"{spec_path(article.path).name} declaring it; create it with "
                        f"'figures:' then '  {_EXAMPLE}'",
                    )
                )
            return found
        found.extend(spec.diagnostics)
        for figure in spec.figures:
            _crop, problem = self._plan(figure)
            if problem is not None:
                diagnostic = Diagnostic(spec.path, problem.line, problem.code, problem.message)
                if diagnostic not in found:  # one bad default source, many figures
                    found.append(diagnostic)
        if not spec.readable:
            return found
        seen: dict[str, int] = {}
        for p in placements:
            if p.id in seen:
                found.append(
                    Diagnostic(
                        article.path,
                        p.line,
                        "DZ102",
                        f"figure {p.id} is placed twice (first at line {seen[p.id]}); "
                        f"remove this '/// figure | {p.id}' or refer to it with '[](#fig-{p.id})'",
                    )
                )
                continue
            seen[p.id] = p.line
            if not p.id.isdigit() or int(p.id) not in spec.declared:
                ids = ", ".join(str(i) for i in sorted(spec.declared)) or "none"
                found.append(
                    Diagnostic(
                        article.path,
                        p.line,
                        "DZ101",
                        f"'/// figure | {p.id}' places an unknown figure; "
                        f"{spec.path.name} declares {ids}: write '/// figure | N' with one of them",
                    )
                )
        if not article.is_draft:
            placed = {int(i) for i in seen if i.isdigit()}
            for fid, line in sorted(spec.declared.items()):
                if fid not in placed:
                    found.append(
                        Diagnostic(
                            spec.path,
                            line,
                            "DZ103",
                            f"figure {fid} is declared but never placed in {article.path.name}; "
                            f"add '/// figure | {fid}' and '///' where it belongs, or set "
                            "'status: draft'",
                        )
                    )
        return found


def _check_count(article: Article, spec: Spec | None) -> Iterator[Diagnostic]:
    if "figures" not in article.meta:
        return
    line = article.meta_lines.get("figures", 1)
    value = article.meta["figures"]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        yield Diagnostic(
            article.path,
            line,
            "DZ104",
            f"'figures: {value}' must be the paper's figure count, as in 'figures: 20'",
        )
        return
    declared = set(spec.declared) if spec else set()
    expected = set(range(1, value + 1))
    if declared == expected:
        return
    # A draft may still be declaring its figures (the 进度 page counts them); declaring more
    # figures than the paper has is wrong at any stage.
    missing = [] if article.is_draft else sorted(expected - declared)
    extra = sorted(declared - expected)
    if not (missing or extra):
        return
    parts = []
    if missing:
        parts.append(f"figure{'s' * (len(missing) > 1)} {_ranges(missing)} not declared")
    if extra:
        parts.append(f"figure{'s' * (len(extra) > 1)} {_ranges(extra)} beyond {value}")
    name = spec_path(article.path).name
    yield Diagnostic(
        article.path,
        line,
        "DZ104",
        f"'figures: {value}' disagrees with {name} ({'; '.join(parts)}); "
        f"declare figures 1-{value} there or correct the count",
    )


def _ranges(numbers: Sequence[int]) -> str:
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][1] == n - 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


# --------------------------------------------------------------------------------------------
# Making crops


@dataclass
class Batch:
    """Crops being made (possibly in other processes); :meth:`wait` collects the results."""

    cache: Cache
    crops: dict[str, Crop]
    encoder: Encoder = field(default_factory=Encoder)
    futures: list[Future[list[CropResult]]] = field(default_factory=list)
    #: (source, crops) of each future
    chunks: list[tuple[Path, list[Crop]]] = field(default_factory=list)
    results: list[CropResult] = field(default_factory=list)
    executor: Executor | None = None

    def wait(self) -> list[tuple[Crop, CropResult]]:
        """Block until done; record successes in the manifest; return the failures."""
        try:
            for future, (source, chunk) in zip(self.futures, self.chunks, strict=True):
                try:
                    self.results.extend(future.result())
                except BrokenProcessPool:
                    # A worker could not start or died (e.g. a host script without a
                    # `__main__` guard): do its share here rather than fail the build.
                    self.results.extend(run_crops(source, chunk, self.encoder, self.cache.dir))
        finally:
            if self.executor is not None:
                self.executor.shutdown()
                self.executor = None
        self.futures = []
        self.chunks = []
        failures = []
        for result in self.results:
            crop = self.crops[result.key]
            if result.ok:
                self.cache.remember_crop(crop)
            else:
                failures.append((crop, result))
        self.results = []
        self.cache.save()
        return failures


def make_crops(crops: Iterable[Crop], cache: Cache, encoder: Encoder, jobs: int = 0) -> Batch:
    """Start making the crops missing from ``cache``; ``jobs`` processes (0: one per core).

    Returns at once when there is nothing to do or with the work running in worker processes;
    with one job (or one crop) the work is done before returning.
    """
    missing: dict[str, Crop] = {}
    for crop in crops:
        if not cache.has(crop):
            missing.setdefault(crop.key, crop)
    batch = Batch(cache, missing, encoder)
    if not missing:
        return batch
    cache.dir.mkdir(parents=True, exist_ok=True)
    by_source: dict[Path, list[Crop]] = {}
    for crop in missing.values():
        by_source.setdefault(crop.figure.source.path, []).append(crop)
    workers = min(jobs or os.cpu_count() or 1, len(missing))
    if workers <= 1:
        for source, group in by_source.items():
            batch.results.extend(run_crops(source, group, encoder, cache.dir))
        return batch
    # Chunks of one source each (a worker opens the PDF once per chunk), small enough that
    # every core stays busy to the end.
    size = max(1, math.ceil(len(missing) / (workers * 4)))
    # spawn, not fork: MkDocs' server runs threads, and forking a threaded process can deadlock.
    executor = ProcessPoolExecutor(workers, mp_context=get_context("spawn"))
    batch.executor = executor
    for source, group in by_source.items():
        for start in range(0, len(group), size):
            chunk = group[start : start + size]
            batch.futures.append(executor.submit(run_crops, source, chunk, encoder, cache.dir))
            batch.chunks.append((source, chunk))
    return batch


def site_uri(prefix: str, article_uri: str, crop: Crop) -> str:
    """Where a crop lands in the site: ``<prefix>/<article path>/fig-3.<key>.webp``."""
    stem = article_uri[:-3] if article_uri.endswith(".md") else article_uri
    return posixpath.join(prefix, stem, f"fig-{crop.figure.id}.{crop.key[:12]}.{crop.format}")


# --------------------------------------------------------------------------------------------
# Authoring help: pages with every declared box drawn


def preview(
    spec: Spec,
    out_dir: Path,
    page: int | None = None,
    dpi: int = 100,
) -> list[Path]:
    """Write a PNG per source page (or only ``page``) with every declared box drawn, labelled."""
    import pypdfium2 as pdfium

    by_page: dict[tuple[Path, int], list[FigureSpec]] = {}
    for figure in spec.figures:
        by_page.setdefault((figure.source.path, figure.page or 1), []).append(figure)
    if page is not None:
        sources = {f.source.path for f in spec.figures}
        by_page = {
            (s, page): [f for f in spec.figures if f.source.path == s and (f.page or 1) == page]
            for s in sources
        }
    written: list[Path] = []
    out_dir.mkdir(parents=True, exist_ok=True)
    font_size = max(12, dpi // 5)
    font = ImageFont.load_default(size=font_size)
    for (source, number), figures in sorted(by_page.items()):
        data = source.read_bytes()
        if data.startswith(PDF_MAGIC):
            pdf = pdfium.PdfDocument(data)
            try:
                if not 1 <= number <= len(pdf):
                    continue
                pdf_page = pdf[number - 1]
                image = pdf_page.render(scale=dpi / 72).to_pil().convert("RGB")
                pdf_page.close()
            finally:
                pdf.close()
            scale = dpi / 72
        elif number == 1:  # an image is a source of one page
            with _open_image(data) as im:
                image = im.convert("RGB")
            scale = 1.0
        else:
            continue
        draw = ImageDraw.Draw(image)
        for figure in figures:
            x0, y0, x1, y1 = (v * scale for v in figure.box)
            draw.rectangle((x0, y0, x1, y1), outline=(220, 30, 30), width=3)
            label = f"Fig. {figure.id}  [{', '.join(f'{v:g}' for v in figure.box)}]"
            tx, ty = x0 + 4, max(0.0, y0 - font_size - 8)
            bbox = draw.textbbox((tx, ty), label, font=font)
            draw.rectangle(bbox, fill=(220, 30, 30))
            draw.text((tx, ty), label, fill="white", font=font)
        name = f"{spec.path.name.removesuffix(SPEC_SUFFIX)}-{source.stem}-p{number:03d}.png"
        target = out_dir / name
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        _write_atomic(target, buffer.getvalue())
        written.append(target)
    return written
