"""The plugin's options (``plugins: - duizhao: …`` in mkdocs.yml), each with what it does."""

from __future__ import annotations

from mkdocs.config import config_options as c
from mkdocs.config.base import BaseConfigOption, Config, ValidationError

from .figures.feature import FiguresConfig
from .lock import LOCK_NAME
from .options import CheckCode, Text
from .reader.feature import MODES
from .site.feature import SiteConfig

#: Bounds of ``serve_poll_interval``: each poll lists and stats every watched file.
MIN_POLL, MAX_POLL = 0.05, 5.0


class _Seconds(BaseConfigOption[float]):
    """Seconds from :data:`MIN_POLL` to :data:`MAX_POLL`."""

    def run_validation(self, value: object) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValidationError(f"expected a number of seconds, got {value!r}")
        if not MIN_POLL <= value <= MAX_POLL:
            raise ValidationError(
                f"expected seconds from {MIN_POLL} to {MAX_POLL} (0.1 is quick), got {value}"
            )
        return float(value)


class QualityConfig(Config):
    enabled = c.Type(bool, default=True)
    """Compare each paragraph block's original with its translation (numbers, citations,
    code, math, links, references, English left, punctuation and spacing: DZ401-DZ439) and
    check the glossary's terms (DZ445-DZ447), in `duizhao check` and the build's warnings."""

    ignore = c.ListOfItems(CheckCode(), default=[])
    """Codes not reported anywhere in the site, such as `[DZ425]` (a site with another
    spacing convention). One block silences a code with `<!-- duizhao-ignore DZ405 -->` in
    its translation."""


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
    its own math renderer (a MathJax or KaTeX script in `extra_javascript`, in a template of
    its `custom_dir` or in the page itself) keeps it."""

    mermaid = c.Choice(MODES, default="auto")
    """mermaid for diagram fences, served by the site (Material would fetch it from a CDN):
    `auto` on duizhao's pages with diagrams, `all` on every page with one, `off` never."""

    vendor_dir = Text(default="node_modules")
    """Folder of the npm packages katex, mermaid and photoswipe (`npm ci`), relative to
    mkdocs.yml. Only the files the pages need are copied into the site."""

    paragraph_search = c.Type(bool, default=True)
    """Add one search entry per numbered paragraph, so searching `P042` links to `#P042`
    (Material's search; Pagefind's results are by paragraph anyway)."""

    search = c.Choice(("material", "pagefind"), default="material")
    """The search behind Material's search box. `material`: Material's own (lunr; the whole
    index is fetched at page load). `pagefind`: a Pagefind index written after the build
    (`pip install 'pagefind[extended]'`); the browser loads only what a query needs, once the
    reader opens the search box, and results lead to paragraphs (#P042), figures and headings.
    Needs Material's `search` plugin for the box itself."""

    lock_file = Text(default=LOCK_NAME)
    """The lock of accepted originals (`duizhao status --accept`), relative to mkdocs.yml."""

    progress_page = Text(default="")
    """Where to generate the 进度 page (a docs-relative `.md` path such as `progress.md`);
    empty for none."""

    glossary_page = Text(default="")
    """Where to generate the 术语表 page from glossary.yml (a docs-relative `.md` path such as
    `glossary.md`); empty for none."""

    cache_dir = Text(default=".cache/duizhao")
    """Folder (relative to mkdocs.yml) for generated pages' sources between builds, and the
    translation checks' findings between builds and `duizhao check` runs."""

    serve_poll_interval = c.Optional(_Seconds())
    """Seconds between two looks of `mkdocs serve` at the watched files, such as `0.1`; not
    set: MkDocs' own 0.5 s. A save waits up to this long before the rebuild starts; each look
    lists and stats the watched files (docs_dir, mkdocs.yml, figure sources), so it is not
    applied under `--watch-theme` (the installed theme has thousands)."""

    quality = c.SubConfig(QualityConfig)
    """The translation checks: `enabled`, and codes to `ignore`."""

    figures = c.SubConfig(FiguresConfig)
    """Figures cropped from the paper: cache, encoding, lightbox, gallery and index page."""

    site = c.SubConfig(SiteConfig)
    """The study site: generated 导言 indexes, page order, source boxes, social preview tags."""
