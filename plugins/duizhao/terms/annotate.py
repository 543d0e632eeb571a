"""The first use of each glossary term per page and side, marked in a page's HTML.

A term becomes ``<abbr class="dz-term" tabindex="0" title="rendering：definition">`` — the
element Material's tooltips (``content.tooltips``) attach to; without them the ``title`` is the
browser's own tooltip on hover, and duizhao.css shows it on focus, so a tap or the keyboard
shows it too. Never inside code, math, links, headings, scripts or another abbreviation. The
side is the paragraph block's (``dz-en``: English terms, with their Chinese rendering;
elsewhere: the Chinese renderings, with their English form). Pure.
"""

from __future__ import annotations

import operator
import re
import weakref

from ..escape import html_attr
from ..quality.glossary.match import Matcher, mask
from ..quality.glossary.model import Entry

_TAG_RE = re.compile(r"<[^<>]*>")
_NAME_RE = re.compile(r"</?([A-Za-z][A-Za-z0-9-]*)")
_CLASS_RE = re.compile(r"""\bclass\s*=\s*["']([^"']*)["']""")
#: Elements whose text is never annotated.
SKIP = frozenset(
    {
        "code",
        "pre",
        "kbd",
        "samp",
        "a",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "script",
        "style",
        "abbr",
        "math",
        "svg",
        "textarea",
        "button",
        "title",
    }
)
VOID = frozenset({"br", "img", "hr", "input", "meta", "link", "wbr", "source", "col", "area"})


def tooltip(entry: Entry, side: str) -> str:
    head = entry.zh if side == "en" else entry.en[0]
    if side != "en" and entry.latin:
        head = entry.en[0]
    return f"{head}：{entry.definition}" if entry.definition else head


def annotate(html: str, matcher: Matcher) -> str:
    """``html`` with the first use of each term per side marked."""
    seen: dict[str, set[int]] = {"en": set(), "zh": set()}
    out: list[str] = []
    done = 0  # html[:done] is in out
    side = "zh"
    skip: str | None = None
    depth = 0
    pos = 0
    for m in _TAG_RE.finditer(html):
        start = m.start()
        if skip is None and start > pos:
            text = html[pos:start]
            marked = _mark(text, matcher, side, seen[side])
            if marked is not text:
                out += [html[done:pos], marked]
                done = start
        tag = m.group()
        pos = m.end()
        if skip is None and tag[1] == "/":
            continue  # a closing tag outside skipped elements changes nothing
        name_match = _NAME_RE.match(tag)
        if name_match is None:
            continue
        name = name_match.group(1).lower()
        closing = tag.startswith("</")
        if skip is not None:
            if name == skip and not tag.endswith("/>"):
                depth += -1 if closing else 1
                if depth == 0:
                    skip = None
            continue
        if closing or name in VOID or tag.endswith("/>"):
            continue
        classes = _CLASS_RE.search(tag)
        names = classes.group(1).split() if classes else []
        if "dz-en" in names:
            side = "en"
        elif "dz-zh" in names:
            side = "zh"
        if name in SKIP or "arithmatex" in names or "katex" in names or "dz-pid" in names:
            skip, depth = name, 1
    rest = html[pos:]
    marked = _mark(rest, matcher, side, seen[side]) if skip is None and rest else rest
    if marked is rest and not out:
        return html
    out += [html[done:pos], marked]
    return "".join(out)


_MASKED_RE = re.compile(r"[`$\\\]<&]|https?:")
#: The opening tag of each entry's mark, by matcher and (entry number, side).
_OPENING: weakref.WeakKeyDictionary[Matcher, dict[tuple[int, str], str]] = (
    weakref.WeakKeyDictionary()
)


_start = operator.itemgetter(0)


def _mark(text: str, matcher: Matcher, side: str, seen: set[int]) -> str:
    if text.isspace():  # most text between tags
        return text
    masked = mask(text) if _MASKED_RE.search(text) else text  # entities, URLs: never cut
    if side == "en":
        kept = matcher.english_raw(masked)
    else:
        kept = matcher.chinese_raw(masked)
        if matcher.has_latin:  # terms a translation keeps in Latin letters
            latin = matcher.latin_keys
            latin_hits = [h for h in matcher.english_raw(masked) if h[2] in latin]
            if latin_hits:  # by start; of two that start together, the rendering first
                kept = sorted(kept + latin_hits, key=_start)
    if not kept:
        return text
    entry_id, number, items = matcher.entry_id, matcher.entry_number, matcher.items
    openings = _OPENING.get(matcher)
    if openings is None:
        openings = _OPENING[matcher] = {}
    out: list[str] = []
    pos = 0
    for start, end, key in kept:
        ident = entry_id[key]
        if ident in seen or start < pos:
            continue
        entry, term = items[key]
        if term in entry.zh_forbidden:
            continue
        seen.add(ident)
        opening = openings.get((number[key], side))
        if opening is None:
            tip = html_attr(tooltip(entry, side))
            opening = openings[number[key], side] = (
                f'<abbr class="dz-term" tabindex="0" title="{tip}">'
            )
        out += [text[pos:start], opening, text[start:end], "</abbr>"]
        pos = end
    if not out:
        return text
    out.append(text[pos:])
    return "".join(out)
