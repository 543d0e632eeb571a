"""Which dialects of Markdown an original is written in, from its name, front matter and
markers, each with the evidence the import report shows.

Every rule names a piece of a dialect's syntax, never a file or a project: MyST is known by
its ``(label)=`` targets, ``{role}``-backtick roles and ```` ```{directive} ```` fences, R
Markdown by ```` ```{r} ```` chunks, Hugging Face's doc-builder by ``<Tip>`` and ``[`Name`]``,
and so on. The scan reads each line once, with patterns that cannot backtrack.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePath

MYST = "MyST"
QUARTO = "Quarto"
RMARKDOWN = "R Markdown"
HF_DOC_BUILDER = "HF doc-builder"
MDX = "MDX"
DOCUSAURUS = "Docusaurus admonitions"
ALERTS = "GitHub alerts"
MKDOCS = "MkDocs (pymdownx)"
KRAMDOWN = "Jekyll/kramdown"
HUGO = "Hugo"

#: How many markers of one dialect the report names.
EVIDENCE_SHOWN = 2

_MYST_TARGET_RE = re.compile(r"^\s{0,3}\([\w.:-]{1,200}\)=\s*$")
_MYST_FENCE_RE = re.compile(r"^\s{0,3}(?:`{3,}|~{3,}|:{3,})\s{0,8}\{[A-Za-z][\w:.-]{0,60}\}")
_MYST_ROLE_RE = re.compile(r"(?<![`\w])\{[A-Za-z][\w:+.-]{0,60}\}`")
_CHUNK_RE = re.compile(r"^\s{0,3}`{3,}\s{0,8}\{(r|python|julia|ojs|sql|bash|mermaid|dot)\b", re.I)
_PANDOC_DIV_RE = re.compile(r"^\s{0,3}:{3,}\s{0,8}\{[.#]")
_CALLOUT_RE = re.compile(r"^\s{0,3}:{3,}\s{0,8}\{\.callout-")
_DOCUSAURUS_RE = re.compile(
    r"^\s{0,3}:{3,}\s{0,8}(?:note|tip|info|caution|warning|danger|important|success|secondary)"
    r"(?![\w-])",
    re.I,
)
_ALERT_RE = re.compile(r"^\s{0,3}>\s{0,4}\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*$", re.I)
_JSX_RE = re.compile(r"^\s{0,3}</?[A-Z][A-Za-z0-9]{0,60}(?:[\s/>]|$)")
_ESM_RE = re.compile(r"^(?:import\s|export\s)")
_HF_TAG_RE = re.compile(r"^\s{0,3}</?(?:Tip|hfoptions|hfoption|Youtube|frameworkcontent)\b")
_HF_REF_RE = re.compile(r"\[`[~.\w]{1,200}`\](?![(\[])")
_HF_AUTODOC_RE = re.compile(r"^\s{0,3}\[\[(?:autodoc|open-in-colab)\]\]")
_MKDOCS_RE = re.compile(r"^\s{0,12}(?:!!!|\?\?\?\+?|===\+?\s{1,8}\"|///\s{0,8}[A-Za-z]|;?--8<--)")
_KRAMDOWN_RE = re.compile(r"\{%-?\s{1,8}\w{1,30}|\{:\s{0,8}[.#A-Za-z][^{}\n]{0,60}\}?")
_HUGO_RE = re.compile(r"\{\{[<%]")


@dataclass
class Dialects:
    """The dialects found, in the order found, with where each was seen."""

    found: dict[str, list[str]] = field(default_factory=dict)

    def add(self, name: str, evidence: str) -> None:
        self.found.setdefault(name, [])
        if len(self.found[name]) < EVIDENCE_SHOWN:
            self.found[name].append(evidence)

    def __contains__(self, name: object) -> bool:
        return name in self.found

    @property
    def pandoc(self) -> bool:
        """Pandoc's Markdown (Quarto, R Markdown): attributes, fenced divs, implicit figures."""
        return QUARTO in self or RMARKDOWN in self

    def describe(self) -> list[str]:
        """``MyST (```{note}``` line 5, …)`` for each dialect, for the report."""
        return [f"{name} ({', '.join(seen)})" for name, seen in self.found.items()]


