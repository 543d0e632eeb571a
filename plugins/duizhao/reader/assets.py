"""The reader's assets: which vendored npm files a site needs, and the early mode script.

Pure functions over plain data (no MkDocs import); the plugin wires them into the build.
Mermaid and KaTeX are served from the project's own ``node_modules`` (installed by
``make setup``) so that no page ever asks a CDN for them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    """One file copied from ``vendor_dir`` into the site."""

    source: Path
    uri: str


class MissingVendorFilesError(Exception):
    """The npm packages the site needs are not installed (``make setup`` / ``npm ci``)."""

    def __init__(self, missing: list[Path], feature: str) -> None:
        self.missing = missing
        self.feature = feature
        super().__init__(f"{feature} needs {', '.join(str(p) for p in missing)}")


def needs_mermaid(mdx_configs: Mapping[str, Any]) -> bool:
    """True when superfences renders ```` ```mermaid ```` fences as diagrams (Material's recipe)."""
    fences = (mdx_configs.get("pymdownx.superfences") or {}).get("custom_fences") or []
    return any(isinstance(f, Mapping) and f.get("name") == "mermaid" for f in fences)


def needs_math(markdown_extensions: Iterable[object]) -> bool:
    """True when pymdownx.arithmatex is enabled."""
    return "pymdownx.arithmatex" in markdown_extensions


def math_is_generic(mdx_configs: Mapping[str, Any]) -> bool:
    """KaTeX can only render arithmatex's ``generic: true`` output."""
    return bool((mdx_configs.get("pymdownx.arithmatex") or {}).get("generic"))


def mermaid_files(vendor_dir: Path) -> list[VendorFile]:
    return [
        VendorFile(
            vendor_dir / "mermaid/dist/mermaid.min.js", f"{VENDOR_PREFIX}/mermaid/mermaid.min.js"
        )
    ]


def katex_files(vendor_dir: Path) -> list[VendorFile]:
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
    return files


def vendor_files(vendor_dir: Path, *, mermaid: bool, math: bool) -> Iterator[VendorFile]:
    """The files to copy; raises :class:`MissingVendorFilesError` naming what is not installed."""
    for wanted, feature, files in (
        (mermaid, "mermaid diagrams (npm package mermaid@11)", mermaid_files),
        (math, "math (npm package katex@0.16)", katex_files),
    ):
        if not wanted:
            continue
        found = files(vendor_dir)
        missing = [f.source for f in found if not f.source.exists()]
        if missing:
            raise MissingVendorFilesError(missing, feature)
        yield from found


def inject_head(html: str, snippet: str = HEAD_SCRIPT) -> str:
    """Insert ``snippet`` right before ``</head>`` (once); pages without a head are unchanged."""
    if snippet in html:
        return html
    at = html.find("</head>")
    if at < 0:
        return html
    return html[:at] + snippet + html[at:]
