"""The reader's assets: which vendored npm files a site needs, and the early mode script.

Pure functions over plain data (no MkDocs import); the plugin wires them into the build.
Mermaid and KaTeX are served from the project's own ``node_modules`` (installed by
``make setup``) so that no page ever asks a CDN for them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: duizhao's own scripts and stylesheets
ASSETS = Path(__file__).parent.parent / "assets"

#: Where vendored files land in the site, below the plugin's asset prefix.
VENDOR_PREFIX = "vendor"

#: localStorage key of the reading mode; shared with duizhao.js.
MODE_KEY = "duizhao.mode"
MODES = ("zh", "en", "both")

#: Runs in <head> before the first paint, so a stored mode never flashes the other language.
HEAD_SCRIPT = (
    f"<script>try{{var m=localStorage.getItem('{MODE_KEY}');"
    f"if({'||'.join('m===' + repr(m) for m in MODES)})"
    "document.documentElement.setAttribute('data-dz-mode',m)}catch(e){}</script>"
)


@dataclass(frozen=True)
class VendorFile:
    """One file copied into the site, at ``assets/duizhao/<uri>``."""

    source: Path
    uri: str


@dataclass(frozen=True)
class VendorPackage:
    """The files one feature (math, diagrams) needs, and those of them not installed."""

    feature: str
    files: tuple[VendorFile, ...]

    @property
    def missing(self) -> list[Path]:
        return [f.source for f in self.files if not f.source.exists()]


def mermaid_package(vendor_dir: Path) -> VendorPackage:
    """mermaid, as Material uses it: defined before Material looks for ``window.mermaid``."""
    source = vendor_dir / "mermaid/dist/mermaid.min.js"
    return VendorPackage(
        "mermaid diagrams (npm package mermaid@11)",
        (VendorFile(source, f"{VENDOR_PREFIX}/mermaid/mermaid.min.js"),),
    )


def katex_package(vendor_dir: Path) -> VendorPackage:
    """KaTeX and its auto-render extension, then duizhao's call of it on every page."""
    dist = vendor_dir / "katex/dist"
    names = ["katex.min.js", "katex.min.css", "contrib/auto-render.min.js"]
    files = [VendorFile(dist / name, f"{VENDOR_PREFIX}/katex/{name}") for name in names]
    fonts = dist / "fonts"
    if fonts.is_dir():
        files += [
            VendorFile(font, f"{VENDOR_PREFIX}/katex/fonts/{font.name}")
            for font in sorted(fonts.iterdir())
            if font.is_file()
        ]
    else:
        files.append(VendorFile(fonts, f"{VENDOR_PREFIX}/katex/fonts/"))
    files.append(VendorFile(ASSETS / "math.js", "math.js"))
    return VendorPackage("math (npm package katex@0.16)", tuple(files))
