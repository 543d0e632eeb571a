"""Crops: plan (size and cache key before any pixel), render, encode, and make them in workers.

Pure (no MkDocs). PDF pages are rasterised with pypdfium2 (only the box, at the spec's dpi),
crops are encoded with Pillow; see the package docstring for the encoder's choices.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import posixpath
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from ..yamlsafe import MAX_BINARY_BYTES, InputError, read_bytes
from .cache import Cache, write_published
from .sources import BombError, open_image
from .spec import FigureSpec

if TYPE_CHECKING:  # Pillow and the worker pool load when a crop is made, not for a check
    from concurrent.futures import Executor, Future

    from PIL import Image

#: Bumped when a change in this module changes the pixels of a crop.
RENDER_VERSION = 1
#: WebP cannot hold a side longer than this.
WEBP_MAX_SIDE = 16383
FORMATS = ("auto", "lossless", "png")


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
    write_published(out, buffer.getvalue())


def run_crops(
    source: Path, crops: Sequence[Crop], encoder: Encoder, out_dir: Path, worker: bool = False
) -> list[CropResult]:
    """Cut ``crops`` (all from ``source``) into ``out_dir``; ``worker``: in a worker process
    of the pool (of no threads: a PDF's pages are rendered in a forked child there)."""
    if crops and crops[0].kind == "pdf":
        return run_pdf_crops([(source, crops)], encoder, out_dir, worker)
    results: list[CropResult] = []
    try:
        data = read_bytes(source, MAX_BINARY_BYTES)  # a regular file, bounded
    except (OSError, InputError) as exc:
        return [CropResult(c.key, False, f"cannot read source: {_reason(exc)}") for c in crops]
    try:
        with open_image(data) as im:
            im.load()
            for crop in crops:
                _encode(_crop_image(im, crop), crop, encoder, out_dir / crop.filename)
                results.append(CropResult(crop.key, True))
    except BombError as exc:
        return [CropResult(c.key, False, str(exc), "DZ111") for c in crops]
    except (OSError, SyntaxError, ValueError) as exc:
        return [CropResult(c.key, False, f"corrupt or truncated image ({exc})") for c in crops]
    return results


def run_pdf_crops(
    sources: Sequence[tuple[Path, Sequence[Crop]]],
    encoder: Encoder,
    out_dir: Path,
    worker: bool = False,
) -> list[CropResult]:
    """Cut the crops of PDF ``sources`` (a path, the crops from it) into ``out_dir``, in a
    child bounded in CPU time and memory (:mod:`.pdf_crops`: one for all of them)."""
    from .pdf_crops import render_pdf_crops

    results: list[CropResult] = []
    readable: list[tuple[bytes, Sequence[Crop]]] = []
    for source, crops in sources:
        try:
            readable.append((read_bytes(source, MAX_BINARY_BYTES), crops))  # bounded
        except (OSError, InputError) as exc:
            reason = f"cannot read source: {_reason(exc)}"
            results.extend(CropResult(c.key, False, reason) for c in crops)
    return results + render_pdf_crops(readable, encoder, out_dir, fork=worker)


def _reason(exc: OSError | InputError) -> str:
    return exc.message if isinstance(exc, InputError) else str(exc.strerror)


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
        from concurrent.futures.process import BrokenProcessPool

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
        pdfs = [(source, group) for source, group in by_source.items() if group[0].kind == "pdf"]
        for source, group in by_source.items():
            if group[0].kind != "pdf":
                batch.results.extend(run_crops(source, group, encoder, cache.dir))
        if pdfs:  # one bounded child for all the PDFs
            batch.results.extend(run_pdf_crops(pdfs, encoder, cache.dir))
        return batch
    # Chunks of one source each (a worker opens the PDF once per chunk), small enough that
    # every core stays busy to the end.
    size = max(1, math.ceil(len(missing) / (workers * 4)))
    # spawn, not fork: MkDocs' server runs threads, and forking a threaded process can deadlock.
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    executor = ProcessPoolExecutor(workers, mp_context=get_context("spawn"))
    batch.executor = executor
    for source, group in by_source.items():
        for start in range(0, len(group), size):
            chunk = group[start : start + size]
            future = executor.submit(run_crops, source, chunk, encoder, cache.dir, True)
            batch.futures.append(future)
            batch.chunks.append((source, chunk))
    return batch


def site_uri(prefix: str, article_uri: str, crop: Crop) -> str:
    """Where a crop lands in the site: ``<prefix>/<article path>/fig-3.<key>.webp``
    (``table-2.<key>.webp`` for a table)."""
    stem = article_uri[:-3] if article_uri.endswith(".md") else article_uri
    return posixpath.join(prefix, stem, f"{crop.figure.anchor}.{crop.key[:12]}.{crop.format}")
