"""Figure sources (a PDF or a page image): what each one is, and opening images safely. Pure."""

from __future__ import annotations

import hashlib
import io
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL import Image

PDF_MAGIC = b"%PDF-"
#: Image formats a figure source may be, told by content (magic bytes), never by extension:
#: Pillow opens only these (no EPS, which would start Ghostscript; no plugin with an
#: external decoder). PDFs go to PDFium.
IMAGE_FORMATS = ("PNG", "JPEG", "WEBP")
#: Largest PDF page side in points: the PDF specification's own limit (200 inches). A larger
#: page is refused before it is rendered, in a crop or a preview.
MAX_PAGE_POINTS = 14_400.0


def sniff(data: bytes) -> str | None:
    """``"pdf"``, ``"PNG"``, ``"JPEG"``, ``"WEBP"`` by the first bytes, or None."""
    if data.startswith(PDF_MAGIC):
        return "pdf"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if data.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    return None


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
    kind = sniff(data)
    if kind is None:
        return SourceInfo(
            digest,
            "bad",
            (),
            "DZ110",
            "not a PDF, PNG, JPEG or WebP file (judged by its content, not its name); convert "
            "it to one of these",
        )
    if kind == "pdf":
        import pypdfium2 as pdfium

        try:
            pdf = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as exc:
            return SourceInfo(digest, "bad", (), "DZ110", f"corrupt or truncated PDF ({exc})")
        try:
            sizes = tuple(
                (float(w), float(h)) for w, h in (pdf.get_page_size(i) for i in range(len(pdf)))
            )
        except pdfium.PdfiumError as exc:
            return SourceInfo(digest, "bad", (), "DZ110", f"corrupt PDF page table ({exc})")
        finally:
            pdf.close()
        return SourceInfo(digest, "pdf", sizes)
    try:
        with open_image(data) as im:
            im.load()
            size = (float(im.width), float(im.height))
    except BombError as exc:
        return SourceInfo(digest, "bad", (), "DZ111", str(exc))
    except (OSError, SyntaxError, ValueError) as exc:
        # Pillow signals unknown, corrupt and truncated data with these (UnidentifiedImageError
        # is an OSError); the message says which.
        return SourceInfo(digest, "bad", (), "DZ110", f"corrupt or truncated image ({exc})")
    return SourceInfo(digest, "image", (size,))


class BombError(Exception):
    pass


def open_image(data: bytes) -> Image.Image:
    """Image.open of a PNG, JPEG or WebP only, refusing anything over Pillow's
    decompression-bomb limit before decoding (the header's size is checked first)."""
    from PIL import Image  # Pillow loads when an image is opened, not for a check

    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            # formats=: Pillow never tries another decoder (EPS would run Ghostscript).
            im = Image.open(io.BytesIO(data), formats=IMAGE_FORMATS)
        except (Image.DecompressionBombWarning, Image.DecompressionBombError) as exc:
            raise BombError(
                f"image is over Pillow's decompression-bomb limit of {Image.MAX_IMAGE_PIXELS} "
                f"pixels ({exc}); use a smaller page image"
            ) from exc
    return im
