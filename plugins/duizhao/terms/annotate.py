"""The first use of each glossary term per page and side, marked in a page's HTML.

A term becomes ``<abbr class="dz-term" tabindex="0" title="rendering：definition">`` — the
element Material's tooltips (``content.tooltips``) attach to; without them the ``title`` is the
browser's own tooltip on hover, and duizhao.css shows it on focus, so a tap or the keyboard
shows it too. Never inside code, math, links, headings, scripts or another abbreviation. The
side is the paragraph block's (``dz-en``: English terms, with their Chinese rendering;
elsewhere: the Chinese renderings, with their English form). Pure.
"""

from __future__ import annotations

import itertools
import operator
import re
import weakref

from ..escape import html_attr
from ..quality.glossary.match import Matcher, PageScans, Scan, _Raw, mask
from ..quality.glossary.model import Entry

_TAG_SPLIT_RE = re.compile(r"(<[^<>]*>)")
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


def annotate(html: str, matcher: Matcher, scans: PageScans | None = None) -> str:
    """``html`` with the first use of each term per side marked (``scans``: the glossary
    check's scans of the page's blocks, whose hits serve the texts they hold)."""
    # by side: the keys never marked again (those of the entries marked, forbidden renderings)
    seen = {"en": set(matcher.forbidden_keys), "zh": set(matcher.forbidden_keys)}
    parts = None
    if scans is not None and scans.signature == matcher.signature:
        parts = {"en": _Parts(scans.en), "zh": _Parts(scans.zh if not matcher.has_latin else [])}
    # the texts and tags of the page, alternating: pieces[even] a text, pieces[odd] a tag
    pieces = _TAG_SPLIT_RE.split(html)
    changed = False
    side = "zh"
    skip: str | None = None
    depth = 0
    effects: dict[str, _Effect | None] = {}  # by tag: most tags of a page repeat
    for index in range(1, len(pieces), 2):
        if skip is None:
            text = pieces[index - 1]
            if text and not text.isspace():
                marked = _mark(text, matcher, side, seen[side], parts[side] if parts else None)
                if marked is not text:
                    pieces[index - 1], changed = marked, True
        tag = pieces[index]
        if skip is not None:
            name_match = _NAME_RE.match(tag)
            if (
                name_match is not None
                and name_match.group(1).lower() == skip
                and not tag.endswith("/>")
            ):
                depth += -1 if tag[1] == "/" else 1
                if depth == 0:
                    skip = None
            continue
        if tag[1] == "/":
            continue  # a closing tag outside skipped elements changes nothing
        if tag in effects:
            effect = effects[tag]
        else:
            effect = effects[tag] = _effect(tag)
        if effect is not None:
            skip, new_side = effect
            if new_side:
                side = new_side
            if skip is not None:
                depth = 1
    rest = pieces[-1]
    if skip is None and rest and not rest.isspace():
        marked = _mark(rest, matcher, side, seen[side], parts[side] if parts else None)
        if marked is not rest:
            pieces[-1], changed = marked, True
    return "".join(pieces) if changed else html


#: What an opening tag outside a skipped element does: the element it opens if its text is
#: skipped (else None), and the side it starts ("en", "zh" or "" for no change).
_Effect = tuple[str | None, str]


def _effect(tag: str) -> _Effect | None:
    """What ``tag`` (not a closing one) does to the walk; None for nothing."""
    name_match = _NAME_RE.match(tag)
    if name_match is None:
        return None
    name = name_match.group(1).lower()
    if name in VOID or tag.endswith("/>"):
        return None
    classes = _CLASS_RE.search(tag)
    names = classes.group(1).split() if classes else []
    side = "en" if "dz-en" in names else "zh" if "dz-zh" in names else ""
    skipped = name in SKIP or "arithmatex" in names or "katex" in names or "dz-pid" in names
    if not side and not skipped:
        return None
    return (name if skipped else None, side)


_MASKED_RE = re.compile(r"[`$\\\]<&]|https?:")
#: The opening tag of each entry's mark, by matcher, side and entry number.
_OPENING: weakref.WeakKeyDictionary[Matcher, dict[str, dict[int, str]]] = (
    weakref.WeakKeyDictionary()
)


_start = operator.itemgetter(0)
_key = operator.itemgetter(2)


class _Parts:
    """A page's block scans on one side, and where the last text was found in them (the
    next text is most often further on in the same block, or in the next one)."""

    def __init__(self, scans: list[Scan]) -> None:
        self.scans = scans
        self.index = 0
        self.after = 0

    def find(self, matcher: Matcher, masked: str) -> tuple[int, list[_Raw]] | None:
        """The kept hits of ``masked`` as :meth:`Matcher.part` finds them, or None."""
        for index in (self.index, self.index + 1):
            if index >= len(self.scans):
                return None
            part = matcher.part(self.scans[index], masked, self.after if index == self.index else 0)
            if part is not None:
                self.index, self.after = index, part[0] + len(masked)
                return part
        return None


def _mark(
    text: str, matcher: Matcher, side: str, seen: set[int], parts: _Parts | None = None
) -> str:
    """``text`` (not blank: the walk skips those) with the first use of each entry whose keys
    are not in ``seen`` marked (and their keys added): the automaton's report is resolved only
    when it holds another key, and only the kept hits of those keys are looked at one by one
    (most hits are of entries marked already). Its hits are the block scan's where ``parts``
    holds it."""
    masked = mask(text) if _MASKED_RE.search(text) else text  # entities, URLs: never cut
    part = parts.find(matcher, masked) if parts is not None else None
    offset = 0
    if part is not None:
        offset, kept = part
    elif side == "en":
        kept = matcher.english_raw(masked, seen)
    else:
        kept = matcher.chinese_raw(masked, seen)
        if matcher.has_latin:  # terms a translation keeps in Latin letters
            latin = matcher.latin_keys
            latin_hits = [h for h in matcher.english_raw(masked) if h[2] in latin]
            if latin_hits:  # by start; of two that start together, the rendering first
                kept = sorted(kept + latin_hits, key=_start)
    if not kept or seen.issuperset(map(_key, kept)):
        return text
    fresh = set(map(_key, kept)).difference(seen)
    number, items, keys_of = matcher.entry_number, matcher.items, matcher.keys_of
    openings = _OPENING.get(matcher)
    if openings is None:
        openings = _OPENING[matcher] = {"en": {}, "zh": {}}
    opening_of = openings[side]  # by entry number
    out: list[str] = []
    pos = 0
    for start, end, key in itertools.compress(kept, map(fresh.__contains__, map(_key, kept))):
        start -= offset
        if key in seen or start < pos:
            continue
        entry_number = number[key]
        seen.update(keys_of[entry_number])
        opening = opening_of.get(entry_number)
        if opening is None:
            tip = html_attr(tooltip(items[key][0], side))
            opening = opening_of[entry_number] = (
                f'<abbr class="dz-term" tabindex="0" title="{tip}">'
            )
        end -= offset
        out += [text[pos:start], opening, text[start:end], "</abbr>"]
        pos = end
    if not out:
        return text
    out.append(text[pos:])
    return "".join(out)
