"""The alignment's passes over runs and rare words, and its guard (:mod:`duizhao.importer.align`,
steps 5c, 7f, 7h and 9): items of a term list carried by their term, paragraphs reworded one by
one in the same order between carried neighbours, paragraphs rewritten about the same named
things, and carries of one template's look-alikes undone. Pure.
"""

from __future__ import annotations

import re
from collections import Counter
from difflib import SequenceMatcher

from .align_leftovers import _clearly_best, _run_table, _runs, _shape
from .align_model import Fate, Match, Thresholds
from .similarity import _common, _similarity, _Units, longest_increasing, marks

#: a stretch of prose this long kept word for word says the carry is the same paragraph
#: about a new name, not a template's look-alike ("… compute the number of dialogue per
#: language and filter the dataset." kept while `read_parquet` became `.format()`; the
#: look-alikes of a tutorial share at most "which will allow us to": 5 words)
SHARED_RUN_WORDS = 8
_WORD = re.compile(r"\w+")

#: the shortest part of a dotted name that counts as a shared name (`md`, `py`, `io` do not)
MARK_PART_CHARS = 3


def _rewritten_in_run(
    olds: _Units,
    news: _Units,
    matches: list[Match],
    used_old: set[int],
    used_new: set[int],
    t: Thresholds,
) -> list[Match]:
    """In each run left over between the same two carried neighbours (:func:`_runs`, at most
    ``ordered_run`` on a side), the pairs with the evidence of ``Thresholds.run_words`` …
    (:func:`_run_evidence`) that beat every other pair of their row and column clearly,
    paired in the order of both (the longest increasing chain of them). With nothing
    carried there is no place to be in (and every word of a page of one paragraph is rare)."""
    out: list[Match] = []
    if not any(m.old and m.new for m in matches):
        return out
    for run_old, run_new, sole in _runs(olds, news, matches, used_old, used_new):
        if max(len(run_old), len(run_new)) > t.ordered_run:
            continue
        floor = t.run_words - t.run_margin
        table, rows, cols = _run_table(olds, news, run_old, run_new, floor)
        chosen = [
            (i, j, s)
            for (i, j), s in sorted(table.items())
            if s >= min(t.run_words, t.sole_words)
            and _clearly_best(s, rows[i], cols[j], t.run_margin)
            and _run_evidence(olds, news, i, j, s, t, sole=sole)
        ]
        for i, j, s in longest_increasing((j, (i, j, s)) for i, j, s in chosen):
            if _names_changed(olds.keys[i], news.keys[j]):
                continue
            fate: Fate = "edited" if s >= t.edited else "rewritten"
            out.append(Match(fate, (i,), (j,), round(s, 3), "in place, reworded in a run"))
            used_old.add(i)
            used_new.add(j)
    return out


#: the longest definition term or bold lead that labels a unit (:func:`label`): more words
#: are a sentence with a colon in it, not a term
LABEL_WORDS = 6


#: what a plan says of a pair carried by :func:`_labelled_in_run`
SAME_LABEL = "in place, the same label"


def label(key: str) -> str:
    """What a unit is labelled by, folded: the term of a definition-list item (the import
    writes ``term : definition``) or a bold lead (``**Term** …``); "" when it has none."""
    if key.startswith("**"):
        end = key.find("**", 2)
        term = key[2:end] if end > 2 else ""
    else:
        end = key.find(" : ")
        term = key[:end] if end > 0 else ""
    term = term.strip().rstrip(":.").strip()
    if not term or len(term.split()) > LABEL_WORDS or any(c in term for c in ".!?\n"):
        return ""
    return term.casefold()


