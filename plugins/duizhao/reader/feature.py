"""The reader feature: duizhao's stylesheet and script, KaTeX and mermaid, page by page.

Only a page that shows duizhao's markup gets duizhao's stylesheet, the early reading-mode
script and the mode control; only a page with math gets KaTeX and only a page with a diagram
gets mermaid — and with ``math: auto`` / ``mermaid: auto`` only such a page among duizhao's
(a site's other pages stay exactly as the theme makes them). A site that loads its own math
renderer (MathJax, KaTeX), for every page or in a page of its own, keeps it. A missing npm
package is reported for the pages that need it; a site that needs none of them builds without
them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from .. import head
from ..build import Build
from ..features import Feature
from ..htmlscan import has_class, loads_math
from .assets import HEAD_SCRIPT, VendorPackage, katex_package, mermaid_package, mermaid_script

#: a script of the site's own that renders math: MathJax or KaTeX, also self-hosted under
#: MathJax's file names (tex-mml-chtml.js, tex-svg.js, …); in a theme override or a page's own
#: HTML, a <script> naming one loads it (htmlscan.loads_math)
_OWN_MATH_RE = re.compile(r"mathjax|katex|tex-(?:mml-)?(?:chtml|svg)", re.IGNORECASE)
MODES = ("auto", "all", "off")


class ReaderFeature(Feature):
    def __init__(self, enabled: bool, vendor_dir: Path, math: str, mermaid: str) -> None:
        self.enabled = enabled
        self.math_mode = math
        self.mermaid_mode = mermaid
        self.katex = katex_package(vendor_dir)
        self.mermaid = mermaid_package(vendor_dir)
        #: what each page needed when it was last rendered (kept across `mkdocs serve`
        #: rebuilds: a --dirty build renders few pages, but the site keeps the others)
        self.needs: dict[str, frozenset[str]] = {}
        self.math = False

    def on_config(self, build: Build) -> None:
        if not build.dirty:
            self.needs = {}

    def on_files(self, build: Build, files: Files) -> None:
        # Read the site's math set-up once every `on_config` has run: hooks run after every
        # plugin, and a hook or a plugin listed after duizhao may load the renderer or change
        # arithmatex there (FastAPI's hook sets the site's language there).
        config = build.config
        arithmatex = "pymdownx.arithmatex" in config.markdown_extensions
        generic = bool((config.mdx_configs.get("pymdownx.arithmatex") or {}).get("generic"))
        own = any(_OWN_MATH_RE.search(str(script)) for script in config.extra_javascript)
        own = own or _templates_render_math(config.theme.custom_dir)
        # KaTeX renders arithmatex's generic output only; MathJax's own output stays MathJax's.
        self.math = arithmatex and generic and self.math_mode != "off" and not own

    def _wants(self, build: Build, page: Page, html: str) -> frozenset[str]:
        # duizhao's own markup: an element with one of its classes (the Markdown extension,
        # the source box, the 进度 page, figures)
        ours = has_class(html, "dz-", prefix=True)
        wants = {"reader"} if ours else set()
        # A page may load its renderer itself (Material's docs do so on their math page); code
        # is escaped in the HTML, so a <script> here is the author's own.
        if (
            self.math
            and (ours or self.math_mode == "all")
            and has_class(html, "arithmatex")
            and not loads_math(html, _OWN_MATH_RE)
        ):
            wants.add("katex")
        mermaid = self.mermaid_mode == "all" or (self.mermaid_mode == "auto" and ours)
        if mermaid and has_class(html, "mermaid"):
            wants.add("mermaid")
        return frozenset(wants)

    def on_page_content(self, build: Build, html: str, page: Page) -> str:
        if not self.enabled:
            return html
        wants = self._wants(build, page, html)
        for package in self._packages(wants):
            if package.missing:
                build.warn(
                    f"{page.file.src_uri} needs {package.feature}, but "
                    f"{package.missing[0]} does not exist. Run `npm ci` (or `make setup`) next "
                    "to mkdocs.yml, or point the plugin's `vendor_dir` at your node_modules"
                )
        wants = frozenset(w for w in wants if w == "reader" or not self._package(w).missing)
        self.needs[page.file.src_uri] = wants
        tags = ""
        if "mermaid" in wants:
            tags += mermaid_script(head.url(page, self.mermaid.files[0].uri))
        if "katex" in wants:
            # math.js loads KaTeX itself, in order (instant navigation runs the scripts of the
            # content it swaps in in no fixed order)
            tags += head.scripts(page, ["math.js"])
        if "reader" in wants:
            tags += head.scripts(page, ["duizhao.js"])
        return html + tags

    def on_post_page(self, build: Build, output: str, page: Page) -> str:
        wants = self.needs.get(page.file.src_uri, frozenset()) if self.enabled else frozenset()
        if not wants:
            return output
        css = [f.uri for p in self._packages(wants) for f in p.files if f.uri.endswith(".css")]
        snippet = head.stylesheets(page, css)
        if "reader" in wants:
            snippet = HEAD_SCRIPT + head.stylesheets(page, ["duizhao.css"]) + snippet
        return head.inject_head(output, snippet)

    def on_env(self, build: Build, env: Any, files: Files) -> None:
        """Publish what the site's pages need (the static files are copied after this)."""
        pages = {f.src_uri for f in files.documentation_pages()}
        self.needs = {uri: wants for uri, wants in self.needs.items() if uri in pages}
        used = frozenset().union(*self.needs.values())
        if "reader" in used:
            for name in ("duizhao.css", "duizhao.js"):
                head.publish(files, build.config, name, head.ASSETS / name)
        for package in self._packages(used):
            for file in package.files:
                head.publish(files, build.config, file.uri, file.source)

    def _package(self, want: str) -> VendorPackage:
        return self.katex if want == "katex" else self.mermaid

    def _packages(self, wants: frozenset[str]) -> list[VendorPackage]:
        return [self._package(w) for w in ("mermaid", "katex") if w in wants]


def _templates_render_math(custom_dir: str | None) -> bool:
    """Whether the site's theme override loads a math renderer (many sites add MathJax or KaTeX
    in `main.html` rather than in `extra_javascript`)."""
    if not custom_dir:
        return False
    for template in sorted(Path(custom_dir).rglob("*.html")):
        try:
            text = template.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if loads_math(text, _OWN_MATH_RE):
            return True
    return False