def detect(text: str, name: str = "", front: dict[str, object] | None = None) -> Dialects:
    """The dialects of an original whose text is ``text`` (line ends normalised) and whose
    file name is ``name``; ``front`` is its front matter when already read."""
    found = Dialects()
    suffix = PurePath(name).suffix.lower()
    if suffix == ".qmd":
        found.add(QUARTO, "the .qmd suffix")
    elif suffix == ".rmd":
        found.add(RMARKDOWN, "the .Rmd suffix")
    elif suffix == ".mdx":
        found.add(MDX, "the .mdx suffix")
    elif suffix == ".myst":
        found.add(MYST, "the .myst suffix")
    _from_front_matter(found, front or {})
    in_fence = ""
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.strip()
        if not stripped:
            continue
        if in_fence:
            if stripped.startswith(in_fence) and not stripped.strip(in_fence[0]):
                in_fence = ""
            continue
        _scan_line(found, line, stripped, number)
        if stripped.startswith(("```", "~~~")) and not _MYST_FENCE_RE.match(line):
            in_fence = stripped[:3]
    return found


def _from_front_matter(found: Dialects, front: dict[str, object]) -> None:
    jupytext = front.get("jupytext")
    if isinstance(jupytext, dict):
        representation = jupytext.get("text_representation")
        if isinstance(representation, dict) and representation.get("format_name") == "myst":
            found.add(MYST, "jupytext front matter (format_name: myst)")
    if "output" in front and isinstance(front.get("vignette"), str):
        found.add(RMARKDOWN, "front matter output: and vignette:")
    if "format" in front and ("execute" in front or "jupyter" in front):
        found.add(QUARTO, "front matter format: and execute:/jupyter:")


def _scan_line(found: Dialects, line: str, stripped: str, number: int) -> None:
    at = f"line {number}"
    if _MYST_TARGET_RE.match(line):
        found.add(MYST, f"target {stripped[:40]!r} {at}")
    if chunk := _CHUNK_RE.match(line):
        if chunk.group(1).lower() == "r":
            found.add(RMARKDOWN, f"{{r}} chunk {at}")
    elif _MYST_FENCE_RE.match(line):
        found.add(MYST, f"directive {stripped[:30]!r} {at}")
    if "}`" in line and (role := _MYST_ROLE_RE.search(line)):
        found.add(MYST, f"role {role.group(0)[:-1]!r} {at}")
    if _CALLOUT_RE.match(line):
        found.add(QUARTO, f"callout {stripped[:30]!r} {at}")
    elif _PANDOC_DIV_RE.match(line) and QUARTO not in found and RMARKDOWN not in found:
        found.add(QUARTO, f"fenced div {stripped[:30]!r} {at}")
    if _DOCUSAURUS_RE.match(line):
        found.add(DOCUSAURUS, f"{stripped[:30]!r} {at}")
    if _ALERT_RE.match(line):
        found.add(ALERTS, f"{stripped[:20]!r} {at}")
    if _HF_TAG_RE.match(line) or _HF_AUTODOC_RE.match(line):
        found.add(HF_DOC_BUILDER, f"{stripped[:30]!r} {at}")
    elif "[`" in line and (ref := _HF_REF_RE.search(line)):
        found.add(HF_DOC_BUILDER, f"reference {ref.group(0)[:40]!r} {at}")
    elif "HuggingFace Team" in line and number < 5:
        found.add(HF_DOC_BUILDER, f"licence header {at}")
    if _JSX_RE.match(line) and not _HF_TAG_RE.match(line):
        found.add(MDX, f"component {stripped[:30]!r} {at}")
    elif _ESM_RE.match(line) and (" from " in line or line.startswith("export ")):
        found.add(MDX, f"{stripped[:30]!r} {at}")
    if _MKDOCS_RE.match(line):
        found.add(MKDOCS, f"{stripped[:30]!r} {at}")
    if "{" in line and (tag := _KRAMDOWN_RE.search(line)):
        found.add(KRAMDOWN, f"{tag.group(0)!r} {at}")
    if "{{" in line and _HUGO_RE.search(line):
        found.add(HUGO, f"shortcode {at}")
