"""The plugin's options (``plugins: - duizhao: …`` in mkdocs.yml), each with what it does."""

from __future__ import annotations

from mkdocs.config import config_options as c
from mkdocs.config.base import Config

from .figures.feature import FiguresConfig
from .lock import LOCK_NAME
from .reader.feature import MODES
from .site.feature import SiteConfig


class DuizhaoConfig(Config):
    enabled = c.Type(bool, default=True)
    """Turn the whole plugin off: it then adds nothing and changes no page (the
    `*.figures.yml` specs, duizhao's sources, are still kept out of the site)."""

    checks = c.Type(bool, default=True)
    """Log every diagnostic of `duizhao check` as a warning, so `mkdocs build --strict` fails."""

    assets = c.Type(bool, default=True)
    """Give the pages that show duizhao's blocks its reader stylesheet and script (modes,
    permalinks), and KaTeX/mermaid where they need them."""

    math = c.Choice(MODES, default="auto")
    """KaTeX for `pymdownx.arithmatex` (`generic: true`) math, served by the site: `auto` on
    duizhao's pages with math, `all` on every page with math, `off` never. A site that loads
    its own math renderer (a MathJax or KaTeX script in `extra_javascript`) keeps it."""

    mermaid = c.Choice(MODES, default="auto")
    """mermaid for diagram fences, served by the site (Material would fetch it from a CDN):
    `auto` on duizhao's pages with diagrams, `all` on every page with one, `off` never."""

    vendor_dir = c.Type(str, default="node_modules")
    """Folder of the npm packages katex, mermaid and photoswipe (`npm ci`), relative to
    mkdocs.yml. Only the files the pages need are copied into the site."""

    paragraph_search = c.Type(bool, default=True)
    """Add one search entry per numbered paragraph, so searching `P042` links to `#P042`."""

    lock_file = c.Type(str, default=LOCK_NAME)
    """The lock of accepted originals (`duizhao status --accept`), relative to mkdocs.yml."""

    progress_page = c.Type(str, default="")
    """Where to generate the 进度 page (a docs-relative `.md` path such as `progress.md`);
    empty for none."""

    cache_dir = c.Type(str, default=".cache/duizhao")
    """Folder (relative to mkdocs.yml) for generated pages' sources between builds."""

    figures = c.SubConfig(FiguresConfig)
    """Figures cropped from the paper: cache, encoding, lightbox, gallery and index page."""

    site = c.SubConfig(SiteConfig)
    """The study site: generated 导言 indexes, page order, source boxes, social preview tags."""
