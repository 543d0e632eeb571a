"""The catalog: specs and sources of a build or check run, their checks and crop plans. Pure."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..article import Article, FigurePlacement
from ..diagnostics import Diagnostic
from ..yamlsafe import MAX_BINARY_BYTES, InputError, read_bytes
from .spec import (
    EXAMPLE,
    KINDS,
    MAX_NUMBER,
    FigureSpec,
    Spec,
    SpecError,
    anchor,
    describe,
    load_spec,
    parse_key,
    spec_path,
)

# Sources, crops and the cache (hashlib, Pillow's helpers, atomic writes) are imported where a
# figure spec is first planned: `duizhao check` of a corpus without figures never needs them.
if TYPE_CHECKING:
    from .cache import Cache
    from .crops import Crop, Encoder
    from .sources import SourceInfo


@dataclass
class ArticleFigures:
    """The figures of one article: its spec and a crop for each usable declared figure."""

    article: Article
    spec: Spec | None
    #: by key (``3``, ``table-2``)
    crops: dict[str, Crop] = field(default_factory=dict)

    @property
    def figures(self) -> dict[str, FigureSpec]:
        """Declared entries by key: ``3`` for figure 3, ``table-2`` for table 2."""
        return {f.key: f for f in self.spec.figures} if self.spec else {}

    def placed(self) -> list[tuple[FigurePlacement, FigureSpec, Crop | None]]:
        """Placements with a declared entry, first placement of each, in page order."""
        declared = self.figures
        seen: set[str] = set()
        out = []
        for placement in self.article.figures:
            key = placement.id
            if key in declared and key not in seen:
                seen.add(key)
                out.append((placement, declared[key], self.crops.get(key)))
        return out


class Catalog:
    """Specs and sources seen in one build or check run, read once each.

    ``root`` is the project root (the folder of mkdocs.yml): no source may lie outside it.
    ``cache`` (optional) remembers what was learnt about each source by its digest, so a warm
    build does not decode images again.
    """

    def __init__(self, root: Path, cache: Cache | None = None, encoder: Encoder | None = None):
        self.root = Path(os.path.realpath(root))
        self.cache = cache
        self._encoder = encoder
        self._specs: dict[Path, Spec | None] = {}
        self._sources: dict[Path, SourceInfo] = {}
        self._articles: dict[Path, ArticleFigures] = {}

    @property
    def encoder(self) -> Encoder:
        if self._encoder is None:
            from .crops import Encoder

            self._encoder = Encoder()
        return self._encoder

    def spec(self, article: Article) -> Spec | None:
        path = spec_path(article.path)
        key = path.resolve()
        if key not in self._specs:
            self._specs[key] = load_spec(path, self.root) if path.is_file() else None
        return self._specs[key]

    def source(self, path: Path) -> SourceInfo:
        from .sources import SourceInfo, digest_bytes, inspect_source, sniff

        if path not in self._sources:
            try:
                data = read_bytes(path, MAX_BINARY_BYTES)  # a regular file, bounded
            except (OSError, InputError) as exc:
                reason = exc.message if isinstance(exc, InputError) else exc.strerror
                info = SourceInfo("", "bad", (), "DZ106", f"cannot read: {reason}")
            else:
                digest = digest_bytes(data)
                # (a manifest entry counts only for a file of an allowed kind)
                known = self.cache.source_info(digest) if self.cache and sniff(data) else None
                info = known or inspect_source(data, digest)
                if self.cache is not None:
                    self.cache.remember_source(info)
            self._sources[path] = info
        return self._sources[path]

    def sources(self) -> list[Path]:
        """Every source file named by a spec read so far."""
        found = {f.source.path for s in self._specs.values() if s for f in s.figures}
        return sorted(found)

    def figures(self, article: Article) -> ArticleFigures:
        """The article's spec and crop plan (problems are reported by :meth:`check`)."""
        key = article.path.resolve()
        if key not in self._articles:
            spec = self.spec(article)
            result = ArticleFigures(article, spec)
            if spec is not None:
                for figure in spec.figures:
                    crop, _problem = self._plan(figure)
                    if crop is not None:
                        result.crops[figure.key] = crop
            self._articles[key] = result
        return self._articles[key]

    def _plan(self, figure: FigureSpec) -> tuple[Crop | None, SpecError | None]:
        from .crops import Crop, crop_key, crop_size
        from .sources import MAX_PAGE_POINTS

        info = self.source(figure.source.path)
        where = f"source {figure.source.written!r}"
        if info.kind == "bad":
            return None, SpecError(figure.source.line, info.code, f"{where}: {info.error}")
        box = figure.box
        if info.kind == "pdf":
            if figure.page is None:
                return None, SpecError(
                    figure.line,
                    "DZ108",
                    f"{figure.kind} {figure.id} has no page; {where} is a PDF of {len(info.sizes)} "
                    "pages: add 'page: N' (1-based)",
                )
            if not 1 <= figure.page <= len(info.sizes):
                return None, SpecError(
                    figure.page_line,
                    "DZ108",
                    f"page {figure.page} of figure {figure.id} is out of range: {where} has "
                    f"{len(info.sizes)} page{'s' * (len(info.sizes) != 1)}",
                )
            width, height = info.sizes[figure.page - 1]
            unit = "points"
            if not (0 < width <= MAX_PAGE_POINTS and 0 < height <= MAX_PAGE_POINTS):
                return None, SpecError(
                    figure.page_line,
                    "DZ111",
                    f"page {figure.page} of {where} is {width:g} × {height:g} points, over the "
                    f"{MAX_PAGE_POINTS:g} pt (200 in) a PDF page may measure; refused, not "
                    "rendered",
                )
        else:
            if figure.page is not None and figure.page != 1:
                return None, SpecError(
                    figure.page_line,
                    "DZ108",
                    f"{figure.kind} {figure.id} names page {figure.page}, but {where} is an image "
                    "with one page; remove 'page:'",
                )
            width, height = info.sizes[0]
            unit = "pixels"
        eps = 1e-6
        if box[0] < -eps or box[1] < -eps or box[2] > width + eps or box[3] > height + eps:
            return None, SpecError(
                figure.box_line,
                "DZ109",
                f"box {[round(v, 2) for v in box]} of figure {figure.id} is outside the page "
                f"({width:g} × {height:g} {unit}, origin at the top-left); "
                f"keep 0 ≤ x ≤ {width:g} and 0 ≤ y ≤ {height:g}",
            )
        w, h = crop_size(info.kind, box, figure.dpi)
        from PIL import Image  # loaded only for a spec with boxes to check

        limit = Image.MAX_IMAGE_PIXELS
        if limit is not None and w * h > limit:  # checked before any pixel is rendered
            return None, SpecError(
                figure.box_line,
                "DZ111",
                f"{figure.kind} {figure.id} would be {w} × {h} pixels at {figure.dpi} dpi, over "
                f"Pillow's decompression-bomb limit of {limit}; lower 'dpi:'",
            )
        fmt = self.encoder.choose(w, h)
        page = figure.page if info.kind == "pdf" else None
        dpi = figure.dpi if info.kind == "pdf" else None
        key = crop_key(info.digest, page, box, dpi, fmt, self.encoder)
        return Crop(figure, info.kind, info.digest, w, h, fmt, key), None

    def check(self, article: Article) -> list[Diagnostic]:
        """DZ1xx problems of one article and its spec, each at its line in the .md or .yml."""
        spec = self.spec(article)
        found: list[Diagnostic] = []
        placements = article.figures
        count = article.meta.get("figures")
        if spec is None and not placements and count is None:
            return found
        found.extend(_check_count(article, spec))
        if spec is None:
            for p in placements:
                found.append(
                    Diagnostic(
                        article.path,
                        p.line,
                        "DZ101",
                        f"'/// figure | {_cut(p.id)}' places a figure, but there is no "
                        f"{spec_path(article.path).name} declaring it; create it with "
                        f"'figures:' then '  {EXAMPLE}'",
                    )
                )
            return found
        found.extend(spec.diagnostics)
        for figure in spec.figures:
            _crop, problem = self._plan(figure)
            if problem is not None:
                diagnostic = Diagnostic(spec.path, problem.line, problem.code, problem.message)
                if diagnostic not in found:  # one bad default source, many figures
                    found.append(diagnostic)
        if not spec.readable:
            return found
        seen: dict[str, int] = {}
        tables = any(not k.isdigit() for k in spec.declared)
        for p in placements:
            if p.id in seen:
                found.append(
                    Diagnostic(
                        article.path,
                        p.line,
                        "DZ102",
                        f"{describe(p.id)} is placed twice (first at line {seen[p.id]}); "
                        f"remove this '/// figure | {_cut(p.id)}' or refer to it with "
                        f"'[](#{_cut(anchor(p.id))})'",
                    )
                )
                continue
            seen[p.id] = p.line
            if p.id not in spec.declared:
                ids = ", ".join(sorted(spec.declared, key=_order)) or "none"
                found.append(
                    Diagnostic(
                        article.path,
                        p.line,
                        "DZ101",
                        f"'/// figure | {_cut(p.id)}' places an unknown figure; "
                        f"{spec.path.name} declares {ids}: write '/// figure | N'"
                        + (" or '/// figure | table-N'" if tables else "")
                        + " with one of them",
                    )
                )
        if not article.is_draft:
            for fid, line in sorted(spec.declared.items(), key=lambda kv: _order(kv[0])):
                if fid not in seen:
                    found.append(
                        Diagnostic(
                            spec.path,
                            line,
                            "DZ103",
                            f"{describe(fid)} is declared but never placed in "
                            f"{article.path.name}; "
                            f"add '/// figure | {fid}' and '///' where it belongs, or set "
                            "'status: draft'",
                        )
                    )
        return found