def _labelled_in_run(
    olds: _Units,
    news: _Units,
    matches: list[Match],
    used_old: set[int],
    used_new: set[int],
    t: Thresholds,
) -> list[Match]:
    """Items of a list of terms rewritten in place (``Thresholds.label_words``): in a run left
    over between the same two carried neighbours (:func:`_runs`), a long or short unit of
    each side with the same :func:`label`, that label on no other unit of either version,
    at a word similarity of ``label_words``, paired in the order of both. Hugo's page
    bundles described each bundle of its example tree anew ("about : This leaf bundle is at
    the root level … and has only the `index.md`." -> "about : This leaf bundle does not
    contain any page resources.", 0.32) while the other items, one template, look alike."""
    out: list[Match] = []
    if not any(m.old and m.new for m in matches):
        return out
    old_labels, new_labels = _labels(olds), _labels(news)
    for run_old, run_new, _sole in _runs(olds, news, matches, used_old, used_new):
        by_label = {old_labels[i]: i for i in run_old if old_labels[i]}
        chosen = []
        for j in run_new:
            i = by_label.get(new_labels[j], -1)
            if i < 0 or _shape(olds.keys[i]) != _shape(news.keys[j]):
                continue
            s = _similarity(olds.words[i], news.words[j], t.label_words)
            if s:
                chosen.append((i, j, s))
        for i, j, s in longest_increasing((j, (i, j, s)) for i, j, s in sorted(chosen)):
            fate: Fate = "edited" if s >= t.edited else "rewritten"
            out.append(Match(fate, (i,), (j,), round(s, 3), SAME_LABEL))
            used_old.add(i)
            used_new.add(j)
    return out


def _labels(units: _Units) -> list[str]:
    """Each unit's :func:`label` when no other unit of its side has it ("" otherwise: a
    "**Note**" said on many is no name)."""
    found = [label(key) for key in units.keys]
    seen = Counter(found)
    return [term if term and seen[term] == 1 else "" for term in found]


def _naming_the_same(
    olds: _Units, news: _Units, used_old: set[int], used_new: set[int], t: Thresholds
) -> list[Match]:
    """Rewritten, anywhere, about the same things (``Thresholds.rare_shared``): a long old
    paragraph and a long new one left over, of one shape (prose or a list) and length
    (``run_ratio``), that share ``rare_shared`` rare content words (each in at most
    ``run_rare_units`` units of its side), ``rare_shared_over`` times as many as any other
    pair of their row or column shares, at a word similarity of ``rare_shared_words``."""
    out: list[Match] = []
    if min(len(olds.keys), len(news.keys)) < t.run_page_units:
        return out

    def rest(units: _Units, used: set[int]) -> list[int]:
        return [
            k
            for k in range(len(units.keys))
            if k not in used and units.keys[k] and units.counts[k] >= t.short_words
        ]

    holders: dict[str, list[int]] = {}
    for j in rest(news, used_new):
        for word in news.rare_content(j, t.run_rare_units):
            holders.setdefault(word, []).append(j)
    shared: dict[tuple[int, int], int] = {}
    for i in rest(olds, used_old):
        for word in olds.rare_content(i, t.run_rare_units):
            for j in holders.get(word, ()):
                shared[(i, j)] = shared.get((i, j), 0) + 1
    rows: dict[int, list[int]] = {}
    cols: dict[int, list[int]] = {}
    for (i, j), n in shared.items():
        rows.setdefault(i, []).append(n)
        cols.setdefault(j, []).append(n)
    for (i, j), n in sorted(shared.items()):
        if n < t.rare_shared:
            continue
        others = sorted(rows[i], reverse=True)[1:2] + sorted(cols[j], reverse=True)[1:2]
        if any(n < t.rare_shared_over * other for other in others):
            continue
        shape = _shape(olds.keys[i])
        if shape not in ("prose", "list") or shape != _shape(news.keys[j]):
            continue
        fewer, more = sorted((olds.counts[i], news.counts[j]))
        if more > t.run_ratio * fewer:
            continue
        s = _similarity(olds.words[i], news.words[j], t.rare_shared_words)
        if not s:
            continue
        fate: Fate = "edited" if s >= t.edited else "rewritten"
        out.append(Match(fate, (i,), (j,), round(s, 3), "rewritten, naming the same things"))
        used_old.add(i)
        used_new.add(j)
    return out


