"""Seed records (``seeds/<slug>.yml``) and the article skeletons ``duizhao new`` writes.

Pure apart from :func:`write_new`, which writes one file atomically and never overwrites.

A seed record holds what the seed documents say about one topic and nothing more::

    slug: xdeepserve-cloudmatrix384
    title: xDeepServe on CloudMatrix384
    section: 1-AI Systems
    weight: 20                 # position in the section (smaller first)
    featured: true             # optional: the home page's featured article
    intro: [导言 paragraph, ...]
    paper: {title: ..., authors: ..., version: arXiv v6, license: CC-BY-4.0, changes: ...}
    paragraphs: P001-P129      # optional facts: declared range, figure count, date
    figures: 20
    date: "2026-07-07"
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .article import INTRO_HEADING, MAX_PARAGRAPHS, parse_range
from .diagnostics import Diagnostic
from .escape import markdown_text
from .yamlsafe import InputError, load_yaml_file

SLUG_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
#: Seed keys copied into the article's front matter, in this order, when present.
FRONT_MATTER_KEYS = ("paper", "paragraphs", "figures", "date", "weight", "featured")


class SeedError(ValueError):
    """A seed record that cannot be used: ``PATH:LINE: DZ207 message`` naming the field."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.format())
        self.diagnostic = diagnostic


@dataclass(frozen=True)
class Seed:
    path: Path
    slug: str
    title: str
    section: str
    intro: tuple[str, ...]
    data: dict[str, Any] = field(default_factory=dict)


def load_seed(path: Path) -> Seed:
    def fail(message: str, line: int = 1) -> SeedError:
        return SeedError(Diagnostic(path, line, "DZ207", message))

    try:
        data, node = load_yaml_file(path)
    except FileNotFoundError:
        raise fail("cannot read: no such file") from None
    except InputError as exc:
        raise fail(f"not valid YAML: {exc.message}", exc.line) from None
    if not isinstance(data, dict):
        raise fail("expected 'key: value' pairs such as 'slug: my-topic'")
    lines = {
        str(k.value): k.start_mark.line + 1
        for k, _v in (node.value if isinstance(node, yaml.MappingNode) else [])
        if isinstance(k, yaml.ScalarNode)
    }

    def text(key: str) -> str:
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            raise fail(f"'{key}' is missing or not text", lines.get(key, 1))
        return value

    slug = text("slug")
    if not SLUG_RE.fullmatch(slug):
        raise fail(
            f"slug {slug[:80]!r} should be lowercase words joined by '-'", lines.get("slug", 1)
        )
    intro = data.get("intro")
    if (
        not isinstance(intro, list)
        or not intro
        or not all(isinstance(p, str) and p.strip() for p in intro)
    ):
        raise fail("'intro' should be a list of paragraphs (text)", lines.get("intro", 1))
    if "paragraphs" in data and parse_range(data["paragraphs"]) is None:
        raise fail(
            f"'paragraphs: {str(data['paragraphs'])[:80]}' should look like P001-P129 "
            f"(at most {MAX_PARAGRAPHS:,} paragraphs)",
            lines.get("paragraphs", 1),
        )
    if "paper" in data and not isinstance(data["paper"], dict):
        raise fail("'paper' should be a mapping (title, license, ...)", lines.get("paper", 1))
    return Seed(path, slug, text("title"), text("section"), tuple(intro), data)


def section_folder(sections: Mapping[str, str], title: str) -> str | None:
    """The docs folder whose configured section title is ``title``."""
    return next((folder for folder, t in sections.items() if t == title), None)


def _progress_note(seed: Seed) -> str:
    rng = parse_range(seed.data.get("paragraphs"))
    figures = seed.data.get("figures")
    has_figures = isinstance(figures, int) and not isinstance(figures, bool) and figures > 0
    if rng is not None:
        span = f"{rng.format_id(rng.start)}–{rng.format_id(rng.end)}"
        plan = f"本文计划逐段翻译论文的 {span}（共 {rng.end - rng.start + 1} 段）"
        if has_figures:
            plan += f"，并收录 {figures} 幅原图"
        return plan + "；译文尚未录入。"
    if has_figures:
        return f"本文计划收录论文的 {figures} 幅原图；正文尚未录入。"
    return "正文尚未录入。"


def render_article(seed: Seed) -> str:
    """The skeleton: front matter, title, the 导言 as seeded, an honest "翻译进行中" state."""
    meta: dict[str, Any] = {"title": seed.title}
    meta.update({k: seed.data[k] for k in FRONT_MATTER_KEYS if k in seed.data})
    meta["status"] = "draft"
    front = yaml.safe_dump(meta, allow_unicode=True, sort_keys=False, width=10_000)
    intro = "\n\n".join(p.strip() for p in seed.intro)
    return (
        f"---\n{front}---\n\n# {markdown_text(seed.title)}\n\n## {INTRO_HEADING}\n\n{intro}\n\n"
        f'## 正文\n\n!!! info "翻译进行中"\n\n    {_progress_note(seed)}\n'
    )


def write_new(path: Path, text: str) -> None:
    """Write ``text`` to a new file ``path`` atomically; FileExistsError if it exists.

    The content goes to a temporary file in the same folder first, so ``path`` is never seen
    half written; a hard link puts it in place without ever replacing an existing file.
    """
    if path.exists():
        raise FileExistsError(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise
        except OSError:  # no hard links on this file system: check, then rename
            if path.exists():
                raise FileExistsError(path) from None
            os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
