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

Modules, one concern each: :mod:`.spec` (reading a spec), :mod:`.sources` (what a source file
is), :mod:`.crops` (planning, rendering, encoding, worker processes), :mod:`.cache`,
:mod:`.catalog` (specs and sources of a build, their checks), :mod:`.html`, :mod:`.preview`,
:mod:`.cli` (``duizhao figures``) and :mod:`.feature` (the MkDocs glue; the only module that
imports MkDocs, and not imported here).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .cache import Cache
    from .catalog import ArticleFigures, Catalog
    from .crops import (
        FORMATS,
        RENDER_VERSION,
        WEBP_MAX_SIDE,
        Batch,
        Crop,
        CropResult,
        Encoder,
        crop_key,
        crop_size,
        make_crops,
        render_box,
        run_crops,
        site_uri,
    )
    from .preview import preview
    from .sources import PDF_MAGIC, SourceInfo, digest_bytes, inspect_source
    from .spec import (
        DEFAULT_DPI,
        MAX_DPI,
        SPEC_SUFFIX,
        FigureSpec,
        SourceRef,
        Spec,
        load_spec,
        spec_path,
    )

#: Where each name lives: the package imports a module (and Pillow, pypdfium2) only when a
#: name from it is used, so that `duizhao check` and `status` stay quick.
_HOMES = {
    "Cache": "cache",
    "ArticleFigures": "catalog",
    "Catalog": "catalog",
    "FORMATS": "crops",
    "RENDER_VERSION": "crops",
    "WEBP_MAX_SIDE": "crops",
    "Batch": "crops",
    "Crop": "crops",
    "CropResult": "crops",
    "Encoder": "crops",
    "crop_key": "crops",
    "crop_size": "crops",
    "make_crops": "crops",
    "render_box": "crops",
    "run_crops": "crops",
    "site_uri": "crops",
    "preview": "preview",
    "PDF_MAGIC": "sources",
    "SourceInfo": "sources",
    "digest_bytes": "sources",
    "inspect_source": "sources",
    "DEFAULT_DPI": "spec",
    "MAX_DPI": "spec",
    "SPEC_SUFFIX": "spec",
    "FigureSpec": "spec",
    "SourceRef": "spec",
    "Spec": "spec",
    "load_spec": "spec",
    "spec_path": "spec",
}


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(import_module(f".{_HOMES[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DEFAULT_DPI",
    "FORMATS",
    "MAX_DPI",
    "PDF_MAGIC",
    "RENDER_VERSION",
    "SPEC_SUFFIX",
    "WEBP_MAX_SIDE",
    "ArticleFigures",
    "Batch",
    "Cache",
    "Catalog",
    "Crop",
    "CropResult",
    "Encoder",
    "FigureSpec",
    "SourceInfo",
    "SourceRef",
    "Spec",
    "crop_key",
    "crop_size",
    "digest_bytes",
    "inspect_source",
    "load_spec",
    "make_crops",
    "preview",
    "render_box",
    "run_crops",
    "site_uri",
    "spec_path",
]
