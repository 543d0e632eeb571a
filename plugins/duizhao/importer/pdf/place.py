"""Where each float goes among the units: after the first paragraph that refers to it
("Figure 3", "Fig. 3", "Table II", "Tables 2"), else where it stood in reading order."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...pdf.captions import to_roman
from ...pdf.geometry import inside
from ...pdf.page_layout import Layout
from .flow import Unit
from .lines import Float

_WORDS = {"table": r"(?:Table|TABLE|Tab\.)", "figure": r"(?:Figure|FIGURE|Fig\.|FIG\.)"}
_PATTERNS: dict[tuple[str, int], re.Pattern[str]] = {}


def reference_pattern(kind: str, number: int) -> re.Pattern[str]:
    """What a paragraph says to refer to a float (a table by its roman number too)."""
    key = (kind, number)
    pattern = _PATTERNS.get(key)
    if pattern is None:
        numbers = {str(number)}
        if kind == "table":
            numbers.add(to_roman(number))
        alternatives = "|".join(sorted(numbers))
        word = _WORDS.get(kind, _WORDS["figure"])
        pattern = re.compile(rf"{word}s?\s{{0,2}}(?:{alternatives})(?![0-9A-Za-z])")
        _PATTERNS[key] = pattern
    return pattern


def anchor(layout: Layout, f: Float) -> int:
    """The line number (in reading order) of a float's caption on its page: where it stood."""
    s = layout.settings
    page = layout.pages[f.page - 1] if 1 <= f.page <= len(layout.pages) else None
    numbers = [
        ln.number
        for ln in (page.lines if page else [])
        if inside(ln.box, f.caption_box, s.float_slack) or inside(ln.box, f.box, s.float_slack)
    ]
    return min(numbers, default=0)


def place(
    units: list[Unit], floats: Sequence[Float], anchors: Sequence[int]
) -> list[tuple[Unit, Float | None]]:
    """The units with each float after the first paragraph that refers to it; else where it
    stood: after the last unit that starts before it in reading order."""
    after: dict[int, list[Float]] = {}
    placed: set[int] = set()
    for idx, f in enumerate(floats):
        pattern = reference_pattern(f.kind, f.number)
        for i, u in enumerate(units):
            if u.kind == "paragraph" and pattern.search(u.text):
                after.setdefault(i, []).append(f)
                placed.add(idx)
                break
    for idx, f in enumerate(floats):
        if idx in placed:
            continue
        pos = -1
        for i, u in enumerate(units):
            if u.page and (u.page, u.line) < (f.page, anchors[idx]):
                pos = i
        after.setdefault(pos, []).append(f)
    out: list[tuple[Unit, Float | None]] = [
        (Unit("float", f.caption, 0, f.page), f) for f in after.get(-1, [])
    ]
    for i, u in enumerate(units):
        out.append((u, None))
        out.extend((Unit("float", f.caption, 0, f.page), f) for f in after.get(i, []))
    return out
