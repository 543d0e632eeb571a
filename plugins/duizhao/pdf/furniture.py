"""Page furniture the layout pass tells from a float (issue 20): folios (bare page numbers
rising at one height from page to page, however close to the text) and the lines set between
a table's rules (a header row at a page's top recurs on another page as a running head does,
yet is a row). Pure, on the page layout of :mod:`.page_layout`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import TYPE_CHECKING

from .geometry import Box, overlap_len
from .settings import Settings

if TYPE_CHECKING:
    from .page_layout import Layout, PageLayout
    from .text import Line

__all__ = ["between_rules", "folios", "thin_rules"]


def thin_rules(page: PageLayout, s: Settings) -> list[Box]:
    """The page's graphics thin enough (``float_rule_height``) to rule a table's rows."""
    return [g.box for g in page.graphics if g.box[3] - g.box[1] <= s.float_rule_height]


def between_rules(box: Box, rules: Iterable[Box], layout: Layout) -> bool:
    """A line boxed ``box`` with a rule right over and one right under it (within
    ``ruled_row_reach`` leadings), each across most of its width, is a table's row: a
    header row filling its column, at a page's top as well."""
    s = layout.settings
    reach = s.ruled_row_reach * layout.leading
    width = box[2] - box[0]
    over = under = False
    for g in rules:
        if overlap_len(g[0], g[2], box[0], box[2]) < s.ruled_row_span * width:
            continue
        over |= 0 <= box[1] - g[3] <= reach
        under |= 0 <= g[1] - box[3] <= reach
    return over and under


def folios(layout: Layout) -> list[Line]:
    """Bare arabic page numbers that stand at one height as a page's top or bottom line on
    ``folio_pages`` pages or more, rising from page to page (a paper cut to some of its pages
    skips numbers). They are page furniture even with text or a float a line away, where
    :func:`mark_running` takes no bare number for a running head (it may be a tick label)."""
    s = layout.settings
    rows: list[list[tuple[int, Line]]] = []
    for page in layout.pages:
        live = sorted((ln for ln in page.lines if ln.role == "text"), key=lambda ln: ln.y0)
        for ln in live[:1] + live[-1:]:
            text = ln.text.strip()
            near_edge = ln.y1 <= s.running_zone * page.height
            near_edge = near_edge or ln.y0 >= (1 - s.running_zone) * page.height
            if not (near_edge and text.isdigit()):
                continue
            row = next((r for r in rows if abs(r[0][1].y0 - ln.y0) <= s.running_height), None)
            if row is None:
                rows.append([(int(text), ln)])
            elif row[-1][1].page != ln.page:
                row.append((int(text), ln))
    out: list[Line] = []
    for row in rows:
        numbers = [n for n, _ in row]
        if len(row) >= s.folio_pages and all(a < b for a, b in itertools.pairwise(numbers)):
            out.extend(ln for _, ln in row)
    return out