def _cut(text: str, limit: int = 40) -> str:
    """An author's figure argument, cut for a message (it may be thousands of characters)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _check_count(article: Article, spec: Spec | None) -> Iterator[Diagnostic]:
    if "figures" not in article.meta:
        return
    line = article.meta_lines.get("figures", 1)
    value = article.meta["figures"]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        yield Diagnostic(
            article.path,
            line,
            "DZ104",
            f"'figures: {value}' must be the paper's figure count, as in 'figures: 20'",
        )
        return
    if value > MAX_NUMBER:
        yield Diagnostic(
            article.path,
            line,
            "DZ104",
            f"'figures: {_cut(str(value), 20)}' is more figures than a paper has "
            f"(at most {MAX_NUMBER:,}); write the paper's figure count, as in 'figures: 20'",
        )
        return
    # The count is of the paper's figures; its tables are numbered apart. The numbers 1 …
    # value are compared as runs, never enumerated: the count is the author's.
    declared = sorted({int(k) for k in spec.declared if k.isdigit()} if spec else set())
    inside = [n for n in declared if 1 <= n <= value]
    extra = [n for n in declared if not 1 <= n <= value]
    # A draft may still be declaring its figures (the 进度 page counts them); declaring more
    # figures than the paper has is wrong at any stage.
    missing = [] if article.is_draft else absent_runs(inside, 1, value)
    if not (missing or extra):
        return
    parts = []
    if missing:
        many = len(missing) > 1 or missing[0][0] != missing[0][1]
        parts.append(f"figure{'s' * many} {_show_runs(missing)} not declared")
    if extra:
        parts.append(f"figure{'s' * (len(extra) > 1)} {_ranges(extra)} beyond {value}")
    name = spec_path(article.path).name
    yield Diagnostic(
        article.path,
        line,
        "DZ104",
        f"'figures: {value}' disagrees with {name} ({'; '.join(parts)}); "
        f"declare figures 1-{value} there or correct the count",
    )


def _order(key: str) -> tuple[int, int, str]:
    """Figures first, then tables, each by number."""
    parsed = parse_key(key)
    if parsed is None:
        return (2, 0, key)
    return (KINDS.index(parsed[0]), parsed[1], key)


def _ranges(numbers: Sequence[int]) -> str:
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][1] == n - 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return _show_runs([(a, b) for a, b in runs])


def _show_runs(runs: Sequence[tuple[int, int]]) -> str:
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def absent_runs(present: Sequence[int], lo: int, hi: int) -> list[tuple[int, int]]:
    """The runs ``(a, b)`` of the numbers ``lo`` … ``hi`` not in sorted ``present``: the work
    is in the numbers present, never in ``hi - lo`` (a count an author wrote)."""
    runs: list[tuple[int, int]] = []
    at = lo
    for n in present:
        if n > hi:
            break
        if n > at:
            runs.append((at, n - 1))
        at = max(at, n + 1)
    if at <= hi:
        runs.append((at, hi))
    return runs