def _run_evidence(
    olds: _Units, news: _Units, i: int, j: int, s: float, t: Thresholds, *, sole: bool
) -> bool:
    """Whether old ``i`` and new ``j``, at word similarity ``s``, are one paragraph reworded
    in its place (``Thresholds.run_words`` …; ``sole_words`` … for the one long paragraph
    left on each side right between two carried neighbours)."""
    n_old, n_new = olds.counts[i], news.counts[j]
    if min(n_old, n_new) < t.run_min_words or max(n_old, n_new) > t.run_ratio * min(n_old, n_new):
        return False
    if _shape(olds.keys[i]) != _shape(news.keys[j]):
        return False
    alone = sole and min(n_old, n_new) >= t.short_words
    words, kept, rare_need = (
        (t.sole_words, t.sole_kept, t.sole_rare) if alone else (t.run_words, t.run_kept, t.run_rare)
    )
    a, b = olds.words[i], news.words[j]
    if _common(a, b) < kept * min(len(a), len(b)):
        return False
    if s >= words and min(len(olds.keys), len(news.keys)) >= t.run_page_units:
        rare = olds.rare_content(i, t.run_rare_units) & news.rare_content(j, t.run_rare_units)
        if len(rare) >= rare_need:
            return True
    return sole and min(n_old, n_new) < t.short_words and s >= t.positional


def _short_carry(m: Match, olds: _Units, news: _Units, t: Thresholds) -> bool:
    """Whether a side of ``m`` is a short unit (``Thresholds.short_words``)."""
    return (
        min(olds.counts[i] for i in m.old) < t.short_words
        or min(news.counts[j] for j in m.new) < t.short_words
    )


def _names_changed(old_key: str, new_key: str) -> bool:
    """Whether both keys name things (:func:`marks`) and share none of them, nor a part of one,
    nor a stretch of ``SHARED_RUN_WORDS`` words of prose (``Thresholds``: look-alikes of one
    template)."""
    mine, theirs = _named(marks(old_key)), _named(marks(new_key))
    if not mine or not theirs or mine & theirs:
        return False
    if _mark_parts(mine) & _mark_parts(theirs):
        return False
    return _longest_shared_run(old_key, new_key) < SHARED_RUN_WORDS


def _longest_shared_run(old_key: str, new_key: str) -> int:
    """The longest run of words (folded) the two keys share, in order and unbroken."""
    a, b = _WORD.findall(old_key.casefold()), _WORD.findall(new_key.casefold())
    return SequenceMatcher(None, a, b, autojunk=False).find_longest_match().size


def _named(found: frozenset[str]) -> frozenset[str]:
    """The marks with a letter: a figure changed ("0.17.1" -> "0.19.1") is an edit of the
    same sentence, which the translator updates."""
    return frozenset(mark for mark in found if any(c.isalpha() for c in mark))


def _mark_parts(found: frozenset[str]) -> set[str]:
    """The marks' words, folded, without the span's quotes or backticks: a path cut at its
    slashes (`templates/blog.html`: `templates`, `blog.html`), a dotted name (not a URL) at
    its dots too (`starlette.websockets.Disconnect`: `starlette`, `websockets`, …) keeping
    parts of ``MARK_PART_CHARS`` or more, and each mark's letters and digits alone (`--no-semi`
    and `noSemi` are one option)."""
    out: set[str] = set()
    for mark in found:
        bare = mark.strip('`"[]')
        out.add("".join(c for c in bare if c.isalnum()).casefold())
        for part in bare.replace("/", " ").split():
            part = part.strip("`\"'()[]{}.,:;!?").casefold()
            if part:
                out.add(part)
            if part and "://" not in bare:
                out.update(p for p in part.split(".") if len(p) >= MARK_PART_CHARS)
    out.discard("")
    return out


def _without_look_alikes(
    matches: list[Match],
    olds: _Units,
    news: _Units,
    used_old: set[int],
    used_new: set[int],
    t: Thresholds,
) -> list[Match]:
    """``matches`` without the weak carries (under ``edited``, or of a short unit, whose
    name is much of it) whose sides name different things (:func:`_names_changed`); their
    paragraphs are left removed and new. A pair with the same label (:func:`_labelled_in_run`)
    names the same thing by it: "my-post : This leaf bundle has the `index.md` …" and
    "my-post : … two resources of resource type `page` …" share no code span."""
    out: list[Match] = []
    for m in matches:
        if (
            m.old
            and m.new
            and m.fate not in ("same", "moved")
            and m.why != SAME_LABEL
            and (m.score < t.edited or _short_carry(m, olds, news, t))
            and _names_changed(
                " ".join(olds.keys[i] for i in m.old), " ".join(news.keys[j] for j in m.new)
            )
        ):
            used_old.difference_update(m.old)
            used_new.difference_update(m.new)
            continue
        out.append(m)
    return out
